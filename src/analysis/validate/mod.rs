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

use super::diagnostic::{closest, Diagnostic, DiagnosticKind, GqlFacts};
use crate::schema::Schema;
use crate::syntax::ast::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

// The checker's methods, by topic: clauses and scopes, patterns, expressions, and the path
// inference over the schema.
mod admin;
mod clauses;
mod exprs;
mod graphs;
mod group_by;
mod paths;
mod patterns;
mod schema;
mod types;
use types::DynamicPlace;

/// Options for validation.
#[derive(Clone, Debug, Default)]
pub struct ValidateOptions {
    /// The names of the parameters that will be supplied. `None`: not known, so parameters are
    /// not checked; `Some(set)`: every `$name` not in the set is a `MissingParameter`.
    pub parameters: Option<BTreeSet<String>>,
    /// The functions an engine runs, when validating for that engine: a function Neo4j knows
    /// but this rejects is an `UnsupportedFunction`. `None`: any function Neo4j knows.
    pub executable: Option<fn(&str) -> bool>,
    /// The Cypher version of a statement without a `CYPHER n` prefix (Neo4j's default, 5,
    /// unless the caller says otherwise).
    pub cypher: CypherVersion,
    /// Procedures beyond Neo4j's catalogue that the caller runs (an engine's own, the
    /// TCK's): their calls are checked against these signatures as built-ins are.
    pub procedures: Vec<crate::catalogue::Signature>,
    /// The statement runs on a composite database: its `USE` clauses may name several graphs
    /// and look graphs up by name. `false` (a standard database, as Neo4j's tools assume):
    /// those are errors.
    pub composite: bool,
    /// The types of the parameters' values, where the caller knows them (an engine running
    /// the statement with its parameters): Neo4j types each parameter from its value before
    /// compiling, so `toUpper($x)` with `x = 1` is a compile-time `Type mismatch for parameter
    /// 'x'`. Empty: parameters are of any type.
    pub parameter_types: BTreeMap<String, ParameterType>,
    /// Report property keys as Neo4j's `UnknownPropertyKeyWarning` does: a key is unknown
    /// when nothing in the schema has it, wherever it is read (CyVer's checks, the default,
    /// judge a key by the labels of the element that reads it).
    pub neo4j_tokens: bool,
}

/// The static type Neo4j 5.26 gives a parameter from its value before it compiles a
/// statement (read off the oracle: a string, an integer, a boolean, a list — of strings or of
/// anything — and a map are typed; a float, a temporal or spatial value and null are not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParameterType {
    String,
    Integer,
    Boolean,
    /// A non-empty list of strings only (`List<String>`).
    ListOfString,
    /// Any other list (`List<T>`).
    List,
    /// A map, typed as a map, node or relationship may be (`Map, Node or Relationship`).
    Map,
}

impl ParameterType {
    /// The type of a parameter with value `v`; `None` where Neo4j types it as anything.
    pub fn of(v: &crate::value::Value) -> Option<ParameterType> {
        use crate::value::Value;
        Some(match v {
            Value::String(_) => ParameterType::String,
            Value::Int(_) => ParameterType::Integer,
            Value::Bool(_) => ParameterType::Boolean,
            Value::List(xs)
                if !xs.is_empty() && xs.iter().all(|x| matches!(x, Value::String(_))) =>
            {
                ParameterType::ListOfString
            }
            Value::List(_) => ParameterType::List,
            Value::Map(_) => ParameterType::Map,
            _ => return None,
        })
    }

    /// The types of every parameter in `params` that Neo4j types.
    pub fn of_all<'a>(
        params: impl IntoIterator<Item = (&'a String, &'a crate::value::Value)>,
    ) -> BTreeMap<String, ParameterType> {
        params
            .into_iter()
            .filter_map(|(k, v)| Some((k.clone(), ParameterType::of(v)?)))
            .collect()
    }
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
    /// Syntax Neo4j 5.26 takes but deprecates (its `FeatureDeprecationWarning`s), in the order
    /// Neo4j lists them; not findings (the statement runs).
    pub deprecations: Vec<Deprecated>,
}

/// Syntax that Neo4j 5.26 runs but deprecates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Deprecated {
    /// `[:A|:B]`: a colon before an alternative relationship type. `old` is the expression as
    /// Neo4j prints it (`:A|:B`), `new` its replacement (`:A|B`), `at` the last `|:`.
    ColonDisjunction { at: Span, old: String, new: String },
    /// `CALL { WITH a … }`: a subquery without a variable scope clause; `variables` are what
    /// its importing `WITH`s import (`CALL (a) { … }` is the replacement), `at` the `CALL`.
    CallWithoutScope { at: Span, variables: Vec<String> },
}

