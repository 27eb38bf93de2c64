//! The official Neo4j Python driver against grape's Bolt server, on loopback: parameters, every
//! value type, explicit and managed transactions with commit and rollback, errors, `neo4j://`
//! routing, EXPLAIN-based query types, and all ZOGRASCOPE test queries over POLE with the same
//! results as grape's engine in process (which `tests/engine_zograscope.rs` checks against the
//! reference results).
//!
//! Needs Python with the `neo4j` package: `$GRAPE_PYTHON`, else `target/pyenv/bin/python` (what
//! `.ci/run` creates), else `python3`. Without it the tests print SKIPPED and pass, unless
//! `GRAPE_REQUIRE_PY_DRIVER=1` (as `.ci/run` sets once it has installed the driver).
#![cfg(feature = "bolt")]

mod common;

use grape::bolt::{Config, Server};
use grape::engine::Table;
use grape::value::{Entities, Value};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn python() -> Option<PathBuf> {
    common::python_with(
        "import neo4j, pytz",
        "GRAPE_REQUIRE_PY_DRIVER",
        "Bolt driver tests",
    )
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bolt_support/driver_check.py")
}

fn run_script(py: &Path, args: &[&str]) -> String {
    let o = Command::new(py)
        .arg(script())
        .args(args)
        .output()
        .expect("run python");
    assert!(
        o.status.success(),
        "driver script failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn python_driver_end_to_end() {
    let Some(py) = python() else { return };
    let g = grape::graph::Graph::from_cypher_script(
        "CREATE (a:Person {name: 'Ann', born: date('1990-05-01')})-[:KNOWS {since: 2020}]->(b:Person {name: 'Bob'}), (c:Person {name: 'Al'});",
    )
    .unwrap();
    let config = Config {
        auth: Some(("neo4j".into(), "secret".into())),
        ..Default::default()
    };
    let h = Server::bind("127.0.0.1:0", g, config).unwrap().spawn();
    for scheme in ["bolt", "neo4j"] {
        let out = run_script(&py, &[&format!("{scheme}://{}", h.local_addr())]);
        let o: Json = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(o["keys"], json!(["name"]));
        assert_eq!(o["names"], json!(["Al", "Ann"]));
        assert_eq!(o["type"], "r");
        assert_eq!(o["protocol"], json!([5, 8]));
        assert_eq!(o["node"]["labels"], json!(["Person"]));
        assert_eq!(o["node"]["props"]["born"]["_temporal"], "1990-05-01");
        assert_eq!(
            o["rel"],
            json!({"type": "KNOWS", "props": {"since": 2020}, "start": true})
        );
        assert_eq!(o["path_len"], 1);
        let v = &o["values"];
        assert_eq!(v["d"]["_temporal"], "2024-01-02");
        assert_eq!(v["lt"]["_temporal"], "12:34:56.789000000");
        assert_eq!(v["t"]["_temporal"], "10:00:00.000000000+01:00");
        assert_eq!(v["ldt"]["_temporal"], "2024-01-02T03:04:05.000000000");
        assert_eq!(v["dt"]["_temporal"], "2024-01-02T03:04:05.000000000+02:00");
        assert_eq!(v["dz"]["_temporal"], "2024-06-01T12:00:00.000000000+02:00");
        assert_eq!(v["du"]["_temporal"], "P1Y2M3DT4H5M6.5S");
        assert_eq!(v["l"], json!([1, 2.5, null, "x", true]));
        assert_eq!(v["m"], json!({"k": {"n": 1}}));
        assert_eq!(
            v["p"],
            json!({"list": [1, 2.5, null, "s"], "nested": {"a": true}})
        );
        assert_eq!(v["dp"]["_temporal"], "2024-06-01T12:00:00.000000000+02:00");
        // Points both ways: the driver's CartesianPoint / WGS84Point, as Point2D / Point3D.
        assert_eq!(
            v["pc"],
            json!({"_point": ["CartesianPoint", 7203, [1.0, 2.0]]})
        );
        assert_eq!(
            v["pw"],
            json!({"_point": ["WGS84Point", 4979, [12.5, 55.6, 10.0]]})
        );
        assert_eq!(
            v["pt"],
            json!({"_point": ["WGS84Point", 4326, [12.5, 55.6]]})
        );
        assert_eq!(
            (v["pt_lat"].clone(), v["pt_srid"].clone()),
            (json!(55.6), json!(4326))
        );
        assert_eq!(v["pt_km"], json!(27.842));
        // Byte arrays both ways: the driver's bytearray parameter, APOC's compressed bytes.
        assert_eq!(
            (v["by"].clone(), v["made"].clone()),
            (json!({"_bytes": "00ff"}), json!({"_bytes": "54657374"}))
        );
        assert_eq!(
            (v["dp_hour"].clone(), v["dp_zone"].clone()),
            (json!(12), json!("Europe/Paris"))
        );
        assert_eq!(o["explain_type"], "w");
        assert_eq!(o["explain_plan"], true);
        // The planner's plan, in Neo4j's shape, as the driver's `summary.plan`: no index is
        // declared on `Person.name`, and one `KNOWS` is fewer rows than three people, so a
        // scan of the type and a filter, as the Neo4j 5.26 oracle plans it on this graph.
        assert_eq!(
            o["explain_ops"],
            json!(["ProduceResults", "Filter", "DirectedRelationshipTypeScan"])
        );
        assert_eq!(o["explain_leaf_details"], "(p)-[anon_0:KNOWS]->(f)");
        assert_eq!(o["profile_records"], o["profile_root_rows"]);
        // (The oracle's plan for it on this graph, too.)
        assert_eq!(
            o["profile_ops"],
            json!([
                "ProduceResults",
                "Projection",
                "Filter",
                "DirectedRelationshipTypeScan"
            ])
        );
        assert!(o["profile_db_hits"].as_u64().unwrap() > 0, "{o}");
        assert_eq!(o["write_in_read"], "Neo.ClientError.Statement.AccessMode");
        assert_eq!(o["syntax_error"], "Neo.ClientError.Statement.SyntaxError");
        assert_eq!(
            o["missing_param"],
            "Neo.ClientError.Statement.ParameterMissing"
        );
        assert_eq!(o["after_errors"], 1);
        assert_eq!(o["managed_created"], 1);
        // Each pass adds one committed node; the rolled-back one never lands.
        let before = if scheme == "bolt" { 0 } else { 1 };
        assert_eq!(o["in_tx"], before + 1);
        assert_eq!(o["after_rollback"], before);
        assert_eq!(o["after_commit"], before + 1);
    }
    // A wrong password is refused.
    let o = Command::new(&py)
        .args([
            "-c",
            &format!(
                "import neo4j\ntry:\n  neo4j.GraphDatabase.driver('bolt://{}', auth=('neo4j','bad')).verify_connectivity()\n  print('connected')\nexcept neo4j.exceptions.AuthError as e:\n  print(e.code)",
                h.local_addr()
            ),
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "Neo.ClientError.Security.Unauthorized"
    );
}

/// A value as driver_check.py's `canon` writes it.
fn canon(v: &Value, t: &Table) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!(i),
        Value::Float(f) => json!(f),
        Value::String(s) => json!(s.as_ref()),
        Value::List(l) => Json::Array(l.iter().map(|x| canon(x, t)).collect()),
        Value::Map(m) => Json::Object(
            m.iter()
                .map(|(k, x)| (k.to_string(), canon(x, t)))
                .collect(),
        ),
        Value::Node(n) => {
            let mut m: serde_json::Map<String, Json> = t
                .node_props(*n)
                .iter()
                .map(|(k, x)| (k.to_string(), canon(x, t)))
                .collect();
            let mut labels: Vec<String> = t.node_labels(*n).iter().map(|l| l.to_string()).collect();
            labels.sort();
            m.insert("_labels".into(), json!(labels));
            Json::Object(m)
        }
        Value::Relationship(r) => {
            let mut m: serde_json::Map<String, Json> = t
                .rel_props(*r)
                .iter()
                .map(|(k, x)| (k.to_string(), canon(x, t)))
                .collect();
            m.insert("_type".into(), json!(t.rel_type(*r).map(|x| x.to_string())));
            Json::Object(m)
        }
        Value::Path(p) => json!({
            "_path": p.nodes.iter().map(|n| canon(&Value::Node(*n), t)).collect::<Vec<_>>(),
            "_rels": p.rels.iter().map(|r| canon(&Value::Relationship(*r), t)).collect::<Vec<_>>(),
        }),
        Value::Temporal(x) => json!({ "_temporal": x.to_string() }),
        Value::Point(p) => json!({ "_point": [p.crs.srid(), p.coordinates()] }),
        Value::Bytes(b) => {
            json!({ "_bytes": b.iter().map(|x| format!("{x:02x}")).collect::<String>() })
        }
    }
}

