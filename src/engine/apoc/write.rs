//! APOC core's writing procedures that graph-construction code calls: `apoc.merge.node` /
//! `apoc.merge.relationship` (LangChain's `add_graph_documents`), `apoc.create.node(s)` /
//! `relationship`, `apoc.create.addLabels` / `setLabels` / `removeLabels`,
//! `apoc.create.setProperty` / `setProperties` / `removeProperties` and the relationship
//! setters. Labels, types and keys are data (APOC's reason to exist); constraints hold as for any
//! write (checked when the statement ends).

use crate::engine::error::{ErrorKind, ExecError, Result};
use crate::engine::exec::Shared;
use crate::graph::{Dir, Graph};
use crate::value::{NodeId, RelId, Value};

family! {
    /// The writing APOC procedures grape runs.
    WriteFn {
        "apoc.create.addlabels" => CreateAddLabels,
        "apoc.create.node" => CreateNode,
        "apoc.create.nodes" => CreateNodes,
        "apoc.create.relationship" => CreateRelationship,
        "apoc.create.removelabels" => CreateRemoveLabels,
        "apoc.create.removeproperties" => CreateRemoveProperties,
        "apoc.create.removerelproperties" => CreateRemoveRelProperties,
        "apoc.create.setlabels" => CreateSetLabels,
        "apoc.create.setproperties" => CreateSetProperties,
        "apoc.create.setproperty" => CreateSetProperty,
        "apoc.create.setrelproperties" => CreateSetRelProperties,
        "apoc.create.setrelproperty" => CreateSetRelProperty,
        "apoc.merge.node" => MergeNode,
        "apoc.merge.relationship" => MergeRelationship,
    }
}

impl WriteFn {
    /// The procedure's output column.
    pub(crate) fn column(self) -> &'static str {
        match self {
            WriteFn::CreateAddLabels => "node",
            WriteFn::CreateNode => "node",
            WriteFn::CreateNodes => "node",
            WriteFn::CreateRelationship => "rel",
            WriteFn::CreateRemoveLabels => "node",
            WriteFn::CreateRemoveProperties => "node",
            WriteFn::CreateRemoveRelProperties => "rel",
            WriteFn::CreateSetLabels => "node",
            WriteFn::CreateSetProperties => "node",
            WriteFn::CreateSetProperty => "node",
            WriteFn::CreateSetRelProperties => "rel",
            WriteFn::CreateSetRelProperty => "rel",
            WriteFn::MergeNode => "node",
            WriteFn::MergeRelationship => "rel",
        }
    }
}

/// One call of a writing procedure: its name for messages, and how it reads its arguments.
pub(super) struct Call<'a> {
    procedure: &'a str,
    /// The database the statement runs on (element ids name it).
    database: &'a str,
}

