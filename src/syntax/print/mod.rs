//! The canonical printer: AST → Cypher text that parses back to an equal AST.
//!
//! Canonical form: keywords upper-case, one space between tokens, `, ` between list items,
//! parentheses only where precedence needs them, strings in single quotes. With
//! [`PrintOptions::rename_variables`] every variable is renamed `v0, v1, …` in order of first
//! appearance, the `canonical` text-metric variant of `docs/METRICS.md`.

use super::ast::*;
use std::collections::HashMap;
use std::fmt::Write as _;

mod patterns;
mod schema;

/// Printer options.
#[derive(Clone, Debug, Default)]
pub struct PrintOptions {
    /// Rename variables to `v0, v1, …` in order of first appearance.
    pub rename_variables: bool,
}

impl PrintOptions {
    /// The canonical form used by the `canonical` text-metric variant: variables renamed.
    pub fn canonical() -> Self {
        PrintOptions {
            rename_variables: true,
        }
    }
}

/// Prints one statement.
pub fn print(stmt: &Statement, opts: &PrintOptions) -> String {
    let mut p = Printer::new(opts);
    p.statement(stmt);
    p.out
}

/// Prints a script: statements separated by `;` and a newline.
pub fn print_script(script: &Script, opts: &PrintOptions) -> String {
    let mut p = Printer::new(opts);
    for (i, s) in script.statements.iter().enumerate() {
        if i > 0 {
            p.out.push_str(";\n");
        }
        p.statement(s);
    }
    p.out
}

/// Prints one expression.
pub fn print_expr(e: &Expr, opts: &PrintOptions) -> String {
    let mut p = Printer::new(opts);
    p.expr(e);
    p.out
}

/// Prints a SEARCH clause (`SEARCH m IN (VECTOR INDEX i FOR $v LIMIT 5) SCORE AS s`).
pub fn search_text(s: &Search) -> String {
    let opts = PrintOptions::default();
    let mut p = Printer::new(&opts);
    p.search(s);
    p.out.trim_start().to_string()
}

/// Prints a type as a type predicate writes it: `INTEGER | FLOAT`, `LIST<STRING NOT NULL>`.
pub fn print_type(t: &CypherType) -> String {
    let opts = PrintOptions::default();
    let mut p = Printer::new(&opts);
    p.cypher_type(t, true);
    p.out
}

/// Prints a label (or relationship type) expression as a pattern writes it: `:A:B`, `:A|B`,
/// `:!A&B`.
pub fn print_label_expr(l: &LabelExpr) -> String {
    let opts = PrintOptions::default();
    let mut p = Printer::new(&opts);
    p.node_labels(l);
    p.out
}

/// The words the grammar's `RESERVED` rule keeps from starting an expression.
const RESERVED_WORDS: &[&str] = &[
    "as",
    "where",
    "return",
    "with",
    "match",
    "optional",
    "create",
    "merge",
    "set",
    "delete",
    "detach",
    "remove",
    "unwind",
    "order",
    "skip",
    "limit",
    "union",
    "call",
    "yield",
    "then",
    "else",
    "end",
    "when",
    "and",
    "or",
    "xor",
    "in",
    "is",
    "contains",
    "starts",
    "ends",
    "distinct",
    "foreach",
    "on",
    "by",
    "asc",
    "desc",
    "ascending",
    "descending",
];

/// Words that are escaped when used as variables, so they can never be read as keywords.
const KEYWORDS: &[&str] = &[
    "all",
    "allshortestpaths",
    "and",
    "any",
    "as",
    "asc",
    "ascending",
    "by",
    "call",
    "case",
    "collect",
    "contains",
    "count",
    "create",
    "csv",
    "delete",
    "desc",
    "descending",
    "detach",
    "distinct",
    "else",
    "end",
    "ends",
    "exists",
    "explain",
    "false",
    "fieldterminator",
    "finish",
    "foreach",
    "from",
    "in",
    "is",
    "limit",
    "load",
    "match",
    "merge",
    "nodetach",
    "none",
    "not",
    "null",
    "offset",
    "on",
    "optional",
    "or",
    "order",
    "profile",
    "reduce",
    "remove",
    "return",
    "set",
    "shortest",
    "shortestpath",
    "single",
    "skip",
    "starts",
    "then",
    "true",
    "union",
    "unwind",
    "use",
    "using",
    "when",
    "where",
    "with",
    "xor",
    "yield",
];

/// Words the grammar does not accept at the start of an expression (`RESERVED` in the grammar):
/// a function named like one is written in backticks.
const RESERVED: &[&str] = &[
    "and",
    "as",
    "asc",
    "ascending",
    "by",
    "call",
    "contains",
    "create",
    "delete",
    "desc",
    "descending",
    "detach",
    "distinct",
    "else",
    "end",
    "ends",
    "foreach",
    "in",
    "is",
    "limit",
    "match",
    "merge",
    "on",
    "optional",
    "or",
    "order",
    "remove",
    "return",
    "set",
    "skip",
    "starts",
    "then",
    "union",
    "unwind",
    "when",
    "where",
    "with",
    "xor",
    "yield",
];

/// Words that begin a special atom when followed by `(` or `.` (`null(1)` is the literal null, then
/// an error; `all(x IN l)` is a quantifier): a function named like one is written in backticks.
const ATOM_WORDS: &[&str] = &[
    "all",
    "allshortestpaths",
    "any",
    "case",
    "false",
    "none",
    "not",
    "null",
    "shortestpath",
    "single",
    "true",
];

/// Whether `e` ends with a label predicate or a type predicate, which would swallow a following
/// `|` (`[x IN l WHERE x:A | x]` reads `A | x` as a label disjunction).
fn ends_with_bar_sensitive(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::HasLabels { .. } | ExprKind::IsType { .. } => true,
        ExprKind::Binary { rhs, .. } => ends_with_bar_sensitive(rhs),
        ExprKind::Comparison { rest, .. } => {
            rest.last().is_some_and(|(_, r)| ends_with_bar_sensitive(r))
        }
        ExprKind::Unary { expr, .. } => ends_with_bar_sensitive(expr),
        _ => false,
    }
}

