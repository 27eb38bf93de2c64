//! The vectors of a vector index as Neo4j 5.26's `vector-2.0` index holds them: Lucene 9.11's
//! HNSW format with scalar quantization (`vector.quantization.enabled`, on by default), whose
//! scores `db.index.vector.queryNodes` returns.
//!
//! Lucene quantizes each segment on its own. A segment is written per committed transaction
//! that changed the index (and one by the index's population); its quantizer takes the lower
//! and upper quantiles of the segment's vector components (confidence `max(0.9, 1 − 1/(d+1))`,
//! over chunks of 20 vectors, averaged) and maps every component to 7 bits, with a corrective
//! offset per vector. A search quantizes the query with each segment's quantizer and scores
//! the integer dot product (or squared distance) with those corrections — so a vector's own
//! score is not always 1.0, and close vectors can swap places, exactly as on Neo4j. A vector
//! changed or removed leaves its segment (Lucene deletes the document); the segment keeps its
//! quantiles.
//!
//! Not modelled: Lucene's background segment merges (after about ten segments, timed by
//! Neo4j's merge scheduler, so not deterministic on Neo4j either), and the random sample a
//! segment of more than 25,000 vectors takes its quantiles from (grape uses every chunk).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::schema::{EntityType, IndexDef};
use super::store::Graph;
use crate::syntax::IndexKind;
use crate::value::{NodeId, RelId, Value};

/// Lucene's vectors per quantile chunk (`ScalarQuantizer.SCRATCH_SIZE`).
const CHUNK: usize = 20;
/// The bits of a quantized component (Lucene99ScalarQuantizedVectorsFormat's default).
const BITS: u32 = 7;

/// Whether the index quantizes its vectors (a 5.26 vector index whose
/// `vector.quantization.enabled` is not false).
pub(crate) fn quantized(index: &IndexDef) -> bool {
    index.kind == IndexKind::Vector
        && !matches!(
            index.config.get("vector.quantization.enabled"),
            Some(Value::Bool(false)) | None
        )
}

/// Whether the graph keeps Lucene's segments and document order for the index (every vector
/// index: the order of documents decides the order of tied results).
pub(crate) fn tracked(index: &IndexDef) -> bool {
    index.kind == IndexKind::Vector
}

/// Whether the index compares by cosine (the default) rather than Euclidean distance.
pub(crate) fn is_cosine(index: &IndexDef) -> bool {
    !matches!(
        index.config.get("vector.similarity_function").and_then(|v| v.as_str()),
        Some(s) if s.eq_ignore_ascii_case("euclidean")
    )
}

/// The vector `v` holds, or `None` when the index leaves the element out: not a non-empty
/// list of finite numbers, another dimension than the index has, non-finite in single
/// precision, or (cosine) without direction.
pub(crate) fn index_vector(index: &IndexDef, v: &Value) -> Option<Vec<f64>> {
    let Value::List(xs) = v else {
        return None;
    };
    if xs.is_empty() {
        return None;
    }
    if let Some(Value::Int(d)) = index.config.get("vector.dimensions") {
        if usize::try_from(*d).ok() != Some(xs.len()) {
            return None;
        }
    }
    let mut out = Vec::with_capacity(xs.len());
    for x in xs.iter() {
        let f = match x {
            Value::Int(i) => *i as f64,
            Value::Float(f) if f.is_finite() => *f,
            _ => return None,
        };
        if !(f as f32).is_finite() {
            return None;
        }
        out.push(f);
    }
    if is_cosine(index) && out.iter().all(|x| *x == 0.0) {
        return None;
    }
    Some(out)
}

/// Lucene's scalar dot product of two float32 vectors: fused multiply-adds, with four
/// accumulators over the leading multiple of four when the vectors are longer than 32.
pub(crate) fn lucene_dot(a: &[f32], b: &[f32]) -> f32 {
    let mut res = 0.0f32;
    let mut i = 0;
    if a.len() > 32 {
        let mut acc = [0.0f32; 4];
        let upper = a.len() & !3;
        while i < upper {
            for (j, slot) in acc.iter_mut().enumerate() {
                *slot = a[i + j].mul_add(b[i + j], *slot);
            }
            i += 4;
        }
        res += acc[0] + acc[1] + acc[2] + acc[3];
    }
    while i < a.len() {
        res = a[i].mul_add(b[i], res);
        i += 1;
    }
    res
}

