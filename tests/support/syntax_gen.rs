//! Strategies that generate statement ASTs in the normalized form the parser produces, for
//! the round-trip property (`proptest_syntax.rs`) and the live differential run against
//! Neo4j's frontend (`neo4j_frontend.rs`).
#![allow(dead_code)]

use grape::syntax::*;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// 3. Generated ASTs
//
// Every strategy builds the normalized form the parser produces (default spans; spans never
// take part in equality), so that `parse(print(ast)) == ast` must hold exactly.

fn sp() -> Span {
    Span::default()
}

fn e(kind: ExprKind) -> Expr {
    Expr::new(kind, sp())
}

fn id(name: &str) -> Ident {
    Ident {
        name: name.to_string(),
        span: sp(),
    }
}

type Exprs = BoxedStrategy<Expr>;

// ---- names ----

#[rustfmt::skip]
const PLAIN_NAMES: &[&str] = &[
    "a", "b", "n", "m", "x", "y", "person", "_tmp", "Age", "x1", "firstName",
];

/// Names that need backticks somewhere: not plain identifiers, or keywords (which the printer
/// escapes as variables but not as labels or keys).
#[rustfmt::skip]
const ODD_NAMES: &[&str] = &[
    "my var", "ünïcødé", "日本", "back`tick", "`", "", "1st", "a-b", "match", "null", "end",
    "Return", "count", "where", "is", "not", "all", "EXISTS",
];

/// Plain function names.
const FUNCTION_NAMES: &[&str] = &[
    "f", "size", "tolower", "coalesce", "head", "my_fn", "range", "apoc", "date",
];

/// Function names that are words of special atoms (`null`, `all(x IN l)`, `count(*)`, …): the
/// printer escapes those that would read as such.
#[rustfmt::skip]
const ATOM_FUNCTION_NAMES: &[&str] = &[
    "null", "true", "FALSE", "not", "all", "any", "none", "single", "case", "shortestPath",
    "allShortestPaths", "count", "exists", "collect", "reduce", "graph",
];

fn name() -> BoxedStrategy<String> {
    prop_oneof![
        5 => prop::sample::select(PLAIN_NAMES),
        2 => prop::sample::select(ODD_NAMES),
    ]
    .prop_map(str::to_string)
    .boxed()
}

fn ident() -> BoxedStrategy<Ident> {
    name().prop_map(|n| id(&n)).boxed()
}

fn function_name() -> BoxedStrategy<QualifiedName> {
    (
        prop_oneof![
            6 => prop::sample::select(FUNCTION_NAMES),
            2 => prop::sample::select(ATOM_FUNCTION_NAMES),
            1 => prop::sample::select(&["my fn", "ünï"][..]),
        ],
        prop::option::weighted(0.3, name()),
    )
        .prop_map(|(first, second)| {
            let mut parts = vec![id(first)];
            parts.extend(second.map(|s| id(&s)));
            QualifiedName { parts, span: sp() }
        })
        .boxed()
}

// ---- literals, parameters, types ----

/// Texts that really are out of range, as the parser keeps them.
const OUT_OF_RANGE: &[(&str, bool)] = &[
    ("9223372036854775808", false),
    ("-9223372036854775809", false),
    ("123456789012345678901234567890", false),
    ("0xFFFFFFFFFFFFFFFFFF", false),
    ("1e400", true),
    ("-2.5e999", true),
];

/// Up to `max` arbitrary characters.
pub fn any_string(max: usize) -> BoxedStrategy<String> {
    prop::collection::vec(any::<char>(), 0..=max)
        .prop_map(String::from_iter)
        .boxed()
}

/// Characters that need escapes in a string literal, and some that do not.
const STRING_CHARS: &[char] = &[
    '\'', '"', '\\', '`', '\n', '\r', '\t', '\u{8}', '\u{c}', '\0', '\u{7f}', 'a', 'z', ' ', 'é',
];

fn literal() -> BoxedStrategy<Literal> {
    prop_oneof![
        1 => Just(Literal::Null),
        1 => any::<bool>().prop_map(Literal::Boolean),
        2 => any::<i64>().prop_map(Literal::Integer),
        2 => (-3i64..100).prop_map(Literal::Integer),
        2 => any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(Literal::Float),
        // Any characters, control characters included (`any::<String>()` has none, and
        // compiles its regex for every value).
        2 => any_string(10).prop_map(Literal::String),
        1 => prop::collection::vec(prop::sample::select(STRING_CHARS), 0..6)
            .prop_map(|cs| Literal::String(cs.into_iter().collect())),
        1 => prop::sample::select(OUT_OF_RANGE).prop_map(|(text, float)| Literal::OutOfRange {
            text: text.to_string(),
            float,
        }),
    ]
    .boxed()
}

fn parameter() -> BoxedStrategy<Parameter> {
    prop_oneof![
        3 => name().prop_map(Parameter::Named),
        1 => any::<u64>().prop_map(Parameter::Positional),
    ]
    .boxed()
}

const SIMPLE_TYPES: &[TypeKind] = &[
    TypeKind::Nothing,
    TypeKind::Null,
    TypeKind::Boolean,
    TypeKind::String,
    TypeKind::Integer,
    TypeKind::Float,
    TypeKind::Date,
    TypeKind::LocalTime,
    TypeKind::ZonedTime,
    TypeKind::LocalDateTime,
    TypeKind::ZonedDateTime,
    TypeKind::Duration,
    TypeKind::Point,
    TypeKind::Node,
    TypeKind::Relationship,
    TypeKind::Map,
    TypeKind::Path,
    TypeKind::PropertyValue,
    TypeKind::Any,
];

fn cypher_type() -> BoxedStrategy<CypherType> {
    let simple = (prop::sample::select(SIMPLE_TYPES), any::<bool>())
        .prop_map(|(kind, not_null)| CypherType { kind, not_null });
    simple
        .prop_recursive(2, 6, 3, |inner| {
            prop_oneof![
                3 => (inner.clone(), any::<bool>()).prop_map(|(t, not_null)| CypherType {
                    kind: TypeKind::List(Box::new(t)),
                    not_null,
                }),
                // Unions are flat: an alternative is a union only when it is NOT NULL.
                1 => (prop::collection::vec(inner, 2..4), any::<bool>()).prop_map(
                    |(alts, not_null)| {
                        let alts = alts
                            .into_iter()
                            .flat_map(|a| match a.kind {
                                TypeKind::Union(inner) if !a.not_null => inner,
                                _ => vec![a],
                            })
                            .collect();
                        CypherType {
                            kind: TypeKind::Union(alts),
                            not_null,
                        }
                    }
                ),
            ]
        })
        .boxed()
}

// ---- label expressions ----

