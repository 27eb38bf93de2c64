//! APOC's node, relationship and path functions (`apoc.node.*`, `apoc.rel.*`, `apoc.nodes.*`, `apoc.path.*`).

use super::*;

/// APOC's relationship-type filter: `TYPE`, `TYPE>` (outgoing), `<TYPE` (incoming), `>` or `<`
/// alone, several joined by `|`; empty for all.
pub(super) fn rel_filter(
    g: &crate::graph::Graph,
    spec: &str,
) -> Vec<(Option<crate::graph::Sym>, Dir, bool)> {
    if spec.is_empty() {
        return vec![(None, Dir::Both, true)];
    }
    spec.split('|')
        .map(|part| {
            let (dir, ty) = if let Some(t) = part.strip_suffix('>') {
                (Dir::Outgoing, t)
            } else if let Some(t) = part.strip_prefix('<') {
                (Dir::Incoming, t)
            } else {
                (Dir::Both, part)
            };
            if ty.is_empty() {
                (None, dir, true)
            } else {
                let sym = g.sym(ty);
                (sym, dir, sym.is_some())
            }
        })
        .collect()
}

family! {
    /// The functions of nodes, relationships and labels (`apoc.node.*`, `apoc.nodes.*`, `apoc.rel.*`, `apoc.label.*`, `apoc.any.*`).
    GraphFn {
        "apoc.any.isdeleted" => AnyIsDeleted,
        "apoc.any.properties" => AnyProperties,
        "apoc.any.property" => AnyProperty,
        "apoc.label.exists" => LabelExists,
        "apoc.node.degree" => NodeDegree,
        "apoc.node.degree.in" => NodeDegreeIn,
        "apoc.node.degree.out" => NodeDegreeOut,
        "apoc.node.id" => NodeId,
        "apoc.node.labels" => NodeLabels,
        "apoc.node.relationship.exists" => NodeRelationshipExists,
        "apoc.node.relationship.types" => NodeRelationshipTypes,
        "apoc.node.relationships.exist" => NodeRelationshipsExist,
        "apoc.nodes.connected" => NodesConnected,
        "apoc.nodes.isdense" => NodesIsDense,
        "apoc.nodes.relationship.types" => NodesRelationshipTypes,
        "apoc.nodes.relationships.exist" => NodesRelationshipsExist,
        "apoc.rel.endnode" => RelEndNode,
        "apoc.rel.id" => RelId,
        "apoc.rel.startnode" => RelStartNode,
        "apoc.rel.type" => RelType,
    }
}

