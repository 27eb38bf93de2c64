//! The Graph Data Science procedures agents and GraphRAG code call first, over the in-memory
//! graph, with GDS's names, configuration keys, result columns, errors and values (checked
//! against GDS 2.13 itself on the Neo4j oracle, `tests/engine_gds.rs`):
//!
//! - the graph catalog: `gds.graph.project` (native projections: labels and relationship types
//!   as `'*'`, a name, a list or a map, with each type's `orientation`), `gds.graph.drop`,
//!   `gds.graph.exists`, `gds.graph.list` (the catalog's columns; `memoryUsage` and
//!   `sizeInBytes` measure grape's own projection);
//! - `gds.pageRank.stream`, `gds.degree.stream` and `gds.wcc.stream`, their configuration
//!   checked as GDS checks it (what grape does not run yet — relationship weights, source
//!   nodes, label and type filters — is refused with a clear error);
//! - `gds.list()` (what grape runs of GDS, described in grape's words), `gds.version()` and the
//!   functions `gds.version()` and `gds.util.asNode(nodeId)`.
//!
//! Projections live beside the graph, outside its transactions, as in GDS (one catalog per
//! database, kept by [`Graph::plugin_state`]).

use super::error::{ExecError, Result};
use super::procedures::cols;
use crate::graph::{Dir, Graph};
use crate::value::{NodeId, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

type Rows = (Vec<Arc<str>>, Vec<Vec<Value>>);

/// The GDS release whose behaviour grape follows.
pub(crate) const VERSION: &str = "2.13.9";

/// The GDS procedures grape runs (lower-case).
pub(crate) const PROCEDURES: &[&str] = &[
    "gds.degree.stream",
    "gds.graph.drop",
    "gds.graph.exists",
    "gds.graph.list",
    "gds.graph.project",
    "gds.list",
    "gds.pagerank.stream",
    "gds.version",
    "gds.wcc.stream",
];

/// What `gds.list()` lists: grape's GDS procedures and functions, as GDS spells them, with a
/// line on each in grape's words.
const LISTED: &[(&str, &str, &str)] = &[
    ("gds.degree.stream", "procedure", "Degree centrality: each node's number of relationships in the projection (outgoing by default; incoming or both with `orientation`)."),
    ("gds.graph.drop", "procedure", "Removes a projected graph from the catalog."),
    ("gds.graph.exists", "procedure", "Whether the catalog holds a projected graph of this name."),
    ("gds.graph.list", "procedure", "The catalog's projected graphs, with their sizes, schema and degree distribution."),
    ("gds.graph.project", "procedure", "Projects the graph's nodes of some labels and relationships of some types into the catalog, for the algorithms."),
    ("gds.pageRank.stream", "procedure", "PageRank: the transitive influence of each node, from the ranks of the nodes pointing at it."),
    ("gds.version", "procedure", "The version of the Graph Data Science library grape follows."),
    ("gds.wcc.stream", "procedure", "Weakly connected components: the component of each node, ignoring relationship direction."),
    ("gds.util.asNode", "function", "The node with a given node id, or null."),
    ("gds.version", "function", "The version of the Graph Data Science library grape follows."),
];

/// A projected graph: its nodes (GDS's internal ids are their positions, in node id order) and
/// its relationships as adjacency lists, in the orientation each type was projected with.
#[derive(Debug)]
struct Projection {
    nodes: Vec<NodeId>,
    out: Vec<Vec<usize>>,
    /// The reverse of `out` (for `orientation: 'REVERSE'` in degree centrality).
    into: Vec<Vec<usize>>,
    relationship_count: usize,
    node_projection: Value,
    relationship_projection: Value,
    /// The labels and types the projection names (`__ALL__` for `*`), with each type's
    /// orientation: the graph's schema.
    labels: Vec<String>,
    types: Vec<(String, String)>,
    /// The projection's configuration as GDS reports it (`jobId` included).
    configuration: Value,
    created: Value,
}

impl Projection {
    /// No graph: for the columns of an answer without rows.
    fn empty() -> Projection {
        Projection {
            nodes: Vec::new(),
            out: Vec::new(),
            into: Vec::new(),
            relationship_count: 0,
            node_projection: Value::Null,
            relationship_projection: Value::Null,
            labels: Vec::new(),
            types: Vec::new(),
            configuration: Value::Null,
            created: Value::Null,
        }
    }
}

/// The catalog of one database's projected graphs.
#[derive(Debug, Default)]
struct Catalog(Mutex<BTreeMap<String, Arc<Projection>>>);

fn catalog(g: &Graph) -> Arc<Catalog> {
    g.plugin_state::<Catalog>("gds")
}

fn map(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(
        entries
            .into_iter()
            .map(|(k, v)| (Arc::from(k), v))
            .collect(),
    )
}

fn failed(procedure: &str, cause: impl std::fmt::Display) -> ExecError {
    ExecError::procedure_failed(procedure, cause)
}

fn not_found(procedure: &str, name: &str) -> ExecError {
    failed(
        procedure,
        format!("org.neo4j.gds.core.loading.GraphNotFoundException: Graph with name `{name}` does not exist on database `neo4j`. It might exist on another database."),
    )
}

fn illegal(procedure: &str, why: impl std::fmt::Display) -> ExecError {
    failed(
        procedure,
        format!("java.lang.IllegalArgumentException: {why}"),
    )
}

/// `nodeProjection` as GDS normalises it: `{alias: {label, properties}}` (`'*'` is `__ALL__`).
fn node_projection(procedure: &str, spec: &Value) -> Result<Vec<(String, String)>> {
    let one = |s: &str| {
        if s == "*" {
            ("__ALL__".to_string(), "*".to_string())
        } else {
            (s.to_string(), s.to_string())
        }
    };
    match spec {
        Value::String(s) => Ok(vec![one(s)]),
        Value::List(items) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => Ok(one(s)),
                other => Err(illegal(
                    procedure,
                    format!(
                        "Cannot construct a node projection out of a {}",
                        type_name(other)
                    ),
                )),
            })
            .collect(),
        Value::Map(m) => m
            .iter()
            .map(|(alias, v)| match v {
                Value::String(s) => Ok((alias.to_string(), s.to_string())),
                Value::Map(inner) => Ok((
                    alias.to_string(),
                    inner
                        .get("label")
                        .and_then(Value::as_str)
                        .unwrap_or(alias)
                        .to_string(),
                )),
                other => Err(illegal(
                    procedure,
                    format!(
                        "Cannot construct a node projection out of a {}",
                        type_name(other)
                    ),
                )),
            })
            .collect(),
        other => Err(illegal(
            procedure,
            format!(
                "Cannot construct a node projection out of a {}",
                type_name(other)
            ),
        )),
    }
}

