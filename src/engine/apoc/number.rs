//! `apoc.number.*` as APOC 5 computes it: exact decimal arithmetic (`apoc.number.exact.*`, Java's
//! `BigDecimal` with a `MathContext`: precision in significant digits, Java's rounding modes) and
//! numbers formatted and parsed with Java `DecimalFormat` patterns and a language's symbols
//! (`apoc.number.format` / `parseInt` / `parseFloat`).

use super::{arg, failed, wrong};
use crate::engine::error::Result;
use crate::engine::exec::Runner;
use crate::value::Value;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

family! {
    /// The functions of this file.
    NumberFn {
        "apoc.number.exact.add" => ExactAdd,
        "apoc.number.exact.div" => ExactDiv,
        "apoc.number.exact.mul" => ExactMul,
        "apoc.number.exact.sub" => ExactSub,
        "apoc.number.exact.toexact" => ExactToExact,
        "apoc.number.exact.tofloat" => ExactToFloat,
        "apoc.number.exact.tointeger" => ExactToInteger,
        "apoc.number.format" => Format,
        "apoc.number.parsefloat" => ParseFloat,
        "apoc.number.parseint" => ParseInt,
    }
}

/// The longest plain decimal text an exact operation may take or produce, and the most
/// significant digits it may be asked for: a `1e999999999` operand or a precision of two
/// billion digits would otherwise ask for gigabytes (and unbounded time).
const MAX_PLAIN_DIGITS: u64 = 100_000;

pub(super) fn dispatch(run: &Runner, n: &str, m: NumberFn, args: &[Value]) -> Result<Value> {
    let (a0, a1) = (arg(args, 0), arg(args, 1));
    match m {
        NumberFn::ExactAdd | NumberFn::ExactSub | NumberFn::ExactMul | NumberFn::ExactDiv => {
            let (Some(a), Some(b)) = (opt_text(n, a0)?, opt_text(n, a1)?) else {
                return Ok(Value::Null);
            };
            let (a, b) = (parse_dec(n, a)?, parse_dec(n, b)?);
            // Both operands and the result are held as plain text: bounded before computing.
            let longest = a
                .plain_len()
                .saturating_add(b.plain_len())
                .saturating_add(4);
            if longest > MAX_PLAIN_DIGITS {
                return Err(failed(
                    n,
                    format!("the operands' plain forms are {longest} digits long, over grape's limit of {MAX_PLAIN_DIGITS}"),
                ));
            }
            run.sh.can_allocate(longest as usize * 3)?;
            let out = match m {
                NumberFn::ExactAdd => a.add(&b),
                NumberFn::ExactSub => a.add(&b.neg()),
                NumberFn::ExactMul => {
                    let mc = math_context(n, arg(args, 2), arg(args, 3))?;
                    a.mul(&b).round(mc).map_err(|e| failed(n, e))?
                }
                _ => {
                    let mc = math_context(n, arg(args, 2), arg(args, 3))?;
                    if mc.0 > MAX_PLAIN_DIGITS {
                        return Err(failed(
                            n,
                            format!("a precision of {} digits is over grape's limit of {MAX_PLAIN_DIGITS}", mc.0),
                        ));
                    }
                    a.div(&b, mc).map_err(|e| failed(n, e))?
                }
            };
            Ok(Value::from(out.to_plain()))
        }
        NumberFn::ExactToInteger | NumberFn::ExactToFloat => {
            let Some(s) = opt_text(n, a0)? else {
                return Ok(Value::Null);
            };
            let d = parse_dec(n, s)?;
            if m == NumberFn::ExactToInteger {
                // APOC widens the precision to p·10^p (as Java's long and int arithmetic
                // computes it) before rounding.
                let p = match a1 {
                    Value::Null => 0,
                    Value::Int(p) => {
                        let pow = 10f64.powf(*p as f64) as i64;
                        i64::from(p.wrapping_mul(pow) as i32)
                    }
                    other => return Err(wrong(n, other, "an integer")),
                };
                let mc = (precision(n, p)?, rounding(n, arg(args, 2))?);
                let d = d.round(mc).map_err(|e| failed(n, e))?;
                Ok(Value::Int(d.long_value()))
            } else {
                let mc = math_context(n, a1, arg(args, 2))?;
                let d = d.round(mc).map_err(|e| failed(n, e))?;
                Ok(Value::Float(d.double_value()))
            }
        }
        NumberFn::ExactToExact => match a0 {
            Value::Null => Ok(Value::Null),
            Value::Int(i) => Ok(Value::Int(*i)),
            other => Err(wrong(n, other, "an integer")),
        },
        NumberFn::Format => {
            let number = match a0 {
                Value::Int(i) => Num::Int(*i),
                Value::Float(f) => Num::Float(*f),
                // Not a number: null, as APOC returns.
                _ => return Ok(Value::Null),
            };
            let Some(fmt) = formatter(n, arg(args, 1), arg(args, 2))? else {
                return Ok(Value::Null);
            };
            Ok(Value::from(fmt.format(number)))
        }
        _ => {
            // parseInt / parseFloat
            let s = match a0 {
                Value::Null => return Ok(Value::Null),
                Value::String(s) => s,
                other => return Err(wrong(n, other, "a string")),
            };
            if s.trim().is_empty() {
                return Ok(Value::Null);
            }
            let fmt = match formatter(n, arg(args, 1), arg(args, 2)) {
                Ok(Some(fmt)) => fmt,
                // APOC calls the missing formatter (an unknown language): a
                // NullPointerException.
                Ok(None) => return Err(failed(n, "java.lang.NullPointerException: Cannot invoke \"java.text.DecimalFormat.parse(String)\" because the return value of \"apoc.number.Numbers.buildFormatter(String, String)\" is null")),
                // Java takes a pattern without digits as all prefix: nothing parses.
                Err(_) if !arg(args, 1)
                    .as_str()
                    .is_some_and(|p| p.contains(['#', '0', ',', '.', ';'])) =>
                {
                    return Ok(Value::Null)
                }
                Err(e) => return Err(e),
            };
            Ok(match fmt.parse(s) {
                None => Value::Null,
                Some(v) if m == NumberFn::ParseInt => Value::Int(match v {
                    Num::Int(i) => i,
                    // Java's long conversion: toward zero, saturating, NaN → 0.
                    Num::Float(f) => f as i64,
                }),
                Some(v) => Value::Float(match v {
                    Num::Int(i) => i as f64,
                    Num::Float(f) => f,
                }),
            })
        }
    }
}

