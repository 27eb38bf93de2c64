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

#[cfg(feature = "neo4j")]
pub mod neo4j;
pub mod record;

use crate::engine::{ExecError, Options, Params, Table};
use crate::graph::Graph;
use crate::schema::Schema;
use std::sync::RwLock;

/// Node and relationship handles at or above this value in a [`Table`] from another database
/// stand for ids that do not fit in 31 bits (virtual entities, which have negative ids); below
/// it, a handle is the entity's id in that database.
pub const FOREIGN_ID_BASE: u32 = 1 << 31;

/// A database that runs Cypher and describes its schema.
pub trait Backend: Send + Sync {
    /// Runs one statement with parameters.
    fn run(&self, query: &str, params: &Params) -> Result<Table, BackendError>;
    /// The database's schema: labels and relationship types with their properties, and the
    /// `(start, type, end)` triples that occur.
    fn schema(&self) -> Result<Schema, BackendError>;
    /// What it is, for reports and errors (`memory`, `neo4j bolt://host:7687`).
    fn describe(&self) -> String;
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
}

impl BackendError {
    pub fn new(kind: FailureKind, message: impl Into<String>) -> BackendError {
        BackendError {
            kind,
            code: None,
            message: message.into(),
        }
    }

    pub fn with_code(mut self, code: impl Into<String>) -> BackendError {
        self.code = Some(code.into());
        self
    }
}

impl From<ExecError> for BackendError {
    fn from(e: ExecError) -> BackendError {
        let kind = if e.detail == Some("Timeout") {
            FailureKind::Timeout
        } else {
            FailureKind::Query
        };
        BackendError::new(kind, e.to_string())
    }
}

/// The in-memory graph as a backend. Reads share the graph; a write takes it for itself and is
/// atomic (a failing statement leaves it unchanged).
pub struct Memory {
    graph: RwLock<Graph>,
    options: Options,
}

impl Memory {
    pub fn new(graph: Graph) -> Memory {
        Memory::with_options(graph, Options::default())
    }

    /// A backend whose queries run with these limits and procedures.
    pub fn with_options(graph: Graph, options: Options) -> Memory {
        Memory {
            graph: RwLock::new(graph),
            options,
        }
    }

    /// The graph as it is now.
    pub fn graph(&self) -> Graph {
        self.graph.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Backend for Memory {
    fn run(&self, query: &str, params: &Params) -> Result<Table, BackendError> {
        let stmt = crate::syntax::parse(query)
            .map_err(|e| BackendError::new(FailureKind::Query, e.to_string()))?;
        if crate::engine::is_updating(&stmt) {
            let mut g = self.graph.write().unwrap_or_else(|e| e.into_inner());
            Ok(crate::engine::execute(
                &mut g,
                &stmt,
                query,
                params,
                &self.options,
            )?)
        } else {
            let g = self.graph.read().unwrap_or_else(|e| e.into_inner());
            Ok(crate::engine::execute_read(
                &g,
                &stmt,
                query,
                params,
                &self.options,
            )?)
        }
    }

    fn schema(&self) -> Result<Schema, BackendError> {
        let g = self.graph.read().unwrap_or_else(|e| e.into_inner());
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
