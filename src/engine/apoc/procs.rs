//! APOC's reading procedures: path expansion (`apoc.path.expand`, `expandConfig`,
//! `subgraphNodes`, `subgraphAll`, `spanningTree`), neighbourhoods (`apoc.neighbors.*`), elements
//! by id (`apoc.nodes.get`, `apoc.nodes.rels`), `apoc.cypher.run`, the type-property tables of
//! `apoc.meta.nodeTypeProperties` / `relTypeProperties`; and Neo4j's `db.info` and
//! `dbms.listConfig`.
//!
//! Path expansion follows APOC's PathExplorer: a relationship filter (`TYPE`, `TYPE>`, `<TYPE`,
//! `>`, `<`, joined by `|`), a label filter (`+white`, `-black`, `/terminator`, `>end`, `*` for
//! any label, joined by `|`) — each a repeating sequence when comma-separated, or both
//! alternating in `sequence`, from the start node or one hop away (`beginSequenceAtStart`) —,
//! levels, uniqueness (`RELATIONSHIP_PATH` by default, `NODE_GLOBAL` for the subgraph
//! procedures), breadth or depth first, a limit, `optional`, and node lists (`endNodes`,
//! `terminatorNodes`, `whitelistNodes`/`allowlistNodes`, `blacklistNodes`/`denylistNodes`).

use super::*;
use crate::graph::{Graph, Sym};
use crate::value::{NodeId, Path, RelId};
use std::collections::VecDeque;

pub(crate) type Rows = (Vec<Arc<str>>, Vec<Vec<Value>>);

family! {
    /// The reading procedures this file runs.
    ApocProc {
        "apoc.create.clonepathstovirtual" => CreateClonePathsToVirtual,
        "apoc.create.clonepathtovirtual" => CreateClonePathToVirtual,
        "apoc.create.uuids" => CreateUuids,
        "apoc.create.virtualpath" => CreateVirtualPath,
        "apoc.create.vnode" => CreateVNode,
        "apoc.create.vnodes" => CreateVNodes,
        "apoc.create.vrelationship" => CreateVRelationship,
        "apoc.cypher.run" => CypherRun,
        "apoc.meta.nodetypeproperties" => MetaNodeTypeProperties,
        "apoc.meta.reltypeproperties" => MetaRelTypeProperties,
        "apoc.neighbors.athop" => NeighborsAthop,
        "apoc.neighbors.athop.count" => NeighborsAthopCount,
        "apoc.neighbors.byhop" => NeighborsByhop,
        "apoc.neighbors.byhop.count" => NeighborsByhopCount,
        "apoc.neighbors.tohop" => NeighborsTohop,
        "apoc.neighbors.tohop.count" => NeighborsTohopCount,
        "apoc.nodes.collapse" => NodesCollapse,
        "apoc.nodes.cycles" => NodesCycles,
        "apoc.nodes.get" => NodesGet,
        "apoc.nodes.group" => NodesGroup,
        "apoc.nodes.rels" => NodesRels,
        "apoc.path.expand" => PathExpand,
        "apoc.path.expandconfig" => PathExpandConfig,
        "apoc.path.spanningtree" => PathSpanningTree,
        "apoc.path.subgraphall" => PathSubgraphAll,
        "apoc.path.subgraphnodes" => PathSubgraphNodes,
        "apoc.util.sleep" => UtilSleep,
        "db.info" => DbInfo,
        "dbms.listconfig" => DbmsListconfig,
    }
}

fn cols(names: &[&str]) -> Vec<Arc<str>> {
    names.iter().map(|n| Arc::from(*n)).collect()
}

