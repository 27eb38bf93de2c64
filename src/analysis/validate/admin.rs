//! Neo4j's compile-time checks of administration commands (`CREATE USER`, `ALTER USER`),
//! with its messages.

use super::*;

fn written_name(n: &SchemaName) -> String {
    match n {
        SchemaName::Name(i) => i.name.clone(),
        SchemaName::Parameter(Parameter::Named(p), _) => format!("${p}"),
        SchemaName::Parameter(Parameter::Positional(i), _) => format!("${i}"),
    }
}

impl Checker<'_, '_> {
    /// Neo4j's position suffix for these messages: ` (line 1, column 1 (offset: 0))`.
    fn admin_position(&self, offset: usize) -> String {
        let (line, column, _) = crate::syntax::error::line_col(self.src, offset);
        format!(" (line {line}, column {column} (offset: {offset}))")
    }

    pub(super) fn admin_command(&mut self, c: &AdminCommand) {
        match c {
            AdminCommand::CreateUser {
                name,
                or_replace,
                if_not_exists,
                options,
                span,
            } => {
                if *or_replace && *if_not_exists {
                    self.diag(
                        DiagnosticKind::InvalidSchemaCommand,
                        format!(
                            "Failed to create the specified user '{}': cannot have both `OR REPLACE` and `IF NOT EXISTS`.{}",
                            written_name(name),
                            self.admin_position(span.start)
                        ),
                        Span::new(span.start, span.start),
                    );
                }
                self.user_options(options);
            }
            AdminCommand::AlterUser { options, span, .. } => {
                if options.is_empty() {
                    self.diag(
                        DiagnosticKind::InvalidSchemaCommand,
                        format!(
                            "`ALTER USER` requires at least one clause.{}",
                            self.admin_position(span.start)
                        ),
                        Span::new(span.start, span.start),
                    );
                }
                self.user_options(options);
            }
            _ => {}
        }
    }

    /// Each clause at most once: Neo4j's `Duplicate … clause.` at the second.
    fn user_options(&mut self, options: &[UserOption]) {
        let (mut password, mut change, mut status, mut home) = (false, false, false, false);
        for o in options {
            let (seen, what) = match o {
                UserOption::Password {
                    change_required, ..
                } => {
                    if change_required.is_some() {
                        change = true;
                    }
                    (&mut password, "SET PASSWORD")
                }
                UserOption::ChangeRequired { .. } => {
                    (&mut change, "SET PASSWORD CHANGE [NOT] REQUIRED")
                }
                UserOption::Status { .. } => (&mut status, "SET STATUS {ACTIVE | SUSPENDED}"),
                UserOption::Home { .. } | UserOption::RemoveHome(_) => {
                    (&mut home, "SET HOME DATABASE")
                }
            };
            if std::mem::replace(seen, true) {
                // Neo4j points at `CHANGE` of a `SET PASSWORD CHANGE …`.
                let mut at = o.span().start;
                if let UserOption::ChangeRequired {
                    set_password: true,
                    span,
                    ..
                } = o
                {
                    if let Some(i) = span.text(self.src).to_ascii_uppercase().find("CHANGE") {
                        at += i;
                    }
                }
                self.diag(
                    DiagnosticKind::InvalidSchemaCommand,
                    format!("Duplicate `{what}` clause.{}", self.admin_position(at)),
                    Span::new(at, at),
                );
            }
        }
    }
}
