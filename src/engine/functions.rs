//! The scalar, list, string and math function library, with Neo4j's null and type rules.

use super::error::{ErrorKind, ExecError, Result};
use super::exec::Runner;
use crate::syntax::{CypherType, QualifiedName, TypeKind};
use crate::value::{type_name, Value};

/// Whether a function name is an aggregate.
pub(crate) fn is_aggregate(name: &QualifiedName) -> bool {
    name.is_aggregate()
}

/// The functions the engine runs (lower-case), besides the aggregates
/// ([`QualifiedName::is_aggregate`]). A unit test holds it equal to what [`call`] dispatches.
pub(crate) const IMPLEMENTED: &[&str] = &[
    "abs",
    "acos",
    "asin",
    "atan",
    "atan2",
    "btrim",
    "ceil",
    "char_length",
    "character_length",
    "coalesce",
    "cos",
    "cot",
    "date",
    "date.realtime",
    "date.statement",
    "date.transaction",
    "date.truncate",
    "datetime",
    "datetime.fromepoch",
    "datetime.fromepochmillis",
    "datetime.realtime",
    "datetime.statement",
    "datetime.transaction",
    "datetime.truncate",
    "db.namefromelementid",
    "degrees",
    "duration",
    "duration.between",
    "duration.indays",
    "duration.inmonths",
    "duration.inseconds",
    "e",
    "elementid",
    "endnode",
    "exists",
    "exp",
    "file",
    "floor",
    "gds.util.asnode",
    "gds.version",
    "graph.byelementid",
    "graph.byname",
    "graph.names",
    "graph.propertiesbyname",
    "haversin",
    "head",
    "id",
    "isempty",
    "isnan",
    "keys",
    "labels",
    "last",
    "left",
    "length",
    "linenumber",
    "localdatetime",
    "localdatetime.realtime",
    "localdatetime.statement",
    "localdatetime.transaction",
    "localdatetime.truncate",
    "localtime",
    "localtime.realtime",
    "localtime.statement",
    "localtime.transaction",
    "localtime.truncate",
    "log",
    "log10",
    "lower",
    "ltrim",
    "nodes",
    "normalize",
    "nullif",
    "pi",
    "point",
    "point.distance",
    "point.withinbbox",
    "properties",
    "radians",
    "rand",
    "randomuuid",
    "range",
    "relationships",
    "replace",
    "reverse",
    "right",
    "round",
    "rtrim",
    "sign",
    "sin",
    "size",
    "split",
    "sqrt",
    "startnode",
    "substring",
    "tail",
    "tan",
    "time",
    "time.realtime",
    "time.statement",
    "time.transaction",
    "time.truncate",
    "timestamp",
    "toboolean",
    "tobooleanlist",
    "tobooleanornull",
    "tofloat",
    "tofloatlist",
    "tofloatornull",
    "tointeger",
    "tointegerlist",
    "tointegerornull",
    "tolower",
    "tostring",
    "tostringlist",
    "tostringornull",
    "toupper",
    "trim",
    "type",
    "upper",
    "valuetype",
    "vector.similarity.cosine",
    "vector.similarity.euclidean",
];

/// Whether the engine runs the function `name` (dotted, any case).
pub fn is_implemented(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    IMPLEMENTED.binary_search(&lower.as_str()).is_ok()
        || super::apoc::is_implemented(&lower)
        || crate::syntax::ast::is_aggregate_name(&lower)
}

fn arity(name: &str, args: &[Value], min: usize, max: usize) -> Result<()> {
    if args.len() < min || args.len() > max {
        let want = if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        };
        return Err(ExecError::compile(
            ErrorKind::SyntaxError,
            format!("{name}() takes {want} arguments, got {}", args.len()),
        )
        .with_detail("InvalidNumberOfArguments"));
    }
    Ok(())
}

/// A version-4 UUID, different on every call. Like `rand()`, reproducible: the n-th call of a
/// process gives the same UUID in every run (SplitMix64 over a counter), so that evaluations
/// and tests that create nodes with `randomUUID()` ids are repeatable.
pub(super) fn random_uuid() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let (hi, lo) = (mix(2 * n), mix(2 * n + 1));
    let hi = (hi & !0xf000) | 0x4000; // version 4
    let lo = (lo & !(0xc << 60)) | (0x8 << 60); // variant 10xx
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        hi >> 32,
        (hi >> 16) & 0xffff,
        hi & 0xffff,
        lo >> 48,
        lo & 0xffff_ffff_ffff
    )
}

/// A function's name as Neo4j spells it in its errors (`toUpper` for a call of `toupper`).
fn neo4j_name(name: &str) -> &str {
    crate::catalogue::function(name).map_or(name, |f| f.name)
}

/// Neo4j's error for an argument of a type the function cannot take (checked while running:
/// the compile-time checks catch the types they can see), in Neo4j's words where it has its
/// own (`Invalid input for function 'size()': Expected a String or List, got: Long(0)`).
fn bad_arg(name: &str, v: &Value) -> ExecError {
    let jv = super::exec::neo4j_value_text(v);
    let message = match name {
        "size" => format!("Invalid input for function 'size()': Expected a String or List, got: {jv}"),
        "labels" => format!("Invalid input for function 'labels()': Expected a Node, got: {jv}"),
        "keys" | "properties" => format!(
            "Invalid input for function '{name}()': Expected a node, a relationship or a literal map but got {jv}"
        ),
        "type" => format!("Invalid input for function 'type()': Expected a Relationship, got: {jv}"),
        "length" => format!("Invalid input for function 'length()': Expected a Path, got: {jv}"),
        "nodes" | "relationships" => {
            format!("Invalid input for function '{name}()': Expected {jv} to be a path")
        }
        "id" | "elementid" => format!(
            "Invalid input for function '{}()': Expected {jv} to be a node or relationship, but it was `{}`",
            neo4j_name(name),
            crate::value::java_type_name(v)
        ),
        "startnode" | "endnode" => format!(
            "Invalid input for function '{}()': Expected {jv} to be a RelationshipValue",
            neo4j_name(name)
        ),
        "toboolean" => format!(
            "Invalid input for function 'toBoolean()': Expected a Boolean, Integer or String, got: {jv}"
        ),
        "point" => format!("Invalid input for function 'point()': Expected a map but got {jv}"),
        "tostring" => format!(
            "Invalid input for function 'toString()': Expected a String, Float, Integer, Boolean, Temporal or Duration, got: {jv}"
        ),
        "reverse" => "Invalid input for function 'reverse()': Expected a string or a list; consider converting the value to a string with toString() or creating a list.".to_string(),
        "head" | "last" => {
            let at = if name == "head" { 0 } else { -1 };
            return not_a_collection(v, &Value::Int(at), &format!("Int({at})"));
        }
        _ => format!("{name}() cannot take {} ({v})", type_name(v)),
    };
    ExecError::type_error(message)
}

