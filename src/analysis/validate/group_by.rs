//! Cypher 25's `GROUP BY` on `WITH` and `RETURN`: the keys, and the columns they must
//! determine, with Neo4j 2026's refusals in its words and in its order.

use super::clauses::{aggregate_calls, binds, same_sort_expr};
use super::*;

impl Checker<'_, '_> {
    /// Reports columns that read what the grouping keys do not determine, or implicit grouping
    /// keys (`names`), in Neo4j's legacy words, with the facts of its GQL status (42I18).
    pub(super) fn non_grouping(&mut self, names: &[&str], at: Span) {
        self.diag(
            DiagnosticKind::AmbiguousAggregation,
            format!("Aggregation column contains implicit grouping expressions. For example, in 'RETURN n.a, n.a + n.b + count(*)' the aggregation expression 'n.a + n.b + count(*)' includes the implicit grouping key 'n.b'. It may be possible to rewrite the query by extracting these grouping/aggregation expressions into a preceding WITH clause. Illegal expression(s): {}", names.join(", ")),
            at,
        );
        self.last_facts(GqlFacts::ImplicitGrouping(
            names.iter().map(|n| n.to_string()).collect(),
        ));
    }

    /// Checks an explicit `GROUP BY` (keys or `()`): `visible` is the incoming scope with the
    /// projection's columns. Neo4j reports, in this order: an aggregate in a key (42I24), a key
    /// expression over a column's name (42I80) or an undefined variable, a column the keys do
    /// not determine (42I18), a key naming an aggregating column (42I80).
    pub(super) fn explicit_group_by(
        &mut self,
        p: &Projection,
        g: &GroupBy,
        visible: &Scope,
        clause_at: Span,
    ) {
        let keys: &[Expr] = match &g.keys {
            GroupKeys::Exprs(keys) => keys,
            GroupKeys::Empty => &[],
            GroupKeys::All => return,
        };
        for k in keys {
            let mut found = Vec::new();
            aggregate_calls(k, &mut found);
            if let Some(a) = found.first() {
                let name = match &a.kind {
                    ExprKind::FunctionCall { name, .. } => name.dotted().to_ascii_lowercase(),
                    _ => "count".to_string(),
                };
                self.diag_help(
                    DiagnosticKind::InvalidAggregation,
                    format!("Invalid use of aggregating function {name}(...) in this context"),
                    format!(
                        "42I24: Aggregate expression '{}' is not allowed in this context.",
                        self.text(a.span)
                    ),
                    a.span,
                );
                return;
            }
        }
        let before = self.diags.len();
        for k in keys {
            if p.key_item(k, self.src).is_some() {
                continue;
            }
            if let Some(alias) = self.column_read_by(p, k) {
                self.diag_help(
                    DiagnosticKind::InvalidGroupBy,
                    "42001".into(),
                    format!("42I80: The grouping element '{}' is not a valid grouping key. A grouping element that references the projection item alias `{alias}` must be a simple variable reference.", self.text(k.span)),
                    k.span,
                );
                return;
            }
            self.expr(k, visible, Ctx::default());
        }
        if self.diags.len() > before {
            return;
        }
        let resolved = p.grouping_keys(self.src).unwrap_or_default();
        if self.underivable_column(p, &resolved, visible, clause_at) {
            return;
        }
        for k in keys {
            if let Some(i) = p.key_item(k, self.src) {
                if contains_aggregate(&p.items[i].expr) {
                    self.diag_help(
                        DiagnosticKind::InvalidGroupBy,
                        "42001".into(),
                        format!("42I80: The grouping element '{0}' is not a valid grouping key. A grouping element cannot reference the aggregation `{0}`.", self.text(k.span)),
                        k.span,
                    );
                    return;
                }
            }
        }
    }

    /// The first name of a non-aggregating column that `key` reads as a variable.
    fn column_read_by(&self, p: &Projection, key: &Expr) -> Option<String> {
        let columns: Vec<&str> = (0..p.items.len())
            .filter(|&i| !contains_aggregate(&p.items[i].expr))
            .map(|i| p.item_name(i, self.src))
            .collect();
        let mut stack = vec![key];
        while let Some(e) = stack.pop() {
            if let ExprKind::Variable(v) = &e.kind {
                if columns.contains(&v.name.as_str()) {
                    return Some(v.name.clone());
                }
            }
            stack.extend(e.children());
        }
        None
    }

