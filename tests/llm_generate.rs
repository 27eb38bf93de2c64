//! `grape generate predictions` and `grape judge` end to end against a loopback mock LLM:
//! predictions for the demo corpus → `grape eval`; repair with and without; in-context
//! strategies; k samples; resuming an interrupted run; ZOGRASCOPE's 2,117 test questions with a
//! 429 on every 7th request → 2,117 predictions and EX 1.0; the judge and its self-check.
#![cfg(feature = "llm")]

mod common;
mod llm_support;

use llm_support::{Mock, Reply, Seen};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn demo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/demo")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grape-llm-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn grape(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(args)
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .output()
        .unwrap()
}

fn ok(o: &Output) -> String {
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// question → gold query, from the dataset (as the mock "knows" the answers).
fn golds(dataset: &Path) -> HashMap<String, String> {
    grape::dataset::read_dataset(dataset, None)
        .unwrap()
        .into_iter()
        .map(|e| (e.question, e.gold))
        .collect()
}

/// The question of a text-to-Cypher conversation: its last "Question: …" user message.
fn question_of(seen: &Seen) -> String {
    seen.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .filter(|m| m["role"] == "user")
        .filter_map(|m| m["content"].as_str())
        .find_map(|c| c.strip_prefix("Question: "))
        .unwrap_or("")
        .to_string()
}

fn eval_ex(dataset: &Path, predictions: &Path, graph: &str) -> Json {
    let out = grape(&[
        "eval",
        "--k",
        "3",
        "--dataset",
        dataset.to_str().unwrap(),
        "--predictions",
        predictions.to_str().unwrap(),
        "--graph",
        graph,
        "--json",
    ]);
    let report: Json = serde_json::from_str(&ok(&out)).unwrap();
    report["overall"].clone()
}

/// Runs grape with `args` plus the flags that point it at `mock` (model, URL, key, cache).
fn grape_with_model(args: &[String], mock: &Mock, cache: &str) -> Output {
    let mut all: Vec<String> = args.to_vec();
    all.extend(
        [
            "--model",
            "openai:gpt-4o-mini",
            "--base-url",
            &mock.base_url(),
            "--api-key",
            "k",
            "--cache",
            cache,
        ]
        .iter()
        .map(|x| x.to_string()),
    );
    let a: Vec<&str> = all.iter().map(String::as_str).collect();
    grape(&a)
}

#[test]
fn demo_predictions_with_and_without_repair_then_eval() {
    let questions = demo().join("questions.jsonl");
    let gold = golds(&questions);
    // Replies in several shapes; a query over `:Book` is first written with a wrong label and
    // corrected when the validator's diagnostics come back.
    let mock = {
        let gold = gold.clone();
        Mock::start(move |n, seen| {
            let q = gold.get(&question_of(seen)).cloned().unwrap_or_default();
            let last = llm_support::last_user(&seen.body);
            let repairing = !last.starts_with("Question: ");
            let q = if q.contains(":Book") && !repairing {
                q.replace(":Book", ":Books")
            } else {
                q
            };
            Reply::chat(&match n % 3 {
                0 => format!("```cypher\n{q}\n```"),
                1 => format!("Here is the query you asked for:\n\n```\n{q};\n```\nIt should work."),
                _ => q,
            })
        })
    };
    let dir = tmp("demo");
    let out = dir.join("preds.jsonl");
    let graph = demo().join("graph.json");
    let args: Vec<String> = vec![
        "generate".into(),
        "predictions".into(),
        "--dataset".into(),
        questions.to_str().unwrap().into(),
        "--graph".into(),
        graph.to_str().unwrap().into(),
        "--repair".into(),
        "2".into(),
        "--out".into(),
        out.to_str().unwrap().into(),
    ];
    let cache = dir.join("cache");
    let stdout = ok(&grape_with_model(&args, &mock, cache.to_str().unwrap()));
    assert!(
        stdout.contains("52 questions (0 resumed, 0 failed)"),
        "{stdout}"
    );
    let with_books = gold.values().filter(|q| q.contains(":Book")).count();
    assert!(with_books > 0);
    assert_eq!(mock.requests(), 52 + with_books);
    assert!(
        stdout.contains(&format!("{} calls", 52 + with_books)),
        "{stdout}"
    );
    let after = eval_ex(&questions, &out, graph.to_str().unwrap());
    assert_eq!(after["ex"], 1.0, "{after}");
    assert_eq!(after["kg_valid"], 1.0);
    let before = eval_ex(
        &questions,
        &dir.join("preds.no-repair.jsonl"),
        graph.to_str().unwrap(),
    );
    // Before repair exactly the queries without `:Book` are valid for the schema, and fewer
    // results are right.
    let expect_before = (52 - with_books) as f64 / 52.0;
    assert!(
        (before["kg_valid"].as_f64().unwrap() - expect_before).abs() < 1e-9,
        "{before}"
    );
    assert!(before["ex"].as_f64().unwrap() < 0.5, "{before}");
    // The same run again is answered by the cache: no request, same bytes.
    let first = std::fs::read(&out).unwrap();
    let stdout = ok(&grape_with_model(&args, &mock, cache.to_str().unwrap()));
    assert_eq!(mock.requests(), 52 + with_books);
    assert!(stdout.contains("from the cache"), "{stdout}");
    assert!(
        std::fs::read(&out).unwrap() == first,
        "the cached rerun changed the file"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn strategies_samples_and_resume() {
    let questions = demo().join("questions.jsonl");
    let gold = golds(&questions);
    let mock = {
        let gold = gold.clone();
        Mock::start(move |_, seen| {
            let q = gold.get(&question_of(seen)).cloned().unwrap_or_default();
            Reply::chat(&format!("```cypher\n{q}\n```"))
        })
    };
    let dir = tmp("strategies");
    let graph = demo().join("graph.json");
    let run = |extra: &[&str], out: &Path, mock: &Mock| -> Output {
        let mut args: Vec<String> = vec![
            "generate".into(),
            "predictions".into(),
            "--dataset".into(),
            questions.to_str().unwrap().into(),
            "--graph".into(),
            graph.to_str().unwrap().into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        grape_with_model(&args, mock, "none")
    };
    // Dynamic ICL with the demo questions as training data: 3 shots, never the question itself.
    let out = dir.join("dyn.jsonl");
    ok(&run(
        &[
            "--strategy",
            "dynamic-icl",
            "--train",
            questions.to_str().unwrap(),
            "--k-shots",
            "3",
        ],
        &out,
        &mock,
    ));
    for seen in mock.seen.lock().unwrap().iter() {
        let m = seen.body["messages"].as_array().unwrap();
        assert_eq!(m.len(), 2 + 2 * 3);
        let q = question_of(seen);
        let shots: Vec<&str> = m[1..m.len() - 1]
            .iter()
            .filter(|x| x["role"] == "user")
            .filter_map(|x| x["content"].as_str())
            .collect();
        assert!(!shots.contains(&format!("Question: {q}").as_str()));
    }
    // Dynamic ICL by embeddings: the nearest training question by cosine comes first.
    let emb_mock = {
        let gold = gold.clone();
        Mock::start(move |_, seen| {
            if seen.path.ends_with("/embeddings") {
                return llm_support::embeddings_reply(&seen.body);
            }
            let q = gold.get(&question_of(seen)).cloned().unwrap_or_default();
            Reply::chat(&format!("```cypher\n{q}\n```"))
        })
    };
    ok(&run(
        &[
            "--strategy",
            "dynamic-icl",
            "--train",
            questions.to_str().unwrap(),
            "--k-shots",
            "2",
            "--embedding-model",
            "openai:text-embedding-3-small",
        ],
        &dir.join("emb.jsonl"),
        &emb_mock,
    ));
    let seen = emb_mock.seen.lock().unwrap();
    let embeds = seen
        .iter()
        .filter(|s| s.path.ends_with("/embeddings"))
        .count();
    assert_eq!(embeds, 2, "train and test questions, one batch each");
    let train_q: Vec<String> = gold.keys().cloned().collect();
    for s in seen
        .iter()
        .filter(|s| s.path.ends_with("/chat/completions"))
    {
        let q = question_of(s);
        let m = s.body["messages"].as_array().unwrap();
        let first_shot = m[1]["content"]
            .as_str()
            .unwrap()
            .trim_start_matches("Question: ");
        let sim = |a: &str| {
            let (x, y) = (
                llm_support::toy_embedding(a),
                llm_support::toy_embedding(&q),
            );
            let dot: f32 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
            let n = |v: &[f32]| v.iter().map(|a| a * a).sum::<f32>().sqrt();
            dot / (n(&x) * n(&y))
        };
        let best = train_q
            .iter()
            .filter(|t| **t != q)
            .map(|t| sim(t))
            .fold(f32::MIN, f32::max);
        assert!((sim(first_shot) - best).abs() < 1e-5, "{q}: {first_shot}");
    }
    drop(seen);
    // Fixed ICL: the same shots for every question.
    let before = mock.requests();
    ok(&run(
        &[
            "--strategy",
            "fixed-icl",
            "--train",
            questions.to_str().unwrap(),
        ],
        &dir.join("fixed.jsonl"),
        &mock,
    ));
    let seen = mock.seen.lock().unwrap();
    let shots = |s: &Seen| {
        let m = s.body["messages"].as_array().unwrap().clone();
        m[1..m.len() - 1].to_vec()
    };
    assert_eq!(shots(&seen[before]).len(), 10);
    assert!(seen[before..]
        .iter()
        .all(|s| shots(s) == shots(&seen[before])));
    drop(seen);
    // k samples: three candidates per question, seeds 0, 1, 2.
    let before = mock.requests();
    let out = dir.join("k3.jsonl");
    ok(&run(&["--samples", "3"], &out, &mock));
    assert_eq!(mock.requests() - before, 3 * 52);
    let first: Json = serde_json::from_str(
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["candidates"].as_array().unwrap().len(), 3);
    let seeds: std::collections::BTreeSet<i64> = mock.seen.lock().unwrap()[before..]
        .iter()
        .map(|s| s.body["seed"].as_i64().unwrap())
        .collect();
    assert_eq!(seeds.into_iter().collect::<Vec<_>>(), [0, 1, 2]);
    let overall = eval_ex(&questions, &out, graph.to_str().unwrap());
    assert_eq!(overall["pass_at_3"], 1.0, "{overall}");

    // An interrupted run: the key is refused after 20 answers; the answers so far are kept,
    // and the rerun asks only for the rest (no cache in play).
    let failing = {
        let gold = gold.clone();
        Mock::start(move |n, seen| {
            if n > 20 {
                return Reply::status(401, r#"{"error":{"message":"key revoked"}}"#);
            }
            let q = gold.get(&question_of(seen)).cloned().unwrap_or_default();
            Reply::chat(&q)
        })
    };
    let out = dir.join("resume.jsonl");
    let o = run(&["--concurrency", "1"], &out, &failing);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("key revoked"));
    assert!(!out.exists());
    let partial = std::fs::read_to_string(dir.join("resume.jsonl.partial")).unwrap();
    assert_eq!(partial.lines().count(), 20);
    let before = mock.requests();
    let stdout = ok(&run(&[], &out, &mock));
    assert!(stdout.contains("(20 resumed"), "{stdout}");
    assert_eq!(mock.requests() - before, 32);
    assert!(!dir.join("resume.jsonl.partial").exists());
    let overall = eval_ex(&questions, &out, graph.to_str().unwrap());
    assert_eq!(overall["ex"], 1.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn zograscope_test_set_with_a_429_every_seventh_request() {
    let Some(shared) = common::shared_dir("zograscope_test_set_with_a_429_every_seventh_request")
    else {
        return;
    };
    let dataset = shared.join("data/zograscope/zograscope_test_v1.csv");
    let examples = grape::dataset::read_dataset(&dataset, None).unwrap();
    assert_eq!(examples.len(), 2117);
    // With gold entity linking, as ZOGRASCOPE evaluates: the linked question goes in the prompt.
    let gold: HashMap<String, String> = examples
        .iter()
        .map(|e| (e.linked_question.clone().unwrap(), e.gold.clone()))
        .collect();
    let mock = Mock::start(move |n, seen| {
        if n % 7 == 0 {
            return Reply::status(429, r#"{"error":{"message":"rate limited"}}"#)
                .header("Retry-After", "0");
        }
        Reply::chat(&format!(
            "```cypher\n{}\n```",
            gold.get(&question_of(seen)).cloned().unwrap_or_default()
        ))
    });
    let dir = tmp("zograscope");
    let out = dir.join("preds.jsonl");
    let args: Vec<String> = vec![
        "generate".into(),
        "predictions".into(),
        "--dataset".into(),
        dataset.to_str().unwrap().into(),
        "--schema".into(),
        shared
            .join("data/zograscope/graph_schema.json")
            .to_str()
            .unwrap()
            .into(),
        "--linked".into(),
        "--out".into(),
        out.to_str().unwrap().into(),
    ];
    let stdout = ok(&grape_with_model(&args, &mock, "none"));
    assert!(
        stdout.contains("2117 questions (0 resumed, 0 failed)"),
        "{stdout}"
    );
    // Every 7th request was refused and retried: 2117 answers took 2117 + 352 requests.
    assert_eq!(mock.requests(), 2117 + 2117 / 6);
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 2117);
    let overall = eval_ex(&dataset, &out, shared.join("data/pole").to_str().unwrap());
    assert_eq!(overall["ex"], 1.0, "{overall}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn judge_scores_answers_and_checks_itself() {
    let dir = tmp("judge");
    let dataset = dir.join("qa.jsonl");
    std::fs::write(
        &dataset,
        r#"{"id": "1", "question": "Revenue of Acme?", "cypher": "RETURN 1", "answer": "Acme's revenue is $5M."}
{"id": "2", "question": "Who founded Acme?", "cypher": "RETURN 1", "answer": "Ann Lee founded Acme."}
{"id": "3", "question": "Where is Acme?", "cypher": "RETURN 1", "answer": "In Oslo."}
"#,
    )
    .unwrap();
    let answers = dir.join("answers.jsonl");
    std::fs::write(
        &answers,
        r#"{"id": "1", "answer": "5 million dollars."}
{"id": "2", "answer": "Bob founded it."}
"#,
    )
    .unwrap();
    // The mock judge: 1 when candidate = reference, 0.5 for id 1, 0 otherwise; replies in
    // different shapes.
    let mock = Mock::start(|_, seen| {
        let (r, c) = llm_support::judged_pair(&seen.body);
        if r == c {
            Reply::chat(r#"{"reasoning": "identical", "score": 1}"#)
        } else if c.contains("5 million") {
            Reply::chat("Same amount, less detail.\nScore: 5/10")
        } else {
            Reply::chat("```json\n{\"reasoning\": \"wrong person\", \"score\": 0}\n```")
        }
    });
    let out = dir.join("verdicts.jsonl");
    let args: Vec<String> = vec![
        "judge".into(),
        "--dataset".into(),
        dataset.to_str().unwrap().into(),
        "--answers".into(),
        answers.to_str().unwrap().into(),
        "--self-check".into(),
        "--out".into(),
        out.to_str().unwrap().into(),
    ];
    let stdout = ok(&grape_with_model(&args, &mock, "none"));
    assert!(stdout.contains("self-check: 3 of 3"), "{stdout}");
    assert!(
        stdout.contains("judged 3 of 3 answers: mean score 0.167"),
        "{stdout}"
    );
    let v: Vec<Json> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v[0]["score"], 0.5);
    assert_eq!(v[1]["score"], 0.0);
    assert_eq!(v[1]["reasoning"], "wrong person");
    assert_eq!(v[2]["answered"], false);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first node of the path in a generation prompt: `(label, key, literal)`.
fn first_node(prompt: &str) -> Option<(String, String, String)> {
    let path = prompt.split("\nPath (").nth(1)?;
    let start = path.find("(:")? + 2;
    let rest = &path[start..];
    let label = rest[..rest.find(' ')?].split(':').next()?.to_string();
    let props = &rest[rest.find('{')? + 1..];
    let (key, after) = props.split_once(": ")?;
    let value = if let Some(s) = after.strip_prefix('"') {
        format!("\"{}\"", &s[..s.find('"')?])
    } else {
        after[..after.find([',', '}'])?].to_string()
    };
    Some((label, key.to_string(), value))
}

#[test]
fn dataset_generation_from_the_demo_graph() {
    let graph_path = demo().join("graph.json");
    let mock = Mock::start(|n, seen| {
        let system = seen.body["messages"][0]["content"].as_str().unwrap_or("");
        let user = llm_support::last_user(&seen.body);
        if system.starts_with("You turn database results") {
            if user.contains("(u)") {
                return Reply::chat("UNKNOWN");
            }
            return Reply::chat("The answer is in the rows.");
        }
        let Some((label, key, value)) = first_node(&user) else {
            return Reply::chat("I cannot.");
        };
        let (question, cypher) = match n % 6 {
            // Not valid for the schema: dropped.
            1 => (
                "Which nopes exist?".to_string(),
                "MATCH (x:Nope) RETURN x".to_string(),
            ),
            // Many rows: dropped under --single-row.
            2 => (
                format!("List every {label}'s {key}."),
                format!("MATCH (x:{label}) RETURN x.{key} AS v"),
            ),
            // Not JSON at all.
            3 => return Reply::chat("Here is a question about the graph."),
            4 => (
                format!("What is the {key} of {value} (u)?"),
                format!("MATCH (x:{label} {{{key}: {value}}}) RETURN x.{key} AS v LIMIT 1"),
            ),
            _ => (
                format!("What is the {key} of the {label} {value}?"),
                format!("MATCH (x:{label} {{{key}: {value}}}) RETURN count(x) AS n"),
            ),
        };
        Reply::chat(
            &serde_json::json!({"question": question, "cypher": cypher,
                "query_type": "Direct Property Access"})
            .to_string(),
        )
    });
    let dir = tmp("dataset");
    let out = dir.join("generated.json");
    let args: Vec<String> = [
        "generate",
        "dataset",
        "--graph",
        graph_path.to_str().unwrap(),
        "--paths",
        "12",
        "--noise",
        "0.5",
        "--single-row",
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let stdout = ok(&grape_with_model(&args, &mock, "none"));
    let records: Vec<Json> = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(!records.is_empty(), "{stdout}");
    assert!(
        stdout.starts_with(&format!("{} records from 24 paths", records.len())),
        "{stdout}"
    );
    assert!(stdout.contains("not KG-valid") && stdout.contains("UNKNOWN answers"));
    // GRAPE's record format, KG-valid, single-row, answered.
    let graph =
        grape::engine::load_graph(graph_path.to_str().unwrap(), Default::default()).unwrap();
    let schema = grape::engine::schema_of(&graph);
    for r in &records {
        for k in [
            "question",
            "cypher",
            "query_type",
            "complexity",
            "noise_applied",
            "model",
            "database",
            "validated",
            "result",
            "answer",
        ] {
            assert!(r.get(k).is_some(), "{k} missing in {r}");
        }
        let q = r["cypher"].as_str().unwrap();
        assert!(grape::analysis::validate(q, &schema).kg_valid, "{q}");
        assert_eq!(r["result"].as_array().unwrap().len(), 1);
        assert_ne!(r["answer"], "UNKNOWN");
        assert_eq!(r["model"], "openai:gpt-4o-mini");
        assert_eq!(r["database"], "graph");
        assert!(r["complexity"].as_str().unwrap().ends_with("-hop"));
        let mut g = graph.clone();
        let t = grape::engine::run(&mut g, q, &Default::default()).unwrap();
        assert_eq!(t.rows.len(), 1);
    }
    assert!(records.iter().all(|r| r["noise_applied"].is_boolean()));
    // Both modes were asked for; the noisy prompts say how.
    let seen = mock.seen.lock().unwrap();
    let prompts: Vec<String> = seen
        .iter()
        .map(|s| llm_support::last_user(&s.body))
        .collect();
    assert!(prompts.iter().any(|p| p.contains("Mode: simple")));
    assert!(prompts.iter().any(|p| p.contains("Mode: multi-hop")));
    assert!(prompts.iter().any(|p| p.contains("Noise: ")));
    drop(seen);
    // grape reads what it wrote as a GRAPE dataset.
    let examples = grape::dataset::read_dataset(&out, None).unwrap();
    assert_eq!(examples.len(), records.len());
    assert!(examples.iter().all(|e| e.answer.is_some()));
    let _ = std::fs::remove_dir_all(&dir);
}
