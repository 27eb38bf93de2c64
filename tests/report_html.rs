//! `report.html`: self-contained, safe against the text it embeds, and loads in headless Chromium
//! without console messages.
//!
//! The browser check runs when Chromium is found (`$GRAPE_CHROMIUM`, else `chromium`,
//! `chromium-browser` or `google-chrome` on the PATH) and is skipped loudly otherwise — unless
//! `GRAPE_REQUIRE_CHROMIUM=1` (as `.ci/run` sets when it could install Chromium), when a missing
//! browser fails the test.

mod common;

use common::{chromium, load_in_chromium as load};
use grape::dataset::{read_dataset, read_predictions};
use grape::eval::{evaluate, report_html, EvalOptions, Graphs};
use std::path::{Path, PathBuf};

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/demo")
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grape-html-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn demo_graph() -> grape::graph::Graph {
    grape::engine::load_graph(
        &demo().join("graph.json").to_string_lossy(),
        grape::graph::import::ImporterTypes::Strings,
    )
    .unwrap()
}

#[test]
fn embedded_text_cannot_escape_the_data_element() {
    let graph = demo_graph();
    let ex = vec![grape::dataset::Example {
        id: "x</script><script>alert(1)</script>".into(),
        question: "<!-- & </SCRIPT>".into(),
        gold: "RETURN '</script><b>' AS s".into(),
        ..Default::default()
    }];
    let preds = [(
        ex[0].id.clone(),
        grape::dataset::Prediction {
            id: ex[0].id.clone(),
            candidates: vec!["RETURN '<img src=x onerror=alert(1)>' AS s".into()],
        },
    )]
    .into_iter()
    .collect();
    let (report, records) = evaluate(
        &Graphs::single(&graph),
        &ex,
        &preds,
        &EvalOptions::default(),
        None,
    )
    .unwrap();
    let html = report_html(&report, &records);
    // One data element, one script element, nothing else that runs.
    assert_eq!(html.matches("<script").count(), 2, "{html}");
    assert_eq!(html.matches("</script>").count(), 2);
    assert!(!html.contains("<img"));
    assert!(!html.contains("<!-- &"));
    // No network: nothing is fetched from elsewhere.
    for needle in [
        "<link",
        "<script src",
        "@import",
        "url(",
        "<iframe",
        "fetch(",
    ] {
        assert!(!html.contains(needle), "{needle}");
    }
}

#[test]
fn report_html_loads_in_headless_chromium() {
    let Some(browser) = chromium() else {
        if std::env::var("GRAPE_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("GRAPE_REQUIRE_CHROMIUM=1 but no Chromium found (set GRAPE_CHROMIUM)");
        }
        eprintln!("SKIPPED report.html browser check: no chromium on PATH (set GRAPE_CHROMIUM)");
        return;
    };
    let d = demo();
    let graph = demo_graph();
    let dir = temp("chromium");
    // The single-turn demo with three candidates each, and the multi-turn demo.
    let runs = [
        ("questions.jsonl", "predictions.jsonl", 3, 52),
        ("sessions.json", "session_predictions.jsonl", 1, 17),
    ];
    for (i, (data, preds, k, n)) in runs.into_iter().enumerate() {
        let ex = read_dataset(&d.join(data), None).unwrap();
        let preds = read_predictions(&d.join(preds)).unwrap();
        let out = dir.join(format!("run{i}"));
        let opts = EvalOptions {
            k,
            ..Default::default()
        };
        evaluate(&Graphs::single(&graph), &ex, &preds, &opts, Some(&out)).unwrap();
        let (dom, console) = load(&browser, &out.join("report.html"), &dir.join("profile"));
        assert!(console.is_empty(), "console output: {console:#?}");
        assert!(
            dom.contains("data-ready=\"1\""),
            "the script did not finish"
        );
        assert_eq!(dom.matches("<tr class=\"example\"").count(), n);
        // One chart per category field, one bar per value.
        assert!(dom.contains("by hop count (gold query)"));
        assert!(dom.matches("<rect").count() >= 5);
        if i == 1 {
            assert!(dom.contains("<h2>Sessions</h2>"));
            assert!(dom.contains("CER by chain mode"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
