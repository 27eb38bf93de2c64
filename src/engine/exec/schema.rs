//! Schema commands (`CREATE`/`DROP` `INDEX`/`CONSTRAINT`), the rows of `SHOW INDEXES` and
//! `SHOW CONSTRAINTS`, and the check of constraints on what a statement wrote.
//!
//! Neo4j checks uniqueness when a value is written and existence and property types when the
//! transaction commits; grape checks all three when a statement ends (an auto-commit
//! statement's commit). The difference shows only inside an explicit transaction, where Neo4j
//! lets one statement create a node that a later statement completes.

use super::*;
use crate::engine::Detail;
use crate::graph::schema::{ConstraintDef, ConstraintRule, EntityType, IndexDef, Schema};
use crate::syntax::{
    ConstraintKind, CreateConstraint, CreateIndex, DropSchema, IndexKind, Parameter, SchemaCommand,
    SchemaEntity, SchemaName, ShowConstraints,
};
use crate::value::GroupKey;

fn schema_error(detail: Detail, message: String) -> ExecError {
    ExecError::runtime(ErrorKind::SchemaError, message).with_detail(detail)
}

/// Runs a schema command; it returns no rows.
pub(super) fn exec_schema(g: &mut Graph, sh: &Shared, c: &SchemaCommand) -> Result<Vec<Row>> {
    match c {
        SchemaCommand::CreateIndex(i) => create_index(g, sh, i),
        SchemaCommand::CreateConstraint(k) => create_constraint(g, sh, k),
        SchemaCommand::DropIndex(d) => drop_index(g, sh, d),
        SchemaCommand::DropConstraint(d) => drop_constraint(g, sh, d),
    }?;
    Ok(Vec::new())
}

/// The name as written, or the value of its parameter (a string).
fn resolve_name(sh: &Shared, n: &SchemaName) -> Result<Arc<str>> {
    match n {
        SchemaName::Name(i) => Ok(Arc::from(i.name.as_str())),
        SchemaName::Parameter(p, span) => {
            let key = match p {
                Parameter::Named(s) => s.clone(),
                Parameter::Positional(i) => i.to_string(),
            };
            match sh.params.get(&key) {
                Some(Value::String(s)) => Ok(s.clone()),
                Some(v) => Err(ExecError::type_error(format!(
                    "Expected parameter ${key} to be a STRING, but was {}",
                    crate::value::type_name(v)
                ))
                .at(*span)),
                None => Err(ExecError::compile(
                    ErrorKind::ParameterMissing,
                    format!("Expected parameter(s): {key}"),
                )
                .at(*span)),
            }
        }
    }
}

/// Neo4j's text for a schema: `(:Person {name, age})`, `()-[:KNOWS {since}]-()`.
fn schema_text(entity: EntityType, tokens: &[Arc<str>], props: &[Arc<str>]) -> String {
    let sep = match entity {
        EntityType::Node => ":",
        EntityType::Relationship => "|",
    };
    let tokens = if tokens.is_empty() {
        match entity {
            EntityType::Node => "<any-labels>".to_string(),
            EntityType::Relationship => "<any-types>".to_string(),
        }
    } else {
        tokens.join(sep)
    };
    let props = if props.is_empty() {
        String::new()
    } else {
        format!(" {{{}}}", props.join(", "))
    };
    match entity {
        EntityType::Node => format!("(:{tokens}{props})"),
        EntityType::Relationship => format!("()-[:{tokens}{props}]-()"),
    }
}

pub(crate) fn index_text(i: &IndexDef, schema: &Schema) -> String {
    let owner = i
        .owning_constraint
        .as_ref()
        .and_then(|c| schema.constraint(c))
        .map(|c| format!(", owningConstraint={}", c.id))
        .unwrap_or_default();
    format!(
        "Index( id={}, name='{}', type='{}', schema={}, indexProvider='{}'{owner} )",
        i.id,
        i.name,
        i.kind.name(),
        schema_text(i.entity, &i.labels_or_types, &i.properties),
        i.provider()
    )
}

