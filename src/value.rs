//! The Cypher value model shared by the graph, the engine and the metrics.
//!
//! - [`Value`] is a Cypher value. Nodes and relationships are handles ([`NodeId`], [`RelId`])
//!   into a graph; a result [`Table`](crate::engine::Table) carries a snapshot of the entities
//!   it mentions.
//! - [`Value::equals`] is Cypher's `=` (three-valued: `None` is null), [`Value::compare`] is
//!   Cypher's `<`/`>` comparability, [`Value::order`] the total order `ORDER BY` uses across
//!   types, and [`GroupKey`] the equivalence `DISTINCT` and grouping use.
//!
//! ```
//! use grape::value::{footprint, type_name, GroupKey, Value};
//! use std::collections::HashSet;
//!
//! let (one, one_f) = (Value::Int(1), Value::Float(1.0));
//! assert_eq!(one.equals(&one_f), Some(true)); // Cypher's `=`
//! assert_eq!(Value::Null.equals(&one), None); // null: unknown
//! // ORDER BY's total order across types: strings sort before numbers.
//! assert!(Value::from("z").order(&one).is_lt());
//! // DISTINCT and grouping: null is equivalent to null, 1 to 1.0.
//! let keys: HashSet<GroupKey> = [Value::Null, Value::Null, one.clone(), one_f]
//!     .into_iter()
//!     .map(GroupKey)
//!     .collect();
//! assert_eq!(keys.len(), 2);
//! assert_eq!(type_name(&Value::List(vec![one])), "LIST");
//! let nested = Value::List(vec![Value::List(vec![])]);
//! assert_eq!(footprint(&nested, grape::value::MAX_NESTING).unwrap().depth, 2);
//! assert!(footprint(&nested, 1).is_none()); // deeper than allowed
//! ```
//!
//! # Layout
//!
//! - Cypher values, byte arrays included (Neo4j's `ByteArray`, a property type, Bolt's bytes,
//!   `{"~bytes": hex}` in JSON); equality, ordering, equivalence and hashing.
//! - `footprint`: size and depth without recursion. `MAX_NESTING`: the deepest value the engine
//!   builds. `FOREIGN_ID_BASE`: handles of another database's entities.
//! - Dates, times and durations are `temporal`'s, which imports nothing of grape's: `value` uses
//!   it, not the other way round. Points are `spatial`'s; `spatial` and `value` use each other
//!   (`spatial` writes coordinates with `value::format_float`), and `value` prints string
//!   literals with `syntax::write_string_literal`.

use chrono::Timelike;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A node handle: the node's element id in its graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// A relationship handle: the relationship's element id in its graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RelId(pub u32);

/// A path: nodes and the relationships between them (`rels.len() + 1 == nodes.len()`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    pub nodes: Vec<NodeId>,
    pub rels: Vec<RelId>,
}

/// A Cypher value.
#[derive(Debug, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(Arc<str>),
    List(Vec<Value>),
    Map(BTreeMap<Arc<str>, Value>),
    Node(NodeId),
    Relationship(RelId),
    Path(Arc<Path>),
    /// A date, time, date-time or duration.
    Temporal(Arc<crate::temporal::Temporal>),
    /// A spatial point.
    Point(Arc<crate::spatial::Point>),
    /// A byte array (Neo4j's `ByteArray`: APOC's compressed data, Bolt's bytes).
    Bytes(Arc<[u8]>),
}

/// Cloned level by level with [`crate::stack::deeper`]: a list or map nested to
/// [`MAX_NESTING`] clones on any thread.
impl Clone for Value {
    fn clone(&self) -> Self {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(*b),
            Value::Int(i) => Value::Int(*i),
            Value::Float(f) => Value::Float(*f),
            Value::String(s) => Value::String(s.clone()),
            Value::List(l) => crate::stack::deeper(|| Value::List(l.clone())),
            Value::Map(m) => crate::stack::deeper(|| Value::Map(m.clone())),
            Value::Node(n) => Value::Node(*n),
            Value::Relationship(r) => Value::Relationship(*r),
            Value::Path(p) => Value::Path(p.clone()),
            Value::Temporal(t) => Value::Temporal(t.clone()),
            Value::Point(p) => Value::Point(p.clone()),
            Value::Bytes(b) => Value::Bytes(b.clone()),
        }
    }
}

