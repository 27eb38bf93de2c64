//! Proptest strategies for fuzzing Cypher consumers against a schema (feature `fuzz`).
//!
//! - [`valid_query`] generates queries that are valid against the schema: one to three `MATCH`
//!   clauses walking along real endpoint triples (in either written direction, undirected, or
//!   variable-length), later ones continuing from earlier variables; `WHERE` conditions on
//!   existing properties with values of the right type; a `RETURN` that aggregates
//!   (`count`, `collect`, `min`, `max`) or projects aliased properties, with `ORDER BY` and
//!   `LIMIT`.
//! - [`mutation`] takes such a query and breaks exactly one thing — a label, a relationship type,
//!   a property key, a property that only another label has, the direction of a one-hop
//!   segment, the type of a segment (to one the endpoints cannot have), a variable — and
//!   announces the [`DiagnosticKind`] and the span the validator must report.
//!
//! Both are driven by a list of random choices, so proptest shrinks a failing case towards the
//! shortest query. grape's own tests use them to fuzz the validator; use them to fuzz any
//! generator, rewriter or guard that consumes Cypher.
//!
//! ```
//! use grape::analysis::{fuzz, validate};
//! use grape::schema::{Schema, SchemaFormat};
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//! let schema = Schema::read(SchemaFormat::Prompt, "Node properties are the following:\n\
//!     Person {name: STRING}\nRelationship properties are the following:\n\
//!     The relationships are the following:\n(:Person)-[:KNOWS]->(:Person)").unwrap();
//! let mut runner = TestRunner::deterministic();
//! let q = fuzz::valid_query(&schema).new_tree(&mut runner).unwrap().current();
//! assert!(validate(&q, &schema).kg_valid, "{q}");
//! ```

use super::DiagnosticKind;
use crate::schema::{PropertyType, Schema, Triple};
use crate::syntax::Span;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A query with one fault, and what the validator must say about it.
#[derive(Clone, Debug)]
pub struct Mutation {
    /// The valid query it was made from.
    pub valid: String,
    /// The query with the fault.
    pub mutated: String,
    /// The diagnostic the fault must cause (and the only one).
    pub expected: DiagnosticKind,
    /// Where, in `mutated`.
    pub span: Span,
    /// What was changed, in words.
    pub what: String,
}

/// Queries valid against `schema` (KG-valid, no diagnostics). Empty strategy output is avoided:
/// a schema without triples yields single-node queries.
pub fn valid_query(schema: &Schema) -> BoxedStrategy<String> {
    let schema = Arc::new(schema.clone());
    choices()
        .prop_map(move |c| {
            let plan = Plan::build(&schema, &mut Choices::new(c), false);
            plan.render(&BTreeMap::new()).0
        })
        .boxed()
}

/// Single-fault mutations of valid queries. Faults that the schema cannot produce (no label
/// lacking some property, no reversible triple, …) are skipped in favour of others, so every
/// generated value carries a fault.
pub fn mutation(schema: &Schema) -> BoxedStrategy<Mutation> {
    let schema = Arc::new(schema.clone());
    choices()
        .prop_filter_map("no mutation applies", move |c| {
            let mut ch = Choices::new(c);
            let plan = Plan::build(&schema, &mut ch, true);
            plan.mutate(&schema, &mut ch)
        })
        .boxed()
}

fn choices() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(any::<u32>(), 8..64)
}

/// A stream of choices; past its end every choice is 0 (the simplest).
struct Choices {
    values: Vec<u32>,
    at: usize,
}

