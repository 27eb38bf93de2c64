//! Neo4j 5.26's checks of a temporal constructor's argument, with its error codes and words:
//! the fields of a map (`date({year: 2020, foo: 1})`: "No such field: foo"), which a kind
//! takes, how they combine and which need which, the ranges of the common fields, and a
//! string that is not a temporal of the kind (`date('2020-13-01')`: a `SyntaxError`, as Neo4j
//! reports a text it cannot parse).
//!
//! Read off the oracle (`scripts/neo4j-oracle`); `tests/neo4j_runtime_values.rs` holds its
//! answers.

use super::error::{ErrorKind, ExecError, GqlStatus};
use crate::engine::Detail;
use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The fields Neo4j's temporal builders know, as it names them (matched in any case).
const FIELDS: &[&str] = &[
    "year",
    "month",
    "day",
    "week",
    "dayOfWeek",
    "quarter",
    "dayOfQuarter",
    "ordinalDay",
    "weekYear",
    "hour",
    "minute",
    "second",
    "millisecond",
    "microsecond",
    "nanosecond",
    "timezone",
    "date",
    "time",
    "datetime",
    "epochSeconds",
    "epochMillis",
];

// The date and time fields, as the constructors read them.
use super::temporal_values::{DATE_KEYS as DATE_FIELDS, TIME_KEYS as TIME_FIELDS};

/// Whether `kind` (`date`, `localtime`, `time`, `localdatetime`, `datetime`) takes `field`.
fn supports(kind: &str, field: &str) -> bool {
    let date = DATE_FIELDS.contains(&field) || field == "date";
    let time = TIME_FIELDS.contains(&field) || field == "time";
    match field {
        "timezone" => true,
        "weekYear" => false,
        "epochSeconds" | "epochMillis" => kind == "datetime",
        "datetime" => matches!(kind, "localdatetime" | "datetime"),
        _ => match kind {
            "date" => date,
            "localtime" | "time" => time,
            _ => date || time,
        },
    }
}

/// The date style a field sets, as Neo4j's builder names it in "Cannot assign month to week
/// date.".
fn style(field: &str) -> Option<&'static str> {
    Some(match field {
        "month" | "day" => "calendar",
        "week" | "dayOfWeek" => "week",
        "quarter" | "dayOfQuarter" => "quarter",
        "ordinalDay" => "ordinal",
        _ => return None,
    })
}

fn argument(message: impl Into<String>) -> ExecError {
    ExecError::runtime(ErrorKind::ArgumentError, message).with_detail(Detail::InvalidArgumentValue)
}

/// [`argument`] with Neo4j's GQL status for a map a temporal builder cannot take: `22007`
/// caused by `22N12`, naming the field (or, re-assigned, the value) it cannot process.
fn unprocessable(message: impl Into<String>, arg: &str) -> ExecError {
    argument(message).with_gql(GqlStatus::invalid_temporal_format(GqlStatus::cause(
        "22N12",
        "error: data exception - invalid date, time, or datetime format",
        format!("Invalid argument: cannot process '{arg}'."),
    )))
}

fn type_error(message: impl Into<String>) -> ExecError {
    ExecError::runtime(ErrorKind::TypeError, message).with_detail(Detail::InvalidArgumentType)
}

