//! `MATCH` and `OPTIONAL MATCH`: the pattern's scans, seeks and expansions, planned by
//! `exec::explain` and run by `exec::matching` from the same compiled pattern.

use super::super::matching::EarlySort;
use super::super::{counter, Access, Anon, Env, Layout, Row, Runner, Shared};
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::{Clause, Expr, Match, Projection};
use crate::value::Value;
use std::sync::Arc;

/// The projection after a MATCH whose `LIMIT` bounds the rows the MATCH must find: a plain
/// `RETURN` or `WITH` (no `WHERE`, `DISTINCT`, `ORDER BY`, grouping or aggregate).
pub(super) fn cap(next: Option<&Clause>) -> Option<&Projection> {
    let p = match next? {
        Clause::Return(r) => &r.projection,
        Clause::With(w) if w.where_.is_none() => &w.projection,
        _ => return None,
    };
    p.limit.as_ref()?;
    if p.distinct || !p.order_by.is_empty() || p.group_by.is_some() {
        return None;
    }
    if p.items
        .iter()
        .any(|it| crate::engine::exec::has_aggregate(&it.expr))
    {
        return None;
    }
    Some(p)
}

/// The projection after a query's first MATCH whose `ORDER BY … LIMIT` the MATCH may sort by
/// as it matches (Neo4j's `Sort` below the later expansions, cut by `Limit`): a `RETURN` or
/// `WITH` (no `WHERE`) with ORDER BY and LIMIT that neither dedupes, groups nor aggregates.
pub(super) fn early_order<'q>(m: &Match, next: Option<&'q Clause>) -> Option<&'q Projection> {
    if m.optional || m.search.is_some() {
        return None;
    }
    let p = match next? {
        Clause::Return(r) => &r.projection,
        Clause::With(w) if w.where_.is_none() => &w.projection,
        _ => return None,
    };
    if p.order_by.is_empty() || p.limit.is_none() || p.distinct || p.group_by.is_some() {
        return None;
    }
    let aggregates = |e: &Expr| crate::engine::exec::has_aggregate(e);
    if p.items.iter().any(|it| aggregates(&it.expr))
        || p.order_by.iter().any(|s| aggregates(&s.expr))
    {
        return None;
    }
    Some(p)
}

/// How a MATCH takes part in the next projection's `ORDER BY … LIMIT` (see
/// [`early_order`]): its chain sorted as matched (`compile::sort_early`); the first of two
/// leading MATCH clauses, whose rows are sorted before the second expands them (when
/// [`sorts_after`] says so); or that second one, which stops at the projection's LIMIT when
/// they were.
#[derive(Clone, Copy)]
pub(crate) enum Early<'q> {
    Chain(&'q Projection),
    /// The projection, and the MATCH after this one.
    After(&'q Projection, &'q Match),
    /// The projection, and the MATCH before this one.
    Follows(&'q Projection, &'q Match),
}

/// Whether the rows of leading MATCH `m` (binding `scope[bound..]`) are sorted by `p`'s ORDER
/// BY before the next MATCH `next` expands them, as Neo4j sorts below the expansions of a
/// query's second MATCH and cuts with `Limit` above them: when the keys read variables of `m`
/// only (no item computed under their name), constant SKIP and LIMIT bound the rows kept, and
/// Neo4j's cost model finds it cheaper (`Runner::sorts_between`).
pub(super) fn sorts_after(
    run: &Runner,
    p: &Projection,
    m: &Match,
    next: &Match,
    scope: &[Arc<str>],
    bound: usize,
) -> Result<bool> {
    let Some(kept) = rows_needed(run, p) else {
        return Ok(false);
    };
    let mut vars = Vec::new();
    for s in &p.order_by {
        crate::engine::exec::walk::free_vars(&s.expr, &mut vars);
    }
    let computed_alias = |v: &str| {
        p.items.iter().any(|it| {
            it.alias.as_ref().is_some_and(|a| *a.name == *v)
                && !matches!(&it.expr.kind, crate::syntax::ExprKind::Variable(x) if *x.name == *v)
        })
    };
    let mut own = false;
    for v in &vars {
        if computed_alias(v) {
            return Ok(false);
        }
        match scope.iter().rposition(|s| **s == **v) {
            Some(i) => own |= i >= bound,
            None => return Ok(false),
        }
    }
    Ok(own && run.sorts_between(m, next, &scope[..bound], kept)?)
}

/// The PROFILE key of the sort after a leading MATCH (its clause's address).
fn sort_key(m: &Match) -> usize {
    m as *const Match as usize
}