pub(crate) fn constraint_text(c: &ConstraintDef, schema: &Schema) -> String {
    let owned = c
        .owned_index
        .as_ref()
        .and_then(|n| schema.index(n))
        .map(|i| format!(", ownedIndex={}", i.id))
        .unwrap_or_default();
    let typed = match &c.rule {
        ConstraintRule::Typed(t) => format!(", propertyType={}", crate::syntax::print_type(t)),
        _ => String::new(),
    };
    format!(
        "Constraint( id={}, name='{}', type='{}', schema={}{owned}{typed} )",
        c.id,
        c.name,
        c.type_name(false).replace('_', " "),
        schema_text(c.entity, std::slice::from_ref(&c.label), &c.properties)
    )
}

/// `OPTIONS {indexProvider: …, indexConfig: {…}}` evaluated: the configuration given.
fn eval_options(
    g: &Graph,
    sh: &Shared,
    options: &Option<Expr>,
    kind: IndexKind,
) -> Result<BTreeMap<Arc<str>, Value>> {
    let Some(o) = options else {
        return crate::graph::schema::index_config(kind, BTreeMap::new())
            .map_err(|m| ExecError::runtime(ErrorKind::ArgumentError, m));
    };
    let run = Runner::new(g, sh);
    let v = run.eval(o, &Env::new(&[], &[]))?;
    let map = match v {
        Value::Map(m) => m,
        Value::Null => {
            return crate::graph::schema::index_config(kind, BTreeMap::new())
                .map_err(|m| ExecError::runtime(ErrorKind::ArgumentError, m))
        }
        other => {
            return Err(ExecError::type_error(format!(
                "Could not create index with specified options: expected a map, got {}",
                crate::value::type_name(&other)
            ))
            .at(o.span))
        }
    };
    let mut config = BTreeMap::new();
    for (k, v) in map {
        match &*k {
            "indexProvider" => {
                let want = IndexDef {
                    id: 0,
                    name: Arc::from(""),
                    kind,
                    entity: EntityType::Node,
                    labels_or_types: Vec::new(),
                    properties: Vec::new(),
                    config: BTreeMap::new(),
                    owning_constraint: None,
                }
                .provider();
                let ok = v.as_str().is_some_and(|s| {
                    s.eq_ignore_ascii_case(want)
                        || (kind == IndexKind::Text && s.eq_ignore_ascii_case("text-1.0"))
                        || (kind == IndexKind::Vector && s.eq_ignore_ascii_case("vector-1.0"))
                });
                if !ok {
                    return Err(ExecError::runtime(
                        ErrorKind::ArgumentError,
                        format!(
                            "Could not create {} index with specified index provider '{v}'.",
                            kind.name().to_ascii_lowercase()
                        ),
                    )
                    .at(o.span));
                }
            }
            "indexConfig" => match v {
                Value::Map(m) => config = m,
                Value::Null => {}
                other => {
                    return Err(ExecError::runtime(
                        ErrorKind::ArgumentError,
                        format!(
                            "Could not create index with specified index config '{other}'. Expected a map from String to Strings, Numbers, Booleans and Lists of Numbers."
                        ),
                    )
                    .at(o.span))
                }
            },
            other => {
                return Err(ExecError::runtime(
                    ErrorKind::ArgumentError,
                    format!(
                        "Failed to create index: Invalid option provided, valid options are `indexProvider` and `indexConfig`. Got `{other}`."
                    ),
                )
                .at(o.span))
            }
        }
    }
    crate::graph::schema::index_config(kind, config)
        .map_err(|m| ExecError::runtime(ErrorKind::ArgumentError, m).at(o.span))
}

fn entity_of(e: &SchemaEntity) -> EntityType {
    if e.relationship {
        EntityType::Relationship
    } else {
        EntityType::Node
    }
}

fn names(ids: &[crate::syntax::Ident]) -> Vec<Arc<str>> {
    ids.iter().map(|i| Arc::from(i.name.as_str())).collect()
}