fn opt_text<'a>(n: &str, v: &'a Value) -> Result<Option<&'a str>> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) if s.is_empty() => Ok(None),
        Value::String(s) => Ok(Some(s)),
        other => Err(wrong(n, other, "a string")),
    }
}

/// Java's `RoundingMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rounding {
    Up,
    Down,
    Ceiling,
    Floor,
    HalfUp,
    HalfDown,
    HalfEven,
    Unnecessary,
}

fn rounding(n: &str, v: &Value) -> Result<Rounding> {
    Ok(match v {
        Value::Null => Rounding::HalfUp,
        Value::String(s) => match &**s {
            "UP" => Rounding::Up,
            "DOWN" => Rounding::Down,
            "CEILING" => Rounding::Ceiling,
            "FLOOR" => Rounding::Floor,
            "HALF_UP" => Rounding::HalfUp,
            "HALF_DOWN" => Rounding::HalfDown,
            "HALF_EVEN" => Rounding::HalfEven,
            "UNNECESSARY" => Rounding::Unnecessary,
            other => {
                return Err(failed(
                    n,
                    format!("java.lang.IllegalArgumentException: No enum constant java.math.RoundingMode.{other}"),
                ))
            }
        },
        other => return Err(wrong(n, other, "a string")),
    })
}

fn precision(n: &str, p: i64) -> Result<u64> {
    u64::try_from(p).map_err(|_| failed(n, "java.lang.IllegalArgumentException: Digits < 0"))
}

/// A `MathContext`: significant digits (0: unlimited) and the rounding mode.
type MathContext = (u64, Rounding);

fn math_context(n: &str, p: &Value, mode: &Value) -> Result<MathContext> {
    let p = match p {
        Value::Null => 0,
        // (Java's `Long.intValue()`.)
        Value::Int(p) => i64::from(*p as i32),
        other => return Err(wrong(n, other, "an integer")),
    };
    Ok((precision(n, p)?, rounding(n, mode)?))
}

/// A decimal number as Java's `BigDecimal` holds it: `unscaled × 10^-scale`.
#[derive(Clone, Debug, PartialEq)]
struct Dec {
    unscaled: BigInt,
    scale: i64,
}

fn pow10(k: u64) -> BigInt {
    num_traits::pow(BigInt::from(10u8), k as usize)
}

/// Decimal digits of |v| (1 for zero).
fn digits(v: &BigInt) -> u64 {
    if v.is_zero() {
        return 1;
    }
    v.magnitude().to_str_radix(10).len() as u64
}

/// `num / den` rounded to an integer by `mode` (`den` > 0).
fn div_round(num: &BigInt, den: &BigInt, mode: Rounding) -> std::result::Result<BigInt, String> {
    let (q, r) = num.div_rem(den);
    if r.is_zero() {
        return Ok(q);
    }
    let negative = num.is_negative();
    let twice = r.abs() * 2u8;
    let away = match mode {
        Rounding::Up => true,
        Rounding::Down => false,
        Rounding::Ceiling => !negative,
        Rounding::Floor => negative,
        Rounding::HalfUp => twice >= *den,
        Rounding::HalfDown => twice > *den,
        Rounding::HalfEven => twice > *den || (twice == *den && q.is_odd()),
        Rounding::Unnecessary => {
            return Err("java.lang.ArithmeticException: Rounding necessary".into())
        }
    };
    Ok(match (away, negative) {
        (false, _) => q,
        (true, false) => q + 1u8,
        (true, true) => q - 1u8,
    })
}

impl Dec {
    fn neg(&self) -> Dec {
        Dec {
            unscaled: -self.unscaled.clone(),
            scale: self.scale,
        }
    }

    /// The length of the plain text (an upper bound).
    fn plain_len(&self) -> u64 {
        digits(&self.unscaled).saturating_add(self.scale.unsigned_abs())
    }

    fn add(&self, o: &Dec) -> Dec {
        let scale = self.scale.max(o.scale);
        let a = &self.unscaled * pow10((scale - self.scale) as u64);
        let b = &o.unscaled * pow10((scale - o.scale) as u64);
        Dec {
            unscaled: a + b,
            scale,
        }
    }

    fn mul(&self, o: &Dec) -> Dec {
        Dec {
            unscaled: &self.unscaled * &o.unscaled,
            scale: self.scale + o.scale,
        }
    }

