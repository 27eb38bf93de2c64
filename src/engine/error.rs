//! Execution errors, typed as Neo4j and the openCypher TCK name them.

use crate::syntax::{ParseError, Span};
use serde::Serialize;
use std::fmt;

/// The error classes of the openCypher TCK / Neo4j.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ErrorKind {
    SyntaxError,
    SemanticError,
    TypeError,
    ArgumentError,
    ArithmeticError,
    EntityNotFound,
    ConstraintVerificationFailed,
    ParameterMissing,
    ProcedureError,
    /// A resource limit (time, rows, expansion) was exceeded.
    LimitExceeded,
    /// The query was cancelled from another thread.
    Cancelled,
    /// A feature grape does not execute yet.
    Unsupported,
    /// A schema command that cannot be carried out (an index that exists, a constraint the
    /// data breaks, …); the detail names Neo4j's status (`IndexAlreadyExists`, …).
    SchemaError,
    /// A `USE` clause names a database the server does not have.
    DatabaseNotFound,
}

impl ErrorKind {
    /// The Neo4j status code for this kind.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::SyntaxError => "Neo.ClientError.Statement.SyntaxError",
            ErrorKind::SemanticError => "Neo.ClientError.Statement.SemanticError",
            ErrorKind::TypeError => "Neo.ClientError.Statement.TypeError",
            ErrorKind::ArgumentError => "Neo.ClientError.Statement.ArgumentError",
            ErrorKind::ArithmeticError => "Neo.ClientError.Statement.ArithmeticError",
            ErrorKind::EntityNotFound => "Neo.ClientError.Statement.EntityNotFound",
            ErrorKind::ConstraintVerificationFailed => {
                "Neo.ClientError.Schema.ConstraintValidationFailed"
            }
            ErrorKind::ParameterMissing => "Neo.ClientError.Statement.ParameterMissing",
            ErrorKind::ProcedureError => "Neo.ClientError.Procedure.ProcedureCallFailed",
            // Which limit decides the code: see `ExecError::code`.
            ErrorKind::LimitExceeded => "Neo.ClientError.Transaction.TransactionTimedOut",
            ErrorKind::Cancelled => "Neo.ClientError.Transaction.Terminated",
            ErrorKind::Unsupported => "Neo.ClientError.Statement.FeatureNotSupported",
            ErrorKind::DatabaseNotFound => "Neo.ClientError.Database.DatabaseNotFound",
            // Which failure decides the code: see `ExecError::code`.
            ErrorKind::SchemaError => "Neo.DatabaseError.Schema.ConstraintCreationFailed",
        }
    }
}

/// When an error is found: before any row is produced (compile time) or while running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Phase {
    CompileTime,
    Runtime,
}

/// An execution error.
#[derive(Clone, Debug, Serialize)]
pub struct ExecError {
    pub kind: ErrorKind,
    /// The TCK detail name where one applies (`UndefinedVariable`, `InvalidArgumentType`, …).
    pub detail: Option<&'static str>,
    pub message: String,
    pub phase: Phase,
    /// Where in the query, when known.
    pub span: Option<Span>,
    /// A GQL status given where the error was made (else derived by [`ExecError::gql`]).
    #[serde(skip)]
    pub(crate) gql_status: Option<Box<GqlStatus>>,
}

/// A GQL status as Neo4j 5.26 reports it with an error (Bolt 5.7's FAILURE): the code, its
/// description, the classification where Neo4j gives one, and the status it was caused by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GqlStatus {
    pub code: &'static str,
    pub description: String,
    /// `CLIENT_ERROR` and the like; `None` where Neo4j sends no diagnostic record.
    pub classification: Option<&'static str>,
    /// A cause's message (`22N01: Expected …`); `None` for the outer status.
    pub message: Option<String>,
    pub cause: Option<Box<GqlStatus>>,
}

/// What Neo4j 5.26 gives most errors: no GQL status of their own.
const GENERIC_GQL: &str =
    "error: general processing exception - unexpected error. Unexpected error has occurred. See debug log for details.";

impl GqlStatus {
    /// Neo4j's catch-all, `50N42`.
    pub fn generic() -> GqlStatus {
        GqlStatus {
            code: "50N42",
            description: GENERIC_GQL.to_string(),
            classification: None,
            message: None,
            cause: None,
        }
    }

    /// A cause: `code: text`, described as `condition. text`.
    fn cause(code: &'static str, condition: &str, text: String) -> Box<GqlStatus> {
        Box::new(GqlStatus {
            code,
            description: format!("{condition}. {text}"),
            classification: Some("CLIENT_ERROR"),
            message: Some(format!("{code}: {text}")),
            cause: None,
        })
    }
}

