//! TCK value notation (`(:A {p: 1})`, `[:T]`, `<(:A)-[:T]->(:B)>`, lists, maps, strings,
//! numbers, null) and comparison with grape's values under TCK rules: `1` is not `1.0`, strings
//! compare exactly, nodes by labels and properties, relationships by type and properties.

use grape::value::{Entities, Value};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    List(Vec<Expected>),
    Map(BTreeMap<String, Expected>),
    Node {
        labels: Vec<String>,
        props: BTreeMap<String, Expected>,
    },
    Rel {
        ty: String,
        props: BTreeMap<String, Expected>,
    },
    /// Nodes and relationships alternating; `bool` per relationship: written left to right.
    Path {
        nodes: Vec<Expected>,
        rels: Vec<(Expected, bool)>,
    },
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
}

type R<T> = Result<T, String>;

impl<'a> P<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && (self.s[self.i] as char).is_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> R<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!(
                "expected '{}' at {} in {:?}",
                c as char, self.i, self.text
            ))
        }
    }
    fn starts(&mut self, w: &str) -> bool {
        self.ws();
        self.text[self.i..].starts_with(w)
    }
    fn name(&mut self) -> R<String> {
        self.ws();
        if self.peek() == Some(b'`') {
            self.i += 1;
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i] != b'`' {
                self.i += 1;
            }
            let n = self.text[start..self.i].to_string();
            self.i += 1;
            return Ok(n);
        }
        let start = self.i;
        while self.i < self.s.len() {
            let c = self.text[self.i..].chars().next().unwrap_or(' ');
            if c.is_alphanumeric() || c == '_' {
                self.i += c.len_utf8();
            } else {
                break;
            }
        }
        if start == self.i {
            return Err(format!("expected a name at {} in {:?}", self.i, self.text));
        }
        Ok(self.text[start..self.i].to_string())
    }
    fn value(&mut self) -> R<Expected> {
        match self.peek() {
            None => Err(format!("empty value in {:?}", self.text)),
            Some(b'\'') | Some(b'"') => self.string(),
            Some(b'[') => {
                let save = self.i;
                self.i += 1;
                if self.peek() == Some(b':') {
                    self.i = save;
                    return self.rel();
                }
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value()?);
                        if self.eat(b']') {
                            break;
                        }
                        self.expect(b',')?;
                    }
                }
                Ok(Expected::List(items))
            }
            Some(b'{') => Ok(Expected::Map(self.map()?)),
            Some(b'(') => self.node(),
            Some(b'<') => self.path(),
            _ => {
                if self.starts("null") {
                    self.i += 4;
                    return Ok(Expected::Null);
                }
                if self.starts("true") {
                    self.i += 4;
                    return Ok(Expected::Bool(true));
                }
                if self.starts("false") {
                    self.i += 5;
                    return Ok(Expected::Bool(false));
                }
                if self.starts("NaN") {
                    self.i += 3;
                    return Ok(Expected::Float(f64::NAN));
                }
                let start = self.i;
                while self.i < self.s.len() {
                    let c = self.s[self.i];
                    if c.is_ascii_alphanumeric() || c == b'.' || c == b'-' || c == b'+' {
                        self.i += 1;
                    } else {
                        break;
                    }
                }
                let t = &self.text[start..self.i];
                if t == "Infinity" || t == "+Infinity" {
                    return Ok(Expected::Float(f64::INFINITY));
                }
                if t == "-Infinity" {
                    return Ok(Expected::Float(f64::NEG_INFINITY));
                }
                let is_float = t.contains('.') || t.contains('e') || t.contains('E');
                if is_float {
                    t.parse()
                        .map(Expected::Float)
                        .map_err(|_| format!("bad number {t:?}"))
                } else {
                    t.parse()
                        .map(Expected::Int)
                        .map_err(|_| format!("bad value {t:?} in {:?}", self.text))
                }
            }
        }
    }
    fn string(&mut self) -> R<Expected> {
        self.ws();
        let q = self.s[self.i];
        self.i += 1;
        let mut out = String::new();
        while self.i < self.s.len() {
            let c = self.text[self.i..].chars().next().unwrap_or('\0');
            self.i += c.len_utf8();
            if c as u32 == q as u32 {
                return Ok(Expected::String(out));
            }
            if c == '\\' {
                let e = self.text[self.i..].chars().next().unwrap_or('\\');
                self.i += e.len_utf8();
                out.push(match e {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    other => other,
                });
            } else {
                out.push(c);
            }
        }
        Err(format!("unterminated string in {:?}", self.text))
    }
    fn map(&mut self) -> R<BTreeMap<String, Expected>> {
        self.expect(b'{')?;
        let mut m = BTreeMap::new();
        if self.eat(b'}') {
            return Ok(m);
        }
        loop {
            let k = self.name()?;
            self.expect(b':')?;
            let v = self.value()?;
            m.insert(k, v);
            if self.eat(b'}') {
                return Ok(m);
            }
            self.expect(b',')?;
        }
    }
    fn node(&mut self) -> R<Expected> {
        self.expect(b'(')?;
        let mut labels = Vec::new();
        while self.eat(b':') {
            labels.push(self.name()?);
        }
        let props = if self.peek() == Some(b'{') {
            self.map()?
        } else {
            BTreeMap::new()
        };
        self.expect(b')')?;
        Ok(Expected::Node { labels, props })
    }
    fn rel(&mut self) -> R<Expected> {
        self.expect(b'[')?;
        self.expect(b':')?;
        let ty = self.name()?;
        let props = if self.peek() == Some(b'{') {
            self.map()?
        } else {
            BTreeMap::new()
        };
        self.expect(b']')?;
        Ok(Expected::Rel { ty, props })
    }
    fn path(&mut self) -> R<Expected> {
        self.expect(b'<')?;
        let mut nodes = vec![self.node()?];
        let mut rels = Vec::new();
        loop {
            if self.eat(b'>') {
                return Ok(Expected::Path { nodes, rels });
            }
            let left = self.eat(b'<');
            self.expect(b'-')?;
            let r = self.rel()?;
            self.expect(b'-')?;
            let right = self.eat(b'>');
            rels.push((r, right || !left));
            nodes.push(self.node()?);
        }
    }
}

