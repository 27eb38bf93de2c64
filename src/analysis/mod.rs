//! Offline analysis of Cypher: validation against a schema with CyVer's codes and scores
//! ([`validate()`]), GRAPE hop complexity ([`complexity()`]), GRAPE's mandatory aliasing
//! ([`missing_aliases`]) and Neo4j's read/write query type ([`access()`]). Everything walks the
//! AST; nothing looks at the query text with regular expressions.
//!
//! [`analyze`] runs the three schema-free analyses at once (what `grape analyze` prints).
//!
//! ```
//! use grape::analysis::{access, complexity, Access, ValidateOptions, Validator};
//! use grape::schema::{Schema, SchemaFormat};
//!
//! let schema = Schema::read(SchemaFormat::Prompt, "Node properties are the following:\n\
//!     Person {name: STRING}\n\
//!     Relationship properties are the following:\n\
//!     The relationships are the following:\n(:Person)-[:KNOWS]->(:Person)").unwrap();
//! // A validator for one schema, told which parameters the caller will supply.
//! let options = ValidateOptions {
//!     parameters: Some(["name".to_string()].into()),
//!     ..Default::default()
//! };
//! let validator = Validator::with_options(&schema, options);
//! let v = validator.validate("MATCH (p:Person {name: $name})-[:KNOWS]->(f) RETURN f.name AS f");
//! assert!(v.syntax_ok && v.kg_valid);
//! let v = validator.validate("MATCH (p:Person {name: $who}) RETURN p.name AS name");
//! assert_eq!(v.diagnostics[0].code, "Neo.ClientError.Statement.ParameterMissing");
//!
//! let q = "MATCH (a:Person)-[:KNOWS*1..3]->(b) CREATE (b)-[:SEEN]->(a) RETURN b";
//! let stmt = grape::parse(q).unwrap();
//! assert_eq!((complexity(&stmt).hops, complexity(&stmt).hops_min), (3, 1));
//! assert_eq!(access(&stmt), Access::ReadWrite); // writes and returns rows: `rw`
//! ```
//!
//! # Layout
//!
//! Offline checks on the AST, under the statement's Cypher version (`ValidateOptions::cypher`;
//! Cypher 5 refuses match modes and a read right after a write without `WITH`):
//!
//! - Schema validation with CyVer's codes, in `validate/`: `mod.rs` (the checker's state and entry
//!   points), `clauses.rs` (scopes, and a SHOW command's place: first, only a RETURN after its
//!   YIELD; the `SEARCH` clause), `group_by.rs` (the refusals of Cypher 25's `GROUP BY`),
//!   `schema.rs` (Neo4j's checks of schema commands), `patterns.rs` (bindings against the
//!   schema), `exprs.rs` (expressions and the catalogue), `paths.rs` (path inference and scores),
//!   `types.rs` (static types as Neo4j infers them — sets of types over literals, entity
//!   variables, properties of nodes and relationships (every storable type), built-in results from
//!   the catalogue — and the argument check of built-in functions,
//!   `Type mismatch: expected Path but was String`), parameters typed from their values where
//!   the caller gives them (`ValidateOptions::parameter_types`, [`ParameterType`]: `Type mismatch
//!   for parameter 'x'`, as Neo4j types a statement's parameters before compiling it).
//! - Deprecated syntax Neo4j 5.26 still runs (`Validation::deprecations`, [`Deprecated`]:
//!   `[:A|:B]`, `CALL { WITH a … }` without a scope clause), which the engine reports as Neo4j's
//!   `FeatureDeprecationWarning`s.
//! - Besides: pattern expressions used as values, sort keys after DISTINCT or aggregation,
//!   implicit grouping keys, aggregates in ORDER BY, `exists()` of a non-pattern, `point()` maps,
//!   operand types of arithmetic and boolean operators (value variables keep the static type of
//!   what was projected into them, and a comprehension's or quantifier's variable the element type
//!   of a typed list), `IN` over a non-list, SKIP/LIMIT that read a variable, `UNION` mixed with
//!   `UNION ALL` — all with Neo4j 5's messages.
//! - Hop complexity (`complexity.rs`), aliases (`aliases.rs`), read/write access (`access.rs`),
//!   the `USE` clauses of a statement (`graphs.rs`, shared with the engine), and the proptest
//!   strategies of the `fuzz` feature (`fuzz.rs`).
//! - `sarif.rs`: findings placed in their files as SARIF 2.1.0 and GitHub workflow annotations
//!   (`grape validate --format sarif|github`).

pub mod access;
pub mod aliases;
pub mod complexity;
mod diagnostic;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod graphs;
pub mod validate;

pub mod sarif;

pub use access::{access, reach, Access, Reach};
pub use aliases::{missing_aliases, MissingAlias};
pub use complexity::{complexity, Complexity, MatchHops};
pub(crate) use diagnostic::GqlFacts;
pub use diagnostic::{Category, Diagnostic, DiagnosticKind};
pub use validate::{validate, Deprecated, ParameterType, ValidateOptions, Validation, Validator};

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
