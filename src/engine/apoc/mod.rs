//! APOC core's functions (`apoc.coll.*`, `apoc.map.*`, `apoc.text.*`, `apoc.math.*`,
//! `apoc.convert.*`, `apoc.node.*`, …) with APOC's semantics, null handling and errors.
//!
//! APOC's randomness (`apoc.coll.shuffle`, `randomItem(s)`, `apoc.text.random`) is, like
//! grape's `rand()`, reproducible: a fixed pseudo-random sequence per process.

use super::error::{ErrorKind, ExecError, Result};
use crate::engine::exec::Runner;
use crate::engine::Detail;
use crate::graph::Dir;
use crate::value::{type_name, GroupKey, Value};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// Declares the members of a family of APOC functions or procedures: an enum with a variant per
/// member and the (lower-case) name each answers to. A call is bound to its member when it is
/// compiled; the family's implementation then matches on the variant, never on the name.
macro_rules! family {
    ($(#[$a:meta])* $E:ident { $($name:literal => $V:ident,)* }) => {
        $(#[$a])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub(crate) enum $E { $($V,)* }
        impl $E {
            /// Each member with the lower-case name it answers to.
            pub(crate) const ALL: &'static [(&'static str, $E)] = &[$(($name, $E::$V),)*];
        }
    };
}

mod agg;
pub(crate) mod coll;
mod compress;
mod convert;
pub(super) mod date;
mod date_text;
mod extra;
mod graph;
mod hashing;
pub(crate) mod hdr;
mod json_path;
mod map;
mod number;
pub(super) mod procs;
pub(super) mod refactor;
mod text;
#[cfg(feature = "mcp")]
pub(crate) use text::{base64_decode, base64_encode, B64};
pub(super) mod write;
mod xml;

pub(crate) use agg::{finish_aggregate, ApocAggregate};
use coll::*;
use convert::*;
use graph::*;
use map::*;
use text::*;

/// An APOC function that threw: Neo4j's `ProcedureCallFailed`, naming the function as Neo4j
/// spells it and the Java exception.
fn failed(name: &str, cause: impl std::fmt::Display) -> ExecError {
    let name = crate::catalogue::function(name).map_or(name, |f| f.name);
    ExecError::function_failed(name, cause).with_detail(Detail::InvalidArgumentValue)
}

/// Neo4j's refusal to pass a value where a function's signature says STRING (a list element of
/// a `LIST<STRING>` argument included): `Can't coerce `Double(1.500000e+00)` to String`.
fn coerce_to_string(v: &Value) -> ExecError {
    ExecError::type_error(format!("Can't coerce `{}` to String", java_value_text(v)))
}

/// A value as Neo4j's value classes print themselves in coercion errors (`Long(1)`,
/// `Double(1.500000e+00)`, `String("x")`).
pub(crate) fn java_value_text(v: &Value) -> String {
    match v {
        Value::Int(i) => format!("Long({i})"),
        Value::Float(f) if f.is_infinite() => {
            format!("Double({}Infinity)", if *f < 0.0 { "-" } else { "" })
        }
        Value::Float(f) => {
            let e = format!("{f:.6e}");
            // Java's %e: a signed exponent of at least two digits.
            match e.split_once('e') {
                Some((m, x)) => {
                    let (sign, digits) = x.strip_prefix('-').map_or(("+", x), |d| ("-", d));
                    format!("Double({m}e{sign}{digits:0>2})")
                }
                None => format!("Double({e})"),
            }
        }
        Value::Bool(b) => format!("Boolean('{b}')"),
        Value::String(s) => format!("String(\"{s}\")"),
        other => other.to_string(),
    }
}

/// A value's Java `toString()` as APOC sees the object Neo4j hands it: strings raw, floats as
/// `Double.toString`, lists `[a, b]`, maps `{k=v, …}` (keys in order: Java's HashMap order
/// agrees for single-character keys), points as Neo4j's `PointValue` prints them.
pub(crate) fn java_to_string(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::List(xs) => format!(
            "[{}]",
            xs.iter().map(java_to_string).collect::<Vec<_>>().join(", ")
        ),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}={}", java_to_string(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => crate::engine::functions::to_string_plain(other),
    }
}

