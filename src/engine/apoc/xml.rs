//! `apoc.xml.parse(data, path = '/', config = {}, simple = false)`: an XML document as the
//! nested map APOC builds: `_type` (the element's local name), its attributes (qualified
//! names, namespace declarations included), `_text` (the element's text, whitespace
//! normalised) and `_children` (elements in document order; in simple mode under `_` + the
//! element's name). APOC's quirks are kept: a second text of an element makes `_text` a list,
//! moved to the end of the children when there are any, and a comment or processing
//! instruction takes a place among the children (a null, or a map taken from before it).
//!
//! The path is an XPath location path of grape's subset: `/a/b`, `//b`, `*`, `.`, `..`,
//! positions (`[2]`) and tests of an attribute or a child's text (`[@id='x']`, `[@id]`,
//! `[title="x"]`). Documents with a DOCTYPE are refused, as APOC refuses them. (One difference:
//! a CDATA section right next to text joins that text, where APOC's DOM keeps two texts.)

use super::{arg, failed, text};
use crate::engine::error::Result;
use crate::engine::exec::Runner;
use crate::value::Value;
use roxmltree::{Document, Node, NodeType};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The function of this file (lower-case).
pub(super) const PARSE: &str = "apoc.xml.parse";

pub(super) fn parse_fn(run: &Runner, n: &str, args: &[Value]) -> Result<Value> {
    let Some(data) = text(n, arg(args, 0))? else {
        return Err(failed(n, "java.lang.NullPointerException"));
    };
    let path = match text(n, arg(args, 1))? {
        None | Some("") => "/",
        Some(p) => p,
    };
    let fail_on_error = match arg(args, 2) {
        Value::Map(m) => !matches!(m.get("failOnError"), Some(Value::Bool(false))),
        _ => true,
    };
    let simple = matches!(arg(args, 3), Value::Bool(true));
    run.sh.can_allocate(data.len().saturating_mul(8))?;
    match parse(run, data, path, simple) {
        Ok(v) => Ok(v),
        Err(_) if !fail_on_error => Ok(Value::Map(BTreeMap::new())),
        Err(e) => Err(failed(n, e)),
    }
}

fn parse(run: &Runner, data: &str, path: &str, simple: bool) -> std::result::Result<Value, String> {
    if data.contains("<!DOCTYPE") {
        return Err(
            "java.lang.RuntimeException: XML documents with a DOCTYPE are not allowed.".into(),
        );
    }
    let doc = Document::parse(data).map_err(|e| format!("org.xml.sax.SAXParseException: {e}"))?;
    let steps = parse_path(path)?;
    let Some(node) = select(&doc, &steps)? else {
        return Ok(Value::Null);
    };
    let mut b = Builder {
        run,
        simple,
        stack: Vec::new(),
    };
    let node = if node.is_root() {
        match node.children().find(|c| c.is_element()) {
            Some(e) => e,
            None => return Ok(Value::Null),
        }
    } else {
        node
    };
    if !node.is_element() {
        return Ok(Value::Null);
    }
    Ok(Value::Map(b.element(node, 0).map_err(|e| e.to_string())?))
}

struct Builder<'r, 'a> {
    run: &'r Runner<'a>,
    simple: bool,
    /// APOC's stack of finished child maps.
    stack: Vec<BTreeMap<Arc<str>, Value>>,
}

/// APOC's `normalizeText`: lines trimmed, empty ones dropped, joined by a space.
fn normalize(s: &str) -> String {
    s.split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_string()
}