/// Whether printed text starts with a name followed by ` IN `, as a list comprehension does.
fn starts_with_name_in(text: &str) -> bool {
    let rest = if let Some(escaped) = text.strip_prefix('`') {
        // The closing backtick is the first one not doubled.
        let mut i = 0;
        loop {
            let Some(j) = escaped[i..].find('`') else {
                return false;
            };
            i += j;
            if escaped[i + 1..].starts_with('`') {
                i += 2;
            } else {
                break &escaped[i + 1..];
            }
        }
    } else if text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        text.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
    } else {
        return false;
    };
    rest.starts_with(" IN ")
}

/// Whether `e`, printed as an operand that needs precedence `min`, ends with text that reads as a
/// node pattern: a pattern, or `(x IS NULL)`.
fn ends_with_node_pattern(e: &Expr, min: u8) -> bool {
    if prec(e) < min {
        // In parentheses: `(x IS NULL)` is also the node pattern `(x IS NULL)`, i.e. `(x:NULL)`.
        return matches!(&e.kind, ExprKind::IsNull { expr, negated: false }
            if matches!(expr.kind, ExprKind::Variable(_)));
    }
    match &e.kind {
        ExprKind::Pattern(_) => true,
        ExprKind::Binary { op, rhs, .. } => ends_with_node_pattern(rhs, binary_prec(*op) + 1),
        ExprKind::Comparison { rest, .. } => rest
            .last()
            .is_some_and(|(_, r)| ends_with_node_pattern(r, P_CMP + 1)),
        ExprKind::Unary {
            op: UnaryOp::Not,
            expr,
        } => ends_with_node_pattern(expr, P_NOT),
        ExprKind::Unary { expr, .. } => ends_with_node_pattern(expr, P_UNARY),
        _ => false,
    }
}

fn is_plain(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn write_escaped_name(out: &mut String, name: &str) {
    out.push('`');
    out.push_str(&name.replace('`', "``"));
    out.push('`');
}

/// Writes a label, relationship type, property key or map key: as is when it is a plain name,
/// else in backticks (doubling any backtick in it).
pub(crate) fn write_name(out: &mut String, name: &str) {
    if is_plain(name) {
        out.push_str(name);
    } else {
        write_escaped_name(out, name);
    }
}

/// Writes a string literal in single quotes with Cypher escapes.
pub(crate) fn write_string(out: &mut String, s: &str) {
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('\'');
}

// Precedence levels, loosest to tightest (see the Pratt table in parse.rs).
const P_OR: u8 = 1;
const P_XOR: u8 = 2;
const P_AND: u8 = 3;
const P_NOT: u8 = 4;
const P_CMP: u8 = 5;
const P_STR: u8 = 6;
const P_ADD: u8 = 7;
const P_MUL: u8 = 8;
const P_POW: u8 = 9;
const P_UNARY: u8 = 10;
const P_POSTFIX: u8 = 11;
const P_ATOM: u8 = 12;

fn binary_prec(op: BinaryOp) -> u8 {
    use BinaryOp::*;
    match op {
        Or => P_OR,
        Xor => P_XOR,
        And => P_AND,
        Eq | Ne | Lt | Gt | Le | Ge => P_CMP,
        RegexMatch | StartsWith | EndsWith | Contains | In => P_STR,
        Add | Sub | Concat => P_ADD,
        Mul | Div | Mod => P_MUL,
        Pow => P_POW,
    }
}

fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary { op, .. } => binary_prec(*op),
        ExprKind::Comparison { .. } => P_CMP,
        ExprKind::Unary {
            op: UnaryOp::Not, ..
        } => P_NOT,
        ExprKind::Unary { .. } => P_UNARY,
        ExprKind::IsNull { .. }
        | ExprKind::IsType { .. }
        | ExprKind::IsNormalized { .. }
        | ExprKind::HasLabels { labeled: true, .. } => P_STR,
        ExprKind::Property { .. }
        | ExprKind::Index { .. }
        | ExprKind::Slice { .. }
        | ExprKind::HasLabels { .. } => P_POSTFIX,
        ExprKind::Literal(Literal::Integer(v)) if *v < 0 => P_UNARY,
        ExprKind::Literal(Literal::Float(v)) if v.is_sign_negative() => P_UNARY,
        ExprKind::Literal(Literal::OutOfRange { text, .. }) if text.starts_with('-') => P_UNARY,
        _ => P_ATOM,
    }
}

struct Printer<'o> {
    out: String,
    opts: &'o PrintOptions,
    renames: HashMap<String, String>,
    /// Inside `INSERT`: label conjunctions are written with `&`.
    insert: bool,
}

impl<'o> Printer<'o> {
    fn new(opts: &'o PrintOptions) -> Self {
        Printer {
            out: String::with_capacity(128),
            opts,
            renames: HashMap::new(),
            insert: false,
        }
    }

    fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// A variable (renamed when asked; escaped when it is a keyword or not a plain name).
    fn var(&mut self, id: &Ident) {
        if self.opts.rename_variables {
            let n = self.renames.len();
            let name = self
                .renames
                .entry(id.name.clone())
                .or_insert_with(|| format!("v{n}"))
                .clone();
            self.out.push_str(&name);
            return;
        }
        let lower = id.name.to_ascii_lowercase();
        if is_plain(&id.name) && KEYWORDS.binary_search(&lower.as_str()).is_err() {
            self.out.push_str(&id.name);
        } else {
            write_escaped_name(&mut self.out, &id.name);
        }
    }

    /// A label, type, property key, map key or function-name part.
    fn name(&mut self, id: &Ident) {
        write_name(&mut self.out, &id.name);
    }

    fn qualified(&mut self, q: &QualifiedName) {
        for (i, p) in q.parts.iter().enumerate() {
            if i > 0 {
                self.w(".");
            }
            self.name(p);
        }
    }

    /// A function name: like [`Self::qualified`], but a first part that is a reserved word is
    /// escaped, since the grammar reads it as a keyword.
    fn function_name(&mut self, q: &QualifiedName) {
        for (i, p) in q.parts.iter().enumerate() {
            if i > 0 {
                self.w(".");
            }
            let lower = p.name.to_ascii_lowercase();
            if i == 0
                && (RESERVED.binary_search(&lower.as_str()).is_ok()
                    || ATOM_WORDS.contains(&lower.as_str()))
            {
                write_escaped_name(&mut self.out, &p.name);
            } else {
                self.name(p);
            }
        }
    }

