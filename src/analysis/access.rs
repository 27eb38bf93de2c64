//! Read/write classification, as Neo4j's query types: `r` (read only), `rw` (reads and writes),
//! `w` (writes only), `s` (schema writes).
//!
//! Writes are `CREATE`, `MERGE`, `SET`, `REMOVE`, `DELETE` wherever they occur — inside
//! `CALL { … }` subqueries, `FOREACH` bodies, after `LOAD CSV` — and calls of write procedures
//! (`apoc.create.*`, `apoc.merge.*`, `apoc.refactor.*`, `apoc.cypher.doIt`, `gds.*.write`, …).
//! Procedures that run Cypher given as a string (`apoc.periodic.iterate`, `apoc.periodic.commit`,
//! `apoc.cypher.run`, `apoc.cypher.runWrite`, `apoc.do.when`, …) are classified by parsing that
//! string; if it is not a literal or does not parse, a write procedure counts as a write.
//! Schema writes are index, constraint and label/property-token procedures (`db.createIndex`,
//! `db.index.fulltext.createNodeIndex`, `apoc.schema.assert`, …).
//!
//! Reads are `MATCH`, `OPTIONAL MATCH`, `MERGE` (it matches first), patterns and subqueries in
//! expressions, other procedure calls, and a final `RETURN`: a query that writes and returns rows
//! is `rw`, one that only writes is `w`.

use crate::syntax::ast::*;
use serde::Serialize;
use std::fmt;

/// Neo4j's query type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Access {
    #[serde(rename = "r")]
    Read,
    #[serde(rename = "rw")]
    ReadWrite,
    #[serde(rename = "w")]
    Write,
    #[serde(rename = "s")]
    Schema,
}

impl Access {
    /// `r`, `rw`, `w` or `s`.
    pub fn code(self) -> &'static str {
        match self {
            Access::Read => "r",
            Access::ReadWrite => "rw",
            Access::Write => "w",
            Access::Schema => "s",
        }
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Classifies a statement.
///
/// ```
/// use grape::analysis::{access, Access};
/// let a = |q: &str| access(&grape::parse(q).unwrap());
/// assert_eq!(a("MATCH (n) RETURN n"), Access::Read);
/// assert_eq!(a("MATCH (n) CALL { WITH n SET n.seen = true } RETURN n"), Access::ReadWrite);
/// assert_eq!(a("UNWIND [1, 2] AS i FOREACH (x IN [i] | CREATE (:N {x: x}))"), Access::Write);
/// assert_eq!(a("CALL db.createIndex('i', ['L'], ['p'], 'range')"), Access::Schema);
/// ```
pub fn access(stmt: &Statement) -> Access {
    let mut f = Flags::default();
    f.query(&stmt.query);
    if f.schema {
        Access::Schema
    } else if f.write {
        // As Neo4j decides it: a writing statement is `rw` when it returns rows (what it
        // matched first does not count), `w` otherwise.
        if returns_rows(&stmt.query) {
            Access::ReadWrite
        } else {
            Access::Write
        }
    } else {
        Access::Read
    }
}

/// Whether a query gives rows: it ends in `RETURN`, or in a procedure call with output
/// columns.
fn returns_rows(q: &Query) -> bool {
    match q.first.clauses.last() {
        Some(Clause::Return(_)) => true,
        Some(Clause::CallProcedure(p)) => crate::catalogue::procedure(&p.name.dotted())
            .and_then(|proc| proc.signature())
            .is_none_or(|sig| !sig.outputs.is_empty()),
        _ => false,
    }
}

#[derive(Default)]
struct Flags {
    write: bool,
    schema: bool,
    reach: Reach,
}

/// What a statement reaches beyond its clauses' own reading and writing, for guards that must
/// see it all (an MCP server's read-only mode): every procedure and function it calls (dotted,
/// as written; inside subqueries, patterns and Cypher text given to APOC's runners too),
/// whether it loads CSV, the `SHOW` and administration commands and `USE` clauses it holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    pub procedures: Vec<String>,
    pub functions: Vec<String>,
    pub load_csv: bool,
    /// `SHOW …` and administration commands, by what they show or do (`SHOW USERS`).
    pub commands: Vec<String>,
    /// `USE` clauses.
    pub uses: usize,
}

