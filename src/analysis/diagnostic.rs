//! Validation diagnostics: what is wrong, where, and the code CyVer / Neo4j would give it.

use crate::syntax::Span;
use serde::Serialize;

/// Which of CyVer's three validators a diagnostic belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// Parse errors and static semantics (what Neo4j's `EXPLAIN` rejects).
    Syntax,
    /// Labels, relationship types and paths against the schema.
    Schema,
    /// Property keys against the schema.
    Properties,
}

/// What a diagnostic is about. [`DiagnosticKind::code`] gives the CyVer / Neo4j code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum DiagnosticKind {
    /// The text does not parse.
    ParseError,
    /// A variable is used but not defined in scope.
    UndefinedVariable,
    /// A variable is bound again as a different kind (node, relationship, path, value).
    VariableTypeConflict,
    /// `CREATE`/`MERGE` re-declares a bound variable (with labels or properties, or alone).
    VariableAlreadyBound,
    /// One relationship variable names two relationships of a pattern (`(a)-[r]->()-[r]->(a)`),
    /// which relationship uniqueness makes impossible: Neo4j's `Cannot use the same
    /// relationship variable 'r' for multiple relationships`.
    RelationshipUniquenessViolation,
    /// An aggregating function inside another one's argument.
    NestedAggregation,
    /// An aggregating function in a `WHERE`.
    AggregationInWhere,
    /// An aggregation Neo4j refuses where it stands: a column reading variables that are not
    /// grouping keys, an aggregate sort key that is not a column of its own.
    InvalidAggregation,
    /// `RETURN *` with no variable in scope (`WITH *` with none is legal).
    ReturnStarWithoutVariables,
    /// Integer division or modulo by the literal `0`.
    DivisionByZero,
    /// A parameter missing from the supplied parameter set.
    MissingParameter,
    /// A relationship-type expression no single type satisfies (`[:A&B]`).
    UnsatisfiableRelationshipType,
    /// A number literal outside the range of its type.
    NumberOutOfRange,
    /// A literal of the wrong type as an operand (`'a' AND true`, `NOT 1`, `'x' % 2`), which
    /// Neo4j rejects at compile time.
    InvalidArgumentType,
    /// A node label the schema does not have.
    UnknownLabel,
    /// A relationship type the schema does not have.
    UnknownRelationshipType,
    /// A directed one-hop path that exists only the other way round.
    WrongDirection,
    /// A variable-length path that exists, but not with the written bounds.
    VariableLengthPath,
    /// A one-hop (or variable-length) path the schema's endpoint triples cannot form.
    UnknownPath,
    /// A property key no label or relationship type has.
    UnknownPropertyKey,
    /// A property key that exists, but not on the label (or type) of the variable.
    InvalidPropertyAccessByLabel,
    /// A function Neo4j does not know (`Unknown function 'foo.bar'`).
    UnknownFunction,
    /// A function or procedure called with too few or too many arguments (Neo4j's
    /// `Insufficient parameters for function 'left'` and its kin).
    WrongArity,
    /// `YIELD column` where the procedure has no such output (`Unknown procedure output`).
    UnknownProcedureOutput,
    /// A Cypher version that does not exist (`CYPHER 4`), or a construct the statement's
    /// version lacks (`MATCH REPEATABLE ELEMENTS` or a read right after a write in Cypher 5).
    CypherVersion,
    /// A query ending with a clause that yields neither a result nor an effect (`MATCH (n)`
    /// alone): `Query cannot conclude with MATCH …`.
    QueryConclusion,
    /// A list predicate without its `WHERE` (`all(x IN xs)`), which Neo4j refuses.
    MissingPredicate,
    /// A pattern used as an expression that binds a variable of its own
    /// (`WHERE (n)-[r]->()`): `PatternExpressions are not allowed to introduce new variables`.
    PatternIntroducesVariable,
    /// `EXISTS { … }`, `COUNT { … }` or `COLLECT { … }` with an updating clause inside.
    UpdateInSubquery,
    /// `WITH n.name` without `AS`: `Expression in WITH must be aliased (use AS)`.
    MissingAlias,
    /// A parameter as the property map of a `MATCH` or `MERGE` pattern (`(n $props)`).
    ParameterMapInPattern,
    /// A relationship of `CREATE` or `MERGE` without exactly one type.
    RelationshipTypeCount,
    /// `DELETE n:Label` (a label is removed by REMOVE).
    InvalidDelete,
    /// A variable-length relationship in `CREATE` or `MERGE`.
    CreatingVarLength,
    /// Clauses composed in a way Neo4j refuses (`CALL { WHEN … }` without a scope clause).
    InvalidClauseComposition,
    /// The branches of a conditional query (`WHEN … THEN … ELSE …`) return different columns.
    DifferentColumns,
    /// A dynamic label or type (`$(expr)`) Neo4j refuses where it stands: `$any()` in
    /// `CREATE` or `MERGE`, the literal null, two types for a created relationship.
    InvalidDynamicLabel,
    /// A schema command Neo4j refuses (`CREATE TEXT INDEX` on two properties, a property type
    /// constraint on a `MAP`, `OR REPLACE`, …).
    InvalidSchemaCommand,
    /// An aggregating column that reads a grouping key outside its aggregates
    /// (`Aggregation column contains implicit grouping expressions …`).
    AmbiguousAggregation,
    /// `SHOW TRANSACTIONS` / `TERMINATE TRANSACTIONS` combined with another such command
    /// without their `YIELD` (GQL status 22N93).
    MissingYield,
    /// Combined `SHOW TRANSACTIONS` / `TERMINATE TRANSACTIONS` commands without a final
    /// `RETURN` (GQL status 22N92).
    MissingReturn,
    /// `SKIP` or `LIMIT` reading a variable (Neo4j computes them before any row).
    NonConstantExpression,
    /// A pattern expression where a value is wanted (`RETURN (a)-->()`, `size((a)-->())`):
    /// Neo4j 5 allows one only as a test of existence.
    PatternExpressionAsValue,
    /// A procedure call inside a query without `YIELD` where the procedure has outputs: Neo4j
    /// does not name the results implicitly there.
    ImplicitProcedureResults,
    /// A function Neo4j knows that the engine asked about does not run
    /// ([`crate::analysis::ValidateOptions::executable`]).
    UnsupportedFunction,
    /// A graph reference Neo4j refuses where it stands: `graph.byName` or `graph.byElementId`
    /// outside `USE`, a dynamic lookup or a second graph on a standard database.
    InvalidGraphReference,
    /// A Cypher 25 `SEARCH` clause Neo4j refuses: a pattern of more than one element or
    /// variable, a filter that is not an AND of property bounds, a `SKIP`, a parameter as the
    /// index's name, a FULLTEXT index.
    InvalidSearch,
    /// A Cypher 25 `GROUP BY` key Neo4j refuses: an expression over a column's name, or the
    /// name of an aggregating column (GQL status 42I80).
    InvalidGroupBy,
    /// `[r:A|:B]`: a colon before an alternative relationship type together with a variable,
    /// inline properties or predicates, or a variable length — deprecated on its own, refused
    /// with these by Neo4j 5.
    ColonDisjunction,
    /// A procedure the statement's Cypher version does not have (APOC's Cypher-5-only ones
    /// under Cypher 25).
    UnknownProcedure,
}

