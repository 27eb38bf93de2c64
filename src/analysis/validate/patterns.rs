//! The checker over patterns: node and relationship bindings against the schema's labels,
//! types and property keys.

use super::*;

impl<'a, 's> Checker<'a, 's> {
    pub(super) fn pattern(&mut self, parts: &[PatternPart], scope: &mut Scope, mode: Mode) {
        let mut rel_vars = BTreeSet::new();
        let mut ids = Vec::new();
        for part in parts {
            if let Some(v) = &part.variable {
                // `p = (p)-->()`: the path's own pattern names a node or relationship `p`.
                let inside = part.path.chain().elements.iter().any(|el| {
                    let var = match el {
                        PathElement::Node(n) => n.variable.as_ref(),
                        PathElement::Relationship(r) => r.variable.as_ref(),
                        PathElement::Group(_) => None,
                    };
                    var.is_some_and(|x| x.name == v.name)
                });
                if inside && scope.get(&v.name).is_none() {
                    self.diag(
                        DiagnosticKind::VariableAlreadyBound,
                        format!("Variable `{}` already declared", v.name),
                        v.span,
                    );
                } else {
                    self.bind_other(v, scope, Kind::Path);
                }
            }
            let single_node = part.path.chain().elements.len() == 1;
            ids.push(self.chain(part.path.chain(), scope, mode, &mut rel_vars, single_node));
        }
        for (part, ids) in parts.iter().zip(&ids) {
            self.chain_exprs(part.path.chain(), ids, scope, mode);
        }
    }

