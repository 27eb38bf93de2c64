//! Temporal values as Cypher functions see them: the components of a temporal value
//! (`d.year`, `dur.minutesOfHour`), and building values from the arguments of `date(…)`,
//! `datetime(…)`, `duration(…)`, `….truncate(…)`: maps, strings and other temporals. The
//! calendar arithmetic itself is in [`crate::temporal`], which knows nothing of [`Value`].

use crate::temporal::*;
use crate::value::Value;
use chrono::{
    Datelike, Duration as ChronoDuration, NaiveDate, NaiveTime, Offset, TimeZone, Timelike,
};
use std::collections::BTreeMap;
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Components

/// A component of a temporal value (`d.year`, `t.timezone`, `dur.minutesOfHour`).
pub fn component(t: &Temporal, key: &str) -> Option<crate::value::Value> {
    use crate::value::Value;
    let date = match t {
        Temporal::Date(d) => Some(*d),
        Temporal::LocalDateTime(dt) | Temporal::DateTime(dt, ..) => Some(dt.date()),
        _ => None,
    };
    let time = match t {
        Temporal::LocalTime(x) | Temporal::Time(x, _) => Some(*x),
        Temporal::LocalDateTime(dt) | Temporal::DateTime(dt, ..) => Some(dt.time()),
        _ => None,
    };
    let offset = match t {
        Temporal::Time(_, o) | Temporal::DateTime(_, o, _) => Some(*o),
        _ => None,
    };
    if let Temporal::Duration(d) = t {
        let total = d.total_nanos_of_time();
        let secs = d.seconds;
        let v = match key {
            "years" => d.months / 12,
            "quarters" => d.months / 3,
            "months" => d.months,
            "weeks" => d.days / 7,
            "days" => d.days,
            "hours" => (total / 3_600_000_000_000) as i64,
            "minutes" => (total / 60_000_000_000) as i64,
            "seconds" => secs,
            "milliseconds" => secs * 1000 + d.nanos / 1_000_000,
            "microseconds" => secs * 1_000_000 + d.nanos / 1000,
            "nanoseconds" => secs * 1_000_000_000 + d.nanos,
            "quartersOfYear" => (d.months % 12) / 3,
            "monthsOfQuarter" => d.months % 3,
            "monthsOfYear" => d.months % 12,
            "daysOfWeek" => d.days % 7,
            "minutesOfHour" => ((total / 60_000_000_000) % 60) as i64,
            "secondsOfMinute" => secs % 60,
            "millisecondsOfSecond" => d.nanos / 1_000_000,
            "microsecondsOfSecond" => d.nanos / 1000,
            "nanosecondsOfSecond" => d.nanos,
            _ => return None,
        };
        return Some(Value::Int(v));
    }
    let int = |v: i64| Some(Value::Int(v));
    match key {
        "year" => date.and_then(|d| int(d.year() as i64)),
        "quarter" => date.and_then(|d| int((d.month0() / 3 + 1) as i64)),
        "month" => date.and_then(|d| int(d.month() as i64)),
        "week" => date.and_then(|d| int(d.iso_week().week() as i64)),
        "weekYear" => date.and_then(|d| int(d.iso_week().year() as i64)),
        "dayOfQuarter" => date.and_then(|d| {
            let q0 = NaiveDate::from_ymd_opt(d.year(), d.month0() / 3 * 3 + 1, 1)?;
            int((d - q0).num_days() + 1)
        }),
        "day" => date.and_then(|d| int(d.day() as i64)),
        "ordinalDay" => date.and_then(|d| int(d.ordinal() as i64)),
        "dayOfWeek" | "weekDay" => date.and_then(|d| int(d.weekday().number_from_monday() as i64)),
        "hour" => time.and_then(|x| int(x.hour() as i64)),
        "minute" => time.and_then(|x| int(x.minute() as i64)),
        "second" => time.and_then(|x| int(x.second() as i64)),
        "millisecond" => time.and_then(|x| int((x.nanosecond() / 1_000_000) as i64)),
        "microsecond" => time.and_then(|x| int((x.nanosecond() / 1000) as i64)),
        "nanosecond" => time.and_then(|x| int(x.nanosecond() as i64)),
        "timezone" => match t {
            Temporal::DateTime(_, _, Some(z)) => Some(Value::String(z.clone())),
            _ => offset.map(|o| {
                let mut s = String::new();
                fmt_offset(&mut s, o);
                Value::from(s)
            }),
        },
        "offset" => offset.map(|o| {
            let mut s = String::new();
            fmt_offset(&mut s, o);
            if s == "Z" {
                s = "+00:00".into();
            }
            Value::from(s)
        }),
        "offsetMinutes" => offset.and_then(|o| int((o / 60) as i64)),
        "offsetSeconds" => offset.and_then(|o| int(o as i64)),
        "epochSeconds" | "epochMillis" => match t {
            Temporal::DateTime(dt, o, _) => {
                let utc = *dt - ChronoDuration::seconds(*o as i64);
                let s = utc.and_utc().timestamp();
                if key == "epochSeconds" {
                    int(s)
                } else {
                    int(s * 1000 + (utc.nanosecond() / 1_000_000) as i64)
                }
            }
            _ => None,
        },
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

// ---------------------------------------------------------------------------------------------
// Construction: `date(…)`, `localtime(…)`, `time(…)`, `localdatetime(…)`, `datetime(…)`

fn get_int(m: &BTreeMap<Arc<str>, Value>, k: &str) -> Result<Option<i64>, TemporalError> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Int(i)) => Ok(Some(*i)),
        Some(Value::Float(f)) if f.fract() == 0.0 => Ok(Some(*f as i64)),
        Some(other) => Err(TemporalError::NotInteger {
            key: k.to_string(),
            found: super::temporal_checks::value_class(other).to_string(),
        }),
    }
}

