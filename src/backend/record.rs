//! Record the part of a live graph that a dataset's gold queries touch into a fixture that
//! answers them exactly as the live database does, and check a fixture against the live
//! database ([`replay_check`]).
//!
//! How a recording is made ([`record`]):
//!
//! 1. **Provenance.** Each gold query runs on the live database, and so do its provenance
//!    queries: for every `MATCH` / `OPTIONAL MATCH` clause of every `UNION` branch, the query up
//!    to and including that clause (with its `WHERE`) followed by `RETURN *`, every anonymous
//!    node and relationship given a variable. Their rows name every node and relationship the
//!    query binds anywhere — also after `WITH`, aggregation and `LIMIT`, which a provenance of
//!    the leading `MATCH` alone (PSJS's) would miss. Nodes and relationships are stored with all
//!    their labels, types and properties. A positive pattern bound only to real elements matches
//!    in the fixture exactly the rows it matched live, so most queries are reproduced by this
//!    alone.
//! 2. **What a subgraph gets wrong, and the neighbourhoods that fix it.** A query whose answer
//!    depends on what is *not* bound — a `count {}` / `size()` / pattern predicate / pattern
//!    comprehension over a node's neighbours, `NOT (a)-->()`, `exists {}` — is wrong on a partial
//!    neighbourhood: a node recorded for one query but without all its relationships counts too
//!    few of them. `--hops N` stores the full N-hop neighbourhood of every provenance node up
//!    front. Then every query is **replayed on the fixture and compared with its live result**;
//!    for each query that differs, the 1-hop neighbourhoods of its provenance nodes and of the
//!    fixture's nodes carrying a label the query names are added, and all queries are compared
//!    again (adding elements can change another query's answer), for up to `rounds` rounds. The
//!    fidelity the recording reports is measured, not assumed.
//! 3. **Sample.** `--sample M` adds M paths of one or two hops drawn (seeded) round-robin over
//!    the schema's `(start, type, end)` triples — GRAPE's idea of a diverse sample, so that
//!    generated queries exploring other parts of the graph find something.
//!
//! Queries that are not deterministic live (`LIMIT` without `ORDER BY`, `rand()`) can differ
//! from any fixture; they are reported as differing, never hidden.

use super::{Backend, BackendError};
use crate::dataset::Example;
use crate::engine::{NodeSnapshot, Params, RelSnapshot, Table};
use crate::graph::Graph;
use crate::metrics::result::{canon, Canon};
use crate::rng::SplitMix64;
use crate::schema::Schema;
use crate::syntax::{
    parse, print, Clause, Ident, PathChain, PathElement, PathExpr, PrintOptions, Statement,
};
use crate::value::{Entities, NodeId, RelId, Value};
use serde::Serialize;
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How to record.
#[derive(Clone, Debug)]
pub struct RecordOptions {
    /// Store the full neighbourhood, this many hops deep, of every provenance node.
    pub hops: usize,
    /// Extra diverse paths for generated queries.
    pub sample: usize,
    /// Seed of the sample.
    pub seed: u64,
    /// Most replay-and-extend rounds for queries the fixture answers differently.
    pub rounds: usize,
    /// Queries run at once against the live database.
    pub jobs: usize,
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            hops: 0,
            sample: 0,
            seed: 42,
            rounds: 3,
            jobs: 4,
        }
    }
}

/// How a query fared on the fixture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Same columns and rows (in order where the query orders them).
    Agrees,
    /// Different results: what differs.
    Differs(String),
    /// The query fails live (it is left out of the fidelity).
    LiveError(String),
    /// The query runs live but fails on the fixture.
    FixtureError(String),
    /// Not recorded (an updating query, or one grape cannot parse).
    Skipped(String),
}

/// One query's outcome.
#[derive(Clone, Debug, Serialize)]
pub struct QueryOutcome {
    pub id: String,
    pub verdict: Verdict,
    /// Rows live.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live_rows: Option<usize>,
    /// Nodes and relationships its provenance queries bound (0 for replay checks).
    pub provenance_nodes: usize,
    pub provenance_relationships: usize,
}