impl DiagnosticKind {
    /// The code, as CyVer reports it (Neo4j's notification and error codes where CyVer passes
    /// those through; CyVer's own names for path and property-by-label findings).
    pub fn code(self) -> &'static str {
        use DiagnosticKind::*;
        match self {
            ParseError
            | UndefinedVariable
            | VariableTypeConflict
            | VariableAlreadyBound
            | RelationshipUniquenessViolation
            | NestedAggregation
            | AggregationInWhere
            | InvalidAggregation
            | ReturnStarWithoutVariables
            | NumberOutOfRange
            | InvalidArgumentType
            | UnknownFunction
            | WrongArity
            | CypherVersion
            | QueryConclusion
            | InvalidDynamicLabel
            | DifferentColumns
            | InvalidClauseComposition
            | MissingYield
            | MissingReturn
            | InvalidSchemaCommand
            | PatternIntroducesVariable
            | UpdateInSubquery
            | MissingAlias
            | ParameterMapInPattern
            | RelationshipTypeCount
            | InvalidDelete
            | CreatingVarLength
            | MissingPredicate
            | NonConstantExpression
            | PatternExpressionAsValue
            | AmbiguousAggregation
            | UnknownProcedureOutput
            | ImplicitProcedureResults
            | InvalidGraphReference
            | InvalidSearch
            | InvalidGroupBy
            | ColonDisjunction => "Neo.ClientError.Statement.SyntaxError",
            UnsupportedFunction => "Neo.ClientError.Statement.FeatureNotSupported",
            DivisionByZero => "Neo.ClientError.Statement.ArithmeticError",
            MissingParameter => "Neo.ClientError.Statement.ParameterMissing",
            UnknownProcedure => "Neo.ClientError.Procedure.ProcedureNotFound",
            UnsatisfiableRelationshipType => {
                "Neo.ClientNotification.Statement.UnsatisfiableRelationshipTypeExpression"
            }
            UnknownLabel => "Neo.ClientNotification.Statement.UnknownLabelWarning",
            UnknownRelationshipType => {
                "Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning"
            }
            WrongDirection => "WrongDirectionPathWarning",
            VariableLengthPath => "VariableLengthPathWarning",
            UnknownPath => "UnknownPathWarning",
            UnknownPropertyKey => "Neo.ClientNotification.Statement.UnknownPropertyKeyWarning",
            InvalidPropertyAccessByLabel => "InvalidPropertyAccessByLabelWarning",
        }
    }

    pub fn category(self) -> Category {
        use DiagnosticKind::*;
        match self {
            UnknownLabel
            | UnknownRelationshipType
            | WrongDirection
            | VariableLengthPath
            | UnknownPath => Category::Schema,
            UnknownPropertyKey | InvalidPropertyAccessByLabel => Category::Properties,
            _ => Category::Syntax,
        }
    }
}

