//! The planner: `EXPLAIN` gives the plan the executor runs (anchors chosen from the graph's
//! statistics), `PROFILE` runs it and counts rows and db hits; the CLI prints both as trees.

use grape::engine::{execute, explain, Options, Params};
use grape::graph::Graph;
use grape::plan::Plan;

fn graph(script: &str) -> Graph {
    Graph::from_cypher_script(script).unwrap()
}

fn plan_of(g: &Graph, q: &str) -> Plan {
    let stmt = grape::syntax::parse(q).unwrap();
    explain(g, &stmt, q, &Params::new(), &Options::default()).unwrap()
}

fn ops(p: &Plan) -> Vec<String> {
    p.walk().iter().map(|p| p.operator.clone()).collect()
}

/// Ten people with distinct names (indexed), and one friendship.
const PEOPLE: &str = "UNWIND range(1, 10) AS i CREATE (:Person {name: 'p' + i, team: 'all'});\
    MATCH (a:Person {name: 'p1'}), (b:Person {name: 'p2'}) CREATE (a)-[:KNOWS]->(b);\
    CREATE INDEX person_name FOR (p:Person) ON (p.name)";

/// 30 people in four teams, each knowing some of the others (no index).
const TEAMS: &str =
    "UNWIND range(1, 30) AS i CREATE (:Person {name: 'p' + i, team: 't' + (i % 4)});\
    MATCH (a:Person), (b:Person) WHERE a.name < b.name AND (size(a.name) + size(b.name)) % 3 = 0 \
    CREATE (a)-[:KNOWS]->(b)";

/// The single integer a counting query returns.
/// The plan of `q`, a `PROFILE` statement, with its counts.
fn profile(g: &mut Graph, q: &str) -> Plan {
    let stmt = grape::syntax::parse(q).unwrap();
    execute(g, &stmt, q, &Params::new(), &Options::default())
        .unwrap()
        .plan
        .unwrap()
}

/// The rows of the `nth` operator named `op` (outermost first).
fn rows(plan: &Plan, op: &str, nth: usize) -> Option<u64> {
    plan.walk()
        .into_iter()
        .filter(|p| p.operator == op)
        .nth(nth)
        .unwrap_or_else(|| panic!("no {op} #{nth} in\n{}", plan.render()))
        .rows
}

fn count(g: &mut Graph, q: &str) -> u64 {
    grape::engine::run(g, q, &Params::new())
        .unwrap()
        .first_int()
        .unwrap() as u64
}

#[test]
fn a_selective_property_is_sought_an_unselective_one_filtered() {
    let g = graph(PEOPLE);
    let p = plan_of(&g, "MATCH (p:Person {name: 'p1'})-[:KNOWS]->(f) RETURN f");
    assert_eq!(ops(&p), ["ProduceResults", "Expand(All)", "NodeIndexSeek"]);
    let leaf = p.walk().last().copied().unwrap();
    assert_eq!(leaf.details, "p:Person(name) WHERE name = 'p1'");
    assert_eq!(leaf.estimated_rows, 1.0);
    // Every person has the same team: a seek finds them all, so the planner scans the label
    // and filters.
    let p = plan_of(&g, "MATCH (p:Person {team: 'all'}) RETURN p");
    assert_eq!(ops(&p), ["ProduceResults", "Filter", "NodeByLabelScan"]);
    assert_eq!(p.children[0].details, "p.team = 'all'");
    // With the one `KNOWS`, the chain starts from a scan of that type (fewer rows than the
    // ten people), as the Neo4j 5.26 oracle plans it on this graph.
    let p = plan_of(&g, "MATCH (p:Person {team: 'all'})-[:KNOWS]->(f) RETURN f");
    assert_eq!(
        ops(&p),
        ["ProduceResults", "Filter", "DirectedRelationshipTypeScan"]
    );
    assert_eq!(p.children[0].details, "p:Person AND p.team = 'all'");
    // The cheaper end is the anchor: here the right-hand node, then the walk goes backwards.
    let p = plan_of(&g, "MATCH (f)<-[:KNOWS]-(p:Person {name: 'p1'}) RETURN f");
    assert_eq!(p.children[0].details, "(p)-[anon_0:KNOWS]->(f)");
    // Parameters are constants for the planner: their hits are looked up once.
    let q = "MATCH (p:Person) WHERE p.name = $n RETURN p";
    let stmt = grape::syntax::parse(q).unwrap();
    let mut params = Params::new();
    params.insert("n".into(), grape::value::Value::from("p3"));
    let p = explain(&g, &stmt, q, &params, &Options::default()).unwrap();
    assert_eq!(ops(&p), ["ProduceResults", "NodeIndexSeek"]);
}

