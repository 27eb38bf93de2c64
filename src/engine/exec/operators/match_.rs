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

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    m: &Match,
    cap: Option<&Projection>,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let run = Runner::new(access.graph(), sh);
    let cap = cap.and_then(|p| rows_needed(&run, p));
    let input = rows.len() as u64;
    let out = run.exec_match_capped(m, scope, rows, cap)?;
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
fn rows_needed(run: &Runner, p: &Projection) -> Option<usize> {
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