#[test]
fn zograscope_over_pole_through_the_driver() {
    let Some(shared) = common::shared_dir("Bolt ZOGRASCOPE") else {
        return;
    };
    let Some(py) = python() else { return };
    let pole = grape::graph::import::load_importer_dir(
        &shared.join("data/pole"),
        grape::graph::import::ImporterTypes::Strings,
    )
    .unwrap();
    let examples =
        grape::dataset::read_dataset(&shared.join("data/zograscope/zograscope_test_v1.csv"), None)
            .unwrap();
    assert_eq!(examples.len(), 2117);
    let queries: Vec<&str> = examples.iter().map(|e| e.gold.as_str()).collect();
    let dir = std::env::temp_dir().join(format!("grape-bolt-zg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("q.json"), serde_json::to_string(&queries).unwrap()).unwrap();
    let opts = grape::engine::Options::default();
    let expected: Vec<Json> = queries
        .iter()
        .map(|q| match grape::engine::run_read(&pole, q, &Default::default(), &opts) {
            Ok(t) => json!({"rows": t.rows.iter().map(|r| r.iter().map(|v| canon(v, &t)).collect::<Vec<_>>()).collect::<Vec<_>>()}),
            Err(e) => json!({"error": e.code()}),
        })
        .collect();
    let h = Server::bind("127.0.0.1:0", pole, Config::default())
        .unwrap()
        .spawn();
    let out = dir.join("out.json");
    run_script(
        &py,
        &[
            &format!("bolt://{}", h.local_addr()),
            &dir.join("q.json").to_string_lossy(),
            &out.to_string_lossy(),
        ],
    );
    let got: Vec<Json> = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(got.len(), expected.len());
    let mut same = 0;
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert!(e.get("error").is_none(), "{}: {e}", examples[i].id);
        assert_eq!(g, e, "query {}: {}", examples[i].id, queries[i]);
        same += 1;
    }
    println!(
        "ZOGRASCOPE over Bolt: {same} of {} results equal",
        expected.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// mcp-neo4j-cypher (the Neo4j Labs MCP server, `pip install mcp-neo4j-cypher`) started against
/// `grape serve bolt` and called through the Python MCP client: the schema comes from
/// `apoc.meta.schema`, reads return rows, and a write through the read tool is refused by the
/// server's EXPLAIN check (grape reports the query type).
#[test]
fn mcp_neo4j_cypher_over_grape() {
    let Some(py) = python() else { return };
    let server = py
        .parent()
        .map(|d| d.join("mcp-neo4j-cypher"))
        .filter(|p| p.is_file());
    let Some(server) = server else {
        if std::env::var("GRAPE_REQUIRE_MCP_NEO4J").as_deref() == Ok("1") {
            panic!(
                "GRAPE_REQUIRE_MCP_NEO4J=1 but mcp-neo4j-cypher is not installed beside {}",
                py.display()
            );
        }
        eprintln!(
            "SKIPPED mcp-neo4j-cypher test: not installed beside {} (pip install mcp-neo4j-cypher)",
            py.display()
        );
        return;
    };
    let graph = grape::engine::load_graph(
        concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/demo/graph.json"),
        grape::graph::import::ImporterTypes::Strings,
    )
    .unwrap();
    let config = Config {
        auth: Some(("neo4j".into(), "secret".into())),
        ..Default::default()
    };
    let h = Server::bind("127.0.0.1:0", graph, config).unwrap().spawn();
    let o = Command::new(&py)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bolt_support/mcp_check.py"))
        .arg(&server)
        .arg(format!("bolt://{}", h.local_addr()))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "mcp_check.py failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out: Json = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        out["tools"],
        json!([
            "get_neo4j_schema",
            "read_neo4j_cypher",
            "write_neo4j_cypher"
        ])
    );
    assert_eq!(out["schema_error"], false);
    let schema = &out["schema"];
    assert_eq!(schema["Book"]["type"], "node");
    assert_eq!(schema["Book"]["count"], 72);
    assert_eq!(schema["Book"]["properties"]["title"]["type"], "STRING");
    assert_eq!(schema["WROTE"]["type"], "relationship");
    assert_eq!(
        schema["Author"]["relationships"]["WROTE"],
        json!({"direction": "out", "labels": ["Book"]})
    );
    assert_eq!(out["read_error"], false);
    assert_eq!(
        out["rows"],
        json!([{"title": "The Glass Tide"}, {"title": "The Hollow Garden"}, {"title": "The Silent Compass"}])
    );
    assert_eq!(out["write_via_read_error"], true);
    assert_eq!(out["hack_count"], 0);
    assert_eq!(h.graph().node_count(), 200);
}

/// Two small databases: `movies` with two movies, `companies` with one organization.
fn movies_and_companies() -> (grape::graph::Graph, grape::graph::Graph) {
    let movies = grape::graph::Graph::from_cypher_script(
        "CREATE (:Movie {title: 'A'}), (:Movie {title: 'B'})",
    )
    .unwrap();
    let companies =
        grape::graph::Graph::from_cypher_script("CREATE (:Organization {name: 'Acme'})").unwrap();
    (movies, companies)
}

#[test]
fn python_driver_selects_databases() {
    let Some(py) = python() else { return };
    let (movies, companies) = movies_and_companies();
    let config = Config {
        auth: Some(("admin".into(), "secret".into())),
        database_users: true,
        ..Default::default()
    };
    let h = Server::bind_databases(
        "127.0.0.1:0",
        vec![
            ("neo4j".into(), grape::graph::Graph::new()),
            ("Movies".into(), movies),
            ("companies".into(), companies),
        ],
        config,
    )
    .unwrap()
    .spawn();
    let o = Command::new(&py)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bolt_support/databases_check.py"))
        .arg(format!("bolt://{}", h.local_addr()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o: Json = serde_json::from_slice(&o.stdout).unwrap();
    for (scheme, written) in [("bolt", 1), ("neo4j", 2)] {
        let r = &o[scheme];
        // A database user's home is its database; names ignore case.
        assert_eq!(r["home_count"], 2, "{scheme}: {r}");
        assert_eq!(r["home_element_db"], "movies");
        assert_eq!(r["home_summary_db"], "movies");
        assert_eq!(
            r["show"],
            json!([
                {"name": "companies", "home": false, "default": false},
                {"name": "movies", "home": true, "default": false},
                {"name": "neo4j", "home": false, "default": true},
                {"name": "system", "home": false, "default": false},
            ])
        );
        assert_eq!(r["companies"], "Neo.ClientError.Security.Forbidden");
        assert_eq!(r["nope"], "Neo.ClientError.Database.DatabaseNotFound");
        // The admin user reaches every database; a write lands in the one named.
        // Acme, and what the bolt:// pass wrote.
        assert_eq!(r["admin_companies"], written);
        assert_eq!(r["written_here"], written);
        assert_eq!(r["written_default"], 0);
        assert_eq!(r["admin_home"], "neo4j");
    }
    let companies = h.database("COMPANIES").unwrap();
    let t = grape::engine::run_read(
        &companies,
        "MATCH (n:Written) RETURN count(n)",
        &Default::default(),
        &Default::default(),
    )
    .unwrap();
    assert!(matches!(t.rows[0][0], Value::Int(2)));
    assert_eq!(h.graph().node_count(), 0);
    // The default database must be among those served, and names are unique.
    assert!(Server::bind_databases(
        "127.0.0.1:0",
        vec![("a".into(), grape::graph::Graph::new())],
        Config::default()
    )
    .is_err());
    assert!(Server::bind_databases(
        "127.0.0.1:0",
        vec![
            ("neo4j".into(), grape::graph::Graph::new()),
            ("NEO4J".into(), grape::graph::Graph::new())
        ],
        Config::default()
    )
    .is_err());
}

#[test]
fn python_driver_follows_use_clauses_and_composite_databases() {
    let Some(py) = python() else { return };
    let (movies, companies) = movies_and_companies();
    let mut composites =
        vec![grape::engine::Composite::parse("catalog=films:movies,firms:companies").unwrap()];
    grape::engine::set_alias_properties(&mut composites, r#"catalog.films={"genre": "all"}"#)
        .unwrap();
    let config = Config {
        composites,
        ..Default::default()
    };
    let h = Server::bind_databases(
        "127.0.0.1:0",
        vec![
            (
                "neo4j".into(),
                grape::graph::Graph::from_cypher_script("CREATE (:A)").unwrap(),
            ),
            ("movies".into(), movies),
            ("companies".into(), companies),
        ],
        config,
    )
    .unwrap()
    .spawn();
    let o = Command::new(&py)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bolt_support/use_check.py"))
        .arg(format!("bolt://{}", h.local_addr()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o: Json = serde_json::from_slice(&o.stdout).unwrap();
    for scheme in ["bolt", "neo4j"] {
        let r = &o[scheme];
        // A leading USE runs the statement on the database it names, as the summary says.
        assert_eq!(r["use_count"], 2, "{scheme}: {r}");
        assert_eq!(r["use_summary_db"], "movies");
        assert_eq!(r["here_count"], 1);
        assert_eq!(r["nope"], "Neo.ClientError.Database.DatabaseNotFound");
        assert_eq!(r["two_graphs"], "Neo.ClientError.Statement.SyntaxError");
        assert_eq!(r["written"], 1);
        assert_eq!(
            r["show"],
            json!([
                {"name": "catalog", "type": "composite", "constituents": ["catalog.films", "catalog.firms"]},
                {"name": "companies", "type": "standard", "constituents": []},
                {"name": "movies", "type": "standard", "constituents": []},
                {"name": "neo4j", "type": "standard", "constituents": []},
            ])
        );
        assert_eq!(r["names_here"], "Neo.ClientError.Statement.SemanticError");
        assert_eq!(r["by_name_here"], "Neo.ClientError.Statement.SyntaxError");
        assert_eq!(
            r["tx_other_db"],
            "Neo.ClientError.Statement.FeatureNotSupported"
        );
        // On the composite: its constituents, and statements on the one USE names.
        assert_eq!(r["graph_names"], json!(["catalog.films", "catalog.firms"]));
        assert_eq!(r["props"], json!({"genre": "all"}));
        assert_eq!(r["films"], 2);
        assert_eq!(r["firms"], "Acme");
        assert_eq!(
            r["constituent_nodes"],
            json!([
                [["Movie"], {"title": "A"}],
                [["Movie"], {"title": "B"}],
                [["Organization"], {"name": "Acme"}],
            ])
        );
        assert_eq!(r["no_use"], "Neo.ClientError.Statement.FeatureNotSupported");
    }
    // Nothing was written where the statements did not say.
    assert_eq!(h.database("movies").unwrap().node_count(), 2);
    assert_eq!(h.graph().node_count(), 1);
    // A composite names served databases, under a name of its own.
    for spec in ["catalog=films:nope", "movies=films:movies"] {
        let config = Config {
            composites: vec![grape::engine::Composite::parse(spec).unwrap()],
            ..Default::default()
        };
        assert!(
            Server::bind_databases(
                "127.0.0.1:0",
                vec![
                    ("neo4j".into(), grape::graph::Graph::new()),
                    ("movies".into(), grape::graph::Graph::new())
                ],
                config
            )
            .is_err(),
            "{spec}"
        );
    }
}