    /// Rounded to the context's significant digits (unchanged when it has no more).
    fn round(self, (p, mode): MathContext) -> std::result::Result<Dec, String> {
        if p == 0 {
            return Ok(self);
        }
        let d = digits(&self.unscaled);
        if d <= p {
            return Ok(self);
        }
        let drop = d - p;
        let mut v = div_round(&self.unscaled, &pow10(drop), mode)?;
        let mut scale = self.scale - drop as i64;
        if digits(&v) > p {
            // 999 → 1000: one digit more, and a zero to drop exactly.
            v /= 10u8;
            scale -= 1;
        }
        Ok(Dec { unscaled: v, scale })
    }

    /// `BigDecimal.divide(divisor, mc)`: exact under an unlimited context (an error when the
    /// expansion does not terminate), else rounded to the context's digits; then trailing
    /// zeros are removed down to the preferred scale (the dividend's minus the divisor's).
    fn div(&self, o: &Dec, (p, mode): MathContext) -> std::result::Result<Dec, String> {
        if o.unscaled.is_zero() {
            return Err(if self.unscaled.is_zero() {
                "java.lang.ArithmeticException: Division undefined".into()
            } else {
                "java.lang.ArithmeticException: Division by zero".into()
            });
        }
        let preferred = self.scale - o.scale;
        if self.unscaled.is_zero() {
            return Ok(Dec {
                unscaled: BigInt::zero(),
                scale: preferred,
            });
        }
        let (num, den) = if o.unscaled.is_negative() {
            (-self.unscaled.clone(), -o.unscaled.clone())
        } else {
            (self.unscaled.clone(), o.unscaled.clone())
        };
        let (q, scale) = if p == 0 {
            // Exact: the reduced denominator must be 2^x·5^y.
            let g = num.gcd(&den);
            let (num, mut rest) = (num / &g, den / &g);
            let (mut twos, mut fives) = (0u64, 0u64);
            while (&rest % 2u8).is_zero() {
                rest /= 2u8;
                twos += 1;
            }
            while (&rest % 5u8).is_zero() {
                rest /= 5u8;
                fives += 1;
            }
            if !rest.is_one() {
                return Err("java.lang.ArithmeticException: Non-terminating decimal expansion; no exact representable decimal result.".into());
            }
            // num / (2^x·5^y) = num · 2^(k-x) · 5^(k-y) / 10^k.
            let k = twos.max(fives);
            let factor = num_traits::pow(BigInt::from(2u8), (k - twos) as usize)
                * num_traits::pow(BigInt::from(5u8), (k - fives) as usize);
            (num * factor, preferred + k as i64)
        } else {
            // The quotient's decimal exponent, nearly: then one truncated division tells how
            // many digits a scale gives, and one rounded division makes the result.
            let adjusted = (digits(&num) as i64 - self.scale) - (digits(&den) as i64 - o.scale);
            let scaled = |s: i64| -> (BigInt, BigInt) {
                let shift = s - preferred;
                if shift >= 0 {
                    (&num * pow10(shift as u64), den.clone())
                } else {
                    (num.clone(), &den * pow10((-shift) as u64))
                }
            };
            let mut s = p as i64 - adjusted + 1;
            let (a, b) = scaled(s);
            let d = digits(&(a / b));
            s -= d as i64 - p as i64;
            let (a, b) = scaled(s);
            let mut q = div_round(&a, &b, mode)?;
            if digits(&q) > p {
                q /= 10u8;
                s -= 1;
            }
            (q, s)
        };
        // Trailing zeros stripped down to the preferred scale.
        let (mut q, mut scale) = (q, scale);
        while scale > preferred && !q.is_zero() && (&q % 10u8).is_zero() {
            q /= 10u8;
            scale -= 1;
        }
        if q.is_zero() {
            scale = preferred;
        }
        Ok(Dec { unscaled: q, scale })
    }

    /// `BigDecimal.toPlainString()`.
    fn to_plain(&self) -> String {
        let neg = self.unscaled.is_negative();
        let digits = self.unscaled.magnitude().to_str_radix(10);
        let mut out = String::new();
        if neg {
            out.push('-');
        }
        if self.scale <= 0 {
            out.push_str(&digits);
            if !self.unscaled.is_zero() {
                out.extend(std::iter::repeat_n('0', self.scale.unsigned_abs() as usize));
            }
        } else {
            let scale = self.scale as usize;
            if digits.len() <= scale {
                out.push_str("0.");
                out.extend(std::iter::repeat_n('0', scale - digits.len()));
                out.push_str(&digits);
            } else {
                let (i, f) = digits.split_at(digits.len() - scale);
                out.push_str(i);
                out.push('.');
                out.push_str(f);
            }
        }
        out
    }

    /// `BigDecimal.longValue()`: the integer part, its low 64 bits.
    fn long_value(&self) -> i64 {
        let int = if self.scale <= 0 {
            &self.unscaled * pow10(self.scale.unsigned_abs().min(64))
        } else {
            &self.unscaled / pow10(self.scale as u64)
        };
        let (sign, mut bytes) = int.to_bytes_le();
        bytes.resize(8, 0);
        let low = u64::from_le_bytes(bytes[..8].try_into().unwrap_or([0; 8]));
        let v = low as i64;
        if sign == num_bigint::Sign::Minus {
            v.wrapping_neg()
        } else {
            v
        }
    }

