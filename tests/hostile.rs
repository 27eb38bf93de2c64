//! Hostile input on every surface: the library, `grape query`, `grape parse`, `grape eval`,
//! the Bolt server (grape's client and the official Python driver) and the MCP server (raw
//! JSON-RPC lines and the Python MCP SDK). Every case asserts that the process survives, says
//! what went wrong with Neo4j's status code, and answers the next request. Memory is bounded by
//! the configured budget, checked on the child's peak RSS (wait4); time by the configured
//! limits, checked on the error they raise — never by a wall clock in the test.
#![cfg(unix)]

mod common;
mod mcp_support;

use grape::engine::Detail;
use grape::engine::{run_with, ErrorKind, Options, Params};
use grape::graph::Graph;
use serde_json::{json, Value as Json};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn grape_bin() -> &'static str {
    env!("CARGO_BIN_EXE_grape")
}

/// A finished child: exit code (or the signal that ended it), output and peak RSS.
struct Finished {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: String,
    stderr: String,
    max_rss_mb: f64,
}

/// Runs a command to the end and measures its peak resident memory: through GNU time where it
/// is installed, else by `wait4`'s rusage. A spawned child's `ru_maxrss` starts at the spawning
/// process's own peak (Linux keeps the larger of the old address space's high-water mark at
/// `exec`), and this test process runs in-process queries up to their budgets beside the
/// spawns: measured so, a child could be charged the test's memory (a Python parent holding
/// 400 MB gave `/bin/true` a 413 MB peak). GNU time is small when it spawns the command and
/// reports the command's own peak.
fn run_measured(cmd: &mut Command) -> Finished {
    let time = std::path::Path::new("/usr/bin/time");
    if !time.exists() {
        return run_measured_by_wait4(cmd);
    }
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let report =
        std::env::temp_dir().join(format!("grape-hostile-rss-{}-{n}.txt", std::process::id()));
    let mut timed = Command::new(time);
    timed
        .args(["-f", "%M", "-o"])
        .arg(&report)
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => timed.env(k, v),
            None => timed.env_remove(k),
        };
    }
    if let Some(d) = cmd.get_current_dir() {
        timed.current_dir(d);
    }
    let mut f = run_measured_by_wait4(&mut timed);
    // The report's last line is the peak in KiB; a line before it says how the command ended
    // when it did not exit with 0 (`Command terminated by signal 11`).
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    let _ = std::fs::remove_file(&report);
    let kib: f64 = text
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("GNU time's report: {text:?}"));
    f.max_rss_mb = kib / 1024.0;
    if let Some(sig) = text
        .lines()
        .find_map(|l| l.strip_prefix("Command terminated by signal "))
        .and_then(|n| n.trim().parse().ok())
    {
        f.code = None;
        f.signal = Some(sig);
    }
    f
}

/// [`run_measured`] by `wait4`. The child is reaped by `wait4` (which also yields its rusage),
/// not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run_measured_by_wait4(cmd: &mut Command) -> Finished {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let (t_out, t_err) = common::drain_output(&mut child);
    let mut status = 0i32;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it for our own child.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    assert_eq!(r, pid, "wait4");
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    Finished {
        code,
        signal,
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
        max_rss_mb: ru.ru_maxrss as f64 / 1024.0,
    }
}

/// The memory budget the CLI runs get, and the peak RSS they may reach: the budget is an
/// estimate of what a query holds, so the process may hold somewhat more (operands of the
/// allocation that was refused, the allocator's slack, the binary itself).
const BUDGET: &str = "128M";
const RSS_BOUND_MB: f64 = 128.0 * 2.0 + 96.0;

/// `grape query` of one hostile query under the budget and a time limit: it must fail with a
/// limit (exit 1, a JSON error), never crash, and stay within the memory bound.
fn hostile_query(graph: &str, query: &str, extra: &[&str]) -> Json {
    let f = run_measured(
        Command::new(grape_bin())
            .args(["query", "--json", "--graph", graph])
            .args(["--max-memory", BUDGET, "--timeout-ms", "3000"])
            .args(extra)
            .arg(query),
    );
    assert_eq!(
        f.code,
        Some(1),
        "{query}: expected a query error (signal {:?})\nstdout: {}\nstderr: {}",
        f.signal,
        f.stdout,
        f.stderr
    );
    assert!(
        f.max_rss_mb < RSS_BOUND_MB,
        "{query}: peak RSS {:.0} MB over the bound {RSS_BOUND_MB} MB",
        f.max_rss_mb
    );
    let v: Json = serde_json::from_str(f.stdout.trim()).expect("JSON error");
    v["error"].clone()
}

fn dense_graph_script(dir: &Path) -> String {
    // A complete directed graph on 12 nodes: astronomically many paths.
    let p = dir.join("dense.cypher");
    std::fs::write(
        &p,
        "UNWIND range(1, 12) AS i CREATE (:K {i: i});\nMATCH (a:K), (b:K) WHERE a <> b CREATE (a)-[:E]->(b);\n",
    )
    .unwrap();
    p.display().to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grape-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const DEEP: &str = "RETURN size(reduce(l = [], x IN range(1, 12000) | [l])) AS n";
const DEEP_MAP: &str = "RETURN size(keys(reduce(m = {}, x IN range(1, 12000) | {m: m}))) AS n";
const STRING_DOUBLING: &str = "RETURN size(reduce(s = 'x', x IN range(1, 40) | s + s)) AS n";
const LIST_DOUBLING: &str = "RETURN size(reduce(l = [1], x IN range(1, 40) | l + l)) AS n";
const NESTED_COMPREHENSION: &str =
    "RETURN size([x IN range(1, 30000) | [y IN range(1, 30000) | y]]) AS n";
const QUADRATIC_QUANTIFIER: &str =
    "RETURN any(x IN range(1, 1000000) WHERE any(y IN range(1, 1000000) WHERE x * y < 0)) AS a";
const HUGE_RANGE: &str = "RETURN size(range(1, 4000000000)) AS n";
const REPLACE_BLOWUP: &str =
    "WITH reduce(s = 'x', i IN range(1, 20) | s + s) AS s RETURN size(replace(s, 'x', s)) AS n";
const UNWIND_ROWS: &str = "UNWIND range(1, 4000000) AS i WITH i, toString(i) + 'padding padding padding' AS s RETURN count(s) AS n";
const COLLECT_ALL: &str =
    "UNWIND range(1, 4000000) AS i RETURN size(collect(toString(i) + 'padding padding padding')) AS n";

#[test]
fn deep_values_are_refused_with_a_clear_error_in_the_library() {
    let mut g = Graph::new();
    for q in [DEEP, DEEP_MAP] {
        let e = run_with(&mut g, q, &Params::new(), &Options::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::LimitExceeded, "{q}: {e}");
        assert_eq!(e.detail, Some(Detail::ValueNesting), "{q}: {e}");
        assert!(e.message.contains("500 levels"), "{e}");
    }
    // Just under the bound works, and every walk over the value survives on a small stack.
    let t = run_with(
        &mut g,
        "RETURN reduce(l = [], x IN range(1, 499) | [l]) AS deep",
        &Params::new(),
        &Options::default(),
    )
    .unwrap();
    let deep = t.rows[0][0].clone();
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let copy = deep.clone();
            assert!(copy.equals(&deep) == Some(true));
            assert_eq!(copy.order(&deep), std::cmp::Ordering::Equal);
            let _ = format!("{copy}");
            let _ = grape::graph::import::value_to_json(&copy, &grape::engine::Table::default());
            let mut set = std::collections::HashSet::new();
            set.insert(grape::value::GroupKey(copy));
            drop(set);
            drop(deep);
        })
        .unwrap()
        .join()
        .expect("walks over a 499-deep value on a 1 MiB stack");
    // The graph and the engine are fine afterwards.
    let t = run_with(&mut g, "RETURN 1 AS x", &Params::new(), &Options::default()).unwrap();
    assert_eq!(t.first_int(), Some(1));
}

