//! The databases of a server as a statement sees them, composite databases among them, and
//! the graph a statement's `USE` clauses send it to.
//!
//! A grape server serves one or more databases (`grape serve bolt --graphs`). A *composite*
//! database holds no data of its own: it names other databases as its constituents
//! (`composite.first` for the alias `first`), each with the properties of its alias, which
//! `graph.names()` and `graph.propertiesByName()` report. A statement runs on one graph: the
//! database its session is on, or the one its `USE` clauses name — on a composite database,
//! a constituent named by a leading `USE composite.alias` or `USE graph.byName(…)`.

use super::error::{ErrorKind, ExecError, Result};
use super::Params;
use crate::analysis::graphs::{name_key, static_name, uses, GraphReference};
use crate::syntax::ast::{Clause, Expr, ExprKind, Literal, Statement};
use crate::value::Value;
use std::collections::BTreeMap;

/// The databases a server serves, as a query sees them.
#[derive(Clone, Debug)]
pub struct DatabaseContext {
    /// Every database served (not `system`, not the composites), by name.
    pub names: Vec<String>,
    /// The database the query runs on (a composite's name, when its session is on one).
    pub current: String,
    /// The home database of the session's user.
    pub home: String,
    /// The server's default database.
    pub default: String,
    /// The composite databases, in the order they were declared.
    pub composites: Vec<Composite>,
    /// The composite database the session is on, when the statement was sent from it to the
    /// constituent `current` by its leading `USE`.
    pub routed_from: Option<String>,
    /// On a composite database: its constituents' graphs as the statement reads them.
    pub graphs: ConstituentGraphs,
    /// The DBMS's users (the system database's), where the server keeps any.
    pub users: Option<std::sync::Arc<super::security::Users>>,
    /// The user the session authenticated as (none with authentication off).
    pub user: Option<String>,
    /// The transaction's metadata (the driver's `tx_metadata`), as `tx.getMetaData` returns it.
    pub tx_metadata: BTreeMap<std::sync::Arc<str>, Value>,
    /// The edition served: community refuses what only enterprise has (key, existence and
    /// property type constraints) with community's errors, and `dbms.components` says which.
    pub enterprise: bool,
    /// The server's settings where they differ from Neo4j's defaults and the engine's
    /// (`SHOW SETTINGS`).
    pub settings: std::sync::Arc<super::settings::Overrides>,
    /// The server's open transactions (`SHOW TRANSACTIONS`, `TERMINATE TRANSACTIONS`); `None`
    /// outside a server.
    pub transactions: Option<std::sync::Arc<super::transactions::Transactions>>,
}

/// The graphs of a composite's constituents, by database name (lower case), as one statement
/// reads them.
#[derive(Clone, Default)]
pub struct ConstituentGraphs(pub BTreeMap<String, std::sync::Arc<crate::graph::Graph>>);

impl ConstituentGraphs {
    pub fn get(&self, db: &str) -> Option<&crate::graph::Graph> {
        self.0.get(&db.to_lowercase()).map(|g| &**g)
    }
}

impl std::fmt::Debug for ConstituentGraphs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.keys()).finish()
    }
}

/// A composite database: a name for a set of other databases, its constituents.
#[derive(Clone, Debug)]
pub struct Composite {
    pub name: String,
    pub constituents: Vec<Constituent>,
}

/// One constituent of a composite database: an alias of a database the server serves.
#[derive(Clone, Debug)]
pub struct Constituent {
    /// The alias within the composite (`first` of `composite.first`).
    pub alias: String,
    /// The database the alias stands for.
    pub database: String,
    /// The alias's properties (`CREATE ALIAS … PROPERTIES {…}` in Neo4j).
    pub properties: BTreeMap<String, Value>,
}

