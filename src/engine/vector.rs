//! Vector similarity as Neo4j's vector indexes and `vector.similarity.*` compute it, and exact
//! k-nearest-neighbour search over a VECTOR index (`db.index.vector.queryNodes` /
//! `queryRelationships`).
//!
//! Scores lie in [0, 1], higher is closer: cosine gives `(1 + cos θ) / 2`, Euclidean gives
//! `1 / (1 + d²)`. A vector is a non-empty list of finite numbers; for cosine it must also
//! have a non-zero norm (a zero vector has no direction, and Neo4j leaves it out of an index).
//! Search is exact: every indexed element is scored, so results are what an approximate
//! (HNSW) index returns at best; ties go to the element created first. The index keeps its
//! vectors as float32, as Neo4j's does, and scores them in single precision (so a search
//! returns a float widened to a double, where `vector.similarity.*` computes in double); the
//! vectors are gathered on the first search and kept until the graph changes.

use super::error::{ErrorKind, ExecError, Result};
use crate::engine::Detail;
use crate::graph::vectors::lucene_dot;
use crate::graph::{EntityType, Graph};
use crate::syntax::IndexKind;
use crate::value::{NodeId, RelId, Value};

/// The similarity functions of Neo4j's vector indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Similarity {
    Cosine,
    Euclidean,
}

impl Similarity {
    /// From an index's `vector.similarity_function` setting (`COSINE` by default).
    pub(crate) fn of_config(v: Option<&Value>) -> Similarity {
        match v.and_then(|v| v.as_str()) {
            Some(s) if s.eq_ignore_ascii_case("euclidean") => Similarity::Euclidean,
            _ => Similarity::Cosine,
        }
    }

    /// The score an index gives, in single precision as Lucene's vector functions compute it
    /// (the numbers a Neo4j server returns): cosine `max((1 + a·b / √(|a|²|b|²)) / 2, 0)`,
    /// Euclidean `1 / (1 + |a − b|²)`.
    pub(crate) fn score32(self, a: &[f32], b: &[f32]) -> f32 {
        match self {
            Similarity::Cosine => {
                let (mut dot, mut na, mut nb) = (0.0f32, 0.0f32, 0.0f32);
                for (x, y) in a.iter().zip(b) {
                    dot += x * y;
                    na += x * x;
                    nb += y * y;
                }
                let cos = (f64::from(dot) / (f64::from(na) * f64::from(nb)).sqrt()) as f32;
                ((1.0 + cos) / 2.0).max(0.0)
            }
            Similarity::Euclidean => {
                let d2: f32 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
                1.0 / (1.0 + d2)
            }
        }
    }

    /// The score of two vectors of one dimension; `None` where cosine is undefined.
    pub(crate) fn score(self, a: &[f64], b: &[f64]) -> Option<f64> {
        match self {
            Similarity::Cosine => {
                let (mut dot, mut na, mut nb) = (0.0, 0.0, 0.0);
                for (x, y) in a.iter().zip(b) {
                    dot += x * y;
                    na += x * x;
                    nb += y * y;
                }
                if na == 0.0 || nb == 0.0 || !na.is_finite() || !nb.is_finite() {
                    return None;
                }
                let cos = (dot / (na * nb).sqrt()).clamp(-1.0, 1.0);
                Some((1.0 + cos) / 2.0)
            }
            Similarity::Euclidean => {
                let d2: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
                d2.is_finite().then(|| 1.0 / (1.0 + d2))
            }
        }
    }
}

/// A value as a vector: a non-empty list of finite numbers.
pub(crate) fn as_vector(v: &Value) -> Option<Vec<f64>> {
    let Value::List(xs) = v else {
        return None;
    };
    if xs.is_empty() {
        return None;
    }
    xs.iter()
        .map(|x| match x {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) if f.is_finite() => Some(*f),
            _ => None,
        })
        .collect()
}

