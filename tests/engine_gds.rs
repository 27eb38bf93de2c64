//! The Graph Data Science procedures grape runs, against GDS 2.13.9 itself: each case's
//! statements run on a fresh graph in grape and, where recorded, on the Neo4j oracle with the
//! GDS library (`scripts/neo4j-oracle start DIR --gds`); their rows (or error codes and
//! messages) must agree — floats to 1e-9, everything else exactly — but for what GDS itself
//! gives anew each time (`projectMillis`, `jobId`, `creationTime`, `modificationTime`) and the
//! memory a projection holds (`memoryUsage`, `sizeInBytes`, grape's own).
//!
//! The answers are recorded in `tests/data/gds_oracle.json`; with `GRAPE_NEO4J_GDS_URI`,
//! `GRAPE_NEO4J_GDS_AUTH` and `GRAPE_NEO4J_GDS_DIR` naming a running GDS oracle the test asks
//! it again (each case on a new store) and must get the recording, or rewrites it
//! (`GRAPE_GDS_BLESS=1`).

use grape::backend::{Backend, BackendError};
use serde_json::{json, Value as Json};
use std::path::Path;

/// A case: a graph built by a Cypher script, then statements run one after the other (the GDS
/// catalog carries over between them).
const CASES: &[(&str, &str, &[&str])] = &[
    (
        "a cycle with a tail",
        "CREATE (a:P {n:'a'})-[:R]->(b:P {n:'b'})-[:R]->(c:P {n:'c'})-[:R]->(a), (d:P:Q {n:'d'})-[:R]->(a), (e:Q {n:'e'})-[:S]->(d), (f:P {n:'f'}), (g:P {n:'g'})-[:R]->(h:P {n:'h'})",
        &[
            "CALL gds.graph.project('g', 'P', 'R') YIELD nodeProjection, relationshipProjection, graphName, nodeCount, relationshipCount RETURN *",
            "CALL gds.graph.project('g', 'P', 'R')",
            "CALL gds.graph.exists('g')",
            "CALL gds.graph.exists('nope')",
            "CALL gds.graph.list()",
            "CALL gds.graph.list('g') YIELD graphName, degreeDistribution, density, schema, schemaWithOrientation RETURN *",
            "CALL gds.pageRank.stream('g') YIELD nodeId, score RETURN gds.util.asNode(nodeId).n AS n, score ORDER BY n",
            "CALL gds.pageRank.stream('g', {maxIterations: 3, dampingFactor: 0.6, tolerance: 0.0001}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.degree.stream('g') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.degree.stream('g', {orientation: 'REVERSE'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.degree.stream('g', {orientation: 'UNDIRECTED'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.wcc.stream('g') YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.pageRank.stream('nope')",
            "CALL gds.pageRank.stream('g', {nope: 1})",
            "CALL gds.degree.stream('g', {orientation: 'SIDEWAYS'})",
            "CALL gds.graph.drop('g') YIELD graphName, database, databaseLocation, memoryUsage, sizeInBytes, nodeCount, relationshipCount, density, schema RETURN *",
            "CALL gds.graph.drop('g')",
            "CALL gds.graph.drop('g', false)",
            "CALL gds.graph.project('u', ['P', 'Q'], {R: {orientation: 'UNDIRECTED'}, S: 'S'}) YIELD nodeProjection, relationshipProjection, nodeCount, relationshipCount RETURN *",
            "CALL gds.pageRank.stream('u', {maxIterations: 5, dampingFactor: 0.5}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.wcc.stream('u') YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.degree.stream('u') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.graph.list() YIELD graphName, nodeCount, relationshipCount, degreeDistribution, schemaWithOrientation RETURN *",
            "CALL gds.graph.project('all', '*', '*') YIELD nodeProjection, relationshipProjection, nodeCount, relationshipCount RETURN *",
            "CALL gds.pageRank.stream('all') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.graph.project('x', 'X', 'R')",
            "CALL gds.graph.project('r', 'P', {R: {type: 'R', orientation: 'REVERSE'}}) YIELD relationshipCount RETURN *",
            "CALL gds.pageRank.stream('r') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "RETURN gds.version() AS v, gds.util.asNode(0).n AS n, gds.util.asNode(999) AS m",
        ],
    ),
    (
        "two stars and a chain",
        "UNWIND range(0, 29) AS i CREATE (:N {i: i}) WITH 1 AS one MATCH (a:N), (b:N) WHERE (a.i < 10 AND b.i = 0 AND a.i <> 0) OR (a.i >= 10 AND a.i < 20 AND b.i = 10 AND a.i <> 10) OR (a.i >= 20 AND b.i = a.i + 1) CREATE (a)-[:L]->(b)",
        &[
            "CALL gds.graph.project('s', 'N', 'L') YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.pageRank.stream('s') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.stream('s', {dampingFactor: 0.9, maxIterations: 50, tolerance: 0.0000001}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.wcc.stream('s') YIELD nodeId, componentId RETURN componentId, count(*) AS size ORDER BY componentId",
            "CALL gds.graph.list('s') YIELD degreeDistribution, density RETURN *",
            "CALL gds.graph.drop('s') YIELD nodeCount RETURN *",
        ],
    ),
];

