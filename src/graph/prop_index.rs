//! A property index: the nodes of a label by the value of one key, grouped by Cypher
//! equivalence (so that `n.k = 1.0` finds the nodes whose `k` is the integer 1).
//!
//! Integers, the keys of most indexes (ids above all), are kept apart from other values, in a
//! table of eight-byte keys: a slot is then 25 bytes (the key, the hits, a control byte)
//! where a `GroupKey` slot with inline hits took 57. Other values (strings, floats, lists,
//! …) keep their `GroupKey`. A lookup of a number reads both tables, since an integer and an
//! integral float can be equivalent; the hits of the two are merged in id order.

use crate::value::{equivalent, GroupKey, NodeId, Value};
use rustc_hash::FxHashMap;

/// The nodes of one value, in id order: one inline (a unique key's every value), more on the
/// heap. Never empty in an index (a value whose last node goes is removed).
#[derive(Clone, Debug)]
pub(super) enum Hits {
    One(NodeId),
    /// Boxed so that `Hits` is 16 bytes, not 32: few values of an indexed key have two nodes.
    #[allow(clippy::box_collection)]
    Many(Box<Vec<NodeId>>),
}

impl std::ops::Deref for Hits {
    type Target = [NodeId];
    fn deref(&self) -> &[NodeId] {
        match self {
            Hits::One(n) => std::slice::from_ref(n),
            Hits::Many(v) => v,
        }
    }
}

/// Equal when they hold the same nodes, however they hold them.
impl PartialEq for Hits {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}
impl Eq for Hits {}

impl Hits {
    /// Adds `n` in id order (appended without a search when it is the largest: ids mostly come
    /// in order).
    fn insert(&mut self, n: NodeId) {
        match self {
            Hits::One(m) if *m == n => {}
            Hits::One(m) => {
                let pair = if *m < n { vec![*m, n] } else { vec![n, *m] };
                *self = Hits::Many(Box::new(pair));
            }
            Hits::Many(v) => match v.last() {
                Some(last) if *last < n => v.push(n),
                _ => {
                    if let Err(i) = v.binary_search(&n) {
                        v.insert(i, n);
                    }
                }
            },
        }
    }

    /// Removes `n`; `true` when no node is left.
    fn remove(&mut self, n: NodeId) -> bool {
        match self {
            Hits::One(m) => *m == n,
            Hits::Many(v) => {
                if let Ok(i) = v.binary_search(&n) {
                    v.remove(i);
                }
                match v.len() {
                    0 => true,
                    1 => {
                        *self = Hits::One(v[0]);
                        false
                    }
                    _ => false,
                }
            }
        }
    }

    fn heap_bytes(&self) -> usize {
        match self {
            Hits::One(_) => 0,
            Hits::Many(v) => {
                std::mem::size_of::<Vec<NodeId>>() + v.capacity() * std::mem::size_of::<NodeId>()
            }
        }
    }
}

/// The index of one label and key (see the module's documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct PropIndex {
    ints: FxHashMap<i64, Hits>,
    others: FxHashMap<GroupKey, Hits>,
}

