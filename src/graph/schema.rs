//! The schema of a graph: its indexes and constraints, as Neo4j 5 keeps them. The store only
//! holds the definitions (journaled like any other change, so a rollback undoes a `CREATE
//! INDEX`); the engine checks constraints and answers `SHOW INDEXES` / `SHOW CONSTRAINTS`.

use crate::syntax::{CypherType, IndexKind, TypeKind};
use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Whether an index or constraint is on nodes (by label) or relationships (by type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntityType {
    Node,
    Relationship,
}

impl EntityType {
    /// `NODE` / `RELATIONSHIP`, as `SHOW INDEXES` writes it.
    pub fn name(self) -> &'static str {
        match self {
            EntityType::Node => "NODE",
            EntityType::Relationship => "RELATIONSHIP",
        }
    }
}

/// An index: what Neo4j 5 lists in `SHOW INDEXES`.
#[derive(Clone, Debug)]
pub struct IndexDef {
    pub id: i64,
    pub name: Arc<str>,
    pub kind: IndexKind,
    pub entity: EntityType,
    /// The labels or relationship types (empty for a LOOKUP index).
    pub labels_or_types: Vec<Arc<str>>,
    /// The property keys, in order (empty for a LOOKUP index).
    pub properties: Vec<Arc<str>>,
    /// The index configuration (`indexConfig`), defaults filled in.
    pub config: BTreeMap<Arc<str>, Value>,
    /// The constraint this index backs (uniqueness and key constraints own one).
    pub owning_constraint: Option<Arc<str>>,
}

impl IndexDef {
    /// The index provider Neo4j 5.26 gives an index of this kind.
    pub fn provider(&self) -> &'static str {
        match self.kind {
            IndexKind::Range => "range-1.0",
            IndexKind::Text => "text-2.0",
            IndexKind::Point => "point-1.0",
            IndexKind::Lookup => "token-lookup-1.0",
            IndexKind::Fulltext => "fulltext-1.0",
            IndexKind::Vector => "vector-2.0",
        }
    }

    /// Whether `other` indexes the same thing (kind, entity, labels, properties).
    pub fn same_schema(&self, other: &IndexDef) -> bool {
        self.kind == other.kind
            && self.entity == other.entity
            && self.labels_or_types == other.labels_or_types
            && self.properties == other.properties
    }
}

/// What a constraint requires of every node with its label (relationship with its type).
#[derive(Clone, Debug, PartialEq)]
pub enum ConstraintRule {
    /// The properties' combined value is unique (among elements having all of them).
    Unique,
    /// The properties exist and their combined value is unique.
    Key,
    /// The property exists.
    Exists,
    /// The property, where it exists, has this type.
    Typed(CypherType),
}

/// A constraint: what Neo4j 5 lists in `SHOW CONSTRAINTS`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstraintDef {
    pub id: i64,
    pub name: Arc<str>,
    pub rule: ConstraintRule,
    pub entity: EntityType,
    pub label: Arc<str>,
    pub properties: Vec<Arc<str>>,
    /// The index that backs a uniqueness or key constraint (it has the constraint's name).
    pub owned_index: Option<Arc<str>>,
}

