//! The notifications Neo4j attaches to a statement's summary, which tools read from `EXPLAIN`
//! (CyVer's validators, IDE linters): labels, relationship types and property keys the
//! database does not have, relationship type expressions nothing satisfies, and parameters a
//! request did not provide — with Neo4j's codes, titles, descriptions, severities and
//! categories, and the position of the offending text.

use super::{Params, Statement};
use crate::analysis::DiagnosticKind as K;
use crate::graph::Graph;

/// One notification of a statement's summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notification {
    pub code: &'static str,
    pub title: &'static str,
    pub description: String,
    /// `WARNING` or `INFORMATION`.
    pub severity: &'static str,
    /// `UNRECOGNIZED`, `GENERIC`, …
    pub category: &'static str,
    /// Where the offending text is, as Neo4j counts (`None` where Neo4j gives no position,
    /// as for a missing parameter).
    pub position: Option<Position>,
    /// The GQL status (`01N50`, …) and its description, as Bolt 5.6+ carries them.
    pub gql_status: &'static str,
    pub status_description: String,
}

/// A position in a statement as Neo4j reports it: offset and column count UTF-16 code units
/// (Java's `char`s), line and column from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// The position of byte offset `at` of `src`.
    pub fn of(src: &str, at: usize) -> Position {
        let at = at.min(src.len());
        let at = (0..=at)
            .rev()
            .find(|&i| src.is_char_boundary(i))
            .unwrap_or(0);
        let head = &src[..at];
        let line_start = head.rfind('\n').map_or(0, |i| i + 1);
        Position {
            offset: head.encode_utf16().count(),
            line: head.matches('\n').count() + 1,
            column: head[line_start..].encode_utf16().count() + 1,
        }
    }
}

/// The notifications of `stmt` (whose text is `src`) on `graph` with the parameters `params`.
/// Names are judged as Neo4j judges them, by its tokens: a label, relationship type or property
/// key is known once anything in the graph has used it, even if nothing has it now.
pub fn notifications(
    graph: &Graph,
    stmt: &Statement,
    src: &str,
    params: &Params,
) -> Vec<Notification> {
    schema_notifications(&token_schema(graph), stmt, src, params)
}

/// The graph's tokens as a schema: its labels and relationship types, and every property key
/// allowed anywhere.
fn token_schema(graph: &Graph) -> crate::schema::Schema {
    use crate::graph::{TOKEN_KEY, TOKEN_LABEL, TOKEN_TYPE};
    use crate::schema::{Element, Property, PropertyType};
    let names = |kind| graph.tokens(kind).into_iter().map(|n| n.to_string());
    crate::schema::Schema {
        labels: names(TOKEN_LABEL)
            .map(|n| (n, Element::default()))
            .collect(),
        relationship_types: names(TOKEN_TYPE).map(|n| (n, Element::default())).collect(),
        any_label_properties: names(TOKEN_KEY)
            .map(|n| (n, Property::new(PropertyType::String)))
            .collect(),
        ..Default::default()
    }
}

