//! The openCypher TCK (`../shared/tck/features`) run on the Neo4j oracle (the oracle issue,
//! b), through the same step reader and checks as grape's run (`tests/tck.rs`):
//!
//! - each scenario on an emptied database (nodes, relationships, indexes and constraints
//!   dropped), its named graph loaded from the TCK's script;
//! - results under the TCK's rules; side effects by comparing the database before and after;
//! - an expected error by its type, from Neo4j's status code (`Neo.ClientError.Statement.
//!   TypeError` is a `TypeError`), and its phase: a compile-time error is one `EXPLAIN`
//!   raises too, a runtime error one it does not. (The TCK's detail, `UnknownFunction` and the
//!   like, has no counterpart in Neo4j's answers.)
//! - scenarios that register test procedures (`there exists a procedure …`) cannot run on a
//!   real Neo4j: they are counted as not run.
//!
//! Neo4j's verdict on each scenario is recorded in `tests/data/tck_neo4j.jsonl`, which
//! `tests/tck.rs` reads without Java: grape must pass every scenario Neo4j passes, and the
//! scenarios it lists as "Neo4j differs" must be ones Neo4j fails. The test run checks every
//! scenario against the oracle (about 80 s) and fails on a verdict the recording does not have;
//! `GRAPE_DIFFTEST_BLESS=1` rewrites the recording.

#![cfg(feature = "neo4j")]

#[path = "tck_support/check.rs"]
mod check;
mod common;
#[path = "tck_support/gherkin.rs"]
mod gherkin;
#[path = "support/oracle.rs"]
mod oracle;
#[path = "tck_support/values.rs"]
mod values;

use check::{compare_result, side_effects, table_of, Snapshot};
use gherkin::Scenario;
use grape::backend::neo4j::Neo4j;
use grape::backend::{Backend, BackendError};
use grape::engine::{Params, Table};
use grape::value::Value;
use std::collections::BTreeMap;
use std::path::Path;
use values::{parse_expected, to_value};

const RECORDED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tck_neo4j.jsonl");

/// Neo4j's verdict on one scenario.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Recorded {
    id: String,
    /// `pass`, `fail` or `not run`.
    neo4j: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    reason: String,
}

enum Outcome {
    /// Passed; for an error scenario, the message Neo4j raised (its first line).
    Pass(Option<String>),
    Fail(String),
    NotRun(String),
}

fn scenarios(tck: &Path) -> Vec<Scenario> {
    gherkin::read_features(&tck.join("features"))
}

fn run(db: &Neo4j, q: &str, params: &Params) -> Result<Table, BackendError> {
    db.run(q, params)
}

