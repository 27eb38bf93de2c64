//! Execution errors, typed as Neo4j and the openCypher TCK name them.

use crate::analysis::GqlFacts;
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

/// What exactly went wrong, as the openCypher TCK and Neo4j name it (`UndefinedVariable`,
/// `InvalidArgumentType`, …): typed, so that an error's Neo4j status code follows from its
/// variant ([`ExecError::code`]), not from comparing strings. Serialized, and printed by
/// [`Detail::name`], as the TCK's name.
macro_rules! details {
    ($($name:ident),* $(,)?) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
        pub enum Detail {
            $($name,)*
        }

        impl Detail {
            /// The TCK's (or Neo4j's) name of the detail.
            pub fn name(self) -> &'static str {
                match self {
                    $(Detail::$name => stringify!($name),)*
                }
            }

            /// The detail of the TCK name `name`.
            pub fn from_name(name: &str) -> Option<Detail> {
                match name {
                    $(stringify!($name) => Some(Detail::$name),)*
                    _ => None,
                }
            }
        }
    };
}

details! {
    AmbiguousAggregationExpression,
    ColumnNameConflict,
    CommunityEdition,
    ConstraintAlreadyExists,
    ConstraintCreationFailed,
    ConstraintDropFailed,
    ConstraintWithNameAlreadyExists,
    CreatingVarLength,
    CredentialsExpired,
    CypherVersion,
    DeleteConnectedNode,
    DeletedEntityAccess,
    DifferentColumnsInUnion,
    DivisionByZero,
    EquivalentSchemaRuleAlreadyExists,
    ExecutionFailed,
    FloatingPointOverflow,
    IndexAlreadyExists,
    IndexDropFailed,
    IndexNotFound,
    IndexWithNameAlreadyExists,
    IntegerOverflow,
    IntermediateRows,
    InvalidAggregation,
    InvalidArgumentType,
    InvalidArgumentValue,
    InvalidArguments,
    InvalidClauseComposition,
    InvalidDelete,
    InvalidDynamicLabel,
    InvalidGraphReference,
    InvalidGroupBy,
    InvalidNumberOfArguments,
    InvalidParameterUse,
    InvalidPropertyType,
    InvalidRelationshipPattern,
    InvalidSchemaCommand,
    InvalidSearch,
    LoadCsvFailed,
    LockTimeout,
    MapElementAccessByNonString,
    Memory,
    MergeReadOwnWrites,
    MissingParameter,
    MissingPredicate,
    NegativeIntegerArgument,
    NestedAggregation,
    NoExpressionAlias,
    NoSingleRelationshipType,
    NoVariablesInScope,
    NonConstantExpression,
    NumberOutOfRange,
    ProcedureNotFound,
    PropertyNotFound,
    RelationshipUniquenessViolation,
    RequiresDirectedRelationship,
    ResultRows,
    Timeout,
    UndefinedVariable,
    UnexpectedSyntax,
    UnknownFunction,
    UnknownProcedureOutput,
    UnsupportedAdministrationCommand,
    UnsupportedFunction,
    UnsupportedProcedure,
    ValueNesting,
    VarLengthExpansion,
    VariableAlreadyBound,
    VariableTypeConflict,
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Detail {
    /// The Neo4j status an error with this detail has whatever its kind (but an exceeded
    /// limit or a schema command's failure, see [`ExecError::code`]).
    fn status(self) -> Option<&'static str> {
        Some(match self {
            Detail::ProcedureNotFound => "Neo.ClientError.Procedure.ProcedureNotFound",
            Detail::UnsupportedAdministrationCommand => {
                "Neo.ClientError.Statement.UnsupportedAdministrationCommand"
            }
            Detail::CommunityEdition | Detail::ExecutionFailed => {
                "Neo.DatabaseError.Statement.ExecutionFailed"
            }
            Detail::CredentialsExpired => "Neo.ClientError.Security.CredentialsExpired",
            Detail::InvalidArguments => "Neo.ClientError.General.InvalidArguments",
            Detail::IndexNotFound => "Neo.ClientError.Schema.IndexNotFound",
            Detail::PropertyNotFound => "Neo.ClientError.Statement.PropertyNotFound",
            Detail::LoadCsvFailed => "Neo.ClientError.Statement.ExternalResourceFailed",
            _ => return None,
        })
    }

    /// The status of a schema command's failure with this detail.
    fn schema_status(self) -> Option<&'static str> {
        Some(match self {
            Detail::EquivalentSchemaRuleAlreadyExists => {
                "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"
            }
            Detail::IndexAlreadyExists => "Neo.ClientError.Schema.IndexAlreadyExists",
            Detail::IndexWithNameAlreadyExists => {
                "Neo.ClientError.Schema.IndexWithNameAlreadyExists"
            }
            Detail::ConstraintAlreadyExists => "Neo.ClientError.Schema.ConstraintAlreadyExists",
            Detail::ConstraintWithNameAlreadyExists => {
                "Neo.ClientError.Schema.ConstraintWithNameAlreadyExists"
            }
            Detail::IndexDropFailed => "Neo.DatabaseError.Schema.IndexDropFailed",
            Detail::ConstraintDropFailed => "Neo.DatabaseError.Schema.ConstraintDropFailed",
            Detail::ProcedureNotFound => "Neo.ClientError.Procedure.ProcedureNotFound",
            _ => return None,
        })
    }

    /// The status of an exceeded limit with this detail: a time limit is Neo4j's
    /// `TransactionTimedOut`, the memory budget its memory-pool error, a lock wait its lock
    /// timeout, the other limits an execution failure.
    fn limit_status(detail: Option<Detail>) -> &'static str {
        match detail {
            Some(Detail::Timeout) => "Neo.ClientError.Transaction.TransactionTimedOut",
            Some(Detail::Memory) => "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
            Some(Detail::LockTimeout) => crate::graph::LOCK_TIMEOUT_CODE,
            _ => "Neo.DatabaseError.Statement.ExecutionFailed",
        }
    }
}

