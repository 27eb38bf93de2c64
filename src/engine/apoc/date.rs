//! APOC's date functions over epoch numbers and Java date patterns: `apoc.date.format` /
//! `parse` / `toISO8601` / `fromISO8601` / `convert` / `add` / `currentTimestamp` /
//! `systemTimezone`, and `apoc.temporal.format` for Cypher's temporal values.
//!
//! Java pattern letters (`SimpleDateFormat` / `DateTimeFormatter`): `y` year, `M` month (`MMM`
//! short and `MMMM` full names), `d` day, `D` day of year, `H`/`h`/`k`/`K` hours, `m`
//! minutes, `s` seconds, `S` fraction, `E` day name, `a` AM/PM, `u` day of week, `Z` / `X` /
//! `x` offsets, `z` zone, `'…'` literal text.

use crate::engine::error::{ExecError, Result};
use crate::temporal::Temporal;
use crate::value::Value;
use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike};

family! {
    /// The `apoc.date.*` functions of epoch times and formats, and `apoc.temporal.format`.
    DateFn {
        "apoc.date.add" => DateAdd,
        "apoc.date.convert" => DateConvert,
        "apoc.date.currenttimestamp" => DateCurrentTimestamp,
        "apoc.date.field" => DateField,
        "apoc.date.format" => DateFormat,
        "apoc.date.fromiso8601" => DateFromISO8601,
        "apoc.date.parse" => DateParse,
        "apoc.date.systemtimezone" => DateSystemTimezone,
        "apoc.date.toiso8601" => DateToISO8601,
        "apoc.temporal.format" => TemporalFormat,
    }
}

pub(super) fn failed(name: &str, why: impl std::fmt::Display) -> ExecError {
    super::failed(name, why)
}

/// Milliseconds in one APOC time unit (`ms`, `s`, `m`, `h`, `d` and their long names).
fn unit_ms(name: &str, unit: &str) -> Result<i64> {
    Ok(match unit.to_ascii_lowercase().as_str() {
        "ms" | "milli" | "millis" | "milliseconds" => 1,
        "s" | "second" | "seconds" => 1_000,
        "m" | "minute" | "minutes" => 60_000,
        "h" | "hour" | "hours" => 3_600_000,
        "d" | "day" | "days" => 86_400_000,
        other => {
            return Err(failed(
                name,
                format!("java.lang.IllegalArgumentException: The unit: {other} is not correct"),
            ))
        }
    })
}

fn text<'a>(v: Option<&'a Value>, default: &'a str) -> &'a str {
    match v {
        Some(Value::String(s)) => s,
        _ => default,
    }
}

fn int(v: Option<&Value>) -> Option<i64> {
    match v {
        Some(Value::Int(i)) => Some(*i),
        Some(Value::Float(f)) if f.is_finite() => Some(*f as i64),
        _ => None,
    }
}

/// A UTC instant seen in `zone` (an IANA name, `UTC`, `Z` or an offset like `+02:00`):
/// local time, offset in seconds, and the zone's name.
pub(super) fn in_zone(
    name: &str,
    utc: NaiveDateTime,
    zone: &str,
) -> Result<(NaiveDateTime, i32, String)> {
    if zone.is_empty() || zone.eq_ignore_ascii_case("UTC") || zone == "Z" {
        return Ok((utc, 0, "UTC".into()));
    }
    if let Ok(tz) = zone.parse::<chrono_tz::Tz>() {
        let t = tz.from_utc_datetime(&utc);
        let off = chrono::Offset::fix(t.offset()).local_minus_utc();
        return Ok((t.naive_local(), off, zone.to_string()));
    }
    let offset = crate::temporal::parse_offset_text(zone).ok_or_else(|| {
        failed(
            name,
            format!("java.time.zone.ZoneRulesException: Unknown time-zone ID: {zone}"),
        )
    })?;
    Ok((
        utc + chrono::Duration::seconds(i64::from(offset)),
        offset,
        zone.to_string(),
    ))
}

/// A character standing for "the fraction of a second, if any, with its point" (ISO formats).
pub(super) const FRACTION: char = '\u{1}';
/// A character standing for RFC 1123's zone (`GMT` or `+HHMM`).
pub(super) const RFC_1123_ZONE: char = '\u{2}';