/// Runs the reading procedure `lname` (one of [`PROCEDURES`]); `procedure` is its name as the
/// catalogue spells it, for messages.
pub(crate) fn call(run: &Runner, m: ApocProc, procedure: &str, args: &[Value]) -> Result<Rows> {
    let p = procedure;
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    match m {
        // Sleeps in slices, the statement's deadline (a driver's transaction timeout
        // included) and cancellation checked after each; a void procedure: the row goes on.
        ApocProc::UtilSleep => {
            let ms = match a0 {
                Value::Int(i) => *i,
                Value::Float(f) => *f as i64,
                Value::Null => return Err(ExecError::procedure_failed(p, "java.lang.ClassCastException: class org.neo4j.values.storable.NoValue cannot be cast to class org.neo4j.values.storable.NumberValue (org.neo4j.values.storable.NoValue and org.neo4j.values.storable.NumberValue are in unnamed module of loader 'app')")),
                other => return Err(wrong(p, other, "an integer")),
            };
            let end =
                std::time::Instant::now() + std::time::Duration::from_millis(ms.max(0) as u64);
            loop {
                run.sh.check_now()?;
                let left = end.saturating_duration_since(std::time::Instant::now());
                if left.is_zero() {
                    break;
                }
                std::thread::sleep(left.min(std::time::Duration::from_millis(10)));
            }
            Ok((Vec::new(), vec![Vec::new()]))
        }
        ApocProc::PathExpand => {
            let mut e = Expansion::new(Uniqueness::RelationshipPath);
            e.rels = rel_sequence(run.graph(), text(p, a1)?.unwrap_or(""));
            e.labels = LabelFilter::sequence(text(p, a2)?.unwrap_or(""));
            e.min = level(p, arg(args, 3))?.unwrap_or(0);
            e.max = level(p, arg(args, 4))?;
            let paths = e.run(run, &start_nodes(run, p, a0)?)?;
            Ok((
                cols(&["path"]),
                paths.into_iter().map(|x| vec![x]).collect(),
            ))
        }
        ApocProc::PathExpandConfig | ApocProc::PathSpanningTree => {
            let global = m == ApocProc::PathSpanningTree;
            let e = Expansion::configured(run, p, map(p, a1)?, global)?;
            let paths = e.run(run, &start_nodes(run, p, a0)?)?;
            Ok((
                cols(&["path"]),
                paths.into_iter().map(|x| vec![x]).collect(),
            ))
        }
        ApocProc::PathSubgraphNodes | ApocProc::PathSubgraphAll => {
            let e = Expansion::configured(run, p, map(p, a1)?, true)?;
            let mut nodes = Vec::new();
            for path in e.run(run, &start_nodes(run, p, a0)?)? {
                if let Value::Path(x) = path {
                    if let Some(n) = x.nodes.last() {
                        nodes.push(*n);
                    }
                }
            }
            if m == ApocProc::PathSubgraphNodes {
                return Ok((
                    cols(&["node"]),
                    nodes.into_iter().map(|n| vec![Value::Node(n)]).collect(),
                ));
            }
            let rels = cover(run, &nodes)?;
            Ok((
                cols(&["nodes", "relationships"]),
                vec![vec![
                    Value::List(nodes.into_iter().map(Value::Node).collect()),
                    Value::List(rels.into_iter().map(Value::Relationship).collect()),
                ]],
            ))
        }
        ApocProc::NeighborsTohop
        | ApocProc::NeighborsTohopCount
        | ApocProc::NeighborsByhop
        | ApocProc::NeighborsByhopCount
        | ApocProc::NeighborsAthop
        | ApocProc::NeighborsAthopCount => {
            let Value::Node(start) = a0 else {
                if matches!(a0, Value::Null) {
                    return Ok((neighbors_columns(m), Vec::new()));
                }
                return Err(wrong(p, a0, "a node"));
            };
            let distance = match a2 {
                Value::Null => 1,
                v => int(p, v)?.unwrap_or(1),
            };
            // As APOC: no types, or no distance, and there is nothing to find.
            let types = text(p, a1)?.unwrap_or("");
            if distance < 1 || types.is_empty() {
                let levels = vec![Vec::new(); distance.max(0) as usize];
                return Ok((neighbors_columns(m), neighbors_rows(m, levels)));
            }
            let levels = neighbours_by_hop(
                run,
                *start,
                &rel_sequence(run.graph(), types),
                distance as usize,
            )?;
            Ok((neighbors_columns(m), neighbors_rows(m, levels)))
        }
        // Nodes and relationships by element, id or element id (those that exist).
        ApocProc::NodesGet => {
            let nodes = super::write::Call::new(p, run.sh).nodes(run.graph(), a0)?;
            Ok((
                cols(&["node"]),
                nodes.into_iter().map(|n| vec![Value::Node(n)]).collect(),
            ))
        }
        ApocProc::NodesRels => {
            let rels = super::write::Call::new(p, run.sh).rels(run.graph(), a0)?;
            Ok((
                cols(&["rel"]),
                rels.into_iter()
                    .map(|r| vec![Value::Relationship(r)])
                    .collect(),
            ))
        }
        // Virtual elements: returned with their labels, types and properties, never stored.
        ApocProc::CreateVNode | ApocProc::CreateVNodes => {
            let labels: Vec<Arc<str>> = strings(p, a0)?.iter().map(|l| key(l)).collect();
            let maps: Vec<&Value> = if m == ApocProc::CreateVNodes {
                flatten(a1)
            } else {
                vec![a1]
            };
            let mut rows = Vec::new();
            for m in maps {
                let props = map(p, m)?.cloned().unwrap_or_default();
                rows.push(vec![Value::Node(
                    run.sh.virtual_node(labels.clone(), props)?,
                )]);
            }
            Ok((cols(&["node"]), rows))
        }
        ApocProc::CreateVRelationship => {
            let (Value::Node(from), Value::Node(to)) = (a0, arg(args, 3)) else {
                return Err(failed(p, "the start and end must be nodes"));
            };
            let ty = text(p, a1)?.ok_or_else(|| failed(p, "the type is null"))?;
            let props = map(p, a2)?.cloned().unwrap_or_default();
            let r = run.sh.virtual_rel(key(ty), *from, *to, props)?;
            Ok((cols(&["rel"]), vec![vec![Value::Relationship(r)]]))
        }
        ApocProc::CreateVirtualPath => {
            let node = |labels: &Value, props: &Value| -> Result<NodeId> {
                let labels = strings(p, labels)?.iter().map(|l| key(l)).collect();
                run.sh
                    .virtual_node(labels, map(p, props)?.cloned().unwrap_or_default())
            };
            let from = node(a0, a1)?;
            let to = node(arg(args, 4), arg(args, 5))?;
            let ty = text(p, a2)?.ok_or_else(|| failed(p, "the type is null"))?;
            let props = map(p, arg(args, 3))?.cloned().unwrap_or_default();
            let r = run.sh.virtual_rel(key(ty), from, to, props)?;
            Ok((
                cols(&["from", "rel", "to"]),
                vec![vec![
                    Value::Node(from),
                    Value::Relationship(r),
                    Value::Node(to),
                ]],
            ))
        }
        ApocProc::CreateClonePathToVirtual | ApocProc::CreateClonePathsToVirtual => {
            let mut rows = Vec::new();
            for v in flatten(a0) {
                match v {
                    Value::Path(path) => rows.push(vec![clone_path(run, path)?]),
                    Value::Null => {}
                    other => return Err(wrong(p, other, "a path")),
                }
            }
            Ok((cols(&["path"]), rows))
        }
        ApocProc::CreateUuids => {
            let n = int(p, a0)?.unwrap_or(0).max(0);
            let mut rows = Vec::new();
            for i in 0..n {
                run.sh.tick()?;
                rows.push(vec![
                    Value::Int(i),
                    Value::from(crate::engine::functions::random_uuid()),
                ]);
                run.sh.check_rows(rows.len())?;
            }
            Ok((cols(&["row", "uuid"]), rows))
        }
        ApocProc::NodesCollapse => {
            let mut nodes: Vec<NodeId> = Vec::new();
            for v in flatten(a0) {
                match v {
                    Value::Node(n) if !nodes.contains(n) => nodes.push(*n),
                    Value::Node(_) | Value::Null => {}
                    other => return Err(wrong(p, other, "a list of nodes")),
                }
            }
            Ok((
                cols(&["from", "rel", "to"]),
                collapse(run, p, &nodes, map(p, a1)?)?,
            ))
        }
        ApocProc::NodesGroup => {
            let rows = group(run, p, args)?;
            Ok((
                cols(&["nodes", "relationships", "node", "relationship"]),
                rows,
            ))
        }
        ApocProc::NodesCycles => {
            let config = map(p, a1)?;
            let types: Vec<String> = match config.and_then(|c| c.get("relTypes")) {
                None | Some(Value::Null) => Vec::new(),
                Some(v) => strings(p, v)?,
            };
            let max_depth = match config.and_then(|c| c.get("maxDepth")) {
                None | Some(Value::Null) => None,
                Some(v) => level(p, v)?,
            };
            let mut rows = Vec::new();
            for v in flatten(a0) {
                if let Value::Node(n) = v {
                    for path in cycles(run, *n, &types, max_depth)? {
                        rows.push(vec![path]);
                    }
                }
            }
            Ok((cols(&["path"]), rows))
        }
        ApocProc::CypherRun => {
            let statement = text(p, a0)?.ok_or_else(|| failed(p, "the statement is null"))?;
            let params: crate::engine::Params = map(p, a1)?
                .map(|m| m.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
                .unwrap_or_default();
            let table = crate::engine::run_nested_read(run, statement, &params)?;
            let rows = table.row_maps().into_iter().map(|m| vec![m]).collect();
            Ok((cols(&["value"]), rows))
        }
        ApocProc::MetaNodeTypeProperties => Ok(node_type_properties(run.graph(), p, map(p, a0)?)?),
        ApocProc::MetaRelTypeProperties => Ok(rel_type_properties(run.graph(), p, map(p, a0)?)?),
        ApocProc::DbInfo => {
            let db = run.database();
            Ok((
                cols(&["id", "name", "creationDate"]),
                vec![vec![
                    Value::from(
                        crate::value::database_id(db)
                            .replace('-', "")
                            .to_uppercase(),
                    ),
                    Value::from(db),
                    Value::from(started().as_str()),
                ]],
            ))
        }
        ApocProc::DbmsListconfig => {
            let search = text(p, a0)?.unwrap_or("").to_lowercase();
            Ok((
                cols(&[
                    "name",
                    "description",
                    "value",
                    "dynamic",
                    "defaultValue",
                    "startupValue",
                    "explicitlySet",
                    "validValues",
                ]),
                settings(run)
                    .into_iter()
                    .filter(|r| {
                        r[0].as_str()
                            .is_some_and(|n| n.to_lowercase().contains(&search))
                    })
                    .collect(),
            ))
        }
    }
}

/// When this process first answered `db.info`: the creation date grape reports for its
/// in-memory databases, which are made when the process starts.
fn started() -> &'static String {
    static STARTED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    STARTED.get_or_init(|| {
        crate::temporal::now_utc()
            .and_utc()
            .format("%Y-%m-%dT%H:%M:%S%.3fZ")
            .to_string()
    })
}

