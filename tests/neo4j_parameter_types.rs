//! Parameters typed as Neo4j 5.26 types them before it compiles a statement: each from its
//! value (a string, an integer, a boolean, a list — `List<String>` when every element is a
//! string, `List<T>` otherwise — and a map as `Map, Node or Relationship`; a float, a temporal
//! value or null not at all), so `toUpper($x)` with `x = 1` is a compile-time `SyntaxError`
//! "Type mismatch for parameter 'x': …" where the TCK and a naive engine fail at run time.
//! Beside them, the literal forms of the same checks (list comprehensions, slices, `=~`,
//! searched `CASE`, element access, positions at operators).
//!
//! `tests/data/neo4j_parameter_types.jsonl` holds Neo4j 5.26.30's answers (asked through the
//! Python driver of the oracle, `scripts/neo4j-oracle`): rows, or the error's code and the first
//! line of its message. Compile-time errors must be equal word for word; rows equal; a runtime
//! error must be an error (its wording is Neo4j's own runtime's).

use serde_json::Value as Json;

#[test]
fn parameters_and_literals_are_typed_as_neo4j_types_them() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/neo4j_parameter_types.jsonl"
    ))
    .unwrap();
    let mut wrong = Vec::new();
    let (mut compile_time, mut n) = (0, 0);
    for line in text.lines() {
        let case: Json = serde_json::from_str(line).unwrap();
        let q = case["query"].as_str().unwrap();
        n += 1;
        let params = grape::engine::params_from_json(&case["params"].to_string()).unwrap();
        let mut g = grape::graph::Graph::default();
        let got = grape::engine::run_with(&mut g, q, &params, &Default::default());
        let at = format!("{q} {}", case["params"]);
        match (case.get("code").and_then(Json::as_str), got) {
            (None, Ok(t)) => {
                let rows = Json::Array(t.rows_json());
                if rows != case["rows"] {
                    wrong.push(format!("{at}: rows {rows}, Neo4j {}", case["rows"]));
                }
            }
            (None, Err(e)) => wrong.push(format!(
                "{at}: fails ({}), Neo4j runs it",
                e.neo4j_message(q)
            )),
            (Some(code), Ok(_)) => wrong.push(format!("{at}: runs, Neo4j fails with {code}")),
            (Some(code), Err(e)) => {
                let message = e.neo4j_message(q);
                let first = message.lines().next().unwrap_or("");
                if code == "Neo.ClientError.Statement.SyntaxError" {
                    compile_time += 1;
                    if e.code() != code || first != case["message"].as_str().unwrap() {
                        wrong.push(format!(
                            "{at}:\n  grape {}: {first}\n  neo4j {code}: {}",
                            e.code(),
                            case["message"]
                        ));
                    }
                } else if e.code() == "Neo.ClientError.Statement.SyntaxError" {
                    wrong.push(format!("{at}: refused at compile time ({first}), Neo4j fails when it runs ({code})"));
                }
            }
        }
    }
    assert!(compile_time >= 140, "{compile_time} compile-time cases");
    assert!(
        wrong.is_empty(),
        "{} of {n} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The engine's own checks take no parameters: typing needs their values, so `check` (and a
/// validator without them) accepts what a run with the wrong value refuses.
#[test]
fn a_statement_is_typed_by_the_values_it_runs_with() {
    let q = "RETURN toUpper($x) AS r";
    let stmt = grape::syntax::parse(q).unwrap();
    assert!(grape::engine::check(&stmt, q).is_ok());
    let mut g = grape::graph::Graph::default();
    for (value, ok) in [
        ("\"a\"", true),
        ("null", true),
        ("1.5", false),
        ("1", false),
    ] {
        let p = grape::engine::params_from_json(&format!("{{\"x\": {value}}}")).unwrap();
        let r = grape::engine::run_with(&mut g, q, &p, &Default::default());
        assert_eq!(r.is_ok(), ok, "{value}: {r:?}");
        let Err(e) = r else { continue };
        // An integer is typed at compile time; a float (as on Neo4j) fails when it runs.
        let code = match value {
            "1" => "Neo.ClientError.Statement.SyntaxError",
            _ => "Neo.ClientError.Statement.TypeError",
        };
        assert_eq!(e.code(), code, "{value}");
    }
    // The validator with the values' types, as the engine runs it.
    let opts = grape::analysis::ValidateOptions {
        parameter_types: grape::analysis::ParameterType::of_all(
            &grape::engine::params_from_json("{\"x\": [\"a\", \"b\"]}").unwrap(),
        ),
        ..Default::default()
    };
    let schema = grape::schema::Schema::default();
    let v = grape::analysis::Validator::with_options(&schema, opts).validate(q);
    assert_eq!(
        v.diagnostics[0].message,
        "Type mismatch for parameter 'x': expected String but was List<String>"
    );
}