/// What a statement reaches (see [`Reach`]).
///
/// ```
/// let r = grape::analysis::reach(
///     &grape::parse("MATCH (n) WHERE EXISTS { CALL apoc.load.json('x') YIELD value } RETURN toUpper(n.a)").unwrap(),
/// );
/// assert_eq!(r.procedures, ["apoc.load.json"]);
/// assert_eq!(r.functions, ["toUpper"]);
/// ```
pub fn reach(stmt: &Statement) -> Reach {
    let mut f = Flags::default();
    f.query(&stmt.query);
    f.reach
}

/// Procedures that change the schema (lower-cased, dotted).
const SCHEMA_PROCEDURES: &[&str] = &[
    "apoc.schema.assert",
    "apoc.cypher.runschema",
    "db.createindex",
    "db.createlabel",
    "db.createproperty",
    "db.createrelationshiptype",
    "db.createuniquepropertyconstraint",
    "db.createnodekey",
    "db.index.fulltext.createnodeindex",
    "db.index.fulltext.createrelationshipindex",
    "db.index.fulltext.drop",
    "db.index.vector.createnodeindex",
    "db.index.explicit.drop",
];

/// Prefixes of procedures that write to the graph (lower-cased, dotted).
const WRITE_PREFIXES: &[&str] = &[
    "apoc.create.",
    "apoc.merge.",
    "apoc.refactor.",
    "apoc.nodes.delete",
    "apoc.nodes.link",
    "apoc.nodes.collapse",
    "apoc.atomic.",
    "apoc.import.",
    "apoc.periodic.truncate",
    "apoc.graph.fromdocument",
    "apoc.lock.",
    "apoc.trigger.add",
    "apoc.trigger.install",
    "db.create.set",
];

/// Procedures that run Cypher passed as string arguments: (name, argument indexes, writes when
/// the text is unknown). For `apoc.case` / `apoc.do.case`, argument 0 is the list of
/// `[condition, query, condition, query, …]` (see [`CASE_RUNNERS`]) and argument 1 the optional
/// else-query.
const CYPHER_RUNNERS: &[(&str, &[usize], bool)] = &[
    ("apoc.periodic.iterate", &[0, 1], true),
    ("apoc.periodic.commit", &[0], true),
    ("apoc.periodic.submit", &[1], true),
    ("apoc.periodic.repeat", &[1], true),
    ("apoc.cypher.run", &[0], false),
    ("apoc.cypher.runmany", &[0], true),
    ("apoc.cypher.runwrite", &[0], true),
    ("apoc.cypher.doit", &[0], true),
    ("apoc.do.when", &[1, 2], true),
    ("apoc.do.case", &[1], true),
    ("apoc.when", &[1, 2], false),
    ("apoc.case", &[1], false),
];

/// The runners whose argument 0 lists condition/query pairs.
const CASE_RUNNERS: &[&str] = &["apoc.case", "apoc.do.case"];

impl Flags {
    fn query(&mut self, q: &Query) {
        self.clauses(&q.first.clauses);
        for u in &q.unions {
            self.clauses(&u.query.clauses);
        }
    }

