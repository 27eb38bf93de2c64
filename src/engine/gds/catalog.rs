//! The GDS graph catalog: projections of the graph's nodes of some labels and relationships of
//! some types (with their numeric properties), kept beside the graph, outside its transactions,
//! one catalog per database; `gds.graph.project`, `drop`, `exists`, `list`; and the views the
//! algorithms run over (`nodeLabels` / `relationshipTypes` filters, a weight property).

use super::{illegal, map, type_name, Rows};
use crate::engine::error::Result;
use crate::engine::procedures::cols;
use crate::graph::{Dir, Graph};
use crate::value::{NodeId, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// A projected node property: its values by internal node id (`Null` where the node has none)
/// and whether an algorithm wrote it (`mutate`) rather than the graph.
#[derive(Clone, Debug)]
pub(super) struct NodeProperty {
    pub values: Vec<Value>,
    pub transient: bool,
    pub default: Value,
    /// The labels (indexes into the projection's) whose schema lists the property.
    pub labels: Vec<usize>,
}

impl NodeProperty {
    /// GDS's value type of the property: `Integer`, `Float`, `List of Integer`, `List of Float`.
    pub fn kind(&self) -> &'static str {
        match self.values.iter().find(|v| !matches!(v, Value::Null)) {
            Some(Value::Float(_)) => "Float",
            Some(Value::List(items)) => {
                if !items.is_empty() && items.iter().all(|i| matches!(i, Value::Int(_))) {
                    "List of Integer"
                } else {
                    "List of Float"
                }
            }
            _ => "Integer",
        }
    }

    /// Stores a node's value as GDS does: the first value fixes a scalar property's type
    /// (long or double); a later double becomes a long only when it has no fraction.
    fn set(&mut self, at: usize, v: Value) -> std::result::Result<(), String> {
        let first = self
            .values
            .iter()
            .find(|x| matches!(x, Value::Int(_) | Value::Float(_)))
            .cloned();
        let v = match (first, v) {
            (Some(Value::Int(_)), Value::Float(f)) => {
                if f.fract() == 0.0 && f.abs() < 9.2e18 {
                    Value::Int(f as i64)
                } else {
                    return Err(format!("java.lang.UnsupportedOperationException: Cannot safely convert {f:.2} into an long value"));
                }
            }
            (Some(Value::Float(_)), Value::Int(i)) => Value::Float(i as f64),
            (_, v) => v,
        };
        self.values[at] = v;
        Ok(())
    }

    /// How GDS's schema describes it: `Float (DefaultValue(NaN), PERSISTENT)`.
    fn describe(&self) -> String {
        let kind = self.kind();
        let default = match (&self.default, kind) {
            (Value::Null, "Float") => "NaN".to_string(),
            (Value::Null, "Integer") => i64::MIN.to_string(),
            (Value::Null, _) => "null".to_string(),
            (Value::Float(f), _) => crate::value::java_double_string(*f),
            (v, _) => v.to_string(),
        };
        let state = if self.transient {
            "TRANSIENT"
        } else {
            "PERSISTENT"
        };
        format!("{kind} (DefaultValue({default}), {state})")
    }
}

/// One projected relationship type: its adjacency lists (targets sorted, as GDS compresses
/// them), each relationship's projected property values, in the orientation it was projected
/// with (both directions for `UNDIRECTED`).
#[derive(Clone, Debug)]
pub(super) struct RelType {
    pub name: String,
    pub orientation: String,
    /// Each property's aggregation (`NONE`, `SINGLE`, `SUM`, …), for the schema.
    pub aggregations: Vec<String>,
    /// Written by an algorithm (`mutate`), not read from the graph.
    pub transient: bool,
    /// Property keys, in the order of each relationship's `values`.
    pub properties: Vec<(String, f64, bool)>,
    pub adj: Vec<Vec<(usize, Vec<f64>)>>,
    pub count: usize,
}

/// A projected graph: its nodes (GDS's internal ids are their positions, in node id order),
/// their labels, node properties and relationship types.
#[derive(Clone, Debug)]
pub(super) struct Projection {
    pub nodes: Vec<NodeId>,
    /// Each node's internal id.
    pub index: HashMap<NodeId, usize>,
    /// Each node's labels, as indexes into `labels`.
    pub node_labels: Vec<Vec<usize>>,
    /// The labels the projection names (`__ALL__` for `*`).
    pub labels: Vec<String>,
    pub node_props: BTreeMap<String, NodeProperty>,
    /// The relationship types in the order GDS's graph store iterates them (a Java
    /// `HashMap`'s: see [`type_bucket`]); algorithms read several types in this order.
    pub rels: Vec<RelType>,
    pub node_projection: Value,
    pub relationship_projection: Value,
    /// The projection's configuration as GDS reports it (`jobId` included).
    pub configuration: Value,
    pub created: Value,
    pub modified: Value,
}

impl Projection {
    /// No graph: for the columns of an answer without rows.
    pub fn empty() -> Projection {
        Projection {
            nodes: Vec::new(),
            index: HashMap::new(),
            node_labels: Vec::new(),
            labels: Vec::new(),
            node_props: BTreeMap::new(),
            rels: Vec::new(),
            node_projection: Value::Null,
            relationship_projection: Value::Null,
            configuration: Value::Null,
            created: Value::Null,
            modified: Value::Null,
        }
    }

    pub fn relationship_count(&self) -> usize {
        self.rels.iter().map(|r| r.count).sum()
    }

    /// The internal id of a node given as GDS takes it (a node id or a node).
    pub fn internal(&self, v: &Value) -> Option<usize> {
        let id = match v {
            Value::Int(i) if *i >= 0 && *i <= u32::MAX as i64 => NodeId(*i as u32),
            Value::Node(n) => *n,
            _ => return None,
        };
        self.index.get(&id).copied()
    }
}

/// The catalog of one database's projected graphs.
#[derive(Debug, Default)]
pub(super) struct Catalog(pub Mutex<BTreeMap<String, Arc<Projection>>>);

pub(super) fn catalog(g: &Graph) -> Arc<Catalog> {
    g.plugin_state::<Catalog>("gds")
}

/// Replaces the projection `name` (after `mutate` added a property or relationship type).
pub(super) fn replace(g: &Graph, name: &str, p: Projection) {
    catalog(g)
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name.to_string(), Arc::new(p));
}

/// A node projection: alias, label (`*`: all) and properties (key, default).
struct NodeSpec {
    alias: String,
    label: String,
    properties: Vec<(String, Value)>,
}

/// `properties` of a node or relationship projection: a key, a list of keys or a map of
/// `alias: key | {property, defaultValue}`.
/// A property mapping: alias, property key, default value and aggregation (`DEFAULT` when
/// not given).
type PropSpec = (String, String, Value, String);

/// An aggregation's name as GDS takes it (any case), checked.
fn aggregation(procedure: &str, v: Option<&Value>) -> Result<String> {
    match v {
        None | Some(Value::Null) => Ok("DEFAULT".into()),
        Some(Value::String(s)) if !s.is_empty() => {
            let name = s.to_ascii_uppercase();
            if ["DEFAULT", "NONE", "SINGLE", "SUM", "MIN", "MAX", "COUNT"].contains(&name.as_str())
            {
                Ok(name)
            } else {
                Err(illegal(
                    procedure,
                    format!("Aggregation `{name}` is not supported. Must be one of: [DEFAULT, NONE, SINGLE, SUM, MIN, MAX, COUNT]."),
                ))
            }
        }
        Some(other) => Err(illegal(
            procedure,
            format!("'{other}' is not a valid value for  the key 'aggregation'"),
        )),
    }
}