impl From<crate::spatial::Point> for Value {
    fn from(p: crate::spatial::Point) -> Self {
        Value::Point(Arc::new(p))
    }
}

impl From<crate::temporal::Temporal> for Value {
    fn from(t: crate::temporal::Temporal) -> Self {
        Value::Temporal(Arc::new(t))
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(Arc::from(s))
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(Arc::from(s))
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}

/// Node and relationship handles at or above this value in a table from another database
/// (`backend`, decoded by `bolt::convert`) stand for ids that do not fit in 31 bits (virtual
/// entities, which have negative ids); below it, a handle is the entity's id in that database.
pub const FOREIGN_ID_BASE: u32 = 1 << 31;

/// The most levels of lists and maps inside one another that a value may have. The engine
/// refuses to build a deeper value (a `LimitExceeded` error with detail `ValueNesting`), so
/// that every recursive walk over values (equality, hashing, ordering, printing, JSON and
/// PackStream encoding, `Drop`) stays far from the end of a thread's stack. Values decoded
/// from JSON or PackStream are bounded more tightly by those decoders (128).
pub const MAX_NESTING: usize = 500;

/// What [`footprint`] found: an estimate of the bytes a value holds and its nesting depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// Estimated bytes: the value's own slot plus everything it owns on the heap (shared
    /// strings are counted as if owned, so the estimate errs on the high side).
    pub bytes: usize,
    /// Levels of lists and maps: 0 for a scalar, 1 for a flat list or map.
    pub depth: usize,
}

/// Measures a value without recursion: estimated bytes and nesting depth. Stops early and
/// returns `None` as soon as the value is nested deeper than `max_depth` (so measuring a
/// hostile value costs at most `max_depth` steps down any one branch).
pub fn footprint(v: &Value, max_depth: usize) -> Option<Footprint> {
    const SLOT: usize = std::mem::size_of::<Value>();
    // Per-entry overhead of a BTreeMap node and an Arc header, roughly.
    const MAP_ENTRY: usize = 24;
    const ARC: usize = 16;
    if !matches!(v, Value::List(_) | Value::Map(_)) {
        // A scalar: no walk (and no allocation).
        return Some(Footprint {
            bytes: SLOT + scalar_heap(v),
            depth: 0,
        });
    }
    let mut bytes = 0usize;
    let mut deepest = 0usize;
    let mut stack: Vec<(&Value, usize)> = vec![(v, 0)];
    while let Some((v, depth)) = stack.pop() {
        bytes = bytes.saturating_add(SLOT);
        match v {
            Value::String(s) => bytes = bytes.saturating_add(ARC + s.len()),
            Value::List(items) => {
                let d = depth + 1;
                if d > max_depth {
                    return None;
                }
                deepest = deepest.max(d);
                for x in items {
                    match x {
                        Value::List(_) | Value::Map(_) => stack.push((x, d)),
                        Value::String(s) => bytes = bytes.saturating_add(SLOT + ARC + s.len()),
                        other => bytes = bytes.saturating_add(SLOT + scalar_heap(other)),
                    }
                }
            }
            Value::Map(m) => {
                let d = depth + 1;
                if d > max_depth {
                    return None;
                }
                deepest = deepest.max(d);
                for (k, x) in m {
                    bytes = bytes.saturating_add(MAP_ENTRY + ARC + k.len());
                    stack.push((x, d));
                }
            }
            other => bytes = bytes.saturating_add(scalar_heap(other)),
        }
    }
    Some(Footprint {
        bytes,
        depth: deepest,
    })
}

/// Heap bytes of a value that holds no list or map.
fn scalar_heap(v: &Value) -> usize {
    match v {
        Value::String(s) => 16 + s.len(),
        Value::Path(p) => 64 + 4 * (p.nodes.len() + p.rels.len()),
        Value::Temporal(_) => 16 + std::mem::size_of::<crate::temporal::Temporal>(),
        Value::Point(_) => 16 + std::mem::size_of::<crate::spatial::Point>(),
        _ => 0,
    }
}