fn create_index(g: &mut Graph, sh: &Shared, i: &CreateIndex) -> Result<()> {
    let entity = entity_of(&i.entity);
    // A filtered vector index's additional properties follow the vector's (as Neo4j lists
    // them in SHOW INDEXES).
    let properties: Vec<Arc<str>> = i
        .properties
        .iter()
        .chain(&i.with_properties)
        .map(|p| Arc::from(p.key.name.as_str()))
        .collect();
    let config = eval_options(g, sh, &i.options, i.kind)?;
    let mut def = IndexDef {
        id: 0,
        name: Arc::from(""),
        kind: i.kind,
        entity,
        labels_or_types: names(&i.entity.labels),
        properties,
        config,
        owning_constraint: None,
    };
    def.name = match &i.name {
        Some(n) => resolve_name(sh, n)?,
        None => crate::graph::schema::default_index_name(&def),
    };
    let schema = g.schema();
    let same_name = schema.index(&def.name);
    let same_schema = schema.indexes().iter().find(|x| {
        x.same_schema(&def)
            || (def.kind == IndexKind::Lookup
                && x.kind == IndexKind::Lookup
                && x.entity == def.entity)
    });
    if let Some(x) = same_schema {
        if x.name == def.name || i.if_not_exists {
            if i.if_not_exists {
                return Ok(());
            }
            return Err(schema_error(
                Detail::EquivalentSchemaRuleAlreadyExists,
                format!(
                    "An equivalent index already exists, '{}'.",
                    index_text(x, schema)
                ),
            ));
        }
        if x.owning_constraint.is_some() {
            // Neo4j says "uniqueness" for key constraints too.
            return Err(schema_error(Detail::ConstraintAlreadyExists,
                format!(
                    "There is a uniqueness constraint on {}, so an index is already created that matches this.",
                    schema_text(x.entity, &x.labels_or_types, &x.properties)
                ),
            ));
        }
        return Err(schema_error(
            Detail::IndexAlreadyExists,
            format!(
                "There already exists an index {}.",
                schema_text(x.entity, &x.labels_or_types, &x.properties)
            ),
        ));
    }
    if same_name.is_some() && i.if_not_exists {
        return Ok(());
    }
    if same_name.is_some() {
        return Err(schema_error(
            Detail::IndexWithNameAlreadyExists,
            format!("There already exists an index called '{}'.", def.name),
        ));
    }
    // A constraint's name is taken even under IF NOT EXISTS.
    if schema.constraint(&def.name).is_some() {
        return Err(schema_error(
            Detail::ConstraintWithNameAlreadyExists,
            format!("There already exists a constraint called '{}'.", def.name),
        ));
    }
    g.update_schema(|s| {
        def.id = s.take_id();
        s.push_index(def);
        true
    });
    sh.stats.borrow_mut().indexes_added += 1;
    Ok(())
}

fn drop_index(g: &mut Graph, sh: &Shared, d: &DropSchema) -> Result<()> {
    let name = resolve_name(sh, &d.name)?;
    match g.schema().index(&name) {
        None if d.if_exists => Ok(()),
        None => Err(schema_error(
            Detail::IndexDropFailed,
            format!("Unable to drop index called `{name}`. There is no such index."),
        )),
        Some(i) if i.owning_constraint.is_some() => Err(schema_error(
            Detail::IndexDropFailed,
            format!(
                "Unable to drop index: Index belongs to constraint: `{}`",
                i.owning_constraint.as_deref().unwrap_or_default()
            ),
        )),
        Some(_) => {
            g.update_schema(|s| s.remove_index(&name));
            sh.stats.borrow_mut().indexes_removed += 1;
            Ok(())
        }
    }
}

fn drop_constraint(g: &mut Graph, sh: &Shared, d: &DropSchema) -> Result<()> {
    let name = resolve_name(sh, &d.name)?;
    if g.schema().constraint(&name).is_none() {
        if d.if_exists {
            return Ok(());
        }
        return Err(schema_error(
            Detail::ConstraintDropFailed,
            format!("Unable to drop constraint `{name}`: No such constraint {name}."),
        ));
    }
    g.update_schema(|s| s.remove_constraint(&name));
    sh.stats.borrow_mut().constraints_removed += 1;
    Ok(())
}

