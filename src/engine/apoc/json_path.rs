//! JSON as APOC reads it: Jackson's lenient parser (unquoted field names, single quotes,
//! comments, any character escaped, `NaN`), then Jayway JsonPath (`$.a.b`, `['a']`, `[0]`,
//! `[-1]`, `[1:3]`, `[*]`, `..a` deep scans, `[?(@.price < 10 && @.tag =~ /x.*/i)]` filters,
//! `length()`), with the options APOC passes (`DEFAULT_PATH_LEAF_TO_NULL` and
//! `SUPPRESS_EXCEPTIONS` unless the call names others). Used by `apoc.json.path`,
//! `apoc.convert.getJsonProperty(Map)` and the path argument of `apoc.convert.fromJson*`.

use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Jayway's options, as APOC accepts them by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Options {
    pub leaf_to_null: bool,
    pub always_list: bool,
    pub as_path_list: bool,
    pub suppress: bool,
    pub require_properties: bool,
}

impl Options {
    /// APOC's options from its `pathOptions` argument (null: leaf-to-null and suppressed
    /// exceptions).
    pub fn from_value(v: &Value) -> Result<Options, String> {
        let Value::List(names) = v else {
            return Ok(Options {
                leaf_to_null: true,
                suppress: true,
                ..Options::default()
            });
        };
        let mut o = Options::default();
        for n in names {
            match crate::engine::functions::to_string_plain(n).as_str() {
                "DEFAULT_PATH_LEAF_TO_NULL" => o.leaf_to_null = true,
                "ALWAYS_RETURN_LIST" => o.always_list = true,
                "AS_PATH_LIST" => o.as_path_list = true,
                "SUPPRESS_EXCEPTIONS" => o.suppress = true,
                "REQUIRE_PROPERTIES" => o.require_properties = true,
                _ => return Err("java.lang.RuntimeException: Invalid pathOptions. The allowed values are: [DEFAULT_PATH_LEAF_TO_NULL, ALWAYS_RETURN_LIST, AS_PATH_LIST, SUPPRESS_EXCEPTIONS, REQUIRE_PROPERTIES]".into()),
            }
        }
        Ok(o)
    }
}

/// What a caller wants back (`JsonUtil.parse`'s type argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Want {
    Any,
    Map,
    List,
}

/// APOC's `JsonUtil.parse(json, path, type, options)`.
pub(super) fn parse(json: &str, path: &str, want: Want, opts: Options) -> Result<Value, String> {
    let what = match want {
        Want::Any => "Object",
        Want::Map => "Map",
        Want::List => "List",
    };
    if want == Want::Map && opts.always_list {
        return Err("java.lang.RuntimeException: It's not possible to use ALWAYS_RETURN_LIST option because the conversion should return a Map".into());
    }
    let cant =
        || format!("java.lang.RuntimeException: Can't convert {json} to {what} with path {path}");
    let doc = Lenient::parse(json).map_err(|_| cant())?;
    let out = if path.is_empty() {
        doc
    } else {
        let p = Path::parse(path)
            .map_err(|e| format!("com.jayway.jsonpath.InvalidPathException: {e}"))?;
        p.read(&doc, opts)?
    };
    match (want, &out) {
        (_, Value::Null)
        | (Want::Any, _)
        | (Want::Map, Value::Map(_))
        | (Want::List, Value::List(_)) => Ok(out),
        _ => Err(cant()),
    }
}

/// Jackson's parser with the features APOC enables.
struct Lenient<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

const MAX_DEPTH: usize = crate::value::MAX_NESTING;

impl<'a> Lenient<'a> {
    fn parse(text: &'a str) -> Result<Value, String> {
        let mut p = Lenient {
            s: text.as_bytes(),
            text,
            i: 0,
        };
        let v = p.value(0)?;
        p.space()?;
        if p.i != p.s.len() {
            return Err(format!("unexpected text at {}", p.i));
        }
        Ok(v)
    }

