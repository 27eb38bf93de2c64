//! The updating clauses: CREATE, MERGE, SET, REMOVE and DELETE, through the graph's journal.

use super::*;
use crate::engine::Detail;
use crate::syntax::DynamicLabels;

pub(super) fn exec_create(
    g: &mut Graph,
    sh: &Shared,
    parts: &[PatternPart],
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let old_len = scope.len();
    let mut new_scope = scope.clone();
    declare_pattern_vars(parts, &mut new_scope);
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let mut row = r.clone();
        row.resize(new_scope.len(), Value::Null);
        let mut bound: Vec<bool> = (0..new_scope.len()).map(|i| i < old_len).collect();
        for p in parts {
            create_part(g, sh, p, &new_scope, &mut row, &mut bound)?;
        }
        out.push(row);
    }
    *scope = new_scope;
    Ok(out)
}

pub(super) fn eval_props(
    g: &Graph,
    sh: &Shared,
    props: Option<&Expr>,
    scope: &[Arc<str>],
    row: &[Value],
) -> Result<Vec<(Arc<str>, Value)>> {
    let Some(p) = props else { return Ok(vec![]) };
    let run = Runner::new(g, sh);
    match run.eval(p, &Env::new(scope, row))? {
        Value::Map(m) => m.into_iter().map(|(k, v)| Ok((k, storable(v)?))).collect(),
        Value::Null => Ok(vec![]),
        other => Err(ExecError::type_error(format!(
            "properties must be a map, got {}",
            crate::value::type_name(&other)
        ))),
    }
}

/// The labels `CREATE`, `MERGE`, `SET` or `REMOVE` writes: names, and the names `$(expr)`
/// computes for this row (each once, in order).
pub(super) fn labels_to_write(
    g: &Graph,
    sh: &Shared,
    l: Option<&LabelExpr>,
    scope: &[Arc<str>],
    row: &[Value],
) -> Result<Vec<String>> {
    fn go(run: &Runner, env: &Env, l: &LabelExpr, out: &mut Vec<String>) -> Result<()> {
        match l {
            LabelExpr::Name(i) => {
                out.push(i.name.clone());
                Ok(())
            }
            LabelExpr::And(xs, _) => xs.iter().try_for_each(|x| go(run, env, x, out)),
            LabelExpr::Dynamic { expr, mode, .. } if *mode != DynamicLabels::Any => {
                out.extend(run.dynamic_names(expr, env)?);
                Ok(())
            }
            LabelExpr::Dynamic { .. } => Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "Dynamic labels using `$any()` are not allowed in CREATE or MERGE.",
            )),
            _ => Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "labels in CREATE and MERGE must be plain names (no |, !, %)",
            )),
        }
    }
    let mut out = Vec::new();
    if let Some(l) = l {
        let run = Runner::new(g, sh);
        go(&run, &Env::new(scope, row), l, &mut out)?;
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|l| seen.insert(l.clone()));
    Ok(out)
}

/// The one type a relationship `CREATE` or `MERGE` makes: a name, or `$(expr)` computing one.
fn type_to_create(
    g: &Graph,
    sh: &Shared,
    t: Option<&LabelExpr>,
    scope: &[Arc<str>],
    row: &[Value],
) -> Result<String> {
    let single = || {
        ExecError::compile(
            ErrorKind::SyntaxError,
            "A single relationship type must be specified for CREATE",
        )
        .with_detail(Detail::NoSingleRelationshipType)
    };
    match t {
        Some(LabelExpr::Name(t)) => Ok(t.name.clone()),
        Some(LabelExpr::Dynamic { mode, .. }) if *mode == DynamicLabels::Any => {
            Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "Dynamic types using `$any()` are not allowed in CREATE or MERGE.",
            ))
        }
        Some(LabelExpr::Dynamic { expr, .. }) => {
            let mut names = Runner::new(g, sh).dynamic_names(expr, &Env::new(scope, row))?;
            names.dedup();
            match names.as_slice() {
                [one] => Ok(one.clone()),
                _ => Err(ExecError::runtime(
                    ErrorKind::SyntaxError,
                    "A single relationship type must be specified for CREATE",
                )
                .with_detail(Detail::NoSingleRelationshipType)),
            }
        }
        _ => Err(single()),
    }
}

