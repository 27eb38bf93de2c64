//! `SHOW FUNCTIONS` and `SHOW PROCEDURES`: the catalogue as rows, in Neo4j 5's columns. The
//! catalogue holds names, signatures, categories and modes; Neo4j's descriptions are not in it,
//! so `description` is null, and the role columns are null as in Neo4j's Community Edition.

use super::*;
use crate::catalogue::{Param, Signature};
use crate::engine::Detail;
use crate::syntax::{Show, ShowKind, ShowScope};
use std::collections::BTreeSet;

/// The rows a `SHOW` lists before filtering, and the columns it binds.
pub(crate) fn show_columns(c: &Show, g: &Graph) -> (usize, Vec<Arc<str>>) {
    let (all, default) = crate::catalogue::show_columns(c.kind);
    let rows = match c.kind {
        ShowKind::Functions => listed_functions(c).count(),
        ShowKind::Procedures => listed_procedures().count(),
        ShowKind::Indexes(_) | ShowKind::Constraints(_) | ShowKind::Databases(_) => {
            table(c, g, false, None).len()
        }
        ShowKind::Users { .. } | ShowKind::CurrentUser => 2,
        ShowKind::Settings => crate::catalogue::settings().len(),
        ShowKind::Transactions | ShowKind::Terminate => 1,
    };
    let bound: Vec<Arc<str>> = match &c.yield_ {
        None => default.iter().map(|s| Arc::from(*s)).collect(),
        Some(y) => {
            let mut v: Vec<Arc<str>> = if y.star {
                all.iter().map(|s| Arc::from(*s)).collect()
            } else {
                Vec::new()
            };
            v.extend(
                y.items
                    .iter()
                    .map(|it| Arc::from(it.alias.as_ref().unwrap_or(&it.field).name.as_str())),
            );
            v
        }
    };
    (rows, bound)
}

/// `{name, description, type[, default], isDeprecated}` per argument, as Neo4j lists them.
fn params_value(params: &[Param]) -> Value {
    Value::List(
        params
            .iter()
            .map(|p| {
                let mut m = BTreeMap::new();
                m.insert(Arc::from("name"), Value::from(p.name.as_str()));
                m.insert(Arc::from("description"), Value::Null);
                m.insert(Arc::from("type"), Value::from(p.ty.as_str()));
                if let Some(d) = &p.default {
                    m.insert(Arc::from("default"), Value::from(d.as_str()));
                }
                m.insert(Arc::from("isDeprecated"), Value::Bool(false));
                Value::Map(m)
            })
            .collect(),
    )
}

/// The functions `SHOW … FUNCTIONS` lists (Cypher 5's, in the requested scope).
fn listed_functions(c: &Show) -> impl Iterator<Item = &'static crate::catalogue::Function> + '_ {
    crate::catalogue::functions()
        .iter()
        .filter(|f| f.versions.cypher_5)
        .filter(move |f| match c.scope {
            ShowScope::All => true,
            ShowScope::BuiltIn => f.built_in,
            ShowScope::UserDefined => !f.built_in,
        })
}

/// The procedures `SHOW PROCEDURES` lists (Cypher 5's).
fn listed_procedures() -> impl Iterator<Item = &'static crate::catalogue::Procedure> {
    crate::catalogue::procedures()
        .iter()
        .filter(|p| p.versions.cypher_5)
}

/// The databases a grape server has, as `SHOW DATABASES` lists them: each database it serves
/// (`neo4j` alone unless the server was given several), and `system`, all online on this one
/// server; `default` and `home` as the server and the session's user have them.
fn database_rows(c: &Show, ctx: &crate::engine::DatabaseContext) -> Vec<Vec<Value>> {
    let named = match &c.database {
        Some(crate::syntax::SchemaName::Name(n)) => Some(n.name.to_ascii_lowercase()),
        _ => None,
    };
    // (`kind`: `standard`, `composite` or `system`; a composite lists its constituents.)
    let row = |name: &str, kind: &str, constituents: Vec<Value>| {
        let mut options = BTreeMap::new();
        options.insert(Arc::from("txLogEnrichment"), Value::from("OFF"));
        vec![
            Value::from(name),
            Value::from(kind),
            Value::List(Vec::new()),
            Value::from("read-write"),
            Value::from("localhost:7687"),
            Value::from("primary"),
            Value::Bool(true),
            Value::from("online"),
            Value::from("online"),
            Value::from(""),
            Value::Bool(name == ctx.default),
            Value::Bool(name == ctx.home),
            Value::List(constituents),
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Int(1),
            Value::Int(0),
            Value::Int(1),
            Value::Int(0),
            Value::Map(options),
        ]
    };
    let mut rows: Vec<Vec<Value>> = ctx
        .names
        .iter()
        .map(|n| row(n, "standard", Vec::new()))
        .chain(ctx.composites.iter().map(|c| {
            let names = c.graph_names().into_iter().map(Value::from).collect();
            row(&c.name.to_ascii_lowercase(), "composite", names)
        }))
        .collect();
    rows.sort_by(|a, b| a[0].as_str().cmp(&b[0].as_str()));
    let all = rows
        .into_iter()
        .chain(std::iter::once(row("system", "system", Vec::new())));
    all.filter(|r| match (c.kind, &named) {
        (ShowKind::Databases(crate::syntax::ShowDatabases::All), Some(n)) => {
            r[0].as_str() == Some(n.as_str())
        }
        (ShowKind::Databases(crate::syntax::ShowDatabases::All), None) => true,
        (ShowKind::Databases(crate::syntax::ShowDatabases::Home), _) => {
            matches!(r[11], Value::Bool(true))
        }
        _ => matches!(r[10], Value::Bool(true)),
    })
    .collect()
}