    fn space(&mut self) -> Result<(), String> {
        loop {
            match self.s.get(self.i) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.i += 1,
                Some(b'/') if self.s.get(self.i + 1) == Some(&b'/') => {
                    while self.i < self.s.len() && self.s[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                Some(b'/') if self.s.get(self.i + 1) == Some(&b'*') => {
                    let end = self.text[self.i + 2..]
                        .find("*/")
                        .ok_or("unterminated comment")?;
                    self.i += 2 + end + 2;
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        self.space()?;
        match self.s.get(self.i) {
            None => Err("unexpected end".into()),
            Some(b'{') => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.space()?;
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Value::Map(m));
                }
                loop {
                    self.space()?;
                    let key = match self.s.get(self.i) {
                        Some(q @ (b'"' | b'\'')) => {
                            let q = *q;
                            self.i += 1;
                            self.string(q)?
                        }
                        _ => {
                            let start = self.i;
                            while self.s.get(self.i).is_some_and(|c| {
                                c.is_ascii_alphanumeric() || *c == b'_' || *c == b'$' || *c >= 0x80
                            }) {
                                self.i += 1;
                            }
                            if start == self.i {
                                return Err(format!("expected a field name at {start}"));
                            }
                            self.text[start..self.i].to_string()
                        }
                    };
                    self.space()?;
                    if self.s.get(self.i) != Some(&b':') {
                        return Err(format!("expected ':' at {}", self.i));
                    }
                    self.i += 1;
                    let v = self.value(depth + 1)?;
                    m.insert(Arc::from(key.as_str()), v);
                    self.space()?;
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Value::Map(m));
                        }
                        _ => return Err(format!("expected ',' or '}}' at {}", self.i)),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut xs = Vec::new();
                self.space()?;
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Value::List(xs));
                }
                loop {
                    xs.push(self.value(depth + 1)?);
                    self.space()?;
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Value::List(xs));
                        }
                        _ => return Err(format!("expected ',' or ']' at {}", self.i)),
                    }
                }
            }
            Some(q @ (b'"' | b'\'')) => {
                let q = *q;
                self.i += 1;
                Ok(Value::from(self.string(q)?))
            }
            Some(_) => {
                let start = self.i;
                while self
                    .s
                    .get(self.i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
                {
                    self.i += 1;
                }
                let word = &self.text[start..self.i];
                match word {
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    "null" => Ok(Value::Null),
                    "NaN" => Ok(Value::Float(f64::NAN)),
                    "Infinity" | "+Infinity" => Ok(Value::Float(f64::INFINITY)),
                    "-Infinity" => Ok(Value::Float(f64::NEG_INFINITY)),
                    _ => {
                        if !word.contains(['.', 'e', 'E']) {
                            if let Ok(i) = word.parse::<i64>() {
                                return Ok(Value::Int(i));
                            }
                        }
                        word.parse::<f64>()
                            .map(Value::Float)
                            .map_err(|_| format!("unexpected '{word}' at {start}"))
                    }
                }
            }
        }
    }

    /// A string after its opening quote `q`; any character may be escaped.
    fn string(&mut self, q: u8) -> Result<String, String> {
        let mut out = String::new();
        loop {
            let rest = &self.text[self.i..];
            let mut chars = rest.chars();
            let Some(c) = chars.next() else {
                return Err("unterminated string".into());
            };
            self.i += c.len_utf8();
            if c as u32 == u32::from(q) {
                return Ok(out);
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(e) = self.text[self.i..].chars().next() else {
                return Err("unterminated string".into());
            };
            self.i += e.len_utf8();
            match e {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'u' => {
                    let hex = self.text.get(self.i..self.i + 4).ok_or("bad \\u escape")?;
                    let mut code = u32::from_str_radix(hex, 16).map_err(|_| "bad \\u escape")?;
                    self.i += 4;
                    if (0xd800..0xdc00).contains(&code) && self.text[self.i..].starts_with("\\u") {
                        if let Some(low) = self
                            .text
                            .get(self.i + 2..self.i + 6)
                            .and_then(|h| u32::from_str_radix(h, 16).ok())
                        {
                            if (0xdc00..0xe000).contains(&low) {
                                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                                self.i += 6;
                            }
                        }
                    }
                    out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                }
                other => out.push(other),
            }
        }
    }
}

/// One step of a path.
#[derive(Clone, Debug)]
enum Step {
    /// `.a`, `['a']`, `['a','b']`
    Props(Vec<String>),
    /// `[0]`, `[-1]`, `[0,2]`
    Indexes(Vec<i64>),
    /// `[1:3]`, `[:2]`, `[-2:]`
    Slice(Option<i64>, Option<i64>),
    /// `.*`, `[*]`
    Wildcard,
    /// `..` followed by a step
    Scan(Box<Step>),
    /// `[?( … )]`
    Filter(Pred),
    /// `.length()` and kin, at the end
    Function(String),
}

