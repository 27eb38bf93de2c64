//! The Bolt server: listener, connection state machine, message handling.

use super::convert::{from_ps, to_ps, Dialect};
use super::packstream::{decode_all, encode, Ps};
use super::watch::Watcher;
use crate::engine::Detail;
use crate::engine::{Options, Params, Table};
use crate::graph::{Graph, SharedGraph, WriteTx};
use crate::value::Value;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// `(user, password)` that HELLO or LOGON must present; `None` accepts any credentials.
    pub auth: Option<(String, String)>,
    /// Refuse every write.
    pub read_only: bool,
    /// The largest message a client may send.
    pub max_message_bytes: usize,
    /// Engine options (limits) for every query.
    pub engine: Options,
    /// The default database: where a session that names none runs (`neo4j`). With one graph
    /// ([`Server::bind`]) it is that graph's name.
    pub database: String,
    /// Each database also has a user of its own name whose password is that name (the pattern
    /// of Neo4j's public demo server): that user's home database is its own, and it may use no
    /// other. The `auth` user, when there is one, keeps access to every database.
    pub database_users: bool,
    /// How long a new connection may take to send its handshake and HELLO.
    pub handshake_timeout: Duration,
    /// How long a connection may stay silent between messages before it is closed
    /// (`None`: forever).
    pub idle_timeout: Option<Duration>,
    /// How long one message may take to arrive once it has begun (a client that sends a byte
    /// a second cannot hold a connection).
    pub message_timeout: Duration,
    /// Most connections served at once; the next gets a FAILURE
    /// (`Neo.TransientError.Request.NoThreadsAvailable`) and is closed.
    pub max_connections: usize,
    /// The longest query text RUN accepts, in bytes.
    pub max_query_bytes: usize,
    /// Failed logins in a row from one address before further attempts are refused for
    /// `auth_lock` (`Neo.ClientError.Security.AuthenticationRateLimit`), as Neo4j's
    /// `dbms.security.auth_max_failed_attempts` / `auth_lock_time`.
    pub auth_max_failed_attempts: u32,
    pub auth_lock: Duration,
    /// How long a write waits for the transaction that is writing to end (grape runs one
    /// write transaction at a time) before it fails with
    /// `Neo.TransientError.Transaction.LockAcquisitionTimeout`, which drivers retry.
    pub lock_timeout: Duration,
    /// Composite databases over the databases served: sessions may name one, and a statement
    /// on it runs on the constituent its leading `USE` names.
    pub composites: Vec<crate::engine::Composite>,
    /// Serve as enterprise edition (key, existence and property type constraints); community
    /// (the default, what the server announces) refuses them with community's errors.
    pub enterprise: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            auth: None,
            read_only: false,
            max_message_bytes: 16 << 20,
            engine: Options::default(),
            database: "neo4j".into(),
            database_users: false,
            handshake_timeout: Duration::from_secs(10),
            idle_timeout: Some(Duration::from_secs(30 * 60)),
            message_timeout: Duration::from_secs(60),
            max_connections: 512,
            max_query_bytes: 1 << 20,
            auth_max_failed_attempts: 3,
            auth_lock: Duration::from_secs(5),
            lock_timeout: Duration::from_secs(10),
            composites: Vec::new(),
            enterprise: false,
        }
    }
}

/// State shared by all connections.
struct Shared {
    /// The databases, by name in lower case (Neo4j's names are case-insensitive).
    databases: std::collections::BTreeMap<String, SharedGraph>,
    /// The graph a statement on a composite database sees outside its constituents: none.
    empty: SharedGraph,
    config: Config,
    addr: SocketAddr,
    connections: AtomicU64,
    bookmarks: AtomicU64,
    stop: AtomicBool,
    /// Connections being served now.
    active: AtomicUsize,
    /// Failed logins in a row, and when the last was, by client address.
    auth_failures: Mutex<std::collections::HashMap<std::net::IpAddr, (u32, Instant)>>,
    /// The DBMS's users (`CREATE USER` …): with authentication on, logins are checked
    /// against them; the `auth` user is the first.
    users: Arc<crate::engine::security::Users>,
    /// The open transactions (`SHOW TRANSACTIONS`, `TERMINATE TRANSACTIONS`).
    transactions: Arc<crate::engine::transactions::Transactions>,
    /// What `SHOW SETTINGS` says of the server (its address, authentication, lock wait).
    settings: Arc<crate::engine::settings::Overrides>,
}

impl Shared {
    fn new(
        databases: Vec<(String, Graph)>,
        mut config: Config,
        addr: SocketAddr,
    ) -> io::Result<Shared> {
        config.database = config.database.to_ascii_lowercase();
        let mut by_name = std::collections::BTreeMap::new();
        for (name, g) in databases {
            let key = name.to_ascii_lowercase();
            if key.is_empty() || key == "system" {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{name:?} cannot name a database"),
                ));
            }
            if by_name.insert(key, SharedGraph::new(g)).is_some() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("two databases are named {name:?} (names ignore case)"),
                ));
            }
        }
        if !by_name.contains_key(&config.database) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the default database {:?} is not among the databases served ({})",
                    config.database,
                    by_name.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        check_composites(&config.composites, &by_name)?;
        let settings = Arc::new(server_settings(&config, addr));
        Ok(Shared {
            transactions: Arc::default(),
            settings,
            databases: by_name,
            empty: SharedGraph::new(Graph::new()),
            addr,
            connections: AtomicU64::new(0),
            bookmarks: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            active: AtomicUsize::new(0),
            auth_failures: Mutex::new(std::collections::HashMap::new()),
            // With authentication off, Neo4j's initial user, whose password must be changed.
            users: Arc::new(match &config.auth {
                Some((u, p)) => crate::engine::security::Users::with_initial(u, p),
                None => {
                    let users = crate::engine::security::Users::default();
                    let _ = users.create(
                        "neo4j",
                        crate::engine::security::Password::Plain("neo4j"),
                        true,
                        false,
                    );
                    users
                }
            }),
            config,
        })
    }

    /// The graph of the database `name` (lower case).
    fn graph(&self, name: &str) -> Option<&SharedGraph> {
        self.databases.get(name).or_else(|| {
            self.config
                .composites
                .iter()
                .any(|c| c.name.eq_ignore_ascii_case(name))
                .then_some(&self.empty)
        })
    }
}

/// Neo4j's settings as this server has them, where they differ from the defaults.
fn server_settings(config: &Config, addr: SocketAddr) -> crate::engine::settings::Overrides {
    let mut o = crate::engine::settings::Overrides::new();
    let mut set = |k: &str, v: String| o.insert(k.to_string(), Some(v));
    set("server.bolt.enabled", "true".into());
    set("server.bolt.listen_address", addr.to_string());
    if config.auth.is_some() {
        set("dbms.security.auth_enabled", "true".into());
    }
    if config.database != "neo4j" {
        set("initial.dbms.default_database", config.database.clone());
    }
    set(
        "db.lock.acquisition.timeout",
        crate::engine::settings::duration_text(config.lock_timeout),
    );
    o
}

/// A transaction in the server's list while it is open (explicit, or one auto-commit
/// statement while it runs).
struct Registered {
    registry: Arc<crate::engine::transactions::Transactions>,
    tx: Arc<crate::engine::transactions::Transaction>,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.registry.end(&self.tx);
    }
}

/// Neo4j's failure for a statement of a terminated transaction.
fn terminated() -> Failure {
    Failure::new(
        "Neo.ClientError.Transaction.Terminated",
        crate::engine::transactions::TERMINATED_MESSAGE,
    )
}

/// A position in a statement as Neo4j's summaries carry it.
fn position_ps(p: crate::engine::Position) -> Ps {
    Ps::map([
        ("offset", Ps::Int(p.offset as i64)),
        ("line", Ps::Int(p.line as i64)),
        ("column", Ps::Int(p.column as i64)),
    ])
}

