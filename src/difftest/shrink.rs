//! A difference's minimal reproduction: the statement on a graph as small as the search can make
//! it, where grape and the reference still differ in the same way.
//!
//! The search is delta debugging over the graph's nodes (Zeller's ddmin): the nodes are split
//! into chunks, and the graph induced by all nodes but one chunk (with every relationship
//! between the nodes kept, and the original's indexes and constraints) replaces the reference's
//! data — emptied, then pushed — whenever the statement still differs on it, with the same kind
//! of difference; the chunks grow finer until no single node can go, or the budget of tries runs
//! out. Each try is one push and one run on each side, so the budget bounds the cost on a large
//! graph. The result is the small graph, and a Cypher script that creates it, with the statement:
//! what a bug report needs.
//!
//! Node ids of the small graph are new (both sides number from their own start): a difference that
//! hangs on node ids rather than data may shrink to another one of the same kind.

use super::{run_case, Case, DiffKind, Reference, Verdict};
use crate::backend::push::{clear, push, PushOptions};
use crate::backend::Backend;
use crate::engine::Options;
use crate::graph::Graph;
use crate::value::{NodeId, RelId, Value};
use serde::Serialize;
use std::collections::HashMap;

/// How a difference reproduces on a small graph.
#[derive(Clone, Debug, Serialize)]
pub struct Reproduction {
    pub nodes: usize,
    pub relationships: usize,
    /// Tries made (each a push and a run on both sides).
    pub tries: usize,
    /// A Cypher script that creates the graph (with its indexes and constraints first).
    pub script: String,
}

