//! A live Neo4j (or any Bolt server) as a [`Backend`] (feature `neo4j`).
//!
//! ```no_run
//! use grape::backend::{Backend, neo4j::{Neo4j, Neo4jConfig}};
//!
//! // NEO4J_URI, NEO4J_USERNAME, NEO4J_PASSWORD, NEO4J_DATABASE
//! let db = Neo4j::connect(Neo4jConfig::from_env()).unwrap();
//! let t = db.run("MATCH (n) RETURN count(n) AS n", &Default::default()).unwrap();
//! println!("{} nodes; schema: {:?}", t.rows[0][0], db.schema().unwrap().labels.keys());
//! ```
//!
//! It speaks Bolt 5.0–5.8 and 4.0–4.4 through grape's own Bolt client (the same PackStream
//! code the `bolt` server uses), so every value type arrives intact: nodes, relationships and
//! paths with their labels, types and properties, all temporal types including durations with
//! months and days, and columns in the order the query names them. (neo4rs 0.8, the stable Rust
//! driver, speaks only Bolt 4.0/4.1, returns rows as hash maps — column order is lost — and
//! turns durations into seconds; it is exercised against `grape serve bolt` in the tests
//! instead.) URIs: `bolt://`, `neo4j://` (the given server is used directly; no cluster
//! routing), `bolt+s://` / `neo4j+s://` (TLS, certificates checked against the web's root
//! authorities) and `bolt+ssc://` / `neo4j+ssc://` (TLS, any certificate accepted). Queries run
//! in auto-commit transactions; a per-query timeout goes to the server as `tx_timeout` and also
//! bounds the client's wait. Connections are pooled and reused; a broken one is dropped.

use super::{Backend, BackendError, FailureKind};
use crate::bolt::client::{Client, Stream};
use crate::bolt::convert::{to_ps, Dialect, ResultDecoder};
use crate::bolt::packstream::Ps;
use crate::engine::{Params, Stats, Table};
use crate::schema::{Property, PropertyType, Schema, SchemaFormat, Triple};
use crate::value::{Entities, Value};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Mutex;
use std::time::Duration;

/// Where the schema comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SchemaSource {
    /// `apoc.meta.schema` when the database has APOC, `db.schema.*` otherwise.
    #[default]
    Auto,
    /// `apoc.meta.schema` only.
    Apoc,
    /// `db.schema.nodeTypeProperties`, `db.schema.relTypeProperties` and
    /// `db.schema.visualization` (no plugin needed).
    DbSchema,
}

/// How to reach the database.
#[derive(Clone, Debug)]
pub struct Neo4jConfig {
    /// `bolt://host:7687`, `neo4j+s://host`, … (a bare `host:port` means `bolt://`).
    pub uri: String,
    /// User name; empty for a server without authentication.
    pub user: String,
    pub password: String,
    /// The database to use; `None` for the server's default.
    pub database: Option<String>,
    /// Longest a query may run (sent as `tx_timeout`; the client waits a little longer).
    pub timeout: Option<Duration>,
    /// Longest a TCP connect may take.
    pub connect_timeout: Duration,
    pub schema_source: SchemaSource,
}

impl Neo4jConfig {
    /// A configuration for `uri` with user `neo4j`, no password and the default database.
    pub fn new(uri: impl Into<String>) -> Neo4jConfig {
        Neo4jConfig {
            uri: uri.into(),
            user: "neo4j".into(),
            password: String::new(),
            database: None,
            timeout: Some(Duration::from_secs(60)),
            connect_timeout: Duration::from_secs(10),
            schema_source: SchemaSource::Auto,
        }
    }

    /// From `NEO4J_URI` (default `bolt://localhost:7687`), `NEO4J_USERNAME` (default `neo4j`),
    /// `NEO4J_PASSWORD` and `NEO4J_DATABASE`, the variables Neo4j's own tools read.
    pub fn from_env() -> Neo4jConfig {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let mut c = Neo4jConfig::new(var("NEO4J_URI").unwrap_or("bolt://localhost:7687".into()));
        if let Some(u) = var("NEO4J_USERNAME") {
            c.user = u;
        }
        if let Some(p) = var("NEO4J_PASSWORD") {
            c.password = p;
        }
        c.database = var("NEO4J_DATABASE");
        c
    }
}

