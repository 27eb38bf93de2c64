//! Property storage: sixteen bytes a property, in one array per graph.
//!
//! A property is a [`Prop`]: its key's symbol, a type tag, and eight bytes. A boolean, an
//! integer or a float is those eight bytes; a string, or any other value (a list, a map, a
//! temporal, a point, bytes), is an index into one of the graph's two pools, which hold it
//! once. A record's properties are a run of `Prop`s sorted by key in the graph's property
//! array (the slab); the record keeps only where its run starts and how long it is
//! ([`Props`], eight bytes). A `(Sym, Value)` pair took 40 bytes, and each record's own
//! allocation another 16 or so in allocator overhead; most properties of real graphs are
//! numbers, dates as numbers and short strings.
//!
//! Changing a record's set of keys moves its run to the end of the slab (in place when it is
//! already there); the old run is garbage until [`Values::wants_compaction`] asks the graph to
//! compact, which rewrites the slab in record order. A `Props` and its `Prop`s refer into the
//! graph that made them: records are encoded when they enter the store ([`Values::build`],
//! [`Values::set`]) and released when they leave it ([`Values::release_all`]); anything kept
//! outside the store (the journal, a copy for another graph) holds decoded `(Sym, Value)`
//! pairs instead.
//!
//! Like node and relationship ids, runs are addressed with 32 bits: a graph holds at most
//! 2^32 - 1 properties.

use super::store::Sym;
use crate::value::Value;
use std::sync::Arc;

const BOOL: u32 = 0;
const INT: u32 = 1;
const FLOAT: u32 = 2;
const STR: u32 = 3;
const OTHER: u32 = 4;

/// One stored property (see the module's documentation): never null.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prop {
    key: Sym,
    tag: u32,
    bits: u64,
}

impl Prop {
    /// The property's key.
    #[inline]
    pub fn key(&self) -> Sym {
        self.key
    }
}

/// A property read as an integer ([`Graph::node_int_property`](super::Graph::node_int_property)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntRead {
    Int(i64),
    /// A value of another type.
    Other,
    /// No value under the key.
    Missing,
}

/// A property read as a string ([`Graph::node_str_property`](super::Graph::node_str_property)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrRead<'a> {
    Str(&'a str),
    /// A value of another type.
    Other,
    /// No value under the key.
    Missing,
}

/// Where a record's properties are in its graph's slab: sorted by key symbol, each key once,
/// no nulls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Props {
    start: u32,
    len: u32,
}

