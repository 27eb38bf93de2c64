//! The builder for expressions (the Pratt parser over operators, atoms, postfix chains) and
//! type names.

use super::*;

impl<'s> Builder<'s> {
    pub(super) fn expr(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        Ok(self.expr_operand(p)?.expr)
    }

    pub(super) fn expr_operand(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        let n = self.nesting.get() + 1;
        if n > MAX_NESTING {
            return Err(self.err(
                p.as_span().start(),
                format!("expression nested more than {MAX_NESTING} levels deep"),
            ));
        }
        self.nesting.set(n);
        // Debug builds use large frames; grow the stack on the heap rather than overflow it.
        let r = stacker::maybe_grow(128 * 1024, 1024 * 1024, || self.expr_inner(p));
        self.nesting.set(n - 1);
        r
    }

    pub(super) fn check_height(&self, o: Operand) -> Res<Operand> {
        if o.height > MAX_CHAIN {
            Err(self.err(
                o.expr.span.start,
                format!("operator chain longer than {MAX_CHAIN}: split the expression"),
            ))
        } else {
            Ok(o)
        }
    }

    pub(super) fn expr_inner(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        // The Pratt parser recurses once per prefix operator: bound runs of them first.
        let mut run = 0usize;
        for x in p.clone().into_inner() {
            match x.as_rule() {
                Rule::op_not | Rule::op_neg | Rule::op_pos => {
                    run += 1;
                    if run > MAX_CHAIN {
                        return Err(self.err(
                            x.as_span().start(),
                            format!("more than {MAX_CHAIN} prefix operators in a row"),
                        ));
                    }
                }
                _ => run = 0,
            }
        }
        PRATT
            .map_primary(|primary| {
                self.postfix_expr(primary)
                    .and_then(|o| self.check_height(o))
            })
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let start = op.as_span().start();
                let uop = match op.as_rule() {
                    Rule::op_not => UnaryOp::Not,
                    Rule::op_neg => UnaryOp::Neg,
                    _ => UnaryOp::Plus,
                };
                // One sign per operand (`- -x`, `-NOT x` are not Cypher; `-(-x)` is).
                if uop != UnaryOp::Not && !rhs.paren && is_prefixed(&rhs.expr) {
                    let at = rhs.expr.span.start;
                    let c = self.src[at..].chars().next().unwrap_or('-');
                    return Err(self.err(
                        at,
                        format!("Invalid input '{c}': expected an expression (one sign per operand: write `-(-x)`)"),
                    ));
                }
                self.check_height(unary(uop, start, rhs))
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                if op.as_rule() != Rule::is_label && !lhs.paren && is_predicate(&lhs.expr) {
                    return Err(self.chained_predicate(&op));
                }
                let end = op.as_span().end();
                let span = Span::new(lhs.expr.span.start, end);
                let height = lhs.height + 1;
                let expr = match op.as_rule() {
                    Rule::is_null | Rule::is_not_null => ExprKind::IsNull {
                        negated: op.as_rule() == Rule::is_not_null,
                        expr: Box::new(lhs.expr),
                    },
                    Rule::is_label => {
                        let x = op
                            .into_inner()
                            .find(|x| x.as_rule() == Rule::label_or)
                            .ok_or_else(|| internal(self.src, span.start))?;
                        ExprKind::HasLabels {
                            expr: Box::new(lhs.expr),
                            labels: self.label_or(x)?,
                            labeled: false,
                        }
                    }
                    Rule::is_labeled => {
                        let mut negated = false;
                        let mut labels = None;
                        for x in op.into_inner() {
                            match x.as_rule() {
                                Rule::NOT => negated = true,
                                Rule::label_or => labels = Some(self.label_or(x)?),
                                _ => {}
                            }
                        }
                        let has = ExprKind::HasLabels {
                            expr: Box::new(lhs.expr),
                            labels: labels.ok_or_else(|| internal(self.src, span.start))?,
                            labeled: true,
                        };
                        if negated {
                            ExprKind::Unary {
                                op: UnaryOp::Not,
                                expr: Box::new(Expr::new(has, span)),
                            }
                        } else {
                            has
                        }
                    }
                    Rule::is_normalized => {
                        let mut negated = false;
                        let mut form = None;
                        for x in op.into_inner() {
                            match x.as_rule() {
                                Rule::NOT => negated = true,
                                Rule::normal_form => form = NormalForm::parse(x.as_str()),
                                _ => {}
                            }
                        }
                        ExprKind::IsNormalized {
                            expr: Box::new(lhs.expr),
                            negated,
                            form,
                        }
                    }
                    _ => {
                        let mut negated = false;
                        let mut ty = None;
                        for x in op.into_inner() {
                            match x.as_rule() {
                                Rule::NOT | Rule::op_not => negated = true,
                                Rule::cypher_type => ty = Some(self.cypher_type(x)?),
                                _ => {}
                            }
                        }
                        ExprKind::IsType {
                            expr: Box::new(lhs.expr),
                            negated,
                            ty: ty.ok_or_else(|| internal(self.src, span.start))?,
                        }
                    }
                };
                self.check_height(Operand {
                    expr: Expr::new(expr, span),
                    paren: false,
                    height,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let lhs = lhs?;
                let rhs = rhs?;
                let bop = match op.as_rule() {
                    Rule::op_or => BinaryOp::Or,
                    Rule::op_xor => BinaryOp::Xor,
                    Rule::op_and => BinaryOp::And,
                    Rule::op_regex => BinaryOp::RegexMatch,
                    Rule::op_ne => BinaryOp::Ne,
                    Rule::op_le => BinaryOp::Le,
                    Rule::op_ge => BinaryOp::Ge,
                    Rule::op_eq => BinaryOp::Eq,
                    Rule::op_lt => BinaryOp::Lt,
                    Rule::op_gt => BinaryOp::Gt,
                    Rule::op_starts_with => BinaryOp::StartsWith,
                    Rule::op_ends_with => BinaryOp::EndsWith,
                    Rule::op_contains => BinaryOp::Contains,
                    Rule::op_in => BinaryOp::In,
                    Rule::op_concat => BinaryOp::Concat,
                    Rule::op_add => BinaryOp::Add,
                    Rule::op_sub => BinaryOp::Sub,
                    Rule::op_mul => BinaryOp::Mul,
                    Rule::op_div => BinaryOp::Div,
                    Rule::op_mod => BinaryOp::Mod,
                    _ => BinaryOp::Pow,
                };
                if matches!(
                    bop,
                    BinaryOp::RegexMatch
                        | BinaryOp::StartsWith
                        | BinaryOp::EndsWith
                        | BinaryOp::Contains
                        | BinaryOp::In
                ) && !lhs.paren
                    && is_predicate(&lhs.expr)
                {
                    return Err(self.chained_predicate(&op));
                }
                self.check_height(binary(lhs, bop, rhs))
            })
            .parse(p.into_inner())
    }

