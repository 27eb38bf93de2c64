//! Differential testing: the same statements on grape's engine and on a reference database
//! holding the same graph (a live Neo4j, fed by [`push`](crate::backend::push)), every
//! difference reported with what each side said.
//!
//! What is compared, in this order:
//!
//! - **Errors.** Both fail: the Neo4j status codes must be equal, and the GQL statuses (the
//!   status and the ones it was caused by, `22G03 ← 22N01`) where the reference sends them
//!   (Bolt 5.7 and later) and is a Neo4j 5, whose statuses grape gives (messages are kept in
//!   the report but not judged). One fails: a difference.
//! - **Columns**, names and order.
//! - **Rows.** A multiset, or — under a final `ORDER BY` — a sequence of groups of rows tied on
//!   the sort keys, each group a multiset. Sort keys that are not columns cannot be seen, so the
//!   groups are those of the leading keys that are. A `SKIP`/`LIMIT` after `ORDER BY` may cut a
//!   tie group anywhere: the first and last groups are compared by size. `LIMIT` without
//!   `ORDER BY` (and `SKIP`) may keep any rows: only the row count is compared.
//! - **Update counters** of a writing statement (which runs in a transaction rolled back on both
//!   sides).
//!
//! Values compare by type and value — an integer is not a float, floats are equal when they
//! agree to 13 significant digits (summation order may change the last bits), lists in order,
//! nodes and relationships by content (labels, type, properties, endpoints) since the two
//! databases number them differently.
//!
//! ```
//! use grape::difftest::{compare, Side};
//! use grape::engine::run_read;
//! use grape::graph::Graph;
//!
//! let g = Graph::from_cypher_script("CREATE (:P {v: 1}), (:P {v: 1}), (:P {v: 2})").unwrap();
//! let q = "MATCH (p:P) RETURN p.v AS v ORDER BY v";
//! let stmt = grape::syntax::parse(q).unwrap();
//! let t = run_read(&g, q, &Default::default(), &Default::default()).unwrap();
//! let same = Side::Rows(Box::new(t.clone()));
//! assert!(compare(&stmt, q, &same, &Side::Rows(Box::new(t))).is_none());
//! ```
//!
//! # Layout
//!
//! - `mod.rs` runs a statement on both sides (`run_grape` rolls grape's writes back with a
//!   savepoint; the `Reference` trait — a live Neo4j, or grape itself — rolls its own back),
//!   compares them (`compare`: status codes, columns, rows as a multiset or as tie groups under a
//!   final `ORDER BY`, cut groups by size, update counters; values typed, floats to 13 digits,
//!   entities by content) and fingerprints an answer the same way (`fingerprint`, for recorded
//!   answers).
//! - `generate.rs` draws statements from a graph's labels, triples and sampled values, and builds
//!   the awkward random graphs; `generate::statements_in` draws Cypher 25 statements with
//!   `GROUP BY`.
//! - `report.rs` writes `difftest.json` and `differences.md`.
//! - `shrink.rs` (`grape difftest --shrink`) cuts a difference down to a small graph by delta
//!   debugging against the reference; `scripts/difftest-generated` runs long generated
//!   differential runs in resumable chunks.
//! - The oracle itself — `oracle/` (Maven: an embedded Neo4j 5.26 Community with APOC core) and
//!   `scripts/neo4j-oracle` — is a test tool outside the crate.

pub mod generate;
pub mod report;
pub mod shrink;

use crate::engine::{ExecError, Options, Params, Stats, Table};
use crate::graph::Graph;
use crate::syntax::{Clause, Expr, Statement};
use crate::value::{Entities, NodeId, RelId, Value};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What one side answered.
#[derive(Clone, Debug)]
pub enum Side {
    Rows(Box<Table>),
    Failed {
        /// Neo4j's status code (`Neo.ClientError.Statement.SyntaxError`).
        code: String,
        message: String,
        /// The GQL statuses, outer first (`["22G03", "22N01"]`); empty where the reference's
        /// protocol carries none (Bolt before 5.7).
        gql: Vec<String>,
    },
}

impl Side {
    /// The outcome of grape's engine.
    pub fn from_grape(r: Result<Table, ExecError>) -> Side {
        match r {
            Ok(t) => Side::Rows(Box::new(t)),
            Err(e) => Side::Failed {
                code: e.code().to_string(),
                message: e.message.clone(),
                gql: gql_codes(&e),
            },
        }
    }