fn create_constraint(g: &mut Graph, sh: &Shared, k: &CreateConstraint) -> Result<()> {
    let entity = entity_of(&k.entity);
    let rule = match &k.kind {
        ConstraintKind::Unique(_) => ConstraintRule::Unique,
        ConstraintKind::Key(_) => ConstraintRule::Key,
        ConstraintKind::NotNull => ConstraintRule::Exists,
        ConstraintKind::Typed(t) => ConstraintRule::Typed(crate::graph::schema::normalized_type(t)),
    };
    let label: Arc<str> = k
        .entity
        .labels
        .first()
        .map(|l| Arc::from(l.name.as_str()))
        .unwrap_or_else(|| Arc::from(""));
    let properties: Vec<Arc<str>> = k
        .properties
        .iter()
        .map(|p| Arc::from(p.key.name.as_str()))
        .collect();
    let mut def = ConstraintDef {
        id: 0,
        name: Arc::from(""),
        rule,
        entity,
        label,
        properties,
        owned_index: None,
    };
    let backed = def.requires_uniqueness();
    let config = if backed {
        eval_options(g, sh, &k.options, IndexKind::Range)?
    } else {
        if k.options.is_some() {
            // Neo4j accepts (and ignores) OPTIONS on constraints without an index.
            let _ = eval_options(g, sh, &k.options, IndexKind::Range)?;
        }
        BTreeMap::new()
    };
    def.name = match &k.name {
        Some(n) => resolve_name(sh, n)?,
        None => crate::graph::schema::default_constraint_name(&def),
    };
    let schema = g.schema();
    // An index's name is taken even under IF NOT EXISTS.
    if schema.index(&def.name).is_some() && schema.constraint(&def.name).is_none() {
        return Err(schema_error(
            Detail::IndexWithNameAlreadyExists,
            format!("There already exists an index called '{}'.", def.name),
        ));
    }
    if let Some(x) = schema.constraints().iter().find(|x| x.same_schema(&def)) {
        if k.if_not_exists {
            return Ok(());
        }
        if x.rule != def.rule {
            // Another property type on the same property.
            return Err(schema_error(
                Detail::ConstraintAlreadyExists,
                format!(
                    "Conflicting constraint already exists: {}",
                    constraint_text(x, schema)
                ),
            ));
        }
        if x.name == def.name {
            return Err(schema_error(
                Detail::EquivalentSchemaRuleAlreadyExists,
                format!(
                    "An equivalent constraint already exists, '{}'.",
                    constraint_text(x, schema)
                ),
            ));
        }
        return Err(schema_error(
            Detail::ConstraintAlreadyExists,
            format!("Constraint already exists: {}", constraint_text(x, schema)),
        ));
    }
    if schema.constraint(&def.name).is_some() {
        if k.if_not_exists {
            return Ok(());
        }
        return Err(schema_error(
            Detail::ConstraintWithNameAlreadyExists,
            format!("There already exists a constraint called '{}'.", def.name),
        ));
    }
    let backing = IndexDef {
        id: 0,
        name: def.name.clone(),
        kind: IndexKind::Range,
        entity,
        labels_or_types: vec![def.label.clone()],
        properties: def.properties.clone(),
        config,
        owning_constraint: Some(def.name.clone()),
    };
    if backed {
        if let Some(x) = schema.indexes().iter().find(|x| x.same_schema(&backing)) {
            if k.if_not_exists {
                return Ok(());
            }
            let detail = if x.owning_constraint.is_some() {
                Detail::ConstraintAlreadyExists
            } else {
                Detail::IndexAlreadyExists
            };
            return Err(schema_error(
                detail,
                format!(
                    "There already exists an index {}.\nA constraint cannot be created until the index has been dropped.",
                    schema_text(x.entity, &x.labels_or_types, &x.properties)
                ),
            ));
        }
        // A key and a uniqueness constraint on the same schema share nothing in grape,
        // but Neo4j refuses the second: its backing index would be the same.
        if let Some(x) = schema.constraints().iter().find(|x| {
            x.requires_uniqueness()
                && x.entity == def.entity
                && x.label == def.label
                && x.properties == def.properties
        }) {
            if k.if_not_exists {
                return Ok(());
            }
            return Err(schema_error(
                Detail::ConstraintAlreadyExists,
                format!("Constraint already exists: {}", constraint_text(x, schema)),
            ));
        }
    }
    // Community edition has uniqueness constraints only.
    let community = sh.databases.is_some_and(|d| !d.enterprise);
    if community && def.rule != ConstraintRule::Unique {
        let node = def.entity == crate::graph::EntityType::Node;
        let (what, extra) = match &def.rule {
            ConstraintRule::Key if node => ("Node Key constraint", String::new()),
            ConstraintRule::Key => ("Relationship Key constraint", String::new()),
            ConstraintRule::Exists => ("Property existence constraint", String::new()),
            ConstraintRule::Typed(t) => (
                "Property type constraint",
                format!(", propertyType={}", crate::syntax::print_type(t)),
            ),
            ConstraintRule::Unique => unreachable!("uniqueness is community's"),
        };
        let name = match (&def.rule, &k.name) {
            (ConstraintRule::Typed(_), Some(_)) => format!("name='{}', ", def.name),
            _ => String::new(),
        };
        return Err(schema_error(Detail::ConstraintCreationFailed,
            format!(
                "Unable to create Constraint( {name}type='{}', schema={}{extra} ):\n{what} requires Neo4j Enterprise Edition. Note that only the first found violation is shown.",
                def.type_name(false).replace('_', " "),
                schema_text(entity, std::slice::from_ref(&def.label), &def.properties),
            ),
        ));
    }
    // The data must already satisfy it.
    let ids = candidates(g, &def);
    if let Some(v) = first_violation(g, &def, &ids)? {
        return Err(schema_error(
            Detail::ConstraintCreationFailed,
            format!(
                "Unable to create Constraint( name='{}', type='{}', schema={} ):\n{}",
                def.name,
                def.type_name(false).replace('_', " "),
                schema_text(entity, std::slice::from_ref(&def.label), &def.properties),
                v.creation_message(&def)
            ),
        ));
    }
    g.update_schema(|s| {
        if backed {
            let mut backing = backing;
            backing.id = s.take_id();
            def.owned_index = Some(backing.name.clone());
            s.push_index(backing);
        }
        def.id = s.take_id();
        s.push_constraint(def);
        true
    });
    sh.stats.borrow_mut().constraints_added += 1;
    Ok(())
}