/// A relationship projection: alias, type (`*`: all) and orientation.
struct RelSpec {
    alias: String,
    ty: String,
    orientation: String,
}

fn relationship_projection(procedure: &str, spec: &Value) -> Result<Vec<RelSpec>> {
    let one = |s: &str| RelSpec {
        alias: if s == "*" { "__ALL__".into() } else { s.into() },
        ty: s.into(),
        orientation: "NATURAL".into(),
    };
    let bad = |v: &Value| {
        illegal(
            procedure,
            format!(
                "Cannot construct a relationship projection out of a {}",
                type_name(v)
            ),
        )
    };
    match spec {
        Value::String(s) => Ok(vec![one(s)]),
        Value::List(items) => items
            .iter()
            .map(|i| i.as_str().map(one).ok_or_else(|| bad(i)))
            .collect(),
        Value::Map(m) => m
            .iter()
            .map(|(alias, v)| match v {
                Value::String(s) => Ok(RelSpec {
                    alias: alias.to_string(),
                    ty: s.to_string(),
                    orientation: "NATURAL".into(),
                }),
                Value::Map(inner) => {
                    let orientation = inner
                        .get("orientation")
                        .and_then(Value::as_str)
                        .unwrap_or("NATURAL")
                        .to_ascii_uppercase();
                    if !["NATURAL", "REVERSE", "UNDIRECTED"].contains(&orientation.as_str()) {
                        return Err(illegal(
                            procedure,
                            format!(
                                "Orientation `{}` is not supported. Must be one of: [NATURAL, REVERSE, UNDIRECTED].",
                                inner.get("orientation").and_then(Value::as_str).unwrap_or("")
                            ),
                        ));
                    }
                    Ok(RelSpec {
                        alias: alias.to_string(),
                        ty: inner
                            .get("type")
                            .and_then(Value::as_str)
                            .unwrap_or(alias)
                            .to_string(),
                        orientation,
                    })
                }
                other => Err(bad(other)),
            })
            .collect(),
        other => Err(bad(other)),
    }
}

