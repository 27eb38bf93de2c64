//! Static types, as Neo4j's compile-time checker infers them: the set of types an expression
//! may have, and the argument check of built-in functions (`Type mismatch: expected Path but
//! was String`). Only what is known for certain is typed; everything else is `Any` and never
//! reported, so a check fails only where Neo4j's would.

use super::*;
use crate::syntax::{BinaryOp, DynamicLabels, ExprKind, LabelExpr, Literal, UnaryOp};

/// Neo4j's types, in the order its messages list them (each named as Neo4j names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Ty {
    Boolean,
    Float,
    Integer,
    Number,
    Map,
    Node,
    Relationship,
    Path,
    Point,
    String,
    Duration,
    Date,
    Time,
    LocalTime,
    LocalDateTime,
    DateTime,
    Vector,
}

impl Ty {
    const ALL: [Ty; 17] = [
        Ty::Boolean,
        Ty::Float,
        Ty::Integer,
        Ty::Number,
        Ty::Map,
        Ty::Node,
        Ty::Relationship,
        Ty::Path,
        Ty::Point,
        Ty::String,
        Ty::Duration,
        Ty::Date,
        Ty::Time,
        Ty::LocalTime,
        Ty::LocalDateTime,
        Ty::DateTime,
        Ty::Vector,
    ];

    fn bit(self) -> u32 {
        1 << (self as u32)
    }

    /// A type name as Neo4j's catalogue writes it (`ZONED DATETIME`, `LIST<…>` aside).
    fn from_catalogue(name: &str) -> Option<Ty> {
        Some(match name {
            "BOOLEAN" => Ty::Boolean,
            "FLOAT" => Ty::Float,
            "INTEGER" => Ty::Integer,
            "NUMBER" => Ty::Number,
            "MAP" => Ty::Map,
            "NODE" => Ty::Node,
            "RELATIONSHIP" => Ty::Relationship,
            "PATH" => Ty::Path,
            "POINT" => Ty::Point,
            "STRING" => Ty::String,
            "DURATION" => Ty::Duration,
            "DATE" => Ty::Date,
            "ZONED TIME" => Ty::Time,
            "LOCAL TIME" => Ty::LocalTime,
            "LOCAL DATETIME" => Ty::LocalDateTime,
            "ZONED DATETIME" => Ty::DateTime,
            "VECTOR" => Ty::Vector,
            _ => return None,
        })
    }
}

/// A set of types: scalars, lists of scalars, and lists of anything (`List<T>`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Types {
    scalars: u32,
    lists: u32,
    any_list: bool,
}

impl Types {
    pub(super) fn of(t: Ty) -> Types {
        Types {
            scalars: t.bit(),
            ..Types::default()
        }
    }

    pub(super) fn list_of(t: Ty) -> Types {
        Types {
            lists: t.bit(),
            ..Types::default()
        }
    }

    /// The type Neo4j gives a parameter from its value.
    pub(super) fn of_parameter(t: ParameterType) -> Types {
        match t {
            ParameterType::String => Types::of(Ty::String),
            ParameterType::Integer => Types::of(Ty::Integer),
            ParameterType::Boolean => Types::of(Ty::Boolean),
            ParameterType::ListOfString => Types::list_of(Ty::String),
            ParameterType::List => Types::any_list(),
            ParameterType::Map => Types::of(Ty::Map)
                .union(Types::of(Ty::Node))
                .union(Types::of(Ty::Relationship)),
        }
    }

    pub(super) fn any_list() -> Types {
        Types {
            any_list: true,
            ..Types::default()
        }
    }

    /// The element type of a list of one known element type (`List<String>` → `String`).
    pub(super) fn element(self) -> Option<Types> {
        (self.scalars == 0 && !self.any_list && self.lists != 0).then_some(Types {
            scalars: self.lists,
            ..Types::default()
        })
    }

    pub(super) fn union(self, o: Types) -> Types {
        Types {
            scalars: self.scalars | o.scalars,
            lists: self.lists | o.lists,
            any_list: self.any_list || o.any_list,
        }
    }

    /// Whether every type it may be is a list.
    pub(super) fn is_list(self) -> bool {
        self.scalars == 0 && (self.lists != 0 || self.any_list)
    }

