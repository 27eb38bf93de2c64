//! Result values as the two Neo4j MCP servers put them in their replies: each reads records
//! with a Neo4j driver and hands them to its language's JSON encoder, so what an agent sees is
//! the driver's view of a value written the way that encoder writes it.
//!
//! - mcp-neo4j-cypher (Python): `Record.data()` — a node is its property map, a relationship
//!   `(start properties, type, end properties)`, a path the alternation of node maps and
//!   relationship types, a point the tuple of its coordinates, a duration the tuple
//!   `(months, days, seconds, nanoseconds)`, other temporals their `str()` — then
//!   `json.dumps(default=str)` ([`python_dumps`]: ASCII only, `", "` and `": "`, floats as
//!   `repr`). Maps keep the order the server sent them in (Neo4j's hash order).
//! - The official server (Go): `record.AsMap()` then `json.MarshalIndent(…, "", "  ")`
//!   ([`go_json`]): nodes, relationships, paths, points and durations are the Go driver's
//!   structs (`Id`, `ElementId`, `Labels`, `Props`, …, in declaration order), maps have sorted
//!   keys, dates and times without an offset have no exported field (`{}`), a date-time is
//!   RFC 3339 text; strings are HTML-safe; a NaN or an infinity fails the whole reply.

use crate::temporal::Temporal;
use crate::value::{Entities, Value};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;

/// A value as a driver hands it to a JSON encoder: maps keep the order they are written in.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Dv {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Dv>),
    /// A Python tuple (a relationship, a point, a duration): written as a list, but left as
    /// it is by mcp-neo4j-cypher's sanitizer, which looks into dicts and lists only.
    Tuple(Vec<Dv>),
    Map(Vec<(String, Dv)>),
}

/// Map entries in Neo4j's order (as the server sends them over Bolt).
fn neo4j_ordered(m: &BTreeMap<Arc<str>, Value>) -> Vec<(&Arc<str>, &Value)> {
    crate::value::java_hash_order(m.iter())
}

// ---------------------------------------------------------------------------------------------
// The Python driver's view (mcp-neo4j-cypher).

fn python_props(m: &BTreeMap<Arc<str>, Value>, e: &dyn Entities, known: &Known) -> Dv {
    Dv::Map(
        neo4j_ordered(m)
            .into_iter()
            .map(|(k, v)| (k.to_string(), python_view_in(v, e, known)))
            .collect(),
    )
}

/// The nodes the Python driver has read in full so far: a relationship's end nodes are only
/// ids on the wire, and the driver fills in their properties from nodes of the result it has
/// already read (its record batches of 1000 are read whole before they are handed out).
pub(crate) enum Known<'a> {
    All,
    Only(&'a std::collections::HashSet<crate::value::NodeId>),
}

/// The nodes a value carries in full (as a node, or in a path).
pub(crate) fn full_nodes(v: &Value, out: &mut std::collections::HashSet<crate::value::NodeId>) {
    match v {
        Value::Node(n) => {
            out.insert(*n);
        }
        Value::Path(p) => out.extend(p.nodes.iter().copied()),
        Value::List(items) => items.iter().for_each(|x| full_nodes(x, out)),
        Value::Map(m) => m.values().for_each(|x| full_nodes(x, out)),
        _ => {}
    }
}

/// A value as the Python driver's `Record.data()` gives it, with `json.dumps(default=str)`'s
/// `str()` already applied to what JSON has no form for (temporals, byte arrays).
pub(crate) fn python_view(v: &Value, e: &dyn Entities) -> Dv {
    python_view_in(v, e, &Known::All)
}

