//! Text metrics agree with `strsim` (the correctness oracle) and keep their ranges.

mod common;

use grape::metrics::{jaro_winkler, normalized_levenshtein};
use proptest::prelude::*;

fn oracle_nl(a: &str, b: &str) -> f64 {
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la.max(lb) == 0 {
        return 1.0;
    }
    1.0 - strsim::levenshtein(a, b) as f64 / la.max(lb) as f64
}

#[test]
fn zograscope_pairs_agree_with_strsim() {
    let Some(shared) = common::shared_dir("metrics text") else {
        return;
    };
    // The test split sorted by id, each query paired with the next, the last with the first.
    let mut rdr =
        csv::Reader::from_path(shared.join("data/zograscope/zograscope_test_v1.csv")).unwrap();
    let h = rdr.headers().unwrap().clone();
    let id = h.iter().position(|x| x == "id").unwrap();
    let mr = h.iter().position(|x| x == "mr").unwrap();
    let mut rows: Vec<(i64, String)> = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[id].parse().unwrap(), r[mr].to_string())
        })
        .collect();
    rows.sort();
    assert_eq!(rows.len(), 2117);
    let mut worst = 0.0f64;
    let mut rf_worst = 0.0f64;
    for i in 0..rows.len() {
        let a = &rows[i].1;
        let b = &rows[(i + 1) % rows.len()].1;
        let jw = jaro_winkler(a, b);
        let nl = normalized_levenshtein(a, b);
        worst = worst
            .max((jw - strsim::jaro_winkler(a, b)).abs())
            .max((nl - oracle_nl(a, b)).abs());
        // And the rapidfuzz crate's values, computed over characters.
        rf_worst = rf_worst
            .max((jw - rapidfuzz::distance::jaro_winkler::similarity(a.chars(), b.chars())).abs())
            .max(
                (nl - rapidfuzz::distance::levenshtein::normalized_similarity(
                    a.chars(),
                    b.chars(),
                ))
                .abs(),
            );
    }
    println!(
        "ZOGRASCOPE pairs: largest difference from strsim {worst:e}, from rapidfuzz {rf_worst:e}"
    );
    assert!(worst <= 1e-12, "{worst}");
    assert!(rf_worst <= 1e-12, "{rf_worst}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn scores_agree_with_strsim_and_stay_in_range(a in ".{0,40}", b in ".{0,40}") {
        let jw = jaro_winkler(&a, &b);
        let nl = normalized_levenshtein(&a, &b);
        prop_assert!((0.0..=1.0).contains(&jw));
        prop_assert!((0.0..=1.0).contains(&nl));
        prop_assert!((jw - strsim::jaro_winkler(&a, &b)).abs() <= 1e-12, "jw {} vs {}", jw, strsim::jaro_winkler(&a, &b));
        prop_assert!((nl - oracle_nl(&a, &b)).abs() <= 1e-12);
        prop_assert_eq!(jaro_winkler(&a, &a), 1.0);
        prop_assert_eq!(normalized_levenshtein(&a, &a), 1.0);
        prop_assert!((nl - normalized_levenshtein(&b, &a)).abs() <= 1e-12);
    }

    /// Long ASCII strings over small alphabets, many of them edits of each other: the
    /// multi-word Levenshtein, the per-byte Jaro matching and the prefix/suffix shortcuts.
    #[test]
    fn long_ascii_texts_agree_with_strsim(
        a in "[abc( )]{0,300}",
        edits in proptest::collection::vec((any::<usize>(), "[abc( )x]", any::<bool>()), 0..12),
        other in "[abc( )]{0,300}",
        related in any::<bool>(),
    ) {
        let b = if related {
            let mut b: Vec<char> = a.chars().collect();
            for (at, c, delete) in edits {
                if b.is_empty() { break; }
                let i = at % b.len();
                if delete { b.remove(i); } else { b[i] = c.chars().next().unwrap(); }
            }
            b.into_iter().collect::<String>()
        } else {
            other
        };
        prop_assert_eq!(jaro_winkler(&a, &b), strsim::jaro_winkler(&a, &b));
        prop_assert!((normalized_levenshtein(&a, &b) - oracle_nl(&a, &b)).abs() <= 1e-12);
        prop_assert_eq!(
            strsim::levenshtein(&a, &b) as f64,
            ((1.0 - normalized_levenshtein(&a, &b)) * a.len().max(b.len()) as f64).round()
        );
    }
}
