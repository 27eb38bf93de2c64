//! `EXPLAIN` as a reviewer reads it: the plans of a corpus of queries over the bundled demo graph
//! (`corpora/demo/graph.json`), kept in `tests/snapshots/explain.txt`. The corpus is the demo's
//! 52 gold queries and the statements below, chosen so that every operator grape plans appears
//! at least once (scans, seeks, expands, variable-length and shortest paths, optional matches,
//! aggregation, ordering, subqueries, unions, updates, procedure calls). A change to the planner
//! shows as a diff of that file; the test fails until the file is rewritten with
//! `GRAPE_SNAPSHOT_BLESS=1 cargo test --test explain_snapshots`.

use grape::engine::Params;
use grape::plan::Plan;
use std::collections::BTreeSet;
use std::path::Path;

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/explain.txt");

/// Statements for the operators the demo's questions do not reach.
const MORE: &[(&str, &str)] = &[
    ("all-nodes", "MATCH (n) RETURN count(n)"),
    ("index-seek", "MATCH (b:Book {isbn: '978-4-5933-0000'}) RETURN b.title"),
    ("no-index-scan-filter", "MATCH (b:Book {title: 'The Amber Orchard'}) RETURN b.year"),
    ("projection-after-top", "MATCH (b:Book) RETURN b.title, b.pages ORDER BY b.rating DESC LIMIT 3"),
    ("projection-after-limit", "MATCH (b:Book) RETURN toUpper(b.title) AS t LIMIT 3"),
    ("anti-semi-apply", "MATCH (b:Book) WHERE NOT EXISTS { (:Member)-[:BORROWED]->(b) } RETURN b.title"),
    ("semi-apply", "MATCH (a:Author) WHERE EXISTS { (a)-[:BORN_IN]->(:City) } RETURN a.name"),
    ("set-labels", "MATCH (b:Book {title: 'The Amber Orchard'}) SET b:Classic"),
    ("remove-labels", "MATCH (b:Book:Classic) REMOVE b:Classic"),
    ("set-from-map", "MATCH (b:Book {title: 'The Amber Orchard'}) SET b += {rating: 4.5}"),
    ("subquery-foreach", "MATCH (g:Genre) CALL (g) { CREATE (:Tag {name: g.name}) }"),
    ("label-scan-filter", "MATCH (b:Book) WHERE b.pages > 300 AND b.rating >= 4.0 RETURN b.title"),
    ("relationship-type-scan", "MATCH ()-[r:BORROWED]->() RETURN count(r)"),
    ("expand-into", "MATCH (a:Person)-[:FRIEND_OF]->(b:Person)-[:FRIEND_OF]->(a) RETURN a.name, b.name"),
    ("var-length", "MATCH (a:Person {name: 'Ada Brook'})-[:FRIEND_OF*1..3]->(b) RETURN DISTINCT b.name"),
    ("shortest-path", "MATCH p = shortestPath((a:Person {name: 'Ada Brook'})-[:FRIEND_OF*]-(b:Person {name: 'Hugo Lind'})) RETURN length(p)"),
    ("quantified-path", "MATCH (a:Person)((x)-[:FRIEND_OF]->(y)){2,3}(b:Person) RETURN count(*)"),
    ("optional-match", "MATCH (m:Member) OPTIONAL MATCH (m)-[:BORROWED]->(b:Book) RETURN m.name, count(b) AS n"),
    ("cartesian-product", "MATCH (c:City), (g:Genre) RETURN c.name, g.name"),
    ("distinct", "MATCH (b:Book)-[:IN_GENRE]->(g:Genre) RETURN DISTINCT g.name"),
    ("order-skip-limit", "MATCH (b:Book) RETURN b.title ORDER BY b.year DESC, b.title SKIP 5 LIMIT 10"),
    ("top", "MATCH (b:Book) RETURN b.title, b.rating ORDER BY b.rating DESC LIMIT 3"),
    ("aggregation-grouping", "MATCH (a:Author)-[:WROTE]->(b:Book) RETURN a.nationality, count(*) AS books, avg(b.rating) AS rating"),
    ("with-where", "MATCH (a:Author)-[:WROTE]->(b:Book) WITH a, count(b) AS n WHERE n > 3 RETURN a.name, n"),
    ("unwind", "UNWIND [1, 2, 3] AS x RETURN x * 2"),
    ("unwind-match", "UNWIND ['Eastmere', 'Haldon'] AS name MATCH (c:City {name: name}) RETURN c.population"),
    ("exists-subquery", "MATCH (m:Member) WHERE EXISTS { (m)-[:BORROWED]->(:Book) } RETURN count(m)"),
    ("pattern-predicate", "MATCH (m:Member) WHERE NOT (m)-[:BORROWED]->() RETURN m.name"),
    ("count-subquery", "MATCH (a:Author) RETURN a.name, COUNT { (a)-[:WROTE]->() } AS n"),
    ("collect-subquery", "MATCH (a:Author) RETURN a.name, COLLECT { MATCH (a)-[:WROTE]->(b) RETURN b.title } AS titles"),
    ("pattern-comprehension", "MATCH (a:Author) RETURN a.name, [(a)-[:WROTE]->(b) | b.title] AS titles"),
    ("call-subquery", "MATCH (g:Genre) CALL (g) { MATCH (g)<-[:IN_GENRE]-(b:Book) RETURN count(b) AS n } RETURN g.name, n"),
    ("union", "MATCH (a:Author) RETURN a.name AS name UNION MATCH (c:City) RETURN c.name AS name"),
    ("union-all", "MATCH (a:Author) RETURN a.name AS name UNION ALL MATCH (c:City) RETURN c.name AS name"),
    ("create", "CREATE (n:Book {title: 'New'})-[:IN_GENRE]->(g:Genre {name: 'New'})"),
    ("merge", "MERGE (g:Genre {name: 'Poetry'}) ON CREATE SET g.created = true RETURN g"),
    ("set-remove", "MATCH (b:Book {title: 'The Amber Orchard'}) SET b.rating = 5.0 REMOVE b.pages"),
    ("delete", "MATCH (m:Member)-[r:BORROWED]->() WHERE m.age > 90 DELETE r"),
    ("detach-delete", "MATCH (g:Genre {name: 'Nothing'}) DETACH DELETE g"),
    ("foreach", "MATCH (b:Book) WITH collect(b) AS books FOREACH (b IN books | SET b.seen = true)"),
    ("procedure", "CALL db.labels() YIELD label RETURN label ORDER BY label"),
    ("load-csv", "LOAD CSV WITH HEADERS FROM 'file:///books.csv' AS row MERGE (:Book {isbn: row.isbn})"),
    ("in-transactions", "UNWIND range(1, 10) AS i CALL (i) { CREATE (:N {i: i}) } IN TRANSACTIONS OF 5 ROWS"),
];

