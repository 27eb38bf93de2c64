//! `CREATE pattern`: `Create`, run by `exec::update`.

use super::super::{declare_pattern_vars, update, Access, Row, Shared};
use super::{start, strip_keyword, writable};
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::Create;
use std::sync::Arc;

pub(super) fn run(
    access: &mut Access,
    sh: &Shared,
    c: &Create,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    update::exec_create(writable(access)?, sh, &c.pattern, scope, rows)
}

pub(super) fn explain(
    c: &Create,
    scope: &mut Vec<Arc<str>>,
    input: Option<Plan>,
    text: &str,
) -> Plan {
    declare_pattern_vars(&c.pattern, scope);
    Plan::over("Create", strip_keyword(text, "CREATE"), start(input))
        .bind(scope.iter().map(|s| s.to_string()))
}
