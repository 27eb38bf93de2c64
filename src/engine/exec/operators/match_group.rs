//! The MATCH clauses a query starts with, taken in the order that starts from the cheapest
//! anchor — as Neo4j plans consecutive MATCH clauses as one query graph
//! (`MATCH (c:Crime)-[:INVOLVED_IN]-(v:Vehicle) MATCH (c)-[:OCCURRED_AT]-(l:Location
//! {postcode: $p})` seeks the location first). Each clause keeps its own relationship
//! uniqueness, so the order changes which rows come first, never which rows there are.
//!
//! A clause moves ahead only when everything it reads (property values, WHERE) is bound by
//! itself or before the group; among the clauses that may go next, the one whose first chain
//! costs least from its best start (`compile::chain_plan_cost`: Neo4j's cost model over the
//! start and the expansions, with what the clauses before it bind) goes, ties in written
//! order. Without relationship statistics (a chain of one node, or after the statement's own
//! writes), the start's rows stand for its cost: a bound node or a seek through a declared
//! index its estimate, a scan or an equality no declared index serves the label's nodes.

use super::super::{declare_match_vars, walk, Runner};
use crate::syntax::{Clause, Expr, LabelExpr, Match, PathElement, PathExpr, SingleQuery};
use std::sync::Arc;

/// Reorders the leading run of plain MATCH clauses of `clauses`, the clauses of `q` (with
/// `outer` bound before them). The order is chosen once per statement
/// (`Shared::match_orders`).
pub(super) fn order(run: &Runner, q: &SingleQuery, clauses: &mut [&Clause], outer: &[Arc<str>]) {
    let group = clauses
        .iter()
        .take_while(|c| matches!(c, Clause::Match(m) if plain(m)))
        .count();
    if group < 2 {
        return;
    }
    let key = q as *const SingleQuery as usize;
    let known = run.sh.match_orders.borrow().get(&key).cloned();
    // (A kept order is checked again, cheaply, before it is used: any order in which each
    // clause reads only what is bound gives the same rows.)
    let order = match known {
        Some(o) if o.len() == group && valid(&o, &clauses[..group], outer) => o,
        _ => {
            let o = choose(run, &clauses[..group], outer);
            run.sh.match_orders.borrow_mut().insert(key, o.clone());
            o
        }
    };
    let ordered: Vec<&Clause> = order.iter().map(|&i| clauses[i]).collect();
    clauses[..group].copy_from_slice(&ordered);
}

/// Whether, taken in `order`, each clause of `group` reads only what is bound before it.
fn valid(order: &[usize], group: &[&Clause], outer: &[Arc<str>]) -> bool {
    let mut bound: Vec<Arc<str>> = outer.to_vec();
    for &i in order {
        let Some(Clause::Match(m)) = group.get(i) else {
            return false;
        };
        if !reads_only(m, &bound) {
            return false;
        }
        declare_match_vars(m, &mut bound);
    }
    let mut seen = order.to_vec();
    seen.sort_unstable();
    seen.dedup();
    seen.len() == group.len()
}

/// The order of `group` (indices into it), greedily: the cheapest clause that may go next.
fn choose(run: &Runner, group: &[&Clause], outer: &[Arc<str>]) -> Vec<usize> {
    let mut bound: Vec<Arc<str>> = outer.to_vec();
    let mut left: Vec<usize> = (0..group.len()).collect();
    let mut ordered = Vec::with_capacity(group.len());
    while !left.is_empty() {
        let mut best: Option<(f64, usize)> = None;
        for (k, &i) in left.iter().enumerate() {
            let Clause::Match(m) = group[i] else { continue };
            if !reads_only(m, &bound) {
                continue;
            }
            let Some(estimate) = estimate(run, m, &bound) else {
                continue;
            };
            if best.is_none_or(|(e, _)| estimate < e) {
                best = Some((estimate, k));
            }
        }
        // (None ready, or none estimated: the rest as written.)
        let k = best.map_or(0, |(_, k)| k);
        let i = left.remove(k);
        if let Clause::Match(m) = group[i] {
            declare_match_vars(m, &mut bound);
        }
        ordered.push(i);
    }
    ordered
}