/// Fidelity: the share of the queries that run live whose fixture results agree.
pub fn fidelity(outcomes: &[QueryOutcome]) -> Option<f64> {
    let counted: Vec<&QueryOutcome> = outcomes
        .iter()
        .filter(|o| !matches!(o.verdict, Verdict::LiveError(_) | Verdict::Skipped(_)))
        .collect();
    if counted.is_empty() {
        return None;
    }
    let agree = counted
        .iter()
        .filter(|o| o.verdict == Verdict::Agrees)
        .count();
    Some(agree as f64 / counted.len() as f64)
}

/// The recorded subgraph: nodes and relationships by their live ids.
#[derive(Clone, Debug, Default)]
pub struct Fixture {
    nodes: BTreeMap<u32, NodeSnapshot>,
    rels: BTreeMap<u32, RelSnapshot>,
}

impl Fixture {
    /// Adds every entity a result mentions; returns the node and relationship ids it mentions.
    fn add(&mut self, t: &Table) -> (BTreeSet<u32>, BTreeSet<u32>) {
        let mut ns = BTreeSet::new();
        let mut rs = BTreeSet::new();
        for (id, snap) in t.nodes() {
            if id.0 < super::FOREIGN_ID_BASE {
                ns.insert(id.0);
                self.nodes.entry(id.0).or_insert_with(|| snap.clone());
            }
        }
        for (id, snap) in t.relationships() {
            if id.0 < super::FOREIGN_ID_BASE {
                rs.insert(id.0);
                self.rels.entry(id.0).or_insert_with(|| snap.clone());
            }
        }
        (ns, rs)
    }

    fn merge(&mut self, other: Fixture) {
        for (k, v) in other.nodes {
            self.nodes.entry(k).or_insert(v);
        }
        for (k, v) in other.rels {
            self.rels.entry(k).or_insert(v);
        }
    }

