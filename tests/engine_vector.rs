//! Vector values and search: `vector.similarity.cosine/euclidean` with Neo4j's scores,
//! `db.index.vector.queryNodes/queryRelationships` as exact k-nearest-neighbour search over a
//! VECTOR index, and `db.create.setNodeVectorProperty` and its kin.

mod common;

use grape::engine::{run, run_read, Params};
use grape::value::Value;

fn params(pairs: &[(&str, Value)]) -> Params {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn floats(xs: &[f64]) -> Value {
    Value::List(xs.iter().map(|x| Value::Float(*x)).collect())
}

#[test]
fn similarity_functions_give_neo4js_scores() {
    let mut g = grape::graph::Graph::new();
    assert_eq!(
        common::rows(
            &mut g,
            "RETURN vector.similarity.cosine([1, 0], [0, 1]) AS orthogonal, \
             vector.similarity.cosine([1, 1], [2, 2]) AS same, \
             vector.similarity.cosine([1.0, 0.0], [-1.0, 0.0]) AS opposite, \
             vector.similarity.euclidean([1, 0], [0, 1]) AS e, \
             vector.similarity.euclidean([3, 4], [3, 4]) AS e0"
        ),
        ["0.5 | 1.0 | 0.0 | 0.3333333333333333 | 1.0"]
    );
    // Null in, null out; no direction, no cosine.
    assert_eq!(
        common::rows(
            &mut g,
            "RETURN vector.similarity.cosine(null, [1]) AS a, \
             vector.similarity.euclidean([1], null) AS b, \
             vector.similarity.cosine([0, 0], [1, 1]) AS c"
        ),
        ["null | null | null"]
    );
    let e = run(
        &mut g,
        "RETURN vector.similarity.cosine([1, 2], [1]) AS x",
        &Params::new(),
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "The supplied vectors do not have the same number of dimensions."
    );
    assert!(run(
        &mut g,
        "RETURN vector.similarity.cosine(['a'], [1]) AS x",
        &Params::new()
    )
    .is_err());
}

#[test]
fn query_nodes_is_exact_k_nearest_neighbours() {
    let mut g = common::graph(
        "CREATE (:Doc {id: 1, e: [1.0, 0.0, 0.0]}), (:Doc {id: 2, e: [0.9, 0.1, 0.0]}), \
         (:Doc {id: 3, e: [0.0, 1.0, 0.0]}), (:Doc {id: 4, e: [0.0, 0.0, 0.0]}), \
         (:Doc {id: 5, e: [1.0, 2.0]}), (:Doc {id: 6, e: 'not a vector'}), (:Doc {id: 7}), \
         (:Other {id: 8, e: [1.0, 0.0, 0.0]})",
    );
    common::rows(
        &mut g,
        "CREATE VECTOR INDEX docs FOR (d:Doc) ON d.e OPTIONS {indexConfig: \
         {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}",
    );
    // Zero vectors, other dimensions, non-vectors and other labels are not indexed. Scores are
    // single precision, as Neo4j's index computes them (0.99694186733… in double).
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.vector.queryNodes('docs', 10, [1.0, 0.0, 0.0]) YIELD node, score \
             RETURN node.id, score"
        ),
        ["1 | 1.0", "2 | 0.996941864490509", "3 | 0.5"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.vector.queryNodes('docs', 1, [0.5, 0.5, 0.0]) YIELD node RETURN node.id"
        )
        .len(),
        1
    );
    let q = params(&[("q", floats(&[0.0, 1.0, 0.0]))]);
    let t = run(
        &mut g,
        "CALL db.index.vector.queryNodes('docs', 2, $q) YIELD node, score RETURN node.id AS id",
        &q,
    )
    .unwrap();
    assert_eq!(common::display_rows(&t), ["3", "2"]);
    for (query, message) in [
        (
            "CALL db.index.vector.queryNodes('nope', 1, [1.0]) YIELD node RETURN node",
            "There is no such vector schema index: nope",
        ),
        (
            "CALL db.index.vector.queryNodes('docs', 1, [1.0, 0.0]) YIELD node RETURN node",
            "Index query vector has 2 dimensions, but indexed vectors have 3.",
        ),
        (
            "CALL db.index.vector.queryRelationships('docs', 1, [1.0, 0.0, 0.0]) YIELD relationship RETURN relationship",
            "There is no such vector schema index: docs",
        ),
    ] {
        let e = run(&mut g, query, &Params::new()).unwrap_err();
        assert_eq!(e.code(), "Neo.ClientError.Procedure.ProcedureCallFailed");
        assert!(e.message.ends_with(message), "{query}: {}", e.message);
    }
}

