//! The Neo4j Data Importer model (`neo4j_importer_model.json`), and the import CSVs beside it.
//!
//! The model alone gives labels (`graphSchema.nodeLabels`), relationship types and their
//! endpoint object types (`relationshipObjectTypes`) and typed properties. It describes what the
//! Data Importer *would* create, which can differ from the database the CSVs came from: POLE's
//! model calls the area label `AREA` while the data says `Area`, maps the CSV column `id` to a
//! property `source_id`, declares `INVOLVED_IN` twice, and has no mapping at all for the
//! `KNOWS_SN` file.
//!
//! So when the CSV files the model lists (`dataSourceSchema.tableSchemas`) are found in
//! `csv_dir`, they win, read with the `neo4j-admin import` header conventions they are written in:
//! - node files: labels from the `:LABEL` column (`;`-separated), ids from `:ID` / `name:ID`
//!   (with an optional `(group)`), one property per other column, named by the text before `:`;
//! - relationship files: the type from `:TYPE` (else the model's mapping), endpoint triples from
//!   the labels of the `:START_ID` and `:END_ID` nodes of every row, one property per other column;
//! - a property's type is the header's suffix (`latitude:double`), else the model's type for the
//!   property that column maps to, else `STRING`.
//!
//! Tables whose file is missing fall back to the model.

use super::{
    parse_json, Element, Property, PropertyType, Schema, SchemaError, SchemaFormat, Triple,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const F: SchemaFormat = SchemaFormat::Importer;

fn id_of(v: &Value) -> Option<&str> {
    v.get("$id").and_then(Value::as_str)
}

/// `{"$ref": "#nl:n0"}` → `nl:n0`.
fn ref_of(v: &Value) -> Option<&str> {
    v.get("$ref")
        .and_then(Value::as_str)
        .map(|s| s.trim_start_matches('#'))
}

fn arr<'a>(v: &'a Value, path: &[&str]) -> Result<&'a Vec<Value>, SchemaError> {
    let mut cur = v;
    for p in path {
        cur = cur
            .get(p)
            .ok_or_else(|| SchemaError::invalid(F, format!("missing `{}`", path.join("."))))?;
    }
    cur.as_array()
        .ok_or_else(|| SchemaError::invalid(F, format!("`{}` must be a list", path.join("."))))
}

struct Model {
    /// property id → (name, type)
    props: BTreeMap<String, (String, PropertyType)>,
    /// node label id → (token, property ids)
    node_labels: BTreeMap<String, (String, Vec<String>)>,
    /// node object type id → label token
    node_objects: BTreeMap<String, String>,
    /// relationship type id → (token, property ids)
    rel_types: BTreeMap<String, (String, Vec<String>)>,
    /// relationship object id → (type token, from label, to label)
    rel_objects: BTreeMap<String, (String, String, String)>,
    /// table id → file name
    tables: BTreeMap<String, String>,
    /// node object type id → (table id, field name → property id)
    node_mappings: Vec<(String, String, BTreeMap<String, String>)>,
    /// relationship object id → (table id, field name → property id)
    rel_mappings: Vec<(String, String, BTreeMap<String, String>)>,
}

