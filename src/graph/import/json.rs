//! The JSON fixture format, and the JSON encoding of values.
//!
//! A fixture:
//!
//! ```json
//! {
//!   "nodes": [
//!     {"id": 1, "labels": ["Person"], "properties": {"name": "Ann", "born": 1990}}
//!   ],
//!   "relationships": [
//!     {"id": 7, "start": 1, "end": 2, "type": "KNOWS", "properties": {"since": 2020}}
//!   ]
//! }
//! ```
//!
//! Node `id`s are any JSON scalars, unique among nodes; relationships refer to them with `start`
//! and `end` (their own `id` is optional). Property values use the value encoding below.
//!
//! Value encoding (also used for query results): null, booleans and strings as JSON; integers
//! without a decimal point and floats with one (`1` vs `1.0`); NaN and infinities as
//! `{"~float": "NaN"}` / `"Infinity"` / `"-Infinity"`; lists as arrays; maps as objects; a node
//! as `{"~node": {"id", "labels", "properties"}}`, a relationship as
//! `{"~rel": {"id", "type", "start", "end", "properties"}}`, a path as
//! `{"~path": [node, rel, node, …]}`; temporal values as their ISO text under `~date`,
//! `~localtime`, `~time`, `~localdatetime`, `~datetime` or `~duration`.

use super::ImportError;
use crate::graph::Graph;
use crate::value::{Entities, NodeId, RelId, Value};
use serde_json::{json, Map as JsonMap, Number, Value as Json};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Encodes a value as JSON; nodes, relationships and paths are expanded through `entities`.
pub fn value_to_json(v: &Value, entities: &dyn Entities) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::Number((*i).into()),
        Value::Float(f) => match Number::from_f64(*f) {
            Some(n) => Json::Number(n),
            None => json!({"~float": crate::value::format_float(*f)}),
        },
        Value::String(s) => Json::String(s.to_string()),
        Value::List(l) => Json::Array(l.iter().map(|x| value_to_json(x, entities)).collect()),
        Value::Map(m) => Json::Object(
            m.iter()
                .map(|(k, x)| (k.to_string(), value_to_json(x, entities)))
                .collect(),
        ),
        Value::Temporal(t) => {
            use crate::temporal::Temporal as T;
            let tag = match &**t {
                T::Date(_) => "~date",
                T::LocalTime(_) => "~localtime",
                T::Time(..) => "~time",
                T::LocalDateTime(_) => "~localdatetime",
                T::DateTime(..) => "~datetime",
                T::Duration(_) => "~duration",
            };
            let mut m = JsonMap::new();
            m.insert(tag.to_string(), Json::String(t.to_string()));
            Json::Object(m)
        }
        Value::Node(n) => node_json(*n, entities),
        Value::Relationship(r) => rel_json(*r, entities),
        Value::Path(p) => {
            let mut items = Vec::with_capacity(p.nodes.len() * 2);
            for (i, n) in p.nodes.iter().enumerate() {
                if i > 0 {
                    items.push(rel_json(p.rels[i - 1], entities));
                }
                items.push(node_json(*n, entities));
            }
            json!({ "~path": items })
        }
    }
}

fn props_json(props: &BTreeMap<Arc<str>, Value>, entities: &dyn Entities) -> Json {
    Json::Object(
        props
            .iter()
            .map(|(k, v)| (k.to_string(), value_to_json(v, entities)))
            .collect(),
    )
}

fn node_json(n: NodeId, entities: &dyn Entities) -> Json {
    let labels: Vec<String> = entities
        .node_labels(n)
        .iter()
        .map(|l| l.to_string())
        .collect();
    json!({"~node": {"id": n.0, "labels": labels, "properties": props_json(&entities.node_props(n), entities)}})
}

fn rel_json(r: RelId, entities: &dyn Entities) -> Json {
    let (start, end) = entities
        .rel_endpoints(r)
        .map(|(a, b)| (json!(a.0), json!(b.0)))
        .unwrap_or((Json::Null, Json::Null));
    json!({"~rel": {
        "id": r.0,
        "type": entities.rel_type(r).map(|t| t.to_string()),
        "start": start,
        "end": end,
        "properties": props_json(&entities.rel_props(r), entities),
    }})
}

