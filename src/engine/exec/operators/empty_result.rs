//! `FINISH` (Cypher 25): the query returns no rows (`EmptyResult`). Run in `Step::run`.

use super::start;
use crate::plan::Plan;

pub(super) fn explain(input: Option<Plan>) -> Plan {
    Plan::over("EmptyResult", "", start(input)).estimate(0.0)
}