/// An element of a constraint's kind: a node or a relationship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Element {
    Node(NodeId),
    Rel(RelId),
}

impl Element {
    fn text(self) -> String {
        match self {
            Element::Node(n) => format!("Node({})", n.0),
            Element::Rel(r) => format!("Relationship({})", r.0),
        }
    }
}

/// Every element a constraint applies to.
fn candidates(g: &Graph, c: &ConstraintDef) -> Vec<Element> {
    let Some(label) = g.sym(&c.label) else {
        return Vec::new();
    };
    match c.entity {
        EntityType::Node => g
            .nodes_with_label(label)
            .iter()
            .map(|n| Element::Node(*n))
            .collect(),
        EntityType::Relationship => g
            .relationship_ids()
            .filter(|r| g.relationship(*r).is_some_and(|d| d.ty == label))
            .map(Element::Rel)
            .collect(),
    }
}

/// What is wrong with an element.
enum Violation {
    Missing(Element),
    WrongType(Element, Arc<str>, Value),
    Duplicate(Element, Element, Vec<Value>),
}

impl Violation {
    fn kind_word(e: Element, c: &ConstraintDef) -> String {
        match e {
            Element::Node(_) => format!("label `{}`", c.label),
            Element::Rel(_) => format!("type `{}`", c.label),
        }
    }

    fn props_text(c: &ConstraintDef, values: &[Value]) -> String {
        if c.properties.len() == 1 {
            format!("property `{}` = {}", c.properties[0], values[0])
        } else {
            let parts: Vec<String> = c
                .properties
                .iter()
                .zip(values)
                .map(|(p, v)| format!("`{p}` = {v}"))
                .collect();
            format!("properties {}", parts.join(", "))
        }
    }

