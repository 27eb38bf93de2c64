//! CypherBench's graphs: the JSON dumps of its property graphs (megagonlabs/cypherbench, the
//! "SimpleKG" layout its Wikidata-to-property-graph engine writes):
//!
//! ```json
//! {"schema": {"name": "nba",
//!             "entities": [{"label": "Player", "properties": {"draft_year": "int", "birth_date": "date"}}],
//!             "relations": [{"label": "playsFor", "subj_label": "Player", "obj_label": "Team",
//!                            "properties": {"start_year": "int"}}]},
//!  "entities": [{"eid": "Player#Q36159", "label": "Player", "name": "LeBron James",
//!                "aliases": ["King James"], "description": "American basketball player",
//!                "provenance": ["https://en.wikipedia.org/wiki/LeBron_James"],
//!                "properties": {"draft_year": 2003, "birth_date": "1984-12-30"}}],
//!  "relations": [{"rid": "0", "label": "playsFor", "subj_id": "Player#Q36159",
//!                 "obj_id": "Team#Q162990", "properties": {"start_year": 2018}}]}
//! ```
//!
//! Each entity is a node labelled `label` with the properties CypherBench's databases give it:
//! `eid`, `name`, `aliases`, `description`, `provenance` and its own `properties`; each relation
//! a relationship of type `label` from `subj_id` to `obj_id` with its `properties` (`rid` is the
//! dump's record number, not a property). A property the schema types `date` becomes a DATE
//! (Neo4j's type for it there); the other values keep their JSON types, lists as lists. Null
//! values are left out, as Neo4j stores no null. A relation whose end is not an entity of the
//! dump, or an entity id seen twice, is an error naming the record.

use super::json::json_to_value;
use super::ImportError;
use crate::graph::Graph;
use crate::value::{NodeId, Value};
use serde_json::Value as Json;
use std::collections::{HashMap, HashSet};

/// Whether a JSON document is a CypherBench graph (rather than a fixture): an object with
/// `entities` and `relations` arrays whose first entity has an `eid`.
pub fn looks_like_cypherbench_graph(doc: &Json) -> bool {
    let Some(o) = doc.as_object() else {
        return false;
    };
    let entities = o.get("entities").and_then(Json::as_array);
    let relations_ok = o.get("relations").is_some_and(Json::is_array);
    relations_ok
        && entities.is_some_and(|e| e.first().is_none_or(|x| x.get("eid").is_some()))
        && !o.contains_key("nodes")
}

/// The properties the schema types `date`: by entity label, and by relation (label, subject
/// label, object label).
#[derive(Default)]
struct DateProps {
    entities: HashMap<String, HashSet<String>>,
    /// (type, subject label, object label) and the dates; a schema has few relation kinds, so
    /// a relation finds its entry by a scan, with no key built per relation.
    relations: Vec<((String, String, String), HashSet<String>)>,
}

impl DateProps {
    fn relation(&self, ty: &str, subj: &str, obj: &str) -> Option<&HashSet<String>> {
        self.relations
            .iter()
            .find(|((t, s, o), _)| t == ty && s == subj && o == obj)
            .map(|(_, d)| d)
    }
}

fn date_props(schema: Option<&Json>) -> DateProps {
    let mut out = DateProps::default();
    let dated = |props: Option<&Json>| -> HashSet<String> {
        props
            .and_then(Json::as_object)
            .map(|p| {
                p.iter()
                    .filter(|(_, t)| t.as_str() == Some("date"))
                    .map(|(k, _)| k.clone())
                    .collect()
            })
            .unwrap_or_default()
    };
    let Some(schema) = schema else {
        return out;
    };
    for e in schema
        .get("entities")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(label) = e.get("label").and_then(Json::as_str) {
            out.entities
                .entry(label.to_string())
                .or_default()
                .extend(dated(e.get("properties")));
        }
    }
    for r in schema
        .get("relations")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        let s = |k: &str| r.get(k).and_then(Json::as_str).map(str::to_string);
        if let (Some(l), Some(subj), Some(obj)) = (s("label"), s("subj_label"), s("obj_label")) {
            let key = (l, subj, obj);
            let dates = dated(r.get("properties"));
            match out.relations.iter_mut().find(|(k, _)| *k == key) {
                Some((_, d)) => d.extend(dates),
                None => out.relations.push((key, dates)),
            }
        }
    }
    out
}

