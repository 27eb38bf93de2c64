//! The graph schema: node labels and relationship types with typed properties, and the endpoint
//! triples `(start label, type, end label)` that say which labels a relationship type connects.
//!
//! One relationship type may have several triples (POLE's `INVOLVED_IN` runs `Vehicle → Crime`
//! and `Object → Crime`). Some sources declare properties for the whole graph rather than per label
//! (ZOGRASCOPE's `graph_schema.json`); such properties live in [`Schema::any_label_properties`] and
//! count as present on every label — the schema says no more than its source does.
//!
//! Readers and writers, one module per format (see [`SchemaFormat`]):
//!
//! | format | read | write |
//! |---|---|---|
//! | `grape` — ours, documented in the README | yes | yes |
//! | `structured` — neo4j-graphrag / LangChain `{node_props, rel_props, relationships, metadata}` | yes | yes |
//! | `apoc` — `apoc.meta.schema` JSON, as mcp-neo4j-cypher's `get_neo4j_schema` returns it | yes | yes |
//! | `zograscope` — ZOGRASCOPE's `graph_schema.json` | yes | yes (lossy, with warnings) |
//! | `cypherturn` — CypherTurn's `schema.json` | yes | yes |
//! | `importer` — Neo4j Data Importer model (+ the CSVs beside it, when present) | yes | no |
//! | `prompt` — the LLM prompt text ("Node properties are the following: …") | yes | yes |
//!
//! ```
//! use grape::schema::{Schema, SchemaFormat};
//! let text = "Node properties are the following:\nPerson {name: STRING, age: INTEGER}\n\
//!             Relationship properties are the following:\nKNOWS {since: INTEGER}\n\
//!             The relationships are the following:\n(:Person)-[:KNOWS]->(:Person)";
//! let schema = Schema::read(SchemaFormat::Prompt, text).unwrap();
//! assert!(schema.has_triple("Person", "KNOWS", "Person"));
//! let json = schema.write(SchemaFormat::Grape).unwrap().text;
//! assert_eq!(Schema::read(SchemaFormat::Grape, &json).unwrap(), schema);
//! ```
//!
//! # Layout
//!
//! One schema model and a reader/writer per format: grape, structured, apoc, zograscope,
//! cypherturn, importer, prompt — LangChain's classic and enhanced schema text, the latter as
//! Neo4j's text2cypher datasets and `demo_db_schemas.csv` carry it. Imports nothing of grape's.

mod apoc;
mod cypherturn;
mod grape_json;
mod importer;
mod prompt;
mod structured;
mod zograscope;

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

pub use importer::read_importer;

/// The type of a property value, with Neo4j's names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PropertyType {
    String,
    Integer,
    Float,
    Boolean,
    Date,
    DateTime,
    LocalDateTime,
    Time,
    LocalTime,
    Duration,
    Point,
    Map,
    /// A list; `List(Any)` when the element type is not known (`LIST` in `apoc.meta.schema`).
    List(Box<PropertyType>),
    /// Unknown or mixed.
    Any,
    /// A type name no reader recognises, kept as written.
    Other(String),
}

impl PropertyType {
    /// Reads a type name as the sources write it: Neo4j (`STRING`, `INTEGER`, `DATE_TIME`,
    /// `LIST OF STRING`), Cypher (`ZONED DATETIME`, `LIST<INTEGER>`), `db.schema.*` (`Long`,
    /// `StringArray`), Python-ish (`str`, `int`, `float`, `bool`), CSV header suffixes (`int`,
    /// `double`, `datetime`). Case-insensitive; anything else is [`PropertyType::Other`], kept as
    /// written. A name nested deeper than [`MAX_TYPE_DEPTH`] lists is kept whole as
    /// [`PropertyType::Other`]; [`PropertyType::try_parse`] reports it as an error instead.
    pub fn parse(name: &str) -> PropertyType {
        PropertyType::try_parse(name).unwrap_or_else(|_| PropertyType::Other(name.trim().into()))
    }