fn type_name(v: &Value) -> &'static str {
    crate::value::java_type_name(v)
}

fn project(g: &Graph, args: &[Value]) -> Result<Rows> {
    const P: &str = "gds.graph.project";
    let name = match args.first() {
        Some(Value::String(s)) => s.to_string(),
        _ => {
            return Err(illegal(
                P,
                "`graphName` can not be null or blank, but it was `null`",
            ))
        }
    };
    if name.trim().is_empty() {
        return Err(illegal(
            P,
            format!("`graphName` can not be null or blank, but it was `{name}`"),
        ));
    }
    let labels = node_projection(P, args.get(1).unwrap_or(&Value::Null))?;
    let types = relationship_projection(P, args.get(2).unwrap_or(&Value::Null))?;
    let cat = catalog(g);
    let mut graphs = cat.0.lock().unwrap_or_else(|e| e.into_inner());
    if graphs.contains_key(&name) {
        return Err(illegal(
            P,
            format!("A graph with name '{name}' already exists."),
        ));
    }
    let all_labels = labels.iter().any(|(_, l)| l == "*");
    let missing: Vec<String> = labels
        .iter()
        .filter(|(_, l)| l != "*" && !g.labels_in_use().iter().any(|u| &**g.sym_name(*u) == l))
        .map(|(_, l)| format!("'{l}'"))
        .collect();
    if !missing.is_empty() {
        return Err(illegal(
            P,
            format!(
                "Invalid node projection, one or more labels not found: {}",
                missing.join(", ")
            ),
        ));
    }
    let mut nodes: Vec<NodeId> = g
        .node_ids()
        .filter(|n| {
            all_labels || {
                let have = g.labels(*n);
                labels.iter().any(|(_, l)| have.iter().any(|h| &**h == l))
            }
        })
        .collect();
    nodes.sort();
    let index: HashMap<NodeId, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut out = vec![Vec::new(); nodes.len()];
    let mut relationship_count = 0;
    for (i, n) in nodes.iter().enumerate() {
        for (r, m) in g.neighbours(*n, Dir::Outgoing) {
            let Some(&j) = index.get(&m) else { continue };
            let ty = g.rel_type(r).unwrap_or_else(|| Arc::from(""));
            for spec in &types {
                if spec.ty != "*" && *spec.ty != *ty {
                    continue;
                }
                match spec.orientation.as_str() {
                    "NATURAL" => {
                        out[i].push(j);
                        relationship_count += 1;
                    }
                    "REVERSE" => {
                        out[j].push(i);
                        relationship_count += 1;
                    }
                    _ => {
                        out[i].push(j);
                        out[j].push(i);
                        relationship_count += 2;
                    }
                }
            }
        }
    }
    let node_projection = Value::Map(
        labels
            .iter()
            .map(|(alias, label)| {
                (
                    Arc::from(alias.as_str()),
                    map(vec![
                        ("label", Value::from(label.as_str())),
                        ("properties", Value::Map(BTreeMap::new())),
                    ]),
                )
            })
            .collect(),
    );
    let relationship_projection = Value::Map(
        types
            .iter()
            .map(|t| {
                (
                    Arc::from(t.alias.as_str()),
                    map(vec![
                        ("aggregation", Value::from("DEFAULT")),
                        ("indexInverse", Value::Bool(false)),
                        ("orientation", Value::from(t.orientation.as_str())),
                        ("properties", Value::Map(BTreeMap::new())),
                        ("type", Value::from(t.ty.as_str())),
                    ]),
                )
            })
            .collect(),
    );
    let mut into = vec![Vec::new(); nodes.len()];
    for (v, targets) in out.iter().enumerate() {
        for &w in targets {
            into[w].push(v);
        }
    }
    let configuration = map(vec![
        (
            "jobId",
            Value::from(super::functions::random_uuid().as_str()),
        ),
        ("logProgress", Value::Bool(true)),
        ("nodeProjection", node_projection.clone()),
        ("nodeProperties", Value::Map(BTreeMap::new())),
        ("readConcurrency", Value::Int(4)),
        ("relationshipProjection", relationship_projection.clone()),
        ("relationshipProperties", Value::Map(BTreeMap::new())),
        ("sudo", Value::Bool(false)),
        ("validateRelationships", Value::Bool(false)),
    ]);
    let p = Projection {
        nodes,
        out,
        into,
        relationship_count,
        node_projection,
        relationship_projection,
        labels: labels.iter().map(|(a, _)| a.clone()).collect(),
        types: types
            .iter()
            .map(|t| (t.alias.clone(), t.orientation.clone()))
            .collect(),
        configuration,
        created: now_utc(),
    };
    let row = vec![
        p.node_projection.clone(),
        p.relationship_projection.clone(),
        Value::from(name.as_str()),
        Value::Int(p.nodes.len() as i64),
        Value::Int(p.relationship_count as i64),
        Value::Int(0),
    ];
    graphs.insert(name, Arc::new(p));
    Ok((
        cols(&[
            "nodeProjection",
            "relationshipProjection",
            "graphName",
            "nodeCount",
            "relationshipCount",
            "projectMillis",
        ]),
        vec![row],
    ))
}

