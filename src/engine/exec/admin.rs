//! Administration commands on the DBMS's users, as Neo4j 5.26 community runs them (checked
//! against the oracle): their refusals in Neo4j's words and codes, the system updates they
//! count, and enterprise's commands refused as unsupported.

use super::*;
use crate::engine::security::{Password, UserError, Users, MIN_PASSWORD_LENGTH};
use crate::engine::Detail;
use crate::syntax::ast::{AdminCommand, Parameter, SchemaName, Secret, UserOption};

fn param_key(p: &Parameter) -> String {
    match p {
        Parameter::Named(s) => s.clone(),
        Parameter::Positional(i) => i.to_string(),
    }
}

fn missing(key: &str) -> ExecError {
    ExecError::compile(
        ErrorKind::ParameterMissing,
        format!("Expected parameter(s): {key}"),
    )
}

/// A user name as written, or its parameter's string.
fn user_name(sh: &Shared, n: &SchemaName) -> Result<String> {
    match n {
        SchemaName::Name(i) => Ok(i.name.clone()),
        SchemaName::Parameter(p, span) => {
            let key = param_key(p);
            match sh.params.get(&key) {
                Some(Value::String(s)) => Ok(s.to_string()),
                None | Some(Value::Null) => Err(missing(&key).at(*span)),
                Some(v) => Err(ExecError::type_error(format!(
                    "Expected parameter ${key} to have type String but was {}",
                    crate::engine::apoc::java_value_text(v)
                ))
                .at(*span)),
            }
        }
    }
}

/// A password as written, or its parameter's string.
fn secret(sh: &Shared, s: &Secret) -> Result<String> {
    match s {
        Secret::Literal(text, _) => Ok(text.clone()),
        Secret::Parameter(p, span) => {
            let key = param_key(p);
            match sh.params.get(&key) {
                Some(Value::String(s)) => Ok(s.to_string()),
                None | Some(Value::Null) => Err(missing(&key).at(*span)),
                Some(v) => Err(ExecError::type_error(format!(
                    "Expected password parameter ${key} to have type String but was {}",
                    java_class_name(v)
                ))
                .at(*span)),
            }
        }
    }
}

/// The simple name of the Java class Neo4j holds a value in.
fn java_class_name(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "Long",
        Value::Float(_) => "Double",
        Value::Bool(_) => "Boolean",
        Value::List(_) => "List",
        Value::Map(_) => "Map",
        _ => "Object",
    }
}

fn argument(message: impl Into<String>) -> ExecError {
    ExecError::runtime(ErrorKind::ArgumentError, message).with_detail(Detail::InvalidArgumentValue)
}

/// Neo4j's rule for user names: not empty; ASCII without `,`, `:` or white space.
fn check_name(name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(argument("The provided username is empty."));
    }
    if name
        .chars()
        .any(|c| !c.is_ascii() || c == ',' || c == ':' || c.is_ascii_whitespace())
    {
        return Err(argument(format!(
            "Username '{name}' contains illegal characters."
        )));
    }
    Ok(())
}

fn check_password(password: &str) -> Result<()> {
    if password.is_empty() {
        return Err(argument("A password cannot be empty."));
    }
    if password.chars().count() < MIN_PASSWORD_LENGTH {
        return Err(argument(format!(
            "A password must be at least {MIN_PASSWORD_LENGTH} characters."
        )));
    }
    Ok(())
}

/// What a `CREATE USER` / `ALTER USER` sets.
#[derive(Default)]
struct Settings {
    password: Option<(String, bool)>,
    change_required: Option<bool>,
    /// The first enterprise-only clause: `SET STATUS` or `HOME DATABASE`.
    enterprise: Option<&'static str>,
}

fn settings(sh: &Shared, options: &[UserOption]) -> Result<Settings> {
    let mut s = Settings::default();
    for o in options {
        match o {
            UserOption::Password {
                encrypted,
                secret: text,
                change_required,
                ..
            } => {
                let text = secret(sh, text)?;
                if *encrypted {
                    if !Users::valid_encrypted(&text) {
                        return Err(argument("Incorrect format of encrypted password. Correct format is '<encryption-version>,<hash>,<salt>'."));
                    }
                } else {
                    check_password(&text)?;
                }
                s.password = Some((text, *encrypted));
                if change_required.is_some() {
                    s.change_required = *change_required;
                }
            }
            UserOption::ChangeRequired { required, .. } => s.change_required = Some(*required),
            UserOption::Status { .. } => {
                s.enterprise.get_or_insert("SET STATUS");
            }
            UserOption::Home { .. } | UserOption::RemoveHome(_) => {
                s.enterprise.get_or_insert("HOME DATABASE");
            }
        }
    }
    Ok(s)
}

