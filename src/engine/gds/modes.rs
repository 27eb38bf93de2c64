//! The algorithms' procedures in GDS's four execution modes: `stream` (a row per node, pair or
//! path), `stats` (a summary), `mutate` (the result added to the projection as a node property
//! or relationship type) and `write` (written to the graph's nodes or as new relationships),
//! with GDS's configuration keys and defaults (echoed back in `configuration`), result
//! columns (the catalogue's signatures) and errors.

use super::algo::{self, ShortestPath, Tick};
use super::catalog::{self, NodeProperty, Projection, RelType, View};
use super::{illegal, map, type_name, Rows};
use crate::engine::error::{ExecError, Result};
use crate::engine::procedures::cols;
use crate::value::{NodeId, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The algorithms grape runs: a procedure is bound to one when its call is compiled, and the
/// algorithm's configuration, computation and output are chosen by it, never by its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum AlgoKind {
    AllShortestPathsDijkstra,
    ArticleRank,
    Betweenness,
    Bfs,
    Degree,
    Dfs,
    Knn,
    LabelPropagation,
    LocalClusteringCoefficient,
    Louvain,
    NodeSimilarity,
    PageRank,
    ShortestPathDijkstra,
    TriangleCount,
    Wcc,
}

/// GDS's execution modes: the last part of an algorithm procedure's name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    Mutate,
    Stats,
    Stream,
    Write,
}

impl Mode {
    /// The mode as GDS names it (`stream`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Mode::Mutate => "mutate",
            Mode::Stats => "stats",
            Mode::Stream => "stream",
            Mode::Write => "write",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One algorithm: GDS's name, the modes it has and a line on it in grape's words.
pub(crate) struct Algo {
    pub kind: AlgoKind,
    pub name: &'static str,
    pub modes: &'static [Mode],
    pub description: &'static str,
}

const ALL_MODES: &[Mode] = &[Mode::Mutate, Mode::Stats, Mode::Stream, Mode::Write];
const NO_STATS: &[Mode] = &[Mode::Mutate, Mode::Stream, Mode::Write];

/// The algorithms grape runs, by GDS's names.
pub(super) const ALGORITHMS: &[Algo] = &[
    Algo { kind: AlgoKind::AllShortestPathsDijkstra, name: "allShortestPaths.dijkstra", modes: NO_STATS, description: "Dijkstra's shortest paths from one source node to every node it reaches (relationship weights optional)." },
    Algo { kind: AlgoKind::ArticleRank, name: "articleRank", modes: ALL_MODES, description: "ArticleRank: PageRank with each node's influence divided by its degree plus the average degree, so links from low-degree nodes weigh more." },
    Algo { kind: AlgoKind::Betweenness, name: "betweenness", modes: ALL_MODES, description: "Betweenness centrality: how many shortest paths between other nodes pass through each node." },
    Algo { kind: AlgoKind::Bfs, name: "bfs", modes: &[Mode::Mutate, Mode::Stats, Mode::Stream], description: "Breadth-first traversal from a source node (to a depth or until a target is reached)." },
    Algo { kind: AlgoKind::Degree, name: "degree", modes: ALL_MODES, description: "Degree centrality: each node's number of relationships in the projection (outgoing by default; incoming or both with `orientation`)." },
    Algo { kind: AlgoKind::Dfs, name: "dfs", modes: &[Mode::Mutate, Mode::Stream], description: "Depth-first traversal from a source node (to a depth or until a target is reached)." },
    Algo { kind: AlgoKind::Knn, name: "knn", modes: ALL_MODES, description: "K-nearest neighbours: for each node, the k nodes whose properties are most similar (grape computes the exact neighbours GDS approximates)." },
    Algo { kind: AlgoKind::LabelPropagation, name: "labelPropagation", modes: ALL_MODES, description: "Label propagation: communities found by nodes adopting the label most of their neighbours carry." },
    Algo { kind: AlgoKind::LocalClusteringCoefficient, name: "localClusteringCoefficient", modes: ALL_MODES, description: "Local clustering coefficient: how close each node's neighbours are to a clique (undirected projections)." },
    Algo { kind: AlgoKind::Louvain, name: "louvain", modes: ALL_MODES, description: "Louvain: communities of maximal modularity, found level by level." },
    Algo { kind: AlgoKind::NodeSimilarity, name: "nodeSimilarity", modes: ALL_MODES, description: "Node similarity: pairs of nodes compared by the neighbours they share (Jaccard, overlap or cosine)." },
    Algo { kind: AlgoKind::PageRank, name: "pageRank", modes: ALL_MODES, description: "PageRank: the transitive influence of each node, from the ranks of the nodes pointing at it." },
    Algo { kind: AlgoKind::ShortestPathDijkstra, name: "shortestPath.dijkstra", modes: NO_STATS, description: "Dijkstra's shortest path between a source node and one or more target nodes (relationship weights optional)." },
    Algo { kind: AlgoKind::TriangleCount, name: "triangleCount", modes: ALL_MODES, description: "Triangle count: the triangles each node is part of (undirected projections)." },
    Algo { kind: AlgoKind::Wcc, name: "wcc", modes: ALL_MODES, description: "Weakly connected components: the component of each node, ignoring relationship direction." },
];

/// The algorithm and mode a procedure name (lower-case) names.
pub(super) fn parse(lname: &str) -> Option<(&'static Algo, Mode)> {
    let rest = lname.strip_prefix("gds.")?;
    let (algo, mode) = rest.rsplit_once('.')?;
    let a = ALGORITHMS
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(algo))?;
    let m = a.modes.iter().find(|m| m.name() == mode)?;
    Some((a, *m))
}

/// A configuration key's type, for GDS's checks and to echo it back normalised.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Int,
    Float,
    Bool,
    Str,
    /// An upper-case name (`scaler`, `similarityMetric`, `orientation`).
    Upper,
    /// A node id or a node.
    Node,
    /// A list of node ids or nodes.
    Nodes,
    /// Anything GDS takes as given (`nodeProperties`).
    Any,
}