/// What `$(…)` computes labels from: a parameter, a variable, a literal or a list of literals
/// (kept shallow: the expression strategy itself draws label expressions).
fn dynamic_operand() -> BoxedStrategy<Expr> {
    prop_oneof![
        parameter().prop_map(|p| e(ExprKind::Parameter(p))),
        ident().prop_map(|v| e(ExprKind::Variable(v))),
        literal().prop_map(|l| e(ExprKind::Literal(l))),
        prop::collection::vec(literal().prop_map(|l| e(ExprKind::Literal(l))), 0..3)
            .prop_map(|xs| e(ExprKind::List(xs))),
    ]
    .boxed()
}

/// `SET n:…` and `REMOVE n:…` take a list of names and `$(expr)` (`:A:$(x)`), as Neo4j's
/// grammar does: no label expression, no `$all(…)`/`$any(…)`.
fn set_labels() -> BoxedStrategy<LabelExpr> {
    let one = prop_oneof![
        3 => ident().prop_map(LabelExpr::Name),
        1 => dynamic_operand().prop_map(|expr| LabelExpr::Dynamic {
            expr: Box::new(expr),
            mode: DynamicLabels::Plain,
            span: sp(),
        }),
    ];
    prop::collection::vec(one, 1..4)
        .prop_map(|mut xs| {
            if xs.len() == 1 {
                xs.remove(0)
            } else {
                LabelExpr::And(xs, sp())
            }
        })
        .boxed()
}

/// `Name`, `%`, `!x`, `x&y&…`, `x|y|…`. The parser keeps a parenthesized `&` inside `&` (and `|`
/// inside `|`) as a nested node, and `!!A` as two `Not`s, so any nesting is normal.
fn label_expr() -> BoxedStrategy<LabelExpr> {
    let leaf = prop_oneof![
        6 => ident().prop_map(LabelExpr::Name),
        1 => Just(LabelExpr::Wildcard(sp())),
        1 => (dynamic_operand(), prop::sample::select(&[
            DynamicLabels::Plain,
            DynamicLabels::All,
            DynamicLabels::Any,
        ][..]))
            .prop_map(|(x, mode)| LabelExpr::Dynamic {
                expr: Box::new(x),
                mode,
                span: sp(),
            }),
    ];
    leaf.prop_recursive(3, 6, 2, |inner| {
        prop_oneof![
            inner
                .clone()
                .prop_map(|l| LabelExpr::Not(Box::new(l), sp())),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| LabelExpr::And(v, sp())),
            prop::collection::vec(inner, 2..4).prop_map(|v| LabelExpr::Or(v, sp())),
        ]
    })
    .boxed()
}

// ---- expressions ----

const UNARY_OPS: &[UnaryOp] = &[UnaryOp::Not, UnaryOp::Neg, UnaryOp::Plus];

const BINARY_OPS: &[BinaryOp] = &[
    BinaryOp::Or,
    BinaryOp::Xor,
    BinaryOp::And,
    BinaryOp::Eq,
    BinaryOp::Ne,
    BinaryOp::Lt,
    BinaryOp::Gt,
    BinaryOp::Le,
    BinaryOp::Ge,
    BinaryOp::RegexMatch,
    BinaryOp::StartsWith,
    BinaryOp::EndsWith,
    BinaryOp::Contains,
    BinaryOp::In,
    BinaryOp::Add,
    BinaryOp::Sub,
    BinaryOp::Concat,
    BinaryOp::Mul,
    BinaryOp::Div,
    BinaryOp::Mod,
    BinaryOp::Pow,
];

const COMPARISON_OPS: &[BinaryOp] = &[
    BinaryOp::Eq,
    BinaryOp::Ne,
    BinaryOp::Lt,
    BinaryOp::Gt,
    BinaryOp::Le,
    BinaryOp::Ge,
];

fn opt(inner: &Exprs) -> BoxedStrategy<Option<Box<Expr>>> {
    prop::option::of(inner.clone().prop_map(Box::new)).boxed()
}

/// Unary and binary operators, comparison chains, `IS [NOT] NULL`, type and label predicates.
fn operator_expr(inner: Exprs) -> BoxedStrategy<Expr> {
    prop_oneof![
        3 => (prop::sample::select(UNARY_OPS), inner.clone())
            .prop_map(|(op, x)| e(ExprKind::Unary { op, expr: Box::new(x) })),
        6 => (prop::sample::select(BINARY_OPS), inner.clone(), inner.clone()).prop_map(
            |(op, l, r)| e(ExprKind::Binary { op, lhs: Box::new(l), rhs: Box::new(r) })
        ),
        1 => (
            inner.clone(),
            prop::collection::vec((prop::sample::select(COMPARISON_OPS), inner.clone()), 2..4),
        )
            .prop_map(|(first, rest)| e(ExprKind::Comparison { first: Box::new(first), rest })),
        1 => (inner.clone(), any::<bool>())
            .prop_map(|(x, negated)| e(ExprKind::IsNull { expr: Box::new(x), negated })),
        1 => (
            inner.clone(),
            any::<bool>(),
            prop::option::of(prop::sample::select(
                &[NormalForm::Nfc, NormalForm::Nfd, NormalForm::Nfkc, NormalForm::Nfkd][..]
            ))
        )
            .prop_map(|(x, negated, form)| e(ExprKind::IsNormalized {
                expr: Box::new(x),
                negated,
                form
            })),
        1 => (inner.clone(), any::<bool>(), cypher_type()).prop_map(|(x, negated, ty)| {
            e(ExprKind::IsType { expr: Box::new(x), negated, ty })
        }),
        1 => (inner, label_expr(), any::<bool>())
            .prop_map(|(x, labels, labeled)| e(ExprKind::HasLabels {
                expr: Box::new(x),
                labels,
                labeled
            })),
    ]
    .boxed()
}

/// Property lookup, subscript and slice.
fn postfix_expr(inner: Exprs) -> BoxedStrategy<Expr> {
    prop_oneof![
        (inner.clone(), ident()).prop_map(|(x, key)| e(ExprKind::Property {
            expr: Box::new(x),
            key
        })),
        (inner.clone(), inner.clone()).prop_map(|(x, i)| e(ExprKind::Index {
            expr: Box::new(x),
            index: Box::new(i)
        })),
        (inner.clone(), opt(&inner), opt(&inner)).prop_map(|(x, from, to)| e(ExprKind::Slice {
            expr: Box::new(x),
            from,
            to
        })),
    ]
    .boxed()
}

fn map_entries(inner: Exprs) -> BoxedStrategy<Vec<(Ident, Expr)>> {
    prop::collection::vec((ident(), inner), 0..3).boxed()
}

/// List and map literals.
fn collection_expr(inner: Exprs) -> BoxedStrategy<Expr> {
    prop_oneof![
        prop::collection::vec(inner.clone(), 0..4).prop_map(|v| e(ExprKind::List(v))),
        map_entries(inner).prop_map(|m| e(ExprKind::Map(m))),
    ]
    .boxed()
}

