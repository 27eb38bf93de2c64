//! Full-text search over a FULLTEXT index (`db.index.fulltext.queryNodes` /
//! `queryRelationships`) and the analyzers on offer (`db.index.fulltext.listAvailableAnalyzers`),
//! on [`crate::fulltext`].
//!
//! An index covers the nodes with any of its labels (the relationships of any of its types)
//! that have at least one of its properties as a STRING or a `LIST<STRING>`; each property is a
//! field, each string of a list a value of it. The index is built on its first search and kept
//! until the graph changes.

use super::error::{ErrorKind, ExecError, Result};
use crate::engine::Detail;
use crate::fulltext::{self, Analyzer};
use crate::graph::schema::IndexDef;
use crate::graph::{EntityType, Graph};
use crate::syntax::IndexKind;
use crate::value::{NodeId, RelId, Value};

fn failed(procedure: &str, cause: String) -> ExecError {
    ExecError::procedure_failed(procedure, cause)
}

/// The strings of a property value as a full-text index reads them.
fn texts(v: Option<&Value>) -> Vec<&str> {
    match v {
        Some(Value::String(s)) => vec![&**s],
        Some(Value::List(xs)) if xs.iter().all(|x| matches!(x, Value::String(_))) => {
            xs.iter().filter_map(Value::as_str).collect()
        }
        _ => Vec::new(),
    }
}

/// The analyzer an index was created with.
fn index_analyzer(index: &IndexDef) -> Analyzer {
    index
        .config
        .get("fulltext.analyzer")
        .and_then(Value::as_str)
        .and_then(Analyzer::by_name)
        .unwrap_or(Analyzer::StandardNoStopWords)
}

/// Builds the full-text index `index` over `g`.
fn build(
    g: &Graph,
    index: &IndexDef,
    tick: &mut dyn FnMut() -> Result<()>,
) -> Result<fulltext::Index> {
    let fields: Vec<String> = index.properties.iter().map(|p| p.to_string()).collect();
    let mut ix = fulltext::Index::new(index_analyzer(index), fields);
    let keys: Vec<_> = index.properties.iter().map(|p| g.sym(p)).collect();
    let tokens: Vec<_> = index
        .labels_or_types
        .iter()
        .filter_map(|t| g.sym(t))
        .collect();
    let add = |ix: &mut fulltext::Index, id: u32, props: Vec<Option<Value>>| {
        let values: Vec<Vec<&str>> = props.iter().map(|p| texts(p.as_ref())).collect();
        if values.iter().any(|v| !v.is_empty()) {
            ix.add(u64::from(id), &values);
        }
    };
    match index.entity {
        EntityType::Node => {
            let mut nodes: Vec<NodeId> = tokens
                .iter()
                .flat_map(|t| g.nodes_with_label(*t).iter().copied())
                .collect();
            nodes.sort_unstable();
            nodes.dedup();
            for (i, n) in nodes.into_iter().enumerate() {
                if i % 1024 == 0 {
                    tick()?;
                }
                add(
                    &mut ix,
                    n.0,
                    keys.iter()
                        .map(|k| k.and_then(|k| g.node_property(n, k)))
                        .collect(),
                );
            }
        }
        EntityType::Relationship => {
            let rels: Vec<RelId> = g.relationship_ids().collect();
            for (i, r) in rels.into_iter().enumerate() {
                if i % 1024 == 0 {
                    tick()?;
                }
                if g.relationship(r).is_some_and(|d| tokens.contains(&d.ty)) {
                    add(
                        &mut ix,
                        r.0,
                        keys.iter()
                            .map(|k| k.and_then(|k| g.relationship_property(r, k)))
                            .collect(),
                    );
                }
            }
        }
    }
    Ok(ix)
}

