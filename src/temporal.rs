//! Cypher's temporal values: `DATE`, `LOCAL TIME`, `ZONED TIME`, `LOCAL DATETIME`,
//! `ZONED DATETIME` and `DURATION`, with Neo4j's text forms, ISO 8601 parsing, arithmetic,
//! truncation and `duration.between`. This module knows nothing of Cypher values: building
//! temporals from function arguments and reading their components is the engine's
//! (`engine::temporal_values`).
//!
//! Calendar arithmetic is chrono's (proleptic Gregorian, ISO weeks); named time zones come from
//! chrono-tz's copy of the IANA database.
//!
//! ```
//! use grape::temporal::{between, parse_date, parse_datetime, parse_duration, plus, Temporal};
//!
//! let jan31 = Temporal::Date(parse_date("2024-01-31").unwrap());
//! let month = parse_duration("P1M").unwrap();
//! assert_eq!(plus(&jan31, &month).unwrap().to_string(), "2024-02-29");
//! let mar15 = Temporal::Date(parse_date("2024-03-15").unwrap());
//! let gap = between(&jan31, &mar15, "").unwrap(); // duration.between
//! assert_eq!(Temporal::Duration(gap).to_string(), "P1M15D");
//! let t = parse_datetime("2024-05-17T10:11:00.5+01:00").unwrap();
//! assert_eq!(t.type_name(), "ZONED DATETIME");
//! assert_eq!(t.to_neo4j_string(), "2024-05-17T10:11:00.5+01:00");
//! ```
//!
//! # Layout
//!
//! The calendar: text forms, parsing, arithmetic, truncation, `between`. It imports nothing of
//! grape's: `value` uses it, not the other way round.

use chrono::{
    Datelike, Duration as ChronoDuration, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Offset,
    TimeZone, Timelike, Weekday,
};
use std::cmp::Ordering;
use std::fmt::Write as _;
use std::sync::Arc;

/// Why a temporal value could not be made: the variants the engine reports in Neo4j's words of
/// their own; every other problem as its message.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TemporalError {
    /// A zone name the time-zone database does not know.
    #[error("unknown time zone {0:?}")]
    UnknownZone(String),
    /// An offset that is not one (`+19:00`, `+1x`).
    #[error("invalid offset {0:?}")]
    InvalidOffset(String),
    /// A truncation unit that is none of Neo4j's.
    #[error("unknown truncation unit {0:?}")]
    UnknownUnit(String),
    /// A map field that must be an integer.
    #[error("{key} must be an integer value, but was a {found}")]
    NotInteger { key: String, found: String },
    /// A map field that must be a number.
    #[error("{key} must be a number value, but was a {found}")]
    NotNumber { key: String, found: String },
    /// Anything else, in grape's words.
    #[error("{0}")]
    Invalid(String),
}

impl From<String> for TemporalError {
    fn from(s: String) -> Self {
        TemporalError::Invalid(s)
    }
}

impl From<&str> for TemporalError {
    fn from(s: &str) -> Self {
        TemporalError::Invalid(s.to_string())
    }
}

impl From<TemporalError> for String {
    fn from(e: TemporalError) -> Self {
        e.to_string()
    }
}

/// A Neo4j duration: months, days, seconds and nanoseconds, kept apart (a month has no fixed
/// number of days, a day no fixed number of seconds across DST).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Duration {
    pub months: i64,
    pub days: i64,
    pub seconds: i64,
    /// 0..1_000_000_000 after normalisation.
    pub nanos: i64,
}

impl Duration {
    pub fn new(months: i64, days: i64, seconds: i64, nanos: i64) -> Duration {
        let extra = nanos.div_euclid(1_000_000_000);
        Duration {
            months,
            days,
            seconds: seconds + extra,
            nanos: nanos.rem_euclid(1_000_000_000),
        }
    }
    pub(crate) fn total_nanos_of_time(&self) -> i128 {
        self.seconds as i128 * 1_000_000_000 + self.nanos as i128
    }
    pub fn neg(&self) -> Duration {
        Duration::new(-self.months, -self.days, -self.seconds, -self.nanos)
    }
    pub fn add(&self, o: &Duration) -> Duration {
        Duration::new(
            self.months + o.months,
            self.days + o.days,
            self.seconds + o.seconds,
            self.nanos + o.nanos,
        )
    }
    /// Multiplies by an integer, exactly; `None` on overflow.
    pub fn mul_int(&self, k: i64) -> Option<Duration> {
        Some(Duration::new(
            self.months.checked_mul(k)?,
            self.days.checked_mul(k)?,
            self.seconds.checked_mul(k)?,
            self.nanos.checked_mul(k)?,
        ))
    }
    /// Multiplies by a float; each unit is scaled on its own and its fraction cascades to the
    /// smaller units (a month as 365.2425 / 12 days, a day as 86,400 seconds), truncating, as
    /// Neo4j's `DurationValue` does.
    pub fn mul(&self, f: f64) -> Duration {
        approximate(
            self.months as f64 * f,
            self.days as f64 * f,
            self.seconds as f64 * f,
            self.nanos as f64 * f,
        )
    }
    /// Divides by a number, as [`Duration::mul`] does (each unit divided on its own).
    pub fn div(&self, f: f64) -> Duration {
        approximate(
            self.months as f64 / f,
            self.days as f64 / f,
            self.seconds as f64 / f,
            self.nanos as f64 / f,
        )
    }
}