/// Function calls and `CASE`.
fn call_expr(inner: Exprs) -> BoxedStrategy<Expr> {
    prop_oneof![
        (
            function_name(),
            prop::bool::weighted(0.2),
            prop::collection::vec(inner.clone(), 0..3),
        )
            .prop_map(|(name, distinct, args)| e(ExprKind::FunctionCall {
                name,
                distinct,
                args
            })),
        (
            opt(&inner),
            prop::collection::vec((inner.clone(), inner.clone()), 1..3),
            opt(&inner),
        )
            .prop_map(|(operand, whens, else_)| e(ExprKind::Case {
                operand,
                whens,
                else_
            })),
        // A simple CASE whose WHENs test the operand: `CASE x WHEN > 3 THEN …`.
        (
            inner.clone(),
            prop::collection::vec((extended_when(inner.clone()), inner.clone()), 1..3),
            opt(&inner),
        )
            .prop_map(|(operand, whens, else_)| e(ExprKind::Case {
                operand: Some(Box::new(operand)),
                whens,
                else_
            })),
    ]
    .boxed()
}

/// An extended simple-CASE `WHEN`: a comparison, string test or null test of the operand.
fn extended_when(inner: Exprs) -> BoxedStrategy<Expr> {
    let hole = || {
        Box::new(e(ExprKind::Variable(Ident {
            name: CASE_OPERAND.into(),
            span: sp(),
        })))
    };
    prop_oneof![
        (
            prop::sample::select(
                &[
                    BinaryOp::Eq,
                    BinaryOp::Ne,
                    BinaryOp::Lt,
                    BinaryOp::Gt,
                    BinaryOp::Le,
                    BinaryOp::Ge
                ][..]
            ),
            inner.clone()
        )
            .prop_map(move |(op, rhs)| e(ExprKind::Binary {
                op,
                lhs: hole(),
                rhs: Box::new(rhs)
            })),
        (
            prop::sample::select(
                &[
                    BinaryOp::StartsWith,
                    BinaryOp::EndsWith,
                    BinaryOp::RegexMatch
                ][..]
            ),
            inner
        )
            .prop_map(move |(op, rhs)| e(ExprKind::Binary {
                op,
                lhs: hole(),
                rhs: Box::new(rhs)
            })),
        any::<bool>().prop_map(move |negated| e(ExprKind::IsNull {
            expr: hole(),
            negated
        })),
    ]
    .boxed()
}

const QUANTIFIER_KINDS: &[QuantifierKind] = &[
    QuantifierKind::All,
    QuantifierKind::Any,
    QuantifierKind::None,
    QuantifierKind::Single,
];

/// List and pattern comprehensions, `all(…)` and friends, `reduce(…)`, map projections.
fn comprehension_expr(inner: Exprs) -> BoxedStrategy<Expr> {
    let projection_item = prop_oneof![
        ident().prop_map(MapProjectionItem::Property),
        Just(MapProjectionItem::AllProperties(sp())),
        (ident(), inner.clone()).prop_map(|(k, v)| MapProjectionItem::Entry(k, v)),
        ident().prop_map(MapProjectionItem::Variable),
    ];
    prop_oneof![
        (ident(), inner.clone(), opt(&inner), opt(&inner)).prop_map(
            |(variable, list, filter, map)| e(ExprKind::ListComprehension {
                variable,
                list: Box::new(list),
                filter,
                map,
            })
        ),
        (
            prop::option::of(ident()),
            path_chain(inner.clone(), 1, false).prop_map(unquantified),
            opt(&inner),
            inner.clone(),
        )
            .prop_map(|(variable, pattern, filter, map)| e(
                ExprKind::PatternComprehension {
                    variable,
                    pattern,
                    filter,
                    map: Box::new(map),
                }
            )),
        (
            prop::sample::select(QUANTIFIER_KINDS),
            ident(),
            inner.clone(),
            opt(&inner),
        )
            .prop_map(|(kind, variable, list, filter)| e(ExprKind::Quantified {
                kind,
                variable,
                list: Box::new(list),
                filter,
            })),
        (
            ident(),
            inner.clone(),
            ident(),
            inner.clone(),
            inner.clone(),
            prop::option::weighted(0.3, inner.clone()),
        )
            .prop_map(|(accumulator, init, variable, list, expr, predicate)| e(
                ExprKind::Reduce {
                    accumulator,
                    init: Box::new(init),
                    variable,
                    list: Box::new(list),
                    expr: Box::new(expr),
                    predicate: predicate.map(Box::new),
                }
            )),
        (ident(), prop::collection::vec(projection_item, 0..4))
            .prop_map(|(variable, items)| e(ExprKind::MapProjection { variable, items })),
    ]
    .boxed()
}

/// Pattern predicates (at least one relationship), `shortestPath(…)`, and `EXISTS { … }` /
/// `COUNT { … }` over a pattern.
fn pattern_expr(inner: Exprs) -> BoxedStrategy<Expr> {
    prop_oneof![
        3 => path_chain(inner.clone(), 1, false)
            .prop_map(|c| e(ExprKind::Pattern(unquantified(c)))),
        1 => (any::<bool>(), path_chain(inner.clone(), 1, false))
            .prop_map(|(all, chain)| e(ExprKind::ShortestPath { all, chain })),
        2 => (
            any::<bool>(),
            prop::collection::vec(pattern_part(inner.clone(), false), 1..3),
            prop::option::of(inner),
        )
            .prop_map(|(count, pattern, where_)| {
                let body = Box::new(SubqueryBody::Pattern { pattern, where_ });
                e(if count {
                    ExprKind::CountSubquery(body)
                } else {
                    ExprKind::Exists(body)
                })
            }),
    ]
    .boxed()
}

fn expr_strategy() -> Exprs {
    let leaf = prop_oneof![
        4 => literal().prop_map(|l| e(ExprKind::Literal(l))),
        4 => ident().prop_map(|v| e(ExprKind::Variable(v))),
        1 => parameter().prop_map(|p| e(ExprKind::Parameter(p))),
        1 => Just(e(ExprKind::CountStar)),
    ]
    .boxed();
    // What `leaf.prop_recursive(4, …)` builds, but built once: `prop_recursive` rebuilds its
    // whole strategy tree for every value it generates, which cost most of the run time here.
    // Four levels; the chance of an operator rather than a leaf falls with depth.
    let mut strategy = leaf.clone();
    for branch_percent in [1, 5, 33, 90] {
        let inner = strategy;
        let compound = prop_oneof![
            8 => operator_expr(inner.clone()),
            3 => postfix_expr(inner.clone()),
            2 => collection_expr(inner.clone()),
            2 => call_expr(inner.clone()),
            2 => comprehension_expr(inner.clone()),
            1 => pattern_expr(inner),
        ];
        strategy = prop_oneof![
            100 - branch_percent => leaf.clone(),
            branch_percent => compound,
        ]
        .boxed();
    }
    strategy
}