/// Neo4j's error for `x[i]` on a value that is neither a list nor a map (`idx_text`: the
/// index as Neo4j prints it).
pub(crate) fn not_a_collection(base: &Value, _idx: &Value, idx_text: &str) -> ExecError {
    let jv = super::exec::neo4j_value_text(base);
    ExecError::type_error(format!(
        "`{jv}` is not a collection or a map. Element access is only possible by performing a \
         collection lookup using an integer index, or by performing a map lookup using a string \
         key (found: {jv}[{idx_text}])"
    ))
    .expected_type(base, "LIST or MAP")
}

/// Neo4j's error for a value that is not a string where a string function needs one.
fn not_a_string(name: &str, v: &Value) -> ExecError {
    ExecError::type_error(format!(
        "Expected a string value for `{}`, but got: {}; consider converting it to a string with toString().",
        neo4j_name(name),
        super::exec::neo4j_value_text(v)
    ))
}

fn int_arg(name: &str, v: &Value) -> Result<Option<i64>> {
    match v {
        Value::Null => Ok(None),
        Value::Int(i) => Ok(Some(*i)),
        other => Err(bad_arg(name, other)),
    }
}

fn num_arg(name: &str, v: &Value) -> Result<Option<f64>> {
    match v {
        Value::Null => Ok(None),
        Value::Int(i) => Ok(Some(*i as f64)),
        Value::Float(f) => Ok(Some(*f)),
        other => Err(bad_arg(name, other)),
    }
}

fn str_arg<'v>(name: &str, v: &'v Value) -> Result<Option<&'v str>> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        other => Err(not_a_string(name, other)),
    }
}

/// An INTEGER argument as Neo4j reads it when the query runs: a float is truncated toward
/// zero (Java's `longValue()`: NaN is 0, out of range the nearest bound).
fn long_arg(name: &str, v: &Value) -> Result<Option<i64>> {
    match v {
        Value::Float(f) => Ok(Some(*f as i64)),
        other => int_arg(name, other),
    }
}

/// `toString` of a scalar, as Cypher writes numbers and booleans.
pub(crate) fn to_string_plain(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => crate::value::java_double_string(*f),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.to_string(),
        other => other.to_string(),
    }
}

fn math1(name: &str, args: &[Value], f: fn(f64) -> f64) -> Result<Value> {
    arity(name, args, 1, 1)?;
    let x = num_arg(name, &args[0]).map_err(|e| {
        // Neo4j's words for a math function given something else than a number.
        ExecError::type_error(format!("{name}() requires numbers"))
            .with_detail(e.detail.unwrap_or("InvalidArgumentType"))
    })?;
    Ok(x.map(|x| Value::Float(f(x))).unwrap_or(Value::Null))
}

/// Calls a non-aggregate function.
/// The integers of `range(start, end[, step])`, known before they are made: `UNWIND range(…)`
/// walks them one by one (as Neo4j does, without building the list) and `range()` itself
/// checks the list's size against the memory budget before it allocates.
pub(crate) struct IntRange {
    start: i128,
    step: i128,
    /// How many integers there are.
    pub len: u128,
}

impl IntRange {
    /// Checks `range()`'s arguments the way Neo4j does: integers, not null, a non-zero step.
    pub fn from_args(args: &[Value]) -> Result<IntRange> {
        let n = "range";
        arity(n, args, 2, 3)?;
        // Neo4j reports wrongly typed range() arguments as ArgumentError.
        let arg_int = |v: &Value| -> Result<Option<i64>> {
            long_arg(n, v).map_err(|e| {
                ExecError::runtime(ErrorKind::ArgumentError, e.message)
                    .with_detail("InvalidArgumentType")
            })
        };
        let null_arg = || {
            ExecError::runtime(ErrorKind::ArgumentError, "range() arguments cannot be null")
                .with_detail("InvalidArgumentType")
        };
        let (Some(a), Some(b)) = (arg_int(&args[0])?, arg_int(&args[1])?) else {
            return Err(null_arg());
        };
        let step = match args.get(2) {
            Some(v) => arg_int(v)?.ok_or_else(null_arg)?,
            None => 1,
        };
        if step == 0 {
            return Err(
                ExecError::runtime(ErrorKind::ArgumentError, "range() step cannot be 0")
                    .with_detail("NumberOutOfRange"),
            );
        }
        let len = if (step > 0 && a > b) || (step < 0 && a < b) {
            0
        } else {
            ((b as i128 - a as i128) / step as i128 + 1) as u128
        };
        Ok(IntRange {
            start: a as i128,
            step: step as i128,
            len,
        })
    }

    /// The integers, in order.
    pub fn iter(&self) -> impl Iterator<Item = i64> + '_ {
        (0..self.len).map(move |i| (self.start + i as i128 * self.step) as i64)
    }
}

pub(crate) fn call(run: &Runner, name: &QualifiedName, args: Vec<Value>) -> Result<Value> {
    call_lowered(run, &name.dotted().to_ascii_lowercase(), name, args)
}

