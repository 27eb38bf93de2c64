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
    // Neo4j 5.26's: single precision over 7-bit quantized vectors (0.99694186733… exactly).
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.vector.queryNodes('docs', 10, [1.0, 0.0, 0.0]) YIELD node, score \
             RETURN node.id, score"
        ),
        ["1 | 1.0", "2 | 0.9969457387924194", "3 | 0.5"]
    );
    // Tied hits in the order Neo4j's collector gives them (the later document first).
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.vector.queryNodes('docs', 10, [0.5, 0.5, 0.0]) YIELD node, score \
             RETURN node.id, score"
        ),
        [
            "2 | 0.8903817534446716",
            "3 | 0.8532289266586304",
            "1 | 0.8532289266586304"
        ]
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
            "[1.0, 0.0] | 0.4960784912109375",
            "[3.0, 4.0] | 0.038531459867954254"
        ]
    );
}

/// `[x, …, x, last]`: 1,535 ones and a last component, as langchain-neo4j's fake embeddings.
fn embedding(last: f64) -> String {
    format!("[x IN range(1, 1535) | 1.0] + [{last:?}]")
}

fn hits(g: &mut grape::graph::Graph, index: &str, k: usize, query: &str) -> Vec<String> {
    common::rows(
        g,
        &format!(
            "CALL db.index.vector.queryNodes('{index}', {k}, {query}) YIELD node, score \
             RETURN node.i, score"
        ),
    )
}

/// Every expectation here is what Neo4j 5.26.19 with its default vector-2.0 index returned for
/// the same statements: Lucene quantizes each segment (one per committed transaction, one for
/// the index's population) with the quantiles of its own vectors, so scores depend on what
/// was written together.
#[test]
fn query_nodes_scores_quantized_segments_as_neo4j_5_26() {
    // Population: one segment of four vectors. A vector's own score is not 1.0, and the
    // ranks of the three others are not their exact cosine order (bar, baz, then the rest).
    let mut g = common::graph(
        "UNWIND range(0, 3) AS i CREATE (:Chunk {i: i, embedding: [x IN range(1, 1535) | 1.0] + [100.0 * (i + 1)]})",
    );
    common::rows(
        &mut g,
        "CREATE VECTOR INDEX vidx FOR (c:Chunk) ON c.embedding OPTIONS {indexConfig: \
         {`vector.dimensions`: 1536, `vector.similarity_function`: 'cosine'}}",
    );
    assert_eq!(
        hits(&mut g, "vidx", 4, &embedding(100.0)),
        [
            "0 | 0.9993920922279358",
            "3 | 0.9761228561401367",
            "2 | 0.9758886098861694",
            "1 | 0.9739261865615845"
        ]
    );
    assert_eq!(
        hits(&mut g, "vidx", 4, &embedding(300.0)),
        [
            "3 | 0.9996692538261414",
            "2 | 0.9994350671768188",
            "1 | 0.9974725842475891",
            "0 | 0.9758886098861694"
        ]
    );

    // One transaction per vector: four segments of one vector each, then one of four.
    let mut g = common::graph("");
    common::rows(
        &mut g,
        "CREATE VECTOR INDEX vidx FOR (c:Chunk) ON c.embedding OPTIONS {indexConfig: \
         {`vector.dimensions`: 1536, `vector.similarity_function`: 'cosine'}}",
    );
    for i in 0..4 {
        common::rows(
            &mut g,
            &format!(
                "CREATE (:Chunk {{i: {i}, embedding: {}}})",
                embedding(100.0 * f64::from(i + 1))
            ),
        );
    }
    assert_eq!(
        hits(&mut g, "vidx", 4, &embedding(100.0)),
        [
            "0 | 1.0",
            "3 | 0.9751937389373779",
            "2 | 0.9745818972587585",
            "1 | 0.972448468208313"
        ]
    );
    assert_eq!(
        hits(&mut g, "vidx", 4, &embedding(300.0)),
        [
            "2 | 0.9999998807907104",
            "3 | 0.9997403621673584",
            "1 | 0.9989897608757019",
            "0 | 0.9852448105812073"
        ]
    );
    common::rows(
        &mut g,
        "UNWIND range(4, 7) AS i CREATE (:Chunk {i: i, embedding: [x IN range(1, 1535) | 1.0] + [100.0 * (i + 1)]})",
    );
    assert_eq!(
        hits(&mut g, "vidx", 4, &embedding(100.0)),
        [
            "0 | 1.0",
            "3 | 0.9751937389373779",
            "7 | 0.9750989675521851",
            "6 | 0.9750869274139404"
        ]
    );
}

#[test]
fn updated_and_deleted_vectors_leave_their_segment_as_on_neo4j_5_26() {
    let mut g = common::graph("");
    common::rows(
        &mut g,
        "CREATE VECTOR INDEX q2 FOR (d:Q2) ON d.e OPTIONS {indexConfig: \
         {`vector.dimensions`: 4, `vector.similarity_function`: 'euclidean'}}",
    );
    common::rows(
        &mut g,
        "CREATE (:Q2 {i: 1, e: [1, 2, 3, 4]}), (:Q2 {i: 2, e: [1, 2, 3, 5]}), \
         (:Q2 {i: 3, e: [-1, 0.5, 3, 5]})",
    );
    let q = "[1.0, 2, 3, 4.5]";
    assert_eq!(
        hits(&mut g, "q2", 3, q),
        [
            "2 | 0.8025176525115967",
            "1 | 0.8025176525115967",
            "3 | 0.2697698175907135"
        ]
    );
    // A segment of one constant vector: its quantiles are equal, every component quantizes
    // to 0 (Lucene's scale is infinite), and it scores 1.0 against any query.
    common::rows(&mut g, "MATCH (n:Q2 {i: 3}) SET n.e = [2.0, 2, 2, 2]");
    assert_eq!(
        hits(&mut g, "q2", 3, q),
        [
            "3 | 1.0",
            "2 | 0.8025176525115967",
            "1 | 0.8025176525115967"
        ]
    );
    common::rows(&mut g, "MATCH (n:Q2) WHERE n.i < 3 DELETE n");
    assert_eq!(hits(&mut g, "q2", 3, q), ["3 | 1.0"]);
    // A mixed list of integers and floats is stored as floats.
    assert_eq!(
        common::rows(&mut g, "MATCH (n:Q2) RETURN n.e"),
        ["[2.0, 2.0, 2.0, 2.0]"]
    );

    // Unquantized: exact float32 scores; ties in the collector's order.
    let mut g = common::graph("");
    common::rows(
        &mut g,
        "CREATE VECTOR INDEX h FOR (d:H) ON d.e OPTIONS {indexConfig: {`vector.dimensions`: 2, \
         `vector.similarity_function`: 'euclidean', `vector.quantization.enabled`: false}}",
    );
    common::rows(
        &mut g,
        "CREATE (:H {i: 1, e: [1.0, 0.0]}), (:H {i: 2, e: [0.1, 0.0]}), \
         (:H {i: 3, e: [0.5, 0.0]}), (:H {i: 4, e: [0.0, 0.1]})",
    );
    common::rows(&mut g, "CREATE (:H {i: 5, e: [0.0, 0.5]})");
    assert_eq!(
        hits(&mut g, "h", 10, "[0.0, 0.0]"),
        [
            "2 | 0.9900990128517151",
            "4 | 0.9900990128517151",
            "3 | 0.800000011920929",
            "5 | 0.800000011920929",
            "1 | 0.5"
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
        // A void procedure gives no rows: Neo4j 5.26 calls the statement a write (`w`).
        grape::analysis::Access::Write
    );
}