    fn must_have(c: &ConstraintDef) -> String {
        if c.properties.len() == 1 {
            format!("the property `{}`", c.properties[0])
        } else {
            let ps: Vec<String> = c.properties.iter().map(|p| format!("`{p}`")).collect();
            format!("the properties ({})", ps.join(", "))
        }
    }

    /// The message when a write breaks the constraint.
    fn write_message(&self, c: &ConstraintDef) -> String {
        match self {
            Violation::Missing(e) => format!(
                "{} with {} must have {}",
                e.text(),
                Self::kind_word(*e, c),
                Self::must_have(c)
            ),
            Violation::WrongType(e, p, v) => {
                let ConstraintRule::Typed(t) = &c.rule else {
                    return String::new();
                };
                format!(
                    "{} with {} required the property `{p}` to be of type `{}`, but was of type `{}`.",
                    e.text(),
                    Self::kind_word(*e, c),
                    crate::syntax::print_type(t),
                    crate::value::type_name(v)
                )
            }
            Violation::Duplicate(_, other, values) => format!(
                "{} already exists with {} and {}",
                other.text(),
                Self::kind_word(*other, c),
                Self::props_text(c, values)
            ),
        }
    }

    /// The message when existing data prevents creating the constraint.
    fn creation_message(&self, c: &ConstraintDef) -> String {
        match self {
            Violation::Duplicate(a, b, values) => {
                let (a, b) = if a < b { (a, b) } else { (b, a) };
                let word = match a {
                    Element::Node(_) => format!("have the label `{}`", c.label),
                    Element::Rel(_) => format!("have the type `{}`", c.label),
                };
                format!(
                    "Both {} and {} {word} and {}",
                    a.text(),
                    b.text(),
                    Self::props_text(c, values)
                )
            }
            Violation::Missing(_) => format!(
                "{}. Note that only the first found violation is shown.",
                self.write_message(c)
            ),
            other => other.write_message(c),
        }
    }
}

fn element_values(g: &Graph, e: Element, keys: &[Option<crate::graph::Sym>]) -> Vec<Option<Value>> {
    keys.iter()
        .map(|k| {
            k.and_then(|k| match e {
                Element::Node(n) => g.node_property(n, k),
                Element::Rel(r) => g.relationship_property(r, k),
            })
        })
        .collect()
}

/// The first element of `ids` (all of the constraint's label or type) that breaks `c`.
fn first_violation(g: &Graph, c: &ConstraintDef, ids: &[Element]) -> Result<Option<Violation>> {
    let keys: Vec<Option<crate::graph::Sym>> = c.properties.iter().map(|p| g.sym(p)).collect();
    // Uniqueness: the elements of the label or type by value, built once.
    let mut groups: Option<HashMap<Vec<GroupKey>, Vec<Element>>> = None;
    for &e in ids {
        let values = element_values(g, e, &keys);
        if c.requires_existence() && values.iter().any(|v| v.is_none()) {
            return Ok(Some(Violation::Missing(e)));
        }
        if let ConstraintRule::Typed(t) = &c.rule {
            if let Some(Some(v)) = values.first() {
                if !crate::engine::functions::value_is_type(v, t) {
                    return Ok(Some(Violation::WrongType(
                        e,
                        c.properties[0].clone(),
                        v.clone(),
                    )));
                }
            }
        }
        if c.requires_uniqueness() && values.iter().all(|v| v.is_some()) {
            let values: Vec<Value> = values.into_iter().flatten().collect();
            let groups = groups.get_or_insert_with(|| {
                let mut m: HashMap<Vec<GroupKey>, Vec<Element>> = HashMap::new();
                for o in candidates(g, c) {
                    let vs = element_values(g, o, &keys);
                    if vs.iter().all(|v| v.is_some()) {
                        let key: Vec<GroupKey> = vs.into_iter().flatten().map(GroupKey).collect();
                        m.entry(key).or_default().push(o);
                    }
                }
                m
            });
            let key: Vec<GroupKey> = values.iter().cloned().map(GroupKey).collect();
            let other = groups
                .get(&key)
                .and_then(|es| es.iter().filter(|o| **o != e).min().copied());
            if let Some(o) = other {
                return Ok(Some(Violation::Duplicate(e, o, values)));
            }
        }
    }
    Ok(None)
}