/// A `NullPointerException` as APOC 5.26 throws it for a null where it reads a value
/// (`java.lang.NullPointerException: Cannot invoke "String.length()" because "text" is null`).
fn npe(name: &str, call: &str, variable: &str) -> ExecError {
    failed(
        name,
        format!("java.lang.NullPointerException: Cannot invoke \"{call}\" because \"{variable}\" is null"),
    )
}

fn wrong(name: &str, v: &Value, want: &str) -> ExecError {
    ExecError::type_error(format!(
        "{name}() expects {want}, not {} ({v})",
        type_name(v)
    ))
    .with_detail(Detail::InvalidArgumentType)
}

/// The i-th argument (`Null` when left out).
fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Null)
}

fn list<'a>(name: &str, v: &'a Value) -> Result<Option<&'a [Value]>> {
    match v {
        Value::Null => Ok(None),
        Value::List(xs) => Ok(Some(xs)),
        other => Err(wrong(name, other, "a list")),
    }
}

fn map<'a>(name: &str, v: &'a Value) -> Result<Option<&'a BTreeMap<Arc<str>, Value>>> {
    match v {
        Value::Null => Ok(None),
        Value::Map(m) => Ok(Some(m)),
        other => Err(wrong(name, other, "a map")),
    }
}

fn text<'a>(name: &str, v: &'a Value) -> Result<Option<&'a str>> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        other => Err(wrong(name, other, "a string")),
    }
}

fn int(name: &str, v: &Value) -> Result<Option<i64>> {
    match v {
        Value::Null => Ok(None),
        Value::Int(i) => Ok(Some(*i)),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Ok(Some(*f as i64)),
        other => Err(wrong(name, other, "an integer")),
    }
}

fn num(name: &str, v: &Value) -> Result<Option<f64>> {
    match v {
        Value::Null => Ok(None),
        Value::Int(i) => Ok(Some(*i as f64)),
        Value::Float(f) => Ok(Some(*f)),
        other => Err(wrong(name, other, "a number")),
    }
}

fn flag(v: &Value, default: bool) -> bool {
    match v {
        Value::Bool(b) => *b,
        _ => default,
    }
}

fn strings(name: &str, v: &Value) -> Result<Vec<String>> {
    Ok(list(name, v)?
        .unwrap_or_default()
        .iter()
        .filter_map(|x| match x {
            Value::String(s) => Some(s.to_string()),
            Value::Null => None,
            other => Some(crate::engine::functions::to_string_plain(other)),
        })
        .collect())
}

fn key(k: &str) -> Arc<str> {
    Arc::from(k)
}

/// Cypher equality for membership tests (`1` equals `1.0`; null never matches).
fn same(a: &Value, b: &Value) -> bool {
    crate::value::equivalent(a, b)
}

fn distinct(xs: &[Value]) -> Vec<Value> {
    let mut seen = HashSet::new();
    xs.iter()
        .filter(|x| seen.insert(GroupKey((*x).clone())))
        .cloned()
        .collect()
}

/// Each distinct value with its count, in first-seen order (a NaN counts alone: it equals
/// nothing).
fn counts(xs: &[Value]) -> Vec<(Value, i64)> {
    let mut out: Vec<(Value, i64)> = Vec::new();
    let mut at: HashMap<GroupKey, usize> = HashMap::new();
    for x in xs {
        match at.get(&GroupKey(x.clone())) {
            Some(&i) => out[i].1 += 1,
            None => {
                at.insert(GroupKey(x.clone()), out.len());
                out.push((x.clone(), 1));
            }
        }
    }
    out
}

