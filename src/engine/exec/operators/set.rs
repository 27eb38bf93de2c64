//! `SET …`: `SetProperty`, `SetLabels` or `SetPropertiesFromMap` (by its first item), run
//! row by row by `exec::update`.

use super::super::{update, Access, Row, Shared};
use super::{start, strip_keyword, writable};
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::{SetClause, SetItem};
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    s: &SetClause,
    scope: &mut [Arc<str>],
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let g = writable(access)?;
    for r in &rows {
        update::apply_set_items(g, sh, &s.items, scope, r)?;
    }
    Ok(rows)
}

pub(super) fn explain(s: &SetClause, input: Option<Plan>, text: &str) -> Plan {
    let op = match s.items.first() {
        Some(SetItem::Labels { .. }) => "SetLabels",
        Some(SetItem::Variable { .. }) => "SetPropertiesFromMap",
        _ => "SetProperty",
    };
    Plan::over(op, strip_keyword(text, "SET"), start(input))
}