impl Builder<'_, '_> {
    fn element(
        &mut self,
        node: Node,
        depth: usize,
    ) -> crate::engine::error::Result<BTreeMap<Arc<str>, Value>> {
        self.run.sh.tick()?;
        if depth > crate::value::MAX_NESTING {
            return Err(failed(
                "apoc.xml.parse",
                "the document nests deeper than 500 elements",
            ));
        }
        let mut m: BTreeMap<Arc<str>, Value> = BTreeMap::new();
        let name = node.tag_name().name();
        m.insert(Arc::from("_type"), Value::from(name));
        for ns in node.namespaces() {
            // Declared on this element (not inherited).
            let declared = node.parent_element().is_none_or(|p| {
                !p.namespaces()
                    .any(|q| q.name() == ns.name() && q.uri() == ns.uri())
            });
            if declared && ns.name() != Some("xml") {
                let k = match ns.name() {
                    Some(p) => format!("xmlns:{p}"),
                    None => "xmlns".to_string(),
                };
                m.insert(Arc::from(k.as_str()), Value::from(ns.uri()));
            }
        }
        for a in node.attributes() {
            let k = match a.namespace().and_then(|uri| node.lookup_prefix(uri)) {
                Some(prefix) if !prefix.is_empty() => format!("{prefix}:{}", a.name()),
                _ => a.name().to_string(),
            };
            m.insert(Arc::from(k.as_str()), Value::from(a.value()));
        }
        let mut texts: Option<Value> = None;
        let mut count = 0usize;
        for c in node.children() {
            match c.node_type() {
                NodeType::Text => {
                    let t = normalize(c.text().unwrap_or(""));
                    if t.is_empty() {
                        continue;
                    }
                    texts = Some(match texts.take() {
                        None => Value::from(t),
                        // Java's `toString()` of the previous value, then the new text.
                        Some(prev) => Value::List(vec![
                            Value::from(match &prev {
                                Value::String(s) => s.to_string(),
                                Value::List(xs) => format!(
                                    "[{}]",
                                    xs.iter()
                                        .map(crate::engine::functions::to_string_plain)
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                                other => other.to_string(),
                            }),
                            Value::from(t),
                        ]),
                    });
                }
                NodeType::Element => {
                    let child = self.element(c, depth + 1)?;
                    self.stack.push(child);
                    count += 1;
                }
                // A comment or instruction makes an empty map (not kept) that still counts.
                NodeType::Comment | NodeType::PI => count += 1,
                NodeType::Root => {}
            }
        }
        if count > 0 && !self.stack.is_empty() {
            let mut children: Vec<Value> = (0..count)
                .map(|_| self.stack.pop().map_or(Value::Null, Value::Map))
                .collect();
            children.reverse();
            if let Some(Value::List(ts)) = &texts {
                children.extend(ts.iter().cloned());
                texts = None;
            }
            let key = if self.simple {
                format!("_{name}")
            } else {
                "_children".to_string()
            };
            m.insert(Arc::from(key.as_str()), Value::List(children));
        }
        if let Some(t) = texts {
            m.insert(Arc::from("_text"), t);
        }
        Ok(m)
    }
}

/// One step of a location path.
#[derive(Clone, Debug)]
struct Step {
    /// `//` before it: any descendant.
    descendant: bool,
    test: NameTest,
    predicates: Vec<Predicate>,
}

#[derive(Clone, Debug)]
enum NameTest {
    Name(String),
    Any,
    SelfNode,
    Parent,
}

#[derive(Clone, Debug)]
enum Predicate {
    Position(usize),
    HasAttribute(String),
    Attribute(String, String),
    ChildText(String, String),
    HasChild(String),
}

fn parse_path(path: &str) -> std::result::Result<Vec<Step>, String> {
    let bad = || {
        format!("javax.xml.xpath.XPathExpressionException: grape reads XPath location paths of names, *, ., .., positions and attribute or child-text tests; not: {path}")
    };
    let path = path.trim();
    if !path.starts_with('/') {
        return Err(bad());
    }
    let mut steps = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        let descendant = if let Some(r) = rest.strip_prefix("//") {
            rest = r;
            true
        } else if let Some(r) = rest.strip_prefix('/') {
            rest = r;
            false
        } else {
            return Err(bad());
        };
        if rest.is_empty() {
            if descendant {
                return Err(bad());
            }
            break;
        }
        // The step runs to the next '/' outside brackets and quotes.
        let (mut depth, mut quote) = (0i32, None::<char>);
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match (c, quote) {
                ('\'' | '"', None) => quote = Some(c),
                (q, Some(open)) if q == open => quote = None,
                ('[', None) => depth += 1,
                (']', None) => depth -= 1,
                ('/', None) if depth == 0 => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let (step, r) = rest.split_at(end);
        rest = r;
        let (name, preds) = match step.find('[') {
            Some(i) => (&step[..i], &step[i..]),
            None => (step, ""),
        };
        let test = match name.trim() {
            "*" => NameTest::Any,
            "." => NameTest::SelfNode,
            ".." => NameTest::Parent,
            n if !n.is_empty()
                && n.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')) =>
            {
                NameTest::Name(n.to_string())
            }
            _ => return Err(bad()),
        };
        let mut predicates = Vec::new();
        let mut p = preds;
        while let Some(r) = p.strip_prefix('[') {
            let close = r.find(']').ok_or_else(bad)?;
            let body = r[..close].trim();
            p = &r[close + 1..];
            let unquote = |s: &str| -> Option<String> {
                let s = s.trim();
                let q = s.chars().next()?;
                (matches!(q, '\'' | '"') && s.len() >= 2 && s.ends_with(q))
                    .then(|| s[1..s.len() - 1].to_string())
            };
            predicates.push(if let Ok(k) = body.parse::<usize>() {
                Predicate::Position(k)
            } else if let Some((l, r)) = body.split_once('=') {
                let value = unquote(r).ok_or_else(bad)?;
                match l.trim().strip_prefix('@') {
                    Some(a) => Predicate::Attribute(a.to_string(), value),
                    None => Predicate::ChildText(l.trim().to_string(), value),
                }
            } else if let Some(a) = body.strip_prefix('@') {
                Predicate::HasAttribute(a.to_string())
            } else if !body.is_empty() {
                Predicate::HasChild(body.to_string())
            } else {
                return Err(bad());
            });
        }
        if !p.is_empty() {
            return Err(bad());
        }
        steps.push(Step {
            descendant,
            test,
            predicates,
        });
    }
    Ok(steps)
}

/// An element's or attribute's name as XPath compares it (with its prefix, if any).
fn qualified(n: Node) -> String {
    let local = n.tag_name().name();
    match n
        .tag_name()
        .namespace()
        .and_then(|uri| n.lookup_prefix(uri))
    {
        Some(p) if !p.is_empty() => format!("{p}:{local}"),
        _ => local.to_string(),
    }
}

fn string_value(n: Node) -> String {
    n.descendants()
        .filter(|d| d.is_text())
        .filter_map(|d| d.text())
        .collect()
}

fn select<'a, 'i>(
    doc: &'a Document<'i>,
    steps: &[Step],
) -> std::result::Result<Option<Node<'a, 'i>>, String> {
    let mut current: Vec<Node> = vec![doc.root()];
    for step in steps {
        let mut next: Vec<Node> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for n in &current {
            let candidates: Vec<Node> = match (&step.test, step.descendant) {
                (NameTest::SelfNode, false) => vec![*n],
                (NameTest::Parent, false) => n.parent().into_iter().collect(),
                (NameTest::SelfNode | NameTest::Parent, true) => {
                    return Err("javax.xml.xpath.XPathExpressionException: '//.' and '//..' are not in grape's XPath subset".into())
                }
                (_, false) => n.children().filter(|c| c.is_element()).collect(),
                (_, true) => n.descendants().skip(1).filter(|c| c.is_element()).collect(),
            };
            let named: Vec<Node> = candidates
                .into_iter()
                .filter(|c| match &step.test {
                    NameTest::Name(want) => qualified(*c) == *want || c.tag_name().name() == want,
                    _ => true,
                })
                .collect();
            let mut kept = named;
            for p in &step.predicates {
                kept = match p {
                    Predicate::Position(k) => {
                        kept.get(k.wrapping_sub(1)).copied().into_iter().collect()
                    }
                    Predicate::HasAttribute(a) => kept
                        .into_iter()
                        .filter(|c| c.attributes().any(|x| x.name() == a))
                        .collect(),
                    Predicate::Attribute(a, v) => kept
                        .into_iter()
                        .filter(|c| c.attributes().any(|x| x.name() == a && x.value() == v))
                        .collect(),
                    Predicate::ChildText(ch, v) => kept
                        .into_iter()
                        .filter(|c| {
                            c.children().any(|x| {
                                x.is_element() && x.tag_name().name() == ch && string_value(x) == *v
                            })
                        })
                        .collect(),
                    Predicate::HasChild(ch) => kept
                        .into_iter()
                        .filter(|c| {
                            c.children()
                                .any(|x| x.is_element() && x.tag_name().name() == ch)
                        })
                        .collect(),
                };
            }
            for k in kept {
                if seen.insert(k.id().get_usize()) {
                    next.push(k);
                }
            }
        }
        current = next;
    }
    // Document order.
    current.sort_by_key(|n| n.id().get_usize());
    Ok(current.into_iter().next())
}