fn property_specs(procedure: &str, v: Option<&Value>) -> Result<Vec<PropSpec>> {
    let one = |s: &str| {
        (
            s.to_string(),
            s.to_string(),
            Value::Null,
            "DEFAULT".to_string(),
        )
    };
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![one(s)]),
        Some(Value::List(items)) => items
            .iter()
            .map(|i| {
                i.as_str().map(one).ok_or_else(|| {
                    illegal(
                        procedure,
                        format!(
                            "Cannot construct a property mapping out of a {}",
                            type_name(i)
                        ),
                    )
                })
            })
            .collect(),
        Some(Value::Map(m)) => m
            .iter()
            .map(|(alias, v)| match v {
                Value::String(s) => Ok((
                    alias.to_string(),
                    s.to_string(),
                    Value::Null,
                    "DEFAULT".to_string(),
                )),
                Value::Map(inner) => Ok((
                    alias.to_string(),
                    inner
                        .get("property")
                        .and_then(Value::as_str)
                        .unwrap_or(alias)
                        .to_string(),
                    inner.get("defaultValue").cloned().unwrap_or(Value::Null),
                    aggregation(procedure, inner.get("aggregation"))?,
                )),
                other => Err(illegal(
                    procedure,
                    format!(
                        "Cannot construct a property mapping out of a {}",
                        type_name(other)
                    ),
                )),
            })
            .collect(),
        Some(other) => Err(illegal(
            procedure,
            format!(
                "Cannot construct a property mapping out of a {}",
                type_name(other)
            ),
        )),
    }
}

/// `nodeProjection` as GDS normalises it: `{alias: {label, properties}}` (`'*'` is `__ALL__`).
fn node_projection(procedure: &str, spec: &Value) -> Result<Vec<NodeSpec>> {
    let one = |s: &str| NodeSpec {
        alias: if s == "*" { "__ALL__".into() } else { s.into() },
        label: s.into(),
        properties: Vec::new(),
    };
    let bad = |v: &Value| {
        illegal(
            procedure,
            format!(
                "Cannot construct a node projection out of a {}",
                type_name(v)
            ),
        )
    };
    match spec {
        Value::String(s) => Ok(vec![one(s)]),
        Value::List(items) => items
            .iter()
            .map(|i| i.as_str().map(one).ok_or_else(|| bad(i)))
            .collect(),
        Value::Map(m) => m
            .iter()
            .map(|(alias, v)| match v {
                Value::String(s) => Ok(NodeSpec {
                    alias: alias.to_string(),
                    label: s.to_string(),
                    properties: Vec::new(),
                }),
                Value::Map(inner) => Ok(NodeSpec {
                    alias: alias.to_string(),
                    label: inner
                        .get("label")
                        .and_then(Value::as_str)
                        .unwrap_or(alias)
                        .to_string(),
                    properties: property_specs(procedure, inner.get("properties"))?
                        .into_iter()
                        .map(|(a, _, d, _)| (a, d))
                        .collect(),
                }),
                other => Err(bad(other)),
            })
            .collect(),
        other => Err(bad(other)),
    }
}

/// A relationship projection: alias, type (`*`: all), orientation and properties (alias,
/// key, default).
struct RelSpec {
    alias: String,
    ty: String,
    orientation: String,
    /// The type's aggregation, as given (`DEFAULT` when not).
    aggregation: String,
    properties: Vec<PropSpec>,
}

fn relationship_projection(procedure: &str, spec: &Value) -> Result<Vec<RelSpec>> {
    let one = |s: &str| RelSpec {
        alias: if s == "*" { "__ALL__".into() } else { s.into() },
        ty: s.into(),
        orientation: "NATURAL".into(),
        aggregation: "DEFAULT".into(),
        properties: Vec::new(),
    };
    let bad = |v: &Value| {
        illegal(
            procedure,
            format!(
                "Cannot construct a relationship projection out of a {}",
                type_name(v)
            ),
        )
    };
    match spec {
        Value::String(s) => Ok(vec![one(s)]),
        Value::List(items) => items
            .iter()
            .map(|i| i.as_str().map(one).ok_or_else(|| bad(i)))
            .collect(),
        Value::Map(m) => m
            .iter()
            .map(|(alias, v)| match v {
                Value::String(s) => Ok(RelSpec {
                    alias: alias.to_string(),
                    ty: s.to_string(),
                    orientation: "NATURAL".into(),
                    aggregation: "DEFAULT".into(),
                    properties: Vec::new(),
                }),
                Value::Map(inner) => {
                    let given = inner
                        .get("orientation")
                        .and_then(Value::as_str)
                        .unwrap_or("NATURAL");
                    let orientation = given.to_ascii_uppercase();
                    if !["NATURAL", "REVERSE", "UNDIRECTED"].contains(&orientation.as_str()) {
                        return Err(illegal(
                            procedure,
                            format!(
                                "Orientation `{given}` is not supported. Must be one of: [NATURAL, REVERSE, UNDIRECTED]."
                            ),
                        ));
                    }
                    let type_aggregation = aggregation(procedure, inner.get("aggregation"))?;
                    let mut properties = property_specs(procedure, inner.get("properties"))?;
                    // The type's aggregation is the default of its properties'.
                    for prop in &mut properties {
                        if prop.3 == "DEFAULT" {
                            prop.3 = type_aggregation.clone();
                        }
                    }
                    let resolved = |a: &str| if a == "DEFAULT" { "NONE" } else { a }.to_string();
                    let explicit_none = properties.iter().any(|p| p.3 == "NONE");
                    if explicit_none && properties.iter().any(|p| resolved(&p.3) != "NONE") {
                        return Err(illegal(
                            procedure,
                            "Conflicting relationship property aggregations, it is not allowed to mix `NONE` with aggregations.",
                        ));
                    }
                    if properties.iter().any(|p| p.1 == "*" && p.3 != "COUNT") {
                        return Err(illegal(
                            procedure,
                            "A '*' property key can only be used in combination with count aggregation.",
                        ));
                    }
                    Ok(RelSpec {
                        alias: alias.to_string(),
                        ty: inner
                            .get("type")
                            .and_then(Value::as_str)
                            .unwrap_or(alias)
                            .to_string(),
                        orientation,
                        aggregation: type_aggregation,
                        properties,
                    })
                }
                other => Err(bad(other)),
            })
            .collect(),
        other => Err(bad(other)),
    }
}

/// An aggregation as the import applies it: `DEFAULT` is `NONE`.
fn resolve(aggregation: &str) -> String {
    if aggregation == "DEFAULT" {
        "NONE".into()
    } else {
        aggregation.into()
    }
}

/// Java's `Math.min` / `Math.max`: NaN wins.
fn java_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

fn java_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// Collapses parallel relationships (same source and target) of a type as its aggregations
/// say: without properties, when the type aggregates at all; with properties, unless all are
/// `NONE` — each property merged by its own (`SINGLE` keeps the first, `SUM`, `MIN`, `MAX`,
/// `COUNT`). The type's count becomes the relationships left.
fn aggregate(procedure: &str, rel: &mut RelType, type_aggregation: &str) -> Result<()> {
    let collapse = if rel.aggregations.is_empty() {
        type_aggregation != "NONE"
    } else {
        rel.aggregations.iter().any(|a| a != "NONE")
    };
    if !collapse {
        return Ok(());
    }
    let mut count = 0;
    for list in &mut rel.adj {
        let mut merged: Vec<(usize, Vec<f64>)> = Vec::with_capacity(list.len());
        for (t, values) in list.drain(..) {
            match merged.last_mut() {
                Some((last, acc)) if *last == t => {
                    for (i, x) in values.into_iter().enumerate() {
                        acc[i] = match rel.aggregations[i].as_str() {
                            "SUM" | "COUNT" => acc[i] + x,
                            "MIN" => java_min(acc[i], x),
                            "MAX" => java_max(acc[i], x),
                            "SINGLE" => acc[i],
                            _ => return Err(super::failed(
                                procedure,
                                "java.lang.UnsupportedOperationException: Multiple relationships between the same pair of nodes are not expected. Try using SINGLE or some other aggregation.",
                            )),
                        };
                    }
                }
                _ => merged.push((t, values)),
            }
        }
        count += merged.len();
        *list = merged;
    }
    rel.count = count;
    Ok(())
}

