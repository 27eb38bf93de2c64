//! `CYPHER 5` / `CYPHER 25`: the prefix parses and prints back, an unknown version is refused
//! with Neo4j's message, Cypher-25-only constructs are refused under Cypher 5 (the default) and
//! run under Cypher 25, by prefix or by option.

mod common;

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
    Ok(common::display_rows(&t))
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

#[test]
fn let_and_filter_are_cypher_25_clauses() {
    for (text, canonical) in [
        (
            "CYPHER 25 UNWIND [1, 2, 3] AS x LET y = x * 2, z = x FILTER WHERE y > 2 RETURN x, y, z",
            "CYPHER 25 UNWIND [1, 2, 3] AS x LET y = x * 2, z = x FILTER y > 2 RETURN x, y, z",
        ),
        ("CYPHER 25 LET a = 1 RETURN a", "CYPHER 25 LET a = 1 RETURN a"),
    ] {
        let stmt = parse(text).unwrap();
        let printed = print(&stmt, &PrintOptions::default());
        assert_eq!(printed, canonical);
        assert_eq!(parse(&printed).unwrap(), stmt);
    }
    let mut g =
        Graph::from_cypher_script("CREATE (:P {n: 'a', x: 1}), (:P {n: 'b', x: 5})").unwrap();
    let q = "MATCH (p:P) LET big = p.x > 2, name = p.n FILTER big RETURN name";
    assert_eq!(run(&mut g, q, CypherVersion::Cypher25).unwrap(), ["'b'"]);
    let err = run(&mut g, q, CypherVersion::Cypher5).unwrap_err();
    assert!(err.contains("Invalid input 'LET'"), "{err}");
    // LET's items see the incoming row, not each other; a bound name cannot be rebound; an
    // aggregate has no group to aggregate over.
    for (q, message) in [
        (
            "CYPHER 25 LET a = 1, b = a RETURN b",
            "Variable `a` not defined",
        ),
        (
            "CYPHER 25 MATCH (p:P) LET p = 1 RETURN p",
            "already declared",
        ),
        (
            "CYPHER 25 MATCH (p:P) LET c = count(p) RETURN c",
            "Invalid use of aggregating function",
        ),
        (
            "CYPHER 25 MATCH (p:P) FILTER count(p) > 1 RETURN p",
            "Invalid use of aggregating function count(...)",
        ),
    ] {
        let err = run(&mut g, q, CypherVersion::Cypher25).unwrap_err();
        assert!(err.contains(message), "{q}: {err}");
    }
    // The plan: a projection and a filter.
    let stmt = parse(q).unwrap();
    let opts = Options {
        cypher: CypherVersion::Cypher25,
        ..Default::default()
    };
    let plan = grape::engine::explain(&g, &stmt, q, &Params::new(), &opts).unwrap();
    let ops: Vec<&str> = plan.walk().iter().map(|p| p.operator.as_str()).collect();
    assert_eq!(
        ops,
        ["ProduceResults", "Filter", "Projection", "NodeByLabelScan"]
    );
}

#[test]
fn a_query_concludes_with_a_result_or_an_effect() {
    let mut g = Graph::new();
    for (q, clause) in [
        ("MATCH (n)", "MATCH"),
        ("MATCH (n) WITH n", "WITH"),
        ("UNWIND [1] AS x", "UNWIND"),
        ("CALL { MATCH (n) RETURN n }", "CALL"),
        ("MATCH (n) RETURN n UNION MATCH (n)", "MATCH"),
        ("CYPHER 25 MATCH (n) FILTER n.x > 1", "FILTER"),
    ] {
        let err = run(&mut g, q, CypherVersion::Cypher5).unwrap_err();
        assert!(
            err.contains(&format!(
                "Query cannot conclude with {clause} (must be a RETURN clause"
            )),
            "{q}: {err}"
        );
    }
    for q in [
        "CALL db.labels() YIELD label",
        "CALL db.labels()",
        "CALL { CREATE (:X) }",
        "MATCH (n) FINISH",
        "CREATE (:Y)",
        "MATCH (n) WHERE EXISTS { MATCH (n)-->(m) } RETURN n",
    ] {
        assert!(run(&mut g, q, CypherVersion::Cypher5).is_ok(), "{q}");
    }
}

