//! More of APOC core, each as APOC 5 computes it: hexadecimal text (`apoc.text.hexValue`,
//! `hexCharAt`), slugs and snake case, the Jaro–Winkler distance of commons-text and APOC's own
//! Sørensen–Dice coefficient, named regex groups, Pareto scoring, base-64 UUIDs, URL parts,
//! node counts by label, and durations formatted by pattern.

use super::text::{base64_decode, base64_encode, B64};
use super::{arg, failed, int, text};
use crate::engine::error::Result;
use crate::engine::exec::Runner;
use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

family! {
    /// The functions of this file.
    ExtraFn {
        "apoc.create.uuidbase64" => CreateUuidBase64,
        "apoc.create.uuidbase64tohex" => CreateUuidBase64ToHex,
        "apoc.create.uuidhextobase64" => CreateUuidHexToBase64,
        "apoc.cypher.runfirstcolumnmany" => CypherRunFirstColumnMany,
        "apoc.cypher.runfirstcolumnsingle" => CypherRunFirstColumnSingle,
        "apoc.data.url" => DataUrl,
        "apoc.map.updatetree" => MapUpdateTree,
        "apoc.meta.nodes.count" => MetaNodesCount,
        "apoc.scoring.pareto" => ScoringPareto,
        "apoc.text.doublemetaphone" => TextDoubleMetaphone,
        "apoc.text.hexcharat" => TextHexCharAt,
        "apoc.text.hexvalue" => TextHexValue,
        "apoc.text.jarowinklerdistance" => TextJaroWinklerDistance,
        "apoc.text.regexgroupsbyname" => TextRegexGroupsByName,
        "apoc.text.slug" => TextSlug,
        "apoc.text.snakecase" => TextSnakeCase,
        "apoc.text.sorensendicesimilarity" => TextSorensenDiceSimilarity,
        "apoc.temporal.formatduration" => TemporalFormatDuration,
    }
}

