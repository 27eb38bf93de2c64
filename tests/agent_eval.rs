//! `grape agent-eval` end to end: a loopback mock LLM issues scripted tool calls (schema, then
//! the gold query, then an answer built from the tool's result; one question never stops
//! calling tools), the tools are served by `grape serve mcp` — and by the real
//! mcp-neo4j-cypher against `grape serve bolt` — the answers are judged by the mock, the last
//! queries scored on the graph; records and report are checked, including step-limit and cost
//! accounting.
#![cfg(feature = "mcp")]

mod common;
mod llm_support;
mod mcp_support;

use llm_support::{Mock, Reply, Seen};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn demo_graph() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/demo/graph.json")
        .to_string_lossy()
        .into_owned()
}

/// Demo questions whose gold answer is one value, with that value as the reference answer.
fn dataset(dir: &Path) -> (PathBuf, Vec<(String, String, String)>) {
    let examples = grape::dataset::read_dataset(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/demo/questions.jsonl"),
        None,
    )
    .unwrap();
    let graph = grape::engine::load_graph(&demo_graph(), Default::default()).unwrap();
    let mut picked = Vec::new();
    for e in &examples {
        let t = grape::engine::run_read(&graph, &e.gold, &Default::default(), &Default::default())
            .unwrap();
        if t.rows.len() == 1
            && t.columns.len() == 1
            && !matches!(t.rows[0][0], grape::value::Value::Null)
        {
            let v = grape::mcp::records_json(&t)[0][&t.columns[0]].to_string();
            picked.push((e.id.clone(), e.question.clone(), e.gold.clone(), v));
        }
        if picked.len() == 6 {
            break;
        }
    }
    assert_eq!(picked.len(), 6);
    let lines: String = picked
        .iter()
        .map(|(id, q, c, v)| {
            json!({"id": id, "question": q, "cypher": c, "answer": format!("The answer is {v}."), "noise": id.ends_with('1').to_string()})
                .to_string()
                + "\n"
        })
        .collect();
    let path = dir.join("qa.jsonl");
    std::fs::write(&path, lines).unwrap();
    (
        path,
        picked.into_iter().map(|(id, q, c, _)| (id, q, c)).collect(),
    )
}

fn tool_call(id: &str, name: &str, args: Json) -> Reply {
    Reply::json(json!({
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null,
            "tool_calls": [{"id": id, "type": "function",
                "function": {"name": name, "arguments": args.to_string()}}]}}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20}
    }))
}

/// The scripted agent and judge. `looping` is the question that never stops calling tools.
fn mock(golds: Vec<(String, String, String)>, looping: String) -> Mock {
    Mock::start(move |_, seen: &Seen| {
        let msgs = seen.body["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if seen.body.get("tools").is_none() {
            // The judge: 1 when the candidate states the reference's value.
            let (r, c) = llm_support::judged_pair(&seen.body);
            let score = if r == c { 1 } else { 0 };
            return Reply::chat(&format!(
                "{{\"reasoning\": \"compared\", \"score\": {score}}}"
            ));
        }
        let question = msgs[1]["content"].as_str().unwrap_or("").to_string();
        let tools_done = msgs.iter().filter(|m| m["role"] == "tool").count();
        let names: Vec<String> = seen.body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap().to_string())
            .collect();
        // Either contract: the official server's `get-schema` / `read-cypher` or
        // mcp-neo4j-cypher's `get_neo4j_schema` / `read_neo4j_cypher`.
        let pick = |want: &[&str]| {
            names
                .iter()
                .find(|n| want.contains(&n.as_str()))
                .cloned()
                .unwrap_or_else(|| panic!("no tool of {want:?} in {names:?}"))
        };
        let schema_tool = pick(&["get-schema", "get_neo4j_schema"]);
        let read_tool = pick(&["read-cypher", "read_neo4j_cypher"]);
        if question == looping {
            return tool_call(&format!("c{tools_done}"), &schema_tool, json!({}));
        }
        match tools_done {
            0 => tool_call("c0", &schema_tool, json!({})),
            1 => {
                let gold = golds
                    .iter()
                    .find(|g| g.1 == question)
                    .map(|g| g.2.clone())
                    .unwrap_or_default();
                tool_call("c1", &read_tool, json!({"query": gold}))
            }
            _ => {
                let rows: Json =
                    serde_json::from_str(msgs.last().unwrap()["content"].as_str().unwrap())
                        .unwrap();
                let value = rows[0]
                    .as_object()
                    .unwrap()
                    .values()
                    .next()
                    .unwrap()
                    .to_string();
                Reply::json(json!({
                    "choices": [{"index": 0, "finish_reason": "stop",
                        "message": {"role": "assistant", "content": format!("The answer is {value}.")}}],
                    "usage": {"prompt_tokens": 150, "completion_tokens": 10}
                }))
            }
        }
    })
}

