//! Graph references and composite databases in the engine: what `USE` resolves to
//! (`engine::use_target`), the graph functions with the values of Neo4j's manual, and the
//! refusals Neo4j makes (a graph function outside `USE`, a database that does not exist, a
//! composite's constituent reached from a standard database).

use grape::engine::{
    execute, use_target, Composite, DatabaseContext, ErrorKind, Options, Params, Table,
};
use grape::graph::Graph;
use grape::value::Value;
use std::sync::Arc;

/// The manual's setup: databases dba, dbb, dbc; a composite `composite` with the aliases
/// first, second and third, with the properties of the `graph.propertiesByName()` example.
fn manual_context(current: &str) -> DatabaseContext {
    let mut composite = Composite::parse("composite=first:dba,second:dbb,third:dbc").unwrap();
    for spec in [
        r#"composite.first={"number": 1, "tags": ["A", "B"]}"#,
        r#"composite.second={"number": 0, "tags": ["A"]}"#,
        r#"composite.third={"number": 2, "tags": ["B", "C"]}"#,
    ] {
        grape::engine::set_alias_properties(std::slice::from_mut(&mut composite), spec).unwrap();
    }
    DatabaseContext {
        names: vec!["dba".into(), "dbb".into(), "dbc".into(), "neo4j".into()],
        current: current.into(),
        home: "neo4j".into(),
        default: "neo4j".into(),
        composites: vec![composite],
        routed_from: None,
        graphs: Default::default(),
        users: None,
        user: None,
        tx_metadata: Default::default(),
        enterprise: true,
        settings: Default::default(),
        transactions: None,
    }
}

fn run_on(ctx: &DatabaseContext, graph: &mut Graph, q: &str) -> grape::engine::Result<Table> {
    let opts = Options {
        databases: Some(Arc::new(ctx.clone())),
        ..Default::default()
    };
    let stmt = grape::syntax::parse(q).unwrap();
    execute(graph, &stmt, q, &Params::new(), &opts)
}

fn target(
    ctx: &DatabaseContext,
    q: &str,
    params: &Params,
) -> grape::engine::Result<Option<String>> {
    use_target(&grape::syntax::parse(q).unwrap(), params, ctx)
}

#[test]
fn graph_names_and_properties_give_the_manuals_values() {
    let ctx = manual_context("composite");
    let mut empty = Graph::new();
    let t = run_on(&ctx, &mut empty, "RETURN graph.names() AS name").unwrap();
    assert_eq!(
        t.rows[0][0].to_string(),
        "['composite.first', 'composite.second', 'composite.third']"
    );
    let t = run_on(
        &ctx,
        &mut empty,
        "UNWIND graph.names() AS name RETURN name, graph.propertiesByName(name) AS props",
    )
    .unwrap();
    let rows: Vec<String> = t
        .rows
        .iter()
        .map(|r| format!("{} {}", r[0], r[1]))
        .collect();
    assert_eq!(
        rows,
        [
            "'composite.first' {number: 1, tags: ['A', 'B']}",
            "'composite.second' {number: 0, tags: ['A']}",
            "'composite.third' {number: 2, tags: ['B', 'C']}",
        ]
    );
    // The manual's filter on the properties.
    let t = run_on(
        &ctx,
        &mut empty,
        "UNWIND graph.names() AS name WITH name, graph.propertiesByName(name) AS props \
         WHERE 'A' IN props.tags RETURN collect(name) AS names",
    )
    .unwrap();
    assert_eq!(
        t.rows[0][0].to_string(),
        "['composite.first', 'composite.second']"
    );
    // Names ignore case; null in, null out; an unknown graph is not found.
    let t = run_on(
        &ctx,
        &mut empty,
        "RETURN graph.propertiesByName('COMPOSITE.Second').number AS n, graph.propertiesByName(null) AS x",
    )
    .unwrap();
    assert!(matches!(t.rows[0][0], Value::Int(0)));
    assert!(matches!(t.rows[0][1], Value::Null));
    let e = run_on(
        &ctx,
        &mut empty,
        "RETURN graph.propertiesByName('composite.fourth')",
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::DatabaseNotFound);
}

