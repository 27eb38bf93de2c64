//! The Graph Data Science procedures agents and GraphRAG code call, over the in-memory graph,
//! with GDS's names, configuration keys, result columns, errors and values (checked against
//! GDS 2.13 itself on the Neo4j oracle, `tests/engine_gds.rs`):
//!
//! - the graph catalog (`catalog.rs`): `gds.graph.project` (native projections: labels and
//!   relationship types as `'*'`, a name, a list or a map, with each type's `orientation` and
//!   numeric `properties`, node `properties`), Cypher projections (the aggregating function
//!   `gds.graph.project` and the legacy `gds.graph.project.cypher`), `gds.graph.drop`,
//!   `gds.graph.exists`, `gds.graph.list` (`memoryUsage` and `sizeInBytes` measure grape's
//!   own projection) and the streams of what a projection holds;
//! - the algorithms (`algo.rs`, KNN in `knn.rs`) in their execution modes (`modes.rs`):
//!   `stream`, `stats`, `mutate` and `write` of PageRank, ArticleRank, degree and betweenness
//!   centrality, weakly connected components, label propagation, Louvain, triangle count,
//!   local clustering coefficient, node similarity, K-nearest neighbours, Dijkstra's shortest
//!   paths (one pair and single source), breadth- and depth-first traversal — GDS's own
//!   procedures (its Pregel supersteps, colourings, random number generator, queues and
//!   order of relationship types), so that ties and approximations fall as in GDS;
//! - `gds.list()` (what grape runs of GDS, described in grape's words), `gds.version()` and the
//!   functions `gds.version()` and `gds.util.asNode(nodeId)`.
//!
//! Projections live beside the graph, outside its transactions, as in GDS (one catalog per
//! database, kept by `Graph::plugin_state`); `mutate` replaces a projection by a copy with
//! the new property or relationship type; `write` changes the graph inside the statement's
//! transaction (GDS writes in transactions of its own).

mod algo;
mod catalog;
mod knn;
mod modes;

use super::error::{ExecError, Result};
use super::procedures::cols;
use crate::graph::Graph;
use crate::value::{NodeId, RelId, Value};
use catalog::{catalog, Projection};
use std::sync::Arc;

type Rows = (Vec<Arc<str>>, Vec<Vec<Value>>);

/// Makes a virtual relationship of a streamed path: start, end, type and its `cost`.
pub(crate) type PathRel<'a> = &'a dyn Fn(NodeId, NodeId, &str, Option<f64>) -> Result<RelId>;

/// Runs a read-only Cypher statement with parameters (Cypher projections' queries).
pub(crate) type Nested<'a> = &'a dyn Fn(&str, &super::Params) -> Result<super::Table>;

/// What the GDS procedures need of the statement running them.
pub(crate) struct Host<'a> {
    /// Checks the statement's deadline and cancellation.
    pub tick: &'a dyn Fn() -> Result<()>,
    pub path_rel: PathRel<'a>,
    pub nested: Nested<'a>,
}

/// The GDS release whose behaviour grape follows.
pub(crate) const VERSION: &str = "2.13.9";