/// Notifications as Bolt 5.6+ carries them in a summary: GQL status objects.
fn statuses_to_ps(found: &[crate::engine::Notification]) -> Vec<Ps> {
    found
        .iter()
        .map(|n| {
            let mut record = vec![
                ("_classification", Ps::from(n.category)),
                ("_severity", Ps::from(n.severity)),
            ];
            if let Some(p) = n.position {
                record.push(("_position", position_ps(p)));
            }
            Ps::map([
                ("gql_status", Ps::from(n.gql_status)),
                ("neo4j_code", Ps::from(n.code)),
                (
                    "status_description",
                    Ps::String(n.status_description.clone()),
                ),
                ("diagnostic_record", Ps::map(record)),
                ("description", Ps::String(n.description.clone())),
                ("title", Ps::from(n.title)),
            ])
        })
        .collect()
}

/// Notifications as Bolt 5.0–5.4 carry them in a summary.
fn notifications_to_ps(found: &[crate::engine::Notification]) -> Ps {
    Ps::List(
        found
            .iter()
            .map(|n| {
                let mut fields = vec![
                    ("code", Ps::from(n.code)),
                    ("title", Ps::from(n.title)),
                    ("description", Ps::String(n.description.clone())),
                    ("severity", Ps::from(n.severity)),
                    ("category", Ps::from(n.category)),
                ];
                if let Some(p) = n.position {
                    fields.push(("position", position_ps(p)));
                }
                Ps::map(fields)
            })
            .collect(),
    )
}

/// Composite databases must have names of their own and name served databases.
fn check_composites(
    composites: &[crate::engine::Composite],
    databases: &std::collections::BTreeMap<String, SharedGraph>,
) -> io::Result<()> {
    let invalid = |m: String| Err(io::Error::new(io::ErrorKind::InvalidInput, m));
    for (i, c) in composites.iter().enumerate() {
        let key = c.name.to_ascii_lowercase();
        if key.is_empty() || key == "system" || key.contains('.') || databases.contains_key(&key) {
            return invalid(format!(
                "{:?} cannot name a composite database (a database has that name, or it is reserved)",
                c.name
            ));
        }
        if composites[..i]
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(&c.name))
        {
            return invalid(format!("two composite databases are named {:?}", c.name));
        }
        for (j, k) in c.constituents.iter().enumerate() {
            if !databases.contains_key(&k.database.to_ascii_lowercase()) {
                return invalid(format!(
                    "the constituent {}.{} names {:?}, which is not among the databases served",
                    c.name, k.alias, k.database
                ));
            }
            if c.constituents[..j]
                .iter()
                .any(|o| o.alias.eq_ignore_ascii_case(&k.alias))
            {
                return invalid(format!(
                    "the composite {:?} has two constituents named {:?}",
                    c.name, k.alias
                ));
            }
        }
    }
    Ok(())
}

/// A bound Bolt server.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
}

/// A server running on a background thread; dropping it (or [`ServerHandle::shutdown`]) stops
/// accepting connections.
pub struct ServerHandle {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Binds `addr` (port 0 picks a free port) and serves `graph` as the database
    /// `config.database`.
    pub fn bind(addr: &str, graph: Graph, config: Config) -> io::Result<Server> {
        let name = config.database.clone();
        Server::bind_databases(addr, vec![(name, graph)], config)
    }

    /// Binds `addr` and serves several databases, by name (case-insensitive, as in Neo4j); a
    /// driver picks one with its `database` setting, and a session that names none gets
    /// `config.database`, which must be among them.
    pub fn bind_databases(
        addr: &str,
        databases: Vec<(String, Graph)>,
        config: Config,
    ) -> io::Result<Server> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        Ok(Server {
            listener,
            shared: Arc::new(Shared::new(databases, config, addr)?),
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.shared.addr
    }

    /// Accepts connections until stopped, one thread each.
    pub fn serve(self) {
        for stream in self.listener.incoming() {
            if self.shared.stop.load(Ordering::SeqCst) {
                break;
            }
            let Ok(stream) = stream else {
                // Out of descriptors or the like: do not spin.
                std::thread::sleep(Duration::from_millis(10));
                continue;
            };
            let shared = self.shared.clone();
            let guard = ActiveGuard::new(&shared);
            // Queries are parsed, checked and run on the connection's thread: give it the
            // stack a main thread has (reserved, not committed), not the 2 MiB default.
            let spawned = std::thread::Builder::new()
                .name("grape-bolt".into())
                .stack_size(crate::QUERY_STACK_BYTES)
                .spawn(move || {
                    let _ = stream.set_nodelay(true);
                    let over = guard.count > shared.config.max_connections;
                    let _ = handle(stream, &shared, over);
                    drop(guard);
                });
            if spawned.is_err() {
                // Out of threads: the connection (moved into the closure) is dropped.
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }

    /// Serves on a background thread.
    pub fn spawn(self) -> ServerHandle {
        let shared = self.shared.clone();
        let thread = std::thread::spawn(move || self.serve());
        ServerHandle {
            shared,
            thread: Some(thread),
        }
    }
}

impl ServerHandle {
    pub fn local_addr(&self) -> SocketAddr {
        self.shared.addr
    }
    /// A snapshot of the default database's graph as committed now.
    pub fn graph(&self) -> Arc<Graph> {
        self.shared.databases[&self.shared.config.database].snapshot()
    }
    /// A snapshot of the graph of the database `name` as committed now.
    pub fn database(&self, name: &str) -> Option<Arc<Graph>> {
        self.shared
            .graph(&name.to_ascii_lowercase())
            .map(SharedGraph::snapshot)
    }
    /// Stops accepting connections (open ones run until their clients leave).
    pub fn shutdown(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(self.shared.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Counts a connection as active while it lives.
struct ActiveGuard {
    shared: Arc<Shared>,
    /// Active connections, this one included, when it was accepted.
    count: usize,
}

impl ActiveGuard {
    fn new(shared: &Arc<Shared>) -> ActiveGuard {
        let count = shared.active.fetch_add(1, Ordering::SeqCst) + 1;
        ActiveGuard {
            shared: shared.clone(),
            count,
        }
    }
}

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        self.shared.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves one already-accepted connection on the calling thread (for embedding the server in
/// another accept loop).
pub fn serve_connection(stream: TcpStream, graph: Graph, config: Config) -> io::Result<()> {
    let name = config.database.clone();
    let shared = Shared::new(vec![(name, graph)], config, stream.local_addr()?)?;
    handle(stream, &shared, false)
}

/// A socket reader with a deadline: each read waits at most until the deadline, so that a
/// client cannot hold a connection by sending nothing, or a byte at a time.
struct Timed {
    stream: TcpStream,
    deadline: std::cell::Cell<Option<Instant>>,
}

impl Timed {
    fn until(&self, d: Option<Instant>) {
        self.deadline.set(d);
    }
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(d) = self.deadline.get() {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "read deadline passed",
                ));
            }
            self.stream.set_read_timeout(Some(left))?;
        } else {
            self.stream.set_read_timeout(None)?;
        }
        self.stream.read(buf)
    }
}

const MAGIC: [u8; 4] = [0x60, 0x60, 0xB0, 0x17];

/// Picks the version to speak from the client's four proposals `[_, range, minor, major]`:
/// Bolt 5.0–5.8 or 4.0–4.4 (the 4.x versions differ only in messages grape answers the same
/// way: ROUTE from 4.3, the `utc` patch in 4.4; 5.6 brings GQL statuses in summaries, 5.7 GQL
/// errors, 5.8 the resolved home database in BEGIN's and RUN's answers).
fn negotiate(proposals: &[u8; 16]) -> Option<(u8, u8)> {
    for p in proposals.chunks(4) {
        let (range, minor, major) = (p[1], p[2], p[3]);
        let lowest = minor.saturating_sub(range);
        match major {
            5 if lowest <= 8 => return Some((5, minor.min(8))),
            4 => return Some((4, minor.min(4))),
            _ => {}
        }
    }
    None
}

/// Reads one chunked message; `Ok(None)` at a clean end of stream.
pub(super) fn read_message(r: &mut impl Read, max: usize) -> io::Result<Option<Vec<u8>>> {
    let mut msg = Vec::new();
    loop {
        let mut head = [0u8; 2];
        match r.read_exact(&mut head) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof && msg.is_empty() => {
                return Ok(None)
            }
            Err(e) => return Err(e),
        }
        let n = u16::from_be_bytes(head) as usize;
        if n == 0 {
            if msg.is_empty() {
                continue; // a NOOP chunk (keep-alive)
            }
            return Ok(Some(msg));
        }
        if msg.len() + n > max {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("message larger than {max} bytes"),
            ));
        }
        let start = msg.len();
        msg.resize(start + n, 0);
        r.read_exact(&mut msg[start..])?;
    }
}