pub(super) fn dispatch(run: &Runner, n: &str, m: ExtraFn, args: &[Value]) -> Result<Value> {
    let (a0, a1) = (arg(args, 0), arg(args, 1));
    Ok(match m {
        ExtraFn::TextHexValue => match int(n, a0)? {
            Some(v) => Value::from(hex_value(v)),
            None => Value::Null,
        },
        ExtraFn::TextHexCharAt => {
            let (Some(s), Some(i)) = (text(n, a0)?, int(n, a1)?) else {
                return Ok(Value::Null);
            };
            // By UTF-16 code unit, as Java's charAt.
            match usize::try_from(i)
                .ok()
                .and_then(|i| s.encode_utf16().nth(i))
            {
                Some(u) => Value::from(hex_value(i64::from(u))),
                None => Value::Null,
            }
        }
        ExtraFn::TextSlug => {
            let Some(s) = text(n, a0)? else {
                return Ok(Value::Null);
            };
            let delim = if args.len() > 1 {
                match text(n, a1)? {
                    Some(d) => d,
                    None => return Ok(Value::Null),
                }
            } else {
                "-"
            };
            let re = run.sh.regex(r"[^\p{L}0-9_]+").map_err(|e| failed(n, e))?;
            let trimmed = s.trim_matches(|c: char| c <= ' ');
            Value::from(re.replace_all(trimmed, regex::NoExpand(delim)).into_owned())
        }
        ExtraFn::TextSnakeCase => {
            let Some(s) = text(n, a0)? else {
                return Err(failed(n, "java.lang.NullPointerException"));
            };
            Value::from(snake_case(s))
        }
        ExtraFn::TextDoubleMetaphone => match a0 {
            Value::Null => Value::Null,
            Value::String(s) if s.trim().is_empty() => a0.clone(),
            Value::String(s) => Value::from(double_metaphone(s)),
            other => return Err(super::wrong(n, other, "a string")),
        },
        ExtraFn::MapUpdateTree => update_tree(run, n, a0, a1, arg(args, 2))?,
        ExtraFn::CypherRunFirstColumnMany | ExtraFn::CypherRunFirstColumnSingle => {
            let Some(q) = text(n, a0)? else {
                return Err(failed(n, "java.lang.NullPointerException"));
            };
            let params = match a1 {
                Value::Null => BTreeMap::new(),
                Value::Map(m) => m.clone(),
                other => return Err(super::wrong(n, other, "a map")),
            };
            // As APOC does, the parameters are variables too: `WITH $a AS a …` first.
            let query = if params.is_empty() {
                q.to_string()
            } else {
                let names: Vec<String> = params
                    .keys()
                    .map(|k| {
                        let k = k.replace('`', "``");
                        format!("$`{k}` AS `{k}`")
                    })
                    .collect();
                format!("WITH {} {q}", names.join(", "))
            };
            let params: crate::engine::Params = params
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            // The inner statement's errors reach the caller wrapped as the function's failure,
            // naming Neo4j's exception class.
            let t = crate::engine::run_nested_read(run, &query, &params).map_err(|e| {
                use crate::engine::error::ErrorKind as K;
                let class = match e.kind {
                    K::SyntaxError | K::SemanticError => "org.neo4j.exceptions.SyntaxException",
                    K::TypeError => "org.neo4j.exceptions.CypherTypeException",
                    K::ArithmeticError => "org.neo4j.exceptions.ArithmeticException",
                    K::ArgumentError => "org.neo4j.exceptions.InvalidArgumentException",
                    K::ParameterMissing => "org.neo4j.exceptions.ParameterNotFoundException",
                    K::EntityNotFound => "org.neo4j.exceptions.EntityNotFoundException",
                    K::ProcedureError => {
                        let cause = e
                            .message
                            .split_once("Caused by: ")
                            .map_or(e.message.as_str(), |(_, c)| c);
                        return failed(n, cause);
                    }
                    _ => return e,
                };
                failed(n, format!("{class}: {}", e.message))
            })?;
            if t.columns.is_empty() {
                return Err(failed(
                    n,
                    "java.lang.IndexOutOfBoundsException: the statement returns no column",
                ));
            }
            let mut first = t.rows.into_iter().map(|mut r| {
                if r.is_empty() {
                    Value::Null
                } else {
                    r.swap_remove(0)
                }
            });
            if m == ExtraFn::CypherRunFirstColumnMany {
                Value::List(first.collect())
            } else {
                first.next().unwrap_or(Value::Null)
            }
        }
        ExtraFn::TextJaroWinklerDistance => {
            let (Some(a), Some(b)) = (text(n, a0)?, text(n, a1)?) else {
                return Ok(Value::Null);
            };
            let a: Vec<u16> = a.encode_utf16().collect();
            let b: Vec<u16> = b.encode_utf16().collect();
            Value::Float(1.0 - jaro_winkler_similarity(&a, &b))
        }
        ExtraFn::TextSorensenDiceSimilarity => {
            let (Some(a), Some(b)) = (text(n, a0)?, text(n, a1)?) else {
                return Ok(Value::Null);
            };
            let lang = if args.len() > 2 {
                match text(n, arg(args, 2))? {
                    Some(l) => l,
                    None => return Ok(Value::Null),
                }
            } else {
                "en"
            };
            Value::Float(sorensen_dice(a, b, lang))
        }
        ExtraFn::TextRegexGroupsByName => {
            let (Some(s), Some(p)) = (text(n, a0)?, text(n, a1)?) else {
                return Ok(Value::List(Vec::new()));
            };
            let re = run
                .sh
                .regex(p)
                .map_err(|e| failed(n, format!("Invalid regex pattern: {e}")))?;
            let names: Vec<&str> = re.capture_names().flatten().collect();
            let mut out = Vec::new();
            for c in re.captures_iter(s) {
                run.sh.tick()?;
                let mut matches = BTreeMap::new();
                for name in &names {
                    if let Some(m) = c.name(name) {
                        matches.insert(Arc::from(*name), Value::from(m.as_str()));
                    }
                }
                out.push(Value::Map(BTreeMap::from([
                    (
                        Arc::from("group"),
                        Value::from(c.get(0).map_or("", |m| m.as_str())),
                    ),
                    (Arc::from("matches"), Value::Map(matches)),
                ])));
            }
            Value::List(out)
        }
        ExtraFn::ScoringPareto => {
            let (Some(min), Some(eighty), Some(max), Some(score)) = (
                int(n, a0)?,
                int(n, a1)?,
                int(n, arg(args, 2))?,
                int(n, arg(args, 3))?,
            ) else {
                return Ok(Value::Null);
            };
            if score < min {
                Value::Float(0.0)
            } else {
                let alpha = 5f64.ln() / eighty as f64;
                Value::Float(max as f64 * (1.0 - (-alpha * score as f64).exp()))
            }
        }
        ExtraFn::CreateUuidBase64 => {
            let hex = crate::engine::functions::random_uuid();
            Value::from(uuid_hex_to_base64(&hex).ok_or_else(|| failed(n, "uuid"))?)
        }
        ExtraFn::CreateUuidHexToBase64 => {
            let Some(s) = text(n, a0)? else {
                return Err(failed(n, "java.lang.NullPointerException"));
            };
            Value::from(
                uuid_hex_to_base64(s)
                    .ok_or_else(|| failed(n, format!("Invalid UUID string: {s}")))?,
            )
        }
        ExtraFn::CreateUuidBase64ToHex => {
            let Some(s) = text(n, a0)? else {
                return Err(failed(n, "java.lang.NullPointerException"));
            };
            Value::from(uuid_base64_to_hex(s).map_err(|m| failed(n, m))?)
        }
        ExtraFn::DataUrl => match text(n, a0)? {
            Some(s) => url_parts(s).map_or(Value::Null, Value::Map),
            None => Value::Null,
        },
        ExtraFn::TemporalFormatDuration => {
            let d = match a0 {
                Value::Null => None,
                Value::Temporal(t) => match &**t {
                    crate::temporal::Temporal::Duration(d) => Some(*d),
                    other => {
                        return Err(failed(
                            n,
                            format!(
                                "java.lang.ClassCastException: {} is not a duration",
                                other.type_name()
                            ),
                        ))
                    }
                },
                other => {
                    return Err(failed(
                        n,
                        format!(
                            "java.lang.ClassCastException: {} is not a duration",
                            crate::value::type_name(other)
                        ),
                    ))
                }
            };
            let (Some(d), Some(f)) = (d, text(n, a1)?) else {
                return Err(failed(
                    n,
                    "Available formats are: the ISO and Elasticsearch names, or a pattern",
                ));
            };
            Value::from(format_duration(&d, duration_pattern(f)))
        }
        ExtraFn::MetaNodesCount => Value::Int(meta_nodes_count(run, n, a0, a1)?),
    })
}