// ---- patterns ----

/// A map literal or a parameter, as in `(n {k: 1})` / `(n $props)`.
fn properties(inner: Exprs) -> BoxedStrategy<Expr> {
    prop_oneof![
        3 => map_entries(inner).prop_map(|m| e(ExprKind::Map(m))),
        1 => parameter().prop_map(|p| e(ExprKind::Parameter(p))),
    ]
    .boxed()
}

fn node_pattern(inner: Exprs) -> BoxedStrategy<NodePattern> {
    (
        prop::option::of(ident()),
        prop::option::of(label_expr()),
        prop::option::weighted(0.3, properties(inner.clone())),
        prop::option::weighted(0.15, inner),
    )
        .prop_map(|(variable, labels, properties, where_)| NodePattern {
            // `(WHERE …)` reads WHERE as the variable: a predicate needs something before it.
            where_: where_
                .filter(|_| variable.is_some() || labels.is_some() || properties.is_some()),
            variable,
            labels,
            properties,
            span: sp(),
        })
        .boxed()
}

fn quantifier() -> BoxedStrategy<Quantifier> {
    prop_oneof![
        Just(Quantifier::Plus),
        Just(Quantifier::Star),
        (0u64..10).prop_map(Quantifier::Exact),
        (prop::option::of(0u64..5), prop::option::of(0u64..5)).prop_map(|(a, b)| {
            // The parser rejects a lower bound above the upper one.
            let (min, max) = match (a, b) {
                (Some(a), Some(b)) => (Some(a.min(b)), Some(a.max(b))),
                other => other,
            };
            Quantifier::Range { min, max }
        }),
    ]
    .boxed()
}

fn var_length() -> BoxedStrategy<VarLength> {
    prop_oneof![
        Just(VarLength::Any),
        any::<u64>().prop_map(VarLength::Exact),
        (prop::option::of(0u64..9), prop::option::of(0u64..9))
            .prop_map(|(min, max)| VarLength::Range { min, max }),
    ]
    .boxed()
}

fn rel_pattern(inner: Exprs) -> BoxedStrategy<RelationshipPattern> {
    (
        prop::sample::select(&[Direction::Left, Direction::Right, Direction::Undirected][..]),
        prop::option::of(ident()),
        prop::option::of(label_expr()),
        // A variable length and a quantifier exclude each other.
        prop_oneof![
            3 => Just((None, None)),
            1 => var_length().prop_map(|l| (Some(l), None)),
            1 => quantifier().prop_map(|q| (None, Some(q))),
        ],
        prop::option::weighted(0.2, properties(inner.clone())),
        prop::option::weighted(0.1, inner),
    )
        .prop_map(
            |(direction, variable, types, (length, quantifier), properties, where_)| {
                // `[WHERE …]` reads WHERE as the variable: a predicate needs something before it.
                let where_ = where_.filter(|_| {
                    variable.is_some()
                        || types.is_some()
                        || length.is_some()
                        || properties.is_some()
                });
                RelationshipPattern {
                    direction,
                    variable,
                    types,
                    length,
                    properties,
                    where_,
                    quantifier,
                    span: sp(),
                }
            },
        )
        .boxed()
}

/// A chain without quantified relationships, as pattern expressions and pattern
/// comprehensions take them.
fn unquantified(mut c: PathChain) -> PathChain {
    for el in &mut c.elements {
        if let PathElement::Relationship(r) = el {
            r.quantifier = None;
        }
    }
    c
}

/// A parenthesized path `(p = (a)-->(b) WHERE …){1,3}` (one level, no nested groups).
fn group_pattern(inner: Exprs) -> BoxedStrategy<PathElement> {
    (
        prop::option::weighted(0.2, ident()),
        path_chain(inner.clone(), 1, false),
        prop::option::weighted(0.2, inner),
        prop::option::weighted(0.8, quantifier()),
    )
        .prop_map(|(variable, chain, where_, quantifier)| {
            PathElement::Group(Box::new(GroupPattern {
                variable,
                chain,
                where_,
                quantifier,
                span: sp(),
            }))
        })
        .boxed()
}

/// Node-like factors joined by relationships, with at least `min_rels` relationships;
/// `groups` allows parenthesized paths among the factors.
fn path_chain(inner: Exprs, min_rels: usize, groups: bool) -> BoxedStrategy<PathChain> {
    let factor: BoxedStrategy<PathElement> = if groups {
        prop_oneof![
            6 => node_pattern(inner.clone()).prop_map(PathElement::Node),
            1 => group_pattern(inner.clone()),
        ]
        .boxed()
    } else {
        node_pattern(inner.clone())
            .prop_map(PathElement::Node)
            .boxed()
    };
    (
        factor.clone(),
        prop::collection::vec((rel_pattern(inner), factor), min_rels..3),
    )
        .prop_map(|(first, rest)| {
            // A relationship stands between two node patterns; a parenthesized path is
            // juxtaposed with what is next to it, so `()` is put in between where needed.
            let anonymous = || {
                PathElement::Node(NodePattern {
                    variable: None,
                    labels: None,
                    properties: None,
                    where_: None,
                    span: sp(),
                })
            };
            let mut elements = vec![first];
            for (r, f) in rest {
                if matches!(elements.last(), Some(PathElement::Group(_))) {
                    elements.push(anonymous());
                }
                elements.push(PathElement::Relationship(r));
                if matches!(f, PathElement::Group(_)) {
                    elements.push(anonymous());
                }
                elements.push(f);
            }
            PathChain {
                elements,
                span: sp(),
            }
        })
        .boxed()
}

fn path_selector() -> BoxedStrategy<PathSelector> {
    let k = || prop::option::of(1u64..4);
    prop_oneof![
        Just(PathSelector::AnyShortest),
        Just(PathSelector::AllShortest),
        (1u64..4).prop_map(|k| PathSelector::Shortest(Some(k))),
        k().prop_map(PathSelector::ShortestGroups),
        k().prop_map(PathSelector::Any),
        Just(PathSelector::All),
    ]
    .boxed()
}

/// `[p =] [selector] path`; `full` allows selectors, `shortestPath(…)` and quantified groups.
fn pattern_part(inner: Exprs, full: bool) -> BoxedStrategy<PatternPart> {
    let path = if full {
        prop_oneof![
            6 => path_chain(inner.clone(), 0, true).prop_map(PathExpr::Chain),
            1 => (any::<bool>(), path_chain(inner, 1, false)).prop_map(|(all, chain)| {
                PathExpr::ShortestFunction {
                    all,
                    chain,
                    span: sp(),
                }
            }),
        ]
        .boxed()
    } else {
        path_chain(inner, 0, false)
            .prop_map(PathExpr::Chain)
            .boxed()
    };
    let selector = if full {
        prop::option::weighted(0.15, path_selector()).boxed()
    } else {
        Just(None).boxed()
    };
    (prop::option::weighted(0.3, ident()), selector, path)
        .prop_map(|(variable, selector, path)| PatternPart {
            variable,
            selector,
            path,
            span: sp(),
        })
        .boxed()
}

