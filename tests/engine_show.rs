//! `SHOW FUNCTIONS` / `SHOW PROCEDURES` list the catalogue in Neo4j's columns; they parse,
//! print canonically, validate and run like Neo4j's.

use grape::engine::{run_read, Options, Params};
use grape::graph::Graph;
use serde_json::{json, Value as Json};

fn rows(q: &str) -> (Vec<String>, Json) {
    let t = run_read(&Graph::new(), q, &Params::new(), &Options::default())
        .unwrap_or_else(|e| panic!("{q}: {e}"));
    (t.columns.clone(), t.to_json()["rows"].clone())
}

#[test]
fn show_functions_lists_the_catalogue() {
    let (cols, r) = rows("SHOW FUNCTIONS");
    assert_eq!(cols, ["name", "category", "description"]);
    let n = r.as_array().unwrap().len();
    let cypher5 = grape::catalogue::functions()
        .iter()
        .filter(|f| f.versions.cypher_5)
        .count();
    assert_eq!(n, cypher5);
    let (_, r) = rows(
        "SHOW BUILT IN FUNCTIONS YIELD name, category WHERE category = 'Spatial' \
         RETURN name ORDER BY name",
    );
    assert_eq!(
        r,
        json!([["point"], ["point.distance"], ["point.withinBBox"]])
    );
    let (_, r) = rows("SHOW USER DEFINED FUNCTIONS YIELD name RETURN count(*) AS n");
    let plugins = grape::catalogue::functions()
        .iter()
        .filter(|f| f.versions.cypher_5 && !f.built_in)
        .count();
    assert_eq!(r, json!([[plugins]]));
    let (cols, r) = rows(
        "SHOW FUNCTIONS YIELD * WHERE name = 'left' \
         RETURN signature, argumentDescription, returnDescription, aggregating, isBuiltIn",
    );
    assert_eq!(cols.len(), 5);
    assert_eq!(
        r,
        json!([[
            "left(original :: STRING, length :: INTEGER) :: STRING",
            [
                {"name": "original", "type": "STRING", "description": null, "isDeprecated": false},
                {"name": "length", "type": "INTEGER", "description": null, "isDeprecated": false}
            ],
            "STRING",
            false,
            true
        ]])
    );
}

#[test]
fn show_procedures_filters_orders_and_limits() {
    let (cols, r) = rows("SHOW PROCEDURES WHERE name STARTS WITH 'db.index.vector.query'");
    assert_eq!(cols, ["name", "description", "mode", "worksOnSystem"]);
    assert_eq!(
        r,
        json!([
            ["db.index.vector.queryNodes", null, "READ", false],
            ["db.index.vector.queryRelationships", null, "READ", false]
        ])
    );
    let (_, r) = rows(
        "SHOW PROCEDURES YIELD name AS n, mode ORDER BY n DESC SKIP 1 LIMIT 2 \
         WHERE n STARTS WITH 'db.' RETURN n",
    );
    let all: Vec<&str> = grape::catalogue::procedures()
        .iter()
        .filter(|p| p.versions.cypher_5)
        .map(|p| p.name)
        .collect();
    let mut sorted = all.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    let want: Vec<Json> = sorted[1..3]
        .iter()
        .filter(|n| n.starts_with("db."))
        .map(|n| json!([n]))
        .collect();
    assert_eq!(r, Json::Array(want));
    let (_, r) = rows(
        "SHOW PROCEDURES YIELD name, signature, returnDescription \
         WHERE name = 'db.labels' RETURN signature, returnDescription",
    );
    assert_eq!(
        r,
        json!([[
            "db.labels() :: (label :: STRING)",
            [{"name": "label", "type": "STRING", "description": null, "isDeprecated": false}]
        ]])
    );
}