/// The current time as a UTC `DATETIME`.
fn now_utc() -> Value {
    let now = chrono::Utc::now().naive_utc();
    Value::Temporal(Arc::new(crate::temporal::Temporal::DateTime(
        now,
        0,
        Some(Arc::from("Etc/UTC")),
    )))
}

/// The graph's schema as the catalog reports it: `schema` (types without their direction) or
/// `schemaWithOrientation`.
fn schema(p: &Projection, with_orientation: bool) -> Value {
    let nodes = Value::Map(
        p.labels
            .iter()
            .map(|l| (Arc::from(l.as_str()), Value::Map(BTreeMap::new())))
            .collect(),
    );
    let relationships = Value::Map(
        p.types
            .iter()
            .map(|(t, orientation)| {
                let v = if with_orientation {
                    map(vec![
                        (
                            "direction",
                            Value::from(if orientation == "UNDIRECTED" {
                                "UNDIRECTED"
                            } else {
                                "DIRECTED"
                            }),
                        ),
                        ("properties", Value::Map(BTreeMap::new())),
                    ])
                } else {
                    Value::Map(BTreeMap::new())
                };
                (Arc::from(t.as_str()), v)
            })
            .collect(),
    );
    map(vec![
        ("graphProperties", Value::Map(BTreeMap::new())),
        ("nodes", nodes),
        ("relationships", relationships),
    ])
}

fn density(p: &Projection) -> f64 {
    let n = p.nodes.len() as f64;
    if n > 1.0 {
        p.relationship_count as f64 / (n * (n - 1.0))
    } else {
        0.0
    }
}

/// The bytes the projection holds in grape (its node ids and adjacency lists).
fn size_in_bytes(p: &Projection) -> i64 {
    let lists: usize = p
        .out
        .iter()
        .chain(&p.into)
        .map(|l| l.capacity() * std::mem::size_of::<usize>() + std::mem::size_of::<Vec<usize>>())
        .sum();
    (p.nodes.capacity() * std::mem::size_of::<NodeId>() + lists) as i64
}

/// A size as GDS writes memory (`290 KiB`).
fn human_bytes(b: i64) -> String {
    let units = ["Bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} Bytes")
    } else {
        format!("{} {}", v as i64, units[u])
    }
}

/// The out-degree distribution `gds.graph.list` reports: min, max, mean and percentiles.
fn degree_distribution(p: &Projection) -> Value {
    let mut d: Vec<i64> = p.out.iter().map(|o| o.len() as i64).collect();
    d.sort_unstable();
    let pct = |q: f64| -> Value {
        if d.is_empty() {
            return Value::Int(0);
        }
        // HdrHistogram's count at a percentile: rounded half up, at least one.
        let rank = ((q / 100.0) * d.len() as f64 + 0.5).floor().max(1.0) as usize;
        Value::Int(d[rank.min(d.len()) - 1])
    };
    let mean = if d.is_empty() {
        0.0
    } else {
        d.iter().sum::<i64>() as f64 / d.len() as f64
    };
    map(vec![
        ("max", Value::Int(d.last().copied().unwrap_or(0))),
        ("mean", Value::Float(mean)),
        ("min", Value::Int(d.first().copied().unwrap_or(0))),
        ("p50", pct(50.0)),
        ("p75", pct(75.0)),
        ("p90", pct(90.0)),
        ("p95", pct(95.0)),
        ("p99", pct(99.0)),
        ("p999", pct(99.9)),
    ])
}

