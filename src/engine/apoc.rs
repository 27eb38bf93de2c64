//! APOC core's functions (`apoc.coll.*`, `apoc.map.*`, `apoc.text.*`, `apoc.math.*`,
//! `apoc.convert.*`, `apoc.node.*`, …) with APOC's semantics, null handling and errors.
//!
//! APOC's randomness (`apoc.coll.shuffle`, `randomItem(s)`, `apoc.text.random`) is, like
//! grape's `rand()`, reproducible: a fixed pseudo-random sequence per process.

use super::error::{ErrorKind, ExecError, Result};
use super::exec::Runner;
use crate::graph::Dir;
use crate::value::{type_name, GroupKey, Value};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

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

/// Whether `lname` (lower-case) is an APOC function the engine runs.
pub(crate) fn is_implemented(lname: &str) -> bool {
    IMPLEMENTED.binary_search(&lname).is_ok() || super::apoc_date::FUNCTIONS.contains(&lname)
}

fn failed(name: &str, cause: impl std::fmt::Display) -> ExecError {
    ExecError::runtime(
        ErrorKind::ArgumentError,
        format!("Failed to invoke function `{name}`: Caused by: {cause}"),
    )
    .with_detail("InvalidArgumentValue")
}

fn wrong(name: &str, v: &Value, want: &str) -> ExecError {
    ExecError::type_error(format!(
        "{name}() expects {want}, not {} ({v})",
        type_name(v)
    ))
    .with_detail("InvalidArgumentType")
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
            other => Some(super::functions::to_string_plain(other)),
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

fn counts(xs: &[Value]) -> Vec<(Value, i64)> {
    let mut order: Vec<Value> = Vec::new();
    let mut n: HashMap<GroupKey, i64> = HashMap::new();
    for x in xs {
        let k = GroupKey(x.clone());
        let c = n.entry(k).or_insert(0);
        if *c == 0 {
            order.push(x.clone());
        }
        *c += 1;
    }
    order
        .into_iter()
        .map(|x| {
            let c = n[&GroupKey(x.clone())];
            (x, c)
        })
        .collect()
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
pub(crate) fn call(run: &Runner, lname: &str, args: &[Value]) -> Option<Result<Value>> {
    if let Some(r) = super::apoc_date::call(lname, args) {
        return Some(r);
    }
    if !is_implemented(lname) {
        return None;
    }
    Some(dispatch(run, lname, args))
}

fn dispatch(run: &Runner, n: &str, args: &[Value]) -> Result<Value> {
    let a0 = arg(args, 0);
    let a1 = arg(args, 1);
    let a2 = arg(args, 2);
    if let Some(rest) = n.strip_prefix("apoc.coll.") {
        return coll(run, n, rest, args);
    }
    if let Some(rest) = n.strip_prefix("apoc.map.") {
        return map_fn(run, n, rest, args);
    }
    if let Some(rest) = n.strip_prefix("apoc.text.") {
        return text_fn(run, n, rest, args);
    }
    if let Some(rest) = n.strip_prefix("apoc.math.") {
        return math(n, rest, args);
    }
    if let Some(rest) = n.strip_prefix("apoc.convert.") {
        return convert(run, n, rest, args);
    }
    if let Some(rest) = n.strip_prefix("apoc.path.") {
        return path_fn(run, n, rest, args);
    }
    if n.starts_with("apoc.node.")
        || n.starts_with("apoc.nodes.")
        || n.starts_with("apoc.rel.")
        || n.starts_with("apoc.label.")
        || n.starts_with("apoc.any.")
    {
        return graph_fn(run, n, args);
    }
    match n {
        "apoc.bitwise.op" => {
            let (Some(a), Some(op), Some(b)) = (int(n, a0)?, text(n, a1)?, int(n, a2)?) else {
                return Ok(Value::Null);
            };
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
        "apoc.create.uuid" => Ok(Value::from(super::functions::random_uuid())),
        "apoc.util.md5" | "apoc.util.sha1" | "apoc.util.sha256" | "apoc.util.sha384"
        | "apoc.util.sha512" => {
            // The hex digest of the values' texts, concatenated (null as the empty text).
            let text: String = list(n, a0)?
                .unwrap_or_default()
                .iter()
                .map(|v| match v {
                    Value::Null => String::new(),
                    other => super::functions::to_string_plain(other),
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
            Ok(Value::from(
                bytes.iter().map(|b| format!("{b:02x}")).collect::<String>(),
            ))
        }
        "apoc.diff.nodes" => {
            let (Value::Node(_), Value::Node(_)) = (a0, a1) else {
                return Ok(Value::Null);
            };
            let (l, r) = (run.all_properties(a0)?, run.all_properties(a1)?);
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
                return Ok(Value::Bool(false));
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
            let labels = strings(n, a0)?;
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
                .all_properties(a0)?
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
                return Err(ExecError::runtime(
                    ErrorKind::ProcedureError,
                    format!(
                        "Failed to invoke function `apoc.util.validatePredicate`: Caused by: java.lang.RuntimeException: {}",
                        java_format(msg, params)
                    ),
                ));
            }
            Ok(Value::Bool(true))
        }
        "apoc.number.arabictoroman" => {
            let Some(x) = num(n, a0)? else {
                return Ok(Value::Null);
            };
            Ok(roman(x as i64).map_or(Value::Null, Value::from))
        }
        "apoc.number.romantoarabic" => {
            let Some(s) = text(n, a0)? else {
                return Ok(Value::Null);
            };
            Ok(Value::Int(from_roman(s)))
        }
        "apoc.meta.cypher.type" => Ok(Value::from(apoc_type_name(a0))),
        "apoc.meta.cypher.istype" => {
            let want = text(n, a1)?.unwrap_or_default();
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
                run.all_properties(a0)?
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

fn coll(run: &Runner, n: &str, f: &str, args: &[Value]) -> Result<Value> {
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    if f == "fill" {
        return coll_fill(n, a0, a1);
    }
    let xs = list(n, a0)?;
    // Functions of one list return null for a null list, except the predicates.
    let Some(xs) = xs else {
        return Ok(match f {
            "contains" | "containsall" | "containssorted" | "containsallsorted"
            | "containsduplicates" | "isequalcollection" => Value::Bool(false),
            _ => Value::Null,
        });
    };
    let numbers = |xs: &[Value]| -> Result<Vec<f64>> {
        xs.iter()
            .filter(|x| !x.is_null())
            .map(|x| num(n, x).map(|v| v.unwrap_or(0.0)))
            .collect()
    };
    Ok(match f {
        "avg" => {
            let v = numbers(xs)?;
            if v.is_empty() {
                Value::Null
            } else {
                Value::Float(v.iter().sum::<f64>() / v.len() as f64)
            }
        }
        "sum" => Value::Float(numbers(xs)?.iter().sum()),
        "sumlongs" => Value::Int(
            xs.iter()
                .filter(|x| !x.is_null())
                .map(|x| num(n, x).map(|v| v.unwrap_or(0.0) as i64))
                .sum::<Result<i64>>()?,
        ),
        "stdev" => {
            let v = numbers(xs)?;
            let corrected = flag(a1, true);
            let k = v.len() as f64 - if corrected { 1.0 } else { 0.0 };
            if v.is_empty() || k <= 0.0 {
                Value::Float(0.0)
            } else {
                let mean = v.iter().sum::<f64>() / v.len() as f64;
                Value::Float((v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / k).sqrt())
            }
        }
        "runningtotal" => {
            let mut out = Vec::with_capacity(xs.len());
            let (mut ints, mut floats, mut all_int) = (0i64, 0f64, true);
            for x in xs {
                match x {
                    Value::Int(i) => {
                        ints = ints.wrapping_add(*i);
                        floats += *i as f64;
                    }
                    Value::Float(f) => {
                        all_int = false;
                        floats += f;
                    }
                    Value::Null => {}
                    other => return Err(wrong(n, other, "a list of numbers")),
                }
                out.push(if all_int {
                    Value::Int(ints)
                } else {
                    Value::Float(floats)
                });
            }
            Value::List(out)
        }
        "max" | "min" => {
            let mut best: Option<&Value> = None;
            for x in xs.iter().filter(|x| !x.is_null()) {
                let better = match best {
                    None => true,
                    Some(b) => {
                        let o = x.order(b);
                        (f == "max" && o == Ordering::Greater)
                            || (f == "min" && o == Ordering::Less)
                    }
                };
                if better {
                    best = Some(x);
                }
            }
            best.cloned().unwrap_or(Value::Null)
        }
        "contains" | "containssorted" => Value::Bool(xs.iter().any(|x| same(x, a1))),
        "containsall" | "containsallsorted" => match list(n, a1)? {
            Some(ys) => Value::Bool(ys.iter().all(|y| xs.iter().any(|x| same(x, y)))),
            None => Value::Bool(false),
        },
        "containsduplicates" => Value::Bool(distinct(xs).len() < xs.len()),
        "different" => Value::Bool(distinct(xs).len() == xs.len()),
        "toset" => Value::List(distinct(xs)),
        "duplicates" => Value::List(
            counts(xs)
                .into_iter()
                .filter(|(_, c)| *c > 1)
                .map(|(x, _)| x)
                .collect(),
        ),
        "duplicateswithcount" | "frequencies" => Value::List(
            counts(xs)
                .into_iter()
                .filter(|(_, c)| f == "frequencies" || *c > 1)
                .map(|(x, c)| {
                    Value::Map(BTreeMap::from([
                        (key("item"), x),
                        (key("count"), Value::Int(c)),
                    ]))
                })
                .collect(),
        ),
        "frequenciesasmap" => Value::Map(
            counts(xs)
                .into_iter()
                .map(|(x, c)| (key(&super::functions::to_string_plain(&x)), Value::Int(c)))
                .collect(),
        ),
        "occurrences" => Value::Int(xs.iter().filter(|x| same(x, a1)).count() as i64),
        "indexof" => Value::Int(xs.iter().position(|x| same(x, a1)).map_or(-1, |i| i as i64)),
        "dropduplicateneighbors" => {
            let mut out: Vec<Value> = Vec::new();
            for x in xs {
                if out.last().is_none_or(|l| !same(l, x)) {
                    out.push(x.clone());
                }
            }
            Value::List(out)
        }
        "flatten" => {
            fn go(xs: &[Value], deep: bool, depth: usize, out: &mut Vec<Value>) {
                for x in xs {
                    match x {
                        Value::List(inner) if depth == 0 || deep => go(inner, deep, depth + 1, out),
                        other => out.push(other.clone()),
                    }
                }
            }
            let mut out = Vec::new();
            go(xs, flag(a1, false), 0, &mut out);
            Value::List(out)
        }
        "insert" | "set" => {
            let Some(i) = int(n, a1)? else {
                return Ok(Value::List(xs.to_vec()));
            };
            let mut out = xs.to_vec();
            if i < 0 || i as usize > out.len() || (f == "set" && i as usize == out.len()) {
                return Ok(Value::List(out));
            }
            if f == "insert" {
                out.insert(i as usize, a2.clone());
            } else {
                out[i as usize] = a2.clone();
            }
            Value::List(out)
        }
        "insertall" => {
            let Some(i) = int(n, a1)? else {
                return Ok(Value::List(xs.to_vec()));
            };
            let mut out = xs.to_vec();
            if i < 0 || i as usize > out.len() {
                return Ok(Value::List(out));
            }
            let items = list(n, a2)?.unwrap_or_default();
            out.splice(i as usize..i as usize, items.iter().cloned());
            Value::List(out)
        }
        "remove" => {
            let i = int(n, a1)?.unwrap_or(0);
            let len = match arg(args, 2) {
                Value::Null => 1,
                v => int(n, v)?.unwrap_or(1),
            };
            let mut out = xs.to_vec();
            if i < 0 || i as usize >= out.len() || len < 0 {
                return Ok(Value::List(out));
            }
            let end = (i as usize).saturating_add(len as usize).min(out.len());
            out.drain(i as usize..end);
            Value::List(out)
        }
        "removeall" | "subtract" => {
            let ys = list(n, a1)?.unwrap_or_default();
            let kept: Vec<Value> = xs
                .iter()
                .filter(|x| !ys.iter().any(|y| same(x, y)))
                .cloned()
                .collect();
            Value::List(if f == "subtract" {
                distinct(&kept)
            } else {
                kept
            })
        }
        "intersection" => {
            let ys = list(n, a1)?.unwrap_or_default();
            Value::List(distinct(
                &xs.iter()
                    .filter(|x| ys.iter().any(|y| same(x, y)))
                    .cloned()
                    .collect::<Vec<_>>(),
            ))
        }
        "union" => {
            let ys = list(n, a1)?.unwrap_or_default();
            Value::List(distinct(&[xs, ys].concat()))
        }
        "unionall" => Value::List([xs, list(n, a1)?.unwrap_or_default()].concat()),
        "disjunction" => {
            let ys = list(n, a1)?.unwrap_or_default();
            let only = |a: &[Value], b: &[Value]| -> Vec<Value> {
                a.iter()
                    .filter(|x| !b.iter().any(|y| same(x, y)))
                    .cloned()
                    .collect()
            };
            Value::List(distinct(&[only(xs, ys), only(ys, xs)].concat()))
        }
        "isequalcollection" => {
            let ys = list(n, a1)?.unwrap_or_default();
            let mut a = counts(xs);
            let b = counts(ys);
            a.retain(|(x, c)| b.iter().any(|(y, d)| same(x, y) && c == d));
            Value::Bool(xs.len() == ys.len() && a.len() == b.len())
        }
        "pairs" | "pairsmin" => {
            let mut out: Vec<Value> = xs.windows(2).map(|w| Value::List(w.to_vec())).collect();
            if f == "pairs" {
                if let Some(last) = xs.last() {
                    out.push(Value::List(vec![last.clone(), Value::Null]));
                }
            }
            Value::List(out)
        }
        "pairwithoffset" => {
            let off = int(n, a1)?.unwrap_or(0);
            Value::List(
                (0..xs.len() as i64)
                    .map(|i| {
                        let j = i + off;
                        let other = if j >= 0 && (j as usize) < xs.len() {
                            xs[j as usize].clone()
                        } else {
                            Value::Null
                        };
                        Value::List(vec![xs[i as usize].clone(), other])
                    })
                    .collect(),
            )
        }
        "partition" => {
            let size = int(n, a1)?.unwrap_or(0);
            if size <= 0 {
                return Err(failed(
                    n,
                    "java.lang.IllegalArgumentException: batchSize must be > 0",
                ));
            }
            Value::List(
                xs.chunks(size as usize)
                    .map(|c| Value::List(c.to_vec()))
                    .collect(),
            )
        }
        "zip" => {
            let ys = list(n, a1)?.unwrap_or_default();
            Value::List(
                xs.iter()
                    .enumerate()
                    .map(|(i, x)| {
                        Value::List(vec![x.clone(), ys.get(i).cloned().unwrap_or_default()])
                    })
                    .collect(),
            )
        }
        "combinations" => {
            let min = int(n, a1)?.unwrap_or(0).max(0) as usize;
            let max = match a2 {
                Value::Null => min,
                v => match int(n, v)?.unwrap_or(-1) {
                    -1 => min,
                    m => m.max(0) as usize,
                },
            };
            let max = max.min(xs.len());
            let mut out = Vec::new();
            for k in min.max(1)..=max {
                // Index combinations of size k in lexicographic order.
                let mut idx: Vec<usize> = (0..k).collect();
                loop {
                    run.sh.tick()?;
                    out.push(Value::List(idx.iter().map(|&i| xs[i].clone()).collect()));
                    run.sh.can_allocate(out.len().saturating_mul(k * 32))?;
                    let mut i = k;
                    while i > 0 && idx[i - 1] == xs.len() - k + i - 1 {
                        i -= 1;
                    }
                    if i == 0 {
                        break;
                    }
                    idx[i - 1] += 1;
                    for j in i..k {
                        idx[j] = idx[j - 1] + 1;
                    }
                }
            }
            Value::List(out)
        }
        "sort" => {
            let mut out: Vec<Value> = xs.iter().filter(|x| !x.is_null()).cloned().collect();
            out.sort_by(|a, b| a.order(b));
            Value::List(out)
        }
        "sorttext" => {
            let mut out: Vec<Value> = xs.iter().filter(|x| !x.is_null()).cloned().collect();
            let fold = |v: &Value| v.as_str().unwrap_or_default().to_lowercase();
            out.sort_by(|a, b| fold(a).cmp(&fold(b)).then_with(|| a.order(b)));
            Value::List(out)
        }
        "sortmaps" | "sortnodes" => {
            let prop = text(n, a1)?.unwrap_or_default();
            let (asc, prop) = match prop.strip_prefix('^') {
                Some(p) => (true, p),
                None => (false, prop),
            };
            let mut keyed: Vec<(Value, Value)> = xs
                .iter()
                .map(|x| {
                    let k = match x {
                        Value::Map(m) => m.get(prop).cloned().unwrap_or_default(),
                        Value::Node(_) | Value::Relationship(_) => {
                            run.property(x, prop).unwrap_or_default()
                        }
                        _ => Value::Null,
                    };
                    (k, x.clone())
                })
                .collect();
            keyed.sort_by(|a, b| {
                let o = a.0.order(&b.0);
                if asc {
                    o
                } else {
                    o.reverse()
                }
            });
            Value::List(keyed.into_iter().map(|(_, x)| x).collect())
        }
        "sortmulti" => {
            let fields = strings(n, a1)?;
            let limit = match a2 {
                Value::Null => -1,
                v => int(n, v)?.unwrap_or(-1),
            };
            let skip = int(n, arg(args, 3))?.unwrap_or(0).max(0) as usize;
            let mut out = xs.to_vec();
            out.sort_by(|a, b| {
                for f in &fields {
                    let (asc, f) = match f.strip_prefix('^') {
                        Some(p) => (true, p),
                        None => (false, f.as_str()),
                    };
                    let get = |v: &Value| match v {
                        Value::Map(m) => m.get(f).cloned().unwrap_or_default(),
                        _ => Value::Null,
                    };
                    let o = get(a).order(&get(b));
                    let o = if asc { o } else { o.reverse() };
                    if o != Ordering::Equal {
                        return o;
                    }
                }
                Ordering::Equal
            });
            let it = out.into_iter().skip(skip);
            Value::List(if limit >= 0 {
                it.take(limit as usize).collect()
            } else {
                it.collect()
            })
        }
        "randomitem" => {
            if xs.is_empty() {
                Value::Null
            } else {
                xs[index_in(xs.len())].clone()
            }
        }
        "randomitems" => {
            let count = int(n, a1)?.unwrap_or(0).max(0) as usize;
            let repick = flag(a2, false);
            let mut pool = xs.to_vec();
            let mut out = Vec::new();
            while out.len() < count && !pool.is_empty() {
                let i = index_in(pool.len());
                if repick {
                    out.push(pool[i].clone());
                } else {
                    out.push(pool.swap_remove(i));
                }
            }
            Value::List(out)
        }
        "shuffle" => {
            let mut out = xs.to_vec();
            for i in (1..out.len()).rev() {
                let j = index_in(i + 1);
                out.swap(i, j);
            }
            Value::List(out)
        }
        _ => return Err(ExecError::unsupported(n)),
    })
}

fn coll_fill(n: &str, item: &Value, count: &Value) -> Result<Value> {
    let Some(c) = int(n, count)? else {
        return Ok(Value::Null);
    };
    if c > 10_000_000 {
        return Err(failed(n, format!("cannot fill a list of {c} items")));
    }
    Ok(Value::List(vec![item.clone(); c.max(0) as usize]))
}

fn map_fn(run: &Runner, n: &str, f: &str, args: &[Value]) -> Result<Value> {
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    let keys_of = |m: &BTreeMap<Arc<str>, Value>| -> String {
        let ks: Vec<&str> = m.keys().map(|k| &**k).collect();
        format!("[{}]", ks.join(", "))
    };
    Ok(match f {
        "fromlists" => {
            let ks = strings(n, a0)?;
            let vs = list(n, a1)?.unwrap_or_default();
            if ks.len() != vs.len() {
                return Err(failed(
                    n,
                    "java.lang.RuntimeException: keys and values lists have different lengths",
                ));
            }
            Value::Map(ks.iter().map(|k| key(k)).zip(vs.iter().cloned()).collect())
        }
        "frompairs" => {
            let mut m = BTreeMap::new();
            for p in list(n, a0)?.unwrap_or_default() {
                if let Value::List(kv) = p {
                    if let (Some(Value::String(k)), v) = (kv.first(), kv.get(1)) {
                        m.insert(k.clone(), v.cloned().unwrap_or_default());
                    }
                }
            }
            Value::Map(m)
        }
        "fromvalues" => {
            let xs = list(n, a0)?.unwrap_or_default();
            let mut m = BTreeMap::new();
            for kv in xs.chunks(2) {
                if let Value::String(k) = &kv[0] {
                    m.insert(k.clone(), kv.get(1).cloned().unwrap_or_default());
                }
            }
            Value::Map(m)
        }
        "fromnodes" => {
            let (Some(label), Some(prop)) = (text(n, a0)?, text(n, a1)?) else {
                return Ok(Value::Null);
            };
            let g = run.graph();
            let mut m = BTreeMap::new();
            if let (Some(l), Some(p)) = (g.sym(label), g.sym(prop)) {
                for &node in g.nodes_with_label(l) {
                    if let Some(v) = g.node_property(node, p) {
                        m.insert(
                            key(&super::functions::to_string_plain(v)),
                            Value::Node(node),
                        );
                    }
                }
            }
            Value::Map(m)
        }
        "groupby" | "groupbymulti" => {
            let k = text(n, a1)?.unwrap_or_default();
            let mut m: BTreeMap<Arc<str>, Value> = BTreeMap::new();
            for x in list(n, a0)?.unwrap_or_default() {
                let v = match x {
                    Value::Map(mm) => mm.get(k).cloned(),
                    Value::Node(_) | Value::Relationship(_) => Some(run.property(x, k)?),
                    _ => None,
                };
                let Some(v) = v.filter(|v| !v.is_null()) else {
                    continue;
                };
                let kk = key(&super::functions::to_string_plain(&v));
                if f == "groupby" {
                    m.insert(kk, x.clone());
                } else {
                    match m.entry(kk).or_insert_with(|| Value::List(Vec::new())) {
                        Value::List(items) => items.push(x.clone()),
                        _ => unreachable!("groups are lists"),
                    }
                }
            }
            Value::Map(m)
        }
        "mergelist" => {
            let mut m = BTreeMap::new();
            for x in list(n, a0)?.unwrap_or_default() {
                if let Value::Map(mm) = x {
                    m.extend(mm.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
            }
            Value::Map(m)
        }
        _ => {
            let Some(m) = map(n, a0)? else {
                return Ok(Value::Null);
            };
            match f {
                "merge" => {
                    let mut out = m.clone();
                    if let Some(m2) = map(n, a1)? {
                        out.extend(m2.iter().map(|(k, v)| (k.clone(), v.clone())));
                    }
                    Value::Map(out)
                }
                "setentry" | "setkey" => {
                    let mut out = m.clone();
                    if let Some(k) = text(n, a1)? {
                        out.insert(key(k), a2.clone());
                    }
                    Value::Map(out)
                }
                "setlists" => {
                    let mut out = m.clone();
                    let ks = strings(n, a1)?;
                    let vs = list(n, a2)?.unwrap_or_default();
                    for (k, v) in ks.iter().zip(vs) {
                        out.insert(key(k), v.clone());
                    }
                    Value::Map(out)
                }
                "setpairs" => {
                    let mut out = m.clone();
                    for p in list(n, a1)?.unwrap_or_default() {
                        if let Value::List(kv) = p {
                            if let Some(Value::String(k)) = kv.first() {
                                out.insert(k.clone(), kv.get(1).cloned().unwrap_or_default());
                            }
                        }
                    }
                    Value::Map(out)
                }
                "setvalues" => {
                    let mut out = m.clone();
                    let xs = list(n, a1)?.unwrap_or_default();
                    for kv in xs.chunks(2) {
                        if let Value::String(k) = &kv[0] {
                            out.insert(k.clone(), kv.get(1).cloned().unwrap_or_default());
                        }
                    }
                    Value::Map(out)
                }
                "removekey" | "removekeys" => {
                    let ks: Vec<String> = if f == "removekey" {
                        text(n, a1)?
                            .map(|k| vec![k.to_string()])
                            .unwrap_or_default()
                    } else {
                        strings(n, a1)?
                    };
                    let recursive = match a2 {
                        Value::Map(c) => flag(c.get("recursive").unwrap_or(&Value::Null), false),
                        _ => false,
                    };
                    fn strip(m: &BTreeMap<Arc<str>, Value>, ks: &[String], deep: bool) -> Value {
                        Value::Map(
                            m.iter()
                                .filter(|(k, _)| !ks.iter().any(|x| x == &***k))
                                .map(|(k, v)| {
                                    let v = match v {
                                        Value::Map(inner) if deep => strip(inner, ks, deep),
                                        Value::List(items) if deep => Value::List(
                                            items
                                                .iter()
                                                .map(|x| match x {
                                                    Value::Map(im) => strip(im, ks, deep),
                                                    other => other.clone(),
                                                })
                                                .collect(),
                                        ),
                                        other => other.clone(),
                                    };
                                    (k.clone(), v)
                                })
                                .collect(),
                        )
                    }
                    strip(m, &ks, recursive)
                }
                "clean" => {
                    let ks = strings(n, a1)?;
                    let vs = list(n, a2)?.unwrap_or_default();
                    Value::Map(
                        m.iter()
                            .filter(|(k, v)| {
                                !ks.iter().any(|x| x == &***k)
                                    && !v.is_null()
                                    && !vs.iter().any(|y| same(v, y))
                            })
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect(),
                    )
                }
                "get" => {
                    let k = text(n, a1)?.unwrap_or_default();
                    match m.get(k) {
                        Some(v) => v.clone(),
                        // APOC fails only when no default value is given.
                        None if flag(arg(args, 3), true) && a2.is_null() => {
                            return Err(failed(
                                n,
                                format!(
                                    "java.lang.IllegalArgumentException: Key {k} is not of one of the existing keys {}",
                                    keys_of(m)
                                ),
                            ))
                        }
                        None => a2.clone(),
                    }
                }
                "mget" | "submap" => {
                    let ks = strings(n, a1)?;
                    let defaults = list(n, a2)?.unwrap_or_default();
                    let fail = flag(arg(args, 3), true) && defaults.is_empty();
                    let mut vals = Vec::new();
                    for (i, k) in ks.iter().enumerate() {
                        match m.get(k.as_str()) {
                            Some(v) => vals.push((key(k), v.clone())),
                            None if fail => {
                                return Err(failed(
                                    n,
                                    format!(
                                        "java.lang.IllegalArgumentException: Key {k} is not of one of the existing keys {}",
                                        keys_of(m)
                                    ),
                                ))
                            }
                            None => vals.push((key(k), defaults.get(i).cloned().unwrap_or_default())),
                        }
                    }
                    if f == "mget" {
                        Value::List(vals.into_iter().map(|(_, v)| v).collect())
                    } else {
                        Value::Map(vals.into_iter().collect())
                    }
                }
                "values" => {
                    let ks = strings(n, a1)?;
                    let nulls = flag(a2, false);
                    Value::List(
                        ks.iter()
                            .filter_map(|k| match m.get(k.as_str()) {
                                Some(v) => Some(v.clone()),
                                None if nulls => Some(Value::Null),
                                None => None,
                            })
                            .collect(),
                    )
                }
                "sortedproperties" => {
                    let ignore_case = flag(a1, true);
                    let mut kv: Vec<(&Arc<str>, &Value)> = m.iter().collect();
                    if ignore_case {
                        kv.sort_by_key(|a| a.0.to_lowercase());
                    }
                    Value::List(
                        kv.into_iter()
                            .map(|(k, v)| Value::List(vec![Value::String(k.clone()), v.clone()]))
                            .collect(),
                    )
                }
                "flatten" => {
                    let delim = text(n, a1)?.unwrap_or(".");
                    fn go(
                        m: &BTreeMap<Arc<str>, Value>,
                        prefix: &str,
                        delim: &str,
                        out: &mut BTreeMap<Arc<str>, Value>,
                    ) {
                        for (k, v) in m {
                            let full = if prefix.is_empty() {
                                k.to_string()
                            } else {
                                format!("{prefix}{delim}{k}")
                            };
                            match v {
                                Value::Map(inner) => go(inner, &full, delim, out),
                                other => {
                                    out.insert(Arc::from(full.as_str()), other.clone());
                                }
                            }
                        }
                    }
                    let mut out = BTreeMap::new();
                    go(m, "", delim, &mut out);
                    Value::Map(out)
                }
                "unflatten" => {
                    let delim = text(n, a1)?.unwrap_or(".");
                    let mut out: BTreeMap<Arc<str>, Value> = BTreeMap::new();
                    for (k, v) in m {
                        let parts: Vec<&str> = if delim.is_empty() {
                            vec![k]
                        } else {
                            k.split(delim).collect()
                        };
                        if parts.len() > crate::value::MAX_NESTING {
                            return Err(failed(
                                n,
                                format!(
                                    "the key {k:?} would nest maps deeper than {}",
                                    crate::value::MAX_NESTING
                                ),
                            ));
                        }
                        let mut cur = &mut out;
                        for (i, p) in parts.iter().enumerate() {
                            if i + 1 == parts.len() {
                                cur.insert(key(p), v.clone());
                            } else {
                                let slot = cur
                                    .entry(key(p))
                                    .or_insert_with(|| Value::Map(BTreeMap::new()));
                                if !matches!(slot, Value::Map(_)) {
                                    *slot = Value::Map(BTreeMap::new());
                                }
                                let Value::Map(next) = slot else {
                                    unreachable!("made a map above")
                                };
                                cur = next;
                            }
                        }
                    }
                    Value::Map(out)
                }
                _ => return Err(ExecError::unsupported(n)),
            }
        }
    })
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn decapitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The words of a text for the case conversions: runs of letters and digits.
fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

fn levenshtein(a: &str, b: &str) -> usize {
    strsim::levenshtein(a, b)
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64_encode(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

fn base64_decode(text: &str, alphabet: &[u8; 64]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text
        .bytes()
        .filter(|c| *c != b'=' && !c.is_ascii_whitespace())
    {
        let v = alphabet.iter().position(|a| *a == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Java's `URLEncoder.encode(s, UTF-8)`: letters, digits, `.-*_` kept, space as `+`.
fn url_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'*' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn url_decode(s: &str) -> Option<String> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// American Soundex (`apoc.text.phonetic`), per word, words joined.
fn soundex(s: &str) -> String {
    let code = |c: char| match c.to_ascii_uppercase() {
        'B' | 'F' | 'P' | 'V' => '1',
        'C' | 'G' | 'J' | 'K' | 'Q' | 'S' | 'X' | 'Z' => '2',
        'D' | 'T' => '3',
        'L' => '4',
        'M' | 'N' => '5',
        'R' => '6',
        'H' | 'W' => '-',
        _ => '0',
    };
    let mut out = String::new();
    for word in s.split_whitespace() {
        let letters: Vec<char> = word.chars().filter(|c| c.is_ascii_alphabetic()).collect();
        let Some(&first) = letters.first() else {
            continue;
        };
        let mut w = String::new();
        w.push(first.to_ascii_uppercase());
        let mut last = code(first);
        for &c in &letters[1..] {
            let k = code(c);
            if k == '-' {
                continue;
            }
            if k != '0' && k != last {
                w.push(k);
            }
            last = k;
            if w.len() == 4 {
                break;
            }
        }
        while w.len() < 4 {
            w.push('0');
        }
        out.push_str(&w);
    }
    out
}

/// Java's `String.format` for the common conversions: `%s`, `%d`, `%f` / `%.Nf`, `%%`, `%n`.
fn java_format(fmt: &str, params: &[Value]) -> String {
    let mut out = String::new();
    let mut next = params.iter();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = String::new();
        while let Some(&d) = chars.peek() {
            if d.is_ascii_digit() || d == '.' {
                spec.push(d);
                chars.next();
            } else {
                break;
            }
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('n') => out.push('\n'),
            Some('s') | Some('S') => out.push_str(
                &next
                    .next()
                    .map(super::functions::to_string_plain)
                    .unwrap_or_else(|| "null".into()),
            ),
            Some('d') => out.push_str(&match next.next() {
                Some(Value::Int(i)) => i.to_string(),
                Some(Value::Float(f)) => (*f as i64).to_string(),
                Some(other) => super::functions::to_string_plain(other),
                None => "null".into(),
            }),
            Some('f') => {
                let prec = spec
                    .split_once('.')
                    .and_then(|(_, p)| p.parse::<usize>().ok())
                    .unwrap_or(6);
                out.push_str(&match next.next().and_then(Value::as_f64) {
                    Some(x) => format!("{x:.prec$}"),
                    None => "null".into(),
                });
            }
            Some(other) => {
                out.push('%');
                out.push_str(&spec);
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

fn roman(mut x: i64) -> Option<String> {
    if !(1..=3999).contains(&x) {
        return None;
    }
    const TABLE: [(i64, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (v, s) in TABLE {
        while x >= v {
            out.push_str(s);
            x -= v;
        }
    }
    Some(out)
}

fn from_roman(s: &str) -> i64 {
    let val = |c: char| match c.to_ascii_uppercase() {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        'L' => 50,
        'C' => 100,
        'D' => 500,
        'M' => 1000,
        _ => 0,
    };
    let v: Vec<i64> = s.chars().map(val).collect();
    let mut total = 0;
    for (i, x) in v.iter().enumerate() {
        if v.get(i + 1).is_some_and(|next| next > x) {
            total -= x;
        } else {
            total += x;
        }
    }
    total
}

/// Java's `String.split(regex, limit)`: with limit 0, trailing empty strings are dropped.
fn java_split(s: &str, re: &regex::Regex, limit: i64) -> Vec<Value> {
    let mut parts: Vec<&str> = if limit > 0 {
        re.splitn(s, limit as usize).collect()
    } else {
        re.split(s).collect()
    };
    // A zero-width match at the start gives no leading empty string in Java.
    if parts.first() == Some(&"") && re.find(s).is_some_and(|m| m.start() == 0 && m.end() == 0) {
        parts.remove(0);
    }
    if limit == 0 {
        while parts.last() == Some(&"") && parts.len() > 1 {
            parts.pop();
        }
        if parts == [""] && !s.is_empty() {
            parts.clear();
        }
    }
    parts.into_iter().map(Value::from).collect()
}

/// Java's replacement text (`$1`, `\$`) in the `regex` crate's syntax (`${1}`, `$$`).
fn java_replacement(r: &str) -> String {
    let mut out = String::new();
    let mut chars = r.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    if n == '$' {
                        out.push_str("$$");
                    } else {
                        out.push(n);
                    }
                }
            }
            '$' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                if digits.is_empty() {
                    out.push_str("$$");
                } else {
                    out.push_str(&format!("${{{digits}}}"));
                }
            }
            other => out.push(other),
        }
    }
    out
}

fn text_fn(run: &Runner, n: &str, f: &str, args: &[Value]) -> Result<Value> {
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    if f == "join" {
        let (Some(xs), Some(d)) = (list(n, a0)?, text(n, a1)?) else {
            return Ok(Value::Null);
        };
        let parts: Vec<String> = xs
            .iter()
            .filter(|x| !x.is_null())
            .map(super::functions::to_string_plain)
            .collect();
        return Ok(Value::from(parts.join(d)));
    }
    if f == "format" {
        let (Some(fmt), params) = (text(n, a0)?, list(n, a1)?) else {
            return Ok(Value::Null);
        };
        return Ok(Value::from(java_format(fmt, params.unwrap_or_default())));
    }
    if f == "code" {
        return Ok(match int(n, a0)? {
            Some(c) => u32::try_from(c)
                .ok()
                .and_then(char::from_u32)
                .map_or(Value::Null, |c| Value::from(c.to_string())),
            None => Value::Null,
        });
    }
    if f == "tocypher" {
        return Ok(Value::from(to_cypher(run, a0)?));
    }
    if f == "random" {
        let len = int(n, a0)?.unwrap_or(0);
        if !(0..=1_000_000).contains(&len) {
            return Err(failed(n, format!("invalid length {len}")));
        }
        let valid: Vec<char> = match text(n, a1)? {
            Some(v) => expand_ranges(v),
            None => expand_ranges("A-Za-z0-9"),
        };
        if valid.is_empty() {
            return Ok(Value::from(""));
        }
        let s: String = (0..len).map(|_| valid[index_in(valid.len())]).collect();
        return Ok(Value::from(s));
    }
    let Some(s) = text(n, a0)? else {
        return Ok(Value::Null);
    };
    let regex =
        |pattern: &str| -> Result<regex::Regex> { run.sh.regex(pattern).map_err(|e| failed(n, e)) };
    Ok(match f {
        "capitalize" => Value::from(capitalize(s)),
        "decapitalize" => Value::from(decapitalize(s)),
        "capitalizeall" | "decapitalizeall" => {
            let mut out = String::new();
            let mut start = true;
            for c in s.chars() {
                if start && c.is_alphanumeric() {
                    if f == "capitalizeall" {
                        out.extend(c.to_uppercase());
                    } else {
                        out.extend(c.to_lowercase());
                    }
                    start = false;
                } else {
                    if c.is_whitespace() {
                        start = true;
                    }
                    out.push(c);
                }
            }
            Value::from(out)
        }
        "swapcase" => Value::from(
            s.chars()
                .flat_map(|c| -> Vec<char> {
                    if c.is_uppercase() {
                        c.to_lowercase().collect()
                    } else if c.is_lowercase() {
                        c.to_uppercase().collect()
                    } else {
                        vec![c]
                    }
                })
                .collect::<String>(),
        ),
        "camelcase" | "uppercamelcase" => {
            let mut out = String::new();
            for (i, w) in words(s).into_iter().enumerate() {
                let w = w.to_lowercase();
                if i == 0 && f == "camelcase" {
                    out.push_str(&w);
                } else {
                    out.push_str(&capitalize(&w));
                }
            }
            Value::from(out)
        }
        "touppercase" => Value::from(
            words(&split_camel(s))
                .iter()
                .map(|w| w.to_uppercase())
                .collect::<Vec<_>>()
                .join("_"),
        ),
        "clean" => Value::from(clean(s)),
        "comparecleaned" => match text(n, a1)? {
            Some(t) => Value::Bool(clean(s) == clean(t)),
            None => Value::Null,
        },
        "charat" => match int(n, a1)? {
            Some(i) if i >= 0 => s
                .encode_utf16()
                .nth(i as usize)
                .map_or(Value::Null, |u| Value::Int(i64::from(u))),
            _ => Value::Null,
        },
        "distance" | "levenshteindistance" => match text(n, a1)? {
            Some(t) => Value::Int(levenshtein(s, t) as i64),
            None => Value::Null,
        },
        "levenshteinsimilarity" => match text(n, a1)? {
            Some(t) => {
                let longest = s.chars().count().max(t.chars().count());
                Value::Float(if longest == 0 {
                    1.0
                } else {
                    1.0 - levenshtein(s, t) as f64 / longest as f64
                })
            }
            None => Value::Null,
        },
        "fuzzymatch" => match text(n, a1)? {
            Some(t) => {
                let len = s.chars().count();
                let allowed = if len < 3 {
                    0
                } else if len < 5 {
                    1
                } else {
                    2
                };
                Value::Bool(levenshtein(s, t) <= allowed)
            }
            None => Value::Null,
        },
        "hammingdistance" => match text(n, a1)? {
            Some(t) => {
                let (x, y): (Vec<char>, Vec<char>) = (s.chars().collect(), t.chars().collect());
                if x.len() != y.len() {
                    return Err(failed(
                        n,
                        "java.lang.IllegalArgumentException: Strings must have the same length",
                    ));
                }
                Value::Int(x.iter().zip(&y).filter(|(a, b)| a != b).count() as i64)
            }
            None => Value::Null,
        },
        "indexof" | "indexesof" => {
            let Some(lookup) = text(n, a1)? else {
                return Ok(Value::Null);
            };
            let u: Vec<char> = s.chars().collect();
            let from = int(n, a2)?.unwrap_or(0).max(0) as usize;
            let to = match int(n, arg(args, 3))? {
                Some(t) if t >= 0 => (t as usize).min(u.len()),
                _ => u.len(),
            };
            let hay: String = u
                .get(from..to.max(from))
                .unwrap_or_default()
                .iter()
                .collect();
            let hits: Vec<i64> = hay
                .match_indices(lookup)
                .map(|(b, _)| (from + hay[..b].chars().count()) as i64)
                .collect();
            if f == "indexof" {
                Value::Int(hits.first().copied().unwrap_or(-1))
            } else {
                Value::List(hits.into_iter().map(Value::Int).collect())
            }
        }
        "lpad" | "rpad" => {
            let count = int(n, a1)?.unwrap_or(0).clamp(0, 10_000_000) as usize;
            let pad = text(n, a2)?.unwrap_or(" ");
            let len = s.chars().count();
            if len >= count || pad.is_empty() {
                return Ok(Value::from(s));
            }
            let fill: String = pad.chars().cycle().take(count - len).collect();
            Value::from(if f == "lpad" {
                format!("{fill}{s}")
            } else {
                format!("{s}{fill}")
            })
        }
        "repeat" => {
            let count = int(n, a1)?.unwrap_or(0).max(0) as usize;
            run.sh.can_allocate(s.len().saturating_mul(count))?;
            Value::from(s.repeat(count))
        }
        "replace" | "regreplace" => {
            let (Some(p), Some(r)) = (text(n, a1)?, text(n, a2)?) else {
                return Ok(Value::Null);
            };
            Value::from(
                regex(p)?
                    .replace_all(s, java_replacement(r).as_str())
                    .into_owned(),
            )
        }
        "split" => {
            let Some(p) = text(n, a1)? else {
                return Ok(Value::Null);
            };
            Value::List(java_split(s, &regex(p)?, int(n, a2)?.unwrap_or(0)))
        }
        "regexgroups" => {
            let Some(p) = text(n, a1)? else {
                return Ok(Value::Null);
            };
            Value::List(
                regex(p)?
                    .captures_iter(s)
                    .map(|c| {
                        Value::List(
                            c.iter()
                                .map(|m| m.map_or(Value::Null, |m| Value::from(m.as_str())))
                                .collect(),
                        )
                    })
                    .collect(),
            )
        }
        "urlencode" => Value::from(url_encode(s)),
        "urldecode" => Value::from(
            url_decode(s).ok_or_else(|| failed(n, "URLDecoder: Illegal hex characters"))?,
        ),
        "base64encode" => Value::from(base64_encode(s.as_bytes(), B64, true)),
        "base64urlencode" => Value::from(base64_encode(s.as_bytes(), B64_URL, false)),
        "base64decode" | "base64urldecode" => {
            let alphabet = if f == "base64decode" { B64 } else { B64_URL };
            let bytes = base64_decode(s, alphabet).ok_or_else(|| {
                failed(
                    n,
                    "java.lang.IllegalArgumentException: Illegal base64 character",
                )
            })?;
            Value::from(String::from_utf8_lossy(&bytes).into_owned())
        }
        "bytecount" | "bytes" => {
            let charset = text(n, a1)?.unwrap_or("UTF-8").to_ascii_uppercase();
            let bytes: Vec<u8> = match charset.as_str() {
                "UTF-8" | "UTF8" => s.as_bytes().to_vec(),
                "UTF-16" => {
                    let mut b = vec![0xFE, 0xFF];
                    b.extend(s.encode_utf16().flat_map(u16::to_be_bytes));
                    b
                }
                "UTF-16BE" => s.encode_utf16().flat_map(u16::to_be_bytes).collect(),
                "UTF-16LE" => s.encode_utf16().flat_map(u16::to_le_bytes).collect(),
                "ISO-8859-1" | "LATIN1" | "US-ASCII" | "ASCII" => {
                    let max = if charset.contains("ASCII") {
                        0x7f
                    } else {
                        0xff
                    };
                    s.chars()
                        .map(|c| if (c as u32) <= max { c as u8 } else { b'?' })
                        .collect()
                }
                other => {
                    return Err(failed(
                        n,
                        format!("java.nio.charset.UnsupportedCharsetException: {other}"),
                    ))
                }
            };
            if f == "bytecount" {
                Value::Int(bytes.len() as i64)
            } else {
                // Java's bytes are signed.
                Value::List(
                    bytes
                        .into_iter()
                        .map(|b| Value::Int(i64::from(b as i8)))
                        .collect(),
                )
            }
        }
        "phonetic" => Value::from(soundex(s)),
        _ => return Err(ExecError::unsupported(n)),
    })
}

/// `A-Za-z0-9` → the characters it names.
fn expand_ranges(spec: &str) -> Vec<char> {
    let c: Vec<char> = spec.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if i + 2 < c.len() && c[i + 1] == '-' && c[i] <= c[i + 2] {
            out.extend(c[i]..=c[i + 2]);
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// `fooBar` → `foo Bar` (word starts at upper-case letters after lower-case ones).
fn split_camel(s: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        out.push(c);
    }
    out
}

/// `apoc.text.clean`: lower-case letters and digits only.
fn clean(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A value as Cypher literal text (`apoc.text.toCypher`).
fn to_cypher(run: &Runner, v: &Value) -> Result<String> {
    Ok(match v {
        Value::Null => "null".into(),
        Value::String(s) => {
            let mut out = String::new();
            crate::syntax::write_string_literal(&mut out, s);
            out
        }
        Value::List(xs) => format!(
            "[{}]",
            xs.iter()
                .map(|x| to_cypher(run, x))
                .collect::<Result<Vec<_>>>()?
                .join(", ")
        ),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, x)| Ok(format!("{}: {}", cypher_key(k), to_cypher(run, x)?)))
                .collect::<Result<Vec<_>>>()?
                .join(", ")
        ),
        Value::Node(nid) => {
            let labels: String = run
                .graph()
                .labels(*nid)
                .iter()
                .map(|l| format!(":{}", cypher_key(l)))
                .collect();
            let props = to_cypher(run, &Value::Map(run.all_properties(v)?))?;
            if props == "{}" {
                format!("({labels})")
            } else {
                format!("({labels} {props})")
            }
        }
        other => other.to_string(),
    })
}

fn cypher_key(k: &str) -> String {
    let plain = k
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && k.chars().all(|c| c.is_alphanumeric() || c == '_');
    if plain {
        k.to_string()
    } else {
        format!("`{}`", k.replace('`', "``"))
    }
}

fn math(n: &str, f: &str, args: &[Value]) -> Result<Value> {
    let c = |v: f64| Ok(Value::Float(v));
    let i = |v: i64| Ok(Value::Int(v));
    match f {
        "maxbyte" => return i(127),
        "minbyte" => return i(-128),
        "maxint" => return i(i64::from(i32::MAX)),
        "minint" => return i(i64::from(i32::MIN)),
        "maxlong" => return i(i64::MAX),
        "minlong" => return i(i64::MIN),
        "maxdouble" => return c(f64::MAX),
        // Java's Double.MIN_VALUE: the smallest positive double.
        "mindouble" => return c(f64::from_bits(1)),
        _ => {}
    }
    let Some(x) = num(n, arg(args, 0))? else {
        return Ok(Value::Null);
    };
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    c(match f {
        "cosh" => x.cosh(),
        "sinh" => x.sinh(),
        "tanh" => x.tanh(),
        "coth" => 1.0 / x.tanh(),
        "sech" => 1.0 / x.cosh(),
        "csch" => 1.0 / x.sinh(),
        "sigmoid" => sigmoid(x),
        "sigmoidprime" => sigmoid(x) * (1.0 - sigmoid(x)),
        _ => return Err(ExecError::unsupported(n)),
    })
}

/// JSON text of a value as APOC writes it (nodes as `{id, type: "node", labels, properties}`).
fn to_json(run: &Runner, v: &Value) -> Result<serde_json::Value> {
    use serde_json::{json, Value as J};
    Ok(match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => json!(i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::String(s) => J::String(s.to_string()),
        Value::List(xs) => J::Array(xs.iter().map(|x| to_json(run, x)).collect::<Result<_>>()?),
        Value::Map(m) => J::Object(
            m.iter()
                .map(|(k, x)| Ok((k.to_string(), to_json(run, x)?)))
                .collect::<Result<_>>()?,
        ),
        Value::Node(nid) => {
            let mut o = serde_json::Map::new();
            o.insert("id".into(), J::String(nid.0.to_string()));
            o.insert("type".into(), J::String("node".into()));
            let labels = run.graph().labels(*nid);
            if !labels.is_empty() {
                o.insert(
                    "labels".into(),
                    J::Array(labels.iter().map(|l| J::String(l.to_string())).collect()),
                );
            }
            let props = run.all_properties(v)?;
            if !props.is_empty() {
                o.insert("properties".into(), to_json(run, &Value::Map(props))?);
            }
            J::Object(o)
        }
        Value::Relationship(r) => {
            let g = run.graph();
            let mut o = serde_json::Map::new();
            o.insert("id".into(), J::String(r.0.to_string()));
            o.insert("type".into(), J::String("relationship".into()));
            o.insert(
                "label".into(),
                J::String(g.rel_type(*r).map(|t| t.to_string()).unwrap_or_default()),
            );
            let props = run.all_properties(v)?;
            if !props.is_empty() {
                o.insert("properties".into(), to_json(run, &Value::Map(props))?);
            }
            if let Some((s, e)) = g.endpoints(*r) {
                o.insert("start".into(), to_json(run, &Value::Node(s))?);
                o.insert("end".into(), to_json(run, &Value::Node(e))?);
            }
            J::Object(o)
        }
        Value::Path(p) => {
            let mut items = Vec::new();
            for (i, nid) in p.nodes.iter().enumerate() {
                if i > 0 {
                    items.push(to_json(run, &Value::Relationship(p.rels[i - 1]))?);
                }
                items.push(to_json(run, &Value::Node(*nid))?);
            }
            J::Array(items)
        }
        Value::Temporal(t) => J::String(t.to_string()),
        Value::Point(p) => {
            let mut o = serde_json::Map::new();
            o.insert("crs".into(), J::String(p.crs.name().into()));
            for (k, c) in ["x", "y", "z"].into_iter().zip(p.coordinates()) {
                o.insert(k.into(), json!(c));
            }
            J::Object(o)
        }
    })
}

fn from_json(j: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match j {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(x) => x
            .as_i64()
            .map(Value::Int)
            .unwrap_or_else(|| Value::Float(x.as_f64().unwrap_or(f64::NAN))),
        J::String(s) => Value::from(s.as_str()),
        J::Array(xs) => Value::List(xs.iter().map(from_json).collect()),
        J::Object(o) => Value::Map(
            o.iter()
                .map(|(k, v)| (Arc::from(k.as_str()), from_json(v)))
                .collect(),
        ),
    }
}

fn convert(run: &Runner, n: &str, f: &str, args: &[Value]) -> Result<Value> {
    let a0 = arg(args, 0);
    Ok(match f {
        "tojson" => {
            let j = to_json(run, a0)?;
            Value::from(j.to_string())
        }
        "tosortedjsonmap" => {
            // serde_json's maps keep keys sorted.
            let j = to_json(run, a0)?;
            Value::from(j.to_string())
        }
        "fromjsonlist" | "fromjsonmap" => {
            let Some(s) = text(n, a0)? else {
                return Ok(Value::Null);
            };
            if !matches!(arg(args, 1), Value::Null) && text(n, arg(args, 1))? != Some("") {
                return Err(ExecError::unsupported(
                    "JSON paths in apoc.convert.fromJson*",
                ));
            }
            let j: serde_json::Value = serde_json::from_str(s).map_err(|e| {
                failed(
                    n,
                    format!("java.lang.RuntimeException: Can't convert {s} to JSON: {e}"),
                )
            })?;
            let v = from_json(&j);
            match (f, &v) {
                ("fromjsonlist", Value::List(_))
                | ("fromjsonmap", Value::Map(_))
                | (_, Value::Null) => v,
                _ => {
                    return Err(failed(
                        n,
                        format!(
                            "java.lang.RuntimeException: Can't convert {s} to a {}",
                            if f == "fromjsonlist" { "list" } else { "map" }
                        ),
                    ))
                }
            }
        }
        "tolist" => match a0 {
            Value::Null => Value::Null,
            Value::List(_) => a0.clone(),
            Value::Path(p) => {
                let mut items = Vec::new();
                for (i, nid) in p.nodes.iter().enumerate() {
                    if i > 0 {
                        items.push(Value::Relationship(p.rels[i - 1]));
                    }
                    items.push(Value::Node(*nid));
                }
                Value::List(items)
            }
            other => Value::List(vec![other.clone()]),
        },
        "toset" => match a0 {
            Value::Null => Value::Null,
            Value::List(xs) => Value::List(distinct(xs)),
            other => Value::List(vec![other.clone()]),
        },
        "tomap" => match a0 {
            Value::Null => Value::Null,
            Value::Map(_) => a0.clone(),
            Value::Node(_) | Value::Relationship(_) => Value::Map(run.all_properties(a0)?),
            other => return Err(wrong(n, other, "a map, node or relationship")),
        },
        "tonode" => match a0 {
            Value::Node(_) | Value::Null => a0.clone(),
            _ => Value::Null,
        },
        "torelationship" => match a0 {
            Value::Relationship(_) | Value::Null => a0.clone(),
            _ => Value::Null,
        },
        "tonodelist" | "torelationshiplist" => match a0 {
            Value::Null => Value::Null,
            Value::List(xs) => Value::List(
                xs.iter()
                    .filter(|x| {
                        matches!(
                            (f, x),
                            ("tonodelist", Value::Node(_))
                                | ("torelationshiplist", Value::Relationship(_))
                        )
                    })
                    .cloned()
                    .collect(),
            ),
            other => Value::List(vec![other.clone()]),
        },
        _ => return Err(ExecError::unsupported(n)),
    })
}

/// APOC's relationship-type filter: `TYPE`, `TYPE>` (outgoing), `<TYPE` (incoming), `>` or `<`
/// alone, several joined by `|`; empty for all.
fn rel_filter(g: &crate::graph::Graph, spec: &str) -> Vec<(Option<crate::graph::Sym>, Dir, bool)> {
    if spec.is_empty() {
        return vec![(None, Dir::Both, true)];
    }
    spec.split('|')
        .map(|part| {
            let (dir, ty) = if let Some(t) = part.strip_suffix('>') {
                (Dir::Outgoing, t)
            } else if let Some(t) = part.strip_prefix('<') {
                (Dir::Incoming, t)
            } else {
                (Dir::Both, part)
            };
            if ty.is_empty() {
                (None, dir, true)
            } else {
                let sym = g.sym(ty);
                (sym, dir, sym.is_some())
            }
        })
        .collect()
}

fn graph_fn(run: &Runner, n: &str, args: &[Value]) -> Result<Value> {
    let g = run.graph();
    let (a0, a1) = (arg(args, 0), arg(args, 1));
    let node = |v: &Value| -> Result<Option<crate::value::NodeId>> {
        match v {
            Value::Null => Ok(None),
            Value::Node(x) => Ok(Some(*x)),
            other => Err(wrong(n, other, "a node")),
        }
    };
    let rel = |v: &Value| -> Result<Option<crate::value::RelId>> {
        match v {
            Value::Null => Ok(None),
            Value::Relationship(x) => Ok(Some(*x)),
            other => Err(wrong(n, other, "a relationship")),
        }
    };
    let degree = |x: crate::value::NodeId, spec: &str, only: Dir| -> usize {
        rel_filter(g, spec)
            .into_iter()
            .filter(|(_, _, known)| *known)
            .map(|(ty, dir, _)| {
                let dir = match (only, dir) {
                    (Dir::Both, d) => d,
                    (o, Dir::Both) => o,
                    (o, d) if o == d => d,
                    _ => return 0,
                };
                let tys = ty.map(|t| vec![t]);
                g.degree(x, dir, tys.as_deref())
            })
            .sum()
    };
    let spec = match n {
        "apoc.node.degree"
        | "apoc.node.degree.in"
        | "apoc.node.degree.out"
        | "apoc.node.relationship.exists"
        | "apoc.node.relationships.exist"
        | "apoc.node.relationship.types" => text(n, a1)?.unwrap_or("").to_string(),
        _ => String::new(),
    };
    Ok(match n {
        "apoc.node.degree" | "apoc.node.degree.in" | "apoc.node.degree.out" => {
            let Some(x) = node(a0)? else {
                return Ok(Value::Null);
            };
            let only = match n {
                "apoc.node.degree.in" => Dir::Incoming,
                "apoc.node.degree.out" => Dir::Outgoing,
                _ => Dir::Both,
            };
            Value::Int(degree(x, &spec, only) as i64)
        }
        "apoc.node.id" => node(a0)?.map_or(Value::Null, |x| Value::Int(i64::from(x.0))),
        "apoc.node.labels" => node(a0)?.map_or(Value::Null, |x| {
            Value::List(g.labels(x).into_iter().map(Value::String).collect())
        }),
        "apoc.node.relationship.exists" => match node(a0)? {
            Some(x) => Value::Bool(degree(x, &spec, Dir::Both) > 0),
            None => Value::Null,
        },
        "apoc.node.relationships.exist" => match node(a0)? {
            Some(x) => Value::Map(
                spec.split('|')
                    .filter(|p| !p.is_empty())
                    .map(|p| (key(p), Value::Bool(degree(x, p, Dir::Both) > 0)))
                    .collect(),
            ),
            None => Value::Null,
        },
        "apoc.node.relationship.types" => match node(a0)? {
            Some(x) => {
                let allowed = rel_filter(g, &spec);
                let mut types: Vec<Arc<str>> = Vec::new();
                for (r, _) in g.neighbours(x, Dir::Both) {
                    let Some(d) = g.relationship(r) else { continue };
                    let out = g.endpoints(r).is_some_and(|(s, _)| s == x);
                    let ok = allowed.iter().any(|(ty, dir, known)| {
                        *known
                            && ty.is_none_or(|t| t == d.ty)
                            && match dir {
                                Dir::Outgoing => out,
                                Dir::Incoming => {
                                    !out || g.endpoints(r).is_some_and(|(_, e)| e == x)
                                }
                                Dir::Both => true,
                            }
                    });
                    let name = g.sym_name(d.ty).clone();
                    if ok && !types.contains(&name) {
                        types.push(name);
                    }
                }
                Value::List(types.into_iter().map(Value::String).collect())
            }
            None => Value::Null,
        },
        "apoc.nodes.connected" => {
            let (Some(a), Some(b)) = (node(a0)?, node(a1)?) else {
                return Ok(Value::Bool(false));
            };
            let types = text(n, arg(args, 2))?.unwrap_or("").to_string();
            let allowed = rel_filter(g, &types);
            Value::Bool(allowed.iter().any(|(ty, dir, known)| {
                *known && {
                    let tys = ty.map(|t| vec![t]);
                    let found = g
                        .neighbours_iter(a, *dir, tys.as_deref())
                        .any(|(_, m)| m == b);
                    found
                }
            }))
        }
        "apoc.nodes.isdense" => match node(a0)? {
            Some(x) => Value::Bool(g.degree(x, Dir::Both, None) >= 50),
            None => Value::Null,
        },
        "apoc.rel.id" => rel(a0)?.map_or(Value::Null, |r| Value::Int(i64::from(r.0))),
        "apoc.rel.type" => rel(a0)?
            .and_then(|r| g.rel_type(r))
            .map_or(Value::Null, Value::String),
        "apoc.rel.startnode" | "apoc.rel.endnode" => rel(a0)?
            .and_then(|r| g.endpoints(r))
            .map_or(Value::Null, |(s, e)| {
                Value::Node(if n == "apoc.rel.startnode" { s } else { e })
            }),
        "apoc.label.exists" => match a0 {
            Value::Node(x) => {
                Value::Bool(text(n, a1)?.is_some_and(|l| g.labels(*x).iter().any(|k| &**k == l)))
            }
            _ => Value::Bool(false),
        },
        "apoc.any.isdeleted" => Value::Bool(false),
        "apoc.any.property" => match a0 {
            Value::Null => Value::Null,
            v => {
                let Some(k) = text(n, a1)? else {
                    return Ok(Value::Null);
                };
                run.property(v, k)?
            }
        },
        "apoc.any.properties" => match a0 {
            Value::Null => Value::Null,
            v => {
                let all = run.all_properties(v)?;
                match list(n, a1)? {
                    Some(ks) => Value::Map(
                        all.into_iter()
                            .filter(|(k, _)| ks.iter().any(|x| x.as_str() == Some(&**k)))
                            .collect(),
                    ),
                    None => Value::Map(all),
                }
            }
        },
        _ => return Err(ExecError::unsupported(n)),
    })
}

/// The result of an APOC aggregating function over its argument rows (each with a non-null
/// first argument, in order).
pub(crate) fn finish_aggregate(name: &str, rows: Vec<Vec<Value>>) -> Result<Value> {
    let first_arg = |r: &Vec<Value>| r.first().cloned().unwrap_or_default();
    let extra = |i: usize| {
        rows.first()
            .and_then(|r| r.get(i))
            .cloned()
            .unwrap_or_default()
    };
    Ok(match name {
        "apoc.agg.first" => rows.first().map(first_arg).unwrap_or_default(),
        "apoc.agg.last" => rows.last().map(first_arg).unwrap_or_default(),
        "apoc.agg.nth" => {
            let offset = int(name, &extra(1))?.unwrap_or(0);
            if offset == -1 {
                rows.last().map(first_arg).unwrap_or_default()
            } else {
                usize::try_from(offset)
                    .ok()
                    .and_then(|i| rows.get(i))
                    .map(first_arg)
                    .unwrap_or_default()
            }
        }
        "apoc.agg.slice" => {
            let from = int(name, &extra(1))?.unwrap_or(0).max(0) as usize;
            let to = int(name, &extra(2))?.unwrap_or(-1);
            let it = rows.iter().skip(from).map(first_arg);
            Value::List(if to < 0 {
                it.collect()
            } else {
                it.take((to as usize).saturating_sub(from)).collect()
            })
        }
        "apoc.agg.median" => {
            let mut xs: Vec<Value> = rows
                .iter()
                .map(first_arg)
                .filter(Value::is_number)
                .collect();
            if xs.is_empty() {
                return Ok(Value::Null);
            }
            xs.sort_by(|a, b| a.order(b));
            let mid = xs.len() / 2;
            if xs.len() % 2 == 1 {
                xs[mid].clone()
            } else {
                let a = xs[mid - 1].as_f64().unwrap_or(0.0);
                let b = xs[mid].as_f64().unwrap_or(0.0);
                Value::Float((a + b) / 2.0)
            }
        }
        "apoc.agg.product" => {
            let (mut ints, mut float, mut all_int) = (1i64, 1f64, true);
            for r in &rows {
                match &r[0] {
                    Value::Int(i) => {
                        float *= *i as f64;
                        match ints.checked_mul(*i) {
                            Some(p) => ints = p,
                            None => all_int = false,
                        }
                    }
                    Value::Float(f) => {
                        all_int = false;
                        float *= f;
                    }
                    other => return Err(wrong(name, other, "numbers")),
                }
            }
            if all_int {
                Value::Int(ints)
            } else {
                Value::Float(float)
            }
        }
        "apoc.agg.maxitems" | "apoc.agg.minitems" => {
            // Rows are (item, value[, groupLimit]); the item may be null, the value not.
            let limit = int(name, &extra(2))?.unwrap_or(-1);
            let mut best: Option<Value> = None;
            let mut items: Vec<Value> = Vec::new();
            for r in &rows {
                let (item, v) = (r[0].clone(), r.get(1).cloned().unwrap_or_default());
                if v.is_null() {
                    continue;
                }
                let o = best.as_ref().map(|b| v.order(b));
                let better = match o {
                    None => true,
                    Some(o) => {
                        (name == "apoc.agg.maxitems" && o == Ordering::Greater)
                            || (name == "apoc.agg.minitems" && o == Ordering::Less)
                    }
                };
                if better {
                    best = Some(v);
                    items = vec![item];
                } else if o == Some(Ordering::Equal) && (limit < 0 || (items.len() as i64) < limit)
                {
                    items.push(item);
                }
            }
            Value::Map(BTreeMap::from([
                (key("items"), Value::List(items)),
                (key("value"), best.unwrap_or_default()),
            ]))
        }
        "apoc.agg.graph" => {
            let (mut nodes, mut rels) = (Vec::new(), Vec::new());
            fn gather(v: &Value, nodes: &mut Vec<Value>, rels: &mut Vec<Value>) {
                match v {
                    Value::Node(_) if !nodes.iter().any(|x| same(x, v)) => nodes.push(v.clone()),
                    Value::Relationship(_) if !rels.iter().any(|x| same(x, v)) => {
                        rels.push(v.clone())
                    }
                    Value::Path(p) => {
                        for n in &p.nodes {
                            gather(&Value::Node(*n), nodes, rels);
                        }
                        for r in &p.rels {
                            gather(&Value::Relationship(*r), nodes, rels);
                        }
                    }
                    Value::List(xs) => xs.iter().for_each(|x| gather(x, nodes, rels)),
                    _ => {}
                }
            }
            for r in &rows {
                gather(&r[0], &mut nodes, &mut rels);
            }
            Value::Map(BTreeMap::from([
                (key("nodes"), Value::List(nodes)),
                (key("relationships"), Value::List(rels)),
            ]))
        }
        other => return Err(ExecError::unsupported(other)),
    })
}

fn path_fn(run: &Runner, n: &str, f: &str, args: &[Value]) -> Result<Value> {
    use crate::value::Path;
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    let path = |v: &Value| -> Result<Option<Arc<Path>>> {
        match v {
            Value::Null => Ok(None),
            Value::Path(p) => Ok(Some(p.clone())),
            other => Err(wrong(n, other, "a path")),
        }
    };
    Ok(match f {
        "create" => {
            let Value::Node(start) = a0 else {
                return Ok(Value::Null);
            };
            let mut nodes = vec![*start];
            let mut rels = Vec::new();
            for r in list(n, a1)?.unwrap_or_default() {
                let Value::Relationship(r) = r else {
                    if r.is_null() {
                        continue;
                    }
                    return Err(wrong(n, r, "a list of relationships"));
                };
                let (s, e) = run
                    .rel_endpoints(*r)
                    .ok_or_else(|| failed(n, "a relationship was deleted"))?;
                let last = *nodes.last().unwrap_or(start);
                let next = if s == last {
                    e
                } else if e == last {
                    s
                } else {
                    return Err(failed(
                        n,
                        "java.lang.IllegalArgumentException: Relationship is not part of the path",
                    ));
                };
                rels.push(*r);
                nodes.push(next);
            }
            Value::Path(Arc::new(Path { nodes, rels }))
        }
        "combine" => match (path(a0)?, path(a1)?) {
            (Some(p), Some(q)) => {
                if p.nodes.last() != q.nodes.first() {
                    return Err(failed(
                        n,
                        "java.lang.IllegalArgumentException: Paths don't connect on their end and start-nodes",
                    ));
                }
                let mut nodes = p.nodes.clone();
                nodes.extend(q.nodes.iter().skip(1));
                let mut rels = p.rels.clone();
                rels.extend(q.rels.iter());
                Value::Path(Arc::new(Path { nodes, rels }))
            }
            (Some(p), None) | (None, Some(p)) => Value::Path(p),
            (None, None) => Value::Null,
        },
        "elements" => match path(a0)? {
            Some(p) => {
                let mut out = Vec::with_capacity(p.nodes.len() + p.rels.len());
                for (i, node) in p.nodes.iter().enumerate() {
                    if i > 0 {
                        out.push(Value::Relationship(p.rels[i - 1]));
                    }
                    out.push(Value::Node(*node));
                }
                Value::List(out)
            }
            None => Value::Null,
        },
        "slice" => match path(a0)? {
            Some(p) => {
                let offset = int(n, a1)?.unwrap_or(0).max(0) as usize;
                let len = match a2 {
                    Value::Null => -1,
                    v => int(n, v)?.unwrap_or(-1),
                };
                let from = offset.min(p.rels.len());
                let to = if len < 0 {
                    p.rels.len()
                } else {
                    (from + len as usize).min(p.rels.len())
                };
                Value::Path(Arc::new(Path {
                    nodes: p.nodes[from..=to].to_vec(),
                    rels: p.rels[from..to].to_vec(),
                }))
            }
            None => Value::Null,
        },
        _ => return Err(ExecError::unsupported(n)),
    })
}