pub(super) fn graph_fn(run: &Runner, n: &str, m: GraphFn, args: &[Value]) -> Result<Value> {
    let g = run.graph();
    let (a0, a1) = (arg(args, 0), arg(args, 1));
    let node = |v: &Value| -> Result<Option<crate::value::NodeId>> {
        match v {
            Value::Null => Ok(None),
            Value::Node(x) => Ok(Some(*x)),
            other => Err(wrong(n, other, "a node")),
        }
    };
    let rel = |v: &Value| -> Result<Option<crate::value::RelId>> {
        match v {
            Value::Null => Ok(None),
            Value::Relationship(x) => Ok(Some(*x)),
            other => Err(wrong(n, other, "a relationship")),
        }
    };
    let degree = |x: crate::value::NodeId, spec: &str, only: Dir| -> usize {
        rel_filter(g, spec)
            .into_iter()
            .filter(|(_, _, known)| *known)
            .map(|(ty, dir, _)| {
                let dir = match (only, dir) {
                    (Dir::Both, d) => d,
                    (o, Dir::Both) => o,
                    (o, d) if o == d => d,
                    _ => return 0,
                };
                let tys = ty.map(|t| vec![t]);
                g.degree(x, dir, tys.as_deref())
            })
            .sum()
    };
    let spec = match m {
        GraphFn::NodeDegree
        | GraphFn::NodeDegreeIn
        | GraphFn::NodeDegreeOut
        | GraphFn::NodeRelationshipExists
        | GraphFn::NodeRelationshipsExist
        | GraphFn::NodeRelationshipTypes => text(n, a1)?.unwrap_or("").to_string(),
        _ => String::new(),
    };
    Ok(match m {
        GraphFn::NodeDegree | GraphFn::NodeDegreeIn | GraphFn::NodeDegreeOut => {
            let Some(x) = node(a0)? else {
                return Ok(Value::Null);
            };
            let only = match m {
                GraphFn::NodeDegreeIn => Dir::Incoming,
                GraphFn::NodeDegreeOut => Dir::Outgoing,
                _ => Dir::Both,
            };
            Value::Int(degree(x, &spec, only) as i64)
        }
        GraphFn::NodeId => node(a0)?.map_or(Value::Null, |x| Value::Int(i64::from(x.0))),
        GraphFn::NodeLabels => node(a0)?.map_or(Value::Null, |x| {
            Value::List(g.labels(x).into_iter().map(Value::String).collect())
        }),
        GraphFn::NodeRelationshipExists => match node(a0)? {
            Some(x) => Value::Bool(degree(x, &spec, Dir::Both) > 0),
            None => Value::Null,
        },
        GraphFn::NodeRelationshipsExist => match node(a0)? {
            Some(x) => Value::Map(
                spec.split('|')
                    .filter(|p| !p.is_empty())
                    .map(|p| (key(p), Value::Bool(degree(x, p, Dir::Both) > 0)))
                    .collect(),
            ),
            None => Value::Null,
        },
        GraphFn::NodeRelationshipTypes => match node(a0)? {
            Some(x) => {
                let allowed = rel_filter(g, &spec);
                let mut types: Vec<Arc<str>> = Vec::new();
                for (r, _) in g.neighbours(x, Dir::Both) {
                    let Some(d) = g.relationship(r) else { continue };
                    let out = g.endpoints(r).is_some_and(|(s, _)| s == x);
                    let ok = allowed.iter().any(|(ty, dir, known)| {
                        *known
                            && ty.is_none_or(|t| t == d.ty)
                            && match dir {
                                Dir::Outgoing => out,
                                Dir::Incoming => {
                                    !out || g.endpoints(r).is_some_and(|(_, e)| e == x)
                                }
                                Dir::Both => true,
                            }
                    });
                    let name = g.sym_name(d.ty).clone();
                    if ok && !types.contains(&name) {
                        types.push(name);
                    }
                }
                Value::List(types.into_iter().map(Value::String).collect())
            }
            None => Value::Null,
        },
        GraphFn::NodesRelationshipTypes | GraphFn::NodesRelationshipsExist => {
            let Some(nodes) = nodes_arg(run, n, a0)? else {
                return Ok(Value::Null);
            };
            let types = text(n, a1)?.unwrap_or("");
            let patterns: Vec<(String, Dir, Option<crate::graph::Sym>)> = types
                .split('|')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let dir = if p.contains('<') {
                        Dir::Incoming
                    } else if p.contains('>') {
                        Dir::Outgoing
                    } else {
                        Dir::Both
                    };
                    let name = match (p.find('`'), p.rfind('`')) {
                        (Some(a), Some(b)) if b > a => p[a + 1..b].to_string(),
                        _ => p.replace(['<', '>', ':'], ""),
                    };
                    let sym = g.sym(&name);
                    (name, dir, sym)
                })
                .collect();
            let has = |x: crate::value::NodeId, ty: Option<crate::graph::Sym>, dir: Dir| -> bool {
                ty.is_some_and(|t| g.degree(x, dir, Some(&[t])) > 0)
            };
            let mut out = Vec::new();
            for x in nodes {
                run.sh.tick()?;
                if m == GraphFn::NodesRelationshipTypes {
                    let types: Vec<Value> = if patterns.is_empty() {
                        let mut seen: Vec<Arc<str>> = Vec::new();
                        for (r, _) in g.neighbours(x, Dir::Both) {
                            if let Some(t) = g.rel_type(r) {
                                if !seen.contains(&t) {
                                    seen.push(t);
                                }
                            }
                        }
                        seen.into_iter().map(Value::String).collect()
                    } else {
                        patterns
                            .iter()
                            .filter(|(_, dir, ty)| has(x, *ty, *dir))
                            .map(|(name, _, _)| Value::from(name.as_str()))
                            .collect()
                    };
                    out.push(Value::Map(BTreeMap::from([
                        (key("node"), Value::Node(x)),
                        (key("types"), Value::List(types)),
                    ])));
                } else {
                    if patterns.is_empty() {
                        continue;
                    }
                    let exists: BTreeMap<Arc<str>, Value> = patterns
                        .iter()
                        .map(|(name, dir, ty)| {
                            let k = match dir {
                                Dir::Outgoing => format!("{name}>"),
                                Dir::Incoming => format!("<{name}"),
                                Dir::Both => name.clone(),
                            };
                            (key(&k), Value::Bool(has(x, *ty, *dir)))
                        })
                        .collect();
                    out.push(Value::Map(BTreeMap::from([
                        (key("node"), Value::Node(x)),
                        (key("exists"), Value::Map(exists)),
                    ])));
                }
            }
            Value::List(out)
        }
        GraphFn::NodesConnected => {
            let (Some(a), Some(b)) = (node(a0)?, node(a1)?) else {
                return Ok(Value::Bool(false));
            };
            let types = text(n, arg(args, 2))?.unwrap_or("").to_string();
            let allowed = rel_filter(g, &types);
            Value::Bool(allowed.iter().any(|(ty, dir, known)| {
                *known && {
                    let tys = ty.map(|t| vec![t]);
                    let found = g
                        .neighbours_iter(a, *dir, tys.as_deref())
                        .any(|(_, m)| m == b);
                    found
                }
            }))
        }
        GraphFn::NodesIsDense => match node(a0)? {
            Some(x) => Value::Bool(g.degree(x, Dir::Both, None) >= 50),
            None => Value::Null,
        },
        GraphFn::RelId => rel(a0)?.map_or(Value::Null, |r| Value::Int(i64::from(r.0))),
        GraphFn::RelType => rel(a0)?
            .and_then(|r| run.rel_type(r))
            .map_or(Value::Null, Value::String),
        // (Virtual relationships too: `apoc.nodes.group`'s.)
        GraphFn::RelStartNode | GraphFn::RelEndNode => rel(a0)?
            .and_then(|r| run.rel_endpoints(r))
            .map_or(Value::Null, |(s, e)| {
                Value::Node(if m == GraphFn::RelStartNode { s } else { e })
            }),
        GraphFn::LabelExists => match a0 {
            Value::Node(x) => {
                Value::Bool(text(n, a1)?.is_some_and(|l| g.labels(*x).iter().any(|k| &**k == l)))
            }
            _ => Value::Bool(false),
        },
        GraphFn::AnyIsDeleted => match a0 {
            Value::Null => Value::Bool(true),
            Value::Node(_) | Value::Relationship(_) => Value::Bool(false),
            other => {
                return Err(failed(
                    n,
                    format!(
                    "java.lang.IllegalArgumentException: expected Node or Relationship but was {}",
                    java_simple_class(other)
                ),
                ))
            }
        },
        // Anything but a map or an entity has no properties: null.
        GraphFn::AnyProperty | GraphFn::AnyProperties
            if !matches!(a0, Value::Map(_) | Value::Node(_) | Value::Relationship(_)) =>
        {
            Value::Null
        }
        GraphFn::AnyProperty => match a0 {
            Value::Null => Value::Null,
            v => {
                let Some(k) = text(n, a1)? else {
                    return Ok(Value::Null);
                };
                run.java_property(v, k)?
            }
        },
        GraphFn::AnyProperties => match a0 {
            Value::Null => Value::Null,
            v => {
                let all = run.java_properties(v)?;
                match list(n, a1)? {
                    Some(ks) => Value::Map(
                        all.into_iter()
                            .filter(|(k, _)| ks.iter().any(|x| x.as_str() == Some(&**k)))
                            .collect(),
                    ),
                    None => Value::Map(all),
                }
            }
        },
    })
}

