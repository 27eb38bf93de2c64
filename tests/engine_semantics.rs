//! Engine semantics on small graphs built with Cypher, and the resource limits.

mod common;

use common::{graph, rows};
use grape::engine::{run, run_with, ErrorKind, Limits, Options, Params};
use grape::graph::Graph;
use grape::value::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

const PEOPLE: &str = "
CREATE (a:Person {name: 'Ann', age: 30}), (b:Person {name: 'Bob', age: 25}),
       (c:Person {name: 'Cid'}), (d:City {name: 'Oslo'}),
       (a)-[:KNOWS {since: 2010}]->(b), (b)-[:KNOWS {since: 2015}]->(c),
       (a)-[:LIVES_IN]->(d), (b)-[:LIVES_IN]->(d);
";

#[test]
fn match_directions_and_relationship_properties() {
    let mut g = graph(PEOPLE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a)-[:KNOWS]->(b) RETURN a.name, b.name ORDER BY a.name"
        ),
        ["'Ann' | 'Bob'", "'Bob' | 'Cid'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a)<-[:KNOWS]-(b) RETURN a.name ORDER BY a.name"
        ),
        ["'Bob'", "'Cid'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a {name: 'Bob'})-[:KNOWS]-(b) RETURN b.name ORDER BY b.name"
        ),
        ["'Ann'", "'Cid'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH ()-[r:KNOWS WHERE r.since > 2012]->() RETURN r.since"
        ),
        ["2015"]
    );
    assert_eq!(
        rows(&mut g, "MATCH (p:Person WHERE p.age IS NULL) RETURN p.name"),
        ["'Cid'"]
    );
}

#[test]
fn relationship_uniqueness_and_repeatable_elements() {
    let mut g = graph("CREATE (a:N)-[:R]->(b:N)");
    // The same relationship cannot be used twice in one MATCH …
    assert_eq!(
        rows(&mut g, "MATCH (x)-[:R]-(y)-[:R]-(z) RETURN count(*)"),
        ["0"]
    );
    // … unless REPEATABLE ELEMENTS says so.
    assert_eq!(
        rows(
            &mut g,
            "CYPHER 25 MATCH REPEATABLE ELEMENTS (x)-[:R]-(y)-[:R]-(z) RETURN count(*)"
        ),
        ["2"]
    );
    // Across two MATCH clauses it may repeat.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x)-[:R]-(y) MATCH (y)-[:R]-(z) RETURN count(*)"
        ),
        ["2"]
    );
}

#[test]
fn variable_length_paths() {
    let mut g =
        graph("CREATE (a:N {i: 1})-[:R]->(b:N {i: 2})-[:R]->(c:N {i: 3})-[:R]->(d:N {i: 4})");
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a:N {i: 1})-[:R*]->(x) RETURN x.i ORDER BY x.i"
        ),
        ["2", "3", "4"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a:N {i: 1})-[:R*2..3]->(x) RETURN x.i ORDER BY x.i"
        ),
        ["3", "4"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a:N {i: 1})-[:R*0..1]->(x) RETURN x.i ORDER BY x.i"
        ),
        ["1", "2"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = (a:N {i: 1})-[rs:R*3]->(x) RETURN length(p), size(rs), x.i"
        ),
        ["3 | 3 | 4"]
    );
    assert_eq!(
        rows(&mut g, "MATCH (x:N {i: 4})<-[:R*2]-(y) RETURN y.i"),
        ["2"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = shortestPath((a:N {i: 1})-[*]-(d:N {i: 4})) RETURN [n IN nodes(p) | n.i]"
        ),
        ["[1, 2, 3, 4]"]
    );
}

#[test]
fn optional_match_gives_nulls() {
    let mut g = graph(PEOPLE);
    assert_eq!(
        rows(&mut g, "MATCH (p:Person) OPTIONAL MATCH (p)-[:LIVES_IN]->(c) RETURN p.name, c.name ORDER BY p.name"),
        ["'Ann' | 'Oslo'", "'Bob' | 'Oslo'", "'Cid' | null"]
    );
}

