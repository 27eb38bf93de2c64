//! The typed Cypher AST.
//!
//! Every node carries a [`Span`]: the byte range of its text in the parsed source. Spans never take
//! part in equality or hashing, so `parse(print(ast)) == ast` compares structure only; compare
//! `span.start` / `span.end` explicitly where positions matter.

use serde::Serialize;
use std::hash::{Hash, Hasher};

/// A Unicode normalization form (`normalize(s, NFD)`, `s IS NFKC NORMALIZED`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum NormalForm {
    Nfc,
    Nfd,
    Nfkc,
    Nfkd,
}

impl NormalForm {
    /// `NFC`, `nfd`, … (case-insensitive).
    pub fn parse(name: &str) -> Option<NormalForm> {
        Some(match name.to_ascii_uppercase().as_str() {
            "NFC" => NormalForm::Nfc,
            "NFD" => NormalForm::Nfd,
            "NFKC" => NormalForm::Nfkc,
            "NFKD" => NormalForm::Nfkd,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            NormalForm::Nfc => "NFC",
            NormalForm::Nfd => "NFD",
            NormalForm::Nfkc => "NFKC",
            NormalForm::Nfkd => "NFKD",
        }
    }
}

/// The name of the variable that stands for a simple CASE's operand in an extended `WHEN`
/// (`CASE x WHEN > 3 THEN …` is `WHEN <operand> > 3`). No user variable has this name; the
/// printer prints nothing for it, the analysis and the engine bind it to the operand.
pub const CASE_OPERAND: &str = "\u{0}case";

/// A byte range `[start, end)` in the source text.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    /// The text this span covers in `source` (empty if out of range).
    pub fn text(self, source: &str) -> &str {
        source.get(self.start..self.end).unwrap_or("")
    }
}

/// Spans are positions, not structure: they never make two ASTs differ.
impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}
impl Eq for Span {}
impl Hash for Span {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

/// A name: variable, label, relationship type, property key, procedure or function name part.
/// `name` is the unescaped text (backticks removed, doubled backticks undone).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A `;`-separated sequence of statements.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Script {
    pub statements: Vec<Statement>,
    pub span: Span,
}

/// One statement: an optional `EXPLAIN` / `PROFILE` prefix and a query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Statement {
    /// `CYPHER 25 …`: the language version and options the statement asks for.
    pub cypher: Option<CypherPrefix>,
    pub prefix: Option<QueryPrefix>,
    pub query: Query,
    pub span: Span,
}

/// The `CYPHER` prefix: `CYPHER 5`, `CYPHER 25 runtime=slotted`, `CYPHER planner=cost`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CypherPrefix {
    /// The version as written (`5`, `25`; anything else is refused by the analysis).
    pub version: Option<String>,
    /// `key=value` query options, in order.
    pub options: Vec<(Ident, Ident)>,
    pub span: Span,
}

/// The Cypher language versions Neo4j 5.26 and its successors accept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub enum CypherVersion {
    /// Cypher 5, Neo4j 5's language and the default.
    #[default]
    #[serde(rename = "5")]
    Cypher5,
    /// Cypher 25 (Neo4j 2025.06 and later).
    #[serde(rename = "25")]
    Cypher25,
}

impl CypherVersion {
    /// `5` / `25`, as `CYPHER n` writes it.
    pub fn parse(text: &str) -> Option<CypherVersion> {
        match text {
            "5" => Some(CypherVersion::Cypher5),
            "25" => Some(CypherVersion::Cypher25),
            _ => None,
        }
    }

    pub fn number(self) -> &'static str {
        match self {
            CypherVersion::Cypher5 => "5",
            CypherVersion::Cypher25 => "25",
        }
    }
}

impl std::str::FromStr for CypherVersion {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CypherVersion::parse(s).ok_or_else(|| {
            format!("{s} is not a valid option for cypher version. Valid options are: 5, 25")
        })
    }
}

impl Statement {
    /// The version the statement runs under: its `CYPHER n` prefix, else `default`. `Err` with
    /// Neo4j's message when the prefix names a version that does not exist.
    pub fn cypher_version(&self, default: CypherVersion) -> Result<CypherVersion, String> {
        match self.cypher.as_ref().and_then(|c| c.version.as_deref()) {
            Some(v) => v.parse(),
            None => Ok(default),
        }
    }

