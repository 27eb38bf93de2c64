//! `CREATE USER`, `ALTER USER`, … : the system database's user commands (run by
//! `exec::admin`); enterprise's commands are refused there.

use super::start;
use crate::plan::Plan;
use crate::syntax::ast::AdminCommand;

pub(super) fn explain(c: &AdminCommand, input: Option<Plan>) -> Plan {
    let op = match c {
        AdminCommand::CreateUser { .. } => "CreateUser",
        AdminCommand::AlterUser { .. } => "AlterUser",
        AdminCommand::AlterCurrentUser { .. } => "AlterCurrentUserSetPassword",
        AdminCommand::RenameUser { .. } => "RenameUser",
        AdminCommand::DropUser { .. } => "DropUser",
        AdminCommand::Enterprise { .. } => "AdministrationCommand",
    };
    Plan::over(op, String::new(), start(input)).estimate(0.0)
}
