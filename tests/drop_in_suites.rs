//! Other projects' own test suites, as published, unchanged but for where the database is:
//! run against the Neo4j oracle and against `grape serve bolt`, every test that passes on
//! Neo4j 5.26 must pass on grape.
//!
//! - neomodel 7.0.0 (its PyPI sdist's `test/` folder, which `.ci/run` unpacks into
//!   `target/suites/neomodel-7.0.0`, with neomodel and its test dependencies in
//!   `target/pyenv-neomodel`). Its tests connect to `bolt://neo4j:foobarbaz@localhost:7687`
//!   and one changes that password and back through the literal URL. The sdist lacks
//!   `test/data`: the tests that read it are deselected.
//! - langchain-neo4j 0.11.0 (its sdist's `tests/integration_tests`, unpacked into
//!   `target/suites/langchain_neo4j-0.11.0`, the package and its test dependencies in
//!   `target/pyenv-langchain`); it reads `NEO4J_URI`, `NEO4J_USERNAME` and `NEO4J_PASSWORD`.
//!
//! Each side serves on localhost:7687 with neomodel's password, one suite and one side after
//! the other, from an empty database. Neo4j's outcomes are recorded in
//! `tests/data/<suite>_neo4j.txt` (one `PASSED|FAILED|ERROR id` line per test) so that a clone
//! without Java checks grape against them; where the oracle can be started (`GRAPE_NEO4J_DIR`
//! set, as `.ci/run` does), each suite runs on a fresh Neo4j 5.26 too and must give the
//! recorded outcomes (`GRAPE_DIFFTEST_BLESS=1` records them anew).
#![cfg(feature = "bolt")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const PASSWORD: &str = "foobarbaz";

/// The suites share localhost:7687: one runs at a time.
static PORT_7687: Mutex<()> = Mutex::new(());

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A published test suite and how to run it.
struct Suite {
    name: &'static str,
    /// The Python with the package and its test dependencies.
    python: PathBuf,
    /// The unpacked sdist (pytest runs there).
    dir: PathBuf,
    /// A file that must exist in `dir`, and a module the Python must import.
    marker: &'static str,
    imports: &'static str,
    /// What `.ci/run` sets to require the suite.
    require: &'static str,
    /// pytest's arguments after `-m pytest`.
    args: Vec<String>,
    /// Test ids start with this.
    id_prefix: &'static str,
    /// Fewer outcomes than this means the run broke.
    min_outcomes: usize,
    recorded: PathBuf,
}

impl Suite {
    fn neomodel() -> Suite {
        let mut args = strings(&[
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=--resetdb",
            "-rA",
        ]);
        for d in [
            "test/test_scripts.py::test_neomodel_inspect_database",
            "test/test_scripts.py::test_neomodel_generate_diagram",
        ] {
            args.push("--deselect".into());
            args.push(d.into());
        }
        Suite {
            name: "neomodel",
            python: env_path("GRAPE_NEOMODEL_PYTHON", "target/pyenv-neomodel/bin/python"),
            dir: env_path("GRAPE_NEOMODEL_DIR", "target/suites/neomodel-7.0.0"),
            marker: "test/conftest.py",
            imports: "import neomodel, pytest_asyncio",
            require: "GRAPE_REQUIRE_NEOMODEL",
            args,
            id_prefix: "test/",
            min_outcomes: 500,
            recorded: root().join("tests/data/neomodel_neo4j.txt"),
        }
    }

    fn langchain() -> Suite {
        Suite {
            name: "langchain_neo4j",
            python: env_path(
                "GRAPE_LANGCHAIN_PYTHON",
                "target/pyenv-langchain/bin/python",
            ),
            dir: env_path(
                "GRAPE_LANGCHAIN_DIR",
                "target/suites/langchain_neo4j-0.11.0",
            ),
            marker: "tests/integration_tests/conftest.py",
            imports: "import langchain_neo4j, pytest_asyncio, syrupy",
            require: "GRAPE_REQUIRE_LANGCHAIN_SUITE",
            args: strings(&[
                "-q",
                "-p",
                "no:cacheprovider",
                "-o",
                "addopts=",
                "-rA",
                "tests/integration_tests",
            ]),
            id_prefix: "tests/",
            min_outcomes: 100,
            recorded: root().join("tests/data/langchain_neo4j_neo4j.txt"),
        }
    }

    /// Whether the suite is installed (skipping loudly, or failing under its `GRAPE_REQUIRE_*`).
    fn installed(&self) -> bool {
        let ok = self.dir.join(self.marker).is_file()
            && Command::new(&self.python)
                .args(["-c", self.imports])
                .output()
                .is_ok_and(|o| o.status.success());
        if ok {
            return true;
        }
        if std::env::var(self.require).as_deref() == Ok("1") {
            panic!(
                "{}=1 but {}'s suite is not installed ({} with {})",
                self.require,
                self.name,
                self.dir.display(),
                self.python.display()
            );
        }
        eprintln!("SKIPPED {}'s suite: not installed (see .ci/run)", self.name);
        false
    }

