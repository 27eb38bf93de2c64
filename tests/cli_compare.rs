//! `grape compare` (means, paired bootstrap intervals, McNemar and permutation p-values, flipped
//! examples, per category; terminal, JSON, Markdown, HTML) and the CI gates: `grape compare
//! --max-drop`, `grape eval --fail-under`, `grape eval --junit` (checked against Jenkins'
//! JUnit schema when `target/junit-xsd` holds it and Python has lxml; required with
//! `GRAPE_REQUIRE_JUNIT_XSD=1`, as `.ci/run` sets), and the comparison page in headless
//! Chromium (as `tests/report_html.rs`).
#![cfg(feature = "cli")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn grape(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(args)
        .output()
        .expect("run grape")
}

fn demo(f: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/demo")
        .join(f)
        .display()
        .to_string()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grape-compare-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `grape eval` of the demo questions with `preds` (k candidates) into `out`.
fn eval_demo(preds: &str, out: &Path, k: usize) {
    let o = grape(&[
        "eval",
        "--dataset",
        &demo("questions.jsonl"),
        "--predictions",
        preds,
        "--graph",
        &demo("graph.json"),
        "--k",
        &k.to_string(),
        "--out",
        &out.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Two runs of the demo: the gold queries as predictions (every metric 1) and the bundled
/// predictions.
fn runs(dir: &Path) -> (String, String) {
    let gold: Vec<String> = std::fs::read_to_string(demo("questions.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            serde_json::json!({"id": v["id"], "cypher": v["cypher"]}).to_string()
        })
        .collect();
    let perfect = dir.join("perfect.jsonl");
    std::fs::write(&perfect, gold.join("\n") + "\n").unwrap();
    let (a, b) = (dir.join("a"), dir.join("b"));
    eval_demo(&perfect.display().to_string(), &a, 3);
    eval_demo(&demo("predictions.jsonl"), &b, 3);
    (a.display().to_string(), b.display().to_string())
}

#[test]
fn compare_reports_differences_flips_and_gates_regressions() {
    let dir = temp("gate");
    let (a, b) = runs(&dir);
    let o = grape(&["compare", &a, &b, "--json", "--resamples", "2000"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let c: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let run = &c["runs"][0];
    assert_eq!(run["shared"], 52);
    let ex = run["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == "ex")
        .unwrap();
    assert_eq!(ex["baseline"], 1.0);
    assert_eq!(ex["test"], "mcnemar-exact");
    let [b_only, c_only] = [
        ex["discordant"][0].as_u64().unwrap(),
        ex["discordant"][1].as_u64().unwrap(),
    ];
    assert_eq!(c_only, 0);
    let lost = run["flipped"]["ex"]["lost"].as_array().unwrap();
    assert_eq!(lost.len() as u64, b_only);
    assert!((ex["diff"].as_f64().unwrap() + b_only as f64 / 52.0).abs() < 1e-12);
    // McNemar with c = 0: p = 2 / 2^b.
    let p = ex["p_value"].as_f64().unwrap();
    assert!((p - 2.0 / 2f64.powi(b_only as i32)).abs() < 1e-12, "{p}");
    let jw = run["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == "jaro_winkler")
        .unwrap();
    assert_eq!(jw["test"], "paired-permutation");
    let ci = &ex["ci95"];
    assert!(ci[0].as_f64().unwrap() <= ex["diff"].as_f64().unwrap());
    assert!(run["by"]["query_type"]["sorting"].is_array());

    // The table names the flipped examples.
    let o = grape(&["compare", &a, &b, "--resamples", "500"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("ex flipped:") && text.contains(lost[0]["id"].as_str().unwrap()),
        "{text}"
    );

    // A significant drop beyond the allowance fails the gate, naming the metric.
    let o = grape(&[
        "compare",
        &a,
        &b,
        "--max-drop",
        "ex=0.02",
        "--resamples",
        "500",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("FAIL: ex dropped by"), "{err}");
    // The other way round it is an improvement; a generous allowance passes too.
    assert_eq!(
        grape(&[
            "compare",
            &b,
            &a,
            "--max-drop",
            "ex=0.02",
            "--resamples",
            "500"
        ])
        .status
        .code(),
        Some(0)
    );
    assert_eq!(
        grape(&[
            "compare",
            &a,
            &b,
            "--max-drop",
            "ex=0.9",
            "--resamples",
            "500"
        ])
        .status
        .code(),
        Some(0)
    );
    // A drop beyond the allowance that is not significant passes, and says so.
    let o = grape(&[
        "compare",
        &a,
        &b,
        "--max-drop",
        "ex=0.02",
        "--alpha",
        "0",
        "--resamples",
        "500",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("note: ex dropped by") && err.contains("not significant"),
        "{err}"
    );
    // An unknown metric or a bad threshold is a usage error.
    assert_eq!(
        grape(&["compare", &a, &b, "--max-drop", "nope=0.1"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        grape(&["compare", &a, &b, "--max-drop", "ex"])
            .status
            .code(),
        Some(2)
    );
    // A damaged record names its file and line.
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"id\": 1}\n{}\n").unwrap();
    let o = grape(&["compare", &a, &bad.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.jsonl:1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn eval_fail_under_and_junit() {
    let dir = temp("junit");
    let junit = dir.join("report.xml");
    let args = |extra: &[&str]| {
        let mut v: Vec<String> = [
            "eval",
            "--dataset",
            &demo("questions.jsonl"),
            "--predictions",
            &demo("predictions.jsonl"),
            "--graph",
            &demo("graph.json"),
            "--k",
            "3",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |extra: &[&str]| {
        let a = args(extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        grape(&a)
    };
    let o = run(&[
        "--fail-under",
        "ex=0.99,kg_valid=0.5",
        "--junit",
        &junit.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("FAIL: ex = 0.4") && !err.contains("kg_valid"),
        "{err}"
    );
    assert_eq!(run(&["--fail-under", "ex=0.1"]).status.code(), Some(0));
    assert_eq!(run(&["--fail-under", "exx=0.1"]).status.code(), Some(2));

    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 52);
    let failures = xml.matches("<failure ").count();
    assert!(xml.contains(&format!("failures=\"{failures}\"")));
    assert!(failures > 10 && failures < 52);
    assert!(xml.contains("classname=\"grape.sorting\""));
    assert!(xml.contains("gold: MATCH"));

    let xsds: Vec<PathBuf> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("target/junit-xsd"))
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "xsd"))
                    .collect()
            })
            .unwrap_or_default();
    let py = common::python_with(
        "import lxml.etree",
        "GRAPE_REQUIRE_JUNIT_XSD",
        "JUnit schema check",
    );
    match py {
        Some(py) if !xsds.is_empty() => {
            let o = Command::new(py)
                .arg(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/eval_support/junit_check.py"
                ))
                .arg(&junit)
                .args(&xsds)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
        }
        _ => {
            if std::env::var("GRAPE_REQUIRE_JUNIT_XSD").as_deref() == Ok("1") {
                panic!("GRAPE_REQUIRE_JUNIT_XSD=1 but target/junit-xsd has no schema");
            }
            eprintln!("SKIPPED JUnit schema check: no target/junit-xsd/*.xsd or no lxml");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bundled predictions and a perturbed copy (each example's candidates in reverse order,
/// so the first prediction is the last candidate): two runs of the demo.
fn perturbed_runs(dir: &Path) -> (String, String) {
    let lines: Vec<String> = std::fs::read_to_string(demo("predictions.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(c) = v["candidates"].as_array_mut() {
                c.reverse();
            }
            v.to_string()
        })
        .collect();
    let perturbed = dir.join("perturbed.jsonl");
    std::fs::write(&perturbed, lines.join("\n") + "\n").unwrap();
    let (a, b) = (dir.join("bundled"), dir.join("perturbed"));
    eval_demo(&demo("predictions.jsonl"), &a, 1);
    eval_demo(&perturbed.display().to_string(), &b, 1);
    (a.display().to_string(), b.display().to_string())
}

#[test]
fn comparison_page_and_markdown() {
    let dir = temp("page");
    let (a, b) = perturbed_runs(&dir);
    let (md, html) = (dir.join("c.md"), dir.join("c.html"));
    let o = grape(&[
        "compare",
        &a,
        &b,
        "--resamples",
        "500",
        "--md",
        &md.display().to_string(),
        "--html",
        &html.display().to_string(),
    ]);
    assert!(o.status.success());
    let md = std::fs::read_to_string(md).unwrap();
    assert!(md.contains("| ex | 52 | 0.481 |"), "{md}");
    // The flipped examples are listed with both predictions, and the p-values shown.
    let lost = md.matches("| lost |").count();
    let gained = md.matches("| gained |").count();
    assert!(lost + gained > 0 && md.contains(&format!("### ex: {lost} lost, {gained} gained")));
    assert!(md.contains("mcnemar-exact") && md.contains("paired-permutation"));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(!page.contains("<script") && !page.contains("<link"));
    let charts = page.matches("<svg").count();
    let Some(browser) = common::chromium() else {
        if std::env::var("GRAPE_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("GRAPE_REQUIRE_CHROMIUM=1 but no Chromium found (set GRAPE_CHROMIUM)");
        }
        eprintln!("SKIPPED comparison page browser check: no chromium on PATH");
        return;
    };
    let (dom, console) = common::load_in_chromium(&browser, &html, &dir.join("profile"));
    assert!(console.is_empty(), "console output: {console:#?}");
    assert_eq!(dom.matches("<svg").count(), charts);
    assert!(charts >= 10 && dom.contains("<figcaption>ex</figcaption>"));
    assert_eq!(dom.matches("<td>lost</td>").count(), lost);
    assert!(dom.contains(", p "));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn leaderboard_ranks_runs() {
    let dir = temp("board");
    let (a, b) = runs(&dir);
    let html = dir.join("board.html");
    let o = grape(&[
        "report",
        "leaderboard",
        &b,
        &a,
        "--metrics",
        "ex,kg_valid",
        "--html",
        &html.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(
        lines[0],
        "| rank | run | examples | scored | ex | kg_valid |"
    );
    // The perfect run ranks first, with EX 1 and its interval.
    assert!(
        lines[2].starts_with(&format!("| 1 | `{a}` | 52 | 52 | 1.000 [1.000, 1.000] |")),
        "{md}"
    );
    assert!(lines[3].starts_with(&format!("| 2 | `{b}` |")));
    assert!(std::fs::read_to_string(&html)
        .unwrap()
        .contains("<th>kg_valid</th>"));
    // From records alone (no report.json) the same means.
    let records = format!("{a}/examples.jsonl");
    let o = grape(&["report", "leaderboard", &records, "--metrics", "ex"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("| 1.000 [1.000, 1.000] |"));
    let _ = std::fs::remove_dir_all(&dir);
}