pub(super) fn create_part(
    g: &mut Graph,
    sh: &Shared,
    p: &PatternPart,
    scope: &[Arc<str>],
    row: &mut [Value],
    bound: &mut [bool],
) -> Result<()> {
    let chain = match &p.path {
        PathExpr::Chain(c) => c,
        _ => {
            return Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "shortestPath cannot be used in CREATE",
            ))
        }
    };
    let slot = |v: &Option<Ident>| {
        v.as_ref()
            .and_then(|v| scope.iter().position(|s| **s == *v.name))
    };
    let mut node_ids: Vec<NodeId> = Vec::new();
    let mut rel_ids: Vec<RelId> = Vec::new();
    let mut pending_rel: Option<&RelationshipPattern> = None;
    for el in &chain.elements {
        match el {
            PathElement::Node(n) => {
                let s = slot(&n.variable);
                let id = match s.filter(|&s| bound[s]) {
                    Some(s) => {
                        if n.labels.is_some() || n.properties.is_some() {
                            return Err(ExecError::compile(
                                ErrorKind::SyntaxError,
                                format!(
                                    "variable `{}` already declared: CREATE cannot add labels or properties to it",
                                    n.variable.as_ref().map(|v| v.name.as_str()).unwrap_or("")
                                ),
                            )
                            .with_detail(Detail::VariableAlreadyBound));
                        }
                        match &row[s] {
                            Value::Node(id) => *id,
                            other => {
                                return Err(ExecError::type_error(format!(
                                    "expected a node, got {}",
                                    crate::value::type_name(other)
                                )))
                            }
                        }
                    }
                    None => {
                        let labels = labels_to_write(g, sh, n.labels.as_ref(), scope, row)?;
                        let props = eval_props(g, sh, n.properties.as_ref(), scope, row)?;
                        let label_refs: Vec<&str> = labels.iter().map(|s| s.as_str()).collect();
                        let nprops = props.iter().filter(|(_, v)| !v.is_null()).count();
                        let id = g.add_node(
                            &label_refs,
                            props.iter().map(|(k, v)| (&**k, v.clone())).collect(),
                        );
                        let mut st = sh.stats.borrow_mut();
                        st.nodes_created += 1;
                        st.labels_added += labels.len() as u64;
                        st.properties_set += nprops as u64;
                        if let Some(s) = s {
                            row[s] = Value::Node(id);
                            bound[s] = true;
                        }
                        id
                    }
                };
                if let Some(r) = pending_rel.take() {
                    let prev = *node_ids
                        .last()
                        .ok_or_else(|| ExecError::unsupported("this CREATE pattern"))?;
                    let ty = type_to_create(g, sh, r.types.as_ref(), scope, row)?;
                    if r.length.is_some() {
                        return Err(ExecError::compile(
                            ErrorKind::SyntaxError,
                            "variable-length relationships cannot be created",
                        )
                        .with_detail(Detail::CreatingVarLength));
                    }
                    let (a, b) = match r.direction {
                        Direction::Right => (prev, id),
                        Direction::Left => (id, prev),
                        Direction::Undirected => {
                            return Err(ExecError::compile(
                                ErrorKind::SyntaxError,
                                "only directed relationships can be created",
                            )
                            .with_detail(Detail::RequiresDirectedRelationship))
                        }
                    };
                    let props = eval_props(g, sh, r.properties.as_ref(), scope, row)?;
                    let nprops = props.iter().filter(|(_, v)| !v.is_null()).count();
                    let rid = g
                        .add_relationship(
                            a,
                            b,
                            &ty,
                            props.iter().map(|(k, v)| (&**k, v.clone())).collect(),
                        )
                        .ok_or_else(|| {
                            ExecError::runtime(
                                ErrorKind::EntityNotFound,
                                "relationship endpoint was deleted",
                            )
                        })?;
                    {
                        let mut st = sh.stats.borrow_mut();
                        st.relationships_created += 1;
                        st.properties_set += nprops as u64;
                    }
                    if let Some(s) = slot(&r.variable) {
                        if bound[s] {
                            return Err(ExecError::compile(
                                ErrorKind::SyntaxError,
                                "relationship variable already declared",
                            )
                            .with_detail(Detail::VariableAlreadyBound));
                        }
                        row[s] = Value::Relationship(rid);
                        bound[s] = true;
                    }
                    rel_ids.push(rid);
                }
                node_ids.push(id);
            }
            PathElement::Relationship(r) => pending_rel = Some(r),
            PathElement::Group(_) => {
                return Err(ExecError::unsupported("quantified patterns in CREATE"))
            }
        }
    }
    if let Some(s) = slot(&p.variable) {
        row[s] = path_value(node_ids, rel_ids);
        bound[s] = true;
    }
    Ok(())
}