#[test]
fn extended_simple_case_tests_the_operand() {
    let q = "UNWIND [1, 2, 5, null, 'abc'] AS x RETURN x, CASE x WHEN 1, 2 THEN 'small' \
             WHEN IS NULL THEN 'null' WHEN > 3 THEN 'big' WHEN STARTS WITH 'a' THEN 'a-word' \
             ELSE 'other' END AS r";
    let mut g = Graph::new();
    assert_eq!(
        run(&mut g, q, CypherVersion::Cypher5).unwrap(),
        [
            "1 | 'small'",
            "2 | 'small'",
            "5 | 'big'",
            "null | 'null'",
            "'abc' | 'a-word'"
        ]
    );
    // The operand is evaluated once, whatever the number of WHENs.
    assert_eq!(
        run(
            &mut g,
            "UNWIND range(1, 50) AS i WITH CASE toInteger(rand() * 3) WHEN 0 THEN 'a' \
             WHEN >= 1 THEN 'b' END AS r WHERE r IS NULL RETURN count(*)",
            CypherVersion::Cypher5
        )
        .unwrap(),
        ["0"]
    );
    // Printed back: `WHEN a, b` as two WHENs, the tests without the operand.
    let stmt =
        parse("RETURN CASE x WHEN 1, 2 THEN 'a' WHEN <> 3 THEN 'b' WHEN IS NOT NULL THEN 'c' END")
            .unwrap();
    let printed = print(&stmt, &PrintOptions::default());
    assert_eq!(
        printed,
        "RETURN CASE x WHEN 1 THEN 'a' WHEN 2 THEN 'a' WHEN <> 3 THEN 'b' WHEN IS NOT NULL THEN 'c' END"
    );
    assert_eq!(parse(&printed).unwrap(), stmt);
    // A searched CASE has no operand to test.
    assert!(parse("RETURN CASE WHEN > 1 THEN 1 END").is_err());
}

#[test]
fn unicode_normalization() {
    let mut g = Graph::new();
    // U+00C5 (one code point) and A + U+030A (two) are the same text once normalized.
    let q = "WITH '\\u00C5' AS one, 'A\\u030A' AS two \
             RETURN normalize(one) = normalize(two), size(normalize(one, NFD)), \
             size(normalize(two, nfc)), one IS NORMALIZED, two IS NFC NORMALIZED, \
             two IS NOT NFD NORMALIZED, normalize('\\u2460', NFKC), 1 IS NORMALIZED, \
             normalize(null)";
    assert_eq!(
        run(&mut g, q, CypherVersion::Cypher5).unwrap(),
        ["true | 2 | 1 | true | false | false | '1' | null | null"]
    );
    for (q, message) in [
        (
            "RETURN normalize('a', 'NFD')",
            "Invalid normal form, expected NFC, NFD, NFKC, NFKD",
        ),
        (
            "RETURN normalize('a', NFX)",
            "Invalid normal form, expected NFC, NFD, NFKC, NFKD",
        ),
        (
            "RETURN normalize(1)",
            "Type mismatch: expected String but was Integer",
        ),
    ] {
        let err = run(&mut g, q, CypherVersion::Cypher5).unwrap_err();
        assert!(err.contains(message), "{q}: {err}");
    }
    let stmt = parse("RETURN x IS NOT nfkd NORMALIZED, y IS NORMALIZED").unwrap();
    let printed = print(&stmt, &PrintOptions::default());
    assert_eq!(printed, "RETURN x IS NOT NFKD NORMALIZED, y IS NORMALIZED");
    assert_eq!(parse(&printed).unwrap(), stmt);
}

#[test]
fn for_in_and_digit_parameters_are_cypher_25() {
    let mut g = Graph::new();
    let q = "FOR x IN [1, 2] RETURN x * 10 AS y";
    assert_eq!(
        run(&mut g, q, CypherVersion::Cypher25).unwrap(),
        ["10", "20"]
    );
    let err = run(&mut g, q, CypherVersion::Cypher5).unwrap_err();
    assert!(err.contains("Invalid input 'FOR'"), "{err}");
    let stmt = parse("CYPHER 25 FOR x IN [1] RETURN x").unwrap();
    let printed = print(&stmt, &PrintOptions::default());
    assert_eq!(printed, "CYPHER 25 FOR x IN [1] RETURN x");
    assert_eq!(parse(&printed).unwrap(), stmt);

    // `$0hello`: a name that starts with digits, as Cypher 25 writes it.
    let q = "RETURN $0hello AS v";
    let stmt = parse(q).unwrap();
    let mut params = Params::new();
    params.insert("0hello".into(), grape::value::Value::from("hi"));
    let opts = Options {
        cypher: CypherVersion::Cypher25,
        ..Default::default()
    };
    let t = execute(&mut g, &stmt, q, &params, &opts).unwrap();
    assert_eq!(t.rows[0][0].to_string(), "'hi'");
    let err = execute(&mut g, &stmt, q, &params, &Options::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("Invalid input '0hello': expected an identifier or an integer value"),
        "{err}"
    );
    // Escaped, the same name is Cypher 5 too; `$0` stays a positional parameter.
    let printed = print(&stmt, &PrintOptions::default());
    assert_eq!(parse(&printed).unwrap(), stmt);
    let q = "RETURN $`0hello` AS v";
    let t = execute(&mut g, &parse(q).unwrap(), q, &params, &Options::default()).unwrap();
    assert_eq!(t.rows[0][0].to_string(), "'hi'");
}