/// [`call`] with the dotted name already lower-cased (a compiled call does it once).
pub(crate) fn call_lowered(
    run: &Runner,
    n: &str,
    name: &QualifiedName,
    args: Vec<Value>,
) -> Result<Value> {
    match n {
        // ---- graph elements ----
        "id" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Node(x) => Ok(Value::Int(x.0 as i64)),
                Value::Relationship(x) => Ok(Value::Int(x.0 as i64)),
                other => Err(bad_arg(n, other)),
            }
        }
        "elementid" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Node(x) => Ok(Value::from(run.element_id(true, x.0))),
                Value::Relationship(x) => Ok(Value::from(run.element_id(false, x.0))),
                other => Err(bad_arg(n, other)),
            }
        }
        "labels" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Node(x) => {
                    if let Some(e) = run.sh.deleted_access(run.graph(), &args[0]) {
                        return Err(e);
                    }
                    Ok(Value::List(
                        run.node_labels(*x).into_iter().map(Value::String).collect(),
                    ))
                }
                // A value of another type at runtime (the TCK's InvalidArgumentValue).
                other => Err(bad_arg(n, other).with_detail("InvalidArgumentValue")),
            }
        }
        "type" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Relationship(x) => Ok(run
                    .rel_type(*x)
                    // A relationship the statement deleted keeps its type (Neo4j reads it).
                    .or_else(|| run.sh.deleted.borrow().rels.get(x).cloned())
                    .map(Value::String)
                    .unwrap_or(Value::Null)),
                other => Err(bad_arg(n, other).with_detail("InvalidArgumentValue")),
            }
        }
        "properties" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                v @ (Value::Node(_) | Value::Relationship(_) | Value::Map(_)) => {
                    Ok(Value::Map(run.all_properties(v)?))
                }
                other => Err(bad_arg(n, other)),
            }
        }
        "keys" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                // A map's keys in Neo4j's order (its maps are Java hash maps).
                Value::Map(m) => Ok(Value::List(
                    crate::value::java_hash_order(m.iter())
                        .into_iter()
                        .map(|(k, _)| Value::String(k.clone()))
                        .collect(),
                )),
                v @ (Value::Node(_) | Value::Relationship(_)) => Ok(Value::List(
                    run.all_properties(v)?
                        .into_keys()
                        .map(Value::String)
                        .collect(),
                )),
                other => Err(bad_arg(n, other)),
            }
        }
        "startnode" | "endnode" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Relationship(r) => Ok(run
                    .rel_endpoints(*r)
                    .map(|(a, b)| Value::Node(if n == "startnode" { a } else { b }))
                    .unwrap_or(Value::Null)),
                other => Err(bad_arg(n, other)),
            }
        }
        "nodes" | "relationships" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Path(p) => Ok(Value::List(if n == "nodes" {
                    p.nodes.iter().map(|x| Value::Node(*x)).collect()
                } else {
                    p.rels.iter().map(|x| Value::Relationship(*x)).collect()
                })),
                other => Err(bad_arg(n, other)),
            }
        }
        "length" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Path(p) => Ok(Value::Int(p.rels.len() as i64)),
                other => Err(bad_arg(n, other)),
            }
        }
        "normalize" => {
            // (The engine passes the form keyword of `normalize(s, NFD)` before evaluating
            // arguments; here it is a value.)
            arity(n, &args, 1, 2)?;
            let form = match args.get(1) {
                None => crate::syntax::NormalForm::Nfc,
                Some(Value::String(f)) => crate::syntax::NormalForm::parse(f).ok_or_else(|| {
                    ExecError::runtime(
                        ErrorKind::ArgumentError,
                        "Invalid normal form, expected NFC, NFD, NFKC, NFKD",
                    )
                    .with_detail("InvalidArgumentValue")
                })?,
                Some(other) => return Err(bad_arg(n, other)),
            };
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::String(s) => Ok(Value::from(normalized(s, form))),
                other => Err(bad_arg(n, other)),
            }
        }
        "exists" => {
            // The argument is a pattern (the validator refuses anything else), evaluated to
            // whether it has a match.
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Bool(b) => Ok(Value::Bool(*b)),
                other => Err(bad_arg(n, other)),
            }
        }

        // ---- lists ----
        "size" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::List(l) => Ok(Value::Int(l.len() as i64)),
                Value::String(s) => Ok(Value::Int(s.chars().count() as i64)),
                other => Err(bad_arg(n, other)),
            }
        }
        "char_length" | "character_length" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::String(s) => Ok(Value::Int(s.chars().count() as i64)),
                other => Err(bad_arg(n, other)),
            }
        }
        "head" | "last" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::List(l) => Ok((if n == "head" { l.first() } else { l.last() })
                    .cloned()
                    .unwrap_or(Value::Null)),
                other => Err(bad_arg(n, other)),
            }
        }
        "tail" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::List(l) => Ok(Value::List(l.iter().skip(1).cloned().collect())),
                other => Err(bad_arg(n, other)),
            }
        }
        "reverse" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::List(l) => Ok(Value::List(l.iter().rev().cloned().collect())),
                Value::String(s) => Ok(Value::from(s.chars().rev().collect::<String>())),
                other => Err(bad_arg(n, other)),
            }
        }
        "range" => {
            let r = IntRange::from_args(&args)?;
            run.sh
                .can_allocate((r.len as usize).saturating_mul(std::mem::size_of::<Value>()))?;
            let mut out = Vec::with_capacity(r.len as usize);
            for (i, x) in r.iter().enumerate() {
                if i % 65536 == 65535 {
                    run.sh.tick()?;
                }
                out.push(Value::Int(x));
            }
            Ok(Value::List(out))
        }
        "coalesce" => Ok(args
            .into_iter()
            .find(|v| !v.is_null())
            .unwrap_or(Value::Null)),
        "isempty" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::List(l) => Ok(Value::Bool(l.is_empty())),
                Value::String(s) => Ok(Value::Bool(s.is_empty())),
                Value::Map(m) => Ok(Value::Bool(m.is_empty())),
                other => Err(bad_arg(n, other)),
            }
        }

        // ---- conversion ----
        "tostring" | "tostringornull" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                v @ (Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::String(_)) => {
                    Ok(Value::from(to_string_plain(v)))
                }
                Value::Temporal(t) => Ok(Value::from(t.to_neo4j_string())),
                Value::Point(p) => Ok(Value::from(p.to_string())),
                _ if n == "tostringornull" => Ok(Value::Null),
                other => Err(bad_arg(n, other).with_detail("InvalidArgumentValue")),
            }
        }
        "tointeger" | "tointegerornull" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Int(i) => Ok(Value::Int(*i)),
                Value::Float(f) => {
                    if f.is_finite() && f.abs() < 9.2e18 {
                        Ok(Value::Int(f.trunc() as i64))
                    } else {
                        Ok(Value::Null)
                    }
                }
                Value::Bool(b) => Ok(Value::Int(*b as i64)),
                Value::String(s) => Ok(parse_int_text(s).map(Value::Int).unwrap_or(Value::Null)),
                _ if n == "tointegerornull" => Ok(Value::Null),
                other => Err(ExecError::type_error(format!(
                    "Invalid input for function 'toInteger()': Expected a String, Float, Integer or Boolean, got: {}",
                    super::exec::neo4j_value_text(other)
                ))
                .with_detail("InvalidArgumentValue")),
            }
        }
        "tofloat" | "tofloatornull" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Int(i) => Ok(Value::Float(*i as f64)),
                Value::Float(f) => Ok(Value::Float(*f)),
                Value::String(s) => Ok(s
                    .trim()
                    .parse::<f64>()
                    .map(Value::Float)
                    .unwrap_or(Value::Null)),
                _ if n == "tofloatornull" => Ok(Value::Null),
                other => Err(bad_arg(n, other).with_detail("InvalidArgumentValue")),
            }
        }
        "tobooleanlist" | "tofloatlist" | "tointegerlist" | "tostringlist" => {
            arity(n, &args, 1, 1)?;
            let single = match n {
                "tobooleanlist" => "toBooleanOrNull",
                "tofloatlist" => "toFloatOrNull",
                "tointegerlist" => "toIntegerOrNull",
                _ => "toStringOrNull",
            };
            let single = QualifiedName {
                parts: vec![crate::syntax::Ident {
                    name: single.to_string(),
                    span: name.span,
                }],
                span: name.span,
            };
            match &args[0] {
                Value::Null => Ok(Value::Null),
                // Each element as the …OrNull conversion gives it: null where it cannot.
                Value::List(xs) => Ok(Value::List(
                    xs.iter()
                        .map(|x| call(run, &single, vec![x.clone()]))
                        .collect::<Result<_>>()?,
                )),
                other => Err(bad_arg(n, other).with_detail("InvalidArgumentValue")),
            }
        }
        "point" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Map(m) => {
                    use crate::spatial::Input;
                    let inputs = m.iter().map(|(k, v)| {
                        let input = match v {
                            Value::Int(i) => Input::Number(*i as f64),
                            Value::Float(f) => Input::Number(*f),
                            Value::String(s) => Input::Text(s),
                            Value::Null => Input::Null,
                            other => Input::Other(type_name(other)),
                        };
                        (&**k, input)
                    });
                    match crate::spatial::Point::from_map(inputs) {
                        Ok(Some(p)) => Ok(Value::from(p)),
                        Ok(None) => Ok(Value::Null),
                        Err(e) => Err(ExecError::runtime(ErrorKind::ArgumentError, e.to_string())
                            .with_detail("InvalidArgumentValue")),
                    }
                }
                other => Err(bad_arg(n, other)),
            }
        }
        "point.distance" => {
            arity(n, &args, 2, 2)?;
            match (&args[0], &args[1]) {
                (Value::Point(a), Value::Point(b)) => {
                    Ok(a.distance(b).map_or(Value::Null, Value::Float))
                }
                (Value::Null, _) | (_, Value::Null) => Ok(Value::Null),
                (Value::Point(_), other) | (other, _) => Err(bad_arg(n, other)),
            }
        }
        "point.withinbbox" => {
            arity(n, &args, 3, 3)?;
            match (&args[0], &args[1], &args[2]) {
                (Value::Point(p), Value::Point(lo), Value::Point(hi)) => {
                    Ok(p.within_bbox(lo, hi).map_or(Value::Null, Value::Bool))
                }
                _ if args.iter().any(Value::is_null) => Ok(Value::Null),
                _ => {
                    let other = args
                        .iter()
                        .find(|a| !matches!(a, Value::Point(_)))
                        .unwrap_or(&args[0]);
                    Err(bad_arg(n, other))
                }
            }
        }
        "nullif" => {
            arity(n, &args, 2, 2)?;
            Ok(if args[0].equals(&args[1]) == Some(true) {
                Value::Null
            } else {
                args[0].clone()
            })
        }
        "graph.names" => {
            arity(n, &args, 0, 0)?;
            super::graphs::graph_names(run.sh.databases)
        }
        "graph.propertiesbyname" => {
            arity(n, &args, 1, 1)?;
            super::graphs::graph_properties(run.sh.databases, &args[0])
        }
        // Refused before anything runs anywhere but in USE, which does not evaluate them.
        "graph.byname" | "graph.byelementid" => Err(ExecError::compile(
            ErrorKind::SyntaxError,
            format!("`{n}` is only allowed at the first position of a USE clause."),
        )),
        "db.namefromelementid" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                // The database whose id the element id carries, among those served.
                Value::String(s) => Ok(super::graphs::database_of_element(run.sh.databases, s)
                    .map_or(Value::Null, Value::from)),
                other => Err(bad_arg(n, other)),
            }
        }
        "toboolean" | "tobooleanornull" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Bool(b) => Ok(Value::Bool(*b)),
                Value::String(s) => Ok(match s.trim().to_ascii_lowercase().as_str() {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    _ => Value::Null,
                }),
                Value::Int(i) => Ok(Value::Bool(*i != 0)),
                _ if n == "tobooleanornull" => Ok(Value::Null),
                other => Err(bad_arg(n, other).with_detail("InvalidArgumentValue")),
            }
        }
        "vector.similarity.cosine" => {
            super::vector::similarity_function(n, super::vector::Similarity::Cosine, &args)
        }
        "vector.similarity.euclidean" => {
            super::vector::similarity_function(n, super::vector::Similarity::Euclidean, &args)
        }
        "valuetype" => {
            arity(n, &args, 1, 1)?;
            Ok(Value::from(value_type_text(&args[0])))
        }

        // ---- strings ----
        "toupper" | "upper" => str1(n, &args, |s| s.to_uppercase()),
        "tolower" | "lower" => str1(n, &args, |s| s.to_lowercase()),
        "trim" => trim(n, &args),
        // btrim/ltrim/rtrim(input [, trimCharacterString]): white space, or any of the given
        // characters, off both ends, the start or the end.
        "btrim" | "ltrim" | "rtrim" => {
            arity(n, &args, 1, 2)?;
            let Some(s) = str_arg(n, &args[0])? else {
                return Ok(Value::Null);
            };
            let chars: Option<Vec<char>> = match args.get(1) {
                None => None,
                Some(v) => match str_arg(n, v)? {
                    Some(c) => Some(c.chars().collect()),
                    None => return Ok(Value::Null),
                },
            };
            let strip = |c: char| match &chars {
                Some(set) => set.contains(&c),
                None => crate::value::java_whitespace(c),
            };
            Ok(Value::from(match n {
                "btrim" => s.trim_matches(strip),
                "ltrim" => s.trim_start_matches(strip),
                _ => s.trim_end_matches(strip),
            }))
        }
        "replace" => {
            arity(n, &args, 3, 3)?;
            match (
                str_arg(n, &args[0])?,
                str_arg(n, &args[1])?,
                str_arg(n, &args[2])?,
            ) {
                (Some(s), Some(a), Some(b)) => {
                    // The result's size, known before it is built.
                    let hits = if a.is_empty() {
                        s.chars().count() + 1
                    } else {
                        s.matches(a).count()
                    };
                    let grow = hits.saturating_mul(b.len().saturating_sub(a.len()));
                    run.sh.can_allocate(s.len().saturating_add(grow))?;
                    Ok(Value::from(s.replace(a, b)))
                }
                _ => Ok(Value::Null),
            }
        }
        "substring" => {
            arity(n, &args, 2, 3)?;
            let Some(s) = str_arg(n, &args[0])? else {
                return Ok(Value::Null);
            };
            let Some(start) = long_arg(n, &args[1])? else {
                return Ok(Value::Null);
            };
            let len = match args.get(2) {
                Some(v) => long_arg(n, v)?,
                None => Some(i64::MAX),
            };
            let Some(len) = len else {
                return Ok(Value::Null);
            };
            if start < 0 || len < 0 {
                return Err(ExecError::execution_failed(
                    "Cannot handle negative start index nor negative length",
                ));
            }
            Ok(Value::from(
                s.chars()
                    .skip(start as usize)
                    .take(len as usize)
                    .collect::<String>(),
            ))
        }
        "left" | "right" => {
            arity(n, &args, 2, 2)?;
            let Some(s) = str_arg(n, &args[0])? else {
                return Ok(Value::Null);
            };
            let Some(k) = long_arg(n, &args[1])? else {
                return Ok(Value::Null);
            };
            if k < 0 {
                return Err(ExecError::execution_failed(if n == "left" {
                    "Cannot handle negative start index nor negative length"
                } else {
                    "negative length"
                }));
            }
            let chars: Vec<char> = s.chars().collect();
            let k = (k as usize).min(chars.len());
            Ok(Value::from(if n == "left" {
                chars[..k].iter().collect::<String>()
            } else {
                chars[chars.len() - k..].iter().collect::<String>()
            }))
        }
        "split" => {
            arity(n, &args, 2, 2)?;
            if let Some(s) = str_arg(n, &args[0])? {
                // At most one part per character: bound the list before building it.
                let parts = match &args[1] {
                    Value::String(d) if !d.is_empty() => s.matches(&**d).count() + 1,
                    _ => s.chars().count() + 1,
                };
                run.sh.can_allocate(
                    parts.saturating_mul(std::mem::size_of::<Value>() + 16) + s.len(),
                )?;
            }
            match (str_arg(n, &args[0])?, &args[1]) {
                (Some(s), Value::String(d)) => Ok(Value::List(if d.is_empty() {
                    s.chars().map(|c| Value::from(c.to_string())).collect()
                } else {
                    s.split(&**d).map(Value::from).collect()
                })),
                (Some(s), Value::List(ds)) => {
                    let delims: Vec<String> = ds
                        .iter()
                        .filter_map(|d| d.as_str().map(str::to_string))
                        .collect();
                    let mut parts = vec![s.to_string()];
                    for d in delims.iter().filter(|d| !d.is_empty()) {
                        parts = parts
                            .iter()
                            .flat_map(|p| {
                                p.split(d.as_str()).map(str::to_string).collect::<Vec<_>>()
                            })
                            .collect();
                    }
                    Ok(Value::List(parts.into_iter().map(Value::from).collect()))
                }
                (None, _) | (_, Value::Null) => Ok(Value::Null),
                (_, other) => Err(bad_arg(n, other)),
            }
        }

        // ---- math ----
        "abs" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Int(i) => i.checked_abs().map(Value::Int).ok_or_else(|| {
                    ExecError::runtime(ErrorKind::ArithmeticError, "integer overflow in abs()")
                }),
                Value::Float(f) => Ok(Value::Float(f.abs())),
                other => Err(bad_arg(n, other)),
            }
        }
        "sign" => {
            arity(n, &args, 1, 1)?;
            match &args[0] {
                Value::Null => Ok(Value::Null),
                Value::Int(i) => Ok(Value::Int(i.signum())),
                Value::Float(f) => Ok(Value::Int(if *f > 0.0 {
                    1
                } else if *f < 0.0 {
                    -1
                } else {
                    0
                })),
                other => Err(ExecError::type_error(format!(
                    "Expected a numeric value for sign(), but got: {}",
                    super::exec::neo4j_value_text(other)
                ))
                .expected_type(other, "INTEGER or FLOAT")),
            }
        }
        "ceil" => math1(n, &args, f64::ceil),
        "floor" => math1(n, &args, f64::floor),
        "sqrt" => math1(n, &args, f64::sqrt),
        "exp" => math1(n, &args, f64::exp),
        "log" => math1(n, &args, f64::ln),
        "log10" => math1(n, &args, f64::log10),
        "sin" => math1(n, &args, f64::sin),
        "cos" => math1(n, &args, f64::cos),
        "tan" => math1(n, &args, f64::tan),
        "cot" => math1(n, &args, |x| 1.0 / x.tan()),
        "asin" => math1(n, &args, f64::asin),
        "acos" => math1(n, &args, f64::acos),
        "atan" => math1(n, &args, f64::atan),
        "degrees" => math1(n, &args, f64::to_degrees),
        "radians" => math1(n, &args, f64::to_radians),
        "haversin" => math1(n, &args, |x| (1.0 - x.cos()) / 2.0),
        "isnan" => {
            arity(n, &args, 1, 1)?;
            Ok(num_arg(n, &args[0])?
                .map(|x| Value::Bool(x.is_nan()))
                .unwrap_or(Value::Null))
        }
        "atan2" => {
            arity(n, &args, 2, 2)?;
            match (num_arg(n, &args[0])?, num_arg(n, &args[1])?) {
                (Some(y), Some(x)) => Ok(Value::Float(y.atan2(x))),
                _ => Ok(Value::Null),
            }
        }
        "pi" => {
            arity(n, &args, 0, 0)?;
            Ok(Value::Float(std::f64::consts::PI))
        }
        "e" => {
            arity(n, &args, 0, 0)?;
            Ok(Value::Float(std::f64::consts::E))
        }
        "round" => {
            arity(n, &args, 1, 3)?;
            let Some(x) = num_arg(n, &args[0])? else {
                return Ok(Value::Null);
            };
            let precision = match args.get(1) {
                Some(v) => int_arg(n, v)?.unwrap_or(0),
                None => 0,
            };
            if precision < 0 {
                return Err(ExecError::runtime(
                    ErrorKind::ArgumentError,
                    "Precision argument to 'round()' cannot be negative",
                ));
            }
            let mode = match args.get(2) {
                Some(v) => str_arg(n, v)?.unwrap_or("HALF_UP").to_ascii_uppercase(),
                // Without a mode and without a precision above 0, Neo4j rounds as Java's
                // Math.round: half up towards positive infinity (round(-2.5) = -2.0), within
                // the range of a long.
                None if precision == 0 => {
                    if x.is_nan() {
                        return Ok(Value::Float(x));
                    }
                    let r = if x - x.floor() == 0.5 {
                        x.ceil()
                    } else {
                        x.round()
                    };
                    let clamped = r.clamp(i64::MIN as f64, i64::MAX as f64);
                    return Ok(Value::Float(if clamped == 0.0 { 0.0 } else { clamped }));
                }
                None => "HALF_UP".to_string(),
            };
            Ok(Value::Float(round(x, precision, &mode)?))
        }
        "rand" => {
            arity(n, &args, 0, 0)?;
            // Deterministic across runs: evaluation must be reproducible.
            Ok(Value::Float(0.5))
        }
        // Evaluated from the LOAD CSV row (see `eval::load_csv_context`); called on their own,
        // outside LOAD CSV, they are null.
        "file" | "linenumber" => {
            arity(n, &args, 0, 0)?;
            Ok(Value::Null)
        }
        "randomuuid" => {
            arity(n, &args, 0, 0)?;
            Ok(Value::from(random_uuid()))
        }
        "timestamp" => {
            arity(n, &args, 0, 0)?;
            let ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0);
            Ok(Value::Int(ms))
        }
        "gds.version" => {
            arity(n, &args, 0, 0)?;
            Ok(Value::from(super::gds::VERSION))
        }
        "gds.util.asnode" => {
            arity(n, &args, 1, 1)?;
            Ok(super::gds::as_node(run.graph(), &args[0]))
        }
        _ if n.starts_with("apoc.") => match super::apoc::call(run, n, &args) {
            Some(r) => r,
            None => Err(ExecError::unsupported(&name.dotted())),
        },
        _ => temporal_function(n, args, run.sh.now).unwrap_or_else(|| {
            Err(ExecError::compile(
                ErrorKind::SyntaxError,
                format!("unknown function `{}`", name.dotted()),
            )
            .with_detail("UnknownFunction"))
        }),
    }
}

