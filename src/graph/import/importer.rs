//! Neo4j Data Importer folders: CSV files plus `neo4j_importer_model.json`.
//!
//! What is read, and how:
//! - The model's `graphMappingRepresentation` says which CSV (`tableSchemas`) feeds which node or
//!   relationship type (`nodeMappings`, `relationshipMappings`) and which column feeds which
//!   property (`propertyMappings`: a column may be renamed, e.g. POLE's Crime column `id` is
//!   the property `source_id`). Columns that no mapping names are not loaded.
//! - Node ids: the column mapped to the node type's key property (`nodeKeyProperties`, `:ID` in
//!   POLE) identifies the node; relationship rows refer to it through their `fromMapping` /
//!   `toMapping` columns. Ids are one global space, as `neo4j-admin import` treats `:ID`.
//! - Labels: a node file's `:LABEL` column when it has one (`;` separates several labels), else
//!   the model's label tokens. (POLE's model calls Area `AREA`; its CSV and every query say
//!   `Area`.)
//! - Types, [`ImporterTypes`]: `Model` converts every value to the model's property type;
//!   `Strings` keeps values as the CSV header declares them (`name:double` is a float, a column
//!   without a type is a string), except the key property, which gets the model's type — the
//!   shape of the original POLE dump, which ZOGRASCOPE's gold queries assume (they compare
//!   `year` and `call_duration` with string literals).
//! - A table that several relationship mappings share (POLE's INVOLVED_IN file serves both
//!   Vehicle→Crime and Object→Crime) is loaded once.
//! - Relationship files the model lists but maps to nothing (POLE's KNOWS_SN) and CSV files the
//!   model does not list are loaded by their headers: `:START_ID`, `:END_ID`, `:TYPE` (or the
//!   file name) for relationships, `:ID` and `:LABEL` for nodes; other columns by header type.
//! - Empty cells are absent properties.
//! - The model's constraints (`graphSchema.constraints`: uniqueness, key, existence) and its
//!   indexes (`graphSchema.indexes`: default/range, text, point) are created with their names,
//!   as Neo4j's Data Importer creates them; an index named like a constraint is the one that
//!   backs it. (POLE: 11 uniqueness constraints and 12 more RANGE indexes.)

use super::ImportError;
use crate::graph::{Graph, Sym};
use crate::value::{NodeId, Value};
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// How CSV cells become values (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ImporterTypes {
    /// The model's property types.
    Model,
    /// As the CSV header declares; strings when it declares nothing.
    #[default]
    Strings,
}

impl std::str::FromStr for ImporterTypes {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "model" => Ok(ImporterTypes::Model),
            "strings" => Ok(ImporterTypes::Strings),
            other => Err(format!(
                "unknown --types {other:?}: expected `model` or `strings`"
            )),
        }
    }
}

/// The type a value converts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    String,
    Integer,
    Float,
    Boolean,
}

fn ty_from_model(t: &str) -> Ty {
    match t {
        "integer" | "int" | "long" => Ty::Integer,
        "float" | "double" => Ty::Float,
        "boolean" => Ty::Boolean,
        _ => Ty::String,
    }
}

/// The type declared in a CSV header (`age:int`), and the bare column name.
fn header_type(header: &str) -> (String, Ty) {
    // `:ID`, `:LABEL` and friends are special columns, not typed names.
    if header.starts_with(':') {
        return (header.to_string(), Ty::String);
    }
    match header.rsplit_once(':') {
        Some((name, t)) => {
            let ty = match t.to_ascii_lowercase().as_str() {
                "int" | "long" | "short" | "byte" | "integer" => Ty::Integer,
                "float" | "double" => Ty::Float,
                "boolean" => Ty::Boolean,
                _ => Ty::String,
            };
            (name.to_string(), ty)
        }
        None => (header.to_string(), Ty::String),
    }
}

fn convert(cell: &str, ty: Ty) -> Result<Value, String> {
    match ty {
        Ty::String => Ok(Value::String(Arc::from(cell))),
        Ty::Integer => cell
            .trim()
            .parse::<i64>()
            .map(Value::Int)
            .map_err(|_| format!("{cell:?} is not an integer")),
        Ty::Float => cell
            .trim()
            .parse::<f64>()
            .map(Value::Float)
            .map_err(|_| format!("{cell:?} is not a float")),
        Ty::Boolean => match cell.trim().to_ascii_lowercase().as_str() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("{cell:?} is not a boolean")),
        },
    }
}

/// A property as the model defines it.
#[derive(Clone, Debug)]
struct ModelProp {
    token: String,
    ty: Ty,
}

