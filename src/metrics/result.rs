//! Execution-result metrics on two result tables, as `docs/METRICS.md` §2 defines them.
//!
//! Value canonicalisation: integers and floats compare as numbers (`1` equals `1.0`), floats after
//! rounding to 12 significant digits, NaN equals NaN; strings exactly; temporal values by their
//! ISO 8601 text; maps by key-sorted entries; lists in order (or sorted, in the unordered-lists
//! variant); nodes and relationships by identity in row metrics and expanded into their
//! property values in item metrics.
//!
//! - Items ([`item_scores`]): every cell flattened into atomic values (a node or relationship
//!   yields its property values, a path its elements', a map its values, a list its elements,
//!   recursively); `R` is the multiset of all items of all rows, tagged with the row index when
//!   the reference is ordered. Jaccard `|A∩B| / |A∪B|` (1 when both are empty) and Coverage
//!   `|A∩B| / |R_ref|` (when `R_ref` is empty: 1 if `R_gen` is empty, else 0), bag semantics.
//! - Rows ([`execution_accuracy`]): EX compares rows as tuples, ignoring column names and
//!   searching column permutations, as multisets (or sequences when the reference is ordered);
//!   EX-strict also requires equal sorted column names and ignores row order.
//! - [`pass_at_k`]: 1 when one of the first k candidates has Coverage 1.

use crate::engine::Table;
use crate::value::{Entities, Value};

/// A canonical, hashable value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Canon {
    Null,
    Bool(bool),
    /// A number as text: integers exactly, floats rounded to 12 significant digits (integral
    /// floats written as integers, so `1.0` equals `1`).
    Num(String),
    Str(String),
    List(Vec<Canon>),
    Map(Vec<(String, Canon)>),
    Node(u32),
    Rel(u32),
    Path(Vec<u32>, Vec<u32>),
    Temporal(String),
}

fn num_text(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    // Integral values below 1e11 have fewer than 12 significant digits: rounding keeps them.
    if f.fract() == 0.0 && f.abs() < 1.0e11 {
        return format!("{}", f as i64);
    }
    let rounded: f64 = format!("{f:.11e}").parse().unwrap_or(f);
    if rounded.fract() == 0.0 && rounded.abs() < 9.0e15 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded:e}")
    }
}

/// The canonical form of a value (nodes and relationships by identity).
pub fn canon(v: &Value, unordered_lists: bool) -> Canon {
    match v {
        Value::Null => Canon::Null,
        Value::Bool(b) => Canon::Bool(*b),
        Value::Int(i) => {
            if i.unsigned_abs() < 9_000_000_000_000_000 {
                Canon::Num(i.to_string())
            } else {
                Canon::Num(num_text(*i as f64))
            }
        }
        Value::Float(f) => Canon::Num(num_text(*f)),
        Value::String(s) => Canon::Str(s.to_string()),
        Value::List(items) => {
            let mut l: Vec<Canon> = items.iter().map(|x| canon(x, unordered_lists)).collect();
            if unordered_lists {
                l.sort();
            }
            Canon::List(l)
        }
        Value::Map(m) => Canon::Map(
            m.iter()
                .map(|(k, x)| (k.to_string(), canon(x, unordered_lists)))
                .collect(),
        ),
        Value::Node(n) => Canon::Node(n.0),
        Value::Relationship(r) => Canon::Rel(r.0),
        Value::Path(p) => Canon::Path(
            p.nodes.iter().map(|n| n.0).collect(),
            p.rels.iter().map(|r| r.0).collect(),
        ),
        Value::Temporal(t) => Canon::Temporal(t.to_string()),
        // Points compare as their text, which names the CRS and every coordinate.
        Value::Point(p) => Canon::Temporal(p.to_string()),
        // Byte arrays compare as their hexadecimal text (`0x…`).
        Value::Bytes(_) => Canon::Temporal(v.to_string()),
    }
}

/// Flattens a cell into atomic items (see the module docs).
fn items_of(v: &Value, e: &dyn Entities, out: &mut Vec<Canon>) {
    match v {
        Value::List(items) => items.iter().for_each(|x| items_of(x, e, out)),
        Value::Map(m) => m.values().for_each(|x| items_of(x, e, out)),
        Value::Node(n) => e.node_props(*n).values().for_each(|x| items_of(x, e, out)),
        Value::Relationship(r) => e.rel_props(*r).values().for_each(|x| items_of(x, e, out)),
        Value::Path(p) => {
            for (i, n) in p.nodes.iter().enumerate() {
                items_of(&Value::Node(*n), e, out);
                if let Some(r) = p.rels.get(i) {
                    items_of(&Value::Relationship(*r), e, out);
                }
            }
        }
        other => out.push(canon(other, false)),
    }
}

fn bag(t: &Table, ordered: bool) -> rustc_hash::FxHashMap<(usize, Canon), usize> {
    let mut m = rustc_hash::FxHashMap::default();
    let mut items = Vec::new();
    for (i, row) in t.rows.iter().enumerate() {
        for v in row {
            items_of(v, t, &mut items);
        }
        for it in items.drain(..) {
            *m.entry((if ordered { i } else { 0 }, it)).or_insert(0) += 1;
        }
    }
    m
}