/// A reproducible pseudo-random number in [0, 1) (SplitMix64 over a process counter).
fn random() -> f64 {
    use std::sync::atomic::{AtomicU64, Ordering as O};
    static CALLS: AtomicU64 = AtomicU64::new(0x5eed);
    let mut z = CALLS
        .fetch_add(0x9e37_79b9_7f4a_7c15, O::Relaxed)
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

fn index_in(len: usize) -> usize {
    ((random() * len as f64) as usize).min(len.saturating_sub(1))
}

/// `Some(result)` when `lname` is an APOC function grape runs.
/// APOC core 5.26's functions with a Java primitive parameter, `long` (`N`) or `boolean`
/// (`B`), by 0-based position: an explicit null there fails in Neo4j's argument conversion,
/// before APOC runs (an absent argument takes its default).
const PRIMITIVE_ARGS: &[(&str, &[(usize, char)])] = &[
    ("apoc.coll.combinations", &[(1, 'N'), (2, 'N')]),
    ("apoc.coll.fill", &[(1, 'N')]),
    ("apoc.coll.flatten", &[(1, 'B')]),
    ("apoc.coll.insert", &[(1, 'N')]),
    ("apoc.coll.insertall", &[(1, 'N')]),
    ("apoc.coll.pairwithoffset", &[(1, 'N')]),
    ("apoc.coll.partition", &[(1, 'N')]),
    ("apoc.coll.randomitems", &[(1, 'N'), (2, 'B')]),
    ("apoc.coll.remove", &[(1, 'N'), (2, 'N')]),
    ("apoc.coll.set", &[(1, 'N')]),
    ("apoc.coll.sortmulti", &[(2, 'N'), (3, 'N')]),
    ("apoc.coll.stdev", &[(1, 'B')]),
    ("apoc.convert.tosortedjsonmap", &[(1, 'B')]),
    ("apoc.date.add", &[(0, 'N'), (2, 'N')]),
    ("apoc.date.convert", &[(0, 'N')]),
    ("apoc.map.get", &[(3, 'B')]),
    ("apoc.map.mget", &[(3, 'B')]),
    ("apoc.map.sortedproperties", &[(1, 'B')]),
    ("apoc.map.submap", &[(3, 'B')]),
    ("apoc.map.values", &[(2, 'B')]),
    ("apoc.path.slice", &[(1, 'N'), (2, 'N')]),
    ("apoc.scoring.existence", &[(0, 'N'), (1, 'B')]),
    (
        "apoc.scoring.pareto",
        &[(0, 'N'), (1, 'N'), (2, 'N'), (3, 'N')],
    ),
    ("apoc.text.indexof", &[(2, 'N'), (3, 'N')]),
    ("apoc.text.indexesof", &[(2, 'N'), (3, 'N')]),
    ("apoc.text.lpad", &[(1, 'N')]),
    ("apoc.text.random", &[(0, 'N')]),
    ("apoc.text.repeat", &[(1, 'N')]),
    ("apoc.text.rpad", &[(1, 'N')]),
    ("apoc.util.validatepredicate", &[(0, 'B')]),
    ("apoc.xml.parse", &[(3, 'B')]),
];

/// Neo4j's refusal of an explicit null for a primitive parameter (see [`PRIMITIVE_ARGS`]).
fn null_primitive(name: &str, params: &[(usize, char)], args: &[Value]) -> Option<ExecError> {
    let (_, kind) = params
        .iter()
        .find(|(i, _)| matches!(args.get(*i), Some(Value::Null)))?;
    let class = if *kind == 'N' {
        "NumberValue"
    } else {
        "BooleanValue"
    };
    Some(failed(
        name,
        format!("java.lang.ClassCastException: class org.neo4j.values.storable.NoValue cannot be cast to class org.neo4j.values.storable.{class} (org.neo4j.values.storable.NoValue and org.neo4j.values.storable.{class} are in unnamed module of loader 'app')"),
    ))
}

/// An APOC function as a call is bound to it when compiled ([`resolve`]): its name, its
/// implementation and the parameters its Java signature declares primitive.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) name: &'static str,
    member: Member,
    primitive: &'static [(usize, char)],
}

/// The member of a family a call is bound to.
#[derive(Clone, Copy, Debug)]
enum Member {
    Coll(CollFn),
    Map(MapFn),
    Text(TextFn),
    Math(MathFn),
    Convert(ConvertFn),
    Path(PathFn),
    Graph(GraphFn),
    Misc(MiscFn),
    Date(date::DateFn),
    DateText(date_text::DateTextFn),
    Extra(extra::ExtraFn),
    Number(number::NumberFn),
    Hashing(hashing::HashFn),
    JsonPath(json_path::JsonPathFn),
    Compress(compress::CompressFn),
    Xml,
}

/// The member of a family (its `ALL`) named `lname` (lower-case), with its name.
pub(crate) fn named<E: Copy>(
    all: &'static [(&'static str, E)],
    lname: &str,
) -> Option<(&'static str, E)> {
    all.iter().find(|(n, _)| *n == lname).copied()
}