/// The type of a value, as Cypher names it (`valueType` / error messages).
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NULL",
        Value::Bool(_) => "BOOLEAN",
        Value::Int(_) => "INTEGER",
        Value::Float(_) => "FLOAT",
        Value::String(_) => "STRING",
        Value::List(_) => "LIST",
        Value::Map(_) => "MAP",
        Value::Node(_) => "NODE",
        Value::Relationship(_) => "RELATIONSHIP",
        Value::Path(_) => "PATH",
        Value::Temporal(t) => t.type_name(),
        Value::Point(_) => "POINT",
        Value::Bytes(_) => "BYTE ARRAY",
    }
}

/// Java's `String.hashCode` (over UTF-16 units), spread as `HashMap` spreads it.
fn java_hash(s: &str) -> u32 {
    let h = s
        .encode_utf16()
        .fold(0u32, |h, u| h.wrapping_mul(31).wrapping_add(u32::from(u)));
    h ^ (h >> 16)
}

/// Map entries in the order Neo4j sends them: its maps are Java `HashMap`s (default capacity
/// 16, doubled whenever more than three quarters full), iterated bucket by bucket. Keys in
/// one bucket keep their order here (Java keeps insertion order, which a sorted map has lost).
pub(crate) fn java_hash_order<'a, K: AsRef<str> + 'a, V>(
    entries: impl Iterator<Item = (&'a K, V)>,
) -> Vec<(&'a K, V)> {
    let mut v: Vec<(&'a K, V)> = entries.collect();
    let mut capacity = 16usize;
    while v.len() * 4 > capacity * 3 {
        capacity *= 2;
    }
    let mask = (capacity - 1) as u32;
    v.sort_by_key(|(k, _)| java_hash(k.as_ref()) & mask);
    v
}

/// The short name of the Java class Neo4j holds a value in, as its errors name it
/// (`Cannot add `Long` and `Map``).
pub(crate) fn java_type_name(v: &Value) -> &'static str {
    use crate::temporal::Temporal;
    match v {
        Value::Null => "NoValue",
        Value::Bool(_) => "Boolean",
        Value::Int(_) => "Long",
        Value::Float(_) => "Double",
        Value::String(_) => "String",
        Value::List(_) | Value::Bytes(_) => "List",
        Value::Map(_) => "Map",
        Value::Node(_) => "Node",
        Value::Relationship(_) => "Relationship",
        Value::Path(_) => "Path",
        Value::Point(_) => "Point",
        Value::Temporal(t) => match &**t {
            Temporal::Date(_) => "Date",
            Temporal::LocalTime(_) => "LocalTime",
            Temporal::Time(..) => "Time",
            Temporal::LocalDateTime(_) => "LocalDateTime",
            Temporal::DateTime(..) => "DateTime",
            Temporal::Duration(_) => "Duration",
        },
    }
}

/// A value as Neo4j writes it in a GQL status message (`22N01: Expected the value 'abc' to be
/// …`): scalars as Cypher literals, temporals in their ISO form, a point as GeoJSON with its
/// CRS link, lists and maps as Neo4j's value classes print themselves (`List{Long(1)}`).
pub(crate) fn gql_value_text(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => java_double_string(*f),
        Value::String(s) => format!("'{s}'"),
        Value::Temporal(t) => t.to_neo4j_string(),
        Value::Point(p) => {
            let kind = if matches!(
                p.crs,
                crate::spatial::Crs::Wgs84 | crate::spatial::Crs::Wgs84_3D
            ) {
                "epsg"
            } else {
                "sr-org"
            };
            let coords: Vec<String> = p
                .coordinates()
                .into_iter()
                .map(java_double_string)
                .collect();
            format!(
                "{{geometry: {{type: \"Point\", coordinates: [{}], crs: {{type: link, properties: {{href: \"https://spatialreference.org/ref/{kind}/{}/\", code: {}}}}}}}}}",
                coords.join(", "),
                p.crs.srid(),
                p.crs.srid()
            )
        }
        other => crate::engine::neo4j_value_text(other),
    }
}

/// Compares an integer with a float exactly (no rounding of large integers).
fn cmp_int_float(i: i64, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    // 2^63 as f64: the first float above every i64.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f >= TWO_63 {
        return Some(Ordering::Less);
    }
    if f < -TWO_63 {
        return Some(Ordering::Greater);
    }
    let t = f.trunc();
    match i.cmp(&(t as i64)) {
        Ordering::Equal => {
            if f > t {
                Some(Ordering::Less)
            } else if f < t {
                Some(Ordering::Greater)
            } else {
                Some(Ordering::Equal)
            }
        }
        o => Some(o),
    }
}