impl Choices {
    fn new(values: Vec<u32>) -> Self {
        Choices { values, at: 0 }
    }
    fn pick(&mut self, n: usize) -> usize {
        let v = self.values.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        if n == 0 {
            0
        } else {
            v as usize % n
        }
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.pick(100) < percent
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Slot {
    Label(usize),
    Type(usize, usize),
    Arrow(usize, usize),
    WhereKey(usize, usize),
    ReturnVar(usize),
    ReturnKey(usize),
}

#[derive(Clone, Debug)]
struct Step {
    ty: String,
    /// The triple's start is on the left.
    forward: bool,
    undirected: bool,
    var_length: Option<(u64, u64)>,
    node: usize,
}

#[derive(Clone, Debug)]
struct MatchPlan {
    start: usize,
    steps: Vec<Step>,
    conditions: Vec<(usize, String, String)>,
}

#[derive(Clone, Debug)]
enum Return {
    Count(usize),
    Aggregate(&'static str, usize, String),
    Items(Vec<(usize, String)>, bool, Option<u32>),
}

#[derive(Clone, Debug)]
struct Plan {
    /// The true label of each variable `v{i}`.
    labels: Vec<String>,
    /// Whether the label is written at the variable's first occurrence.
    written: Vec<bool>,
    matches: Vec<MatchPlan>,
    ret: Return,
}

struct Writer<'o> {
    out: String,
    spans: BTreeMap<Slot, Span>,
    overrides: &'o BTreeMap<Slot, String>,
}

impl Writer<'_> {
    fn put(&mut self, slot: Option<Slot>, text: &str) {
        let text = slot
            .and_then(|s| self.overrides.get(&s).cloned())
            .unwrap_or_else(|| text.to_string());
        let start = self.out.len();
        self.out.push_str(&text);
        if let Some(s) = slot {
            self.spans.insert(s, Span::new(start, self.out.len()));
        }
    }
}

/// A label, type or key as Cypher text: backticked unless it is a plain name (`My Label`).
fn esc(name: &str) -> String {
    let mut out = String::new();
    crate::syntax::write_name(&mut out, name);
    out
}

fn literal(ty: &PropertyType, ch: &mut Choices) -> Option<String> {
    const WORDS: [&str; 6] = ["Ann", "Bob", "x", "Zoë", "it's", "WN3 4NL"];
    Some(match ty {
        PropertyType::String => {
            let w = WORDS[ch.pick(WORDS.len())];
            format!("'{}'", w.replace('\'', "\\'"))
        }
        PropertyType::Integer => format!("{}", ch.pick(2000) as i64 - 20),
        PropertyType::Float => format!("{}.5", ch.pick(100)),
        PropertyType::Boolean => if ch.chance(50) { "true" } else { "false" }.to_string(),
        PropertyType::Date => format!("date('2020-01-{:02}')", ch.pick(28) + 1),
        PropertyType::DateTime => "datetime('2020-01-01T10:00:00Z')".to_string(),
        PropertyType::LocalDateTime => "localdatetime('2020-01-01T10:00:00')".to_string(),
        PropertyType::Time => "time('10:00:00Z')".to_string(),
        PropertyType::LocalTime => "localtime('10:00:00')".to_string(),
        PropertyType::Duration => "duration('P1D')".to_string(),
        _ => return None,
    })
}

impl Plan {
    fn build(schema: &Schema, ch: &mut Choices, label_all: bool) -> Plan {
        let triples: Vec<&Triple> = schema.triples.iter().collect();
        let labels_list: Vec<&String> = schema.labels.keys().collect();
        let mut plan = Plan {
            labels: Vec::new(),
            written: Vec::new(),
            matches: Vec::new(),
            ret: Return::Count(0),
        };
        let new_var = |plan: &mut Plan, label: &str, ch: &mut Choices| -> usize {
            plan.labels.push(label.to_string());
            plan.written.push(label_all || ch.pick(100) < 75);
            plan.labels.len() - 1
        };
        let n_matches = 1 + ch.pick(3);
        for m in 0..n_matches {
            // Start: a new variable on a random triple's end, or (later clauses) an old one.
            let start = if m > 0 && ch.chance(70) {
                ch.pick(plan.labels.len())
            } else if let Some(t) = triples.get(ch.pick(triples.len().max(1))) {
                let l = if ch.chance(50) { &t.start } else { &t.end };
                new_var(&mut plan, l, ch)
            } else if let Some(l) = labels_list.get(ch.pick(labels_list.len().max(1))) {
                new_var(&mut plan, l, ch)
            } else {
                new_var(&mut plan, "", ch)
            };
            if plan.labels[start].is_empty() {
                plan.written[start] = false;
            }
            let mut steps = Vec::new();
            let mut cur = start;
            let n_steps = ch.pick(4);
            for _ in 0..n_steps {
                let here = plan.labels[cur].clone();
                let options: Vec<(&Triple, bool)> = triples
                    .iter()
                    .flat_map(|t| {
                        let mut v = Vec::new();
                        if t.start == here {
                            v.push((*t, true));
                        }
                        if t.end == here {
                            v.push((*t, false));
                        }
                        v
                    })
                    .collect();
                if options.is_empty() {
                    break;
                }
                let (t, forward) = options[ch.pick(options.len())];
                let next_label = if forward { &t.end } else { &t.start };
                let node = new_var(&mut plan, next_label, ch);
                let undirected = !label_all && ch.chance(25);
                let var_length = if !label_all && ch.chance(15) {
                    let max = 1 + ch.pick(3) as u64;
                    Some((1, max))
                } else {
                    None
                };
                steps.push(Step {
                    ty: t.rel_type.clone(),
                    forward,
                    undirected,
                    var_length,
                    node,
                });
                cur = node;
            }
            // Conditions on the variables of this clause.
            let mut conditions = Vec::new();
            let vars: Vec<usize> = std::iter::once(start)
                .chain(steps.iter().map(|s| s.node))
                .collect();
            for _ in 0..ch.pick(3) {
                let v = vars[ch.pick(vars.len())];
                let props = schema.label_properties(&plan.labels[v]);
                if props.is_empty() {
                    continue;
                }
                let (k, p) = props[ch.pick(props.len())];
                if let Some(lit) = literal(&p.ty, ch) {
                    let op = if matches!(p.ty, PropertyType::String) || ch.chance(50) {
                        "="
                    } else {
                        "<="
                    };
                    conditions.push((v, k.to_string(), format!("{op} {lit}")));
                }
            }
            plan.matches.push(MatchPlan {
                start,
                steps,
                conditions,
            });
        }
        let n = plan.labels.len();
        plan.ret = match ch.pick(3) {
            0 => Return::Count(ch.pick(n)),
            1 => {
                let v = ch.pick(n);
                let props = schema.label_properties(&plan.labels[v]);
                match props.get(ch.pick(props.len().max(1))) {
                    Some((k, _)) => {
                        let f = ["collect", "min", "max"][ch.pick(3)];
                        Return::Aggregate(f, v, k.to_string())
                    }
                    None => Return::Count(v),
                }
            }
            _ => {
                let mut items = Vec::new();
                for _ in 0..1 + ch.pick(3) {
                    let v = ch.pick(n);
                    let props = schema.label_properties(&plan.labels[v]);
                    if let Some((k, _)) = props.get(ch.pick(props.len().max(1))) {
                        items.push((v, k.to_string()));
                    }
                }
                if items.is_empty() {
                    Return::Count(ch.pick(n))
                } else {
                    let limit = ch.chance(50).then(|| 1 + ch.pick(10) as u32);
                    Return::Items(items, ch.chance(50), limit)
                }
            }
        };
        plan
    }