/// The APOC function `lname` (lower-case) as its family's member, with its name.
fn member(lname: &str) -> Option<(&'static str, Member)> {
    fn find<E: Copy>(
        all: &'static [(&'static str, E)],
        lname: &str,
        wrap: fn(E) -> Member,
    ) -> Option<(&'static str, Member)> {
        named(all, lname).map(|(n, m)| (n, wrap(m)))
    }
    find(CollFn::ALL, lname, Member::Coll)
        .or_else(|| find(MapFn::ALL, lname, Member::Map))
        .or_else(|| find(TextFn::ALL, lname, Member::Text))
        .or_else(|| find(MathFn::ALL, lname, Member::Math))
        .or_else(|| find(ConvertFn::ALL, lname, Member::Convert))
        .or_else(|| find(PathFn::ALL, lname, Member::Path))
        .or_else(|| find(GraphFn::ALL, lname, Member::Graph))
        .or_else(|| find(MiscFn::ALL, lname, Member::Misc))
        .or_else(|| find(date::DateFn::ALL, lname, Member::Date))
        .or_else(|| find(date_text::DateTextFn::ALL, lname, Member::DateText))
        .or_else(|| find(extra::ExtraFn::ALL, lname, Member::Extra))
        .or_else(|| find(number::NumberFn::ALL, lname, Member::Number))
        .or_else(|| find(hashing::HashFn::ALL, lname, Member::Hashing))
        .or_else(|| find(json_path::JsonPathFn::ALL, lname, Member::JsonPath))
        .or_else(|| find(compress::CompressFn::ALL, lname, Member::Compress))
        .or_else(|| (lname == xml::PARSE).then_some((xml::PARSE, Member::Xml)))
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "apoc function {}", self.name)
    }
}

impl Entry {
    pub(crate) fn call(self, run: &Runner, args: &[Value]) -> Result<Value> {
        if let Some(e) = null_primitive(self.name, self.primitive, args) {
            return Err(e);
        }
        let n = self.name;
        match self.member {
            Member::Coll(f) => coll(run, n, f, args),
            Member::Map(f) => map_fn(run, n, f, args),
            Member::Text(f) => text_fn(run, n, f, args),
            Member::Math(f) => math(n, f, args),
            Member::Convert(f) => convert(run, n, f, args),
            Member::Path(f) => path_fn(run, n, f, args),
            Member::Graph(f) => graph_fn(run, n, f, args),
            Member::Misc(f) => dispatch(run, n, f, args),
            Member::Date(f) => date::run(n, f, args),
            Member::DateText(f) => date_text::call(n, f, args),
            Member::Extra(f) => extra::dispatch(run, n, f, args),
            Member::Number(f) => number::dispatch(run, n, f, args),
            Member::Hashing(f) => hashing::dispatch(run, n, f, args),
            Member::JsonPath(f) => json_path::dispatch(run, n, f, args),
            Member::Compress(f) => compress::dispatch(run, n, f, args),
            Member::Xml => xml::parse_fn(run, n, args),
        }
    }
}

/// The APOC function `lname` (lower-case), bound to its implementation; `None` when the
/// engine does not run it. Resolved once, when a call is compiled: the family, the
/// sub-family of `apoc.coll.*`, `apoc.text.*`, … and the primitive parameters are looked up
/// here, not on every call.
pub(crate) fn resolve(lname: &str) -> Option<Entry> {
    let primitive = PRIMITIVE_ARGS
        .iter()
        .find(|(f, _)| *f == lname)
        .map_or(&[][..], |(_, p)| *p);
    let (name, member) = member(lname)?;
    Some(Entry {
        name,
        member,
        primitive,
    })
}

family! {
    /// The APOC functions of the smaller families, implemented in this file.
    MiscFn {
        "apoc.bitwise.op" => BitwiseOp,
        "apoc.create.uuid" => CreateUuid,
        "apoc.create.virtual.fromnode" => CreateVirtualFromNode,
        "apoc.create.vnode" => CreateVNode,
        "apoc.create.vrelationship" => CreateVRelationship,
        "apoc.diff.nodes" => DiffNodes,
        "apoc.meta.cypher.istype" => MetaCypherIsType,
        "apoc.meta.cypher.type" => MetaCypherType,
        "apoc.meta.cypher.types" => MetaCypherTypes,
        "apoc.number.arabictoroman" => NumberArabicToRoman,
        "apoc.number.romantoarabic" => NumberRomanToArabic,
        "apoc.schema.node.constraintexists" => SchemaNodeConstraintExists,
        "apoc.schema.node.indexexists" => SchemaNodeIndexExists,
        "apoc.schema.relationship.constraintexists" => SchemaRelationshipConstraintExists,
        "apoc.schema.relationship.indexexists" => SchemaRelationshipIndexExists,
        "apoc.scoring.existence" => ScoringExistence,
        "apoc.util.md5" => UtilMd5,
        "apoc.util.sha1" => UtilSha1,
        "apoc.util.sha256" => UtilSha256,
        "apoc.util.sha384" => UtilSha384,
        "apoc.util.sha512" => UtilSha512,
        "apoc.util.validatepredicate" => UtilValidatePredicate,
        "apoc.version" => Version,
    }
}