/// Neo4j seeks an equality through an index the schema declares; without one it scans the label
/// and filters, and so does grape's plan (its own lookup structure, built on demand, is how that
/// filter runs, not an index the user has).
#[test]
fn only_a_declared_index_is_sought() {
    let g = graph(
        "UNWIND range(1, 10) AS i CREATE (:Person {name: 'p' + i});\
         MATCH (a:Person {name: 'p1'}), (b:Person {name: 'p2'}) CREATE (a)-[:KNOWS]->(b)",
    );
    let q = "MATCH (p:Person {name: 'p1'}) RETURN p";
    let p = plan_of(&g, q);
    assert_eq!(ops(&p), ["ProduceResults", "Filter", "NodeByLabelScan"]);
    assert_eq!(p.children[0].details, "p.name = 'p1'");
    // (A chain from it starts from its one `KNOWS` instead: the oracle's plan on this graph.)
    let chain = "MATCH (p:Person {name: 'p1'})-[:KNOWS]->(f) RETURN f";
    assert_eq!(
        ops(&plan_of(&g, chain)),
        ["ProduceResults", "Filter", "DirectedRelationshipTypeScan"]
    );
    let mut g = g;
    grape::engine::run(
        &mut g,
        "CREATE CONSTRAINT FOR (p:Person) REQUIRE p.name IS UNIQUE",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(ops(&plan_of(&g, q)), ["ProduceResults", "NodeIndexSeek"]);
    assert_eq!(
        ops(&plan_of(&g, chain)),
        ["ProduceResults", "Expand(All)", "NodeIndexSeek"]
    );
    // A point or full-text index does not serve an equality.
    let mut g = graph("CREATE (:Place {name: 'x'}), (:Place {name: 'y'}); CREATE POINT INDEX FOR (p:Place) ON (p.name)");
    let p = plan_of(&g, "MATCH (p:Place {name: 'x'}) RETURN p");
    assert_eq!(ops(&p), ["ProduceResults", "Filter", "NodeByLabelScan"]);
    grape::engine::run(
        &mut g,
        "CREATE TEXT INDEX FOR (p:Place) ON (p.name)",
        &Params::new(),
    )
    .unwrap();
    let p = plan_of(&g, "MATCH (p:Place {name: 'x'}) RETURN p");
    assert_eq!(ops(&p), ["ProduceResults", "NodeIndexSeek"]);
}

/// Items that ORDER BY does not read are projected after Sort/Top/Skip/Limit, in the plan and
/// in the run: a row cut off never computes them (Neo4j 5.26: `1`, not a division by zero).
#[test]
fn items_the_sort_does_not_read_are_projected_for_the_kept_rows() {
    let mut g = Graph::new();
    for (q, want) in [
        (
            "UNWIND [1, 0] AS x RETURN 1/x AS y ORDER BY x DESC LIMIT 1",
            "[Int(1)]",
        ),
        (
            "UNWIND [1, 0, 2] AS x RETURN 1/x AS y ORDER BY x DESC SKIP 1 LIMIT 1",
            "[Int(1)]",
        ),
        (
            "UNWIND [1, 0] AS x RETURN 1/x AS y ORDER BY x SKIP 1",
            "[Int(1)]",
        ),
        ("UNWIND [0, 1] AS x RETURN 1/x AS y SKIP 1", "[Int(1)]"),
        ("UNWIND [1, 0] AS x RETURN 1/x AS y LIMIT 1", "[Int(1)]"),
        (
            "UNWIND [1, 0] AS x WITH x, 1/x AS y ORDER BY x DESC LIMIT 1 WHERE y = 1 RETURN x",
            "[Int(1)]",
        ),
        (
            "UNWIND [1, 0] AS x RETURN x + 0 AS z, 1/x AS y ORDER BY z DESC LIMIT 1",
            "[Int(1), Int(1)]",
        ),
    ] {
        let t =
            grape::engine::run(&mut g, q, &Params::new()).unwrap_or_else(|e| panic!("{q}: {e}"));
        let rows: Vec<String> = t.rows.iter().map(|r| format!("{r:?}")).collect();
        assert_eq!(rows, [want], "{q}");
    }
    // What the sort reads, or a DISTINCT, is computed for every row, as in Neo4j.
    for q in [
        "UNWIND [1, 0] AS x RETURN x, 1/x AS y ORDER BY y LIMIT 1",
        "UNWIND [1, 0] AS x WITH x, 1/x AS y ORDER BY y DESC LIMIT 1 RETURN x",
        "UNWIND [1, 0] AS x RETURN DISTINCT 1/x AS y, x ORDER BY x DESC LIMIT 1",
        "UNWIND [1, 0] AS x RETURN 1/x AS y ORDER BY 1/x LIMIT 1",
    ] {
        let err = grape::engine::run(&mut g, q, &Params::new()).unwrap_err();
        assert_eq!(
            err.code(),
            "Neo.ClientError.Statement.ArithmeticError",
            "{q}"
        );
    }
    let p = plan_of(
        &g,
        "UNWIND [1, 0] AS x RETURN 1/x AS y, x + 1 AS z ORDER BY z DESC LIMIT 1",
    );
    assert_eq!(
        ops(&p),
        [
            "ProduceResults",
            "Projection",
            "Top",
            "Projection",
            "Unwind"
        ]
    );
    assert_eq!(p.children[0].details, "1/x AS y");
    assert_eq!(p.children[0].children[0].children[0].details, "x + 1 AS z");
}

#[test]
fn seeks_that_read_earlier_rows_are_applied_per_row() {
    let g = graph(PEOPLE);
    let p = plan_of(
        &g,
        "MATCH (a:Person {name: 'p1'}) MATCH (b:Person {name: a.name}) RETURN b",
    );
    assert_eq!(
        ops(&p),
        ["ProduceResults", "Apply", "NodeIndexSeek", "NodeIndexSeek"]
    );
    assert_eq!(p.walk()[3].details, "b:Person(name) WHERE name = a.name");
    let p = plan_of(&g, "MATCH (a:Person {name: 'p1'}), (c:Person) RETURN a, c");
    assert_eq!(
        ops(&p),
        [
            "ProduceResults",
            "CartesianProduct",
            "NodeIndexSeek",
            "NodeByLabelScan"
        ]
    );
    // A label nobody has: nothing to scan.
    let p = plan_of(&g, "MATCH (x:Nobody)-->(y) RETURN y");
    assert_eq!(p.walk().last().unwrap().estimated_rows, 0.0);
}

#[test]
fn projections_aggregation_order_and_limits_are_planned() {
    let g = graph(PEOPLE);
    let p = plan_of(
        &g,
        "MATCH (p:Person) WITH p.team AS t, count(*) AS n WHERE n > 1 \
         RETURN DISTINCT t, n ORDER BY n DESC SKIP 1 LIMIT 5",
    );
    assert_eq!(
        ops(&p),
        [
            "ProduceResults",
            "Skip",
            "Top",
            "Distinct",
            "Filter",
            "EagerAggregation",
            "NodeByLabelScan"
        ]
    );
    assert_eq!(p.walk()[2].details, "n DESC LIMIT 1 + 5");
    let p = plan_of(
        &g,
        "MATCH (p:Person) WITH p.team AS t, count(*) AS n RETURN t, n ORDER BY n SKIP 1 LIMIT 2",
    );
    assert_eq!(p.children[0].operator, "Skip");
    let agg = &p.walk()[3];
    assert_eq!(agg.details, "p.team AS t, count(*) AS n");
    assert_eq!(p.details, "t, n");
    let p = plan_of(&g, "MATCH (p:Person) RETURN p.name AS n ORDER BY n LIMIT 3");
    assert_eq!(
        ops(&p),
        ["ProduceResults", "Top", "Projection", "NodeByLabelScan"]
    );
    assert_eq!(p.children[0].estimated_rows, 3.0);
    let p = plan_of(
        &g,
        "UNWIND [1, 2] AS x CALL { WITH x RETURN x * 2 AS y } RETURN x, y \
         UNION ALL RETURN 1 AS x, 2 AS y",
    );
    assert!(p.contains("Union") && p.contains("Apply") && p.contains("Unwind"));
}

#[test]
fn explain_runs_nothing_and_profile_counts() {
    let mut g = graph(PEOPLE);
    let opts = Options::default();
    let q = "EXPLAIN CREATE (:X)";
    let stmt = grape::syntax::parse(q).unwrap();
    let t = execute(&mut g, &stmt, q, &Params::new(), &opts).unwrap();
    assert!(t.rows.is_empty());
    let plan = t.plan.unwrap();
    assert_eq!(
        ops(&plan),
        // As Neo4j 5.26 plans it: no Argument under a query's first operator.
        ["ProduceResults", "EmptyResult", "Create"]
    );
    let x = grape::engine::run(&mut g, "MATCH (x:X) RETURN count(x)", &Params::new()).unwrap();
    assert_eq!(x.first_int(), Some(0), "EXPLAIN created nothing");

    // The MATCH's rows and work sit on its top operator: the filter of the scan of the one
    // `KNOWS` (fewer rows than the ten people: the oracle's plan on this graph).
    let q = "PROFILE MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name AS n";
    let stmt = grape::syntax::parse(q).unwrap();
    let t = execute(&mut g, &stmt, q, &Params::new(), &opts).unwrap();
    assert_eq!(t.rows.len(), 1);
    let plan = t.plan.unwrap();
    assert_eq!(plan.rows, Some(1));
    let top = &plan.children[0].children[0];
    assert_eq!(top.operator, "Filter");
    assert_eq!(top.rows, Some(1));
    assert!(top.db_hits.unwrap() >= 1, "{plan:?}");

    // Each step of a chain has its rows: ten people scanned, one friendship expanded (the
    // people first, as Neo4j's plan has them, when a relationship has two types).
    let q = "PROFILE MATCH (p:Person)-[:KNOWS|LIKES]-(f) WITH f RETURN count(*) AS n";
    let stmt = grape::syntax::parse(q).unwrap();
    let t = execute(&mut g, &stmt, q, &Params::new(), &opts).unwrap();
    let plan = t.plan.unwrap();
    let scan = plan
        .walk()
        .into_iter()
        .find(|p| p.operator == "NodeByLabelScan")
        .unwrap_or_else(|| panic!("{}", plan.render()))
        .clone();
    assert_eq!(scan.rows, Some(10), "{}", plan.render());
    let expand = plan
        .walk()
        .into_iter()
        .find(|p| p.operator == "Expand(All)")
        .unwrap()
        .clone();
    assert_eq!(expand.rows, Some(2), "{}", plan.render());

    // A selective seek does less work than a scan of every person.
    let hits = |g: &mut Graph, q: &str| {
        let stmt = grape::syntax::parse(q).unwrap();
        let t = execute(g, &stmt, q, &Params::new(), &opts).unwrap();
        t.plan.unwrap().total_db_hits()
    };
    let seek = hits(&mut g, "PROFILE MATCH (p:Person {name: 'p1'}) RETURN p");
    let scan = hits(&mut g, "PROFILE MATCH (p:Person {team: 'all'}) RETURN p");
    assert!(seek < scan, "{seek} < {scan}");

    // PROFILE of an update runs it.
    let q = "PROFILE CREATE (:X)";
    let stmt = grape::syntax::parse(q).unwrap();
    let t = execute(&mut g, &stmt, q, &Params::new(), &opts).unwrap();
    assert_eq!(t.stats.nodes_created, 1);
    assert!(t.plan.unwrap().contains("Create"));
}

/// PROFILE runs the statement as a plain run does — a MATCH feeding an aggregating WITH or
/// RETURN row by row — and each operator's rows equal an independent count of the same rows.
#[test]
fn profile_counts_the_run_that_happens_operator_by_operator() {
    let mut g = graph(TEAMS);
    let people = count(&mut g, "MATCH (p:Person) RETURN count(*)");
    let pairs = count(&mut g, "MATCH (p:Person)-[:KNOWS]->(f) RETURN count(*)");
    let teams = count(
        &mut g,
        "MATCH (p:Person)-[:KNOWS]->(f) RETURN count(DISTINCT f.team)",
    );
    assert!(
        people == 30 && pairs > 30 && teams == 4,
        "{people} {pairs} {teams}"
    );
    for q in [
        "PROFILE MATCH (p:Person)-[:KNOWS]->(f) RETURN f.team AS t, count(*) AS c",
        "PROFILE MATCH (p:Person)-[:KNOWS]->(f) WITH f.team AS t, count(*) AS c RETURN t, c",
    ] {
        let stmt = grape::syntax::parse(q).unwrap();
        let t = execute(&mut g, &stmt, q, &Params::new(), &Options::default()).unwrap();
        assert_eq!(t.rows.len() as u64, teams, "{q}");
        let plan = t.plan.unwrap();
        let rows_of = |op: &str| {
            plan.walk()
                .into_iter()
                .find(|p| p.operator == op)
                .unwrap_or_else(|| panic!("{q}: no {op} in\n{}", plan.render()))
                .rows
        };
        assert_eq!(
            rows_of("NodeByLabelScan"),
            Some(people),
            "{}",
            plan.render()
        );
        assert_eq!(rows_of("Expand(All)"), Some(pairs), "{}", plan.render());
        assert_eq!(
            rows_of("EagerAggregation"),
            Some(teams),
            "{}",
            plan.render()
        );
        assert_eq!(plan.rows, Some(teams), "{}", plan.render());
    }
}

/// A LIMIT that has its rows stops the MATCH: no further candidate is bound, whether the
/// pattern is a lone node (emitted without an expansion step) or a chain. PROFILE's scan then
/// counts the candidates that were read, not the whole label.
#[test]
fn a_limit_stops_the_scan_it_is_fed_by() {
    let mut g = graph(TEAMS);
    let scanned = |g: &mut Graph, q: &str| -> (usize, u64) {
        let stmt = grape::syntax::parse(q).unwrap();
        let t = execute(g, &stmt, q, &Params::new(), &Options::default()).unwrap();
        let plan = t.plan.unwrap();
        let scan = plan
            .walk()
            .into_iter()
            .find(|p| p.operator == "NodeByLabelScan")
            .unwrap_or_else(|| panic!("{q}: no scan in\n{}", plan.render()))
            .rows
            .unwrap();
        (t.rows.len(), scan)
    };
    assert_eq!(
        scanned(
            &mut g,
            "PROFILE MATCH (p:Person) RETURN p.name AS n LIMIT 5"
        ),
        (5, 5)
    );
    assert_eq!(
        scanned(&mut g, "PROFILE MATCH (p:Person) RETURN p.name AS n"),
        (30, 30)
    );
    let (rows, scan) = scanned(
        &mut g,
        "PROFILE MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name AS n LIMIT 1",
    );
    assert_eq!(rows, 1);
    // Neo4j 5.26 (the oracle, PROFILE on this graph): 5, 30 and 10 scan rows.
    assert_eq!(scan, 10, "the scan went on past the first row");
    // The rows are the ones the unlimited query starts with.
    let all = grape::engine::run(
        &mut g,
        "MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name AS n",
        &Params::new(),
    )
    .unwrap();
    let one = grape::engine::run(
        &mut g,
        "MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name AS n LIMIT 3",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(format!("{:?}", one.rows), format!("{:?}", &all.rows[..3]));
}

#[test]
fn explain_checks_what_running_checks() {
    let g = graph(PEOPLE);
    let q = "EXPLAIN MATCH (b:Person) RETURN foo.bar(b)";
    let stmt = grape::syntax::parse(q).unwrap();
    let e = explain(&g, &stmt, q, &Params::new(), &Options::default()).unwrap_err();
    assert_eq!(e.code(), "Neo.ClientError.Statement.SyntaxError");
    assert!(
        e.message.contains("Unknown function 'foo.bar'"),
        "{}",
        e.message
    );
    let q = "MATCH (b:Person) RETURN left(b.name)";
    let stmt = grape::syntax::parse(q).unwrap();
    let e = explain(&g, &stmt, q, &Params::new(), &Options::default()).unwrap_err();
    assert_eq!(e.message, "Insufficient parameters for function 'left'");
}

/// Planning once per MATCH (not per row) gives the same rows as before: every anchor the
/// planner can choose yields the same matches.
#[test]
fn every_anchor_gives_the_same_rows() {
    let g = graph(PEOPLE);
    let queries = [
        "MATCH (p:Person {name: 'p1'})-[:KNOWS]->(f) RETURN f.name AS n",
        "MATCH (f)<-[:KNOWS]-(p:Person {name: 'p1'}) RETURN f.name AS n",
        "MATCH (p:Person {team: 'all'})-[:KNOWS]->(f:Person) RETURN f.name AS n",
        "MATCH (a:Person) MATCH (b:Person {name: a.name})-[:KNOWS]->(c) RETURN c.name AS n",
        "MATCH (a:Person {name: 'p1'}) OPTIONAL MATCH (a)<-[:KNOWS]-(b) RETURN b.name AS n",
    ];
    let want = [Some("p2"), Some("p2"), Some("p2"), Some("p2"), None];
    for (q, w) in queries.iter().zip(want) {
        let t = grape::engine::run_read(&g, q, &Params::new(), &Options::default()).unwrap();
        assert_eq!(t.rows.len(), 1, "{q}");
        let got = match &t.rows[0][0] {
            grape::value::Value::String(s) => Some(&**s),
            _ => None,
        };
        assert_eq!(got, w, "{q}");
    }
}

/// A shortest path searches from its first node and a quantified path pattern matches from its
/// leading node: how that node is found is planned once, like a fixed chain's anchor, and
/// `EXPLAIN` shows it under the path operator. Every start gives the rows a per-row choice gave.
#[test]
fn shortest_paths_and_quantified_patterns_start_where_the_planner_says() {
    let g = graph(
        "UNWIND range(1, 10) AS i CREATE (:Person {name: 'p' + i, team: 'all'});\
         MATCH (a:Person), (b:Person) WHERE b.name = 'p' + (toInteger(substring(a.name, 1)) + 1) \
         CREATE (a)-[:KNOWS]->(b);\
         CREATE INDEX person_name FOR (p:Person) ON (p.name)",
    );
    let p = plan_of(
        &g,
        "MATCH p = shortestPath((a:Person {name: 'p1'})-[:KNOWS*]->(b:Person {name: 'p5'})) RETURN p",
    );
    assert_eq!(ops(&p), ["ProduceResults", "ShortestPath", "NodeIndexSeek"]);
    assert_eq!(
        p.walk().last().unwrap().details,
        "a:Person(name) WHERE name = 'p1'"
    );
    // An unselective property: a label scan and a filter.
    let p = plan_of(
        &g,
        "MATCH p = shortestPath((a:Person {team: 'all'})-[:KNOWS*]->(b)) RETURN p",
    );
    assert_eq!(
        ops(&p),
        [
            "ProduceResults",
            "ShortestPath",
            "Filter",
            "NodeByLabelScan"
        ]
    );
    // Bound by an earlier clause: the search starts from each row's node.
    let p = plan_of(
        &g,
        "MATCH (a:Person {name: 'p1'}) MATCH p = shortestPath((a)-[:KNOWS*]->(b)) RETURN p",
    );
    assert_eq!(ops(&p), ["ProduceResults", "ShortestPath", "NodeIndexSeek"]);
    // A quantified path pattern, from its leading node (inside a leading group too).
    let p = plan_of(
        &g,
        "MATCH (a:Person {name: 'p2'}) ((x)-[:KNOWS]->(y)){1,3} (b) RETURN b",
    );
    assert_eq!(
        ops(&p),
        ["ProduceResults", "Repeat(Trail)", "NodeIndexSeek"]
    );
    let p = plan_of(&g, "MATCH ((x:Person)-[:KNOWS]->(y)){2} RETURN y");
    assert_eq!(
        ops(&p),
        ["ProduceResults", "Repeat(Trail)", "NodeByLabelScan"]
    );
    // A group that may repeat zero times starts from every node, as before. (Neo4j 5.26
    // refuses this top-level pattern at compile time: it may match no node pattern.)
    let p = plan_of(&g, "MATCH ((x:Person)-[:KNOWS]->(y)){0,2} RETURN y");
    assert_eq!(ops(&p), ["ProduceResults", "Repeat(Trail)"]);

    let rows = |q: &str| {
        let t = grape::engine::run_read(&g, q, &Params::new(), &Options::default()).unwrap();
        let mut r: Vec<String> = t.rows.iter().map(|r| format!("{:?}", r)).collect();
        r.sort();
        r
    };
    let same = [
        (
            "MATCH p = shortestPath((a:Person {name: 'p1'})-[:KNOWS*]->(b:Person {name: 'p5'})) RETURN length(p)",
            "MATCH (a:Person), (b:Person) WHERE a.name = 'p1' AND b.name = 'p5' \
             MATCH p = shortestPath((a)-[:KNOWS*]->(b)) RETURN length(p)",
        ),
        (
            "MATCH (a:Person {name: 'p2'}) ((x)-[:KNOWS]->(y)){1,3} (b) RETURN b.name",
            "MATCH (a:Person) WHERE a.name = 'p2' MATCH (a) ((x)-[:KNOWS]->(y)){1,3} (b) RETURN b.name",
        ),
        (
            "MATCH ((x:Person {team: 'all'})-[:KNOWS]->(y)){2} RETURN [n IN y | n.name]",
            "MATCH ((x)-[:KNOWS]->(y)){2} WHERE all(n IN x WHERE n:Person) RETURN [n IN y | n.name]",
        ),
    ];
    for (a, b) in same {
        let ra = rows(a);
        assert!(!ra.is_empty(), "{a}");
        assert_eq!(ra, rows(b), "{a}\n{b}");
    }
    assert_eq!(
        rows("MATCH p = shortestPath((a:Person {name: 'p1'})-[:KNOWS*]->(b:Person {name: 'p5'})) RETURN length(p)"),
        ["[Int(4)]"]
    );
}

/// Comma-separated parts run in the planner's join order: the part with the cheapest start
/// given what the parts before it bind, not the written order. The rows are the same.
#[test]
fn comma_separated_parts_are_joined_cheapest_first() {
    let g = graph(&format!(
        "{PEOPLE};CREATE (:Movie {{title: 'M'}}), (:Movie {{title: 'N'}});\
         CREATE INDEX movie_title FOR (m:Movie) ON (m.title);\
         MATCH (p:Person {{name: 'p1'}}), (m:Movie {{title: 'M'}}) CREATE (p)-[:ACTED_IN]->(m)"
    ));
    // Written order would scan ten people and expand each; the planner seeks the movie.
    let q = "MATCH (a:Person), (m:Movie {title: 'M'})<-[:ACTED_IN]-(a) RETURN a.name";
    let p = plan_of(&g, q);
    let leaves: Vec<String> = p
        .walk()
        .iter()
        .filter(|p| p.children.is_empty())
        .map(|p| format!("{} {}", p.operator, p.details))
        .collect();
    assert_eq!(
        leaves,
        ["NodeIndexSeek m:Movie(title) WHERE title = 'M'"],
        "{p:?}"
    );
    assert!(!ops(&p).contains(&"CartesianProduct".to_string()));
    // A product: the smaller side first.
    let p = plan_of(&g, "MATCH (a:Person), (m:Movie) RETURN count(*)");
    let leaves: Vec<String> = p
        .walk()
        .iter()
        .filter(|p| p.children.is_empty())
        .map(|p| p.details.clone())
        .collect();
    assert_eq!(leaves, ["m:Movie", "a:Person"]);
    let run = |q: &str| {
        let t = grape::engine::run_read(&g, q, &Params::new(), &Options::default()).unwrap();
        let mut r: Vec<String> = t.rows.iter().map(|r| format!("{r:?}")).collect();
        r.sort();
        r
    };
    assert_eq!(
        run(q),
        run("MATCH (m:Movie {title: 'M'})<-[:ACTED_IN]-(a) MATCH (a:Person) RETURN a.name")
    );
    assert_eq!(run(q).len(), 1);
    assert_eq!(
        run("MATCH (a:Person), (m:Movie) RETURN count(*)"),
        ["[Int(20)]"]
    );
    // Relationship uniqueness spans the pattern in any order.
    assert_eq!(
        run("MATCH (x)-[r1]->(y), (z)-[r2]->(m:Movie) RETURN count(*)"),
        run("MATCH (z)-[r2]->(m:Movie), (x)-[r1]->(y) RETURN count(*)")
    );
}

#[test]
fn the_cli_prints_the_plan_as_a_tree() {
    let dir = std::env::temp_dir().join(format!("grape-plan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("g.cypher");
    std::fs::write(&script, PEOPLE).unwrap();
    let grape = env!("CARGO_BIN_EXE_grape");
    let out = std::process::Command::new(grape)
        .args(["query", "--graph"])
        .arg(&script)
        .args([
            "--explain",
            "MATCH (p:Person {name: 'p1'})-[:KNOWS]->(f) RETURN f",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "ProduceResults  f  (est. 0.1)\n\
         └─ Expand(All)  (p)-[anon_0:KNOWS]->(f)  (est. 0.1)\n   \
         └─ NodeIndexSeek  p:Person(name) WHERE name = 'p1'  (est. 1)\n"
    );
    let out = std::process::Command::new(grape)
        .args(["query", "--graph"])
        .arg(&script)
        .args([
            "--profile",
            "--json",
            "MATCH (p:Person) RETURN count(p) AS n",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"], serde_json::json!([[10]]));
    assert_eq!(v["plan"]["operator"], "ProduceResults");
    assert_eq!(v["plan"]["rows"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pattern_predicates_are_planned_once_as_apply_operators() {
    let g = graph(PEOPLE);
    // A WHERE conjunct that is a pattern alone keeps the rows with (or without) a match.
    let p = plan_of(
        &g,
        "MATCH (p:Person) WHERE exists((p)-[:KNOWS]->()) AND p.name <> 'x' RETURN p",
    );
    assert_eq!(
        ops(&p),
        [
            "ProduceResults",
            "SemiApply",
            "Filter",
            "NodeByLabelScan",
            "Expand(All)",
            "Argument"
        ]
    );
    assert_eq!(p.children[0].details, "(p)-[:KNOWS]->()");
    assert_eq!(p.children[0].children[1].children[0].details, "p");
    let p = plan_of(
        &g,
        "MATCH (p:Person) WITH p WHERE NOT EXISTS { (p)-[:KNOWS]->() } RETURN p",
    );
    assert_eq!(ops(&p)[1], "AntiSemiApply");
    // In a projection: a comprehension rolls its rows up into a list, COUNT counts them.
    let p = plan_of(
        &g,
        "MATCH (p:Person) RETURN [(p)-[:KNOWS]->(f) | f.name] AS fs, COUNT { (p)--() } AS c",
    );
    let names = ops(&p);
    assert!(names.contains(&"RollUpApply".to_string()), "{names:?}");
    assert!(names.contains(&"Apply".to_string()), "{names:?}");
    let rollup = p
        .walk()
        .into_iter()
        .find(|o| o.operator == "RollUpApply")
        .unwrap();
    assert_eq!(rollup.details, "[(p)-[:KNOWS]->(f) | f.name]");
    assert_eq!(rollup.children[1].operator, "Projection");
    assert_eq!(rollup.children[1].details, "f.name");
    // The predicate's pattern is planned like a MATCH from the row's bound node: expand, then
    // check the other end.
    let p = plan_of(
        &g,
        "MATCH (p:Person) WHERE EXISTS { (p)-[:KNOWS]->(:Person {name: 'p2'}) } RETURN p",
    );
    assert_eq!(
        ops(&p)[1..],
        [
            "SemiApply",
            "NodeByLabelScan",
            "Filter",
            "Expand(All)",
            "Argument"
        ]
    );
    assert_eq!(
        p.children[0].children[1].details,
        "anon_0:Person AND anon_0.name = 'p2'"
    );
}

/// `ORDER BY … LIMIT` runs as the `Top` EXPLAIN shows: only the rows the limit keeps are
/// sorted, and they are exactly the first rows of the full sort, ties in input order (keys with
/// many ties, descending, `SKIP`, a limit past the end, a parameter, several keys, more rows than
/// one selection round holds).
#[test]
fn order_by_with_limit_keeps_the_first_rows_of_the_full_sort() {
    let mut g = Graph::new();
    let rows = |g: &mut Graph, q: &str, params: &Params| {
        let stmt = grape::syntax::parse(q).unwrap();
        execute(g, &stmt, q, params, &Options::default())
            .unwrap()
            .rows_json()
    };
    let source = "UNWIND range(1, 5000) AS i WITH i, (i * 7919) % 13 AS k, toString(i % 5) AS s";
    for (order, skip, limit) in [
        ("k", 0, 10),
        ("k DESC", 0, 10),
        ("k, s DESC", 3, 40),
        ("s, k", 100, 1500),
        ("k", 0, 1),
        ("k", 4990, 100),
        ("i DESC", 0, 3000),
    ] {
        let full = rows(
            &mut g,
            &format!("{source} RETURN i, k, s ORDER BY {order}"),
            &Params::new(),
        );
        let mut params = Params::new();
        params.insert("l".into(), grape::value::Value::Int(limit));
        let top = rows(
            &mut g,
            &format!("{source} RETURN i, k, s ORDER BY {order} SKIP {skip} LIMIT $l"),
            &params,
        );
        let want: Vec<_> = full
            .iter()
            .skip(skip as usize)
            .take(limit as usize)
            .cloned()
            .collect();
        assert_eq!(top, want, "ORDER BY {order} SKIP {skip} LIMIT {limit}");
    }
    let plan = plan_of(&g, &format!("{source} RETURN i ORDER BY k LIMIT 3"));
    assert!(ops(&plan).contains(&"Top".to_string()), "{:?}", ops(&plan));
}

/// PROFILE's plan is made before the statement runs, as Neo4j 5.26 makes it (the oracle, on
/// ten people: `NodeByLabelScan` estimated 10, counted 10, under a `DetachDelete` of 10):
/// the estimates are the graph's before the statement's writes, the counts the run's.
#[test]
fn profile_plans_before_the_run() {
    let mut g = Graph::new();
    grape::engine::run(
        &mut g,
        "UNWIND range(1, 10) AS i CREATE (:Person {name: 'p' + i})",
        &Params::new(),
    )
    .unwrap();
    let q = "PROFILE MATCH (p:Person) DETACH DELETE p";
    let stmt = grape::syntax::parse(q).unwrap();
    let t = execute(&mut g, &stmt, q, &Params::new(), &Options::default()).unwrap();
    assert_eq!(t.stats.nodes_deleted, 10);
    let plan = t.plan.unwrap();
    let op = |name: &str| {
        plan.walk()
            .into_iter()
            .find(|p| p.operator == name)
            .unwrap_or_else(|| panic!("no {name} in\n{}", plan.render()))
            .clone()
    };
    let scan = op("NodeByLabelScan");
    assert_eq!(scan.estimated_rows, 10.0, "{}", plan.render());
    assert_eq!(scan.rows, Some(10), "{}", plan.render());
    assert_eq!(op("DetachDelete").rows, Some(10), "{}", plan.render());
}

/// Under PROFILE each operator of a projection reports the rows it passed on — the
/// `Projection` or `EagerAggregation`, `Distinct`, `Sort`/`Top`, `Skip`, `Limit` and the
/// `Projection` after the cut — each equal to an independent count of the same rows.
#[test]
fn projection_operators_count_their_own_rows() {
    let mut g = graph(TEAMS);

    let keys = count(
        &mut g,
        "UNWIND range(1, 20) AS i RETURN count(DISTINCT i % 7)",
    );
    let plan = profile(
        &mut g,
        "PROFILE UNWIND range(1, 20) AS i WITH i % 7 AS k RETURN DISTINCT k ORDER BY k SKIP 2 LIMIT 3",
    );
    let text = plan.render();
    assert_eq!(rows(&plan, "Unwind", 0), Some(20), "{text}");
    assert_eq!(rows(&plan, "Projection", 0), Some(20), "{text}");
    assert_eq!(rows(&plan, "Distinct", 0), Some(keys), "{text}");
    assert_eq!(rows(&plan, "Top", 0), Some(keys.min(5)), "{text}");
    assert_eq!(rows(&plan, "Skip", 0), Some(keys.min(5) - 2), "{text}");

    let teams = count(&mut g, "MATCH (p:Person) RETURN count(DISTINCT p.team)");
    let people = count(&mut g, "MATCH (p:Person) RETURN count(*)");
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) WITH p.team AS t, count(*) AS c RETURN t, c ORDER BY c DESC, t",
    );
    let text = plan.render();
    assert_eq!(rows(&plan, "EagerAggregation", 0), Some(teams), "{text}");
    assert_eq!(rows(&plan, "Sort", 0), Some(teams), "{text}");

    // The items the sort does not read are projected after the cut, for the rows it kept.
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) RETURN p.name AS n, p.team AS t ORDER BY t LIMIT 4",
    );
    let text = plan.render();
    let projections: Vec<&Plan> = plan
        .walk()
        .into_iter()
        .filter(|p| p.operator == "Projection")
        .collect();
    assert_eq!(projections.len(), 2, "{text}");
    // Outermost first: the one after Top, then the one the sort reads.
    assert_eq!(projections[0].rows, Some(4), "{text}");
    assert_eq!(projections[1].rows, Some(people), "{text}");
    assert_eq!(rows(&plan, "Top", 0), Some(4), "{text}");
    // SKIP and LIMIT without ORDER BY: `Skip` over `Limit 3 + 4`, as Neo4j 5.26 plans and
    // counts them (the oracle: Limit 7 rows, Skip 3).
    let plan = profile(
        &mut g,
        "PROFILE UNWIND range(1, 10) AS i RETURN i SKIP 4 LIMIT 3",
    );
    let text = plan.render();
    assert_eq!(plan.children[0].operator, "Skip", "{text}");
    assert_eq!(plan.children[0].children[0].details, "3 + 4", "{text}");
    assert_eq!(rows(&plan, "Limit", 0), Some(7), "{text}");
    assert_eq!(rows(&plan, "Skip", 0), Some(3), "{text}");

    // A subquery's `Argument` produces a row per run: one per input row. (Neo4j 5.26, the
    // oracle, inlines the first subquery into a `Projection`; for the second it counts
    // Argument 5 and the inner Unwind 15 rows, as here.)
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) CALL (p) { RETURN p.team AS t } RETURN count(*) AS n",
    );
    let text = plan.render();
    assert_eq!(rows(&plan, "Argument", 0), Some(people), "{text}");
    let plan = profile(
        &mut g,
        "PROFILE UNWIND range(1, 5) AS i CALL (i) { UNWIND range(1, i) AS j RETURN j } RETURN count(*) AS n",
    );
    let text = plan.render();
    assert_eq!(rows(&plan, "Argument", 0), Some(5), "{text}");
    assert_eq!(rows(&plan, "Unwind", 1), Some(15), "{text}");
}

/// 30 people aged 1 to 30: `a` KNOWS `a + 1` unless `a` is a multiple of 3, and LIKES
/// `a + 2` when `a` is a multiple of 5.
const AGES: &str = "UNWIND range(1, 30) AS i CREATE (:Person {name: 'p' + i, team: 't' + (i % 4), age: i});\
    MATCH (a:Person), (b:Person) WHERE b.age = a.age + 1 AND a.age % 3 <> 0 CREATE (a)-[:KNOWS]->(b);\
    MATCH (a:Person), (b:Person) WHERE b.age = a.age + 2 AND a.age % 5 = 0 CREATE (a)-[:LIKES]->(b)";

/// Under PROFILE every operator of a pattern predicate's right side reports its rows — the
/// `Argument` a row per evaluation, each expansion the rows it produced, the operator on top
/// what it handed on — and so do a scan or expansion under the `Filter` of its step. Each
/// count equals an independent one; and each equals what Neo4j 5.26 reported for the same
/// query on the same graph (the oracle, recorded here as numbers).
#[test]
fn pattern_predicates_and_filtered_steps_count_each_operator() {
    let mut g = graph(AGES);
    // The operators, outermost first, with their rows.
    let counted = |plan: &Plan| -> Vec<(String, Option<u64>)> {
        plan.walk()
            .into_iter()
            .map(|p| (p.operator.clone(), p.rows))
            .collect()
    };
    let people = count(&mut g, "MATCH (p:Person) RETURN count(*)");
    let knows = count(&mut g, "MATCH ()-[:KNOWS]->() RETURN count(*)");
    let t1 = count(
        &mut g,
        "MATCH (p:Person)-[:KNOWS]->(q:Person {team: 't1'}) RETURN count(DISTINCT p)",
    );
    assert_eq!((people, knows, t1), (30, 20, 5));

    // Neo4j: SemiApply 5 over NodeByLabelScan 30; right side Filter 0 (SemiApply only asks
    // whether there is a row), Expand(All) 20, Argument 30.
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) WHERE (p)-[:KNOWS]->(:Person {team: 't1'}) RETURN p.name AS n",
    );
    let s = |op: &str, n: u64| (op.to_string(), Some(n));
    assert_eq!(
        counted(&plan),
        [
            s("ProduceResults", t1),
            s("Projection", t1),
            s("SemiApply", t1),
            s("NodeByLabelScan", people),
            s("Filter", 0),
            // Each person's one KNOWS at most: every relationship is expanded.
            s("Expand(All)", knows),
            s("Argument", people),
        ],
        "{}",
        plan.render()
    );

    // Neo4j: Filter 20 over NodeByLabelScan 30; right side Expand(All) 13, Argument 20 (it
    // has one more Filter, of relationship uniqueness, where grape's last Expand reports 0).
    let older = count(&mut g, "MATCH (p:Person) WHERE p.age > 10 RETURN count(*)");
    let older_knows = count(
        &mut g,
        "MATCH (p:Person)-[:KNOWS]->() WHERE p.age > 10 RETURN count(*)",
    );
    let two_hops = count(
        &mut g,
        "MATCH (p:Person) WHERE p.age > 10 AND (p)-[:KNOWS]->()-[:KNOWS]->() RETURN count(*)",
    );
    assert_eq!((older, older_knows, two_hops), (20, 13, 6));
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) WHERE p.age > 10 AND (p)-[:KNOWS]->()-[:KNOWS]->() RETURN p.name AS n",
    );
    assert_eq!(
        counted(&plan),
        [
            s("ProduceResults", two_hops),
            s("Projection", two_hops),
            s("SemiApply", two_hops),
            s("Filter", older),
            s("NodeByLabelScan", people),
            s("Expand(All)", 0),
            s("Expand(All)", older_knows),
            s("Argument", older),
        ],
        "{}",
        plan.render()
    );

    // A comprehension: Neo4j gives RollUpApply 24, Filter 24, NodeByLabelScan 30; right side
    // Projection 18, Filter 18, Expand(All) 20, Argument 24.
    let young = count(&mut g, "MATCH (p:Person) WHERE p.age < 25 RETURN count(*)");
    let out = count(
        &mut g,
        "MATCH (p:Person)-[:KNOWS|LIKES]->() WHERE p.age < 25 RETURN count(*)",
    );
    let kept = count(
        &mut g,
        "MATCH (p:Person)-[:KNOWS|LIKES]->(q) WHERE p.age < 25 AND q.age > 3 RETURN count(*)",
    );
    assert_eq!((young, out, kept), (24, 20, 18));
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) WHERE p.age < 25 RETURN p.name AS n, [(p)-[:KNOWS|LIKES]->(q) WHERE q.age > 3 | q.name] AS ns",
    );
    assert_eq!(
        counted(&plan),
        [
            s("ProduceResults", young),
            s("Projection", young),
            s("RollUpApply", young),
            s("Filter", young),
            s("NodeByLabelScan", people),
            s("Projection", kept),
            s("Filter", kept),
            s("Expand(All)", out),
            s("Argument", young),
        ],
        "{}",
        plan.render()
    );

    // COUNT { … } and EXISTS { … } in a projection: an Apply per row. Neo4j counts the
    // same Argument 30, Expand(All) 20 and EagerAggregation 30 for the COUNT.
    let second = count(&mut g, "MATCH ()-[:KNOWS]->()-[:KNOWS]->() RETURN count(*)");
    let liked = count(
        &mut g,
        "MATCH (p:Person) WHERE EXISTS { (p)-[:KNOWS]->()-[:LIKES]->() } RETURN count(*)",
    );
    assert_eq!((second, liked), (10, 3));
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) RETURN p.name AS n, COUNT { (p)-[:KNOWS]->()-[:KNOWS]->() } AS c, EXISTS { (p)-[:KNOWS]->()-[:LIKES]->() } AS e",
    );
    let text = plan.render();
    let applies: Vec<&Plan> = plan
        .walk()
        .into_iter()
        .filter(|p| p.operator == "Apply")
        .collect();
    assert_eq!(applies.len(), 2, "{text}");
    for a in &applies {
        assert_eq!(a.rows, Some(people), "{text}");
        let arg = a.children[1].walk().last().copied().unwrap();
        assert_eq!(
            (arg.operator.as_str(), arg.rows),
            ("Argument", Some(people)),
            "{text}"
        );
    }
    let find = |op: &str, details: &str| {
        plan.walk()
            .into_iter()
            .find(|p| p.operator == op && p.details == details)
            .unwrap_or_else(|| panic!("no {op} {details} in {text}"))
            .rows
    };
    assert_eq!(find("EagerAggregation", "count(*)"), Some(people), "{text}");
    assert_eq!(find("Limit", "1"), Some(liked), "{text}");
    // No operator of the plan is left without a count.
    for p in plan.walk() {
        assert!(p.rows.is_some(), "{} has no count in {text}", p.operator);
    }
}