    /// Relationship endpoints that are not stored yet.
    fn missing_endpoints(&self) -> Vec<u32> {
        let mut out = BTreeSet::new();
        for (_, a, b, _) in self.rels.values() {
            for n in [a.0, b.0] {
                if !self.nodes.contains_key(&n) {
                    out.insert(n);
                }
            }
        }
        out.into_iter().collect()
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    pub fn relationship_count(&self) -> usize {
        self.rels.len()
    }

    /// The fixture as an in-memory graph.
    pub fn graph(&self) -> Graph {
        let mut g = Graph::new();
        let mut ids = std::collections::HashMap::new();
        for (id, (labels, props)) in &self.nodes {
            let labels: Vec<&str> = labels.iter().map(|l| &**l).collect();
            let props = props.iter().map(|(k, v)| (&**k, v.clone())).collect();
            ids.insert(*id, g.add_node(&labels, props));
        }
        for (ty, a, b, props) in self.rels.values() {
            if let (Some(a), Some(b)) = (ids.get(&a.0), ids.get(&b.0)) {
                let props = props.iter().map(|(k, v)| (&**k, v.clone())).collect();
                g.add_relationship(*a, *b, ty, props);
            }
        }
        g
    }

    /// The fixture in grape's JSON fixture format (node and relationship ids are the live ids).
    pub fn to_json(&self) -> Json {
        let empty = Table::default();
        let props = |m: &BTreeMap<Arc<str>, Value>| -> Json {
            Json::Object(
                m.iter()
                    .map(|(k, v)| {
                        (
                            k.to_string(),
                            crate::graph::import::value_to_json(v, &empty),
                        )
                    })
                    .collect(),
            )
        };
        let nodes: Vec<Json> = self
            .nodes
            .iter()
            .map(|(id, (labels, p))| {
                let labels: Vec<&str> = labels.iter().map(|l| &**l).collect();
                json!({"id": id, "labels": labels, "properties": props(p)})
            })
            .collect();
        let rels: Vec<Json> = self
            .rels
            .iter()
            .filter(|(_, (_, a, b, _))| {
                self.nodes.contains_key(&a.0) && self.nodes.contains_key(&b.0)
            })
            .map(|(id, (ty, a, b, p))| {
                json!({"id": id, "start": a.0, "end": b.0, "type": &**ty, "properties": props(p)})
            })
            .collect();
        json!({"nodes": nodes, "relationships": rels})
    }
}

/// The provenance queries of a statement: for every `MATCH` clause of every `UNION` branch, the
/// branch up to and including it, anonymous nodes and relationships named, then `RETURN *`.
pub fn provenance_queries(stmt: &Statement) -> Vec<String> {
    let mut out = Vec::new();
    let branches =
        std::iter::once(&stmt.query.first).chain(stmt.query.unions.iter().map(|u| &u.query));
    for branch in branches {
        let mut fresh = 0usize;
        let mut clauses = branch.clauses.clone();
        for c in &mut clauses {
            if let Clause::Match(m) = c {
                for part in &mut m.pattern {
                    let chain = match &mut part.path {
                        PathExpr::Chain(c) => c,
                        PathExpr::ShortestFunction { chain, .. } => chain,
                    };
                    name_elements(chain, &mut fresh);
                }
            }
        }
        for (i, c) in clauses.iter().enumerate() {
            if !matches!(c, Clause::Match(_)) {
                continue;
            }
            let mut s = stmt.clone();
            s.prefix = None;
            s.query.unions.clear();
            s.query.first.clauses = clauses[..=i].to_vec();
            out.push(format!("{}\nRETURN *", print(&s, &PrintOptions::default())));
        }
    }
    out
}

fn name_elements(chain: &mut PathChain, fresh: &mut usize) {
    let mut name = |span| {
        *fresh += 1;
        Some(Ident {
            name: format!("__rec_{}", *fresh - 1),
            span,
        })
    };
    for el in &mut chain.elements {
        match el {
            PathElement::Node(n) if n.variable.is_none() => n.variable = name(n.span),
            PathElement::Relationship(r) if r.variable.is_none() && r.quantifier.is_none() => {
                r.variable = name(r.span)
            }
            _ => {}
        }
    }
}

/// Whether two results agree: same column names in the same order, same rows (as sequences
/// when `ordered`, else as multisets). Values compare as the EX metric compares them (numbers
/// by value, `1.0` = `1`), except that nodes and relationships compare by content — labels,
/// type, properties and endpoints — since the two databases number them differently.
pub fn same_result(fixture: &Table, live: &Table, ordered: bool) -> Result<(), String> {
    if fixture.columns != live.columns {
        return Err(format!(
            "columns {:?} live, {:?} on the fixture",
            live.columns, fixture.columns
        ));
    }
    if fixture.rows.len() != live.rows.len() {
        return Err(format!(
            "{} rows live, {} on the fixture",
            live.rows.len(),
            fixture.rows.len()
        ));
    }
    let rows = |t: &Table| -> Vec<Vec<Canon>> {
        t.rows
            .iter()
            .map(|r| r.iter().map(|v| content(v, t)).collect())
            .collect()
    };
    let (mut f, mut l) = (rows(fixture), rows(live));
    if !ordered {
        f.sort();
        l.sort();
    }
    match f.iter().zip(&l).position(|(a, b)| a != b) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{} rows on both sides; row {} differs{}",
            live.rows.len(),
            i + 1,
            if ordered { "" } else { " (rows sorted)" }
        )),
    }
}

/// A value's canonical form with nodes and relationships by content.
fn content(v: &Value, e: &dyn Entities) -> Canon {
    let props = |m: BTreeMap<Arc<str>, Value>| {
        Canon::Map(
            m.iter()
                .map(|(k, x)| (k.to_string(), content(x, e)))
                .collect(),
        )
    };
    let node = |n: NodeId| {
        let mut labels: Vec<Canon> = e
            .node_labels(n)
            .iter()
            .map(|l| Canon::Str(l.to_string()))
            .collect();
        labels.sort();
        Canon::Map(vec![
            ("~labels".into(), Canon::List(labels)),
            ("~properties".into(), props(e.node_props(n))),
        ])
    };
    let rel = |r: RelId| {
        let (a, b) = match e.rel_endpoints(r) {
            Some((a, b)) => (node(a), node(b)),
            None => (Canon::Null, Canon::Null),
        };
        Canon::Map(vec![
            (
                "~type".into(),
                Canon::Str(e.rel_type(r).map(|t| t.to_string()).unwrap_or_default()),
            ),
            ("~properties".into(), props(e.rel_props(r))),
            ("~start".into(), a),
            ("~end".into(), b),
        ])
    };
    match v {
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
            Canon::List(out)
        }
        Value::List(items) => Canon::List(items.iter().map(|x| content(x, e)).collect()),
        Value::Map(m) => props(m.clone()),
        other => canon(other, false),
    }
}

