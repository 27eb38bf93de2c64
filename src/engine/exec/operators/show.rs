//! `SHOW FUNCTIONS`, `SHOW INDEXES`, … : `ShowFunctions`, `ShowIndexes`, … (run by
//! `exec::show`). A SHOW command that ends its query returns its rows.

use super::super::{show_columns, Access, Output, Row, Runner, Shared};
use super::{start, strip_keyword, Ran};
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::{Show, ShowKind};
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    c: &Show,
    last: bool,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Ran> {
    let out = Runner::new(access.graph(), sh).exec_show(c, scope, rows)?;
    if !last {
        return Ok(Ran::Rows(out));
    }
    Ok(Ran::Output(Output {
        columns: scope.clone(),
        rows: out,
        returns: true,
        units: 0,
    }))
}

pub(super) fn explain(
    run: &Runner,
    c: &Show,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    text: &str,
) -> Plan {
    let (rows, yielded) = show_columns(c, run.graph());
    scope.extend(yielded.iter().cloned());
    let op = match c.kind {
        ShowKind::Functions => "ShowFunctions",
        ShowKind::Procedures => "ShowProcedures",
        ShowKind::Indexes(_) => "ShowIndexes",
        ShowKind::Constraints(_) => "ShowConstraints",
        ShowKind::Databases(_) => "ShowDatabase",
        ShowKind::Settings => "ShowSettings",
        ShowKind::Transactions => "ShowTransactions",
        ShowKind::Terminate => "TerminateTransactions",
        ShowKind::CurrentUser => "ShowCurrentUser",
        ShowKind::Users { .. } => "ShowUsers",
    };
    Plan::over(op, strip_keyword(text, "SHOW"), start(input))
        .bind(yielded.iter().map(|c| c.to_string()))
        .estimate(rows as f64)
}