#[test]
fn is_label_predicates() {
    let mut g =
        Graph::from_cypher_script("CREATE (:Person {n: 1}), (:Movie {n: 2}), (:Other {n: 3})")
            .unwrap();
    let q = "MATCH (n) WHERE n IS Person|Movie AND NOT n IS Movie RETURN n.n";
    assert_eq!(run(&mut g, q, CypherVersion::Cypher5).unwrap(), ["1"]);
    // The same predicate as `n:Person|Movie`.
    let stmt = parse("MATCH (n) WHERE n IS Person|Movie RETURN n").unwrap();
    let printed = print(&stmt, &PrintOptions::default());
    assert_eq!(printed, "MATCH (n) WHERE n:Person|Movie RETURN n");
    assert_eq!(parse(&printed).unwrap(), stmt);
    // `IS NOT` takes NULL, TYPED or NORMALIZED, not a label.
    assert!(parse("MATCH (n) RETURN n IS NOT Person").is_err());
    // The other IS forms are unchanged.
    assert_eq!(
        run(
            &mut g,
            "RETURN null IS NULL, 1 IS :: INTEGER, 1 IS NOT NULL, 'x' IS NORMALIZED",
            CypherVersion::Cypher5
        )
        .unwrap(),
        ["true | true | true | true"]
    );
}

/// Neo4j 5.26's dynamic labels and types: `$(expr)`, `$all(expr)`, `$any(expr)` in MATCH
/// (nodes, relationships, variable length, pattern predicates), CREATE, MERGE, SET and
/// REMOVE, evaluated per row; in an expression only under Cypher 25.
#[test]
fn dynamic_labels_and_types() {
    let setup = "CREATE (a:Person:Swedish {name: 'Andy'}), (b:Person {name: 'Bo'}), \
                 (c:Movie {title: 'M'}), (a)-[:KNOWS]->(b), (a)-[:ACTED_IN]->(c), (b)-[:LIKES]->(c)";
    let mut g = Graph::from_cypher_script(setup).unwrap();
    let c5 = CypherVersion::Cypher5;
    let cases = [
        ("MATCH (n:$('Person')) RETURN n.name ORDER BY n.name", vec!["'Andy'", "'Bo'"]),
        (
            "MATCH (n:$any(['Swedish', 'Movie'])) RETURN coalesce(n.name, n.title) AS x ORDER BY x",
            vec!["'Andy'", "'M'"],
        ),
        ("MATCH (n:$all(['Swedish', 'Person'])) RETURN n.name", vec!["'Andy'"]),
        ("MATCH (n:$(['Swedish', 'Movie'])) RETURN n", vec![]),
        ("MATCH (n:!$('Person')) RETURN n.title", vec!["'M'"]),
        ("MATCH (n:$('Person')&!Swedish) RETURN n.name", vec!["'Bo'"]),
        // Per row: the type comes from UNWIND.
        (
            "UNWIND ['KNOWS', 'LIKES'] AS t MATCH (a)-[:$(t)]->(b) RETURN t, a.name ORDER BY t",
            vec!["'KNOWS' | 'Andy'", "'LIKES' | 'Bo'"],
        ),
        (
            "MATCH ()-[r:$any(['KNOWS', 'LIKES'])]->() RETURN type(r) ORDER BY type(r)",
            vec!["'KNOWS'", "'LIKES'"],
        ),
        // A relationship has one type: `$all` of two matches none.
        ("MATCH ()-[r:$all(['KNOWS', 'LIKES'])]->() RETURN count(r)", vec!["0"]),
        (
            "MATCH (a {name: 'Andy'})-[:$('KNOWS')*1..2]->(x) RETURN x.name",
            vec!["'Bo'"],
        ),
        (
            "MATCH (n:Person) WHERE EXISTS { (n)-[:$('LIKES')]->() } RETURN n.name",
            vec!["'Bo'"],
        ),
        (
            "MATCH (n:Person) RETURN n.name, [(n)-[:$any(['KNOWS', 'ACTED_IN'])]->(m) | 1] AS xs ORDER BY n.name",
            vec!["'Andy' | [1, 1]", "'Bo' | []"],
        ),
    ];
    for (q, want) in cases {
        assert_eq!(run(&mut g, q, c5).unwrap(), want, "{q}");
    }
    // Writes: the names are computed per row; repeated names count once.
    assert_eq!(
        run(&mut g, "CREATE (n:$(['X', 'Y', 'X'])) RETURN labels(n)", c5).unwrap(),
        ["['X', 'Y']"]
    );
    assert_eq!(
        run(
            &mut g,
            "MATCH (a {name: 'Andy'}), (b {name: 'Bo'}) CREATE (a)-[r:$('FRIEND')]->(b) RETURN type(r)",
            c5
        )
        .unwrap(),
        ["'FRIEND'"]
    );
    assert_eq!(
        run(
            &mut g,
            "MATCH (n:Person) SET n:$(n.name) RETURN n.name, labels(n) ORDER BY n.name",
            c5
        )
        .unwrap(),
        [
            "'Andy' | ['Person', 'Swedish', 'Andy']",
            "'Bo' | ['Person', 'Bo']"
        ]
    );
    assert_eq!(
        run(
            &mut g,
            "MATCH (n:Swedish) REMOVE n:$(['Swedish', 'Andy']) RETURN labels(n)",
            c5
        )
        .unwrap(),
        ["['Person']"]
    );
    for _ in 0..2 {
        assert_eq!(
            run(&mut g, "MERGE (n:$('Z') {id: 5}) RETURN labels(n)", c5).unwrap(),
            ["['Z']"]
        );
    }
    assert_eq!(
        run(&mut g, "MATCH (n:Z) RETURN count(n)", c5).unwrap(),
        ["1"]
    );
    // Errors, as Neo4j raises them.
    for (q, message) in [
        (
            "CREATE (n:$any(['X']))",
            "Dynamic labels using `$any()` are not allowed in CREATE or MERGE.",
        ),
        (
            "MATCH (n:$(null)) RETURN n",
            "Null is not a valid token name. Token names cannot be empty or contain any null-bytes.",
        ),
        (
            "WITH null AS l MATCH (n:$(l)) RETURN n",
            "Null is not a valid token name. Token names cannot be empty or contain any null-bytes.",
        ),
        (
            "WITH '' AS l CREATE (n:$(l))",
            "'' is not a valid token name. Token names cannot be empty or contain any null-bytes.",
        ),
        (
            "MATCH (n:$(1)) RETURN n",
            "Type mismatch: expected String or List<String> but was Integer",
        ),
        // Neo4j's checker knows `l` is an integer (its frontend gives this message too).
        (
            "WITH 1 AS l MATCH (n:$(l)) RETURN n",
            "Type mismatch: expected String or List<String> but was Integer",
        ),
        // An UNWIND of a list of one type types its variable, as Neo4j does.
        (
            "UNWIND [1] AS l MATCH (n:$(l)) RETURN n",
            "Type mismatch: expected String or List<String> but was Integer",
        ),
        // Where it does not know, the runtime refuses the value.
        (
            "UNWIND [1, true] AS l MATCH (n:$(l)) RETURN n",
            "expected a STRING or a LIST<STRING>",
        ),
        (
            "WITH ['A', 'B'] AS t CREATE ()-[:$(t)]->()",
            "A single relationship type must be specified for CREATE",
        ),
        (
            "MATCH (n) WHERE n:$('Person') RETURN n",
            "Dynamic Label and Types are only allowed in MATCH, CREATE, MERGE, SET and REMOVE clauses.",
        ),
        ("MATCH (n) SET n:$any(['A'])", "Invalid input 'any': expected '('"),
    ] {
        let err = run(&mut g, q, c5).unwrap_err();
        assert!(err.contains(message), "{q}: {err}");
    }
    // A dynamic label predicate in an expression is Cypher 25.
    assert_eq!(
        run(
            &mut g,
            "MATCH (n) WHERE n:$any(['Movie']) RETURN n.title",
            CypherVersion::Cypher25
        )
        .unwrap(),
        ["'M'"]
    );
    // Printed back and parsed again to the same AST.
    for (text, canonical) in [
        (
            "MATCH (n:$($l)&Person)-[r:$any($t)]->(m:$ALL(['A','B'])|!$ ('C')) RETURN n",
            "MATCH (n:$($l):Person)-[r:$any($t)]->(m:$all(['A', 'B'])|!$('C')) RETURN n",
        ),
        (
            "MATCH (n) SET n:A:$(n.name) REMOVE n:$(['B'])",
            "MATCH (n) SET n:A:$(n.name) REMOVE n:$(['B'])",
        ),
        (
            "CREATE (n:$($labels) {id: 1})-[:$($type)]->(m)",
            "CREATE (n:$($labels) {id: 1})-[:$($type)]->(m)",
        ),
    ] {
        let stmt = parse(text).unwrap();
        let printed = print(&stmt, &PrintOptions::default());
        assert_eq!(printed, canonical);
        assert_eq!(parse(&printed).unwrap(), stmt, "{text}");
    }
}

