//! `grape validate --format sarif|github`: findings placed in their files (scripts with lines
//! and columns, JSON Lines records by line), SARIF valid against the OASIS 2.1.0 JSON schema
//! (`target/sarif-schema/sarif-schema-2.1.0.json`, which `.ci/run` takes from the serde-sarif
//! crate's source; checked with Python's jsonschema, required with `GRAPE_REQUIRE_SARIF_SCHEMA=1`)
//! and GitHub workflow annotations.
#![cfg(feature = "cli")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn setup(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grape-validate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("q.cypher"),
        "MATCH (p:Persn) RETURN p.name;\n\nMATCH (p:Person)\nRETURN p.nmae, x;\n",
    )
    .unwrap();
    std::fs::write(
        d.join("q.jsonl"),
        "{\"id\": \"a\", \"query\": \"MATCH (m:Movi) RETURN m\"}\n",
    )
    .unwrap();
    std::fs::write(
        d.join("schema.txt"),
        "Node properties are the following:\nPerson {name: STRING}\n\
         Relationship properties are the following:\nThe relationships are the following:\n",
    )
    .unwrap();
    d
}

fn validate(dir: &Path, format: &str) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_grape"))
        .current_dir(dir)
        .args([
            "validate",
            "--schema",
            "schema.txt",
            "--format",
            format,
            "q.cypher",
            "q.jsonl",
        ])
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

#[test]
fn github_annotations_point_at_the_findings() {
    let dir = setup("github");
    let (code, out) = validate(&dir, "github");
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with(
        "::warning file=q.cypher,line=1,endLine=1,col=10,endColumn=15,title=Neo.ClientNotification.Statement.UnknownLabelWarning::the schema has no label `Persn`"
    ));
    assert!(
        lines[1].contains("line=4,endLine=4,col=10,endColumn=14") && lines[1].contains("`nmae`")
    );
    assert!(lines[2].starts_with("::error file=q.cypher,line=4,endLine=4,col=16,endColumn=17,"));
    // A JSON Lines record: its line, no columns.
    assert!(lines[3].starts_with("::warning file=q.jsonl,line=1,endLine=1,title="));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sarif_is_valid_and_places_every_finding() {
    let dir = setup("sarif");
    let (code, out) = validate(&dir, "sarif");
    assert_eq!(code, Some(1));
    let log: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    for r in results {
        assert_eq!(
            rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"],
            r["ruleId"]
        );
    }
    let region = &results[2]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (
            &region["startLine"],
            &region["startColumn"],
            &region["endColumn"]
        ),
        (
            &serde_json::json!(4),
            &serde_json::json!(16),
            &serde_json::json!(17)
        )
    );
    assert_eq!(results[2]["level"], "error");
    assert!(results[3]["locations"][0]["physicalLocation"]["region"]["startColumn"].is_null());

    let schema =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target/sarif-schema/sarif-schema-2.1.0.json");
    let py = common::python_with(
        "import jsonschema",
        "GRAPE_REQUIRE_SARIF_SCHEMA",
        "SARIF schema check",
    );
    match py {
        Some(py) if schema.is_file() => {
            let file = dir.join("out.sarif");
            std::fs::write(&file, &out).unwrap();
            let o = Command::new(py)
                .arg(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/eval_support/sarif_check.py"
                ))
                .arg(&file)
                .arg(&schema)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
        }
        _ => {
            if std::env::var("GRAPE_REQUIRE_SARIF_SCHEMA").as_deref() == Ok("1") {
                panic!(
                    "GRAPE_REQUIRE_SARIF_SCHEMA=1 but {} is missing",
                    schema.display()
                );
            }
            eprintln!(
                "SKIPPED SARIF schema check: no {} or no jsonschema",
                schema.display()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A graph stands for its schema: the bundled demo graph (a JSON fixture), a Cypher script and
/// a folder are read as `--graph` reads them, their schema derived from the data; a file that
/// is neither says both why.
#[test]
fn a_graph_is_accepted_wherever_a_schema_is() {
    let d = setup("graph-schema");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/demo/graph.json");
    std::fs::write(
        d.join("g.cypher"),
        "CREATE (:Person {name: 'Ann'})-[:KNOWS]->(:Person {name: 'Bob'});\n",
    )
    .unwrap();
    std::fs::write(
        d.join("ok.cypher"),
        "MATCH (p:Person)-[:KNOWS]->(q) RETURN q.name;\n",
    )
    .unwrap();
    let run = |schema: &Path, file: &str| {
        Command::new(env!("CARGO_BIN_EXE_grape"))
            .current_dir(&d)
            .args(["validate", "--schema"])
            .arg(schema)
            .arg(file)
            .output()
            .unwrap()
    };
    let o = run(&d.join("g.cypher"), "ok.cypher");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = run(&d.join("g.cypher"), "q.cypher");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Persn"));
    // The demo graph: a query over its data is valid, a misspelt label is not.
    let o = run(&demo, "q.cypher");
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::write(d.join("bad.json"), "[1, 2").unwrap();
    let o = run(&d.join("bad.json"), "q.cypher");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("nor is it a graph grape reads"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A property type grape does not know (a misspelt `Strng`) is kept as written and never
/// type-checked: the schema reader warns about each one, naming the file, the element and the key.
#[test]
fn an_unknown_property_type_is_warned_about() {
    let d = setup("unknown-type");
    std::fs::write(
        d.join("s.json"),
        r#"{"format": "grape-schema/1", "labels": {"Person": {"properties": {"name": "Strng", "tags": "LIST<Txt>", "age": "INTEGER"}}}, "relationship_types": {"KNOWS": {"properties": {"since": "Dat"}}}}"#,
    )
    .unwrap();
    std::fs::write(d.join("ok.cypher"), "MATCH (p:Person) RETURN p.age;\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_grape"))
        .current_dir(&d)
        .args(["validate", "--schema", "s.json", "ok.cypher"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    for w in [
        "warning: s.json: Person.name has type `Strng`, which grape does not know",
        "warning: s.json: Person.tags has type `LIST<Txt>`",
        "warning: s.json: [:KNOWS].since has type `Dat`",
    ] {
        assert!(err.contains(w), "{w} not in:\n{err}");
    }
    assert!(!err.contains("Person.age"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
