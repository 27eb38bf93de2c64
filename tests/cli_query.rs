//! `grape query --jsonl`: one line per query, in the shape the README gives, with the rows the
//! library returns (written row by row).

use std::process::Command;

#[test]
fn batch_lines_hold_the_library_rows_and_errors() {
    let dir = std::env::temp_dir().join(format!("grape-cli-query-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script =
        "CREATE (:Person {name: 'Ann', age: 30})-[:KNOWS {since: 2020}]->(:Person {name: 'Bob'})";
    std::fs::write(dir.join("g.cypher"), script).unwrap();
    let queries = [
        ("a", "MATCH (p:Person) RETURN p.name AS name ORDER BY name"),
        ("b", "MATCH (p)-[k:KNOWS]->(q) RETURN p, k, q"),
        ("c", "MATCH (p:Person) RETURN foo(p)"),
        ("d", "MATCH (p:Nobody) RETURN p"),
    ];
    let mut jsonl = String::new();
    for (id, q) in queries {
        jsonl.push_str(&serde_json::json!({"id": id, "query": q}).to_string());
        jsonl.push('\n');
    }
    std::fs::write(dir.join("q.jsonl"), jsonl).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["query", "--graph"])
        .arg(dir.join("g.cypher"))
        .arg("--jsonl")
        .arg(dir.join("q.jsonl"))
        .arg("--out")
        .arg(dir.join("out.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "one query fails");
    let text = std::fs::read_to_string(dir.join("out.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    let mut g = grape::graph::Graph::from_cypher_script(script).unwrap();
    for ((id, q), line) in queries.iter().zip(&lines) {
        assert!(line.starts_with("{\"columns\":"), "{line}");
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["id"], *id);
        match grape::engine::run(&mut g, q, &Default::default()) {
            Ok(t) => {
                assert!(line.ends_with("]}"), "{line}");
                assert_eq!(v["columns"], serde_json::json!(t.columns));
                assert_eq!(v["rows"], serde_json::Value::Array(t.rows_json()));
                assert!(v["error"].is_null());
            }
            Err(e) => {
                assert_eq!(v["error"]["code"], e.code());
                assert_eq!(v["rows"], serde_json::json!([]));
            }
        }
    }
    let v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(v["rows"][0][0]["~node"]["properties"]["name"], "Ann");
    assert_eq!(v["rows"][0][1]["~rel"]["properties"]["since"], 2020);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(lines[3]).unwrap()["rows"],
        serde_json::json!([])
    );
    let _ = std::fs::remove_dir_all(&dir);
}
