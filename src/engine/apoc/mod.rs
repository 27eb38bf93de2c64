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

/// The APOC functions the engine runs (lower-case).
pub(crate) const IMPLEMENTED: &[&str] = &[
    "apoc.any.isdeleted",
    "apoc.any.properties",
    "apoc.any.property",
    "apoc.bitwise.op",
    "apoc.coll.avg",
    "apoc.coll.combinations",
    "apoc.coll.contains",
    "apoc.coll.containsall",
    "apoc.coll.containsallsorted",
    "apoc.coll.containsduplicates",
    "apoc.coll.containssorted",
    "apoc.coll.different",
    "apoc.coll.disjunction",
    "apoc.coll.dropduplicateneighbors",
    "apoc.coll.duplicates",
    "apoc.coll.duplicateswithcount",
    "apoc.coll.fill",
    "apoc.coll.flatten",
    "apoc.coll.frequencies",
    "apoc.coll.frequenciesasmap",
    "apoc.coll.indexof",
    "apoc.coll.insert",
    "apoc.coll.insertall",
    "apoc.coll.intersection",
    "apoc.coll.isequalcollection",
    "apoc.coll.max",
    "apoc.coll.min",
    "apoc.coll.occurrences",
    "apoc.coll.pairs",
    "apoc.coll.pairsmin",
    "apoc.coll.pairwithoffset",
    "apoc.coll.partition",
    "apoc.coll.randomitem",
    "apoc.coll.randomitems",
    "apoc.coll.remove",
    "apoc.coll.removeall",
    "apoc.coll.runningtotal",
    "apoc.coll.set",
    "apoc.coll.shuffle",
    "apoc.coll.sort",
    "apoc.coll.sortmaps",
    "apoc.coll.sortmulti",
    "apoc.coll.sortnodes",
    "apoc.coll.sorttext",
    "apoc.coll.stdev",
    "apoc.coll.subtract",
    "apoc.coll.sum",
    "apoc.coll.sumlongs",
    "apoc.coll.toset",
    "apoc.coll.union",
    "apoc.coll.unionall",
    "apoc.coll.zip",
    "apoc.convert.fromjsonlist",
    "apoc.convert.fromjsonmap",
    "apoc.convert.tojson",
    "apoc.convert.tolist",
    "apoc.convert.tomap",
    "apoc.convert.tonode",
    "apoc.convert.tonodelist",
    "apoc.convert.torelationship",
    "apoc.convert.torelationshiplist",
    "apoc.convert.toset",
    "apoc.convert.tosortedjsonmap",
    "apoc.create.uuid",
    "apoc.create.virtual.fromnode",
    "apoc.create.vnode",
    "apoc.create.vrelationship",
    "apoc.diff.nodes",
    "apoc.label.exists",
    "apoc.map.clean",
    "apoc.map.flatten",
    "apoc.map.fromlists",
    "apoc.map.fromnodes",
    "apoc.map.frompairs",
    "apoc.map.fromvalues",
    "apoc.map.get",
    "apoc.map.groupby",
    "apoc.map.groupbymulti",
    "apoc.map.merge",
    "apoc.map.mergelist",
    "apoc.map.mget",
    "apoc.map.removekey",
    "apoc.map.removekeys",
    "apoc.map.setentry",
    "apoc.map.setkey",
    "apoc.map.setlists",
    "apoc.map.setpairs",
    "apoc.map.setvalues",
    "apoc.map.sortedproperties",
    "apoc.map.submap",
    "apoc.map.unflatten",
    "apoc.map.values",
    "apoc.math.cosh",
    "apoc.math.coth",
    "apoc.math.csch",
    "apoc.math.maxbyte",
    "apoc.math.maxdouble",
    "apoc.math.maxint",
    "apoc.math.maxlong",
    "apoc.math.minbyte",
    "apoc.math.mindouble",
    "apoc.math.minint",
    "apoc.math.minlong",
    "apoc.math.sech",
    "apoc.math.sigmoid",
    "apoc.math.sigmoidprime",
    "apoc.math.sinh",
    "apoc.math.tanh",
    "apoc.meta.cypher.istype",
    "apoc.meta.cypher.type",
    "apoc.meta.cypher.types",
    "apoc.node.degree",
    "apoc.node.degree.in",
    "apoc.node.degree.out",
    "apoc.node.id",
    "apoc.node.labels",
    "apoc.node.relationship.exists",
    "apoc.node.relationship.types",
    "apoc.node.relationships.exist",
    "apoc.nodes.connected",
    "apoc.nodes.isdense",
    "apoc.nodes.relationship.types",
    "apoc.nodes.relationships.exist",
    "apoc.number.arabictoroman",
    "apoc.number.romantoarabic",
    "apoc.path.combine",
    "apoc.path.create",
    "apoc.path.elements",
    "apoc.path.slice",
    "apoc.rel.endnode",
    "apoc.rel.id",
    "apoc.rel.startnode",
    "apoc.rel.type",
    "apoc.schema.node.constraintexists",
    "apoc.schema.node.indexexists",
    "apoc.schema.relationship.constraintexists",
    "apoc.schema.relationship.indexexists",
    "apoc.scoring.existence",
    "apoc.text.base64decode",
    "apoc.text.base64encode",
    "apoc.text.base64urldecode",
    "apoc.text.base64urlencode",
    "apoc.text.bytecount",
    "apoc.text.bytes",
    "apoc.text.camelcase",
    "apoc.text.capitalize",
    "apoc.text.capitalizeall",
    "apoc.text.charat",
    "apoc.text.clean",
    "apoc.text.code",
    "apoc.text.comparecleaned",
    "apoc.text.decapitalize",
    "apoc.text.decapitalizeall",
    "apoc.text.distance",
    "apoc.text.format",
    "apoc.text.fuzzymatch",
    "apoc.text.hammingdistance",
    "apoc.text.indexesof",
    "apoc.text.indexof",
    "apoc.text.join",
    "apoc.text.levenshteindistance",
    "apoc.text.levenshteinsimilarity",
    "apoc.text.lpad",
    "apoc.text.phonetic",
    "apoc.text.random",
    "apoc.text.regexgroups",
    "apoc.text.regreplace",
    "apoc.text.repeat",
    "apoc.text.replace",
    "apoc.text.rpad",
    "apoc.text.split",
    "apoc.text.swapcase",
    "apoc.text.tocypher",
    "apoc.text.touppercase",
    "apoc.text.uppercamelcase",
    "apoc.text.urldecode",
    "apoc.text.urlencode",
    "apoc.util.md5",
    "apoc.util.sha1",
    "apoc.util.sha256",
    "apoc.util.sha384",
    "apoc.util.sha512",
    "apoc.util.validatepredicate",
    "apoc.version",
];

