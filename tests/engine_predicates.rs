//! Pattern predicates (`exists(…)`, a pattern as a boolean, `EXISTS { … }`, `COUNT { … }`,
//! pattern comprehensions, `shortestPath` as a value): compiled once per statement and reused
//! row after row — and compiled again when the statement changes the graph between rows.

mod common;

use common::{graph, rows};

/// a knows b and c; b knows c; d knows nobody.
const PEOPLE: &str = "
CREATE (a:P {name: 'a'}), (b:P {name: 'b'}), (c:P {name: 'c'}), (d:P {name: 'd'}),
       (a)-[:KNOWS]->(b), (a)-[:KNOWS]->(c), (b)-[:KNOWS]->(c);
";

#[test]
fn every_form_of_pattern_predicate_agrees_row_by_row() {
    let mut g = graph(PEOPLE);
    // The last column: whether `c` is among the names a comprehension collects (the order of
    // a node's relationships is not specified).
    let expect = ["'a' | true | 2 | true", "'b' | true | 1 | true"];
    let expect_all = [
        "'a' | true | 2 | true",
        "'b' | true | 1 | true",
        "'c' | false | 0 | false",
        "'d' | false | 0 | false",
    ];
    for q in [
        "MATCH (n:P) WHERE exists((n)-[:KNOWS]->()) \
         RETURN n.name, exists((n)-[:KNOWS]->()), COUNT { (n)-[:KNOWS]->() }, \
         'c' IN [(n)-[:KNOWS]->(f) | f.name] ORDER BY n.name",
        "MATCH (n:P) WHERE (n)-[:KNOWS]->() \
         RETURN n.name, NOT NOT (n)-[:KNOWS]->() AND (n)-[:KNOWS]->(), \
         COUNT { (n)-[:KNOWS]->(f) WHERE f.name <> 'x' }, \
         'c' IN [(n)-[:KNOWS]->(f) WHERE f.name IS NOT NULL | f.name] ORDER BY n.name",
        "MATCH (n:P) WHERE EXISTS { (n)-[:KNOWS]->(:P) } \
         RETURN n.name, EXISTS { (n)-[:KNOWS]->() }, size([(n)-[:KNOWS]->() | 1]), \
         'c' IN [p = (n)-[:KNOWS]->() | last(nodes(p)).name] ORDER BY n.name",
    ] {
        assert_eq!(rows(&mut g, q), expect, "{q}");
    }
    assert_eq!(
        rows(
            &mut g,
            "MATCH (n:P) RETURN n.name, exists((n)-[:KNOWS]->()), COUNT { (n)-[:KNOWS]->() }, \
             'c' IN [(n)-[:KNOWS]->(f) | f.name] ORDER BY n.name"
        ),
        expect_all
    );
}

#[test]
fn the_same_predicate_in_two_scopes_is_compiled_for_each() {
    // The comprehension's `f` is a new variable under `n`, but bound (a join) under `m`'s
    // CALL where `f` is already in scope: the same text, different plans.
    let mut g = graph(PEOPLE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (n:P {name: 'a'}) \
             RETURN [x IN [1] | COUNT { (n)-[:KNOWS]->() }] AS a, \
             [n IN [1, 2] | n] AS b"
        ),
        ["[2] | [1, 2]"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (f:P {name: 'c'}) \
             CALL { WITH f MATCH (n:P) RETURN n, COUNT { (n)-[:KNOWS]->(f) } AS k } \
             RETURN n.name, k ORDER BY n.name"
        ),
        ["'a' | 1", "'b' | 1", "'c' | 0", "'d' | 0"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (n:P) RETURN n.name, COUNT { (n)-[:KNOWS]->(f) } AS k ORDER BY n.name"
        ),
        ["'a' | 2", "'b' | 1", "'c' | 0", "'d' | 0"]
    );
}

#[test]
fn a_write_between_rows_is_seen_by_the_next_row() {
    // Row by row: the count runs before this row's label is set, so each row sees the labels
    // the earlier rows set — including the first time the label exists at all.
    let mut g = graph("UNWIND range(1, 3) AS i CREATE (:A {i: i})");
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a:A) WITH a ORDER BY a.i SET a.c = COUNT { (:Seen) }, a:Seen \
             RETURN a.i, a.c ORDER BY a.i"
        ),
        ["1 | 0", "2 | 1", "3 | 2"]
    );
    // A relationship made by an earlier row is expanded by the next one.
    let mut g = graph("UNWIND range(1, 3) AS i CREATE (:B {i: i})");
    assert_eq!(
        rows(
            &mut g,
            "MATCH (b:B) WITH b ORDER BY b.i \
             SET b.before = size([(b)<-[:NEXT]-(p) | p]) \
             WITH b MATCH (c:B {i: b.i + 1}) MERGE (b)-[:NEXT]->(c) \
             WITH DISTINCT 1 AS one MATCH (b:B) \
             RETURN b.i, b.before, exists((b)<-[:NEXT]-()) ORDER BY b.i"
        ),
        ["1 | 0 | false", "2 | 0 | true", "3 | 0 | true"]
    );
}

#[test]
fn shortest_path_values_per_row() {
    let mut g = graph(PEOPLE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (s:P), (t:P {name: 'c'}) WHERE s <> t \
             RETURN s.name, length(shortestPath((s)-[:KNOWS*]->(t))), \
             size(allShortestPaths((s)-[:KNOWS*]->(t))) ORDER BY s.name"
        ),
        ["'a' | 1 | 1", "'b' | 1 | 1", "'d' | null | 0"]
    );
}

#[test]
fn exists_takes_a_pattern_only_as_in_neo4j_5() {
    let mut g = graph(PEOPLE);
    for (q, message) in [
        (
            "MATCH (n:P) RETURN exists(n.name)",
            "The property existence syntax `... exists(variable.property)` is no longer supported",
        ),
        (
            "RETURN exists(1)",
            "Argument to exists(...) is not a pattern",
        ),
        (
            "WITH null AS x RETURN exists(x)",
            "Argument to exists(...) is not a pattern",
        ),
    ] {
        let err = g.run(q, &Default::default()).unwrap_err();
        assert!(err.to_string().contains(message), "{q}: {err}");
        assert_eq!(err.code(), "Neo.ClientError.Statement.SyntaxError", "{q}");
    }
}