/// Under PROFILE a UNION's `Union` and `Distinct`, an OPTIONAL MATCH's `Argument` and
/// `Optional`, a scan per incoming row and the statement's `EmptyResult` report their rows,
/// each equal to an independent count (and, where Neo4j 5.26 plans the same operators, to its
/// numbers on this graph: Distinct 4 over Union 8 over two Filters of 4 over scans of 30; a
/// scan on the right of a CartesianProduct 60, one per row of its left side).
#[test]
fn unions_optionals_and_per_row_scans_count_their_rows() {
    let mut g = graph(AGES);
    let people = count(&mut g, "MATCH (p:Person) RETURN count(*)");
    let young = count(&mut g, "MATCH (p:Person) WHERE p.age < 5 RETURN count(*)");
    let old = count(&mut g, "MATCH (p:Person) WHERE p.age > 26 RETURN count(*)");
    let teams = count(
        &mut g,
        "MATCH (p:Person) WHERE p.age < 5 OR p.age > 26 RETURN count(DISTINCT p.team)",
    );
    assert_eq!((people, young, old, teams), (30, 4, 4, 4));
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) WHERE p.age < 5 RETURN p.team AS t UNION MATCH (p:Person) WHERE p.age > 26 RETURN p.team AS t",
    );
    let text = plan.render();
    assert_eq!(rows(&plan, "Distinct", 0), Some(teams), "{text}");
    assert_eq!(rows(&plan, "Union", 0), Some(young + old), "{text}");
    assert_eq!(rows(&plan, "Filter", 0), Some(young), "{text}");
    assert_eq!(rows(&plan, "NodeByLabelScan", 0), Some(people), "{text}");
    assert_eq!(rows(&plan, "Filter", 1), Some(old), "{text}");
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) WHERE p.age < 5 RETURN p.team AS t UNION ALL MATCH (p:Person) WHERE p.age > 26 RETURN p.team AS t",
    );
    assert_eq!(
        rows(&plan, "Union", 0),
        Some(young + old),
        "{}",
        plan.render()
    );

    // OPTIONAL MATCH per row: an Argument per incoming row, Optional a row per match or a
    // row with nulls.
    let first = count(&mut g, "MATCH (p:Person) WHERE p.age < 8 RETURN count(*)");
    let likes = count(
        &mut g,
        "MATCH (p:Person)-[:LIKES]->() WHERE p.age < 8 RETURN count(*)",
    );
    let with_nulls = count(
        &mut g,
        "MATCH (p:Person) WHERE p.age < 8 OPTIONAL MATCH (p)-[:LIKES]->(q) RETURN count(*)",
    );
    assert_eq!((first, likes, with_nulls), (7, 1, 7));
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) WHERE p.age < 8 OPTIONAL MATCH (p)-[:LIKES]->(q) RETURN p.name AS n, q.name AS m",
    );
    let text = plan.render();
    assert_eq!(rows(&plan, "Optional", 0), Some(with_nulls), "{text}");
    assert_eq!(rows(&plan, "Argument", 0), Some(first), "{text}");
    assert_eq!(rows(&plan, "Expand(All)", 0), Some(likes), "{text}");

    // A scan on the right of a CartesianProduct, or under an Apply for an equality no index
    // serves, makes the label's rows once per row of its left side.
    let oldest = count(&mut g, "MATCH (p:Person) WHERE p.age < 3 RETURN count(*)");
    let plan = profile(
        &mut g,
        "PROFILE MATCH (a:Person), (b:Person) WHERE a.age < 3 AND b.age > 28 RETURN a.name, b.name",
    );
    assert_eq!(
        rows(&plan, "NodeByLabelScan", 1),
        Some(oldest * people),
        "{}",
        plan.render()
    );
    let plan = profile(
        &mut g,
        "PROFILE UNWIND ['p1', 'p2'] AS x MATCH (c:Person {name: x}) RETURN c.age",
    );
    let text = plan.render();
    assert_eq!(
        rows(&plan, "NodeByLabelScan", 0),
        Some(2 * people),
        "{text}"
    );
    assert_eq!(rows(&plan, "Filter", 0), Some(2), "{text}");

    // A statement that returns nothing: EmptyResult passes on nothing (the oracle: EmptyResult
    // 0 over SetProperty 1, Filter 1, NodeByLabelScan 30).
    let plan = profile(
        &mut g,
        "PROFILE MATCH (p:Person) WHERE p.age = 1 SET p.x = 1",
    );
    assert_eq!(rows(&plan, "EmptyResult", 0), Some(0), "{}", plan.render());
}

