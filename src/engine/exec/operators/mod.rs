//! A single query's operator pipeline: one step per operator, built once from the query
//! before anything runs. The executor runs the steps (`run`, in `exec::run_single`) and the
//! planner prints them (`explain`, in `planner::single`); each operator's two halves are in
//! one file here, named after the operator Neo4j shows for it.
//!
//! The decisions that used to be taken at run time by looking at the next clause are taken
//! here, once, for both: a `MATCH` whose rows feed an aggregating `WITH`/`RETURN` as they are
//! found ([`Op::AggregateMatch`]), a `MATCH` that stops at a following `LIMIT`
//! ([`Op::Match`]'s `cap`), a procedure call that is the whole statement, a `RETURN *` after a
//! `SHOW` command.
//!
//! The operators inside a step — a pattern's scans and expansions (`exec::explain`,
//! `exec::physical`), a projection's aggregation, sort and limit (`exec::project`) — are planned
//! and counted by those modules, from the same compiled patterns the executor runs.

mod admin;
pub(crate) mod aggregate_match;
mod apply;
mod create;
mod delete;
mod empty_result;
mod filter;
mod foreach;
mod let_;
pub(crate) mod live;
mod load_csv;
mod match_;
pub(crate) use match_::rows_needed;
mod match_group;
mod merge;
mod procedure_call;
mod produce_results;
mod projection;
mod remove;
mod schema;
mod set;
mod show;
mod unwind;

use super::{Access, Output, Row, Runner, Shared};
use crate::engine::error::Result;
use crate::engine::exec::Anon;
use crate::plan::Plan;
use crate::syntax::{self as ast, Clause, SingleQuery};
use std::sync::Arc;

/// The steps of one single query (one part of a UNION), in order.
pub(crate) struct Pipeline<'q> {
    pub steps: Vec<Step<'q>>,
}

/// One operator of a pipeline, and the clause whose PROFILE counter its output rows go to.
pub(crate) struct Step<'q> {
    pub clause: &'q Clause,
    pub op: Op<'q>,
    /// The names this step and the ones after it may read (`live`): the other columns of its
    /// input rows are nulls to it.
    pub live: live::Live,
}

