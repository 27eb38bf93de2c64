//! The scalar, list, string and math function library, with Neo4j's null and type rules.

use super::error::{ErrorKind, ExecError, Result};
use super::exec::Runner;
use crate::engine::Detail;
use crate::syntax::{CypherType, QualifiedName, TypeKind};
use crate::value::{type_name, Value};

/// Whether a function name is an aggregate.
pub(crate) fn is_aggregate(name: &QualifiedName) -> bool {
    name.is_aggregate()
}

/// Whether the engine runs the function `name` (dotted, any case).
pub fn is_implemented(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    resolve(&lower).is_some() || crate::syntax::ast::is_aggregate_name(&lower)
}

/// The built-in functions' names (lower-case), besides the aggregates and APOC's.
#[cfg(test)]
pub(crate) fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|(n, _)| *n)
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
        .with_detail(Detail::InvalidNumberOfArguments));
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
            .with_detail(e.detail.unwrap_or(Detail::InvalidArgumentType))
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
                    .with_detail(Detail::InvalidArgumentType)
            })
        };
        let null_arg = || {
            ExecError::runtime(ErrorKind::ArgumentError, "range() arguments cannot be null")
                .with_detail(Detail::InvalidArgumentType)
        };
        let (Some(a), Some(b)) = (arg_int(&args[0])?, arg_int(&args[1])?) else {
            return Err(null_arg());
        };
        let step = match args.get(2) {
            Some(v) => arg_int(v)?.ok_or_else(null_arg)?,
            None => 1,
        };
        if step == 0 {
            return Err(ExecError::range_step_zero());
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

/// A built-in function: called with the runner, its lower-case name (one implementation may
/// serve several names: `toUpper` and `upper`), the name as the query writes it (for errors
/// that point at it) and the evaluated arguments.
pub(crate) type Builtin = fn(&Runner, &'static str, &QualifiedName, Args) -> Result<Value>;

/// A call's evaluated arguments: inline up to three (nearly every call), so that a call
/// takes no allocation for them.
pub(crate) type Args = smallvec::SmallVec<[Value; 3]>;

/// A function call's implementation, bound once when the call is compiled ([`resolve`]): a
/// built-in or an APOC function. Nothing looks a function up by its name while rows run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bound {
    /// The lower-case dotted name.
    pub(crate) name: &'static str,
    imp: Imp,
}

#[derive(Clone, Copy)]
enum Imp {
    Builtin(Builtin),
    Apoc(super::apoc::Entry),
}

impl std::fmt::Debug for Imp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Imp::Builtin(_) => f.write_str("built-in"),
            Imp::Apoc(e) => e.fmt(f),
        }
    }
}

impl Bound {
    /// Runs the function on evaluated arguments; `name` is the call as written.
    #[inline]
    pub(crate) fn call(self, run: &Runner, name: &QualifiedName, args: Args) -> Result<Value> {
        match self.imp {
            Imp::Builtin(f) => f(run, self.name, name, args),
            Imp::Apoc(e) => e.call(run, &args),
        }
    }
}

/// The function `lowered` (a dotted name, lower-case) bound to its implementation: the
/// built-ins' table ([`BUILTINS`], by binary search), then APOC's (`apoc::resolve`). `None`
/// for a function the engine does not run. The registry is the catalogue's side in code: a
/// unit test holds the names it resolves to Neo4j's catalogue.
pub(crate) fn resolve(lowered: &str) -> Option<Bound> {
    if let Ok(i) = BUILTINS.binary_search_by_key(&lowered, |(n, _)| n) {
        let (name, f) = BUILTINS[i];
        return Some(Bound {
            name,
            imp: Imp::Builtin(f),
        });
    }
    if lowered.starts_with("apoc.") {
        return super::apoc::resolve(lowered).map(|e| Bound {
            name: e.name,
            imp: Imp::Apoc(e),
        });
    }
    None
}