#[test]
fn aggregation_with_implicit_grouping() {
    let mut g = graph(PEOPLE);
    assert_eq!(
        rows(&mut g, "MATCH (p:Person)-[:LIVES_IN]->(c) RETURN c.name, count(*) AS n, collect(p.name) AS who"),
        ["'Oslo' | 2 | ['Ann', 'Bob']"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Person) RETURN count(p.age), avg(p.age), sum(p.age), min(p.age), max(p.age)"
        ),
        ["2 | 27.5 | 55 | 25 | 30"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Nobody) RETURN count(*), collect(p), sum(p.x)"
        ),
        ["0 | [] | 0"]
    );
    assert_eq!(
        rows(&mut g, "MATCH (p:Nobody) RETURN p.x, count(*)"),
        Vec::<String>::new()
    );
    assert_eq!(
        rows(
            &mut g,
            "UNWIND [1, 1, 2, null] AS x RETURN count(DISTINCT x), count(x), count(*)"
        ),
        ["2 | 3 | 4"]
    );
    assert_eq!(
        rows(
            &mut g,
            "UNWIND [1, 2, 3, 4] AS x RETURN x % 2 AS k, sum(x) + 1 AS s ORDER BY k"
        ),
        ["0 | 7", "1 | 5"]
    );
    assert_eq!(rows(&mut g, "UNWIND [1.0, 2.0, 3.0, 4.0] AS x RETURN percentileCont(x, 0.5), percentileDisc(x, 0.5), stDev(x)"), ["2.5 | 2.0 | 1.2909944487358056"]);
}

#[test]
fn order_skip_limit_and_distinct() {
    let mut g = graph(PEOPLE);
    assert_eq!(
        rows(&mut g, "MATCH (p:Person) RETURN p.name ORDER BY p.age DESC"),
        ["'Cid'", "'Ann'", "'Bob'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Person) RETURN p.name ORDER BY p.age SKIP 1 LIMIT 1"
        ),
        ["'Ann'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "UNWIND [3, 1, 3, 2] AS x RETURN DISTINCT x ORDER BY x"
        ),
        ["1", "2", "3"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Person) WITH p ORDER BY p.name LIMIT 2 RETURN collect(p.name)"
        ),
        ["['Ann', 'Bob']"]
    );
}

#[test]
fn with_where_unwind_and_union() {
    let mut g = graph(PEOPLE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Person) WITH p.name AS n WHERE n STARTS WITH 'B' RETURN n"
        ),
        ["'Bob'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "UNWIND [[1, 2], [3]] AS l UNWIND l AS x RETURN sum(x)"
        ),
        ["6"]
    );
    assert_eq!(rows(&mut g, "RETURN 1 AS x UNION RETURN 1 AS x"), ["1"]);
    assert_eq!(
        rows(&mut g, "RETURN 1 AS x UNION ALL RETURN 1 AS x"),
        ["1", "1"]
    );
}

#[test]
fn expressions_follow_cypher_rules() {
    let mut g = Graph::new();
    assert_eq!(rows(&mut g, "RETURN 1 = 1.0, null = null, [1, null] = [1, 2], 1 < 'a', 2 ^ 3, 7 / 2, 7 % 3, -7 / 2.0"), ["true | null | null | null | 8.0 | 3 | 1 | -3.5"]);
    assert_eq!(
        rows(
            &mut g,
            "RETURN true AND null, false AND null, true OR null, null XOR true, NOT null"
        ),
        ["null | false | true | null | null"]
    );
    assert_eq!(
        rows(
            &mut g,
            "RETURN 'ab' + 1, [1] + 2, 'x' IN ['x'], 3 IN [1, null], 1 < 2 < 3, 3 > 2 > 2"
        ),
        ["'ab1' | [1, 2] | true | null | true | false"]
    );
    assert_eq!(rows(&mut g, "RETURN [x IN range(1, 5) WHERE x % 2 = 1 | x * 10], reduce(s = 0, x IN [1, 2, 3] | s + x)"), ["[10, 30, 50] | 6"]);
    assert_eq!(rows(&mut g, "RETURN all(x IN [1, 2] WHERE x > 0), any(x IN [] WHERE true), none(x IN [1] WHERE x = 2), single(x IN [1, 2] WHERE x = 2)"), ["true | false | true | true"]);
    assert_eq!(rows(&mut g, "RETURN CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END, CASE WHEN false THEN 1 ELSE 2 END"), ["'two' | 2"]);
    assert_eq!(rows(&mut g, "RETURN [1, 2, 3][-1], [1, 2, 3][1..], {a: {b: 1}}.a.b, 'Hello' =~ 'H.*o', toUpper('x'), substring('hello', 1, 3)"), ["3 | [2, 3] | 1 | true | 'X' | 'ell'"]);
    // round() without a mode is Java's Math.round, half up towards positive infinity (the
    // Neo4j 5.26 oracle: round(-2.5) = -2.0; with precision 1 and up, half away from zero).
    assert_eq!(rows(&mut g, "RETURN round(2.5), round(-2.5), round(3.14159, 2), toInteger('42'), toFloat('1.5'), size('héllo')"), ["3.0 | -2.0 | 3.14 | 42 | 1.5 | 5"]);
    assert_eq!(rows(&mut g, "RETURN round(-2.55, 1), round(-2.5, 0), round(-2.5, 0, 'HALF_UP'), round(-0.2), round(1e300), toString(1e20), 'v' + 1.0E7"), ["-2.6 | -2.0 | -3.0 | 0.0 | 9.223372036854776e18 | '1.0E20' | 'v1.0E7'"]);
    assert_eq!(rows(&mut g, "RETURN 1 IS :: INTEGER, 'a' IS :: INTEGER, null IS :: INTEGER NOT NULL, [1] IS :: LIST<INTEGER>"), ["true | false | false | true"]);
}

