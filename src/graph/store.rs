//! The in-memory property graph: node and relationship slots (`slots.rs`: element ids stay
//! valid when other elements are removed) with interned labels, types and property keys, a
//! label index, a compressed adjacency, and (label, property) → nodes hash indexes built on
//! first use.

use super::schema::{IndexDef, Schema};
use super::slots::{AdjEntry, Adjacency, Slots};
use crate::value::{GroupKey, NodeId, RelId, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
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

use super::props::{IntRead, StrRead, Values};
pub use super::props::{Prop, Props};

/// A node's labels and properties (properties sorted by key symbol, their values in the
/// graph's pools: read them with [`Graph::node_property`] and [`Graph::node_entries`]). A
/// clone refers to the same pooled values: it is only meaningful with a clone of the graph's
/// pools (as [`Graph`]'s `clone` makes).
#[derive(Clone, Debug, Default)]
pub struct NodeData {
    pub labels: smallvec::SmallVec<[Sym; 4]>,
    pub(super) props: Props,
}

/// A relationship's type and properties (read them with [`Graph::relationship_property`] and
/// [`Graph::relationship_entries`]).
#[derive(Clone, Debug)]
pub struct RelData {
    pub ty: Sym,
    pub(super) props: Props,
}

/// A node as the journal keeps it, outside the store: its properties decoded.
#[derive(Clone, Debug)]
struct LooseNode {
    labels: smallvec::SmallVec<[Sym; 4]>,
    props: Vec<(Sym, Value)>,
}

/// A relationship as the journal keeps it.
#[derive(Clone, Debug)]
struct LooseRel {
    ty: Sym,
    props: Vec<(Sym, Value)>,
}

/// Which way to follow relationships from a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Outgoing,
    Incoming,
    Both,
}

use super::prop_index::PropIndex;

/// Where a graph's bytes go ([`Graph::memory_stats`]): counts, and estimated bytes by part.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MemoryStats {
    pub nodes: usize,
    pub relationships: usize,
    /// Label assignments (a node with two labels counts two).
    pub labels: usize,
    /// Properties of nodes and relationships.
    pub properties: usize,
    /// Node records (slots with labels inline, and their list heads).
    pub node_bytes: usize,
    /// Relationship records (slots: type, endpoints, properties array, list links).
    pub relationship_bytes: usize,
    /// Labels kept outside the records, the label index and the label bitmaps.
    pub label_bytes: usize,
    /// Property arrays and the heap their values hold.
    pub property_bytes: usize,
    /// The compressed adjacency, when built.
    pub adjacency_bytes: usize,
    /// Property indexes built so far.
    pub index_bytes: usize,
    /// Interned labels, types and keys.
    pub symbol_bytes: usize,
    pub total_bytes: usize,
}

/// A bit per label (among the first 64) per node, one byte wide while at most eight labels
/// have bits (the common case: the array of a million nodes then takes 1 MB and stays in cache
/// during a scan), eight bytes wide from the ninth on.
#[derive(Clone, Debug)]
enum LabelBits {
    Narrow(Vec<u8>),
    Wide(Vec<u64>),
}

impl Default for LabelBits {
    fn default() -> Self {
        LabelBits::Narrow(Vec::new())
    }
}

impl LabelBits {
    #[inline]
    fn get(&self, i: usize) -> Option<u64> {
        match self {
            LabelBits::Narrow(v) => v.get(i).map(|b| u64::from(*b)),
            LabelBits::Wide(v) => v.get(i).copied(),
        }
    }

    /// Makes room for node `i` and sets bit `bit` of it (with `None`, only the room).
    fn set(&mut self, i: usize, bit: Option<u8>) {
        if let (LabelBits::Narrow(v), Some(8..)) = (&*self, bit) {
            *self = LabelBits::Wide(v.iter().map(|b| u64::from(*b)).collect());
        }
        match self {
            LabelBits::Narrow(v) => {
                if v.len() <= i {
                    v.resize(i + 1, 0);
                }
                if let Some(b) = bit {
                    v[i] |= 1 << b;
                }
            }
            LabelBits::Wide(v) => {
                if v.len() <= i {
                    v.resize(i + 1, 0);
                }
                if let Some(b) = bit {
                    v[i] |= 1 << b;
                }
            }
        }
    }

    fn clear(&mut self, i: usize, bit: u8) {
        match self {
            LabelBits::Narrow(v) => {
                if let Some(x) = v.get_mut(i) {
                    *x &= !(1u8.checked_shl(u32::from(bit)).unwrap_or(0));
                }
            }
            LabelBits::Wide(v) => {
                if let Some(x) = v.get_mut(i) {
                    *x &= !(1u64 << bit);
                }
            }
        }
    }

    fn bytes(&self) -> usize {
        match self {
            LabelBits::Narrow(v) => v.capacity(),
            LabelBits::Wide(v) => v.capacity() * 8,
        }
    }
}

/// A property graph.
#[derive(Debug, Default)]
pub struct Graph {
    s: Slots,
    /// The strings and other non-scalar values the records' properties refer to.
    vals: Values,
    syms: Interner,
    by_label: HashMap<Sym, Vec<NodeId>>,
    /// Per node (by index), a bit per label among the first 64 distinct labels
    /// (`label_bit`): label checks during matching read this compact array instead of the
    /// node's record. Kept in step with `by_label`.
    label_bits: LabelBits,
    /// The bit of each label symbol (`u8::MAX`: none, the label is past the first 64).
    label_bit: Vec<u8>,
    /// The relationships of every node as contiguous arrays (built on first expansion after a
    /// change; cleared by any mutation), so that expanding reads one block per node instead of
    /// following per-relationship links.
    adjacency: std::sync::OnceLock<Derived>,
    /// (label, key) → value → nodes indexes, built when lookups pay for them and kept up to
    /// date by every change to nodes (`reindex`); dropped by a rollback or a replay.
    prop_indexes: RwLock<HashMap<(Sym, Sym), Arc<PropIndex>>>,
    /// What the scans of each (label, key) have cost so far, against what its index would
    /// cost to build (see `nodes_with_property`); dropped with the indexes.
    prop_demand: std::sync::Mutex<HashMap<(Sym, Sym), Demand>>,
    /// Search structures of full-text and vector indexes, built on their first search (by
    /// index id); cleared by any mutation.
    search_indexes: RwLock<HashMap<i64, SearchIndex>>,
    /// The changes since the oldest open [`Savepoint`], when one is open.
    journal: Option<Vec<Change>>,
    /// Counts changes (see [`Graph::version`]).
    version: u64,
    /// Indexes and constraints.
    schema: Schema,
    /// The segments of quantized vector indexes, written as transactions commit
    /// (`super::vectors`).
    vector_segments: std::sync::Mutex<super::vectors::VectorSegments>,
    /// Per symbol, which kinds of token it has been in the graph (bits: `TOKEN_LABEL`,
    /// `TOKEN_TYPE`, `TOKEN_KEY`): Neo4j's token stores, which keep a name once anything used
    /// it, even after the last element with it is gone.
    token_kinds: Vec<u8>,
    /// State procedures keep beside the graph and outside its transactions (the Graph Data
    /// Science catalog of projected graphs), shared by every copy of the graph.
    plugin_state: PluginState,
}

/// Procedures' state beside a graph, by the name of its owner (see [`Graph::plugin_state`]).
#[derive(Clone, Default)]
pub struct PluginState(
    Arc<std::sync::Mutex<HashMap<&'static str, Arc<dyn std::any::Any + Send + Sync>>>>,
);

impl std::fmt::Debug for PluginState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PluginState")
    }
}

/// A label token (see [`Graph::has_token`]).
pub const TOKEN_LABEL: u8 = 1;
/// A relationship type token.
pub const TOKEN_TYPE: u8 = 2;
/// A property key token.
pub const TOKEN_KEY: u8 = 4;

/// A cached search structure (see [`Graph::search_index`]).
#[derive(Clone)]
struct SearchIndex(Arc<dyn std::any::Any + Send + Sync>);

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SearchIndex")
    }
}

/// One change, as the journal records it: enough to undo it, and to make it again on a copy of
/// the graph ([`Graph::replay`]).
#[derive(Clone, Debug)]
enum Change {
    AddNode {
        id: NodeId,
        data: LooseNode,
    },
    AddRel {
        id: RelId,
        start: NodeId,
        end: NodeId,
        data: LooseRel,
    },
    NodeProp {
        id: NodeId,
        key: Sym,
        old: Option<Value>,
        new: Value,
    },
    RelProp {
        id: RelId,
        key: Sym,
        old: Option<Value>,
        new: Value,
    },
    AddLabel {
        id: NodeId,
        label: Sym,
    },
    RemoveLabel {
        id: NodeId,
        label: Sym,
        pos: usize,
    },
    RemoveRel {
        id: RelId,
        start: NodeId,
        end: NodeId,
        data: LooseRel,
    },
    /// An isolated node's removal (its relationships are removed, and journaled, first).
    RemoveNode {
        id: NodeId,
        data: LooseNode,
    },
    /// A schema command: the indexes and constraints before and after it.
    Schema {
        old: Box<Schema>,
        new: Box<Schema>,
    },
}

/// A point in a graph's history to roll back to: statements and transactions take one before
/// they change anything, and either release it (keep the changes) or roll back to it. Changes
/// are journaled, not copied: a rollback undoes them one by one, newest first, and restores
/// every element under its old id.
#[derive(Debug)]
#[must_use = "a savepoint is released or rolled back to"]
pub struct Savepoint {
    len: usize,
    /// Whether this savepoint started the journal (and its release ends it).
    opened: bool,
}

/// The changes a transaction made, taken from its graph's journal to be made again on a copy
/// of the graph as it was when the transaction began ([`Graph::replay`]).
#[derive(Debug, Default)]
pub struct ChangeLog {
    changes: Vec<Change>,
}