/// Item-level Jaccard and Coverage of a generated result against a reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ItemScores {
    pub jaccard: f64,
    pub coverage: f64,
}

/// Jaccard and Coverage over items; `ordered` when the reference's final projection has
/// `ORDER BY` (items are then tagged with their row index).
pub fn item_scores(generated: &Table, reference: &Table, ordered: bool) -> ItemScores {
    let g = bag(generated, ordered);
    let r = bag(reference, ordered);
    let (mut inter, mut union) = (0usize, 0usize);
    for (k, &cr) in &r {
        let cg = g.get(k).copied().unwrap_or(0);
        inter += cr.min(cg);
        union += cr.max(cg);
    }
    for (k, &cg) in &g {
        if !r.contains_key(k) {
            union += cg;
        }
    }
    let ref_total: usize = r.values().sum();
    let gen_total: usize = g.values().sum();
    let jaccard = if union == 0 {
        1.0
    } else {
        inter as f64 / union as f64
    };
    let coverage = if ref_total == 0 {
        if gen_total == 0 {
            1.0
        } else {
            0.0
        }
    } else {
        inter as f64 / ref_total as f64
    };
    ItemScores { jaccard, coverage }
}

/// Pass@k: 1 when one of the first `k` candidates (`None`: failed to run) has Coverage 1.
pub fn pass_at_k(coverages: &[Option<f64>], k: usize) -> f64 {
    if coverages.iter().take(k).any(|c| *c == Some(1.0)) {
        1.0
    } else {
        0.0
    }
}

/// Row-level execution accuracy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowScores {
    /// EX: column names ignored, column order searched, rows as multisets (sequences when the
    /// reference is ordered).
    pub ex: f64,
    /// EX-strict: sorted column names equal, columns aligned by name, row order ignored.
    pub ex_strict: f64,
}

fn rows_canon(t: &Table, cols: &[usize], unordered_lists: bool) -> Vec<Vec<Canon>> {
    t.rows
        .iter()
        .map(|r| {
            cols.iter()
                .map(|&c| canon(&r[c], unordered_lists))
                .collect()
        })
        .collect()
}

fn same_rows<K: Eq + std::hash::Hash>(a: &[Vec<K>], b: &[Vec<K>], ordered: bool) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if ordered {
        return a == b;
    }
    // Multiset equality by counting: O(rows) with hashing.
    let mut counts: rustc_hash::FxHashMap<&[K], isize> = rustc_hash::FxHashMap::default();
    for r in a {
        *counts.entry(r.as_slice()).or_insert(0) += 1;
    }
    for r in b {
        match counts.get_mut(r.as_slice()) {
            Some(c) if *c > 0 => *c -= 1,
            _ => return false,
        }
    }
    true
}

/// Whether some permutation of the generated rows' columns makes them equal the reference rows
/// (as multisets, or as sequences when `ordered`). Both tables have `n` columns; rows are
/// given as keys.
pub(crate) fn permuted_equal<K: Clone + Ord + std::hash::Hash>(
    generated: &[Vec<K>],
    reference: &[Vec<K>],
    n: usize,
    ordered: bool,
) -> bool {
    if generated.len() != reference.len() {
        return false;
    }
    // Column signatures (sorted multisets of values) prune the search.
    fn sig<K: Ord>(rows: &[Vec<K>], c: usize) -> Vec<&K> {
        let mut v: Vec<&K> = rows.iter().map(|r| &r[c]).collect();
        v.sort();
        v
    }
    let ref_sigs: Vec<Vec<&K>> = (0..n).map(|c| sig(reference, c)).collect();
    let gen_sigs: Vec<Vec<&K>> = (0..n).map(|c| sig(generated, c)).collect();
    let candidates: Vec<Vec<usize>> = (0..n)
        .map(|rc| (0..n).filter(|&gc| gen_sigs[gc] == ref_sigs[rc]).collect())
        .collect();
    let mut perm = Vec::with_capacity(n);
    let mut used = vec![false; n];
    let mut tries = 0usize;
    fn search(
        i: usize,
        candidates: &[Vec<usize>],
        perm: &mut Vec<usize>,
        used: &mut [bool],
        tries: &mut usize,
        check: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if i == candidates.len() {
            *tries += 1;
            return check(perm);
        }
        if *tries > 50_000 {
            return false;
        }
        for &c in &candidates[i] {
            if used[c] {
                continue;
            }
            used[c] = true;
            perm.push(c);
            if search(i + 1, candidates, perm, used, tries, check) {
                return true;
            }
            perm.pop();
            used[c] = false;
        }
        false
    }
    let mut check = |p: &[usize]| {
        let g: Vec<Vec<K>> = generated
            .iter()
            .map(|r| p.iter().map(|&c| r[c].clone()).collect())
            .collect();
        same_rows(&g, reference, ordered)
    };
    search(0, &candidates, &mut perm, &mut used, &mut tries, &mut check)
}