#[test]
fn pattern_predicates_and_subqueries() {
    let mut g = graph(PEOPLE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Person) WHERE (p)-[:LIVES_IN]->() RETURN p.name ORDER BY p.name"
        ),
        ["'Ann'", "'Bob'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Person) WHERE NOT EXISTS { (p)-[:KNOWS]->() } RETURN p.name"
        ),
        ["'Cid'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Person) RETURN p.name, COUNT { (p)-[:KNOWS]-() } AS k ORDER BY p.name"
        ),
        ["'Ann' | 1", "'Bob' | 2", "'Cid' | 1"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Person {name: 'Ann'}) RETURN [(p)-[:KNOWS]->(f) | f.name]"
        ),
        ["['Bob']"]
    );
    assert_eq!(rows(&mut g, "MATCH (c:City) RETURN COLLECT { MATCH (p)-[:LIVES_IN]->(c) RETURN p.name ORDER BY p.name }"), ["['Ann', 'Bob']"]);
    assert_eq!(rows(&mut g, "MATCH (c:City) CALL (c) { MATCH (p)-[:LIVES_IN]->(c) RETURN count(p) AS n } RETURN c.name, n"), ["'Oslo' | 2"]);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (p:Person {name: 'Ann'}) RETURN p {.name, .age, tag: 'x'}"
        ),
        ["{age: 30, name: 'Ann', tag: 'x'}"]
    );
}

#[test]
fn procedures_describe_the_schema() {
    let mut g = graph(PEOPLE);
    assert_eq!(
        rows(&mut g, "CALL db.labels() YIELD label RETURN label"),
        ["'City'", "'Person'"]
    );
    assert_eq!(
        rows(&mut g, "CALL db.relationshipTypes()"),
        ["'KNOWS'", "'LIVES_IN'"]
    );
    let t = run(
        &mut g,
        "CALL apoc.meta.schema() YIELD value RETURN value",
        &Params::new(),
    )
    .unwrap();
    let Value::Map(m) = &t.rows[0][0] else {
        panic!("map expected")
    };
    assert!(m.contains_key("Person") && m.contains_key("KNOWS"));
}

