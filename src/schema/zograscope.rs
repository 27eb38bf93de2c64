//! ZOGRASCOPE's `graph_schema.json`:
//!
//! ```json
//! {"classes": {"Person": {"description": "People"}},
//!  "properties": {"name": {"description": "name", "type": "STRING"}},
//!  "relations": {"KNOWS": {"description": "who knows", "domain": "Person", "range": "Person",
//!                          "reverse_description": "who is known by"}}}
//! ```
//!
//! Its properties are declared for the whole graph, not per label, so they are read into
//! [`Schema::any_label_properties`]: every property counts as present on every label. That is
//! all the file says; a per-label check needs a per-label source (e.g. POLE's importer model).
//! A relation has exactly one domain and range, so the writer keeps the first triple of a type
//! with several and says so in a warning.

use super::{
    parse_json, pretty, Element, Property, PropertyType, Schema, SchemaError, SchemaFormat, Triple,
    Written,
};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

const F: SchemaFormat = SchemaFormat::Zograscope;

fn desc(v: &Value) -> Option<String> {
    v.get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
}

pub(crate) fn read(text: &str) -> Result<Schema, SchemaError> {
    let v = parse_json(F, text)?;
    let obj = |k: &str| -> Result<&Map<String, Value>, SchemaError> {
        v.get(k)
            .and_then(Value::as_object)
            .ok_or_else(|| SchemaError::invalid(F, format!("`{k}` must be an object")))
    };
    let mut schema = Schema::default();
    for (label, c) in obj("classes")? {
        schema.labels.insert(
            label.clone(),
            Element {
                description: desc(c),
                properties: BTreeMap::new(),
            },
        );
    }
    for (name, p) in obj("properties")? {
        let ty = p
            .get("type")
            .and_then(Value::as_str)
            .map(|t| super::parse_type(F, t))
            .transpose()?
            .unwrap_or(PropertyType::Any);
        schema.any_label_properties.insert(
            name.clone(),
            Property {
                ty,
                description: desc(p),
            },
        );
    }
    for (t, r) in obj("relations")? {
        let end = |k: &str| {
            r.get(k).and_then(Value::as_str).ok_or_else(|| {
                SchemaError::invalid(F, format!("relation `{t}` lacks a string `{k}`"))
            })
        };
        schema
            .triples
            .insert(Triple::new(end("domain")?, t, end("range")?));
        schema.relationship_types.insert(
            t.clone(),
            Element {
                description: desc(r),
                properties: BTreeMap::new(),
            },
        );
    }
    Ok(schema)
}

pub(crate) fn write(schema: &Schema) -> Written {
    let mut warnings = Vec::new();
    let mut classes = Map::new();
    for (l, e) in &schema.labels {
        classes.insert(
            l.clone(),
            json!({"description": e.description.clone().unwrap_or_else(|| l.clone())}),
        );
    }
    let mut props: BTreeMap<String, Property> = schema.any_label_properties.clone();
    let mut per_label = false;
    for e in schema.labels.values() {
        for (k, p) in &e.properties {
            per_label = true;
            props.entry(k.clone()).or_insert_with(|| p.clone());
        }
    }
    if per_label {
        warnings.push(
            "per-label properties were merged into one graph-wide list (the format has no per-label properties)"
                .to_string(),
        );
    }
    if schema
        .relationship_types
        .values()
        .any(|e| !e.properties.is_empty())
    {
        warnings.push("relationship properties were dropped (the format has none)".to_string());
    }
    let mut properties = Map::new();
    for (k, p) in &props {
        properties.insert(
            k.clone(),
            json!({"description": p.description.clone().unwrap_or_else(|| k.clone()), "type": p.ty.to_string()}),
        );
    }
    let mut relations = Map::new();
    for (t, e) in &schema.relationship_types {
        let triples: Vec<&Triple> = schema.triples.iter().filter(|x| &x.rel_type == t).collect();
        let Some(first) = triples.first() else {
            warnings.push(format!("relation {t} has no endpoints and was dropped"));
            continue;
        };
        if triples.len() > 1 {
            let rest: Vec<String> = triples[1..].iter().map(|x| x.to_string()).collect();
            warnings.push(format!(
                "relation {t} has {} endpoint pairs; kept {first}, dropped {}",
                triples.len(),
                rest.join(", ")
            ));
        }
        let d = e.description.clone().unwrap_or_else(|| t.clone());
        relations.insert(
            t.clone(),
            json!({"description": d, "domain": first.start, "range": first.end, "reverse_description": d}),
        );
    }
    Written {
        text: pretty(
            &json!({"classes": classes, "properties": properties, "relations": relations}),
        ),
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_properties_and_one_triple_per_relation() {
        let text = r#"{"classes": {"Person": {"description": "People"}, "Crime": {"description": "Crimes"}},
          "properties": {"name": {"description": "name", "type": "STRING"}, "date": {"description": "date", "type": "DATE"}},
          "relations": {"PARTY_TO": {"description": "which is involved in", "domain": "Person", "range": "Crime", "reverse_description": "that involves"}}}"#;
        let s = read(text).unwrap();
        assert!(s.labels["Person"].properties.is_empty());
        assert!(s.node_property("Crime", "name").is_some());
        assert!(s.has_triple("Person", "PARTY_TO", "Crime"));
        let w = write(&s);
        assert!(w.warnings.is_empty(), "{:?}", w.warnings);
        assert_eq!(read(&w.text).unwrap(), s);

        let mut two = s.clone();
        two.triples
            .insert(Triple::new("Crime", "PARTY_TO", "Crime"));
        let w = write(&two);
        assert_eq!(w.warnings.len(), 1);
        assert!(w.warnings[0].contains("kept (:Crime)-[:PARTY_TO]->(:Crime)"));
        assert!(
            read(r#"{"classes": {}, "properties": {}, "relations": {"R": {"domain": "A"}}}"#)
                .is_err()
        );
    }
}