impl ChangeLog {
    pub fn len(&self) -> usize {
        self.changes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

impl Clone for Graph {
    fn clone(&self) -> Self {
        Graph {
            s: self.s.clone(),
            vals: self.vals.clone(),
            syms: self.syms.clone(),
            by_label: self.by_label.clone(),
            label_bits: self.label_bits.clone(),
            label_bit: self.label_bit.clone(),
            adjacency: std::sync::OnceLock::new(),
            prop_indexes: RwLock::new(HashMap::new()),
            prop_demand: Default::default(),
            search_indexes: RwLock::new(HashMap::new()),
            journal: None,
            version: self.version,
            schema: self.schema.clone(),
            vector_segments: std::sync::Mutex::new(self.segments().clone()),
            token_kinds: self.token_kinds.clone(),
            plugin_state: self.plugin_state.clone(),
        }
    }
}

impl Graph {
    pub fn new() -> Self {
        Graph::default()
    }

    /// The state `owner` keeps beside this graph (made on first use), shared by every copy of
    /// the graph and untouched by its transactions.
    pub fn plugin_state<T: std::any::Any + Send + Sync + Default>(
        &self,
        owner: &'static str,
    ) -> Arc<T> {
        let mut m = self
            .plugin_state
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let entry = m
            .entry(owner)
            .or_insert_with(|| Arc::new(T::default()) as Arc<dyn std::any::Any + Send + Sync>);
        match entry.clone().downcast::<T>() {
            Ok(t) => t,
            Err(_) => {
                // One owner, one type; a second type under the same name starts afresh.
                let t = Arc::new(T::default());
                *entry = t.clone();
                t
            }
        }
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

    /// The name of symbol `id`, if the graph has that symbol.
    pub fn sym_name_get(&self, id: Sym) -> Option<&Arc<str>> {
        self.syms.names.get(id as usize)
    }

    // ---- sizes ----

    pub fn node_count(&self) -> usize {
        self.s.node_count()
    }
    pub fn relationship_count(&self) -> usize {
        self.s.rel_count()
    }

    /// Makes room for `nodes` more nodes and `relationships` more relationships (a bulk load
    /// that knows its counts grows its arrays once).
    pub fn reserve(&mut self, nodes: usize, relationships: usize) {
        self.s.reserve(nodes, relationships);
    }

    /// Builds the compressed adjacency now (it is otherwise built on the first expansion after
    /// a change).
    pub fn build_adjacency(&self) {
        let _ = self.adjacency();
    }

    /// Where the graph's bytes go: an estimate from the sizes and capacities of its structures
    /// (`grape graph stats`). Values count their own heap (strings, lists, maps) as if owned.
    pub fn memory_stats(&self) -> MemoryStats {
        use std::mem::size_of;
        let (node_bytes, relationship_bytes) = self.s.record_bytes();
        let mut st = MemoryStats {
            nodes: self.node_count(),
            relationships: self.relationship_count(),
            node_bytes,
            relationship_bytes,
            ..Default::default()
        };
        let prop_slot = size_of::<Prop>();
        for n in self.s.node_weights() {
            st.labels += n.labels.len();
            if n.labels.spilled() {
                st.label_bytes += n.labels.capacity() * size_of::<Sym>();
            }
            st.properties += n.props.len();
            st.property_bytes += n.props.len() * prop_slot + self.vals.heap_bytes(n.props);
        }
        for r in self.s.rel_weights() {
            st.properties += r.props.len();
            st.property_bytes += r.props.len() * prop_slot + self.vals.heap_bytes(r.props);
        }
        st.property_bytes += self.vals.spare_bytes(st.properties);
        st.label_bytes += self.label_bits.bytes()
            + self.label_bit.capacity()
            + self
                .by_label
                .values()
                .map(|v| v.capacity() * size_of::<NodeId>() + 32)
                .sum::<usize>();
        if let Some(d) = self.adjacency.get() {
            st.adjacency_bytes = d.implied.capacity() * size_of::<[u64; 2]>()
                + d.adj.starts.capacity() * size_of::<u32>()
                + d.adj.entries.capacity() * size_of::<AdjEntry>()
                + d.type_counts.capacity() * size_of::<usize>()
                + d.labelled
                    .iter()
                    .map(|c| {
                        size_of::<LabelledCounts>() + c.capacity() * size_of::<(u8, [u64; 2])>()
                    })
                    .sum::<usize>()
                + d.by_type.get().map_or(0, |v| {
                    v.iter()
                        .map(|l| l.capacity() * size_of::<RelId>() + 24)
                        .sum()
                })
                + d.added
                    .values()
                    .map(|[o, i]| {
                        (o.capacity() + i.capacity()) * size_of::<AdjEntry>()
                            + size_of::<(u32, [Vec<AdjEntry>; 2])>()
                    })
                    .sum::<usize>();
        }
        if let Ok(m) = self.prop_indexes.read() {
            st.index_bytes = m.values().map(|ix| ix.bytes()).sum();
        }
        st.symbol_bytes = (0..self.syms.len())
            .map(|i| self.syms.name(i as Sym).len() + 48)
            .sum();
        st.total_bytes = st.node_bytes
            + st.relationship_bytes
            + st.label_bytes
            + st.property_bytes
            + st.adjacency_bytes
            + st.index_bytes
            + st.symbol_bytes;
        st
    }

    // ---- reading ----

    pub fn contains_node(&self, n: NodeId) -> bool {
        self.s.contains_node(n)
    }
    pub fn contains_relationship(&self, r: RelId) -> bool {
        self.s.rel(r).is_some()
    }
    pub fn node(&self, n: NodeId) -> Option<&NodeData> {
        self.s.node(n)
    }
    pub fn relationship(&self, r: RelId) -> Option<&RelData> {
        self.s.rel(r).map(|s| &s.data)
    }
    /// Start and end node of a relationship.
    pub fn endpoints(&self, r: RelId) -> Option<(NodeId, NodeId)> {
        self.s.rel(r).map(|s| (s.start, s.end))
    }

    /// All node ids in id order.
    /// One more than the largest node id given so far (removed nodes leave their ids unused).
    pub fn node_id_bound(&self) -> usize {
        self.s.node_bound()
    }

    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.s.node_ids()
    }
    /// All relationship ids in id order.
    pub fn relationship_ids(&self) -> impl Iterator<Item = RelId> + '_ {
        self.s.rel_ids()
    }

    /// Nodes carrying `label` (in id order).
    pub fn nodes_with_label(&self, label: Sym) -> &[NodeId] {
        self.by_label
            .get(&label)
            .map(|v| v.as_slice())
            .unwrap_or(&[])
    }

    /// Whether node `n` has every label of `labels`, from the label bitmap: `None` when one of
    /// them has no bit (then ask the node's record).
    #[inline]
    pub fn has_labels_fast(&self, n: NodeId, labels: &[Sym]) -> Option<bool> {
        let bits = self.label_bits.get(n.0 as usize)?;
        let want = self.label_mask(labels)?;
        Some(bits & want == want)
    }

    /// Records that `n` has label `l` (label index and bitmap).
    fn label_on(&mut self, n: NodeId, l: Sym) {
        self.mark_token(l, TOKEN_LABEL);
        insert_sorted(self.by_label.entry(l).or_default(), n);
        let bit = self.bit_of(l);
        self.label_bits.set(n.0 as usize, bit);
    }

    /// Notes that `s` has been used as a token of `kind`.
    fn mark_token(&mut self, s: Sym, kind: u8) {
        let i = s as usize;
        if self.token_kinds.len() <= i {
            self.token_kinds.resize(i + 1, 0);
        }
        self.token_kinds[i] |= kind;
    }

    /// Whether `name` is a token of `kind` (`TOKEN_LABEL`, `TOKEN_TYPE`, `TOKEN_KEY`): used by
    /// some element once, whether or not any has it now.
    pub fn has_token(&self, kind: u8, name: &str) -> bool {
        self.syms
            .get(name)
            .and_then(|s| self.token_kinds.get(s as usize))
            .is_some_and(|k| k & kind != 0)
    }

    /// The names of the tokens of `kind`, in the order the graph first met the names.
    pub fn tokens(&self, kind: u8) -> Vec<Arc<str>> {
        self.token_kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| *k & kind != 0)
            .map(|(s, _)| self.syms.name(s as Sym).clone())
            .collect()
    }

    /// Records that `n` no longer has label `l`.
    fn label_off(&mut self, n: NodeId, l: Sym) {
        remove_sorted(self.by_label.get_mut(&l), n);
        if let Some(&b) = self.label_bit.get(l as usize) {
            if b != u8::MAX {
                self.label_bits.clear(n.0 as usize, b);
            }
        }
    }

    /// The bitmap bit of label `l`, assigned on first use while fewer than 64 are taken.
    fn bit_of(&mut self, l: Sym) -> Option<u8> {
        let i = l as usize;
        if self.label_bit.len() <= i {
            self.label_bit.resize(i + 1, u8::MAX);
        }
        if self.label_bit[i] == u8::MAX {
            let used = self.label_bit.iter().filter(|b| **b != u8::MAX).count();
            if used < 64 {
                self.label_bit[i] = used as u8;
            }
        }
        let b = self.label_bit[i];
        (b != u8::MAX).then_some(b)
    }

    pub fn has_label(&self, n: NodeId, label: Sym) -> bool {
        self.node(n).is_some_and(|d| d.labels.contains(&label))
    }

    pub fn node_property(&self, n: NodeId, key: Sym) -> Option<Value> {
        self.node(n).and_then(|d| self.vals.get(d.props, key))
    }
    /// [`Graph::node_property`] read as a string, borrowed, without building a value.
    #[inline]
    pub fn node_str_property(&self, n: NodeId, key: Sym) -> StrRead<'_> {
        match self.node(n) {
            Some(d) => self.vals.get_str(d.props, key),
            None => StrRead::Missing,
        }
    }

    /// Whether node `n`'s property `key` is equivalent to `value` (`=` for every stored value:
    /// they are never null or NaN), read without building a value where `value` is a string
    /// or an integer.
    #[inline]
    pub fn node_property_is(&self, n: NodeId, key: Sym, value: &Value) -> bool {
        match value {
            Value::String(s) => match self.node_str_property(n, key) {
                StrRead::Str(x) => x == &**s,
                StrRead::Missing => false,
                StrRead::Other => self
                    .node_property(n, key)
                    .is_some_and(|v| crate::value::equivalent(&v, value)),
            },
            Value::Int(i) => match self.node_int_property(n, key) {
                IntRead::Int(x) => x == *i,
                IntRead::Missing => false,
                IntRead::Other => self
                    .node_property(n, key)
                    .is_some_and(|v| crate::value::equivalent(&v, value)),
            },
            _ => self
                .node_property(n, key)
                .is_some_and(|v| crate::value::equivalent(&v, value)),
        }
    }

    /// [`Graph::node_property`] read as an integer, without building a value.
    #[inline]
    pub fn node_int_property(&self, n: NodeId, key: Sym) -> IntRead {
        match self.node(n) {
            Some(d) => self.vals.get_int(d.props, key),
            None => IntRead::Missing,
        }
    }
    /// [`Self::node_int_property`] for a scan over many nodes: `hint` remembers where in the
    /// record the key was last found, and is looked at first.
    #[inline]
    pub fn node_int_property_hinted(&self, n: NodeId, key: Sym, hint: &mut usize) -> IntRead {
        match self.node(n) {
            Some(d) => self.vals.get_int_hinted(d.props, key, hint),
            None => IntRead::Missing,
        }
    }
    pub fn relationship_property(&self, r: RelId, key: Sym) -> Option<Value> {
        self.relationship(r)
            .and_then(|d| self.vals.get(d.props, key))
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
        for (r, m) in self.neighbours_iter(n, dir, ty) {
            f(r, m);
        }
    }

    /// The relationships at `n` in direction `dir` of the given types, as (relationship, other
    /// node): outgoing first, then incoming (a self-loop once under `Both`), each in insertion
    /// order reversed; without allocating.
    pub fn neighbours_iter<'g>(
        &'g self,
        n: NodeId,
        dir: Dir,
        ty: Option<&'g [Sym]>,
    ) -> impl Iterator<Item = (RelId, NodeId)> + 'g {
        let d = self.derived();
        let (out, inc) = csr_lists(&d.adj, n, dir);
        // The relationships added since the adjacency was built come first (newest first).
        let (new_out, new_inc): (&[AdjEntry], &[AdjEntry]) =
            match (!d.added.is_empty()).then(|| d.added.get(&n.0)).flatten() {
                Some([o, i]) => (
                    if matches!(dir, Dir::Outgoing | Dir::Both) {
                        o
                    } else {
                        &[]
                    },
                    if matches!(dir, Dir::Incoming | Dir::Both) {
                        i
                    } else {
                        &[]
                    },
                ),
                None => (&[], &[]),
            };
        let both = dir == Dir::Both;
        let removed = (!d.removed.is_empty()).then_some(&d.removed);
        let kept = move |e: &&AdjEntry| removed.is_none_or(|x| !x.contains(&e.0));
        new_out
            .iter()
            .rev()
            .chain(out.iter().filter(kept))
            .chain(
                new_inc
                    .iter()
                    .rev()
                    .chain(inc.iter().filter(kept))
                    .filter(move |(_, m, _)| !(both && *m == n)),
            )
            .filter(move |(_, _, t)| ty.is_none_or(|ts| ts.contains(t)))
            .map(|&(r, m, _)| (r, m))
    }

    /// Whether relationships were added or removed since the compressed adjacency was built
    /// (the change is in [`Graph::neighbours_iter`], not in [`Graph::adjacency_lists`]).
    pub fn adjacency_patched(&self) -> bool {
        self.adjacency.get().is_some_and(|d| d.patches > 0)
    }

    /// The adjacency of `n` in direction `dir` as two lists of (relationship, other node,
    /// type): the outgoing relationships and the incoming ones (either empty when `dir`
    /// excludes it), each newest first. Under `Both` a self-loop is in both lists; callers
    /// skip it in the incoming one, as [`Graph::neighbours_iter`] does. Without the
    /// relationships added since the adjacency was built: a caller asks
    /// [`Graph::adjacency_patched`] first, and reads [`Graph::neighbours_iter`] when it is.
    pub fn adjacency_lists(&self, n: NodeId, dir: Dir) -> (&[AdjEntry], &[AdjEntry]) {
        debug_assert!(!self.adjacency_patched());
        csr_lists(self.adjacency(), n, dir)
    }
}

/// Node `n`'s lists in direction `dir` in the compressed adjacency `adj` (see
/// [`Graph::adjacency_lists`]).
fn csr_lists(adj: &Adjacency, n: NodeId, dir: Dir) -> (&[AdjEntry], &[AdjEntry]) {
    let i = n.0 as usize;
    {
        match adj.starts.get(2 * i..2 * i + 3) {
            Some(&[o, m, e]) => {
                let (o, m, e) = (o as usize, m as usize, e as usize);
                let out = if matches!(dir, Dir::Outgoing | Dir::Both) {
                    adj.entries.get(o..m).unwrap_or_default()
                } else {
                    &[]
                };
                let inc = if matches!(dir, Dir::Incoming | Dir::Both) {
                    adj.entries.get(m..e).unwrap_or_default()
                } else {
                    &[]
                };
                (out, inc)
            }
            _ => (&[], &[]),
        }
    }
}