fn temporal_of(v: &Value) -> Option<&Temporal> {
    match v {
        Value::Temporal(t) => Some(t),
        _ => None,
    }
}

/// A date part, a time part, and an offset with its zone name, as a temporal has them.
type Parts = (
    Option<NaiveDate>,
    Option<NaiveTime>,
    Option<(i32, Option<Arc<str>>)>,
);

/// The date and time parts a base temporal contributes.
fn base_parts(t: &Temporal) -> Parts {
    match t {
        Temporal::Date(d) => (Some(*d), None, None),
        Temporal::LocalTime(x) => (None, Some(*x), None),
        Temporal::Time(x, o) => (None, Some(*x), Some((*o, None))),
        Temporal::LocalDateTime(dt) => (Some(dt.date()), Some(dt.time()), None),
        Temporal::DateTime(dt, o, z) => (Some(dt.date()), Some(dt.time()), Some((*o, z.clone()))),
        Temporal::Duration(_) => (None, None, None),
    }
}

pub(super) const DATE_KEYS: &[&str] = &[
    "year",
    "month",
    "day",
    "week",
    "dayOfWeek",
    "ordinalDay",
    "quarter",
    "dayOfQuarter",
];
pub(super) const TIME_KEYS: &[&str] = &[
    "hour",
    "minute",
    "second",
    "millisecond",
    "microsecond",
    "nanosecond",
];