#[test]
fn writes_count_updates_and_roll_back_on_error() {
    let mut g = Graph::new();
    let t = run(
        &mut g,
        "CREATE (a:A {x: 1})-[:R]->(b:B) RETURN a.x",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(
        (
            t.stats.nodes_created,
            t.stats.relationships_created,
            t.stats.properties_set,
            t.stats.labels_added
        ),
        (2, 1, 1, 2)
    );
    let t = run(
        &mut g,
        "MATCH (a:A) SET a.y = 2, a:C REMOVE a.x RETURN a.y",
        &Params::new(),
    )
    .unwrap();
    assert_eq!((t.stats.properties_set, t.stats.labels_added), (2, 1));
    assert_eq!(
        rows(
            &mut g,
            "MERGE (a:A {y: 2}) ON MATCH SET a.seen = true RETURN a.seen"
        ),
        ["true"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MERGE (z:Z {k: 1}) ON CREATE SET z.new = true RETURN z.new"
        ),
        ["true"]
    );
    // Deleting a connected node without DETACH fails, and the statement's other writes vanish.
    let err = run(
        &mut g,
        "CREATE (:Temp) WITH 1 AS one MATCH (a:A) DELETE a",
        &Params::new(),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::ConstraintVerificationFailed);
    assert_eq!(rows(&mut g, "MATCH (t:Temp) RETURN count(t)"), ["0"]);
    let t = run(&mut g, "MATCH (a:A) DETACH DELETE a", &Params::new()).unwrap();
    assert_eq!(
        (t.stats.nodes_deleted, t.stats.relationships_deleted),
        (1, 1)
    );
    run(
        &mut g,
        "UNWIND [1, 2, 3] AS i FOREACH (x IN [i] | CREATE (:T {i: x}))",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(rows(&mut g, "MATCH (t:T) RETURN sum(t.i)"), ["6"]);
}

#[test]
fn errors_are_typed() {
    let mut g = Graph::new();
    let kind = |g: &mut Graph, q: &str| run(g, q, &Params::new()).unwrap_err().kind;
    assert_eq!(kind(&mut g, "RETURN x"), ErrorKind::SyntaxError);
    assert_eq!(kind(&mut g, "RETURN 1 / 0"), ErrorKind::ArithmeticError);
    assert_eq!(
        kind(&mut g, "RETURN 9223372036854775807 + 1"),
        ErrorKind::ArithmeticError
    );
    // A literal of the wrong type is caught at compile time, and so is a variable whose type
    // Neo4j's checker knows; a stored value at runtime.
    assert_eq!(kind(&mut g, "RETURN 'a' - 1"), ErrorKind::SyntaxError);
    assert_eq!(
        kind(&mut g, "WITH 'a' AS s RETURN s - 1"),
        ErrorKind::SyntaxError
    );
    assert_eq!(
        kind(&mut g, "CREATE (n {s: 'a'}) RETURN n.s - 1"),
        ErrorKind::TypeError
    );
    assert_eq!(kind(&mut g, "RETURN $missing"), ErrorKind::ParameterMissing);
    assert_eq!(
        kind(&mut g, "RETURN nosuchfunction(1)"),
        ErrorKind::SyntaxError
    );
    assert_eq!(
        kind(&mut g, "MATCH (n) RETURN n LIMIT -1"),
        ErrorKind::SyntaxError
    );
    assert_eq!(
        kind(&mut g, "RETURN 9223372036854775808"),
        ErrorKind::SyntaxError
    );
    let mut p = Params::new();
    p.insert("name".into(), Value::from("Ann"));
    assert_eq!(
        run(&mut g, "RETURN $name AS n", &p).unwrap().rows[0][0].as_str(),
        Some("Ann")
    );
}

#[test]
fn columns_are_named_as_neo4j_names_them() {
    let mut g = graph(PEOPLE);
    let t = run(
        &mut g,
        "MATCH (x0:Person) RETURN x0.name, count(*) AS n, x0",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(t.columns, ["x0.name", "n", "x0"]);
    let j = t.to_json();
    assert!(j["rows"][0][2]["~node"]["labels"][0] == "Person");
}

fn limits(rows: usize) -> Options {
    Options {
        limits: Limits {
            timeout: Some(Duration::from_secs(20)),
            max_rows: rows,
            max_intermediate_rows: rows,
            max_var_length: 50,
            ..Limits::default()
        },
        ..Default::default()
    }
}

#[test]
fn unbounded_paths_on_a_dense_graph_hit_a_limit() {
    // A complete directed graph on 12 nodes has astronomically many simple paths.
    let mut g = graph("UNWIND range(1, 12) AS i CREATE (:K {i: i})");
    run(
        &mut g,
        "MATCH (a:K), (b:K) WHERE a <> b CREATE (a)-[:E]->(b)",
        &Params::new(),
    )
    .unwrap();
    let err = run_with(
        &mut g,
        "MATCH p = ()-[*]-() RETURN p",
        &Params::new(),
        &limits(100_000),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded, "{err}");
}

#[test]
fn a_huge_unwind_hits_a_limit() {
    let mut g = Graph::new();
    let err = run_with(
        &mut g,
        "UNWIND range(1, 1000000000) AS x RETURN x",
        &Params::new(),
        &limits(100_000),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded, "{err}");
}

#[test]
fn a_large_cartesian_product_hits_a_limit() {
    let mut g = graph("UNWIND range(1, 1000) AS i CREATE (:A {i: i}), (:B {i: i}), (:C {i: i})");
    let err = run_with(
        &mut g,
        "MATCH (a:A), (b:B), (c:C) RETURN count(*)",
        &Params::new(),
        &limits(100_000),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded, "{err}");
}

#[test]
fn a_timeout_and_cancellation_stop_a_query() {
    let mut g = graph("UNWIND range(1, 12) AS i CREATE (:K {i: i})");
    run(
        &mut g,
        "MATCH (a:K), (b:K) WHERE a <> b CREATE (a)-[:E]->(b)",
        &Params::new(),
    )
    .unwrap();
    let mut opts = limits(usize::MAX);
    opts.limits.max_var_length = 10_000;
    opts.limits.timeout = Some(Duration::from_millis(200));
    let err = run_with(
        &mut g,
        "MATCH p = ()-[*]-() RETURN count(p)",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded, "{err}");

    let flag = Arc::new(AtomicBool::new(false));
    let mut opts = limits(usize::MAX);
    opts.limits.timeout = None;
    opts.limits.max_var_length = 10_000;
    opts.cancel = Some(flag.clone());
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, Ordering::Relaxed);
    });
    let err = run_with(
        &mut g,
        "MATCH p = ()-[*]-() RETURN count(p)",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    setter.join().unwrap();
    assert_eq!(err.kind, ErrorKind::Cancelled, "{err}");
}

#[test]
fn json_fixture_and_script_graphs_run_the_same_query() {
    let mut scripted = graph(PEOPLE);
    let fixture = grape::graph::import::graph_to_json(&scripted);
    let mut loaded =
        grape::graph::import::parse_json_fixture(&fixture.to_string(), "people.json").unwrap();
    let q = "MATCH (a)-[k:KNOWS]->(b) RETURN a.name, k.since, b.name ORDER BY k.since";
    assert_eq!(rows(&mut scripted, q), rows(&mut loaded, q));
}

#[test]
fn limit_stops_matching_early() {
    // 1,000 × 1,000 = a million combinations; the intermediate-row limit is 100, so only a
    // MATCH that stops once LIMIT's rows exist can answer.
    let mut g = graph("UNWIND range(1, 1000) AS i CREATE (:A {i: i}), (:B {i: i})");
    let opts = limits(100);
    let t = run_with(
        &mut g,
        "MATCH (a:A), (b:B) RETURN a.i, b.i LIMIT 3",
        &Params::new(),
        &opts,
    )
    .unwrap();
    assert_eq!(t.rows.len(), 3);
    let t = run_with(
        &mut g,
        "MATCH (a:A), (b:B) WITH a, b SKIP 2 LIMIT 5 RETURN count(*)",
        &Params::new(),
        &opts,
    )
    .unwrap();
    assert!(matches!(t.rows[0][0], Value::Int(5)));
    // With ORDER BY every row is needed: the limit error shows the early stop is not applied.
    let err = run_with(
        &mut g,
        "MATCH (a:A), (b:B) RETURN a.i ORDER BY a.i LIMIT 3",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded);
}

#[test]
fn load_csv_reads_local_files_with_and_without_headers() {
    let dir = std::env::temp_dir().join(format!("grape-load-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("people.csv"), "name,age\nAnn,30\nBob,\n").unwrap();
    std::fs::write(dir.join("plain.csv"), "a;b\nc;d\n").unwrap();
    let mut g = Graph::new();
    let opts = Options {
        import_dir: Some(dir.clone()),
        ..Default::default()
    };
    let t = run_with(
        &mut g,
        "LOAD CSV WITH HEADERS FROM 'file:///people.csv' AS row CREATE (p:Person {name: row.name, age: toInteger(row.age)}) RETURN p.name, p.age",
        &Params::new(),
        &opts,
    )
    .unwrap();
    assert_eq!(t.rows.len(), 2);
    assert!(t.rows[1][1].is_null(), "an empty field is null");
    let t = run_with(
        &mut g,
        "LOAD CSV FROM 'plain.csv' AS r FIELDTERMINATOR ';' RETURN r",
        &Params::new(),
        &opts,
    )
    .unwrap();
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.rows[0][0].to_string(), "['a', 'b']");
    let err = run_with(
        &mut g,
        "LOAD CSV FROM 'https://example.com/x.csv' AS r RETURN r",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    assert!(err.message.contains("local files only"), "{err}");
    let err = run_with(
        &mut g,
        "LOAD CSV FROM 'file:///missing.csv' AS r RETURN r",
        &Params::new(),
        &opts,
    )
    .unwrap_err();
    assert!(err.message.contains("missing.csv"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shortest_path_as_an_expression() {
    let mut g = graph("CREATE (a:N {i: 1})-[:R]->(b:N {i: 2})-[:R]->(c:N {i: 3}), (a)-[:R]->(c)");
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a:N {i: 1}), (c:N {i: 3}) RETURN length(shortestPath((a)-[*]->(c)))"
        ),
        ["1"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a:N {i: 1}), (c:N {i: 3}) RETURN size(allShortestPaths((a)-[*]->(c)))"
        ),
        ["1"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (a:N {i: 3}), (c:N {i: 1}) RETURN shortestPath((a)-[*]->(c)) IS NULL"
        ),
        ["true"]
    );
}

#[test]
fn aggregates_in_the_list_of_a_comprehension_belong_to_the_group() {
    let mut g = Graph::new();
    // With no match at all, the one group of an aggregation still answers.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (n) OPTIONAL MATCH (n)-[r]->(m) RETURN size([x IN collect(r) WHERE x <> null]) AS cn"
        ),
        ["0"]
    );
    assert_eq!(
        rows(
            &mut g,
            "UNWIND [1, 2, -1] AS x RETURN all(ok IN collect(x > 0) WHERE ok) AS okay, \
             reduce(s = sum(x), y IN collect(x) | s + y) AS r"
        ),
        ["false | 4"]
    );
    assert_eq!(
        rows(
            &mut g,
            "UNWIND [1, 2, 3] AS x WITH x % 2 AS k, x RETURN k, [y IN collect(x) | y * 10] AS l ORDER BY k"
        ),
        ["0 | [20]", "1 | [10, 30]"]
    );
}