/// Consecutive MATCH clauses at the start of a query are planned together, as Neo4j plans
/// them: the clause with the cheapest start goes first (here the one that seeks a declared
/// index), a clause that reads another's variable stays after it, each keeps its own
/// relationship uniqueness, and the rows are the rows of the clauses in written order.
#[test]
fn leading_match_clauses_start_from_the_cheapest_anchor() {
    let mut g = graph(PEOPLE);
    grape::engine::run(
        &mut g,
        "MATCH (a:Person {name: 'p2'}), (b:Person {name: 'p3'}) CREATE (a)-[:KNOWS]->(b)",
        &Params::new(),
    )
    .unwrap();
    let leaf = |p: &Plan| {
        p.walk()
            .last()
            .map(|o| (o.operator.clone(), o.details.clone()))
    };
    let q = "MATCH (a:Person)-[:KNOWS]->(b:Person) MATCH (b)-[:KNOWS]->(c:Person {name: 'p3'}) RETURN a.name, c.name";
    let p = plan_of(&g, q);
    assert_eq!(
        leaf(&p),
        Some((
            "NodeIndexSeek".to_string(),
            "c:Person(name) WHERE name = 'p3'".to_string()
        )),
        "{}",
        p.render()
    );
    // The same rows as the clauses one after the other (a WITH between them keeps the order).
    let rows = |g: &mut Graph, q: &str| {
        let mut r: Vec<String> = grape::engine::run(g, q, &Params::new())
            .unwrap()
            .rows
            .iter()
            .map(|r| format!("{r:?}"))
            .collect();
        r.sort();
        r
    };
    let written = "MATCH (a:Person)-[:KNOWS]->(b:Person) WITH * MATCH (b)-[:KNOWS]->(c:Person {name: 'p3'}) RETURN a.name, c.name";
    assert_eq!(rows(&mut g, q), rows(&mut g, written));
    assert_eq!(rows(&mut g, q).len(), 1);
    // In a subquery run per row, with the order chosen once for the statement.
    let sub = "UNWIND ['p3', 'p2', 'p3'] AS n CALL (n) { MATCH (a:Person)-[:KNOWS]->(b:Person) MATCH (b)-[:KNOWS]->(c:Person {name: n}) RETURN a.name AS an } RETURN n, an";
    let sub_written = "UNWIND ['p3', 'p2', 'p3'] AS n CALL (n) { MATCH (a:Person)-[:KNOWS]->(b:Person) WITH * MATCH (b)-[:KNOWS]->(c:Person {name: n}) RETURN a.name AS an } RETURN n, an";
    assert_eq!(rows(&mut g, sub), rows(&mut g, sub_written));
    assert_eq!(rows(&mut g, sub).len(), 2);
    // Uniqueness per clause: the same relationship may match in both.
    let same = count(
        &mut g,
        "MATCH (a:Person)-[r:KNOWS]->(b) MATCH (a)-[s:KNOWS]->(b:Person {name: 'p2'}) RETURN count(*)",
    );
    assert_eq!(same, 1);
    // A clause that reads another's variable stays after it.
    let p = plan_of(
        &g,
        "MATCH (a:Person)-[:KNOWS]->(b) MATCH (c:Person {name: b.name}) RETURN c.name",
    );
    let apply = p
        .walk()
        .into_iter()
        .find(|o| o.operator == "Apply")
        .unwrap_or_else(|| panic!("{}", p.render()));
    // (The left side starts from a scan of `KNOWS`, the oracle's plan on this graph.)
    assert_eq!(
        ops(&apply.children[0]),
        ["Filter", "DirectedRelationshipTypeScan"],
        "{}",
        p.render()
    );
    assert_eq!(
        apply.children[1].details,
        "c:Person(name) WHERE name = b.name"
    );
    assert_eq!(
        count(
            &mut g,
            "MATCH (a:Person)-[:KNOWS]->(b) MATCH (c:Person {name: b.name}) RETURN count(*)"
        ),
        2
    );
}