pub(super) fn exec_merge(
    g: &mut Graph,
    sh: &Shared,
    m: &crate::syntax::Merge,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let old_scope = scope.clone();
    let mut new_scope = scope.clone();
    declare_pattern_vars(std::slice::from_ref(&m.pattern), &mut new_scope);
    // What MERGE creates when nothing matches: an undirected relationship goes left to right,
    // as in Neo4j.
    let mut to_create = m.pattern.clone();
    if let PathExpr::Chain(c) = &mut to_create.path {
        for el in c.elements.iter_mut() {
            if let PathElement::Relationship(r) = el {
                if r.direction == Direction::Undirected {
                    r.direction = Direction::Right;
                }
            }
        }
    }
    let mut out = Vec::new();
    for r in rows {
        // Try to match first.
        let matched = {
            let run = Runner::new(g, sh);
            let mut s = old_scope.clone();
            let mm = Match {
                optional: false,
                mode: None,
                pattern: vec![m.pattern.clone()],
                hints: vec![],
                where_: None,
                search: None,
                where_after_search: false,
                span: m.span,
            };
            run.exec_match(&mm, &mut s, vec![r.clone()])?
        };
        if matched.is_empty() {
            merge_null_properties(g, sh, &m.pattern, &old_scope, &r)?;
            let mut s = old_scope.clone();
            let created = exec_create(g, sh, std::slice::from_ref(&to_create), &mut s, vec![r])?;
            for row in created {
                for a in m.actions.iter().filter(|a| a.on_create) {
                    apply_set_items(g, sh, &a.items, &new_scope, &row)?;
                }
                out.push(row);
            }
        } else {
            for row in matched {
                for a in m.actions.iter().filter(|a| !a.on_create) {
                    apply_set_items(g, sh, &a.items, &new_scope, &row)?;
                }
                out.push(row);
            }
        }
    }
    *scope = new_scope;
    Ok(out)
}

/// MERGE cannot create an element with a null in its property map (Neo4j: `Cannot merge the
/// following node because of null property value for 'num': ( {num: null})`).
fn merge_null_properties(
    g: &Graph,
    sh: &Shared,
    p: &PatternPart,
    scope: &[Arc<str>],
    row: &[Value],
) -> Result<()> {
    let PathExpr::Chain(c) = &p.path else {
        return Ok(());
    };
    for el in &c.elements {
        let (what, var, props) = match el {
            PathElement::Node(n) => ("node", &n.variable, &n.properties),
            PathElement::Relationship(r) => ("relationship", &r.variable, &r.properties),
            PathElement::Group(_) => continue,
        };
        let Some(map) = props else { continue };
        let run = Runner::new(g, sh);
        let v = run.eval(map, &Env::new(scope, row))?;
        let Value::Map(m) = v else { continue };
        if let Some((k, _)) = m.iter().find(|(_, v)| v.is_null()) {
            let shown: Vec<String> = m.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            let name = var.as_ref().map(|v| v.name.as_str()).unwrap_or("");
            let text = if what == "node" {
                format!("({name} {{{}}})", shown.join(", "))
            } else {
                format!("[{name} {{{}}}]", shown.join(", "))
            };
            return Err(ExecError::runtime(
                ErrorKind::SemanticError,
                format!(
                    "Cannot merge the following {what} because of null property value for '{k}': {text}"
                ),
            )
            .with_detail(Detail::MergeReadOwnWrites));
        }
    }
    Ok(())
}