struct Recorded {
    live: Option<Table>,
    stmt: Option<Statement>,
    verdict: Option<Verdict>,
    nodes: BTreeSet<u32>,
    rels: BTreeSet<u32>,
}

/// A recording: the fixture, the live schema and each query's outcome.
pub struct Recording {
    pub fixture: Fixture,
    pub schema: Schema,
    pub outcomes: Vec<QueryOutcome>,
    /// Replay-and-extend rounds used.
    pub rounds: usize,
}

impl Recording {
    /// The fixture file: grape's JSON fixture plus a `recording` section (source, options,
    /// per-query outcomes and fidelity). Deterministic for the same live data and options.
    pub fn to_json(&self, source: &str, opts: &RecordOptions) -> Json {
        let mut doc = self.fixture.to_json();
        doc["recording"] = json!({
            "source": source,
            "hops": opts.hops,
            "sample": opts.sample,
            "seed": opts.seed,
            "rounds": self.rounds,
            "fidelity": fidelity(&self.outcomes),
            "queries": self.outcomes,
        });
        doc
    }
}

fn chunks(ids: &[u32]) -> impl Iterator<Item = Params> + '_ {
    ids.chunks(500).map(|c| {
        let mut p = Params::new();
        p.insert(
            "ids".into(),
            Value::List(c.iter().map(|i| Value::Int(*i as i64)).collect()),
        );
        p
    })
}

fn fetch_nodes(live: &dyn Backend, ids: &[u32], fx: &mut Fixture) -> Result<(), BackendError> {
    for p in chunks(ids) {
        let t = live.run("MATCH (n) WHERE id(n) IN $ids RETURN n", &p)?;
        fx.add(&t);
    }
    Ok(())
}

/// Adds the 1-hop neighbourhoods (every relationship and its other end) of `ids`; returns the
/// nodes reached.
fn expand(
    live: &dyn Backend,
    ids: &[u32],
    fx: &mut Fixture,
) -> Result<BTreeSet<u32>, BackendError> {
    let mut reached = BTreeSet::new();
    for p in chunks(ids) {
        let t = live.run(
            "MATCH (n) WHERE id(n) IN $ids MATCH (n)-[r]-(m) RETURN n, r, m",
            &p,
        )?;
        reached.extend(fx.add(&t).0);
    }
    Ok(reached)
}

/// Seeded draws in `0..n` for counts from the database.
struct Rng(SplitMix64);
impl Rng {
    fn below(&mut self, n: i64) -> i64 {
        self.0.below(n.max(0) as usize) as i64
    }
}

/// A label or type as Cypher text (backticks when needed).
fn quote(name: &str) -> String {
    let mut s = String::new();
    crate::syntax::write_name(&mut s, name);
    s
}

fn count(t: &Table) -> i64 {
    t.first_int().unwrap_or(0)
}

