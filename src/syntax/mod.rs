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