    /// Binds a path variable (or other non-node, non-relationship pattern variable).
    pub(super) fn bind_other(&mut self, v: &Ident, scope: &mut Scope, kind: Kind) {
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
                self.kind_conflict(v, scope, k, kind);
                return;
            }
        }
        scope.bind(&v.name, kind, None);
    }

    pub(super) fn chain(
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

    pub(super) fn chain_exprs(
        &mut self,
        chain: &PathChain,
        ids: &[Option<usize>],
        scope: &Scope,
        mode: Mode,
    ) {
        // Neo4j lists a chain's deprecations from its last relationship back.
        let mut deprecated = Vec::new();
        for (el, id) in chain.elements.iter().zip(ids) {
            let (var, labels, props, where_) = match el {
                PathElement::Node(n) => (&n.variable, &n.labels, &n.properties, &n.where_),
                PathElement::Relationship(r) => (&r.variable, &r.types, &r.properties, &r.where_),
                PathElement::Group(_) => continue,
            };
            if let PathElement::Relationship(r) = el {
                if let (Some(t), CypherVersion::Cypher5) = (&r.types, self.version) {
                    if let Some((at, old, new)) = colon_disjunction(self.src, t.span()) {
                        // With a variable, inline properties or a predicate, or a legacy
                        // variable length, Neo4j 5 refuses it.
                        if r.variable.is_some()
                            || r.properties.is_some()
                            || r.where_.is_some()
                            || r.length.is_some()
                        {
                            self.diag(
                                DiagnosticKind::ColonDisjunction,
                                format!("The semantics of using colon in the separation of alternative relationship types in conjunction with\nthe use of variable binding, inlined property predicates, or variable length is no longer supported.\nPlease separate the relationships types using `{new}` instead."),
                                at,
                            );
                        } else {
                            deprecated.push(super::Deprecated::ColonDisjunction { at, old, new });
                        }
                    }
                }
            }
            let clause = match mode {
                Mode::Read => "MATCH",
                Mode::Create => "CREATE",
                Mode::Merge => "MERGE",
            };
            if let (Some(p), true) = (props, mode != Mode::Create) {
                if let ExprKind::Parameter(param) = &p.kind {
                    let name = param.key();
                    self.diag(
                        DiagnosticKind::ParameterMapInPattern,
                        format!("Parameter maps cannot be used in `{clause}` patterns (use a literal map instead, e.g. `{{id: ${name}.id}}`)"),
                        p.span,
                    );
                }
            }
            if let (PathElement::Relationship(r), Mode::Create | Mode::Merge) = (el, mode) {
                // (After the variable: a variable declared again is the first error to tell.)
                let after_variable = r
                    .variable
                    .as_ref()
                    .map_or(r.span, |v| Span::new(v.span.end, r.span.end));
                match &r.types {
                    None => self.diag(
                        DiagnosticKind::RelationshipTypeCount,
                        format!("Exactly one relationship type must be specified for {clause}. Did you forget to prefix your relationship type with a ':'?"),
                        after_variable,
                    ),
                    Some(LabelExpr::Name(_) | LabelExpr::Dynamic { .. }) => {}
                    Some(t) => self.diag(
                        DiagnosticKind::RelationshipTypeCount,
                        format!("A single relationship type must be specified for {clause}"),
                        t.span(),
                    ),
                }
                if r.length.is_some() {
                    self.diag(
                        DiagnosticKind::CreatingVarLength,
                        format!("Variable length relationships cannot be used in {clause}"),
                        r.span,
                    );
                }
            }
            if let Some(l) = labels {
                let place = match (mode, el) {
                    (Mode::Read, _) => DynamicPlace::Match,
                    (_, PathElement::Node(_)) => DynamicPlace::CreateNode,
                    _ => DynamicPlace::CreateRel,
                };
                self.dynamic_labels(l, scope, place);
            }
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
        self.deprecations.extend(deprecated.into_iter().rev());
    }

    pub(super) fn check_labels(&mut self, e: &LabelExpr) -> bool {
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

    pub(super) fn check_types(&mut self, e: &LabelExpr) -> bool {
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

    pub(super) fn bind_node(
        &mut self,
        n: &NodePattern,
        scope: &mut Scope,
        mode: Mode,
        single: bool,
    ) -> usize {
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
                        if self.inserting
                            && (n.labels.is_some() || n.properties.is_some() || single)
                        {
                            self.diag(
                                DiagnosticKind::VariableAlreadyBound,
                                format!("Variable `{}` already declared", v.name),
                                v.span,
                            );
                        } else if mode != Mode::Read
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
                    (k, _) => self.kind_conflict(v, scope, k, Kind::Node),
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

    pub(super) fn bind_rel(
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
            // (Neo4j 5 matches a relationship named twice in a MATCH — no row can have it
            // twice — and notes `RepeatedRelationshipReference`; it refuses it elsewhere.)
            if !rel_vars.insert(v.name.clone()) && mode != Mode::Read {
                self.diag(
                    DiagnosticKind::RelationshipUniquenessViolation,
                    format!(
                        "Cannot use the same relationship variable '{}' for multiple relationships (give the second a new name)",
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
                    self.kind_conflict(v, scope, k, kind);
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

    pub(super) fn add_segment(
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

    pub(super) fn access(&mut self, binding: usize, key: &Ident, variable: &str) {
        self.accesses.push(PropertyAccess {
            binding,
            key: key.name.clone(),
            span: key.span,
            variable: variable.to_string(),
        });
    }

    // ----- expressions -----

    /// Operands Neo4j's checker types as something an operator does not take: booleans for
    /// AND/OR/XOR/NOT, numbers (and durations and temporals, where they apply) for arithmetic.
    /// Neo4j's message: `Type mismatch: expected Float or Integer but was String`.
    pub(super) fn operand_types(&mut self, e: &Expr, scope: &Scope) {
        use super::types::{Ty, Types};
        let set = |ts: &[Ty]| {
            ts.iter()
                .fold(Types::default(), |a, t| a.union(Types::of(*t)))
        };
        let numbers = set(&[Ty::Float, Ty::Integer]);
        let temporals = set(&[
            Ty::Date,
            Ty::Time,
            Ty::LocalTime,
            Ty::LocalDateTime,
            Ty::DateTime,
        ]);
        let duration = Types::of(Ty::Duration);
        if let ExprKind::Binary {
            op: op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div),
            lhs,
            rhs,
        } = &e.kind
        {
            // `+ - * /` as Neo4j checks them: the left operand against every left type the
            // operator has a signature for, then the right one against the signatures of the
            // left operand's type (`date() + 1`: expected Duration or List<T>).
            let lhs_allowed = match op {
                BinaryOp::Add => None,
                BinaryOp::Sub => Some(numbers.union(duration).union(temporals)),
                _ => Some(numbers.union(duration)),
            };
            let left = self.static_type(lhs, scope);
            if let (Some(allowed), Some(actual)) = (lhs_allowed, left) {
                if !actual.meets(allowed) {
                    return self.operand_mismatch(allowed.describe(), actual, lhs);
                }
            }
            // A map parameter may be a map, a node or a relationship: each takes a list after
            // `+`, as a map does.
            let map_like = Types::of(Ty::Map)
                .union(Types::of(Ty::Node))
                .union(Types::of(Ty::Relationship));
            if left.is_none() {
                // A left operand of unknown type: the right one must still be what the
                // operator takes after some left one (`$float * 'a'`).
                let rhs_allowed = match op {
                    BinaryOp::Sub | BinaryOp::Mul => numbers.union(duration),
                    BinaryOp::Div => numbers,
                    _ => return,
                };
                if let Some(actual) = self.static_type(rhs, scope) {
                    if !actual.meets(rhs_allowed) {
                        self.operand_mismatch(rhs_allowed.describe(), actual, rhs);
                    }
                }
                return;
            }
            let Some(left) = left.and_then(|t| {
                if t == map_like {
                    Some(Some(Ty::Map))
                } else {
                    t.single_or_list()
                }
            }) else {
                return;
            };
            let any_list = Types::any_list();
            // Cypher 25 joins a string to a boolean, a number, a temporal value, a duration, a
            // point or a vector, either way round.
            let joins = self.version != CypherVersion::Cypher5;
            let string = if joins {
                Types::of(Ty::String)
            } else {
                Types::default()
            };
            let rhs_allowed = match (op, left) {
                // A list takes anything after `+`.
                (BinaryOp::Add, None) => return,
                (BinaryOp::Add, Some(Ty::String)) if joins => set(&[
                    Ty::Boolean,
                    Ty::Float,
                    Ty::Integer,
                    Ty::Point,
                    Ty::String,
                    Ty::Vector,
                ])
                .union(duration)
                .union(temporals)
                .union(any_list),
                (BinaryOp::Add, Some(Ty::Integer | Ty::Float | Ty::String)) => {
                    set(&[Ty::Float, Ty::Integer, Ty::String]).union(any_list)
                }
                (BinaryOp::Add, Some(Ty::Duration)) => {
                    string.union(duration).union(temporals).union(any_list)
                }
                (BinaryOp::Add, Some(t)) if temporals.meets(Types::of(t)) => {
                    string.union(duration).union(any_list)
                }
                (BinaryOp::Add, Some(Ty::Boolean | Ty::Point)) => string.union(any_list),
                (BinaryOp::Add, Some(Ty::Vector)) => return,
                (BinaryOp::Add, Some(_)) => any_list,
                (BinaryOp::Sub, Some(Ty::Integer | Ty::Float)) => numbers,
                (BinaryOp::Sub, Some(_)) => duration,
                (BinaryOp::Mul, Some(Ty::Integer | Ty::Float)) => numbers.union(duration),
                (_, Some(_)) => numbers,
                (_, None) => return,
            };
            if let Some(actual) = self.static_type(rhs, scope) {
                if !actual.meets(rhs_allowed) {
                    self.operand_mismatch(rhs_allowed.describe(), actual, rhs);
                }
            }
            return;
        }
        let (operands, allowed, shown): (Vec<&Expr>, Types, Option<&str>) = match &e.kind {
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                    (vec![lhs, rhs], Types::of(Ty::Boolean), None)
                }
                BinaryOp::Mod => (vec![lhs, rhs], numbers, None),
                BinaryOp::RegexMatch => (vec![lhs, rhs], Types::of(Ty::String), None),
                // Integers are taken as floats: Neo4j names only Float.
                BinaryOp::Pow => (vec![lhs, rhs], numbers, Some("Float")),
                _ => return,
            },
            ExprKind::Unary {
                op: UnaryOp::Not,
                expr,
            } => (vec![expr], Types::of(Ty::Boolean), None),
            ExprKind::Unary {
                op: UnaryOp::Neg,
                expr,
            } => (vec![expr], numbers, None),
            _ => return,
        };
        for o in operands {
            // A pattern where a boolean is wanted tests that the pattern exists.
            if allowed == Types::of(Ty::Boolean) && matches!(o.kind, ExprKind::Pattern(_)) {
                continue;
            }
            match self.static_type(o, scope) {
                Some(actual) if !actual.meets(allowed) => {
                    if allowed == Types::of(Ty::Boolean) && actual.lists_only() {
                        if self.list_as_boolean(o) {
                            return;
                        }
                        continue;
                    }
                    let expected = shown.map_or_else(|| allowed.describe(), str::to_string);
                    // One finding per expression, as Neo4j reports the first.
                    return self.operand_mismatch(expected, actual, o);
                }
                _ => {}
            }
        }
    }

    /// `Type mismatch: expected … but was …` at the operand, placed as Neo4j places an
    /// expression: an operator's expression at its operator (`'a' + 1 - 1`: at the `+`).
    fn operand_mismatch(&mut self, expected: String, actual: super::types::Types, o: &Expr) {
        let span = self.position(o);
        // A list parameter is `List<T>`; a list literal of mixed elements `List<Any>`.
        let actual = match &o.kind {
            ExprKind::Parameter(_) => actual.describe(),
            _ => actual.describe_actual(),
        };
        self.report_mismatch(o, &expected, &actual, span);
    }

    /// Where Neo4j positions a binary operator's expression: the operator, the first
    /// character after the left operand that is not a space, a closing parenthesis or a
    /// comment.
    fn operator_span(&self, e: &Expr) -> Option<Span> {
        match &e.kind {
            ExprKind::Binary { lhs, rhs, .. } => self.after_operand(lhs.span.end, rhs.span.start),
            ExprKind::Comparison { first, rest } => {
                self.after_operand(first.span.end, rest.first()?.1.span.start)
            }
            // Postfix predicates at their `IS`, a slice at its `[`.
            ExprKind::IsNull { expr, .. }
            | ExprKind::IsType { expr, .. }
            | ExprKind::IsNormalized { expr, .. }
            | ExprKind::Slice { expr, .. } => self.after_operand(expr.span.end, e.span.end),
            // An element access at its index (Cypher 25: at its `[`).
            ExprKind::Index { expr, index } => match self.version {
                CypherVersion::Cypher5 => Some(index.span),
                _ => self.after_operand(expr.span.end, index.span.start),
            },
            _ => None,
        }
    }

    /// Where Neo4j positions an expression in its messages: an operator's expression at its
    /// operator (`'a' + 1 - 1`: at the `-`), `x IS NULL` at `IS`, `x[i]` at `i`, a slice at
    /// its `[`; anything else where it starts.
    pub(super) fn position(&self, e: &Expr) -> Span {
        self.operator_span(e).unwrap_or(e.span)
    }

    /// The first character in `from..to` that is not a space, a closing parenthesis or a
    /// comment.
    fn after_operand(&self, from: usize, to: usize) -> Option<Span> {
        let between = self.src.get(from..to)?;
        let bytes = between.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b' ' | b'\t' | b'\n' | b'\r' | b')' => i += 1,
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i += 2;
                    while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                        i += 1;
                    }
                    i += 2;
                }
                _ => {
                    let start = from + i;
                    return Some(Span::new(start, start + 1));
                }
            }
        }
        None
    }
}

/// `[:A|:B]` as Neo4j 5.26 deprecates it: the text of a relationship type expression whose
/// alternatives are names, some after `|:`. Neo4j reads `:A|B|:C` as `(A|B)|:C`, prints that
/// as the deprecated form and places the warning at the last `|:`. Gives that place, the
/// deprecated form and its replacement (`:A|B`).
fn colon_disjunction(src: &str, span: Span) -> Option<(Span, String, String)> {
    enum E {
        Name(String),
        Or(Vec<E>),
        Colon(Box<E>, String),
    }
    // A chain of `|:` prints flat (`X|:Y|:Z`); a `|` group under a `|:` and a `|:` inside a
    // `|` group in parentheses (`(X|Y)|:Z`).
    fn print(e: &E) -> String {
        match e {
            E::Name(n) => n.clone(),
            E::Or(xs) => xs
                .iter()
                .map(|x| match x {
                    E::Colon(..) => format!("({})", print(x)),
                    _ => print(x),
                })
                .collect::<Vec<_>>()
                .join("|"),
            E::Colon(a, b) => match **a {
                E::Or(_) => format!("({})|:{b}", print(a)),
                _ => format!("{}|:{b}", print(a)),
            },
        }
    }
    let text = src.get(span.start..span.end)?;
    // (The span may start at the leading colon or after it.)
    let (body, base) = match text.strip_prefix(':') {
        Some(b) => (b, span.start + 1),
        None => (text, span.start),
    };
    // The alternatives at the top level: names only (a backquoted name may hold anything).
    let mut parts: Vec<(usize, &str)> = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in body.char_indices() {
        match c {
            '`' => quoted = !quoted,
            '|' if !quoted => {
                parts.push((start, &body[start..i]));
                start = i + 1;
            }
            '(' | ')' | '&' | '!' | '%' | '$' if !quoted => return None,
            _ => {}
        }
    }
    parts.push((start, &body[start..]));
    let mut names = Vec::new();
    let mut last_colon = None;
    let mut tree: Option<E> = None;
    for (at, part) in &parts {
        let trimmed = part.trim();
        let (colon, name) = match trimmed.strip_prefix(':') {
            Some(n) => (true, n.trim()),
            None => (false, trimmed),
        };
        if name.is_empty() || name.contains(':') {
            return None;
        }
        names.push(name.to_string());
        tree = Some(match tree {
            None => E::Name(name.to_string()),
            Some(t) if colon => {
                // The `|` before this alternative.
                last_colon = Some(base + at - 1);
                E::Colon(Box::new(t), name.to_string())
            }
            Some(E::Or(mut xs)) => {
                xs.push(E::Name(name.to_string()));
                E::Or(xs)
            }
            Some(t) => E::Or(vec![t, E::Name(name.to_string())]),
        });
    }
    let at = last_colon?;
    Some((
        Span::new(at, at + 1),
        format!(":{}", print(&tree?)),
        format!(":{}", names.join("|")),
    ))
}
