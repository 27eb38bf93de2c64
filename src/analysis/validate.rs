//! CyVer's three validators — syntax, schema, properties — offline, on the AST.
//!
//! - **Syntax**: the query parses, and passes the static checks Neo4j's `EXPLAIN` makes that
//!   a text-to-Cypher system gets wrong: undefined variables, a variable rebound as another kind,
//!   `CREATE`/`MERGE` re-declaring a bound variable, one relationship variable for two
//!   relationships, nested aggregation, aggregation in `WHERE`, `RETURN *` with nothing in scope,
//!   integer division by the literal `0`, parameters missing from a supplied parameter set,
//!   relationship-type expressions no type satisfies (`[:A&B]`), number literals out of range.
//! - **Schema**: every label and relationship type read by a pattern (`MATCH`, `OPTIONAL
//!   MATCH`, pattern predicates, `EXISTS`/`COUNT`/`COLLECT` subqueries, pattern comprehensions)
//!   or tested by a label predicate exists, and every one-hop segment — variable-length ones
//!   included — can be formed from the schema's endpoint triples in the written direction.
//!   `CREATE`, `MERGE` and `SET` may introduce new labels and types and are not checked.
//! - **Properties**: every property read (`x.key`, a key of a read pattern's property map, a map
//!   projection's `.key`) of a node or relationship variable exists on its label (or type).
//!
//! Labels of unlabelled nodes (and types of untyped relationships) are inferred from the
//! endpoint triples: every segment of the statement narrows the label sets of its two ends to
//! those some triple supports, repeated until nothing changes. The result is deterministic
//! (CyVer samples one label assignment from the database at random) and never flags a query
//! that some assignment makes valid: a segment is reported only when no triple fits the label
//! sets the rest of the query allows.
//!
//! Scores follow CyVer (`../shared/docs/METRICS.md` §3): the schema score is the mean, over the
//! non-empty groups among {labels, relationship types, paths}, of the valid fraction of the
//! distinct members (1 when all are empty); the properties score is valid / total over distinct
//! (label, property) pairs, or `None` when no property is read. A query is KG-valid when syntax
//! passes, the schema score is 1 and the properties score is 1 or `None`.
//!
//! Differences from CyVer, on purpose: a property key that exists nowhere gets only
//! `UnknownPropertyKeyWarning` (CyVer also adds `InvalidPropertyAccessByLabelWarning`); a path
//! with an unknown label or type counts as invalid but is reported once, as the unknown name;
//! property accesses on values that are not known nodes or relationships (maps, list elements)
//! are not checked.

use super::diagnostic::{closest, Diagnostic, DiagnosticKind};
use crate::schema::Schema;
use crate::syntax::ast::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Options for validation.
#[derive(Clone, Debug, Default)]
pub struct ValidateOptions {
    /// The names of the parameters that will be supplied. `None`: not known, so parameters are
    /// not checked; `Some(set)`: every `$name` not in the set is a `MissingParameter`.
    pub parameters: Option<BTreeSet<String>>,
    /// The functions an engine runs, when validating for that engine: a function Neo4j knows
    /// but this rejects is an `UnsupportedFunction`. `None`: any function Neo4j knows.
    pub executable: Option<fn(&str) -> bool>,
}

/// The verdict on one query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Validation {
    /// The query parses and passes the static checks.
    pub syntax_ok: bool,
    /// CyVer's schema score in [0, 1] (0 when the query does not parse).
    pub schema_score: f64,
    /// CyVer's properties score in [0, 1]; `None` when no property is read.
    pub properties_score: Option<f64>,
    /// `syntax_ok`, `schema_score == 1` and `properties_score` is 1 or `None`.
    pub kg_valid: bool,
    /// Every finding, in the order of the text.
    pub diagnostics: Vec<Diagnostic>,
}

/// Validates one query against a schema.
///
/// ```
/// use grape::schema::{Schema, SchemaFormat};
/// use grape::analysis::validate;
/// let schema = Schema::read(SchemaFormat::Prompt, "Node properties are the following:\n\
///     Person {name: STRING}\nCrime {date: STRING}\n\
///     Relationship properties are the following:\n\
///     The relationships are the following:\n(:Person)-[:PARTY_TO]->(:Crime)").unwrap();
/// let v = validate("MATCH (c:Crime)-[:PARTY_TO]->(p:Person) RETURN p.name AS name", &schema);
/// assert!(!v.kg_valid);
/// assert_eq!(v.diagnostics[0].code, "WrongDirectionPathWarning");
/// assert!(v.diagnostics[0].message.contains("<-[:PARTY_TO]-"));
/// ```
pub fn validate(query: &str, schema: &Schema) -> Validation {
    Validator::new(schema).validate(query)
}

/// A validator for one schema, reusable across queries.
pub struct Validator<'s> {
    index: SchemaIndex<'s>,
    options: ValidateOptions,
}