/// Empties the database: its data, then any index or constraint a scenario made.
fn empty(db: &Neo4j) -> Result<(), String> {
    let none = Params::new();
    run(db, "MATCH (n) DETACH DELETE n", &none).map_err(|e| e.to_string())?;
    for (show, drop) in [
        ("SHOW CONSTRAINTS YIELD name RETURN name", "DROP CONSTRAINT"),
        (
            "SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name",
            "DROP INDEX",
        ),
    ] {
        let t = run(db, show, &none).map_err(|e| e.to_string())?;
        for r in &t.rows {
            if let Some(name) = r[0].as_str() {
                run(db, &format!("{drop} `{}`", name.replace('`', "``")), &none)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

/// What the database holds, for side effects.
fn snapshot(db: &Neo4j) -> Result<Snapshot, String> {
    let none = Params::new();
    let nodes = run(
        db,
        "MATCH (n) RETURN elementId(n), labels(n), properties(n)",
        &none,
    )
    .map_err(|e| e.to_string())?;
    let rels = run(
        db,
        "MATCH ()-[r]->() RETURN elementId(r), properties(r)",
        &none,
    )
    .map_err(|e| e.to_string())?;
    let props = |v: &Value| -> BTreeMap<String, Value> {
        match v {
            Value::Map(m) => m.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
            _ => BTreeMap::new(),
        }
    };
    let mut s = Snapshot {
        nodes: Default::default(),
        rels: Default::default(),
        labels: Default::default(),
    };
    for r in &nodes.rows {
        let labels: std::collections::BTreeSet<String> = match &r[1] {
            Value::List(ls) => ls
                .iter()
                .filter_map(|l| l.as_str().map(str::to_string))
                .collect(),
            _ => Default::default(),
        };
        s.labels.extend(labels.iter().cloned());
        s.nodes.insert(
            r[0].as_str().unwrap_or("").to_string(),
            (labels, props(&r[2])),
        );
    }
    for r in &rels.rows {
        s.rels
            .insert(r[0].as_str().unwrap_or("").to_string(), props(&r[1]));
    }
    Ok(s)
}

/// Whether Neo4j's status `code` is the TCK's error type `ty`.
fn is_tck_type(code: &str, ty: &str) -> bool {
    let last = code.rsplit('.').next().unwrap_or("");
    match ty {
        "ProcedureError" => matches!(
            last,
            "ProcedureNotFound" | "ProcedureCallFailed" | "ProcedureRegistrationFailed"
        ),
        "ConstraintVerificationFailed" | "ConstraintValidationFailed" => {
            matches!(
                last,
                "ConstraintValidationFailed" | "ConstraintVerificationFailed"
            )
        }
        _ => last == ty,
    }
}

fn run_scenario(db: &Neo4j, sc: &Scenario, tck: &Path) -> Outcome {
    match steps(db, sc, tck) {
        Ok(raised) => Outcome::Pass(raised),
        Err(Stop::Fail(m)) => Outcome::Fail(m),
        Err(Stop::NotRun(m)) => Outcome::NotRun(m),
    }
}

enum Stop {
    Fail(String),
    NotRun(String),
}

impl From<String> for Stop {
    fn from(m: String) -> Stop {
        Stop::Fail(m)
    }
}

impl From<&str> for Stop {
    fn from(m: &str) -> Stop {
        Stop::Fail(m.to_string())
    }
}

/// The first line of an error's message, without Neo4j's position.
fn headline(e: &BackendError) -> String {
    let code = e.code.as_deref().unwrap_or("");
    let m = e
        .message
        .strip_prefix(&format!("{code}: "))
        .unwrap_or(&e.message);
    let first = m.lines().next().unwrap_or("");
    first.split(" (line ").next().unwrap_or(first).to_string()
}

fn steps(db: &Neo4j, sc: &Scenario, tck: &Path) -> Result<Option<String>, Stop> {
    if sc
        .steps
        .iter()
        .any(|s| s.text.starts_with("there exists a procedure "))
    {
        return Err(Stop::NotRun(
            "registers a test procedure, which a real Neo4j cannot".into(),
        ));
    }
    empty(db).map_err(Stop::NotRun)?;
    let mut params = Params::new();
    let mut query = String::new();
    let mut result: Option<Result<Table, BackendError>> = None;
    let mut effects = None;
    let mut raised = None;
    for step in &sc.steps {
        let t = step.text.as_str();
        if t == "an empty graph" || t == "any graph" {
            empty(db).map_err(Stop::NotRun)?;
        } else if let Some(name) = t
            .strip_prefix("the ")
            .and_then(|r| r.strip_suffix(" graph"))
        {
            let path = tck
                .join("graphs/graphs")
                .join(name)
                .join(format!("{name}.cypher"));
            let script =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            run(db, &script, &Params::new()).map_err(|e| format!("loading {name}: {e}"))?;
        } else if t == "having executed:" {
            let q = step.doc.as_deref().ok_or("no doc string")?;
            run(db, q, &params).map_err(|e| format!("setup failed: {e}"))?;
        } else if t == "parameters are:" {
            for row in table_of(step)? {
                let v = parse_expected(&row[1]).and_then(|e| to_value(&e))?;
                params.insert(row[0].clone(), v);
            }
        } else if t == "executing query:" {
            let q = step.doc.as_deref().ok_or("no doc string")?;
            let before = snapshot(db).map_err(Stop::NotRun)?;
            let r = run(db, q, &params);
            let after = snapshot(db).map_err(Stop::NotRun)?;
            effects = Some(side_effects(&before, &after));
            result = Some(r);
            query = q.to_string();
        } else if t == "executing control query:" {
            let q = step.doc.as_deref().ok_or("no doc string")?;
            result = Some(run(db, q, &params));
        } else if let Some(rest) = t.strip_prefix("the result should be") {
            let table = match &result {
                Some(Ok(t)) => t,
                Some(Err(e)) => return Err(format!("query failed: {e}").into()),
                None => return Err("no query ran".into()),
            };
            if rest.trim() == "empty" || rest.trim() == ", empty" {
                if !table.rows.is_empty() {
                    return Err(format!("{} rows, expected none", table.rows.len()).into());
                }
                continue;
            }
            let ordered = rest.contains("in order");
            let unordered_lists = rest.contains("ignoring element order for lists");
            compare_result(table, step, ordered, unordered_lists)?;
        } else if let Some(rest) = t.strip_prefix("a ").or_else(|| t.strip_prefix("an ")) {
            let (ty, after) = rest
                .split_once(" should be raised at ")
                .ok_or("bad error step")?;
            let phase = after.split(':').next().unwrap_or("").trim();
            match &result {
                Some(Err(e)) => {
                    let code = e.code.as_deref().unwrap_or("");
                    if !is_tck_type(code, ty) {
                        return Err(format!("raised {e}; expected {ty}").into());
                    }
                    if phase != "any time" {
                        let compile = run(db, &format!("EXPLAIN {query}"), &params).is_err();
                        if compile != (phase == "compile time") {
                            let when = if compile { "compile time" } else { "runtime" };
                            return Err(format!("raised {e} at {when}; expected {phase}").into());
                        }
                    }
                    raised = Some(headline(e));
                }
                Some(Ok(t)) => {
                    return Err(format!("no error, {} rows; expected {ty}", t.rows.len()).into())
                }
                None => return Err("no query ran".into()),
            }
        } else if t == "the side effects should be:" {
            let got = effects.as_ref().ok_or("no query ran")?;
            let mut want: BTreeMap<String, i64> = BTreeMap::new();
            for row in table_of(step)? {
                want.insert(row[0].clone(), row[1].parse().map_err(|_| "bad count")?);
            }
            for (k, v) in got {
                let w = want.get(*k).copied().unwrap_or(0);
                if *v != w {
                    return Err(format!("side effect {k}: {v}, expected {w}").into());
                }
            }
        } else if t == "no side effects" {
            let got = effects.as_ref().ok_or("no query ran")?;
            if let Some((k, v)) = got.iter().find(|(_, v)| **v != 0) {
                return Err(format!("side effect {k}: {v}, expected none").into());
            }
        } else {
            return Err(format!("unknown step {t:?}").into());
        }
    }
    Ok(raised)
}

fn read_recorded() -> BTreeMap<String, Recorded> {
    std::fs::read_to_string(RECORDED)
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let r: Recorded = serde_json::from_str(l).unwrap();
            (r.id.clone(), r)
        })
        .collect()
}

#[test]
fn tck_on_the_oracle_equals_the_recording() {
    let _g = oracle::ORACLE.lock().unwrap_or_else(|e| e.into_inner());
    let test = "tck_on_the_oracle_equals_the_recording";
    let Some(shared) = common::shared_dir(test) else {
        return;
    };
    let Some(db) = oracle::fresh_oracle(test) else {
        return;
    };
    let tck = shared.join("tck");
    let all = scenarios(&tck);
    let mut live = Vec::new();
    let (mut pass, mut fail, mut not_run) = (0, 0, 0);
    // Every third scenario in the test run (all with GRAPE_ORACLE_FULL=1): `tests/tck.rs`
    // reads the whole recording.
    for sc in all
        .iter()
        .enumerate()
        .filter(|(i, _)| oracle::sampled(*i))
        .map(|(_, sc)| sc)
    {
        let (neo4j, reason) = match run_scenario(&db, sc, &tck) {
            Outcome::Pass(raised) => {
                pass += 1;
                (
                    "pass",
                    raised.map(|m| format!("raised: {m}")).unwrap_or_default(),
                )
            }
            Outcome::Fail(m) => {
                fail += 1;
                ("fail", m)
            }
            Outcome::NotRun(m) => {
                not_run += 1;
                ("not run", m)
            }
        };
        live.push(Recorded {
            id: sc.id.clone(),
            neo4j: neo4j.into(),
            reason: reason
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(300)
                .collect(),
        });
    }
    eprintln!(
        "openCypher TCK on {}: {pass} passed, {fail} failed, {not_run} not run (of {} scenarios)",
        db.server_agent(),
        all.len()
    );
    if std::env::var("GRAPE_DIFFTEST_BLESS").as_deref() == Ok("1") {
        assert!(
            oracle::full(),
            "rewrite the recording from every scenario: GRAPE_ORACLE_FULL=1"
        );
        let mut text = String::new();
        for r in &live {
            text.push_str(&serde_json::to_string(r).unwrap());
            text.push('\n');
        }
        std::fs::write(RECORDED, text).unwrap();
        return;
    }
    let recorded = read_recorded();
    // A verdict is compared, not the wording of a failure (it names ids and timings).
    assert_eq!(recorded.len(), all.len(), "the recording lacks scenarios");
    let stale: Vec<String> = live
        .iter()
        .filter(|r| recorded.get(&r.id).map(|x| &x.neo4j) != Some(&r.neo4j))
        .map(|r| {
            format!(
                "{}: now {} ({}), recorded {:?}",
                r.id,
                r.neo4j,
                r.reason,
                recorded.get(&r.id).map(|x| &x.neo4j)
            )
        })
        .collect();
    assert!(
        stale.is_empty(),
        "the recording is stale (GRAPE_DIFFTEST_BLESS=1 rewrites it):\n{}",
        stale.join("\n")
    );
}