fn sample(
    live: &dyn Backend,
    schema: &Schema,
    n: usize,
    seed: u64,
    fx: &mut Fixture,
) -> Result<(), BackendError> {
    let mut rng = Rng(SplitMix64(seed));
    let mut triples: Vec<_> = schema.triples.iter().collect();
    // A seeded shuffle, so the round-robin does not always start with the same triple.
    for i in (1..triples.len()).rev() {
        let j = rng.below(i as i64 + 1) as usize;
        triples.swap(i, j);
    }
    let mut counts: Vec<Option<i64>> = vec![None; triples.len()];
    let mut taken = 0;
    let mut misses = 0;
    let mut i = 0;
    // Paths already stored do not count; give up after many draws find nothing new.
    let mut attempts = 0;
    while taken < n && !triples.is_empty() && misses < triples.len() && attempts < 8 * n + 64 {
        attempts += 1;
        let k = i % triples.len();
        i += 1;
        let t = triples[k];
        let pattern = format!(
            "(a:{})-[r:{}]->(b:{})",
            quote(&t.start),
            quote(&t.rel_type),
            quote(&t.end)
        );
        let c = match counts[k] {
            Some(c) => c,
            None => {
                let c =
                    count(&live.run(&format!("MATCH {pattern} RETURN count(*)"), &Params::new())?);
                counts[k] = Some(c);
                c
            }
        };
        if c == 0 {
            misses += 1;
            continue;
        }
        misses = 0;
        let mut p = Params::new();
        p.insert("k".into(), Value::Int(rng.below(c)));
        let row = live.run(
            &format!("MATCH {pattern} RETURN a, r, b SKIP $k LIMIT 1"),
            &p,
        )?;
        let known = fx.rels.len();
        fx.add(&row);
        if fx.rels.len() == known {
            continue;
        }
        taken += 1;
        // Half the paths go one hop further, from the end node.
        if rng.below(2) == 1 {
            if let Some(Value::Node(b)) = row.rows.first().and_then(|r| r.get(2)) {
                let mut p = Params::new();
                p.insert("id".into(), Value::Int(b.0 as i64));
                let deg = count(&live.run(
                    "MATCH (b) WHERE id(b) = $id MATCH (b)-[r]-() RETURN count(r)",
                    &p,
                )?);
                if deg > 0 {
                    p.insert("k".into(), Value::Int(rng.below(deg)));
                    let t = live.run(
                        "MATCH (b) WHERE id(b) = $id MATCH (b)-[r]-(m) RETURN r, m SKIP $k LIMIT 1",
                        &p,
                    )?;
                    fx.add(&t);
                }
            }
        }
    }
    Ok(())
}

/// Labels of the fixture that the query text names (`:Label`), canonical text.
fn labels_named<'a>(stmt: &Statement, fx: &'a Fixture) -> BTreeSet<&'a str> {
    let text = print(stmt, &PrintOptions::default());
    let mut out = BTreeSet::new();
    for (labels, _) in fx.nodes.values() {
        for l in labels {
            if !out.contains(&**l)
                && (text.contains(&format!(":{l}")) || text.contains(&format!(":`{l}`")))
            {
                out.insert(&**l);
            }
        }
    }
    out
}

fn compare(graph: &Graph, stmt: &Statement, query: &str, live: &Table) -> Verdict {
    match crate::engine::execute_read(
        graph,
        stmt,
        query,
        &Params::new(),
        &crate::engine::Options::default(),
    ) {
        Err(e) => Verdict::FixtureError(e.to_string()),
        Ok(t) => match same_result(&t, live, stmt.orders_rows()) {
            Ok(()) => Verdict::Agrees,
            Err(d) => {
                // Where the query leaves the answer open — rows tied on the sort keys at a
                // LIMIT's cut, rows a LIMIT without ORDER BY keeps — any of them is Neo4j's
                // answer too (`grape difftest`'s comparison).
                let ours = crate::difftest::Side::Rows(Box::new(t));
                let theirs = crate::difftest::Side::Rows(Box::new(live.clone()));
                match crate::difftest::compare(stmt, query, &ours, &theirs) {
                    None => Verdict::Agrees,
                    Some(_) => Verdict::Differs(d),
                }
            }
        },
    }
}

/// Runs `f` over `0..n` on `jobs` threads.
fn parallel<T: Send>(n: usize, jobs: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let out: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, n.max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let v = f(i);
                *out[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
            });
        }
    });
    out.into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// Records the subgraph that `examples`' gold queries touch on `live`.