/// The transport a URI asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Target {
    pub host: String,
    pub port: u16,
    /// `None`: plain TCP; `Some(true)`: TLS with verified certificates; `Some(false)`: TLS,
    /// any certificate.
    pub tls: Option<bool>,
}

pub(crate) fn parse_uri(uri: &str) -> Result<Target, String> {
    let (scheme, rest) = match uri.split_once("://") {
        Some((s, r)) => (s.to_ascii_lowercase(), r),
        None => ("bolt".to_string(), uri),
    };
    let tls = match scheme.as_str() {
        "bolt" | "neo4j" => None,
        "bolt+s" | "neo4j+s" => Some(true),
        "bolt+ssc" | "neo4j+ssc" => Some(false),
        other => {
            return Err(format!(
                "{uri}: unknown scheme `{other}` (expected bolt, neo4j, bolt+s, neo4j+s, bolt+ssc or neo4j+ssc)"
            ))
        }
    };
    let authority = rest.split(['/', '?']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    if authority.is_empty() {
        return Err(format!("{uri}: no host"));
    }
    let (host, port) = if let Some(stripped) = authority.strip_prefix('[') {
        // [IPv6]:port
        let (h, after) = stripped
            .split_once(']')
            .ok_or_else(|| format!("{uri}: unclosed `[`"))?;
        (h.to_string(), after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p)),
            None => (authority.to_string(), None),
        }
    };
    let port = match port {
        None | Some("") => 7687,
        Some(p) => p
            .parse()
            .map_err(|_| format!("{uri}: `{p}` is not a port number"))?,
    };
    Ok(Target { host, port, tls })
}

/// A Neo4j database over Bolt.
pub struct Neo4j {
    config: Neo4jConfig,
    target: Target,
    pool: Mutex<Vec<Client>>,
    version: (u8, u8),
    agent: String,
}

fn conn_err(what: &str, e: impl std::fmt::Display) -> BackendError {
    BackendError::new(FailureKind::Connection, format!("{what}: {e}"))
}

fn io_err(target: &str, e: std::io::Error) -> BackendError {
    match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => BackendError::new(
            FailureKind::Timeout,
            format!("{target}: no answer in time ({e})"),
        ),
        std::io::ErrorKind::PermissionDenied => BackendError::new(FailureKind::Auth, e.to_string()),
        _ => conn_err(target, e),
    }
}

/// The failure a FAILURE message's metadata describes.
fn failure(meta: &Ps) -> BackendError {
    let code = meta
        .get("code")
        .or_else(|| meta.get("neo4j_code"))
        .and_then(Ps::as_str)
        .unwrap_or("Neo.DatabaseError.General.UnknownError")
        .to_string();
    let message = meta
        .get("message")
        .and_then(Ps::as_str)
        .unwrap_or("the server reported a failure")
        .to_string();
    let kind = if code.contains(".Security.") {
        FailureKind::Auth
    } else if code.contains("TimedOut") || code.contains("Terminated") {
        FailureKind::Timeout
    } else {
        FailureKind::Query
    };
    // Bolt 5.7+: the GQL status and the statuses it was caused by.
    let mut gql = Vec::new();
    let mut at = Some(meta);
    while let Some(m) = at {
        match m.get("gql_status").and_then(Ps::as_str) {
            Some(g) => gql.push(g.to_string()),
            None => break,
        }
        at = m.get("cause").filter(|c| matches!(c, Ps::Map(_)));
    }
    let server = gql.first().map(|g| {
        Box::new(super::ServerFailure {
            code: code.clone(),
            message: message.clone(),
            gql_status: g.clone(),
            gql_description: meta
                .get("description")
                .and_then(Ps::as_str)
                .unwrap_or_default()
                .to_string(),
        })
    });
    BackendError {
        gql,
        server,
        ..BackendError::new(kind, format!("{code}: {message}")).with_code(code)
    }
}