/// Neo4j's order of numbers for `<`, `>`, ORDER BY, min and max: IEEE's, except that -0.0
/// sorts below 0.0 and 0 (Java's `Double.compare`; an integer zero is +0.0). `=` keeps
/// IEEE's equality ([`cmp_numbers_ieee`]).
fn cmp_numbers(a: &Value, b: &Value) -> Option<Ordering> {
    let o = cmp_numbers_ieee(a, b)?;
    if o != Ordering::Equal {
        return Some(o);
    }
    let negative_zero =
        |v: &Value| matches!(v, Value::Float(f) if *f == 0.0 && f.is_sign_negative());
    Some(negative_zero(b).cmp(&negative_zero(a)))
}

/// IEEE comparison of two numbers (0.0 = -0.0), exact across integers and floats.
fn cmp_numbers_ieee(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Int(x), Value::Float(y)) => cmp_int_float(*x, *y),
        (Value::Float(x), Value::Int(y)) => cmp_int_float(*y, *x).map(Ordering::reverse),
        _ => None,
    }
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Float(_))
    }

    /// The value as f64 if it is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// Cypher `=`: `Some(true/false)`, or `None` when the answer is null (a null operand, or a
    /// list/map whose comparison hinges on a null).
    pub fn equals(&self, other: &Value) -> Option<bool> {
        match (self, other) {
            (Value::Null, _) | (_, Value::Null) => None,
            (Value::Bool(a), Value::Bool(b)) => Some(a == b),
            (Value::String(a), Value::String(b)) => Some(a == b),
            (a, b) if a.is_number() && b.is_number() => {
                Some(cmp_numbers_ieee(a, b) == Some(Ordering::Equal))
            }
            (Value::List(a), Value::List(b)) => {
                if a.len() != b.len() {
                    return Some(false);
                }
                let mut unknown = false;
                for (x, y) in a.iter().zip(b.iter()) {
                    match crate::stack::deeper(|| x.equals(y)) {
                        Some(false) => return Some(false),
                        None => unknown = true,
                        Some(true) => {}
                    }
                }
                if unknown {
                    None
                } else {
                    Some(true)
                }
            }
            (Value::Map(a), Value::Map(b)) => {
                if a.len() != b.len() || a.keys().ne(b.keys()) {
                    return Some(false);
                }
                let mut unknown = false;
                for (x, y) in a.values().zip(b.values()) {
                    match crate::stack::deeper(|| x.equals(y)) {
                        Some(false) => return Some(false),
                        None => unknown = true,
                        Some(true) => {}
                    }
                }
                if unknown {
                    None
                } else {
                    Some(true)
                }
            }
            (Value::Node(a), Value::Node(b)) => Some(a == b),
            (Value::Relationship(a), Value::Relationship(b)) => Some(a == b),
            (Value::Path(a), Value::Path(b)) => Some(a == b),
            (Value::Temporal(a), Value::Temporal(b)) => Some(a.equals(b)),
            (Value::Point(a), Value::Point(b)) => {
                Some(a.crs == b.crs && a.coordinates() == b.coordinates())
            }
            (Value::Bytes(a), Value::Bytes(b)) => Some(a == b),
            _ => Some(false),
        }
    }

    /// Cypher comparability for `<`, `<=`, `>`, `>=`: `Ok(Some(ordering))` when comparable,
    /// `Ok(None)` when the result is null (null operands, values of different types, NaN).
    pub fn compare(&self, other: &Value) -> Option<Ordering> {
        match (self, other) {
            (Value::Null, _) | (_, Value::Null) => None,
            (a, b) if a.is_number() && b.is_number() => cmp_numbers(a, b),
            (Value::String(a), Value::String(b)) => Some(a.cmp(b)),
            (Value::Bool(a), Value::Bool(b)) => Some(a.cmp(b)),
            (Value::List(a), Value::List(b)) => {
                for (x, y) in a.iter().zip(b.iter()) {
                    match crate::stack::deeper(|| x.compare(y)) {
                        Some(Ordering::Equal) => {}
                        other => return other,
                    }
                }
                Some(a.len().cmp(&b.len()))
            }
            // Durations and points have no order, but equal ones compare equal (Neo4j's
            // ternary comparator: `d <= d` is true, `d < d` null; see `eval::compare_op`).
            (Value::Temporal(a), Value::Temporal(b)) => a
                .compare(b)
                .or_else(|| a.equals(b).then_some(Ordering::Equal)),
            (Value::Point(a), Value::Point(b)) => {
                (a.crs == b.crs && a.coordinates() == b.coordinates()).then_some(Ordering::Equal)
            }
            _ => None,
        }
    }

    /// Durations and points: values of no order, of which only equality is known (Neo4j's
    /// `isIncomparableType`).
    pub fn is_incomparable_type(&self) -> bool {
        match self {
            Value::Point(_) => true,
            Value::Temporal(t) => t.compare(t).is_none(),
            _ => false,
        }
    }

    /// Rank of the type in the ORDER BY order (ascending).
    fn order_rank(&self) -> u8 {
        match self {
            Value::Map(_) => 0,
            Value::Node(_) => 1,
            Value::Relationship(_) => 2,
            Value::List(_) => 3,
            Value::Path(_) => 4,
            // Points before temporal values, as Neo4j 5.26 orders them (the oracle).
            Value::Point(_) => 5,
            Value::Temporal(_) => 6,
            // (Byte arrays are not comparable in Cypher; ORDER BY puts them with strings.)
            Value::String(_) | Value::Bytes(_) => 7,
            Value::Bool(_) => 8,
            Value::Int(_) | Value::Float(_) => 9,
            Value::Null => 10,
        }
    }

    /// The total order `ORDER BY` uses, across types (ascending: maps, nodes, relationships,
    /// lists, paths, points, temporal values, strings, booleans, numbers — NaN after all
    /// numbers — and null last).
    pub fn order(&self, other: &Value) -> Ordering {
        let (ra, rb) = (self.order_rank(), other.order_rank());
        if ra != rb {
            return ra.cmp(&rb);
        }
        match (self, other) {
            (a, b) if a.is_number() => {
                let an = matches!(a, Value::Float(f) if f.is_nan());
                let bn = matches!(b, Value::Float(f) if f.is_nan());
                match (an, bn) {
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Greater,
                    (false, true) => Ordering::Less,
                    _ => cmp_numbers(a, b).unwrap_or(Ordering::Equal),
                }
            }
            (Value::String(a), Value::String(b)) => a.cmp(b),
            (Value::String(_), Value::Bytes(_)) => Ordering::Less,
            (Value::Bytes(_), Value::String(_)) => Ordering::Greater,
            (Value::Bytes(a), Value::Bytes(b)) => a.cmp(b),
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            (Value::List(a), Value::List(b)) => {
                for (x, y) in a.iter().zip(b.iter()) {
                    match crate::stack::deeper(|| x.order(y)) {
                        Ordering::Equal => {}
                        o => return o,
                    }
                }
                a.len().cmp(&b.len())
            }
            (Value::Map(a), Value::Map(b)) => {
                let ka: Vec<_> = a.keys().collect();
                let kb: Vec<_> = b.keys().collect();
                match ka.cmp(&kb) {
                    Ordering::Equal => {}
                    o => return o,
                }
                for (x, y) in a.values().zip(b.values()) {
                    match crate::stack::deeper(|| x.order(y)) {
                        Ordering::Equal => {}
                        o => return o,
                    }
                }
                Ordering::Equal
            }
            (Value::Node(a), Value::Node(b)) => a.cmp(b),
            (Value::Relationship(a), Value::Relationship(b)) => a.cmp(b),
            (Value::Path(a), Value::Path(b)) => {
                a.nodes.cmp(&b.nodes).then_with(|| a.rels.cmp(&b.rels))
            }
            (Value::Point(a), Value::Point(b)) => a.order(b),
            (Value::Temporal(a), Value::Temporal(b)) => {
                a.rank().cmp(&b.rank()).then_with(|| match (&**a, &**b) {
                    (
                        crate::temporal::Temporal::Duration(x),
                        crate::temporal::Temporal::Duration(y),
                    ) => (x.months, x.days, x.seconds, x.nanos)
                        .cmp(&(y.months, y.days, y.seconds, y.nanos)),
                    _ => a.compare(b).unwrap_or(Ordering::Equal),
                })
            }
            _ => Ordering::Equal,
        }
    }
}

