//! The evaluation runner end to end: ZOGRASCOPE test examples over POLE, scored against
//! predictions that are the gold queries themselves, shuffled gold queries, and a run that is
//! interrupted and resumed.

mod common;

use grape::dataset::examples::{read_dataset, read_predictions, DatasetFormat, Prediction};
use grape::eval::{evaluate, EvalOptions};
use grape::graph::import::{load_importer_dir, ImporterTypes};
use std::collections::HashMap;

const SAMPLE: usize = 240;

fn setup() -> Option<(grape::graph::Graph, Vec<grape::dataset::examples::Example>)> {
    let shared = common::shared_dir("eval runner")?;
    let g = load_importer_dir(&shared.join("data/pole"), ImporterTypes::Strings).expect("POLE");
    let mut ex = read_dataset(&shared.join("data/zograscope/zograscope_test_v1.csv"), None)
        .expect("dataset");
    assert!(ex.len() > 1000, "test split has {} examples", ex.len());
    ex.truncate(SAMPLE);
    Some((g, ex))
}

fn opts() -> EvalOptions {
    EvalOptions {
        workers: 2,
        ..EvalOptions::default()
    }
}

#[test]
fn gold_as_prediction_scores_one_and_shuffled_scores_low() {
    let Some((g, ex)) = setup() else { return };
    assert!(ex.iter().all(|e| e.categories.contains_key("type")));
    assert!(ex.iter().any(|e| e.categories.contains_key("split")));
    let gold: HashMap<String, Prediction> = ex
        .iter()
        .map(|e| {
            (
                e.id.clone(),
                Prediction {
                    id: e.id.clone(),
                    candidates: vec![e.gold.clone()],
                },
            )
        })
        .collect();
    let (r, recs) = evaluate(&grape::eval::Graphs::single(&g), &ex, &gold, &opts(), None).unwrap();
    assert_eq!(r.examples, SAMPLE);
    assert_eq!(
        r.gold_errors,
        0,
        "{:?}",
        recs.iter().find(|r| r.gold_error.is_some())
    );
    for m in [
        "ex",
        "ex_strict",
        "jaccard",
        "coverage",
        "psjs",
        "pass_at_1",
        "jaro_winkler",
        "normalized_levenshtein",
        "valid_syntax",
    ] {
        assert_eq!(r.overall[m], 1.0, "{m}: {:?}", r.overall);
    }
    // Every category value is reported per metric.
    assert!(r.by["type"].values().all(|ms| ms["ex"] == 1.0));

    // Each example gets the next example's gold query.
    let shuffled: HashMap<String, Prediction> = ex
        .iter()
        .enumerate()
        .map(|(i, e)| {
            (
                e.id.clone(),
                Prediction {
                    id: e.id.clone(),
                    candidates: vec![ex[(i + 1) % ex.len()].gold.clone()],
                },
            )
        })
        .collect();
    let (r2, _) = evaluate(
        &grape::eval::Graphs::single(&g),
        &ex,
        &shuffled,
        &opts(),
        None,
    )
    .unwrap();
    assert!(r2.overall["ex"] < 0.2, "{:?}", r2.overall);
    assert!(r2.overall["psjs"] < 0.3, "{:?}", r2.overall);
    // Bootstrap intervals: degenerate for a perfect run, around the mean otherwise.
    assert_eq!(r.ci95["ex"], [1.0, 1.0]);
    let [lo, hi] = r2.ci95["ex"];
    assert!(
        lo <= r2.overall["ex"] && r2.overall["ex"] <= hi && hi - lo < 0.1,
        "{lo} {hi}"
    );
    assert!(r2.overall["jaro_winkler"] < 1.0 && r2.overall["jaro_winkler"] > 0.3);
    assert_eq!(r2.overall["valid_syntax"], 1.0);

    // Missing predictions count as failures, not as skipped examples.
    let mut half = gold.clone();
    let drop: Vec<String> = ex.iter().step_by(2).map(|e| e.id.clone()).collect();
    for id in &drop {
        half.remove(id);
    }
    let (r3, _) = evaluate(&grape::eval::Graphs::single(&g), &ex, &half, &opts(), None).unwrap();
    assert_eq!(r3.missing_predictions, drop.len());
    assert!((r3.overall["ex"] - 0.5).abs() < 1e-9, "{:?}", r3.overall);
}