/// A property value: a date when the schema types the property `date` (an ISO date string),
/// else the JSON value as it is. Maps cannot be stored.
fn prop_value(v: &Json, dated: bool, path: &str) -> Result<Value, String> {
    if dated {
        if let Json::String(s) = v {
            return crate::temporal::parse_date(s)
                .map(|d| Value::from(crate::temporal::Temporal::Date(d)))
                .map_err(|e| format!("{path}: a date property: {e}"));
        }
    }
    if let Json::Object(_) = v {
        return Err(format!(
            "{path}: a map cannot be a property value (Neo4j stores none)"
        ));
    }
    json_to_value(v, path)
}

/// The `properties` object of a record, with `dated` naming the properties that are dates;
/// keys borrowed from the record.
fn own_props<'a>(
    j: Option<&'a Json>,
    dated: Option<&HashSet<String>>,
    path: &str,
    out: &mut Vec<(&'a str, Value)>,
) -> Result<(), String> {
    match j {
        None | Some(Json::Null) => Ok(()),
        Some(Json::Object(o)) => {
            for (k, v) in o {
                if v.is_null() {
                    continue;
                }
                let is_date = dated.is_some_and(|d| d.contains(k));
                out.push((k.as_str(), prop_value(v, is_date, &format!("{path}.{k}"))?));
            }
            Ok(())
        }
        Some(_) => Err(format!("{path}: expected an object")),
    }
}

/// The string field `k` of a record.
fn str_field<'a>(
    rec: &'a Json,
    k: &str,
    at: impl Fn(String) -> ImportError,
) -> Result<&'a str, ImportError> {
    rec.get(k)
        .and_then(Json::as_str)
        .ok_or_else(|| at(format!("missing string `{k}`")))
}

/// Reads a CypherBench graph dump (see the module documentation); `file` names it in errors.
pub fn parse_cypherbench_graph(text: &str, file: &str) -> Result<Graph, ImportError> {
    let doc: Json = serde_json::from_str(text).map_err(|e| {
        ImportError::new(
            file,
            Some(format!("line {}", e.line())),
            format!("not valid JSON: {e}"),
        )
    })?;
    cypherbench_graph_from_json(&doc, file)
}