impl Neo4j {
    /// Connects (one connection, to fail fast on a wrong address or credentials).
    pub fn connect(config: Neo4jConfig) -> Result<Neo4j, BackendError> {
        let target =
            parse_uri(&config.uri).map_err(|m| BackendError::new(FailureKind::Connection, m))?;
        let mut db = Neo4j {
            config,
            target,
            pool: Mutex::new(Vec::new()),
            version: (0, 0),
            agent: String::new(),
        };
        let (client, agent) = db.open()?;
        db.version = client.version;
        db.agent = agent;
        db.checkin(client);
        Ok(db)
    }

    /// The Bolt version spoken, `(major, minor)`.
    pub fn bolt_version(&self) -> (u8, u8) {
        self.version
    }

    /// The server's agent string (`Neo4j/5.26.0`).
    pub fn server_agent(&self) -> &str {
        &self.agent
    }

    fn open(&self) -> Result<(Client, String), BackendError> {
        let t = &self.target;
        let name = format!("{}:{}", t.host, t.port);
        let addrs: Vec<_> = (t.host.as_str(), t.port)
            .to_socket_addrs()
            .map_err(|e| conn_err(&name, e))?
            .collect();
        let mut last = None;
        let mut tcp = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, self.config.connect_timeout) {
                Ok(s) => {
                    tcp = Some(s);
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        let tcp = match (tcp, last) {
            (Some(s), _) => s,
            (None, Some(e)) => return Err(io_err(&name, e)),
            (None, None) => return Err(conn_err(&name, "the host name resolves to no address")),
        };
        tcp.set_nodelay(true).map_err(|e| conn_err(&name, e))?;
        let wait = self
            .config
            .timeout
            .map(|d| d + Duration::from_secs(5))
            .unwrap_or(Duration::from_secs(3600));
        tcp.set_read_timeout(Some(wait))
            .and_then(|_| tcp.set_write_timeout(Some(wait)))
            .map_err(|e| conn_err(&name, e))?;
        let stream: Box<dyn Stream> = match t.tls {
            None => Box::new(tcp),
            Some(verify) => {
                Box::new(tls::wrap(tcp, &t.host, verify).map_err(|e| conn_err(&name, e))?)
            }
        };
        let mut client =
            Client::over(stream, &[(5, 8, 8), (4, 4, 4)]).map_err(|e| io_err(&name, e))?;
        let meta = client
            .login(&self.config.user, &self.config.password)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::PermissionDenied => BackendError::new(
                    FailureKind::Auth,
                    format!(
                        "{name}: the server refused the credentials of `{}` ({e})",
                        self.config.user
                    ),
                ),
                _ => io_err(&name, e),
            })?;
        let agent = meta
            .get("server")
            .and_then(Ps::as_str)
            .unwrap_or("")
            .to_string();
        Ok((client, agent))
    }

    fn checkout(&self) -> Result<Client, BackendError> {
        let pooled = self.pool.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match pooled {
            Some(c) => Ok(c),
            None => self.open().map(|(c, _)| c),
        }
    }

    fn checkin(&self, c: Client) {
        let mut pool = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() < 16 {
            pool.push(c);
        }
    }

    fn dialect(&self) -> Dialect {
        Dialect {
            element_ids: self.version.0 >= 5,
            utc_datetimes: self.version.0 >= 5,
        }
    }
}

fn stats_of(summary: &Ps) -> Stats {
    let n = |k: &str| {
        summary
            .get("stats")
            .and_then(|s| s.get(k))
            .and_then(Ps::as_int)
            .unwrap_or(0)
            .max(0) as u64
    };
    Stats {
        nodes_created: n("nodes-created"),
        nodes_deleted: n("nodes-deleted"),
        relationships_created: n("relationships-created"),
        relationships_deleted: n("relationships-deleted"),
        properties_set: n("properties-set"),
        labels_added: n("labels-added"),
        labels_removed: n("labels-removed"),
        indexes_added: n("indexes-added"),
        indexes_removed: n("indexes-removed"),
        constraints_added: n("constraints-added"),
        constraints_removed: n("constraints-removed"),
        system_updates: n("system-updates"),
    }
}

