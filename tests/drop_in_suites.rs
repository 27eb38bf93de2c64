//! Other projects' own test suites, as published, unchanged but for where the database is:
//! run against the Neo4j oracle and against `grape serve bolt`, every test that passes on
//! Neo4j 5.26 must pass on grape.
//!
//! neomodel 7.0.0 (its PyPI sdist's `test/` folder, which `.ci/run` unpacks into
//! `target/suites/neomodel-7.0.0`, with neomodel and its test dependencies in
//! `target/pyenv-neomodel`). Its tests connect to `bolt://neo4j:foobarbaz@localhost:7687` and
//! one changes that password and back through the literal URL, so each side serves on
//! localhost:7687 with that password, one after the other, from an empty database. The sdist
//! lacks `test/data`: the three tests that read it are deselected.
//!
//! Neo4j's outcomes are recorded in `tests/data/neomodel_neo4j.txt` (one `PASSED|FAILED|ERROR
//! id` line per test) so that a clone without Java checks grape against them; where the oracle
//! can be started (`GRAPE_NEO4J_DIR` set, as `.ci/run` does), the suite runs on a fresh Neo4j
//! 5.26 too and must give the recorded outcomes (`GRAPE_DIFFTEST_BLESS=1` records them anew).
#![cfg(feature = "bolt")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RECORDED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/neomodel_neo4j.txt");
const DESELECTED: &[&str] = &[
    "test/test_scripts.py::test_neomodel_inspect_database",
    "test/test_scripts.py::test_neomodel_generate_diagram",
];
const PASSWORD: &str = "foobarbaz";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// neomodel's Python and its unpacked sdist, or `None` (skipping loudly unless
/// `GRAPE_REQUIRE_NEOMODEL=1`).
fn neomodel() -> Option<(PathBuf, PathBuf)> {
    let python = std::env::var_os("GRAPE_NEOMODEL_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/pyenv-neomodel/bin/python"));
    let dir = std::env::var_os("GRAPE_NEOMODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/suites/neomodel-7.0.0"));
    let ok = dir.join("test/conftest.py").is_file()
        && Command::new(&python)
            .args(["-c", "import neomodel, pytest_asyncio"])
            .output()
            .is_ok_and(|o| o.status.success());
    if ok {
        return Some((python, dir));
    }
    if std::env::var("GRAPE_REQUIRE_NEOMODEL").as_deref() == Ok("1") {
        panic!(
            "GRAPE_REQUIRE_NEOMODEL=1 but neomodel's suite is not installed ({} with {})",
            dir.display(),
            python.display()
        );
    }
    eprintln!("SKIPPED neomodel's suite: not installed (see .ci/run)");
    None
}

/// Each test's outcome (`PASSED`, `FAILED`, `ERROR`, …) by id, from pytest's `-rA` summary.
fn outcomes(summary: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in summary.lines() {
        for kind in ["PASSED", "FAILED", "ERROR", "XFAIL", "XPASS"] {
            if let Some(rest) = line.strip_prefix(kind).and_then(|r| r.strip_prefix(' ')) {
                let id = rest.split(" - ").next().unwrap_or(rest).trim();
                if id.starts_with("test/") {
                    out.insert(id.to_string(), kind.to_string());
                }
            }
        }
    }
    out
}