/// A pattern's parts.
#[derive(Clone, Debug)]
pub(super) enum Tok {
    Lit(String),
    Field(char, usize),
    Optional(Vec<Tok>),
    /// The fraction of a second with its point, digits as needed (none when zero).
    Fraction,
    /// RFC 1123's zone: `GMT` or `+HHMM`.
    Rfc1123Zone,
}

pub(super) fn tokens(pattern: &str) -> Vec<Tok> {
    let c: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    tokens_until(&c, &mut i, false)
}

fn tokens_until(c: &[char], i: &mut usize, nested: bool) -> Vec<Tok> {
    let mut out = Vec::new();
    while *i < c.len() {
        let ch = c[*i];
        if ch == ']' && nested {
            *i += 1;
            return out;
        }
        if ch == '[' {
            *i += 1;
            out.push(Tok::Optional(tokens_until(c, i, true)));
        } else if ch == '\'' {
            *i += 1;
            let mut lit = String::new();
            if c.get(*i) == Some(&'\'') {
                lit.push('\'');
                *i += 1;
            } else {
                while *i < c.len() {
                    if c[*i] == '\'' {
                        if c.get(*i + 1) == Some(&'\'') {
                            lit.push('\'');
                            *i += 2;
                            continue;
                        }
                        *i += 1;
                        break;
                    }
                    lit.push(c[*i]);
                    *i += 1;
                }
            }
            out.push(Tok::Lit(lit));
        } else if ch == FRACTION {
            *i += 1;
            out.push(Tok::Fraction);
        } else if ch == RFC_1123_ZONE {
            *i += 1;
            out.push(Tok::Rfc1123Zone);
        } else if ch.is_ascii_alphabetic() {
            let mut n = 1;
            while c.get(*i + n) == Some(&ch) {
                n += 1;
            }
            out.push(Tok::Field(ch, n));
            *i += n;
        } else {
            out.push(Tok::Lit(ch.to_string()));
            *i += 1;
        }
    }
    out
}

/// A pattern's letter runs and literal text, optional sections written out (the epoch-based
/// functions format and parse every field the pattern names).
fn pieces(pattern: &str) -> Vec<Tok> {
    fn flatten(toks: Vec<Tok>, out: &mut Vec<Tok>) {
        for t in toks {
            match t {
                Tok::Optional(inner) => flatten(inner, out),
                t @ (Tok::Lit(_) | Tok::Field(..)) => out.push(t),
                Tok::Fraction | Tok::Rfc1123Zone => {}
            }
        }
    }
    let mut out = Vec::new();
    flatten(tokens(pattern), &mut out);
    out
}

pub(super) const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
pub(super) const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

fn offset_text(off: i32, colon: bool, z_for_zero: bool) -> String {
    if off == 0 && z_for_zero {
        return "Z".into();
    }
    let sign = if off < 0 { '-' } else { '+' };
    let a = off.abs();
    if colon {
        format!("{sign}{:02}:{:02}", a / 3600, a % 3600 / 60)
    } else {
        format!("{sign}{:02}{:02}", a / 3600, a % 3600 / 60)
    }
}