/// `vector.similarity.cosine(a, b)` / `vector.similarity.euclidean(a, b)`.
pub(crate) fn similarity_function(name: &str, sim: Similarity, args: &[Value]) -> Result<Value> {
    if args.len() != 2 {
        return Err(ExecError::compile(
            ErrorKind::SyntaxError,
            format!("{name}() takes 2 arguments, got {}", args.len()),
        )
        .with_detail(Detail::InvalidNumberOfArguments));
    }
    if args[0].is_null() || args[1].is_null() {
        return Ok(Value::Null);
    }
    let vector = |v: &Value| {
        as_vector(v).ok_or_else(|| {
            ExecError::runtime(
                ErrorKind::ArgumentError,
                format!(
                    "{name}() requires vectors: lists of finite numbers, not {}",
                    crate::value::type_name(v)
                ),
            )
        })
    };
    let (a, b) = (vector(&args[0])?, vector(&args[1])?);
    if a.len() != b.len() {
        return Err(ExecError::runtime(
            ErrorKind::ArgumentError,
            "The supplied vectors do not have the same number of dimensions.",
        ));
    }
    Ok(sim.score(&a, &b).map_or(Value::Null, Value::Float))
}

/// An element a vector index covers.
#[derive(Clone, Copy)]
enum Element {
    Node(NodeId),
    Rel(RelId),
}

fn procedure_failed(procedure: &str, cause: String) -> ExecError {
    ExecError::procedure_failed(
        procedure,
        format!("java.lang.IllegalArgumentException: {cause}"),
    )
}

