//! Hop complexity as GRAPE defines it: "count each relationship traversal as one hop,
//! regardless of direction".
//!
//! - a fixed-length relationship pattern is 1 hop;
//! - a bounded variable-length one (`*1..3`, `{1,3}`) counts its upper bound (3); its lower bound
//!   goes into [`Complexity::hops_min`];
//! - an unbounded one (`*`, `*2..`, `+`) counts its lower bound and sets
//!   [`Complexity::hops_unbounded`];
//! - a quantified path pattern `((a)-[:R]->(b)-[:S]->(c)){1,3}` counts its inner hops times the
//!   bound, the same way.
//!
//! Hops are counted in the patterns of `MATCH` and `OPTIONAL MATCH` clauses (including those in
//! `CALL { … }` subqueries and every `UNION` branch); pattern predicates and `EXISTS { … }` in a
//! `WHERE` filter rows and are not traversals GRAPE counts. The total is the sum over the `MATCH`
//! clauses; [`Complexity::per_match`] has each one.
//!
//! [`Complexity::node_patterns`] counts the distinct nodes those patterns mention — a named node
//! once however often it appears, each anonymous node pattern once — which is ZOGRASCOPE's
//! `num_nodes`; [`Complexity::rel_patterns`] counts relationships the same way.

use crate::syntax::ast::*;
use serde::Serialize;
use std::collections::BTreeSet;

/// The hops of one `MATCH` clause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchHops {
    pub span: Span,
    pub optional: bool,
    pub hops: u64,
    pub hops_min: u64,
    pub unbounded: bool,
}

/// Hop complexity of a statement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Complexity {
    /// GRAPE hops: the sum over `MATCH` clauses.
    pub hops: u64,
    /// The same with every variable-length relationship at its lower bound.
    pub hops_min: u64,
    /// Some variable-length relationship has no upper bound (`hops` counts its lower bound).
    pub hops_unbounded: bool,
    pub per_match: Vec<MatchHops>,
    /// Distinct relationships in `MATCH` patterns.
    pub rel_patterns: usize,
    /// Distinct nodes in `MATCH` patterns (ZOGRASCOPE's `num_nodes`).
    pub node_patterns: usize,
}

/// Computes the hop complexity of a statement.
///
/// ```
/// let stmt = grape::parse("MATCH (a:A)-[:R*1..3]->(b)-[:S]-(c) OPTIONAL MATCH (c)-[*2..]->(d) RETURN d").unwrap();
/// let c = grape::analysis::complexity(&stmt);
/// assert_eq!((c.hops, c.hops_min, c.hops_unbounded), (6, 4, true));
/// assert_eq!(c.per_match.iter().map(|m| m.hops).collect::<Vec<_>>(), vec![4, 2]);
/// assert_eq!((c.node_patterns, c.rel_patterns), (4, 3));
/// ```
pub fn complexity(stmt: &Statement) -> Complexity {
    let mut w = Walker {
        out: Complexity::default(),
        nodes: BTreeSet::new(),
        rels: BTreeSet::new(),
        anonymous_nodes: 0,
        anonymous_rels: 0,
    };
    w.query(&stmt.query);
    w.out.node_patterns = w.nodes.len() + w.anonymous_nodes;
    w.out.rel_patterns = w.rels.len() + w.anonymous_rels;
    w.out
}

struct Walker {
    out: Complexity,
    nodes: BTreeSet<String>,
    rels: BTreeSet<String>,
    anonymous_nodes: usize,
    anonymous_rels: usize,
}

/// (hops, hops_min, unbounded) of a length range.
fn range_hops(min: u64, max: Option<u64>, per: (u64, u64, bool)) -> (u64, u64, bool) {
    let (h, hmin, unb) = per;
    match max {
        Some(m) => (h.saturating_mul(m), hmin.saturating_mul(min), unb),
        None => (h.saturating_mul(min), hmin.saturating_mul(min), true),
    }
}

impl Walker {
    fn query(&mut self, q: &Query) {
        self.clauses(&q.first.clauses);
        for u in &q.unions {
            self.clauses(&u.query.clauses);
        }
    }