/// Formats a date and/or time with a Java pattern; fields the value lacks are an error.
pub(super) fn format_java(
    name: &str,
    pattern: &str,
    date: Option<NaiveDate>,
    time: Option<(NaiveTime, u32)>,
    zone: Option<(i32, &str)>,
) -> Result<String> {
    let mut out = String::new();
    let need_date = || {
        date.ok_or_else(|| {
            failed(
                name,
                "java.time.temporal.UnsupportedTemporalTypeException: Unsupported field: Year",
            )
        })
    };
    let need_time = || {
        time.ok_or_else(|| {
            failed(
                name,
                "java.time.temporal.UnsupportedTemporalTypeException: Unsupported field: HourOfDay",
            )
        })
    };
    let need_zone = || {
        zone.ok_or_else(|| {
            failed(name, "java.time.temporal.UnsupportedTemporalTypeException: Unsupported field: OffsetSeconds")
        })
    };
    let pad = |v: i64, n: usize| format!("{v:0n$}");
    for p in pieces(pattern) {
        match p {
            // (`pieces` writes optional sections out and keeps no markers.)
            Tok::Optional(_) | Tok::Fraction | Tok::Rfc1123Zone => {}
            Tok::Lit(s) => out.push_str(&s),
            Tok::Field(c, n) => match c {
                'y' | 'u' if c == 'y' || n > 1 => {
                    let y = i64::from(need_date()?.year());
                    out.push_str(&if n == 2 {
                        pad(y.rem_euclid(100), 2)
                    } else {
                        pad(y, n)
                    });
                }
                'u' => {
                    out.push_str(&need_date()?.weekday().number_from_monday().to_string());
                }
                'M' | 'L' => {
                    let m = need_date()?.month() as usize;
                    out.push_str(&match n {
                        1 | 2 => pad(m as i64, n),
                        3 => MONTHS[m - 1][..3].to_string(),
                        _ => MONTHS[m - 1].to_string(),
                    });
                }
                'd' => out.push_str(&pad(i64::from(need_date()?.day()), n)),
                'D' => out.push_str(&pad(i64::from(need_date()?.ordinal()), n)),
                'E' => {
                    let d = need_date()?.weekday().num_days_from_monday() as usize;
                    out.push_str(if n >= 4 { DAYS[d] } else { &DAYS[d][..3] });
                }
                'w' => out.push_str(&pad(i64::from(need_date()?.iso_week().week()), n)),
                'H' => out.push_str(&pad(i64::from(need_time()?.0.hour()), n)),
                'k' => {
                    let h = need_time()?.0.hour();
                    out.push_str(&pad(i64::from(if h == 0 { 24 } else { h }), n));
                }
                'K' => out.push_str(&pad(i64::from(need_time()?.0.hour() % 12), n)),
                'h' => {
                    let h = need_time()?.0.hour() % 12;
                    out.push_str(&pad(i64::from(if h == 0 { 12 } else { h }), n));
                }
                'm' => out.push_str(&pad(i64::from(need_time()?.0.minute()), n)),
                's' => out.push_str(&pad(i64::from(need_time()?.0.second()), n)),
                'S' => {
                    let nanos = need_time()?.1;
                    let digits = format!("{nanos:09}");
                    let mut f: String = digits.chars().take(n.min(9)).collect();
                    while f.len() < n {
                        f.push('0');
                    }
                    out.push_str(&f);
                }
                'n' => out.push_str(&pad(i64::from(need_time()?.1), n)),
                'N' => {
                    let (t, nanos) = need_time()?;
                    let day = i64::from(t.num_seconds_from_midnight()) * 1_000_000_000;
                    out.push_str(&pad(day + i64::from(nanos % 1_000_000_000), n));
                }
                'A' => {
                    let (t, nanos) = need_time()?;
                    let day = i64::from(t.num_seconds_from_midnight()) * 1000;
                    out.push_str(&pad(day + i64::from(nanos % 1_000_000_000 / 1_000_000), n));
                }
                'a' => out.push_str(if need_time()?.0.hour() < 12 {
                    "AM"
                } else {
                    "PM"
                }),
                'Z' => out.push_str(&offset_text(need_zone()?.0, n >= 4, n >= 5)),
                'X' => out.push_str(&offset_text(need_zone()?.0, n >= 3, true)),
                'x' => out.push_str(&offset_text(need_zone()?.0, n >= 3, false)),
                'z' | 'V' | 'O' => out.push_str(need_zone()?.1),
                'G' => out.push_str(if need_date()?.year() > 0 { "AD" } else { "BC" }),
                other => {
                    return Err(failed(
                        name,
                        format!(
                            "java.lang.IllegalArgumentException: Unknown pattern letter: {other}"
                        ),
                    ))
                }
            },
        }
    }
    Ok(out)
}