/// The `k` elements of the vector index `index` nearest to `query`, with their scores, best
/// first: `db.index.vector.queryNodes` (`entity` = nodes) and `queryRelationships`.
pub(crate) fn query_index(
    g: &Graph,
    procedure: &str,
    entity: EntityType,
    args: &[Value],
    tick: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<(Value, f64)>> {
    let [name, k, query] = args else {
        return Err(ExecError::compile(
            ErrorKind::SyntaxError,
            format!("{procedure} takes 3 arguments, got {}", args.len()),
        )
        .with_detail(Detail::InvalidNumberOfArguments));
    };
    let name = name.as_str().unwrap_or_default();
    let index = g
        .schema()
        .indexes()
        .iter()
        .find(|i| &*i.name == name && i.kind == IndexKind::Vector && i.entity == entity)
        .ok_or_else(|| {
            procedure_failed(
                procedure,
                format!("There is no such vector schema index: {name}"),
            )
        })?;
    let k = match k {
        Value::Int(k) if *k >= 1 => *k as usize,
        other => {
            return Err(procedure_failed(
                procedure,
                format!(
                    "Invalid number of nearest neighbours: {other}. It must be a positive integer."
                ),
            ))
        }
    };
    let query = as_vector(query).ok_or_else(|| {
        procedure_failed(
            procedure,
            format!(
                "Index query vector must be a list of finite numbers, not {}",
                crate::value::type_name(query)
            ),
        )
    })?;
    let dims = match index.config.get("vector.dimensions") {
        Some(Value::Int(d)) => Some(*d as usize),
        _ => None,
    };
    if let Some(d) = dims {
        if d != query.len() {
            return Err(procedure_failed(
                procedure,
                format!(
                    "Index query vector has {} dimensions, but indexed vectors have {d}.",
                    query.len()
                ),
            ));
        }
    }
    let sim = Similarity::of_config(index.config.get("vector.similarity_function"));
    if sim == Similarity::Cosine && sim.score(&query, &query).is_none() {
        return Err(procedure_failed(
            procedure,
            "Index query vector is not valid for cosine similarity (its norm is zero).".into(),
        ));
    }
    let query32: Vec<f32> = query.iter().map(|x| *x as f32).collect();
    // Neo4j 5.26 scores the quantized vectors of each Lucene segment (or the float32 vectors
    // where quantization is off), takes the k best (ties to the earlier document) and returns
    // them in the order its collector's heap gives.
    let vectors = g.search_index(index.id, || Ok::<_, ExecError>(g.indexed_vectors(index)))?;
    let prepared = vectors.quantized.then(|| vectors.prepare(&query));
    let mut scored: Vec<(f32, u64, u32)> = Vec::with_capacity(vectors.ids.len());
    for (i, &id) in vectors.ids.iter().enumerate() {
        if i % 4096 == 0 {
            tick()?;
        }
        let score = match &prepared {
            Some(q) => vectors.score(i, q),
            // Elements whose vector has another dimension are not searched.
            None => {
                let v = vectors.raw(i);
                (v.len() == query32.len()).then(|| sim.score32(v, &query32))
            }
        };
        if let Some(score) = score {
            scored.push((score, vectors.docs[i], id));
        }
    }
    let best = |a: &(f32, u64, u32), b: &(f32, u64, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
    if scored.len() > k {
        scored.select_nth_unstable_by(k - 1, best);
        scored.truncate(k);
    }
    scored.sort_by_key(|h| h.1);
    let scored = crate::graph::vectors::neo4j_result_order(
        scored.into_iter().map(|(s, _, id)| (s, id)).collect(),
    );
    Ok(scored
        .into_iter()
        .map(|(score, id)| {
            let v = match entity {
                EntityType::Node => Value::Node(NodeId(id)),
                EntityType::Relationship => Value::Relationship(RelId(id)),
            };
            (v, f64::from(score))
        })
        .collect())
}

/// The vectors a vector index holds, as Neo4j's index holds them: float32, contiguous, with the
/// element each belongs to. Elements whose property is not a vector (or, for cosine, has no
/// direction) are not indexed; nor, when the index has a dimension, are vectors of another.
struct Vectors {
    ids: Vec<u32>,
    /// Where each vector starts in `data` (one more entry than `ids`).
    starts: Vec<usize>,
    data: Vec<f32>,
    /// For cosine, each vector scaled to length 1 in double precision and then stored as
    /// float32 (as Neo4j 2025+'s vector index keeps them; same layout as `data`).
    unit: Vec<f32>,
}

/// A vector scaled to length 1 in double precision, then narrowed to float32.
fn unit32(v: &[f64]) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.iter().map(|x| (x / norm) as f32).collect()
}

impl Vectors {
    fn build(
        g: &Graph,
        index: &crate::graph::IndexDef,
        sim: Similarity,
        tick: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Vectors> {
        let mut out = Vectors {
            ids: Vec::new(),
            starts: vec![0],
            data: Vec::new(),
            unit: Vec::new(),
        };
        let dims = match index.config.get("vector.dimensions") {
            Some(Value::Int(d)) => Some(*d as usize),
            _ => None,
        };
        let (Some(token), Some(key)) = (
            index.labels_or_types.first().and_then(|t| g.sym(t)),
            index.properties.first().and_then(|p| g.sym(p)),
        ) else {
            return Ok(out);
        };
        let elements: Vec<Element> = match index.entity {
            EntityType::Node => g
                .nodes_with_label(token)
                .iter()
                .map(|n| Element::Node(*n))
                .collect(),
            EntityType::Relationship => g
                .relationship_ids()
                .filter(|r| g.relationship(*r).is_some_and(|d| d.ty == token))
                .map(Element::Rel)
                .collect(),
        };
        for (i, el) in elements.into_iter().enumerate() {
            if i % 4096 == 0 {
                tick()?;
            }
            let (v, id) = match el {
                Element::Node(n) => (g.node_property(n, key), n.0),
                Element::Rel(r) => (g.relationship_property(r, key), r.0),
            };
            let Some(vector) = v.as_ref().and_then(as_vector) else {
                continue;
            };
            if dims.is_some_and(|d| d != vector.len()) {
                continue;
            }
            let v32: Vec<f32> = vector.iter().map(|x| *x as f32).collect();
            if sim == Similarity::Cosine && !v32.iter().any(|x| *x != 0.0) {
                continue;
            }
            if !v32.iter().all(|x| x.is_finite()) {
                continue;
            }
            out.ids.push(id);
            if sim == Similarity::Cosine {
                out.unit.extend(unit32(&vector));
            }
            out.data.extend_from_slice(&v32);
            out.starts.push(out.data.len());
        }
        Ok(out)
    }
}

/// The index a `SEARCH` clause names, checked as Neo4j checks it: it exists (`IndexNotFound`),
/// it is a vector index (`ArgumentError`), and it covers the kind of element the search
/// variable is (`TypeError`).
pub(crate) fn search_index_def<'g>(
    g: &'g Graph,
    name: &str,
    variable: &str,
    entity: EntityType,
) -> Result<&'g crate::graph::IndexDef> {
    let index = g
        .schema()
        .indexes()
        .iter()
        .find(|i| &*i.name == name)
        .ok_or_else(|| {
            ExecError::compile(
                ErrorKind::SemanticError,
                format!("22N69: The index '{name}' does not exist."),
            )
            .with_detail(Detail::IndexNotFound)
        })?;
    if index.kind != IndexKind::Vector {
        return Err(ExecError::compile(
            ErrorKind::ArgumentError,
            format!(
                "22NCG: Expected the index `{name}` to be a vector index but was a {} index.",
                index.kind.name().to_ascii_lowercase()
            ),
        ));
    }
    if index.entity != entity {
        let word = |e: EntityType| match e {
            EntityType::Node => "NODE",
            EntityType::Relationship => "RELATIONSHIP",
        };
        return Err(ExecError::compile(
            ErrorKind::TypeError,
            format!(
                "22N01: Expected the value `{variable}` to be of type {}, but was of type {}.",
                word(index.entity),
                word(entity)
            ),
        ));
    }
    Ok(index)
}