/// What a step does. Each variant is run and explained by the file of the same name.
pub(crate) enum Op<'q> {
    /// `{ q }`, `q NEXT q`, `WHEN …` (Cypher 25): always a whole single query, run by
    /// `exec::run_composed` and planned by `planner::composed`.
    Composed,
    /// `[OPTIONAL] MATCH`; `cap` is the projection right after it whose `LIMIT` (and `SKIP`)
    /// bound the rows it needs to find.
    Match {
        m: &'q ast::Match,
        cap: Option<&'q ast::Projection>,
        order: Option<match_::Early<'q>>,
    },
    /// A `MATCH` followed by an aggregating `WITH` or `RETURN` (the step's clause): the
    /// matches are grouped as they are found and never held.
    AggregateMatch(aggregate_match::Fused<'q>),
    /// `WITH` (with its `WHERE`).
    Projection(&'q ast::With),
    /// `RETURN`; `after_show` when it reads a `SHOW` command's rows (`RETURN *` keeps their
    /// order).
    ProduceResults {
        r: &'q ast::Return,
        after_show: bool,
        last: bool,
    },
    /// `UNWIND`; `after`: the names the steps after it may read (the rows it makes keep
    /// only those of their input's columns).
    Unwind {
        u: &'q ast::Unwind,
        after: live::Live,
    },
    /// `CALL proc(…)`; `standalone` when the call is the whole query (it returns the
    /// procedure's rows), `writes` when the procedure writes.
    ProcedureCall {
        c: &'q ast::CallProcedure,
        standalone: bool,
        writes: bool,
    },
    /// `CALL { … }`: `Apply` (or `SubqueryForeach`, `TransactionApply`, …).
    Apply(&'q ast::CallSubquery),
    Create(&'q ast::Create),
    Merge(&'q ast::Merge),
    Set(&'q ast::SetClause),
    Remove(&'q ast::Remove),
    Delete(&'q ast::Delete),
    /// `FOREACH`, with its body's own pipeline.
    Foreach {
        f: &'q ast::Foreach,
        body: Vec<Step<'q>>,
    },
    LoadCsv(&'q ast::LoadCsv),
    /// `USE`: chooses the graph before the query runs; passes its rows on.
    Use,
    /// `FINISH`: no rows.
    EmptyResult,
    Let(&'q ast::Let),
    Filter(&'q ast::Filter),
    Show {
        c: &'q ast::Show,
        last: bool,
    },
    Admin(&'q ast::AdminCommand),
    Schema(&'q ast::SchemaCommand),
}

/// What a step hands on: rows for the next step, or the query's result.
pub(crate) enum Ran {
    Rows(Vec<Row>),
    Output(Output),
}

/// What explaining a step gives the planner: the plan so far, or the whole query's plan (a
/// `RETURN`), or nothing new (a `USE` at the start).
pub(crate) enum Planned {
    Plan(Plan),
    Returned(Plan),
    Unchanged,
}

impl<'q> Pipeline<'q> {
    /// The steps of `q`, planned once on the graph `run` reads, with `outer` bound before it
    /// (a subquery's imports).
    pub(crate) fn of(q: &'q SingleQuery, run: &Runner, outer: &[Arc<str>]) -> Pipeline<'q> {
        let mut clauses: Vec<&'q Clause> = q.clauses.iter().collect();
        match_group::order(run, q, &mut clauses, outer);
        Pipeline {
            steps: steps(&clauses, Some(run.sh)),
        }
    }

    /// The query is a composed one (`{ q }`, `NEXT`, `WHEN`): its only step.
    pub(crate) fn composed(&self) -> Option<&'q Clause> {
        match self.steps.as_slice() {
            [Step {
                clause,
                op: Op::Composed,
                ..
            }] => Some(clause),
            _ => None,
        }
    }
}

/// The steps of `clauses`: a query's own clauses, in the statement `sh` runs (whose text the
/// names later clauses read come from), or a FOREACH body's (`None`: run one by one, as
/// written, every column kept).
fn steps<'q>(clauses: &[&'q Clause], sh: Option<&Shared>) -> Vec<Step<'q>> {
    let top = sh.is_some();
    let n = clauses.len();
    let mut out = Vec::with_capacity(n);
    let mut i = 0;
    // (Found once per clause and statement: see `Shared::live_sets`.)
    let live_from = |k: usize| -> live::Live {
        let sh = sh?;
        let key = clauses.get(k).map_or(0, |c| *c as *const Clause as usize);
        if let Some(l) = sh.live_sets.borrow().get(&key) {
            return l.clone();
        }
        let l = live::after(&clauses[k..], sh.src);
        sh.live_sets.borrow_mut().insert(key, l.clone());
        l
    };
    while i < n {
        let clause = clauses[i];
        let live = live_from(i);
        let next = clauses.get(i + 1).copied().filter(|_| top);
        let last = i + 1 == n;
        i += 1;
        let op = match clause {
            Clause::Braced(_) | Clause::Next(_) | Clause::When(_) => Op::Composed,
            Clause::Match(m) => {
                if let Some((p, where_, returns)) = aggregate_match::aggregating(next) {
                    // The next clause runs within this step.
                    i += 1;
                    let returns = returns.map(|span| (span, i == n));
                    out.push(Step {
                        clause: next.expect("aggregating() saw it"),
                        op: Op::AggregateMatch(aggregate_match::Fused {
                            matched: clause,
                            m,
                            p,
                            where_,
                            returns,
                        }),
                        live,
                    });
                    continue;
                }
                let cap = match m.optional {
                    true => None,
                    false => match_::cap(next),
                };
                // A query's first MATCH may sort by the next projection's ORDER BY as it
                // matches, where the plan finds that cheaper (`compile::sort_early`); of two
                // leading MATCH clauses, the first may sort its rows for the second to expand
                // only until the projection's LIMIT (`match_::sorts_after`).
                let order = match (i, next) {
                    (1, Some(Clause::Match(m2))) if top && m.search.is_none() => {
                        match_::early_order(m2, clauses.get(2).copied())
                            .map(|p| match_::Early::After(p, m2))
                    }
                    (1, _) => match_::early_order(m, next).map(match_::Early::Chain),
                    (2, _) if top => match (clauses[0], out.last().map(|s: &Step| &s.op)) {
                        (
                            Clause::Match(m1),
                            Some(Op::Match {
                                order: Some(match_::Early::After(p, _)),
                                ..
                            }),
                        ) => Some(match_::Early::Follows(p, m1)),
                        _ => None,
                    },
                    _ => None,
                };
                Op::Match { m, cap, order }
            }
            Clause::With(w) => Op::Projection(w),
            Clause::Return(r) => Op::ProduceResults {
                r,
                after_show: i > 1 && matches!(clauses[i - 2], Clause::Show(_)),
                last,
            },
            Clause::Unwind(u) => Op::Unwind {
                u,
                after: live_from(i),
            },
            Clause::CallProcedure(c) => Op::ProcedureCall {
                c,
                standalone: top && n == 1,
                writes: crate::engine::procedures::writes(&c.name.dotted()),
            },
            Clause::CallSubquery(c) => Op::Apply(c),
            Clause::Create(c) => Op::Create(c),
            Clause::Merge(m) => Op::Merge(m),
            Clause::Set(s) => Op::Set(s),
            Clause::Remove(r) => Op::Remove(r),
            Clause::Delete(d) => Op::Delete(d),
            Clause::Foreach(f) => Op::Foreach {
                f,
                body: steps(&f.clauses.iter().collect::<Vec<_>>(), None),
            },
            Clause::LoadCsv(l) => Op::LoadCsv(l),
            Clause::Use(_) => Op::Use,
            Clause::Finish(_) => Op::EmptyResult,
            Clause::Let(l) => Op::Let(l),
            Clause::Filter(f) => Op::Filter(f),
            Clause::Show(c) => Op::Show {
                c,
                last: top && last,
            },
            Clause::Admin(c) => Op::Admin(c),
            Clause::Schema(c) => Op::Schema(c),
        };
        out.push(Step { clause, op, live });
    }
    out
}

impl Step<'_> {
    /// Runs the step on its input rows (`scope` names their columns and is extended by what
    /// the step binds). `started` is the PROFILE counter started for the step; a step that
    /// measures an operator of its own before its output (the MATCH of an
    /// [`Op::AggregateMatch`]) ends it and starts the next.
    pub(crate) fn run(
        &self,
        access: &mut Access,
        sh: &Shared,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
        started: &mut Option<(u64, u64)>,
    ) -> Result<Ran> {
        let rows = match &self.op {
            Op::Composed => {
                return Err(crate::engine::error::ExecError::unsupported(
                    "a composed query amid other clauses",
                ))
            }
            Op::Match { m, cap, order } => match_::run(access, sh, m, *cap, *order, scope, rows)?,
            Op::AggregateMatch(step) => return step.run(access, sh, scope, rows, started),
            Op::Projection(w) => projection::run(access, sh, w, scope, rows)?,
            Op::ProduceResults {
                r,
                after_show,
                last,
            } => return produce_results::run(access, sh, r, *after_show, *last, scope, rows),
            Op::Unwind { u, after } => unwind::run(access, sh, u, after, scope, rows)?,
            Op::ProcedureCall {
                c,
                standalone,
                writes,
            } => return procedure_call::run(access, sh, c, *standalone, *writes, scope, rows),
            Op::Apply(c) => apply::run(access, sh, c, scope, rows)?,
            Op::Create(c) => create::run(access, sh, c, scope, rows)?,
            Op::Merge(m) => merge::run(access, sh, m, scope, rows)?,
            Op::Set(s) => set::run(access, sh, s, scope, rows)?,
            Op::Remove(r) => remove::run(access, sh, r, scope, rows)?,
            Op::Delete(d) => delete::run(access, sh, d, scope, rows)?,
            Op::Foreach { f, body } => foreach::run(access, sh, f, body, scope, rows)?,
            Op::LoadCsv(l) => load_csv::run(access, sh, l, scope, rows)?,
            Op::Use => rows,
            Op::EmptyResult => Vec::new(),
            Op::Let(l) => let_::run(access, sh, l, scope, rows)?,
            Op::Filter(f) => filter::run(access, sh, f, scope, rows)?,
            Op::Show { c, last } => return show::run(access, sh, c, *last, scope, rows),
            Op::Admin(c) => super::admin::exec_admin(sh, c)?,
            Op::Schema(c) => schema::run(access, sh, c)?,
        };
        Ok(Ran::Rows(rows))
    }

    /// The step's operators over `input` (the plan so far; `None` at the start of a query),
    /// binding what the step binds in `scope`. Under PROFILE each carries the probe that reads
    /// the counter its run keeps.
    pub(crate) fn explain(
        &self,
        run: &Runner,
        scope: &mut Vec<Arc<str>>,
        input: Option<Plan>,
        anon: &mut Anon,
    ) -> Result<Planned> {
        let text = || clause_text(run, self.clause);
        let plan = match &self.op {
            // Planned as a whole query (`planner::composed`); amid other clauses it fails.
            Op::Composed => start(input),
            Op::Match { m, order, .. } => {
                match match_::explain(run, self.clause, m, *order, scope, input, anon)? {
                    // The clause's counts are on the MATCH's own top operator, under the sort.
                    (plan, true) => return Ok(Planned::Plan(plan)),
                    (plan, false) => plan,
                }
            }
            Op::AggregateMatch(step) => match step.explain(run, scope, input, anon)? {
                (plan, true) => return Ok(Planned::Returned(profiled(run, self.clause, plan))),
                (plan, false) => plan,
            },
            Op::Projection(w) => projection::explain(run, w, scope, input, anon)?,
            Op::ProduceResults { r, .. } => {
                let plan = produce_results::explain(run, r, scope, input, anon)?;
                return Ok(Planned::Returned(profiled(run, self.clause, plan)));
            }
            Op::Unwind { u, .. } => unwind::explain(run, u, scope, input),
            Op::ProcedureCall { c, .. } => procedure_call::explain(c, scope, input, &text()),
            Op::Apply(c) => apply::explain(run, c, scope, input, anon)?,
            Op::Create(c) => create::explain(c, scope, input, &text()),
            Op::Merge(m) => merge::explain(m, scope, input, &text()),
            Op::Set(s) => set::explain(s, input, &text()),
            Op::Remove(r) => remove::explain(r, input, &text()),
            Op::Delete(d) => delete::explain(d, input, &text()),
            Op::Foreach { .. } => foreach::explain(input, &text()),
            Op::LoadCsv(l) => load_csv::explain(l, scope, input, &text()),
            Op::Use => match input {
                Some(p) => p,
                None => return Ok(Planned::Unchanged),
            },
            Op::EmptyResult => empty_result::explain(input),
            Op::Let(l) => let_::explain(run, l, scope, input, anon)?,
            Op::Filter(f) => filter::explain(run, f, scope, input, anon)?,
            Op::Show { c, .. } => show::explain(run, c, scope, input, &text()),
            Op::Admin(c) => admin::explain(c, input),
            Op::Schema(c) => schema::explain(c, input, &text()),
        };
        Ok(Planned::Plan(profiled(run, self.clause, plan)))
    }
}

/// Under `PROFILE`: the operator that finishes a clause reports the clause's rows and db hits
/// (read after the run: [`Plan::measure`]).
pub(crate) fn profiled(run: &Runner, clause: &Clause, mut plan: Plan) -> Plan {
    if run.sh.profile.is_some() {
        plan.probe = Some(crate::plan::Probe::Clause(clause as *const Clause as usize));
    }
    plan
}

/// The plan so far, or the single empty row a query starts from.
pub(crate) fn start(p: Option<Plan>) -> Plan {
    p.unwrap_or_else(|| Plan::leaf("Argument", ""))
}

/// A clause as written, on one line.
fn clause_text(run: &Runner, c: &Clause) -> String {
    let s = c.span();
    let t = run.sh.src.get(s.start..s.end).unwrap_or_default();
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The clause text without its leading keyword (matched case-insensitively).
fn strip_keyword(text: &str, keyword: &str) -> String {
    match text.get(..keyword.len()) {
        Some(head) if head.eq_ignore_ascii_case(keyword) => text[keyword.len()..].trim().into(),
        _ => text.to_string(),
    }
}

/// How many rows the planner assumes an `UNWIND`, a `LOAD CSV` or a procedure produces per
/// input row.
const UNWIND_ROWS: f64 = 10.0;

/// Refuses an updating clause in a read-only context.
fn writable<'a, 'g>(access: &'a mut Access<'g>) -> Result<&'a mut crate::graph::Graph> {
    match access {
        Access::Write(g) => Ok(g),
        Access::Read(_) => Err(super::read_only()),
    }
}