impl ExecError {
    /// The GQL status Neo4j 5.26 reports with this error: most have only the generic `50N42`;
    /// an unknown procedure is `42001` caused by `42N08`, a value that cannot be a property
    /// `22G03` caused by `22N01`.
    pub fn gql(&self) -> GqlStatus {
        if let Some(g) = &self.gql_status {
            return (**g).clone();
        }
        match self.detail {
            Some("ProcedureNotFound") => {
                let name = self.message.split('`').nth(1).unwrap_or_default();
                GqlStatus {
                    code: "42001",
                    description: "error: syntax error or access rule violation - invalid syntax"
                        .into(),
                    classification: Some("CLIENT_ERROR"),
                    message: None,
                    cause: Some(GqlStatus::cause(
                        "42N08",
                        "error: syntax error or access rule violation - no such procedure or function",
                        format!("The procedure or function {name}() was not registered for this database instance. Verify that the spelling is correct."),
                    )),
                }
            }
            Some("InvalidPropertyType") => self.property_type_gql(true),
            _ => GqlStatus::generic(),
        }
    }

    /// The message as Neo4j words a compile-time error it can place (an undefined variable, an
    /// unknown function): the text, then ` (line L, column C (offset: O))`, the line in quotes
    /// and a caret, columns and offsets in UTF-16 units as Java counts them.
    pub fn neo4j_message(&self, src: &str) -> String {
        let placed = self.phase == Phase::CompileTime
            && self.code() == "Neo.ClientError.Statement.SyntaxError"
            && !self.message.contains("(line ");
        let Some(span) = self.span.filter(|_| placed) else {
            return self.message.clone();
        };
        let p = super::notifications::Position::of(src, span.start);
        let line = src.lines().nth(p.line - 1).unwrap_or_default();
        format!(
            "{} (line {}, column {} (offset: {}))\n\"{line}\"\n{}^",
            self.message,
            p.line,
            p.column,
            p.offset,
            " ".repeat(p.column)
        )
    }

    /// The GQL status of a value that cannot be a property (`22G03`, caused by `22N01`: the
    /// value's type, `NOT NULL` when it is the property itself rather than a list element).
    pub(crate) fn property_type_gql(&self, not_null: bool) -> GqlStatus {
        let Some(value) = self
            .message
            .strip_prefix(
                "Property values can only be of primitive types or arrays thereof. Encountered: ",
            )
            .and_then(|v| v.strip_suffix('.'))
        else {
            return GqlStatus::generic();
        };
        let ty = if value.starts_with("Map{") {
            "MAP"
        } else if value.starts_with("Path{") {
            "PATH"
        } else if value.starts_with("-[") {
            "RELATIONSHIP"
        } else {
            "NODE"
        };
        let not_null = if not_null { " NOT NULL" } else { "" };
        GqlStatus {
            code: "22G03",
            description: "error: data exception - invalid value type".into(),
            classification: None,
            message: None,
            cause: Some(GqlStatus::cause(
                "22N01",
                "error: data exception - invalid type",
                format!("Expected the value {value} to be of type BOOLEAN, STRING, INTEGER, FLOAT, DATE, LOCAL TIME, ZONED TIME, LOCAL DATETIME, ZONED DATETIME, DURATION, POINT, NODE or RELATIONSHIP, but was of type {ty}{not_null}."),
            )),
        }
    }

    /// Neo4j's error for a procedure that failed while running:
    /// `Failed to invoke procedure `name`: Caused by: <cause>`.
    pub(crate) fn procedure_failed(procedure: &str, cause: impl std::fmt::Display) -> Self {
        ExecError::runtime(
            ErrorKind::ProcedureError,
            format!("Failed to invoke procedure `{procedure}`: Caused by: {cause}"),
        )
    }