/// Builds the date from map fields, over an optional base date.
fn date_from_map(
    m: &BTreeMap<Arc<str>, Value>,
    base: Option<NaiveDate>,
) -> Result<Option<NaiveDate>, TemporalError> {
    let bad = |what: &str| TemporalError::Invalid(format!("invalid date: {what}"));
    let any = DATE_KEYS.iter().any(|k| m.contains_key(*k));
    if !any {
        return Ok(base);
    }
    let year = match get_int(m, "year")? {
        Some(y) => y as i32,
        None => match base {
            Some(b) if m.contains_key("week") => b.iso_week().year(),
            Some(b) => b.year(),
            None => return Err(bad("year is required")),
        },
    };
    if let Some(week) = get_int(m, "week")? {
        let dow = match get_int(m, "dayOfWeek")? {
            Some(d) => d,
            None => base
                .map(|b| b.weekday().number_from_monday() as i64)
                .unwrap_or(1),
        };
        let wd = weekday(dow).ok_or_else(|| bad("dayOfWeek"))?;
        return NaiveDate::from_isoywd_opt(year, week as u32, wd)
            .map(Some)
            .ok_or_else(|| bad("week"));
    }
    if let Some(od) = get_int(m, "ordinalDay")? {
        return NaiveDate::from_yo_opt(year, od as u32)
            .map(Some)
            .ok_or_else(|| bad("ordinalDay"));
    }
    if let Some(q) = get_int(m, "quarter")? {
        let dq = match get_int(m, "dayOfQuarter")? {
            Some(d) => d,
            None => match base {
                Some(b) => {
                    let q0 = NaiveDate::from_ymd_opt(b.year(), b.month0() / 3 * 3 + 1, 1)
                        .ok_or_else(|| bad("base"))?;
                    (b - q0).num_days() + 1
                }
                None => 1,
            },
        };
        if !(1..=4).contains(&q) {
            return Err(bad("quarter"));
        }
        let start = NaiveDate::from_ymd_opt(year, (q as u32 - 1) * 3 + 1, 1)
            .ok_or_else(|| bad("quarter"))?;
        let d = start + ChronoDuration::days(dq - 1);
        if (d.month0() / 3) as i64 != q - 1 {
            return Err(bad("dayOfQuarter"));
        }
        return Ok(Some(d));
    }
    let month = match get_int(m, "month")? {
        Some(mo) => mo as u32,
        None => base.map(|b| b.month()).unwrap_or(1),
    };
    let day = match get_int(m, "day")? {
        Some(d) => d as u32,
        None => base.map(|b| b.day()).unwrap_or(1),
    };
    NaiveDate::from_ymd_opt(year, month, day)
        .map(Some)
        .ok_or_else(|| bad("no such day"))
}

fn time_from_map(
    m: &BTreeMap<Arc<str>, Value>,
    base: Option<NaiveTime>,
) -> Result<Option<NaiveTime>, TemporalError> {
    let any = TIME_KEYS.iter().any(|k| m.contains_key(*k));
    if !any {
        return Ok(base);
    }
    let b = base.unwrap_or(NaiveTime::MIN);
    let hour = get_int(m, "hour")?.unwrap_or(if base.is_some() { b.hour() as i64 } else { 0 });
    let minute =
        get_int(m, "minute")?.unwrap_or(if base.is_some() { b.minute() as i64 } else { 0 });
    let second =
        get_int(m, "second")?.unwrap_or(if base.is_some() { b.second() as i64 } else { 0 });
    let sub = ["millisecond", "microsecond", "nanosecond"];
    let nanos = if sub.iter().any(|k| m.contains_key(*k)) {
        let ms = get_int(m, "millisecond")?;
        let us = get_int(m, "microsecond")?;
        let ns = get_int(m, "nanosecond")?;
        let base_ns = b.nanosecond() as i64;
        let ms_v = ms.unwrap_or(if base.is_some() {
            base_ns / 1_000_000
        } else {
            0
        });
        let us_v = us.unwrap_or(if base.is_some() && ms.is_none() {
            base_ns / 1000 % 1000
        } else {
            0
        });
        let ns_v = ns.unwrap_or(if base.is_some() && ms.is_none() && us.is_none() {
            base_ns % 1000
        } else {
            0
        });
        if ms.is_some() && !(0..1000).contains(&ms_v)
            || us.is_some() && !(0..1_000_000).contains(&us_v) && ms.is_some()
        {
            return Err("invalid time: sub-second field out of range".into());
        }
        ms_v * 1_000_000 + us_v * 1000 + ns_v
    } else if base.is_some() {
        b.nanosecond() as i64
    } else {
        0
    };
    if !(0..1_000_000_000).contains(&nanos) {
        return Err("invalid time: nanosecond out of range".into());
    }
    NaiveTime::from_hms_nano_opt(hour as u32, minute as u32, second as u32, nanos as u32)
        .map(Some)
        .ok_or_else(|| "invalid time".into())
}

