//! Push a graph into a database: the inverse of [`record`](super::record). `grape graph push`
//! seeds a live Neo4j from the fixture a hermetic test suite uses, so that both sides of a
//! differential test (`grape difftest`) load from one source.
//!
//! What is written, in this order, each step in batches of auto-committed statements:
//!
//! 1. **Nodes**, in the graph's id order (so a fresh store numbers them as grape does and scans
//!    them in the same order), with all their labels (`CREATE (n:$(r.labels))`) and properties,
//!    sent as Bolt parameters so every value keeps its exact type: integers and floats, strings,
//!    byte arrays, lists, all temporal types and points.
//! 2. **Relationships**, in id order, between the nodes of step 1 found by their element ids.
//! 3. **Constraints, then indexes** ([`engine::schema_statements`](crate::engine::schema_statements)),
//!    after the data, as Neo4j's Data Importer does.
//!
//! A database that holds data, constraints or indexes other than the two LOOKUP indexes every
//! new database has is refused unless [`PushOptions::clear`] asks to empty it first.
//!
//! ```
//! use grape::backend::{Backend, Memory, push::{push, PushOptions}};
//! use grape::graph::Graph;
//!
//! let source = Graph::from_cypher_script(
//!     "CREATE (:Person {name: 'Ann', born: date('1990-01-02')})-[:KNOWS {since: 2020}]->(:Person:Admin {name: 'Bo'})",
//! ).unwrap();
//! let target = Memory::new(Graph::new());
//! let report = push(&source, &target, &PushOptions::default()).unwrap();
//! assert_eq!((report.nodes, report.relationships), (2, 1));
//! let t = target.run("MATCH (a)-[k:KNOWS]->(b:Admin) RETURN a.born.year AS y, k.since AS s, b.name AS n", &Default::default()).unwrap();
//! assert_eq!(t.rows[0][2].as_str(), Some("Bo"));
//! ```

use super::{Backend, BackendError};
use crate::engine::{Params, Table};
use crate::graph::Graph;
use crate::value::{NodeId, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// How to push.
#[derive(Clone, Debug)]
pub struct PushOptions {
    /// Nodes or relationships per statement.
    pub batch_size: usize,
    /// Empty a non-empty database first (its data, constraints and indexes but the LOOKUP
    /// indexes); without it a non-empty database is refused.
    pub clear: bool,
    /// Leave the graph's indexes and constraints out.
    pub skip_schema: bool,
}

impl Default for PushOptions {
    fn default() -> Self {
        PushOptions {
            batch_size: 2_000,
            clear: false,
            skip_schema: false,
        }
    }
}

/// What a push wrote.
#[derive(Clone, Debug, Default)]
pub struct PushReport {
    pub nodes: usize,
    pub relationships: usize,
    /// Constraints and indexes created.
    pub schema_rules: usize,
    /// Statements sent.
    pub statements: usize,
    pub seconds: f64,
    /// The target's element id of each pushed node, by grape's node id (`None` for an id the
    /// graph does not use).
    pub element_ids: Vec<Option<String>>,
}

impl PushReport {
    /// The element id the target gave grape's node `n`.
    pub fn element_id(&self, n: NodeId) -> Option<&str> {
        self.element_ids.get(n.0 as usize)?.as_deref()
    }
}

/// Why a push failed.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error(
        "the target database is not empty ({nodes} nodes, {rules} constraints or indexes besides the LOOKUP indexes); \
         push into an empty database, or pass --clear to empty it first"
    )]
    NotEmpty { nodes: i64, rules: usize },
    #[error("{step}: {source}")]
    Backend {
        step: String,
        #[source]
        source: BackendError,
    },
    #[error("{step}: the target answered {got} rows for {sent} elements")]
    Short {
        step: String,
        sent: usize,
        got: usize,
    },
    #[error("batch size must be at least 1")]
    BatchSize,
}

fn run(db: &dyn Backend, step: &str, q: &str, params: &Params) -> Result<Table, PushError> {
    db.run(q, params).map_err(|source| PushError::Backend {
        step: step.to_string(),
        source,
    })
}

fn names(db: &dyn Backend, step: &str, q: &str) -> Result<Vec<String>, PushError> {
    let t = run(db, step, q, &Params::new())?;
    Ok(t.rows
        .iter()
        .filter_map(|r| r.first().and_then(Value::as_str).map(str::to_string))
        .collect())
}

