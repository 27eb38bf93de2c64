//! `CREATE INDEX`, `CREATE CONSTRAINT`, `DROP …`: the schema commands (run by
//! `exec::schema`).

use super::super::{schema, Access, Row, Shared};
use super::{start, writable};
use crate::engine::error::Result;
use crate::plan::Plan;
use crate::syntax::SchemaCommand;

pub(super) fn run(access: &mut Access, sh: &Shared, c: &SchemaCommand) -> Result<Vec<Row>> {
    schema::exec_schema(writable(access)?, sh, c)
}

pub(super) fn explain(c: &SchemaCommand, input: Option<Plan>, text: &str) -> Plan {
    let op = match c {
        SchemaCommand::CreateIndex(_) => "CreateIndex",
        SchemaCommand::DropIndex(_) => "DropIndex",
        SchemaCommand::CreateConstraint(_) => "CreateConstraint",
        SchemaCommand::DropConstraint(_) => "DropConstraint",
    };
    Plan::over(op, text.to_string(), start(input)).estimate(0.0)
}