impl Deprecated {
    /// Where Neo4j places it.
    pub fn span(&self) -> Span {
        match self {
            Deprecated::ColonDisjunction { at, .. } | Deprecated::CallWithoutScope { at, .. } => {
                *at
            }
        }
    }
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
                    deprecations: Vec::new(),
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
            version: self.options.cypher,
            inserting: false,
            deprecations: Vec::new(),
        };
        match stmt.cypher_version(self.options.cypher) {
            Ok(v) => c.version = v,
            Err(message) => {
                let span = stmt.cypher.as_ref().map_or(stmt.span, |p| p.span);
                c.diag(DiagnosticKind::CypherVersion, message, span);
            }
        }
        c.query(&stmt.query, Scope::default());
        c.graph_references(&stmt.query);
        for part in
            std::iter::once(&stmt.query.first).chain(stmt.query.unions.iter().map(|u| &u.query))
        {
            c.query_conclusion(part);
        }
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
        // In the order Neo4j lists them (a chain's from its end, a subquery's body first).
        let mut deprecations: Vec<Deprecated> = Vec::new();
        for d in c.deprecations {
            if !deprecations.contains(&d) {
                deprecations.push(d);
            }
        }
        Validation {
            syntax_ok,
            schema_score,
            properties_score,
            kg_valid,
            diagnostics,
            deprecations,
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
            // Labels computed per row may be any label, and so may their negation.
            LabelExpr::Wildcard(_) | LabelExpr::Dynamic { .. } => self.all_labels(),
            LabelExpr::Not(x, _) if x.is_dynamic() => self.all_labels(),
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
        if e.is_dynamic() {
            return self.all_types();
        }
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
        LabelExpr::Wildcard(_) | LabelExpr::Dynamic { .. } => true,
        LabelExpr::Not(x, _) => !type_matches(x, t),
        LabelExpr::And(xs, _) => xs.iter().all(|x| type_matches(x, t)),
        LabelExpr::Or(xs, _) => xs.iter().any(|x| type_matches(x, t)),
    }
}

/// Whether some single relationship type (named in `e`, or any other) satisfies `e`.
fn type_expr_satisfiable(e: &LabelExpr) -> bool {
    if e.is_dynamic() {
        return true;
    }
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
    /// The static type of a value variable where Neo4j's checker knows it (`Integer`,
    /// `List<Node>`), for its `defined with conflicting type` message.
    types: BTreeMap<String, types::Types>,
}

impl Scope {
    fn get(&self, name: &str) -> Option<(Kind, Option<usize>)> {
        self.vars.get(name).copied()
    }
    fn bind(&mut self, name: &str, kind: Kind, binding: Option<usize>) {
        self.vars.insert(name.to_string(), (kind, binding));
        self.types.remove(name);
    }
}

impl Checker<'_, '_> {
    /// A variable used as `expected` (a node, a relationship, …) that is already something
    /// else: Neo4j's message where the value's type is known, else grape's.
    fn kind_conflict(&mut self, v: &Ident, scope: &Scope, k: Kind, expected: Kind) {
        // The type it has: a value's where known, an entity's from its kind.
        let defined = scope.types.get(&v.name).copied().or_else(|| {
            use types::{Ty, Types};
            Some(match k {
                Kind::Node => Types::of(Ty::Node),
                Kind::Rel => Types::of(Ty::Relationship),
                Kind::RelList => Types::list_of(Ty::Relationship),
                Kind::Path => Types::of(Ty::Path),
                Kind::Value | Kind::Unknown => return None,
            })
        });
        let mut facts = None;
        let message = match (defined, expected) {
            (Some(t), Kind::Node | Kind::Rel | Kind::RelList | Kind::Path) => {
                let want = match expected {
                    Kind::Node => "Node",
                    Kind::Rel => "Relationship",
                    Kind::RelList => "List<Relationship>",
                    _ => "Path",
                };
                let actual = t.describe();
                let message = format!(
                    "Type mismatch: {} defined with conflicting type {actual} (expected {want})",
                    v.name
                );
                facts = Some(GqlFacts::ConflictingType {
                    variable: v.name.clone(),
                    actual,
                    expected: want,
                });
                message
            }
            _ => format!(
                "variable `{}` is already {} and cannot also be {}; rename one of them",
                v.name,
                k.name(),
                expected.name()
            ),
        };
        self.diag(DiagnosticKind::VariableTypeConflict, message, v.span);
        if let Some(f) = facts {
            self.last_facts(f);
        }
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
    /// The Cypher version the statement is checked under.
    version: CypherVersion,
    /// Checking an `INSERT` (Neo4j words its errors its own way there).
    inserting: bool,
    /// Deprecated syntax met (see [`Deprecated`]).
    deprecations: Vec<Deprecated>,
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

    /// The facts of the GQL status of the finding just reported.
    fn last_facts(&mut self, facts: GqlFacts) {
        if let Some(d) = self.diags.last_mut() {
            d.facts = Some(facts);
        }
    }

    /// [`Self::diag`] with a suggestion beyond Neo4j's message.
    fn diag_help(&mut self, kind: DiagnosticKind, message: String, help: String, span: Span) {
        let mut d = Diagnostic::new(kind, message, span, self.src);
        d.help = Some(help);
        self.diags.push(d);
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
}

fn narrow(domain: &mut Set, to: &Set) -> bool {
    if domain.iter().all(|x| to.contains(x)) {
        return false;
    }
    *domain = domain.intersection(to).copied().collect();
    true
}