/// The catalog columns of `gds.graph.list` (with `degreeDistribution`) and `gds.graph.drop`.
fn catalog_row(name: &str, p: &Projection, listing: bool) -> (Vec<Arc<str>>, Vec<Value>) {
    let mut names = Vec::new();
    let mut row = Vec::new();
    if listing {
        names.push("degreeDistribution");
        row.push(degree_distribution(p));
    }
    // A dropped graph's memory is no longer measured (GDS reports '' and -1).
    let (memory, size) = if listing {
        let b = size_in_bytes(p);
        (Value::from(human_bytes(b).as_str()), Value::Int(b))
    } else {
        (Value::from(""), Value::Int(-1))
    };
    for (k, v) in [
        ("graphName", Value::from(name)),
        ("database", Value::from("neo4j")),
        ("databaseLocation", Value::from("local")),
        ("memoryUsage", memory),
        ("sizeInBytes", size),
        ("nodeCount", Value::Int(p.nodes.len() as i64)),
        ("relationshipCount", Value::Int(p.relationship_count as i64)),
        ("configuration", p.configuration.clone()),
        ("density", Value::Float(density(p))),
        ("creationTime", p.created.clone()),
        ("modificationTime", p.created.clone()),
        ("schema", schema(p, false)),
        ("schemaWithOrientation", schema(p, true)),
    ] {
        names.push(k);
        row.push(v);
    }
    (cols(&names), row)
}

/// Refuses configuration keys an algorithm does not know, as GDS does; refuses with a clear
/// error what grape does not run yet.
fn check_config(procedure: &str, args: &[Value], known: &[&str]) -> Result<()> {
    const COMMON: &[&str] = &[
        "concurrency",
        "jobId",
        "logProgress",
        "sudo",
        "nodeLabels",
        "relationshipTypes",
    ];
    let Some(m) = config(args) else {
        return match args.get(1) {
            None | Some(Value::Null) => Ok(()),
            Some(other) => Err(illegal(
                procedure,
                format!("The configuration must be a map, not {}", type_name(other)),
            )),
        };
    };
    for (k, v) in m {
        if !COMMON.contains(&&**k) && !known.contains(&&**k) {
            return Err(illegal(
                procedure,
                format!("Unexpected configuration key: {k}"),
            ));
        }
        let everything = matches!(v, Value::String(s) if &**s == "*")
            || matches!(v, Value::List(l) if l.len() == 1 && matches!(&l[0], Value::String(s) if &**s == "*"));
        let unsupported = match &**k {
            "nodeLabels" | "relationshipTypes" => !everything,
            "relationshipWeightProperty" | "sourceNodes" | "seedProperty" => {
                !matches!(v, Value::Null)
            }
            "scaler" => !matches!(v, Value::String(s) if s.eq_ignore_ascii_case("none")),
            "consecutiveIds" => matches!(v, Value::Bool(true)),
            _ => false,
        };
        if unsupported {
            return Err(ExecError::compile(
                super::error::ErrorKind::Unsupported,
                format!("{procedure}: grape does not run the configuration `{k}: {v}` yet"),
            ));
        }
    }
    Ok(())
}

fn graph_name(procedure: &str, args: &[Value]) -> Result<String> {
    match args.first() {
        Some(Value::String(s)) => Ok(s.to_string()),
        _ => Err(illegal(
            procedure,
            "`graphName` can not be null or blank, but it was `null`",
        )),
    }
}

fn projected(g: &Graph, procedure: &str, args: &[Value]) -> Result<Arc<Projection>> {
    let name = graph_name(procedure, args)?;
    let cat = catalog(g);
    let graphs = cat.0.lock().unwrap_or_else(|e| e.into_inner());
    graphs
        .get(&name)
        .cloned()
        .ok_or_else(|| not_found(procedure, &name))
}