    fn clauses(&mut self, cs: &[Clause]) {
        for c in cs {
            match c {
                Clause::Match(m) => {
                    self.patterns(&m.pattern);
                    self.opt(&m.where_);
                }
                Clause::With(w) => {
                    self.projection(&w.projection);
                    self.opt(&w.where_);
                }
                Clause::Return(r) => {
                    self.projection(&r.projection);
                }
                Clause::Unwind(u) => self.expr(&u.expr),
                Clause::CallSubquery(s) => self.query(&s.query),
                Clause::CallProcedure(p) => self.procedure(p),
                Clause::Create(cr) => {
                    self.write = true;
                    self.patterns(&cr.pattern);
                }
                Clause::Merge(m) => {
                    self.write = true;
                    self.patterns(std::slice::from_ref(&m.pattern));
                    for a in &m.actions {
                        self.set_items(&a.items);
                    }
                }
                Clause::Set(s) => {
                    self.write = true;
                    self.set_items(&s.items);
                }
                Clause::Remove(_) => self.write = true,
                Clause::Delete(d) => {
                    self.write = true;
                    for e in &d.exprs {
                        self.expr(e);
                    }
                }
                Clause::Foreach(f) => {
                    self.expr(&f.list);
                    self.clauses(&f.clauses);
                }
                Clause::LoadCsv(l) => {
                    self.reach.load_csv = true;
                    self.expr(&l.source)
                }
                // Neo4j's user listings are administration commands ("s").
                Clause::Show(s) => {
                    use crate::syntax::ShowKind as K;
                    let what = match s.kind {
                        K::Functions => "SHOW FUNCTIONS",
                        K::Procedures => "SHOW PROCEDURES",
                        K::Indexes(_) => "SHOW INDEXES",
                        K::Constraints(_) => "SHOW CONSTRAINTS",
                        K::Databases(_) => "SHOW DATABASES",
                        K::Settings => "SHOW SETTINGS",
                        K::Transactions => "SHOW TRANSACTIONS",
                        K::Terminate => "TERMINATE TRANSACTIONS",
                        K::CurrentUser => "SHOW CURRENT USER",
                        K::Users { .. } => "SHOW USERS",
                    };
                    self.reach.commands.push(what.into());
                    // Neo4j's user listings are administration commands ("s").
                    if matches!(s.kind, K::Users { .. } | K::CurrentUser) {
                        self.schema = true
                    }
                }
                // Schema commands change the database (Neo4j's "schema" access mode).
                Clause::Schema(_) => self.schema = true,
                Clause::Admin(_) => {
                    self.reach.commands.push("administration command".into());
                    self.schema = true
                }
                Clause::Use(_) => self.reach.uses += 1,
                Clause::Finish(_) => {}
                Clause::Let(l) => l.items.iter().for_each(|(_, e)| self.expr(e)),
                Clause::Filter(f) => self.expr(&f.predicate),
                Clause::Braced(_) | Clause::Next(_) => {
                    c.subqueries().into_iter().for_each(|q| self.query(q))
                }
                Clause::When(w) => {
                    for b in &w.branches {
                        self.expr(&b.condition);
                    }
                    c.subqueries().into_iter().for_each(|q| self.query(q))
                }
            }
        }
    }

    fn procedure(&mut self, p: &CallProcedure) {
        self.reach.procedures.push(p.name.dotted());
        let name = p.name.dotted().to_ascii_lowercase();
        for a in p.args.iter().flatten() {
            self.expr(a);
        }
        if SCHEMA_PROCEDURES.contains(&name.as_str()) {
            self.schema = true;
            return;
        }
        if let Some((_, idx, unknown_writes)) = CYPHER_RUNNERS.iter().find(|(n, _, _)| *n == name) {
            let args = p.args.as_deref().unwrap_or_default();
            let case = CASE_RUNNERS.contains(&name.as_str());
            if case {
                match args.first().map(|e| &e.kind) {
                    Some(ExprKind::List(items)) => {
                        for q in items.iter().skip(1).step_by(2) {
                            self.cypher_text(q, *unknown_writes);
                        }
                    }
                    _ => self.write |= *unknown_writes,
                }
            }
            for &i in *idx {
                match args.get(i) {
                    Some(e) => self.cypher_text(e, *unknown_writes),
                    // The else-query of a case is optional.
                    None if case => {}
                    None => self.write |= *unknown_writes,
                }
            }
            return;
        }
        let gds_write = name.starts_with("gds.") && name.ends_with(".write");
        if gds_write || WRITE_PREFIXES.iter().any(|w| name.starts_with(w)) {
            self.write = true;
        }
    }

