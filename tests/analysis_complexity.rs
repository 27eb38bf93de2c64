//! Hop complexity against the corpora: GRAPE's `complexity` labels, ZOGRASCOPE's `num_nodes`.

mod common;

use grape::analysis::complexity;

#[test]
fn grape_hops_agree_with_the_complexity_labels() {
    let Some(shared) = common::shared_dir("grape_hops_agree_with_the_complexity_labels") else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("data/grape/generated_dataset.json")).unwrap();
    let records: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(records.len(), 205);
    let mut agree = 0;
    for (i, r) in records.iter().enumerate() {
        let q = r["cypher"].as_str().unwrap();
        let label = r["complexity"].as_str().unwrap();
        let want: u64 = label.trim_end_matches("-hop").parse().unwrap();
        let c = complexity(&grape::parse(q).unwrap());
        if c.hops == want {
            agree += 1;
        } else {
            println!(
                "grape:{i} label {label}, hops {} (min {}, unbounded {}, per MATCH {:?}): {}",
                c.hops,
                c.hops_min,
                c.hops_unbounded,
                c.per_match.iter().map(|m| m.hops).collect::<Vec<_>>(),
                q.replace('\n', " ")
            );
        }
    }
    println!("GRAPE: hops equal the complexity label on {agree} of 205");
    assert!(agree >= 195, "only {agree} of 205 agree");
}

#[test]
fn zograscope_node_patterns_equal_num_nodes() {
    let Some(shared) = common::shared_dir("zograscope_node_patterns_equal_num_nodes") else {
        return;
    };
    let mut total = 0;
    for f in ["zograscope_train_v1.csv", "zograscope_test_v1.csv"] {
        let mut r = csv::Reader::from_path(shared.join("data/zograscope").join(f)).unwrap();
        for rec in r.deserialize::<std::collections::HashMap<String, String>>() {
            let rec = rec.unwrap();
            let c = complexity(&grape::parse(&rec["mr"]).unwrap());
            let want: usize = rec["num_nodes"].parse().unwrap();
            assert_eq!(c.node_patterns, want, "{f}:{} {}", rec["id"], rec["mr"]);
            // Every ZOGRASCOPE pattern is fixed-length and connected: hops = nodes − 1 per part.
            assert!(!c.hops_unbounded);
            assert_eq!(c.hops, c.hops_min);
            total += 1;
        }
    }
    assert_eq!(total, 5022);
    println!("ZOGRASCOPE: node_patterns = num_nodes on all {total}");
}

#[test]
fn access_of_apoc_case_runners_schema_and_trigger_procedures() {
    use grape::analysis::{access, Access};
    let a = |q: &str| access(&grape::parse(q).unwrap());
    // Argument 0 of apoc.case / apoc.do.case is the [condition, query, …] list; 1 the else.
    assert_eq!(
        a("CALL apoc.do.case([true, 'CREATE (n:A) RETURN n', false, 'MATCH (n) RETURN n'], 'MATCH (m) RETURN m') YIELD value RETURN value"),
        Access::ReadWrite
    );
    assert_eq!(
        a("CALL apoc.do.case([true, 'MATCH (n) RETURN n'], 'MATCH (m) RETURN m') YIELD value RETURN value"),
        Access::Read
    );
    assert_eq!(
        a("CALL apoc.do.case([true, 'MATCH (n) RETURN n']) YIELD value RETURN value"),
        Access::Read
    );
    assert_eq!(
        a("CALL apoc.case([true, 'MATCH (n) RETURN n'], 'CREATE (m:B) RETURN m') YIELD value RETURN value"),
        Access::ReadWrite
    );
    assert_eq!(
        a("CALL apoc.do.case($pairs, '') YIELD value RETURN value"),
        Access::ReadWrite
    );
    // The params map (argument 2) is not a query.
    assert_eq!(
        a("CALL apoc.do.case([true, 'MATCH (n) RETURN n'], 'MATCH (m) RETURN m', {}) YIELD value RETURN value"),
        Access::Read
    );
    assert_eq!(
        a("CALL apoc.cypher.runSchema('CREATE INDEX i FOR (n:A) ON (n.p)', {})"),
        Access::Schema
    );
    assert_eq!(
        a("CALL apoc.trigger.add('t', 'UNWIND $createdNodes AS n SET n.seen = true', {phase: 'after'})"),
        // A standalone call gives its procedure's rows: Neo4j says `rw` for such writes.
        Access::ReadWrite
    );
}

#[test]
fn aggregate_function_names_are_one_list() {
    let names = |q: &str| -> Vec<bool> {
        let stmt = grape::parse(q).unwrap();
        let grape::syntax::Clause::Return(r) = &stmt.query.first.clauses[0] else {
            panic!("{q}");
        };
        r.projection
            .items
            .iter()
            .map(|it| match &it.expr.kind {
                grape::syntax::ExprKind::FunctionCall { name, .. } => name.is_aggregate(),
                _ => false,
            })
            .collect()
    };
    assert_eq!(
        names("RETURN COUNT(1), percentileCont(1, 0.5), StDevP(1), collect(1), toUpper('a'), apoc.coll.sum([1]), size([])"),
        [true, true, true, true, false, false, false]
    );
    // The validator uses the same list: nested aggregation of any spelling.
    let schema = grape::schema::Schema::default();
    let v = grape::analysis::validate(
        "UNWIND [1] AS x RETURN SUM(percentileDisc(x, 0.5)) AS s",
        &schema,
    );
    assert!(v
        .diagnostics
        .iter()
        .any(|d| d.kind == grape::analysis::DiagnosticKind::NestedAggregation));
}