/// Appends a message, chunked, to `out`.
pub(super) fn write_message(out: &mut Vec<u8>, msg: &Ps) {
    let mut body = Vec::new();
    encode(msg, &mut body);
    for chunk in body.chunks(u16::MAX as usize) {
        out.extend_from_slice(&(chunk.len() as u16).to_be_bytes());
        out.extend_from_slice(chunk);
    }
    out.extend_from_slice(&[0, 0]);
}

const SUCCESS: u8 = 0x70;
const RECORD: u8 = 0x71;
const IGNORED: u8 = 0x7E;
const FAILURE: u8 = 0x7F;

fn success(meta: Ps) -> Ps {
    Ps::Struct(SUCCESS, vec![meta])
}

/// A Neo4j-style failure.
struct Failure {
    code: String,
    message: String,
    /// The engine's GQL status for it (`None`: Neo4j's generic `50N42`).
    gql: Option<Box<crate::engine::GqlStatus>>,
    /// Met while the statement ran (not while it was compiled): Neo4j reports these when the
    /// results are pulled, after RUN has succeeded.
    runtime: bool,
}

impl Failure {
    fn new(code: &str, message: impl Into<String>) -> Failure {
        Failure {
            code: code.into(),
            message: message.into(),
            gql: None,
            runtime: false,
        }
    }
    /// The failure an engine error on the statement `src` is, with its GQL status.
    fn exec(e: crate::engine::ExecError, src: &str) -> Failure {
        Failure {
            code: e.code().into(),
            gql: Some(Box::new(e.gql())),
            runtime: e.phase == crate::engine::Phase::Runtime,
            message: e.neo4j_message(src),
        }
    }
    fn request(message: impl Into<String>) -> Failure {
        Failure::new("Neo.ClientError.Request.Invalid", message)
    }
}

/// A result waiting to be pulled.
struct Pending {
    qid: i64,
    rows: std::collections::VecDeque<Ps>,
    /// The final summary's metadata (without `has_more`).
    summary: Vec<(String, Ps)>,
    /// The error the statement met while running, reported when the result is pulled.
    failure: Option<Failure>,
}

/// An explicit transaction.
struct Tx<'a> {
    /// The database it runs on.
    db: String,
    /// The write lease and the transaction's working graph, from its first write.
    lease: Option<WriteTx<'a>>,
    read_only: bool,
    /// When the driver's `tx_timeout` runs out.
    deadline: Option<Instant>,
    /// What its statements are (Neo4j keeps administration commands apart from queries): set
    /// by the first.
    kind: Option<StatementKind>,
    /// The users before its first administration command, put back unless it commits.
    users_undo: Option<UsersUndo>,
    /// The driver's `tx_metadata`.
    metadata: BTreeMap<Arc<str>, Value>,
    /// Its entry in the server's list of transactions.
    record: Registered,
}

/// Puts the DBMS's users back as they were when dropped, unless committed.
struct UsersUndo {
    users: Arc<crate::engine::security::Users>,
    before: Option<crate::engine::security::UsersSnapshot>,
}

impl UsersUndo {
    fn commit(mut self) {
        self.before = None;
    }
}

impl Drop for UsersUndo {
    fn drop(&mut self) {
        if let Some(s) = self.before.take() {
            self.users.restore(s);
        }
    }
}

/// A statement's kind as Neo4j names it when a transaction mixes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StatementKind {
    Read,
    Write,
    Administration,
}

impl StatementKind {
    fn of(stmt: &crate::syntax::ast::Statement) -> StatementKind {
        use crate::syntax::ast::Clause;
        use crate::syntax::ShowKind;
        let admin = stmt.query.first.clauses.iter().any(|c| match c {
            Clause::Admin(_) => true,
            Clause::Show(s) => matches!(
                s.kind,
                ShowKind::Users { .. } | ShowKind::CurrentUser | ShowKind::Databases(_)
            ),
            _ => false,
        });
        if admin {
            StatementKind::Administration
        } else if crate::engine::is_updating(stmt) {
            StatementKind::Write
        } else {
            StatementKind::Read
        }
    }

    fn name(self) -> &'static str {
        match self {
            StatementKind::Read => "Read query",
            StatementKind::Write => "Write query",
            StatementKind::Administration => "Administration command",
        }
    }
}

/// Neo4j's refusal of a statement on the `system` database, which runs administration
/// commands, `SHOW`s and procedures only.
fn system_database_refusal(stmt: &crate::syntax::ast::Statement, src: &str) -> Option<String> {
    use crate::syntax::ast::Clause;
    use crate::syntax::ShowKind;
    let clauses: Vec<&Clause> = stmt.query.parts().flat_map(|s| s.clauses.iter()).collect();
    let mut unsupported: Vec<&str> = clauses
        .iter()
        .filter_map(|c| match c {
            Clause::Match(_) => Some("MATCH"),
            Clause::Create(_) => Some("CREATE"),
            Clause::Merge(_) => Some("MERGE"),
            Clause::Set(_) => Some("SET"),
            Clause::Remove(_) => Some("REMOVE"),
            Clause::Delete(_) => Some("DELETE"),
            Clause::Unwind(_) => Some("UNWIND"),
            Clause::With(_) => Some("WITH"),
            Clause::LoadCsv(_) => Some("LOAD CSV"),
            Clause::Foreach(_) => Some("FOREACH"),
            Clause::CallSubquery(_) => Some("CALL"),
            _ => None,
        })
        .collect();
    if !unsupported.is_empty() {
        unsupported.sort_unstable();
        unsupported.dedup();
        return Some(format!(
            "The following unsupported clauses were used: {}. ",
            unsupported.join(", ")
        ));
    }
    for c in &clauses {
        if let Clause::Show(s) = c {
            let what = match s.kind {
                ShowKind::Indexes(_) => "SHOW INDEXES",
                ShowKind::Constraints(_) => "SHOW CONSTRAINTS",
                _ => continue,
            };
            return Some(format!(
                "The following commands are not allowed on a system database: {what}."
            ));
        }
    }
    let system = stmt.query.unions.is_empty()
        && clauses.iter().any(|c| {
            matches!(
                c,
                Clause::Admin(_) | Clause::Show(_) | Clause::CallProcedure(_)
            )
        });
    if system {
        return None;
    }
    let text = src.get(stmt.query.span.start..).unwrap_or(src).trim_end();
    Some(format!(
        "Not a recognised system command or procedure. This Cypher command can only be executed in a user database: {}",
        text.trim_end_matches(';').trim_end()
    ))
}

/// The driver's `tx_metadata` in a BEGIN or RUN's extra map.
fn tx_metadata(extra: Option<&Ps>) -> Result<BTreeMap<Arc<str>, Value>, Failure> {
    match extra.and_then(|e| e.get("tx_metadata")) {
        Some(Ps::Map(m)) => m
            .iter()
            .map(|(k, v)| {
                let v = from_ps(v).map_err(|e| {
                    Failure::new(
                        "Neo.ClientError.Request.Invalid",
                        format!("tx_metadata {k}: {e}"),
                    )
                })?;
                Ok((Arc::from(k.as_str()), v))
            })
            .collect(),
        _ => Ok(BTreeMap::new()),
    }
}

/// The driver's `tx_timeout` (milliseconds) in a BEGIN or RUN's extra map.
fn tx_timeout(extra: Option<&Ps>) -> Option<Duration> {
    match extra.and_then(|e| e.get("tx_timeout")).and_then(Ps::as_int) {
        Some(ms) if ms > 0 => Some(Duration::from_millis(ms as u64)),
        _ => None,
    }
}

fn tx_timed_out() -> Failure {
    Failure::new(
        "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
        "The transaction has been terminated. Retry your operation in a new transaction, \
         and you should see a successful result. The transaction has not completed within \
         the timeout specified at its start by the client. You may want to retry with a \
         longer timeout. ",
    )
}