    fn is_empty(self) -> bool {
        self.scalars == 0 && self.lists == 0 && !self.any_list
    }

    /// `Some(Some(t))` for exactly one scalar type, `Some(None)` for a list of any kind,
    /// `None` otherwise.
    pub(super) fn single_or_list(self) -> Option<Option<Ty>> {
        if self.is_list() {
            return Some(None);
        }
        self.single().map(Some)
    }

    /// The one scalar type of the set, if it is exactly one.
    pub(super) fn single(self) -> Option<Ty> {
        if self.lists != 0 || self.any_list || self.scalars.count_ones() != 1 {
            return None;
        }
        Ty::ALL.into_iter().find(|t| self.scalars == t.bit())
    }

    /// What may have properties read from it (`x.key`).
    pub(super) fn with_properties() -> Types {
        [
            Ty::Map,
            Ty::Node,
            Ty::Relationship,
            Ty::Point,
            Ty::Duration,
            Ty::Date,
            Ty::Time,
            Ty::LocalTime,
            Ty::LocalDateTime,
            Ty::DateTime,
        ]
        .into_iter()
        .fold(Types::default(), |t, x| t.union(Types::of(x)))
    }

    /// What a property of a node or relationship may hold: every storable type.
    fn storable(vectors: bool) -> Types {
        let scalars = [
            Ty::Boolean,
            Ty::Float,
            Ty::Integer,
            Ty::Number,
            Ty::Point,
            Ty::String,
            Ty::Duration,
            Ty::Date,
            Ty::Time,
            Ty::LocalTime,
            Ty::LocalDateTime,
            Ty::DateTime,
        ];
        let bits = scalars.iter().fold(0, |b, t| b | t.bit());
        Types {
            scalars: if vectors {
                bits | Ty::Vector.bit()
            } else {
                bits
            },
            lists: bits,
            any_list: false,
        }
    }

