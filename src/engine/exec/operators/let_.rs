//! `LET a = expr, …` (Cypher 25): a `Projection` that appends each value to its row.

use super::super::{Access, Anon, Env, Layout, Row, Runner, Shared};
use super::start;
use crate::engine::compiled::CExpr;
use crate::engine::error::Result;
use crate::engine::planner;
use crate::plan::Plan;
use crate::syntax::{Expr, Let};
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    l: &Let,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let run = Runner::new(access.graph(), sh);
    let layout = Layout::new(scope);
    let items: Vec<CExpr> = l
        .items
        .iter()
        .map(|(_, e)| run.compile(e, &layout))
        .collect();
    let mut out = Vec::with_capacity(rows.len());
    for mut r in rows {
        sh.tick()?;
        let mut vals = Vec::with_capacity(items.len());
        {
            let env = Env::new(scope, &r);
            for c in &items {
                vals.push(run.eval_compiled(c, &env)?);
            }
        }
        r.extend(vals);
        sh.charge(Shared::row_bytes(&r))?;
        out.push(r);
    }
    scope.extend(l.items.iter().map(|(v, _)| Arc::from(v.name.as_str())));
    Ok(out)
}

pub(super) fn explain(
    run: &Runner,
    l: &Let,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    anon: &mut Anon,
) -> Result<Plan> {
    let items: Vec<&Expr> = l.items.iter().map(|(_, e)| e).collect();
    let (input, _) = planner::plan_predicates(run, &items, None, scope, start(input), anon)?;
    let details: Vec<String> = l
        .items
        .iter()
        .map(|(v, e)| format!("{} AS {}", run.text(e), v.name))
        .collect();
    scope.extend(l.items.iter().map(|(v, _)| Arc::from(v.name.as_str())));
    Ok(Plan::over("Projection", details.join(", "), input)
        .bind(l.items.iter().map(|(v, _)| v.name.clone())))
}
