//! Indexes and constraints: `CREATE`/`DROP` `INDEX`/`CONSTRAINT` parse, print back, validate
//! with Neo4j's messages and run; `SHOW INDEXES` / `SHOW CONSTRAINTS` list them in Neo4j 5's
//! columns; constraints are checked when they are created and on every write, and a failed
//! statement leaves neither its writes nor its schema changes behind.

mod common;

use grape::engine::{run, ErrorKind, Params};
use grape::graph::Graph;
use grape::syntax::{parse, print, PrintOptions};

fn fails(g: &mut Graph, q: &str) -> grape::engine::ExecError {
    match run(g, q, &Params::new()) {
        Ok(_) => panic!("{q}: ran, expected an error"),
        Err(e) => e,
    }
}

#[test]
fn every_schema_command_parses_and_prints_back() {
    for (text, canonical) in [
        (
            "create index for (n:Person) on (n.name)",
            "CREATE INDEX FOR (n:Person) ON (n.name)",
        ),
        (
            "CREATE RANGE INDEX idx IF NOT EXISTS FOR (n:Person) ON (n.name, n.age)",
            "CREATE RANGE INDEX idx IF NOT EXISTS FOR (n:Person) ON (n.name, n.age)",
        ),
        (
            "CREATE INDEX FOR ()-[r:KNOWS]->() ON r.since",
            "CREATE INDEX FOR ()-[r:KNOWS]->() ON (r.since)",
        ),
        (
            "CREATE TEXT INDEX $name FOR ()<-[r:R]-() ON (r.x)",
            "CREATE TEXT INDEX $name FOR ()<-[r:R]-() ON (r.x)",
        ),
        (
            "CREATE POINT INDEX `my index` FOR (n:Place) ON (n.loc) OPTIONS {indexConfig: {`spatial.cartesian.min`: [-1.0, -1.0]}}",
            "CREATE POINT INDEX `my index` FOR (n:Place) ON (n.loc) OPTIONS {indexConfig: {`spatial.cartesian.min`: [-1.0, -1.0]}}",
        ),
        (
            "CREATE LOOKUP INDEX FOR (n) ON EACH labels(n)",
            "CREATE LOOKUP INDEX FOR (n) ON EACH labels(n)",
        ),
        (
            "CREATE LOOKUP INDEX rl FOR ()-[r]-() ON type(r)",
            "CREATE LOOKUP INDEX rl FOR ()-[r]-() ON EACH type(r)",
        ),
        (
            "CREATE FULLTEXT INDEX ft FOR (n:Movie|Book) ON EACH [n.title, n.plot] OPTIONS $o",
            "CREATE FULLTEXT INDEX ft FOR (n:Movie|Book) ON EACH [n.title, n.plot] OPTIONS $o",
        ),
        (
            "CREATE VECTOR INDEX v FOR (m:Movie) ON m.embedding OPTIONS {indexConfig: {`vector.dimensions`: 3}}",
            "CREATE VECTOR INDEX v FOR (m:Movie) ON (m.embedding) OPTIONS {indexConfig: {`vector.dimensions`: 3}}",
        ),
        // A name may be a word that also starts what follows.
        (
            "CREATE INDEX FOR FOR (n:A) ON (n.p)",
            "CREATE INDEX FOR FOR (n:A) ON (n.p)",
        ),
        (
            "CREATE INDEX IF NOT EXISTS FOR (n:A) ON (n.p)",
            "CREATE INDEX IF NOT EXISTS FOR (n:A) ON (n.p)",
        ),
        ("DROP INDEX i IF EXISTS", "DROP INDEX i IF EXISTS"),
        ("drop constraint $c", "DROP CONSTRAINT $c"),
        (
            "CREATE CONSTRAINT c FOR (n:P) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT c FOR (n:P) REQUIRE n.id IS UNIQUE",
        ),
        (
            "CREATE CONSTRAINT FOR (n:P) REQUIRE (n.a, n.b) IS NODE KEY",
            "CREATE CONSTRAINT FOR (n:P) REQUIRE (n.a, n.b) IS NODE KEY",
        ),
        (
            "CREATE CONSTRAINT FOR ()-[r:R]-() REQUIRE r.id IS REL UNIQUE",
            "CREATE CONSTRAINT FOR ()-[r:R]-() REQUIRE r.id IS RELATIONSHIP UNIQUE",
        ),
        (
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a IS NOT NULL",
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a IS NOT NULL",
        ),
        (
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a :: INTEGER | FLOAT",
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a IS :: INTEGER | FLOAT",
        ),
        (
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a IS TYPED LIST<STRING NOT NULL>",
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a IS :: LIST<STRING NOT NULL>",
        ),
        ("show index", "SHOW INDEXES"),
        ("SHOW VECTOR INDEXES", "SHOW VECTOR INDEXES"),
        ("SHOW CONSTRAINT", "SHOW CONSTRAINTS"),
        ("SHOW NODE UNIQUENESS CONSTRAINTS", "SHOW NODE UNIQUE CONSTRAINTS"),
        (
            "SHOW REL EXIST CONSTRAINTS",
            "SHOW RELATIONSHIP PROPERTY EXISTENCE CONSTRAINTS",
        ),
        (
            "SHOW PROPERTY TYPE CONSTRAINTS",
            "SHOW PROPERTY TYPE CONSTRAINTS",
        ),
        (
            "SHOW INDEXES YIELD name, type WHERE type = 'VECTOR' RETURN name",
            "SHOW INDEXES YIELD name, type WHERE type = 'VECTOR' RETURN name",
        ),
    ] {
        let stmt = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = print(&stmt, &PrintOptions::default());
        assert_eq!(printed, canonical, "{text}");
        assert_eq!(parse(&printed).unwrap(), stmt, "{text}");
    }
    // Neo4j's grammar refuses these.
    for bad in [
        "CREATE INDEX FOR (n:A|B) ON (n.p)",
        "CREATE INDEX FOR (n) ON (n.p)",
        "CREATE INDEX ON :Person(name)",
        "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a IS STRING",
        "CREATE INDEX FOR (n:P) ON (n.p) RETURN 1",
        "MATCH (n) CREATE INDEX FOR (n:P) ON (n.p)",
        "CALL { CREATE INDEX FOR (n:P) ON (n.p) } RETURN 1",
        "DROP INDEX",
    ] {
        assert!(parse(bad).is_err(), "{bad} parsed");
    }
}

