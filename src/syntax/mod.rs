//! Cypher syntax: the typed AST, the parser, parse errors and the canonical printer.
//!
//! ```
//! use grape::syntax::{parse, print, PrintOptions};
//! let stmt = parse("match (p:Person)-[:KNOWS]->(f) where p.age > 30 return f.name").unwrap();
//! assert_eq!(
//!     print(&stmt, &PrintOptions::default()),
//!     "MATCH (p:Person)-[:KNOWS]->(f) WHERE p.age > 30 RETURN f.name"
//! );
//! ```
//!
//! # Layout
//!
//! - The pest grammar (`grammar/cypher.pest`) to a typed AST (`ast.rs`), with spans, by the
//!   builder in `parse/`: `mod.rs` (entry points and error reporting — `ParseError` renders for
//!   people, and `ParseError::neo4j_message` words it as Neo4j's server does, which the engine's
//!   errors and the Bolt server send), `clauses.rs`, `patterns.rs`, `exprs.rs`, `schema.rs`
//!   (schema commands, each a statement of its own, `Clause::Schema`).
//! - Most statements take the hand-written fast path `parse/descent/` (`mod.rs` statements and
//!   clauses, `patterns.rs`, `exprs.rs`): a recursive-descent transcription of the grammar with
//!   pest's semantics — ordered choice, backtracking, the whitespace skip at each `~` (so spans
//!   that end in an unmatched optional part take the whitespace, as pest's do), `x+` read as
//!   `x ~ x*` — and the builder's transformations (Pratt precedence, comparison chains, negative
//!   literals). It returns the AST pest would give, spans included, or gives up and leaves the
//!   statement to pest: the Cypher 25 clauses, schema commands, `IN TRANSACTIONS`, hints,
//!   quantified path patterns, dynamic labels, `IS` type tests, hexadecimal, octal and
//!   underscored numbers, non-ASCII names and whitespace, and every input the builder would
//!   refuse, so every error still comes from pest. `parse_fast` / `parse_with_pest` expose the two
//!   paths; `tests/parse_fast_path.rs` compares them on every corpus and a mutation sweep,
//!   `proptest_syntax.rs` and the parse fuzz target check them too.
//! - Errors with line, column and caret (`error.rs`); the canonical printer (`print/`: `mod.rs`
//!   clauses and expressions, `patterns.rs`, `schema.rs` schema commands and types).
//! - Besides Neo4j 5's core: the extended simple `CASE x WHEN 1, 2 … WHEN > 3 …` (an
//!   operand-less test reads `ast::CASE_OPERAND`, bound by the analysis and the engine to the
//!   operand, printed as nothing), `IS [NOT] [NFC|NFD|NFKC|NFKD] NORMALIZED`, the label predicate
//!   `n IS Person|Movie` (as `n:Person|Movie`), Neo4j 5.26's dynamic labels and types
//!   (`LabelExpr::Dynamic`: `$(expr)`, `$all(expr)`, `$any(expr)`, evaluated per row by the
//!   engine in MATCH, CREATE, MERGE, SET and REMOVE) and GQL's `INSERT` (a `Create` with
//!   `insert`: `&` labels, directed relationships, Neo4j's messages for the rest).
//! - Cypher 25: `LET`, `FILTER`, `FOR x IN list` (an `Unwind` with `for_in`), `RETURN ALL` /
//!   `WITH ALL` (`Projection::all`), `allReduce(acc = 0, x IN list | step, predicate)` (a `Reduce`
//!   with a `predicate`), `n IS [NOT] LABELED …` (a `HasLabels` with `labeled`), parameter names
//!   starting with digits (`$0hello`), the `SEARCH` clause (`Match::search`), `GROUP BY`
//!   (`Projection::group_by`, keys resolved by `Projection::grouping_keys`), and the composed
//!   queries: `{ query }` (`Clause::Braced`), `q NEXT q …` (`Clause::Next`: each query reads the
//!   whole table of the one before) and `WHEN cond THEN q … [ELSE q]` (`Clause::When`: each row
//!   runs the first branch whose condition holds). Each of the three is the only clause of its
//!   single query, so `Query` keeps its first-part-and-unions shape, and `Clause::subqueries` /
//!   `Query::final_return` let every walker reach inside. The analysis refuses the Cypher 25
//!   forms under Cypher 5.
//! - A statement carries its `CYPHER n key=value` prefix (`Statement::cypher`, `CypherVersion`: 5
//!   or 25, resolved against the caller's default by `Statement::cypher_version`).
//! - Nesting is bounded before the AST is built: brackets 200, subqueries 32 (a subquery level
//!   costs far more stack than a bracket), expressions 64, operator chains 128.
//! - Imports nothing of grape's.

pub mod ast;
pub(crate) mod error;
mod parse;
mod print;

pub use ast::*;
pub use error::{escape_controls, ParseError};
pub(crate) use error::{line_col, LineCursor};
pub use parse::{
    parse, parse_fast, parse_script, parse_with_pest, split_statements, split_statements_lenient,
};
pub(crate) use print::write_name;
pub(crate) use print::write_string as write_string_literal;
pub use print::{
    print, print_expr, print_label_expr, print_script, print_type, search_text, PrintOptions,
};

/// The 1-based line and column (in characters) of byte `offset` in `source` (an offset past the
/// end counts as the end; one inside a character as that character).
pub fn position(source: &str, offset: usize) -> (usize, usize) {
    let (line, column, _) = error::line_col(source, offset);
    (line, column)
}
