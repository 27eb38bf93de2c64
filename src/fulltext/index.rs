//! An inverted index over documents with named text fields, searched with [`Query`] and scored
//! as Lucene 9 (Neo4j 5's full-text indexes) scores: BM25 with `k1 = 1.2`, `b = 0.75`, document
//! lengths stored in Lucene's one-byte encoding, single-precision arithmetic.

use super::analyzer::{Analyzer, Token};
use super::query::{Occur, Query};
use std::collections::{BTreeMap, HashMap};

const K1: f32 = 1.2;
const B: f32 = 0.75;
/// How many terms a fuzzy query expands to at most (Lucene's default `maxExpansions`).
const FUZZY_EXPANSIONS: usize = 50;

/// Lucene's `SmallFloat.intToByte4`: a length in one byte, exact below 24, then with four
/// significant bits.
pub fn length_to_byte(len: u32) -> u8 {
    const FREE: u32 = 24;
    // Lucene's lengths are Java ints.
    let len = len.min(i32::MAX as u32);
    if len < FREE {
        return len as u8;
    }
    let i = u64::from(len - FREE);
    let bits = 64 - i.leading_zeros();
    let int4 = if bits < 4 {
        i as u32
    } else {
        let shift = bits - 4;
        (((i >> shift) as u32) & 0x07) | ((shift + 1) << 3)
    };
    (FREE + int4) as u8
}

/// Lucene's `SmallFloat.byte4ToInt`: the length a byte of [`length_to_byte`] stands for.
pub fn byte_to_length(b: u8) -> u32 {
    const FREE: u32 = 24;
    let i = u32::from(b);
    if i < FREE {
        return i;
    }
    let i = i - FREE;
    let bits = u64::from(i & 0x07);
    let shift = (i >> 3) as i64 - 1;
    let decoded = if shift < 0 {
        bits
    } else {
        (bits | 0x08) << shift
    };
    (u64::from(FREE) + decoded).min(u64::from(u32::MAX)) as u32
}

/// BM25's inverse document frequency, as Lucene computes it (in double, kept as a float).
fn idf(doc_freq: u64, doc_count: u64) -> f32 {
    let (df, n) = (doc_freq as f64, doc_count as f64);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32
}

#[derive(Default)]
struct Postings {
    docs: Vec<u32>,
    freqs: Vec<u32>,
    /// Where each document's positions start in `positions`.
    starts: Vec<u32>,
    positions: Vec<u32>,
}

impl Postings {
    fn positions_of(&self, i: usize) -> &[u32] {
        let s = self.starts[i] as usize;
        &self.positions[s..s + self.freqs[i] as usize]
    }
}

#[derive(Default)]
struct Field {
    terms: BTreeMap<Box<str>, Postings>,
    /// Per document, its encoded length in this field (0: none).
    norms: Vec<u8>,
    /// Documents with at least one term in the field.
    doc_count: u64,
    /// Terms in the field over all documents.
    sum_term_freq: u64,
}

impl Field {
    /// BM25's per-length factors `1 / (k1 · (1 − b + b · len / avgdl))` for this field.
    fn norm_cache(&self) -> Box<[f32; 256]> {
        let mut cache = Box::new([0.0f32; 256]);
        if self.doc_count == 0 {
            return cache;
        }
        let avgdl = (self.sum_term_freq as f64 / self.doc_count as f64) as f32;
        for (i, slot) in cache.iter_mut().enumerate() {
            let len = byte_to_length(i as u8) as f32;
            *slot = 1.0 / (K1 * ((1.0 - B) + B * len / avgdl));
        }
        cache
    }
}

/// Scored documents, ordered by document number.
type Hits = Vec<(u32, f32)>;

/// A full-text index: documents (each the caller's element id) with text in named fields.
pub struct Index {
    analyzer: Analyzer,
    names: Vec<String>,
    fields: Vec<Field>,
    elements: Vec<u64>,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("analyzer", &self.analyzer.name())
            .field("fields", &self.names)
            .field("documents", &self.elements.len())
            .finish()
    }
}