/// One finding: its kind and code, a message that says what to change, and where.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub kind: DiagnosticKind,
    pub code: &'static str,
    pub message: String,
    /// Byte range in the query text.
    pub span: Span,
    /// 1-based line of `span.start`.
    pub line: usize,
    /// 1-based column of `span.start`, in characters.
    pub column: usize,
    /// A suggestion beyond Neo4j's message (`did you mean `name`?`), when there is one.
    pub help: Option<String>,
    /// What a type mismatch is about where Neo4j's GQL status names it (`argument at index 0
    /// of function toUpper()`); for a wrong number of function arguments, the text of the GQL
    /// status `42I13`.
    #[serde(skip)]
    pub(crate) subject: Option<String>,
    /// What Neo4j's GQL status for this finding is made of, kept typed where the finding is
    /// made (the engine builds the status from it, never from the message's words).
    #[serde(skip)]
    pub(crate) facts: Option<GqlFacts>,
}

/// The facts behind Neo4j's GQL status for a compile-time finding. Only findings whose
/// status Neo4j 5.26 specialises carry them; the others have its generic `50N42`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum GqlFacts {
    /// `Type mismatch: expected {expected} but was {actual}` (`22NB1`), at a parameter typed
    /// from its value `Type mismatch for parameter '{parameter}': …` (`22N27`).
    Mismatch {
        expected: String,
        actual: String,
        parameter: Option<String>,
    },
    /// A variable used as another kind of element than it was defined as (`22N27`).
    ConflictingType {
        variable: String,
        actual: String,
        expected: &'static str,
    },
    /// A list where a boolean is wanted (`22N37`).
    ListAsBoolean,
    /// An aggregation column reading grouping keys it does not declare (`42I18`): the names.
    ImplicitGrouping(Vec<String>),
    /// The parts of a `UNION` return different columns (`42N39`).
    UnionColumns,
    /// A procedure no database instance registers (`42N08`): its name.
    NoSuchProcedure(String),
}

impl Diagnostic {
    pub(crate) fn new(kind: DiagnosticKind, message: String, span: Span, source: &str) -> Self {
        let (line, column, _) = crate::syntax::line_col(source, span.start);
        Diagnostic {
            kind,
            code: kind.code(),
            message,
            span,
            line,
            column,
            help: None,
            subject: None,
            facts: None,
        }
    }

    /// The message with the suggestion after it (`Variable `nme` not defined; did you mean
    /// `name`?`), as the linter shows it.
    pub fn text(&self) -> String {
        match &self.help {
            Some(h) => format!("{}; {h}", self.message),
            None => self.message.clone(),
        }
    }

    pub fn category(&self) -> Category {
        self.kind.category()
    }
}

/// The closest of `candidates` to `name` by Levenshtein distance (ties: case-insensitive
/// equality first, then alphabetical order), or `None` when there are no candidates.
pub(crate) fn closest<'a, I>(name: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| {
            let ci = c.to_lowercase() == lower;
            let d = strsim::levenshtein(&lower, &c.to_lowercase());
            ((!ci, d, c), c)
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_prefers_case_insensitive_then_distance_then_name() {
        let c = ["Person", "Crime", "Phone", "PhoneCall"];
        assert_eq!(closest("person", c), Some("Person"));
        assert_eq!(closest("Crme", c), Some("Crime"));
        assert_eq!(closest("Phon", c), Some("Phone"));
        assert_eq!(closest("x", Vec::<&str>::new()), None);
    }

    #[test]
    fn line_and_column_are_one_based_characters() {
        let src = "MATCH (n)\nRETURN é, m";
        let d = Diagnostic::new(
            DiagnosticKind::UndefinedVariable,
            String::new(),
            Span::new(21, 22),
            src,
        );
        assert_eq!((d.line, d.column), (2, 11));
        assert_eq!(d.code, "Neo.ClientError.Statement.SyntaxError");
    }
}