    pub fn new(kind: ErrorKind, phase: Phase, message: impl Into<String>) -> Self {
        ExecError {
            kind,
            detail: None,
            message: message.into(),
            phase,
            span: None,
            gql_status: None,
        }
    }
    pub fn runtime(kind: ErrorKind, message: impl Into<String>) -> Self {
        ExecError::new(kind, Phase::Runtime, message)
    }
    pub fn compile(kind: ErrorKind, message: impl Into<String>) -> Self {
        ExecError::new(kind, Phase::CompileTime, message)
    }
    pub fn with_detail(mut self, detail: &'static str) -> Self {
        self.detail = Some(detail);
        self
    }
    pub fn at(mut self, span: Span) -> Self {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }
    /// The 1-based line and column (in characters) in `source`, the statement's text, where
    /// the error is, when it has a place.
    pub fn position(&self, source: &str) -> Option<(usize, usize)> {
        self.span.map(|s| {
            let (line, column, _) = crate::syntax::error::line_col(source, s.start);
            (line, column)
        })
    }
    /// The Neo4j status code: the kind's, except for exceeded limits, whose code says which
    /// limit (a time limit is `TransactionTimedOut`, the memory budget Neo4j's memory-pool
    /// error, the other limits an execution failure).
    pub fn code(&self) -> &'static str {
        if self.kind == ErrorKind::LimitExceeded {
            return match self.detail {
                Some("Timeout") => "Neo.ClientError.Transaction.TransactionTimedOut",
                Some("Memory") => "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
                Some("LockTimeout") => crate::graph::LOCK_TIMEOUT_CODE,
                _ => "Neo.DatabaseError.Statement.ExecutionFailed",
            };
        }
        if self.detail == Some("ProcedureNotFound") {
            return "Neo.ClientError.Procedure.ProcedureNotFound";
        }
        if self.kind == ErrorKind::SchemaError {
            return match self.detail {
                Some("EquivalentSchemaRuleAlreadyExists") => {
                    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"
                }
                Some("IndexAlreadyExists") => "Neo.ClientError.Schema.IndexAlreadyExists",
                Some("IndexWithNameAlreadyExists") => {
                    "Neo.ClientError.Schema.IndexWithNameAlreadyExists"
                }
                Some("ConstraintAlreadyExists") => "Neo.ClientError.Schema.ConstraintAlreadyExists",
                Some("ConstraintWithNameAlreadyExists") => {
                    "Neo.ClientError.Schema.ConstraintWithNameAlreadyExists"
                }
                Some("IndexDropFailed") => "Neo.DatabaseError.Schema.IndexDropFailed",
                Some("ConstraintDropFailed") => "Neo.DatabaseError.Schema.ConstraintDropFailed",
                _ => self.kind.code(),
            };
        }
        match self.detail {
            Some("UnsupportedAdministrationCommand") => {
                return "Neo.ClientError.Statement.UnsupportedAdministrationCommand"
            }
            Some("CommunityEdition") => return "Neo.DatabaseError.Statement.ExecutionFailed",
            Some("CredentialsExpired") => return "Neo.ClientError.Security.CredentialsExpired",
            _ => {}
        }
        if self.detail == Some("IndexNotFound") {
            return "Neo.ClientError.Schema.IndexNotFound";
        }
        if self.detail == Some("PropertyNotFound") {
            return "Neo.ClientError.Statement.PropertyNotFound";
        }
        if self.detail == Some("LoadCsvFailed") {
            return "Neo.ClientError.Statement.ExternalResourceFailed";
        }
        self.kind.code()
    }
    pub(crate) fn type_error(message: impl Into<String>) -> Self {
        ExecError::runtime(ErrorKind::TypeError, message).with_detail("InvalidArgumentType")
    }
    pub(crate) fn unsupported(what: &str) -> Self {
        ExecError::compile(
            ErrorKind::Unsupported,
            format!("{what} is not supported by grape's engine yet"),
        )
    }
}

impl ExecError {
    /// A syntax error in `source`, in Neo4j's words: what drivers and the code under test see.
    pub fn syntax(e: &ParseError, source: &str) -> Self {
        ExecError {
            kind: ErrorKind::SyntaxError,
            detail: None,
            message: e.neo4j_message(Some(source)),
            phase: Phase::CompileTime,
            span: Some(Span::new(e.offset, e.offset)),
            gql_status: None,
        }
    }
}

impl From<ParseError> for ExecError {
    /// [`ExecError::syntax`] without the text (the offset counted in bytes).
    fn from(e: ParseError) -> Self {
        ExecError {
            kind: ErrorKind::SyntaxError,
            detail: None,
            message: e.neo4j_message(None),
            phase: Phase::CompileTime,
            span: Some(Span::new(e.offset, e.offset)),
            gql_status: None,
        }
    }
}

impl From<crate::graph::LockTimeout> for ExecError {
    fn from(e: crate::graph::LockTimeout) -> Self {
        ExecError::runtime(ErrorKind::LimitExceeded, e.to_string()).with_detail("LockTimeout")
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.kind, self.message)
    }
}

impl std::error::Error for ExecError {}

pub type Result<T> = std::result::Result<T, ExecError>;