    /// [`PropertyType::parse`], but a name with lists nested deeper than [`MAX_TYPE_DEPTH`] is an
    /// error (the message says why). Iterative: no input can exhaust the stack.
    pub fn try_parse(name: &str) -> Result<PropertyType, String> {
        let mut depth = 0usize;
        let mut cur = name;
        let base = loop {
            let trimmed = cur.trim();
            let upper_full = trimmed.to_ascii_uppercase();
            let upper = upper_full.trim_end_matches(" NOT NULL");
            let n = upper.len();
            // Byte ranges into `trimmed` (ASCII case mapping keeps every byte offset).
            let inner = if upper.starts_with("LIST OF ") {
                Some(&trimmed[8..n])
            } else if upper.starts_with("LIST<") && upper.ends_with('>') && n >= 6 {
                Some(&trimmed[5..n - 1])
            } else if upper.ends_with("[]") {
                Some(&trimmed[..n - 2])
            } else if upper.ends_with("ARRAY") && n > 5 {
                Some(&trimmed[..n - 5])
            } else {
                None
            };
            if let Some(inner) = inner {
                depth += 1;
                if depth > MAX_TYPE_DEPTH {
                    return Err(format!(
                        "type `{}…` nests lists deeper than {MAX_TYPE_DEPTH} levels",
                        name.trim().chars().take(40).collect::<String>()
                    ));
                }
                cur = inner;
                continue;
            }
            break match upper.replace([' ', '-'], "_").as_str() {
                "STRING" | "STR" | "TEXT" | "CHAR" => PropertyType::String,
                "INTEGER" | "INT" | "LONG" | "SHORT" | "BYTE" | "INT64" | "INT32" => {
                    PropertyType::Integer
                }
                "FLOAT" | "DOUBLE" | "NUMBER" | "FLOAT64" | "FLOAT32" | "DECIMAL" => {
                    PropertyType::Float
                }
                "BOOLEAN" | "BOOL" => PropertyType::Boolean,
                "DATE" => PropertyType::Date,
                "DATE_TIME" | "DATETIME" | "ZONED_DATETIME" | "ZONED_DATE_TIME" => {
                    PropertyType::DateTime
                }
                "LOCAL_DATE_TIME" | "LOCALDATETIME" | "LOCAL_DATETIME" => {
                    PropertyType::LocalDateTime
                }
                "TIME" | "ZONED_TIME" => PropertyType::Time,
                "LOCAL_TIME" | "LOCALTIME" => PropertyType::LocalTime,
                "DURATION" => PropertyType::Duration,
                "POINT" => PropertyType::Point,
                "MAP" => PropertyType::Map,
                "LIST" => PropertyType::List(Box::new(PropertyType::Any)),
                "ANY" | "" => PropertyType::Any,
                _ => PropertyType::Other(trimmed.to_string()),
            };
        };
        let mut ty = base;
        for _ in 0..depth {
            ty = PropertyType::List(Box::new(ty));
        }
        Ok(ty)
    }
}

/// How deeply [`PropertyType::parse`] follows nested list types (`LIST<LIST<…>>`, `INT[][]`).
pub const MAX_TYPE_DEPTH: usize = 32;

impl fmt::Display for PropertyType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            PropertyType::String => "STRING",
            PropertyType::Integer => "INTEGER",
            PropertyType::Float => "FLOAT",
            PropertyType::Boolean => "BOOLEAN",
            PropertyType::Date => "DATE",
            PropertyType::DateTime => "DATE_TIME",
            PropertyType::LocalDateTime => "LOCAL_DATE_TIME",
            PropertyType::Time => "TIME",
            PropertyType::LocalTime => "LOCAL_TIME",
            PropertyType::Duration => "DURATION",
            PropertyType::Point => "POINT",
            PropertyType::Map => "MAP",
            PropertyType::Any => "ANY",
            PropertyType::List(inner) => {
                return match **inner {
                    PropertyType::Any => f.write_str("LIST"),
                    ref t => write!(f, "LIST<{t}>"),
                }
            }
            PropertyType::Other(s) => s,
        };
        f.write_str(s)
    }
}

impl Serialize for PropertyType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PropertyType {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        PropertyType::try_parse(&s).map_err(serde::de::Error::custom)
    }
}

/// A property: its type and, where the source has one, a description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub ty: PropertyType,
    pub description: Option<String>,
}