fn c25(g: &mut Graph, q: &str) -> Vec<String> {
    run(g, q, CypherVersion::Cypher25).unwrap_or_else(|e| panic!("{q}: {e}"))
}

/// Cypher 25's composed queries: `{ q } UNION { q }`, `q NEXT q` (each part reads the whole
/// table of the one before) and `WHEN … THEN … ELSE` (each row runs the first branch whose
/// condition holds); refused under Cypher 5, printed back to the same AST.
#[test]
fn composed_queries_when_next_and_braces() {
    let mut g = Graph::from_cypher_script(
        "CREATE (:Person {name: 'Andy', age: 40}), (:Person {name: 'Bo', age: 20}), (:Movie {title: 'M'})",
    )
    .unwrap();
    // The first true branch runs; none true and no ELSE: no rows, the columns still named.
    assert_eq!(
        c25(
            &mut g,
            "WHEN false THEN RETURN 1 AS x WHEN true THEN RETURN 2 AS x WHEN true THEN RETURN 3 AS x ELSE RETURN 4 AS x"
        ),
        ["2"]
    );
    let t = grape::engine::run(
        &mut g,
        "CYPHER 25 WHEN false THEN RETURN 1 AS x",
        &Default::default(),
    )
    .unwrap();
    assert_eq!((t.columns, t.rows.len()), (vec!["x".to_string()], 0));
    assert_eq!(
        c25(
            &mut g,
            "{ MATCH (n:Person) RETURN n.name AS x } UNION { MATCH (m:Movie) RETURN m.title AS x }"
        ),
        ["'Andy'", "'Bo'", "'M'"]
    );
    // Braces keep UNION ALL inside apart from the DISTINCT outside.
    assert_eq!(
        c25(
            &mut g,
            "{ RETURN 1 AS x UNION ALL RETURN 1 AS x } UNION ALL { RETURN 2 AS x }"
        ),
        ["1", "1", "2"]
    );
    // NEXT hands on the whole table: an aggregation sees every row.
    assert_eq!(
        c25(
            &mut g,
            "MATCH (n:Person) RETURN n.name AS name ORDER BY name NEXT RETURN collect(name) AS names"
        ),
        ["['Andy', 'Bo']"]
    );
    // WHEN after NEXT routes each row; the branches' tables come together again.
    assert_eq!(
        c25(
            &mut g,
            "MATCH (n:Person) RETURN n.name AS name, n.age AS age \
             NEXT WHEN age > 30 THEN RETURN name, 'senior' AS k ELSE RETURN name, 'junior' AS k \
             NEXT RETURN name, k ORDER BY name"
        ),
        ["'Andy' | 'senior'", "'Bo' | 'junior'"]
    );
    // UNION parts after NEXT each read the whole table.
    assert_eq!(
        c25(
            &mut g,
            "RETURN 1 AS x NEXT { RETURN x AS y UNION RETURN x + 1 AS y } NEXT RETURN y ORDER BY y"
        ),
        ["1", "2"]
    );
    // In CALL (…) { … }: per row.
    assert_eq!(
        c25(
            &mut g,
            "UNWIND [1, 2, 3] AS i CALL (i) { WHEN i > 1 THEN RETURN 'big' AS s ELSE RETURN 'small' AS s } RETURN i, s"
        ),
        ["1 | 'small'", "2 | 'big'", "3 | 'big'"]
    );
    // Updates in a branch, then a part that reads them.
    assert_eq!(
        c25(
            &mut g,
            "WHEN true THEN CREATE (:New) NEXT MATCH (n:New) RETURN count(n) AS c"
        ),
        ["1"]
    );
    // Neo4j's errors.
    for (q, message) in [
        (
            "CYPHER 25 WHEN true THEN RETURN 1 AS x ELSE RETURN 2 AS y",
            "42N39: All conditional queries must have the same return column names",
        ),
        (
            "CYPHER 25 WHEN true THEN RETURN 1 AS x, 2 AS y ELSE RETURN 1 AS x",
            "42N3B: All conditional queries must return the same number of columns.",
        ),
        (
            "CYPHER 25 WHEN 1 THEN RETURN 1 AS x",
            "Type mismatch: expected Boolean but was Integer",
        ),
        (
            "CYPHER 25 { RETURN 1 AS x } UNION { RETURN 1 AS y }",
            "All sub queries in an UNION must have the same return column names",
        ),
        (
            "CYPHER 25 CALL { WHEN true THEN RETURN 1 AS x } RETURN x",
            "42N3C: Not possible to enclose WHEN ... THEN ... in 'CALL { ... }'",
        ),
        ("WHEN true THEN RETURN 1 AS x", "WHEN is a Cypher 25 clause"),
        ("RETURN 1 AS x NEXT RETURN x", "NEXT is a Cypher 25 clause"),
        ("{ RETURN 1 AS x }", "a query in braces is Cypher 25"),
    ] {
        let err = run(&mut g, q, CypherVersion::Cypher5).unwrap_err();
        assert!(err.contains(message), "{q}: {err}");
    }
    for text in [
        "WHEN $a THEN RETURN 1 AS x WHEN x THEN { MATCH (n) RETURN n.x AS x } ELSE RETURN 3 AS x",
        "{ RETURN 1 AS x UNION ALL RETURN 2 AS x } UNION { RETURN 3 AS x }",
        "MATCH (n) RETURN n NEXT WHEN n.x > 1 THEN RETURN 1 AS y NEXT RETURN y",
        "CALL (i) { WHEN i > 1 THEN RETURN 'big' AS s } RETURN s",
    ] {
        let stmt = parse(text).unwrap();
        let printed = print(&stmt, &PrintOptions::default());
        assert_eq!(printed, text);
        assert_eq!(parse(&printed).unwrap(), stmt, "{text}");
    }
}