pub(super) fn apply_set_items(
    g: &mut Graph,
    sh: &Shared,
    items: &[SetItem],
    scope: &[Arc<str>],
    row: &[Value],
) -> Result<()> {
    for it in items {
        match it {
            SetItem::Property { target, value, .. } => {
                let (base, key, v) = {
                    let run = Runner::new(g, sh);
                    let env = Env::new(scope, row);
                    let (base_e, key) = match &target.kind {
                        ExprKind::Property { expr, key } => {
                            (expr.as_ref(), Value::from(key.name.as_str()))
                        }
                        ExprKind::Index { expr, index } => (expr.as_ref(), run.eval(index, &env)?),
                        _ => return Err(ExecError::unsupported("this SET target")),
                    };
                    (run.eval(base_e, &env)?, key, run.eval(value, &env)?)
                };
                let Value::String(key) = key else {
                    return Err(ExecError::type_error("property key must be a string"));
                };
                set_property(g, sh, &base, &key, v)?;
            }
            SetItem::Variable {
                variable,
                value,
                merge,
                ..
            } => {
                let (base, v) = {
                    let run = Runner::new(g, sh);
                    let env = Env::new(scope, row);
                    let base = env.lookup(&variable.name).cloned().unwrap_or(Value::Null);
                    (base.clone(), run.eval(value, &env)?)
                };
                let map = match v {
                    Value::Map(m) => m,
                    Value::Node(n) => g.node_properties(n),
                    Value::Relationship(r) => g.relationship_properties(r),
                    Value::Null => BTreeMap::new(),
                    other => {
                        return Err(ExecError::type_error(format!(
                            "SET = expects a map, got {}",
                            crate::value::type_name(&other)
                        )))
                    }
                };
                if base.is_null() {
                    continue;
                }
                if !*merge {
                    let existing: Vec<Arc<str>> = match &base {
                        Value::Node(n) => g.node_properties(*n).keys().cloned().collect(),
                        Value::Relationship(r) => {
                            g.relationship_properties(*r).keys().cloned().collect()
                        }
                        _ => vec![],
                    };
                    for k in existing {
                        if !map.contains_key(&k) {
                            set_property(g, sh, &base, &k, Value::Null)?;
                        }
                    }
                }
                for (k, v) in map {
                    set_property(g, sh, &base, &k, v)?;
                }
            }
            SetItem::Labels {
                variable, labels, ..
            } => {
                let base = Env::new(scope, row)
                    .lookup(&variable.name)
                    .cloned()
                    .unwrap_or(Value::Null);
                match base {
                    Value::Node(n) => {
                        for l in labels_to_write(g, sh, Some(labels), scope, row)? {
                            if g.add_label(n, &l) {
                                sh.stats.borrow_mut().labels_added += 1;
                            }
                        }
                    }
                    Value::Null => {}
                    other => {
                        return Err(ExecError::type_error(format!(
                            "cannot set labels on {}",
                            crate::value::type_name(&other)
                        )))
                    }
                }
            }
        }
    }
    Ok(())
}