/// Daylight-saving gaps and overlaps as Java's ZonedDateTime resolves them (checked against the
/// Neo4j 5.26 oracle): a local time in a gap moves later by the gap, an overlap keeps the
/// earlier offset or the one written, months and days move the local time, hours the instant.
#[test]
fn zoned_datetimes_resolve_gaps_and_overlaps_as_neo4j() {
    let mut g = grape::graph::Graph::new();
    assert_eq!(
        rows(
            &mut g,
            "RETURN toString(datetime('2024-03-10T02:30:00[America/New_York]')), \
             toString(datetime('2024-03-10T01:30:00[America/New_York]') + duration('PT1H')), \
             toString(datetime('2024-03-09T02:30:00[America/New_York]') + duration('P1D')), \
             toString(datetime('2024-11-03T01:30:00-04:00[America/New_York]') + duration('PT1H')), \
             toString(datetime('2024-11-02T01:30:00[America/New_York]') + duration('P1D')), \
             toString(datetime({year: 2021, month: 3, day: 28, hour: 2, minute: 30, timezone: 'Europe/Berlin'}))"
        ),
        ["'2024-03-10T03:30:00-04:00[America/New_York]' | '2024-03-10T03:30:00-04:00[America/New_York]' | \
          '2024-03-10T03:30:00-04:00[America/New_York]' | '2024-11-03T01:30:00-05:00[America/New_York]' | \
          '2024-11-03T01:30:00-04:00[America/New_York]' | '2021-03-28T03:30:00+02:00[Europe/Berlin]'"]
    );
    // toString() writes seconds always and the fraction it needs.
    assert_eq!(
        rows(
            &mut g,
            "RETURN toString(time('10:00:00-02:00')), toString(localdatetime('2024-05-17T10:11')), \
             toString(datetime('2024-05-17T10:11:00.5+01:00')), toString(localtime('10:11:12.000000001'))"
        ),
        ["'10:00:00-02:00' | '2024-05-17T10:11:00' | '2024-05-17T10:11:00.5+01:00' | '10:11:12.000000001'"]
    );
}

