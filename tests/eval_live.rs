//! Many databases in one run, hermetically: `grape serve bolt --graphs DIR` serves the named
//! fixtures as databases, and `grape eval --neo4j URI` scores a benchmark over them (each
//! example on the database it names, with the demo server's per-database credentials), with
//! the same report and per-example records as the in-process run over the same folder. The
//! library's `Graphs::live` over `Server::bind_databases` agrees with `Graphs::new` likewise
//! on the CypherBench sample.
#![cfg(all(feature = "cli", feature = "neo4j"))]

use grape::backend::neo4j::{Neo4j, Neo4jConfig};
use grape::backend::Backend;
use grape::eval::{evaluate, load_graph_folder, EvalOptions, ExampleRecord, Graphs};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

fn corpus(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora")
        .join(p)
}

fn grape() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grape"))
}

/// A `grape serve bolt` child, killed when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `grape serve bolt ARGS --port 0` and returns it with its bolt:// address.
fn serve(args: &[&str]) -> (Served, String, Vec<String>) {
    let mut child = grape()
        .args(["serve", "bolt", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first
        .split_whitespace()
        .find(|w| w.starts_with("bolt://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string();
    let mut second = String::new();
    out.read_line(&mut second).unwrap();
    let names = second
        .trim()
        .strip_prefix("grape: databases ")
        .map(|rest| {
            rest.split(" (default")
                .next()
                .unwrap_or("")
                .split(", ")
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    (Served(child), addr, names)
}

fn records(dir: &Path) -> Vec<serde_json::Value> {
    let mut v: Vec<serde_json::Value> = std::fs::read_to_string(dir.join("examples.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut r: serde_json::Value = serde_json::from_str(l).unwrap();
            // How long each query took is the one thing that differs.
            r.as_object_mut().unwrap().remove("timings_ms");
            r
        })
        .collect();
    v.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    v
}

#[test]
fn text2cypher_sample_over_served_databases_equals_the_in_process_run() {
    let graphs = corpus("text2cypher/graphs");
    let (_server, addr, names) = serve(&["--graphs", graphs.to_str().unwrap(), "--database-users"]);
    assert_eq!(
        names,
        [
            "neo4j",
            "neo4jlabs_demo_db_companies",
            "neo4jlabs_demo_db_movies"
        ]
    );
    let tmp = std::env::temp_dir().join(format!("grape-eval-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let (local, live) = (tmp.join("local"), tmp.join("live"));
    let common = |out: &Path| {
        let mut c = grape();
        c.args(["eval", "--dataset"])
            .arg(corpus("text2cypher/sample.jsonl"))
            .arg("--predictions")
            .arg(corpus("text2cypher/predictions.jsonl"))
            .arg("--out")
            .arg(out);
        c
    };
    let o = common(&local)
        .arg("--graphs")
        .arg(&graphs)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = common(&live)
        .args(["--neo4j", &addr, "--database-credentials"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = |d: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join("report.json")).unwrap()).unwrap()
    };
    let (a, b) = (report(&local), report(&live));
    assert_eq!(a, b);
    // The run executed queries on both databases, and scored the examples without one on
    // text alone.
    assert_eq!(a["scored"], 12);
    assert_eq!(
        a["counts"]["database_reference_alias"]["neo4jlabs_demo_db_movies"],
        5
    );
    assert_eq!(
        a["counts"]["database_reference_alias"]["neo4jlabs_demo_db_companies"],
        4
    );
    let (ra, rb) = (records(&local), records(&live));
    assert_eq!(ra.len(), 12);
    assert_eq!(ra, rb);
    let executed = ra.iter().filter(|r| !r["gold_result"].is_null()).count();
    assert_eq!(executed, 9);

    // A wrong password, or a database the server does not have, fails the run with a message.
    let o = common(&tmp.join("x"))
        .args([
            "--neo4j",
            &addr,
            "--neo4j-user",
            "nobody",
            "--neo4j-password",
            "x",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("credentials"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = common(&tmp.join("y"))
        .args([
            "--neo4j",
            &addr,
            "--database-credentials",
            "--strip-database-prefix",
            "neo4jlabs_demo_db_",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("movies") || err.contains("companies"), "{err}");
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn cypherbench_sample_live_equals_in_memory() {
    let folder = load_graph_folder(&corpus("cypherbench/graphs"), Default::default()).unwrap();
    let examples = grape::dataset::read_dataset(&corpus("cypherbench/test.json"), None).unwrap();
    let predictions = grape::dataset::read_predictions(&corpus("cypherbench/result.json")).unwrap();
    let opts = EvalOptions {
        workers: 2,
        ..Default::default()
    };
    let local = evaluate(
        &Graphs::new(None, folder.iter().map(|(n, g)| (n.clone(), g)), None),
        &examples,
        &predictions,
        &opts,
        None,
    )
    .unwrap();

    let served: Vec<(String, grape::graph::Graph)> =
        load_graph_folder(&corpus("cypherbench/graphs"), Default::default())
            .unwrap()
            .into_iter()
            .chain([("neo4j".to_string(), grape::graph::Graph::new())])
            .collect();
    let server =
        grape::bolt::Server::bind_databases("127.0.0.1:0", served, grape::bolt::Config::default())
            .unwrap()
            .spawn();
    let mut config = Neo4jConfig::new(format!("bolt://{}", server.local_addr()));
    config.database = Some("nba".into());
    let nba = Neo4j::connect(config).unwrap();
    assert_eq!(
        nba.describe(),
        format!("neo4j bolt://{} database nba", server.local_addr())
    );
    let live = evaluate(
        &Graphs::live(None, [("nba".to_string(), &nba as &dyn Backend)], None).unwrap(),
        &examples,
        &predictions,
        &opts,
        None,
    )
    .unwrap();
    assert_eq!(local.0, live.0);
    let strip = |rs: Vec<ExampleRecord>| -> Vec<ExampleRecord> {
        rs.into_iter()
            .map(|mut r| {
                r.timings_ms = None;
                r
            })
            .collect()
    };
    assert_eq!(strip(local.1), strip(live.1));
    assert!(local.0.overall["ex_cypherbench"] > 0.5);
}