/// Whether `DateTimeFormatter.ofPattern` takes a pattern: ASCII letters are fields (each with
/// Java's limits on how many may repeat), `'…'` a closed literal, `[`/`]` balanced optional
/// sections, `p` pads the field after it, and `{`, `}`, `#` are reserved. Anything else is a
/// literal.
pub(super) fn java_pattern_valid(pattern: &str) -> bool {
    let cs: Vec<char> = pattern.chars().collect();
    let (mut i, mut depth) = (0usize, 0usize);
    while i < cs.len() {
        let c = cs[i];
        if c.is_ascii_alphabetic() {
            let mut n = 1;
            while i + n < cs.len() && cs[i + n] == c {
                n += 1;
            }
            i += n;
            if c == 'p' {
                // A pad: a field must follow at once.
                if !cs.get(i).is_some_and(char::is_ascii_alphabetic) {
                    return false;
                }
                continue;
            }
            let ok = match c {
                'G' | 'E' | 'M' | 'L' | 'Q' | 'q' => n <= 5,
                'e' | 'c' => n <= 5 && !(c == 'c' && n == 2),
                'y' | 'u' | 'Y' => true,
                'd' | 'h' | 'H' | 'k' | 'K' | 'm' | 's' | 'w' => n <= 2,
                'D' => n <= 3,
                'F' | 'W' | 'a' => n == 1,
                'S' => n <= 9,
                'n' | 'N' | 'A' => n <= 19,
                'g' => n <= 19,
                'z' => n <= 4,
                'V' => n == 2,
                'v' | 'O' => n == 1 || n == 4,
                'B' => matches!(n, 1 | 4 | 5),
                'Z' | 'X' | 'x' => n <= 5,
                _ => false,
            };
            if !ok {
                return false;
            }
            continue;
        }
        match c {
            '\'' => {
                // A literal up to the closing quote; `''` inside is a quote.
                let mut j = i + 1;
                loop {
                    match cs.get(j) {
                        None => return false,
                        Some('\'') if cs.get(j + 1) == Some(&'\'') => j += 2,
                        Some('\'') => break,
                        Some(_) => j += 1,
                    }
                }
                i = j + 1;
                continue;
            }
            '[' => depth += 1,
            ']' => {
                if depth == 0 {
                    return false;
                }
                depth -= 1;
            }
            '{' | '}' | '#' => return false,
            _ => {}
        }
        i += 1;
    }
    true
}

/// Parses `text` with a Java pattern; returns the UTC instant (a missing time is midnight, a
/// missing zone is `zone`).
pub(super) fn parse_java(
    name: &str,
    text: &str,
    pattern: &str,
    zone: &str,
) -> Result<NaiveDateTime> {
    let mut fmt = String::new();
    let (mut has_time, mut has_zone) = (false, false);
    for p in pieces(pattern) {
        match p {
            Tok::Optional(_) | Tok::Fraction | Tok::Rfc1123Zone => {}
            Tok::Lit(s) => fmt.push_str(&s.replace('%', "%%")),
            Tok::Field(c, n) => fmt.push_str(match (c, n) {
                ('y' | 'u', 2) => "%y",
                ('y' | 'u', _) => "%Y",
                ('M', 1 | 2) => "%m",
                ('M', 3) => "%b",
                ('M', _) => "%B",
                ('d', _) => "%d",
                ('D', _) => "%j",
                ('E', 4..) => "%A",
                ('E', _) => "%a",
                ('H' | 'k', _) => {
                    has_time = true;
                    "%H"
                }
                ('h' | 'K', _) => {
                    has_time = true;
                    "%I"
                }
                ('m', _) => "%M",
                ('s', _) => "%S",
                ('S', _) => "%.f",
                ('a', _) => "%p",
                ('Z' | 'x', 1..=3) => {
                    has_zone = true;
                    "%z"
                }
                ('Z' | 'X' | 'x', _) => {
                    has_zone = true;
                    "%:z"
                }
                ('z', _) => "%Z",
                (other, _) => {
                    return Err(failed(
                        name,
                        format!(
                            "java.lang.IllegalArgumentException: Unknown pattern letter: {other}"
                        ),
                    ))
                }
            }),
        }
    }
    // `S` follows a `.` in Java patterns; chrono's `%.f` includes the dot.
    let fmt = fmt.replace(".%.f", "%.f");
    let bad = |e: chrono::ParseError| {
        failed(
            name,
            format!("java.text.ParseException: Unparseable date: \"{text}\" ({e})"),
        )
    };
    if has_zone {
        let t = chrono::DateTime::parse_from_str(text, &fmt).map_err(bad)?;
        return Ok(t.naive_utc());
    }
    let local = if has_time {
        NaiveDateTime::parse_from_str(text, &fmt).map_err(bad)?
    } else {
        NaiveDate::parse_from_str(text, &fmt)
            .map_err(bad)?
            .and_time(NaiveTime::MIN)
    };
    if zone.is_empty() || zone.eq_ignore_ascii_case("UTC") {
        return Ok(local);
    }
    let (off, _) = crate::temporal::resolve_zone(zone, &local).map_err(|e| failed(name, e))?;
    Ok(local - chrono::Duration::seconds(i64::from(off)))
}