/// Checks `kind(map)`'s fields as Neo4j's builders do, in the order Neo4j reads them (its
/// map's), and returns the map with each key as Neo4j names the field (`YEAR` → `year`).
pub(crate) fn check_map(
    kind: &str,
    m: &BTreeMap<Arc<str>, Value>,
) -> Result<BTreeMap<Arc<str>, Value>, ExecError> {
    if m.is_empty() {
        return Err(argument("At least one temporal unit must be specified."));
    }
    let mut out: BTreeMap<Arc<str>, Value> = BTreeMap::new();
    let mut date_style: Option<&str> = None;
    for (key, v) in crate::value::java_hash_order(m.iter()) {
        let Some(field) = FIELDS.iter().find(|f| f.eq_ignore_ascii_case(key)) else {
            return Err(unprocessable(format!("No such field: {key}"), key));
        };
        if out.contains_key(*field) {
            // (Neo4j names the value assigned again; for a time zone, the one assigned first.)
            let named = match *field {
                "timezone" => out.get(*field).unwrap_or(v),
                _ => v,
            };
            let value = crate::value::gql_value_text(named);
            return Err(unprocessable(
                if *field == "timezone" {
                    "Cannot assign timezone twice.".to_string()
                } else {
                    format!("cannot re-assign {field}")
                },
                &value,
            ));
        }
        if !supports(kind, field) {
            return Err(type_error(format!("Not supported: {field}")));
        }
        if let Some(s) = style(field) {
            match date_style {
                Some(have) if have != s => {
                    return Err(type_error(format!("Cannot assign {field} to {have} date.")))
                }
                _ => date_style = Some(s),
            }
        }
        check_range(field, v)?;
        out.insert(Arc::from(*field), v.clone());
    }
    let has = |f: &str| out.get(f).is_some_and(|v| !v.is_null());
    let local = matches!(kind, "date" | "localtime" | "localdatetime");
    if has("timezone") && local && out.len() > 1 {
        return Err(type_error(
            "Cannot assign time zone if also assigning other fields.",
        ));
    }
    let based = has("date") || has("datetime") || has("epochSeconds") || has("epochMillis");
    let any_date = DATE_FIELDS.iter().any(|f| has(f));
    if any_date && !based && !has("year") {
        return Err(unprocessable("year must be specified", "year"));
    }
    for (needs, without) in [
        ("day", "month"),
        ("dayOfWeek", "week"),
        ("dayOfQuarter", "quarter"),
    ] {
        if has(needs) && !has(without) && !based {
            return Err(unprocessable(
                format!("{needs} cannot be specified without {without}"),
                needs,
            ));
        }
    }
    let time_based = has("time") || has("datetime") || based;
    let any_time = TIME_FIELDS.iter().any(|f| has(f)) || has("time");
    if any_time && any_date && !based && matches!(kind, "localdatetime" | "datetime") {
        // A time on a date given field by field needs the whole date.
        let missing = match date_style {
            None => Some("month"),
            Some("calendar") if !has("day") => Some("day"),
            Some("week") if !has("dayOfWeek") => Some("dayOfWeek"),
            Some("quarter") if !has("dayOfQuarter") => Some("dayOfQuarter"),
            _ => None,
        };
        if let Some(f) = missing {
            return Err(unprocessable(format!("{f} must be specified"), f));
        }
    }
    if !time_based {
        let sub = ["millisecond", "microsecond", "nanosecond"]
            .iter()
            .any(|f| has(f));
        if (has("minute") || has("second") || sub) && !has("hour") {
            return Err(unprocessable("hour must be specified", "hour"));
        }
        if has("second") && !has("minute") {
            return Err(unprocessable(
                "second cannot be specified without minute",
                "second",
            ));
        }
        if sub && !has("minute") {
            return Err(unprocessable(
                "subsecond cannot be specified without minute",
                "subsecond",
            ));
        }
        if sub && !has("second") {
            return Err(unprocessable(
                "subsecond cannot be specified without second",
                "subsecond",
            ));
        }
    }
    Ok(out)
}

/// Java's range checks of the common fields (`Invalid value for MonthOfYear (valid values 1 -
/// 12): 13`); a field that is not an integer is Neo4j's internal failure.
fn check_range(field: &str, v: &Value) -> Result<(), ExecError> {
    let (name, lo, hi, shown) = match field {
        "year" => ("Year", -999_999_999, 999_999_999, "-999999999 - 999999999"),
        "month" => ("MonthOfYear", 1, 12, "1 - 12"),
        "day" => ("DayOfMonth", 1, 31, "1 - 28/31"),
        "hour" => ("HourOfDay", 0, 23, "0 - 23"),
        "minute" => ("MinuteOfHour", 0, 59, "0 - 59"),
        "second" => ("SecondOfMinute", 0, 59, "0 - 59"),
        _ => return Ok(()),
    };
    match v {
        Value::Int(i) if !(lo..=hi).contains(i) => Err(argument(format!(
            "Invalid value for {name} (valid values {shown}): {i}"
        ))),
        Value::Int(_) | Value::Null => Ok(()),
        other => Err(ExecError::execution_failed(&format!(
            "{field} must be an integer value, but was a {}",
            value_class(other)
        ))),
    }
}

/// The class of Neo4j's value object, as its internal errors name it.
pub(crate) fn value_class(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "UTF8StringValue",
        Value::Float(_) => "DoubleValue",
        Value::Bool(_) => "BooleanValue",
        Value::List(_) => "ListValue",
        Value::Map(_) => "MapValue",
        _ => "AnyValue",
    }
}

/// Neo4j's error for a string that is not a temporal of `kind` (`date`, …, `duration`): a
/// `SyntaxError`, in Java's words where the text has the shape of one but a field is out of
/// range (`Invalid value for MonthOfYear (valid values 1 - 12): 13`, GQL `22N11`), else "Text
/// cannot be parsed to a Date" with the text and a caret (GQL `22N36`). `zone`: the time
/// zone the text names when that is what is wrong.
pub(crate) fn text_error(kind: &str, text: &str, zone: Option<&str>) -> ExecError {
    let invalid_argument = |message: String, what: &str| {
        let mut e = ExecError::runtime(ErrorKind::SyntaxError, message)
            .with_detail(Detail::InvalidArgumentValue);
        e.gql_status = Some(Box::new(GqlStatus::data_exception(GqlStatus::cause(
            "22N11",
            "error: data exception - invalid argument",
            format!("Invalid argument: cannot process '{what}'."),
        ))));
        e
    };
    if let Some(z) = zone {
        return invalid_argument(
            format!(
                "Invalid value for TimeZone: Text '{z}' could not be parsed at index 0\n\"{z}\"\n ^"
            ),
            z,
        );
    }
    if kind != "duration" {
        if let Some(message) = field_out_of_range(text) {
            return invalid_argument(message, text);
        }
    }
    let name = match kind {
        "date" => "Date",
        "localtime" => "LocalTime",
        "time" => "Time",
        "localdatetime" => "LocalDateTime",
        "datetime" => "DateTime",
        _ => "Duration",
    };
    let e = ExecError::runtime(
        ErrorKind::SyntaxError,
        format!("Text cannot be parsed to a {name}\n\"{text}\"\n ^"),
    )
    .with_detail(Detail::InvalidArgumentValue);
    // (Neo4j 5.26 gives a zoned time or datetime its generic status.)
    if matches!(kind, "time" | "datetime") {
        return e;
    }
    e.with_gql(GqlStatus::invalid_temporal_format(GqlStatus::cause(
        "22N36",
        "error: data exception - invalid temporal format",
        format!("Cannot parse '{text}' as a {name}."),
    )))
}