/// `avg`, `stDev` and `stDevP` round as Neo4j 5.26 computes them (a running mean, Welford's
/// sum of squares), to the last bit of the oracle's answers; each computed NaN is a group of its
/// own.
#[test]
fn averages_and_deviations_round_as_neo4j_and_nan_groups_apart() {
    let mut g = Graph::new();
    assert_eq!(
        rows(
            &mut g,
            "UNWIND range(1, 2000) AS i WITH toFloat((i * 7919) % 13) / 3.0 AS x \
             RETURN avg(x) AS a, stDev(x) AS s, stDevP(x) AS p"
        ),
        ["2.0001666666666704 | 1.246795670575788 | 1.246483932686036"]
    );
    assert_eq!(
        rows(
            &mut g,
            "UNWIND range(1, 2000) AS i RETURN avg((i * 7919) % 13) AS a"
        ),
        ["6.000499999999988"]
    );
    assert_eq!(
        rows(
            &mut g,
            "UNWIND [1, 2, 3] AS x RETURN sqrt(-x) AS n, count(*) AS c"
        )
        .len(),
        3
    );
    assert_eq!(
        rows(
            &mut g,
            "UNWIND [1, 1, 2] AS x RETURN DISTINCT x, sqrt(-1) AS n"
        )
        .len(),
        3
    );
}