/// The APOC families kept in files of their own: their functions (lower-case) and how each
/// runs.
type Family = (&'static [&'static str], Run);

const FAMILIES: &[Family] = &[
    (date::FUNCTIONS, |_, n, a| date::run(n, a)),
    (date_text::FUNCTIONS, |_, n, a| date_text::call(n, a)),
    (extra::FUNCTIONS, extra::dispatch),
    (number::FUNCTIONS, number::dispatch),
    (hashing::FUNCTIONS, hashing::dispatch),
    (json_path::FUNCTIONS, json_path::dispatch),
    (xml::FUNCTIONS, xml::parse_fn),
    (compress::FUNCTIONS, compress::dispatch),
];

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

/// How an APOC function runs: called with its lower-case name (one implementation serves a
/// family of names) and its arguments.
type Run = fn(&Runner, &'static str, &[Value]) -> Result<Value>;

/// An APOC function as a call is bound to it when compiled ([`resolve`]): its name, its
/// implementation and the parameters its Java signature declares primitive.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) name: &'static str,
    run: Run,
    primitive: &'static [(usize, char)],
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
        (self.run)(run, self.name, args)
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
    for (names, run) in FAMILIES {
        if let Some(name) = names.iter().find(|n| **n == lname) {
            return Some(Entry {
                name,
                run: *run,
                primitive,
            });
        }
    }
    let i = IMPLEMENTED.binary_search(&lname).ok()?;
    let name = IMPLEMENTED[i];
    let run: Run = if name.starts_with("apoc.coll.") {
        |run, n, a| coll(run, n, after_prefix(n), a)
    } else if name.starts_with("apoc.map.") {
        |run, n, a| map_fn(run, n, after_prefix(n), a)
    } else if name.starts_with("apoc.text.") {
        |run, n, a| text_fn(run, n, after_prefix(n), a)
    } else if name.starts_with("apoc.math.") {
        |_, n, a| math(n, after_prefix(n), a)
    } else if name.starts_with("apoc.convert.") {
        |run, n, a| convert(run, n, after_prefix(n), a)
    } else if name.starts_with("apoc.path.") {
        |run, n, a| path_fn(run, n, after_prefix(n), a)
    } else if [
        "apoc.node.",
        "apoc.nodes.",
        "apoc.rel.",
        "apoc.label.",
        "apoc.any.",
    ]
    .iter()
    .any(|p| name.starts_with(p))
    {
        graph_fn
    } else {
        dispatch
    };
    Some(Entry {
        name,
        run,
        primitive,
    })
}