#[test]
fn an_interrupted_run_resumes_to_the_same_report() {
    let Some((g, ex)) = setup() else { return };
    let dir = std::env::temp_dir().join(format!("grape-eval-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Predictions written as a JSON Lines file, read back through the public reader.
    let pred_path = dir.join("predictions.jsonl");
    std::fs::create_dir_all(&dir).unwrap();
    let mut lines = String::new();
    for (i, e) in ex.iter().enumerate() {
        let q = if i % 3 == 0 {
            &ex[(i + 7) % ex.len()].gold
        } else {
            &e.gold
        };
        lines.push_str(&serde_json::json!({"id": e.id, "cypher": q}).to_string());
        lines.push('\n');
    }
    std::fs::write(&pred_path, lines).unwrap();
    let preds = read_predictions(&pred_path).unwrap();
    assert_eq!(preds.len(), ex.len());

    let full_dir = dir.join("full");
    let (full, _) = evaluate(
        &grape::eval::Graphs::single(&g),
        &ex,
        &preds,
        &opts(),
        Some(&full_dir),
    )
    .unwrap();
    assert!(
        full.overall["ex"] > 0.6 && full.overall["ex"] < 0.75,
        "{:?}",
        full.overall
    );

    // Simulate a crash: keep the first 100 records and half of the 101st line.
    let log = std::fs::read_to_string(full_dir.join("examples.jsonl")).unwrap();
    let kept: Vec<&str> = log.lines().collect();
    assert_eq!(kept.len(), ex.len());
    let mut partial = kept[..100].join("\n");
    partial.push('\n');
    partial.push_str(&kept[100][..kept[100].len() / 2]);
    let resume_dir = dir.join("resume");
    std::fs::create_dir_all(&resume_dir).unwrap();
    std::fs::write(resume_dir.join("examples.jsonl"), partial).unwrap();
    let (resumed, recs) = evaluate(
        &grape::eval::Graphs::single(&g),
        &ex,
        &preds,
        &opts(),
        Some(&resume_dir),
    )
    .unwrap();
    assert_eq!(recs.len(), ex.len());
    assert!(
        resumed == full,
        "resumed {:?}\nfull {:?}",
        resumed.overall,
        full.overall
    );
    let a = std::fs::read_to_string(full_dir.join("report.json")).unwrap();
    let b = std::fs::read_to_string(resume_dir.join("report.json")).unwrap();
    assert_eq!(a, b);
    // Three shards, run separately and merged, give the same report and log as one run.
    let shard_dirs: Vec<std::path::PathBuf> =
        (0..3).map(|i| dir.join(format!("shard{i}"))).collect();
    let mut seen = 0;
    for (i, d) in shard_dirs.iter().enumerate() {
        let part = grape::eval::shard(&ex, i, 3);
        seen += part.len();
        evaluate(
            &grape::eval::Graphs::single(&g),
            &part,
            &preds,
            &opts(),
            Some(d),
        )
        .unwrap();
    }
    assert_eq!(seen, ex.len());
    let refs: Vec<&std::path::Path> = shard_dirs.iter().map(|d| d.as_path()).collect();
    let merged = grape::eval::merge(&refs, &dir.join("merged")).unwrap();
    assert!(merged == full);
    assert_eq!(
        a,
        std::fs::read_to_string(dir.join("merged/report.json")).unwrap()
    );
    // Records agree but for their wall-clock timings.
    let untimed = |l: &str| {
        let r: grape::eval::ExampleRecord = serde_json::from_str(l).unwrap();
        assert!(r.timings_ms.is_some());
        serde_json::to_string(&r.without_timings()).unwrap()
    };
    let mut one: Vec<String> = log.lines().map(untimed).collect();
    let mut many: Vec<String> = std::fs::read_to_string(dir.join("merged/examples.jsonl"))
        .unwrap()
        .lines()
        .map(untimed)
        .collect();
    one.sort();
    many.sort();
    assert_eq!(one, many);
    // A shard given twice is fine; an unfinished shard is refused.
    assert!(grape::eval::merge(&[refs[0], refs[0]], &dir.join("m2")).is_ok());
    std::fs::remove_file(shard_dirs[1].join("report.json")).unwrap();
    let e = grape::eval::merge(&refs, &dir.join("m3")).unwrap_err();
    assert!(e.contains("shard1"), "{e}");
    // The resumed log holds each example once.
    let relog = std::fs::read_to_string(resume_dir.join("examples.jsonl")).unwrap();
    assert_eq!(relog.lines().count(), ex.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn zograscope_splits_are_labelled() {
    let Some(shared) = common::shared_dir("zograscope splits") else {
        return;
    };
    let dir = shared.join("data/zograscope");
    let test = read_dataset(&dir.join("zograscope_test_v1.csv"), None).unwrap();
    let count = |ex: &[grape::dataset::Example], s: &str| {
        ex.iter()
            .filter(|e| e.categories.get("split").map(String::as_str) == Some(s))
            .count()
    };
    let listed = |f: &str| {
        std::fs::read_to_string(dir.join(f))
            .unwrap()
            .split_whitespace()
            .count()
    };
    assert_eq!(count(&test, "iid"), listed("ids_iid_test.txt"));
    assert_eq!(
        count(&test, "compositional"),
        listed("ids_compositional_test.txt")
    );
    let length = read_dataset(&dir.join("zograscope_length_test_v1.csv"), None).unwrap();
    assert!(!length.is_empty());
    assert_eq!(count(&length, "length"), length.len());
}

#[test]
fn shard_arguments_are_checked() {
    use grape::eval::parse_shard;
    assert_eq!(parse_shard("0/4"), Ok((0, 4)));
    assert_eq!(parse_shard("3/4"), Ok((3, 4)));
    for bad in ["4/4", "1/0", "x/2", "1", "-1/2"] {
        assert!(parse_shard(bad).is_err(), "{bad}");
    }
}

#[test]
fn data_file_errors_name_the_file_and_record() {
    let dir = std::env::temp_dir().join(format!("grape-eval-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("preds.jsonl");
    std::fs::write(&p, "{\"id\": 1, \"cypher\": \"RETURN 1\"}\n{\"id\": 2 \n").unwrap();
    let e = read_predictions(&p).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(e.to_string().contains("preds.jsonl"), "{e}");
    std::fs::write(
        &p,
        "{\"id\": 1, \"cypher\": \"RETURN 1\"}\n{\"id\": 1, \"cypher\": \"RETURN 2\"}\n",
    )
    .unwrap();
    let e = read_predictions(&p).unwrap_err();
    assert!(e.to_string().contains("duplicate"), "{e}");
    let d = dir.join("data.jsonl");
    std::fs::write(&d, "{\"id\": \"a\", \"question\": \"q\"}\n").unwrap();
    let e = read_dataset(&d, Some(DatasetFormat::Jsonl)).unwrap_err();
    assert_eq!(e.line, Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}