/// Neo4j's `DurationValue.approximate`: whole units kept, fractions moved down, nanoseconds
/// truncated.
fn approximate(months: f64, days: f64, seconds: f64, nanos: f64) -> Duration {
    const AVG_DAYS_PER_MONTH: f64 = 365.2425 / 12.0;
    let m = months.trunc();
    let days = days + AVG_DAYS_PER_MONTH * (months - m);
    let d = days.trunc();
    let seconds = seconds + 86_400.0 * (days - d);
    let s = seconds.trunc();
    let nanos = nanos + 1e9 * (seconds - s);
    Duration::new(m as i64, d as i64, s as i64, nanos.trunc() as i64)
}

const AVG_MONTH_SECONDS: f64 = 2_629_746.0; // 30.436875 days

pub(crate) fn from_parts_f64(months: f64, days: f64, seconds: f64) -> Duration {
    let m = months.trunc();
    let days = days + (months - m) * AVG_MONTH_SECONDS / 86_400.0;
    let d = days.trunc();
    let seconds = seconds + (days - d) * 86_400.0;
    let s = seconds.trunc();
    let nanos = ((seconds - s) * 1e9).round();
    Duration::new(m as i64, d as i64, s as i64, nanos as i64)
}

/// A temporal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Temporal {
    Date(NaiveDate),
    LocalTime(NaiveTime),
    /// A time with a UTC offset in seconds.
    Time(NaiveTime, i32),
    LocalDateTime(NaiveDateTime),
    /// A local date-time, its UTC offset in seconds, and the zone id when it was named.
    DateTime(NaiveDateTime, i32, Option<Arc<str>>),
    Duration(Duration),
}

impl std::hash::Hash for Temporal {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.to_string().hash(state)
    }
}

impl Temporal {
    /// The Cypher type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Temporal::Date(_) => "DATE",
            Temporal::LocalTime(_) => "LOCAL TIME",
            Temporal::Time(..) => "ZONED TIME",
            Temporal::LocalDateTime(_) => "LOCAL DATETIME",
            Temporal::DateTime(..) => "ZONED DATETIME",
            Temporal::Duration(_) => "DURATION",
        }
    }

    /// Rank in the ORDER BY order across temporal types.
    pub(crate) fn rank(&self) -> u8 {
        match self {
            Temporal::DateTime(..) => 0,
            Temporal::LocalDateTime(_) => 1,
            Temporal::Date(_) => 2,
            Temporal::Time(..) => 3,
            Temporal::LocalTime(_) => 4,
            Temporal::Duration(_) => 5,
        }
    }

    /// Comparison between values of the same type (instants for zoned values); `None` for
    /// different types and for durations, which do not order.
    pub fn compare(&self, o: &Temporal) -> Option<Ordering> {
        match (self, o) {
            (Temporal::Date(a), Temporal::Date(b)) => Some(a.cmp(b)),
            (Temporal::LocalTime(a), Temporal::LocalTime(b)) => Some(a.cmp(b)),
            (Temporal::Time(a, oa), Temporal::Time(b, ob)) => {
                let ua = a.num_seconds_from_midnight() as i64 - *oa as i64;
                let ub = b.num_seconds_from_midnight() as i64 - *ob as i64;
                Some(ua.cmp(&ub).then(a.nanosecond().cmp(&b.nanosecond())))
            }
            (Temporal::LocalDateTime(a), Temporal::LocalDateTime(b)) => Some(a.cmp(b)),
            (Temporal::DateTime(a, oa, _), Temporal::DateTime(b, ob, _)) => {
                let ua = *a - ChronoDuration::seconds(*oa as i64);
                let ub = *b - ChronoDuration::seconds(*ob as i64);
                Some(ua.cmp(&ub))
            }
            _ => None,
        }
    }

    /// Equality as Cypher's `=` sees it.
    pub fn equals(&self, o: &Temporal) -> bool {
        match (self, o) {
            (Temporal::Duration(a), Temporal::Duration(b)) => a == b,
            (Temporal::DateTime(..), Temporal::DateTime(..))
            | (Temporal::Time(..), Temporal::Time(..)) => self.compare(o) == Some(Ordering::Equal),
            _ => self == o,
        }
    }
}

pub(crate) fn fmt_offset(out: &mut String, secs: i32) {
    if secs == 0 {
        out.push('Z');
        return;
    }
    let sign = if secs < 0 { '-' } else { '+' };
    let a = secs.abs();
    let _ = write!(out, "{sign}{:02}:{:02}", a / 3600, (a % 3600) / 60);
    if a % 60 != 0 {
        let _ = write!(out, ":{:02}", a % 60);
    }
}

fn fmt_date(out: &mut String, d: &NaiveDate) {
    let y = d.year();
    if (0..=9999).contains(&y) {
        let _ = write!(out, "{y:04}");
    } else {
        let _ = write!(out, "{}{:04}", if y < 0 { '-' } else { '+' }, y.abs());
    }
    let _ = write!(out, "-{:02}-{:02}", d.month(), d.day());
}

