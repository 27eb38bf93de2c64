//! The builder for patterns: path chains, node and relationship patterns, quantifiers and
//! label expressions.

use super::*;

impl<'s> Builder<'s> {
    pub(super) fn pattern(&self, p: Pair<'_, Rule>) -> Res<Vec<PatternPart>> {
        let mut out = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::pattern_part {
                out.push(self.pattern_part(x)?);
            }
        }
        Ok(out)
    }

    pub(super) fn pattern_part(&self, p: Pair<'_, Rule>) -> Res<PatternPart> {
        let span = span_of(&p);
        let mut variable = None;
        let mut selector = None;
        let mut path = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => variable = Some(self.ident(x)?),
                Rule::path_selector => selector = Some(self.path_selector(x)?),
                Rule::shortest_path => {
                    let (all, chain, sspan) = self.shortest_path(x)?;
                    path = Some(PathExpr::ShortestFunction {
                        all,
                        chain,
                        span: sspan,
                    });
                }
                Rule::path_chain => path = Some(PathExpr::Chain(self.path_chain(x)?)),
                _ => {}
            }
        }
        Ok(PatternPart {
            variable,
            selector,
            path: path.ok_or_else(|| internal(self.src, span.start))?,
            span,
        })
    }

    pub(super) fn path_selector(&self, p: Pair<'_, Rule>) -> Res<PathSelector> {
        let start = p.as_span().start();
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, start))?;
        let rule = inner.as_rule();
        let mut k = None;
        for x in inner.into_inner() {
            if x.as_rule() == Rule::unsigned_int {
                k = Some(self.unsigned(&x)?);
            }
        }
        Ok(match rule {
            Rule::sel_any_shortest => PathSelector::AnyShortest,
            Rule::sel_all_shortest => PathSelector::AllShortest,
            Rule::sel_shortest_groups => PathSelector::ShortestGroups(k),
            Rule::sel_shortest_k => PathSelector::Shortest(k),
            Rule::sel_any => PathSelector::Any(k),
            _ => PathSelector::All,
        })
    }

    pub(super) fn shortest_path(&self, p: Pair<'_, Rule>) -> Res<(bool, PathChain, Span)> {
        let span = span_of(&p);
        let mut all = false;
        let mut chain = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::ALLSHORTESTPATHS => all = true,
                Rule::path_chain => chain = Some(self.path_chain(x)?),
                _ => {}
            }
        }
        Ok((
            all,
            chain.ok_or_else(|| internal(self.src, span.start))?,
            span,
        ))
    }

    pub(super) fn path_chain(&self, p: Pair<'_, Rule>) -> Res<PathChain> {
        let span = span_of(&p);
        let mut elements = Vec::new();
        for x in p.into_inner() {
            elements.push(match x.as_rule() {
                Rule::node_pattern => PathElement::Node(self.node_pattern(x)?),
                Rule::rel_pattern => PathElement::Relationship(self.rel_pattern(x)?),
                Rule::paren_path => PathElement::Group(Box::new(self.paren_path(x)?)),
                _ => continue,
            });
        }
        // Two node-like factors may stand side by side only when one of them is a
        // parenthesized path (GQL juxtaposition of quantified path patterns).
        for w in elements.windows(2) {
            match (&w[0], &w[1]) {
                (PathElement::Node(_), PathElement::Node(b)) => {
                    return Err(self.err(
                        b.span.start,
                        "expected a relationship pattern (`-->`, `<--`, `--`, `-[…]-`) between these node patterns",
                    ));
                }
                // As in Neo4j's grammar, a relationship pattern stands between two node
                // patterns, not next to a parenthesized path (`((a)-->(b))+ (c)-->(d)`).
                (PathElement::Group(_), PathElement::Relationship(r)) => {
                    let c = self.src[r.span.start..].chars().next().unwrap_or('-');
                    return Err(self.err(
                        r.span.start,
                        format!("Invalid input '{c}': expected a node pattern between a parenthesized path and a relationship (write `()`)"),
                    ));
                }
                (PathElement::Relationship(_), PathElement::Group(g)) => {
                    return Err(self.err(
                        g.span.start,
                        "Invalid input '(': expected a node pattern between a relationship and a parenthesized path (write `()`)",
                    ));
                }
                _ => {}
            }
        }
        Ok(PathChain { elements, span })
    }

    pub(super) fn paren_path(&self, p: Pair<'_, Rule>) -> Res<GroupPattern> {
        let span = span_of(&p);
        let mut g = GroupPattern {
            variable: None,
            chain: PathChain {
                elements: vec![],
                span,
            },
            where_: None,
            quantifier: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => g.variable = Some(self.ident(x)?),
                Rule::path_chain => g.chain = self.path_chain(x)?,
                Rule::where_clause => g.where_ = Some(self.where_clause(x)?),
                Rule::quantifier => g.quantifier = Some(self.quantifier(x)?),
                _ => {}
            }
        }
        Ok(g)
    }

    pub(super) fn node_pattern(&self, p: Pair<'_, Rule>) -> Res<NodePattern> {
        let span = span_of(&p);
        let mut n = NodePattern {
            variable: None,
            labels: None,
            properties: None,
            where_: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => n.variable = Some(self.ident(x)?),
                Rule::node_labels => n.labels = Some(self.node_labels(x)?),
                Rule::properties => n.properties = Some(self.properties(x)?),
                Rule::where_clause => n.where_ = Some(self.where_clause(x)?),
                _ => {}
            }
        }
        Ok(n)
    }

    pub(super) fn properties(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let start = p.as_span().start();
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, start))?;
        Ok(self.atom(inner)?.expr)
    }

    pub(super) fn rel_pattern(&self, p: Pair<'_, Rule>) -> Res<RelationshipPattern> {
        let span = span_of(&p);
        let mut left = false;
        let mut right = false;
        let mut r = RelationshipPattern {
            direction: Direction::Undirected,
            variable: None,
            types: None,
            length: None,
            properties: None,
            where_: None,
            quantifier: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::arrow_left => left = true,
                Rule::arrow_right => right = true,
                Rule::quantifier => r.quantifier = Some(self.quantifier(x)?),
                Rule::rel_detail => {
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::variable => r.variable = Some(self.ident(y)?),
                            Rule::rel_types => {
                                let lo = y
                                    .into_inner()
                                    .find(|z| z.as_rule() == Rule::label_or)
                                    .ok_or_else(|| internal(self.src, span.start))?;
                                r.types = Some(self.label_or(lo)?);
                            }
                            Rule::var_length => r.length = Some(self.var_length(y)?),
                            Rule::properties => r.properties = Some(self.properties(y)?),
                            Rule::where_clause => r.where_ = Some(self.where_clause(y)?),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        r.direction = direction(left, right);
        if r.length.is_some() && r.quantifier.is_some() {
            return Err(self.err(
                span.start,
                "a relationship cannot have both a variable length (`*`) and a quantifier",
            ));
        }
        Ok(r)
    }

    pub(super) fn var_length(&self, p: Pair<'_, Rule>) -> Res<VarLength> {
        let mut out = VarLength::Any;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::range_exact => out = VarLength::Exact(self.first_unsigned(x)?),
                Rule::range_bounds => {
                    let (min, max) = self.bounds(x)?;
                    out = VarLength::Range { min, max };
                }
                _ => {}
            }
        }
        Ok(out)
    }

    pub(super) fn bounds(&self, p: Pair<'_, Rule>) -> Res<(Option<u64>, Option<u64>)> {
        let mut min = None;
        let mut max = None;
        for y in p.into_inner() {
            match y.as_rule() {
                Rule::range_min => min = Some(self.first_unsigned(y)?),
                Rule::range_max => max = Some(self.first_unsigned(y)?),
                _ => {}
            }
        }
        Ok((min, max))
    }

    pub(super) fn quantifier(&self, p: Pair<'_, Rule>) -> Res<Quantifier> {
        let start = p.as_span().start();
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, start))?;
        Ok(match inner.as_rule() {
            Rule::quant_plus => Quantifier::Plus,
            Rule::quant_star => Quantifier::Star,
            _ => {
                let text_start = inner.as_span().start();
                let mut exact = None;
                let mut min = None;
                let mut max = None;
                for y in inner.into_inner() {
                    match y.as_rule() {
                        Rule::range_exact => exact = Some(self.first_unsigned(y)?),
                        Rule::range_min => min = Some(self.first_unsigned(y)?),
                        Rule::range_max => max = Some(self.first_unsigned(y)?),
                        _ => {}
                    }
                }
                if let (Some(a), Some(b)) = (min, max) {
                    if a > b {
                        return Err(self.err(
                            text_start,
                            format!("quantifier lower bound {a} is greater than upper bound {b}"),
                        ));
                    }
                }
                match exact {
                    Some(n) => Quantifier::Exact(n),
                    None => Quantifier::Range { min, max },
                }
            }
        })
    }

    pub(super) fn first_unsigned(&self, p: Pair<'_, Rule>) -> Res<u64> {
        let start = p.as_span().start();
        let x = p
            .into_inner()
            .find(|x| x.as_rule() == Rule::unsigned_int)
            .ok_or_else(|| internal(self.src, start))?;
        self.unsigned(&x)
    }

    pub(super) fn unsigned(&self, p: &Pair<'_, Rule>) -> Res<u64> {
        let text = p.as_str();
        match parse_int_magnitude(text) {
            Some(v) if v <= u64::MAX as u128 => Ok(v as u64),
            _ => Err(self.err(
                p.as_span().start(),
                format!("integer `{text}` is too large"),
            )),
        }
    }

    pub(super) fn node_labels(&self, p: Pair<'_, Rule>) -> Res<LabelExpr> {
        let span = span_of(&p);
        let mut parts = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::label_or {
                parts.push(self.label_or(x)?);
            }
        }
        match parts.len() {
            0 => Err(internal(self.src, span.start)),
            1 => Ok(parts.pop().unwrap_or(LabelExpr::Wildcard(span))),
            _ => Ok(LabelExpr::And(parts, span)),
        }
    }

    pub(super) fn label_or(&self, p: Pair<'_, Rule>) -> Res<LabelExpr> {
        let span = span_of(&p);
        let mut parts = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::label_and {
                parts.push(self.label_and(x)?);
            }
        }
        if parts.len() == 1 {
            return parts.pop().ok_or_else(|| internal(self.src, span.start));
        }
        Ok(LabelExpr::Or(parts, span))
    }

    pub(super) fn label_and(&self, p: Pair<'_, Rule>) -> Res<LabelExpr> {
        let span = span_of(&p);
        let mut parts = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::label_not {
                parts.push(self.label_not(x)?);
            }
        }
        if parts.len() == 1 {
            return parts.pop().ok_or_else(|| internal(self.src, span.start));
        }
        Ok(LabelExpr::And(parts, span))
    }

    pub(super) fn label_not(&self, p: Pair<'_, Rule>) -> Res<LabelExpr> {
        let span = span_of(&p);
        let mut negs = Vec::new();
        let mut atom = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::label_neg => negs.push(span_of(&x).start),
                Rule::label_any => atom = Some(LabelExpr::Wildcard(span_of(&x))),
                Rule::label_dynamic => atom = Some(self.label_dynamic(x)?),
                Rule::label_or => atom = Some(self.label_or(x)?),
                Rule::symbolic_name => atom = Some(LabelExpr::Name(self.ident(x)?)),
                _ => {}
            }
        }
        let mut e = atom.ok_or_else(|| internal(self.src, span.start))?;
        if negs.len() > MAX_CHAIN {
            return Err(self.err(span.start, "too many `!` in a label expression"));
        }
        for start in negs.into_iter().rev() {
            e = LabelExpr::Not(Box::new(e), Span::new(start, span.end));
        }
        Ok(e)
    }

    /// One path of `INSERT`: nodes and directed relationships, as `CREATE` would have them.
    pub(super) fn insert_part(&self, p: Pair<'_, Rule>) -> Res<PatternPart> {
        let span = span_of(&p);
        let mut variable = None;
        let mut elements = Vec::new();
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => variable = Some(self.ident(x)?),
                Rule::insert_node => elements.push(PathElement::Node(self.insert_node(x)?)),
                Rule::insert_rel => elements.push(PathElement::Relationship(self.insert_rel(x)?)),
                _ => {}
            }
        }
        if variable.is_some() {
            return Err(self.err(
                span.start,
                "Named patterns are not allowed in `INSERT`. Use `CREATE` instead or remove the name.",
            ));
        }
        let el_span = |e: &PathElement| match e {
            PathElement::Node(n) => n.span,
            PathElement::Relationship(r) => r.span,
            PathElement::Group(g) => g.span,
        };
        let chain_span = match (elements.first(), elements.last()) {
            (Some(a), Some(b)) => el_span(a).to(el_span(b)),
            _ => span,
        };
        Ok(PatternPart {
            variable,
            selector: None,
            path: PathExpr::Chain(PathChain {
                elements,
                span: chain_span,
            }),
            span,
        })
    }

    fn insert_node(&self, p: Pair<'_, Rule>) -> Res<NodePattern> {
        let span = span_of(&p);
        let mut n = NodePattern {
            variable: None,
            labels: None,
            properties: None,
            where_: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => n.variable = Some(self.ident(x)?),
                Rule::insert_labels => {
                    let lspan = span_of(&x);
                    let mut names = Vec::new();
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::symbolic_name => names.push(LabelExpr::Name(self.ident(y)?)),
                            Rule::insert_conj if y.as_str() == ":" => {
                                return Err(self.err(
                                    y.as_span().start(),
                                    "Colon `:` conjunction is not allowed in INSERT. Use `CREATE` or conjunction with ampersand `&` instead.",
                                ))
                            }
                            _ => {}
                        }
                    }
                    n.labels = Some(if names.len() == 1 {
                        names.pop().ok_or_else(|| internal(self.src, lspan.start))?
                    } else {
                        LabelExpr::And(names, lspan)
                    });
                }
                Rule::map_literal => n.properties = Some(self.atom(x)?.expr),
                _ => {}
            }
        }
        Ok(n)
    }

    fn insert_rel(&self, p: Pair<'_, Rule>) -> Res<RelationshipPattern> {
        let span = span_of(&p);
        let (mut left, mut right) = (false, false);
        let mut r = RelationshipPattern {
            direction: Direction::Undirected,
            variable: None,
            types: None,
            length: None,
            properties: None,
            where_: None,
            quantifier: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::arrow_left => left = true,
                Rule::arrow_right => right = true,
                Rule::variable => r.variable = Some(self.ident(x)?),
                Rule::symbolic_name => r.types = Some(LabelExpr::Name(self.ident(x)?)),
                Rule::map_literal => r.properties = Some(self.atom(x)?.expr),
                _ => {}
            }
        }
        r.direction = match (left, right) {
            (true, false) => Direction::Left,
            (false, true) => Direction::Right,
            _ => {
                return Err(self.err(
                    span.start,
                    "Only directed relationships are supported in INSERT",
                ))
            }
        };
        Ok(r)
    }

    /// `$(expr)`, `$all(expr)`, `$any(expr)`.
    fn label_dynamic(&self, p: Pair<'_, Rule>) -> Res<LabelExpr> {
        let span = span_of(&p);
        let mut mode = DynamicLabels::Plain;
        let mut expr = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::dynamic_all => mode = DynamicLabels::All,
                Rule::dynamic_any => mode = DynamicLabels::Any,
                Rule::expression => expr = Some(self.expr(x)?),
                _ => {}
            }
        }
        let expr = expr.ok_or_else(|| internal(self.src, span.start))?;
        Ok(LabelExpr::Dynamic {
            expr: Box::new(expr),
            mode,
            span,
        })
    }

    // ---- expressions ----
}