    /// The outcome of a backend (a live database).
    pub fn from_backend(r: Result<Table, crate::backend::BackendError>) -> Side {
        match r {
            Ok(t) => Side::Rows(Box::new(t)),
            Err(e) => Side::Failed {
                gql: e.gql.clone(),
                code: e.code.clone().unwrap_or_else(|| "(none)".into()),
                message: e
                    .message
                    .split_once(": ")
                    .filter(|(c, _)| e.code.as_deref() == Some(*c))
                    .map(|(_, m)| m.to_string())
                    .unwrap_or(e.message.clone()),
            },
        }
    }
}

/// The GQL statuses of grape's error, outer first.
pub fn gql_codes(e: &ExecError) -> Vec<String> {
    let mut out = Vec::new();
    let mut g = Some(e.gql());
    while let Some(status) = g {
        out.push(status.code.to_string());
        g = status.cause.map(|c| *c);
    }
    out
}

/// How two answers differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffKind {
    /// One side failed, the other did not.
    Error,
    /// Both failed, with different status codes.
    ErrorCode,
    /// Both failed with the same status code but different GQL statuses.
    GqlStatus,
    Columns,
    RowCount,
    Rows,
    /// The rows agree but not their order under `ORDER BY`.
    Order,
    Counters,
}

/// A difference, in words.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    pub kind: DiffKind,
    pub detail: String,
}

/// How a statement's rows are compared (from its final `RETURN`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowOrder {
    /// Columns of the leading sort keys that are columns, with their direction.
    pub keys: Vec<usize>,
    /// `ORDER BY` is there (even if none of its keys is a column).
    pub ordered: bool,
    /// `SKIP` or `LIMIT` after the sort (or without one).
    pub cut: bool,
}

/// How the rows of `stmt` (with result `columns`) are to be compared.
pub fn row_order(stmt: &Statement, src: &str, columns: &[String]) -> RowOrder {
    let q = &stmt.query;
    let none = RowOrder {
        keys: vec![],
        ordered: false,
        cut: false,
    };
    if !q.unions.is_empty() {
        return none;
    }
    let Some(ret) = q.final_return() else {
        return none;
    };
    let p = &ret.projection;
    let cut = p.skip.is_some() || p.limit.is_some();
    let mut keys = Vec::new();
    for s in &p.order_by {
        let text = span_text(src, &s.expr).trim();
        let by_name = columns.iter().position(|c| c == text);
        let by_item = || {
            p.items
                .iter()
                .position(|it| it.alias.is_some() && span_text(src, &it.expr).trim() == text)
        };
        match by_name.or_else(by_item) {
            Some(i) => keys.push(i),
            None => break,
        }
    }
    RowOrder {
        keys,
        ordered: !p.order_by.is_empty(),
        cut,
    }
}

fn span_text<'a>(src: &'a str, e: &Expr) -> &'a str {
    src.get(e.span.start..e.span.end).unwrap_or("")
}

/// A cell as it is compared: types kept, floats to 13 significant digits, entities by content.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cell {
    Null,
    Bool(bool),
    Int(i64),
    Float(String),
    Str(String),
    /// Temporal values, points and byte arrays, by their text (which names the type).
    Text(String),
    List(Vec<Cell>),
    Map(Vec<(String, Cell)>),
    Node(Vec<String>, Vec<(String, Cell)>),
    Rel(String, Vec<(String, Cell)>, Box<Cell>, Box<Cell>),
    Path(Vec<Cell>),
}

fn float_text(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 { "Inf" } else { "-Inf" }.into()
    } else if f == 0.0 {
        "0".into()
    } else {
        format!("{f:.12e}")
    }
}

