//! `RETURN`: the query's last projection, whose rows are the result (`ProduceResults` above
//! the projection's operators, added by `planner::plan_query`).

use super::super::{return_not_last, Access, Anon, Output, Row, Runner, Shared};
use super::Ran;
use crate::engine::error::Result;
use crate::engine::planner;
use crate::plan::Plan;
use crate::syntax::{Expr, ExprKind, Ident, Projection, ProjectionItem, Return};
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    r: &Return,
    after_show: bool,
    last: bool,
    scope: &[Arc<str>],
    rows: Vec<Row>,
) -> Result<Ran> {
    let run = Runner::new(access.graph(), sh);
    let unstarred;
    let projection = if after_show && r.projection.star {
        unstarred = named_star(r, scope);
        &unstarred
    } else {
        &r.projection
    };
    let (cols, out) = run.project(projection, scope, rows, true, None)?;
    if !last {
        return Err(return_not_last(r.span));
    }
    Ok(Ran::Output(Output::returning(cols, out)))
}

/// After a SHOW command, `RETURN *` keeps the yielded columns' order (Neo4j sorts them by
/// name everywhere else): the star becomes the columns, named in order.
fn named_star(r: &Return, scope: &[Arc<str>]) -> Projection {
    let mut p = r.projection.clone();
    p.star = false;
    let named = scope.iter().filter(|v| !v.starts_with('\u{0}'));
    let mut items: Vec<ProjectionItem> = named
        .map(|v| {
            let id = Ident {
                name: v.to_string(),
                span: r.span,
            };
            ProjectionItem {
                expr: Expr::new(ExprKind::Variable(id.clone()), r.span),
                alias: Some(id),
                span: r.span,
            }
        })
        .collect();
    items.append(&mut p.items);
    p.items = items;
    p
}

pub(super) fn explain(
    run: &Runner,
    r: &Return,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    anon: &mut Anon,
) -> Result<Plan> {
    planner::projection(run, &r.projection, scope, input, true, anon)
}
