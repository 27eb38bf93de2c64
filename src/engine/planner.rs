//! The planner: a statement's operator tree, clause by clause, from the same compiled patterns
//! and anchors the executor runs (see `exec::explain` for `MATCH`). `EXPLAIN` returns it;
//! under `PROFILE` it is made before the statement runs, its operators carrying probes
//! (`plan::Probe`) that read the counters the run kept: a clause's rows and db hits, a chain
//! step's or a projection operator's rows.

use super::error::Result;
use super::exec::counter;
use super::exec::operators::{profiled, start, Pipeline, Planned};
use super::exec::{has_aggregate, projection_columns, Anon, Runner};
use crate::plan::{Plan, Probe};
use crate::syntax::{Clause, Expr, Projection, Query, SingleQuery};
use std::sync::Arc;

/// Plans a statement: the root is `ProduceResults` (or `EmptyResult` under it, for a statement
/// that returns nothing).
pub(crate) fn plan_query(run: &Runner, q: &Query) -> Result<(Plan, Vec<Arc<str>>)> {
    let mut anon = Anon::default();
    let (mut plan, cols, mut returns) = query(run, q, &[], None, &mut anon)?;
    // A query that ends in a procedure call with output columns gives rows.
    if let Some(Clause::CallProcedure(c)) = q.first.clauses.last() {
        returns |= q.unions.is_empty()
            && crate::catalogue::procedure(&c.name.dotted())
                .and_then(|p| p.signature())
                .is_none_or(|s| !s.outputs.is_empty());
    }
    // Neo4j starts a query's first operator from nothing: no `Argument` under it.
    drop_leading_argument(&mut plan);
    let plan = if returns {
        Plan::over("ProduceResults", cols.join(", "), plan)
    } else {
        // Neo4j estimates both with their input's rows (the oracle: 10 over a `SetProperty`
        // of 10 scanned nodes, 1 over a lone `Create`).
        let rows = plan.estimated_rows;
        Plan::over(
            "ProduceResults",
            "",
            Plan::over("EmptyResult", "", plan).estimate(rows),
        )
        .estimate(rows)
    };
    Ok((plan, cols))
}

/// Removes the empty `Argument` leaf at the start of a query's operator chain (the leftmost
/// leaf, reached through first children; a subquery's own `Argument` is under a second child
/// and stays).
fn drop_leading_argument(plan: &mut Plan) {
    let mut node = plan;
    loop {
        let leading = node.children.first().is_some_and(|c| {
            c.operator == "Argument" && c.children.is_empty() && c.details.is_empty()
        });
        if leading && node.children.len() == 1 {
            node.children.clear();
            return;
        }
        match node.children.first_mut() {
            Some(c) => node = c,
            None => return,
        }
    }
}

/// A query with its unions: the plan, its columns, and whether it returns rows.
pub(crate) fn query(
    run: &Runner,
    q: &Query,
    outer: &[Arc<str>],
    input: Option<Plan>,
    anon: &mut Anon,
) -> Result<(Plan, Vec<Arc<str>>, bool)> {
    let (mut plan, cols, returns) = single(run, &q.first, outer, input.clone(), anon)?;
    let profiling = run.sh.profile.is_some();
    for u in &q.unions {
        let (next, _, _) = single(run, &u.query, outer, input.clone(), anon)?;
        let rows = plan.estimated_rows + next.estimated_rows;
        let mut union = Plan::over("Union", "", plan).bind(cols.iter().map(|c| c.to_string()));
        union.children.push(next);
        plan = union.estimate(rows);
        // Under PROFILE: the rows the executor counts for this part (`exec::run_query_on`).
        let key = u as *const crate::syntax::UnionPart as usize;
        if profiling {
            plan.probe = Some(Probe::Step(key, counter::UNION));
        }
        if !u.all {
            plan = Plan::over("Distinct", cols.join(", "), plan);
            if profiling {
                plan.probe = Some(Probe::Step(key, counter::UNION_DISTINCT));
            }
        }
    }
    Ok((plan, cols, returns))
}