/// A value used as a grouping or `DISTINCT` key: equivalence rather than equality, so that
/// null is equivalent to null and `1` to `1.0`. NaN is equivalent to nothing, itself included:
/// Neo4j 5.26 puts each NaN a statement computes in a group of its own (and DISTINCT keeps
/// them all), so a key holding one never finds its group.
#[derive(Clone, Debug)]
pub struct GroupKey(pub Value);

impl PartialEq for GroupKey {
    fn eq(&self, other: &Self) -> bool {
        equivalent(&self.0, &other.0)
    }
}
impl Eq for GroupKey {}

impl Hash for GroupKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_value(&self.0, state)
    }
}

/// Cypher equivalence (used by DISTINCT, grouping and `IN` on lists of keys); NaN is
/// equivalent to nothing (see [`GroupKey`]; APOC's sets and counts, over Neo4j's values, treat
/// it so too).
pub fn equivalent(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| crate::stack::deeper(|| equivalent(p, q)))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter().zip(y.iter()).all(|((k1, v1), (k2, v2))| {
                    k1 == k2 && crate::stack::deeper(|| equivalent(v1, v2))
                })
        }
        _ => a.equals(b) == Some(true),
    }
}

fn hash_value<H: Hasher>(v: &Value, state: &mut H) {
    match v {
        Value::Null => 0u8.hash(state),
        Value::Bool(b) => {
            1u8.hash(state);
            b.hash(state)
        }
        Value::Int(i) => {
            2u8.hash(state);
            i.hash(state)
        }
        Value::Float(f) => {
            // Integral floats hash like the integer they equal.
            if f.fract() == 0.0 && *f >= -9.2e18 && *f <= 9.2e18 {
                2u8.hash(state);
                (*f as i64).hash(state)
            } else if f.is_nan() {
                3u8.hash(state);
            } else {
                4u8.hash(state);
                f.to_bits().hash(state)
            }
        }
        Value::String(s) => {
            5u8.hash(state);
            s.hash(state)
        }
        Value::List(l) => {
            6u8.hash(state);
            l.len().hash(state);
            for x in l {
                crate::stack::deeper(|| hash_value(x, state))
            }
        }
        Value::Map(m) => {
            7u8.hash(state);
            m.len().hash(state);
            for (k, x) in m {
                k.hash(state);
                crate::stack::deeper(|| hash_value(x, state))
            }
        }
        Value::Node(n) => {
            8u8.hash(state);
            n.hash(state)
        }
        Value::Relationship(r) => {
            9u8.hash(state);
            r.hash(state)
        }
        Value::Path(p) => {
            10u8.hash(state);
            p.hash(state)
        }
        Value::Bytes(b) => {
            13u8.hash(state);
            b.hash(state)
        }
        Value::Point(p) => {
            12u8.hash(state);
            p.crs.hash(state);
            for c in p.coordinates() {
                // -0.0 equals 0.0: hash them alike.
                (c + 0.0).to_bits().hash(state)
            }
        }
        Value::Temporal(t) => {
            11u8.hash(state);
            match &**t {
                // Zoned values hash by instant, so that equal instants group together.
                crate::temporal::Temporal::DateTime(dt, o, _) => {
                    (*dt - chrono::Duration::seconds(*o as i64)).hash(state)
                }
                crate::temporal::Temporal::Time(x, o) => (
                    x.num_seconds_from_midnight() as i64 - *o as i64,
                    chrono::Timelike::nanosecond(x),
                )
                    .hash(state),
                other => other.hash(state),
            }
        }
    }
}

