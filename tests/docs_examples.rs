//! Every example in the README and the guide runs: a renamed flag fails here, not for a reader.
//!
//! - Each ```` ```sh ```` block of `README.md` and `docs/guide/src/**/*.md` runs in bash
//!   (`set -euo pipefail`), the blocks of one page in order in one scratch folder laid out as a
//!   checkout: `corpora/`, `oracle/`, `scripts/`, `tests/`, `python/`, `docs/` of this repository, `../shared`
//!   (the shared data), and `grape` on `PATH` (also `target/release/grape`) — this build, every
//!   feature on. A block followed by a ```` ```text ```` block must print exactly that (a line
//!   `...` stands for any lines, `...` within a line for any text). Processes a block starts in the background are stopped when it
//!   ends. A block that starts the Neo4j oracle (`scripts/neo4j-oracle`) runs where Java and
//!   Maven are (required under `GRAPE_REQUIRE_NEO4J=1`); one that runs the Python driver or
//!   mcp-neo4j-cypher where `.ci/run`'s Python environment is.
//! - `cargo run [--release] [--features F] -- ARGS` runs `grape ARGS`. The cargo, pip and maturin
//!   steps CI performs itself (`cargo build|install|test|bench|fuzz`, `pip install ./python`,
//!   `maturin develop`, `pytest python/tests`) are checked, not repeated: every feature, bench
//!   and fuzz target they name must exist.
//! - The stand-ins a reader has for real: `NEO4J_URI`/`NEO4J_USERNAME`/`NEO4J_PASSWORD` name a
//!   `grape serve bolt` over the demo graph; `OPENAI_BASE_URL`/`OPENAI_API_KEY` a loopback model
//!   that knows the demo corpus's answers (it writes each question's gold query, calls an MCP
//!   server's read tool with it, judges by comparing the answers, submits in sessions).
//! - `grape help-reference` must equal `docs/guide/src/reference/cli.md` (`GRAPE_DOCS=write`
//!   rewrites the page), and the example ending every command's `--help` runs too (servers until
//!   they listen).
//!
//! ```` ```python ```` blocks run in `python/tests/test_docs_examples.py`, with the package built;
//! ```` ```rust ```` blocks of the guide are doctests (`src/lib.rs` includes the pages).

#![cfg(all(
    feature = "cli",
    feature = "bolt",
    feature = "mcp",
    feature = "llm",
    feature = "neo4j"
))]

mod common;
mod llm_support;

use llm_support::{Mock, Reply, Seen};
use serde_json::{json, Value as Json};
use std::collections::HashMap;
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One fenced block: the page, its first line, its info string, its text, and the output the
/// page shows for it.
#[derive(Debug)]
struct Block {
    page: PathBuf,
    line: usize,
    lang: String,
    text: String,
    expected: Option<String>,
}

fn pages() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    let mut stack = vec![root().join("docs/guide/src")];
    let mut found = Vec::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                found.push(p);
            }
        }
    }
    found.sort();
    out.extend(found);
    out
}

fn blocks(page: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(page).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<Block> = Vec::new();
    let mut i = 0;
    // Index in `out` of a block whose output may follow (only blank lines between).
    let mut pending: Option<usize> = None;
    while i < lines.len() {
        let l = lines[i];
        if let Some(info) = l.trim_start().strip_prefix("```") {
            let indent = l.len() - l.trim_start().len();
            let lang = info.trim().to_string();
            let start = i + 1;
            let mut j = start;
            while j < lines.len() && !lines[j].trim_start().starts_with("```") {
                j += 1;
            }
            let body: Vec<&str> = lines[start..j]
                .iter()
                .map(|x| x.get(indent..).unwrap_or(x.trim_start()))
                .collect();
            let body = body.join("\n") + "\n";
            if lang == "text" {
                if let Some(k) = pending.take() {
                    out[k].expected = Some(body);
                    i = j + 1;
                    continue;
                }
            }
            out.push(Block {
                page: page.to_path_buf(),
                line: i + 1,
                lang: lang.clone(),
                text: body,
                expected: None,
            });
            pending = (lang == "sh").then_some(out.len() - 1);
            i = j + 1;
            continue;
        }
        if !l.trim().is_empty() {
            pending = None;
        }
        i += 1;
    }
    out
}

