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