    /// Whether the final projection of the (first) query orders its rows: `RETURN … ORDER BY`.
    /// Results of such a query compare as sequences, others as multisets.
    pub fn orders_rows(&self) -> bool {
        matches!(
            self.query.first.clauses.last(),
            Some(Clause::Return(r)) if !r.projection.order_by.is_empty()
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum QueryPrefix {
    Explain,
    Profile,
    /// Both `EXPLAIN` and `PROFILE` (in either order): Neo4j refuses the statement ("Can't
    /// specify multiple conflicting values for execution mode").
    Conflicting,
}

impl QueryPrefix {
    /// This prefix after `earlier` (a repeated one is the same; EXPLAIN with PROFILE
    /// conflicts).
    pub fn with(self, earlier: Option<QueryPrefix>) -> QueryPrefix {
        match earlier {
            None => self,
            Some(e) if e == self => self,
            Some(_) => QueryPrefix::Conflicting,
        }
    }
}

/// Single queries combined with `UNION` / `UNION ALL`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Query {
    pub first: SingleQuery,
    pub unions: Vec<UnionPart>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnionPart {
    /// `UNION ALL` keeps duplicates; `UNION` and `UNION DISTINCT` remove them.
    pub all: bool,
    pub query: SingleQuery,
    pub span: Span,
}

/// A sequence of clauses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SingleQuery {
    pub clauses: Vec<Clause>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Clause {
    Match(Match),
    With(With),
    Return(Return),
    Unwind(Unwind),
    CallSubquery(CallSubquery),
    CallProcedure(CallProcedure),
    Create(Create),
    Merge(Merge),
    Set(SetClause),
    Remove(Remove),
    Delete(Delete),
    Foreach(Foreach),
    LoadCsv(LoadCsv),
    Use(Use),
    Finish(Span),
    /// `SHOW FUNCTIONS`, `SHOW INDEXES`, `SHOW DATABASES`, … (boxed: the largest clause).
    Show(Box<Show>),
    /// Cypher 25: `LET a = 1, b = x.y`.
    Let(Let),
    /// Cypher 25: `FILTER predicate`.
    Filter(Filter),
    /// Cypher 25: `{ query }`, a whole query in braces (an operand of `UNION` or `NEXT`, a
    /// branch of `WHEN`). Always the only clause of its single query.
    Braced(Braced),
    /// Cypher 25: `query NEXT query …`. Always the only clause of its single query.
    Next(NextChain),
    /// Cypher 25: `WHEN cond THEN query … [ELSE query]`. Always the only clause of its single
    /// query.
    When(Conditional),
    /// `CREATE … INDEX`, `CREATE CONSTRAINT`, `DROP INDEX`, `DROP CONSTRAINT`: a schema
    /// command, always the whole statement.
    Schema(SchemaCommand),
    /// `CREATE USER`, `ALTER USER`, `DROP USER`, …: an administration command of the system
    /// database, always the whole statement.
    Admin(AdminCommand),
}

/// An administration command: the user management Neo4j community has, or one of
/// enterprise's commands (roles, privileges, databases, aliases, servers), kept as text to be
/// refused.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum AdminCommand {
    /// `CREATE [OR REPLACE] USER name [IF NOT EXISTS] SET [PLAINTEXT|ENCRYPTED] PASSWORD … …`
    CreateUser {
        name: SchemaName,
        or_replace: bool,
        if_not_exists: bool,
        options: Vec<UserOption>,
        span: Span,
    },
    /// `ALTER USER name [IF EXISTS] SET PASSWORD … | SET PASSWORD CHANGE [NOT] REQUIRED | …`
    AlterUser {
        name: SchemaName,
        if_exists: bool,
        options: Vec<UserOption>,
        span: Span,
    },
    /// `ALTER CURRENT USER SET PASSWORD FROM old TO new`
    AlterCurrentUser {
        old: Secret,
        new: Secret,
        span: Span,
    },
    /// `RENAME USER name [IF EXISTS] TO new_name`
    RenameUser {
        from: SchemaName,
        to: SchemaName,
        if_exists: bool,
        span: Span,
    },
    /// `DROP USER name [IF EXISTS]`
    DropUser {
        name: SchemaName,
        if_exists: bool,
        span: Span,
    },
    /// An enterprise-only command, as written.
    Enterprise { text: String, span: Span },
}

impl AdminCommand {
    pub fn span(&self) -> Span {
        match self {
            AdminCommand::CreateUser { span, .. }
            | AdminCommand::AlterUser { span, .. }
            | AdminCommand::AlterCurrentUser { span, .. }
            | AdminCommand::RenameUser { span, .. }
            | AdminCommand::DropUser { span, .. }
            | AdminCommand::Enterprise { span, .. } => *span,
        }
    }
}

/// A clause of `CREATE USER` / `ALTER USER`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum UserOption {
    /// `SET [PLAINTEXT|ENCRYPTED] PASSWORD secret [CHANGE [NOT] REQUIRED]`
    Password {
        encrypted: bool,
        secret: Secret,
        change_required: Option<bool>,
        span: Span,
    },
    /// `[SET PASSWORD] CHANGE [NOT] REQUIRED`; `set_password` when written with `SET PASSWORD`.
    ChangeRequired {
        required: bool,
        set_password: bool,
        span: Span,
    },
    /// `SET STATUS ACTIVE|SUSPENDED` (enterprise).
    Status { suspended: bool, span: Span },
    /// `SET HOME DATABASE name` (enterprise).
    Home { database: String, span: Span },
    /// `REMOVE HOME DATABASE` (enterprise).
    RemoveHome(Span),
}

impl UserOption {
    pub fn span(&self) -> Span {
        match self {
            UserOption::Password { span, .. }
            | UserOption::ChangeRequired { span, .. }
            | UserOption::Status { span, .. }
            | UserOption::Home { span, .. }
            | UserOption::RemoveHome(span) => *span,
        }
    }
}

/// A password: a string literal or a parameter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Secret {
    Literal(String, Span),
    Parameter(Parameter, Span),
}

/// A schema command: creates or drops an index or a constraint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SchemaCommand {
    CreateIndex(CreateIndex),
    DropIndex(DropSchema),
    CreateConstraint(CreateConstraint),
    DropConstraint(DropSchema),
}

impl SchemaCommand {
    pub fn span(&self) -> Span {
        match self {
            SchemaCommand::CreateIndex(c) => c.span,
            SchemaCommand::CreateConstraint(c) => c.span,
            SchemaCommand::DropIndex(d) | SchemaCommand::DropConstraint(d) => d.span,
        }
    }
}

/// The kinds of index Neo4j 5 has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub enum IndexKind {
    Range,
    Text,
    Point,
    Lookup,
    Fulltext,
    Vector,
}

impl IndexKind {
    /// The name `SHOW INDEXES` gives the kind (`RANGE`, `FULLTEXT`, …).
    pub fn name(self) -> &'static str {
        match self {
            IndexKind::Range => "RANGE",
            IndexKind::Text => "TEXT",
            IndexKind::Point => "POINT",
            IndexKind::Lookup => "LOOKUP",
            IndexKind::Fulltext => "FULLTEXT",
            IndexKind::Vector => "VECTOR",
        }
    }
}

/// `CREATE [OR REPLACE] [RANGE|TEXT|POINT|VECTOR|LOOKUP|FULLTEXT] INDEX [name] [IF NOT EXISTS]
/// FOR pattern ON … [OPTIONS map]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CreateIndex {
    /// `OR REPLACE` (parsed; Neo4j refuses it for indexes).
    pub or_replace: bool,
    pub kind: IndexKind,
    /// Whether the kind was written (`CREATE RANGE INDEX`) or implied (`CREATE INDEX`).
    pub kind_written: bool,
    pub name: Option<SchemaName>,
    pub if_not_exists: bool,
    /// `(n:Label)` or `()-[r:TYPE]-()`; labels are empty for a LOOKUP index, several only in
    /// a FULLTEXT index (`(n:A|B)`).
    pub entity: SchemaEntity,
    /// `ON (n.a, n.b)` or FULLTEXT's `ON EACH [n.a, n.b]`; empty for a LOOKUP index.
    pub properties: Vec<SchemaProperty>,
    /// Cypher 25: a VECTOR index's additional properties, `ON n.v WITH [n.a, n.b]`, which a
    /// SEARCH clause's filter may read.
    pub with_properties: Vec<SchemaProperty>,
    /// A LOOKUP index's `ON EACH labels(n)` / `ON EACH type(r)`: the function and its argument.
    pub lookup: Option<(Ident, Ident)>,
    /// `OPTIONS {…}` or `OPTIONS $param`.
    pub options: Option<Expr>,
    pub span: Span,
}

