//! Multi-turn evaluation: CypherTurn sessions, predictions by (session, turn), SEM and CER in
//! the report, graphs by name.

mod common;

use grape::dataset::{read_dataset, read_predictions, DatasetFormat};
use grape::eval::{evaluate, EvalOptions, Graphs};
use std::path::{Path, PathBuf};

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/demo")
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grape-sessions-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn reads_cypherturn_sample_session() {
    let Some(shared) = common::shared_dir("CypherTurn sample session") else {
        return;
    };
    let path = shared.join("data/cypherturn/sample_session_excerpt.json");
    let ex = read_dataset(&path, None).unwrap();
    assert_eq!(ex.len(), 4);
    let sid = "f1e1e06b-3fe0-4b9f-97d8-f25fbda674e5";
    assert_eq!(ex[0].id, format!("{sid}/1"));
    assert_eq!(ex[0].graph.as_deref(), Some("ancient_empire"));
    assert!(ex[0].gold.starts_with("MATCH (n:Citizen)"));
    let t2 = ex[1].turn.as_ref().unwrap();
    assert_eq!((t2.turn_id, t2.depends_on), (2, Some(1)));
    assert_eq!(ex[1].categories["chain_mode"], "agg_numeric");
    assert_eq!(ex[1].categories["persona"], "journalist");
    assert_eq!(ex[1].categories["dependent"], "yes");
    assert_eq!(ex[1].tags["phenomenon"], vec!["AGG_AVG".to_string()]);
    assert_eq!(ex[0].categories["chain_mode"], "none");
    assert!(ex[0].tags["phenomenon"].is_empty());
    // Every gold query parses.
    for e in &ex {
        grape::parse(&e.gold).unwrap_or_else(|err| panic!("{}: {err}", e.id));
    }
    // Its graphs folder holds schemas only: the runner says which graph is missing.
    let e = grape::eval::load_named_graph(
        &shared.join("data/cypherturn/graphs"),
        "ancient_empire",
        grape::graph::import::ImporterTypes::Strings,
    )
    .unwrap();
    assert!(e.is_none());
    let (report, records) = evaluate(
        &Graphs::new(None, [], None),
        &ex,
        &Default::default(),
        &EvalOptions::default(),
        None,
    )
    .unwrap();
    assert_eq!(report.gold_errors, 4);
    assert!(records[0]
        .gold_error
        .as_deref()
        .unwrap()
        .contains("\"ancient_empire\" is not loaded"));
}