/// `apoc.text.hexValue`: four hex digits at least, eight above 0xFFFF, sixteen above
/// 0xFFFFFFFF; below that (negatives too) the low 32 bits, as Java's `%04X` of an int.
fn hex_value(v: i64) -> String {
    if v > 0xFFFF_FFFF {
        format!("{v:016X}")
    } else if v > 0xFFFF {
        format!("{:08X}", v as u32)
    } else {
        format!("{:04X}", v as u32)
    }
}

/// `apoc.text.snakeCase`: words split before every character that is not a lower-case letter
/// or a digit (an all-upper-case text's underscores first become spaces), trimmed, lower-cased
/// and joined with `-`.
fn snake_case(s: &str) -> String {
    // APOC walks UTF-16 units: each half of a character past U+FFFF is neither lower nor upper
    // case, so it starts a piece of its own and reaches the client alone, which Neo4j's UTF-8
    // encoder writes as `?`.
    let s: String = s
        .chars()
        .flat_map(|c| {
            let astral = c.len_utf16() == 2;
            [if astral { '?' } else { c }, '?']
                .into_iter()
                .take(1 + usize::from(astral))
        })
        .collect();
    let s = s.as_str();
    let upper = !s.is_empty()
        && s.chars()
            .all(|c| c.is_uppercase() || c.is_ascii_digit() || c == '_');
    let s = if upper {
        s.to_lowercase().replace('_', " ")
    } else {
        s.to_string()
    };
    let mut pieces: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        if !(cur.is_empty() || c.is_lowercase() || c.is_ascii_digit()) {
            pieces.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    pieces.push(cur);
    let joined = pieces
        .iter()
        .map(|p| p.trim_matches(|c: char| c <= ' '))
        .filter(|p| !p.is_empty())
        .map(|p| p.to_lowercase())
        .collect::<Vec<_>>()
        .join("-");
    joined.to_lowercase().replace("--", "-")
}

/// commons-text's Jaro–Winkler similarity over UTF-16 code units: matches within half the
/// longer length less one, half-transpositions, a prefix of up to four scaled by 0.1 once the
/// Jaro similarity reaches 0.7.
fn jaro_winkler_similarity(a: &[u16], b: &[u16]) -> f64 {
    if a == b {
        return 1.0;
    }
    let (max, min) = if a.len() > b.len() { (a, b) } else { (b, a) };
    let range = (max.len() / 2).saturating_sub(1);
    let mut matched_at = vec![usize::MAX; min.len()];
    let mut taken = vec![false; max.len()];
    let mut matches = 0usize;
    for (mi, c) in min.iter().enumerate() {
        let lo = mi.saturating_sub(range);
        let hi = (mi + range + 1).min(max.len());
        for xi in lo..hi {
            if !taken[xi] && max[xi] == *c {
                matched_at[mi] = xi;
                taken[xi] = true;
                matches += 1;
                break;
            }
        }
    }
    if matches == 0 {
        return 0.0;
    }
    let ms1 = min
        .iter()
        .zip(&matched_at)
        .filter(|(_, at)| **at != usize::MAX)
        .map(|(c, _)| *c);
    let ms2 = max.iter().zip(&taken).filter(|(_, t)| **t).map(|(c, _)| *c);
    let half_t = ms1.zip(ms2).filter(|(x, y)| x != y).count();
    let prefix = a
        .iter()
        .zip(b)
        .take(4.min(min.len()))
        .take_while(|(x, y)| x == y)
        .count();
    let m = matches as f64;
    let j = (m / a.len() as f64 + m / b.len() as f64 + (m - half_t as f64 / 2.0) / m) / 3.0;
    if j < 0.7 {
        j
    } else {
        j + 0.1 * prefix as f64 * (1.0 - j)
    }
}

/// APOC's Sørensen–Dice coefficient: words upper-cased (Turkish and Azeri dotted and dotless
/// i by their language tag), the bigrams of UTF-16 units within each word, counted as
/// multisets: `2·shared / (n1 + n2)`.
fn sorensen_dice(a: &str, b: &str, lang: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    let turkic = {
        let l = lang.to_ascii_lowercase();
        l == "tr" || l.starts_with("tr-") || l == "az" || l.starts_with("az-")
    };
    let upper = |s: &str| -> String {
        s.chars()
            .flat_map(|c| -> Vec<char> {
                match c {
                    'i' if turkic => vec!['\u{130}'],
                    _ => c.to_uppercase().collect(),
                }
            })
            .collect()
    };
    let words = |s: &str| -> Vec<String> {
        upper(s.trim_matches(|c: char| c <= ' '))
            .split([' ', '\t', '\n', '\u{b}', '\u{c}', '\r'])
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (wa, wb) = (words(a), words(b));
    if wa == wb {
        return 1.0;
    }
    let bigrams = |ws: &[String]| -> Vec<(u16, u16)> {
        let mut out = Vec::new();
        for w in ws {
            let units: Vec<u16> = w.encode_utf16().collect();
            out.extend(units.windows(2).map(|p| (p[0], p[1])));
        }
        out.sort_unstable();
        out
    };
    let (ba, bb) = (bigrams(&wa), bigrams(&wb));
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < ba.len() && j < bb.len() {
        match ba[i].cmp(&bb[j]) {
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
        }
    }
    2.0 * shared as f64 / (ba.len() + bb.len()) as f64
}

/// A UUID's 16 bytes from its hexadecimal text (`8-4-4-4-12`, either case).
fn uuid_bytes(s: &str) -> Option<[u8; 16]> {
    let groups: Vec<&str> = s.split('-').collect();
    if groups.iter().map(|g| g.len()).collect::<Vec<_>>() != [8, 4, 4, 4, 12] {
        return None;
    }
    let hex: String = groups.concat();
    let mut out = [0u8; 16];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// `apoc.create.uuidHexToBase64`: standard base 64 of the 16 bytes, without the padding.
fn uuid_hex_to_base64(s: &str) -> Option<String> {
    let bytes = uuid_bytes(s)?;
    Some(base64_encode(&bytes, B64, false))
}

/// `apoc.create.uuidBase64ToHex`: 22 characters (or 24 ending in `==`) of standard base 64 to
/// the lower-case hyphenated UUID.
fn uuid_base64_to_hex(s: &str) -> std::result::Result<String, String> {
    if s.trim().is_empty() {
        return Err("Expected not empty UUID value".into());
    }
    let padded = if s.ends_with("==") {
        if s.chars().count() != 24 {
            return Err("Invalid UUID length. Expected 24 characters".into());
        }
        s.to_string()
    } else {
        if s.chars().count() != 22 {
            return Err("Invalid UUID length. Expected 22 characters".into());
        }
        format!("{s}==")
    };
    let bytes = base64_decode(&padded, B64)
        .filter(|b| b.len() == 16)
        .ok_or_else(|| format!("Illegal base64 UUID: {s}"))?;
    let h: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    ))
}

/// `apoc.data.url`: the parts of an absolute URL (decoded), or `None` without a scheme.
fn url_parts(s: &str) -> Option<BTreeMap<Arc<str>, Value>> {
    let (scheme, rest) = s.split_once(':')?;
    let mut chars = scheme.chars();
    if !chars.next()?.is_ascii_alphabetic()
        || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return None;
    }
    let (rest, fragment) = match rest.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (rest, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => match r.find('/') {
            Some(i) => (Some(&r[..i]), &r[i..]),
            None => (Some(r), ""),
        },
        None => (None, rest),
    };
    let (user, host, port) = match authority {
        Some(a) => {
            let (user, hostport) = match a.rsplit_once('@') {
                Some((u, h)) => (Some(u), h),
                None => (None, a),
            };
            let (host, port) = match hostport.rsplit_once(':') {
                Some((h, p)) if !h.ends_with(']') || hostport.starts_with('[') => {
                    if p.is_empty() {
                        (h, None)
                    } else {
                        (h, Some(p.parse::<i64>().ok()?))
                    }
                }
                _ => (hostport, None),
            };
            (user, (!host.is_empty()).then_some(host), port)
        }
        None => (None, None, None),
    };
    let dec = |x: &str| super::text::url_decode(x).unwrap_or_else(|| x.to_string());
    let opt = |x: Option<&str>| x.map_or(Value::Null, |x| Value::from(dec(x)));
    let file = match query {
        Some(q) => format!("{}?{}", dec(path), dec(q)),
        None => dec(path),
    };
    Some(BTreeMap::from([
        (Arc::from("protocol"), Value::from(scheme)),
        (Arc::from("user"), opt(user)),
        (Arc::from("host"), opt(host)),
        (Arc::from("port"), port.map_or(Value::Null, Value::Int)),
        (Arc::from("path"), Value::from(dec(path))),
        (Arc::from("file"), Value::from(file)),
        (Arc::from("query"), opt(query)),
        (Arc::from("anchor"), opt(fragment)),
    ]))
}