/// The features, benches and fuzz targets the cargo shim accepts.
fn cargo_names() -> (Vec<String>, Vec<String>, Vec<String>) {
    let manifest: toml_like::Manifest = toml_like::read(&root().join("Cargo.toml"));
    let fuzz: toml_like::Manifest = toml_like::read(&root().join("fuzz/Cargo.toml"));
    (manifest.features, manifest.benches, fuzz.bins)
}

/// Just enough of Cargo.toml: the feature names and the `[[bench]]` / `[[bin]]` names.
mod toml_like {
    use std::path::Path;

    #[derive(Default)]
    pub struct Manifest {
        pub features: Vec<String>,
        pub benches: Vec<String>,
        pub bins: Vec<String>,
    }

    pub fn read(path: &Path) -> Manifest {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut m = Manifest::default();
        let mut section = String::new();
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with('[') {
                section = t.to_string();
                continue;
            }
            let Some((k, v)) = t.split_once('=') else {
                continue;
            };
            let (k, v) = (k.trim(), v.trim().trim_matches('"'));
            match section.as_str() {
                "[features]" => m.features.push(k.to_string()),
                "[[bench]]" if k == "name" => m.benches.push(v.to_string()),
                "[[bin]]" if k == "name" => m.bins.push(v.to_string()),
                _ => {}
            }
        }
        m
    }
}

const CARGO_SHIM: &str = r#"#!/usr/bin/env bash
# The docs' cargo: `cargo run -- ARGS` runs this build's grape; the steps CI performs itself are
# checked (the features, benches and fuzz targets they name must exist), not repeated.
set -euo pipefail
features=" __FEATURES__ "; benches=" __BENCHES__ "; fuzz=" __FUZZ__ "
check_features() {
  local f
  for f in $(echo "$1" | tr ',' ' '); do
    case "$features" in *" $f "*) ;; *) echo "cargo (docs shim): no feature '$f' in Cargo.toml" >&2; exit 101;; esac
  done
}
args=("$@"); toolchain=""
if [[ "${args[0]:-}" == +* ]]; then toolchain="${args[0]}"; args=("${args[@]:1}"); fi
sub="${args[0]:-}"; rest=("${args[@]:1}")
case "$sub" in
  run)
    i=0
    while [ $i -lt ${#rest[@]} ]; do
      a="${rest[$i]}"
      case "$a" in
        --) exec grape "${rest[@]:$((i+1))}";;
        --features|-F) i=$((i+1)); check_features "${rest[$i]}";;
        --features=*) check_features "${a#--features=}";;
        --release|--all-features|-q|--quiet) ;;
        --bin) i=$((i+1));;
        *) echo "cargo (docs shim): unexpected '$a' in cargo run" >&2; exit 101;;
      esac
      i=$((i+1))
    done
    exec grape;;
  build|install|test|bench|doc|clippy|fmt)
    i=0
    while [ $i -lt ${#rest[@]} ]; do
      a="${rest[$i]}"
      case "$a" in
        --features|-F) i=$((i+1)); check_features "${rest[$i]}";;
        --features=*) check_features "${a#--features=}";;
        --bench) i=$((i+1)); case "$benches" in *" ${rest[$i]} "*) ;; *) echo "cargo (docs shim): no bench '${rest[$i]}'" >&2; exit 101;; esac;;
        --) break;;
      esac
      i=$((i+1))
    done
    echo "(cargo $sub: CI runs this step itself)" >&2;;
  fuzz)
    if [ "${rest[0]:-}" = run ]; then
      case "$fuzz" in *" ${rest[1]:-} "*) ;; *) echo "cargo (docs shim): no fuzz target '${rest[1]:-}'" >&2; exit 101;; esac
    fi
    echo "(cargo $toolchain fuzz: needs a nightly toolchain; the fuzz targets are built by CI's clippy)" >&2;;
  *) echo "cargo (docs shim): '$sub' is not a step the docs may use" >&2; exit 101;;
