//! The in-memory property graph: petgraph's `StableGraph` (element ids stay valid when other
//! elements are removed) with interned labels, types and property keys, a label index, and
//! (label, property) → nodes hash indexes built on first use.

use crate::value::{GroupKey, NodeId, RelId, Value};
use petgraph::stable_graph::{EdgeIndex, NodeIndex, StableDiGraph};
use petgraph::visit::EdgeRef;
use petgraph::Direction as PgDirection;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};

/// An interned string: a label, relationship type or property key.
pub type Sym = u32;

/// Interns labels, relationship types and property keys.
#[derive(Clone, Debug, Default)]
pub struct Interner {
    names: Vec<Arc<str>>,
    // Fx hashing: names are looked up on every property access, and SipHash's DoS resistance
    // buys nothing for an in-process symbol table.
    ids: rustc_hash::FxHashMap<Arc<str>, Sym>,
}

impl Interner {
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.names.len() as Sym;
        let a: Arc<str> = Arc::from(s);
        self.names.push(a.clone());
        self.ids.insert(a, id);
        id
    }
    pub fn get(&self, s: &str) -> Option<Sym> {
        self.ids.get(s).copied()
    }
    pub fn name(&self, id: Sym) -> &Arc<str> {
        &self.names[id as usize]
    }
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// A node's labels and properties (properties sorted by key symbol).
#[derive(Clone, Debug, Default)]
pub struct NodeData {
    pub labels: Vec<Sym>,
    pub props: Vec<(Sym, Value)>,
}

/// A relationship's type and properties (properties sorted by key symbol).
#[derive(Clone, Debug)]
pub struct RelData {
    pub ty: Sym,
    pub props: Vec<(Sym, Value)>,
}

fn prop_get(props: &[(Sym, Value)], key: Sym) -> Option<&Value> {
    props
        .binary_search_by_key(&key, |(k, _)| *k)
        .ok()
        .map(|i| &props[i].1)
}

fn prop_set(props: &mut Vec<(Sym, Value)>, key: Sym, value: Value) {
    match props.binary_search_by_key(&key, |(k, _)| *k) {
        Ok(i) => {
            if value.is_null() {
                props.remove(i);
            } else {
                props[i].1 = value;
            }
        }
        Err(i) => {
            if !value.is_null() {
                props.insert(i, (key, value));
            }
        }
    }
}

/// Which way to follow relationships from a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Outgoing,
    Incoming,
    Both,
}

type PropIndex = rustc_hash::FxHashMap<GroupKey, Vec<NodeId>>;

/// A property graph.
#[derive(Debug, Default)]
pub struct Graph {
    g: StableDiGraph<NodeData, RelData, u32>,
    syms: Interner,
    by_label: HashMap<Sym, Vec<NodeId>>,
    /// Lazily built (label, key) → value → nodes indexes; cleared by any mutation.
    prop_indexes: RwLock<HashMap<(Sym, Sym), Arc<PropIndex>>>,
}

impl Clone for Graph {
    fn clone(&self) -> Self {
        Graph {
            g: self.g.clone(),
            syms: self.syms.clone(),
            by_label: self.by_label.clone(),
            prop_indexes: RwLock::new(HashMap::new()),
        }
    }
}

fn nix(n: NodeId) -> NodeIndex<u32> {
    NodeIndex::new(n.0 as usize)
}
fn eix(r: RelId) -> EdgeIndex<u32> {
    EdgeIndex::new(r.0 as usize)
}

impl Graph {
    pub fn new() -> Self {
        Graph::default()
    }

    // ---- symbols ----

    pub fn intern(&mut self, s: &str) -> Sym {
        self.syms.intern(s)
    }
    pub fn sym(&self, s: &str) -> Option<Sym> {
        self.syms.get(s)
    }
    pub fn sym_name(&self, id: Sym) -> &Arc<str> {
        self.syms.name(id)
    }

    // ---- sizes ----

    pub fn node_count(&self) -> usize {
        self.g.node_count()
    }
    pub fn relationship_count(&self) -> usize {
        self.g.edge_count()
    }

    // ---- reading ----

    pub fn contains_node(&self, n: NodeId) -> bool {
        self.g.contains_node(nix(n))
    }
    pub fn contains_relationship(&self, r: RelId) -> bool {
        self.g.edge_weight(eix(r)).is_some()
    }
    pub fn node(&self, n: NodeId) -> Option<&NodeData> {
        self.g.node_weight(nix(n))
    }
    pub fn relationship(&self, r: RelId) -> Option<&RelData> {
        self.g.edge_weight(eix(r))
    }
    /// Start and end node of a relationship.
    pub fn endpoints(&self, r: RelId) -> Option<(NodeId, NodeId)> {
        self.g
            .edge_endpoints(eix(r))
            .map(|(a, b)| (NodeId(a.index() as u32), NodeId(b.index() as u32)))
    }