impl ConstraintDef {
    /// Neo4j 5's name for the constraint's type (`UNIQUENESS`, `NODE_KEY`, …; Cypher 25 says
    /// `NODE_PROPERTY_UNIQUENESS` for the first).
    pub fn type_name(&self, cypher25: bool) -> &'static str {
        let node = self.entity == EntityType::Node;
        match (&self.rule, node) {
            (ConstraintRule::Unique, true) if cypher25 => "NODE_PROPERTY_UNIQUENESS",
            (ConstraintRule::Unique, true) => "UNIQUENESS",
            (ConstraintRule::Unique, false) if cypher25 => "RELATIONSHIP_PROPERTY_UNIQUENESS",
            (ConstraintRule::Unique, false) => "RELATIONSHIP_UNIQUENESS",
            (ConstraintRule::Key, true) => "NODE_KEY",
            (ConstraintRule::Key, false) => "RELATIONSHIP_KEY",
            (ConstraintRule::Exists, true) => "NODE_PROPERTY_EXISTENCE",
            (ConstraintRule::Exists, false) => "RELATIONSHIP_PROPERTY_EXISTENCE",
            (ConstraintRule::Typed(_), true) => "NODE_PROPERTY_TYPE",
            (ConstraintRule::Typed(_), false) => "RELATIONSHIP_PROPERTY_TYPE",
        }
    }

    /// Whether `other` constrains the same thing in the same way.
    pub fn same_schema(&self, other: &ConstraintDef) -> bool {
        self.entity == other.entity
            && self.label == other.label
            && self.properties == other.properties
            && std::mem::discriminant(&self.rule) == std::mem::discriminant(&other.rule)
    }

    /// Whether the constraint needs every element to have its properties.
    pub fn requires_existence(&self) -> bool {
        matches!(self.rule, ConstraintRule::Key | ConstraintRule::Exists)
    }

    /// Whether the constraint needs the properties' combined values to be unique.
    pub fn requires_uniqueness(&self) -> bool {
        matches!(self.rule, ConstraintRule::Unique | ConstraintRule::Key)
    }
}

/// The indexes and constraints of a graph. A new graph has Neo4j's two LOOKUP indexes.
#[derive(Clone, Debug)]
pub struct Schema {
    indexes: Vec<IndexDef>,
    constraints: Vec<ConstraintDef>,
    next_id: i64,
}

/// The names Neo4j gives the token lookup indexes of a new database.
pub const NODE_LOOKUP_INDEX: &str = "index_343aff4e";
pub const RELATIONSHIP_LOOKUP_INDEX: &str = "index_f7700477";

impl Default for Schema {
    fn default() -> Self {
        let lookup = |id, name: &str, entity| IndexDef {
            id,
            name: Arc::from(name),
            kind: IndexKind::Lookup,
            entity,
            labels_or_types: Vec::new(),
            properties: Vec::new(),
            config: BTreeMap::new(),
            owning_constraint: None,
        };
        Schema {
            indexes: vec![
                lookup(1, NODE_LOOKUP_INDEX, EntityType::Node),
                lookup(2, RELATIONSHIP_LOOKUP_INDEX, EntityType::Relationship),
            ],
            constraints: Vec::new(),
            next_id: 3,
        }
    }
}

impl Schema {
    /// No indexes and no constraints (not even the LOOKUP indexes).
    pub fn empty() -> Self {
        Schema {
            indexes: Vec::new(),
            constraints: Vec::new(),
            next_id: 1,
        }
    }

    pub fn indexes(&self) -> &[IndexDef] {
        &self.indexes
    }

    pub fn constraints(&self) -> &[ConstraintDef] {
        &self.constraints
    }

    pub fn index(&self, name: &str) -> Option<&IndexDef> {
        self.indexes.iter().find(|i| &*i.name == name)
    }

    pub fn constraint(&self, name: &str) -> Option<&ConstraintDef> {
        self.constraints.iter().find(|c| &*c.name == name)
    }

    /// Whether any constraint applies to nodes (`Node`) or relationships.
    pub fn constrains(&self, entity: EntityType) -> bool {
        self.constraints.iter().any(|c| c.entity == entity)
    }