/// Searches a permutation of the generated columns that makes its rows equal the reference's.
fn permutation_matches(
    generated: &Table,
    reference: &Table,
    ordered: bool,
    unordered_lists: bool,
) -> bool {
    let n = reference.columns.len();
    if generated.columns.len() != n || generated.rows.len() != reference.rows.len() {
        return false;
    }
    let all: Vec<usize> = (0..n).collect();
    permuted_equal(
        &rows_canon(generated, &all, unordered_lists),
        &rows_canon(reference, &all, unordered_lists),
        n,
        ordered,
    )
}

/// EX and EX-strict of a generated result against a reference.
pub fn execution_accuracy(generated: &Table, reference: &Table, ordered: bool) -> RowScores {
    let ex = permutation_matches(generated, reference, ordered, false);
    let mut gn: Vec<&String> = generated.columns.iter().collect();
    let mut rn: Vec<&String> = reference.columns.iter().collect();
    gn.sort();
    rn.sort();
    let ex_strict = gn == rn && {
        let order: Vec<usize> = reference
            .columns
            .iter()
            .filter_map(|c| generated.columns.iter().position(|g| g == c))
            .collect();
        order.len() == reference.columns.len()
            && same_rows(
                &rows_canon(generated, &order, false),
                &rows_canon(
                    reference,
                    &(0..reference.columns.len()).collect::<Vec<_>>(),
                    false,
                ),
                false,
            )
    };
    RowScores {
        ex: if ex { 1.0 } else { 0.0 },
        ex_strict: if ex_strict { 1.0 } else { 0.0 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;

    fn table(g: &mut Graph, q: &str) -> Table {
        g.run(q, &Default::default()).unwrap()
    }

    fn people() -> Graph {
        Graph::from_cypher_script(
            "CREATE (:Person {name: 'Ann'}), (:Person {name: 'Bob'}), (:City {name: 'Oslo'})",
        )
        .unwrap()
    }

    #[test]
    fn returning_the_node_covers_returning_its_name() {
        // The evaluation guide's example: RETURN n covers RETURN n.name, but Jaccard < 1.
        let mut g = Graph::from_cypher_script("CREATE (:Person {name: 'Ann', age: 30})").unwrap();
        let reference = table(&mut g, "MATCH (n:Person) RETURN n.name");
        let generated = table(&mut g, "MATCH (n:Person) RETURN n");
        let s = item_scores(&generated, &reference, false);
        assert_eq!(s.coverage, 1.0);
        assert!((s.jaccard - 0.5).abs() < 1e-12);
    }

    #[test]
    fn numbers_compare_as_numbers_after_rounding() {
        let mut g = Graph::new();
        let a = table(&mut g, "RETURN 1 AS x, 0.1 + 0.2 AS y");
        let b = table(&mut g, "RETURN 1.0 AS a, 0.3 AS b");
        assert_eq!(execution_accuracy(&a, &b, false).ex, 1.0);
        assert_eq!(execution_accuracy(&a, &b, false).ex_strict, 0.0);
        assert_eq!(item_scores(&a, &b, false).jaccard, 1.0);
    }

    #[test]
    fn ex_searches_column_orders_and_respects_row_order_when_asked() {
        let mut g = people();
        let r = table(
            &mut g,
            "MATCH (p:Person) RETURN p.name AS n, 1 AS one ORDER BY n",
        );
        let swapped = table(
            &mut g,
            "MATCH (p:Person) RETURN 1 AS k, p.name AS m ORDER BY m",
        );
        let reversed = table(
            &mut g,
            "MATCH (p:Person) RETURN p.name AS n, 1 AS one ORDER BY n DESC",
        );
        assert_eq!(execution_accuracy(&swapped, &r, true).ex, 1.0);
        assert_eq!(execution_accuracy(&reversed, &r, true).ex, 0.0);
        assert_eq!(execution_accuracy(&reversed, &r, false).ex, 1.0);
        assert_eq!(execution_accuracy(&reversed, &r, false).ex_strict, 1.0);
        // Duplicates count: a multiset, not a set.
        let twice = table(
            &mut g,
            "UNWIND [1, 2] AS i MATCH (p:Person) RETURN p.name AS n, 1 AS one",
        );
        assert_eq!(execution_accuracy(&twice, &r, false).ex, 0.0);
    }

    #[test]
    fn empty_results_and_pass_at_k() {
        let mut g = people();
        let empty = table(&mut g, "MATCH (x:Nobody) RETURN x");
        let some = table(&mut g, "MATCH (x:City) RETURN x.name");
        assert_eq!(
            item_scores(&empty, &empty, false),
            ItemScores {
                jaccard: 1.0,
                coverage: 1.0
            }
        );
        assert_eq!(item_scores(&some, &empty, false).coverage, 0.0);
        assert_eq!(execution_accuracy(&empty, &empty, false).ex, 1.0);
        assert_eq!(pass_at_k(&[Some(0.5), None, Some(1.0)], 2), 0.0);
        assert_eq!(pass_at_k(&[Some(0.5), None, Some(1.0)], 3), 1.0);
    }
}