/// The error of a call to a function the engine does not run ([`resolve`] gave `None`):
/// APOC's that grape lacks are unsupported; any other is unknown (the semantic check reports
/// it before a query runs; this is what a call reaching the runtime gets).
pub(crate) fn unresolved(name: &QualifiedName) -> ExecError {
    let dotted = name.dotted();
    if dotted.to_ascii_lowercase().starts_with("apoc.") {
        return ExecError::unsupported(&dotted);
    }
    ExecError::compile(
        ErrorKind::SyntaxError,
        format!("unknown function `{dotted}`"),
    )
    .with_detail(Detail::UnknownFunction)
}

/// Calls the function `name` on evaluated arguments, resolving it first (an interpreted
/// call; a compiled one is bound once, see [`resolve`]).
pub(crate) fn call(run: &Runner, name: &QualifiedName, args: Args) -> Result<Value> {
    match resolve(&name.dotted().to_ascii_lowercase()) {
        Some(b) => b.call(run, name, args),
        None => Err(unresolved(name)),
    }
}

/// The functions of one temporal kind (`date`, `date.realtime`, `date.statement`,
/// `date.transaction`, `date.truncate`), each bound to the kind.
macro_rules! temporal_kind {
    ($m:ident, $kind:expr) => {
        mod $m {
            use super::*;
            pub(super) fn construct(
                r: &Runner,
                n: &'static str,
                q: &QualifiedName,
                a: Args,
            ) -> Result<Value> {
                f_temporal(r, n, q, a, $kind)
            }
            pub(super) fn realtime(
                r: &Runner,
                n: &'static str,
                q: &QualifiedName,
                a: Args,
            ) -> Result<Value> {
                f_temporal_now(r, n, q, a, $kind, true)
            }
            pub(super) fn now(
                r: &Runner,
                n: &'static str,
                q: &QualifiedName,
                a: Args,
            ) -> Result<Value> {
                f_temporal_now(r, n, q, a, $kind, false)
            }
            pub(super) fn truncate(
                r: &Runner,
                n: &'static str,
                q: &QualifiedName,
                a: Args,
            ) -> Result<Value> {
                f_temporal_truncate(r, n, q, a, $kind)
            }
        }
    };
}
temporal_kind!(date_fns, Kind::Date);
temporal_kind!(datetime_fns, Kind::DateTime);
temporal_kind!(localdatetime_fns, Kind::LocalDateTime);
temporal_kind!(localtime_fns, Kind::LocalTime);
temporal_kind!(time_fns, Kind::Time);