impl Props {
    /// How many properties the record has.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Makes room for `extra` more items, growing by a quarter rather than doubling: the slab and
/// the pools are the largest arrays of a graph, and most of a doubled array's spare half would
/// stay unused once a load ends.
fn room<T>(v: &mut Vec<T>, extra: usize) {
    if v.capacity() - v.len() < extra {
        v.reserve_exact(extra.max(v.len() / 4).max(64));
    }
}

/// Slots for values, reused once freed (newest first).
#[derive(Clone, Debug)]
struct Pool<T> {
    items: Vec<Option<T>>,
    free: Vec<usize>,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool {
            items: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<T> Pool<T> {
    fn put(&mut self, t: T) -> u64 {
        match self.free.pop() {
            Some(i) => {
                self.items[i] = Some(t);
                i as u64
            }
            None => {
                room(&mut self.items, 1);
                self.items.push(Some(t));
                (self.items.len() - 1) as u64
            }
        }
    }

    #[inline]
    fn get(&self, i: u64) -> Option<&T> {
        self.items.get(i as usize).and_then(Option::as_ref)
    }

    fn take(&mut self, i: u64) -> Option<T> {
        let t = self.items.get_mut(i as usize)?.take()?;
        self.free.push(i as usize);
        Some(t)
    }

    fn len(&self) -> usize {
        self.items.len() - self.free.len()
    }

    fn bytes(&self) -> usize {
        self.items.capacity() * std::mem::size_of::<Option<T>>()
            + self.free.capacity() * std::mem::size_of::<usize>()
    }
}

/// The properties of a graph's records: the slab of runs, and the pools of strings and of
/// other non-scalar values the runs refer to.
#[derive(Clone, Debug, Default)]
pub struct Values {
    slab: Vec<Prop>,
    /// Entries of `slab` no record's run covers.
    garbage: usize,
    strs: Pool<Arc<str>>,
    others: Pool<Value>,
}

/// Garbage below this many entries is never compacted (in unit tests, a handful: the store's
/// property tests of rollbacks and replays then go through compactions all the time).
const COMPACT_AFTER: usize = if cfg!(test) { 8 } else { 1 << 16 };

impl Values {
    /// Stores `value` under `key`; `None` for null (a null property is not stored).
    fn encode(&mut self, key: Sym, value: Value) -> Option<Prop> {
        let (tag, bits) = match value {
            Value::Null => return None,
            Value::Bool(b) => (BOOL, u64::from(b)),
            Value::Int(i) => (INT, i as u64),
            Value::Float(f) => (FLOAT, f.to_bits()),
            Value::String(s) => (STR, self.strs.put(s)),
            other => (OTHER, self.others.put(other)),
        };
        Some(Prop { key, tag, bits })
    }

    /// The value of a stored property.
    #[inline]
    fn decode(&self, p: &Prop) -> Value {
        match p.tag {
            BOOL => Value::Bool(p.bits != 0),
            INT => Value::Int(p.bits as i64),
            FLOAT => Value::Float(f64::from_bits(p.bits)),
            STR => self
                .strs
                .get(p.bits)
                .map_or(Value::Null, |s| Value::String(s.clone())),
            _ => self.others.get(p.bits).cloned().unwrap_or(Value::Null),
        }
    }

    /// Frees a property's pooled value, returning it.
    fn release(&mut self, p: Prop) -> Value {
        match p.tag {
            STR => self.strs.take(p.bits).map_or(Value::Null, Value::String),
            OTHER => self.others.take(p.bits).unwrap_or(Value::Null),
            _ => self.decode(&p),
        }
    }

    /// A record's run.
    #[inline]
    pub fn run(&self, props: Props) -> &[Prop] {
        let start = props.start as usize;
        self.slab
            .get(start..start + props.len as usize)
            .unwrap_or_default()
    }

    /// The value under `key`, if the record has one.
    #[inline]
    pub fn get(&self, props: Props, key: Sym) -> Option<Value> {
        let run = self.run(props);
        run.binary_search_by_key(&key, |p| p.key)
            .ok()
            .map(|i| self.decode(&run[i]))
    }

    /// The value under `key` read as an integer, without decoding a [`Value`].
    #[inline]
    pub fn get_int(&self, props: Props, key: Sym) -> IntRead {
        let run = self.run(props);
        match run.binary_search_by_key(&key, |p| p.key) {
            Ok(i) if run[i].tag == INT => IntRead::Int(run[i].bits as i64),
            Ok(_) => IntRead::Other,
            Err(_) => IntRead::Missing,
        }
    }

    /// [`Self::get_int`], looking first at place `*hint` of the record (the records of a label
    /// mostly have their keys in the same places); `*hint` becomes where the key was found.
    #[inline]
    pub fn get_int_hinted(&self, props: Props, key: Sym, hint: &mut usize) -> IntRead {
        let run = self.run(props);
        let i = match run.get(*hint) {
            Some(p) if p.key == key => *hint,
            _ => match run.binary_search_by_key(&key, |p| p.key) {
                Ok(i) => {
                    *hint = i;
                    i
                }
                Err(_) => return IntRead::Missing,
            },
        };
        match run[i].tag == INT {
            true => IntRead::Int(run[i].bits as i64),
            false => IntRead::Other,
        }
    }

    /// The value under `key` read as a string, borrowed from the pool (no value is built, and
    /// the string is read only where its length matches what it is compared with).
    #[inline]
    pub fn get_str(&self, props: Props, key: Sym) -> StrRead<'_> {
        let run = self.run(props);
        match run.binary_search_by_key(&key, |p| p.key) {
            Ok(i) if run[i].tag == STR => match self.strs.get(run[i].bits) {
                Some(s) => StrRead::Str(s),
                None => StrRead::Missing,
            },
            Ok(_) => StrRead::Other,
            Err(_) => StrRead::Missing,
        }
    }

    /// The record's properties, decoded, in key order.
    pub fn entries(&self, props: Props) -> impl Iterator<Item = (Sym, Value)> + '_ {
        self.run(props).iter().map(|p| (p.key, self.decode(p)))
    }