    /// `BigDecimal.doubleValue()`: the nearest double.
    fn double_value(&self) -> f64 {
        format!("{}e{}", self.unscaled, -self.scale)
            .parse()
            .unwrap_or(f64::NAN)
    }
}

/// `new BigDecimal(String)`: `[+-]digits[.digits][e[+-]digits]`.
fn parse_dec(n: &str, s: &str) -> Result<Dec> {
    let bad = || {
        failed(n, format!("java.lang.NumberFormatException: Character array is not a valid decimal number: {s}"))
    };
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (neg, mantissa) = match mantissa.as_bytes().first() {
        Some(b'-') => (true, &mantissa[1..]),
        Some(b'+') => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let exp: i64 = match exp {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            e.parse::<i32>()
                .map_err(|_| failed(n, "java.lang.NumberFormatException: Exponent overflow."))?
                as i64
        }
    };
    let scale = frac.len() as i64 - exp;
    if i32::try_from(scale).is_err() {
        return Err(failed(
            n,
            "java.lang.NumberFormatException: Scale out of range.",
        ));
    }
    let text = format!("{int}{frac}");
    let mut unscaled: BigInt = text.parse().map_err(|_| bad())?;
    if neg {
        unscaled = -unscaled;
    }
    Ok(Dec { unscaled, scale })
}

/// A number to format, as Java receives it: a `Long` or a `Double`.
#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i64),
    Float(f64),
}

/// A language's number symbols, as the JDK's CLDR data gives them.
#[derive(Clone, Copy, Debug)]
struct Symbols {
    group: char,
    decimal: char,
    minus: char,
}

/// ISO 639 language codes as Java's `Locale.getISOLanguages()` lists them.
const ISO_LANGUAGES: &[&str] = &[
    "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh",
    "bi", "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da",
    "de", "dv", "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr",
    "fy", "ga", "gd", "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz",
    "ia", "id", "ie", "ig", "ii", "ik", "in", "io", "is", "it", "iu", "iw", "ja", "ji", "jv", "ka",
    "kg", "ki", "kj", "kk", "kl", "km", "kn", "ko", "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb",
    "lg", "li", "ln", "lo", "lt", "lu", "lv", "mg", "mh", "mi", "mk", "ml", "mn", "mo", "mr", "ms",
    "mt", "my", "na", "nb", "nd", "ne", "ng", "nl", "nn", "no", "nr", "nv", "ny", "oc", "oj", "om",
    "or", "os", "pa", "pi", "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru", "rw", "sa", "sc", "sd",
    "se", "sg", "si", "sk", "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su", "sv", "sw", "ta",
    "te", "tg", "th", "ti", "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug", "uk", "ur",
    "uz", "ve", "vi", "vo", "wa", "wo", "xh", "yi", "yo", "za", "zh", "zu",
];

/// Languages whose default digits are not the Latin ones (Arabic-Indic, Bengali, …).
const OTHER_DIGITS: &[&str] = &["ar", "bn", "dz", "fa", "mr", "my", "ne", "ps", "ur"];

/// The symbols of `lang`, a known ISO code of Latin digits.
fn symbols(lang: &str) -> Symbols {
    const NBSP: char = '\u{a0}';
    const NNBSP: char = '\u{202f}';
    const MINUS: char = '\u{2212}';
    let (group, decimal, minus) = match lang {
        "de" | "it" | "es" | "pt" | "nl" | "da" | "tr" | "id" | "in" | "el" | "ro" | "sr"
        | "vi" | "ca" | "gl" | "is" | "az" | "mk" | "bs" | "lb" | "fy" => ('.', ',', '-'),
        "hr" | "sl" | "eu" => ('.', ',', MINUS),
        "fr" => (NNBSP, ',', '-'),
        "ru" | "uk" | "be" | "bg" | "cs" | "sk" | "pl" | "hu" | "lv" | "kk" | "hy" | "ka"
        | "uz" | "af" | "sq" | "ky" | "tk" | "pt_pt" => (NBSP, ',', '-'),
        "sv" | "fi" | "nb" | "no" | "nn" | "et" | "lt" | "fo" | "se" => (NBSP, ',', MINUS),
        // CLDR's root symbols.
        _ => (',', '.', '-'),
    };
    Symbols {
        group,
        decimal,
        minus,
    }
}

/// A Java `DecimalFormat`: its pattern and symbols.
#[derive(Clone, Debug)]
struct Format {
    sym: Symbols,
    pos_prefix: String,
    pos_suffix: String,
    neg_prefix: String,
    neg_suffix: String,
    min_int: usize,
    max_int: usize,
    min_frac: usize,
    max_frac: usize,
    /// Digits per group (0: no grouping).
    grouping: usize,
    multiplier: i64,
    decimal_always: bool,
    /// Minimum exponent digits, for a scientific pattern (`0.###E0`).
    exponent: Option<usize>,
}

