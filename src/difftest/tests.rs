use super::*;
use crate::engine::run_read;

fn table(script: &str, q: &str) -> Table {
    let g = Graph::from_cypher_script(script).unwrap();
    run_read(&g, q, &Params::new(), &Options::default()).unwrap()
}

fn diff(q: &str, a: &str, b: &str) -> Option<Difference> {
    // Runs `q` over two graphs, as grape and as "Neo4j".
    let stmt = crate::syntax::parse(q).unwrap();
    compare(
        &stmt,
        q,
        &Side::Rows(Box::new(table(a, q))),
        &Side::Rows(Box::new(table(b, q))),
    )
}

#[test]
fn multisets_ignore_order_but_not_multiplicity_or_type() {
    let q = "MATCH (p:P) RETURN p.v AS v";
    assert!(diff(
        q,
        "CREATE (:P {v: 1}), (:P {v: 2})",
        "CREATE (:P {v: 2}), (:P {v: 1})"
    )
    .is_none());
    let d = diff(
        q,
        "CREATE (:P {v: 1}), (:P {v: 1})",
        "CREATE (:P {v: 1}), (:P {v: 2})",
    )
    .unwrap();
    assert_eq!(d.kind, DiffKind::Rows);
    assert!(d.detail.contains("only in Neo4j"), "{}", d.detail);
    let d = diff(q, "CREATE (:P {v: 1})", "CREATE (:P {v: 1.0})").unwrap();
    assert_eq!(d.kind, DiffKind::Rows, "an integer is not a float");
    let d = diff(q, "CREATE (:P {v: 1})", "CREATE (:P {v: 1}), (:P)").unwrap();
    assert_eq!(d.kind, DiffKind::RowCount);
}

#[test]
fn floats_agree_to_thirteen_digits() {
    let q = "RETURN $x AS x";
    let stmt = crate::syntax::parse(q).unwrap();
    let t = |x: f64| {
        let g = Graph::new();
        let p = Params::from([("x".to_string(), Value::Float(x))]);
        Side::Rows(Box::new(run_read(&g, q, &p, &Options::default()).unwrap()))
    };
    assert!(compare(&stmt, q, &t(0.1 + 0.2), &t(0.3)).is_none());
    assert!(compare(&stmt, q, &t(0.3), &t(0.30001)).is_some());
}

#[test]
fn order_by_compares_tie_groups_as_sets() {
    let q = "MATCH (p:P) RETURN p.k AS k, p.v AS v ORDER BY k";
    // Ties on k may come in any order.
    assert!(diff(
        q,
        "CREATE (:P {k: 1, v: 'a'}), (:P {k: 1, v: 'b'}), (:P {k: 2, v: 'c'})",
        "CREATE (:P {k: 1, v: 'b'}), (:P {k: 1, v: 'a'}), (:P {k: 2, v: 'c'})"
    )
    .is_none());
    // But a row in the wrong group is a difference.
    let d = diff(
        q,
        "CREATE (:P {k: 1, v: 'a'}), (:P {k: 2, v: 'b'})",
        "CREATE (:P {k: 1, v: 'b'}), (:P {k: 2, v: 'a'})",
    )
    .unwrap();
    assert_eq!(d.kind, DiffKind::Rows);
    assert!(d.detail.contains("tie group 1"), "{}", d.detail);
    // The same rows in another order.
    let script = "CREATE (:P {k: 1, v: 'a'}), (:P {k: 2, v: 'b'})";
    let stmt = crate::syntax::parse(q).unwrap();
    let desc = table(
        script,
        "MATCH (p:P) RETURN p.k AS k, p.v AS v ORDER BY k DESC",
    );
    let d = compare(
        &stmt,
        q,
        &Side::Rows(Box::new(table(script, q))),
        &Side::Rows(Box::new(desc)),
    )
    .unwrap();
    assert_eq!(d.kind, DiffKind::Order);
}

#[test]
fn a_cut_sort_compares_its_edge_groups_by_size_and_a_bare_limit_by_count() {
    // LIMIT 2 cuts the tie group k = 1: either row may be kept.
    let q = "MATCH (p:P) RETURN p.k AS k, p.v AS v ORDER BY k LIMIT 2";
    assert!(diff(
        q,
        "CREATE (:P {k: 0, v: 'z'}), (:P {k: 1, v: 'a'}), (:P {k: 1, v: 'b'})",
        "CREATE (:P {k: 0, v: 'z'}), (:P {k: 1, v: 'b'}), (:P {k: 1, v: 'a'})"
    )
    .is_none());
    let q = "MATCH (p:P) RETURN p.v AS v LIMIT 1";
    assert!(diff(
        q,
        "CREATE (:P {v: 1}), (:P {v: 2})",
        "CREATE (:P {v: 2}), (:P {v: 1})"
    )
    .is_none());
    // Not cut: the middle group is compared in full.
    let q = "MATCH (p:P) RETURN p.k AS k, p.v AS v ORDER BY k";
    assert!(diff(
        q,
        "CREATE (:P {k: 0, v: 'z'}), (:P {k: 1, v: 'a'})",
        "CREATE (:P {k: 0, v: 'z'}), (:P {k: 1, v: 'b'})"
    )
    .is_some());
}

