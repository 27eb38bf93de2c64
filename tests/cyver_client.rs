//! CyVer — the text-to-Cypher validator that reads Neo4j's `EXPLAIN` plans and notifications —
//! run unchanged against `grape serve bolt`, and compared with grape's own offline validator
//! (which computes CyVer's scores from a schema): the same verdicts on the demo corpus's
//! predictions and on queries that need Neo4j's notifications (an unsatisfiable relationship
//! type, a parameter not given).
#![cfg(feature = "bolt")]

mod common;

use grape::bolt::{Config, Server};
use std::path::Path;
use std::process::Command;

#[test]
fn cyver_over_grape_agrees_with_grapes_offline_validator() {
    let Some(py) = common::python_with(
        "import neo4j, CyVer",
        "GRAPE_REQUIRE_CYVER",
        "CyVer client test",
    ) else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let graph = grape::engine::load_graph(
        root.join("corpora/demo/graph.json").to_str().unwrap(),
        Default::default(),
    )
    .unwrap();
    // The demo predictions, and queries whose verdict comes from Neo4j's notifications.
    let mut queries: Vec<(String, String)> = Vec::new();
    let text = std::fs::read_to_string(root.join("corpora/demo/predictions.jsonl")).unwrap();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for (i, c) in v["candidates"].as_array().unwrap().iter().enumerate() {
            queries.push((
                format!("{}_{i}", v["id"].as_str().unwrap()),
                c.as_str().unwrap().into(),
            ));
        }
    }
    for (i, q) in [
        "MATCH (a)-[r:WROTE&EDITED]->(b) RETURN a",
        "MATCH (a:Author) WHERE a.name = $name RETURN a",
        "MATCH (b:Book)-[:WROTE]->(a:Author) RETURN a.name",
        "MATCH (x:Nope) RETURN x",
    ]
    .into_iter()
    .enumerate()
    {
        queries.push((format!("extra_{i}"), q.to_string()));
    }
    let dir = std::env::temp_dir().join(format!("grape-cyver-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("queries.jsonl");
    std::fs::write(
        &file,
        queries
            .iter()
            .map(|(id, q)| serde_json::json!({"id": id, "query": q}).to_string() + "\n")
            .collect::<String>(),
    )
    .unwrap();

    let schema = grape::engine::schema_of(&graph);
    let h = Server::bind("127.0.0.1:0", graph, Config::default())
        .unwrap()
        .spawn();
    let o = Command::new(&py)
        .arg(root.join("tests/bolt_support/cyver_check.py"))
        .arg(format!("bolt://{}", h.local_addr()))
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cyver: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(cyver.len(), queries.len());

    // grape's verdicts as an EXPLAIN without parameters sees the query.
    let options = grape::analysis::ValidateOptions {
        parameters: Some(Default::default()),
        ..Default::default()
    };
    let validator = grape::analysis::Validator::with_options(&schema, options);
    let close = |a: Option<f64>, b: &serde_json::Value| match (a, b.as_f64()) {
        (None, None) => true,
        (Some(x), Some(y)) => (x - y).abs() < 1e-9,
        _ => false,
    };
    let mut wrong = Vec::new();
    let mut rejected = 0;
    for ((id, q), c) in queries.iter().zip(&cyver) {
        let v = validator.validate(q);
        if !v.syntax_ok {
            rejected += 1;
        }
        if c["syntax"].as_bool() != Some(v.syntax_ok) {
            wrong.push(format!(
                "{id} {q}: syntax {} vs CyVer {}",
                v.syntax_ok, c["syntax"]
            ));
            continue;
        }
        // Scores of queries that parse (grape scores one that does not as 0 by definition;
        // CyVer's regular expressions still score it).
        if !v.syntax_ok {
            continue;
        }
        // Known difference: a property read on a label the database lacks counts as invalid
        // for CyVer, and as no property read at all for grape (its label is already wrong).
        if id == "d17_0" {
            continue;
        }
        if !close(Some(v.schema_score), &c["schema"])
            || !close(v.properties_score, &c["properties"])
        {
            wrong.push(format!(
                "{id} {q}: ({}, {:?}) vs CyVer ({}, {})",
                v.schema_score, v.properties_score, c["schema"], c["properties"]
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The notification-driven verdicts are among the rejections.
    assert!(rejected >= 5, "{rejected}");
    let by_id = |id: &str| {
        queries
            .iter()
            .zip(&cyver)
            .find(|((i, _), _)| i == id)
            .map(|(_, c)| c.clone())
            .unwrap()
    };
    assert_eq!(by_id("extra_0")["syntax"], false, "unsatisfiable type");
    assert_eq!(by_id("extra_1")["syntax"], false, "parameter not provided");
    assert!(
        by_id("extra_2")["schema"].as_f64().unwrap() < 1.0,
        "wrong direction"
    );
}
