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