fn fmt_time(out: &mut String, t: &NaiveTime) {
    let _ = write!(out, "{:02}:{:02}", t.hour(), t.minute());
    let ns = t.nanosecond() % 1_000_000_000;
    if t.second() != 0 || ns != 0 {
        let _ = write!(out, ":{:02}", t.second());
    }
    if ns != 0 {
        if ns.is_multiple_of(1_000_000) {
            let _ = write!(out, ".{:03}", ns / 1_000_000);
        } else if ns.is_multiple_of(1000) {
            let _ = write!(out, ".{:06}", ns / 1000);
        } else {
            let _ = write!(out, ".{ns:09}");
        }
    }
}

fn fmt_duration(out: &mut String, d: &Duration) {
    out.push('P');
    let years = d.months / 12;
    let months = d.months % 12;
    if years != 0 {
        let _ = write!(out, "{years}Y");
    }
    if months != 0 {
        let _ = write!(out, "{months}M");
    }
    if d.days != 0 {
        let _ = write!(out, "{}D", d.days);
    }
    let total = d.total_nanos_of_time();
    if total != 0 {
        out.push('T');
        let neg = total < 0;
        let abs = total.unsigned_abs();
        let secs = abs / 1_000_000_000;
        let nanos = abs % 1_000_000_000;
        let hours = secs / 3600;
        let minutes = (secs % 3600) / 60;
        let s = secs % 60;
        let sign = if neg { "-" } else { "" };
        if hours != 0 {
            let _ = write!(out, "{sign}{hours}H");
        }
        if minutes != 0 {
            let _ = write!(out, "{sign}{minutes}M");
        }
        if s != 0 || nanos != 0 {
            if nanos == 0 {
                let _ = write!(out, "{sign}{s}S");
            } else {
                let frac = format!("{nanos:09}");
                let _ = write!(out, "{sign}{s}.{}S", frac.trim_end_matches('0'));
            }
        }
    } else if years == 0 && months == 0 && d.days == 0 {
        out.push_str("T0S");
    }
}

/// A time as Neo4j's `toString()` writes it: seconds always, a fraction with the digits it
/// needs (`10:11:00`, `10:11:00.5`, `10:11:12.000000001`).
fn fmt_time_full(out: &mut String, t: &NaiveTime) {
    let _ = write!(out, "{:02}:{:02}:{:02}", t.hour(), t.minute(), t.second());
    let ns = t.nanosecond() % 1_000_000_000;
    if ns != 0 {
        let digits = format!("{ns:09}");
        let _ = write!(out, ".{}", digits.trim_end_matches('0'));
    }
}

impl Temporal {
    /// The text Neo4j 5's `toString()` gives (checked against the Neo4j 5.26 oracle): times
    /// always with seconds and a fraction as long as it needs to be (`10:11:00Z`,
    /// `2024-05-17T10:11:00.5+01:00`, `2024-05-17T10:11:00+02:00[Europe/Oslo]`); dates and
    /// durations as [`Display`](std::fmt::Display) writes them.
    pub fn to_neo4j_string(&self) -> String {
        self.text(fmt_time_full)
    }

    /// The text form, times written by `time`.
    fn text(&self, time: fn(&mut String, &NaiveTime)) -> String {
        let mut s = String::new();
        match self {
            Temporal::Date(d) => fmt_date(&mut s, d),
            Temporal::LocalTime(t) => time(&mut s, t),
            Temporal::Time(t, o) => {
                time(&mut s, t);
                fmt_offset(&mut s, *o);
            }
            Temporal::LocalDateTime(dt) => {
                fmt_date(&mut s, &dt.date());
                s.push('T');
                time(&mut s, &dt.time());
            }
            Temporal::DateTime(dt, o, z) => {
                fmt_date(&mut s, &dt.date());
                s.push('T');
                time(&mut s, &dt.time());
                fmt_offset(&mut s, *o);
                if let Some(z) = z {
                    let _ = write!(s, "[{z}]");
                }
            }
            Temporal::Duration(d) => fmt_duration(&mut s, d),
        }
        s
    }
}