    /// The text, with `overrides` replacing slots, and where each slot is.
    fn render(&self, overrides: &BTreeMap<Slot, String>) -> (String, BTreeMap<Slot, Span>) {
        let mut w = Writer {
            out: String::new(),
            spans: BTreeMap::new(),
            overrides,
        };
        let mut seen = vec![false; self.labels.len()];
        let mut node = |w: &mut Writer, v: usize| {
            w.put(None, &format!("(v{v}"));
            if !seen[v] && self.written[v] {
                w.put(None, ":");
                w.put(Some(Slot::Label(v)), &esc(&self.labels[v]));
            }
            seen[v] = true;
            w.put(None, ")");
        };
        for (mi, m) in self.matches.iter().enumerate() {
            w.put(None, if mi > 0 { " MATCH " } else { "MATCH " });
            node(&mut w, m.start);
            for (si, s) in m.steps.iter().enumerate() {
                let len = s
                    .var_length
                    .map(|(a, b)| format!("*{a}..{b}"))
                    .unwrap_or_default();
                let (l, r) = match (s.undirected, s.forward) {
                    (true, _) => ("-", "-"),
                    (false, true) => ("-", "->"),
                    (false, false) => ("<-", "-"),
                };
                let ty = overrides
                    .get(&Slot::Type(mi, si))
                    .cloned()
                    .unwrap_or_else(|| esc(&s.ty));
                let start = w.out.len();
                w.put(Some(Slot::Arrow(mi, si)), &format!("{l}[:{ty}{len}]{r}"));
                let ty_start = start + l.len() + 2;
                w.spans
                    .insert(Slot::Type(mi, si), Span::new(ty_start, ty_start + ty.len()));
                node(&mut w, s.node);
            }
            for (ci, (v, k, rest)) in m.conditions.iter().enumerate() {
                w.put(None, if ci == 0 { " WHERE " } else { " AND " });
                w.put(None, &format!("v{v}."));
                w.put(Some(Slot::WhereKey(mi, ci)), &esc(k));
                w.put(None, &format!(" {rest}"));
            }
        }
        w.put(None, " RETURN ");
        match &self.ret {
            Return::Count(v) => {
                w.put(None, "count(DISTINCT ");
                w.put(Some(Slot::ReturnVar(0)), &format!("v{v}"));
                w.put(None, ") AS n");
            }
            Return::Aggregate(f, v, k) => {
                w.put(None, &format!("{f}("));
                w.put(Some(Slot::ReturnVar(0)), &format!("v{v}"));
                w.put(None, ".");
                w.put(Some(Slot::ReturnKey(0)), &esc(k));
                w.put(None, ") AS agg");
            }
            Return::Items(items, order, limit) => {
                for (i, (v, k)) in items.iter().enumerate() {
                    if i > 0 {
                        w.put(None, ", ");
                    }
                    w.put(Some(Slot::ReturnVar(i)), &format!("v{v}"));
                    w.put(None, ".");
                    w.put(Some(Slot::ReturnKey(i)), &esc(k));
                    w.put(None, &format!(" AS c{i}"));
                }
                if *order {
                    w.put(None, " ORDER BY c0 DESC");
                }
                if let Some(l) = limit {
                    w.put(None, &format!(" LIMIT {l}"));
                }
            }
        }
        (w.out, w.spans)
    }

