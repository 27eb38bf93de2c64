//! Statements compared with a Neo4j oracle and recorded: a setup runs on both sides, then each
//! case runs on grape and on Neo4j (rolled back) and the answers are compared as `grape
//! difftest` compares them (columns, rows, error status codes), and error messages word for
//! word (Neo4j's position suffix aside; parser errors by status code only). Neo4j's answers
//! are recorded in a JSON-lines file that a run without Java checks grape against;
//! `GRAPE_DIFFTEST_BLESS=1` rewrites it from the live oracle.

#![allow(dead_code)]

use super::oracle::{fresh, Which, ORACLE};
use grape::backend::Backend;
use grape::difftest::{self, Side};
use grape::engine::{Options, Params};
use grape::graph::Graph;

/// One recorded suite.
pub struct Suite {
    /// What the figures are printed under.
    pub name: &'static str,
    /// The recording's path.
    pub recorded: &'static str,
    pub which: Which,
    /// Statements that build the graph, run on both sides before the cases.
    pub setup: &'static [&'static str],
    pub cases: &'static [&'static str],
    pub params: fn() -> Params,
}

/// The statement a case's answer is judged by (a statement grape cannot parse fails on both
/// sides or differs; its answer is an error, which needs none).
fn statement(q: &str) -> grape::syntax::Statement {
    grape::syntax::parse(q)
        .or_else(|_| grape::syntax::parse("RETURN 1"))
        .expect("a statement")
}

fn grape_graph(suite: &Suite) -> Graph {
    let mut g = Graph::new();
    for s in suite.setup {
        grape::engine::run(&mut g, s, &Params::new()).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    g
}

/// An error's message without Neo4j's position suffix (` (line 1, column 5 (offset: 4))`) and
/// what follows it.
fn message(side: &Side) -> Option<String> {
    match side {
        Side::Failed { message, .. } => {
            let m = message.lines().next().unwrap_or_default();
            let m = m.split(" (line ").next().unwrap_or(m);
            Some(m.trim().to_string())
        }
        Side::Rows(_) => None,
    }
}

/// One recorded answer: the fingerprint `difftest` compares, and an error's message.
fn record(stmt: &grape::syntax::Statement, query: &str, side: &Side) -> serde_json::Value {
    serde_json::json!({
        "query": query,
        "neo4j": difftest::fingerprint(stmt, query, side),
        "message": message(side),
    })
}

/// grape's answer to each case, as recorded.
fn grape_records(suite: &Suite) -> Vec<serde_json::Value> {
    let mut g = grape_graph(suite);
    let p = (suite.params)();
    suite
        .cases
        .iter()
        .map(|q| {
            let stmt = statement(q);
            let side = difftest::run_grape(&mut g, q, &p, &Options::default());
            record(&stmt, q, &side)
        })
        .collect()
}

/// Where grape's answers differ from `recorded`.
fn compare_with(suite: &Suite, recorded: &[serde_json::Value]) -> Vec<String> {
    let mine = grape_records(suite);
    let mut bad = Vec::new();
    for (m, r) in mine.iter().zip(recorded) {
        if m["query"] != r["query"] {
            bad.push(format!("the recording is stale at {}", m["query"]));
            break;
        }
        if m["neo4j"] != r["neo4j"] {
            bad.push(format!(
                "{}\n    grape {} / Neo4j {}",
                m["query"], m["neo4j"], r["neo4j"]
            ));
        } else if m["message"] != r["message"]
            && !r["message"]
                .as_str()
                .is_some_and(|t| t.starts_with("Invalid input '") && t.contains("': expected"))
        {
            // (Parser errors are compared by status code: grape words them its own way, with
            // the line, column and the tokens expected.)
            bad.push(format!(
                "{}\n    grape says {}\n    Neo4j says {}",
                m["query"], m["message"], r["message"]
            ));
        }
    }
    if mine.len() != recorded.len() {
        bad.push(format!(
            "{} cases, {} recorded: rewrite with GRAPE_DIFFTEST_BLESS=1",
            mine.len(),
            recorded.len()
        ));
    }
    bad
}

/// Without Java: grape answers every case as Neo4j answered it when it was recorded.
pub fn equals_recording(suite: &Suite) {
    let text = std::fs::read_to_string(suite.recorded).expect("the recording");
    let recorded: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let bad = compare_with(suite, &recorded);
    eprintln!(
        "{}: {} of {} statements equal to Neo4j's recorded answers",
        suite.name,
        recorded.len().saturating_sub(bad.len()),
        recorded.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Live: Neo4j answers as recorded (`GRAPE_DIFFTEST_BLESS=1` records it anew), and grape
/// equals it.
pub fn equals_live(suite: &Suite, test: &str) {
    let _g = ORACLE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(db) = fresh(suite.which, test) else {
        return;
    };
    for s in suite.setup {
        db.run(s, &Params::new())
            .unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    db.run("CALL db.awaitIndexes(300)", &Params::new())
        .expect("indexes online");
    let p = (suite.params)();
    let theirs: Vec<serde_json::Value> = suite
        .cases
        .iter()
        .map(|q| {
            let stmt = statement(q);
            let side = difftest::Reference::run_rolled_back(&db, q, &p);
            record(&stmt, q, &side)
        })
        .collect();
    let lines: Vec<String> = theirs.iter().map(|v| v.to_string()).collect();
    let text = format!("{}\n", lines.join("\n"));
    if std::env::var("GRAPE_DIFFTEST_BLESS").as_deref() == Ok("1") {
        std::fs::write(suite.recorded, &text).unwrap();
    } else {
        let recorded = std::fs::read_to_string(suite.recorded).unwrap_or_default();
        assert_eq!(
            recorded, text,
            "{} is not what Neo4j answers now: rewrite it with GRAPE_DIFFTEST_BLESS=1",
            suite.recorded
        );
    }
    let bad = compare_with(suite, &theirs);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