fn single(
    run: &Runner,
    q: &SingleQuery,
    outer: &[Arc<str>],
    input: Option<Plan>,
    anon: &mut Anon,
) -> Result<(Plan, Vec<Arc<str>>, bool)> {
    let mut scope: Vec<Arc<str>> = outer.to_vec();
    let pipeline = Pipeline::of(q, run, outer);
    if let Some(c) = pipeline.composed() {
        return composed(run, c, scope, input, anon);
    }
    let mut cur = input;
    for step in &pipeline.steps {
        match step.explain(run, &mut scope, cur.take(), anon)? {
            Planned::Plan(p) => cur = Some(p),
            Planned::Returned(p) => return Ok((p, scope, true)),
            Planned::Unchanged => {}
        }
    }
    // A query that ends with SHOW returns what it shows.
    let shows = matches!(q.clauses.last(), Some(Clause::Show(_)));
    let cols = if shows { scope } else { Vec::new() };
    Ok((start(cur), cols, shows))
}

/// `WITH` / `RETURN`: aggregation or projection, then DISTINCT, ORDER BY with LIMIT (`Top`)
/// or alone (`Sort`), SKIP and LIMIT.
pub(crate) fn projection(
    run: &Runner,
    p: &Projection,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    is_return: bool,
    anon: &mut Anon,
) -> Result<Plan> {
    let (cols, _) = projection_columns(p, scope, is_return, run.sh.src)?;
    let items: Vec<&Expr> = p.items.iter().map(|it| &it.expr).collect();
    let (mut plan, _) = plan_predicates(run, &items, None, scope, start(input), anon)?;
    let item = |e: &Expr, col: &str| {
        let t = run.text(e);
        if t == col {
            t
        } else {
            format!("{t} AS {col}")
        }
    };
    let offset = cols.len() - p.items.len();
    // Under PROFILE, each operator reads the counter the executor keeps for it
    // (`exec::project::stage`).
    let key = p as *const Projection as usize;
    let sorted = run.sh.sorted_early.borrow().contains(&key);
    let probe = |plan: &mut Plan, stage: usize| {
        if run.sh.profile.is_some() && plan.probe.is_none() {
            plan.probe = Some(crate::plan::Probe::Step(key, stage));
        }
    };
    use crate::engine::exec::stage;
    // The items projected after the sort, SKIP and LIMIT (see below).
    let mut after_sort: Option<String> = None;
    let (aggs, keys): (Vec<_>, Vec<_>) = p
        .items
        .iter()
        .enumerate()
        .partition(|(_, it)| has_aggregate(&it.expr));
    if !aggs.is_empty() {
        let mut details: Vec<String> = keys
            .iter()
            .map(|(i, it)| item(&it.expr, &cols[offset + i]))
            .collect();
        details.extend(aggs.iter().map(|(i, it)| item(&it.expr, &cols[offset + i])));
        let rows = if keys.is_empty() {
            1.0
        } else {
            plan.estimated_rows.sqrt().max(1.0)
        };
        plan = Plan::over("EagerAggregation", details.join(", "), plan)
            .bind(cols.iter().map(|c| c.to_string()))
            .estimate(rows);
        probe(&mut plan, stage::PROJECTED);
    } else {
        let computed: Vec<(usize, String)> = p
            .items
            .iter()
            .enumerate()
            .filter(|(i, it)| {
                !matches!(&it.expr.kind, crate::syntax::ExprKind::Variable(v)
                    if *v.name == *cols[offset + i])
            })
            .map(|(i, it)| (i, item(&it.expr, &cols[offset + i])))
            .collect();
        // Neo4j projects what the sort reads before it — the items a sort key names (by alias
        // or by the same expression) and the other sort expressions, as anonymous columns —
        // and the other items after Sort/Top/Skip/Limit, for the rows they keep; so does the
        // executor (`exec::deferred_items`).
        let deferred = crate::engine::exec::deferred_items(p, &cols, false);
        let mut before = Vec::new();
        let mut after = Vec::new();
        for (i, t) in computed {
            if deferred[i] {
                after.push(t);
            } else {
                before.push(t);
            }
        }
        // Sorted by the MATCH before it (`compile::sort_early`): the sort's projection and
        // sort are the MATCH's.
        if sorted {
            before.clear();
        }
        if !p.distinct && !sorted {
            for s in &p.order_by {
                let t = run.text(&s.expr);
                let named = cols.iter().any(|c| **c == *t)
                    || p.items.iter().any(|it| run.text(&it.expr) == t);
                if !named && !matches!(s.expr.kind, crate::syntax::ExprKind::Variable(_)) {
                    before.push(format!("{t} AS {}", anon.name(&None)));
                }
            }
        }
        if !before.is_empty() {
            plan = Plan::over("Projection", before.join(", "), plan)
                .bind(cols.iter().map(|c| c.to_string()));
            probe(&mut plan, stage::PROJECTED);
        }
        after_sort = (!after.is_empty()).then(|| after.join(", "));
    }
    if p.distinct {
        let rows = plan.estimated_rows;
        plan = Plan::over("Distinct", cols.join(", "), plan).estimate(rows);
        probe(&mut plan, stage::DISTINCT);
    }
    let order = p
        .order_by
        .iter()
        .filter(|_| !sorted)
        .map(|s| {
            format!(
                "{} {}",
                run.text(&s.expr),
                if s.descending { "DESC" } else { "ASC" }
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let limit = p.limit.as_ref().map(|e| run.text(e));
    let skip = p.skip.as_ref().map(|e| run.text(e));
    let literal = |e: &Option<Expr>| match e.as_ref().map(|e| &e.kind) {
        Some(crate::syntax::ExprKind::Literal(crate::syntax::Literal::Integer(n))) => {
            Some(*n as f64)
        }
        _ => None,
    };
    let cap = |plan: &Plan, n: Option<f64>| match n {
        Some(n) => plan.estimated_rows.min(n),
        None => plan.estimated_rows,
    };
    match (&limit, order.is_empty()) {
        (Some(l), false) => {
            // The top SKIP + LIMIT rows, then the skip.
            let n = match &skip {
                Some(s) => format!("{s} + {l}"),
                None => l.clone(),
            };
            let rows = cap(
                &plan,
                literal(&p.limit).map(|l| l + literal(&p.skip).unwrap_or(0.0)),
            );
            plan = Plan::over("Top", format!("{order} LIMIT {n}"), plan).estimate(rows);
            probe(&mut plan, stage::SORTED);
        }
        (_, false) => {
            plan = Plan::over("Sort", order.clone(), plan);
            probe(&mut plan, stage::SORTED);
        }
        _ => {}
    }
    // The rows the last cut kept (what the `Projection` after it passes on).
    let last_cut = if p.skip.is_some() {
        stage::SKIPPED
    } else if p.limit.is_some() {
        stage::LIMITED
    } else {
        stage::SORTED
    };
    match (skip, limit, order.is_empty()) {
        // SKIP and LIMIT without ORDER BY: the first SKIP + LIMIT rows, then the skip (as
        // Neo4j 5.26 plans it: `Skip` over `Limit 3 + 4`).
        (Some(s), Some(l), true) => {
            let rows = cap(
                &plan,
                literal(&p.limit).map(|l| l + literal(&p.skip).unwrap_or(0.0)),
            );
            plan = Plan::over("Limit", format!("{l} + {s}"), plan).estimate(rows);
            probe(&mut plan, stage::LIMITED);
            let rows = (rows - literal(&p.skip).unwrap_or(0.0)).max(0.0);
            plan = Plan::over("Skip", s, plan).estimate(rows);
            probe(&mut plan, stage::SKIPPED);
        }
        (skip, limit, ordered) => {
            if let Some(s) = skip {
                plan = Plan::over("Skip", s, plan);
                probe(&mut plan, stage::SKIPPED);
            }
            if let (Some(l), true) = (limit, ordered) {
                let rows = cap(&plan, literal(&p.limit));
                plan = Plan::over("Limit", l, plan).estimate(rows);
                probe(&mut plan, stage::LIMITED);
            }
        }
    }
    if let Some(items) = after_sort {
        let rows = plan.estimated_rows;
        plan = Plan::over("Projection", items, plan)
            .bind(cols.iter().map(|c| c.to_string()))
            .estimate(rows);
        probe(&mut plan, last_cut);
    }
    *scope = cols;
    Ok(plan)
}

/// Composed queries (Cypher 25): `{ q }` is its query's plan; `NEXT` feeds each plan into the
/// next; `WHEN` is a `Conditional` over the incoming rows with one child per branch.
fn composed(
    run: &Runner,
    clause: &Clause,
    scope: Vec<Arc<str>>,
    input: Option<Plan>,
    anon: &mut Anon,
) -> Result<(Plan, Vec<Arc<str>>, bool)> {
    match clause {
        Clause::Braced(b) => query(run, &b.query, &scope, input, anon),
        Clause::Next(n) => {
            let (mut scope, mut input) = (scope, input);
            let mut last = None;
            for q in &n.queries {
                let (p, cols, returns) = query(run, q, &scope, input.take(), anon)?;
                scope = if returns { cols.clone() } else { Vec::new() };
                input = Some(p.clone());
                last = Some((p, cols, returns));
            }
            Ok(last.unwrap_or_else(|| (start(None), Vec::new(), false)))
        }
        Clause::When(w) => {
            let lhs = start(input);
            let rows = lhs.estimated_rows;
            let conditions: Vec<String> = w
                .branches
                .iter()
                .map(|b| run.text(&b.condition))
                .chain(w.else_.as_ref().map(|_| "ELSE".to_string()))
                .collect();
            let mut plan = Plan::over("Conditional", conditions.join(" | "), lhs);
            let (mut cols, mut returns) = (Vec::new(), false);
            let branches = w
                .branches
                .iter()
                .map(|b| &b.query)
                .chain(w.else_.as_deref());
            for q in branches {
                let arg = Plan::leaf("Argument", scope.join(", "))
                    .bind(scope.iter().map(|s| s.to_string()));
                let (p, c, r) = query(run, q, &scope, Some(arg), anon)?;
                if r && !returns {
                    (cols, returns) = (c, true);
                }
                plan.children.push(p);
            }
            let plan = plan.bind(cols.iter().map(|c| c.to_string())).estimate(rows);
            Ok((profiled(run, clause, plan), cols, returns))
        }
        _ => Ok((start(input), scope, false)),
    }
}

/// How a pattern predicate uses its pattern's matches.
#[derive(Clone, Copy, PartialEq)]
enum SiteUse {
    /// A WHERE conjunct: keeps the rows with a match (`SemiApply`) or without (`AntiSemiApply`).
    Semi { negated: bool },
    /// Inside an expression: whether there is a match (`Apply` over a `Limit 1`).
    Exists,
    /// `COUNT { … }`: how many (`Apply` over a count).
    Count,
    /// A pattern comprehension or `COLLECT { … }`: the list (`RollUpApply`).
    Collect,
}

/// The pattern predicates in `exprs` (not those inside another one, which run within it), each
/// as an operator over `input` whose second child is the plan run per row: an `Argument` with
/// the row's variables, then the pattern's expansions (or the subquery). The executor compiles
/// each once per statement (`exec::predicates`) and runs it per row. WHERE conjuncts that are a
/// pattern predicate alone become `SemiApply` / `AntiSemiApply` and leave `filtered`.
pub(crate) fn plan_predicates(
    run: &Runner,
    exprs: &[&Expr],
    where_: Option<&Expr>,
    scope: &[Arc<str>],
    input: Plan,
    anon: &mut Anon,
) -> Result<(Plan, Vec<String>)> {
    use crate::syntax::{ExprKind, UnaryOp};
    let mut sites: Vec<(&Expr, SiteUse)> = Vec::new();
    let mut remaining = Vec::new();
    for c in where_.map(super::exec::conjuncts).unwrap_or_default() {
        let (inner, negated) = match &c.kind {
            ExprKind::Unary {
                op: UnaryOp::Not,
                expr,
            } => (&**expr, true),
            _ => (c, false),
        };
        let inner = match &inner.kind {
            ExprKind::FunctionCall { name, args, .. }
                if name.dotted().eq_ignore_ascii_case("exists") && args.len() == 1 =>
            {
                &args[0]
            }
            _ => inner,
        };
        if matches!(inner.kind, ExprKind::Pattern(_) | ExprKind::Exists(_)) {
            sites.push((inner, SiteUse::Semi { negated }));
        } else {
            remaining.push(run.text(c));
            collect_sites(c, &mut sites);
        }
    }
    for e in exprs {
        collect_sites(e, &mut sites);
    }
    let mut plan = input;
    for (e, how) in sites {
        let Some((rhs, key)) = site_plan(run, e, scope, how, anon)? else {
            continue;
        };
        // Under PROFILE: the rows kept (SemiApply, AntiSemiApply) or passed on, one per
        // evaluation (the others).
        let (op, rows, kept) = match how {
            SiteUse::Semi { negated: false } => {
                ("SemiApply", plan.estimated_rows * 0.5, counter::SITE_FOUND)
            }
            SiteUse::Semi { negated: true } => (
                "AntiSemiApply",
                plan.estimated_rows * 0.5,
                counter::SITE_NOT_FOUND,
            ),
            SiteUse::Collect => ("RollUpApply", plan.estimated_rows, counter::SITE_ARGUMENT),
            SiteUse::Exists | SiteUse::Count => {
                ("Apply", plan.estimated_rows, counter::SITE_ARGUMENT)
            }
        };
        let mut p = Plan::over(op, run.text(e), plan);
        p.children.push(rhs);
        if run.sh.profile.is_some() {
            p.probe = Some(Probe::Step(key, kept));
        }
        plan = p.estimate(rows);
    }
    Ok((plan, remaining))
}

/// The pattern predicates of `e`, with how each is used inside an expression (the walk does
/// not enter patterns and subqueries: a predicate inside another one runs within it).
fn collect_sites<'e>(e: &'e Expr, out: &mut Vec<(&'e Expr, SiteUse)>) {
    use crate::syntax::ExprKind;
    super::exec::walk(e, &mut |x| {
        let how = match &x.kind {
            ExprKind::Pattern(_) | ExprKind::Exists(_) => SiteUse::Exists,
            ExprKind::CountSubquery(_) => SiteUse::Count,
            ExprKind::PatternComprehension { .. } | ExprKind::Collect(_) => SiteUse::Collect,
            _ => return,
        };
        out.push((x, how));
    });
}

/// The plan a pattern predicate runs per row, over an `Argument` of the row's variables, and
/// the key its PROFILE counters are filed under (`counter::site_key` of its first pattern
/// part, its chain or its subquery).
fn site_plan(
    run: &Runner,
    e: &Expr,
    scope: &[Arc<str>],
    how: SiteUse,
    anon: &mut Anon,
) -> Result<Option<(Plan, usize)>> {
    use crate::syntax::{ExprKind, Match, PathChain, PathExpr, PatternPart, SubqueryBody};
    let mut arg =
        Plan::leaf("Argument", scope.join(", ")).bind(scope.iter().map(|s| s.to_string()));
    let chain_match =
        |variable: Option<&crate::syntax::Ident>, chain: &PathChain, where_: Option<&Expr>| Match {
            optional: false,
            mode: None,
            pattern: vec![PatternPart {
                variable: variable.cloned(),
                selector: None,
                path: PathExpr::Chain(chain.clone()),
                span: chain.span,
            }],
            hints: Vec::new(),
            where_: where_.cloned(),
            search: None,
            where_after_search: false,
            span: e.span,
        };
    let profiling = run.sh.profile.is_some();
    let body = match &e.kind {
        ExprKind::Exists(b) | ExprKind::CountSubquery(b) => Some(&**b),
        _ => None,
    };
    let query_body = match (&e.kind, body) {
        (ExprKind::Collect(q), _) => Some(&**q),
        (_, Some(SubqueryBody::Query(q))) => Some(q),
        _ => None,
    };
    if let Some(q) = query_body {
        let key = counter::site_key(q.span);
        if profiling {
            arg.probe = Some(Probe::Step(key, counter::SITE_ARGUMENT));
        }
        // The subquery's clauses count their own rows, summed over its runs.
        let (p, _, _) = query(run, q, scope, Some(arg), anon)?;
        return Ok(Some((top(p, how, None, run, key), key)));
    }
    // The executor files each part's steps under its span (`counter::site_key`).
    let chain_key = |c: &PathChain| counter::site_key(c.span);
    let (m, map, keys) = match (&e.kind, body) {
        (ExprKind::Pattern(chain), _) => {
            (chain_match(None, chain, None), None, vec![chain_key(chain)])
        }
        (
            ExprKind::PatternComprehension {
                variable,
                pattern,
                filter,
                map,
            },
            _,
        ) => (
            chain_match(variable.as_ref(), pattern, filter.as_deref()),
            Some(&**map),
            vec![chain_key(pattern)],
        ),
        (_, Some(SubqueryBody::Pattern { pattern, where_ })) => (
            Match {
                optional: false,
                mode: None,
                pattern: pattern.clone(),
                hints: Vec::new(),
                where_: where_.clone(),
                search: None,
                where_after_search: false,
                span: e.span,
            },
            None,
            pattern.iter().map(|p| counter::site_key(p.span)).collect(),
        ),
        _ => return Ok(None),
    };
    let key = keys[0];
    if profiling {
        arg.probe = Some(Probe::Step(key, counter::SITE_ARGUMENT));
    }
    let mut inner_scope = scope.to_vec();
    let mut p = run.plan_match(&m, None, &mut inner_scope, Some(arg), anon)?;
    // The copy's parts, planned, are the AST's parts counted.
    let copies: Vec<usize> = m
        .pattern
        .iter()
        .map(|p| p as *const PatternPart as usize)
        .collect();
    p.rekey(&|part| copies.iter().position(|&c| c == part).map(|i| keys[i]));
    Ok(Some((top(p, how, map, run, key), key)))
}

/// What a predicate's plan ends with, under PROFILE reading the site's counters (`key`): an
/// existence test's right side ends in the operator it asks for a match, which hands it no
/// rows; an existence test in an expression takes the first match (`Limit 1`); a count
/// aggregates the matches, a comprehension projects each.
fn top(mut p: Plan, how: SiteUse, map: Option<&Expr>, run: &Runner, key: usize) -> Plan {
    let profiling = run.sh.profile.is_some();
    let probe = |plan: &mut Plan, counter: usize| {
        if profiling {
            plan.probe = Some(Probe::Step(key, counter));
        }
    };
    match how {
        SiteUse::Semi { .. } => {
            probe(&mut p, counter::SITE_HANDED);
            p
        }
        SiteUse::Exists => {
            let mut p = Plan::over("Limit", "1", p).estimate(1.0);
            probe(&mut p, counter::SITE_FOUND);
            p
        }
        SiteUse::Count => {
            let mut p = Plan::over("EagerAggregation", "count(*)", p).estimate(1.0);
            probe(&mut p, counter::SITE_ARGUMENT);
            p
        }
        SiteUse::Collect => match map {
            Some(m) => {
                let mut p = Plan::over("Projection", run.text(m), p);
                probe(&mut p, counter::SITE_HANDED);
                p
            }
            None => p,
        },
    }
}
