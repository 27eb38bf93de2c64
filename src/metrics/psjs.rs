//! PSJS, the provenance subgraph Jaccard similarity (CypherBench), as `docs/METRICS.md` defines
//! it: run only the leading `MATCH` / `OPTIONAL MATCH` (with their `WHERE`) of each query, each
//! `UNION` branch separately, with every anonymous node pattern given a temporary variable;
//! collect the ids of every node bound; PSJS is the Jaccard of the two node-id sets (1 when both
//! are empty). The evaluation runner reports 1 whenever EX is 1.
//!
//! The provenance query is built on the AST and printed by the canonical printer — no text
//! surgery, so comments, strings and odd spacing cannot confuse it.

use crate::engine::{execute_read, Options, Params};
use crate::graph::Graph;
use crate::syntax::{parse, print, Clause, PathChain, PathElement, PrintOptions, Statement};
use crate::value::{NodeId, Value};
use std::collections::HashSet;

/// The provenance queries of a statement: one per `UNION` branch that starts with `MATCH`
/// (a branch that does not binds no nodes and contributes nothing).
pub fn provenance_queries(stmt: &Statement) -> Vec<String> {
    let mut out = Vec::new();
    let branches =
        std::iter::once(&stmt.query.first).chain(stmt.query.unions.iter().map(|u| &u.query));
    for branch in branches {
        let mut clauses: Vec<Clause> = branch
            .clauses
            .iter()
            .take_while(|c| matches!(c, Clause::Match(_)))
            .cloned()
            .collect();
        if clauses.is_empty() {
            continue;
        }
        let mut fresh = 0usize;
        for c in &mut clauses {
            if let Clause::Match(m) = c {
                for part in &mut m.pattern {
                    name_nodes(chain_mut(&mut part.path), &mut fresh);
                }
            }
        }
        let mut s = stmt.clone();
        s.prefix = None;
        s.query.unions.clear();
        s.query.first.clauses = clauses;
        out.push(format!("{}\nRETURN *", print(&s, &PrintOptions::default())));
    }
    out
}

fn chain_mut(p: &mut crate::syntax::PathExpr) -> &mut PathChain {
    match p {
        crate::syntax::PathExpr::Chain(c) => c,
        crate::syntax::PathExpr::ShortestFunction { chain, .. } => chain,
    }
}

/// Names the anonymous node patterns of a chain (nodes inside quantified groups are bound as
/// lists through the group's own variables and are left as they are).
fn name_nodes(chain: &mut PathChain, fresh: &mut usize) {
    for el in &mut chain.elements {
        if let PathElement::Node(n) = el {
            if n.variable.is_none() {
                n.variable = Some(crate::syntax::Ident {
                    name: format!("__psjs_{fresh}"),
                    span: n.span,
                });
                *fresh += 1;
            }
        }
    }
}

/// The ids of the nodes the provenance queries of `query` bind.
pub fn provenance(graph: &Graph, query: &str, opts: &Options) -> Result<HashSet<NodeId>, String> {
    let stmt = parse(query).map_err(|e| format!("syntax error at {e}"))?;
    provenance_of(graph, &stmt, opts)
}

/// The ids of the nodes the provenance queries of a parsed statement bind.
pub fn provenance_of(
    graph: &Graph,
    stmt: &Statement,
    opts: &Options,
) -> Result<HashSet<NodeId>, String> {
    provenance_with(stmt, |q| {
        let s = parse(q).map_err(|e| format!("provenance query does not parse: {e}"))?;
        execute_read(graph, &s, q, &Params::new(), opts).map_err(|e| e.to_string())
    })
}

/// The ids of the nodes the provenance queries of a parsed statement bind, each query run by
/// `run` (on a live database, say: node ids are the database's, the same in every result).
pub fn provenance_with(
    stmt: &Statement,
    mut run: impl FnMut(&str) -> Result<crate::engine::Table, String>,
) -> Result<HashSet<NodeId>, String> {
    let mut ids = HashSet::new();
    for q in provenance_queries(stmt) {
        let t = run(&q)?;
        for row in &t.rows {
            for v in row {
                collect_nodes(v, &mut ids);
            }
        }
    }
    Ok(ids)
}