    /// Puts a run at the end of the slab.
    fn append(&mut self, run: &[Prop]) -> Props {
        let start = self.slab.len();
        let fits = u32::try_from(start + run.len()).is_ok();
        assert!(fits, "a graph holds at most 2^32 - 1 properties");
        room(&mut self.slab, run.len());
        self.slab.extend_from_slice(run);
        Props {
            start: start as u32,
            len: run.len() as u32,
        }
    }

    /// Encodes properties as a record keeps them: sorted by key, each key once (the last value
    /// wins), no nulls.
    pub fn build(&mut self, mut props: Vec<(Sym, Value)>) -> Props {
        if !props.windows(2).all(|w| w[0].0 < w[1].0) {
            // A stable sort keeps the given order within a key; the last of each run wins.
            props.sort_by_key(|(k, _)| *k);
            let mut kept: Vec<(Sym, Value)> = Vec::with_capacity(props.len());
            for (k, v) in props {
                match kept.last_mut() {
                    Some(last) if last.0 == k => last.1 = v,
                    _ => kept.push((k, v)),
                }
            }
            props = kept;
        }
        let run: smallvec::SmallVec<[Prop; 8]> = props
            .into_iter()
            .filter_map(|(k, v)| self.encode(k, v))
            .collect();
        self.append(&run)
    }

    /// Sets (with null, removes) a property of a record; returns the old value.
    pub fn set(&mut self, props: &mut Props, key: Sym, value: Value) -> Option<Value> {
        let (start, len) = (props.start as usize, props.len as usize);
        let found = self.run(*props).binary_search_by_key(&key, |p| p.key);
        let old = match found {
            Ok(i) => Some(self.release(self.slab[start + i])),
            Err(_) => None,
        };
        let new = self.encode(key, value);
        match (found, new) {
            (Ok(i), Some(p)) => self.slab[start + i] = p,
            (Err(_), None) => {}
            (found, new) => {
                // The set of keys changes: the run is rebuilt, at the end of the slab.
                let mut run: Vec<Prop> = self.run(*props).to_vec();
                match (found, new) {
                    (Ok(i), None) => {
                        run.remove(i);
                    }
                    (Err(i), Some(p)) => run.insert(i, p),
                    _ => {}
                }
                if start + len == self.slab.len() {
                    self.slab.truncate(start);
                } else {
                    self.garbage += len;
                }
                *props = self.append(&run);
            }
        }
        old
    }

    /// Frees a record's properties (it leaves the store), returning them decoded.
    pub fn release_all(&mut self, props: Props) -> Vec<(Sym, Value)> {
        let run: Vec<Prop> = self.run(props).to_vec();
        let (start, len) = (props.start as usize, props.len as usize);
        if start + len == self.slab.len() {
            self.slab.truncate(start);
        } else {
            self.garbage += len;
        }
        run.into_iter().map(|p| (p.key, self.release(p))).collect()
    }

    /// Whether the slab holds more garbage than live runs (and enough to be worth a pass).
    pub fn wants_compaction(&self) -> bool {
        self.garbage >= COMPACT_AFTER && self.garbage * 2 > self.slab.len()
    }

    /// Rewrites the slab with the runs of `records` only, in their order, and points each
    /// record at its new place. Every live record must be among them.
    pub fn compact<'a>(&mut self, records: impl Iterator<Item = &'a mut Props>) {
        let mut slab = Vec::with_capacity(self.slab.len() - self.garbage.min(self.slab.len()));
        for props in records {
            let start = slab.len();
            slab.extend_from_slice(self.run(*props));
            props.start = start as u32;
        }
        self.slab = slab;
        self.garbage = 0;
    }

