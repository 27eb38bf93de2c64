//! `FOREACH (x IN list | clauses)`: `Foreach`. The body's updating clauses run for each item,
//! on the row with `x` bound; the rows pass on unchanged.

use super::super::{Access, Env, Row, Runner, Shared};
use super::{start, strip_keyword, Ran, Step};
use crate::engine::error::{ExecError, Result};
use crate::plan::Plan;
use crate::syntax::Foreach;
use crate::value::Value;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    f: &Foreach,
    body: &[Step],
    scope: &mut [Arc<str>],
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    for r in &rows {
        let list = {
            let run = Runner::new(access.graph(), sh);
            run.eval(&f.list, &Env::new(scope, r))?
        };
        let items = match list {
            Value::Null => vec![],
            Value::List(l) => l,
            other => {
                return Err(ExecError::type_error(format!(
                    "FOREACH expects a list, got {}",
                    crate::value::type_name(&other)
                )))
            }
        };
        for it in items {
            let mut inner_scope = scope.to_vec();
            inner_scope.push(Arc::from(f.variable.name.as_str()));
            let mut nr = r.clone();
            nr.push(it);
            let mut inner_rows = vec![nr];
            for step in body {
                let mut unprofiled = None;
                inner_rows =
                    match step.run(access, sh, &mut inner_scope, inner_rows, &mut unprofiled)? {
                        Ran::Rows(rows) => rows,
                        // Only updating clauses are allowed in FOREACH (the checker's rule).
                        Ran::Output(_) => Vec::new(),
                    };
            }
        }
    }
    Ok(rows)
}

pub(super) fn explain(input: Option<Plan>, text: &str) -> Plan {
    Plan::over("Foreach", strip_keyword(text, "FOREACH"), start(input))
}
