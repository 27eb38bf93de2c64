//! The checks of `USE` clauses Neo4j makes at compile time: where a `USE` may stand, the graph
//! functions only a `USE` takes, and — on a standard database — one graph per statement and
//! no dynamic lookup by name (both are for composite databases).

use super::*;
use crate::analysis::graphs::{name_key, static_name, uses, GraphReference};

impl Checker<'_, '_> {
    /// Checks every `USE` clause of the statement's query.
    pub(super) fn graph_references(&mut self, q: &Query) {
        self.use_positions(q, false);
        if self.opts.composite {
            return;
        }
        let mut first: Option<String> = None;
        for u in uses(q) {
            let key = match GraphReference::of(u) {
                GraphReference::ByName(_) => {
                    let shown = self.graph_text(&u.graph);
                    self.diag(
                        DiagnosticKind::InvalidGraphReference,
                        format!(
                            "Dynamic graph lookup not allowed here. This feature is only available on composite databases.\nAttempted to access graph {shown}"
                        ),
                        u.graph.span,
                    );
                    return;
                }
                GraphReference::Name(e) => static_name(e).map(|p| name_key(&p)),
                GraphReference::ByElementId(_) => Some(self.graph_text(&u.graph)),
                GraphReference::Other => None,
            };
            let Some(key) = key else { continue };
            match &first {
                None => first = Some(key),
                Some(f) if *f == key => {}
                Some(_) => {
                    let shown = self.graph_text(&u.graph);
                    self.diag(
                        DiagnosticKind::InvalidGraphReference,
                        format!(
                            "Multiple graphs in the same query not allowed here. This feature is only available on composite databases.\nAttempted to access graph {shown}"
                        ),
                        u.graph.span,
                    );
                    return;
                }
            }
        }
    }

    /// A `USE` comes first in a query (or a `UNION` part), or — in a subquery — right after
    /// the importing `WITH`.
    fn use_positions(&mut self, q: &Query, subquery: bool) {
        for part in q.parts() {
            for (i, c) in part.clauses.iter().enumerate() {
                if let Clause::Use(u) = c {
                    let after_import = subquery
                        && i == 1
                        && matches!(&part.clauses[0], Clause::With(w) if importing(w));
                    if i > 0 && !after_import {
                        self.diag(
                            DiagnosticKind::InvalidClauseComposition,
                            "USE clause must be either the first clause in a (sub-)query or preceded by an importing WITH clause in a sub-query.".into(),
                            u.span,
                        );
                    }
                }
                for sub in c.subqueries() {
                    self.use_positions(sub, true);
                }
            }
        }
    }

    /// A graph reference as Neo4j shows it in its messages: a name as written, a function with
    /// its string arguments in double quotes.
    fn graph_text(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::FunctionCall { name, args, .. } => {
                let args: Vec<String> = args
                    .iter()
                    .map(|a| match &a.kind {
                        ExprKind::Literal(Literal::String(s)) => {
                            format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
                        }
                        _ => self.text(a.span).to_string(),
                    })
                    .collect();
                format!("{}({})", name.dotted(), args.join(", "))
            }
            _ => self.text(e.span).to_string(),
        }
    }
}

/// `WITH a, b`: a `WITH` that only carries variables into a subquery.
fn importing(w: &With) -> bool {
    let p = &w.projection;
    w.where_.is_none()
        && !p.distinct
        && p.order_by.is_empty()
        && p.skip.is_none()
        && p.limit.is_none()
        && p.items.iter().all(|it| {
            matches!(&it.expr.kind, ExprKind::Variable(v)
                if it.alias.as_ref().is_none_or(|a| a.name == v.name))
        })
}