struct Conn<'a> {
    shared: &'a Shared,
    /// The client's address (for the failed-login count).
    peer: std::net::IpAddr,
    /// The client's address and port, as `SHOW TRANSACTIONS` gives it.
    peer_addr: String,
    dialect: Dialect,
    version: (u8, u8),
    id: u64,
    authenticated: bool,
    /// A database user (see [`Config::database_users`]): its database, the only one it may use.
    user: Option<String>,
    /// The user the connection logged in as (one of the DBMS's users), when authentication
    /// is on.
    principal: Option<String>,
    /// Whether that user's password must be changed before anything else.
    credentials_expired: bool,
    /// What the last query saw of the databases, reused while the database and the user's
    /// home are the same (not rebuilt for every RUN).
    context: Option<Arc<crate::engine::DatabaseContext>>,
    failed: bool,
    tx: Option<Tx<'a>>,
    /// Watches the socket while a query runs (for a close or RESET).
    watcher: Watcher,
    results: Vec<Pending>,
    next_qid: i64,
}

fn handle(mut stream: TcpStream, shared: &Shared, over_capacity: bool) -> io::Result<()> {
    let timed = Timed {
        stream: stream.try_clone()?,
        deadline: std::cell::Cell::new(Some(Instant::now() + shared.config.handshake_timeout)),
    };
    let _ = stream.set_write_timeout(Some(shared.config.message_timeout));
    let mut reader = io::BufReader::new(timed);
    let mut hello = [0u8; 20];
    reader.read_exact(&mut hello)?;
    if hello[..4] != MAGIC {
        return Ok(());
    }
    let mut proposals = [0u8; 16];
    proposals.copy_from_slice(&hello[4..]);
    let Some(version) = negotiate(&proposals) else {
        stream.write_all(&[0, 0, 0, 0])?;
        return Ok(());
    };
    stream.write_all(&[0, 0, version.1, version.0])?;
    let mut conn = Conn {
        shared,
        peer: stream
            .peer_addr()
            .map(|a| a.ip())
            .unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)),
        peer_addr: stream
            .peer_addr()
            .map(|a| a.to_string())
            .unwrap_or_default(),
        dialect: Dialect {
            element_ids: version.0 >= 5,
            utc_datetimes: version.0 >= 5,
        },
        version,
        id: shared.connections.fetch_add(1, Ordering::SeqCst) + 1,
        authenticated: false,
        user: None,
        principal: None,
        credentials_expired: false,
        context: None,
        failed: false,
        tx: None,
        watcher: Watcher::new(stream.try_clone().ok()),
        results: Vec::new(),
        next_qid: 0,
    };
    let mut greeted = false;
    // Replies collect here and are written when no further request is already buffered, so a
    // pipelined RUN + PULL costs one write.
    let mut out = Vec::new();
    loop {
        if !out.is_empty() && reader.buffer().is_empty() {
            stream.write_all(&out)?;
            out.clear();
        }
        // Wait for the next message (HELLO within the handshake deadline), then give it
        // the message deadline to arrive whole.
        if greeted && reader.buffer().is_empty() {
            reader
                .get_ref()
                .until(shared.config.idle_timeout.map(|t| Instant::now() + t));
            if reader.fill_buf()?.is_empty() {
                return Ok(());
            }
        }
        if greeted {
            reader
                .get_ref()
                .until(Some(Instant::now() + shared.config.message_timeout));
        }
        let Some(bytes) = read_message(&mut reader, shared.config.max_message_bytes)? else {
            return Ok(());
        };
        let msg = match decode_all(&bytes) {
            Ok(Ps::Struct(tag, fields)) => (tag, fields),
            Ok(_) | Err(_) => {
                write_message(
                    &mut out,
                    &failure(
                        Failure::request("the message is not a PackStream structure"),
                        conn.version,
                    ),
                );
                stream.write_all(&out)?;
                return Ok(());
            }
        };
        let (tag, fields) = msg;
        // GOODBYE closes; HELLO must come first.
        if tag == 0x02 {
            return Ok(());
        }
        if !greeted && tag != 0x01 {
            write_message(
                &mut out,
                &failure(Failure::request("expected HELLO first"), conn.version),
            );
            stream.write_all(&out)?;
            return Ok(());
        }
        let close = match tag {
            0x01 if over_capacity => {
                write_message(
                    &mut out,
                    &failure(
                        Failure::new(
                            "Neo.TransientError.Request.NoThreadsAvailable",
                            format!(
                                "the server is serving its maximum of {} connections; try again later",
                                shared.config.max_connections
                            ),
                        ),
                        conn.version,
                    ),
                );
                true
            }
            0x01 => {
                greeted = true;
                conn.hello(&fields, &mut out)
            }
            0x0F => {
                conn.reset();
                write_message(&mut out, &success(Ps::map::<&str>([])));
                false
            }
            _ if conn.failed => {
                write_message(&mut out, &Ps::Struct(IGNORED, vec![]));
                false
            }
            _ => match conn.dispatch(tag, &fields, &mut out) {
                Ok(close) => close,
                Err(f) => {
                    conn.failed = true;
                    // A failed login closes the connection; a refused database (Forbidden)
                    // or a password that must be changed first does not, as in Neo4j.
                    let close = f.code.starts_with("Neo.ClientError.Security")
                        && f.code != "Neo.ClientError.Security.Forbidden"
                        && f.code != "Neo.ClientError.Security.CredentialsExpired";
                    write_message(&mut out, &failure(f, conn.version));
                    close
                }
            },
        };
        if close {
            stream.write_all(&out)?;
            return Ok(());
        }
    }
}

/// A FAILURE message: `code` and `message` up to Bolt 5.6; from 5.7 `neo4j_code`,
/// `message` and the GQL status (`gql_status`, `description`, the diagnostic record where
/// Neo4j sends one, and the cause), as Neo4j 5.26 sends them.
fn failure(f: Failure, version: (u8, u8)) -> Ps {
    if version < (5, 7) {
        return Ps::Struct(
            FAILURE,
            vec![Ps::map([
                ("code", Ps::String(f.code)),
                ("message", Ps::String(f.message)),
            ])],
        );
    }
    let gql = f.gql.map_or_else(crate::engine::GqlStatus::generic, |g| *g);
    let mut fields = vec![
        ("neo4j_code".to_string(), Ps::String(f.code)),
        ("message".to_string(), Ps::String(f.message)),
    ];
    fields.extend(gql_fields(&gql));
    Ps::Struct(FAILURE, vec![Ps::Map(fields)])
}

/// A GQL status's fields in a FAILURE (or its `cause`).
fn gql_fields(gql: &crate::engine::GqlStatus) -> Vec<(String, Ps)> {
    let mut fields = Vec::new();
    if let Some(m) = &gql.message {
        fields.push(("message".to_string(), Ps::String(m.clone())));
    }
    fields.push(("gql_status".to_string(), Ps::from(gql.code)));
    fields.push((
        "description".to_string(),
        Ps::String(gql.description.clone()),
    ));
    if let Some(c) = gql.classification {
        fields.push((
            "diagnostic_record".to_string(),
            Ps::map([("_classification", Ps::from(c))]),
        ));
    }
    if let Some(cause) = &gql.cause {
        fields.push(("cause".to_string(), Ps::Map(gql_fields(cause))));
    }
    fields
}

fn stat_keys(s: &crate::engine::Stats) -> Vec<(String, Ps)> {
    let mut v = Vec::new();
    for (k, n) in [
        ("nodes-created", s.nodes_created),
        ("nodes-deleted", s.nodes_deleted),
        ("relationships-created", s.relationships_created),
        ("relationships-deleted", s.relationships_deleted),
        ("properties-set", s.properties_set),
        ("labels-added", s.labels_added),
        ("labels-removed", s.labels_removed),
        ("indexes-added", s.indexes_added),
        ("indexes-removed", s.indexes_removed),
        ("constraints-added", s.constraints_added),
        ("constraints-removed", s.constraints_removed),
    ] {
        if n > 0 {
            v.push((k.to_string(), Ps::Int(n as i64)));
        }
    }
    // Neo4j sends `contains-updates` first, then the counts in its map's (hash) order.
    if !v.is_empty() {
        let counts: Vec<(String, Ps)> =
            super::convert::java_hash_order(v.iter().map(|(k, x)| (k, x)))
                .into_iter()
                .map(|(k, x)| (k.clone(), x.clone()))
                .collect();
        v = vec![("contains-updates".into(), Ps::Bool(true))];
        v.extend(counts);
    }
    if s.system_updates > 0 {
        v.push(("contains-system-updates".into(), Ps::Bool(true)));
        v.push(("system-updates".into(), Ps::Int(s.system_updates as i64)));
    }
    v
}