fn read_model(v: &Value) -> Result<Model, SchemaError> {
    let path = |last: &'static str| -> [&'static str; 4] {
        [
            "dataModel",
            "graphSchemaRepresentation",
            "graphSchema",
            last,
        ]
    };
    let mut m = Model {
        props: BTreeMap::new(),
        node_labels: BTreeMap::new(),
        node_objects: BTreeMap::new(),
        rel_types: BTreeMap::new(),
        rel_objects: BTreeMap::new(),
        tables: BTreeMap::new(),
        node_mappings: Vec::new(),
        rel_mappings: Vec::new(),
    };
    let read_props = |list: Option<&Value>,
                      props: &mut BTreeMap<String, (String, PropertyType)>| {
        let mut ids = Vec::new();
        for p in list.and_then(Value::as_array).into_iter().flatten() {
            if let (Some(id), Some(tok)) = (id_of(p), p.get("token").and_then(Value::as_str)) {
                let ty = p
                    .get("type")
                    .and_then(|t| t.get("type"))
                    .and_then(Value::as_str)
                    .map(|t| super::parse_type(F, t))
                    .transpose()?
                    .unwrap_or(PropertyType::Any);
                props.insert(id.to_string(), (tok.to_string(), ty));
                ids.push(id.to_string());
            }
        }
        Ok::<_, SchemaError>(ids)
    };
    for nl in arr(v, &path("nodeLabels"))? {
        let (Some(id), Some(tok)) = (id_of(nl), nl.get("token").and_then(Value::as_str)) else {
            return Err(SchemaError::invalid(
                F,
                "a node label lacks `$id` or `token`",
            ));
        };
        let ids = read_props(nl.get("properties"), &mut m.props)?;
        m.node_labels.insert(id.to_string(), (tok.to_string(), ids));
    }
    for no in arr(v, &path("nodeObjectTypes"))? {
        let id =
            id_of(no).ok_or_else(|| SchemaError::invalid(F, "a node object type lacks `$id`"))?;
        let label = no
            .get("labels")
            .and_then(Value::as_array)
            .and_then(|l| l.first())
            .and_then(ref_of)
            .and_then(|r| m.node_labels.get(r))
            .map(|(t, _)| t.clone())
            .ok_or_else(|| {
                SchemaError::invalid(F, format!("node object type {id} has no known label"))
            })?;
        m.node_objects.insert(id.to_string(), label);
    }
    for rt in arr(v, &path("relationshipTypes"))? {
        let (Some(id), Some(tok)) = (id_of(rt), rt.get("token").and_then(Value::as_str)) else {
            return Err(SchemaError::invalid(
                F,
                "a relationship type lacks `$id` or `token`",
            ));
        };
        let ids = read_props(rt.get("properties"), &mut m.props)?;
        m.rel_types.insert(id.to_string(), (tok.to_string(), ids));
    }
    for ro in arr(v, &path("relationshipObjectTypes"))? {
        let id = id_of(ro)
            .ok_or_else(|| SchemaError::invalid(F, "a relationship object lacks `$id`"))?;
        let get = |k: &str| ro.get(k).and_then(ref_of);
        let ty = get("type")
            .and_then(|r| m.rel_types.get(r))
            .map(|(t, _)| t.clone());
        let from = get("from").and_then(|r| m.node_objects.get(r)).cloned();
        let to = get("to").and_then(|r| m.node_objects.get(r)).cloned();
        match (ty, from, to) {
            (Some(t), Some(f), Some(e)) => {
                m.rel_objects.insert(id.to_string(), (t, f, e));
            }
            _ => {
                return Err(SchemaError::invalid(
                    F,
                    format!("relationship object {id}: unknown type, from or to"),
                ))
            }
        }
    }
    if v.pointer("/dataModel/graphMappingRepresentation").is_some() {
        let gm = ["dataModel", "graphMappingRepresentation"];
        if let Ok(tables) = arr(v, &[gm[0], gm[1], "dataSourceSchema", "tableSchemas"]) {
            for t in tables {
                if let (Some(id), Some(name)) = (id_of(t), t.get("name").and_then(Value::as_str)) {
                    check_table_name(name)?;
                    m.tables.insert(id.to_string(), name.to_string());
                }
            }
        }
        let fields = |pm: Option<&Value>| -> BTreeMap<String, String> {
            pm.and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|p| {
                    Some((
                        p.get("fieldName")?.as_str()?.to_string(),
                        ref_of(p.get("property")?)?.to_string(),
                    ))
                })
                .collect()
        };
        for nm in arr(v, &[gm[0], gm[1], "nodeMappings"])
            .into_iter()
            .flatten()
        {
            if let (Some(n), Some(t)) = (
                nm.get("node").and_then(ref_of),
                nm.get("tableSchema").and_then(ref_of),
            ) {
                m.node_mappings.push((
                    n.to_string(),
                    t.to_string(),
                    fields(nm.get("propertyMappings")),
                ));
            }
        }
        for rm in arr(v, &[gm[0], gm[1], "relationshipMappings"])
            .into_iter()
            .flatten()
        {
            if let (Some(r), Some(t)) = (
                rm.get("relationship").and_then(ref_of),
                rm.get("tableSchema").and_then(ref_of),
            ) {
                m.rel_mappings.push((
                    r.to_string(),
                    t.to_string(),
                    fields(rm.get("propertyMappings")),
                ));
            }
        }
    }
    Ok(m)
}