/// The comparable form of a value of table `e`.
pub fn cell(v: &Value, e: &dyn Entities) -> Cell {
    let props = |m: BTreeMap<Arc<str>, Value>| -> Vec<(String, Cell)> {
        m.iter().map(|(k, x)| (k.to_string(), cell(x, e))).collect()
    };
    let node = |n: NodeId| {
        let mut labels: Vec<String> = e.node_labels(n).iter().map(|l| l.to_string()).collect();
        labels.sort();
        Cell::Node(labels, props(e.node_props(n)))
    };
    let rel = |r: RelId| {
        let (a, b) = match e.rel_endpoints(r) {
            Some((a, b)) => (node(a), node(b)),
            None => (Cell::Null, Cell::Null),
        };
        Cell::Rel(
            e.rel_type(r).map(|t| t.to_string()).unwrap_or_default(),
            props(e.rel_props(r)),
            Box::new(a),
            Box::new(b),
        )
    };
    match v {
        Value::Null => Cell::Null,
        Value::Bool(b) => Cell::Bool(*b),
        Value::Int(i) => Cell::Int(*i),
        Value::Float(f) => Cell::Float(float_text(*f)),
        Value::String(s) => Cell::Str(s.to_string()),
        Value::List(xs) => Cell::List(xs.iter().map(|x| cell(x, e)).collect()),
        Value::Map(m) => Cell::Map(props(m.clone())),
        Value::Node(n) => node(*n),
        Value::Relationship(r) => rel(*r),
        Value::Path(p) => {
            let mut out = Vec::with_capacity(p.nodes.len() + p.rels.len());
            for (i, n) in p.nodes.iter().enumerate() {
                out.push(node(*n));
                if let Some(r) = p.rels.get(i) {
                    out.push(rel(*r));
                }
            }
            Cell::Path(out)
        }
        Value::Temporal(_) | Value::Point(_) | Value::Bytes(_) => Cell::Text(v.to_string()),
    }
}

fn cells(t: &Table) -> Vec<Vec<Cell>> {
    t.rows
        .iter()
        .map(|r| r.iter().map(|v| cell(v, t)).collect())
        .collect()
}

/// Groups of consecutive rows equal on `keys`.
fn groups(rows: &[Vec<Cell>], keys: &[usize]) -> Vec<Vec<Vec<Cell>>> {
    let mut out: Vec<Vec<Vec<Cell>>> = Vec::new();
    let key = |r: &Vec<Cell>| keys.iter().map(|&k| r.get(k).cloned()).collect::<Vec<_>>();
    for r in rows {
        match out.last_mut() {
            Some(g) if key(&g[0]) == key(r) => g.push(r.clone()),
            _ => out.push(vec![r.clone()]),
        }
    }
    out
}

fn sorted(mut rows: Vec<Vec<Cell>>) -> Vec<Vec<Cell>> {
    rows.sort();
    rows
}

fn show_row(r: &[Cell]) -> String {
    format!("{r:?}")
}

/// The first row of `a` (as a multiset) missing from `b`.
fn missing(a: &[Vec<Cell>], b: &[Vec<Cell>]) -> Option<Vec<Cell>> {
    let mut count: BTreeMap<&Vec<Cell>, i64> = BTreeMap::new();
    for r in b {
        *count.entry(r).or_default() += 1;
    }
    for r in a {
        let c = count.entry(r).or_default();
        if *c == 0 {
            return Some(r.clone());
        }
        *c -= 1;
    }
    None
}

fn multiset_difference(grape: &[Vec<Cell>], neo: &[Vec<Cell>]) -> Option<Difference> {
    if sorted(grape.to_vec()) == sorted(neo.to_vec()) {
        return None;
    }
    let mut detail = String::new();
    if let Some(r) = missing(neo, grape) {
        detail.push_str(&format!("only in Neo4j: {}", show_row(&r)));
    }
    if let Some(r) = missing(grape, neo) {
        if !detail.is_empty() {
            detail.push_str("; ");
        }
        detail.push_str(&format!("only in grape: {}", show_row(&r)));
    }
    Some(Difference {
        kind: DiffKind::Rows,
        detail,
    })
}

