//! APOC's writing procedures with several output columns: the common graph refactorings
//! (`apoc.refactor.mergeNodes`, `rename.label` / `type` / `nodeProperty` / `typeProperty`,
//! `setType`, `invert`, `from`, `to`, `cloneNodes`), `apoc.nodes.delete` / `link`, statements
//! given as text that write (`apoc.cypher.doIt`, `runWrite`) and batched updates
//! (`apoc.periodic.iterate`, `apoc.periodic.commit`: each batch its own savepoint, undone
//! alone when it fails, as APOC runs each in a transaction of its own).

use crate::engine::error::{ErrorKind, ExecError, Result};
use crate::engine::exec::Shared;
use crate::graph::{Dir, Graph};
use crate::value::{NodeId, RelId, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

const RENAME_COLUMNS: &[&str] = &[
    "batches",
    "total",
    "timeTaken",
    "committedOperations",
    "failedOperations",
    "failedBatches",
    "retries",
    "errorMessages",
    "batch",
    "operations",
    "constraints",
    "indexes",
];

const ITERATE_COLUMNS: &[&str] = &[
    "batches",
    "total",
    "timeTaken",
    "committedOperations",
    "failedOperations",
    "failedBatches",
    "retries",
    "errorMessages",
    "batch",
    "operations",
    "wasTerminated",
    "failedParams",
    "updateStatistics",
];

const COMMIT_COLUMNS: &[&str] = &[
    "updates",
    "executions",
    "runtime",
    "batches",
    "failedBatches",
    "batchErrors",
    "failedCommits",
    "commitErrors",
    "wasTerminated",
];

const REFACTORED: &[&str] = &["input", "output", "error"];

family! {
    /// The refactoring, merging and batching APOC procedures grape runs.
    RefactorFn {
        "apoc.cypher.doit" => CypherDoIt,
        "apoc.merge.node.eager" => MergeNodeEager,
        "apoc.merge.nodewithstats" => MergeNodeWithStats,
        "apoc.merge.nodewithstats.eager" => MergeNodeWithStatsEager,
        "apoc.merge.relationship.eager" => MergeRelationshipEager,
        "apoc.merge.relationshipwithstats" => MergeRelationshipWithStats,
        "apoc.merge.relationshipwithstats.eager" => MergeRelationshipWithStatsEager,
        "apoc.cypher.runwrite" => CypherRunWrite,
        "apoc.nodes.delete" => NodesDelete,
        "apoc.nodes.link" => NodesLink,
        "apoc.periodic.commit" => PeriodicCommit,
        "apoc.periodic.iterate" => PeriodicIterate,
        "apoc.refactor.clonenodes" => RefactorCloneNodes,
        "apoc.refactor.from" => RefactorFrom,
        "apoc.refactor.invert" => RefactorInvert,
        "apoc.refactor.mergenodes" => RefactorMergeNodes,
        "apoc.refactor.rename.label" => RefactorRenameLabel,
        "apoc.refactor.rename.nodeproperty" => RefactorRenameNodeProperty,
        "apoc.refactor.rename.type" => RefactorRenameType,
        "apoc.refactor.rename.typeproperty" => RefactorRenameTypeProperty,
        "apoc.refactor.settype" => RefactorSetType,
        "apoc.refactor.to" => RefactorTo,
    }
}

impl RefactorFn {
    /// The procedure's output columns.
    pub(crate) fn columns(self) -> &'static [&'static str] {
        match self {
            RefactorFn::CypherDoIt => &["value"],
            RefactorFn::MergeNodeEager => &["node"],
            RefactorFn::MergeNodeWithStats => &["stats", "node"],
            RefactorFn::MergeNodeWithStatsEager => &["stats", "node"],
            RefactorFn::MergeRelationshipEager => &["rel"],
            RefactorFn::MergeRelationshipWithStats => &["stats", "rel"],
            RefactorFn::MergeRelationshipWithStatsEager => &["stats", "rel"],
            RefactorFn::CypherRunWrite => &["value"],
            RefactorFn::NodesDelete => &["value"],
            RefactorFn::NodesLink => &[],
            RefactorFn::PeriodicCommit => COMMIT_COLUMNS,
            RefactorFn::PeriodicIterate => ITERATE_COLUMNS,
            RefactorFn::RefactorCloneNodes => REFACTORED,
            RefactorFn::RefactorFrom => REFACTORED,
            RefactorFn::RefactorInvert => REFACTORED,
            RefactorFn::RefactorMergeNodes => &["node"],
            RefactorFn::RefactorRenameLabel => RENAME_COLUMNS,
            RefactorFn::RefactorRenameNodeProperty => RENAME_COLUMNS,
            RefactorFn::RefactorRenameType => RENAME_COLUMNS,
            RefactorFn::RefactorRenameTypeProperty => RENAME_COLUMNS,
            RefactorFn::RefactorSetType => REFACTORED,
            RefactorFn::RefactorTo => REFACTORED,
        }
    }
}

fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Null)
}

fn key(k: &str) -> Arc<str> {
    Arc::from(k)
}

fn map_of(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(entries.into_iter().map(|(k, v)| (key(k), v)).collect())
}

use super::write::Call;

/// The relationship `v` names, if it still exists.
fn existing_rel(c: &Call, g: &Graph, v: &Value) -> Result<RelId> {
    match v {
        Value::Relationship(r) if g.contains_relationship(*r) => Ok(*r),
        other => Err(c.failed(format!("expected a relationship, not {other}"))),
    }
}

/// The node `v` names, if it still exists.
fn existing_node(c: &Call, g: &Graph, v: &Value) -> Result<NodeId> {
    match v {
        Value::Node(n) if g.contains_node(*n) => Ok(*n),
        other => Err(c.failed(format!("expected a node, not {other}"))),
    }
}

/// A relationship like `r` (its type unless `ty` is given, its properties) between `from` and
/// `to`, in place of `r`, which is deleted.
fn replace_rel(
    g: &mut Graph,
    sh: &Shared,
    r: RelId,
    from: NodeId,
    to: NodeId,
    ty: Option<&str>,
) -> Result<RelId> {
    let old_ty = g.rel_type(r).unwrap_or_else(|| key(""));
    let ty = ty.unwrap_or(&old_ty).to_string();
    let props = g.relationship_properties(r);
    let new = add_rel(g, sh, from, to, &ty, &props)?;
    delete_rel(g, sh, r);
    Ok(new)
}

fn add_rel(
    g: &mut Graph,
    sh: &Shared,
    from: NodeId,
    to: NodeId,
    ty: &str,
    props: &BTreeMap<Arc<str>, Value>,
) -> Result<RelId> {
    sh.tick()?;
    let r = g
        .add_relationship(from, to, ty, Vec::new())
        .ok_or_else(|| ExecError::runtime(ErrorKind::EntityNotFound, "a node was deleted"))?;
    for (k, v) in props {
        g.set_relationship_property(r, k, v.clone());
    }
    let mut st = sh.stats.borrow_mut();
    st.relationships_created += 1;
    st.properties_set += props.len() as u64;
    Ok(r)
}

fn delete_rel(g: &mut Graph, sh: &Shared, r: RelId) {
    if let Some(t) = g.rel_type(r) {
        sh.deleted.borrow_mut().rels.insert(r, t);
    }
    if g.remove_relationship(r) {
        sh.stats.borrow_mut().relationships_deleted += 1;
    }
}

fn detach_delete(g: &mut Graph, sh: &Shared, n: NodeId) {
    for (r, _) in g.neighbours(n, Dir::Both) {
        delete_rel(g, sh, r);
    }
    if g.remove_node(n) {
        sh.deleted.borrow_mut().nodes.insert(n);
        sh.stats.borrow_mut().nodes_deleted += 1;
    }
}

