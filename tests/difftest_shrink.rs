//! `grape::difftest::shrink`: a difference shrunk to the graph it needs, against a reference that
//! is wrong on purpose (it hides the nodes marked `hidden`), and the Cypher scripts of graphs,
//! which must rebuild every value type.

use grape::backend::{Backend, BackendError, Memory};
use grape::difftest::shrink::{induced, script, shrink};
use grape::difftest::{self, Case, DiffKind, Reference, Side};
use grape::engine::{Options, Params, Table};
use grape::graph::Graph;
use grape::schema::Schema;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A reference holding its graph in a [`Memory`] backend that answers as if the nodes with
/// `hidden: true` were not there: a planted bug for the shrinker to find.
struct Hiding {
    db: Memory,
}

impl Backend for Hiding {
    fn run(&self, query: &str, params: &Params) -> Result<Table, BackendError> {
        self.db.run(query, params)
    }
    fn run_cancellable(
        &self,
        query: &str,
        params: &Params,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Table, BackendError> {
        self.db.run_cancellable(query, params, cancel)
    }
    fn schema(&self) -> Result<Schema, BackendError> {
        self.db.schema()
    }
    fn describe(&self) -> String {
        "hiding".into()
    }
}

impl Reference for Hiding {
    fn describe(&self) -> String {
        "hiding".into()
    }
    fn run_rolled_back(&self, query: &str, params: &Params) -> Side {
        let mut g = self.db.graph();
        grape::engine::run(
            &mut g,
            "MATCH (n) WHERE n.hidden DETACH DELETE n",
            &Params::new(),
        )
        .expect("hide");
        difftest::run_grape(&mut g, query, params, &Options::default())
    }
}

fn chain(n: usize, hidden: usize) -> Graph {
    let mut s = String::from("UNWIND range(0, $n - 1) AS i CREATE (:P {i: i, hidden: i = $h})");
    s = s
        .replace("$n", &n.to_string())
        .replace("$h", &hidden.to_string());
    let mut g = Graph::new();
    grape::engine::run(&mut g, &s, &Params::new()).unwrap();
    grape::engine::run(
        &mut g,
        "MATCH (a:P), (b:P) WHERE b.i = a.i + 1 CREATE (a)-[:NEXT {w: a.i}]->(b)",
        &Params::new(),
    )
    .unwrap();
    grape::engine::run(
        &mut g,
        "CREATE INDEX p_i FOR (p:P) ON (p.i)",
        &Params::new(),
    )
    .unwrap();
    g
}

#[test]
fn a_difference_shrinks_to_the_one_node_it_needs() {
    let g = chain(60, 37);
    let db = Hiding {
        db: Memory::new(Graph::new()),
    };
    let case = Case {
        id: "count".into(),
        query: "MATCH (n:P) RETURN count(n) AS c".into(),
        params: Params::new(),
    };
    let r = shrink(&g, &case, &DiffKind::Rows, &db, &Options::default(), 200).unwrap();
    assert_eq!((r.nodes, r.relationships), (1, 0), "{r:?}");
    assert!(r.script.contains("hidden: true"), "{}", r.script);
    assert!(r.script.contains("i: 37"), "{}", r.script);
    // The graph's index comes with it.
    assert!(r.script.starts_with("CREATE RANGE INDEX"), "{}", r.script);
    // The budget bounds the search.
    let r = shrink(&g, &case, &DiffKind::Rows, &db, &Options::default(), 3).unwrap();
    assert_eq!(r.tries, 3);
    assert!(r.nodes > 1);
}

#[test]
fn a_difference_that_needs_relationships_keeps_them() {
    let g = chain(40, 20);
    let db = Hiding {
        db: Memory::new(Graph::new()),
    };
    let case = Case {
        id: "paths".into(),
        query: "MATCH (a)-[:NEXT]->(b)-[:NEXT]->(c) RETURN a.i AS a, c.i AS c".into(),
        params: Params::new(),
    };
    let r = shrink(
        &g,
        &case,
        &DiffKind::RowCount,
        &db,
        &Options::default(),
        300,
    )
    .unwrap();
    // One path through the hidden node: three nodes and the two relationships between them.
    assert_eq!((r.nodes, r.relationships), (3, 2), "{}", r.script);
}

#[test]
fn a_statement_that_does_not_differ_is_not_shrunk() {
    let g = chain(10, 99);
    let db = Hiding {
        db: Memory::new(Graph::new()),
    };
    let case = Case {
        id: "same".into(),
        query: "MATCH (n:P) RETURN count(n) AS c".into(),
        params: Params::new(),
    };
    assert!(shrink(&g, &case, &DiffKind::Rows, &db, &Options::default(), 10).is_err());
}

/// The script of a graph rebuilds it: every value type (but byte arrays, which Cypher cannot
/// write), labels, relationships, indexes and constraints.
#[test]
fn scripts_rebuild_the_awkward_graphs() {
    for seed in [1, 2, 3] {
        let g = difftest::generate::awkward_graph(seed, 60);
        let text = script(&g);
        let back = Graph::from_cypher_script(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.node_count(), g.node_count());
        assert_eq!(back.relationship_count(), g.relationship_count());
        let q =
            "MATCH (n) RETURN labels(n) AS l, properties(n) AS p ORDER BY toString(p), toString(l)";
        let r = "MATCH ()-[r]->() RETURN type(r) AS t, properties(r) AS p ORDER BY t, toString(p)";
        for q in [q, r] {
            let stmt = grape::syntax::parse(q).unwrap();
            let a = difftest::run_grape(&mut g.clone(), q, &Params::new(), &Options::default());
            let b = difftest::run_grape(&mut back.clone(), q, &Params::new(), &Options::default());
            assert!(
                difftest::compare(&stmt, q, &a, &b).is_none(),
                "seed {seed}: {q}: {:?}",
                difftest::compare(&stmt, q, &a, &b)
            );
        }
        assert_eq!(
            grape::engine::schema_statements(&back),
            grape::engine::schema_statements(&g)
        );
        // The induced graph of every node is the graph again.
        let all: Vec<_> = g.node_ids().collect();
        assert_eq!(script(&induced(&g, &all)), text);
    }
}
