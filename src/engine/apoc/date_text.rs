//! APOC's functions that read dates written as text with `java.time` patterns:
//! `apoc.date.fields` (the fields a text holds), `apoc.date.convertFormat` (from one format to
//! another: patterns, Java's ISO formatters by name and APOC's Elasticsearch-style names),
//! `apoc.date.toYears` and `apoc.temporal.toZonedTemporal` (a lenient `SimpleDateFormat` read
//! in a time zone, as APOC's is).
//!
//! Patterns here may have optional sections (`[…]`), as `java.time` patterns may.

use super::date::{
    failed, format_java, in_zone, parse_java, tokens, Tok, DAYS, FRACTION, MONTHS, RFC_1123_ZONE,
};
use crate::engine::error::Result;
use crate::temporal::Temporal;
use crate::value::Value;
use chrono::{Datelike, NaiveDate, NaiveTime};
use std::collections::BTreeMap;
use std::sync::Arc;

family! {
    /// The `apoc.date.*` functions of texts and durations.
    DateTextFn {
        "apoc.date.convertformat" => DateConvertFormat,
        "apoc.date.fields" => DateFields,
        "apoc.date.toyears" => DateToYears,
        "apoc.temporal.tozonedtemporal" => TemporalToZonedTemporal,
    }
}

const DEFAULT_FORMAT: &str = "yyyy-MM-dd HH:mm:ss";

/// Milliseconds in APOC's year (365 days).
const YEAR_MS: f64 = 365.0 * 24.0 * 3600.0 * 1000.0;

/// Runs `n` (lower-case), reporting errors under APOC's spelling of the name.
pub(super) fn call(n: &str, m: DateTextFn, args: &[Value]) -> Result<Value> {
    let name = crate::catalogue::function(n).map_or(n, |f| f.name);
    run(name, m, args)
}

fn text_arg<'a>(
    name: &str,
    args: &'a [Value],
    i: usize,
    default: &'a str,
) -> Result<Option<&'a str>> {
    match args.get(i) {
        None => Ok(Some(default)),
        Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(super::wrong(name, other, "a string")),
    }
}

fn run(name: &str, m: DateTextFn, args: &[Value]) -> Result<Value> {
    match m {
        DateTextFn::DateToYears => Ok(match args.first() {
            None | Some(Value::Null) => return Err(super::npe(name, "Object.toString()", "value")),
            Some(Value::Int(i)) => Value::Float(*i as f64 / YEAR_MS),
            // (Java's `longValue()` of a double: toward zero.)
            Some(Value::Float(f)) => Value::Float((*f as i64) as f64 / YEAR_MS),
            Some(other) => {
                let s = crate::engine::functions::to_string_plain(other);
                let pattern = text_arg(name, args, 1, DEFAULT_FORMAT)?.unwrap_or(DEFAULT_FORMAT);
                let t = parse_java(name, &s, pattern, "")?;
                // A text is a date: APOC counts its years from 1970.
                Value::Float(1970.0 + t.and_utc().timestamp_millis() as f64 / YEAR_MS)
            }
        }),
        DateTextFn::DateFields => {
            let Some(s) = text_arg(name, args, 0, "")? else {
                return Ok(Value::Map(BTreeMap::new()));
            };
            let pattern = text_arg(name, args, 1, DEFAULT_FORMAT)?.unwrap_or(DEFAULT_FORMAT);
            let p = parse(name, s, &tokens(pattern))?;
            Ok(Value::Map(p.fields()))
        }
        DateTextFn::DateConvertFormat => {
            let Some(s) = text_arg(name, args, 0, "")?.filter(|s| !s.is_empty()) else {
                return Ok(Value::Null);
            };
            let Some(from) = text_arg(name, args, 1, "")? else {
                return Err(failed(name, "java.lang.NullPointerException"));
            };
            let to = text_arg(name, args, 2, "yyyy-MM-dd")?.unwrap_or("yyyy-MM-dd");
            let p = parse(name, s, &tokens(&pattern_of(from)))?;
            let (date, time, zone) = p.resolve(name, false)?;
            let zone = zone.as_ref().map(|(o, z)| (*o, z.as_str()));
            format(name, &tokens(&pattern_of(to)), date, time, zone).map(Value::from)
        }
        _ => {
            // apoc.temporal.toZonedTemporal
            let Some(s) = text_arg(name, args, 0, "")? else {
                return Ok(Value::Null);
            };
            let pattern = match text_arg(name, args, 1, DEFAULT_FORMAT)? {
                None | Some("") => DEFAULT_FORMAT,
                Some(p) => p,
            };
            let zone = match text_arg(name, args, 2, "UTC")? {
                None | Some("") => "UTC",
                Some(z) => z,
            };
            let p = parse(name, s, &tokens(pattern)).map_err(|_| {
                failed(
                    name,
                    format!("java.lang.IllegalArgumentException: java.text.ParseException: Unparseable date: \"{s}\""),
                )
            })?;
            let (date, time, parsed_zone) = p.resolve(name, true)?;
            let local = date
                .unwrap_or_else(|| NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default())
                .and_time(time.map(|t| t.0).unwrap_or(NaiveTime::MIN));
            // The text is read in the zone Java's TimeZone knows by that name (an offset such
            // as `+04:30` it does not know: GMT), unless the text has its own.
            let utc = match parsed_zone {
                Some((off, _)) => local - chrono::Duration::seconds(i64::from(off)),
                None => {
                    let reading_zone = if zone.parse::<chrono_tz::Tz>().is_ok()
                        || zone.starts_with("GMT")
                        || zone == "UTC"
                    {
                        zone
                    } else {
                        "UTC"
                    };
                    let (_, off, _) = in_zone(name, local, reading_zone)?;
                    // The offset of the zone at that local time, near enough: recomputed at
                    // the instant it gives.
                    let guess = local - chrono::Duration::seconds(i64::from(off));
                    let (_, off2, _) = in_zone(name, guess, reading_zone)?;
                    local - chrono::Duration::seconds(i64::from(off2))
                }
            };
            // Milliseconds, as java.util.Date holds them.
            let utc = utc
                .with_nanosecond(utc.and_utc().timestamp_subsec_millis() * 1_000_000)
                .unwrap_or(utc);
            let (at, off, z) = in_zone(name, utc, zone)?;
            let named = crate::temporal::parse_offset_text(zone)
                .is_none()
                .then(|| Arc::from(z.as_str()));
            Ok(Value::from(Temporal::DateTime(at, off, named)))
        }
    }
}