/// The pattern of a named duration format (APOC's ISO names, then Elasticsearch's), or the text
/// itself.
fn duration_pattern(f: &str) -> &str {
    let lower = f.to_lowercase();
    let iso = match lower.as_str() {
        "basic_iso_date" => Some("yyyyMMdd"),
        "iso_date" | "iso_local_date" => Some("yyyy-MM-dd"),
        "iso_date_time" | "iso_local_date_time" => Some("yyyy-MM-dd'T'HH:mm:ssI"),
        "iso_local_time" | "iso_time" => Some("HH:mm:ssI"),
        "iso_ordinal_date" => Some("yyyy-DDD"),
        "iso_week_date" => Some("YYYY-'W'ww-e"),
        _ => None,
    };
    iso.or_else(|| {
        ELASTIC_PATTERNS
            .iter()
            .find(|(name, _)| *name == lower)
            .map(|(_, p)| *p)
    })
    .unwrap_or(f)
}

/// Elasticsearch's named date formats, as APOC reads them for durations.
const ELASTIC_PATTERNS: &[(&str, &str)] = &[
    ("basic_date", "yyyyMMdd"),
    ("basic_date_time", "yyyyMMdd'T'HHmmss.SSSZ"),
    ("basic_date_time_no_millis", "yyyyMMdd'T'HHmmssZ"),
    ("basic_ordinal_date", "yyyyDDD"),
    ("basic_ordinal_date_time", "yyyyDDD'T'HHmmss.SSSZ"),
    ("basic_ordinal_date_time_no_millis", "yyyyDDD'T'HHmmssZ"),
    ("basic_time", "HHmmss.SSSZ"),
    ("basic_time_no_millis", "HHmmssZ"),
    ("basic_t_time", "'T'HHmmss.SSSZ"),
    ("basic_t_time_no_millis", "'T'HHmmssZ"),
    ("basic_week_date", "xxxx'W'wwe"),
    ("basic_week_date_time", "xxxx'W'wwe'T'HHmmss.SSSZ"),
    ("basic_week_date_time_no_millis", "xxxx'W'wwe'T'HHmmssZ"),
    ("date", "yyyy-MM-dd"),
    ("date_hour", "yyyy-MM-dd'T'HH"),
    ("date_hour_minute", "yyyy-MM-dd'T'HH:mm"),
    ("date_hour_minute_second", "yyyy-MM-dd'T'HH:mm:ss"),
    (
        "date_hour_minute_second_fraction",
        "yyyy-MM-dd'T'HH:mm:ss.SSS",
    ),
    (
        "date_hour_minute_second_millis",
        "yyyy-MM-dd'T'HH:mm:ss.SSS",
    ),
    ("date_time", "yyyy-MM-dd'T'HH:mm:ss.SSSZZ"),
    ("date_time_no_millis", "yyy-MM-dd'T'HH:mm:ssZZ"),
    ("hour", "HH"),
    ("hour_minute", "HH:mm"),
    ("hour_minute_second", "HH:mm:ss"),
    ("hour_minute_second_fraction", "HH:mm:ss.SSS"),
    ("hour_minute_second_millis", "HH:mm:ss.SSS"),
    ("ordinal_date", "yyyy-DDD"),
    ("ordinal_date_time", "yyyy-DDD'T'HH:mm:ss.SSSZZ"),
    ("ordinal_date_time_no_millis", "yyyy-DDD'T'HH:mm:ssZZ"),
    ("time", "HH:mm:ss.SSSZZ"),
    ("time_no_millis", "HH:mm:ssZZ"),
    ("t_time", "'T'HH:mm:ss.SSSZZ"),
    ("t_time_no_millis", "'T'HH:mm:ssZZ"),
    ("week_date", "xxxx-'W'ww-e"),
    ("week_date_time", "xxxx-'W'ww-e'T'HH:mm:ss.SSSZZ"),
    ("week_date_time_no_millis", "xxxx-'W'ww-e'T'HH:mm:ssZZ"),
    ("weekyear", "xxxx"),
    ("weekyear_week", "xxxx-'W'ww"),
    ("weekyear_week_day", "xxxx-'W'ww-e"),
    ("year", "yyyy"),
    ("year_month", "yyyy-MM"),
    ("year_month_day", "yyyy-MM-dd"),
];