/// A chain starts from a scan of one relationship type where Neo4j's planner starts it there,
/// and the scan gives Neo4j's rows in Neo4j's order and PROFILE counts. Every expected value
/// below is the Neo4j 5.26 oracle's (`scripts/neo4j-oracle`), asked on the same graphs.
#[test]
fn relationship_type_scans_start_chains_where_neo4j_starts_them() {
    // 30 people; 20 `KNOWS` (a → a + 1 unless a % 3 = 0), 5 `LIKES` (a → a + 2 when a % 5 = 0).
    let people = "UNWIND range(1, 30) AS i CREATE (:Person {name: 'p' + i, age: i});\
        MATCH (a:Person), (b:Person) WHERE b.age = a.age + 1 AND a.age % 3 <> 0 CREATE (a)-[:KNOWS]->(b);\
        MATCH (a:Person), (b:Person) WHERE b.age = a.age + 2 AND a.age % 5 = 0 CREATE (a)-[:LIKES]->(b)";
    let mut g = graph(people);
    let starts = |g: &Graph, q: &str| ops(&plan_of(g, q)).last().cloned().unwrap();
    for (q, neo4j) in [
        // 20 relationships against 30 nodes: scanned when directed; 40 rows undirected: not.
        (
            "MATCH (a:Person)-[:KNOWS]->(b:Person) RETURN a, b",
            "DirectedRelationshipTypeScan",
        ),
        (
            "MATCH (a:Person)-[:KNOWS]-(b:Person) RETURN a, b",
            "NodeByLabelScan",
        ),
        // Rather than all nodes, always.
        (
            "MATCH (a)-[:KNOWS]-(b) RETURN a, b",
            "UndirectedRelationshipTypeScan",
        ),
        (
            "MATCH (a:Person {age: 3})-[:LIKES]-(b) RETURN a, b",
            "UndirectedRelationshipTypeScan",
        ),
        // Several types: a union, at twice the cost; any type: all relationships.
        (
            "MATCH (a:Person)-[:LIKES|KNOWS]-(b) RETURN a, b",
            "NodeByLabelScan",
        ),
        (
            "MATCH (a:Person)-[:LIKES|KNOWS]->(b) RETURN a, b",
            "NodeByLabelScan",
        ),
        (
            "MATCH (p:Person)-->(f) RETURN f",
            "DirectedAllRelationshipsScan",
        ),
        ("MATCH (p)--(f) RETURN f", "UndirectedAllRelationshipsScan"),
        // Not a variable length.
        (
            "MATCH (a:Person)-[:LIKES*1..2]-(b) RETURN a, b",
            "NodeByLabelScan",
        ),
    ] {
        assert_eq!(starts(&g, q), neo4j, "{q}\n{}", plan_of(&g, q).render());
    }
    // Fewer relationships than people: a union of types is scanned too (the oracle, on ten
    // people and one `KNOWS`).
    let g10 = graph(
        "UNWIND range(1, 10) AS i CREATE (:Person {name: 'p' + i});\
         MATCH (a:Person {name: 'p1'}), (b:Person {name: 'p2'}) CREATE (a)-[:KNOWS]->(b)",
    );
    let q = "MATCH (p:Person)-[:KNOWS|LIKES]->(f) RETURN f.name AS n";
    assert_eq!(starts(&g10, q), "DirectedUnionRelationshipTypesScan");
    let q = "MATCH (a:Person)-[:NOPE]->(b) RETURN a";
    assert_eq!(starts(&g10, q), "DirectedRelationshipTypeScan");
    let q = "MATCH (p:Person)-[:KNOWS|LIKES]-(f) RETURN f";
    assert_eq!(starts(&g10, q), "NodeByLabelScan");
    let q = "MATCH (p)-[:KNOWS|LIKES]-(f) RETURN f";
    assert_eq!(starts(&g10, q), "UndirectedUnionRelationshipTypesScan");
    let q = "MATCH (p:Person)-[:KNOWS]-(f) RETURN f";
    assert_eq!(starts(&g10, q), "UndirectedRelationshipTypeScan");
    // PROFILE: the scan's rows (both ways round) and its filter's.
    let p = profile(
        &mut g,
        "PROFILE MATCH (a:Person)-[r:LIKES]-(b:Person) RETURN a.age, b.age",
    );
    assert_eq!(
        ops(&p),
        [
            "ProduceResults",
            "Projection",
            "Filter",
            "UndirectedRelationshipTypeScan"
        ],
        "{}",
        p.render()
    );
    assert_eq!(rows(&p, "UndirectedRelationshipTypeScan", 0), Some(10));
    assert_eq!(rows(&p, "Filter", 0), Some(10));

    // Each relationship in id order, start first; a self-loop once.
    let mut g = graph(
        "CREATE (a:P {i: 1}), (b:P {i: 2}), (c:P {i: 3}), (a)-[:L {k: 1}]->(b), \
         (b)-[:L {k: 2}]->(b), (c)-[:L {k: 3}]->(a), (a)-[:M]->(c)",
    );
    let table = |g: &mut Graph, q: &str| -> String {
        format!(
            "{:?}",
            grape::engine::run(g, q, &Params::new()).unwrap().rows
        )
        .replace("Int(", "")
        .replace(')', "")
    };
    for (q, neo4j) in [
        (
            "MATCH (x)-[r:L]-(y) RETURN x.i, r.k, y.i",
            "[[1, 1, 2], [2, 1, 1], [2, 2, 2], [3, 3, 1], [1, 3, 3]]",
        ),
        (
            "MATCH (x)<-[r:L]-(y) RETURN x.i, r.k, y.i",
            "[[2, 1, 1], [2, 2, 2], [1, 3, 3]]",
        ),
        ("MATCH (x)-[r:L]-(x) RETURN x.i, r.k", "[[2, 2]]"),
    ] {
        assert_eq!(table(&mut g, q), neo4j, "{q}");
    }
    // The cheaper type is scanned, the rest of the chain expanded from its two nodes.
    let q = "MATCH (x)-[r:L]-(y)-[s:M]-(z) RETURN x.i, r.k, y.i, z.i";
    let p = plan_of(&g, q);
    assert_eq!(
        ops(&p),
        [
            "ProduceResults",
            "Projection",
            "Expand(All)",
            "UndirectedRelationshipTypeScan"
        ]
    );
    assert_eq!(p.walk().last().unwrap().details, "(y)-[s:M]-(z)");
    let mut found: Vec<String> = table(&mut g, q)
        .trim_matches(['[', ']'])
        .split("], [")
        .map(str::to_string)
        .collect();
    found.sort();
    assert_eq!(found, ["1, 3, 3, 1", "2, 1, 1, 3", "3, 3, 1, 3"]);
    // A directed scan is written from its start node; a loop's two sides filtered equal.
    let p = plan_of(&g, "MATCH (x)<-[r:L]-(y) RETURN x");
    assert_eq!(p.walk().last().unwrap().details, "(y)-[r:L]->(x)");
    let p = profile(&mut g, "PROFILE MATCH (x)-[r:L]-(x) RETURN x.i, r.k");
    assert_eq!(rows(&p, "UndirectedRelationshipTypeScan", 0), Some(5));
    assert_eq!(rows(&p, "Filter", 0), Some(1));
}