#[test]
fn graph_functions_of_composites_fail_on_standard_databases() {
    let mut g = Graph::new();
    for ctx in [manual_context("dba"), DatabaseContext::single()] {
        for q in [
            "RETURN graph.names()",
            "RETURN graph.propertiesByName('composite.first')",
        ] {
            let e = run_on(&ctx, &mut g, q).unwrap_err();
            assert_eq!(e.kind, ErrorKind::SemanticError, "{q}");
            assert!(
                e.message
                    .ends_with("() is only supported on composite databases."),
                "{}",
                e.message
            );
        }
    }
    // Without a server's context, a statement runs on the one database `neo4j`.
    let e = grape::engine::run(&mut g, "RETURN graph.names()", &Params::new()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::SemanticError);
}

#[test]
fn use_names_a_database_by_name_by_graph_function_or_by_element_id() {
    let ctx = manual_context("neo4j");
    let none = Params::new();
    assert_eq!(target(&ctx, "MATCH (n) RETURN n", &none).unwrap(), None);
    assert_eq!(
        target(&ctx, "USE DBA MATCH (n) RETURN n", &none)
            .unwrap()
            .as_deref(),
        Some("dba")
    );
    assert_eq!(
        target(&ctx, "USE dbb CREATE INDEX FOR (n:L) ON (n.p)", &none)
            .unwrap()
            .as_deref(),
        Some("dbb")
    );
    // Every USE of a statement names the same graph on a standard database.
    assert_eq!(
        target(
            &ctx,
            "USE dbc MATCH (n) RETURN n UNION USE DBC MATCH (n) RETURN n",
            &none
        )
        .unwrap()
        .as_deref(),
        Some("dbc")
    );
    // An element id carries its database's id, as Neo4j's do (`4:<uuid>:<id>` for a node,
    // `5:…` for a relationship): the statement goes where the element is.
    let mut params = Params::new();
    for (db, node) in [("neo4j", true), ("dbb", true), ("DBC", false)] {
        let id = grape::value::element_id(node, db, 7);
        assert!(id.starts_with(if node { "4:" } else { "5:" }), "{id}");
        params.insert("id".into(), Value::from(id));
        assert_eq!(
            target(
                &ctx,
                "USE graph.byElementId($id) MATCH (n) RETURN n",
                &params
            )
            .unwrap()
            .as_deref(),
            Some(db.to_lowercase().as_str())
        );
    }
    for bad in ["4:x", "n:0", "4:00000000-0000-4000-8000-000000000000:1"] {
        let q = format!("USE graph.byElementId('{bad}') MATCH (n) RETURN n");
        let e = target(&ctx, &q, &none).unwrap_err();
        assert_eq!(e.kind, ErrorKind::EntityNotFound, "{bad}");
    }
    let e = target(&ctx, "USE nope MATCH (n) RETURN n", &none).unwrap_err();
    assert_eq!(e.kind, ErrorKind::DatabaseNotFound);
    assert_eq!(e.code(), "Neo.ClientError.Database.DatabaseNotFound");
    assert_eq!(e.message, "Database does not exist. Database name: 'nope'.");
    // A composite and its constituents are reached only from a session on the composite.
    for q in [
        "USE composite.first MATCH (n) RETURN n",
        "USE composite RETURN 1",
    ] {
        let e = target(&ctx, q, &none).unwrap_err();
        assert!(
            e.message.starts_with("Accessing a composite database and its constituents is only allowed when connected to it."),
            "{q}: {}",
            e.message
        );
    }
}

#[test]
fn a_statement_on_a_composite_runs_on_the_constituent_its_leading_use_names() {
    let ctx = manual_context("composite");
    let none = Params::new();
    assert_eq!(
        target(&ctx, "USE composite.second MATCH (n) RETURN n", &none)
            .unwrap()
            .as_deref(),
        Some("dbb")
    );
    assert_eq!(
        target(
            &ctx,
            "USE graph.byName('Composite.Third') MATCH (n) RETURN n",
            &none
        )
        .unwrap()
        .as_deref(),
        Some("dbc")
    );
    let mut params = Params::new();
    params.insert("g".into(), Value::from("composite.first"));
    assert_eq!(
        target(&ctx, "USE graph.byName($g) RETURN 1", &params)
            .unwrap()
            .as_deref(),
        Some("dba")
    );
    let e = target(&ctx, "USE composite.fourth RETURN 1", &none).unwrap_err();
    assert_eq!(e.kind, ErrorKind::DatabaseNotFound);
    // Over several constituents, each part goes where its own USE says: no one target.
    assert_eq!(
        target(
            &ctx,
            "UNWIND graph.names() AS g CALL { USE graph.byName(g) MATCH (n) RETURN n } RETURN n",
            &none,
        )
        .unwrap(),
        None
    );
    // The composite holds no data: reading it without USE is refused, not answered empty.
    let mut empty = Graph::new();
    let e = run_on(&ctx, &mut empty, "MATCH (n) RETURN count(n)").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("USE composite.<alias>"), "{}", e.message);
}