/// The pattern a schema command is for: `(n:Label)` or `()-[r:TYPE]->()`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SchemaEntity {
    pub variable: Ident,
    pub relationship: bool,
    pub labels: Vec<Ident>,
    /// `()<-[…]-()` (relationships only).
    pub left_arrow: bool,
    /// `()-[…]->()` (relationships only).
    pub right_arrow: bool,
    pub span: Span,
}

/// `n.key` in a schema command.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SchemaProperty {
    pub variable: Ident,
    pub key: Ident,
    pub span: Span,
}

/// The name of an index or constraint: a symbolic name or a `$parameter`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SchemaName {
    Name(Ident),
    Parameter(Parameter, Span),
}

impl SchemaName {
    pub fn span(&self) -> Span {
        match self {
            SchemaName::Name(i) => i.span,
            SchemaName::Parameter(_, s) => *s,
        }
    }
}

/// `DROP INDEX name [IF EXISTS]` / `DROP CONSTRAINT name [IF EXISTS]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DropSchema {
    pub name: SchemaName,
    pub if_exists: bool,
    pub span: Span,
}

/// `CREATE [OR REPLACE] CONSTRAINT [name] [IF NOT EXISTS] FOR pattern REQUIRE props kind
/// [OPTIONS map]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CreateConstraint {
    pub or_replace: bool,
    pub name: Option<SchemaName>,
    pub if_not_exists: bool,
    pub entity: SchemaEntity,
    pub properties: Vec<SchemaProperty>,
    pub kind: ConstraintKind,
    pub options: Option<Expr>,
    pub span: Span,
}

/// What a constraint requires.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ConstraintKind {
    /// `IS [NODE|RELATIONSHIP|REL] UNIQUE`
    Unique(Option<EntityWord>),
    /// `IS [NODE|RELATIONSHIP|REL] KEY`
    Key(Option<EntityWord>),
    /// `IS NOT NULL`
    NotNull,
    /// `IS :: TYPE`, `IS TYPED TYPE`, `:: TYPE`
    Typed(CypherType),
}

/// `NODE` or `RELATIONSHIP` (also written `REL`) in a constraint or `SHOW` filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum EntityWord {
    Node,
    Relationship,
}

/// `{ query }`: runs `query` on the whole incoming table; its result is the result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Braced {
    pub query: Box<Query>,
    pub span: Span,
}

/// `q1 NEXT q2 NEXT …`: each query runs on the whole result table of the one before (the
/// first on the incoming table); the last one's result is the result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NextChain {
    pub queries: Vec<Query>,
    pub span: Span,
}

/// `WHEN cond THEN query … [ELSE query]`: each incoming row goes to the first branch whose
/// condition is true (else to `ELSE`, else nowhere); each branch runs on the table of its rows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Conditional {
    pub branches: Vec<WhenBranch>,
    pub else_: Option<Box<Query>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WhenBranch {
    pub condition: Expr,
    pub query: Query,
    pub span: Span,
}

/// `LET a = expr, …`: new variables, each computed from the incoming row (the items do not
/// see each other), every other variable kept.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Let {
    pub items: Vec<(Ident, Expr)>,
    pub span: Span,
}

/// `FILTER [WHERE] predicate`: the rows where the predicate is true, every variable kept.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Filter {
    pub predicate: Expr,
    pub span: Span,
}

impl Clause {
    pub fn span(&self) -> Span {
        match self {
            Clause::Match(c) => c.span,
            Clause::With(c) => c.span,
            Clause::Return(c) => c.span,
            Clause::Unwind(c) => c.span,
            Clause::CallSubquery(c) => c.span,
            Clause::CallProcedure(c) => c.span,
            Clause::Create(c) => c.span,
            Clause::Merge(c) => c.span,
            Clause::Set(c) => c.span,
            Clause::Remove(c) => c.span,
            Clause::Delete(c) => c.span,
            Clause::Foreach(c) => c.span,
            Clause::LoadCsv(c) => c.span,
            Clause::Use(c) => c.span,
            Clause::Finish(s) => *s,
            Clause::Let(c) => c.span,
            Clause::Filter(c) => c.span,
            Clause::Show(c) => c.span,
            Clause::Braced(c) => c.span,
            Clause::Next(c) => c.span,
            Clause::When(c) => c.span,
            Clause::Schema(c) => c.span(),
            Clause::Admin(c) => c.span(),
        }
    }

    /// The queries nested in this clause that run as queries of their own: a `CALL { … }`
    /// body, a braced query, the parts of `NEXT`, the branches of `WHEN` (expression
    /// subqueries such as `EXISTS { … }` are not included).
    pub fn subqueries(&self) -> Vec<&Query> {
        match self {
            Clause::CallSubquery(c) => vec![&c.query],
            Clause::Braced(b) => vec![&b.query],
            Clause::Next(n) => n.queries.iter().collect(),
            Clause::When(w) => w
                .branches
                .iter()
                .map(|b| &b.query)
                .chain(w.else_.as_deref())
                .collect(),
            _ => Vec::new(),
        }
    }
}

impl Query {
    /// The single queries of this query: the first and each `UNION` part.
    pub fn parts(&self) -> impl Iterator<Item = &SingleQuery> {
        std::iter::once(&self.first).chain(self.unions.iter().map(|u| &u.query))
    }

    /// The `RETURN` that gives this query its columns (of the first part; through braces, the
    /// last query of `NEXT` and the first branch of `WHEN`); `None` for a query without one.
    pub fn final_return(&self) -> Option<&Return> {
        match self.first.clauses.last()? {
            Clause::Return(r) => Some(r),
            Clause::Braced(b) => b.query.final_return(),
            Clause::Next(n) => n.queries.last()?.final_return(),
            Clause::When(w) => w
                .branches
                .first()
                .map(|b| &b.query)
                .or(w.else_.as_deref())?
                .final_return(),
            _ => None,
        }
    }
}

/// `[OPTIONAL] MATCH [mode] pattern [USING …] [WHERE …]`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Match {
    pub optional: bool,
    pub mode: Option<MatchMode>,
    pub pattern: Vec<PatternPart>,
    pub hints: Vec<Hint>,
    pub where_: Option<Expr>,
    /// Cypher 25's `SEARCH v IN (VECTOR INDEX …) [SCORE AS s]` after the pattern.
    pub search: Option<Box<Search>>,
    /// Whether the WHERE was written after the SEARCH clause (where it may read the score).
    pub where_after_search: bool,
    pub span: Span,
}