/// A number as a projected relationship property (GDS stores doubles).
fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// `gds.graph.project(graphName, nodeProjection, relationshipProjection, configuration)`.
pub(super) fn project(g: &Graph, args: &[Value]) -> Result<Rows> {
    const P: &str = "gds.graph.project";
    let name = match args.first() {
        Some(Value::String(s)) => s.to_string(),
        _ => {
            return Err(illegal(
                P,
                "`graphName` can not be null or blank, but it was `null`",
            ))
        }
    };
    if name.trim().is_empty() {
        return Err(illegal(
            P,
            format!("`graphName` can not be null or blank, but it was `{name}`"),
        ));
    }
    let mut labels = node_projection(P, args.get(1).unwrap_or(&Value::Null))?;
    let types = relationship_projection(P, args.get(2).unwrap_or(&Value::Null))?;
    let config = match args.get(3) {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(Value::Map(m)) => m.clone(),
        Some(other) => {
            return Err(illegal(
                P,
                format!("The configuration must be a map, not {}", type_name(other)),
            ))
        }
    };
    for k in config.keys() {
        if ![
            "nodeProperties",
            "relationshipProperties",
            "readConcurrency",
            "jobId",
            "logProgress",
            "sudo",
            "validateRelationships",
        ]
        .contains(&&**k)
        {
            return Err(illegal(P, format!("Unexpected configuration key: {k}")));
        }
    }
    if config
        .get("relationshipProperties")
        .is_some_and(|v| !matches!(v, Value::Null))
    {
        return Err(super::unsupported(P, "relationshipProperties"));
    }
    // `nodeProperties` in the configuration: properties of every projected label.
    let shared_props: Vec<(String, Value)> = property_specs(P, config.get("nodeProperties"))?
        .into_iter()
        .map(|(a, _, d, _)| (a, d))
        .collect();
    for spec in &mut labels {
        for p in &shared_props {
            if !spec.properties.iter().any(|(k, _)| *k == p.0) {
                spec.properties.push(p.clone());
            }
        }
    }
    let cat = catalog(g);
    let mut graphs = cat.0.lock().unwrap_or_else(|e| e.into_inner());
    if graphs.contains_key(&name) {
        return Err(illegal(
            P,
            format!("A graph with name '{name}' already exists."),
        ));
    }
    let in_use = |l: &str| g.labels_in_use().iter().any(|u| &**g.sym_name(*u) == l);
    let missing: Vec<String> = labels
        .iter()
        .filter(|s| s.label != "*" && !in_use(&s.label))
        .map(|s| format!("'{}'", s.label))
        .collect();
    if !missing.is_empty() {
        return Err(illegal(
            P,
            format!(
                "Invalid node projection, one or more labels not found: {}",
                missing.join(", ")
            ),
        ));
    }
    let mut nodes: Vec<NodeId> = Vec::new();
    let mut node_labels: Vec<Vec<usize>> = Vec::new();
    let mut ids: Vec<NodeId> = g.node_ids().collect();
    ids.sort();
    for n in ids {
        let have = g.labels(n);
        let of: Vec<usize> = labels
            .iter()
            .enumerate()
            .filter(|(_, s)| s.label == "*" || have.iter().any(|h| **h == *s.label))
            .map(|(i, _)| i)
            .collect();
        if !of.is_empty() {
            nodes.push(n);
            node_labels.push(of);
        }
    }
    // Node properties: each label's, read from the nodes that carry the label.
    let mut node_props: BTreeMap<String, NodeProperty> = BTreeMap::new();
    let mut missing_props = Vec::new();
    for (li, spec) in labels.iter().enumerate() {
        for (key, default) in &spec.properties {
            let sym = g.sym(key);
            let exists =
                sym.is_some_and(|s| nodes.iter().any(|n| g.node_property(*n, s).is_some()));
            if !exists && matches!(default, Value::Null) {
                missing_props.push(format!("'{key}'"));
                continue;
            }
            let entry = node_props
                .entry(key.clone())
                .or_insert_with(|| NodeProperty {
                    values: vec![Value::Null; nodes.len()],
                    transient: false,
                    default: default.clone(),
                    labels: Vec::new(),
                });
            entry.labels.push(li);
            for (i, n) in nodes.iter().enumerate() {
                if !node_labels[i].contains(&li) {
                    continue;
                }
                let v = sym.and_then(|s| g.node_property(*n, s));
                let v = match v {
                    Some(v @ (Value::Int(_) | Value::Float(_))) => v,
                    Some(Value::List(items))
                        if items
                            .iter()
                            .all(|i| matches!(i, Value::Int(_) | Value::Float(_))) =>
                    {
                        Value::List(items)
                    }
                    Some(other) => {
                        return Err(illegal(
                            P,
                            format!(
                                "Unsupported GDS node property of type `{}`.",
                                type_name(&other)
                            ),
                        ))
                    }
                    None => default.clone(),
                };
                entry.set(i, v).map_err(|cause| super::failed(P, cause))?;
            }
        }
    }
    if !missing_props.is_empty() {
        return Err(illegal(
            P,
            format!("Node properties not found: {}", missing_props.join(", ")),
        ));
    }
    let index: HashMap<NodeId, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut rels: Vec<RelType> = types
        .iter()
        .map(|t| RelType {
            name: t.alias.clone(),
            orientation: t.orientation.clone(),
            transient: false,
            aggregations: t.properties.iter().map(|p| resolve(&p.3)).collect(),
            properties: t
                .properties
                .iter()
                .map(|(a, _, d, _)| {
                    (
                        a.clone(),
                        as_f64(d).unwrap_or(f64::NAN),
                        !matches!(d, Value::Null),
                    )
                })
                .collect(),
            adj: vec![Vec::new(); nodes.len()],
            count: 0,
        })
        .collect();
    for (i, n) in nodes.iter().enumerate() {
        for (r, m) in g.neighbours(*n, Dir::Outgoing) {
            let Some(&j) = index.get(&m) else { continue };
            let ty = g.rel_type(r).unwrap_or_else(|| Arc::from(""));
            for (spec, rel) in types.iter().zip(rels.iter_mut()) {
                if spec.ty != "*" && *spec.ty != *ty {
                    continue;
                }
                let mut values = Vec::with_capacity(spec.properties.len());
                for (_, key, default, agg) in &spec.properties {
                    let agg = resolve(agg);
                    let default = as_f64(default).unwrap_or(f64::NAN);
                    let v = if key == "*" {
                        None
                    } else {
                        g.sym(key).and_then(|s| g.relationship_property(r, s))
                    };
                    values.push(match v {
                        Some(v) => {
                            let x = as_f64(&v).ok_or_else(|| {
                                illegal(
                                    P,
                                    format!(
                                        "Unsupported type [{}] of value {v}. Please use a numeric property.",
                                        type_name(&v).to_ascii_uppercase()
                                    ),
                                )
                            })?;
                            if agg == "COUNT" {
                                1.0
                            } else {
                                x
                            }
                        }
                        None if key == "*" => 1.0,
                        None => match agg.as_str() {
                            "SUM" if default.is_nan() => 0.0,
                            "MIN" if default.is_nan() => f64::INFINITY,
                            "MAX" if default.is_nan() => f64::NEG_INFINITY,
                            "COUNT" => 0.0,
                            _ => default,
                        },
                    });
                }
                match spec.orientation.as_str() {
                    "NATURAL" => {
                        rel.adj[i].push((j, values));
                        rel.count += 1;
                    }
                    "REVERSE" => {
                        rel.adj[j].push((i, values));
                        rel.count += 1;
                    }
                    _ => {
                        rel.adj[i].push((j, values.clone()));
                        rel.adj[j].push((i, values));
                        rel.count += 2;
                    }
                }
            }
        }
    }
    for (rel, spec) in rels.iter_mut().zip(&types) {
        for list in &mut rel.adj {
            list.sort_by_key(|(t, _)| *t);
        }
        aggregate(P, rel, &resolve(&spec.aggregation))?;
    }
    // The graph store's map of types is filled from a 16-bucket map of the projections.
    rels.sort_by_key(|r| type_bucket(&r.name, 16));
    let type_capacity = capacity_for(rels.len());
    rels.sort_by_key(|r| type_bucket(&r.name, type_capacity));
    let node_projection = Value::Map(
        labels
            .iter()
            .map(|s| {
                (
                    Arc::from(s.alias.as_str()),
                    map(vec![
                        ("label", Value::from(s.label.as_str())),
                        (
                            "properties",
                            Value::Map(
                                s.properties
                                    .iter()
                                    .map(|(k, d)| {
                                        (
                                            Arc::from(k.as_str()),
                                            map(vec![
                                                ("defaultValue", d.clone()),
                                                ("property", Value::from(k.as_str())),
                                            ]),
                                        )
                                    })
                                    .collect(),
                            ),
                        ),
                    ]),
                )
            })
            .collect(),
    );
    let relationship_projection = Value::Map(
        types
            .iter()
            .map(|t| {
                (
                    Arc::from(t.alias.as_str()),
                    map(vec![
                        ("aggregation", Value::from(t.aggregation.as_str())),
                        ("indexInverse", Value::Bool(false)),
                        ("orientation", Value::from(t.orientation.as_str())),
                        (
                            "properties",
                            Value::Map(
                                t.properties
                                    .iter()
                                    .map(|(a, k, d, agg)| {
                                        (
                                            Arc::from(a.as_str()),
                                            map(vec![
                                                ("aggregation", Value::from(agg.as_str())),
                                                ("defaultValue", d.clone()),
                                                ("property", Value::from(k.as_str())),
                                            ]),
                                        )
                                    })
                                    .collect(),
                            ),
                        ),
                        ("type", Value::from(t.ty.as_str())),
                    ]),
                )
            })
            .collect(),
    );
    let configuration = map(vec![
        (
            "jobId",
            Value::from(crate::engine::functions::random_uuid().as_str()),
        ),
        ("logProgress", Value::Bool(true)),
        ("nodeProjection", node_projection.clone()),
        ("nodeProperties", Value::Map(BTreeMap::new())),
        ("readConcurrency", Value::Int(4)),
        ("relationshipProjection", relationship_projection.clone()),
        ("relationshipProperties", Value::Map(BTreeMap::new())),
        ("sudo", Value::Bool(false)),
        ("validateRelationships", Value::Bool(false)),
    ]);
    let created = now_utc();
    let p = Projection {
        nodes,
        index,
        node_labels,
        labels: labels.iter().map(|s| s.alias.clone()).collect(),
        node_props,
        rels,
        node_projection,
        relationship_projection,
        configuration,
        modified: created.clone(),
        created,
    };
    let row = vec![
        p.node_projection.clone(),
        p.relationship_projection.clone(),
        Value::from(name.as_str()),
        Value::Int(p.nodes.len() as i64),
        Value::Int(p.relationship_count() as i64),
        Value::Int(0),
    ];
    graphs.insert(name, Arc::new(p));
    Ok((
        cols(&[
            "nodeProjection",
            "relationshipProjection",
            "graphName",
            "nodeCount",
            "relationshipCount",
            "projectMillis",
        ]),
        vec![row],
    ))
}