#[test]
fn sort_keys_resolve_to_columns_by_name_or_expression() {
    let q = "MATCH (p) RETURN p.name AS n, p.age ORDER BY p.name, p.age DESC, rand()";
    let stmt = crate::syntax::parse(q).unwrap();
    let cols = vec!["n".to_string(), "p.age".to_string()];
    let o = row_order(&stmt, q, &cols);
    assert_eq!(o.keys, vec![0, 1]);
    assert!(o.ordered && !o.cut);
    let q = "MATCH (p) RETURN p.name AS n UNION MATCH (p) RETURN p.x AS n ORDER BY n";
    let stmt = crate::syntax::parse(q).unwrap();
    assert!(!row_order(&stmt, q, &["n".into()]).ordered);
}

#[test]
fn errors_compare_by_status_code() {
    let q = "RETURN 1";
    let stmt = crate::syntax::parse(q).unwrap();
    let fail = |c: &str| Side::Failed {
        code: c.into(),
        message: "m".into(),
        gql: Vec::new(),
    };
    assert!(compare(&stmt, q, &fail("A"), &fail("A")).is_none());
    assert_eq!(
        compare(&stmt, q, &fail("A"), &fail("B")).unwrap().kind,
        DiffKind::ErrorCode
    );
    let ok = Side::Rows(Box::new(table("", q)));
    assert_eq!(
        compare(&stmt, q, &ok, &fail("B")).unwrap().kind,
        DiffKind::Error
    );
}

#[test]
fn nodes_compare_by_content_and_writes_by_counters() {
    let q = "MATCH (n) RETURN n";
    assert!(diff(q, "CREATE (:A:B {x: 1})", "CREATE (:B:A {x: 1})").is_none());
    assert!(diff(q, "CREATE (:A {x: 1})", "CREATE (:A {x: 2})").is_some());
    // Counters: a write rolled back on both sides.
    let mut g = Graph::from_cypher_script("CREATE (:A)").unwrap();
    let reference = GrapeReference {
        graph: std::sync::Mutex::new(Graph::from_cypher_script("CREATE (:A), (:A)").unwrap()),
        options: Options::default(),
    };
    let case = Case {
        id: "w".into(),
        query: "MATCH (a:A) SET a.x = 1".into(),
        params: Params::new(),
    };
    let o = run_case(&mut g, &Options::default(), &reference, &case);
    match &o.verdict {
        Verdict::Differs(d) => {
            assert_eq!(d.kind, DiffKind::Counters);
            assert!(d.detail.contains("properties_set=1"), "{}", d.detail);
        }
        v => panic!("{v:?}"),
    }
    // Both sides were rolled back.
    let t = run_read(
        &g,
        "MATCH (a:A) WHERE a.x IS NOT NULL RETURN a",
        &Params::new(),
        &Options::default(),
    )
    .unwrap();
    assert!(t.rows.is_empty());
}

#[test]
fn transactions_of_their_own_and_element_ids_are_skipped() {
    for q in [
        "MATCH (n) CALL { WITH n DELETE n } IN TRANSACTIONS",
        "MATCH (n) RETURN elementId(n)",
        "MATCH (n) RETURN ID(n) AS i",
    ] {
        let stmt = crate::syntax::parse(q).unwrap();
        assert!(skip_reason(&stmt, q).is_some(), "{q}");
    }
    for q in ["MATCH (n) RETURN n.id AS id", "RETURN 'id(' AS s"] {
        let stmt = crate::syntax::parse(q).unwrap();
        assert!(skip_reason(&stmt, q).is_none(), "{q}");
    }
}

#[test]
fn generated_statements_parse_and_run_the_same_on_the_same_graph() {
    let script = "CREATE (a:Person {name: 'Ann', age: 31, born: date('1990-05-01'), tags: ['x', 'y']}),
        (b:Person {name: 'Bob', age: 27.5}), (c:City {name: 'Oslo', at: point({x: 1, y: 2})}),
        (a)-[:KNOWS {since: 2001}]->(b), (b)-[:KNOWS]->(a), (a)-[:LIVES_IN]->(c), (b)-[:LIVES_IN]->(c), (c)-[:NEAR]->(c)";
    let g = Graph::from_cypher_script(script).unwrap();
    let qs = generate::statements(&g, 400, 11);
    let reference = GrapeReference {
        graph: std::sync::Mutex::new(g.clone()),
        options: Options::default(),
    };
    let mut mine = g.clone();
    let mut failed = 0;
    let mut writes = 0;
    for (i, q) in qs.iter().enumerate() {
        let stmt = crate::syntax::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
        writes += usize::from(crate::engine::is_updating(&stmt));
        let case = Case {
            id: format!("g{i}"),
            query: q.clone(),
            params: Params::new(),
        };
        let o = run_case(&mut mine, &Options::default(), &reference, &case);
        assert!(matches!(o.verdict, Verdict::Equal), "{q}: {:?}", o.verdict);
        failed += usize::from(o.grape.error.is_some());
    }
    // Mostly statements that run, some writes, and the graph left as it was.
    assert!(failed < qs.len() / 4, "{failed} of {} fail", qs.len());
    assert!(writes > 10, "{writes} writes");
    assert_eq!(mine.node_count(), g.node_count());
    let distinct: std::collections::BTreeSet<_> = qs.iter().collect();
    assert!(distinct.len() > 300, "{} distinct", distinct.len());
}

