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
        .with_detail("InvalidNumberOfArguments"));
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
        .with_detail("InvalidNumberOfArguments"));
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
    let vectors = g.search_index(index.id, || Vectors::build(g, index, sim, tick))?;
    let query32: Vec<f32> = query.iter().map(|x| *x as f32).collect();
    let mut scored: Vec<(f32, u32)> = Vec::with_capacity(vectors.ids.len());
    for (i, &id) in vectors.ids.iter().enumerate() {
        if i % 4096 == 0 {
            tick()?;
        }
        let v = vectors.vector(i);
        // Elements whose vector has another dimension are not searched.
        if v.len() == query32.len() {
            scored.push((sim.score32(v, &query32), id));
        }
    }
    let order = |a: &(f32, u32), b: &(f32, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
    if scored.len() > k {
        scored.select_nth_unstable_by(k - 1, order);
        scored.truncate(k);
    }
    scored.sort_by(order);
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
}

impl Vectors {
    fn vector(&self, i: usize) -> &[f32] {
        &self.data[self.starts[i]..self.starts[i + 1]]
    }

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
            let Some(vector) = v.and_then(as_vector) else {
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
            out.data.extend_from_slice(&v32);
            out.starts.push(out.data.len());
        }
        Ok(out)
    }
}