/// `apoc.temporal.formatDuration`: the pattern split at each `'` (every other piece literal);
/// in the others each run of one field letter becomes that field of the duration, zero-padded
/// to the run's length — `y` years, `M` months of the year, `q` quarters of the year, `w`
/// weeks, `d` days, `H` hours, `m` minutes of the hour, `s` seconds of the minute, `S`/`n`
/// the nanoseconds of the second (cut to the run's length), `A` milliseconds, `NN`
/// nanoseconds, `I` the nanoseconds of the second as a decimal fraction.
fn format_duration(d: &crate::temporal::Duration, pattern: &str) -> String {
    let mut pieces: Vec<&str> = pattern.split('\'').collect();
    // Java's split drops trailing empty pieces.
    while pieces.len() > 1 && pieces.last() == Some(&"") {
        pieces.pop();
    }
    let mut out = String::new();
    for (i, piece) in pieces.iter().enumerate() {
        if i % 2 == 1 {
            out.push_str(piece);
            continue;
        }
        let chars: Vec<char> = piece.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            let mut run = 1;
            while k + run < chars.len() && chars[k + run] == c {
                run += 1;
            }
            let pad = |v: i64, width: usize| format!("{v:0width$}");
            let field = match c {
                'y' | 'Y' | 'u' => Some(d.months / 12),
                'd' | 'D' => Some(d.days),
                'M' | 'L' => Some(d.months % 12),
                'q' | 'Q' => Some((d.months / 3) % 4),
                'w' | 'W' => Some(d.days / 7),
                'h' | 'H' | 'k' | 'K' => Some(d.seconds / 3600),
                'm' => Some((d.seconds / 60) % 60),
                's' => Some(d.seconds % 60),
                'A' => Some(d.seconds.saturating_mul(1000) + d.nanos / 1_000_000),
                _ => None,
            };
            match c {
                _ if field.is_some() => {
                    out.push_str(&pad(field.unwrap_or(0), run));
                    k += run;
                }
                'n' | 'S' => {
                    let text = pad(d.nanos, run);
                    out.extend(text.chars().take(run));
                    k += run;
                }
                'N' if run >= 2 => {
                    out.push_str(&pad(
                        d.seconds
                            .saturating_mul(1_000_000_000)
                            .saturating_add(d.nanos),
                        2,
                    ));
                    k += 2;
                }
                'I' => {
                    let text = pad(d.nanos, run);
                    let trimmed = text.trim_end_matches('0');
                    if !trimmed.is_empty() {
                        out.push('.');
                        out.push_str(trimmed);
                    }
                    k += run;
                }
                _ => {
                    out.push(c);
                    k += 1;
                }
            }
        }
    }
    out
}