/// The temporal types' constructors: `date`, `localtime`, `time`, `localdatetime`,
/// `datetime` (bound when a call is compiled, with their functions `…truncate`,
/// `…statement`, …).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Date,
    LocalTime,
    Time,
    LocalDateTime,
    DateTime,
}

impl Kind {
    /// The constructor's name, as Cypher spells its functions (`localdatetime`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Date => "date",
            Kind::LocalTime => "localtime",
            Kind::Time => "time",
            Kind::LocalDateTime => "localdatetime",
            Kind::DateTime => "datetime",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `date(x)`, `localtime(x)`, `time(x)`, `localdatetime(x)`, `datetime(x)`: from a string, a
/// map, another temporal, or (no argument) now.
pub fn construct(kind: Kind, arg: Option<&Value>) -> Result<Option<Temporal>, TemporalError> {
    construct_at(kind, arg, now_utc())
}

/// [`construct`] with the clock's time given: `now` (UTC) is what "now" means.
pub fn construct_at(
    kind: Kind,
    arg: Option<&Value>,
    now: chrono::NaiveDateTime,
) -> Result<Option<Temporal>, TemporalError> {
    let Some(arg) = arg else {
        return Ok(Some(match kind {
            Kind::Date => Temporal::Date(now.date()),
            Kind::LocalTime => Temporal::LocalTime(now.time()),
            Kind::Time => Temporal::Time(now.time(), 0),
            Kind::LocalDateTime => Temporal::LocalDateTime(now),
            _ => Temporal::DateTime(now, 0, None),
        }));
    };
    match arg {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(match kind {
            Kind::Date => Temporal::Date(parse_date(s)?),
            Kind::LocalTime => parse_local_time_value(s)?,
            Kind::Time => parse_time(s)?,
            Kind::LocalDateTime => parse_local_datetime(s)?,
            _ => parse_datetime(s)?,
        })),
        Value::Temporal(t) => convert(kind, t, None).map(Some),
        Value::Map(m) => from_map(kind, m).map(Some),
        other => Err(format!("{kind}() cannot take {other}").into()),
    }
}

/// Converts a temporal to another kind, optionally into a time zone.
fn convert(kind: Kind, t: &Temporal, zone: Option<&str>) -> Result<Temporal, TemporalError> {
    let (d, tm, off) = base_parts(t);
    let need = |x: Option<NaiveDate>| {
        x.ok_or_else(|| format!("cannot make a {kind} from {}", t.type_name()))
    };
    Ok(match kind {
        Kind::Date => Temporal::Date(need(d)?),
        Kind::LocalTime => Temporal::LocalTime(
            tm.ok_or_else(|| format!("cannot make a localtime from {}", t.type_name()))?,
        ),
        Kind::Time => {
            let x = tm.ok_or_else(|| format!("cannot make a time from {}", t.type_name()))?;
            let (o, _) = off.unwrap_or((0, None));
            match zone {
                Some(z) => {
                    let date = d.unwrap_or_else(|| now_utc().date());
                    let (nz, _) = resolve_zone(z, &date.and_time(x))?;
                    let utc = date.and_time(x) - ChronoDuration::seconds(o as i64);
                    let local = utc + ChronoDuration::seconds(nz as i64);
                    Temporal::Time(local.time(), nz)
                }
                None => Temporal::Time(x, o),
            }
        }
        Kind::LocalDateTime => {
            Temporal::LocalDateTime(need(d)?.and_time(tm.unwrap_or(NaiveTime::MIN)))
        }
        _ => {
            let local = need(d)?.and_time(tm.unwrap_or(NaiveTime::MIN));
            match (off, zone) {
                (Some((o, _)), Some(z)) => {
                    let utc = local - ChronoDuration::seconds(o as i64);
                    let (nz, name) = resolve_zone(z, &utc)?;
                    // Named zones: the offset at the instant.
                    let nz = match &name {
                        Some(n) => {
                            let tz: chrono_tz::Tz = n
                                .parse()
                                .map_err(|_| TemporalError::UnknownZone(n.to_string()))?;
                            tz.offset_from_utc_datetime(&utc).fix().local_minus_utc()
                        }
                        None => nz,
                    };
                    Temporal::DateTime(utc + ChronoDuration::seconds(nz as i64), nz, name)
                }
                (Some((o, z0)), None) => Temporal::DateTime(local, o, z0),
                (None, Some(z)) => {
                    let (o, name) = resolve_zone(z, &local)?;
                    Temporal::DateTime(local, o, name)
                }
                (None, None) => Temporal::DateTime(local, 0, None),
            }
        }
    })
}

