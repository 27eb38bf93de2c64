//! Backends: where queries run. [`Memory`] runs them on grape's in-memory graph; `Neo4j`
//! (feature `neo4j`) on a live database over Bolt. Both answer with the same
//! [`Table`], so the metrics, the evaluation runner and
//! [`record`] treat them alike.
//!
//! ```
//! use grape::backend::{Backend, Memory};
//! use grape::graph::Graph;
//!
//! let g = Graph::from_cypher_script("CREATE (:Person {name: 'Ann'})").unwrap();
//! let db = Memory::new(g);
//! let t = db.run("MATCH (p:Person) RETURN p.name AS name", &Default::default()).unwrap();
//! assert_eq!(t.rows[0][0].as_str(), Some("Ann"));
//! assert!(db.schema().unwrap().has_label("Person"));
//! ```
//!
//! # Layout
//!
//! - The `Backend` trait: `Memory` over a `SharedGraph`; `neo4j.rs` a live database through the
//!   `bolt` module's client — auto-commit runs, and `run_rolled_back`: BEGIN, RUN, PULL, ROLLBACK
//!   on one connection.
//! - Record and replay-check (`record.rs`; the replay check compares with `difftest::compare`).
//! - `push.rs` (`grape graph push`): nodes in id order with dynamic labels and typed Bolt
//!   parameters, relationships by the element ids the nodes got, then
//!   `engine::schema_statements`; `pull` reads a whole database back into a graph.
//! - `bolt` does not import `backend`; `backend` and `difftest` import each other.

#[cfg(feature = "neo4j")]
pub mod neo4j;
pub mod push;
pub mod record;

use crate::engine::{ExecError, Options, Params, Table};
use crate::graph::Graph;
use crate::graph::SharedGraph;
use crate::schema::Schema;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

pub use crate::value::FOREIGN_ID_BASE;

/// A database that runs Cypher and describes its schema.
pub trait Backend: Send + Sync {
    /// Runs one statement with parameters.
    fn run(&self, query: &str, params: &Params) -> Result<Table, BackendError>;
    /// [`Backend::run`], stopping early (with a `Cancelled` error) once `cancel` is set; a
    /// backend that cannot stop a running query runs it to its end.
    fn run_cancellable(
        &self,
        query: &str,
        params: &Params,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Table, BackendError> {
        let _ = cancel;
        self.run(query, params)
    }
    /// The database's schema: labels and relationship types with their properties, and the
    /// `(start, type, end)` triples that occur.
    fn schema(&self) -> Result<Schema, BackendError>;
    /// What it is, for reports and errors (`memory`, `neo4j bolt://host:7687`).
    fn describe(&self) -> String;
    /// Neo4j's query type of a statement (`r`, `rw`, `w` or `s`) as `EXPLAIN` reports it,
    /// without running it; the error where the statement does not compile. This one compiles
    /// the statement here with `EXPLAIN` and classifies it as grape's engine does.
    fn query_type(&self, query: &str, params: &Params) -> Result<String, BackendError> {
        let explained = format!("EXPLAIN {query}");
        self.run(&explained, params)?;
        let stmt = crate::syntax::parse(&explained)
            .map_err(|e| BackendError::new(FailureKind::Query, e.to_string()))?;
        Ok(crate::analysis::access(&stmt).code().to_string())
    }
}

/// What kind of failure a [`BackendError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The query failed (syntax, semantics, a runtime error): the database is fine.
    Query,
    /// The query ran out of time.
    Timeout,
    /// The database refused the credentials.
    Auth,
    /// The database could not be reached or the connection broke.
    Connection,
}

/// A failed request, with the Neo4j status code where there is one
/// (`Neo.ClientError.Statement.SyntaxError`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct BackendError {
    pub kind: FailureKind,
    pub code: Option<String>,
    pub message: String,
    /// The GQL statuses of the failure, outer first (`["22G03", "22N01"]`), where the server
    /// sent them (Bolt 5.7 and later); empty otherwise.
    pub gql: Vec<String>,
    /// The failure as a Neo4j driver sees it, where the database gave one (what the drivers
    /// write into their error texts).
    pub server: Option<Box<ServerFailure>>,
}

/// A failure as a Neo4j driver reads it off the wire: the status code, the message in Neo4j's
/// words (a syntax error's with the statement and a caret) and the outer GQL status with its
/// description (Neo4j's generic `50N42` where it gives none of its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerFailure {
    pub code: String,
    pub message: String,
    pub gql_status: String,
    pub gql_description: String,
}

impl BackendError {
    pub fn new(kind: FailureKind, message: impl Into<String>) -> BackendError {
        BackendError {
            kind,
            code: None,
            message: message.into(),
            gql: Vec::new(),
            server: None,
        }
    }