/// The vector as the index stores it, in single precision: for cosine, Neo4j first scales it
/// to length 1 in double precision.
pub(crate) fn stored_vector(v: &[f64], cosine: bool) -> Vec<f32> {
    if cosine {
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let mut out: Vec<f32> = v.iter().map(|x| (x / norm) as f32).collect();
        // Lucene normalizes again (a no-op within 1e-5 of length 1).
        l2normalize(&mut out);
        out
    } else {
        v.iter().map(|x| *x as f32).collect()
    }
}

/// Lucene's `VectorUtil.l2normalize`: divides by the norm unless the vector is already of
/// length 1 within 1e-5.
fn l2normalize(v: &mut [f32]) {
    let l1 = f64::from(lucene_dot(v, v));
    if l1 == 0.0 || (l1 - 1.0).abs() <= 1e-5 {
        return;
    }
    let norm = l1.sqrt() as f32;
    for x in v.iter_mut() {
        *x /= norm;
    }
}

/// Java's `Math.round(float)` for the values quantization meets: half up, NaN to 0,
/// saturating at the int range.
fn java_round(x: f32) -> i32 {
    if x.is_nan() {
        0
    } else {
        (f64::from(x) + 0.5).floor() as i32
    }
}

/// Lucene's `ScalarQuantizer` (7 bits).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quantizer {
    min: f32,
    max: f32,
    scale: f32,
    alpha: f32,
}

impl Quantizer {
    fn new(min: f32, max: f32) -> Quantizer {
        let divisor = ((1u32 << BITS) - 1) as f32;
        Quantizer {
            min,
            max,
            scale: divisor / (max - min),
            alpha: (max - min) / divisor,
        }
    }

    /// The quantiles of a segment's vectors (`ScalarQuantizer.fromVectors`): per full chunk of
    /// `min(20, n)` vectors, the components at the confidence interval's edges, averaged.
    fn of_vectors(vectors: &[&[f32]]) -> Quantizer {
        let Some(first) = vectors.first() else {
            return Quantizer::new(0.0, 0.0);
        };
        let dim = first.len();
        let confidence = 0.9f32.max(1.0 - 1.0 / (dim + 1) as f32);
        let chunk = CHUNK.min(vectors.len());
        let (mut lower, mut upper, mut count) = (0f64, 0f64, 0u32);
        let mut scratch: Vec<f32> = Vec::with_capacity(chunk * dim);
        for group in vectors.chunks_exact(chunk) {
            scratch.clear();
            for v in group {
                scratch.extend_from_slice(v);
            }
            let (lo, up) = quantiles(&mut scratch, confidence);
            lower += f64::from(lo);
            upper += f64::from(up);
            count += 1;
        }
        Quantizer::new(
            (lower / f64::from(count)) as f32,
            (upper / f64::from(count)) as f32,
        )
    }

    /// Quantizes `v` into `out`; returns the vector's corrective offset (0 for Euclidean).
    fn quantize(&self, v: &[f32], out: &mut Vec<u8>, cosine: bool) -> f32 {
        out.clear();
        let mut correction = 0.0f32;
        for &x in v {
            let dx = x - self.min;
            let dxc = self.min.max(self.max.min(x)) - self.min;
            let dxs = self.scale * dxc;
            let q = java_round(dxs);
            let dxq = q as f32 * self.alpha;
            out.push(q as u8);
            correction += self.min * (x - self.min / 2.0) + (dx - dxq) * dxq;
        }
        if cosine {
            correction
        } else {
            0.0
        }
    }
}

/// The lower and upper quantile of `values` (`ScalarQuantizer.getUpperAndLowerQuantile`).
fn quantiles(values: &mut [f32], confidence: f32) -> (f32, f32) {
    let n = values.len();
    if n <= 2 {
        values.sort_by(f32::total_cmp);
        return (values[0], values[n - 1]);
    }
    let cut = (n as f32 * (1.0 - confidence) / 2.0 + 0.5) as usize;
    let (_, lo, _) = values.select_nth_unstable_by(cut, f32::total_cmp);
    let lo = *lo;
    let (_, up, _) = values.select_nth_unstable_by(n - cut - 1, f32::total_cmp);
    (lo, *up)
}

/// A vector in its segment: the float32 vector (to see a change), its quantized components
/// and corrective offset.
#[derive(Clone, Debug)]
struct Entry {
    segment: u32,
    /// The document's place in the index: segments in the order written, documents in the
    /// order indexed.
    doc: u64,
    raw: Box<[f32]>,
    bytes: Box<[u8]>,
    correction: f32,
}

/// One index's segments: the quantizer of each and the live vectors by element id.
#[derive(Clone, Debug, Default)]
struct IndexSegments {
    quantizers: Vec<Quantizer>,
    entries: BTreeMap<u32, Entry>,
    next_doc: u64,
}

