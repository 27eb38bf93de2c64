//! `FILTER predicate` (Cypher 25): a `Filter` keeping the rows where the predicate is true
//! (its pattern predicates planned as `SemiApply` and the like).

use super::super::{Access, Anon, Env, Layout, Row, Runner, Shared};
use super::start;
use crate::engine::error::Result;
use crate::engine::planner;
use crate::plan::Plan;
use crate::syntax::Filter;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    f: &Filter,
    scope: &mut [Arc<str>],
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let run = Runner::new(access.graph(), sh);
    let predicate = run.compile(&f.predicate, &Layout::new(scope));
    let mut out = Vec::new();
    for r in rows {
        sh.tick()?;
        let v = run.eval_compiled(&predicate, &Env::new(scope, &r))?;
        if crate::engine::eval::passes(&v)? {
            out.push(r);
        }
    }
    Ok(out)
}

pub(super) fn explain(
    run: &Runner,
    f: &Filter,
    scope: &mut [Arc<str>],
    input: Option<Plan>,
    anon: &mut Anon,
) -> Result<Plan> {
    let (p, rest) =
        planner::plan_predicates(run, &[], Some(&f.predicate), scope, start(input), anon)?;
    Ok(super::super::filter(p, rest))
}