/// The difference between grape's answer and the reference's, or `None` when they agree.
pub fn compare(stmt: &Statement, src: &str, grape: &Side, neo: &Side) -> Option<Difference> {
    let (g, n) = match (grape, neo) {
        (
            Side::Failed {
                code: a, gql: ga, ..
            },
            Side::Failed {
                code: b, gql: gb, ..
            },
        ) => {
            if a != b {
                return Some(Difference {
                    kind: DiffKind::ErrorCode,
                    detail: format!("grape fails with {a}, Neo4j with {b}"),
                });
            }
            // Compared where the reference sent its statuses.
            return (!gb.is_empty() && ga != gb).then(|| Difference {
                kind: DiffKind::GqlStatus,
                detail: format!(
                    "both fail with {a}; GQL status grape {}, Neo4j {}",
                    ga.join(" ← "),
                    gb.join(" ← ")
                ),
            });
        }
        (Side::Failed { code, message, .. }, Side::Rows(t)) => {
            return Some(Difference {
                kind: DiffKind::Error,
                detail: format!(
                    "grape fails with {code} ({message}); Neo4j answers {} rows",
                    t.rows.len()
                ),
            })
        }
        (Side::Rows(t), Side::Failed { code, message, .. }) => {
            return Some(Difference {
                kind: DiffKind::Error,
                detail: format!(
                    "Neo4j fails with {code} ({message}); grape answers {} rows",
                    t.rows.len()
                ),
            })
        }
        (Side::Rows(a), Side::Rows(b)) => (a, b),
    };
    if g.columns != n.columns {
        return Some(Difference {
            kind: DiffKind::Columns,
            detail: format!("grape {:?}, Neo4j {:?}", g.columns, n.columns),
        });
    }
    if g.rows.len() != n.rows.len() {
        return Some(Difference {
            kind: DiffKind::RowCount,
            detail: format!("grape {} rows, Neo4j {}", g.rows.len(), n.rows.len()),
        });
    }
    let order = row_order(stmt, src, &g.columns);
    let (gc, nc) = (cells(g), cells(n));
    let rows_diff = if order.ordered {
        let (gg, ng) = (groups(&gc, &order.keys), groups(&nc, &order.keys));
        let last = gg.len().max(ng.len());
        let mut found = None;
        if gg.len() != ng.len() {
            found = multiset_difference(&gc, &nc).or(Some(Difference {
                kind: DiffKind::Order,
                detail: format!(
                    "the same rows, in {} groups of ties in grape and {} in Neo4j",
                    gg.len(),
                    ng.len()
                ),
            }));
        } else {
            for (i, (a, b)) in gg.iter().zip(&ng).enumerate() {
                let edge = order.cut && (i == 0 || i + 1 == last);
                let d = if edge {
                    (a.len() != b.len()).then(|| Difference {
                        kind: DiffKind::Rows,
                        detail: format!(
                            "tie group {} has {} rows in grape, {} in Neo4j",
                            i + 1,
                            a.len(),
                            b.len()
                        ),
                    })
                } else {
                    multiset_difference(a, b)
                };
                if let Some(mut d) = d {
                    if multiset_difference(&gc, &nc).is_none() {
                        d.kind = DiffKind::Order;
                    }
                    d.detail = format!("in the sort order at tie group {}: {}", i + 1, d.detail);
                    found = Some(d);
                    break;
                }
            }
        }
        found
    } else if order.cut {
        None
    } else {
        multiset_difference(&gc, &nc)
    };
    if rows_diff.is_some() {
        return rows_diff;
    }
    if g.stats != n.stats {
        return Some(Difference {
            kind: DiffKind::Counters,
            detail: format!(
                "grape {}, Neo4j {}",
                stats_text(&g.stats),
                stats_text(&n.stats)
            ),
        });
    }
    None
}