fn epoch_ms(t: NaiveDateTime) -> i64 {
    t.and_utc().timestamp_millis()
}

fn from_epoch_ms(name: &str, ms: i64) -> Result<NaiveDateTime> {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|d| d.naive_utc())
        .ok_or_else(|| failed(name, format!("the time {ms} ms is out of range")))
}

/// Named formats `apoc.temporal.format` takes besides patterns.
fn named_format(f: &str) -> Option<&'static str> {
    Some(match f.to_ascii_uppercase().as_str() {
        "ISO_DATE" | "ISO_LOCAL_DATE" | "DATE" => "yyyy-MM-dd",
        "ISO_LOCAL_TIME" | "TIME" => "HH:mm:ss",
        "ISO_LOCAL_DATE_TIME" | "DATE_TIME" => "yyyy-MM-dd'T'HH:mm:ss",
        "ISO_OFFSET_DATE_TIME" | "ISO_DATE_TIME" => "yyyy-MM-dd'T'HH:mm:ssXXX",
        "BASIC_ISO_DATE" => "yyyyMMdd",
        "ISO_ORDINAL_DATE" => "yyyy-DDD",
        _ => return None,
    })
}

pub(super) fn run(n: &str, m: DateFn, args: &[Value]) -> Result<Value> {
    let name = crate::catalogue::function(n).map_or(n, |f| f.name);
    match m {
        DateFn::DateField => {
            // One field of epoch milliseconds seen in a time zone.
            let Some(ms) = int(args.first()) else {
                return Ok(Value::Null);
            };
            // (`ZoneId.of` runs before the unit is read.)
            if matches!(args.get(2), Some(Value::Null)) {
                return Err(failed(name, "java.lang.NullPointerException: zoneId"));
            }
            if matches!(args.get(1), Some(Value::Null)) {
                return Err(super::npe(name, "String.toLowerCase()", "unit"));
            }
            let (t, _, _) = in_zone(name, from_epoch_ms(name, ms)?, text(args.get(2), "UTC"))?;
            let unit = text(args.get(1), "d");
            Ok(Value::Int(match unit.to_ascii_lowercase().as_str() {
                "ms" | "milli" | "millis" | "milliseconds" => i64::from(t.nanosecond() / 1_000_000),
                "s" | "second" | "seconds" => i64::from(t.second()),
                "m" | "minute" | "minutes" => i64::from(t.minute()),
                "h" | "hour" | "hours" => i64::from(t.hour()),
                "d" | "day" | "days" => i64::from(t.day()),
                "w" | "weekday" | "weekdays" => i64::from(t.weekday().number_from_monday()),
                "month" | "months" => i64::from(t.month()),
                "year" | "years" => i64::from(t.year()),
                _ => return Err(failed(name, format!("The unit: {unit} is not correct"))),
            }))
        }
        DateFn::DateCurrentTimestamp => Ok(Value::Int(epoch_ms(crate::temporal::now_utc()))),
        DateFn::DateSystemTimezone => Ok(Value::from("UTC")),
        DateFn::DateConvert => {
            let Some(t) = int(args.first()) else {
                return Ok(Value::Null);
            };
            let from = unit_ms(name, text(args.get(1), "ms"))?;
            let to = unit_ms(name, text(args.get(2), "ms"))?;
            Ok(Value::Int(t.saturating_mul(from) / to))
        }
        DateFn::DateAdd => {
            let Some(t) = int(args.first()) else {
                return Ok(Value::Null);
            };
            let unit = unit_ms(name, text(args.get(1), "ms"))?;
            let add = int(args.get(2)).unwrap_or(0);
            let add_unit = unit_ms(name, text(args.get(3), "ms"))?;
            let ms = t
                .saturating_mul(unit)
                .saturating_add(add.saturating_mul(add_unit));
            Ok(Value::Int(ms / unit))
        }
        DateFn::DateFormat | DateFn::DateToISO8601 => {
            let Some(t) = int(args.first()) else {
                return Ok(Value::Null);
            };
            let default_unit = "ms";
            let unit = unit_ms(name, text(args.get(1), default_unit))?;
            let (pattern, zone) = if m == DateFn::DateToISO8601 {
                ("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", "UTC")
            } else {
                (
                    text(args.get(2), "yyyy-MM-dd HH:mm:ss"),
                    text(args.get(3), "UTC"),
                )
            };
            let utc = from_epoch_ms(name, t.saturating_mul(unit))?;
            let (local, off, zname) = in_zone(name, utc, zone)?;
            let pattern = named_format(pattern).unwrap_or(pattern);
            format_java(
                name,
                pattern,
                Some(local.date()),
                Some((local.time(), local.nanosecond())),
                Some((off, &zname)),
            )
            .map(Value::from)
        }
        DateFn::DateParse | DateFn::DateFromISO8601 => {
            let Some(Value::String(s)) = args.first() else {
                return Ok(Value::Null);
            };
            // (An empty text parses to nothing.)
            if s.is_empty() && m == DateFn::DateParse {
                return Ok(Value::Null);
            }
            let (unit, pattern, zone) = if m == DateFn::DateFromISO8601 {
                (1, "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "UTC")
            } else {
                (
                    unit_ms(name, text(args.get(1), "ms"))?,
                    text(args.get(2), "yyyy-MM-dd HH:mm:ss"),
                    text(args.get(3), ""),
                )
            };
            let utc = if m == DateFn::DateFromISO8601 {
                chrono::DateTime::parse_from_rfc3339(s)
                    .map(|t| t.naive_utc())
                    .map_err(|e| {
                        failed(
                            name,
                            format!("java.time.format.DateTimeParseException: {e}"),
                        )
                    })?
            } else {
                parse_java(name, s, pattern, zone)?
            };
            Ok(Value::Int(epoch_ms(utc).div_euclid(unit)))
        }
        DateFn::TemporalFormat => {
            let t = match args.first() {
                Some(Value::Temporal(t)) => t,
                Some(Value::Null) | None => {
                    return Err(super::npe(name, "Object.toString()", "input"))
                }
                // APOC formats only temporal values; anything else is its `toString()`, once
                // the pattern is known to be one Java accepts.
                Some(other) => {
                    if matches!(args.get(1), Some(Value::Null)) {
                        return Err(failed(
                            name,
                            "java.lang.RuntimeException: Available formats are: (none given)",
                        ));
                    }
                    let pattern = text(args.get(1), "yyyy-MM-dd");
                    if named_format(pattern).is_none() && !java_pattern_valid(pattern) {
                        return Err(failed(
                            name,
                            "java.lang.RuntimeException: Available formats are: (none given)",
                        ));
                    }
                    return Ok(Value::from(super::java_to_string(other)));
                }
            };
            let pattern = text(args.get(1), "yyyy-MM-dd");
            let pattern = named_format(pattern).unwrap_or(pattern);
            let (date, time, zone): (Option<NaiveDate>, Option<NaiveTime>, Option<(i32, String)>) =
                match &**t {
                    Temporal::Date(d) => (Some(*d), None, None),
                    Temporal::LocalTime(x) => (None, Some(*x), None),
                    Temporal::Time(x, o) => {
                        (None, Some(*x), Some((*o, offset_text(*o, true, true))))
                    }
                    Temporal::LocalDateTime(x) => (Some(x.date()), Some(x.time()), None),
                    Temporal::DateTime(x, o, z) => (
                        Some(x.date()),
                        Some(x.time()),
                        Some((
                            *o,
                            z.as_deref()
                                .map_or_else(|| offset_text(*o, true, true), str::to_string),
                        )),
                    ),
                    Temporal::Duration(_) => {
                        return Err(ExecError::unsupported("apoc.temporal.format of a duration"))
                    }
                };
            format_java(
                name,
                pattern,
                date,
                time.map(|x| (x, x.nanosecond())),
                zone.as_ref().map(|(o, z)| (*o, z.as_str())),
            )
            .map(Value::from)
        }
    }
}