/// The built-in functions (lower-case dotted names, sorted), each bound to its implementation.
const BUILTINS: &[(&str, Builtin)] = &[
    ("abs", f_abs),
    ("acos", f_acos),
    ("asin", f_asin),
    ("atan", f_atan),
    ("atan2", f_atan2),
    ("btrim", f_trim_side::<BOTH_ENDS>),
    ("ceil", f_ceil),
    ("char_length", f_char_length),
    ("character_length", f_char_length),
    ("coalesce", f_coalesce),
    ("cos", f_cos),
    ("cot", f_cot),
    ("date", date_fns::construct),
    ("date.realtime", date_fns::realtime),
    ("date.statement", date_fns::now),
    ("date.transaction", date_fns::now),
    ("date.truncate", date_fns::truncate),
    ("datetime", datetime_fns::construct),
    ("datetime.fromepoch", f_datetime_fromepoch::<false>),
    ("datetime.fromepochmillis", f_datetime_fromepoch::<true>),
    ("datetime.realtime", datetime_fns::realtime),
    ("datetime.statement", datetime_fns::now),
    ("datetime.transaction", datetime_fns::now),
    ("datetime.truncate", datetime_fns::truncate),
    ("db.namefromelementid", f_db_namefromelementid),
    ("degrees", f_degrees),
    ("duration", f_duration),
    ("duration.between", |r, n, q, a| {
        f_duration_between(r, n, q, a, "")
    }),
    ("duration.indays", |r, n, q, a| {
        f_duration_between(r, n, q, a, "days")
    }),
    ("duration.inmonths", |r, n, q, a| {
        f_duration_between(r, n, q, a, "months")
    }),
    ("duration.inseconds", |r, n, q, a| {
        f_duration_between(r, n, q, a, "seconds")
    }),
    ("e", f_e),
    ("elementid", f_elementid),
    ("endnode", f_endpoint::<false>),
    ("exists", f_exists),
    ("exp", f_exp),
    ("file", f_load_csv_context),
    ("floor", f_floor),
    ("gds.util.asnode", f_gds_util_asnode),
    ("gds.version", f_gds_version),
    ("graph.byelementid", f_graph_by),
    ("graph.byname", f_graph_by),
    ("graph.names", f_graph_names),
    ("graph.propertiesbyname", f_graph_propertiesbyname),
    ("haversin", f_haversin),
    ("head", f_head_or_last::<false>),
    ("id", f_id),
    ("isempty", f_isempty),
    ("isnan", f_isnan),
    ("keys", f_keys),
    ("labels", f_labels),
    ("last", f_head_or_last::<true>),
    ("left", f_left_or_right::<true>),
    ("length", f_length),
    ("linenumber", f_load_csv_context),
    ("localdatetime", localdatetime_fns::construct),
    ("localdatetime.realtime", localdatetime_fns::realtime),
    ("localdatetime.statement", localdatetime_fns::now),
    ("localdatetime.transaction", localdatetime_fns::now),
    ("localdatetime.truncate", localdatetime_fns::truncate),
    ("localtime", localtime_fns::construct),
    ("localtime.realtime", localtime_fns::realtime),
    ("localtime.statement", localtime_fns::now),
    ("localtime.transaction", localtime_fns::now),
    ("localtime.truncate", localtime_fns::truncate),
    ("log", f_log),
    ("log10", f_log10),
    ("lower", f_tolower),
    ("ltrim", f_trim_side::<LEADING>),
    ("nodes", f_path_elements::<true>),
    ("normalize", f_normalize),
    ("nullif", f_nullif),
    ("pi", f_pi),
    ("point", f_point),
    ("point.distance", f_point_distance),
    ("point.withinbbox", f_point_withinbbox),
    ("properties", f_properties),
    ("radians", f_radians),
    ("rand", f_rand),
    ("randomuuid", f_randomuuid),
    ("range", f_range),
    ("relationships", f_path_elements::<false>),
    ("replace", f_replace),
    ("reverse", f_reverse),
    ("right", f_left_or_right::<false>),
    ("round", f_round),
    ("rtrim", f_trim_side::<TRAILING>),
    ("sign", f_sign),
    ("sin", f_sin),
    ("size", f_size),
    ("split", f_split),
    ("sqrt", f_sqrt),
    ("startnode", f_endpoint::<true>),
    ("substring", f_substring),
    ("tail", f_tail),
    ("tan", f_tan),
    ("time", time_fns::construct),
    ("time.realtime", time_fns::realtime),
    ("time.statement", time_fns::now),
    ("time.transaction", time_fns::now),
    ("time.truncate", time_fns::truncate),
    ("timestamp", f_timestamp),
    ("toboolean", f_toboolean::<false>),
    ("tobooleanlist", |r, n, q, a| {
        f_to_typed_list(r, n, q, a, f_toboolean::<true>)
    }),
    ("tobooleanornull", f_toboolean::<true>),
    ("tofloat", f_tofloat::<false>),
    ("tofloatlist", |r, n, q, a| {
        f_to_typed_list(r, n, q, a, f_tofloat::<true>)
    }),
    ("tofloatornull", f_tofloat::<true>),
    ("tointeger", f_tointeger::<false>),
    ("tointegerlist", |r, n, q, a| {
        f_to_typed_list(r, n, q, a, f_tointeger::<true>)
    }),
    ("tointegerornull", f_tointeger::<true>),
    ("tolower", f_tolower),
    ("tostring", f_tostring::<false>),
    ("tostringlist", |r, n, q, a| {
        f_to_typed_list(r, n, q, a, f_tostring::<true>)
    }),
    ("tostringornull", f_tostring::<true>),
    ("toupper", f_toupper),
    ("trim", f_trim),
    ("type", f_type),
    ("upper", f_toupper),
    ("valuetype", f_valuetype),
    ("vector.similarity.cosine", f_vector_similarity_cosine),
    ("vector.similarity.euclidean", f_vector_similarity_euclidean),
];

// ---- graph elements ----
fn f_id(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::Node(x) => Ok(Value::Int(x.0 as i64)),
        Value::Relationship(x) => Ok(Value::Int(x.0 as i64)),
        other => Err(bad_arg(n, other)),
    }
}