    /// The variable and key of each property-key slot.
    fn key_slots(&self) -> Vec<(Slot, usize, String)> {
        let mut out = Vec::new();
        for (mi, m) in self.matches.iter().enumerate() {
            for (ci, (v, k, _)) in m.conditions.iter().enumerate() {
                out.push((Slot::WhereKey(mi, ci), *v, k.clone()));
            }
        }
        match &self.ret {
            Return::Aggregate(_, v, k) => out.push((Slot::ReturnKey(0), *v, k.clone())),
            Return::Items(items, _, _) => {
                for (i, (v, k)) in items.iter().enumerate() {
                    out.push((Slot::ReturnKey(i), *v, k.clone()));
                }
            }
            Return::Count(_) => {}
        }
        out
    }

    fn mutate(&self, schema: &Schema, ch: &mut Choices) -> Option<Mutation> {
        let (valid, _) = self.render(&BTreeMap::new());
        // Every applicable fault, then one of them.
        let mut faults: Vec<(Slot, String, DiagnosticKind, Slot, String)> = Vec::new();
        for (v, l) in self.labels.iter().enumerate() {
            if self.written[v] {
                let bad = format!("{l}Zz");
                if !schema.has_label(&bad) {
                    faults.push((
                        Slot::Label(v),
                        esc(&bad),
                        DiagnosticKind::UnknownLabel,
                        Slot::Label(v),
                        format!("label {l} → {bad}"),
                    ));
                }
            }
        }
        for (mi, m) in self.matches.iter().enumerate() {
            for (si, s) in m.steps.iter().enumerate() {
                let bad = format!("{}_ZZ", s.ty);
                if !schema.has_relationship_type(&bad) {
                    faults.push((
                        Slot::Type(mi, si),
                        esc(&bad),
                        DiagnosticKind::UnknownRelationshipType,
                        Slot::Type(mi, si),
                        format!("type {} → {bad}", s.ty),
                    ));
                }
                let left = if si == 0 {
                    m.start
                } else {
                    m.steps[si - 1].node
                };
                let (a, b) = (&self.labels[left], &self.labels[s.node]);
                let both_written =
                    self.written_at(left, mi, si) && self.written_at(s.node, mi, si + 1);
                if s.var_length.is_some() || !both_written {
                    continue;
                }
                // Reverse a directed segment whose reverse triple does not exist.
                if !s.undirected {
                    let (from, to) = if s.forward { (b, a) } else { (a, b) };
                    if !schema.has_triple(from, &s.ty, to) {
                        let (l, r) = if s.forward { ("<-", "-") } else { ("-", "->") };
                        let flipped = format!("{l}[:{}]{r}", esc(&s.ty));
                        faults.push((
                            Slot::Arrow(mi, si),
                            flipped,
                            DiagnosticKind::WrongDirection,
                            Slot::Arrow(mi, si),
                            format!("direction of {}", s.ty),
                        ));
                    }
                }
                // Another existing type these two labels are not connected by.
                let other = schema
                    .relationship_types
                    .keys()
                    .find(|t| !schema.has_triple(a, t, b) && !schema.has_triple(b, t, a));
                if let Some(t) = other {
                    faults.push((
                        Slot::Type(mi, si),
                        esc(t),
                        DiagnosticKind::UnknownPath,
                        Slot::Arrow(mi, si),
                        format!("type {} → {t}", s.ty),
                    ));
                }
            }
        }
        for (slot, v, k) in self.key_slots() {
            let bad = format!("{k}_zz");
            if !schema.has_property_key(&bad) {
                faults.push((
                    slot,
                    esc(&bad),
                    DiagnosticKind::UnknownPropertyKey,
                    slot,
                    format!("key {k} → {bad}"),
                ));
            }
            if self.written[v] {
                let label = &self.labels[v];
                let elsewhere = schema.property_keys().into_iter().find(|key| {
                    schema.node_property(label, key).is_none()
                        && schema
                            .labels
                            .values()
                            .any(|e| e.properties.contains_key(*key))
                });
                if let Some(e) = elsewhere {
                    faults.push((
                        slot,
                        esc(e),
                        DiagnosticKind::InvalidPropertyAccessByLabel,
                        slot,
                        format!("key {k} → {e} (not on {label})"),
                    ));
                }
            }
        }
        faults.push((
            Slot::ReturnVar(0),
            "nowhere".to_string(),
            DiagnosticKind::UndefinedVariable,
            Slot::ReturnVar(0),
            "variable → nowhere".to_string(),
        ));
        let (slot, text, kind, at, what) = faults.swap_remove(ch.pick(faults.len()));
        let overrides: BTreeMap<Slot, String> = [(slot, text)].into_iter().collect();
        let (mutated, spans) = self.render(&overrides);
        Some(Mutation {
            valid,
            mutated,
            expected: kind,
            span: *spans.get(&at)?,
            what,
        })
    }

    /// Whether variable `v` carries its label in the text by step `step` of clause `m` (it is
    /// written at the variable's first occurrence).
    fn written_at(&self, v: usize, _m: usize, _step: usize) -> bool {
        self.written[v] && !self.labels[v].is_empty()
    }
}