#[test]
fn reports_name_each_difference() {
    let outcomes = vec![
        Outcome {
            id: "a".into(),
            query: "RETURN 1 AS `x```".into(),
            verdict: Verdict::Equal,
            grape: SideSummary::default(),
            neo4j: SideSummary::default(),
            reproduction: None,
        },
        Outcome {
            id: "b".into(),
            query: "RETURN 2".into(),
            verdict: Verdict::Differs(Difference {
                kind: DiffKind::Rows,
                detail: "only in Neo4j: [Int(3)]".into(),
            }),
            grape: SideSummary::default(),
            neo4j: SideSummary::default(),
            reproduction: None,
        },
    ];
    let info = report::RunInfo::default();
    let md = report::to_markdown(&info, &outcomes);
    assert!(md.contains("**1 of 2 equal**"), "{md}");
    assert!(md.contains("## b — Rows"), "{md}");
    let j = report::to_json(&info, &outcomes);
    assert_eq!(j["summary"]["differ"], 1);
    assert_eq!(j["cases"][1]["verdict"], "differs");
    assert_eq!(j["cases"][1]["kind"], "rows");
}

#[test]
fn awkward_graphs_build_for_many_seeds_and_generated_statements_run_on_them() {
    for seed in 0..20 {
        let g = generate::awkward_graph(seed, 30);
        assert_eq!(g.node_count(), 30);
        assert!(g.relationship_count() >= 60);
    }
    let g = generate::awkward_graph(7, 60);
    let loops = g
        .relationship_ids()
        .filter(|&r| g.endpoints(r).is_some_and(|(a, b)| a == b))
        .count();
    assert!(loops > 0, "no self-loop");
    let many = g.node_ids().filter(|&n| g.labels(n).len() >= 3).count();
    assert!(many > 0, "no node with three labels or more");
    let reference = GrapeReference {
        graph: std::sync::Mutex::new(g.clone()),
        options: Options::default(),
    };
    let mut mine = g.clone();
    for (i, q) in generate::statements(&g, 300, 5).iter().enumerate() {
        let case = Case {
            id: format!("a{i}"),
            query: q.clone(),
            params: Params::new(),
        };
        let o = run_case(&mut mine, &Options::default(), &reference, &case);
        assert!(matches!(o.verdict, Verdict::Equal), "{q}: {:?}", o.verdict);
    }
}

#[test]
fn fingerprints_agree_exactly_when_compare_does() {
    let cases = [
        (
            "MATCH (p:P) RETURN p.v AS v",
            "CREATE (:P {v: 1}), (:P {v: 2})",
            "CREATE (:P {v: 2}), (:P {v: 1})",
            true,
        ),
        (
            "MATCH (p:P) RETURN p.v AS v",
            "CREATE (:P {v: 1})",
            "CREATE (:P {v: 1.0})",
            false,
        ),
        (
            "MATCH (p:P) RETURN p.k AS k, p.v AS v ORDER BY k",
            "CREATE (:P {k: 1, v: 'a'}), (:P {k: 1, v: 'b'})",
            "CREATE (:P {k: 1, v: 'b'}), (:P {k: 1, v: 'a'})",
            true,
        ),
        (
            "MATCH (p:P) RETURN p.k AS k, p.v AS v ORDER BY k",
            "CREATE (:P {k: 1, v: 'a'}), (:P {k: 2, v: 'b'})",
            "CREATE (:P {k: 1, v: 'b'}), (:P {k: 2, v: 'a'})",
            false,
        ),
        (
            "MATCH (p:P) RETURN p.v AS v LIMIT 1",
            "CREATE (:P {v: 1}), (:P {v: 2})",
            "CREATE (:P {v: 2}), (:P {v: 1})",
            true,
        ),
    ];
    for (q, a, b, same) in cases {
        let stmt = crate::syntax::parse(q).unwrap();
        let (x, y) = (
            Side::Rows(Box::new(table(a, q))),
            Side::Rows(Box::new(table(b, q))),
        );
        assert_eq!(compare(&stmt, q, &x, &y).is_none(), same, "{q}");
        assert_eq!(
            fingerprint(&stmt, q, &x) == fingerprint(&stmt, q, &y),
            same,
            "{q}"
        );
    }
    let stmt = crate::syntax::parse("RETURN 1").unwrap();
    let f = Side::Failed {
        code: "Neo.X".into(),
        message: "m".into(),
        gql: vec!["50N42".into()],
    };
    assert_eq!(fingerprint(&stmt, "RETURN 1", &f), "error Neo.X");
}