impl Property {
    pub fn new(ty: PropertyType) -> Property {
        Property {
            ty,
            description: None,
        }
    }
}

/// A node label or a relationship type: its properties and an optional description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Element {
    pub description: Option<String>,
    pub properties: BTreeMap<String, Property>,
}

/// `(start label, relationship type, end label)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Triple {
    pub start: String,
    pub rel_type: String,
    pub end: String,
}

impl Triple {
    pub fn new(start: &str, rel_type: &str, end: &str) -> Triple {
        Triple {
            start: start.to_string(),
            rel_type: rel_type.to_string(),
            end: end.to_string(),
        }
    }
}

impl fmt::Display for Triple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(:{})-[:{}]->(:{})", self.start, self.rel_type, self.end)
    }
}

/// A graph schema. All collections are sorted, so output built from it is deterministic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schema {
    pub name: Option<String>,
    pub description: Option<String>,
    pub labels: BTreeMap<String, Element>,
    pub relationship_types: BTreeMap<String, Element>,
    /// Properties that may appear on a node of any label (sources that declare properties for
    /// the whole graph, like ZOGRASCOPE's). Empty for per-label sources.
    pub any_label_properties: BTreeMap<String, Property>,
    pub triples: BTreeSet<Triple>,
}

/// Errors reading or writing a schema.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    #[error("{format} schema: {message}")]
    Invalid {
        format: SchemaFormat,
        message: String,
    },
    /// JSON that does not parse, or that parses but is not the format's shape (an unknown or
    /// missing field, a value of the wrong type): the message says which.
    #[error("{format} schema {}: {source}", if source.is_data() { "does not have the format's shape" } else { "is not valid JSON" })]
    Json {
        format: SchemaFormat,
        source: serde_json::Error,
    },
    #[error("cannot write the {0} format")]
    NoWriter(SchemaFormat),
    #[error("cannot tell the schema format of {0}; name it (grape, structured, apoc, zograscope, cypherturn, importer, prompt)")]
    UnknownFormat(String),
    #[error("{what} is not valid JSON ({source}); is it truncated?")]
    NotJson {
        what: String,
        source: serde_json::Error,
    },
    #[error("{0} is empty")]
    Empty(String),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Csv { path: String, message: String },
}

impl SchemaError {
    pub(crate) fn invalid(format: SchemaFormat, message: impl Into<String>) -> SchemaError {
        SchemaError::Invalid {
            format,
            message: message.into(),
        }
    }
}

/// The schema formats grape reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemaFormat {
    /// grape's own JSON (see the README).
    Grape,
    /// neo4j-graphrag / LangChain structured schema.
    Structured,
    /// `apoc.meta.schema` output.
    Apoc,
    /// ZOGRASCOPE `graph_schema.json`.
    Zograscope,
    /// CypherTurn `schema.json`.
    CypherTurn,
    /// Neo4j Data Importer model JSON (read only).
    Importer,
    /// LLM prompt text.
    Prompt,
}

impl SchemaFormat {
    pub const ALL: [SchemaFormat; 7] = [
        SchemaFormat::Grape,
        SchemaFormat::Structured,
        SchemaFormat::Apoc,
        SchemaFormat::Zograscope,
        SchemaFormat::CypherTurn,
        SchemaFormat::Importer,
        SchemaFormat::Prompt,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SchemaFormat::Grape => "grape",
            SchemaFormat::Structured => "structured",
            SchemaFormat::Apoc => "apoc",
            SchemaFormat::Zograscope => "zograscope",
            SchemaFormat::CypherTurn => "cypherturn",
            SchemaFormat::Importer => "importer",
            SchemaFormat::Prompt => "prompt",
        }
    }

    /// Guesses the format of a schema document from its content.
    pub fn detect(text: &str) -> Option<SchemaFormat> {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
            let t = text.trim_start();
            return (t.starts_with("Node properties") || t.contains("The relationships"))
                .then_some(SchemaFormat::Prompt);
        };
        if value.is_array() {
            return apoc::looks_like(&value).then_some(SchemaFormat::Apoc);
        }
        let obj = value.as_object()?;
        if obj.get("format").and_then(|f| f.as_str()) == Some(grape_json::FORMAT_TAG) {
            Some(SchemaFormat::Grape)
        } else if obj.contains_key("node_props") || obj.contains_key("rel_props") {
            Some(SchemaFormat::Structured)
        } else if obj.contains_key("classes") && obj.contains_key("relations") {
            Some(SchemaFormat::Zograscope)
        } else if obj.contains_key("dataModel") {
            Some(SchemaFormat::Importer)
        } else if obj.get("nodes").is_some_and(|n| n.is_array()) {
            Some(SchemaFormat::CypherTurn)
        } else if obj.get("labels").is_some_and(|n| n.is_object()) {
            Some(SchemaFormat::Grape)
        } else if apoc::looks_like(&value) {
            Some(SchemaFormat::Apoc)
        } else {
            None
        }
    }
}