/// Checks every constraint on the nodes and relationships a statement wrote.
pub(crate) fn check_constraints(g: &Graph, nodes: &[NodeId], rels: &[RelId]) -> Result<()> {
    let schema = g.schema();
    for c in schema.constraints() {
        let Some(label) = g.sym(&c.label) else {
            continue;
        };
        let ids: Vec<Element> = match c.entity {
            EntityType::Node => nodes
                .iter()
                .filter(|n| g.has_label(**n, label))
                .map(|n| Element::Node(*n))
                .collect(),
            EntityType::Relationship => rels
                .iter()
                .filter(|r| g.relationship(**r).is_some_and(|d| d.ty == label))
                .map(|r| Element::Rel(*r))
                .collect(),
        };
        if ids.is_empty() {
            continue;
        }
        if let Some(v) = first_violation(g, c, &ids)? {
            return Err(ExecError::runtime(
                ErrorKind::ConstraintVerificationFailed,
                v.write_message(c),
            ));
        }
    }
    Ok(())
}

// ---- SHOW INDEXES / SHOW CONSTRAINTS ----

fn list_of(xs: &[Arc<str>]) -> Value {
    Value::List(xs.iter().map(|x| Value::String(x.clone())).collect())
}

fn quoted(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

fn options_value(provider: &str, config: &BTreeMap<Arc<str>, Value>) -> Value {
    let mut m = BTreeMap::new();
    m.insert(Arc::from("indexProvider"), Value::from(provider));
    m.insert(Arc::from("indexConfig"), Value::Map(config.clone()));
    Value::Map(m)
}

fn options_text(provider: &str, config: &BTreeMap<Arc<str>, Value>) -> String {
    let cfg: Vec<String> = config
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| format!("{}: {v}", quoted(k)))
        .collect();
    format!(
        " OPTIONS {{indexConfig: {{{}}}, indexProvider: '{provider}'}}",
        cfg.join(",")
    )
}

fn pattern_text(entity: EntityType, tokens: &[Arc<str>]) -> String {
    let (open, close, v) = match entity {
        EntityType::Node => ("(", ")", "n"),
        EntityType::Relationship => ("()-[", "]-()", "r"),
    };
    let toks: Vec<String> = tokens.iter().map(|t| quoted(t)).collect();
    if toks.is_empty() {
        format!("{open}{v}{close}")
    } else {
        format!("{open}{v}:{}{close}", toks.join("|"))
    }
}

fn props_text(entity: EntityType, props: &[Arc<str>]) -> String {
    let v = match entity {
        EntityType::Node => "n",
        EntityType::Relationship => "r",
    };
    let ps: Vec<String> = props.iter().map(|p| format!("{v}.{}", quoted(p))).collect();
    ps.join(", ")
}

pub(crate) fn index_create_statement(i: &IndexDef) -> String {
    let pat = pattern_text(i.entity, &i.labels_or_types);
    let on = match i.kind {
        IndexKind::Lookup => match i.entity {
            EntityType::Node => " ON EACH labels(n)".to_string(),
            EntityType::Relationship => " ON EACH type(r)".to_string(),
        },
        IndexKind::Fulltext => format!(" ON EACH [{}]", props_text(i.entity, &i.properties)),
        IndexKind::Vector if i.properties.len() > 1 => format!(
            " ON ({}) WITH [{}]",
            props_text(i.entity, &i.properties[..1]),
            props_text(i.entity, &i.properties[1..])
        ),
        _ => format!(" ON ({})", props_text(i.entity, &i.properties)),
    };
    let opts = match i.kind {
        IndexKind::Lookup | IndexKind::Range => String::new(),
        _ => options_text(i.provider(), &i.config),
    };
    format!(
        "CREATE {} INDEX {} FOR {pat}{on}{opts}",
        i.kind.name(),
        quoted(&i.name)
    )
}