/// The `k` elements of `index` nearest to `query` among those `keep` accepts, best first, as
/// a `SEARCH` clause finds them; ties go to the element created first. A null query finds
/// nothing.
pub(crate) fn search(
    g: &Graph,
    index: &crate::graph::IndexDef,
    query: &Value,
    k: usize,
    keep: &mut dyn FnMut(Value) -> Result<bool>,
    tick: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<(Value, f64)>> {
    if query.is_null() {
        return Ok(Vec::new());
    }
    let invalid = || {
        let items = match query {
            Value::List(xs) => xs
                .iter()
                .map(super::apoc::java_value_text)
                .collect::<Vec<_>>()
                .join(", "),
            other => super::apoc::java_value_text(other),
        };
        ExecError::runtime(
            ErrorKind::ArgumentError,
            format!("Vector must only contain finite values, and have positive and finite l2-norm. Provided: List{{{items}}}"),
        )
    };
    let dims = match index.config.get("vector.dimensions") {
        Some(Value::Int(d)) => Some(*d as usize),
        _ => None,
    };
    if let (Some(d), Value::List(xs)) = (dims, query) {
        if xs.len() != d {
            return Err(ExecError::runtime(
                ErrorKind::TypeError,
                format!(
                    "Vector index '{}' has a configured dimensionality of {d}, but the provided vector has dimension {}.",
                    index.name,
                    xs.len()
                ),
            ));
        }
    }
    let query = as_vector(query).ok_or_else(invalid)?;
    let sim = Similarity::of_config(index.config.get("vector.similarity_function"));
    let norm: f64 = query.iter().map(|x| x * x).sum();
    if norm == 0.0 || !norm.is_finite() {
        return Err(invalid());
    }
    if k == 0 {
        return Ok(Vec::new());
    }
    let vectors = g.search_index(index.id, || Vectors::build(g, index, sim, tick))?;
    // Neo4j 2025+ keeps cosine vectors at unit length and scores them by Lucene's dot
    // product: `max((1 + a·b) / 2, 0)` in float32.
    let query32: Vec<f32> = match sim {
        Similarity::Cosine => unit32(&query),
        Similarity::Euclidean => query.iter().map(|x| *x as f32).collect(),
    };
    let mut scored: Vec<(f32, u32)> = Vec::with_capacity(vectors.ids.len());
    for (i, &id) in vectors.ids.iter().enumerate() {
        if i % 4096 == 0 {
            tick()?;
        }
        let (start, end) = (vectors.starts[i], vectors.starts[i + 1]);
        if end - start != query32.len() {
            continue;
        }
        let score = match sim {
            Similarity::Cosine => {
                ((1.0 + lucene_dot(&vectors.unit[start..end], &query32)) / 2.0).max(0.0)
            }
            Similarity::Euclidean => sim.score32(&vectors.data[start..end], &query32),
        };
        scored.push((score, id));
    }
    scored.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out = Vec::with_capacity(k.min(scored.len()));
    for (i, (score, id)) in scored.into_iter().enumerate() {
        if i % 4096 == 0 {
            tick()?;
        }
        let v = match index.entity {
            EntityType::Node => Value::Node(NodeId(id)),
            EntityType::Relationship => Value::Relationship(RelId(id)),
        };
        if keep(v.clone())? {
            out.push((v, f64::from(score)));
            if out.len() == k {
                break;
            }
        }
    }
    Ok(out)
}