impl Neo4j {
    /// Runs one statement inside an explicit transaction that is then rolled back, so a
    /// writing statement reports its counters and leaves the database as it was. (Statements
    /// Neo4j runs only in implicit transactions, `CALL { … } IN TRANSACTIONS`, fail here.)
    pub fn run_rolled_back(&self, query: &str, params: &Params) -> Result<Table, BackendError> {
        self.exec(query, params, true).map(|(t, _)| t)
    }

    /// Runs one statement in an auto-commit transaction and returns its result with the
    /// notifications of its summary (what tools read from `EXPLAIN`: unknown labels, missing
    /// parameters, deprecations, …), in the server's order.
    pub fn run_with_notifications(
        &self,
        query: &str,
        params: &Params,
    ) -> Result<(Table, Vec<ServerNotification>), BackendError> {
        self.exec(query, params, false)
    }

    fn exec(
        &self,
        query: &str,
        params: &Params,
        rolled_back: bool,
    ) -> Result<(Table, Vec<ServerNotification>), BackendError> {
        self.exec_summary(query, params, rolled_back)
            .map(|(t, notes, _)| (t, notes))
    }

    /// [`Neo4j::exec`], with the query type the summary gives (`r`, `rw`, `w`, `s`).
    fn exec_summary(
        &self,
        query: &str,
        params: &Params,
        rolled_back: bool,
    ) -> Result<(Table, Vec<ServerNotification>, Option<String>), BackendError> {
        let d = self.dialect();
        let empty = Table::default();
        let params = Ps::Map(
            params
                .iter()
                .map(|(k, v)| (k.clone(), to_ps(v, &empty, d)))
                .collect(),
        );
        let mut extra = Vec::new();
        if let Some(db) = &self.config.database {
            extra.push(("db", Ps::from(db.as_str())));
        }
        if let Some(t) = self.config.timeout {
            extra.push((
                "tx_timeout",
                Ps::Int(t.as_millis().min(i64::MAX as u128) as i64),
            ));
        }
        let mut c = self.checkout()?;
        let name = self.config.uri.as_str();
        let reset = |mut c: Client| {
            // RESET clears a failed state or an open transaction; the connection stays usable.
            if let Ok((0x70, _)) = c.request(0x0F, vec![]) {
                self.checkin(c);
            }
        };
        let run_extra = if rolled_back {
            match c.request(0x11, vec![Ps::map(extra)]) {
                Err(e) => return Err(io_err(name, e)),
                Ok((0x70, _)) => {}
                Ok((_, f)) => {
                    let err = failure(f.first().unwrap_or(&Ps::Null));
                    reset(c);
                    return Err(err);
                }
            }
            Ps::map::<&str>([])
        } else {
            Ps::map(extra)
        };
        let (meta, records, summary) = match c.run_with(query, params, run_extra) {
            Err(e) => return Err(io_err(name, e)),
            Ok(Err(meta)) => {
                reset(c);
                return Err(failure(&meta));
            }
            Ok(Ok(r)) => r,
        };
        if rolled_back {
            match c.request(0x13, vec![]) {
                Ok((0x70, _)) => self.checkin(c),
                Ok(_) => reset(c),
                Err(e) => return Err(io_err(name, e)),
            }
        } else {
            self.checkin(c);
        }
        let columns: Vec<String> = match meta.get("fields") {
            Some(Ps::List(f)) => f
                .iter()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect(),
            _ => Vec::new(),
        };
        let mut dec = ResultDecoder::default();
        let mut rows = Vec::with_capacity(records.len());
        for (i, r) in records.iter().enumerate() {
            let row = r
                .iter()
                .map(|v| dec.value(v))
                .collect::<Result<Vec<Value>, String>>()
                .map_err(|m| {
                    BackendError::new(FailureKind::Query, format!("{name}: record {}: {m}", i + 1))
                })?;
            rows.push(row);
        }
        let notes = notifications_of(&summary);
        let query_type = summary.get("type").and_then(Ps::as_str).map(str::to_string);
        let mut table = dec.into_table(columns, rows, stats_of(&summary));
        table.plan = plan_of(&summary);
        Ok((table, notes, query_type))
    }
}

