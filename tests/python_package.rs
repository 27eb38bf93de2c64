//! The Python package (`python/`): builds it from this checkout with maturin into a virtual
//! environment and runs its pytest suite (`python/tests/`), which checks every API, errors with
//! positions, the GIL released while queries and evaluations run, the pytest plugin's fixtures
//! under the official Neo4j driver, and `grape.evaluate` against this build's `grape eval`
//! byte for byte.
//!
//! Needs a virtual environment's Python with maturin, pytest, pandas and the `neo4j` driver:
//! `$GRAPE_PYTHON`, else `target/pyenv/bin/python` (what `.ci/run` creates). Without one the
//! test prints SKIPPED and passes, unless `GRAPE_REQUIRE_PYTHON_PACKAGE=1` (as `.ci/run` sets).
//! The native module is built in `target/python-build` (its own target folder, so the build
//! never waits on the lock of the `cargo test` that runs this), incrementally.

#![cfg(feature = "cli")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn python_package_pytest_suite() {
    let Some(py) = common::python_with(
        "import sys, maturin, pytest, pandas, neo4j; assert sys.prefix != sys.base_prefix",
        "GRAPE_REQUIRE_PYTHON_PACKAGE",
        "Python package tests",
    ) else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = Command::new(&py)
        .args(["-c", "import sys; print(sys.prefix)"])
        .output()
        .expect("run python");
    let venv = PathBuf::from(String::from_utf8_lossy(&venv.stdout).trim());
    let path = format!(
        "{}:{}",
        venv.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let build = Command::new(&py)
        .args(["-m", "maturin", "develop", "--quiet", "-m"])
        .arg(root.join("python/Cargo.toml"))
        .env("VIRTUAL_ENV", &venv)
        .env("PATH", &path)
        .env("CARGO_TARGET_DIR", root.join("target/python-build"))
        .env("PYO3_PYTHON", &py)
        .output()
        .expect("run maturin");
    assert!(
        build.status.success(),
        "maturin develop failed:\n{}\n{}",
        String::from_utf8_lossy(&build.stdout),
        String::from_utf8_lossy(&build.stderr)
    );
    let run = Command::new(&py)
        .args(["-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"])
        .arg(root.join("python/tests"))
        .current_dir(root)
        .env("GRAPE_BIN", env!("CARGO_BIN_EXE_grape"))
        .env("GRAPE_REQUIRE_PYTHON_PACKAGE", "1")
        .output()
        .expect("run pytest");
    let out = String::from_utf8_lossy(&run.stdout);
    println!("{out}");
    assert!(
        run.status.success(),
        "pytest failed:\n{out}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        !out.contains("SKIPPED"),
        "no Python test may skip here:\n{out}"
    );
}