impl Match {
    /// Whether the SEARCH clause's variable is one of the pattern's relationships (it searches a
    /// relationship vector index), rather than a node.
    pub fn searches_relationship(&self) -> bool {
        let Some(s) = &self.search else {
            return false;
        };
        self.pattern.iter().any(|p| {
            p.path.chain().elements.iter().any(|e| {
                matches!(e, PathElement::Relationship(r)
                    if r.variable.as_ref().is_some_and(|v| v.name == s.variable.name))
            })
        })
    }
}

/// Cypher 25's search clause: `SEARCH v IN (VECTOR INDEX name FOR query [WHERE filter] LIMIT k)
/// [SCORE AS s]`. The index's `k` nearest elements to `query` (among those its filter keeps)
/// become the candidates for `v`, which the MATCH's pattern and WHERE then check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Search {
    pub variable: Ident,
    /// `FULLTEXT INDEX` (parsed, refused as Neo4j refuses it) rather than `VECTOR INDEX`.
    pub fulltext: bool,
    /// The index's name (a parameter is parsed and refused).
    pub index: SchemaName,
    /// The vector searched for (`FOR …`).
    pub query: Expr,
    /// The filter the index applies before choosing the nearest (`WHERE …` inside the brackets).
    pub filter: Option<Expr>,
    /// `SKIP`/`OFFSET` (parsed, refused): the keyword, where it stands, and the expression.
    pub skip: Option<(String, Span, Expr)>,
    pub limit: Expr,
    pub score: Option<Ident>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum MatchMode {
    /// `REPEATABLE ELEMENTS`
    RepeatableElements,
    /// `DIFFERENT RELATIONSHIPS` (the default)
    DifferentRelationships,
}

/// Planner hints: `USING [TEXT|RANGE|POINT] INDEX [SEEK] v:L(p, …)`, `USING SCAN v:L`,
/// `USING JOIN ON a, b`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Hint {
    Index {
        kind: Option<String>,
        seek: bool,
        variable: Ident,
        label: Ident,
        properties: Vec<Ident>,
        span: Span,
    },
    Scan {
        variable: Ident,
        label: Ident,
        span: Span,
    },
    Join {
        variables: Vec<Ident>,
        span: Span,
    },
}

/// `WITH [DISTINCT] items [ORDER BY …] [SKIP …] [LIMIT …] [WHERE …]`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct With {
    pub projection: Projection,
    pub where_: Option<Expr>,
    pub span: Span,
}

/// `RETURN [DISTINCT] items [ORDER BY …] [SKIP …] [LIMIT …]`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Return {
    pub projection: Projection,
    pub span: Span,
}

/// The body shared by `WITH` and `RETURN`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Projection {
    pub distinct: bool,
    /// `RETURN ALL …` / `WITH ALL …` (Cypher 25): written, and the same as without it.
    pub all: bool,
    /// `*` as the first item.
    pub star: bool,
    pub items: Vec<ProjectionItem>,
    /// Cypher 25's `GROUP BY …` after the items.
    pub group_by: Option<GroupBy>,
    pub order_by: Vec<SortItem>,
    pub skip: Option<Expr>,
    pub limit: Option<Expr>,
    pub span: Span,
}

impl Projection {
    /// The name of item `i`'s column: its alias, the variable it is, or its text in `src`.
    pub fn item_name<'p>(&'p self, i: usize, src: &'p str) -> &'p str {
        let it = &self.items[i];
        match (&it.alias, &it.expr.kind) {
            (Some(a), _) => &a.name,
            (None, ExprKind::Variable(v)) => &v.name,
            (None, _) => it.expr.span.text(src),
        }
    }

    /// The index of the item a `GROUP BY` key names, when the key is a bare variable that is a
    /// column's name (the column wins over a variable of the incoming scope).
    pub fn key_item(&self, key: &Expr, src: &str) -> Option<usize> {
        let ExprKind::Variable(v) = &key.kind else {
            return None;
        };
        (0..self.items.len()).find(|&i| self.item_name(i, src) == v.name)
    }

    /// The expressions an explicit `GROUP BY` groups by, over the incoming scope: a key that
    /// names a column stands for the column's expression. `None` without `GROUP BY` or with
    /// `GROUP BY ALL` (implicit grouping); empty for `GROUP BY ()`.
    pub fn grouping_keys<'p>(&'p self, src: &str) -> Option<Vec<&'p Expr>> {
        match &self.group_by.as_ref()?.keys {
            GroupKeys::All => None,
            GroupKeys::Empty => Some(Vec::new()),
            GroupKeys::Exprs(keys) => Some(
                keys.iter()
                    .map(|k| match self.key_item(k, src) {
                        Some(i) => &self.items[i].expr,
                        None => k,
                    })
                    .collect(),
            ),
        }
    }
}

/// `GROUP BY ALL | () | key, …` (Cypher 25).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupBy {
    pub keys: GroupKeys,
    /// From `GROUP` to the last key.
    pub span: Span,
}

/// What a `GROUP BY` groups by.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum GroupKeys {
    /// `GROUP BY ALL`: the items without aggregates, as without `GROUP BY`.
    All,
    /// `GROUP BY ()`: one group.
    Empty,
    /// Each key is a projection item's name or an expression over the incoming scope.
    Exprs(Vec<Expr>),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProjectionItem {
    pub expr: Expr,
    pub alias: Option<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SortItem {
    pub expr: Expr,
    /// `DESC` / `DESCENDING`.
    pub descending: bool,
    /// Whether a direction keyword was written (`ASC` is the default).
    pub explicit: bool,
    pub span: Span,
}

/// `UNWIND expr AS variable`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Unwind {
    pub expr: Expr,
    pub variable: Ident,
    /// Written `FOR variable IN expr` (Cypher 25), not `UNWIND expr AS variable`.
    pub for_in: bool,
    pub span: Span,
}