impl DatabaseContext {
    /// The context of a server with one database, `neo4j`.
    pub fn single() -> DatabaseContext {
        DatabaseContext {
            names: vec!["neo4j".into()],
            current: "neo4j".into(),
            home: "neo4j".into(),
            default: "neo4j".into(),
            composites: Vec::new(),
            routed_from: None,
            graphs: ConstituentGraphs::default(),
            users: None,
            user: None,
            tx_metadata: BTreeMap::new(),
            enterprise: true,
            settings: Default::default(),
            transactions: None,
        }
    }

    /// The composite database named `name` (names ignore case).
    pub fn composite(&self, name: &str) -> Option<&Composite> {
        self.composites
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The composite the query runs on, if it runs on one.
    pub fn current_composite(&self) -> Option<&Composite> {
        self.composite(&self.current)
    }
}

impl Composite {
    /// Each constituent's qualified name (`composite.first`), in order: `graph.names()`.
    pub fn graph_names(&self) -> Vec<String> {
        self.constituents
            .iter()
            .map(|c| self.qualified(&c.alias))
            .collect()
    }

    fn qualified(&self, alias: &str) -> String {
        name_key(&[self.name.as_str(), alias])
    }

    /// The constituent a qualified name (`composite.first`, any case) names.
    pub fn constituent(&self, qualified: &str) -> Option<&Constituent> {
        let key = qualified.to_lowercase();
        self.constituents
            .iter()
            .find(|c| self.qualified(&c.alias) == key)
    }
}

/// The parts of a graph name given as text (`graph.byName('composite.first')`): split at the
/// dots outside backticks.
pub fn split_graph_name(text: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' if quoted && chars.peek() == Some(&'`') => {
                chars.next();
                parts.last_mut().expect("one part").push('`');
            }
            '`' => quoted = !quoted,
            '.' if !quoted => parts.push(String::new()),
            c => parts.last_mut().expect("one part").push(c),
        }
    }
    parts
}

fn not_found(name: &str) -> ExecError {
    ExecError::runtime(
        ErrorKind::DatabaseNotFound,
        format!("Database does not exist. Database name: '{name}'."),
    )
}

fn parameter_name(p: &crate::syntax::ast::Parameter) -> String {
    match p {
        crate::syntax::ast::Parameter::Named(n) => n.clone(),
        crate::syntax::ast::Parameter::Positional(i) => i.to_string(),
    }
}

/// A graph reference's argument: a string literal or a string parameter.
fn text_argument(function: &str, e: &Expr, params: &Params) -> Result<String> {
    match &e.kind {
        ExprKind::Literal(Literal::String(s)) => Ok(s.clone()),
        ExprKind::Parameter(p) => match params.get(&parameter_name(p)) {
            Some(Value::String(s)) => Ok(s.to_string()),
            Some(other) => Err(ExecError::type_error(format!(
                "{function}() expects a STRING, got {}",
                crate::value::type_name(other)
            ))),
            None => Err(ExecError::runtime(
                ErrorKind::ParameterMissing,
                format!("Expected parameter(s): {}", parameter_name(p)),
            )),
        },
        _ => Err(ExecError::runtime(
            ErrorKind::Unsupported,
            format!("{function}() in a leading USE takes a string literal or a parameter in grape"),
        )),
    }
}