/// Every row of the `SHOW` (all columns), in the catalogue's order (by name); functions and
/// procedures as Cypher 5 lists them.
fn table(
    c: &Show,
    g: &Graph,
    cypher25: bool,
    databases: Option<&crate::engine::DatabaseContext>,
) -> Vec<Vec<Value>> {
    let sig_params = |s: Option<&Signature>| s.map(|s| params_value(&s.params));
    match c.kind {
        ShowKind::Indexes(kind) => super::schema::index_rows(g, kind),
        ShowKind::Constraints(f) => super::schema::constraint_rows(g, f, cypher25),
        ShowKind::Databases(_) => match databases {
            Some(d) => database_rows(c, d),
            None => database_rows(c, &crate::engine::DatabaseContext::single()),
        },
        ShowKind::Users { with_auth } => match databases.and_then(|d| d.users.as_ref()) {
            Some(users) => users
                .list()
                .into_iter()
                .map(|u| user_row(&u, with_auth))
                .collect(),
            None => Vec::new(),
        },
        ShowKind::CurrentUser => {
            match databases.and_then(|d| Some((d.users.as_ref()?, d.user.as_deref()?))) {
                Some((users, me)) => users
                    .list()
                    .into_iter()
                    .filter(|u| u.name == me)
                    .map(|u| user_row(&u, false))
                    .collect(),
                None => Vec::new(),
            }
        }
        // Made for each incoming row: see `Runner::server_rows`.
        ShowKind::Settings | ShowKind::Transactions | ShowKind::Terminate => Vec::new(),
        ShowKind::Functions => listed_functions(c)
            .map(|f| {
                let sig = f.signature();
                vec![
                    Value::from(f.name),
                    Value::from(f.category),
                    Value::Null,
                    Value::from(f.signature_text),
                    Value::Bool(f.built_in),
                    sig_params(sig).unwrap_or(Value::List(Vec::new())),
                    sig.map_or(Value::Null, |s| Value::from(s.result.as_str())),
                    Value::Bool(f.aggregating),
                    Value::Null,
                    Value::Null,
                    Value::Bool(false),
                    Value::Null,
                ]
            })
            .collect(),
        ShowKind::Procedures => listed_procedures()
            .map(|p| {
                let sig = p.signature();
                let mut option = BTreeMap::new();
                option.insert(Arc::from("deprecated"), Value::Bool(false));
                vec![
                    Value::from(p.name),
                    Value::Null,
                    Value::from(p.mode.name()),
                    Value::Bool(p.mode == crate::catalogue::Mode::Dbms),
                    Value::from(p.signature_text),
                    sig_params(sig).unwrap_or(Value::List(Vec::new())),
                    sig.map_or(Value::List(Vec::new()), |s| params_value(&s.outputs)),
                    Value::Bool(false),
                    Value::Null,
                    Value::Null,
                    Value::Bool(false),
                    Value::Null,
                    Value::Map(option),
                ]
            })
            .collect(),
    }
}

/// A row of `SHOW USERS` as Neo4j community gives it: no roles, status or home database.
fn user_row(u: &crate::engine::security::UserInfo, with_auth: bool) -> Vec<Value> {
    let mut row = vec![
        Value::from(u.name.as_str()),
        Value::Null,
        Value::Bool(u.change_required),
        Value::Null,
        Value::Null,
    ];
    if with_auth {
        row.push(Value::from("native"));
        row.push(Value::Map(
            [
                (Arc::from("password"), Value::from("***")),
                (Arc::from("changeRequired"), Value::Bool(u.change_required)),
            ]
            .into_iter()
            .collect(),
        ));
    }
    row
}