/// The APOC functions kept in this file ([`MiscFn`]).
fn dispatch(run: &Runner, n: &str, m: MiscFn, args: &[Value]) -> Result<Value> {
    let a0 = arg(args, 0);
    let a1 = arg(args, 1);
    let a2 = arg(args, 2);
    match m {
        MiscFn::BitwiseOp => {
            let (Some(a), Some(op), Some(b)) = (int(n, a0)?, text(n, a1)?, int(n, a2)?) else {
                return Ok(Value::Null);
            };
            // (An empty operator is no operation.)
            if op.is_empty() {
                return Ok(Value::Null);
            }
            let sh = |b: i64| (b & 63) as u32;
            Ok(Value::Int(match op.to_ascii_lowercase().as_str() {
                "&" | "and" => a & b,
                "|" | "or" => a | b,
                "^" | "xor" => a ^ b,
                "~" | "not" => !a,
                "<<" => a.wrapping_shl(sh(b)),
                ">>" => a.wrapping_shr(sh(b)),
                ">>>" => ((a as u64) >> sh(b)) as i64,
                other => return Err(failed(n, format!("Invalid bitwise operator : '{other}'"))),
            }))
        }
        MiscFn::CreateUuid => Ok(Value::from(crate::engine::functions::random_uuid())),
        MiscFn::UtilMd5
        | MiscFn::UtilSha1
        | MiscFn::UtilSha256
        | MiscFn::UtilSha384
        | MiscFn::UtilSha512 => {
            // The hex digest of the values' texts, concatenated (null as the empty text).
            let Some(values) = list(n, a0)? else {
                return Err(npe(n, "java.util.List.iterator()", "values"));
            };
            let text: String = values
                .iter()
                .map(|v| match v {
                    Value::Null => String::new(),
                    other => crate::engine::functions::to_string_plain(other),
                })
                .collect();
            use sha2::Digest;
            let bytes: Vec<u8> = match m {
                MiscFn::UtilMd5 => md5::Md5::digest(text.as_bytes()).to_vec(),
                MiscFn::UtilSha1 => sha1::Sha1::digest(text.as_bytes()).to_vec(),
                MiscFn::UtilSha256 => sha2::Sha256::digest(text.as_bytes()).to_vec(),
                MiscFn::UtilSha384 => sha2::Sha384::digest(text.as_bytes()).to_vec(),
                _ => sha2::Sha512::digest(text.as_bytes()).to_vec(),
            };
            Ok(Value::from(crate::value::bytes_to_hex(&bytes)))
        }
        MiscFn::DiffNodes => {
            let (Value::Node(_), Value::Node(_)) = (a0, a1) else {
                return Ok(Value::Null);
            };
            let (l, r) = (run.java_properties(a0)?, run.java_properties(a1)?);
            let mut left_only = BTreeMap::new();
            let mut right_only = BTreeMap::new();
            let mut common = BTreeMap::new();
            let mut different = BTreeMap::new();
            for (k, v) in &l {
                match r.get(k) {
                    None => {
                        left_only.insert(k.clone(), v.clone());
                    }
                    Some(w) if same(v, w) => {
                        common.insert(k.clone(), v.clone());
                    }
                    Some(w) => {
                        different.insert(
                            k.clone(),
                            Value::Map(BTreeMap::from([
                                (key("left"), v.clone()),
                                (key("right"), w.clone()),
                            ])),
                        );
                    }
                }
            }
            for (k, w) in &r {
                if !l.contains_key(k) {
                    right_only.insert(k.clone(), w.clone());
                }
            }
            Ok(Value::Map(BTreeMap::from([
                (key("leftOnly"), Value::Map(left_only)),
                (key("rightOnly"), Value::Map(right_only)),
                (key("inCommon"), Value::Map(common)),
                (key("different"), Value::Map(different)),
            ])))
        }
        MiscFn::SchemaNodeIndexExists
        | MiscFn::SchemaRelationshipIndexExists
        | MiscFn::SchemaNodeConstraintExists
        | MiscFn::SchemaRelationshipConstraintExists => {
            let on_nodes = matches!(
                m,
                MiscFn::SchemaNodeIndexExists | MiscFn::SchemaNodeConstraintExists
            );
            let Some(token) = text(n, a0)? else {
                let what = if on_nodes {
                    "A label"
                } else {
                    "A relationship type"
                };
                return Err(failed(
                    n,
                    format!("java.lang.IllegalArgumentException: {what} cannot have a null name"),
                ));
            };
            let props = strings(n, a1)?;
            let entity = if on_nodes {
                crate::graph::EntityType::Node
            } else {
                crate::graph::EntityType::Relationship
            };
            let schema = run.graph().schema();
            let same_props = |ps: &[Arc<str>]| {
                ps.len() == props.len() && ps.iter().zip(&props).all(|(a, b)| **a == **b)
            };
            Ok(Value::Bool(
                if matches!(
                    m,
                    MiscFn::SchemaNodeIndexExists | MiscFn::SchemaRelationshipIndexExists
                ) {
                    schema.indexes().iter().any(|i| {
                        i.entity == entity
                            && i.labels_or_types.iter().any(|l| &**l == token)
                            && same_props(&i.properties)
                    })
                } else {
                    schema.constraints().iter().any(|c| {
                        c.entity == entity && &*c.label == token && same_props(&c.properties)
                    })
                },
            ))
        }
        MiscFn::CreateVNode => {
            if matches!(args.get(1), Some(Value::Null)) {
                return Err(npe(n, "java.util.Map.size()", "m"));
            }
            // A label once, in the order first written; the properties as given, a null one
            // included (the node a client receives carries it).
            let mut labels = strings(n, a0)?;
            let mut seen = std::collections::HashSet::new();
            labels.retain(|l| seen.insert(l.clone()));
            let props = map(n, a1)?.cloned().unwrap_or_default();
            let id = run
                .sh
                .virtual_node(labels.iter().map(|l| key(l)).collect(), props)?;
            Ok(Value::Node(id))
        }
        MiscFn::CreateVRelationship => {
            let (Value::Node(from), Some(ty), Value::Node(to)) = (a0, text(n, a1)?, arg(args, 3))
            else {
                return Ok(Value::Null);
            };
            let props = map(n, a2)?.cloned().unwrap_or_default();
            let id = run.sh.virtual_rel(key(ty), *from, *to, props)?;
            Ok(Value::Relationship(id))
        }
        MiscFn::CreateVirtualFromNode => {
            let Value::Node(x) = a0 else {
                return Ok(Value::Null);
            };
            let keep = strings(n, a1)?;
            let props = run
                .java_properties(a0)?
                .into_iter()
                .filter(|(k, _)| keep.iter().any(|w| w == &**k))
                .collect();
            let labels = run.node_labels(*x);
            Ok(Value::Node(
                run.sh.virtuals.borrow_mut().add_node(labels, props),
            ))
        }
        MiscFn::Version => Ok(Value::from(crate::catalogue::NEO4J_VERSION)),
        MiscFn::ScoringExistence => {
            let score = num(n, a0)?.unwrap_or(0.0);
            Ok(Value::Float(if flag(a1, false) { score } else { 0.0 }))
        }
        MiscFn::UtilValidatePredicate => {
            if flag(a0, false) {
                let msg = text(n, a1)?.unwrap_or_default();
                let params = list(n, a2)?.unwrap_or_default();
                return Err(ExecError::function_failed(
                    "apoc.util.validatePredicate",
                    format_args!("java.lang.RuntimeException: {}", java_format(msg, params)),
                ));
            }
            Ok(Value::Bool(true))
        }
        // (Any value: what is not a number gives null.)
        MiscFn::NumberArabicToRoman => {
            let x = match a0 {
                Value::Int(i) => *i,
                Value::Float(f) => *f as i64,
                _ => return Ok(Value::Null),
            };
            match roman(x) {
                Some(r) => Ok(Value::from(r)),
                None => Err(ExecError::function_failed(
                    "apoc.number.arabicToRoman",
                    format_args!("the numeral for {x} would pass a million characters"),
                )),
            }
        }
        // (A null or unreadable numeral is 0.)
        MiscFn::NumberRomanToArabic => {
            let Some(s) = text(n, a0)? else {
                return Ok(Value::Int(0));
            };
            Ok(Value::Int(from_roman(s)))
        }
        MiscFn::MetaCypherType => Ok(Value::from(apoc_type_name(a0))),
        MiscFn::MetaCypherIsType => {
            let Some(want) = text(n, a1)? else {
                return Err(npe(n, "String.equalsIgnoreCase(String)", "type"));
            };
            Ok(Value::Bool(
                apoc_type_name(a0).eq_ignore_ascii_case(want.trim()),
            ))
        }
        MiscFn::MetaCypherTypes => match a0 {
            Value::Map(m) => Ok(Value::Map(
                m.iter()
                    .map(|(k, v)| (k.clone(), Value::from(apoc_type_name(v))))
                    .collect(),
            )),
            Value::Node(_) | Value::Relationship(_) => Ok(Value::Map(
                run.java_properties(a0)?
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::from(apoc_type_name(v))))
                    .collect(),
            )),
            _ => Ok(Value::Map(BTreeMap::new())),
        },
    }
}