/// [`python_view`] of a value in a result whose fully read nodes are `known`.
pub(crate) fn python_view_in(v: &Value, e: &dyn Entities, known: &Known) -> Dv {
    let python_view = |v: &Value, e: &dyn Entities| python_view_in(v, e, known);
    let python_props = |m: &BTreeMap<Arc<str>, Value>, e: &dyn Entities| python_props(m, e, known);
    let end_props = |n: crate::value::NodeId| match known {
        Known::Only(set) if !set.contains(&n) => Dv::Map(Vec::new()),
        _ => python_props(&e.node_props(n), e),
    };
    match v {
        Value::Null => Dv::Null,
        Value::Bool(b) => Dv::Bool(*b),
        Value::Int(i) => Dv::Int(*i),
        Value::Float(f) => Dv::Float(*f),
        Value::String(s) => Dv::Str(s.to_string()),
        Value::Bytes(b) => Dv::Str(python_bytes_repr(b)),
        Value::List(items) => Dv::List(items.iter().map(|x| python_view(x, e)).collect()),
        Value::Map(m) => python_props(m, e),
        Value::Node(n) => python_props(&e.node_props(*n), e),
        Value::Relationship(r) => {
            let (a, b) = match e.rel_endpoints(*r) {
                Some((a, b)) => (end_props(a), end_props(b)),
                None => (Dv::Map(Vec::new()), Dv::Map(Vec::new())),
            };
            let ty = e.rel_type(*r).map(|t| t.to_string()).unwrap_or_default();
            Dv::Tuple(vec![a, Dv::Str(ty), b])
        }
        Value::Path(p) => {
            let mut out = Vec::new();
            for (i, n) in p.nodes.iter().enumerate() {
                out.push(python_props(&e.node_props(*n), e));
                if let Some(r) = p.rels.get(i) {
                    out.push(Dv::Str(
                        e.rel_type(*r).map(|t| t.to_string()).unwrap_or_default(),
                    ));
                }
            }
            Dv::List(out)
        }
        Value::Point(p) => Dv::Tuple(p.coordinates().into_iter().map(Dv::Float).collect()),
        Value::Temporal(t) => match &**t {
            Temporal::Duration(d) => {
                // The driver's Duration splits its nanoseconds symmetrically: seconds and
                // nanoseconds carry the same sign.
                let total = i128::from(d.seconds) * 1_000_000_000 + i128::from(d.nanos);
                let (s, ns) = (total / 1_000_000_000, total % 1_000_000_000);
                Dv::Tuple(vec![
                    Dv::Int(d.months),
                    Dv::Int(d.days),
                    Dv::Int(s as i64),
                    Dv::Int(ns as i64),
                ])
            }
            other => Dv::Str(python_temporal_str(other)),
        },
    }
}

fn python_date(d: &chrono::NaiveDate) -> String {
    use chrono::Datelike;
    format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day())
}

fn python_time(t: &chrono::NaiveTime) -> String {
    use chrono::Timelike;
    format!(
        "{:02}:{:02}:{:02}.{:09}",
        t.hour(),
        t.minute(),
        t.second(),
        t.nanosecond().min(999_999_999)
    )
}

/// `+HH:MM` as the driver's `Time.iso_format` writes an offset (whole minutes).
fn python_offset(seconds: i32) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let minutes = (seconds.unsigned_abs() / 60) as i64;
    format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60)
}

/// `str()` of the driver's temporal values (its `iso_format`: nanoseconds always written).
fn python_temporal_str(t: &Temporal) -> String {
    match t {
        Temporal::Date(d) => python_date(d),
        Temporal::LocalTime(t) => python_time(t),
        Temporal::Time(t, off) => format!("{}{}", python_time(t), python_offset(*off)),
        Temporal::LocalDateTime(dt) => {
            format!("{}T{}", python_date(&dt.date()), python_time(&dt.time()))
        }
        Temporal::DateTime(dt, off, None) => format!(
            "{}T{}{}",
            python_date(&dt.date()),
            python_time(&dt.time()),
            python_offset(*off)
        ),
        // In a named zone the driver writes the offset itself, with Python's floor division:
        // -03:30 comes out as `-04:30`.
        Temporal::DateTime(dt, off, Some(_)) => {
            let minutes = i64::from(*off).div_euclid(60);
            format!(
                "{}T{}{:+03}:{:02}",
                python_date(&dt.date()),
                python_time(&dt.time()),
                minutes.div_euclid(60),
                minutes.rem_euclid(60)
            )
        }
        Temporal::Duration(d) => format!("{d:?}"),
    }
}