/// A table's file name must stay inside the CSV folder: no absolute path, no root or drive
/// prefix, no `..` component.
fn check_table_name(name: &str) -> Result<(), SchemaError> {
    use std::path::Component;
    let path = Path::new(name);
    let escapes = name.is_empty()
        || path.is_absolute()
        || name.starts_with(['/', '\\'])
        || path
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        || name.split(['/', '\\']).any(|part| part == "..");
    if escapes {
        return Err(SchemaError::invalid(
            F,
            format!("table file name `{name}` must be a relative path inside the CSV folder"),
        ));
    }
    Ok(())
}

fn element(model: &Model, prop_ids: &[String]) -> Element {
    let mut e = Element::default();
    for id in prop_ids {
        if let Some((name, ty)) = model.props.get(id) {
            e.properties.insert(name.clone(), Property::new(ty.clone()));
        }
    }
    e
}

/// Reads an importer model; with `csv_dir`, refines it from the CSV files found there (see the
/// module documentation).
pub fn read_importer(text: &str, csv_dir: Option<&Path>) -> Result<Schema, SchemaError> {
    let v = parse_json(F, text)?;
    let model = read_model(&v)?;
    let mut schema = Schema::default();
    // The model's view.
    let mut model_labels: BTreeMap<String, Element> = BTreeMap::new();
    for (tok, ids) in model.node_labels.values() {
        let e = model_labels.entry(tok.clone()).or_default();
        e.properties.extend(element(&model, ids).properties);
    }
    let mut model_types: BTreeMap<String, Element> = BTreeMap::new();
    for (tok, ids) in model.rel_types.values() {
        let e = model_types.entry(tok.clone()).or_default();
        e.properties.extend(element(&model, ids).properties);
    }
    let Some(dir) = csv_dir else {
        schema.labels = model_labels;
        schema.relationship_types = model_types;
        for (t, f, e) in model.rel_objects.values() {
            schema.triples.insert(Triple::new(f, t, e));
        }
        return Ok(schema);
    };

    // The data's view, table by table.
    let mut node_ids: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut done_node_objects = BTreeSet::new();
    let mut used_tables = BTreeSet::new();
    for (node_obj, table, fields) in &model.node_mappings {
        let Some(file) = model.tables.get(table) else {
            continue;
        };
        let path = dir.join(file);
        if !path.exists() {
            continue;
        }
        let label_token = model
            .node_objects
            .get(node_obj)
            .cloned()
            .unwrap_or_default();
        let table_data = read_csv(&path)?;
        let cols = columns(&table_data.header, fields, &model);
        let mut labels_here: BTreeSet<String> = BTreeSet::new();
        for row in &table_data.rows {
            let mut labels: Vec<String> = match cols.label {
                Some(i) => row
                    .get(i)
                    .map(|s| {
                        s.split(';')
                            .filter(|x| !x.is_empty())
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
                None => Vec::new(),
            };
            if labels.is_empty() {
                labels.push(label_token.clone());
            }
            labels_here.extend(labels.iter().cloned());
            if let Some((i, group)) = &cols.id {
                if let Some(id) = row.get(*i) {
                    node_ids.insert((group.clone(), id.clone()), labels);
                }
            }
        }
        for l in labels_here {
            let e = schema.labels.entry(l).or_default();
            for (name, ty) in &cols.props {
                e.properties.insert(name.clone(), Property::new(ty.clone()));
            }
        }
        done_node_objects.insert(node_obj.clone());
        used_tables.insert(table.clone());
    }
    // Labels whose file is missing: the model's.
    for (obj, tok) in &model.node_objects {
        if !done_node_objects.contains(obj) {
            if let Some(e) = model_labels.get(tok) {
                schema
                    .labels
                    .entry(tok.clone())
                    .or_insert_with(|| e.clone());
            }
        }
    }
    // Relationship tables: every remaining table whose file has `:START_ID` and `:END_ID`.
    let mut types_from_data = BTreeSet::new();
    let mapped: BTreeMap<&str, (&str, &BTreeMap<String, String>)> = model
        .rel_mappings
        .iter()
        .map(|(r, t, f)| (t.as_str(), (r.as_str(), f)))
        .collect();
    for (table, file) in &model.tables {
        if used_tables.contains(table) {
            continue;
        }
        let path = dir.join(file);
        if !path.exists() {
            continue;
        }
        let table_data = read_csv(&path)?;
        let empty = BTreeMap::new();
        let (rel_obj, fields) = mapped.get(table.as_str()).copied().unwrap_or(("", &empty));
        let cols = columns(&table_data.header, fields, &model);
        let (Some((si, sg)), Some((ei, eg))) = (&cols.start, &cols.end) else {
            continue;
        };
        let model_type = model.rel_objects.get(rel_obj).map(|(t, _, _)| t.clone());
        let mut types_here = BTreeSet::new();
        for row in &table_data.rows {
            let ty = match cols.rel_type {
                Some(i) => row.get(i).cloned().unwrap_or_default(),
                None => model_type.clone().unwrap_or_default(),
            };
            if ty.is_empty() {
                continue;
            }
            let (Some(s), Some(e)) = (row.get(*si), row.get(*ei)) else {
                continue;
            };
            let (Some(sl), Some(el)) = (
                node_ids.get(&(sg.clone(), s.clone())),
                node_ids.get(&(eg.clone(), e.clone())),
            ) else {
                continue;
            };
            for a in sl {
                for b in el {
                    schema.triples.insert(Triple::new(a, &ty, b));
                }
            }
            types_here.insert(ty);
        }
        for t in types_here {
            let e = schema.relationship_types.entry(t.clone()).or_default();
            for (name, ty) in &cols.props {
                e.properties.insert(name.clone(), Property::new(ty.clone()));
            }
            types_from_data.insert(t);
        }
    }
    // Types with no file: the model's.
    for (t, f, e) in model.rel_objects.values() {
        if !types_from_data.contains(t) {
            schema.triples.insert(Triple::new(f, t, e));
            if let Some(el) = model_types.get(t) {
                schema
                    .relationship_types
                    .entry(t.clone())
                    .or_insert_with(|| el.clone());
            }
        }
    }
    Ok(schema)
}

struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn read_csv(path: &Path) -> Result<Table, SchemaError> {
    let err = |message: String| SchemaError::Csv {
        path: path.display().to_string(),
        message,
    };
    let mut r = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .map_err(|e| err(e.to_string()))?;
    let header: Vec<String> = r
        .headers()
        .map_err(|e| err(e.to_string()))?
        .iter()
        .map(str::to_string)
        .collect();
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| err(e.to_string()))?;
        rows.push(rec.iter().map(str::to_string).collect());
    }
    Ok(Table { header, rows })
}