#[test]
fn demo_sessions_report_sem_and_cer() {
    let d = demo();
    let ex = read_dataset(&d.join("sessions.json"), None).unwrap();
    assert_eq!(ex.len(), 17);
    let preds = read_predictions(&d.join("session_predictions.jsonl")).unwrap();
    assert_eq!(preds.len(), 17);
    assert!(preds.contains_key("s3-genres/2"));
    let graph = grape::engine::load_graph(
        &d.join("graph.json").to_string_lossy(),
        grape::graph::import::ImporterTypes::Strings,
    )
    .unwrap();
    let out = temp("demo");
    let opts = EvalOptions {
        workers: 2,
        ..Default::default()
    };
    let (report, records) =
        evaluate(&Graphs::single(&graph), &ex, &preds, &opts, Some(&out)).unwrap();
    assert_eq!(report.gold_errors, 0);
    let ex_of = |id: &str| records.iter().find(|r| r.id == id).unwrap().metrics["ex"];
    // Session 1: turns 1-2 right, 3 wrong (direction), 4 inherits the mistake.
    assert_eq!(
        [
            "s1-top-books/1",
            "s1-top-books/2",
            "s1-top-books/3",
            "s1-top-books/4"
        ]
        .map(ex_of),
        [1.0, 1.0, 0.0, 0.0]
    );
    let s = report.sessions.as_ref().expect("session metrics");
    assert_eq!((s.sessions, s.scored_sessions), (5, 5));
    // Only s5 is right on every turn.
    assert!((s.sem - 0.2).abs() < 1e-12);
    // Chained turns after a failed one: s1/4 (fails), s3/2 (fails), s3/3 (recovers), s4/2 and
    // s4/3 (fail): 4 of 5.
    assert_eq!((s.cer_turns, s.cer_failed), (5, 4));
    assert!((s.cer.unwrap() - 0.8).abs() < 1e-12);
    assert_eq!(s.cer_by_chain_mode["agg_numeric"].cer, Some(0.0));
    assert_eq!(s.cer_by_chain_mode["pivot_entity"].turns, 2);
    assert_eq!(s.cer_by_chain_mode["filter_set"].cer, None);
    assert!((s.sem_by["persona"]["journalist"].sem - 0.5).abs() < 1e-12);
    // A turn counts under each of its phenomena.
    assert_eq!(report.counts["phenomenon"]["PIVOT"], 4);
    assert_eq!(report.counts["phenomenon"]["none"], 3);
    assert_eq!(report.by["turn"]["4"]["ex"], 0.0);
    // The report files carry the session section.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["sessions"]["cer_failed"], 4);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Sessions"), "{md}");
    assert!(md.contains("| pivot_entity | 2 | 2 | 1.000 |"), "{md}");
    let table = grape::eval::report_table(&report);
    assert!(
        table.contains("SEM 0.200  CER 0.800 (4 of 5 turns)"),
        "{table}"
    );
    // Single-turn reports have no session section.
    let single = grape::eval::aggregate(
        &records
            .iter()
            .map(|r| grape::eval::ExampleRecord {
                turn: None,
                ..r.clone()
            })
            .collect::<Vec<_>>(),
        Default::default(),
    );
    assert!(single.sessions.is_none());
    assert!(!grape::eval::report_json(&single).contains("\"sessions\""));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn session_files_with_pred_cypher_are_predictions() {
    let dir = temp("predcypher");
    let sessions = serde_json::json!([{
        "session_id": "a",
        "graph": "g",
        "turns": [
            {"turn_id": 1, "user_utterance": "names", "gold_cypher": "MATCH (p:P) RETURN p.name AS name",
             "depends_on_result_of": null, "pred_cypher": "MATCH (p:P) RETURN p.name AS name"},
            {"turn_id": 2, "user_utterance": "count", "gold_cypher": "MATCH (p:P) RETURN count(p) AS n",
             "depends_on_result_of": 1, "pred_cypher": null},
        ]
    }]);
    let f = dir.join("run.json");
    std::fs::write(&f, sessions.to_string()).unwrap();
    let preds = read_predictions(&f).unwrap();
    assert_eq!(preds.len(), 1);
    assert_eq!(
        preds["a/1"].candidates,
        vec!["MATCH (p:P) RETURN p.name AS name"]
    );
    // As JSON Lines of sessions, too.
    let jl = dir.join("run.jsonl");
    std::fs::write(&jl, format!("{}\n", sessions[0])).unwrap();
    let ex = read_dataset(&jl, Some(DatasetFormat::CypherTurn)).unwrap();
    assert_eq!(ex.len(), 2);
    // Graphs by name from a folder: g.cypher.
    std::fs::write(
        dir.join("g.cypher"),
        "CREATE (:P {name: 'x'}), (:P {name: 'y'});",
    )
    .unwrap();
    let g = grape::eval::load_named_graph(&dir, "g", grape::graph::import::ImporterTypes::Strings)
        .unwrap()
        .unwrap();
    assert_eq!(g.node_count(), 2);
    let (report, _) = evaluate(
        &Graphs::new(None, [("g".to_string(), &g)], None),
        &ex,
        &preds,
        &EvalOptions::default(),
        None,
    )
    .unwrap();
    assert_eq!(report.scored, 2);
    assert_eq!(report.missing_predictions, 1);
    let s = report.sessions.unwrap();
    // Turn 2 has no prediction, so the session is not exactly right; its dependency was right.
    assert_eq!((s.sem, s.cer), (0.0, None));
    // Names that would leave the folder are refused.
    for bad in ["../g", "/etc/passwd", "..", "a/b"] {
        assert!(grape::eval::load_named_graph(
            &dir,
            bad,
            grape::graph::import::ImporterTypes::Strings
        )
        .is_err());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_session_records_are_located() {
    let dir = temp("bad");
    let f = dir.join("s.json");
    std::fs::write(
        &f,
        r#"[{"session_id": "a", "turns": [{"turn_id": 1, "gold_cypher": "RETURN 1"}, {"turn_id": 2}]}]"#,
    )
    .unwrap();
    let e = read_dataset(&f, None).unwrap_err().to_string();
    assert!(e.contains("s.json"), "{e}");
    assert!(
        e.contains("session \"a\", turn 2") && e.contains("gold_cypher"),
        "{e}"
    );
    std::fs::write(
        &f,
        r#"{"session_id": "a", "turns": [{"turn_id": 1, "gold_cypher": "RETURN 1"}, {"turn_id": 1, "gold_cypher": "RETURN 2"}]}"#,
    )
    .unwrap();
    let e = read_dataset(&f, None).unwrap_err().to_string();
    assert!(e.contains("duplicate turn \"a/1\""), "{e}");
    std::fs::write(
        &f,
        r#"{"session_id": "a", "turns": [{"turn_id": -1, "gold_cypher": "RETURN 1"}]}"#,
    )
    .unwrap();
    let e = read_dataset(&f, None).unwrap_err().to_string();
    assert!(e.contains("turn_id"), "{e}");
    // Predictions naming a turn without its id.
    let p = dir.join("p.jsonl");
    std::fs::write(&p, "{\"session_id\": \"a\", \"cypher\": \"RETURN 1\"}\n").unwrap();
    let e = read_predictions(&p).unwrap_err().to_string();
    assert!(e.contains("p.jsonl:1") && e.contains("turn_id"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