/// [`parse_cypherbench_graph`] of a document already parsed.
pub fn cypherbench_graph_from_json(doc: &Json, file: &str) -> Result<Graph, ImportError> {
    let at = |loc: String, m: String| ImportError::new(file, Some(loc), m);
    let entities = doc
        .get("entities")
        .and_then(Json::as_array)
        .ok_or_else(|| at("$".into(), "expected an `entities` array".into()))?;
    let relations = doc
        .get("relations")
        .and_then(Json::as_array)
        .ok_or_else(|| at("$".into(), "expected a `relations` array".into()))?;
    let dates = date_props(doc.get("schema"));
    let mut g = Graph::new();
    // Entity ids to nodes, and each node's label (for the relation's schema entry).
    let mut ids: HashMap<&str, (NodeId, &str)> = HashMap::with_capacity(entities.len());
    for (i, e) in entities.iter().enumerate() {
        let loc = format!("$.entities[{i}]");
        let field = |k: &str| str_field(e, k, |m| at(loc.clone(), m));
        let eid = field("eid")?;
        let label = field("label")?;
        if label.is_empty() {
            return Err(at(loc, "an empty `label`".into()));
        }
        let mut props: Vec<(&str, Value)> = vec![("eid", Value::from(eid))];
        for k in ["name", "aliases", "description", "provenance"] {
            match e.get(k) {
                None | Some(Json::Null) => {}
                Some(v) => props.push((
                    k,
                    prop_value(v, false, &format!("{loc}.{k}")).map_err(|m| at(loc.clone(), m))?,
                )),
            }
        }
        own_props(
            e.get("properties"),
            dates.entities.get(label),
            &format!("{loc}.properties"),
            &mut props,
        )
        .map_err(|m| at(loc.clone(), m))?;
        let node = g.add_node(&[label], props);
        if ids.insert(eid, (node, label)).is_some() {
            return Err(at(loc, format!("entity id {eid:?} is used twice")));
        }
    }
    for (i, r) in relations.iter().enumerate() {
        let loc = format!("$.relations[{i}]");
        let field = |k: &str| str_field(r, k, |m| at(loc.clone(), m));
        let label = field("label")?;
        if label.is_empty() {
            return Err(at(loc, "an empty `label`".into()));
        }
        let end = |k: &str| -> Result<(NodeId, &str), ImportError> {
            let id = field(k)?;
            ids.get(id).copied().ok_or_else(|| {
                at(
                    loc.clone(),
                    format!("`{k}` {id:?} is not an entity of this graph"),
                )
            })
        };
        let (subj, subj_label) = end("subj_id")?;
        let (obj, obj_label) = end("obj_id")?;
        let mut props = Vec::new();
        own_props(
            r.get("properties"),
            dates.relation(label, subj_label, obj_label),
            &format!("{loc}.properties"),
            &mut props,
        )
        .map_err(|m| at(loc.clone(), m))?;
        g.add_relationship(subj, obj, label, props);
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NBA: &str = r#"{
      "schema": {"name": "nba",
        "entities": [{"label": "Player", "description": null, "properties": {"birth_date": "date", "draft_year": "int"}},
                     {"label": "Team", "description": null, "properties": {"inception": "date"}}],
        "relations": [{"label": "playsFor", "subj_label": "Player", "obj_label": "Team",
                       "properties": {"start_date": "date"}}]},
      "entities": [
        {"eid": "Player#Q1", "label": "Player", "name": "Ann", "aliases": ["A."], "description": null,
         "provenance": [], "properties": {"birth_date": "1984-12-30", "draft_year": 2003, "nick": null}},
        {"eid": "Team#Q2", "label": "Team", "name": "Lakers", "aliases": [], "description": "a team",
         "provenance": ["https://en.wikipedia.org/wiki/Lakers"], "properties": {"inception": "1947-01-01"}}],
      "relations": [
        {"rid": "0", "label": "playsFor", "subj_id": "Player#Q1", "obj_id": "Team#Q2",
         "properties": {"start_date": "2018-07-09"}}]
    }"#;

    #[test]
    fn entities_and_relations_become_nodes_and_relationships() {
        let doc: Json = serde_json::from_str(NBA).unwrap();
        assert!(looks_like_cypherbench_graph(&doc));
        let g = parse_cypherbench_graph(NBA, "nba.json").unwrap();
        assert_eq!((g.node_count(), g.relationship_count()), (2, 1));
        // Entities in order: the player, then the team.
        let ids: Vec<NodeId> = g.node_ids().collect();
        let json = |m: std::collections::BTreeMap<std::sync::Arc<str>, Value>| -> Json {
            Json::Object(
                m.iter()
                    .map(|(k, v)| (k.to_string(), super::super::value_to_json(v, &g)))
                    .collect(),
            )
        };
        assert_eq!(&*g.labels(ids[0])[0], "Player");
        assert_eq!(
            json(g.node_properties(ids[0])),
            serde_json::json!({
                "eid": "Player#Q1", "name": "Ann", "aliases": ["A."], "provenance": [],
                "birth_date": {"~date": "1984-12-30"}, "draft_year": 2003
            })
        );
        assert_eq!(
            json(g.node_properties(ids[1])),
            serde_json::json!({
                "eid": "Team#Q2", "name": "Lakers", "aliases": [], "description": "a team",
                "provenance": ["https://en.wikipedia.org/wiki/Lakers"], "inception": {"~date": "1947-01-01"}
            })
        );
        let r = g.relationship_ids().next().unwrap();
        assert_eq!(g.endpoints(r), Some((ids[0], ids[1])));
        assert_eq!(g.rel_type(r).as_deref(), Some("playsFor"));
        assert_eq!(
            json(g.relationship_properties(r)),
            serde_json::json!({"start_date": {"~date": "2018-07-09"}})
        );
    }

    #[test]
    fn broken_records_are_named() {
        let dangling = NBA.replace(r#""obj_id": "Team#Q2""#, r#""obj_id": "Team#Q9""#);
        let e = parse_cypherbench_graph(&dangling, "nba.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("nba.json") && e.contains("$.relations[0]") && e.contains("Team#Q9"),
            "{e}"
        );
        let twice = NBA.replace(r#""eid": "Team#Q2""#, r#""eid": "Player#Q1""#);
        let e = parse_cypherbench_graph(&twice, "nba.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("$.entities[1]") && e.contains("used twice"),
            "{e}"
        );
        let bad_date = NBA.replace("1984-12-30", "someday");
        let e = parse_cypherbench_graph(&bad_date, "nba.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("birth_date") && e.contains("date"), "{e}");
        let map = NBA.replace(r#""draft_year": 2003"#, r#""draft_year": {"y": 2003}"#);
        assert!(parse_cypherbench_graph(&map, "nba.json").is_err());
        let fixture: Json = serde_json::from_str(r#"{"nodes": [], "relationships": []}"#).unwrap();
        assert!(!looks_like_cypherbench_graph(&fixture));
    }
}