/// `[OPTIONAL] CALL [(scope)] { query } [IN TRANSACTIONS …]`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallSubquery {
    pub optional: bool,
    pub scope: Option<SubqueryScope>,
    pub query: Box<Query>,
    pub in_transactions: Option<InTransactions>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SubqueryScope {
    /// `CALL (*) { … }`
    All,
    /// `CALL (a, b) { … }` (possibly empty).
    Variables(Vec<Ident>),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InTransactions {
    /// `IN [n] CONCURRENT TRANSACTIONS`: `Some(None)` is `IN CONCURRENT TRANSACTIONS`.
    pub concurrency: Option<Option<Expr>>,
    /// `OF n ROWS`
    pub batch_size: Option<Expr>,
    pub on_error: Option<OnError>,
    /// `ON ERROR RETRY [FOR] n SECONDS`: how long transient errors are retried.
    pub retry_for: Option<Expr>,
    /// `ON ERROR RETRY … THEN CONTINUE|BREAK|FAIL`: what follows when retrying gives up.
    pub retry_then: Option<OnError>,
    /// `REPORT STATUS AS v`
    pub report_status: Option<Ident>,
    pub span: Span,
}

impl InTransactions {
    /// What happens to a failing inner transaction: `RETRY` retries transient errors only,
    /// then does what its `THEN` says (`FAIL` by default, as with no `ON ERROR` at all).
    pub fn effective_on_error(&self) -> OnError {
        match self.on_error {
            None | Some(OnError::Fail) => OnError::Fail,
            Some(OnError::Retry) => match self.retry_then {
                Some(OnError::Continue) => OnError::Continue,
                Some(OnError::Break) => OnError::Break,
                _ => OnError::Fail,
            },
            Some(other) => other,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum OnError {
    Continue,
    Break,
    Fail,
    Retry,
}

/// `[OPTIONAL] CALL ns.proc(args) [YIELD …]`. `args == None` is the standalone form without
/// parentheses (arguments taken implicitly from parameters).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallProcedure {
    pub optional: bool,
    pub name: QualifiedName,
    pub args: Option<Vec<Expr>>,
    pub yield_: Option<YieldSpec>,
    pub span: Span,
}

/// `SHOW [ALL | BUILT IN | USER DEFINED] FUNCTIONS | PROCEDURES [EXECUTABLE [BY user]]`, then
/// `YIELD … [ORDER BY …] [SKIP …] [LIMIT …] [WHERE …]` or `WHERE …`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Show {
    pub kind: ShowKind,
    pub scope: ShowScope,
    /// `EXECUTABLE` (`Some(None)`: by the current user) or `EXECUTABLE BY name`.
    pub executable: Option<Option<Ident>>,
    pub yield_: Option<YieldSpec>,
    pub order_by: Vec<SortItem>,
    pub skip: Option<Expr>,
    pub limit: Option<Expr>,
    /// `WHERE` without `YIELD` (with one, it is the yield's).
    pub where_: Option<Expr>,
    /// `SHOW DATABASE name`: the database.
    pub database: Option<SchemaName>,
    /// `SHOW SETTINGS 'a', 'b'` / `SHOW TRANSACTIONS $ids` / `TERMINATE TRANSACTIONS …`: the
    /// names or ids (two or more string literals, or one expression).
    pub names: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ShowKind {
    Functions,
    Procedures,
    /// `SHOW [ALL|RANGE|…] INDEXES`: `None` lists every kind.
    Indexes(Option<IndexKind>),
    /// `SHOW [ALL|…] CONSTRAINTS`.
    Constraints(ShowConstraints),
    /// `SHOW DATABASES`, `SHOW DATABASE name` (the name in [`Show::database`]), `SHOW DEFAULT
    /// DATABASE`, `SHOW HOME DATABASE`.
    Databases(ShowDatabases),
    /// `SHOW SETTINGS ['name', …]` (the names in [`Show::names`]).
    Settings,
    /// `SHOW TRANSACTIONS ['id', …]` (the ids in [`Show::names`]).
    Transactions,
    /// `TERMINATE TRANSACTIONS 'id', …` (the ids in [`Show::names`]).
    Terminate,
    /// `SHOW CURRENT USER`.
    CurrentUser,
    /// `SHOW USERS [WITH AUTH]`.
    Users {
        with_auth: bool,
    },
}

/// Which databases `SHOW … DATABASE(S)` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ShowDatabases {
    All,
    Default,
    Home,
}

/// Which constraints `SHOW … CONSTRAINTS` lists: all, or one kind, optionally for nodes or
/// relationships only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ShowConstraints {
    All,
    Unique(Option<EntityWord>),
    Key(Option<EntityWord>),
    Existence(Option<EntityWord>),
    PropertyType(Option<EntityWord>),
}

/// Which functions `SHOW … FUNCTIONS` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ShowScope {
    All,
    BuiltIn,
    UserDefined,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YieldSpec {
    /// `YIELD *`
    pub star: bool,
    pub items: Vec<YieldItem>,
    pub where_: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YieldItem {
    /// The procedure's output field.
    pub field: Ident,
    pub alias: Option<Ident>,
    pub span: Span,
}

/// A dotted name: `db.labels`, `apoc.meta.schema`, `toUpper`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct QualifiedName {
    pub parts: Vec<Ident>,
    pub span: Span,
}

/// Whether `name` (one part, any case) is one of the aggregating functions.
pub fn is_aggregate_name(name: &str) -> bool {
    AGGREGATE_NAMES.iter().any(|a| name.eq_ignore_ascii_case(a))
}

/// The aggregating functions grape knows, lower-case.
pub const AGGREGATE_NAMES: &[&str] = &[
    "avg",
    "collect",
    "count",
    "max",
    "min",
    "percentilecont",
    "percentiledisc",
    "stdev",
    "stdevp",
    "sum",
    // APOC core's aggregating functions grape runs.
    "apoc.agg.first",
    "apoc.agg.graph",
    "apoc.agg.last",
    "apoc.agg.maxitems",
    "apoc.agg.median",
    "apoc.agg.minitems",
    "apoc.agg.nth",
    "apoc.agg.percentiles",
    "apoc.agg.product",
    "apoc.agg.slice",
    "apoc.agg.statistics",
    // GDS's Cypher projection.
    "gds.graph.project",
];

impl QualifiedName {
    /// The dotted text, e.g. `db.schema.visualization`.
    pub fn dotted(&self) -> String {
        let mut s = String::new();
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                s.push('.');
            }
            s.push_str(&p.name);
        }
        s
    }

    /// Whether this names one of Cypher's aggregating functions (`count`, `collect`, `sum`, …;
    /// case-insensitive, unqualified). The one list the analysis and the engine share.
    pub fn is_aggregate(&self) -> bool {
        match self.parts.as_slice() {
            [only] => is_aggregate_name(&only.name),
            [first, ..]
                if first.name.eq_ignore_ascii_case("apoc")
                    || first.name.eq_ignore_ascii_case("gds") =>
            {
                is_aggregate_name(&self.dotted())
            }
            _ => false,
        }
    }
}

