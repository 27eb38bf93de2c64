//! `[DETACH] DELETE …`: `Delete` / `DetachDelete`, run by `exec::update`.

use super::super::{update, Access, Row, Shared};
use super::{start, strip_keyword, writable};
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::Delete;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    d: &Delete,
    scope: &mut [Arc<str>],
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    update::exec_delete(writable(access)?, sh, d, scope, &rows)?;
    Ok(rows)
}

pub(super) fn explain(d: &Delete, input: Option<Plan>, text: &str) -> Plan {
    let op = if d.detach { "DetachDelete" } else { "Delete" };
    let details = strip_keyword(&strip_keyword(text, "DETACH"), "DELETE");
    Plan::over(op, details, start(input))
}