impl std::fmt::Display for Temporal {
    /// Neo4j's text form (`2015-07-21`, `12:31:14.645876123+01:00`, `P1Y2M3DT4H`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(fmt_time))
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing ISO 8601 text

fn num(s: &str) -> Result<i64, TemporalError> {
    s.parse::<i64>()
        .map_err(|_| TemporalError::Invalid(format!("invalid number {s:?}")))
}

/// Parses a date: `2015-07-21`, `20150721`, `2015-07`, `201507`, `2015-W30-2`, `2015W302`,
/// `2015-W30`, `2015-202`, `2015202`, `2015`, with an optional sign and more than 4 digits for
/// years beyond 9999.
pub fn parse_date(s: &str) -> Result<NaiveDate, TemporalError> {
    let bad = || TemporalError::Invalid(format!("invalid date {s:?}"));
    let (sign, body) = match s.as_bytes().first() {
        Some(b'+') => (1, &s[1..]),
        Some(b'-') => (-1, &s[1..]),
        _ => (1, s),
    };
    let ydigits = body.bytes().take_while(|b| b.is_ascii_digit()).count();
    // Compact forms without separators: YYYYMMDD, YYYYDDD, YYYYMM; with a week: YYYYWwwD.
    let ylen = if ydigits == body.len() {
        match ydigits {
            6..=8 => 4,
            n => n,
        }
    } else if body[ydigits..].starts_with(['W', 'w']) || body[ydigits..].starts_with('-') {
        ydigits
    } else {
        4.min(ydigits)
    };
    if ylen < 4 {
        return Err(bad());
    }
    let year = sign * num(&body[..ylen])?;
    let year = i32::try_from(year).map_err(|_| bad())?;
    let rest = &body[ylen..];
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let rest_w = rest.strip_prefix('w').map(|r| format!("W{r}"));
    let rest = rest_w.as_deref().unwrap_or(rest);
    if rest.is_empty() {
        return NaiveDate::from_ymd_opt(year, 1, 1).ok_or_else(bad);
    }
    if let Some(w) = rest.strip_prefix('W') {
        let w2 = w.replace('-', "");
        let (week, dow) = match w2.len() {
            2 => (num(&w2)?, 1),
            3 => (num(&w2[..2])?, num(&w2[2..])?),
            _ => return Err(bad()),
        };
        let wd = weekday(dow).ok_or_else(bad)?;
        return NaiveDate::from_isoywd_opt(year, week as u32, wd).ok_or_else(bad);
    }
    let digits: String = rest.chars().filter(|c| *c != '-').collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match (digits.len(), rest.contains('-')) {
        (2, _) => NaiveDate::from_ymd_opt(year, num(&digits)? as u32, 1).ok_or_else(bad),
        (3, _) => NaiveDate::from_yo_opt(year, num(&digits)? as u32).ok_or_else(bad),
        (4, _) => {
            NaiveDate::from_ymd_opt(year, num(&digits[..2])? as u32, num(&digits[2..])? as u32)
                .ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

pub(crate) fn weekday(d: i64) -> Option<Weekday> {
    Some(match d {
        1 => Weekday::Mon,
        2 => Weekday::Tue,
        3 => Weekday::Wed,
        4 => Weekday::Thu,
        5 => Weekday::Fri,
        6 => Weekday::Sat,
        7 => Weekday::Sun,
        _ => return None,
    })
}

/// Parses `21:40:32.142`, `214032.142`, `21:40`, `2140`, `21`; fractions use `.` or `,`.
fn parse_local_time(s: &str) -> Result<NaiveTime, TemporalError> {
    let bad = || TemporalError::Invalid(format!("invalid time {s:?}"));
    let (main, frac) = match s.find(['.', ',']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let digits: String = main.chars().filter(|c| *c != ':').collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let (h, m, sec) = match digits.len() {
        2 => (num(&digits)?, 0, 0),
        4 => (num(&digits[..2])?, num(&digits[2..])?, 0),
        6 => (num(&digits[..2])?, num(&digits[2..4])?, num(&digits[4..])?),
        _ => return Err(bad()),
    };
    let nanos = match frac {
        Some(f) if !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()) => {
            num(&format!("{f:0<9}"))?
        }
        Some(_) => return Err(bad()),
        None => 0,
    };
    NaiveTime::from_hms_nano_opt(h as u32, m as u32, sec as u32, nanos as u32).ok_or_else(bad)
}

/// A UTC offset in seconds from its text (`Z`, `+01:00`, `+0100`, `+01`, `-08:30:15`).
pub fn parse_offset_text(s: &str) -> Option<i32> {
    parse_offset(s).ok()
}

/// A UTC offset: `Z`, `+01:00`, `+0100`, `+01`, `-08:30:15`.
fn parse_offset(s: &str) -> Result<i32, TemporalError> {
    if s == "Z" || s == "z" {
        return Ok(0);
    }
    let bad = || TemporalError::InvalidOffset(s.to_string());
    let sign = match s.as_bytes().first() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return Err(bad()),
    };
    let digits: String = s[1..].chars().filter(|c| *c != ':').collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let (h, m, sec) = match digits.len() {
        2 => (num(&digits)?, 0, 0),
        4 => (num(&digits[..2])?, num(&digits[2..])?, 0),
        6 => (num(&digits[..2])?, num(&digits[2..4])?, num(&digits[4..])?),
        _ => return Err(bad()),
    };
    if h > 18 || m > 59 || sec > 59 {
        return Err(bad());
    }
    Ok(sign * (h * 3600 + m * 60 + sec) as i32)
}

/// Splits a zone suffix: `+01:00[Europe/Stockholm]`, `Z`, `+0100`, `[Europe/Stockholm]`.
fn split_zone(s: &str) -> (&str, Option<&str>, Option<&str>) {
    let (head, name) = match s.find('[') {
        Some(i) => (&s[..i], Some(s[i + 1..].trim_end_matches(']'))),
        None => (s, None),
    };
    // The offset starts at the last '+' / '-' / 'Z' after the time's digits.
    if let Some(i) = head.rfind(['+', '-', 'Z', 'z']) {
        if i > 0 {
            return (&head[..i], Some(&head[i..]), name);
        }
    }
    (head, None, name)
}

/// The offset of a named zone at a local date-time (the earlier one when ambiguous).
pub fn zone_offset(zone: &str, local: &NaiveDateTime) -> Result<i32, TemporalError> {
    let tz: chrono_tz::Tz = zone
        .parse()
        .map_err(|_| TemporalError::UnknownZone(zone.to_string()))?;
    match tz.offset_from_local_datetime(local) {
        chrono::LocalResult::Single(o) => Ok(o.fix().local_minus_utc()),
        chrono::LocalResult::Ambiguous(a, _) => Ok(a.fix().local_minus_utc()),
        chrono::LocalResult::None => {
            // In a gap: use the offset just before it.
            let before = *local - ChronoDuration::hours(2);
            Ok(tz
                .offset_from_local_datetime(&before)
                .earliest()
                .map(|o| o.fix().local_minus_utc())
                .unwrap_or(0))
        }
    }
}

/// A date-time in a named zone as Java's `ZonedDateTime` holds it (Neo4j's): `local` read with
/// `offset` gives an instant, and the zone's local time and offset at that instant are kept. So
/// a local time in a daylight-saving gap moves later by the gap's length (02:30 on the night
/// clocks go forward is 03:30 in the summer offset, when `offset` is the one before the gap, as
/// [`zone_offset`] gives it), and in an overlap the given offset stays.
pub fn in_zone(local: NaiveDateTime, offset: i32, zone: Option<Arc<str>>) -> Temporal {
    let Some(name) = zone else {
        return Temporal::DateTime(local, offset, None);
    };
    let Ok(tz) = name.parse::<chrono_tz::Tz>() else {
        return Temporal::DateTime(local, offset, Some(name));
    };
    let utc = local - ChronoDuration::seconds(i64::from(offset));
    let at = tz.from_utc_datetime(&utc);
    let o = at.offset().fix().local_minus_utc();
    Temporal::DateTime(at.naive_local(), o, Some(name))
}

/// The offset of zone `zone` at `local`, `preferred` when it is one of the two of an overlap
/// (Java's `ZonedDateTime.ofLocal` with a preferred offset).
fn offset_preferring(
    zone: &str,
    local: &NaiveDateTime,
    preferred: i32,
) -> Result<i32, TemporalError> {
    if let Ok(tz) = zone.parse::<chrono_tz::Tz>() {
        if let chrono::LocalResult::Ambiguous(a, b) = tz.offset_from_local_datetime(local) {
            let (a, b) = (a.fix().local_minus_utc(), b.fix().local_minus_utc());
            return Ok(if preferred == b { b } else { a });
        }
    }
    zone_offset(zone, local)
}

/// Parses a zone designation (`+01:00`, `Z`, `Europe/Stockholm`) for a local date-time.
pub fn resolve_zone(
    zone: &str,
    local: &NaiveDateTime,
) -> Result<(i32, Option<Arc<str>>), TemporalError> {
    match parse_offset(zone) {
        Ok(o) => Ok((o, None)),
        Err(_) => Ok((zone_offset(zone, local)?, Some(Arc::from(zone)))),
    }
}

pub fn parse_time(s: &str) -> Result<Temporal, TemporalError> {
    let (t, off, name) = split_zone(s);
    let time = parse_local_time(t)?;
    let date = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default();
    let offset = match (off, name) {
        (Some(o), _) => parse_offset(o)?,
        (None, Some(z)) => zone_offset(z, &date.and_time(time))?,
        (None, None) => 0,
    };
    Ok(Temporal::Time(time, offset))
}

pub fn parse_local_time_value(s: &str) -> Result<Temporal, TemporalError> {
    Ok(Temporal::LocalTime(parse_local_time(s)?))
}

fn split_t(s: &str) -> (&str, Option<&str>) {
    match s.find(['T', 't']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    }
}

pub fn parse_local_datetime(s: &str) -> Result<Temporal, TemporalError> {
    let (d, t) = split_t(s);
    let date = parse_date(d)?;
    let time = match t {
        Some(t) => parse_local_time(t)?,
        None => NaiveTime::MIN,
    };
    Ok(Temporal::LocalDateTime(date.and_time(time)))
}

pub fn parse_datetime(s: &str) -> Result<Temporal, TemporalError> {
    let (d, t) = split_t(s);
    let date = parse_date(d)?;
    let (time, off, name) = match t {
        Some(t) => {
            let (tt, off, name) = split_zone(t);
            (parse_local_time(tt)?, off, name)
        }
        None => (NaiveTime::MIN, None, None),
    };
    let local = date.and_time(time);
    let (offset, zone) = match (off, name) {
        (_, Some(z)) => {
            let mut o = zone_offset(z, &local)?;
            if let Some(given) = off {
                let g = parse_offset(given)?;
                // In an overlap either offset names the local time.
                o = offset_preferring(z, &local, g)?;
                if g != o {
                    return Err(format!("offset {given} does not match zone {z}").into());
                }
            }
            (o, Some(Arc::from(z)))
        }
        (Some(o), None) => (parse_offset(o)?, None),
        (None, None) => (0, None),
    };
    Ok(in_zone(local, offset, zone))
}

/// Parses `P1Y2M3W4DT5H6M7.5S` (fractions allowed) or `P2012-02-02T14:37:21.545`.
pub fn parse_duration(s: &str) -> Result<Duration, TemporalError> {
    let bad = || TemporalError::Invalid(format!("invalid duration {s:?}"));
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let body = body.strip_prefix(['P', 'p']).ok_or_else(bad)?;
    if body.contains('-') && !body.contains(['Y', 'M', 'W', 'D', 'H', 'S']) || body.contains(':') {
        // Alternative format: P2012-02-02T14:37:21.545
        let (d, t) = split_t(body);
        let parts: Vec<&str> = d.split('-').collect();
        let (y, mo, da) = match parts.as_slice() {
            [y, m, d] => (num(y)?, num(m)?, num(d)?),
            _ => return Err(bad()),
        };
        let (h, mi, sec, ns) = match t {
            Some(t) => {
                let lt = parse_local_time(t)?;
                (
                    lt.hour() as i64,
                    lt.minute() as i64,
                    lt.second() as i64,
                    lt.nanosecond() as i64,
                )
            }
            None => (0, 0, 0, 0),
        };
        let d = Duration::new(y * 12 + mo, da, h * 3600 + mi * 60 + sec, ns);
        return Ok(if neg { d.neg() } else { d });
    }
    let (date_part, time_part) = split_t(body);
    let (mut months, mut days, mut seconds) = (0.0f64, 0.0f64, 0.0f64);
    let mut any = false;
    let mut scan = |part: &str, time: bool| -> Result<(), TemporalError> {
        let mut numbuf = String::new();
        for c in part.chars() {
            if c.is_ascii_digit() || c == '.' || c == ',' || c == '-' || c == '+' {
                numbuf.push(if c == ',' { '.' } else { c });
                continue;
            }
            let v: f64 = numbuf.parse().map_err(|_| bad())?;
            numbuf.clear();
            any = true;
            match (c.to_ascii_uppercase(), time) {
                ('Y', false) => months += v * 12.0,
                ('M', false) => months += v,
                ('W', false) => days += v * 7.0,
                ('D', false) => days += v,
                ('H', true) => seconds += v * 3600.0,
                ('M', true) => seconds += v * 60.0,
                ('S', true) => seconds += v,
                _ => return Err(bad()),
            }
        }
        if numbuf.is_empty() {
            Ok(())
        } else {
            Err(bad())
        }
    };
    scan(date_part, false)?;
    if let Some(t) = time_part {
        scan(t, true)?;
    }
    if !any {
        return Err(bad());
    }
    let d = from_parts_f64(months, days, seconds);
    Ok(if neg { d.neg() } else { d })
}

fn add_months(d: NaiveDate, months: i64) -> Option<NaiveDate> {
    let total = d.year() as i64 * 12 + d.month0() as i64 + months;
    let y = total.div_euclid(12) as i32;
    let m = total.rem_euclid(12) as u32 + 1;
    let last = last_day(y, m)?;
    NaiveDate::from_ymd_opt(y, m, d.day().min(last))
}

fn last_day(y: i32, m: u32) -> Option<u32> {
    let next = if m == 12 {
        NaiveDate::from_ymd_opt(y + 1, 1, 1)?
    } else {
        NaiveDate::from_ymd_opt(y, m + 1, 1)?
    };
    Some((next - ChronoDuration::days(1)).day())
}

fn shift_datetime(dt: NaiveDateTime, d: &Duration) -> Option<NaiveDateTime> {
    let date = add_months(dt.date(), d.months)?;
    let date = date.checked_add_signed(ChronoDuration::days(d.days))?;
    date.and_time(dt.time()).checked_add_signed(
        ChronoDuration::seconds(d.seconds) + ChronoDuration::nanoseconds(d.nanos),
    )
}

fn shift_time(t: NaiveTime, d: &Duration) -> NaiveTime {
    let (t2, _) = t.overflowing_add_signed(
        ChronoDuration::seconds(d.seconds) + ChronoDuration::nanoseconds(d.nanos),
    );
    t2
}

/// `temporal + duration`.
pub fn plus(t: &Temporal, d: &Duration) -> Result<Temporal, TemporalError> {
    let overflow = || "temporal value out of range".to_string();
    Ok(match t {
        Temporal::Date(x) => {
            // A date takes the months, the days, and the whole days of the seconds
            // (truncated toward zero), as Neo4j adds a duration to a date.
            let days = d
                .days
                .checked_add(d.seconds / 86_400)
                .ok_or_else(overflow)?;
            let dt = shift_datetime(
                x.and_time(NaiveTime::MIN),
                &Duration::new(d.months, days, 0, 0),
            )
            .ok_or_else(overflow)?;
            Temporal::Date(dt.date())
        }
        Temporal::LocalTime(x) => Temporal::LocalTime(shift_time(*x, d)),
        Temporal::Time(x, o) => Temporal::Time(shift_time(*x, d), *o),
        Temporal::LocalDateTime(x) => {
            Temporal::LocalDateTime(shift_datetime(*x, d).ok_or_else(overflow)?)
        }
        Temporal::DateTime(x, o, z) => match z {
            // As Java's ZonedDateTime: months and days move the local date-time (its offset
            // kept where still valid), seconds and nanoseconds move the instant.
            Some(zone) => {
                let local = shift_datetime(*x, &Duration::new(d.months, d.days, 0, 0))
                    .ok_or_else(overflow)?;
                let off = offset_preferring(zone, &local, *o)?;
                let local = local
                    .checked_add_signed(
                        ChronoDuration::seconds(d.seconds) + ChronoDuration::nanoseconds(d.nanos),
                    )
                    .ok_or_else(overflow)?;
                in_zone(local, off, Some(zone.clone()))
            }
            None => Temporal::DateTime(shift_datetime(*x, d).ok_or_else(overflow)?, *o, None),
        },
        Temporal::Duration(a) => Temporal::Duration(a.add(d)),
    })
}

fn months_between(a: NaiveDateTime, b: NaiveDateTime) -> i64 {
    let mut m = (b.year() as i64 - a.year() as i64) * 12 + b.month() as i64 - a.month() as i64;
    // Do not count a month that is not complete.
    let a_rest = (a.day(), a.time());
    let b_rest = (b.day(), b.time());
    if m > 0 && b_rest < a_rest {
        m -= 1;
    } else if m < 0 && b_rest > a_rest {
        m += 1;
    }
    m
}

/// The local date-time of a temporal, its instant offset, and whether it has a date/time part.
fn parts(t: &Temporal) -> Option<(Option<NaiveDate>, Option<NaiveTime>, Option<i32>)> {
    Some(match t {
        Temporal::Date(d) => (Some(*d), None, None),
        Temporal::LocalTime(x) => (None, Some(*x), None),
        Temporal::Time(x, o) => (None, Some(*x), Some(*o)),
        Temporal::LocalDateTime(dt) => (Some(dt.date()), Some(dt.time()), None),
        Temporal::DateTime(dt, o, _) => (Some(dt.date()), Some(dt.time()), Some(*o)),
        Temporal::Duration(_) => return None,
    })
}

/// `duration.between(a, b)`, and the `inMonths` / `inDays` / `inSeconds` variants.
pub fn between(a: &Temporal, b: &Temporal, unit: &str) -> Option<Duration> {
    let (da, ta, oa) = parts(a)?;
    let (db, tb, ob) = parts(b)?;
    let has_date = da.is_some() && db.is_some();
    let has_time = ta.is_some() || tb.is_some();
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1)?;
    let a_dt = da
        .unwrap_or_else(|| db.unwrap_or(epoch))
        .and_time(ta.unwrap_or(NaiveTime::MIN));
    let mut b_dt = db
        .unwrap_or_else(|| da.unwrap_or(epoch))
        .and_time(tb.unwrap_or(if has_date {
            NaiveTime::MIN
        } else {
            ta.unwrap_or(NaiveTime::MIN)
        }));
    if !has_date {
        b_dt = a_dt.date().and_time(tb.unwrap_or(NaiveTime::MIN));
    }
    // Compare instants: when both have an offset, by those; when one is local, it is read in
    // the other's time zone (a named zone gives the offset in force at that local time, so a
    // span across a daylight-saving change counts the hour gained or lost, as Neo4j does).
    let zone = |t: &Temporal| match t {
        Temporal::DateTime(_, _, Some(z)) => Some(z.clone()),
        _ => None,
    };
    let shift = match (oa, ob) {
        (Some(x), Some(y)) => i64::from(x - y),
        (Some(x), None) => zone(a)
            .and_then(|z| zone_offset(&z, &b_dt).ok())
            .map_or(0, |y| i64::from(x - y)),
        (None, Some(y)) => zone(b)
            .and_then(|z| zone_offset(&z, &a_dt).ok())
            .map_or(0, |x| i64::from(x - y)),
        (None, None) => 0,
    };
    b_dt += ChronoDuration::seconds(shift);
    let _ = has_time;
    match unit {
        "months" => {
            if !has_date {
                return Some(Duration::default());
            }
            Some(Duration::new(months_between(a_dt, b_dt), 0, 0, 0))
        }
        "days" => {
            if !has_date {
                return Some(Duration::default());
            }
            let diff = b_dt - a_dt;
            Some(Duration::new(0, diff.num_days(), 0, 0))
        }
        "seconds" => {
            let diff = b_dt - a_dt;
            let ns = diff.num_nanoseconds().unwrap_or(0);
            Some(Duration::new(0, 0, 0, ns))
        }
        _ => {
            if !has_date {
                let ns = (b_dt - a_dt).num_nanoseconds().unwrap_or(0);
                return Some(Duration::new(0, 0, 0, ns));
            }
            let months = months_between(a_dt, b_dt);
            let mid = shift_datetime(a_dt, &Duration::new(months, 0, 0, 0))?;
            let rest = b_dt - mid;
            let days = rest.num_days();
            let rem = rest - ChronoDuration::days(days);
            Some(Duration::new(
                months,
                days,
                0,
                rem.num_nanoseconds().unwrap_or(0),
            ))
        }
    }
}

/// Truncates to a unit (`millennium` … `microsecond`); the result keeps `t`'s kind.
pub fn truncate_to(unit: &str, dt: NaiveDateTime) -> Result<NaiveDateTime, TemporalError> {
    let d = dt.date();
    let y = d.year();
    let day = |y: i32, m: u32, dd: u32| {
        NaiveDate::from_ymd_opt(y, m, dd).ok_or_else(|| "date out of range".to_string())
    };
    let midnight = |date: NaiveDate| date.and_time(NaiveTime::MIN);
    let t = dt.time();
    Ok(match unit {
        "millennium" => midnight(day(y.div_euclid(1000) * 1000, 1, 1)?),
        "century" => midnight(day(y.div_euclid(100) * 100, 1, 1)?),
        "decade" => midnight(day(y.div_euclid(10) * 10, 1, 1)?),
        "year" => midnight(day(y, 1, 1)?),
        "weekYear" => midnight(
            NaiveDate::from_isoywd_opt(d.iso_week().year(), 1, Weekday::Mon)
                .ok_or("date out of range")?,
        ),
        "quarter" => midnight(day(y, d.month0() / 3 * 3 + 1, 1)?),
        "month" => midnight(day(y, d.month(), 1)?),
        "week" => midnight(d - ChronoDuration::days(d.weekday().num_days_from_monday() as i64)),
        "day" => midnight(d),
        "hour" => d.and_hms_opt(t.hour(), 0, 0).ok_or("bad time")?,
        "minute" => d.and_hms_opt(t.hour(), t.minute(), 0).ok_or("bad time")?,
        "second" => d
            .and_hms_opt(t.hour(), t.minute(), t.second())
            .ok_or("bad time")?,
        "millisecond" => d
            .and_hms_nano_opt(
                t.hour(),
                t.minute(),
                t.second(),
                t.nanosecond() / 1_000_000 * 1_000_000,
            )
            .ok_or("bad time")?,
        "microsecond" => d
            .and_hms_nano_opt(
                t.hour(),
                t.minute(),
                t.second(),
                t.nanosecond() / 1000 * 1000,
            )
            .ok_or("bad time")?,
        other => return Err(TemporalError::UnknownUnit(other.to_string())),
    })
}

/// The current UTC date-time (for `datetime()` without arguments).
pub fn now_utc() -> NaiveDateTime {
    // Neo4j's clock reads milliseconds (`datetime()` ends in `.208`, not in nanoseconds).
    let now = chrono::Utc::now().naive_utc();
    now.with_nanosecond(now.nanosecond() / 1_000_000 * 1_000_000)
        .unwrap_or(now)
}

/// The offset type chrono uses, for callers that build fixed-offset values.
pub fn fixed(o: i32) -> Option<FixedOffset> {
    FixedOffset::east_opt(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_scale_as_neo4j_scales_them() {
        // 12 years 5 months 14 days 16:13:10 and a nanosecond, as the TCK builds it.
        let d = Duration::new(149, 14, 58_390, 1);
        // An integer factor is exact; a division spills each unit's fraction downwards and
        // truncates the nanoseconds.
        assert_eq!(d.mul_int(2).unwrap(), Duration::new(298, 28, 116_780, 2));
        assert_eq!(d.div(2.0), Duration::new(74, 22, 48_068, 0));
        assert_eq!(d.mul(0.5), d.div(2.0));
        assert_eq!(d.div(0.5), Duration::new(298, 28, 116_780, 2));
        assert_eq!(Duration::new(i64::MAX, 0, 0, 0).mul_int(2), None);
        // A date takes the whole days of the seconds, truncated toward zero.
        let date = Temporal::Date(NaiveDate::from_ymd_opt(1984, 10, 11).unwrap());
        let plus_days = |secs: i64| match plus(&date, &Duration::new(0, 0, secs, 0)).unwrap() {
            Temporal::Date(x) => x.to_string(),
            _ => unreachable!(),
        };
        assert_eq!(plus_days(122_293), "1984-10-12");
        assert_eq!(plus_days(-122_293), "1984-10-10");
        assert_eq!(plus_days(86_399), "1984-10-11");
    }

    #[test]
    fn text_forms() {
        let d = parse_date("2015-07-21").unwrap();
        assert_eq!(Temporal::Date(d).to_string(), "2015-07-21");
        assert_eq!(parse_date("2015-W30-2").unwrap().to_string(), "2015-07-21");
        assert_eq!(parse_date("2015202").unwrap().to_string(), "2015-07-21");
        assert_eq!(
            parse_time("21:40:32.142+0100").unwrap().to_string(),
            "21:40:32.142+01:00"
        );
        assert_eq!(
            parse_local_time_value("214032").unwrap().to_string(),
            "21:40:32"
        );
        assert_eq!(
            parse_local_time_value("12:00").unwrap().to_string(),
            "12:00"
        );
        assert_eq!(
            parse_datetime("2015-07-21T21:40:32.142[Europe/London]")
                .unwrap()
                .to_string(),
            "2015-07-21T21:40:32.142+01:00[Europe/London]"
        );
        let dur = parse_duration("P14DT16H12M").unwrap();
        assert_eq!(Temporal::Duration(dur).to_string(), "P14DT16H12M");
        assert_eq!(
            Temporal::Duration(parse_duration("PT0.75S").unwrap()).to_string(),
            "PT0.75S"
        );
        assert_eq!(
            Temporal::Duration(parse_duration("P5M1.5D").unwrap()).to_string(),
            "P5M1DT12H"
        );
        assert_eq!(Temporal::Duration(Duration::default()).to_string(), "PT0S");
    }

    #[test]
    fn arithmetic_and_between() {
        let d = Temporal::Date(parse_date("1984-10-11").unwrap());
        let p = plus(&d, &parse_duration("P1M").unwrap()).unwrap();
        assert_eq!(p.to_string(), "1984-11-11");
        let a = parse_local_datetime("1984-10-11T12:00").unwrap();
        let b = parse_local_datetime("2015-06-24T12:50:35.556").unwrap();
        assert_eq!(
            Temporal::Duration(between(&a, &b, "").unwrap()).to_string(),
            "P30Y8M13DT50M35.556S"
        );
    }
}