///
/// A connection failure stops the recording (`Err`); a query that fails live is reported and
/// left out.
pub fn record(
    live: &dyn Backend,
    examples: &[Example],
    opts: &RecordOptions,
) -> Result<Recording, BackendError> {
    let schema = live.schema()?;
    let per_query: Vec<Result<(Recorded, Fixture), BackendError>> =
        parallel(examples.len(), opts.jobs, |i| {
            let q = &examples[i].gold;
            let mut fx = Fixture::default();
            let mut rec = Recorded {
                live: None,
                stmt: None,
                verdict: None,
                nodes: BTreeSet::new(),
                rels: BTreeSet::new(),
            };
            let stmt = match parse(q) {
                Ok(s) => s,
                Err(e) => {
                    rec.verdict = Some(Verdict::Skipped(format!("grape cannot parse it: {e}")));
                    return Ok((rec, fx));
                }
            };
            if crate::engine::is_updating(&stmt) {
                rec.verdict = Some(Verdict::Skipped(
                    "an updating query is not recorded (it would change the live database)".into(),
                ));
                return Ok((rec, fx));
            }
            match live.run(q, &Params::new()) {
                Ok(t) => {
                    rec.live = Some(t);
                }
                Err(e) if e.kind == super::FailureKind::Connection => return Err(e),
                Err(e) => {
                    rec.verdict = Some(Verdict::LiveError(e.message));
                    return Ok((rec, fx));
                }
            }
            for pq in provenance_queries(&stmt) {
                match live.run(&pq, &Params::new()) {
                    Ok(t) => {
                        let (n, r) = fx.add(&t);
                        rec.nodes.extend(n);
                        rec.rels.extend(r);
                    }
                    Err(e) if e.kind == super::FailureKind::Connection => return Err(e),
                    // A prefix Neo4j refuses (rare: e.g. `RETURN *` with nothing in scope) only
                    // loses provenance; the replay check below still judges the query.
                    Err(_) => {}
                }
            }
            if let Some(t) = &rec.live {
                rec.nodes.extend(fx.add(t).0);
            }
            rec.stmt = Some(stmt);
            Ok((rec, fx))
        });
    let mut fixture = Fixture::default();
    let mut recs = Vec::with_capacity(examples.len());
    for r in per_query {
        let (rec, fx) = r?;
        fixture.merge(fx);
        recs.push(rec);
    }
    // Full neighbourhoods, `hops` deep, around every provenance node.
    let mut frontier: Vec<u32> = fixture.nodes.keys().copied().collect();
    for _ in 0..opts.hops {
        let before: BTreeSet<u32> = fixture.nodes.keys().copied().collect();
        let reached = expand(live, &frontier, &mut fixture)?;
        frontier = reached
            .into_iter()
            .filter(|n| !before.contains(n))
            .collect();
    }
    if opts.sample > 0 {
        sample(live, &schema, opts.sample, opts.seed, &mut fixture)?;
    }
    let missing = fixture.missing_endpoints();
    fetch_nodes(live, &missing, &mut fixture)?;

    // Replay, compare, extend what differs.
    let mut rounds = 0;
    let verdicts = loop {
        let graph = fixture.graph();
        let verdicts: Vec<Verdict> = parallel(recs.len(), opts.jobs, |i| {
            let r = &recs[i];
            match (&r.verdict, &r.stmt, &r.live) {
                (Some(v), _, _) => v.clone(),
                (None, Some(s), Some(t)) => compare(&graph, s, &examples[i].gold, t),
                _ => Verdict::Skipped("not run".into()),
            }
        });
        let differing: Vec<usize> = verdicts
            .iter()
            .enumerate()
            .filter(|(_, v)| matches!(v, Verdict::Differs(_) | Verdict::FixtureError(_)))
            .map(|(i, _)| i)
            .collect();
        if differing.is_empty() || rounds >= opts.rounds {
            break verdicts;
        }
        rounds += 1;
        let mut targets = BTreeSet::new();
        for &i in &differing {
            let r = &recs[i];
            targets.extend(r.nodes.iter().copied());
            if let Some(s) = &r.stmt {
                let labels = labels_named(s, &fixture);
                for (id, (ls, _)) in &fixture.nodes {
                    if ls.iter().any(|l| labels.contains(&**l)) {
                        targets.insert(*id);
                    }
                }
            }
        }
        let targets: Vec<u32> = targets.into_iter().collect();
        let reached = expand(live, &targets, &mut fixture)?;
        for &i in &differing {
            recs[i].nodes.extend(reached.iter().copied());
        }
        let missing = fixture.missing_endpoints();
        fetch_nodes(live, &missing, &mut fixture)?;
    };
    let outcomes = recs
        .iter()
        .zip(verdicts)
        .zip(examples)
        .map(|((r, v), ex)| QueryOutcome {
            id: ex.id.clone(),
            verdict: v,
            live_rows: r.live.as_ref().map(|t| t.rows.len()),
            provenance_nodes: r.nodes.len(),
            provenance_relationships: r.rels.len(),
        })
        .collect();
    Ok(Recording {
        fixture,
        schema,
        outcomes,
        rounds,
    })
}

