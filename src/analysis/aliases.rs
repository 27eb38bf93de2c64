//! GRAPE's mandatory aliasing: every item of a `RETURN` — and of a `WITH` that ends a query part
//! with no `RETURN` after it — that is not a bare variable carries an explicit `AS` alias, so the
//! result's column names are chosen, not derived from expression text.
//!
//! Checked: the `RETURN` of every `UNION` branch and of `CALL { … }` subqueries. Not checked:
//! subqueries inside expressions (`EXISTS`, `COUNT`, `COLLECT`), whose columns are not results.

use crate::syntax::ast::*;
use serde::Serialize;

/// A projection item without an alias.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MissingAlias {
    /// `RETURN` or `WITH`.
    pub clause: &'static str,
    /// The item's text.
    pub text: String,
    pub span: Span,
    /// 1-based line and column of the item.
    pub line: usize,
    pub column: usize,
    /// A name to alias it with: the property key of `x.key`, the function name of `f(…)`.
    pub suggestion: Option<String>,
}

/// The projection items of `stmt` that need an alias; `source` is the text it was parsed from.
///
/// ```
/// let q = "MATCH (p:Person) RETURN p, p.name, count(*) AS n";
/// let missing = grape::analysis::missing_aliases(&grape::parse(q).unwrap(), q);
/// assert_eq!(missing.len(), 1);
/// assert_eq!((missing[0].text.as_str(), missing[0].column), ("p.name", 28));
/// assert_eq!(missing[0].suggestion.as_deref(), Some("name"));
/// ```
pub fn missing_aliases(stmt: &Statement, source: &str) -> Vec<MissingAlias> {
    let mut out = Vec::new();
    query(&stmt.query, source, &mut out);
    out
}

fn query(q: &Query, src: &str, out: &mut Vec<MissingAlias>) {
    single(&q.first, src, out);
    for u in &q.unions {
        single(&u.query, src, out);
    }
}

fn single(q: &SingleQuery, src: &str, out: &mut Vec<MissingAlias>) {
    clauses(&q.clauses, src, out);
}

fn clauses(cs: &[Clause], src: &str, out: &mut Vec<MissingAlias>) {
    let last_with = match cs.last() {
        Some(Clause::With(_)) => Some(cs.len() - 1),
        _ => None,
    };
    for (i, c) in cs.iter().enumerate() {
        match c {
            Clause::Return(r) => projection(&r.projection, "RETURN", src, out),
            Clause::With(w) if Some(i) == last_with => projection(&w.projection, "WITH", src, out),
            Clause::CallSubquery(_) | Clause::Braced(_) | Clause::Next(_) | Clause::When(_) => {
                for q in c.subqueries() {
                    query(q, src, out)
                }
            }
            Clause::Foreach(f) => clauses(&f.clauses, src, out),
            _ => {}
        }
    }
}

fn projection(p: &Projection, clause: &'static str, src: &str, out: &mut Vec<MissingAlias>) {
    for item in &p.items {
        if item.alias.is_some() || matches!(item.expr.kind, ExprKind::Variable(_)) {
            continue;
        }
        let suggestion = match &item.expr.kind {
            ExprKind::Property { key, .. } => Some(key.name.clone()),
            ExprKind::FunctionCall { name, .. } => {
                name.parts.last().map(|p| p.name.to_ascii_lowercase())
            }
            ExprKind::CountStar => Some("count".to_string()),
            _ => None,
        };
        let span = item.expr.span;
        let (line, column, _) = crate::syntax::line_col(src, span.start);
        out.push(MissingAlias {
            clause,
            text: span.text(src).to_string(),
            span,
            line,
            column,
            suggestion,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(q: &str) -> Vec<String> {
        missing_aliases(&crate::syntax::parse(q).unwrap(), q)
            .into_iter()
            .map(|a| format!("{} {}", a.clause, a.text))
            .collect()
    }

    #[test]
    fn bare_variables_and_aliased_items_pass() {
        assert!(m("MATCH (n) RETURN n, n.x AS x, count(*) AS c").is_empty());
        assert!(m("MATCH (n) RETURN *").is_empty());
        assert_eq!(
            m("MATCH (n) RETURN n.x, toUpper(n.y)"),
            vec!["RETURN n.x", "RETURN toUpper(n.y)"]
        );
    }

    #[test]
    fn unions_subqueries_and_final_with() {
        assert_eq!(
            m("MATCH (n) RETURN n.a AS a UNION MATCH (n) RETURN n.a"),
            vec!["RETURN n.a"]
        );
        assert_eq!(
            m("CALL { MATCH (n) RETURN n.a } RETURN 1 AS one"),
            vec!["RETURN n.a"]
        );
        // An intermediate WITH is not a result; a WITH that ends the query is.
        assert!(m("MATCH (n) WITH n.a AS a, n RETURN a").is_empty());
        assert_eq!(
            m("MATCH (n) CALL { WITH n SET n.x = 1 WITH n.x + 1 AS y, n.z } RETURN n"),
            vec!["WITH n.z"]
        );
        // Expression subqueries are not results.
        assert!(
            m("MATCH (n) RETURN COLLECT { MATCH (n)-->(m) RETURN m.name } AS names").is_empty()
        );
    }
}
