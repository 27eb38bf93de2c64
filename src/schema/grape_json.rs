//! grape's own schema JSON.
//!
//! ```json
//! {
//!   "format": "grape-schema/1",
//!   "name": "pole",
//!   "labels": {
//!     "Person": {"properties": {"name": "STRING", "age": {"type": "INTEGER", "description": "years"}}},
//!     "Crime": {"description": "a recorded crime", "properties": {"date": "STRING"}}
//!   },
//!   "any_label_properties": {},
//!   "relationship_types": {
//!     "PARTY_TO": {"properties": {}, "endpoints": [["Person", "Crime"]]}
//!   }
//! }
//! ```
//!
//! A property is a type name or `{"type", "description"}`. `endpoints` lists the `[start, end]`
//! label pairs of a type (several allowed). `any_label_properties` are properties that may appear
//! on any label. Every key but `labels` may be omitted; unknown keys are an error, so a typo does
//! not silently drop part of a schema.

use super::{parse_json, pretty, Element, Property, PropertyType, Schema, SchemaFormat, Triple};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub(crate) const FORMAT_TAG: &str = "grape-schema/1";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    labels: BTreeMap<String, LabelDoc>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    any_label_properties: BTreeMap<String, PropDoc>,
    #[serde(default)]
    relationship_types: BTreeMap<String, TypeDoc>,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LabelDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(default)]
    properties: BTreeMap<String, PropDoc>,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct TypeDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(default)]
    properties: BTreeMap<String, PropDoc>,
    #[serde(default)]
    endpoints: Vec<(String, String)>,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum PropDoc {
    Type(PropertyType),
    Full {
        #[serde(rename = "type")]
        ty: PropertyType,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
}

impl From<&PropDoc> for Property {
    fn from(p: &PropDoc) -> Property {
        match p {
            PropDoc::Type(ty) => Property::new(ty.clone()),
            PropDoc::Full { ty, description } => Property {
                ty: ty.clone(),
                description: description.clone(),
            },
        }
    }
}

impl From<&Property> for PropDoc {
    fn from(p: &Property) -> PropDoc {
        match &p.description {
            None => PropDoc::Type(p.ty.clone()),
            Some(d) => PropDoc::Full {
                ty: p.ty.clone(),
                description: Some(d.clone()),
            },
        }
    }
}

fn props_in(m: &BTreeMap<String, PropDoc>) -> BTreeMap<String, Property> {
    m.iter().map(|(k, v)| (k.clone(), v.into())).collect()
}

fn props_out(m: &BTreeMap<String, Property>) -> BTreeMap<String, PropDoc> {
    m.iter().map(|(k, v)| (k.clone(), v.into())).collect()
}

pub(crate) fn read(text: &str) -> Result<Schema, super::SchemaError> {
    let value = parse_json(SchemaFormat::Grape, text)?;
    let doc: Doc = serde_json::from_value(value).map_err(|source| super::SchemaError::Json {
        format: SchemaFormat::Grape,
        source,
    })?;
    if let Some(f) = &doc.format {
        if f != FORMAT_TAG {
            return Err(super::SchemaError::invalid(
                SchemaFormat::Grape,
                format!("unsupported format tag `{f}` (expected `{FORMAT_TAG}`)"),
            ));
        }
    }
    let mut schema = Schema {
        name: doc.name,
        description: doc.description,
        any_label_properties: props_in(&doc.any_label_properties),
        ..Schema::default()
    };
    for (label, l) in &doc.labels {
        schema.labels.insert(
            label.clone(),
            Element {
                description: l.description.clone(),
                properties: props_in(&l.properties),
            },
        );
    }
    for (ty, t) in &doc.relationship_types {
        schema.relationship_types.insert(
            ty.clone(),
            Element {
                description: t.description.clone(),
                properties: props_in(&t.properties),
            },
        );
        for (s, e) in &t.endpoints {
            schema.triples.insert(Triple::new(s, ty, e));
        }
    }
    Ok(schema)
}

pub(crate) fn write(schema: &Schema) -> String {
    let doc = Doc {
        format: Some(FORMAT_TAG.to_string()),
        name: schema.name.clone(),
        description: schema.description.clone(),
        labels: schema
            .labels
            .iter()
            .map(|(k, e)| {
                (
                    k.clone(),
                    LabelDoc {
                        description: e.description.clone(),
                        properties: props_out(&e.properties),
                    },
                )
            })
            .collect(),
        any_label_properties: props_out(&schema.any_label_properties),
        relationship_types: schema
            .relationship_types
            .iter()
            .map(|(k, e)| {
                (
                    k.clone(),
                    TypeDoc {
                        description: e.description.clone(),
                        properties: props_out(&e.properties),
                        endpoints: schema
                            .triples
                            .iter()
                            .filter(|t| &t.rel_type == k)
                            .map(|t| (t.start.clone(), t.end.clone()))
                            .collect(),
                    },
                )
            })
            .collect(),
    };
    pretty(&serde_json::to_value(&doc).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_example_and_rejects_typos() {
        let text = r#"{
          "format": "grape-schema/1",
          "name": "pole",
          "labels": {
            "Person": {"properties": {"name": "STRING", "age": {"type": "INTEGER", "description": "years"}}},
            "Crime": {"description": "a recorded crime", "properties": {"date": "STRING"}}
          },
          "relationship_types": {
            "PARTY_TO": {"properties": {}, "endpoints": [["Person", "Crime"]]}
          }
        }"#;
        let s = read(text).unwrap();
        assert_eq!(s.name.as_deref(), Some("pole"));
        assert_eq!(
            s.node_property("Person", "age")
                .unwrap()
                .description
                .as_deref(),
            Some("years")
        );
        assert!(s.has_triple("Person", "PARTY_TO", "Crime"));
        assert_eq!(read(&write(&s)).unwrap(), s);
        let typo = r#"{"labels": {"A": {"propertes": {}}}}"#;
        assert!(read(typo).is_err());
        assert!(read(r#"{"format": "grape-schema/9", "labels": {}}"#).is_err());
    }
}