/// The formatter of `pattern` (empty: the default `#,##0.###`) and `language` (empty: `en`);
/// `None` for a language Java does not know, as APOC returns no formatter then.
fn formatter(n: &str, pattern: &Value, language: &Value) -> Result<Option<Format>> {
    let pattern = match pattern {
        Value::Null => "",
        Value::String(s) => &**s,
        other => return Err(wrong(n, other, "a string")),
    };
    let lang = match language {
        Value::Null => "en".to_string(),
        Value::String(s) if s.is_empty() => "en".to_string(),
        Value::String(s) => s.to_ascii_lowercase(),
        other => return Err(wrong(n, other, "a string")),
    };
    if !ISO_LANGUAGES.contains(&lang.as_str()) {
        return Ok(None);
    }
    if OTHER_DIGITS.contains(&lang.as_str()) {
        return Err(failed(
            n,
            format!(
                "grape formats numbers with Latin digits only; the language `{lang}` writes others"
            ),
        ));
    }
    let sym = symbols(&lang);
    let pattern = if pattern.is_empty() {
        "#,##0.###"
    } else {
        pattern
    };
    parse_pattern(pattern, sym)
        .map(Some)
        .map_err(|e| failed(n, format!("java.lang.IllegalArgumentException: {e}")))
}

/// Splits a subpattern into prefix, number part and suffix (quotes and special characters in
/// the affixes resolved); returns the number part's multiplier too.
fn affixes(sub: &str, sym: Symbols) -> std::result::Result<(String, String, String, i64), String> {
    let chars: Vec<char> = sub.chars().collect();
    let mut i = 0;
    let mut multiplier = 1;
    let mut affix =
        |i: &mut usize, stop: &dyn Fn(char) -> bool| -> std::result::Result<String, String> {
            let mut out = String::new();
            while *i < chars.len() {
                let c = chars[*i];
                if c == '\'' {
                    // 'quoted' text; '' is a quote.
                    if chars.get(*i + 1) == Some(&'\'') {
                        out.push('\'');
                        *i += 2;
                        continue;
                    }
                    *i += 1;
                    loop {
                        match chars.get(*i) {
                            None => return Err(format!("Malformed pattern \"{sub}\"")),
                            Some('\'') if chars.get(*i + 1) == Some(&'\'') => {
                                out.push('\'');
                                *i += 2;
                            }
                            Some('\'') => {
                                *i += 1;
                                break;
                            }
                            Some(&c) => {
                                out.push(c);
                                *i += 1;
                            }
                        }
                    }
                    continue;
                }
                if stop(c) {
                    break;
                }
                match c {
                    '%' => {
                        multiplier = 100;
                        out.push('%');
                    }
                    '\u{2030}' => {
                        multiplier = 1000;
                        out.push('\u{2030}');
                    }
                    '-' => out.push(sym.minus),
                    '\u{a4}' => out.push('\u{a4}'),
                    _ => out.push(c),
                }
                *i += 1;
            }
            Ok(out)
        };
    let is_number = |c: char| matches!(c, '#' | '0' | ',' | '.');
    let prefix = affix(&mut i, &is_number)?;
    let start = i;
    while i < chars.len() && (is_number(chars[i]) || chars[i] == 'E' || (chars[i] == '0')) {
        if chars[i] == 'E' {
            i += 1;
            while i < chars.len() && chars[i] == '0' {
                i += 1;
            }
            break;
        }
        i += 1;
    }
    let number: String = chars[start..i].iter().collect();
    let suffix = affix(&mut i, &|_| false)?;
    Ok((prefix, number, suffix, multiplier))
}

