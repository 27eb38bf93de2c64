//! Static semantics, scores and inference of the validator, on a small schema (no shared data).

use grape::analysis::{validate, DiagnosticKind, ValidateOptions, Validator};
use grape::schema::{Schema, SchemaFormat};

fn schema() -> Schema {
    Schema::read(
        SchemaFormat::Prompt,
        "Node properties are the following:
Person {name: STRING, age: INTEGER}
Crime {type: STRING, date: STRING}
Phone {number: STRING}
Vehicle {make: STRING}
Relationship properties are the following:
KNOWS {since: INTEGER}
The relationships are the following:
(:Person)-[:KNOWS]->(:Person)
(:Person)-[:PARTY_TO]->(:Crime)
(:Person)-[:HAS_PHONE]->(:Phone)
(:Vehicle)-[:INVOLVED_IN]->(:Crime)",
    )
    .unwrap()
}

/// The kinds of the diagnostics of `q`, with the text each points at.
fn kinds(q: &str) -> Vec<(DiagnosticKind, String)> {
    let s = schema();
    validate(q, &s)
        .diagnostics
        .into_iter()
        .map(|d| (d.kind, d.span.text(q).to_string()))
        .collect()
}

fn one(q: &str, kind: DiagnosticKind, at: &str) {
    let got = kinds(q);
    assert_eq!(got, vec![(kind, at.to_string())], "{q}");
}

fn clean(q: &str) {
    let s = schema();
    let v = validate(q, &s);
    assert!(
        v.kg_valid && v.diagnostics.is_empty(),
        "{q}: {:#?}",
        v.diagnostics
    );
}

#[test]
fn undefined_variables_with_suggestions() {
    one(
        "MATCH (person:Person) RETURN persn.name AS n",
        DiagnosticKind::UndefinedVariable,
        "persn",
    );
    let s = schema();
    let v = validate("MATCH (person:Person) RETURN persn", &s);
    assert_eq!(v.diagnostics[0].message, "Variable `persn` not defined");
    assert_eq!(
        v.diagnostics[0].help.as_deref(),
        Some("did you mean `person`?")
    );
    assert!(v.diagnostics[0].text().contains("did you mean `person`"));
    assert!(!v.syntax_ok && !v.kg_valid);
    // Out of scope after WITH.
    one(
        "MATCH (a:Person)-[:KNOWS]->(b) WITH a RETURN b",
        DiagnosticKind::UndefinedVariable,
        "b",
    );
    // WITH … WHERE also sees the preceding variables, unless the WITH aggregates.
    clean("MATCH (a:Person) WITH a.name AS n WHERE a.age > 3 RETURN n");
    one(
        "MATCH (a:Person) WITH a.name AS n, count(*) AS c WHERE a.age > 3 RETURN n",
        DiagnosticKind::UndefinedVariable,
        "a",
    );
    // Scoping that is fine.
    clean("MATCH (a:Person) WITH a ORDER BY a.name RETURN a.name AS n");
    clean("MATCH (a:Person) RETURN a.name AS n ORDER BY a.age");
    clean("UNWIND [1, 2] AS x RETURN [y IN range(0, x) WHERE y > 0 | y * 2] AS ys, reduce(s = 0, z IN [x] | s + z) AS t");
    clean("MATCH (a:Person) RETURN [(a)-[:KNOWS]->(b) | b.name] AS names, EXISTS { MATCH (a)-[:PARTY_TO]->(c:Crime) WHERE c.type = 'x' } AS e");
    clean("MATCH (a:Person) CALL (a) { MATCH (a)-[:HAS_PHONE]->(p) RETURN p.number AS num } RETURN num");
    clean("CALL db.labels() YIELD label RETURN label");
    clean("MATCH (a:Person) RETURN a {.name, .age} AS m");
}

#[test]
fn conflicting_kinds_and_redeclarations() {
    one(
        "MATCH (a:Person)-[a:KNOWS]->(b) RETURN b",
        DiagnosticKind::VariableTypeConflict,
        "a",
    );
    one(
        "WITH 1 AS x MATCH (x:Person) RETURN x",
        DiagnosticKind::VariableTypeConflict,
        "x",
    );
    one(
        "MATCH (a:Person) CREATE (a:Crime)",
        DiagnosticKind::VariableAlreadyBound,
        "a",
    );
    // Neo4j 5.26 matches a relationship named twice in MATCH (no row has it twice, and
    // EXPLAIN notes RepeatedRelationshipReference).
    let s = schema();
    let v = validate(
        "MATCH (a:Person)-[r:KNOWS]->(b), (b)-[r:KNOWS]->(c) RETURN c",
        &s,
    );
    assert!(
        !v.diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::RelationshipUniquenessViolation),
        "{:?}",
        v.diagnostics
    );

    one(
        "WITH 1 AS x UNWIND [1] AS x RETURN x",
        DiagnosticKind::VariableAlreadyBound,
        "x",
    );
    clean("MATCH (a:Person), (b:Person) CREATE (a)-[:KNOWS]->(b)");
}