/// `CREATE pattern`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Create {
    pub pattern: Vec<PatternPart>,
    /// Written `INSERT` (GQL's form: labels joined by `&`, printed so).
    pub insert: bool,
    pub span: Span,
}

/// `MERGE pattern [ON CREATE SET …] [ON MATCH SET …]`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Merge {
    pub pattern: PatternPart,
    pub actions: Vec<MergeAction>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergeAction {
    /// `ON CREATE` (true) or `ON MATCH` (false).
    pub on_create: bool,
    pub items: Vec<SetItem>,
    pub span: Span,
}

/// `SET item, …`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetClause {
    pub items: Vec<SetItem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SetItem {
    /// `SET n.p = v` (target is a property lookup) or `SET n[k] = v` (a subscript).
    Property {
        target: Expr,
        value: Expr,
        span: Span,
    },
    /// `SET n = map` (replace) or `SET n += map` (merge).
    Variable {
        variable: Ident,
        value: Expr,
        merge: bool,
        span: Span,
    },
    /// `SET n:A:B`
    Labels {
        variable: Ident,
        labels: LabelExpr,
        span: Span,
    },
}

/// `REMOVE item, …`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Remove {
    pub items: Vec<RemoveItem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum RemoveItem {
    /// `REMOVE n.p` / `REMOVE n[k]`
    Property { target: Expr, span: Span },
    /// `REMOVE n:A`
    Labels {
        variable: Ident,
        labels: LabelExpr,
        span: Span,
    },
}

/// `[DETACH | NODETACH] DELETE expr, …`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Delete {
    pub detach: bool,
    pub exprs: Vec<Expr>,
    pub span: Span,
}

/// `FOREACH (v IN list | clauses)`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Foreach {
    pub variable: Ident,
    pub list: Expr,
    pub clauses: Vec<Clause>,
    pub span: Span,
}

/// `LOAD CSV [WITH HEADERS] FROM url AS row [FIELDTERMINATOR 'c']`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoadCsv {
    pub with_headers: bool,
    pub source: Expr,
    pub variable: Ident,
    pub field_terminator: Option<String>,
    pub span: Span,
}

/// `USE graph` / `USE graph.byName(…)`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Use {
    pub graph: Expr,
    pub span: Span,
}

// -------------------------------------------------------------------------------------------
// Patterns

/// One comma-separated part of a pattern: `p = SHORTEST 1 (a)-[:R]->+(b)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PatternPart {
    pub variable: Option<Ident>,
    pub selector: Option<PathSelector>,
    pub path: PathExpr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum PathExpr {
    /// A chain of node, relationship and parenthesized path elements.
    Chain(PathChain),
    /// `shortestPath(…)` (`all == false`) or `allShortestPaths(…)`.
    ShortestFunction {
        all: bool,
        chain: PathChain,
        span: Span,
    },
}

impl PathExpr {
    pub fn chain(&self) -> &PathChain {
        match self {
            PathExpr::Chain(c) => c,
            PathExpr::ShortestFunction { chain, .. } => chain,
        }
    }
}

/// GQL path selectors.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum PathSelector {
    /// `ANY SHORTEST`
    AnyShortest,
    /// `ALL SHORTEST`
    AllShortest,
    /// `SHORTEST k` (the parser always gives `k`, which Neo4j requires; `None` means 1)
    Shortest(Option<u64>),
    /// `SHORTEST k GROUPS`
    ShortestGroups(Option<u64>),
    /// `ANY [k]`
    Any(Option<u64>),
    /// `ALL`
    All,
}

/// A path: node patterns and relationship patterns in order, possibly with parenthesized
/// (quantified) sub-paths.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathChain {
    pub elements: Vec<PathElement>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum PathElement {
    Node(NodePattern),
    Relationship(RelationshipPattern),
    /// `( [p =] chain [WHERE …] ) [quantifier]`
    Group(Box<GroupPattern>),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupPattern {
    pub variable: Option<Ident>,
    pub chain: PathChain,
    pub where_: Option<Expr>,
    pub quantifier: Option<Quantifier>,
    pub span: Span,
}

/// `(v:Label {p: 1} WHERE …)`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodePattern {
    pub variable: Option<Ident>,
    pub labels: Option<LabelExpr>,
    /// A map literal or a parameter.
    pub properties: Option<Expr>,
    pub where_: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Direction {
    /// `<-[]-`
    Left,
    /// `-[]->`
    Right,
    /// `-[]-` (also `<-[]->`)
    Undirected,
}

/// `-[r:T*1..3 {p: 1} WHERE …]->` with an optional quantifier after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RelationshipPattern {
    pub direction: Direction,
    pub variable: Option<Ident>,
    pub types: Option<LabelExpr>,
    pub length: Option<VarLength>,
    pub properties: Option<Expr>,
    pub where_: Option<Expr>,
    /// A GQL quantifier after the relationship: `-[:R]->{1,3}`, `-->+`.
    pub quantifier: Option<Quantifier>,
    pub span: Span,
}

/// Variable length, the legacy form: `*`, `*n`, `*n..m`, `*..m`, `*n..`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum VarLength {
    /// `*`
    Any,
    /// `*n`
    Exact(u64),
    /// `*n..m` with either bound optional.
    Range { min: Option<u64>, max: Option<u64> },
}

impl VarLength {
    /// Lower and upper bounds (`None` = unbounded); the default lower bound is 1.
    pub fn bounds(&self) -> (u64, Option<u64>) {
        match *self {
            VarLength::Any => (1, None),
            VarLength::Exact(n) => (n, Some(n)),
            VarLength::Range { min, max } => (min.unwrap_or(1), max),
        }
    }
}

/// GQL quantifiers: `+`, `*`, `{n}`, `{n,m}`, `{,m}`, `{n,}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Quantifier {
    Plus,
    Star,
    Exact(u64),
    Range { min: Option<u64>, max: Option<u64> },
}

impl Quantifier {
    /// Lower and upper bounds (`None` = unbounded).
    pub fn bounds(&self) -> (u64, Option<u64>) {
        match *self {
            Quantifier::Plus => (1, None),
            Quantifier::Star => (0, None),
            Quantifier::Exact(n) => (n, Some(n)),
            Quantifier::Range { min, max } => (min.unwrap_or(0), max),
        }
    }
}