/// GQL's INSERT (Neo4j 5.26 and Cypher 25): CREATE with `&` labels, directed relationships of
/// one type, no named paths; Neo4j's messages for what it refuses.
#[test]
fn insert_creates_like_create() {
    let mut g = Graph::new();
    let c5 = CypherVersion::Cypher5;
    assert_eq!(
        run(
            &mut g,
            "INSERT (a:A&B {p: 1})-[r:R {w: 2}]->(b IS C), (:D) RETURN labels(a), type(r), r.w, labels(b)",
            c5
        )
        .unwrap(),
        ["['A', 'B'] | 'R' | 2 | ['C']"]
    );
    assert_eq!(
        run(
            &mut g,
            "MATCH (a:A) INSERT (a)<-[:S]-(:E) RETURN count(*)",
            c5
        )
        .unwrap(),
        ["1"]
    );
    assert_eq!(
        run(&mut g, "MATCH (:E)-[s:S]->(:A) RETURN count(s)", c5).unwrap(),
        ["1"]
    );
    for (q, message) in [
        (
            "INSERT (n:A:B)",
            "Colon `:` conjunction is not allowed in INSERT. Use `CREATE` or conjunction with ampersand `&` instead.",
        ),
        ("INSERT (a)-[:R]-(b)", "Only directed relationships are supported in INSERT"),
        (
            "INSERT p = (a)-[:R]->(b)",
            "Named patterns are not allowed in `INSERT`. Use `CREATE` instead or remove the name.",
        ),
        ("MATCH (a) INSERT (a:X)", "Variable `a` already declared"),
        ("INSERT (n:A|B)", "unexpected '|'"),
        ("INSERT (a:A) MATCH (b) RETURN b", "WITH is required between INSERT and MATCH"),
    ] {
        let err = run(&mut g, q, c5).unwrap_err();
        assert!(err.contains(message), "{q}: {err}");
    }
    let text = "INSERT (a:A&B {p: 1})-[:R]->(b:C), (c IS D)";
    let stmt = parse(text).unwrap();
    let printed = print(&stmt, &PrintOptions::default());
    assert_eq!(printed, "INSERT (a:A&B {p: 1})-[:R]->(b:C), (c:D)");
    assert_eq!(parse(&printed).unwrap(), stmt);
}