impl<'s> Validator<'s> {
    pub fn new(schema: &'s Schema) -> Validator<'s> {
        Validator {
            index: SchemaIndex::new(schema),
            options: ValidateOptions::default(),
        }
    }

    pub fn with_options(schema: &'s Schema, options: ValidateOptions) -> Validator<'s> {
        Validator {
            index: SchemaIndex::new(schema),
            options,
        }
    }

    /// Parses and validates `query`.
    pub fn validate(&self, query: &str) -> Validation {
        match crate::syntax::parse(query) {
            Ok(stmt) => self.validate_statement(&stmt, query),
            Err(e) => {
                let span = Span::new(e.offset, e.offset);
                let mut d =
                    Diagnostic::new(DiagnosticKind::ParseError, e.message.clone(), span, query);
                d.line = e.line;
                d.column = e.column;
                Validation {
                    syntax_ok: false,
                    schema_score: 0.0,
                    properties_score: None,
                    kg_valid: false,
                    diagnostics: vec![d],
                }
            }
        }
    }

    /// Validates a parsed statement; `source` is the text it was parsed from (for positions and
    /// messages).
    pub fn validate_statement(&self, stmt: &Statement, source: &str) -> Validation {
        let mut c = Checker {
            ix: &self.index,
            opts: &self.options,
            src: source,
            diags: Vec::new(),
            bindings: Vec::new(),
            segments: Vec::new(),
            accesses: Vec::new(),
            label_group: BTreeMap::new(),
            type_group: BTreeMap::new(),
            copy_from: None,
            copies: BTreeMap::new(),
        };
        c.query(&stmt.query, Scope::default());
        c.infer_paths();
        let properties_score = c.check_properties();
        let schema_score = c.schema_score();
        let mut diagnostics = c.diags;
        diagnostics.sort_by_key(|d| (d.span.start, d.span.end, d.kind));
        diagnostics.dedup();
        let syntax_ok = !diagnostics
            .iter()
            .any(|d| d.category() == super::Category::Syntax);
        let kg_valid =
            syntax_ok && schema_score == 1.0 && properties_score.is_none_or(|p| p == 1.0);
        Validation {
            syntax_ok,
            schema_score,
            properties_score,
            kg_valid,
            diagnostics,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The schema, indexed.

type Set = BTreeSet<usize>;

struct SchemaIndex<'s> {
    schema: &'s Schema,
    labels: Vec<&'s str>,
    label_ix: HashMap<&'s str, usize>,
    types: Vec<&'s str>,
    type_ix: HashMap<&'s str, usize>,
    /// (start, type, end)
    triples: Vec<(usize, usize, usize)>,
}

impl<'s> SchemaIndex<'s> {
    fn new(schema: &'s Schema) -> Self {
        let mut labels: BTreeSet<&str> = schema.labels.keys().map(String::as_str).collect();
        let mut types: BTreeSet<&str> = schema
            .relationship_types
            .keys()
            .map(String::as_str)
            .collect();
        for t in &schema.triples {
            labels.insert(&t.start);
            labels.insert(&t.end);
            types.insert(&t.rel_type);
        }
        let labels: Vec<&str> = labels.into_iter().collect();
        let types: Vec<&str> = types.into_iter().collect();
        let label_ix: HashMap<&str, usize> =
            labels.iter().enumerate().map(|(i, l)| (*l, i)).collect();
        let type_ix: HashMap<&str, usize> =
            types.iter().enumerate().map(|(i, l)| (*l, i)).collect();
        let triples = schema
            .triples
            .iter()
            .map(|t| {
                (
                    label_ix[t.start.as_str()],
                    type_ix[t.rel_type.as_str()],
                    label_ix[t.end.as_str()],
                )
            })
            .collect();
        SchemaIndex {
            schema,
            labels,
            label_ix,
            types,
            type_ix,
            triples,
        }
    }

    fn all_labels(&self) -> Set {
        (0..self.labels.len()).collect()
    }

    fn all_types(&self) -> Set {
        (0..self.types.len()).collect()
    }

    /// The labels a node matching `e` may carry that the schema knows (see the module docs).
    fn label_domain(&self, e: &LabelExpr) -> Set {
        match e {
            LabelExpr::Name(i) => self
                .label_ix
                .get(i.name.as_str())
                .into_iter()
                .copied()
                .collect(),
            LabelExpr::Wildcard(_) => self.all_labels(),
            LabelExpr::Not(x, _) => {
                let inner = self.label_domain(x);
                self.all_labels().difference(&inner).copied().collect()
            }
            LabelExpr::Or(xs, _) => xs.iter().flat_map(|x| self.label_domain(x)).collect(),
            LabelExpr::And(xs, _) => {
                let mut named = Set::new();
                let mut any_named = false;
                let mut others: Option<Set> = None;
                for x in xs {
                    if let LabelExpr::Name(_) = x {
                        any_named = true;
                        named.extend(self.label_domain(x));
                    } else {
                        let d = self.label_domain(x);
                        others = Some(match others {
                            None => d,
                            Some(o) => o.intersection(&d).copied().collect(),
                        });
                    }
                }
                match (any_named, others) {
                    (true, Some(o)) => named.intersection(&o).copied().collect(),
                    (true, None) => named,
                    (false, Some(o)) => o,
                    (false, None) => self.all_labels(),
                }
            }
        }
    }

    /// The relationship types that satisfy `e` (a relationship has exactly one type).
    fn type_domain(&self, e: &LabelExpr) -> Set {
        (0..self.types.len())
            .filter(|&t| type_matches(e, self.types[t]))
            .collect()
    }

    fn label_names(&self, s: &Set) -> Vec<&'s str> {
        s.iter().map(|&i| self.labels[i]).collect()
    }
}

fn type_matches(e: &LabelExpr, t: &str) -> bool {
    match e {
        LabelExpr::Name(i) => i.name == t,
        LabelExpr::Wildcard(_) => true,
        LabelExpr::Not(x, _) => !type_matches(x, t),
        LabelExpr::And(xs, _) => xs.iter().all(|x| type_matches(x, t)),
        LabelExpr::Or(xs, _) => xs.iter().any(|x| type_matches(x, t)),
    }
}

/// Whether some single relationship type (named in `e`, or any other) satisfies `e`.
fn type_expr_satisfiable(e: &LabelExpr) -> bool {
    let names: BTreeSet<&str> = e.names().into_iter().map(|i| i.name.as_str()).collect();
    names.iter().any(|n| type_matches(e, n)) || type_matches(e, "\u{0}not a type\u{0}")
}

// ---------------------------------------------------------------------------------------------
// Scopes and bindings.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Node,
    Rel,
    RelList,
    Path,
    /// A value that is certainly not a node or relationship (number, string, map, …).
    Value,
    /// Not known (list elements, procedure outputs, function results).
    Unknown,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Node => "a node",
            Kind::Rel => "a relationship",
            Kind::RelList => "a list of relationships",
            Kind::Path => "a path",
            Kind::Value => "a value",
            Kind::Unknown => "a value",
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Scope {
    vars: BTreeMap<String, (Kind, Option<usize>)>,
    /// Unknown variables may be in scope (`YIELD *`, an in-query `CALL` without `YIELD`).
    open: bool,
}

impl Scope {
    fn get(&self, name: &str) -> Option<(Kind, Option<usize>)> {
        self.vars.get(name).copied()
    }
    fn bind(&mut self, name: &str, kind: Kind, binding: Option<usize>) {
        self.vars.insert(name.to_string(), (kind, binding));
    }
}

/// A node (label set) or relationship (type set) of the statement, after inference.
struct Binding {
    node: bool,
    name: Option<String>,
    domain: Set,
    /// The node had a label expression, or the relationship a type expression.
    explicit: bool,
    /// The label/type expression names only things the schema lacks (reported already).
    unknown: bool,
    /// Bound by a reading pattern (a `CREATE`d node may carry labels the schema lacks).
    checked: bool,
    /// A copy of this outer binding, for a pattern that must not narrow it (`OPTIONAL MATCH`,
    /// a predicate): it narrows with its parent, never the other way round.
    parent: Option<usize>,
}

struct Segment {
    left: usize,
    rel: usize,
    right: usize,
    direction: Direction,
    /// `None`: one hop; `Some((min, max))`: variable length.
    bounds: Option<(u64, Option<u64>)>,
    span: Span,
    left_span: Span,
    right_span: Span,
    /// Invalid for a reason reported elsewhere (unknown label or type).
    skip: bool,
    /// Found invalid (reported).
    invalid: bool,
}

struct PropertyAccess {
    binding: usize,
    key: String,
    span: Span,
    variable: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A pattern that reads the graph: checked against the schema.
    Read,
    Create,
    Merge,
}

#[derive(Clone, Copy, Default)]
struct Ctx {
    in_aggregate: bool,
    in_where: bool,
}

struct Checker<'a, 's> {
    ix: &'a SchemaIndex<'s>,
    opts: &'a ValidateOptions,
    src: &'a str,
    diags: Vec<Diagnostic>,
    bindings: Vec<Binding>,
    segments: Vec<Segment>,
    accesses: Vec<PropertyAccess>,
    label_group: BTreeMap<String, bool>,
    type_group: BTreeMap<String, bool>,
    /// Inside an isolated pattern (see [`Checker::isolated`]): bindings below this index are
    /// outer ones, used through copies.
    copy_from: Option<usize>,
    /// Outer binding → its copy in the current isolated pattern.
    copies: BTreeMap<usize, usize>,
}

/// The type of a literal operand, as Neo4j names it in type errors (`None`: not a literal, or
/// null, which every operator accepts).
fn literal_type(e: &Expr) -> Option<&'static str> {
    match &e.kind {
        ExprKind::Literal(Literal::Boolean(_)) => Some("Boolean"),
        ExprKind::Literal(Literal::Integer(_)) => Some("Integer"),
        ExprKind::Literal(Literal::Float(_)) => Some("Float"),
        ExprKind::Literal(Literal::String(_)) => Some("String"),
        ExprKind::List(_) | ExprKind::ListComprehension { .. } => Some("List"),
        ExprKind::Map(_) => Some("Map"),
        _ => None,
    }
}

/// Whether an aggregating function appears in `e` (outside subqueries).
fn contains_aggregate(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::CountStar => true,
        ExprKind::FunctionCall { name, .. } if name.is_aggregate() => true,
        _ => e.children().into_iter().any(contains_aggregate),
    }
}

impl<'a, 's> Checker<'a, 's> {
    fn diag(&mut self, kind: DiagnosticKind, message: String, span: Span) {
        self.diags
            .push(Diagnostic::new(kind, message, span, self.src));
    }

    fn text(&self, span: Span) -> &'a str {
        span.text(self.src)
    }