/// The database the statement's `USE` clauses send it to, resolved in `ctx` (lower case);
/// `None` when it has no `USE`. On a standard database the validator has made sure that every
/// `USE` names the same graph; on a composite, a statement whose only `USE` leads it goes to
/// that constituent (`None` for one over several graphs: the executor runs each part on its
/// constituent).
pub fn use_target(
    stmt: &Statement,
    params: &Params,
    ctx: &DatabaseContext,
) -> Result<Option<String>> {
    let all = uses(&stmt.query);
    let Some(first) = all.first() else {
        return Ok(None);
    };
    let leading =
        matches!(stmt.query.first.clauses.first(), Some(Clause::Use(u)) if std::ptr::eq(u, *first));
    if let Some(composite) = ctx.current_composite() {
        // Over several graphs, each part runs where its own USE says (the executor).
        if !leading || all.len() > 1 {
            return Ok(None);
        }
        let parts = match GraphReference::of(first) {
            GraphReference::Name(e) => static_name(e)
                .unwrap_or_default()
                .into_iter()
                .map(str::to_string)
                .collect(),
            GraphReference::ByName(e)
                if matches!(
                    e.kind,
                    ExprKind::Literal(Literal::String(_)) | ExprKind::Parameter(_)
                ) =>
            {
                split_graph_name(&text_argument("graph.byName", e, params)?)
            }
            // Computed from the row: the executor resolves it.
            GraphReference::ByName(_) => return Ok(None),
            GraphReference::ByElementId(e)
                if matches!(
                    e.kind,
                    ExprKind::Literal(Literal::String(_)) | ExprKind::Parameter(_)
                ) =>
            {
                let id = text_argument("graph.byElementId", e, params)?;
                return composite_database_of_element(composite, &id).map(Some);
            }
            GraphReference::ByElementId(_) => return Ok(None),
            GraphReference::Other => return Err(not_a_graph(first)),
        };
        let key = name_key(&parts);
        return match composite.constituent(&key) {
            Some(c) => Ok(Some(c.database.to_lowercase())),
            None => Err(not_found(&key)),
        };
    }
    let target = match GraphReference::of(first) {
        GraphReference::Name(e) => {
            let parts = static_name(e).unwrap_or_default();
            let key = name_key(&parts);
            if parts.len() > 1 && ctx.composite(parts[0]).is_some() {
                return Err(ExecError::runtime(
                    ErrorKind::SemanticError,
                    format!(
                        "Accessing a composite database and its constituents is only allowed when connected to it. Attempted to access '{key}' while connected to '{}'",
                        ctx.current
                    ),
                ));
            }
            key
        }
        GraphReference::ByElementId(e) => {
            let id = text_argument("graph.byElementId", e, params)?;
            database_of_element(Some(ctx), &id)
                .ok_or_else(|| element_id_error(&id))?
                .to_lowercase()
        }
        // Refused by the compile-time checks on the session's database, with Neo4j's message.
        GraphReference::ByName(_) => return Ok(None),
        GraphReference::Other => return Err(not_a_graph(first)),
    };
    if ctx.composite(&target).is_some() {
        return Err(ExecError::runtime(
            ErrorKind::SemanticError,
            format!(
                "Accessing a composite database and its constituents is only allowed when connected to it. Attempted to access '{target}' while connected to '{}'",
                ctx.current
            ),
        ));
    }
    if !ctx.names.iter().any(|n| n.eq_ignore_ascii_case(&target)) {
        return Err(not_found(&target));
    }
    Ok(Some(target))
}

/// The database (among those served, as `ctx` lists them; `neo4j` alone without one) whose
/// id the element id carries: `db.nameFromElementId`, `USE graph.byElementId(…)`.
pub(crate) fn database_of_element(ctx: Option<&DatabaseContext>, id: &str) -> Option<String> {
    let (_, db_id, _) = crate::value::parse_element_id(id)?;
    let single = ["neo4j".to_string()];
    let names = ctx.map_or(&single[..], |c| &c.names[..]);
    names
        .iter()
        .find(|n| crate::value::database_id(n) == db_id)
        .cloned()
}

/// The constituent database of `composite` an element id belongs to.
pub(crate) fn composite_database_of_element(composite: &Composite, id: &str) -> Result<String> {
    let db_id = crate::value::parse_element_id(id).map(|(_, db, _)| db);
    composite
        .constituents
        .iter()
        .find(|c| Some(crate::value::database_id(&c.database).as_str()) == db_id)
        .map(|c| c.database.to_lowercase())
        .ok_or_else(|| element_id_error(id))
}

