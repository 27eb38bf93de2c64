//! `grape serve mcp` driven by an external MCP client — the Python `mcp` SDK (`.ci/run`
//! installs it into target/pyenv with mcp-neo4j-cypher) — over stdio and streamable HTTP: the
//! tool list (mcp-neo4j-cypher's names and arguments, namespace prefix, no write tool when
//! read-only), schema, reads equal to grape's own results, a write through the read tool
//! refused, writes with counters, search_values, row limits; and all ZOGRASCOPE test queries
//! over POLE through `read_neo4j_cypher` equal to the in-process results.
//!
//! Python: `$GRAPE_PYTHON`, else `target/pyenv/bin/python`, else `python3`, with the `mcp`
//! package; without it the tests print SKIPPED, unless `GRAPE_REQUIRE_MCP_SDK=1` (`.ci/run`).
#![cfg(feature = "mcp")]

mod common;
mod mcp_support;

use serde_json::{json, Value as Json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn python() -> Option<PathBuf> {
    common::python_with(
        "import mcp.client.streamable_http",
        "GRAPE_REQUIRE_MCP_SDK",
        "MCP server tests",
    )
}

fn demo_graph() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/demo/graph.json")
        .to_string_lossy()
        .into_owned()
}

/// Runs the client with `calls`; `target` is `["stdio", cmd, args…]` or `["http", url]`.
fn client(py: &Path, target: &[String], calls: &Json) -> Json {
    let mut child = Command::new(py)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_support/mcp_client.py"))
        .args(target)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(calls.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "client failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn stdio_target(extra: &[&str]) -> Vec<String> {
    let mut t = vec![
        "stdio".to_string(),
        env!("CARGO_BIN_EXE_grape").to_string(),
        "serve".into(),
        "mcp".into(),
        "--graph".into(),
        demo_graph(),
        "--contract".into(),
        "mcp-neo4j-cypher".into(),
        "--search-values".into(),
    ];
    t.extend(extra.iter().map(|s| s.to_string()));
    t
}

/// grape's own result for a query on the demo graph, as the MCP server renders it.
fn expected(query: &str) -> String {
    let mut g = grape::engine::load_graph(&demo_graph(), Default::default()).unwrap();
    let t = grape::engine::run(&mut g, query, &Default::default()).unwrap();
    grape::mcp::records_text(&t)
}

fn tool_names(out: &Json) -> Vec<String> {
    out["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

fn calls() -> Json {
    json!([
        {"tool": "get_neo4j_schema", "args": {}},
        {"tool": "read_neo4j_cypher", "args": {"query": "MATCH (b:Book) WHERE b.year >= $y RETURN b.title AS title, b ORDER BY title LIMIT 3", "params": {"y": 1990}}},
        {"tool": "read_neo4j_cypher", "args": {"query": "CREATE (:Intruder {name: 'x'})"}},
        {"tool": "read_neo4j_cypher", "args": {"query": "MATCH (n:Intruder) RETURN count(n) AS n"}},
        {"tool": "write_neo4j_cypher", "args": {"query": "CREATE (:Tmp {v: $v})", "params": {"v": 1}}},
        {"tool": "write_neo4j_cypher", "args": {"query": "MATCH (n) RETURN count(n)"}},
        {"tool": "search_values", "args": {"text": "eastm"}},
        {"tool": "read_neo4j_cypher", "args": {"query": "MATCH (n RETURN n"}},
        {"tool": "read_neo4j_cypher", "args": {"query": "MATCH p = (:Author)-[:WROTE]->(:Book) RETURN p LIMIT 1"}},
    ])
}

fn check_demo_session(out: &Json, prefix: &str) {
    let names = tool_names(out);
    assert_eq!(
        names,
        [
            "get_neo4j_schema",
            "read_neo4j_cypher",
            "write_neo4j_cypher",
            "search_values"
        ]
        .iter()
        .map(|n| format!("{prefix}{n}"))
        .collect::<Vec<_>>()
    );
    let tools = out["tools"].as_array().unwrap();
    assert_eq!(tools[1]["required"], json!(["query"]));
    assert_eq!(tools[1]["properties"], json!(["params", "query"]));
    assert_eq!(tools[0]["properties"], json!(["sample_size"]));
    let r = out["results"].as_array().unwrap();
    // Schema: mcp-neo4j-cypher's cleaned apoc.meta.schema.
    let schema: Json = serde_json::from_str(r[0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(schema["Book"]["type"], "node");
    assert_eq!(schema["Book"]["properties"]["title"]["type"], "STRING");
    assert_eq!(schema["WROTE"]["type"], "relationship");
    // A read equals grape's own result.
    assert_eq!(r[1]["is_error"], false);
    assert_eq!(
        r[1]["text"],
        expected(
            "MATCH (b:Book) WHERE b.year >= 1990 RETURN b.title AS title, b ORDER BY title LIMIT 3"
        )
    );
    // A write through the read tool is refused and changes nothing.
    assert_eq!(r[2]["is_error"], true);
    assert!(r[2]["text"]
        .as_str()
        .unwrap()
        .contains("Only MATCH queries"));
    assert_eq!(r[3]["text"], "[{\"n\": 0}]");
    // Writes go through the write tool, with counters; reads do not.
    let counters: Json = serde_json::from_str(r[4]["text"].as_str().unwrap()).unwrap();
    assert_eq!(counters["nodes_created"], 1);
    assert_eq!(counters["properties_set"], 1);
    assert_eq!(r[5]["is_error"], true);
    // search_values finds the city.
    let found: Json = serde_json::from_str(r[6]["text"].as_str().unwrap()).unwrap();
    assert_eq!(found[0]["value"], "Eastmere");
    assert_eq!(found[0]["property"], "name");
    // A syntax error is a tool error that says where.
    assert_eq!(r[7]["is_error"], true);
    assert!(r[7]["text"].as_str().unwrap().contains("SyntaxError"));
    // A path as the driver gives it: node, type, node.
    let path: Json = serde_json::from_str(r[8]["text"].as_str().unwrap()).unwrap();
    assert_eq!(path[0]["p"][1], "WROTE");
}

#[test]
fn stdio_with_the_python_sdk() {
    let Some(py) = python() else { return };
    let out = client(&py, &stdio_target(&[]), &calls());
    check_demo_session(&out, "");
    // Namespace and read-only mode.
    let out = client(
        &py,
        &stdio_target(&["--namespace", "lib", "--read-only", "--max-rows", "2"]),
        &json!([
            {"tool": "lib-read_neo4j_cypher", "args": {"query": "MATCH (b:Book) RETURN b.title AS t ORDER BY t"}},
            {"tool": "lib-search_values", "args": {"text": "Eastmere", "label": "City", "property": "name"}},
        ]),
    );
    assert_eq!(
        tool_names(&out),
        [
            "lib-get_neo4j_schema",
            "lib-read_neo4j_cypher",
            "lib-search_values"
        ]
    );
    let text = out["results"][0]["text"].as_str().unwrap();
    assert!(text.contains("(cut at 2 rows"), "{text}");
    assert_eq!(
        serde_json::from_str::<Json>(text.lines().next().unwrap())
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert!(out["results"][1]["text"]
        .as_str()
        .unwrap()
        .contains("Eastmere"));
}

#[test]
fn streamable_http_with_the_python_sdk() {
    let Some(py) = python() else { return };
    let server = mcp_support::http_server(
        &demo_graph(),
        &["--contract", "mcp-neo4j-cypher", "--search-values"],
    );
    let out = client(&py, &["http".to_string(), server.1.clone()], &calls());
    check_demo_session(&out, "");
    // The write of the first session is visible to the next one: one graph behind the server.
    let out = client(
        &py,
        &["http".to_string(), server.1.clone()],
        &json!([{"tool": "read_neo4j_cypher", "args": {"query": "MATCH (t:Tmp) RETURN count(t) AS n"}}]),
    );
    assert_eq!(out["results"][0]["text"], "[{\"n\": 1}]");
    // Anything but /mcp is a 404.
    let addr = server
        .1
        .trim_start_matches("http://")
        .trim_end_matches("/mcp");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.write_all(
        format!("GET /other HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .unwrap();
    let mut reply = String::new();
    std::io::Read::read_to_string(&mut s, &mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 404"), "{reply}");
}

#[test]
fn zograscope_over_pole_through_read_neo4j_cypher() {
    let Some(py) = python() else { return };
    let Some(shared) = common::shared_dir("zograscope_over_pole_through_read_neo4j_cypher") else {
        return;
    };
    let examples =
        grape::dataset::read_dataset(&shared.join("data/zograscope/zograscope_test_v1.csv"), None)
            .unwrap();
    let pole = shared.join("data/pole");
    let graph = grape::engine::load_graph(pole.to_str().unwrap(), Default::default()).unwrap();
    let calls: Vec<Json> = examples
        .iter()
        .map(|e| json!({"tool": "read_neo4j_cypher", "args": {"query": e.gold}}))
        .collect();
    let target = vec![
        "stdio".to_string(),
        env!("CARGO_BIN_EXE_grape").to_string(),
        "serve".into(),
        "mcp".into(),
        "--contract".into(),
        "mcp-neo4j-cypher".into(),
        "--read-only".into(),
        "--max-rows".into(),
        "100000".into(),
        // Whole results are compared, so the default reply cap (1 MiB) is lifted.
        "--max-reply-bytes".into(),
        "0".into(),
        "--graph".into(),
        pole.to_string_lossy().into_owned(),
    ];
    let out = client(&py, &target, &Json::Array(calls));
    let results = out["results"].as_array().unwrap();
    assert_eq!(results.len(), examples.len());
    let mut equal = 0;
    for (e, r) in examples.iter().zip(results) {
        let t = grape::engine::run_read(&graph, &e.gold, &Default::default(), &Default::default())
            .unwrap();
        let want = grape::mcp::records_text(&t);
        if r["is_error"] == false && r["text"].as_str() == Some(want.as_str()) {
            equal += 1;
        } else {
            eprintln!("{}: differs", e.id);
        }
    }
    eprintln!("{equal} of {} results equal", examples.len());
    assert_eq!(equal, examples.len());
}

/// The MCP server in front of a live database (`--neo4j`): here `grape serve bolt` over the demo
/// graph, reached through the `neo4j` backend.
#[cfg(feature = "neo4j")]
#[test]
fn serving_a_live_database_over_mcp() {
    let Some(py) = python() else { return };
    let graph = grape::engine::load_graph(&demo_graph(), Default::default()).unwrap();
    let h = grape::bolt::Server::bind("127.0.0.1:0", graph, grape::bolt::Config::default())
        .unwrap()
        .spawn();
    let target = vec![
        "stdio".to_string(),
        env!("CARGO_BIN_EXE_grape").to_string(),
        "serve".into(),
        "mcp".into(),
        "--contract".into(),
        "mcp-neo4j-cypher".into(),
        "--neo4j".into(),
        format!("bolt://{}", h.local_addr()),
    ];
    let q = "MATCH (b:Book) WHERE b.year >= 1990 RETURN b.title AS title, b ORDER BY title LIMIT 3";
    let out = client(
        &py,
        &target,
        &json!([
            {"tool": "read_neo4j_cypher", "args": {"query": q}},
            {"tool": "get_neo4j_schema", "args": {}},
        ]),
    );
    assert_eq!(out["results"][0]["text"], expected(q));
    let schema: Json = serde_json::from_str(out["results"][1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(schema["Book"]["type"], "node");
}

/// The server's instructions name the tools as it lists them, namespace prefix included.
#[test]
fn instructions_name_the_tools_with_their_namespace() {
    let config = grape::mcp::McpConfig {
        contract: grape::mcp::Contract::McpNeo4jCypher,
        namespace: "lib".into(),
        search_values: true,
        ..Default::default()
    };
    let server = grape::mcp::GraphServer::over_graph(
        grape::graph::Graph::default(),
        Default::default(),
        config,
    );
    let text = server.instructions().unwrap();
    for tool in server.tools() {
        if tool.name != "lib-write_neo4j_cypher" {
            assert!(text.contains(&*tool.name), "{text} lacks {}", tool.name);
        }
    }
    assert!(!text.contains(" get_neo4j_schema"), "{text}");
}