/// `apoc.meta.nodes.count(labels, {includeRels})`: the nodes of each label summed (a node with
/// two of the labels counts twice), or with `includeRels` (`rels`, its older name, first when
/// given) the nodes of the labels that have a relationship of one of the types — `TYPE>`
/// outgoing, `TYPE<` incoming — each counted once.
fn meta_nodes_count(run: &Runner, n: &str, labels: &Value, config: &Value) -> Result<i64> {
    let g = run.graph();
    let names: Vec<String> = super::strings(n, labels)?
        .into_iter()
        .map(|l| l.trim().to_string())
        .collect();
    let syms: Vec<Option<crate::graph::Sym>> = if names.is_empty() {
        g.labels_in_use().into_iter().map(Some).collect()
    } else {
        names.iter().map(|l| g.sym(l)).collect()
    };
    let config = super::map(n, config)?;
    let rels_of = |k: &str| -> Result<Vec<String>> {
        Ok(match config.and_then(|c| c.get(k)) {
            Some(v) => super::strings(n, v)?,
            None => Vec::new(),
        })
    };
    let mut rels = rels_of("rels")?;
    if rels.is_empty() {
        rels = rels_of("includeRels")?;
    }
    rels.sort();
    rels.dedup();
    if rels.is_empty() {
        return Ok(syms
            .iter()
            .map(|l| l.map_or(0, |l| g.nodes_with_label(l).len() as i64))
            .sum());
    }
    let mut wanted = Vec::new();
    for r in &rels {
        let r = r.trim();
        let (ty, dir) = if let Some(t) = r.strip_suffix('>') {
            (t, crate::graph::Dir::Outgoing)
        } else if let Some(t) = r.strip_suffix('<') {
            (t, crate::graph::Dir::Incoming)
        } else {
            (r, crate::graph::Dir::Both)
        };
        if ty.is_empty() {
            return Err(failed(n, "a relationship type in includeRels is empty"));
        }
        wanted.push((g.sym(ty), dir));
    }
    let mut counted = std::collections::HashSet::new();
    for l in syms.iter().flatten() {
        for &x in g.nodes_with_label(*l) {
            run.sh.tick()?;
            if wanted
                .iter()
                .any(|(t, d)| t.is_some_and(|t| g.degree(x, *d, Some(&[t])) > 0))
            {
                counted.insert(x);
            }
        }
    }
    Ok(counted.len() as i64)
}