impl IndexSegments {
    /// Writes a segment of `pending` (element id and vector, in the order they were indexed).
    fn add_segment(&mut self, pending: Vec<(u32, Vec<f64>)>, cosine: bool, quantize: bool) {
        if pending.is_empty() {
            return;
        }
        let stored: Vec<Vec<f32>> = pending
            .iter()
            .map(|(_, v)| stored_vector(v, cosine))
            .collect();
        let quantizer = if quantize {
            let refs: Vec<&[f32]> = stored.iter().map(Vec::as_slice).collect();
            Quantizer::of_vectors(&refs)
        } else {
            Quantizer::new(0.0, 0.0)
        };
        let segment = self.quantizers.len() as u32;
        self.quantizers.push(quantizer);
        let mut bytes = Vec::new();
        for ((id, raw), v) in pending.into_iter().zip(&stored) {
            let correction = if quantize {
                quantizer.quantize(v, &mut bytes, cosine)
            } else {
                0.0
            };
            let doc = self.next_doc;
            self.next_doc += 1;
            self.entries.insert(
                id,
                Entry {
                    segment,
                    doc,
                    raw: raw.iter().map(|x| *x as f32).collect(),
                    bytes: bytes.clone().into_boxed_slice(),
                    correction,
                },
            );
        }
    }

    /// Brings the element `id` (now holding `now`) up to date: an unchanged vector stays, a
    /// changed or new one joins `pending`, a removed one leaves.
    fn update(&mut self, id: u32, now: Option<Vec<f64>>, pending: &mut Vec<(u32, Vec<f64>)>) {
        match now {
            Some(v) => {
                let unchanged = self.entries.get(&id).is_some_and(|e| {
                    e.raw.len() == v.len() && e.raw.iter().zip(&v).all(|(a, b)| *a == *b as f32)
                });
                if unchanged {
                    return;
                }
                self.entries.remove(&id);
                if !pending.iter().any(|(p, _)| *p == id) {
                    pending.push((id, v));
                }
            }
            None => {
                self.entries.remove(&id);
                pending.retain(|(p, _)| *p != id);
            }
        }
    }
}

/// The segments of every quantized vector index of a graph (by index id).
#[derive(Clone, Debug, Default)]
pub(crate) struct VectorSegments {
    by_index: HashMap<i64, IndexSegments>,
}

/// The elements an index covers, in id order, with the vector each holds now.
fn indexed_now(g: &Graph, index: &IndexDef) -> Vec<(u32, Vec<f64>)> {
    let (Some(token), Some(key)) = (
        index.labels_or_types.first().and_then(|t| g.sym(t)),
        index.properties.first().and_then(|p| g.sym(p)),
    ) else {
        return Vec::new();
    };
    match index.entity {
        EntityType::Node => g
            .nodes_with_label(token)
            .iter()
            .filter_map(|n| {
                let v = g.node_property(*n, key)?;
                Some((n.0, index_vector(index, &v)?))
            })
            .collect(),
        EntityType::Relationship => g
            .relationship_ids()
            .filter(|r| g.relationship(*r).is_some_and(|d| d.ty == token))
            .filter_map(|r| {
                let v = g.relationship_property(r, key)?;
                Some((r.0, index_vector(index, &v)?))
            })
            .collect(),
    }
}

/// The vector element `id` holds now for `index`, if the index covers it.
fn vector_of(g: &Graph, index: &IndexDef, id: u32) -> Option<Vec<f64>> {
    let token = index.labels_or_types.first().and_then(|t| g.sym(t))?;
    let key = index.properties.first().and_then(|p| g.sym(p))?;
    let v = match index.entity {
        EntityType::Node => {
            let n = NodeId(id);
            if g.node(n).is_none_or(|d| !d.labels.contains(&token)) {
                return None;
            }
            g.node_property(n, key)?
        }
        EntityType::Relationship => {
            let r = RelId(id);
            if g.relationship(r).is_none_or(|d| d.ty != token) {
                return None;
            }
            g.relationship_property(r, key)?
        }
    };
    index_vector(index, &v)
}