/// A value nothing reads again is not copied into every row a step makes from its row: a
/// collected list unwound, or matched after, fits a budget that the same rows holding the
/// list each do not (and when a later clause does read the list, the budget says so).
#[test]
fn values_no_later_clause_reads_are_not_copied_into_every_row() {
    let mut g = Graph::new();
    let create = "UNWIND range(1, 3000) AS i CREATE (:N {i: i})";
    run_with(&mut g, create, &Params::new(), &Options::default()).unwrap();
    let mut opts = Options::default();
    opts.limits.max_memory = Some(16 << 20);
    for (q, want) in [
        (
            "UNWIND range(1, 3000) AS i WITH count(*) AS total, collect(i) AS xs \
             UNWIND xs AS x RETURN total, count(*) AS n, sum(x) AS m",
            "3000 | 3000 | 4501500",
        ),
        (
            "MATCH (n:N) WITH collect(n) AS ns MATCH (m:N) RETURN count(*) AS n, 1 AS m, 2 AS k",
            "3000 | 1 | 2",
        ),
    ] {
        let t = run_with(&mut g, q, &Params::new(), &opts).unwrap_or_else(|e| panic!("{q}: {e}"));
        let row: Vec<String> = t.rows[0].iter().map(|v| v.to_string()).collect();
        assert_eq!(row.join(" | "), want, "{q}");
    }
    // Read after the UNWIND, the list is in every row, and the budget counts it.
    let q = "UNWIND range(1, 3000) AS i WITH collect(i) AS xs \
             UNWIND xs AS x RETURN count(*) AS n, max(size(xs)) AS m";
    let e = run_with(&mut g, q, &Params::new(), &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{q}: {e}");
}

#[test]
fn the_memory_budget_ends_queries_not_the_process_in_the_library() {
    let mut g = Graph::new();
    let mut opts = Options::default();
    opts.limits.max_memory = Some(32 << 20);
    for q in [
        STRING_DOUBLING,
        LIST_DOUBLING,
        NESTED_COMPREHENSION,
        HUGE_RANGE,
        REPLACE_BLOWUP,
        UNWIND_ROWS,
        COLLECT_ALL,
        "UNWIND range(1, 2000) AS i RETURN size([(a)-->(b) | 1]) + size(split(reduce(s = 'ab', x IN range(1, 20) | s + s), '')) AS n",
        // Found by the `execute` fuzz target: each projected (or sort-key) list fits the
        // budget, but the rows holding them together do not.
        "UNWIND range(1, 14) AS i RETURN DISTINCT range(i, 1000000) AS n",
        "UNWIND range(1, 14) AS i RETURN i ORDER BY range(i, 1000000)",
    ] {
        let e = run_with(&mut g, q, &Params::new(), &opts).unwrap_err();
        assert_eq!(e.kind, ErrorKind::LimitExceeded, "{q}: {e}");
        if q != HUGE_RANGE {
            assert_eq!(e.detail, Some(Detail::Memory), "{q}: {e}");
            assert_eq!(
                e.code(),
                "Neo.TransientError.General.MemoryPoolOutOfMemoryError"
            );
        }
    }
    // Within the budget the same shapes run.
    let t = run_with(
        &mut g,
        "RETURN size(reduce(s = 'x', x IN range(1, 10) | s + s)) AS n",
        &Params::new(),
        &opts,
    )
    .unwrap();
    assert_eq!(t.first_int(), Some(1024));
    // No budget: no memory error for a moderate query.
    opts.limits.max_memory = None;
    let t = run_with(
        &mut g,
        "UNWIND range(1, 1000) AS i RETURN count(i) AS n",
        &Params::new(),
        &opts,
    )
    .unwrap();
    assert_eq!(t.first_int(), Some(1000));
}

#[test]
fn the_time_limit_is_checked_inside_expressions() {
    let mut g = Graph::new();
    let mut opts = Options::default();
    opts.limits.timeout = Some(std::time::Duration::from_millis(300));
    for q in [
        QUADRATIC_QUANTIFIER,
        "RETURN size([x IN range(1, 3000) | reduce(a = 0, y IN range(1, 3000) | a + x * y)]) AS n",
        "RETURN size([x IN range(1, 2000) WHERE all(y IN range(1, 2000) WHERE y > 0)]) AS n",
    ] {
        let e = run_with(&mut g, q, &Params::new(), &opts).unwrap_err();
        assert_eq!(e.detail, Some(Detail::Timeout), "{q}: {e}");
        assert_eq!(e.code(), "Neo.ClientError.Transaction.TransactionTimedOut");
    }
    // Cancellation from another thread stops it too.
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let opts = Options {
        cancel: Some(cancel),
        ..Default::default()
    };
    let e = run_with(&mut g, QUADRATIC_QUANTIFIER, &Params::new(), &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled, "{e}");
}

#[test]
fn limit_errors_say_which_limit() {
    let mut g = Graph::from_cypher_script(
        "UNWIND range(1, 12) AS i CREATE (:K {i: i}); MATCH (a:K), (b:K) WHERE a <> b CREATE (a)-[:E]->(b);",
    )
    .unwrap();
    let mut opts = Options::default();
    opts.limits.max_rows = 10;
    let e = run_with(
        &mut g,
        "UNWIND range(1, 20) AS i RETURN i",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    assert_eq!(e.detail, Some(Detail::ResultRows));
    assert_eq!(e.code(), "Neo.DatabaseError.Statement.ExecutionFailed");
    assert!(!e.code().contains("TimedOut"));
    opts.limits.max_rows = 1_000_000;
    opts.limits.max_memory = Some(16 << 20);
    let e = run_with(
        &mut g,
        "MATCH p = (a)-[*1..100]-(b) RETURN collect(p) AS ps",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    assert!(
        matches!(
            e.detail,
            Some(Detail::Memory) | Some(Detail::IntermediateRows)
        ),
        "{e}"
    );
    // Counted, the paths are never held (the MATCH feeds the aggregation row by row): the
    // deadline is what stops it.
    opts.limits.timeout = Some(std::time::Duration::from_millis(300));
    let e = run_with(
        &mut g,
        "MATCH p = (a)-[*1..100]-(b) RETURN count(p) AS n",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    assert_eq!(e.detail, Some(Detail::Timeout), "{e}");
}

#[test]
fn load_csv_is_sandboxed_in_the_import_directory() {
    let dir = temp_dir("import");
    let import = dir.join("import");
    std::fs::create_dir_all(import.join("sub")).unwrap();
    std::fs::write(import.join("ok.csv"), "a,b\n1,2\n").unwrap();
    std::fs::write(dir.join("secret.csv"), "top,secret\n").unwrap();
    std::os::unix::fs::symlink(dir.join("secret.csv"), import.join("link.csv")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", import.join("zero.csv")).unwrap();
    let fifo = import.join("fifo.csv");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let mut g = Graph::new();
    // Off without an import directory.
    let e = run_with(
        &mut g,
        "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r",
        &Params::new(),
        &Options::default(),
    )
    .unwrap_err();
    assert!(e.message.contains("LOAD CSV is disabled"), "{e}");
    assert_eq!(e.code(), "Neo.ClientError.Statement.ExternalResourceFailed");
    let opts = Options {
        import_dir: Some(import.clone()),
        ..Default::default()
    };
    let t = run_with(
        &mut g,
        "LOAD CSV FROM 'file:///ok.csv' AS r RETURN r",
        &Params::new(),
        &opts,
    )
    .unwrap();
    assert_eq!(t.rows.len(), 2);
    for (url, why) in [
        ("file:///etc/passwd", "no such file"),
        ("file:///../secret.csv", "leaves the import directory"),
        ("../secret.csv", "leaves the import directory"),
        ("file:///%2E%2E/secret.csv", "leaves the import directory"),
        ("file:///link.csv", "leaves the import directory"),
        ("file:///zero.csv", "leaves the import directory"),
        ("file:///fifo.csv", "not a regular file"),
        ("file:///sub", "not a regular file"),
        ("file://example.com/x.csv", "only local file URLs"),
        ("http://127.0.0.1:1/x.csv", "local files only"),
    ] {
        let e = run_with(
            &mut g,
            &format!("LOAD CSV FROM '{url}' AS r RETURN r"),
            &Params::new(),
            &opts,
        )
        .unwrap_err();
        assert!(e.message.contains(why), "{url}: {e}");
        assert!(!e.message.contains("top,secret"), "{e}");
    }
    // A file larger than the memory budget is refused while reading.
    std::fs::write(import.join("big.csv"), "x,y\n".repeat(1 << 19)).unwrap();
    let mut small = opts.clone();
    small.limits.max_memory = Some(1 << 20);
    let e = run_with(
        &mut g,
        "LOAD CSV FROM 'file:///big.csv' AS r RETURN count(r)",
        &Params::new(),
        &small,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    // LOAD CSV is a reading clause (as in Neo4j, it runs in a read transaction), still inside
    // the sandbox; surfaces that hand queries to agents refuse it themselves (see the MCP test).
    let t = grape::engine::run_read(
        &g,
        "LOAD CSV FROM 'file:///ok.csv' AS r RETURN r",
        &Params::new(),
        &opts,
    )
    .unwrap();
    assert_eq!(t.rows.len(), 2);
    let e = grape::engine::run_read(
        &g,
        "LOAD CSV FROM 'file:///../secret.csv' AS r RETURN r",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    assert!(e.message.contains("leaves the import"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn grape_query_survives_every_hostile_query_within_its_budget() {
    let dir = temp_dir("query");
    let dense = dense_graph_script(&dir);
    for (q, detail) in [
        (DEEP, "ValueNesting"),
        (STRING_DOUBLING, "Memory"),
        (LIST_DOUBLING, "Memory"),
        (NESTED_COMPREHENSION, "Memory"),
        (REPLACE_BLOWUP, "Memory"),
        (COLLECT_ALL, "Memory"),
        (QUADRATIC_QUANTIFIER, "Timeout"),
    ] {
        let e = hostile_query("none", q, &[]);
        let want = match detail {
            "Memory" => "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
            "Timeout" => "Neo.ClientError.Transaction.TransactionTimedOut",
            _ => "Neo.DatabaseError.Statement.ExecutionFailed",
        };
        assert_eq!(e["code"], want, "{q}: {e}");
    }
    let e = hostile_query(
        &dense,
        "MATCH p = (a)-[*1..100]-(b) RETURN count(p) AS n",
        &[],
    );
    assert_eq!(e["kind"], "LimitExceeded", "{e}");
    let e = hostile_query(
        "none",
        "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r",
        &[],
    );
    assert!(e["message"].as_str().unwrap().contains("disabled"), "{e}");
    let e = hostile_query(
        "none",
        "LOAD CSV FROM 'file:///../../etc/hostname' AS r RETURN r",
        &["--import-dir", dir.to_str().unwrap()],
    );
    assert!(
        e["message"].as_str().unwrap().contains("leaves the import"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_closed_pipe_ends_the_cli_quietly() {
    for args in [
        vec![
            "query",
            "--graph",
            "none",
            "UNWIND range(1, 300000) AS i RETURN i",
        ],
        vec!["parse", "--print", "-"],
    ] {
        let mut child = Command::new(grape_bin())
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            let script = "MATCH (n) RETURN n;\n".repeat(50_000);
            let _ = stdin.write_all(script.as_bytes());
        });
        let mut out = child.stdout.take().unwrap();
        let mut first = [0u8; 16];
        out.read_exact(&mut first).unwrap();
        drop(out); // the reader goes away, like `| head -c 16`
        let o = child.wait_with_output().unwrap();
        let _ = feeder.join();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(o.status.code(), Some(101), "{args:?}: {stderr}");
    }
}

#[test]
fn diagnostics_escape_control_characters() {
    let dir = temp_dir("escape");
    let f = dir.join("bad.cypher");
    std::fs::write(&f, "RETURN '\u{1b}]0;pwned\u{7}\u{1b}[2J' + ) AS x;\n").unwrap();
    let o = Command::new(grape_bin())
        .args(["parse"])
        .arg(&f)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
    assert!(stderr.contains("\\u{1b}"), "{stderr}");
    // JSON Lines ids with escape bytes are shown escaped too.
    let j = dir.join("bad.jsonl");
    std::fs::write(
        &j,
        format!(
            "{}\n",
            json!({"id": "x\u{1b}[31m", "query": "MATCH (n RETURN n"})
        ),
    )
    .unwrap();
    let o = Command::new(grape_bin())
        .args(["parse"])
        .arg(&j)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Errors name the real problem: a model file missing from an importer folder, a truncated
/// schema, an unreadable query file (no "all OK" after it), an `--out` that is a file.
#[test]
fn messages_name_the_real_problem() {
    let dir = temp_dir("messages");
    let run = |args: &[std::ffi::OsString]| {
        let o = Command::new(grape_bin()).args(args).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    // An importer folder whose model maps a file that is not there (POLE without its areas).
    if let Some(shared) = common::shared_dir("a missing importer file") {
        let importer = dir.join("importer");
        std::fs::create_dir_all(&importer).unwrap();
        for e in std::fs::read_dir(shared.join("data/pole")).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().to_string();
            if name != "crime-investigation.nodes.Area.csv" {
                std::fs::copy(e.path(), importer.join(&name)).unwrap();
            }
        }
        let (code, err) = run(&[
            os("query"),
            os("--graph"),
            importer.clone().into(),
            os("RETURN 1"),
        ]);
        assert_ne!(code, Some(0));
        assert!(
            err.contains("crime-investigation.nodes.Area.csv, which is not in"),
            "{err}"
        );
    }
    // A truncated schema file.
    let schema = dir.join("schema.json");
    std::fs::write(
        &schema,
        r#"{"node_props": {"Person": [{"property": "name", "#,
    )
    .unwrap();
    let (code, err) = run(&[
        os("schema"),
        os("convert"),
        schema.clone().into(),
        os("--to"),
        os("grape"),
    ]);
    assert_ne!(code, Some(0));
    assert!(
        err.contains("is not valid JSON") && err.contains("truncated") && err.contains("line 1"),
        "{err}"
    );
    // An unreadable query file among readable ones.
    let good = dir.join("good.cypher");
    std::fs::write(&good, "RETURN 1;\n").unwrap();
    let (code, err) = run(&[
        os("parse"),
        good.clone().into(),
        dir.join("missing.cypher").into(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("all OK"), "{err}");
    assert!(err.contains("1 file could not be read"), "{err}");
    // `eval --out` naming a file.
    let ds = dir.join("ds.jsonl");
    std::fs::write(
        &ds,
        json!({"id": "a", "question": "?", "cypher": "RETURN 1"}).to_string() + "\n",
    )
    .unwrap();
    let graph = dir.join("g.cypher");
    std::fs::write(&graph, "CREATE (:P);\n").unwrap();
    let taken = dir.join("taken");
    std::fs::write(&taken, "keep me").unwrap();
    let (code, err) = run(&[
        os("eval"),
        os("--dataset"),
        ds.clone().into(),
        os("--predictions"),
        ds.clone().into(),
        os("--graph"),
        graph.into(),
        os("--out"),
        taken.clone().into(),
    ]);
    assert_ne!(code, Some(0));
    assert!(
        err.contains("is a file; the output is a directory"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&taken).unwrap(), "keep me");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn eval_rejects_duplicate_ids_and_records_every_hostile_prediction() {
    let dir = temp_dir("eval");
    let graph = dir.join("g.cypher");
    std::fs::write(&graph, "CREATE (:P {name: 'a'}), (:P {name: 'b'});\n").unwrap();
    // Duplicate ids, also a number and a string that read the same.
    for (a, b) in [(json!("q1"), json!("q1")), (json!(1), json!("1"))] {
        let ds = dir.join("dup.jsonl");
        std::fs::write(
            &ds,
            format!(
                "{}\n{}\n{}\n",
                json!({"id": a, "question": "?", "cypher": "MATCH (p:P) RETURN count(p)"}),
                json!({"id": "other", "question": "?", "cypher": "RETURN 1"}),
                json!({"id": b, "question": "?", "cypher": "RETURN 2"}),
            ),
        )
        .unwrap();
        let preds = dir.join("p.jsonl");
        std::fs::write(&preds, "").unwrap();
        let o = Command::new(grape_bin())
            .args(["eval", "--dataset"])
            .arg(&ds)
            .arg("--predictions")
            .arg(&preds)
            .arg("--graph")
            .arg(&graph)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("duplicate id") && stderr.contains("line 1 and line 3"),
            "{stderr}"
        );
    }
    // Every hostile prediction is recorded as failed, and the run (and its resume) completes.
    let hostile = [
        DEEP,
        STRING_DOUBLING,
        NESTED_COMPREHENSION,
        QUADRATIC_QUANTIFIER,
        "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r",
        "MATCH (p:P) RETURN count(p) AS n",
    ];
    let ds = dir.join("ds.jsonl");
    let preds = dir.join("preds.jsonl");
    let mut ds_text = String::new();
    let mut pred_text = String::new();
    for (i, q) in hostile.iter().enumerate() {
        ds_text += &format!(
            "{}\n",
            json!({"id": format!("e{i}"), "question": "?", "cypher": "MATCH (p:P) RETURN count(p) AS n"})
        );
        pred_text += &format!("{}\n", json!({"id": format!("e{i}"), "cypher": q}));
    }
    std::fs::write(&ds, ds_text).unwrap();
    std::fs::write(&preds, pred_text).unwrap();
    let out = dir.join("out");
    for round in 0..2 {
        // One worker: the budget (and the bound on the process) is per statement, and with two
        // workers two hostile predictions run side by side — the string doubling peaking at
        // 231 MB and the nested comprehension at 167 MB, measured alone — which, when their
        // peaks met, took the process over the one-statement bound (seen twice in 2026-12).
        let f = run_measured(
            Command::new(grape_bin())
                .args([
                    "eval",
                    "--json",
                    "--workers",
                    "1",
                    "--timeout-ms",
                    "2000",
                    "--max-memory",
                    BUDGET,
                ])
                .arg("--dataset")
                .arg(&ds)
                .arg("--predictions")
                .arg(&preds)
                .arg("--graph")
                .arg(&graph)
                .arg("--out")
                .arg(&out),
        );
        assert_eq!(f.code, Some(0), "round {round}: {}", f.stderr);
        assert!(
            f.max_rss_mb < RSS_BOUND_MB,
            "peak RSS {:.0} MB",
            f.max_rss_mb
        );
        let records: Vec<Json> = std::fs::read_to_string(out.join("examples.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), hostile.len());
        for r in &records {
            let last = r["id"] == format!("e{}", hostile.len() - 1);
            assert_eq!(
                r["prediction_error"].is_null(),
                last,
                "{}: {}",
                r["id"],
                r["prediction_error"]
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Bolt: the hostile queries over the wire, through grape's own client.
#[cfg(feature = "bolt")]
mod bolt {
    use super::*;
    use grape::bolt::client::Client;
    use grape::bolt::packstream::Ps;
    use grape::bolt::{Config, Server, ServerHandle};
    use std::net::TcpStream;
    use std::time::Duration;

    const FAILURE: u8 = 0x7F;

    fn start(config: Config) -> ServerHandle {
        let g =
            Graph::from_cypher_script("CREATE (:P {name: 'a'})-[:R]->(:P {name: 'b'});").unwrap();
        Server::bind("127.0.0.1:0", g, config).unwrap().spawn()
    }

    fn failure_code(r: &Result<grape::bolt::client::RunResult, Ps>) -> String {
        match r {
            Err(meta) => meta
                .get("code")
                .and_then(Ps::as_str)
                .unwrap_or_default()
                .to_string(),
            Ok(_) => "success".to_string(),
        }
    }

    fn one(c: &mut Client) -> i64 {
        let (_, rows, _) = c
            .run("RETURN 1 AS x", Ps::map::<&str>([]))
            .unwrap()
            .unwrap();
        rows[0][0].as_int().unwrap()
    }

    fn budgeted() -> Config {
        let mut config = Config {
            read_only: true,
            ..Default::default()
        };
        config.engine.limits.max_memory = Some(64 << 20);
        config.engine.limits.timeout = Some(Duration::from_millis(1500));
        config
    }

    #[test]
    fn hostile_queries_fail_and_the_connection_goes_on() {
        let h = start(budgeted());
        let mut c = Client::connect(&h.local_addr().to_string(), &[(5, 4, 4)]).unwrap();
        c.login("neo4j", "x").unwrap();
        for (q, code) in [
            (DEEP, "Neo.DatabaseError.Statement.ExecutionFailed"),
            (
                STRING_DOUBLING,
                "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
            ),
            (
                NESTED_COMPREHENSION,
                "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
            ),
            (
                QUADRATIC_QUANTIFIER,
                "Neo.ClientError.Transaction.TransactionTimedOut",
            ),
            (
                "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r",
                "Neo.ClientError.Statement.AccessMode",
            ),
        ] {
            let r = c.run(q, Ps::map::<&str>([])).unwrap();
            assert_eq!(failure_code(&r), code, "{q}");
            let reset = c.request(0x0F, vec![]).unwrap();
            assert_eq!(reset.0, 0x70);
            assert_eq!(one(&mut c), 1);
        }
        // A write session of a writable server has no import directory either.
        let h = start(Config::default());
        let mut c = Client::connect(&h.local_addr().to_string(), &[(5, 4, 4)]).unwrap();
        c.login("neo4j", "x").unwrap();
        let r = c
            .run(
                "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r",
                Ps::map::<&str>([]),
            )
            .unwrap();
        assert_eq!(
            failure_code(&r),
            "Neo.ClientError.Statement.ExternalResourceFailed"
        );
    }

    #[test]
    fn slow_and_silent_clients_are_cut_off() {
        let config = Config {
            handshake_timeout: Duration::from_millis(300),
            idle_timeout: Some(Duration::from_millis(300)),
            message_timeout: Duration::from_millis(300),
            ..Default::default()
        };
        let h = start(config);
        let addr = h.local_addr();
        // A byte at a time: the handshake never completes before the server hangs up.
        let mut s = TcpStream::connect(addr).unwrap();
        let hello = [
            0x60, 0x60, 0xB0, 0x17, 0, 0, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let mut cut = false;
        for b in hello {
            if s.write_all(&[b]).is_err() {
                cut = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        if !cut {
            // The server closed its end: reading gives end of stream (or a reset).
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut buf = [0u8; 4];
            let n = s.read(&mut buf).unwrap_or(0);
            cut = n == 0;
        }
        assert!(cut, "a dribbling handshake was served");
        // Silence after HELLO: the connection is closed at the idle limit.
        let mut c = Client::connect(&addr.to_string(), &[(5, 4, 4)]).unwrap();
        c.login("neo4j", "x").unwrap();
        std::thread::sleep(Duration::from_millis(900));
        assert!(
            c.run("RETURN 1", Ps::map::<&str>([])).is_err(),
            "an idle connection stayed open"
        );
    }

    #[test]
    fn connections_are_capped_with_a_clear_failure() {
        let config = Config {
            max_connections: 2,
            ..Default::default()
        };
        let h = start(config);
        let addr = h.local_addr().to_string();
        let mut a = Client::connect(&addr, &[(5, 4, 4)]).unwrap();
        a.login("neo4j", "x").unwrap();
        let mut b = Client::connect(&addr, &[(5, 4, 4)]).unwrap();
        b.login("neo4j", "x").unwrap();
        let mut c = Client::connect(&addr, &[(5, 4, 4)]).unwrap();
        let r = c.request(0x01, vec![Ps::map([("user_agent", Ps::from("t"))])]);
        let r = r.unwrap();
        assert_eq!(r.0, FAILURE);
        assert_eq!(
            r.1[0].get("code").and_then(Ps::as_str),
            Some("Neo.TransientError.Request.NoThreadsAvailable")
        );
        assert_eq!(one(&mut a), 1);
        // A freed slot is served again.
        drop(b);
        let mut served = false;
        for _ in 0..50 {
            std::thread::sleep(Duration::from_millis(50));
            let mut d = Client::connect(&addr, &[(5, 4, 4)]).unwrap();
            if d.login("neo4j", "x").is_ok()
                && d.run("RETURN 1", Ps::map::<&str>([]))
                    .is_ok_and(|r| r.is_ok())
            {
                served = true;
                break;
            }
        }
        assert!(served);
    }

    #[test]
    fn repeated_failed_logins_are_rate_limited() {
        let config = Config {
            auth: Some(("neo4j".into(), "secret".into())),
            auth_lock: Duration::from_secs(60),
            ..Default::default()
        };
        let h = start(config);
        let addr = h.local_addr().to_string();
        let login = |pw: &str| -> String {
            let mut c = Client::connect(&addr, &[(5, 4, 4)]).unwrap();
            match c.login("neo4j", pw) {
                Ok(_) => "ok".into(),
                Err(e) => e.to_string(),
            }
        };
        assert_eq!(login("secret"), "ok");
        for _ in 0..3 {
            assert!(login("wrong").contains("Unauthorized"));
        }
        let after = login("secret");
        assert!(after.contains("AuthenticationRateLimit"), "{after}");
    }

    #[test]
    fn oversized_queries_and_client_timeouts() {
        let mut config = Config {
            max_query_bytes: 1000,
            ..Default::default()
        };
        config.engine.limits.timeout = Some(Duration::from_secs(30));
        let h = start(config);
        let mut c = Client::connect(&h.local_addr().to_string(), &[(5, 4, 4)]).unwrap();
        c.login("neo4j", "x").unwrap();
        let long = format!("RETURN '{}' AS s", "x".repeat(2000));
        let r = c.run(&long, Ps::map::<&str>([])).unwrap();
        assert_eq!(failure_code(&r), "Neo.ClientError.Request.Invalid");
        c.request(0x0F, vec![]).unwrap();
        assert_eq!(one(&mut c), 1);
        // The driver's transaction timeout (BEGIN's tx_timeout) ends a long query early.
        let begin = c
            .request(0x11, vec![Ps::map([("tx_timeout", Ps::Int(200))])])
            .unwrap();
        assert_eq!(begin.0, 0x70);
        let r = c.run(QUADRATIC_QUANTIFIER, Ps::map::<&str>([])).unwrap();
        assert_eq!(
            failure_code(&r),
            "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration"
        );
        c.request(0x0F, vec![]).unwrap();
        assert_eq!(one(&mut c), 1);
    }

    /// A Bolt 5.4 connection to `addr`, logged in.
    fn logged_in(addr: &str) -> Client {
        let mut c = Client::connect(addr, &[(5, 4, 4)]).unwrap();
        c.login("neo4j", "x").unwrap();
        c
    }

    fn count(c: &mut Client, q: &str) -> i64 {
        let (_, rows, _) = c.run(q, Ps::map::<&str>([])).unwrap().unwrap();
        rows[0][0].as_int().unwrap()
    }

    /// Explicit write transactions journal their changes on one working copy instead of
    /// cloning the graph: they take turns (a second writer waits, then fails with a lock
    /// timeout the drivers retry), reads never wait on them, and rollback keeps nothing.
    #[test]
    fn write_transactions_take_turns_and_reads_never_wait() {
        let mut config = Config {
            lock_timeout: Duration::from_millis(300),
            ..Default::default()
        };
        config.engine.limits.timeout = Some(Duration::from_millis(1500));
        let h = start(config);
        let addr = h.local_addr().to_string();
        let connect = || logged_in(&addr);
        let (mut a, mut b) = (connect(), connect());
        const T: &str = "MATCH (t:T) RETURN count(t) AS n";
        assert_eq!(a.request(0x11, vec![Ps::map::<&str>([])]).unwrap().0, 0x70);
        a.run("CREATE (:T)", Ps::map::<&str>([])).unwrap().unwrap();
        assert_eq!(count(&mut a, T), 1, "a transaction sees its own writes");
        assert_eq!(count(&mut b, T), 0, "others do not see uncommitted writes");
        let r = b.run("CREATE (:U)", Ps::map::<&str>([])).unwrap();
        assert_eq!(
            failure_code(&r),
            "Neo.TransientError.Transaction.LockAcquisitionTimeout"
        );
        b.request(0x0F, vec![]).unwrap();
        assert_eq!(a.request(0x12, vec![]).unwrap().0, 0x70);
        assert_eq!(count(&mut b, T), 1, "a commit is visible");
        // Forty transactions in turn, each writing then rolling back (or dropped with its
        // connection): nothing is kept and the lease is always given back.
        for i in 0..40 {
            let mut c = connect();
            c.request(0x11, vec![Ps::map::<&str>([])]).unwrap();
            c.run("MATCH (p:P) CREATE (p)-[:X]->(:T)", Ps::map::<&str>([]))
                .unwrap()
                .unwrap();
            if i % 2 == 0 {
                assert_eq!(c.request(0x13, vec![]).unwrap().0, 0x70);
            }
        }
        // (A dropped connection's transaction is rolled back when its thread sees the close.)
        let mut ok = false;
        for _ in 0..100 {
            if b.run("CREATE (:U)", Ps::map::<&str>([])).unwrap().is_ok() {
                ok = true;
                break;
            }
            b.request(0x0F, vec![]).unwrap();
        }
        assert!(ok, "the write lease was not given back");
        assert_eq!(count(&mut b, T), 1);
        assert_eq!(h.graph().node_count(), 4);
        // A stuck write (it runs until the time limit) holds the lease; reads go on meanwhile.
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writer = {
            let done = done.clone();
            let mut w = connect();
            std::thread::spawn(move || {
                let q = format!("CREATE (:W) WITH 1 AS one {QUADRATIC_QUANTIFIER}");
                let r = w.run(&q, Ps::map::<&str>([])).unwrap();
                done.store(true, std::sync::atomic::Ordering::SeqCst);
                failure_code(&r)
            })
        };
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(count(&mut b, T), 1);
        assert!(
            !done.load(std::sync::atomic::Ordering::SeqCst),
            "the read waited for the stuck write"
        );
        assert_eq!(
            writer.join().unwrap(),
            "Neo.ClientError.Transaction.TransactionTimedOut"
        );
        assert_eq!(count(&mut b, "MATCH (w:W) RETURN count(w)"), 0);
    }

    /// A query stops when its client goes away or sends RESET (as Neo4j interrupts it), not
    /// at the server's time limit: its write lease is free again and the connection answers.
    #[test]
    fn a_closed_connection_or_reset_stops_the_running_query() {
        let mut config = Config {
            lock_timeout: Duration::from_millis(300),
            ..Default::default()
        };
        config.engine.limits.timeout = Some(Duration::from_secs(60));
        let h = start(config);
        let addr = h.local_addr().to_string();
        let connect = || logged_in(&addr);
        let stuck = format!("CREATE (:W) WITH 1 AS one {QUADRATIC_QUANTIFIER}");
        let run_pull = |q: &str| {
            vec![
                (
                    0x10,
                    vec![Ps::from(q), Ps::map::<&str>([]), Ps::map::<&str>([])],
                ),
                (0x3F, vec![Ps::map([("n", Ps::Int(-1))])]),
            ]
        };
        // The client leaves while its write runs: the write stops and frees the lease.
        let mut a = connect();
        a.send_all(run_pull(&stuck)).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        drop(a);
        let mut b = connect();
        let mut wrote = false;
        for _ in 0..10 {
            if b.run("CREATE (:U)", Ps::map::<&str>([])).unwrap().is_ok() {
                wrote = true;
                break;
            }
            b.request(0x0F, vec![]).unwrap();
        }
        assert!(wrote, "the abandoned write still holds the lease");
        assert_eq!(count(&mut b, "MATCH (w:W) RETURN count(w)"), 0);
        // RESET interrupts the running query. As on Neo4j, which runs a statement that
        // returns rows as they are pulled: RUN succeeds with its fields, PULL fails as
        // terminated, RESET succeeds, and the connection goes on.
        let mut c = connect();
        c.send_all(run_pull(QUADRATIC_QUANTIFIER)).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        c.send(0x0F, vec![]).unwrap();
        assert_eq!(c.recv().unwrap().0, 0x70, "RUN succeeds");
        let (tag, f) = c.recv().unwrap();
        assert_eq!(tag, FAILURE);
        assert_eq!(
            f[0].get("code").and_then(Ps::as_str),
            Some("Neo.ClientError.Transaction.Terminated")
        );
        assert_eq!(c.recv().unwrap().0, 0x70, "RESET succeeds");
        assert_eq!(one(&mut c), 1);
    }

    /// Kilobytes of a process's `VmRSS` or `VmHWM` (peak) from /proc.
    #[cfg(target_os = "linux")]
    fn proc_kb(pid: u32, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }

    /// Forty write transactions opened at once on POLE: one holds the write lease, the others
    /// wait the configured lock timeout and fail with the code drivers retry. None copies the
    /// graph: the server's peak memory stays within three times its size at rest (it used to
    /// grow by a copy of the graph per transaction).
    #[cfg(target_os = "linux")]
    #[test]
    fn forty_open_write_transactions_do_not_multiply_memory() {
        let Some(shared) = common::shared_dir("open transactions on POLE") else {
            return;
        };
        let mut server = Command::new(grape_bin())
            .args([
                "serve",
                "bolt",
                "--port",
                "0",
                "--lock-timeout-ms",
                "300",
                "--graph",
            ])
            .arg(shared.join("data/pole"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(server.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let addr = line
            .split("bolt://")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap()
            .to_string();
        let pid = server.id();
        let at_rest = proc_kb(pid, "VmRSS:");
        let opened = std::sync::Barrier::new(41);
        let codes: Vec<String> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..40)
                .map(|i| {
                    let (addr, opened) = (&addr, &opened);
                    s.spawn(move || {
                        let mut c = logged_in(addr);
                        c.request(0x11, vec![Ps::map::<&str>([])]).unwrap();
                        let r = c
                            .run(
                                "MATCH (p:Person) WITH p LIMIT 1 SET p.tx = $i",
                                Ps::map([("i", Ps::Int(i))]),
                            )
                            .unwrap();
                        let code = failure_code(&r);
                        opened.wait();
                        // Keep the transaction open until the peak is read.
                        opened.wait();
                        code
                    })
                })
                .collect();
            opened.wait();
            let peak = proc_kb(pid, "VmHWM:");
            assert!(
                peak < 3 * at_rest,
                "peak {peak} kB with 40 open transactions, {at_rest} kB at rest"
            );
            opened.wait();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        let _ = server.kill();
        let _ = server.wait();
        let ok = codes.iter().filter(|c| *c == "success").count();
        assert_eq!(ok, 1, "one transaction holds the lease: {codes:?}");
        assert!(
            codes
                .iter()
                .all(|c| c == "success"
                    || c == "Neo.TransientError.Transaction.LockAcquisitionTimeout"),
            "{codes:?}"
        );
    }

    /// The official Python driver against a read-only, budgeted server: each hostile query
    /// fails with its code and the same session runs the next query.
    #[test]
    fn python_driver_survives_hostile_queries() {
        let Some(py) = common::python_with(
            "import neo4j",
            "GRAPE_REQUIRE_PY_DRIVER",
            "hostile queries through the Python driver",
        ) else {
            return;
        };
        let h = start(budgeted());
        let script = r#"
import json, sys
from neo4j import GraphDatabase
queries = json.load(sys.stdin)
out = []
with GraphDatabase.driver(sys.argv[1], auth=("neo4j", "x")) as d:
    with d.session() as s:
        for q in queries:
            try:
                s.run(q).consume()
                out.append("ok")
            except Exception as e:
                out.append(getattr(e, "code", type(e).__name__))
            out.append(s.run("RETURN 1 AS x").single()["x"])
print(json.dumps(out))
"#;
        let queries = json!([
            DEEP,
            STRING_DOUBLING,
            LIST_DOUBLING,
            QUADRATIC_QUANTIFIER,
            "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r"
        ]);
        let mut child = Command::new(py)
            .arg("-c")
            .arg(script)
            .arg(format!("bolt://{}", h.local_addr()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(queries.to_string().as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let got: Json = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            got,
            json!([
                "Neo.DatabaseError.Statement.ExecutionFailed",
                1,
                "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
                1,
                "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
                1,
                "Neo.ClientError.Transaction.TransactionTimedOut",
                1,
                "Neo.ClientError.Statement.AccessMode",
                1
            ])
        );
    }
}

/// MCP over stdio: raw JSON-RPC lines, then the Python SDK.
#[cfg(feature = "mcp")]
mod mcp {
    use super::*;
    use std::io::{BufRead, BufReader};

    /// `grape serve mcp --max-memory 64M --graph demo ARGS`, speaking on stdin and stdout.
    fn serve_mcp(args: &[&str]) -> std::process::Child {
        let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/demo/graph.json");
        Command::new(grape_bin())
            .args([
                "serve",
                "mcp",
                "--contract",
                "mcp-neo4j-cypher",
                "--max-memory",
                "64M",
                "--graph",
            ])
            .arg(graph)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    }

    struct Stdio {
        child: std::process::Child,
        input: std::process::ChildStdin,
        output: BufReader<std::process::ChildStdout>,
    }

    impl Stdio {
        fn start(extra: &[&str]) -> Stdio {
            let mut args = vec!["--read-only", "--timeout-ms", "1500"];
            args.extend(extra);
            Stdio::spawn(&args)
        }
        fn spawn(args: &[&str]) -> Stdio {
            let mut child = serve_mcp(args);
            let input = child.stdin.take().unwrap();
            let output = BufReader::new(child.stdout.take().unwrap());
            Stdio {
                child,
                input,
                output,
            }
        }
        fn send(&mut self, line: &[u8]) {
            self.input.write_all(line).unwrap();
            self.input.write_all(b"\n").unwrap();
            self.input.flush().unwrap();
        }
        fn recv(&mut self) -> Json {
            let mut line = String::new();
            self.output.read_line(&mut line).unwrap();
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
        }
    }

    impl Drop for Stdio {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    #[test]
    fn malformed_and_oversized_lines_get_json_rpc_errors() {
        let mut s = Stdio::start(&[]);
        s.send(b"{not json");
        let r = s.recv();
        assert_eq!(r["error"]["code"], -32700, "{r}");
        assert!(r["id"].is_null());
        s.send(br#"{"jsonrpc":"2.0","id":7,"params":{}}"#);
        let r = s.recv();
        assert_eq!(r["error"]["code"], -32600, "{r}");
        assert_eq!(r["id"], 7);
        s.send(b"[1, 2]");
        assert_eq!(s.recv()["error"]["code"], -32600);
        let big = format!(
            r#"{{"jsonrpc":"2.0","id":8,"method":"ping","params":{{"x":"{}"}}}}"#,
            "y".repeat(5 << 20)
        );
        s.send(big.as_bytes());
        let r = s.recv();
        assert_eq!(r["error"]["code"], -32600, "{r}");
        // The server still speaks MCP.
        s.send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-03-26", "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "1"}}})
            .to_string()
            .as_bytes(),
        );
        assert_eq!(s.recv()["id"], 1);
        s.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        let call = |id: i64, q: &str| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "read_neo4j_cypher", "arguments": {"query": q}}})
            .to_string()
        };
        for (i, q) in [DEEP, STRING_DOUBLING, QUADRATIC_QUANTIFIER]
            .iter()
            .enumerate()
        {
            s.send(call(10 + i as i64, q).as_bytes());
            let r = s.recv();
            assert_eq!(r["result"]["isError"], true, "{q}: {r}");
        }
        s.send(call(20, "RETURN 1 AS x").as_bytes());
        let r = s.recv();
        assert_eq!(r["result"]["content"][0]["text"], r#"[{"x": 1}]"#, "{r}");
    }

    fn send_line(input: &mut impl Write, line: &str) {
        input.write_all(line.as_bytes()).unwrap();
        input.write_all(b"\n").unwrap();
        input.flush().unwrap();
    }

    fn write_call(id: i64, q: &str) -> String {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "write_neo4j_cypher", "arguments": {"query": q}}})
        .to_string()
    }

    /// A cancelled call's query stops (so the write it holds up goes through) and stdin EOF
    /// ends the server, both long before the 60 s time limit the server runs with.
    #[test]
    fn cancellation_and_stdin_eof_stop_the_running_query() {
        const LIMIT_MS: u64 = 60_000;
        let limit = LIMIT_MS.to_string();
        let stuck = format!("CREATE (:W) WITH 1 AS one {QUADRATIC_QUANTIFIER}");
        let mut child = serve_mcp(&["--timeout-ms", &limit]);
        let mut input = child.stdin.take().unwrap();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        // Answers are read on a thread, so that every wait is bounded by half the time limit.
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || loop {
            let mut line = String::new();
            if output.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if tx.send(line).is_err() {
                return;
            }
        });
        let half = std::time::Duration::from_millis(LIMIT_MS / 2);
        send_line(
            &mut input,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-03-26", "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "1"}}})
            .to_string(),
        );
        let r: Json = serde_json::from_str(&rx.recv_timeout(half).unwrap()).unwrap();
        assert_eq!(r["id"], 1);
        send_line(
            &mut input,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        );
        send_line(&mut input, &write_call(2, &stuck));
        std::thread::sleep(std::time::Duration::from_millis(300));
        send_line(
            &mut input,
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 2, "reason": "the user gave up"}})
            .to_string(),
        );
        send_line(&mut input, &write_call(3, "CREATE (:U) RETURN 1 AS x"));
        let answer = loop {
            let line = rx.recv_timeout(half).expect("no answer to call 3 in time");
            let r: Json = serde_json::from_str(&line).unwrap();
            if r["id"] == 3 {
                break r;
            }
        };
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        // Another stuck call, then stdin closes: the server ends without waiting it out.
        send_line(&mut input, &write_call(4, &stuck));
        std::thread::sleep(std::time::Duration::from_millis(300));
        drop(input);
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break st;
            }
            if started.elapsed() > half {
                let _ = child.kill();
                panic!("the server kept running its query after stdin closed");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        assert!(status.success(), "{status}");
        reader.join().unwrap();
    }

    #[test]
    fn python_sdk_read_tool_refuses_files_and_survives_hostile_queries() {
        let Some(py) = common::python_with(
            "import mcp",
            "GRAPE_REQUIRE_MCP_SDK",
            "hostile MCP calls through the Python SDK",
        ) else {
            return;
        };
        let dir = temp_dir("mcp");
        let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/demo/graph.json");
        let read = |q: &str| json!({"tool": "read_neo4j_cypher", "args": {"query": q}});
        let calls = json!([
            read("LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r"),
            read(DEEP),
            read(NESTED_COMPREHENSION),
            read("UNWIND range(1, 100000) AS i RETURN i, 'some padding text' AS s"),
            read("RETURN 1 AS x"),
        ]);
        let mut child = Command::new(py)
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_support/mcp_client.py"))
            .args([
                "stdio",
                grape_bin(),
                "serve",
                "mcp",
                "--contract",
                "mcp-neo4j-cypher",
                "--read-only",
                "--timeout-ms",
                "1500",
            ])
            .args([
                "--max-memory",
                "64M",
                "--max-rows",
                "100000",
                "--import-dir",
            ])
            .arg(&dir)
            .arg("--graph")
            .arg(graph)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(calls.to_string().as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out: Json = serde_json::from_slice(&o.stdout).unwrap();
        let r = &out["results"];
        assert_eq!(r[0]["is_error"], true);
        assert!(r[0]["text"]
            .as_str()
            .unwrap()
            .contains("LOAD CSV reaches outside the graph"));
        assert_eq!(r[1]["is_error"], true);
        assert_eq!(r[2]["is_error"], true);
        // The default reply limit (1 MiB) cuts a huge reply.
        let big = r[3]["text"].as_str().unwrap();
        assert!(big.len() <= (1 << 20) + 8, "{}", big.len());
        assert!(big.ends_with('…'));
        assert_eq!(r[4]["text"], r#"[{"x": 1}]"#);
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Subqueries nest by recursion in the parser, the analysis and the executor, each level far
/// deeper in stack than a bracket: more than 32 levels of `{ … }` are refused before parsing,
/// and 32 run on the stack grape gives its query threads (150 nested `CALL { }` once aborted
/// the process on a 2 MiB Bolt connection thread).
#[test]
fn deeply_nested_subqueries_are_refused_not_a_stack_overflow() {
    let nested = |d: usize| {
        format!(
            "{}RETURN 1 AS x{}",
            "CALL () { ".repeat(d),
            " } RETURN x".repeat(d)
        )
    };
    let run = move |q: String| {
        std::thread::Builder::new()
            .stack_size(grape::QUERY_STACK_BYTES)
            .spawn(move || {
                let mut g = grape::graph::Graph::new();
                grape::engine::run(&mut g, &q, &Default::default()).map(|t| t.rows.len())
            })
            .unwrap()
            .join()
            .unwrap()
    };
    assert_eq!(run(nested(32)).unwrap(), 1);
    let err = run(nested(150)).unwrap_err();
    assert!(
        err.message.contains("nested deeper than 32 levels"),
        "{err}"
    );
    let when = format!(
        "CYPHER 25 {}RETURN 1 AS x{}",
        "WHEN true THEN { ".repeat(40),
        " }".repeat(40)
    );
    let err = run(when).unwrap_err();
    assert!(
        err.message.contains("nested deeper than 32 levels"),
        "{err}"
    );
}

/// Headroom, measured: every walk over user-shaped depth, at its bound, in a debug build,
/// with half the stack it is given.
/// - Values (nested to `MAX_NESTING`): grape's walks (clone, `=`, ordering, equivalence and
///   hashing, text, JSON) go deeper level by level through `grape::stack::deeper`, so they run
///   on any stack; what is not guarded (dropping, `Debug`) needs at most 478 KiB at the bound
///   (measured by bisecting the thread size: a 499-deep map's `Debug`), so they get 1 MiB, half
///   the 2 MiB a Rust thread has by default. Before the guards, JSON needed 2 MiB and text
///   765 KiB: a 1 MiB thread overflowed.
/// - Statements (values at the bound through the engine, 32 nested subqueries, expressions at
///   the parser's chain and bracket bounds, their plans): the engine gives a statement half of
///   `QUERY_STACK_BYTES` at least (`grape::stack::statement`); each of these runs, with that
///   guarantee off, on a thread with a quarter of it.
#[test]
fn walks_at_their_bounds_have_headroom() {
    let mut g = Graph::new();
    let build = |q: &str, g: &mut Graph| {
        run_with(g, q, &Params::new(), &Options::default())
            .unwrap()
            .rows[0][0]
            .clone()
    };
    let list = build(
        "RETURN reduce(l = [], x IN range(1, 499) | [l]) AS deep",
        &mut g,
    );
    let map = build(
        "RETURN reduce(m = {}, x IN range(1, 499) | {a: m}) AS deep",
        &mut g,
    );
    for deep in [list, map] {
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || {
                let copy = deep.clone();
                assert_eq!(copy.equals(&deep), Some(true));
                assert_eq!(copy.compare(&deep), None.or(copy.compare(&deep)));
                assert_eq!(copy.order(&deep), std::cmp::Ordering::Equal);
                assert!(grape::value::equivalent(&copy, &deep));
                assert!(format!("{copy}").len() > 499);
                assert!(format!("{copy:?}").len() > 499);
                let json =
                    grape::graph::import::value_to_json(&copy, &grape::engine::Table::default());
                assert!(json.is_array() || json.is_object());
                let mut set = std::collections::HashSet::new();
                set.insert(grape::value::GroupKey(copy));
                assert!(set.contains(&grape::value::GroupKey(deep.clone())));
                drop(set);
                drop(deep);
            })
            .unwrap()
            .join()
            .expect("walks over a 499-deep value on a 1 MiB stack");
    }

    let chain = format!("RETURN 1{} AS x", " + 1".repeat(127));
    // The parser's bounds: 64 levels of expression nesting, chains of 128 operators.
    let brackets = format!("RETURN {}1{} AS x", "(".repeat(63), ")".repeat(63));
    let lists = format!("RETURN size({}1{}) AS x", "[".repeat(62), "]".repeat(62));
    let subqueries = format!(
        "{}RETURN 1 AS x{}",
        "CALL () { ".repeat(32),
        " } RETURN x".repeat(32)
    );
    // Values at `MAX_NESTING` (500 levels): 499 deep, or 498 inside one more list.
    let deep_list = "WITH reduce(l = [], x IN range(1, 499) | [l]) AS d";
    let deep_map = "WITH reduce(m = {}, x IN range(1, 499) | {a: m}) AS d";
    let in_list = "WITH reduce(l = [], x IN range(1, 498) | [l]) AS d";
    let in_list_map = "WITH reduce(m = {}, x IN range(1, 498) | {a: m}) AS d";
    let statements: Vec<String> = vec![
        chain.clone(),
        format!("EXPLAIN {chain}"),
        format!("PROFILE {chain}"),
        brackets,
        lists,
        subqueries.clone(),
        format!("EXPLAIN {subqueries}"),
        format!("PROFILE {subqueries}"),
        format!("{deep_list} RETURN d = d AS x"),
        format!("{in_list} UNWIND [d, d] AS e RETURN count(DISTINCT e) AS x"),
        format!("{in_list} UNWIND [d, d[0]] AS e WITH e ORDER BY e RETURN count(*) AS x"),
        format!("{deep_list} RETURN size(apoc.convert.toJson(d)) AS x"),
        format!("{deep_list} RETURN size(apoc.coll.flatten(d, true)) AS x"),
        format!("{deep_map} RETURN d = d AS x"),
        format!("{deep_map} RETURN size(apoc.convert.toJson(d)) AS x"),
        format!("{in_list_map} UNWIND [d, d] AS e RETURN count(DISTINCT e) AS x"),
    ];
    // Half of what the engine guarantees a statement, with its guarantee off.
    let failed = std::thread::Builder::new()
        .stack_size(grape::QUERY_STACK_BYTES / 4)
        .spawn(move || {
            grape::stack::unguarded(|| {
                let mut g = Graph::new();
                statements
                    .iter()
                    .filter_map(|q| {
                        run_with(&mut g, q, &Params::new(), &Options::default())
                            .err()
                            .map(|e| format!("{q}: {e}"))
                    })
                    .collect::<Vec<String>>()
            })
        })
        .unwrap()
        .join()
        .expect("statements at their bounds on a quarter of the query stack");
    assert!(failed.is_empty(), "{failed:#?}");
}
