//! Built-in procedures: the schema procedures LLM tooling calls (`db.labels`,
//! `db.relationshipTypes`, `db.propertyKeys`, `db.schema.visualization`,
//! `db.schema.nodeTypeProperties`, `db.schema.relTypeProperties`, `apoc.meta.schema`).

use super::error::{ErrorKind, ExecError, Result};
use super::exec::Runner;
use crate::engine::Detail;
use crate::graph::Graph;
use crate::value::{NodeId, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

type Rows = (Vec<Arc<str>>, Vec<Vec<Value>>);

/// A relationship type and direction (`"in"` / `"out"`) seen from a label.
type RelKey = (Arc<str>, &'static str);

pub(super) fn cols(names: &[&str]) -> Vec<Arc<str>> {
    names.iter().map(|n| Arc::from(*n)).collect()
}

fn s(x: &str) -> Value {
    Value::from(x)
}

/// The property type name Neo4j's schema procedures report.
pub(crate) fn type_label(v: &Value) -> &'static str {
    use crate::temporal::Temporal as T;
    match v {
        Value::Bool(_) => "Boolean",
        Value::Int(_) => "Long",
        Value::Float(_) => "Double",
        Value::String(_) => "String",
        Value::Temporal(t) => match &**t {
            T::Date(_) => "Date",
            T::LocalTime(_) => "LocalTime",
            T::Time(..) => "Time",
            T::LocalDateTime(_) => "LocalDateTime",
            T::DateTime(..) => "DateTime",
            T::Duration(_) => "Duration",
        },
        Value::Point(_) => "Point",
        Value::Bytes(_) => "ByteArray",
        Value::List(items) => match items.first() {
            Some(Value::Int(_)) => "LongArray",
            Some(Value::Float(_)) => "DoubleArray",
            Some(Value::Bool(_)) => "BooleanArray",
            Some(Value::Temporal(t)) => match &**t {
                T::Date(_) => "DateArray",
                T::LocalTime(_) => "LocalTimeArray",
                T::Time(..) => "TimeArray",
                T::LocalDateTime(_) => "LocalDateTimeArray",
                T::DateTime(..) => "DateTimeArray",
                T::Duration(_) => "DurationArray",
            },
            Some(Value::Point(_)) => "PointArray",
            _ => "StringArray",
        },
        _ => "Any",
    }
}

/// A label set as `db.schema.nodeTypeProperties` names it: ``:`A`:`B` ``.
pub(super) fn node_type_name(labels: &[Arc<str>]) -> String {
    let quoted: Vec<String> = labels.iter().map(|l| format!("`{l}`")).collect();
    format!(":{}", quoted.join(":"))
}

/// Sorted label sets in use, with their nodes.
pub(super) fn label_sets(g: &Graph) -> BTreeMap<Vec<Arc<str>>, Vec<NodeId>> {
    let mut m: BTreeMap<Vec<Arc<str>>, Vec<NodeId>> = BTreeMap::new();
    for n in g.node_ids() {
        let mut ls = g.labels(n);
        ls.sort();
        m.entry(ls).or_default().push(n);
    }
    m
}

/// The built-in procedures the engine runs (lower-case), besides the table procedures of
/// [`super::Options::procedures`]. A unit test holds it equal to what [`call`] dispatches.
pub(crate) const IMPLEMENTED: &[&str] = &[
    "apoc.meta.data",
    "apoc.meta.graph",
    "apoc.meta.graphsample",
    "apoc.meta.schema",
    "apoc.meta.stats",
    "apoc.meta.subgraph",
    "apoc.schema.nodes",
    "apoc.schema.properties.distinct",
    "db.awaitindex",
    "db.awaitindexes",
    "db.create.setnodevectorproperty",
    "db.create.setrelationshipvectorproperty",
    "db.create.setvectorproperty",
    "db.index.fulltext.listavailableanalyzers",
    "db.index.fulltext.querynodes",
    "db.index.fulltext.queryrelationships",
    "db.index.vector.querynodes",
    "db.index.vector.queryrelationships",
    "db.labels",
    "db.ping",
    "db.propertykeys",
    "db.relationshiptypes",
    "db.schema.nodetypeproperties",
    "db.schema.reltypeproperties",
    "db.schema.visualization",
    "dbms.components",
    "dbms.showcurrentuser",
    "tx.getmetadata",
];

/// A writing procedure as a CALL binds it, once, before its rows run ([`resolve_write`]); each
/// row then runs it with the graph to change ([`call_write`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum WriteProc {
    /// APOC's graph-construction procedures (`apoc.create.*`, `apoc.merge.*`).
    Apoc(super::apoc::write::WriteFn),
    /// APOC's refactoring, merging and batching procedures.
    Refactor(super::apoc::refactor::RefactorFn),
    /// `apoc.schema.assert`.
    SchemaAssert,
    /// A Graph Data Science algorithm in `write` mode.
    Gds(super::gds::GdsProc),
    /// `db.create.set…VectorProperty`.
    Vector(VectorSetter),
}

/// Which of Neo4j's vector setters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VectorSetter {
    /// `db.create.setNodeVectorProperty` (VOID).
    Node,
    /// `db.create.setVectorProperty` (deprecated): returns the node.
    NodeReturned,
    /// `db.create.setRelationshipVectorProperty` (VOID).
    Relationship,
}

/// Binds the writing procedure `name` (dotted, any case), if it is one grape runs.
pub(crate) fn resolve_write(name: &str) -> Option<WriteProc> {
    let lname = name.to_ascii_lowercase();
    if let Some((_, m)) = super::apoc::named(super::apoc::write::WriteFn::ALL, &lname) {
        return Some(WriteProc::Apoc(m));
    }
    if let Some((_, m)) = super::apoc::named(super::apoc::refactor::RefactorFn::ALL, &lname) {
        return Some(WriteProc::Refactor(m));
    }
    if let Some(p) = super::gds::resolve(&lname).filter(|p| p.writes()) {
        return Some(WriteProc::Gds(p));
    }
    Some(match lname.as_str() {
        "apoc.schema.assert" => WriteProc::SchemaAssert,
        "db.create.setnodevectorproperty" => WriteProc::Vector(VectorSetter::Node),
        "db.create.setvectorproperty" => WriteProc::Vector(VectorSetter::NodeReturned),
        "db.create.setrelationshipvectorproperty" => WriteProc::Vector(VectorSetter::Relationship),
        _ => return None,
    })
}

impl WriteProc {
    /// The procedure's output columns (none for the VOID ones); `name` as the call wrote it.
    pub(crate) fn columns(self, name: &str) -> Vec<Arc<str>> {
        match self {
            WriteProc::Apoc(m) => cols(&[m.column()]),
            WriteProc::Refactor(m) => cols(m.columns()),
            WriteProc::Gds(_) => crate::catalogue::procedure(name)
                .and_then(|p| p.signature())
                .map(|s| {
                    s.outputs
                        .iter()
                        .map(|o| Arc::from(o.name.as_str()))
                        .collect()
                })
                .unwrap_or_default(),
            WriteProc::SchemaAssert => cols(&["label", "key", "keys", "unique", "action"]),
            WriteProc::Vector(VectorSetter::NodeReturned) => cols(&["node"]),
            WriteProc::Vector(_) => Vec::new(),
        }
    }
}

/// The output columns of a writing procedure (none for the VOID ones, or for a procedure
/// that does not write).
pub(crate) fn write_columns(name: &str) -> Vec<Arc<str>> {
    resolve_write(name).map_or_else(Vec::new, |p| p.columns(name))
}

/// Whether `name` (dotted, any case) is an implemented procedure that writes.
pub(crate) fn writes(name: &str) -> bool {
    resolve_write(name).is_some()
}