#[test]
fn the_engine_refuses_a_graph_it_was_not_given_and_misplaced_graph_functions() {
    let mut g = Graph::from_cypher_script("CREATE (:A)").unwrap();
    // The one database of a library run is `neo4j`.
    let t = grape::engine::run(
        &mut g,
        "USE neo4j MATCH (n:A) RETURN count(n)",
        &Params::new(),
    )
    .unwrap();
    assert!(matches!(t.rows[0][0], Value::Int(1)));
    let e =
        grape::engine::run(&mut g, "USE movies MATCH (n) RETURN n", &Params::new()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::DatabaseNotFound);
    // On a server's database, a statement for another one must be routed there first.
    let ctx = manual_context("dba");
    let e = run_on(&ctx, &mut g, "USE dbb MATCH (n) RETURN n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    // Compile-time refusals, before anything runs (Neo4j's messages).
    for (q, m) in [
        ("RETURN graph.byName('dba')", "`graph.byName` is only allowed at the first position of a USE clause."),
        ("MATCH (n) USE neo4j RETURN n", "USE clause must be either the first clause in a (sub-)query or preceded by an importing WITH clause in a sub-query."),
        ("USE graph.byName('dba') MATCH (n) RETURN n", "Dynamic graph lookup not allowed here. This feature is only available on composite databases.\nAttempted to access graph graph.byName(\"dba\")"),
        ("USE dba MATCH (n) RETURN n UNION USE dbb MATCH (n) RETURN n", "Multiple graphs in the same query not allowed here. This feature is only available on composite databases.\nAttempted to access graph dbb"),
    ] {
        let e = run_on(&ctx, &mut g, q).unwrap_err();
        assert_eq!(e.message, m, "{q}");
        assert_eq!(e.code(), "Neo.ClientError.Statement.SyntaxError", "{q}");
    }
    // On a composite, a dynamic lookup is what USE is for.
    let ctx = manual_context("composite");
    let stmt = grape::syntax::parse("USE graph.byName('composite.first') RETURN 1").unwrap();
    assert!(grape::engine::compile_errors(&stmt, "", Default::default())
        .iter()
        .any(|e| e.message.starts_with("Dynamic graph lookup")));
    assert!(target(
        &ctx,
        "USE graph.byName('composite.first') RETURN 1",
        &Params::new()
    )
    .is_ok());
}

#[test]
fn composite_declarations_read_or_say_what_is_wrong() {
    let c = Composite::parse("c=a:dba, dbb").unwrap();
    assert_eq!(c.graph_names(), ["c.a", "c.dbb"]);
    assert_eq!(c.constituents[1].database, "dbb");
    for bad in ["c", "=a:b", "c=", "c=a:", "x.y=a:b"] {
        assert!(Composite::parse(bad).is_err(), "{bad}");
    }
    let mut cs = vec![c];
    assert!(grape::engine::set_alias_properties(&mut cs, "c.a={\"n\": 1}").is_ok());
    assert!(matches!(
        cs[0].constituents[0].properties["n"],
        Value::Int(1)
    ));
    for bad in ["c.z={}", "c.a=[1]", "c.a", "c.a={\"n\": {\"~node\": 1}}"] {
        assert!(
            grape::engine::set_alias_properties(&mut cs, bad).is_err(),
            "{bad}"
        );
    }
}

/// `grape serve bolt --composite … --alias-properties …`: the composite is announced, and a
/// declaration that does not read stops the server before it listens.
#[cfg(all(feature = "bolt", feature = "cli"))]
#[test]
fn cli_declares_composite_databases() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let graph = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/demo/graph.json");
    let mut server = Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["serve", "bolt", "--port", "0", "--graph", graph])
        .args(["--composite", "catalog=main:neo4j"])
        .args(["--alias-properties", r#"catalog.main={"tier": 1}"#])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(server.stdout.take().unwrap());
    let mut lines = Vec::new();
    for _ in 0..2 {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        lines.push(line);
    }
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(lines[0].contains("bolt://127.0.0.1:"), "{lines:?}");
    assert_eq!(
        lines[1].trim(),
        "grape: composite databases catalog (catalog.main)"
    );
    for bad in [
        vec!["--composite", "catalog"],
        vec!["--composite", "catalog=main:nope"],
        vec!["--composite", "neo4j=main:neo4j"],
        vec![
            "--composite",
            "c=main:neo4j",
            "--alias-properties",
            "c.other={}",
        ],
        vec![
            "--composite",
            "c=main:neo4j",
            "--alias-properties",
            "c.main=[1]",
        ],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_grape"))
            .args(["serve", "bolt", "--port", "0", "--graph", graph])
            .args(&bad)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).starts_with("error: "),
            "{bad:?}"
        );
    }
}