impl<'a> Conn<'a> {
    fn hello(&mut self, fields: &[Ps], out: &mut Vec<u8>) -> bool {
        let extra = fields.first().cloned().unwrap_or(Ps::Null);
        // Up to 5.0 the credentials come with HELLO; from 5.1 with LOGON.
        if self.version < (5, 1) {
            if let Err(f) = self.check_auth(&extra) {
                write_message(out, &failure(f, self.version));
                return true;
            }
        }
        let mut meta = vec![
            // Drivers and tools read the product name from the agent string.
            (
                "server".to_string(),
                Ps::from(format!("Neo4j/{}", crate::catalogue::NEO4J_VERSION)),
            ),
            (
                "connection_id".to_string(),
                Ps::String(format!("bolt-{}", self.id)),
            ),
            ("hints".to_string(), Ps::map::<&str>([])),
        ];
        if self.version == (4, 4) {
            let wants_utc = matches!(extra.get("patch_bolt"), Some(Ps::List(p)) if p.iter().any(|x| x.as_str() == Some("utc")));
            if wants_utc {
                self.dialect.utc_datetimes = true;
                meta.push(("patch_bolt".into(), Ps::List(vec![Ps::from("utc")])));
            }
        }
        write_message(out, &success(Ps::Map(meta)));
        false
    }

    fn check_auth(&mut self, auth: &Ps) -> Result<(), Failure> {
        let cfg = &self.shared.config;
        self.user = None;
        self.principal = None;
        self.credentials_expired = false;
        self.context = None;
        if cfg.auth.is_some() || cfg.database_users {
            let mut failures = self
                .shared
                .auth_failures
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(&(n, last)) = failures.get(&self.peer) {
                if n >= cfg.auth_max_failed_attempts && last.elapsed() < cfg.auth_lock {
                    return Err(Failure::new(
                        "Neo.ClientError.Security.AuthenticationRateLimit",
                        "The client has provided incorrect authentication details too many times in a row.",
                    ));
                }
            }
            let basic = auth.get("scheme").and_then(Ps::as_str) == Some("basic");
            let principal = auth.get("principal").and_then(Ps::as_str);
            let credentials = auth.get("credentials").and_then(Ps::as_str);
            // The DBMS's users, the `auth` user among them (Neo4j checks the system
            // database's users).
            let known = match (principal, credentials) {
                (Some(u), Some(p)) if cfg.auth.is_some() => self.shared.users.authenticate(u, p),
                _ => None,
            };
            let admin = known.is_some();
            let db_user = match (principal, credentials) {
                (Some(u), Some(p)) if cfg.database_users && !admin && u == p => {
                    let key = u.to_ascii_lowercase();
                    self.shared.databases.contains_key(&key).then_some(key)
                }
                _ => None,
            };
            let ok = basic && (admin || db_user.is_some());
            if !ok {
                // Bounded bookkeeping: forget stale entries when the table grows.
                if failures.len() >= 4096 {
                    failures.retain(|_, (_, t)| t.elapsed() < cfg.auth_lock);
                }
                if failures.len() < 65536 {
                    let e = failures.entry(self.peer).or_insert((0, Instant::now()));
                    e.0 = e.0.saturating_add(1);
                    e.1 = Instant::now();
                }
                return Err(Failure::new(
                    "Neo.ClientError.Security.Unauthorized",
                    "The client is unauthorized due to authentication failure.",
                ));
            }
            failures.remove(&self.peer);
            self.user = db_user;
            if admin {
                self.principal = principal.map(str::to_string);
                self.credentials_expired = known == Some(true);
            }
        }
        self.authenticated = true;
        Ok(())
    }

    /// Enters a transaction on `db` in the server's list.
    fn register(&self, db: &str, metadata: &BTreeMap<Arc<str>, Value>) -> Registered {
        let registry = self.shared.transactions.clone();
        let origin = crate::engine::transactions::Origin {
            connection_id: format!("bolt-{}", self.id),
            client_address: self.peer_addr.clone(),
            request_uri: self.shared.addr.to_string(),
            username: self.principal.clone().unwrap_or_default(),
        };
        let tx = registry.begin(db, origin, metadata.clone());
        Registered { registry, tx }
    }

    fn reset(&mut self) {
        self.failed = false;
        self.tx = None;
        self.results.clear();
    }

    fn bookmark(&self) -> Ps {
        Ps::String(format!(
            "grape:{}",
            self.shared.bookmarks.fetch_add(1, Ordering::SeqCst) + 1
        ))
    }

    /// The home database of the session's user.
    fn home(&self) -> &str {
        self.user.as_deref().unwrap_or(&self.shared.config.database)
    }

    /// The database a BEGIN, RUN or ROUTE names (`db`), else the user's home database; one
    /// that does not exist, or that a database user may not use, is refused as Neo4j refuses
    /// it.
    fn database(&self, db: Option<&Ps>) -> Result<String, Failure> {
        let name = match db {
            None | Some(Ps::Null) => return Ok(self.home().to_string()),
            Some(Ps::String(d)) => d.to_ascii_lowercase(),
            Some(_) => return Err(Failure::request("`db` must be a string")),
        };
        if name != "system" && self.shared.graph(&name).is_none() {
            return Err(Failure::new(
                "Neo.ClientError.Database.DatabaseNotFound",
                format!("Database does not exist. Database name: '{name}'."),
            ));
        }
        if let Some(own) = &self.user {
            if *own != name && name != "system" {
                return Err(Failure::new(
                    "Neo.ClientError.Security.Forbidden",
                    format!(
                        "Database access is not allowed for user '{own}' with roles [PUBLIC, {own}]."
                    ),
                ));
            }
        }
        Ok(name)
    }