/// The settings `dbms.listConfig` reports: the ones grape has, with the values the statement
/// runs under (name, description, value, dynamic, default, startup value, explicitly set,
/// valid values).
fn settings(run: &Runner) -> Vec<Vec<Value>> {
    let sh = run.sh;
    let timeout = sh
        .limits
        .timeout
        .map_or("0s".to_string(), |t| format!("{}ms", t.as_millis()));
    let language = if sh.cypher25 { "CYPHER_25" } else { "CYPHER_5" };
    let import = sh
        .import_dir
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let row = |name: &str, description: &str, value: &str, default: &str, valid: &str| {
        vec![
            Value::from(name),
            Value::from(description),
            Value::from(value),
            Value::Bool(false),
            Value::from(default),
            Value::from(value),
            Value::Bool(value != default),
            Value::from(valid),
        ]
    };
    vec![
        row(
            "db.transaction.timeout",
            "The maximum time a statement may run (grape's --timeout-ms).",
            &timeout,
            "0s",
            "a duration (Valid units are: `ns`, `μs`, `ms`, `s`, `m`, `h` and `d`; default unit is `s`)",
        ),
        row(
            "db.query.default_language",
            "The Cypher version of statements without a CYPHER prefix.",
            language,
            "CYPHER_5",
            "one of [CYPHER_5, CYPHER_25]",
        ),
        row(
            "dbms.security.allow_csv_import_from_file_urls",
            "Whether LOAD CSV may read file:/// URLs.",
            "true",
            "true",
            "a boolean",
        ),
        row(
            "server.directories.import",
            "The directory LOAD CSV's file:/// URLs name (empty: absolute paths).",
            &import,
            "",
            "a path",
        ),
    ]
}

fn neighbors_columns(m: ApocProc) -> Vec<Arc<str>> {
    match m {
        ApocProc::NeighborsByhop => cols(&["nodes"]),
        ApocProc::NeighborsTohopCount
        | ApocProc::NeighborsByhopCount
        | ApocProc::NeighborsAthopCount => cols(&["value"]),
        _ => cols(&["node"]),
    }
}

fn neighbors_rows(m: ApocProc, levels: Vec<Vec<NodeId>>) -> Vec<Vec<Value>> {
    let nodes = |ns: &[NodeId]| ns.iter().map(|n| Value::Node(*n)).collect::<Vec<_>>();
    match m {
        ApocProc::NeighborsTohop => {
            let mut all: Vec<NodeId> = levels.into_iter().flatten().collect();
            all.sort_unstable();
            all.into_iter().map(|n| vec![Value::Node(n)]).collect()
        }
        ApocProc::NeighborsTohopCount => {
            vec![vec![Value::Int(
                levels.iter().map(Vec::len).sum::<usize>() as i64
            )]]
        }
        ApocProc::NeighborsByhop => levels.iter().map(|l| vec![Value::List(nodes(l))]).collect(),
        ApocProc::NeighborsByhopCount => vec![vec![Value::List(
            levels.iter().map(|l| Value::Int(l.len() as i64)).collect(),
        )]],
        ApocProc::NeighborsAthop => levels
            .last()
            .map(|l| l.iter().map(|n| vec![Value::Node(*n)]).collect())
            .unwrap_or_default(),
        _ => vec![vec![Value::Int(levels.last().map_or(0, Vec::len) as i64)]],
    }
}

/// The nodes first reached at each hop 1..=`distance` from `start` (each node once, the start
/// not among them).
fn neighbours_by_hop(
    run: &Runner,
    start: NodeId,
    rels: &[Vec<RelStep>],
    distance: usize,
) -> Result<Vec<Vec<NodeId>>> {
    let g = run.graph();
    let mut seen: HashSet<NodeId> = HashSet::from([start]);
    let mut frontier = vec![start];
    let mut levels = Vec::new();
    for hop in 0..distance {
        let mut next = Vec::new();
        for n in &frontier {
            each_step(run, g, *n, step_filter(rels, hop), |_, m| {
                if seen.insert(m) {
                    next.push(m);
                }
                Ok(true)
            })?;
        }
        frontier = next.clone();
        // APOC returns each level in the order of the nodes' ids.
        next.sort_unstable();
        levels.push(next);
    }
    Ok(levels)
}

/// One alternative of a relationship filter: a type (any when `None`), a direction, and
/// whether the type exists in the graph at all.
type RelStep = (Option<Sym>, Dir, bool);

/// A relationship filter, as a sequence of steps (one per hop, repeating); one step for a
/// filter without commas.
fn rel_sequence(g: &Graph, spec: &str) -> Vec<Vec<RelStep>> {
    spec.split(',')
        .map(|part| super::graph::rel_filter(g, part.trim()))
        .collect()
}

fn step_filter(seq: &[Vec<RelStep>], hop: usize) -> &[RelStep] {
    if seq.is_empty() {
        return &[];
    }
    &seq[hop % seq.len()]
}

