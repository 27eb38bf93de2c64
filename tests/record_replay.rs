//! `grape record` and `grape replay-check` end to end, with `grape serve bolt` over the demo
//! corpus as the "live" database (configured through the NEO4J_* variables, as against a real
//! Neo4j): the recording reproduces every gold query (fidelity 100%), the fixture and its schema
//! load, replay-check agrees, and a change to the live data is caught.
#![cfg(feature = "neo4j")]

use grape::backend::neo4j::{Neo4j, Neo4jConfig};
use grape::backend::record::{record, replay_check, RecordOptions, Verdict};
use grape::backend::Backend;
use grape::bolt::{Config, Server, ServerHandle};
use std::path::PathBuf;
use std::process::Command;

fn demo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/demo")
}

/// `grape serve bolt` over the demo graph, in-process.
fn serve_demo() -> ServerHandle {
    let path = demo().join("graph.json");
    let graph = grape::engine::load_graph(path.to_str().unwrap(), Default::default()).unwrap();
    Server::bind("127.0.0.1:0", graph, Config::default())
        .unwrap()
        .spawn()
}

fn connect(uri: &str) -> Neo4j {
    let mut c = Neo4jConfig::new(uri);
    c.password = "demo".into();
    Neo4j::connect(c).unwrap()
}

fn grape_cmd(uri: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grape"));
    c.env("NEO4J_URI", uri)
        .env("NEO4J_USERNAME", "neo4j")
        .env("NEO4J_PASSWORD", "demo")
        .env_remove("NEO4J_DATABASE");
    c
}

#[test]
fn demo_corpus_round_trip_through_the_cli() {
    let h = serve_demo();
    let uri = format!("bolt://{}", h.local_addr());
    let dir = std::env::temp_dir().join(format!("grape-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let fixture = dir.join("demo_fixture.json");
    let questions = demo().join("questions.jsonl");

    let out = grape_cmd(&uri)
        .args(["record", "--dataset"])
        .arg(&questions)
        .arg("--out")
        .arg(&fixture)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("fidelity 100.0%: 52 agree"), "{stdout}");

    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&fixture).unwrap()).unwrap();
    assert_eq!(doc["recording"]["fidelity"], 1.0);
    assert_eq!(doc["recording"]["queries"].as_array().unwrap().len(), 52);
    // The query that needs a neighbourhood no MATCH binds (EXISTS { (a)-[:BORN_IN]->(:City) })
    // is reproduced only after a replay-and-extend round.
    assert!(doc["recording"]["rounds"].as_u64().unwrap() >= 1);
    let schema =
        grape::schema::Schema::read_path(&dir.join("demo_fixture.schema.json"), None).unwrap();
    assert!(schema.has_triple("Author", "WROTE", "Book"), "{schema:?}");

    // The fixture is a graph `grape eval --graph` loads; replay-check agrees with live.
    let out = grape_cmd(&uri)
        .args(["replay-check", "--fixture"])
        .arg(&fixture)
        .arg("--dataset")
        .arg(&questions)
        .arg("--out")
        .arg(dir.join("check.json"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("fidelity 100.0%"), "{stdout}");

    // The live data changes: replay-check notices and fails.
    let live = connect(&uri);
    live.run(
        "MATCH (b:Book {title: 'The Amber Orchard'}) SET b.year = b.year + 1",
        &Default::default(),
    )
    .unwrap();
    let out = grape_cmd(&uri)
        .args(["replay-check", "--fixture"])
        .arg(&fixture)
        .arg("--dataset")
        .arg(&questions)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("d01: differs"), "{stderr}");

    // Bad input: a missing dataset, an unreachable database.
    let out = grape_cmd(&uri)
        .args(["record", "--dataset", "/nonexistent.jsonl", "--out"])
        .arg(dir.join("x.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = grape_cmd("bolt://127.0.0.1:1")
        .args(["record", "--dataset"])
        .arg(&questions)
        .arg("--out")
        .arg(dir.join("x.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.join("x.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sessions_and_sample_through_the_library() {
    let h = serve_demo();
    let live = connect(&format!("bolt://{}", h.local_addr()));
    // The multi-turn demo's gold queries, recorded with a sample of extra paths.
    let examples = grape::dataset::read_dataset(&demo().join("sessions.json"), None).unwrap();
    let opts = RecordOptions {
        sample: 20,
        ..Default::default()
    };
    let rec = record(&live, &examples, &opts).unwrap();
    for o in &rec.outcomes {
        assert_eq!(o.verdict, Verdict::Agrees, "{}", o.id);
    }
    let again = record(&live, &examples, &opts).unwrap();
    assert_eq!(rec.to_json("x", &opts), again.to_json("x", &opts));
    let plain = record(&live, &examples, &RecordOptions::default()).unwrap();
    assert!(rec.fixture.relationship_count() > plain.fixture.relationship_count());
    let g = rec.fixture.graph();
    let check = replay_check(&live, &g, &examples, 2).unwrap();
    assert!(check.iter().all(|o| o.verdict == Verdict::Agrees));
}