fn from_map(kind: Kind, m: &BTreeMap<Arc<str>, Value>) -> Result<Temporal, TemporalError> {
    let zone = match m.get("timezone") {
        None | Some(Value::Null) => None,
        Some(Value::String(z)) => Some(z.to_string()),
        Some(other) => return Err(format!("timezone must be a string, got {other}").into()),
    };
    // Epoch forms.
    if kind == Kind::DateTime && (m.contains_key("epochSeconds") || m.contains_key("epochMillis")) {
        let ns_extra = get_int(m, "nanosecond")?.unwrap_or(0);
        let (secs, nanos) = match get_int(m, "epochSeconds")? {
            Some(s) => (s, ns_extra),
            None => {
                let ms = get_int(m, "epochMillis")?.unwrap_or(0);
                (
                    ms.div_euclid(1000),
                    ms.rem_euclid(1000) * 1_000_000 + ns_extra,
                )
            }
        };
        let utc = chrono::DateTime::from_timestamp(secs, nanos as u32)
            .ok_or("epoch out of range")?
            .naive_utc();
        return match zone {
            Some(z) => convert(Kind::DateTime, &Temporal::DateTime(utc, 0, None), Some(&z)),
            None => Ok(Temporal::DateTime(utc, 0, None)),
        };
    }
    // A base temporal: `{date: d}`, `{time: t}`, `{datetime: dt}`, `{date: d, time: t}`.
    let base_key = |k: &str| m.get(k).and_then(temporal_of);
    let mut bdate = None;
    let mut btime = None;
    let mut boff: Option<(i32, Option<Arc<str>>)> = None;
    for k in ["datetime", "localdatetime", "date", "time", "localtime"] {
        if let Some(t) = base_key(k) {
            let (d, tm, off) = base_parts(t);
            if k != "time" && k != "localtime" {
                bdate = d.or(bdate);
            }
            if k != "date" || btime.is_none() {
                if k == "date" {
                    // `date:` contributes only the date, even from a datetime.
                } else {
                    btime = tm.or(btime);
                    if off.is_some() {
                        boff = off;
                    }
                }
            }
        }
    }
    let date = date_from_map(m, bdate)?;
    let time = time_from_map(m, btime)?;
    match kind {
        Kind::Date => Ok(Temporal::Date(
            date.ok_or("invalid date: year is required")?,
        )),
        Kind::LocalTime => Ok(Temporal::LocalTime(
            time.ok_or("invalid time: hour is required")?,
        )),
        Kind::LocalDateTime => Ok(Temporal::LocalDateTime(
            date.ok_or("invalid date: year is required")?
                .and_time(time.unwrap_or(NaiveTime::MIN)),
        )),
        Kind::Time => {
            let t = time.ok_or("invalid time: hour is required")?;
            match (boff, zone) {
                (Some((o, _)), Some(z)) => convert(Kind::Time, &Temporal::Time(t, o), Some(&z)),
                (Some((o, _)), None) => Ok(Temporal::Time(t, o)),
                (None, Some(z)) => {
                    let (o, _) = resolve_zone(&z, &now_utc().date().and_time(t))?;
                    Ok(Temporal::Time(t, o))
                }
                (None, None) => Ok(Temporal::Time(t, 0)),
            }
        }
        _ => {
            let local = date
                .ok_or("invalid date: year is required")?
                .and_time(time.unwrap_or(NaiveTime::MIN));
            match (boff, zone) {
                (Some((o, z0)), Some(z)) => {
                    // A time taken from a zoned value keeps its zone: its offset is the one in
                    // force on the new date (daylight saving may differ from the source's).
                    let o = match &z0 {
                        Some(name) => zone_offset(name, &local)?,
                        None => o,
                    };
                    convert(Kind::DateTime, &Temporal::DateTime(local, o, z0), Some(&z))
                }
                (Some((o, z0)), None) => match &z0 {
                    Some(name) => Ok(crate::temporal::in_zone(
                        local,
                        zone_offset(name, &local)?,
                        z0.clone(),
                    )),
                    None => Ok(Temporal::DateTime(local, o, None)),
                },
                (None, Some(z)) => {
                    let (o, name) = resolve_zone(&z, &local)?;
                    Ok(crate::temporal::in_zone(local, o, name))
                }
                (None, None) => Ok(Temporal::DateTime(local, 0, None)),
            }
        }
    }
}