    /// The graph of a database [`Conn::database`] resolved (`system` is served by the default
    /// database's graph: grape answers its commands, `SHOW DATABASES`, from any).
    fn graph_of(&self, db: &str) -> &'a SharedGraph {
        let shared: &'a Shared = self.shared;
        shared
            .graph(db)
            .unwrap_or_else(|| &shared.databases[&shared.config.database])
    }

    /// What a query on `db` sees of the server's databases.
    fn context(&mut self, db: &str) -> Arc<crate::engine::DatabaseContext> {
        // A composite's constituents are read as they are now, statement by statement.
        let composite = self
            .shared
            .config
            .composites
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(db));
        if let Some(c) = &self.context {
            if c.current == db
                && c.home == self.home()
                && c.routed_from.is_none()
                && composite.is_none()
            {
                return c.clone();
            }
        }
        let graphs = composite
            .map(|c| {
                c.constituents
                    .iter()
                    .filter_map(|k| {
                        let key = k.database.to_ascii_lowercase();
                        let g = self.shared.databases.get(&key)?.snapshot();
                        Some((key, g))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let c = Arc::new(crate::engine::DatabaseContext {
            routed_from: None,
            graphs: crate::engine::ConstituentGraphs(graphs),
            names: self.shared.databases.keys().cloned().collect(),
            current: db.to_string(),
            home: self.home().to_string(),
            default: self.shared.config.database.clone(),
            composites: self.shared.config.composites.clone(),
            users: Some(self.shared.users.clone()),
            user: self.principal.clone(),
            tx_metadata: BTreeMap::new(),
            enterprise: self.shared.config.enterprise,
            settings: self.shared.settings.clone(),
            transactions: Some(self.shared.transactions.clone()),
        });
        self.context = Some(c.clone());
        c
    }

    /// Handles one message; `Ok(true)` closes the connection.
    fn dispatch(&mut self, tag: u8, f: &[Ps], out: &mut Vec<u8>) -> Result<bool, Failure> {
        if !self.authenticated && !matches!(tag, 0x6A) {
            return Err(Failure::new(
                "Neo.ClientError.Security.Unauthorized",
                "LOGON first",
            ));
        }
        match tag {
            // LOGON
            0x6A => {
                if self.version < (5, 1) {
                    return Err(Failure::request("LOGON needs Bolt 5.1 or later"));
                }
                self.check_auth(f.first().unwrap_or(&Ps::Null))?;
                write_message(out, &success(Ps::map::<&str>([])));
            }
            // LOGOFF
            0x6B => {
                self.authenticated = false;
                write_message(out, &success(Ps::map::<&str>([])));
            }
            // TELEMETRY
            0x54 => write_message(out, &success(Ps::map::<&str>([]))),
            // ROUTE
            0x66 => {
                // Bolt 4.3 sends the database as the third field; 4.4 and later in a map.
                let named = match f.get(2) {
                    Some(m @ Ps::Map(_)) => m.get("db"),
                    other => other,
                };
                let db = self.database(named)?;
                // The routing table answers for the name the driver asked for, as it spelled
                // it (drivers file their tables under it); names ignore case.
                let db = match named {
                    Some(Ps::String(asked)) => asked.clone(),
                    _ => db,
                };
                let addr = Ps::List(vec![Ps::String(self.shared.addr.to_string())]);
                let servers = ["WRITE", "READ", "ROUTE"]
                    .iter()
                    .map(|role| Ps::map([("addresses", addr.clone()), ("role", Ps::from(*role))]))
                    .collect();
                write_message(
                    out,
                    &success(Ps::map([(
                        "rt",
                        Ps::map([
                            ("ttl", Ps::Int(300)),
                            ("db", Ps::String(db)),
                            ("servers", Ps::List(servers)),
                        ]),
                    )])),
                );
            }
            // BEGIN
            0x11 => {
                if self.tx.is_some() {
                    return Err(Failure::new(
                        "Neo.ClientError.Transaction.TransactionStartFailed",
                        "a transaction is already open on this connection",
                    ));
                }
                let named = f.first().and_then(|e| e.get("db")).is_some();
                let db = self.database(f.first().and_then(|e| e.get("db")))?;
                let read_only =
                    f.first().and_then(|e| e.get("mode")).and_then(Ps::as_str) == Some("r");
                // Bolt 5.8: the home database the server resolved.
                let resolved = (self.version >= (5, 8) && !named).then(|| db.clone());
                let metadata = tx_metadata(f.first())?;
                let record = self.register(&db, &metadata);
                self.tx = Some(Tx {
                    db,
                    lease: None,
                    read_only,
                    deadline: tx_timeout(f.first()).map(|t| Instant::now() + t),
                    kind: None,
                    users_undo: None,
                    metadata,
                    record,
                });
                self.results.clear();
                let meta = match resolved {
                    Some(db) => Ps::map([("db", Ps::String(db))]),
                    None => Ps::map::<&str>([]),
                };
                write_message(out, &success(meta));
            }
            // COMMIT
            0x12 => {
                let tx = self
                    .tx
                    .take()
                    .ok_or_else(|| Failure::request("COMMIT without an open transaction"))?;
                if tx.record.tx.terminated() {
                    // Dropped: its writes are rolled back.
                    return Err(terminated());
                }
                if let Some(lease) = tx.lease {
                    lease.commit();
                }
                if let Some(undo) = tx.users_undo {
                    undo.commit();
                }
                self.results.clear();
                write_message(out, &success(Ps::map([("bookmark", self.bookmark())])));
            }
            // ROLLBACK
            0x13 => {
                self.tx
                    .take()
                    .ok_or_else(|| Failure::request("ROLLBACK without an open transaction"))?;
                self.results.clear();
                write_message(out, &success(Ps::map::<&str>([])));
            }
            // RUN
            0x10 => self.run(f, out)?,
            // PULL / DISCARD
            0x3F | 0x2F => self.stream(tag == 0x3F, f.first(), out)?,
            other => return Err(Failure::request(format!("unknown message 0x{other:02X}"))),
        }
        Ok(false)
    }

    fn run(&mut self, f: &[Ps], out: &mut Vec<u8>) -> Result<(), Failure> {
        let started = Instant::now();
        let query = f
            .first()
            .and_then(Ps::as_str)
            .ok_or_else(|| Failure::request("RUN needs a query string"))?
            .to_string();
        if query.len() > self.shared.config.max_query_bytes {
            return Err(Failure::request(format!(
                "the query text has {} bytes, more than this server accepts ({})",
                query.len(),
                self.shared.config.max_query_bytes
            )));
        }
        let mut params = Params::new();
        match f.get(1) {
            Some(Ps::Map(m)) => {
                for (k, v) in m {
                    let v = from_ps(v).map_err(|e| {
                        Failure::new(
                            "Neo.ClientError.Request.Invalid",
                            format!("parameter ${k}: {e}"),
                        )
                    })?;
                    params.insert(k.clone(), v);
                }
            }
            None | Some(Ps::Null) => {}
            Some(_) => return Err(Failure::request("RUN parameters must be a map")),
        }
        // Shared with the server's list of transactions (`SHOW TRANSACTIONS`' `parameters`).
        let params = Arc::new(params);
        let extra = f.get(2);
        let db = match &self.tx {
            Some(tx) => tx.db.clone(),
            None => {
                let db = self.database(extra.and_then(|e| e.get("db")))?;
                // An auto-commit RUN replaces any earlier result.
                self.results.clear();
                db
            }
        };
        let read_mode = match &self.tx {
            Some(tx) => tx.read_only,
            None => extra.and_then(|e| e.get("mode")).and_then(Ps::as_str) == Some("r"),
        } || self.shared.config.read_only;
        let stmt = crate::syntax::parse(&query).map_err(|e| {
            Failure::new(
                "Neo.ClientError.Statement.SyntaxError",
                e.neo4j_message(Some(&query)),
            )
        })?;
        // The statement's `USE` clauses may send it to another database of the server.
        let context = self.context(&db);
        let db = match crate::engine::use_target(&stmt, &params, &context) {
            Ok(Some(target)) if target != db => {
                if self.tx.is_some() {
                    return Err(Failure::new(
                        "Neo.ClientError.Statement.FeatureNotSupported",
                        format!("a grape transaction runs on one database: this one is on '{db}', the statement uses '{target}'"),
                    ));
                }
                let target = self.database(Some(&Ps::String(target)))?;
                if context.current_composite().is_some() {
                    // A constituent, reached from its composite.
                    self.context = Some(Arc::new(crate::engine::DatabaseContext {
                        current: target.clone(),
                        routed_from: Some(db),
                        graphs: Default::default(),
                        ..(*context).clone()
                    }));
                } else {
                    self.context(&target);
                }
                target
            }
            Ok(_) => db,
            Err(e) => return Err(Failure::exec(e, &query)),
        };
        let graph = self.graph_of(&db);
        let access = crate::analysis::access(&stmt);
        let updating = crate::engine::is_updating(&stmt);
        let explain = stmt.prefix == Some(crate::syntax::ast::QueryPrefix::Explain);
        let admin = stmt.query.first.clauses.iter().find_map(|c| match c {
            crate::syntax::ast::Clause::Admin(a) => Some(a),
            _ => None,
        });
        // A transaction runs administration commands or queries, not both.
        if let Some(tx) = &mut self.tx {
            let kind = StatementKind::of(&stmt);
            match tx.kind {
                Some(before)
                    if before != kind
                        && (before == StatementKind::Administration
                            || kind == StatementKind::Administration) =>
                {
                    return Err(Failure::new(
                        "Neo.ClientError.Transaction.ForbiddenDueToTransactionType",
                        format!(
                            "Tried to execute {} after executing {}",
                            kind.name(),
                            before.name()
                        ),
                    ));
                }
                Some(StatementKind::Read) if kind == StatementKind::Write => tx.kind = Some(kind),
                Some(_) => {}
                None => tx.kind = Some(kind),
            }
            if admin.is_some() && tx.users_undo.is_none() {
                tx.users_undo = Some(UsersUndo {
                    users: self.shared.users.clone(),
                    before: Some(self.shared.users.snapshot()),
                });
            }
        }
        if db == "system" {
            if let Some(message) = system_database_refusal(&stmt, &query) {
                return Err(Failure::new(
                    "Neo.ClientError.Statement.SemanticError",
                    message,
                ));
            }
        }

        // A user whose password must be changed may do nothing but change it, on `system`.
        if self.credentials_expired {
            let own_password = matches!(
                admin,
                Some(crate::syntax::ast::AdminCommand::AlterCurrentUser { .. })
            );
            if db != "system" || !own_password {
                return Err(Failure::new(
                    "Neo.ClientError.Security.CredentialsExpired",
                    if db == "system" {
                        "Permission denied.".to_string()
                    } else {
                        format!("ACCESS on database '{db}' is not allowed.")
                    },
                ));
            }
        }
        if admin.is_some() && read_mode && !explain {
            return Err(Failure::new(
                "Neo.ClientError.Statement.AccessMode",
                "Writing in read access mode not allowed. Attempted write to system",
            ));
        }
        if updating && read_mode && !explain {
            return Err(Failure::new(
                "Neo.ClientError.Statement.AccessMode",
                if self.shared.config.read_only {
                    "Writing is not allowed: the server is read-only.".to_string()
                } else {
                    format!("Writing in read access mode not allowed. Attempted write to {db}")
                },
            ));
        }
        // The driver's transaction timeout, when shorter than the server's time limit.
        let deadline = match &self.tx {
            Some(tx) => tx.deadline,
            None => tx_timeout(extra).map(|t| started + t),
        };
        let mut engine_opts = std::borrow::Cow::Borrowed(&self.shared.config.engine);
        let client_timeout = match deadline {
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(tx_timed_out());
                }
                let server = engine_opts.limits.timeout.unwrap_or(Duration::MAX);
                if left < server {
                    engine_opts.to_mut().limits.timeout = Some(left);
                    true
                } else {
                    false
                }
            }
            None => false,
        };
        // The watcher sets this when the client closes the connection or sends RESET.
        let cancel = Arc::new(AtomicBool::new(false));
        engine_opts.to_mut().cancel = Some(cancel.clone());
        engine_opts.to_mut().databases = self.context.clone().filter(|c| c.current == db);
        if engine_opts.databases.is_none() {
            engine_opts.to_mut().databases = Some(self.context(&db));
        }
        let metadata = match &self.tx {
            Some(tx) => tx.metadata.clone(),
            None => tx_metadata(extra)?,
        };
        // The statement's transaction, in the server's list while it runs (an explicit one
        // stays until it ends); terminating it stops the statement.
        let auto_commit;
        let record = match &self.tx {
            Some(tx) => tx.record.tx.clone(),
            None => {
                auto_commit = self.register(&db, &metadata);
                auto_commit.tx.clone()
            }
        };
        if record.terminated() {
            return Err(terminated());
        }
        self.shared
            .transactions
            .start_query(&record, &query, params.clone(), cancel.clone());
        struct Finished<'r>(&'r crate::engine::transactions::Transaction);
        impl Drop for Finished<'_> {
            fn drop(&mut self) {
                self.0.finish_query();
            }
        }
        let _finished = Finished(&record);
        if !metadata.is_empty() {
            let with_metadata = engine_opts.databases.as_ref().map(|c| {
                Arc::new(crate::engine::DatabaseContext {
                    tx_metadata: metadata,
                    ..(**c).clone()
                })
            });
            engine_opts.to_mut().databases = with_metadata;
        }
        let engine_opts: &Options = &engine_opts;
        let exec_err = |e: crate::engine::ExecError| {
            if client_timeout && e.detail == Some(Detail::Timeout) {
                return tx_timed_out();
            }
            if record.terminated() {
                return terminated();
            }
            Failure::exec(e, &query)
        };
        // A write waits for the write lease no longer than the server allows, nor past the
        // driver's transaction timeout.
        let lock_wait = match deadline {
            Some(d) => self
                .shared
                .config
                .lock_timeout
                .min(d.saturating_duration_since(Instant::now())),
            None => self.shared.config.lock_timeout,
        };
        let table = self.watcher.during(&cancel, || -> Result<Table, Failure> {
            Ok(if explain {
                // The plan over what this session sees; nothing runs.
                let snapshot;
                let g: &Graph = match self.tx.as_ref().and_then(|t| t.lease.as_ref()) {
                    Some(lease) => lease.graph(),
                    None => {
                        snapshot = graph.snapshot();
                        &snapshot
                    }
                };
                crate::engine::execute_read(g, &stmt, &query, &params, engine_opts)
                    .map_err(exec_err)?
            } else if updating {
                match &mut self.tx {
                    Some(tx) => {
                        if tx.lease.is_none() {
                            tx.lease = Some(
                                graph
                                    .begin_write(self.id, Some(lock_wait), Some(&cancel))
                                    .map_err(|e| exec_err(e.into()))?,
                            );
                        }
                        let g = tx.lease.as_mut().expect("the write lease").graph_mut();
                        crate::engine::execute(g, &stmt, &query, &params, engine_opts)
                            .map_err(exec_err)?
                    }
                    None => graph
                        .write(self.id, Some(lock_wait), Some(&cancel), |g| {
                            crate::engine::execute(g, &stmt, &query, &params, engine_opts)
                        })
                        .map_err(exec_err)?,
                }
            } else {
                let snapshot;
                let g: &Graph = match self.tx.as_ref().and_then(|t| t.lease.as_ref()) {
                    Some(lease) => lease.graph(),
                    None => {
                        snapshot = graph.snapshot();
                        &snapshot
                    }
                };
                crate::engine::execute_read(g, &stmt, &query, &params, engine_opts)
                    .map_err(exec_err)?
            })
        });
        let table = match table {
            // A statement that terminated its own transaction fails as its transaction ends.
            Ok(_) if record.terminated() => return Err(terminated()),
            Ok(t) => t,
            Err(f) if f.runtime && !explain => {
                // Neo4j runs a statement that returns rows as its results are pulled: RUN
                // succeeds with the statement's fields, and the error comes with PULL (or
                // DISCARD). One without fields runs at RUN, and fails there.
                let snapshot = graph.snapshot();
                let mut planned = stmt.clone();
                planned.prefix = Some(crate::syntax::ast::QueryPrefix::Explain);
                let fields =
                    crate::engine::execute_read(&snapshot, &planned, &query, &params, engine_opts)
                        .map(|t| t.columns)
                        .unwrap_or_default();
                if fields.is_empty() {
                    return Err(f);
                }
                let qid = self.next_qid;
                self.next_qid += 1;
                let t_first = started.elapsed().as_millis() as i64;
                let meta = self.run_success(&fields, t_first, qid, extra, &db);
                self.results.push(Pending {
                    qid,
                    rows: Default::default(),
                    summary: Vec::new(),
                    failure: Some(f),
                });
                write_message(out, &success(meta));
                return Ok(());
            }
            Err(f) => return Err(f),
        };
        let t_first = started.elapsed().as_millis() as i64;
        let rows = table
            .rows
            .iter()
            .map(|r| {
                Ps::Struct(
                    RECORD,
                    vec![Ps::List(
                        r.iter().map(|v| to_ps(v, &table, self.dialect)).collect(),
                    )],
                )
            })
            .collect();
        // Everything the system database runs is of the administration kind ("s").
        let query_type = if db == "system" { "s" } else { access.code() };
        let summary_db = db.clone();
        let mut summary = vec![
            ("type".to_string(), Ps::from(query_type)),
            ("t_last".to_string(), Ps::Int(0)),
            ("db".to_string(), Ps::String(db)),
        ];
        let stats = stat_keys(&table.stats);
        if !stats.is_empty() {
            summary.push(("stats".into(), Ps::Map(stats)));
        }
        if let Some(plan) = &table.plan {
            let key = if explain { "plan" } else { "profile" };
            summary.push((key.into(), plan_to_ps(plan, !explain)));
        }
        // What Neo4j notes about a statement (unknown labels, types and keys, unsatisfiable
        // type expressions, parameters not given), whether it runs or is explained: tools
        // validate queries so. From Bolt 5.6 as GQL statuses, the outcome's first.
        let found = if summary_db == "system" {
            Vec::new()
        } else {
            let snapshot = graph.snapshot();
            let mut found = crate::engine::notifications(&snapshot, &stmt, &query, &params);
            found.extend(table.runtime_notifications());
            found
        };
        if self.version >= (5, 6) {
            let outcome = if explain || table.columns.is_empty() {
                ("00001", "note: successful completion - omitted result")
            } else if table.rows.is_empty() {
                ("02000", "note: no data")
            } else {
                ("00000", "note: successful completion")
            };
            let outcome = Ps::map([
                ("gql_status", Ps::from(outcome.0)),
                ("status_description", Ps::from(outcome.1)),
            ]);
            let mut statuses = statuses_to_ps(&found);
            if explain {
                statuses.push(outcome);
            } else {
                statuses.insert(0, outcome);
            }
            summary.push(("statuses".into(), Ps::List(statuses)));
        } else if !found.is_empty() {
            summary.push(("notifications".into(), notifications_to_ps(&found)));
        }
        let qid = self.next_qid;
        self.next_qid += 1;
        let meta = self.run_success(&table.columns, t_first, qid, extra, &summary_db);
        self.results.push(Pending {
            qid,
            rows,
            summary,
            failure: None,
        });
        write_message(out, &success(meta));
        Ok(())
    }

    /// RUN's answer: the fields, the time to the first record, and the result's id in a
    /// transaction — or, from Bolt 5.8, the home database resolved when RUN named none.
    fn run_success(
        &self,
        fields: &[impl AsRef<str>],
        t_first: i64,
        qid: i64,
        extra: Option<&Ps>,
        db: &str,
    ) -> Ps {
        let mut meta = vec![
            (
                "fields".to_string(),
                Ps::List(fields.iter().map(|c| Ps::from(c.as_ref())).collect()),
            ),
            ("t_first".to_string(), Ps::Int(t_first)),
        ];
        if self.tx.is_some() {
            meta.push(("qid".into(), Ps::Int(qid)));
        } else if self.version >= (5, 8) && extra.and_then(|e| e.get("db")).is_none() {
            meta.push(("db".into(), Ps::String(db.to_string())));
        }
        Ps::Map(meta)
    }

    /// PULL (`pull`) or DISCARD: up to `n` records (all for -1) of the result `qid` (the last
    /// for -1), then the summary or `has_more`.
    fn stream(&mut self, pull: bool, extra: Option<&Ps>, out: &mut Vec<u8>) -> Result<(), Failure> {
        let n = extra
            .and_then(|e| e.get("n"))
            .and_then(Ps::as_int)
            .unwrap_or(-1);
        let qid = extra
            .and_then(|e| e.get("qid"))
            .and_then(Ps::as_int)
            .unwrap_or(-1);
        if n == 0 || n < -1 {
            return Err(Failure::request(format!("invalid n: {n}")));
        }
        let pos = if qid == -1 {
            self.results.len().checked_sub(1)
        } else {
            self.results.iter().position(|p| p.qid == qid)
        }
        .ok_or_else(|| Failure::request("no result to stream (RUN first)"))?;
        if self.results[pos].failure.is_some() {
            let p = self.results.remove(pos);
            return Err(p.failure.expect("a failure"));
        }
        let p = &mut self.results[pos];
        let take = if n == -1 {
            p.rows.len()
        } else {
            (n as usize).min(p.rows.len())
        };
        for _ in 0..take {
            let r = p.rows.pop_front().expect("counted rows");
            if pull {
                write_message(out, &r);
            }
        }
        if !p.rows.is_empty() {
            write_message(out, &success(Ps::map([("has_more", Ps::Bool(true))])));
            return Ok(());
        }
        let p = self.results.remove(pos);
        let mut meta = p.summary;
        if self.tx.is_none() {
            meta.push(("bookmark".into(), self.bookmark()));
        }
        write_message(out, &success(Ps::Map(meta)));
        Ok(())
    }
}