/// A fingerprint of an answer such that two answers to `stmt` have the same one exactly when
/// [`compare`] finds no difference in their rows (the error code for a failure; columns and the
/// rows as [`compare`] sees them: one multiset, the sequence of tie groups under `ORDER BY` with
/// cut edge groups by size, the count alone for a bare `LIMIT`; the counters). Recorded answers of
/// a reference are kept as fingerprints, so a run without the reference still checks grape.
pub fn fingerprint(stmt: &Statement, src: &str, side: &Side) -> String {
    use sha2::Digest;
    let t = match side {
        Side::Failed { code, .. } => return format!("error {code}"),
        Side::Rows(t) => t,
    };
    let order = row_order(stmt, src, &t.columns);
    let rows = cells(t);
    let body = if order.ordered {
        let gs = groups(&rows, &order.keys);
        let last = gs.len();
        let parts: Vec<String> = gs
            .into_iter()
            .enumerate()
            .map(|(i, g)| {
                if order.cut && (i == 0 || i + 1 == last) {
                    format!("#{}", g.len())
                } else {
                    format!("{:?}", sorted(g))
                }
            })
            .collect();
        parts.join("|")
    } else if order.cut {
        format!("#{}", rows.len())
    } else {
        format!("{:?}", sorted(rows))
    };
    let mut h = sha2::Sha256::new();
    h.update(format!("{:?}\n{body}\n{}", t.columns, stats_text(&t.stats)).as_bytes());
    let digest = h.finalize();
    format!(
        "{} rows {}",
        t.rows.len(),
        digest[..12]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}

fn stats_text(s: &Stats) -> String {
    serde_json::to_value(s)
        .ok()
        .and_then(|v| {
            v.as_object().map(|m| {
                m.iter()
                    .filter(|(_, v)| v.as_u64() != Some(0))
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "no updates".into())
}

/// A statement to run on both sides.
#[derive(Clone, Debug, Serialize)]
pub struct Case {
    pub id: String,
    pub query: String,
    #[serde(skip)]
    pub params: Params,
}

/// What happened to one case.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    Equal,
    Differs(Difference),
    /// Not run on either side, and why.
    Skipped {
        reason: String,
    },
}

/// One case's outcome, with what each side answered (for the report).
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    pub id: String,
    pub query: String,
    #[serde(flatten)]
    pub verdict: Verdict,
    pub grape: SideSummary,
    pub neo4j: SideSummary,
    /// A difference shrunk to a small graph ([`shrink::shrink`]), when it was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproduction: Option<shrink::Reproduction>,
}

/// A side's answer as the report shows it: the error, or the columns, the row count, the
/// first rows (grape's JSON value encoding) and the counters.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SideSummary {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    pub rows: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub first_rows: Vec<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counters: Option<String>,
}

/// How many rows of each side a report keeps.
pub const SHOWN_ROWS: usize = 10;

impl SideSummary {
    pub fn of(s: &Side) -> SideSummary {
        match s {
            Side::Failed { code, message, gql } => SideSummary {
                error: Some(BTreeMap::from([
                    ("code".to_string(), code.clone()),
                    ("message".to_string(), message.clone()),
                    ("gql_status".to_string(), gql.join(" ← ")),
                ])),
                ..Default::default()
            },
            Side::Rows(t) => SideSummary {
                error: None,
                columns: t.columns.clone(),
                rows: t.rows.len(),
                first_rows: t
                    .rows
                    .iter()
                    .take(SHOWN_ROWS)
                    .map(|r| {
                        serde_json::Value::Array(
                            r.iter()
                                .map(|v| crate::graph::import::value_to_json(v, &**t))
                                .collect(),
                        )
                    })
                    .collect(),
                counters: (t.stats != Stats::default()).then(|| stats_text(&t.stats)),
            },
        }
    }
}

/// A database that answers statements as the reference: it holds the same graph, and runs
/// each statement so that writes are undone afterwards.
pub trait Reference {
    /// What it is, for the report (`neo4j bolt://127.0.0.1:7687 (Neo4j/5.26.19)`).
    fn describe(&self) -> String;
    /// Runs a statement; writes are rolled back.
    fn run_rolled_back(&self, query: &str, params: &Params) -> Side;
}

#[cfg(feature = "neo4j")]
impl Reference for crate::backend::neo4j::Neo4j {
    fn describe(&self) -> String {
        format!(
            "{} ({})",
            crate::backend::Backend::describe(self),
            self.server_agent()
        )
    }
    fn run_rolled_back(&self, query: &str, params: &Params) -> Side {
        let side = Side::from_backend(crate::backend::neo4j::Neo4j::run_rolled_back(
            self, query, params,
        ));
        // grape's GQL statuses are Neo4j 5's: a server of another line (2025+, whose runtime
        // errors carry statuses of their own) is compared by status code only.
        match side {
            Side::Failed { code, message, .. } if !self.server_agent().starts_with("Neo4j/5.") => {
                Side::Failed {
                    code,
                    message,
                    gql: Vec::new(),
                }
            }
            other => other,
        }
    }
}

/// grape's own engine over a graph as the reference (for testing this module, and for comparing
/// two graphs or two builds of grape).
pub struct GrapeReference {
    pub graph: std::sync::Mutex<Graph>,
    pub options: Options,
}

impl Reference for GrapeReference {
    fn describe(&self) -> String {
        "grape (in memory)".into()
    }
    fn run_rolled_back(&self, query: &str, params: &Params) -> Side {
        let mut g = self.graph.lock().unwrap_or_else(|e| e.into_inner());
        run_grape(&mut g, query, params, &self.options)
    }
}

/// Runs a statement on grape's engine, a write undone afterwards.
pub fn run_grape(g: &mut Graph, query: &str, params: &Params, opts: &Options) -> Side {
    let stmt = match crate::syntax::parse(query) {
        Ok(s) => s,
        Err(e) => {
            return Side::Failed {
                code: "Neo.ClientError.Statement.SyntaxError".into(),
                message: e.to_string(),
                gql: gql_codes(&ExecError::syntax(&e, query)),
            }
        }
    };
    if crate::engine::is_updating(&stmt) {
        let sp = g.savepoint();
        let r = crate::engine::execute(g, &stmt, query, params, opts);
        g.rollback_to(&sp);
        g.release(sp);
        Side::from_grape(r)
    } else {
        Side::from_grape(crate::engine::execute_read(g, &stmt, query, params, opts))
    }
}

/// Why a statement is not run on both sides, if it is not.
pub fn skip_reason(stmt: &Statement, src: &str) -> Option<String> {
    fn in_transactions(q: &crate::syntax::Query, depth: usize) -> bool {
        depth < 64
            && std::iter::once(&q.first)
                .chain(q.unions.iter().map(|u| &u.query))
                .flat_map(|p| &p.clauses)
                .any(|c| {
                    matches!(c, Clause::CallSubquery(s) if s.in_transactions.is_some())
                        || c.subqueries().iter().any(|q| in_transactions(q, depth + 1))
                })
    }
    if in_transactions(&stmt.query, 0) {
        return Some(
            "CALL { … } IN TRANSACTIONS commits on its own: it cannot be rolled back".into(),
        );
    }
    static IDS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let ids = IDS.get_or_init(|| {
        regex::Regex::new(r"(?i)(^|[^\w.`])(id|elementid|apoc\.node\.id)\s*\(").expect("regex")
    });
    static STRINGS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let strings = STRINGS.get_or_init(|| {
        regex::Regex::new(r#"'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*""#).expect("regex")
    });
    if ids.is_match(&strings.replace_all(src, "''")) {
        return Some(
            "reads element ids (id(), elementId()), which the two databases number apart".into(),
        );
    }
    None
}

/// Runs one case on both sides and compares.
pub fn run_case(
    graph: &mut Graph,
    opts: &Options,
    reference: &dyn Reference,
    case: &Case,
) -> Outcome {
    let stmt = crate::syntax::parse(&case.query);
    if let Ok(s) = &stmt {
        if let Some(reason) = skip_reason(s, &case.query) {
            return Outcome {
                id: case.id.clone(),
                query: case.query.clone(),
                verdict: Verdict::Skipped { reason },
                grape: SideSummary::default(),
                neo4j: SideSummary::default(),
                reproduction: None,
            };
        }
    }
    let g = run_grape(graph, &case.query, &case.params, opts);
    let n = reference.run_rolled_back(&case.query, &case.params);
    let verdict = match &stmt {
        Ok(s) => match compare(s, &case.query, &g, &n) {
            None => Verdict::Equal,
            Some(d) => Verdict::Differs(d),
        },
        // grape refused the text; the reference must refuse it too, with the same code.
        Err(_) => match &n {
            Side::Failed { code, .. } if code == "Neo.ClientError.Statement.SyntaxError" => {
                Verdict::Equal
            }
            _ => Verdict::Differs(Difference {
                kind: DiffKind::Error,
                detail: "grape refuses the statement's syntax; Neo4j does not".into(),
            }),
        },
    };
    Outcome {
        id: case.id.clone(),
        query: case.query.clone(),
        verdict,
        grape: SideSummary::of(&g),
        neo4j: SideSummary::of(&n),
        reproduction: None,
    }
}

/// Counts over a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub cases: usize,
    pub equal: usize,
    pub differ: usize,
    pub skipped: usize,
    /// Differences by kind.
    pub by_kind: BTreeMap<String, usize>,
    /// Cases where both sides failed (with the same code).
    pub both_failed: usize,
}

impl Summary {
    pub fn of(outcomes: &[Outcome]) -> Summary {
        let mut s = Summary {
            cases: outcomes.len(),
            ..Default::default()
        };
        for o in outcomes {
            match &o.verdict {
                Verdict::Equal => {
                    s.equal += 1;
                    if o.grape.error.is_some() {
                        s.both_failed += 1;
                    }
                }
                Verdict::Differs(d) => {
                    s.differ += 1;
                    let k = serde_json::to_value(&d.kind)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default();
                    *s.by_kind.entry(k).or_default() += 1;
                }
                Verdict::Skipped { .. } => s.skipped += 1,
            }
        }
        s
    }
}

#[cfg(test)]
mod tests;
