//! The schema of a graph: its indexes and constraints, as Neo4j 5 keeps them. The store only
//! holds the definitions (journaled like any other change, so a rollback undoes a `CREATE
//! INDEX`); the engine checks constraints and answers `SHOW INDEXES` / `SHOW CONSTRAINTS`.

use crate::syntax::{CypherType, IndexKind};
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