/// Calls `f(relationship, other node)` for each relationship at `n` the filter allows (all,
/// for an empty filter), each once; stops when `f` returns false.
fn each_step(
    run: &Runner,
    g: &Graph,
    n: NodeId,
    filter: &[RelStep],
    mut f: impl FnMut(RelId, NodeId) -> Result<bool>,
) -> Result<()> {
    let mut done: HashSet<RelId> = HashSet::new();
    let all = [(None, Dir::Both, true)];
    let filter = if filter.is_empty() { &all[..] } else { filter };
    for (ty, dir, known) in filter {
        if !known {
            continue;
        }
        let types = ty.map(|t| [t]);
        for (r, m) in g.neighbours_iter(n, *dir, types.as_ref().map(|t| &t[..])) {
            run.sh.tick()?;
            if done.insert(r) && !f(r, m)? {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// APOC's uniqueness rules for path expansion.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Uniqueness {
    RelationshipPath,
    NodePath,
    NodeGlobal,
    RelationshipGlobal,
    None,
}

impl Uniqueness {
    fn parse(p: &str, s: &str) -> Result<Uniqueness> {
        Ok(match s.to_ascii_uppercase().as_str() {
            "RELATIONSHIP_PATH" => Uniqueness::RelationshipPath,
            "NODE_PATH" => Uniqueness::NodePath,
            "NODE_GLOBAL" => Uniqueness::NodeGlobal,
            "RELATIONSHIP_GLOBAL" => Uniqueness::RelationshipGlobal,
            "NONE" => Uniqueness::None,
            "NODE_RECENT" | "NODE_LEVEL" | "RELATIONSHIP_RECENT" | "RELATIONSHIP_LEVEL" => {
                return Err(ExecError::runtime(
                    ErrorKind::Unsupported,
                    format!("{p}: the uniqueness {s} is not supported by grape"),
                ))
            }
            _ => {
                return Err(failed(
                    p,
                    format!("java.lang.IllegalArgumentException: No enum constant org.neo4j.graphdb.traversal.Uniqueness.{s}"),
                ))
            }
        })
    }
}

/// APOC's label filter: `+white`, `-black`, `/terminator`, `>end` (a name alone is white; `*`
/// stands for any label).
#[derive(Default)]
struct LabelFilter {
    white: Vec<String>,
    black: Vec<String>,
    terminator: Vec<String>,
    end: Vec<String>,
}

impl LabelFilter {
    fn parse(spec: &str) -> LabelFilter {
        let mut f = LabelFilter::default();
        for part in spec.split('|').map(str::trim).filter(|x| !x.is_empty()) {
            let (list, name) = match part.as_bytes()[0] {
                b'+' => (&mut f.white, &part[1..]),
                b'-' => (&mut f.black, &part[1..]),
                b'/' => (&mut f.terminator, &part[1..]),
                b'>' => (&mut f.end, &part[1..]),
                _ => (&mut f.white, part),
            };
            list.push(name.trim().trim_matches('`').to_string());
        }
        f
    }

    /// A sequence of filters, one per node position (`Post|-Blocked,Reply,>Admin`).
    fn sequence(spec: &str) -> Vec<LabelFilter> {
        if spec.trim().is_empty() {
            return Vec::new();
        }
        spec.split(',').map(LabelFilter::parse).collect()
    }

    fn has_ends(&self) -> bool {
        !self.end.is_empty() || !self.terminator.is_empty()
    }
}

/// What the filters make of a node reached by the expansion.
enum Judged {
    /// Not on any path.
    Excluded,
    /// On paths: whether a path ending here is a result, and whether to expand further.
    Kept { result: bool, expand: bool },
}

/// A configured path expansion.
struct Expansion {
    /// Relationship filters, one per hop of a repeating sequence (none: any relationship).
    rels: Vec<Vec<RelStep>>,
    /// Label filters, one per node position of a repeating sequence (none: any node).
    labels: Vec<LabelFilter>,
    /// Whether the sequences start at the start node (else one hop away: the first
    /// relationship filter is used for the first hop only).
    begin_at_start: bool,
    min: usize,
    max: Option<usize>,
    uniqueness: Uniqueness,
    bfs: bool,
    limit: Option<usize>,
    filter_start: bool,
    optional: bool,
    end_nodes: Option<HashSet<NodeId>>,
    terminator_nodes: Option<HashSet<NodeId>>,
    whitelist_nodes: Option<HashSet<NodeId>>,
    blacklist_nodes: HashSet<NodeId>,
}

impl Expansion {
    fn new(uniqueness: Uniqueness) -> Expansion {
        Expansion {
            rels: Vec::new(),
            labels: Vec::new(),
            begin_at_start: true,
            min: 0,
            max: None,
            uniqueness,
            bfs: true,
            limit: None,
            filter_start: false,
            optional: false,
            end_nodes: None,
            terminator_nodes: None,
            whitelist_nodes: None,
            blacklist_nodes: HashSet::new(),
        }
    }

    /// From `apoc.path.expandConfig`'s map (the subgraph procedures and `spanningTree` use
    /// `NODE_GLOBAL` and ignore a `uniqueness` given).
    fn configured(
        run: &Runner,
        p: &str,
        config: Option<&BTreeMap<Arc<str>, Value>>,
        global: bool,
    ) -> Result<Expansion> {
        let g = run.graph();
        let mut e = Expansion::new(if global {
            Uniqueness::NodeGlobal
        } else {
            Uniqueness::RelationshipPath
        });
        let Some(c) = config else { return Ok(e) };
        let get = |k: &str| c.get(k).unwrap_or(&Value::Null);
        e.begin_at_start = flag(get("beginSequenceAtStart"), true);
        match text(p, get("sequence"))? {
            // Alternating label and relationship filters; one hop away from the start, a
            // relationship filter comes first.
            Some(seq) if !seq.trim().is_empty() => {
                let items: Vec<&str> = seq.split(',').map(str::trim).collect();
                let (first_rel, rest) = if e.begin_at_start {
                    (None, &items[..])
                } else {
                    (items.first().copied(), items.get(1..).unwrap_or(&[]))
                };
                e.labels = rest
                    .iter()
                    .step_by(2)
                    .map(|x| LabelFilter::parse(x))
                    .collect();
                e.rels = first_rel
                    .into_iter()
                    .chain(rest.iter().skip(1).step_by(2).copied())
                    .map(|x| super::graph::rel_filter(g, x))
                    .collect();
            }
            _ => {
                e.rels = rel_sequence(g, text(p, get("relationshipFilter"))?.unwrap_or(""));
                e.labels = LabelFilter::sequence(text(p, get("labelFilter"))?.unwrap_or(""));
            }
        }
        e.min = level(p, get("minLevel"))?.unwrap_or(0);
        e.max = level(p, get("maxLevel"))?;
        if !global {
            if let Some(u) = text(p, get("uniqueness"))? {
                e.uniqueness = Uniqueness::parse(p, u)?;
            }
        }
        e.bfs = flag(get("bfs"), true);
        e.limit = match int(p, get("limit"))? {
            Some(l) if l >= 0 => Some(l as usize),
            _ => None,
        };
        e.filter_start = flag(get("filterStartNode"), false);
        e.optional = flag(get("optional"), false);
        let nodes = |k: &str, alias: &str| -> Option<HashSet<NodeId>> {
            let v = match get(k) {
                Value::Null => get(alias),
                v => v,
            };
            match v {
                Value::Null => None,
                v => Some(
                    flatten(v)
                        .into_iter()
                        .filter_map(|x| match x {
                            Value::Node(n) => Some(*n),
                            _ => None,
                        })
                        .collect(),
                ),
            }
        };
        e.end_nodes = nodes("endNodes", "endNodes");
        e.terminator_nodes = nodes("terminatorNodes", "terminatorNodes");
        e.whitelist_nodes = nodes("whitelistNodes", "allowlistNodes");
        e.blacklist_nodes = nodes("blacklistNodes", "denylistNodes").unwrap_or_default();
        Ok(e)
    }

    /// Whether only paths ending at end or terminator nodes are results.
    fn has_ends(&self) -> bool {
        self.labels.iter().any(LabelFilter::has_ends)
            || self.end_nodes.is_some()
            || self.terminator_nodes.is_some()
    }

    /// The relationship filter of hop `hop` (0: from the start node).
    fn rel_filter(&self, hop: usize) -> &[RelStep] {
        let n = self.rels.len();
        if n == 0 {
            return &[];
        }
        if self.begin_at_start || n == 1 {
            return &self.rels[hop % n];
        }
        if hop == 0 {
            &self.rels[0]
        } else {
            &self.rels[1 + (hop - 1) % (n - 1)]
        }
    }

    /// The label filter of the node at `depth` (0: the start node), if any.
    fn label_filter(&self, depth: usize) -> Option<&LabelFilter> {
        let n = self.labels.len();
        if n == 0 {
            return None;
        }
        if self.begin_at_start {
            Some(&self.labels[depth % n])
        } else if depth == 0 {
            None
        } else {
            Some(&self.labels[(depth - 1) % n])
        }
    }

    fn judge(&self, g: &Graph, n: NodeId, depth: usize) -> Judged {
        let labels = g.labels(n);
        let empty = LabelFilter::default();
        let f = self.label_filter(depth).unwrap_or(&empty);
        let has = |list: &[String]| {
            list.iter()
                .any(|x| x == "*" || labels.iter().any(|l| **l == **x))
        };
        if has(&f.black) || self.blacklist_nodes.contains(&n) {
            return Judged::Excluded;
        }
        if has(&f.terminator)
            || self
                .terminator_nodes
                .as_ref()
                .is_some_and(|s| s.contains(&n))
        {
            return Judged::Kept {
                result: true,
                expand: false,
            };
        }
        let listed = !f.white.is_empty() || self.whitelist_nodes.is_some();
        let white = has(&f.white)
            || self
                .whitelist_nodes
                .as_ref()
                .is_some_and(|s| s.contains(&n));
        // An end node is returned whatever the whitelist says, but expanded only if allowed.
        if has(&f.end) || self.end_nodes.as_ref().is_some_and(|s| s.contains(&n)) {
            return Judged::Kept {
                result: true,
                expand: !listed || white,
            };
        }
        if listed && !white {
            return Judged::Excluded;
        }
        Judged::Kept {
            result: !self.has_ends(),
            expand: true,
        }
    }

    /// The paths the expansion returns, from each start node in turn (a null for a start
    /// without any under `optional`).
    fn run(&self, run: &Runner, starts: &[NodeId]) -> Result<Vec<Value>> {
        let g = run.graph();
        let mut out = Vec::new();
        let mut seen_nodes: HashSet<NodeId> = HashSet::new();
        let mut seen_rels: HashSet<RelId> = HashSet::new();
        for start in starts {
            if !g.contains_node(*start) {
                continue;
            }
            let before = out.len();
            self.from(run, *start, &mut out, &mut seen_nodes, &mut seen_rels)?;
            if self.limit.is_some_and(|l| out.len() >= l) {
                break;
            }
            if self.optional && out.len() == before {
                out.push(Value::Null);
            }
        }
        Ok(out)
    }

    fn from(
        &self,
        run: &Runner,
        start: NodeId,
        out: &mut Vec<Value>,
        seen_nodes: &mut HashSet<NodeId>,
        seen_rels: &mut HashSet<RelId>,
    ) -> Result<()> {
        let g = run.graph();
        let (start_result, start_expand) = if self.filter_start && self.begin_at_start {
            match self.judge(g, start, 0) {
                Judged::Excluded => return Ok(()),
                Judged::Kept { result, expand } => (result, expand),
            }
        } else {
            (!self.has_ends(), true)
        };
        if self.uniqueness == Uniqueness::NodeGlobal && !seen_nodes.insert(start) {
            return Ok(());
        }
        // Paths waiting to be visited: a path is returned when it is visited (breadth first:
        // level by level; depth first: a branch to its end before the next), and expanded
        // then.
        struct Visit {
            nodes: Vec<NodeId>,
            rels: Vec<RelId>,
            result: bool,
            expand: bool,
        }
        let mut queue: VecDeque<Visit> = VecDeque::from([Visit {
            nodes: vec![start],
            rels: Vec::new(),
            result: start_result,
            expand: start_expand,
        }]);
        while let Some(v) = if self.bfs {
            queue.pop_front()
        } else {
            queue.pop_back()
        } {
            let depth = v.rels.len();
            if v.result && depth >= self.min {
                out.push(path_value(v.nodes.clone(), v.rels.clone()));
                if self.limit.is_some_and(|l| out.len() >= l) {
                    return Ok(());
                }
                run.sh.check_rows(out.len())?;
            }
            if !v.expand || self.max.is_some_and(|m| depth >= m) {
                continue;
            }
            let here = *v.nodes.last().expect("a path has a node");
            let mut next = Vec::new();
            each_step(run, g, here, self.rel_filter(depth), |r, m| {
                let fresh = match self.uniqueness {
                    Uniqueness::RelationshipPath => !v.rels.contains(&r),
                    Uniqueness::NodePath => !v.nodes.contains(&m),
                    Uniqueness::NodeGlobal => !seen_nodes.contains(&m),
                    Uniqueness::RelationshipGlobal => !seen_rels.contains(&r),
                    Uniqueness::None => true,
                };
                if fresh {
                    next.push((r, m));
                }
                Ok(true)
            })?;
            let mut children = Vec::with_capacity(next.len());
            for (r, m) in next {
                let (result, expand) = match self.judge(g, m, depth + 1) {
                    Judged::Excluded => continue,
                    Judged::Kept { result, expand } => (result, expand),
                };
                let first_visit = match self.uniqueness {
                    Uniqueness::NodeGlobal => seen_nodes.insert(m),
                    Uniqueness::RelationshipGlobal => seen_rels.insert(r),
                    _ => true,
                };
                if !first_visit {
                    continue;
                }
                let mut nodes = v.nodes.clone();
                nodes.push(m);
                let mut rels = v.rels.clone();
                rels.push(r);
                run.sh.charge(16 * (nodes.len() + rels.len()))?;
                children.push(Visit {
                    nodes,
                    rels,
                    result,
                    expand,
                });
            }
            // Depth first takes the first child next: it goes on the stack last.
            if !self.bfs {
                children.reverse();
            }
            queue.extend(children);
        }
        Ok(())
    }
}

/// A path of virtual copies of a path's nodes and relationships.
fn clone_path(run: &Runner, path: &Path) -> Result<Value> {
    let mut nodes = Vec::with_capacity(path.nodes.len());
    for n in &path.nodes {
        let props = run.java_properties(&Value::Node(*n))?;
        nodes.push(run.sh.virtual_node(run.node_labels(*n), props)?);
    }
    let mut rels = Vec::with_capacity(path.rels.len());
    for (i, r) in path.rels.iter().enumerate() {
        let ty = run.rel_type(*r).unwrap_or_else(|| key(""));
        let forward = run
            .rel_endpoints(*r)
            .is_some_and(|(s, _)| s == path.nodes[i]);
        let (a, b) = if forward {
            (nodes[i], nodes[i + 1])
        } else {
            (nodes[i + 1], nodes[i])
        };
        let props = run.java_properties(&Value::Relationship(*r))?;
        rels.push(run.sh.virtual_rel(ty, a, b, props)?);
    }
    Ok(path_value(nodes, rels))
}

/// An element's properties.
type Props = BTreeMap<Arc<str>, Value>;

/// Merges `new` into `old` by APOC's property strategy: `overwrite` (last wins), `discard`
/// (first wins) or `combine` (the distinct values as a list; one value stays itself).
fn merge_property(mode: &str, old: Option<&Value>, new: &Value) -> Value {
    match (mode, old) {
        (_, None) => new.clone(),
        ("discard", Some(o)) => o.clone(),
        ("combine", Some(o)) => {
            let mut items = match o {
                Value::List(xs) => xs.clone(),
                x => vec![x.clone()],
            };
            let more = match new {
                Value::List(xs) => xs.clone(),
                x => vec![x.clone()],
            };
            for x in more {
                if !items.iter().any(|y| y.equals(&x) == Some(true)) {
                    items.push(x);
                }
            }
            if items.len() == 1 {
                items.pop().expect("one item")
            } else {
                Value::List(items)
            }
        }
        _ => new.clone(),
    }
}

/// `apoc.nodes.collapse`: one virtual node for the nodes (the first's labels sorted, then the
/// others'; properties merged by `properties`, `overwrite` by default; `count` of nodes unless
/// `countMerge: false`) with their relationships to other nodes as virtual ones, merged per
/// direction, type and other node (`count` of those merged into the first; properties
/// combined). Rows: each virtual relationship with its ends, or the node alone.
fn collapse(
    run: &Runner,
    p: &str,
    nodes: &[NodeId],
    config: Option<&BTreeMap<Arc<str>, Value>>,
) -> Result<Vec<Vec<Value>>> {
    let Some((&first, others)) = nodes.split_first() else {
        return Ok(Vec::new());
    };
    if others.is_empty() {
        return Ok(vec![vec![Value::Node(first), Value::Null, Value::Null]]);
    }
    let get = |k: &str| config.and_then(|c| c.get(k)).unwrap_or(&Value::Null);
    let mode = match get("properties") {
        Value::Null => "overwrite".to_string(),
        Value::String(m) => m.to_ascii_lowercase(),
        other => return Err(wrong(p, other, "a property strategy")),
    };
    let mut labels = run.node_labels(first);
    labels.sort();
    if flag(get("collapsedLabel"), false) {
        labels.push(key("Collapsed"));
    }
    let mut props = run.java_properties(&Value::Node(first))?;
    for n in others {
        for l in run.node_labels(*n) {
            if !labels.contains(&l) {
                labels.push(l);
            }
        }
        for (k, v) in run.java_properties(&Value::Node(*n))? {
            let merged = merge_property(&mode, props.get(&k), &v);
            props.insert(k, merged);
        }
    }
    if flag(get("countMerge"), true) {
        props.insert(key("count"), Value::Int(nodes.len() as i64));
    }
    let v = run.sh.virtual_node(labels, props)?;
    let self_rels = flag(get("selfRel"), false);
    let merge = flag(get("mergeRelsVirtual"), true);
    // (outgoing, type, other node) → (virtual relationship's start, end, type, properties).
    type Key = (bool, Arc<str>, NodeId);
    let mut order: Vec<Key> = Vec::new();
    let mut rels: BTreeMap<Key, (NodeId, NodeId, Props)> = BTreeMap::new();
    let mut loose = Vec::new();
    let g = run.graph();
    for n in nodes {
        for (r, m) in g.neighbours_iter(*n, Dir::Both, None) {
            run.sh.tick()?;
            let (Some(ty), Some((a, _))) = (run.rel_type(r), run.rel_endpoints(r)) else {
                continue;
            };
            let out = a == *n;
            let inside = nodes.contains(&m);
            if inside && !self_rels {
                continue;
            }
            let (other, start, end) = if inside {
                (v, v, v)
            } else if out {
                (m, v, m)
            } else {
                (m, m, v)
            };
            let rp = run.java_properties(&Value::Relationship(r))?;
            let k = (out, ty, other);
            if !merge {
                loose.push((k.1.clone(), start, end, rp));
                continue;
            }
            match rels.get_mut(&k) {
                None => {
                    order.push(k.clone());
                    rels.insert(k, (start, end, rp));
                }
                Some((_, _, props)) => {
                    for (pk, pv) in rp {
                        let merged = merge_property("combine", props.get(&pk), &pv);
                        props.insert(pk, merged);
                    }
                    let count = match props.get("count") {
                        Some(Value::Int(c)) => c + 1,
                        _ => 1,
                    };
                    props.insert(key("count"), Value::Int(count));
                }
            }
        }
    }
    let mut rows = Vec::new();
    let made = order
        .into_iter()
        .filter_map(|k| rels.remove(&k).map(|(s, e, props)| (k.1, s, e, props)))
        .chain(loose);
    for (ty, s, e, props) in made {
        let r = run.sh.virtual_rel(ty, s, e, props)?;
        rows.push(vec![Value::Node(s), Value::Relationship(r), Value::Node(e)]);
    }
    if rows.is_empty() {
        rows.push(vec![Value::Node(v), Value::Null, Value::Null]);
    }
    Ok(rows)
}

/// APOC's aggregate of a group: `count` (of members, for `*`; of values, for a property),
/// `min`, `max`, `sum` (whole numbers as integers), `avg`, `collect`.
fn aggregate(op: &str, values: &[Value], members: usize) -> Option<Value> {
    let nums = || {
        values.iter().filter_map(|v| match v {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        })
    };
    let whole = |x: f64| {
        if x.fract() == 0.0 && x.abs() < 9.0e15 {
            Value::Int(x as i64)
        } else {
            Value::Float(x)
        }
    };
    Some(match op {
        "count" if values.is_empty() => Value::Int(members as i64),
        "count" => Value::Int(values.iter().filter(|v| !matches!(v, Value::Null)).count() as i64),
        "min" => whole(nums().fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))))?),
        "max" => whole(nums().fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))?),
        "sum" => whole(nums().sum()),
        "avg" => {
            let xs: Vec<f64> = nums().collect();
            if xs.is_empty() {
                return None;
            }
            Value::Float(xs.iter().sum::<f64>() / xs.len() as f64)
        }
        "collect" => Value::List(
            values
                .iter()
                .filter(|v| !matches!(v, Value::Null))
                .cloned()
                .collect(),
        ),
        _ => return None,
    })
}

