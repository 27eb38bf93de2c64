//! Deprecated syntax as Neo4j 5.26.30 reports it (answers asked of the oracle through the
//! Python driver): `[:A|:B]` is a `FeatureDeprecationWarning` (GQL `01N01`, with Neo4j's printed
//! form of the old expression and its replacement), and a `SyntaxError` together with a
//! variable, inline properties or predicates, or a variable length; a `CALL` subquery without a
//! variable scope clause is a `FeatureDeprecationWarning` (`01N00`) naming what its importing
//! `WITH`s import. Positions as Neo4j gives them; the order is Neo4j's (a chain's from its last
//! relationship back, a subquery's body before the `CALL`).

/// One deprecation: its offset, the end of its description, its GQL status description.
type Expected = (usize, &'static str, &'static str);

/// Statement → its deprecations.
const DEPRECATIONS: &[(&str, &[Expected])] = &[
    (
        "EXPLAIN MATCH (a)-[:X|:Y|:Z]->(b) RETURN a",
        &[(24, "(Please use ':X|Y|Z' instead)", "warn: feature deprecated with replacement. ':X|:Y|:Z' is deprecated. It is replaced by ':X|Y|Z'.")],
    ),
    (
        "EXPLAIN MATCH (a)-[:X|Y|:Z]->(b) RETURN a",
        &[(23, "(Please use ':X|Y|Z' instead)", "warn: feature deprecated with replacement. ':(X|Y)|:Z' is deprecated. It is replaced by ':X|Y|Z'.")],
    ),
    (
        "EXPLAIN MATCH (a)-[:X|:Y]->(b)-[:Z|:W]->(c) RETURN a",
        &[
            (34, "(Please use ':Z|W' instead)", "warn: feature deprecated with replacement. ':Z|:W' is deprecated. It is replaced by ':Z|W'."),
            (21, "(Please use ':X|Y' instead)", "warn: feature deprecated with replacement. ':X|:Y' is deprecated. It is replaced by ':X|Y'."),
        ],
    ),
    (
        "MATCH (a)-[:X|:Y]->(b) WHERE EXISTS { (a)-[:P|:Q]->() } RETURN a",
        &[
            (13, "(Please use ':X|Y' instead)", "warn: feature deprecated with replacement. ':X|:Y' is deprecated. It is replaced by ':X|Y'."),
            (45, "(Please use ':P|Q' instead)", "warn: feature deprecated with replacement. ':P|:Q' is deprecated. It is replaced by ':P|Q'."),
        ],
    ),
    (
        "EXPLAIN MATCH (a), (b) CALL {\n WITH b, a\n RETURN 1 AS one\n} RETURN one",
        &[(23, "Use CALL (b, a) { ... }", "warn: feature deprecated. CALL subquery without a variable scope clause is deprecated. Use CALL (b, a) { ... }")],
    ),
    (
        "EXPLAIN CALL { RETURN 1 AS one } RETURN one",
        &[(8, "Use CALL () { ... }", "warn: feature deprecated. CALL subquery without a variable scope clause is deprecated. Use CALL () { ... }")],
    ),
    (
        "EXPLAIN MATCH (a), (b) CALL { WITH a RETURN a AS x UNION WITH b RETURN b AS x } RETURN x",
        &[(23, "Use CALL (a, b) { ... }", "warn: feature deprecated. CALL subquery without a variable scope clause is deprecated. Use CALL (a, b) { ... }")],
    ),
    (
        "EXPLAIN MATCH (a) CALL { WITH a MATCH (a)-[:A|:B]->() RETURN 1 AS one } RETURN one",
        &[
            (45, "(Please use ':A|B' instead)", "warn: feature deprecated with replacement. ':A|:B' is deprecated. It is replaced by ':A|B'."),
            (18, "Use CALL (a) { ... }", "warn: feature deprecated. CALL subquery without a variable scope clause is deprecated. Use CALL (a) { ... }"),
        ],
    ),
    (
        "EXPLAIN UNWIND [1] AS x CALL { WITH x CREATE (:T {x: x}) } IN TRANSACTIONS RETURN 1",
        &[(24, "Use CALL (x) { ... }", "warn: feature deprecated. CALL subquery without a variable scope clause is deprecated. Use CALL (x) { ... }")],
    ),
    ("EXPLAIN MATCH (a)-[:X|:Y]->{1,2}(b) RETURN a", &[(21, "(Please use ':X|Y' instead)", "warn: feature deprecated with replacement. ':X|:Y' is deprecated. It is replaced by ':X|Y'.")]),
    ("EXPLAIN MATCH (a)-[:X|Y*]->(b) RETURN a", &[]),
    ("EXPLAIN MATCH (a) CALL (a) { RETURN 1 AS one } RETURN one", &[]),
    // Cypher 25 has no such deprecations.
    ("CYPHER 25 MATCH (a) CALL { WITH a RETURN 1 AS one } RETURN one", &[]),
];

#[test]
fn deprecated_syntax_is_reported_as_neo4j_reports_it() {
    let g = grape::graph::Graph::default();
    for (q, expected) in DEPRECATIONS {
        let stmt = grape::syntax::parse(q).unwrap();
        let got: Vec<_> = grape::engine::notifications(&g, &stmt, q, &Default::default())
            .into_iter()
            .filter(|n| n.code == "Neo.ClientNotification.Statement.FeatureDeprecationWarning")
            .collect();
        assert_eq!(got.len(), expected.len(), "{q}: {got:#?}");
        for (n, (offset, tail, gql)) in got.iter().zip(expected.iter()) {
            assert_eq!(n.position.unwrap().offset, *offset, "{q}");
            assert!(n.description.ends_with(tail), "{q}: {}", n.description);
            assert_eq!(n.status_description, *gql, "{q}");
            assert_eq!(
                n.gql_status,
                if gql.contains("replacement") {
                    "01N01"
                } else {
                    "01N00"
                }
            );
            assert_eq!(
                n.title,
                "This feature is deprecated and will be removed in future versions."
            );
            assert_eq!((n.severity, n.category), ("WARNING", "DEPRECATION"));
        }
    }
}

/// With a variable, inline properties, a predicate or a variable length, `|:` is refused.
#[test]
fn a_colon_disjunction_with_a_variable_or_a_length_is_a_syntax_error() {
    for (q, offset) in [
        ("EXPLAIN MATCH (a)-[r:X|:Y*1..2]->(b) RETURN a", 22),
        ("EXPLAIN MATCH (a)-[:X|:Y {p: 1}]->(b) RETURN a", 21),
        ("EXPLAIN MATCH (a)-[r:X|:Y]->(b) RETURN a", 22),
        ("EXPLAIN MATCH (a)-[:X|:Y WHERE true]->(b) RETURN a", 21),
    ] {
        let mut g = grape::graph::Graph::default();
        let e = grape::engine::run(&mut g, q, &Default::default()).unwrap_err();
        assert_eq!(e.code(), "Neo.ClientError.Statement.SyntaxError", "{q}");
        let m = e.neo4j_message(q);
        assert!(
            m.starts_with("The semantics of using colon in the separation of alternative relationship types in conjunction with\nthe use of variable binding, inlined property predicates, or variable length is no longer supported.\nPlease separate the relationships types using `:X|Y` instead."),
            "{q}: {m}"
        );
        assert!(m.contains(&format!("(offset: {offset}))")), "{q}: {m}");
    }
}
