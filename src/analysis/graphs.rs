//! Graph references: what the `USE` clauses of a statement name, as the validator checks them
//! and a server routes the statement.
//!
//! A `USE` clause names a graph statically (`USE movies`, `USE composite.first`) or through a
//! graph function (`USE graph.byName($name)`, `USE graph.byElementId($id)`). On a standard
//! database every `USE` of a statement must name the same graph, which then runs the whole
//! statement; `graph.byName` and several graphs in one statement are for composite databases.

use crate::syntax::ast::*;

/// What one `USE` clause refers to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GraphReference<'q> {
    /// A name: a database or alias (`movies`), or a composite's constituent (`composite.first`).
    Name(&'q Expr),
    /// `graph.byName(expr)`: the name, computed.
    ByName(&'q Expr),
    /// `graph.byElementId(expr)`: the graph an element id belongs to.
    ByElementId(&'q Expr),
    /// Anything else (another function): not a graph reference.
    Other,
}

impl<'q> GraphReference<'q> {
    /// What `u` refers to.
    pub fn of(u: &'q Use) -> GraphReference<'q> {
        match &u.graph.kind {
            ExprKind::FunctionCall { name, args, .. } if args.len() == 1 => {
                match name.dotted().to_ascii_lowercase().as_str() {
                    "graph.byname" => GraphReference::ByName(&args[0]),
                    "graph.byelementid" => GraphReference::ByElementId(&args[0]),
                    _ => GraphReference::Other,
                }
            }
            ExprKind::Variable(_) | ExprKind::Property { .. } => match static_name(&u.graph) {
                Some(_) => GraphReference::Name(&u.graph),
                None => GraphReference::Other,
            },
            _ => GraphReference::Other,
        }
    }
}

/// The parts of a static graph name (`composite.first` → `["composite", "first"]`), as
/// written (a backticked part keeps its dots: `` `db.with.dot` `` is one part).
pub fn static_name(e: &Expr) -> Option<Vec<&str>> {
    match &e.kind {
        ExprKind::Variable(v) => Some(vec![v.name.as_str()]),
        ExprKind::Property { expr, key } => {
            let mut parts = static_name(expr)?;
            parts.push(key.name.as_str());
            Some(parts)
        }
        _ => None,
    }
}

/// The text of a graph name made of `parts`, as a key that ignores case (database names do):
/// parts joined by `.`, a part holding a dot in backticks.
pub fn name_key<S: AsRef<str>>(parts: &[S]) -> String {
    parts
        .iter()
        .map(|p| {
            let p = p.as_ref().to_lowercase();
            if p.contains('.') {
                format!("`{}`", p.replace('`', "``"))
            } else {
                p
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// Every `USE` clause of a query, in the order of the text: its parts, `UNION` parts and
/// subqueries (`CALL { … }`, braced queries, `NEXT`, `WHEN` branches) included.
pub fn uses(q: &Query) -> Vec<&Use> {
    let mut out = Vec::new();
    collect(q, &mut out);
    out.sort_by_key(|u| u.span.start);
    out
}

fn collect<'q>(q: &'q Query, out: &mut Vec<&'q Use>) {
    for part in q.parts() {
        for c in &part.clauses {
            if let Clause::Use(u) = c {
                out.push(u);
            }
            for sub in c.subqueries() {
                collect(sub, out);
            }
        }
    }
}

/// The `USE` a query part starts with: its first clause, or the one right after the importing
/// `WITH` of a subquery.
pub fn leading_use(q: &SingleQuery) -> Option<&Use> {
    match q.clauses.as_slice() {
        [Clause::Use(u), ..] | [Clause::With(_), Clause::Use(u), ..] => Some(u),
        _ => None,
    }
}