pub(crate) fn constraint_create_statement(c: &ConstraintDef) -> String {
    let pat = pattern_text(c.entity, std::slice::from_ref(&c.label));
    let props = props_text(c.entity, &c.properties);
    let tail = match &c.rule {
        ConstraintRule::Unique => " IS UNIQUE".to_string(),
        ConstraintRule::Key => match c.entity {
            EntityType::Node => " IS NODE KEY".to_string(),
            EntityType::Relationship => " IS RELATIONSHIP KEY".to_string(),
        },
        ConstraintRule::Exists => " IS NOT NULL".to_string(),
        ConstraintRule::Typed(t) => format!(" IS :: {}", crate::syntax::print_type(t)),
    };
    format!(
        "CREATE CONSTRAINT {} FOR {pat} REQUIRE ({props}){tail}",
        quoted(&c.name)
    )
}

/// Every row of `SHOW INDEXES` (all columns), by name.
pub(super) fn index_rows(g: &Graph, kind: Option<IndexKind>) -> Vec<Vec<Value>> {
    let schema = g.schema();
    schema
        .sorted_indexes()
        .into_iter()
        .filter(|i| kind.is_none_or(|k| k == i.kind))
        .map(|i| {
            let tokens_or_null = |xs: &[Arc<str>]| {
                if i.kind == IndexKind::Lookup {
                    Value::Null
                } else {
                    list_of(xs)
                }
            };
            vec![
                Value::Int(i.id),
                Value::String(i.name.clone()),
                Value::from("ONLINE"),
                Value::Float(100.0),
                Value::from(i.kind.name()),
                Value::from(i.entity.name()),
                tokens_or_null(&i.labels_or_types),
                tokens_or_null(&i.properties),
                Value::from(i.provider()),
                i.owning_constraint
                    .as_ref()
                    .map_or(Value::Null, |c| Value::String(c.clone())),
                // Read statistics are not tracked: Neo4j then gives null for all three.
                Value::Null,
                Value::Null,
                Value::Null,
                options_value(i.provider(), &i.config),
                Value::from(""),
                Value::from(index_create_statement(i).as_str()),
            ]
        })
        .collect()
}

fn constraint_matches(c: &ConstraintDef, f: ShowConstraints) -> bool {
    use crate::syntax::EntityWord;
    let on = |w: Option<EntityWord>| match w {
        None => true,
        Some(EntityWord::Node) => c.entity == EntityType::Node,
        Some(EntityWord::Relationship) => c.entity == EntityType::Relationship,
    };
    match f {
        ShowConstraints::All => true,
        ShowConstraints::Unique(w) => c.rule == ConstraintRule::Unique && on(w),
        ShowConstraints::Key(w) => c.rule == ConstraintRule::Key && on(w),
        ShowConstraints::Existence(w) => c.rule == ConstraintRule::Exists && on(w),
        ShowConstraints::PropertyType(w) => matches!(c.rule, ConstraintRule::Typed(_)) && on(w),
    }
}

/// Every row of `SHOW CONSTRAINTS` (all columns), by name.
pub(super) fn constraint_rows(g: &Graph, f: ShowConstraints, cypher25: bool) -> Vec<Vec<Value>> {
    let schema = g.schema();
    schema
        .sorted_constraints()
        .into_iter()
        .filter(|c| constraint_matches(c, f))
        .map(|c| {
            let owned = c.owned_index.as_ref().and_then(|n| schema.index(n));
            vec![
                Value::Int(c.id),
                Value::String(c.name.clone()),
                Value::from(c.type_name(cypher25)),
                Value::from(c.entity.name()),
                list_of(std::slice::from_ref(&c.label)),
                list_of(&c.properties),
                owned.map_or(Value::Null, |i| Value::String(i.name.clone())),
                match &c.rule {
                    ConstraintRule::Typed(t) => Value::from(crate::syntax::print_type(t).as_str()),
                    _ => Value::Null,
                },
                owned.map_or(Value::Null, |i| options_value(i.provider(), &i.config)),
                Value::from(constraint_create_statement(c).as_str()),
            ]
        })
        .collect()
}