/// Decodes a JSON property value. Nodes, relationships and paths are not property values and
/// are rejected; `path` names the place in the document for the error.
pub fn json_to_value(j: &Json, path: &str) -> Result<Value, String> {
    Ok(match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Int(i)
            } else if n.is_u64() {
                return Err(format!(
                    "{path}: integer {n} does not fit a 64-bit signed integer"
                ));
            } else {
                Value::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Json::String(s) => Value::String(Arc::from(s.as_str())),
        Json::Array(a) => Value::List(
            a.iter()
                .enumerate()
                .map(|(i, x)| json_to_value(x, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        Json::Object(o) => {
            if o.len() == 1 {
                if let Some(Json::String(s)) = o.get("~float") {
                    return match s.as_str() {
                        "NaN" => Ok(Value::Float(f64::NAN)),
                        "Infinity" => Ok(Value::Float(f64::INFINITY)),
                        "-Infinity" => Ok(Value::Float(f64::NEG_INFINITY)),
                        other => Err(format!("{path}: unknown ~float value {other:?}")),
                    };
                }
                if let Some((k, Json::String(text))) = o.iter().next() {
                    let parsed = match k.as_str() {
                        "~date" => Some(
                            crate::temporal::parse_date(text).map(crate::temporal::Temporal::Date),
                        ),
                        "~localtime" => Some(crate::temporal::parse_local_time_value(text)),
                        "~time" => Some(crate::temporal::parse_time(text)),
                        "~localdatetime" => Some(crate::temporal::parse_local_datetime(text)),
                        "~datetime" => Some(crate::temporal::parse_datetime(text)),
                        "~duration" => Some(
                            crate::temporal::parse_duration(text)
                                .map(crate::temporal::Temporal::Duration),
                        ),
                        _ => None,
                    };
                    if let Some(p) = parsed {
                        return p.map(Value::from).map_err(|e| format!("{path}: {e}"));
                    }
                }
                if let Some(k) = o.keys().next().filter(|k| k.starts_with('~')) {
                    return Err(format!("{path}: {k} values cannot be stored as properties"));
                }
            }
            let mut m = BTreeMap::new();
            for (k, x) in o {
                m.insert(
                    Arc::from(k.as_str()),
                    json_to_value(x, &format!("{path}.{k}"))?,
                );
            }
            Value::Map(m)
        }
    })
}

/// Reads a fixture file.
pub fn load_json_fixture(path: &std::path::Path) -> Result<Graph, ImportError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| ImportError::new(&file, None, format!("cannot read: {e}")))?;
    parse_json_fixture(&text, &file)
}

fn key_of(j: &Json) -> Option<String> {
    match j {
        Json::String(s) => Some(format!("s:{s}")),
        Json::Number(n) => Some(format!("n:{n}")),
        Json::Bool(b) => Some(format!("b:{b}")),
        _ => None,
    }
}

