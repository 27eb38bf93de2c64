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
//! Optional `indexes` and `constraints` arrays give the schema, one object per rule in the
//! shape of `SHOW INDEXES` / `SHOW CONSTRAINTS` rows (so their `YIELD *` output can be pasted):
//! `{"name", "type", "entityType", "labelsOrTypes", "properties", "options": {"indexConfig":
//! {…}}}` and `{"name", "type", "labelsOrTypes", "properties", "propertyType"}`. `name` may be
//! left out (Neo4j's generated name is used); `type` is `RANGE` (the default), `TEXT`, `POINT`,
//! `LOOKUP`, `FULLTEXT` or `VECTOR` for indexes, and `UNIQUENESS` (or
//! `NODE_PROPERTY_UNIQUENESS`), `RELATIONSHIP_UNIQUENESS`, `NODE_KEY`, `RELATIONSHIP_KEY`,
//! `NODE_PROPERTY_EXISTENCE`, `RELATIONSHIP_PROPERTY_EXISTENCE`, `NODE_PROPERTY_TYPE` or
//! `RELATIONSHIP_PROPERTY_TYPE` for constraints. Without `indexes` a graph has Neo4j's two
//! LOOKUP indexes; with it, exactly the listed ones (an index a constraint owns comes with its
//! constraint, and rows with an `owningConstraint` are skipped). Whether the data satisfies the
//! constraints is checked by `grape::engine::load_graph`.
//!
//! Value encoding (also used for query results): null, booleans and strings as JSON; integers
//! without a decimal point and floats with one (`1` vs `1.0`); NaN and infinities as
//! `{"~float": "NaN"}` / `"Infinity"` / `"-Infinity"`; lists as arrays; maps as objects; a node
//! as `{"~node": {"id", "elementId", "labels", "properties"}}`, a relationship as
//! `{"~rel": {"id", "elementId", "type", "start", "end", "properties"}}` (`elementId` as
//! Cypher's `elementId()` gives it: `4:<database id>:<id>`, `5:…` for relationships), a path as
//! `{"~path": [node, rel, node, …]}`; temporal values as their ISO text under `~date`,
//! `~localtime`, `~time`, `~localdatetime`, `~datetime` or `~duration`; points as
//! `{"~point": {"crs": "wgs-84", "x": 12.5, "y": 55.6}}` (`crs` or `srid`, and `x`/`y`/`z` or
//! `longitude`/`latitude`/`height`, as `point()` takes them).