struct Model {
    /// `nl:…` → label token, and its properties.
    labels: HashMap<String, (String, Vec<String>)>,
    props: HashMap<String, ModelProp>,
    /// `n:…` → label ids.
    node_types: HashMap<String, Vec<String>>,
    /// `rt:…` → type token.
    rel_types: HashMap<String, String>,
    /// `r:…` → type id.
    rel_objects: HashMap<String, String>,
    /// `n:…` → key property id.
    node_keys: HashMap<String, String>,
    /// `t:…` → file name.
    tables: HashMap<String, String>,
    /// The model's constraints and indexes (`graphSchema.constraints` / `.indexes`), which
    /// Neo4j's Data Importer creates.
    schema: Vec<ModelSchemaRule>,
    node_mappings: Vec<NodeMapping>,
    rel_mappings: Vec<RelMapping>,
}

/// A constraint or index of the model: its name, what it is, whether it is on relationships,
/// the label or type id, and the property ids.
struct ModelSchemaRule {
    name: String,
    what: SchemaRuleKind,
    relationship: bool,
    token: String,
    props: Vec<String>,
}

enum SchemaRuleKind {
    Constraint(crate::graph::schema::ConstraintRule),
    Index(crate::syntax::IndexKind),
}

struct NodeMapping {
    node: String,
    table: String,
    props: Vec<(String, String)>,
}

struct RelMapping {
    rel: String,
    table: String,
    props: Vec<(String, String)>,
    from: String,
    to: String,
}

fn refid(j: &Json) -> Option<String> {
    j.get("$ref")
        .and_then(|r| r.as_str())
        .map(|s| s.trim_start_matches('#').to_string())
}

fn s(j: &Json, k: &str) -> Option<String> {
    j.get(k).and_then(|v| v.as_str()).map(str::to_string)
}

fn arr<'a>(j: &'a Json, path: &[&str]) -> &'a [Json] {
    let mut cur = j;
    for p in path {
        match cur.get(p) {
            Some(x) => cur = x,
            None => return &[],
        }
    }
    cur.as_array().map(|v| v.as_slice()).unwrap_or(&[])
}