#[test]
fn show_parses_prints_and_validates() {
    let q = "show built in functions executable by current user yield name as n, category \
             order by n desc skip 1 limit 3 where n <> 'x' return n";
    let stmt = grape::syntax::parse(q).unwrap();
    let printed = grape::syntax::print(&stmt, &Default::default());
    assert_eq!(
        printed,
        "SHOW BUILT IN FUNCTIONS EXECUTABLE YIELD name AS n, category ORDER BY n DESC SKIP 1 \
         LIMIT 3 WHERE n <> 'x' RETURN n"
    );
    let again = grape::syntax::parse(&printed).unwrap();
    assert_eq!(grape::syntax::print(&again, &Default::default()), printed);
    for q in [
        "SHOW PROCEDURES",
        "SHOW PROCEDURE EXECUTABLE BY alice",
        "SHOW ALL FUNCTIONS WHERE isBuiltIn",
        "SHOW USER DEFINED FUNCTIONS YIELD *",
    ] {
        let s = grape::syntax::parse(q).unwrap();
        let p = grape::syntax::print(&s, &Default::default());
        assert_eq!(
            grape::syntax::print(&grape::syntax::parse(&p).unwrap(), &Default::default()),
            p,
            "{q}"
        );
    }
    // A column SHOW does not have is a compile-time error, in the validator and the engine.
    let v = grape::analysis::validate("SHOW FUNCTIONS YIELD nope RETURN nope", &Default::default());
    assert!(!v.syntax_ok);
    assert!(v.diagnostics[0]
        .message
        .contains("Trying to YIELD non-existing column: `nope`"));
    let e = run_read(
        &Graph::new(),
        "SHOW FUNCTIONS YIELD name RETURN category",
        &Params::new(),
        &Options::default(),
    )
    .unwrap_err();
    assert!(e.message.contains("category"), "{}", e.message);
    // SHOW reads: it runs in read-only contexts.
    let stmt = grape::syntax::parse("SHOW PROCEDURES").unwrap();
    assert!(!grape::engine::is_updating(&stmt));
}

#[test]
fn show_databases_lists_the_served_graph_and_system() {
    let (cols, r) = rows("SHOW DATABASES");
    assert_eq!(cols.len(), 13);
    assert_eq!(&cols[..3], ["name", "type", "aliases"]);
    let names: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[0].as_str().unwrap())
        .collect();
    assert_eq!(names, ["neo4j", "system"]);
    let (_, r) = rows(
        "SHOW DATABASES YIELD name, type, currentStatus, default, home WHERE name = 'neo4j' \
         RETURN name, type, currentStatus, default, home",
    );
    assert_eq!(r, json!([["neo4j", "standard", "online", true, true]]));
    for q in [
        "SHOW DEFAULT DATABASE",
        "SHOW HOME DATABASE",
        "SHOW DATABASE neo4j",
    ] {
        let (_, r) = rows(q);
        assert_eq!(r.as_array().unwrap().len(), 1, "{q}");
        assert_eq!(r[0][0], "neo4j", "{q}");
    }
    let (_, r) = rows("SHOW DATABASE nope");
    assert_eq!(r, json!([]));
    // Outside a server: Neo4j's settings with the engine's limits, no transaction to list or
    // terminate, no users.
    let (_, r) = rows("SHOW SETTINGS 'db.transaction.timeout', 'db.memory.transaction.max'");
    assert_eq!(
        r,
        json!([
            ["db.memory.transaction.max", "1.00GiB", true, "0B", null],
            ["db.transaction.timeout", "30s", true, "0s", null]
        ])
    );
    let (_, r) = rows("SHOW TRANSACTIONS 'neo4j-transaction-1'");
    assert_eq!(r, json!([]));
    let (_, r) = rows("TERMINATE TRANSACTIONS 'neo4j-transaction-1'");
    assert_eq!(
        r,
        json!([["neo4j-transaction-1", null, "Transaction not found."]])
    );
    let e = run_read(
        &Graph::new(),
        "SHOW CURRENT USER",
        &Params::new(),
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(e.code(), "Neo.ClientError.Statement.FeatureNotSupported");
    let e = run_read(
        &Graph::new(),
        "SHOW TRANSACTIONS YIELD nope",
        &Params::new(),
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(e.message, "Trying to YIELD non-existing column: `nope`");
}

/// `RETURN *` after a SHOW command keeps the yielded columns in their order, as Neo4j 5.26
/// does (elsewhere it sorts them by name).
#[test]
fn return_star_after_show_keeps_the_yield_order() {
    let (cols, _) = rows("SHOW INDEXES YIELD type, name RETURN *");
    assert_eq!(cols, ["type", "name"]);
    let (cols, _) = rows("SHOW FUNCTIONS YIELD name, category WHERE true RETURN * LIMIT 1");
    assert_eq!(cols, ["name", "category"]);
    let (cols, _) = rows("UNWIND [1] AS b UNWIND [2] AS a RETURN *");
    assert_eq!(cols, ["a", "b"]);
}