#[test]
fn aggregation_star_division_numbers() {
    one(
        "MATCH (a:Person) RETURN count(count(a)) AS c",
        DiagnosticKind::NestedAggregation,
        "count(a)",
    );
    one(
        "MATCH (a:Person) WHERE count(a) > 1 RETURN a",
        DiagnosticKind::AggregationInWhere,
        "count(a)",
    );
    one("RETURN *", DiagnosticKind::ReturnStarWithoutVariables, "*");
    one(
        "MATCH (a:Person) RETURN a.age / 0 AS x",
        DiagnosticKind::DivisionByZero,
        "0",
    );
    clean("MATCH (a:Person) RETURN a.age / 0.0 AS x, 1.5 / 0 AS y");
    one(
        "RETURN 9223372036854775808 AS big",
        DiagnosticKind::NumberOutOfRange,
        "9223372036854775808",
    );
    clean("MATCH (a:Person) WITH a, count(*) AS c WHERE c > 1 RETURN a, COUNT { (a)-[:KNOWS]->() } AS k");
}

#[test]
fn parameters_are_checked_only_when_supplied() {
    let s = schema();
    let q = "MATCH (a:Person {name: $name}) WHERE a.age > $minAge RETURN a";
    assert!(validate(q, &s).kg_valid);
    let opts = ValidateOptions {
        parameters: Some(
            ["name".to_string(), "min_age".to_string()]
                .into_iter()
                .collect(),
        ),
        ..Default::default()
    };
    let v = Validator::with_options(&s, opts).validate(q);
    assert_eq!(v.diagnostics.len(), 1);
    assert_eq!(v.diagnostics[0].kind, DiagnosticKind::MissingParameter);
    assert_eq!(
        v.diagnostics[0].code,
        "Neo.ClientError.Statement.ParameterMissing"
    );
    assert!(v.diagnostics[0].message.contains("$minAge"));
}

#[test]
fn relationship_type_expressions() {
    one(
        "MATCH (a:Person)-[:KNOWS&PARTY_TO]->(b) RETURN b",
        DiagnosticKind::UnsatisfiableRelationshipType,
        "KNOWS&PARTY_TO",
    );
    clean("MATCH (a:Person)-[:KNOWS|PARTY_TO]->(b) RETURN b");
    clean("MATCH (a:Person)-[:!KNOWS]->(b) RETURN b");
    let s = schema();
    let v = validate("MATCH (a:Person)-[:KNOWS&PARTY_TO]->(b) RETURN b", &s);
    assert_eq!(
        v.diagnostics[0].code,
        "Neo.ClientNotification.Statement.UnsatisfiableRelationshipTypeExpression"
    );
}

#[test]
fn schema_findings_with_closest_names() {
    let s = schema();
    let v = validate("MATCH (a:Persn)-[:KNOWZ]->(b:Person) RETURN b", &s);
    let msgs: Vec<&str> = v.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs[0].contains("`Persn`") && msgs[0].contains("did you mean `Person`"),
        "{msgs:?}"
    );
    assert!(msgs[1].contains("did you mean `KNOWS`"), "{msgs:?}");
    assert_eq!(
        v.diagnostics[0].code,
        "Neo.ClientNotification.Statement.UnknownLabelWarning"
    );
    assert_eq!(
        v.diagnostics[1].code,
        "Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning"
    );
    // labels 1/2 valid, types 0/1, paths 0/1 -> (0.5 + 0 + 0) / 3.
    assert!(
        (v.schema_score - 0.5 / 3.0).abs() < 1e-9,
        "{}",
        v.schema_score
    );
    // Label predicates are checked too.
    one(
        "MATCH (a) WHERE a:Persn RETURN a",
        DiagnosticKind::UnknownLabel,
        "Persn",
    );
}