/// Runs a bound writing procedure on `g` (`name` as the call wrote it, for messages): APOC's
/// graph-construction and refactoring procedures, `apoc.schema.assert`, GDS's write modes and
/// the vector setters, which store a vector (a list of numbers) as a `LIST<FLOAT>` property,
/// as Neo4j stores it for its vector indexes.
pub(crate) fn call_write(
    g: &mut Graph,
    sh: &super::exec::Shared,
    p: WriteProc,
    name: &str,
    args: &[Value],
) -> Result<Rows> {
    let procedure = crate::catalogue::procedure(name).map_or(name, |p| p.name);
    let setter = match p {
        WriteProc::Apoc(m) => {
            let rows = super::apoc::write::call(g, sh, m, procedure, args)?;
            return Ok((p.columns(name), rows));
        }
        WriteProc::Refactor(m) => {
            let rows = super::apoc::refactor::call(g, sh, m, procedure, args)?;
            return Ok((p.columns(name), rows));
        }
        WriteProc::SchemaAssert => {
            return Ok((p.columns(name), schema_assert(g, sh, procedure, args)?));
        }
        WriteProc::Gds(gds) => return super::gds::call_write(g, sh, gds, args),
        WriteProc::Vector(setter) => setter,
    };
    let [element, key, vector] = args else {
        return Err(ExecError::compile(
            ErrorKind::SyntaxError,
            format!("{procedure} takes 3 arguments, got {}", args.len()),
        )
        .with_detail(Detail::InvalidNumberOfArguments));
    };
    let failed = |why: String| ExecError::procedure_failed(procedure, why);
    let key = key
        .as_str()
        .ok_or_else(|| failed(format!("the property key must be a STRING, not {key}")))?;
    let values = super::vector::as_vector(vector).ok_or_else(|| {
        failed(format!(
            "java.lang.IllegalArgumentException: {vector} is not a valid vector (a list of finite numbers)"
        ))
    })?;
    let stored = Value::List(values.into_iter().map(Value::Float).collect());
    let ok = match (setter, element) {
        (VectorSetter::Relationship, Value::Relationship(r)) => {
            g.set_relationship_property(*r, key, stored)
        }
        (VectorSetter::Relationship, other) => {
            return Err(failed(format!("expected a RELATIONSHIP, not {other}")))
        }
        (_, Value::Node(n)) => g.set_node_property(*n, key, stored),
        (_, other) => return Err(failed(format!("expected a NODE, not {other}"))),
    };
    if !ok {
        return Err(ExecError::runtime(
            ErrorKind::EntityNotFound,
            format!("{procedure}: the element {element} was deleted"),
        ));
    }
    sh.stats.borrow_mut().properties_set += 1;
    if setter == VectorSetter::NodeReturned {
        return Ok((cols(&["node"]), vec![vec![element.clone()]]));
    }
    // A VOID procedure: the row goes on unchanged.
    Ok((Vec::new(), vec![Vec::new()]))
}

/// Whether the engine runs the procedure `name` (dotted, any case), given the table procedures
/// `extra`.
pub fn is_implemented(name: &str, extra: &[super::TableProcedure]) -> bool {
    let lname = name.to_ascii_lowercase();
    IMPLEMENTED.binary_search(&lname.as_str()).is_ok()
        || super::apoc::named(super::apoc::procs::ApocProc::ALL, &lname).is_some()
        || super::gds::is_procedure(&lname)
        || resolve_write(&lname).is_some()
        || extra.iter().any(|p| p.name.eq_ignore_ascii_case(name))
}