    fn clauses(&mut self, clauses: &[Clause]) {
        for c in clauses {
            match c {
                Clause::Match(m) => {
                    let (mut h, mut hmin, mut unb) = (0u64, 0u64, false);
                    for part in &m.pattern {
                        let (a, b, u) = self.chain(part.path.chain());
                        h = h.saturating_add(a);
                        hmin = hmin.saturating_add(b);
                        unb |= u;
                    }
                    self.out.hops = self.out.hops.saturating_add(h);
                    self.out.hops_min = self.out.hops_min.saturating_add(hmin);
                    self.out.hops_unbounded |= unb;
                    self.out.per_match.push(MatchHops {
                        span: m.span,
                        optional: m.optional,
                        hops: h,
                        hops_min: hmin,
                        unbounded: unb,
                    });
                }
                Clause::CallSubquery(_) | Clause::Braced(_) | Clause::Next(_) | Clause::When(_) => {
                    for q in c.subqueries() {
                        self.query(q)
                    }
                }
                Clause::Foreach(f) => self.clauses(&f.clauses),
                _ => {}
            }
        }
    }

    fn chain(&mut self, chain: &PathChain) -> (u64, u64, bool) {
        let (mut h, mut hmin, mut unb) = (0u64, 0u64, false);
        for el in &chain.elements {
            let (a, b, u) = match el {
                PathElement::Node(n) => {
                    match &n.variable {
                        Some(v) => {
                            self.nodes.insert(v.name.clone());
                        }
                        None => self.anonymous_nodes += 1,
                    }
                    (0, 0, false)
                }
                PathElement::Relationship(r) => {
                    match &r.variable {
                        Some(v) => {
                            self.rels.insert(v.name.clone());
                        }
                        None => self.anonymous_rels += 1,
                    }
                    match (&r.length, &r.quantifier) {
                        (Some(l), _) => {
                            let (min, max) = l.bounds();
                            range_hops(min, max, (1, 1, false))
                        }
                        (None, Some(q)) => {
                            let (min, max) = q.bounds();
                            range_hops(min, max, (1, 1, false))
                        }
                        (None, None) => (1, 1, false),
                    }
                }
                PathElement::Group(g) => {
                    let inner = self.chain(&g.chain);
                    match &g.quantifier {
                        Some(q) => {
                            let (min, max) = q.bounds();
                            range_hops(min, max, inner)
                        }
                        None => inner,
                    }
                }
            };
            h = h.saturating_add(a);
            hmin = hmin.saturating_add(b);
            unb |= u;
        }
        (h, hmin, unb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(q: &str) -> Complexity {
        complexity(&crate::syntax::parse(q).unwrap())
    }

    #[test]
    fn fixed_bounded_unbounded_and_quantified() {
        assert_eq!(c("MATCH (n) RETURN n").hops, 0);
        let x = c("MATCH (a)-->(b)<-[:R]-(c)--(d) RETURN a");
        assert_eq!((x.hops, x.hops_min, x.hops_unbounded), (3, 3, false));
        let x = c("MATCH (a)-[*]->(b) RETURN a");
        assert_eq!((x.hops, x.hops_min, x.hops_unbounded), (1, 1, true));
        let x = c("MATCH (a)-[*3]->(b) RETURN a");
        assert_eq!((x.hops, x.hops_min), (3, 3));
        let x = c("MATCH (a)-[*..4]->(b) RETURN a");
        assert_eq!((x.hops, x.hops_min), (4, 1));
        let x = c("MATCH (a) ((x)-[:R]->(y)-[:S]->(z)){2,3} (b) RETURN a");
        assert_eq!((x.hops, x.hops_min, x.hops_unbounded), (6, 4, false));
        let x = c("MATCH (a)-[:R]->+(b) RETURN a");
        assert_eq!((x.hops, x.hops_min, x.hops_unbounded), (1, 1, true));
        let x = c("MATCH (a)-[:R]->{0,}(b) RETURN a");
        assert_eq!((x.hops, x.hops_min, x.hops_unbounded), (0, 0, true));
    }

    #[test]
    fn counts_match_clauses_everywhere_but_not_where_patterns() {
        let x = c("MATCH (a)-->(b) WHERE (b)-->() AND EXISTS { (a)-->()-->() } CALL { MATCH (c)-->(d) RETURN d } RETURN a UNION MATCH (a)-->()-->() RETURN a");
        assert_eq!(x.hops, 4);
        assert_eq!(x.per_match.len(), 3);
        // a, b, c, d named; two anonymous nodes in the UNION branch.
        assert_eq!(x.node_patterns, 6);
        assert_eq!(x.rel_patterns, 4);
    }

    #[test]
    fn named_nodes_count_once() {
        let x = c("MATCH (x0)-[:A]-(x1)-[:B]-(x2) MATCH (x1)-[:C]-(x3) RETURN x0");
        assert_eq!(x.node_patterns, 4);
        assert_eq!(x.rel_patterns, 3);
        assert_eq!(x.hops, 3);
    }
}
