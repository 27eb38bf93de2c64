//! Evaluation metrics, exactly as `docs/METRICS.md` defines them.
//!
//! - [`text`]: Jaro–Winkler and normalized Levenshtein on query text, with the `default`,
//!   `collapse-ws` and `canonical` preprocessing variants.
//! - [`result`]: item-level Jaccard, Coverage and Pass@k, row-level EX and EX-strict, on
//!   result tables.
//! - [`mod@psjs`]: the provenance subgraph Jaccard similarity, on the nodes the leading `MATCH`
//!   clauses bind.
//! - [`session`]: the multi-turn SEM and CER.
//! - [`bleu`]: Google BLEU and ExactMatch on query text (Neo4j's text2cypher evaluation).
//! - [`cypherbench`]: CypherBench's EX and Neo4j's execution ExactMatch, each under its name.
//!
//! ```
//! use grape::engine::run;
//! use grape::graph::Graph;
//! use grape::metrics::{execution_accuracy, item_scores, pass_at_k, text_scores, TextVariant};
//!
//! let mut g = Graph::from_cypher_script(
//!     "CREATE (:City {name: 'Haldon', pop: 64500}), (:City {name: 'Eastmere', pop: 182000})",
//! )
//! .unwrap();
//! let q = "MATCH (c:City) RETURN c.name AS name, c.pop AS pop";
//! let gold = run(&mut g, q, &Default::default()).unwrap();
//! let pred = run(&mut g, "MATCH (c:City) RETURN c.pop, c.name", &Default::default()).unwrap();
//! let rows = execution_accuracy(&pred, &gold, false);
//! assert_eq!(rows.ex, 1.0); // column names ignored, column order searched
//! assert_eq!(rows.ex_strict, 0.0); // the names differ
//! let items = item_scores(&pred, &gold, false);
//! assert_eq!((items.jaccard, items.coverage), (1.0, 1.0));
//! assert_eq!(pass_at_k(&[None, Some(1.0)], 2), 1.0);
//! // Canonical text: variables renamed, keywords upper-cased, before comparing.
//! let text = text_scores("MATCH (n) RETURN n", "match (m) return m", TextVariant::Canonical);
//! assert_eq!(text.jaro_winkler, 1.0);
//! ```
//!
//! # Layout
//!
//! Every metric `docs/METRICS.md` defines:
//!
//! - `text.rs`: Jaro–Winkler, normalized Levenshtein, the preprocessing variants.
//! - `result.rs`: items, Jaccard, Coverage, Pass@k, EX and EX-strict; `permuted_equal`, the
//!   column-permutation search over rows of any hashable key, which CypherBench's EX shares.
//! - `cypherbench.rs`: CypherBench's EX with Python's value semantics, Neo4j's execution
//!   ExactMatch over rendered results.
//! - `bleu.rs`: the 13a tokenizer, Google BLEU per sentence and per corpus, ExactMatch on
//!   normalised text.
//! - `psjs.rs` (its provenance queries run through `engine::execute_read`), `session.rs` (SEM,
//!   CER).

pub mod bleu;
pub mod cypherbench;
pub mod psjs;
pub mod result;
pub mod session;
pub mod text;

pub use bleu::{exact_match, google_bleu};
pub use cypherbench::{cypherbench_ex, exec_exact_match};
pub use psjs::psjs;
pub use result::{execution_accuracy, item_scores, pass_at_k, ItemScores, RowScores};

pub use session::{cer, sem, TurnOutcome};
pub use text::{jaro_winkler, normalized_levenshtein, text_scores, TextScores, TextVariant};