impl<'a> Call<'a> {
    pub(super) fn new(procedure: &'a str, sh: &'a Shared) -> Call<'a> {
        Call {
            procedure,
            database: sh.databases.map_or("neo4j", |d| d.current.as_str()),
        }
    }

    pub(super) fn failed(&self, why: impl std::fmt::Display) -> ExecError {
        ExecError::procedure_failed(self.procedure, why)
    }

    /// APOC writes the Java object it was handed: a map is refused, a list becomes an array
    /// of its first element's class (another class in it fails the copy).
    pub(super) fn storable(&self, v: &Value) -> Result<()> {
        match v {
            Value::Map(_) => Err(self.failed(format!(
                "java.lang.IllegalArgumentException: [{}:java.util.HashMap] is not a supported property value",
                super::java_to_string(v)
            ))),
            Value::List(xs) => {
                let class = xs.first().map(super::coll::java_class);
                if xs.iter().any(|x| Some(super::coll::java_class(x)) != class) {
                    return Err(self.failed(format!(
                        "java.lang.ArrayStoreException: arraycopy: element type mismatch: can not cast one of the elements of java.lang.Object[] to the type of the destination array, {}",
                        class.unwrap_or("java.lang.Object")
                    )));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    pub(super) fn labels(&self, v: &Value) -> Result<Vec<String>> {
        match v {
            Value::Null => Ok(Vec::new()),
            Value::String(s) => Ok(vec![s.to_string()]),
            Value::List(xs) => xs
                .iter()
                .filter(|x| !x.is_null())
                .map(|x| match x {
                    Value::String(s) if !s.is_empty() => Ok(s.to_string()),
                    other => Err(self.failed(format!(
                        "java.lang.IllegalArgumentException: a label must be a non-empty STRING, not {other}"
                    ))),
                })
                .collect(),
            other => Err(self.failed(format!(
                "java.lang.IllegalArgumentException: labels must be a LIST<STRING>, not {other}"
            ))),
        }
    }

    pub(super) fn props<'v>(&self, v: &'v Value) -> Result<Vec<(&'v str, &'v Value)>> {
        match v {
            Value::Null => Ok(Vec::new()),
            Value::Map(m) => Ok(m.iter().map(|(k, v)| (&**k, v)).collect()),
            other => Err(self.failed(format!(
                "java.lang.IllegalArgumentException: properties must be a MAP, not {other}"
            ))),
        }
    }

    /// Nodes given as a node, an id, an element id, or a list of them.
    pub(super) fn nodes(&self, g: &Graph, v: &Value) -> Result<Vec<NodeId>> {
        let one = |x: &Value| -> Result<Option<NodeId>> {
            match x {
                Value::Null => Ok(None),
                Value::Node(n) => Ok(Some(*n)),
                Value::Int(i) => Ok(u32::try_from(*i)
                    .ok()
                    .map(NodeId)
                    .filter(|n| g.contains_node(*n))),
                Value::String(s) => Ok(crate::value::node_of_element_id(s, self.database)
                    .filter(|n| g.contains_node(*n))),
                other => Err(self.failed(format!(
                    "java.lang.RuntimeException: Can't convert {other} to a Node"
                ))),
            }
        };
        each(v, one)
    }

    pub(super) fn rels(&self, g: &Graph, v: &Value) -> Result<Vec<RelId>> {
        let one = |x: &Value| -> Result<Option<RelId>> {
            match x {
                Value::Null => Ok(None),
                Value::Relationship(r) => Ok(Some(*r)),
                Value::Int(i) => Ok(u32::try_from(*i)
                    .ok()
                    .map(RelId)
                    .filter(|r| g.contains_relationship(*r))),
                Value::String(s) => Ok(crate::value::rel_of_element_id(s, self.database)
                    .filter(|r| g.contains_relationship(*r))),
                other => Err(self.failed(format!(
                    "java.lang.RuntimeException: Can't convert {other} to a Relationship"
                ))),
            }
        };
        each(v, one)
    }

    pub(super) fn node(&self, v: &Value, what: &str) -> Result<NodeId> {
        match v {
            Value::Node(n) => Ok(*n),
            other => Err(self.failed(format!(
                "java.lang.IllegalArgumentException: {what} must be a NODE, not {other}"
            ))),
        }
    }

    pub(super) fn text<'v>(&self, v: &'v Value, what: &str) -> Result<&'v str> {
        match v {
            Value::String(s) if !s.is_empty() => Ok(s),
            other => Err(self.failed(format!(
                "java.lang.IllegalArgumentException: {what} must be a non-empty STRING, not {other}"
            ))),
        }
    }
}

/// `one` applied to a value or to each item of a list, the `None`s (nulls) left out.
fn each<T>(v: &Value, one: impl Fn(&Value) -> Result<Option<T>>) -> Result<Vec<T>> {
    match v {
        Value::List(xs) => {
            let mut out = Vec::with_capacity(xs.len());
            for x in xs {
                out.extend(one(x)?);
            }
            Ok(out)
        }
        other => Ok(one(other)?.into_iter().collect()),
    }
}

fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Null)
}

fn set_all(
    g: &mut Graph,
    sh: &Shared,
    c: &Call,
    target: &Value,
    props: &[(&str, &Value)],
) -> Result<()> {
    for (k, v) in props {
        c.storable(v)?;
        crate::engine::exec::set_property(g, sh, target, k, (*v).clone())?;
    }
    Ok(())
}

fn add_labels(g: &mut Graph, sh: &Shared, n: NodeId, labels: &[String]) {
    for l in labels {
        if g.add_label(n, l) {
            sh.stats.borrow_mut().labels_added += 1;
        }
    }
}

/// Nodes with every label of `labels` whose properties equal `ident` (Cypher equality).
fn matching_nodes(g: &Graph, labels: &[String], ident: &[(&str, &Value)]) -> Vec<NodeId> {
    let syms: Option<Vec<_>> = labels.iter().map(|l| g.sym(l)).collect();
    let Some(syms) = syms else {
        return Vec::new();
    };
    let keys: Option<Vec<_>> = ident.iter().map(|(k, _)| g.sym(k)).collect();
    let Some(keys) = keys else {
        return Vec::new();
    };
    // The first label's nodes with the first key's value, through its index when one pays
    // (as MERGE finds them: a merge row after row is not a label scan per row). The index
    // groups by equivalence, which `=` differs from only for NaN: the filter below decides.
    let candidates: Vec<NodeId> = match (syms.first(), keys.first(), ident.first()) {
        (Some(&l), Some(&k), Some((_, want))) => g.nodes_with_property(l, k, want),
        (Some(first), _, _) => g.nodes_with_label(*first).to_vec(),
        (None, _, _) => g.node_ids().collect(),
    };
    candidates
        .into_iter()
        .filter(|n| syms.iter().all(|l| g.has_label(*n, *l)))
        .filter(|n| {
            keys.iter().zip(ident).all(|(k, (_, want))| {
                g.node_property(*n, *k)
                    .is_some_and(|have| have.equals(want) == Some(true))
            })
        })
        .collect()
}