// ---- clauses ----

fn projection(inner: Exprs) -> BoxedStrategy<Projection> {
    let item =
        (inner.clone(), prop::option::of(ident())).prop_map(|(expr, alias)| ProjectionItem {
            expr,
            alias,
            span: sp(),
        });
    // `DESC` is always explicit; `ASC` may be written or not.
    let sort_item = (inner.clone(), 0..3u8).prop_map(|(expr, dir)| SortItem {
        expr,
        descending: dir == 2,
        explicit: dir > 0,
        span: sp(),
    });
    // Cypher 25's GROUP BY one time in five: ALL, (), or keys.
    let group_by = prop::option::weighted(
        0.2,
        prop_oneof![
            1 => Just(GroupKeys::All),
            1 => Just(GroupKeys::Empty),
            3 => prop::collection::vec(inner.clone(), 1..3).prop_map(GroupKeys::Exprs),
        ]
        .prop_map(|keys| GroupBy { keys, span: sp() }),
    );
    (
        0..10u8,
        prop::bool::weighted(0.2),
        prop::collection::vec(item, 0..3),
        group_by,
        prop::collection::vec(sort_item, 0..3),
        prop::option::weighted(0.2, inner.clone()),
        prop::option::weighted(0.2, inner),
    )
        .prop_map(
            |(quantifier, star, mut items, group_by, order_by, skip, limit)| {
                // `DISTINCT` one time in five, Cypher 25's `ALL` one in ten.
                let (distinct, all) = (quantifier < 2, quantifier == 2);
                if items.is_empty() && !star {
                    items.push(ProjectionItem {
                        expr: e(ExprKind::Variable(id("x"))),
                        alias: None,
                        span: sp(),
                    });
                }
                Projection {
                    distinct,
                    all,
                    star,
                    items,
                    group_by,
                    order_by,
                    skip,
                    limit,
                    span: sp(),
                }
            },
        )
        .boxed()
}

fn set_item(inner: Exprs) -> BoxedStrategy<SetItem> {
    // The target of `SET target = value` is a property lookup or a subscript.
    let target = prop_oneof![
        (inner.clone(), ident()).prop_map(|(x, key)| e(ExprKind::Property {
            expr: Box::new(x),
            key
        })),
        (inner.clone(), inner.clone()).prop_map(|(x, i)| e(ExprKind::Index {
            expr: Box::new(x),
            index: Box::new(i)
        })),
    ];
    prop_oneof![
        (target, inner.clone()).prop_map(|(target, value)| SetItem::Property {
            target,
            value,
            span: sp()
        }),
        (ident(), inner, any::<bool>()).prop_map(|(variable, value, merge)| {
            SetItem::Variable {
                variable,
                value,
                merge,
                span: sp(),
            }
        }),
        (ident(), set_labels()).prop_map(|(variable, labels)| SetItem::Labels {
            variable,
            labels,
            span: sp()
        }),
    ]
    .boxed()
}

fn remove_item(inner: Exprs) -> BoxedStrategy<RemoveItem> {
    prop_oneof![
        (inner.clone(), ident()).prop_map(|(x, key)| RemoveItem::Property {
            target: e(ExprKind::Property {
                expr: Box::new(x),
                key
            }),
            span: sp(),
        }),
        (inner.clone(), inner).prop_map(|(x, i)| RemoveItem::Property {
            target: e(ExprKind::Index {
                expr: Box::new(x),
                index: Box::new(i)
            }),
            span: sp(),
        }),
        (ident(), set_labels()).prop_map(|(variable, labels)| RemoveItem::Labels {
            variable,
            labels,
            span: sp()
        }),
    ]
    .boxed()
}

fn hint() -> BoxedStrategy<Hint> {
    prop_oneof![
        (
            prop::option::of(prop::sample::select(&["TEXT", "RANGE", "POINT"][..])),
            any::<bool>(),
            ident(),
            ident(),
            prop::collection::vec(ident(), 1..3),
        )
            .prop_map(|(kind, seek, variable, label, properties)| Hint::Index {
                kind: kind.map(str::to_string),
                seek,
                variable,
                label,
                properties,
                span: sp(),
            }),
        (ident(), ident()).prop_map(|(variable, label)| Hint::Scan {
            variable,
            label,
            span: sp()
        }),
        prop::collection::vec(ident(), 1..3).prop_map(|variables| Hint::Join {
            variables,
            span: sp()
        }),
    ]
    .boxed()
}

/// `MATCH`, `WITH`, `RETURN`, `UNWIND`, `CALL proc(…)`, `LOAD CSV`, `USE`, `FINISH`.
fn reading_clause(inner: Exprs) -> BoxedStrategy<Clause> {
    let yield_item = (ident(), prop::option::of(ident())).prop_map(|(field, alias)| YieldItem {
        field,
        alias,
        span: sp(),
    });
    let graph = prop_oneof![
        prop::collection::vec(prop_oneof![4 => ident(), 1 => Just(id("graph"))], 1..3).prop_map(
            |names| {
                let mut it = names.into_iter();
                let first = it.next().unwrap_or_else(|| id("g"));
                it.fold(e(ExprKind::Variable(first)), |x, key| {
                    e(ExprKind::Property {
                        expr: Box::new(x),
                        key,
                    })
                })
            }
        ),
        (function_name(), prop::collection::vec(inner.clone(), 0..2)).prop_map(|(name, args)| e(
            ExprKind::FunctionCall {
                name,
                distinct: false,
                args
            }
        )),
    ];
    prop_oneof![
        6 => (
            any::<bool>(),
            prop::option::weighted(
                0.1,
                prop::sample::select(
                    &[MatchMode::RepeatableElements, MatchMode::DifferentRelationships][..]
                )
            ),
            prop::collection::vec(pattern_part(inner.clone(), true), 1..3),
            prop::collection::vec(hint(), 0..2),
            prop::option::of(inner.clone()),
        )
            .prop_map(|(optional, mode, pattern, hints, where_)| Clause::Match(Match {
                optional,
                mode,
                pattern,
                hints,
                where_,
                search: None,
                where_after_search: false,
                span: sp(),
            })),
        3 => (projection(inner.clone()), prop::option::weighted(0.3, inner.clone())).prop_map(
            |(projection, where_)| Clause::With(With {
                projection,
                where_,
                span: sp()
            })
        ),
        4 => projection(inner.clone()).prop_map(|projection| Clause::Return(Return {
            projection,
            span: sp()
        })),
        2 => (inner.clone(), ident(), prop::bool::weighted(0.2)).prop_map(|(expr, variable, for_in)| Clause::Unwind(Unwind {
            expr,
            variable,
            for_in,
            span: sp()
        })),
        1 => (
            any::<bool>(),
            function_name(),
            prop::collection::vec(inner.clone(), 0..3),
            prop::option::of((
                prop::collection::vec(yield_item, 1..3),
                prop::option::weighted(0.3, inner.clone()),
            )),
        )
            .prop_map(|(optional, name, args, yield_)| {
                Clause::CallProcedure(CallProcedure {
                    optional,
                    name,
                    args: Some(args),
                    yield_: yield_.map(|(items, where_)| YieldSpec {
                        star: false,
                        items,
                        where_,
                        span: sp(),
                    }),
                    span: sp(),
                })
            }),
        1 => (
            any::<bool>(),
            inner.clone(),
            ident(),
            prop::option::weighted(0.3, any_string(4)),
        )
            .prop_map(|(with_headers, source, variable, field_terminator)| {
                Clause::LoadCsv(LoadCsv {
                    with_headers,
                    source,
                    variable,
                    field_terminator,
                    span: sp(),
                })
            }),
        1 => graph.prop_map(|graph| Clause::Use(Use { graph, span: sp() })),
        1 => Just(Clause::Finish(sp())),
        1 => prop::collection::vec((ident(), inner.clone()), 1..3)
            .prop_map(|items| Clause::Let(Let { items, span: sp() })),
        1 => inner.prop_map(|predicate| Clause::Filter(Filter {
            predicate,
            span: sp()
        })),
    ]
    .boxed()
}