fn read_model(doc: &Json) -> Model {
    let dm = doc.get("dataModel").unwrap_or(doc);
    let gs = &dm["graphSchemaRepresentation"]["graphSchema"];
    let mut m = Model {
        labels: HashMap::new(),
        props: HashMap::new(),
        node_types: HashMap::new(),
        rel_types: HashMap::new(),
        rel_objects: HashMap::new(),
        node_keys: HashMap::new(),
        tables: HashMap::new(),
        schema: Vec::new(),
        node_mappings: Vec::new(),
        rel_mappings: Vec::new(),
    };
    let add_props = |m: &mut Model, list: &[Json]| -> Vec<String> {
        let mut ids = Vec::new();
        for p in list {
            if let (Some(id), Some(token)) = (s(p, "$id"), s(p, "token")) {
                let ty = p
                    .get("type")
                    .and_then(|t| t.get("type"))
                    .and_then(|t| t.as_str())
                    .map(ty_from_model)
                    .unwrap_or(Ty::String);
                m.props.insert(id.clone(), ModelProp { token, ty });
                ids.push(id);
            }
        }
        ids
    };
    for nl in arr(gs, &["nodeLabels"]) {
        let ids = add_props(&mut m, arr(nl, &["properties"]));
        if let (Some(id), Some(token)) = (s(nl, "$id"), s(nl, "token")) {
            m.labels.insert(id, (token, ids));
        }
    }
    for rt in arr(gs, &["relationshipTypes"]) {
        add_props(&mut m, arr(rt, &["properties"]));
        if let (Some(id), Some(token)) = (s(rt, "$id"), s(rt, "token")) {
            m.rel_types.insert(id, token);
        }
    }
    for nt in arr(gs, &["nodeObjectTypes"]) {
        if let Some(id) = s(nt, "$id") {
            let labels = arr(nt, &["labels"]).iter().filter_map(refid).collect();
            m.node_types.insert(id, labels);
        }
    }
    for ro in arr(gs, &["relationshipObjectTypes"]) {
        if let (Some(id), Some(t)) = (s(ro, "$id"), ro.get("type").and_then(refid)) {
            m.rel_objects.insert(id, t);
        }
    }
    for k in arr(
        dm,
        &["graphSchemaExtensionsRepresentation", "nodeKeyProperties"],
    ) {
        if let (Some(n), Some(p)) = (
            k.get("node").and_then(refid),
            k.get("keyProperty").and_then(refid),
        ) {
            m.node_keys.insert(n, p);
        }
    }
    // Constraints, then the indexes that do not back one (a uniqueness or key constraint's
    // index has the constraint's name and comes with it).
    use crate::graph::schema::ConstraintRule;
    let rule_of = |j: &Json, what: SchemaRuleKind| -> Option<ModelSchemaRule> {
        let relationship = s(j, "entityType").as_deref() == Some("relationship");
        let token = if relationship {
            j.get("relationshipType").and_then(refid)?
        } else {
            j.get("nodeLabel").and_then(refid)?
        };
        Some(ModelSchemaRule {
            name: s(j, "name")?,
            what,
            relationship,
            token,
            props: arr(j, &["properties"]).iter().filter_map(refid).collect(),
        })
    };
    let mut constraint_names = HashSet::new();
    for c in arr(gs, &["constraints"]) {
        let rule = match s(c, "constraintType").as_deref() {
            Some("uniqueness") => ConstraintRule::Unique,
            Some("key") => ConstraintRule::Key,
            Some("existence") => ConstraintRule::Exists,
            _ => continue,
        };
        if let Some(r) = rule_of(c, SchemaRuleKind::Constraint(rule)) {
            constraint_names.insert(r.name.clone());
            m.schema.push(r);
        }
    }
    for i in arr(gs, &["indexes"]) {
        use crate::syntax::IndexKind;
        let kind = match s(i, "indexType").as_deref() {
            Some("default" | "range") => IndexKind::Range,
            Some("text") => IndexKind::Text,
            Some("point") => IndexKind::Point,
            _ => continue,
        };
        if let Some(r) = rule_of(i, SchemaRuleKind::Index(kind)) {
            if !constraint_names.contains(&r.name) {
                m.schema.push(r);
            }
        }
    }
    let gm = &dm["graphMappingRepresentation"];
    for t in arr(gm, &["dataSourceSchema", "tableSchemas"]) {
        if let (Some(id), Some(name)) = (s(t, "$id"), s(t, "name")) {
            m.tables.insert(id, name);
        }
    }
    let prop_maps = |j: &Json| -> Vec<(String, String)> {
        arr(j, &["propertyMappings"])
            .iter()
            .filter_map(|pm| Some((s(pm, "fieldName")?, pm.get("property").and_then(refid)?)))
            .collect()
    };
    for nm in arr(gm, &["nodeMappings"]) {
        if let (Some(node), Some(table)) = (
            nm.get("node").and_then(refid),
            nm.get("tableSchema").and_then(refid),
        ) {
            m.node_mappings.push(NodeMapping {
                node,
                table,
                props: prop_maps(nm),
            });
        }
    }
    for rm in arr(gm, &["relationshipMappings"]) {
        if let (Some(rel), Some(table)) = (
            rm.get("relationship").and_then(refid),
            rm.get("tableSchema").and_then(refid),
        ) {
            m.rel_mappings.push(RelMapping {
                rel,
                table,
                props: prop_maps(rm),
                from: rm
                    .get("fromMapping")
                    .and_then(|f| s(f, "fieldName"))
                    .unwrap_or_else(|| ":START_ID".into()),
                to: rm
                    .get("toMapping")
                    .and_then(|f| s(f, "fieldName"))
                    .unwrap_or_else(|| ":END_ID".into()),
            });
        }
    }
    m
}

/// A CSV file read into memory: header and records with their line numbers.
struct Table {
    name: String,
    headers: Vec<String>,
    rows: Vec<(u64, csv::StringRecord)>,
}

fn read_csv(path: &Path) -> Result<Table, ImportError> {
    let name = path
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    let file = path.display().to_string();
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(false)
        .from_path(path)
        .map_err(|e| ImportError::new(&file, None, format!("cannot read: {e}")))?;
    let headers: Vec<String> = rdr
        .headers()
        .map_err(|e| ImportError::new(&file, Some("header".into()), e.to_string()))?
        .iter()
        .map(|h| h.trim_start_matches('\u{feff}').to_string())
        .collect();
    let mut rows = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map(|p| p.line()).unwrap_or(0);
            ImportError::new(&file, Some(format!("line {line}")), e.to_string())
        })?;
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        rows.push((line, rec));
    }
    Ok(Table {
        name,
        headers,
        rows,
    })
}