use chrono::Timelike;

/// Java's `ZoneOffset.toString()`: `Z`, `+02:00`, `-04:30:15`.
fn offset_id(o: i32) -> String {
    if o == 0 {
        return "Z".into();
    }
    let sign = if o < 0 { '-' } else { '+' };
    let a = o.unsigned_abs();
    let mut s = format!("{sign}{:02}:{:02}", a / 3600, a % 3600 / 60);
    if !a.is_multiple_of(60) {
        s.push_str(&format!(":{:02}", a % 60));
    }
    s
}

/// The pattern of a format name (Java's ISO formatters, APOC's Elasticsearch-style names), or
/// the text itself as a pattern. Names match in any case.
fn pattern_of(f: &str) -> String {
    let local_time = format!("HH:mm[:ss[{FRACTION}]]");
    let local_dt = format!("yyyy-MM-dd'T'{local_time}");
    let p: String = match f.to_ascii_lowercase().as_str() {
        "basic_iso_date" => "yyyyMMdd[xx]".into(),
        "iso_date" => "yyyy-MM-dd[XXX]".into(),
        "iso_instant" => format!("{local_dt}X"),
        "iso_date_time" => format!("{local_dt}[XXX['['VV']']]"),
        "iso_local_date" => "yyyy-MM-dd".into(),
        "iso_local_date_time" => local_dt,
        "iso_local_time" => local_time,
        "iso_offset_date" => "yyyy-MM-ddXXX".into(),
        "iso_offset_date_time" => format!("{local_dt}XXX"),
        "iso_offset_time" => format!("{local_time}XXX"),
        "iso_ordinal_date" => "yyyy-DDD[XXX]".into(),
        "iso_time" => format!("{local_time}[XXX]"),
        "iso_week_date" => "YYYY-'W'ww-e[XXX]".into(),
        "iso_zoned_date_time" => format!("{local_dt}XXX['['VV']']"),
        "rfc_1123_date_time" => format!("[EEE, ]d MMM yyyy HH:mm[:ss] {RFC_1123_ZONE}"),
        "basic_date" => "yyyyMMdd".into(),
        "basic_date_time" => "yyyyMMdd'T'HHmmss.SSSZ".into(),
        "basic_date_time_no_millis" => "yyyyMMdd'T'HHmmssZ".into(),
        "basic_ordinal_date" => "yyyyDDD".into(),
        "basic_ordinal_date_time" => "yyyyDDD'T'HHmmss.SSSZ".into(),
        "basic_ordinal_date_time_no_millis" => "yyyyDDD'T'HHmmssZ".into(),
        "basic_time" => "HHmmss.SSSZ".into(),
        "basic_time_no_millis" => "HHmmssZ".into(),
        "basic_t_time" => "'T'HHmmss.SSSZ".into(),
        "basic_t_time_no_millis" => "'T'HHmmssZ".into(),
        "basic_week_date" => "xxxx'W'wwe".into(),
        "basic_week_date_time" => "xxxx'W'wwe'T'HHmmss.SSSZ".into(),
        "basic_week_date_time_no_millis" => "xxxx'W'wwe'T'HHmmssZ".into(),
        "date" | "year_month_day" => "yyyy-MM-dd".into(),
        "date_hour" => "yyyy-MM-dd'T'HH".into(),
        "date_hour_minute" => "yyyy-MM-dd'T'HH:mm".into(),
        "date_hour_minute_second" => "yyyy-MM-dd'T'HH:mm:ss".into(),
        "date_hour_minute_second_fraction" | "date_hour_minute_second_millis" => {
            "yyyy-MM-dd'T'HH:mm:ss.SSS".into()
        }
        "date_time" => "yyyy-MM-dd'T'HH:mm:ss.SSSZZ".into(),
        "date_time_no_millis" => "yyy-MM-dd'T'HH:mm:ssZZ".into(),
        "hour" => "HH".into(),
        "hour_minute" => "HH:mm".into(),
        "hour_minute_second" => "HH:mm:ss".into(),
        "hour_minute_second_fraction" | "hour_minute_second_millis" => "HH:mm:ss.SSS".into(),
        "ordinal_date" => "yyyy-DDD".into(),
        "ordinal_date_time" => "yyyy-DDD'T'HH:mm:ss.SSSZZ".into(),
        "ordinal_date_time_no_millis" => "yyyy-DDD'T'HH:mm:ssZZ".into(),
        "time" => "HH:mm:ss.SSSZZ".into(),
        "time_no_millis" => "HH:mm:ssZZ".into(),
        "t_time" => "'T'HH:mm:ss.SSSZZ".into(),
        "t_time_no_millis" => "'T'HH:mm:ssZZ".into(),
        "week_date" | "weekyear_week_day" => "xxxx-'W'ww-e".into(),
        "week_date_time" => "xxxx-'W'ww-e'T'HH:mm:ss.SSSZZ".into(),
        "week_date_time_no_millis" => "xxxx-'W'ww-e'T'HH:mm:ssZZ".into(),
        "weekyear" => "xxxx".into(),
        "weekyear_week" => "xxxx-'W'ww".into(),
        "year" => "yyyy".into(),
        "year_month" => "yyyy-MM".into(),
        _ => f.into(),
    };
    p
}