/// The aggregates of one map of `aggregations` (`{`*`: 'count', age: ['min', 'max']}`) over
/// elements' property maps, named `<op>_<field>`.
fn aggregates(
    p: &str,
    spec: Option<&Value>,
    members: &[BTreeMap<Arc<str>, Value>],
) -> Result<BTreeMap<Arc<str>, Value>> {
    let mut out = BTreeMap::new();
    let Some(Value::Map(spec)) = spec else {
        out.insert(key("count_*"), Value::Int(members.len() as i64));
        return Ok(out);
    };
    for (field, ops) in spec {
        let ops: Vec<String> = match ops {
            Value::String(s) => vec![s.to_string()],
            v => strings(p, v)?,
        };
        for op in ops {
            let op = op.to_ascii_lowercase();
            let values: Vec<Value> = if &**field == "*" {
                Vec::new()
            } else {
                members
                    .iter()
                    .filter_map(|m| m.get(field).cloned())
                    .collect()
            };
            if &**field == "*" && op != "count" {
                continue;
            }
            if let Some(v) = aggregate(&op, &values, members.len()) {
                out.insert(key(&format!("{op}_{field}")), v);
            }
        }
    }
    Ok(out)
}

/// `apoc.nodes.group`: a virtual node per label and combination of the grouping properties'
/// values (a missing one is null), with the node aggregates; a virtual relationship per
/// start group, end group and type of the members' outgoing relationships, with the
/// relationship aggregates. Config: `selfRels`, `orphans`, `limitNodes`, `limitRels`,
/// `relsPerNode`, `includeRels`, `excludeRels`.
fn group(run: &Runner, p: &str, args: &[Value]) -> Result<Vec<Vec<Value>>> {
    let g = run.graph();
    let mut labels = strings(p, arg(args, 0))?;
    if labels.iter().any(|l| l == "*") {
        labels = g
            .labels_in_use()
            .into_iter()
            .map(|l| g.sym_name(l).to_string())
            .collect();
    }
    let keys = strings(p, arg(args, 1))?;
    let specs: Vec<Value> = match arg(args, 2) {
        Value::List(xs) => xs.clone(),
        _ => Vec::new(),
    };
    let config = map(p, arg(args, 3))?;
    let get = |k: &str| config.and_then(|c| c.get(k)).unwrap_or(&Value::Null);
    if !matches!(get("filter"), Value::Null) {
        return Err(ExecError::runtime(
            ErrorKind::Unsupported,
            format!("{p}: `filter` is not supported by grape"),
        ));
    }
    let limit = |k: &str| -> Result<Option<usize>> { level(p, get(k)) };
    let (limit_nodes, limit_rels, rels_per_node) = (
        limit("limitNodes")?,
        limit("limitRels")?,
        limit("relsPerNode")?,
    );
    let rel_list = |k: &str| -> Result<Vec<String>> {
        match get(k) {
            Value::Null => Ok(Vec::new()),
            Value::String(s) => Ok(s.split('|').map(str::to_string).collect()),
            v => strings(p, v),
        }
    };
    let (include, exclude) = (rel_list("includeRels")?, rel_list("excludeRels")?);
    // Groups in order of first member: (label, key values) → members.
    type GroupKey = (String, Vec<GroupKeyValue>);
    type GroupKeyValue = crate::value::GroupKey;
    let mut order: Vec<GroupKey> = Vec::new();
    let mut members: HashMap<GroupKey, (Vec<Value>, Vec<NodeId>)> = HashMap::new();
    let mut of_node: HashMap<NodeId, Vec<usize>> = HashMap::new();
    for l in &labels {
        let Some(sym) = g.sym(l) else { continue };
        for n in g.nodes_with_label(sym) {
            run.sh.tick()?;
            let props = run.java_properties(&Value::Node(*n))?;
            let vals: Vec<Value> = keys
                .iter()
                .map(|k| props.get(k.as_str()).cloned().unwrap_or(Value::Null))
                .collect();
            let gk = (
                l.clone(),
                vals.iter().cloned().map(crate::value::GroupKey).collect(),
            );
            let e = members.entry(gk.clone()).or_insert_with(|| {
                order.push(gk.clone());
                (vals, Vec::new())
            });
            e.1.push(*n);
        }
    }
    if let Some(max) = limit_nodes {
        order.truncate(max);
    }
    let mut group_nodes = Vec::with_capacity(order.len());
    for (i, gk) in order.iter().enumerate() {
        let (vals, ns) = &members[gk];
        for n in ns {
            of_node.entry(*n).or_default().push(i);
        }
        let maps: Vec<BTreeMap<Arc<str>, Value>> = ns
            .iter()
            .map(|n| run.java_properties(&Value::Node(*n)))
            .collect::<Result<_>>()?;
        let mut props: BTreeMap<Arc<str>, Value> = keys
            .iter()
            .zip(vals)
            .map(|(k, v)| (key(k), v.clone()))
            .collect();
        props.extend(aggregates(p, specs.first(), &maps)?);
        group_nodes.push(run.sh.virtual_node(vec![key(&gk.0)], props)?);
    }
    // Relationships between groups: (start group, end group, type) → members' properties.
    let mut rel_order: Vec<(usize, usize, Arc<str>)> = Vec::new();
    let mut rel_members: HashMap<(usize, usize, Arc<str>), Vec<Props>> = HashMap::new();
    for (i, gk) in order.iter().enumerate() {
        for n in &members[gk].1 {
            for (r, m) in g.neighbours_iter(*n, Dir::Outgoing, None) {
                run.sh.tick()?;
                let Some(ty) = run.rel_type(r) else { continue };
                if (!include.is_empty() && !include.iter().any(|t| **t == *ty))
                    || exclude.iter().any(|t| **t == *ty)
                {
                    continue;
                }
                let Some(ends) = of_node.get(&m) else {
                    continue;
                };
                for &j in ends {
                    if i == j && !flag(get("selfRels"), true) {
                        continue;
                    }
                    let k = (i, j, ty.clone());
                    let props = run.java_properties(&Value::Relationship(r))?;
                    rel_members
                        .entry(k.clone())
                        .or_insert_with(|| {
                            rel_order.push(k.clone());
                            Vec::new()
                        })
                        .push(props);
                }
            }
        }
    }
    let mut out_rels: Vec<Vec<RelId>> = vec![Vec::new(); order.len()];
    for k in rel_order {
        if rels_per_node.is_some_and(|m| out_rels[k.0].len() >= m) {
            continue;
        }
        let props = aggregates(p, specs.get(1), &rel_members[&k])?;
        let r = run
            .sh
            .virtual_rel(k.2.clone(), group_nodes[k.0], group_nodes[k.1], props)?;
        out_rels[k.0].push(r);
    }
    let orphans = flag(get("orphans"), true);
    let mut rows = Vec::new();
    for (i, node) in group_nodes.iter().enumerate() {
        let rels = &out_rels[i];
        if rels.is_empty() && !orphans {
            continue;
        }
        let all = Value::List(rels.iter().map(|r| Value::Relationship(*r)).collect());
        let first = rels
            .first()
            .map_or(Value::Null, |r| Value::Relationship(*r));
        rows.push(vec![
            Value::List(vec![Value::Node(*node)]),
            all,
            Value::Node(*node),
            first,
        ]);
        for r in rels.iter().skip(1) {
            rows.push(vec![
                Value::List(vec![Value::Node(*node)]),
                Value::List(vec![Value::Relationship(*r)]),
                Value::Node(*node),
                Value::Relationship(*r),
            ]);
        }
    }
    if let Some(max) = limit_rels {
        rows.truncate(max);
    }
    Ok(rows)
}