fn f_elementid(run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::Node(x) => Ok(Value::from(run.element_id(true, x.0))),
        Value::Relationship(x) => Ok(Value::from(run.element_id(false, x.0))),
        other => Err(bad_arg(n, other)),
    }
}

fn f_labels(run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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
        other => Err(bad_arg(n, other).with_detail(Detail::InvalidArgumentValue)),
    }
}

fn f_type(run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::Relationship(x) => Ok(run
            .rel_type(*x)
            // A relationship the statement deleted keeps its type (Neo4j reads it).
            .or_else(|| run.sh.deleted.borrow().rels.get(x).cloned())
            .map(Value::String)
            .unwrap_or(Value::Null)),
        other => Err(bad_arg(n, other).with_detail(Detail::InvalidArgumentValue)),
    }
}

fn f_properties(run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        v @ (Value::Node(_) | Value::Relationship(_) | Value::Map(_)) => {
            Ok(Value::Map(run.all_properties(v)?))
        }
        other => Err(bad_arg(n, other)),
    }
}

fn f_keys(run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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

fn f_endpoint<const START: bool>(
    run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::Relationship(r) => Ok(run
            .rel_endpoints(*r)
            .map(|(a, b)| Value::Node(if START { a } else { b }))
            .unwrap_or(Value::Null)),
        other => Err(bad_arg(n, other)),
    }
}

fn f_path_elements<const NODES: bool>(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::Path(p) => Ok(Value::List(if NODES {
            p.nodes.iter().map(|x| Value::Node(*x)).collect()
        } else {
            p.rels.iter().map(|x| Value::Relationship(*x)).collect()
        })),
        other => Err(bad_arg(n, other)),
    }
}

fn f_length(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::Path(p) => Ok(Value::Int(p.rels.len() as i64)),
        other => Err(bad_arg(n, other)),
    }
}

fn f_normalize(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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
            .with_detail(Detail::InvalidArgumentValue)
        })?,
        Some(other) => return Err(bad_arg(n, other)),
    };
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::String(s) => Ok(Value::from(normalized(s, form))),
        other => Err(bad_arg(n, other)),
    }
}

fn f_exists(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    // The argument is a pattern (the validator refuses anything else), evaluated to
    // whether it has a match.
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Bool(b) => Ok(Value::Bool(*b)),
        other => Err(bad_arg(n, other)),
    }
}

// ---- lists ----
fn f_size(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::List(l) => Ok(Value::Int(l.len() as i64)),
        Value::String(s) => Ok(Value::Int(s.chars().count() as i64)),
        other => Err(bad_arg(n, other)),
    }
}

fn f_char_length(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::String(s) => Ok(Value::Int(s.chars().count() as i64)),
        other => Err(bad_arg(n, other)),
    }
}

fn f_head_or_last<const LAST: bool>(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::List(l) => Ok((if LAST { l.last() } else { l.first() })
            .cloned()
            .unwrap_or(Value::Null)),
        other => Err(bad_arg(n, other)),
    }
}

fn f_tail(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::List(l) => Ok(Value::List(l.iter().skip(1).cloned().collect())),
        other => Err(bad_arg(n, other)),
    }
}

fn f_reverse(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        Value::List(l) => Ok(Value::List(l.iter().rev().cloned().collect())),
        Value::String(s) => Ok(Value::from(s.chars().rev().collect::<String>())),
        other => Err(bad_arg(n, other)),
    }
}

fn f_range(run: &Runner, _n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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

fn f_coalesce(_run: &Runner, _n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    Ok(args
        .into_iter()
        .find(|v| !v.is_null())
        .unwrap_or(Value::Null))
}

fn f_isempty(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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
fn f_tostring<const OR_NULL: bool>(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        v @ (Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::String(_)) => {
            Ok(Value::from(to_string_plain(v)))
        }
        Value::Temporal(t) => Ok(Value::from(t.to_neo4j_string())),
        Value::Point(p) => Ok(Value::from(p.to_string())),
        _ if OR_NULL => Ok(Value::Null),
        other => Err(bad_arg(n, other).with_detail(Detail::InvalidArgumentValue)),
    }
}

fn f_tointeger<const OR_NULL: bool>(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
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
        _ if OR_NULL => Ok(Value::Null),
        other => Err(ExecError::type_error(format!(
            "Invalid input for function 'toInteger()': Expected a String, Float, Integer or Boolean, got: {}",
            super::exec::neo4j_value_text(other)
        ))
        .with_detail(Detail::InvalidArgumentValue)),
    }
}

