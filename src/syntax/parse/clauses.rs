//! The builder for statements and clauses.

use super::*;

impl<'s> Builder<'s> {
    pub(super) fn statement(&self, p: Pair<'_, Rule>) -> Res<Statement> {
        let span = span_of(&p);
        let mut prefix = None;
        let mut cypher: Option<CypherPrefix> = None;
        let mut query = None;
        let mut use_ = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::query_prefix => {
                    let Some(kw) = c.into_inner().next() else {
                        continue;
                    };
                    match kw.as_rule() {
                        Rule::PROFILE => prefix = Some(QueryPrefix::Profile.with(prefix)),
                        Rule::EXPLAIN => prefix = Some(QueryPrefix::Explain.with(prefix)),
                        _ => {
                            // `CYPHER …`: a later prefix's version wins, options add up.
                            let mut c = cypher.take().unwrap_or(CypherPrefix {
                                version: None,
                                options: Vec::new(),
                                span: span_of(&kw),
                            });
                            c.span = c.span.to(span_of(&kw));
                            for x in kw.into_inner() {
                                match x.as_rule() {
                                    Rule::cypher_version => c.version = Some(x.as_str().into()),
                                    Rule::cypher_option => {
                                        let mut kv = x.into_inner();
                                        let (Some(k), Some(v)) = (kv.next(), kv.next()) else {
                                            continue;
                                        };
                                        c.options.push((self.ident(k)?, self.ident(v)?));
                                    }
                                    _ => {}
                                }
                            }
                            cypher = Some(c);
                        }
                    }
                }
                Rule::query => query = Some(self.query(c)?),
                // `USE db CREATE INDEX …`: the graph a schema command applies to.
                Rule::use_clause => use_ = self.clause(c)?,
                Rule::schema_command => query = Some(self.schema_command(c)?),
                Rule::admin_command => query = Some(self.admin_command(c)?),
                _ => {}
            }
        }
        let mut query = query.ok_or_else(|| internal(self.src, span.start))?;
        if let Some(u) = use_ {
            query.first.span = u.span().to(query.first.span);
            query.span = query.first.span;
            query.first.clauses.insert(0, u);
        }
        Ok(Statement {
            cypher,
            prefix,
            query,
            span,
        })
    }

    pub(super) fn query(&self, p: Pair<'_, Rule>) -> Res<Query> {
        let span = span_of(&p);
        // `q NEXT q …`: the parts between NEXT keywords, each a query of its own.
        let mut segments: Vec<Vec<Pair<'_, Rule>>> = vec![Vec::new()];
        for c in p.into_inner() {
            if c.as_rule() == Rule::next_kw {
                segments.push(Vec::new());
            } else if let Some(last) = segments.last_mut() {
                last.push(c);
            }
        }
        if segments.len() == 1 {
            let parts = segments.pop().unwrap_or_default();
            return self.query_part(parts, span);
        }
        let mut queries = Vec::new();
        for parts in segments {
            let pspan = match (parts.first(), parts.last()) {
                (Some(a), Some(b)) => span_of(a).to(span_of(b)),
                _ => span,
            };
            queries.push(self.query_part(parts, pspan)?);
        }
        Ok(Query {
            first: SingleQuery {
                clauses: vec![Clause::Next(NextChain { queries, span })],
                span,
            },
            unions: Vec::new(),
            span,
        })
    }

    /// A query without NEXT: single queries joined by UNION, or a conditional query.
    fn query_part(&self, pairs: Vec<Pair<'_, Rule>>, span: Span) -> Res<Query> {
        let mut first = None;
        let mut unions = Vec::new();
        let mut pending: Option<(bool, Span)> = None;
        for c in pairs {
            match c.as_rule() {
                Rule::when_query => {
                    let clause = Clause::When(self.when_query(c)?);
                    first = Some(SingleQuery {
                        clauses: vec![clause],
                        span,
                    });
                }
                Rule::single_query => {
                    let sq = self.single_query(c)?;
                    match pending.take() {
                        None => first = Some(sq),
                        Some((all, uspan)) => unions.push(UnionPart {
                            all,
                            span: uspan.to(sq.span),
                            query: sq,
                        }),
                    }
                }
                Rule::union => {
                    let uspan = span_of(&c);
                    let all = c.into_inner().any(|k| k.as_rule() == Rule::ALL);
                    pending = Some((all, uspan));
                }
                _ => {}
            }
        }
        let first = first.ok_or_else(|| internal(self.src, span.start))?;
        Ok(Query {
            first,
            unions,
            span,
        })
    }

    /// `WHEN cond THEN q … [ELSE q]`.
    fn when_query(&self, p: Pair<'_, Rule>) -> Res<Conditional> {
        let span = span_of(&p);
        let mut branches = Vec::new();
        let mut else_ = None;
        for b in p.into_inner() {
            let bspan = span_of(&b);
            let rule = b.as_rule();
            let mut condition = None;
            let mut body = None;
            for x in b.into_inner() {
                match x.as_rule() {
                    Rule::expression => condition = Some(self.expr(x)?),
                    Rule::single_query => body = Some(self.single_query(x)?),
                    _ => {}
                }
            }
            let body = body.ok_or_else(|| internal(self.src, bspan.start))?;
            let query = Query {
                span: body.span,
                first: body,
                unions: Vec::new(),
            };
            match (rule, condition) {
                (Rule::when_branch, Some(condition)) => branches.push(WhenBranch {
                    condition,
                    query,
                    span: bspan,
                }),
                (Rule::else_branch, None) => else_ = Some(Box::new(query)),
                _ => return Err(internal(self.src, bspan.start)),
            }
        }
        Ok(Conditional {
            branches,
            else_,
            span,
        })
    }

    pub(super) fn single_query(&self, p: Pair<'_, Rule>) -> Res<SingleQuery> {
        let span = span_of(&p);
        if let Some(b) = p
            .clone()
            .into_inner()
            .find(|x| x.as_rule() == Rule::braced_query)
        {
            let bspan = span_of(&b);
            let inner = b
                .into_inner()
                .find(|x| x.as_rule() == Rule::query)
                .ok_or_else(|| internal(self.src, bspan.start))?;
            return Ok(SingleQuery {
                clauses: vec![Clause::Braced(Braced {
                    query: Box::new(self.query(inner)?),
                    span: bspan,
                })],
                span,
            });
        }
        let clauses = self.clauses(p.into_inner())?;
        if clauses.len() > 1 {
            for c in &clauses {
                if let Clause::CallProcedure(call) = c {
                    if call.args.is_none() {
                        return Err(self.err(
                            call.name.span.end,
                            format!(
                                "procedure call inside a larger query needs parentheses: write `CALL {}(…)` \
                                 (arguments may be omitted only when CALL is the whole query)",
                                call.name.dotted()
                            ),
                        ));
                    }
                    if let Some(y) = &call.yield_ {
                        if y.star {
                            return Err(self.err(
                                y.span.start,
                                "`YIELD *` is only allowed when CALL is the whole query; name the fields to yield",
                            ));
                        }
                    }
                }
            }
        }
        Ok(SingleQuery { clauses, span })
    }

    pub(super) fn clauses(&self, pairs: Pairs<'_, Rule>) -> Res<Vec<Clause>> {
        let mut out = Vec::new();
        for c in pairs {
            if let Some(cl) = self.clause(c)? {
                out.push(cl);
            }
        }
        Ok(out)
    }

    /// Converts a clause pair; keyword pairs and other tokens yield `None`.
    pub(super) fn clause(&self, c: Pair<'_, Rule>) -> Res<Option<Clause>> {
        let span = span_of(&c);
        Ok(Some(match c.as_rule() {
            Rule::match_clause => Clause::Match(self.match_clause(c)?),
            Rule::with_clause => {
                let mut projection = None;
                let mut where_ = None;
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::projection_body => projection = Some(self.projection(x)?),
                        Rule::where_clause => where_ = Some(self.where_clause(x)?),
                        _ => {}
                    }
                }
                Clause::With(With {
                    projection: projection.ok_or_else(|| internal(self.src, span.start))?,
                    where_,
                    span,
                })
            }
            Rule::return_clause => {
                let body = c
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::projection_body)
                    .ok_or_else(|| internal(self.src, span.start))?;
                Clause::Return(Return {
                    projection: self.projection(body)?,
                    span,
                })
            }
            Rule::unwind_clause => {
                let mut expr = None;
                let mut var = None;
                let mut for_in = false;
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::expression => expr = Some(self.expr(x)?),
                        Rule::alias_name => var = Some(self.ident(x)?),
                        Rule::FOR => for_in = true,
                        _ => {}
                    }
                }
                match (expr, var) {
                    (Some(expr), Some(variable)) => Clause::Unwind(Unwind {
                        expr,
                        variable,
                        for_in,
                        span,
                    }),
                    _ => return Err(internal(self.src, span.start)),
                }
            }
            Rule::call_subquery => Clause::CallSubquery(self.call_subquery(c)?),
            Rule::call_procedure => Clause::CallProcedure(self.call_procedure(c)?),
            Rule::create_clause => {
                let pat = c
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::pattern)
                    .ok_or_else(|| internal(self.src, span.start))?;
                Clause::Create(Create {
                    pattern: self.pattern(pat)?,
                    insert: false,
                    span,
                })
            }
            Rule::insert_clause => {
                let mut pattern = Vec::new();
                for x in c.into_inner() {
                    if x.as_rule() == Rule::insert_part {
                        pattern.push(self.insert_part(x)?);
                    }
                }
                Clause::Create(Create {
                    pattern,
                    insert: true,
                    span,
                })
            }
            Rule::merge_clause => {
                let mut pattern = None;
                let mut actions = Vec::new();
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::pattern_part => pattern = Some(self.pattern_part(x)?),
                        Rule::merge_action => {
                            let aspan = span_of(&x);
                            let mut on_create = false;
                            let mut items = Vec::new();
                            for y in x.into_inner() {
                                match y.as_rule() {
                                    Rule::CREATE => on_create = true,
                                    Rule::set_item => items.push(self.set_item(y)?),
                                    _ => {}
                                }
                            }
                            actions.push(MergeAction {
                                on_create,
                                items,
                                span: aspan,
                            });
                        }
                        _ => {}
                    }
                }
                Clause::Merge(Merge {
                    pattern: pattern.ok_or_else(|| internal(self.src, span.start))?,
                    actions,
                    span,
                })
            }
            Rule::set_clause => {
                let mut items = Vec::new();
                for x in c.into_inner() {
                    if x.as_rule() == Rule::set_item {
                        items.push(self.set_item(x)?);
                    }
                }
                Clause::Set(SetClause { items, span })
            }
            Rule::remove_clause => {
                let mut items = Vec::new();
                for x in c.into_inner() {
                    if x.as_rule() == Rule::remove_item {
                        items.push(self.remove_item(x)?);
                    }
                }
                Clause::Remove(Remove { items, span })
            }
            Rule::delete_clause => {
                let mut detach = false;
                let mut exprs = Vec::new();
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::DETACH => detach = true,
                        Rule::expression => exprs.push(self.expr(x)?),
                        _ => {}
                    }
                }
                Clause::Delete(Delete {
                    detach,
                    exprs,
                    span,
                })
            }
            Rule::foreach_clause => {
                let mut variable = None;
                let mut list = None;
                let mut clauses = Vec::new();
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::expression => list = Some(self.expr(x)?),
                        _ => {
                            if let Some(cl) = self.clause(x)? {
                                clauses.push(cl);
                            }
                        }
                    }
                }
                match (variable, list) {
                    (Some(variable), Some(list)) => Clause::Foreach(Foreach {
                        variable,
                        list,
                        clauses,
                        span,
                    }),
                    _ => return Err(internal(self.src, span.start)),
                }
            }
            Rule::load_csv_clause => {
                let mut with_headers = false;
                let mut source = None;
                let mut variable = None;
                let mut field_terminator = None;
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::with_headers => with_headers = true,
                        Rule::expression => source = Some(self.expr(x)?),
                        Rule::alias_name => variable = Some(self.ident(x)?),
                        Rule::string_lit => field_terminator = Some(self.string(x)?),
                        _ => {}
                    }
                }
                match (source, variable) {
                    (Some(source), Some(variable)) => Clause::LoadCsv(LoadCsv {
                        with_headers,
                        source,
                        variable,
                        field_terminator,
                        span,
                    }),
                    _ => return Err(internal(self.src, span.start)),
                }
            }
            Rule::use_clause => {
                let gref = c
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::graph_ref)
                    .and_then(|g| g.into_inner().next())
                    .ok_or_else(|| internal(self.src, span.start))?;
                let graph = match gref.as_rule() {
                    Rule::function_call => self.function_call(gref)?,
                    _ => {
                        let name = self.qualified_name(gref)?;
                        property_chain(name.parts).ok_or_else(|| internal(self.src, span.start))?
                    }
                };
                Clause::Use(Use { graph, span })
            }
            Rule::finish_clause => Clause::Finish(span),
            Rule::let_clause => {
                let mut items = Vec::new();
                for item in c.into_inner().filter(|x| x.as_rule() == Rule::let_item) {
                    let mut parts = item.into_inner();
                    let (Some(name), Some(expr)) = (parts.next(), parts.next()) else {
                        return Err(internal(self.src, span.start));
                    };
                    items.push((self.ident(name)?, self.expr(expr)?));
                }
                Clause::Let(Let { items, span })
            }
            Rule::filter_clause => {
                let predicate = c
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::expression)
                    .ok_or_else(|| internal(self.src, span.start))?;
                Clause::Filter(Filter {
                    predicate: self.expr(predicate)?,
                    span,
                })
            }
            Rule::show_clause => Clause::Show(Box::new(self.show_clause(c)?)),
            _ => return Ok(None),
        }))
    }

    pub(super) fn match_clause(&self, c: Pair<'_, Rule>) -> Res<Match> {
        let span = span_of(&c);
        let mut m = Match {
            optional: false,
            mode: None,
            pattern: Vec::new(),
            hints: Vec::new(),
            where_: None,
            search: None,
            where_after_search: false,
            span,
        };
        for x in c.into_inner() {
            match x.as_rule() {
                Rule::OPTIONAL => m.optional = true,
                Rule::search_clause => m.search = Some(Box::new(self.search_clause(x)?)),
                Rule::match_mode => {
                    let repeatable = x.into_inner().any(|k| k.as_rule() == Rule::REPEATABLE);
                    m.mode = Some(if repeatable {
                        MatchMode::RepeatableElements
                    } else {
                        MatchMode::DifferentRelationships
                    });
                }
                Rule::pattern => m.pattern = self.pattern(x)?,
                Rule::hint => m.hints.push(self.hint(x)?),
                Rule::where_clause => {
                    m.where_after_search = m.search.is_some();
                    m.where_ = Some(self.where_clause(x)?);
                }
                _ => {}
            }
        }
        Ok(m)
    }

    /// `search_clause = { SEARCH ~ variable ~ IN ~ "(" ~ search_kind ~ INDEX ~ schema_name ~ FOR
    /// ~ expression ~ search_filter? ~ skip? ~ limit ~ ")" ~ search_score? }`
    fn search_clause(&self, c: Pair<'_, Rule>) -> Res<Search> {
        let span = span_of(&c);
        let mut variable = None;
        let mut fulltext = false;
        let mut index = None;
        let mut query = None;
        let mut filter = None;
        let mut skip = None;
        let mut limit = None;
        let mut score = None;
        for x in c.into_inner() {
            match x.as_rule() {
                Rule::variable => variable = Some(self.ident(x)?),
                Rule::search_kind => {
                    fulltext = x.into_inner().any(|k| k.as_rule() == Rule::FULLTEXT);
                }
                Rule::schema_name => index = Some(self.schema_name(x)?),
                Rule::expression => query = Some(self.expr(x)?),
                Rule::search_filter => filter = Some(self.inner_expr(x)?),
                Rule::skip => {
                    let word = x.as_str().split_whitespace().next().unwrap_or("SKIP");
                    let at = span_of(&x);
                    skip = Some((word.to_ascii_uppercase(), at, self.inner_expr(x)?));
                }
                Rule::limit => limit = Some(self.inner_expr(x)?),
                Rule::search_score => {
                    if let Some(v) = x.into_inner().find(|v| v.as_rule() == Rule::variable) {
                        score = Some(self.ident(v)?);
                    }
                }
                _ => {}
            }
        }
        let missing = || internal(self.src, span.start);
        Ok(Search {
            variable: variable.ok_or_else(missing)?,
            fulltext,
            index: index.ok_or_else(missing)?,
            query: query.ok_or_else(missing)?,
            filter,
            skip,
            limit: limit.ok_or_else(missing)?,
            score,
            span,
        })
    }

    pub(super) fn hint(&self, p: Pair<'_, Rule>) -> Res<Hint> {
        let span = span_of(&p);
        let inner = p
            .into_inner()
            .find(|x| {
                matches!(
                    x.as_rule(),
                    Rule::hint_index | Rule::hint_scan | Rule::hint_join
                )
            })
            .ok_or_else(|| internal(self.src, span.start))?;
        let rule = inner.as_rule();
        let mut kind = None;
        let mut seek = false;
        let mut vars = Vec::new();
        let mut names = Vec::new();
        for x in inner.into_inner() {
            match x.as_rule() {
                Rule::index_kind => kind = Some(x.as_str().to_ascii_uppercase()),
                Rule::SEEK => seek = true,
                Rule::variable => vars.push(self.ident(x)?),
                Rule::symbolic_name => names.push(self.ident(x)?),
                _ => {}
            }
        }
        let bad = || internal(self.src, span.start);
        Ok(match rule {
            Rule::hint_index => {
                let variable = vars.pop().ok_or_else(bad)?;
                if names.is_empty() {
                    return Err(bad());
                }
                let label = names.remove(0);
                Hint::Index {
                    kind,
                    seek,
                    variable,
                    label,
                    properties: names,
                    span,
                }
            }
            Rule::hint_scan => Hint::Scan {
                variable: vars.pop().ok_or_else(bad)?,
                label: names.pop().ok_or_else(bad)?,
                span,
            },
            _ => Hint::Join {
                variables: vars,
                span,
            },
        })
    }

    pub(super) fn where_clause(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let span = span_of(&p);
        let e = p
            .into_inner()
            .find(|x| x.as_rule() == Rule::expression)
            .ok_or_else(|| internal(self.src, span.start))?;
        self.expr(e)
    }

    pub(super) fn projection(&self, p: Pair<'_, Rule>) -> Res<Projection> {
        let span = span_of(&p);
        let mut pr = Projection {
            distinct: false,
            all: false,
            star: false,
            items: Vec::new(),
            group_by: None,
            order_by: Vec::new(),
            skip: None,
            limit: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::DISTINCT => pr.distinct = true,
                Rule::projection_all => pr.all = true,
                Rule::projection_items => {
                    for it in x.into_inner() {
                        match it.as_rule() {
                            Rule::projection_star => pr.star = true,
                            Rule::projection_item => {
                                let ispan = span_of(&it);
                                let mut expr = None;
                                let mut alias = None;
                                for y in it.into_inner() {
                                    match y.as_rule() {
                                        Rule::expression => expr = Some(self.expr(y)?),
                                        Rule::alias_name => alias = Some(self.ident(y)?),
                                        _ => {}
                                    }
                                }
                                pr.items.push(ProjectionItem {
                                    expr: expr.ok_or_else(|| internal(self.src, ispan.start))?,
                                    alias,
                                    span: ispan,
                                });
                            }
                            _ => {}
                        }
                    }
                }
                Rule::group_by => pr.group_by = Some(self.group_by(x)?),
                Rule::order_by => pr.order_by = self.sort_items(x)?,
                Rule::skip => pr.skip = Some(self.inner_expr(x)?),
                Rule::limit => pr.limit = Some(self.inner_expr(x)?),
                _ => {}
            }
        }
        Ok(pr)
    }

    /// `GROUP BY ALL | () | key, …`
    fn group_by(&self, p: Pair<'_, Rule>) -> Res<GroupBy> {
        let span = span_of(&p);
        let mut keys = GroupKeys::Empty;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::group_all => keys = GroupKeys::All,
                Rule::group_none => keys = GroupKeys::Empty,
                Rule::group_keys | Rule::group_key => {
                    keys = GroupKeys::Exprs(
                        x.into_inner()
                            .filter(|y| y.as_rule() == Rule::expression)
                            .map(|y| self.expr(y))
                            .collect::<Res<_>>()?,
                    )
                }
                _ => {}
            }
        }
        Ok(GroupBy { keys, span })
    }

    /// The first `expression` child of `p`.
    pub(super) fn inner_expr(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let start = p.as_span().start();
        let e = p
            .into_inner()
            .find(|x| x.as_rule() == Rule::expression)
            .ok_or_else(|| internal(self.src, start))?;
        self.expr(e)
    }

    pub(super) fn call_subquery(&self, p: Pair<'_, Rule>) -> Res<CallSubquery> {
        let span = span_of(&p);
        let mut optional = false;
        let mut scope = None;
        let mut query = None;
        let mut in_transactions = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::OPTIONAL => optional = true,
                Rule::subquery_scope => {
                    let mut vars = Vec::new();
                    let mut all = false;
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::scope_all => all = true,
                            Rule::variable => vars.push(self.ident(y)?),
                            _ => {}
                        }
                    }
                    scope = Some(if all {
                        SubqueryScope::All
                    } else {
                        SubqueryScope::Variables(vars)
                    });
                }
                Rule::query => query = Some(self.query(x)?),
                Rule::in_transactions => {
                    let tspan = span_of(&x);
                    let mut t = InTransactions {
                        concurrency: None,
                        batch_size: None,
                        on_error: None,
                        retry_for: None,
                        retry_then: None,
                        report_status: None,
                        span: tspan,
                    };
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::tx_concurrency => {
                                let e = y.into_inner().find(|z| z.as_rule() == Rule::expression);
                                t.concurrency = Some(match e {
                                    Some(e) => Some(self.expr(e)?),
                                    None => None,
                                });
                            }
                            Rule::tx_batch => t.batch_size = Some(self.inner_expr(y)?),
                            Rule::tx_on_error => {
                                let kind = |k: &Pair<'_, Rule>| match k.as_rule() {
                                    Rule::CONTINUE => Some(OnError::Continue),
                                    Rule::BREAK => Some(OnError::Break),
                                    Rule::FAIL => Some(OnError::Fail),
                                    _ => None,
                                };
                                for k in y.into_inner() {
                                    if k.as_rule() != Rule::tx_retry {
                                        t.on_error = kind(&k).or(t.on_error);
                                        continue;
                                    }
                                    t.on_error = Some(OnError::Retry);
                                    for r in k.into_inner() {
                                        match r.as_rule() {
                                            Rule::expression => t.retry_for = Some(self.expr(r)?),
                                            Rule::tx_retry_then => {
                                                t.retry_then = r.into_inner().find_map(|z| kind(&z))
                                            }
                                            _ => {}
                                        }
                                    }
                                }
                            }
                            Rule::tx_report => {
                                for k in y.into_inner() {
                                    if k.as_rule() == Rule::alias_name {
                                        t.report_status = Some(self.ident(k)?);
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                    in_transactions = Some(t);
                }
                _ => {}
            }
        }
        Ok(CallSubquery {
            optional,
            scope,
            query: Box::new(query.ok_or_else(|| internal(self.src, span.start))?),
            in_transactions,
            span,
        })
    }

    pub(super) fn call_procedure(&self, p: Pair<'_, Rule>) -> Res<CallProcedure> {
        let span = span_of(&p);
        let mut optional = false;
        let mut name = None;
        let mut args = None;
        let mut yield_ = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::OPTIONAL => optional = true,
                Rule::qualified_name => name = Some(self.qualified_name(x)?),
                Rule::proc_args => {
                    let mut v = Vec::new();
                    for y in x.into_inner() {
                        if y.as_rule() == Rule::expression {
                            v.push(self.expr(y)?);
                        }
                    }
                    args = Some(v);
                }
                Rule::yield_clause => yield_ = Some(self.yield_spec(x)?),
                _ => {}
            }
        }
        Ok(CallProcedure {
            optional,
            name: name.ok_or_else(|| internal(self.src, span.start))?,
            args,
            yield_,
            span,
        })
    }

    pub(super) fn set_item(&self, p: Pair<'_, Rule>) -> Res<SetItem> {
        let span = span_of(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, span.start))?;
        match inner.as_rule() {
            Rule::set_labels => {
                let (variable, labels) = self.set_labels(inner)?;
                Ok(SetItem::Labels {
                    variable,
                    labels,
                    span,
                })
            }
            Rule::set_property => {
                let mut it = inner.into_inner();
                let (Some(t), Some(v)) = (it.next(), it.next()) else {
                    return Err(internal(self.src, span.start));
                };
                self.check_property_target(&t)?;
                let target = self.postfix_expr(t)?.expr;
                let value = self.expr(v)?;
                match target.kind {
                    ExprKind::Variable(variable) => Ok(SetItem::Variable {
                        variable,
                        value,
                        merge: false,
                        span,
                    }),
                    ExprKind::Property { .. } | ExprKind::Index { .. } => Ok(SetItem::Property {
                        target,
                        value,
                        span,
                    }),
                    _ => Err(self.err(
                        target.span.start,
                        "SET needs a property (`n.key`), a variable (`n = {…}`) or labels (`n:Label`) here",
                    )),
                }
            }
            Rule::set_variable => {
                let mut variable = None;
                let mut merge = false;
                let mut value = None;
                for x in inner.into_inner() {
                    match x.as_rule() {
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::set_op => merge = x.as_str() == "+=",
                        Rule::expression => value = Some(self.expr(x)?),
                        _ => {}
                    }
                }
                match (variable, value) {
                    (Some(variable), Some(value)) => Ok(SetItem::Variable {
                        variable,
                        value,
                        merge,
                        span,
                    }),
                    _ => Err(internal(self.src, span.start)),
                }
            }
            _ => Err(self.bad_tree(&inner)),
        }
    }

    /// SET and REMOVE take a list of labels (`:A:B`, `IS A:B`, `:$(expr)`), not a label
    /// expression: no `|`, `&`, `!`, `%` or parentheses, as in Neo4j's grammar.
    fn plain_label_list(&self, labels: &Pair<'_, Rule>) -> Res<()> {
        for or in labels.clone().into_inner() {
            if or.as_rule() != Rule::label_or {
                continue;
            }
            let text = or.as_str();
            let at = or.as_span().start();
            if let Some(c) = text.chars().next().filter(|c| matches!(c, '!' | '(' | '%')) {
                return Err(self.err(
                    at,
                    format!("Invalid input '{c}': expected an identifier or '$'"),
                ));
            }
            // One name or `$(…)`: then nothing may follow within this label.
            let first = or
                .clone()
                .into_inner()
                .next()
                .and_then(|and| and.into_inner().next())
                .map(|not| not.as_span().end());
            if let Some(end) = first {
                let rest = &self.src[end..or.as_span().end()];
                let skipped = rest.len() - rest.trim_start().len();
                if let Some(c) = rest.trim_start().chars().next() {
                    return Err(self.err(
                        end + skipped,
                        format!("Invalid input '{c}': expected ',', ':' or the next clause"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The target of `SET target = …` / `REMOVE target`: an atom (a variable, a parenthesized
    /// expression, …) with property lookups (`n.a.b`), or an atom with one subscript
    /// (`n[key]`), as in Neo4j's grammar.
    fn check_property_target(&self, p: &Pair<'_, Rule>) -> Res<()> {
        let postfix: Vec<Pair<'_, Rule>> = p.clone().into_inner().skip(1).collect();
        let props = postfix.iter().all(|x| x.as_rule() == Rule::prop_lookup);
        let subscript = postfix.len() == 1
            && postfix[0].as_rule() == Rule::subscript
            && postfix[0]
                .clone()
                .into_inner()
                .next()
                .is_some_and(|i| i.as_rule() != Rule::slice);
        if postfix.is_empty() || props || subscript {
            return Ok(());
        }
        // The first postfix that breaks the form.
        let bad = if postfix[0].as_rule() == Rule::subscript && !subscript && postfix.len() > 1 {
            &postfix[1]
        } else {
            postfix
                .iter()
                .find(|x| x.as_rule() != Rule::prop_lookup)
                .unwrap_or(&postfix[0])
        };
        let at = bad.as_span().start();
        let c = self.src[at..].chars().next().unwrap_or(' ');
        Err(self.err(
            at,
            format!(
                "Invalid input '{c}': a property to set or remove is `atom.key` or `atom[key]` \
                 (parenthesize the expression before it)"
            ),
        ))
    }

    pub(super) fn set_labels(&self, p: Pair<'_, Rule>) -> Res<(Ident, LabelExpr)> {
        let start = p.as_span().start();
        let mut variable = None;
        let mut labels = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => variable = Some(self.ident(x)?),
                Rule::node_labels => {
                    self.plain_label_list(&x)?;
                    labels = Some(self.node_labels(x)?)
                }
                _ => {}
            }
        }
        // SET and REMOVE take names and `$(expr)` only: `$all(…)`/`$any(…)` are refused there
        // as Neo4j's parser refuses them.
        if let Some(l) = &labels {
            let mut bad = None;
            fn find(l: &LabelExpr, bad: &mut Option<Span>) {
                match l {
                    LabelExpr::Dynamic { mode, span, .. } if *mode != DynamicLabels::Plain => {
                        bad.get_or_insert(*span);
                    }
                    LabelExpr::And(xs, _) | LabelExpr::Or(xs, _) => {
                        xs.iter().for_each(|x| find(x, bad))
                    }
                    LabelExpr::Not(x, _) => find(x, bad),
                    _ => {}
                }
            }
            find(l, &mut bad);
            if let Some(span) = bad {
                let word = self.src[span.start + 1..span.end]
                    .trim_start()
                    .split('(')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string();
                let at = span.start + 1 + self.src[span.start + 1..].len()
                    - self.src[span.start + 1..].trim_start().len();
                return Err(self.err(at, format!("Invalid input '{word}': expected '('")));
            }
        }
        match (variable, labels) {
            (Some(v), Some(l)) => Ok((v, l)),
            _ => Err(internal(self.src, start)),
        }
    }

    pub(super) fn remove_item(&self, p: Pair<'_, Rule>) -> Res<RemoveItem> {
        let span = span_of(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, span.start))?;
        match inner.as_rule() {
            Rule::set_labels => {
                let (variable, labels) = self.set_labels(inner)?;
                Ok(RemoveItem::Labels {
                    variable,
                    labels,
                    span,
                })
            }
            Rule::postfix_expr => {
                self.check_property_target(&inner)?;
                let target = self.postfix_expr(inner)?.expr;
                match target.kind {
                    ExprKind::Property { .. } | ExprKind::Index { .. } => {
                        Ok(RemoveItem::Property { target, span })
                    }
                    _ => Err(self.err(
                        target.span.start,
                        "REMOVE needs a property (`n.key`) or labels (`n:Label`) here",
                    )),
                }
            }
            _ => Err(self.bad_tree(&inner)),
        }
    }

    // ---- patterns ----

    /// `ORDER BY a, b DESC`.
    pub(super) fn sort_items(&self, x: Pair<'_, Rule>) -> Res<Vec<SortItem>> {
        let mut out = Vec::new();
        for s in x.into_inner() {
            if s.as_rule() != Rule::sort_item {
                continue;
            }
            let sspan = span_of(&s);
            let mut expr = None;
            let mut descending = false;
            let mut explicit = false;
            for y in s.into_inner() {
                match y.as_rule() {
                    Rule::expression => expr = Some(self.expr(y)?),
                    Rule::sort_dir => {
                        explicit = true;
                        descending = y
                            .into_inner()
                            .any(|k| matches!(k.as_rule(), Rule::DESC | Rule::DESCENDING));
                    }
                    _ => {}
                }
            }
            out.push(SortItem {
                expr: expr.ok_or_else(|| internal(self.src, sspan.start))?,
                descending,
                explicit,
                span: sspan,
            });
        }
        Ok(out)
    }

    /// `YIELD * | item [AS alias], …` and its `WHERE` (other parts are the caller's).
    pub(super) fn yield_spec(&self, x: Pair<'_, Rule>) -> Res<YieldSpec> {
        let yspan = span_of(&x);
        let mut y = YieldSpec {
            star: false,
            items: Vec::new(),
            where_: None,
            span: yspan,
        };
        for z in x.into_inner() {
            match z.as_rule() {
                Rule::yield_star => y.star = true,
                Rule::yield_item => {
                    let ispan = span_of(&z);
                    let mut field = None;
                    let mut alias = None;
                    for w in z.into_inner() {
                        match w.as_rule() {
                            Rule::symbolic_name => field = Some(self.ident(w)?),
                            Rule::alias_name => alias = Some(self.ident(w)?),
                            _ => {}
                        }
                    }
                    y.items.push(YieldItem {
                        field: field.ok_or_else(|| internal(self.src, ispan.start))?,
                        alias,
                        span: ispan,
                    });
                }
                Rule::where_clause => y.where_ = Some(self.where_clause(z)?),
                _ => {}
            }
        }
        Ok(y)
    }

    /// A database name: `$param`, or dotted names (`a.b` names the database `a.b`).
    fn db_name(&self, p: Pair<'_, Rule>) -> Res<SchemaName> {
        let span = span_of(&p);
        let parts: Vec<Pair<'_, Rule>> = p.into_inner().collect();
        if let [only] = parts.as_slice() {
            if only.as_rule() == Rule::parameter {
                return match self.atom(only.clone())?.expr.kind {
                    ExprKind::Parameter(param) => Ok(SchemaName::Parameter(param, span)),
                    _ => Err(internal(self.src, span.start)),
                };
            }
        }
        let mut names = Vec::new();
        for x in parts {
            names.push(self.ident(x)?.name);
        }
        Ok(SchemaName::Name(Ident {
            name: names.join("."),
            span,
        }))
    }

    /// `SHOW [ALL | BUILT IN | USER DEFINED] FUNCTIONS | PROCEDURES [EXECUTABLE [BY …]]
    /// [YIELD … [ORDER BY …] [SKIP …] [LIMIT …] [WHERE …] | WHERE …]`.
    /// `'a', 'b'` (two or more strings) or one expression (a string, a list of strings, a
    /// parameter).
    fn show_names(&self, list: Pair<'_, Rule>) -> Res<Vec<Expr>> {
        let mut names = Vec::new();
        for y in list.into_inner() {
            names.push(match y.as_rule() {
                Rule::expression => self.expr(y)?,
                _ => self.atom(y)?.expr,
            });
        }
        Ok(names)
    }

    pub(super) fn show_clause(&self, c: Pair<'_, Rule>) -> Res<Show> {
        let span = span_of(&c);
        let mut show = Show {
            kind: ShowKind::Functions,
            scope: ShowScope::All,
            executable: None,
            yield_: None,
            order_by: Vec::new(),
            skip: None,
            limit: None,
            where_: None,
            database: None,
            names: Vec::new(),
            span,
        };
        for x in c.into_inner() {
            match x.as_rule() {
                Rule::show_databases => {
                    show.kind = ShowKind::Databases(ShowDatabases::All);
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::show_db_default => {
                                show.kind = ShowKind::Databases(ShowDatabases::Default)
                            }
                            Rule::show_db_home => {
                                show.kind = ShowKind::Databases(ShowDatabases::Home)
                            }
                            Rule::show_db_name => show.database = Some(self.db_name(y)?),
                            _ => {}
                        }
                    }
                }
                Rule::show_settings | Rule::show_transactions => {
                    show.kind = if x.as_rule() == Rule::show_settings {
                        ShowKind::Settings
                    } else {
                        ShowKind::Transactions
                    };
                    if let Some(list) = x.into_inner().find(|y| y.as_rule() == Rule::show_names) {
                        show.names = self.show_names(list)?;
                    }
                }
                Rule::terminate_transactions => {
                    show.kind = ShowKind::Terminate;
                    if let Some(list) = x.into_inner().find(|y| y.as_rule() == Rule::show_names) {
                        show.names = self.show_names(list)?;
                    }
                }
                Rule::show_user => show.kind = ShowKind::CurrentUser,
                Rule::show_users => {
                    show.kind = ShowKind::Users {
                        with_auth: x.into_inner().any(|k| k.as_rule() == Rule::AUTH),
                    }
                }
                Rule::show_scope => {
                    show.scope = match x.into_inner().next().map(|k| k.as_rule()) {
                        Some(Rule::BUILT) => ShowScope::BuiltIn,
                        Some(Rule::USER) => ShowScope::UserDefined,
                        _ => ShowScope::All,
                    }
                }
                Rule::show_indexes | Rule::show_constraints => show.kind = self.show_schema_kind(x),
                Rule::show_what => {
                    show.kind = match x.into_inner().next().map(|k| k.as_rule()) {
                        Some(Rule::PROCEDURES | Rule::PROCEDURE) => ShowKind::Procedures,
                        _ => ShowKind::Functions,
                    }
                }
                Rule::show_executable => {
                    let user = x
                        .into_inner()
                        .find(|k| k.as_rule() == Rule::symbolic_name)
                        .map(|k| self.ident(k))
                        .transpose()?;
                    show.executable = Some(user);
                }
                Rule::show_yield => {
                    show.yield_ = Some(self.yield_spec(x.clone())?);
                    for z in x.into_inner() {
                        match z.as_rule() {
                            Rule::order_by => show.order_by = self.sort_items(z)?,
                            Rule::skip => show.skip = Some(self.inner_expr(z)?),
                            Rule::limit => show.limit = Some(self.inner_expr(z)?),
                            _ => {}
                        }
                    }
                }
                Rule::where_clause => show.where_ = Some(self.where_clause(x)?),
                _ => {}
            }
        }
        Ok(show)
    }
}