/// An execution error.
#[derive(Clone, Debug, Serialize)]
pub struct ExecError {
    pub kind: ErrorKind,
    /// The TCK detail where one applies (`UndefinedVariable`, `InvalidArgumentType`, …).
    pub detail: Option<Detail>,
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

    /// A status of its own, with the status it was caused by (no message of its own).
    fn outer(
        code: &'static str,
        description: &str,
        classification: Option<&'static str>,
        cause: Box<GqlStatus>,
    ) -> GqlStatus {
        GqlStatus {
            code,
            description: description.to_string(),
            classification,
            message: None,
            cause: Some(cause),
        }
    }

    /// `22G03` (a value of the wrong type), caused by `cause`.
    pub(crate) fn invalid_value_type(cause: Box<GqlStatus>) -> GqlStatus {
        GqlStatus::outer(
            "22G03",
            "error: data exception - invalid value type",
            None,
            cause,
        )
    }

    /// `22007` (a date, time or datetime the builders cannot take), caused by `cause`.
    pub(crate) fn invalid_temporal_format(cause: Box<GqlStatus>) -> GqlStatus {
        GqlStatus {
            code: "22007",
            description: "error: data exception - invalid date, time, or datetime format".into(),
            classification: None,
            message: None,
            cause: Some(cause),
        }
    }

    /// `42001` (invalid syntax), caused by `cause`.
    pub(crate) fn invalid_syntax(cause: Box<GqlStatus>) -> GqlStatus {
        GqlStatus::outer(
            "42001",
            "error: syntax error or access rule violation - invalid syntax",
            Some("CLIENT_ERROR"),
            cause,
        )
    }

    /// `22N92` / `22N93`: a combination of show and terminate commands without the `RETURN`
    /// or a `YIELD` it needs.
    pub(crate) fn missing_clause(code: &'static str, clause: &str) -> GqlStatus {
        GqlStatus {
            code,
            description: format!(
                "error: data exception - missing {clause}. {}",
                if clause == "RETURN" {
                    "This query requires a RETURN clause."
                } else {
                    "A required YIELD clause is missing."
                }
            ),
            classification: Some("CLIENT_ERROR"),
            message: None,
            cause: None,
        }
    }

    /// `22000` (a data exception), caused by `cause`.
    pub(crate) fn data_exception(cause: Box<GqlStatus>) -> GqlStatus {
        GqlStatus::outer("22000", "error: data exception", None, cause)
    }