fn f_tofloat<const OR_NULL: bool>(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
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
        _ if OR_NULL => Ok(Value::Null),
        other => Err(bad_arg(n, other).with_detail(Detail::InvalidArgumentValue)),
    }
}

/// `toBooleanList(…)` and the others: each element as `element` (the …OrNull conversion)
/// gives it.
fn f_to_typed_list(
    run: &Runner,
    n: &'static str,
    name: &QualifiedName,
    args: Args,
    element: Builtin,
) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        // Each element as the …OrNull conversion gives it: null where it cannot.
        Value::List(xs) => Ok(Value::List(
            xs.iter()
                .map(|x| element(run, n, name, smallvec::smallvec![x.clone()]))
                .collect::<Result<_>>()?,
        )),
        other => Err(bad_arg(n, other).with_detail(Detail::InvalidArgumentValue)),
    }
}

fn f_point(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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
                Err(e) => {
                    let given = match &e {
                        crate::spatial::SpatialError::WrongType { field, .. } => {
                            m.get(field.as_str())
                        }
                        _ => None,
                    };
                    Err(ExecError::point_refused(&e, given))
                }
            }
        }
        other => Err(bad_arg(n, other)),
    }
}

fn f_point_distance(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 2, 2)?;
    match (&args[0], &args[1]) {
        (Value::Point(a), Value::Point(b)) => Ok(a.distance(b).map_or(Value::Null, Value::Float)),
        (Value::Null, _) | (_, Value::Null) => Ok(Value::Null),
        (Value::Point(_), other) | (other, _) => Err(bad_arg(n, other)),
    }
}

fn f_point_withinbbox(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
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

fn f_nullif(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 2, 2)?;
    Ok(if args[0].equals(&args[1]) == Some(true) {
        Value::Null
    } else {
        args[0].clone()
    })
}

fn f_graph_names(
    run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 0, 0)?;
    super::graphs::graph_names(run.sh.databases)
}

fn f_graph_propertiesbyname(
    run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    super::graphs::graph_properties(run.sh.databases, &args[0])
}

// Refused before anything runs anywhere but in USE, which does not evaluate them.
fn f_graph_by(_run: &Runner, n: &'static str, _name: &QualifiedName, _args: Args) -> Result<Value> {
    Err(ExecError::compile(
        ErrorKind::SyntaxError,
        format!("`{n}` is only allowed at the first position of a USE clause."),
    ))
}

fn f_db_namefromelementid(
    run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null => Ok(Value::Null),
        // The database whose id the element id carries, among those served.
        Value::String(s) => Ok(super::graphs::database_of_element(run.sh.databases, s)
            .map_or(Value::Null, Value::from)),
        other => Err(bad_arg(n, other)),
    }
}

fn f_toboolean<const OR_NULL: bool>(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
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
        _ if OR_NULL => Ok(Value::Null),
        other => Err(bad_arg(n, other).with_detail(Detail::InvalidArgumentValue)),
    }
}

fn f_vector_similarity_cosine(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    super::vector::similarity_function(n, super::vector::Similarity::Cosine, &args)
}

fn f_vector_similarity_euclidean(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    super::vector::similarity_function(n, super::vector::Similarity::Euclidean, &args)
}

fn f_valuetype(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    Ok(Value::from(value_type_text(&args[0])))
}

// ---- strings ----
fn f_toupper(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    str1(n, &args, |s| s.to_uppercase())
}

fn f_tolower(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    str1(n, &args, |s| s.to_lowercase())
}

fn f_trim(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    trim(n, &args)
}

// btrim/ltrim/rtrim(input [, trimCharacterString]): white space, or any of the given
// characters, off both ends, the start or the end.
/// Which ends `f_trim_side` trims.
const BOTH_ENDS: u8 = 0;
const LEADING: u8 = 1;
const TRAILING: u8 = 2;