/// `RETURN ALL` / `WITH ALL` (Cypher 25) and `allReduce` (Cypher 25); quantifiers need WHERE.
#[test]
fn return_all_and_all_reduce() {
    let mut g = Graph::from_cypher_script("CREATE ({x: 1}), ({x: 1}), ({x: 2})").unwrap();
    assert_eq!(
        c25(
            &mut g,
            "MATCH (n) WITH ALL n.x AS x RETURN ALL x ORDER BY x"
        ),
        ["1", "1", "2"]
    );
    // As Neo4j reads it: `ALL` then the expression `-1`; `all` alone is a variable.
    assert_eq!(c25(&mut g, "RETURN all - 1 AS y"), ["-1"]);
    assert_eq!(c25(&mut g, "WITH 5 AS all RETURN all"), ["5"]);
    assert_eq!(
        c25(&mut g, "RETURN all(x IN [1, 2] WHERE x > 0) AS b"),
        ["true"]
    );
    let err = run(&mut g, "MATCH (n) RETURN ALL n.x", CypherVersion::Cypher5).unwrap_err();
    assert!(err.contains("RETURN ALL is Cypher 25"), "{err}");
    let err = run(&mut g, "RETURN any(x IN [1])", CypherVersion::Cypher5).unwrap_err();
    assert!(err.contains("any(...) requires a WHERE predicate"), "{err}");
    assert_eq!(
        c25(
            &mut g,
            "RETURN allReduce(acc = 0, x IN [1, 2, 3] | acc + x, acc < 10) AS a, \
             allReduce(acc = 0, x IN [5, 6] | acc + x, acc < 10) AS b, \
             allReduce(acc = 0, x IN [] | acc + x, acc < 0) AS c, \
             allReduce(acc = 0, x IN [1, null] | acc + x, acc < 10) AS d"
        ),
        ["true | false | true | null"]
    );
    // In a quantified path: the running total of the hops stays under 10.
    let mut g = Graph::from_cypher_script(
        "CREATE (a:S {n: 'a'})-[:NEXT {d: 4}]->(b:S {n: 'b'})-[:NEXT {d: 5}]->(c:S {n: 'c'})-[:NEXT {d: 3}]->(:S {n: 'd'})",
    )
    .unwrap();
    assert_eq!(
        c25(
            &mut g,
            "MATCH (s:S {n: 'a'})-[r:NEXT]->+(e) WHERE allReduce(t = 0, x IN r | t + x.d, t < 10) RETURN e.n ORDER BY e.n"
        ),
        ["'b'", "'c'"]
    );
    let err = run(
        &mut g,
        "RETURN allReduce(a = 0, x IN [1] | a + x, a < 3) AS b",
        CypherVersion::Cypher5,
    )
    .unwrap_err();
    assert!(err.contains("allReduce is Cypher 25"), "{err}");
    for text in [
        "RETURN ALL allReduce(acc = 0, x IN $xs | acc + x, acc < 10) AS a",
        "WITH ALL (all(x IN [1])) AS b RETURN b",
    ] {
        let stmt = parse(text).unwrap();
        assert_eq!(
            parse(&print(&stmt, &PrintOptions::default())).unwrap(),
            stmt
        );
    }
}