    /// All node ids in id order.
    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.g.node_indices().map(|i| NodeId(i.index() as u32))
    }
    /// All relationship ids in id order.
    pub fn relationship_ids(&self) -> impl Iterator<Item = RelId> + '_ {
        self.g.edge_indices().map(|i| RelId(i.index() as u32))
    }

    /// Nodes carrying `label` (in id order).
    pub fn nodes_with_label(&self, label: Sym) -> &[NodeId] {
        self.by_label
            .get(&label)
            .map(|v| v.as_slice())
            .unwrap_or(&[])
    }

    pub fn has_label(&self, n: NodeId, label: Sym) -> bool {
        self.node(n).is_some_and(|d| d.labels.contains(&label))
    }

    pub fn node_property(&self, n: NodeId, key: Sym) -> Option<&Value> {
        self.node(n).and_then(|d| prop_get(&d.props, key))
    }
    pub fn relationship_property(&self, r: RelId, key: Sym) -> Option<&Value> {
        self.relationship(r).and_then(|d| prop_get(&d.props, key))
    }

    /// Relationships at `n` in direction `dir`, as (relationship, other node).
    /// A self-loop is reported once for `Both`.
    pub fn neighbours(&self, n: NodeId, dir: Dir) -> Vec<(RelId, NodeId)> {
        let mut out = Vec::new();
        self.for_each_neighbour(n, dir, None, |r, m| out.push((r, m)));
        out
    }

    /// Calls `f(relationship, other node)` for each relationship at `n` in direction `dir`
    /// (restricted to relationship type `ty` when given).
    pub fn for_each_neighbour(
        &self,
        n: NodeId,
        dir: Dir,
        ty: Option<&[Sym]>,
        mut f: impl FnMut(RelId, NodeId),
    ) {
        let idx = nix(n);
        if !self.g.contains_node(idx) {
            return;
        }
        let ok = |w: &RelData| ty.is_none_or(|t| t.contains(&w.ty));
        if matches!(dir, Dir::Outgoing | Dir::Both) {
            for e in self.g.edges_directed(idx, PgDirection::Outgoing) {
                if ok(e.weight()) {
                    f(
                        RelId(e.id().index() as u32),
                        NodeId(e.target().index() as u32),
                    );
                }
            }
        }
        if matches!(dir, Dir::Incoming | Dir::Both) {
            for e in self.g.edges_directed(idx, PgDirection::Incoming) {
                if dir == Dir::Both && e.source() == e.target() {
                    continue; // a self-loop was already reported as outgoing
                }
                if ok(e.weight()) {
                    f(
                        RelId(e.id().index() as u32),
                        NodeId(e.source().index() as u32),
                    );
                }
            }
        }
    }

    /// Number of relationships at `n` in direction `dir` (of the given types).
    pub fn degree(&self, n: NodeId, dir: Dir, ty: Option<&[Sym]>) -> usize {
        let mut k = 0;
        self.for_each_neighbour(n, dir, ty, |_, _| k += 1);
        k
    }

    /// Nodes with `label` whose property `key` is equivalent to `value`, through a hash index
    /// built on first use.
    pub fn nodes_with_property(&self, label: Sym, key: Sym, value: &Value) -> Vec<NodeId> {
        let index = self.property_index(label, key);
        let hits = index
            .get(&GroupKey(value.clone()))
            .cloned()
            .unwrap_or_default();
        // The index groups by equivalence; `=` differs only for NaN and null, never stored.
        hits
    }

    fn property_index(&self, label: Sym, key: Sym) -> Arc<PropIndex> {
        if let Ok(map) = self.prop_indexes.read() {
            if let Some(ix) = map.get(&(label, key)) {
                return ix.clone();
            }
        }
        let mut ix: PropIndex = PropIndex::default();
        for &n in self.nodes_with_label(label) {
            if let Some(v) = self.node_property(n, key) {
                ix.entry(GroupKey(v.clone())).or_default().push(n);
            }
        }
        let ix = Arc::new(ix);
        if let Ok(mut map) = self.prop_indexes.write() {
            map.insert((label, key), ix.clone());
        }
        ix
    }

    /// The labels of `n` as names, in the order they were added.
    pub fn labels(&self, n: NodeId) -> Vec<Arc<str>> {
        self.node(n)
            .map(|d| d.labels.iter().map(|l| self.sym_name(*l).clone()).collect())
            .unwrap_or_default()
    }

    /// The type name of `r`.
    pub fn rel_type(&self, r: RelId) -> Option<Arc<str>> {
        self.relationship(r).map(|d| self.sym_name(d.ty).clone())
    }

    /// The properties of a node as a map value.
    pub fn node_properties(&self, n: NodeId) -> BTreeMap<Arc<str>, Value> {
        self.node(n)
            .map(|d| self.props_map(&d.props))
            .unwrap_or_default()
    }
    /// The properties of a relationship as a map value.
    pub fn relationship_properties(&self, r: RelId) -> BTreeMap<Arc<str>, Value> {
        self.relationship(r)
            .map(|d| self.props_map(&d.props))
            .unwrap_or_default()
    }
    fn props_map(&self, props: &[(Sym, Value)]) -> BTreeMap<Arc<str>, Value> {
        props
            .iter()
            .map(|(k, v)| (self.sym_name(*k).clone(), v.clone()))
            .collect()
    }

    /// All label symbols in use, all relationship type symbols in use, all property keys in use.
    pub fn labels_in_use(&self) -> Vec<Sym> {
        let mut v: Vec<Sym> = self
            .by_label
            .iter()
            .filter(|(_, ns)| !ns.is_empty())
            .map(|(l, _)| *l)
            .collect();
        v.sort_by(|a, b| self.sym_name(*a).cmp(self.sym_name(*b)));
        v
    }

    // ---- writing ----

    fn touch(&mut self) {
        if let Ok(m) = self.prop_indexes.get_mut() {
            m.clear();
        }
    }

    /// Adds a node with labels and properties (null properties are not stored).
    pub fn add_node(&mut self, labels: &[&str], props: Vec<(&str, Value)>) -> NodeId {
        let labels: Vec<Sym> = labels.iter().map(|l| self.intern(l)).collect();
        let props: Vec<(Sym, Value)> = props
            .into_iter()
            .map(|(k, v)| (self.intern(k), v))
            .collect();
        self.add_node_syms(labels, props)
    }

    /// Adds a node from interned labels and properties.
    pub fn add_node_syms(&mut self, mut labels: Vec<Sym>, props: Vec<(Sym, Value)>) -> NodeId {
        self.touch();
        let mut dedup = Vec::with_capacity(labels.len());
        for l in labels.drain(..) {
            if !dedup.contains(&l) {
                dedup.push(l);
            }
        }
        let mut sorted: Vec<(Sym, Value)> = Vec::with_capacity(props.len());
        for (k, v) in props {
            prop_set(&mut sorted, k, v);
        }
        let idx = self.g.add_node(NodeData {
            labels: dedup.clone(),
            props: sorted,
        });
        let id = NodeId(idx.index() as u32);
        for l in dedup {
            insert_sorted(self.by_label.entry(l).or_default(), id);
        }
        id
    }

    /// Adds a relationship.
    pub fn add_relationship(
        &mut self,
        start: NodeId,
        end: NodeId,
        ty: &str,
        props: Vec<(&str, Value)>,
    ) -> Option<RelId> {
        let ty = self.intern(ty);
        let props = props
            .into_iter()
            .map(|(k, v)| (self.intern(k), v))
            .collect();
        self.add_relationship_syms(start, end, ty, props)
    }

    /// Adds a relationship from interned type and properties; `None` if an endpoint is missing.
    pub fn add_relationship_syms(
        &mut self,
        start: NodeId,
        end: NodeId,
        ty: Sym,
        props: Vec<(Sym, Value)>,
    ) -> Option<RelId> {
        if !self.contains_node(start) || !self.contains_node(end) {
            return None;
        }
        self.touch();
        let mut sorted = Vec::with_capacity(props.len());
        for (k, v) in props {
            prop_set(&mut sorted, k, v);
        }
        let e = self
            .g
            .add_edge(nix(start), nix(end), RelData { ty, props: sorted });
        Some(RelId(e.index() as u32))
    }

    /// Sets (or with null, removes) a node property. Returns whether the node exists.
    pub fn set_node_property(&mut self, n: NodeId, key: &str, value: Value) -> bool {
        let key = self.intern(key);
        self.touch();
        match self.g.node_weight_mut(nix(n)) {
            Some(d) => {
                prop_set(&mut d.props, key, value);
                true
            }
            None => false,
        }
    }

    /// Sets (or with null, removes) a relationship property.
    pub fn set_relationship_property(&mut self, r: RelId, key: &str, value: Value) -> bool {
        let key = self.intern(key);
        self.touch();
        match self.g.edge_weight_mut(eix(r)) {
            Some(d) => {
                prop_set(&mut d.props, key, value);
                true
            }
            None => false,
        }
    }

    /// Adds a label; returns whether it was new.
    pub fn add_label(&mut self, n: NodeId, label: &str) -> bool {
        let l = self.intern(label);
        self.touch();
        let Some(d) = self.g.node_weight_mut(nix(n)) else {
            return false;
        };
        if d.labels.contains(&l) {
            return false;
        }
        d.labels.push(l);
        insert_sorted(self.by_label.entry(l).or_default(), n);
        true
    }

    /// Removes a label; returns whether it was there.
    pub fn remove_label(&mut self, n: NodeId, label: &str) -> bool {
        let Some(l) = self.sym(label) else {
            return false;
        };
        self.touch();
        let Some(d) = self.g.node_weight_mut(nix(n)) else {
            return false;
        };
        let Some(pos) = d.labels.iter().position(|x| *x == l) else {
            return false;
        };
        d.labels.remove(pos);
        if let Some(v) = self.by_label.get_mut(&l) {
            if let Ok(i) = v.binary_search(&n) {
                v.remove(i);
            }
        }
        true
    }

    /// Removes a relationship.
    pub fn remove_relationship(&mut self, r: RelId) -> bool {
        self.touch();
        self.g.remove_edge(eix(r)).is_some()
    }

    /// Removes a node and its relationships (callers check `DETACH` semantics first).
    pub fn remove_node(&mut self, n: NodeId) -> bool {
        self.touch();
        match self.g.remove_node(nix(n)) {
            Some(d) => {
                for l in d.labels {
                    if let Some(v) = self.by_label.get_mut(&l) {
                        if let Ok(i) = v.binary_search(&n) {
                            v.remove(i);
                        }
                    }
                }
                true
            }
            None => false,
        }
    }
}