/// Python's `repr()` of a `bytes` value (`b'\x01a'`), which `json.dumps(default=str)` writes.
fn python_bytes_repr(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') {
        '"'
    } else {
        '\''
    };
    let mut s = format!("b{quote}");
    for &c in b {
        match c {
            b'\\' => s.push_str("\\\\"),
            b'\t' => s.push_str("\\t"),
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            c if c == quote as u8 => {
                s.push('\\');
                s.push(c as char);
            }
            0x20..=0x7e => s.push(c as char),
            c => {
                let _ = write!(s, "\\x{c:02x}");
            }
        }
    }
    s.push(quote);
    s
}

/// mcp-neo4j-cypher's `_value_sanitize`: map entries whose value is a list of 128 or more
/// items are left out, and so are such lists and nulls inside lists; `None` for such a list
/// itself.
pub(crate) fn sanitize(v: Dv) -> Option<Dv> {
    match v {
        // A map keeps its nulls; only its long lists go.
        Dv::Map(m) => Some(Dv::Map(
            m.into_iter()
                .filter_map(|(k, v)| match v {
                    Dv::Null => Some((k, Dv::Null)),
                    v => sanitize(v).map(|v| (k, v)),
                })
                .collect(),
        )),
        Dv::List(items) if items.len() >= 128 => None,
        Dv::List(items) => Some(Dv::List(items.into_iter().filter_map(sanitize).collect())),
        Dv::Null => None,
        other => Some(other),
    }
}

/// Python's `repr()` of a float, as `json.dumps` writes it: the shortest text that reads back
/// the same, in exponent form below 1e-4 and from 1e16 (`1e+16`, `1.5e-05`), `NaN`,
/// `Infinity`.
pub(crate) fn python_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // `{:e}` gives the shortest digits: `1.5e-5`, `-1e16`.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if (-4..16).contains(&exp) {
        if exp < 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
            out.push_str(&digits);
        } else {
            let point = exp as usize + 1;
            if digits.len() <= point {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', point - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..point]);
                out.push('.');
                out.push_str(&digits[point..]);
            }
        }
    } else {
        out.push_str(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exp.unsigned_abs());
    }
    out
}

fn python_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// Writes `open`, the items separated by `, ` (each by `item`), `close`.
fn write_seq<T>(
    out: &mut String,
    open: char,
    close: char,
    items: &[T],
    mut item: impl FnMut(&T, &mut String),
) {
    out.push(open);
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item(x, out);
    }
    out.push(close);
}

fn python_write(v: &Dv, out: &mut String) {
    match v {
        Dv::Null => out.push_str("null"),
        Dv::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Dv::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Dv::Float(f) => out.push_str(&python_float(*f)),
        Dv::Str(s) => python_str(s, out),
        Dv::List(items) | Dv::Tuple(items) => write_seq(out, '[', ']', items, python_write),
        Dv::Map(m) => write_seq(out, '{', '}', m, |(k, x), out| {
            python_str(k, out);
            out.push_str(": ");
            python_write(x, out);
        }),
    }
}

/// `json.dumps(v)` as Python writes it.
pub(crate) fn python_dumps(v: &Dv) -> String {
    let mut out = String::new();
    python_write(v, &mut out);
    out
}

/// Python's `repr()` of the value `json.loads` would make of `v` (`{'a': 1, 'b': True}`), as
/// mcp-neo4j-cypher writes a query's parameters into its error text.
pub(crate) fn python_repr(v: &Dv) -> String {
    let mut out = String::new();
    python_repr_into(v, &mut out);
    out
}