    /// `a IS NULL IS NOT NULL`, `a IN b STARTS WITH c`: Neo4j's grammar takes one string,
    /// list, null, type, normalization or LABELED test per operand.
    fn chained_predicate(&self, op: &Pair<'_, Rule>) -> ParseError {
        let at = op.as_span().start();
        let word: String = self.src[at..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect();
        let word = if word.chars().next().is_some_and(|c| c.is_alphabetic()) {
            word.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        } else {
            word
        };
        self.err(
            at,
            format!(
                "Invalid input '{word}': one string, list, null or type test per operand \
                 (parenthesize the one before)"
            ),
        )
    }

    /// The chain of a pattern expression or comprehension: relationships between node
    /// patterns, without quantifiers, as in Neo4j's grammar.
    fn unquantified_chain(&self, p: Pair<'_, Rule>) -> Res<PathChain> {
        let chain = self.path_chain(p)?;
        for el in &chain.elements {
            if let PathElement::Relationship(r) = el {
                if r.quantifier.is_some() {
                    // The quantifier is what follows the relationship's last `-` or `>`.
                    let text = &self.src[r.span.start..r.span.end];
                    let after = text.rfind(['-', '>']).map_or(0, |i| i + 1);
                    let rest = &text[after..];
                    let at = r.span.start + after + (rest.len() - rest.trim_start().len());
                    let c = self.src[at..].chars().next().unwrap_or('{');
                    return Err(self.err(
                        at,
                        format!(
                            "Invalid input '{c}': a pattern used as an expression takes no \
                             quantifier (use COUNT {{ … }} or EXISTS {{ … }})"
                        ),
                    ));
                }
            }
        }
        Ok(chain)
    }

    pub(super) fn postfix_expr(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        if p.as_rule() == Rule::case_hole {
            // The CASE operand an extended WHEN tests (`WHEN > 3`).
            let at = p.as_span().start();
            let span = Span::new(at, at);
            return Ok(Operand {
                expr: Expr::new(
                    ExprKind::Variable(Ident {
                        name: CASE_OPERAND.into(),
                        span,
                    }),
                    span,
                ),
                paren: false,
                height: 0,
            });
        }
        let mut it = p.into_inner();
        let first = it.next().ok_or_else(|| internal(self.src, 0))?;
        let mut cur = self.atom(first)?;
        for op in it {
            let end = op.as_span().end();
            let span = Span::new(cur.expr.span.start, end);
            let base = Box::new(cur.expr);
            let kind = match op.as_rule() {
                Rule::prop_lookup => {
                    let key = op
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, span.start))?;
                    ExprKind::Property {
                        expr: base,
                        key: self.ident(key)?,
                    }
                }
                Rule::subscript => {
                    let inner = op
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, span.start))?;
                    if inner.as_rule() == Rule::slice {
                        let mut from = None;
                        let mut to = None;
                        for x in inner.into_inner() {
                            match x.as_rule() {
                                Rule::slice_from => from = Some(Box::new(self.inner_expr(x)?)),
                                Rule::slice_to => to = Some(Box::new(self.inner_expr(x)?)),
                                _ => {}
                            }
                        }
                        ExprKind::Slice {
                            expr: base,
                            from,
                            to,
                        }
                    } else {
                        ExprKind::Index {
                            expr: base,
                            index: Box::new(self.expr(inner)?),
                        }
                    }
                }
                Rule::label_pred => {
                    let lspan = span_of(&op);
                    let mut parts = Vec::new();
                    for x in op.into_inner() {
                        if x.as_rule() == Rule::label_or {
                            parts.push(self.label_or(x)?);
                        }
                    }
                    let labels = if parts.len() == 1 {
                        parts.pop().ok_or_else(|| internal(self.src, span.start))?
                    } else {
                        LabelExpr::And(parts, lspan)
                    };
                    ExprKind::HasLabels {
                        expr: base,
                        labels,
                        labeled: false,
                    }
                }
                _ => return Err(internal(self.src, span.start)),
            };
            cur = Operand {
                expr: Expr::new(kind, span),
                paren: false,
                height: cur.height + 1,
            };
            if cur.height > MAX_CHAIN {
                return Err(self.err(span.start, "postfix chain too long"));
            }
        }
        Ok(cur)
    }

    pub(super) fn atom(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        let span = span_of(&p);
        let plain = |kind: ExprKind| -> Res<Operand> {
            Ok(Operand {
                expr: Expr::new(kind, span),
                paren: false,
                height: 1,
            })
        };
        match p.as_rule() {
            Rule::float_lit => {
                let text: String = p.as_str().chars().filter(|c| *c != '_').collect();
                let v: f64 = text.parse().map_err(|_| {
                    self.err(
                        span.start,
                        format!("invalid float literal `{}`", p.as_str()),
                    )
                })?;
                if v.is_finite() {
                    plain(ExprKind::Literal(Literal::Float(v)))
                } else {
                    plain(ExprKind::Literal(Literal::OutOfRange {
                        text: p.as_str().to_string(),
                        float: true,
                    }))
                }
            }
            Rule::hex_int | Rule::oct_int | Rule::dec_int => {
                let text = p.as_str();
                match parse_int_magnitude(text) {
                    Some(v) if v <= i64::MAX as u128 => {
                        plain(ExprKind::Literal(Literal::Integer(v as i64)))
                    }
                    _ => plain(ExprKind::Literal(Literal::OutOfRange {
                        text: text.to_string(),
                        float: false,
                    })),
                }
            }
            Rule::string_lit => plain(ExprKind::Literal(Literal::String(self.string(p)?))),
            Rule::lit_true => plain(ExprKind::Literal(Literal::Boolean(true))),
            Rule::lit_false => plain(ExprKind::Literal(Literal::Boolean(false))),
            Rule::lit_null => plain(ExprKind::Literal(Literal::Null)),
            Rule::parameter => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(self.src, span.start))?;
                let param = if inner.as_rule() == Rule::param_digit_name {
                    Parameter::Named(inner.as_str().to_string())
                } else if inner.as_rule() == Rule::param_index {
                    let s = inner.as_str();
                    Parameter::Positional(s.parse().map_err(|_| {
                        self.err(span.start, format!("parameter index `{s}` is too large"))
                    })?)
                } else {
                    Parameter::Named(self.ident(inner)?.name)
                };
                plain(ExprKind::Parameter(param))
            }
            Rule::variable => plain(ExprKind::Variable(self.ident(p)?)),
            Rule::list_literal => {
                let mut items = Vec::new();
                for x in p.into_inner() {
                    items.push(self.expr(x)?);
                }
                plain(ExprKind::List(items))
            }
            Rule::map_literal => {
                let mut entries: Vec<(Ident, Expr)> = Vec::new();
                for x in p.into_inner() {
                    let mut it = x.into_inner();
                    let (Some(k), Some(v)) = (it.next(), it.next()) else {
                        return Err(internal(self.src, span.start));
                    };
                    entries.push((self.ident(k)?, self.expr(v)?));
                }
                plain(ExprKind::Map(entries))
            }
            Rule::paren_expr => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(self.src, span.start))?;
                let mut o = self.expr_operand(inner)?;
                o.expr.span = span;
                o.paren = true;
                Ok(o)
            }
            Rule::list_comprehension => {
                let mut variable = None;
                let mut list = None;
                let mut filter = None;
                let mut map = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::expression => list = Some(Box::new(self.expr(x)?)),
                        Rule::comp_where => filter = Some(Box::new(self.inner_expr(x)?)),
                        Rule::comp_map => map = Some(Box::new(self.inner_expr(x)?)),
                        _ => {}
                    }
                }
                match (variable, list) {
                    (Some(variable), Some(list)) => plain(ExprKind::ListComprehension {
                        variable,
                        list,
                        filter,
                        map,
                    }),
                    _ => Err(internal(self.src, span.start)),
                }
            }
            Rule::pattern_comprehension => {
                let mut variable = None;
                let mut pattern = None;
                let mut filter = None;
                let mut map = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::pattern_chain_rel => pattern = Some(self.unquantified_chain(x)?),
                        Rule::comp_where => filter = Some(Box::new(self.inner_expr(x)?)),
                        Rule::expression => map = Some(Box::new(self.expr(x)?)),
                        _ => {}
                    }
                }
                match (pattern, map) {
                    (Some(pattern), Some(map)) => plain(ExprKind::PatternComprehension {
                        variable,
                        pattern,
                        filter,
                        map,
                    }),
                    _ => Err(internal(self.src, span.start)),
                }
            }
            Rule::pattern_expr => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(self.src, span.start))?;
                plain(ExprKind::Pattern(self.unquantified_chain(inner)?))
            }
            Rule::case_expr => {
                let mut operand = None;
                let mut whens = Vec::new();
                let mut else_ = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::expression => operand = Some(Box::new(self.expr(x)?)),
                        Rule::case_when => {
                            // `WHEN a, b THEN t` is `WHEN a THEN t WHEN b THEN t`.
                            let mut parts: Vec<Pair<'_, Rule>> = x
                                .into_inner()
                                .filter(|y| {
                                    matches!(y.as_rule(), Rule::expression | Rule::case_partial)
                                })
                                .collect();
                            let (Some(t), false) = (parts.pop(), parts.is_empty()) else {
                                return Err(internal(self.src, span.start));
                            };
                            let then = self.expr(t)?;
                            for w in parts {
                                if w.as_rule() == Rule::case_partial && operand.is_none() {
                                    return Err(self.err(
                                        w.as_span().start(),
                                        "a WHEN without a left operand needs a simple CASE (`CASE x WHEN > 3 THEN …`)",
                                    ));
                                }
                                whens.push((self.expr(w)?, then.clone()));
                            }
                        }
                        Rule::case_else => else_ = Some(Box::new(self.inner_expr(x)?)),
                        _ => {}
                    }
                }
                plain(ExprKind::Case {
                    operand,
                    whens,
                    else_,
                })
            }
            Rule::count_star => plain(ExprKind::CountStar),
            Rule::exists_subquery | Rule::count_subquery => {
                let rule = p.as_rule();
                let body = p
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::subquery_body)
                    .and_then(|b| b.into_inner().next())
                    .ok_or_else(|| internal(self.src, span.start))?;
                let body = match body.as_rule() {
                    Rule::query => SubqueryBody::Query(self.query(body)?),
                    _ => {
                        let mut pattern = Vec::new();
                        let mut where_ = None;
                        for x in body.into_inner() {
                            match x.as_rule() {
                                Rule::pattern => pattern = self.pattern(x)?,
                                Rule::where_clause => where_ = Some(self.where_clause(x)?),
                                _ => {}
                            }
                        }
                        SubqueryBody::Pattern { pattern, where_ }
                    }
                };
                if rule == Rule::exists_subquery {
                    plain(ExprKind::Exists(Box::new(body)))
                } else {
                    plain(ExprKind::CountSubquery(Box::new(body)))
                }
            }
            Rule::collect_subquery => {
                let q = p
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::query)
                    .ok_or_else(|| internal(self.src, span.start))?;
                plain(ExprKind::Collect(Box::new(self.query(q)?)))
            }
            Rule::quantified_expr => {
                let mut kind = None;
                let mut variable = None;
                let mut list = None;
                let mut filter = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::quantifier_kind => {
                            kind = x.into_inner().next().map(|k| match k.as_rule() {
                                Rule::ALL => QuantifierKind::All,
                                Rule::ANY_KW => QuantifierKind::Any,
                                Rule::NONE => QuantifierKind::None,
                                _ => QuantifierKind::Single,
                            })
                        }
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::expression => list = Some(Box::new(self.expr(x)?)),
                        Rule::comp_where => filter = Some(Box::new(self.inner_expr(x)?)),
                        _ => {}
                    }
                }
                match (kind, variable, list) {
                    (Some(kind), Some(variable), Some(list)) => plain(ExprKind::Quantified {
                        kind,
                        variable,
                        list,
                        filter,
                    }),
                    _ => Err(internal(self.src, span.start)),
                }
            }
            Rule::reduce_expr | Rule::all_reduce_expr => {
                let all = p.as_rule() == Rule::all_reduce_expr;
                let mut vars = Vec::new();
                let mut exprs = Vec::new();
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::variable => vars.push(self.ident(x)?),
                        Rule::expression => exprs.push(self.expr(x)?),
                        _ => {}
                    }
                }
                if vars.len() != 2 || exprs.len() != 3 + usize::from(all) {
                    return Err(internal(self.src, span.start));
                }
                let predicate = if all {
                    Some(Box::new(exprs.pop().ok_or_else(|| internal(self.src, 0))?))
                } else {
                    None
                };
                let expr = Box::new(exprs.pop().ok_or_else(|| internal(self.src, 0))?);
                let list = Box::new(exprs.pop().ok_or_else(|| internal(self.src, 0))?);
                let init = Box::new(exprs.pop().ok_or_else(|| internal(self.src, 0))?);
                let variable = vars.pop().ok_or_else(|| internal(self.src, 0))?;
                let accumulator = vars.pop().ok_or_else(|| internal(self.src, 0))?;
                plain(ExprKind::Reduce {
                    accumulator,
                    init,
                    variable,
                    list,
                    expr,
                    predicate,
                })
            }
            Rule::shortest_path => {
                let (all, chain, _) = self.shortest_path(p)?;
                plain(ExprKind::ShortestPath { all, chain })
            }
            Rule::name_atom => self.name_atom(p),
            Rule::trim_from => self.trim_from(p).map(|expr| Operand {
                expr,
                paren: false,
                height: 1,
            }),
            _ => Err(self.bad_tree(&p)),
        }
    }

    /// `trim([LEADING|TRAILING|BOTH] [chars] FROM input)` as Neo4j reads it: the call
    /// `trim(spec, [chars,] input)`, the specification a string literal spanning its keyword
    /// (an empty span where none is written; `BOTH`).
    pub(super) fn trim_from(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let span = span_of(&p);
        let mut name = None;
        let mut spec = None;
        let mut rest = Vec::new();
        let mut from_at = span.start;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::TRIM => name = Some(self.ident(x)?),
                Rule::trim_spec => {
                    let s = span_of(&x);
                    let word = x.as_str().to_ascii_uppercase();
                    spec = Some(Expr::new(ExprKind::Literal(Literal::String(word)), s));
                }
                Rule::trim_chars => {
                    let e = x
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, span.start))?;
                    rest.push(self.expr(e)?);
                }
                Rule::FROM => from_at = x.as_span().start(),
                Rule::expression => rest.push(self.expr(x)?),
                _ => {}
            }
        }
        let name = name.ok_or_else(|| internal(self.src, span.start))?;
        Ok(trim_call(name, spec, rest, from_at, span))
    }

    /// `n`, `n.a.b`, `ns.f(args)` or `n {.a, …}`.
    pub(super) fn name_atom(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        let span = span_of(&p);
        let mut names = Vec::new();
        let mut call = None;
        let mut projection = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::symbolic_name => names.push(self.ident(x)?),
                Rule::call_args => call = Some(x),
                Rule::map_proj_body => projection = Some(x),
                _ => {}
            }
        }
        let Some(first) = names.first() else {
            return Err(internal(self.src, span.start));
        };
        if let Some(args_pair) = call {
            let name_span = first.span.to(names[names.len() - 1].span);
            let mut distinct = false;
            let mut args = Vec::new();
            for x in args_pair.into_inner() {
                match x.as_rule() {
                    Rule::DISTINCT => distinct = true,
                    Rule::expression => args.push(self.expr(x)?),
                    _ => {}
                }
            }
            let name = QualifiedName {
                parts: names,
                span: name_span,
            };
            return Ok(Operand {
                expr: Expr::new(
                    ExprKind::FunctionCall {
                        name,
                        distinct,
                        args,
                    },
                    span,
                ),
                paren: false,
                height: 1,
            });
        }
        if let Some(body) = projection {
            if names.len() > 1 {
                return Err(self.err(
                    names[1].span.start - 1,
                    "a map projection applies to a variable: write `v {.key}`, not `v.prop {…}`",
                ));
            }
            let variable = names.pop().ok_or_else(|| internal(self.src, span.start))?;
            let items = self.map_projection_items(body)?;
            return Ok(Operand {
                expr: Expr::new(ExprKind::MapProjection { variable, items }, span),
                paren: false,
                height: 1,
            });
        }
        let height = names.len();
        if height > MAX_CHAIN {
            return Err(self.err(span.start, "property chain too long"));
        }
        let e = property_chain(names).ok_or_else(|| internal(self.src, span.start))?;
        Ok(Operand {
            expr: e,
            paren: false,
            height,
        })
    }

    pub(super) fn map_projection_items(&self, body: Pair<'_, Rule>) -> Res<Vec<MapProjectionItem>> {
        let mut items = Vec::new();
        for x in body.into_inner() {
            let start = x.as_span().start();
            match x.as_rule() {
                Rule::map_proj_all => items.push(MapProjectionItem::AllProperties(span_of(&x))),
                Rule::map_proj_prop => {
                    let k = x
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, start))?;
                    items.push(MapProjectionItem::Property(self.ident(k)?));
                }
                Rule::map_proj_entry => {
                    let mut it = x.into_inner();
                    let (Some(k), Some(v)) = (it.next(), it.next()) else {
                        return Err(internal(self.src, start));
                    };
                    items.push(MapProjectionItem::Entry(self.ident(k)?, self.expr(v)?));
                }
                Rule::map_proj_var => {
                    let v = x
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, start))?;
                    items.push(MapProjectionItem::Variable(self.ident(v)?));
                }
                _ => {}
            }
        }
        Ok(items)
    }

    pub(super) fn function_call(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let span = span_of(&p);
        let mut name = None;
        let mut distinct = false;
        let mut args = Vec::new();
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::qualified_name => name = Some(self.qualified_name(x)?),
                Rule::DISTINCT => distinct = true,
                Rule::expression => args.push(self.expr(x)?),
                _ => {}
            }
        }
        Ok(Expr::new(
            ExprKind::FunctionCall {
                name: name.ok_or_else(|| internal(self.src, span.start))?,
                distinct,
                args,
            },
            span,
        ))
    }

    pub(super) fn qualified_name(&self, p: Pair<'_, Rule>) -> Res<QualifiedName> {
        let span = span_of(&p);
        let mut parts = Vec::new();
        for x in p.into_inner() {
            parts.push(self.ident(x)?);
        }
        Ok(QualifiedName { parts, span })
    }

    /// An identifier from `variable`, `alias_name` or `symbolic_name`: backticks removed and
    /// doubled backticks undone.
    pub(super) fn ident(&self, p: Pair<'_, Rule>) -> Res<Ident> {
        let span = span_of(&p);
        let s = p.as_str();
        let name = match s.strip_prefix('`') {
            Some(rest) => rest.strip_suffix('`').unwrap_or(rest).replace("``", "`"),
            None => s.to_string(),
        };
        Ok(Ident { name, span })
    }

    /// The value of a string literal, escapes resolved.
    pub(super) fn string(&self, p: Pair<'_, Rule>) -> Res<String> {
        let inner = p.into_inner().next().ok_or_else(|| internal(self.src, 0))?;
        let base = inner.as_span().start();
        unescape(inner.as_str()).map_err(|(i, message)| self.err(base + i, message))
    }

    pub(super) fn cypher_type(&self, p: Pair<'_, Rule>) -> Res<CypherType> {
        let mut alts = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::type_single {
                alts.push(self.type_single(x)?);
            }
        }
        Ok(make_union(alts, false))
    }

    pub(super) fn type_single(&self, p: Pair<'_, Rule>) -> Res<CypherType> {
        let start = p.as_span().start();
        let mut base = None;
        let mut not_null = false;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::type_base => base = Some(self.type_base(x)?),
                Rule::type_not_null => not_null = true,
                _ => {}
            }
        }
        let mut t = base.ok_or_else(|| internal(self.src, start))?;
        t.not_null = t.not_null || not_null;
        Ok(t)
    }

    pub(super) fn type_base(&self, p: Pair<'_, Rule>) -> Res<CypherType> {
        let start = p.as_span().start();
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, start))?;
        let simple = |kind| {
            Ok(CypherType {
                kind,
                not_null: false,
            })
        };
        match inner.as_rule() {
            Rule::ty_any_union => {
                let t = inner
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::cypher_type)
                    .ok_or_else(|| internal(self.src, start))?;
                self.cypher_type(t)
            }
            Rule::ty_list => {
                let t = inner
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::cypher_type)
                    .ok_or_else(|| internal(self.src, start))?;
                simple(TypeKind::List(Box::new(self.cypher_type(t)?)))
            }
            Rule::ty_nothing => simple(TypeKind::Nothing),
            Rule::ty_null => simple(TypeKind::Null),
            Rule::ty_boolean => simple(TypeKind::Boolean),
            Rule::ty_string => simple(TypeKind::String),
            Rule::ty_integer => simple(TypeKind::Integer),
            Rule::ty_float => simple(TypeKind::Float),
            Rule::ty_date => simple(TypeKind::Date),
            Rule::ty_local_time => simple(TypeKind::LocalTime),
            Rule::ty_zoned_time => simple(TypeKind::ZonedTime),
            Rule::ty_local_datetime => simple(TypeKind::LocalDateTime),
            Rule::ty_zoned_datetime => simple(TypeKind::ZonedDateTime),
            Rule::ty_duration => simple(TypeKind::Duration),
            Rule::ty_point => simple(TypeKind::Point),
            Rule::ty_node => simple(TypeKind::Node),
            Rule::ty_relationship => simple(TypeKind::Relationship),
            Rule::ty_map => simple(TypeKind::Map),
            Rule::ty_path => simple(TypeKind::Path),
            Rule::ty_property_value => simple(TypeKind::PropertyValue),
            Rule::ty_any => simple(TypeKind::Any),
            _ => Err(self.bad_tree(&inner)),
        }
    }
}

