//! Evaluation metrics, exactly as `docs/METRICS.md` defines them.
//!
//! - [`text`]: Jaro–Winkler and normalized Levenshtein on query text, with the `default`,
//!   `collapse-ws` and `canonical` preprocessing variants.

pub mod text;

pub use text::{jaro_winkler, normalized_levenshtein, text_scores, TextScores, TextVariant};