    /// Reports the first column (or variable of `*`) that reads, outside its aggregates,
    /// a variable the keys do not determine; whether there was one.
    fn underivable_column(
        &mut self,
        p: &Projection,
        keys: &[&Expr],
        visible: &Scope,
        clause_at: Span,
    ) -> bool {
        if p.star {
            for name in visible.vars.keys() {
                let is_column = (0..p.items.len()).any(|i| p.item_name(i, self.src) == name);
                let keyed = keys
                    .iter()
                    .any(|k| matches!(&k.kind, ExprKind::Variable(v) if v.name == *name));
                if !is_column && !keyed {
                    self.non_grouping(&[name.as_str()], clause_at);
                    return true;
                }
            }
        }
        for (i, it) in p.items.iter().enumerate() {
            if is_subquery(&it.expr) && !self.subquery_keyed(p, &it.expr) {
                let name = p.item_name(i, self.src).to_string();
                self.non_grouping(&[&name], it.alias.as_ref().map_or(it.expr.span, |a| a.span));
                return true;
            }
            if let Some(v) = underivable(&it.expr, keys, &mut Vec::new()) {
                let (name, span) = (v.name.clone(), v.span);
                self.non_grouping(&[&name], span);
                return true;
            }
        }
        false
    }
}

/// Whether `e` is a subquery expression (`COUNT { … }`, `EXISTS { … }`, `COLLECT { … }`).
fn is_subquery(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::CountSubquery(_) | ExprKind::Exists(_) | ExprKind::Collect(_)
    )
}

impl Checker<'_, '_> {
    /// Neo4j 2026.08 refuses a column that is a subquery expression under `GROUP BY`, as a
    /// non-grouping expression named by the column, whether the keys name it, repeat it or
    /// are `ALL`; it lets one through only where a key is a variable of the incoming scope that
    /// the subquery reads (`GROUP BY n` for `COUNT { (n)--() }`).
    fn subquery_keyed(&self, p: &Projection, e: &Expr) -> bool {
        let Some(GroupKeys::Exprs(keys)) = p.group_by.as_ref().map(|g| &g.keys) else {
            return false;
        };
        let text = self.text(e.span);
        keys.iter().any(|k| match &k.kind {
            ExprKind::Variable(v) if p.key_item(k, self.src).is_none() => text
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|t| t == v.name),
            _ => false,
        })
    }

    /// `GROUP BY ALL` (Cypher 25): a column that is a subquery expression is refused (see
    /// [`Self::subquery_keyed`]).
    pub(super) fn group_by_all(&mut self, p: &Projection) {
        for (i, it) in p.items.iter().enumerate() {
            if is_subquery(&it.expr) {
                let name = p.item_name(i, self.src).to_string();
                self.non_grouping(&[&name], it.alias.as_ref().map_or(it.expr.span, |a| a.span));
                return;
            }
        }
    }
}

/// The first variable `e` reads outside its aggregates and outside every key (a key variable
/// determines its properties); `local`: variables a comprehension around `e` binds.
fn underivable<'e>(e: &'e Expr, keys: &[&Expr], local: &mut Vec<String>) -> Option<&'e Ident> {
    if keys.iter().any(|k| same_sort_expr(k, e)) {
        return None;
    }
    match &e.kind {
        ExprKind::CountStar => None,
        ExprKind::FunctionCall { name, .. } if name.is_aggregate() => None,
        ExprKind::Variable(v) => {
            let keyed = keys
                .iter()
                .any(|k| matches!(&k.kind, ExprKind::Variable(x) if x.name == v.name));
            (!keyed && !local.contains(&v.name)).then_some(v)
        }
        _ => {
            let n = local.len();
            local.extend(binds(e));
            let found = e
                .children()
                .into_iter()
                .find_map(|c| underivable(c, keys, local));
            local.truncate(n);
            found
        }
    }
}
