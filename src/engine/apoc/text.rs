//! APOC's text functions (`apoc.text.*`) and the Java string helpers they need.

use super::*;

pub(super) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

pub(super) fn decapitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The words of a text for the case conversions: runs of letters and digits.
pub(super) fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

pub(super) fn levenshtein(a: &str, b: &str) -> usize {
    strsim::levenshtein(a, b)
}

pub(crate) const B64: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub(super) const B64_URL: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

pub(crate) fn base64_encode(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
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

pub(crate) fn base64_decode(text: &str, alphabet: &[u8; 64]) -> Option<Vec<u8>> {
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

/// Java's `Base64.getDecoder()` / `getUrlDecoder()` `.decode(byte[])` of the text's UTF-8
/// bytes, as APOC calls it, strict as it is: padding is optional but must end a unit, and its
/// error messages are Java's.
pub(super) fn java_base64_decode(
    text: &str,
    alphabet: &[u8; 64],
) -> std::result::Result<Vec<u8>, String> {
    let src = text.as_bytes();
    let sl = src.len();
    if sl == 0 {
        return Ok(Vec::new());
    }
    if sl < 2 {
        return Err("Input byte[] should at least have 2 bytes for base64 bytes".into());
    }
    let value = |b: u8| alphabet.iter().position(|a| *a == b).map(|v| v as u32);
    let mut out = Vec::with_capacity(sl / 4 * 3 + 3);
    let (mut bits, mut shiftto, mut sp) = (0u32, 18i32, 0usize);
    while sp < sl {
        let b = src[sp];
        sp += 1;
        let Some(v) = value(b) else {
            if b == b'=' {
                // `=` where no unit ends, or `xx=` not followed by a second `=`.
                if (shiftto == 6
                    && (sp == sl || {
                        sp += 1;
                        src[sp - 1] != b'='
                    }))
                    || shiftto == 18
                {
                    return Err("Input byte array has wrong 4-byte ending unit".into());
                }
                break;
            }
            // Java prints the (signed) byte in hex.
            return Err(format!(
                "Illegal base64 character {}",
                if b < 0x80 {
                    format!("{b:x}")
                } else {
                    format!("-{:x}", 256 - b as i32)
                }
            ));
        };
        bits |= v << shiftto;
        shiftto -= 6;
        if shiftto < 0 {
            out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]);
            shiftto = 18;
            bits = 0;
        }
    }
    match shiftto {
        6 => out.push((bits >> 16) as u8),
        0 => out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8]),
        12 => return Err("Last unit does not have enough valid bits".into()),
        _ => {}
    }
    if sp < sl {
        return Err(format!(
            "Input byte array has incorrect ending byte at {sp}"
        ));
    }
    Ok(out)
}