#[derive(Clone, Debug)]
enum Operand {
    Value(Value),
    /// `@.a.b` (relative) or `$.a` (root)
    Path(bool, Vec<Step>),
    Regex(regex::Regex),
}

#[derive(Clone, Debug)]
enum Pred {
    And(Box<Pred>, Box<Pred>),
    Or(Box<Pred>, Box<Pred>),
    Not(Box<Pred>),
    Exists(Operand),
    Compare(Operand, String, Operand),
}

struct Path {
    steps: Vec<Step>,
}

struct PathParser<'a> {
    s: &'a str,
    i: usize,
}

impl PathParser<'_> {
    fn peek(&self) -> Option<char> {
        self.s[self.i..].chars().next()
    }

    fn eat(&mut self, t: &str) -> bool {
        if self.s[self.i..].starts_with(t) {
            self.i += t.len();
            true
        } else {
            false
        }
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }

    fn name(&mut self) -> String {
        let start = self.i;
        while self.peek().is_some_and(|c| {
            !matches!(
                c,
                '.' | '[' | ']' | ' ' | '(' | ')' | '=' | '!' | '<' | '>' | '&' | '|' | ','
            )
        }) {
            self.i += self.peek().map_or(1, char::len_utf8);
        }
        self.s[start..self.i].to_string()
    }

    fn quoted(&mut self) -> Result<String, String> {
        let q = self.peek().ok_or("unexpected end")?;
        self.i += 1;
        let mut out = String::new();
        loop {
            let c = self.peek().ok_or("unterminated quote")?;
            self.i += c.len_utf8();
            if c == q {
                return Ok(out);
            }
            if c == '\\' {
                let e = self.peek().ok_or("unterminated quote")?;
                self.i += e.len_utf8();
                out.push(e);
            } else {
                out.push(c);
            }
        }
    }

    fn steps(&mut self, in_filter: bool) -> Result<Vec<Step>, String> {
        let mut steps = Vec::new();
        loop {
            if self.eat("..") {
                let inner = if self.eat("*") {
                    Step::Wildcard
                } else if self.peek() == Some('[') {
                    self.bracket()?
                } else {
                    let n = self.name();
                    if n.is_empty() {
                        return Err(format!("Path must not end with a '.' or '..': {}", self.s));
                    }
                    Step::Props(vec![n])
                };
                steps.push(Step::Scan(Box::new(inner)));
            } else if self.eat(".") {
                if self.eat("*") {
                    steps.push(Step::Wildcard);
                    continue;
                }
                let n = self.name();
                if n.is_empty() {
                    return Err(format!("Path must not end with a '.' or '..': {}", self.s));
                }
                if self.eat("()") {
                    steps.push(Step::Function(n));
                } else {
                    steps.push(Step::Props(vec![n]));
                }
            } else if self.peek() == Some('[') {
                steps.push(self.bracket()?);
            } else if in_filter || self.i == self.s.len() {
                return Ok(steps);
            } else {
                return Err(format!(
                    "Could not parse token starting at position {}",
                    self.i
                ));
            }
        }
    }

    fn bracket(&mut self) -> Result<Step, String> {
        self.i += 1; // [
        self.ws();
        let step = if self.eat("*") {
            Step::Wildcard
        } else if self.eat("?(") {
            let p = self.pred()?;
            self.ws();
            if !self.eat(")") {
                return Err(format!("Expected ')' at position {}", self.i));
            }
            Step::Filter(p)
        } else if matches!(self.peek(), Some('\'' | '"')) {
            let mut names = vec![self.quoted()?];
            self.ws();
            while self.eat(",") {
                self.ws();
                names.push(self.quoted()?);
                self.ws();
            }
            Step::Props(names)
        } else {
            let start = self.i;
            while self.peek().is_some_and(|c| c != ']') {
                self.i += self.peek().map_or(1, char::len_utf8);
            }
            let body = self.s[start..self.i].trim();
            let num = |t: &str| -> Result<Option<i64>, String> {
                let t = t.trim();
                if t.is_empty() {
                    Ok(None)
                } else {
                    t.parse()
                        .map(Some)
                        .map_err(|_| format!("Could not parse '{t}' as an index"))
                }
            };
            if let Some((a, b)) = body.split_once(':') {
                Step::Slice(num(a)?, num(b)?)
            } else {
                let idx: Result<Vec<i64>, String> = body
                    .split(',')
                    .map(|t| num(t)?.ok_or_else(|| "empty index".to_string()))
                    .collect();
                Step::Indexes(idx?)
            }
        };
        self.ws();
        if !self.eat("]") {
            return Err(format!("Expected ']' at position {}", self.i));
        }
        Ok(step)
    }

    fn pred(&mut self) -> Result<Pred, String> {
        self.pred_chain("||", Self::pred_and, Pred::Or)
    }

    fn pred_and(&mut self) -> Result<Pred, String> {
        self.pred_chain("&&", Self::pred_atom, Pred::And)
    }

    /// Operands of `next` joined left to right by `op`.
    fn pred_chain(
        &mut self,
        op: &str,
        next: fn(&mut Self) -> Result<Pred, String>,
        join: fn(Box<Pred>, Box<Pred>) -> Pred,
    ) -> Result<Pred, String> {
        let mut left = next(self)?;
        loop {
            self.ws();
            if !self.eat(op) {
                return Ok(left);
            }
            let right = next(self)?;
            left = join(Box::new(left), Box::new(right));
        }
    }

    fn pred_atom(&mut self) -> Result<Pred, String> {
        self.ws();
        if self.eat("!") {
            return Ok(Pred::Not(Box::new(self.pred_atom()?)));
        }
        if self.eat("(") {
            let p = self.pred()?;
            self.ws();
            if !self.eat(")") {
                return Err(format!("Expected ')' at position {}", self.i));
            }
            return Ok(p);
        }
        let left = self.operand()?;
        self.ws();
        for op in ["==", "!=", "<=", ">=", "=~", "<", ">", " in ", " nin "] {
            let save = self.i;
            let matched = if op.starts_with(' ') {
                self.eat(op.trim()) && self.peek().is_some_and(char::is_whitespace)
            } else {
                self.eat(op)
            };
            if matched {
                self.ws();
                let right = self.operand()?;
                return Ok(Pred::Compare(left, op.trim().to_string(), right));
            }
            self.i = save;
        }
        Ok(Pred::Exists(left))
    }

    fn operand(&mut self) -> Result<Operand, String> {
        self.ws();
        match self.peek() {
            Some('@') | Some('$') => {
                let rel = self.peek() == Some('@');
                self.i += 1;
                Ok(Operand::Path(rel, self.steps(true)?))
            }
            Some('\'' | '"') => Ok(Operand::Value(Value::from(self.quoted()?))),
            Some('/') => {
                self.i += 1;
                let start = self.i;
                while self.peek().is_some_and(|c| c != '/') {
                    self.i += self.peek().map_or(1, char::len_utf8);
                }
                let body = self.s[start..self.i].to_string();
                self.i += 1;
                let mut flags = String::new();
                while let Some(c @ ('i' | 'm' | 's' | 'x')) = self.peek() {
                    flags.push(c);
                    self.i += 1;
                }
                let pat = if flags.is_empty() {
                    body
                } else {
                    format!("(?{flags}){body}")
                };
                regex::RegexBuilder::new(&pat)
                    .size_limit(1 << 20)
                    .build()
                    .map(Operand::Regex)
                    .map_err(|e| e.to_string())
            }
            Some('[') => {
                // A list of literals, for `in` / `nin`.
                self.i += 1;
                let mut xs = Vec::new();
                loop {
                    self.ws();
                    if self.eat("]") {
                        break;
                    }
                    match self.operand()? {
                        Operand::Value(v) => xs.push(v),
                        _ => return Err("only literals in a filter's list".into()),
                    }
                    self.ws();
                    self.eat(",");
                }
                Ok(Operand::Value(Value::List(xs)))
            }
            _ => {
                let start = self.i;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.'))
                {
                    self.i += 1;
                }
                let word = &self.s[start..self.i];
                let v = match word {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "null" => Value::Null,
                    _ => match word.parse::<i64>() {
                        Ok(i) => Value::Int(i),
                        Err(_) => Value::Float(
                            word.parse::<f64>()
                                .map_err(|_| format!("Could not parse '{word}' in a filter"))?,
                        ),
                    },
                };
                Ok(Operand::Value(v))
            }
        }
    }
}