    /// A type as Neo4j's catalogue writes it (`INTEGER | FLOAT`, `LIST<STRING>`); `None` for
    /// `ANY` and for what this checker does not model.
    pub(super) fn from_catalogue(text: &str) -> Option<Types> {
        let mut out = Types::default();
        for alt in text.split('|').map(str::trim) {
            if let Some(inner) = alt.strip_prefix("LIST<").and_then(|r| r.strip_suffix('>')) {
                if inner.contains('<') || inner == "ANY" || inner.contains('|') {
                    // `LIST<ANY>`; a list of unions or of lists is any list too.
                    out.any_list = true;
                } else {
                    out.lists |= Ty::from_catalogue(inner)?.bit();
                }
            } else {
                out.scalars |= Ty::from_catalogue(alt)?.bit();
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// The types a procedure's argument of type `text` accepts (the TCK writes nullable types
    /// with `?`): a `MAP` argument also takes a node or a relationship, as in Neo4j.
    pub(super) fn procedure_argument(text: &str) -> Option<Types> {
        let mut t = Types::from_catalogue(text.trim().trim_end_matches('?'))?;
        if t.scalars & Ty::Map.bit() != 0 {
            t.scalars |= Ty::Node.bit() | Ty::Relationship.bit();
        }
        Some(t)
    }

    /// Whether a value of one of `self`'s types may be passed where `expected` is wanted
    /// (integers are accepted as floats; `List<T>` takes every list; a list of unknown
    /// elements is accepted by every list type).
    pub(super) fn meets(self, expected: Types) -> bool {
        // Each widening from what is expected itself: an Integer does not take a Float
        // (`left('abc', 1.5)` is a mismatch), a Float takes an Integer.
        let wanted = expected.scalars;
        let mut accepted = wanted;
        if wanted & Ty::Float.bit() != 0 {
            accepted |= Ty::Integer.bit() | Ty::Number.bit();
        }
        if wanted & Ty::Integer.bit() != 0 {
            accepted |= Ty::Number.bit();
        }
        if wanted & Ty::Number.bit() != 0 {
            accepted |= Ty::Integer.bit() | Ty::Float.bit();
        }
        let any_list_expected = expected.any_list;
        let lists_expected = expected.lists != 0 || any_list_expected;
        self.scalars & accepted != 0
            || (self.lists != 0 && (any_list_expected || self.lists & expected.lists != 0))
            || (self.any_list && lists_expected)
    }

    /// Whether every type is a list (`List<Integer>`, `List<Any>`).
    pub(super) fn lists_only(self) -> bool {
        self.scalars == 0 && (self.lists != 0 || self.any_list)
    }

    /// A value's type as Neo4j's messages name it after `but was`: a list of unknown elements
    /// is `List<Any>`.
    pub(super) fn describe_actual(self) -> String {
        if self == Types::any_list() {
            return "List<Any>".into();
        }
        self.describe()
    }

    /// `Boolean, Float or List<T>`, as Neo4j's messages list types.
    pub(super) fn describe(self) -> String {
        let names = self.names();
        match names.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// The type names in Neo4j's order.
    fn names(self) -> Vec<String> {
        let mut names: Vec<String> = Ty::ALL
            .iter()
            .filter(|t| self.scalars & t.bit() != 0)
            .map(|t| format!("{t:?}"))
            .collect();
        names.extend(
            Ty::ALL
                .iter()
                .filter(|t| self.lists & t.bit() != 0)
                .map(|t| format!("List<{t:?}>")),
        );
        if self.any_list {
            names.push("List<T>".into());
        }
        names
    }
}

/// The types Neo4j's checker accepts for argument `i` of a built-in function, where they
/// differ from the catalogue's signature (Neo4j's frontend declares these functions with
/// overloads of its own). `Some(None)`: not checked.
fn expected_override(function: &str, i: usize, version: CypherVersion) -> Option<Option<Types>> {
    let set = |ts: &[Ty]| Types {
        scalars: ts.iter().fold(0, |b, t| b | t.bit()),
        ..Types::default()
    };
    Some(match (function.to_ascii_lowercase().as_str(), i) {
        ("tostring", 0) => Some(set(&[
            Ty::Boolean,
            Ty::Float,
            Ty::Integer,
            Ty::Point,
            Ty::String,
            Ty::Duration,
            Ty::Date,
            Ty::Time,
            Ty::LocalTime,
            Ty::LocalDateTime,
            Ty::DateTime,
        ])),
        ("isempty", 0) => {
            Some(set(&[Ty::Map, Ty::Node, Ty::Relationship, Ty::String]).union(Types::any_list()))
        }
        ("round", 1) => Some(set(&[Ty::Float, Ty::Integer, Ty::Number])),
        ("vector.similarity.cosine" | "vector.similarity.euclidean", _) => Some(Types {
            lists: Ty::Float.bit() | Ty::Integer.bit() | Ty::Number.bit(),
            ..Types::default()
        }),
        // Neo4j 5 checks reverse()'s argument; Cypher 25 (2026.08) when the query runs.
        ("reverse", 0) if version == CypherVersion::Cypher5 => {
            Some(set(&[Ty::String]).union(Types::any_list()))
        }
        ("point", 0) => Some(set(&[Ty::Map, Ty::Node, Ty::Relationship])),
        // `trim([spec,] [chars,] input)`: every argument a string (the FROM form is this call).
        ("trim", _) | ("ltrim" | "rtrim", 0) => Some(set(&[Ty::String])),
        // Accepted by Neo4j's checker whatever the argument (checked when the query runs).
        ("reverse" | "tointeger" | "tofloat" | "toboolean" | "timestamp", _) => None,
        ("tointegerornull" | "tofloatornull" | "tobooleanornull", _) => None,
        _ => return None,
    })
}

/// What Neo4j's checker takes for a parameter given to a conversion function.
fn parameter_conversion(function: &str) -> Option<Types> {
    let set = |ts: &[Ty]| Types {
        scalars: ts.iter().fold(0, |b, t| b | t.bit()),
        ..Types::default()
    };
    Some(match function.to_ascii_lowercase().as_str() {
        "tointeger" => set(&[Ty::Boolean, Ty::Float, Ty::Integer, Ty::String]),
        "tofloat" => set(&[Ty::Float, Ty::Integer, Ty::String]),
        "toboolean" => set(&[Ty::Boolean, Ty::Integer, Ty::String]),
        _ => return None,
    })
}

/// The result type of a built-in function whose result depends on its arguments.
fn result_type(checker: &Checker, name: &str, args: &[Expr], scope: &Scope) -> Option<Types> {
    let arg = |i: usize| args.get(i).and_then(|a| checker.static_type(a, scope));
    match name.to_ascii_lowercase().as_str() {
        "collect" => Some(match arg(0).and_then(Types::single) {
            Some(t) => Types::list_of(t),
            None => Types::any_list(),
        }),
        "min" | "max" => arg(0),
        "head" | "last" => {
            let l = arg(0)?;
            (l.scalars == 0 && !l.any_list && l.lists.count_ones() == 1).then(|| Types {
                scalars: l.lists,
                ..Types::default()
            })
        }
        // reverse() keeps its argument's type (`toString(reverse([1, 2]))`: List<Integer>).
        "reverse" => arg(0),
        "coalesce" | "timestamp" => None,
        other => {
            // Built-in and plugin (APOC) functions alike: Neo4j types a call by its signature.
            let f = crate::catalogue::function(other)?;
            Types::from_catalogue(&f.signature()?.result)
        }
    }
}

/// Where a dynamic label or type (`$(expr)`) stands, for Neo4j's rules about it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum DynamicPlace {
    /// A `MATCH` pattern (or a pattern predicate, comprehension, subquery pattern).
    Match,
    /// A node of `CREATE` or `MERGE`.
    CreateNode,
    /// A relationship of `CREATE` or `MERGE`.
    CreateRel,
    /// `SET n:$(…)` / `REMOVE n:$(…)`.
    SetRemove,
    /// A label predicate in an expression (`n:$(x)` in `WHERE`).
    Expression,
}

impl Checker<'_, '_> {
    /// Neo4j's checks of the dynamic parts of a label or type expression: the expression is
    /// read in `scope`, must be a `STRING` or `LIST<STRING>` and not the literal null; `$any`
    /// is refused in `CREATE`/`MERGE`, a list of two types in a created relationship, and a
    /// dynamic label predicate in an expression before Cypher 25.
    pub(super) fn dynamic_labels(&mut self, l: &LabelExpr, scope: &Scope, place: DynamicPlace) {
        fn parts<'e>(l: &'e LabelExpr, out: &mut Vec<(&'e Expr, DynamicLabels, Span)>) {
            match l {
                LabelExpr::Dynamic { expr, mode, span } => out.push((expr, *mode, *span)),
                LabelExpr::Not(x, _) => parts(x, out),
                LabelExpr::And(xs, _) | LabelExpr::Or(xs, _) => {
                    xs.iter().for_each(|x| parts(x, out))
                }
                LabelExpr::Name(_) | LabelExpr::Wildcard(_) => {}
            }
        }
        let mut found = Vec::new();
        parts(l, &mut found);
        for (expr, mode, span) in found {
            self.expr(expr, scope, Ctx::default());
            if place == DynamicPlace::Expression && self.version == CypherVersion::Cypher5 {
                self.diag(
                    DiagnosticKind::CypherVersion,
                    "Dynamic Label and Types are only allowed in MATCH, CREATE, MERGE, SET and REMOVE clauses.".into(),
                    span,
                );
                continue;
            }
            if mode == DynamicLabels::Any
                && matches!(place, DynamicPlace::CreateNode | DynamicPlace::CreateRel)
            {
                let what = if place == DynamicPlace::CreateNode {
                    "labels"
                } else {
                    "types"
                };
                self.diag(
                    DiagnosticKind::InvalidDynamicLabel,
                    format!("Dynamic {what} using `$any()` are not allowed in CREATE or MERGE."),
                    span,
                );
                continue;
            }
            // Literal names Neo4j refuses as tokens: null, '' (alone or in a list literal).
            let literals: Vec<&Expr> = match &expr.kind {
                ExprKind::List(items) => items.iter().collect(),
                _ => vec![expr],
            };
            let bad = literals.iter().find_map(|x| match &x.kind {
                ExprKind::Literal(Literal::Null) => Some(("Null".to_string(), x.span)),
                ExprKind::Literal(Literal::String(s)) if s.is_empty() || s.contains('\0') => {
                    Some((format!("'{s}'"), x.span))
                }
                _ => None,
            });
            if let Some((name, at)) = bad {
                self.diag(
                    DiagnosticKind::InvalidDynamicLabel,
                    format!("{name} is not a valid token name. Token names cannot be empty or contain any null-bytes."),
                    at,
                );
                continue;
            }
            let expected = Types::of(Ty::String).union(Types::list_of(Ty::String));
            if self.expect_type(expr, scope, expected) {
                continue;
            }
            if place == DynamicPlace::CreateRel {
                if let ExprKind::List(items) = &expr.kind {
                    if items.len() != 1 {
                        self.diag(
                            DiagnosticKind::InvalidDynamicLabel,
                            "A single relationship type must be specified for CREATE".into(),
                            expr.span,
                        );
                    }
                }
            }
        }
    }

    /// The scope inside a comprehension or quantifier over `list`: `variable` bound, typed as
    /// the list's elements where Neo4j's checker knows them (`x IN ['a', 'b']`: a String).
    pub(super) fn element_scope(&self, scope: &Scope, variable: &Ident, list: &Expr) -> Scope {
        let mut inner = scope.clone();
        inner.bind(&variable.name, Kind::Unknown, None);
        if let Some(t) = self.element_types(list, scope) {
            inner.types.insert(variable.name.clone(), t);
        }
        inner
    }

    /// The type of a list's elements where Neo4j knows it: one scalar type (`[1.5]`: Float),
    /// or a list when the list is written as a list of lists (`[[1], []]`; a `null` among them
    /// leaves it unknown).
    pub(super) fn element_types(&self, list: &Expr, scope: &Scope) -> Option<Types> {
        if let ExprKind::List(items) = &list.kind {
            let types: Option<Vec<Types>> =
                items.iter().map(|x| self.static_type(x, scope)).collect();
            if let Some(types) = types.filter(|t| !t.is_empty() && t.iter().all(|t| t.is_list())) {
                // Neo4j's least upper bound of the lists' types: lists of numbers of two
                // kinds are also `List<Number>`; of anything else, or of any kind, `List<T>`.
                let t = types.into_iter().reduce(Types::union)?;
                let numbers = Ty::Integer.bit() | Ty::Float.bit() | Ty::Number.bit();
                return Some(if t.any_list {
                    Types::any_list()
                } else if t.lists.count_ones() > 1 && t.lists & !numbers == 0 {
                    Types {
                        lists: numbers,
                        ..t
                    }
                } else if t.lists.count_ones() > 1 {
                    Types::any_list()
                } else {
                    t
                });
            }
        }
        self.static_type(list, scope).and_then(Types::element)
    }

    /// Neo4j's words for a type mismatch at `e`: `Type mismatch: {what}`, or, at a parameter
    /// typed from its value, `Type mismatch for parameter 'x': {what}`.
    pub(super) fn mismatch(&self, e: &Expr, what: &str) -> String {
        match &e.kind {
            ExprKind::Parameter(p) => {
                format!("Type mismatch for parameter '{}': {what}", p.key())
            }
            _ => format!("Type mismatch: {what}"),
        }
    }

    /// Reports Neo4j's `Type mismatch: expected {expected} but was {actual}` about `e`, placed
    /// at `at`, with the facts of its GQL status.
    pub(super) fn report_mismatch(&mut self, e: &Expr, expected: &str, actual: &str, at: Span) {
        let message = self.mismatch(e, &format!("expected {expected} but was {actual}"));
        let parameter = match &e.kind {
            ExprKind::Parameter(p) => Some(p.key().to_string()),
            _ => None,
        };
        self.diag(DiagnosticKind::InvalidArgumentType, message, at);
        self.last_facts(GqlFacts::Mismatch {
            expected: expected.to_string(),
            actual: actual.to_string(),
            parameter,
        });
    }

    /// Neo4j's `Type mismatch: expected … but was …` where `e`'s static type is known and none
    /// of its types is `expected`; whether it was reported.
    pub(super) fn expect_type(&mut self, e: &Expr, scope: &Scope, expected: Types) -> bool {
        match self.static_type(e, scope) {
            Some(actual) if !actual.meets(expected) => {
                if expected == Types::of(Ty::Boolean) && actual.lists_only() {
                    return self.list_as_boolean(e);
                }
                let at = self.position(e);
                self.report_mismatch(e, &expected.describe(), &actual.describe(), at);
                // Neo4j's GQL status names a variable (`Invalid input 'Float' for `x``).
                if let (ExprKind::Variable(v), Some(d)) = (&e.kind, self.diags.last_mut()) {
                    d.subject = Some(format!("`{}`", v.name));
                }
                true
            }
            _ => false,
        }
    }

    /// A list where a boolean is wanted: Neo4j 5 converts a list parameter (deprecated) and
    /// refuses any other list: "Coercion of list to boolean is not allowed". Whether it was
    /// reported.
    pub(super) fn list_as_boolean(&mut self, e: &Expr) -> bool {
        if matches!(e.kind, ExprKind::Parameter(_)) {
            return false;
        }
        let at = self.position(e);
        self.diag(
            DiagnosticKind::InvalidArgumentType,
            "Coercion of list to boolean is not allowed. Please use `NOT isEmpty(...)` instead."
                .to_string(),
            at,
        );
        self.last_facts(GqlFacts::ListAsBoolean);
        true
    }

    /// The static type of `e` where Neo4j's checker knows it; `None` for `Any`.
    pub(super) fn static_type(&self, e: &Expr, scope: &Scope) -> Option<Types> {
        Some(match &e.kind {
            // (No key is built where no parameter is typed: this runs for every statement.)
            ExprKind::Parameter(_) if self.opts.parameter_types.is_empty() => return None,
            ExprKind::Parameter(p) => {
                Types::of_parameter(*self.opts.parameter_types.get(&p.key())?)
            }
            ExprKind::Literal(l) => match l {
                Literal::Integer(_) => Types::of(Ty::Integer),
                Literal::Float(_) => Types::of(Ty::Float),
                Literal::String(_) => Types::of(Ty::String),
                Literal::Boolean(_) => Types::of(Ty::Boolean),
                _ => return None,
            },
            ExprKind::List(items) => {
                let mut elem: Option<Ty> = None;
                for x in items {
                    match self.static_type(x, scope).and_then(Types::single) {
                        Some(t) if elem.is_none_or(|e| e == t) => elem = Some(t),
                        _ => return Some(Types::any_list()),
                    }
                }
                match elem {
                    Some(t) => Types::list_of(t),
                    None => Types::any_list(),
                }
            }
            ExprKind::Map(_) | ExprKind::MapProjection { .. } => Types::of(Ty::Map),
            // An element of a list of one known type (`[1, 2][0]`: Integer).
            ExprKind::Index { expr, index } => {
                let element = self.static_type(expr, scope)?.element()?;
                if let Some(i) = self.static_type(index, scope) {
                    if !i.meets(Types::of(Ty::Integer)) {
                        return None;
                    }
                }
                element
            }
            // A slice of a list is a list of the same type (`[1, 2, 3][1..2]`: List<Integer>).
            ExprKind::Slice { expr, .. } => {
                let t = self.static_type(expr, scope)?;
                (t.scalars == 0 && !t.is_empty()).then_some(t)?
            }
            ExprKind::ListComprehension {
                variable,
                list,
                map,
                ..
            } => {
                let inner = self.element_scope(scope, variable, list);
                let element = match map {
                    Some(m) => self.static_type(m, &inner),
                    None => self.static_type(list, scope).and_then(Types::element),
                };
                match element.and_then(Types::single) {
                    Some(t) => Types::list_of(t),
                    None => Types::any_list(),
                }
            }
            ExprKind::Variable(v) => match scope.get(&v.name)?.0 {
                Kind::Node => Types::of(Ty::Node),
                Kind::Rel => Types::of(Ty::Relationship),
                Kind::RelList => Types::list_of(Ty::Relationship),
                Kind::Path => Types::of(Ty::Path),
                // A value whose type Neo4j's checker knows: a projected literal, a list
                // element bound by a comprehension or quantifier over a typed list.
                Kind::Value | Kind::Unknown => return scope.types.get(&v.name).copied(),
            },
            ExprKind::Property { expr, .. } => match &expr.kind {
                ExprKind::Variable(v) => match scope.get(&v.name)?.0 {
                    // Vectors are property values from Cypher 25 on (Neo4j 5.26 has none).
                    Kind::Node | Kind::Rel => {
                        Types::storable(self.version != CypherVersion::Cypher5)
                    }
                    _ => return None,
                },
                _ => return None,
            },
            ExprKind::Comparison { .. }
            | ExprKind::IsNull { .. }
            | ExprKind::IsType { .. }
            | ExprKind::HasLabels { .. }
            | ExprKind::Exists(_)
            | ExprKind::Quantified { .. } => Types::of(Ty::Boolean),
            ExprKind::Unary { op, expr } => match op {
                UnaryOp::Not => Types::of(Ty::Boolean),
                _ => {
                    let t = self.static_type(expr, scope)?.single()?;
                    matches!(t, Ty::Integer | Ty::Float).then_some(Types::of(t))?
                }
            },
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::And
                | BinaryOp::Or
                | BinaryOp::Xor
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Gt
                | BinaryOp::Le
                | BinaryOp::Ge
                | BinaryOp::RegexMatch
                | BinaryOp::StartsWith
                | BinaryOp::EndsWith
                | BinaryOp::Contains
                | BinaryOp::In => Types::of(Ty::Boolean),
                // Each operand is typed once: typing it again per arm would make a chain of
                // operators cost exponential time in its length.
                _ => {
                    let a = self.static_type(lhs, scope)?;
                    let b = self.static_type(rhs, scope)?;
                    match (op, a.is_list(), b.is_list()) {
                        // Two lists join into one of both's element types (`[1, 2] + [3]`:
                        // List<Integer>).
                        (BinaryOp::Add, true, true) => {
                            let joined = a.union(b);
                            if joined.any_list || joined.lists.count_ones() > 1 {
                                Types::any_list()
                            } else {
                                joined
                            }
                        }
                        // A list and a value: the value appended or prepended (`'a' + [1]`:
                        // List<Any>, `[1] + 2`: List<Integer>).
                        (BinaryOp::Add, true, false) | (BinaryOp::Add, false, true) => {
                            let (list, value) = if a.is_list() { (a, b) } else { (b, a) };
                            match (list.element().and_then(Types::single), value.single()) {
                                (Some(x), Some(y)) if x == y => list,
                                _ => Types::any_list(),
                            }
                        }
                        _ => {
                            let joins = self.version != CypherVersion::Cypher5;
                            Types::of(arithmetic(*op, a.single()?, b.single()?, joins)?)
                        }
                    }
                }
            },
            ExprKind::CountStar | ExprKind::CountSubquery(_) => Types::of(Ty::Integer),
            // A pattern used as a value is the list of its paths (and reported by its own
            // check).
            ExprKind::Pattern(_) => Types::list_of(Ty::Path),
            ExprKind::Case { whens, else_, .. } => {
                let mut out = Types::default();
                for x in whens.iter().map(|(_, t)| t).chain(else_.as_deref()) {
                    if matches!(x.kind, ExprKind::Literal(Literal::Null)) {
                        continue;
                    }
                    out = out.union(self.static_type(x, scope)?);
                }
                (!out.is_empty()).then_some(out)?
            }
            ExprKind::FunctionCall { name, args, .. } => {
                result_type(self, &name.dotted(), args, scope)?
            }
            _ => return None,
        })
    }

    /// Neo4j's argument check of a function (built-in or APOC's, by its signature): an argument none of whose possible types
    /// is accepted is a compile-time error (`clean[i]`: argument `i` has no error of its own).
    pub(super) fn check_argument_types(
        &mut self,
        f: &crate::catalogue::Function,
        args: &[Expr],
        clean: &[bool],
        scope: &Scope,
    ) {
        let Some(sig) = f.signature() else {
            // A signature the catalogue cannot read (`trim([BOTH x FROM] s)`): the overrides.
            for (i, arg) in args.iter().enumerate() {
                if let Some(Some(expected)) = expected_override(f.name, i, self.version) {
                    if clean.get(i).copied().unwrap_or(true)
                        && self.expect_type(arg, scope, expected)
                    {
                        if let Some(d) = self.diags.last_mut() {
                            d.subject =
                                Some(format!("argument at index {i} of function {}()", f.name));
                        }
                    }
                }
            }
            return;
        };
        for (i, (arg, param)) in args.iter().zip(&sig.params).enumerate() {
            if !clean.get(i).copied().unwrap_or(true) {
                continue;
            }
            let is_parameter = matches!(arg.kind, ExprKind::Parameter(_));
            let expected = match expected_override(f.name, i, self.version) {
                // The conversions take anything written in the query, but check a
                // parameter's type (`toInteger($map)`).
                Some(None) if is_parameter => parameter_conversion(f.name),
                Some(e) => e,
                None => Types::from_catalogue(&param.ty),
            };
            let Some(expected) = expected else {
                continue;
            };
            // Neo4j 5.26 lets a list parameter through toInteger (it fails when it runs),
            // though not through toFloat or toBoolean.
            if is_parameter
                && f.name.eq_ignore_ascii_case("toInteger")
                && self.static_type(arg, scope).is_some_and(Types::lists_only)
            {
                continue;
            }
            let plain_words =
                f.name.eq_ignore_ascii_case("toString") || f.name.eq_ignore_ascii_case("toBoolean");
            if plain_words && is_parameter {
                // toString's and toBoolean's own checks word a parameter's mismatch: no
                // parameter name, its types joined by commas (`but was Map, Node,
                // Relationship`).
                if let Some(actual) = self.static_type(arg, scope).filter(|a| !a.meets(expected)) {
                    let (expected, actual) = (expected.describe(), actual.names().join(", "));
                    self.diag(
                        DiagnosticKind::InvalidArgumentType,
                        format!("Type mismatch: expected {expected} but was {actual}"),
                        arg.span,
                    );
                    self.last_facts(GqlFacts::Mismatch {
                        expected,
                        actual,
                        parameter: None,
                    });
                    if let Some(d) = self.diags.last_mut() {
                        let of = if f.name.eq_ignore_ascii_case("toString") {
                            "to"
                        } else {
                            "of"
                        };
                        d.subject = Some(format!("argument {of} function {}()", f.name));
                    }
                }
                continue;
            }
            if self.expect_type(arg, scope, expected) {
                if let Some(d) = self.diags.last_mut() {
                    d.subject = Some(if f.name.eq_ignore_ascii_case("toString") {
                        "argument to function toString()".to_string()
                    } else {
                        format!("argument at index {i} of function {}()", f.name)
                    });
                }
            }
        }
    }
}

/// The type of `a op b` for two known scalar types, where Cypher defines it.
/// `joins`: Cypher 25, where `+` joins a string to a boolean, a number, a temporal value, a
/// duration, a point or a vector.
fn arithmetic(op: BinaryOp, a: Ty, b: Ty, joins: bool) -> Option<Ty> {
    use Ty::*;
    let numeric = |t: Ty| matches!(t, Integer | Float);
    let temporal = |t: Ty| matches!(t, Date | Time | LocalTime | LocalDateTime | DateTime);
    let joinable = |t: Ty| {
        numeric(t)
            || t == String
            || joins && (temporal(t) || matches!(t, Boolean | Duration | Point | Vector))
    };
    match op {
        BinaryOp::Add if a == String || b == String => {
            (joinable(a) && joinable(b)).then_some(String)
        }
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod
            if numeric(a) && numeric(b) =>
        {
            Some(if a == Integer && b == Integer {
                Integer
            } else {
                Float
            })
        }
        BinaryOp::Pow if numeric(a) && numeric(b) => Some(Float),
        // Durations and temporal values (`date() + duration('P1D')`: Date).
        BinaryOp::Add | BinaryOp::Sub if a == Duration && b == Duration => Some(Duration),
        BinaryOp::Add | BinaryOp::Sub if temporal(a) && b == Duration => Some(a),
        BinaryOp::Add if a == Duration && temporal(b) => Some(b),
        BinaryOp::Mul if a == Duration && numeric(b) || numeric(a) && b == Duration => {
            Some(Duration)
        }
        BinaryOp::Div if a == Duration && numeric(b) => Some(Duration),
        _ => None,
    }
}