/// The result row of a rename: one batch of `total` operations, all committed.
fn rename_row(total: usize) -> Vec<Value> {
    let total = total as i64;
    let counts = |n: i64| {
        map_of(vec![
            ("total", Value::Int(n)),
            ("committed", Value::Int(n)),
            ("failed", Value::Int(0)),
            ("errors", Value::Map(BTreeMap::new())),
        ])
    };
    vec![
        Value::Int(1),
        Value::Int(total),
        Value::Int(0),
        Value::Int(total),
        Value::Int(0),
        Value::Int(0),
        Value::Int(0),
        Value::Map(BTreeMap::new()),
        counts(1),
        counts(total),
        Value::List(Vec::new()),
        Value::List(Vec::new()),
    ]
}

/// Runs the procedure `lname` (one of [`PROCEDURES`]) on `g`; its rows.
pub(crate) fn call(
    g: &mut Graph,
    sh: &Shared,
    m: RefactorFn,
    procedure: &str,
    args: &[Value],
) -> Result<Vec<Vec<Value>>> {
    let c = Call::new(procedure, sh);
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    let refactored = |input: i64, output: Value| vec![Value::Int(input), output, Value::Null];
    Ok(match m {
        RefactorFn::RefactorSetType => {
            let r = existing_rel(&c, g, a0)?;
            let ty = c.text(a1, "newType")?;
            let (a, b) = g.endpoints(r).expect("an existing relationship");
            let new = replace_rel(g, sh, r, a, b, Some(ty))?;
            vec![refactored(r.0 as i64, Value::Relationship(new))]
        }
        RefactorFn::RefactorInvert => {
            let r = existing_rel(&c, g, a0)?;
            let (a, b) = g.endpoints(r).expect("an existing relationship");
            let new = replace_rel(g, sh, r, b, a, None)?;
            vec![refactored(r.0 as i64, Value::Relationship(new))]
        }
        RefactorFn::RefactorFrom | RefactorFn::RefactorTo => {
            let r = existing_rel(&c, g, a0)?;
            let n = existing_node(&c, g, a1)?;
            let (a, b) = g.endpoints(r).expect("an existing relationship");
            let (a, b) = if m == RefactorFn::RefactorFrom {
                (n, b)
            } else {
                (a, n)
            };
            let new = replace_rel(g, sh, r, a, b, None)?;
            vec![refactored(r.0 as i64, Value::Relationship(new))]
        }
        RefactorFn::RefactorCloneNodes => {
            let nodes = c.nodes(g, a0)?;
            let with_rels = matches!(a1, Value::Bool(true));
            let skip: Vec<String> = match a2 {
                Value::List(xs) => xs
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
                _ => Vec::new(),
            };
            let mut rows = Vec::new();
            for n in nodes {
                sh.tick()?;
                let labels: Vec<Arc<str>> = g.labels(n);
                let label_refs: Vec<&str> = labels.iter().map(|l| &**l).collect();
                let clone = g.add_node(&label_refs, Vec::new());
                let mut props = 0;
                for (k, v) in g.node_properties(n) {
                    if !skip.iter().any(|s| **s == *k) {
                        g.set_node_property(clone, &k, v);
                        props += 1;
                    }
                }
                {
                    let mut st = sh.stats.borrow_mut();
                    st.nodes_created += 1;
                    st.labels_added += labels.len() as u64;
                    st.properties_set += props;
                }
                if with_rels {
                    for (r, _) in g.neighbours(n, Dir::Both) {
                        let (Some(ty), Some((a, b))) = (g.rel_type(r), g.endpoints(r)) else {
                            continue;
                        };
                        let props = g.relationship_properties(r);
                        let (a, b) = (
                            if a == n { clone } else { a },
                            if b == n { clone } else { b },
                        );
                        add_rel(g, sh, a, b, &ty, &props)?;
                    }
                }
                rows.push(refactored(n.0 as i64, Value::Node(clone)));
            }
            rows
        }
        RefactorFn::RefactorMergeNodes => {
            let nodes = c.nodes(g, a0)?;
            let config = match a1 {
                Value::Map(m) => m.clone(),
                _ => BTreeMap::new(),
            };
            merge_nodes(g, sh, &c, &nodes, &config)?
        }
        RefactorFn::RefactorRenameLabel => {
            let (old, new) = (c.text(a0, "oldLabel")?, c.text(a1, "newLabel")?);
            let given = c.nodes(g, a2)?;
            let targets: Vec<NodeId> = if given.is_empty() {
                match g.sym(old) {
                    Some(l) => g.nodes_with_label(l).to_vec(),
                    None => Vec::new(),
                }
            } else {
                given
                    .into_iter()
                    .filter(|n| g.labels(*n).iter().any(|l| **l == *old))
                    .collect()
            };
            for n in &targets {
                sh.tick()?;
                if g.remove_label(*n, old) {
                    sh.stats.borrow_mut().labels_removed += 1;
                }
                if g.add_label(*n, new) {
                    sh.stats.borrow_mut().labels_added += 1;
                }
            }
            vec![rename_row(targets.len())]
        }
        RefactorFn::RefactorRenameType => {
            let (old, new) = (c.text(a0, "oldType")?, c.text(a1, "newType")?);
            let given = c.rels(g, a2)?;
            let all: Vec<RelId> = if given.is_empty() {
                g.relationship_ids().collect()
            } else {
                given
            };
            let targets: Vec<RelId> = all
                .into_iter()
                .filter(|r| g.rel_type(*r).is_some_and(|t| *t == *old))
                .collect();
            for r in &targets {
                let (a, b) = g.endpoints(*r).expect("an existing relationship");
                replace_rel(g, sh, *r, a, b, Some(new))?;
            }
            vec![rename_row(targets.len())]
        }
        RefactorFn::RefactorRenameNodeProperty | RefactorFn::RefactorRenameTypeProperty => {
            let (old, new) = (c.text(a0, "oldName")?, c.text(a1, "newName")?);
            let nodes = m == RefactorFn::RefactorRenameNodeProperty;
            let targets: Vec<Value> = if nodes {
                let given = c.nodes(g, a2)?;
                let all: Vec<NodeId> = if given.is_empty() {
                    g.node_ids().collect()
                } else {
                    given
                };
                all.into_iter()
                    .filter(|n| prop_of(g, &Value::Node(*n), old).is_some())
                    .map(Value::Node)
                    .collect()
            } else {
                let given = c.rels(g, a2)?;
                let all: Vec<RelId> = if given.is_empty() {
                    g.relationship_ids().collect()
                } else {
                    given
                };
                all.into_iter()
                    .filter(|r| prop_of(g, &Value::Relationship(*r), old).is_some())
                    .map(Value::Relationship)
                    .collect()
            };
            for t in &targets {
                sh.tick()?;
                let v = prop_of(g, t, old).unwrap_or(Value::Null);
                crate::engine::exec::set_property(g, sh, t, new, v)?;
                crate::engine::exec::set_property(g, sh, t, old, Value::Null)?;
            }
            vec![rename_row(targets.len())]
        }
        RefactorFn::NodesDelete => {
            let nodes = c.nodes(g, a0)?;
            for n in &nodes {
                sh.tick()?;
                detach_delete(g, sh, *n);
            }
            vec![vec![Value::Int(nodes.len() as i64)]]
        }
        RefactorFn::NodesLink => {
            let nodes = c.nodes(g, a0)?;
            let ty = c.text(a1, "type")?;
            let avoid = matches!(a2, Value::Map(m) if matches!(m.get("avoidDuplicates"), Some(Value::Bool(true))));
            for w in nodes.windows(2) {
                let exists = avoid
                    && g.neighbours(w[0], Dir::Outgoing)
                        .iter()
                        .any(|(r, m)| *m == w[1] && g.rel_type(*r).is_some_and(|t| *t == *ty));
                if !exists {
                    add_rel(g, sh, w[0], w[1], ty, &BTreeMap::new())?;
                }
            }
            // A VOID procedure: the row goes on unchanged.
            vec![Vec::new()]
        }
        RefactorFn::CypherDoIt | RefactorFn::CypherRunWrite => {
            let statement = c.text(a0, "statement")?;
            let params = params_of(a1);
            let table = crate::engine::run_nested_write(g, sh, statement, &params)?;
            table.row_maps().into_iter().map(|m| vec![m]).collect()
        }
        // The eager forms are the same merges here (grape's statements see their own writes in
        // order); `WithStats` adds the counts of the merge.
        RefactorFn::MergeNodeEager
        | RefactorFn::MergeNodeWithStats
        | RefactorFn::MergeNodeWithStatsEager
        | RefactorFn::MergeRelationshipEager
        | RefactorFn::MergeRelationshipWithStats
        | RefactorFn::MergeRelationshipWithStatsEager => {
            use super::write::WriteFn;
            let (base, with_stats) = match m {
                RefactorFn::MergeNodeEager => (WriteFn::MergeNode, false),
                RefactorFn::MergeNodeWithStats | RefactorFn::MergeNodeWithStatsEager => {
                    (WriteFn::MergeNode, true)
                }
                RefactorFn::MergeRelationshipEager => (WriteFn::MergeRelationship, false),
                _ => (WriteFn::MergeRelationship, true),
            };
            let before = sh.stats.borrow().clone();
            let rows = super::write::call(g, sh, base, procedure, args)?;
            if !with_stats {
                return Ok(rows);
            }
            let stats = statistics(&sh.stats.borrow(), &before);
            rows.into_iter()
                .map(|r| std::iter::once(stats.clone()).chain(r).collect())
                .collect()
        }
        RefactorFn::PeriodicIterate => vec![iterate(g, sh, &c, a0, a1, a2)?],
        RefactorFn::PeriodicCommit => vec![commit(g, sh, &c, a0, a1)?],
    })
}

