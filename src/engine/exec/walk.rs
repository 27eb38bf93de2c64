//! Walks over expressions: sub-expressions, the variables an expression reads.

use super::*;

/// Calls `f` on `e` and every sub-expression (not descending into subqueries).
pub(crate) fn walk<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    f(e);
    for c in e.children() {
        walk(c, f);
    }
}

/// Variables an expression reads (over-approximated inside subqueries and patterns; the
/// variables that comprehensions bind are excluded).
pub(crate) fn free_vars(e: &Expr, out: &mut Vec<String>) {
    pub(super) fn go(e: &Expr, bound: &mut Vec<String>, out: &mut Vec<String>) {
        let push = |name: &str, bound: &Vec<String>, out: &mut Vec<String>| {
            if !bound.iter().any(|b| b == name) && !out.iter().any(|o| o == name) {
                out.push(name.to_string());
            }
        };
        match &e.kind {
            ExprKind::Variable(v) => push(&v.name, bound, out),
            ExprKind::MapProjection { variable, items } => {
                push(&variable.name, bound, out);
                for it in items {
                    match it {
                        crate::syntax::MapProjectionItem::Entry(_, x) => go(x, bound, out),
                        crate::syntax::MapProjectionItem::Variable(v) => push(&v.name, bound, out),
                        _ => {}
                    }
                }
            }
            ExprKind::ListComprehension {
                variable,
                list,
                filter,
                map,
            } => {
                go(list, bound, out);
                bound.push(variable.name.clone());
                if let Some(x) = filter {
                    go(x, bound, out)
                }
                if let Some(x) = map {
                    go(x, bound, out)
                }
                bound.pop();
            }
            ExprKind::Quantified {
                variable,
                list,
                filter,
                ..
            } => {
                go(list, bound, out);
                bound.push(variable.name.clone());
                if let Some(x) = filter {
                    go(x, bound, out)
                }
                bound.pop();
            }
            ExprKind::Reduce {
                accumulator,
                init,
                variable,
                list,
                expr,
                predicate,
            } => {
                go(init, bound, out);
                go(list, bound, out);
                bound.push(accumulator.name.clone());
                bound.push(variable.name.clone());
                go(expr, bound, out);
                if let Some(p) = predicate {
                    go(p, bound, out);
                }
                bound.pop();
                bound.pop();
            }
            ExprKind::Pattern(c) | ExprKind::ShortestPath { chain: c, .. } => {
                chain_vars(c, bound, out)
            }
            ExprKind::PatternComprehension {
                variable,
                pattern,
                filter,
                map,
            } => {
                let n = bound.len();
                if let Some(v) = variable {
                    bound.push(v.name.clone());
                }
                // Variables the pattern introduces are local; those already outside are read.
                chain_vars(pattern, bound, out);
                if let Some(x) = filter {
                    go(x, bound, out)
                }
                go(map, bound, out);
                bound.truncate(n);
            }
            ExprKind::Exists(_) | ExprKind::CountSubquery(_) | ExprKind::Collect(_) => {
                // Conservative: mark as reading everything by pretending an unknown variable.
                push("\u{0}subquery", bound, out)
            }
            _ => {
                for c in direct_children(e) {
                    go(c, bound, out)
                }
            }
        }
    }
    pub(super) fn chain_vars(c: &PathChain, bound: &mut Vec<String>, out: &mut Vec<String>) {
        for el in &c.elements {
            match el {
                PathElement::Node(n) => {
                    if let Some(v) = &n.variable {
                        if !bound.contains(&v.name) && !out.contains(&v.name) {
                            out.push(v.name.clone());
                        }
                    }
                    for d in n.labels.iter().flat_map(|l| l.dynamic_exprs()) {
                        go(d, bound, out)
                    }
                    if let Some(p) = &n.properties {
                        go(p, bound, out)
                    }
                    if let Some(w) = &n.where_ {
                        go(w, bound, out)
                    }
                }
                PathElement::Relationship(r) => {
                    if let Some(v) = &r.variable {
                        if !bound.contains(&v.name) && !out.contains(&v.name) {
                            out.push(v.name.clone());
                        }
                    }
                    for d in r.types.iter().flat_map(|l| l.dynamic_exprs()) {
                        go(d, bound, out)
                    }
                    if let Some(p) = &r.properties {
                        go(p, bound, out)
                    }
                    if let Some(w) = &r.where_ {
                        go(w, bound, out)
                    }
                }
                PathElement::Group(g) => chain_vars(&g.chain, bound, out),
            }
        }
    }
    let mut bound = Vec::new();
    go(e, &mut bound, out);
}

/// The direct sub-expressions of `e`, excluding those of comprehensions (their own variables
/// are in scope there); see [`Expr::children`].
pub(super) fn direct_children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::ListComprehension { .. }
        | ExprKind::Quantified { .. }
        | ExprKind::Reduce { .. }
        | ExprKind::MapProjection { .. } => Vec::new(),
        _ => e.children(),
    }
}
