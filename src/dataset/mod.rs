//! Datasets and query files.
//!
//! [`query_file`] reads the query files the CLI's `parse`, `validate` and `analyze` commands take:
//! JSON Lines with an `id` and a `query` (or `cypher`) field, `.cypher` scripts, or standard input.

pub mod query_file;

pub use query_file::{read_query_file, QueryFile, QueryFileError, QueryInput};