    /// A fresh schema rule id (indexes and constraints share the sequence, as in Neo4j).
    pub fn take_id(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    pub(crate) fn push_index(&mut self, i: IndexDef) {
        self.indexes.push(i);
    }

    pub(crate) fn push_constraint(&mut self, c: ConstraintDef) {
        self.constraints.push(c);
    }

    /// Removes the index called `name` (not one a constraint owns); whether there was one.
    pub(crate) fn remove_index(&mut self, name: &str) -> bool {
        let before = self.indexes.len();
        self.indexes.retain(|i| &*i.name != name);
        before != self.indexes.len()
    }

    /// Removes the constraint called `name` and the index it owns; whether there was one.
    pub(crate) fn remove_constraint(&mut self, name: &str) -> bool {
        let Some(pos) = self.constraints.iter().position(|c| &*c.name == name) else {
            return false;
        };
        let c = self.constraints.remove(pos);
        if let Some(owned) = c.owned_index {
            self.indexes.retain(|i| i.name != owned);
        }
        true
    }

    /// Sorted by name, as `SHOW` lists them.
    pub fn sorted_indexes(&self) -> Vec<&IndexDef> {
        let mut v: Vec<&IndexDef> = self.indexes.iter().collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    }

    pub fn sorted_constraints(&self) -> Vec<&ConstraintDef> {
        let mut v: Vec<&ConstraintDef> = self.constraints.iter().collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    }
}

/// Neo4j's names for unnamed indexes and constraints: an incremental XXH64 over what the
/// rule is (entity, token and property names by Java's `String.hashCode`, kind), as Neo4j's
/// `SchemaNameUtil` computes it, so that grape and Neo4j name the same definition alike
/// (`index_343aff4e` is the node lookup index of every new database).
mod naming {
    const P1: u64 = -7046029288634856825i64 as u64;
    const P2: u64 = -4417276706812531889i64 as u64;
    const P3: u64 = 1609587929392839161;
    const P4: u64 = -8796714831421723037i64 as u64;
    const P5: u64 = 2870177450012600261;

    /// Java's `String.hashCode` (over UTF-16 code units).
    pub fn java_hash(s: &str) -> i32 {
        s.encode_utf16()
            .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(i32::from(u)))
    }

    pub struct Hash(u64);

    impl Hash {
        pub fn new(seed: i64) -> Hash {
            Hash((seed as u64).wrapping_add(P5))
        }

        pub fn update(mut self, b: i64) -> Hash {
            let mut h = self.0.wrapping_add(8);
            let b = (b as u64).wrapping_mul(P2).rotate_left(31).wrapping_mul(P1);
            h ^= b;
            self.0 = h.rotate_left(27).wrapping_mul(P1).wrapping_add(P4);
            self
        }

        pub fn strings<'a>(self, xs: impl ExactSizeIterator<Item = &'a str>) -> Hash {
            let mut h = self.update(xs.len() as i64);
            for x in xs {
                h = h.update(i64::from(java_hash(x)));
            }
            h
        }

        /// The finalised hash folded to a Java `int`, printed as Java's `%x` does (no padding).
        pub fn name(self, prefix: &str) -> String {
            let mut h = self.0;
            h ^= h >> 33;
            h = h.wrapping_mul(P2);
            h ^= h >> 29;
            h = h.wrapping_mul(P3);
            h ^= h >> 32;
            let s = h as i64;
            let v = ((s >> 32) ^ s) as u32;
            format!("{prefix}_{v:x}")
        }
    }
}

/// Java's `Boolean.hashCode`.
fn java_bool(b: bool) -> i64 {
    if b {
        1231
    } else {
        1237
    }
}

fn index_type_number(kind: IndexKind) -> i64 {
    match kind {
        IndexKind::Fulltext => 1,
        IndexKind::Lookup => 2,
        IndexKind::Text => 3,
        IndexKind::Range => 4,
        IndexKind::Point => 5,
        IndexKind::Vector => 6,
    }
}

fn entity_ordinal(e: EntityType) -> i64 {
    match e {
        EntityType::Node => 0,
        EntityType::Relationship => 1,
    }
}

/// The name Neo4j gives an unnamed index.
pub fn default_index_name(i: &IndexDef) -> Arc<str> {
    let pattern = match i.kind {
        IndexKind::Fulltext => 1,
        IndexKind::Lookup => 2,
        _ => 0,
    };
    let h = naming::Hash::new(java_bool(false))
        .update(entity_ordinal(i.entity))
        .update(pattern)
        .strings(i.labels_or_types.iter().map(|s| &**s))
        .strings(i.properties.iter().map(|s| &**s))
        .update(index_type_number(i.kind))
        .update(java_bool(false));
    Arc::from(h.name("index"))
}