#[test]
fn neo4js_compile_time_checks() {
    for (q, message) in [
        (
            "CREATE TEXT INDEX FOR (n:P) ON (n.a, n.b)",
            "Only single property text indexes are supported",
        ),
        (
            "CREATE VECTOR INDEX FOR (n:P) ON (n.a, n.b)",
            "Only single property vector indexes are supported",
        ),
        ("CREATE INDEX FOR (n:P) ON (m.a)", "Variable `m` not defined"),
        (
            "CREATE LOOKUP INDEX FOR (n) ON EACH type(n)",
            "Failed to create node lookup index: Function 'type' is not allowed, valid function is 'labels'.",
        ),
        (
            "CREATE OR REPLACE INDEX i FOR (n:P) ON (n.a)",
            "Failed to create index: `OR REPLACE` cannot be used together with this command.",
        ),
        (
            "CREATE CONSTRAINT FOR ()-[r:R]-() REQUIRE r.id IS NODE UNIQUE",
            "'IS NODE UNIQUE' does not allow relationship patterns",
        ),
        (
            "CREATE CONSTRAINT FOR (n:P) REQUIRE (n.a, n.b) IS NOT NULL",
            "Constraint type 'IS NOT NULL' does not allow multiple properties",
        ),
        (
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a :: MAP",
            "Failed to create node property type constraint: Invalid property type `MAP`.",
        ),
        (
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a :: LIST<INTEGER>",
            "Failed to create node property type constraint: Invalid property type `LIST<INTEGER>`. Lists cannot have nullable inner types.",
        ),
        (
            "SHOW INDEXES YIELD nope",
            "Trying to YIELD non-existing column: `nope`",
        ),
    ] {
        let e = fails(&mut Graph::new(), q);
        assert_eq!(e.message, message, "{q}");
        assert_eq!(e.code(), "Neo.ClientError.Statement.SyntaxError", "{q}");
    }
    // After SHOW, only a RETURN (after YIELD).
    let e = fails(&mut Graph::new(), "SHOW INDEXES MATCH (n) RETURN n");
    assert!(
        e.message.starts_with("Invalid input 'MATCH'"),
        "{}",
        e.message
    );
    // Cypher 25 has no `indexProvider` option.
    let e = fails(
        &mut Graph::new(),
        "CYPHER 25 CREATE INDEX FOR (n:P) ON (n.a) OPTIONS {indexProvider: 'range-1.0'}",
    );
    assert!(e.message.contains("'indexProvider'"), "{}", e.message);
}

