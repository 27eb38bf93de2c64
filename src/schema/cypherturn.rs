//! CypherTurn's `schema.json`:
//!
//! ```json
//! {"graph_name": "ancient_empire", "description": "…",
//!  "nodes": [{"label": "Empire", "count": 10, "properties": {"name": "string", "founding_year": "int"}}],
//!  "relationships": [{"type": "CONTROLS", "source": "Empire", "target": "Province",
//!                     "properties": {"tribute": "int"}}]}
//! ```
//!
//! `count` is read and ignored (the schema model has no statistics). A type with several endpoint
//! pairs is written as several `relationships` entries.

use super::{
    parse_json, pretty, Property, PropertyType, Schema, SchemaError, SchemaFormat, Triple, Written,
};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

const F: SchemaFormat = SchemaFormat::CypherTurn;

fn props(v: Option<&Value>, owner: &str) -> Result<BTreeMap<String, Property>, SchemaError> {
    let mut out = BTreeMap::new();
    match v {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (k, t) in m {
                let ty = t
                    .as_str()
                    .map(|t| super::parse_type(F, t))
                    .ok_or_else(|| {
                        SchemaError::invalid(F, format!("`{owner}`.{k}: the type must be a string"))
                    })??;
                out.insert(k.clone(), Property::new(ty));
            }
        }
        Some(_) => {
            return Err(SchemaError::invalid(
                F,
                format!("`{owner}`: properties must be an object"),
            ))
        }
    }
    Ok(out)
}

/// CypherTurn's type names: `string`, `int`, `float`, `bool`; others as grape writes them.
fn type_name(t: &PropertyType) -> String {
    match t {
        PropertyType::String => "string".to_string(),
        PropertyType::Integer => "int".to_string(),
        PropertyType::Float => "float".to_string(),
        PropertyType::Boolean => "bool".to_string(),
        other => other.to_string(),
    }
}

pub(crate) fn read(text: &str) -> Result<Schema, SchemaError> {
    let v = parse_json(F, text)?;
    let list = |k: &str| -> Result<&Vec<Value>, SchemaError> {
        v.get(k)
            .and_then(Value::as_array)
            .ok_or_else(|| SchemaError::invalid(F, format!("`{k}` must be a list")))
    };
    let mut schema = Schema {
        name: v
            .get("graph_name")
            .and_then(Value::as_str)
            .map(str::to_string),
        description: v
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        ..Schema::default()
    };
    for n in list("nodes")? {
        let label = n.get("label").and_then(Value::as_str).ok_or_else(|| {
            SchemaError::invalid(F, format!("a node lacks a string `label`: {n}"))
        })?;
        let e = schema.labels.entry(label.to_string()).or_default();
        e.properties.extend(props(n.get("properties"), label)?);
    }
    for r in list("relationships")? {
        let field = |k: &str| {
            r.get(k).and_then(Value::as_str).ok_or_else(|| {
                SchemaError::invalid(F, format!("a relationship lacks a string `{k}`: {r}"))
            })
        };
        let t = field("type")?;
        schema
            .triples
            .insert(Triple::new(field("source")?, t, field("target")?));
        let e = schema.relationship_types.entry(t.to_string()).or_default();
        e.properties.extend(props(r.get("properties"), t)?);
    }
    Ok(schema)
}

pub(crate) fn write(schema: &Schema) -> Written {
    let mut warnings = Vec::new();
    let descriptions = schema
        .labels
        .values()
        .chain(schema.relationship_types.values())
        .any(|e| e.description.is_some() || e.properties.values().any(|p| p.description.is_some()));
    if descriptions {
        warnings.push("label, type and property descriptions were dropped".to_string());
    }
    if !schema.any_label_properties.is_empty() {
        warnings.push("properties declared for any label were copied onto every label".to_string());
    }
    let props_out = |m: Vec<(&str, &Property)>| {
        let mut o = Map::new();
        for (k, p) in m {
            o.insert(k.to_string(), json!(type_name(&p.ty)));
        }
        Value::Object(o)
    };
    let nodes: Vec<Value> = schema
        .labels
        .keys()
        .map(|l| json!({"label": l, "properties": props_out(schema.label_properties(l))}))
        .collect();
    let mut rels: Vec<Value> = Vec::new();
    for t in &schema.triples {
        let p = schema
            .relationship_types
            .get(&t.rel_type)
            .map(|e| e.properties.iter().map(|(k, p)| (k.as_str(), p)).collect())
            .unwrap_or_default();
        rels.push(json!({"type": t.rel_type, "source": t.start, "target": t.end, "properties": props_out(p)}));
    }
    for t in schema.relationship_types.keys() {
        if !schema.triples.iter().any(|x| &x.rel_type == t) {
            warnings.push(format!(
                "relationship type {t} has no endpoints and was dropped"
            ));
        }
    }
    let mut doc = Map::new();
    if let Some(n) = &schema.name {
        doc.insert("graph_name".into(), json!(n));
    }
    if let Some(d) = &schema.description {
        doc.insert("description".into(), json!(d));
    }
    doc.insert("nodes".into(), Value::Array(nodes));
    doc.insert("relationships".into(), Value::Array(rels));
    Written {
        text: pretty(&Value::Object(doc)),
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_cypherturn_shape() {
        let text = r#"{"graph_name": "g", "description": "d",
          "nodes": [{"label": "A", "count": 3, "properties": {"name": "string", "n": "int"}}, {"label": "B", "count": 1, "properties": {}}],
          "relationships": [{"type": "R", "source": "A", "target": "B", "properties": {"w": "int"}},
                            {"type": "R", "source": "B", "target": "B", "properties": {}}]}"#;
        let s = read(text).unwrap();
        assert_eq!(s.name.as_deref(), Some("g"));
        assert_eq!(s.node_property("A", "n").unwrap().ty, PropertyType::Integer);
        assert_eq!(s.triples.len(), 2);
        let w = write(&s);
        assert!(w.warnings.is_empty());
        assert!(w.text.contains("\"int\""));
        assert_eq!(read(&w.text).unwrap(), s);
        assert!(read(r#"{"nodes": [{"label": 1}], "relationships": []}"#).is_err());
    }
}
