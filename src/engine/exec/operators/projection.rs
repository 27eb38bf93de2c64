//! `WITH`: a projection (`Projection`, or `EagerAggregation` when it aggregates; then
//! `Distinct`, `Sort`/`Top`, `Skip`, `Limit`), then the `Filter` of its `WHERE`. The
//! operators are planned by `planner::projection` and run by `exec::project`.

use super::super::{Access, Anon, Row, Runner, Shared};
use crate::engine::error::Result;
use crate::engine::planner;
use crate::plan::Plan;
use crate::syntax::With;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    w: &With,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let run = Runner::new(access.graph(), sh);
    let (cols, out) = run.project(&w.projection, scope, rows, false, w.where_.as_ref())?;
    *scope = cols;
    Ok(out)
}

pub(super) fn explain(
    run: &Runner,
    w: &With,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    anon: &mut Anon,
) -> Result<Plan> {
    let p = planner::projection(run, &w.projection, scope, input, false, anon)?;
    let (p, rest) = planner::plan_predicates(run, &[], w.where_.as_ref(), scope, p, anon)?;
    Ok(super::super::filter(p, rest))
}
