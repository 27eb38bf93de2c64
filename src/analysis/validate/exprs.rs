//! The checker over expressions: variables in scope, functions in the catalogue, aggregates
//! where they are allowed, literal operand types.

use super::*;

/// What Neo4j says a property is read from, in a type mismatch.
const WITH_PROPERTIES: &str =
    "Map, Node, Relationship, Point, Duration, Date, Time, LocalTime, LocalDateTime or DateTime";

/// Neo4j 5's message for a pattern expression used as a value.
const PATTERN_AS_VALUE: &str = "A pattern expression should only be used in order to test the existence of a pattern. It should therefore only be used in contexts that evaluate to a boolean, e.g. inside the function exists() or in a WHERE-clause. No other uses are allowed, instead they should be replaced by a pattern comprehension.";

/// … and inside `size()`.
const PATTERN_IN_SIZE: &str = "A pattern expression should only be used in order to test the existence of a pattern. It can no longer be used inside the function size(), an alternative is to replace size() with COUNT {}.";

impl<'a, 's> Checker<'a, 's> {
    pub(super) fn expr(&mut self, e: &Expr, scope: &Scope, ctx: Ctx) {
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

    pub(super) fn expr_here(&mut self, e: &Expr, scope: &Scope, ctx: Ctx) {
        self.operand_types(e, scope);
        if !matches!(e.kind, ExprKind::FunctionCall { .. }) {
            // (A function call's arguments are checked with its catalogue entry.)
            self.patterns_as_values(e);
        }
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
                // `$0hello` as written (not `$`0hello``) is Cypher 25's.
                let written = self.text(e.span).trim_start_matches('$');
                if self.version == CypherVersion::Cypher5
                    && written.starts_with(|c: char| c.is_ascii_digit())
                    && !written.chars().all(|c| c.is_ascii_digit())
                {
                    self.diag(
                        DiagnosticKind::CypherVersion,
                        format!(
                            "Invalid input '{written}': expected an identifier or an integer value"
                        ),
                        e.span,
                    );
                }
                if let Some(params) = &self.opts.parameters {
                    let name = p.key();
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
                let path = matches!(&expr.kind, ExprKind::Variable(v)
                    if matches!(scope.get(&v.name), Some((Kind::Path, _))));
                // (A relationship-list variable is one relationship inside its own quantified
                // pattern's WHERE: not judged.)
                let rel_list = matches!(&expr.kind, ExprKind::Variable(v)
                    if matches!(scope.get(&v.name), Some((Kind::RelList, _))));
                let known = if rel_list {
                    None
                } else if path {
                    Some("Path".to_string())
                } else {
                    // A value whose type is known and has no properties (`WITH 1 AS x RETURN
                    // x.num`): Neo4j refuses it at compile time.
                    self.static_type(expr, scope)
                        .filter(|t| !t.meets(super::types::Types::with_properties()))
                        .map(|t| t.describe())
                };
                if let Some(t) = known.filter(|t| !t.is_empty()) {
                    self.report_mismatch(expr, WITH_PROPERTIES, &t, expr.span);
                }
                if let ExprKind::Variable(v) = &expr.kind {
                    if let Some((Kind::Node | Kind::Rel, Some(b))) = scope.get(&v.name) {
                        self.access(b, key, &v.name);
                    }
                }
            }
            ExprKind::Index { expr, index } => {
                self.expr(expr, scope, ctx);
                self.expr(index, scope, ctx);
                self.index_types(expr, index, scope);
            }
            ExprKind::Slice { expr, from, to } => {
                use super::types::{Ty, Types};
                self.expr(expr, scope, ctx);
                for x in [from, to].into_iter().flatten() {
                    self.expr(x, scope, ctx);
                }
                if !self.expect_type(expr, scope, Types::any_list()) {
                    for x in [from, to].into_iter().flatten() {
                        if self.expect_type(x, scope, Types::of(Ty::Integer)) {
                            break;
                        }
                    }
                }
            }
            ExprKind::HasLabels {
                expr,
                labels,
                labeled,
            } => {
                if *labeled && self.version == CypherVersion::Cypher5 {
                    self.diag(
                        DiagnosticKind::CypherVersion,
                        "Invalid input 'LABELED': IS LABELED is Cypher 25; prefix the query with CYPHER 25".into(),
                        e.span,
                    );
                }
                {
                    use super::types::{Ty, Types};
                    let expected = Types::of(Ty::Node).union(Types::of(Ty::Relationship));
                    self.expect_type(expr, scope, expected);
                }
                self.expr(expr, scope, ctx);
                self.dynamic_labels(labels, scope, DynamicPlace::Expression);
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
                // `x IN 1`: the right side must be a list (null passes).
                if matches!(op, BinaryOp::In) {
                    self.expect_type(rhs, scope, super::types::Types::any_list());
                }
            }
            ExprKind::Comparison { first, rest } => {
                self.expr(first, scope, ctx);
                for (_, x) in rest {
                    self.expr(x, scope, ctx);
                }
            }
            ExprKind::IsNull { expr, .. }
            | ExprKind::IsType { expr, .. }
            | ExprKind::IsNormalized { expr, .. } => self.expr(expr, scope, ctx),
            ExprKind::FunctionCall {
                name,
                args,
                distinct,
            } => {
                let dotted = name.dotted();
                let cypher25 = self.version == CypherVersion::Cypher25;
                let known = crate::catalogue::function(&dotted)
                    .filter(|_| !(cypher25 && crate::catalogue::missing_in_cypher_25(&dotted)));
                // Only the built-in aggregating functions take DISTINCT (checked before the
                // name is looked up: an unknown function is refused for its DISTINCT).
                let distinct_refused =
                    *distinct && !known.is_some_and(|f| f.aggregating && f.built_in);
                match known {
                    _ if distinct_refused => {
                        let last = name.parts.last().map_or("", |p| p.name.as_str());
                        self.diag(
                            DiagnosticKind::InvalidAggregation,
                            format!("Invalid use of DISTINCT with function '{last}'"),
                            e.span,
                        );
                    }
                    None => {
                        let message = crate::catalogue::unknown_function_message(&dotted);
                        match crate::catalogue::suggest_function(&dotted) {
                            Some(c) => self.diag_help(
                                DiagnosticKind::UnknownFunction,
                                message,
                                format!("did you mean `{c}`?"),
                                name.span,
                            ),
                            None => self.diag(DiagnosticKind::UnknownFunction, message, name.span),
                        }
                    }
                    Some(f) if f.arity_error(args.len()).is_some() => {
                        let message = f.arity_error(args.len()).unwrap_or_default();
                        self.diag(DiagnosticKind::WrongArity, message, e.span);
                        // Neo4j's GQL status `42I13` says what was expected.
                        if let Some(d) = self.diags.last_mut() {
                            d.subject = f.arity_gql(&dotted, args.len());
                        }
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
                // The USE clause's own graph function is not walked: any other is misplaced.
                for f in ["graph.byName", "graph.byElementId"] {
                    if dotted.eq_ignore_ascii_case(f) {
                        self.diag(
                            DiagnosticKind::InvalidGraphReference,
                            format!("`{f}` is only allowed at the first position of a USE clause."),
                            e.span,
                        );
                    }
                }
                if dotted.eq_ignore_ascii_case("exists") && args.len() == 1 {
                    self.exists_argument(&args[0]);
                }
                if dotted.eq_ignore_ascii_case("point") && args.len() == 1 {
                    self.point_map(&args[0]);
                }
                let mut inner = ctx;
                if name.is_aggregate() {
                    self.aggregate_here(e.span, &name.dotted(), ctx);
                    inner.in_aggregate = true;
                }
                if ctx.in_aggregate
                    && (dotted.eq_ignore_ascii_case("rand")
                        || dotted.eq_ignore_ascii_case("randomUUID"))
                {
                    self.diag(
                        DiagnosticKind::NonConstantExpression,
                        "Can't use non-deterministic (random) functions inside of aggregate functions.".into(),
                        e.span,
                    );
                }
                // Which arguments have errors of their own: those come first, as Neo4j reports
                // them, and an argument's type is not judged on top of them.
                let mut clean = Vec::with_capacity(args.len());
                let normalize = dotted.eq_ignore_ascii_case("normalize");
                for (i, a) in args.iter().enumerate() {
                    let before = self.diags.len();
                    if normalize && i == 1 {
                        // `normalize(s, NFD)`: a form keyword, not a value.
                        self.normal_form_argument(a);
                    } else {
                        self.expr(a, scope, inner);
                    }
                    clean.push(self.diags.len() == before);
                }
                self.patterns_as_values(e);
                if let Some(f) = crate::catalogue::function(&dotted) {
                    if f.arity_error(args.len()).is_none() {
                        self.check_argument_types(f, args, &clean, scope);
                    }
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
                // An extended `WHEN > 3` reads the operand.
                let mut with_operand = scope.clone();
                with_operand.bind(CASE_OPERAND, Kind::Unknown, None);
                for (w, t) in whens {
                    self.expr(w, &with_operand, ctx);
                    if operand.is_none() {
                        // A searched CASE's conditions are booleans.
                        self.expect_boolean(w, scope);
                    }
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
                self.expect_type(list, scope, super::types::Types::any_list());
                let inner = self.element_scope(scope, variable, list);
                for x in [filter, map].into_iter().flatten() {
                    self.aggregate_not_allowed(x);
                    self.expr(x, &inner, ctx);
                }
                if let Some(f) = filter {
                    self.expect_boolean(f, &inner);
                }
            }
            ExprKind::Quantified {
                kind,
                variable,
                list,
                filter,
            } => {
                if filter.is_none() {
                    let name = match kind {
                        QuantifierKind::All => "all",
                        QuantifierKind::Any => "any",
                        QuantifierKind::None => "none",
                        QuantifierKind::Single => "single",
                    };
                    self.diag(
                        DiagnosticKind::MissingPredicate,
                        format!("{name}(...) requires a WHERE predicate"),
                        e.span,
                    );
                }
                self.expr(list, scope, ctx);
                self.expect_type(list, scope, super::types::Types::any_list());
                let inner = self.element_scope(scope, variable, list);
                if let Some(f) = filter {
                    self.expr(f, &inner, ctx);
                    self.expect_boolean(f, &inner);
                }
            }
            ExprKind::Reduce {
                accumulator,
                init,
                variable,
                list,
                expr,
                predicate,
            } => {
                if predicate.is_some() && self.version == CypherVersion::Cypher5 {
                    self.diag(
                        DiagnosticKind::CypherVersion,
                        "Invalid input 'allReduce': allReduce is Cypher 25; prefix the query with CYPHER 25".into(),
                        e.span,
                    );
                }
                self.expr(init, scope, ctx);
                self.expr(list, scope, ctx);
                self.expect_type(list, scope, super::types::Types::any_list());
                let mut inner = self.element_scope(scope, variable, list);
                inner.bind(&accumulator.name, Kind::Unknown, None);
                inner.types.remove(&accumulator.name);
                self.expr(expr, &inner, ctx);
                if let Some(p) = predicate {
                    self.expr(p, &inner, ctx);
                }
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
                    self.expect_boolean(f, &inner);
                }
                self.expr(map, &inner, ctx);
            }
            ExprKind::Pattern(chain) | ExprKind::ShortestPath { chain, .. } => {
                if let ExprKind::Pattern(chain) = &e.kind {
                    self.no_new_variables(chain, scope);
                }
                let mut inner = scope.clone();
                let mut rel_vars = BTreeSet::new();
                let ids = self.chain(chain, &mut inner, Mode::Read, &mut rel_vars, false);
                self.chain_exprs(chain, &ids, &inner, Mode::Read);
            }
            ExprKind::Exists(body) | ExprKind::CountSubquery(body) => match &**body {
                SubqueryBody::Query(q) => {
                    let what = if matches!(e.kind, ExprKind::Exists(_)) {
                        "An Exists Expression"
                    } else {
                        "A Count Expression"
                    };
                    self.no_updates(q, what, e.span);
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
                self.no_updates(q, "A Collect Expression", e.span);
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

    /// A pattern expression (`(a)-->()`) directly inside `e` where Neo4j 5 refuses it: as a
    /// value rather than a test — an argument of a function other than `exists()`, an operand
    /// of a comparison or arithmetic, a list element, `IS NULL`. Boolean operators, `exists()`,
    /// `CASE` conditions and list filters take it as a test.
    fn patterns_as_values(&mut self, e: &Expr) {
        let children: Vec<&Expr> = match &e.kind {
            ExprKind::FunctionCall { name, args, .. } => {
                let dotted = name.dotted();
                if dotted.eq_ignore_ascii_case("exists") {
                    return;
                }
                if dotted.eq_ignore_ascii_case("size") {
                    for a in args
                        .iter()
                        .filter(|a| matches!(a.kind, ExprKind::Pattern(_)))
                    {
                        self.diag(
                            DiagnosticKind::PatternExpressionAsValue,
                            PATTERN_IN_SIZE.into(),
                            a.span,
                        );
                    }
                    return;
                }
                args.iter().collect()
            }
            ExprKind::Binary { op, lhs, rhs }
                if !matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor) =>
            {
                vec![&**lhs, &**rhs]
            }
            ExprKind::Comparison { first, rest } => std::iter::once(&**first)
                .chain(rest.iter().map(|(_, x)| x))
                .collect(),
            ExprKind::IsNull { expr, .. }
            | ExprKind::IsType { expr, .. }
            | ExprKind::IsNormalized { expr, .. }
            | ExprKind::Property { expr, .. } => vec![&**expr],
            ExprKind::Index { expr, index } => vec![&**expr, &**index],
            ExprKind::List(items) => items.iter().collect(),
            _ => return,
        };
        for c in children {
            self.pattern_as_value(c);
        }
    }

    /// Reports `e` if it is a pattern expression: it stands where a value is wanted (a
    /// projected column, a sort key, a value written by SET, …).
    pub(super) fn pattern_as_value(&mut self, e: &Expr) {
        if matches!(e.kind, ExprKind::Pattern(_)) {
            self.diag(
                DiagnosticKind::PatternExpressionAsValue,
                PATTERN_AS_VALUE.into(),
                e.span,
            );
        }
    }

    /// `point({…})` with a map literal: its keys must describe a point — `x` and `y`
    /// (cartesian) or `latitude` and `longitude` (geographic) — as Neo4j checks at compile
    /// time.
    fn point_map(&mut self, arg: &Expr) {
        let ExprKind::Map(entries) = &arg.kind else {
            return;
        };
        let has = |k: &str| entries.iter().any(|(key, _)| key.name == k);
        if (has("x") && has("y")) || (has("latitude") && has("longitude")) {
            return;
        }
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.name.as_str()).collect();
        self.diag(
            DiagnosticKind::InvalidArgumentType,
            crate::spatial::invalid_map_message(&keys),
            arg.span,
        );
    }

    /// The second argument of `normalize()`: NFC, NFD, NFKC or NFKD, written as a keyword.
    fn normal_form_argument(&mut self, a: &Expr) {
        if matches!(&a.kind, ExprKind::Variable(v) if NormalForm::parse(&v.name).is_some()) {
            return;
        }
        self.diag(
            DiagnosticKind::InvalidArgumentType,
            "Invalid normal form, expected NFC, NFD, NFKC, NFKD".into(),
            a.span,
        );
    }

    /// `exists(…)`: in Neo4j 5 its argument must be a pattern (`exists((a)-->())`); the
    /// property form of Neo4j 4 (`exists(n.prop)`) and any other value are compile-time errors,
    /// with Neo4j's messages.
    fn exists_argument(&mut self, arg: &Expr) {
        let message = match &arg.kind {
            ExprKind::Pattern(_) => return,
            ExprKind::Property { .. } | ExprKind::Index { .. } => {
                "The property existence syntax `... exists(variable.property)` is no longer supported. Please use `variable.property IS NOT NULL` instead."
            }
            _ => "Argument to exists(...) is not a pattern",
        };
        self.diag(
            DiagnosticKind::InvalidArgumentType,
            message.to_string(),
            arg.span,
        );
    }

    /// `x[i]` where the types are known: Neo4j refuses at compile time a subject that is
    /// neither a list nor a map (nor an element), a list index that is not an integer and a
    /// map key that is not a string.
    fn index_types(&mut self, subject: &Expr, index: &Expr, scope: &Scope) {
        use super::types::{Ty, Types};
        if matches!(&subject.kind, ExprKind::Variable(v)
            if matches!(scope.get(&v.name), Some((Kind::RelList, _))))
        {
            return;
        }
        let Some(s) = self.static_type(subject, scope) else {
            return;
        };
        // `$x['key']` is read as `$x.key`.
        if matches!(subject.kind, ExprKind::Parameter(_))
            && matches!(
                index.kind,
                ExprKind::Literal(crate::syntax::Literal::String(_))
            )
        {
            if !s.meets(Types::with_properties()) {
                self.report_mismatch(subject, WITH_PROPERTIES, &s.describe(), subject.span);
            }
            return;
        }
        let indexable = Types::any_list()
            .union(Types::of(Ty::Map))
            .union(Types::of(Ty::Node))
            .union(Types::of(Ty::Relationship));
        if !s.meets(indexable) {
            // A string key asks for a map (`'abc'['a']`), anything else for a list.
            let key = self.static_type(index, scope);
            let expected = match key {
                Some(k) if k.meets(Types::of(Ty::String)) && !k.meets(Types::of(Ty::Integer)) => {
                    "Map, Node or Relationship"
                }
                _ => "List<T>",
            };
            self.report_mismatch(subject, expected, &s.describe(), subject.span);
            return;
        }
        let Some(i) = self.static_type(index, scope) else {
            return;
        };
        let (list, map) = (s.meets(Types::any_list()), s.meets(Types::of(Ty::Map)));
        let (subject, expected) = if list && !map && !i.meets(Types::of(Ty::Integer)) {
            ("list index", "Integer")
        } else if map && !list && !i.meets(Types::of(Ty::String)) {
            ("map key", "String")
        } else {
            return;
        };
        let actual = i.describe();
        let message = self.mismatch(
            index,
            &format!("{subject} must be given as {expected}, but was {actual}"),
        );
        self.diag(DiagnosticKind::InvalidArgumentType, message, index.span);
        // Neo4j's GQL status: `22N27` "Invalid input 'String' for list index parameter: s".
        let parameter = match &index.kind {
            ExprKind::Parameter(p) => Some(p.key().to_string()),
            _ => None,
        };
        self.last_facts(GqlFacts::Mismatch {
            expected: expected.to_string(),
            actual,
            parameter,
        });
        if let Some(d) = self.diags.last_mut() {
            d.subject = Some(subject.to_string());
        }
    }

    /// An aggregate where none may be: inside another aggregate, or in WHERE. (Neo4j 5.26's
    /// compiler lets `count(*)` through in WHERE; it fails when it runs.)
    pub(super) fn aggregate_here(&mut self, span: Span, name: &str, ctx: Ctx) {
        let lower = name.to_ascii_lowercase();
        if ctx.in_aggregate {
            self.diag_help(
                DiagnosticKind::NestedAggregation,
                "Can't use aggregate functions inside of aggregate functions.".into(),
                format!("`{lower}` is inside another aggregating function; aggregate in a WITH first, then aggregate the result"),
                span,
            );
        } else if ctx.in_where && lower != "count(*)" {
            self.diag_help(
                DiagnosticKind::AggregationInWhere,
                format!("Invalid use of aggregating function {lower}(...) in this context"),
                format!("compute it in a WITH (`WITH …, {lower}(…) AS x WHERE x …`)"),
                span,
            );
        }
    }

    // ----- inference and path checks -----
}

impl Checker<'_, '_> {
    /// A pattern used as an expression (`WHERE (n)-[r]->(m)`) may not bind new variables.
    fn no_new_variables(&mut self, chain: &PathChain, scope: &Scope) {
        for el in &chain.elements {
            let v = match el {
                PathElement::Node(n) => n.variable.as_ref(),
                PathElement::Relationship(r) => r.variable.as_ref(),
                PathElement::Group(_) => None,
            };
            if let Some(v) = v {
                if scope.get(&v.name).is_none() && !scope.open {
                    self.diag(
                        DiagnosticKind::PatternIntroducesVariable,
                        format!(
                            "PatternExpressions are not allowed to introduce new variables: '{}'.",
                            v.name
                        ),
                        v.span,
                    );
                }
            }
        }
    }

    /// `EXISTS { … }`, `COUNT { … }` and `COLLECT { … }` read; an update inside is refused.
    fn no_updates(&mut self, q: &Query, what: &str, span: Span) {
        fn updates(q: &Query) -> bool {
            q.parts().any(|s| {
                s.clauses.iter().any(|c| match c {
                    Clause::Create(_)
                    | Clause::Merge(_)
                    | Clause::Set(_)
                    | Clause::Remove(_)
                    | Clause::Delete(_)
                    | Clause::Foreach(_) => true,
                    other => other.subqueries().into_iter().any(updates),
                })
            })
        }
        if updates(q) {
            self.diag(
                DiagnosticKind::UpdateInSubquery,
                format!("{what} cannot contain any updates"),
                span,
            );
        }
    }

    /// An aggregating function where a value per element is computed (a list comprehension).
    fn aggregate_not_allowed(&mut self, e: &Expr) {
        fn first(e: &Expr) -> Option<(&Expr, String)> {
            match &e.kind {
                ExprKind::CountStar => Some((e, "count".into())),
                ExprKind::FunctionCall { name, .. } if name.is_aggregate() => {
                    Some((e, name.dotted()))
                }
                _ => e.children().into_iter().find_map(first),
            }
        }
        if let Some((at, name)) = first(e) {
            self.diag(
                DiagnosticKind::InvalidAggregation,
                format!("Invalid use of aggregating function {name}(...) in this context"),
                at.span,
            );
        }
    }
}