/// `op rhs` (`op` written at `start`): a negative literal for `-` before a literal, else a
/// `Unary` node. (The one-sign-per-operand check is the caller's.)
pub(super) fn unary(op: UnaryOp, start: usize, rhs: Operand) -> Operand {
    let span = Span::new(start, rhs.expr.span.end);
    let height = rhs.height + 1;
    let expr = if op == UnaryOp::Neg && !rhs.paren {
        negate_literal(rhs.expr, span)
    } else {
        Expr::new(
            ExprKind::Unary {
                op,
                expr: Box::new(rhs.expr),
            },
            span,
        )
    };
    Operand {
        expr,
        paren: false,
        height,
    }
}

/// `lhs op rhs`: `a < b < c` becomes a comparison chain unless the left side was
/// parenthesized. (The chained-predicate check is the caller's.)
pub(super) fn binary(lhs: Operand, op: BinaryOp, rhs: Operand) -> Operand {
    let span = lhs.expr.span.to(rhs.expr.span);
    let height = lhs.height.max(rhs.height) + 1;
    let kind = if op.is_comparison() && !lhs.paren {
        match lhs.expr.kind {
            ExprKind::Binary {
                op: lop,
                lhs: l,
                rhs: r,
            } if lop.is_comparison() => ExprKind::Comparison {
                first: l,
                rest: vec![(lop, *r), (op, rhs.expr)],
            },
            ExprKind::Comparison { first, mut rest } => {
                rest.push((op, rhs.expr));
                ExprKind::Comparison { first, rest }
            }
            kind => ExprKind::Binary {
                op,
                lhs: Box::new(Expr::new(kind, lhs.expr.span)),
                rhs: Box::new(rhs.expr),
            },
        }
    } else {
        ExprKind::Binary {
            op,
            lhs: Box::new(lhs.expr),
            rhs: Box::new(rhs.expr),
        }
    };
    Operand {
        expr: Expr::new(kind, span),
        paren: false,
        height,
    }
}