fn run_agent_eval(
    mock: &Mock,
    server: &str,
    qa: &Path,
    out: &Path,
    envs: &[(&str, String)],
) -> String {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grape"));
    c.args(["agent-eval", "--server", server, "--dataset"])
        .arg(qa)
        .args(["--graph", &demo_graph(), "--max-steps", "4", "--out"])
        .arg(out)
        .args([
            "--model",
            "openai:gpt-4o-mini",
            "--base-url",
            &mock.base_url(),
            "--api-key",
            "k",
            "--cache",
            "none",
        ]);
    for (k, v) in envs {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}

fn check(out: &Path, golds: &[(String, String, String)], looping: &str) {
    let records: Vec<Json> = std::fs::read_to_string(out.join("records.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 6);
    for r in &records {
        if r["question"] == looping {
            assert_eq!(r["hit_step_limit"], true);
            assert_eq!(r["steps"], 4);
            assert_eq!(r["tool_calls"].as_array().unwrap().len(), 4);
            assert_eq!(r["judge_score"], 0.0);
            assert_eq!(r["ex"], 0.0);
        } else {
            assert_eq!(r["judge_score"], 1.0, "{r}");
            assert_eq!(r["ex"], 1.0, "{r}");
            assert_eq!(r["steps"], 3);
            let calls = r["tool_calls"].as_array().unwrap();
            let tool = |i: usize| calls[i]["tool"].as_str().unwrap().to_string();
            assert!(["get-schema", "get_neo4j_schema"].contains(&tool(0).as_str()));
            assert!(["read-cypher", "read_neo4j_cypher"].contains(&tool(1).as_str()));
            assert_eq!(calls[1]["is_error"], false);
            let gold = golds.iter().find(|g| g.1 == r["question"]).unwrap();
            assert_eq!(r["last_cypher"], gold.2.as_str());
            // Three model turns: 100+20, 100+20, 150+10 tokens.
            assert_eq!(r["input_tokens"], 350);
            assert_eq!(r["output_tokens"], 50);
        }
    }
    let report: Json =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["overall"]["n"], 6);
    assert_eq!(report["overall"]["correct"], 5);
    assert_eq!(report["overall"]["step_limit_hits"], 1);
    assert_eq!(report["by"]["tool_calls"]["2"]["n"], 5);
    assert_eq!(report["by"]["tool_calls"]["3-5"]["correct"], 0);
    assert!(report["by"]["noise"]["true"]["n"].as_u64().unwrap() >= 1);
    // gpt-4o-mini prices: the agent's and the judge's tokens, per correct answer.
    let cost = report["overall"]["cost_usd"].as_f64().unwrap();
    let per = report["overall"]["cost_per_correct_usd"].as_f64().unwrap();
    assert!(cost > 0.0 && (per - cost / 5.0).abs() < 1e-12);
}

#[test]
fn agent_eval_against_grape_serve_mcp() {
    let dir = std::env::temp_dir().join(format!("grape-agent-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (qa, golds) = dataset(&dir);
    let looping = golds[2].1.clone();
    let m = mock(golds.clone(), looping.clone());
    let server = format!(
        "{} serve mcp --graph '{}'",
        env!("CARGO_BIN_EXE_grape"),
        demo_graph()
    );
    let stdout = run_agent_eval(&m, &server, &qa, &dir.join("out"), &[]);
    assert!(
        stdout.starts_with("6 questions: judge score 0.833, 5 correct, EX 0.833"),
        "{stdout}"
    );
    check(&dir.join("out"), &golds, &looping);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn agent_eval_against_mcp_neo4j_cypher_over_grape_bolt() {
    let Some(py) = common::python_with(
        "import mcp_neo4j_cypher",
        "GRAPE_REQUIRE_MCP_NEO4J",
        "agent-eval with mcp-neo4j-cypher",
    ) else {
        return;
    };
    let server_cmd = py.with_file_name("mcp-neo4j-cypher");
    if !server_cmd.exists() {
        assert_ne!(std::env::var("GRAPE_REQUIRE_MCP_NEO4J").as_deref(), Ok("1"));
        eprintln!("SKIPPED: no mcp-neo4j-cypher beside {}", py.display());
        return;
    }
    let graph = grape::engine::load_graph(&demo_graph(), Default::default()).unwrap();
    let h = grape::bolt::Server::bind("127.0.0.1:0", graph, grape::bolt::Config::default())
        .unwrap()
        .spawn();
    let dir = std::env::temp_dir().join(format!("grape-agent-neo4j-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (qa, golds) = dataset(&dir);
    let looping = golds[4].1.clone();
    let m = mock(golds.clone(), looping.clone());
    let server = format!("{} --transport stdio", server_cmd.display());
    let envs = [
        ("NEO4J_URI", format!("bolt://{}", h.local_addr())),
        ("NEO4J_USERNAME", "neo4j".to_string()),
        ("NEO4J_PASSWORD", "x".to_string()),
        ("NEO4J_DATABASE", "neo4j".to_string()),
        ("NEO4J_SCHEMA_SAMPLE_SIZE", "100".to_string()),
    ];
    run_agent_eval(&m, &server, &qa, &dir.join("out"), &envs);
    check(&dir.join("out"), &golds, &looping);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn agent_eval_against_an_http_url() {
    let server = mcp_support::http_server(&demo_graph(), &["--contract", "mcp-neo4j-cypher"]);
    let dir = std::env::temp_dir().join(format!("grape-agent-http-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (qa, golds) = dataset(&dir);
    let looping = golds[0].1.clone();
    let m = mock(golds.clone(), looping.clone());
    run_agent_eval(&m, &server.1, &qa, &dir.join("out"), &[]);
    check(&dir.join("out"), &golds, &looping);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A model nobody answers for: every question fails, which the run says and exits 1 on (it
/// used to print a score of 0 and exit 0, a silent failure in CI).
#[test]
fn a_run_where_every_question_fails_is_a_failure() {
    let dir = std::env::temp_dir().join(format!("grape-agent-fail-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (qa, _) = dataset(&dir);
    // A port with nothing behind it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let server = format!(
        "{} serve mcp --graph '{}'",
        env!("CARGO_BIN_EXE_grape"),
        demo_graph()
    );
    let o = Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["agent-eval", "--server", &server, "--dataset"])
        .arg(&qa)
        .arg("--out")
        .arg(dir.join("out"))
        .args([
            "--model",
            "openai:gpt-4o-mini",
            "--base-url",
            &format!("http://127.0.0.1:{port}/v1"),
            "--api-key",
            "k",
            "--cache",
            "none",
            "--max-retries",
            "0",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("6 of 6 questions failed"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