use super::ImportError;
use crate::graph::schema::{ConstraintDef, ConstraintRule, EntityType, IndexDef, Schema};
use crate::graph::Graph;
use crate::value::{Entities, NodeId, RelId, Value};
use serde_json::{json, Map as JsonMap, Number, Value as Json};
use std::collections::BTreeMap;
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
        Value::Bytes(b) => {
            json!({"~bytes": b.iter().map(|x| format!("{x:02x}")).collect::<String>()})
        }
        Value::List(l) => Json::Array(
            l.iter()
                .map(|x| crate::stack::deeper(|| value_to_json(x, entities)))
                .collect(),
        ),
        Value::Map(m) => Json::Object(
            m.iter()
                .map(|(k, x)| {
                    (
                        k.to_string(),
                        crate::stack::deeper(|| value_to_json(x, entities)),
                    )
                })
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
        Value::Point(p) => {
            let mut m = JsonMap::new();
            m.insert("crs".into(), Json::String(p.crs.name().into()));
            for (k, c) in ["x", "y", "z"].into_iter().zip(p.coordinates()) {
                m.insert(k.into(), value_to_json(&Value::Float(c), entities));
            }
            json!({ "~point": m })
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
    json!({"~node": {
        "id": n.0,
        "elementId": entities.element_id(true, n.0),
        "labels": labels,
        "properties": props_json(&entities.node_props(n), entities),
    }})
}

fn rel_json(r: RelId, entities: &dyn Entities) -> Json {
    let (start, end) = entities
        .rel_endpoints(r)
        .map(|(a, b)| (json!(a.0), json!(b.0)))
        .unwrap_or((Json::Null, Json::Null));
    json!({"~rel": {
        "id": r.0,
        "elementId": entities.element_id(false, r.0),
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
                        "~bytes" => {
                            return crate::value::bytes_from_hex(text)
                                .map(|b| Value::Bytes(b.into()))
                                .ok_or_else(|| format!("{path}: ~bytes is not hexadecimal text"))
                        }
                        _ => None,
                    };
                    if let Some(p) = parsed {
                        return p.map(Value::from).map_err(|e| format!("{path}: {e}"));
                    }
                }
                if let Some(Json::Object(fields)) = o.get("~point") {
                    return point_from_json(fields, path);
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

/// `{"~point": {"crs": "wgs-84", "x": 12.5, "y": 55.6}}` (or `srid`, or `longitude` /
/// `latitude` / `height`: the keys `point()` takes).
fn point_from_json(fields: &JsonMap<String, Json>, path: &str) -> Result<Value, String> {
    use crate::spatial::{Input, Point};
    let inputs: Vec<(&str, Input<'_>)> = fields
        .iter()
        .map(|(k, v)| {
            let input = match v {
                Json::Number(n) => Input::Number(n.as_f64().unwrap_or(f64::NAN)),
                Json::String(s) => Input::Text(s),
                Json::Null => Input::Null,
                Json::Bool(_) => Input::Other("BOOLEAN"),
                Json::Array(_) => Input::Other("LIST"),
                Json::Object(_) => Input::Other("MAP"),
            };
            (k.as_str(), input)
        })
        .collect();
    match Point::from_map(inputs) {
        Ok(Some(p)) => Ok(Value::from(p)),
        Ok(None) => Err(format!(
            "{path}: a ~point needs every coordinate (one is null)"
        )),
        Err(e) => Err(format!("{path}: {e}")),
    }
}

/// Reads a fixture file.
pub fn load_json_fixture(path: &std::path::Path) -> Result<Graph, ImportError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| ImportError::new(&file, None, format!("cannot read: {e}")))?;
    parse_json_fixture(&text, &file)
}

/// Parses fixture text; `file` names it in errors. The text is read as a stream (see
/// `fixture.rs`): no document tree is built.
pub fn parse_json_fixture(text: &str, file: &str) -> Result<Graph, ImportError> {
    match super::fixture::read_fixture(text.as_bytes(), file, false) {
        Ok(g) => Ok(g),
        Err(super::fixture::FixtureError::Import(e)) => Err(e),
        Err(super::fixture::FixtureError::NotAFixture) => Err(ImportError::new(
            file,
            Some("$".into()),
            "expected an object with `nodes` and `relationships`",
        )),
    }
}

pub(super) type SchemaErr = (String, String);

fn str_list(j: Option<&Json>, loc: &str) -> Result<Vec<Arc<str>>, SchemaErr> {
    match j {
        None | Some(Json::Null) => Ok(Vec::new()),
        Some(Json::Array(xs)) => xs
            .iter()
            .map(|x| {
                x.as_str()
                    .map(Arc::from)
                    .ok_or_else(|| (loc.to_string(), "expected strings".to_string()))
            })
            .collect(),
        Some(_) => Err((loc.to_string(), "expected an array of strings".into())),
    }
}

fn entity_of(j: Option<&Json>, loc: &str) -> Result<Option<EntityType>, SchemaErr> {
    match j.and_then(|e| e.as_str()) {
        None => Ok(None),
        Some(e) if e.eq_ignore_ascii_case("NODE") => Ok(Some(EntityType::Node)),
        Some(e) if e.eq_ignore_ascii_case("RELATIONSHIP") => Ok(Some(EntityType::Relationship)),
        Some(e) => Err((loc.to_string(), format!("unknown entityType {e:?}"))),
    }
}

/// A property type as a type predicate writes it (`INTEGER | FLOAT`), read by the parser.
fn property_type(text: &str) -> Option<crate::syntax::CypherType> {
    let stmt = crate::syntax::parse(&format!("RETURN null IS :: {text} AS t")).ok()?;
    let crate::syntax::Clause::Return(r) = stmt.query.first.clauses.first()? else {
        return None;
    };
    match &r.projection.items.first()?.expr.kind {
        crate::syntax::ExprKind::IsType { ty, .. } => Some(ty.clone()),
        _ => None,
    }
}

/// The `indexes` and `constraints` sections as a schema.
pub(super) fn fixture_schema(obj: &JsonMap<String, Json>) -> Result<Schema, SchemaErr> {
    use crate::syntax::IndexKind;
    let mut schema = if obj.contains_key("indexes") {
        Schema::empty()
    } else {
        Schema::default()
    };
    let array = |k: &str| -> Result<Vec<Json>, SchemaErr> {
        match obj.get(k) {
            None | Some(Json::Null) => Ok(Vec::new()),
            Some(Json::Array(a)) => Ok(a.clone()),
            Some(_) => Err((format!("$.{k}"), "expected an array".into())),
        }
    };
    for (i, x) in array("indexes")?.iter().enumerate() {
        let loc = format!("$.indexes[{i}]");
        let o = x
            .as_object()
            .ok_or_else(|| (loc.clone(), "expected an object".to_string()))?;
        if o.get("owningConstraint").is_some_and(|c| !c.is_null()) {
            continue;
        }
        let kind = match o.get("type").and_then(|t| t.as_str()).unwrap_or("RANGE") {
            t if t.eq_ignore_ascii_case("RANGE") => IndexKind::Range,
            t if t.eq_ignore_ascii_case("TEXT") => IndexKind::Text,
            t if t.eq_ignore_ascii_case("POINT") => IndexKind::Point,
            t if t.eq_ignore_ascii_case("LOOKUP") => IndexKind::Lookup,
            t if t.eq_ignore_ascii_case("FULLTEXT") => IndexKind::Fulltext,
            t if t.eq_ignore_ascii_case("VECTOR") => IndexKind::Vector,
            t => return Err((format!("{loc}.type"), format!("unknown index type {t:?}"))),
        };
        let entity = entity_of(o.get("entityType"), &format!("{loc}.entityType"))?
            .unwrap_or(EntityType::Node);
        let labels = str_list(o.get("labelsOrTypes"), &format!("{loc}.labelsOrTypes"))?;
        let properties = str_list(o.get("properties"), &format!("{loc}.properties"))?;
        let lookup = kind == IndexKind::Lookup;
        let want_labels = match kind {
            IndexKind::Lookup => 0..=0,
            IndexKind::Fulltext => 1..=usize::MAX,
            _ => 1..=1,
        };
        let want_props = match kind {
            IndexKind::Lookup => 0..=0,
            IndexKind::Text | IndexKind::Point | IndexKind::Vector => 1..=1,
            _ => 1..=usize::MAX,
        };
        if !want_labels.contains(&labels.len()) || !want_props.contains(&properties.len()) {
            return Err((
                loc,
                format!(
                    "a {} index takes {} and {}",
                    kind.name(),
                    if lookup {
                        "no labelsOrTypes"
                    } else if kind == IndexKind::Fulltext {
                        "labelsOrTypes"
                    } else {
                        "one of labelsOrTypes"
                    },
                    if lookup {
                        "no properties"
                    } else if want_props.end() == &1 {
                        "one property"
                    } else {
                        "properties"
                    }
                ),
            ));
        }
        let mut config = BTreeMap::new();
        if let Some(Json::Object(opts)) = o.get("options") {
            if let Some(Json::Object(cfg)) = opts.get("indexConfig") {
                for (k, v) in cfg {
                    let v = json_to_value(v, &format!("{loc}.options.indexConfig.{k}"))
                        .map_err(|m| (loc.clone(), m))?;
                    config.insert(Arc::from(k.as_str()), v);
                }
            }
        }
        let config =
            crate::graph::schema::index_config(kind, config).map_err(|m| (loc.clone(), m))?;
        let mut def = IndexDef {
            id: 0,
            name: Arc::from(""),
            kind,
            entity,
            labels_or_types: labels,
            properties,
            config,
            owning_constraint: None,
        };
        def.name = match o.get("name").and_then(|n| n.as_str()) {
            Some(n) => Arc::from(n),
            None => crate::graph::schema::default_index_name(&def),
        };
        if schema.index(&def.name).is_some() {
            return Err((loc, format!("a second index called {:?}", def.name)));
        }
        if schema.indexes().iter().any(|x| {
            x.same_schema(&def) || (lookup && x.kind == IndexKind::Lookup && x.entity == def.entity)
        }) {
            return Err((
                loc,
                "a second index of the same kind on the same schema".into(),
            ));
        }
        def.id = schema.take_id();
        schema.push_index(def);
    }
    for (i, x) in array("constraints")?.iter().enumerate() {
        let loc = format!("$.constraints[{i}]");
        let o = x
            .as_object()
            .ok_or_else(|| (loc.clone(), "expected an object".to_string()))?;
        let ty = o
            .get("type")
            .and_then(|t| t.as_str())
            .ok_or_else(|| (loc.clone(), "missing string `type`".to_string()))?
            .to_ascii_uppercase();
        let (rule, mut entity) = match ty.as_str() {
            "UNIQUENESS" | "NODE_PROPERTY_UNIQUENESS" => (ConstraintRule::Unique, EntityType::Node),
            "RELATIONSHIP_UNIQUENESS" | "RELATIONSHIP_PROPERTY_UNIQUENESS" => {
                (ConstraintRule::Unique, EntityType::Relationship)
            }
            "NODE_KEY" => (ConstraintRule::Key, EntityType::Node),
            "RELATIONSHIP_KEY" => (ConstraintRule::Key, EntityType::Relationship),
            "NODE_PROPERTY_EXISTENCE" => (ConstraintRule::Exists, EntityType::Node),
            "RELATIONSHIP_PROPERTY_EXISTENCE" => (ConstraintRule::Exists, EntityType::Relationship),
            "NODE_PROPERTY_TYPE" | "RELATIONSHIP_PROPERTY_TYPE" => {
                let text = o
                    .get("propertyType")
                    .and_then(|t| t.as_str())
                    .ok_or_else(|| {
                        (
                            loc.clone(),
                            "a property type constraint needs `propertyType`".to_string(),
                        )
                    })?;
                let t = property_type(text)
                    .filter(crate::graph::schema::valid_property_type)
                    .ok_or_else(|| {
                        (
                            format!("{loc}.propertyType"),
                            format!("invalid property type {text:?}"),
                        )
                    })?;
                let entity = if ty.starts_with("NODE") {
                    EntityType::Node
                } else {
                    EntityType::Relationship
                };
                (
                    ConstraintRule::Typed(crate::graph::schema::normalized_type(&t)),
                    entity,
                )
            }
            t => {
                return Err((
                    format!("{loc}.type"),
                    format!("unknown constraint type {t:?}"),
                ))
            }
        };
        if let Some(e) = entity_of(o.get("entityType"), &format!("{loc}.entityType"))? {
            entity = e;
        }
        let labels = str_list(o.get("labelsOrTypes"), &format!("{loc}.labelsOrTypes"))?;
        let properties = str_list(o.get("properties"), &format!("{loc}.properties"))?;
        let single = matches!(rule, ConstraintRule::Exists | ConstraintRule::Typed(_));
        if labels.len() != 1 || properties.is_empty() || (single && properties.len() > 1) {
            return Err((
                loc,
                "a constraint takes one of labelsOrTypes and its properties (one for existence and type constraints)".into(),
            ));
        }
        let mut def = ConstraintDef {
            id: 0,
            name: Arc::from(""),
            rule,
            entity,
            label: labels[0].clone(),
            properties,
            owned_index: None,
        };
        def.name = match o.get("name").and_then(|n| n.as_str()) {
            Some(n) => Arc::from(n),
            None => crate::graph::schema::default_constraint_name(&def),
        };
        if schema.constraint(&def.name).is_some() || schema.index(&def.name).is_some() {
            return Err((loc, format!("a second rule called {:?}", def.name)));
        }
        if schema.constraints().iter().any(|x| x.same_schema(&def)) {
            return Err((
                loc,
                "a second constraint of the same kind on the same schema".into(),
            ));
        }
        if def.requires_uniqueness() {
            let backing = IndexDef {
                id: schema.take_id(),
                name: def.name.clone(),
                kind: IndexKind::Range,
                entity,
                labels_or_types: vec![def.label.clone()],
                properties: def.properties.clone(),
                config: BTreeMap::new(),
                owning_constraint: Some(def.name.clone()),
            };
            if schema.indexes().iter().any(|x| x.same_schema(&backing)) {
                return Err((loc, "an index on the same schema is listed too".into()));
            }
            def.owned_index = Some(backing.name.clone());
            schema.push_index(backing);
        }
        def.id = schema.take_id();
        schema.push_constraint(def);
    }
    Ok(schema)
}

/// The schema as fixture sections, when it is not a new graph's (Neo4j's two LOOKUP indexes).
pub(super) fn schema_json(g: &Graph, m: &mut JsonMap<String, Json>) {
    let schema = g.schema();
    let default = schema.constraints().is_empty()
        && schema.indexes().len() == 2
        && schema.indexes().iter().all(|i| {
            i.kind == crate::syntax::IndexKind::Lookup
                && (&*i.name == crate::graph::schema::NODE_LOOKUP_INDEX
                    || &*i.name == crate::graph::schema::RELATIONSHIP_LOOKUP_INDEX)
        });
    if default {
        return;
    }
    let strs =
        |xs: &[Arc<str>]| Json::Array(xs.iter().map(|x| Json::String(x.to_string())).collect());
    let indexes: Vec<Json> = schema
        .indexes()
        .iter()
        .filter(|i| i.owning_constraint.is_none())
        .map(|i| {
            let cfg: JsonMap<String, Json> = i
                .config
                .iter()
                .map(|(k, v)| (k.to_string(), value_to_json(v, g)))
                .collect();
            json!({
                "name": &*i.name,
                "type": i.kind.name(),
                "entityType": i.entity.name(),
                "labelsOrTypes": strs(&i.labels_or_types),
                "properties": strs(&i.properties),
                "options": {"indexConfig": cfg},
            })
        })
        .collect();
    let constraints: Vec<Json> = schema
        .constraints()
        .iter()
        .map(|c| {
            let mut o = json!({
                "name": &*c.name,
                "type": c.type_name(false),
                "entityType": c.entity.name(),
                "labelsOrTypes": [&*c.label],
                "properties": strs(&c.properties),
            });
            if let ConstraintRule::Typed(t) = &c.rule {
                o["propertyType"] = Json::String(crate::syntax::print_type(t));
            }
            o
        })
        .collect();
    m.insert("indexes".into(), Json::Array(indexes));
    m.insert("constraints".into(), Json::Array(constraints));
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
    schema_json(g, &mut m);
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