/// `CREATE`, `MERGE`, `SET`, `REMOVE`, `DELETE`; with `FOREACH` when `foreach` is set.
fn updating_clause(inner: Exprs, foreach: bool) -> BoxedStrategy<Clause> {
    let merge_action = (
        any::<bool>(),
        prop::collection::vec(set_item(inner.clone()), 1..3),
    )
        .prop_map(|(on_create, items)| MergeAction {
            on_create,
            items,
            span: sp(),
        });
    let simple = prop_oneof![
        prop::collection::vec(pattern_part(inner.clone(), false), 1..3).prop_map(|pattern| {
            Clause::Create(Create {
                pattern,
                insert: false,
                span: sp(),
            })
        }),
        prop::collection::vec(insert_part(inner.clone()), 1..3).prop_map(|pattern| {
            Clause::Create(Create {
                pattern,
                insert: true,
                span: sp(),
            })
        }),
        (
            pattern_part(inner.clone(), false),
            prop::collection::vec(merge_action, 0..3),
        )
            .prop_map(|(pattern, actions)| Clause::Merge(Merge {
                pattern,
                actions,
                span: sp()
            })),
        prop::collection::vec(set_item(inner.clone()), 1..3)
            .prop_map(|items| Clause::Set(SetClause { items, span: sp() })),
        prop::collection::vec(remove_item(inner.clone()), 1..3)
            .prop_map(|items| Clause::Remove(Remove { items, span: sp() })),
        (any::<bool>(), prop::collection::vec(inner.clone(), 1..3)).prop_map(|(detach, exprs)| {
            Clause::Delete(Delete {
                detach,
                exprs,
                span: sp(),
            })
        }),
    ]
    .boxed();
    if !foreach {
        return simple;
    }
    prop_oneof![
        5 => simple,
        1 => (
            ident(),
            inner.clone(),
            prop::collection::vec(updating_clause(inner, false), 1..3),
        )
            .prop_map(|(variable, list, clauses)| Clause::Foreach(Foreach {
                variable,
                list,
                clauses,
                span: sp(),
            })),
    ]
    .boxed()
}

/// A path of `INSERT`: nodes with `&`-joined labels and map literals, directed relationships
/// with one type.
fn insert_part(inner: Exprs) -> BoxedStrategy<PatternPart> {
    let props = prop::option::weighted(0.3, map_entries(inner).prop_map(|m| e(ExprKind::Map(m))));
    let node = (
        prop::option::of(ident()),
        prop::collection::vec(ident(), 0..3),
        props.clone(),
    )
        .prop_map(|(variable, mut labels, properties)| NodePattern {
            variable,
            labels: match labels.len() {
                0 => None,
                1 => labels.pop().map(LabelExpr::Name),
                _ => Some(LabelExpr::And(
                    labels.into_iter().map(LabelExpr::Name).collect(),
                    sp(),
                )),
            },
            properties,
            where_: None,
            span: sp(),
        });
    let rel = (prop::option::of(ident()), ident(), any::<bool>(), props).prop_map(
        |(variable, ty, right, properties)| RelationshipPattern {
            direction: if right {
                Direction::Right
            } else {
                Direction::Left
            },
            variable,
            types: Some(LabelExpr::Name(ty)),
            length: None,
            properties,
            where_: None,
            quantifier: None,
            span: sp(),
        },
    );
    (node.clone(), prop::collection::vec((rel, node), 0..3))
        .prop_map(|(first, rest)| {
            let mut elements = vec![PathElement::Node(first)];
            for (r, n) in rest {
                elements.push(PathElement::Relationship(r));
                elements.push(PathElement::Node(n));
            }
            PatternPart {
                variable: None,
                selector: None,
                path: PathExpr::Chain(PathChain {
                    elements,
                    span: sp(),
                }),
                span: sp(),
            }
        })
        .boxed()
}

fn single_query(clause: BoxedStrategy<Clause>) -> BoxedStrategy<SingleQuery> {
    prop::collection::vec(clause, 1..5)
        .prop_map(|clauses| SingleQuery {
            clauses,
            span: sp(),
        })
        .boxed()
}

/// `CALL [(scope)] { query } [IN … TRANSACTIONS …]` around a query of simple clauses.
fn call_subquery(inner: Exprs, simple: BoxedStrategy<Clause>) -> BoxedStrategy<Clause> {
    let scope = prop_oneof![
        Just(None),
        Just(Some(SubqueryScope::All)),
        prop::collection::vec(ident(), 0..3).prop_map(|v| Some(SubqueryScope::Variables(v))),
    ];
    let inner_retry = inner.clone();
    let in_transactions = (
        prop::option::of(prop::option::of(inner.clone())),
        prop::option::of(inner),
        prop::option::of(prop::sample::select(
            &[
                OnError::Continue,
                OnError::Break,
                OnError::Fail,
                OnError::Retry,
            ][..],
        )),
        prop::option::of(ident()),
        prop::option::weighted(0.3, inner_retry.clone()),
        prop::option::of(prop::sample::select(
            &[OnError::Continue, OnError::Break, OnError::Fail][..],
        )),
    )
        .prop_map(
            |(concurrency, batch_size, on_error, report_status, retry_for, retry_then)| {
                // `FOR n SECONDS` and `THEN …` belong to RETRY.
                let retry = on_error == Some(OnError::Retry);
                InTransactions {
                    concurrency,
                    batch_size,
                    on_error,
                    retry_for: retry_for.filter(|_| retry),
                    retry_then: retry_then.filter(|_| retry),
                    report_status,
                    span: sp(),
                }
            },
        );
    (
        any::<bool>(),
        scope,
        query(simple),
        prop::option::weighted(0.3, in_transactions),
    )
        .prop_map(|(optional, scope, query, in_transactions)| {
            Clause::CallSubquery(CallSubquery {
                optional,
                scope,
                query: Box::new(query),
                in_transactions,
                span: sp(),
            })
        })
        .boxed()
}