/// `ORDER BY … LIMIT` after a MATCH: where the sort keys read one node and sorting that node's
/// candidates before the expansions costs less than matching everything and keeping the top
/// rows, the chain starts from that node, sorts, expands in that order and stops at the limit
/// (`Sort` below the expansions, `Limit` above), as Neo4j plans it. Shapes, answers and the
/// PROFILE counts below are the oracle's (Neo4j 5.26 on the demo graph, `book_isbn` declared).
#[test]
fn order_by_limit_sorts_below_the_expansions_where_neo4j_does() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut g = grape::engine::load_graph(
        root.join("corpora/demo/graph.json").to_str().unwrap(),
        Default::default(),
    )
    .unwrap();
    grape::engine::run(
        &mut g,
        "CREATE INDEX book_isbn FOR (b:Book) ON (b.isbn)",
        &Params::new(),
    )
    .unwrap();
    let cases = [
        (
            "MATCH (:Member {name: 'Dev Iveson'})-[:FRIEND_OF]-(:Member)-[:BORROWED]->(b:Book) \
             RETURN b.title ORDER BY b.rating DESC LIMIT 1",
            "ProduceResults <- Projection <- Limit <- Filter <- Expand(All) <- Filter <- \
             Expand(All) <- Sort <- Projection <- NodeByLabelScan",
            r#"[[String("The Salt Letters")]]"#,
        ),
        (
            "MATCH (m:Member)-[:BORROWED]->(b:Book) RETURN m.name, b.title ORDER BY m.name LIMIT 3",
            "ProduceResults <- Projection <- Limit <- Filter <- Expand(All) <- Sort <- \
             Projection <- NodeByLabelScan",
            r#"[[String("Alma Orme"), String("The Crimson Archive")], [String("Alma Orme"), String("The Amber Orchard")], [String("Alma Orme"), String("The Hollow Garden")]]"#,
        ),
        // One author's few books: matched, then the top one kept.
        (
            "MATCH (a:Author {name: 'Ines Ingram'})-[:WROTE]->(b:Book) \
             RETURN b.title ORDER BY b.rating DESC LIMIT 1",
            "ProduceResults <- Projection <- Top <- Projection <- Filter <- Expand(All) <- \
             Filter <- NodeByLabelScan",
            r#"[[String("The Iron Letters")]]"#,
        ),
    ];
    for (q, neo4j, answer) in cases {
        assert_eq!(plan_of(&g, q).shape(), neo4j, "{q}");
        let t = grape::engine::run(&mut g, q, &Params::new()).unwrap();
        assert_eq!(format!("{:?}", t.rows), answer, "{q}");
    }
    // PROFILE: the scan and the keys' projection count every book, the sort the books it
    // handed on before the limit had its row (Neo4j: 72, 72, 2).
    let p = profile(&mut g, &format!("PROFILE {}", cases[0].0));
    assert_eq!(rows(&p, "NodeByLabelScan", 0), Some(72), "{}", p.render());
    assert_eq!(rows(&p, "Projection", 1), Some(72), "{}", p.render());
    assert_eq!(rows(&p, "Sort", 0), Some(2), "{}", p.render());
    assert_eq!(rows(&p, "Limit", 0), Some(1), "{}", p.render());
}