/// A match: where it is (`$['a'][0]`) and what.
type Hit = (String, Value);

impl Path {
    fn parse(s: &str) -> Result<Path, String> {
        let s = s.trim();
        let mut p = PathParser { s, i: 0 };
        if !(p.eat("$") || p.eat("@")) {
            // Jayway reads `a.b` as `$.a.b`.
            p.s = s;
            let mut steps = vec![Step::Props(vec![p.name()])];
            steps.extend(p.steps(false)?);
            return Ok(Path { steps });
        }
        Ok(Path {
            steps: p.steps(false)?,
        })
    }

    fn definite(&self) -> bool {
        self.steps.iter().all(|s| match s {
            Step::Props(n) => n.len() == 1,
            Step::Indexes(i) => i.len() == 1,
            Step::Function(_) => true,
            _ => false,
        })
    }

    fn read(&self, doc: &Value, opts: Options) -> Result<Value, String> {
        let definite = self.definite();
        let hits = match walk(doc, &self.steps, "$".into(), opts, definite, doc) {
            Ok(h) => h,
            Err(e) if opts.suppress => {
                let _ = e;
                return Ok(if definite && !opts.always_list && !opts.as_path_list {
                    Value::Null
                } else {
                    Value::List(Vec::new())
                });
            }
            Err(e) => return Err(format!("com.jayway.jsonpath.PathNotFoundException: {e}")),
        };
        if opts.as_path_list {
            return Ok(Value::List(
                hits.into_iter().map(|(p, _)| Value::from(p)).collect(),
            ));
        }
        if definite && !opts.always_list {
            return Ok(hits
                .into_iter()
                .next()
                .map(|(_, v)| v)
                .unwrap_or(Value::Null));
        }
        Ok(Value::List(hits.into_iter().map(|(_, v)| v).collect()))
    }
}