/// The current time as a UTC `DATETIME`.
pub(super) fn now_utc() -> Value {
    let now = chrono::Utc::now().naive_utc();
    Value::Temporal(Arc::new(crate::temporal::Temporal::DateTime(
        now,
        0,
        Some(Arc::from("Etc/UTC")),
    )))
}

/// The graph's schema as the catalog reports it: `schema` (types without their direction) or
/// `schemaWithOrientation`.
fn schema(p: &Projection, with_orientation: bool) -> Value {
    let nodes = Value::Map(
        p.labels
            .iter()
            .enumerate()
            .map(|(li, l)| {
                let props = p
                    .node_props
                    .iter()
                    .filter(|(_, prop)| prop.labels.contains(&li))
                    .map(|(k, prop)| (Arc::from(k.as_str()), Value::from(prop.describe())))
                    .collect();
                (Arc::from(l.as_str()), Value::Map(props))
            })
            .collect(),
    );
    let relationships = Value::Map(
        p.rels
            .iter()
            .map(|r| {
                let props = Value::Map(
                    r.properties
                        .iter()
                        .enumerate()
                        .map(|(i, (k, default, _))| {
                            let state = if r.transient {
                                "TRANSIENT"
                            } else {
                                "PERSISTENT"
                            };
                            let agg = r.aggregations.get(i).map_or("NONE", String::as_str);
                            (
                                Arc::from(k.as_str()),
                                Value::from(format!(
                                    "Float (DefaultValue({}), {state}, Aggregation.{agg})",
                                    crate::value::java_double_string(*default)
                                )),
                            )
                        })
                        .collect(),
                );
                let v = if with_orientation {
                    map(vec![
                        (
                            "direction",
                            Value::from(if r.orientation == "UNDIRECTED" {
                                "UNDIRECTED"
                            } else {
                                "DIRECTED"
                            }),
                        ),
                        ("properties", props),
                    ])
                } else {
                    props
                };
                (Arc::from(r.name.as_str()), v)
            })
            .collect(),
    );
    map(vec![
        ("graphProperties", Value::Map(BTreeMap::new())),
        ("nodes", nodes),
        ("relationships", relationships),
    ])
}

fn density(p: &Projection) -> f64 {
    let n = p.nodes.len() as f64;
    if n > 1.0 {
        p.relationship_count() as f64 / (n * (n - 1.0))
    } else {
        0.0
    }
}

/// The bytes the projection holds in grape (its node ids, adjacency lists and properties).
fn size_in_bytes(p: &Projection) -> i64 {
    let lists: usize = p
        .rels
        .iter()
        .flat_map(|r| &r.adj)
        .map(|l| {
            l.capacity() * std::mem::size_of::<(usize, Vec<f64>)>()
                + l.iter().map(|(_, v)| v.capacity() * 8).sum::<usize>()
                + std::mem::size_of::<Vec<usize>>()
        })
        .sum();
    let props: usize = p
        .node_props
        .values()
        .map(|v| v.values.capacity() * std::mem::size_of::<Value>())
        .sum();
    (p.nodes.capacity() * std::mem::size_of::<NodeId>() + lists + props) as i64
}

/// A size as GDS writes memory (`290 KiB`).
fn human_bytes(b: i64) -> String {
    let units = ["Bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} Bytes")
    } else {
        format!("{} {}", v as i64, units[u])
    }
}

/// The out-degree distribution `gds.graph.list` reports: min, max, mean and percentiles.
fn degree_distribution(p: &Projection) -> Value {
    let mut d: Vec<i64> = (0..p.nodes.len())
        .map(|i| p.rels.iter().map(|r| r.adj[i].len() as i64).sum())
        .collect();
    d.sort_unstable();
    let pct = |q: f64| -> Value { Value::Int(super::modes::percentile(&d, q).unwrap_or(0)) };
    let mean = if d.is_empty() {
        0.0
    } else {
        d.iter().sum::<i64>() as f64 / d.len() as f64
    };
    map(vec![
        ("max", Value::Int(d.last().copied().unwrap_or(0))),
        ("mean", Value::Float(mean)),
        ("min", Value::Int(d.first().copied().unwrap_or(0))),
        ("p50", pct(50.0)),
        ("p75", pct(75.0)),
        ("p90", pct(90.0)),
        ("p95", pct(95.0)),
        ("p99", pct(99.0)),
        ("p999", pct(99.9)),
    ])
}