family! {
    /// The `apoc.path.*` functions.
    PathFn {
        "apoc.path.combine" => Combine,
        "apoc.path.create" => Create,
        "apoc.path.elements" => Elements,
        "apoc.path.slice" => Slice,
    }
}

pub(super) fn path_fn(run: &Runner, n: &str, f: PathFn, args: &[Value]) -> Result<Value> {
    use crate::value::Path;
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    let path = |v: &Value| -> Result<Option<Arc<Path>>> {
        match v {
            Value::Null => Ok(None),
            Value::Path(p) => Ok(Some(p.clone())),
            other => Err(wrong(n, other, "a path")),
        }
    };
    Ok(match f {
        PathFn::Create => {
            let Value::Node(start) = a0 else {
                return Ok(Value::Null);
            };
            let mut nodes = vec![*start];
            let mut rels = Vec::new();
            for r in list(n, a1)?.unwrap_or_default() {
                let Value::Relationship(r) = r else {
                    if r.is_null() {
                        continue;
                    }
                    return Err(wrong(n, r, "a list of relationships"));
                };
                let (s, e) = run
                    .rel_endpoints(*r)
                    .ok_or_else(|| failed(n, "a relationship was deleted"))?;
                let last = *nodes.last().unwrap_or(start);
                let next = if s == last {
                    e
                } else if e == last {
                    s
                } else {
                    return Err(failed(
                        n,
                        "java.lang.IllegalArgumentException: Relationship is not part of the path",
                    ));
                };
                rels.push(*r);
                nodes.push(next);
            }
            Value::Path(Arc::new(Path { nodes, rels }))
        }
        PathFn::Combine => match (path(a0)?, path(a1)?) {
            (Some(p), Some(q)) => {
                if p.nodes.last() != q.nodes.first() {
                    return Err(failed(
                        n,
                        "java.lang.IllegalArgumentException: Paths don't connect on their end and start-nodes",
                    ));
                }
                let mut nodes = p.nodes.clone();
                nodes.extend(q.nodes.iter().skip(1));
                let mut rels = p.rels.clone();
                rels.extend(q.rels.iter());
                Value::Path(Arc::new(Path { nodes, rels }))
            }
            (Some(p), None) | (None, Some(p)) => Value::Path(p),
            (None, None) => Value::Null,
        },
        PathFn::Elements => match path(a0)? {
            Some(p) => {
                let mut out = Vec::with_capacity(p.nodes.len() + p.rels.len());
                for (i, node) in p.nodes.iter().enumerate() {
                    if i > 0 {
                        out.push(Value::Relationship(p.rels[i - 1]));
                    }
                    out.push(Value::Node(*node));
                }
                Value::List(out)
            }
            None => Value::Null,
        },
        PathFn::Slice => match path(a0)? {
            Some(p) => {
                let offset = int(n, a1)?.unwrap_or(0).max(0) as usize;
                let len = match a2 {
                    Value::Null => -1,
                    v => int(n, v)?.unwrap_or(-1),
                };
                let from = offset.min(p.rels.len());
                let to = if len < 0 {
                    p.rels.len()
                } else {
                    (from + len as usize).min(p.rels.len())
                };
                Value::Path(Arc::new(Path {
                    nodes: p.nodes[from..=to].to_vec(),
                    rels: p.rels[from..to].to_vec(),
                }))
            }
            None => Value::Null,
        },
    })
}