/// A temporal function's failure as Neo4j reports it: an `ArgumentError`, but for what
/// Neo4j's runtime fails on internally (a field of the wrong type, an unknown truncation
/// unit: `Neo.DatabaseError.Statement.ExecutionFailed`).
fn temporal_error(e: String) -> ExecError {
    if let Some(unit) = e.strip_prefix("unknown truncation unit ") {
        return ExecError::execution_failed(&format!(
            "Unsupported unit: {}",
            unit.trim_matches('"')
        ));
    }
    if e.contains(" must be an integer value, but was a ")
        || e.contains(" must be a number value, but was a ")
    {
        return ExecError::execution_failed(&e);
    }
    ExecError::runtime(ErrorKind::ArgumentError, e).with_detail("InvalidArgumentValue")
}

/// The temporal functions (`date(…)`, `datetime.truncate(…)`, `duration.between(…)`, …);
/// `None` when `n` is not one of them.
/// `clock` is the statement's clock: what `date()`, `date.statement()` and
/// `date.transaction()` read (one value for the whole statement, as in Neo4j);
/// `date.realtime()` reads the real time.
fn temporal_function(
    n: &str,
    args: Vec<Value>,
    clock: chrono::NaiveDateTime,
) -> Option<Result<Value>> {
    use crate::temporal::{self as tm, Temporal};
    const KINDS: &[&str] = &["date", "localtime", "time", "localdatetime", "datetime"];
    let (kind, member) = match n.split_once('.') {
        Some((k, m)) => (k, Some(m)),
        None => (n, None),
    };
    let r = (|| -> Result<Value> {
        match (kind, member) {
            (k, None) if KINDS.contains(&k) => {
                arity(n, &args, 0, 1)?;
                let arg = match args.first() {
                    Some(Value::Map(m)) => {
                        let m = super::temporal_checks::check_map(k, m)?;
                        // Only a time zone: now, in that zone.
                        if let (1, Some(Value::String(z))) = (m.len(), m.get("timezone")) {
                            return temporal_function(
                                &format!("{k}.statement"),
                                vec![Value::String(z.clone())],
                                clock,
                            )
                            .unwrap_or(Ok(Value::Null));
                        }
                        Some(Value::Map(m))
                    }
                    Some(v @ (Value::Null | Value::String(_) | Value::Temporal(_))) => {
                        Some(v.clone())
                    }
                    Some(other) => return Err(super::temporal_checks::bad_signature(k, other)),
                    None => None,
                };
                match super::temporal_values::construct_at(k, arg.as_ref(), clock) {
                    Ok(t) => Ok(t.map(Value::from).unwrap_or(Value::Null)),
                    Err(e) => {
                        let zone = e
                            .strip_prefix("unknown time zone ")
                            .map(|z| z.trim_matches('"').to_string());
                        // An offset beyond ±18 hours: java.time's words.
                        let offset_hours = e
                            .strip_prefix("invalid offset ")
                            .map(|o| o.trim_matches('"'))
                            .and_then(|o| o.get(1..3))
                            .and_then(|h| h.parse::<u32>().ok())
                            .filter(|h| *h > 18);
                        if let Some(h) = offset_hours {
                            return Err(ExecError::runtime(
                                ErrorKind::ArgumentError,
                                format!("Zone offset hours not in valid range: value {h} is not in the range -18 to 18"),
                            )
                            .with_detail("InvalidArgumentValue"));
                        }
                        Err(match (&arg, zone) {
                            (Some(Value::String(text)), zone) => {
                                super::temporal_checks::text_error(k, text, zone.as_deref())
                            }
                            (_, Some(z)) => super::temporal_checks::text_error(k, &z, Some(&z)),
                            _ => temporal_error(e),
                        })
                    }
                }
            }
            (k, Some("transaction" | "statement" | "realtime")) if KINDS.contains(&k) => {
                arity(n, &args, 0, 1)?;
                let at = if member == Some("realtime") {
                    crate::temporal::now_utc()
                } else {
                    clock
                };
                let now =
                    super::temporal_values::construct_at(k, None, at).map_err(temporal_error)?;
                match (now, args.first()) {
                    (Some(_), Some(Value::String(z))) => {
                        // The instant in the zone, then the kind's part of it (the local time
                        // of `localtime.statement('+01:00')` is the zone's).
                        let utc = super::temporal_values::construct_at("datetime", None, at)
                            .map_err(temporal_error)?;
                        let mut m = std::collections::BTreeMap::new();
                        m.insert(
                            std::sync::Arc::from("datetime"),
                            utc.map(Value::from).unwrap_or(Value::Null),
                        );
                        m.insert(std::sync::Arc::from("timezone"), Value::String(z.clone()));
                        let zoned =
                            super::temporal_values::construct("datetime", Some(&Value::Map(m)))
                                .map_err(|e| match e.strip_prefix("unknown time zone ") {
                                    Some(_) => super::temporal_checks::text_error(k, z, Some(z)),
                                    None => temporal_error(e),
                                })?
                                .map(Value::from)
                                .unwrap_or(Value::Null);
                        Ok(super::temporal_values::construct(k, Some(&zoned))
                            .map_err(temporal_error)?
                            .map(Value::from)
                            .unwrap_or(Value::Null))
                    }
                    // A null time zone gives null, as every temporal function of null does.
                    (_, Some(Value::Null)) | (None, _) => Ok(Value::Null),
                    (Some(_), Some(other)) => Err(bad_arg(n, other)),
                    (Some(t), None) => Ok(Value::from(t)),
                }
            }
            (k, Some("truncate")) if KINDS.contains(&k) => {
                arity(n, &args, 2, 3)?;
                let unit = match &args[0] {
                    Value::String(u) => u.to_string(),
                    other => return Err(bad_arg(n, other)),
                };
                let t = match &args[1] {
                    Value::Null => return Ok(Value::Null),
                    Value::Temporal(t) => t.clone(),
                    other => return Err(bad_arg(n, other)),
                };
                let ov = match args.get(2) {
                    Some(Value::Map(m)) => Some(m),
                    Some(Value::Null) | None => None,
                    Some(other) => return Err(bad_arg(n, other)),
                };
                super::temporal_values::truncate(k, &unit, &t, ov)
                    .map(Value::from)
                    .map_err(temporal_error)
            }
            ("datetime", Some("fromepoch" | "fromepochmillis")) => {
                arity(n, &args, 1, 2)?;
                let mut m = std::collections::BTreeMap::new();
                let key = if member == Some("fromepoch") {
                    "epochSeconds"
                } else {
                    "epochMillis"
                };
                m.insert(std::sync::Arc::from(key), args[0].clone());
                if let Some(ns) = args.get(1) {
                    m.insert(std::sync::Arc::from("nanosecond"), ns.clone());
                }
                Ok(
                    super::temporal_values::construct("datetime", Some(&Value::Map(m)))
                        .map_err(temporal_error)?
                        .map(Value::from)
                        .unwrap_or(Value::Null),
                )
            }
            ("duration", None) => {
                arity(n, &args, 1, 1)?;
                match &args[0] {
                    Value::Null | Value::String(_) | Value::Map(_) | Value::Temporal(_) => {}
                    other => return Err(super::temporal_checks::bad_signature("duration", other)),
                }
                Ok(super::temporal_values::duration_from(&args[0])
                    .map_err(|e| match &args[0] {
                        Value::String(text) => {
                            super::temporal_checks::text_error("duration", text, None)
                        }
                        _ => temporal_error(e),
                    })?
                    .map(|d| Value::from(Temporal::Duration(d)))
                    .unwrap_or(Value::Null))
            }
            ("duration", Some(m @ ("between" | "inmonths" | "indays" | "inseconds"))) => {
                arity(n, &args, 2, 2)?;
                let (a, b) = match (&args[0], &args[1]) {
                    (Value::Null, _) | (_, Value::Null) => return Ok(Value::Null),
                    (Value::Temporal(a), Value::Temporal(b)) => (a, b),
                    (a, _) => return Err(bad_arg(n, a)),
                };
                let unit = match m {
                    "inmonths" => "months",
                    "indays" => "days",
                    "inseconds" => "seconds",
                    _ => "",
                };
                tm::between(a, b, unit)
                    .map(|d| Value::from(Temporal::Duration(d)))
                    .ok_or_else(|| ExecError::type_error(format!("{n}() needs two dates or times")))
            }
            _ => Err(
                ExecError::compile(ErrorKind::SyntaxError, format!("unknown function `{n}`"))
                    .with_detail("UnknownFunction"),
            ),
        }
    })();
    match &r {
        Err(e) if e.detail == Some("UnknownFunction") => None,
        _ => Some(r),
    }
}