fn community(action: &str, name: &str, clause: &str) -> ExecError {
    ExecError::runtime(
        ErrorKind::Unsupported,
        format!(
            "Failed to {action} the specified user '{name}': '{clause}' is not available in community edition."
        ),
    )
    .with_detail(Detail::CommunityEdition)
}

/// Runs an administration command; its system updates are counted in the statement's stats.
pub(super) fn exec_admin(sh: &Shared, c: &AdminCommand) -> Result<Vec<Row>> {
    if let AdminCommand::Enterprise { text, span } = c {
        return Err(ExecError::compile(
            ErrorKind::Unsupported,
            format!("Unsupported administration command: {text}"),
        )
        .with_detail(Detail::UnsupportedAdministrationCommand)
        .at(*span));
    }
    let Some((users, current)) = sh
        .databases
        .and_then(|d| Some((d.users.clone()?, d.user.clone())))
    else {
        return Err(ExecError::compile(
            ErrorKind::Unsupported,
            "user management needs a DBMS that keeps users: `grape serve bolt` has them, an engine run on a graph alone has none",
        )
        .with_detail(Detail::UnsupportedAdministrationCommand)
        .at(c.span()));
    };
    let updates = match c {
        AdminCommand::CreateUser {
            name,
            or_replace,
            if_not_exists,
            options,
            ..
        } => {
            let name = user_name(sh, name)?;
            check_name(&name)?;
            let s = settings(sh, options)?;
            if let Some(clause) = s.enterprise {
                return Err(community("create", &name, clause));
            }
            let Some((password, encrypted)) = &s.password else {
                return Err(argument(format!(
                    "Failed to create the specified user '{name}': a password is required."
                )));
            };
            if *if_not_exists && users.exists(&name) {
                0
            } else {
                let p = if *encrypted {
                    Password::Encrypted(password)
                } else {
                    Password::Plain(password)
                };
                users
                    .create(&name, p, s.change_required.unwrap_or(true), *or_replace)
                    .map_err(|e| {
                        argument(format!("Failed to create the specified user '{name}': {e}"))
                    })?
            }
        }
        AdminCommand::AlterUser {
            name,
            if_exists,
            options,
            ..
        } => {
            let name = user_name(sh, name)?;
            let s = settings(sh, options)?;
            if !users.exists(&name) {
                if *if_exists {
                    return Ok(Vec::new());
                }
                return Err(argument(format!(
                    "Failed to alter the specified user '{name}': {}",
                    UserError::Missing
                )));
            }
            if let Some(clause) = s.enterprise {
                return Err(community("alter", &name, clause));
            }
            let password = s.password.as_ref().map(|(p, encrypted)| {
                if *encrypted {
                    Password::Encrypted(p)
                } else {
                    Password::Plain(p)
                }
            });
            users
                .set_password(&name, password, s.change_required)
                .map_err(|e| {
                    argument(format!("Failed to alter the specified user '{name}': {e}"))
                })?;
            1
        }
        AdminCommand::AlterCurrentUser { old, new, .. } => {
            let (old, new) = (secret(sh, old)?, secret(sh, new)?);
            let Some(me) = current.as_deref() else {
                return Err(argument(
                    "User failed to alter their own password: Command not available with auth disabled.",
                ));
            };
            check_password(&new)?;
            users.change_own_password(me, &old, &new).map_err(|e| {
                argument(format!(
                    "User '{me}' failed to alter their own password: {e}"
                ))
            })?;
            1
        }
        AdminCommand::RenameUser {
            from,
            to,
            if_exists,
            ..
        } => {
            let (from, to) = (user_name(sh, from)?, user_name(sh, to)?);
            check_name(&to)?;
            if *if_exists && !users.exists(&from) {
                return Ok(Vec::new());
            }
            users.rename(&from, &to).map_err(|e| {
                argument(format!(
                    "Failed to rename the specified user '{from}' to '{to}': {e}"
                ))
            })?;
            1
        }
        AdminCommand::DropUser {
            name, if_exists, ..
        } => {
            let name = user_name(sh, name)?;
            if *if_exists && !users.exists(&name) {
                return Ok(Vec::new());
            }
            users.drop_user(&name, current.as_deref()).map_err(|e| {
                argument(format!("Failed to delete the specified user '{name}': {e}"))
            })?;
            1
        }
        AdminCommand::Enterprise { .. } => 0,
    };
    sh.stats.borrow_mut().system_updates += updates;
    Ok(Vec::new())
}