    /// Each test's outcome (`PASSED`, `FAILED`, `ERROR`, …) by id, from pytest's `-rA` summary.
    fn outcomes(&self, summary: &str) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for line in summary.lines() {
            for kind in ["PASSED", "FAILED", "ERROR", "XFAIL", "XPASS"] {
                if let Some(rest) = line.strip_prefix(kind).and_then(|r| r.strip_prefix(' ')) {
                    let id = rest.split(" - ").next().unwrap_or(rest).trim();
                    if id.starts_with(self.id_prefix) {
                        out.insert(id.to_string(), kind.to_string());
                    }
                }
            }
        }
        out
    }

    /// Runs the suite against the server at localhost:7687 (user neo4j, neomodel's password);
    /// its output goes to `log`.
    fn run(&self, log: &Path) -> BTreeMap<String, String> {
        let mut args = strings(&["-m", "pytest"]);
        args.extend(self.args.iter().cloned());
        let bin = self
            .python
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let file = std::fs::File::create(log).unwrap();
        let mut child = Command::new(&self.python)
            .args(&args)
            .current_dir(&self.dir)
            .env("PATH", path)
            .env(
                "NEO4J_BOLT_URL",
                format!("bolt://neo4j:{PASSWORD}@localhost:7687"),
            )
            .env("NEO4J_URI", "bolt://localhost:7687")
            .env("NEO4J_USERNAME", "neo4j")
            .env("NEO4J_PASSWORD", PASSWORD)
            .env_remove("NEO4J_URL")
            .env_remove("NEO4J_DATABASE")
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
                panic!(
                    "{}'s suite ran over 20 minutes: {}",
                    self.name,
                    log.display()
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let got = self.outcomes(&text);
        assert!(
            got.len() >= self.min_outcomes,
            "{}'s suite reported {} outcomes: see {}",
            self.name,
            got.len(),
            log.display()
        );
        got
    }

    /// The suite on a fresh Neo4j 5.26 on localhost:7687 (its password set to neomodel's),
    /// where the oracle can be started; `None` otherwise.
    fn on_the_oracle(&self) -> Option<BTreeMap<String, String>> {
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
        let set = Command::new(&self.python)
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
        let log = root().join(format!("target/{}-neo4j.log", self.name));
        let got = set
            .success()
            .then(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.run(&log))));
        let _ = Command::new(&script).arg("stop").arg(&odir).status();
        match got {
            None => panic!("could not set the oracle's password for {}", self.name),
            Some(Ok(got)) => Some(got),
            Some(Err(e)) => std::panic::resume_unwind(e),
        }
    }

    fn recorded(&self) -> BTreeMap<String, String> {
        std::fs::read_to_string(&self.recorded)
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once(' '))
            .map(|(k, id)| (id.to_string(), k.to_string()))
            .collect()
    }

    /// Neo4j's outcomes: recorded, and checked against (or, blessing, recorded from) a live
    /// run where the oracle can be started.
    fn neo4j_outcomes(&self) -> BTreeMap<String, String> {
        let mut neo4j = self.recorded();
        if let Some(live) = self.on_the_oracle() {
            if std::env::var("GRAPE_DIFFTEST_BLESS").as_deref() == Ok("1") {
                let mut text = format!(
                    "# {}'s suite on Neo4j 5.26 (tests/drop_in_suites.rs): outcome and test id.\n",
                    self.name
                );
                for (id, k) in &live {
                    text.push_str(&format!("{k} {id}\n"));
                }
                std::fs::write(&self.recorded, text).unwrap();
                neo4j = live;
            } else {
                let changed: Vec<String> = live
                    .iter()
                    .filter(|(id, k)| neo4j.get(*id) != Some(*k))
                    .map(|(id, k)| format!("{k} {id} (recorded: {:?})", neo4j.get(id)))
                    .collect();
                assert!(
                    changed.is_empty(),
                    "Neo4j's outcomes differ from {} (GRAPE_DIFFTEST_BLESS=1 records them):\n{}",
                    self.recorded.display(),
                    changed.join("\n")
                );
            }
        }
        assert!(
            neo4j.len() >= self.min_outcomes,
            "{}: {} outcomes",
            self.recorded.display(),
            neo4j.len()
        );
        neo4j
    }

    /// The suite against `grape serve bolt` (the CLI, as a user starts it).
    fn on_grape(&self) -> (BTreeMap<String, String>, PathBuf) {
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
        let log = root().join(format!("target/{}-grape.log", self.name));
        let grape = std::panic::catch_unwind(|| self.run(&log));
        let _ = server.kill();
        let _ = server.wait();
        (grape.unwrap_or_else(|e| std::panic::resume_unwind(e)), log)
    }

    /// Every test that passes on Neo4j passes on grape; the tests failing on both are shown.
    fn check(&self) {
        if !self.installed() {
            return;
        }
        let _port = PORT_7687.lock().unwrap_or_else(|e| e.into_inner());
        let neo4j = self.neo4j_outcomes();
        let (grape, log) = self.on_grape();
        let passed = |m: &BTreeMap<String, String>| m.values().filter(|k| *k == "PASSED").count();
        let regressions: Vec<&String> = neo4j
            .iter()
            .filter(|(id, k)| {
                *k == "PASSED" && grape.get(*id).map(String::as_str) != Some("PASSED")
            })
            .map(|(id, _)| id)
            .collect();
        let both: Vec<&String> = neo4j
            .iter()
            .filter(|(id, k)| {
                *k != "PASSED" && grape.get(*id).map(String::as_str) != Some("PASSED")
            })
            .map(|(id, _)| id)
            .collect();
        eprintln!(
            "{}: {} tests; {} pass on Neo4j 5.26, {} on grape; failing on both: {both:?}",
            self.name,
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
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// `var` if set, else `default` under the repository.
fn env_path(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(default))
}

/// Waits until something answers on localhost:7687.
fn wait_for_port(what: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect("127.0.0.1:7687").is_err() {
        assert!(Instant::now() < deadline, "{what} did not listen on 7687");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn neomodel_suite_passes_on_grape_wherever_it_passes_on_neo4j() {
    Suite::neomodel().check();
}

/// Failing on both sides (Neo4j's reason): `test_database_parameter` creates a database,
/// which only Enterprise Edition can.
#[test]
fn langchain_neo4j_suite_passes_on_grape_wherever_it_passes_on_neo4j() {
    Suite::langchain().check();
}