#[test]
fn paths_inference_and_variable_length() {
    // `c` is inferred to be a Crime, which has no phone.
    one(
        "MATCH (p:Person)-[:PARTY_TO]->(c)-[:HAS_PHONE]->(x) RETURN x",
        DiagnosticKind::UnknownPath,
        "-[:HAS_PHONE]->",
    );
    // Unlabelled both ends: fine as long as some triple fits.
    clean("MATCH (a)-[:HAS_PHONE]->(b) RETURN a, b");
    one(
        "MATCH (a:Person)<-[:HAS_PHONE]-(b) RETURN a",
        DiagnosticKind::WrongDirection,
        "<-[:HAS_PHONE]-",
    );
    // Variable length: Person -KNOWS*-> Person -PARTY_TO-> Crime.
    clean("MATCH (a:Person)-[:KNOWS|PARTY_TO*1..3]->(c:Crime) RETURN c");
    one(
        "MATCH (a:Crime)-[:KNOWS*1..3]->(c:Person) RETURN c",
        DiagnosticKind::UnknownPath,
        "-[:KNOWS*1..3]->",
    );
    one(
        "MATCH (c:Crime)-[:PARTY_TO*]->(a:Person) RETURN c",
        DiagnosticKind::WrongDirection,
        "-[:PARTY_TO*]->",
    );
    // Exactly two hops of PARTY_TO cannot reach a Crime from a Person; one can.
    one(
        "MATCH (a:Person)-[:PARTY_TO*2..2]->(c:Crime) RETURN c",
        DiagnosticKind::VariableLengthPath,
        "-[:PARTY_TO*2..2]->",
    );
    clean("MATCH (a:Person)-[*0..1]-(b:Person) RETURN b");
    // Quantified relationship.
    clean("MATCH (a:Person)-[:KNOWS]->{1,3}(b:Person) RETURN b");
    // Property of the relationship type.
    clean("MATCH (a:Person)-[k:KNOWS]->(b:Person) WHERE k.since > 2000 RETURN b");
    one(
        "MATCH (a:Person)-[k]->(b:Person) RETURN k.make AS m",
        DiagnosticKind::InvalidPropertyAccessByLabel,
        "make",
    );
}

#[test]
fn properties_inferred_from_triples_and_scores() {
    let s = schema();
    // `v` can only be a Vehicle: `make` is fine, `name` is not.
    let q = "MATCH (v)-[:INVOLVED_IN]->(c:Crime) RETURN v.make AS m, v.name AS n";
    let r = validate(q, &s);
    assert_eq!(r.diagnostics.len(), 1);
    assert_eq!(
        r.diagnostics[0].kind,
        DiagnosticKind::InvalidPropertyAccessByLabel
    );
    assert!(
        r.diagnostics[0].message.contains(":Person"),
        "{}",
        r.diagnostics[0].message
    );
    assert_eq!(r.properties_score, Some(0.5));
    assert_eq!(r.schema_score, 1.0);
    assert!(!r.kg_valid);
    // No property read: properties score is none; no pattern at all: schema score 1.
    let r = validate("RETURN 1 AS one", &s);
    assert_eq!(
        (r.schema_score, r.properties_score, r.kg_valid),
        (1.0, None, true)
    );
    // Map keys in read patterns are property reads; CREATE's are writes.
    one(
        "MATCH (a:Person {nmae: 'x'}) RETURN a",
        DiagnosticKind::UnknownPropertyKey,
        "nmae",
    );
    clean("CREATE (a:Person {nickname: 'x'})");
    clean("CREATE (a:Newcomer {x: 1}) RETURN a.x AS x");
    // A parse error: syntax fails, schema score 0.
    let r = validate("MATCH (a:Person RETURN a", &s);
    assert!(
        !r.syntax_ok
            && r.schema_score == 0.0
            && r.diagnostics[0].kind == DiagnosticKind::ParseError
    );
    assert_eq!((r.diagnostics[0].line, r.diagnostics[0].column), (1, 17));
}

#[test]
fn any_label_properties_count_on_every_label() {
    let s = Schema::read(
        SchemaFormat::Zograscope,
        r#"{"classes": {"A": {"description": "a"}, "B": {"description": "b"}},
            "properties": {"name": {"description": "n", "type": "STRING"}},
            "relations": {"R": {"description": "r", "domain": "A", "range": "B"}}}"#,
    )
    .unwrap();
    let v = validate(
        "MATCH (a:A)-[:R]->(b:B) RETURN a.name AS x, b.name AS y",
        &s,
    );
    assert!(v.kg_valid, "{:#?}", v.diagnostics);
    let v = validate("MATCH (a:A) RETURN a.title AS t", &s);
    assert_eq!(v.diagnostics[0].kind, DiagnosticKind::UnknownPropertyKey);
}