/// The property `key` of a node or relationship.
fn prop_of(g: &Graph, element: &Value, key: &str) -> Option<Value> {
    let k = g.sym(key)?;
    match element {
        Value::Node(n) => g.node_property(*n, k),
        Value::Relationship(r) => g.relationship_property(*r, k),
        _ => None,
    }
}

fn params_of(v: &Value) -> crate::engine::Params {
    match v {
        Value::Map(m) => m.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        _ => crate::engine::Params::new(),
    }
}

/// `apoc.refactor.mergeNodes`: the first node takes the others' labels, properties (by
/// `properties`: `discard` keeps the first value met, `overwrite`/`override` the last,
/// `combine` makes a list of the distinct values) and relationships (a relationship between
/// merged nodes becomes a loop unless `produceSelfRel` is false; `mergeRels` merges those
/// of one type to one node); the others are deleted.
fn merge_nodes(
    g: &mut Graph,
    sh: &Shared,
    c: &Call,
    nodes: &[NodeId],
    config: &BTreeMap<Arc<str>, Value>,
) -> Result<Vec<Vec<Value>>> {
    let mut nodes = nodes.to_vec();
    nodes.dedup();
    let Some((&target, others)) = nodes.split_first() else {
        return Ok(Vec::new());
    };
    let mode = match config.get("properties") {
        None | Some(Value::Null) => "discard".to_string(),
        Some(Value::String(s)) => s.to_lowercase(),
        Some(other) => return Err(c.failed(format!("properties must be a STRING, not {other}"))),
    };
    if !matches!(
        mode.as_str(),
        "discard" | "overwrite" | "override" | "combine"
    ) {
        return Err(c.failed(format!("Invalid properties strategy: {mode}")));
    }
    let self_rels = !matches!(config.get("produceSelfRel"), Some(Value::Bool(false)));
    let merge_rels = matches!(config.get("mergeRels"), Some(Value::Bool(true)));
    let mut props = g.node_properties(target);
    for n in others {
        sh.tick()?;
        for l in g.labels(*n) {
            if g.add_label(target, &l) {
                sh.stats.borrow_mut().labels_added += 1;
            }
        }
        for (k, v) in g.node_properties(*n) {
            match (mode.as_str(), props.get(&k)) {
                (_, None) => {
                    props.insert(k, v);
                }
                ("discard", Some(_)) => {}
                ("combine", Some(old)) => {
                    let mut items = match old {
                        Value::List(xs) => xs.clone(),
                        x => vec![x.clone()],
                    };
                    let new = match v {
                        Value::List(xs) => xs,
                        x => vec![x],
                    };
                    for x in new {
                        if !items.iter().any(|y| y.equals(&x) == Some(true)) {
                            items.push(x);
                        }
                    }
                    let combined = if items.len() == 1 {
                        items.pop().expect("one item")
                    } else {
                        Value::List(items)
                    };
                    props.insert(k, combined);
                }
                (_, Some(_)) => {
                    props.insert(k, v);
                }
            }
        }
        for (r, _) in g.neighbours(*n, Dir::Both) {
            let (Some(ty), Some((a, b))) = (g.rel_type(r), g.endpoints(r)) else {
                continue;
            };
            let moved = |x: NodeId| if nodes.contains(&x) { target } else { x };
            let (na, nb) = (moved(a), moved(b));
            if na == nb && !self_rels {
                delete_rel(g, sh, r);
                continue;
            }
            let rp = g.relationship_properties(r);
            add_rel(g, sh, na, nb, &ty, &rp)?;
            delete_rel(g, sh, r);
        }
        detach_delete(g, sh, *n);
    }
    for (k, v) in props {
        crate::engine::exec::set_property(g, sh, &Value::Node(target), &k, v)?;
    }
    if merge_rels {
        // One relationship per (type, direction, other node): the first keeps its properties
        // and takes the others' it lacks.
        let mut kept: BTreeMap<(Arc<str>, bool, NodeId), RelId> = BTreeMap::new();
        for (r, other) in g.neighbours(target, Dir::Both) {
            let (Some(ty), Some((a, _))) = (g.rel_type(r), g.endpoints(r)) else {
                continue;
            };
            let k = (ty, a == target, other);
            match kept.get(&k) {
                None => {
                    kept.insert(k, r);
                }
                Some(&first) => {
                    for (pk, pv) in g.relationship_properties(r) {
                        if prop_of(g, &Value::Relationship(first), &pk).is_none() {
                            crate::engine::exec::set_property(
                                g,
                                sh,
                                &Value::Relationship(first),
                                &pk,
                                pv,
                            )?;
                        }
                    }
                    delete_rel(g, sh, r);
                }
            }
        }
    }
    Ok(vec![vec![Value::Node(target)]])
}