/// The algorithm's own configuration keys: type and the default GDS reports (`None`:
/// reported only when given).
fn keys(algo: AlgoKind) -> Vec<(&'static str, Kind, Option<Value>)> {
    use Kind::*;
    let f = |x: f64| Some(Value::Float(x));
    let i = |x: i64| Some(Value::Int(x));
    let b = |x: bool| Some(Value::Bool(x));
    let rank = || {
        vec![
            ("dampingFactor", Float, f(0.85)),
            ("maxIterations", Int, i(20)),
            ("tolerance", Float, f(1e-7)),
            ("sourceNodes", Nodes, Some(Value::List(Vec::new()))),
            ("scaler", Upper, Some(Value::from("NONE"))),
            ("relationshipWeightProperty", Str, None),
        ]
    };
    match algo {
        AlgoKind::PageRank | AlgoKind::ArticleRank => rank(),
        AlgoKind::Degree => vec![
            ("orientation", Upper, Some(Value::from("NATURAL"))),
            ("relationshipWeightProperty", Str, None),
        ],
        AlgoKind::Betweenness => vec![
            ("samplingSize", Int, None),
            ("samplingSeed", Int, None),
            ("relationshipWeightProperty", Str, None),
        ],
        AlgoKind::Wcc => vec![
            ("seedProperty", Str, Some(Value::Null)),
            ("consecutiveIds", Bool, b(false)),
            ("threshold", Float, f(0.0)),
            ("relationshipWeightProperty", Str, None),
            ("minComponentSize", Int, None),
        ],
        AlgoKind::LabelPropagation => vec![
            ("maxIterations", Int, i(10)),
            ("seedProperty", Str, Some(Value::Null)),
            ("consecutiveIds", Bool, b(false)),
            ("nodeWeightProperty", Str, Some(Value::Null)),
            ("relationshipWeightProperty", Str, None),
            ("minCommunitySize", Int, None),
        ],
        AlgoKind::Louvain => vec![
            ("maxIterations", Int, i(10)),
            ("maxLevels", Int, i(10)),
            ("tolerance", Float, f(0.0001)),
            ("includeIntermediateCommunities", Bool, b(false)),
            ("seedProperty", Str, Some(Value::Null)),
            ("consecutiveIds", Bool, b(false)),
            ("relationshipWeightProperty", Str, None),
            ("minCommunitySize", Int, None),
        ],
        AlgoKind::TriangleCount => vec![("maxDegree", Int, i(i64::MAX))],
        AlgoKind::LocalClusteringCoefficient => {
            vec![("triangleCountProperty", Str, Some(Value::Null))]
        }
        AlgoKind::NodeSimilarity => vec![
            ("topK", Int, i(10)),
            ("bottomK", Int, i(10)),
            ("topN", Int, i(0)),
            ("bottomN", Int, i(0)),
            ("similarityCutoff", Float, f(1e-42)),
            ("degreeCutoff", Int, i(1)),
            ("upperDegreeCutoff", Int, i(i32::MAX as i64)),
            ("similarityMetric", Upper, Some(Value::from("JACCARD"))),
            ("useComponents", Any, b(false)),
            ("relationshipWeightProperty", Str, None),
        ],
        AlgoKind::Knn => vec![
            ("nodeProperties", Any, None),
            ("topK", Int, i(10)),
            ("sampleRate", Float, f(0.5)),
            ("deltaThreshold", Float, f(0.001)),
            ("maxIterations", Int, i(100)),
            ("randomJoins", Int, i(10)),
            ("initialSampler", Upper, Some(Value::from("UNIFORM"))),
            ("randomSeed", Int, None),
            ("similarityCutoff", Float, f(0.0)),
            ("perturbationRate", Float, f(0.0)),
        ],
        AlgoKind::ShortestPathDijkstra => vec![
            ("sourceNode", Node, None),
            ("targetNode", Node, None),
            ("targetNodes", Nodes, Some(Value::List(Vec::new()))),
            ("relationshipWeightProperty", Str, None),
        ],
        AlgoKind::AllShortestPathsDijkstra => vec![
            ("sourceNode", Node, None),
            ("relationshipWeightProperty", Str, None),
        ],
        AlgoKind::Bfs | AlgoKind::Dfs => vec![
            ("sourceNode", Node, None),
            ("targetNodes", Nodes, Some(Value::List(Vec::new()))),
            ("maxDepth", Int, i(-1)),
            ("relationshipWeightProperty", Str, None),
        ],
    }
}

/// Whether the algorithm's result is relationships (paths, similar pairs) rather than a
/// value per node.
fn writes_relationships(algo: AlgoKind) -> bool {
    matches!(
        algo,
        AlgoKind::NodeSimilarity
            | AlgoKind::Knn
            | AlgoKind::ShortestPathDijkstra
            | AlgoKind::AllShortestPathsDijkstra
            | AlgoKind::Bfs
            | AlgoKind::Dfs
    )
}

/// The keys a mode adds: (key, kind, default, mandatory).
fn mode_keys(algo: AlgoKind, mode: Mode) -> Vec<(&'static str, Kind, Option<Value>, bool)> {
    let rels = writes_relationships(algo);
    let similarity = matches!(algo, AlgoKind::NodeSimilarity | AlgoKind::Knn);
    let paths = rels && !similarity;
    match mode {
        Mode::Mutate if rels => {
            let mut k = vec![("mutateRelationshipType", Kind::Str, None, true)];
            if similarity {
                k.push(("mutateProperty", Kind::Str, None, true));
            }
            k
        }
        Mode::Mutate => vec![("mutateProperty", Kind::Str, None, true)],
        Mode::Write => {
            let mut k = vec![
                ("writeConcurrency", Kind::Int, Some(Value::Int(4)), false),
                (
                    "writeToResultStore",
                    Kind::Bool,
                    Some(Value::Bool(false)),
                    false,
                ),
            ];
            if rels {
                k.push(("writeRelationshipType", Kind::Str, None, true));
            }
            if !rels || similarity {
                k.push(("writeProperty", Kind::Str, None, true));
            }
            if paths {
                k.push(("writeNodeIds", Kind::Bool, Some(Value::Bool(false)), false));
                k.push(("writeCosts", Kind::Bool, Some(Value::Bool(false)), false));
            }
            k
        }
        _ => Vec::new(),
    }
}

/// The keys every algorithm takes.
const COMMON: &[&str] = &[
    "concurrency",
    "jobId",
    "logProgress",
    "sudo",
    "nodeLabels",
    "relationshipTypes",
];

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Int | Kind::Node => "Integer",
        Kind::Float => "Double",
        Kind::Bool => "Boolean",
        Kind::Str | Kind::Upper => "String",
        Kind::Nodes | Kind::Any => "List",
    }
}

/// The configuration GDS runs with and echoes: the defaults, overridden by what was given
/// (checked: unknown keys, types, mandatory keys).
pub(super) fn configure(
    procedure: &str,
    algo: AlgoKind,
    mode: Mode,
    given: Option<&Value>,
) -> Result<BTreeMap<Arc<str>, Value>> {
    let given = match given {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(Value::Map(m)) => m.clone(),
        Some(other) => {
            return Err(illegal(
                procedure,
                format!("The configuration must be a map, not {}", type_name(other)),
            ))
        }
    };
    let own = keys(algo);
    let modes = mode_keys(algo, mode);
    let mut out: BTreeMap<Arc<str>, Value> = BTreeMap::new();
    out.insert(
        Arc::from("jobId"),
        Value::from(crate::engine::functions::random_uuid().as_str()),
    );
    out.insert(Arc::from("logProgress"), Value::Bool(true));
    out.insert(Arc::from("nodeLabels"), Value::List(vec![Value::from("*")]));
    out.insert(Arc::from("sudo"), Value::Bool(false));
    out.insert(
        Arc::from("relationshipTypes"),
        Value::List(vec![Value::from("*")]),
    );
    out.insert(Arc::from("concurrency"), Value::Int(4));
    for (k, _, d) in &own {
        if let Some(d) = d {
            out.insert(Arc::from(*k), d.clone());
        }
    }
    for (k, _, d, _) in &modes {
        if let Some(d) = d {
            out.insert(Arc::from(*k), d.clone());
        }
    }
    for (k, v) in &given {
        let kind = own
            .iter()
            .find(|(n, _, _)| **n == **k)
            .map(|(_, kind, _)| *kind)
            .or_else(|| {
                modes
                    .iter()
                    .find(|(n, _, _, _)| **n == **k)
                    .map(|(_, kind, _, _)| *kind)
            });
        let kind = match kind {
            Some(kind) => kind,
            None if COMMON.contains(&&**k) => Kind::Any,
            None => {
                return Err(illegal(
                    procedure,
                    format!("Unexpected configuration key: {k}"),
                ))
            }
        };
        let v = match (&**k, v) {
            ("nodeLabels" | "relationshipTypes", Value::List(_)) => v.clone(),
            ("nodeLabels" | "relationshipTypes", other) => {
                return Err(illegal(
                    procedure,
                    format!(
                        "The value of `{k}` must be of type `List` but was `{}`.",
                        crate::value::java_type_name(other)
                    ),
                ))
            }
            ("concurrency", Value::Int(_)) => v.clone(),
            _ => match (kind, v) {
                (_, Value::Null) => Value::Null,
                (Kind::Int, Value::Int(_))
                | (Kind::Bool, Value::Bool(_))
                | (Kind::Str, Value::String(_))
                | (Kind::Float, Value::Float(_))
                | (Kind::Any, _) => v.clone(),
                (Kind::Float, Value::Int(i)) => Value::Float(*i as f64),
                (Kind::Upper, Value::String(s)) => Value::from(s.to_ascii_uppercase()),
                (Kind::Node, Value::Int(_)) => v.clone(),
                (Kind::Node, Value::Node(n)) => Value::Int(n.0 as i64),
                (Kind::Nodes, Value::List(items)) => Value::List(
                    items
                        .iter()
                        .map(|i| match i {
                            Value::Node(n) => Value::Int(n.0 as i64),
                            other => other.clone(),
                        })
                        .collect(),
                ),
                (Kind::Nodes, Value::Int(_)) => Value::List(vec![v.clone()]),
                (Kind::Nodes, Value::Node(n)) => Value::List(vec![Value::Int(n.0 as i64)]),
                (kind, other) => {
                    return Err(illegal(
                        procedure,
                        format!(
                            "The value of `{k}` must be of type `{}` but was `{}`.",
                            kind_name(kind),
                            crate::value::java_type_name(other)
                        ),
                    ))
                }
            },
        };
        out.insert(k.clone(), v);
    }
    let mut missing: Vec<&str> = modes
        .iter()
        .filter(|(k, _, _, m)| *m && !given.contains_key(*k))
        .map(|(k, _, _, _)| *k)
        .collect();
    let needs: &[&str] = match algo {
        AlgoKind::Knn => &["nodeProperties"],
        AlgoKind::ShortestPathDijkstra
        | AlgoKind::AllShortestPathsDijkstra
        | AlgoKind::Bfs
        | AlgoKind::Dfs => &["sourceNode"],
        _ => &[],
    };
    for k in needs {
        if !given.contains_key(*k) {
            missing.insert(0, k);
        }
    }
    if let Some(first) = missing.first() {
        return Err(illegal(
            procedure,
            format!("No value specified for the mandatory configuration parameter `{first}`"),
        ));
    }
    if algo == AlgoKind::ShortestPathDijkstra
        && !given.contains_key("targetNode")
        && !given.contains_key("targetNodes")
    {
        return Err(illegal(
            procedure,
            "One of `targetNodes` or `targetNode` parameters must be specified",
        ));
    }
    Ok(out)
}