    /// Cypher passed as an argument: classified when it is a literal that parses, else it
    /// writes when `unknown_writes`.
    fn cypher_text(&mut self, e: &Expr, unknown_writes: bool) {
        match &e.kind {
            ExprKind::Literal(Literal::String(text)) => match crate::syntax::parse(text) {
                Ok(inner) => self.query(&inner.query),
                Err(_) => self.write |= unknown_writes,
            },
            _ => self.write |= unknown_writes,
        }
    }

    fn set_items(&mut self, items: &[SetItem]) {
        for i in items {
            match i {
                SetItem::Property { value, .. } | SetItem::Variable { value, .. } => {
                    self.expr(value)
                }
                SetItem::Labels { labels, .. } => {
                    for e in labels.dynamic_exprs() {
                        self.expr(e)
                    }
                }
            }
        }
    }

    fn projection(&mut self, p: &Projection) {
        for i in &p.items {
            self.expr(&i.expr);
        }
        for s in &p.order_by {
            self.expr(&s.expr);
        }
    }

    fn opt(&mut self, e: &Option<Expr>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn patterns(&mut self, parts: &[PatternPart]) {
        for p in parts {
            self.chain(p.path.chain());
        }
    }

    fn chain(&mut self, c: &PathChain) {
        for el in &c.elements {
            match el {
                PathElement::Node(n) => {
                    for e in n.labels.iter().flat_map(|l| l.dynamic_exprs()) {
                        self.expr(e);
                    }
                    self.opt(&n.properties);
                    self.opt(&n.where_);
                }
                PathElement::Relationship(r) => {
                    for e in r.types.iter().flat_map(|l| l.dynamic_exprs()) {
                        self.expr(e);
                    }
                    self.opt(&r.properties);
                    self.opt(&r.where_);
                }
                PathElement::Group(g) => {
                    self.chain(&g.chain);
                    self.opt(&g.where_);
                }
            }
        }
    }

    /// Expressions only read, but may hold subqueries and patterns (reads).
    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Exists(b) | ExprKind::CountSubquery(b) => match &**b {
                SubqueryBody::Query(q) => self.query(q),
                SubqueryBody::Pattern { pattern, where_ } => {
                    self.patterns(pattern);
                    self.opt(where_);
                }
            },
            ExprKind::Collect(q) => {
                self.query(q);
            }
            ExprKind::Pattern(chain) | ExprKind::ShortestPath { chain, .. } => self.chain(chain),
            ExprKind::PatternComprehension { filter, map, .. } => {
                if let Some(f) = filter {
                    self.expr(f);
                }
                self.expr(map);
            }
            ExprKind::List(xs) => xs.iter().for_each(|x| self.expr(x)),
            ExprKind::Map(m) => m.iter().for_each(|(_, x)| self.expr(x)),
            ExprKind::Property { expr, .. }
            | ExprKind::Unary { expr, .. }
            | ExprKind::IsNull { expr, .. }
            | ExprKind::IsNormalized { expr, .. }
            | ExprKind::IsType { expr, .. }
            | ExprKind::HasLabels { expr, .. } => self.expr(expr),
            ExprKind::Index { expr, index } => {
                self.expr(expr);
                self.expr(index);
            }
            ExprKind::Slice { expr, from, to } => {
                self.expr(expr);
                for x in [from, to].into_iter().flatten() {
                    self.expr(x);
                }
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Comparison { first, rest } => {
                self.expr(first);
                rest.iter().for_each(|(_, x)| self.expr(x));
            }
            ExprKind::FunctionCall { name, args, .. } => {
                self.reach.functions.push(name.dotted());
                args.iter().for_each(|x| self.expr(x))
            }
            ExprKind::Case {
                operand,
                whens,
                else_,
            } => {
                for x in operand.iter().chain(else_.iter()) {
                    self.expr(x);
                }
                for (w, t) in whens {
                    self.expr(w);
                    self.expr(t);
                }
            }
            ExprKind::ListComprehension {
                list, filter, map, ..
            } => {
                self.expr(list);
                for x in [filter, map].into_iter().flatten() {
                    self.expr(x);
                }
            }
            ExprKind::Quantified { list, filter, .. } => {
                self.expr(list);
                if let Some(f) = filter {
                    self.expr(f);
                }
            }
            ExprKind::Reduce {
                init,
                list,
                expr,
                predicate,
                ..
            } => {
                self.expr(init);
                self.expr(list);
                self.expr(expr);
                if let Some(p) = predicate {
                    self.expr(p);
                }
            }
            ExprKind::MapProjection { items, .. } => {
                for i in items {
                    if let MapProjectionItem::Entry(_, x) = i {
                        self.expr(x);
                    }
                }
            }
            ExprKind::Literal(_)
            | ExprKind::Parameter(_)
            | ExprKind::Variable(_)
            | ExprKind::CountStar => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(q: &str) -> Access {
        access(&crate::syntax::parse(q).unwrap())
    }

    #[test]
    fn plain_reads_and_writes() {
        assert_eq!(a("MATCH (n:Person) RETURN n.name AS name"), Access::Read);
        assert_eq!(a("RETURN 1 AS one"), Access::Read);
        assert_eq!(a("CREATE (n:Person {name: 'A'})"), Access::Write);
        assert_eq!(a("CREATE (n:Person) RETURN n"), Access::ReadWrite);
        // As Neo4j 5.26 reports them: what a writing statement matched does not count.
        assert_eq!(a("MATCH (n) DETACH DELETE n"), Access::Write);
        assert_eq!(a("MERGE (n:Person {name: 'A'})"), Access::Write);
        assert_eq!(a("MATCH (n) REMOVE n:Old"), Access::Write);
        assert_eq!(
            a("MATCH (n) DETACH DELETE n RETURN count(*) AS c"),
            Access::ReadWrite
        );
        assert_eq!(
            a("CALL apoc.create.node(['L'], {}) YIELD node"),
            Access::ReadWrite
        );
    }

    #[test]
    fn hidden_writes() {
        assert_eq!(
            a("LOAD CSV WITH HEADERS FROM 'file:///p.csv' AS row CREATE (:P {name: row.name})"),
            Access::Write
        );
        assert_eq!(
            a("MATCH (n) WITH collect(n) AS ns FOREACH (x IN ns | SET x.flag = true)"),
            Access::Write
        );
        assert_eq!(
            a("MATCH (n) CALL (n) { CREATE (n)-[:R]->(:M) } RETURN count(*) AS c"),
            Access::ReadWrite
        );
        assert_eq!(
            a("MATCH (a), (b) CALL apoc.create.relationship(a, 'R', {}, b) YIELD rel RETURN rel"),
            Access::ReadWrite
        );
        assert_eq!(
            a("CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'SET n.x = 1', {})"),
            Access::ReadWrite
        );
        assert_eq!(
            a("CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'RETURN 1', {})"),
            Access::Read
        );
        assert_eq!(
            a("CALL apoc.cypher.doIt($q, {}) YIELD value RETURN value"),
            Access::ReadWrite
        );
        assert_eq!(
            a("CALL gds.pageRank.write('g', {writeProperty: 'pr'})"),
            Access::ReadWrite
        );
        assert_eq!(a("CALL db.labels() YIELD label RETURN label"), Access::Read);
        assert_eq!(
            a("CALL db.index.fulltext.createNodeIndex('n', ['L'], ['p'])"),
            Access::Schema
        );
    }
}
