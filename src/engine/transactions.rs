//! The transactions a server has open, as `SHOW TRANSACTIONS` lists them and `TERMINATE
//! TRANSACTIONS` ends them (Neo4j 5.26's commands, asked of the oracle).
//!
//! The Bolt server registers each explicit transaction from `BEGIN` to its end, and each
//! auto-commit statement while it runs; a statement running in one is its current query. A
//! transaction is named `<database>-transaction-<n>`, its queries `query-<n>`, both numbered
//! by the server. Terminating one marks it (its status becomes Neo4j's
//! `Terminated with reason: …`) and stops the statement it runs, if any: that statement and every
//! later one in the transaction fail with `Neo.ClientError.Transaction.Terminated`.

use crate::temporal::Temporal;
use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime};

/// Neo4j's message for a statement of a terminated transaction.
pub const TERMINATED_MESSAGE: &str = "The transaction has been terminated. Retry your operation in a new transaction, and you should see a successful result. Explicitly terminated by the user. ";

/// Neo4j's status text for a terminated transaction.
const TERMINATED_STATUS: &str =
    "Terminated with reason: Status.Code[Neo.ClientError.Transaction.Terminated]";

/// The open transactions of a server.
#[derive(Debug, Default)]
pub struct Transactions {
    inner: Mutex<Registry>,
}

#[derive(Debug, Default)]
struct Registry {
    /// The last transaction number given, by database.
    numbers: BTreeMap<String, u64>,
    /// The last query number given.
    queries: u64,
    open: Vec<Arc<Transaction>>,
}

/// Who opened a transaction, and from where.
#[derive(Clone, Debug)]
pub struct Origin {
    /// `bolt-N`.
    pub connection_id: String,
    /// The client's address and port.
    pub client_address: String,
    /// The server's address the client connected to.
    pub request_uri: String,
    /// The user (empty with authentication off).
    pub username: String,
}

/// An open transaction.
#[derive(Debug)]
pub struct Transaction {
    pub database: String,
    pub number: u64,
    pub origin: Origin,
    pub metadata: BTreeMap<Arc<str>, Value>,
    started: SystemTime,
    started_at: Instant,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    terminated: bool,
    query: Option<Query>,
}

/// The statement a transaction runs now.
#[derive(Debug)]
struct Query {
    number: u64,
    text: String,
    parameters: Arc<super::Params>,
    started: SystemTime,
    started_at: Instant,
    /// Set to stop the statement.
    cancel: Arc<AtomicBool>,
}

/// What `TERMINATE TRANSACTIONS` says of one id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terminated {
    /// The id as Neo4j normalises it (`neo4j-transaction-1`).
    pub id: String,
    /// The transaction's user; `None` when there is no such transaction.
    pub username: Option<String>,
}

/// A transaction id that does not have Neo4j's form (`Neo.ClientError.General.InvalidArguments`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("Could not parse id (expected format: <databasename>-transaction-<id>)")]
    Unparsable,
    #[error("Negative ids are not supported (expected format: <databasename>-transaction-<id>)")]
    Negative,
}