fn f_trim_side<const ENDS: u8>(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
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
    Ok(Value::from(match ENDS {
        BOTH_ENDS => s.trim_matches(strip),
        LEADING => s.trim_start_matches(strip),
        _ => s.trim_end_matches(strip),
    }))
}

fn f_replace(run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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

fn f_substring(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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

fn f_left_or_right<const LEFT: bool>(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 2, 2)?;
    let Some(s) = str_arg(n, &args[0])? else {
        return Ok(Value::Null);
    };
    let Some(k) = long_arg(n, &args[1])? else {
        return Ok(Value::Null);
    };
    if k < 0 {
        return Err(ExecError::execution_failed(if LEFT {
            "Cannot handle negative start index nor negative length"
        } else {
            "negative length"
        }));
    }
    let chars: Vec<char> = s.chars().collect();
    let k = (k as usize).min(chars.len());
    Ok(Value::from(if LEFT {
        chars[..k].iter().collect::<String>()
    } else {
        chars[chars.len() - k..].iter().collect::<String>()
    }))
}

fn f_split(run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 2, 2)?;
    if let Some(s) = str_arg(n, &args[0])? {
        // At most one part per character: bound the list before building it.
        let parts = match &args[1] {
            Value::String(d) if !d.is_empty() => s.matches(&**d).count() + 1,
            _ => s.chars().count() + 1,
        };
        run.sh
            .can_allocate(parts.saturating_mul(std::mem::size_of::<Value>() + 16) + s.len())?;
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
                    .flat_map(|p| p.split(d.as_str()).map(str::to_string).collect::<Vec<_>>())
                    .collect();
            }
            Ok(Value::List(parts.into_iter().map(Value::from).collect()))
        }
        (None, _) | (_, Value::Null) => Ok(Value::Null),
        (_, d @ (Value::Int(_) | Value::Float(_) | Value::Bool(_))) => {
            Err(super::eval::not_text_value(d, "STRING"))
        }
        (_, other) => Err(bad_arg(n, other)),
    }
}

// ---- math ----
fn f_abs(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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

fn f_sign(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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

/// The functions of one number (`sqrt(x)`, `sin(x)`, …): null for null, the float result for
/// an integer or a float ([`math1`]).
macro_rules! math_functions {
    ($($name:ident => $f:expr),* $(,)?) => {
        $(
            fn $name(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
                math1(n, &args, $f)
            }
        )*
    };
}

math_functions! {
    f_ceil => f64::ceil,
    f_floor => f64::floor,
    f_sqrt => f64::sqrt,
    f_exp => f64::exp,
    f_log => f64::ln,
    f_log10 => f64::log10,
    f_sin => f64::sin,
    f_cos => f64::cos,
    f_tan => f64::tan,
    f_cot => |x| 1.0 / x.tan(),
    f_asin => f64::asin,
    f_acos => f64::acos,
    f_atan => f64::atan,
    f_degrees => f64::to_degrees,
    f_radians => f64::to_radians,
    f_haversin => |x| (1.0 - x.cos()) / 2.0,
}

fn f_isnan(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    Ok(num_arg(n, &args[0])?
        .map(|x| Value::Bool(x.is_nan()))
        .unwrap_or(Value::Null))
}

fn f_atan2(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 2, 2)?;
    match (num_arg(n, &args[0])?, num_arg(n, &args[1])?) {
        (Some(y), Some(x)) => Ok(Value::Float(y.atan2(x))),
        _ => Ok(Value::Null),
    }
}

fn f_pi(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 0, 0)?;
    Ok(Value::Float(std::f64::consts::PI))
}

fn f_e(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 0, 0)?;
    Ok(Value::Float(std::f64::consts::E))
}

fn f_round(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
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

fn f_rand(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 0, 0)?;
    // Deterministic across runs: evaluation must be reproducible.
    Ok(Value::Float(0.5))
}

// Evaluated from the LOAD CSV row (see `eval::load_csv_context`); called on their own,
// outside LOAD CSV, they are null.
fn f_load_csv_context(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 0, 0)?;
    Ok(Value::Null)
}

