//! Result metrics: ranges, identity and symmetry on random tables.

use grape::engine::{run, Params, Table};
use grape::graph::Graph;
use grape::metrics::{execution_accuracy, item_scores};
use grape::value::Value;
use proptest::prelude::*;

fn table(rows: &[(i64, String)]) -> Table {
    let mut g = Graph::new();
    let mut p = Params::new();
    p.insert(
        "rows".into(),
        Value::List(
            rows.iter()
                .map(|(i, s)| Value::List(vec![Value::Int(*i), Value::from(s.as_str())]))
                .collect(),
        ),
    );
    run(&mut g, "UNWIND $rows AS r RETURN r[0] AS i, r[1] AS s", &p).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn metrics_are_in_range_one_on_identity_and_jaccard_is_symmetric(
        a in prop::collection::vec((0i64..4, "[ab]{0,2}"), 0..6),
        b in prop::collection::vec((0i64..4, "[ab]{0,2}"), 0..6),
        ordered in any::<bool>(),
    ) {
        let (ta, tb) = (table(&a), table(&b));
        let s = item_scores(&ta, &tb, ordered);
        prop_assert!((0.0..=1.0).contains(&s.jaccard) && (0.0..=1.0).contains(&s.coverage));
        prop_assert!((s.jaccard - item_scores(&tb, &ta, ordered).jaccard).abs() < 1e-12);
        // |A∩B| / |A∪B| never exceeds |A∩B| / |B|.
        prop_assert!(s.jaccard <= s.coverage + 1e-12);
        let same = item_scores(&ta, &ta, ordered);
        prop_assert_eq!((same.jaccard, same.coverage), (1.0, 1.0));
        let ex = execution_accuracy(&ta, &ta, ordered);
        prop_assert_eq!((ex.ex, ex.ex_strict), (1.0, 1.0));
        let r = execution_accuracy(&ta, &tb, ordered);
        prop_assert!(r.ex == 0.0 || r.ex == 1.0);
        // EX implies full Coverage in both directions.
        if r.ex == 1.0 {
            prop_assert_eq!(item_scores(&ta, &tb, ordered).coverage, 1.0);
        }
    }
}