esac
"#;

const STEP_SHIM: &str = r#"#!/usr/bin/env bash
# The docs' __NAME__: the Python package's build and suite are CI's own step (tests/python_package.rs).
case "$*" in
  "install ./python"*|"develop"*|"python/tests"*) echo "(__NAME__ $*: CI runs this step itself)" >&2;;
  *) echo "__NAME__ (docs shim): '$*' is not a step the docs may use" >&2; exit 101;;
esac
"#;

/// A scratch folder laid out like a checkout, with the shims on PATH.
struct Sandbox {
    dir: PathBuf,
    cwd: PathBuf,
    path: String,
}

fn sandbox(name: &str) -> Sandbox {
    let dir = std::env::temp_dir().join(format!("grape-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cwd = dir.join("grape");
    let bin = dir.join("bin");
    for d in [&cwd.join("target/release"), &bin, &dir.join("home")] {
        std::fs::create_dir_all(d).unwrap();
    }
    let link = |from: &Path, to: &Path| std::os::unix::fs::symlink(from, to).unwrap();
    for d in [
        "corpora",
        "oracle",
        "scripts",
        "tests",
        "python",
        "docs",
        "Cargo.toml",
    ] {
        link(&root().join(d), &cwd.join(d));
    }
    if let Some(shared) = common::shared_dir("docs examples") {
        link(&shared, &dir.join("shared"));
    }
    let exe = Path::new(env!("CARGO_BIN_EXE_grape"));
    link(exe, &cwd.join("target/release/grape"));
    link(exe, &bin.join("grape"));
    let (features, benches, fuzz) = cargo_names();
    let shim = CARGO_SHIM
        .replace("__FEATURES__", &features.join(" "))
        .replace("__BENCHES__", &benches.join(" "))
        .replace("__FUZZ__", &fuzz.join(" "));
    let write_exe = |p: PathBuf, s: &str| {
        std::fs::write(&p, s).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    write_exe(bin.join("cargo"), &shim);
    for name in ["pip", "maturin", "pytest"] {
        write_exe(bin.join(name), &STEP_SHIM.replace("__NAME__", name));
    }
    // The Python that has the driver and the MCP server (what `.ci/run` installs), if any.
    let mut path = bin.display().to_string();
    if let Some(py) = python() {
        if let Some(venv_bin) = py.parent() {
            path = format!("{path}:{}", venv_bin.display());
        }
    }
    path = format!("{path}:{}", std::env::var("PATH").unwrap_or_default());
    Sandbox { dir, cwd, path }
}

fn python() -> Option<PathBuf> {
    let p = std::env::var("GRAPE_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target/pyenv/bin/python"));
    p.exists().then_some(p)
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The stand-ins a block's environment names.
struct World {
    _bolt: Server,
    bolt_uri: String,
    llm: Mock,
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_port(port: u16, child: &mut Child, deadline: Duration) -> bool {
    let t = Instant::now();
    while t.elapsed() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        if let Ok(Some(_)) = child.try_wait() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

fn world() -> World {
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["serve", "bolt", "--graph"])
        .arg(root().join("corpora/demo/graph.json"))
        .args(["--port", &port.to_string(), "--auth", "neo4j:docs-secret"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(
        wait_port(port, &mut child, Duration::from_secs(60)),
        "the stand-in Bolt server did not start"
    );
    World {
        _bolt: Server(child),
        bolt_uri: format!("bolt://127.0.0.1:{port}"),
        llm: demo_model(),
    }
}

/// question → gold query, over every demo dataset.
fn golds() -> HashMap<String, String> {
    let mut m = HashMap::new();
    for f in ["questions.jsonl", "sessions.json", "qa.jsonl"] {
        let p = root().join("corpora/demo").join(f);
        for e in grape::dataset::read_dataset(&p, None).unwrap() {
            m.insert(e.question, e.gold);
        }
    }
    m
}

/// A model that knows the demo corpus: it answers each question with its gold query, as an
/// agent reads the graph through the server's read tool and states the first value, judges by
/// comparing the two answers' words, and in sessions runs then submits the gold query.
fn demo_model() -> Mock {
    let golds = golds();
    let gold_in = move |text: &str| -> String {
        golds
            .iter()
            .filter(|(q, _)| text.contains(q.as_str()))
            .max_by_key(|(q, _)| q.len())
            .map(|(_, g)| g.clone())
            .unwrap_or_else(|| "MATCH (b:Book) RETURN count(b) AS books".into())
    };
    Mock::start(move |n, seen: &Seen| {
        if seen.path.ends_with("/embeddings") {
            let inputs = seen.body["input"].as_array().map_or(1, |a| a.len());
            let data: Vec<Json> = (0..inputs)
                .map(|i| json!({"index": i, "embedding": llm_support::toy_embedding(&format!("{i}"))}))
                .collect();
            return Reply::json(json!({"data": data, "usage": {"prompt_tokens": 1}}));
        }
        let msgs = seen.body["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let system = msgs
            .first()
            .and_then(|m| m["content"].as_str())
            .unwrap_or("")
            .to_string();
        let user = llm_support::last_user(&seen.body);
        if let Some(tools) = seen.body.get("tools").and_then(|t| t.as_array()) {
            let question = msgs
                .iter()
                .find(|m| m["role"] == "user")
                .and_then(|m| m["content"].as_str())
                .unwrap_or("");
            let read = tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str())
                .find(|n| n.contains("read"))
                .unwrap_or("read_neo4j_cypher")
                .to_string();
            let results: Vec<&Json> = msgs.iter().filter(|m| m["role"] == "tool").collect();
            if results.is_empty() {
                return Reply::json(json!({
                    "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                        "role": "assistant", "content": null,
                        "tool_calls": [{"id": "c0", "type": "function", "function": {
                            "name": read,
                            "arguments": json!({"query": gold_in(question)}).to_string()}}]}}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 20}
                }));
            }
            let text = results[0]["content"].as_str().unwrap_or("").to_string();
            return Reply::chat(&format!("According to the database: {text}"));
        }
        if user.contains("Reference answer: ") {
            let (r, c) = llm_support::judged_pair(&seen.body);
            let words = |s: &str| -> Vec<String> {
                s.split(|c: char| !c.is_alphanumeric())
                    .filter(|w| w.len() > 3 || w.chars().all(|c| c.is_ascii_digit()))
                    .map(str::to_lowercase)
                    .collect()
            };
            let (r, c) = (words(&r), words(&c));
            // 1 when the candidate states at least half of the reference's words.
            let shared = r.iter().filter(|w| c.contains(w)).count();
            let score = u8::from(!r.is_empty() && 2 * shared >= r.len());
            return Reply::chat(&format!(
                "{{\"reasoning\": \"compared the values\", \"score\": {score}}}"
            ));
        }
        if system.contains("SUBMIT_ANSWER") {
            let request = msgs
                .iter()
                .rev()
                .filter(|m| m["role"] == "user")
                .find_map(|m| m["content"].as_str())
                .unwrap_or("");
            let gold = gold_in(request);
            let last_is_result = msgs.last().is_some_and(|m| m["role"] == "user")
                && msgs.len() > 2
                && msgs[msgs.len() - 2]["role"] == "assistant";
            let action = if last_is_result {
                json!({"action": "SUBMIT_ANSWER", "query": gold})
            } else {
                json!({"action": "EXECUTE_CYPHER", "query": gold})
            };
            return Reply::chat(&action.to_string());
        }
        if system.starts_with("You turn database results") {
            return Reply::chat("The answer is in the rows.");
        }
        if system.contains("question") && user.contains("(") && !user.contains("Question:") {
            // Dataset generation: a question about the first node the prompt shows.
            return Reply::chat(
                &json!({"question": format!("How many books are there? ({n})"),
                        "cypher": "MATCH (b:Book) RETURN count(b) AS books",
                        "query_type": "Aggregation"})
                .to_string(),
            );
        }
        Reply::chat(&format!("```cypher\n{}\n```", gold_in(&user)))
    })
}

struct Outcome {
    ok: bool,
    stdout: String,
    stderr: String,
}

/// Runs `script` in bash in the sandbox, its process group stopped when it ends or after
/// `limit`.
fn run_sh(sb: &Sandbox, w: &World, script: &str, limit: Duration) -> Outcome {
    let full = format!("set -euo pipefail\n{script}");
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(full)
        .current_dir(&sb.cwd)
        .env("PATH", &sb.path)
        .env("HOME", sb.dir.join("home"))
        .env("GRAPE_SHARED", sb.dir.join("shared"))
        .env("NEO4J_URI", &w.bolt_uri)
        .env("NEO4J_USERNAME", "neo4j")
        .env("NEO4J_PASSWORD", "docs-secret")
        .env_remove("NEO4J_DATABASE")
        .env("OPENAI_BASE_URL", w.llm.base_url())
        .env("OPENAI_API_KEY", "sk-docs")
        .env("ANTHROPIC_BASE_URL", w.llm.base_url())
        .env("ANTHROPIC_API_KEY", "sk-docs")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let pgid = child.id() as i32;
    let (t_out, t_err) = common::drain_output(&mut child);
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > limit {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // Background processes the block started (and the block itself after its time).
    let _ = Command::new("kill")
        .args(["-9", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status();
    let _ = child.wait();
    let stdout = t_out.join().unwrap();
    let mut stderr = t_err.join().unwrap();
    if status.is_none() {
        stderr.push_str(&format!("\n(stopped after {limit:?})"));
    }
    Outcome {
        ok: status.is_some_and(|s| s.success()),
        stdout,
        stderr,
    }
}

/// The `run:` steps of a GitHub Actions workflow block (`jobs:`) as one script; a step marked
/// `continue-on-error: true` may fail, as on GitHub. `None` for other YAML (it is not run).
fn workflow_steps(b: &Block) -> Option<String> {
    if !b.text.lines().any(|l| l.trim_end() == "jobs:") {
        return None;
    }
    let lines: Vec<&str> = b.text.lines().collect();
    let mut script = String::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(cmd) = l.trim_start().strip_prefix("- run: ") else {
            continue;
        };
        let tolerant = lines
            .get(i + 1)
            .is_some_and(|n| n.trim() == "continue-on-error: true");
        script.push_str(cmd.trim());
        script.push_str(if tolerant { " || true\n" } else { "\n" });
    }
    assert!(
        !script.is_empty(),
        "{}:{}: a workflow with no run step",
        rel(&b.page),
        b.line
    );
    Some(script)
}

/// `expected` with `...` lines standing for any run of lines, and `...` within a line for any
/// text (a port, a duration).
fn matches(expected: &str, actual: &str) -> bool {
    fn line(e: &str, a: &str) -> bool {
        let (e, a) = (e.trim_end(), a.trim_end());
        let mut parts = e.split("...");
        let first = parts.next().unwrap_or("");
        let Some(mut rest) = a.strip_prefix(first) else {
            return false;
        };
        let parts: Vec<&str> = parts.collect();
        for (i, p) in parts.iter().enumerate() {
            if i + 1 == parts.len() {
                return rest.ends_with(p);
            }
            match rest.find(p) {
                Some(k) => rest = &rest[k + p.len()..],
                None => return false,
            }
        }
        rest.is_empty()
    }
    fn go(e: &[&str], a: &[&str]) -> bool {
        match e.split_first() {
            None => a.is_empty(),
            Some((&"...", rest)) => (0..=a.len()).any(|k| go(rest, &a[k..])),
            Some((l, rest)) => a.first().is_some_and(|x| line(l, x)) && go(rest, &a[1..]),
        }
    }
    let e: Vec<&str> = expected.trim_end().lines().collect();
    let a: Vec<&str> = actual.trim_end().lines().collect();
    go(&e, &a)
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

#[test]
fn every_shell_block_in_the_readme_and_the_guide_runs() {
    if common::shared_dir("docs examples").is_none() {
        eprintln!("SKIPPED docs examples: ../shared not found (set GRAPE_SHARED)");
        return;
    }
    let w = world();
    let mut failures = Vec::new();
    let mut ran = 0;
    // Blocks that run the official Python driver need the environment `.ci/run` makes.
    let has_python = python().is_some();
    if !has_python && std::env::var("GRAPE_REQUIRE_PY_DRIVER").is_ok() {
        panic!("GRAPE_REQUIRE_PY_DRIVER=1 but no Python environment (GRAPE_PYTHON, target/pyenv)");
    }
    // Blocks that start the Neo4j oracle need Java and Maven, as `.ci/run` requires where they
    // are installed.
    let has_java = ["java", "mvn"].iter().all(|t| {
        Command::new("sh")
            .args(["-c", &format!("command -v {t}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if !has_java && std::env::var("GRAPE_REQUIRE_NEO4J").as_deref() == Ok("1") {
        panic!("GRAPE_REQUIRE_NEO4J=1 but java or mvn is not on PATH");
    }
    for page in pages() {
        let bs: Vec<Block> = blocks(&page)
            .into_iter()
            .filter_map(|b| match b.lang.as_str() {
                "sh" => Some(b),
                "yaml" => workflow_steps(&b).map(|text| Block { text, ..b }),
                _ => None,
            })
            .collect();
        if bs.is_empty() {
            continue;
        }
        let name = rel(&page).replace(['/', '.'], "_");
        let sb = sandbox(&name);
        for b in bs {
            if !has_python && (b.text.contains("python3") || b.text.contains("mcp-neo4j-cypher")) {
                eprintln!(
                    "SKIPPED {}:{}: needs a Python with the neo4j driver and mcp-neo4j-cypher (GRAPE_PYTHON or target/pyenv)",
                    rel(&b.page),
                    b.line
                );
                continue;
            }
            if b.text.contains("scripts/neo4j-oracle") && !has_java {
                eprintln!(
                    "SKIPPED {}:{}: starts the Neo4j oracle, which needs java and mvn",
                    rel(&b.page),
                    b.line
                );
                continue;
            }
            ran += 1;
            let o = run_sh(&sb, &w, &b.text, Duration::from_secs(300));
            let at = format!("{}:{}", rel(&b.page), b.line);
            if !o.ok {
                failures.push(format!(
                    "{at}: the block failed\n--- block\n{}--- stdout\n{}--- stderr\n{}",
                    b.text, o.stdout, o.stderr
                ));
            } else if let Some(e) = &b.expected {
                if !matches(e, &o.stdout) {
                    failures.push(format!(
                        "{at}: the output differs from the page\n--- page\n{e}--- printed\n{}",
                        o.stdout
                    ));
                }
            }
        }
    }
    println!("docs: {ran} shell blocks run");
    assert!(ran > 0, "no shell block found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_cli_reference_is_the_binary_s_help_and_every_help_example_runs() {
    let out = Command::new(env!("CARGO_BIN_EXE_grape"))
        .arg("help-reference")
        .output()
        .unwrap();
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).unwrap();
    let page = root().join("docs/guide/src/reference/cli.md");
    if std::env::var("GRAPE_DOCS").as_deref() == Ok("write") {
        std::fs::write(&page, &generated).unwrap();
    }
    let on_page = std::fs::read_to_string(&page).unwrap_or_default();
    assert!(
        on_page == generated,
        "{} differs from `grape help-reference`: rerun with GRAPE_DOCS=write",
        rel(&page)
    );
    if common::shared_dir("docs examples").is_none() {
        eprintln!("SKIPPED help examples: ../shared not found (set GRAPE_SHARED)");
        return;
    }
    let examples: Vec<String> = generated
        .split("Example:\n  ")
        .skip(1)
        .map(|s| s.lines().next().unwrap().to_string())
        .collect();
    assert!(examples.len() >= 20, "{examples:?}");
    let w = world();
    let sb = sandbox("help");
    let mut failures = Vec::new();
    for ex in &examples {
        let script = match ex.strip_prefix("grape serve ") {
            Some(_) => {
                let port = ex
                    .split("--port ")
                    .nth(1)
                    .and_then(|p| p.split(' ').next())
                    .expect("a server example names its port");
                format!(
                    "{ex} &\nfor i in $(seq 600); do (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null && exit 0; sleep 0.1; done; exit 1"
                )
            }
            None => ex.clone(),
        };
        let o = run_sh(&sb, &w, &script, Duration::from_secs(300));
        if !o.ok {
            failures.push(format!(
                "`{ex}` failed\n--- stdout\n{}--- stderr\n{}",
                o.stdout, o.stderr
            ));
        }
    }
    println!("docs: {} help examples run", examples.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn cypher_blocks_parse() {
    let mut bad = Vec::new();
    for page in pages() {
        for b in blocks(&page).into_iter().filter(|b| b.lang == "cypher") {
            if let Err(e) = grape::syntax::parse(&b.text) {
                bad.push(format!("{}:{}: {e}", rel(&b.page), b.line));
            }
        }
    }
    assert!(bad.is_empty(), "cypher blocks that do not parse: {bad:?}");
}

#[test]
fn json_blocks_are_json() {
    let mut bad = Vec::new();
    for page in pages() {
        for b in blocks(&page).into_iter().filter(|b| b.lang == "json") {
            let ok = serde_json::from_str::<Json>(&b.text).is_ok()
                || b.text
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .all(|l| serde_json::from_str::<Json>(l).is_ok());
            if !ok {
                bad.push(format!("{}:{}", rel(&b.page), b.line));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "blocks marked json that are not JSON (or JSON Lines): {bad:?}"
    );
}

#[test]
fn every_block_is_of_a_kind_that_ci_runs_or_checks() {
    // sh: run here; python: python/tests/test_docs_examples.py; rust: doctests; json: parsed
    // here; yaml: a GitHub workflow whose run steps run here; text: output shown after a block,
    // or a plain illustration (help text, reports).
    let kinds = ["sh", "python", "rust", "json", "text", "cypher", "yaml"];
    let mut bad = Vec::new();
    for page in pages() {
        for b in blocks(&page) {
            let kind = b.lang.split(',').next().unwrap_or("");
            if !kinds.contains(&kind) || (kind == "yaml" && workflow_steps(&b).is_none()) {
                bad.push(format!("{}:{} ({:?})", rel(&b.page), b.line, b.lang));
            }
        }
    }
    assert!(bad.is_empty(), "code blocks of an unchecked kind: {bad:?}");
}

#[test]
fn expected_output_patterns_match_as_documented() {
    assert!(matches("a\n...\nd", "a\nb\nc\nd"));
    assert!(matches("port ...", "port 7687"));
    assert!(matches("in ... s on ... (x)", "in 4.1 s on bolt://h:1 (x)"));
    assert!(!matches(
        "in ... s on ... (x)",
        "in 4.1 s on bolt://h:1 (y)"
    ));
    assert!(!matches("exact", "exact line"));
    assert!(!matches("a...b...a", "ab"));
}