/// Label and relationship-type expressions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum LabelExpr {
    Name(Ident),
    /// `%`: any label.
    Wildcard(Span),
    Not(Box<LabelExpr>, Span),
    /// `A&B` or legacy `:A:B` (flattened).
    And(Vec<LabelExpr>, Span),
    /// `A|B` (flattened).
    Or(Vec<LabelExpr>, Span),
    /// Labels or types computed per row (Neo4j 5.26): `$(expr)`, `$all(expr)`, `$any(expr)`,
    /// where `expr` is a `STRING` or a `LIST<STRING>`.
    Dynamic {
        expr: Box<Expr>,
        mode: DynamicLabels,
        span: Span,
    },
}

/// How a dynamic label expression combines the names it computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum DynamicLabels {
    /// `$(expr)`: every name (as `$all`); the only form `SET` and `REMOVE` take.
    Plain,
    /// `$all(expr)`: every name.
    All,
    /// `$any(expr)`: at least one name (not in `CREATE` or `MERGE`).
    Any,
}

impl DynamicLabels {
    /// `$`, `$all` or `$any`, as written before the bracket.
    pub fn prefix(self) -> &'static str {
        match self {
            DynamicLabels::Plain => "$",
            DynamicLabels::All => "$all",
            DynamicLabels::Any => "$any",
        }
    }
}

impl LabelExpr {
    pub fn span(&self) -> Span {
        match self {
            LabelExpr::Name(i) => i.span,
            LabelExpr::Wildcard(s) | LabelExpr::Not(_, s) | LabelExpr::And(_, s) => *s,
            LabelExpr::Or(_, s) | LabelExpr::Dynamic { span: s, .. } => *s,
        }
    }
    /// The expressions of the dynamic parts (`$(expr)`), in order.
    pub fn dynamic_exprs(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        fn walk<'a>(e: &'a LabelExpr, out: &mut Vec<&'a Expr>) {
            match e {
                LabelExpr::Dynamic { expr, .. } => out.push(expr),
                LabelExpr::Name(_) | LabelExpr::Wildcard(_) => {}
                LabelExpr::Not(x, _) => walk(x, out),
                LabelExpr::And(xs, _) | LabelExpr::Or(xs, _) => {
                    for x in xs {
                        walk(x, out)
                    }
                }
            }
        }
        walk(self, &mut out);
        out
    }
    /// Whether some part is computed per row (`$(expr)`).
    pub fn is_dynamic(&self) -> bool {
        !self.dynamic_exprs().is_empty()
    }
    /// The names mentioned anywhere in the expression, in order.
    pub fn names(&self) -> Vec<&Ident> {
        let mut out = Vec::new();
        fn walk<'a>(e: &'a LabelExpr, out: &mut Vec<&'a Ident>) {
            match e {
                LabelExpr::Name(i) => out.push(i),
                LabelExpr::Wildcard(_) | LabelExpr::Dynamic { .. } => {}
                LabelExpr::Not(x, _) => walk(x, out),
                LabelExpr::And(xs, _) | LabelExpr::Or(xs, _) => {
                    for x in xs {
                        walk(x, out)
                    }
                }
            }
        }
        walk(self, &mut out);
        out
    }
}

