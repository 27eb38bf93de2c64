//! `CALL proc(…) [YIELD …]`: `ProcedureCall`. The procedure is bound once per step, before
//! its rows (`procedures::resolve`, `procedures::resolve_write`); a call that is the whole
//! query returns the procedure's rows.

use super::super::{call, Access, Output, Row, Runner, Shared};
use super::{start, writable, Ran, UNWIND_ROWS};
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::CallProcedure;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    c: &CallProcedure,
    standalone: bool,
    writes: bool,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Ran> {
    let before = scope.len();
    let out = if writes {
        call::call_writing_procedure(writable(access)?, sh, c, scope, rows)?
    } else {
        Runner::new(access.graph(), sh).call_procedure(c, scope, rows)?
    };
    if !standalone {
        return Ok(Ran::Rows(out));
    }
    // A VOID procedure's call has no columns, and no rows.
    let columns = scope[before..].to_vec();
    let rows = match columns.is_empty() {
        true => Vec::new(),
        false => out.into_iter().map(|r| r[before..].to_vec()).collect(),
    };
    Ok(Ran::Output(Output {
        columns,
        rows,
        returns: true,
        units: 0,
    }))
}

pub(super) fn explain(
    c: &CallProcedure,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    text: &str,
) -> Plan {
    let yielded: Vec<String> = match &c.yield_ {
        Some(y) => y
            .items
            .iter()
            .map(|it| it.alias.as_ref().unwrap_or(&it.field).name.clone())
            .collect(),
        None => crate::catalogue::procedure(&c.name.dotted())
            .and_then(|p| p.signature())
            .map(|s| s.outputs.iter().map(|o| o.name.clone()).collect())
            .unwrap_or_default(),
    };
    scope.extend(yielded.iter().map(|y| Arc::from(y.as_str())));
    let input = start(input);
    let rows = input.estimated_rows * UNWIND_ROWS;
    let call = text.trim_start_matches("OPTIONAL ").trim_start();
    Plan::over("ProcedureCall", call.to_string(), input)
        .bind(yielded)
        .estimate(rows)
}