/// A family member's own name: what follows `apoc.<family>.` (`sum` of `apoc.coll.sum`).
fn after_prefix(n: &str) -> &str {
    n.get(5..)
        .and_then(|rest| rest.split_once('.'))
        .map_or("", |(_, member)| member)
}

/// The APOC functions kept in this file (the rest of [`IMPLEMENTED`]).
fn dispatch(run: &Runner, n: &str, args: &[Value]) -> Result<Value> {
    let a0 = arg(args, 0);
    let a1 = arg(args, 1);
    let a2 = arg(args, 2);
    match n {
        "apoc.bitwise.op" => {
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
        "apoc.create.uuid" => Ok(Value::from(crate::engine::functions::random_uuid())),
        "apoc.util.md5" | "apoc.util.sha1" | "apoc.util.sha256" | "apoc.util.sha384"
        | "apoc.util.sha512" => {
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
            let bytes: Vec<u8> = match n {
                "apoc.util.md5" => md5::Md5::digest(text.as_bytes()).to_vec(),
                "apoc.util.sha1" => sha1::Sha1::digest(text.as_bytes()).to_vec(),
                "apoc.util.sha256" => sha2::Sha256::digest(text.as_bytes()).to_vec(),
                "apoc.util.sha384" => sha2::Sha384::digest(text.as_bytes()).to_vec(),
                _ => sha2::Sha512::digest(text.as_bytes()).to_vec(),
            };
            Ok(Value::from(crate::value::bytes_to_hex(&bytes)))
        }
        "apoc.diff.nodes" => {
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
        "apoc.schema.node.indexexists"
        | "apoc.schema.relationship.indexexists"
        | "apoc.schema.node.constraintexists"
        | "apoc.schema.relationship.constraintexists" => {
            let Some(token) = text(n, a0)? else {
                let what = if n.starts_with("apoc.schema.node.") {
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
            let entity = if n.starts_with("apoc.schema.node.") {
                crate::graph::EntityType::Node
            } else {
                crate::graph::EntityType::Relationship
            };
            let schema = run.graph().schema();
            let same_props = |ps: &[Arc<str>]| {
                ps.len() == props.len() && ps.iter().zip(&props).all(|(a, b)| **a == **b)
            };
            Ok(Value::Bool(if n.ends_with("indexexists") {
                schema.indexes().iter().any(|i| {
                    i.entity == entity
                        && i.labels_or_types.iter().any(|l| &**l == token)
                        && same_props(&i.properties)
                })
            } else {
                schema
                    .constraints()
                    .iter()
                    .any(|c| c.entity == entity && &*c.label == token && same_props(&c.properties))
            }))
        }
        "apoc.create.vnode" => {
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
        "apoc.create.vrelationship" => {
            let (Value::Node(from), Some(ty), Value::Node(to)) = (a0, text(n, a1)?, arg(args, 3))
            else {
                return Ok(Value::Null);
            };
            let props = map(n, a2)?.cloned().unwrap_or_default();
            let id = run.sh.virtual_rel(key(ty), *from, *to, props)?;
            Ok(Value::Relationship(id))
        }
        "apoc.create.virtual.fromnode" => {
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
        "apoc.version" => Ok(Value::from(crate::catalogue::NEO4J_VERSION)),
        "apoc.scoring.existence" => {
            let score = num(n, a0)?.unwrap_or(0.0);
            Ok(Value::Float(if flag(a1, false) { score } else { 0.0 }))
        }
        "apoc.util.validatepredicate" => {
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
        "apoc.number.arabictoroman" => {
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
        "apoc.number.romantoarabic" => {
            let Some(s) = text(n, a0)? else {
                return Ok(Value::Int(0));
            };
            Ok(Value::Int(from_roman(s)))
        }
        "apoc.meta.cypher.type" => Ok(Value::from(apoc_type_name(a0))),
        "apoc.meta.cypher.istype" => {
            let Some(want) = text(n, a1)? else {
                return Err(npe(n, "String.equalsIgnoreCase(String)", "type"));
            };
            Ok(Value::Bool(
                apoc_type_name(a0).eq_ignore_ascii_case(want.trim()),
            ))
        }
        "apoc.meta.cypher.types" => match a0 {
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
        _ => Err(ExecError::unsupported(n)),
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