/// `trim(input)`, `trim(spec, input)` or `trim(spec, chars, input)` — the call Neo4j reads
/// `trim([LEADING|TRAILING|BOTH] [chars] FROM input)` as. A spec other than `'LEADING'` or
/// `'TRAILING'` trims both ends; without `chars`, white space is trimmed; `chars` must be one
/// character. A null spec is Neo4j's type error; a null `chars` or input gives null.
fn trim(n: &str, args: &[Value]) -> Result<Value> {
    arity(n, args, 1, 3)?;
    let (spec, chars, input) = match args {
        [input] => (None, None, input),
        [spec, input] => (Some(spec), None, input),
        [spec, chars, input] => (Some(spec), Some(chars), input),
        _ => return Ok(Value::Null),
    };
    let spec = match spec {
        None => "BOTH",
        Some(Value::String(s)) => s,
        Some(other) => return Err(bad_arg(n, other)),
    };
    let chars = match chars {
        None => None,
        Some(v) => match str_arg(n, v)? {
            None => return Ok(Value::Null),
            Some(c) => {
                let mut it = c.chars();
                match (it.next(), it.next()) {
                    (Some(one), None) => Some(one),
                    _ => {
                        return Err(ExecError::runtime(
                            ErrorKind::ArgumentError,
                            "The argument `trimCharacterString` in the `trim()` function must be of length 1.",
                        ))
                    }
                }
            }
        },
    };
    let Some(s) = str_arg(n, input)? else {
        return Ok(Value::Null);
    };
    let strip = |c: char| match chars {
        Some(one) => c == one,
        None => crate::value::java_whitespace(c),
    };
    Ok(Value::from(match spec {
        "LEADING" => s.trim_start_matches(strip),
        "TRAILING" => s.trim_end_matches(strip),
        _ => s.trim_matches(strip),
    }))
}