// -------------------------------------------------------------------------------------------
// Expressions

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// Whether this is an extended simple-CASE `WHEN` that tests the operand (`> 3`,
    /// `IS NULL`, `STARTS WITH 'a'`): the parser puts [`CASE_OPERAND`] as its left operand.
    pub fn tests_case_operand(&self) -> bool {
        let left = match &self.kind {
            ExprKind::Binary { lhs, .. } => lhs,
            ExprKind::IsNull { expr, .. }
            | ExprKind::IsType { expr, .. }
            | ExprKind::IsNormalized { expr, .. }
            | ExprKind::HasLabels { expr, .. } => expr,
            _ => return false,
        };
        matches!(&left.kind, ExprKind::Variable(v) if v.name == CASE_OPERAND)
    }

    /// The sub-expressions directly inside this one, in text order. Expressions inside
    /// patterns and subqueries (`EXISTS { … }`, pattern comprehensions) are not included.
    pub fn children(&self) -> Vec<&Expr> {
        let mut v: Vec<&Expr> = Vec::new();
        match &self.kind {
            ExprKind::List(xs) => v.extend(xs.iter()),
            ExprKind::Map(es) => v.extend(es.iter().map(|(_, x)| x)),
            ExprKind::HasLabels { expr, labels, .. } => {
                v.push(expr);
                v.extend(labels.dynamic_exprs());
            }
            ExprKind::Property { expr, .. }
            | ExprKind::Unary { expr, .. }
            | ExprKind::IsNull { expr, .. }
            | ExprKind::IsNormalized { expr, .. }
            | ExprKind::IsType { expr, .. } => v.push(expr),
            ExprKind::Index { expr, index } => {
                v.push(expr);
                v.push(index)
            }
            ExprKind::Slice { expr, from, to } => {
                v.push(expr);
                v.extend(from.as_deref());
                v.extend(to.as_deref());
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                v.push(lhs);
                v.push(rhs)
            }
            ExprKind::Comparison { first, rest } => {
                v.push(first);
                v.extend(rest.iter().map(|(_, x)| x));
            }
            ExprKind::FunctionCall { args, .. } => v.extend(args.iter()),
            ExprKind::Case {
                operand,
                whens,
                else_,
            } => {
                v.extend(operand.as_deref());
                for (w, t) in whens {
                    v.push(w);
                    v.push(t);
                }
                v.extend(else_.as_deref());
            }
            ExprKind::ListComprehension {
                list, filter, map, ..
            } => {
                v.push(list);
                v.extend(filter.as_deref());
                v.extend(map.as_deref());
            }
            ExprKind::Quantified { list, filter, .. } => {
                v.push(list);
                v.extend(filter.as_deref());
            }
            ExprKind::Reduce {
                init,
                list,
                expr,
                predicate,
                ..
            } => {
                v.push(init);
                v.push(list);
                v.push(expr);
                v.extend(predicate.as_deref());
            }
            ExprKind::MapProjection { items, .. } => {
                for it in items {
                    if let MapProjectionItem::Entry(_, x) = it {
                        v.push(x);
                    }
                }
            }
            _ => {}
        }
        v
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ExprKind {
    Literal(Literal),
    Parameter(Parameter),
    Variable(Ident),
    List(Vec<Expr>),
    Map(Vec<(Ident, Expr)>),
    /// `e.key`
    Property {
        expr: Box<Expr>,
        key: Ident,
    },
    /// `e[i]`
    Index {
        expr: Box<Expr>,
        index: Box<Expr>,
    },
    /// `e[a..b]`
    Slice {
        expr: Box<Expr>,
        from: Option<Box<Expr>>,
        to: Option<Box<Expr>>,
    },
    /// `e:Label` (label / type predicate)
    HasLabels {
        expr: Box<Expr>,
        labels: LabelExpr,
        /// Written `expr IS LABELED labels` (Cypher 25), printed so.
        labeled: bool,
    },
    Unary {
        op: UnaryOp,
        expr: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A chain of two or more comparisons, `a < b <= c`, meaning `a < b AND b <= c`.
    Comparison {
        first: Box<Expr>,
        rest: Vec<(BinaryOp, Expr)>,
    },
    /// `e IS [NOT] [NFC|NFD|NFKC|NFKD] NORMALIZED` (`form`: as written; NFC when absent).
    IsNormalized {
        expr: Box<Expr>,
        negated: bool,
        form: Option<NormalForm>,
    },
    /// `e IS NULL` / `e IS NOT NULL`
    IsNull {
        expr: Box<Expr>,
        negated: bool,
    },
    /// `e IS [NOT] :: TYPE`
    IsType {
        expr: Box<Expr>,
        negated: bool,
        ty: CypherType,
    },
    /// `count(*)`
    CountStar,
    FunctionCall {
        name: QualifiedName,
        distinct: bool,
        args: Vec<Expr>,
    },
    /// `CASE [operand] WHEN … THEN … [ELSE …] END`
    Case {
        operand: Option<Box<Expr>>,
        whens: Vec<(Expr, Expr)>,
        else_: Option<Box<Expr>>,
    },
    /// `[v IN list WHERE pred | map]`
    ListComprehension {
        variable: Ident,
        list: Box<Expr>,
        filter: Option<Box<Expr>>,
        map: Option<Box<Expr>>,
    },
    /// `[p = (a)-->(b) WHERE pred | map]`
    PatternComprehension {
        variable: Option<Ident>,
        pattern: PathChain,
        filter: Option<Box<Expr>>,
        map: Box<Expr>,
    },
    /// `all(v IN list WHERE pred)` and friends.
    Quantified {
        kind: QuantifierKind,
        variable: Ident,
        list: Box<Expr>,
        filter: Option<Box<Expr>>,
    },
    /// `reduce(acc = init, v IN list | expr)`, or Cypher 25's
    /// `allReduce(acc = init, v IN list | expr, predicate)` (with `predicate`): whether the
    /// predicate holds for the accumulator after every step.
    Reduce {
        accumulator: Ident,
        init: Box<Expr>,
        variable: Ident,
        list: Box<Expr>,
        expr: Box<Expr>,
        predicate: Option<Box<Expr>>,
    },
    /// A pattern used as a predicate or a list of paths: `(a)-[:R]->(b)`.
    Pattern(PathChain),
    /// `shortestPath(…)` / `allShortestPaths(…)` in an expression.
    ShortestPath {
        all: bool,
        chain: PathChain,
    },
    /// `EXISTS { … }`
    Exists(Box<SubqueryBody>),
    /// `COUNT { … }`
    CountSubquery(Box<SubqueryBody>),
    /// `COLLECT { … }`
    Collect(Box<Query>),
    /// `v {.a, .*, k: e, w}`
    MapProjection {
        variable: Ident,
        items: Vec<MapProjectionItem>,
    },
}

/// The body of `EXISTS { … }` / `COUNT { … }`: a full query or a pattern with an optional `WHERE`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SubqueryBody {
    Query(Query),
    Pattern {
        pattern: Vec<PatternPart>,
        where_: Option<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum MapProjectionItem {
    /// `.key`
    Property(Ident),
    /// `.*`
    AllProperties(Span),
    /// `key: expr`
    Entry(Ident, Expr),
    /// `var` (a variable included under its own name)
    Variable(Ident),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum QuantifierKind {
    All,
    Any,
    None,
    Single,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum UnaryOp {
    Not,
    Neg,
    Plus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BinaryOp {
    Or,
    Xor,
    And,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    RegexMatch,
    StartsWith,
    EndsWith,
    Contains,
    In,
    Add,
    Sub,
    Concat,
    Mul,
    Div,
    Mod,
    Pow,
}

impl BinaryOp {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge
        )
    }
    /// The operator's text as the canonical printer writes it.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "OR",
            BinaryOp::Xor => "XOR",
            BinaryOp::And => "AND",
            BinaryOp::Eq => "=",
            BinaryOp::Ne => "<>",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::RegexMatch => "=~",
            BinaryOp::StartsWith => "STARTS WITH",
            BinaryOp::EndsWith => "ENDS WITH",
            BinaryOp::Contains => "CONTAINS",
            BinaryOp::In => "IN",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Concat => "||",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
            BinaryOp::Pow => "^",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Literal {
    Null,
    Boolean(bool),
    Integer(i64),
    Float(f64),
    String(String),
    /// A number that does not fit its type (`9223372036854775808`, `1e400`). The parser keeps it
    /// as written so that the analysis layer can report `IntegerOverflow` / `FloatingPointOverflow`
    /// with a span, as Neo4j does at compile time.
    OutOfRange {
        text: String,
        float: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Parameter {
    Named(String),
    Positional(u64),
}

impl Parameter {
    /// Its key in the parameter map (`$name`: `name`, `$0`: `0`).
    pub fn key(&self) -> String {
        match self {
            Parameter::Named(n) => n.clone(),
            Parameter::Positional(i) => i.to_string(),
        }
    }
}

/// A type in a type predicate (`IS :: LIST<INTEGER NOT NULL>`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CypherType {
    pub kind: TypeKind,
    pub not_null: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum TypeKind {
    Nothing,
    Null,
    Boolean,
    String,
    Integer,
    Float,
    Date,
    LocalTime,
    ZonedTime,
    LocalDateTime,
    ZonedDateTime,
    Duration,
    Point,
    Node,
    Relationship,
    Map,
    Path,
    PropertyValue,
    Any,
    List(Box<CypherType>),
    /// `A | B` or `ANY<A | B>`
    Union(Vec<CypherType>),
}