#[test]
fn positions_in_a_different_text_never_split_a_character() {
    // The span of `1 + 1` starts at byte 7, inside the fourth `é`: floored to its start.
    let stmt = grape::parse("RETURN 1 + 1").unwrap();
    let missing = grape::analysis::missing_aliases(&stmt, "ééééé");
    assert_eq!((missing[0].line, missing[0].column), (1, 4));
    // Past the end: the end.
    let missing = grape::analysis::missing_aliases(&stmt, "é\né");
    assert_eq!((missing[0].line, missing[0].column), (2, 2));
}

#[test]
fn call_subquery_scoping_and_with_distinct_where() {
    // No scope clause: the body sees nothing of the outer query ...
    one(
        "MATCH (a:Person) CALL { MATCH (p:Phone) RETURN a.name AS num } RETURN num",
        DiagnosticKind::UndefinedVariable,
        "a",
    );
    one(
        "MATCH (a:Person) CALL { RETURN 1 AS x UNION RETURN a.age AS x } RETURN x",
        DiagnosticKind::UndefinedVariable,
        "a",
    );
    // ... except through a leading importing WITH, in every UNION branch.
    clean("MATCH (a:Person) CALL { WITH a MATCH (a)-[:HAS_PHONE]->(p) RETURN p.number AS num } RETURN num");
    clean("MATCH (a:Person) CALL { WITH a RETURN a.age AS x UNION WITH a RETURN a.name AS x } RETURN x");
    // `CALL (a)` sees `a` only; `CALL (*)` sees everything.
    clean("MATCH (a:Person) CALL (a) { MATCH (a)-[:KNOWS]->(b) RETURN b.name AS n } RETURN n");
    one(
        "MATCH (a:Person), (c:Crime) CALL (a) { RETURN c.type AS t } RETURN t",
        DiagnosticKind::UndefinedVariable,
        "c",
    );
    clean("MATCH (a:Person), (c:Crime) CALL (*) { RETURN c.type AS t, a.name AS n } RETURN t, n");
    // WITH … WHERE sees the preceding variables; after DISTINCT or an aggregation only inside
    // a projected expression, as Neo4j's frontend (lint.cjs) decides.
    clean("MATCH (a:Person) WITH a.name AS name WHERE a.age = 3 RETURN name");
    clean("MATCH (a:Person) WITH DISTINCT a.name AS name WHERE a.name = 'x' RETURN name");
    clean("MATCH (a:Person) WITH a.name AS name, count(*) AS c WHERE a.name = 'x' RETURN name");
    one(
        "MATCH (a:Person) WITH DISTINCT a.name AS name WHERE a.age = 3 RETURN name",
        DiagnosticKind::UndefinedVariable,
        "a",
    );
    one(
        "MATCH (a:Person) WITH a.name AS name, count(*) AS c WHERE a.age = 3 RETURN name",
        DiagnosticKind::UndefinedVariable,
        "a",
    );
    // `WITH *` with nothing in scope is legal; `RETURN *` is not.
    clean("WITH * RETURN 1 AS one");
    clean("CALL { WITH * RETURN 1 AS one } RETURN one");
    one("RETURN *", DiagnosticKind::ReturnStarWithoutVariables, "*");
}

#[test]
fn conflicting_label_sets_in_mandatory_patterns() {
    one(
        "MATCH (p:Person) MATCH (p:Crime) RETURN p",
        DiagnosticKind::VariableTypeConflict,
        "p",
    );
    one(
        "MATCH (p:Person), (p:Vehicle) RETURN p",
        DiagnosticKind::VariableTypeConflict,
        "p",
    );
    let s = schema();
    let v = validate("MATCH (p:Person) MATCH (p:Crime) RETURN p", &s);
    assert!(!v.syntax_ok && !v.kg_valid);
    assert!(
        v.diagnostics[0].message.contains(":Person"),
        "{:?}",
        v.diagnostics
    );
    // Overlapping label sets, repeated labels, and optional or predicate patterns are fine.
    clean("MATCH (p:Person) MATCH (p:Person|Crime) RETURN p");
    clean("MATCH (p:Person) MATCH (p:Person)-[:KNOWS]->(q) RETURN q");
    clean("MATCH (p:Person) OPTIONAL MATCH (p:Crime) RETURN p");
    // Unknown labels are reported as such, not as a conflict.
    one(
        "MATCH (p:Person) MATCH (p:Persn) RETURN p",
        DiagnosticKind::UnknownLabel,
        "Persn",
    );
}