/// A query of `clause`s, or (one time in six) a Cypher 25 composition of such queries:
/// `{ q }` operands of UNION, `q NEXT q …`, `WHEN c THEN q … [ELSE q]`.
fn query(clause: BoxedStrategy<Clause>) -> BoxedStrategy<Query> {
    let plain = plain_query(clause.clone());
    let one = |c: Clause| SingleQuery {
        clauses: vec![c],
        span: sp(),
    };
    let alone = move |c: Clause| Query {
        first: one(c),
        unions: vec![],
        span: sp(),
    };
    let braced = plain.clone().prop_map(|q| {
        Clause::Braced(Braced {
            query: Box::new(q),
            span: sp(),
        })
    });
    let braced_union = (braced.clone(), any::<bool>(), braced).prop_map(move |(a, all, b)| Query {
        first: one(a),
        unions: vec![UnionPart {
            all,
            query: one(b),
            span: sp(),
        }],
        span: sp(),
    });
    // A WHEN branch is a single query (clauses, or a query in braces).
    let branch_body = prop_oneof![
        3 => single_query(clause.clone()),
        1 => plain.clone().prop_map(move |q| one(Clause::Braced(Braced {
            query: Box::new(q),
            span: sp(),
        }))),
    ]
    .prop_map(|first| Query {
        first,
        unions: vec![],
        span: sp(),
    });
    let when = (
        prop::collection::vec((expr_leaf(), branch_body.clone()), 1..3),
        prop::option::of(branch_body),
    )
        .prop_map(move |(branches, else_)| {
            alone(Clause::When(Conditional {
                branches: branches
                    .into_iter()
                    .map(|(condition, query)| WhenBranch {
                        condition,
                        query,
                        span: sp(),
                    })
                    .collect(),
                else_: else_.map(Box::new),
                span: sp(),
            }))
        });
    let segment = prop_oneof![3 => plain.clone(), 1 => when.clone(), 1 => braced_union.clone()];
    let next = prop::collection::vec(segment, 2..4).prop_map(move |queries| {
        alone(Clause::Next(NextChain {
            queries,
            span: sp(),
        }))
    });
    prop_oneof![
        18 => plain,
        1 => braced_union,
        1 => when,
        1 => next,
    ]
    .boxed()
}

/// Simple conditions for WHEN: literals, variables, parameters.
fn expr_leaf() -> BoxedStrategy<Expr> {
    prop_oneof![
        literal().prop_map(|l| e(ExprKind::Literal(l))),
        ident().prop_map(|v| e(ExprKind::Variable(v))),
        parameter().prop_map(|p| e(ExprKind::Parameter(p))),
    ]
    .boxed()
}

fn plain_query(clause: BoxedStrategy<Clause>) -> BoxedStrategy<Query> {
    (
        single_query(clause.clone()),
        prop::option::weighted(0.2, (any::<bool>(), single_query(clause))),
    )
        .prop_map(|(first, union)| Query {
            first,
            unions: union
                .into_iter()
                .map(|(all, query)| UnionPart {
                    all,
                    query,
                    span: sp(),
                })
                .collect(),
            span: sp(),
        })
        .boxed()
}

/// The first clause that differs between two statements, printed and in full: a failure message
/// much shorter than the whole AST.
pub fn first_difference(expected: &Statement, got: &Statement) -> String {
    let parts = |s: &Statement| -> Vec<SingleQuery> {
        let unions = s.query.unions.iter().map(|u| u.query.clone());
        std::iter::once(s.query.first.clone())
            .chain(unions)
            .collect()
    };
    let alone = |c: &Clause| {
        let query = SingleQuery {
            clauses: vec![c.clone()],
            span: sp(),
        };
        let stmt = Statement {
            cypher: None,
            prefix: None,
            query: Query {
                first: query,
                unions: vec![],
                span: sp(),
            },
            span: sp(),
        };
        print(&stmt, &PrintOptions::default())
    };
    for (a, b) in parts(expected).iter().zip(&parts(got)) {
        for (x, y) in a.clauses.iter().zip(&b.clauses) {
            if x != y {
                return format!(
                    "first differing clause\nexpected: {}\nreparsed: {}\nexpected: {x:?}\nreparsed: {y:?}",
                    alone(x),
                    alone(y)
                );
            }
        }
    }
    format!("expected: {expected:?}\nreparsed: {got:?}")
}

/// `SHOW INDEXES` / `SHOW CONSTRAINTS` with their filters and an optional `WHERE`.
fn show_schema(inner: Exprs) -> BoxedStrategy<Clause> {
    let entity = prop::option::of(prop::sample::select(
        &[EntityWord::Node, EntityWord::Relationship][..],
    ));
    let kind = prop_oneof![
        prop::option::of(prop::sample::select(
            &[
                IndexKind::Range,
                IndexKind::Text,
                IndexKind::Point,
                IndexKind::Lookup,
                IndexKind::Fulltext,
                IndexKind::Vector
            ][..]
        ))
        .prop_map(ShowKind::Indexes),
        Just(ShowKind::Constraints(ShowConstraints::All)),
        (entity, 0..4usize).prop_map(|(e, k)| ShowKind::Constraints(match k {
            0 => ShowConstraints::Unique(e),
            1 => ShowConstraints::Key(e),
            2 => ShowConstraints::Existence(e),
            _ => ShowConstraints::PropertyType(e),
        })),
    ];
    let names = prop_oneof![
        Just(Vec::new()),
        prop::collection::vec(
            any_string(8).prop_map(|s| e(ExprKind::Literal(Literal::String(s)))),
            1..3
        ),
        parameter().prop_map(|p| vec![e(ExprKind::Parameter(p))]),
    ];
    let database = prop::option::of(prop_oneof![
        (ident(), prop::option::of(ident())).prop_map(|(a, b)| SchemaName::Name(id(&match b {
            Some(b) => format!("{}.{}", a.name, b.name),
            None => a.name,
        }))),
        parameter().prop_map(|p| SchemaName::Parameter(p, sp())),
    ]);
    let admin = prop_oneof![
        database.prop_map(|d| (ShowKind::Databases(ShowDatabases::All), d, Vec::new())),
        Just((
            ShowKind::Databases(ShowDatabases::Default),
            None,
            Vec::new()
        )),
        Just((ShowKind::Databases(ShowDatabases::Home), None, Vec::new())),
        names.clone().prop_map(|n| (ShowKind::Settings, None, n)),
        names.prop_map(|n| (ShowKind::Transactions, None, n)),
        Just((ShowKind::CurrentUser, None, Vec::new())),
    ];
    let kind = prop_oneof![
        3 => kind.prop_map(|k| (k, None, Vec::new())),
        2 => admin,
    ];
    (kind, prop::option::weighted(0.3, inner))
        .prop_map(|((kind, database, names), where_)| {
            Clause::Show(Box::new(Show {
                kind,
                scope: ShowScope::All,
                executable: None,
                yield_: None,
                order_by: Vec::new(),
                skip: None,
                limit: None,
                where_,
                database,
                names,
                span: sp(),
            }))
        })
        .boxed()
}