/// A value as Neo4j stores it in a property, or Neo4j's refusal: maps, nodes, relationships
/// and paths are not properties; a list must hold values of one storable type (no nulls, no
/// lists, points of one CRS), integers and floats together becoming floats.
pub(crate) fn storable(v: Value) -> Result<Value> {
    fn kind(v: &Value) -> &'static str {
        match v {
            Value::Int(_) | Value::Float(_) => "NUMBER",
            other => crate::value::type_name(other),
        }
    }
    let items = match v {
        Value::Map(_) | Value::Node(_) | Value::Relationship(_) | Value::Path(_) => {
            return Err(ExecError::not_a_property(&v, false))
        }
        Value::List(items) => items,
        other => return Ok(other),
    };
    let type_error =
        |why: &str| ExecError::type_error(why.to_string()).with_detail(Detail::InvalidPropertyType);
    let mut first: Option<&Value> = None;
    let mut floats = false;
    for x in items.iter() {
        match x {
            Value::Null => {
                return Err(type_error(
                    "Collections containing null values can not be stored in properties.",
                ))
            }
            Value::List(_) => {
                return Err(type_error(
                    "Collections containing collections can not be stored in properties.",
                ))
            }
            Value::Map(_) | Value::Node(_) | Value::Relationship(_) | Value::Path(_) => {
                // The element, not the property, has the wrong type: no `NOT NULL`.
                return Err(ExecError::not_a_property(x, true));
            }
            _ => {}
        }
        floats |= matches!(x, Value::Float(_));
        let Some(f) = first else {
            first = Some(x);
            continue;
        };
        if kind(f) != kind(x) {
            return Err(type_error(
                "Neo4j only supports a subset of Cypher types for storage as singleton or array properties. Please refer to section cypher/syntax/values of the manual for more details.",
            ));
        }
        if let (Value::Point(a), Value::Point(b)) = (f, x) {
            if a.crs != b.crs {
                return Err(type_error(
                    "Collections containing point values with different CRS can not be stored in properties.",
                ));
            }
        }
    }
    if floats && items.iter().any(|x| matches!(x, Value::Int(_))) {
        return Ok(Value::List(
            items
                .iter()
                .map(|x| match x {
                    Value::Int(i) => Value::Float(*i as f64),
                    other => other.clone(),
                })
                .collect(),
        ));
    }
    Ok(Value::List(items))
}