fn f_randomuuid(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 0, 0)?;
    Ok(Value::from(random_uuid()))
}

fn f_timestamp(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 0, 0)?;
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    Ok(Value::Int(ms))
}

fn f_gds_version(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 0, 0)?;
    Ok(Value::from(super::gds::VERSION))
}

fn f_gds_util_asnode(
    run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    Ok(super::gds::as_node(run.graph(), &args[0]))
}

/// A temporal function's failure as Neo4j reports it: an `ArgumentError`, but for what
/// Neo4j's runtime fails on internally (a field of the wrong type, an unknown truncation
/// unit: `Neo.DatabaseError.Statement.ExecutionFailed`).
use super::temporal_values::Kind;
use crate::temporal::TemporalError;

fn temporal_error(e: TemporalError) -> ExecError {
    match e {
        TemporalError::UnknownUnit(unit) => {
            ExecError::execution_failed(&format!("Unsupported unit: {unit}"))
        }
        e @ (TemporalError::NotInteger { .. } | TemporalError::NotNumber { .. }) => {
            ExecError::execution_failed(&e.to_string())
        }
        e => ExecError::runtime(ErrorKind::ArgumentError, e.to_string())
            .with_detail(Detail::InvalidArgumentValue),
    }
}

/// `date(…)`, `localtime(…)`, `time(…)`, `localdatetime(…)`, `datetime(…)`: a temporal value
/// from a map, a text or another temporal value; now, without an argument. Now is the
/// statement's clock (`run.sh.now`: one value for the whole statement, as in Neo4j).
fn f_temporal(
    run: &Runner,
    _n: &'static str,
    _name: &QualifiedName,
    args: Args,
    kind: Kind,
) -> Result<Value> {
    temporal_construct(kind, args, run.sh.now)
}