/// Loads a Data Importer folder (CSV files and `neo4j_importer_model.json`).
pub fn load_importer_dir(dir: &Path, types: ImporterTypes) -> Result<Graph, ImportError> {
    let model_path = dir.join("neo4j_importer_model.json");
    let model_file = model_path.display().to_string();
    let text = std::fs::read_to_string(&model_path)
        .map_err(|e| ImportError::new(&model_file, None, format!("cannot read: {e}")))?;
    let doc: Json = serde_json::from_str(&text).map_err(|e| {
        ImportError::new(
            &model_file,
            Some(format!("line {}, column {}", e.line(), e.column())),
            format!("not valid JSON: {e}"),
        )
    })?;
    let model = read_model(&doc);

    // Every CSV in the folder, by file name, in a stable order.
    let mut csv_files: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| {
            ImportError::new(dir.display().to_string(), None, format!("cannot list: {e}"))
        })?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.to_ascii_lowercase().ends_with(".csv"))
        .collect();
    csv_files.sort();

    let mut g = Graph::new();
    let mut ids = NodeIds::default();
    let table_file = |t: &str| model.tables.get(t).cloned();

    // Which tables the mappings use.
    let mut node_tables: BTreeMap<String, Vec<&NodeMapping>> = BTreeMap::new();
    for nm in &model.node_mappings {
        if let Some(f) = table_file(&nm.table) {
            node_tables.entry(f).or_default().push(nm);
        }
    }
    let mut rel_tables: BTreeMap<String, Vec<&RelMapping>> = BTreeMap::new();
    for rm in &model.rel_mappings {
        if let Some(f) = table_file(&rm.table) {
            rel_tables.entry(f).or_default().push(rm);
        }
    }

    // A file the model maps must be there: without it, the relationships that point at its
    // nodes would fail later with a misleading "undefined node id".
    for (f, what) in node_tables
        .keys()
        .map(|f| (f, "nodes"))
        .chain(rel_tables.keys().map(|f| (f, "relationships")))
    {
        if csv_files.binary_search(f).is_err() {
            return Err(ImportError::new(
                &model_file,
                None,
                format!(
                    "the model maps {what} to the file {f}, which is not in {}",
                    dir.display()
                ),
            ));
        }
    }

    // Nodes first: mapped tables, then unmapped node files.
    let mut pending_rel_files = Vec::new();
    for f in &csv_files {
        let path = dir.join(f);
        if let Some(maps) = node_tables.get(f) {
            let t = read_csv(&path)?;
            for nm in maps {
                load_mapped_nodes(&mut g, &mut ids, &model, nm, &t, &path, types)?;
            }
        } else if rel_tables.contains_key(f) {
            pending_rel_files.push(f.clone());
        } else {
            let t = read_csv(&path)?;
            if t.headers.iter().any(|h| h.starts_with(":START_ID")) {
                pending_rel_files.push(f.clone());
            } else if t.headers.iter().any(|h| h.starts_with(":ID")) {
                load_unmapped_nodes(&mut g, &mut ids, &t, &path)?;
            }
        }
    }
    for f in &pending_rel_files {
        let path = dir.join(f);
        let t = read_csv(&path)?;
        match rel_tables.get(f) {
            Some(maps) => load_mapped_rels(&mut g, &ids, &model, maps, &t, &path, types)?,
            None => load_unmapped_rels(&mut g, &ids, &t, &path)?,
        }
    }
    add_model_schema(&mut g, &model);
    Ok(g)
}

/// The model's constraints and indexes, as Neo4j's Data Importer creates them (a uniqueness or
/// key constraint with its backing RANGE index of the same name). The data is not checked
/// here: `engine::load_graph` checks every constraint of a graph it loads.
fn add_model_schema(g: &mut Graph, model: &Model) {
    use crate::graph::schema::{ConstraintDef, ConstraintRule, IndexDef};
    use crate::graph::EntityType;
    use crate::syntax::IndexKind;
    let mut rules = Vec::new();
    for r in &model.schema {
        let token = if r.relationship {
            model.rel_types.get(&r.token).cloned()
        } else {
            model.labels.get(&r.token).map(|(t, _)| t.clone())
        };
        let props: Option<Vec<Arc<str>>> = r
            .props
            .iter()
            .map(|p| model.props.get(p).map(|p| Arc::from(p.token.as_str())))
            .collect();
        let (Some(token), Some(props)) = (token, props) else {
            continue;
        };
        if props.is_empty() {
            continue;
        }
        let entity = if r.relationship {
            EntityType::Relationship
        } else {
            EntityType::Node
        };
        rules.push((r, Arc::<str>::from(token.as_str()), props, entity));
    }
    g.update_schema(|s| {
        for (r, token, props, entity) in rules {
            let name: Arc<str> = Arc::from(r.name.as_str());
            if s.indexes().iter().any(|i| i.name == name)
                || s.constraints().iter().any(|c| c.name == name)
            {
                continue;
            }
            let index = |kind: IndexKind, owner: Option<Arc<str>>| IndexDef {
                id: 0,
                name: name.clone(),
                kind,
                entity,
                labels_or_types: vec![token.clone()],
                properties: props.clone(),
                config: BTreeMap::new(),
                owning_constraint: owner,
            };
            match &r.what {
                SchemaRuleKind::Constraint(rule) => {
                    let backed = matches!(rule, ConstraintRule::Unique | ConstraintRule::Key);
                    let mut c = ConstraintDef {
                        id: 0,
                        name: name.clone(),
                        rule: rule.clone(),
                        entity,
                        label: token.clone(),
                        properties: props.clone(),
                        owned_index: None,
                    };
                    if backed {
                        let mut i = index(IndexKind::Range, Some(name.clone()));
                        i.id = s.take_id();
                        c.owned_index = Some(name.clone());
                        s.push_index(i);
                    }
                    c.id = s.take_id();
                    s.push_constraint(c);
                }
                SchemaRuleKind::Index(kind) => {
                    let mut i = index(*kind, None);
                    i.id = s.take_id();
                    s.push_index(i);
                }
            }
        }
        true
    });
}