    /// An expression that a `|` follows: parenthesized when it would swallow the bar.
    fn before_bar(&mut self, e: &Expr) {
        if ends_with_bar_sensitive(e) {
            self.w("(");
            self.expr(e);
            self.w(")");
        } else {
            self.expr(e);
        }
    }

    // ---- statements ----

    fn statement(&mut self, s: &Statement) {
        if let Some(c) = &s.cypher {
            self.w("CYPHER");
            if let Some(v) = &c.version {
                self.w(" ");
                self.w(v);
            }
            for (k, v) in &c.options {
                self.w(" ");
                self.name(k);
                self.w("=");
                self.name(v);
            }
            self.w(" ");
        }
        match s.prefix {
            Some(QueryPrefix::Explain) => self.w("EXPLAIN "),
            Some(QueryPrefix::Profile) => self.w("PROFILE "),
            Some(QueryPrefix::Conflicting) => self.w("EXPLAIN PROFILE "),
            None => {}
        }
        self.query(&s.query);
    }

    fn query(&mut self, q: &Query) {
        self.single_query(&q.first);
        for u in &q.unions {
            self.w(if u.all { " UNION ALL " } else { " UNION " });
            self.single_query(&u.query);
        }
    }

    fn single_query(&mut self, q: &SingleQuery) {
        self.clauses(&q.clauses);
    }

    fn clauses(&mut self, cs: &[Clause]) {
        for (i, c) in cs.iter().enumerate() {
            if i > 0 {
                self.w(" ");
            }
            self.clause(c);
        }
    }

