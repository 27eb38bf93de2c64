//! Every official Neo4j driver, side by side with Neo4j: the flows applications run (auto-commit
//! queries, every value type both ways, nodes, relationships and paths, explicit and managed
//! transactions with retries and metadata, bookmarks and causal chaining, `neo4j://` routing,
//! results streamed with a fetch size, errors and the driver's exception classes, timeouts,
//! notifications and GQL statuses, counters, query types, plans and profiles), written once
//! per driver in `tests/driver_flows/` and printed as one line per observation.
//!
//! Drivers: Python 5.28 and 6.4, JavaScript 5.28 and 6.3, Java 5.28 and 6.2, Go v5.28 —
//! installed under `target/drivers` by `tests/driver_flows/setup.sh` (which `.ci/run` calls;
//! `GRAPE_REQUIRE_DRIVERS=1` makes a missing one fail).
//!
//! Each driver's flows run against `grape serve bolt` (in process, on an empty graph) and must
//! print exactly what they print against Neo4j 5.26: recorded in
//! `tests/data/driver_flows/<driver>.txt`, and, where the oracle runs (`GRAPE_NEO4J_URI`, as
//! `.ci/run` sets), run against it live and checked against the record
//! (`GRAPE_DIFFTEST_BLESS=1` records it anew).
#![cfg(feature = "bolt")]

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use grape::bolt::{Config, Server};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One driver: how to run its flows against a server.
struct Driver {
    name: &'static str,
    /// The command, without the server's `URI USER PASSWORD`; `None` when not installed.
    command: Option<Command>,
}

fn drivers() -> Vec<Driver> {
    let d = root().join("target/drivers");
    let flows = root().join("tests/driver_flows");
    let mut out = Vec::new();
    for v in ["5", "6"] {
        let python = d.join(format!("py{v}/bin/python"));
        out.push(Driver {
            name: if v == "5" { "python5" } else { "python6" },
            command: python.is_file().then(|| {
                let mut c = Command::new(&python);
                c.arg(flows.join("flows.py"));
                c
            }),
        });
    }
    for v in ["5", "6"] {
        let dir = d.join(format!("js{v}"));
        out.push(Driver {
            name: if v == "5" {
                "javascript5"
            } else {
                "javascript6"
            },
            command: dir
                .join("node_modules/neo4j-driver/package.json")
                .is_file()
                .then(|| {
                    let mut c = Command::new("node");
                    c.arg(flows.join("flows.mjs")).arg(&dir);
                    c
                }),
        });
    }
    for v in ["5", "6"] {
        let dir = d.join(format!("java{v}"));
        let java = std::fs::read_to_string(dir.join("java")).ok();
        let classpath = std::fs::read_to_string(dir.join("classpath")).ok();
        out.push(Driver {
            name: if v == "5" { "java5" } else { "java6" },
            command: match (java, classpath, dir.join("Flows.class").is_file()) {
                (Some(java), Some(cp), true) => {
                    let mut c = Command::new(java.trim());
                    c.arg("-cp")
                        .arg(format!("{}:{}", cp.trim(), dir.display()))
                        .arg("Flows");
                    Some(c)
                }
                _ => None,
            },
        });
    }
    let go = d.join("go/flows");
    out.push(Driver {
        name: "go5",
        command: go.is_file().then(|| Command::new(&go)),
    });
    out
}

/// The observation lines a run printed (`flow.what: value`), nothing the driver logged.
fn observations(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| {
            l.split_once(": ").is_some_and(|(head, _)| {
                head.contains('.')
                    && head
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            })
        })
        .map(str::to_string)
        .collect()
}