/// The plan of a summary (`plan` after `EXPLAIN`, `profile` after `PROFILE`): operator names
/// without the runtime after `@`, `Details`, `EstimatedRows`, identifiers, and when profiled
/// rows and db hits. (The decoder bounds the nesting, so the walk is bounded too.)
fn plan_of(summary: &Ps) -> Option<crate::plan::Plan> {
    fn node(p: &Ps, profiled: bool) -> crate::plan::Plan {
        let operator = p.get("operatorType").and_then(Ps::as_str).unwrap_or("");
        let operator = operator.split_once('@').map_or(operator, |(o, _)| o);
        let args = p.get("args");
        let arg = |k: &str| args.and_then(|a| a.get(k));
        let details = arg("Details").and_then(Ps::as_str).unwrap_or("");
        let mut plan = crate::plan::Plan::leaf(operator, details);
        plan.estimated_rows = match arg("EstimatedRows") {
            Some(Ps::Float(f)) => *f,
            Some(Ps::Int(i)) => *i as f64,
            _ => 0.0,
        };
        if let Some(Ps::List(ids)) = p.get("identifiers") {
            plan.identifiers = ids
                .iter()
                .filter_map(Ps::as_str)
                .map(str::to_string)
                .collect();
        }
        if profiled {
            let count = |k: &str| p.get(k).and_then(Ps::as_int).map(|n| n.max(0) as u64);
            plan.rows = count("rows");
            plan.db_hits = count("dbHits");
        }
        if let Some(Ps::List(children)) = p.get("children") {
            plan.children = children.iter().map(|c| node(c, profiled)).collect();
        }
        plan
    }
    match (summary.get("profile"), summary.get("plan")) {
        (Some(p @ Ps::Map(_)), _) => Some(node(p, true)),
        (_, Some(p @ Ps::Map(_))) => Some(node(p, false)),
        _ => None,
    }
}

/// A notification of a statement's summary, as the server sent it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ServerNotification {
    pub code: String,
    pub title: String,
    pub description: String,
    /// `WARNING`, `INFORMATION`, … (empty when the server sent none).
    pub severity: String,
    /// `UNRECOGNIZED`, `DEPRECATION`, … (empty when the server sent none).
    pub category: String,
    /// Byte offset, 1-based line and column of the offending text, where the server gave one.
    pub position: Option<(i64, i64, i64)>,
}

fn notifications_of(summary: &Ps) -> Vec<ServerNotification> {
    if let Some(Ps::List(statuses)) = summary.get("statuses") {
        return statuses_as_notifications(statuses);
    }
    let Some(Ps::List(list)) = summary.get("notifications") else {
        return Vec::new();
    };
    let text = |n: &Ps, k: &str| n.get(k).and_then(Ps::as_str).unwrap_or("").to_string();
    list.iter()
        .map(|n| ServerNotification {
            code: text(n, "code"),
            title: text(n, "title"),
            description: text(n, "description"),
            severity: text(n, "severity"),
            category: text(n, "category"),
            position: n.get("position").map(|p| {
                let at = |k: &str| p.get(k).and_then(Ps::as_int).unwrap_or(0);
                (at("offset"), at("line"), at("column"))
            }),
        })
        .collect()
}