fn index_of(len: usize, i: i64) -> Option<usize> {
    let len = len as i64;
    let i = if i < 0 { len + i } else { i };
    (0..len).contains(&i).then_some(i as usize)
}

/// Applies `steps` to `v` (at `at`); `root` is the document (for `$` in filters).
fn walk(
    v: &Value,
    steps: &[Step],
    at: String,
    opts: Options,
    definite: bool,
    root: &Value,
) -> Result<Vec<Hit>, String> {
    let Some((step, rest)) = steps.split_first() else {
        return Ok(vec![(at, v.clone())]);
    };
    let last = rest.is_empty();
    let mut out = Vec::new();
    match step {
        Step::Props(names) => match v {
            Value::Map(m) => {
                for n in names {
                    let here = format!("{at}['{n}']");
                    match m.get(n.as_str()) {
                        Some(x) => out.extend(walk(x, rest, here, opts, definite, root)?),
                        None if last && opts.leaf_to_null => out.push((here, Value::Null)),
                        None if definite || opts.require_properties => {
                            return Err(if last {
                                format!("No results for path: {here}")
                            } else {
                                format!("Missing property in path {here}")
                            })
                        }
                        None => {}
                    }
                }
            }
            _ if definite => {
                return Err(format!(
                    "Expected to find an object with property ['{}'] in path {at} but found '{}'",
                    names.join("', '"),
                    type_of(v)
                ))
            }
            _ => {}
        },
        Step::Indexes(ix) => match v {
            Value::List(xs) => {
                for &i in ix {
                    match index_of(xs.len(), i) {
                        Some(k) => out.extend(walk(
                            &xs[k],
                            rest,
                            format!("{at}[{k}]"),
                            opts,
                            definite,
                            root,
                        )?),
                        None if definite => {
                            return Err(format!(
                                "Index out of bounds when evaluating path {at}[{i}]"
                            ))
                        }
                        None => {}
                    }
                }
            }
            _ if definite => {
                return Err(format!(
                    "Filter: [{}] can only be applied to arrays. Current context is: {v}",
                    ix.iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ))
            }
            _ => {}
        },
        Step::Slice(from, to) => {
            if let Value::List(xs) = v {
                let len = xs.len() as i64;
                let norm = |x: i64| if x < 0 { (len + x).max(0) } else { x.min(len) };
                let a = from.map_or(0, norm);
                let b = to.map_or(len, norm);
                for k in a..b.max(a) {
                    out.extend(walk(
                        &xs[k as usize],
                        rest,
                        format!("{at}[{k}]"),
                        opts,
                        definite,
                        root,
                    )?);
                }
            }
        }
        Step::Wildcard => match v {
            Value::Map(m) => {
                for (k, x) in m {
                    out.extend(walk(x, rest, format!("{at}['{k}']"), opts, definite, root)?);
                }
            }
            Value::List(xs) => {
                for (k, x) in xs.iter().enumerate() {
                    out.extend(walk(x, rest, format!("{at}[{k}]"), opts, definite, root)?);
                }
            }
            _ => {}
        },
        Step::Scan(inner) => {
            // Pre-order: the step on this value, then on everything under it.
            let mut stack: Vec<(String, &Value)> = vec![(at, v)];
            let mut guard = 0usize;
            while let Some((p, x)) = stack.pop() {
                guard += 1;
                if guard > 10_000_000 {
                    return Err("deep scan visits too many values".into());
                }
                let applies = matches!(
                    (&**inner, x),
                    (Step::Props(_), Value::Map(_))
                        | (Step::Indexes(_) | Step::Slice(..), Value::List(_))
                        | (
                            Step::Wildcard | Step::Filter(_),
                            Value::Map(_) | Value::List(_)
                        )
                );
                if applies {
                    let mut steps = vec![(**inner).clone()];
                    steps.extend(rest.iter().cloned());
                    out.extend(walk(x, &steps, p.clone(), opts, false, root)?);
                }
                let mut children: Vec<(String, &Value)> = match x {
                    Value::Map(m) => m
                        .iter()
                        .filter(|(_, c)| matches!(c, Value::Map(_) | Value::List(_)))
                        .map(|(k, c)| (format!("{p}['{k}']"), c))
                        .collect(),
                    Value::List(xs) => xs
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| matches!(c, Value::Map(_) | Value::List(_)))
                        .map(|(k, c)| (format!("{p}[{k}]"), c))
                        .collect(),
                    _ => Vec::new(),
                };
                children.reverse();
                stack.extend(children);
            }
        }
        Step::Filter(pred) => match v {
            Value::List(xs) => {
                for (k, x) in xs.iter().enumerate() {
                    if test(pred, x, root)? {
                        out.extend(walk(x, rest, format!("{at}[{k}]"), opts, definite, root)?);
                    }
                }
            }
            Value::Map(_) if test(pred, v, root)? => {
                out.extend(walk(v, rest, at, opts, definite, root)?);
            }
            _ => {}
        },
        Step::Function(f) => {
            let r = match (f.as_str(), v) {
                ("length" | "size", Value::List(xs)) => Value::Int(xs.len() as i64),
                ("length" | "size", Value::Map(m)) => Value::Int(m.len() as i64),
                ("length" | "size", Value::String(s)) => Value::Int(s.chars().count() as i64),
                ("keys", Value::Map(m)) => {
                    Value::List(m.keys().map(|k| Value::String(k.clone())).collect())
                }
                ("min" | "max" | "sum" | "avg", Value::List(xs)) => {
                    let nums: Vec<f64> = xs
                        .iter()
                        .filter_map(|x| match x {
                            Value::Int(i) => Some(*i as f64),
                            Value::Float(f) => Some(*f),
                            _ => None,
                        })
                        .collect();
                    if nums.is_empty() {
                        return Err(
                            "Aggregation function attempted to calculate value using empty array"
                                .into(),
                        );
                    }
                    Value::Float(match f.as_str() {
                        "min" => nums.iter().copied().fold(f64::INFINITY, f64::min),
                        "max" => nums.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                        "sum" => nums.iter().sum(),
                        _ => nums.iter().sum::<f64>() / nums.len() as f64,
                    })
                }
                _ => {
                    return Err(format!(
                        "Function with name: {f} does not exist or does not apply here"
                    ))
                }
            };
            out.push((format!("{at}.{f}()"), r));
        }
    }
    Ok(out)
}

fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::List(_) => "java.util.ArrayList",
        Value::String(_) => "java.lang.String",
        Value::Int(_) => "java.lang.Long",
        Value::Float(_) => "java.lang.Double",
        Value::Bool(_) => "java.lang.Boolean",
        _ => "java.lang.Object",
    }
}

/// The values an operand stands for at `x` (none: the path does not exist there).
fn operand_values(o: &Operand, x: &Value, root: &Value) -> Result<Option<Value>, String> {
    Ok(match o {
        Operand::Value(v) => Some(v.clone()),
        Operand::Regex(_) => None,
        Operand::Path(rel, steps) => {
            let base = if *rel { x } else { root };
            let definite = steps.iter().all(|s| {
                matches!(s, Step::Props(n) if n.len() == 1)
                    || matches!(s, Step::Indexes(i) if i.len() == 1)
                    || matches!(s, Step::Function(_))
            });
            match walk(
                base,
                steps,
                String::new(),
                Options::default(),
                definite,
                root,
            ) {
                Ok(h) if definite => h.into_iter().next().map(|(_, v)| v),
                Ok(h) => Some(Value::List(h.into_iter().map(|(_, v)| v).collect())),
                Err(_) => None,
            }
        }
    })
}

fn test(p: &Pred, x: &Value, root: &Value) -> Result<bool, String> {
    Ok(match p {
        Pred::And(a, b) => test(a, x, root)? && test(b, x, root)?,
        Pred::Or(a, b) => test(a, x, root)? || test(b, x, root)?,
        Pred::Not(a) => !test(a, x, root)?,
        Pred::Exists(o) => operand_values(o, x, root)?.is_some(),
        Pred::Compare(l, op, r) => {
            let Some(lv) = operand_values(l, x, root)? else {
                return Ok(op == "!=" || op == "nin");
            };
            if op == "=~" {
                return Ok(match (r, &lv) {
                    (Operand::Regex(re), Value::String(s)) => re.is_match(s),
                    _ => false,
                });
            }
            let Some(rv) = operand_values(r, x, root)? else {
                return Ok(op == "!=");
            };
            let num = |v: &Value| match v {
                Value::Int(i) => Some(*i as f64),
                Value::Float(f) => Some(*f),
                _ => None,
            };
            let eq = |a: &Value, b: &Value| match (num(a), num(b)) {
                (Some(x), Some(y)) => x == y,
                _ => crate::value::equivalent(a, b) || (a.is_null() && b.is_null()),
            };
            match op.as_str() {
                "==" => eq(&lv, &rv),
                "!=" => !eq(&lv, &rv),
                "in" | "nin" => {
                    let found = match &rv {
                        Value::List(xs) => xs.iter().any(|y| eq(&lv, y)),
                        _ => false,
                    };
                    found == (op == "in")
                }
                _ => {
                    let ord = match (num(&lv), num(&rv), &lv, &rv) {
                        (Some(a), Some(b), _, _) => a.partial_cmp(&b),
                        (_, _, Value::String(a), Value::String(b)) => Some(a.cmp(b)),
                        _ => None,
                    };
                    match (ord, op.as_str()) {
                        (Some(o), "<") => o.is_lt(),
                        (Some(o), "<=") => o.is_le(),
                        (Some(o), ">") => o.is_gt(),
                        (Some(o), ">=") => o.is_ge(),
                        _ => false,
                    }
                }
            }
        }
    })
}

