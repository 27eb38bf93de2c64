//! Full-text search as Neo4j's full-text indexes do it (they are Lucene indexes): analyzers
//! ([`Analyzer`]), Lucene's classic query syntax ([`parse`]) and an inverted index scored with
//! Lucene's BM25 ([`Index`]).
//!
//! grape implements the search itself rather than embedding a search library: Neo4j's scores
//! are Lucene's, and reproducing Lucene's formulas (BM25 with `k1 = 1.2`, `b = 0.75`, lengths in
//! Lucene's one-byte encoding, float arithmetic, sums of clause scores) gives the same numbers a
//! Neo4j server returns, which a library with its own scoring (tantivy's BM25 encodes lengths
//! differently and scores multi-field queries its own way) would not. Where grape differs from
//! Lucene, the difference is named where it lives: the word-break rules (Unicode's UAX #29, as
//! Lucene's StandardTokenizer; emoji are not terms here), the frequency of sloppy phrases
//! (nearest occurrences, see [`index`]), regular expressions (Rust's `regex` syntax, anchored,
//! instead of Lucene's `RegExp`), and the analyzers on offer ([`Analyzer::ALL`]: no stemming
//! language analyzers).
//!
//! ```
//! use grape::fulltext::{parse, Analyzer, Index};
//! let mut index = Index::new(Analyzer::StandardNoStopWords, vec!["title".into()]);
//! index.add(10, &[vec!["The Matrix"]]);
//! index.add(11, &[vec!["The Matrix Reloaded"]]);
//! index.add(12, &[vec!["Top Gun"]]);
//! let query = parse("matrix AND NOT reloaded", index.fields(), index.analyzer()).unwrap();
//! let hits = index.search(&query, &mut || Ok::<(), ()>(())).unwrap();
//! assert_eq!(hits.iter().map(|h| h.element).collect::<Vec<_>>(), [10]);
//! ```
//!
//! # Layout
//!
//! - `analyzer.rs`: the analyzers by Neo4j's names — Unicode word breaks (UAX #29) as Lucene's
//!   StandardTokenizer, letters, whitespace, keyword; lower-casing and English stop words with
//!   position gaps.
//! - `query.rs`: Lucene's classic query syntax, parsed as Lucene's `MultiFieldQueryParser` with
//!   the default operator OR builds it: per-field `SHOULD` clauses, `AND` making both neighbours
//!   required, multi-token words as disjunctions; Lucene's `ParseException` messages with
//!   columns; nesting and clause-count limits.
//! - `index.rs`: an inverted index with positions per field, scored as Lucene 9 scores: BM25 with
//!   k1 = 1.2, b = 0.75, lengths in Lucene's one-byte `SmallFloat` encoding, float arithmetic,
//!   clause scores summed in double; exact and sloppy phrases, constant-score
//!   prefix/wildcard/range/regex, fuzzy terms with Lucene's blended document frequency.
//! - Independent of the graph (imports nothing of grape's), and hand-written rather than tantivy
//!   so that scores equal Neo4j's. The engine's `fulltext.rs` builds these indexes from a graph.

mod analyzer;
pub mod index;
mod query;

pub use analyzer::{
    unknown_analyzer_message, Analyzer, Token, ENGLISH_STOP_WORDS, NEO4J_ANALYZERS,
};
pub use index::{Hit, Index};
pub use query::{escape, parse, Occur, Query, QueryError, MAX_CLAUSES, MAX_DEPTH};
