//! Google BLEU (GLEU) and ExactMatch on query text: the lexical metrics of Neo4j's text2cypher
//! evaluation, computed as Hugging Face `evaluate`'s `google_bleu` does (NLTK's `corpus_gleu`
//! over the `13a` tokenizer of sacreBLEU, which `evaluate` changed to return the token list).
//!
//! **Tokenisation (`13a`)**: remove `<skipped>`, join `-` + newline, newlines to spaces, unescape
//! `&quot;` `&amp;` `&lt;` `&gt;`; pad the line with a space on each side; then, in this order,
//! (1) put spaces around every ASCII character in `{|}~ [\]^_` `` ` `` space `!"#$%&` `()*+`
//! `:;<=>?@` `/`; (2) split `.` and `,` from a preceding non-digit; (3) split `.` and `,` from a
//! following non-digit; (4) split `-` from a preceding digit — each rule a left-to-right pass of
//! non-overlapping matches, as Python's `re.sub`; finally split on whitespace (Python's notion:
//! Unicode White_Space and the separators U+001C–U+001F).
//!
//! **GLEU** of one prediction against its references, n-grams of length 1 to 4 (fewer when a
//! sequence is shorter): for each reference, `tp` = the n-grams the two share (counts clipped),
//! `n = max(|n-grams of the prediction|, |n-grams of the reference|)`; the reference with the
//! highest `tp / n` is kept. Over a corpus, `Σ tp / Σ n`; 0 when every `n` is 0 (two empty
//! texts). This is the minimum of n-gram precision and recall for one pair. grape reports the
//! per-example (sentence) score and its mean, as Neo4j's evaluation does.

use std::collections::HashMap;