/// Checks, before anything runs, that every procedure `query` calls (in its parts, its unions
/// and its `CALL { … }` subqueries) is one the engine runs: one Neo4j does not know is
/// `ProcedureNotFound`, one it knows but grape does not run is `Unsupported`.
pub(crate) fn check_calls(
    query: &crate::syntax::Query,
    extra: &[super::TableProcedure],
) -> Result<()> {
    use crate::syntax::Clause;
    let parts = std::iter::once(&query.first).chain(query.unions.iter().map(|u| &u.query));
    for part in parts {
        for clause in &part.clauses {
            match clause {
                Clause::CallProcedure(c) => {
                    let name = c.name.dotted();
                    if is_implemented(&name, extra) {
                        continue;
                    }
                    return Err(match crate::catalogue::procedure(&name) {
                        None => ExecError::procedure_not_found(&name),
                        Some(p) => ExecError::compile(
                            ErrorKind::Unsupported,
                            format!(
                                "the procedure {} is not supported by grape's engine yet",
                                p.name
                            ),
                        )
                        .with_detail(Detail::UnsupportedProcedure),
                    }
                    .at(c.name.span));
                }
                Clause::CallSubquery(_) | Clause::Braced(_) | Clause::Next(_) | Clause::When(_) => {
                    for q in clause.subqueries() {
                        check_calls(q, extra)?
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// A built-in procedure's implementation: (the run, the name as the call wrote it, the
/// arguments) → its output columns and rows.
type Builtin = fn(&Runner, &str, &[Value]) -> Result<Rows>;

/// The built-in reading procedures by lower-case name, sorted: [`resolve`] binds a name to
/// its implementation with a binary search. A unit test holds it sorted and equal to the
/// reading part of [`IMPLEMENTED`].
const BUILTINS: &[(&str, Builtin)] = &[
    ("apoc.meta.data", p_apoc_meta_data),
    ("apoc.meta.graph", p_apoc_meta_graph),
    ("apoc.meta.graphsample", p_apoc_meta_graph),
    ("apoc.meta.schema", p_apoc_meta_schema),
    ("apoc.meta.stats", p_apoc_meta_stats),
    ("apoc.meta.subgraph", p_apoc_meta_graph),
    ("apoc.schema.nodes", p_apoc_schema_nodes),
    (
        "apoc.schema.properties.distinct",
        p_apoc_schema_properties_distinct,
    ),
    ("db.awaitindex", p_db_awaitindex),
    ("db.awaitindexes", p_db_awaitindexes),
    (
        "db.index.fulltext.listavailableanalyzers",
        p_db_index_fulltext_listavailableanalyzers,
    ),
    (
        "db.index.fulltext.querynodes",
        p_db_index_fulltext_querynodes,
    ),
    (
        "db.index.fulltext.queryrelationships",
        p_db_index_fulltext_queryrelationships,
    ),
    ("db.index.vector.querynodes", p_db_index_vector_querynodes),
    (
        "db.index.vector.queryrelationships",
        p_db_index_vector_queryrelationships,
    ),
    ("db.labels", p_db_labels),
    ("db.ping", p_db_ping),
    ("db.propertykeys", p_db_propertykeys),
    ("db.relationshiptypes", p_db_relationshiptypes),
    (
        "db.schema.nodetypeproperties",
        p_db_schema_nodetypeproperties,
    ),
    ("db.schema.reltypeproperties", p_db_schema_reltypeproperties),
    ("db.schema.visualization", p_db_schema_visualization),
    ("dbms.components", p_dbms_components),
    ("dbms.showcurrentuser", p_dbms_showcurrentuser),
    ("tx.getmetadata", p_tx_getmetadata),
];

/// A procedure bound to its implementation: [`resolve`] binds a CALL's procedure once, before
/// its rows run, and [`call_resolved`] runs it on each row's arguments.
pub(crate) enum Proc<'r> {
    /// A Graph Data Science procedure.
    Gds(super::gds::GdsProc),
    /// One of the statement's table procedures ([`super::Options::procedures`]).
    Table(&'r super::TableProcedure),
    /// An APOC reading procedure, and its name as Neo4j spells it.
    Apoc(super::apoc::procs::ApocProc, &'static str),
    Builtin(Builtin),
    /// A writing procedure, named in a read-only statement.
    Writes,
    /// Not a procedure the engine runs.
    Unknown,
}

/// Binds procedure `name` (dotted, any case) to its implementation.
pub(crate) fn resolve<'r>(run: &Runner<'r>, name: &str) -> Proc<'r> {
    let lname = name.to_ascii_lowercase();
    if let Some(p) = super::gds::resolve(&lname) {
        return Proc::Gds(p);
    }
    let tables: &'r [super::TableProcedure] = run.sh.procedures;
    if let Some(p) = tables.iter().find(|p| p.name.eq_ignore_ascii_case(name)) {
        return Proc::Table(p);
    }
    if let Some((_, m)) = super::apoc::named(super::apoc::procs::ApocProc::ALL, &lname) {
        let spelled = crate::catalogue::procedure(name).map_or("", |p| p.name);
        return Proc::Apoc(m, spelled);
    }
    if let Ok(i) = BUILTINS.binary_search_by_key(&lname.as_str(), |(n, _)| n) {
        return Proc::Builtin(BUILTINS[i].1);
    }
    if writes(&lname) {
        return Proc::Writes;
    }
    Proc::Unknown
}

/// Calls a procedure; returns its output columns and rows (the dispatch test's entry; a CALL
/// binds with [`resolve`] once and runs with [`call_resolved`]).
#[cfg(test)]
pub(crate) fn call(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    call_resolved(run, &resolve(run, name), name, args)
}

/// Runs a bound procedure (`name` as the call wrote it, for messages) on `args`.
pub(crate) fn call_resolved(run: &Runner, p: &Proc, name: &str, args: &[Value]) -> Result<Rows> {
    match p {
        Proc::Gds(p) => {
            let path_rel = |a, b, ty: &str, cost: Option<f64>| {
                let props = cost
                    .map(|c| (Arc::from("cost"), Value::Float(c)))
                    .into_iter()
                    .collect();
                run.sh.virtual_rel(Arc::from(ty), a, b, props)
            };
            let nested = |q: &str, params: &super::Params| super::run_nested_read(run, q, params);
            let host = super::gds::Host {
                tick: &|| run.sh.tick(),
                path_rel: &path_rel,
                nested: &nested,
            };
            super::gds::call(run.graph(), *p, args, &host)
        }
        Proc::Table(p) => call_table(p, args),
        Proc::Apoc(m, spelled) => {
            let procedure = if spelled.is_empty() { name } else { spelled };
            super::apoc::procs::call(run, *m, procedure, args)
        }
        Proc::Builtin(f) => f(run, name, args),
        // Writing procedures run through `call_write`; here (a read-only statement, or the
        // dispatch test) they answer with their columns only when they are given none.
        Proc::Writes => {
            if args.is_empty() {
                return Ok((write_columns(name), Vec::new()));
            }
            Err(ExecError::runtime(
                ErrorKind::ProcedureError,
                format!("{name} writes: it cannot run in a read-only statement"),
            ))
        }
        Proc::Unknown => Err(ExecError::procedure_not_found(name)),
    }
}

/// A table procedure: the rows whose inputs are equivalent to the arguments, their outputs.
fn call_table(p: &super::TableProcedure, args: &[Value]) -> Result<Rows> {
    if args.len() != p.inputs.len() {
        return Err(ExecError::compile(
            ErrorKind::SyntaxError,
            format!(
                "procedure {} takes {} arguments, got {}",
                p.name,
                p.inputs.len(),
                args.len()
            ),
        )
        .with_detail(Detail::InvalidNumberOfArguments));
    }
    if p.outputs.is_empty() {
        // A VOID procedure: the row goes on unchanged.
        return Ok((Vec::new(), vec![Vec::new()]));
    }
    let k = p.inputs.len();
    let rows = p
        .rows
        .iter()
        .filter(|r| {
            r.iter()
                .take(k)
                .zip(args)
                .all(|(want, got)| crate::value::equivalent(want, got))
        })
        .map(|r| r[k..].to_vec())
        .collect();
    Ok((
        p.outputs.iter().map(|o| Arc::from(o.as_str())).collect(),
        rows,
    ))
}

/// A procedure that takes no arguments was given some.
fn no_args(name: &str, args: &[Value]) -> Result<()> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(ExecError::compile(
            ErrorKind::SyntaxError,
            format!("procedure {name} takes no arguments"),
        )
        .with_detail(Detail::InvalidNumberOfArguments))
    }
}

/// What clients ask to learn which Neo4j they talk to (neo4j-graphrag, langchain-neo4j
/// check the version before using vector indexes): grape answers as the Neo4j it
/// follows.
fn p_dbms_components(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    no_args(name, args)?;
    Ok((
        cols(&["name", "versions", "edition"]),
        vec![vec![
            Value::from("Neo4j Kernel"),
            Value::List(vec![Value::from(crate::catalogue::NEO4J_VERSION)]),
            Value::from(if run.sh.databases.is_some_and(|d| d.enterprise) {
                "enterprise"
            } else {
                "community"
            }),
        ]],
    ))
}

/// The session's user, as community answers (no roles, no flags); none with
/// authentication off.
fn p_dbms_showcurrentuser(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    no_args(name, args)?;
    let user = run.sh.databases.and_then(|d| d.user.clone());
    Ok((
        cols(&["username", "roles", "flags"]),
        vec![vec![
            user.map_or(Value::Null, |u| Value::from(u.as_str())),
            Value::Null,
            Value::List(Vec::new()),
        ]],
    ))
}

/// The metadata the driver gave the transaction.
fn p_tx_getmetadata(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    no_args(name, args)?;
    let meta = run
        .sh
        .databases
        .map(|d| d.tx_metadata.clone())
        .unwrap_or_default();
    Ok((cols(&["metadata"]), vec![vec![Value::Map(meta)]]))
}

/// `db.index.vector.queryNodes`.
fn p_db_index_vector_querynodes(run: &Runner, _name: &str, args: &[Value]) -> Result<Rows> {
    vector_query(run, args, true)
}

/// `db.index.vector.queryRelationships`.
fn p_db_index_vector_queryrelationships(run: &Runner, _name: &str, args: &[Value]) -> Result<Rows> {
    vector_query(run, args, false)
}

/// A vector index's nearest nodes (`nodes`) or relationships, with their scores.
fn vector_query(run: &Runner, args: &[Value], nodes: bool) -> Result<Rows> {
    let g = run.graph();
    let (entity, column) = if nodes {
        (crate::graph::EntityType::Node, "node")
    } else {
        (crate::graph::EntityType::Relationship, "relationship")
    };
    let procedure = if entity == crate::graph::EntityType::Node {
        "db.index.vector.queryNodes"
    } else {
        "db.index.vector.queryRelationships"
    };
    let mut tick = || run.sh.tick();
    let hits = super::vector::query_index(g, procedure, entity, args, &mut tick)?;
    Ok(scored(column, hits))
}

/// An index query's hits as rows of (element, score) under `column` and `score`.
fn scored(column: &str, hits: Vec<(Value, f64)>) -> Rows {
    (
        cols(&[column, "score"]),
        hits.into_iter()
            .map(|(v, s)| vec![v, Value::Float(s)])
            .collect(),
    )
}

/// `db.index.fulltext.queryNodes`.
fn p_db_index_fulltext_querynodes(run: &Runner, _name: &str, args: &[Value]) -> Result<Rows> {
    fulltext_query(run, args, true)
}

/// `db.index.fulltext.queryRelationships`.
fn p_db_index_fulltext_queryrelationships(
    run: &Runner,
    _name: &str,
    args: &[Value],
) -> Result<Rows> {
    fulltext_query(run, args, false)
}

/// A full-text index's matching nodes (`nodes`) or relationships, with their scores.
fn fulltext_query(run: &Runner, args: &[Value], nodes: bool) -> Result<Rows> {
    let g = run.graph();
    let (entity, column, procedure) = if nodes {
        (
            crate::graph::EntityType::Node,
            "node",
            "db.index.fulltext.queryNodes",
        )
    } else {
        (
            crate::graph::EntityType::Relationship,
            "relationship",
            "db.index.fulltext.queryRelationships",
        )
    };
    let mut tick = || run.sh.tick();
    let hits = super::fulltext::query_index(g, procedure, entity, args, &mut tick)?;
    Ok(scored(column, hits))
}

/// `apoc.meta.graph`, `apoc.meta.graphsample`, `apoc.meta.subgraph`.
fn p_apoc_meta_graph(run: &Runner, _name: &str, args: &[Value]) -> Result<Rows> {
    let config = match args.first() {
        Some(Value::Map(m)) => Some(m),
        _ => None,
    };
    let (nodes, rels) = meta_graph(run, config)?;
    Ok((
        cols(&["nodes", "relationships"]),
        vec![vec![Value::List(nodes), Value::List(rels)]],
    ))
}

/// `apoc.meta.stats`.
fn p_apoc_meta_stats(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    no_args(name, args)?;
    Ok((
        cols(&[
            "labelCount",
            "relTypeCount",
            "propertyKeyCount",
            "nodeCount",
            "relCount",
            "labels",
            "relTypes",
            "relTypesCount",
            "stats",
        ]),
        vec![meta_stats(g)],
    ))
}

/// `apoc.schema.properties.distinct`.
fn p_apoc_schema_properties_distinct(run: &Runner, _name: &str, args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    let (Some(label), Some(key)) = (
        args.first().and_then(Value::as_str),
        args.get(1).and_then(Value::as_str),
    ) else {
        return Ok((cols(&["value"]), vec![vec![Value::List(Vec::new())]]));
    };
    let mut seen = std::collections::HashSet::new();
    let mut values = Vec::new();
    if let (Some(l), Some(k)) = (g.sym(label), g.sym(key)) {
        for &node in g.nodes_with_label(l) {
            run.sh.tick()?;
            if let Some(v) = g.node_property(node, k) {
                if seen.insert(crate::value::GroupKey(v.clone())) {
                    values.push(v);
                }
            }
        }
    }
    Ok((cols(&["value"]), vec![vec![Value::List(values)]]))
}

/// `db.index.fulltext.listavailableanalyzers`.
fn p_db_index_fulltext_listavailableanalyzers(
    _run: &Runner,
    name: &str,
    args: &[Value],
) -> Result<Rows> {
    no_args(name, args)?;
    Ok((
        cols(&["analyzer", "description", "stopwords"]),
        super::fulltext::analyzer_rows(),
    ))
}

/// Indexes are online as soon as they exist: waiting returns at once (a VOID
/// procedure: the row goes on).
fn p_db_awaitindexes(_run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    if args.len() > 1 {
        return Err(ExecError::compile(
            ErrorKind::SyntaxError,
            format!("{name} takes at most 1 argument, got {}", args.len()),
        )
        .with_detail(Detail::InvalidNumberOfArguments));
    }
    Ok((Vec::new(), vec![Vec::new()]))
}

/// `db.awaitindex`.
fn p_db_awaitindex(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    let index = args.first().and_then(|a| a.as_str());
    match index {
        Some(n) if g.schema().index(n).is_some() => Ok((Vec::new(), vec![Vec::new()])),
        Some(n) => Err(ExecError::runtime(
            ErrorKind::ProcedureError,
            format!(
                "Failed to invoke procedure `db.awaitIndex`: Caused by: \
                 java.lang.IllegalArgumentException: No such index '{n}'"
            ),
        )),
        None => Err(ExecError::compile(
            ErrorKind::SyntaxError,
            format!("{name} takes the name of an index"),
        )
        .with_detail(Detail::InvalidNumberOfArguments)),
    }
}

/// `db.ping`.
fn p_db_ping(_run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    no_args(name, args)?;
    Ok((cols(&["success"]), vec![vec![Value::Bool(true)]]))
}

/// `db.labels`.
fn p_db_labels(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    no_args(name, args)?;
    let mut names: Vec<Arc<str>> = g
        .labels_in_use()
        .iter()
        .map(|l| g.sym_name(*l).clone())
        .collect();
    names.sort();
    Ok((
        cols(&["label"]),
        names.into_iter().map(|n| vec![Value::String(n)]).collect(),
    ))
}

/// `db.relationshiptypes`.
fn p_db_relationshiptypes(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    no_args(name, args)?;
    let set: BTreeSet<Arc<str>> = g.relationship_ids().filter_map(|r| g.rel_type(r)).collect();
    Ok((
        cols(&["relationshipType"]),
        set.into_iter().map(|n| vec![Value::String(n)]).collect(),
    ))
}

/// `db.propertykeys`.
fn p_db_propertykeys(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    no_args(name, args)?;
    // Every property key token, in the order the graph first met it, as Neo4j lists
    // them (including keys no element has any more).
    Ok((
        cols(&["propertyKey"]),
        g.tokens(crate::graph::TOKEN_KEY)
            .into_iter()
            .map(|n| vec![Value::String(n)])
            .collect(),
    ))
}

/// `db.schema.nodetypeproperties`.
fn p_db_schema_nodetypeproperties(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    no_args(name, args)?;
    let mut rows = Vec::new();
    for (labels, nodes) in label_sets(g) {
        let node_type = node_type_name(&labels);
        let mut props: BTreeMap<Arc<str>, (BTreeSet<&'static str>, usize)> = BTreeMap::new();
        for n in &nodes {
            for (k, v) in g.node_properties(*n) {
                let e = props.entry(k).or_default();
                e.0.insert(type_label(&v));
                e.1 += 1;
            }
        }
        let label_list = Value::List(labels.iter().cloned().map(Value::String).collect());
        if props.is_empty() {
            rows.push(vec![
                s(&node_type),
                label_list.clone(),
                Value::Null,
                Value::Null,
                Value::Bool(false),
            ]);
        }
        for (k, (types, count)) in props {
            rows.push(vec![
                s(&node_type),
                label_list.clone(),
                Value::String(k),
                Value::List(types.into_iter().map(s).collect()),
                Value::Bool(count == nodes.len()),
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
        ]),
        rows,
    ))
}

/// `db.schema.reltypeproperties`.
fn p_db_schema_reltypeproperties(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    no_args(name, args)?;
    let mut by_type: BTreeMap<Arc<str>, Vec<crate::value::RelId>> = BTreeMap::new();
    for r in g.relationship_ids() {
        if let Some(t) = g.rel_type(r) {
            by_type.entry(t).or_default().push(r);
        }
    }
    let mut rows = Vec::new();
    for (t, rels) in by_type {
        let rel_type = format!(":`{t}`");
        let mut props: BTreeMap<Arc<str>, (BTreeSet<&'static str>, usize)> = BTreeMap::new();
        for r in &rels {
            for (k, v) in g.relationship_properties(*r) {
                let e = props.entry(k).or_default();
                e.0.insert(type_label(&v));
                e.1 += 1;
            }
        }
        if props.is_empty() {
            rows.push(vec![
                s(&rel_type),
                Value::Null,
                Value::Null,
                Value::Bool(false),
            ]);
        }
        for (k, (types, count)) in props {
            rows.push(vec![
                s(&rel_type),
                Value::String(k),
                Value::List(types.into_iter().map(s).collect()),
                Value::Bool(count == rels.len()),
            ]);
        }
    }
    Ok((
        cols(&["relType", "propertyName", "propertyTypes", "mandatory"]),
        rows,
    ))
}

/// `db.schema.visualization`.
fn p_db_schema_visualization(run: &Runner, name: &str, args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    no_args(name, args)?;
    // Nodes as maps {name}, relationships as [startLabel, type, endLabel] maps.
    let labels: Vec<Value> = g
        .labels_in_use()
        .iter()
        .map(|l| {
            let mut m = BTreeMap::new();
            m.insert(Arc::from("name"), Value::String(g.sym_name(*l).clone()));
            Value::Map(m)
        })
        .collect();
    let mut triples: BTreeSet<(Arc<str>, Arc<str>, Arc<str>)> = BTreeSet::new();
    for r in g.relationship_ids() {
        if let (Some((a, b)), Some(t)) = (g.endpoints(r), g.rel_type(r)) {
            for la in g.labels(a) {
                for lb in g.labels(b) {
                    triples.insert((la.clone(), t.clone(), lb.clone()));
                }
            }
        }
    }
    let rels: Vec<Value> = triples
        .into_iter()
        .map(|(a, t, b)| {
            let mut m = BTreeMap::new();
            m.insert(Arc::from("start"), Value::String(a));
            m.insert(Arc::from("type"), Value::String(t));
            m.insert(Arc::from("end"), Value::String(b));
            Value::Map(m)
        })
        .collect();
    Ok((
        cols(&["nodes", "relationships"]),
        vec![vec![Value::List(labels), Value::List(rels)]],
    ))
}

/// `apoc.meta.schema`.
fn p_apoc_meta_schema(run: &Runner, _name: &str, _args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    Ok((cols(&["value"]), vec![vec![apoc_meta_schema(g)]]))
}

/// `apoc.meta.data`.
fn p_apoc_meta_data(run: &Runner, _name: &str, _args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    Ok((
        cols(&[
            "label",
            "property",
            "count",
            "unique",
            "index",
            "existence",
            "type",
            "array",
            "sample",
            "left",
            "right",
            "other",
            "otherLabels",
            "elementType",
        ]),
        apoc_meta_data(g),
    ))
}

/// `apoc.schema.nodes`.
fn p_apoc_schema_nodes(run: &Runner, _name: &str, _args: &[Value]) -> Result<Rows> {
    let g = run.graph();
    Ok((
        cols(&[
            "name",
            "label",
            "properties",
            "status",
            "type",
            "failure",
            "populationProgress",
            "size",
            "valuesSelectivity",
            "userDescription",
        ]),
        apoc_schema_nodes(g),
    ))
}

/// `apoc.meta.graph` / `graphSample` / `subGraph`: a virtual node per label (`name`, `count`)
/// and a virtual relationship per (start label, type, end label) in use (`type`, `count`).
/// `config` may name `labels` and `rels` to keep and `excludes` (labels) / `excludeRels` to
/// leave out.
fn meta_graph(
    run: &Runner,
    config: Option<&BTreeMap<Arc<str>, Value>>,
) -> Result<(Vec<Value>, Vec<Value>)> {
    let g = run.graph();
    let names = |key: &str| -> Vec<String> {
        match config.and_then(|c| c.get(key)) {
            Some(Value::List(xs)) => xs
                .iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    };
    let (only_labels, only_rels) = (names("labels"), names("rels"));
    let (skip_labels, skip_rels) = (names("excludes"), names("excludeRels"));
    let label_ok = |l: &str| {
        (only_labels.is_empty() || only_labels.iter().any(|x| x == l))
            && !skip_labels.iter().any(|x| x == l)
    };
    let rel_ok = |t: &str| {
        (only_rels.is_empty() || only_rels.iter().any(|x| x == t))
            && !skip_rels.iter().any(|x| x == t)
    };
    let mut by_label: BTreeMap<Arc<str>, NodeId> = BTreeMap::new();
    let mut nodes = Vec::new();
    for l in g.labels_in_use() {
        let name = g.sym_name(l).clone();
        if !label_ok(&name) {
            continue;
        }
        let count = g.nodes_with_label(l).len() as i64;
        let id = run.sh.virtual_node(
            vec![name.clone()],
            BTreeMap::from([
                (Arc::from("name"), Value::String(name.clone())),
                (Arc::from("count"), Value::Int(count)),
            ]),
        )?;
        by_label.insert(name, id);
        nodes.push(Value::Node(id));
    }
    // (start label, type, end label) → relationships.
    type Triple = (Arc<str>, Arc<str>, Arc<str>);
    let mut counts: BTreeMap<Triple, i64> = BTreeMap::new();
    for r in g.relationship_ids() {
        let (Some(ty), Some((a, b))) = (g.rel_type(r), g.endpoints(r)) else {
            continue;
        };
        if !rel_ok(&ty) {
            continue;
        }
        for la in g.labels(a) {
            for lb in g.labels(b) {
                *counts
                    .entry((la.clone(), ty.clone(), lb.clone()))
                    .or_default() += 1;
            }
        }
    }
    let mut rels = Vec::new();
    for ((la, ty, lb), count) in counts {
        let (Some(&a), Some(&b)) = (by_label.get(&la), by_label.get(&lb)) else {
            continue;
        };
        let id = run.sh.virtual_rel(
            ty.clone(),
            a,
            b,
            BTreeMap::from([
                (Arc::from("type"), Value::String(ty)),
                (Arc::from("count"), Value::Int(count)),
            ]),
        )?;
        rels.push(Value::Relationship(id));
    }
    Ok((nodes, rels))
}

/// `apoc.meta.stats()`'s row.
fn meta_stats(g: &Graph) -> Vec<Value> {
    let mut labels = BTreeMap::new();
    for l in g.labels_in_use() {
        labels.insert(
            g.sym_name(l).clone(),
            Value::Int(g.nodes_with_label(l).len() as i64),
        );
    }
    let mut rel_types: BTreeMap<Arc<str>, Value> = BTreeMap::new();
    let mut rel_counts: BTreeMap<Arc<str>, i64> = BTreeMap::new();
    let mut keys = std::collections::BTreeSet::new();
    for n in g.node_ids() {
        keys.extend(g.node_properties(n).into_keys());
    }
    let mut patterns: BTreeMap<String, i64> = BTreeMap::new();
    for r in g.relationship_ids() {
        let (Some(ty), Some((a, b))) = (g.rel_type(r), g.endpoints(r)) else {
            continue;
        };
        keys.extend(g.relationship_properties(r).into_keys());
        *rel_counts.entry(ty.clone()).or_default() += 1;
        *patterns.entry(format!("()-[:{ty}]->()")).or_default() += 1;
        for l in g.labels(a) {
            *patterns.entry(format!("(:{l})-[:{ty}]->()")).or_default() += 1;
        }
        for l in g.labels(b) {
            *patterns.entry(format!("()-[:{ty}]->(:{l})")).or_default() += 1;
        }
    }
    for (k, c) in patterns {
        rel_types.insert(Arc::from(k.as_str()), Value::Int(c));
    }
    let rel_types_count: BTreeMap<Arc<str>, Value> = rel_counts
        .iter()
        .map(|(k, c)| (k.clone(), Value::Int(*c)))
        .collect();
    let node_count = g.node_count() as i64;
    let rel_count = g.relationship_count() as i64;
    let stats = BTreeMap::from([
        (Arc::from("labelCount"), Value::Int(labels.len() as i64)),
        (
            Arc::from("relTypeCount"),
            Value::Int(rel_counts.len() as i64),
        ),
        (Arc::from("propertyKeyCount"), Value::Int(keys.len() as i64)),
        (Arc::from("nodeCount"), Value::Int(node_count)),
        (Arc::from("relCount"), Value::Int(rel_count)),
        (Arc::from("labels"), Value::Map(labels.clone())),
        (Arc::from("relTypes"), Value::Map(rel_types.clone())),
    ]);
    vec![
        Value::Int(labels.len() as i64),
        Value::Int(rel_counts.len() as i64),
        Value::Int(keys.len() as i64),
        Value::Int(node_count),
        Value::Int(rel_count),
        Value::Map(labels),
        Value::Map(rel_types),
        Value::Map(rel_types_count),
        Value::Map(stats),
    ]
}

/// The map `apoc.meta.schema()` returns: per label and relationship type, `type`, `count`,
/// `properties` ({key: {type, indexed, existence}}) and, for labels, `relationships`
/// ({type: {direction, labels, count}}).
pub(crate) fn apoc_meta_schema(g: &Graph) -> Value {
    let key = |s: &str| Arc::<str>::from(s);
    // Each relationship type's properties, as APOC describes them (here, and again inside
    // every node entry's relationships): `existence` and `indexed` from the schema, `array`
    // for lists.
    let mut by_type: BTreeMap<Arc<str>, Vec<crate::value::RelId>> = BTreeMap::new();
    for r in g.relationship_ids() {
        if let Some(t) = g.rel_type(r) {
            by_type.entry(t).or_default().push(r);
        }
    }
    let mut rel_props: BTreeMap<Arc<str>, Value> = BTreeMap::new();
    for (t, rels) in &by_type {
        let mut props: BTreeMap<Arc<str>, &'static str> = BTreeMap::new();
        for r in rels {
            for (k, v) in g.relationship_properties(*r) {
                props.entry(k).or_insert(apoc_type(&v));
            }
        }
        let mut pm = BTreeMap::new();
        for (k, ty) in props {
            let (_, indexed, existence) =
                schema_flags(g, crate::graph::EntityType::Relationship, t, &k);
            let mut p = BTreeMap::new();
            p.insert(key("existence"), Value::Bool(existence));
            p.insert(key("type"), s(ty));
            p.insert(key("array"), Value::Bool(ty == "LIST"));
            p.insert(key("indexed"), Value::Bool(indexed));
            pm.insert(k, Value::Map(p));
        }
        rel_props.insert(t.clone(), Value::Map(pm));
    }
    let mut out = BTreeMap::new();
    for l in g.labels_in_use() {
        let label = g.sym_name(l).clone();
        let nodes = g.nodes_with_label(l);
        let mut props: BTreeMap<Arc<str>, &'static str> = BTreeMap::new();
        // The labels at the other end, in the order they are met.
        let mut rels: BTreeMap<RelKey, (Vec<Arc<str>>, i64)> = BTreeMap::new();
        for &n in nodes {
            for (k, v) in g.node_properties(n) {
                props.entry(k).or_insert(apoc_type(&v));
            }
            for (dir, name) in [
                (crate::graph::Dir::Outgoing, "out"),
                (crate::graph::Dir::Incoming, "in"),
            ] {
                for (r, m) in g.neighbours(n, dir) {
                    if let Some(t) = g.rel_type(r) {
                        let e = rels.entry((t, name)).or_default();
                        for ml in g.labels(m) {
                            if !e.0.contains(&ml) {
                                e.0.push(ml);
                            }
                        }
                        e.1 += 1;
                    }
                }
            }
        }
        let mut pm = BTreeMap::new();
        for (k, t) in props {
            let (unique, indexed, existence) =
                schema_flags(g, crate::graph::EntityType::Node, &label, &k);
            let mut p = BTreeMap::new();
            p.insert(key("existence"), Value::Bool(existence));
            p.insert(key("type"), s(t));
            p.insert(key("indexed"), Value::Bool(indexed || unique));
            p.insert(key("unique"), Value::Bool(unique));
            pm.insert(k, Value::Map(p));
        }
        let mut rm = BTreeMap::new();
        for ((t, dir), (labels, count)) in rels {
            let mut r = BTreeMap::new();
            r.insert(key("count"), Value::Int(count));
            r.insert(
                key("properties"),
                rel_props
                    .get(&t)
                    .cloned()
                    .unwrap_or_else(|| Value::Map(BTreeMap::new())),
            );
            r.insert(key("direction"), s(dir));
            r.insert(
                key("labels"),
                Value::List(labels.into_iter().map(Value::String).collect()),
            );
            rm.insert(t, Value::Map(r));
        }
        let mut entry = BTreeMap::new();
        entry.insert(key("count"), Value::Int(nodes.len() as i64));
        entry.insert(key("relationships"), Value::Map(rm));
        entry.insert(key("type"), s("node"));
        entry.insert(key("properties"), Value::Map(pm));
        entry.insert(key("labels"), Value::List(vec![]));
        out.insert(label, Value::Map(entry));
    }
    for (t, rels) in by_type {
        let mut entry = BTreeMap::new();
        entry.insert(key("count"), Value::Int(rels.len() as i64));
        entry.insert(key("type"), s("relationship"));
        entry.insert(
            key("properties"),
            rel_props
                .remove(&t)
                .unwrap_or_else(|| Value::Map(BTreeMap::new())),
        );
        out.entry(t).or_insert(Value::Map(entry));
    }
    Value::Map(out)
}

/// Whether an index (not a LOOKUP one) covers `token.key` as its first property, and whether a
/// uniqueness or existence constraint holds `token.key` alone.
fn schema_flags(
    g: &Graph,
    entity: crate::graph::EntityType,
    token: &str,
    key: &str,
) -> (bool, bool, bool) {
    let schema = g.schema();
    let index = schema.indexes().iter().any(|i| {
        i.entity == entity
            && i.kind != crate::syntax::IndexKind::Lookup
            && i.labels_or_types.iter().any(|t| &**t == token)
            && i.properties.first().is_some_and(|p| &**p == key)
    });
    let on = |c: &&crate::graph::ConstraintDef| {
        c.entity == entity
            && &*c.label == token
            && c.properties.len() == 1
            && &*c.properties[0] == key
    };
    let unique = schema
        .constraints()
        .iter()
        .filter(on)
        .any(|c| c.requires_uniqueness());
    let existence = schema
        .constraints()
        .iter()
        .filter(on)
        .any(|c| c.requires_existence());
    (unique, index, existence)
}

/// The most common APOC type of a property's values (the first seen among equals).
fn common_type(types: &[&'static str]) -> &'static str {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for t in types {
        match counts.iter_mut().find(|(x, _)| x == t) {
            Some(e) => e.1 += 1,
            None => counts.push((t, 1)),
        }
    }
    counts
        .iter()
        .fold(None::<(&'static str, usize)>, |best, &(t, c)| match best {
            Some((_, b)) if b >= c => best,
            _ => Some((t, c)),
        })
        .map_or("ANY", |(t, _)| t)
}

/// `apoc.meta.data()`: per label, a row for each property key (its most common type, whether
/// an index or constraint covers it) and for each type of outgoing relationship (`type`
/// RELATIONSHIP, `other` the labels at the far end, `count` how many); per relationship type,
/// a row for each property key. Every element is read (APOC samples); `count` of a property
/// row is 0, as APOC reports it.
fn apoc_meta_data(g: &Graph) -> Vec<Vec<Value>> {
    use crate::graph::EntityType;
    let strs = |xs: BTreeSet<Arc<str>>| Value::List(xs.into_iter().map(Value::String).collect());
    #[allow(clippy::too_many_arguments)]
    let row = |label: &Arc<str>,
               property: &Arc<str>,
               count: i64,
               flags: (bool, bool, bool),
               ty: &str,
               left: i64,
               other: Value,
               element: &str| {
        vec![
            Value::String(label.clone()),
            Value::String(property.clone()),
            Value::Int(count),
            Value::Bool(flags.0),
            Value::Bool(flags.1),
            Value::Bool(flags.2),
            s(ty),
            Value::Bool(ty == "LIST"),
            Value::Null,
            Value::Int(left),
            Value::Int(0),
            other,
            Value::List(Vec::new()),
            s(element),
        ]
    };
    // As APOC lists them (the oracle): relationship types, then labels, each in the order its
    // token was made (first use). Under each, its rows in the order APOC meets them going
    // through its elements in id order: an element's relationships (a type's start labels, a
    // label's outgoing types, with the labels at the other end) before its properties, in the
    // order they are stored.
    let mut out = Vec::new();
    let mut types: Vec<crate::graph::Sym> = Vec::new();
    let mut by_type: HashMap<crate::graph::Sym, Metas> = HashMap::new();
    for r in g.relationship_ids() {
        let (Some(d), Some((a, b))) = (g.relationship(r), g.endpoints(r)) else {
            continue;
        };
        let metas = by_type.entry(d.ty).or_insert_with(|| {
            types.push(d.ty);
            Metas::default()
        });
        for la in g.labels(a) {
            metas.relationship(la, g.labels(b));
        }
        for (k, v) in g.relationship_entries(r) {
            metas.property(g.sym_name(k).clone(), apoc_type(&v));
        }
    }
    types.sort_unstable();
    let emit = |out: &mut Vec<Vec<Value>>, name: &Arc<str>, metas: Metas, entity: EntityType| {
        let element = if entity == EntityType::Node {
            "node"
        } else {
            "relationship"
        };
        for (key, m) in metas.rows {
            match m {
                Meta::Rel(others, count) => out.push(row(
                    name,
                    &key,
                    count,
                    (false, false, false),
                    "RELATIONSHIP",
                    count,
                    strs(others),
                    element,
                )),
                Meta::Prop(types) => {
                    let flags = schema_flags(g, entity, name, &key);
                    out.push(row(
                        name,
                        &key,
                        0,
                        flags,
                        common_type(&types),
                        0,
                        Value::List(Vec::new()),
                        element,
                    ))
                }
            }
        }
    };
    for t in types {
        if let Some(metas) = by_type.remove(&t) {
            emit(
                &mut out,
                &g.sym_name(t).clone(),
                metas,
                EntityType::Relationship,
            );
        }
    }
    let mut labels: Vec<crate::graph::Sym> = g.labels_in_use();
    labels.sort_unstable();
    for l in labels {
        let name = g.sym_name(l).clone();
        let mut metas = Metas::default();
        for &n in g.nodes_with_label(l) {
            // A node's relationships by type token, then its properties by key token (the
            // order Neo4j's store gives them).
            let mut rels: Vec<(crate::graph::Sym, NodeId)> = g
                .neighbours(n, crate::graph::Dir::Outgoing)
                .into_iter()
                .filter_map(|(r, m)| Some((g.relationship(r)?.ty, m)))
                .collect();
            rels.sort_by_key(|(t, _)| *t);
            for (t, m) in rels {
                metas.relationship(g.sym_name(t).clone(), g.labels(m));
            }
            for (k, v) in g.node_entries(n) {
                metas.property(g.sym_name(k).clone(), apoc_type(&v));
            }
        }
        emit(&mut out, &name, metas, EntityType::Node);
    }
    out
}

/// One row of `apoc.meta.data` being gathered: a relationship (the labels at the other end,
/// how many) or a property (the types seen).
enum Meta {
    Rel(BTreeSet<Arc<str>>, i64),
    Prop(Vec<&'static str>),
}

/// The rows of one label or type, in the order first met.
#[derive(Default)]
struct Metas {
    rows: Vec<(Arc<str>, Meta)>,
    at: HashMap<Arc<str>, usize>,
}

impl Metas {
    fn slot(&mut self, key: Arc<str>, new: impl FnOnce() -> Meta) -> &mut Meta {
        let i = *self.at.entry(key.clone()).or_insert_with(|| {
            self.rows.push((key, new()));
            self.rows.len() - 1
        });
        &mut self.rows[i].1
    }

    fn relationship(&mut self, key: Arc<str>, others: Vec<Arc<str>>) {
        if let Meta::Rel(o, count) = self.slot(key, || Meta::Rel(BTreeSet::new(), 0)) {
            o.extend(others);
            *count += 1;
        }
    }

    fn property(&mut self, key: Arc<str>, ty: &'static str) {
        if let Meta::Prop(types) = self.slot(key, || Meta::Prop(Vec::new())) {
            types.push(ty);
        }
    }
}

/// `apoc.schema.nodes()`: the node indexes (LOOKUP ones aside) and node constraints, with
/// each index's size (nodes it holds) and selectivity (distinct values over size).
fn apoc_schema_nodes(g: &Graph) -> Vec<Vec<Value>> {
    use crate::graph::EntityType;
    let schema = g.schema();
    let strs = |xs: &[Arc<str>]| Value::List(xs.iter().cloned().map(Value::String).collect());
    let mut out = Vec::new();
    for i in schema.sorted_indexes() {
        if i.entity != EntityType::Node || i.kind == crate::syntax::IndexKind::Lookup {
            continue;
        }
        let keys: Vec<Option<crate::graph::Sym>> = i.properties.iter().map(|p| g.sym(p)).collect();
        let mut size = 0i64;
        let mut distinct: std::collections::HashSet<Vec<crate::value::GroupKey>> =
            std::collections::HashSet::new();
        for t in &i.labels_or_types {
            let Some(l) = g.sym(t) else { continue };
            for &n in g.nodes_with_label(l) {
                let vals: Option<Vec<crate::value::GroupKey>> = keys
                    .iter()
                    .map(|k| {
                        k.and_then(|k| g.node_property(n, k))
                            .map(crate::value::GroupKey)
                    })
                    .collect();
                if let Some(v) = vals {
                    size += 1;
                    distinct.insert(v);
                }
            }
        }
        let label = if i.labels_or_types.len() == 1 {
            Value::String(i.labels_or_types[0].clone())
        } else {
            strs(&i.labels_or_types)
        };
        out.push(vec![
            Value::String(i.name.clone()),
            label,
            strs(&i.properties),
            s("ONLINE"),
            s(i.kind.name()),
            s("NO FAILURE"),
            Value::Float(100.0),
            Value::Int(size),
            Value::Float(if size == 0 {
                1.0
            } else {
                distinct.len() as f64 / size as f64
            }),
            Value::from(super::exec::index_text(i, schema).as_str()),
        ]);
    }
    for c in schema.sorted_constraints() {
        if c.entity != EntityType::Node {
            continue;
        }
        out.push(vec![
            Value::String(c.name.clone()),
            Value::String(c.label.clone()),
            strs(&c.properties),
            s(""),
            s(c.type_name(false)),
            s("NO FAILURE"),
            Value::Float(0.0),
            Value::Int(0),
            Value::Float(0.0),
            Value::from(super::exec::constraint_text(c, schema).as_str()),
        ]);
    }
    out
}

/// APOC's name of a value's type (`apoc.meta.schema`, `apoc.meta.cypher.type` of scalars).
pub(crate) fn apoc_type(v: &Value) -> &'static str {
    use crate::temporal::Temporal as T;
    match v {
        Value::Bool(_) => "BOOLEAN",
        Value::Int(_) => "INTEGER",
        Value::Float(_) => "FLOAT",
        Value::String(_) => "STRING",
        Value::List(_) => "LIST",
        Value::Temporal(t) => match &**t {
            T::Date(_) => "DATE",
            T::LocalTime(_) => "LOCAL_TIME",
            T::Time(..) => "TIME",
            T::LocalDateTime(_) => "LOCAL_DATE_TIME",
            T::DateTime(..) => "DATE_TIME",
            T::Duration(_) => "DURATION",
        },
        Value::Point(_) => "POINT",
        _ => "ANY",
    }
}

/// `apoc.schema.assert(indexes, constraints, dropExisting = true)` as APOC 5.26 runs it: each
/// index (not LOOKUP, vector, constraint-backing or multi-token) is KEPT when asked for, else
/// DROPPED when `dropExisting`; those asked for and missing are CREATED (a list of keys is a
/// composite index); then the constraints alike (a key is a uniqueness constraint, a list a
/// node key). A row per index and constraint: label, key (when one), keys, unique, action.
fn schema_assert(
    g: &mut Graph,
    sh: &super::exec::Shared,
    procedure: &str,
    args: &[Value],
) -> Result<Vec<Vec<Value>>> {
    use crate::graph::ConstraintRule;
    use crate::syntax::IndexKind;
    let failed = |why: &str| ExecError::procedure_failed(procedure, why);
    // The maps asked for, label by label: each entry a key (STRING) or keys (LIST).
    let wanted = |v: Option<&Value>| -> Result<Vec<(String, Vec<Value>)>> {
        match v {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Map(m)) => m
                .iter()
                .map(|(k, v)| match v {
                    Value::List(xs) => Ok((k.to_string(), xs.clone())),
                    Value::Null => Ok((k.to_string(), Vec::new())),
                    other => Err(failed(&format!(
                        "java.lang.ClassCastException: class {} cannot be cast to class java.util.List ({} and java.util.List are in module java.base of loader 'bootstrap')",
                        super::apoc::coll::java_class(other),
                        super::apoc::coll::java_class(other)
                    ))),
                })
                .collect(),
            Some(other) => Err(ExecError::type_error(format!(
                "{procedure} expects a map, not {}",
                crate::value::type_name(other)
            ))),
        }
    };
    let drop_existing = !matches!(args.get(2), Some(Value::Bool(false)));
    let quote = |s: &str| format!("`{}`", s.replace('`', "``"));
    let keys_value = |ks: &[Arc<str>]| Value::List(ks.iter().map(|k| Value::from(&**k)).collect());
    let key_value = |ks: &[Arc<str>]| match ks {
        [one] => Value::from(&**one),
        _ => Value::Null,
    };
    let names = |xs: &[Value]| -> Vec<String> {
        xs.iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect()
    };
    let run = |g: &mut Graph, q: String| super::run_nested_write(g, sh, &q, &super::Params::new());
    let mut rows = Vec::new();

    let mut indexes = wanted(args.first())?;
    let existing: Vec<_> = g.schema().indexes().to_vec();
    for idx in existing {
        sh.tick()?;
        if matches!(idx.kind, IndexKind::Lookup | IndexKind::Vector)
            || idx.owning_constraint.is_some()
            || idx.labels_or_types.len() != 1
        {
            continue;
        }
        let label = idx.labels_or_types[0].to_string();
        let included = indexes
            .iter_mut()
            .find(|(l, _)| *l == label)
            .is_some_and(|(_, items)| {
                let at = items
                    .iter()
                    .position(|it| match (it, idx.properties.as_slice()) {
                        (Value::String(s), [one]) => **s == **one,
                        (Value::List(xs), ks) if ks.len() > 1 => {
                            names(xs) == ks.iter().map(|k| k.to_string()).collect::<Vec<_>>()
                        }
                        _ => false,
                    });
                at.map(|i| items.remove(i)).is_some()
            });
        let action = if drop_existing && !included {
            run(g, format!("DROP INDEX {}", quote(&idx.name)))?;
            "DROPPED"
        } else {
            "KEPT"
        };
        rows.push(vec![
            Value::from(label.as_str()),
            key_value(&idx.properties),
            keys_value(&idx.properties),
            Value::Bool(false),
            Value::from(action),
        ]);
    }
    for (label, items) in indexes {
        for it in items {
            let keys: Vec<String> = match &it {
                Value::String(k) => vec![k.to_string()],
                Value::List(xs) => names(xs),
                _ => continue,
            };
            let on: Vec<String> = keys.iter().map(|k| format!("n.{}", quote(k))).collect();
            run(
                g,
                format!(
                    "CREATE INDEX FOR (n:{}) ON ({})",
                    quote(&label),
                    on.join(", ")
                ),
            )?;
            let ks: Vec<Arc<str>> = keys.iter().map(|k| Arc::from(k.as_str())).collect();
            rows.push(vec![
                Value::from(label.as_str()),
                if matches!(it, Value::String(_)) {
                    key_value(&ks)
                } else {
                    Value::Null
                },
                keys_value(&ks),
                Value::Bool(false),
                Value::from("CREATED"),
            ]);
        }
    }

    let mut constraints = wanted(args.get(1))?;
    let existing: Vec<_> = g.schema().constraints().to_vec();
    for c in existing {
        sh.tick()?;
        let label = c.label.to_string();
        let key = key_value(&c.properties);
        let exists = constraints
            .iter_mut()
            .find(|(l, _)| *l == label)
            .is_some_and(|(_, items)| {
                let before = items.len();
                items.retain(|it| match it {
                    Value::String(s) => key.as_str() != Some(&**s),
                    Value::List(xs) => {
                        names(xs)
                            != c.properties
                                .iter()
                                .map(|k| k.to_string())
                                .collect::<Vec<_>>()
                    }
                    _ => true,
                });
                items.len() != before
            });
        let action = if drop_existing && !exists {
            run(g, format!("DROP CONSTRAINT {}", quote(&c.name)))?;
            "DROPPED"
        } else {
            "KEPT"
        };
        rows.push(vec![
            Value::from(label.as_str()),
            key,
            keys_value(&c.properties),
            Value::Bool(matches!(
                c.rule,
                ConstraintRule::Unique | ConstraintRule::Key
            )),
            Value::from(action),
        ]);
    }
    for (label, items) in constraints {
        for it in items {
            let (keys, statement) = match &it {
                Value::String(k) => (
                    vec![k.to_string()],
                    format!(
                        "CREATE CONSTRAINT FOR (n:{}) REQUIRE n.{} IS UNIQUE",
                        quote(&label),
                        quote(k)
                    ),
                ),
                Value::List(xs) => {
                    let keys = names(xs);
                    let on: Vec<String> = keys.iter().map(|k| format!("n.{}", quote(k))).collect();
                    let statement = format!(
                        "CREATE CONSTRAINT FOR (n:{}) REQUIRE ({}) IS NODE KEY",
                        quote(&label),
                        on.join(", ")
                    );
                    (keys, statement)
                }
                _ => continue,
            };
            run(g, statement)?;
            let ks: Vec<Arc<str>> = keys.iter().map(|k| Arc::from(k.as_str())).collect();
            rows.push(vec![
                Value::from(label.as_str()),
                key_value(&ks),
                keys_value(&ks),
                Value::Bool(true),
                Value::from("CREATED"),
            ]);
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table `resolve` searches is sorted, each name once, and binds exactly the reading
    /// procedures `IMPLEMENTED` lists (the writing ones run through `call_write`).
    #[test]
    fn the_builtin_table_is_sorted_and_binds_the_reading_procedures() {
        assert!(BUILTINS.windows(2).all(|w| w[0].0 < w[1].0));
        let reading: Vec<&str> = IMPLEMENTED
            .iter()
            .copied()
            .filter(|n| resolve_write(n).is_none())
            .collect();
        let bound: Vec<&str> = BUILTINS.iter().map(|(n, _)| *n).collect();
        assert_eq!(bound, reading);
    }
}