impl PropIndex {
    /// Adds node `n` under `value`. NaN and null are never indexed (no lookup finds them).
    pub fn add(&mut self, value: Value, n: NodeId) {
        match value {
            Value::Null => {}
            Value::Float(f) if f.is_nan() => {}
            Value::Int(i) => match self.ints.entry(i) {
                std::collections::hash_map::Entry::Occupied(mut o) => o.get_mut().insert(n),
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(Hits::One(n));
                }
            },
            other => match self.others.entry(GroupKey(other)) {
                std::collections::hash_map::Entry::Occupied(mut o) => o.get_mut().insert(n),
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(Hits::One(n));
                }
            },
        }
    }

    /// Removes node `n` from under `value`.
    pub fn remove(&mut self, value: &Value, n: NodeId) {
        match value {
            Value::Int(i) => {
                if self.ints.get_mut(i).is_some_and(|h| h.remove(n)) {
                    self.ints.remove(i);
                }
            }
            other => {
                let key = GroupKey(other.clone());
                if self.others.get_mut(&key).is_some_and(|h| h.remove(n)) {
                    self.others.remove(&key);
                }
            }
        }
    }

    /// The nodes whose value is equivalent to `value`, in id order.
    pub fn get(&self, value: &Value) -> Vec<NodeId> {
        let (int, other): (Option<&Hits>, Option<&Hits>) = match value {
            Value::Int(i) => (
                self.ints.get(i),
                // Integral floats hash as the integer they equal.
                (!self.others.is_empty())
                    .then(|| self.others.get(&GroupKey(value.clone())))
                    .flatten(),
            ),
            Value::Float(f) => {
                let int = (f.fract() == 0.0 && *f >= -9.2e18 && *f <= 9.2e18)
                    .then_some(*f as i64)
                    .filter(|i| equivalent(&Value::Int(*i), value))
                    .and_then(|i| self.ints.get(&i));
                (int, self.others.get(&GroupKey(value.clone())))
            }
            _ => (None, self.others.get(&GroupKey(value.clone()))),
        };
        match (int, other) {
            (Some(a), Some(b)) => {
                let mut all: Vec<NodeId> = a.iter().chain(b.iter()).copied().collect();
                all.sort_unstable();
                all.dedup();
                all
            }
            (Some(h), None) | (None, Some(h)) => h.to_vec(),
            (None, None) => Vec::new(),
        }
    }

    /// The distinct values indexed (an integer and a float it equals count twice).
    pub fn len(&self) -> usize {
        self.ints.len() + self.others.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ints.is_empty() && self.others.is_empty()
    }

    /// Bytes the index holds: each table's slots (a key, its hits, a control byte; an other
    /// value's string or list is shared with the node's property) and hits on the heap.
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.ints.capacity() * (size_of::<(i64, Hits)>() + 1)
            + self.others.capacity() * (size_of::<(GroupKey, Hits)>() + 1)
            + self
                .ints
                .values()
                .chain(self.others.values())
                .map(Hits::heap_bytes)
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_integer_slot_takes_twenty_four_bytes() {
        assert_eq!(std::mem::size_of::<(i64, Hits)>(), 24);
    }

    #[test]
    fn numbers_are_found_by_equivalence_across_the_two_tables() {
        let mut ix = PropIndex::default();
        ix.add(Value::Int(1), NodeId(5));
        ix.add(Value::Float(1.0), NodeId(2));
        ix.add(Value::Int(1), NodeId(9));
        ix.add(Value::Float(1.5), NodeId(3));
        ix.add(Value::from("1"), NodeId(4));
        ix.add(Value::Float(f64::NAN), NodeId(6));
        ix.add(Value::Null, NodeId(7));
        let ids = |v: Value| ix.get(&v).iter().map(|n| n.0).collect::<Vec<_>>();
        assert_eq!(ids(Value::Int(1)), [2, 5, 9]);
        assert_eq!(ids(Value::Float(1.0)), [2, 5, 9]);
        assert_eq!(ids(Value::Float(1.5)), [3]);
        assert_eq!(ids(Value::from("1")), [4]);
        assert_eq!(ids(Value::Float(f64::NAN)), Vec::<u32>::new());
        assert_eq!(ids(Value::Int(2)), Vec::<u32>::new());
        assert_eq!(ix.len(), 4);
    }

    #[test]
    fn removing_the_last_node_of_a_value_removes_the_value() {
        let mut ix = PropIndex::default();
        for n in [3, 1, 2] {
            ix.add(Value::Int(7), NodeId(n));
        }
        assert_eq!(ix.get(&Value::Int(7)), [NodeId(1), NodeId(2), NodeId(3)]);
        ix.remove(&Value::Int(7), NodeId(2));
        ix.remove(&Value::Int(7), NodeId(3));
        // One node left: held inline again, equal to an index built with it alone.
        let mut fresh = PropIndex::default();
        fresh.add(Value::Int(7), NodeId(1));
        assert_eq!(ix, fresh);
        assert!(matches!(ix.ints[&7], Hits::One(NodeId(1))));
        ix.remove(&Value::Int(7), NodeId(1));
        ix.add(Value::from("a"), NodeId(4));
        ix.remove(&Value::from("a"), NodeId(4));
        assert!(ix.is_empty());
    }
}