/// APOC's node arguments: a node, its id, its element id, or a list of these (null: none).
fn nodes_arg(run: &Runner, n: &str, v: &Value) -> Result<Option<Vec<crate::value::NodeId>>> {
    let one = |x: &Value| -> Result<crate::value::NodeId> {
        let id =
            match x {
                Value::Node(id) => Some(*id),
                Value::Int(i) => u32::try_from(*i).ok().map(crate::value::NodeId),
                Value::String(s) => crate::value::node_of_element_id(s, run.database()),
                // APOC's `Util.nodeStream` names the Java class it cannot convert.
                Value::Map(_) => return Err(failed(
                    n,
                    "java.lang.RuntimeException: Can't convert class java.util.HashMap to a Node",
                )),
                other => return Err(wrong(n, other, "a node, a node id or a list of them")),
            };
        id.filter(|id| run.graph().contains_node(*id))
            .ok_or_else(|| failed(n, format!("Node not found: {x}")))
    };
    Ok(match v {
        Value::Null => None,
        Value::List(xs) => Some(xs.iter().map(one).collect::<Result<_>>()?),
        other => Some(vec![one(other)?]),
    })
}

/// The simple name of the Java class Neo4j hands APOC for a value (`String`, `Long`,
/// `ArrayList`, `ZonedDateTime`, …), as APOC's messages name it.
pub(super) fn java_simple_class(v: &Value) -> &'static str {
    use crate::temporal::Temporal;
    match v {
        Value::Null => "null",
        Value::Bool(_) => "Boolean",
        Value::Int(_) => "Long",
        Value::Float(_) => "Double",
        Value::String(_) => "String",
        Value::Bytes(_) => "byte[]",
        Value::List(_) => "ArrayList",
        Value::Map(_) => "HashMap",
        Value::Node(_) => "NodeEntity",
        Value::Relationship(_) => "RelationshipEntity",
        Value::Path(_) => "PathImpl",
        Value::Point(_) => "PointValue",
        Value::Temporal(t) => match &**t {
            Temporal::Date(_) => "LocalDate",
            Temporal::LocalTime(_) => "LocalTime",
            Temporal::Time(..) => "OffsetTime",
            Temporal::LocalDateTime(_) => "LocalDateTime",
            Temporal::DateTime(..) => "ZonedDateTime",
            Temporal::Duration(_) => "DurationValue",
        },
    }
}