/// Parses fixture text; `file` names it in errors.
pub fn parse_json_fixture(text: &str, file: &str) -> Result<Graph, ImportError> {
    let doc: Json = serde_json::from_str(text).map_err(|e| {
        ImportError::new(
            file,
            Some(format!("line {}, column {}", e.line(), e.column())),
            format!("not valid JSON: {e}"),
        )
    })?;
    let err = |loc: String, msg: String| ImportError::new(file, Some(loc), msg);
    let obj = doc.as_object().ok_or_else(|| {
        err(
            "$".into(),
            "expected an object with `nodes` and `relationships`".into(),
        )
    })?;
    let empty = Vec::new();
    let nodes = match obj.get("nodes") {
        Some(Json::Array(a)) => a,
        None => &empty,
        Some(_) => return Err(err("$.nodes".into(), "expected an array".into())),
    };
    let rels = match obj.get("relationships") {
        Some(Json::Array(a)) => a,
        None => &empty,
        Some(_) => return Err(err("$.relationships".into(), "expected an array".into())),
    };
    let mut g = Graph::new();
    let mut ids: HashMap<String, NodeId> = HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        let loc = format!("$.nodes[{i}]");
        let o = n
            .as_object()
            .ok_or_else(|| err(loc.clone(), "expected an object".into()))?;
        let id = o
            .get("id")
            .and_then(key_of)
            .ok_or_else(|| err(loc.clone(), "missing or non-scalar `id`".into()))?;
        let labels: Vec<&str> = match o.get("labels") {
            None | Some(Json::Null) => vec![],
            Some(Json::Array(ls)) => ls
                .iter()
                .map(|l| {
                    l.as_str().ok_or_else(|| {
                        err(format!("{loc}.labels"), "labels must be strings".into())
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(err(format!("{loc}.labels"), "expected an array".into())),
        };
        let props = fixture_props(o.get("properties"), &format!("{loc}.properties"))
            .map_err(|m| err(loc.clone(), m))?;
        let props: Vec<(&str, Value)> =
            props.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        let nid = g.add_node(&labels, props);
        if ids.insert(id.clone(), nid).is_some() {
            return Err(err(loc, format!("duplicate node id {}", &id[2..])));
        }
    }
    for (i, r) in rels.iter().enumerate() {
        let loc = format!("$.relationships[{i}]");
        let o = r
            .as_object()
            .ok_or_else(|| err(loc.clone(), "expected an object".into()))?;
        let end_of = |k: &str| -> Result<NodeId, ImportError> {
            let key = o
                .get(k)
                .and_then(key_of)
                .ok_or_else(|| err(loc.clone(), format!("missing or non-scalar `{k}`")))?;
            ids.get(&key).copied().ok_or_else(|| {
                err(
                    loc.clone(),
                    format!("`{k}` refers to unknown node {}", &key[2..]),
                )
            })
        };
        let (start, end) = (end_of("start")?, end_of("end")?);
        let ty = o
            .get("type")
            .and_then(|t| t.as_str())
            .ok_or_else(|| err(loc.clone(), "missing string `type`".into()))?;
        let props = fixture_props(o.get("properties"), &format!("{loc}.properties"))
            .map_err(|m| err(loc.clone(), m))?;
        let props: Vec<(&str, Value)> =
            props.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        g.add_relationship(start, end, ty, props)
            .ok_or_else(|| err(loc, "endpoint missing".into()))?;
    }
    Ok(g)
}

fn fixture_props(j: Option<&Json>, path: &str) -> Result<Vec<(String, Value)>, String> {
    match j {
        None | Some(Json::Null) => Ok(vec![]),
        Some(Json::Object(o)) => o
            .iter()
            .map(|(k, v)| Ok((k.clone(), json_to_value(v, &format!("{path}.{k}"))?)))
            .collect(),
        Some(_) => Err(format!("{path}: expected an object")),
    }
}

/// Writes a graph as a fixture (node ids are the graph's element ids).
pub fn graph_to_json(g: &Graph) -> Json {
    let nodes: Vec<Json> = g
        .node_ids()
        .map(|n| {
            let labels: Vec<String> = g.labels(n).iter().map(|l| l.to_string()).collect();
            json!({"id": n.0, "labels": labels, "properties": props_json(&g.node_properties(n), g)})
        })
        .collect();
    let rels: Vec<Json> = g
        .relationship_ids()
        .filter_map(|r| {
            let (s, e) = g.endpoints(r)?;
            Some(json!({
                "id": r.0,
                "start": s.0,
                "end": e.0,
                "type": g.rel_type(r).map(|t| t.to_string()),
                "properties": props_json(&g.relationship_properties(r), g),
            }))
        })
        .collect();
    let mut m = JsonMap::new();
    m.insert("nodes".into(), Json::Array(nodes));
    m.insert("relationships".into(), Json::Array(rels));
    Json::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_round_trips_and_keeps_int_float_distinct() {
        let text = r#"{"nodes": [
            {"id": "a", "labels": ["Person"], "properties": {"name": "Ann", "n": 1, "x": 1.0, "nan": {"~float": "NaN"}, "tags": ["p", 2]}},
            {"id": "b", "labels": [], "properties": {}}
        ], "relationships": [{"start": "a", "end": "b", "type": "KNOWS", "properties": {"since": 2020}}]}"#;
        let g = parse_json_fixture(text, "t.json").unwrap();
        assert_eq!((g.node_count(), g.relationship_count()), (2, 1));
        let out = graph_to_json(&g);
        let g2 = parse_json_fixture(&out.to_string(), "out.json").unwrap();
        assert_eq!(graph_to_json(&g2), out);
        let props = &out["nodes"][0]["properties"];
        assert_eq!(props["n"].to_string(), "1");
        assert_eq!(props["x"].to_string(), "1.0");
        assert_eq!(props["nan"], json!({"~float": "NaN"}));
    }

    #[test]
    fn fixture_errors_name_the_record() {
        let e = parse_json_fixture(r#"{"nodes": [{"id": 1}, {"id": 1}]}"#, "f.json").unwrap_err();
        assert_eq!(e.to_string(), "f.json ($.nodes[1]): duplicate node id 1");
        let e = parse_json_fixture(
            r#"{"nodes": [{"id": 1}], "relationships": [{"start": 1, "end": 9, "type": "R"}]}"#,
            "f.json",
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("$.relationships[0]")
                && e.to_string().contains("unknown node 9")
        );
        let e = parse_json_fixture("{\"nodes\": [", "f.json").unwrap_err();
        assert!(e.to_string().contains("line 1"));
    }
}