const CONSTRAINT_NAMES: &str = "SHOW CONSTRAINTS YIELD name RETURN name";
const INDEX_NAMES: &str =
    "SHOW INDEXES YIELD name, type, owningConstraint WHERE type <> 'LOOKUP' AND owningConstraint IS NULL RETURN name";

fn as_int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

fn quoted(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// Empties a database: every node and relationship, every constraint, every index but the
/// LOOKUP ones.
pub fn clear(db: &dyn Backend) -> Result<(), PushError> {
    run(
        db,
        "clearing the target",
        "MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
        &Params::new(),
    )?;
    for c in names(db, "listing constraints", CONSTRAINT_NAMES)? {
        run(
            db,
            "dropping a constraint",
            &format!("DROP CONSTRAINT {} IF EXISTS", quoted(&c)),
            &Params::new(),
        )?;
    }
    for i in names(db, "listing indexes", INDEX_NAMES)? {
        run(
            db,
            "dropping an index",
            &format!("DROP INDEX {} IF EXISTS", quoted(&i)),
            &Params::new(),
        )?;
    }
    Ok(())
}

/// Nodes in the database, and its constraints and indexes other than LOOKUP ones.
pub fn contents(db: &dyn Backend) -> Result<(i64, usize), PushError> {
    let t = run(
        db,
        "counting the target's nodes",
        "MATCH (n) RETURN count(n) AS n",
        &Params::new(),
    )?;
    let nodes = t
        .rows
        .first()
        .and_then(|r| r.first())
        .and_then(as_int)
        .unwrap_or(0);
    let rules = names(db, "listing constraints", CONSTRAINT_NAMES)?.len()
        + names(db, "listing indexes", INDEX_NAMES)?.len();
    Ok((nodes, rules))
}

fn map(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(
        entries
            .into_iter()
            .map(|(k, v)| (Arc::from(k), v))
            .collect(),
    )
}

fn props(g: &Graph, ps: Vec<(crate::graph::Sym, Value)>) -> Value {
    Value::Map(
        ps.into_iter()
            .map(|(k, v)| (g.sym_name(k).clone(), v))
            .collect::<BTreeMap<_, _>>(),
    )
}

const CREATE_NODES: &str =
    "UNWIND $rows AS r CREATE (n:$(r.l)) SET n = r.p RETURN r.i AS i, elementId(n) AS id";
const CREATE_RELATIONSHIPS: &str = "UNWIND $rows AS r \
     MATCH (a) WHERE elementId(a) = r.s \
     MATCH (b) WHERE elementId(b) = r.e \
     CREATE (a)-[x:$(r.t)]->(b) SET x = r.p RETURN count(x) AS n";

/// Writes `graph` into `db` (see the module's documentation).
pub fn push(graph: &Graph, db: &dyn Backend, opts: &PushOptions) -> Result<PushReport, PushError> {
    if opts.batch_size == 0 {
        return Err(PushError::BatchSize);
    }
    let started = Instant::now();
    let mut report = PushReport::default();
    let (nodes, rules) = contents(db)?;
    if nodes > 0 || rules > 0 {
        if !opts.clear {
            return Err(PushError::NotEmpty { nodes, rules });
        }
        clear(db)?;
        report.statements += 1;
    }
    report.element_ids = vec![None; graph.node_id_bound()];
    let ids: Vec<NodeId> = graph.node_ids().collect();
    for chunk in ids.chunks(opts.batch_size) {
        let rows: Vec<Value> = chunk
            .iter()
            .filter_map(|&n| {
                graph.node(n)?;
                let labels = graph
                    .labels(n)
                    .into_iter()
                    .map(Value::String)
                    .collect::<Vec<_>>();
                Some(map(vec![
                    ("i", Value::Int(n.0 as i64)),
                    ("l", Value::List(labels)),
                    ("p", props(graph, graph.node_entries(n))),
                ]))
            })
            .collect();
        let sent = rows.len();
        let step = format!("creating nodes from id {}", chunk[0].0);
        let t = run(
            db,
            &step,
            CREATE_NODES,
            &Params::from([("rows".to_string(), Value::List(rows))]),
        )?;
        report.statements += 1;
        if t.rows.len() != sent {
            return Err(PushError::Short {
                step,
                sent,
                got: t.rows.len(),
            });
        }
        for r in &t.rows {
            if let (Some(i), Some(id)) =
                (r.first().and_then(as_int), r.get(1).and_then(Value::as_str))
            {
                if let Some(slot) = report.element_ids.get_mut(i as usize) {
                    *slot = Some(id.to_string());
                }
            }
        }
        report.nodes += sent;
    }
    let rels: Vec<_> = graph.relationship_ids().collect();
    for chunk in rels.chunks(opts.batch_size) {
        let rows: Vec<Value> = chunk
            .iter()
            .filter_map(|&r| {
                let data = graph.relationship(r)?;
                let (a, b) = graph.endpoints(r)?;
                let id = |n: NodeId| report.element_id(n).map(Value::from).unwrap_or(Value::Null);
                Some(map(vec![
                    ("s", id(a)),
                    ("e", id(b)),
                    ("t", Value::String(graph.sym_name(data.ty).clone())),
                    ("p", props(graph, graph.relationship_entries(r))),
                ]))
            })
            .collect();
        let sent = rows.len();
        let step = format!("creating relationships from id {}", chunk[0].0);
        let t = run(
            db,
            &step,
            CREATE_RELATIONSHIPS,
            &Params::from([("rows".to_string(), Value::List(rows))]),
        )?;
        report.statements += 1;
        let got = t
            .rows
            .first()
            .and_then(|r| r.first())
            .and_then(as_int)
            .unwrap_or(0) as usize;
        if got != sent {
            return Err(PushError::Short { step, sent, got });
        }
        report.relationships += sent;
    }
    if !opts.skip_schema {
        for s in crate::engine::schema_statements(graph) {
            run(db, &format!("creating the schema: {s}"), &s, &Params::new())?;
            report.statements += 1;
            report.schema_rules += 1;
        }
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Reads a whole database into a graph (the inverse of [`push`]): every node with its labels
/// and properties in the database's id order, every relationship, then the constraints and
/// indexes (`createStatement` of `SHOW CONSTRAINTS` / `SHOW INDEXES`, LOOKUP indexes and the
/// indexes constraints own left out). For databases small enough to hold in memory, as a
/// differential test's are.
pub fn pull(db: &dyn Backend) -> Result<Graph, PushError> {
    let mut g = Graph::new();
    let t = run(
        db,
        "reading the nodes",
        "MATCH (n) RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props ORDER BY id(n)",
        &Params::new(),
    )?;
    let mut ids = std::collections::HashMap::with_capacity(t.rows.len());
    for r in &t.rows {
        let (Some(id), Some(Value::List(labels)), Some(Value::Map(props))) =
            (r.first().and_then(Value::as_str), r.get(1), r.get(2))
        else {
            continue;
        };
        let labels: Vec<&str> = labels.iter().filter_map(Value::as_str).collect();
        let n = g.add_node(
            &labels,
            props.iter().map(|(k, v)| (&**k, v.clone())).collect(),
        );
        ids.insert(id.to_string(), n);
    }
    let t = run(
        db,
        "reading the relationships",
        "MATCH (a)-[r]->(b) RETURN elementId(a) AS a, elementId(b) AS b, type(r) AS t, properties(r) AS props ORDER BY id(r)",
        &Params::new(),
    )?;
    for r in &t.rows {
        let node = |i: usize| {
            r.get(i)
                .and_then(Value::as_str)
                .and_then(|id| ids.get(id).copied())
        };
        let (Some(a), Some(b), Some(ty), Some(Value::Map(props))) =
            (node(0), node(1), r.get(2).and_then(Value::as_str), r.get(3))
        else {
            continue;
        };
        g.add_relationship(
            a,
            b,
            ty,
            props.iter().map(|(k, v)| (&**k, v.clone())).collect(),
        );
    }
    let statements = names(
        db,
        "reading the constraints",
        "SHOW CONSTRAINTS YIELD createStatement RETURN createStatement",
    )?
    .into_iter()
    .chain(names(
        db,
        "reading the indexes",
        "SHOW INDEXES YIELD createStatement, type, owningConstraint \
         WHERE type <> 'LOOKUP' AND owningConstraint IS NULL RETURN createStatement",
    )?);
    for s in statements {
        crate::engine::run(&mut g, &s, &Params::new()).map_err(|e| PushError::Backend {
            step: format!("recreating `{s}`"),
            source: e.into(),
        })?;
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Memory;

    fn g(script: &str) -> Graph {
        Graph::from_cypher_script(script).unwrap()
    }

    #[test]
    fn pushes_every_value_type_and_the_schema() {
        let src = g("CREATE CONSTRAINT person_id FOR (p:Person) REQUIRE p.id IS UNIQUE;
             CREATE TEXT INDEX names FOR (p:Person) ON (p.name);
             CREATE (a:Person:Admin {id: 1, name: 'Ann', at: datetime('2020-01-02T03:04:05+01:00'),
                     where: point({x: 1, y: 2}), tags: ['a', 'b'], blob: apoc.util.compress('x', {compression: 'GZIP'}),
                     f: 1.5, d: duration('P1M2DT3S')}),
                    (b:Person {id: 2}), (c),
                    (a)-[:KNOWS {since: date('2020-01-01')}]->(b), (b)-[:KNOWS]->(b), (a)-[:KNOWS]->(b)");
        let dst = Memory::new(Graph::new());
        let r = push(
            &src,
            &dst,
            &PushOptions {
                batch_size: 2,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!((r.nodes, r.relationships, r.schema_rules), (3, 3, 2));
        let q = "MATCH (n) OPTIONAL MATCH (n)-[k]->(m) RETURN n, k, m ORDER BY n.id, m.id, k.since";
        let a = crate::backend::Memory::new(src)
            .run(q, &Params::new())
            .unwrap();
        let b = dst.run(q, &Params::new()).unwrap();
        crate::backend::record::same_result(&a, &b, true).unwrap();
        let show = "SHOW CONSTRAINTS YIELD name, type RETURN name, type";
        assert_eq!(dst.run(show, &Params::new()).unwrap().rows.len(), 1);
        let t = dst
            .run(
                "SHOW INDEXES YIELD name, type WHERE type = 'TEXT' RETURN name",
                &Params::new(),
            )
            .unwrap();
        assert_eq!(t.rows[0][0].as_str(), Some("names"));
    }

    #[test]
    fn refuses_a_non_empty_target_unless_asked_to_clear_it() {
        let src = g("CREATE (:A {x: 1})");
        let dst = Memory::new(g(
            "CREATE (:Old), (:Old); CREATE INDEX FOR (o:Old) ON (o.k)",
        ));
        let e = push(&src, &dst, &PushOptions::default()).unwrap_err();
        assert!(
            matches!(e, PushError::NotEmpty { nodes: 2, rules: 1 }),
            "{e}"
        );
        assert!(e.to_string().contains("--clear"));
        let r = push(
            &src,
            &dst,
            &PushOptions {
                clear: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(r.nodes, 1);
        assert_eq!(contents(&dst).unwrap(), (1, 0));
        let t = dst
            .run("MATCH (n) RETURN labels(n) AS l", &Params::new())
            .unwrap();
        assert_eq!(
            format!("{:?}", t.rows[0][0]),
            format!("{:?}", Value::List(vec![Value::from("A")]))
        );
    }

    #[test]
    fn pull_reads_back_what_push_wrote() {
        let src = g("CREATE INDEX ix FOR (p:P) ON (p.a);
             CREATE (a:P:Q {a: 1, b: [1.5, 2.5]})-[:R {w: 'x'}]->(b:P {a: 2}), (b)-[:R]->(b)");
        let dst = Memory::new(Graph::new());
        push(&src, &dst, &PushOptions::default()).unwrap();
        let back = pull(&dst).unwrap();
        let q = "MATCH (n) OPTIONAL MATCH (n)-[r]->(m) RETURN n, r, m";
        let a = Memory::new(src).run(q, &Params::new()).unwrap();
        let b = Memory::new(back.clone()).run(q, &Params::new()).unwrap();
        crate::backend::record::same_result(&a, &b, false).unwrap();
        assert!(back.schema().index("ix").is_some());
    }

    #[test]
    fn element_ids_map_every_node() {
        let src = g("CREATE (:A), (:B), (:C)");
        let dst = Memory::new(Graph::new());
        let r = push(&src, &dst, &PushOptions::default()).unwrap();
        for n in src.node_ids() {
            let id = r.element_id(n).unwrap();
            let t = dst
                .run(
                    "MATCH (n) WHERE elementId(n) = $id RETURN labels(n)[0] AS l",
                    &Params::from([("id".to_string(), Value::from(id))]),
                )
                .unwrap();
            assert_eq!(t.rows[0][0].as_str(), Some(&*src.labels(n)[0]));
        }
    }
}