/// The catalog columns of `gds.graph.list` (with `degreeDistribution`) and `gds.graph.drop`.
pub(super) fn catalog_row(
    name: &str,
    p: &Projection,
    listing: bool,
) -> (Vec<Arc<str>>, Vec<Value>) {
    let mut names = Vec::new();
    let mut row = Vec::new();
    if listing {
        names.push("degreeDistribution");
        row.push(degree_distribution(p));
    }
    // A dropped graph's memory is no longer measured (GDS reports '' and -1).
    let (memory, size) = if listing {
        let b = size_in_bytes(p);
        (Value::from(human_bytes(b).as_str()), Value::Int(b))
    } else {
        (Value::from(""), Value::Int(-1))
    };
    for (k, v) in [
        ("graphName", Value::from(name)),
        ("database", Value::from("neo4j")),
        ("databaseLocation", Value::from("local")),
        ("memoryUsage", memory),
        ("sizeInBytes", size),
        ("nodeCount", Value::Int(p.nodes.len() as i64)),
        (
            "relationshipCount",
            Value::Int(p.relationship_count() as i64),
        ),
        ("configuration", p.configuration.clone()),
        ("density", Value::Float(density(p))),
        ("creationTime", p.created.clone()),
        ("modificationTime", p.modified.clone()),
        ("schema", schema(p, false)),
        ("schemaWithOrientation", schema(p, true)),
    ] {
        names.push(k);
        row.push(v);
    }
    (cols(&names), row)
}

/// What an algorithm runs over: the projection's nodes of the selected labels (positions in
/// `nodes` are the view's ids) and its relationships of the selected types, each with a
/// weight (1.0 without a weight property).
pub(super) struct View {
    /// Internal (projection) ids of the view's nodes.
    pub nodes: Vec<usize>,
    /// The nodes' Neo4j ids.
    pub ids: Vec<NodeId>,
    pub out: Vec<Vec<(usize, f64)>>,
    /// How many relationship types the view reads.
    pub types: usize,
    /// Whether every selected relationship type is undirected.
    pub undirected: bool,
    pub relationship_count: usize,
}

impl View {
    pub fn n(&self) -> usize {
        self.nodes.len()
    }

    /// The view id of a node given as GDS takes it.
    pub fn of(&self, p: &Projection, v: &Value) -> Option<usize> {
        let i = p.internal(v)?;
        self.nodes.binary_search(&i).ok()
    }
}

/// Builds the view an algorithm's configuration selects: `nodeLabels`, `relationshipTypes`
/// (`*` or a list) and `relationshipWeightProperty`.
pub(super) fn view(
    procedure: &str,
    p: &Projection,
    config: &BTreeMap<Arc<str>, Value>,
) -> Result<View> {
    let names = |key: &str| -> Option<Vec<String>> {
        match config.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if &**s == "*" => None,
            Some(Value::String(s)) => Some(vec![s.to_string()]),
            Some(Value::List(l)) => {
                let v: Vec<String> = l
                    .iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect();
                if v.iter().any(|s| s == "*") {
                    None
                } else {
                    Some(v)
                }
            }
            _ => None,
        }
    };
    let label_filter: Option<Vec<usize>> = match names("nodeLabels") {
        None => None,
        Some(ls) => {
            let mut idx = Vec::new();
            let mut missing = Vec::new();
            for l in &ls {
                match p.labels.iter().position(|x| x == l) {
                    Some(i) => idx.push(i),
                    None => missing.push(format!("'{l}'")),
                }
            }
            if !missing.is_empty() {
                return Err(illegal(
                    procedure,
                    format!(
                        "Could not find the specified `nodeLabels` of {}. Available labels are {}.",
                        bracket(&missing),
                        bracket(&quoted(&p.labels))
                    ),
                ));
            }
            Some(idx)
        }
    };
    let types: Vec<usize> = match names("relationshipTypes") {
        None => (0..p.rels.len()).collect(),
        Some(ts) => {
            let mut idx = Vec::new();
            let mut missing = Vec::new();
            for t in &ts {
                match p.rels.iter().position(|r| r.name == *t) {
                    Some(i) => idx.push(i),
                    None => missing.push(t.clone()),
                }
            }
            if !missing.is_empty() {
                return Err(illegal(
                    procedure,
                    format!(
                        "Could not find the specified `relationshipTypes` of {}. Available relationship types are {}.",
                        bracket(&quoted(&missing)),
                        bracket(&quoted(&p.rels.iter().map(|r| r.name.clone()).collect::<Vec<_>>()))
                    ),
                ));
            }
            idx
        }
    };
    let weight = match config.get("relationshipWeightProperty") {
        Some(Value::String(w)) => {
            let positions: Vec<Option<usize>> = types
                .iter()
                .map(|&t| p.rels[t].properties.iter().position(|(k, _, _)| **k == **w))
                .collect();
            if positions.iter().any(Option::is_none) {
                let lacking: Vec<String> = types
                    .iter()
                    .zip(&positions)
                    .filter(|(_, x)| x.is_none())
                    .map(|(&t, _)| p.rels[t].name.clone())
                    .collect();
                let common: Vec<String> = match types.first() {
                    Some(&t0) => p.rels[t0]
                        .properties
                        .iter()
                        .map(|(k, _, _)| k.clone())
                        .filter(|k| {
                            types
                                .iter()
                                .all(|&t| p.rels[t].properties.iter().any(|(x, _, _)| x == k))
                        })
                        .collect(),
                    None => Vec::new(),
                };
                return Err(illegal(
                    procedure,
                    format!(
                        "Relationship weight property `{w}` not found in relationship types {}. Properties existing on all relationship types: {}",
                        bracket(&quoted(&lacking)),
                        bracket(&quoted(&common))
                    ),
                ));
            }
            Some(positions.into_iter().flatten().collect::<Vec<usize>>())
        }
        _ => None,
    };
    // Several types are read one after the other, in the graph store's order, as GDS's
    // union of relationship types reads them.
    let mut order: Vec<usize> = (0..types.len()).collect();
    order.sort_by_key(|&a| types[a]);
    let nodes: Vec<usize> = (0..p.nodes.len())
        .filter(|&i| {
            label_filter
                .as_ref()
                .is_none_or(|ls| p.node_labels[i].iter().any(|l| ls.contains(l)))
        })
        .collect();
    let mut pos = vec![usize::MAX; p.nodes.len()];
    for (k, &i) in nodes.iter().enumerate() {
        pos[i] = k;
    }
    let mut out = vec![Vec::new(); nodes.len()];
    let mut relationship_count = 0;
    for (k, &i) in nodes.iter().enumerate() {
        for &ti in &order {
            let t = types[ti];
            for (j, values) in &p.rels[t].adj[i] {
                if pos[*j] == usize::MAX {
                    continue;
                }
                let w = weight.as_ref().map_or(1.0, |ws| values[ws[ti]]);
                out[k].push((pos[*j], w));
                relationship_count += 1;
            }
        }
    }
    Ok(View {
        ids: nodes.iter().map(|&i| p.nodes[i]).collect(),
        nodes,
        out,
        types: types.len(),
        undirected: !types.is_empty()
            && types.iter().all(|&t| p.rels[t].orientation == "UNDIRECTED"),
        relationship_count,
    })
}

/// The names of the selected relationship types, for GDS's messages.
pub(super) fn selected_types(p: &Projection, config: &BTreeMap<Arc<str>, Value>) -> Vec<String> {
    let all: Vec<String> = p.rels.iter().map(|r| r.name.clone()).collect();
    match config.get("relationshipTypes") {
        Some(Value::List(l)) if !l.iter().any(|x| x.as_str() == Some("*")) => l
            .iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect(),
        Some(Value::String(s)) if &**s != "*" => vec![s.to_string()],
        _ => all,
    }
}

/// Names in single quotes, as GDS's messages list them.
fn quoted(items: &[String]) -> Vec<String> {
    items.iter().map(|i| format!("'{i}'")).collect()
}

/// Java's `List.toString()` of names: `[A, B]`.
pub(super) fn bracket(items: &[String]) -> String {
    format!("[{}]", items.join(", "))
}

