//! grape's own Bolt client (feature `neo4j`) against the real server (the oracle issue, f):
//!
//! - `grape record` of ZOGRASCOPE's test split from POLE on the oracle, then the fixture
//!   replayed on grape's engine: the recording's fidelity, and `replay-check`'s, are measured
//!   against Neo4j's own answers;
//! - the `EXPLAIN` notifications grape derives for the demo corpus's predictions (every
//!   candidate of `corpora/demo/predictions.jsonl`) on the demo graph pushed to the oracle equal
//!   Neo4j's, for the codes grape derives.

#![cfg(feature = "neo4j")]

mod common;
#[path = "support/oracle.rs"]
mod oracle;

use grape::backend::push::{push, PushOptions};
use grape::backend::record::{fidelity, record, replay_check, RecordOptions, Verdict};
use grape::dataset::{read_dataset, DatasetFormat};
use grape::engine::Params;
use std::path::PathBuf;

use oracle::DERIVED_NOTIFICATIONS as DERIVED;

#[test]
fn record_from_the_oracle_then_replay_on_grape() {
    let _g = oracle::ORACLE.lock().unwrap_or_else(|e| e.into_inner());
    let test = "record_from_the_oracle_then_replay_on_grape";
    let Some(shared) = common::shared_dir(test) else {
        return;
    };
    let Some(db) = oracle::fresh_oracle(test) else {
        return;
    };
    let pole = grape::graph::import::load_importer_dir(
        &shared.join("data/pole"),
        grape::graph::import::ImporterTypes::Strings,
    )
    .expect("load POLE");
    push(&pole, &db, &PushOptions::default()).unwrap();
    let examples = read_dataset(
        &shared.join("data/zograscope/zograscope_test_v1.csv"),
        Some(DatasetFormat::Zograscope),
    )
    .unwrap();
    let opts = RecordOptions {
        jobs: 2,
        ..Default::default()
    };
    let rec = record(&db, &examples, &opts).expect("record from the oracle");
    let recorded = fidelity(&rec.outcomes).unwrap();
    let fixture = rec.fixture.graph();
    // The replay on every third query in the test run (GRAPE_ORACLE_FULL=1: all): the record
    // above ran every one on the oracle.
    let replayed_examples: Vec<_> = examples
        .iter()
        .enumerate()
        .filter(|(i, _)| oracle::sampled(*i))
        .map(|(_, e)| e.clone())
        .collect();
    let replayed = replay_check(&db, &fixture, &replayed_examples, 2).expect("replay-check");
    let differ: Vec<String> = replayed
        .iter()
        .filter_map(|o| match &o.verdict {
            Verdict::Agrees | Verdict::Skipped(_) => None,
            v => Some(format!("{}: {v:?}", o.id)),
        })
        .collect();
    eprintln!(
        "record of ZOGRASCOPE's test split ({} queries) from {}: {} nodes, {} relationships, \
         fidelity {:.2}% as recorded, {:.2}% on replay-check; {} differ",
        examples.len(),
        db.server_agent(),
        rec.fixture.node_count(),
        rec.fixture.relationship_count(),
        100.0 * recorded,
        100.0 * fidelity(&replayed).unwrap(),
        differ.len()
    );
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    assert!(
        recorded >= 1.0 - 1e-9,
        "the recording's own fidelity: {recorded}"
    );
}

/// A notification: code, description, position (offset, line, column).
type Note = (String, String, Option<(i64, i64, i64)>);

#[test]
fn explain_notifications_of_the_demo_predictions_equal_neo4j() {
    let _g = oracle::ORACLE.lock().unwrap_or_else(|e| e.into_inner());
    let test = "explain_notifications_of_the_demo_predictions_equal_neo4j";
    let Some(db) = oracle::fresh_oracle(test) else {
        return;
    };
    let demo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/demo");
    let graph = grape::engine::load_graph(
        demo.join("graph.json").to_str().unwrap(),
        Default::default(),
    )
    .unwrap();
    push(&graph, &db, &PushOptions::default()).unwrap();
    let text = std::fs::read_to_string(demo.join("predictions.jsonl")).unwrap();
    let (mut compared, mut notes, mut wrong) = (0, 0, Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let candidates = v["candidates"].as_array().cloned().unwrap_or_default();
        for q in candidates.iter().filter_map(|c| c.as_str()) {
            let Ok(stmt) = grape::syntax::parse(q) else {
                continue;
            };
            let Ok((_, theirs)) =
                db.run_with_notifications(&format!("EXPLAIN {q}"), &Params::new())
            else {
                continue;
            };
            compared += 1;
            let shift = "EXPLAIN ".len() as i64;
            let mut theirs: Vec<Note> = theirs
                .into_iter()
                .filter(|n| DERIVED.contains(&n.code.as_str()))
                .map(|n| {
                    let pos = n
                        .position
                        .map(|(o, l, c)| (o - shift, l, if l == 1 { c - shift } else { c }));
                    (n.code, n.description, pos)
                })
                .collect();
            let mut ours: Vec<Note> =
                grape::engine::notifications(&graph, &stmt, q, &Params::new())
                    .into_iter()
                    .map(|n| {
                        (
                            n.code.to_string(),
                            n.description,
                            n.position
                                .map(|p| (p.offset as i64, p.line as i64, p.column as i64)),
                        )
                    })
                    .collect();
            theirs.sort();
            ours.sort();
            notes += theirs.len();
            if ours != theirs {
                wrong.push(format!("{q}\n    grape {ours:?}\n    Neo4j {theirs:?}"));
            }
        }
    }
    eprintln!(
        "demo predictions: EXPLAIN notifications equal Neo4j's on {} of {compared} \
         ({notes} notifications)",
        compared - wrong.len()
    );
    assert!(compared >= 100, "only {compared} compared");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