    /// `42001` caused by `42N08`: a procedure or function that is not registered.
    pub(crate) fn no_such_procedure(name: &str) -> GqlStatus {
        GqlStatus::invalid_syntax(GqlStatus::cause(
            "42N08",
            "error: syntax error or access rule violation - no such procedure or function",
            format!("The procedure or function {name}() was not registered for this database instance. Verify that the spelling is correct."),
        ))
    }

    /// `42001` caused by `42N39`: the parts of a `UNION` return different columns.
    pub(crate) fn union_columns() -> GqlStatus {
        GqlStatus::invalid_syntax(GqlStatus::cause(
            "42N39",
            "error: syntax error or access rule violation - incompatible return columns",
            "All subqueries in a UNION clause must have the same return column names.".into(),
        ))
    }

    /// A cause: `code: text`, described as `condition. text`.
    pub(crate) fn cause(code: &'static str, condition: &str, text: String) -> Box<GqlStatus> {
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
    /// The GQL status Neo4j 5.26 reports with this error: the one it was given where it was
    /// made, from typed facts (an unknown procedure `42001` caused by `42N08`, a value that
    /// cannot be a property `22G03` caused by `22N01`, …), else Neo4j's generic `50N42`.
    pub fn gql(&self) -> GqlStatus {
        if let Some(g) = &self.gql_status {
            return (**g).clone();
        }
        GqlStatus::generic()
    }

    /// This error with Neo4j's GQL status `status`.
    pub(crate) fn with_gql(mut self, status: GqlStatus) -> Self {
        self.gql_status = Some(Box::new(status));
        self
    }

    /// A wrong number of function arguments: `42001` caused by `42I13`, whose `text` says what
    /// was expected.
    pub(crate) fn wrong_arity(self, text: &str) -> Self {
        self.with_gql(GqlStatus::invalid_syntax(GqlStatus::cause(
            "42I13",
            "error: syntax error or access rule violation - invalid number of procedure or function arguments",
            text.to_string(),
        )))
    }

    /// This error with the GQL status Neo4j 5.26 gives a compile-time finding, built from the
    /// finding's typed facts: a type mismatch is `22NB1`, or `22G03` caused by `22N27` for a
    /// parameter typed from its value, a variable of a conflicting type, or what the mismatch
    /// is about where Neo4j names it (`subject`: `argument at index 0 of function toUpper()`);
    /// a list used as a boolean `22N37`, implicit grouping keys `42I18`, a `UNION` of
    /// different columns `42N39`.
    pub(crate) fn with_facts(self, facts: &GqlFacts, subject: Option<&str>) -> Self {
        let invalid_input = |text: String| {
            GqlStatus::invalid_value_type(GqlStatus::cause(
                "22N27",
                "error: data exception - invalid entity type",
                text,
            ))
        };
        let status = match (facts, subject) {
            (
                GqlFacts::Mismatch {
                    expected,
                    actual,
                    parameter,
                },
                Some(subject),
            ) => {
                let of = match parameter {
                    Some(p) => format!("{subject} parameter: {p}"),
                    None => subject.to_string(),
                };
                invalid_input(format!(
                    "Invalid input '{actual}' for {of}. Expected to be {expected}."
                ))
            }
            (
                GqlFacts::Mismatch {
                    expected,
                    actual,
                    parameter: Some(name),
                },
                None,
            ) => invalid_input(format!(
                "Invalid input '{actual}' for  parameter: {name}. Expected to be {expected}."
            )),
            (
                GqlFacts::Mismatch {
                    expected,
                    actual,
                    parameter: None,
                },
                None,
            ) => GqlStatus::invalid_syntax(GqlStatus::cause(
                "22NB1",
                "error: data exception - type mismatch",
                format!("Type mismatch: expected to be {expected} but was '{actual}'."),
            )),
            (
                GqlFacts::ConflictingType {
                    variable,
                    actual,
                    expected,
                },
                _,
            ) => invalid_input(format!(
                "Invalid input '{actual}' for {variable}. Expected to be {expected}."
            )),
            (GqlFacts::ListAsBoolean, _) => GqlStatus::invalid_syntax(GqlStatus::cause(
                "22N37",
                "error: data exception - invalid coercion",
                "Cannot coerce LIST to BOOLEAN.".into(),
            )),
            (GqlFacts::ImplicitGrouping(names), _) => {
                let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                GqlStatus::invalid_syntax(GqlStatus::cause(
                    "42I18",
                    "error: syntax error or access rule violation - invalid reference to implicitly grouped expressions",
                    format!("The aggregation column contains implicit grouping expressions referenced by the variables {}. Implicit grouping expressions are variables not explicitly declared as grouping keys.", names.join(", ")),
                ))
            }
            (GqlFacts::UnionColumns, _) => GqlStatus::union_columns(),
            (GqlFacts::NoSuchProcedure(name), _) => GqlStatus::no_such_procedure(name),
        };
        self.with_gql(status)
    }

    /// A function that failed while running: Neo4j's `ProcedureCallFailed`, `Failed to invoke
    /// function `{name}`: Caused by: {cause}`, with GQL status `52N33`, caused by the generic
    /// status where the function ran a query of its own (`apoc.cypher.*`; `42N71` where that
    /// query did not conclude). A procedure's failure has the generic status.
    pub(crate) fn function_failed(name: &str, cause: impl fmt::Display) -> Self {
        let cause = cause.to_string();
        let cause_text = cause.trim_end_matches('.');
        let inner = name.starts_with("apoc.cypher.").then(|| {
            if cause.contains("Query cannot conclude with") {
                Box::new(GqlStatus::invalid_syntax(GqlStatus::cause(
                    "42N71",
                    "error: syntax error or access rule violation - incomplete query",
                    "Query cannot conclude with the clause given.".into(),
                )))
            } else {
                Box::new(GqlStatus::generic())
            }
        });
        let status = GqlStatus {
            code: "52N33",
            description: format!(
                "error: procedure exception - procedure invocation failed. Failed to invoke procedure/function function `{name}` caused by: {cause_text}."
            ),
            classification: None,
            message: None,
            cause: inner,
        };
        ExecError::runtime(
            ErrorKind::ProcedureError,
            format!("Failed to invoke function `{name}`: Caused by: {cause}"),
        )
        .with_gql(status)
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

    /// Neo4j's refusal of a value that cannot be a property: its message, and GQL status
    /// `22G03` caused by `22N01` naming the value's type (`NOT NULL` when it is the property
    /// itself rather than a list element).
    pub(crate) fn not_a_property(value: &crate::value::Value, element: bool) -> Self {
        use crate::value::Value;
        let text = super::exec::neo4j_value_text(value);
        let ty = match value {
            Value::Map(_) => "MAP",
            Value::Path(_) => "PATH",
            Value::Relationship(_) => "RELATIONSHIP",
            _ => "NODE",
        };
        let not_null = if element { "" } else { " NOT NULL" };
        let status = GqlStatus::invalid_value_type(GqlStatus::cause(
            "22N01",
            "error: data exception - invalid type",
            format!("Expected the value {text} to be of type BOOLEAN, STRING, INTEGER, FLOAT, DATE, LOCAL TIME, ZONED TIME, LOCAL DATETIME, ZONED DATETIME, DURATION, POINT, NODE or RELATIONSHIP, but was of type {ty}{not_null}."),
        ));
        ExecError::type_error(format!(
            "Property values can only be of primitive types or arrays thereof. Encountered: {text}."
        ))
        .with_detail(Detail::InvalidPropertyType)
        .with_gql(status)
    }

    /// The GQL status Neo4j gives a value of the wrong type met while running: `22G03`,
    /// caused by `22N01` "Expected the value V to be of type `expected`, but was of type T.".
    pub(crate) fn expected_type(mut self, value: &crate::value::Value, expected: &str) -> Self {
        self.gql_status = Some(Box::new(GqlStatus::invalid_value_type(GqlStatus::cause(
            "22N01",
            "error: data exception - invalid type",
            format!(
                "Expected the value {} to be of type {expected}, but was of type {}.",
                crate::value::gql_value_text(value),
                super::functions::value_type_text(value)
            ),
        ))));
        self
    }

    /// Neo4j's error for a pattern `=~` cannot compile: a `SemanticError` "Invalid Regex: …"
    /// (its own words follow from Java's regex engine; here, the last line of `why`), GQL
    /// `22000` caused by `22N11`.
    pub(crate) fn invalid_regex(pattern: &str, why: &str) -> Self {
        let reason = why
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or(why);
        let mut e = ExecError::runtime(
            ErrorKind::SemanticError,
            format!(
                "Invalid Regex: {}\n{pattern}",
                reason.trim().trim_start_matches("error: ")
            ),
        )
        .with_detail(Detail::InvalidArgumentValue);
        e.gql_status = Some(Box::new(GqlStatus::data_exception(GqlStatus::cause(
            "22N11",
            "error: data exception - invalid argument",
            format!("Invalid argument: cannot process '{pattern}'."),
        ))));
        e
    }

    /// `point(map)`'s refusal: an `ArgumentError` with Neo4j's GQL status where it has one
    /// of its own: a key given a value of the wrong type `22G03` caused by `22N27` (whose
    /// text, in Neo4j 5.26, reads `for $context` word for word), a latitude out of range
    /// `22000` caused by `22N23`.
    ///
    /// `given`: the value of the key refused, if it is known; Neo4j's message names it twice
    /// (`Cannot assign String("a") to field 'a'`), not the field.
    pub(crate) fn point_refused(
        e: &crate::spatial::SpatialError,
        given: Option<&crate::value::Value>,
    ) -> Self {
        use crate::spatial::SpatialError as S;
        use crate::value::Value;
        let status = match e {
            S::WrongType {
                field, expected, ..
            } => Some(GqlStatus::invalid_value_type(GqlStatus::cause(
                "22N27",
                "error: data exception - invalid entity type",
                format!("Invalid input '{field}' for $context. Expected to be {expected}."),
            ))),
            S::InvalidLatitude { coordinates } => Some(GqlStatus::data_exception(
                GqlStatus::cause(
                    "22N23",
                    "error: data exception - invalid latitude value",
                    format!("Cannot create WGS84 POINT with invalid coordinate: {coordinates}. The valid range for the latitude coordinate is [-90, 90]."),
                ),
            )),
            S::InvalidPoint(_) | S::NoSuchField(_) => None,
        };
        let message = match (e, given) {
            (S::WrongType { .. }, Some(v)) => {
                let shown = match v {
                    Value::String(s) => format!("'{s}'"),
                    Value::Int(i) => i.to_string(),
                    Value::Float(f) => crate::value::java_double_string(*f),
                    Value::Bool(b) => b.to_string(),
                    other => super::exec::neo4j_value_text(other),
                };
                format!(
                    "Cannot assign {} to field {shown}",
                    super::exec::neo4j_value_text(v)
                )
            }
            _ => e.to_string(),
        };
        let e = ExecError::runtime(ErrorKind::ArgumentError, message)
            .with_detail(Detail::InvalidArgumentValue);
        match status {
            Some(s) => e.with_gql(s),
            None => e,
        }
    }

    /// `duration(map)` whose months or days overflow: an `ArgumentError` with GQL status
    /// `22015` caused by `22N28`.
    pub(crate) fn duration_overflow(message: &str) -> Self {
        ExecError::runtime(ErrorKind::ArgumentError, message)
            .with_detail(Detail::InvalidArgumentValue)
            .with_gql(GqlStatus::outer(
                "22015",
                "error: data exception - interval field overflow",
                None,
                GqlStatus::cause(
                    "22N28",
                    "error: data exception - overflow error",
                    "The result of the operation 'duration()' has caused an overflow.".into(),
                ),
            ))
    }

    /// `range(a, b, 0)`: Neo4j's `ArgumentError` "Step argument to 'range()' cannot be zero",
    /// GQL status `22N38` caused by `22N03`.
    pub(crate) fn range_step_zero() -> Self {
        let cause = GqlStatus::cause(
            "22N03",
            "error: data exception - specified numeric value out of range",
            "Expected 'step' to be of type INTEGER and in the range 1 to 9223372036854775807 but found 0.".into(),
        );
        ExecError::runtime(
            ErrorKind::ArgumentError,
            "Step argument to 'range()' cannot be zero",
        )
        .with_detail(Detail::NumberOutOfRange)
        .with_gql(GqlStatus {
            cause: Some(cause),
            ..*GqlStatus::cause(
                "22N38",
                "error: data exception - invalid function argument",
                "Invalid argument to the function range().".into(),
            )
        })
    }

    /// An error Neo4j raises as an internal failure of the execution
    /// (`Neo.DatabaseError.Statement.ExecutionFailed`, GQL `50N00`): `substring('a', -1)`.
    pub(crate) fn execution_failed(message: &str) -> Self {
        let mut e = ExecError::runtime(ErrorKind::ArgumentError, message)
            .with_detail(Detail::ExecutionFailed);
        e.gql_status = Some(Box::new(GqlStatus {
            code: "50N00",
            description: format!(
                "error: general processing exception - internal error. Internal exception raised CypherExecution: {message}"
            ),
            classification: None,
            message: None,
            cause: None,
        }));
        e
    }

    /// A procedure no database instance registers: Neo4j's `ProcedureNotFound`, with GQL
    /// status `42001` caused by `42N08`.
    pub(crate) fn procedure_not_found(name: &str) -> Self {
        ExecError::compile(
            ErrorKind::ProcedureError,
            crate::catalogue::unknown_procedure_message(name),
        )
        .with_detail(Detail::ProcedureNotFound)
        .with_gql(GqlStatus::no_such_procedure(name))
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
    pub fn with_detail(mut self, detail: Detail) -> Self {
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
        match (self.kind, self.detail) {
            (ErrorKind::LimitExceeded, d) => Detail::limit_status(d),
            (ErrorKind::SchemaError, d) => d
                .and_then(Detail::schema_status)
                .unwrap_or(self.kind.code()),
            (_, Some(d)) => d.status().unwrap_or(self.kind.code()),
            (_, None) => self.kind.code(),
        }
    }
    pub(crate) fn type_error(message: impl Into<String>) -> Self {
        ExecError::runtime(ErrorKind::TypeError, message).with_detail(Detail::InvalidArgumentType)
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
        ExecError::runtime(ErrorKind::LimitExceeded, e.to_string()).with_detail(Detail::LockTimeout)
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.kind, self.message)
    }
}

impl std::error::Error for ExecError {}

pub type Result<T> = std::result::Result<T, ExecError>;

#[cfg(test)]
mod tests {
    use super::*;

    /// The status code follows from the kind and the detail's variant: a detail that names a
    /// status of its own decides it, an exceeded limit's detail says which limit, a schema
    /// failure's which rule; other details leave the kind's.
    #[test]
    fn the_status_code_follows_from_the_variant() {
        let code = |kind, detail: Option<Detail>| {
            let e = ExecError::runtime(kind, "x");
            match detail {
                Some(d) => e.with_detail(d).code(),
                None => e.code(),
            }
        };
        use ErrorKind as K;
        assert_eq!(
            code(K::LimitExceeded, Some(Detail::Timeout)),
            "Neo.ClientError.Transaction.TransactionTimedOut"
        );
        assert_eq!(
            code(K::LimitExceeded, Some(Detail::Memory)),
            "Neo.TransientError.General.MemoryPoolOutOfMemoryError"
        );
        assert_eq!(
            code(K::LimitExceeded, Some(Detail::ResultRows)),
            "Neo.DatabaseError.Statement.ExecutionFailed"
        );
        assert_eq!(
            code(K::LimitExceeded, None),
            "Neo.DatabaseError.Statement.ExecutionFailed"
        );
        assert_eq!(
            code(K::SyntaxError, Some(Detail::ProcedureNotFound)),
            "Neo.ClientError.Procedure.ProcedureNotFound"
        );
        assert_eq!(
            code(K::SchemaError, Some(Detail::IndexAlreadyExists)),
            "Neo.ClientError.Schema.IndexAlreadyExists"
        );
        // Under a schema failure only the schema rules decide.
        assert_eq!(
            code(K::SchemaError, Some(Detail::IndexNotFound)),
            K::SchemaError.code()
        );
        assert_eq!(
            code(K::ArgumentError, Some(Detail::IndexNotFound)),
            "Neo.ClientError.Schema.IndexNotFound"
        );
        assert_eq!(
            code(K::ArgumentError, Some(Detail::ExecutionFailed)),
            "Neo.DatabaseError.Statement.ExecutionFailed"
        );
        assert_eq!(
            code(K::TypeError, Some(Detail::InvalidArgumentType)),
            "Neo.ClientError.Statement.TypeError"
        );
        assert_eq!(
            code(K::TypeError, None),
            "Neo.ClientError.Statement.TypeError"
        );
    }

    /// A GQL status is given where the error is made, from typed facts: the words of the
    /// message play no part (an error whose message is prefixed later, as a script's
    /// `statement 2: …`, keeps its status; the same words without the facts have none).
    #[test]
    fn gql_statuses_come_from_typed_facts_not_from_messages() {
        let words = "Type mismatch: expected Integer but was String";
        let bare = ExecError::compile(ErrorKind::SyntaxError, words);
        assert_eq!(bare.gql().code, "50N42");
        let mismatch = |parameter: Option<&str>| GqlFacts::Mismatch {
            expected: "Integer".into(),
            actual: "String".into(),
            parameter: parameter.map(String::from),
        };
        let mut e = bare.clone().with_facts(&mismatch(None), None);
        e.message = format!("statement 2: {}", e.message);
        let g = e.gql();
        assert_eq!(g.code, "42001");
        let cause = g.cause.expect("a cause");
        assert_eq!(cause.code, "22NB1");
        assert_eq!(
            cause.message.as_deref(),
            Some("22NB1: Type mismatch: expected to be Integer but was 'String'.")
        );
        // What the mismatch is about, and a parameter, are named in `22N27`.
        let about = |facts, subject| {
            let g = bare.clone().with_facts(&facts, subject).gql();
            (g.code, g.cause.and_then(|c| c.message).unwrap_or_default())
        };
        assert_eq!(
            about(mismatch(Some("x")), Some("argument at index 0 of function abs()")),
            (
                "22G03",
                "22N27: Invalid input 'String' for argument at index 0 of function abs() parameter: x. Expected to be Integer.".to_string()
            )
        );
        assert_eq!(
            about(mismatch(Some("x")), None),
            (
                "22G03",
                "22N27: Invalid input 'String' for  parameter: x. Expected to be Integer."
                    .to_string()
            )
        );
        assert_eq!(
            about(GqlFacts::ImplicitGrouping(vec!["a, b".into()]), None).1,
            "42I18: The aggregation column contains implicit grouping expressions referenced by the variables `a, b`. Implicit grouping expressions are variables not explicitly declared as grouping keys."
        );
        assert_eq!(about(GqlFacts::UnionColumns, None).0, "42001");
        // Failures made by their constructors carry their statuses.
        let f = ExecError::function_failed("apoc.cypher.runFirstColumnSingle", "boom.");
        let g = f.gql();
        assert_eq!(g.code, "52N33");
        assert_eq!(g.cause.map(|c| c.code), Some("50N42"));
        assert!(
            g.description.ends_with("caused by: boom."),
            "{}",
            g.description
        );
        let p = ExecError::procedure_not_found("no.such");
        assert_eq!(p.code(), "Neo.ClientError.Procedure.ProcedureNotFound");
        assert_eq!(p.gql().cause.map(|c| c.code), Some("42N08"));
        let v = crate::value::Value::Map(Default::default());
        let g = ExecError::not_a_property(&v, false).gql();
        assert!(g
            .cause
            .and_then(|c| c.message)
            .is_some_and(|m| m.ends_with("MAP NOT NULL.")));
    }

    /// A detail is written and read back by the TCK's name.
    #[test]
    fn details_round_trip_through_their_names() {
        for d in [
            Detail::UndefinedVariable,
            Detail::InvalidArgumentType,
            Detail::Memory,
            Detail::NoSingleRelationshipType,
        ] {
            assert_eq!(Detail::from_name(d.name()), Some(d));
            assert_eq!(d.to_string(), d.name());
            assert_eq!(
                serde_json::to_string(&d).unwrap(),
                format!("\"{}\"", d.name())
            );
        }
        assert_eq!(Detail::from_name("NoSuchDetail"), None);
    }
}