impl fmt::Display for SchemaFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SchemaFormat {
    type Err = SchemaError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "grape" | "json" => Ok(SchemaFormat::Grape),
            "structured" | "graphrag" | "neo4j-graphrag" | "langchain" => {
                Ok(SchemaFormat::Structured)
            }
            "apoc" | "apoc.meta.schema" | "mcp" => Ok(SchemaFormat::Apoc),
            "zograscope" => Ok(SchemaFormat::Zograscope),
            "cypherturn" => Ok(SchemaFormat::CypherTurn),
            "importer" | "neo4j-importer" => Ok(SchemaFormat::Importer),
            "prompt" | "text" => Ok(SchemaFormat::Prompt),
            _ => Err(SchemaError::UnknownFormat(format!("format name `{s}`"))),
        }
    }
}

/// Why the format of `text` (named `what`) could not be told: it is empty, or meant to be JSON
/// but broken (with where), or a document of no known format.
fn undetected(what: String, text: &str) -> SchemaError {
    let t = text.trim_start();
    if t.is_empty() {
        return SchemaError::Empty(what);
    }
    if t.starts_with('{') || t.starts_with('[') {
        if let Err(source) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
            return SchemaError::NotJson { what, source };
        }
    }
    SchemaError::UnknownFormat(what)
}

/// A written schema, with what the format could not carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub text: String,
    /// Information lost in the conversion, one sentence each (empty when lossless).
    pub warnings: Vec<String>,
}

impl Schema {
    /// Reads a schema document in `format`. The importer format reads the model alone here; use
    /// [`Schema::read_path`] or [`read_importer`] to refine it from the CSVs beside it.
    pub fn read(format: SchemaFormat, text: &str) -> Result<Schema, SchemaError> {
        let mut schema = match format {
            SchemaFormat::Grape => grape_json::read(text)?,
            SchemaFormat::Structured => structured::read(text)?,
            SchemaFormat::Apoc => apoc::read(text)?,
            SchemaFormat::Zograscope => zograscope::read(text)?,
            SchemaFormat::CypherTurn => cypherturn::read(text)?,
            SchemaFormat::Importer => importer::read_importer(text, None)?,
            SchemaFormat::Prompt => prompt::read(text)?,
        };
        schema.complete();
        Ok(schema)
    }

    /// Reads a schema document, guessing its format from the content.
    pub fn read_auto(text: &str) -> Result<Schema, SchemaError> {
        let format = SchemaFormat::detect(text)
            .ok_or_else(|| undetected("the schema document".to_string(), text))?;
        Schema::read(format, text)
    }