/// A plan in the shape Neo4j's Bolt server sends it (`plan` after `EXPLAIN`, `profile` after
/// `PROFILE`): `operatorType` with the runtime after `@`, `args` (`Details`, `EstimatedRows`,
/// and for the root the planner and runtime), `identifiers`, `children`, and when profiled
/// `rows` and `dbHits`.
fn plan_to_ps(plan: &crate::plan::Plan, profiled: bool) -> Ps {
    fn node(p: &crate::plan::Plan, root: bool, profiled: bool) -> Ps {
        let mut args = vec![("EstimatedRows", Ps::Float(p.estimated_rows))];
        if !p.details.is_empty() {
            args.push(("Details", Ps::from(p.details.as_str())));
        }
        if root {
            args.push(("planner", Ps::from("COST")));
            args.push(("planner-impl", Ps::from("IDP")));
            args.push(("runtime", Ps::from("GRAPE")));
            args.push(("runtime-impl", Ps::from("GRAPE")));
            args.push(("Version", Ps::from("CYPHER 5")));
        }
        let mut entries = vec![
            ("operatorType", Ps::from(format!("{}@grape", p.operator))),
            ("args", Ps::map(args)),
            (
                "identifiers",
                Ps::List(p.identifiers.iter().map(|i| Ps::from(i.as_str())).collect()),
            ),
            (
                "children",
                Ps::List(
                    p.children
                        .iter()
                        .map(|c| node(c, false, profiled))
                        .collect(),
                ),
            ),
        ];
        if profiled {
            entries.push(("rows", Ps::Int(p.rows.unwrap_or(0) as i64)));
            entries.push(("dbHits", Ps::Int(p.db_hits.unwrap_or(0) as i64)));
            entries.push(("pageCacheHits", Ps::Int(0)));
            entries.push(("pageCacheMisses", Ps::Int(0)));
        }
        Ps::map(entries)
    }
    node(plan, true, profiled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_picks_the_highest_common_version() {
        let p = |v: [[u8; 4]; 4]| {
            let mut a = [0u8; 16];
            for (i, x) in v.iter().enumerate() {
                a[i * 4..i * 4 + 4].copy_from_slice(x);
            }
            a
        };
        // 5.8 down to 5.0, then 4.4.
        assert_eq!(
            negotiate(&p([[0, 8, 8, 5], [0, 0, 4, 4], [0; 4], [0; 4]])),
            Some((5, 8))
        );
        // A newer minor than grape speaks: its highest, 5.8.
        assert_eq!(
            negotiate(&p([[0, 2, 9, 5], [0; 4], [0; 4], [0; 4]])),
            Some((5, 8))
        );
        assert_eq!(
            negotiate(&p([[0, 0, 2, 5], [0; 4], [0; 4], [0; 4]])),
            Some((5, 2))
        );
        // Manifest handshakes and unknown versions are skipped.
        assert_eq!(
            negotiate(&p([[0, 0, 1, 0xFF], [0, 2, 4, 4], [0; 4], [0; 4]])),
            Some((4, 4))
        );
        // neo4rs 0.8 proposes 4.1 and 4.0.
        assert_eq!(
            negotiate(&p([[0, 0, 1, 4], [0, 0, 0, 4], [0; 4], [0; 4]])),
            Some((4, 1))
        );
        assert_eq!(negotiate(&p([[0, 0, 0, 3], [0; 4], [0; 4], [0; 4]])), None);
        assert_eq!(
            negotiate(&p([[0, 0, 8, 5], [0; 4], [0; 4], [0; 4]])),
            Some((5, 8))
        );
        assert_eq!(negotiate(&p([[0, 0, 9, 5], [0; 4], [0; 4], [0; 4]])), None);
    }

    #[test]
    fn chunks_round_trip_and_are_bounded() {
        let big = Ps::String("x".repeat(200_000));
        let mut out = Vec::new();
        write_message(&mut out, &big);
        let back = read_message(&mut &out[..], 1 << 20).unwrap().unwrap();
        assert_eq!(decode_all(&back).unwrap(), big);
        assert!(read_message(&mut &out[..], 1000).is_err());
        assert_eq!(read_message(&mut &[][..], 10).unwrap(), None);
    }
}