/// Formats a float as Cypher prints it: always with a `.` or an exponent (`1.0`, `1.5e-7`).
pub fn format_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    let s = format!("{f:?}");
    s
}

/// Java's `Character.isWhitespace`, which Neo4j's `trim` family and Lucene's white-space
/// tokenizer use: Unicode space separators except the non-breaking ones (U+00A0, U+2007,
/// U+202F), the line and paragraph separators, and the controls U+0009–U+000D and
/// U+001C–U+001F (not U+0085).
pub(crate) fn java_whitespace(c: char) -> bool {
    match c {
        '\u{9}'..='\u{d}' | '\u{1c}'..='\u{1f}' => true,
        '\u{a0}' | '\u{2007}' | '\u{202f}' | '\u{85}' => false,
        _ => c.is_whitespace(),
    }
}

/// A float as Java's `Double.toString` writes it, which is what Neo4j's `toString()` and
/// string concatenation give: plain decimals from 10^-3 up to 10^7 (`0.001`, `9999999.0`),
/// computerized scientific notation outside (`1.0E7`, `1.234567890125E11`, `1.0E-4`), the
/// shortest digits that read back as the same float.
///
/// ```
/// use grape::value::java_double_string as j;
/// assert_eq!(j(1e20), "1.0E20");
/// assert_eq!(j(123456789012.5), "1.234567890125E11");
/// assert_eq!(j(0.0001), "1.0E-4");
/// assert_eq!(j(9999999.0), "9999999.0");
/// assert_eq!(j(-0.0), "-0.0");
/// assert_eq!(j(f64::NEG_INFINITY), "-Infinity");
/// ```
pub fn java_double_string(f: f64) -> String {
    if !f.is_finite() || f == 0.0 {
        return format_float(f);
    }
    let a = f.abs();
    if (1e-3..1e7).contains(&a) {
        return format_float(f);
    }
    let e = format!("{f:e}");
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    if mantissa.contains('.') {
        format!("{mantissa}E{exp}")
    } else {
        format!("{mantissa}.0E{exp}")
    }
}

