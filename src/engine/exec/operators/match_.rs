//! `MATCH` and `OPTIONAL MATCH`: the pattern's scans, seeks and expansions, planned by
//! `exec::explain` and run by `exec::matching` from the same compiled pattern.

use super::super::{counter, Access, Env, Row, Runner, Shared};
use crate::engine::error::Result;
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

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    m: &Match,
    cap: Option<&Projection>,
    order: Option<&Projection>,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let run = Runner::new(access.graph(), sh);
    let cap = cap.and_then(|p| rows_needed(&run, p));
    let input = rows.len() as u64;
    // Sorted as matched: the matches the projection's SKIP and LIMIT keep are all it needs.
    let order = order.and_then(|p| Some((p, rows_needed(&run, p)?)));
    let out = run.exec_match_ordered(m, scope, rows, cap, order)?;
    if m.optional {
        // Under PROFILE: a run per incoming row (the `Argument`), and the rows `Optional`
        // passed on (a match, or the row with nulls).
        let key = m as *const Match as usize;
        sh.profile_steps(key, counter::OPTIONAL_ARGUMENT, input);
        sh.profile_steps(key, counter::OPTIONAL, out.len() as u64);
    }
    Ok(out)
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