    /// An engine error on the statement `src`, with what a driver would read of it.
    pub fn of_statement(e: ExecError, src: &str) -> BackendError {
        let g = e.gql();
        let server = ServerFailure {
            code: e.code().to_string(),
            message: e.neo4j_message(src),
            gql_status: g.code.to_string(),
            gql_description: g.description.clone(),
        };
        BackendError {
            code: Some(server.code.clone()),
            server: Some(Box::new(server)),
            ..BackendError::from(e)
        }
    }

    pub fn with_code(mut self, code: impl Into<String>) -> BackendError {
        self.code = Some(code.into());
        self
    }
}

impl From<ExecError> for BackendError {
    fn from(e: ExecError) -> BackendError {
        let kind = if matches!(
            e.detail,
            Some(crate::engine::Detail::Timeout | crate::engine::Detail::LockTimeout)
        ) {
            FailureKind::Timeout
        } else {
            FailureKind::Query
        };
        let mut gql = Vec::new();
        let mut g = Some(e.gql());
        while let Some(status) = g {
            gql.push(status.code.to_string());
            g = status.cause.map(|c| *c);
        }
        BackendError {
            gql,
            ..BackendError::new(kind, e.to_string())
        }
    }
}

/// The in-memory graph as a backend. Reads run on the committed snapshot and never wait; writes
/// take turns on the write lease ([`SharedGraph`]) and are atomic (a failing statement leaves
/// the graph unchanged).
pub struct Memory {
    graph: SharedGraph,
    options: Options,
    writes: AtomicU64,
}

impl Memory {
    pub fn new(graph: Graph) -> Memory {
        Memory::with_options(graph, Options::default())
    }

    /// A backend whose queries run with these limits and procedures.
    pub fn with_options(graph: Graph, options: Options) -> Memory {
        Memory {
            graph: SharedGraph::new(graph),
            options,
            writes: AtomicU64::new(0),
        }
    }

    /// The graph as it is now.
    pub fn graph(&self) -> Graph {
        (*self.graph.snapshot()).clone()
    }
}

impl Memory {
    fn run_with(
        &self,
        query: &str,
        params: &Params,
        options: &Options,
    ) -> Result<Table, BackendError> {
        let stmt = crate::syntax::parse(query).map_err(|e| {
            let generic = crate::engine::GqlStatus::generic();
            let server = ServerFailure {
                code: "Neo.ClientError.Statement.SyntaxError".into(),
                message: e.neo4j_message(Some(query)),
                gql_status: generic.code.into(),
                gql_description: generic.description,
            };
            BackendError {
                code: Some(server.code.clone()),
                server: Some(Box::new(server)),
                ..BackendError::new(FailureKind::Query, e.to_string())
            }
        })?;
        if crate::engine::is_updating(&stmt) {
            // A write waits for the one before it, up to the query's own time limit.
            let id = self.writes.fetch_add(1, Ordering::Relaxed) + 1;
            self.graph
                .write(id, options.limits.timeout, options.cancel.as_deref(), |g| {
                    crate::engine::execute(g, &stmt, query, params, options)
                })
                .map_err(|e| BackendError::of_statement(e, query))
        } else {
            let g = self.graph.snapshot();
            crate::engine::execute_read(&g, &stmt, query, params, options)
                .map_err(|e| BackendError::of_statement(e, query))
        }
    }
}

impl Backend for Memory {
    fn run(&self, query: &str, params: &Params) -> Result<Table, BackendError> {
        self.run_with(query, params, &self.options)
    }

    fn run_cancellable(
        &self,
        query: &str,
        params: &Params,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Table, BackendError> {
        let options = Options {
            cancel: Some(cancel.clone()),
            ..self.options.clone()
        };
        self.run_with(query, params, &options)
    }

    fn schema(&self) -> Result<Schema, BackendError> {
        let g = self.graph.snapshot();
        Ok(crate::engine::schema_of(&g))
    }

    fn describe(&self) -> String {
        "memory".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_backend_reads_writes_and_keeps_failed_writes_out() {
        let db = Memory::new(Graph::from_cypher_script("CREATE (:A {x: 1})").unwrap());
        let t = db.run("CREATE (:A {x: 2})", &Params::new()).unwrap();
        assert_eq!(t.stats.nodes_created, 1);
        let err = db
            .run(
                "CREATE (:A {x: 3}) WITH 1 AS one RETURN 1 / 0",
                &Params::new(),
            )
            .unwrap_err();
        assert_eq!(err.kind, FailureKind::Query);
        let t = db
            .run("MATCH (a:A) RETURN a.x ORDER BY a.x", &Params::new())
            .unwrap();
        assert_eq!(t.rows.len(), 2);
        assert!(db.run("MATCH (a RETURN a", &Params::new()).is_err());
        let s = db.schema().unwrap();
        assert!(s.node_property("A", "x").is_some());
        assert_eq!(db.describe(), "memory");
    }
}