/// Cypher 5's `CALL { … }` without a scope clause sees only what its importing `WITH` names:
/// a MATCH inside on an outer variable's name binds a new variable (Neo4j 5.26, the oracle:
/// 14,904 Locations counted for each of two outer rows). neomodel's subqueries rely on it.
#[test]
fn a_subquery_without_an_importing_with_sees_no_outer_variable() {
    let mut g = common::graph("CREATE (:L {i: 1})-[:R]->(:M), (:L {i: 2}), (:L {i: 3})");
    for (query, want) in [
        (
            "MATCH (n:L) WITH n ORDER BY n.i LIMIT 2 CALL { MATCH (n:L) RETURN count(n) AS c } RETURN c",
            vec!["3", "3"],
        ),
        (
            "MATCH (n:L) WITH n ORDER BY n.i CALL { WITH n MATCH (n)--(m) RETURN count(m) AS c } RETURN n.i, c",
            vec!["1 | 1", "2 | 0", "3 | 0"],
        ),
        (
            "WITH 1 AS x CALL { MATCH (x) RETURN count(*) AS y } RETURN x, y",
            vec!["1 | 4"],
        ),
        (
            "UNWIND [1, 2] AS x CALL { UNWIND [10, 20, 30] AS x RETURN count(x) AS c } RETURN x, c",
            vec!["1 | 3", "2 | 3"],
        ),
        (
            "UNWIND [1, 2] AS x CALL { WITH * RETURN x AS s } RETURN s",
            vec!["1", "2"],
        ),
        (
            "UNWIND [1, 2] AS x CALL { WITH x RETURN x AS a UNION WITH x RETURN x + 10 AS a } RETURN a ORDER BY a",
            vec!["1", "2", "11", "12"],
        ),
    ] {
        assert_eq!(common::rows(&mut g, query), want, "{query}");
    }
}