/// Python's `str.isspace()`.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn is_13a_symbol(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// One left-to-right pass of a two-character rule: where `hit(a, b)` holds, `a` and `b` are
/// written as `write(a, b)` and the scan goes on after `b`.
fn pass(
    chars: Vec<char>,
    hit: impl Fn(char, char) -> bool,
    write: impl Fn(&mut Vec<char>, char, char),
) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() && hit(chars[i], chars[i + 1]) {
            write(&mut out, chars[i], chars[i + 1]);
            i += 2;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The `13a` tokens of a text (see the module docs).
pub fn tokenize_13a(text: &str) -> Vec<String> {
    let mut line = text
        .replace("<skipped>", "")
        .replace("-\n", "")
        .replace('\n', " ");
    if line.contains('&') {
        line = line
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
    }
    let mut chars: Vec<char> = Vec::with_capacity(line.len() + 2);
    chars.push(' ');
    for c in line.chars() {
        if is_13a_symbol(c) {
            chars.extend([' ', c, ' ']);
        } else {
            chars.push(c);
        }
    }
    chars.push(' ');
    let digit = |c: char| c.is_ascii_digit();
    let dot = |c: char| c == '.' || c == ',';
    let chars = pass(
        chars,
        |a, b| !digit(a) && dot(b),
        |o, a, b| o.extend([a, ' ', b, ' ']),
    );
    let chars = pass(
        chars,
        |a, b| dot(a) && !digit(b),
        |o, a, b| o.extend([' ', a, ' ', b]),
    );
    let chars = pass(
        chars,
        |a, b| digit(a) && b == '-',
        |o, a, b| o.extend([a, ' ', b, ' ']),
    );
    let text: String = chars.into_iter().collect();
    text.split(py_space)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The n-grams of lengths 1..=4 of a token sequence, counted.
fn ngrams(tokens: &[String]) -> HashMap<&[String], usize> {
    let mut m = HashMap::new();
    for n in 1..=4.min(tokens.len()) {
        for w in tokens.windows(n) {
            *m.entry(w).or_insert(0) += 1;
        }
    }
    m
}

/// `(tp, n)` of a prediction against its best reference, or `None` when every `n` is 0.
fn gleu_counts(references: &[Vec<String>], prediction: &[String]) -> Option<(usize, usize)> {
    let hyp = ngrams(prediction);
    let tpfp: usize = hyp.values().sum();
    let mut best: Option<(usize, usize)> = None;
    for r in references {
        let reference = ngrams(r);
        let tpfn: usize = reference.values().sum();
        let tp: usize = reference
            .iter()
            .map(|(g, c)| (*c).min(hyp.get(g).copied().unwrap_or(0)))
            .sum();
        let n = tpfp.max(tpfn);
        if n == 0 {
            continue;
        }
        // The first reference with the highest ratio (Python's max keeps the first).
        let better = match best {
            None => true,
            Some((btp, bn)) => (tp as f64 / n as f64) > (btp as f64 / bn as f64),
        };
        if better {
            best = Some((tp, n));
        }
    }
    best
}

/// Corpus GLEU: each item a prediction and its references (texts, tokenised with `13a`).
pub fn corpus_google_bleu<'a, I>(items: I) -> f64
where
    I: IntoIterator<Item = (&'a str, &'a [&'a str])>,
{
    let (mut tp, mut n) = (0usize, 0usize);
    for (prediction, references) in items {
        let refs: Vec<Vec<String>> = references.iter().map(|r| tokenize_13a(r)).collect();
        if let Some((t, a)) = gleu_counts(&refs, &tokenize_13a(prediction)) {
            tp += t;
            n += a;
        }
    }
    if n == 0 {
        0.0
    } else {
        tp as f64 / n as f64
    }
}

/// Sentence GLEU of a prediction against one reference.
pub fn google_bleu(reference: &str, prediction: &str) -> f64 {
    corpus_google_bleu([(prediction, &[reference][..])])
}

/// ExactMatch on normalised query text: 1 when the two texts are equal after both are trimmed
/// and every run of whitespace is made one space (`collapse-ws`), else 0. Under the `canonical`
/// text variant the canonical forms are compared instead (when both parse).
pub fn exact_match(reference: &str, prediction: &str, variant: super::TextVariant) -> f64 {
    use super::text::{canonical, collapse_ws};
    if variant == super::TextVariant::Canonical {
        if let (Some(a), Some(b)) = (canonical(reference), canonical(prediction)) {
            return f64::from(u8::from(a == b));
        }
    }
    f64::from(u8::from(collapse_ws(reference) == collapse_ws(prediction)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirteen_a_splits_as_sacrebleu_does() {
        let t =
            tokenize_13a("MATCH (n:Person {name: 'Ann'})-[:KNOWS]->(m) RETURN m.age, 3.5, 1,000");
        assert_eq!(
            t.join(" "),
            "MATCH ( n : Person { name : 'Ann' } ) - [ : KNOWS ] - > ( m ) RETURN m . age , 3.5 , 1,000"
        );
        assert_eq!(
            tokenize_13a("x-\ny &amp; 1990-01"),
            ["xy", "&", "1990", "-", "01"]
        );
        assert!(tokenize_13a(" \u{1c}\t").is_empty());
        assert_eq!(
            tokenize_13a("v1.2-3 x.5"),
            ["v1.2", "-", "3", "x", ".", "5"]
        );
    }

    #[test]
    fn gleu_is_the_minimum_of_precision_and_recall() {
        // The metric card's example: 1/3 for "the cat sat on the mat" vs "the cat ate the mat".
        let s = google_bleu("the cat ate the mat", "the cat sat on the mat");
        assert!((s - 1.0 / 3.0).abs() < 1e-15, "{s}");
        assert_eq!(google_bleu("a b c", "a b c"), 1.0);
        assert_eq!(google_bleu("", ""), 0.0);
        assert_eq!(google_bleu("a", ""), 0.0);
        // Corpus: Σ tp / Σ n, not the mean.
        let c = corpus_google_bleu([("a b", &["a b"][..]), ("x", &["y"][..])]);
        assert!((c - 3.0 / 4.0).abs() < 1e-15);
        // The best of several references.
        let best = corpus_google_bleu([("a b", &["x y", "a b"][..])]);
        assert_eq!(best, 1.0);
    }

    #[test]
    fn exact_match_normalises_whitespace_or_compares_canonical_forms() {
        use crate::metrics::TextVariant;
        assert_eq!(
            exact_match(
                "MATCH (n)\n RETURN n",
                " MATCH (n) RETURN n ",
                TextVariant::Default
            ),
            1.0
        );
        assert_eq!(
            exact_match(
                "MATCH (n) RETURN n",
                "MATCH (m) RETURN m",
                TextVariant::Default
            ),
            0.0
        );
        assert_eq!(
            exact_match(
                "MATCH (n) RETURN n",
                "match (m) return m",
                TextVariant::Canonical
            ),
            1.0
        );
    }
}
