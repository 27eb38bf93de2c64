//! The builder for administration commands: user management, and enterprise's commands kept
//! as text.

use super::*;

impl<'s> Builder<'s> {
    /// An administration command, wrapped as the only clause of a query.
    pub(super) fn admin_command(&self, p: Pair<'_, Rule>) -> Res<Query> {
        let span = span_of(&p);
        let c = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, span.start))?;
        let rule = c.as_rule();
        let cspan = span_of(&c);
        let text = c.as_str().trim_end().to_string();
        let mut names = Vec::new();
        let (mut or_replace, mut if_not_exists, mut if_exists) = (false, false, false);
        let mut options = Vec::new();
        let mut secrets = Vec::new();
        for x in c.into_inner() {
            match x.as_rule() {
                Rule::user_name => names.push(self.schema_name(x)?),
                Rule::or_replace => or_replace = true,
                Rule::if_not_exists => if_not_exists = true,
                Rule::if_exists => if_exists = true,
                Rule::user_option | Rule::create_user_option => options.push(self.user_option(x)?),
                Rule::user_secret => secrets.push(self.secret(x)?),
                _ => {}
            }
        }
        let mut names = names.into_iter();
        let mut name = || names.next().ok_or_else(|| internal(self.src, cspan.start));
        let cmd = match rule {
            Rule::create_user => AdminCommand::CreateUser {
                name: name()?,
                or_replace,
                if_not_exists,
                options,
                span: cspan,
            },
            Rule::alter_user => AdminCommand::AlterUser {
                name: name()?,
                if_exists,
                options,
                span: cspan,
            },
            Rule::alter_current_user => {
                let mut s = secrets.into_iter();
                let (Some(old), Some(new)) = (s.next(), s.next()) else {
                    return Err(internal(self.src, cspan.start));
                };
                AdminCommand::AlterCurrentUser {
                    old,
                    new,
                    span: cspan,
                }
            }
            Rule::rename_user => AdminCommand::RenameUser {
                from: name()?,
                to: name()?,
                if_exists,
                span: cspan,
            },
            Rule::drop_user => AdminCommand::DropUser {
                name: name()?,
                if_exists,
                span: cspan,
            },
            _ => AdminCommand::Enterprise { text, span: cspan },
        };
        Ok(Query {
            first: SingleQuery {
                clauses: vec![Clause::Admin(cmd)],
                span,
            },
            unions: Vec::new(),
            span,
        })
    }

    fn secret(&self, p: Pair<'_, Rule>) -> Res<Secret> {
        let span = span_of(&p);
        let x = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, span.start))?;
        if x.as_rule() == Rule::string_lit {
            return Ok(Secret::Literal(self.string(x)?, span));
        }
        match self.atom(x)?.expr.kind {
            ExprKind::Parameter(param) => Ok(Secret::Parameter(param, span)),
            _ => Err(internal(self.src, span.start)),
        }
    }

    fn change(x: &Pair<'_, Rule>) -> bool {
        !x.clone().into_inner().any(|k| k.as_rule() == Rule::NOT)
    }

    fn user_option(&self, p: Pair<'_, Rule>) -> Res<UserOption> {
        let span = span_of(&p);
        let x = p
            .into_inner()
            .find(|x| x.as_rule() != Rule::SET)
            .ok_or_else(|| internal(self.src, span.start))?;
        Ok(match x.as_rule() {
            Rule::user_password => {
                let (mut encrypted, mut secret, mut change_required) = (false, None, None);
                for y in x.into_inner() {
                    match y.as_rule() {
                        Rule::user_encryption => {
                            encrypted = y.into_inner().any(|k| k.as_rule() == Rule::ENCRYPTED)
                        }
                        Rule::user_secret => secret = Some(self.secret(y)?),
                        Rule::user_change => change_required = Some(Self::change(&y)),
                        _ => {}
                    }
                }
                UserOption::Password {
                    encrypted,
                    secret: secret.ok_or_else(|| internal(self.src, span.start))?,
                    change_required,
                    span,
                }
            }
            Rule::user_password_change => UserOption::ChangeRequired {
                required: x
                    .into_inner()
                    .find(|y| y.as_rule() == Rule::user_change)
                    .is_some_and(|y| Self::change(&y)),
                set_password: true,
                span,
            },
            Rule::user_change => UserOption::ChangeRequired {
                required: Self::change(&x),
                set_password: false,
                span,
            },
            Rule::user_status => UserOption::Status {
                suspended: x.into_inner().any(|k| k.as_rule() == Rule::SUSPENDED),
                span,
            },
            Rule::user_home => UserOption::Home {
                database: x
                    .into_inner()
                    .find(|y| y.as_rule() == Rule::show_db_name)
                    .map(|y| y.as_str().to_string())
                    .unwrap_or_default(),
                span,
            },
            _ => UserOption::RemoveHome(span),
        })
    }
}
