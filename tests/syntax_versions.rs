//! `CYPHER 5` / `CYPHER 25`: the prefix parses and prints back, an unknown version is refused
//! with Neo4j's message, Cypher-25-only constructs are refused under Cypher 5 (the default) and
//! run under Cypher 25, by prefix or by option.

use grape::engine::{execute, Options, Params};
use grape::graph::Graph;
use grape::syntax::{parse, print, CypherVersion, PrintOptions};

fn run(g: &mut Graph, q: &str, cypher: CypherVersion) -> Result<Vec<String>, String> {
    let stmt = parse(q).map_err(|e| e.to_string())?;
    let opts = Options {
        cypher,
        ..Default::default()
    };
    let t = execute(g, &stmt, q, &Params::new(), &opts).map_err(|e| e.to_string())?;
    Ok(t.rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect())
}

#[test]
fn the_prefix_parses_and_prints_back() {
    for (text, canonical) in [
        (
            "CYPHER 25 MATCH (n) RETURN n",
            "CYPHER 25 MATCH (n) RETURN n",
        ),
        (
            "cypher 5 runtime=slotted planner=cost explain MATCH (n) RETURN n",
            "CYPHER 5 runtime=slotted planner=cost EXPLAIN MATCH (n) RETURN n",
        ),
        ("EXPLAIN CYPHER 25 RETURN 1", "CYPHER 25 EXPLAIN RETURN 1"),
        (
            "CYPHER runtime=parallel RETURN 1",
            "CYPHER runtime=parallel RETURN 1",
        ),
    ] {
        let stmt = parse(text).unwrap();
        let printed = print(&stmt, &PrintOptions::default());
        assert_eq!(printed, canonical);
        assert_eq!(parse(&printed).unwrap(), stmt, "{text}");
    }
    let stmt = parse("CYPHER 25 RETURN 1").unwrap();
    assert_eq!(
        stmt.cypher_version(CypherVersion::Cypher5),
        Ok(CypherVersion::Cypher25)
    );
    // A later prefix wins, as in Neo4j.
    let stmt = parse("CYPHER 5 CYPHER 25 RETURN 1").unwrap();
    assert_eq!(
        stmt.cypher_version(CypherVersion::Cypher5),
        Ok(CypherVersion::Cypher25)
    );
}

#[test]
fn an_unknown_version_is_refused_with_neo4js_message() {
    let mut g = Graph::new();
    for (q, v) in [("CYPHER 4 RETURN 1", "4"), ("CYPHER 4.4 RETURN 1", "4.4")] {
        let err = run(&mut g, q, CypherVersion::Cypher5).unwrap_err();
        assert!(
            err.contains(&format!(
                "{v} is not a valid option for cypher version. Valid options are: 5, 25"
            )),
            "{q}: {err}"
        );
    }
}

#[test]
fn cypher_25_constructs_are_refused_under_5_and_run_under_25() {
    let script = "CREATE (:A {i: 1})-[:R]->(:A {i: 2})";
    for (q, cypher5_error, rows) in [
        (
            "MATCH REPEATABLE ELEMENTS (a)-[r]->(b) RETURN a.i, b.i",
            "Match modes such as `REPEATABLE ELEMENTS` are not supported in Cypher 5.",
            vec!["1 | 2"],
        ),
        (
            "CREATE (:B) MATCH (b:B) RETURN count(b)",
            "WITH is required between CREATE and MATCH",
            vec!["1"],
        ),
        (
            "MATCH (a:A {i: 1}) SET a.j = 1 UNWIND [1, 2] AS x RETURN x",
            "WITH is required between SET and UNWIND",
            vec!["1", "2"],
        ),
    ] {
        let mut g = Graph::from_cypher_script(script).unwrap();
        let err = run(&mut g, q, CypherVersion::Cypher5).unwrap_err();
        assert!(err.contains(cypher5_error), "{q}: {err}");
        // Nothing ran.
        assert_eq!(
            run(
                &mut g,
                "MATCH (b:B) RETURN count(b)",
                CypherVersion::Cypher5
            )
            .unwrap(),
            ["0"]
        );
        // The prefix selects Cypher 25 …
        let mut g = Graph::from_cypher_script(script).unwrap();
        assert_eq!(
            run(&mut g, &format!("CYPHER 25 {q}"), CypherVersion::Cypher5).unwrap(),
            rows,
            "{q}"
        );
        // … and so does the option, unless the prefix says otherwise.
        let mut g = Graph::from_cypher_script(script).unwrap();
        assert_eq!(
            run(&mut g, q, CypherVersion::Cypher25).unwrap(),
            rows,
            "{q}"
        );
        let err = run(&mut g, &format!("CYPHER 5 {q}"), CypherVersion::Cypher25).unwrap_err();
        assert!(err.contains(cypher5_error), "{q}: {err}");
    }
    // With WITH in between, Cypher 5 runs it.
    let mut g = Graph::new();
    assert_eq!(
        run(
            &mut g,
            "CREATE (a:B) WITH a MATCH (b:B) RETURN count(b)",
            CypherVersion::Cypher5
        )
        .unwrap(),
        ["1"]
    );
}