fn insert_sorted(v: &mut Vec<NodeId>, id: NodeId) {
    match v.last() {
        Some(last) if *last < id => v.push(id),
        None => v.push(id),
        _ => {
            if let Err(i) = v.binary_search(&id) {
                v.insert(i, id);
            }
        }
    }
}

impl crate::value::Entities for Graph {
    fn node_labels(&self, n: NodeId) -> Vec<Arc<str>> {
        self.labels(n)
    }
    fn node_props(&self, n: NodeId) -> BTreeMap<Arc<str>, Value> {
        self.node_properties(n)
    }
    fn rel_type(&self, r: RelId) -> Option<Arc<str>> {
        Graph::rel_type(self, r)
    }
    fn rel_endpoints(&self, r: RelId) -> Option<(NodeId, NodeId)> {
        self.endpoints(r)
    }
    fn rel_props(&self, r: RelId) -> BTreeMap<Arc<str>, Value> {
        self.relationship_properties(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_relationships_labels_and_indexes() {
        let mut g = Graph::new();
        let a = g.add_node(
            &["Person"],
            vec![("name", Value::from("Ann")), ("age", Value::Int(30))],
        );
        let b = g.add_node(&["Person", "Admin"], vec![("name", Value::from("Bob"))]);
        let c = g.add_node(&["City"], vec![("name", Value::from("Oslo"))]);
        let r = g.add_relationship(a, b, "KNOWS", vec![]).unwrap();
        g.add_relationship(a, c, "LIVES_IN", vec![("since", Value::Int(2020))])
            .unwrap();
        assert_eq!((g.node_count(), g.relationship_count()), (3, 2));
        let person = g.sym("Person").unwrap();
        assert_eq!(g.nodes_with_label(person), &[a, b]);
        let name = g.sym("name").unwrap();
        assert_eq!(
            g.nodes_with_property(person, name, &Value::from("Bob")),
            vec![b]
        );
        assert_eq!(g.neighbours(a, Dir::Outgoing).len(), 2);
        assert_eq!(g.neighbours(b, Dir::Incoming), vec![(r, a)]);
        let knows = g.sym("KNOWS").unwrap();
        assert_eq!(g.degree(a, Dir::Both, Some(&[knows])), 1);

        // Mutations invalidate the property index.
        g.set_node_property(b, "name", Value::from("Bo"));
        assert!(g
            .nodes_with_property(person, name, &Value::from("Bob"))
            .is_empty());
        assert_eq!(
            g.nodes_with_property(person, name, &Value::from("Bo")),
            vec![b]
        );
        g.remove_label(b, "Person");
        assert_eq!(g.nodes_with_label(person), &[a]);
        assert!(g.remove_node(c));
        assert_eq!(g.relationship_count(), 1);
        // Setting null removes a property.
        g.set_node_property(a, "age", Value::Null);
        assert!(g.node_property(a, g.sym("age").unwrap()).is_none());
    }

    #[test]
    fn self_loops_are_reported_once_undirected() {
        let mut g = Graph::new();
        let a = g.add_node(&[], vec![]);
        g.add_relationship(a, a, "SELF", vec![]).unwrap();
        assert_eq!(g.neighbours(a, Dir::Both).len(), 1);
        assert_eq!(g.neighbours(a, Dir::Outgoing).len(), 1);
        assert_eq!(g.neighbours(a, Dir::Incoming).len(), 1);
    }
}