/// Neo4j's names of the property types a type constraint allows (`INTEGER`, `LIST_STRING`).
fn property_type_names(t: &CypherType) -> Vec<String> {
    fn one(k: &TypeKind) -> String {
        match k {
            TypeKind::List(inner) => format!("LIST_{}", one(&inner.kind)),
            TypeKind::LocalTime => "LOCAL_TIME".into(),
            TypeKind::ZonedTime => "ZONED_TIME".into(),
            TypeKind::LocalDateTime => "LOCAL_DATETIME".into(),
            TypeKind::ZonedDateTime => "ZONED_DATETIME".into(),
            other => format!("{other:?}").to_ascii_uppercase(),
        }
    }
    let mut v: Vec<String> = match &t.kind {
        TypeKind::Union(alts) => alts.iter().map(|a| one(&a.kind)).collect(),
        k => vec![one(k)],
    };
    v.sort();
    v.dedup();
    v
}

/// A property type as Neo4j keeps it: the alternatives of a union once each, in the order of
/// Neo4j's type system (`BOOLEAN | STRING | INTEGER | … | LIST<…>`).
pub fn normalized_type(t: &CypherType) -> CypherType {
    fn rank(k: &TypeKind) -> usize {
        match k {
            TypeKind::Boolean => 0,
            TypeKind::String => 1,
            TypeKind::Integer => 2,
            TypeKind::Float => 3,
            TypeKind::Date => 4,
            TypeKind::LocalTime => 5,
            TypeKind::ZonedTime => 6,
            TypeKind::LocalDateTime => 7,
            TypeKind::ZonedDateTime => 8,
            TypeKind::Duration => 9,
            TypeKind::Point => 10,
            TypeKind::List(inner) => 11 + rank(&inner.kind),
            _ => 100,
        }
    }
    let TypeKind::Union(alts) = &t.kind else {
        return t.clone();
    };
    let mut alts = alts.clone();
    alts.sort_by_key(|a| rank(&a.kind));
    alts.dedup();
    if alts.len() == 1 {
        return alts.remove(0);
    }
    CypherType {
        kind: TypeKind::Union(alts),
        not_null: t.not_null,
    }
}

/// The name Neo4j gives an unnamed constraint.
pub fn default_constraint_name(c: &ConstraintDef) -> Arc<str> {
    let ordinal = match c.rule {
        ConstraintRule::Unique => 0,
        ConstraintRule::Exists => 1,
        ConstraintRule::Key => 2,
        ConstraintRule::Typed(_) => 3,
    };
    let mut h = naming::Hash::new(java_bool(true))
        .update(entity_ordinal(c.entity))
        .update(0)
        .strings(std::iter::once(&*c.label))
        .strings(c.properties.iter().map(|s| &**s))
        .update(ordinal);
    if c.requires_uniqueness() {
        h = h.update(index_type_number(IndexKind::Range));
    }
    if let ConstraintRule::Typed(t) = &c.rule {
        let sum = property_type_names(t)
            .iter()
            .fold(0i32, |s, n| s.wrapping_add(naming::java_hash(n)));
        h = h.update(i64::from(sum));
    }
    Arc::from(h.name("constraint"))
}