family! {
    /// The functions of this file.
    JsonPathFn {
        "apoc.convert.getjsonproperty" => ConvertGetJsonProperty,
        "apoc.convert.getjsonpropertymap" => ConvertGetJsonPropertyMap,
        "apoc.json.path" => JsonPath,
    }
}

pub(super) fn dispatch(
    run: &crate::engine::exec::Runner,
    n: &str,
    m: JsonPathFn,
    args: &[Value],
) -> crate::engine::error::Result<Value> {
    use super::{arg, failed, text};
    let (json, path, opts, want) = match m {
        JsonPathFn::JsonPath => {
            let Some(json) = text(n, arg(args, 0))? else {
                return Ok(Value::Null);
            };
            let path = if args.len() > 1 {
                text(n, arg(args, 1))?.unwrap_or("")
            } else {
                "$"
            };
            (json.to_string(), path, arg(args, 2), Want::Any)
        }
        _ => {
            let node = arg(args, 0);
            if node.is_null() {
                return Ok(Value::Null);
            }
            let Some(key) = text(n, arg(args, 1))? else {
                return Ok(Value::Null);
            };
            let json = match run.java_property(node, key)? {
                Value::Null => return Ok(Value::Null),
                Value::String(s) => s.to_string(),
                other => {
                    return Err(failed(
                        n,
                        format!("java.lang.ClassCastException: class {} cannot be cast to class java.lang.String", type_of(&other)),
                    ))
                }
            };
            let path = text(n, arg(args, 2))?.unwrap_or("");
            let want = if m == JsonPathFn::ConvertGetJsonPropertyMap {
                Want::Map
            } else {
                Want::Any
            };
            (json, path, arg(args, 3), want)
        }
    };
    if json.is_empty() {
        return Ok(Value::Null);
    }
    run.sh.can_allocate(json.len().saturating_mul(4))?;
    let opts = Options::from_value(opts).map_err(|e| failed(n, e))?;
    let path = path.to_string();
    parse(&json, &path, want, opts).map_err(|e| failed(n, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str =
        r#"{"columns":{"row":{"poiType":"Governorate","poi":772},"col2":{"_id":"772col2"}}}"#;

    fn read(json: &str, path: &str, opts: Value) -> Value {
        parse(json, path, Want::Any, Options::from_value(&opts).unwrap()).unwrap()
    }

    #[test]
    fn apoc_json_paths() {
        let deep = read(JSON, "$..columns", Value::Null);
        let Value::List(xs) = &deep else {
            panic!("{deep}")
        };
        assert_eq!(xs.len(), 4);
        assert!(matches!(&xs[0], Value::Map(_)) && xs[1..].iter().all(|x| x.is_null()));
        let paths = read(
            JSON,
            "$..columns",
            Value::List(vec![Value::from("AS_PATH_LIST")]),
        );
        assert_eq!(paths.to_string(), "['$[\\'columns\\']']");
        assert_eq!(
            read(JSON, "$..columns", Value::List(vec![])).to_string(),
            "[{col2: {_id: '772col2'}, row: {poi: 772, poiType: 'Governorate'}}]"
        );
        assert_eq!(
            read(JSON, "$.columns.row.poi", Value::Null).to_string(),
            "772"
        );
        assert!(read(JSON, "$.missing", Value::Null).is_null());
        assert!(read(JSON, "$.a.b.c", Value::Null).is_null());
        assert_eq!(
            read("{a:[1,2,3]}", "", Value::Null).to_string(),
            "{a: [1, 2, 3]}"
        );
        assert_eq!(
            read("{'a': [1, 2, 3]} // c", "$.a[-1]", Value::Null).to_string(),
            "3"
        );
        assert_eq!(
            read("[1,2,3,4]", "$[1:3]", Value::Null).to_string(),
            "[2, 3]"
        );
        let books = r#"{"store": {"book": [{"title": "A", "price": 8.95, "isbn": "x"}, {"title": "B", "price": 12.99}, {"title": "C", "price": 22}]}}"#;
        assert_eq!(
            read(books, "$.store.book[?(@.price < 10)].title", Value::Null).to_string(),
            "['A']"
        );
        assert_eq!(
            read(books, "$.store.book[?(@.isbn)].title", Value::Null).to_string(),
            "['A']"
        );
        assert_eq!(
            read(
                books,
                "$..book[?(@.title =~ /b/i || @.price >= 22)].title",
                Value::Null
            )
            .to_string(),
            "['B', 'C']"
        );
        assert_eq!(
            read(books, "$.store.book.length()", Value::Null).to_string(),
            "3"
        );
        assert_eq!(
            read(books, "$.store.book[*].price", Value::Null).to_string(),
            "[8.95, 12.99, 22]"
        );
        let strict = Options::from_value(&Value::List(vec![])).unwrap();
        assert!(parse(JSON, "$.missing", Want::Any, strict)
            .unwrap_err()
            .contains("No results for path: $['missing']"));
        assert!(parse("[1,2]", "", Want::Map, Options::default())
            .unwrap_err()
            .contains("Can't convert [1,2] to Map"));
        assert!(Options::from_value(&Value::List(vec![Value::from("X")])).is_err());
    }
}