/// Property values as Neo4j 5.26 stores or refuses them (each message and outcome from the
/// oracle): a list must hold one storable type, integers with floats become floats, and maps,
/// nested lists, nulls in lists and mixed point CRSs are refused on every write path.
#[test]
fn property_values_are_stored_or_refused_as_neo4j_does() {
    let mut g = graph("");
    assert_eq!(
        rows(&mut g, "CREATE (n:Mx {e: [1, 2.5]}) RETURN n.e"),
        ["[1.0, 2.5]"]
    );
    assert_eq!(
        rows(&mut g, "MATCH (n:Mx) SET n.f = [2.0, 3] RETURN n.f"),
        ["[2.0, 3.0]"]
    );
    assert_eq!(
        rows(&mut g, "MERGE (n:My {e: [1, 2.0]}) RETURN n.e"),
        ["[1.0, 2.0]"]
    );
    assert_eq!(
        rows(&mut g, "CREATE (n:Mx {e: [1, 2, 3000000000]}) RETURN n.e"),
        ["[1, 2, 3000000000]"]
    );
    const SUBSET: &str = "Neo4j only supports a subset of Cypher types for storage as singleton or array properties. Please refer to section cypher/syntax/values of the manual for more details.";
    for (query, message) in [
        ("CREATE (n:Mx {e: [1, 'a']})", SUBSET),
        ("CREATE (n:Mx {e: [true, 1]})", SUBSET),
        ("CREATE (n:Mx {e: [date(), datetime()]})", SUBSET),
        ("CREATE (n:Mx {e: [localtime(), time()]})", SUBSET),
        ("CREATE (n:Mx) SET n = {e: [1, 'a']}", SUBSET),
        ("WITH [1, 'a'] AS l CREATE (n:Mx) SET n += {e: l}", SUBSET),
        ("MERGE (n:Mx {e: [1, 'a']})", SUBSET),
        (
            "CREATE (n:Mx {e: [1, null]})",
            "Collections containing null values can not be stored in properties.",
        ),
        (
            "CREATE (n:Mx {e: [[1]]})",
            "Collections containing collections can not be stored in properties.",
        ),
        (
            "CREATE (n:Mx {e: [point({x: 1, y: 2}), point({x: 1, y: 2, z: 3})]})",
            "Collections containing point values with different CRS can not be stored in properties.",
        ),
        (
            "CREATE (n:Mx {e: {a: 'x', b: [1, 2.5], c: {d: null}}})",
            "Property values can only be of primitive types or arrays thereof. Encountered: Map{a -> String(\"x\"), b -> List{Long(1), Double(2.500000e+00)}, c -> Map{d -> NO_VALUE}}.",
        ),
        (
            "CREATE (n:Mx {e: [{a: 1}]})",
            "Property values can only be of primitive types or arrays thereof. Encountered: Map{a -> Long(1)}.",
        ),
        (
            "CREATE (n:Mx {e: {b: true, a: 1.0}})",
            "Property values can only be of primitive types or arrays thereof. Encountered: Map{a -> Double(1.000000e+00), b -> Boolean('true')}.",
        ),
    ] {
        let e = run(&mut g, query, &Params::new()).unwrap_err();
        assert_eq!(e.code(), "Neo.ClientError.Statement.TypeError", "{query}");
        assert_eq!(e.message, message, "{query}");
    }
    // Nothing of the refused statements was kept.
    assert_eq!(rows(&mut g, "MATCH (n) RETURN count(n)"), ["3"]);
}

/// `valueType()` of a list: the union of its elements' types in Neo4j's order, nested lists
/// merged, nullability dropped when a null is among them (texts from Neo4j 5.26).
#[test]
fn value_type_of_lists_normalizes_unions_as_neo4j_does() {
    let mut g = graph("");
    for (q, want) in [
        ("RETURN valueType([1, 'a', [2.5]])", "'LIST<STRING NOT NULL | INTEGER NOT NULL | LIST<FLOAT NOT NULL> NOT NULL> NOT NULL'"),
        ("RETURN valueType([true, 1, 1.5, 'a', date(), null])", "'LIST<BOOLEAN | STRING | INTEGER | FLOAT | DATE> NOT NULL'"),
        ("RETURN valueType([{a: 1}, [1], localtime(), time(), localdatetime(), datetime(), duration('P1D'), point({x: 1, y: 2})])", "'LIST<LOCAL TIME NOT NULL | ZONED TIME NOT NULL | LOCAL DATETIME NOT NULL | ZONED DATETIME NOT NULL | DURATION NOT NULL | POINT NOT NULL | MAP NOT NULL | LIST<INTEGER NOT NULL> NOT NULL> NOT NULL'"),
        ("RETURN valueType([[1], ['a'], [1, 'a']])", "'LIST<LIST<STRING NOT NULL | INTEGER NOT NULL> NOT NULL> NOT NULL'"),
        ("RETURN valueType([null])", "'LIST<NULL> NOT NULL'"),
        ("RETURN valueType([])", "'LIST<NOTHING> NOT NULL'"),
    ] {
        assert_eq!(rows(&mut g, q), [want], "{q}");
    }
}