/// The manual's composite with data: dba and dbb hold people, dbc a movie with its director.
fn manual_context_with_graphs() -> DatabaseContext {
    let mut ctx = manual_context("composite");
    for (db, script) in [
        (
            "dba",
            "CREATE (:Person {name: 'Ada'}), (:Person {name: 'Alan'})",
        ),
        ("dbb", "CREATE (:Person {name: 'Bea'})"),
        (
            "dbc",
            "CREATE (:Person {name: 'Cy'})-[:DIRECTED {year: 1999}]->(:Movie {title: 'C'})",
        ),
    ] {
        ctx.graphs.0.insert(
            db.into(),
            Arc::new(Graph::from_cypher_script(script).unwrap()),
        );
    }
    ctx
}

fn column(t: &Table, i: usize) -> Vec<String> {
    let mut v: Vec<String> = t.rows.iter().map(|r| r[i].to_string()).collect();
    v.sort();
    v
}

#[test]
fn subqueries_and_union_parts_run_on_the_constituents_their_use_names() {
    let ctx = manual_context_with_graphs();
    let mut empty = Graph::new();
    // The manual's graph.byName example: every constituent's nodes.
    let t = run_on(
        &ctx,
        &mut empty,
        "UNWIND graph.names() AS graphName CALL { USE graph.byName(graphName) MATCH (n) RETURN n } \
         RETURN coalesce(n.name, n.title) AS name, labels(n) AS labels",
    )
    .unwrap();
    assert_eq!(column(&t, 0), ["'Ada'", "'Alan'", "'Bea'", "'C'", "'Cy'"]);
    assert!(column(&t, 1).contains(&"['Movie']".to_string()));
    // The manual's graph.propertiesByName example: the constituents tagged 'A'.
    let t = run_on(
        &ctx,
        &mut empty,
        "UNWIND graph.names() AS name WITH name, graph.propertiesByName(name) AS props \
         WHERE 'A' IN props.tags CALL { USE graph.byName(name) MATCH (n) RETURN n } RETURN n.name AS name",
    )
    .unwrap();
    assert_eq!(column(&t, 0), ["'Ada'", "'Alan'", "'Bea'"]);
    // A scope clause and an importing WITH both lead to USE.
    for q in [
        "WITH 'composite.second' AS g CALL (g) { USE graph.byName(g) MATCH (n) RETURN n.name AS name } RETURN name",
        "WITH 'composite.second' AS g CALL { WITH g USE graph.byName(g) MATCH (n) RETURN n.name AS name } RETURN name",
        "CALL { USE composite.second MATCH (n) RETURN n.name AS name } RETURN name",
    ] {
        let t = run_on(&ctx, &mut empty, q).unwrap();
        assert_eq!(column(&t, 0), ["'Bea'"], "{q}");
    }
    // UNION parts, each on its constituent.
    let t = run_on(
        &ctx,
        &mut empty,
        "USE composite.first MATCH (n) RETURN n.name AS name UNION ALL USE composite.third MATCH (n:Person) RETURN n.name AS name",
    )
    .unwrap();
    assert_eq!(column(&t, 0), ["'Ada'", "'Alan'", "'Cy'"]);
    // Relationships and paths come back whole; the same node once.
    let t = run_on(
        &ctx,
        &mut empty,
        "CALL { USE composite.third MATCH p = (a)-[r:DIRECTED]->(m) RETURN p, r, a } \
         RETURN type(r) AS t, r.year AS y, startNode(r) = a AS same, length(p) AS len, \
         [x IN nodes(p) | labels(x)[0]] AS labels, endNode(r).title AS title",
    )
    .unwrap();
    assert_eq!(
        t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        [
            "'DIRECTED'",
            "1999",
            "true",
            "1",
            "['Person', 'Movie']",
            "'C'"
        ]
    );
}