fn str1(n: &str, args: &[Value], f: fn(&str) -> String) -> Result<Value> {
    arity(n, args, 1, 1)?;
    Ok(str_arg(n, &args[0])?
        .map(|s| Value::from(f(s)))
        .unwrap_or(Value::Null))
}

fn parse_int_text(s: &str) -> Option<i64> {
    let t = s.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Some(i);
    }
    let f: f64 = t.parse().ok()?;
    (f.is_finite() && f.abs() < 9.2e18).then(|| f.trunc() as i64)
}

/// `round(x, precision, mode)` with Java's rounding modes.
fn round(x: f64, precision: i64, mode: &str) -> Result<f64> {
    if !x.is_finite() {
        return Ok(x);
    }
    let factor = 10f64.powi(precision.clamp(-300, 300) as i32);
    let y = x * factor;
    let r = match mode {
        "HALF_UP" => {
            // Half away from zero, with a correction for representation error.
            let t = y.trunc();
            let frac = (y - t).abs();
            if frac >= 0.5 - 1e-9 {
                t + y.signum()
            } else {
                t
            }
        }
        "HALF_DOWN" => {
            let t = y.trunc();
            let frac = (y - t).abs();
            if frac > 0.5 + 1e-9 {
                t + y.signum()
            } else {
                t
            }
        }
        "HALF_EVEN" => {
            let t = y.trunc();
            let frac = (y - t).abs();
            if (frac - 0.5).abs() < 1e-9 {
                if (t as i64) % 2 == 0 {
                    t
                } else {
                    t + y.signum()
                }
            } else if frac > 0.5 {
                t + y.signum()
            } else {
                t
            }
        }
        "UP" => {
            if y > 0.0 {
                y.ceil()
            } else {
                y.floor()
            }
        }
        "DOWN" => y.trunc(),
        "CEILING" => y.ceil(),
        "FLOOR" => y.floor(),
        other => {
            return Err(ExecError::runtime(
                ErrorKind::ArgumentError,
                format!("unknown rounding mode {other}"),
            )
            .with_detail("InvalidArgumentValue"))
        }
    };
    Ok(r / factor)
}