/// A GDS procedure as a CALL is bound to it when compiled ([`resolve`]): each row runs it
/// without looking at its name again.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GdsProc {
    /// An algorithm in one of its modes (`gds.pageRank.stream`).
    Algorithm(&'static modes::Algo, modes::Mode),
    /// `gds.graph.project`: a native projection.
    Project,
    /// `gds.graph.project.cypher`: the legacy Cypher projection.
    ProjectCypher,
    /// A stream of a projection's contents, by the procedure's name as Neo4j spells it
    /// (`gds.graph.nodeProperty.stream`, …).
    Contents(&'static str),
    Drop,
    Exists,
    GraphList,
    List,
    Version,
}

impl std::fmt::Debug for modes::Algo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl GdsProc {
    /// Whether the procedure writes to the graph (an algorithm's `write` mode).
    pub(crate) fn writes(self) -> bool {
        matches!(self, GdsProc::Algorithm(_, modes::Mode::Write))
    }
}

/// Binds the GDS procedure `lname` (lower-case), if grape runs it.
pub(crate) fn resolve(lname: &str) -> Option<GdsProc> {
    if let Some((algo, mode)) = modes::parse(lname) {
        return Some(GdsProc::Algorithm(algo, mode));
    }
    Some(match lname {
        "gds.graph.project" => GdsProc::Project,
        "gds.graph.project.cypher" => GdsProc::ProjectCypher,
        "gds.graph.nodeproperty.stream"
        | "gds.graph.nodeproperties.stream"
        | "gds.graph.relationships.stream"
        | "gds.graph.relationshipproperty.stream"
        | "gds.graph.relationshipproperties.stream" => {
            GdsProc::Contents(crate::catalogue::procedure(lname)?.name)
        }
        "gds.graph.drop" => GdsProc::Drop,
        "gds.graph.exists" => GdsProc::Exists,
        "gds.graph.list" => GdsProc::GraphList,
        "gds.list" => GdsProc::List,
        "gds.version" => GdsProc::Version,
        _ => return None,
    })
}

/// Whether grape runs the GDS procedure `lname` (lower-case).
pub(crate) fn is_procedure(lname: &str) -> bool {
    resolve(lname).is_some()
}

/// What `gds.list()` lists of the catalog: name, kind and a line in grape's words.
const LISTED: &[(&str, &str, &str)] = &[
    ("gds.graph.drop", "procedure", "Removes a projected graph from the catalog."),
    ("gds.graph.exists", "procedure", "Whether the catalog holds a projected graph of this name."),
    ("gds.graph.list", "procedure", "The catalog's projected graphs, with their sizes, schema and degree distribution."),
    ("gds.graph.nodeProperties.stream", "procedure", "Streams node properties of a projected graph (projected or added by an algorithm)."),
    ("gds.graph.nodeProperty.stream", "procedure", "Streams one node property of a projected graph (projected or added by an algorithm)."),
    ("gds.graph.relationshipProperties.stream", "procedure", "Streams relationship properties of a projected graph."),
    ("gds.graph.relationshipProperty.stream", "procedure", "Streams one relationship property of a projected graph."),
    ("gds.graph.relationships.stream", "procedure", "Streams the relationships of a projected graph, by type."),
    ("gds.graph.project", "procedure", "Projects the graph's nodes of some labels and relationships of some types into the catalog, for the algorithms."),
    ("gds.graph.project.cypher", "procedure", "Projects the nodes and relationships two Cypher queries return into the catalog (the legacy Cypher projection)."),
    ("gds.graph.project", "function", "Aggregates source and target nodes (with labels, properties and relationship types) into a projected graph: the Cypher projection."),
    ("gds.version", "procedure", "The version of the Graph Data Science library grape follows."),
    ("gds.util.asNode", "function", "The node with a given node id, or null."),
    ("gds.version", "function", "The version of the Graph Data Science library grape follows."),
];

/// What a mode does, for `gds.list()`'s descriptions.
fn mode_line(mode: modes::Mode) -> &'static str {
    match mode {
        modes::Mode::Stream => "Streams the result.",
        modes::Mode::Stats => "Returns a summary of the result.",
        modes::Mode::Mutate => "Adds the result to the projected graph.",
        modes::Mode::Write => "Writes the result to the database.",
    }
}

/// Refuses, plainly, a configuration grape does not run yet.
fn unsupported(procedure: &str, what: &str) -> ExecError {
    ExecError::compile(
        super::error::ErrorKind::Unsupported,
        format!("{procedure}: grape does not run the configuration `{what}` yet"),
    )
}

fn type_name(v: &Value) -> &'static str {
    crate::value::java_type_name(v)
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