/// Why `duration(x)` cannot make a duration.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DurationError {
    /// The months or days overflow a 64-bit integer (Neo4j's words, the values wrapped).
    #[error("Invalid value for duration, will cause overflow. Value was months={months}, days={days}, seconds=0, nanos=0")]
    Overflow { months: i64, days: i64 },
    /// Anything else (a text that is not a duration, a field it does not know, …).
    #[error("{0}")]
    Invalid(#[from] TemporalError),
}

impl From<String> for DurationError {
    fn from(s: String) -> Self {
        DurationError::Invalid(TemporalError::Invalid(s))
    }
}

/// `duration(x)`: from a map of components (fractions cascade) or an ISO 8601 string.
pub fn duration_from(arg: &Value) -> Result<Option<Duration>, DurationError> {
    match arg {
        Value::Null => Ok(None),
        Value::String(s) => Ok(parse_duration(s).map(Some)?),
        Value::Temporal(t) => match &**t {
            Temporal::Duration(d) => Ok(Some(*d)),
            other => Err(format!("duration() cannot take {}", other.type_name()).into()),
        },
        Value::Map(m) => {
            let f = |k: &str| -> Result<f64, TemporalError> {
                match m.get(k) {
                    None | Some(Value::Null) => Ok(0.0),
                    Some(Value::Int(i)) => Ok(*i as f64),
                    Some(Value::Float(x)) => Ok(*x),
                    Some(other) => Err(TemporalError::NotNumber {
                        key: k.to_string(),
                        found: super::temporal_checks::value_class(other).to_string(),
                    }),
                }
            };
            for k in m.keys() {
                if ![
                    "years",
                    "quarters",
                    "months",
                    "weeks",
                    "days",
                    "hours",
                    "minutes",
                    "seconds",
                    "milliseconds",
                    "microseconds",
                    "nanoseconds",
                ]
                .contains(&&**k)
                {
                    return Err(format!("unknown duration field {k}").into());
                }
            }
            let months = f("years")? * 12.0 + f("quarters")? * 3.0 + f("months")?;
            let days = f("weeks")? * 7.0 + f("days")?;
            if months.abs() >= 9.2e18 || days.abs() >= 9.2e18 {
                // Neo4j's words, with the months as Java's long arithmetic wraps them.
                let int = |k: &str| match m.get(k) {
                    Some(Value::Int(i)) => *i,
                    _ => 0,
                };
                let wrapped = int("years")
                    .wrapping_mul(12)
                    .wrapping_add(int("quarters").wrapping_mul(3))
                    .wrapping_add(int("months"));
                let wrapped_days = int("weeks").wrapping_mul(7).wrapping_add(int("days"));
                return Err(DurationError::Overflow {
                    months: wrapped,
                    days: wrapped_days,
                });
            }
            // Whole-number seconds and nanoseconds stay exact.
            let int = |k: &str| -> i64 {
                match m.get(k) {
                    Some(Value::Int(i)) => *i,
                    _ => 0,
                }
            };
            let exact_ns = int("hours") as i128 * 3_600_000_000_000
                + int("minutes") as i128 * 60_000_000_000
                + int("seconds") as i128 * 1_000_000_000
                + int("milliseconds") as i128 * 1_000_000
                + int("microseconds") as i128 * 1000
                + int("nanoseconds") as i128;
            let frac = |k: &str| -> f64 {
                match m.get(k) {
                    Some(Value::Float(x)) => *x,
                    _ => 0.0,
                }
            };
            let frac_secs = frac("hours") * 3600.0
                + frac("minutes") * 60.0
                + frac("seconds")
                + frac("milliseconds") / 1e3
                + frac("microseconds") / 1e6
                + frac("nanoseconds") / 1e9;
            let base = from_parts_f64(months, days, frac_secs);
            let secs = (exact_ns.div_euclid(1_000_000_000)) as i64;
            let nanos = (exact_ns.rem_euclid(1_000_000_000)) as i64;
            Ok(Some(base.add(&Duration::new(0, 0, secs, nanos))))
        }
        other => Err(format!("duration() cannot take {other}").into()),
    }
}