fn col(t: &Table, name: &str) -> Option<usize> {
    t.headers.iter().position(|h| h == name)
}

/// The properties of one CSV record: each `(column, key, type)` converted, empty cells absent.
fn row_props(
    rec: &csv::StringRecord,
    cols: impl Iterator<Item = (usize, Sym, Ty)>,
    t: &Table,
    file: &str,
    line: u64,
) -> Result<Vec<(Sym, Value)>, ImportError> {
    let mut props = Vec::new();
    for (ci, key, ty) in cols {
        let cell = rec.get(ci).unwrap_or("");
        if cell.is_empty() {
            continue;
        }
        let v = convert(cell, ty).map_err(|m| {
            ImportError::new(
                file,
                Some(format!("line {line}, column {:?}", t.headers[ci])),
                m,
            )
        })?;
        props.push((key, v));
    }
    Ok(props)
}

fn load_mapped_nodes(
    g: &mut Graph,
    ids: &mut NodeIds,
    model: &Model,
    nm: &NodeMapping,
    t: &Table,
    path: &Path,
    types: ImporterTypes,
) -> Result<(), ImportError> {
    let file = path.display().to_string();
    let key_prop = model.node_keys.get(&nm.node);
    let model_labels: Vec<String> = model
        .node_types
        .get(&nm.node)
        .map(|ls| {
            ls.iter()
                .filter_map(|l| model.labels.get(l).map(|x| x.0.clone()))
                .collect()
        })
        .unwrap_or_default();
    let label_col = col(t, ":LABEL");
    // (column index, property key, conversion, is key)
    let mut cols: Vec<(usize, Sym, Ty, bool)> = Vec::new();
    let mut key_col = None;
    for (field, prop) in &nm.props {
        let Some(ci) = col(t, field) else {
            return Err(ImportError::new(
                &file,
                Some("header".into()),
                format!("the model maps column {field:?}, which this file does not have"),
            ));
        };
        let Some(mp) = model.props.get(prop) else {
            continue;
        };
        let is_key = key_prop == Some(prop);
        if is_key {
            key_col = Some(ci);
        }
        let ty = if types == ImporterTypes::Model || is_key {
            mp.ty
        } else {
            header_type(field).1
        };
        cols.push((ci, g.intern(&mp.token), ty, is_key));
    }
    let key_col = key_col.or_else(|| col(t, ":ID"));
    let mut label_cache: HashMap<String, Vec<Sym>> = HashMap::new();
    let model_syms: Vec<Sym> = model_labels.iter().map(|l| g.intern(l)).collect();
    for (line, rec) in &t.rows {
        let labels = match label_col.and_then(|c| rec.get(c)).filter(|s| !s.is_empty()) {
            Some(text) => label_cache
                .entry(text.to_string())
                .or_insert_with(|| {
                    text.split(';')
                        .filter(|l| !l.is_empty())
                        .map(|l| g.intern(l))
                        .collect()
                })
                .clone(),
            None => model_syms.clone(),
        };
        let props = row_props(rec, cols.iter().map(|c| (c.0, c.1, c.2)), t, &file, *line)?;
        let n = g.add_node_syms(labels, props);
        if let Some(kc) = key_col {
            let id = rec.get(kc).unwrap_or("");
            if !ids.insert(id, n, g.node_count()) {
                return Err(ImportError::new(
                    &file,
                    Some(format!("line {line}")),
                    format!("duplicate node id {id:?}"),
                ));
            }
        }
    }
    Ok(())
}

fn load_unmapped_nodes(
    g: &mut Graph,
    ids: &mut NodeIds,
    t: &Table,
    path: &Path,
) -> Result<(), ImportError> {
    let file = path.display().to_string();
    let id_col = t.headers.iter().position(|h| h.starts_with(":ID"));
    let label_col = col(t, ":LABEL");
    let fallback = t
        .name
        .trim_end_matches(".csv")
        .rsplit('.')
        .next()
        .unwrap_or("")
        .to_string();
    let mut cols = Vec::new();
    for (ci, h) in t.headers.iter().enumerate() {
        if h.starts_with(':') {
            continue;
        }
        let (name, ty) = header_type(h);
        cols.push((ci, g.intern(&name), ty));
    }
    for (line, rec) in &t.rows {
        let labels: Vec<Sym> = match label_col.and_then(|c| rec.get(c)).filter(|s| !s.is_empty()) {
            Some(text) => text
                .split(';')
                .filter(|l| !l.is_empty())
                .map(|l| g.intern(l))
                .collect(),
            None if !fallback.is_empty() => vec![g.intern(&fallback)],
            None => vec![],
        };
        let props = row_props(rec, cols.iter().copied(), t, &file, *line)?;
        let n = g.add_node_syms(labels, props);
        if let Some(ic) = id_col {
            let id = rec.get(ic).unwrap_or("");
            if !ids.insert(id, n, g.node_count()) {
                return Err(ImportError::new(
                    &file,
                    Some(format!("line {line}")),
                    format!("duplicate node id {id:?}"),
                ));
            }
        }
    }
    Ok(())
}