/// A list of names given as GDS takes it (`'*'`, a name or a list); `None` for all.
fn name_filter(v: Option<&Value>) -> Option<Vec<String>> {
    match v {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if &**s == "*" => None,
        Some(Value::String(s)) => Some(vec![s.to_string()]),
        Some(Value::List(l)) => {
            let names: Vec<String> = l
                .iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect();
            (!names.iter().any(|n| n == "*")).then_some(names)
        }
        _ => None,
    }
}

/// `gds.graph.nodeProperty.stream`, `gds.graph.nodeProperties.stream`,
/// `gds.graph.relationships.stream`, `gds.graph.relationshipProperty.stream` and
/// `gds.graph.relationshipProperties.stream`: what a projection holds, mutated results
/// included.
pub(super) fn stream_contents(p: &Projection, procedure: &str, args: &[Value]) -> Result<Rows> {
    let id = |i: usize| Value::Int(p.nodes[i].0 as i64);
    match procedure {
        "gds.graph.nodeProperty.stream" | "gds.graph.nodeProperties.stream" => {
            let single = procedure == "gds.graph.nodeProperty.stream";
            let keys: Vec<String> = match args.get(1) {
                Some(Value::String(s)) => vec![s.to_string()],
                Some(Value::List(l)) => l
                    .iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect(),
                _ => Vec::new(),
            };
            let missing: Vec<String> = keys
                .iter()
                .filter(|k| !p.node_props.contains_key(*k))
                .map(|k| format!("'{k}'"))
                .collect();
            if !missing.is_empty() {
                return Err(illegal(
                    procedure,
                    format!(
                        "Expecting at least one node projection to contain property key(s) {}.",
                        bracket(&missing)
                    ),
                ));
            }
            let labels = name_filter(args.get(2));
            let list_labels = matches!(
                args.get(3),
                Some(Value::Map(m)) if matches!(m.get("listNodeLabels"), Some(Value::Bool(true)))
            );
            let mut rows = Vec::new();
            for i in 0..p.nodes.len() {
                let node_labels: Vec<&String> =
                    p.node_labels[i].iter().map(|l| &p.labels[*l]).collect();
                if labels
                    .as_ref()
                    .is_some_and(|ls| !node_labels.iter().any(|l| ls.contains(l)))
                {
                    continue;
                }
                let label_list = if list_labels {
                    Value::List(
                        node_labels
                            .iter()
                            .map(|l| Value::from(l.as_str()))
                            .collect(),
                    )
                } else {
                    Value::List(Vec::new())
                };
                for k in &keys {
                    let prop = &p.node_props[k];
                    let value = match &prop.values[i] {
                        Value::Null if !matches!(prop.default, Value::Null) => prop.default.clone(),
                        Value::Null if prop.kind() == "Float" => Value::Float(f64::NAN),
                        Value::Null if prop.kind() == "Integer" => Value::Int(i64::MIN),
                        v => v.clone(),
                    };
                    let mut row = vec![id(i)];
                    if !single {
                        row.push(Value::from(k.as_str()));
                    }
                    row.push(value);
                    row.push(label_list.clone());
                    rows.push(row);
                }
            }
            let columns: &[&str] = if single {
                &["nodeId", "propertyValue", "nodeLabels"]
            } else {
                &["nodeId", "nodeProperty", "propertyValue", "nodeLabels"]
            };
            Ok((cols(columns), rows))
        }
        _ => {
            let with_property = procedure != "gds.graph.relationships.stream";
            let single = procedure == "gds.graph.relationshipProperty.stream";
            let (keys, types_arg): (Vec<String>, Option<&Value>) = if with_property {
                let keys = match args.get(1) {
                    Some(Value::String(s)) => vec![s.to_string()],
                    Some(Value::List(l)) => l
                        .iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect(),
                    _ => Vec::new(),
                };
                (keys, args.get(2))
            } else {
                (Vec::new(), args.get(1))
            };
            let types = name_filter(types_arg);
            if let Some(ts) = &types {
                let missing: Vec<String> = ts
                    .iter()
                    .filter(|t| !p.rels.iter().any(|r| r.name == **t))
                    .map(|t| format!("'{t}'"))
                    .collect();
                if !missing.is_empty() {
                    return Err(super::failed(
                        procedure,
                        format!(
                            "java.lang.IllegalStateException: Expecting all specified relationship types to be present in graph store, but could not find {}",
                            bracket(&missing)
                        ),
                    ));
                }
            }
            let mut rows = Vec::new();
            for rel in &p.rels {
                if types.as_ref().is_some_and(|ts| !ts.contains(&rel.name)) {
                    continue;
                }
                let positions: Vec<(usize, &String)> = keys
                    .iter()
                    .filter_map(|k| {
                        rel.properties
                            .iter()
                            .position(|(x, _, _)| x == k)
                            .map(|at| (at, k))
                    })
                    .collect();
                if with_property && positions.is_empty() {
                    continue;
                }
                for (i, list) in rel.adj.iter().enumerate() {
                    for (j, values) in list {
                        let base = vec![id(i), id(*j), Value::from(rel.name.as_str())];
                        if !with_property {
                            rows.push(base);
                            continue;
                        }
                        for (at, k) in &positions {
                            let mut row = base.clone();
                            if !single {
                                row.push(Value::from(k.as_str()));
                            }
                            row.push(Value::Float(values[*at]));
                            rows.push(row);
                        }
                    }
                }
            }
            let columns: &[&str] = match (with_property, single) {
                (false, _) => &["sourceNodeId", "targetNodeId", "relationshipType"],
                (true, true) => &[
                    "sourceNodeId",
                    "targetNodeId",
                    "relationshipType",
                    "propertyValue",
                ],
                (true, false) => &[
                    "sourceNodeId",
                    "targetNodeId",
                    "relationshipType",
                    "relationshipProperty",
                    "propertyValue",
                ],
            };
            Ok((cols(columns), rows))
        }
    }
}

/// Builds a projection from the nodes and relationships a Cypher projection returns, nodes
/// numbered in the order they first come.
#[derive(Default)]
struct Builder {
    nodes: Vec<NodeId>,
    index: HashMap<NodeId, usize>,
    node_labels: Vec<Vec<usize>>,
    labels: Vec<String>,
    props: BTreeMap<String, NodeProperty>,
    rels: Vec<RelType>,
    undirected_all: bool,
    undirected: Vec<String>,
    /// Errors are the aggregating function's (`Failed to invoke function`).
    function: bool,
}

impl Builder {
    fn label(&mut self, l: &str) -> usize {
        match self.labels.iter().position(|x| x == l) {
            Some(i) => i,
            None => {
                self.labels.push(l.to_string());
                self.labels.len() - 1
            }
        }
    }

    /// Adds a node (once), its labels and the properties it brings (`declare_nulls`: a key
    /// given with a null value still names the property for the node's labels).
    fn node(
        &mut self,
        procedure: &str,
        id: NodeId,
        labels: &[String],
        props: &[(String, Value)],
        transient: bool,
        declare_nulls: bool,
    ) -> Result<usize> {
        let at = match self.index.get(&id) {
            Some(&at) => at,
            None => {
                self.nodes.push(id);
                self.index.insert(id, self.nodes.len() - 1);
                self.node_labels.push(Vec::new());
                for p in self.props.values_mut() {
                    p.values.push(Value::Null);
                }
                self.nodes.len() - 1
            }
        };
        for l in labels {
            let li = self.label(l);
            if !self.node_labels[at].contains(&li) {
                self.node_labels[at].push(li);
            }
        }
        let n = self.nodes.len();
        for (k, v) in props {
            let v = match v {
                Value::Int(_) | Value::Float(_) | Value::Null => v.clone(),
                Value::List(items)
                    if items
                        .iter()
                        .all(|i| matches!(i, Value::Int(_) | Value::Float(_))) =>
                {
                    v.clone()
                }
                other => {
                    return Err(illegal(
                        procedure,
                        format!(
                            "Unsupported GDS node property of type `{}`.",
                            type_name(other)
                        ),
                    ))
                }
            };
            let entry = self.props.entry(k.clone()).or_insert_with(|| NodeProperty {
                values: vec![Value::Null; n],
                transient,
                default: Value::Null,
                labels: Vec::new(),
            });
            if declare_nulls || !matches!(v, Value::Null) {
                for li in &self.node_labels[at] {
                    if !entry.labels.contains(li) {
                        entry.labels.push(*li);
                    }
                }
            }
            if !matches!(v, Value::Null) {
                entry.set(at, v).map_err(|cause| {
                    if self.function {
                        super::failed_function(procedure, cause)
                    } else {
                        super::failed(procedure, cause)
                    }
                })?;
            }
        }
        Ok(at)
    }