fn element_id_error(id: &str) -> ExecError {
    ExecError::runtime(
        ErrorKind::EntityNotFound,
        format!("No graph found for the element id '{id}'"),
    )
}

fn not_a_graph(u: &crate::syntax::ast::Use) -> ExecError {
    ExecError::compile(
        ErrorKind::SyntaxError,
        "USE takes a graph name, graph.byName(…) or graph.byElementId(…)".to_string(),
    )
    .at(u.graph.span)
}

/// Checks, before a statement runs on `ctx.current`, that its `USE` clauses name that graph
/// (a server routes the statement there first: [`use_target`]); a statement on a composite
/// database that reads or writes data outside a constituent is refused.
pub(crate) fn check_target(stmt: &Statement, params: &Params, ctx: &DatabaseContext) -> Result<()> {
    if let Some(c) = ctx.current_composite() {
        // The parts that start with USE run on their constituents (a constituent that does
        // not exist is found here); the rest touch no data.
        use_target(stmt, params, ctx)?;
        return composite_parts(c, &stmt.query);
    }
    let session;
    let resolved_in = match &ctx.routed_from {
        Some(composite) => {
            session = DatabaseContext {
                current: composite.clone(),
                routed_from: None,
                graphs: ConstituentGraphs::default(),
                ..ctx.clone()
            };
            &session
        }
        None => ctx,
    };
    if let Some(target) = use_target(stmt, params, resolved_in)? {
        if !target.eq_ignore_ascii_case(&ctx.current) {
            return Err(ExecError::runtime(
                ErrorKind::Unsupported,
                format!(
                    "the statement uses the database '{target}' but was given the graph of '{}': run it on '{target}' (a grape server does this itself)",
                    ctx.current
                ),
            ));
        }
        return Ok(());
    }
    Ok(())
}

/// A composite holds no data of its own: what reads or writes a graph must be in a part whose
/// `USE` names a constituent.
fn composite_parts(c: &Composite, q: &crate::syntax::ast::Query) -> Result<()> {
    for part in q.parts() {
        if crate::analysis::graphs::leading_use(part).is_some() {
            continue;
        }
        for clause in &part.clauses {
            if touches_data(clause) {
                return Err(ExecError::runtime(
                    ErrorKind::Unsupported,
                    format!(
                        "the composite database '{}' holds no data of its own: read and write its constituents in query parts that start with `USE {}.<alias>` or `USE graph.byName(…)`",
                        c.name, c.name
                    ),
                ));
            }
            for sub in clause.subqueries() {
                composite_parts(c, sub)?;
            }
        }
    }
    Ok(())
}

/// Whether a clause reads or writes the graph (what a composite database cannot do itself).
fn touches_data(c: &Clause) -> bool {
    matches!(
        c,
        Clause::Match(_)
            | Clause::Create(_)
            | Clause::Merge(_)
            | Clause::Set(_)
            | Clause::Remove(_)
            | Clause::Delete(_)
            | Clause::Foreach(_)
            | Clause::LoadCsv(_)
            | Clause::Schema(_)
    )
}

/// `graph.names()`: the constituents of the composite the statement runs on.
pub(crate) fn graph_names(ctx: Option<&DatabaseContext>) -> Result<Value> {
    let c = composite_only("graph.names", ctx)?;
    Ok(Value::List(
        c.graph_names().into_iter().map(Value::from).collect(),
    ))
}

/// `graph.propertiesByName(name)`: the properties of a constituent's alias.
pub(crate) fn graph_properties(ctx: Option<&DatabaseContext>, name: &Value) -> Result<Value> {
    let c = composite_only("graph.propertiesByName", ctx)?;
    let name = match name {
        Value::Null => return Ok(Value::Null),
        Value::String(s) => s,
        other => {
            return Err(ExecError::type_error(format!(
                "graph.propertiesByName() expects a STRING, got {}",
                crate::value::type_name(other)
            )))
        }
    };
    let key = name_key(&split_graph_name(name));
    let Some(constituent) = c.constituent(&key) else {
        return Err(not_found(name));
    };
    Ok(Value::Map(
        constituent
            .properties
            .iter()
            .map(|(k, v)| (std::sync::Arc::from(k.as_str()), v.clone()))
            .collect(),
    ))
}