    /// Heap bytes a record's values hold beyond their sixteen bytes each: a string's
    /// characters and its pool slot, another value's slot and what it owns.
    pub fn heap_bytes(&self, props: Props) -> usize {
        self.run(props)
            .iter()
            .map(|p| match p.tag {
                STR => {
                    std::mem::size_of::<Option<Arc<str>>>()
                        + self.strs.get(p.bits).map_or(0, |s| s.len() + 16)
                }
                OTHER => self.others.get(p.bits).map_or(0, |v| {
                    crate::value::footprint(v, usize::MAX).map_or(0, |f| f.bytes)
                }),
                _ => 0,
            })
            .sum()
    }

    /// Bytes of the slab and the pools not counted per record (spare capacity, garbage runs,
    /// free slots).
    pub fn spare_bytes(&self, live_props: usize) -> usize {
        let used = live_props * std::mem::size_of::<Prop>()
            + self.strs.len() * std::mem::size_of::<Option<Arc<str>>>()
            + self.others.len() * std::mem::size_of::<Option<Value>>();
        (self.slab.capacity() * std::mem::size_of::<Prop>()
            + self.strs.bytes()
            + self.others.bytes())
        .saturating_sub(used)
    }

    /// Entries in the slab, garbage included.
    #[cfg(test)]
    pub fn slab_len(&self) -> usize {
        self.slab.len()
    }

