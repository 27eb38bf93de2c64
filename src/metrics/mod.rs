//! Evaluation metrics, exactly as `docs/METRICS.md` defines them.
//!
//! - [`text`]: Jaro–Winkler and normalized Levenshtein on query text, with the `default`,
//!   `collapse-ws` and `canonical` preprocessing variants.
//! - [`result`]: item-level Jaccard, Coverage and Pass@k, row-level EX and EX-strict, on
//!   result tables.
//! - [`mod@psjs`]: the provenance subgraph Jaccard similarity, on the nodes the leading `MATCH`
//!   clauses bind.
//! - [`session`]: the multi-turn SEM and CER.

pub mod psjs;
pub mod result;
pub mod session;
pub mod text;

pub use psjs::psjs;
pub use result::{execution_accuracy, item_scores, pass_at_k, ItemScores, RowScores};

pub use session::{cer, sem, TurnOutcome};
pub use text::{jaro_winkler, normalized_levenshtein, text_scores, TextScores, TextVariant};