impl Graph {
    /// Number of relationships at `n` in direction `dir` (of the given types).
    pub fn degree(&self, n: NodeId, dir: Dir, ty: Option<&[Sym]>) -> usize {
        let mut k = 0;
        self.for_each_neighbour(n, dir, ty, |_, _| k += 1);
        k
    }

    /// Nodes with `label` whose property `key` is equivalent to `value` (in label order).
    ///
    /// Through a hash index where one is built; otherwise a scan of the label, until the
    /// lookups of `label.key` have cost as much as building its index would (rent or buy: a
    /// single lookup never pays for an index over the whole label, a statement that seeks row
    /// after row gets one). An index the schema declares on `label.key` is built on its first
    /// lookup. Built indexes follow every change to nodes.
    pub fn nodes_with_property(&self, label: Sym, key: Sym, value: &Value) -> Vec<NodeId> {
        let index = match self.built_index(label, key) {
            Some(ix) => ix,
            None if self.buy_index(label, key) => self.property_index(label, key),
            None => {
                // The index groups by equivalence, and so does the scan: `=` differs only for
                // NaN and null, never stored.
                return self
                    .nodes_with_label(label)
                    .iter()
                    .copied()
                    .filter(|&n| self.node_property_is(n, key, value))
                    .collect();
            }
        };
        index.get(value)
    }

    /// The planner's estimate of the nodes an equality seek on `label.key` finds: the
    /// label's nodes over the distinct values (0 when the key is unknown or never set) — from
    /// the index where one is built, else from a sample of the label's nodes (no index is
    /// built to estimate).
    pub fn seek_estimate(&self, label: Sym, key: Option<Sym>) -> f64 {
        let Some(key) = key else {
            return 0.0;
        };
        if let Some(index) = self.built_index(label, key) {
            if index.is_empty() {
                return 0.0;
            }
            return self.nodes_with_label(label).len() as f64 / index.len() as f64;
        }
        let s = self.key_sample(label, key);
        if s.with_key == 0 {
            return 0.0;
        }
        // Nodes that have the key, over its distinct values: all distinct in the sample reads
        // as unique (one hit).
        if s.distinct == s.with_key {
            return 1.0;
        }
        s.having / s.distinct as f64
    }

    /// What a sample of the nodes with `label` says about their values of `key` (no index is
    /// built to find out): one node from each of 512 equal stretches of the label, at a
    /// pseudo-random place in its stretch (from a fixed seed), so that values that repeat
    /// with the node order (`i % 3000`) are not sampled in step with it.
    fn key_sample(&self, label: Sym, key: Sym) -> KeySample {
        const SAMPLE: usize = 512;
        let nodes = self.nodes_with_label(label);
        let step = nodes.len().div_ceil(SAMPLE).max(1);
        let mut counts: HashMap<GroupKey, u32> = HashMap::new();
        let (mut sampled, mut with_key, mut ints) = (0usize, 0usize, 0usize);
        // A fixed seed: the same graph gives the same sample.
        let mut rng = crate::rng::SplitMix64(0);
        for stretch in nodes.chunks(step) {
            let n = stretch[rng.below(stretch.len())];
            sampled += 1;
            if let Some(v) = self.node_property(n, key) {
                with_key += 1;
                ints += usize::from(matches!(v, Value::Int(_)));
                *counts.entry(GroupKey(v)).or_insert(0) += 1;
            }
        }
        let having = match sampled {
            0 => 0.0,
            _ => nodes.len() as f64 * with_key as f64 / sampled as f64,
        };
        // Distinct values among the nodes that have the key: all distinct in the sample reads
        // as all distinct; otherwise the values seen once stand for sqrt(having / sample) each
        // (the GEE estimator), the others for themselves.
        let once = counts.values().filter(|&&c| c == 1).count();
        let distinct_all = if counts.len() == with_key {
            having
        } else {
            let scale = (having / with_key.max(1) as f64).sqrt();
            scale * once as f64 + (counts.len() - once) as f64
        };
        KeySample {
            with_key,
            distinct: counts.len(),
            having,
            distinct_all,
            all_ints: ints == with_key,
        }
    }

    /// What building the index of `label.key` costs, in node reads of a scan (the unit a
    /// lookup without it pays: one per node with the label). Measured on 500,000 nodes
    /// (`a_lookup_scans_until_an_index_pays` keeps the model's order): a build reads and
    /// files each node, about 7 reads' worth for an integer, 12 for other values (decoded, a
    /// string copied), and makes an entry per distinct value, about 30 reads for an integer
    /// and 110 for other values (a string hashed, kept, its node list started).
    fn index_build_cost(&self, label: Sym, key: Sym) -> u64 {
        let nodes = self.nodes_with_label(label).len() as f64;
        let s = self.key_sample(label, key);
        let (per_node, per_value) = if s.all_ints {
            (7.0, 30.0)
        } else {
            (12.0, 110.0)
        };
        (nodes * per_node + s.distinct_all * per_value).ceil() as u64
    }

    /// The index of `label.key`, if it is built.
    fn built_index(&self, label: Sym, key: Sym) -> Option<Arc<PropIndex>> {
        self.prop_indexes.read().ok()?.get(&(label, key)).cloned()
    }

    /// Whether the lookup about to run on `label.key` should build its index: the schema
    /// declares one, or the scans so far, this one included, have read as many nodes as a
    /// build would cost (`index_build_cost`, estimated at the first lookup and again when
    /// the label has doubled or halved since): rent or buy, so that, as far as the estimate
    /// holds, lookups cost at most about twice what the best choice in hindsight would.
    fn buy_index(&self, label: Sym, key: Sym) -> bool {
        if self.declares_index(label, key) {
            return true;
        }
        let Ok(mut demand) = self.prop_demand.lock() else {
            return true;
        };
        let size = self.nodes_with_label(label).len();
        let d = demand.entry((label, key)).or_insert_with(|| Demand {
            scanned: 0,
            build: self.index_build_cost(label, key),
            size,
        });
        // Estimated again when the label has doubled or halved since.
        if size > d.size.saturating_mul(2) || size < d.size / 2 {
            d.build = self.index_build_cost(label, key);
            d.size = size;
        }
        d.scanned += size.max(1) as u64;
        d.scanned >= d.build
    }

    /// The node reads the scans of `label.key` have cost so far, and its index's estimated
    /// build cost (before the index is built).
    #[cfg(test)]
    pub(crate) fn lookup_demand(&self, label: &str, key: &str) -> Option<(u64, u64)> {
        let (l, k) = (self.sym(label)?, self.sym(key)?);
        let d = *self.prop_demand.lock().ok()?.get(&(l, k))?;
        Some((d.scanned, d.build))
    }

    /// Whether the schema declares a range or text index (or a constraint backed by one) on
    /// `label.key` alone: what Neo4j's planner seeks an equality through (`NodeIndexSeek`).
    /// Without one, `EXPLAIN` shows the label scan and filter Neo4j plans (grape's own lookup
    /// structure, built on demand, is how that filter runs, not an index the user has).
    pub fn declares_seekable_index(&self, label: &str, key: &str) -> bool {
        self.schema.indexes().iter().any(|ix| {
            ix.entity == super::schema::EntityType::Node
                && matches!(
                    ix.kind,
                    crate::syntax::IndexKind::Range | crate::syntax::IndexKind::Text
                )
                && ix.labels_or_types.iter().any(|x| &**x == label)
                && ix.properties.len() == 1
                && &*ix.properties[0] == key
        })
    }

    /// Whether the schema declares an index (or a constraint backed by one) whose first
    /// property is `label.key`.
    fn declares_index(&self, label: Sym, key: Sym) -> bool {
        let (l, k) = (self.sym_name(label), self.sym_name(key));
        self.schema.indexes().iter().any(|ix| {
            ix.entity == super::schema::EntityType::Node
                && ix.labels_or_types.iter().any(|x| x == l)
                && ix.properties.first() == Some(k)
        })
    }

    fn property_index(&self, label: Sym, key: Sym) -> Arc<PropIndex> {
        if let Some(ix) = self.built_index(label, key) {
            return ix;
        }
        let mut ix: PropIndex = PropIndex::default();
        for &n in self.nodes_with_label(label) {
            // NaN equals nothing: the index leaves it out, and no lookup finds it.
            if let Some(v) = self.node_property(n, key) {
                ix.add(v, n);
            }
        }
        let ix = Arc::new(ix);
        if let Ok(mut map) = self.prop_indexes.write() {
            map.insert((label, key), ix.clone());
        }
        ix
    }

    /// The search structure of index `index_id` (a full-text index, the vectors of a vector
    /// index) as `build` makes it, built once until the graph changes.
    pub(crate) fn search_index<T: std::any::Any + Send + Sync, E>(
        &self,
        index_id: i64,
        build: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        if let Ok(map) = self.search_indexes.read() {
            if let Some(ix) = map.get(&index_id) {
                if let Ok(ix) = ix.0.clone().downcast::<T>() {
                    return Ok(ix);
                }
            }
        }
        let ix = Arc::new(build()?);
        if let Ok(mut map) = self.search_indexes.write() {
            map.insert(index_id, SearchIndex(ix.clone()));
        }
        Ok(ix)
    }

    /// The labels of `n` as names, in the order Neo4j lists them: by label token, that is by
    /// the first use of each label in the graph (not by when this node got it).
    pub fn labels(&self, n: NodeId) -> Vec<Arc<str>> {
        self.node(n)
            .map(|d| {
                let mut syms: Vec<Sym> = d.labels.to_vec();
                syms.sort_unstable();
                syms.into_iter().map(|l| self.sym_name(l).clone()).collect()
            })
            .unwrap_or_default()
    }

    /// The type name of `r`.
    pub fn rel_type(&self, r: RelId) -> Option<Arc<str>> {
        self.relationship(r).map(|d| self.sym_name(d.ty).clone())
    }

    /// The properties of a node as a map value.
    pub fn node_properties(&self, n: NodeId) -> BTreeMap<Arc<str>, Value> {
        self.node(n)
            .map(|d| self.props_map(d.props))
            .unwrap_or_default()
    }
    /// The properties of a relationship as a map value.
    pub fn relationship_properties(&self, r: RelId) -> BTreeMap<Arc<str>, Value> {
        self.relationship(r)
            .map(|d| self.props_map(d.props))
            .unwrap_or_default()
    }
    fn props_map(&self, props: Props) -> BTreeMap<Arc<str>, Value> {
        self.vals
            .entries(props)
            .map(|(k, v)| (self.sym_name(k).clone(), v))
            .collect()
    }