fn python_repr_str(s: &str, out: &mut String) {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

fn python_repr_into(v: &Dv, out: &mut String) {
    match v {
        Dv::Null => out.push_str("None"),
        Dv::Bool(b) => out.push_str(if *b { "True" } else { "False" }),
        Dv::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Dv::Float(f) if f.is_nan() => out.push_str("nan"),
        Dv::Float(f) if f.is_infinite() => out.push_str(if *f > 0.0 { "inf" } else { "-inf" }),
        Dv::Float(f) => out.push_str(&python_float(*f)),
        Dv::Str(s) => python_repr_str(s, out),
        // A tuple of one is written `(x,)`.
        Dv::Tuple(items) if items.len() == 1 => {
            out.push('(');
            python_repr_into(&items[0], out);
            out.push_str(",)");
        }
        Dv::Tuple(items) => write_seq(out, '(', ')', items, python_repr_into),
        Dv::List(items) => write_seq(out, '[', ']', items, python_repr_into),
        Dv::Map(m) => write_seq(out, '{', '}', m, |(k, x), out| {
            python_repr_str(k, out);
            out.push_str(": ");
            python_repr_into(x, out);
        }),
    }
}

/// A JSON value (a tool call's arguments) as a driver-view value, objects in their order.
pub(crate) fn from_json(j: &serde_json::Value) -> Dv {
    use serde_json::Value as J;
    match j {
        J::Null => Dv::Null,
        J::Bool(b) => Dv::Bool(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Dv::Int(i),
            None => Dv::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Dv::Str(s.clone()),
        J::Array(a) => Dv::List(a.iter().map(from_json).collect()),
        J::Object(m) => Dv::Map(m.iter().map(|(k, v)| (k.clone(), from_json(v))).collect()),
    }
}

// ---------------------------------------------------------------------------------------------
// The Go driver's view (the official server).

fn go_props(m: &BTreeMap<Arc<str>, Value>, e: &dyn Entities) -> Result<Dv, GoJsonError> {
    // Go writes a map's keys sorted, as the BTreeMap holds them.
    Ok(Dv::Map(
        m.iter()
            .map(|(k, v)| Ok((k.to_string(), go_view(v, e)?)))
            .collect::<Result<_, GoJsonError>>()?,
    ))
}

/// Why Go's encoder refused a value: the message `json.Marshal` returns.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct GoJsonError(pub String);

fn go_node(n: crate::value::NodeId, e: &dyn Entities) -> Result<Dv, GoJsonError> {
    Ok(Dv::Map(vec![
        ("Id".into(), Dv::Int(n.0 as i64)),
        ("ElementId".into(), Dv::Str(e.element_id(true, n.0))),
        (
            "Labels".into(),
            Dv::List(
                e.node_labels(n)
                    .iter()
                    .map(|l| Dv::Str(l.to_string()))
                    .collect(),
            ),
        ),
        ("Props".into(), go_props(&e.node_props(n), e)?),
    ]))
}

fn go_rel(r: crate::value::RelId, e: &dyn Entities) -> Result<Dv, GoJsonError> {
    let zero = crate::value::NodeId(0);
    let (a, b) = e.rel_endpoints(r).unwrap_or((zero, zero));
    Ok(Dv::Map(vec![
        ("Id".into(), Dv::Int(r.0 as i64)),
        ("ElementId".into(), Dv::Str(e.element_id(false, r.0))),
        ("StartId".into(), Dv::Int(a.0 as i64)),
        ("StartElementId".into(), Dv::Str(e.element_id(true, a.0))),
        ("EndId".into(), Dv::Int(b.0 as i64)),
        ("EndElementId".into(), Dv::Str(e.element_id(true, b.0))),
        (
            "Type".into(),
            Dv::Str(e.rel_type(r).map(|t| t.to_string()).unwrap_or_default()),
        ),
        ("Props".into(), go_props(&e.rel_props(r), e)?),
    ]))
}

/// A value as the Go driver's `record.AsMap()` holds it, ready for `encoding/json`.
pub(crate) fn go_view(v: &Value, e: &dyn Entities) -> Result<Dv, GoJsonError> {
    Ok(match v {
        Value::Null => Dv::Null,
        Value::Bool(b) => Dv::Bool(*b),
        Value::Int(i) => Dv::Int(*i),
        Value::Float(f) if !f.is_finite() => {
            return Err(GoJsonError(format!(
                "json: unsupported value: {}",
                if f.is_nan() {
                    "NaN"
                } else if *f > 0.0 {
                    "+Inf"
                } else {
                    "-Inf"
                }
            )))
        }
        Value::Float(f) => Dv::Float(*f),
        Value::String(s) => Dv::Str(s.to_string()),
        // A []byte is written in base64.
        Value::Bytes(b) => Dv::Str(base64_std(b)),
        Value::List(items) => Dv::List(
            items
                .iter()
                .map(|x| go_view(x, e))
                .collect::<Result<_, _>>()?,
        ),
        Value::Map(m) => go_props(m, e)?,
        Value::Node(n) => go_node(*n, e)?,
        Value::Relationship(r) => go_rel(*r, e)?,
        Value::Path(p) => Dv::Map(vec![
            (
                "Nodes".into(),
                Dv::List(
                    p.nodes
                        .iter()
                        .map(|n| go_node(*n, e))
                        .collect::<Result<_, _>>()?,
                ),
            ),
            (
                "Relationships".into(),
                Dv::List(
                    p.rels
                        .iter()
                        .map(|r| go_rel(*r, e))
                        .collect::<Result<_, _>>()?,
                ),
            ),
        ]),
        Value::Point(p) => {
            let mut m = vec![("X".into(), Dv::Float(p.x)), ("Y".into(), Dv::Float(p.y))];
            if let Some(z) = p.z {
                m.push(("Z".into(), Dv::Float(z)));
            }
            m.push(("SpatialRefId".into(), Dv::Int(p.crs.srid())));
            Dv::Map(m)
        }
        Value::Temporal(t) => match &**t {
            Temporal::Duration(d) => Dv::Map(vec![
                ("Months".into(), Dv::Int(d.months)),
                ("Days".into(), Dv::Int(d.days)),
                ("Seconds".into(), Dv::Int(d.seconds)),
                ("Nanos".into(), Dv::Int(d.nanos)),
            ]),
            Temporal::DateTime(dt, off, _) => Dv::Str(go_rfc3339(dt, *off)?),
            // dbtype.Date, LocalTime, Time and LocalDateTime are named time.Time types: no
            // exported field, no MarshalJSON of their own.
            _ => Dv::Map(Vec::new()),
        },
    })
}

/// A `time.Time` as its `MarshalJSON` writes it: RFC 3339 with the fraction's trailing zeros
/// cut, `Z` for a zero offset.
fn go_rfc3339(dt: &chrono::NaiveDateTime, offset: i32) -> Result<String, GoJsonError> {
    use chrono::{Datelike, Timelike};
    if !(0..=9999).contains(&dt.year()) {
        return Err(GoJsonError(
            "json: error calling MarshalJSON for type time.Time: Time.MarshalJSON: year outside of range [0,9999]".into(),
        ));
    }
    let mut s = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        dt.year(),
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute(),
        dt.second()
    );
    let nanos = dt.nanosecond().min(999_999_999);
    if nanos > 0 {
        let frac = format!("{nanos:09}");
        s.push('.');
        s.push_str(frac.trim_end_matches('0'));
    }
    if offset == 0 {
        s.push('Z');
    } else {
        let sign = if offset < 0 { '-' } else { '+' };
        let minutes = offset.unsigned_abs() / 60;
        let _ = write!(s, "{sign}{:02}:{:02}", minutes / 60, minutes % 60);
    }
    Ok(s)
}

fn base64_std(b: &[u8]) -> String {
    crate::engine::base64_encode(b, crate::engine::B64, true)
}

/// A float as Go's `encoding/json` writes it: the shortest text, in exponent form below
/// 1e-6 and from 1e21 (`1e+21`, `1.5e-7`), `-0` for negative zero.
pub(crate) fn go_float(f: f64) -> String {
    let a = f.abs();
    if a != 0.0 && !(1e-6..1e21).contains(&a) {
        let sci = format!("{f:e}");
        let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        // strconv writes at least two exponent digits; encoding/json cuts `e-07` to `e-7`.
        if exp < 0 {
            format!("{mantissa}e{sign}{}", exp.unsigned_abs())
        } else {
            format!("{mantissa}e{sign}{:02}", exp)
        }
    } else {
        // Rust's shortest fixed form is strconv's 'f' with precision -1.
        format!("{f}")
    }
}

fn go_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn go_write(v: &Dv, indent: Option<&str>, depth: usize, out: &mut String) {
    let newline = |out: &mut String, depth: usize| {
        if let Some(unit) = indent {
            out.push('\n');
            for _ in 0..depth {
                out.push_str(unit);
            }
        }
    };
    match v {
        Dv::Null => out.push_str("null"),
        Dv::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Dv::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Dv::Float(f) => out.push_str(&go_float(*f)),
        Dv::Str(s) => go_str(s, out),
        Dv::List(items) | Dv::Tuple(items) if items.is_empty() => out.push_str("[]"),
        Dv::List(items) | Dv::Tuple(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                go_write(x, indent, depth + 1, out);
            }
            newline(out, depth);
            out.push(']');
        }
        Dv::Map(m) if m.is_empty() => out.push_str("{}"),
        Dv::Map(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                go_str(k, out);
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                go_write(x, indent, depth + 1, out);
            }
            newline(out, depth);
            out.push('}');
        }
    }
}