#[test]
fn euclidean_indexes_and_relationships() {
    let mut g = common::graph(
        "CREATE (a:P), (b:P), (a)-[:R {v: [0.0, 0.0]}]->(b), (a)-[:R {v: [3.0, 4.0]}]->(b), \
         (a)-[:R {v: [1.0, 0.0]}]->(b)",
    );
    common::rows(
        &mut g,
        "CREATE VECTOR INDEX rv FOR ()-[r:R]-() ON (r.v) OPTIONS {indexConfig: \
         {`vector.similarity_function`: 'euclidean'}}",
    );
    // Without dimensions set, vectors of the query's dimension are searched; a zero vector is
    // fine for Euclidean distance.
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.vector.queryRelationships('rv', 3, [0.0, 0.0]) \
             YIELD relationship, score RETURN relationship.v, score"
        ),
        [
            "[0.0, 0.0] | 1.0",
            "[1.0, 0.0] | 0.5",
            "[3.0, 4.0] | 0.03846153989434242"
        ]
    );
}

#[test]
fn vector_setters_store_float_lists_and_need_a_writing_statement() {
    let mut g =
        common::graph("CREATE (:Chunk {id: 1}), (:Chunk {id: 2})-[:NEXT]->(:Chunk {id: 3})");
    let p = params(&[("v", Value::List(vec![Value::Int(1), Value::Float(0.5)]))]);
    let t = run(
        &mut g,
        "MATCH (c:Chunk {id: 1}) CALL db.create.setNodeVectorProperty(c, 'embedding', $v)",
        &p,
    )
    .unwrap();
    assert_eq!(t.stats.properties_set, 1);
    assert_eq!(
        common::rows(
            &mut g,
            "MATCH (c:Chunk {id: 1}) RETURN c.embedding, valueType(c.embedding)"
        ),
        ["[1.0, 0.5] | 'LIST<FLOAT NOT NULL> NOT NULL'"]
    );
    run(
        &mut g,
        "MATCH ()-[r:NEXT]->() CALL db.create.setRelationshipVectorProperty(r, 'e', [2, 3])",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(
        common::rows(&mut g, "MATCH ()-[r:NEXT]->() RETURN r.e"),
        ["[2.0, 3.0]"]
    );
    // In a query that goes on, the row passes through.
    assert_eq!(
        common::rows(
            &mut g,
            "MATCH (c:Chunk) WHERE c.id > 1 \
             CALL db.create.setNodeVectorProperty(c, 'embedding', [c.id, 0]) \
             RETURN c.id, c.embedding ORDER BY c.id"
        ),
        ["2 | [2.0, 0.0]", "3 | [3.0, 0.0]"]
    );
    // YIELD … WHERE filters a writing procedure's rows as it filters any procedure's.
    assert_eq!(
        common::rows(
            &mut g,
            "MATCH (c:Chunk) CALL db.create.setVectorProperty(c, 'v', [1]) \
             YIELD node AS n WHERE n.id >= 2 RETURN n.id ORDER BY n.id"
        ),
        ["2", "3"]
    );
    let e = run(
        &mut g,
        "MATCH (c:Chunk {id: 1}) CALL db.create.setNodeVectorProperty(c, 'embedding', 'x')",
        &Params::new(),
    )
    .unwrap_err();
    assert_eq!(e.code(), "Neo.ClientError.Procedure.ProcedureCallFailed");
    // Read-only execution refuses them, and the access classifier calls them writes.
    assert!(run_read(
        &g,
        "MATCH (c:Chunk {id: 1}) CALL db.create.setNodeVectorProperty(c, 'e', [1])",
        &Params::new(),
        &Default::default()
    )
    .is_err());
    assert_eq!(
        grape::analysis::access(
            &grape::syntax::parse("MATCH (c) CALL db.create.setNodeVectorProperty(c, 'e', [1])")
                .unwrap()
        ),
        grape::analysis::Access::ReadWrite
    );
}