    /// A node's properties by key symbol, in symbol order (empty for no such node).
    pub fn node_entries(&self, n: NodeId) -> Vec<(Sym, Value)> {
        self.node(n)
            .map(|d| self.vals.entries(d.props).collect())
            .unwrap_or_default()
    }
    /// A relationship's properties by key symbol, in symbol order.
    pub fn relationship_entries(&self, r: RelId) -> Vec<(Sym, Value)> {
        self.relationship(r)
            .map(|d| self.vals.entries(d.props).collect())
            .unwrap_or_default()
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

    /// A number that changes with every change to the graph: what is derived from the graph
    /// (a compiled pattern, an index) stays valid while it does not change.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// A change that the property indexes do not follow (a rollback, a replay): everything
    /// derived from the graph is dropped.
    fn touch(&mut self) {
        self.touch_data();
        if let Ok(m) = self.prop_indexes.get_mut() {
            m.clear();
        }
        if let Ok(m) = self.prop_demand.get_mut() {
            m.clear();
        }
    }

    /// A change that keeps the property indexes up to date itself (`reindex`): the rest of
    /// what is derived from the graph is dropped.
    fn touch_data(&mut self) {
        self.touch_values();
        self.adjacency.take();
    }

    /// A change to nodes' or relationships' values alone, or a new node (which has no
    /// relationships yet): the adjacency and what is read off it stay true; the rest of what
    /// is derived from the graph is dropped.
    fn touch_values(&mut self) {
        self.version = self.version.wrapping_add(1);
        if let Ok(m) = self.search_indexes.get_mut() {
            m.clear();
        }
    }

    /// Label `l` was added to (`delta` 1) or removed from (`delta` -1) node `n`: the per-label
    /// counts of the types of `n`'s relationships, and the labels those types imply, follow.
    fn patch_label(&mut self, n: NodeId, l: Sym, delta: i64) {
        self.touch_values();
        let Some(bit) = self.label_mask(&[l]).map(|m| m.trailing_zeros() as u8) else {
            return;
        };
        if self.adjacency.get().is_none() {
            return;
        }
        // (Side 0: `n` is the relationship's end; side 1: its start. A self-loop is both.)
        let mut sides: Vec<(Sym, usize)> = Vec::new();
        {
            let d = self.derived();
            for (k, side) in [(0usize, 1usize), (1, 0)] {
                let dir = if k == 0 { Dir::Outgoing } else { Dir::Incoming };
                let (csr_out, csr_in) = csr_lists(&d.adj, n, dir);
                let csr = if k == 0 { csr_out } else { csr_in };
                let new = d.added.get(&n.0).map_or(&[][..], |a| a[k].as_slice());
                for e in new.iter().chain(csr.iter()) {
                    if !d.removed.contains(&e.0) {
                        sides.push((e.2, side));
                    }
                }
            }
        }
        let Some(d) = self.adjacency.get_mut() else {
            return;
        };
        if sides.is_empty() {
            return;
        }
        let labelled = Arc::make_mut(&mut d.labelled);
        for &(t, side) in &sides {
            count_bits(&mut labelled[t as usize], 1 << bit, side, delta);
        }
        let mut types: Vec<Sym> = sides.iter().map(|&(t, _)| t).collect();
        types.sort_unstable();
        types.dedup();
        for t in types {
            d.imply(t as usize);
        }
    }

    /// A relationship from `start` to `end` was added or removed: the label bits of its two
    /// nodes when a built adjacency is to be patched for it (counted as a patch); `None` when
    /// none is built, or when the patches have reached an eighth of it (then it is dropped,
    /// to be built anew on its next use).
    fn patch_relationship(&mut self, start: NodeId, end: NodeId) -> Option<(u64, u64)> {
        self.touch_values();
        let bits = |n: NodeId| self.label_bits.get(n.0 as usize).unwrap_or(0);
        let (start_bits, end_bits) = (bits(start), bits(end));
        let d = self.adjacency.get_mut()?;
        if d.patches >= 1024 + d.adj.entries.len() / 8 {
            self.adjacency.take();
            return None;
        }
        d.patches += 1;
        Some((start_bits, end_bits))
    }

    /// Relationship `r` (from `start` to `end`, of type `t`) was added: a built adjacency is
    /// patched — the entries kept beside it, the counts, the labels implied and the type's
    /// scan list brought up to date — while the patches stay small beside it (past that, it is
    /// built anew on its next use).
    fn patch_added_relationship(&mut self, r: RelId, start: NodeId, end: NodeId, t: Sym) {
        let Some((start_bits, end_bits)) = self.patch_relationship(start, end) else {
            return;
        };
        let Some(d) = self.adjacency.get_mut() else {
            return;
        };
        d.added.entry(start.0).or_default()[0].push((r, end, t));
        d.added.entry(end.0).or_default()[1].push((r, start, t));
        let ti = t as usize;
        if d.implied.len() <= ti {
            d.implied.resize(ti + 1, [u64::MAX; 2]);
            d.type_counts.resize(ti + 1, 0);
        }
        // (Side 0: the relationships' end nodes; side 1: their start nodes.)
        d.implied[ti][0] &= end_bits;
        d.implied[ti][1] &= start_bits;
        d.type_counts[ti] += 1;
        let labelled = Arc::make_mut(&mut d.labelled);
        if labelled.len() <= ti {
            labelled.resize_with(ti + 1, Vec::new);
        }
        count_bits(&mut labelled[ti], end_bits, 0, 1);
        count_bits(&mut labelled[ti], start_bits, 1, 1);
        // The type's scan list stays in id order: a relationship in a reused slot (a lower
        // id) has it made again.
        if let Some(lists) = d.by_type.get_mut() {
            if lists.len() <= ti {
                lists.resize_with(ti + 1, Vec::new);
            }
            match lists[ti].last() {
                Some(&last) if last > r => d.by_type = std::sync::OnceLock::new(),
                _ => lists[ti].push(r),
            }
        }
    }

    /// Relationship `r` (from `start` to `end`, of type `t`) was removed: a built adjacency
    /// is patched (see [`Graph::patch_added_relationship`]): its entries skipped or taken out
    /// of the added ones, the counts and the labels implied brought up to date, the type's
    /// scan list made again when next read.
    fn patch_removed_relationship(&mut self, r: RelId, start: NodeId, end: NodeId, t: Sym) {
        let Some((start_bits, end_bits)) = self.patch_relationship(start, end) else {
            return;
        };
        let Some(d) = self.adjacency.get_mut() else {
            return;
        };
        let mut was_added = false;
        for (n, k) in [(start, 0usize), (end, 1)] {
            if let Some(lists) = d.added.get_mut(&n.0) {
                if let Some(at) = lists[k].iter().position(|e| e.0 == r) {
                    lists[k].remove(at);
                    was_added = true;
                }
            }
        }
        if !was_added {
            d.removed.insert(r);
        }
        let ti = t as usize;
        if let Some(c) = d.type_counts.get_mut(ti) {
            *c = c.saturating_sub(1);
        }
        let labelled = Arc::make_mut(&mut d.labelled);
        if let Some(per) = labelled.get_mut(ti) {
            count_bits(per, end_bits, 0, -1);
            count_bits(per, start_bits, 1, -1);
        }
        d.imply(ti);
        d.by_type = std::sync::OnceLock::new();
    }

    /// The keys of the built property indexes of `label`.
    fn indexed_keys(&mut self, label: Sym) -> smallvec::SmallVec<[Sym; 4]> {
        match self.prop_indexes.get_mut() {
            Ok(m) if !m.is_empty() => m
                .keys()
                .filter(|(l, _)| *l == label)
                .map(|(_, k)| *k)
                .collect(),
            _ => smallvec::SmallVec::new(),
        }
    }

    /// Adds (`add`) or removes node `n` under `value` in the built index of `label.key`, if
    /// there is one. NaN and null are never indexed (no lookup finds them).
    fn reindex(&mut self, label: Sym, key: Sym, n: NodeId, value: &Value, add: bool) {
        if value.is_null() || matches!(value, Value::Float(f) if f.is_nan()) {
            return;
        }
        let Ok(map) = self.prop_indexes.get_mut() else {
            return;
        };
        let Some(ix) = map.get_mut(&(label, key)) else {
            return;
        };
        let ix = Arc::make_mut(ix);
        if add {
            ix.add(value.clone(), n);
        } else {
            ix.remove(value, n);
        }
    }

    /// Adds or removes node `n`, with these labels and properties, in every built index.
    fn reindex_node(&mut self, n: NodeId, labels: &[Sym], props: &[(Sym, Value)], add: bool) {
        for &l in labels {
            for k in self.indexed_keys(l) {
                if let Some((_, v)) = props.iter().find(|(pk, _)| *pk == k) {
                    self.reindex(l, k, n, v, add);
                }
            }
        }
    }

    fn adjacency(&self) -> &Adjacency {
        &self.derived().adj
    }

    /// The adjacency and what is read off it, built on first use after a change.
    fn derived(&self) -> &Derived {
        self.adjacency.get_or_init(|| {
            #[cfg(test)]
            DERIVED_BUILDS.with(|c| c.set(c.get() + 1));
            let adj = self.s.adjacency();
            let (implied, type_counts, labelled) = self.implied_by_types(&adj);
            Derived {
                adj,
                implied,
                type_counts,
                labelled,
                by_type: std::sync::OnceLock::new(),
                added: HashMap::new(),
                removed: HashSet::new(),
                patches: 0,
            }
        })
    }

    /// How many relationships each type has and the labels each implies at its ends, as the
    /// graph is now (the planner's statistics; built with the adjacency).
    pub fn relationship_stats(&self) -> RelStats {
        let d = self.derived();
        RelStats {
            counts: d.type_counts.clone(),
            implied: d.implied.clone(),
            labelled: d.labelled.clone(),
        }
    }

    /// [`Graph::relationship_stats`] when the adjacency is built (reading them costs nothing
    /// then); `None` otherwise.
    pub fn relationship_stats_if_built(&self) -> Option<RelStats> {
        self.adjacency.get().map(|d| RelStats {
            counts: d.type_counts.clone(),
            implied: d.implied.clone(),
            labelled: d.labelled.clone(),
        })
    }

    /// The relationships of type `t`, in id order (a relationship type scan's order, as
    /// Neo4j's). Built for every type on the first call after a change: one pass over the
    /// relationships.
    pub fn relationships_of_type(&self, t: Sym) -> &[RelId] {
        let d = self.derived();
        let lists = d.by_type.get_or_init(|| {
            let mut lists: Vec<Vec<RelId>> = d
                .type_counts
                .iter()
                .map(|&n| Vec::with_capacity(n))
                .collect();
            for r in self.s.rel_ids() {
                if let Some(ty) = self.s.rel(r).map(|s| s.data.ty as usize) {
                    if lists.len() <= ty {
                        lists.resize_with(ty + 1, Vec::new);
                    }
                    lists[ty].push(r);
                }
            }
            lists
        });
        lists.get(t as usize).map_or(&[], |l| l.as_slice())
    }

    /// Per relationship type, the label bits every end node of the type's relationships has
    /// and those every start node has, how many relationships it has, and how many of them
    /// have a node with each label bit at their end and at their start (Neo4j's count store:
    /// `()-[:T]->(:L)`, `(:L)-[:T]->()`): one pass over the adjacency, each node's bits read
    /// once (a node is the end of its incoming entries and the start of its outgoing ones;
    /// each relationship is one outgoing entry).
    #[allow(clippy::type_complexity)]
    fn implied_by_types(
        &self,
        adj: &Adjacency,
    ) -> (Vec<[u64; 2]>, Vec<usize>, Arc<Vec<LabelledCounts>>) {
        let mut implied: Vec<[u64; 2]> = Vec::new();
        let mut counts: Vec<usize> = Vec::new();
        let mut labelled: Vec<LabelledCounts> = Vec::new();
        for (i, w) in adj.starts.windows(2).enumerate() {
            let (from, to) = (w[0] as usize, w[1] as usize);
            let Some(list) = adj.entries.get(from..to) else {
                continue;
            };
            // Even windows are a node's outgoing list, odd ones its incoming list.
            let (node, incoming) = (i / 2, i % 2 == 1);
            let bits = self.label_bits.get(node).unwrap_or(0);
            for &(_, _, t) in list {
                let t = t as usize;
                if implied.len() <= t {
                    implied.resize(t + 1, [u64::MAX; 2]);
                    counts.resize(t + 1, 0);
                    labelled.resize_with(t + 1, Vec::new);
                }
                let side = usize::from(!incoming);
                implied[t][side] &= bits;
                counts[t] += side;
                count_bits(&mut labelled[t], bits, side, 1);
            }
        }
        (implied, counts, Arc::new(labelled))
    }

    /// The label bits that every node reached over a relationship of one of `types` in
    /// direction `dir` has, as the graph is now (0 when none is known): those labels need
    /// not be checked on such a node. Rebuilt with the adjacency after any change.
    pub fn labels_implied(&self, types: &[Sym], dir: Dir) -> u64 {
        implied_bits(&self.derived().implied, types, dir)
    }
}

#[cfg(test)]
thread_local! {
    /// How many times this thread built a graph's adjacency (`Graph::derived`).
    static DERIVED_BUILDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many times this thread built a graph's adjacency (for tests of how often it is).
#[cfg(test)]
pub(crate) fn derived_builds() -> usize {
    DERIVED_BUILDS.get()
}

/// What the planner knows of a graph's relationships (`Graph::relationship_stats`): per type
/// (indexed by its symbol), how many relationships have it, and the label bits every end node
/// (`[0]`) and every start node (`[1]`) of those relationships has.
#[derive(Clone, Debug, Default)]
pub struct RelStats {
    counts: Vec<usize>,
    implied: Vec<[u64; 2]>,
    labelled: Arc<Vec<LabelledCounts>>,
}

/// Per label bit that occurs, how many relationships of one type have a node with it at
/// their end (`[0]`) and at their start (`[1]`).
type LabelledCounts = Vec<(u8, [u64; 2])>;

impl RelStats {
    /// How many relationships have type `t`.
    pub fn count(&self, t: Sym) -> usize {
        self.counts.get(t as usize).copied().unwrap_or(0)
    }

    /// How many relationships of type `t` have a node with label bit `bit` (see
    /// [`Graph::label_mask`]) on the side `dir` reaches: their end node for `Outgoing`, their
    /// start node for `Incoming` (Neo4j's count store, `()-[:T]->(:L)` and `(:L)-[:T]->()`).
    /// `Both` counts either side.
    pub fn count_reaching(&self, t: Sym, dir: Dir, bit: u32) -> u64 {
        let Some(c) = self.labelled.get(t as usize) else {
            return 0;
        };
        let Some((_, [end, start])) = c.iter().find(|(b, _)| u32::from(*b) == bit) else {
            return 0;
        };
        match dir {
            Dir::Outgoing => *end,
            Dir::Incoming => *start,
            Dir::Both => end + start,
        }
    }

    /// [`Graph::labels_implied`], as the statistics were taken.
    pub fn labels_implied(&self, types: &[Sym], dir: Dir) -> u64 {
        implied_bits(&self.implied, types, dir)
    }
}

/// The label bits every node reached over `types` in direction `dir` has, from per-type bits.
fn implied_bits(implied: &[[u64; 2]], types: &[Sym], dir: Dir) -> u64 {
    let mut bits = u64::MAX;
    for &t in types {
        let [end, start] = implied.get(t as usize).copied().unwrap_or([0, 0]);
        bits &= match dir {
            Dir::Outgoing => end,
            Dir::Incoming => start,
            Dir::Both => end & start,
        };
    }
    if types.is_empty() {
        0
    } else {
        bits
    }
}

impl Graph {
    /// The label bits of `labels`, if each of them has one.
    #[inline]
    pub fn label_mask(&self, labels: &[Sym]) -> Option<u64> {
        let mut want = 0u64;
        for l in labels {
            match self.label_bit.get(*l as usize) {
                Some(&b) if b != u8::MAX => want |= 1 << b,
                _ => return None,
            }
        }
        Some(want)
    }

    fn log(&mut self, c: impl FnOnce() -> Change) {
        if let Some(j) = &mut self.journal {
            j.push(c());
        }
    }

    // ---- schema ----

    /// The graph's indexes and constraints.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Changes the indexes and constraints (journaled: a rollback undoes it). `f` returns
    /// whether it changed anything (and must leave the schema as it was when it did not).
    pub fn update_schema(&mut self, f: impl FnOnce(&mut Schema) -> bool) -> bool {
        let old = self.schema.clone();
        let out = f(&mut self.schema);
        if out {
            self.version = self.version.wrapping_add(1);
            let new = Box::new(self.schema.clone());
            self.log(|| Change::Schema {
                old: Box::new(old),
                new,
            });
            self.build_declared_indexes();
        }
        out
    }

    /// Builds the property lookups of the indexes the schema declares on nodes (range or text,
    /// by their first property) over the nodes there are, as Neo4j populates an index when it
    /// is created: a seek through a declared index never pays for the build. (Writes keep them
    /// up to date; a label or key the graph does not have yet is built on its first lookup.)
    fn build_declared_indexes(&self) {
        let wanted: Vec<(Sym, Sym)> = self
            .schema
            .indexes()
            .iter()
            .filter(|ix| {
                ix.entity == super::schema::EntityType::Node
                    && matches!(
                        ix.kind,
                        crate::syntax::IndexKind::Range | crate::syntax::IndexKind::Text
                    )
            })
            .filter_map(|ix| Some((ix.labels_or_types.first()?, ix.properties.first()?)))
            .filter_map(|(l, k)| Some((self.sym(l)?, self.sym(k)?)))
            .collect();
        for (l, k) in wanted {
            if self.built_index(l, k).is_none() {
                self.property_index(l, k);
            }
        }
    }

    /// Whether the open transaction (the journal) created node `n`.
    pub fn created_in_transaction(&self, n: NodeId) -> bool {
        self.journal.as_ref().is_some_and(|j| {
            j.iter()
                .any(|c| matches!(c, Change::AddNode { id, .. } if *id == n))
        })
    }

    /// The nodes and relationships added or changed (properties, labels) since `sp`, each
    /// once, in id order; removed ones are left out.
    pub fn touched_since(&self, sp: &Savepoint) -> (Vec<NodeId>, Vec<RelId>) {
        let mut nodes = Vec::new();
        let mut rels = Vec::new();
        if let Some(j) = &self.journal {
            for c in j.iter().skip(sp.len) {
                match c {
                    Change::AddNode { id, .. }
                    | Change::NodeProp { id, .. }
                    | Change::AddLabel { id, .. } => nodes.push(*id),
                    Change::AddRel { id, .. } | Change::RelProp { id, .. } => rels.push(*id),
                    _ => {}
                }
            }
        }
        nodes.sort_unstable();
        nodes.dedup();
        nodes.retain(|n| self.contains_node(*n));
        rels.sort_unstable();
        rels.dedup();
        rels.retain(|r| self.contains_relationship(*r));
        (nodes, rels)
    }

    // ---- savepoints ----

    /// Starts recording changes (if nothing records them yet) and marks the present.
    pub fn savepoint(&mut self) -> Savepoint {
        match &self.journal {
            Some(j) => Savepoint {
                len: j.len(),
                opened: false,
            },
            None => {
                self.journal = Some(Vec::new());
                Savepoint {
                    len: 0,
                    opened: true,
                }
            }
        }
    }

    /// Undoes every change made since `sp`, newest first. Returns whether every element came
    /// back under its old id (always, unless the graph was changed behind the journal's back).
    pub fn rollback_to(&mut self, sp: &Savepoint) -> bool {
        let Some(mut j) = self.journal.take() else {
            return true;
        };
        let mut exact = true;
        while j.len() > sp.len {
            let c = j.pop().expect("a journaled change");
            exact &= self.undo(c);
        }
        self.journal = Some(j);
        self.settle_props();
        self.touch();
        exact
    }

    /// Keeps the changes made since `sp`; the savepoint that started the journal ends it.
    pub fn release(&mut self, sp: Savepoint) {
        if sp.opened {
            if let Some(changes) = self.journal.take() {
                self.committed(&changes);
            }
        }
    }

    /// The vector segments, whatever a panicking holder left.
    fn segments(&self) -> std::sync::MutexGuard<'_, super::vectors::VectorSegments> {
        self.vector_segments
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// A transaction's changes are kept: quantized vector indexes write a segment of the
    /// vectors it added or changed.
    fn committed(&mut self, changes: &[Change]) {
        if !self.schema.indexes().iter().any(super::vectors::tracked) {
            return;
        }
        let (mut nodes, mut rels) = (Vec::new(), Vec::new());
        let (mut seen_nodes, mut seen_rels) = (HashSet::new(), HashSet::new());
        for c in changes {
            match c {
                Change::AddNode { id, .. }
                | Change::NodeProp { id, .. }
                | Change::AddLabel { id, .. }
                | Change::RemoveLabel { id, .. }
                | Change::RemoveNode { id, .. } => {
                    if seen_nodes.insert(*id) {
                        nodes.push(*id);
                    }
                }
                Change::AddRel { id, .. }
                | Change::RelProp { id, .. }
                | Change::RemoveRel { id, .. } => {
                    if seen_rels.insert(*id) {
                        rels.push(*id);
                    }
                }
                Change::Schema { .. } => {}
            }
        }
        let this: &Graph = self;
        this.segments().commit(this, &nodes, &rels);
    }

    /// What a search of the vector index `index` reads, its segments brought up to date with
    /// the graph.
    pub(crate) fn indexed_vectors(&self, index: &IndexDef) -> super::vectors::IndexedVectors {
        let mut segments = self.segments();
        if self.journal.is_some() {
            // Inside a transaction: its changes are not committed, so they write no segment.
            let mut copy = segments.clone();
            drop(segments);
            return copy.snapshot(self, index);
        }
        segments.snapshot(self, index)
    }

    /// Ends the journal of the transaction that opened `sp` and returns its changes, to be
    /// made again on another copy of the graph with [`Graph::replay`].
    pub fn commit(&mut self, sp: Savepoint) -> ChangeLog {
        let changes = self.journal.take().unwrap_or_default();
        if !sp.opened {
            // A nested savepoint: the outer one still records.
            self.journal = Some(changes);
            return ChangeLog::default();
        }
        self.committed(&changes);
        ChangeLog { changes }
    }

    /// Makes the changes of `log` (taken from `from`, a copy of this graph that has gone
    /// further) on this graph. Returns `false` when an element would get another id than it
    /// has in `from`: this graph is then no longer a copy of `from` and must be replaced.
    pub fn replay(&mut self, log: &ChangeLog, from: &Graph) -> bool {
        self.touch();
        let tr = |g: &mut Graph, s: Sym| g.syms.intern(from.sym_name(s));
        let tr_props = |g: &mut Graph, props: &[(Sym, Value)]| -> Vec<(Sym, Value)> {
            props.iter().map(|(k, v)| (tr(g, *k), v.clone())).collect()
        };
        for c in &log.changes {
            let ok = match c {
                Change::AddNode { id, data } => {
                    let labels = data.labels.iter().map(|l| tr(self, *l)).collect();
                    let props = tr_props(self, &data.props);
                    self.add_node_syms(labels, props) == *id
                }
                Change::AddRel {
                    id,
                    start,
                    end,
                    data,
                } => {
                    let ty = tr(self, data.ty);
                    let props = tr_props(self, &data.props);
                    self.add_relationship_syms(*start, *end, ty, props) == Some(*id)
                }
                Change::NodeProp { id, key, new, .. } => {
                    let key = tr(self, *key);
                    self.set_node_property_sym(*id, key, new.clone())
                }
                Change::RelProp { id, key, new, .. } => {
                    let key = tr(self, *key);
                    self.set_relationship_property_sym(*id, key, new.clone())
                }
                Change::AddLabel { id, label } => {
                    let l = tr(self, *label);
                    self.add_label_sym(*id, l)
                }
                Change::RemoveLabel { id, label, .. } => {
                    let l = tr(self, *label);
                    self.remove_label_sym(*id, l)
                }
                Change::RemoveRel { id, .. } => self.remove_relationship(*id),
                Change::RemoveNode { id, .. } => self.remove_node(*id),
                Change::Schema { new, .. } => {
                    self.schema = (**new).clone();
                    true
                }
            };
            if !ok {
                return false;
            }
        }
        let segments = from.segments().clone();
        *self.segments() = segments;
        self.node_count() == from.node_count()
            && self.relationship_count() == from.relationship_count()
    }

    /// Undoes one change; `false` if an element did not come back under its old id.
    fn undo(&mut self, c: Change) -> bool {
        match c {
            Change::AddNode { id, .. } => {
                let ok = self.unlink_node(id);
                self.s.unallocate_node(id);
                ok
            }
            Change::AddRel { id, .. } => {
                let ok = match self.s.remove_rel(id) {
                    Some(slot) => {
                        self.vals.release_all(slot.data.props);
                        true
                    }
                    None => false,
                };
                self.s.unallocate_rel(id);
                ok
            }
            Change::NodeProp { id, key, old, .. } => match self.s.node_mut(id) {
                Some(d) => {
                    self.vals.set(&mut d.props, key, old.unwrap_or(Value::Null));
                    true
                }
                None => false,
            },
            Change::RelProp { id, key, old, .. } => match self.s.rel_mut(id) {
                Some(d) => {
                    self.vals.set(&mut d.props, key, old.unwrap_or(Value::Null));
                    true
                }
                None => false,
            },
            Change::AddLabel { id, label } => {
                let Some(d) = self.s.node_mut(id) else {
                    return false;
                };
                d.labels.retain(|l| *l != label);
                self.label_off(id, label);
                true
            }
            Change::RemoveLabel { id, label, pos } => {
                let Some(d) = self.s.node_mut(id) else {
                    return false;
                };
                d.labels.insert(pos.min(d.labels.len()), label);
                self.label_on(id, label);
                true
            }
            Change::RemoveRel {
                id,
                start,
                end,
                data,
            } => {
                let data = RelData {
                    ty: data.ty,
                    props: self.vals.build(data.props),
                };
                self.s.restore_rel(id, start, end, data)
            }
            Change::Schema { old, .. } => {
                self.schema = *old;
                true
            }
            Change::RemoveNode { id, data } => {
                let labels = data.labels.clone();
                let data = NodeData {
                    labels: data.labels,
                    props: self.vals.build(data.props),
                };
                if !self.s.restore_node(id, data) {
                    return false;
                }
                for l in labels {
                    self.label_on(id, l);
                }
                true
            }
        }
    }

    /// Compacts the property slab once moved and removed runs outweigh the live ones.
    fn settle_props(&mut self) {
        if self.vals.wants_compaction() {
            self.vals.compact(self.s.props_mut());
        }
    }

    /// Removes an isolated node and its label index entries.
    fn unlink_node(&mut self, n: NodeId) -> bool {
        match self.s.remove_node(n) {
            Some(d) => {
                self.vals.release_all(d.props);
                for l in d.labels {
                    self.label_off(n, l);
                }
                true
            }
            None => false,
        }
    }

    /// Adds a node with labels and properties (null properties are not stored).
    pub fn add_node(&mut self, labels: &[&str], props: Vec<(&str, Value)>) -> NodeId {
        let labels: Vec<Sym> = labels.iter().map(|l| self.intern(l)).collect();
        let mut syms: Vec<(Sym, Value)> = Vec::with_capacity(props.len());
        for (k, v) in props {
            syms.push((self.intern(k), v));
        }
        self.add_node_syms(labels, syms)
    }

    /// Adds a node from interned labels and properties.
    pub fn add_node_syms(&mut self, mut labels: Vec<Sym>, props: Vec<(Sym, Value)>) -> NodeId {
        // (A new node has no relationships: the adjacency stays true.)
        self.touch_values();
        let mut dedup = smallvec::SmallVec::<[Sym; 4]>::with_capacity(labels.len());
        for l in labels.drain(..) {
            if !dedup.contains(&l) {
                dedup.push(l);
            }
        }
        for (k, v) in &props {
            if !v.is_null() {
                self.mark_token(*k, TOKEN_KEY);
            }
        }
        let data = NodeData {
            labels: dedup,
            props: self.vals.build(props),
        };
        let labels = data.labels.clone();
        let indexed = self.prop_indexes.get_mut().is_ok_and(|m| !m.is_empty());
        let logged = self.journal.is_some();
        let id = self.s.add_node(data);
        for &l in &labels {
            self.label_on(id, l);
        }
        if indexed || logged {
            let props = self.node_entries(id);
            if indexed {
                self.reindex_node(id, &labels, &props, true);
            }
            if logged {
                let data = LooseNode { labels, props };
                self.log(|| Change::AddNode { id, data });
            }
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
        let mut syms: Vec<(Sym, Value)> = Vec::with_capacity(props.len());
        for (k, v) in props {
            syms.push((self.intern(k), v));
        }
        self.add_relationship_syms(start, end, ty, syms)
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
        self.mark_token(ty, TOKEN_TYPE);
        for (k, v) in &props {
            if !v.is_null() {
                self.mark_token(*k, TOKEN_KEY);
            }
        }
        let data = RelData {
            ty,
            props: self.vals.build(props),
        };
        // The endpoints are there (checked above): the store takes the record.
        let id = self.s.add_rel(start, end, data)?;
        self.patch_added_relationship(id, start, end, ty);
        if self.journal.is_some() {
            let data = LooseRel {
                ty,
                props: self.relationship_entries(id),
            };
            self.log(|| Change::AddRel {
                id,
                start,
                end,
                data,
            });
        }
        Some(id)
    }

    /// Sets (or with null, removes) a node property. Returns whether the node exists.
    pub fn set_node_property(&mut self, n: NodeId, key: &str, value: Value) -> bool {
        let key = self.intern(key);
        self.set_node_property_sym(n, key, value)
    }

    fn set_node_property_sym(&mut self, n: NodeId, key: Sym, value: Value) -> bool {
        self.touch_values();
        if !value.is_null() {
            self.mark_token(key, TOKEN_KEY);
        }
        // The built indexes of the node's labels on `key`: the node moves from its old value's
        // group to the new one's.
        let indexed: smallvec::SmallVec<[Sym; 4]> = match self.s.node(n) {
            Some(d) if self.prop_indexes.get_mut().is_ok_and(|m| !m.is_empty()) => {
                let labels = d.labels.clone();
                labels
                    .into_iter()
                    .filter(|&l| self.indexed_keys(l).contains(&key))
                    .collect()
            }
            _ => smallvec::SmallVec::new(),
        };
        if !indexed.is_empty() {
            let old = self.node_property(n, key);
            if let Some(old) = &old {
                for &l in &indexed {
                    self.reindex(l, key, n, old, false);
                }
            }
            for &l in &indexed {
                self.reindex(l, key, n, &value, true);
            }
        }
        let journaling = self.journal.is_some();
        let Some(d) = self.s.node_mut(n) else {
            return false;
        };
        let new = journaling.then(|| value.clone());
        let old = self.vals.set(&mut d.props, key, value);
        if let Some(new) = new {
            self.log(|| Change::NodeProp {
                id: n,
                key,
                old,
                new,
            });
        }
        self.settle_props();
        true
    }

    /// Sets (or with null, removes) a relationship property.
    pub fn set_relationship_property(&mut self, r: RelId, key: &str, value: Value) -> bool {
        let key = self.intern(key);
        self.set_relationship_property_sym(r, key, value)
    }

    fn set_relationship_property_sym(&mut self, r: RelId, key: Sym, value: Value) -> bool {
        self.touch_values();
        if !value.is_null() {
            self.mark_token(key, TOKEN_KEY);
        }
        let journaling = self.journal.is_some();
        let Some(d) = self.s.rel_mut(r) else {
            return false;
        };
        let new = journaling.then(|| value.clone());
        let old = self.vals.set(&mut d.props, key, value);
        if let Some(new) = new {
            self.log(|| Change::RelProp {
                id: r,
                key,
                old,
                new,
            });
        }
        self.settle_props();
        true
    }

    /// Adds a label; returns whether it was new.
    pub fn add_label(&mut self, n: NodeId, label: &str) -> bool {
        let l = self.intern(label);
        self.add_label_sym(n, l)
    }

    fn add_label_sym(&mut self, n: NodeId, l: Sym) -> bool {
        self.touch_values();
        let Some(d) = self.s.node_mut(n) else {
            return false;
        };
        if d.labels.contains(&l) {
            return false;
        }
        d.labels.push(l);
        self.label_on(n, l);
        self.patch_label(n, l, 1);
        for k in self.indexed_keys(l) {
            if let Some(v) = self.node_property(n, k) {
                self.reindex(l, k, n, &v, true);
            }
        }
        self.log(|| Change::AddLabel { id: n, label: l });
        true
    }

    /// Removes a label; returns whether it was there.
    pub fn remove_label(&mut self, n: NodeId, label: &str) -> bool {
        let Some(l) = self.sym(label) else {
            return false;
        };
        self.remove_label_sym(n, l)
    }

    fn remove_label_sym(&mut self, n: NodeId, l: Sym) -> bool {
        self.touch_values();
        let Some(d) = self.s.node_mut(n) else {
            return false;
        };
        let Some(pos) = d.labels.iter().position(|x| *x == l) else {
            return false;
        };
        d.labels.remove(pos);
        // (Counted off while the label still has its bit.)
        self.patch_label(n, l, -1);
        self.label_off(n, l);
        for k in self.indexed_keys(l) {
            if let Some(v) = self.node_property(n, k) {
                self.reindex(l, k, n, &v, false);
            }
        }
        self.log(|| Change::RemoveLabel {
            id: n,
            label: l,
            pos,
        });
        true
    }

    /// Removes a relationship.
    pub fn remove_relationship(&mut self, r: RelId) -> bool {
        self.touch_values();
        match self.s.remove_rel(r) {
            Some(slot) => {
                self.patch_removed_relationship(r, slot.start, slot.end, slot.data.ty);
                let data = LooseRel {
                    ty: slot.data.ty,
                    props: self.vals.release_all(slot.data.props),
                };
                self.log(|| Change::RemoveRel {
                    id: r,
                    start: slot.start,
                    end: slot.end,
                    data,
                });
                self.settle_props();
                true
            }
            None => false,
        }
    }

    /// Removes a node and its relationships (callers check `DETACH` semantics first). The
    /// relationships go first, one by one, so that a rollback can bring each back.
    pub fn remove_node(&mut self, n: NodeId) -> bool {
        if !self.contains_node(n) {
            return false;
        }
        // (Its relationships patch the adjacency as they go; then it has none.)
        self.touch_values();
        let mut rels: Vec<RelId> = self.s.linked_list(n, 0);
        rels.extend(self.s.linked_list(n, 1));
        rels.sort_unstable();
        rels.dedup();
        for r in rels {
            self.remove_relationship(r);
        }
        match self.s.remove_node(n) {
            Some(data) => {
                for l in &data.labels {
                    self.label_off(n, *l);
                }
                let data = LooseNode {
                    labels: data.labels,
                    props: self.vals.release_all(data.props),
                };
                self.reindex_node(n, &data.labels, &data.props, false);
                self.log(|| Change::RemoveNode { id: n, data });
                self.settle_props();
                true
            }
            None => false,
        }
    }
}

/// A list of node ids kept sorted: a label's nodes.
trait SortedIds: std::ops::Deref<Target = [NodeId]> {
    fn insert_at(&mut self, i: usize, id: NodeId);
    fn remove_at(&mut self, i: usize);
}

impl SortedIds for Vec<NodeId> {
    fn insert_at(&mut self, i: usize, id: NodeId) {
        self.insert(i, id);
    }
    fn remove_at(&mut self, i: usize) {
        self.remove(i);
    }
}

fn remove_sorted<V: SortedIds>(v: Option<&mut V>, id: NodeId) {
    if let Some(v) = v {
        if let Ok(i) = v.binary_search(&id) {
            v.remove_at(i);
        }
    }
}

fn insert_sorted<V: SortedIds>(v: &mut V, id: NodeId) {
    // Ids mostly come in order: appended without a search.
    let at = match v.last() {
        Some(last) if *last < id => v.len(),
        None => 0,
        _ => match v.binary_search(&id) {
            Ok(_) => return,
            Err(i) => i,
        },
    };
    v.insert_at(at, id);
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

/// What is read off the graph's relationships after a change: the adjacency, and per type
/// the labels its end and start nodes all have (`Graph::labels_implied`), its relationships'
/// count and (built when first scanned) their ids.
#[derive(Debug)]
struct Derived {
    adj: Adjacency,
    implied: Vec<[u64; 2]>,
    type_counts: Vec<usize>,
    labelled: Arc<Vec<LabelledCounts>>,
    by_type: std::sync::OnceLock<Vec<Vec<RelId>>>,
    /// The relationships added since `adj` was built, per node: its outgoing and its incoming
    /// entries, oldest first (read newest first, before the node's lists in `adj`). A
    /// statement that adds a relationship row after row, reading the graph between (`MERGE`),
    /// patches the adjacency instead of building it again each row.
    added: HashMap<u32, [Vec<AdjEntry>; 2]>,
    /// The relationships of `adj` removed since it was built (their entries are skipped).
    removed: HashSet<RelId>,
    /// Relationships added and removed since it was built.
    patches: usize,
}

/// Adds `delta` to the count of each label bit in `bits` on `side` (0: relationships' end
/// nodes, 1: their start nodes) of one type's per-label counts; a bit no relationship of the
/// type has any more is dropped, as a fresh count has it.
fn count_bits(per: &mut LabelledCounts, bits: u64, side: usize, delta: i64) {
    let mut rest = bits;
    while rest != 0 {
        let bit = rest.trailing_zeros() as u8;
        match per.iter_mut().find(|(b, _)| *b == bit) {
            Some((_, c)) => c[side] = c[side].saturating_add_signed(delta),
            None if delta > 0 => {
                let mut c = [0; 2];
                c[side] = delta as u64;
                per.push((bit, c));
            }
            None => {}
        }
        rest &= rest - 1;
    }
    if delta < 0 {
        per.retain(|(_, c)| *c != [0, 0]);
    }
}

impl Derived {
    /// The labels type `t` implies at its ends, from its count and per-label counts: a label
    /// every end (start) node of its relationships has is one counted on all of them.
    fn imply(&mut self, t: usize) {
        let (Some(&total), Some(per)) = (self.type_counts.get(t), self.labelled.get(t)) else {
            return;
        };
        let mut implied = [u64::MAX; 2];
        if total > 0 {
            implied = [0; 2];
            for &(bit, c) in per {
                for (side, &n) in c.iter().enumerate() {
                    if n as usize == total {
                        implied[side] |= 1 << bit;
                    }
                }
            }
        }
        if let Some(x) = self.implied.get_mut(t) {
            *x = implied;
        }
    }
}

/// The scans of one (label, key) so far and what its index would cost, in node reads.
#[derive(Debug, Clone, Copy)]
struct Demand {
    scanned: u64,
    build: u64,
    /// The label's size when `build` was estimated.
    size: usize,
}

/// A sample of one (label, key)'s values (see `Graph::key_sample`).
struct KeySample {
    /// Sampled nodes that have the key, and their distinct values.
    with_key: usize,
    distinct: usize,
    /// Estimated over the whole label: nodes that have the key, and distinct values.
    having: f64,
    distinct_all: f64,
    /// Whether every sampled value is an integer.
    all_ints: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count store's per-label counts (`RelStats::count_reaching`) equal the counts of
    /// `(:L)-[:T]->()` and `()-[:T]->(:L)` taken relationship by relationship, for nodes with
    /// no label, one and two, self-loops included; and they are those of the graph as it is
    /// after a change.
    #[test]
    fn per_label_relationship_counts_are_the_count_stores() {
        let mut g = Graph::default();
        let kinds: [&[&str]; 4] = [&[], &["A"], &["B"], &["A", "B"]];
        let nodes: Vec<NodeId> = (0..24).map(|i| g.add_node(kinds[i % 4], vec![])).collect();
        for i in 0..nodes.len() {
            for step in [1usize, 3, 0] {
                let ty = if (i + step) % 3 == 0 { "S" } else { "T" };
                let to = nodes[(i * 5 + step) % nodes.len()];
                g.add_relationship(nodes[i], to, ty, vec![]);
            }
        }
        let check = |g: &Graph| {
            let stats = g.relationship_stats();
            for ty in ["S", "T"] {
                let t = g.sym(ty).unwrap();
                for label in ["A", "B"] {
                    let l = g.sym(label).unwrap();
                    let bit = g.label_mask(&[l]).unwrap().trailing_zeros();
                    let (mut starts, mut ends) = (0u64, 0u64);
                    for r in g.relationship_ids() {
                        if g.rel_type(r).as_deref() != Some(ty) {
                            continue;
                        }
                        let (s, e) = g.endpoints(r).unwrap();
                        starts += u64::from(g.has_label(s, l));
                        ends += u64::from(g.has_label(e, l));
                    }
                    assert_eq!(
                        stats.count_reaching(t, Dir::Outgoing, bit),
                        ends,
                        "()-[:{ty}]->(:{label})"
                    );
                    assert_eq!(
                        stats.count_reaching(t, Dir::Incoming, bit),
                        starts,
                        "(:{label})-[:{ty}]->()"
                    );
                    assert_eq!(stats.count_reaching(t, Dir::Both, bit), starts + ends);
                    assert!(
                        starts > 0 && ends > 0,
                        "the graph exercises {ty} and {label}"
                    );
                }
            }
        };
        check(&g);
        // After a change, the counts are the new graph's.
        for &n in nodes.iter().skip(1).step_by(8) {
            g.remove_label(n, "A");
        }
        check(&g);
    }

    /// The in-place reads (`node_property_is`, `node_int_property`, `node_str_property`) say
    /// what the decoded value says, for every kind of stored value and of compared value.
    #[test]
    fn in_place_property_reads_agree_with_decoded_values() {
        let stored = [
            Value::Int(8),
            Value::Int(-3),
            Value::Float(8.0),
            Value::Float(8.5),
            Value::from("n42"),
            Value::from("n4"),
            Value::from(""),
            Value::Bool(true),
            Value::List(vec![Value::Int(8)]),
        ];
        let probes = [
            Value::Int(8),
            Value::Int(-3),
            Value::Float(8.0),
            Value::from("n42"),
            Value::from(""),
            Value::Bool(true),
            Value::List(vec![Value::Float(8.0)]),
        ];
        let mut g = Graph::default();
        let mut nodes: Vec<NodeId> = stored
            .iter()
            .map(|v| g.add_node(&["L"], vec![("k", v.clone()), ("z", Value::Int(0))]))
            .collect();
        nodes.push(g.add_node(&["L"], vec![("z", Value::Int(0))]));
        let k = g.sym("k").unwrap();
        for &n in &nodes {
            let decoded = g.node_property(n, k);
            for p in &probes {
                let want = decoded
                    .as_ref()
                    .is_some_and(|v| crate::value::equivalent(v, p));
                assert_eq!(g.node_property_is(n, k, p), want, "{decoded:?} = {p:?}");
            }
            let int = match &decoded {
                Some(Value::Int(i)) => IntRead::Int(*i),
                Some(_) => IntRead::Other,
                None => IntRead::Missing,
            };
            assert_eq!(g.node_int_property(n, k), int);
            let string = match &decoded {
                Some(Value::String(s)) => StrRead::Str(s),
                Some(_) => StrRead::Other,
                None => StrRead::Missing,
            };
            assert_eq!(g.node_str_property(n, k), string);
        }
    }

    /// A lookup scans the label until the lookups have cost what an index costs to build; the
    /// index then follows every change to nodes; an estimate never builds one; a declared index
    /// is built on its first lookup. Scan and index give the same nodes, in label order.
    #[test]
    fn a_lookup_scans_until_an_index_pays() {
        let mut g = Graph::new();
        for i in 0..100 {
            g.add_node(&["P"], vec![("k", Value::Int(i % 10))]);
        }
        g.add_node(&["Q"], vec![("k", Value::Int(3))]);
        let (p, k) = (g.sym("P").unwrap(), g.sym("k").unwrap());
        let want: Vec<NodeId> = (0..100).filter(|i| i % 10 == 3).map(NodeId).collect();
        // 100 nodes with 10 integer values: a build costs 100 * 7 + 10 * 30 node reads, ten
        // scans' worth.
        assert_eq!(g.index_build_cost(p, k), 1000);
        for i in 1..10 {
            assert_eq!(g.nodes_with_property(p, k, &Value::Int(3)), want);
            assert!(g.built_index(p, k).is_none(), "lookup {i} built an index");
        }
        // The tenth builds it; 3.0 is equivalent to 3.
        assert_eq!(g.nodes_with_property(p, k, &Value::Float(3.0)), want);
        assert!(g.built_index(p, k).is_some());
        assert_eq!(g.nodes_with_property(p, k, &Value::Int(3)), want);
        assert!(g.memory_stats().index_bytes > 0);
        // Changes keep it up to date: a node moves to its new value's group, a new node joins,
        // a removed label or node leaves.
        g.set_node_property(NodeId(3), "k", Value::Int(4));
        let added = g.add_node(&["P"], vec![("k", Value::Int(3))]);
        g.remove_label(NodeId(13), "P");
        g.remove_node(NodeId(23));
        g.add_label(NodeId(100), "P");
        assert!(g.built_index(p, k).is_some());
        let mut now: Vec<NodeId> = want
            .iter()
            .copied()
            .filter(|n| ![3, 13, 23].contains(&n.0))
            .collect();
        now.extend([NodeId(100), added]);
        assert_eq!(g.nodes_with_property(p, k, &Value::Int(3)), now);
        assert!(g
            .nodes_with_property(p, k, &Value::Int(4))
            .contains(&NodeId(3)));
        // A rollback drops it and the count; estimating does not build it again.
        let sp = g.savepoint();
        g.set_node_property(NodeId(0), "k", Value::Int(0));
        assert!(g.rollback_to(&sp));
        g.release(sp);
        assert!(g.built_index(p, k).is_none());
        assert!((g.seek_estimate(p, Some(k)) - 10.0).abs() < 1.5);
        assert!(g.built_index(p, k).is_none());
        assert_eq!(g.memory_stats().index_bytes, 0);
        // A unique key reads as one hit.
        for i in 0..100 {
            g.set_node_property(NodeId(i), "u", Value::Int(i as i64));
        }
        assert_eq!(g.seek_estimate(p, g.sym("u")), 1.0);
        // Declared: built on the first lookup.
        crate::engine::run(
            &mut g,
            "CREATE INDEX FOR (n:P) ON (n.k)",
            &Default::default(),
        )
        .unwrap();
        assert_eq!(g.nodes_with_property(p, k, &Value::Int(3)), now);
        assert!(g.built_index(p, k).is_some());
    }

    /// What an index is expected to cost follows the key's values: a string key with a value
    /// per node (a name) is bought after many more lookups than an integer key with a few
    /// values, and a label's first lookup never builds one.
    #[test]
    fn an_index_is_bought_when_its_build_cost_is_paid() {
        let mut g = Graph::new();
        for i in 0..2000 {
            g.add_node(
                &["P"],
                vec![
                    ("score", Value::Int(i % 10)),
                    ("name", Value::from(format!("n{i}"))),
                    ("half", Value::from(format!("h{}", i / 2))),
                ],
            );
        }
        let p = g.sym("P").unwrap();
        let lookups_until_built = |g: &Graph, key: &str, value: Value| {
            let k = g.sym(key).unwrap();
            let want = g
                .nodes_with_label(p)
                .iter()
                .copied()
                .filter(|&n| g.node_property_is(n, k, &value))
                .collect::<Vec<_>>();
            for i in 1..1000 {
                assert_eq!(g.nodes_with_property(p, k, &value), want);
                if g.built_index(p, k).is_some() {
                    return i;
                }
            }
            panic!("{key}: never built");
        };
        let score = lookups_until_built(&g, "score", Value::Int(3));
        let name = lookups_until_built(&g, "name", Value::from("n42"));
        let half = lookups_until_built(&g, "half", Value::from("h42"));
        assert!((2..=10).contains(&score), "score: {score}");
        // A name: 2000 * 12 + 2000 * 110 node reads, 122 scans.
        assert_eq!(name, 122);
        // Two nodes a value, all distinct in the sample: estimated as one node a value
        // (an overestimate within a factor of two).
        assert!((61..=122).contains(&half), "half: {half}");
        // The estimate follows the label: grown tenfold, the next lookup estimates again.
        let mut g2 = Graph::new();
        for i in 0..100 {
            g2.add_node(&["P"], vec![("k", Value::Int(i % 10))]);
        }
        let (p2, k2) = (g2.sym("P").unwrap(), g2.sym("k").unwrap());
        g2.nodes_with_property(p2, k2, &Value::Int(3));
        assert_eq!(g2.lookup_demand("P", "k"), Some((100, 1000)));
        for i in 0..900 {
            g2.add_node(&["P"], vec![("k", Value::Int(i % 10))]);
        }
        g2.nodes_with_property(p2, k2, &Value::Int(3));
        assert_eq!(g2.lookup_demand("P", "k"), Some((1100, 7300)));
        // Estimated distinct values: few in the sample are exact; seen once each in a
        // sample from a larger label, the GEE estimator scales them up.
        let mut g = Graph::new();
        let mut x: u64 = 88172645463325252;
        for i in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            g.add_node(
                &["P"],
                vec![
                    ("k", Value::Int((x % 3000) as i64)),
                    // Repeating with the node order: an evenly spaced sample (every 40th node)
                    // would see 75 of its 3,000 values.
                    ("periodic", Value::Int(i % 3000)),
                ],
            );
        }
        let p = g.sym("P").unwrap();
        for key in ["k", "periodic"] {
            let s = g.key_sample(p, g.sym(key).unwrap());
            assert!(s.distinct < s.with_key, "{key}");
            assert!(
                (1000.0..=9000.0).contains(&s.distinct_all),
                "{key}: {}",
                s.distinct_all
            );
        }
    }

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

    /// Everything a reader can observe of a graph, by id, with names instead of symbols.
    fn dump(g: &Graph) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let mut nodes: Vec<NodeId> = g.node_ids().collect();
        nodes.sort();
        for n in nodes {
            let mut labels: Vec<String> = g.labels(n).iter().map(|l| l.to_string()).collect();
            labels.sort();
            writeln!(out, "n{} {:?} {:?}", n.0, labels, g.node_properties(n)).unwrap();
        }
        let mut rels: Vec<RelId> = g.relationship_ids().collect();
        rels.sort();
        for r in rels {
            writeln!(
                out,
                "r{} {:?} {:?} {:?}",
                r.0,
                g.endpoints(r),
                g.rel_type(r),
                g.relationship_properties(r)
            )
            .unwrap();
        }
        let mut idx: Vec<(String, Vec<NodeId>)> = g
            .by_label
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(l, v)| (g.sym_name(*l).to_string(), v.clone()))
            .collect();
        idx.sort();
        writeln!(out, "{idx:?}").unwrap();
        out
    }

    /// Applies one change chosen by `op` (a no-op when it names nothing).
    fn apply(g: &mut Graph, op: (u8, u8, u8)) {
        let nodes: Vec<NodeId> = g.node_ids().collect();
        let rels: Vec<RelId> = g.relationship_ids().collect();
        let pick_n = |i: u8| nodes.get(i as usize % nodes.len().max(1)).copied();
        let pick_r = |i: u8| rels.get(i as usize % rels.len().max(1)).copied();
        let label = ["A", "B", "C"][op.2 as usize % 3];
        match op.0 % 8 {
            0 => {
                g.add_node(&[label], vec![("k", Value::Int(op.1 as i64))]);
            }
            1 => {
                if let (Some(a), Some(b)) = (pick_n(op.1), pick_n(op.2)) {
                    g.add_relationship(a, b, label, vec![("w", Value::Int(1))]);
                }
            }
            2 => {
                if let Some(n) = pick_n(op.1) {
                    let v = if op.2.is_multiple_of(4) {
                        Value::Null
                    } else {
                        Value::Int(op.2 as i64)
                    };
                    g.set_node_property(n, ["k", "x"][op.2 as usize % 2], v);
                }
            }
            3 => {
                if let Some(r) = pick_r(op.1) {
                    g.set_relationship_property(r, "w", Value::Int(op.2 as i64));
                }
            }
            4 => {
                if let Some(n) = pick_n(op.1) {
                    g.add_label(n, label);
                }
            }
            5 => {
                if let Some(n) = pick_n(op.1) {
                    g.remove_label(n, label);
                }
            }
            6 => {
                if let Some(r) = pick_r(op.1) {
                    g.remove_relationship(r);
                }
            }
            _ => {
                if let Some(n) = pick_n(op.1) {
                    g.remove_node(n);
                }
            }
        }
    }

    /// The caches agree with the graph: the compressed adjacency with the linked lists
    /// (same order), the label bitmap with each node's labels.
    fn check_caches(g: &Graph) -> Result<(), proptest::test_runner::TestCaseError> {
        for n in g.node_ids() {
            for dir in [Dir::Outgoing, Dir::Incoming, Dir::Both] {
                let mut want = Vec::new();
                if matches!(dir, Dir::Outgoing | Dir::Both) {
                    for r in g.s.clone().linked_list(n, 0) {
                        want.push((r, g.endpoints(r).unwrap().1));
                    }
                }
                if matches!(dir, Dir::Incoming | Dir::Both) {
                    for r in g.s.clone().linked_list(n, 1) {
                        let (start, end) = g.endpoints(r).unwrap();
                        if !(dir == Dir::Both && start == end) {
                            want.push((r, start));
                        }
                    }
                }
                let got: Vec<_> = g.neighbours_iter(n, dir, None).collect();
                proptest::prop_assert_eq!(got, want);
            }
            let labels = &g.node(n).unwrap().labels;
            for l in g.labels_in_use() {
                proptest::prop_assert_eq!(
                    g.has_labels_fast(n, &[l])
                        .unwrap_or_else(|| labels.contains(&l)),
                    labels.contains(&l)
                );
            }
        }
        // What is read off the adjacency (patched since it was built, or not) is what reading
        // it off a fresh one gives: counts, labels implied, per-label counts, scan lists.
        // (A type without relationships left is as if never counted.)
        let fresh = Graph::clone(g);
        let (now, anew) = (g.relationship_stats(), fresh.relationship_stats());
        let types = now.counts.len().max(anew.counts.len());
        for t in 0..types {
            let count = |s: &RelStats| s.counts.get(t).copied().unwrap_or(0);
            proptest::prop_assert_eq!(count(&now), count(&anew), "type {}", t);
            let implied = |s: &RelStats| s.implied.get(t).copied().unwrap_or([u64::MAX; 2]);
            proptest::prop_assert_eq!(implied(&now), implied(&anew), "type {}", t);
            let per = |s: &RelStats| {
                let mut per = s.labelled.get(t).cloned().unwrap_or_default();
                per.sort_unstable();
                per
            };
            proptest::prop_assert_eq!(per(&now), per(&anew), "type {}", t);
            let t = t as Sym;
            proptest::prop_assert_eq!(g.relationships_of_type(t), fresh.relationships_of_type(t));
        }
        // Every built property index is what building it now would give.
        let built: Vec<((Sym, Sym), Arc<PropIndex>)> = g
            .prop_indexes
            .read()
            .unwrap()
            .iter()
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        for ((l, k), ix) in built {
            let fresh = Graph::clone(g).property_index(l, k);
            proptest::prop_assert_eq!(&*ix, &*fresh);
        }
        Ok(())
    }

    /// Builds the indexes the property test keeps checking, once their tokens exist.
    fn build_indexes(g: &Graph) {
        for (l, k) in [("A", "k"), ("B", "k"), ("C", "x")] {
            if let (Some(l), Some(k)) = (g.sym(l), g.sym(k)) {
                g.property_index(l, k);
            }
        }
    }

    proptest::proptest! {
        /// The adjacency and label caches stay true through changes, rollbacks and replays.
        #[test]
        fn caches_follow_changes_and_rollbacks(
            setup in proptest::collection::vec((0u8..8, proptest::num::u8::ANY, proptest::num::u8::ANY), 0..40),
            failed in proptest::collection::vec((0u8..8, proptest::num::u8::ANY, proptest::num::u8::ANY), 0..40),
        ) {
            let mut g = Graph::new();
            for op in setup {
                apply(&mut g, op);
                build_indexes(&g);
                // (Now and then: the adjacency is built where it is checked, and the changes
                // after patch it.)
                if op.2 % 4 == 0 {
                    check_caches(&g)?;
                }
            }
            check_caches(&g)?;
            let copy = g.clone();
            check_caches(&copy)?;
            let sp = g.savepoint();
            for op in failed {
                apply(&mut g, op);
                build_indexes(&g);
                check_caches(&g)?;
            }
            proptest::prop_assert!(g.rollback_to(&sp));
            g.release(sp);
            check_caches(&g)?;
        }

        /// A rollback restores the graph exactly (every element under its old id), nested
        /// savepoints included; the same history replayed on a copy gives the same graph.
        #[test]
        fn rollback_restores_and_replay_reproduces(
            setup in proptest::collection::vec((0u8..8, proptest::num::u8::ANY, proptest::num::u8::ANY), 0..40),
            first in proptest::collection::vec((0u8..8, proptest::num::u8::ANY, proptest::num::u8::ANY), 0..40),
            failed in proptest::collection::vec((0u8..8, proptest::num::u8::ANY, proptest::num::u8::ANY), 0..40),
            after in proptest::collection::vec((0u8..8, proptest::num::u8::ANY, proptest::num::u8::ANY), 0..40),
        ) {
            let mut g = Graph::new();
            for op in setup {
                apply(&mut g, op);
            }
            let before = dump(&g);
            let mut copy = g.clone();

            // A transaction: one statement kept, one rolled back, one more kept.
            let tx = g.savepoint();
            let s1 = g.savepoint();
            for op in first {
                apply(&mut g, op);
            }
            g.release(s1);
            let kept = dump(&g);
            let s2 = g.savepoint();
            for op in failed {
                apply(&mut g, op);
            }
            proptest::prop_assert!(g.rollback_to(&s2));
            g.release(s2);
            proptest::prop_assert_eq!(dump(&g), kept.clone());
            for op in after {
                apply(&mut g, op);
            }
            let done = dump(&g);

            // Replayed on the copy, the transaction's changes give the same graph.
            let mut undo_copy = g.clone();
            let log = g.commit(tx);
            proptest::prop_assert!(copy.replay(&log, &g));
            proptest::prop_assert_eq!(dump(&copy), done.clone());

            // And the whole transaction rolled back gives the graph it began with.
            let tx2 = undo_copy.savepoint();
            drop(tx2);
            let sp = Savepoint { len: 0, opened: true };
            undo_copy.journal = Some(log.changes);
            proptest::prop_assert!(undo_copy.rollback_to(&sp));
            undo_copy.release(sp);
            proptest::prop_assert_eq!(dump(&undo_copy), before);
        }
    }

    /// Records whose keys change move their properties to the end of the slab; once the
    /// moved-from runs outweigh the live ones the slab is compacted. Values survive it, and a
    /// rollback across compactions gives back the graph and its pools as they were.
    #[test]
    fn the_property_slab_compacts_and_a_rollback_across_compactions_restores_it() {
        let mut g = Graph::new();
        let nodes: Vec<NodeId> = (0..2000)
            .map(|i| {
                let name = Value::from(format!("s{i}").as_str());
                g.add_node(&["N"], vec![("a", Value::Int(i)), ("s", name)])
            })
            .collect();
        let rels: Vec<RelId> = nodes
            .windows(2)
            .map(|w| {
                g.add_relationship(w[0], w[1], "R", vec![("w", Value::from("x"))])
                    .unwrap()
            })
            .collect();
        let (before, pooled) = (dump(&g), g.vals.pooled());
        let sp = g.savepoint();
        let mut compactions = 0;
        for round in 0..40i64 {
            let key = format!("k{round}");
            for (i, &n) in nodes.iter().enumerate() {
                let len = g.vals.slab_len();
                g.set_node_property(n, &key, Value::from(format!("{round}/{i}").as_str()));
                if g.vals.slab_len() < len {
                    compactions += 1;
                }
            }
            if round % 10 == 9 {
                for &r in &rels {
                    g.set_relationship_property(r, "w", Value::Null);
                    g.set_relationship_property(r, &key, Value::Int(round));
                }
            }
        }
        assert!(compactions >= 2, "{compactions} compactions");
        for (i, &n) in nodes.iter().enumerate() {
            let props = g.node_properties(n);
            assert_eq!(props.len(), 42);
            assert!(matches!(props["a"], Value::Int(x) if x == i as i64));
            assert!(matches!(&props["k39"], Value::String(s) if **s == format!("39/{i}")));
        }
        for &r in &rels {
            let props = g.relationship_properties(r);
            assert_eq!(
                props.keys().map(|k| &**k).collect::<Vec<_>>(),
                ["k19", "k29", "k39", "k9"]
            );
        }
        assert!(g.rollback_to(&sp));
        g.release(sp);
        assert_eq!(dump(&g), before);
        assert_eq!(
            g.vals.pooled(),
            pooled,
            "no value is left behind in the pools"
        );
    }

    #[test]
    fn the_label_bitmap_widens_past_eight_labels_and_keeps_every_bit() {
        let mut g = Graph::new();
        let names: Vec<String> = (0..12).map(|i| format!("L{i}")).collect();
        let mut nodes = Vec::new();
        for (i, l) in names.iter().enumerate() {
            nodes.push(g.add_node(&[l.as_str(), "All"], vec![]));
            if i == 6 {
                assert!(matches!(g.label_bits, LabelBits::Narrow(_)));
            }
        }
        assert!(matches!(g.label_bits, LabelBits::Wide(_)));
        let all = g.sym("All").unwrap();
        for (i, n) in nodes.iter().enumerate() {
            for (j, l) in names.iter().enumerate() {
                let l = g.sym(l).unwrap();
                assert_eq!(g.has_labels_fast(*n, &[l, all]), Some(i == j), "{i} {j}");
            }
        }
        assert!(g.remove_label(nodes[10], "L10"));
        assert_eq!(
            g.has_labels_fast(nodes[10], &[g.sym("L10").unwrap()]),
            Some(false)
        );
        assert_eq!(g.has_labels_fast(nodes[10], &[all]), Some(true));
        assert!(g.remove_label(nodes[1], "L1"));
        assert_eq!(
            g.has_labels_fast(nodes[1], &[g.sym("L1").unwrap()]),
            Some(false)
        );
        assert!(g.label_bits.bytes() >= 12 * 8);
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