    /// Runs `f` over a pattern whose rows need not exist for the outer rows to (an `OPTIONAL
    /// MATCH`, a pattern predicate, `EXISTS`/`COUNT`/`COLLECT`, a pattern comprehension): the
    /// outer variables it mentions are checked through copies, so its segments never narrow
    /// their label domains (`MATCH (x) WHERE (x)-[:A]->() OR (x)-[:B]->()`).
    fn isolated<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved_from = self.copy_from.replace(self.bindings.len());
        let saved = std::mem::take(&mut self.copies);
        let out = f(self);
        self.copy_from = saved_from;
        self.copies = saved;
        out
    }

    /// The binding a reading pattern uses for the already-bound `b`: `b` itself, or inside an
    /// isolated pattern, its copy there.
    fn use_binding(&mut self, b: usize) -> usize {
        match self.copy_from {
            Some(start) if b < start => {
                if let Some(&c) = self.copies.get(&b) {
                    return c;
                }
                let src = &self.bindings[b];
                let copy = Binding {
                    node: src.node,
                    name: src.name.clone(),
                    domain: src.domain.clone(),
                    explicit: src.explicit,
                    unknown: src.unknown,
                    checked: src.checked,
                    parent: Some(b),
                };
                let id = self.bindings.len();
                self.bindings.push(copy);
                self.copies.insert(b, id);
                id
            }
            _ => b,
        }
    }

    // ----- queries and clauses -----

    /// Checks a query starting from `scope`; returns the scope its (first) part ends with.
    fn query(&mut self, q: &Query, scope: Scope) -> Scope {
        let out = self.single_query(&q.first, scope.clone());
        for u in &q.unions {
            self.single_query(&u.query, scope.clone());
        }
        out
    }

    fn single_query(&mut self, q: &SingleQuery, mut scope: Scope) -> Scope {
        let standalone = q.clauses.len() == 1;
        for clause in &q.clauses {
            scope = self.clause(clause, scope, standalone);
        }
        scope
    }

    fn clause(&mut self, clause: &Clause, mut scope: Scope, standalone: bool) -> Scope {
        match clause {
            // Rows without a match survive an OPTIONAL MATCH: checked like a predicate, on copies.
            Clause::Match(m) if m.optional => self.isolated(|c| c.match_clause(m, scope)),
            Clause::Match(m) => self.match_clause(m, scope),
            Clause::With(w) => {
                let mut out = self.projection(&w.projection, &scope, "WITH");
                if let Some(wh) = &w.where_ {
                    // Without aggregation, WITH … WHERE (DISTINCT or not) also sees the variables
                    // of the preceding scope (openCypher TCK WithWhere1 [3]; `MATCH (a) WITH
                    // DISTINCT a.name AS name WHERE a.surname = 'B' RETURN name`).
                    let aggregating = w
                        .projection
                        .items
                        .iter()
                        .any(|it| contains_aggregate(&it.expr));
                    let visible = if aggregating {
                        out.clone()
                    } else {
                        let mut merged = scope.clone();
                        for (k, v) in &out.vars {
                            merged.vars.insert(k.clone(), *v);
                        }
                        merged.open |= out.open;
                        merged
                    };
                    self.expr(
                        wh,
                        &visible,
                        Ctx {
                            in_where: true,
                            ..Ctx::default()
                        },
                    );
                }
                out.open |= scope.open;
                out
            }
            Clause::Return(r) => {
                let mut out = self.projection(&r.projection, &scope, "RETURN");
                out.open |= scope.open;
                out
            }
            Clause::Unwind(u) => {
                self.expr(&u.expr, &scope, Ctx::default());
                self.bind_value(&u.variable, &mut scope, Kind::Unknown, "UNWIND");
                scope
            }
            Clause::CallSubquery(c) => {
                let returned = match &c.scope {
                    Some(SubqueryScope::All) => self.query(&c.query, scope.clone()),
                    // No scope clause: only a leading (importing) `WITH` sees the outer variables.
                    None => {
                        let out = self.call_body(&c.query.first, &scope);
                        for u in &c.query.unions {
                            self.call_body(&u.query, &scope);
                        }
                        out
                    }
                    Some(SubqueryScope::Variables(vs)) => {
                        let mut s = Scope {
                            open: scope.open,
                            ..Scope::default()
                        };
                        for v in vs {
                            self.lookup(v, &scope);
                            if let Some((k, b)) = scope.get(&v.name) {
                                s.bind(&v.name, k, b);
                            }
                        }
                        self.query(&c.query, s)
                    }
                };
                if let Some(t) = &c.in_transactions {
                    for e in [&t.batch_size].into_iter().flatten() {
                        self.expr(e, &scope, Ctx::default());
                    }
                    if let Some(Some(e)) = &t.concurrency {
                        self.expr(e, &scope, Ctx::default());
                    }
                }
                let ends_with_return = c
                    .query
                    .first
                    .clauses
                    .last()
                    .is_some_and(|cl| matches!(cl, Clause::Return(_)));
                if ends_with_return {
                    for (name, (k, b)) in returned.vars {
                        if !scope.vars.contains_key(&name) {
                            scope.bind(&name, k, b);
                        }
                    }
                    scope.open |= returned.open;
                }
                if let Some(t) = &c.in_transactions {
                    if let Some(v) = &t.report_status {
                        self.bind_value(v, &mut scope, Kind::Value, "REPORT STATUS AS");
                    }
                }
                scope
            }
            Clause::CallProcedure(p) => {
                for a in p.args.iter().flatten() {
                    self.expr(a, &scope, Ctx::default());
                }
                match &p.yield_ {
                    Some(y) => {
                        if y.star {
                            scope.open = true;
                        }
                        for item in &y.items {
                            let v = item.alias.as_ref().unwrap_or(&item.field);
                            self.bind_value(v, &mut scope, Kind::Unknown, "YIELD");
                        }
                        if let Some(w) = &y.where_ {
                            self.expr(
                                w,
                                &scope,
                                Ctx {
                                    in_where: true,
                                    ..Ctx::default()
                                },
                            );
                        }
                    }
                    None => {
                        if !standalone {
                            scope.open = true;
                        }
                    }
                }
                scope
            }
            Clause::Create(c) => {
                self.pattern(&c.pattern, &mut scope, Mode::Create);
                scope
            }
            Clause::Merge(m) => {
                self.pattern(std::slice::from_ref(&m.pattern), &mut scope, Mode::Merge);
                for a in &m.actions {
                    for item in &a.items {
                        self.set_item(item, &scope);
                    }
                }
                scope
            }
            Clause::Set(s) => {
                for item in &s.items {
                    self.set_item(item, &scope);
                }
                scope
            }
            Clause::Remove(r) => {
                for item in &r.items {
                    match item {
                        RemoveItem::Property { target, .. } => self.write_target(target, &scope),
                        RemoveItem::Labels { variable, .. } => self.lookup(variable, &scope),
                    }
                }
                scope
            }
            Clause::Delete(d) => {
                for e in &d.exprs {
                    self.expr(e, &scope, Ctx::default());
                }
                scope
            }
            Clause::Foreach(f) => {
                self.expr(&f.list, &scope, Ctx::default());
                let mut inner = scope.clone();
                inner.bind(&f.variable.name, Kind::Unknown, None);
                for c in &f.clauses {
                    inner = self.clause(c, inner, false);
                }
                scope
            }
            Clause::LoadCsv(l) => {
                self.expr(&l.source, &scope, Ctx::default());
                self.bind_value(&l.variable, &mut scope, Kind::Value, "LOAD CSV … AS");
                scope
            }
            Clause::Use(_) | Clause::Finish(_) => scope,
        }
    }

    /// One part of a `CALL { … }` without a scope clause: it starts with nothing in scope, except
    /// that a leading `WITH` imports from `outer`.
    fn call_body(&mut self, q: &SingleQuery, outer: &Scope) -> Scope {
        let start = match q.clauses.first() {
            Some(Clause::With(_)) => outer.clone(),
            _ => Scope::default(),
        };
        self.single_query(q, start)
    }

    fn match_clause(&mut self, m: &Match, mut scope: Scope) -> Scope {
        self.pattern(&m.pattern, &mut scope, Mode::Read);
        for h in &m.hints {
            match h {
                Hint::Index { variable, .. } | Hint::Scan { variable, .. } => {
                    self.lookup(variable, &scope)
                }
                Hint::Join { variables, .. } => {
                    for v in variables {
                        self.lookup(v, &scope)
                    }
                }
            }
        }
        if let Some(w) = &m.where_ {
            self.expr(
                w,
                &scope,
                Ctx {
                    in_where: true,
                    ..Ctx::default()
                },
            );
        }
        scope
    }

    fn set_item(&mut self, item: &SetItem, scope: &Scope) {
        match item {
            SetItem::Property { target, value, .. } => {
                self.write_target(target, scope);
                self.expr(value, scope, Ctx::default());
            }
            SetItem::Variable {
                variable, value, ..
            } => {
                self.lookup(variable, scope);
                self.expr(value, scope, Ctx::default());
            }
            SetItem::Labels { variable, .. } => self.lookup(variable, scope),
        }
    }

    /// `n.p` / `n[k]` written by `SET` or `REMOVE`: the object is read, the key is not.
    fn write_target(&mut self, target: &Expr, scope: &Scope) {
        match &target.kind {
            ExprKind::Property { expr, .. } => self.expr(expr, scope, Ctx::default()),
            ExprKind::Index { expr, index } => {
                self.expr(expr, scope, Ctx::default());
                self.expr(index, scope, Ctx::default());
            }
            _ => self.expr(target, scope, Ctx::default()),
        }
    }

    /// Binds a non-pattern variable (`UNWIND … AS x`, `YIELD x`, …).
    fn bind_value(&mut self, v: &Ident, scope: &mut Scope, kind: Kind, clause: &str) {
        if scope.get(&v.name).is_some() {
            self.diag(
                DiagnosticKind::VariableAlreadyBound,
                format!(
                    "variable `{}` is already declared; give {clause} a new name",
                    v.name
                ),
                v.span,
            );
        }
        scope.bind(&v.name, kind, None);
    }

    fn projection(&mut self, p: &Projection, scope: &Scope, clause: &str) -> Scope {
        let mut out = Scope::default();
        if p.star {
            // `WITH *` with nothing in scope is legal (it projects nothing); `RETURN *` is not.
            if clause == "RETURN" && scope.vars.is_empty() && !scope.open {
                self.diag(
                    DiagnosticKind::ReturnStarWithoutVariables,
                    format!("`{clause} *` is not allowed when there are no variables in scope; name the values to return"),
                    p.span,
                );
            }
            out = scope.clone();
        }
        for item in &p.items {
            self.expr(&item.expr, scope, Ctx::default());
            let (kind, binding) = self.kind_of(&item.expr, scope);
            let name = match (&item.alias, &item.expr.kind) {
                (Some(a), _) => a.name.clone(),
                (None, ExprKind::Variable(v)) => v.name.clone(),
                (None, _) => self.text(item.expr.span).to_string(),
            };
            out.bind(&name, kind, binding);
        }
        // ORDER BY sees the projected names and, unless shadowed, what was in scope before.
        let mut order_scope = scope.clone();
        for (k, v) in &out.vars {
            order_scope.vars.insert(k.clone(), *v);
        }
        for s in &p.order_by {
            self.expr(&s.expr, &order_scope, Ctx::default());
        }
        for e in [&p.skip, &p.limit].into_iter().flatten() {
            self.expr(e, &order_scope, Ctx::default());
        }
        out
    }

    /// What an expression evaluates to, as far as the analysis needs to know.
    fn kind_of(&self, e: &Expr, scope: &Scope) -> (Kind, Option<usize>) {
        match &e.kind {
            ExprKind::Variable(v) => scope.get(&v.name).unwrap_or((Kind::Unknown, None)),
            ExprKind::Literal(Literal::Null) => (Kind::Unknown, None),
            ExprKind::Literal(_)
            | ExprKind::Map(_)
            | ExprKind::Property { .. }
            | ExprKind::Binary { .. }
            | ExprKind::Comparison { .. }
            | ExprKind::IsNull { .. }
            | ExprKind::IsType { .. }
            | ExprKind::CountStar
            | ExprKind::CountSubquery(_)
            | ExprKind::Exists(_)
            | ExprKind::MapProjection { .. } => (Kind::Value, None),
            ExprKind::Unary { op, .. } if *op == UnaryOp::Not => (Kind::Value, None),
            ExprKind::FunctionCall { name, .. }
                if name.parts.len() == 1
                    && matches!(
                        name.parts[0].name.to_ascii_lowercase().as_str(),
                        "count"
                            | "sum"
                            | "avg"
                            | "size"
                            | "tostring"
                            | "tointeger"
                            | "tofloat"
                            | "length"
                            | "id"
                            | "elementid"
                            | "type"
                            | "labels"
                            | "keys"
                    ) =>
            {
                (Kind::Value, None)
            }
            _ => (Kind::Unknown, None),
        }
    }

    fn lookup(&mut self, v: &Ident, scope: &Scope) {
        if scope.get(&v.name).is_some() || scope.open {
            return;
        }
        let hint = closest(&v.name, scope.vars.keys().map(String::as_str))
            .map(|c| format!("; did you mean `{c}`?"))
            .unwrap_or_else(|| "; bind it in a MATCH, WITH or UNWIND first".to_string());
        self.diag(
            DiagnosticKind::UndefinedVariable,
            format!("variable `{}` not defined{hint}", v.name),
            v.span,
        );
    }

    // ----- patterns -----

    fn pattern(&mut self, parts: &[PatternPart], scope: &mut Scope, mode: Mode) {
        let mut rel_vars = BTreeSet::new();
        let mut ids = Vec::new();
        for part in parts {
            if let Some(v) = &part.variable {
                self.bind_other(v, scope, Kind::Path);
            }
            let single_node = part.path.chain().elements.len() == 1;
            ids.push(self.chain(part.path.chain(), scope, mode, &mut rel_vars, single_node));
        }
        for (part, ids) in parts.iter().zip(&ids) {
            self.chain_exprs(part.path.chain(), ids, scope, mode);
        }
    }

    /// Binds a path variable (or other non-node, non-relationship pattern variable).
    fn bind_other(&mut self, v: &Ident, scope: &mut Scope, kind: Kind) {
        if kind == Kind::Path && scope.get(&v.name).is_some() {
            self.diag(
                DiagnosticKind::VariableAlreadyBound,
                format!(
                    "variable `{}` is already declared; a path needs a new variable",
                    v.name
                ),
                v.span,
            );
            return;
        }
        if let Some((k, _)) = scope.get(&v.name) {
            if k != kind && k != Kind::Unknown {
                self.diag(
                    DiagnosticKind::VariableTypeConflict,
                    format!(
                        "variable `{}` is already {} and cannot also be {}; rename one of them",
                        v.name,
                        k.name(),
                        kind.name()
                    ),
                    v.span,
                );
                return;
            }
        }
        scope.bind(&v.name, kind, None);
    }

    fn chain(
        &mut self,
        chain: &PathChain,
        scope: &mut Scope,
        mode: Mode,
        rel_vars: &mut BTreeSet<String>,
        single_node: bool,
    ) -> Vec<Option<usize>> {
        let mut ids = Vec::with_capacity(chain.elements.len());
        let mut prev: Option<(usize, Span)> = None;
        let mut pending: Option<(usize, &RelationshipPattern)> = None;
        for el in &chain.elements {
            match el {
                PathElement::Node(n) => {
                    let b = self.bind_node(n, scope, mode, single_node);
                    if let (Some((p, pspan)), Some((r, rp))) = (prev, pending.take()) {
                        if mode == Mode::Read {
                            self.add_segment(p, pspan, r, rp, b, n.span);
                        }
                    }
                    prev = Some((b, n.span));
                    ids.push(Some(b));
                }
                PathElement::Relationship(r) => {
                    let b = self.bind_rel(r, scope, mode, rel_vars);
                    pending = Some((b, r));
                    ids.push(Some(b));
                }
                PathElement::Group(g) => {
                    let mut inner = scope.clone();
                    if let Some(v) = &g.variable {
                        self.bind_other(v, &mut inner, Kind::Path);
                    }
                    let inner_ids = self.chain(&g.chain, &mut inner, mode, rel_vars, false);
                    self.chain_exprs(&g.chain, &inner_ids, &inner, mode);
                    if let Some(w) = &g.where_ {
                        self.expr(
                            w,
                            &inner,
                            Ctx {
                                in_where: true,
                                ..Ctx::default()
                            },
                        );
                    }
                    // Variables of a quantified group are lists outside it.
                    for (name, (kind, b)) in inner.vars {
                        if !scope.vars.contains_key(&name) {
                            if g.quantifier.is_some() {
                                scope.bind(&name, Kind::Unknown, None);
                            } else {
                                scope.bind(&name, kind, b);
                            }
                        }
                    }
                    prev = None;
                    pending = None;
                    ids.push(None);
                }
            }
        }
        ids
    }

    fn chain_exprs(&mut self, chain: &PathChain, ids: &[Option<usize>], scope: &Scope, mode: Mode) {
        for (el, id) in chain.elements.iter().zip(ids) {
            let (var, props, where_) = match el {
                PathElement::Node(n) => (&n.variable, &n.properties, &n.where_),
                PathElement::Relationship(r) => (&r.variable, &r.properties, &r.where_),
                PathElement::Group(_) => continue,
            };
            if let Some(p) = props {
                self.expr(p, scope, Ctx::default());
                if let (Mode::Read, ExprKind::Map(entries), Some(b)) = (mode, &p.kind, id) {
                    let name = var.as_ref().map(|v| v.name.as_str()).unwrap_or("");
                    for (k, _) in entries {
                        self.access(*b, k, name);
                    }
                }
            }
            if let Some(w) = where_ {
                self.expr(
                    w,
                    scope,
                    Ctx {
                        in_where: true,
                        ..Ctx::default()
                    },
                );
            }
        }
    }

    fn check_labels(&mut self, e: &LabelExpr) -> bool {
        let mut all_unknown = true;
        for name in e.names() {
            let known = self.ix.label_ix.contains_key(name.name.as_str());
            all_unknown &= !known;
            self.label_group.insert(name.name.clone(), known);
            if !known {
                let hint = closest(&name.name, self.ix.labels.iter().copied())
                    .map(|c| format!("; did you mean `{c}`?"))
                    .unwrap_or_default();
                self.diag(
                    DiagnosticKind::UnknownLabel,
                    format!("the schema has no label `{}`{hint}", name.name),
                    name.span,
                );
            }
        }
        all_unknown && !e.names().is_empty()
    }

    fn check_types(&mut self, e: &LabelExpr) -> bool {
        let mut all_unknown = true;
        for name in e.names() {
            let known = self.ix.type_ix.contains_key(name.name.as_str());
            all_unknown &= !known;
            self.type_group.insert(name.name.clone(), known);
            if !known {
                let hint = closest(&name.name, self.ix.types.iter().copied())
                    .map(|c| format!("; did you mean `{c}`?"))
                    .unwrap_or_default();
                self.diag(
                    DiagnosticKind::UnknownRelationshipType,
                    format!("the schema has no relationship type `{}`{hint}", name.name),
                    name.span,
                );
            }
        }
        all_unknown && !e.names().is_empty()
    }

    fn bind_node(&mut self, n: &NodePattern, scope: &mut Scope, mode: Mode, single: bool) -> usize {
        let mut unknown = false;
        let domain = match &n.labels {
            Some(l) => {
                if mode == Mode::Read {
                    unknown = self.check_labels(l);
                }
                self.ix.label_domain(l)
            }
            None => self.ix.all_labels(),
        };
        if let Some(v) = &n.variable {
            if let Some((k, b)) = scope.get(&v.name) {
                match (k, b) {
                    (Kind::Node, Some(b)) => {
                        if mode != Mode::Read
                            && (n.labels.is_some() || n.properties.is_some() || single)
                        {
                            self.diag(
                                DiagnosticKind::VariableAlreadyBound,
                                format!(
                                    "variable `{}` is already declared; {} cannot give it labels or properties or create it again — use SET, or a new variable",
                                    v.name,
                                    if mode == Mode::Create { "CREATE" } else { "MERGE" }
                                ),
                                v.span,
                            );
                        }
                        if mode != Mode::Read {
                            return b;
                        }
                        let b = self.use_binding(b);
                        if n.labels.is_some() {
                            let bd = &self.bindings[b];
                            let meet: Set = bd.domain.intersection(&domain).copied().collect();
                            if meet.is_empty()
                                && bd.explicit
                                && !bd.unknown
                                && !unknown
                                && !bd.domain.is_empty()
                                && !domain.is_empty()
                                && bd.parent.is_none()
                            {
                                let before = self.ix.label_names(&bd.domain).join("|");
                                self.diag(
                                    DiagnosticKind::VariableTypeConflict,
                                    format!(
                                        "variable `{}` is already bound to a node labelled :{before}, which cannot also be :{}; rename one of them or use one label",
                                        v.name,
                                        self.text(n.labels.as_ref().map_or(v.span, |l| l.span()))
                                            .trim_start_matches(':')
                                    ),
                                    v.span,
                                );
                            }
                            let bd = &mut self.bindings[b];
                            bd.domain = meet;
                            bd.explicit = true;
                            bd.unknown |= unknown;
                        }
                        return b;
                    }
                    (Kind::Unknown, _) => {}
                    (k, _) => {
                        self.diag(
                            DiagnosticKind::VariableTypeConflict,
                            format!(
                                "variable `{}` is already {} and cannot also be a node; rename one of them",
                                v.name,
                                k.name()
                            ),
                            v.span,
                        );
                    }
                }
            }
        }
        let id = self.bindings.len();
        self.bindings.push(Binding {
            node: true,
            name: n.variable.as_ref().map(|v| v.name.clone()),
            domain,
            explicit: n.labels.is_some(),
            unknown,
            checked: mode == Mode::Read,
            parent: None,
        });
        if let Some(v) = &n.variable {
            scope.bind(&v.name, Kind::Node, Some(id));
        }
        id
    }

    fn bind_rel(
        &mut self,
        r: &RelationshipPattern,
        scope: &mut Scope,
        mode: Mode,
        rel_vars: &mut BTreeSet<String>,
    ) -> usize {
        let var_length = r.length.is_some() || r.quantifier.is_some();
        let kind = if var_length { Kind::RelList } else { Kind::Rel };
        let mut unknown = false;
        let domain = match &r.types {
            Some(t) => {
                if !type_expr_satisfiable(t) {
                    self.diag(
                        DiagnosticKind::UnsatisfiableRelationshipType,
                        format!(
                            "no relationship satisfies `{}`: a relationship has exactly one type; use `|` for alternatives",
                            self.text(t.span())
                        ),
                        t.span(),
                    );
                }
                if mode == Mode::Read {
                    unknown = self.check_types(t);
                }
                // An unsatisfiable expression is reported as such, not again as a path.
                unknown |= !type_expr_satisfiable(t);
                self.ix.type_domain(t)
            }
            None => self.ix.all_types(),
        };
        if let Some(v) = &r.variable {
            if !rel_vars.insert(v.name.clone()) {
                self.diag(
                    DiagnosticKind::VariableAlreadyBound,
                    format!(
                        "relationship variable `{}` names two relationships of one pattern; give the second a new name",
                        v.name
                    ),
                    v.span,
                );
            }
            if let Some((k, b)) = scope.get(&v.name) {
                if k == kind && mode == Mode::Read {
                    if let Some(b) = b {
                        let b = self.use_binding(b);
                        if r.types.is_some() {
                            let bd = &mut self.bindings[b];
                            bd.domain = bd.domain.intersection(&domain).copied().collect();
                            bd.unknown |= unknown;
                        }
                        return b;
                    }
                } else if k == kind && mode != Mode::Read {
                    self.diag(
                        DiagnosticKind::VariableAlreadyBound,
                        format!(
                            "relationship variable `{}` is already declared; {} needs a new variable",
                            v.name,
                            if mode == Mode::Create { "CREATE" } else { "MERGE" }
                        ),
                        v.span,
                    );
                } else if k != Kind::Unknown {
                    self.diag(
                        DiagnosticKind::VariableTypeConflict,
                        format!(
                            "variable `{}` is already {} and cannot also be {}; rename one of them",
                            v.name,
                            k.name(),
                            kind.name()
                        ),
                        v.span,
                    );
                }
            }
        }
        let id = self.bindings.len();
        self.bindings.push(Binding {
            node: false,
            name: r.variable.as_ref().map(|v| v.name.clone()),
            domain,
            explicit: r.types.is_some(),
            unknown,
            checked: mode == Mode::Read,
            parent: None,
        });
        if let Some(v) = &r.variable {
            scope.bind(&v.name, kind, Some(id));
        }
        id
    }

    fn add_segment(
        &mut self,
        left: usize,
        left_span: Span,
        rel: usize,
        rp: &RelationshipPattern,
        right: usize,
        right_span: Span,
    ) {
        let bounds = match (&rp.length, &rp.quantifier) {
            (Some(l), _) => Some(l.bounds()),
            (None, Some(q)) => Some(q.bounds()),
            (None, None) => None,
        };
        self.segments.push(Segment {
            left,
            rel,
            right,
            direction: rp.direction,
            bounds,
            span: rp.span,
            left_span,
            right_span,
            skip: false,
            invalid: false,
        });
    }

    fn access(&mut self, binding: usize, key: &Ident, variable: &str) {
        self.accesses.push(PropertyAccess {
            binding,
            key: key.name.clone(),
            span: key.span,
            variable: variable.to_string(),
        });
    }

    // ----- expressions -----

    /// Literal operands of the wrong type: booleans for AND/OR/XOR/NOT, numbers for arithmetic.
    fn literal_operand_types(&mut self, e: &Expr) {
        let (what, operands, allowed): (&str, Vec<&Expr>, &[&str]) = match &e.kind {
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                    (op.symbol(), vec![lhs, rhs], &["Boolean"])
                }
                BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod | BinaryOp::Pow => {
                    (op.symbol(), vec![lhs, rhs], &["Integer", "Float"])
                }
                _ => return,
            },
            ExprKind::Unary {
                op: UnaryOp::Not,
                expr,
            } => ("NOT", vec![expr], &["Boolean"]),
            ExprKind::Unary {
                op: UnaryOp::Neg,
                expr,
            } => ("-", vec![expr], &["Integer", "Float"]),
            _ => return,
        };
        for o in operands {
            if let Some(t) = literal_type(o) {
                if !allowed.contains(&t) {
                    self.diag(
                        DiagnosticKind::InvalidArgumentType,
                        format!(
                            "type mismatch: `{what}` expects {}, but this is a {t} literal",
                            allowed.join(" or ")
                        ),
                        o.span,
                    );
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr, scope: &Scope, ctx: Ctx) {
        match &e.kind {
            // Patterns that test or collect, never filter the outer rows: checked on copies.
            ExprKind::Pattern(_)
            | ExprKind::ShortestPath { .. }
            | ExprKind::PatternComprehension { .. }
            | ExprKind::Exists(_)
            | ExprKind::CountSubquery(_)
            | ExprKind::Collect(_) => self.isolated(|c| c.expr_here(e, scope, ctx)),
            _ => self.expr_here(e, scope, ctx),
        }
    }

    fn expr_here(&mut self, e: &Expr, scope: &Scope, ctx: Ctx) {
        self.literal_operand_types(e);
        match &e.kind {
            ExprKind::Literal(Literal::OutOfRange { text, float }) => self.diag(
                DiagnosticKind::NumberOutOfRange,
                format!(
                    "{} `{text}` is out of range; {}",
                    if *float { "float" } else { "integer" },
                    if *float {
                        "use a smaller number"
                    } else {
                        "integers are 64-bit (at most 9223372036854775807); use a float or a string"
                    }
                ),
                e.span,
            ),
            ExprKind::CountStar => self.aggregate_here(e.span, "count(*)", ctx),
            ExprKind::Parameter(p) => {
                if let Some(params) = &self.opts.parameters {
                    let name = match p {
                        Parameter::Named(n) => n.clone(),
                        Parameter::Positional(i) => i.to_string(),
                    };
                    if !params.contains(&name) {
                        let hint = closest(&name, params.iter().map(String::as_str))
                            .map(|c| format!("; did you mean `${c}`?"))
                            .unwrap_or_default();
                        self.diag(
                            DiagnosticKind::MissingParameter,
                            format!("expected parameter `${name}`, which is not supplied{hint}"),
                            e.span,
                        );
                    }
                }
            }
            ExprKind::Variable(v) => self.lookup(v, scope),
            ExprKind::List(xs) => {
                for x in xs {
                    self.expr(x, scope, ctx);
                }
            }
            ExprKind::Map(entries) => {
                for (_, x) in entries {
                    self.expr(x, scope, ctx);
                }
            }
            ExprKind::Property { expr, key } => {
                self.expr(expr, scope, ctx);
                if let ExprKind::Variable(v) = &expr.kind {
                    if let Some((Kind::Node | Kind::Rel, Some(b))) = scope.get(&v.name) {
                        self.access(b, key, &v.name);
                    }
                }
            }
            ExprKind::Index { expr, index } => {
                self.expr(expr, scope, ctx);
                self.expr(index, scope, ctx);
            }
            ExprKind::Slice { expr, from, to } => {
                self.expr(expr, scope, ctx);
                for x in [from, to].into_iter().flatten() {
                    self.expr(x, scope, ctx);
                }
            }
            ExprKind::HasLabels { expr, labels } => {
                self.expr(expr, scope, ctx);
                let kind = match &expr.kind {
                    ExprKind::Variable(v) => scope.get(&v.name).map(|(k, _)| k),
                    _ => None,
                };
                match kind {
                    Some(Kind::Node) => {
                        self.check_labels(labels);
                    }
                    Some(Kind::Rel) => {
                        self.check_types(labels);
                    }
                    _ => {}
                }
            }
            ExprKind::Unary { expr, .. } => self.expr(expr, scope, ctx),
            ExprKind::Binary { op, lhs, rhs } => {
                self.expr(lhs, scope, ctx);
                self.expr(rhs, scope, ctx);
                if matches!(op, BinaryOp::Div | BinaryOp::Mod)
                    && matches!(rhs.kind, ExprKind::Literal(Literal::Integer(0)))
                    && !matches!(lhs.kind, ExprKind::Literal(Literal::Float(_)))
                {
                    self.diag(
                        DiagnosticKind::DivisionByZero,
                        format!(
                            "`{}` divides by zero and fails with `/ by zero` on integers; remove it or divide by a non-zero value",
                            self.text(e.span)
                        ),
                        rhs.span,
                    );
                }
            }
            ExprKind::Comparison { first, rest } => {
                self.expr(first, scope, ctx);
                for (_, x) in rest {
                    self.expr(x, scope, ctx);
                }
            }
            ExprKind::IsNull { expr, .. } | ExprKind::IsType { expr, .. } => {
                self.expr(expr, scope, ctx)
            }
            ExprKind::FunctionCall { name, args, .. } => {
                let dotted = name.dotted();
                match crate::catalogue::function(&dotted) {
                    None => {
                        let hint = crate::catalogue::suggest_function(&dotted)
                            .map(|c| format!("; did you mean `{c}`?"))
                            .unwrap_or_default();
                        self.diag(
                            DiagnosticKind::UnknownFunction,
                            crate::catalogue::unknown_function_message(&dotted) + &hint,
                            name.span,
                        )
                    }
                    Some(f) if self.opts.executable.is_some_and(|run| !run(&dotted)) => self.diag(
                        DiagnosticKind::UnsupportedFunction,
                        format!(
                            "the function {}() is not supported by this engine yet",
                            f.name
                        ),
                        name.span,
                    ),
                    Some(_) => {}
                }
                let mut inner = ctx;
                if name.is_aggregate() {
                    self.aggregate_here(e.span, &name.dotted(), ctx);
                    inner.in_aggregate = true;
                }
                for a in args {
                    self.expr(a, scope, inner);
                }
            }
            ExprKind::Case {
                operand,
                whens,
                else_,
            } => {
                if let Some(o) = operand {
                    self.expr(o, scope, ctx);
                }
                for (w, t) in whens {
                    self.expr(w, scope, ctx);
                    self.expr(t, scope, ctx);
                }
                if let Some(x) = else_ {
                    self.expr(x, scope, ctx);
                }
            }
            ExprKind::ListComprehension {
                variable,
                list,
                filter,
                map,
            } => {
                self.expr(list, scope, ctx);
                let mut inner = scope.clone();
                inner.bind(&variable.name, Kind::Unknown, None);
                for x in [filter, map].into_iter().flatten() {
                    self.expr(x, &inner, ctx);
                }
            }
            ExprKind::Quantified {
                variable,
                list,
                filter,
                ..
            } => {
                self.expr(list, scope, ctx);
                let mut inner = scope.clone();
                inner.bind(&variable.name, Kind::Unknown, None);
                if let Some(f) = filter {
                    self.expr(f, &inner, ctx);
                }
            }
            ExprKind::Reduce {
                accumulator,
                init,
                variable,
                list,
                expr,
            } => {
                self.expr(init, scope, ctx);
                self.expr(list, scope, ctx);
                let mut inner = scope.clone();
                inner.bind(&accumulator.name, Kind::Unknown, None);
                inner.bind(&variable.name, Kind::Unknown, None);
                self.expr(expr, &inner, ctx);
            }
            ExprKind::PatternComprehension {
                variable,
                pattern,
                filter,
                map,
            } => {
                let mut inner = scope.clone();
                if let Some(v) = variable {
                    self.bind_other(v, &mut inner, Kind::Path);
                }
                let mut rel_vars = BTreeSet::new();
                let ids = self.chain(pattern, &mut inner, Mode::Read, &mut rel_vars, false);
                self.chain_exprs(pattern, &ids, &inner, Mode::Read);
                if let Some(f) = filter {
                    self.expr(
                        f,
                        &inner,
                        Ctx {
                            in_where: true,
                            ..ctx
                        },
                    );
                }
                self.expr(map, &inner, ctx);
            }
            ExprKind::Pattern(chain) | ExprKind::ShortestPath { chain, .. } => {
                let mut inner = scope.clone();
                let mut rel_vars = BTreeSet::new();
                let ids = self.chain(chain, &mut inner, Mode::Read, &mut rel_vars, false);
                self.chain_exprs(chain, &ids, &inner, Mode::Read);
            }
            ExprKind::Exists(body) | ExprKind::CountSubquery(body) => match &**body {
                SubqueryBody::Query(q) => {
                    self.query(q, scope.clone());
                }
                SubqueryBody::Pattern { pattern, where_ } => {
                    let mut inner = scope.clone();
                    self.pattern(pattern, &mut inner, Mode::Read);
                    if let Some(w) = where_ {
                        self.expr(
                            w,
                            &inner,
                            Ctx {
                                in_where: true,
                                ..Ctx::default()
                            },
                        );
                    }
                }
            },
            ExprKind::Collect(q) => {
                self.query(q, scope.clone());
            }
            ExprKind::MapProjection { variable, items } => {
                self.lookup(variable, scope);
                let binding = match scope.get(&variable.name) {
                    Some((Kind::Node | Kind::Rel, Some(b))) => Some(b),
                    _ => None,
                };
                for item in items {
                    match item {
                        MapProjectionItem::Property(k) => {
                            if let Some(b) = binding {
                                self.access(b, k, &variable.name);
                            }
                        }
                        MapProjectionItem::AllProperties(_) => {}
                        MapProjectionItem::Entry(_, x) => self.expr(x, scope, ctx),
                        MapProjectionItem::Variable(v) => self.lookup(v, scope),
                    }
                }
            }
            ExprKind::Literal(_) => {}
        }
    }

    fn aggregate_here(&mut self, span: Span, name: &str, ctx: Ctx) {
        if ctx.in_aggregate {
            self.diag(
                DiagnosticKind::NestedAggregation,
                format!("`{name}` is inside another aggregating function; aggregate in a WITH first, then aggregate the result"),
                span,
            );
        } else if ctx.in_where {
            self.diag(
                DiagnosticKind::AggregationInWhere,
                format!("`{name}` cannot be used in WHERE; compute it in a WITH (`WITH …, {name} AS x WHERE x …`)"),
                span,
            );
        }
    }

    // ----- inference and path checks -----

    /// Label pairs `(x, y)` one segment allows, given the current domains, and the relationship
    /// types used (one-hop segments only).
    fn support(&self, s: &Segment, dir: Direction) -> (Set, Set, Set) {
        self.support_with(s, s.bounds, dir)
    }

    fn support_with(
        &self,
        s: &Segment,
        bounds: Option<(u64, Option<u64>)>,
        dir: Direction,
    ) -> (Set, Set, Set) {
        let dx = &self.bindings[s.left].domain;
        let dy = &self.bindings[s.right].domain;
        let types = &self.bindings[s.rel].domain;
        let (mut nx, mut ny, mut nt) = (Set::new(), Set::new(), Set::new());
        match bounds {
            None => {
                for &(a, t, b) in &self.ix.triples {
                    if !types.contains(&t) {
                        continue;
                    }
                    let fwd = matches!(dir, Direction::Right | Direction::Undirected);
                    let bwd = matches!(dir, Direction::Left | Direction::Undirected);
                    if fwd && dx.contains(&a) && dy.contains(&b) {
                        nx.insert(a);
                        ny.insert(b);
                        nt.insert(t);
                    }
                    if bwd && dx.contains(&b) && dy.contains(&a) {
                        nx.insert(b);
                        ny.insert(a);
                        nt.insert(t);
                    }
                }
            }
            Some((min, max)) => {
                for &x in dx {
                    let reach = self.reach(x, types, dir, min, max);
                    let hits: Vec<usize> = reach.intersection(dy).copied().collect();
                    if !hits.is_empty() {
                        nx.insert(x);
                        ny.extend(hits);
                    }
                }
                nt = types.clone();
            }
        }
        (nx, ny, nt)
    }

    /// Labels reachable from `x` in `min..=max` steps over relationships of `types`.
    fn reach(&self, x: usize, types: &Set, dir: Direction, min: u64, max: Option<u64>) -> Set {
        let step = |from: &Set| -> Set {
            let mut out = Set::new();
            for &(a, t, b) in &self.ix.triples {
                if !types.contains(&t) {
                    continue;
                }
                if matches!(dir, Direction::Right | Direction::Undirected) && from.contains(&a) {
                    out.insert(b);
                }
                if matches!(dir, Direction::Left | Direction::Undirected) && from.contains(&b) {
                    out.insert(a);
                }
            }
            out
        };
        let mut cur: Set = [x].into_iter().collect();
        let mut k = 0u64;
        let mut seen: Vec<Set> = Vec::new();
        // Exactly `min` steps (stopping early once the frontier cycles).
        while k < min {
            cur = step(&cur);
            k += 1;
            if cur.is_empty() {
                return cur;
            }
            if seen.contains(&cur) {
                // Periodic from here on: jump ahead within the cycle.
                let start = seen.iter().position(|s| s == &cur).unwrap_or(0);
                let period = (seen.len() - start) as u64;
                let remaining = (min - k) % period.max(1);
                for _ in 0..remaining {
                    cur = step(&cur);
                }
                break;
            }
            seen.push(cur.clone());
        }
        // Then up to `max - min` more steps; once a step adds nothing new, no later one can.
        let mut out = cur.clone();
        let mut frontier = cur;
        let mut steps_left = max.map(|m| m.saturating_sub(min));
        while steps_left != Some(0) {
            let next = step(&frontier);
            if next.iter().all(|x| out.contains(x)) {
                break;
            }
            out.extend(next.iter().copied());
            frontier = next;
            if let Some(s) = &mut steps_left {
                *s -= 1;
            }
        }
        out
    }

    fn infer_paths(&mut self) {
        // Copies inherit an unknown label found on their parent later (parents come first).
        for i in 0..self.bindings.len() {
            if let Some(p) = self.bindings[i].parent {
                self.bindings[i].unknown |= self.bindings[p].unknown;
            }
        }
        // A later occurrence may have given a variable an unknown label: decide skips now.
        for i in 0..self.segments.len() {
            let (l, r, t) = (
                self.segments[i].left,
                self.segments[i].right,
                self.segments[i].rel,
            );
            self.segments[i].skip =
                self.bindings[l].unknown || self.bindings[r].unknown || self.bindings[t].unknown;
        }
        let mut changed = true;
        let mut rounds = 0;
        while changed && rounds < 64 {
            changed = false;
            rounds += 1;
            // A copy narrows with its parent; the parent never learns from the copy.
            for i in 0..self.bindings.len() {
                if let Some(p) = self.bindings[i].parent {
                    let to = self.bindings[p].domain.clone();
                    changed |= narrow(&mut self.bindings[i].domain, &to);
                }
            }
            for i in 0..self.segments.len() {
                if self.segments[i].skip || self.segments[i].invalid {
                    continue;
                }
                let (nx, ny, nt) = self.support(&self.segments[i], self.segments[i].direction);
                if nx.is_empty() {
                    self.report_path(i);
                    self.segments[i].invalid = true;
                    continue;
                }
                let s = &self.segments[i];
                let (l, r, t, var) = (s.left, s.right, s.rel, s.bounds.is_some());
                changed |= narrow(&mut self.bindings[l].domain, &nx);
                changed |= narrow(&mut self.bindings[r].domain, &ny);
                if !var {
                    changed |= narrow(&mut self.bindings[t].domain, &nt);
                }
            }
        }
    }

    fn describe(&self, b: usize) -> String {
        let bd = &self.bindings[b];
        let names = self.ix.label_names(&bd.domain);
        let var = bd
            .name
            .clone()
            .map(|n| format!("`{n}`"))
            .unwrap_or_else(|| "the node".to_string());
        if names.len() == self.ix.labels.len() {
            return String::new();
        }
        let labels = if names.is_empty() {
            "no label".to_string()
        } else {
            names
                .iter()
                .map(|n| format!(":{n}"))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        if bd.explicit {
            format!("{var} is {labels}")
        } else {
            format!("{var} can only be {labels} (inferred from the rest of the query)")
        }
    }

    fn report_path(&mut self, i: usize) {
        let s = &self.segments[i];
        let types = &self.bindings[s.rel].domain;
        let type_names: Vec<&str> = types.iter().map(|&t| self.ix.types[t]).collect();
        let triples: Vec<String> = self
            .ix
            .schema
            .triples
            .iter()
            .filter(|t| type_names.contains(&t.rel_type.as_str()))
            .map(|t| t.to_string())
            .collect();
        let written = format!(
            "{}{}{}",
            self.text(s.left_span),
            self.text(s.span),
            self.text(s.right_span)
        );
        let context: Vec<String> = [self.describe(s.left), self.describe(s.right)]
            .into_iter()
            .filter(|d| !d.is_empty())
            .collect();
        let context = if context.is_empty() {
            String::new()
        } else {
            format!(" ({})", context.join("; "))
        };
        let schema_has = if triples.is_empty() {
            "the schema has no such relationship".to_string()
        } else {
            let shown: Vec<String> = triples.iter().take(6).cloned().collect();
            let more = if triples.len() > 6 {
                format!(" and {} more", triples.len() - 6)
            } else {
                String::new()
            };
            format!("the schema has {}{more}", shown.join(", "))
        };
        let reversed = match s.direction {
            Direction::Right => Direction::Left,
            Direction::Left => Direction::Right,
            Direction::Undirected => Direction::Undirected,
        };
        if s.direction != Direction::Undirected && !self.support(s, reversed).0.is_empty() {
            let rel_text = self.text(s.span).trim();
            let flipped = match s.direction {
                Direction::Right if rel_text.starts_with('-') && rel_text.ends_with('>') => {
                    Some(format!("<{}", &rel_text[..rel_text.len() - 1]))
                }
                Direction::Left if rel_text.starts_with('<') && rel_text.ends_with('-') => {
                    Some(format!("{}>", &rel_text[1..]))
                }
                _ => None,
            };
            let fix = match flipped {
                Some(f) => format!(
                    "write `{}{f}{}`",
                    self.text(s.left_span),
                    self.text(s.right_span)
                ),
                None => "reverse the arrow".to_string(),
            };
            let msg = format!("`{written}` points the wrong way{context}: {schema_has}; {fix}");
            let span = s.span;
            self.diag(DiagnosticKind::WrongDirection, msg, span);
            return;
        }
        if let Some((min, Some(_))) = s.bounds {
            if !self
                .support_with(s, Some((min.min(1), None)), s.direction)
                .0
                .is_empty()
            {
                let msg = format!(
                    "`{written}` cannot be formed with these bounds{context}, but can with more hops: {schema_has}; change the length bounds"
                );
                let span = s.span;
                self.diag(DiagnosticKind::VariableLengthPath, msg, span);
                return;
            }
        }
        let msg = format!("`{written}` does not exist in the schema{context}: {schema_has}");
        let span = s.span;
        self.diag(DiagnosticKind::UnknownPath, msg, span);
    }

    fn path_key(&self, s: &Segment) -> String {
        let node = |b: usize| -> String {
            let bd = &self.bindings[b];
            if bd.domain.len() == self.ix.labels.len() && !bd.explicit {
                String::new()
            } else {
                self.ix.label_names(&bd.domain).join("|")
            }
        };
        let rel = &self.bindings[s.rel];
        let types: Vec<&str> = if rel.explicit {
            rel.domain.iter().map(|&t| self.ix.types[t]).collect()
        } else {
            Vec::new()
        };
        let len = match s.bounds {
            None => String::new(),
            Some((a, b)) => format!("*{a}..{}", b.map(|x| x.to_string()).unwrap_or_default()),
        };
        let (l, r) = match s.direction {
            Direction::Right => ("-", "->"),
            Direction::Left => ("<-", "-"),
            Direction::Undirected => ("-", "-"),
        };
        format!(
            "(:{}){l}[:{}{len}]{r}(:{}) {}",
            node(s.left),
            types.join("|"),
            node(s.right),
            if s.skip { self.text(s.span) } else { "" }
        )
    }

    fn schema_score(&self) -> f64 {
        let mut groups = Vec::new();
        let frac = |v: &mut dyn Iterator<Item = bool>| -> Option<f64> {
            let (mut n, mut ok) = (0usize, 0usize);
            for b in v {
                n += 1;
                ok += b as usize;
            }
            (n > 0).then(|| ok as f64 / n as f64)
        };
        groups.extend(frac(&mut self.label_group.values().copied()));
        groups.extend(frac(&mut self.type_group.values().copied()));
        let mut paths: BTreeMap<String, bool> = BTreeMap::new();
        for s in &self.segments {
            let ok = !s.skip && !s.invalid;
            let e = paths.entry(self.path_key(s)).or_insert(true);
            *e &= ok;
        }
        groups.extend(frac(&mut paths.values().copied()));
        if groups.is_empty() {
            1.0
        } else {
            groups.iter().sum::<f64>() / groups.len() as f64
        }
    }

    fn check_properties(&mut self) -> Option<f64> {
        let mut pairs: BTreeMap<(String, String), bool> = BTreeMap::new();
        let accesses = std::mem::take(&mut self.accesses);
        for a in &accesses {
            let bd = &self.bindings[a.binding];
            let schema = self.ix.schema;
            let names: Vec<&str> = if bd.node {
                self.ix.label_names(&bd.domain)
            } else {
                bd.domain.iter().map(|&t| self.ix.types[t]).collect()
            };
            if bd.unknown || !bd.checked {
                // The label or type is unknown (reported); CyVer cannot check its properties.
                continue;
            }
            let has = |n: &str| {
                if bd.node {
                    schema.node_property(n, &a.key).is_some()
                } else {
                    schema.relationship_property(n, &a.key).is_some()
                }
            };
            let ok = names.iter().any(|n| has(n));
            let entity = if bd.node && names.len() == self.ix.labels.len() && !bd.explicit {
                "*".to_string()
            } else {
                names.join("|")
            };
            let e = pairs.entry((entity, a.key.clone())).or_insert(true);
            *e &= ok;
            if ok {
                continue;
            }
            let what = if bd.node {
                "label"
            } else {
                "relationship type"
            };
            let var = if a.variable.is_empty() {
                "the pattern".to_string()
            } else {
                format!("`{}`", a.variable)
            };
            let owner = if names.is_empty() {
                format!("{var} (which matches nothing in the schema)")
            } else {
                format!(
                    "{var} ({})",
                    names
                        .iter()
                        .map(|n| format!(":{n}"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                )
            };
            let own_keys: BTreeSet<&str> = names
                .iter()
                .flat_map(|n| {
                    if bd.node {
                        schema
                            .label_properties(n)
                            .into_iter()
                            .map(|(k, _)| k)
                            .collect::<Vec<_>>()
                    } else {
                        schema
                            .relationship_types
                            .get(*n)
                            .map(|e| e.properties.keys().map(String::as_str).collect())
                            .unwrap_or_default()
                    }
                })
                .collect();
            let suggestion = closest(&a.key, own_keys.iter().copied())
                .map(|c| format!("; the closest property it has is `{c}`"))
                .unwrap_or_else(|| format!("; that {what} has no properties"));
            if !schema.has_property_key(&a.key) {
                let global = closest(&a.key, schema.property_keys());
                let hint = match (closest(&a.key, own_keys.iter().copied()), global) {
                    (Some(c), _) => format!("; did you mean `{c}`?"),
                    (None, Some(g)) => format!("; did you mean `{g}`?"),
                    _ => String::new(),
                };
                self.diag(
                    DiagnosticKind::UnknownPropertyKey,
                    format!(
                        "no label or relationship type has a property `{}` (read on {owner}){hint}",
                        a.key
                    ),
                    a.span,
                );
            } else {
                let holders: Vec<String> = if bd.node {
                    schema
                        .labels
                        .keys()
                        .filter(|l| schema.node_property(l, &a.key).is_some())
                        .map(|l| format!(":{l}"))
                        .collect()
                } else {
                    schema
                        .relationship_types
                        .iter()
                        .filter(|(_, e)| e.properties.contains_key(&a.key))
                        .map(|(t, _)| format!(":{t}"))
                        .collect()
                };
                let on = if holders.is_empty() {
                    String::new()
                } else {
                    format!(" (it is a property of {})", holders.join(", "))
                };
                self.diag(
                    DiagnosticKind::InvalidPropertyAccessByLabel,
                    format!("{owner} has no property `{}`{on}{suggestion}", a.key),
                    a.span,
                );
            }
        }
        if pairs.is_empty() {
            None
        } else {
            let ok = pairs.values().filter(|v| **v).count();
            Some(ok as f64 / pairs.len() as f64)
        }
    }
}

fn narrow(domain: &mut Set, to: &Set) -> bool {
    if domain.iter().all(|x| to.contains(x)) {
        return false;
    }
    *domain = domain.intersection(to).copied().collect();
    true
}
