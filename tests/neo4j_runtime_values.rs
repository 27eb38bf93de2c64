//! Values as Neo4j 5.26 treats them when a statement runs, where the checks before it cannot
//! see their types: a property, a parameter's float, an `UNWIND`ed element. Among them:
//! - predicates: a list is true when it has elements, anything but a boolean, a list or null
//!   is "Don't know how to treat that as a predicate" (`WHERE n.name` on a string fails; it
//!   used to filter the row out silently);
//! - `x IN v`, `[x IN v | …]`, `reduce(…)` and the quantifiers over a value that is not a list
//!   take it as a list of one;
//! - an INTEGER argument given a float (`substring(s, 1.5)`, `range(0, 2.5)`) is truncated;
//! - `x AND true` is `x` and `x OR true` true, as Neo4j's planner folds them before they run;
//! - arithmetic on values it cannot combine: "Cannot add `Long` and `Map`", with the GQL
//!   status (`22G03`, caused by `22N01` "Expected the value 1 to be of type MAP NOT NULL, …");
//! - `trim(BOTH 'x' FROM s)` and the other SQL forms of `trim`, which Neo4j reads as
//!   `trim(spec, chars, s)`; DISTINCT in a function that is not an aggregation;
//! - a wrong number of arguments to a built-in function: `42001` caused by `42I13`, whose
//!   description names the count expected and every overload's signature;
//! - temporal constructors: the fields a map may hold and how they combine ("No such field:
//!   foo", "Cannot assign month to week date."; GQL `22007` caused by `22N12`, naming the
//!   field, or the value assigned twice, it cannot process), a text that is not a temporal (a
//!   `SyntaxError`: "Text cannot be parsed to a Date").
//!
//! `tests/data/neo4j_runtime_values.jsonl` holds Neo4j 5.26.30's answers (asked through the
//! Python driver of the oracle, `scripts/neo4j-oracle`, each statement on an empty database
//! after its `setup`): rows, or the error's code, the first line of its message and its GQL
//! statuses (outer first). grape must give the same rows, the same code and message, and —
//! where grape gives an error a GQL status of its own — the same GQL statuses; the few
//! statements listed below differ, each for the reason given.

use serde_json::Value as Json;

/// Statements whose error message differs from Neo4j's (the code, and the GQL statuses where
/// recorded, are equal), with the reason.
const MESSAGE_DIFFERS: &[(&str, &str)] = &[
    (
        "RETURN trim(BOTH FROM) AS a",
        "syntax errors inside trim(…) list grape's expected tokens",
    ),
    (
        "RETURN trim(BOTH 'x') AS a",
        "syntax errors inside trim(…) list grape's expected tokens",
    ),
    (
        "RETURN trim(BOTH 'x' FROM 'xax', 'y') AS a",
        "syntax errors inside trim(…) list grape's expected tokens",
    ),
    (
        "RETURN trim(LEADING 'x' FROM 'x' FROM 'y') AS a",
        "syntax errors inside trim(…) list grape's expected tokens",
    ),
    (
        "RETURN trim('x' FROM 'x' FROM 'y') AS a",
        "syntax errors inside trim(…) list grape's expected tokens",
    ),
    (
        "RETURN trim(BOTH DISTINCT 'x' FROM 'xax') AS a",
        "syntax errors inside trim(…) list grape's expected tokens",
    ),
    (
        "RETURN trim(DISTINCT BOTH 'x' FROM 'xax') AS a",
        "syntax errors inside trim(…) list grape's expected tokens",
    ),
    (
        "RETURN 1 +",
        "grape lists its own expected tokens after an operator",
    ),
    (
        "RETURN $s =~ '(' AS a",
        "the regex engine's own words for a bad pattern",
    ),
    (
        "RETURN localdatetime({year: $s}) AS a",
        "Neo4j names a parameter's string class (StringWrappingStringValue), grape a literal's",
    ),
    (
        "RETURN duration({days: $s}) AS a",
        "Neo4j names a parameter's string class (StringWrappingStringValue), grape a literal's",
    ),
];

/// Statements where grape answers otherwise than Neo4j, with the reason.
const DIFFERS: &[(&str, &str)] = &[
    (
        "RETURN reduce(DISTINCT 1) AS a",
        "grape reports the DISTINCT before reduce's missing accumulator",
    ),
    (
        "UNWIND ['a', 1.5, {a: 1}, null, [1], true] AS v RETURN 1.5 IN v AS a, 'a' IN v AS b, [x IN v | x] AS c, size([x IN v WHERE true]) AS d, reduce(s = 0, x IN v | s + 1) AS e",
        "Neo4j folds `[x IN v WHERE true]` to `v` itself, which size() then refuses",
    ),
    (
        "UNWIND [[], [1]] AS v WITH v WHERE v RETURN v",
        "grape does not type a list of lists' elements (Neo4j: a list, refused as a predicate)",
    ),
    (
        "UNWIND [[], [1]] AS v RETURN NOT v AS a, v AND true AS b, v OR false AS c, v XOR true AS d",
        "grape does not type a list of lists' elements (Neo4j: a list, refused as a predicate)",
    ),
    (
        "RETURN toString(datetime({epochSeconds: 1, year: 2020})) AS a",
        "Neo4j lets a year override the epoch's",
    ),
    (
        "RETURN toString(date({year: null})) AS a",
        "Neo4j takes a null year as year 0",
    ),
    (
        "RETURN duration.between(1, date()) AS a",
        "Neo4j fails this as a procedure call (ProcedureCallFailed)",
    ),
    (
        "RETURN datetime.fromepoch(1, 'x') AS a",
        "grape lists Float or Integer where Neo4j adds Number",
    ),
    (
        "MATCH (n) RETURN *, n AS n",
        "grape refuses a column named twice by `*` and an alias",
    ),
];