    fn clause(&mut self, c: &Clause) {
        match c {
            Clause::Schema(c) => self.schema_command(c),
            Clause::Admin(c) => self.admin_command(c),
            Clause::Braced(b) => {
                self.w("{ ");
                self.query(&b.query);
                self.w(" }");
            }
            Clause::Next(n) => {
                for (i, q) in n.queries.iter().enumerate() {
                    if i > 0 {
                        self.w(" NEXT ");
                    }
                    self.query(q);
                }
            }
            Clause::When(w) => {
                for (i, b) in w.branches.iter().enumerate() {
                    if i > 0 {
                        self.w(" ");
                    }
                    self.w("WHEN ");
                    self.expr(&b.condition);
                    self.w(" THEN ");
                    self.query(&b.query);
                }
                if let Some(e) = &w.else_ {
                    self.w(" ELSE ");
                    self.query(e);
                }
            }
            Clause::Match(m) => {
                if m.optional {
                    self.w("OPTIONAL ");
                }
                self.w("MATCH ");
                match m.mode {
                    Some(MatchMode::RepeatableElements) => self.w("REPEATABLE ELEMENTS "),
                    Some(MatchMode::DifferentRelationships) => self.w("DIFFERENT RELATIONSHIPS "),
                    None => {}
                }
                self.pattern(&m.pattern);
                for h in &m.hints {
                    self.w(" ");
                    self.hint(h);
                }
                if !m.where_after_search {
                    self.where_(&m.where_);
                }
                if let Some(s) = &m.search {
                    self.search(s);
                }
                if m.where_after_search {
                    self.where_(&m.where_);
                }
            }
            Clause::With(w) => {
                self.w("WITH ");
                self.projection(&w.projection);
                self.where_(&w.where_);
            }
            Clause::Return(r) => {
                self.w("RETURN ");
                self.projection(&r.projection);
            }
            Clause::Unwind(u) if u.for_in => {
                self.w("FOR ");
                self.var(&u.variable);
                self.w(" IN ");
                self.expr(&u.expr);
            }
            Clause::Unwind(u) => {
                self.w("UNWIND ");
                self.expr(&u.expr);
                self.w(" AS ");
                self.var(&u.variable);
            }
            Clause::CallSubquery(c) => {
                if c.optional {
                    self.w("OPTIONAL ");
                }
                self.w("CALL ");
                match &c.scope {
                    Some(SubqueryScope::All) => self.w("(*) "),
                    Some(SubqueryScope::Variables(vs)) => {
                        self.w("(");
                        for (i, v) in vs.iter().enumerate() {
                            if i > 0 {
                                self.w(", ");
                            }
                            self.var(v);
                        }
                        self.w(") ");
                    }
                    None => {}
                }
                self.w("{ ");
                self.query(&c.query);
                self.w(" }");
                if let Some(t) = &c.in_transactions {
                    self.w(" IN");
                    if let Some(conc) = &t.concurrency {
                        if let Some(e) = conc {
                            self.w(" ");
                            self.expr(e);
                        }
                        self.w(" CONCURRENT");
                    }
                    self.w(" TRANSACTIONS");
                    if let Some(b) = &t.batch_size {
                        self.w(" OF ");
                        self.expr(b);
                        self.w(" ROWS");
                    }
                    if let Some(on) = t.on_error {
                        self.w(match on {
                            OnError::Continue => " ON ERROR CONTINUE",
                            OnError::Break => " ON ERROR BREAK",
                            OnError::Fail => " ON ERROR FAIL",
                            OnError::Retry => " ON ERROR RETRY",
                        });
                    }
                    if let Some(e) = &t.retry_for {
                        self.w(" FOR ");
                        self.expr(e);
                        self.w(" SECONDS");
                    }
                    if let Some(then) = t.retry_then {
                        self.w(match then {
                            OnError::Continue => " THEN CONTINUE",
                            OnError::Break => " THEN BREAK",
                            OnError::Fail | OnError::Retry => " THEN FAIL",
                        });
                    }
                    if let Some(r) = &t.report_status {
                        self.w(" REPORT STATUS AS ");
                        self.var(r);
                    }
                }
            }
            Clause::CallProcedure(c) => {
                if c.optional {
                    self.w("OPTIONAL ");
                }
                self.w("CALL ");
                self.qualified(&c.name);
                if let Some(args) = &c.args {
                    self.w("(");
                    self.expr_list(args);
                    self.w(")");
                }
                if let Some(y) = &c.yield_ {
                    self.yield_items(y);
                    self.where_(&y.where_);
                }
            }
            Clause::Show(c) => {
                self.w(if c.kind == ShowKind::Terminate {
                    "TERMINATE "
                } else {
                    "SHOW "
                });
                match c.scope {
                    ShowScope::All => {}
                    ShowScope::BuiltIn => self.w("BUILT IN "),
                    ShowScope::UserDefined => self.w("USER DEFINED "),
                }
                match c.kind {
                    ShowKind::Functions => self.w("FUNCTIONS"),
                    ShowKind::Procedures => self.w("PROCEDURES"),
                    ShowKind::Indexes(kind) => {
                        if let Some(k) = kind {
                            self.w(k.name());
                            self.w(" ");
                        }
                        self.w("INDEXES");
                    }
                    ShowKind::Databases(which) => {
                        self.w(match which {
                            ShowDatabases::Default => "DEFAULT DATABASE",
                            ShowDatabases::Home => "HOME DATABASE",
                            ShowDatabases::All if c.database.is_some() => "DATABASE",
                            ShowDatabases::All => "DATABASES",
                        });
                        match &c.database {
                            // A database named like the word that would follow.
                            Some(SchemaName::Name(i))
                                if ["where", "yield"]
                                    .iter()
                                    .any(|w| i.name.eq_ignore_ascii_case(w)) =>
                            {
                                self.w(" ");
                                write_escaped_name(&mut self.out, &i.name);
                            }
                            Some(d) => {
                                self.w(" ");
                                self.schema_name(d);
                            }
                            None => {}
                        }
                    }
                    ShowKind::Settings | ShowKind::Transactions | ShowKind::Terminate => {
                        self.w(if c.kind == ShowKind::Settings {
                            "SETTINGS"
                        } else {
                            "TRANSACTIONS"
                        });
                        for (i, n) in c.names.iter().enumerate() {
                            self.w(if i == 0 { " " } else { ", " });
                            self.expr(n);
                        }
                    }
                    ShowKind::CurrentUser => self.w("CURRENT USER"),
                    ShowKind::Users { with_auth } => self.w(if with_auth {
                        "USERS WITH AUTH"
                    } else {
                        "USERS"
                    }),
                    ShowKind::Constraints(f) => {
                        let (entity, word) = match f {
                            ShowConstraints::All => (None, ""),
                            ShowConstraints::Unique(e) => (e, "UNIQUE "),
                            ShowConstraints::Key(e) => (e, "KEY "),
                            ShowConstraints::Existence(e) => (e, "PROPERTY EXISTENCE "),
                            ShowConstraints::PropertyType(e) => (e, "PROPERTY TYPE "),
                        };
                        self.entity_word(entity);
                        self.w(word);
                        self.w("CONSTRAINTS");
                    }
                }
                match &c.executable {
                    None => {}
                    Some(None) => self.w(" EXECUTABLE"),
                    Some(Some(u)) => {
                        self.w(" EXECUTABLE BY ");
                        self.name(u);
                    }
                }
                if let Some(y) = &c.yield_ {
                    self.yield_items(y);
                    self.order_skip_limit(&c.order_by, &c.skip, &c.limit);
                    self.where_(&y.where_);
                }
                self.where_(&c.where_);
            }
            Clause::Create(c) => {
                self.w(if c.insert { "INSERT " } else { "CREATE " });
                self.insert = c.insert;
                self.pattern(&c.pattern);
                self.insert = false;
            }
            Clause::Merge(m) => {
                self.w("MERGE ");
                self.pattern_part(&m.pattern);
                for a in &m.actions {
                    self.w(if a.on_create {
                        " ON CREATE SET "
                    } else {
                        " ON MATCH SET "
                    });
                    self.set_items(&a.items);
                }
            }
            Clause::Set(s) => {
                self.w("SET ");
                self.set_items(&s.items);
            }
            Clause::Remove(r) => {
                self.w("REMOVE ");
                for (i, it) in r.items.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    match it {
                        RemoveItem::Property { target, .. } => self.property_target(target),
                        RemoveItem::Labels {
                            variable, labels, ..
                        } => {
                            self.var(variable);
                            self.node_labels(labels);
                        }
                    }
                }
            }
            Clause::Delete(d) => {
                if d.detach {
                    self.w("DETACH ");
                }
                self.w("DELETE ");
                self.expr_list(&d.exprs);
            }
            Clause::Foreach(f) => {
                self.w("FOREACH (");
                self.var(&f.variable);
                self.w(" IN ");
                self.before_bar(&f.list);
                self.w(" | ");
                self.clauses(&f.clauses);
                self.w(")");
            }
            Clause::LoadCsv(l) => {
                self.w("LOAD CSV ");
                if l.with_headers {
                    self.w("WITH HEADERS ");
                }
                self.w("FROM ");
                self.expr(&l.source);
                self.w(" AS ");
                self.var(&l.variable);
                if let Some(t) = &l.field_terminator {
                    self.w(" FIELDTERMINATOR ");
                    write_string(&mut self.out, t);
                }
            }
            Clause::Use(u) => {
                self.w("USE ");
                self.graph_ref(&u.graph);
            }
            Clause::Finish(_) => self.w("FINISH"),
            Clause::Let(l) => {
                self.w("LET ");
                for (i, (v, e)) in l.items.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.var(v);
                    self.w(" = ");
                    self.expr(e);
                }
            }
            Clause::Filter(f) => {
                self.w("FILTER ");
                self.expr(&f.predicate);
            }
        }
    }

    /// A graph reference: a dotted name (never renamed) or a function call. A leading name
    /// `graph` is escaped: `USE graph…` reads it as the optional keyword GRAPH.
    fn graph_ref(&mut self, e: &Expr) {
        let start = self.out.len();
        self.graph_ref_inner(e);
        let written = &self.out[start..];
        // A graph named `graph` alone would read as the keyword `USE GRAPH x`; `graph.byName(…)`
        // and `graph.x` cannot.
        if matches!(e.kind, ExprKind::Variable(_))
            && written
                .get(..5)
                .is_some_and(|w| w.eq_ignore_ascii_case("graph"))
            && !written[5..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            self.out.insert(start + 5, '`');
            self.out.insert(start, '`');
        }
    }

    fn graph_ref_inner(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Variable(v) => self.name(v),
            ExprKind::Property { expr, key } => {
                self.graph_ref_inner(expr);
                self.w(".");
                self.name(key);
            }
            _ => self.expr(e),
        }
    }

    /// ` SEARCH v IN (VECTOR INDEX name FOR q [WHERE f] LIMIT k) [SCORE AS s]`.
    fn search(&mut self, s: &Search) {
        self.w(" SEARCH ");
        self.var(&s.variable);
        self.w(if s.fulltext {
            " IN (FULLTEXT INDEX "
        } else {
            " IN (VECTOR INDEX "
        });
        self.schema_name(&s.index);
        self.w(" FOR ");
        self.expr(&s.query);
        if let Some(f) = &s.filter {
            self.w(" WHERE ");
            self.expr(f);
        }
        if let Some((word, _, e)) = &s.skip {
            self.w(" ");
            self.w(word);
            self.w(" ");
            self.expr(e);
        }
        self.w(" LIMIT ");
        self.expr(&s.limit);
        self.w(")");
        if let Some(v) = &s.score {
            self.w(" SCORE AS ");
            self.var(v);
        }
    }

    fn hint(&mut self, h: &Hint) {
        match h {
            Hint::Index {
                kind,
                seek,
                variable,
                label,
                properties,
                ..
            } => {
                self.w("USING ");
                if let Some(k) = kind {
                    self.w(k);
                    self.w(" ");
                }
                self.w("INDEX ");
                if *seek {
                    self.w("SEEK ");
                }
                self.var(variable);
                self.w(":");
                self.name(label);
                self.w("(");
                for (i, p) in properties.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.name(p);
                }
                self.w(")");
            }
            Hint::Scan {
                variable, label, ..
            } => {
                self.w("USING SCAN ");
                self.var(variable);
                self.w(":");
                self.name(label);
            }
            Hint::Join { variables, .. } => {
                self.w("USING JOIN ON ");
                for (i, v) in variables.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.var(v);
                }
            }
        }
    }

    fn where_(&mut self, w: &Option<Expr>) {
        if let Some(e) = w {
            self.w(" WHERE ");
            self.expr(e);
        }
    }

    fn projection(&mut self, p: &Projection) {
        if p.distinct {
            self.w("DISTINCT ");
        }
        if p.all {
            self.w("ALL ");
        }
        if p.star {
            self.w("*");
        }
        for (i, it) in p.items.iter().enumerate() {
            if i > 0 || p.star {
                self.w(", ");
            }
            // An item starting with `all(x IN list)` (no WHERE) would be read as `ALL (x IN
            // list) …` (Cypher 25's RETURN ALL, as Neo4j reads it): in brackets it stays the
            // quantifier.
            let start = self.out.len();
            self.expr(&it.expr);
            if i == 0 && !p.distinct && !p.all && !p.star {
                let printed = &self.out[start..];
                let head = printed.get(..3);
                let rest = printed.get(3..).unwrap_or("");
                if head.is_some_and(|h| h.eq_ignore_ascii_case("all"))
                    && rest.trim_start().starts_with('(')
                {
                    self.out.insert(start, '(');
                    self.out.push(')');
                }
            }
            if let Some(a) = &it.alias {
                self.w(" AS ");
                self.var(a);
            }
        }
        if let Some(g) = &p.group_by {
            self.w(" GROUP BY ");
            match &g.keys {
                GroupKeys::All => self.w("ALL"),
                GroupKeys::Empty => self.w("()"),
                GroupKeys::Exprs(keys) => {
                    for (i, k) in keys.iter().enumerate() {
                        if i > 0 {
                            self.w(", ");
                        }
                        // A lone key `all` would read as `GROUP BY ALL`: in brackets it stays
                        // the variable.
                        let start = self.out.len();
                        self.expr(k);
                        if keys.len() == 1 && self.out[start..].eq_ignore_ascii_case("all") {
                            self.out.insert(start, '(');
                            self.out.push(')');
                        }
                    }
                }
            }
        }
        self.order_skip_limit(&p.order_by, &p.skip, &p.limit);
    }

    fn order_skip_limit(
        &mut self,
        order_by: &[SortItem],
        skip: &Option<Expr>,
        limit: &Option<Expr>,
    ) {
        if !order_by.is_empty() {
            self.w(" ORDER BY ");
            for (i, s) in order_by.iter().enumerate() {
                if i > 0 {
                    self.w(", ");
                }
                self.expr(&s.expr);
                if s.descending {
                    self.w(" DESC");
                } else if s.explicit {
                    self.w(" ASC");
                }
            }
        }
        if let Some(s) = skip {
            self.w(" SKIP ");
            self.expr(s);
        }
        if let Some(l) = limit {
            self.w(" LIMIT ");
            self.expr(l);
        }
    }

    /// ` YIELD *` or ` YIELD field [AS alias], …`.
    fn yield_items(&mut self, y: &YieldSpec) {
        self.w(" YIELD ");
        if y.star {
            self.w("*");
        }
        for (i, it) in y.items.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.name(&it.field);
            match &it.alias {
                Some(a) => {
                    self.w(" AS ");
                    self.var(a);
                }
                None if self.opts.rename_variables => {
                    self.w(" AS ");
                    self.var(&it.field);
                }
                None => {}
            }
        }
    }

    fn set_items(&mut self, items: &[SetItem]) {
        for (i, it) in items.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            match it {
                SetItem::Property { target, value, .. } => {
                    self.property_target(target);
                    self.w(" = ");
                    self.expr(value);
                }
                SetItem::Variable {
                    variable,
                    value,
                    merge,
                    ..
                } => {
                    self.var(variable);
                    self.w(if *merge { " += " } else { " = " });
                    self.expr(value);
                }
                SetItem::Labels {
                    variable, labels, ..
                } => {
                    self.var(variable);
                    self.node_labels(labels);
                }
            }
        }
    }

    // ---- expressions ----

    fn expr_list(&mut self, es: &[Expr]) {
        for (i, e) in es.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.expr(e);
        }
    }

    /// Prints `e`, in parentheses when its precedence is below `min`. A label predicate is in
    /// parentheses as the operand of anything tighter than a comparison: Cypher 25 reads
    /// `n:A` at the level of `IS NULL` (`n:A || x`, `n:A IS NULL` are errors there), Cypher 5
    /// as a postfix; `(n:A) || x` means the same to both.
    fn operand(&mut self, e: &Expr, min: u8) {
        let label_test = matches!(e.kind, ExprKind::HasLabels { labeled: false, .. });
        if prec(e) < min || (label_test && min > P_CMP) {
            self.w("(");
            self.expr(e);
            self.w(")");
        } else {
            self.expr(e);
        }
    }

    /// The operand of `IS NULL`, `IS :: T`, `STARTS WITH` and their kin: one such test per
    /// operand, and a label predicate in parentheses (Cypher 25 reads `n:A IS NULL` as two
    /// tests).
    fn predicate_operand(&mut self, e: &Expr) {
        if matches!(e.kind, ExprKind::HasLabels { labeled: false, .. }) {
            self.w("(");
            self.expr(e);
            self.w(")");
        } else {
            self.operand(e, P_STR + 1);
        }
    }

    /// The operand of `.key`, `[…]` or `:Label`: parenthesized below postfix precedence, and when
    /// it is a label predicate, whose labels would otherwise absorb what follows (`(n:A):B` is not
    /// `n:A:B`, and `SET (n:A).p = 1` is not `SET n:A` followed by `.p`).
    fn postfix_operand(&mut self, e: &Expr) {
        if matches!(e.kind, ExprKind::HasLabels { .. }) {
            self.w("(");
            self.expr(e);
            self.w(")");
        } else {
            self.operand(e, P_POSTFIX);
        }
    }

    /// Prints `e` as the left operand of `op`, like [`Self::operand`], and in parentheses also
    /// when a pattern at its end would run on into `-` or `<`: `(a)-->(b) - -(c)-->(d)` reads
    /// as one longer pattern, and so does `(x IS NULL) - -(y IS NULL)` (`(x IS NULL)` is the
    /// node pattern `(x:NULL)`).
    fn operand_before(&mut self, e: &Expr, min: u8, op: BinaryOp) {
        if matches!(op, BinaryOp::Sub | BinaryOp::Lt) && ends_with_node_pattern(e, min) {
            self.w("(");
            self.operand(e, min);
            self.w(")");
        } else {
            self.operand(e, min);
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Literal(l) => self.literal(l),
            ExprKind::Parameter(p) => {
                self.w("$");
                match p {
                    Parameter::Named(n) => {
                        if is_plain(n) {
                            self.w(n);
                        } else {
                            write_escaped_name(&mut self.out, n);
                        }
                    }
                    Parameter::Positional(i) => {
                        let _ = write!(self.out, "{i}");
                    }
                }
            }
            // The operand of an extended simple-CASE `WHEN` is not written.
            ExprKind::Variable(v) if v.name == CASE_OPERAND => {}
            ExprKind::Variable(v) => self.var(v),
            ExprKind::List(items) => {
                self.w("[");
                let start = self.out.len();
                self.expr_list(items);
                // `[(x IN l)]` holds one membership test; unparenthesized, it would read as the
                // list comprehension `[x IN l]`.
                if items.len() == 1 && starts_with_name_in(&self.out[start..]) {
                    self.out.insert(start, '(');
                    self.w(")");
                }
                self.w("]");
            }
            ExprKind::Map(entries) => self.map(entries),
            ExprKind::Property { expr, key } => {
                self.postfix_operand(expr);
                self.w(".");
                self.name(key);
            }
            ExprKind::Index { expr, index } => {
                self.postfix_operand(expr);
                self.w("[");
                self.expr(index);
                self.w("]");
            }
            ExprKind::Slice { expr, from, to } => {
                self.postfix_operand(expr);
                self.w("[");
                if let Some(f) = from {
                    self.expr(f);
                }
                self.w("..");
                if let Some(t) = to {
                    self.expr(t);
                }
                self.w("]");
            }
            ExprKind::HasLabels {
                expr,
                labels,
                labeled: true,
            } => {
                self.predicate_operand(expr);
                self.w(" IS LABELED ");
                // A reserved word right after LABELED ends the expression (`n IS LABELED
                // RETURN …`): in brackets it is read as a label.
                let start = self.out.len();
                self.label_expr(labels, 0);
                let first = self.out[start..]
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .next()
                    .unwrap_or("")
                    .to_ascii_lowercase();
                if RESERVED_WORDS.contains(&first.as_str()) {
                    self.out.insert(start, '(');
                    self.out.push(')');
                }
            }
            ExprKind::HasLabels { expr, labels, .. } => {
                self.postfix_operand(expr);
                self.node_labels(labels);
            }
            ExprKind::Unary { op, expr } => match op {
                UnaryOp::Not => {
                    self.w("NOT ");
                    self.operand(expr, P_NOT);
                }
                UnaryOp::Neg | UnaryOp::Plus => {
                    self.w(if *op == UnaryOp::Neg { "-" } else { "+" });
                    let numeric = matches!(
                        expr.kind,
                        ExprKind::Literal(Literal::Integer(_))
                            | ExprKind::Literal(Literal::Float(_))
                            | ExprKind::Literal(Literal::OutOfRange { .. })
                    );
                    if numeric && *op == UnaryOp::Neg {
                        // `-(5)` stays a negation of a literal, not the literal −5.
                        self.w("(");
                        self.expr(expr);
                        self.w(")");
                    } else {
                        // One sign per operand, as in Neo4j's grammar: `-(-x)`, not `- -x`.
                        self.operand(expr, P_UNARY + 1);
                    }
                }
            },
            ExprKind::Binary { op, lhs, rhs } => {
                let p = binary_prec(*op);
                // Comparisons never chain implicitly: a comparison operand gets parentheses.
                // Nor do string and list predicates (`a IN b IN c` is not Cypher).
                let lmin = if p == P_CMP || p == P_STR { p + 1 } else { p };
                if p == P_STR && matches!(lhs.kind, ExprKind::HasLabels { labeled: false, .. }) {
                    self.predicate_operand(lhs);
                } else {
                    self.operand_before(lhs, lmin, *op);
                }
                self.w(" ");
                self.w(op.symbol());
                self.w(" ");
                self.operand(rhs, p + 1);
            }
            ExprKind::Comparison { first, rest } => {
                let mut prev: &Expr = first;
                for (op, e) in rest {
                    self.operand_before(prev, P_CMP + 1, *op);
                    self.w(" ");
                    self.w(op.symbol());
                    self.w(" ");
                    prev = e;
                }
                self.operand(prev, P_CMP + 1);
            }
            ExprKind::IsNull { expr, negated } => {
                self.predicate_operand(expr);
                self.w(if *negated { " IS NOT NULL" } else { " IS NULL" });
            }
            ExprKind::IsNormalized {
                expr,
                negated,
                form,
            } => {
                self.predicate_operand(expr);
                self.w(if *negated { " IS NOT" } else { " IS" });
                if let Some(f) = form {
                    self.w(" ");
                    self.w(f.name());
                }
                self.w(" NORMALIZED");
            }
            ExprKind::IsType { expr, negated, ty } => {
                self.predicate_operand(expr);
                self.w(if *negated { " IS NOT :: " } else { " IS :: " });
                self.cypher_type(ty, true);
            }
            ExprKind::CountStar => self.w("count(*)"),
            ExprKind::FunctionCall {
                name,
                distinct,
                args,
            } => {
                self.function_name(name);
                self.w("(");
                if let Some(spec) = trim_spec(name, *distinct, args) {
                    // `trim('LEADING', 'x', s)` is how Neo4j reads `trim(LEADING 'x' FROM s)`.
                    self.w(spec);
                    self.w(" ");
                    if let [_, chars, _] = args.as_slice() {
                        self.expr(chars);
                        self.w(" ");
                    }
                    self.w("FROM ");
                    self.expr(&args[args.len() - 1]);
                    self.w(")");
                    return;
                }
                if *distinct {
                    self.w("DISTINCT ");
                }
                self.expr_list(args);
                self.w(")");
            }
            ExprKind::Case {
                operand,
                whens,
                else_,
            } => {
                self.w("CASE");
                if let Some(o) = operand {
                    self.w(" ");
                    self.expr(o);
                }
                for (w, t) in whens {
                    self.w(" WHEN ");
                    match &w.kind {
                        // `WHEN > 3`: the operand is not written, and the right-hand side is
                        // an arithmetic expression (anything looser in parentheses).
                        ExprKind::Binary { op, rhs, .. } if w.tests_case_operand() => {
                            self.w(op.symbol());
                            self.w(" ");
                            self.operand(rhs, P_ADD);
                        }
                        _ => {
                            let at = self.out.len();
                            self.expr(w);
                            // `WHEN IS NULL`: the operand printed as nothing leaves a space.
                            if self.out[at..].starts_with(' ') {
                                self.out.remove(at);
                            }
                        }
                    }
                    self.w(" THEN ");
                    self.expr(t);
                }
                if let Some(e) = else_ {
                    self.w(" ELSE ");
                    self.expr(e);
                }
                self.w(" END");
            }
            ExprKind::ListComprehension {
                variable,
                list,
                filter,
                map,
            } => {
                self.w("[");
                self.var(variable);
                self.w(" IN ");
                match (filter, map) {
                    (None, Some(_)) => self.before_bar(list),
                    _ => self.expr(list),
                }
                if let Some(f) = filter {
                    self.w(" WHERE ");
                    if map.is_some() {
                        self.before_bar(f);
                    } else {
                        self.expr(f);
                    }
                }
                if let Some(m) = map {
                    self.w(" | ");
                    self.expr(m);
                }
                self.w("]");
            }
            ExprKind::PatternComprehension {
                variable,
                pattern,
                filter,
                map,
            } => {
                self.w("[");
                if let Some(v) = variable {
                    self.var(v);
                    self.w(" = ");
                }
                self.chain(pattern);
                if let Some(f) = filter {
                    self.w(" WHERE ");
                    self.before_bar(f);
                }
                self.w(" | ");
                self.expr(map);
                self.w("]");
            }
            ExprKind::Quantified {
                kind,
                variable,
                list,
                filter,
            } => {
                self.w(match kind {
                    QuantifierKind::All => "all(",
                    QuantifierKind::Any => "any(",
                    QuantifierKind::None => "none(",
                    QuantifierKind::Single => "single(",
                });
                self.var(variable);
                self.w(" IN ");
                self.expr(list);
                if let Some(f) = filter {
                    self.w(" WHERE ");
                    self.expr(f);
                }
                self.w(")");
            }
            ExprKind::Reduce {
                accumulator,
                init,
                variable,
                list,
                expr,
                predicate,
            } => {
                self.w(if predicate.is_some() {
                    "allReduce("
                } else {
                    "reduce("
                });
                self.var(accumulator);
                self.w(" = ");
                self.expr(init);
                self.w(", ");
                self.var(variable);
                self.w(" IN ");
                self.before_bar(list);
                self.w(" | ");
                self.expr(expr);
                if let Some(p) = predicate {
                    self.w(", ");
                    self.expr(p);
                }
                self.w(")");
            }
            ExprKind::Pattern(c) => self.chain(c),
            ExprKind::ShortestPath { all, chain } => self.shortest(*all, chain),
            ExprKind::Exists(body) => {
                self.w("EXISTS { ");
                self.subquery_body(body);
                self.w(" }");
            }
            ExprKind::CountSubquery(body) => {
                self.w("COUNT { ");
                self.subquery_body(body);
                self.w(" }");
            }
            ExprKind::Collect(q) => {
                self.w("COLLECT { ");
                self.query(q);
                self.w(" }");
            }
            ExprKind::MapProjection { variable, items } => {
                self.var(variable);
                self.w(" {");
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    match it {
                        MapProjectionItem::Property(k) => {
                            self.w(".");
                            self.name(k);
                        }
                        MapProjectionItem::AllProperties(_) => self.w(".*"),
                        MapProjectionItem::Entry(k, v) => {
                            self.name(k);
                            self.w(": ");
                            self.expr(v);
                        }
                        MapProjectionItem::Variable(v) => self.var(v),
                    }
                }
                self.w("}");
            }
        }
    }

    fn subquery_body(&mut self, b: &SubqueryBody) {
        match b {
            SubqueryBody::Query(q) => self.query(q),
            SubqueryBody::Pattern { pattern, where_ } => {
                self.pattern(pattern);
                self.where_(where_);
            }
        }
    }

    fn map(&mut self, entries: &[(Ident, Expr)]) {
        self.w("{");
        for (i, (k, v)) in entries.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.name(k);
            self.w(": ");
            self.expr(v);
        }
        self.w("}");
    }

    fn literal(&mut self, l: &Literal) {
        match l {
            Literal::Null => self.w("null"),
            Literal::Boolean(true) => self.w("true"),
            Literal::Boolean(false) => self.w("false"),
            Literal::Integer(v) => {
                let _ = write!(self.out, "{v}");
            }
            Literal::Float(v) => {
                // `{:?}` is the shortest text that reads back to the same f64, and always has a
                // `.` or an exponent, so it stays a float.
                let _ = write!(self.out, "{v:?}");
            }
            Literal::String(s) => write_string(&mut self.out, s),
            Literal::OutOfRange { text, .. } => self.w(text),
        }
    }

    /// A SET or REMOVE target: `atom.k1.k2` or `atom[key]`, the atom parenthesized unless it
    /// is one.
    fn property_target(&mut self, t: &Expr) {
        let mut keys = Vec::new();
        let mut base = t;
        while let ExprKind::Property { expr, key } = &base.kind {
            keys.push(key);
            base = expr;
        }
        let index = match (&base.kind, keys.is_empty()) {
            (ExprKind::Index { expr, index }, true) => {
                base = expr;
                Some(index)
            }
            _ => None,
        };
        if prec(base) < P_ATOM {
            self.w("(");
            self.expr(base);
            self.w(")");
        } else {
            self.expr(base);
        }
        if let Some(i) = index {
            self.w("[");
            self.expr(i);
            self.w("]");
        }
        for k in keys.iter().rev() {
            self.w(".");
            self.name(k);
        }
    }
}

