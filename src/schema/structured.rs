//! The structured schema of neo4j-graphrag (`get_structured_schema`) and LangChain's
//! `Neo4jGraph.structured_schema`:
//!
//! ```json
//! {"node_props": {"Person": [{"property": "name", "type": "STRING"}]},
//!  "rel_props": {"KNOWS": [{"property": "since", "type": "INTEGER"}]},
//!  "relationships": [{"start": "Person", "type": "KNOWS", "end": "Person"}],
//!  "metadata": {"constraint": [], "index": []}}
//! ```
//!
//! The enhanced variant's extra keys on a property (`values`, `min`, `max`, `distinct_count`,
//! `example`) are accepted and ignored; `metadata` is ignored on reading and written empty.

use super::{
    parse_json, pretty, Element, Property, PropertyType, Schema, SchemaError, SchemaFormat, Triple,
    Written,
};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

const F: SchemaFormat = SchemaFormat::Structured;

fn props(v: &Value, owner: &str) -> Result<BTreeMap<String, Property>, SchemaError> {
    let list = v.as_array().ok_or_else(|| {
        SchemaError::invalid(F, format!("properties of `{owner}`: expected a list"))
    })?;
    let mut out = BTreeMap::new();
    for p in list {
        let name = p.get("property").and_then(Value::as_str).ok_or_else(|| {
            SchemaError::invalid(
                F,
                format!("a property of `{owner}` has no string `property`"),
            )
        })?;
        let ty = p
            .get("type")
            .and_then(Value::as_str)
            .map(|t| super::parse_type(F, t))
            .transpose()?
            .unwrap_or(PropertyType::Any);
        out.insert(name.to_string(), Property::new(ty));
    }
    Ok(out)
}

fn elements(v: Option<&Value>, key: &str) -> Result<BTreeMap<String, Element>, SchemaError> {
    let mut out = BTreeMap::new();
    let Some(v) = v else { return Ok(out) };
    let obj = v
        .as_object()
        .ok_or_else(|| SchemaError::invalid(F, format!("`{key}`: expected an object")))?;
    for (name, list) in obj {
        out.insert(
            name.clone(),
            Element {
                description: None,
                properties: props(list, name)?,
            },
        );
    }
    Ok(out)
}

pub(crate) fn read(text: &str) -> Result<Schema, SchemaError> {
    let v = parse_json(F, text)?;
    if !v.is_object() {
        return Err(SchemaError::invalid(F, "expected a JSON object"));
    }
    let mut schema = Schema {
        labels: elements(v.get("node_props"), "node_props")?,
        relationship_types: elements(v.get("rel_props"), "rel_props")?,
        ..Schema::default()
    };
    if let Some(rels) = v.get("relationships") {
        let rels = rels
            .as_array()
            .ok_or_else(|| SchemaError::invalid(F, "`relationships`: expected a list"))?;
        for r in rels {
            let field = |k: &str| {
                r.get(k).and_then(Value::as_str).ok_or_else(|| {
                    SchemaError::invalid(F, format!("a relationship lacks a string `{k}`: {r}"))
                })
            };
            schema
                .triples
                .insert(Triple::new(field("start")?, field("type")?, field("end")?));
        }
    }
    Ok(schema)
}

fn props_out(m: &BTreeMap<String, Property>) -> Value {
    Value::Array(
        m.iter()
            .map(|(k, p)| json!({"property": k, "type": p.ty.to_string()}))
            .collect(),
    )
}

pub(crate) fn write(schema: &Schema) -> Written {
    let mut warnings = Vec::new();
    if !schema.any_label_properties.is_empty() {
        warnings.push(
            "properties declared for any label were copied onto every label (the format has no graph-wide properties)"
                .to_string(),
        );
    }
    if schema
        .labels
        .values()
        .chain(schema.relationship_types.values())
        .any(|e| e.description.is_some() || e.properties.values().any(|p| p.description.is_some()))
        || schema.description.is_some()
    {
        warnings.push("descriptions were dropped (the format has none)".to_string());
    }
    let mut node_props = Map::new();
    for label in schema.labels.keys() {
        let mut all: BTreeMap<String, Property> = BTreeMap::new();
        for (k, p) in schema.label_properties(label) {
            all.insert(k.to_string(), p.clone());
        }
        node_props.insert(label.clone(), props_out(&all));
    }
    let mut rel_props = Map::new();
    for (t, e) in &schema.relationship_types {
        rel_props.insert(t.clone(), props_out(&e.properties));
    }
    let relationships: Vec<Value> = schema
        .triples
        .iter()
        .map(|t| json!({"start": t.start, "type": t.rel_type, "end": t.end}))
        .collect();
    let doc = json!({
        "node_props": node_props,
        "rel_props": rel_props,
        "relationships": relationships,
        "metadata": {"constraint": [], "index": []},
    });
    Written {
        text: pretty(&doc),
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_langchain_output_with_enhanced_property_keys() {
        let text = r#"{"node_props": {"Movie": [{"property": "title", "type": "STRING", "values": ["Heat"]}, {"property": "released", "type": "INTEGER", "min": 1990, "max": 2003}]},
                      "rel_props": {"ACTED_IN": [{"property": "roles", "type": "LIST"}]},
                      "relationships": [{"start": "Person", "type": "ACTED_IN", "end": "Movie"}],
                      "metadata": {"constraint": [], "index": []}}"#;
        let mut s = read(text).unwrap();
        s.complete();
        assert_eq!(
            s.node_property("Movie", "released").unwrap().ty,
            PropertyType::Integer
        );
        assert_eq!(
            s.relationship_property("ACTED_IN", "roles").unwrap().ty,
            PropertyType::List(Box::new(PropertyType::Any))
        );
        assert!(s.has_label("Person"));
        let again = {
            let mut x = read(&write(&s).text).unwrap();
            x.complete();
            x
        };
        assert_eq!(again, s);
        assert!(read(r#"{"node_props": [], "relationships": []}"#).is_err());
        assert!(read(r#"{"relationships": [{"start": "A"}]}"#).is_err());
    }
}
