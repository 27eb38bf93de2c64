//! The bundled demo benchmark (`corpora/demo`): every gold query runs, and every metric of the
//! report takes a value strictly between 0 and 1 — the predictions' mistakes are visible.

use grape::dataset::{read_dataset, read_predictions};
use grape::eval::{evaluate, report_markdown, EvalOptions};
use std::path::Path;

#[test]
fn the_demo_evaluation_shows_every_metric() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/demo");
    let examples = read_dataset(&dir.join("questions.jsonl"), None).unwrap();
    let preds = read_predictions(&dir.join("predictions.jsonl")).unwrap();
    assert!(examples.len() >= 40);
    assert!(preds.values().all(|p| p.candidates.len() == 3));
    let graph = grape::engine::load_graph(
        dir.join("graph.json").to_str().unwrap(),
        grape::graph::import::ImporterTypes::Model,
    )
    .unwrap();
    let opts = EvalOptions {
        k: 3,
        ..Default::default()
    };
    let (report, records) = evaluate(
        &grape::eval::Graphs::single(&graph),
        &examples,
        &preds,
        &opts,
        None,
    )
    .unwrap();
    assert_eq!(
        report.gold_errors,
        0,
        "{:?}",
        records.iter().find(|r| r.gold_error.is_some())
    );
    for (m, v) in &report.overall {
        assert!(*v > 0.0 && *v < 1.0, "{m} = {v}");
    }
    assert!(report.overall["pass_at_3"] > report.overall["pass_at_1"]);
    assert!(report.overall["coverage"] >= report.overall["ex"]);
    for field in ["query_type", "gold_hops"] {
        assert!(report.by.contains_key(field), "{field}");
    }
    assert_eq!(report.by["gold_hops"].len(), 5);
    assert_eq!(
        report.counts["query_type"].values().sum::<usize>(),
        examples.len()
    );
    // The three syntax errors are reported as such.
    let syntax = records
        .iter()
        .filter(|r| {
            r.prediction_error
                .as_deref()
                .is_some_and(|e| e.starts_with("syntax error"))
        })
        .count();
    assert_eq!(syntax, 2);
    let md = report_markdown(&report);
    assert!(md.contains("## By query_type"), "{md}");
    assert!(md.contains("| existence_path | 12 |"), "{md}");
}