/// `apoc.nodes.cycles`: for each outgoing relationship of `start` (of `types`, or any; one per
/// other node), the shortest way back to `start` along outgoing relationships, as a cycle.
fn cycles(
    run: &Runner,
    start: NodeId,
    types: &[String],
    max_depth: Option<usize>,
) -> Result<Vec<Value>> {
    let g = run.graph();
    let syms: Vec<Sym> = types.iter().filter_map(|t| g.sym(t)).collect();
    if !types.is_empty() && syms.is_empty() {
        return Ok(Vec::new());
    }
    let filter = (!types.is_empty()).then_some(&syms[..]);
    let mut out = Vec::new();
    let mut ends: HashSet<NodeId> = HashSet::new();
    for (r, first) in g.neighbours_iter(start, Dir::Outgoing, filter) {
        run.sh.tick()?;
        if !ends.insert(first) {
            continue;
        }
        // Breadth first from the relationship's end back to the start.
        let mut back: BTreeMap<NodeId, (NodeId, RelId)> = BTreeMap::new();
        let mut frontier = vec![first];
        let mut seen: HashSet<NodeId> = HashSet::from([first]);
        let mut found = first == start;
        let mut depth = 0;
        while !found && !frontier.is_empty() && max_depth.is_none_or(|m| depth < m) {
            depth += 1;
            let mut next = Vec::new();
            'level: for n in &frontier {
                for (r2, m) in g.neighbours_iter(*n, Dir::Outgoing, filter) {
                    run.sh.tick()?;
                    if seen.insert(m) || m == start {
                        back.entry(m).or_insert((*n, r2));
                        if m == start {
                            found = true;
                            break 'level;
                        }
                        next.push(m);
                    }
                }
            }
            frontier = next;
        }
        if !found {
            continue;
        }
        // start -r-> first … -> start: walk the way back from the start to `first`.
        let mut tail: Vec<(NodeId, RelId)> = Vec::new();
        let mut at = start;
        while at != first {
            let Some(&(prev, r2)) = back.get(&at) else {
                break;
            };
            tail.push((at, r2));
            at = prev;
        }
        let mut nodes = vec![start, first];
        let mut rels = vec![r];
        for (n, r2) in tail.into_iter().rev() {
            rels.push(r2);
            nodes.push(n);
        }
        out.push(path_value(nodes, rels));
    }
    Ok(out)
}