    fn relationship(&mut self, source: usize, target: usize, ty: &str, props: &[(String, f64)]) {
        let n = self.nodes.len();
        let t = match self.rels.iter().position(|r| r.name == ty) {
            Some(t) => t,
            None => {
                let undirected = self.undirected_all || self.undirected.iter().any(|u| u == ty);
                self.rels.push(RelType {
                    name: ty.to_string(),
                    orientation: if undirected { "UNDIRECTED" } else { "NATURAL" }.into(),
                    transient: true,
                    aggregations: Vec::new(),
                    properties: Vec::new(),
                    adj: Vec::new(),
                    count: 0,
                });
                self.rels.len() - 1
            }
        };
        let rel = &mut self.rels[t];
        rel.adj.resize(n, Vec::new());
        for (k, _) in props {
            if !rel.properties.iter().any(|(x, _, _)| x == k) {
                rel.properties.push((k.clone(), f64::NAN, false));
                for list in &mut rel.adj {
                    for (_, values) in list.iter_mut() {
                        values.push(f64::NAN);
                    }
                }
            }
        }
        let values: Vec<f64> = rel
            .properties
            .iter()
            .map(|(k, _, _)| {
                props
                    .iter()
                    .find(|(x, _)| x == k)
                    .map_or(f64::NAN, |(_, v)| *v)
            })
            .collect();
        if rel.orientation == "UNDIRECTED" {
            rel.adj[source].push((target, values.clone()));
            rel.adj[target].push((source, values));
            rel.count += 2;
        } else {
            rel.adj[source].push((target, values));
            rel.count += 1;
        }
    }

    fn finish(mut self, configuration: Value) -> Projection {
        let n = self.nodes.len();
        if self.labels.is_empty() {
            self.labels.push("__ALL__".into());
            for l in &mut self.node_labels {
                l.push(0);
            }
            for p in self.props.values_mut() {
                p.labels = vec![0];
            }
        }
        for rel in &mut self.rels {
            rel.adj.resize(n, Vec::new());
            for list in &mut rel.adj {
                list.sort_by_key(|(t, _)| *t);
            }
        }
        let type_capacity = capacity_for(self.rels.len());
        self.rels
            .sort_by_key(|r| type_bucket(&r.name, type_capacity));
        let created = now_utc();
        Projection {
            nodes: self.nodes,
            index: self.index,
            node_labels: self.node_labels,
            labels: self.labels,
            node_props: self.props,
            rels: self.rels,
            node_projection: Value::Null,
            relationship_projection: Value::Null,
            configuration,
            modified: created.clone(),
            created,
        }
    }
}

/// A node as a Cypher projection gives it: a node or a node id.
fn node_of(g: &Graph, procedure: &str, v: &Value) -> Result<Option<NodeId>> {
    match v {
        Value::Null => Ok(None),
        Value::Node(n) => Ok(Some(*n)),
        Value::Int(i) if *i >= 0 && *i <= u32::MAX as i64 && g.contains_node(NodeId(*i as u32)) => {
            Ok(Some(NodeId(*i as u32)))
        }
        other => Err(illegal(
            procedure,
            format!(
                "The node has to be either a NODE or an INTEGER, but got {}",
                type_name(other).to_ascii_uppercase()
            ),
        )),
    }
}

/// A number, or NaN for null, as a relationship property of a Cypher projection.
fn rel_number(procedure: &str, v: &Value) -> Result<f64> {
    match v {
        Value::Null => Ok(f64::NAN),
        v => as_f64(v).ok_or_else(|| {
            illegal(
                procedure,
                format!(
                    "Unsupported type [{}] of value {v}. Please use a numeric property.",
                    type_name(v).to_ascii_uppercase()
                ),
            )
        }),
    }
}

/// Numeric relationship properties from a map (Cypher projections).
fn rel_props(procedure: &str, m: Option<&Value>) -> Result<Vec<(String, f64)>> {
    match m {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Map(m)) => m
            .iter()
            .map(|(k, v)| Ok((k.to_string(), rel_number(procedure, v)?)))
            .collect(),
        Some(other) => Err(illegal(
            procedure,
            format!("Expected a map of properties, but got {}", type_name(other)),
        )),
    }
}

/// Labels as a Cypher projection's `sourceNodeLabels` / `targetNodeLabels` give them: a
/// list, a label, `true` (the node's own) or `false` (none).
fn labels_of(g: &Graph, node: NodeId, v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::String(s)) => vec![s.to_string()],
        Some(Value::List(l)) => l
            .iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect(),
        Some(Value::Bool(true)) => g.labels(node).iter().map(|l| l.to_string()).collect(),
        _ => Vec::new(),
    }
}

fn map_props(v: Option<&Value>) -> Vec<(String, Value)> {
    match v {
        Some(Value::Map(m)) => m.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        _ => Vec::new(),
    }
}

fn exists(g: &Graph, name: &str) -> bool {
    catalog(g)
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .contains_key(name)
}

fn insert(g: &Graph, name: String, p: Projection) {
    catalog(g)
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name, Arc::new(p));
}

/// The aggregating function `gds.graph.project(graphName, sourceNode, targetNode, dataConfig,
/// configuration)`, finished over its rows: the Cypher projection.
pub(super) fn project_aggregate(g: &Graph, rows: Vec<Vec<Value>>, query: &str) -> Result<Value> {
    const P: &str = "gds.graph.project";
    let fail = |why: String| {
        super::failed_function(P, format!("java.lang.IllegalArgumentException: {why}"))
    };
    let Some(first) = rows.first() else {
        return Ok(Value::Null);
    };
    let name = first
        .first()
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if name.trim().is_empty() {
        return Err(fail(format!(
            "`graphName` can not be null or blank, but it was `{name}`"
        )));
    }
    if exists(g, &name) {
        return Err(fail(format!("Graph {name} already exists")));
    }
    let config = match first.get(4) {
        Some(Value::Map(m)) => m.clone(),
        _ => BTreeMap::new(),
    };
    let names = |k: &str| -> Vec<String> {
        match config.get(k) {
            Some(Value::List(l)) => l
                .iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect(),
            Some(Value::String(s)) => vec![s.to_string()],
            _ => Vec::new(),
        }
    };
    let undirected = names("undirectedRelationshipTypes");
    let mut b = Builder {
        undirected_all: undirected.iter().any(|u| u == "*"),
        undirected: undirected.clone(),
        function: true,
        ..Builder::default()
    };
    for row in &rows {
        let data = match row.get(3) {
            Some(Value::Map(m)) => Some(m),
            _ => None,
        };
        let get = |k: &str| data.and_then(|m| m.get(k));
        for (a, b) in [
            ("sourceNodeLabels", "targetNodeLabels"),
            ("sourceNodeProperties", "targetNodeProperties"),
        ] {
            for (given, missing) in [(a, b), (b, a)] {
                if data.is_some_and(|m| m.contains_key(given) && !m.contains_key(missing)) {
                    return Err(fail(format!("The configuration key '{missing}' is missing, but '{given}' is provided. If you really meant to only provide `{given}` with no value for `{missing}`, you can set `{missing}` to `NULL`.")));
                }
            }
        }
        let Some(source) = node_of(g, P, row.get(1).unwrap_or(&Value::Null))? else {
            continue;
        };
        let s = b.node(
            P,
            source,
            &labels_of(g, source, get("sourceNodeLabels")),
            &map_props(get("sourceNodeProperties")),
            false,
            true,
        )?;
        if let Some(target) = node_of(g, P, row.get(2).unwrap_or(&Value::Null))? {
            let t = b.node(
                P,
                target,
                &labels_of(g, target, get("targetNodeLabels")),
                &map_props(get("targetNodeProperties")),
                false,
                true,
            )?;
            let ty = get("relationshipType")
                .and_then(Value::as_str)
                .unwrap_or("__ALL__")
                .to_string();
            b.relationship(s, t, &ty, &rel_props(P, get("relationshipProperties"))?);
        }
    }
    let list = |xs: &[String]| Value::List(xs.iter().map(|x| Value::from(x.as_str())).collect());
    let configuration = map(vec![
        (
            "inverseIndexedRelationshipTypes",
            list(&names("inverseIndexedRelationshipTypes")),
        ),
        (
            "jobId",
            Value::from(crate::engine::functions::random_uuid().as_str()),
        ),
        ("logProgress", Value::Bool(true)),
        ("query", Value::from(query)),
        ("readConcurrency", Value::Int(4)),
        ("undirectedRelationshipTypes", list(&undirected)),
    ]);
    let p = b.finish(configuration.clone());
    let answer = map(vec![
        ("configuration", configuration),
        ("graphName", Value::from(name.as_str())),
        ("nodeCount", Value::Int(p.nodes.len() as i64)),
        ("projectMillis", Value::Int(0)),
        ("query", Value::from(query)),
        (
            "relationshipCount",
            Value::Int(p.relationship_count() as i64),
        ),
    ]);
    insert(g, name, p);
    Ok(answer)
}