/// The node of each id of the node files: ids written as plain decimal integers (no sign, no
/// leading zero) in a dense array — one lookup per relationship end, no hashing —, other ids in
/// a hash map (SipHash: the ids come from the files, and a file must not be able to choose
/// collisions).
#[derive(Default)]
struct NodeIds {
    dense: super::DenseIds,
    other: HashMap<String, NodeId>,
}

impl NodeIds {
    /// `id` as a dense index: plain decimal digits, at most nine of them.
    fn index(id: &str) -> Option<u64> {
        let b = id.as_bytes();
        if b.is_empty() || b.len() > 9 || (b.len() > 1 && b[0] == b'0') {
            return None;
        }
        if !b.iter().all(u8::is_ascii_digit) {
            return None;
        }
        id.parse().ok()
    }

    fn get(&self, id: &str) -> Option<NodeId> {
        // Not dense: another id, or an integer that was too far ahead when it came.
        Self::index(id)
            .and_then(|i| self.dense.get(i))
            .or_else(|| self.other.get(id).copied())
    }

    /// Records `id` for `n` (`nodes`: the nodes read so far); `false` if `id` was taken.
    fn insert(&mut self, id: &str, n: NodeId, nodes: usize) -> bool {
        if self.other.contains_key(id) {
            return false;
        }
        if let Some(done) = Self::index(id).and_then(|i| self.dense.insert(i, n, nodes)) {
            return done;
        }
        // Not an integer, or too far ahead of the nodes read for the array.
        self.other.insert(id.to_string(), n);
        true
    }
}

fn endpoint(
    ids: &NodeIds,
    rec: &csv::StringRecord,
    ci: usize,
    file: &str,
    line: u64,
    which: &str,
) -> Result<NodeId, ImportError> {
    let id = rec.get(ci).unwrap_or("");
    ids.get(id).ok_or_else(|| {
        ImportError::new(
            file,
            Some(format!("line {line}")),
            format!("{which} node id {id:?} is not defined by any node file"),
        )
    })
}

fn load_mapped_rels(
    g: &mut Graph,
    ids: &NodeIds,
    model: &Model,
    maps: &[&RelMapping],
    t: &Table,
    path: &Path,
    types: ImporterTypes,
) -> Result<(), ImportError> {
    let file = path.display().to_string();
    // Mappings that share a table describe the same rows (one per endpoint combination):
    // load the rows once, with the union of their property mappings.
    let first = maps[0];
    let type_token = model
        .rel_objects
        .get(&first.rel)
        .and_then(|rt| model.rel_types.get(rt))
        .cloned();
    let type_col = col(t, ":TYPE");
    let need = |name: &str| {
        col(t, name).ok_or_else(|| {
            ImportError::new(
                &file,
                Some("header".into()),
                format!("missing column {name:?}"),
            )
        })
    };
    let (from_c, to_c) = (need(&first.from)?, need(&first.to)?);
    let mut cols: Vec<(usize, Sym, Ty)> = Vec::new();
    let mut seen = HashSet::new();
    for m in maps {
        for (field, prop) in &m.props {
            if !seen.insert(field.clone()) {
                continue;
            }
            let ci = need(field)?;
            let Some(mp) = model.props.get(prop) else {
                continue;
            };
            let ty = if types == ImporterTypes::Model {
                mp.ty
            } else {
                header_type(field).1
            };
            cols.push((ci, g.intern(&mp.token), ty));
        }
    }
    let default_ty = type_token.map(|t| g.intern(&t));
    for (line, rec) in &t.rows {
        let start = endpoint(ids, rec, from_c, &file, *line, "start")?;
        let end = endpoint(ids, rec, to_c, &file, *line, "end")?;
        let ty = match (
            default_ty,
            type_col.and_then(|c| rec.get(c)).filter(|s| !s.is_empty()),
        ) {
            (Some(t), _) => t,
            (None, Some(text)) => g.intern(text),
            (None, None) => {
                return Err(ImportError::new(
                    &file,
                    Some(format!("line {line}")),
                    "no relationship type in the model or the :TYPE column",
                ))
            }
        };
        let props = row_props(rec, cols.iter().copied(), t, &file, *line)?;
        g.add_relationship_syms(start, end, ty, props);
    }
    Ok(())
}