#[test]
fn show_indexes_lists_neo4js_columns_and_the_default_lookup_indexes() {
    let mut g = Graph::new();
    let t = run(&mut g, "SHOW INDEXES", &Params::new()).unwrap();
    assert_eq!(
        t.columns,
        [
            "id",
            "name",
            "state",
            "populationPercent",
            "type",
            "entityType",
            "labelsOrTypes",
            "properties",
            "indexProvider",
            "owningConstraint",
            "lastRead",
            "readCount"
        ]
    );
    assert_eq!(
        common::display_rows(&t),
        [
            "1 | 'index_343aff4e' | 'ONLINE' | 100.0 | 'LOOKUP' | 'NODE' | null | null | 'token-lookup-1.0' | null | null | null",
            "2 | 'index_f7700477' | 'ONLINE' | 100.0 | 'LOOKUP' | 'RELATIONSHIP' | null | null | 'token-lookup-1.0' | null | null | null",
        ]
    );
    for q in [
        "CREATE INDEX person_name FOR (n:Person) ON (n.name, n.age)",
        "CREATE TEXT INDEX FOR ()-[r:KNOWS]-() ON (r.note)",
        "CREATE FULLTEXT INDEX ft FOR (n:Movie|Book) ON EACH [n.title, n.plot]",
        "CREATE VECTOR INDEX plots FOR (m:Movie) ON m.embedding OPTIONS {indexConfig: {`vector.dimensions`: 4, `vector.similarity_function`: 'euclidean'}}",
    ] {
        let t = run(&mut g, q, &Params::new()).unwrap_or_else(|e| panic!("{q}: {e}"));
        assert_eq!(t.stats.indexes_added, 1, "{q}");
    }
    let r = common::rows(
        &mut g,
        "SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, options, createStatement \
         WHERE type <> 'LOOKUP' RETURN name, type, entityType, labelsOrTypes, properties, \
         options.indexConfig AS config, createStatement",
    );
    assert_eq!(r.len(), 4);
    assert!(r[0].starts_with("'ft' | 'FULLTEXT' | 'NODE' | ['Movie', 'Book'] | ['title', 'plot'] | {`fulltext.analyzer`: 'standard-no-stop-words', `fulltext.eventually_consistent`: false}")
        || r[0].starts_with("'ft' | 'FULLTEXT' | 'NODE' | ['Movie', 'Book'] | ['title', 'plot'] | {fulltext.analyzer: 'standard-no-stop-words', fulltext.eventually_consistent: false}"), "{}", r[0]);
    assert!(r[0].ends_with("'CREATE FULLTEXT INDEX `ft` FOR (n:`Movie`|`Book`) ON EACH [n.`title`, n.`plot`] OPTIONS {indexConfig: {`fulltext.analyzer`: \\'standard-no-stop-words\\',`fulltext.eventually_consistent`: false}, indexProvider: \\'fulltext-1.0\\'}'"), "{}", r[0]);
    assert!(r[1].starts_with("'index_"), "{}", r[1]);
    assert!(
        r[1].contains("'TEXT' | 'RELATIONSHIP' | ['KNOWS'] | ['note']"),
        "{}",
        r[1]
    );
    assert!(
        r[2].starts_with("'person_name' | 'RANGE' | 'NODE' | ['Person'] | ['name', 'age'] | {}"),
        "{}",
        r[2]
    );
    assert!(
        r[3].contains("'VECTOR' | 'NODE' | ['Movie'] | ['embedding']"),
        "{}",
        r[3]
    );
    assert!(r[3].contains("4"), "{}", r[3]);
    assert!(r[3].contains("'EUCLIDEAN'"), "{}", r[3]);
    // Kinds filter.
    assert_eq!(
        common::rows(&mut g, "SHOW VECTOR INDEXES YIELD name RETURN name"),
        ["'plots'"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "SHOW LOOKUP INDEXES YIELD name RETURN count(*) AS n"
        ),
        ["2"]
    );
    // The same definition under another name, the same name, or both.
    let e = fails(
        &mut g,
        "CREATE INDEX other FOR (n:Person) ON (n.name, n.age)",
    );
    assert_eq!(e.code(), "Neo.ClientError.Schema.IndexAlreadyExists");
    assert_eq!(
        e.message,
        "There already exists an index (:Person {name, age})."
    );
    let e = fails(&mut g, "CREATE INDEX person_name FOR (n:X) ON (n.y)");
    assert_eq!(
        e.code(),
        "Neo.ClientError.Schema.IndexWithNameAlreadyExists"
    );
    let e = fails(
        &mut g,
        "CREATE INDEX person_name FOR (n:Person) ON (n.name, n.age)",
    );
    assert_eq!(
        e.code(),
        "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"
    );
    assert!(e.message.starts_with("An equivalent index already exists, 'Index( id=3, name='person_name', type='RANGE', schema=(:Person {name, age}), indexProvider='range-1.0' )'"), "{}", e.message);
    // IF NOT EXISTS: nothing happens.
    let t = run(
        &mut g,
        "CREATE INDEX person_name IF NOT EXISTS FOR (n:X) ON (n.y)",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(t.stats.indexes_added, 0);
    // A second lookup index of a kind is refused.
    let e = fails(
        &mut g,
        "CREATE LOOKUP INDEX again FOR (n) ON EACH labels(n)",
    );
    assert_eq!(e.code(), "Neo.ClientError.Schema.IndexAlreadyExists");
    // DROP, by name or parameter.
    let mut p = Params::new();
    p.insert("n".into(), grape::value::Value::from("plots"));
    let t = run(&mut g, "DROP INDEX $n", &p).unwrap();
    assert_eq!(t.stats.indexes_removed, 1);
    let e = fails(&mut g, "DROP INDEX plots");
    assert_eq!(e.code(), "Neo.DatabaseError.Schema.IndexDropFailed");
    run(&mut g, "DROP INDEX plots IF EXISTS", &Params::new()).unwrap();
    assert_eq!(
        common::rows(&mut g, "SHOW INDEXES YIELD name RETURN count(*) AS n"),
        ["5"]
    );
    // Bad options.
    for q in [
        "CREATE VECTOR INDEX v2 FOR (n:D) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 0}}",
        "CREATE VECTOR INDEX v2 FOR (n:D) ON (n.e) OPTIONS {indexConfig: {`vector.similarity_function`: 'dot'}}",
        "CREATE INDEX v2 FOR (n:D) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 3}}",
        "CREATE INDEX v2 FOR (n:D) ON (n.e) OPTIONS {indexProvider: 'text-2.0'}",
        "CREATE INDEX v2 FOR (n:D) ON (n.e) OPTIONS {colour: 'blue'}",
    ] {
        let e = fails(&mut g, q);
        assert_eq!(e.kind, ErrorKind::ArgumentError, "{q}: {e}");
    }
}

#[test]
fn uniqueness_constraints_own_an_index_and_hold_on_every_write() {
    let mut g = common::graph(
        "CREATE (:Person {name: 'Alice'}), (:Person {name: 'Bob'}), (:Person {age: 3})",
    );
    let t = run(
        &mut g,
        "CREATE CONSTRAINT person_name FOR (p:Person) REQUIRE p.name IS UNIQUE",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(t.stats.constraints_added, 1);
    assert_eq!(
        common::rows(&mut g, "SHOW CONSTRAINTS"),
        ["4 | 'person_name' | 'UNIQUENESS' | 'NODE' | ['Person'] | ['name'] | 'person_name' | null"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "SHOW INDEXES YIELD name, type, owningConstraint WHERE owningConstraint IS NOT NULL RETURN *"
        ),
        // (After a SHOW command `RETURN *` keeps the yielded order, as Neo4j does.)
        ["'person_name' | 'RANGE' | 'person_name'"]
    );
    assert_eq!(
        common::rows(&mut g, "CYPHER 25 SHOW CONSTRAINTS YIELD type RETURN type"),
        ["'NODE_PROPERTY_UNIQUENESS'"]
    );
    for q in [
        "CREATE (:Person {name: 'Alice'})",
        "MATCH (p:Person {name: 'Bob'}) SET p.name = 'Alice'",
        "MATCH (p:Person) WHERE p.age = 3 SET p.name = 'Bob'",
        "CREATE (:Robot {name: 'Bob'}) WITH 1 AS x MATCH (r:Robot) SET r:Person",
        "UNWIND [1, 2] AS i CREATE (:Person {name: 'Carol'})",
        "MERGE (p:Person {name: 'Dave'}) WITH p CREATE (:Person {name: 'Dave'})",
    ] {
        let e = fails(&mut g, q);
        assert_eq!(
            e.code(),
            "Neo.ClientError.Schema.ConstraintValidationFailed",
            "{q}"
        );
        assert!(
            e.message
                .contains("already exists with label `Person` and property `name` = '"),
            "{q}: {}",
            e.message
        );
    }
    // Nothing of the failed statements stayed.
    assert_eq!(
        common::rows(&mut g, "MATCH (n) RETURN count(n) AS n"),
        ["3"]
    );
    assert_eq!(
        common::rows(&mut g, "MATCH (p:Person {name: 'Alice'}) RETURN count(p)"),
        ["1"]
    );
    // 1 and 1.0 are the same value to a uniqueness constraint.
    run(&mut g, "CREATE (:Person {name: 1})", &Params::new()).unwrap();
    let e = fails(&mut g, "CREATE (:Person {name: 1.0})");
    assert_eq!(
        e.message,
        "Node(3) already exists with label `Person` and property `name` = 1.0"
    );
    // A new value is fine; so is a node without the property.
    run(
        &mut g,
        "CREATE (:Person {name: 'Erin'}), (:Person)",
        &Params::new(),
    )
    .unwrap();
    // Creating the constraint again, or on data that breaks it.
    let e = fails(
        &mut g,
        "CREATE CONSTRAINT again FOR (p:Person) REQUIRE p.name IS UNIQUE",
    );
    assert_eq!(e.code(), "Neo.ClientError.Schema.ConstraintAlreadyExists");
    let e = fails(
        &mut g,
        "CREATE CONSTRAINT FOR (p:Person) REQUIRE p.name IS NODE KEY",
    );
    assert_eq!(e.code(), "Neo.ClientError.Schema.ConstraintAlreadyExists");
    run(
        &mut g,
        "CREATE (:City {n: 'X'}), (:City {n: 'X'})",
        &Params::new(),
    )
    .unwrap();
    let e = fails(
        &mut g,
        "CREATE CONSTRAINT city FOR (c:City) REQUIRE c.n IS UNIQUE",
    );
    assert_eq!(
        e.code(),
        "Neo.DatabaseError.Schema.ConstraintCreationFailed"
    );
    assert!(
        e.message
            .ends_with("have the label `City` and property `n` = 'X'"),
        "{}",
        e.message
    );
    assert!(common::rows(&mut g, "SHOW CONSTRAINTS YIELD name RETURN name").len() == 1);
    // Dropping the constraint drops its index and lifts the rule.
    let e = fails(&mut g, "DROP INDEX person_name");
    assert_eq!(e.code(), "Neo.DatabaseError.Schema.IndexDropFailed");
    let t = run(&mut g, "DROP CONSTRAINT person_name", &Params::new()).unwrap();
    assert_eq!(t.stats.constraints_removed, 1);
    assert_eq!(
        common::rows(&mut g, "SHOW INDEXES YIELD name RETURN count(*) AS n"),
        ["2"]
    );
    run(&mut g, "CREATE (:Person {name: 'Alice'})", &Params::new()).unwrap();
    let e = fails(&mut g, "DROP CONSTRAINT person_name");
    assert_eq!(e.code(), "Neo.DatabaseError.Schema.ConstraintDropFailed");
}

#[test]
fn key_existence_and_type_constraints() {
    let mut g = common::graph(
        "CREATE (:Movie {title: 'A', year: 1999})-[:IN {role: 'x'}]->(:Genre {name: 'g'})",
    );
    for q in [
        "CREATE CONSTRAINT movie_key FOR (m:Movie) REQUIRE (m.title, m.year) IS NODE KEY",
        "CREATE CONSTRAINT genre_name FOR (g:Genre) REQUIRE g.name IS NOT NULL",
        "CREATE CONSTRAINT year_type FOR (m:Movie) REQUIRE m.year IS :: INTEGER",
        "CREATE CONSTRAINT role FOR ()-[r:IN]-() REQUIRE r.role IS NOT NULL",
        "CREATE CONSTRAINT role_unique FOR ()-[r:IN]-() REQUIRE r.role IS RELATIONSHIP UNIQUE",
    ] {
        run(&mut g, q, &Params::new()).unwrap_or_else(|e| panic!("{q}: {e}"));
    }
    for (q, message) in [
        (
            "CREATE (:Movie {title: 'B'})",
            "Node(2) with label `Movie` must have the properties (`title`, `year`)",
        ),
        (
            "CREATE (:Movie {title: 'A', year: 1999})",
            "Node(0) already exists with label `Movie` and properties `title` = 'A', `year` = 1999",
        ),
        (
            "MATCH (g:Genre) REMOVE g.name",
            "Node(1) with label `Genre` must have the property `name`",
        ),
        (
            "MATCH (m:Movie) SET m.year = '1999'",
            "Node(0) with label `Movie` required the property `year` to be of type `INTEGER`, but was of type `STRING`.",
        ),
        (
            "MATCH (m:Movie), (g:Genre) CREATE (m)-[:IN]->(g)",
            "Relationship(1) with type `IN` must have the property `role`",
        ),
        (
            "MATCH (m:Movie), (g:Genre) CREATE (m)-[:IN {role: 'x'}]->(g)",
            "Relationship(0) already exists with type `IN` and property `role` = 'x'",
        ),
    ] {
        let e = fails(&mut g, q);
        assert_eq!(e.message, message, "{q}");
        assert_eq!(e.code(), "Neo.ClientError.Schema.ConstraintValidationFailed");
    }
    // Within one statement the check is at its end: a node created then completed passes.
    run(
        &mut g,
        "CREATE (m:Movie {title: 'C'}) SET m.year = 2001",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(
        common::rows(
            &mut g,
            "SHOW PROPERTY TYPE CONSTRAINTS YIELD name, propertyType RETURN *"
        ),
        ["'year_type' | 'INTEGER'"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "SHOW RELATIONSHIP EXISTENCE CONSTRAINTS YIELD name RETURN name"
        ),
        ["'role'"]
    );
    assert_eq!(
        common::rows(&mut g, "SHOW KEY CONSTRAINTS YIELD name, type RETURN *"),
        ["'movie_key' | 'NODE_KEY'"]
    );
    // A new constraint is checked against the data.
    let e = fails(
        &mut g,
        "CREATE CONSTRAINT FOR (m:Movie) REQUIRE m.rating IS NOT NULL",
    );
    assert_eq!(
        e.code(),
        "Neo.DatabaseError.Schema.ConstraintCreationFailed"
    );
    assert!(
        e.message.ends_with(
            "Node(0) with label `Movie` must have the property `rating`. \
             Note that only the first found violation is shown."
        ),
        "{}",
        e.message
    );
}

#[test]
fn schema_changes_roll_back_with_a_failed_statement_and_are_refused_read_only() {
    let mut g = Graph::new();
    // A schema command that fails leaves the schema as it was.
    let e = fails(
        &mut g,
        "CREATE INDEX FOR (n:P) ON (n.p) OPTIONS {indexConfig: 1}",
    );
    assert_eq!(e.kind, ErrorKind::ArgumentError);
    assert_eq!(g.schema().indexes().len(), 2);
    // Explicit transactions (the Bolt server's) roll schema changes back too.
    let sp = g.savepoint();
    run(&mut g, "CREATE INDEX i FOR (n:P) ON (n.p)", &Params::new()).unwrap();
    assert_eq!(g.schema().indexes().len(), 3);
    g.rollback_to(&sp);
    g.release(sp);
    assert_eq!(g.schema().indexes().len(), 2);
    // Read-only execution refuses schema commands.
    let e = grape::engine::run_read(
        &g,
        "CREATE INDEX i FOR (n:P) ON (n.p)",
        &Params::new(),
        &Default::default(),
    )
    .unwrap_err();
    assert!(e.to_string().to_lowercase().contains("read"), "{e}");
    for q in ["CREATE INDEX FOR (n:P) ON (n.p)", "DROP CONSTRAINT c"] {
        assert_eq!(
            grape::analysis::access(&parse(q).unwrap()),
            grape::analysis::Access::Schema
        );
    }
}

#[test]
fn unnamed_rules_get_neo4js_names() {
    // Names Neo4j gives these definitions (its schema-rule tests and manual).
    let mut g = Graph::new();
    for (q, name) in [
        (
            "CREATE INDEX FOR (n:Person) ON (n.middlename)",
            "index_664b28a2",
        ),
        (
            "CREATE INDEX FOR (n:Person) ON (n.highScore)",
            "index_8a688dca",
        ),
        (
            "CREATE INDEX FOR ()-[r:KNOWS]-() ON (r.since)",
            "index_6e62c571",
        ),
        ("CREATE INDEX FOR (n:A) ON (n.B, n.C)", "index_c4551613"),
        (
            "CREATE INDEX FOR ()-[r:A]-() ON (r.B, r.C)",
            "index_31eed16b",
        ),
        (
            "CREATE FULLTEXT INDEX FOR (n:A) ON EACH [n.B, n.C]",
            "index_99c88876",
        ),
        (
            "CREATE FULLTEXT INDEX FOR ()-[r:A]-() ON EACH [r.B, r.C]",
            "index_9c14864e",
        ),
        (
            "CREATE CONSTRAINT FOR (b:Book) REQUIRE b.isbn IS UNIQUE",
            "constraint_1bc95fcb",
        ),
        (
            "CREATE CONSTRAINT FOR ()-[r:KNOWS]-() REQUIRE r.since IS NOT NULL",
            "constraint_f076a74d",
        ),
        (
            "CREATE CONSTRAINT FOR ()-[r:A]-() REQUIRE (r.B, r.C) IS UNIQUE",
            "constraint_f05b6188",
        ),
        (
            "CREATE CONSTRAINT FOR (n:A) REQUIRE (n.B, n.C) IS NODE KEY",
            "constraint_75ad9cd9",
        ),
    ] {
        // Each of the last two would clash with an index made above.
        if q.contains("(r.B, r.C) IS UNIQUE") {
            run(&mut g, "DROP INDEX index_31eed16b", &Params::new()).unwrap();
        }
        if q.contains("IS NODE KEY") {
            run(&mut g, "DROP INDEX index_c4551613", &Params::new()).unwrap();
        }
        run(&mut g, q, &Params::new()).unwrap_or_else(|e| panic!("{q}: {e}"));
        let mut found = common::rows(
            &mut g,
            &format!("SHOW INDEXES YIELD name WHERE name = '{name}' RETURN name"),
        );
        found.extend(common::rows(
            &mut g,
            &format!("SHOW CONSTRAINTS YIELD name WHERE name = '{name}' RETURN name"),
        ));
        // A constraint's index has the constraint's name.
        found.dedup();
        assert_eq!(found, [format!("'{name}'")], "{q}");
    }
    assert_eq!(
        common::rows(&mut g, "SHOW LOOKUP INDEXES YIELD name RETURN name"),
        ["'index_343aff4e'", "'index_f7700477'"]
    );
}

#[test]
fn apoc_meta_data_and_schema_nodes_read_the_schema() {
    let mut g = common::graph(
        "CREATE (:Person {name: 'A'})-[:KNOWS {since: 2020}]->(:Person {name: 'B', tags: ['t']}), \
         (:Person {name: 'C'})-[:WROTE]->(:Book {title: 'T'}), (:Thing {v: 1}), (:Thing {v: 'x'}), (:Thing {v: 2})",
    );
    run(
        &mut g,
        "CREATE CONSTRAINT person_name FOR (p:Person) REQUIRE p.name IS UNIQUE",
        &Params::new(),
    )
    .unwrap();
    run(
        &mut g,
        "CREATE INDEX FOR (b:Book) ON (b.title)",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(
        common::rows(
            &mut g,
            "CALL apoc.meta.data() YIELD label, property, type, unique, index, other, elementType, count \
             RETURN label, property, type, unique, index, other, elementType, count"
        ),
        // APOC 5.26's answer on the Neo4j oracle, row for row: relationship types then labels in
        // token order, each element's relationships before its properties.
        [
            "'KNOWS' | 'Person' | 'RELATIONSHIP' | false | false | ['Person'] | 'relationship' | 1",
            "'KNOWS' | 'since' | 'INTEGER' | false | false | [] | 'relationship' | 0",
            "'WROTE' | 'Person' | 'RELATIONSHIP' | false | false | ['Book'] | 'relationship' | 1",
            "'Person' | 'KNOWS' | 'RELATIONSHIP' | false | false | ['Person'] | 'node' | 1",
            "'Person' | 'name' | 'STRING' | true | true | [] | 'node' | 0",
            "'Person' | 'tags' | 'LIST' | false | false | [] | 'node' | 0",
            "'Person' | 'WROTE' | 'RELATIONSHIP' | false | false | ['Book'] | 'node' | 1",
            "'Book' | 'title' | 'STRING' | false | true | [] | 'node' | 0",
            // The most common type of `v` wins.
            "'Thing' | 'v' | 'INTEGER' | false | false | [] | 'node' | 0",
        ]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL apoc.schema.nodes() YIELD name, label, properties, type, size, valuesSelectivity \
             RETURN name, label, properties, type, size, valuesSelectivity"
        ),
        [
            "'index_9b803aa1' | 'Book' | ['title'] | 'RANGE' | 1 | 1.0",
            "'person_name' | 'Person' | ['name'] | 'RANGE' | 3 | 1.0",
            "'person_name' | 'Person' | ['name'] | 'UNIQUENESS' | 0 | 0.0",
        ]
    );
}

#[test]
fn fixtures_carry_indexes_and_constraints() {
    use grape::graph::import::{graph_to_json, parse_json_fixture};
    let text = r#"{
        "nodes": [
            {"id": "a", "labels": ["Doc"], "properties": {"title": "A", "e": [1.0, 0.0]}},
            {"id": "b", "labels": ["Doc"], "properties": {"title": "B", "e": [0.0, 1.0]}}
        ],
        "relationships": [{"start": "a", "end": "b", "type": "CITES", "properties": {"w": 1}}],
        "indexes": [
            {"name": "docs", "type": "VECTOR", "labelsOrTypes": ["Doc"], "properties": ["e"],
             "options": {"indexConfig": {"vector.dimensions": 2, "vector.similarity_function": "euclidean"}}},
            {"type": "RANGE", "entityType": "RELATIONSHIP", "labelsOrTypes": ["CITES"], "properties": ["w"]},
            {"name": "doc_title", "type": "RANGE", "labelsOrTypes": ["Doc"], "properties": ["title"], "owningConstraint": "doc_title"}
        ],
        "constraints": [
            {"name": "doc_title", "type": "UNIQUENESS", "labelsOrTypes": ["Doc"], "properties": ["title"]},
            {"type": "RELATIONSHIP_PROPERTY_TYPE", "labelsOrTypes": ["CITES"], "properties": ["w"], "propertyType": "INTEGER | FLOAT"}
        ]
    }"#;
    let mut g = parse_json_fixture(text, "f.json").unwrap();
    // With an `indexes` section the graph has exactly the listed indexes (no LOOKUP ones).
    let indexes = common::rows(
        &mut g,
        "SHOW INDEXES YIELD name, type, entityType, owningConstraint RETURN *",
    );
    assert_eq!(indexes.len(), 3, "{indexes:?}");
    assert_eq!(
        indexes,
        [
            "'doc_title' | 'RANGE' | 'NODE' | 'doc_title'",
            "'docs' | 'VECTOR' | 'NODE' | null",
            "'index_14a5b064' | 'RANGE' | 'RELATIONSHIP' | null"
        ]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "SHOW CONSTRAINTS YIELD name, type, propertyType RETURN type, propertyType"
        ),
        [
            "'RELATIONSHIP_PROPERTY_TYPE' | 'INTEGER | FLOAT'",
            "'UNIQUENESS' | null"
        ]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.index.vector.queryNodes('docs', 1, [0.9, 0.1]) YIELD node RETURN node.title"
        ),
        ["'A'"]
    );
    // The constraints hold on writes.
    assert!(run(&mut g, "CREATE (:Doc {title: 'A'})", &Params::new()).is_err());
    // Written back, read again: the same schema.
    let again = parse_json_fixture(&graph_to_json(&g).to_string(), "g.json").unwrap();
    let show = |g: &Graph| {
        let mut g = g.clone();
        let mut r = common::rows(
            &mut g,
            "SHOW INDEXES YIELD * RETURN name, type, createStatement",
        );
        r.extend(common::rows(
            &mut g,
            "SHOW CONSTRAINTS YIELD * RETURN name, type, createStatement",
        ));
        r
    };
    assert_eq!(show(&again), show(&g));
    // A new graph's schema is not written.
    let plain = graph_to_json(&common::graph("CREATE (:A)"));
    assert!(plain.get("indexes").is_none() && plain.get("constraints").is_none());
    // Bad sections name the record.
    for (bad, at) in [
        (
            r#"{"indexes": [{"type": "BTREE", "labelsOrTypes": ["A"], "properties": ["p"]}]}"#,
            "$.indexes[0].type",
        ),
        (
            r#"{"indexes": [{"type": "TEXT", "labelsOrTypes": ["A"], "properties": ["p", "q"]}]}"#,
            "$.indexes[0]",
        ),
        (
            r#"{"constraints": [{"type": "NODE_PROPERTY_TYPE", "labelsOrTypes": ["A"], "properties": ["p"], "propertyType": "MAP"}]}"#,
            "$.constraints[0].propertyType",
        ),
        (
            r#"{"constraints": [{"type": "UNIQUENESS", "labelsOrTypes": ["A"], "properties": ["p"]}, {"type": "UNIQUENESS", "labelsOrTypes": ["A"], "properties": ["p"]}]}"#,
            "$.constraints[1]",
        ),
    ] {
        let e = parse_json_fixture(bad, "bad.json").unwrap_err();
        assert_eq!(e.location.as_deref(), Some(at), "{bad}: {e}");
    }
    // Data that breaks a declared constraint is refused when the fixture is loaded.
    let dir = std::env::temp_dir().join(format!("grape-fixture-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dup.json");
    std::fs::write(
        &path,
        r#"{"nodes": [{"id": 1, "labels": ["A"], "properties": {"p": 1}}, {"id": 2, "labels": ["A"], "properties": {"p": 1}}],
            "constraints": [{"type": "UNIQUENESS", "labelsOrTypes": ["A"], "properties": ["p"]}]}"#,
    )
    .unwrap();
    let e = grape::engine::load_graph(path.to_str().unwrap(), Default::default()).unwrap_err();
    assert!(
        e.to_string().contains("already exists with label `A`"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn awaiting_indexes_and_ping() {
    let mut g = common::graph("CREATE (:P {x: 1})");
    run(&mut g, "CREATE INDEX px FOR (n:P) ON (n.x)", &Params::new()).unwrap();
    // Indexes are online as soon as they exist; the rows go on.
    assert_eq!(
        common::rows(&mut g, "CALL db.awaitIndexes() MATCH (n:P) RETURN n.x"),
        ["1"]
    );
    assert_eq!(
        common::rows(
            &mut g,
            "CALL db.awaitIndexes(10) CALL db.awaitIndex('px') RETURN 1 AS ok"
        ),
        ["1"]
    );
    let e = fails(&mut g, "CALL db.awaitIndex('nope')");
    assert_eq!(e.code(), "Neo.ClientError.Procedure.ProcedureCallFailed");
    assert!(e.message.ends_with("No such index 'nope'"), "{}", e.message);
    assert_eq!(
        common::rows(&mut g, "CALL db.ping() YIELD success RETURN success"),
        ["true"]
    );
}