/// Checks a configuration against the kind's settings and fills in the defaults.
pub fn index_config(
    kind: IndexKind,
    given: BTreeMap<Arc<str>, Value>,
) -> std::result::Result<BTreeMap<Arc<str>, Value>, String> {
    let floats = |xs: &[f64]| Value::List(xs.iter().map(|x| Value::Float(*x)).collect());
    let mut out: BTreeMap<Arc<str>, Value> = BTreeMap::new();
    let mut put = |k: &str, v: Value| {
        out.insert(Arc::from(k), v);
    };
    match kind {
        IndexKind::Point => {
            put(
                "spatial.cartesian.min",
                floats(&[-1_000_000.0, -1_000_000.0]),
            );
            put("spatial.cartesian.max", floats(&[1_000_000.0, 1_000_000.0]));
            put(
                "spatial.cartesian-3d.min",
                floats(&[-1_000_000.0, -1_000_000.0, -1_000_000.0]),
            );
            put(
                "spatial.cartesian-3d.max",
                floats(&[1_000_000.0, 1_000_000.0, 1_000_000.0]),
            );
            put("spatial.wgs-84.min", floats(&[-180.0, -90.0]));
            put("spatial.wgs-84.max", floats(&[180.0, 90.0]));
            put(
                "spatial.wgs-84-3d.min",
                floats(&[-180.0, -90.0, -1_000_000.0]),
            );
            put("spatial.wgs-84-3d.max", floats(&[180.0, 90.0, 1_000_000.0]));
        }
        IndexKind::Fulltext => {
            put("fulltext.analyzer", Value::from("standard-no-stop-words"));
            put("fulltext.eventually_consistent", Value::Bool(false));
        }
        IndexKind::Vector => {
            put("vector.similarity_function", Value::from("COSINE"));
            put("vector.hnsw.m", Value::Int(16));
            put("vector.hnsw.ef_construction", Value::Int(100));
            put("vector.quantization.enabled", Value::Bool(true));
        }
        _ => {}
    }
    for (k, v) in given {
        let known =
            out.contains_key(&k) || (kind == IndexKind::Vector && &*k == "vector.dimensions");
        if !known {
            return Err(format!(
                "Invalid index config key '{k}', it was not recognized as an index setting."
            ));
        }
        let v = match (&*k, v) {
            ("vector.dimensions", Value::Int(d)) if (1..=4096).contains(&d) => Value::Int(d),
            ("vector.dimensions", Value::Float(d)) if d.fract() == 0.0 && (1.0..=4096.0).contains(&d) => {
                Value::Int(d as i64)
            }
            ("vector.dimensions", v) => {
                return Err(format!(
                    "'vector.dimensions' must be between 1 and 4096 inclusively, but was {v}."
                ))
            }
            ("vector.similarity_function", Value::String(s))
                if s.eq_ignore_ascii_case("cosine") || s.eq_ignore_ascii_case("euclidean") =>
            {
                Value::from(s.to_ascii_uppercase().as_str())
            }
            ("vector.similarity_function", v) => {
                return Err(format!(
                    "'{v}' is an unsupported 'vector.similarity_function'. Supported: [COSINE, EUCLIDEAN]"
                ))
            }
            ("vector.hnsw.m" | "vector.hnsw.ef_construction", Value::Int(n)) if n > 0 => {
                Value::Int(n)
            }
            ("vector.quantization.enabled" | "fulltext.eventually_consistent", Value::Bool(b)) => {
                Value::Bool(b)
            }
            ("fulltext.analyzer", Value::String(s)) => {
                if crate::fulltext::Analyzer::by_name(&s).is_none() {
                    return Err(crate::fulltext::unknown_analyzer_message(&s));
                }
                Value::String(s)
            }
            (k2, Value::List(xs)) if k2.starts_with("spatial.") => {
                let dims = if k2.contains("3d") { 3 } else { 2 };
                if xs.len() != dims || !xs.iter().all(|x| x.is_number()) {
                    return Err(format!(
                        "Invalid index configuration for '{k2}': expected a list of {dims} numbers."
                    ));
                }
                Value::List(xs.iter().map(|x| Value::Float(x.as_f64().unwrap_or(0.0))).collect())
            }
            (k2, v) => {
                return Err(format!("Invalid value {v} for index setting '{k2}'."));
            }
        };
        out.insert(k, v);
    }
    Ok(out)
}

/// Whether `t` is a type a property type constraint may require: Neo4j's property types,
/// lists of them (`LIST<INTEGER NOT NULL>`), and unions of those, all nullable at the top.
pub fn valid_property_type(t: &CypherType) -> bool {
    fn simple(k: &TypeKind) -> bool {
        matches!(
            k,
            TypeKind::Boolean
                | TypeKind::String
                | TypeKind::Integer
                | TypeKind::Float
                | TypeKind::Date
                | TypeKind::LocalTime
                | TypeKind::ZonedTime
                | TypeKind::LocalDateTime
                | TypeKind::ZonedDateTime
                | TypeKind::Duration
                | TypeKind::Point
        )
    }
    fn member(t: &CypherType) -> bool {
        if t.not_null {
            return false;
        }
        match &t.kind {
            TypeKind::List(inner) => inner.not_null && simple(&inner.kind),
            k => simple(k),
        }
    }
    match &t.kind {
        TypeKind::Union(alts) => !t.not_null && alts.iter().all(member),
        _ => member(t),
    }
}