#[test]
fn what_a_composite_cannot_do_is_refused_with_a_reason() {
    let ctx = manual_context_with_graphs();
    let mut empty = Graph::new();
    for (q, kind) in [
        // Writing inside a statement over several graphs.
        ("UNWIND graph.names() AS g CALL { USE graph.byName(g) CREATE (:X) } RETURN count(*) AS c", ErrorKind::Unsupported),
        // A node of one graph passed into another.
        ("CALL { USE composite.first MATCH (n) RETURN n } CALL (n) { USE composite.second MATCH (m) WHERE m = n RETURN m } RETURN m", ErrorKind::Unsupported),
        // Reading the composite itself.
        ("CALL { MATCH (n) RETURN n } RETURN n", ErrorKind::Unsupported),
        // A constituent it does not have.
        ("CALL { USE composite.fourth MATCH (n) RETURN n } RETURN n", ErrorKind::DatabaseNotFound),
        ("WITH 'composite.fourth' AS g CALL (g) { USE graph.byName(g) RETURN 1 AS one } RETURN one", ErrorKind::DatabaseNotFound),
        // graph.names() is the composite's, not a constituent's.
        ("CALL { USE composite.first RETURN graph.names() AS g } RETURN g", ErrorKind::SemanticError),
    ] {
        let e = run_on(&ctx, &mut empty, q).unwrap_err();
        assert_eq!(e.kind, kind, "{q}: {}", e.message);
    }
}

#[test]
fn element_ids_name_their_database_as_neo4js_do() {
    // The same database name gives the same id on every run, in any case; others differ.
    let a = grape::value::database_id("movies");
    assert_eq!(a, grape::value::database_id("MOVIES"));
    assert_ne!(a, grape::value::database_id("movie"));
    assert_eq!(a.len(), 36);
    assert_eq!(a.as_bytes()[14], b'4');
    let mut g = Graph::from_cypher_script("CREATE (:A)-[:R]->(:B)").unwrap();
    let t = grape::engine::run(
        &mut g,
        "MATCH (a:A)-[r]->(b) RETURN elementId(a), elementId(r), db.nameFromElementId(elementId(r)), \
         db.nameFromElementId('4:' + $x + ':0')",
        &[("x".to_string(), Value::from(grape::value::database_id("other")))]
            .into_iter()
            .collect(),
    )
    .unwrap();
    let neo4j = grape::value::database_id("neo4j");
    assert_eq!(t.rows[0][0].to_string(), format!("'4:{neo4j}:0'"));
    assert_eq!(t.rows[0][1].to_string(), format!("'5:{neo4j}:0'"));
    assert_eq!(t.rows[0][2].to_string(), "'neo4j'");
    assert!(matches!(t.rows[0][3], Value::Null));
    // A composite's statement returns its constituents' elements with their own element ids,
    // which lead back to their constituent.
    let ctx = manual_context_with_graphs();
    let mut empty = Graph::new();
    let t = run_on(
        &ctx,
        &mut empty,
        "CALL { USE composite.third MATCH (m:Movie) RETURN m } \
         RETURN elementId(m) AS id, db.nameFromElementId(elementId(m)) AS db",
    )
    .unwrap();
    let id = grape::value::element_id(true, "dbc", 1);
    assert_eq!(t.rows[0][0].to_string(), format!("'{id}'"));
    assert_eq!(t.rows[0][1].to_string(), "'dbc'");
    let mut params = Params::new();
    params.insert("id".into(), Value::from(id.clone()));
    // The manual's graph.byElementId example: the constituent the element belongs to.
    assert_eq!(
        target(
            &ctx,
            "USE graph.byElementId($id) MATCH (n) RETURN n",
            &params
        )
        .unwrap()
        .as_deref(),
        Some("dbc")
    );
    let q = format!(
        "WITH '{id}' AS e CALL (e) {{ USE graph.byElementId(e) MATCH (n) RETURN count(n) AS c }} RETURN c"
    );
    let t = run_on(&ctx, &mut empty, &q).unwrap();
    assert!(matches!(t.rows[0][0], Value::Int(2)));
}
