//! `LOAD CSV [WITH HEADERS] FROM url AS row`: `LoadCSV`, a row per record, with the line and
//! file `linenumber()` and `file()` read. The file access is `exec::load_csv`'s.

use super::super::{extended_row, load_csv, Access, Env, Row, Runner, Shared};
use super::{start, UNWIND_ROWS};
use crate::engine::error::{ExecError, Result};
use crate::engine::eval::{LOAD_CSV_FILE, LOAD_CSV_LINE};
use crate::plan::Plan;
use crate::syntax::LoadCsv;
use crate::value::Value;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    l: &LoadCsv,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let run = Runner::new(access.graph(), sh);
    let mut out = Vec::new();
    for r in rows {
        let src = run.eval(&l.source, &Env::new(scope, &r))?;
        let Value::String(url) = src else {
            return Err(ExecError::type_error("LOAD CSV FROM expects a string URL"));
        };
        let (records, file) = load_csv(sh, &url, l.with_headers, l.field_terminator.as_deref())?;
        let file = Value::from(file);
        for (rec, line) in records {
            let nr = extended_row(&r, [rec, Value::Int(line), file.clone()]);
            sh.charge(Shared::row_bytes(&nr))?;
            out.push(nr);
            sh.check_rows(out.len())?;
        }
    }
    bind(l, scope);
    Ok(out)
}

/// The record's variable, and the hidden line and file columns.
fn bind(l: &LoadCsv, scope: &mut Vec<Arc<str>>) {
    scope.push(Arc::from(l.variable.name.as_str()));
    scope.push(Arc::from(LOAD_CSV_LINE));
    scope.push(Arc::from(LOAD_CSV_FILE));
}

pub(super) fn explain(
    l: &LoadCsv,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    text: &str,
) -> Plan {
    bind(l, scope);
    let input = start(input);
    let rows = input.estimated_rows * UNWIND_ROWS;
    Plan::over("LoadCSV", text.to_string(), input)
        .bind([l.variable.name.clone()])
        .estimate(rows)
}