/// One result: the caller's element id and its score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    pub element: u64,
    pub score: f32,
}

impl Index {
    /// An empty index with these fields, analyzing with `analyzer`.
    pub fn new(analyzer: Analyzer, fields: Vec<String>) -> Index {
        let n = fields.len();
        Index {
            analyzer,
            names: fields,
            fields: (0..n).map(|_| Field::default()).collect(),
            elements: Vec::new(),
        }
    }

    /// The analyzer the index was built with.
    pub fn analyzer(&self) -> Analyzer {
        self.analyzer
    }

    /// The field names, in order.
    pub fn fields(&self) -> &[String] {
        &self.names
    }

    /// Documents in the index.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether the index has no documents.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// Adds the document `element`: for each field (in order), its text values (several for a
    /// list, which continue one another as one field).
    pub fn add(&mut self, element: u64, values: &[Vec<&str>]) {
        let doc = self.elements.len() as u32;
        self.elements.push(element);
        let mut tokens: Vec<Token> = Vec::new();
        for (f, field) in self.fields.iter_mut().enumerate() {
            tokens.clear();
            let mut pos = 0u32;
            for text in values.get(f).map(Vec::as_slice).unwrap_or_default() {
                pos = self.analyzer.analyze(text, pos, &mut tokens);
            }
            field.norms.push(length_to_byte(tokens.len() as u32));
            if tokens.is_empty() {
                continue;
            }
            field.doc_count += 1;
            field.sum_term_freq += tokens.len() as u64;
            let mut by_term: HashMap<&str, Vec<u32>> = HashMap::new();
            for t in &tokens {
                by_term.entry(t.text.as_str()).or_default().push(t.position);
            }
            for (term, positions) in by_term {
                let p = match field.terms.get_mut(term) {
                    Some(p) => p,
                    None => field.terms.entry(term.into()).or_default(),
                };
                p.docs.push(doc);
                p.freqs.push(positions.len() as u32);
                p.starts.push(p.positions.len() as u32);
                p.positions.extend(positions);
            }
        }
    }