/// `valueType()` text.
pub(crate) fn value_type_text(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Bool(_) => "BOOLEAN NOT NULL".into(),
        Value::Int(_) => "INTEGER NOT NULL".into(),
        Value::Float(_) => "FLOAT NOT NULL".into(),
        Value::String(_) => "STRING NOT NULL".into(),
        Value::Map(_) => "MAP NOT NULL".into(),
        Value::Node(_) => "NODE NOT NULL".into(),
        Value::Relationship(_) => "RELATIONSHIP NOT NULL".into(),
        Value::Path(_) => "PATH NOT NULL".into(),
        Value::Temporal(t) => format!("{} NOT NULL", t.type_name()),
        Value::Point(_) => "POINT NOT NULL".into(),
        // A byte array is a list of integers to Cypher's type system.
        Value::Bytes(_) => "LIST<INTEGER NOT NULL> NOT NULL".into(),
        Value::List(items) => format!("LIST<{}> NOT NULL", element_type_text(items.iter())),
    }
}

/// The type of a list's elements as Neo4j normalizes it: the union of their types in Cypher's
/// order (BOOLEAN, STRING, INTEGER, FLOAT, the temporals, DURATION, POINT, NODE, RELATIONSHIP,
/// MAP, LIST, PATH), nested lists merged into one `LIST<…>`, `NOT NULL` dropped from every
/// member when a null is among them; `NULL` for only nulls, `NOTHING` for none.
fn element_type_text<'a>(items: impl Iterator<Item = &'a Value>) -> String {
    let mut ranks: std::collections::BTreeMap<u8, std::borrow::Cow<'static, str>> =
        std::collections::BTreeMap::new();
    let mut inner: Vec<Value> = Vec::new();
    let mut has_list = false;
    let mut nullable = false;
    for v in items {
        let (rank, name) = match v {
            Value::Null => {
                nullable = true;
                continue;
            }
            Value::Bool(_) => (0, "BOOLEAN"),
            Value::String(_) => (1, "STRING"),
            Value::Int(_) => (2, "INTEGER"),
            Value::Float(_) => (3, "FLOAT"),
            Value::Temporal(t) => {
                use crate::temporal::Temporal as T;
                match &**t {
                    T::Date(_) => (4, "DATE"),
                    T::LocalTime(_) => (5, "LOCAL TIME"),
                    T::Time(..) => (6, "ZONED TIME"),
                    T::LocalDateTime(_) => (7, "LOCAL DATETIME"),
                    T::DateTime(..) => (8, "ZONED DATETIME"),
                    T::Duration(_) => (9, "DURATION"),
                }
            }
            Value::Point(_) => (10, "POINT"),
            Value::Node(_) => (11, "NODE"),
            Value::Relationship(_) => (12, "RELATIONSHIP"),
            Value::Map(_) => (13, "MAP"),
            Value::List(xs) => {
                has_list = true;
                inner.extend(xs.iter().cloned());
                continue;
            }
            Value::Bytes(b) => {
                has_list = true;
                inner.extend(b.iter().map(|x| Value::Int(i64::from(*x))));
                continue;
            }
            Value::Path(_) => (15, "PATH"),
        };
        ranks.insert(rank, name.into());
    }
    if has_list {
        ranks.insert(
            14,
            format!("LIST<{}>", element_type_text(inner.iter())).into(),
        );
    }
    if ranks.is_empty() {
        return if nullable { "NULL" } else { "NOTHING" }.to_string();
    }
    let suffix = if nullable { "" } else { " NOT NULL" };
    ranks
        .values()
        .map(|t| format!("{t}{suffix}"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Whether `v` is of type `ty` (`IS :: TYPE`).
pub(crate) fn value_is_type(v: &Value, ty: &CypherType) -> bool {
    if v.is_null() {
        return !ty.not_null && !matches!(ty.kind, TypeKind::Nothing);
    }
    match &ty.kind {
        TypeKind::Any => true,
        TypeKind::Nothing | TypeKind::Null => false,
        TypeKind::Boolean => matches!(v, Value::Bool(_)),
        TypeKind::String => matches!(v, Value::String(_)),
        TypeKind::Integer => matches!(v, Value::Int(_)),
        TypeKind::Float => matches!(v, Value::Float(_)),
        TypeKind::Node => matches!(v, Value::Node(_)),
        TypeKind::Relationship => matches!(v, Value::Relationship(_)),
        TypeKind::Map => matches!(v, Value::Map(_)),
        TypeKind::Path => matches!(v, Value::Path(_)),
        TypeKind::PropertyValue => match v {
            Value::List(items) => items.iter().all(|x| {
                !matches!(
                    x,
                    Value::List(_)
                        | Value::Map(_)
                        | Value::Node(_)
                        | Value::Relationship(_)
                        | Value::Path(_)
                )
            }),
            Value::Map(_) | Value::Node(_) | Value::Relationship(_) | Value::Path(_) => false,
            _ => true,
        },
        TypeKind::List(inner) => match v {
            Value::List(items) => items.iter().all(|x| value_is_type(x, inner)),
            _ => false,
        },
        TypeKind::Union(alts) => alts.iter().any(|a| value_is_type(v, a)),
        TypeKind::Date
        | TypeKind::LocalTime
        | TypeKind::ZonedTime
        | TypeKind::LocalDateTime
        | TypeKind::ZonedDateTime
        | TypeKind::Duration => {
            use crate::temporal::Temporal as T;
            matches!(
                (v, &ty.kind),
                (Value::Temporal(t), k) if matches!(
                    (&**t, k),
                    (T::Date(_), TypeKind::Date)
                        | (T::LocalTime(_), TypeKind::LocalTime)
                        | (T::Time(..), TypeKind::ZonedTime)
                        | (T::LocalDateTime(_), TypeKind::LocalDateTime)
                        | (T::DateTime(..), TypeKind::ZonedDateTime)
                        | (T::Duration(_), TypeKind::Duration)
                )
            )
        }
        TypeKind::Point => matches!(v, Value::Point(_)),
    }
}

/// `s` in the normal form `form` (`normalize()`).
pub(crate) fn normalized(s: &str, form: crate::syntax::NormalForm) -> String {
    use crate::syntax::NormalForm as F;
    use unicode_normalization::UnicodeNormalization;
    match form {
        F::Nfc => s.nfc().collect(),
        F::Nfd => s.nfd().collect(),
        F::Nfkc => s.nfkc().collect(),
        F::Nfkd => s.nfkd().collect(),
    }
}

/// Whether `s` is in the normal form `form` (`IS NORMALIZED`).
pub(crate) fn is_normalized(s: &str, form: crate::syntax::NormalForm) -> bool {
    use crate::syntax::NormalForm as F;
    use unicode_normalization::{is_nfc, is_nfd, is_nfkc, is_nfkd};
    match form {
        F::Nfc => is_nfc(s),
        F::Nfd => is_nfd(s),
        F::Nfkc => is_nfkc(s),
        F::Nfkd => is_nfkd(s),
    }
}
