//! `apoc.meta.schema()` output, as mcp-neo4j-cypher's `get_neo4j_schema` tool returns it: a map
//! from each label and relationship type to an entry.
//!
//! ```json
//! {"Person": {"type": "node", "count": 2,
//!             "properties": {"name": {"type": "STRING", "indexed": false}},
//!             "relationships": {"KNOWS": {"direction": "out", "labels": ["Person"],
//!                                         "properties": {"since": {"type": "INTEGER"}}}}},
//!  "KNOWS": {"type": "relationship", "count": 1, "properties": {"since": {"type": "INTEGER"}}}}
//! ```
//!
//! Also accepted: the map wrapped as `{"value": …}` or as the records list `[{"value": …}]`.
//! Endpoint triples are read from each label's `relationships`: `direction: "out"` with
//! `labels: [B]` on label `A` is `(A)-[T]->(B)`; `"in"` is `(B)-[T]->(A)`. The writer records a
//! triple on its start label (as `out`) and, when that label has no `out` entry for the type
//! otherwise, on its end label (as `in`), so reading back gives the same triples.

use super::{
    parse_json, pretty, Element, Property, PropertyType, Schema, SchemaError, SchemaFormat, Triple,
    Written,
};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

const F: SchemaFormat = SchemaFormat::Apoc;

fn unwrap(v: &Value) -> Option<&Map<String, Value>> {
    match v {
        Value::Array(a) => a.first().and_then(unwrap),
        Value::Object(o) => match o.get("value") {
            Some(inner @ Value::Object(_)) if o.len() == 1 => unwrap(inner),
            _ => Some(o),
        },
        _ => None,
    }
}

pub(crate) fn looks_like(v: &Value) -> bool {
    unwrap(v).is_some_and(|m| {
        !m.is_empty()
            && m.values().all(|e| {
                matches!(
                    e.get("type").and_then(Value::as_str),
                    Some("node" | "relationship")
                )
            })
    })
}

fn props(v: Option<&Value>) -> BTreeMap<String, Property> {
    let mut out = BTreeMap::new();
    if let Some(Value::Object(m)) = v {
        for (k, p) in m {
            let ty = p
                .get("type")
                .and_then(Value::as_str)
                .map(PropertyType::parse)
                .unwrap_or(PropertyType::Any);
            out.insert(k.clone(), Property::new(ty));
        }
    }
    out
}

pub(crate) fn read(text: &str) -> Result<Schema, SchemaError> {
    let v = parse_json(F, text)?;
    let map = unwrap(&v).ok_or_else(|| SchemaError::invalid(F, "expected a JSON object"))?;
    let mut schema = Schema::default();
    for (name, entry) in map {
        let kind = entry.get("type").and_then(Value::as_str);
        match kind {
            Some("node") => {
                let node_props = props(entry.get("properties"));
                schema.labels.insert(
                    name.clone(),
                    Element {
                        description: None,
                        properties: node_props,
                    },
                );
                if let Some(Value::Object(rels)) = entry.get("relationships") {
                    for (t, r) in rels {
                        let others: Vec<&str> = r
                            .get("labels")
                            .and_then(Value::as_array)
                            .map(|a| a.iter().filter_map(Value::as_str).collect())
                            .unwrap_or_default();
                        let out = match r.get("direction").and_then(Value::as_str) {
                            Some("out") => true,
                            Some("in") => false,
                            other => {
                                return Err(SchemaError::invalid(
                                    F,
                                    format!(
                                        "`{name}`.relationships.`{t}`: direction must be \"out\" or \"in\", not {other:?}"
                                    ),
                                ))
                            }
                        };
                        for o in others {
                            schema.triples.insert(if out {
                                Triple::new(name, t, o)
                            } else {
                                Triple::new(o, t, name)
                            });
                        }
                        let rp = props(r.get("properties"));
                        if !rp.is_empty() {
                            let e = schema.relationship_types.entry(t.clone()).or_default();
                            for (k, p) in rp {
                                e.properties.entry(k).or_insert(p);
                            }
                        }
                    }
                }
            }
            Some("relationship") => {
                let e = schema.relationship_types.entry(name.clone()).or_default();
                for (k, p) in props(entry.get("properties")) {
                    e.properties.insert(k, p);
                }
            }
            _ => {
                return Err(SchemaError::invalid(
                    F,
                    format!("entry `{name}`: `type` must be \"node\" or \"relationship\""),
                ))
            }
        }
    }
    Ok(schema)
}

fn props_out(m: &BTreeMap<String, Property>) -> Value {
    let mut out = Map::new();
    for (k, p) in m {
        let ty = p.ty.to_string();
        let ty = if ty.starts_with("LIST") {
            "LIST".to_string()
        } else {
            ty
        };
        out.insert(
            k.clone(),
            json!({"type": ty, "indexed": false, "unique": false, "existence": false}),
        );
    }
    Value::Object(out)
}