/// Runs every gold query on `live` and on `fixture` and says, per query, whether they agree.
pub fn replay_check(
    live: &dyn Backend,
    fixture: &Graph,
    examples: &[Example],
    jobs: usize,
) -> Result<Vec<QueryOutcome>, BackendError> {
    let results = parallel(examples.len(), jobs, |i| {
        let ex = &examples[i];
        let outcome = |verdict, live_rows| QueryOutcome {
            id: ex.id.clone(),
            verdict,
            live_rows,
            provenance_nodes: 0,
            provenance_relationships: 0,
        };
        let stmt = match parse(&ex.gold) {
            Ok(s) => s,
            Err(e) => {
                return Ok(outcome(
                    Verdict::Skipped(format!("grape cannot parse it: {e}")),
                    None,
                ))
            }
        };
        if crate::engine::is_updating(&stmt) {
            return Ok(outcome(
                Verdict::Skipped("an updating query is not replayed".into()),
                None,
            ));
        }
        match live.run(&ex.gold, &Params::new()) {
            Ok(t) => Ok(outcome(
                compare(fixture, &stmt, &ex.gold, &t),
                Some(t.rows.len()),
            )),
            Err(e) if e.kind == super::FailureKind::Connection => Err(e),
            Err(e) => Ok(outcome(Verdict::LiveError(e.message), None)),
        }
    });
    results.into_iter().collect()
}

