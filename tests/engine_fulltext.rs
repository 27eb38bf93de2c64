//! Full-text search: `db.index.fulltext.queryNodes/queryRelationships` over FULLTEXT indexes
//! with Lucene's query syntax and BM25 scores, `db.index.fulltext.listAvailableAnalyzers`, and
//! the analyzer setting of `CREATE FULLTEXT INDEX`.

mod common;

use grape::engine::Detail;
use grape::engine::{run, Params};
use grape::value::Value;

fn movies() -> grape::graph::Graph {
    let mut g = common::graph(
        "CREATE (:Movie {id: 1, title: 'The Matrix', plot: 'A hacker learns the truth about reality'}), \
         (:Movie {id: 2, title: 'The Matrix Reloaded', plot: 'Neo fights the agents again'}), \
         (:Movie {id: 3, title: 'Top Gun', plot: 'A pilot learns to fly'}), \
         (:Movie {id: 4, title: 42, plot: ['hackers', 'and painters']}), \
         (:Movie {id: 5}), \
         (:Book {id: 6, title: 'The Matrix Explained'})",
    );
    common::rows(
        &mut g,
        "CREATE FULLTEXT INDEX movies FOR (m:Movie) ON EACH [m.title, m.plot]",
    );
    g
}

fn ids(g: &mut grape::graph::Graph, query: &str) -> Vec<String> {
    common::rows(
        g,
        &format!(
            "CALL db.index.fulltext.queryNodes('movies', '{query}') YIELD node RETURN node.id"
        ),
    )
}

#[test]
fn query_nodes_ranks_by_bm25_over_every_property() {
    let mut g = movies();
    // The shorter title ranks first; the Book is not in the index.
    assert_eq!(ids(&mut g, "matrix"), ["1", "2"]);
    assert_eq!(ids(&mut g, "MATRIX reloaded"), ["2", "1"]);
    assert_eq!(ids(&mut g, "learns"), ["3", "1"]);
    // Lists of strings are indexed; non-string values are not.
    assert_eq!(ids(&mut g, "painters"), ["4"]);
    assert_eq!(ids(&mut g, "42"), Vec::<String>::new());
    assert_eq!(ids(&mut g, "title:learns"), Vec::<String>::new());
    assert_eq!(ids(&mut g, "plot:learns AND title:gun"), ["3"]);
    assert_eq!(ids(&mut g, "matrix -reloaded"), ["1"]);
    assert_eq!(ids(&mut g, "\\\"the truth\\\""), ["1"]);
    assert_eq!(ids(&mut g, "hack*"), ["1", "4"]);
    assert_eq!(ids(&mut g, "matrx~1"), ["1", "2"]);
    // Scores are Lucene's single-precision floats, the better first.
    let t = run(
        &mut g,
        "CALL db.index.fulltext.queryNodes('movies', 'matrix') YIELD node, score RETURN score",
        &Params::new(),
    )
    .unwrap();
    let scores: Vec<f64> = t
        .rows
        .iter()
        .map(|r| match r[0] {
            Value::Float(f) => f,
            ref other => panic!("score {other:?}"),
        })
        .collect();
    assert!(scores[0] > scores[1] && scores[1] > 0.0, "{scores:?}");
    for s in scores {
        assert_eq!(s, f64::from(s as f32), "{s} is a float widened to a double");
    }
}

#[test]
fn options_skip_limit_and_analyzer() {
    let mut g = movies();
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.fulltext.queryNodes('movies', 'the OR a', {skip: 1, limit: 2}) \
             YIELD node RETURN count(*)"
        ),
        ["2"]
    );
    // The `standard` analyzer drops stop words from the query: nothing is left to match.
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.fulltext.queryNodes('movies', 'the', {analyzer: 'standard'}) \
             YIELD node RETURN count(*)"
        ),
        ["0"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.fulltext.queryNodes('movies', 'the') YIELD node RETURN count(*)"
        ),
        ["2"]
    );
}

#[test]
fn the_index_follows_writes_and_rollbacks() {
    let mut g = movies();
    assert_eq!(ids(&mut g, "maverick"), Vec::<String>::new());
    common::rows(
        &mut g,
        "MATCH (m:Movie {id: 3}) SET m.title = 'Top Gun: Maverick'",
    );
    assert_eq!(ids(&mut g, "maverick"), ["3"]);
    common::rows(&mut g, "CREATE (:Movie {id: 7, title: 'Maverick'})");
    assert_eq!(ids(&mut g, "maverick"), ["7", "3"]);
    // A statement that fails leaves the graph, and so the index, as it was.
    let e = run(
        &mut g,
        "MATCH (m:Movie {id: 7}) DETACH DELETE m WITH 1 AS x RETURN 1 / 0",
        &Params::new(),
    );
    assert!(e.is_err());
    assert_eq!(ids(&mut g, "maverick"), ["7", "3"]);
    common::rows(&mut g, "MATCH (m:Movie {id: 7}) DELETE m");
    assert_eq!(ids(&mut g, "maverick"), ["3"]);
    // In one statement, a search sees the writes before it.
    assert_eq!(
        common::rows(
            &mut g,
            "CREATE (:Movie {title: 'Maverick Returns'}) WITH 1 AS one \
             CALL db.index.fulltext.queryNodes('movies', 'maverick') YIELD node \
             RETURN count(node)"
        ),
        ["2"]
    );
}