impl Runner<'_> {
    /// Runs a `SHOW`: the catalogue's rows, filtered by `WHERE` and projected to the default
    /// columns, or projected by `YIELD` (with its ORDER BY, SKIP, LIMIT and WHERE, as a `WITH`
    /// would), appended to each incoming row.
    pub(super) fn exec_show(
        &self,
        c: &Show,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
    ) -> Result<Vec<Row>> {
        let no_users = self.sh.databases.is_none_or(|d| d.users.is_none());
        let what = match c.kind {
            // Outside a server there is no DBMS whose users to list.
            ShowKind::CurrentUser if no_users => Some("SHOW CURRENT USER outside a server"),
            ShowKind::Users { .. } if no_users => Some("SHOW USERS outside a server"),
            _ => None,
        };
        if let Some(what) = what {
            // grape has no users to list outside a server.
            return Err(ExecError::unsupported(what).at(c.span));
        }
        let (all, default) = crate::catalogue::show_columns(c.kind);
        let default_at: Vec<usize> = default
            .iter()
            .filter_map(|d| all.iter().position(|a| a == d))
            .collect();
        let fixed = match c.kind {
            ShowKind::Settings | ShowKind::Transactions | ShowKind::Terminate => None,
            _ => Some(table(c, self.g, self.sh.cypher25, self.sh.databases)),
        };
        let mut wide: Vec<Arc<str>> = scope.clone();
        wide.extend(all.iter().map(|s| Arc::from(*s)));
        let mut out = Vec::new();
        let mut out_cols = Vec::new();
        for r in rows {
            self.sh.tick()?;
            let made;
            let table: &[Vec<Value>] = match &fixed {
                Some(t) => t,
                None => {
                    made = self.server_rows(c, scope, &r)?;
                    &made
                }
            };
            let mut rs = Vec::with_capacity(table.len());
            for t in table {
                rs.push(extended_row(&r, t.iter().cloned()));
            }
            let (cols, got) = match &c.yield_ {
                None => {
                    let mut kept = Vec::new();
                    for row in rs {
                        let pass = match &c.where_ {
                            Some(w) => {
                                crate::engine::eval::passes(&self.eval(w, &Env::new(&wide, &row))?)?
                            }
                            None => true,
                        };
                        if pass {
                            let mut nr = row[..scope.len()].to_vec();
                            nr.extend(default_at.iter().map(|&i| row[scope.len() + i].clone()));
                            kept.push(nr);
                        }
                    }
                    let mut cols = scope.clone();
                    cols.extend(default.iter().map(|s| Arc::from(*s)));
                    (cols, kept)
                }
                Some(y) => {
                    // YIELD as a WITH over the outer variables and the yielded columns.
                    let var = |name: &str, span| {
                        Expr::new(
                            ExprKind::Variable(Ident {
                                name: name.to_string(),
                                span,
                            }),
                            span,
                        )
                    };
                    let mut items: Vec<crate::syntax::ProjectionItem> = scope
                        .iter()
                        .map(|s| crate::syntax::ProjectionItem {
                            expr: var(s, c.span),
                            alias: Some(Ident {
                                name: s.to_string(),
                                span: c.span,
                            }),
                            span: c.span,
                        })
                        .collect();
                    if y.star {
                        items.extend(all.iter().map(|s| crate::syntax::ProjectionItem {
                            expr: var(s, c.span),
                            alias: Some(Ident {
                                name: s.to_string(),
                                span: c.span,
                            }),
                            span: c.span,
                        }));
                    }
                    for it in &y.items {
                        if !all.contains(&it.field.name.as_str()) {
                            return Err(ExecError::compile(
                                ErrorKind::SyntaxError,
                                format!("Trying to YIELD non-existing column: `{}`", it.field.name),
                            )
                            .at(it.field.span));
                        }
                        items.push(crate::syntax::ProjectionItem {
                            expr: var(&it.field.name, it.span),
                            alias: Some(it.alias.clone().unwrap_or_else(|| it.field.clone())),
                            span: it.span,
                        });
                    }
                    let p = Projection {
                        distinct: false,
                        all: false,
                        star: false,
                        items,
                        group_by: None,
                        order_by: c.order_by.clone(),
                        skip: c.skip.clone(),
                        limit: c.limit.clone(),
                        span: c.span,
                    };
                    self.project(&p, &wide, rs, false, y.where_.as_ref())?
                }
            };
            out_cols = cols;
            for row in got {
                self.sh.charge(Shared::row_bytes(&row))?;
                out.push(row);
            }
            self.sh.check_rows(out.len())?;
        }
        if out_cols.is_empty() {
            out_cols = scope.clone();
            out_cols.extend(show_columns(c, self.g).1);
        }
        *scope = out_cols;
        Ok(out)
    }
}