    /// Pooled values in use (strings, others).
    #[cfg(test)]
    pub fn pooled(&self) -> (usize, usize) {
        (self.strs.len(), self.others.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn a_property_takes_sixteen_bytes_and_a_record_eight() {
        assert_eq!(std::mem::size_of::<Prop>(), 16);
        assert_eq!(std::mem::size_of::<Props>(), 8);
    }

    #[test]
    fn moved_runs_are_garbage_until_compaction_rewrites_the_live_ones() {
        let mut vals = Values::default();
        let mut records: Vec<Props> = (0..3)
            .map(|i| vals.build(vec![(1, Value::Int(i)), (2, Value::from("s"))]))
            .collect();
        // Replacing a value stays in place; adding a key moves the run (the last one, at the
        // end of the slab, grows in place).
        vals.set(&mut records[0], 1, Value::Int(10));
        assert_eq!((vals.slab.len(), vals.garbage), (6, 0));
        vals.set(&mut records[0], 3, Value::Bool(true));
        assert_eq!((vals.slab.len(), vals.garbage), (9, 2));
        vals.set(&mut records[0], 4, Value::Float(0.5));
        assert_eq!((vals.slab.len(), vals.garbage), (10, 2));
        let gone = records.remove(1);
        vals.release_all(gone);
        assert_eq!(vals.garbage, 4);
        vals.compact(records.iter_mut());
        assert_eq!((vals.slab.len(), vals.garbage), (6, 0));
        let got: Vec<String> = records
            .iter()
            .map(|r| shown(vals.entries(*r).collect::<Vec<_>>()))
            .collect();
        assert_eq!(
            got,
            vec![
                shown(vec![
                    (1, Value::Int(10)),
                    (2, Value::from("s")),
                    (3, Value::Bool(true)),
                    (4, Value::Float(0.5))
                ]),
                shown(vec![(1, Value::Int(2)), (2, Value::from("s"))]),
            ]
        );
        assert_eq!(vals.pooled(), (2, 0));
    }

    fn samples() -> Vec<Value> {
        vec![
            Value::Bool(true),
            Value::Bool(false),
            Value::Int(i64::MIN),
            Value::Int(-1),
            Value::Int(i64::MAX),
            Value::Float(-0.0),
            Value::Float(f64::NAN),
            Value::Float(f64::INFINITY),
            Value::Float(1.5),
            Value::from("héllo"),
            Value::from(""),
            Value::List(vec![Value::Int(1), Value::from("x")]),
            Value::Map(BTreeMap::from([(Arc::from("k"), Value::Int(2))])),
            Value::Bytes(Arc::from(&[1u8, 2, 3][..])),
        ]
    }

    /// Exact equality for the tests (`Value` has no `PartialEq`: Cypher's equality is
    /// three-valued): the debug form, which tells -0.0 from 0.0 and prints NaN.
    fn same(a: &Value, b: &Value) -> bool {
        format!("{a:?}") == format!("{b:?}")
    }

    fn shown<T: std::fmt::Debug>(t: T) -> String {
        format!("{t:?}")
    }

    #[test]
    fn every_kind_of_value_comes_back_as_it_went_in() {
        let mut vals = Values::default();
        let given: Vec<(Sym, Value)> = samples()
            .into_iter()
            .enumerate()
            .map(|(i, v)| (i as Sym, v))
            .collect();
        let props = vals.build(given.clone());
        assert_eq!(props.len(), given.len());
        for (k, v) in &given {
            assert!(same(&vals.get(props, *k).unwrap(), v), "{k}: {v:?}");
        }
        let back = vals.release_all(props);
        assert_eq!(back.len(), given.len());
        for ((k1, v1), (k2, v2)) in back.iter().zip(&given) {
            assert_eq!(k1, k2);
            assert!(same(v1, v2));
        }
        assert_eq!(vals.pooled(), (0, 0), "released values leave the pools");
    }

    #[test]
    fn build_sorts_keeps_the_last_value_of_a_key_and_drops_nulls() {
        let mut vals = Values::default();
        let props = vals.build(vec![
            (3, Value::from("a")),
            (1, Value::Int(1)),
            (3, Value::from("b")),
            (2, Value::Null),
        ]);
        let got: Vec<(Sym, Value)> = vals.entries(props).collect();
        assert_eq!(
            shown(got),
            shown(vec![(1, Value::Int(1)), (3, Value::from("b"))])
        );
        assert_eq!(vals.pooled(), (1, 0), "the replaced string is not kept");
    }

    #[test]
    fn set_replaces_inserts_and_removes_and_frees_what_it_replaces() {
        let mut vals = Values::default();
        let mut props = vals.build(vec![(5, Value::from("x"))]);
        assert!(vals.set(&mut props, 2, Value::Int(7)).is_none());
        assert!(vals.set(&mut props, 9, Value::List(vec![])).is_none());
        assert_eq!(
            shown(vals.set(&mut props, 5, Value::Int(1))),
            shown(Some(Value::from("x")))
        );
        assert_eq!(vals.pooled(), (0, 1));
        let keys: Vec<Sym> = vals.run(props).iter().map(Prop::key).collect();
        assert_eq!(keys, vec![2, 5, 9]);
        assert_eq!(
            shown(vals.set(&mut props, 9, Value::Null)),
            shown(Some(Value::List(vec![])))
        );
        assert!(vals.set(&mut props, 4, Value::Null).is_none());
        assert_eq!(props.len(), 2);
        assert_eq!(vals.pooled(), (0, 0));
        // A freed slot is taken again.
        let again = vals.build(vec![(1, Value::from("y"))]);
        assert_eq!(vals.strs.items.len(), 1);
        assert_eq!(shown(vals.get(again, 1)), shown(Some(Value::from("y"))));
    }

    proptest::proptest! {
        #[test]
        fn sets_agree_with_a_map(ops in proptest::collection::vec((0u32..6, 0u8..5, -3i64..3), 0..60)) {
            let mut vals = Values::default();
            let mut props = vals.build(Vec::new());
            let mut model: BTreeMap<Sym, Value> = BTreeMap::new();
            for (k, kind, x) in ops {
                let v = match kind {
                    0 => Value::Null,
                    1 => Value::Int(x),
                    2 => Value::from(format!("s{x}").as_str()),
                    3 => Value::List(vec![Value::Int(x)]),
                    _ => Value::Float(x as f64 / 2.0),
                };
                let old = vals.set(&mut props, k, v.clone());
                let want = if v.is_null() { model.remove(&k) } else { model.insert(k, v) };
                proptest::prop_assert_eq!(shown(old), shown(want));
                let got: BTreeMap<Sym, Value> = vals.entries(props).collect();
                proptest::prop_assert_eq!(shown(&got), shown(&model));
            }
            let strs = model.values().filter(|v| matches!(v, Value::String(_))).count();
            let lists = model.values().filter(|v| matches!(v, Value::List(_))).count();
            proptest::prop_assert_eq!(vals.pooled(), (strs, lists));
        }
    }
}