#[test]
fn relationships_and_several_labels() {
    let mut g = common::graph(
        "CREATE (a:Person {name: 'Ann Smith'}), (b:Company {name: 'Smith & Sons'}), \
         (c:City {name: 'Smithville'}), \
         (a)-[:REVIEWED {text: 'great service, would return'}]->(b), \
         (a)-[:REVIEWED {text: 'terrible service'}]->(b), (a)-[:VISITED {text: 'service'}]->(c)",
    );
    common::rows(
        &mut g,
        "CREATE FULLTEXT INDEX names FOR (n:Person|Company) ON EACH [n.name]",
    );
    common::rows(
        &mut g,
        "CREATE FULLTEXT INDEX reviews FOR ()-[r:REVIEWED]-() ON EACH [r.text]",
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.fulltext.queryNodes('names', 'smith') YIELD node \
             RETURN labels(node)[0] AS l ORDER BY l"
        ),
        ["'Company'", "'Person'"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.fulltext.queryRelationships('reviews', 'service') \
             YIELD relationship, score RETURN relationship.text"
        ),
        ["'terrible service'", "'great service, would return'"]
    );
    // A relationship index is not a node index.
    let e = run(
        &mut g,
        "CALL db.index.fulltext.queryNodes('reviews', 'service') YIELD node RETURN node",
        &Params::new(),
    )
    .unwrap_err();
    assert_eq!(e.code(), "Neo.ClientError.Procedure.ProcedureCallFailed");
    assert!(
        e.message.ends_with(
            "java.lang.IllegalArgumentException: There is no such fulltext schema index: reviews"
        ),
        "{}",
        e.message
    );
}

#[test]
fn bad_queries_and_analyzers_fail_as_neo4j_fails_them() {
    let mut g = movies();
    let e = run(
        &mut g,
        "CALL db.index.fulltext.queryNodes('movies', 'matrix AND') YIELD node RETURN node",
        &Params::new(),
    )
    .unwrap_err();
    assert_eq!(e.code(), "Neo.ClientError.Procedure.ProcedureCallFailed");
    assert!(
        e.message.starts_with(
            "Failed to invoke procedure `db.index.fulltext.queryNodes`: Caused by: \
             org.apache.lucene.queryparser.classic.ParseException: Cannot parse 'matrix AND': \
             Encountered <EOF> at line 1, column 11."
        ),
        "{}",
        e.message
    );
    for (analyzer, message) in [
        ("nope", "No such full-text analyzer: 'nope'."),
        (
            "english",
            "grape does not implement Neo4j's full-text analyzer 'english'",
        ),
    ] {
        let e = run(
            &mut g,
            &format!(
                "CREATE FULLTEXT INDEX other FOR (n:Movie) ON EACH [n.title] \
                 OPTIONS {{indexConfig: {{`fulltext.analyzer`: '{analyzer}'}}}}"
            ),
            &Params::new(),
        )
        .unwrap_err();
        assert!(e.message.contains(message), "{analyzer}: {}", e.message);
        let e = run(
            &mut g,
            &format!(
                "CALL db.index.fulltext.queryNodes('movies', 'x', {{analyzer: '{analyzer}'}}) \
                 YIELD node RETURN node"
            ),
            &Params::new(),
        )
        .unwrap_err();
        assert!(e.message.contains(message), "{analyzer}: {}", e.message);
    }
    // An index made with another analyzer analyzes with it.
    common::rows(
        &mut g,
        "CREATE FULLTEXT INDEX exact FOR (n:Movie) ON EACH [n.title] \
         OPTIONS {indexConfig: {`fulltext.analyzer`: 'keyword'}}",
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.fulltext.queryNodes('exact', '\"The Matrix\"') YIELD node RETURN node.id"
        ),
        ["1"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "SHOW FULLTEXT INDEXES YIELD name, options WHERE name = 'exact' \
             RETURN options.indexConfig.`fulltext.analyzer`"
        ),
        ["'keyword'"]
    );
}

#[test]
fn list_available_analyzers() {
    let mut g = grape::graph::Graph::new();
    let rows = common::rows(
        &mut g,
        "CALL db.index.fulltext.listAvailableAnalyzers() YIELD analyzer, stopwords \
         RETURN analyzer, size(stopwords)",
    );
    for row in [
        "'standard-no-stop-words' | 0",
        "'standard' | 33",
        "'keyword' | 0",
        "'whitespace' | 0",
    ] {
        assert!(rows.contains(&row.to_string()), "{rows:?}");
    }
}

