//! Query-text metrics: Jaro–Winkler and normalized Levenshtein.
//!
//! Preprocessing (both queries, before any metric): `\r\n` and `\r` become `\n`, leading and
//! trailing whitespace is removed. Variants:
//! - [`TextVariant::CollapseWs`]: every run of whitespace becomes one space;
//! - [`TextVariant::Canonical`]: both queries are parsed and printed by the canonical printer
//!   (keywords upper-case, single spaces, variables renamed `v0, v1, …`); if either fails to parse,
//!   the default preprocessing is used and [`TextScores::canonical_fallback`] says so.
//!
//! Both metrics are over Unicode scalar values (not bytes) and lie in [0, 1]:
//! - Jaro–Winkler: Jaro similarity with Winkler's prefix bonus, prefix scale 0.1, common prefix
//!   capped at 4 characters, the bonus applied when the Jaro similarity exceeds 0.7 — the
//!   definition `strsim`, `rapidfuzz` and `jellyfish` implement (the tests check agreement with
//!   `strsim` to 1e-12).
//! - Normalized Levenshtein: `1 - d(a, b) / max(|a|, |b|)`, and 1 when both are empty.
//!
//! The computation uses the `rapidfuzz` crate's bit-parallel algorithms (Hyyrö's Levenshtein,
//! bit-parallel Jaro), which are an order of magnitude faster than the textbook dynamic
//! programs on queries of a few hundred characters.

use serde::Serialize;

/// Text preprocessing variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TextVariant {
    #[default]
    Default,
    CollapseWs,
    Canonical,
}

impl std::str::FromStr for TextVariant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "default" => Ok(TextVariant::Default),
            "collapse-ws" => Ok(TextVariant::CollapseWs),
            "canonical" => Ok(TextVariant::Canonical),
            other => Err(format!(
                "unknown text variant {other:?}: expected default, collapse-ws or canonical"
            )),
        }
    }
}

/// The text scores of one (reference, prediction) pair.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TextScores {
    pub jaro_winkler: f64,
    pub normalized_levenshtein: f64,
    /// `canonical` was asked for, but a query did not parse: default preprocessing was used.
    pub canonical_fallback: bool,
}

/// The default preprocessing: unify line ends, trim.
pub fn preprocess(s: &str) -> String {
    s.replace("\r\n", "\n")
        .replace('\r', "\n")
        .trim()
        .to_string()
}

/// Default preprocessing, then every whitespace run as one space.
pub fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_ws = false;
    for c in preprocess(s).chars() {
        if c.is_whitespace() {
            if !in_ws {
                out.push(' ');
            }
            in_ws = true;
        } else {
            out.push(c);
            in_ws = false;
        }
    }
    out
}

/// The canonical form, or `None` when the text does not parse.
pub fn canonical(s: &str) -> Option<String> {
    let stmt = crate::syntax::parse(&preprocess(s)).ok()?;
    Some(crate::syntax::print(
        &stmt,
        &crate::syntax::PrintOptions::canonical(),
    ))
}

/// Jaro–Winkler similarity of two texts (no preprocessing).
pub fn jaro_winkler(a: &str, b: &str) -> f64 {
    if a.is_ascii() && b.is_ascii() {
        rapidfuzz::distance::jaro_winkler::similarity(a.bytes(), b.bytes())
    } else {
        rapidfuzz::distance::jaro_winkler::similarity(a.chars(), b.chars())
    }
}

/// Normalized Levenshtein similarity of two texts (no preprocessing); 1 when both are empty.
pub fn normalized_levenshtein(a: &str, b: &str) -> f64 {
    let (la, lb, d) = if a.is_ascii() && b.is_ascii() {
        (
            a.len(),
            b.len(),
            rapidfuzz::distance::levenshtein::distance(a.bytes(), b.bytes()),
        )
    } else {
        (
            a.chars().count(),
            b.chars().count(),
            rapidfuzz::distance::levenshtein::distance(a.chars(), b.chars()),
        )
    };
    let m = la.max(lb);
    if m == 0 {
        1.0
    } else {
        1.0 - d as f64 / m as f64
    }
}

/// Both text metrics of a reference and a prediction under a preprocessing variant.
pub fn text_scores(reference: &str, prediction: &str, variant: TextVariant) -> TextScores {
    let (a, b, fallback) = match variant {
        TextVariant::Default => (preprocess(reference), preprocess(prediction), false),
        TextVariant::CollapseWs => (collapse_ws(reference), collapse_ws(prediction), false),
        TextVariant::Canonical => match (canonical(reference), canonical(prediction)) {
            (Some(a), Some(b)) => (a, b, false),
            _ => (preprocess(reference), preprocess(prediction), true),
        },
    };
    TextScores {
        jaro_winkler: jaro_winkler(&a, &b),
        normalized_levenshtein: normalized_levenshtein(&a, &b),
        canonical_fallback: fallback,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_and_empty_texts_score_one() {
        assert_eq!(normalized_levenshtein("", ""), 1.0);
        assert_eq!(jaro_winkler("MATCH (n)", "MATCH (n)"), 1.0);
        let s = text_scores("  RETURN 1\r\n", "RETURN 1", TextVariant::Default);
        assert_eq!((s.jaro_winkler, s.normalized_levenshtein), (1.0, 1.0));
    }

    #[test]
    fn characters_not_bytes() {
        // One substituted character of four, whatever its UTF-8 length.
        assert!((normalized_levenshtein("café", "cafe") - 0.75).abs() < 1e-12);
    }

    #[test]
    fn variants() {
        let a = "MATCH (p:Person)\n  RETURN p.name";
        let b = "match (x:Person) return x.name";
        let d = text_scores(a, b, TextVariant::Default);
        let c = text_scores(a, b, TextVariant::Canonical);
        assert!(d.normalized_levenshtein < 1.0);
        assert_eq!(c.normalized_levenshtein, 1.0);
        assert!(!c.canonical_fallback);
        let f = text_scores(a, "MATCH (", TextVariant::Canonical);
        assert!(f.canonical_fallback);
        assert_eq!(collapse_ws(" a \n\t b "), "a b");
    }
}