/// `json.MarshalIndent(v, "", "  ")` (`indent`) or `json.Marshal(v)` as Go writes them.
pub(crate) fn go_json(v: &Dv, indent: bool) -> String {
    let mut out = String::new();
    go_write(v, indent.then_some("  "), 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_as_python_writes_them() {
        for (f, s) in [
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e20, "1e+20"),
            (1e16, "1e+16"),
            (9999999999999998.0, "9999999999999998.0"),
            (123456.5, "123456.5"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-1.5e-7, "-1.5e-07"),
            (2.5e300, "2.5e+300"),
            (f64::INFINITY, "Infinity"),
            (f64::NAN, "NaN"),
        ] {
            assert_eq!(python_float(f), s, "{f}");
        }
    }

    #[test]
    fn floats_as_go_writes_them() {
        for (f, s) in [
            (1.0, "1"),
            (-0.0, "-0"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (2.5e300, "2.5e+300"),
        ] {
            assert_eq!(go_float(f), s, "{f}");
        }
    }

    #[test]
    fn strings_as_each_encoder_escapes_them() {
        let v = Dv::Str("a\"b\\c\u{e9}\u{2603}<>&\u{1}\u{7f}\u{1f600}\n".into());
        assert_eq!(
            python_dumps(&v),
            r#""a\"b\\c\u00e9\u2603<>&\u0001\u007f\ud83d\ude00\n""#
        );
        assert_eq!(
            go_json(&v, false),
            "\"a\\\"b\\\\c\u{e9}\u{2603}\\u003c\\u003e\\u0026\\u0001\u{7f}\u{1f600}\\n\""
        );
    }

    #[test]
    fn go_indents_as_marshal_indent_does() {
        let v = Dv::List(vec![Dv::Map(vec![
            ("a".into(), Dv::List(vec![Dv::Int(1), Dv::Float(2.0)])),
            ("b".into(), Dv::Map(Vec::new())),
            ("c".into(), Dv::List(Vec::new())),
        ])]);
        assert_eq!(
            go_json(&v, true),
            "[\n  {\n    \"a\": [\n      1,\n      2\n    ],\n    \"b\": {},\n    \"c\": []\n  }\n]"
        );
        assert_eq!(go_json(&v, false), r#"[{"a":[1,2],"b":{},"c":[]}]"#);
    }

    #[test]
    fn python_repr_of_parameters() {
        let v = Dv::Map(vec![
            ("x".into(), Dv::Str("it's".into())),
            (
                "y".into(),
                Dv::List(vec![Dv::Null, Dv::Bool(true), Dv::Float(1.0)]),
            ),
        ]);
        assert_eq!(python_repr(&v), r#"{'x': "it's", 'y': [None, True, 1.0]}"#);
    }

    #[test]
    fn sanitize_drops_long_lists() {
        let long = Dv::List(vec![Dv::Int(0); 128]);
        let v = Dv::Map(vec![
            ("e".into(), long.clone()),
            ("l".into(), Dv::List(vec![long, Dv::Int(1), Dv::Null])),
            ("n".into(), Dv::Null),
        ]);
        assert_eq!(
            sanitize(v),
            Some(Dv::Map(vec![
                ("l".into(), Dv::List(vec![Dv::Int(1)])),
                ("n".into(), Dv::Null)
            ]))
        );
    }

    #[test]
    fn base64_as_go_writes_byte_slices() {
        assert_eq!(base64_std(b""), "");
        assert_eq!(base64_std(b"f"), "Zg==");
        assert_eq!(base64_std(b"fo"), "Zm8=");
        assert_eq!(base64_std(b"foobar"), "Zm9vYmFy");
    }
}