#[test]
fn hybrid_search_as_neo4j_graphrag_writes_it() {
    // The query neo4j-graphrag's HybridRetriever sends: vector and full-text scores, each
    // normalised by its best, merged by node.
    let mut g = common::graph(
        "CREATE (:Chunk {text: 'graphs connect data', e: [1.0, 0.0]}), \
         (:Chunk {text: 'vectors embed text', e: [0.0, 1.0]}), \
         (:Chunk {text: 'knowledge graphs and vectors', e: [0.7, 0.7]})",
    );
    common::rows(
        &mut g,
        "CREATE VECTOR INDEX v FOR (c:Chunk) ON c.e OPTIONS {indexConfig: {`vector.dimensions`: 2}}",
    );
    common::rows(
        &mut g,
        "CREATE FULLTEXT INDEX f IF NOT EXISTS FOR (n:`Chunk`) ON EACH [n.`text`]",
    );
    let params: Params = [
        ("vector_index_name".to_string(), Value::from("v")),
        ("fulltext_index_name".to_string(), Value::from("f")),
        ("query_text".to_string(), Value::from("graphs")),
        (
            "query_vector".to_string(),
            Value::List(vec![Value::Float(1.0), Value::Float(0.0)]),
        ),
        ("top_k".to_string(), Value::Int(2)),
        ("effective_search_ratio".to_string(), Value::Int(1)),
    ]
    .into_iter()
    .collect();
    let t = run(
        &mut g,
        "CALL () { CALL db.index.vector.queryNodes($vector_index_name, $top_k * $effective_search_ratio, $query_vector) \
         YIELD node, score WITH node, score LIMIT $top_k \
         WITH collect({node:node, score:score}) AS nodes, max(score) AS vector_index_max_score \
         UNWIND nodes AS n RETURN n.node AS node, (n.score / vector_index_max_score) AS score \
         UNION CALL db.index.fulltext.queryNodes($fulltext_index_name, $query_text, {limit: $top_k}) \
         YIELD node, score WITH collect({node:node, score:score}) AS nodes, max(score) AS ft_index_max_score \
         UNWIND nodes AS n RETURN n.node AS node, (n.score / ft_index_max_score) AS score } \
         WITH node, max(score) AS score ORDER BY score DESC, elementId(node) LIMIT $top_k \
         RETURN node.text AS text, score",
        &params,
    )
    .unwrap();
    let rows = common::display_rows(&t);
    assert_eq!(rows[0], "'graphs connect data' | 1.0");
    // The third chunk: its full-text score over the best one's (BM25 with lengths 4 and 3,
    // average 10/3) beats its vector score (0.85).
    let Value::Float(s) = t.rows[1][1] else {
        panic!("{rows:?}")
    };
    let norm = |dl: f64| 1.0 + 1.2 * (0.25 + 0.75 * dl / (10.0 / 3.0));
    assert!((s - norm(3.0) / norm(4.0)).abs() < 1e-6, "{rows:?}");
}

#[test]
fn hostile_queries_end_with_clear_errors() {
    let mut g = movies();
    let query = |g: &mut grape::graph::Graph, q: &str| {
        run(
            g,
            "CALL db.index.fulltext.queryNodes('movies', $q) YIELD node RETURN count(node)",
            &[("q".to_string(), Value::from(q))].into_iter().collect(),
        )
    };
    let deep = format!("{}matrix{}", "(".repeat(5000), ")".repeat(5000));
    let e = query(&mut g, &deep).unwrap_err();
    assert_eq!(e.code(), "Neo.ClientError.Procedure.ProcedureCallFailed");
    assert!(e.message.contains("deeper than 200"), "{}", e.message);
    let wide = "matrix ".repeat(2000);
    let e = query(&mut g, &wide).unwrap_err();
    assert!(e.message.contains("maxClauseCount"), "{}", e.message);
    // Patterns longer than any term match nothing, at once.
    let long = format!("*{}*", "?".repeat(100_000));
    assert_eq!(common::display_rows(&query(&mut g, &long).unwrap()), ["0"]);
    let e = query(&mut g, "/(a|aa)*{100000}/").unwrap_err();
    assert!(
        e.message.contains("invalid regular expression"),
        "{}",
        e.message
    );
    // Building a large index checks the time limit.
    let mut big = common::graph(
        "UNWIND range(1, 50000) AS i CREATE (:Doc {text: 'word ' + toString(i) + \
         ' and some more words to analyze in every document'})",
    );
    common::rows(
        &mut big,
        "CREATE FULLTEXT INDEX docs FOR (d:Doc) ON EACH [d.text]",
    );
    let mut opts = grape::engine::Options::default();
    opts.limits.timeout = Some(std::time::Duration::from_millis(20));
    let e = grape::engine::run_with(
        &mut big,
        "CALL db.index.fulltext.queryNodes('docs', 'word') YIELD node RETURN count(node)",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    assert_eq!(e.detail, Some(Detail::Timeout), "{e}");
    // Without the limit, the same search completes (nothing half-built was kept).
    assert_eq!(
        common::rows(
            &mut big,
            "CALL db.index.fulltext.queryNodes('docs', 'word') YIELD node RETURN count(node)"
        ),
        ["50000"]
    );
}