/// APOC's name of a value's type (`apoc.meta.cypher.type`): `LIST OF <type>` for lists.
fn apoc_type_name(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Map(_) => "MAP".into(),
        Value::Node(_) => "NODE".into(),
        Value::Relationship(_) => "RELATIONSHIP".into(),
        Value::Path(_) => "PATH".into(),
        Value::List(xs) => {
            let inner: Vec<String> = xs.iter().map(apoc_type_name).collect();
            match inner.first() {
                Some(first) if inner.iter().all(|t| t == first) => format!("LIST OF {first}"),
                _ => "LIST OF ANY".into(),
            }
        }
        other => super::procedures::apoc_type(other).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every family's members together: each lower-case name binds to its own member, no
    /// name is in two families, and each is a function of Neo4j's catalogue.
    #[test]
    fn each_member_binds_to_itself() {
        fn names<E: Copy + std::fmt::Debug>(
            all: &[(&'static str, E)],
        ) -> Vec<(&'static str, String)> {
            all.iter().map(|(n, m)| (*n, format!("{m:?}"))).collect()
        }
        let mut all = Vec::new();
        all.extend(names(CollFn::ALL));
        all.extend(names(MapFn::ALL));
        all.extend(names(TextFn::ALL));
        all.extend(names(MathFn::ALL));
        all.extend(names(ConvertFn::ALL));
        all.extend(names(PathFn::ALL));
        all.extend(names(GraphFn::ALL));
        all.extend(names(MiscFn::ALL));
        all.extend(names(date::DateFn::ALL));
        all.extend(names(date_text::DateTextFn::ALL));
        all.extend(names(extra::ExtraFn::ALL));
        all.extend(names(number::NumberFn::ALL));
        all.extend(names(hashing::HashFn::ALL));
        all.extend(names(json_path::JsonPathFn::ALL));
        all.extend(names(compress::CompressFn::ALL));
        all.push((xml::PARSE, "Xml".into()));
        let mut seen = HashSet::new();
        for (name, variant) in &all {
            assert!(seen.insert(*name), "{name} is in two families");
            assert_eq!(*name, name.to_ascii_lowercase(), "{name}");
            let e = resolve(name).unwrap_or_else(|| panic!("{name} does not bind"));
            assert_eq!(e.name, *name);
            let bound = format!("{:?}", e.member);
            assert!(
                bound.ends_with(&format!("({variant})")) || bound == *variant,
                "{name}: {bound}"
            );
            assert!(
                crate::catalogue::function(name).is_some(),
                "{name} is not Neo4j's"
            );
        }
        // APOC core's functions in the catalogue, less its aggregating ones (bound with
        // their projection, `ApocAggregate`).
        assert_eq!(all.len(), 246 - ApocAggregate::ALL.len(), "{}", all.len());
        assert!(resolve("apoc.coll.nosuch").is_none());
    }
}