/// Columns whose values GDS makes anew each time or measures in its own memory.
const UNSTABLE: &[&str] = &[
    "projectMillis",
    "creationTime",
    "modificationTime",
    "memoryUsage",
    "sizeInBytes",
];

/// A statement's answer as JSON: `{"columns", "rows"}` or `{"error": code, "message"}`, with
/// the unstable columns and configuration job ids left out.
fn answer(result: Result<grape::engine::Table, BackendError>) -> Json {
    match result {
        Ok(t) => {
            let keep: Vec<usize> = (0..t.columns.len())
                .filter(|i| !UNSTABLE.contains(&t.columns[*i].as_str()))
                .collect();
            let rows: Vec<Json> = t
                .rows
                .iter()
                .map(|r| {
                    Json::Array(
                        keep.iter()
                            .map(|&i| {
                                let mut v = grape::graph::import::value_to_json(&r[i], &t);
                                if let Some(m) = v.as_object_mut() {
                                    m.remove("jobId");
                                }
                                v
                            })
                            .collect(),
                    )
                })
                .collect();
            let columns: Vec<&String> = keep.iter().map(|&i| &t.columns[i]).collect();
            json!({"columns": columns, "rows": rows})
        }
        Err(e) => {
            let message = e
                .server
                .as_ref()
                .map_or(e.message.clone(), |s| s.message.clone());
            json!({"error": e.code, "message": message})
        }
    }
}

fn run_case(db: &dyn Backend, script: &str, statements: &[&str]) -> Vec<Json> {
    db.run(script, &Default::default())
        .expect("the case's graph");
    statements
        .iter()
        .map(|q| answer(db.run(q, &Default::default())))
        .collect()
}

/// Equal, floats to 1e-9 (relative).
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn recording_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gds_oracle.json")
}

fn recording() -> Json {
    serde_json::from_str(&std::fs::read_to_string(recording_path()).unwrap()).unwrap()
}

#[test]
fn grape_answers_as_gds_does() {
    let want = recording();
    let mut differ = Vec::new();
    for (i, (name, script, statements)) in CASES.iter().enumerate() {
        let db = grape::backend::Memory::new(grape::graph::Graph::default());
        let got = run_case(&db, script, statements);
        for (j, (q, g)) in statements.iter().zip(&got).enumerate() {
            let w = &want[i]["answers"][j];
            if !same(w, g) {
                differ.push(format!("{name}: {q}\n  GDS:   {w}\n  grape: {g}"));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn the_gds_oracle_gives_the_recording() {
    let Ok(uri) = std::env::var("GRAPE_NEO4J_GDS_URI") else {
        eprintln!(
            "SKIPPED: no GDS oracle (GRAPE_NEO4J_GDS_URI; scripts/neo4j-oracle start DIR --gds)"
        );
        return;
    };
    let auth = std::env::var("GRAPE_NEO4J_GDS_AUTH").unwrap_or_default();
    let (user, password) = auth.split_once(':').unwrap_or(("neo4j", ""));
    // Each case on a new store (node ids from 0, as grape numbers them): the oracle's folder.
    let dir = std::env::var("GRAPE_NEO4J_GDS_DIR")
        .expect("GRAPE_NEO4J_GDS_DIR names the oracle's folder");
    let mut cases = Vec::new();
    for (name, script, statements) in CASES {
        let script_path = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/neo4j-oracle");
        let out = std::process::Command::new(script_path)
            .args(["reset", &dir])
            .output()
            .expect("scripts/neo4j-oracle reset");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut c = grape::backend::neo4j::Neo4jConfig::new(uri.clone());
        c.user = user.into();
        c.password = password.into();
        let db = grape::backend::neo4j::Neo4j::connect(c).expect("the GDS oracle");
        let answers = run_case(&db, script, statements);
        cases.push(json!({"case": name, "statements": statements, "answers": answers}));
    }
    let live = Json::Array(cases);
    if std::env::var("GRAPE_GDS_BLESS").as_deref() == Ok("1") {
        std::fs::write(
            recording_path(),
            serde_json::to_string_pretty(&live).unwrap() + "\n",
        )
        .unwrap();
        return;
    }
    assert!(
        same(&live, &recording()),
        "GDS's answers changed since they were recorded"
    );
}