fn corpus() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("corpora/demo/questions.jsonl")).unwrap();
    let mut out: Vec<(String, String)> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["id"].as_str().unwrap().to_string(),
                v["cypher"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.extend(MORE.iter().map(|(n, q)| (n.to_string(), q.to_string())));
    out
}

/// The indexes the graph declares for the corpus (the demo's fixture has none): an equality on
/// `Book.isbn` is an index seek, on any other property a label scan and a filter, as in Neo4j.
const SETUP: &str = "CREATE INDEX book_isbn FOR (b:Book) ON (b.isbn)";

/// Each statement of the corpus with its plan.
fn plans() -> Vec<(String, String, Plan)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut g = grape::engine::load_graph(
        root.join("corpora/demo/graph.json").to_str().unwrap(),
        Default::default(),
    )
    .unwrap();
    grape::engine::run(&mut g, SETUP, &Params::new()).unwrap();
    corpus()
        .into_iter()
        .map(|(id, q)| {
            let plan = grape::engine::run(&mut g, &format!("EXPLAIN {q}"), &Params::new())
                .unwrap_or_else(|e| panic!("EXPLAIN {q}: {e}"))
                .plan
                .unwrap_or_else(|| panic!("{id}: no plan"));
            (id, q, plan)
        })
        .collect()
}