/// The notifications of `stmt` (whose text is `src`) on a database whose labels, relationship
/// types and property keys are those of `schema`, with the parameters `params`.
pub fn schema_notifications(
    schema: &crate::schema::Schema,
    stmt: &Statement,
    src: &str,
    params: &Params,
) -> Vec<Notification> {
    let options = crate::analysis::ValidateOptions {
        parameters: Some(params.keys().cloned().collect()),
        neo4j_tokens: true,
        ..Default::default()
    };
    // An updating statement creates the tokens it names: Neo4j notes none as missing.
    let updating = super::is_updating(stmt);
    let v = crate::analysis::Validator::with_options(schema, options).validate_statement(stmt, src);
    let mut out = Vec::new();
    // Deprecated syntax first, as Neo4j 5.26 lists them.
    for d in &v.deprecations {
        out.push(deprecation(d, src));
    }
    for d in v.diagnostics {
        if updating && d.kind != K::MissingParameter {
            continue;
        }
        let text = d.span.text(src).trim_start_matches(':').trim_matches('`');
        let (code, title, description, category, gql_status, status_description) = match d.kind {
            K::UnknownLabel => (
                "Neo.ClientNotification.Statement.UnknownLabelWarning",
                "The provided label is not in the database.",
                format!("One of the labels in your query is not available in the database, make sure you didn't misspell it or that the label is available when you run this statement in your application (the missing label name is: {text})"),
                "UNRECOGNIZED",
                "01N50",
                format!("warn: label does not exist. The label `{text}` does not exist. Verify that the spelling is correct."),
            ),
            K::UnknownRelationshipType => (
                "Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning",
                "The provided relationship type is not in the database.",
                format!("One of the relationship types in your query is not available in the database, make sure you didn't misspell it or that the label is available when you run this statement in your application (the missing relationship type is: {text})"),
                "UNRECOGNIZED",
                "01N51",
                format!("warn: relationship type does not exist. The relationship type `{text}` does not exist. Verify that the spelling is correct."),
            ),
            K::UnknownPropertyKey => (
                "Neo.ClientNotification.Statement.UnknownPropertyKeyWarning",
                "The provided property key is not in the database",
                format!("One of the property names in your query is not available in the database, make sure you didn't misspell it or that the label is available when you run this statement in your application (the missing property name is: {})", property_name(text)),
                "UNRECOGNIZED",
                "01N52",
                format!("warn: property key does not exist. The property `{}` does not exist. Verify that the spelling is correct.", property_name(text)),
            ),
            K::UnsatisfiableRelationshipType => (
                "Neo.ClientNotification.Statement.UnsatisfiableRelationshipTypeExpression",
                "The query contains a relationship type expression that cannot be satisfied.",
                format!("Relationship type expression cannot possibly be satisfied. (`{text}` can never be satisfied by any relationship. Relationships must have exactly one relationship type.)"),
                "GENERIC",
                "01N61",
                format!("warn: unsatisfiable relationship type expression. The expression '{text}' cannot be satisfied because relationships must have exactly one type."),
            ),
            K::MissingParameter => (
                "Neo.ClientNotification.Statement.ParameterNotProvided",
                "The statement refers to a parameter that was not provided in the request.",
                format!("Did not supply query with enough parameters. The produced query plan will not be cached and is not executable without EXPLAIN. (Missing parameters: {})", text.trim_start_matches('$')),
                "GENERIC",
                "01N60",
                format!("warn: parameter missing. The query plan cannot be cached and is not executable without 'EXPLAIN' due to the undefined parameter(s) $`{}`. Provide the parameter(s).", text.trim_start_matches('$')),
            ),
            _ => continue,
        };
        let n = Notification {
            code,
            title,
            description,
            severity: "WARNING",
            category,
            position: (d.kind != K::MissingParameter).then(|| Position::of(src, d.span.start)),
            gql_status,
            status_description,
        };
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Neo4j 5.26's deprecation of a list or a path converted to a boolean while the statement ran
/// (once per statement, without a position).
pub(crate) fn list_to_boolean() -> Notification {
    Notification {
        code: "Neo.ClientNotification.Statement.FeatureDeprecationWarning",
        title: "This feature is deprecated and will be removed in future versions.",
        description: "The query converted a list or path to a boolean value.".into(),
        severity: "WARNING",
        category: "DEPRECATION",
        position: None,
        gql_status: "01N02",
        status_description: "warn: feature deprecated without replacement. Converting a list or a path to a boolean is deprecated and will be removed without a replacement.".into(),
    }
}

/// Neo4j 5.26's `FeatureDeprecationWarning` for deprecated syntax, with its GQL status (`01N01`
/// where the replacement is a rewrite, `01N00` otherwise).
fn deprecation(d: &crate::analysis::Deprecated, src: &str) -> Notification {
    use crate::analysis::Deprecated as D;
    let (description, gql_status, status_description) = match d {
        D::ColonDisjunction { old, new, .. } => (
            format!("The semantics of using colon in the separation of alternative relationship types will change in a future version. (Please use '{new}' instead)"),
            "01N01",
            format!("warn: feature deprecated with replacement. '{old}' is deprecated. It is replaced by '{new}'."),
        ),
        D::CallWithoutScope { variables, .. } => {
            let scope = variables.join(", ");
            (
                format!("CALL subquery without a variable scope clause is now deprecated. Use CALL ({scope}) {{ ... }}"),
                "01N00",
                format!("warn: feature deprecated. CALL subquery without a variable scope clause is deprecated. Use CALL ({scope}) {{ ... }}"),
            )
        }
    };
    Notification {
        code: "Neo.ClientNotification.Statement.FeatureDeprecationWarning",
        title: "This feature is deprecated and will be removed in future versions.",
        description,
        severity: "WARNING",
        category: "DEPRECATION",
        position: Some(Position::of(src, d.span().start)),
        gql_status,
        status_description,
    }
}

/// The key of a property access as written (`n.nmae` → `nmae`).
fn property_name(text: &str) -> &str {
    text.rsplit('.').next().unwrap_or(text).trim_matches('`')
}