/// Runs the flows with `command` against `uri` as `user`/`password`.
fn run(name: &str, mut command: Command, uri: &str, user: &str, password: &str) -> Vec<String> {
    let mut child = command
        .args([uri, user, password])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{name}: the flows do not start: {e}"));
    // The flows take seconds; a hung driver must not hang the test run.
    let deadline = std::time::Instant::now() + Duration::from_secs(300);
    loop {
        if child.try_wait().ok().flatten().is_some() {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().expect("the flows end");
    let lines = observations(&String::from_utf8_lossy(&o.stdout));
    assert!(
        lines.len() > 50,
        "{name} against {uri} printed {} observations (status {}):\n{}",
        lines.len(),
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    lines
}

fn recorded_path(name: &str) -> PathBuf {
    root().join(format!("tests/data/driver_flows/{name}.txt"))
}

/// What the flows print against Neo4j 5.26: live where the oracle runs (checked against the
/// record, or recorded with `GRAPE_DIFFTEST_BLESS=1`), the record otherwise.
fn neo4j_side(name: &str, flows: impl Fn(&str, &str, &str) -> Vec<String>) -> Vec<String> {
    let path = recorded_path(name);
    let recorded: Vec<String> = std::fs::read_to_string(&path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let (Ok(uri), Ok(auth)) = (
        std::env::var("GRAPE_NEO4J_URI"),
        std::env::var("GRAPE_NEO4J_AUTH"),
    ) else {
        assert!(!recorded.is_empty(), "{} is missing", path.display());
        return recorded;
    };
    let (user, password) = auth
        .split_once(':')
        .expect("GRAPE_NEO4J_AUTH is user:password");
    let live = flows(&uri, user, password);
    if std::env::var("GRAPE_DIFFTEST_BLESS").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut text = format!(
            "# The flows of tests/driver_flows with the {name} driver against Neo4j 5.26 (tests/driver_flows.rs).\n"
        );
        for l in &live {
            text.push_str(l);
            text.push('\n');
        }
        std::fs::write(&path, text).unwrap();
    } else {
        assert_eq!(
            live,
            recorded,
            "{name}: Neo4j's answers differ from {} (GRAPE_DIFFTEST_BLESS=1 records them)",
            path.display()
        );
    }
    live
}

/// The flows against grape's Bolt server (in process, an empty graph, the user neo4j).
fn grape_side(flows: impl Fn(&str, &str, &str) -> Vec<String>) -> Vec<String> {
    let config = Config {
        auth: Some(("neo4j".into(), "foobarbaz".into())),
        ..Default::default()
    };
    let server = Server::bind("127.0.0.1:0", grape::graph::Graph::new(), config)
        .unwrap()
        .spawn();
    let uri = format!("bolt://{}", server.local_addr());
    flows(&uri, "neo4j", "foobarbaz")
}

fn check(name: &str) {
    let Some(driver) = drivers().into_iter().find(|d| d.name == name) else {
        panic!("no driver {name}");
    };
    if driver.command.is_none() {
        if std::env::var("GRAPE_REQUIRE_DRIVERS").as_deref() == Ok("1") {
            panic!("GRAPE_REQUIRE_DRIVERS=1 but the {name} driver is not installed (tests/driver_flows/setup.sh)");
        }
        eprintln!("SKIPPED the {name} driver's flows: not installed (tests/driver_flows/setup.sh)");
        return;
    }
    let command = || {
        drivers()
            .into_iter()
            .find(|d| d.name == name)
            .and_then(|d| d.command)
            .expect("installed")
    };
    let flows = |uri: &str, user: &str, password: &str| run(name, command(), uri, user, password);
    let neo4j = neo4j_side(name, flows);
    let grape = grape_side(flows);
    let differences: Vec<String> = neo4j
        .iter()
        .zip(&grape)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("Neo4j: {a}\ngrape: {b}"))
        .collect();
    assert!(
        differences.is_empty() && neo4j.len() == grape.len(),
        "{name}: {} of {} observations differ ({} on Neo4j, {} on grape):\n{}",
        differences.len(),
        neo4j.len(),
        neo4j.len(),
        grape.len(),
        differences.join("\n")
    );
}

/// Runs one driver at a time: the oracle is shared, and the flows use fixed names.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial(name: &str) {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    check(name);
}

#[test]
fn python_driver_5_flows_equal_neo4j() {
    serial("python5");
}

#[test]
fn python_driver_6_flows_equal_neo4j() {
    serial("python6");
}

#[test]
fn javascript_driver_5_flows_equal_neo4j() {
    serial("javascript5");
}

#[test]
fn javascript_driver_6_flows_equal_neo4j() {
    serial("javascript6");
}

#[test]
fn java_driver_5_flows_equal_neo4j() {
    serial("java5");
}

#[test]
fn java_driver_6_flows_equal_neo4j() {
    serial("java6");
}

#[test]
fn go_driver_flows_equal_neo4j() {
    serial("go5");
}

/// A value as neo4rs hands it over, maps by sorted key, ids left out.
fn bolt_text(v: &neo4rs::BoltType) -> String {
    use neo4rs::BoltType as B;
    let map = |m: &neo4rs::BoltMap| {
        let mut entries: Vec<(String, String)> = m
            .value
            .iter()
            .map(|(k, v)| (k.value.clone(), bolt_text(v)))
            .collect();
        entries.sort();
        let inner: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        format!("{{{}}}", inner.join(", "))
    };
    let list = |l: &neo4rs::BoltList| {
        let inner: Vec<String> = l.value.iter().map(bolt_text).collect();
        format!("[{}]", inner.join(", "))
    };
    match v {
        B::Null(_) => "null".into(),
        B::String(s) => format!("String({:?})", s.value),
        B::Boolean(b) => format!("Boolean({})", b.value),
        B::Integer(i) => format!("Integer({})", i.value),
        B::Float(f) => format!("Float({:?})", f.value),
        B::Map(m) => map(m),
        B::List(l) => list(l),
        B::Bytes(b) => format!("Bytes({:?})", b.value.as_ref()),
        B::Node(n) => {
            let mut labels: Vec<String> = n.labels.value.iter().map(bolt_text).collect();
            labels.sort();
            format!("(:{} {})", labels.join(":"), map(&n.properties))
        }
        B::Relation(r) => format!("[:{} {}]", r.typ.value, map(&r.properties)),
        B::UnboundedRelation(r) => format!("[:{} {}]", r.typ.value, map(&r.properties)),
        B::Path(p) => format!("<path of {} relationships>", p.rels.value.len()),
        other => format!("{other:?}"),
    }
}

fn neo4rs_error(e: &neo4rs::Error) -> String {
    let text = match e {
        neo4rs::Error::Neo4j(n) => format!(
            "Neo4j | {} | {}",
            n.code(),
            n.message().lines().next().unwrap_or_default()
        ),
        // neo4rs 0.8 does not expect a failure after RUN has succeeded: it prints the
        // message's fields (in its map's random order); the code and message are what count.
        other => {
            let text = format!("{other}");
            let field = |key: &str| {
                let tag = format!("\"{key}\" }}: String(BoltString {{ value: \"");
                text.find(&tag).map(|i| {
                    let rest = &text[i + tag.len()..];
                    rest[..rest.find("\" })").unwrap_or(rest.len())].to_string()
                })
            };
            match (field("code"), field("message")) {
                (Some(code), Some(message)) => format!("failure after RUN | {code} | {message}"),
                _ => text,
            }
        }
    };
    // A node's id is the store's, not the flow's.
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("Node(") {
        out.push_str(&rest[..i + 5]);
        rest = &rest[i + 5..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 {
            out.push_str("<id>");
            rest = &rest[digits..];
        }
    }
    out.push_str(rest);
    out
}

/// The flows through neo4rs 0.8 (Bolt 4.x): what it can do of the others'.
async fn neo4rs_flows(uri: &str, user: &str, password: &str) -> Vec<String> {
    use neo4rs::{query, ConfigBuilder, Graph};
    let mut out = Vec::new();
    let mut note =
        |flow: &str, what: &str, value: String| out.push(format!("{flow}.{what}: {value}"));
    let config = ConfigBuilder::default()
        .uri(uri.trim_start_matches("bolt://"))
        .user(user)
        .password(password)
        .fetch_size(50)
        .build()
        .expect("a configuration");
    let g = Graph::connect(config).await.expect("neo4rs connects");
    async fn rows(g: &Graph, q: neo4rs::Query) -> Result<Vec<neo4rs::Row>, neo4rs::Error> {
        let mut stream = g.execute(q).await?;
        let mut out = Vec::new();
        while let Some(r) = stream.next().await? {
            out.push(r);
        }
        Ok(out)
    }
    let value = |r: &neo4rs::Row, k: &str| {
        r.get::<neo4rs::BoltType>(k)
            .map(|v| bolt_text(&v))
            .unwrap_or_else(|e| format!("{e}"))
    };
    // Auto-commit and values both ways.
    let r = rows(&g, query("RETURN 1 AS n, 'a' AS s, null AS z"))
        .await
        .unwrap();
    note(
        "autocommit",
        "record",
        format!(
            "{} {} {}",
            value(&r[0], "n"),
            value(&r[0], "s"),
            value(&r[0], "z")
        ),
    );
    let date = chrono::NaiveDate::from_ymd_opt(2024, 2, 29).unwrap();
    let local = date.and_hms_nano_opt(3, 4, 5, 600_000).unwrap();
    let offset = chrono::FixedOffset::west_opt(5 * 3600).unwrap();
    let params: Vec<(&str, neo4rs::BoltType)> = vec![
        ("bool", true.into()),
        ("int", (-(1i64 << 62)).into()),
        ("float", 1.5f64.into()),
        ("string", "grüße ✓".into()),
        ("list", vec![1i64, 2, 3].into()),
        ("date", date.into()),
        ("localdatetime", local.into()),
        (
            "datetime_offset",
            chrono::DateTime::<chrono::FixedOffset>::from_naive_utc_and_offset(local, offset)
                .into(),
        ),
        ("duration", std::time::Duration::from_secs(90061).into()),
    ];
    for (name, v) in params {
        let q = query("RETURN $v AS v, valueType($v) AS t").param("v", v);
        match rows(&g, q).await {
            Ok(r) => note(
                "values",
                name,
                format!("{} :: {}", value(&r[0], "v"), value(&r[0], "t")),
            ),
            Err(e) => note("values", name, neo4rs_error(&e)),
        }
    }
    let r = rows(
        &g,
        query("RETURN {z: 1, a: 2, m: [1, 2.5]} AS m, [1, 'two'] AS l"),
    )
    .await
    .unwrap();
    note(
        "values",
        "returned",
        format!("{} {}", value(&r[0], "m"), value(&r[0], "l")),
    );
    // Nodes, relationships and paths.
    rows(&g, query("MATCH (n:Flow) DETACH DELETE n"))
        .await
        .unwrap();
    let r = rows(
        &g,
        query(
            "CREATE p = (a:Flow:A {x: 1, tags: ['t']})-[r:R {y: 2.5}]->(b:Flow:B) RETURN a, r, p",
        ),
    )
    .await
    .unwrap();
    note("graph", "node", value(&r[0], "a"));
    note("graph", "relationship", value(&r[0], "r"));
    note("graph", "path", value(&r[0], "p"));
    rows(&g, query("MATCH (n:Flow) DETACH DELETE n"))
        .await
        .unwrap();
    // Explicit transactions.
    let mut tx = g.start_txn().await.unwrap();
    tx.run(query("CREATE (:Flow {k: 'rolled back'})"))
        .await
        .unwrap();
    tx.rollback().await.unwrap();
    let count = |r: Vec<neo4rs::Row>| r[0].get::<i64>("c").unwrap();
    note(
        "tx",
        "after_rollback",
        count(
            rows(&g, query("MATCH (n:Flow) RETURN count(n) AS c"))
                .await
                .unwrap(),
        )
        .to_string(),
    );
    let mut tx = g.start_txn().await.unwrap();
    tx.run(query("CREATE (:Flow {k: 'committed'})"))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    note(
        "tx",
        "after_commit",
        count(
            rows(&g, query("MATCH (n:Flow) RETURN count(n) AS c"))
                .await
                .unwrap(),
        )
        .to_string(),
    );
    rows(&g, query("MATCH (n:Flow) DETACH DELETE n"))
        .await
        .unwrap();
    // Streaming with a fetch size of 50.
    let mut stream = g
        .execute(query("UNWIND range(1, 5000) AS i RETURN i"))
        .await
        .unwrap();
    let (mut n, mut total) = (0, 0i64);
    while let Some(r) = stream.next().await.unwrap() {
        n += 1;
        total += r.get::<i64>("i").unwrap();
    }
    note("streaming", "rows", format!("{n},{total}"));
    // Errors.
    for (name, q) in [
        ("syntax", "SELEC 1"),
        ("unknown_function", "RETURN nosuch.fn(1)"),
        ("unknown_procedure", "CALL nosuch.proc()"),
        ("missing_parameter", "RETURN $nope"),
        ("division_by_zero", "RETURN 1/0"),
        ("undefined_variable", "RETURN x"),
        ("property_type", "CREATE (:Flow {m: {a: 1}})"),
        ("to_integer", "RETURN toInteger([1])"),
    ] {
        match rows(&g, query(q)).await {
            Ok(_) => note("errors", name, "no error".into()),
            Err(e) => note("errors", name, neo4rs_error(&e)),
        }
    }
    out
}

fn neo4rs_run(uri: &str, user: &str, password: &str) -> Vec<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(neo4rs_flows(uri, user, password))
}

/// neo4rs, the Rust driver (a dev-dependency): its flows against Neo4j (recorded, or live) and
/// against grape.
#[test]
fn neo4rs_flows_equal_neo4j() {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let neo4j = neo4j_side("neo4rs", neo4rs_run);
    assert!(neo4j.len() > 20, "neo4rs: {} lines", neo4j.len());
    assert_eq!(grape_side(neo4rs_run), neo4j);
}

#[test]
fn observations_are_the_flow_lines_only() {
    let text =
        "autocommit.keys: ['n']\nDec 05 INFO: Driver created\nerrors.syntax: x: y\nnot a line\n";
    assert_eq!(
        observations(text),
        ["autocommit.keys: ['n']", "errors.syntax: x: y"]
    );
}
