//! The graph's element storage: node and relationship records in slot vectors, and each
//! node's relationships as two singly linked lists kept in compact side arrays (eight bytes
//! per node and per relationship).
//!
//! Ids are Neo4j's: a new element takes the next id, not a removed one's, so that scans after
//! deletes come back in creation order as Neo4j's do (Neo4j 5.26 frees an id only when a
//! later maintenance pass allows; the oracle gives 4, 5, 6 after deleting 1 and 2 of 0–3).
//! Free slots are reused, newest first, only once over [`REUSE_AFTER`] pile up, which bounds
//! the memory a long churn leaves behind. A rollback puts each removed element back in its
//! own slot ([`Slots::restore_node`], [`Slots::restore_rel`]).
//!
//! It replaces petgraph's `StableGraph`, which kept the list heads inside 56-byte node slots:
//! adding a relationship touched two of them at random, and bulk loads of millions of
//! relationships spent most of their time waiting for those cache lines. Here adding one reads
//! and writes two entries of an 8-byte-per-node array, and the compressed adjacency
//! ([`Slots::adjacency`]) is built from the relationship array in two sequential passes.

use super::store::{NodeData, RelData, Sym};
use crate::value::{NodeId, RelId};

/// No element (an empty list, the end of a list).
const NONE: u32 = u32::MAX;
/// Free slots (of nodes, or of relationships) kept unused before new elements take them.
pub(super) const REUSE_AFTER: usize = 1 << 20;
/// The list heads of a free node slot.
const FREE: [u32; 2] = [NONE - 1, NONE - 1];

/// A relationship's record: its endpoints and its data.
#[derive(Clone, Debug)]
pub(super) struct RelSlot {
    pub start: NodeId,
    pub end: NodeId,
    pub data: RelData,
}

/// (relationship, the other node, the relationship's type).
/// One entry of a node's adjacency: the relationship, the node at its other end, its type.
pub type AdjEntry = (RelId, NodeId, Sym);

/// Compressed adjacency: node `i`'s outgoing relationships are
/// `entries[starts[2i]..starts[2i + 1]]`, its incoming ones
/// `entries[starts[2i + 1]..starts[2i + 2]]`, each list newest first (the order of the linked
/// lists).
#[derive(Debug, Default)]
pub(super) struct Adjacency {
    pub starts: Vec<u32>,
    pub entries: Vec<AdjEntry>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Slots {
    nodes: Vec<Option<NodeData>>,
    /// Per node slot, the first outgoing and the first incoming relationship (`NONE`: none;
    /// `FREE`: the slot is free).
    heads: Vec<[u32; 2]>,
    node_free: Vec<u32>,
    node_count: usize,
    rels: Vec<Option<RelSlot>>,
    /// Per relationship slot, the next relationship of its start node's outgoing list and of
    /// its end node's incoming list.
    next: Vec<[u32; 2]>,
    rel_free: Vec<u32>,
    rel_count: usize,
    /// Whether a relationship went into a reused slot: the lists are then not in descending id
    /// order, and the adjacency is built by walking them.
    reused: bool,
    /// Whether `heads` and `next` hold the lists. A graph that has only grown does without
    /// them (bulk loads then never touch the node arrays at random); the first removal links
    /// every relationship, in id order, and from then on every change keeps the lists.
    linked: bool,
}

impl Slots {
    pub fn node_count(&self) -> usize {
        self.node_count
    }
    pub fn rel_count(&self) -> usize {
        self.rel_count
    }
    /// One more than the largest node slot.
    pub fn node_bound(&self) -> usize {
        self.nodes.len()
    }
    /// Bytes held by the node records (slots and list heads) and by the relationship records
    /// (slots and list links), for memory estimates.
    pub fn record_bytes(&self) -> (usize, usize) {
        use std::mem::size_of;
        (
            self.nodes.capacity() * size_of::<Option<NodeData>>()
                + self.heads.capacity() * size_of::<[u32; 2]>()
                + self.node_free.capacity() * size_of::<u32>(),
            self.rels.capacity() * size_of::<Option<RelSlot>>()
                + self.next.capacity() * size_of::<[u32; 2]>()
                + self.rel_free.capacity() * size_of::<u32>(),
        )
    }