/// `X.truncate(unit, temporal, overrides)` for X in date, localtime, time, localdatetime,
/// datetime.
pub fn truncate(
    kind: Kind,
    unit: &str,
    t: &Temporal,
    overrides: Option<&BTreeMap<Arc<str>, Value>>,
) -> Result<Temporal, TemporalError> {
    let (d, tm, off) = base_parts(t);
    let date = d.unwrap_or_else(|| NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default());
    let local = date.and_time(tm.unwrap_or(NaiveTime::MIN));
    let date_units = [
        "millennium",
        "century",
        "decade",
        "year",
        "weekYear",
        "quarter",
        "month",
        "week",
        "day",
    ];
    if d.is_none() && date_units.contains(&unit) && unit != "day" {
        return Err(format!("cannot truncate a {} to {unit}", t.type_name()).into());
    }
    let tr = truncate_to(unit, local)?;
    let empty = BTreeMap::new();
    let ov = overrides.unwrap_or(&empty);
    // Overrides apply field by field on top of the truncated value.
    let new_date = if ov.keys().any(|k| DATE_KEYS.contains(&&**k)) {
        let mut m = ov.clone();
        if m.contains_key("dayOfWeek") && !m.contains_key("week") {
            // dayOfWeek within the truncated week.
            let dow = get_int(&m, "dayOfWeek")?.unwrap_or(1);
            m.remove("dayOfWeek");
            let base = tr.date();
            let shifted =
                base + ChronoDuration::days(dow - base.weekday().number_from_monday() as i64);
            date_from_map(&m, Some(shifted))?.unwrap_or(shifted)
        } else {
            date_from_map(&m, Some(tr.date()))?.unwrap_or(tr.date())
        }
    } else {
        tr.date()
    };
    let new_time = time_from_map(ov, Some(tr.time()))?.unwrap_or(tr.time());
    let local = new_date.and_time(new_time);
    let zone = match ov.get("timezone") {
        Some(Value::String(z)) => Some(z.to_string()),
        _ => None,
    };
    Ok(match kind {
        Kind::Date => Temporal::Date(local.date()),
        Kind::LocalTime => Temporal::LocalTime(local.time()),
        Kind::LocalDateTime => Temporal::LocalDateTime(local),
        Kind::Time => {
            let o = match (&zone, &off) {
                (Some(z), _) => resolve_zone(z, &local)?.0,
                (None, Some((o, _))) => *o,
                _ => 0,
            };
            Temporal::Time(local.time(), o)
        }
        _ => match (&zone, off) {
            (Some(z), _) => {
                let (o, name) = resolve_zone(z, &local)?;
                crate::temporal::in_zone(local, o, name)
            }
            (None, Some((_, Some(name)))) => {
                crate::temporal::in_zone(local, zone_offset(&name, &local)?, Some(name))
            }
            (None, Some((o, None))) => Temporal::DateTime(local, o, None),
            (None, None) => Temporal::DateTime(local, 0, None),
        },
    })
}