fn config(args: &[Value]) -> Option<&BTreeMap<Arc<str>, Value>> {
    match args.get(1) {
        Some(Value::Map(m)) => Some(m),
        _ => None,
    }
}

fn float_config(args: &[Value], key: &str, default: f64) -> f64 {
    match config(args).and_then(|m| m.get(key)) {
        Some(Value::Float(f)) => *f,
        Some(Value::Int(i)) => *i as f64,
        _ => default,
    }
}

fn int_config(args: &[Value], key: &str, default: i64) -> i64 {
    match config(args).and_then(|m| m.get(key)) {
        Some(Value::Int(i)) => *i,
        _ => default,
    }
}

/// GDS's PageRank: Pregel supersteps passing rank deltas. Every node starts at `1 - d`; in
/// superstep 0 each sends its rank over its relationships, split evenly; afterwards a node
/// adds `d` times the deltas it received and passes that delta on while it exceeds the
/// tolerance. At most `maxIterations` supersteps.
fn page_rank(p: &Projection, damping: f64, tolerance: f64, max_iterations: i64) -> Vec<f64> {
    let n = p.nodes.len();
    let alpha = 1.0 - damping;
    let mut rank = vec![alpha; n];
    let mut inbox = vec![0.0f64; n];
    let mut received = vec![false; n];
    let mut halted = vec![false; n];
    for step in 0..max_iterations.max(0) {
        let mut next = vec![0.0f64; n];
        let mut next_received = vec![false; n];
        for v in 0..n {
            if step > 0 && halted[v] && !received[v] {
                continue;
            }
            let delta = if step == 0 {
                rank[v]
            } else {
                let d = damping * inbox[v];
                rank[v] += d;
                d
            };
            if step == 0 || delta > tolerance {
                halted[v] = false;
                let degree = p.out[v].len();
                if degree > 0 {
                    let share = delta / degree as f64;
                    for &w in &p.out[v] {
                        next[w] += share;
                        next_received[w] = true;
                    }
                }
            } else {
                halted[v] = true;
            }
        }
        if step > 0 && halted.iter().all(|h| *h) && !next_received.iter().any(|r| *r) {
            break;
        }
        inbox = next;
        received = next_received;
    }
    rank
}

/// Weakly connected components: each node's component is the smallest internal id in it.
fn wcc(p: &Projection) -> Vec<usize> {
    let n = p.nodes.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for v in 0..n {
        for &w in &p.out[v] {
            let (a, b) = (find(&mut parent, v), find(&mut parent, w));
            if a != b {
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                parent[hi] = lo;
            }
        }
    }
    (0..n).map(|v| find(&mut parent, v)).collect()
}