fn get_f64(c: &BTreeMap<Arc<str>, Value>, k: &str, default: f64) -> f64 {
    match c.get(k) {
        Some(Value::Float(f)) => *f,
        Some(Value::Int(i)) => *i as f64,
        _ => default,
    }
}

fn get_i64(c: &BTreeMap<Arc<str>, Value>, k: &str, default: i64) -> i64 {
    match c.get(k) {
        Some(Value::Int(i)) => *i,
        _ => default,
    }
}

fn get_str<'c>(c: &'c BTreeMap<Arc<str>, Value>, k: &str) -> Option<&'c str> {
    c.get(k).and_then(Value::as_str)
}

fn get_bool(c: &BTreeMap<Arc<str>, Value>, k: &str) -> bool {
    matches!(c.get(k), Some(Value::Bool(true)))
}

/// A value in `[lo, hi)` (or `[lo, hi]`), as GDS checks ranges.
fn in_range(
    procedure: &str,
    key: &str,
    x: f64,
    lo: f64,
    hi: f64,
    hi_inclusive: bool,
) -> Result<()> {
    let ok = x >= lo && (x < hi || (hi_inclusive && x == hi));
    if ok {
        return Ok(());
    }
    Err(illegal(
        procedure,
        format!(
            "Value for `{key}` was `{}`, but must be within the range [{:.2}, {:.2}{}.",
            crate::value::java_double_string(x),
            lo,
            hi,
            if hi_inclusive { "]" } else { ")" }
        ),
    ))
}

/// An algorithm's result, before a mode renders it.
enum Outcome {
    /// A float per node (centralities, clustering coefficients).
    Scores {
        scores: Vec<f64>,
        ran: Option<(i64, bool)>,
    },
    /// A community per node.
    Communities {
        ids: Vec<i64>,
        ran: Option<(i64, bool)>,
        louvain: Option<(Vec<f64>, Vec<Vec<i64>>)>,
    },
    Triangles {
        counts: Vec<i64>,
        global: i64,
    },
    Clustering {
        coefficients: Vec<f64>,
    },
    Pairs {
        pairs: Vec<(usize, usize, f64)>,
        nodes_compared: i64,
        /// KNN's iterations, convergence and `nodePairsConsidered`.
        knn: Option<(i64, bool, i64)>,
    },
    Paths {
        source: usize,
        paths: Vec<ShortestPath>,
    },
    Traversal {
        source: usize,
        order: Vec<usize>,
    },
}

/// GDS's error for nodes a configuration key names that the view lacks.
fn absent(procedure: &str, key: &str, ids: &[String]) -> ExecError {
    illegal(
        procedure,
        format!(
            "{key} nodes do not exist in the in-memory graph: {}",
            catalog::bracket(ids)
        ),
    )
}

/// The id a node argument names, for messages.
fn id_text(v: &Value) -> String {
    match v {
        Value::Node(n) => n.0.to_string(),
        other => other.to_string(),
    }
}

/// The view's id of the node a configuration key names.
fn node_arg(
    procedure: &str,
    p: &Projection,
    v: &View,
    c: &BTreeMap<Arc<str>, Value>,
    key: &str,
) -> Result<usize> {
    let given = c.get(key).cloned().unwrap_or(Value::Null);
    v.of(p, &given)
        .ok_or_else(|| absent(procedure, key, &[id_text(&given)]))
}

fn nodes_arg(
    procedure: &str,
    p: &Projection,
    v: &View,
    c: &BTreeMap<Arc<str>, Value>,
    key: &str,
) -> Result<Vec<usize>> {
    let Some(Value::List(items)) = c.get(key) else {
        return Ok(Vec::new());
    };
    let missing: Vec<String> = items
        .iter()
        .filter(|i| v.of(p, i).is_none())
        .map(id_text)
        .collect();
    if !missing.is_empty() {
        return Err(absent(procedure, key, &missing));
    }
    Ok(items.iter().filter_map(|i| v.of(p, i)).collect())
}

/// The seeds of `seedProperty` over the view (`None` per node without one), checked as GDS
/// checks them: the property projected, of integers, not with `consecutiveIds`.
fn seeds(
    procedure: &str,
    p: &Projection,
    v: &View,
    c: &BTreeMap<Arc<str>, Value>,
) -> Result<Option<Vec<Option<i64>>>> {
    let Some(key) = get_str(c, "seedProperty") else {
        return Ok(None);
    };
    if get_bool(c, "consecutiveIds") {
        return Err(illegal(
            procedure,
            "Seeding and the `consecutiveIds` option cannot be used at the same time.",
        ));
    }
    let Some(prop) = p.node_props.get(key) else {
        return Err(illegal(
            procedure,
            format!(
                "Seed property `{key}` not found in graph with node properties: {}",
                catalog::bracket(&p.node_props.keys().cloned().collect::<Vec<_>>())
            ),
        ));
    };
    if prop.kind() != "Integer" {
        return Err(illegal(
            procedure,
            format!(
                "Provided seeding property `{key}` does not comprise exclusively of long values"
            ),
        ));
    }
    Ok(Some(
        v.nodes
            .iter()
            .map(|&i| match &prop.values[i] {
                Value::Int(x) if *x != i64::MIN => Some(*x),
                _ => None,
            })
            .collect(),
    ))
}