    /// Makes room for `nodes` more nodes and `rels` more relationships.
    pub fn reserve(&mut self, nodes: usize, rels: usize) {
        self.nodes.reserve(nodes);
        self.rels.reserve(rels);
        if self.linked {
            self.heads.reserve(nodes);
            self.next.reserve(rels);
        }
    }

    #[inline]
    pub fn contains_node(&self, n: NodeId) -> bool {
        if self.linked {
            self.heads.get(n.0 as usize).is_some_and(|h| *h != FREE)
        } else {
            // Nothing was ever removed: every slot holds a node.
            (n.0 as usize) < self.nodes.len()
        }
    }

    /// Builds the lists of a graph that has only grown, newest relationship first.
    fn link(&mut self) {
        if self.linked {
            return;
        }
        self.heads.clear();
        self.heads.resize(self.nodes.len(), [NONE, NONE]);
        self.next.clear();
        self.next.reserve(self.rels.len());
        for (i, s) in self.rels.iter().enumerate() {
            let s = s
                .as_ref()
                .expect("a graph that has only grown has no free slots");
            let (a, b) = (s.start.0 as usize, s.end.0 as usize);
            self.next.push([self.heads[a][0], self.heads[b][1]]);
            self.heads[a][0] = i as u32;
            self.heads[b][1] = i as u32;
        }
        self.linked = true;
    }
    #[inline]
    pub fn node(&self, n: NodeId) -> Option<&NodeData> {
        self.nodes.get(n.0 as usize).and_then(|d| d.as_ref())
    }
    pub fn node_mut(&mut self, n: NodeId) -> Option<&mut NodeData> {
        self.nodes.get_mut(n.0 as usize).and_then(|d| d.as_mut())
    }
    #[inline]
    pub fn rel(&self, r: RelId) -> Option<&RelSlot> {
        self.rels.get(r.0 as usize).and_then(|d| d.as_ref())
    }
    pub fn rel_mut(&mut self, r: RelId) -> Option<&mut RelData> {
        self.rels
            .get_mut(r.0 as usize)
            .and_then(|d| d.as_mut())
            .map(|s| &mut s.data)
    }

    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, d)| d.is_some())
            .map(|(i, _)| NodeId(i as u32))
    }
    pub fn rel_ids(&self) -> impl Iterator<Item = RelId> + '_ {
        self.rels
            .iter()
            .enumerate()
            .filter(|(_, d)| d.is_some())
            .map(|(i, _)| RelId(i as u32))
    }
    pub fn node_weights(&self) -> impl Iterator<Item = &NodeData> + '_ {
        self.nodes.iter().flatten()
    }
    pub fn rel_weights(&self) -> impl Iterator<Item = &RelData> + '_ {
        self.rels.iter().flatten().map(|s| &s.data)
    }
    /// Where every live record's properties are, nodes first, each in id order.
    pub fn props_mut(&mut self) -> impl Iterator<Item = &mut super::props::Props> + '_ {
        let nodes = self.nodes.iter_mut().flatten().map(|d| &mut d.props);
        nodes.chain(self.rels.iter_mut().flatten().map(|s| &mut s.data.props))
    }

    /// Adds a node under the next id (in the newest free slot once over [`REUSE_AFTER`] are
    /// free).
    pub fn add_node(&mut self, data: NodeData) -> NodeId {
        if !self.linked {
            let i = self.nodes.len() as u32;
            self.nodes.push(Some(data));
            self.node_count += 1;
            return NodeId(i);
        }
        let reuse = if self.node_free.len() >= REUSE_AFTER {
            self.node_free.pop()
        } else {
            None
        };
        match reuse {
            Some(i) => {
                self.nodes[i as usize] = Some(data);
                self.heads[i as usize] = [NONE, NONE];
                self.node_count += 1;
                NodeId(i)
            }
            None => {
                let i = self.nodes.len() as u32;
                self.nodes.push(Some(data));
                self.heads.push([NONE, NONE]);
                self.node_count += 1;
                NodeId(i)
            }
        }
    }

    /// Gives back the id of the last node added, once removed (a rollback of its creation):
    /// the next node takes it again, as though it had never been.
    pub fn unallocate_node(&mut self, n: NodeId) {
        let i = n.0 as usize;
        if i + 1 == self.nodes.len() && self.nodes[i].is_none() {
            if let Some(at) = self.node_free.iter().rposition(|&f| f == n.0) {
                self.node_free.remove(at);
            }
            self.nodes.pop();
            if self.heads.len() > i {
                self.heads.truncate(i);
            }
        }
    }

    /// [`Slots::unallocate_node`] for the last relationship added.
    pub fn unallocate_rel(&mut self, r: RelId) {
        let i = r.0 as usize;
        if i + 1 == self.rels.len() && self.rels[i].is_none() {
            if let Some(at) = self.rel_free.iter().rposition(|&f| f == r.0) {
                self.rel_free.remove(at);
            }
            self.rels.pop();
            if self.next.len() > i {
                self.next.truncate(i);
            }
        }
    }

    /// Puts a removed node back in its own slot (a rollback); `false` when the slot is taken.
    pub fn restore_node(&mut self, n: NodeId, data: NodeData) -> bool {
        let i = n.0 as usize;
        if self.nodes.get(i).is_none_or(Option::is_some) {
            return false;
        }
        if let Some(at) = self.node_free.iter().rposition(|&f| f == n.0) {
            self.node_free.remove(at);
        }
        self.nodes[i] = Some(data);
        self.heads[i] = [NONE, NONE];
        self.node_count += 1;
        true
    }

    /// Puts a removed relationship back in its own slot (a rollback), at the head of its
    /// nodes' lists; `false` when the slot is taken or an endpoint is missing.
    pub fn restore_rel(&mut self, r: RelId, start: NodeId, end: NodeId, data: RelData) -> bool {
        let i = r.0 as usize;
        if self.rels.get(i).is_none_or(Option::is_some)
            || !self.contains_node(start)
            || !self.contains_node(end)
        {
            return false;
        }
        if let Some(at) = self.rel_free.iter().rposition(|&f| f == r.0) {
            self.rel_free.remove(at);
        }
        let (s, e) = (start.0 as usize, end.0 as usize);
        self.next[i] = [self.heads[s][0], self.heads[e][1]];
        self.rels[i] = Some(RelSlot { start, end, data });
        self.heads[s][0] = r.0;
        self.heads[e][1] = r.0;
        self.reused = true;
        self.rel_count += 1;
        true
    }

    /// Removes a node that has no relationships left (callers remove them first); its slot
    /// becomes the newest free one.
    pub fn remove_node(&mut self, n: NodeId) -> Option<NodeData> {
        let i = n.0 as usize;
        if !self.contains_node(n) {
            return None;
        }
        self.link();
        debug_assert_eq!(
            self.heads[i],
            [NONE, NONE],
            "a node removed with relationships"
        );
        let data = self.nodes[i].take();
        self.heads[i] = FREE;
        self.node_free.push(n.0);
        self.node_count -= 1;
        data
    }

    /// Adds a relationship (the newest free slot if there is one); `None` when an endpoint
    /// does not exist.
    pub fn add_rel(&mut self, start: NodeId, end: NodeId, data: RelData) -> Option<RelId> {
        if !self.contains_node(start) || !self.contains_node(end) {
            return None;
        }
        if !self.linked {
            let i = self.rels.len() as u32;
            self.rels.push(Some(RelSlot { start, end, data }));
            self.rel_count += 1;
            return Some(RelId(i));
        }
        let (s, e) = (start.0 as usize, end.0 as usize);
        let link = [self.heads[s][0], self.heads[e][1]];
        let slot = RelSlot { start, end, data };
        let reuse = if self.rel_free.len() >= REUSE_AFTER {
            self.rel_free.pop()
        } else {
            None
        };
        let id = match reuse {
            Some(i) => {
                self.rels[i as usize] = Some(slot);
                self.next[i as usize] = link;
                self.reused = true;
                i
            }
            None => {
                let i = self.rels.len() as u32;
                self.rels.push(Some(slot));
                self.next.push(link);
                i
            }
        };
        self.heads[s][0] = id;
        self.heads[e][1] = id;
        self.rel_count += 1;
        Some(RelId(id))
    }

    /// Removes a relationship; its slot becomes the newest free one.
    pub fn remove_rel(&mut self, r: RelId) -> Option<RelSlot> {
        self.rels.get(r.0 as usize)?.as_ref()?;
        self.link();
        let slot = self.rels.get_mut(r.0 as usize)?.take()?;
        self.unlink(slot.start.0, r.0, 0);
        self.unlink(slot.end.0, r.0, 1);
        self.rel_free.push(r.0);
        self.rel_count -= 1;
        Some(slot)
    }

    /// Takes relationship `r` out of list `k` (0 outgoing, 1 incoming) of node `n`.
    fn unlink(&mut self, n: u32, r: u32, k: usize) {
        let after = self.next[r as usize][k];
        let head = &mut self.heads[n as usize][k];
        if *head == r {
            *head = after;
            return;
        }
        let mut cur = *head;
        while cur != NONE {
            let nx = self.next[cur as usize][k];
            if nx == r {
                self.next[cur as usize][k] = after;
                return;
            }
            cur = nx;
        }
    }

    /// The relationships of list `k` (0 outgoing, 1 incoming) of node `n`, newest first (the
    /// lists must be linked: see [`Slots::linked_list`]).
    fn list(&self, n: NodeId, k: usize) -> impl Iterator<Item = RelId> + '_ {
        debug_assert!(self.linked);
        let mut cur = match self.heads.get(n.0 as usize) {
            Some(h) if *h != FREE => h[k],
            _ => NONE,
        };
        std::iter::from_fn(move || {
            if cur == NONE {
                return None;
            }
            let r = cur;
            cur = self.next[r as usize][k];
            Some(RelId(r))
        })
    }

    /// The relationships of list `k` (0 outgoing, 1 incoming) of node `n`, newest first,
    /// linking the lists first if need be.
    pub fn linked_list(&mut self, n: NodeId, k: usize) -> Vec<RelId> {
        self.link();
        self.list(n, k).collect()
    }

    /// The compressed adjacency of the present graph.
    pub fn adjacency(&self) -> Adjacency {
        let bound = self.nodes.len();
        let mut starts = vec![0u32; 2 * bound + 1];
        if self.reused {
            // Walk each node's lists (their order is the order of insertion, reversed).
            let mut entries = Vec::with_capacity(2 * self.rel_count);
            for i in 0..bound {
                let n = NodeId(i as u32);
                starts[2 * i] = entries.len() as u32;
                for r in self.list(n, 0) {
                    let s = self.rels[r.0 as usize]
                        .as_ref()
                        .expect("a listed relationship");
                    entries.push((r, s.end, s.data.ty));
                }
                starts[2 * i + 1] = entries.len() as u32;
                for r in self.list(n, 1) {
                    let s = self.rels[r.0 as usize]
                        .as_ref()
                        .expect("a listed relationship");
                    entries.push((r, s.start, s.data.ty));
                }
            }
            starts[2 * bound] = entries.len() as u32;
            return Adjacency { starts, entries };
        }
        // Every relationship went into a new slot, so each list is in descending id order: a
        // counting sort of the relationship array, visited from the last slot down, gives it.
        for s in self.rels.iter().flatten() {
            starts[2 * s.start.0 as usize + 1] += 1;
            starts[2 * s.end.0 as usize + 2] += 1;
        }
        let mut total = 0u32;
        for c in starts.iter_mut() {
            total += *c;
            *c = total;
        }
        // `fill[j]` is where the next entry of list j goes.
        let mut fill = starts.clone();
        let mut entries: Vec<AdjEntry> = vec![(RelId(0), NodeId(0), 0); total as usize];
        for (i, s) in self.rels.iter().enumerate().rev() {
            let Some(s) = s else { continue };
            let r = RelId(i as u32);
            let o = &mut fill[2 * s.start.0 as usize];
            entries[*o as usize] = (r, s.end, s.data.ty);
            *o += 1;
            let inc = &mut fill[2 * s.end.0 as usize + 1];
            entries[*inc as usize] = (r, s.start, s.data.ty);
            *inc += 1;
        }
        Adjacency { starts, entries }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel() -> RelData {
        RelData {
            ty: 0,
            props: Default::default(),
        }
    }

    #[test]
    fn new_elements_take_new_ids_and_a_rollback_restores_old_ones() {
        let mut s = Slots::default();
        let a = s.add_node(NodeData::default());
        let b = s.add_node(NodeData::default());
        let r0 = s.add_rel(a, b, rel()).unwrap();
        let r1 = s.add_rel(a, b, rel()).unwrap();
        let r2 = s.add_rel(b, a, rel()).unwrap();
        assert_eq!(s.linked_list(a, 0), vec![r1, r0]);
        assert_eq!(s.linked_list(a, 1), vec![r2]);
        assert!(s.remove_rel(r1).is_some());
        assert!(s.remove_rel(r1).is_none());
        assert_eq!(s.linked_list(a, 0), vec![r0]);
        assert_eq!(s.linked_list(b, 1), vec![r0]);
        // A new relationship takes a new id; a rollback puts r1 back in its slot.
        let r3 = s.add_rel(b, b, rel()).unwrap();
        assert_eq!(r3, RelId(3));
        assert_eq!(s.linked_list(b, 0), vec![r3, r2]);
        assert!(s.restore_rel(r1, a, b, rel()));
        assert!(!s.restore_rel(r1, a, b, rel()), "the slot is taken");
        assert_eq!(s.linked_list(a, 0), vec![r1, r0]);
        assert_eq!(s.rel_count(), 4);
        let c = s.add_node(NodeData::default());
        assert!(s.remove_node(c).is_some());
        assert!(!s.contains_node(c));
        assert_eq!(s.add_rel(a, c, rel()), None);
        let d = s.add_node(NodeData::default());
        assert_eq!(d, NodeId(c.0 + 1), "a removed node's id is not reused");
        assert!(s.restore_node(c, NodeData::default()));
        assert!(s.contains_node(c));
        // Past the threshold free slots are reused, newest first.
        assert!(s.remove_node(d).is_some());
        let mut free = vec![0u32; REUSE_AFTER];
        free.push(d.0);
        s.node_free = free;
        assert_eq!(s.add_node(NodeData::default()), d);
    }

    #[test]
    fn the_adjacency_is_the_same_built_either_way() {
        let mut s = Slots::default();
        let n: Vec<NodeId> = (0..5).map(|_| s.add_node(NodeData::default())).collect();
        for (i, (a, b)) in [(0, 1), (1, 2), (0, 2), (2, 2), (4, 0), (0, 1)]
            .iter()
            .enumerate()
        {
            let mut d = rel();
            d.ty = i as Sym;
            s.add_rel(n[*a], n[*b], d).unwrap();
        }
        let grown = s.adjacency();
        s.link();
        s.reused = true;
        assert_eq!(grown.entries, s.adjacency().entries);
        s.remove_rel(RelId(2));
        s.reused = false;
        let sorted = s.adjacency();
        s.reused = true;
        let walked = s.adjacency();
        assert_eq!(sorted.starts, walked.starts);
        assert_eq!(sorted.entries, walked.entries);
        assert_eq!(sorted.starts.len(), 11);
    }
}