    /// Reads a schema file; `format` is guessed from the content when `None`. An importer model
    /// is refined from the CSV files beside it when they are there (see [`read_importer`]).
    pub fn read_path(path: &Path, format: Option<SchemaFormat>) -> Result<Schema, SchemaError> {
        let text = std::fs::read_to_string(path).map_err(|source| SchemaError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let format = match format {
            Some(f) => f,
            None => SchemaFormat::detect(&text)
                .ok_or_else(|| undetected(path.display().to_string(), &text))?,
        };
        if format == SchemaFormat::Importer {
            let dir = path.parent().unwrap_or(Path::new("."));
            let mut schema = read_importer(&text, Some(dir))?;
            schema.complete();
            return Ok(schema);
        }
        Schema::read(format, &text)
    }

    /// Writes the schema in `format`.
    pub fn write(&self, format: SchemaFormat) -> Result<Written, SchemaError> {
        match format {
            SchemaFormat::Grape => Ok(lossless(grape_json::write(self))),
            SchemaFormat::Structured => Ok(structured::write(self)),
            SchemaFormat::Apoc => Ok(apoc::write(self)),
            SchemaFormat::Zograscope => Ok(zograscope::write(self)),
            SchemaFormat::CypherTurn => Ok(cypherturn::write(self)),
            SchemaFormat::Prompt => Ok(prompt::write(self)),
            SchemaFormat::Importer => Err(SchemaError::NoWriter(format)),
        }
    }

    /// The prompt text an LLM gets (LangChain's "Node properties are the following: …" layout).
    pub fn to_prompt(&self) -> String {
        prompt::write(self).text
    }

    /// Declares every label and type a triple mentions.
    pub fn complete(&mut self) {
        for t in &self.triples {
            self.labels.entry(t.start.clone()).or_default();
            self.labels.entry(t.end.clone()).or_default();
            self.relationship_types
                .entry(t.rel_type.clone())
                .or_default();
        }
    }

    /// The properties whose type no reader recognises ([`PropertyType::Other`], kept as written,
    /// so never type-checked), as `(where, key, type)` with `where` a label (`Person`), a
    /// relationship type (`[:KNOWS]`) or `*` for a property of any label: a misspelt type in a
    /// hand-written schema is worth a warning.
    pub fn unknown_types(&self) -> Vec<(String, String, String)> {
        fn other(t: &PropertyType) -> Option<&str> {
            match t {
                PropertyType::Other(s) => Some(s),
                PropertyType::List(inner) => other(inner),
                _ => None,
            }
        }
        let mut out = Vec::new();
        let elements = self
            .labels
            .iter()
            .map(|(l, e)| (l.clone(), &e.properties))
            .chain(
                self.relationship_types
                    .iter()
                    .map(|(t, e)| (format!("[:{t}]"), &e.properties)),
            )
            .chain(std::iter::once((
                "*".to_string(),
                &self.any_label_properties,
            )));
        for (at, props) in elements {
            for (key, p) in props {
                if other(&p.ty).is_some() {
                    out.push((at.clone(), key.clone(), p.ty.to_string()));
                }
            }
        }
        out
    }

    pub fn has_label(&self, label: &str) -> bool {
        self.labels.contains_key(label)
    }

    pub fn has_relationship_type(&self, rel_type: &str) -> bool {
        self.relationship_types.contains_key(rel_type)
    }

    pub fn has_triple(&self, start: &str, rel_type: &str, end: &str) -> bool {
        self.triples.contains(&Triple::new(start, rel_type, end))
    }

    /// The property `key` of nodes labelled `label` (its own, or one that applies to any label).
    pub fn node_property(&self, label: &str, key: &str) -> Option<&Property> {
        self.labels
            .get(label)
            .and_then(|e| e.properties.get(key))
            .or_else(|| {
                self.has_label(label)
                    .then(|| self.any_label_properties.get(key))
                    .flatten()
            })
    }

    /// The property `key` of relationships of type `rel_type`.
    pub fn relationship_property(&self, rel_type: &str, key: &str) -> Option<&Property> {
        self.relationship_types
            .get(rel_type)
            .and_then(|e| e.properties.get(key))
    }

    /// Whether any label or relationship type has a property `key`.
    pub fn has_property_key(&self, key: &str) -> bool {
        self.any_label_properties.contains_key(key)
            || self
                .labels
                .values()
                .chain(self.relationship_types.values())
                .any(|e| e.properties.contains_key(key))
    }

    /// Every property key of the schema, sorted.
    pub fn property_keys(&self) -> BTreeSet<&str> {
        let mut keys: BTreeSet<&str> = self
            .any_label_properties
            .keys()
            .map(String::as_str)
            .collect();
        for e in self.labels.values().chain(self.relationship_types.values()) {
            keys.extend(e.properties.keys().map(String::as_str));
        }
        keys
    }

    /// The properties of a label: its own, then those that apply to any label.
    pub fn label_properties(&self, label: &str) -> Vec<(&str, &Property)> {
        let mut out: Vec<(&str, &Property)> = self
            .labels
            .get(label)
            .map(|e| e.properties.iter().map(|(k, p)| (k.as_str(), p)).collect())
            .unwrap_or_default();
        if self.has_label(label) {
            for (k, p) in &self.any_label_properties {
                if !out.iter().any(|(o, _)| o == k) {
                    out.push((k.as_str(), p));
                }
            }
        }
        out
    }
}

fn lossless(text: String) -> Written {
    Written {
        text,
        warnings: Vec::new(),
    }
}

/// Parses JSON for a reader, mapping errors to [`SchemaError::Json`].
pub(crate) fn parse_json(
    format: SchemaFormat,
    text: &str,
) -> Result<serde_json::Value, SchemaError> {
    serde_json::from_str(text).map_err(|source| SchemaError::Json { format, source })
}

/// Pretty JSON with a trailing newline (the writers' common output).
/// [`PropertyType::try_parse`] with its error as a [`SchemaError`] of `format`.
pub(crate) fn parse_type(format: SchemaFormat, name: &str) -> Result<PropertyType, SchemaError> {
    PropertyType::try_parse(name).map_err(|m| SchemaError::invalid(format, m))
}

pub(crate) fn pretty(value: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_from_every_source_read_the_same() {
        for (name, ty) in [
            ("STRING", PropertyType::String),
            ("str", PropertyType::String),
            ("Long", PropertyType::Integer),
            ("int", PropertyType::Integer),
            ("double", PropertyType::Float),
            ("ZONED DATETIME", PropertyType::DateTime),
            ("DATE_TIME", PropertyType::DateTime),
            ("LocalDateTime", PropertyType::LocalDateTime),
            ("bool", PropertyType::Boolean),
            (
                "LIST OF STRING",
                PropertyType::List(Box::new(PropertyType::String)),
            ),
            (
                "StringArray",
                PropertyType::List(Box::new(PropertyType::String)),
            ),
            (
                "LIST<INTEGER NOT NULL>",
                PropertyType::List(Box::new(PropertyType::Integer)),
            ),
            ("LIST", PropertyType::List(Box::new(PropertyType::Any))),
            ("Vector", PropertyType::Other("Vector".to_string())),
        ] {
            assert_eq!(PropertyType::parse(name), ty, "{name}");
            // Display then parse is the identity.
            assert_eq!(PropertyType::parse(&ty.to_string()), ty, "{name}");
        }
    }

    #[test]
    fn any_label_properties_apply_to_declared_labels_only() {
        let mut s = Schema::default();
        s.labels.insert("A".into(), Element::default());
        s.any_label_properties
            .insert("name".into(), Property::new(PropertyType::String));
        assert!(s.node_property("A", "name").is_some());
        assert!(s.node_property("B", "name").is_none());
        assert!(s.has_property_key("name"));
        assert_eq!(s.label_properties("A").len(), 1);
    }

    #[test]
    fn formats_are_detected_from_content() {
        assert_eq!(
            SchemaFormat::detect(r#"{"node_props": {}, "rel_props": {}, "relationships": []}"#),
            Some(SchemaFormat::Structured)
        );
        assert_eq!(
            SchemaFormat::detect(r#"{"classes": {}, "properties": {}, "relations": {}}"#),
            Some(SchemaFormat::Zograscope)
        );
        assert_eq!(
            SchemaFormat::detect(r#"{"graph_name": "g", "nodes": [], "relationships": []}"#),
            Some(SchemaFormat::CypherTurn)
        );
        assert_eq!(
            SchemaFormat::detect(r#"{"Person": {"type": "node", "properties": {}}}"#),
            Some(SchemaFormat::Apoc)
        );
        assert_eq!(
            SchemaFormat::detect(r#"[{"value": {"Person": {"type": "node"}}}]"#),
            Some(SchemaFormat::Apoc)
        );
        assert_eq!(
            SchemaFormat::detect("Node properties are the following:\n"),
            Some(SchemaFormat::Prompt)
        );
        assert_eq!(SchemaFormat::detect("{}"), None);
        assert!("GraphRAG".parse::<SchemaFormat>().is_ok());
        assert!("nope".parse::<SchemaFormat>().is_err());
    }
}