/// `CALL { … } IN TRANSACTIONS`: batches of `OF n ROWS`, each kept or rolled back whole;
/// `ON ERROR CONTINUE|BREAK|FAIL`, `RETRY … THEN …` (no transient errors in memory), and
/// `REPORT STATUS AS s`.
#[test]
fn call_in_transactions_on_error() {
    let c5 = CypherVersion::Cypher5;
    let mut g = Graph::new();
    assert_eq!(
        run(
            &mut g,
            "UNWIND [1, 0, 2, 4] AS i CALL (i) { CREATE (n:P {num: 100 / i}) RETURN n } \
             IN TRANSACTIONS OF 1 ROW ON ERROR CONTINUE REPORT STATUS AS s \
             RETURN n.num, s.started, s.committed, s.errorMessage IS NULL",
            c5
        )
        .unwrap(),
        [
            "100 | true | true | true",
            "null | true | false | false",
            "50 | true | true | true",
            "25 | true | true | true"
        ]
    );
    assert_eq!(
        run(&mut g, "MATCH (p:P) RETURN count(p)", c5).unwrap(),
        ["3"]
    );
    // BREAK: the failing batch and every later one do not run.
    let mut g = Graph::new();
    assert_eq!(
        run(
            &mut g,
            "UNWIND [1, 0, 2] AS i CALL (i) { CREATE (n:P {num: 100 / i}) RETURN n.num AS v } \
             IN TRANSACTIONS OF 1 ROW ON ERROR BREAK REPORT STATUS AS s RETURN v, s.started",
            c5
        )
        .unwrap(),
        ["100 | true", "null | true", "null | false"]
    );
    assert_eq!(
        run(&mut g, "MATCH (p:P) RETURN count(p)", c5).unwrap(),
        ["1"]
    );
    // A batch is rolled back whole: [1, 0] fails together, [2] is kept.
    let mut g = Graph::new();
    let t = grape::engine::run(
        &mut g,
        "UNWIND [1, 0, 2] AS i CALL (i) { CREATE (:P {num: 100 / i}) } \
         IN TRANSACTIONS OF 2 ROWS ON ERROR RETRY FOR 1 SECOND THEN CONTINUE",
        &Default::default(),
    )
    .unwrap();
    assert_eq!(
        t.stats.nodes_created, 1,
        "the failed batch's counts are undone"
    );
    assert_eq!(run(&mut g, "MATCH (p:P) RETURN p.num", c5).unwrap(), ["50"]);
    // FAIL (the default, and RETRY without THEN): the statement fails and changes nothing.
    for q in [
        "UNWIND [1, 0] AS i CALL (i) { CREATE (:Q {num: 100 / i}) } IN TRANSACTIONS OF 1 ROW",
        "UNWIND [1, 0] AS i CALL (i) { CREATE (:Q {num: 100 / i}) } IN TRANSACTIONS OF 1 ROW ON ERROR RETRY",
    ] {
        let err = run(&mut g, q, c5).unwrap_err();
        assert!(err.contains("/ by zero"), "{q}: {err}");
        assert_eq!(run(&mut g, "MATCH (q:Q) RETURN count(q)", c5).unwrap(), ["0"]);
    }
    // Neo4j's compile-time checks.
    for (q, message) in [
        (
            "UNWIND [1] AS i CALL (i) { CREATE (:X) } IN TRANSACTIONS REPORT STATUS AS s RETURN s",
            "REPORT STATUS can only be used when specifying ON ERROR CONTINUE or ON ERROR BREAK",
        ),
        (
            "UNWIND [1] AS i CALL (i) { CREATE (:X) } IN TRANSACTIONS ON ERROR RETRY FOR -1 SECONDS",
            "Invalid input. '-1' is not a valid value. Must be a non-negative number.",
        ),
    ] {
        let err = run(&mut g, q, c5).unwrap_err();
        assert!(err.contains(message), "{q}: {err}");
    }
    let text = "CALL (i) { CREATE (:X) } IN TRANSACTIONS OF 10 ROWS ON ERROR RETRY FOR 2.5 SECONDS THEN BREAK REPORT STATUS AS s";
    let stmt = parse(&format!("UNWIND [1] AS i {text} RETURN s")).unwrap();
    let printed = print(&stmt, &PrintOptions::default());
    assert!(printed.contains(text), "{printed}");
    assert_eq!(parse(&printed).unwrap(), stmt);
}

/// Cypher 25's `n IS [NOT] LABELED expr`: a label predicate, printed back in its own words;
/// `n IS LABELED` alone is the label named LABELED, as Neo4j reads it.
#[test]
fn is_labeled_predicates() {
    let mut g = Graph::from_cypher_script(
        "CREATE (:Person {n: 1}), (:Person:Swedish {n: 2}), (:Movie {n: 3}), (:LABELED {n: 4})",
    )
    .unwrap();
    assert_eq!(
        c25(
            &mut g,
            "MATCH (n) WHERE n IS LABELED Person&!Swedish OR n IS NOT LABELED Person|LABELED RETURN n.n ORDER BY n.n"
        ),
        ["1", "3"]
    );
    assert_eq!(
        run(
            &mut g,
            "MATCH (n) WHERE n IS LABELED RETURN n.n",
            CypherVersion::Cypher5
        )
        .unwrap(),
        ["4"]
    );
    let err = run(
        &mut g,
        "MATCH (n) WHERE n IS LABELED Person RETURN n",
        CypherVersion::Cypher5,
    )
    .unwrap_err();
    assert!(err.contains("IS LABELED is Cypher 25"), "{err}");
    let err = run(
        &mut g,
        "MATCH (n) RETURN n.x IS LABELED A AS b",
        CypherVersion::Cypher25,
    )
    .unwrap_err();
    assert!(
        err.contains("Type mismatch: expected Node or Relationship"),
        "{err}"
    );
    let text = "MATCH (n) WHERE NOT n IS LABELED A|B AND n IS LABELED C RETURN n";
    let stmt = parse(text).unwrap();
    let printed = print(&stmt, &PrintOptions::default());
    assert_eq!(printed, text);
    assert_eq!(parse(&printed).unwrap(), stmt);
}