/// Every schema command: indexes of each kind, constraints of each kind, drops.
fn schema_command(inner: Exprs) -> BoxedStrategy<Clause> {
    let schema_name = prop_oneof![
        3 => ident().prop_map(SchemaName::Name),
        1 => parameter().prop_map(|p| SchemaName::Parameter(p, sp())),
    ];
    let options = prop::option::weighted(
        0.3,
        prop_oneof![
            map_entries(inner).prop_map(|es| e(ExprKind::Map(es))),
            parameter().prop_map(|p| e(ExprKind::Parameter(p))),
        ],
    );
    // (variable, relationship?, labels, left arrow, right arrow)
    let entity = |labels: std::ops::Range<usize>| {
        (
            ident(),
            any::<bool>(),
            prop::collection::vec(ident(), labels),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(variable, relationship, labels, l, r)| SchemaEntity {
                variable,
                relationship,
                labels,
                left_arrow: relationship && l,
                right_arrow: relationship && r,
                span: sp(),
            })
    };
    let props = |n: std::ops::Range<usize>| {
        prop::collection::vec((ident(), ident()), n).prop_map(|ps| {
            ps.into_iter()
                .map(|(variable, key)| SchemaProperty {
                    variable,
                    key,
                    span: sp(),
                })
                .collect::<Vec<_>>()
        })
    };
    let head = (
        any::<bool>(),
        prop::option::of(schema_name.clone()),
        any::<bool>(),
    );
    let property_index = (
        head.clone(),
        prop::sample::select(
            &[
                (IndexKind::Range, false),
                (IndexKind::Range, true),
                (IndexKind::Text, true),
                (IndexKind::Point, true),
                (IndexKind::Vector, true),
            ][..],
        ),
        entity(1..2),
        props(1..4),
        options.clone(),
    )
        .prop_map(
            |(
                (or_replace, name, if_not_exists),
                (kind, kind_written),
                entity,
                properties,
                options,
            )| {
                CreateIndex {
                    or_replace,
                    kind,
                    kind_written,
                    name,
                    if_not_exists,
                    entity,
                    properties,
                    with_properties: Vec::new(),
                    lookup: None,
                    options,
                    span: sp(),
                }
            },
        );
    let fulltext = (head.clone(), entity(1..4), props(1..4), options.clone()).prop_map(
        |((or_replace, name, if_not_exists), entity, properties, options)| CreateIndex {
            or_replace,
            kind: IndexKind::Fulltext,
            kind_written: true,
            name,
            if_not_exists,
            entity,
            properties,
            with_properties: Vec::new(),
            lookup: None,
            options,
            span: sp(),
        },
    );
    let lookup = (
        head.clone(),
        entity(0..1),
        ident(),
        ident(),
        options.clone(),
    )
        .prop_map(
            |((or_replace, name, if_not_exists), entity, f, v, options)| CreateIndex {
                or_replace,
                kind: IndexKind::Lookup,
                kind_written: true,
                name,
                if_not_exists,
                entity,
                properties: Vec::new(),
                with_properties: Vec::new(),
                lookup: Some((f, v)),
                options,
                span: sp(),
            },
        );
    let word = prop::option::of(prop::sample::select(
        &[EntityWord::Node, EntityWord::Relationship][..],
    ));
    let kind = prop_oneof![
        word.clone().prop_map(ConstraintKind::Unique),
        word.prop_map(ConstraintKind::Key),
        Just(ConstraintKind::NotNull),
        cypher_type().prop_map(ConstraintKind::Typed),
    ];
    let constraint = (head, entity(1..2), props(1..4), kind, options).prop_map(
        |((or_replace, name, if_not_exists), entity, properties, kind, options)| CreateConstraint {
            or_replace,
            name,
            if_not_exists,
            entity,
            properties,
            kind,
            options,
            span: sp(),
        },
    );
    let drop = (schema_name, any::<bool>()).prop_map(|(name, if_exists)| DropSchema {
        name,
        if_exists,
        span: sp(),
    });
    prop_oneof![
        property_index.prop_map(SchemaCommand::CreateIndex),
        fulltext.prop_map(SchemaCommand::CreateIndex),
        lookup.prop_map(SchemaCommand::CreateIndex),
        constraint.prop_map(SchemaCommand::CreateConstraint),
        drop.clone().prop_map(SchemaCommand::DropIndex),
        drop.prop_map(SchemaCommand::DropConstraint),
    ]
    .prop_map(Clause::Schema)
    .boxed()
}

pub fn statement() -> BoxedStrategy<Statement> {
    let inner = expr_strategy();
    let simple = prop_oneof![
        3 => reading_clause(inner.clone()),
        2 => updating_clause(inner.clone(), true),
    ]
    .boxed();
    let clause = prop_oneof![
        10 => simple.clone(),
        1 => call_subquery(inner.clone(), simple),
    ]
    .boxed();
    let cypher = prop::option::weighted(
        0.1,
        (
            prop::option::of(prop::sample::select(&["5", "25"][..])),
            prop::collection::vec(
                prop::sample::select(&[("runtime", "slotted"), ("planner", "cost")][..]),
                0..2,
            ),
        )
            .prop_map(|(version, options)| CypherPrefix {
                version: version.map(String::from),
                options: options.into_iter().map(|(k, v)| (id(k), id(v))).collect(),
                span: sp(),
            }),
    );
    let alone = |c: Clause| Query {
        first: SingleQuery {
            clauses: vec![c],
            span: sp(),
        },
        unions: Vec::new(),
        span: sp(),
    };
    let body = prop_oneof![
        20 => query(clause),
        2 => schema_command(inner.clone()).prop_map(alone),
        1 => show_schema(inner.clone()).prop_map(alone),
    ];
    (
        cypher,
        prop::option::weighted(
            0.1,
            prop::sample::select(&[QueryPrefix::Explain, QueryPrefix::Profile][..]),
        ),
        body,
    )
        .prop_map(|(cypher, prefix, query)| Statement {
            cypher,
            prefix,
            query,
            span: sp(),
        })
        .boxed()
}