/// A MATCH the group may reorder: not OPTIONAL, no SEARCH, no hints, fixed or variable-length
/// chains of nodes and relationships (no shortest path, no quantified group).
fn plain(m: &Match) -> bool {
    !m.optional
        && m.search.is_none()
        && m.hints.is_empty()
        && m.pattern.iter().all(|p| {
            p.selector.is_none()
                && matches!(&p.path, PathExpr::Chain(c) if c.elements.iter().all(|e| match e {
                    PathElement::Node(_) => true,
                    PathElement::Relationship(r) => r.quantifier.is_none(),
                    PathElement::Group(_) => false,
                }))
        })
}

/// Whether every variable `m` reads is one it binds or one in `bound`.
fn reads_only(m: &Match, bound: &[Arc<str>]) -> bool {
    let mut own: Vec<Arc<str>> = Vec::new();
    declare_match_vars(m, &mut own);
    let mut reads = Vec::new();
    let mut read = |e: &Expr| walk::free_vars(e, &mut reads);
    for p in &m.pattern {
        for e in &p.path.chain().elements {
            let (props, where_, labels) = match e {
                PathElement::Node(n) => (&n.properties, &n.where_, &n.labels),
                PathElement::Relationship(r) => (&r.properties, &r.where_, &r.types),
                PathElement::Group(_) => return false,
            };
            if let Some(x) = props {
                read(x);
            }
            if let Some(x) = where_ {
                read(x);
            }
            if labels.as_ref().is_some_and(dynamic) {
                return false;
            }
        }
    }
    if let Some(w) = &m.where_ {
        read(w);
    }
    reads
        .iter()
        .all(|v| own.iter().chain(bound).any(|b| **b == **v))
}

/// Whether a label expression computes labels per row (`$(expr)`).
fn dynamic(l: &LabelExpr) -> bool {
    match l {
        LabelExpr::Dynamic { .. } => true,
        LabelExpr::Not(x, _) => dynamic(x),
        LabelExpr::And(xs, _) | LabelExpr::Or(xs, _) => xs.iter().any(dynamic),
        LabelExpr::Name(_) | LabelExpr::Wildcard(_) => false,
    }
}

/// What the clause's first chain costs from its best start after `bound` (else the estimate
/// of that start; `None` when its patterns do not compile: it then runs as written, and fails
/// there if it must).
fn estimate(run: &Runner, m: &Match, bound: &[Arc<str>]) -> Option<f64> {
    let mut scope = bound.to_vec();
    declare_match_vars(m, &mut scope);
    let (chains, _) = run
        .compile_chains(&m.pattern, &scope, bound.len(), m.where_.as_ref())
        .ok()?;
    // (The chains come in the order they run: the first starts from the cheapest anchor.)
    // An equality no declared index serves costs the scan of its label, as Neo4j plans it,
    // however few nodes it keeps.
    let first = chains.first()?;
    let bound: Vec<bool> = (0..scope.len()).map(|i| i < bound.len()).collect();
    if let Some(cost) = run.chain_plan_cost(first, &bound, &scope) {
        return Some(cost);
    }
    let anchor = first.anchor.as_ref()?;
    Some(
        run.shown_as_scan(anchor)
            .map_or(anchor.estimate, |n| n as f64),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An order is usable only when each clause reads what is bound before it: a kept order
    /// that would run a clause before the one whose variable it reads is refused (and chosen
    /// again), so a stale entry cannot change the rows.
    #[test]
    fn an_order_is_valid_only_when_each_clause_reads_what_is_bound() {
        let stmt = crate::syntax::parse(
            "MATCH (a:Person) MATCH (b:Person {name: a.name}) MATCH (c:City) RETURN *",
        )
        .unwrap();
        let clauses: Vec<&Clause> = stmt.query.first.clauses.iter().take(3).collect();
        assert!(valid(&[0, 1, 2], &clauses, &[]));
        assert!(valid(&[2, 0, 1], &clauses, &[]));
        assert!(!valid(&[1, 0, 2], &clauses, &[]));
        // `a` bound outside: the second clause may go first.
        assert!(valid(&[1, 0, 2], &clauses, &[Arc::from("a")]));
        // Not a permutation.
        assert!(!valid(&[0, 0, 2], &clauses, &[]));
        assert!(!valid(&[0, 1, 3], &clauses, &[]));
    }
}