/// A node property's values over the view, as floats.
fn float_property(procedure: &str, p: &Projection, v: &View, key: &str) -> Result<Vec<f64>> {
    let prop = p.node_props.get(key).ok_or_else(|| {
        illegal(
            procedure,
            format!(
                "Node property `{key}` not found in graph with node properties: {}",
                catalog::bracket(&p.node_props.keys().cloned().collect::<Vec<_>>())
            ),
        )
    })?;
    Ok(v.nodes
        .iter()
        .map(|&i| match &prop.values[i] {
            Value::Int(x) => *x as f64,
            Value::Float(x) => *x,
            _ => f64::NAN,
        })
        .collect())
}

/// Runs the algorithm of `procedure` over the projection named by `args[0]`.
fn compute(
    procedure: &str,
    algo: AlgoKind,
    p: &Projection,
    c: &BTreeMap<Arc<str>, Value>,
    given_config: Option<&Value>,
    tick: Tick,
) -> Result<(View, Outcome)> {
    let v = catalog::view(procedure, p, c)?;
    let weighted = get_str(c, "relationshipWeightProperty").is_some();
    let outcome = match algo {
        AlgoKind::PageRank | AlgoKind::ArticleRank => {
            let damping = get_f64(c, "dampingFactor", 0.85);
            in_range(procedure, "dampingFactor", damping, 0.0, 1.0, false)?;
            let sources = nodes_arg(procedure, p, &v, c, "sourceNodes")?;
            let r = algo::ranks(
                &v,
                &algo::RankConfig {
                    damping,
                    tolerance: get_f64(c, "tolerance", 1e-7),
                    max_iterations: get_i64(c, "maxIterations", 20),
                    weighted,
                    article: algo == AlgoKind::ArticleRank,
                },
                (!sources.is_empty()).then_some(sources.as_slice()),
                tick,
            )?;
            let mut scores = r.scores;
            let scaler = get_str(c, "scaler").unwrap_or("NONE");
            if ![
                "NONE", "MINMAX", "MAX", "MEAN", "LOG", "L1NORM", "L2NORM", "STDSCORE", "CENTER",
            ]
            .contains(&scaler)
            {
                return Err(illegal(
                    procedure,
                    format!("Unrecognised scaler type specified: `{}`. Expected one of: ['center', 'log', 'max', 'mean', 'minmax', 'none', 'stdscore'].", config_given_raw(given_config, "scaler")),
                ));
            }
            algo::scale(&mut scores, scaler);
            Outcome::Scores {
                scores,
                ran: Some((r.ran_iterations, r.did_converge)),
            }
        }
        AlgoKind::Degree => {
            let orientation = get_str(c, "orientation").unwrap_or("NATURAL");
            if !["NATURAL", "REVERSE", "UNDIRECTED"].contains(&orientation) {
                let given = config_given(c, "orientation");
                return Err(illegal(
                    procedure,
                    format!("Orientation `{given}` is not supported. Must be one of: [NATURAL, REVERSE, UNDIRECTED]."),
                ));
            }
            Outcome::Scores {
                scores: algo::degree(&v, orientation, weighted),
                ran: None,
            }
        }
        AlgoKind::Betweenness => {
            let size = c.get("samplingSize").and_then(|s| match s {
                Value::Int(i) => Some(*i),
                _ => None,
            });
            if let Some(size) = size.filter(|s| *s < 0) {
                return Err(illegal(
                    procedure,
                    format!("Configuration parameter 'samplingSize' must be a positive number, got {size}."),
                ));
            }
            let sources = match size {
                Some(size) if (size as usize) < v.n() => Some(algo::sample_sources(
                    procedure,
                    &v,
                    size as usize,
                    get_i64(c, "samplingSeed", 0),
                    get_i64(c, "concurrency", 4).max(1) as usize,
                    tick,
                )?),
                _ => None,
            };
            Outcome::Scores {
                scores: algo::betweenness(&v, weighted, sources.as_deref(), tick)?,
                ran: None,
            }
        }
        AlgoKind::Wcc => {
            let threshold = get_f64(c, "threshold", 0.0);
            if threshold > 0.0 && !weighted {
                return Err(illegal(
                    procedure,
                    "Specifying a threshold requires `relationshipWeightProperty` to be set.",
                ));
            }
            let seeds = seeds(procedure, p, &v, c)?;
            let ids = algo::wcc(
                &v,
                (weighted && threshold > 0.0).then_some(threshold),
                seeds.as_deref(),
                tick,
            )?;
            Outcome::Communities {
                ids,
                ran: None,
                louvain: None,
            }
        }
        AlgoKind::LabelPropagation => {
            let seeds = seeds(procedure, p, &v, c)?;
            let node_weights = match get_str(c, "nodeWeightProperty") {
                Some(k) => Some(float_property(procedure, p, &v, k)?),
                None => None,
            };
            let l = algo::label_propagation(
                &v,
                seeds.as_deref(),
                node_weights,
                get_i64(c, "maxIterations", 10),
                tick,
            )?;
            Outcome::Communities {
                ids: l.labels,
                ran: Some((l.ran_iterations, l.did_converge)),
                louvain: None,
            }
        }
        AlgoKind::Louvain => {
            if get_bool(c, "includeIntermediateCommunities") && get_bool(c, "consecutiveIds") {
                return Err(illegal(
                    procedure,
                    "`includeIntermediateResults` and the `consecutiveIds` option cannot be used at the same time.",
                ));
            }
            let seeds = seeds(procedure, p, &v, c)?;
            if seeds
                .as_ref()
                .is_some_and(|s| s.iter().flatten().any(|x| *x < 0))
            {
                return Err(illegal(procedure, "Seeded values should be non-negative"));
            }
            let l = algo::louvain(
                &v,
                seeds.as_deref(),
                get_i64(c, "maxLevels", 10),
                get_i64(c, "maxIterations", 10),
                get_f64(c, "tolerance", 0.0001),
                tick,
            )?;
            Outcome::Communities {
                ids: l.communities,
                ran: None,
                louvain: Some((l.modularities, l.levels)),
            }
        }
        AlgoKind::TriangleCount | AlgoKind::LocalClusteringCoefficient => {
            if !v.undirected {
                let name = if algo == AlgoKind::TriangleCount {
                    "TriangleCount"
                } else {
                    "LocalClusteringCoefficient"
                };
                return Err(illegal(
                    procedure,
                    format!(
                        "{name} requires relationship projections to be UNDIRECTED. Selected relationships `{}` are not all undirected.",
                        catalog::bracket(&catalog::selected_types(p, c))
                    ),
                ));
            }
            let (counts, global) = match get_str(c, "triangleCountProperty") {
                Some(k) if algo == AlgoKind::LocalClusteringCoefficient => (
                    float_property(procedure, p, &v, k)?
                        .into_iter()
                        .map(|x| x as i64)
                        .collect(),
                    0,
                ),
                _ => algo::triangles(&v, get_i64(c, "maxDegree", i64::MAX), tick)?,
            };
            if algo == AlgoKind::TriangleCount {
                Outcome::Triangles { counts, global }
            } else {
                Outcome::Clustering {
                    coefficients: algo::clustering(&v, &counts),
                }
            }
        }
        AlgoKind::NodeSimilarity => {
            if c.contains_key("bottomK") || c.contains_key("bottomN") {
                // Only the defaults are echoed; asking for the least similar is not run.
                if get_i64(c, "bottomN", 0) != 0 {
                    return Err(super::unsupported(procedure, "bottomN"));
                }
            }
            let metric = get_str(c, "similarityMetric").unwrap_or("JACCARD");
            if !["JACCARD", "OVERLAP", "COSINE"].contains(&metric) {
                return Err(illegal(
                    procedure,
                    format!("Similarity metric `{}` is not supported. Must be one of: [JACCARD, OVERLAP, COSINE].", config_given(c, "similarityMetric")),
                ));
            }
            let lo = get_i64(c, "degreeCutoff", 1);
            let hi = get_i64(c, "upperDegreeCutoff", i32::MAX as i64);
            // Neighbour vectors as GDS builds them: each relationship in reading order
            // (type after type), but self-loops and a repeat of the target just read; sorted
            // when several types are read.
            let neighbours: Vec<Vec<(usize, f64)>> = v
                .out
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let mut kept = Vec::with_capacity(l.len());
                    let mut last = usize::MAX;
                    for &(w, x) in l {
                        if w != i && w != last {
                            kept.push((w, x));
                        }
                        last = w;
                    }
                    if v.types > 1 {
                        kept.sort_by_key(|(w, _)| *w);
                    }
                    kept
                })
                .collect();
            let compared: Vec<usize> = (0..v.n())
                .filter(|&i| {
                    let d = neighbours[i].len() as i64;
                    d >= lo && d <= hi
                })
                .collect();
            let top_k = get_i64(c, "topK", 10).max(0) as usize;
            let cutoff = get_f64(c, "similarityCutoff", 1e-42);
            // Each pair once, offered to both nodes' queues: a node's partners come in
            // ascending order.
            let mut queues: BTreeMap<usize, algo::TopK<usize>> = compared
                .iter()
                .map(|&a| (a, algo::TopK::new(top_k.min(v.n()))))
                .collect();
            for (x, &a) in compared.iter().enumerate() {
                tick()?;
                for &b in &compared[x + 1..] {
                    let s = algo::set_similarity(&neighbours[a], &neighbours[b], metric, weighted);
                    if s.is_nan() || s < cutoff {
                        continue;
                    }
                    if let Some(q) = queues.get_mut(&a) {
                        q.offer(b, s);
                    }
                    if let Some(q) = queues.get_mut(&b) {
                        q.offer(a, s);
                    }
                }
            }
            let mut pairs: Vec<(usize, usize, f64)> = queues
                .into_iter()
                .flat_map(|(a, q)| q.into_sorted().into_iter().map(move |(b, s)| (a, b, s)))
                .collect();
            let top_n = get_i64(c, "topN", 0);
            if top_n > 0 {
                let mut best = algo::TopK::new(top_n as usize);
                for (a, b, s) in pairs {
                    best.offer((a, b), s);
                }
                pairs = best
                    .into_sorted()
                    .into_iter()
                    .map(|((a, b), s)| (a, b, s))
                    .collect();
            }
            Outcome::Pairs {
                pairs,
                nodes_compared: compared.len() as i64,
                knn: None,
            }
        }
        AlgoKind::Knn => knn(procedure, p, &v, c, tick)?,
        AlgoKind::ShortestPathDijkstra | AlgoKind::AllShortestPathsDijkstra => {
            let source = node_arg(procedure, p, &v, c, "sourceNode")?;
            let targets = if algo == AlgoKind::AllShortestPathsDijkstra {
                None
            } else if c
                .get("targetNode")
                .is_some_and(|t| !matches!(t, Value::Null))
            {
                Some(vec![node_arg(procedure, p, &v, c, "targetNode")?])
            } else {
                Some(nodes_arg(procedure, p, &v, c, "targetNodes")?)
            };
            if v.out.iter().flatten().any(|(_, w)| *w < 0.0 || w.is_nan()) {
                return Err(illegal(
                    procedure,
                    "Dijkstra does not support negative relationship weights.",
                ));
            }
            Outcome::Paths {
                source,
                paths: algo::dijkstra(&v, source, targets.as_deref(), tick)?,
            }
        }
        AlgoKind::Bfs | AlgoKind::Dfs => {
            let source = node_arg(procedure, p, &v, c, "sourceNode")?;
            let targets = nodes_arg(procedure, p, &v, c, "targetNodes")?;
            let depth = get_i64(c, "maxDepth", -1);
            let order = algo::traverse(&v, source, &targets, depth, algo == AlgoKind::Dfs, tick)?;
            Outcome::Traversal { source, order }
        }
    };
    Ok((v, outcome))
}