#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    m: &Match,
    cap: Option<&Projection>,
    order: Option<Early>,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let run = Runner::new(access.graph(), sh);
    let mut cap = cap.and_then(|p| rows_needed(&run, p));
    let input = rows.len() as u64;
    let bound = scope.len();
    let (chain, pulled) = match order {
        // Sorted as matched: the matches the projection's SKIP and LIMIT keep are all it needs.
        Some(Early::Chain(p)) => (rows_needed(&run, p).map(|n| (p, n)), None),
        // After sorted rows: the first that give the kept rows, each pulled from the sort.
        Some(Early::Follows(p, first)) => {
            let key = p as *const Projection as usize;
            if sh.sorted_early.borrow().contains(&key) {
                cap = rows_needed(&run, p);
            }
            (None, Some(sort_key(first)))
        }
        _ => (None, None),
    };
    let mut out = run.exec_match_ordered(m, scope, rows, cap, chain, pulled)?;
    if let Some(Early::After(p, next)) = order {
        let key = p as *const Projection as usize;
        sh.sorted_early.borrow_mut().remove(&key);
        if sorts_after(&run, p, m, next, scope, bound)? {
            // The keys projected for every row, then a stable sort (ties keep the order the
            // rows were matched in).
            let layout = Layout::new(scope);
            let order = EarlySort {
                keys: p
                    .order_by
                    .iter()
                    .map(|s| (run.compile(&s.expr, &layout), s.descending))
                    .collect(),
                projection: p,
            };
            let mut keyed = Vec::with_capacity(out.len());
            for r in out {
                sh.tick()?;
                let env = Env::new(scope, &r);
                let k = order
                    .keys
                    .iter()
                    .map(|(c, _)| run.eval_compiled(c, &env))
                    .collect::<Result<Vec<_>>>()?;
                sh.charge(Shared::row_bytes(&k))?;
                keyed.push((k, r));
            }
            sh.profile_steps(sort_key(m), counter::SORTED + 1, keyed.len() as u64);
            let sorted =
                sh.sort_checked(keyed, |a: &(Vec<Value>, Row), b| order.compare(&a.0, &b.0))?;
            out = sorted.into_iter().map(|(_, r)| r).collect();
            sh.sorted_early.borrow_mut().insert(key);
        }
    }
    if m.optional {
        // Under PROFILE: a run per incoming row (the `Argument`), and the rows `Optional`
        // passed on (a match, or the row with nulls).
        let key = m as *const Match as usize;
        sh.profile_steps(key, counter::OPTIONAL_ARGUMENT, input);
        sh.profile_steps(key, counter::OPTIONAL, out.len() as u64);
    }
    Ok(out)
}

/// The plan of a MATCH step: the pattern's (`Runner::plan_match`), and after the first of two
/// leading MATCH clauses whose rows are sorted (see [`sorts_after`]), the keys' `Projection`
/// and the `Sort` — then with the clause's PROFILE counts already on the pattern's top
/// operator (`true`).
pub(super) fn explain(
    run: &Runner,
    clause: &Clause,
    m: &Match,
    order: Option<Early>,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    anon: &mut Anon,
) -> Result<(Plan, bool)> {
    let chain = match order {
        Some(Early::Chain(p)) => Some(p),
        _ => None,
    };
    let bound = scope.len();
    let mut plan = run.plan_match(m, chain, scope, input, anon)?;
    if let Some(Early::After(p, next)) = order {
        let key = p as *const Projection as usize;
        run.sh.sorted_early.borrow_mut().remove(&key);
        if sorts_after(run, p, m, next, scope, bound)? {
            let probe = |counter: usize| {
                run.sh
                    .profile
                    .as_ref()
                    .map(|_| crate::plan::Probe::Step(sort_key(m), counter))
            };
            plan = super::profiled(run, clause, plan);
            plan = crate::engine::exec::explain::sort_on(
                run,
                p,
                plan,
                anon,
                probe(counter::SORTED + 1),
                probe(counter::SORTED),
            );
            run.sh.sorted_early.borrow_mut().insert(key);
            return Ok((plan, true));
        }
    }
    Ok((plan, false))
}

/// `LIMIT` plus `SKIP`, when both are constant non-negative integers.
pub(crate) fn rows_needed(run: &Runner, p: &Projection) -> Option<usize> {
    let count = |e: &Expr| match run.eval(e, &Env::new(&[], &[])) {
        Ok(Value::Int(i)) if i >= 0 => Some(i as usize),
        _ => None,
    };
    let skip = match &p.skip {
        Some(s) => count(s)?,
        None => 0,
    };
    Some(count(p.limit.as_ref()?)?.saturating_add(skip))
}