/// `db.index.fulltext.queryNodes(indexName, queryString [, options])` (`entity` = nodes) and
/// `queryRelationships`: the matching elements, best first, with their scores.
pub(crate) fn query_index(
    g: &Graph,
    procedure: &str,
    entity: EntityType,
    args: &[Value],
    tick: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<(Value, f64)>> {
    let (name, query, options) = match args {
        [n, q] => (n, q, None),
        [n, q, o] => (n, q, Some(o)),
        _ => {
            return Err(ExecError::compile(
                ErrorKind::SyntaxError,
                format!("{procedure} takes 2 or 3 arguments, got {}", args.len()),
            )
            .with_detail(Detail::InvalidNumberOfArguments))
        }
    };
    let name = name.as_str().unwrap_or_default();
    let index = g
        .schema()
        .indexes()
        .iter()
        .find(|i| &*i.name == name && i.kind == IndexKind::Fulltext && i.entity == entity)
        .ok_or_else(|| {
            failed(
                procedure,
                format!(
                    "java.lang.IllegalArgumentException: There is no such fulltext schema index: {name}"
                ),
            )
        })?;
    let text = match query {
        Value::String(s) => &**s,
        Value::Null => return Ok(Vec::new()),
        other => {
            return Err(failed(
                procedure,
                format!(
                    "java.lang.IllegalArgumentException: the query string must be a STRING, not {}",
                    crate::value::type_name(other)
                ),
            ))
        }
    };
    let (mut skip, mut limit, mut analyzer) = (0usize, usize::MAX, index_analyzer(index));
    match options {
        None | Some(Value::Null) => {}
        Some(Value::Map(m)) => {
            let count = |key: &str, v: &Value| -> Result<usize> {
                match v {
                    Value::Int(i) if *i >= 0 => Ok(*i as usize),
                    Value::Float(f) if *f >= 0.0 && f.is_finite() => Ok(*f as usize),
                    other => Err(failed(
                        procedure,
                        format!(
                            "java.lang.IllegalArgumentException: Invalid '{key}' option: {other}. It must be a non-negative number."
                        ),
                    )),
                }
            };
            for (k, v) in m.iter() {
                match &**k {
                    "skip" => skip = count("skip", v)?,
                    "limit" => limit = count("limit", v)?,
                    "analyzer" => {
                        let a = v.as_str().unwrap_or_default();
                        analyzer = Analyzer::by_name(a).ok_or_else(|| {
                            failed(
                                procedure,
                                format!(
                                    "java.lang.IllegalArgumentException: {}",
                                    fulltext::unknown_analyzer_message(a)
                                ),
                            )
                        })?;
                    }
                    _ => {}
                }
            }
        }
        Some(other) => {
            return Err(ExecError::runtime(
                ErrorKind::ArgumentError,
                format!(
                    "Type mismatch for parameter 'options': expected Map but was {}",
                    crate::value::type_name(other)
                ),
            ))
        }
    }
    let fields: Vec<String> = index.properties.iter().map(|p| p.to_string()).collect();
    let parsed = fulltext::parse(text, &fields, analyzer).map_err(|e| {
        failed(
            procedure,
            format!("org.apache.lucene.queryparser.classic.ParseException: {e}"),
        )
    })?;
    let ix = g.search_index(index.id, || build(g, index, tick))?;
    let hits = ix.search(&parsed, tick)?;
    Ok(hits
        .into_iter()
        .skip(skip)
        .take(limit)
        .map(|h| {
            let id = h.element as u32;
            let v = match entity {
                EntityType::Node => Value::Node(NodeId(id)),
                EntityType::Relationship => Value::Relationship(RelId(id)),
            };
            (v, f64::from(h.score))
        })
        .collect())
}

/// `db.index.fulltext.listAvailableAnalyzers()`: analyzer, description, stopwords.
pub(crate) fn analyzer_rows() -> Vec<Vec<Value>> {
    Analyzer::ALL
        .iter()
        .map(|a| {
            vec![
                Value::from(a.name()),
                Value::from(a.description()),
                Value::List(a.stop_words().iter().map(|w| Value::from(*w)).collect()),
            ]
        })
        .collect()
}