#[derive(Default)]
struct Columns {
    id: Option<(usize, String)>,
    label: Option<usize>,
    start: Option<(usize, String)>,
    end: Option<(usize, String)>,
    rel_type: Option<usize>,
    props: Vec<(String, PropertyType)>,
}

/// Splits `name:KIND(group)` into `(name, KIND, group)`.
fn split_field(f: &str) -> (&str, &str, &str) {
    let (name, rest) = f.split_once(':').unwrap_or((f, ""));
    let (kind, group) = match rest.split_once('(') {
        Some((k, g)) => (k, g.trim_end_matches(')')),
        None => (rest, ""),
    };
    (name, kind, group)
}

fn columns(header: &[String], fields: &BTreeMap<String, String>, model: &Model) -> Columns {
    let mut c = Columns::default();
    for (i, f) in header.iter().enumerate() {
        let (name, kind, group) = split_field(f);
        match kind.to_ascii_uppercase().as_str() {
            "ID" => {
                c.id = Some((i, group.to_string()));
                if name.is_empty() {
                    continue;
                }
            }
            "LABEL" => {
                c.label = Some(i);
                continue;
            }
            "START_ID" => {
                c.start = Some((i, group.to_string()));
                continue;
            }
            "END_ID" => {
                c.end = Some((i, group.to_string()));
                continue;
            }
            "TYPE" => {
                c.rel_type = Some(i);
                continue;
            }
            "IGNORE" => continue,
            _ => {}
        }
        if name.is_empty() {
            continue;
        }
        let ty = if !kind.is_empty() && !kind.eq_ignore_ascii_case("ID") {
            PropertyType::parse(kind)
        } else {
            fields
                .get(f)
                .and_then(|p| model.props.get(p))
                .map(|(_, t)| t.clone())
                .unwrap_or(PropertyType::String)
        };
        c.props.push((name.to_string(), ty));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fields_split_into_name_kind_group() {
        assert_eq!(split_field(":ID"), ("", "ID", ""));
        assert_eq!(split_field("id:ID(Person)"), ("id", "ID", "Person"));
        assert_eq!(split_field("latitude:double"), ("latitude", "double", ""));
        assert_eq!(split_field("name"), ("name", "", ""));
    }
}