fn path_value(nodes: Vec<NodeId>, rels: Vec<RelId>) -> Value {
    Value::Path(Arc::new(Path { nodes, rels }))
}

/// Every relationship between two nodes of `nodes` (APOC's `cover`), each once.
fn cover(run: &Runner, nodes: &[NodeId]) -> Result<Vec<RelId>> {
    let g = run.graph();
    let set: HashSet<NodeId> = nodes.iter().copied().collect();
    let mut out = Vec::new();
    for n in nodes {
        for (r, m) in g.neighbours_iter(*n, Dir::Outgoing, None) {
            run.sh.tick()?;
            if set.contains(&m) {
                out.push(r);
            }
        }
    }
    Ok(out)
}

/// The start nodes: a node, a node id, an element id, or a list of them.
fn start_nodes(run: &Runner, p: &str, v: &Value) -> Result<Vec<NodeId>> {
    super::write::Call::new(p, run.sh).nodes(run.graph(), v)
}

fn flatten(v: &Value) -> Vec<&Value> {
    match v {
        Value::List(xs) => xs.iter().collect(),
        other => vec![other],
    }
}

/// A level argument: `-1` (or null) for none.
fn level(p: &str, v: &Value) -> Result<Option<usize>> {
    Ok(match int(p, v)? {
        Some(l) if l >= 0 => Some(l as usize),
        _ => None,
    })
}

