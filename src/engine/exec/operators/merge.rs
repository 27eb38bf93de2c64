//! `MERGE pattern [ON CREATE …] [ON MATCH …]`: `Merge`, run by `exec::update`.

use super::super::{declare_pattern_vars, update, Access, Row, Shared};
use super::{start, strip_keyword, writable};
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::Merge;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    m: &Merge,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    update::exec_merge(writable(access)?, sh, m, scope, rows)
}

pub(super) fn explain(
    m: &Merge,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    text: &str,
) -> Plan {
    declare_pattern_vars(std::slice::from_ref(&m.pattern), scope);
    Plan::over("Merge", strip_keyword(text, "MERGE"), start(input))
        .bind(scope.iter().map(|s| s.to_string()))
}
