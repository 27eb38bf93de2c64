//! Evaluation metrics, exactly as `docs/METRICS.md` defines them.
//!
//! - [`text`]: Jaro–Winkler and normalized Levenshtein on query text, with the `default`,
//!   `collapse-ws` and `canonical` preprocessing variants.
//! - [`result`]: item-level Jaccard, Coverage and Pass@k, row-level EX and EX-strict, on
//!   result tables.

pub mod result;
pub mod text;

pub use result::{execution_accuracy, item_scores, pass_at_k, ItemScores, RowScores};

pub use text::{jaro_winkler, normalized_levenshtein, text_scores, TextScores, TextVariant};
