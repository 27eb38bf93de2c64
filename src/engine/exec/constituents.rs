//! Statements on a composite database: each query part (a `UNION` part, a `CALL { … }`
//! subquery) whose `USE` names a constituent runs on that constituent's graph, and the nodes,
//! relationships and paths it returns come back as elements of the result (virtual elements of
//! the statement, with their labels, types and properties), as Neo4j returns a constituent's
//! entities to the composite's query.

use super::*;
use crate::analysis::graphs::{name_key, static_name, GraphReference};
use crate::engine::graphs::{split_graph_name, Composite, DatabaseContext};
use crate::syntax::ast::Use;

pub(super) use crate::analysis::graphs::leading_use;

/// Runs a query part that starts with `USE` on a composite database: on the constituent the
/// reference names for each input row (the same for all rows when it is a name).
pub(super) fn run_part(
    access: &mut Access,
    sh: &Shared,
    composite: &Composite,
    q: &SingleQuery,
    u: &Use,
    scope: Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Output> {
    if single_updates(q) {
        return Err(ExecError::runtime(
            ErrorKind::Unsupported,
            format!(
                "grape writes to a constituent of '{}' only in a statement that starts with its USE and names no other graph",
                composite.name
            ),
        ));
    }
    let ctx = sh.databases.expect("a composite database's context");
    let reference = GraphReference::of(u);
    if let GraphReference::Name(e) = reference {
        let parts: Vec<String> = static_name(e)
            .unwrap_or_default()
            .into_iter()
            .map(str::to_string)
            .collect();
        let db = constituent(composite, &parts)?;
        return run_on(sh, ctx, composite, &db, q, scope, rows);
    }
    let (arg, by_element) = match reference {
        GraphReference::ByName(arg) => (arg, false),
        GraphReference::ByElementId(arg) => (arg, true),
        _ => {
            return Err(ExecError::runtime(
                ErrorKind::Unsupported,
                "on a composite database, USE takes a constituent's name, graph.byName(…) or graph.byElementId(…)",
            ))
        }
    };
    // A computed name: each row may go elsewhere.
    let mut out: Option<Output> = None;
    for r in rows {
        let name = {
            let run = Runner::new(access.graph(), sh);
            run.eval(arg, &Env::new(&scope, &r))?
        };
        let Value::String(name) = name else {
            return Err(ExecError::type_error(format!(
                "{}() expects a STRING, got {}",
                if by_element {
                    "graph.byElementId"
                } else {
                    "graph.byName"
                },
                crate::value::type_name(&name)
            )));
        };
        let db = if by_element {
            crate::engine::graphs::composite_database_of_element(composite, &name)?
        } else {
            constituent(composite, &split_graph_name(&name))?
        };
        let part = run_on(sh, ctx, composite, &db, q, scope.clone(), vec![r])?;
        match &mut out {
            None => out = Some(part),
            Some(o) => {
                o.rows.extend(part.rows);
                sh.check_rows(o.rows.len())?;
            }
        }
    }
    match out {
        Some(o) => Ok(o),
        // No rows: the part's columns, from the text.
        None => Ok(Output {
            columns: projection_columns_of(q, sh.src),
            rows: Vec::new(),
            returns: matches!(q.clauses.last(), Some(Clause::Return(_))),
            units: 0,
        }),
    }
}

fn projection_columns_of(q: &SingleQuery, src: &str) -> Vec<Arc<str>> {
    match q.clauses.last() {
        Some(Clause::Return(r)) => r
            .projection
            .items
            .iter()
            .map(|it| column_name(&it.expr, it.alias.as_ref(), src))
            .collect(),
        _ => Vec::new(),
    }
}

/// The database of the constituent `parts` names (`composite.alias`).
fn constituent(composite: &Composite, parts: &[String]) -> Result<String> {
    let key = name_key(parts);
    composite
        .constituent(&key)
        .map(|c| c.database.to_lowercase())
        .ok_or_else(|| {
            ExecError::runtime(
                ErrorKind::DatabaseNotFound,
                format!("Database does not exist. Database name: '{key}'."),
            )
        })
}

/// Runs `q` on the graph of `db`, a constituent, and brings its rows back.
fn run_on(
    sh: &Shared,
    ctx: &DatabaseContext,
    composite: &Composite,
    db: &str,
    q: &SingleQuery,
    scope: Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Output> {
    let Some(graph) = ctx.graphs.get(db) else {
        return Err(ExecError::runtime(
            ErrorKind::DatabaseNotFound,
            format!("Database does not exist. Database name: '{db}'."),
        ));
    };
    // Values of the composite's own rows that are elements cannot enter another graph.
    if rows.iter().flatten().any(holds_element) {
        return Err(ExecError::runtime(
            ErrorKind::Unsupported,
            "grape passes values into a constituent, but not nodes, relationships or paths",
        ));
    }
    let inner_ctx = DatabaseContext {
        current: db.to_string(),
        routed_from: Some(composite.name.clone()),
        ..ctx.clone()
    };
    let inner = sh.for_graph(&inner_ctx);
    let mut access = Access::Read(graph);
    let out = run_single(&mut access, &inner, q, scope, rows)?;
    // The constituent's work counts against the statement.
    sh.ticks.set(sh.ticks.get() + inner.ticks.get());
    let run = Runner::new(graph, &inner);
    let mut imported = HashMap::new();
    let mut rows = Vec::with_capacity(out.rows.len());
    for r in out.rows {
        let mut nr = Vec::with_capacity(r.len());
        for v in r {
            nr.push(import(&run, sh, db, v, &mut imported)?);
        }
        rows.push(nr);
    }
    Ok(Output { rows, ..out })
}

fn holds_element(v: &Value) -> bool {
    match v {
        Value::Node(_) | Value::Relationship(_) | Value::Path(_) => true,
        Value::List(xs) => xs.iter().any(holds_element),
        Value::Map(m) => m.values().any(holds_element),
        _ => false,
    }
}

/// Elements a constituent returned, by (is a node, id), as the statement's virtual elements.
type Imported = HashMap<(bool, u32), u32>;

/// A value of the constituent's rows as a value of the composite's: its elements become
/// virtual ones carrying their labels, types and properties (the same element once).
fn import(run: &Runner, sh: &Shared, db: &str, v: Value, seen: &mut Imported) -> Result<Value> {
    Ok(match v {
        Value::Node(n) => Value::Node(import_node(run, sh, db, n, seen)?),
        Value::Relationship(r) => Value::Relationship(import_rel(run, sh, db, r, seen)?),
        Value::Path(p) => {
            let mut nodes = Vec::with_capacity(p.nodes.len());
            for n in &p.nodes {
                nodes.push(import_node(run, sh, db, *n, seen)?);
            }
            let mut rels = Vec::with_capacity(p.rels.len());
            for r in &p.rels {
                rels.push(import_rel(run, sh, db, *r, seen)?);
            }
            Value::Path(Arc::new(crate::value::Path { nodes, rels }))
        }
        Value::List(xs) => Value::List(
            xs.into_iter()
                .map(|x| import(run, sh, db, x, seen))
                .collect::<Result<_>>()?,
        ),
        Value::Map(m) => Value::Map(
            m.into_iter()
                .map(|(k, x)| Ok((k, import(run, sh, db, x, seen)?)))
                .collect::<Result<_>>()?,
        ),
        other => other,
    })
}

fn import_node(
    run: &Runner,
    sh: &Shared,
    db: &str,
    n: NodeId,
    seen: &mut Imported,
) -> Result<NodeId> {
    if let Some(id) = seen.get(&(true, n.0)) {
        return Ok(NodeId(*id));
    }
    let labels = run.node_labels(n);
    let props = run.java_properties(&Value::Node(n))?;
    let id = sh.virtual_node(labels, props)?;
    seen.insert((true, n.0), id.0);
    sh.virtuals
        .borrow_mut()
        .origins
        .insert((true, id.0), (Arc::from(db), n.0));
    Ok(id)
}

fn import_rel(run: &Runner, sh: &Shared, db: &str, r: RelId, seen: &mut Imported) -> Result<RelId> {
    if let Some(id) = seen.get(&(false, r.0)) {
        return Ok(RelId(*id));
    }
    let (Some(ty), Some((a, b))) = (run.rel_type(r), run.rel_endpoints(r)) else {
        return Err(ExecError::runtime(
            ErrorKind::EntityNotFound,
            format!("Relationship with id {} is not in the database '{db}'", r.0),
        ));
    };
    let (a, b) = (
        import_node(run, sh, db, a, seen)?,
        import_node(run, sh, db, b, seen)?,
    );
    let props = run.java_properties(&Value::Relationship(r))?;
    let id = sh.virtual_rel(ty, a, b, props)?;
    seen.insert((false, r.0), id.0);
    sh.virtuals
        .borrow_mut()
        .origins
        .insert((false, id.0), (Arc::from(db), r.0));
    Ok(id)
}

/// Whether a query part writes (its subqueries included).
fn single_updates(q: &SingleQuery) -> bool {
    q.clauses.iter().any(crate::engine::clause_updates)
}