impl VectorSegments {
    /// A transaction committed having touched `nodes` and `rels` (in the order it touched
    /// them): each quantized index writes a segment of its new and changed vectors; an index
    /// met for the first time is populated (one segment of all it covers); dropped indexes
    /// are forgotten.
    pub(crate) fn commit(&mut self, g: &Graph, nodes: &[NodeId], rels: &[RelId]) {
        let indexes: Vec<&IndexDef> = g.schema().indexes().iter().filter(|i| tracked(i)).collect();
        self.by_index
            .retain(|id, _| indexes.iter().any(|i| i.id == *id));
        for index in indexes {
            let (cosine, quantize) = (is_cosine(index), quantized(index));
            let Some(state) = self.by_index.get_mut(&index.id) else {
                let mut state = IndexSegments::default();
                state.add_segment(indexed_now(g, index), cosine, quantize);
                self.by_index.insert(index.id, state);
                continue;
            };
            let ids: Vec<u32> = match index.entity {
                EntityType::Node => nodes.iter().map(|n| n.0).collect(),
                EntityType::Relationship => rels.iter().map(|r| r.0).collect(),
            };
            let mut pending = Vec::new();
            for id in ids {
                state.update(id, vector_of(g, index, id), &mut pending);
            }
            state.add_segment(pending, cosine, quantize);
        }
    }

    /// Brings `index` up to date with the graph (changes made without a transaction journal
    /// form one segment) and returns what a search reads.
    pub(crate) fn snapshot(&mut self, g: &Graph, index: &IndexDef) -> IndexedVectors {
        let (cosine, quantize) = (is_cosine(index), quantized(index));
        let state = self.by_index.entry(index.id).or_default();
        let now = indexed_now(g, index);
        let mut pending = Vec::new();
        let live: std::collections::HashSet<u32> = now.iter().map(|(id, _)| *id).collect();
        state.entries.retain(|id, _| live.contains(id));
        for (id, v) in now {
            state.update(id, Some(v), &mut pending);
        }
        state.add_segment(pending, cosine, quantize);
        let mut ids = Vec::with_capacity(state.entries.len());
        let mut docs = Vec::with_capacity(state.entries.len());
        let mut raw = Vec::new();
        let mut segments = Vec::with_capacity(state.entries.len());
        let mut corrections = Vec::with_capacity(state.entries.len());
        let mut bytes = Vec::new();
        let mut dims = Vec::with_capacity(state.entries.len() + 1);
        dims.push(0);
        for (id, e) in &state.entries {
            ids.push(*id);
            docs.push(e.doc);
            raw.extend_from_slice(&e.raw);
            segments.push(e.segment);
            corrections.push(e.correction);
            bytes.extend_from_slice(&e.bytes);
            dims.push(raw.len());
        }
        IndexedVectors {
            cosine,
            quantized: quantize,
            quantizers: state.quantizers.clone().into(),
            ids,
            docs,
            raw,
            segments,
            corrections,
            bytes,
            starts: dims,
        }
    }
}

/// A vector index as a search reads it: each live vector's element, document order, vector,
/// segment, and (quantized) components and corrective offset.
#[derive(Debug)]
pub(crate) struct IndexedVectors {
    cosine: bool,
    pub(crate) quantized: bool,
    quantizers: Arc<[Quantizer]>,
    pub(crate) ids: Vec<u32>,
    pub(crate) docs: Vec<u64>,
    /// The float32 vectors, one after another (`starts` marks them for both layouts).
    raw: Vec<f32>,
    segments: Vec<u32>,
    corrections: Vec<f32>,
    bytes: Vec<u8>,
    starts: Vec<usize>,
}

/// A query quantized for each segment.
pub(crate) struct QuantizedQuery {
    per_segment: Vec<(Vec<u8>, f32, f32)>,
}

impl IndexedVectors {
    /// The `i`-th vector as the element holds it, in single precision.
    pub(crate) fn raw(&self, i: usize) -> &[f32] {
        &self.raw[self.starts[i]..self.starts[i + 1]]
    }

    /// The query as each segment quantizes it (cosine normalizes it first).
    pub(crate) fn prepare(&self, query: &[f64]) -> QuantizedQuery {
        let q = stored_vector(query, self.cosine);
        QuantizedQuery {
            per_segment: self
                .quantizers
                .iter()
                .map(|z| {
                    let mut bytes = Vec::new();
                    let correction = z.quantize(&q, &mut bytes, self.cosine);
                    (bytes, correction, z.alpha * z.alpha)
                })
                .collect(),
        }
    }

