//! `grape session-eval` on the demo CypherTurn sessions with a scripted mock model: the guided
//! protocol (gold history and schema in the prompt, at most 3 actions per turn: a turn that never
//! submits is lost) and the agentic protocol (own history, INSPECT_SCHEMA, a shared budget of
//! turns × m: once spent, the remaining turns are zeroed), scored into EX, SEM and CER.
#![cfg(feature = "mcp")]

mod llm_support;

use llm_support::{Mock, Reply};
use serde_json::{json, Value as Json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn demo(f: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/demo")
        .join(f)
}

/// utterance → gold query.
fn golds() -> HashMap<String, String> {
    grape::dataset::read_dataset(&demo("sessions.json"), None)
        .unwrap()
        .into_iter()
        .map(|e| (e.question, e.gold))
        .collect()
}

fn action(v: Json) -> Reply {
    Reply::chat(&v.to_string())
}

/// The scripted model. `stubborn` is an utterance for which it never submits.
fn mock(stubborn: String) -> Mock {
    let golds = golds();
    Mock::start(move |_, seen| {
        let msgs = seen.body["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let agentic = msgs[0]["content"]
            .as_str()
            .unwrap_or("")
            .contains("working on your own");
        // The current request and the actions taken since it.
        let (pos, request) = msgs
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, m)| {
                let c = m["content"].as_str()?;
                if m["role"] != "user" {
                    return None;
                }
                if let Some(r) = c.split("Request: ").nth(1) {
                    return Some((i, r.to_string()));
                }
                let r = c.strip_prefix("Request ")?;
                Some((i, r.split_once(": ")?.1.to_string()))
            })
            .unwrap();
        let done = msgs[pos..]
            .iter()
            .filter(|m| m["role"] == "assistant")
            .count();
        let gold = golds.get(&request).cloned().unwrap_or_default();
        let first_request = !msgs[..pos].iter().any(|m| m["role"] == "assistant");
        if request == stubborn {
            return action(json!({"action": "EXECUTE_CYPHER", "query": gold}));
        }
        match (agentic && first_request, done) {
            (true, 0) => action(json!({"action": "INSPECT_SCHEMA"})),
            (true, 1) | (false, 0) => Reply::chat(&format!(
                "Let me check.\n{}",
                json!({"action": "EXECUTE_CYPHER", "query": gold})
            )),
            _ => action(json!({"action": "SUBMIT_ANSWER", "query": gold})),
        }
    })
}

fn run(mock: &Mock, out: &Path, extra: &[&str]) -> (String, Json, Vec<Json>) {
    let o = Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["session-eval", "--sessions"])
        .arg(demo("sessions.json"))
        .arg("--graph")
        .arg(demo("graph.json"))
        .arg("--out")
        .arg(out)
        .args(extra)
        .args([
            "--model",
            "openai:gpt-4o-mini",
            "--base-url",
            &mock.base_url(),
            "--api-key",
            "k",
            "--cache",
            "none",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: Json =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let traces = std::fs::read_to_string(out.join("traces.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (stdout, report, traces)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grape-session-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn guided_protocol_caps_actions_per_turn() {
    let stubborn = "What is their average rating?".to_string();
    assert!(golds().contains_key(&stubborn), "the demo sessions changed");
    let m = mock(stubborn.clone());
    let out = tmp("guided");
    let (stdout, report, traces) = run(&m, &out, &["--protocol", "guided"]);
    assert!(
        stdout.contains("5 sessions, 35 actions, 0 ran out of budget"),
        "{stdout}"
    );
    // 16 of 17 turns submitted the gold query; the stubborn one used its 3 actions and is lost.
    assert!(
        (report["overall"]["ex"].as_f64().unwrap() - 16.0 / 17.0).abs() < 1e-9,
        "{}",
        report["overall"]
    );
    assert_eq!(report["sessions"]["sem"], 0.8);
    let t = traces
        .iter()
        .flat_map(|s| s["turns"].as_array().unwrap().clone())
        .find(|t| {
            t["actions"][0]["argument"]
                .as_str()
                .is_some_and(|_| t["submitted"].is_null())
        })
        .unwrap();
    assert_eq!(t["actions"].as_array().unwrap().len(), 3);
    // Guided prompts carry the schema and, after the first turn, the gold history.
    let seen = m.seen.lock().unwrap();
    assert!(seen.iter().all(|s| s.body["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("Graph schema:")));
    assert!(seen.iter().any(|s| s.body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .contains("Conversation so far (with the correct queries)")));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn agentic_protocol_shares_a_budget_and_zeroes_the_rest() {
    let m = mock("(none)".into());
    // m = 3: enough for every turn (3 + 2 + 2 + … ≤ 3 × turns).
    let out = tmp("agentic3");
    let (_, report, traces) = run(
        &m,
        &out,
        &["--protocol", "agentic", "--budget-per-turn", "3"],
    );
    assert_eq!(report["overall"]["ex"], 1.0);
    assert_eq!(report["sessions"]["sem"], 1.0);
    assert!(traces.iter().all(|t| t["exhausted"] == false));
    // Only the first request inspects the schema (the agent keeps its own history).
    assert!(traces
        .iter()
        .all(|t| t["turns"][0]["actions"][0]["action"] == "INSPECT_SCHEMA"));
    assert!(traces
        .iter()
        .all(|t| t["turns"][1]["actions"][0]["action"] == "EXECUTE_CYPHER"));
    let _ = std::fs::remove_dir_all(&out);
    // m = 1: B = turns. Turn 1 takes 3 units, turn 2 spends the last one without submitting,
    // and every later turn is zeroed without a single model call.
    let out = tmp("agentic1");
    let before = m.requests();
    let (stdout, report, traces) = run(
        &m,
        &out,
        &["--protocol", "agentic", "--budget-per-turn", "1"],
    );
    for t in &traces {
        let turns = t["turns"].as_array().unwrap();
        assert_eq!(t["budget"], turns.len());
        assert_eq!(t["used"], turns.len());
        assert_eq!(t["exhausted"], true);
        assert!(turns[0]["submitted"].is_string());
        assert!(turns[1]["submitted"].is_null());
        for later in &turns[2..] {
            assert_eq!(later["zeroed"], true);
            assert!(later["actions"].as_array().unwrap().is_empty());
        }
    }
    assert_eq!(m.requests() - before, 17, "one call per unit of budget");
    assert!(
        stdout.contains("5 sessions, 17 actions, 5 ran out of budget"),
        "{stdout}"
    );
    assert!((report["overall"]["ex"].as_f64().unwrap() - 5.0 / 17.0).abs() < 1e-9);
    assert_eq!(report["sessions"]["sem"], 0.0);
    let _ = std::fs::remove_dir_all(&out);
}
