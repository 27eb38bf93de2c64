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
//! ASCII texts (nearly every query) take grape's own fast paths: Hyyrö's bit-parallel
//! Levenshtein after removing the common prefix and suffix, and a Jaro that finds the textbook
//! greedy matches with one pointer per byte value (linear time). Other texts go to the
//! `rapidfuzz` crate's bit-parallel algorithms over characters. Both are an order of magnitude
//! faster than the textbook dynamic programs; `tests/metrics_text.rs` checks them against
//! `strsim`.

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
    if a.is_ascii() && b.is_ascii() && a.len().max(b.len()) <= u16::MAX as usize {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        let sim = jaro_ascii(a, b);
        if sim > 0.7 {
            let prefix = a.iter().take(4).zip(b).take_while(|(x, y)| x == y).count();
            sim + 0.1 * prefix as f64 * (1.0 - sim)
        } else {
            sim
        }
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
            levenshtein_ascii(a.as_bytes(), b.as_bytes()),
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

thread_local! {
    /// Scratch space reused between calls: pattern bit masks for Levenshtein, positions for
    /// Jaro. Entries are cleared after use, so only the touched ones cost anything.
    static SCRATCH: std::cell::RefCell<(Vec<u64>, Vec<u32>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Levenshtein distance of two byte strings: common prefix and suffix removed, then Hyyrö's
/// bit-parallel algorithm (2003) over the shorter string, in one 64-bit word or in blocks of
/// words whose horizontal deltas carry from one word to the next. O(⌈m/64⌉·n).
fn levenshtein_ascii(a: &[u8], b: &[u8]) -> usize {
    let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[p..], &b[p..]);
    let s = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - s], &b[..b.len() - s]);
    let (pat, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let m = pat.len();
    if m == 0 {
        return text.len();
    }
    let step = hyyro_step;
    let last = 1u64 << ((m - 1) % 64);
    if m <= 64 {
        let mut peq = [0u64; 256];
        for (i, &c) in pat.iter().enumerate() {
            peq[c as usize] |= 1 << i;
        }
        let (mut vp, mut vn, mut dist) = (!0u64, 0u64, m);
        for &c in text {
            let (hp, hn, nvp, nvn) = step(peq[c as usize], vp, vn, 1, 0);
            dist = dist + (hp & last != 0) as usize - (hn & last != 0) as usize;
            vp = nvp;
            vn = nvn;
        }
        return dist;
    }
    let words = m.div_ceil(64);
    // Patterns of a few words (queries are mostly 65 to 512 characters): the vertical deltas
    // live in fixed arrays the compiler keeps in registers and unrolls over.
    match words {
        2 => return levenshtein_words::<2>(pat, text, last),
        3 => return levenshtein_words::<3>(pat, text, last),
        4 => return levenshtein_words::<4>(pat, text, last),
        5 => return levenshtein_words::<5>(pat, text, last),
        6 => return levenshtein_words::<6>(pat, text, last),
        7 => return levenshtein_words::<7>(pat, text, last),
        8 => return levenshtein_words::<8>(pat, text, last),
        _ => {}
    }
    SCRATCH.with(|cell| {
        let peq = &mut cell.borrow_mut().0;
        if peq.len() < 256 * words {
            peq.resize(256 * words, 0);
        }
        for (i, &c) in pat.iter().enumerate() {
            peq[c as usize * words + i / 64] |= 1 << (i % 64);
        }
        let (mut vp, mut vn) = (vec![!0u64; words], vec![0u64; words]);
        let mut dist = m;
        let lw = words - 1;
        for &c in text {
            let row = &peq[c as usize * words..(c as usize + 1) * words];
            // Row 0 of the distance matrix grows by one per column: +1 enters the first word.
            let (mut hp_carry, mut hn_carry) = (1u64, 0u64);
            for w in 0..lw {
                let (hp, hn, nvp, nvn) = step(row[w], vp[w], vn[w], hp_carry, hn_carry);
                hp_carry = hp >> 63;
                hn_carry = hn >> 63;
                vp[w] = nvp;
                vn[w] = nvn;
            }
            let (hp, hn, nvp, nvn) = step(row[lw], vp[lw], vn[lw], hp_carry, hn_carry);
            dist = dist + (hp & last != 0) as usize - (hn & last != 0) as usize;
            vp[lw] = nvp;
            vn[lw] = nvn;
        }
        for (i, &c) in pat.iter().enumerate() {
            peq[c as usize * words + i / 64] = 0;
        }
        dist
    })
}

/// One column step of Hyyrö's algorithm on a word: from its vertical deltas (vp, vn), its
/// pattern-match mask and the horizontal deltas entering at its bottom bit, the word's
/// horizontal deltas (before the shift) and its new vertical deltas.
#[inline(always)]
fn hyyro_step(pm: u64, vp: u64, vn: u64, hp_in: u64, hn_in: u64) -> (u64, u64, u64, u64) {
    let x = pm | hn_in;
    let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
    let hp = vn | !(d0 | vp);
    let hn = d0 & vp;
    let hp_s = (hp << 1) | hp_in;
    let hn_s = (hn << 1) | hn_in;
    (hp, hn, hn_s | !(d0 | hp_s), hp_s & d0)
}

/// [`levenshtein_ascii`]'s blocks for a pattern of exactly `W` words (65 to 64·W bytes);
/// `last` is the bit of the pattern's last byte in the last word.
fn levenshtein_words<const W: usize>(pat: &[u8], text: &[u8], last: u64) -> usize {
    BLOCKS.with(|cell| {
        let peq = &mut *cell.borrow_mut();
        for (i, &c) in pat.iter().enumerate() {
            peq[c as usize][i / 64] |= 1 << (i % 64);
        }
        let (mut vp, mut vn) = ([!0u64; W], [0u64; W]);
        let mut dist = pat.len();
        for &c in text {
            // Indexed by a byte: no bounds check.
            let row = &peq[c as usize];
            // Row 0 of the distance matrix grows by one per column: +1 enters the first word.
            let (mut hp_carry, mut hn_carry) = (1u64, 0u64);
            for w in 0..W - 1 {
                let (hp, hn, nvp, nvn) = hyyro_step(row[w], vp[w], vn[w], hp_carry, hn_carry);
                hp_carry = hp >> 63;
                hn_carry = hn >> 63;
                vp[w] = nvp;
                vn[w] = nvn;
            }
            let (hp, hn, nvp, nvn) =
                hyyro_step(row[W - 1], vp[W - 1], vn[W - 1], hp_carry, hn_carry);
            dist = dist + (hp & last != 0) as usize - (hn & last != 0) as usize;
            vp[W - 1] = nvp;
            vn[W - 1] = nvn;
        }
        for &c in pat {
            peq[c as usize][..W].fill(0);
        }
        dist
    })
}

thread_local! {
    /// The pattern-match masks of patterns of up to eight words, by byte: zero between calls
    /// (each call clears the rows it set).
    static BLOCKS: std::cell::RefCell<Box<[[u64; 8]; 256]>> =
        std::cell::RefCell::new(Box::new([[0; 8]; 256]));
}

/// Jaro similarity of two ASCII strings of at most 65,535 bytes, with exactly the matches and
/// transpositions of the textbook definition (`strsim`'s): each character of `a`, in order,
/// takes the first unmatched equal character of `b` within the window. Matching never crosses
/// byte values, and the windows only move right, so one pointer per byte value into that
/// byte's positions in `b` finds every match in O(|a| + |b|). The common prefix matches itself
/// and is skipped.
fn jaro_ascii(a: &[u8], b: &[u8]) -> f64 {
    let (la, lb) = (a.len(), b.len());
    if la == 0 && lb == 0 {
        return 1.0;
    }
    if la == 0 || lb == 0 {
        return 0.0;
    }
    let r = (la.max(lb) / 2).saturating_sub(1);
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    // b's positions after the prefix grouped by byte value, each group in increasing order:
    // group c is pos[start[c]..end[c]].
    let mut start = [0u16; 129];
    for &c in &b[pre..] {
        start[c as usize + 1] += 1;
    }
    for k in 0..128 {
        start[k + 1] += start[k];
    }
    let mut end = start;
    SCRATCH.with(|cell| {
        let pos = &mut cell.borrow_mut().1;
        if pos.len() < lb {
            pos.resize(lb, 0);
        }
        for (j, &c) in b.iter().enumerate().skip(pre) {
            pos[end[c as usize] as usize] = j as u32;
            end[c as usize] += 1;
        }
        let (mut fa, mut fb) = ([0u64; 16], [0u64; 16]);
        let (mut fa_vec, mut fb_vec);
        let (fa, fb): (&mut [u64], &mut [u64]) = if la <= 1024 && lb <= 1024 {
            (&mut fa[..la.div_ceil(64)], &mut fb[..lb.div_ceil(64)])
        } else {
            fa_vec = vec![0u64; la.div_ceil(64)];
            fb_vec = vec![0u64; lb.div_ceil(64)];
            (&mut fa_vec[..], &mut fb_vec[..])
        };
        let mut matches = pre;
        for (i, &c) in a.iter().enumerate().skip(pre) {
            let c = c as usize;
            let (mut p, e) = (start[c] as usize, end[c] as usize);
            // Positions left of the window never come back into it.
            while p < e && pos[p] as usize + r < i {
                p += 1;
            }
            if p < e && pos[p] as usize <= i + r {
                let j = pos[p] as usize;
                fa[i / 64] |= 1 << (i % 64);
                fb[j / 64] |= 1 << (j % 64);
                matches += 1;
                p += 1;
            }
            start[c] = p as u16;
        }
        if matches == 0 {
            return 0.0;
        }
        // Transpositions: the matched characters after the prefix, in order, pairwise.
        let mut t = 0usize;
        let (mut bw, mut bbits) = (0usize, fb[0]);
        for (w, &bits) in fa.iter().enumerate() {
            let mut abits = bits;
            while abits != 0 {
                let i = w * 64 + abits.trailing_zeros() as usize;
                abits &= abits - 1;
                while bbits == 0 {
                    bw += 1;
                    bbits = fb[bw];
                }
                let j = bw * 64 + bbits.trailing_zeros() as usize;
                bbits &= bbits - 1;
                t += (a[i] != b[j]) as usize;
            }
        }
        let (m, t) = (matches as f64, (t / 2) as f64);
        (m / la as f64 + m / lb as f64 + (m - t) / m) / 3.0
    })
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