/// `<database>-transaction-<n>` read as Neo4j reads it: the database in lower case and the
/// number as a long (`neo4j-transaction-01` is transaction 1).
pub fn parse_id(id: &str) -> Result<(String, u64), IdError> {
    let (db, n) = id.rsplit_once("-transaction-").ok_or(IdError::Unparsable)?;
    let n: i64 = n.parse().map_err(|_| IdError::Unparsable)?;
    if n < 0 {
        return Err(IdError::Negative);
    }
    Ok((db.to_lowercase(), n as u64))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Transactions {
    /// Opens a transaction on `database` and registers it until [`Transactions::end`].
    pub fn begin(
        &self,
        database: &str,
        origin: Origin,
        metadata: BTreeMap<Arc<str>, Value>,
    ) -> Arc<Transaction> {
        let mut r = lock(&self.inner);
        let n = r.numbers.entry(database.to_string()).or_insert(0);
        *n += 1;
        let tx = Arc::new(Transaction {
            database: database.to_string(),
            number: *n,
            origin,
            metadata,
            started: SystemTime::now(),
            started_at: Instant::now(),
            state: Mutex::default(),
        });
        r.open.push(tx.clone());
        tx
    }

    /// Removes a transaction that has ended.
    pub fn end(&self, tx: &Arc<Transaction>) {
        lock(&self.inner).open.retain(|t| !Arc::ptr_eq(t, tx));
    }

    /// Makes `text` the transaction's current query until [`Transaction::finish_query`];
    /// `cancel` stops it when the transaction is terminated.
    pub fn start_query(
        &self,
        tx: &Transaction,
        text: &str,
        parameters: Arc<super::Params>,
        cancel: Arc<AtomicBool>,
    ) {
        let number = {
            let mut r = lock(&self.inner);
            r.queries += 1;
            r.queries
        };
        let mut s = lock(&tx.state);
        if s.terminated {
            cancel.store(true, Ordering::SeqCst);
        }
        s.query = Some(Query {
            number,
            text: text.to_string(),
            parameters,
            started: SystemTime::now(),
            started_at: Instant::now(),
            cancel,
        });
    }

    /// The open transactions, oldest first.
    pub fn list(&self) -> Vec<Arc<Transaction>> {
        lock(&self.inner).open.clone()
    }

    /// Terminates the transaction `id` names, if it is open.
    pub fn terminate(&self, id: &str) -> Result<Terminated, IdError> {
        let (db, n) = parse_id(id)?;
        let id = format!("{db}-transaction-{n}");
        let found = lock(&self.inner)
            .open
            .iter()
            .find(|t| t.database == db && t.number == n)
            .cloned();
        let Some(tx) = found else {
            return Ok(Terminated { id, username: None });
        };
        let mut s = lock(&tx.state);
        s.terminated = true;
        if let Some(q) = &s.query {
            q.cancel.store(true, Ordering::SeqCst);
        }
        Ok(Terminated {
            id,
            username: Some(tx.origin.username.clone()),
        })
    }
}

impl Transaction {
    /// `<database>-transaction-<n>`.
    pub fn id(&self) -> String {
        format!("{}-transaction-{}", self.database, self.number)
    }

    /// Whether `TERMINATE TRANSACTIONS` ended it.
    pub fn terminated(&self) -> bool {
        lock(&self.state).terminated
    }

    /// The current query has ended (its result is complete).
    pub fn finish_query(&self) {
        lock(&self.state).query = None;
    }

    /// The transaction as a row of `SHOW TRANSACTIONS … YIELD *` (the columns of
    /// [`crate::catalogue::SHOW_TRANSACTIONS_COLUMNS`]). grape does not measure CPU time,
    /// locks, page hits or heap use per transaction: those columns are Neo4j's values for a
    /// transaction that has none (zero, or null where Neo4j leaves them null).
    pub fn row(&self) -> Vec<Value> {
        let s = lock(&self.state);
        let now = Instant::now();
        let text = |t: &str| Value::from(t);
        let q = s.query.as_ref();
        let status = if s.terminated {
            TERMINATED_STATUS
        } else {
            "Running"
        };
        let zero = || Value::from(Temporal::Duration(crate::temporal::Duration::default()));
        vec![
            text(&self.database),
            text(&self.id()),
            text(&q.map(|q| format!("query-{}", q.number)).unwrap_or_default()),
            text(""),
            text(&self.origin.connection_id),
            text(&self.origin.client_address),
            text(&self.origin.username),
            Value::Map(self.metadata.clone()),
            text(q.map_or("", |q| q.text.as_str())),
            Value::Map(
                q.map(|q| {
                    q.parameters
                        .iter()
                        .map(|(k, v)| (Arc::from(k.as_str()), v.clone()))
                        .collect()
                })
                .unwrap_or_default(),
            ),
            text(if q.is_some() { "idp" } else { "" }),
            text(if q.is_some() { "slotted" } else { "" }),
            Value::List(Vec::new()),
            text(&instant_text(self.started)),
            text(&q.map(|q| instant_text(q.started)).unwrap_or_default()),
            text("bolt"),
            text(&self.origin.request_uri),
            text(status),
            text(if q.is_some() { "running" } else { "" }),
            text(""),
            Value::Map(BTreeMap::new()),
            Value::Int(0),
            if q.is_some() {
                Value::Int(0)
            } else {
                Value::Null
            },
            elapsed(now, self.started_at),
            Value::Null,
            zero(),
            Value::Null,
            q.map_or(Value::Null, |q| elapsed(now, q.started_at)),
            Value::Null,
            if q.is_some() { zero() } else { Value::Null },
            Value::Null,
            if q.is_some() {
                Value::Int(0)
            } else {
                Value::Null
            },
            Value::Int(0),
            Value::Int(0),
            Value::Int(0),
            Value::Int(0),
            if q.is_some() {
                Value::Int(0)
            } else {
                Value::Null
            },
            if q.is_some() {
                Value::Int(0)
            } else {
                Value::Null
            },
            text(""),
        ]
    }
}

/// Time since `from`, in milliseconds as Neo4j measures it, as a duration.
fn elapsed(now: Instant, from: Instant) -> Value {
    let ms = now.saturating_duration_since(from).as_millis() as i64;
    Value::from(Temporal::Duration(crate::temporal::Duration::new(
        0,
        0,
        ms / 1000,
        (ms % 1000) * 1_000_000,
    )))
}

/// An instant as Neo4j writes it in `SHOW TRANSACTIONS`: UTC, milliseconds, the fraction
/// without trailing zeros (`2026-12-06T09:48:16.31Z`, `…:16Z`).
fn instant_text(t: SystemTime) -> String {
    let t = chrono::DateTime::<chrono::Utc>::from(t);
    let mut out = t.format("%Y-%m-%dT%H:%M:%S").to_string();
    let milli = t.timestamp_subsec_millis();
    if milli > 0 {
        let frac = format!("{milli:03}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out.push('Z');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values compared as Neo4j's clients see them (their debug form).
    fn v(x: &Value) -> String {
        format!("{x:?}")
    }

    fn origin() -> Origin {
        Origin {
            connection_id: "bolt-1".into(),
            client_address: "127.0.0.1:5000".into(),
            request_uri: "127.0.0.1:7687".into(),
            username: "neo4j".into(),
        }
    }

    #[test]
    fn ids_are_read_as_neo4j_reads_them() {
        assert_eq!(parse_id("neo4j-transaction-01"), Ok(("neo4j".into(), 1)));
        assert_eq!(parse_id("NEO4J-transaction-7"), Ok(("neo4j".into(), 7)));
        assert_eq!(parse_id("a-b-transaction-2"), Ok(("a-b".into(), 2)));
        assert_eq!(parse_id("neo4j-transaction-"), Err(IdError::Unparsable));
        assert_eq!(parse_id("x"), Err(IdError::Unparsable));
        assert_eq!(parse_id("neo4j-transaction--1"), Err(IdError::Negative));
        assert_eq!(
            IdError::Negative.to_string(),
            "Negative ids are not supported (expected format: <databasename>-transaction-<id>)"
        );
    }

    #[test]
    fn terminating_marks_the_transaction_and_stops_its_statement() {
        let r = Transactions::default();
        let a = r.begin("neo4j", origin(), BTreeMap::new());
        let b = r.begin("neo4j", origin(), BTreeMap::new());
        let other = r.begin("movies", origin(), BTreeMap::new());
        assert_eq!(
            (a.id(), b.id()),
            ("neo4j-transaction-1".into(), "neo4j-transaction-2".into())
        );
        assert_eq!(other.id(), "movies-transaction-1");
        let cancel = Arc::new(AtomicBool::new(false));
        r.start_query(&b, "RETURN 1", Arc::default(), cancel.clone());
        assert_eq!(v(&b.row()[2]), v(&Value::from("query-1")));
        let t = r.terminate("neo4j-transaction-02").unwrap();
        assert_eq!(t.id, "neo4j-transaction-2");
        assert_eq!(t.username.as_deref(), Some("neo4j"));
        assert!(b.terminated() && !a.terminated());
        assert!(cancel.load(Ordering::SeqCst));
        assert_eq!(v(&b.row()[17]), v(&Value::from(TERMINATED_STATUS)));
        // A later statement of a terminated transaction is stopped before it starts.
        let later = Arc::new(AtomicBool::new(false));
        r.start_query(&b, "RETURN 2", Arc::default(), later.clone());
        assert!(later.load(Ordering::SeqCst));
        r.end(&b);
        assert_eq!(r.terminate("neo4j-transaction-2").unwrap().username, None);
        assert_eq!(r.list().len(), 2);
        // Idle: no current query, Neo4j's empty values.
        let row = a.row();
        assert_eq!(row.len(), crate::catalogue::SHOW_TRANSACTIONS_COLUMNS.len());
        assert_eq!(
            (v(&row[2]), v(&row[8])),
            (v(&Value::from("")), v(&Value::from("")))
        );
        assert_eq!(v(&row[27]), v(&Value::Null));
    }

    #[test]
    fn instants_are_written_as_neo4j_writes_them() {
        let at = |ms: u64| SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(ms);
        assert_eq!(
            instant_text(at(1_796_550_496_310)),
            "2026-12-06T09:48:16.31Z"
        );
        assert_eq!(instant_text(at(1_796_550_496_000)), "2026-12-06T09:48:16Z");
        assert_eq!(
            instant_text(at(1_796_550_496_007)),
            "2026-12-06T09:48:16.007Z"
        );
    }
}