pub(crate) fn write(schema: &Schema) -> Written {
    let mut warnings = Vec::new();
    if !schema.any_label_properties.is_empty() {
        warnings.push("properties declared for any label were copied onto every label".to_string());
    }
    if schema
        .labels
        .values()
        .chain(schema.relationship_types.values())
        .any(|e| e.description.is_some())
    {
        warnings.push("descriptions were dropped (the format has none)".to_string());
    }
    if schema
        .labels
        .values()
        .chain(schema.relationship_types.values())
        .flat_map(|e| e.properties.values())
        .chain(schema.any_label_properties.values())
        .any(|p| matches!(&p.ty, PropertyType::List(inner) if **inner != PropertyType::Any))
    {
        warnings.push("list element types were dropped (apoc writes LIST)".to_string());
    }
    if schema
        .labels
        .keys()
        .any(|l| schema.relationship_types.contains_key(l))
    {
        warnings.push(
            "a name is both a label and a relationship type; apoc's map keeps the label"
                .to_string(),
        );
    }
    let mut out = Map::new();
    for (t, e) in &schema.relationship_types {
        out.insert(
            t.clone(),
            json!({"type": "relationship", "properties": props_out(&e.properties)}),
        );
    }
    for label in schema.labels.keys() {
        let mut all = BTreeMap::new();
        for (k, p) in schema.label_properties(label) {
            all.insert(k.to_string(), p.clone());
        }
        // Per type: `out` when the label starts a triple of it, else `in`.
        let mut rels = Map::new();
        let types: BTreeSet<&str> = schema
            .triples
            .iter()
            .filter(|t| &t.start == label || &t.end == label)
            .map(|t| t.rel_type.as_str())
            .collect();
        for ty in types {
            let ends: Vec<&str> = schema
                .triples
                .iter()
                .filter(|t| t.rel_type == ty && &t.start == label)
                .map(|t| t.end.as_str())
                .collect();
            let rp = schema
                .relationship_types
                .get(ty)
                .map(|e| props_out(&e.properties))
                .unwrap_or_else(|| json!({}));
            if !ends.is_empty() {
                rels.insert(
                    ty.to_string(),
                    json!({"direction": "out", "labels": ends, "properties": rp}),
                );
            } else {
                let starts: Vec<&str> = schema
                    .triples
                    .iter()
                    .filter(|t| t.rel_type == ty && &t.end == label)
                    .map(|t| t.start.as_str())
                    .collect();
                rels.insert(
                    ty.to_string(),
                    json!({"direction": "in", "labels": starts, "properties": rp}),
                );
            }
        }
        out.insert(
            label.clone(),
            json!({"type": "node", "labels": [], "properties": props_out(&all), "relationships": rels}),
        );
    }
    Written {
        text: pretty(&Value::Object(out)),
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_apoc_meta_schema_in_every_wrapping() {
        let inner = r#"{"Person": {"type": "node", "count": 2, "labels": [],
              "properties": {"name": {"type": "STRING", "indexed": false, "unique": false, "existence": false}},
              "relationships": {"KNOWS": {"count": 1, "direction": "out", "labels": ["Person"], "properties": {"since": {"type": "INTEGER"}}},
                                "INVOLVED_IN": {"direction": "out", "labels": ["Crime"]}}},
            "Vehicle": {"type": "node", "properties": {}, "relationships": {"INVOLVED_IN": {"direction": "out", "labels": ["Crime"]}}},
            "Crime": {"type": "node", "properties": {"date": {"type": "DATE"}},
              "relationships": {"INVOLVED_IN": {"direction": "in", "labels": ["Person", "Vehicle"]}}},
            "KNOWS": {"type": "relationship", "count": 1, "properties": {"since": {"type": "INTEGER"}}}}"#;
        for text in [
            inner.to_string(),
            format!(r#"{{"value": {inner}}}"#),
            format!(r#"[{{"value": {inner}}}]"#),
        ] {
            let mut s = read(&text).unwrap();
            s.complete();
            assert!(s.has_triple("Person", "KNOWS", "Person"));
            assert!(s.has_triple("Vehicle", "INVOLVED_IN", "Crime"));
            assert!(s.has_triple("Person", "INVOLVED_IN", "Crime"));
            assert_eq!(s.triples.len(), 3);
            assert_eq!(
                s.relationship_property("KNOWS", "since").unwrap().ty,
                PropertyType::Integer
            );
            let mut again = read(&write(&s).text).unwrap();
            again.complete();
            assert_eq!(again, s);
        }
        assert!(read(r#"{"X": {"type": "thing"}}"#).is_err());
    }
}
