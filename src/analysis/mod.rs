//! Offline analysis of Cypher: validation against a schema with CyVer's codes and scores
//! ([`validate()`]), GRAPE hop complexity ([`complexity()`]), GRAPE's mandatory aliasing
//! ([`missing_aliases`]) and Neo4j's read/write query type ([`access()`]). Everything walks the
//! AST; nothing looks at the query text with regular expressions.
//!
//! [`analyze`] runs the three schema-free analyses at once (what `grape analyze` prints).

pub mod access;
pub mod aliases;
pub mod complexity;
mod diagnostic;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod graphs;
pub mod validate;

pub mod sarif;

pub use access::{access, Access};
pub use aliases::{missing_aliases, MissingAlias};
pub use complexity::{complexity, Complexity, MatchHops};
pub use diagnostic::{Category, Diagnostic, DiagnosticKind};
pub use validate::{validate, ValidateOptions, Validation, Validator};

use serde::Serialize;

/// The schema-free analyses of one statement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    pub complexity: Complexity,
    pub missing_aliases: Vec<MissingAlias>,
    pub access: Access,
}

/// Complexity, missing aliases and access type of a statement parsed from `source`.
///
/// ```
/// let q = "MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name";
/// let a = grape::analysis::analyze(&grape::parse(q).unwrap(), q);
/// assert_eq!(a.complexity.hops, 1);
/// assert_eq!(a.missing_aliases[0].text, "f.name");
/// assert_eq!(a.access, grape::analysis::Access::Read);
/// ```
pub fn analyze(stmt: &crate::syntax::Statement, source: &str) -> Analysis {
    Analysis {
        complexity: complexity(stmt),
        missing_aliases: missing_aliases(stmt, source),
        access: access(stmt),
    }
}