/// Why a search could not run.
#[derive(Debug, thiserror::Error)]
pub enum ShrinkError {
    #[error("the reference could not be loaded: {0}")]
    Push(#[from] crate::backend::push::PushError),
    #[error("the statement does not differ on the whole graph: nothing to shrink")]
    NoDifference,
}

/// The graph induced by `keep` (in `g`'s node order): the nodes, every relationship between
/// them, and `g`'s indexes and constraints.
pub fn induced(g: &Graph, keep: &[NodeId]) -> Graph {
    induced_with(g, keep, None)
}

/// [`induced`], with only the relationships in `rels` when it is given.
fn induced_with(g: &Graph, keep: &[NodeId], rels: Option<&[RelId]>) -> Graph {
    let mut out = Graph::new();
    let _ = out.update_schema(|s| {
        *s = g.schema().clone();
        true
    });
    let mut map: HashMap<NodeId, NodeId> = HashMap::with_capacity(keep.len());
    for &n in keep {
        let labels: Vec<std::sync::Arc<str>> = g.labels(n);
        let labels: Vec<&str> = labels.iter().map(|l| &**l).collect();
        let props = g.node_properties(n);
        let props: Vec<(&str, Value)> = props.iter().map(|(k, v)| (&**k, v.clone())).collect();
        map.insert(n, out.add_node(&labels, props));
    }
    let all: Vec<RelId>;
    let rels = match rels {
        Some(rs) => rs,
        None => {
            all = g.relationship_ids().collect();
            &all
        }
    };
    for &r in rels {
        let Some((a, b)) = g.endpoints(r) else {
            continue;
        };
        let (Some(&a), Some(&b)) = (map.get(&a), map.get(&b)) else {
            continue;
        };
        let Some(ty) = g.rel_type(r) else {
            continue;
        };
        let props = g.relationship_properties(r);
        let props: Vec<(&str, Value)> = props.iter().map(|(k, v)| (&**k, v.clone())).collect();
        let _ = out.add_relationship(a, b, &ty, props);
    }
    out
}

/// Whether `case` differs on `g` with a difference of `kind`, the reference loaded with `g`.
fn differs_on<D: Backend + Reference>(
    g: &Graph,
    case: &Case,
    kind: &DiffKind,
    db: &D,
    opts: &Options,
) -> Result<bool, ShrinkError> {
    clear(db)?;
    push(g, db, &PushOptions::default())?;
    let mut g = g.clone();
    Ok(matches!(
        run_case(&mut g, opts, db, case).verdict,
        Verdict::Differs(d) if d.kind == *kind
    ))
}

/// Shrinks the graph `case` differs on (a difference of `kind`), with at most `budget` tries.
/// The reference holds the last graph tried when it returns: push the whole graph again to go
/// on with it.
pub fn shrink<D: Backend + Reference>(
    graph: &Graph,
    case: &Case,
    kind: &DiffKind,
    db: &D,
    opts: &Options,
    budget: usize,
) -> Result<Reproduction, ShrinkError> {
    let mut keep: Vec<NodeId> = graph.node_ids().collect();
    let mut tries = 1;
    if !differs_on(graph, case, kind, db, opts)? {
        return Err(ShrinkError::NoDifference);
    }
    // An empty graph first: many differences need no data at all.
    if tries < budget {
        tries += 1;
        if differs_on(&induced(graph, &[]), case, kind, db, opts)? {
            keep.clear();
        }
    }
    keep = ddmin(keep, &mut tries, budget, &mut |rest| {
        differs_on(&induced(graph, rest), case, kind, db, opts)
    })?;
    // Then the relationships between the nodes kept.
    let rels: Vec<RelId> = graph
        .relationship_ids()
        .filter(|r| {
            graph
                .endpoints(*r)
                .is_some_and(|(a, b)| keep.contains(&a) && keep.contains(&b))
        })
        .collect();
    let rels = ddmin(rels, &mut tries, budget, &mut |rest| {
        differs_on(
            &induced_with(graph, &keep, Some(rest)),
            case,
            kind,
            db,
            opts,
        )
    })?;
    let small = induced_with(graph, &keep, Some(&rels));
    Ok(Reproduction {
        nodes: small.node_count(),
        relationships: small.relationship_count(),
        tries,
        script: script(&small),
    })
}

/// Zeller's ddmin: the smallest subset of `items` the search finds for which `test` holds
/// (it holds for `items`), removing chunks that grow finer, down to single items and the empty
/// set; at most `budget` tries in all (`tries` counts them).
fn ddmin<T: Copy>(
    mut items: Vec<T>,
    tries: &mut usize,
    budget: usize,
    test: &mut dyn FnMut(&[T]) -> Result<bool, ShrinkError>,
) -> Result<Vec<T>, ShrinkError> {
    let mut chunks = 2usize;
    while items.len() >= 2 && *tries < budget {
        let size = items.len().div_ceil(chunks);
        let mut reduced = false;
        for start in (0..items.len()).step_by(size) {
            if *tries >= budget {
                break;
            }
            let rest: Vec<T> = items[..start]
                .iter()
                .chain(&items[(start + size).min(items.len())..])
                .copied()
                .collect();
            *tries += 1;
            if test(&rest)? {
                items = rest;
                chunks = (chunks - 1).max(2);
                reduced = true;
                break;
            }
        }
        if !reduced {
            if chunks >= items.len() {
                break;
            }
            chunks = (chunks * 2).min(items.len());
        }
    }
    // A last single item can go too, where nothing is needed.
    if items.len() == 1 && *tries < budget {
        *tries += 1;
        if test(&[])? {
            items.clear();
        }
    }
    Ok(items)
}

/// A Cypher script that creates `g`: its schema statements, then one `CREATE` of every node and
/// relationship (a property with no literal form, a byte array, is left out and said so).
pub fn script(g: &Graph) -> String {
    let mut out: Vec<String> = crate::engine::schema_statements(g)
        .into_iter()
        .map(|s| format!("{s};"))
        .collect();
    let mut parts = Vec::new();
    let mut names: HashMap<NodeId, String> = HashMap::new();
    let mut left_out = Vec::new();
    for (i, n) in g.node_ids().enumerate() {
        let name = format!("n{i}");
        let labels: String = g
            .labels(n)
            .iter()
            .map(|l| format!(":{}", quote_name(l)))
            .collect();
        let props = properties(&g.node_properties(n), &mut left_out);
        parts.push(format!("({name}{labels}{props})"));
        names.insert(n, name);
    }
    for r in g.relationship_ids() {
        let (Some((a, b)), Some(ty)) = (g.endpoints(r), g.rel_type(r)) else {
            continue;
        };
        let props = properties(&g.relationship_properties(r), &mut left_out);
        parts.push(format!(
            "({})-[:{}{props}]->({})",
            names[&a],
            quote_name(&ty),
            names[&b]
        ));
    }
    if !parts.is_empty() {
        out.push(format!("CREATE {};", parts.join(",\n       ")));
    }
    if !left_out.is_empty() {
        out.push(format!(
            "// left out (no Cypher literal): {}",
            left_out.join(", ")
        ));
    }
    out.join("\n")
}

fn quote_name(s: &str) -> String {
    let mut out = String::new();
    crate::syntax::write_name(&mut out, s);
    out
}

fn properties(
    props: &std::collections::BTreeMap<std::sync::Arc<str>, Value>,
    left_out: &mut Vec<String>,
) -> String {
    let mut items = Vec::new();
    for (k, v) in props {
        match literal(v) {
            Some(l) => items.push(format!("{}: {l}", quote_name(k))),
            None => left_out.push(k.to_string()),
        }
    }
    if items.is_empty() {
        String::new()
    } else {
        format!(" {{{}}}", items.join(", "))
    }
}

/// A value as a Cypher literal that evaluates to it (`None` for a byte array or an entity).
pub fn literal(v: &Value) -> Option<String> {
    use crate::temporal::Temporal;
    Some(match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) if *i == i64::MIN => "-9223372036854775807 - 1".into(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) if f.is_nan() => "0.0 / 0.0".into(),
        Value::Float(f) if f.is_infinite() => {
            if *f > 0.0 { "1.0 / 0.0" } else { "-1.0 / 0.0" }.into()
        }
        Value::Float(f) => {
            let t = crate::value::java_double_string(*f);
            if t.starts_with('-') {
                format!("({t})")
            } else {
                t
            }
        }
        Value::String(s) => {
            let mut out = String::new();
            crate::syntax::write_string_literal(&mut out, s);
            out
        }
        Value::List(xs) => {
            let items: Option<Vec<String>> = xs.iter().map(literal).collect();
            format!("[{}]", items?.join(", "))
        }
        Value::Map(m) => {
            let items: Option<Vec<String>> = m
                .iter()
                .map(|(k, v)| Some(format!("{}: {}", quote_name(k), literal(v)?)))
                .collect();
            format!("{{{}}}", items?.join(", "))
        }
        Value::Point(p) => p.to_string(),
        Value::Temporal(t) => {
            let f = match &**t {
                Temporal::Date(_) => "date",
                Temporal::LocalTime(_) => "localtime",
                Temporal::Time(..) => "time",
                Temporal::LocalDateTime(_) => "localdatetime",
                Temporal::DateTime(..) => "datetime",
                Temporal::Duration(_) => "duration",
            };
            let mut text = String::new();
            crate::syntax::write_string_literal(&mut text, &t.to_neo4j_string());
            format!("{f}({text})")
        }
        Value::Bytes(_) | Value::Node(_) | Value::Relationship(_) | Value::Path(_) => return None,
    })
}