/// Runs the writing APOC procedure `lname` once; its rows (one value each).
pub(crate) fn call(
    g: &mut Graph,
    sh: &Shared,
    m: WriteFn,
    procedure: &str,
    args: &[Value],
) -> Result<Vec<Vec<Value>>> {
    let c = Call::new(procedure, sh);
    let (a0, a1, a2, a3) = (arg(args, 0), arg(args, 1), arg(args, 2), arg(args, 3));
    let node_rows = |ns: Vec<NodeId>| ns.into_iter().map(|n| vec![Value::Node(n)]).collect();
    let rel_rows = |rs: Vec<RelId>| {
        rs.into_iter()
            .map(|r| vec![Value::Relationship(r)])
            .collect()
    };
    Ok(match m {
        WriteFn::CreateNode | WriteFn::CreateNodes => {
            let labels = c.labels(a0)?;
            let prop_maps: Vec<&Value> = match (m, a1) {
                (WriteFn::CreateNodes, Value::List(xs)) => xs.iter().collect(),
                (WriteFn::CreateNodes, Value::Null) => Vec::new(),
                (WriteFn::CreateNodes, other) => {
                    return Err(c.failed(format!(
                        "java.lang.IllegalArgumentException: props must be a LIST<MAP>, not {other}"
                    )))
                }
                _ => vec![a1],
            };
            let mut out = Vec::new();
            for pm in prop_maps {
                sh.tick()?;
                let props = c.props(pm)?;
                let label_refs: Vec<&str> = labels.iter().map(String::as_str).collect();
                let n = g.add_node(&label_refs, Vec::new());
                {
                    let mut st = sh.stats.borrow_mut();
                    st.nodes_created += 1;
                    st.labels_added += labels.len() as u64;
                }
                set_all(g, sh, &c, &Value::Node(n), &props)?;
                out.push(n);
            }
            node_rows(out)
        }
        WriteFn::CreateRelationship => {
            let from = c.node(a0, "from")?;
            let ty = c.text(a1, "relType")?;
            let props = c.props(a2)?;
            let to = c.node(a3, "to")?;
            let r = g
                .add_relationship(from, to, ty, Vec::new())
                .ok_or_else(|| {
                    ExecError::runtime(
                        ErrorKind::EntityNotFound,
                        format!("{procedure}: a node of the relationship was deleted"),
                    )
                })?;
            sh.stats.borrow_mut().relationships_created += 1;
            set_all(g, sh, &c, &Value::Relationship(r), &props)?;
            rel_rows(vec![r])
        }
        WriteFn::CreateAddLabels | WriteFn::CreateSetLabels | WriteFn::CreateRemoveLabels => {
            let nodes = c.nodes(g, a0)?;
            let labels = c.labels(a1)?;
            for &n in &nodes {
                sh.tick()?;
                match m {
                    WriteFn::CreateAddLabels => add_labels(g, sh, n, &labels),
                    WriteFn::CreateRemoveLabels => {
                        for l in &labels {
                            if g.remove_label(n, l) {
                                sh.stats.borrow_mut().labels_removed += 1;
                            }
                        }
                    }
                    _ => {
                        for l in g.labels(n) {
                            if !labels.iter().any(|x| **x == *l) && g.remove_label(n, &l) {
                                sh.stats.borrow_mut().labels_removed += 1;
                            }
                        }
                        add_labels(g, sh, n, &labels);
                    }
                }
            }
            node_rows(nodes)
        }
        WriteFn::CreateSetProperty | WriteFn::CreateSetRelProperty => {
            let key = c.text(a1, "key")?;
            let targets: Vec<Value> = if m == WriteFn::CreateSetProperty {
                c.nodes(g, a0)?.into_iter().map(Value::Node).collect()
            } else {
                c.rels(g, a0)?
                    .into_iter()
                    .map(Value::Relationship)
                    .collect()
            };
            for t in &targets {
                sh.tick()?;
                crate::engine::exec::set_property(g, sh, t, key, a2.clone())?;
            }
            targets.into_iter().map(|t| vec![t]).collect()
        }
        WriteFn::CreateSetProperties | WriteFn::CreateSetRelProperties => {
            let keys: Vec<String> = match a1 {
                Value::List(xs) => xs
                    .iter()
                    .map(|k| c.text(k, "key").map(str::to_string))
                    .collect::<Result<_>>()?,
                Value::Null => Vec::new(),
                other => return Err(c.failed(format!("keys must be a LIST<STRING>, not {other}"))),
            };
            let values: Vec<Value> = match a2 {
                Value::List(xs) => xs.clone(),
                Value::Null => Vec::new(),
                other => return Err(c.failed(format!("values must be a LIST, not {other}"))),
            };
            if keys.len() != values.len() {
                return Err(c.failed(
                    "java.lang.IllegalArgumentException: keys and values must have the same length",
                ));
            }
            let targets: Vec<Value> = if m == WriteFn::CreateSetProperties {
                c.nodes(g, a0)?.into_iter().map(Value::Node).collect()
            } else {
                c.rels(g, a0)?
                    .into_iter()
                    .map(Value::Relationship)
                    .collect()
            };
            for t in &targets {
                sh.tick()?;
                for (k, v) in keys.iter().zip(&values) {
                    crate::engine::exec::set_property(g, sh, t, k, v.clone())?;
                }
            }
            targets.into_iter().map(|t| vec![t]).collect()
        }
        WriteFn::CreateRemoveProperties | WriteFn::CreateRemoveRelProperties => {
            let keys: Vec<String> = match a1 {
                Value::List(xs) => xs
                    .iter()
                    .filter_map(|k| k.as_str().map(str::to_string))
                    .collect(),
                Value::String(s) => vec![s.to_string()],
                _ => Vec::new(),
            };
            let targets: Vec<Value> = if m == WriteFn::CreateRemoveProperties {
                c.nodes(g, a0)?.into_iter().map(Value::Node).collect()
            } else {
                c.rels(g, a0)?
                    .into_iter()
                    .map(Value::Relationship)
                    .collect()
            };
            for t in &targets {
                for k in &keys {
                    crate::engine::exec::set_property(g, sh, t, k, Value::Null)?;
                }
            }
            targets.into_iter().map(|t| vec![t]).collect()
        }
        WriteFn::MergeNode => {
            let labels = c.labels(a0)?;
            if labels.is_empty() {
                return Err(c.failed(
                    "java.lang.IllegalArgumentException: you need to supply at least one label",
                ));
            }
            let ident = c.props(a1)?;
            if ident.is_empty() {
                return Err(c.failed(
                    "java.lang.IllegalArgumentException: you need to supply at least one identifying property for a merge",
                ));
            }
            if let Some((k, _)) = ident.iter().find(|(_, v)| v.is_null()) {
                return Err(c.failed(format!(
                    "java.lang.IllegalArgumentException: Cannot merge node using null property value for {k}"
                )));
            }
            let on_create = c.props(a2)?;
            let on_match = c.props(a3)?;
            let found = matching_nodes(g, &labels, &ident);
            if found.is_empty() {
                let label_refs: Vec<&str> = labels.iter().map(String::as_str).collect();
                let n = g.add_node(&label_refs, Vec::new());
                {
                    let mut st = sh.stats.borrow_mut();
                    st.nodes_created += 1;
                    st.labels_added += labels.len() as u64;
                }
                set_all(g, sh, &c, &Value::Node(n), &ident)?;
                set_all(g, sh, &c, &Value::Node(n), &on_create)?;
                node_rows(vec![n])
            } else {
                for &n in &found {
                    set_all(g, sh, &c, &Value::Node(n), &on_match)?;
                }
                node_rows(found)
            }
        }
        WriteFn::MergeRelationship => {
            let start = c.node(a0, "startNode")?;
            let ty = c.text(a1, "relType")?;
            let ident = c.props(a2)?;
            let on_create = c.props(a3)?;
            let end = c.node(arg(args, 4), "endNode")?;
            let on_match = c.props(arg(args, 5))?;
            if let Some((k, _)) = ident.iter().find(|(_, v)| v.is_null()) {
                return Err(c.failed(format!(
                    "java.lang.IllegalArgumentException: Cannot merge relationship using null property value for {k}"
                )));
            }
            let found: Vec<RelId> = match g.sym(ty) {
                Some(t) => {
                    let keys: Option<Vec<_>> = ident.iter().map(|(k, _)| g.sym(k)).collect();
                    g.neighbours_iter(start, Dir::Outgoing, Some(&[t]))
                        .filter(|(_, m)| *m == end)
                        .map(|(r, _)| r)
                        .filter(|r| match &keys {
                            Some(keys) => keys.iter().zip(&ident).all(|(k, (_, want))| {
                                g.relationship_property(*r, *k)
                                    .is_some_and(|have| have.equals(want) == Some(true))
                            }),
                            None => false,
                        })
                        .collect()
                }
                None => Vec::new(),
            };
            if found.is_empty() {
                let r = g
                    .add_relationship(start, end, ty, Vec::new())
                    .ok_or_else(|| {
                        ExecError::runtime(
                            ErrorKind::EntityNotFound,
                            format!("{procedure}: a node of the relationship was deleted"),
                        )
                    })?;
                sh.stats.borrow_mut().relationships_created += 1;
                set_all(g, sh, &c, &Value::Relationship(r), &ident)?;
                set_all(g, sh, &c, &Value::Relationship(r), &on_create)?;
                rel_rows(vec![r])
            } else {
                for &r in &found {
                    set_all(g, sh, &c, &Value::Relationship(r), &on_match)?;
                }
                rel_rows(found)
            }
        }
    })
}