/// Java's message for a text of the ISO calendar shape (`YYYY-MM-DD`, then optionally
/// `THH:MM[:SS…]`, or a time `HH:MM[:SS…]`) with a field out of range.
fn field_out_of_range(text: &str) -> Option<String> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (date, time) = match text.split_once('T') {
        Some((d, t)) => (Some(d), Some(t)),
        None if text.len() >= 10 && text.as_bytes().get(4) == Some(&b'-') => (Some(text), None),
        None => (None, Some(text)),
    };
    if let Some(d) = date {
        let parts: Vec<&str> = d.split('-').collect();
        let [y, m, day] = parts.as_slice() else {
            return None;
        };
        if y.len() != 4
            || m.len() != 2
            || day.len() != 2
            || !digits(y)
            || !digits(m)
            || !digits(day)
        {
            return None;
        }
        let (y, m, day): (i32, u32, u32) = (y.parse().ok()?, m.parse().ok()?, day.parse().ok()?);
        if !(1..=12).contains(&m) {
            return Some(format!(
                "Invalid value for MonthOfYear (valid values 1 - 12): {m}"
            ));
        }
        if !(1..=31).contains(&day) {
            return Some(format!(
                "Invalid value for DayOfMonth (valid values 1 - 28/31): {day}"
            ));
        }
        if chrono::NaiveDate::from_ymd_opt(y, m, day).is_none() {
            const MONTHS: [&str; 12] = [
                "JANUARY",
                "FEBRUARY",
                "MARCH",
                "APRIL",
                "MAY",
                "JUNE",
                "JULY",
                "AUGUST",
                "SEPTEMBER",
                "OCTOBER",
                "NOVEMBER",
                "DECEMBER",
            ];
            if m == 2 && day == 29 {
                return Some(format!(
                    "Invalid date 'February 29' as '{y}' is not a leap year"
                ));
            }
            return Some(format!("Invalid date '{} {day}'", MONTHS[m as usize - 1]));
        }
    }
    let t = time?;
    // The clock part, before a fraction, an offset or a zone.
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == ':'))
        .unwrap_or(t.len());
    let parts: Vec<&str> = t[..end].split(':').collect();
    if parts.len() < 2 || parts.iter().any(|p| p.len() != 2 || !digits(p)) {
        return None;
    }
    let names = [
        ("HourOfDay", 23u32),
        ("MinuteOfHour", 59),
        ("SecondOfMinute", 59),
    ];
    for (p, (name, hi)) in parts.iter().zip(names) {
        let v: u32 = p.parse().ok()?;
        if v > hi {
            return Some(format!(
                "Invalid value for {name} (valid values 0 - {hi}): {v}"
            ));
        }
    }
    None
}

/// Neo4j's error for a temporal function given a value its signature does not take
/// (`date(1.5)`): the call fails as a procedure call does.
pub(crate) fn bad_signature(kind: &str, arg: &Value) -> ExecError {
    let (class, signature) = match kind {
        "date" => (
            "DateFunction",
            "date(input = DEFAULT_TEMPORAL_ARGUMENT :: ANY) :: DATE",
        ),
        "localtime" => (
            "LocalTimeFunction",
            "localtime(input = DEFAULT_TEMPORAL_ARGUMENT :: ANY) :: LOCAL TIME",
        ),
        "time" => (
            "TimeFunction",
            "time(input = DEFAULT_TEMPORAL_ARGUMENT :: ANY) :: ZONED TIME",
        ),
        "localdatetime" => (
            "LocalDateTimeFunction",
            "localdatetime(input = DEFAULT_TEMPORAL_ARGUMENT :: ANY) :: LOCAL DATETIME",
        ),
        "datetime" => (
            "DateTimeFunction",
            "datetime(input = DEFAULT_TEMPORAL_ARGUMENT :: ANY) :: ZONED DATETIME",
        ),
        _ => ("DurationFunction", "duration(input :: ANY) :: DURATION"),
    };
    let mut e = ExecError::runtime(
        ErrorKind::ProcedureError,
        format!(
            "Invalid call signature for {class}: Provided input was [{}]",
            super::exec::neo4j_value_text(arg)
        ),
    );
    e.gql_status = Some(Box::new(GqlStatus::invalid_syntax(GqlStatus::cause(
        "42I51",
        "error: syntax error or access rule violation - invalid call signature",
        format!("The procedure or function {kind}() must have the signature: {signature}."),
    ))));
    e
}