/// What a text gave, field by field.
#[derive(Clone, Debug, Default)]
struct Parsed {
    year: Option<i64>,
    month: Option<i64>,
    day: Option<i64>,
    day_of_year: Option<i64>,
    weekday: Option<i64>,
    hour: Option<i64>,
    hour12: Option<i64>,
    pm: Option<bool>,
    minute: Option<i64>,
    second: Option<i64>,
    nano: Option<i64>,
    offset: Option<i32>,
    zone: Option<String>,
}

fn unparseable(name: &str, text: &str, at: usize) -> crate::engine::error::ExecError {
    failed(
        name,
        format!("java.time.format.DateTimeParseException: Text '{text}' could not be parsed at index {at}"),
    )
}

fn parse(name: &str, text: &str, toks: &[Tok]) -> Result<Parsed> {
    let mut p = Parsed::default();
    let mut at = 0;
    if !parse_into(text, toks, &mut at, &mut p) {
        return Err(unparseable(name, text, at));
    }
    if at != text.len() {
        return Err(failed(
            name,
            format!("java.time.format.DateTimeParseException: Text '{text}' could not be parsed, unparsed text found at index {at}"),
        ));
    }
    Ok(p)
}

/// Digits at `at`: at least `min`, at most `max`; an optional sign when `signed`.
fn digits(text: &str, at: &mut usize, min: usize, max: usize, signed: bool) -> Option<i64> {
    let b = text.as_bytes();
    let mut i = *at;
    let neg = signed && matches!(b.get(i), Some(b'-'));
    if signed && matches!(b.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    let start = i;
    while i < b.len() && i - start < max && b[i].is_ascii_digit() {
        i += 1;
    }
    if i - start < min {
        return None;
    }
    let v: i64 = text[start..i].parse().ok()?;
    *at = i;
    Some(if neg { -v } else { v })
}

fn word_from(text: &str, at: &mut usize, words: &[&str], len: Option<usize>) -> Option<usize> {
    let rest = &text[*at..];
    for (k, w) in words.iter().enumerate() {
        let w = match len {
            Some(l) => &w[..l],
            None => w,
        };
        if rest.starts_with(w) {
            *at += w.len();
            return Some(k);
        }
    }
    None
}

/// An offset `+HH[:]MM[[:]SS]` (or `Z` when `z_ok`) at `at`, in seconds.
fn offset_at(text: &str, at: &mut usize, z_ok: bool, colon: Option<bool>) -> Option<i32> {
    let rest = &text[*at..];
    if z_ok && rest.starts_with('Z') {
        *at += 1;
        return Some(0);
    }
    let sign = match rest.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let mut i = *at + 1;
    let h = digits(text, &mut i, 2, 2, false)?;
    let mut m = 0;
    let with_colon = text[i..].starts_with(':');
    if colon != Some(false) && with_colon {
        let mut j = i + 1;
        if let Some(v) = digits(text, &mut j, 2, 2, false) {
            m = v;
            i = j;
        }
    } else if colon != Some(true) {
        let mut j = i;
        if let Some(v) = digits(text, &mut j, 2, 2, false) {
            m = v;
            i = j;
        }
    }
    *at = i;
    Some(sign * (h * 3600 + m * 60) as i32)
}

/// The digits the fixed-width numeric fields right after a token take (Java's adjacent value
/// parsing: `yyyyMMdd` leaves the last four digits to the month and day).
fn reserved(rest: &[Tok]) -> usize {
    let mut n = 0;
    for t in rest {
        match t {
            Tok::Field('M' | 'd' | 'H' | 'h' | 'K' | 'k' | 'm' | 's' | 'D' | 'w', w) if *w >= 2 => {
                n += w
            }
            Tok::Field('S', w) => n += w,
            _ => break,
        }
    }
    n
}

fn parse_into(text: &str, toks: &[Tok], at: &mut usize, p: &mut Parsed) -> bool {
    for (ti, t) in toks.iter().enumerate() {
        match t {
            Tok::Lit(l) => {
                if !text[*at..].starts_with(l.as_str()) {
                    return false;
                }
                *at += l.len();
            }
            Tok::Optional(inner) => {
                let (save_at, save_p) = (*at, p.clone());
                if !parse_into(text, inner, at, p) {
                    *at = save_at;
                    *p = save_p;
                }
            }
            Tok::Fraction => {
                if text[*at..].starts_with('.') {
                    let mut i = *at + 1;
                    let start = i;
                    if digits(text, &mut i, 1, 9, false).is_some() {
                        let f = &text[start..i];
                        let nanos: i64 = format!("{f:0<9}").parse().unwrap_or(0);
                        p.nano = Some(nanos);
                        *at = i;
                    }
                }
            }
            Tok::Rfc1123Zone => {
                if text[*at..].starts_with("GMT") {
                    *at += 3;
                    p.offset = Some(0);
                } else {
                    match offset_at(text, at, false, Some(false)) {
                        Some(o) => p.offset = Some(o),
                        None => return false,
                    }
                }
            }
            Tok::Field(c, n) => {
                let n = *n;
                let num =
                    |at: &mut usize, min: usize, max: usize| digits(text, at, min, max, false);
                let ok = match c {
                    'y' | 'u' | 'Y' => {
                        let v = if n == 2 {
                            num(at, 2, 2).map(|y| 2000 + y)
                        } else {
                            let available = text[*at..]
                                .trim_start_matches(['+', '-'])
                                .bytes()
                                .take_while(u8::is_ascii_digit)
                                .count();
                            let max = available
                                .saturating_sub(reserved(&toks[ti + 1..]))
                                .clamp(n.max(1), 10);
                            digits(text, at, n.max(1), max, n >= 4 || n == 1)
                        };
                        v.map(|y| p.year = Some(y)).is_some()
                    }
                    'M' | 'L' => {
                        let v = match n {
                            1 => num(at, 1, 2),
                            2 => num(at, 2, 2),
                            3 => word_from(text, at, &MONTHS, Some(3)).map(|k| k as i64 + 1),
                            _ => word_from(text, at, &MONTHS, None).map(|k| k as i64 + 1),
                        };
                        v.map(|m| p.month = Some(m)).is_some()
                    }
                    'd' => num(at, n.min(2), 2).map(|d| p.day = Some(d)).is_some(),
                    'D' => num(at, n, 3).map(|d| p.day_of_year = Some(d)).is_some(),
                    'E' => {
                        let k = if n >= 4 {
                            word_from(text, at, &DAYS, None)
                        } else {
                            word_from(text, at, &DAYS, Some(3))
                        };
                        k.map(|k| p.weekday = Some(k as i64 + 1)).is_some()
                    }
                    'e' | 'c' => num(at, n.min(2), 2)
                        .map(|d| p.weekday = Some((d + 5).rem_euclid(7) + 1))
                        .is_some(),
                    'w' => num(at, n.min(2), 2).is_some(),
                    'H' | 'k' => num(at, n.min(2), 2)
                        .map(|h| p.hour = Some(if *c == 'k' && h == 24 { 0 } else { h }))
                        .is_some(),
                    'h' | 'K' => num(at, n.min(2), 2)
                        .map(|h| p.hour12 = Some(if *c == 'h' && h == 12 { 0 } else { h }))
                        .is_some(),
                    'm' => num(at, n.min(2), 2).map(|m| p.minute = Some(m)).is_some(),
                    's' => num(at, n.min(2), 2).map(|s| p.second = Some(s)).is_some(),
                    'S' => {
                        let start = *at;
                        num(at, n, n)
                            .map(|_| {
                                let f = &text[start..*at];
                                p.nano = format!("{f:0<9}").get(..9).and_then(|s| s.parse().ok());
                            })
                            .is_some()
                    }
                    'a' => {
                        if text[*at..].starts_with("AM") {
                            p.pm = Some(false);
                            *at += 2;
                            true
                        } else if text[*at..].starts_with("PM") {
                            p.pm = Some(true);
                            *at += 2;
                            true
                        } else {
                            false
                        }
                    }
                    'X' | 'x' | 'Z' => {
                        let z_ok = *c == 'X' || (*c == 'Z' && n >= 5);
                        let colon = match (c, n) {
                            ('Z', 1..=3) => Some(false),
                            ('Z', _) => Some(true),
                            (_, 1) => None,
                            (_, 2 | 4) => Some(false),
                            _ => Some(true),
                        };
                        if *c == 'Z' && n == 4 {
                            // GMT+HH:MM
                            if !text[*at..].starts_with("GMT") {
                                return false;
                            }
                            *at += 3;
                            if !matches!(text.as_bytes().get(*at), Some(b'+' | b'-')) {
                                p.offset = Some(0);
                                continue;
                            }
                        }
                        offset_at(text, at, z_ok, colon)
                            .map(|o| p.offset = Some(o))
                            .is_some()
                    }
                    'z' | 'V' | 'O' => {
                        let start = *at;
                        while text[*at..].starts_with(|ch: char| {
                            ch.is_ascii_alphanumeric() || matches!(ch, '/' | '_' | '+' | '-' | ':')
                        }) {
                            *at += 1;
                        }
                        if *at == start {
                            false
                        } else {
                            p.zone = Some(text[start..*at].to_string());
                            true
                        }
                    }
                    'G' => word_from(text, at, &["AD", "BC"], None).is_some(),
                    _ => false,
                };
                if !ok {
                    return false;
                }
            }
        }
    }
    true
}

type Resolved = (
    Option<NaiveDate>,
    Option<(NaiveTime, u32)>,
    Option<(i32, String)>,
);

impl Parsed {
    fn hour_of_day(&self) -> Option<i64> {
        self.hour.or_else(|| {
            self.hour12
                .map(|h| h + if self.pm == Some(true) { 12 } else { 0 })
        })
    }

    /// The date, time and zone the fields make (`lenient`: out-of-range fields roll over, as
    /// `SimpleDateFormat`'s do).
    fn resolve(&self, name: &str, lenient: bool) -> Result<Resolved> {
        let bad = || {
            failed(
                name,
                "java.time.format.DateTimeParseException: the text's fields do not make a valid date or time",
            )
        };
        let date = match (self.year, self.month, self.day, self.day_of_year) {
            (Some(y), Some(m), Some(d), _) if lenient => {
                let base = NaiveDate::from_ymd_opt(i32::try_from(y).map_err(|_| bad())?, 1, 1)
                    .ok_or_else(bad)?;
                let months = base
                    .checked_add_months(chrono::Months::new(
                        u32::try_from(m - 1).map_err(|_| bad())?,
                    ))
                    .ok_or_else(bad)?;
                Some(months + chrono::Duration::days(d - 1))
            }
            (Some(y), Some(m), Some(d), _) => Some(
                NaiveDate::from_ymd_opt(
                    i32::try_from(y).map_err(|_| bad())?,
                    u32::try_from(m).map_err(|_| bad())?,
                    u32::try_from(d).map_err(|_| bad())?,
                )
                .ok_or_else(bad)?,
            ),
            (Some(y), _, _, Some(doy)) => Some(
                NaiveDate::from_yo_opt(
                    i32::try_from(y).map_err(|_| bad())?,
                    u32::try_from(doy).map_err(|_| bad())?,
                )
                .ok_or_else(bad)?,
            ),
            (Some(y), None, None, None) if lenient => {
                NaiveDate::from_ymd_opt(i32::try_from(y).map_err(|_| bad())?, 1, 1)
            }
            _ => None,
        };
        let time = match self.hour_of_day() {
            Some(h) => {
                let (m, s) = (self.minute.unwrap_or(0), self.second.unwrap_or(0));
                let nano = u32::try_from(self.nano.unwrap_or(0)).map_err(|_| bad())?;
                let t = if lenient {
                    let secs = h * 3600 + m * 60 + s;
                    NaiveTime::from_num_seconds_from_midnight_opt(secs.rem_euclid(86_400) as u32, 0)
                } else {
                    NaiveTime::from_hms_opt(
                        u32::try_from(h).map_err(|_| bad())?,
                        u32::try_from(m).map_err(|_| bad())?,
                        u32::try_from(s).map_err(|_| bad())?,
                    )
                };
                Some((t.ok_or_else(bad)?, nano))
            }
            None => None,
        };
        let zone = match (&self.offset, &self.zone) {
            (Some(o), _) => Some((*o, offset_id(*o))),
            (None, Some(z)) => {
                let local = date
                    .unwrap_or_default()
                    .and_time(time.map(|t| t.0).unwrap_or(NaiveTime::MIN));
                let (_, off, _) = in_zone(name, local, z)?;
                Some((off, z.clone()))
            }
            _ => None,
        };
        Ok((date, time, zone))
    }

    /// `apoc.date.fields`' map.
    fn fields(&self) -> BTreeMap<Arc<str>, Value> {
        let mut m = BTreeMap::new();
        let mut put = |k: &str, v: Option<i64>| {
            if let Some(v) = v {
                m.insert(Arc::from(k), Value::Int(v));
            }
        };
        let date = match (self.year, self.month, self.day) {
            (Some(y), Some(mo), Some(d)) => i32::try_from(y)
                .ok()
                .and_then(|y| NaiveDate::from_ymd_opt(y, mo as u32, d as u32)),
            _ => None,
        };
        put("years", self.year);
        put("months", self.month);
        put("days", self.day);
        put(
            "weekdays",
            date.map(|d| i64::from(d.weekday().number_from_monday()))
                .or(self.weekday),
        );
        put("hours", self.hour_of_day());
        put("minutes", self.minute);
        put("seconds", self.second);
        let zone = match (&self.zone, self.offset) {
            (Some(z), _) => Some(z.clone()),
            (None, Some(o)) => Some(offset_id(o)),
            _ => None,
        };
        if let Some(z) = zone {
            m.insert(Arc::from("zoneid"), Value::from(z));
        }
        m
    }
}

/// Formats with tokens: an optional section is written when the value has its fields.
fn format(
    name: &str,
    toks: &[Tok],
    date: Option<NaiveDate>,
    time: Option<(NaiveTime, u32)>,
    zone: Option<(i32, &str)>,
) -> Result<String> {
    let mut out = String::new();
    for t in toks {
        match t {
            Tok::Lit(l) => out.push_str(l),
            Tok::Optional(inner) => {
                if let Ok(s) = format(name, inner, date, time, zone) {
                    out.push_str(&s);
                }
            }
            Tok::Fraction => {
                let nanos = time
                    .ok_or_else(|| failed(name, "java.time.temporal.UnsupportedTemporalTypeException: Unsupported field: NanoOfSecond"))?
                    .1;
                if nanos != 0 {
                    let f = format!("{nanos:09}");
                    out.push('.');
                    out.push_str(f.trim_end_matches('0'));
                }
            }
            Tok::Rfc1123Zone => {
                let (o, _) = zone.ok_or_else(|| failed(name, "java.time.temporal.UnsupportedTemporalTypeException: Unsupported field: OffsetSeconds"))?;
                if o == 0 {
                    out.push_str("GMT");
                } else {
                    out.push_str(&format_java(name, "xx", date, time, zone)?);
                }
            }
            Tok::Field('V', _) => {
                // A zone id only where the zone was named (not for a bare offset).
                match zone {
                    Some((_, z)) if crate::temporal::parse_offset_text(z).is_none() && z != "Z" => out.push_str(z),
                    _ => {
                        return Err(failed(
                            name,
                            "java.time.temporal.UnsupportedTemporalTypeException: Unsupported field: ZoneId",
                        ))
                    }
                }
            }
            Tok::Field('Y', n) => {
                let d = date.ok_or_else(|| failed(name, "java.time.temporal.UnsupportedTemporalTypeException: Unsupported field: WeekBasedYear"))?;
                out.push_str(&format!("{:0n$}", d.iso_week().year(), n = *n));
            }
            Tok::Field('e', n) => {
                let d = date.ok_or_else(|| failed(name, "java.time.temporal.UnsupportedTemporalTypeException: Unsupported field: DayOfWeek"))?;
                // (Java's localized day of week; ISO formatters use Monday = 1.)
                out.push_str(&format!("{:0n$}", d.weekday().number_from_monday(), n = *n));
            }
            Tok::Field(c, n) => {
                let piece = if *c == 'X' && zone.is_some_and(|z| z.0 == 0) {
                    "Z".to_string()
                } else {
                    format_java(name, &c.to_string().repeat(*n), date, time, zone)?
                };
                out.push_str(&piece);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convert(s: &str, from: &str, to: &str) -> String {
        match run(
            "apoc.date.convertFormat",
            DateTextFn::DateConvertFormat,
            &[Value::from(s), Value::from(from), Value::from(to)],
        ) {
            Ok(v) => v.to_string(),
            Err(e) => format!("error: {}", e.message),
        }
    }

    #[test]
    fn formats_convert_as_apoc_converts_them() {
        assert_eq!(
            convert(
                "Tue, 14 May 2019 14:52:06 -0400",
                "rfc_1123_date_time",
                "iso_date_time"
            ),
            "'2019-05-14T14:52:06-04:00'"
        );
        assert_eq!(convert("2020-11-04", "date", "basic_date"), "'20201104'");
        assert_eq!(
            convert("2020-11-04T22", "date_hour", "date_hour_minute"),
            "'2020-11-04T22:00'"
        );
        assert_eq!(
            convert(
                "2019-05-14T14:52:06",
                "ISO_LOCAL_DATE_TIME",
                "dd/MM/yyyy HH:mm"
            ),
            "'14/05/2019 14:52'"
        );
        assert_eq!(
            convert("20190514", "basic_iso_date", "iso_local_date"),
            "'2019-05-14'"
        );
        assert_eq!(
            convert("2019-05-14", "yyyy-MM-dd", "EEEE dd MMMM yyyy"),
            "'Tuesday 14 May 2019'"
        );
        assert_eq!(
            convert(
                "2019-05-14T14:52:06",
                "iso_local_date_time",
                "iso_week_date"
            ),
            "'2019-W20-2'"
        );
        assert!(
            convert("2019-05-14", "iso_local_date", "iso_local_date_time")
                .contains("Unsupported field: HourOfDay")
        );
        assert!(convert("2019-05-14x", "iso_local_date", "iso_local_date")
            .contains("unparsed text found at index 10"));
    }
}