    fn field(&self, name: &str) -> Option<&Field> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| &self.fields[i])
    }

    /// The documents matching `query`, best first (ties: the document added first), as
    /// Lucene scores them. `tick` is called as the work grows and may stop it.
    pub fn search<E>(
        &self,
        query: &Query,
        tick: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Vec<Hit>, E> {
        let mut hits = self.eval(query, 1.0, tick)?;
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(hits
            .into_iter()
            .map(|(doc, score)| Hit {
                element: self.elements[doc as usize],
                score,
            })
            .collect())
    }

    fn eval<E>(
        &self,
        q: &Query,
        boost: f32,
        tick: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Hits, E> {
        Ok(match q {
            Query::MatchAll => (0..self.elements.len() as u32)
                .map(|d| (d, boost))
                .collect(),
            Query::Term { field, term } => match self.field(field) {
                Some(f) => match f.terms.get(term.as_str()) {
                    Some(p) => {
                        let weight = boost * idf(p.docs.len() as u64, f.doc_count);
                        score_postings(f, p, weight, tick)?
                    }
                    None => Vec::new(),
                },
                None => Vec::new(),
            },
            Query::Phrase { field, terms, slop } => match self.field(field) {
                Some(f) => phrase(f, terms, *slop, boost, tick)?,
                None => Vec::new(),
            },
            Query::Prefix { field, prefix } => {
                self.constant(field, boost, tick, |t| t.starts_with(prefix.as_str()))?
            }
            Query::Wildcard { field, pattern } => {
                let pattern: Vec<Pat> = compile_wildcard(pattern);
                let least = pattern.iter().filter(|p| **p != Pat::Any).count();
                self.constant(field, boost, tick, |t| {
                    t.len() >= least && wildcard_match(&pattern, t)
                })?
            }
            Query::Regex { field, regex } => {
                self.constant(field, boost, tick, |t| regex.is_match(t))?
            }
            Query::Range {
                field,
                lower,
                upper,
                include_lower,
                include_upper,
            } => self.constant(field, boost, tick, |t| {
                let above = match lower {
                    None => true,
                    Some(l) if *include_lower => t >= l.as_str(),
                    Some(l) => t > l.as_str(),
                };
                let below = match upper {
                    None => true,
                    Some(u) if *include_upper => t <= u.as_str(),
                    Some(u) => t < u.as_str(),
                };
                above && below
            })?,
            Query::Fuzzy {
                field,
                term,
                max_edits,
                prefix_length,
            } => match self.field(field) {
                Some(f) => fuzzy(f, term, *max_edits, *prefix_length, boost, tick)?,
                None => Vec::new(),
            },
            Query::Boost(inner, b) => self.eval(inner, boost * b, tick)?,
            Query::Boolean(clauses) => self.boolean(clauses, boost, tick)?,
        })
    }

    /// Documents with a term of `field` that `matches`, each scoring `boost` (Lucene's
    /// constant-score rewrite of prefix, wildcard, regular-expression and range queries).
    fn constant<E>(
        &self,
        field: &str,
        boost: f32,
        tick: &mut dyn FnMut() -> Result<(), E>,
        matches: impl Fn(&str) -> bool,
    ) -> Result<Hits, E> {
        let Some(f) = self.field(field) else {
            return Ok(Vec::new());
        };
        let mut docs: Vec<u32> = Vec::new();
        for (i, (term, p)) in f.terms.iter().enumerate() {
            if i % 256 == 0 {
                tick()?;
            }
            if matches(term) {
                docs.extend_from_slice(&p.docs);
            }
        }
        docs.sort_unstable();
        docs.dedup();
        Ok(docs.into_iter().map(|d| (d, boost)).collect())
    }

    fn boolean<E>(
        &self,
        clauses: &[(Occur, Query)],
        boost: f32,
        tick: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Hits, E> {
        let mut must: Vec<Hits> = Vec::new();
        let mut should: Vec<Hits> = Vec::new();
        let mut not: Vec<Hits> = Vec::new();
        for (occur, q) in clauses {
            let hits = self.eval(q, boost, tick)?;
            match occur {
                Occur::Must => must.push(hits),
                Occur::Should => should.push(hits),
                Occur::MustNot => not.push(hits),
            }
        }
        tick()?;
        let excluded: std::collections::HashSet<u32> =
            not.iter().flatten().map(|(d, _)| *d).collect();
        let optional = sum_union(&should);
        let mut out: Hits = if must.is_empty() {
            optional
        } else {
            // Lucene: the required clauses' sum, then the optional ones' sum added to it.
            let required = sum_intersection(&must);
            let optional: HashMap<u32, f32> = optional.into_iter().collect();
            required
                .into_iter()
                .map(|(d, s)| match optional.get(&d) {
                    Some(o) => (d, s + o),
                    None => (d, s),
                })
                .collect()
        };
        if !excluded.is_empty() {
            out.retain(|(d, _)| !excluded.contains(d));
        }
        Ok(out)
    }
}

/// Scores every document of `p` for a term whose BM25 weight (boost · idf) is `weight`.
fn score_postings<E>(
    f: &Field,
    p: &Postings,
    weight: f32,
    tick: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Hits, E> {
    let cache = f.norm_cache();
    let mut out = Vec::with_capacity(p.docs.len());
    for (i, (&doc, &freq)) in p.docs.iter().zip(&p.freqs).enumerate() {
        if i % 4096 == 0 {
            tick()?;
        }
        out.push((
            doc,
            bm25(weight, freq as f32, cache[f.norms[doc as usize] as usize]),
        ));
    }
    Ok(out)
}

/// Lucene's BM25 score of a document: `weight − weight / (1 + freq · normInverse)`.
fn bm25(weight: f32, freq: f32, norm_inverse: f32) -> f32 {
    weight - weight / (1.0 + freq * norm_inverse)
}

/// The union of several scored lists, scores summed in double and kept as a float (Lucene's
/// disjunction).
fn sum_union(lists: &[Hits]) -> Hits {
    match lists.len() {
        0 => Vec::new(),
        1 => lists[0].clone(),
        _ => {
            let mut acc: BTreeMap<u32, f64> = BTreeMap::new();
            for list in lists {
                for (d, s) in list {
                    *acc.entry(*d).or_default() += f64::from(*s);
                }
            }
            acc.into_iter().map(|(d, s)| (d, s as f32)).collect()
        }
    }
}

/// The intersection of several scored lists, scores summed in double and kept as a float.
fn sum_intersection(lists: &[Hits]) -> Hits {
    let Some((first, rest)) = lists.split_first() else {
        return Vec::new();
    };
    if rest.is_empty() {
        return first.clone();
    }
    let maps: Vec<HashMap<u32, f32>> = rest.iter().map(|l| l.iter().copied().collect()).collect();
    first
        .iter()
        .filter_map(|(d, s)| {
            let mut sum = f64::from(*s);
            for m in &maps {
                sum += f64::from(*m.get(d)?);
            }
            Some((*d, sum as f32))
        })
        .collect()
}

/// A phrase: documents with every term at its relative position (within `slop` moves),
/// scored by BM25 of the phrase frequency with the sum of the terms' idf.
fn phrase<E>(
    f: &Field,
    terms: &[(String, u32)],
    slop: u32,
    boost: f32,
    tick: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Hits, E> {
    let mut lists: Vec<&Postings> = Vec::with_capacity(terms.len());
    for (t, _) in terms {
        match f.terms.get(t.as_str()) {
            Some(p) => lists.push(p),
            None => return Ok(Vec::new()),
        }
    }
    let idf_sum: f64 = lists
        .iter()
        .map(|p| f64::from(idf(p.docs.len() as u64, f.doc_count)))
        .sum();
    let weight = boost * idf_sum as f32;
    let cache = f.norm_cache();
    let base = terms.first().map_or(0, |t| t.1);
    let offsets: Vec<i64> = terms.iter().map(|(_, p)| i64::from(p - base)).collect();
    // Walk the first term's documents; find each in the other lists.
    let index: Vec<HashMap<u32, usize>> = lists
        .iter()
        .map(|p| p.docs.iter().enumerate().map(|(i, d)| (*d, i)).collect())
        .collect();
    let mut out = Vec::new();
    for (i0, &doc) in lists[0].docs.iter().enumerate() {
        if i0 % 1024 == 0 {
            tick()?;
        }
        let mut positions: Vec<&[u32]> = Vec::with_capacity(lists.len());
        for (k, p) in lists.iter().enumerate() {
            match index[k].get(&doc) {
                Some(&i) => positions.push(p.positions_of(i)),
                None => break,
            }
        }
        if positions.len() < lists.len() {
            continue;
        }
        let freq = phrase_freq(&positions, &offsets, slop);
        if freq > 0.0 {
            out.push((
                doc,
                bm25(weight, freq, cache[f.norms[doc as usize] as usize]),
            ));
        }
    }
    Ok(out)
}

/// The phrase frequency in one document: for an exact phrase the number of places it occurs;
/// for a sloppy one the sum of `1 / (distance + 1)` over its matches, where a match starts at an
/// occurrence of the first term and takes, for every other term, the occurrence nearest to its
/// place, and its distance is the spread of the terms' displacements.
fn phrase_freq(positions: &[&[u32]], offsets: &[i64], slop: u32) -> f32 {
    let mut freq = 0.0f32;
    for &p0 in positions[0] {
        let anchor = i64::from(p0);
        if slop == 0 {
            let all = positions.iter().zip(offsets).skip(1).all(|(ps, off)| {
                let want = anchor + off;
                want >= 0 && ps.binary_search(&(want as u32)).is_ok()
            });
            if all {
                freq += 1.0;
            }
            continue;
        }
        let (mut lo, mut hi) = (0i64, 0i64);
        for (ps, off) in positions.iter().zip(offsets).skip(1) {
            let want = anchor + off;
            // Positions ascend: the nearest is at the insertion point or just before it.
            let at = ps.partition_point(|&q| i64::from(q) < want);
            let nearest = [at.checked_sub(1), Some(at)]
                .into_iter()
                .flatten()
                .filter_map(|i| ps.get(i))
                .map(|&q| i64::from(q) - want)
                .min_by_key(|d| d.abs())
                .unwrap_or(i64::MAX / 4);
            lo = lo.min(nearest);
            hi = hi.max(nearest);
        }
        let distance = hi - lo;
        if distance <= i64::from(slop) {
            freq += 1.0 / (distance as f32 + 1.0);
        }
    }
    freq
}

/// A fuzzy term, as Lucene's blended rewrite scores it: up to 50 terms within `max_edits`,
/// each weighted by its similarity `1 − edits / min(len)`, all with the largest document
/// frequency among them.
fn fuzzy<E>(
    f: &Field,
    term: &str,
    max_edits: u32,
    prefix_length: u32,
    boost: f32,
    tick: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Hits, E> {
    let query: Vec<char> = term.chars().collect();
    let prefix: String = query.iter().take(prefix_length as usize).collect();
    let mut found: Vec<(f32, &str, &Postings)> = Vec::new();
    for (i, (t, p)) in f
        .terms
        .range::<str, _>((
            std::ops::Bound::Included(prefix.as_str()),
            std::ops::Bound::Unbounded,
        ))
        .enumerate()
    {
        if i % 1024 == 0 {
            tick()?;
        }
        if !t.starts_with(prefix.as_str()) {
            break;
        }
        let cand: Vec<char> = t.chars().collect();
        if cand.len().abs_diff(query.len()) > max_edits as usize {
            continue;
        }
        let ed = osa_distance(&query, &cand, max_edits as usize);
        let Some(ed) = ed else { continue };
        let shortest = cand.len().min(query.len()).max(1);
        let sim = 1.0f32 - ed as f32 / shortest as f32;
        found.push((sim, t, p));
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    found.truncate(FUZZY_EXPANSIONS);
    let max_df = found
        .iter()
        .map(|(_, _, p)| p.docs.len())
        .max()
        .unwrap_or(0) as u64;
    let mut lists = Vec::with_capacity(found.len());
    for (sim, _, p) in found {
        let weight = boost * sim * idf(max_df, f.doc_count);
        lists.push(score_postings(f, p, weight, tick)?);
    }
    Ok(sum_union(&lists))
}

/// The optimal-string-alignment distance (edits and adjacent transpositions) when it is at
/// most `max`.
fn osa_distance(a: &[char], b: &[char], max: usize) -> Option<usize> {
    let (n, m) = (a.len(), b.len());
    let mut prev2 = vec![0usize; m + 1];
    let mut prev: Vec<usize> = (0..=m).collect();
    let mut cur = vec![0usize; m + 1];
    for i in 1..=n {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    (prev[m] <= max).then_some(prev[m])
}

#[derive(Clone, Copy, PartialEq)]
enum Pat {
    Char(char),
    One,
    Any,
}

/// A wildcard pattern: `*` any run, `?` one character, `\x` the character `x`.
fn compile_wildcard(pattern: &str) -> Vec<Pat> {
    let mut out = Vec::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            '*' => Pat::Any,
            '?' => Pat::One,
            '\\' => Pat::Char(chars.next().unwrap_or('\\')),
            c => Pat::Char(c),
        });
    }
    out
}

/// Whether `text` matches the wildcard pattern (linear backtracking over the last `*`).
fn wildcard_match(pat: &[Pat], text: &str) -> bool {
    let t: Vec<char> = text.chars().collect();
    let (mut p, mut i) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while i < t.len() {
        match pat.get(p) {
            Some(Pat::Any) => {
                star = Some((p, i));
                p += 1;
            }
            Some(Pat::One) => {
                p += 1;
                i += 1;
            }
            Some(Pat::Char(c)) if *c == t[i] => {
                p += 1;
                i += 1;
            }
            _ => match star {
                Some((sp, si)) => {
                    p = sp + 1;
                    i = si + 1;
                    star = Some((sp, si + 1));
                }
                None => return false,
            },
        }
    }
    pat[p..].iter().all(|x| *x == Pat::Any)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fulltext::query::parse;

    fn index(docs: &[&[&str]], fields: &[&str]) -> Index {
        let mut ix = Index::new(
            Analyzer::StandardNoStopWords,
            fields.iter().map(|s| s.to_string()).collect(),
        );
        for (i, d) in docs.iter().enumerate() {
            let values: Vec<Vec<&str>> = d.iter().map(|v| vec![*v]).collect();
            ix.add(i as u64, &values);
        }
        ix
    }

    fn run(ix: &Index, q: &str) -> Vec<(u64, f32)> {
        let q = parse(q, ix.fields(), ix.analyzer()).unwrap();
        let mut tick = || Ok::<(), ()>(());
        ix.search(&q, &mut tick)
            .unwrap()
            .into_iter()
            .map(|h| (h.element, h.score))
            .collect()
    }

    #[test]
    fn small_float_lengths() {
        for len in 0..24 {
            assert_eq!(byte_to_length(length_to_byte(len)), len);
        }
        // Exact up to 40, then four significant bits of (len − 24), rounded down.
        for len in 24..=40 {
            assert_eq!(byte_to_length(length_to_byte(len)), len);
        }
        for (len, stored) in [(41, 40), (42, 42), (43, 42), (100, 96), (1000, 984)] {
            assert_eq!(byte_to_length(length_to_byte(len)), stored, "{len}");
        }
        assert_eq!(length_to_byte(u32::MAX), 255);
        let mut last = 0;
        for b in 0..=255u8 {
            let len = byte_to_length(b);
            assert!(len >= last);
            last = len;
            assert_eq!(length_to_byte(len), b, "byte {b}");
        }
    }

    #[test]
    fn bm25_as_lucene_computes_it() {
        // Three documents; "matrix" in two. docCount 3, df 2:
        // idf = ln(1 + (3 − 2 + 0.5) / (2 + 0.5)) = ln 1.6 = 0.47000363.
        let ix = index(
            &[&["The Matrix"], &["The Matrix Reloaded"], &["Top Gun"]],
            &["title"],
        );
        let got = run(&ix, "matrix");
        assert_eq!(got.len(), 2);
        let idf = (1.6f64).ln() as f32;
        let avgdl = (7.0f64 / 3.0) as f32;
        let score = |len: f32| {
            let inv = 1.0 / (K1 * ((1.0 - B) + B * len / avgdl));
            idf - idf / (1.0 + inv)
        };
        assert_eq!(got[0], (0, score(2.0)));
        assert_eq!(got[1], (1, score(3.0)));
        // The textbook formula in double precision agrees to float precision:
        // idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl)) / (k1 + 1).
        let textbook = |dl: f64| {
            let (k1, b, avgdl) = (1.2, 0.75, 7.0 / 3.0);
            1.6f64.ln() / (1.0 + k1 * (1.0 - b + b * dl / avgdl))
        };
        assert!(
            (f64::from(got[0].1) - textbook(2.0)).abs() < 1e-6,
            "{}",
            got[0].1
        );
        assert!(
            (f64::from(got[1].1) - textbook(3.0)).abs() < 1e-6,
            "{}",
            got[1].1
        );
        assert!(got[0].1 > got[1].1, "the shorter title scores higher");
    }

    #[test]
    fn boolean_queries_sum_and_filter() {
        let ix = index(
            &[
                &["the matrix", "neo fights agents"],
                &["matrix reloaded", "neo returns"],
                &["top gun", "maverick flies"],
            ],
            &["title", "plot"],
        );
        let ids = |q: &str| run(&ix, q).into_iter().map(|h| h.0).collect::<Vec<_>>();
        // Document 1's plot is shorter: it ranks first.
        assert_eq!(ids("matrix AND neo"), [1, 0]);
        assert_eq!(ids("matrix -reloaded"), [0]);
        assert_eq!(ids("NOT matrix"), Vec::<u64>::new());
        assert_eq!(ids("*:* NOT matrix"), [2]);
        assert_eq!(ids("plot:neo"), [1, 0]);
        assert_eq!(ids("title:neo"), Vec::<u64>::new());
        assert_eq!(ids("gun OR flies"), [2]);
        // Both fields match: the sum of the two clauses beats one.
        let both = run(&ix, "returns reloaded");
        assert_eq!(both[0].0, 1);
        let one = run(&ix, "reloaded");
        assert!(both[0].1 > one[0].1);
        // A boost multiplies.
        let boosted = run(&ix, "reloaded^2");
        assert!((boosted[0].1 - 2.0 * one[0].1).abs() < 1e-6);
    }

    #[test]
    fn phrases_prefixes_wildcards_fuzzy_ranges() {
        let ix = index(
            &[
                &["the quick brown fox"],
                &["brown quick fox"],
                &["quick red fox jumps"],
                &["slow brown dog"],
            ],
            &["t"],
        );
        let ids = |q: &str| run(&ix, q).into_iter().map(|h| h.0).collect::<Vec<_>>();
        assert_eq!(ids("\"quick brown\""), [0]);
        // An exact occurrence counts 1, one a move away 1/2; equal scores keep document order.
        assert_eq!(ids("\"quick fox\"~1"), [1, 0, 2]);
        assert_eq!(ids("\"quick fox\""), [1]);
        assert_eq!(ids("br*"), [0, 1, 3]);
        assert!(run(&ix, "br*").iter().all(|h| h.1 == 1.0), "constant score");
        assert_eq!(ids("b?own"), [0, 1, 3]);
        assert_eq!(ids("*ox"), [0, 1, 2]);
        assert_eq!(ids("qick~1"), [1, 0, 2]);
        assert_eq!(ids("fxo~1"), [1, 0, 2], "a transposition is one edit");
        assert_eq!(ids("fxo~0"), Vec::<u64>::new());
        assert_eq!(ids("[dog TO fox]"), [0, 1, 2, 3]);
        assert_eq!(ids("{dog TO fox}"), Vec::<u64>::new());
        assert_eq!(ids("/j.*s/"), [2]);
    }

    #[test]
    fn wildcards_and_edit_distance() {
        let pat = compile_wildcard("a*b?c");
        assert!(wildcard_match(&pat, "axxbyc"));
        assert!(wildcard_match(&pat, "abyc"));
        assert!(!wildcard_match(&pat, "abc"));
        assert!(wildcard_match(&compile_wildcard("*"), ""));
        assert!(wildcard_match(&compile_wildcard("a\\*"), "a*"));
        assert!(!wildcard_match(&compile_wildcard("a\\*"), "ab"));
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(osa_distance(&c("matrix"), &c("matrx"), 2), Some(1));
        assert_eq!(osa_distance(&c("ab"), &c("ba"), 2), Some(1));
        assert_eq!(osa_distance(&c("matrix"), &c("xyz"), 2), None);
    }
}