/// Java's `URLEncoder.encode(s, UTF-8)`: letters, digits, `.-*_` kept, space as `+`.
pub(super) fn url_encode(s: &str) -> String {
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

pub(super) fn url_decode(s: &str) -> Option<String> {
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
pub(super) fn soundex(s: &str) -> String {
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
    // APOC splits on Java's `\W+`: anything but ASCII letters, digits and `_`.
    for word in s
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
    {
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
pub(super) fn java_format(fmt: &str, params: &[Value]) -> String {
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
                    .map(crate::engine::functions::to_string_plain)
                    .unwrap_or_else(|| "null".into()),
            ),
            Some('d') => out.push_str(&match next.next() {
                Some(Value::Int(i)) => i.to_string(),
                Some(Value::Float(f)) => (*f as i64).to_string(),
                Some(other) => crate::engine::functions::to_string_plain(other),
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

/// APOC's `arabicToRoman`: nothing for 0 or less, `M` repeated past 3999; `None` where the
/// numeral would pass a million characters (APOC would build it until the heap ran out).
pub(super) fn roman(mut x: i64) -> Option<String> {
    if x > 1_000_000_000 {
        return None;
    }
    // APOC's table has `XM` (990) and `XD` (490): 1994 is `MXMIV`.
    const TABLE: [(i64, &str); 15] = [
        (1000, "M"),
        (990, "XM"),
        (900, "CM"),
        (500, "D"),
        (490, "XD"),
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

/// APOC's `romanToArabic`: read left to right, a subtractive pair (`CM`, `CD`, `XC`, `XL`, `IX`,
/// `IV`) where one starts, else one numeral (`IC` is 101, `IIII` 4); any other character makes
/// it 0. Case is ignored.
pub(super) fn from_roman(s: &str) -> i64 {
    let val = |c: u8| match c {
        b'I' => Some(1),
        b'V' => Some(5),
        b'X' => Some(10),
        b'L' => Some(50),
        b'C' => Some(100),
        b'D' => Some(500),
        b'M' => Some(1000),
        _ => None,
    };
    let b = s.to_ascii_uppercase().into_bytes();
    let mut total: i64 = 0;
    let mut i = 0;
    while i < b.len() {
        let pair = match (b[i], b.get(i + 1)) {
            (b'C', Some(b'M')) => Some(900),
            (b'C', Some(b'D')) => Some(400),
            (b'X', Some(b'C')) => Some(90),
            (b'X', Some(b'L')) => Some(40),
            (b'I', Some(b'X')) => Some(9),
            (b'I', Some(b'V')) => Some(4),
            _ => None,
        };
        match pair {
            Some(v) => {
                total = total.saturating_add(v);
                i += 2;
            }
            None => match val(b[i]) {
                Some(v) => {
                    total = total.saturating_add(v);
                    i += 1;
                }
                None => return 0,
            },
        }
    }
    total
}

/// Java's `String.split(regex, limit)`: with limit 0, trailing empty strings are dropped.
pub(super) fn java_split(s: &str, re: &regex::Regex, limit: i64) -> Vec<Value> {
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
pub(super) fn java_replacement(r: &str) -> String {
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

family! {
    /// The `apoc.text.*` functions.
    TextFn {
        "apoc.text.base64decode" => Base64Decode,
        "apoc.text.base64encode" => Base64Encode,
        "apoc.text.base64urldecode" => Base64UrlDecode,
        "apoc.text.base64urlencode" => Base64UrlEncode,
        "apoc.text.bytecount" => ByteCount,
        "apoc.text.bytes" => Bytes,
        "apoc.text.camelcase" => CamelCase,
        "apoc.text.capitalize" => Capitalize,
        "apoc.text.capitalizeall" => CapitalizeAll,
        "apoc.text.charat" => CharAt,
        "apoc.text.clean" => Clean,
        "apoc.text.code" => Code,
        "apoc.text.comparecleaned" => CompareCleaned,
        "apoc.text.decapitalize" => Decapitalize,
        "apoc.text.decapitalizeall" => DecapitalizeAll,
        "apoc.text.distance" => Distance,
        "apoc.text.format" => Format,
        "apoc.text.fuzzymatch" => FuzzyMatch,
        "apoc.text.hammingdistance" => HammingDistance,
        "apoc.text.indexesof" => IndexesOf,
        "apoc.text.indexof" => IndexOf,
        "apoc.text.join" => Join,
        "apoc.text.levenshteindistance" => LevenshteinDistance,
        "apoc.text.levenshteinsimilarity" => LevenshteinSimilarity,
        "apoc.text.lpad" => Lpad,
        "apoc.text.phonetic" => Phonetic,
        "apoc.text.random" => Random,
        "apoc.text.regexgroups" => RegexGroups,
        "apoc.text.regreplace" => Regreplace,
        "apoc.text.repeat" => Repeat,
        "apoc.text.replace" => Replace,
        "apoc.text.rpad" => Rpad,
        "apoc.text.split" => Split,
        "apoc.text.swapcase" => SwapCase,
        "apoc.text.tocypher" => ToCypher,
        "apoc.text.touppercase" => ToUpperCase,
        "apoc.text.uppercamelcase" => UpperCamelCase,
        "apoc.text.urldecode" => Urldecode,
        "apoc.text.urlencode" => Urlencode,
    }
}

pub(super) fn text_fn(run: &Runner, n: &str, f: TextFn, args: &[Value]) -> Result<Value> {
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    if f == TextFn::Join {
        let (Some(xs), Some(d)) = (list(n, a0)?, text(n, a1)?) else {
            return Ok(Value::Null);
        };
        // The list arrives as a LIST<STRING>: another value cannot be coerced, and Java's
        // String.join writes a null as `null`.
        let parts: Vec<String> = xs
            .iter()
            .map(|x| match x {
                Value::Null => Ok("null".to_string()),
                Value::String(s) => Ok(s.to_string()),
                other => Err(coerce_to_string(other)),
            })
            .collect::<Result<_>>()?;
        return Ok(Value::from(parts.join(d)));
    }
    if f == TextFn::Format {
        let (Some(fmt), params) = (text(n, a0)?, list(n, a1)?) else {
            return Ok(Value::Null);
        };
        if matches!(args.get(2), Some(Value::Null)) {
            // `new Locale(null)`.
            return Err(failed(n, "java.lang.NullPointerException"));
        }
        return Ok(Value::from(java_format(fmt, params.unwrap_or_default())));
    }
    if f == TextFn::Code {
        return Ok(match int(n, a0)? {
            // One UTF-16 unit, as Java's `(char)`: past U+FFFF nothing.
            Some(c) => u32::try_from(c)
                .ok()
                .filter(|&c| c <= 0xFFFF)
                .and_then(char::from_u32)
                .map_or(Value::Null, |c| Value::from(c.to_string())),
            None => Value::Null,
        });
    }
    if f == TextFn::ToCypher {
        if matches!(args.get(1), Some(Value::Null)) {
            return Err(npe(n, "java.util.Map.containsKey(Object)", "config"));
        }
        return Ok(Value::from(to_cypher(run, a0)?));
    }
    if f == TextFn::Random {
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
        // These read the text without a null check.
        return match f {
            TextFn::Capitalize => Err(npe(n, "String.substring(int, int)", "text")),
            TextFn::CapitalizeAll => Err(npe(n, "String.split(String)", "text")),
            TextFn::Lpad | TextFn::Rpad => Err(npe(n, "String.length()", "text")),
            TextFn::Base64Encode | TextFn::Base64Decode => Err(npe(n, "String.getBytes()", "text")),
            TextFn::Base64UrlEncode | TextFn::Base64UrlDecode => {
                Err(npe(n, "String.getBytes()", "url"))
            }
            TextFn::ByteCount | TextFn::Bytes => Err(npe(n, "String.getBytes(String)", "text")),
            TextFn::CamelCase | TextFn::UpperCamelCase => {
                Err(npe(n, "String.replaceAll(String, String)", "text"))
            }
            TextFn::DecapitalizeAll | TextFn::ToUpperCase => {
                Err(npe(n, "String.split(String)", "text"))
            }
            TextFn::Urlencode | TextFn::Urldecode => Err(npe(n, "String.length()", "s")),
            TextFn::Repeat => Err(npe(n, "String.length()", "item")),
            TextFn::RegexGroups => Ok(Value::List(Vec::new())),
            TextFn::CompareCleaned => Ok(Value::Bool(false)),
            _ => Ok(Value::Null),
        };
    };
    // An empty text: APOC takes its first character all the same.
    if s.is_empty() {
        match f {
            TextFn::Capitalize => {
                return Err(failed(
                    n,
                    "java.lang.StringIndexOutOfBoundsException: begin 0, end 1, length 0",
                ))
            }
            TextFn::CamelCase | TextFn::UpperCamelCase => {
                return Err(failed(
                    n,
                    "java.lang.StringIndexOutOfBoundsException: start 0, end 1, length 0",
                ))
            }
            _ => {}
        }
    }
    let regex =
        |pattern: &str| -> Result<regex::Regex> { run.sh.regex(pattern).map_err(|e| failed(n, e)) };
    Ok(match f {
        TextFn::Capitalize => Value::from(capitalize(s)),
        TextFn::Decapitalize => Value::from(decapitalize(s)),
        TextFn::CapitalizeAll | TextFn::DecapitalizeAll => {
            let mut out = String::new();
            let mut start = true;
            for c in s.chars() {
                if start && c.is_alphanumeric() {
                    if f == TextFn::CapitalizeAll {
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
        TextFn::SwapCase => Value::from(
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
        TextFn::CamelCase | TextFn::UpperCamelCase => {
            let mut out = String::new();
            for (i, w) in words(s).into_iter().enumerate() {
                let w = w.to_lowercase();
                if i == 0 && f == TextFn::CamelCase {
                    out.push_str(&w);
                } else {
                    out.push_str(&capitalize(&w));
                }
            }
            Value::from(out)
        }
        // Words of ASCII letters and digits, a new one at each capital letter; anything else
        // separates them (so `FOO` is `F_O_O` and `ÄB` is `B`).
        TextFn::ToUpperCase => {
            let mut parts: Vec<String> = Vec::new();
            let mut cur = String::new();
            for c in s.chars() {
                if c.is_ascii_uppercase() && !cur.is_empty() {
                    parts.push(std::mem::take(&mut cur));
                }
                if c.is_ascii_alphanumeric() {
                    cur.push(c.to_ascii_uppercase());
                } else if !cur.is_empty() {
                    parts.push(std::mem::take(&mut cur));
                }
            }
            if !cur.is_empty() {
                parts.push(cur);
            }
            Value::from(parts.join("_"))
        }
        TextFn::Clean => Value::from(clean(s)),
        TextFn::CompareCleaned => match text(n, a1)? {
            Some(t) => Value::Bool(clean(s) == clean(t)),
            None => Value::Bool(false),
        },
        TextFn::CharAt => match int(n, a1)? {
            Some(i) if i >= 0 => s
                .encode_utf16()
                .nth(i as usize)
                .map_or(Value::Null, |u| Value::Int(i64::from(u))),
            _ => Value::Null,
        },
        TextFn::Distance | TextFn::LevenshteinDistance => match text(n, a1)? {
            Some(t) => Value::Int(levenshtein(s, t) as i64),
            None => Value::Null,
        },
        TextFn::LevenshteinSimilarity => match text(n, a1)? {
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
        TextFn::FuzzyMatch => match text(n, a1)? {
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
        TextFn::HammingDistance => match text(n, a1)? {
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
        TextFn::IndexOf | TextFn::IndexesOf => {
            let Some(lookup) = text(n, a1)? else {
                return Ok(if f == TextFn::IndexOf {
                    Value::Int(-1)
                } else {
                    Value::List(Vec::new())
                });
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
            // (An empty lookup is found before every character, not at the end.)
            let hits: Vec<i64> = hay
                .match_indices(lookup)
                .map(|(b, _)| (from + hay[..b].chars().count()) as i64)
                .filter(|&i| (i as usize) < to)
                .collect();
            if f == TextFn::IndexOf {
                Value::Int(hits.first().copied().unwrap_or(-1))
            } else {
                Value::List(hits.into_iter().map(Value::Int).collect())
            }
        }
        TextFn::Lpad | TextFn::Rpad => {
            let count = int(n, a1)?.unwrap_or(0).clamp(0, 10_000_000) as usize;
            let pad = text(n, a2)?.unwrap_or(" ");
            let len = s.chars().count();
            if len >= count || pad.is_empty() {
                return Ok(Value::from(s));
            }
            let fill: String = pad.chars().cycle().take(count - len).collect();
            Value::from(if f == TextFn::Lpad {
                format!("{fill}{s}")
            } else {
                format!("{s}{fill}")
            })
        }
        TextFn::Repeat => {
            let count = int(n, a1)?.unwrap_or(0);
            if count < 0 {
                // Java sizes the builder as length × count.
                let size = (s.encode_utf16().count() as i64).wrapping_mul(count) as i32;
                if size < 0 {
                    return Err(failed(
                        n,
                        format!("java.lang.NegativeArraySizeException: {size}"),
                    ));
                }
            }
            let count = count.max(0) as usize;
            run.sh.can_allocate(s.len().saturating_mul(count))?;
            Value::from(s.repeat(count))
        }
        TextFn::Replace | TextFn::Regreplace => {
            let (Some(p), Some(r)) = (text(n, a1)?, text(n, a2)?) else {
                return Ok(Value::Null);
            };
            Value::from(
                regex(p)?
                    .replace_all(s, java_replacement(r).as_str())
                    .into_owned(),
            )
        }
        TextFn::Split => {
            let Some(p) = text(n, a1)? else {
                return Ok(Value::Null);
            };
            if matches!(args.get(2), Some(Value::Null)) {
                return Ok(Value::Null);
            }
            Value::List(java_split(s, &regex(p)?, int(n, a2)?.unwrap_or(0)))
        }
        TextFn::RegexGroups => {
            let Some(p) = text(n, a1)? else {
                return Ok(Value::List(Vec::new()));
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
        TextFn::Urlencode => Value::from(url_encode(s)),
        TextFn::Urldecode => Value::from(
            url_decode(s).ok_or_else(|| failed(n, "URLDecoder: Illegal hex characters"))?,
        ),
        TextFn::Base64Encode => Value::from(base64_encode(s.as_bytes(), B64, true)),
        // APOC encodes with Java's URL encoder, which pads.
        TextFn::Base64UrlEncode => Value::from(base64_encode(s.as_bytes(), B64_URL, true)),
        TextFn::Base64Decode | TextFn::Base64UrlDecode => {
            let alphabet = if f == TextFn::Base64Decode {
                B64
            } else {
                B64_URL
            };
            let bytes = java_base64_decode(s, alphabet)
                .map_err(|m| failed(n, format!("java.lang.IllegalArgumentException: {m}")))?;
            Value::from(String::from_utf8_lossy(&bytes).into_owned())
        }
        TextFn::ByteCount | TextFn::Bytes => {
            if matches!(args.get(1), Some(Value::Null)) {
                return Err(failed(n, "java.lang.NullPointerException"));
            }
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
            if f == TextFn::ByteCount {
                Value::Int(bytes.len() as i64)
            } else {
                // Neo4j hands APOC's byte array back as unsigned numbers.
                Value::List(
                    bytes
                        .into_iter()
                        .map(|b| Value::Int(i64::from(b)))
                        .collect(),
                )
            }
        }
        TextFn::Phonetic => Value::from(soundex(s)),
        _ => return Err(ExecError::unsupported(n)),
    })
}

/// `A-Za-z0-9` → the characters it names.
pub(super) fn expand_ranges(spec: &str) -> Vec<char> {
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

/// `apoc.text.clean`: lower-case letters and digits only.
/// APOC's `clean`: German umlauts and ß spelled out (`ä` → `ae`), other accents dropped
/// (canonical decomposition, marks removed), then only letters and digits, lower-cased.
pub(super) fn clean(s: &str) -> String {
    use unicode_normalization::char::is_combining_mark;
    use unicode_normalization::UnicodeNormalization;
    let mut spelled = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            'Ä' => spelled.push_str("Ae"),
            'Ü' => spelled.push_str("Ue"),
            'Ö' => spelled.push_str("Oe"),
            'ä' => spelled.push_str("ae"),
            'ü' => spelled.push_str("ue"),
            'ö' => spelled.push_str("oe"),
            'ß' => spelled.push_str("ss"),
            c => spelled.push(c),
        }
    }
    spelled
        .nfd()
        .filter(|c| !is_combining_mark(*c) && c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}
