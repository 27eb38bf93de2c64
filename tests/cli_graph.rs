//! `grape graph stats` and `grape graph save`: a snapshot (`.grape`) of a graph loads back
//! through every command that takes a graph, with the same query results as the JSON fixture;
//! a damaged snapshot is an error naming the file; the stats count what the graph holds.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn grape() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grape"))
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/demo/graph.json")
}

fn query(graph: &Path, q: &str) -> String {
    let o = grape()
        .args(["query", "--graph"])
        .arg(graph)
        .arg(q)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn a_snapshot_answers_as_the_fixture_does() {
    let dir = std::env::temp_dir().join(format!("grape-cli-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let snap = dir.join("demo.grape");
    let o = grape()
        .args(["graph", "save"])
        .arg(demo())
        .arg(&snap)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("saved "));
    for q in [
        "MATCH (n) RETURN labels(n) AS l, properties(n) AS p ORDER BY elementId(n)",
        "MATCH (a)-[r]->(b) RETURN elementId(a), type(r), properties(r), elementId(b) ORDER BY elementId(r)",
        "SHOW INDEXES YIELD name, type, labelsOrTypes, properties RETURN *",
    ] {
        assert_eq!(query(&snap, q), query(&demo(), q), "{q}");
    }
    // The name must say what it is; a damaged snapshot is refused with the reason.
    let o = grape()
        .args(["graph", "save"])
        .arg(demo())
        .arg(dir.join("demo.json"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let mut bytes = std::fs::read(&snap).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    let bad = dir.join("bad.grape");
    std::fs::write(&bad, &bytes).unwrap();
    let o = grape()
        .args(["query", "--graph"])
        .arg(&bad)
        .arg("RETURN 1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.grape") && err.contains("checksum"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_count_the_graph() {
    let o = grape()
        .args(["graph", "stats", "--json"])
        .arg(demo())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let counts = query(
        &demo(),
        "MATCH (n) WITH count(n) AS n, sum(size(labels(n))) AS l, sum(size(keys(n))) AS np \
         OPTIONAL MATCH ()-[r]->() RETURN n, l, np, count(r) AS r, sum(size(keys(r))) AS rp",
    );
    let counts: serde_json::Value = serde_json::from_str(&counts).unwrap();
    let row = &counts["rows"][0];
    let q = &v["queried"];
    assert_eq!(q["nodes"], row[0]);
    assert_eq!(q["labels"], row[1]);
    assert_eq!(q["relationships"], row[3]);
    assert_eq!(
        q["properties"].as_u64().unwrap(),
        row[2].as_u64().unwrap() + row[4].as_u64().unwrap()
    );
    // The adjacency is built for the queried figures, not when loaded.
    assert_eq!(v["loaded"]["adjacency_bytes"], 0);
    assert!(q["adjacency_bytes"].as_u64().unwrap() > 0);
    assert!(v["bytes_per_element"].as_f64().unwrap() > 16.0);
    let parts: u64 = [
        "node_bytes",
        "relationship_bytes",
        "label_bytes",
        "property_bytes",
        "adjacency_bytes",
        "index_bytes",
        "symbol_bytes",
    ]
    .iter()
    .map(|k| q[*k].as_u64().unwrap())
    .sum();
    assert_eq!(parts, q["total_bytes"].as_u64().unwrap());
    let o = grape()
        .args(["graph", "stats"])
        .arg(demo())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("bytes/element"));
}
