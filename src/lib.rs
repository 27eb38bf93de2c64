//! # grape
//!
//! Test and evaluate systems that turn natural-language questions into Cypher: a Cypher parser
//! with a typed AST ([`syntax`]), and — built on it — offline analysis, an in-memory graph engine
//! and evaluation metrics.
//!
//! ```
//! let stmt = grape::syntax::parse("MATCH (n:Person {name: 'Ann'}) RETURN n.age AS age").unwrap();
//! let canonical = grape::syntax::print(&stmt, &grape::syntax::PrintOptions::canonical());
//! assert_eq!(canonical, "MATCH (v0:Person {name: 'Ann'}) RETURN v0.age AS v1");
//! ```

#![forbid(unsafe_code)]

pub mod analysis;
pub mod backend;
#[cfg(feature = "bolt")]
pub mod bolt;
pub mod catalogue;
pub mod dataset;
pub mod difftest;
pub mod engine;
pub mod eval;
pub mod fulltext;
pub mod graph;
#[cfg(feature = "llm")]
pub mod llm;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod metrics;
pub mod plan;
mod rng;
pub mod schema;
pub mod spatial;
pub mod stack;
pub mod syntax;
pub mod temporal;
pub mod value;

pub use syntax::{parse, parse_script, ParseError};

/// The stack grape's own threads that run queries get (Bolt connections, the MCP server's
/// workers): what a main thread has. Reserved address space, committed only as used; query
/// nesting is bounded by the parser so that even 2 MiB suffices in a release build.
pub const QUERY_STACK_BYTES: usize = 8 * 1024 * 1024;

/// The README's and the guide's Rust examples, compiled and run as doctests so that they stay
/// true (their shell and Python examples run in `tests/docs_examples.rs` and
/// `python/tests/test_docs_examples.py`).
#[cfg(doctest)]
pub mod guide_doctests {
    #[doc = include_str!("../README.md")]
    pub struct Readme;
    #[doc = include_str!("../docs/guide/src/introduction.md")]
    pub struct Introduction;
    #[doc = include_str!("../docs/guide/src/evaluating.md")]
    pub struct Evaluating;
    #[doc = include_str!("../docs/guide/src/testing.md")]
    pub struct Testing;
    #[doc = include_str!("../docs/guide/src/validating.md")]
    pub struct Validating;
    #[doc = include_str!("../docs/guide/src/agents.md")]
    pub struct Agents;
    #[doc = include_str!("../docs/guide/src/fuzzing.md")]
    pub struct Fuzzing;
    #[doc = include_str!("../docs/guide/src/benchmarking.md")]
    pub struct Benchmarking;
    #[doc = include_str!("../docs/guide/src/limits.md")]
    pub struct Limits;
    #[doc = include_str!("../docs/guide/src/fidelity.md")]
    pub struct Fidelity;
    #[doc = include_str!("../docs/guide/src/python.md")]
    pub struct Python;
    #[doc = include_str!("../docs/guide/src/library.md")]
    pub struct Library;
}