/// Neo4j 5's compile-time checks of SKIP/LIMIT, UNION and IN (messages as Neo4j's frontend
/// gives them), and temporal functions of null.
#[test]
fn compile_time_checks_of_skip_union_and_in() {
    let mut g = Graph::new();
    for (q, message) in [
        (
            "UNWIND [1, 2] AS n RETURN n SKIP n",
            "It is not allowed to refer to variables in SKIP, so that the value for SKIP can be statically calculated.",
        ),
        (
            "UNWIND [1, 2] AS n WITH n LIMIT n + 1 RETURN n",
            "It is not allowed to refer to variables in LIMIT, so that the value for LIMIT can be statically calculated.",
        ),
        (
            "RETURN 1 AS a UNION RETURN 2 AS a UNION ALL RETURN 3 AS a",
            "Invalid combination of UNION and UNION ALL",
        ),
        (
            "RETURN 1 AS a UNION ALL RETURN 2 AS a UNION RETURN 3 AS a",
            "Invalid combination of UNION and UNION ALL",
        ),
        ("RETURN 1 IN true AS x", "Type mismatch: expected List<T> but was Boolean"),
        ("RETURN 1 IN {a: 1} AS x", "Type mismatch: expected List<T> but was Map"),
        // Operands of a type the operator does not take, where Neo4j's checker knows it: a
        // projected literal, a comprehension's or quantifier's element over a typed list.
        (
            "WITH 'a' AS s RETURN s % 2 AS x",
            "Type mismatch: expected Float or Integer but was String",
        ),
        (
            "RETURN none(x IN [true, false] WHERE x % 2 = 0) AS r",
            "Type mismatch: expected Float or Integer but was Boolean",
        ),
        (
            "RETURN [x IN ['a'] | -x] AS r",
            "Type mismatch: expected Float or Integer but was String",
        ),
        (
            "WITH 'a' AS s RETURN s - 1 AS x",
            "Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was String",
        ),
        (
            "WITH 'a' AS s RETURN s * 2 AS x",
            "Type mismatch: expected Float, Integer or Duration but was String",
        ),
        ("WITH 'a' AS s RETURN s ^ 1 AS x", "Type mismatch: expected Float but was String"),
        ("WITH 1 AS s RETURN s AND true AS x", "Type mismatch: expected Boolean but was Integer"),
        (
            "RETURN length([x IN [1] | x])",
            "Type mismatch: expected Path but was List<Integer>",
        ),
        // A path variable named again inside its own pattern; a variable of one kind used as
        // another.
        ("MATCH p = (p)-[]->() RETURN p", "Variable `p` already declared"),
        ("MATCH p = ()-[p]-() RETURN p", "Variable `p` already declared"),
        (
            "MATCH p = ()-->(), (p) RETURN p",
            "Type mismatch: p defined with conflicting type Path (expected Node)",
        ),
        (
            "MATCH (n) MATCH ()-[n]->() RETURN n",
            "Type mismatch: n defined with conflicting type Node (expected Relationship)",
        ),
        (
            "MATCH ()-[r*]->() MATCH (r) RETURN r",
            "Type mismatch: r defined with conflicting type List<Relationship> (expected Node)",
        ),
    ] {
        let err = run(&mut g, q, CypherVersion::Cypher5).unwrap_err();
        assert!(err.contains(message), "{q}: {err}");
    }
    for (q, rows) in [
        (
            "UNWIND [1, 2, 3] AS n RETURN n SKIP 1 LIMIT size([x IN [1] | x])",
            vec!["2"],
        ),
        (
            "RETURN 1 AS a UNION ALL RETURN 1 AS a UNION ALL RETURN 2 AS a",
            vec!["1", "1", "2"],
        ),
        (
            "WITH [2] AS l RETURN 2 IN l, 1 IN null",
            vec!["true | null"],
        ),
        // What the operators do take: numbers, durations, temporals; a list of mixed types
        // is not typed; a pattern is a boolean.
        (
            "RETURN [x IN [1, 2] | x % 2], date('2020-01-02') - duration('P1D'), \
             duration('P1D') * 2, 2 ^ 3",
            vec!["[1, 0] | 2020-01-01 | P2D | 8.0"],
        ),
        (
            "WITH [1, 2.5] AS l RETURN [x IN l | x * 2]",
            vec!["[2, 5.0]"],
        ),
        (
            "CREATE (a)-[:R]->() WITH a RETURN NOT (a)-->() AS n",
            vec!["false"],
        ),
        (
            "RETURN date.transaction(null), datetime.realtime(null), localtime.statement(null)",
            vec!["null | null | null"],
        ),
        // `WITH *` with nothing in scope passes the row on.
        ("CREATE () WITH * CREATE () RETURN 1", vec!["1"]),
    ] {
        assert_eq!(run(&mut g, q, CypherVersion::Cypher5).unwrap(), rows, "{q}");
    }
    let err = run(&mut g, "RETURN date.transaction(1)", CypherVersion::Cypher5).unwrap_err();
    assert!(err.contains("date.transaction"), "{err}");
}