/// The name of a column as a Cypher variable.
fn variable(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
    {
        name.to_string()
    } else {
        format!("`{}`", name.replace('`', "``"))
    }
}

/// `apoc.periodic.iterate`: the rows of `iterate`, in batches of `batchSize` (10,000), each
/// batch running `action` with the rows' columns as variables (`batchMode: "BATCH"`, the
/// default: `UNWIND $_batch AS _batch WITH _batch.x AS x …`), with `$_batch` alone
/// (`BATCH_SINGLE`), or once per row with them as parameters and variables (`SINGLE`, or
/// `iterateList: false`); `params` are passed to both. A failing batch is undone alone and
/// counted.
fn iterate(
    g: &mut Graph,
    sh: &Shared,
    c: &Call,
    iterate: &Value,
    action: &Value,
    config: &Value,
) -> Result<Vec<Value>> {
    let started = std::time::Instant::now();
    let iterate = c.text(iterate, "cypherIterate")?;
    let action = c.text(action, "cypherAction")?;
    let config = match config {
        Value::Map(m) => m.clone(),
        _ => BTreeMap::new(),
    };
    let batch_size = match config.get("batchSize") {
        Some(Value::Int(n)) if *n > 0 => *n as usize,
        Some(Value::Int(_)) => return Err(c.failed("batchSize must be positive")),
        _ => 10_000,
    };
    // `batchMode` (or the older `iterateList`): BATCH unpacks each batch into the columns'
    // variables, SINGLE runs the action per row, BATCH_SINGLE hands it `$_batch` as it is.
    let mode = match (config.get("batchMode"), config.get("iterateList")) {
        (Some(Value::String(m)), _) => m.to_ascii_uppercase(),
        (_, Some(Value::Bool(false))) => "SINGLE".to_string(),
        _ => "BATCH".to_string(),
    };
    if !matches!(mode.as_str(), "BATCH" | "SINGLE" | "BATCH_SINGLE") {
        return Err(c.failed(format!(
            "java.lang.IllegalArgumentException: batchMode must be BATCH, SINGLE or BATCH_SINGLE, not {mode}"
        )));
    }
    let params = config.get("params").map(params_of).unwrap_or_default();
    let source = crate::engine::run_nested_write(g, sh, iterate, &params)?;
    let names: Vec<String> = source.columns.clone();
    let rows: Vec<Value> = source.row_maps();
    let bindings = names
        .iter()
        .map(|n| format!("_batch.{} AS {}", variable(n), variable(n)))
        .collect::<Vec<_>>()
        .join(", ");
    // An action that unpacks the batch itself (or names a column's parameter) stays as it is.
    let lower = action.to_ascii_lowercase();
    let unpacks = lower.contains("unwind $_batch as")
        || names
            .iter()
            .any(|n| lower.contains(&format!("${} as", n.to_ascii_lowercase())));
    let batch_statement = if mode == "BATCH_SINGLE" || unpacks {
        action.to_string()
    } else if names.is_empty() {
        format!("UNWIND $_batch AS _batch WITH _batch {action}")
    } else {
        format!("UNWIND $_batch AS _batch WITH {bindings} {action}")
    };
    let row_statement = if names.is_empty() || unpacks {
        action.to_string()
    } else {
        let with = names
            .iter()
            .map(|n| format!("${} AS {}", variable(n), variable(n)))
            .collect::<Vec<_>>()
            .join(", ");
        format!("WITH {with} {action}")
    };
    let before = sh.stats.borrow().clone();
    let (mut batches, mut failed_batches) = (0i64, 0i64);
    let (mut committed, mut failed_ops) = (0i64, 0i64);
    let mut errors: BTreeMap<Arc<str>, Value> = BTreeMap::new();
    for (i, chunk) in rows.chunks(batch_size).enumerate() {
        batches += 1;
        let batch_before = sh.stats.borrow().clone();
        let sp = g.savepoint();
        let result = (|| -> Result<()> {
            if mode != "SINGLE" {
                let mut p = params.clone();
                p.insert("_batch".into(), Value::List(chunk.to_vec()));
                p.insert("_count".into(), Value::Int((i * batch_size) as i64));
                p.insert("_total".into(), Value::Int(rows.len() as i64));
                crate::engine::run_nested_write(g, sh, &batch_statement, &p)?;
            } else {
                for row in chunk {
                    let mut p = params.clone();
                    if let Value::Map(m) = row {
                        p.extend(m.iter().map(|(k, v)| (k.to_string(), v.clone())));
                    }
                    crate::engine::run_nested_write(g, sh, &row_statement, &p)?;
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => {
                g.release(sp);
                committed += chunk.len() as i64;
            }
            Err(e) => {
                g.rollback_to(&sp);
                g.release(sp);
                // What the batch counted is undone with it.
                *sh.stats.borrow_mut() = batch_before;
                failed_batches += 1;
                failed_ops += chunk.len() as i64;
                let n = match errors.get(e.message.as_str()) {
                    Some(Value::Int(n)) => n + 1,
                    _ => 1,
                };
                errors.insert(key(&e.message), Value::Int(n));
            }
        }
    }
    let after = sh.stats.borrow().clone();
    let counts = |total: i64, committed: i64, failed: i64| {
        map_of(vec![
            ("total", Value::Int(total)),
            ("committed", Value::Int(committed)),
            ("failed", Value::Int(failed)),
            ("errors", Value::Map(errors.clone())),
        ])
    };
    Ok(vec![
        Value::Int(batches),
        Value::Int(rows.len() as i64),
        Value::Int(started.elapsed().as_secs() as i64),
        Value::Int(committed),
        Value::Int(failed_ops),
        Value::Int(failed_batches),
        Value::Int(0),
        Value::Map(errors.clone()),
        counts(batches, batches - failed_batches, failed_batches),
        counts(rows.len() as i64, committed, failed_ops),
        Value::Bool(false),
        Value::Map(BTreeMap::new()),
        statistics(&after, &before),
    ])
}

/// The counts between two points of a statement, as APOC's maps of statistics name them.
fn statistics(after: &crate::engine::Stats, before: &crate::engine::Stats) -> Value {
    let diff = |a: u64, b: u64| Value::Int(a.saturating_sub(b) as i64);
    map_of(vec![
        (
            "relationshipsDeleted",
            diff(after.relationships_deleted, before.relationships_deleted),
        ),
        (
            "relationshipsCreated",
            diff(after.relationships_created, before.relationships_created),
        ),
        (
            "nodesDeleted",
            diff(after.nodes_deleted, before.nodes_deleted),
        ),
        (
            "nodesCreated",
            diff(after.nodes_created, before.nodes_created),
        ),
        (
            "labelsRemoved",
            diff(after.labels_removed, before.labels_removed),
        ),
        ("labelsAdded", diff(after.labels_added, before.labels_added)),
        (
            "propertiesSet",
            diff(after.properties_set, before.properties_set),
        ),
    ])
}

/// `apoc.periodic.commit`: runs `statement` (which should end with a `LIMIT` and return a
/// count) until it returns 0 or nothing; the counts add up to `updates`. A failing run is
/// undone and ends the loop, counted in `failedBatches` with its message in `batchErrors`.
fn commit(
    g: &mut Graph,
    sh: &Shared,
    c: &Call,
    statement: &Value,
    params: &Value,
) -> Result<Vec<Value>> {
    let started = std::time::Instant::now();
    let statement = c.text(statement, "statement")?;
    if !statement.to_ascii_lowercase().contains("limit") {
        return Err(c.failed(
            "java.lang.IllegalArgumentException: the statement must contain a LIMIT clause (use $limit)",
        ));
    }
    let params = params_of(params);
    // `batches` counts every run, `executions` those that updated (APOC's counts: the last
    // run, which finds nothing, is a batch but not an execution).
    let (mut updates, mut executions, mut batches, mut failed) = (0i64, 0i64, 0i64, 0i64);
    let mut errors: BTreeMap<Arc<str>, Value> = BTreeMap::new();
    loop {
        sh.tick()?;
        batches += 1;
        let sp = g.savepoint();
        match crate::engine::run_nested_write(g, sh, statement, &params) {
            Ok(t) => {
                g.release(sp);
                let n = match t.rows.first().and_then(|r| r.first()) {
                    Some(Value::Int(n)) => *n,
                    Some(Value::Float(f)) => *f as i64,
                    _ => 0,
                };
                if n <= 0 {
                    break;
                }
                updates += n;
                executions += 1;
            }
            Err(e) => {
                g.rollback_to(&sp);
                g.release(sp);
                failed += 1;
                errors.insert(key(&e.message), Value::Int(1));
                break;
            }
        }
    }
    Ok(vec![
        Value::Int(updates),
        Value::Int(executions),
        Value::Int(started.elapsed().as_secs() as i64),
        Value::Int(batches),
        Value::Int(failed),
        Value::Map(errors),
        Value::Int(0),
        Value::Map(BTreeMap::new()),
        Value::Bool(false),
    ])
}