fn listed(list: &[(&str, &str)], q: &str) -> bool {
    list.iter().any(|(x, _)| *x == q)
}

#[test]
fn runtime_values_are_treated_as_neo4j_treats_them() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/neo4j_runtime_values.jsonl"
    ))
    .unwrap();
    let mut wrong = Vec::new();
    let (mut n, mut errors, mut gql_checked) = (0, 0, 0);
    let mut still_differ = std::collections::BTreeSet::new();
    for line in text.lines() {
        let case: Json = serde_json::from_str(line).unwrap();
        let q = case["query"].as_str().unwrap();
        n += 1;
        let params = grape::engine::params_from_json(&case["params"].to_string()).unwrap();
        let mut g = grape::graph::Graph::default();
        if let Some(setup) = case.get("setup").and_then(Json::as_str) {
            grape::engine::run(&mut g, setup, &Default::default()).unwrap();
        }
        let got = grape::engine::run_with(&mut g, q, &params, &Default::default());
        let at = format!("{q} {}", case["params"]);
        if listed(DIFFERS, q) {
            continue;
        }
        match (case.get("code").and_then(Json::as_str), got) {
            (None, Ok(t)) => {
                let rows = Json::Array(t.rows_json());
                if rows != case["rows"] {
                    wrong.push(format!("{at}: rows {rows}, Neo4j {}", case["rows"]));
                }
            }
            (None, Err(e)) => wrong.push(format!(
                "{at}: fails ({}: {}), Neo4j answers {}",
                e.code(),
                e.neo4j_message(q),
                case["rows"]
            )),
            (Some(code), Ok(t)) => wrong.push(format!(
                "{at}: answers {:?}, Neo4j fails with {code}",
                t.rows_json()
            )),
            (Some(code), Err(e)) => {
                errors += 1;
                let message = e.neo4j_message(q);
                let first = message.lines().next().unwrap_or("");
                if e.code() != code {
                    wrong.push(format!("{at}: code {}, Neo4j {code}", e.code()));
                } else if first != case["message"].as_str().unwrap() {
                    if listed(MESSAGE_DIFFERS, q) {
                        still_differ.insert(q.to_string());
                    } else {
                        wrong.push(format!(
                            "{at}:\n  grape {first}\n  neo4j {}",
                            case["message"]
                        ));
                    }
                }
                // Where Neo4j has a GQL status of its own, grape gives it too; where grape
                // names one, it is Neo4j's.
                let generic = |codes: &[String]| codes.iter().all(|c| c == "50N42");
                let recorded: Vec<String> = case["gql"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                let mine = grape::difftest::gql_codes(&e);
                if generic(&mine) && !generic(&recorded) {
                    wrong.push(format!("{at}: GQL {mine:?}, Neo4j {recorded:?}"));
                }
                if mine != ["50N42"] && !recorded.is_empty() {
                    gql_checked += 1;
                    if mine != recorded {
                        wrong.push(format!("{at}: GQL {mine:?}, Neo4j {recorded:?}"));
                    }
                }
                // Where the recording has the statuses' descriptions, they are Neo4j's too.
                if let Some(descriptions) = case.get("gql_descriptions").and_then(Json::as_array) {
                    let mut status = Some(e.gql());
                    for want in descriptions {
                        let got = status.as_ref().map(|s| s.description.as_str());
                        if got != want.as_str() {
                            wrong.push(format!("{at}: GQL description {got:?}, Neo4j {want}"));
                        }
                        status = status.and_then(|s| s.cause.map(|c| *c));
                    }
                }
            }
        }
    }
    // A message listed as differing that now agrees is taken off the list.
    for (q, why) in MESSAGE_DIFFERS {
        if !still_differ.contains(*q) {
            wrong.push(format!(
                "{q}: listed as differing ({why}), but agrees with Neo4j"
            ));
        }
    }
    assert!(n >= 700 && errors >= 400, "{n} cases, {errors} errors");
    assert!(gql_checked >= 450, "{gql_checked} GQL statuses compared");
    assert!(
        wrong.is_empty(),
        "{} of {n} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A predicate that is not a boolean fails the statement; it never filters rows silently.
#[test]
fn a_predicate_that_is_not_a_boolean_fails() {
    let mut g = grape::graph::Graph::default();
    grape::engine::run(
        &mut g,
        "CREATE (:P {name: 'a', tags: ['x'], none: []})",
        &Default::default(),
    )
    .unwrap();
    let e = grape::engine::run(
        &mut g,
        "MATCH (p:P) WHERE p.name RETURN p",
        &Default::default(),
    )
    .unwrap_err();
    assert_eq!(e.code(), "Neo.ClientError.Statement.TypeError");
    assert_eq!(
        e.message,
        "Don't know how to treat that as a predicate: String(\"a\")"
    );
    for (q, want) in [
        ("MATCH (p:P) WHERE p.tags RETURN count(*) AS c", 1),
        ("MATCH (p:P) WHERE p.none RETURN count(*) AS c", 0),
        ("MATCH (p:P) WHERE 'a' IN p.name RETURN count(*) AS c", 1),
    ] {
        let t = grape::engine::run(&mut g, q, &Default::default()).unwrap();
        assert_eq!(t.rows_json(), vec![serde_json::json!([want])], "{q}");
    }
}