/// Parses one TCK cell.
pub fn parse_expected(text: &str) -> Result<Expected, String> {
    let mut p = P {
        s: text.as_bytes(),
        i: 0,
        text,
    };
    let v = p.value()?;
    p.ws();
    if p.i != text.len() {
        return Err(format!("trailing text in {text:?}"));
    }
    Ok(v)
}

/// A parameter value from TCK notation (no graph elements).
pub fn to_value(e: &Expected) -> Result<Value, String> {
    Ok(match e {
        Expected::Null => Value::Null,
        Expected::Bool(b) => Value::Bool(*b),
        Expected::Int(i) => Value::Int(*i),
        Expected::Float(f) => Value::Float(*f),
        Expected::String(s) => Value::from(s.as_str()),
        Expected::List(l) => Value::List(l.iter().map(to_value).collect::<Result<_, _>>()?),
        Expected::Map(m) => Value::Map(
            m.iter()
                .map(|(k, v)| Ok((std::sync::Arc::from(k.as_str()), to_value(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        _ => return Err("graph elements cannot be parameters".into()),
    })
}

fn props_match(
    want: &BTreeMap<String, Expected>,
    got: &BTreeMap<std::sync::Arc<str>, Value>,
    e: &dyn Entities,
    unordered: bool,
) -> bool {
    want.len() == got.len()
        && want.iter().all(|(k, w)| {
            got.get(k.as_str())
                .is_some_and(|g| matches(w, g, e, unordered))
        })
}

/// Whether `got` is the value the TCK expects.
pub fn matches(want: &Expected, got: &Value, e: &dyn Entities, unordered_lists: bool) -> bool {
    match (want, got) {
        (Expected::Null, Value::Null) => true,
        (Expected::Bool(a), Value::Bool(b)) => a == b,
        (Expected::Int(a), Value::Int(b)) => a == b,
        (Expected::Float(a), Value::Float(b)) => {
            (a.is_nan() && b.is_nan()) || a == b || {
                // Printed floats round-trip exactly; allow the last digit of a long expansion.
                let scale = a.abs().max(b.abs());
                (a - b).abs() <= scale * 1e-15
            }
        }
        (Expected::String(a), Value::String(b)) => a.as_str() == &**b,
        // The TCK writes temporal results in their text form.
        (Expected::String(a), Value::Temporal(t)) => t.to_string() == *a,
        (Expected::List(a), Value::List(b)) => {
            if a.len() != b.len() {
                return false;
            }
            if !unordered_lists {
                return a
                    .iter()
                    .zip(b)
                    .all(|(x, y)| matches(x, y, e, unordered_lists));
            }
            let mut used = vec![false; b.len()];
            a.iter().all(
                |x| match (0..b.len()).find(|&j| !used[j] && matches(x, &b[j], e, true)) {
                    Some(j) => {
                        used[j] = true;
                        true
                    }
                    None => false,
                },
            )
        }
        (Expected::Map(a), Value::Map(b)) => props_match(a, b, e, unordered_lists),
        (Expected::Node { labels, props }, Value::Node(n)) => {
            let mut got_labels: Vec<String> =
                e.node_labels(*n).iter().map(|l| l.to_string()).collect();
            let mut want_labels = labels.clone();
            got_labels.sort();
            want_labels.sort();
            got_labels == want_labels && props_match(props, &e.node_props(*n), e, unordered_lists)
        }
        (Expected::Rel { ty, props }, Value::Relationship(r)) => {
            e.rel_type(*r).is_some_and(|t| &*t == ty.as_str())
                && props_match(props, &e.rel_props(*r), e, unordered_lists)
        }
        (Expected::Path { nodes, rels }, Value::Path(p)) => {
            if nodes.len() != p.nodes.len() || rels.len() != p.rels.len() {
                return false;
            }
            if !nodes
                .iter()
                .zip(&p.nodes)
                .all(|(w, n)| matches(w, &Value::Node(*n), e, unordered_lists))
            {
                return false;
            }
            rels.iter().enumerate().all(|(i, (w, forward))| {
                let r = p.rels[i];
                let Some((s, t)) = e.rel_endpoints(r) else {
                    return false;
                };
                let dir_ok = if *forward {
                    s == p.nodes[i] && t == p.nodes[i + 1]
                } else {
                    s == p.nodes[i + 1] && t == p.nodes[i]
                };
                dir_ok && matches(w, &Value::Relationship(r), e, unordered_lists)
            })
        }
        _ => false,
    }
}
