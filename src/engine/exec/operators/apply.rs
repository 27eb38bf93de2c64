//! `[OPTIONAL] CALL [(scope)] { … } [IN TRANSACTIONS]`: the subquery runs once per input row
//! (`Apply` when it returns rows, `SubqueryForeach` when it does not; `TransactionApply` /
//! `TransactionForeach` in transactions). Its `Argument` counts a row per run.

use super::super::{
    extended_row, import_slots, imported_values, importing_with, returned_columns, run_query,
    transactions, Access, Anon, Env, Row, Runner, Shared,
};
use super::start;
use crate::engine::error::Result;
use crate::engine::planner;
use crate::plan::Plan;
use crate::syntax::{CallSubquery, SubqueryScope};
use crate::value::Value;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    c: &CallSubquery,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let mut out = Vec::new();
    let imports: Vec<Arc<str>> = match &c.scope {
        Some(SubqueryScope::All) => scope.clone(),
        Some(SubqueryScope::Variables(vs)) => {
            vs.iter().map(|v| Arc::from(v.name.as_str())).collect()
        }
        // Without a scope clause only what an importing WITH names comes in: the subquery
        // does not see the other outer variables (a MATCH on one of their names binds a new
        // variable).
        None => importing_with(&c.query, scope),
    };
    // Under PROFILE: the subquery's `Argument` produces a row per run of it, one per input
    // row.
    sh.profile_steps(probe_key(c), 0, rows.len() as u64);
    if let Some(tx) = &c.in_transactions {
        return transactions::call_in_transactions(access, sh, c, tx, &imports, scope, rows);
    }
    let import_slots = import_slots(&imports, scope);
    for r in rows {
        let env = Env::new(scope, &r);
        let vals = imported_values(&import_slots, &env);
        let sub = run_query(access, sh, &c.query, Some((&imports, &vals)))?;
        if sub.returns {
            if sub.rows.is_empty() && c.optional {
                let mut nr = r.clone();
                nr.extend(sub.columns.iter().map(|_| Value::Null));
                out.push(nr);
            }
            for sr in sub.rows {
                let nr = extended_row(&r, sr);
                sh.charge(Shared::row_bytes(&nr))?;
                out.push(nr);
            }
        } else {
            out.push(r);
        }
        sh.check_rows(out.len())?;
    }
    // The subquery's columns, known from its RETURN clause.
    if let Some(cols) = returned_columns(&c.query, sh.src) {
        scope.extend(cols);
    }
    Ok(out)
}

/// The PROFILE counter of the subquery's `Argument`.
fn probe_key(c: &CallSubquery) -> usize {
    c as *const CallSubquery as usize
}

pub(super) fn explain(
    run: &Runner,
    c: &CallSubquery,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    anon: &mut Anon,
) -> Result<Plan> {
    let imports: Vec<Arc<str>> = match &c.scope {
        Some(SubqueryScope::Variables(vs)) => {
            vs.iter().map(|v| Arc::from(v.name.as_str())).collect()
        }
        _ => scope.clone(),
    };
    let mut arg =
        Plan::leaf("Argument", imports.join(", ")).bind(imports.iter().map(|s| s.to_string()));
    if run.sh.profile.is_some() {
        arg.probe = Some(crate::plan::Probe::Step(probe_key(c), 0));
    }
    let (sub, cols, returns) = planner::query(run, &c.query, &imports, Some(arg), anon)?;
    let lhs = start(input);
    let op = match (c.in_transactions.is_some(), returns) {
        (true, true) => "TransactionApply",
        (true, false) => "TransactionForeach",
        (false, true) => "Apply",
        (false, false) => "SubqueryForeach",
    };
    let rows = if returns {
        lhs.estimated_rows * sub.estimated_rows.max(1.0)
    } else {
        lhs.estimated_rows
    };
    if returns {
        scope.extend(cols.iter().cloned());
    }
    let mut p = Plan::over(op, "", lhs).bind(cols.iter().map(|c| c.to_string()));
    p.children.push(sub);
    Ok(p.estimate(rows))
}