/// Runs the suite against the server at localhost:7687; its output goes to `log`.
fn run_suite(python: &Path, dir: &Path, log: &Path) -> BTreeMap<String, String> {
    let mut args: Vec<String> = [
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=--resetdb",
        "-rA",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for d in DESELECTED {
        args.push("--deselect".into());
        args.push(d.to_string());
    }
    let bin = python.parent().map(Path::to_path_buf).unwrap_or_default();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let file = std::fs::File::create(log).unwrap();
    let mut child = Command::new(python)
        .args(&args)
        .current_dir(dir)
        .env("PATH", path)
        .env(
            "NEO4J_BOLT_URL",
            format!("bolt://neo4j:{PASSWORD}@localhost:7687"),
        )
        .env_remove("NEO4J_URL")
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .stdin(Stdio::null())
        .spawn()
        .expect("pytest starts");
    let deadline = Instant::now() + Duration::from_secs(20 * 60);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("neomodel's suite ran over 20 minutes: {}", log.display());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let got = outcomes(&text);
    assert!(
        got.len() > 500,
        "neomodel's suite reported {} outcomes: see {}",
        got.len(),
        log.display()
    );
    got
}

/// Waits until something answers on localhost:7687.
fn wait_for_port(what: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect("127.0.0.1:7687").is_err() {
        assert!(Instant::now() < deadline, "{what} did not listen on 7687");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The suite on a fresh Neo4j 5.26 on localhost:7687 (with neomodel's password), where the
/// oracle can be started; `None` otherwise.
fn on_the_oracle(python: &Path, dir: &Path) -> Option<BTreeMap<String, String>> {
    std::env::var_os("GRAPE_NEO4J_DIR")?;
    let odir = root().join("target/neo4j-oracle-suites");
    let script = root().join("scripts/neo4j-oracle");
    let started = Command::new(&script)
        .arg("start")
        .arg(&odir)
        .args(["--port", "7687", "--fresh"])
        .status()
        .expect("scripts/neo4j-oracle runs");
    assert!(started.success(), "the suites' oracle did not start");
    let auth = std::fs::read_to_string(odir.join("auth")).unwrap();
    let (user, password) = auth.trim().split_once(':').unwrap();
    let set = Command::new(python)
        .args([
            "-c",
            "import sys, neo4j\n\
             d = neo4j.GraphDatabase.driver('bolt://127.0.0.1:7687', auth=(sys.argv[1], sys.argv[2]))\n\
             d.execute_query('ALTER CURRENT USER SET PASSWORD FROM $a TO $b', a=sys.argv[2], b=sys.argv[3], database_='system')\n\
             d.close()",
            user,
            password,
            PASSWORD,
        ])
        .status()
        .unwrap();
    let got = set
        .success()
        .then(|| run_suite(python, dir, &root().join("target/neomodel-neo4j.log")));
    let _ = Command::new(&script).arg("stop").arg(&odir).status();
    assert!(
        got.is_some(),
        "could not set neomodel's password on the oracle"
    );
    got
}

fn recorded() -> BTreeMap<String, String> {
    std::fs::read_to_string(RECORDED)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .map(|(k, id)| (id.to_string(), k.to_string()))
        .collect()
}

#[test]
fn neomodel_suite_passes_on_grape_wherever_it_passes_on_neo4j() {
    let Some((python, dir)) = neomodel() else {
        return;
    };
    let mut neo4j = recorded();
    if let Some(live) = on_the_oracle(&python, &dir) {
        if std::env::var("GRAPE_DIFFTEST_BLESS").as_deref() == Ok("1") {
            let mut text = String::from(
                "# neomodel 7.0.0's suite on Neo4j 5.26 (tests/drop_in_suites.rs): outcome and test id.\n",
            );
            for (id, k) in &live {
                text.push_str(&format!("{k} {id}\n"));
            }
            std::fs::write(RECORDED, text).unwrap();
            neo4j = live;
        } else {
            let changed: Vec<String> = live
                .iter()
                .filter(|(id, k)| neo4j.get(*id) != Some(*k))
                .map(|(id, k)| format!("{k} {id} (recorded: {:?})", neo4j.get(id)))
                .collect();
            assert!(
                changed.is_empty(),
                "Neo4j's outcomes differ from {RECORDED} (GRAPE_DIFFTEST_BLESS=1 records them):\n{}",
                changed.join("\n")
            );
        }
    }
    assert!(neo4j.len() > 500, "{RECORDED}: {} outcomes", neo4j.len());
    // grape's side: the CLI's Bolt server, as a user starts it.
    let mut server = Command::new(env!("CARGO_BIN_EXE_grape"))
        .args([
            "serve",
            "bolt",
            "--graph",
            "none",
            "--bind",
            "127.0.0.1",
            "--port",
            "7687",
            "--auth",
            &format!("neo4j:{PASSWORD}"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("grape serve bolt starts");
    wait_for_port("grape serve bolt");
    let log = root().join("target/neomodel-grape.log");
    let grape = std::panic::catch_unwind(|| run_suite(&python, &dir, &log));
    let _ = server.kill();
    let _ = server.wait();
    let grape = grape.unwrap_or_else(|e| std::panic::resume_unwind(e));
    let passed = |m: &BTreeMap<String, String>| m.values().filter(|k| *k == "PASSED").count();
    let regressions: Vec<&String> = neo4j
        .iter()
        .filter(|(id, k)| *k == "PASSED" && grape.get(*id).map(String::as_str) != Some("PASSED"))
        .map(|(id, _)| id)
        .collect();
    let both: Vec<&String> = neo4j
        .iter()
        .filter(|(id, k)| *k != "PASSED" && grape.get(*id).map(String::as_str) != Some("PASSED"))
        .map(|(id, _)| id)
        .collect();
    eprintln!(
        "neomodel 7.0.0: {} tests; {} pass on Neo4j 5.26, {} on grape; failing on both: {both:?}",
        neo4j.len(),
        passed(&neo4j),
        passed(&grape)
    );
    assert!(
        regressions.is_empty(),
        "{} tests pass on Neo4j and not on grape (log: {}):\n{regressions:#?}",
        regressions.len(),
        log.display()
    );
}