/// Runs one of [`PROCEDURES`] (`lname` lower-case).
pub(crate) fn call(g: &Graph, lname: &str, args: &[Value]) -> Result<Rows> {
    match lname {
        "gds.graph.project" => project(g, args),
        "gds.version" => Ok((cols(&["gdsVersion"]), vec![vec![Value::from(VERSION)]])),
        "gds.list" => {
            let filter = args.first().and_then(Value::as_str).unwrap_or("");
            let rows = LISTED
                .iter()
                .filter(|(name, _, _)| name.contains(filter))
                .map(|(name, kind, description)| {
                    let signature = if *kind == "procedure" {
                        crate::catalogue::procedure(name).map(|p| p.signature_text)
                    } else {
                        crate::catalogue::function(name).map(|f| f.signature_text)
                    };
                    vec![
                        Value::from(*name),
                        Value::from(*description),
                        Value::from(signature.unwrap_or("")),
                        Value::from(*kind),
                    ]
                })
                .collect();
            Ok((cols(&["name", "description", "signature", "type"]), rows))
        }
        "gds.graph.exists" => {
            let name = graph_name("gds.graph.exists", args)?;
            let exists = catalog(g)
                .0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains_key(&name);
            Ok((
                cols(&["graphName", "exists"]),
                vec![vec![Value::from(name.as_str()), Value::Bool(exists)]],
            ))
        }
        "gds.graph.drop" => {
            const P: &str = "gds.graph.drop";
            let name = graph_name(P, args)?;
            let fail_if_missing = !matches!(args.get(1), Some(Value::Bool(false)));
            let removed = catalog(g)
                .0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&name);
            match removed {
                Some(p) => {
                    let (columns, row) = catalog_row(&name, &p, false);
                    Ok((columns, vec![row]))
                }
                None if fail_if_missing => Err(not_found(P, &name)),
                None => Ok((
                    catalog_row(&name, &Projection::empty(), false).0,
                    Vec::new(),
                )),
            }
        }
        "gds.graph.list" => {
            let wanted = args.first().and_then(Value::as_str).map(str::to_string);
            let graphs = catalog(g);
            let graphs = graphs.0.lock().unwrap_or_else(|e| e.into_inner());
            let mut columns = catalog_row("", &Projection::empty(), true).0;
            let mut rows = Vec::new();
            for (name, p) in graphs.iter() {
                if wanted.as_ref().is_some_and(|w| w != name) {
                    continue;
                }
                let (c, row) = catalog_row(name, p, true);
                columns = c;
                rows.push(row);
            }
            Ok((columns, rows))
        }
        "gds.pagerank.stream" => {
            const P: &str = "gds.pageRank.stream";
            let p = projected(g, P, args)?;
            check_config(
                P,
                args,
                &[
                    "dampingFactor",
                    "maxIterations",
                    "tolerance",
                    "sourceNodes",
                    "scaler",
                    "relationshipWeightProperty",
                ],
            )?;
            let ranks = page_rank(
                &p,
                float_config(args, "dampingFactor", 0.85),
                float_config(args, "tolerance", 1e-7),
                int_config(args, "maxIterations", 20),
            );
            Ok((
                cols(&["nodeId", "score"]),
                p.nodes
                    .iter()
                    .zip(ranks)
                    .map(|(n, r)| vec![Value::Int(n.0 as i64), Value::Float(r)])
                    .collect(),
            ))
        }
        "gds.degree.stream" => {
            const P: &str = "gds.degree.stream";
            let p = projected(g, P, args)?;
            check_config(P, args, &["orientation", "relationshipWeightProperty"])?;
            let orientation = config(args)
                .and_then(|m| m.get("orientation"))
                .and_then(Value::as_str)
                .unwrap_or("NATURAL")
                .to_ascii_uppercase();
            let degree = |v: usize| -> usize {
                match orientation.as_str() {
                    "REVERSE" => p.into[v].len(),
                    "UNDIRECTED" => p.out[v].len() + p.into[v].len(),
                    _ => p.out[v].len(),
                }
            };
            if !["NATURAL", "REVERSE", "UNDIRECTED"].contains(&orientation.as_str()) {
                return Err(illegal(
                    P,
                    format!("Orientation `{orientation}` is not supported. Must be one of: [NATURAL, REVERSE, UNDIRECTED]."),
                ));
            }
            Ok((
                cols(&["nodeId", "score"]),
                p.nodes
                    .iter()
                    .enumerate()
                    .map(|(i, n)| vec![Value::Int(n.0 as i64), Value::Float(degree(i) as f64)])
                    .collect(),
            ))
        }
        "gds.wcc.stream" => {
            const P: &str = "gds.wcc.stream";
            let p = projected(g, P, args)?;
            check_config(
                P,
                args,
                &[
                    "seedProperty",
                    "threshold",
                    "consecutiveIds",
                    "relationshipWeightProperty",
                    "minComponentSize",
                ],
            )?;
            let components = wcc(&p);
            Ok((
                cols(&["nodeId", "componentId"]),
                p.nodes
                    .iter()
                    .zip(components)
                    .map(|(n, c)| vec![Value::Int(n.0 as i64), Value::Int(c as i64)])
                    .collect(),
            ))
        }
        other => Err(ExecError::procedure_failed(
            other,
            "not a GDS procedure grape runs",
        )),
    }
}

/// `gds.util.asNode(nodeId)`: the node with that id, or null.
pub(crate) fn as_node(g: &Graph, id: &Value) -> Value {
    match id {
        Value::Int(i) if *i >= 0 && *i <= u32::MAX as i64 => {
            let n = NodeId(*i as u32);
            if g.contains_node(n) {
                Value::Node(n)
            } else {
                Value::Null
            }
        }
        _ => Value::Null,
    }
}