fn collect_nodes(v: &Value, out: &mut HashSet<NodeId>) {
    match v {
        Value::Node(n) => {
            out.insert(*n);
        }
        Value::Path(p) => out.extend(p.nodes.iter().copied()),
        Value::List(l) => l.iter().for_each(|x| collect_nodes(x, out)),
        Value::Map(m) => m.values().for_each(|x| collect_nodes(x, out)),
        _ => {}
    }
}

/// Jaccard of two node-id sets (1 when both are empty).
pub fn node_set_jaccard(a: &HashSet<NodeId>, b: &HashSet<NodeId>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        1.0
    } else {
        a.intersection(b).count() as f64 / union as f64
    }
}

/// PSJS of a generated query against a reference query on one graph.
pub fn psjs(
    graph: &Graph,
    generated: &str,
    reference: &str,
    opts: &Options,
) -> Result<f64, String> {
    let r = provenance(graph, reference, opts)?;
    let g = provenance(graph, generated, opts)?;
    Ok(node_set_jaccard(&g, &r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph() -> Graph {
        Graph::from_cypher_script(
            "CREATE (a:P {name: 'Ann'})-[:K]->(b:P {name: 'Bob'})-[:K]->(c:P {name: 'Cy'}), (:Q {name: 'Dee'})",
        )
        .unwrap()
    }

    #[test]
    fn provenance_takes_the_leading_matches_and_names_anonymous_nodes() {
        let stmt = parse("MATCH (a:P)-[:K]->(:P) WHERE a.name = 'Ann' WITH a MATCH (a)--(x) RETURN x UNION MATCH (q:Q) RETURN q AS x").unwrap();
        let qs = provenance_queries(&stmt);
        assert_eq!(qs.len(), 2);
        assert!(qs[0].contains("__psjs_0"), "{}", qs[0]);
        assert!(!qs[0].contains("WITH"), "{}", qs[0]);
        assert!(qs[0].ends_with("RETURN *"));
        assert!(qs[1].starts_with("MATCH (q:Q)"), "{}", qs[1]);
    }

    #[test]
    fn psjs_compares_the_bound_nodes() {
        let g = graph();
        let o = Options::default();
        // Same provenance, different projection.
        let same = psjs(
            &g,
            "MATCH (n:P)-[:K]->(m) RETURN n.name",
            "MATCH (x:P)-[:K]->(:P) RETURN count(*)",
            &o,
        )
        .unwrap();
        assert_eq!(same, 1.0);
        // {Ann, Bob} vs {Ann, Bob, Cy}: 2/3.
        let part = psjs(
            &g,
            "MATCH (n:P {name: 'Ann'})-[:K]->(m) RETURN m",
            "MATCH (n:P)-[:K]->() RETURN n",
            &o,
        )
        .unwrap();
        assert!((part - 2.0 / 3.0).abs() < 1e-12, "{part}");
        // Disjoint.
        assert_eq!(
            psjs(&g, "MATCH (q:Q) RETURN q", "MATCH (p:P) RETURN p", &o).unwrap(),
            0.0
        );
        // Both bind nothing: 1; one binds nothing: 0.
        assert_eq!(
            psjs(&g, "RETURN 1", "UNWIND [1] AS x RETURN x", &o).unwrap(),
            1.0
        );
        assert_eq!(
            psjs(&g, "MATCH (z:Zed) RETURN z", "MATCH (p:P) RETURN p", &o).unwrap(),
            0.0
        );
        // A syntax error is an error, not a score.
        assert!(psjs(&g, "MATCH (n RETURN n", "MATCH (p:P) RETURN p", &o).is_err());
    }
}
