//! Helpers shared by the integration tests: where `../shared` is, and its corpora.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The shared data folder: `$GRAPE_SHARED`, else `../shared` next to the crate. `None` (with a
/// loud notice on stderr) when absent, so a fresh clone without the data still passes.
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os("GRAPE_SHARED") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    };
    if dir.join("README.md").exists() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED {test}: shared data not found at {} (set GRAPE_SHARED)",
            dir.display()
        );
        None
    }
}

/// `(id, query, accept)` for each TCK query of `tck/TCK_SYNTAX.jsonl`.
pub fn tck_syntax(shared: &std::path::Path) -> Vec<(String, String, bool)> {
    let text =
        std::fs::read_to_string(shared.join("tck/TCK_SYNTAX.jsonl")).expect("read TCK_SYNTAX");
    let mut out = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json line");
        if v["record"] == "query" {
            out.push((
                v["id"].as_str().unwrap().to_string(),
                v["source"].as_str().unwrap().to_string(),
                v["expectation"] == "accept",
            ));
        }
    }
    out
}

/// `(file:id, mr)` for every ZOGRASCOPE gold query (train + test).
pub fn zograscope(shared: &std::path::Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for f in ["zograscope_train_v1.csv", "zograscope_test_v1.csv"] {
        let mut r = csv::Reader::from_path(shared.join("data/zograscope").join(f)).expect("csv");
        let headers = r.headers().unwrap().clone();
        let id = headers.iter().position(|h| h == "id").unwrap();
        let mr = headers.iter().position(|h| h == "mr").unwrap();
        for rec in r.records() {
            let rec = rec.expect("record");
            out.push((format!("{f}:{}", &rec[id]), rec[mr].to_string()));
        }
    }
    out
}

/// `(index, cypher)` for the GRAPE generated dataset.
pub fn grape(shared: &std::path::Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(shared.join("data/grape/generated_dataset.json")).unwrap();
    let v: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    v.iter()
        .enumerate()
        .map(|(i, r)| {
            (
                format!("grape:{i}"),
                r["cypher"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A Python that can `import_check` (e.g. `import neo4j`): `$GRAPE_PYTHON`, else
/// `target/pyenv/bin/python` (what `.ci/run` creates), else `python3`. `None`, with a SKIPPED
/// notice, when there is none — unless the variable `require` is `1` (as `.ci/run` sets once it
/// has installed the packages), then the test fails.
pub fn python_with(import_check: &str, require: &str, what: &str) -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("GRAPE_PYTHON").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/pyenv/bin/python")),
        // llama-index pins the 5.x driver: it has a virtual environment of its own.
        std::env::var_os("GRAPE_LLAMA_PYTHON").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/pyenv-llama/bin/python")),
        Some(PathBuf::from("python3")),
    ];
    for c in candidates.into_iter().flatten() {
        let ok = std::process::Command::new(&c)
            .args(["-c", import_check])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(c);
        }
    }
    if std::env::var(require).as_deref() == Ok("1") {
        panic!("{require}=1 but no Python passes `{import_check}`");
    }
    eprintln!("SKIPPED {what}: no Python passes `{import_check}` (set GRAPE_PYTHON)");
    None
}

/// A graph made by a Cypher setup script.
pub fn graph(script: &str) -> grape::graph::Graph {
    grape::graph::Graph::from_cypher_script(script).expect("setup script runs")
}

/// A table's rows as display strings (`1 | 'a'`), for compact assertions.
pub fn display_rows(t: &grape::engine::Table) -> Vec<String> {
    t.rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect()
}

/// The rows of `q` run on `g`, as display strings (panics with the query on error).
pub fn rows(g: &mut grape::graph::Graph, q: &str) -> Vec<String> {
    let t = grape::engine::run(g, q, &Default::default()).unwrap_or_else(|e| panic!("{q}: {e}"));
    display_rows(&t)
}

/// Runs each `(function, query, want)` on a fresh graph made by `setup` and returns a line for
/// each whose first column of the first row (as display text) is not `want`.
pub fn first_column_mismatches(setup: &str, examples: &[(&str, &str, &str)]) -> Vec<String> {
    let mut failures = Vec::new();
    for (function, query, want) in examples {
        let mut g = graph(setup);
        let got = match grape::engine::run(&mut g, query, &grape::engine::Params::new()) {
            Ok(t) => display_rows(&t)
                .first()
                .map(|row| row.split(" | ").next().unwrap_or_default().to_string())
                .unwrap_or_default(),
            Err(e) => format!("error: {e}"),
        };
        if got != *want {
            failures.push(format!("{function}: {query}\n  want {want}\n  got  {got}"));
        }
    }
    failures
}

/// Headless Chromium: `$GRAPE_CHROMIUM`, else `chromium`, `chromium-browser` or
/// `google-chrome` on the PATH.
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GRAPE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Loads a page in headless Chromium: (the DOM after the scripts ran, the console lines).
pub fn load_in_chromium(browser: &Path, page: &Path, profile: &Path) -> (String, Vec<String>) {
    let url = format!("file://{}", page.display());
    let o = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("run chromium");
    assert!(
        o.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let console = String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    (String::from_utf8_lossy(&o.stdout).into_owned(), console)
}

/// Reads a spawned child's piped stdout and stderr to the end on two threads (so that neither
/// pipe fills while the other is read); join the handles for the texts.
pub fn drain_output(
    child: &mut std::process::Child,
) -> (
    std::thread::JoinHandle<String>,
    std::thread::JoinHandle<String>,
) {
    fn reader(mut r: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    }
    let out = child.stdout.take().expect("stdout piped");
    let err = child.stderr.take().expect("stderr piped");
    (reader(out), reader(err))
}