/// Lower-case hexadecimal text of bytes (a byte array's text form and its JSON encoding).
pub fn bytes_to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The bytes of hexadecimal text (`{"~bytes": "1f8b"}`); `None` when it is not.
pub fn bytes_from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

impl fmt::Display for Value {
    /// A compact Cypher-like text (nodes and relationships by id).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => write!(f, "null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{}", format_float(*x)),
            Value::String(s) => {
                let mut out = String::new();
                crate::syntax::write_string_literal(&mut out, s);
                write!(f, "{out}")
            }
            Value::List(l) => {
                write!(f, "[")?;
                for (i, x) in l.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    crate::stack::deeper(|| write!(f, "{x}"))?;
                }
                write!(f, "]")
            }
            Value::Map(m) => {
                write!(f, "{{")?;
                for (i, (k, x)) in m.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    crate::stack::deeper(|| write!(f, "{k}: {x}"))?;
                }
                write!(f, "}}")
            }
            Value::Temporal(t) => write!(f, "{t}"),
            Value::Point(p) => write!(f, "{p}"),
            Value::Bytes(b) => write!(f, "0x{}", bytes_to_hex(b)),
            Value::Node(n) => write!(f, "(#{})", n.0),
            Value::Relationship(r) => write!(f, "[#{}]", r.0),
            Value::Path(p) => {
                write!(f, "<")?;
                for (i, n) in p.nodes.iter().enumerate() {
                    if let Some(r) = i.checked_sub(1).and_then(|j| p.rels.get(j)) {
                        write!(f, "-[#{}]-", r.0)?;
                    }
                    write!(f, "(#{})", n.0)?;
                }
                write!(f, ">")
            }
        }
    }
}