/// `gds.graph.project.cypher(graphName, nodeQuery, relationshipQuery, configuration)`: the
/// legacy Cypher projection, its queries run read-only in the statement.
pub(super) fn project_cypher(g: &Graph, args: &[Value], host: &super::Host) -> Result<Rows> {
    const P: &str = "gds.graph.project.cypher";
    let name = super::graph_name(P, args)?;
    let text = |i: usize| {
        args.get(i)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let (node_query, rel_query) = (text(1), text(2));
    let config = match args.get(3) {
        Some(Value::Map(m)) => m.clone(),
        _ => BTreeMap::new(),
    };
    if exists(g, &name) {
        return Err(illegal(
            P,
            format!("A graph with name '{name}' already exists."),
        ));
    }
    let params: crate::engine::Params = match config.get("parameters") {
        Some(Value::Map(m)) => m.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        _ => Default::default(),
    };
    let validate = !matches!(
        config.get("validateRelationships"),
        Some(Value::Bool(false))
    );
    let column = |t: &crate::engine::Table, c: &str| t.columns.iter().position(|x| x == c);
    let nodes = (host.nested)(&node_query, &params)?;
    let Some(id_col) = column(&nodes, "id") else {
        return Err(illegal(
            P,
            "Invalid node query, required column(s) not found: 'id' - did you specify 'AS id'?",
        ));
    };
    let label_col = column(&nodes, "labels");
    let mut b = Builder::default();
    for row in &nodes.rows {
        (host.tick)()?;
        let Some(id) = node_of(g, P, &row[id_col])? else {
            continue;
        };
        let labels: Vec<String> = match label_col.map(|c| &row[c]) {
            Some(Value::List(l)) => l
                .iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect(),
            Some(Value::String(s)) => vec![s.to_string()],
            _ => Vec::new(),
        };
        let props: Vec<(String, Value)> = nodes
            .columns
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != id_col && Some(*i) != label_col)
            .map(|(i, c)| (c.clone(), row[i].clone()))
            .collect();
        b.node(P, id, &labels, &props, true, false)?;
    }
    let rels = (host.nested)(&rel_query, &params)?;
    let (Some(source_col), Some(target_col)) = (column(&rels, "source"), column(&rels, "target"))
    else {
        return Err(illegal(
            P,
            "Invalid relationship query, required column(s) not found: 'source', 'target' - did you specify 'AS source', 'AS target'?",
        ));
    };
    let type_col = column(&rels, "type");
    for row in &rels.rows {
        (host.tick)()?;
        let end = |c: usize, which: &str| -> Result<Option<usize>> {
            let Some(n) = node_of(g, P, &row[c])? else {
                return Ok(None);
            };
            match b.index.get(&n) {
                Some(&at) => Ok(Some(at)),
                None if validate => Err(illegal(
                    P,
                    format!("Failed to load a relationship because its {which}-node with id {} is not part of the node query or projection. To ignore the relationship, set the configuration parameter `validateRelationships` to false.", n.0),
                )),
                None => Ok(None),
            }
        };
        let (Some(s), Some(t)) = (end(source_col, "source")?, end(target_col, "target")?) else {
            continue;
        };
        let ty = type_col
            .and_then(|c| row[c].as_str().map(String::from))
            .unwrap_or_else(|| "__ALL__".into());
        let mut props = Vec::new();
        for (i, c) in rels.columns.iter().enumerate() {
            if i != source_col && i != target_col && Some(i) != type_col {
                props.push((c.clone(), rel_number(P, &row[i])?));
            }
        }
        b.relationship(s, t, &ty, &props);
    }
    let configuration = map(vec![
        (
            "jobId",
            Value::from(crate::engine::functions::random_uuid().as_str()),
        ),
        ("logProgress", Value::Bool(true)),
        ("nodeQuery", Value::from(node_query.as_str())),
        ("parameters", Value::List(Vec::new())),
        ("readConcurrency", Value::Int(4)),
        ("relationshipQuery", Value::from(rel_query.as_str())),
        ("sudo", Value::Bool(true)),
        ("validateRelationships", Value::Bool(validate)),
    ]);
    let p = b.finish(configuration);
    let row = vec![
        Value::from(node_query.as_str()),
        Value::from(rel_query.as_str()),
        Value::from(name.as_str()),
        Value::Int(p.nodes.len() as i64),
        Value::Int(p.relationship_count() as i64),
        Value::Int(0),
    ];
    insert(g, name, p);
    Ok((
        cols(&[
            "nodeQuery",
            "relationshipQuery",
            "graphName",
            "nodeCount",
            "relationshipCount",
            "projectMillis",
        ]),
        vec![row],
    ))
}

/// Java's `String.hashCode` (over UTF-16 code units).
fn java_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

/// The bucket of a relationship type in a Java `HashMap` of `capacity` buckets (GDS's key
/// hashes as `31 + name.hashCode()`; the map spreads the hash's high bits).
pub(super) fn type_bucket(name: &str, capacity: usize) -> usize {
    let h = 31i32.wrapping_add(java_hash(name)) as u32;
    ((h ^ (h >> 16)) as usize) & (capacity.max(1) - 1)
}

/// The capacity Java 17's `HashMap` sizes for `n` entries (`tableSizeFor(n / 0.75 + 1)`).
pub(super) fn capacity_for(n: usize) -> usize {
    ((n as f32 / 0.75f32 + 1.0) as usize).next_power_of_two()
}

/// Adds a relationship type to the graph store's map (`mutate`): a new map holds the new type
/// first, then the others in their order, and iterates them by bucket (in a bucket, in the
/// order they came) — so a new type can come before an old one of the same bucket.
pub(super) fn add_type(p: &mut Projection, rel: RelType) {
    let mut types = vec![rel];
    types.append(&mut p.rels);
    let mut capacity = 16;
    while types.len() > capacity * 3 / 4 {
        capacity *= 2;
    }
    types.sort_by_key(|r| type_bucket(&r.name, capacity));
    p.rels = types;
}
