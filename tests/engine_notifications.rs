//! The notifications Neo4j puts in an `EXPLAIN`'s summary, which validators built on Neo4j
//! (CyVer) read: their codes, descriptions and positions, from `engine::notifications`.

use grape::engine::{notifications, Params};
use grape::graph::Graph;

#[test]
fn explain_notes_what_the_database_lacks_as_neo4j_does() {
    let g =
        Graph::from_cypher_script("CREATE (:Book {title: 'x'})<-[:WROTE]-(:Author {name: 'y'})")
            .unwrap();
    let q = "MATCH (a)-[r:A&B]->(b:Bookk) WHERE a.nmae = $x RETURN a";
    let stmt = grape::syntax::parse(q).unwrap();
    let found = notifications(&g, &stmt, q, &Params::new());
    let codes: Vec<(&str, usize)> = found
        .iter()
        .map(|n| (n.code, n.position.map_or(0, |p| p.column)))
        .collect();
    assert_eq!(
        codes,
        [
            (
                "Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning",
                14
            ),
            (
                "Neo.ClientNotification.Statement.UnsatisfiableRelationshipTypeExpression",
                14
            ),
            (
                "Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning",
                16
            ),
            ("Neo.ClientNotification.Statement.UnknownLabelWarning", 23),
            (
                "Neo.ClientNotification.Statement.UnknownPropertyKeyWarning",
                38
            ),
            ("Neo.ClientNotification.Statement.ParameterNotProvided", 0),
        ]
    );
    let text = |code: &str| {
        found
            .iter()
            .find(|n| n.code.ends_with(code))
            .map(|n| n.description.clone())
            .unwrap()
    };
    assert!(text("UnknownLabelWarning").ends_with("(the missing label name is: Bookk)"));
    assert!(text("UnknownPropertyKeyWarning").ends_with("(the missing property name is: nmae)"));
    assert!(text("ParameterNotProvided").ends_with("(Missing parameters: x)"));
    assert!(
        text("UnsatisfiableRelationshipTypeExpression").contains("`A&B` can never be satisfied")
    );
    // A statement the database knows everything of, with its parameters given: nothing.
    let q = "MATCH (a:Author)-[:WROTE]->(b:Book) WHERE a.name = $x RETURN b.title";
    let stmt = grape::syntax::parse(q).unwrap();
    let mut params = Params::new();
    params.insert("x".into(), grape::value::Value::from("y"));
    assert!(notifications(&g, &stmt, q, &params).is_empty());
}

/// Names are Neo4j's tokens: known once anything used them, even when nothing has them now;
/// each notification carries the GQL status Bolt 5.6+ sends (codes and texts from Neo4j 5.26).
#[test]
fn names_are_known_by_token_and_notes_carry_gql_statuses() {
    let mut g = Graph::from_cypher_script("CREATE (:Gone {p: 1})-[:WENT]->(:Gone)").unwrap();
    grape::engine::run(&mut g, "MATCH (n:Gone) DETACH DELETE n", &Params::new()).unwrap();
    let notes = |g: &Graph, q: &str| {
        let stmt = grape::syntax::parse(q).unwrap();
        notifications(g, &stmt, q, &Params::new())
            .into_iter()
            .map(|n| (n.gql_status, n.status_description))
            .collect::<Vec<_>>()
    };
    assert!(notes(&g, "MATCH (n:Gone)-[:WENT]->() RETURN n.p").is_empty());
    assert_eq!(
        notes(&g, "MATCH (n:NoSuchFlowLabel) RETURN n"),
        [(
            "01N50",
            "warn: label does not exist. The label `NoSuchFlowLabel` does not exist. Verify that the spelling is correct.".to_string()
        )]
    );
    assert_eq!(
        notes(&g, "MATCH ()-[r:NOSUCHTYPE]->() RETURN r"),
        [(
            "01N51",
            "warn: relationship type does not exist. The relationship type `NOSUCHTYPE` does not exist. Verify that the spelling is correct.".to_string()
        )]
    );
    assert_eq!(
        notes(&g, "MATCH (n) RETURN n.nosuchkeyxyz LIMIT 0"),
        [(
            "01N52",
            "warn: property key does not exist. The property `nosuchkeyxyz` does not exist. Verify that the spelling is correct.".to_string()
        )]
    );
    assert_eq!(
        notes(&g, "EXPLAIN RETURN $nope"),
        [(
            "01N60",
            "warn: parameter missing. The query plan cannot be cached and is not executable without 'EXPLAIN' due to the undefined parameter(s) $`nope`. Provide the parameter(s).".to_string()
        )]
    );
}

/// Neo4j 5.26 notes as a statement runs that it converted a list or a path to a boolean (a
/// deprecated conversion): once per statement, without a position, `01N02` (read off the
/// oracle). A statement that converts nothing, or whose conversion is refused before it runs,
/// has no such note, nor does one whose nested statement (`apoc.cypher.run`) converted.
#[test]
fn a_list_converted_to_a_boolean_is_noted_as_the_statement_runs() {
    let mut g = Graph::from_cypher_script("CREATE (:T {l: [1, 2], e: []})").unwrap();
    let notes = |g: &mut Graph, q: &str| -> Vec<(&'static str, &'static str, bool)> {
        let t = grape::engine::run(g, q, &Params::new()).unwrap();
        t.runtime_notifications()
            .iter()
            .map(|n| (n.code, n.gql_status, n.position.is_none()))
            .collect()
    };
    let deprecated = (
        "Neo.ClientNotification.Statement.FeatureDeprecationWarning",
        "01N02",
        true,
    );
    for q in [
        "MATCH (n:T) WHERE n.l RETURN count(*)",
        "MATCH (n:T) WHERE n.l AND n.e RETURN count(*)",
        "MATCH (n:T) RETURN NOT n.l AS x",
        "MATCH (n:T) SET n.seen = CASE WHEN n.l THEN 1 END",
        "MATCH (n:T) RETURN n.l XOR true AS x",
    ] {
        assert_eq!(notes(&mut g, q), [deprecated], "{q}");
    }
    for q in [
        "MATCH (n:T) WHERE size(n.l) > 0 RETURN count(*)",
        // `x AND true`, `x OR false`, `x XOR false` are `x`: folded before it runs, nothing is
        // converted.
        "MATCH (n:T) RETURN n.l AND true AS x",
        "MATCH (n:T) RETURN n.l OR false AS x, false XOR n.l AS y",
        // A nested statement's notes are its own.
        "CALL apoc.cypher.run('MATCH (n:T) WHERE n.l RETURN n', {}) YIELD value RETURN count(*)",
    ] {
        assert_eq!(notes(&mut g, q), [], "{q}");
    }
    let d = &grape::engine::run(&mut g, "MATCH (n:T) WHERE n.l RETURN n", &Params::new())
        .unwrap()
        .runtime_notifications()[0];
    assert_eq!(
        d.description,
        "The query converted a list or path to a boolean value."
    );
    assert_eq!(
        d.status_description,
        "warn: feature deprecated without replacement. Converting a list or a path to a boolean is deprecated and will be removed without a replacement."
    );
}