#[test]
fn optional_and_predicate_patterns_do_not_narrow_outer_labels() {
    // Each alternative alone would narrow `x` to :Person or :Vehicle; together, nothing.
    clean("MATCH (x) WHERE (x)-[:HAS_PHONE]->() OR (x)-[:INVOLVED_IN]->() RETURN x");
    clean("MATCH (x) OPTIONAL MATCH (x)-[:HAS_PHONE]->() RETURN x.make AS m");
    clean("MATCH (x) WHERE EXISTS { (x)-[:HAS_PHONE]->() } OR x.make = 'a' RETURN x");
    clean("MATCH (x) WHERE EXISTS { MATCH (x)-[:HAS_PHONE]->() } OR x.make = 'a' RETURN x");
    clean("MATCH (x) WHERE COUNT { (x)-[:HAS_PHONE]->() } > 0 OR x.make = 'a' RETURN x");
    clean("MATCH (x) RETURN [(x)-[:HAS_PHONE]->(p) | p.number] AS nums, x.make AS m");
    clean("MATCH (x) RETURN COLLECT { MATCH (x)-[:HAS_PHONE]->(p) RETURN p.number } AS nums, x.make AS m");
    clean("MATCH (x) RETURN CASE WHEN (x)-[:HAS_PHONE]->() THEN 1 WHEN (x)-[:INVOLVED_IN]->() THEN 2 END AS k");
    // The copies are still narrowed by the outer pattern: a wrong path inside is reported.
    one(
        "MATCH (x:Crime) WHERE (x)-[:HAS_PHONE]->() RETURN x",
        DiagnosticKind::UnknownPath,
        "-[:HAS_PHONE]->",
    );
    one(
        "MATCH (x:Crime) OPTIONAL MATCH (x)-[:HAS_PHONE]->(p) RETURN p",
        DiagnosticKind::UnknownPath,
        "-[:HAS_PHONE]->",
    );
    // Mandatory patterns still narrow.
    one(
        "MATCH (x) MATCH (x)-[:HAS_PHONE]->() RETURN x.make AS m",
        DiagnosticKind::InvalidPropertyAccessByLabel,
        "make",
    );
    // New variables of an optional pattern are narrowed by it.
    one(
        "MATCH (x:Person) OPTIONAL MATCH (x)-[:HAS_PHONE]->(p) RETURN p.make AS m",
        DiagnosticKind::InvalidPropertyAccessByLabel,
        "make",
    );
}

#[test]
fn procedure_calls_are_checked_as_neo4j_checks_them() {
    // Argument types, from the catalogue's signature (a MAP argument takes a node too).
    one(
        "CALL db.index.fulltext.queryNodes(1, 'x') YIELD node RETURN node",
        DiagnosticKind::InvalidArgumentType,
        "1",
    );
    clean("MATCH (p:Person) CALL apoc.create.setProperty(p, 'age', 3) YIELD node RETURN node");
    // No aggregate among the arguments.
    one(
        "MATCH (p:Person) CALL db.index.fulltext.queryNodes('i', toString(count(p))) YIELD node RETURN node",
        DiagnosticKind::InvalidAggregation,
        "count(p)",
    );
    // Inside a query, results are named with YIELD.
    assert_eq!(
        kinds("CALL db.labels() RETURN label"),
        [
            (
                DiagnosticKind::ImplicitProcedureResults,
                "db.labels".to_string()
            ),
            (DiagnosticKind::UndefinedVariable, "label".to_string())
        ]
    );
    // Standalone, both are implicit.
    clean("CALL db.labels");
    // Procedures the caller adds are checked against their signatures too.
    let s = schema();
    let opts = ValidateOptions {
        procedures: vec![grape::catalogue::Signature::parse(
            "my.proc(in :: INTEGER) :: (out :: INTEGER)",
        )
        .unwrap()],
        ..Default::default()
    };
    let v = Validator::with_options(&s, opts).validate("CALL my.proc(true) YIELD out RETURN out");
    assert_eq!(
        v.diagnostics.iter().map(|d| d.kind).collect::<Vec<_>>(),
        [DiagnosticKind::InvalidArgumentType]
    );
}