fn render_all() -> String {
    let mut out = String::from(
        "# EXPLAIN of the corpus in tests/explain_snapshots.rs over corpora/demo/graph.json\n\
         # (GRAPE_SNAPSHOT_BLESS=1 cargo test --test explain_snapshots rewrites this file)\n",
    );
    for (id, q, plan) in plans() {
        out.push_str(&format!("\n== {id}\n{q}\n\n{}", plan.render()));
    }
    out
}

#[test]
fn explain_outputs_equal_the_snapshots() {
    let now = render_all();
    if std::env::var("GRAPE_SNAPSHOT_BLESS").as_deref() == Ok("1") {
        std::fs::write(SNAPSHOT, &now).unwrap();
        return;
    }
    let kept = std::fs::read_to_string(SNAPSHOT).unwrap_or_default();
    if kept != now {
        // The first sections that differ, so the failure says where.
        let split = |s: &str| -> Vec<String> { s.split("\n== ").map(str::to_string).collect() };
        let (a, b) = (split(&kept), split(&now));
        let differ: Vec<String> = b
            .iter()
            .filter(|s| !a.contains(s))
            .take(5)
            .map(|s| format!("== {s}"))
            .collect();
        panic!(
            "EXPLAIN differs from {SNAPSHOT} (review, then GRAPE_SNAPSHOT_BLESS=1 rewrites it):\n{}",
            differ.join("\n")
        );
    }
}

/// The corpus reaches every operator the planner names (`src/engine/planner.rs` and
/// `src/engine/exec/explain.rs`), less those only other databases' features plan.
#[test]
fn the_corpus_covers_the_operators() {
    let plans = plans();
    let seen: BTreeSet<&str> = plans
        .iter()
        .flat_map(|(_, _, p)| p.walk())
        .map(|p| p.operator.as_str())
        .collect();
    for op in [
        "ProduceResults",
        "EmptyResult",
        "AllNodesScan",
        "NodeByLabelScan",
        "NodeIndexSeek",
        "Expand(All)",
        "Expand(Into)",
        "VarLengthExpand(All)",
        "ShortestPath",
        "Filter",
        "Projection",
        "EagerAggregation",
        "Distinct",
        "Sort",
        "Top",
        "Skip",
        "Limit",
        "Unwind",
        "Optional",
        "CartesianProduct",
        "Union",
        "Create",
        "Merge",
        "SetProperty",
        "Delete",
        "DetachDelete",
        "Foreach",
        "SemiApply",
        "AntiSemiApply",
        "RollUpApply",
        "SetLabels",
        "RemoveLabels",
        "SetPropertiesFromMap",
        "SubqueryForeach",
        "TransactionForeach",
        "Repeat(Trail)",
        "ProcedureCall",
        "LoadCSV",
        "Apply",
    ] {
        assert!(seen.contains(op), "no {op} in the snapshots; seen {seen:?}");
    }
}

/// Under PROFILE every operator of every corpus statement reports its rows: the counts come
/// from the operators that ran, none is left out (the statements run on a fresh copy of the
/// graph each, so that the writes do not pile up).
#[test]
fn profile_counts_every_operator_of_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut base = grape::engine::load_graph(
        root.join("corpora/demo/graph.json").to_str().unwrap(),
        Default::default(),
    )
    .unwrap();
    grape::engine::run(&mut base, SETUP, &Params::new()).unwrap();
    let mut uncounted = Vec::new();
    let (mut operators, mut profiled) = (0, 0);
    let corpus = corpus();
    for (id, q) in &corpus {
        let mut g = base.clone();
        // (LOAD CSV has no import directory here: it plans, and does not run.)
        let Ok(t) = grape::engine::run(&mut g, &format!("PROFILE {q}"), &Params::new()) else {
            continue;
        };
        let plan = t.plan.unwrap_or_else(|| panic!("{id}: no plan"));
        profiled += 1;
        for p in plan.walk() {
            operators += 1;
            if p.rows.is_none() {
                uncounted.push(format!("{id}: {} {}", p.operator, p.details));
            }
        }
    }
    assert!(
        profiled + 2 >= corpus.len() && operators > 500,
        "{profiled} of {} statements ran, {operators} operators",
        corpus.len()
    );
    assert!(
        uncounted.is_empty(),
        "{} operators without a count:\n{}",
        uncounted.len(),
        uncounted.join("\n")
    );
}