fn load_unmapped_rels(
    g: &mut Graph,
    ids: &NodeIds,
    t: &Table,
    path: &Path,
) -> Result<(), ImportError> {
    let file = path.display().to_string();
    let from_c = t.headers.iter().position(|h| h.starts_with(":START_ID"));
    let to_c = t.headers.iter().position(|h| h.starts_with(":END_ID"));
    let (Some(from_c), Some(to_c)) = (from_c, to_c) else {
        return Err(ImportError::new(
            &file,
            Some("header".into()),
            "missing :START_ID or :END_ID",
        ));
    };
    let type_col = col(t, ":TYPE");
    let fallback = t
        .name
        .trim_end_matches(".csv")
        .rsplit('.')
        .next()
        .unwrap_or("REL")
        .to_string();
    let mut cols = Vec::new();
    for (ci, h) in t.headers.iter().enumerate() {
        if h.starts_with(':') {
            continue;
        }
        let (name, ty) = header_type(h);
        cols.push((ci, g.intern(&name), ty));
    }
    for (line, rec) in &t.rows {
        let start = endpoint(ids, rec, from_c, &file, *line, "start")?;
        let end = endpoint(ids, rec, to_c, &file, *line, "end")?;
        let ty_text = type_col
            .and_then(|c| rec.get(c))
            .filter(|s| !s.is_empty())
            .unwrap_or(&fallback)
            .to_string();
        let ty = g.intern(&ty_text);
        let props = row_props(rec, cols.iter().copied(), t, &file, *line)?;
        g.add_relationship_syms(start, end, ty, props);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_dense_and_not() {
        let mut ids = NodeIds::default();
        assert!(ids.insert("0", NodeId(5), 0));
        assert!(ids.insert("7", NodeId(6), 1));
        assert!(ids.insert("007", NodeId(7), 2));
        assert!(ids.insert("-1", NodeId(8), 3));
        assert!(ids.insert("a", NodeId(9), 4));
        // Far ahead of the nodes read: kept in the map, found after the array has grown.
        assert!(ids.insert("5000000", NodeId(10), 5));
        assert!(ids.insert("4999999", NodeId(11), 5_000_000));
        assert!(!ids.insert("5000000", NodeId(12), 5_000_000));
        assert!(!ids.insert("7", NodeId(13), 6));
        assert!(!ids.insert("a", NodeId(14), 6));
        assert_eq!(ids.get("0"), Some(NodeId(5)));
        assert_eq!(ids.get("7"), Some(NodeId(6)));
        assert_eq!(ids.get("007"), Some(NodeId(7)));
        assert_eq!(ids.get("-1"), Some(NodeId(8)));
        assert_eq!(ids.get("5000000"), Some(NodeId(10)));
        assert_eq!(ids.get("4999999"), Some(NodeId(11)));
        assert_eq!(ids.get("1"), None);
        assert_eq!(ids.get(""), None);
        assert_eq!(ids.get("99999999999999999999"), None);
    }

    #[test]
    fn header_types() {
        assert_eq!(
            header_type("latitude:double"),
            ("latitude".to_string(), Ty::Float)
        );
        assert_eq!(header_type("age:int"), ("age".to_string(), Ty::Integer));
        assert_eq!(header_type("name"), ("name".to_string(), Ty::String));
        assert_eq!(header_type(":ID").0, ":ID");
    }

    #[test]
    fn small_folder_with_renamed_columns_shared_tables_and_unmapped_files() {
        let dir = std::env::temp_dir().join(format!("grape-importer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("x.nodes.A.csv"),
            ":ID,id,n:double,age,:LABEL\n1,src1,1.5,40,A\n2,,2,,A\n",
        )
        .unwrap();
        std::fs::write(dir.join("x.nodes.B.csv"), ":ID,name\n3,bee\n").unwrap();
        std::fs::write(
            dir.join("x.relationships.R.csv"),
            ":START_ID,:END_ID,:TYPE\n1,3,R\n2,3,R\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("x.relationships.S.csv"),
            ":START_ID,:END_ID,:TYPE,w:int\n1,2,S,7\n",
        )
        .unwrap();
        let model = serde_json::json!({"dataModel": {
            "graphSchemaRepresentation": {"graphSchema": {
                "nodeLabels": [
                    {"$id": "nl:a", "token": "A", "properties": [
                        {"$id": "p:1", "token": "id", "type": {"type": "integer"}},
                        {"$id": "p:2", "token": "source_id", "type": {"type": "string"}},
                        {"$id": "p:3", "token": "n", "type": {"type": "float"}},
                        {"$id": "p:6", "token": "age", "type": {"type": "integer"}}]},
                    {"$id": "nl:b", "token": "B", "properties": [
                        {"$id": "p:4", "token": "id", "type": {"type": "integer"}},
                        {"$id": "p:5", "token": "name", "type": {"type": "string"}}]}],
                "nodeObjectTypes": [{"$id": "n:a", "labels": [{"$ref": "#nl:a"}]}, {"$id": "n:b", "labels": [{"$ref": "#nl:b"}]}],
                "relationshipTypes": [{"$id": "rt:r", "token": "R", "properties": []}],
                "relationshipObjectTypes": [
                    {"$id": "r:1", "type": {"$ref": "#rt:r"}, "from": {"$ref": "#n:a"}, "to": {"$ref": "#n:b"}},
                    {"$id": "r:2", "type": {"$ref": "#rt:r"}, "from": {"$ref": "#n:a"}, "to": {"$ref": "#n:b"}}]}},
            "graphSchemaExtensionsRepresentation": {"nodeKeyProperties": [
                {"node": {"$ref": "#n:a"}, "keyProperty": {"$ref": "#p:1"}},
                {"node": {"$ref": "#n:b"}, "keyProperty": {"$ref": "#p:4"}}]},
            "graphMappingRepresentation": {
                "dataSourceSchema": {"tableSchemas": [
                    {"$id": "t:a", "name": "x.nodes.A.csv"}, {"$id": "t:b", "name": "x.nodes.B.csv"},
                    {"$id": "t:r", "name": "x.relationships.R.csv"}, {"$id": "t:s", "name": "x.relationships.S.csv"}]},
                "nodeMappings": [
                    {"node": {"$ref": "#n:a"}, "tableSchema": {"$ref": "#t:a"}, "propertyMappings": [
                        {"fieldName": ":ID", "property": {"$ref": "#p:1"}},
                        {"fieldName": "id", "property": {"$ref": "#p:2"}},
                        {"fieldName": "n:double", "property": {"$ref": "#p:3"}},
                        {"fieldName": "age", "property": {"$ref": "#p:6"}}]},
                    {"node": {"$ref": "#n:b"}, "tableSchema": {"$ref": "#t:b"}, "propertyMappings": [
                        {"fieldName": ":ID", "property": {"$ref": "#p:4"}},
                        {"fieldName": "name", "property": {"$ref": "#p:5"}}]}],
                "relationshipMappings": [
                    {"relationship": {"$ref": "#r:1"}, "tableSchema": {"$ref": "#t:r"}, "propertyMappings": [], "fromMapping": {"fieldName": ":START_ID"}, "toMapping": {"fieldName": ":END_ID"}},
                    {"relationship": {"$ref": "#r:2"}, "tableSchema": {"$ref": "#t:r"}, "propertyMappings": [], "fromMapping": {"fieldName": ":START_ID"}, "toMapping": {"fieldName": ":END_ID"}}]}}});
        std::fs::write(dir.join("neo4j_importer_model.json"), model.to_string()).unwrap();

        let g = load_importer_dir(&dir, ImporterTypes::Strings).unwrap();
        // R is shared by two mappings but loaded once; S is unmapped and loaded by its header.
        assert_eq!((g.node_count(), g.relationship_count()), (3, 3));
        let a = g.sym("A").unwrap();
        let n1 = g.nodes_with_label(a)[0];
        let props = g.node_properties(n1);
        assert!(matches!(props.get("id"), Some(Value::Int(1))));
        assert!(matches!(props.get("source_id"), Some(Value::String(s)) if &**s == "src1"));
        assert!(matches!(props.get("n"), Some(Value::Float(f)) if *f == 1.5));
        assert!(matches!(props.get("age"), Some(Value::String(s)) if &**s == "40"));
        let n2 = g.nodes_with_label(a)[1];
        assert!(
            !g.node_properties(n2).contains_key("source_id"),
            "empty cells are absent"
        );
        let s_rel = g
            .relationship_ids()
            .find(|r| g.rel_type(*r).as_deref() == Some("S"))
            .unwrap();
        assert!(matches!(
            g.relationship_properties(s_rel).get("w"),
            Some(Value::Int(7))
        ));

        let g = load_importer_dir(&dir, ImporterTypes::Model).unwrap();
        let n1 = g.nodes_with_label(g.sym("A").unwrap())[0];
        assert!(matches!(
            g.node_properties(n1).get("age"),
            Some(Value::Int(40))
        ));
        let err = {
            std::fs::write(
                dir.join("x.nodes.A.csv"),
                ":ID,id,n:double,age,:LABEL\n1,src1,x,,A\n",
            )
            .unwrap();
            load_importer_dir(&dir, ImporterTypes::Strings).unwrap_err()
        };
        assert!(
            err.to_string().contains("x.nodes.A.csv") && err.to_string().contains("line 2"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