/// The value given for a key in the call's own configuration, as written (for messages).
fn config_given_raw(given: Option<&Value>, key: &str) -> String {
    match given {
        Some(Value::Map(m)) => m.get(key).and_then(Value::as_str).unwrap_or("").to_string(),
        _ => String::new(),
    }
}

/// The value given for a key, as normalised (for messages).
fn config_given(c: &BTreeMap<Arc<str>, Value>, key: &str) -> String {
    c.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// Exact K-nearest neighbours over node properties: per property, numbers compare as
/// `1 / (1 + |a - b|)`, float lists by cosine (or `EUCLIDEAN`, `PEARSON`), integer lists by
/// Jaccard (or `OVERLAP`); several properties average.
fn knn(
    procedure: &str,
    p: &Projection,
    v: &View,
    c: &BTreeMap<Arc<str>, Value>,
    tick: Tick,
) -> Result<Outcome> {
    let specs: Vec<(String, Option<String>)> = match c.get("nodeProperties") {
        Some(Value::String(s)) => vec![(s.to_string(), None)],
        Some(Value::List(l)) => l
            .iter()
            .filter_map(|x| x.as_str().map(|s| (s.to_string(), None)))
            .collect(),
        Some(Value::Map(m)) => m
            .iter()
            .map(|(k, x)| (k.to_string(), x.as_str().map(|s| s.to_ascii_uppercase())))
            .collect(),
        _ => Vec::new(),
    };
    let mut columns: Vec<(&NodeProperty, Option<String>)> = Vec::new();
    for (k, metric) in &specs {
        let prop = p.node_props.get(k).ok_or_else(|| {
            super::failed(
                procedure,
                format!("java.lang.NullPointerException: The property `{k}` has not been loaded"),
            )
        })?;
        columns.push((prop, metric.clone()));
    }
    let nums = |x: &Value| -> Option<Vec<f64>> {
        match x {
            Value::List(l) => l
                .iter()
                .map(|i| match i {
                    Value::Int(n) => Some(*n as f64),
                    Value::Float(f) => Some(*f),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    };
    // One property's similarity, as GDS's KNN metrics compute it.
    let one = |x: &Value, y: &Value, metric: &Option<String>| -> f64 {
        match (x, y) {
            (Value::Int(a), Value::Int(b)) => {
                1.0 / (1.0 + a.wrapping_sub(*b).checked_abs().unwrap_or(i64::MAX) as f64)
            }
            (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
                let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
                1.0 / (1.0 + (x - y).abs())
            }
            (Value::List(lx), Value::List(_)) => {
                let (Some(fx), Some(fy)) = (nums(x), nums(y)) else {
                    return 0.0;
                };
                let ints = lx.iter().all(|i| matches!(i, Value::Int(_)));
                let metric = metric
                    .clone()
                    .unwrap_or_else(|| if ints { "JACCARD" } else { "COSINE" }.to_string());
                let len = fx.len().min(fy.len());
                match metric.as_str() {
                    "JACCARD" | "OVERLAP" => {
                        let mut sx: Vec<i64> = fx.iter().map(|f| *f as i64).collect();
                        let mut sy: Vec<i64> = fy.iter().map(|f| *f as i64).collect();
                        sx.sort_unstable();
                        sy.sort_unstable();
                        let (mut i, mut j, mut inter) = (0, 0, 0usize);
                        while i < sx.len() && j < sy.len() {
                            match sx[i].cmp(&sy[j]) {
                                std::cmp::Ordering::Equal => {
                                    inter += 1;
                                    i += 1;
                                    j += 1;
                                }
                                std::cmp::Ordering::Less => i += 1,
                                std::cmp::Ordering::Greater => j += 1,
                            }
                        }
                        let denominator = if metric == "JACCARD" {
                            sx.len() + sy.len() - inter
                        } else {
                            sx.len().min(sy.len())
                        };
                        if denominator == 0 {
                            0.0
                        } else {
                            inter as f64 / denominator as f64
                        }
                    }
                    "EUCLIDEAN" => {
                        let mut d = 0.0;
                        for i in 0..len {
                            d += (fx[i] - fy[i]) * (fx[i] - fy[i]);
                        }
                        1.0 / (1.0 + d.sqrt())
                    }
                    "PEARSON" => {
                        let n = len as f64;
                        let (mut sxs, mut sys) = (0.0, 0.0);
                        for i in 0..len {
                            sxs += fx[i];
                            sys += fy[i];
                        }
                        let (mx, my) = (sxs / n, sys / n);
                        let (mut num, mut dx, mut dy) = (0.0, 0.0, 0.0);
                        for i in 0..len {
                            num += (fx[i] - mx) * (fy[i] - my);
                            dx += (fx[i] - mx) * (fx[i] - mx);
                            dy += (fy[i] - my) * (fy[i] - my);
                        }
                        (num / (dx * dy).sqrt() + 1.0) / 2.0
                    }
                    _ => {
                        let (mut dot, mut xx, mut yy) = (0.0, 0.0, 0.0);
                        for i in 0..len {
                            dot += fx[i] * fy[i];
                            xx += fx[i] * fx[i];
                            yy += fy[i] * fy[i];
                        }
                        (dot / (xx * yy).sqrt() + 1.0) / 2.0
                    }
                }
            }
            _ => 0.0,
        }
    };
    let similarity = |a: usize, b: usize| -> f64 {
        let mut total = 0.0;
        for (prop, metric) in &columns {
            let s = one(&prop.values[v.nodes[a]], &prop.values[v.nodes[b]], metric);
            total += if s.is_finite() { s } else { 0.0 };
        }
        total / columns.len().max(1) as f64
    };
    let result = super::knn::knn(
        v.n(),
        &similarity,
        &super::knn::KnnConfig {
            top_k: get_i64(c, "topK", 10),
            sample_rate: get_f64(c, "sampleRate", 0.5),
            delta_threshold: get_f64(c, "deltaThreshold", 0.001),
            max_iterations: get_i64(c, "maxIterations", 100),
            random_joins: get_i64(c, "randomJoins", 10),
            perturbation_rate: get_f64(c, "perturbationRate", 0.0),
            similarity_cutoff: get_f64(c, "similarityCutoff", 0.0),
            seed: get_i64(c, "randomSeed", 0),
        },
        tick,
    )?;
    let pairs = result
        .neighbours
        .iter()
        .enumerate()
        .flat_map(|(a, l)| l.iter().map(move |(b, s)| (a, *b, *s)))
        .collect();
    Ok(Outcome::Pairs {
        pairs,
        nodes_compared: v.n() as i64,
        knn: Some((
            result.ran_iterations,
            result.did_converge,
            result.pairs_considered,
        )),
    })
}

/// HdrHistogram's value at a percentile of sorted values: the value at the rank rounded half
/// up (at least the first).
pub(super) fn percentile<T: Copy>(sorted: &[T], q: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((q / 100.0) * sorted.len() as f64 + 0.5).floor().max(1.0) as usize;
    Some(sorted[rank.min(sorted.len()) - 1])
}

/// `centralityDistribution` / `similarityDistribution`: min, max, mean (and deviation) and
/// percentiles of the values, read off an HdrHistogram as GDS reads them (bucket bounds, not
/// the exact values). Values a histogram cannot hold (negative, NaN) are left out.
fn float_distribution(values: &[f64], keys: &[(&str, f64)], std_dev: bool) -> Value {
    let mut h = crate::engine::apoc::hdr::Doubles::new();
    for x in values {
        if x.is_finite() {
            let _ = h.record(*x);
        }
    }
    let mut entries = vec![
        ("max", Value::Float(h.max())),
        ("mean", Value::Float(h.mean())),
        ("min", Value::Float(h.min())),
    ];
    if std_dev {
        entries.push(("stdDev", Value::Float(h.std_deviation())));
    }
    for (k, q) in keys {
        entries.push((k, Value::Float(h.percentile(*q))));
    }
    map(entries)
}

const CENTRALITY_PERCENTILES: &[(&str, f64)] = &[
    ("p50", 50.0),
    ("p75", 75.0),
    ("p90", 90.0),
    ("p95", 95.0),
    ("p99", 99.0),
    ("p999", 99.9),
];

const COMMUNITY_PERCENTILES: &[(&str, f64)] = &[
    ("p1", 1.0),
    ("p5", 5.0),
    ("p10", 10.0),
    ("p25", 25.0),
    ("p50", 50.0),
    ("p75", 75.0),
    ("p90", 90.0),
    ("p95", 95.0),
    ("p99", 99.0),
    ("p999", 99.9),
];

const SIMILARITY_PERCENTILES: &[(&str, f64)] = &[
    ("p1", 1.0),
    ("p5", 5.0),
    ("p10", 10.0),
    ("p25", 25.0),
    ("p50", 50.0),
    ("p75", 75.0),
    ("p90", 90.0),
    ("p95", 95.0),
    ("p99", 99.0),
    ("p100", 100.0),
];

/// `communityDistribution`: the sizes of the communities.
fn community_distribution(ids: &[i64]) -> (i64, Value) {
    let mut sizes: BTreeMap<i64, i64> = BTreeMap::new();
    for id in ids {
        *sizes.entry(*id).or_insert(0) += 1;
    }
    let mut d: Vec<i64> = sizes.values().copied().collect();
    d.sort_unstable();
    let mean = if d.is_empty() {
        0.0
    } else {
        d.iter().sum::<i64>() as f64 / d.len() as f64
    };
    let mut entries = vec![
        ("max", Value::Int(d.last().copied().unwrap_or(0))),
        ("mean", Value::Float(mean)),
        ("min", Value::Int(d.first().copied().unwrap_or(0))),
    ];
    for (k, q) in COMMUNITY_PERCENTILES {
        entries.push((k, Value::Int(percentile(&d, *q).unwrap_or(0))));
    }
    (d.len() as i64, map(entries))
}

/// Renumbers communities 0, 1, … in order of their first node (`consecutiveIds`).
fn consecutive(ids: &[i64]) -> Vec<i64> {
    let mut seen: BTreeMap<i64, i64> = BTreeMap::new();
    let mut next = 0;
    ids.iter()
        .map(|id| {
            *seen.entry(*id).or_insert_with(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// A new relationship's properties.
type Props = Vec<(String, Value)>;

/// A relationship `write` mode creates: start, end, properties.
pub(super) type RelWrite = (NodeId, NodeId, Props);

/// What one mode call produces: its rows, and what it asks the caller to write to the graph.
pub(super) struct Answer {
    pub rows: Rows,
    /// `write` mode: node properties to set.
    pub node_writes: Vec<(NodeId, Value)>,
    pub property: Option<String>,
    /// `write` mode: relationships to create (start, end, properties).
    pub rel_writes: Vec<RelWrite>,
    pub rel_type: Option<String>,
}

/// Runs `gds.<algo>.<mode>` over a projection: the algorithm, then the mode's rendering
/// (`stream` rows, `stats` summary, `mutate` into a copy of the projection that replaces it
/// in the catalog, `write` as instructions for the caller).
pub(super) fn run(
    g: &crate::graph::Graph,
    procedure: &str,
    algo: &Algo,
    mode: Mode,
    args: &[Value],
    tick: Tick,
    path_rel: super::PathRel,
) -> Result<Answer> {
    let name = super::graph_name(procedure, args)?;
    let p = super::projected(g, procedure, args)?;
    let c = configure(procedure, algo.kind, mode, args.get(1))?;
    if mode == Mode::Mutate {
        if let Some(k) = get_str(&c, "mutateProperty").filter(|_| !writes_relationships(algo.kind))
        {
            if p.node_props.contains_key(k) {
                return Err(illegal(
                    procedure,
                    format!("Node property `{k}` already exists in the in-memory graph."),
                ));
            }
        }
        if let Some(t) = get_str(&c, "mutateRelationshipType") {
            if p.rels.iter().any(|r| r.name == t) {
                return Err(illegal(
                    procedure,
                    format!("Relationship type `{t}` already exists in the in-memory graph."),
                ));
            }
        }
    }
    let (v, outcome) = compute(procedure, algo.kind, &p, &c, args.get(1), tick)?;
    let signature = crate::catalogue::procedure(procedure)
        .and_then(|pr| pr.signature())
        .map(|s| s.outputs.iter().map(|o| o.name.clone()).collect::<Vec<_>>())
        .unwrap_or_default();
    let mut answer = Answer {
        rows: (Vec::new(), Vec::new()),
        node_writes: Vec::new(),
        property: None,
        rel_writes: Vec::new(),
        rel_type: None,
    };
    let node_id = |k: usize| Value::Int(v.ids[k].0 as i64);
    // Per-node values, for stream / mutate / write.
    let node_values: Option<Vec<Value>> = match &outcome {
        Outcome::Scores { scores, .. } => Some(scores.iter().map(|s| Value::Float(*s)).collect()),
        Outcome::Communities { ids, louvain, .. } => {
            let ids = if get_bool(&c, "consecutiveIds") {
                consecutive(ids)
            } else {
                ids.clone()
            };
            match louvain {
                Some((_, levels))
                    if get_bool(&c, "includeIntermediateCommunities") && mode != Mode::Stream =>
                {
                    Some(
                        (0..ids.len())
                            .map(|i| Value::List(levels.iter().map(|l| Value::Int(l[i])).collect()))
                            .collect(),
                    )
                }
                _ => Some(ids.into_iter().map(Value::Int).collect()),
            }
        }
        Outcome::Triangles { counts, .. } => Some(counts.iter().map(|x| Value::Int(*x)).collect()),
        Outcome::Clustering { coefficients } => {
            Some(coefficients.iter().map(|x| Value::Float(*x)).collect())
        }
        _ => None,
    };
    // Which nodes a community algorithm reports (`minComponentSize` / `minCommunitySize`).
    let keep_node = |k: usize| -> bool {
        let min = get_i64(&c, "minComponentSize", get_i64(&c, "minCommunitySize", 0));
        if min <= 0 {
            return true;
        }
        match &outcome {
            Outcome::Communities { ids, .. } => {
                ids.iter().filter(|x| **x == ids[k]).count() as i64 >= min
            }
            _ => true,
        }
    };
    if mode == Mode::Stream {
        let (columns, rows) = stream_rows(
            algo.kind,
            &outcome,
            &v,
            &c,
            node_values.as_deref(),
            &keep_node,
            path_rel,
        )?;
        answer.rows = (cols(&columns), rows);
        return Ok(answer);
    }
    // Summary fields, by column name.
    let mut fields: BTreeMap<&str, Value> = BTreeMap::new();
    for k in [
        "preProcessingMillis",
        "computeMillis",
        "postProcessingMillis",
        "mutateMillis",
        "writeMillis",
    ] {
        fields.insert(k, Value::Int(0));
    }
    let mut configuration = c.clone();
    if let Some(Value::Map(given)) = args.get(1) {
        if let Some(j) = given.get("jobId") {
            configuration.insert(Arc::from("jobId"), j.clone());
        }
    }
    fields.insert("configuration", Value::Map(configuration));
    let mut relationships: Vec<(usize, usize, Props)> = Vec::new();
    match &outcome {
        Outcome::Scores { scores, ran } => {
            fields.insert(
                "centralityDistribution",
                float_distribution(scores, CENTRALITY_PERCENTILES, false),
            );
            if let Some((r, conv)) = ran {
                fields.insert("ranIterations", Value::Int(*r));
                fields.insert("didConverge", Value::Bool(*conv));
            }
        }
        Outcome::Communities { ids, ran, louvain } => {
            let (count, dist) = community_distribution(ids);
            fields.insert("communityCount", Value::Int(count));
            fields.insert("componentCount", Value::Int(count));
            fields.insert("communityDistribution", dist.clone());
            fields.insert("componentDistribution", dist);
            if let Some((r, conv)) = ran {
                fields.insert("ranIterations", Value::Int(*r));
                fields.insert("didConverge", Value::Bool(*conv));
            }
            if let Some((mods, _)) = louvain {
                fields.insert(
                    "modularity",
                    Value::Float(mods.last().copied().unwrap_or(0.0)),
                );
                fields.insert(
                    "modularities",
                    Value::List(mods.iter().map(|m| Value::Float(*m)).collect()),
                );
                fields.insert("ranLevels", Value::Int(mods.len() as i64));
            }
        }
        Outcome::Triangles { global, .. } => {
            fields.insert("globalTriangleCount", Value::Int(*global));
            fields.insert("nodeCount", Value::Int(v.n() as i64));
        }
        Outcome::Clustering { coefficients } => {
            let valid: Vec<f64> = coefficients
                .iter()
                .copied()
                .filter(|x| !x.is_nan())
                .collect();
            let avg = if v.n() == 0 {
                0.0
            } else {
                valid.iter().fold(0.0, |a, b| a + b) / v.n() as f64
            };
            fields.insert("averageClusteringCoefficient", Value::Float(avg));
            fields.insert("nodeCount", Value::Int(v.n() as i64));
        }
        Outcome::Pairs {
            pairs,
            nodes_compared,
            knn,
        } => {
            let sims: Vec<f64> = pairs.iter().map(|x| x.2).collect();
            fields.insert("nodesCompared", Value::Int(*nodes_compared));
            fields.insert("similarityPairs", Value::Int(pairs.len() as i64));
            fields.insert(
                "similarityDistribution",
                float_distribution(&sims, SIMILARITY_PERCENTILES, true),
            );
            if let Some((ran, converged, considered)) = knn {
                fields.insert("ranIterations", Value::Int(*ran));
                fields.insert("didConverge", Value::Bool(*converged));
                fields.insert("nodePairsConsidered", Value::Int(*considered));
            }
            let key = get_str(
                &c,
                if mode == Mode::Write {
                    "writeProperty"
                } else {
                    "mutateProperty"
                },
            )
            .unwrap_or("similarity")
            .to_string();
            for (a, b, s) in pairs {
                relationships.push((*a, *b, vec![(key.clone(), Value::Float(*s))]));
            }
        }
        Outcome::Paths { source, paths } => {
            let _ = source;
            for path in paths {
                let mut props = vec![(
                    "totalCost".to_string(),
                    Value::Float(path.costs.last().copied().unwrap_or(0.0)),
                )];
                if mode == Mode::Write {
                    if get_bool(&c, "writeNodeIds") {
                        props.push((
                            "nodeIds".into(),
                            Value::List(path.nodes.iter().map(|&k| node_id(k)).collect()),
                        ));
                    }
                    if get_bool(&c, "writeCosts") {
                        props.push((
                            "costs".into(),
                            Value::List(path.costs.iter().map(|x| Value::Float(*x)).collect()),
                        ));
                    }
                }
                relationships.push((path.nodes[0], path.target, props));
            }
        }
        Outcome::Traversal { order, .. } => {
            for pair in order.windows(2) {
                relationships.push((pair[0], pair[1], Vec::new()));
            }
        }
    }
    match mode {
        Mode::Mutate => {
            let mut q: Projection = (*p).clone();
            if let Some(values) = &node_values {
                let key = get_str(&c, "mutateProperty").unwrap_or("").to_string();
                let mut column = vec![Value::Null; q.nodes.len()];
                let mut written = 0;
                let mut labels: Vec<usize> = Vec::new();
                for (k, value) in values.iter().enumerate() {
                    if keep_node(k) {
                        column[v.nodes[k]] = value.clone();
                        written += 1;
                        for l in &q.node_labels[v.nodes[k]] {
                            if !labels.contains(l) {
                                labels.push(*l);
                            }
                        }
                    }
                }
                q.node_props.insert(
                    key,
                    NodeProperty {
                        values: column,
                        transient: true,
                        default: Value::Null,
                        labels,
                    },
                );
                fields.insert("nodePropertiesWritten", Value::Int(written));
            } else {
                let ty = get_str(&c, "mutateRelationshipType")
                    .unwrap_or("")
                    .to_string();
                let keys: Vec<String> = relationships
                    .first()
                    .map(|r| r.2.iter().map(|(k, _)| k.clone()).collect())
                    .unwrap_or_else(|| match &outcome {
                        Outcome::Pairs { .. } => {
                            vec![get_str(&c, "mutateProperty")
                                .unwrap_or("similarity")
                                .to_string()]
                        }
                        Outcome::Paths { .. } => vec!["totalCost".to_string()],
                        _ => Vec::new(),
                    });
                let mut adj = vec![Vec::new(); q.nodes.len()];
                for (a, b, props) in &relationships {
                    let values = props
                        .iter()
                        .map(|(_, x)| x.as_f64().unwrap_or(f64::NAN))
                        .collect();
                    adj[v.nodes[*a]].push((v.nodes[*b], values));
                }
                for list in &mut adj {
                    list.sort_by_key(|(t, _)| *t);
                }
                catalog::add_type(
                    &mut q,
                    RelType {
                        name: ty,
                        orientation: "NATURAL".into(),
                        transient: true,
                        aggregations: Vec::new(),
                        properties: keys.into_iter().map(|k| (k, f64::NAN, false)).collect(),
                        adj,
                        count: relationships.len(),
                    },
                );
                fields.insert(
                    "relationshipsWritten",
                    Value::Int(relationships.len() as i64),
                );
            }
            q.modified = catalog::now_utc();
            catalog::replace(g, &name, q);
        }
        Mode::Write => {
            if let Some(values) = &node_values {
                answer.property = get_str(&c, "writeProperty").map(String::from);
                for (k, value) in values.iter().enumerate() {
                    if keep_node(k) {
                        answer.node_writes.push((v.ids[k], value.clone()));
                    }
                }
                fields.insert(
                    "nodePropertiesWritten",
                    Value::Int(answer.node_writes.len() as i64),
                );
            } else {
                answer.rel_type = get_str(&c, "writeRelationshipType").map(String::from);
                for (a, b, props) in relationships {
                    answer.rel_writes.push((v.ids[a], v.ids[b], props));
                }
                fields.insert(
                    "relationshipsWritten",
                    Value::Int(answer.rel_writes.len() as i64),
                );
            }
        }
        _ => {}
    }
    let row = signature
        .iter()
        .map(|k| fields.get(k.as_str()).cloned().unwrap_or(Value::Null))
        .collect();
    let names: Vec<&str> = signature.iter().map(String::as_str).collect();
    answer.rows = (cols(&names), vec![row]);
    Ok(answer)
}

/// The `stream` mode's columns and rows.
fn stream_rows(
    algo: AlgoKind,
    outcome: &Outcome,
    v: &View,
    c: &BTreeMap<Arc<str>, Value>,
    node_values: Option<&[Value]>,
    keep_node: &dyn Fn(usize) -> bool,
    path_rel: super::PathRel,
) -> Result<(Vec<&'static str>, Vec<Vec<Value>>)> {
    let id = |k: usize| Value::Int(v.ids[k].0 as i64);
    let per_node = |column: &'static str| -> (Vec<&'static str>, Vec<Vec<Value>>) {
        let values = node_values.unwrap_or(&[]);
        (
            vec!["nodeId", column],
            (0..v.n())
                .filter(|k| keep_node(*k))
                .map(|k| vec![id(k), values[k].clone()])
                .collect(),
        )
    };
    Ok(match outcome {
        Outcome::Scores { .. } => per_node("score"),
        Outcome::Clustering { .. } => per_node("localClusteringCoefficient"),
        Outcome::Triangles { .. } => per_node("triangleCount"),
        Outcome::Communities { louvain, .. } => {
            let column = if algo == AlgoKind::Wcc {
                "componentId"
            } else {
                "communityId"
            };
            let (mut columns, mut rows) = per_node(column);
            if let Some((_, levels)) = louvain {
                columns.push("intermediateCommunityIds");
                let kept: Vec<usize> = (0..v.n()).filter(|k| keep_node(*k)).collect();
                for (row, k) in rows.iter_mut().zip(kept) {
                    row.push(if get_bool(c, "includeIntermediateCommunities") {
                        Value::List(levels.iter().map(|l| Value::Int(l[k])).collect())
                    } else {
                        Value::Null
                    });
                }
            }
            (columns, rows)
        }
        Outcome::Pairs { pairs, .. } => (
            vec!["node1", "node2", "similarity"],
            pairs
                .iter()
                .map(|(a, b, s)| vec![id(*a), id(*b), Value::Float(*s)])
                .collect(),
        ),
        Outcome::Paths { source, paths } => {
            let mut rows = Vec::new();
            for (index, path) in paths.iter().enumerate() {
                let ty = format!("PATH_{index}");
                let mut rels = Vec::new();
                for (i, pair) in path.nodes.windows(2).enumerate() {
                    rels.push(path_rel(
                        v.ids[pair[0]],
                        v.ids[pair[1]],
                        &ty,
                        Some(path.costs[i + 1] - path.costs[i]),
                    )?);
                }
                let value_path = crate::value::Path {
                    nodes: path.nodes.iter().map(|&k| v.ids[k]).collect(),
                    rels,
                };
                rows.push(vec![
                    Value::Int(index as i64),
                    id(*source),
                    id(path.target),
                    Value::Float(path.costs.last().copied().unwrap_or(0.0)),
                    Value::List(path.nodes.iter().map(|&k| id(k)).collect()),
                    Value::List(path.costs.iter().map(|x| Value::Float(*x)).collect()),
                    Value::Path(Arc::new(value_path)),
                ]);
            }
            (
                vec![
                    "index",
                    "sourceNode",
                    "targetNode",
                    "totalCost",
                    "nodeIds",
                    "costs",
                    "path",
                ],
                rows,
            )
        }
        Outcome::Traversal { source, order } => {
            let mut rels = Vec::new();
            for pair in order.windows(2) {
                rels.push(path_rel(v.ids[pair[0]], v.ids[pair[1]], "NEXT", None)?);
            }
            let value_path = crate::value::Path {
                nodes: order.iter().map(|&k| v.ids[k]).collect(),
                rels,
            };
            (
                vec!["sourceNode", "nodeIds", "path"],
                vec![vec![
                    id(*source),
                    Value::List(order.iter().map(|&k| id(k)).collect()),
                    Value::Path(Arc::new(value_path)),
                ]],
            )
        }
    })
}