/// A value as Neo4j's value classes print themselves in its errors: `Long(1)`,
/// `Double(2.500000e+00)`, `String("x")`, `NO_VALUE`, `List{…}`, `Map{k -> v, …}` (keys in
/// order), a node `(id)`, a relationship `-[id]-`.
pub(crate) fn neo4j_value_text(v: &Value) -> String {
    match v {
        Value::Null => "NO_VALUE".into(),
        Value::List(xs) => format!(
            "List{{{}}}",
            xs.iter()
                .map(neo4j_value_text)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Map(m) => format!(
            "Map{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k} -> {}", neo4j_value_text(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Node(n) => format!("({})", n.0),
        Value::Relationship(r) => format!("-[{}]-", r.0),
        other => crate::engine::apoc::java_value_text(other),
    }
}

pub(crate) fn set_property(
    g: &mut Graph,
    sh: &Shared,
    base: &Value,
    key: &str,
    v: Value,
) -> Result<()> {
    let v = storable(v)?;
    let is_virtual = match base {
        Value::Node(n) => super::Virtuals::is_virtual(n.0),
        Value::Relationship(r) => super::Virtuals::is_virtual(r.0),
        _ => false,
    };
    if is_virtual {
        return Err(ExecError::runtime(
            ErrorKind::EntityNotFound,
            format!(
                "{base} is virtual (apoc.create.vNode, apoc.meta.graph, …): it is not in the graph and cannot be written"
            ),
        ));
    }
    let changed = match base {
        Value::Node(n) => {
            let had = g.sym(key).and_then(|k| g.node_property(*n, k)).is_some();
            let null = v.is_null();
            g.set_node_property(*n, key, v);
            !null || had
        }
        Value::Relationship(r) => {
            let had = g
                .sym(key)
                .and_then(|k| g.relationship_property(*r, k))
                .is_some();
            let null = v.is_null();
            g.set_relationship_property(*r, key, v);
            !null || had
        }
        Value::Null => false,
        other => {
            return Err(ExecError::type_error(format!(
                "cannot set a property on {}",
                crate::value::type_name(other)
            )))
        }
    };
    if changed {
        sh.stats.borrow_mut().properties_set += 1;
    }
    Ok(())
}

pub(super) fn apply_remove(
    g: &mut Graph,
    sh: &Shared,
    it: &RemoveItem,
    scope: &[Arc<str>],
    row: &[Value],
) -> Result<()> {
    match it {
        RemoveItem::Property { target, .. } => {
            let (base, key) = {
                let run = Runner::new(g, sh);
                let env = Env::new(scope, row);
                match &target.kind {
                    ExprKind::Property { expr, key } => (run.eval(expr, &env)?, key.name.clone()),
                    _ => return Err(ExecError::unsupported("this REMOVE target")),
                }
            };
            set_property(g, sh, &base, &key, Value::Null)
        }
        RemoveItem::Labels {
            variable, labels, ..
        } => {
            let base = Env::new(scope, row)
                .lookup(&variable.name)
                .cloned()
                .unwrap_or(Value::Null);
            if let Value::Node(n) = base {
                for l in labels_to_write(g, sh, Some(labels), scope, row)? {
                    if g.remove_label(n, &l) {
                        sh.stats.borrow_mut().labels_removed += 1;
                    }
                }
            }
            Ok(())
        }
    }
}

pub(super) fn exec_delete(
    g: &mut Graph,
    sh: &Shared,
    d: &crate::syntax::Delete,
    scope: &[Arc<str>],
    rows: &[Row],
) -> Result<()> {
    let mut nodes = Vec::new();
    let mut rels = Vec::new();
    {
        let run = Runner::new(g, sh);
        for r in rows {
            for e in &d.exprs {
                let v = run.eval(e, &Env::new(scope, r))?;
                collect_deletable(v, &mut nodes, &mut rels)?;
            }
        }
    }
    let forget_rel = |g: &Graph, r: RelId| {
        if let Some(t) = g.rel_type(r) {
            sh.deleted.borrow_mut().rels.insert(r, t);
        }
    };
    for r in rels {
        forget_rel(g, r);
        if g.remove_relationship(r) {
            sh.stats.borrow_mut().relationships_deleted += 1;
        }
    }
    nodes.sort();
    nodes.dedup();
    for n in &nodes {
        if !g.contains_node(*n) {
            continue;
        }
        let attached = g.neighbours(*n, Dir::Both);
        if !attached.is_empty() {
            if !d.detach {
                let message = if g.created_in_transaction(*n) {
                    "Cannot delete node that was created in this transaction, because it still has relationships.".to_string()
                } else {
                    format!("Cannot delete node<{}>, because it still has relationships. To delete this node, you must first delete its relationships.", n.0)
                };
                return Err(
                    ExecError::runtime(ErrorKind::ConstraintVerificationFailed, message)
                        .with_detail(Detail::DeleteConnectedNode),
                );
            }
            for (r, _) in attached {
                forget_rel(g, r);
                if g.remove_relationship(r) {
                    sh.stats.borrow_mut().relationships_deleted += 1;
                }
            }
        }
    }
    for n in nodes {
        if g.remove_node(n) {
            sh.deleted.borrow_mut().nodes.insert(n);
            sh.stats.borrow_mut().nodes_deleted += 1;
        }
    }
    Ok(())
}

pub(super) fn collect_deletable(
    v: Value,
    nodes: &mut Vec<NodeId>,
    rels: &mut Vec<RelId>,
) -> Result<()> {
    match v {
        Value::Null => Ok(()),
        Value::Node(n) => {
            nodes.push(n);
            Ok(())
        }
        Value::Relationship(r) => {
            rels.push(r);
            Ok(())
        }
        Value::Path(p) => {
            nodes.extend(p.nodes.iter().copied());
            rels.extend(p.rels.iter().copied());
            Ok(())
        }
        Value::List(items) => items
            .into_iter()
            .try_for_each(|x| collect_deletable(x, nodes, rels)),
        other => Err(ExecError::type_error(format!(
            "DELETE expects a node, relationship or path, got {}",
            crate::value::type_name(&other)
        ))
        .with_detail(Detail::InvalidDelete)),
    }
}