/// A GDS function's failure, as Neo4j words it.
fn failed_function(function: &str, cause: impl std::fmt::Display) -> ExecError {
    ExecError::function_failed(function, cause)
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

/// Runs one of the GDS procedures that only read the graph: the catalog and every mode but
/// `write`.
pub(crate) fn call(g: &Graph, p: GdsProc, args: &[Value], host: &Host) -> Result<Rows> {
    match p {
        GdsProc::Algorithm(algo, mode) => {
            let procedure = format!("gds.{}.{mode}", algo.name);
            Ok(modes::run(g, &procedure, algo, mode, args, host.tick, host.path_rel)?.rows)
        }
        GdsProc::Project => catalog::project(g, args),
        GdsProc::ProjectCypher => catalog::project_cypher(g, args, host),
        GdsProc::Contents(procedure) => {
            let p = projected(g, procedure, args)?;
            catalog::stream_contents(&p, procedure, args)
        }
        GdsProc::Version => Ok((cols(&["gdsVersion"]), vec![vec![Value::from(VERSION)]])),
        GdsProc::List => {
            let filter = args.first().and_then(Value::as_str).unwrap_or("");
            let mut listed: Vec<(String, &str, String)> = LISTED
                .iter()
                .map(|(n, k, d)| (n.to_string(), *k, d.to_string()))
                .collect();
            for a in modes::ALGORITHMS {
                for m in a.modes {
                    listed.push((
                        format!("gds.{}.{m}", a.name),
                        "procedure",
                        format!("{} {}", a.description, mode_line(*m)),
                    ));
                }
            }
            listed.sort_by(|a, b| (a.1 != "procedure", &a.0).cmp(&(b.1 != "procedure", &b.0)));
            let rows = listed
                .iter()
                .filter(|(name, _, _)| name.contains(filter))
                .map(|(name, kind, description)| {
                    let signature = if *kind == "procedure" {
                        crate::catalogue::procedure(name).map(|p| p.signature_text)
                    } else {
                        crate::catalogue::function(name).map(|f| f.signature_text)
                    };
                    vec![
                        Value::from(name.as_str()),
                        Value::from(description.as_str()),
                        Value::from(signature.unwrap_or("")),
                        Value::from(*kind),
                    ]
                })
                .collect();
            Ok((cols(&["name", "description", "signature", "type"]), rows))
        }
        GdsProc::Exists => {
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
        GdsProc::Drop => {
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
                    let (columns, row) = catalog::catalog_row(&name, &p, false);
                    Ok((columns, vec![row]))
                }
                None if fail_if_missing => Err(not_found(P, &name)),
                None => Ok((
                    catalog::catalog_row(&name, &Projection::empty(), false).0,
                    Vec::new(),
                )),
            }
        }
        GdsProc::GraphList => {
            let wanted = args.first().and_then(Value::as_str).map(str::to_string);
            let graphs = catalog(g);
            let graphs = graphs.0.lock().unwrap_or_else(|e| e.into_inner());
            let mut columns = catalog::catalog_row("", &Projection::empty(), true).0;
            let mut rows = Vec::new();
            for (name, p) in graphs.iter() {
                if wanted.as_ref().is_some_and(|w| w != name) {
                    continue;
                }
                let (c, row) = catalog::catalog_row(name, p, true);
                columns = c;
                rows.push(row);
            }
            Ok((columns, rows))
        }
    }
}

/// Runs a `write` mode: the algorithm over the projection, then its result written to the
/// graph — a property on each node, or new relationships. As in GDS, whose writes go through
/// transactions of their own, the statement's counters do not count them (grape's writes do
/// stay in the statement's transaction).
pub(crate) fn call_write(
    g: &mut Graph,
    sh: &super::exec::Shared,
    p: GdsProc,
    args: &[Value],
) -> Result<Rows> {
    let GdsProc::Algorithm(algo, mode) = p else {
        // (Only the write modes are bound to this entry: `GdsProc::writes`.)
        return Err(ExecError::procedure_failed(
            &format!("{p:?}"),
            "not a GDS write procedure",
        ));
    };
    let procedure = format!("gds.{}.{mode}", algo.name);
    let no_paths = |_: NodeId, _: NodeId, _: &str, _: Option<f64>| -> Result<RelId> {
        Err(ExecError::procedure_failed(
            &procedure,
            "no paths in write mode",
        ))
    };
    let answer = modes::run(g, &procedure, algo, mode, args, &|| sh.tick(), &no_paths)?;
    if let Some(key) = &answer.property {
        for (n, v) in &answer.node_writes {
            sh.tick()?;
            g.set_node_property(*n, key, v.clone());
        }
    }
    if let Some(ty) = &answer.rel_type {
        for (a, b, props) in &answer.rel_writes {
            sh.tick()?;
            let props: Vec<(&str, Value)> =
                props.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            g.add_relationship(*a, *b, ty, props);
        }
    }
    Ok(answer.rows)
}

/// Finishes the aggregating function `gds.graph.project(graphName, sourceNode, targetNode,
/// dataConfig, configuration)` over its rows (`query`: the statement's text).
pub(crate) fn project_aggregate(g: &Graph, rows: Vec<Vec<Value>>, query: &str) -> Result<Value> {
    catalog::project_aggregate(g, rows, query)
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