impl Runner<'_> {
    /// The rows of `SHOW SETTINGS`, `SHOW TRANSACTIONS` and `TERMINATE TRANSACTIONS` for one
    /// incoming row (their names or ids may read its variables). Terminating happens here.
    fn server_rows(&self, c: &Show, scope: &[Arc<str>], row: &Row) -> Result<Vec<Vec<Value>>> {
        use crate::engine::transactions::parse_id;
        let names = self.show_names(c, scope, row)?;
        let ctx = self.sh.databases;
        let registry = ctx.and_then(|d| d.transactions.as_ref());
        Ok(match c.kind {
            ShowKind::Settings => {
                let none = crate::engine::settings::Overrides::new();
                let server = ctx.map_or(&none, |d| &*d.settings);
                let named: Option<BTreeSet<String>> = names.map(|n| n.into_iter().collect());
                crate::engine::settings::rows(
                    server,
                    self.sh.limits,
                    self.sh.import_dir,
                    named.as_ref(),
                )
            }
            ShowKind::Transactions => {
                // Ids that do not parse name no transaction.
                let wanted: Option<BTreeSet<(String, u64)>> =
                    names.map(|n| n.iter().filter_map(|id| parse_id(id).ok()).collect());
                let mut open = registry.map(|r| r.list()).unwrap_or_default();
                // Neo4j lists them in its set's hash order (no order it promises; seen on
                // the oracle); grape lists the newest first.
                open.reverse();
                open.iter()
                    .filter(|t| {
                        wanted
                            .as_ref()
                            .is_none_or(|w| w.contains(&(t.database.clone(), t.number)))
                    })
                    .map(|t| t.row())
                    .collect()
            }
            _ => {
                let invalid = |e: crate::engine::transactions::IdError| {
                    ExecError::runtime(ErrorKind::ArgumentError, e.to_string())
                        .with_detail(Detail::InvalidArguments)
                };
                let mut ids = Vec::new();
                for id in names.unwrap_or_default() {
                    let (db, n) = parse_id(&id).map_err(invalid)?;
                    if !ids.contains(&(db.clone(), n)) {
                        ids.push((db, n));
                    }
                }
                let mut out = Vec::with_capacity(ids.len());
                for (db, n) in ids {
                    let id = format!("{db}-transaction-{n}");
                    let user = match registry {
                        Some(r) => r.terminate(&id).map_err(invalid)?.username,
                        None => None,
                    };
                    let message = if user.is_some() {
                        "Transaction terminated."
                    } else {
                        "Transaction not found."
                    };
                    out.push(vec![
                        Value::from(id.as_str()),
                        user.map_or(Value::Null, |u| Value::from(u.as_str())),
                        Value::from(message),
                    ]);
                }
                out
            }
        })
    }

    /// The names or ids a `SHOW SETTINGS` / `SHOW TRANSACTIONS` / `TERMINATE TRANSACTIONS`
    /// gives (`None`: all): strings, or one expression that is a string or a list of strings —
    /// anything else is Neo4j's `TypeError`.
    fn show_names(&self, c: &Show, scope: &[Arc<str>], row: &Row) -> Result<Option<Vec<String>>> {
        if c.names.is_empty() {
            return Ok(None);
        }
        let what = match c.kind {
            ShowKind::Settings => "SHOW SETTINGS",
            ShowKind::Transactions => "SHOW TRANSACTIONS",
            _ => "TERMINATE TRANSACTIONS",
        };
        let wrong = |v: &Value, expected: &str| {
            let told = if expected == "STRING" {
                "a string"
            } else {
                "a string or a list of strings"
            };
            let mut e = ExecError::type_error(format!(
                "Expected {told}, but got: {}",
                super::update::neo4j_value_text(v)
            ));
            e.gql_status = Some(Box::new(
                crate::engine::error::GqlStatus::invalid_value_type(
                    crate::engine::error::GqlStatus::cause(
                        "22N27",
                        "error: data exception - invalid entity type",
                        format!(
                            "Invalid input '{}' for {what}. Expected to be {expected}.",
                            crate::value::gql_value_text(v)
                        ),
                    ),
                ),
            ));
            e
        };
        let env = Env::new(scope, row);
        let mut out = Vec::new();
        if let [one] = c.names.as_slice() {
            match self.eval(one, &env)? {
                Value::String(s) => out.push(s.to_string()),
                Value::List(xs) => {
                    for x in xs {
                        match x {
                            Value::String(s) => out.push(s.to_string()),
                            other => return Err(wrong(&other, "STRING")),
                        }
                    }
                }
                other => return Err(wrong(&other, "STRING or LIST<STRING>")),
            }
        } else {
            for e in &c.names {
                match self.eval(e, &env)? {
                    Value::String(s) => out.push(s.to_string()),
                    other => return Err(wrong(&other, "STRING")),
                }
            }
        }
        Ok(Some(out))
    }
}