/// `apoc.text.doubleMetaphone`: commons-codec's primary Double Metaphone code (at most four
/// letters) of each word, the words split as Java's `split("\\W+")` splits them (a leading
/// separator gives an empty first word, whose code APOC writes as `null`), codes joined.
fn double_metaphone(s: &str) -> String {
    use rphonetic::Encoder;
    let dm = rphonetic::DoubleMetaphone::default();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut words: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut in_sep = false;
    for (i, c) in s.char_indices() {
        if word(c) {
            if in_sep {
                start = i;
                in_sep = false;
            }
        } else if !in_sep {
            words.push(&s[start..i]);
            in_sep = true;
        }
    }
    if !in_sep {
        words.push(&s[start..]);
    }
    // Trailing empty words are dropped; a leading one stays.
    while words.len() > 1 && words.last().is_some_and(|w| w.is_empty()) {
        words.pop();
    }
    words
        .iter()
        .map(|w| {
            if w.trim().is_empty() {
                "null".to_string()
            } else {
                dm.encode(w)
            }
        })
        .collect()
}

/// `apoc.map.updateTree(tree, key, [[value, map], …])`: every map of the tree (the root, maps
/// in maps and in lists) whose `key` equals a pair's value (as Java's `equals`: `1` is not
/// `1.0`) gets the pair's map merged in; maps merged in are visited too.
fn update_tree(run: &Runner, n: &str, tree: &Value, key: &Value, data: &Value) -> Result<Value> {
    // APOC reads the data first: a null list or a wrong entry fails whatever the tree.
    if data.is_null() {
        return Err(super::npe(n, "java.util.List.size()", "data"));
    }
    let mut pairs: Vec<(&Value, &BTreeMap<Arc<str>, Value>)> = Vec::new();
    for d in super::list(n, data)?.unwrap_or_default() {
        match d {
            Value::List(p) if p.len() >= 2 => match &p[1] {
                Value::Map(m) => pairs.push((&p[0], m)),
                _ => return Err(wrong_entry(n, d)),
            },
            _ => return Err(wrong_entry(n, d)),
        }
    }
    let Value::Map(tree) = tree else {
        return match tree {
            Value::Null => Ok(Value::Null),
            other => Err(super::wrong(n, other, "a map")),
        };
    };
    let Some(key) = text(n, key)? else {
        return Err(failed(n, "java.lang.NullPointerException"));
    };
    fn java_equal(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
            (Value::Int(_), Value::Float(_)) | (Value::Float(_), Value::Int(_)) => false,
            (Value::List(x), Value::List(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(a, b)| java_equal(a, b))
            }
            (Value::Map(x), Value::Map(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|((ka, va), (kb, vb))| ka == kb && java_equal(va, vb))
            }
            (Value::Null, Value::Null) => true,
            (a, b) => crate::value::equivalent(a, b),
        }
    }
    fn visit(
        run: &Runner,
        m: &BTreeMap<Arc<str>, Value>,
        key: &str,
        pairs: &[(&Value, &BTreeMap<Arc<str>, Value>)],
        depth: usize,
    ) -> Result<BTreeMap<Arc<str>, Value>> {
        run.sh.tick()?;
        if depth > crate::value::MAX_NESTING {
            return Err(failed(
                "apoc.map.updateTree",
                "the tree is nested too deeply",
            ));
        }
        let mut out = m.clone();
        let here = m.get(key).unwrap_or(&Value::Null);
        // A later pair with the same value wins, as in the map APOC builds.
        if let Some((_, add)) = pairs.iter().rev().find(|(v, _)| java_equal(v, here)) {
            for (k, v) in add.iter() {
                out.insert(k.clone(), v.clone());
            }
        }
        for v in out.values_mut() {
            match v {
                Value::Map(inner) => *v = Value::Map(visit(run, inner, key, pairs, depth + 1)?),
                Value::List(xs) => {
                    for x in xs.iter_mut() {
                        if let Value::Map(inner) = x {
                            *x = Value::Map(visit(run, inner, key, pairs, depth + 1)?);
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }
    Ok(Value::Map(visit(run, tree, key, &pairs, 0)?))
}

fn wrong_entry(n: &str, d: &Value) -> crate::engine::error::ExecError {
    failed(
        n,
        format!("java.lang.IllegalArgumentException: Wrong data list entry: {d}"),
    )
}