/// Bolt 5.6+'s GQL statuses, as the notifications they carry (a status with a Neo4j code:
/// `01N50` is `Neo.ClientNotification.Statement.UnknownLabelWarning`); severity, category and
/// position come from the diagnostic record.
fn statuses_as_notifications(statuses: &[Ps]) -> Vec<ServerNotification> {
    let text = |n: &Ps, k: &str| n.get(k).and_then(Ps::as_str).unwrap_or("").to_string();
    statuses
        .iter()
        .filter(|s| s.get("neo4j_code").and_then(Ps::as_str).is_some())
        .map(|s| {
            let record = s.get("diagnostic_record");
            let from_record = |k: &str| {
                record
                    .and_then(|r| r.get(k))
                    .and_then(Ps::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            ServerNotification {
                code: text(s, "neo4j_code"),
                title: text(s, "title"),
                description: text(s, "description"),
                severity: from_record("_severity"),
                category: from_record("_classification"),
                position: record.and_then(|r| r.get("_position")).and_then(|p| {
                    let at = |k: &str| p.get(k).and_then(Ps::as_int);
                    Some((at("offset")?, at("line")?, at("column")?))
                }),
            }
        })
        .collect()
}

impl Backend for Neo4j {
    fn run(&self, query: &str, params: &Params) -> Result<Table, BackendError> {
        self.exec(query, params, false).map(|(t, _)| t)
    }

    fn schema(&self) -> Result<Schema, BackendError> {
        match self.config.schema_source {
            SchemaSource::Apoc => self.schema_apoc(),
            SchemaSource::DbSchema => self.schema_db(),
            SchemaSource::Auto => match self.schema_apoc() {
                Err(e) if e.kind == FailureKind::Query => self.schema_db(),
                other => other,
            },
        }
    }

    fn query_type(&self, query: &str, params: &Params) -> Result<String, BackendError> {
        let (_, _, ty) = self.exec_summary(&format!("EXPLAIN {query}"), params, false)?;
        Ok(ty.unwrap_or_default())
    }

    fn describe(&self) -> String {
        let db = self
            .config
            .database
            .as_deref()
            .map(|d| format!(" database {d}"))
            .unwrap_or_default();
        format!("neo4j {}{db}", self.config.uri)
    }
}

impl Neo4j {
    fn schema_apoc(&self) -> Result<Schema, BackendError> {
        let t = self.run(
            "CALL apoc.meta.schema() YIELD value RETURN value",
            &Params::new(),
        )?;
        let v = t.rows.first().and_then(|r| r.first()).ok_or_else(|| {
            BackendError::new(FailureKind::Query, "apoc.meta.schema returned no row")
        })?;
        let json = crate::graph::import::value_to_json(v, &t);
        Schema::read(SchemaFormat::Apoc, &json.to_string())
            .map_err(|e| BackendError::new(FailureKind::Query, e.to_string()))
    }

    fn schema_db(&self) -> Result<Schema, BackendError> {
        let mut s = Schema::default();
        let p = Params::new();
        let ty = |v: Option<&Value>| -> PropertyType {
            match v {
                Some(Value::List(ts)) if ts.len() == 1 => ts[0]
                    .as_str()
                    .map(PropertyType::parse)
                    .unwrap_or(PropertyType::Any),
                _ => PropertyType::Any,
            }
        };
        let t = self.run(
            "CALL db.schema.nodeTypeProperties() YIELD nodeLabels, propertyName, propertyTypes \
             RETURN nodeLabels, propertyName, propertyTypes",
            &p,
        )?;
        for r in &t.rows {
            let Some(Value::List(labels)) = r.first() else {
                continue;
            };
            for l in labels.iter().filter_map(Value::as_str) {
                let e = s.labels.entry(l.to_string()).or_default();
                if let Some(name) = r.get(1).and_then(Value::as_str) {
                    e.properties
                        .insert(name.to_string(), Property::new(ty(r.get(2))));
                }
            }
        }
        let t = self.run(
            "CALL db.schema.relTypeProperties() YIELD relType, propertyName, propertyTypes \
             RETURN relType, propertyName, propertyTypes",
            &p,
        )?;
        for r in &t.rows {
            let Some(rt) = r.first().and_then(Value::as_str) else {
                continue;
            };
            let name = rt
                .trim_start_matches(':')
                .trim_matches('`')
                .replace("``", "`");
            let e = s.relationship_types.entry(name).or_default();
            if let Some(prop) = r.get(1).and_then(Value::as_str) {
                e.properties
                    .insert(prop.to_string(), Property::new(ty(r.get(2))));
            }
        }
        let t = self.run(
            "CALL db.schema.visualization() YIELD nodes, relationships RETURN nodes, relationships",
            &p,
        )?;
        for r in &t.rows {
            let mut names = std::collections::HashMap::new();
            if let Some(Value::List(ns)) = r.first() {
                for n in ns {
                    if let Value::Node(id) = n {
                        if let Some(name) = t.node_props(*id).get("name").and_then(Value::as_str) {
                            names.insert(*id, name.to_string());
                        }
                    }
                }
            }
            let Some(Value::List(rs)) = r.get(1) else {
                continue;
            };
            for rel in rs {
                let triple = match rel {
                    // Neo4j: virtual relationships between virtual label nodes.
                    Value::Relationship(id) => {
                        let (Some((a, b)), Some(ty)) = (t.rel_endpoints(*id), t.rel_type(*id))
                        else {
                            continue;
                        };
                        match (names.get(&a), names.get(&b)) {
                            (Some(a), Some(b)) => Triple::new(a, &ty, b),
                            _ => continue,
                        }
                    }
                    // grape's engine: maps {start, type, end}.
                    Value::Map(m) => {
                        let g = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
                        match (g("start"), g("type"), g("end")) {
                            (Some(a), Some(ty), Some(b)) => Triple::new(&a, &ty, &b),
                            _ => continue,
                        }
                    }
                    _ => continue,
                };
                s.triples.insert(triple);
            }
        }
        s.complete();
        Ok(s)
    }
}

mod tls {
    //! TLS over a TCP stream (rustls with the ring provider and the web's root authorities).
    use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
    use rustls::crypto::CryptoProvider;
    use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
    use rustls::{
        ClientConfig, ClientConnection, DigitallySignedStruct, SignatureScheme, StreamOwned,
    };
    use std::net::TcpStream;
    use std::sync::Arc;

    /// `+ssc` URIs: the connection is encrypted but the certificate is not checked (a
    /// self-signed certificate, as Neo4j's own drivers allow with the same scheme).
    #[derive(Debug)]
    struct AnyCertificate(Arc<CryptoProvider>);

    impl ServerCertVerifier for AnyCertificate {
        fn verify_server_cert(
            &self,
            _end_entity: &CertificateDer<'_>,
            _intermediates: &[CertificateDer<'_>],
            _server_name: &ServerName<'_>,
            _ocsp_response: &[u8],
            _now: UnixTime,
        ) -> Result<ServerCertVerified, rustls::Error> {
            Ok(ServerCertVerified::assertion())
        }
        fn verify_tls12_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls12_signature(
                message,
                cert,
                dss,
                &self.0.signature_verification_algorithms,
            )
        }
        fn verify_tls13_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls13_signature(
                message,
                cert,
                dss,
                &self.0.signature_verification_algorithms,
            )
        }
        fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
            self.0.signature_verification_algorithms.supported_schemes()
        }
    }

    pub(super) fn wrap(
        tcp: TcpStream,
        host: &str,
        verify: bool,
    ) -> Result<StreamOwned<ClientConnection, TcpStream>, String> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?;
        let config = if verify {
            let mut roots = rustls::RootCertStore::empty();
            roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
            builder.with_root_certificates(roots).with_no_client_auth()
        } else {
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
                .with_no_client_auth()
        };
        let name = ServerName::try_from(host.to_string()).map_err(|e| format!("{host}: {e}"))?;
        let conn = ClientConnection::new(Arc::new(config), name).map_err(|e| e.to_string())?;
        Ok(StreamOwned::new(conn, tcp))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        let t = parse_uri("neo4j+s://demo.neo4jlabs.com").unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.tls),
            ("demo.neo4jlabs.com", 7687, Some(true))
        );
        let t = parse_uri("bolt://user@127.0.0.1:7688/db?x=1").unwrap();
        assert_eq!((t.host.as_str(), t.port, t.tls), ("127.0.0.1", 7688, None));
        let t = parse_uri("bolt+ssc://[::1]:9000").unwrap();
        assert_eq!((t.host.as_str(), t.port, t.tls), ("::1", 9000, Some(false)));
        assert_eq!(parse_uri("localhost:1").unwrap().port, 1);
        assert!(parse_uri("http://x")
            .unwrap_err()
            .contains("unknown scheme"));
        assert!(parse_uri("bolt://x:port")
            .unwrap_err()
            .contains("not a port"));
        assert!(parse_uri("bolt://").is_err());
    }

    #[test]
    fn failures_are_classified() {
        let f = |code: &str| {
            failure(&Ps::map([
                ("code", Ps::from(code)),
                ("message", Ps::from("m")),
            ]))
        };
        assert_eq!(
            f("Neo.ClientError.Statement.SyntaxError").kind,
            FailureKind::Query
        );
        assert_eq!(
            f("Neo.ClientError.Security.Unauthorized").kind,
            FailureKind::Auth
        );
        assert_eq!(
            f("Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration").kind,
            FailureKind::Timeout
        );
        assert_eq!(
            f("Neo.ClientError.Statement.SyntaxError").code.as_deref(),
            Some("Neo.ClientError.Statement.SyntaxError")
        );
        // Bolt 4/5.0–5.6: no GQL status.
        assert!(f("Neo.ClientError.Statement.SyntaxError").gql.is_empty());
    }

    /// Bolt 5.7+: the GQL status and its causes, outer first.
    #[test]
    fn failures_carry_their_gql_statuses() {
        let cause = Ps::map([
            ("gql_status", Ps::from("22N01")),
            ("message", Ps::from("22N01: Expected …")),
            (
                "description",
                Ps::from("error: data exception - invalid type. …"),
            ),
        ]);
        let e = failure(&Ps::map([
            (
                "neo4j_code",
                Ps::from("Neo.ClientError.Statement.TypeError"),
            ),
            ("message", Ps::from("Cannot add `Long` and `Map`")),
            ("gql_status", Ps::from("22G03")),
            (
                "description",
                Ps::from("error: data exception - invalid value type"),
            ),
            ("cause", cause),
        ]));
        assert_eq!(
            e.code.as_deref(),
            Some("Neo.ClientError.Statement.TypeError")
        );
        assert_eq!(e.gql, ["22G03", "22N01"]);
    }

    /// Bolt 5.6+ summaries carry GQL statuses: those with a Neo4j code are the notifications.
    #[test]
    fn statuses_are_read_as_notifications() {
        let summary = Ps::map([(
            "statuses",
            Ps::List(vec![
                Ps::map([
                    ("gql_status", Ps::from("00000")),
                    ("status_description", Ps::from("note: successful completion")),
                ]),
                Ps::map([
                    ("gql_status", Ps::from("01N50")),
                    (
                        "neo4j_code",
                        Ps::from("Neo.ClientNotification.Statement.UnknownLabelWarning"),
                    ),
                    ("title", Ps::from("The provided label is not in the database.")),
                    ("description", Ps::from("One of the labels in your query is not available in the database, make sure you didn't misspell it or that the label is available when you run this statement in your application (the missing label name is: X)")),
                    (
                        "diagnostic_record",
                        Ps::map([
                            ("_severity", Ps::from("WARNING")),
                            ("_classification", Ps::from("UNRECOGNIZED")),
                            (
                                "_position",
                                Ps::map([
                                    ("offset", Ps::Int(9)),
                                    ("line", Ps::Int(1)),
                                    ("column", Ps::Int(10)),
                                ]),
                            ),
                        ]),
                    ),
                ]),
            ]),
        )]);
        let notes = notifications_of(&summary);
        assert_eq!(notes.len(), 1);
        let n = &notes[0];
        assert_eq!(
            n.code,
            "Neo.ClientNotification.Statement.UnknownLabelWarning"
        );
        assert_eq!(
            (n.severity.as_str(), n.category.as_str()),
            ("WARNING", "UNRECOGNIZED")
        );
        assert_eq!(n.position, Some((9, 1, 10)));
    }
}