fn composite_only<'c>(function: &str, ctx: Option<&'c DatabaseContext>) -> Result<&'c Composite> {
    ctx.and_then(DatabaseContext::current_composite)
        .ok_or_else(|| {
            ExecError::runtime(
                ErrorKind::SemanticError,
                format!("Calling {function}() is only supported on composite databases."),
            )
        })
}

/// A composite database or alias property declaration that does not read.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CompositeSpecError {
    #[error("{0:?}: expected NAME=ALIAS:DATABASE[,ALIAS:DATABASE…]")]
    Shape(String),
    #[error("{0:?}: expected COMPOSITE.ALIAS={{JSON map}}")]
    PropertiesShape(String),
    #[error("{spec:?}: {message}")]
    Properties { spec: String, message: String },
    #[error("{0:?}: no composite database has this constituent")]
    UnknownConstituent(String),
}

impl Composite {
    /// Reads `NAME=ALIAS:DATABASE[,ALIAS:DATABASE…]` (`grape serve bolt --composite`); an
    /// alias without `:DATABASE` stands for the database of its name.
    ///
    /// ```
    /// let c = grape::engine::Composite::parse("composite=first:dba,second:dbb").unwrap();
    /// assert_eq!(c.graph_names(), ["composite.first", "composite.second"]);
    /// ```
    pub fn parse(spec: &str) -> std::result::Result<Composite, CompositeSpecError> {
        let shape = || CompositeSpecError::Shape(spec.to_string());
        let (name, list) = spec.split_once('=').ok_or_else(shape)?;
        let name = name.trim();
        if name.is_empty() || name.contains('.') {
            return Err(shape());
        }
        let mut constituents = Vec::new();
        for item in list.split(',') {
            let (alias, database) = item.split_once(':').unwrap_or((item, item));
            let (alias, database) = (alias.trim(), database.trim());
            if alias.is_empty() || database.is_empty() {
                return Err(shape());
            }
            constituents.push(Constituent {
                alias: alias.to_string(),
                database: database.to_string(),
                properties: BTreeMap::new(),
            });
        }
        Ok(Composite {
            name: name.to_string(),
            constituents,
        })
    }
}

/// Sets an alias's properties from `COMPOSITE.ALIAS={JSON map}` (`grape serve bolt
/// --alias-properties`), as `CREATE ALIAS … PROPERTIES {…}` does in Neo4j.
pub fn set_alias_properties(
    composites: &mut [Composite],
    spec: &str,
) -> std::result::Result<(), CompositeSpecError> {
    let shape = || CompositeSpecError::PropertiesShape(spec.to_string());
    let (qualified, json) = spec.split_once('=').ok_or_else(shape)?;
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(json).map_err(|e| CompositeSpecError::Properties {
            spec: spec.to_string(),
            message: e.to_string(),
        })?;
    let key = name_key(&split_graph_name(qualified.trim()));
    let constituent = composites
        .iter_mut()
        .find_map(|c| {
            let prefix = name_key(&[c.name.as_str()]);
            let idx = c
                .constituents
                .iter()
                .position(|k| name_key(&[prefix.as_str(), k.alias.as_str()]) == key)?;
            Some(&mut c.constituents[idx])
        })
        .ok_or_else(|| CompositeSpecError::UnknownConstituent(qualified.to_string()))?;
    for (k, v) in map {
        let value = crate::graph::import::json_to_value(&v, &k).map_err(|message| {
            CompositeSpecError::Properties {
                spec: spec.to_string(),
                message,
            }
        })?;
        constituent.properties.insert(k, value);
    }
    Ok(())
}