/// The text of a string literal between its quotes with its escapes resolved; `Err` gives the
/// offset (from the start of `raw`) and the message of a bad escape.
pub(super) fn unescape(raw: &str) -> Result<String, (usize, String)> {
    if !raw.contains('\\') {
        return Ok(raw.to_string());
    }
    let mut out = String::with_capacity(raw.len());
    let mut it = raw.char_indices();
    while let Some((i, c)) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((_, e)) = it.next() else { break };
        match e {
            '\\' | '\'' | '"' | '`' => out.push(e),
            'b' | 'B' => out.push('\u{8}'),
            'f' | 'F' => out.push('\u{c}'),
            'n' | 'N' => out.push('\n'),
            'r' | 'R' => out.push('\r'),
            't' | 'T' => out.push('\t'),
            'u' | 'U' => {
                let n = if e == 'u' { 4 } else { 8 };
                let hex: String = (0..n).filter_map(|_| it.next().map(|(_, h)| h)).collect();
                let code = u32::from_str_radix(&hex, 16).ok();
                match code.and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => return Err((i, format!("`\\{e}{hex}` is not a Unicode scalar value"))),
                }
            }
            _ => return Err((i, "invalid escape sequence in string literal".to_string())),
        }
    }
    Ok(out)
}

/// Whether `e` is a string, list, null, type, normalization or LABELED test (the operators of
/// Neo4j's `comparisonExpression6`).
pub(super) fn is_predicate(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary { op, .. } => matches!(
            op,
            BinaryOp::RegexMatch
                | BinaryOp::StartsWith
                | BinaryOp::EndsWith
                | BinaryOp::Contains
                | BinaryOp::In
        ),
        ExprKind::IsNull { .. } | ExprKind::IsType { .. } | ExprKind::IsNormalized { .. } => true,
        ExprKind::HasLabels { labeled, .. } => *labeled,
        ExprKind::Unary {
            op: UnaryOp::Not,
            expr,
        } => matches!(expr.kind, ExprKind::HasLabels { labeled: true, .. }),
        _ => false,
    }
}

/// Whether `e` starts with a prefix operator or is a negative literal (a sign already taken).
pub(super) fn is_prefixed(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Unary { .. } => true,
        ExprKind::Literal(Literal::Integer(v)) => *v < 0,
        ExprKind::Literal(Literal::Float(v)) => v.is_sign_negative(),
        ExprKind::Literal(Literal::OutOfRange { text, .. }) => text.starts_with('-'),
        _ => false,
    }
}