/// Node ids a table mentions (for tests).
#[doc(hidden)]
pub fn node_ids(t: &Table) -> BTreeSet<NodeId> {
    t.nodes().map(|(id, _)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Memory;

    #[test]
    fn provenance_queries_cover_every_match() {
        let stmt = parse(
            "MATCH (a:P)-->(b) WITH a, count(b) AS c WHERE c > 1 \
             OPTIONAL MATCH (a)-[:R]->(:Q) RETURN a.name, c \
             UNION MATCH (x) RETURN x.name AS `a.name`, 0 AS c",
        )
        .unwrap();
        let qs = provenance_queries(&stmt);
        assert_eq!(qs.len(), 3);
        assert!(qs[0].contains("(a:P)-[__rec_0]->(b)") && qs[0].ends_with("RETURN *"));
        assert!(qs[1].contains("WITH a, count(b) AS c") && qs[1].contains("OPTIONAL MATCH"));
        assert!(qs[1].contains("-[__rec_1:R]->(__rec_2:Q)"), "{}", qs[1]);
        assert!(qs[2].starts_with("MATCH (x)"));
        for q in &qs {
            parse(q).unwrap();
        }
    }

    fn demo() -> Graph {
        Graph::from_cypher_script(
            "CREATE (a:P {name: 'a'}), (b:P {name: 'b'}), (c:P {name: 'c'}), (x:Q {v: 1}), (y:Q {v: 2}),
             (a)-[:R]->(x), (a)-[:R]->(y), (b)-[:R]->(x), (c)-[:S]->(a)",
        )
        .unwrap()
    }

    fn ex(id: &str, q: &str) -> Example {
        Example {
            id: id.into(),
            gold: q.into(),
            ..Default::default()
        }
    }

    #[test]
    fn counts_over_neighbourhoods_are_reproduced() {
        let live = Memory::new(demo());
        let examples = vec![
            ex("1", "MATCH (p:P {name: 'a'}) RETURN p.name"),
            // Depends on all of c's relationships, which no MATCH binds.
            ex("2", "MATCH (p:P) WHERE p.name IN ['a', 'c'] RETURN p.name, count { (p)-->() } AS n ORDER BY p.name"),
            ex("3", "MATCH (p:P) WHERE NOT (p)-[:R]->() RETURN p.name"),
            ex("4", "MATCH (q:Q)<-[:R]-(p) RETURN q.v, count(p) AS n ORDER BY q.v"),
            ex("5", "MATCH (n:Nope) RETURN n"),
            ex("6", "CREATE (:X)"),
            ex("7", "RETURN 1 +"),
            ex("8", "MATCH (p:P) RETURN p.name, 1 / 0"),
        ];
        let r = record(&live, &examples, &RecordOptions::default()).unwrap();
        let v: Vec<&Verdict> = r.outcomes.iter().map(|o| &o.verdict).collect();
        for i in [0, 1, 2, 3, 4] {
            assert_eq!(v[i], &Verdict::Agrees, "query {}: {:?}", i + 1, v[i]);
        }
        assert!(matches!(v[5], Verdict::Skipped(_)));
        assert!(matches!(v[6], Verdict::Skipped(_)));
        assert!(matches!(v[7], Verdict::LiveError(_)));
        assert_eq!(fidelity(&r.outcomes), Some(1.0));
        assert!(r.rounds >= 1);
        // Without the replay-and-extend rounds, the provenance alone misses c's S relationship.
        let bare = record(
            &live,
            &examples,
            &RecordOptions {
                rounds: 0,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(
            matches!(bare.outcomes[1].verdict, Verdict::Differs(_)),
            "{:?}",
            bare.outcomes[1]
        );
        // The fixture is a part of the live graph, and the file round-trips.
        let text = r.to_json("memory", &RecordOptions::default()).to_string();
        let g = crate::graph::import::parse_json_fixture(&text, "f.json").unwrap();
        assert!(g.node_count() <= 5);
        let again = replay_check(&live, &g, &examples, 2).unwrap();
        assert_eq!(fidelity(&again), Some(1.0));
        // A fixture without the neighbourhoods gets query 2 wrong, and the check says so.
        let mut partial = Graph::new();
        let a = partial.add_node(&["P"], vec![("name", Value::from("a"))]);
        let c = partial.add_node(&["P"], vec![("name", Value::from("c"))]);
        let x = partial.add_node(&["Q"], vec![("v", Value::Int(1))]);
        partial.add_relationship(a, x, "R", vec![]);
        partial.add_relationship(c, a, "T", vec![]);
        let check = replay_check(&live, &partial, &examples[1..2], 1).unwrap();
        assert!(
            matches!(check[0].verdict, Verdict::Differs(_)),
            "{:?}",
            check[0]
        );
        assert_eq!(fidelity(&check), Some(0.0));
    }

    #[test]
    fn hops_and_sample_add_elements_deterministically() {
        let live = Memory::new(demo());
        let examples = vec![ex("1", "MATCH (p:P {name: 'c'}) RETURN p.name")];
        let plain = record(&live, &examples, &RecordOptions::default()).unwrap();
        assert_eq!(plain.fixture.node_count(), 1);
        let hop = record(
            &live,
            &examples,
            &RecordOptions {
                hops: 2,
                ..Default::default()
            },
        )
        .unwrap();
        // c -S-> a -R-> x, y
        assert_eq!(hop.fixture.node_count(), 4);
        assert_eq!(hop.fixture.relationship_count(), 3);
        let opts = RecordOptions {
            sample: 3,
            seed: 7,
            ..Default::default()
        };
        let s1 = record(&live, &examples, &opts).unwrap();
        let s2 = record(&live, &examples, &opts).unwrap();
        assert!(s1.fixture.relationship_count() >= 3);
        assert_eq!(s1.to_json("m", &opts), s2.to_json("m", &opts));
    }
}
