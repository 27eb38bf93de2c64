//! `REMOVE …`: `RemoveLabels`, or `SetProperty` to null for a property, run row by row by
//! `exec::update`.

use super::super::{update, Access, Row, Shared};
use super::{start, strip_keyword, writable};
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::{Remove, RemoveItem};
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    rm: &Remove,
    scope: &mut [Arc<str>],
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let g = writable(access)?;
    for r in &rows {
        for it in &rm.items {
            update::apply_remove(g, sh, it, scope, r)?;
        }
    }
    Ok(rows)
}

pub(super) fn explain(r: &Remove, input: Option<Plan>, text: &str) -> Plan {
    let op = match r.items.first() {
        Some(RemoveItem::Labels { .. }) => "RemoveLabels",
        _ => "SetProperty",
    };
    Plan::over(op, strip_keyword(text, "REMOVE"), start(input))
}