fn parse_pattern(pattern: &str, sym: Symbols) -> std::result::Result<Format, String> {
    // A `;` outside quotes separates the negative subpattern.
    let mut split = None;
    let mut quoted = false;
    for (i, c) in pattern.char_indices() {
        match c {
            '\'' => quoted = !quoted,
            ';' if !quoted => {
                split = Some(i);
                break;
            }
            _ => {}
        }
    }
    let (pos, neg) = match split {
        Some(i) => (&pattern[..i], Some(&pattern[i + 1..])),
        None => (pattern, None),
    };
    let (pos_prefix, number, pos_suffix, multiplier) = affixes(pos, sym)?;
    if number.is_empty() {
        return Err(format!("Malformed pattern \"{pattern}\""));
    }
    let (neg_prefix, neg_suffix) = match neg {
        Some(n) if !n.is_empty() => {
            let (p, _, s, _) = affixes(n, sym)?;
            (p, s)
        }
        _ => (format!("{}{pos_prefix}", sym.minus), pos_suffix.clone()),
    };
    let (mantissa, exponent) = match number.split_once('E') {
        Some((m, e)) => (m.to_string(), Some(e.len().max(1))),
        None => (number.clone(), None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (mantissa.clone(), None),
    };
    if frac.as_deref().is_some_and(|f| f.contains('.')) {
        return Err(format!(
            "Multiple decimal separators in pattern \"{pattern}\""
        ));
    }
    if frac.as_deref().is_some_and(|f| f.contains(','))
        || int.contains("0#")
        || frac.as_deref().is_some_and(|f| f.contains("#0"))
    {
        return Err(format!("Malformed pattern \"{pattern}\""));
    }
    let grouping = match int.rfind(',') {
        Some(i) => int[i + 1..].len(),
        None => 0,
    };
    if int.contains(',') && grouping == 0 {
        return Err(format!("Malformed pattern \"{pattern}\""));
    }
    let int_digits = int.chars().filter(|c| *c != ',').count();
    let min_int = int.chars().filter(|c| *c == '0').count();
    let frac = frac.unwrap_or_default();
    Ok(Format {
        sym,
        pos_prefix,
        pos_suffix,
        neg_prefix,
        neg_suffix,
        min_int,
        max_int: if exponent.is_some() {
            int_digits
        } else {
            usize::MAX
        },
        min_frac: frac.chars().filter(|c| *c == '0').count(),
        max_frac: frac.chars().count(),
        grouping,
        multiplier,
        decimal_always: mantissa.ends_with('.'),
        exponent,
    })
}

impl Format {
    fn format(&self, n: Num) -> String {
        let (negative, text) = match n {
            Num::Int(i) => {
                let v = i128::from(i) * i128::from(self.multiplier);
                (v < 0, Digits::Int(v.unsigned_abs()))
            }
            Num::Float(f) if f.is_nan() => return "NaN".into(),
            Num::Float(f) => {
                let v = f * self.multiplier as f64;
                let negative = v.is_sign_negative();
                if v.is_infinite() {
                    let (p, s) = self.affixes(negative);
                    return format!("{p}\u{221e}{s}");
                }
                (negative, Digits::Float(v.abs()))
            }
        };
        let body = match self.exponent {
            None => self.plain(text),
            Some(min_exp) => self.scientific(text, min_exp),
        };
        // A negative number that rounds to zero keeps its sign, as Java's does.
        let (p, s) = self.affixes(negative);
        format!("{p}{body}{s}")
    }

    fn affixes(&self, negative: bool) -> (&str, &str) {
        if negative {
            (&self.neg_prefix, &self.neg_suffix)
        } else {
            (&self.pos_prefix, &self.pos_suffix)
        }
    }

    fn plain(&self, d: Digits) -> String {
        let (int, frac) = d.rounded(self.max_frac.min(340));
        let frac = frac.trim_end_matches('0');
        let mut frac = frac.to_string();
        while frac.len() < self.min_frac {
            frac.push('0');
        }
        let int = int.trim_start_matches('0');
        let mut int = int.to_string();
        while int.len() < self.min_int {
            int.insert(0, '0');
        }
        if int.is_empty() && frac.is_empty() {
            int.push('0');
        }
        let mut out = String::new();
        let len = int.chars().count();
        for (i, c) in int.chars().enumerate() {
            if i > 0 && self.grouping > 0 && (len - i) % self.grouping == 0 {
                out.push(self.sym.group);
            }
            out.push(c);
        }
        if !frac.is_empty() || self.decimal_always {
            out.push(self.sym.decimal);
            out.push_str(&frac);
        }
        out
    }

    /// Scientific notation: the integer digits are the minimum integer digits, or with more
    /// maximum than minimum integer digits (engineering), the exponent is a multiple of the
    /// maximum; the significant digits are the minimum integer plus the maximum fraction.
    fn scientific(&self, d: Digits, min_exp: usize) -> String {
        let (all, point) = d.exact();
        let sig = all.trim_start_matches('0');
        if sig.is_empty() {
            let mut m = "0".repeat(self.min_int.max(1));
            if self.min_frac > 0 {
                m.push(self.sym.decimal);
                m.push_str(&"0".repeat(self.min_frac));
            }
            return format!("{m}E{}", "0".repeat(min_exp));
        }
        // Decimal exponent of the first significant digit.
        let lead = all.len() - sig.len();
        let first_exp = point as i64 - lead as i64 - 1;
        let engineering = self.max_int > self.min_int && self.max_int > 1;
        let (int_digits, exp) = if engineering {
            let m = self.max_int as i64;
            let e = first_exp.div_euclid(m) * m;
            ((first_exp - e + 1) as usize, e)
        } else {
            let k = self.min_int.max(1) as i64;
            (k as usize, first_exp - k + 1)
        };
        let max_sig = self.min_int.max(1) + self.max_frac;
        let max_sig = max_sig.max(int_digits);
        // Round the significant digits to max_sig.
        let digits: String = sig.chars().collect();
        let rounded = round_digit_string(&digits, max_sig);
        let (digits, exp) = match rounded {
            (s, true) => (
                s,
                exp + if int_digits == 1 || !engineering {
                    1
                } else {
                    0
                },
            ),
            (s, false) => (s, exp),
        };
        let mut digits = digits;
        while digits.len() < int_digits {
            digits.push('0');
        }
        let (int, frac) = digits.split_at(int_digits);
        let mut frac = frac.trim_end_matches('0').to_string();
        while frac.len() < self.min_frac {
            frac.push('0');
        }
        let mut out = int.to_string();
        if !frac.is_empty() || self.decimal_always {
            out.push(self.sym.decimal);
            out.push_str(&frac);
        }
        out.push('E');
        if exp < 0 {
            out.push(self.sym.minus);
        }
        let e = exp.unsigned_abs().to_string();
        for _ in e.len()..min_exp {
            out.push('0');
        }
        out.push_str(&e);
        out
    }

    /// `DecimalFormat.parse`: an affix, then the longest number (grouping separators skipped
    /// in the integer part); text after it is ignored. `None` where nothing parses.
    fn parse(&self, s: &str) -> Option<Num> {
        let try_side = |prefix: &str, suffix: &str| -> Option<(f64, bool, usize)> {
            let rest = s.strip_prefix(prefix)?;
            let (v, integral, used) = self.number(rest)?;
            let after = &rest[used..];
            if !suffix.is_empty() && !after.starts_with(suffix) {
                return None;
            }
            Some((v, integral, prefix.len() + used + suffix.len()))
        };
        let pos = try_side(&self.pos_prefix, &self.pos_suffix);
        let neg = try_side(&self.neg_prefix, &self.neg_suffix);
        let (v, integral, negative) = match (pos, neg) {
            (Some(p), Some(n)) if n.2 > p.2 => (n.0, n.1, true),
            (Some(p), _) => (p.0, p.1, false),
            (None, Some(n)) => (n.0, n.1, true),
            (None, None) => return None,
        };
        let mut v = if negative { -v } else { v };
        if self.multiplier != 1 {
            v /= self.multiplier as f64;
        }
        if integral && v.fract() == 0.0 && v.abs() < 9.2e18 && !(v == 0.0 && negative) {
            Some(Num::Int(v as i64))
        } else {
            Some(Num::Float(v))
        }
    }

    /// The number at the start of `s`: its value, whether it was written without a fraction or
    /// exponent, and the bytes it took.
    fn number(&self, s: &str) -> Option<(f64, bool, usize)> {
        let mut text = String::new();
        let mut used = 0;
        let mut seen_digit = false;
        let mut seen_decimal = false;
        let mut chars = s.char_indices().peekable();
        while let Some(&(i, c)) = chars.peek() {
            if let Some(d) = c.to_digit(10) {
                text.push(char::from(b'0' + d as u8));
                seen_digit = true;
                used = i + c.len_utf8();
            } else if c == self.sym.decimal && !seen_decimal {
                text.push('.');
                seen_decimal = true;
                used = i + c.len_utf8();
            } else if c == self.sym.group && self.grouping > 0 && !seen_decimal {
                // skipped
            } else if c == 'E' && seen_digit {
                // An exponent only when digits follow it.
                let rest = &s[i + 1..];
                let (sign, body) = match rest.chars().next() {
                    Some(m) if m == self.sym.minus || m == '-' => ("-", &rest[m.len_utf8()..]),
                    _ => ("", rest),
                };
                let exp_digits: String = body.chars().take_while(|c| c.is_ascii_digit()).collect();
                if exp_digits.is_empty() {
                    break;
                }
                text.push('e');
                text.push_str(sign);
                text.push_str(&exp_digits);
                used = s.len() - body.len() + exp_digits.len();
                seen_decimal = true;
                break;
            } else {
                break;
            }
            chars.next();
        }
        if !seen_digit {
            return None;
        }
        let v: f64 = text.parse().ok()?;
        Some((v, !seen_decimal, used))
    }
}

/// Rounds a string of significant digits to `n` digits, half-even; whether a digit was carried
/// into a new leading place.
fn round_digit_string(d: &str, n: usize) -> (String, bool) {
    if d.len() <= n {
        return (d.to_string(), false);
    }
    let mut keep: Vec<u8> = d.as_bytes()[..n].to_vec();
    let rest = &d.as_bytes()[n..];
    let up = match rest[0] {
        b'6'..=b'9' => true,
        b'5' => {
            rest[1..].iter().any(|b| *b != b'0') || keep.last().is_some_and(|b| (b - b'0') % 2 == 1)
        }
        _ => false,
    };
    if !up {
        return (String::from_utf8(keep).unwrap_or_default(), false);
    }
    let mut i = keep.len();
    loop {
        if i == 0 {
            keep.insert(0, b'1');
            keep.pop();
            return (String::from_utf8(keep).unwrap_or_default(), true);
        }
        i -= 1;
        if keep[i] == b'9' {
            keep[i] = b'0';
        } else {
            keep[i] += 1;
            break;
        }
    }
    (String::from_utf8(keep).unwrap_or_default(), false)
}

/// A non-negative number to write: an integer, or a float whose exact binary value decides
/// rounding ties.
enum Digits {
    Int(u128),
    Float(f64),
}

impl Digits {
    /// All its decimal digits, exactly, and how many come before the decimal point.
    fn exact(&self) -> (String, usize) {
        match self {
            Digits::Int(v) => {
                let digits = v.to_string();
                let point = digits.len();
                (digits, point)
            }
            Digits::Float(v) => {
                // Enough digits to hold the exact value's significant part.
                let s = format!("{v:.1074}");
                let (i, f) = s.split_once('.').unwrap_or((&s, ""));
                (format!("{i}{}", f.trim_end_matches('0')), i.len())
            }
        }
    }

    /// Integer and fraction digits, rounded half-even to `frac` fraction digits.
    fn rounded(&self, frac: usize) -> (String, String) {
        match self {
            Digits::Float(v) => {
                // Rust rounds the exact binary value, ties to even: Java's HALF_EVEN.
                let s = format!("{v:.frac$}");
                match s.split_once('.') {
                    Some((i, f)) => (i.to_string(), f.to_string()),
                    None => (s, String::new()),
                }
            }
            Digits::Int(v) => (v.to_string(), "0".repeat(frac)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Dec {
        parse_dec("t", s).unwrap()
    }

    #[test]
    fn exact_arithmetic_follows_big_decimal() {
        assert_eq!(
            dec("1238126387").add(&dec("1213669989")).to_plain(),
            "2451796376"
        );
        assert_eq!(dec("1.10").add(&dec("-2.1")).to_plain(), "-1.00");
        let mc = |p, m| (p, m);
        let m = dec("550058444").mul(&dec("662557"));
        assert_eq!(
            m.clone()
                .round(mc(15, Rounding::HalfDown))
                .unwrap()
                .to_plain(),
            "364445072481308"
        );
        assert_eq!(
            m.clone()
                .round(mc(5, Rounding::HalfDown))
                .unwrap()
                .to_plain(),
            "364450000000000"
        );
        assert_eq!(
            m.round(mc(10, Rounding::Down)).unwrap().to_plain(),
            "364445072400000"
        );
        let q = dec("550058444")
            .div(&dec("662557"), mc(18, Rounding::HalfDown))
            .unwrap();
        assert_eq!(q.to_plain(), "830.205467605051339");
        assert_eq!(
            dec("1")
                .div(&dec("8"), mc(0, Rounding::HalfUp))
                .unwrap()
                .to_plain(),
            "0.125"
        );
        assert_eq!(
            dec("10")
                .div(&dec("4"), mc(0, Rounding::HalfUp))
                .unwrap()
                .to_plain(),
            "2.5"
        );
        assert_eq!(
            dec("1.00")
                .div(&dec("2"), mc(0, Rounding::HalfUp))
                .unwrap()
                .to_plain(),
            "0.50"
        );
        assert_eq!(
            dec("10")
                .div(&dec("4"), mc(18, Rounding::HalfUp))
                .unwrap()
                .to_plain(),
            "2.5"
        );
        assert_eq!(
            dec("2")
                .div(&dec("3"), mc(3, Rounding::HalfUp))
                .unwrap()
                .to_plain(),
            "0.667"
        );
        assert_eq!(
            dec("-2")
                .div(&dec("3"), mc(3, Rounding::Floor))
                .unwrap()
                .to_plain(),
            "-0.667"
        );
        assert_eq!(
            dec("999")
                .div(&dec("1"), mc(2, Rounding::HalfUp))
                .unwrap()
                .to_plain(),
            "1000"
        );
        assert!(dec("1")
            .div(&dec("3"), mc(0, Rounding::HalfUp))
            .unwrap_err()
            .contains("Non-terminating"));
        assert!(dec("1")
            .div(&dec("0"), mc(0, Rounding::HalfUp))
            .unwrap_err()
            .contains("Division by zero"));
        assert_eq!(dec("1e3").to_plain(), "1000");
        assert_eq!(dec("-1.5E-3").to_plain(), "-0.0015");
        assert_eq!(dec("123.9").long_value(), 123);
        assert_eq!(dec("-123.9").long_value(), -123);
        assert_eq!(dec("18446744073709551617").long_value(), 1);
        assert_eq!(dec("50423.1656").double_value(), 50423.1656);
        assert!(parse_dec("t", "1.2.3").is_err() && parse_dec("t", "e5").is_err());
    }

    fn fmt(p: &str, lang: &str) -> Format {
        formatter("t", &Value::from(p), &Value::from(lang))
            .unwrap()
            .unwrap()
    }

    #[test]
    fn decimal_format_patterns_and_symbols() {
        assert_eq!(fmt("", "").format(Num::Int(12345)), "12,345");
        assert_eq!(fmt("", "it").format(Num::Int(12345)), "12.345");
        assert_eq!(
            fmt("#,##0.00;(#,##0.00)", "").format(Num::Int(12345)),
            "12,345.00"
        );
        assert_eq!(
            fmt("#,##0.00;(#,##0.00)", "it").format(Num::Float(12345.67)),
            "12.345,67"
        );
        assert_eq!(
            fmt("#,##0.00;(#,##0.00)", "").format(Num::Float(-1234.5)),
            "(1,234.50)"
        );
        assert_eq!(fmt("", "").format(Num::Float(1234.5678)), "1,234.568");
        assert_eq!(fmt("", "").format(Num::Float(1.2345)), "1.234");
        assert_eq!(fmt("0", "").format(Num::Float(2.5)), "2");
        assert_eq!(fmt("0", "").format(Num::Float(3.5)), "4");
        assert_eq!(
            fmt("", "fr").format(Num::Float(12345.67)),
            "12\u{202f}345,67"
        );
        assert_eq!(
            fmt("", "").format(Num::Float(1e20)),
            "100,000,000,000,000,000,000"
        );
        assert_eq!(fmt("0.00%", "").format(Num::Float(0.256)), "25.60%");
        assert_eq!(fmt("'#'0", "").format(Num::Int(7)), "#7");
        assert_eq!(fmt("0.###E0", "").format(Num::Int(12345)), "1.234E4");
        assert_eq!(fmt("00.###E0", "").format(Num::Float(0.00123)), "12.3E-4");
        assert_eq!(fmt("##0.#####E0", "").format(Num::Int(123456)), "123.456E3");
        assert!(formatter("t", &Value::from(""), &Value::from("apoc"))
            .unwrap()
            .is_none());
        let parse = |s: &str, p: &str, l: &str| fmt(p, l).parse(s);
        assert!(matches!(parse("12,345", "", ""), Some(Num::Int(12345))));
        assert!(matches!(parse("12.345", "", "it"), Some(Num::Int(12345))));
        assert!(matches!(parse("12,345abc", "", ""), Some(Num::Int(12345))));
        assert!(matches!(parse("12.5", "", ""), Some(Num::Float(f)) if f == 12.5));
        assert!(
            matches!(parse("(1,234.50)", "#,##0.00;(#,##0.00)", ""), Some(Num::Float(f)) if f == -1234.5)
        );
        assert!(matches!(parse("1e3", "", ""), Some(Num::Int(1))));
        assert!(parse("abc12", "", "").is_none() && parse(" 12", "", "").is_none());
    }
}
