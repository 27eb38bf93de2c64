//! A `MATCH` whose rows feed an aggregating `WITH` or `RETURN` as they are found: Neo4j's
//! `EagerAggregation` over the pattern's operators, run without holding the matches. The
//! pattern's pipeline hands the aggregation batches of ids where it can (`exec::physical`),
//! rows otherwise. PROFILE counts the rows the MATCH fed and the groups the projection made,
//! on this same run.

use super::super::{counter, matching, return_not_last, Access, Anon, Output, Row, Runner, Shared};
use super::Ran;
use crate::engine::error::Result;
use crate::engine::planner;
use crate::plan::Plan;
use crate::syntax::{Clause, Expr, Match, Projection, Span};
use std::sync::Arc;

/// The aggregating projection `next` is, if it is one: its items, its `WHERE`, and (for a
/// `RETURN`) its span.
pub(super) fn aggregating(
    next: Option<&Clause>,
) -> Option<(&Projection, Option<&Expr>, Option<Span>)> {
    let (p, where_, returns) = match next? {
        Clause::Return(r) => (&r.projection, None, Some(r.span)),
        Clause::With(w) => (&w.projection, w.where_.as_ref(), None),
        _ => return None,
    };
    let aggregates = p
        .items
        .iter()
        .any(|it| crate::engine::exec::has_aggregate(&it.expr));
    (aggregates || p.group_by.is_some()).then_some((p, where_, returns))
}

/// The step: the MATCH (`matched`, `m`) and the projection it feeds (`p`, a WITH's `where_`;
/// for a RETURN its span and whether it ends the query).
pub(crate) struct Fused<'q> {
    pub matched: &'q Clause,
    pub m: &'q Match,
    pub p: &'q Projection,
    pub where_: Option<&'q Expr>,
    pub returns: Option<(Span, bool)>,
}

impl Fused<'_> {
    /// The pattern's operators, then the projection's (and a WITH's `Filter`); whether it is
    /// a RETURN.
    pub(super) fn explain(
        &self,
        run: &Runner,
        scope: &mut Vec<Arc<str>>,
        input: Option<Plan>,
        anon: &mut Anon,
    ) -> Result<(Plan, bool)> {
        let matched = run.plan_match(self.m, None, scope, input, anon)?;
        let input = super::profiled(run, self.matched, matched);
        let returns = self.returns.is_some();
        let plan = planner::projection(run, self.p, scope, Some(input), returns, anon)?;
        if returns {
            return Ok((plan, true));
        }
        let (plan, rest) = planner::plan_predicates(run, &[], self.where_, scope, plan, anon)?;
        Ok((super::super::filter(plan, rest), false))
    }

    pub(super) fn run(
        &self,
        access: &mut Access,
        sh: &Shared,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
        started: &mut Option<(u64, u64)>,
    ) -> Result<Ran> {
        let (m, p, where_) = (self.m, self.p, self.where_);
        let run = Runner::new(access.graph(), sh);
        let input = rows.len() as u64;
        let mut after = scope.clone();
        matching::declare_match_vars(m, &mut after);
        let mut pr = run.prepare_projection(p, &after, self.returns.is_some(), where_)?;
        let fed = match run.aggregate_match(m, scope, &rows, p, &mut pr)? {
            Some(fed) => fed,
            None => {
                let mut fed = 0usize;
                run.exec_match_into(m, scope, rows, None, &mut |run, sc, vals| {
                    run.sh.tick()?;
                    fed += 1;
                    run.add_to_projection(&mut pr, p, sc, vals)
                })?;
                fed
            }
        };
        if m.optional {
            // Under PROFILE, as `match_` counts them: the runs, and the rows `Optional` fed.
            let key = m as *const Match as usize;
            sh.profile_steps(key, counter::OPTIONAL_ARGUMENT, input);
            sh.profile_steps(key, counter::OPTIONAL, fed as u64);
        }
        // The MATCH's count ends here; the projection's starts.
        if let Some(s) = started.take() {
            sh.profile_end(self.matched, s, fed);
            *started = Some(sh.profile_start());
        }
        let (cols, out) = run.finish_projection(p, scope, pr, where_)?;
        match self.returns {
            Some((span, last)) => {
                if !last {
                    return Err(return_not_last(span));
                }
                Ok(Ran::Output(Output::returning(cols, out)))
            }
            None => {
                *scope = cols;
                Ok(Ran::Rows(out))
            }
        }
    }
}