/// The trim specification of a call `trim('LEADING'|'TRAILING'|'BOTH', [chars,] input)`, which
/// prints as `trim(LEADING [chars] FROM input)`.
fn trim_spec(name: &QualifiedName, distinct: bool, args: &[Expr]) -> Option<&'static str> {
    if distinct || name.parts.len() != 1 || !name.parts[0].name.eq_ignore_ascii_case("trim") {
        return None;
    }
    if !(2..=3).contains(&args.len()) {
        return None;
    }
    match &args[0].kind {
        ExprKind::Literal(Literal::String(s)) => match s.as_str() {
            "LEADING" => Some("LEADING"),
            "TRAILING" => Some("TRAILING"),
            "BOTH" => Some("BOTH"),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{KEYWORDS, RESERVED};

    #[test]
    fn search_clauses_and_filtered_vector_indexes_print_back() {
        for q in [
            "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 2.0] WHERE m.year > 2000 AND m.rating = 1 LIMIT 5) SCORE AS s WHERE s > 0.5 RETURN m, s",
            "CYPHER 25 MATCH ()-[r:R]->() WHERE r.w = 1 SEARCH r IN (VECTOR INDEX links FOR $v LIMIT 3) RETURN r",
            "CYPHER 25 CREATE VECTOR INDEX movies FOR (m:Movie) ON (m.emb) WITH [m.year, m.rating]",
        ] {
            let stmt = crate::syntax::parse(q).unwrap();
            let printed = super::print(&stmt, &super::PrintOptions::default());
            assert_eq!(crate::syntax::parse(&printed).unwrap().query, stmt.query);
            assert_eq!(printed, q);
        }
    }

    /// `trim`'s SQL forms parse as Neo4j reads them (`trim(spec, [chars,] input)`) and print
    /// back as the SQL form, the specification written out.
    #[test]
    fn trim_forms_print_back() {
        for (q, printed) in [
            (
                "RETURN trim(BOTH 'x' FROM s)",
                "RETURN trim(BOTH 'x' FROM s)",
            ),
            ("RETURN trim(leading FROM s)", "RETURN trim(LEADING FROM s)"),
            ("RETURN trim('x' FROM s)", "RETURN trim(BOTH 'x' FROM s)"),
            ("RETURN trim(FROM s)", "RETURN trim(BOTH FROM s)"),
            (
                "RETURN trim('TRAILING', 'x', s)",
                "RETURN trim(TRAILING 'x' FROM s)",
            ),
            (
                "RETURN trim(FROM FROM FROM)",
                "RETURN trim(BOTH `FROM` FROM `FROM`)",
            ),
            ("RETURN trim(s)", "RETURN trim(s)"),
            ("RETURN trim('x', 'y', s)", "RETURN trim('x', 'y', s)"),
        ] {
            let stmt = crate::syntax::parse(q).unwrap();
            let out = super::print(&stmt, &super::PrintOptions::default());
            assert_eq!(out, printed, "{q}");
            let again = crate::syntax::parse(&out).unwrap();
            assert_eq!(
                super::print(&again, &super::PrintOptions::default()),
                printed
            );
        }
    }

    #[test]
    fn keyword_tables_are_sorted_for_binary_search() {
        for table in [KEYWORDS, RESERVED] {
            let mut sorted = table.to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, table);
        }
    }

    #[test]
    fn every_reserved_word_is_escaped_as_a_variable() {
        for w in RESERVED {
            assert!(
                KEYWORDS.binary_search(w).is_ok(),
                "{w} missing from KEYWORDS"
            );
        }
    }

    #[test]
    fn grammar_reserved_words_match_the_printer_table() {
        let grammar = include_str!("../../../grammar/cypher.pest");
        let start = grammar.find("RESERVED = @{").expect("RESERVED rule");
        let body = &grammar[start..grammar[start..].find("}").map(|e| start + e).unwrap()];
        let mut words: Vec<String> = body
            .split("^\"")
            .skip(1)
            .map(|w| w.split('"').next().unwrap().to_string())
            // (Single letters are the first-letter guards, not words.)
            .filter(|w| w.len() > 1)
            .collect();
        words.sort();
        assert_eq!(words, RESERVED);
    }
}