/// The id of a database as its element ids carry it: UUID-shaped and the same for the same
/// name (in any case) on every run, so that element ids a test records stay valid.
pub fn database_id(db: &str) -> String {
    // Two FNV-1a hashes of the lower-case name, shaped as a version-4 UUID.
    let hash = |seed: u64| {
        db.to_lowercase().bytes().fold(seed, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    };
    let (a, b) = (hash(0xcbf2_9ce4_8422_2325), hash(0x6c62_272e_07bb_0142));
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | ((b >> 48) & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

/// Neo4j 5's element id of a node (`4:<database id>:<id>`) or relationship (`5:…`) of the
/// database `db`.
pub fn element_id(node: bool, db: &str, id: u32) -> String {
    format!("{}:{}:{id}", if node { 4 } else { 5 }, database_id(db))
}

/// The parts of an element id: whether it is a node's, its database id, and the element's id.
pub fn parse_element_id(s: &str) -> Option<(bool, &str, u32)> {
    let mut parts = s.splitn(3, ':');
    let node = match parts.next()? {
        "4" => true,
        "5" => false,
        _ => return None,
    };
    let db = parts.next()?;
    let id = parts.next()?.parse().ok()?;
    Some((node, db, id))
}

/// The node an element id names in the database `db` (none for another database's, or a
/// relationship's).
pub fn node_of_element_id(s: &str, db: &str) -> Option<NodeId> {
    match parse_element_id(s)? {
        (true, id_db, id) if id_db == database_id(db) => Some(NodeId(id)),
        _ => None,
    }
}

/// The relationship an element id names in the database `db`.
pub fn rel_of_element_id(s: &str, db: &str) -> Option<RelId> {
    match parse_element_id(s)? {
        (false, id_db, id) if id_db == database_id(db) => Some(RelId(id)),
        _ => None,
    }
}

/// Read access to the nodes and relationships that values refer to: a graph, or the snapshot a
/// result table keeps of the entities it returns.
pub trait Entities {
    /// The element id of a node (`node`) or relationship: of the database `neo4j` unless the
    /// entities know better (a result table knows its database, and where the elements a
    /// composite's statement returned come from).
    fn element_id(&self, node: bool, id: u32) -> String {
        element_id(node, "neo4j", id)
    }
    /// Labels of a node (empty when unknown).
    fn node_labels(&self, n: NodeId) -> Vec<Arc<str>>;
    /// Properties of a node (empty when unknown).
    fn node_props(&self, n: NodeId) -> BTreeMap<Arc<str>, Value>;
    /// Type of a relationship.
    fn rel_type(&self, r: RelId) -> Option<Arc<str>>;
    /// Start and end node of a relationship.
    fn rel_endpoints(&self, r: RelId) -> Option<(NodeId, NodeId)>;
    /// Properties of a relationship.
    fn rel_props(&self, r: RelId) -> BTreeMap<Arc<str>, Value>;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::from(x)
    }

    #[test]
    fn numbers_compare_across_int_and_float() {
        assert_eq!(Value::Int(1).equals(&Value::Float(1.0)), Some(true));
        assert_eq!(Value::Int(1).equals(&Value::Float(1.5)), Some(false));
        assert_eq!(
            Value::Int(i64::MAX).compare(&Value::Float(9.3e18)),
            Some(Ordering::Less)
        );
        assert_eq!(
            Value::Int(3).compare(&Value::Float(2.5)),
            Some(Ordering::Greater)
        );
        assert_eq!(Value::Float(f64::NAN).compare(&Value::Int(1)), None);
    }

    #[test]
    fn null_makes_equality_unknown() {
        assert_eq!(Value::Null.equals(&Value::Null), None);
        let a = Value::List(vec![Value::Int(1), Value::Null]);
        let b = Value::List(vec![Value::Int(1), Value::Int(2)]);
        assert_eq!(a.equals(&b), None);
        let c = Value::List(vec![Value::Int(2), Value::Null]);
        assert_eq!(a.equals(&c), Some(false));
        assert_eq!(s("a").equals(&Value::Int(1)), Some(false));
    }

    #[test]
    fn order_by_puts_types_in_neo4j_order_and_null_last() {
        let mut v = [
            Value::Null,
            Value::Int(2),
            Value::Float(f64::NAN),
            s("b"),
            Value::Bool(true),
            Value::Float(1.5),
            Value::List(vec![]),
            s("a"),
        ];
        v.sort_by(|a, b| a.order(b));
        let text: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        assert_eq!(
            text,
            ["[]", "'a'", "'b'", "true", "1.5", "2", "NaN", "null"]
        );
    }

    #[test]
    fn group_keys_treat_null_and_integral_floats_as_equivalent_and_each_nan_apart() {
        use std::collections::HashSet;
        let set: HashSet<GroupKey> = [
            Value::Null,
            Value::Null,
            Value::Int(1),
            Value::Float(1.0),
            Value::Float(f64::NAN),
            Value::Float(f64::NAN),
            Value::Float(1.5),
        ]
        .into_iter()
        .map(GroupKey)
        .collect();
        // null, 1 (and 1.0), 1.5, and each NaN on its own (as Neo4j groups them).
        assert_eq!(set.len(), 5);
        assert!(!equivalent(
            &Value::Float(f64::NAN),
            &Value::Float(f64::NAN)
        ));
        assert!(!equivalent(
            &Value::List(vec![Value::Float(f64::NAN)]),
            &Value::List(vec![Value::Float(f64::NAN)])
        ));
    }
}