    /// The score of the `i`-th vector for `query` (`None` for a vector of another dimension):
    /// cosine `max((1 + dot·α² + offsets) / 2, 0)`, Euclidean `1 / (1 + squared distance·α²)`,
    /// at most 1 as Neo4j reports it.
    pub(crate) fn score(&self, i: usize, query: &QuantizedQuery) -> Option<f32> {
        let stored = &self.bytes[self.starts[i]..self.starts[i + 1]];
        let (q, q_correction, multiplier) = &query.per_segment[self.segments[i] as usize];
        if stored.len() != q.len() {
            return None;
        }
        let score = if self.cosine {
            let dot: i32 = stored
                .iter()
                .zip(q)
                .map(|(a, b)| i32::from(*a) * i32::from(*b))
                .sum();
            let adjusted = dot as f32 * multiplier + q_correction + self.corrections[i];
            ((1.0 + adjusted) / 2.0).max(0.0)
        } else {
            let d2: i32 = stored
                .iter()
                .zip(q)
                .map(|(a, b)| {
                    let d = i32::from(*a) - i32::from(*b);
                    d * d
                })
                .sum();
            1.0 / (1.0 + d2 as f32 * multiplier)
        };
        Some(score.min(1.0))
    }
}

/// Hits in the order Neo4j 5.26 returns them. Lucene hands the hits over in document order;
/// Neo4j's collector keeps them in a binary min-heap on score (`ScoredEntityPriorityQueue`)
/// and drains it into an array from the back, so distinct scores come out best first and
/// tied ones in the order the heap's sift-downs leave them (two tied hits: the later
/// document first).
pub(crate) fn neo4j_result_order<T>(hits: Vec<(f32, T)>) -> Vec<(f32, T)> {
    // 1-based heap: slot 0 unused.
    let mut heap: Vec<Option<(f32, T)>> = Vec::with_capacity(hits.len() + 1);
    heap.push(None);
    let score = |h: &[Option<(f32, T)>], i: usize| h[i].as_ref().map_or(f32::NAN, |x| x.0);
    // `a` sits below `b` in a min-heap when its score is greater.
    let subordinate = |h: &[Option<(f32, T)>], a: usize, b: usize| score(h, a) > score(h, b);
    for hit in hits {
        heap.push(Some(hit));
        let mut i = heap.len() - 1;
        while i > 1 {
            let parent = i >> 1;
            if !subordinate(&heap, parent, i) {
                break;
            }
            heap.swap(parent, i);
            i = parent;
        }
    }
    let mut size = heap.len() - 1;
    let mut out = Vec::with_capacity(size);
    while size > 0 {
        heap.swap(1, size);
        if let Some(top) = heap[size].take() {
            out.push(top);
        }
        size -= 1;
        let mut i = 1;
        loop {
            let mut child = i << 1;
            if child > size {
                break;
            }
            if child < size && subordinate(&heap, child, child + 1) {
                child += 1;
            }
            if !subordinate(&heap, i, child) {
                break;
            }
            heap.swap(i, child);
            i = child;
        }
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_order_statistics_inside_the_confidence_interval() {
        // 40 values, confidence 0.9: two cut from each end.
        let mut v: Vec<f32> = (0..40).rev().map(|x| x as f32).collect();
        assert_eq!(quantiles(&mut v, 0.9), (2.0, 37.0));
        let mut two = vec![3.0, -1.0];
        assert_eq!(quantiles(&mut two, 0.9), (-1.0, 3.0));
    }

    #[test]
    fn tied_hits_come_out_as_neo4js_heap_leaves_them() {
        let tied = |n: u32| (1..=n).map(|i| (1.0f32, i)).collect::<Vec<_>>();
        let ids = |v: Vec<(f32, u32)>| v.into_iter().map(|x| x.1).collect::<Vec<_>>();
        // Seen on Neo4j 5.26: nine tied nodes indexed in order come back 2…9, 1; two, 2, 1.
        assert_eq!(
            ids(neo4j_result_order(tied(9))),
            [2, 3, 4, 5, 6, 7, 8, 9, 1]
        );
        assert_eq!(ids(neo4j_result_order(tied(2))), [2, 1]);
        // Seen on Neo4j 5.26 (Euclidean, unquantized): hits scored 0.5, 0.99, 0.8, 0.99 in
        // document order.
        let mixed = vec![(0.5, 1), (0.99, 2), (0.8, 3), (0.99, 4)];
        assert_eq!(ids(neo4j_result_order(mixed)), [2, 4, 3, 1]);
    }

    #[test]
    fn a_constant_segment_quantizes_to_zero_as_lucene_does() {
        // max == min: the scale is infinite and every component rounds from NaN to 0.
        let z = Quantizer::new(2.0, 2.0);
        let mut out = Vec::new();
        z.quantize(&[2.0, 2.0], &mut out, false);
        assert_eq!(out, [0, 0]);
        assert_eq!(java_round(f32::NAN), 0);
        assert_eq!(java_round(2.5), 3);
    }
}