/// The labels or types a config keeps: `include` (or the deprecated `old_include`) when given,
/// less `exclude` (or its other spellings).
fn included(
    p: &str,
    config: Option<&BTreeMap<Arc<str>, Value>>,
    include: &[&str],
    exclude: &[&str],
) -> Result<impl Fn(&str) -> bool> {
    let list = |keys: &[&str]| -> Result<Vec<String>> {
        let mut out = Vec::new();
        for k in keys {
            match config.and_then(|c| c.get(*k)) {
                None | Some(Value::Null) => {}
                Some(v) => out.extend(strings(p, v)?),
            }
        }
        Ok(out)
    };
    let (inc, exc) = (list(include)?, list(exclude)?);
    Ok(move |name: &str| {
        (inc.is_empty() || inc.iter().any(|x| x == name)) && !exc.iter().any(|x| x == name)
    })
}

/// How many elements per label set (or type) the meta procedures read: `sample` (APOC's
/// default 1,000; -1 for all), the first ones by id.
fn sample_size(p: &str, config: Option<&BTreeMap<Arc<str>, Value>>) -> Result<usize> {
    Ok(match config.and_then(|c| c.get("sample")) {
        None | Some(Value::Null) => 1000,
        Some(v) => match int(p, v)? {
            Some(n) if n >= 0 => n as usize,
            _ => usize::MAX,
        },
    })
}

/// Whether an existence or key constraint makes the property `key` of `label` (a label or a
/// relationship type) mandatory: what APOC's `mandatory` column reports.
fn mandatory(g: &Graph, entity: crate::graph::EntityType, labels: &[Arc<str>], key: &str) -> bool {
    use crate::graph::ConstraintRule as R;
    g.schema().constraints().iter().any(|c| {
        c.entity == entity
            && matches!(c.rule, R::Exists | R::Key)
            && labels.contains(&c.label)
            && c.properties.iter().any(|p| **p == *key)
    })
}

/// `apoc.meta.nodeTypeProperties`: per label set in use, each property with its types, whether
/// every node has it, and how many do of how many.
fn node_type_properties(
    g: &Graph,
    p: &str,
    config: Option<&BTreeMap<Arc<str>, Value>>,
) -> Result<Rows> {
    let keep = included(
        p,
        config,
        &["includeLabels", "labels"],
        &["excludeLabels", "excludesLabels", "excludes"],
    )?;
    let sample = sample_size(p, config)?;
    let mut rows = Vec::new();
    for (labels, nodes) in crate::engine::procedures::label_sets(g) {
        if !labels.iter().any(|l| keep(l)) && !labels.is_empty() {
            continue;
        }
        let node_type = crate::engine::procedures::node_type_name(&labels);
        let label_list = Value::List(labels.iter().cloned().map(Value::String).collect());
        let observed = &nodes[..nodes.len().min(sample)];
        let total = observed.len() as i64;
        let props = property_table(observed.iter().map(|n| g.node_properties(*n)));
        if props.is_empty() {
            rows.push(vec![
                Value::from(node_type.as_str()),
                label_list.clone(),
                Value::Null,
                Value::Null,
                Value::Bool(false),
                Value::Int(0),
                Value::Int(total),
            ]);
        }
        for (k, (types, count)) in props {
            rows.push(vec![
                Value::from(node_type.as_str()),
                label_list.clone(),
                Value::String(k.clone()),
                Value::List(types.into_iter().map(Value::from).collect()),
                Value::Bool(mandatory(g, crate::graph::EntityType::Node, &labels, &k)),
                Value::Int(count as i64),
                Value::Int(total),
            ]);
        }
    }
    Ok((
        cols(&[
            "nodeType",
            "nodeLabels",
            "propertyName",
            "propertyTypes",
            "mandatory",
            "propertyObservations",
            "totalObservations",
        ]),
        rows,
    ))
}

/// `apoc.meta.relTypeProperties`: per relationship type and the label sets of its ends, each
/// property with its types, whether every relationship has it, and how many do of how many.
fn rel_type_properties(
    g: &Graph,
    p: &str,
    config: Option<&BTreeMap<Arc<str>, Value>>,
) -> Result<Rows> {
    let keep = included(
        p,
        config,
        &["includeRels", "rels"],
        &["excludeRels", "excludesRels"],
    )?;
    let sample = sample_size(p, config)?;
    type Key = (Arc<str>, Vec<Arc<str>>, Vec<Arc<str>>);
    let mut groups: BTreeMap<Key, Vec<RelId>> = BTreeMap::new();
    for r in g.relationship_ids() {
        let (Some(t), Some((a, b))) = (g.rel_type(r), g.endpoints(r)) else {
            continue;
        };
        if !keep(&t) {
            continue;
        }
        let (mut la, mut lb) = (g.labels(a), g.labels(b));
        la.sort();
        lb.sort();
        groups.entry((t, la, lb)).or_default().push(r);
    }
    let mut rows = Vec::new();
    for ((t, la, lb), rels) in groups {
        let rel_type = format!(":`{t}`");
        let list = |ls: &[Arc<str>]| Value::List(ls.iter().cloned().map(Value::String).collect());
        let observed = &rels[..rels.len().min(sample)];
        let total = observed.len() as i64;
        let props = property_table(observed.iter().map(|r| g.relationship_properties(*r)));
        if props.is_empty() {
            rows.push(vec![
                Value::from(rel_type.as_str()),
                list(&la),
                list(&lb),
                Value::Null,
                Value::Null,
                Value::Bool(false),
                Value::Int(0),
                Value::Int(total),
            ]);
        }
        for (k, (types, count)) in props {
            rows.push(vec![
                Value::from(rel_type.as_str()),
                list(&la),
                list(&lb),
                Value::String(k.clone()),
                Value::List(types.into_iter().map(Value::from).collect()),
                Value::Bool(mandatory(
                    g,
                    crate::graph::EntityType::Relationship,
                    std::slice::from_ref(&t),
                    &k,
                )),
                Value::Int(count as i64),
                Value::Int(total),
            ]);
        }
    }
    Ok((
        cols(&[
            "relType",
            "sourceNodeLabels",
            "targetNodeLabels",
            "propertyName",
            "propertyTypes",
            "mandatory",
            "propertyObservations",
            "totalObservations",
        ]),
        rows,
    ))
}

/// Each property key of the elements: its type names and how many elements have it.
fn property_table(
    elements: impl Iterator<Item = BTreeMap<Arc<str>, Value>>,
) -> BTreeMap<Arc<str>, (std::collections::BTreeSet<&'static str>, usize)> {
    let mut props: BTreeMap<Arc<str>, (std::collections::BTreeSet<&'static str>, usize)> =
        BTreeMap::new();
    for m in elements {
        for (k, v) in m {
            let e = props.entry(k).or_default();
            e.0.insert(crate::engine::procedures::type_label(&v));
            e.1 += 1;
        }
    }
    props
}