fn temporal_construct(kind: Kind, args: Args, clock: chrono::NaiveDateTime) -> Result<Value> {
    let k = kind.name();
    arity(k, &args, 0, 1)?;
    let arg = match args.first() {
        Some(Value::Map(m)) => {
            let m = super::temporal_checks::check_map(k, m)?;
            // Only a time zone: now, in that zone.
            if let (1, Some(Value::String(z))) = (m.len(), m.get("timezone")) {
                return temporal_now(
                    k,
                    kind,
                    false,
                    smallvec::smallvec![Value::String(z.clone())],
                    clock,
                );
            }
            Some(Value::Map(m))
        }
        Some(v @ (Value::Null | Value::String(_) | Value::Temporal(_))) => Some(v.clone()),
        Some(other) => return Err(super::temporal_checks::bad_signature(k, other)),
        None => None,
    };
    match super::temporal_values::construct_at(kind, arg.as_ref(), clock) {
        Ok(t) => Ok(t.map(Value::from).unwrap_or(Value::Null)),
        Err(e) => {
            let zone = match &e {
                TemporalError::UnknownZone(z) => Some(z.clone()),
                _ => None,
            };
            // An offset beyond ±18 hours: java.time's words.
            let offset_hours = match &e {
                TemporalError::InvalidOffset(o) => o
                    .get(1..3)
                    .and_then(|h| h.parse::<u32>().ok())
                    .filter(|h| *h > 18),
                _ => None,
            };
            if let Some(h) = offset_hours {
                return Err(ExecError::runtime(
                    ErrorKind::ArgumentError,
                    format!("Zone offset hours not in valid range: value {h} is not in the range -18 to 18"),
                )
                .with_detail(Detail::InvalidArgumentValue));
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

/// `date.transaction(…)`, `datetime.statement(…)`, `time.realtime(…)`, …: now, as the
/// statement's clock has it (`realtime`: the real time), in a time zone when one is given.
fn f_temporal_now(
    run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
    kind: Kind,
    realtime: bool,
) -> Result<Value> {
    temporal_now(n, kind, realtime, args, run.sh.now)
}

fn temporal_now(
    n: &str,
    kind: Kind,
    realtime: bool,
    args: Args,
    clock: chrono::NaiveDateTime,
) -> Result<Value> {
    arity(n, &args, 0, 1)?;
    let at = if realtime {
        crate::temporal::now_utc()
    } else {
        clock
    };
    let k = kind.name();
    let now = super::temporal_values::construct_at(kind, None, at).map_err(temporal_error)?;
    match (now, args.first()) {
        (Some(_), Some(Value::String(z))) => {
            // The instant in the zone, then the kind's part of it (the local time of
            // `localtime.statement('+01:00')` is the zone's).
            let utc = super::temporal_values::construct_at(Kind::DateTime, None, at)
                .map_err(temporal_error)?;
            let mut m = std::collections::BTreeMap::new();
            m.insert(
                std::sync::Arc::from("datetime"),
                utc.map(Value::from).unwrap_or(Value::Null),
            );
            m.insert(std::sync::Arc::from("timezone"), Value::String(z.clone()));
            let zoned = super::temporal_values::construct(Kind::DateTime, Some(&Value::Map(m)))
                .map_err(|e| match e {
                    TemporalError::UnknownZone(_) => {
                        super::temporal_checks::text_error(k, z, Some(z))
                    }
                    e => temporal_error(e),
                })?
                .map(Value::from)
                .unwrap_or(Value::Null);
            Ok(super::temporal_values::construct(kind, Some(&zoned))
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

/// `date.truncate(unit, value[, overrides])` and the other kinds' `truncate`.
fn f_temporal_truncate(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
    kind: Kind,
) -> Result<Value> {
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
    super::temporal_values::truncate(kind, &unit, &t, ov)
        .map(Value::from)
        .map_err(temporal_error)
}

/// `datetime.fromEpoch(seconds[, nanoseconds])` and `datetime.fromEpochMillis(millis)`.
fn f_datetime_fromepoch<const MILLIS: bool>(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
) -> Result<Value> {
    arity(n, &args, 1, 2)?;
    let mut m = std::collections::BTreeMap::new();
    let key = if MILLIS {
        "epochMillis"
    } else {
        "epochSeconds"
    };
    m.insert(std::sync::Arc::from(key), args[0].clone());
    if let Some(ns) = args.get(1) {
        m.insert(std::sync::Arc::from("nanosecond"), ns.clone());
    }
    Ok(
        super::temporal_values::construct(Kind::DateTime, Some(&Value::Map(m)))
            .map_err(temporal_error)?
            .map(Value::from)
            .unwrap_or(Value::Null),
    )
}

/// `duration(…)`: from a map, a text or a duration.
fn f_duration(_run: &Runner, n: &'static str, _name: &QualifiedName, args: Args) -> Result<Value> {
    arity(n, &args, 1, 1)?;
    match &args[0] {
        Value::Null | Value::String(_) | Value::Map(_) | Value::Temporal(_) => {}
        other => return Err(super::temporal_checks::bad_signature("duration", other)),
    }
    use super::temporal_values::DurationError;
    Ok(super::temporal_values::duration_from(&args[0])
        .map_err(|e| match (&args[0], e) {
            (Value::String(text), _) => super::temporal_checks::text_error("duration", text, None),
            (_, e @ DurationError::Overflow { .. }) => ExecError::duration_overflow(&e.to_string()),
            (_, DurationError::Invalid(e)) => temporal_error(e),
        })?
        .map(|d| Value::from(crate::temporal::Temporal::Duration(d)))
        .unwrap_or(Value::Null))
}

/// `duration.between(a, b)`, `duration.inMonths`, `duration.inDays`, `duration.inSeconds`.
fn f_duration_between(
    _run: &Runner,
    n: &'static str,
    _name: &QualifiedName,
    args: Args,
    unit: &'static str,
) -> Result<Value> {
    arity(n, &args, 2, 2)?;
    let (a, b) = match (&args[0], &args[1]) {
        (Value::Null, _) | (_, Value::Null) => return Ok(Value::Null),
        (Value::Temporal(a), Value::Temporal(b)) => (a, b),
        (a, _) => return Err(bad_arg(n, a)),
    };
    crate::temporal::between(a, b, unit)
        .map(|d| Value::from(crate::temporal::Temporal::Duration(d)))
        .ok_or_else(|| ExecError::type_error(format!("{n}() needs two dates or times")))
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
            .with_detail(Detail::InvalidArgumentValue))
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
