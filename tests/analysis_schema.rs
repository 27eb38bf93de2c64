//! Schema readers on the real files, conversions between formats, and the CLI commands.

mod common;

use grape::schema::{PropertyType, Schema, SchemaFormat};
use std::process::Command;

#[test]
fn pole_schema_from_the_importer_model_and_its_csvs() {
    let Some(shared) = common::shared_dir("pole_schema_from_the_importer_model_and_its_csvs")
    else {
        return;
    };
    let path = shared.join("data/pole/neo4j_importer_model.json");
    let s = Schema::read_path(&path, None).unwrap();
    assert_eq!(s.labels.len(), 11);
    assert_eq!(s.relationship_types.len(), 17);
    // The data's label, not the model's caption.
    assert!(s.has_label("Area") && !s.has_label("AREA"));
    // INVOLVED_IN both ways round in the data; KNOWS_SN only in its CSV.
    assert!(s.has_triple("Vehicle", "INVOLVED_IN", "Crime"));
    assert!(s.has_triple("Object", "INVOLVED_IN", "Crime"));
    assert!(s.has_triple("Person", "KNOWS_SN", "Person"));
    assert_eq!(s.triples.len(), 18);
    // Columns as neo4j-admin loads them, typed from the header or the model.
    assert_eq!(
        s.node_property("Location", "latitude").unwrap().ty,
        PropertyType::Float
    );
    assert_eq!(
        s.node_property("Vehicle", "year").unwrap().ty,
        PropertyType::Integer
    );
    assert!(
        s.node_property("Crime", "id").is_some() && s.node_property("Crime", "source_id").is_none()
    );
    assert!(s.relationship_property("FAMILY_REL", "rel_type").is_some());

    // The model alone says what the Data Importer would create.
    let text = std::fs::read_to_string(&path).unwrap();
    let m = Schema::read(SchemaFormat::Importer, &text).unwrap();
    assert!(m.has_label("AREA") && !m.has_relationship_type("KNOWS_SN"));
    assert!(m.has_triple("Object", "INVOLVED_IN", "Crime"));
    assert!(m.node_property("Crime", "source_id").is_some());

    // Every writer's output reads back to the same triples and labels.
    for f in SchemaFormat::ALL {
        let Ok(w) = s.write(f) else {
            assert_eq!(f, SchemaFormat::Importer);
            continue;
        };
        let back = Schema::read(f, &w.text).unwrap();
        assert_eq!(
            back.labels.keys().collect::<Vec<_>>(),
            s.labels.keys().collect::<Vec<_>>(),
            "{f}"
        );
        if f == SchemaFormat::Zograscope {
            assert_eq!(back.triples.len(), 17, "one pair per relation");
            assert!(w.warnings.iter().any(|x| x.contains("INVOLVED_IN")));
        } else {
            assert_eq!(back.triples, s.triples, "{f}");
            assert!(w.warnings.is_empty(), "{f}: {:?}", w.warnings);
        }
        assert_eq!(SchemaFormat::detect(&w.text), Some(f), "{f}");
    }
    // grape's own format is lossless.
    let again = Schema::read(
        SchemaFormat::Grape,
        &s.write(SchemaFormat::Grape).unwrap().text,
    )
    .unwrap();
    assert_eq!(again, s);
}

#[test]
fn zograscope_schema_has_global_properties() {
    let Some(shared) = common::shared_dir("zograscope_schema_has_global_properties") else {
        return;
    };
    let s = Schema::read_path(&shared.join("data/zograscope/graph_schema.json"), None).unwrap();
    assert_eq!(s.labels.len(), 11);
    assert_eq!(s.triples.len(), 17);
    assert!(s.labels.values().all(|e| e.properties.is_empty()));
    assert_eq!(s.any_label_properties.len(), 21);
    assert!(
        s.node_property("Vehicle", "nhs_no").is_some(),
        "global: on every label"
    );
    assert_eq!(
        s.node_property("Crime", "date").unwrap().ty,
        PropertyType::Date
    );
    assert!(
        !s.has_triple("Object", "INVOLVED_IN", "Crime"),
        "ZOGRASCOPE omits it"
    );
}

#[test]
fn cypherturn_schemas_read() {
    let Some(shared) = common::shared_dir("cypherturn_schemas_read") else {
        return;
    };
    let s = Schema::read_path(
        &shared.join("data/cypherturn/graphs/ancient_empire/schema.json"),
        None,
    )
    .unwrap();
    assert_eq!(s.name.as_deref(), Some("ancient_empire"));
    assert_eq!(s.labels.len(), 7);
    assert_eq!(s.triples.len(), 8);
    assert_eq!(
        s.node_property("Empire", "founding_year").unwrap().ty,
        PropertyType::Integer
    );
    assert_eq!(
        s.relationship_property("CONTROLS", "tribute").unwrap().ty,
        PropertyType::Integer
    );
    let w = s.write(SchemaFormat::CypherTurn).unwrap();
    assert_eq!(Schema::read(SchemaFormat::CypherTurn, &w.text).unwrap(), s);
}

fn grape_bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grape"))
}

#[test]
fn cli_validate_analyze_and_convert() {
    let dir = std::env::temp_dir().join(format!("grape-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("s.txt");
    std::fs::write(
        &schema,
        "Node properties are the following:\nPerson {name: STRING}\nCrime {date: STRING}\n\
         Relationship properties are the following:\nThe relationships are the following:\n(:Person)-[:PARTY_TO]->(:Crime)\n",
    )
    .unwrap();
    let queries = dir.join("q.cypher");
    std::fs::write(
        &queries,
        "MATCH (p:Person)-[:PARTY_TO]->(c:Crime) RETURN p.name AS n;\n\nMATCH (c:Crime)\n  -[:PARTY_TO]->(p:Person) RETURN c.date, p.date AS x;\n",
    )
    .unwrap();
    let out = grape_bin()
        .args(["validate", "--json", "--schema"])
        .arg(&schema)
        .arg(&queries)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    // Fields in the documented order.
    let second = text.lines().nth(1).unwrap();
    let at: Vec<usize> = [
        "\"id\"",
        "\"syntax_ok\"",
        "\"schema_score\"",
        "\"properties_score\"",
        "\"kg_valid\"",
        "\"diagnostics\"",
    ]
    .iter()
    .map(|k| second.find(k).unwrap())
    .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{second}");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["kg_valid"], true);
    assert_eq!(lines[0]["properties_score"], 1.0);
    let d = &lines[1]["diagnostics"];
    assert_eq!(d[0]["code"], "WrongDirectionPathWarning");
    // Positions are the file's: line 4, column 3.
    assert_eq!(
        (d[0]["line"].as_u64(), d[0]["column"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(d[1]["code"], "InvalidPropertyAccessByLabelWarning");

    let out = grape_bin()
        .args(["analyze", "--json"])
        .arg(&queries)
        .output()
        .unwrap();
    assert!(out.status.success());
    let first: serde_json::Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .nth(1)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["hops"], 1);
    assert_eq!(first["node_patterns"], 2);
    assert_eq!(first["access"], "r");
    assert_eq!(first["missing_aliases"][0]["text"], "c.date");
    assert_eq!(first["missing_aliases"][0]["line"], 4);

    let converted = dir.join("s.json");
    let out = grape_bin()
        .args(["schema", "convert", "--from", "prompt", "--to", "grape"])
        .arg(&schema)
        .arg(&converted)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let back = Schema::read_path(&converted, None).unwrap();
    assert!(back.has_triple("Person", "PARTY_TO", "Crime"));
    let out = grape_bin()
        .args(["schema", "convert", "--to", "importer"])
        .arg(&schema)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------------
// Hostile or awkward schema input.

#[test]
fn deeply_nested_type_names_neither_overflow_nor_lose_case() {
    // Once a frame per nesting level: 50,000 levels overflowed the stack.
    for name in [
        format!("INT{}", "[]".repeat(50_000)),
        format!("{}INT{}", "LIST<".repeat(50_000), ">".repeat(50_000)),
        format!("{}INT", "LIST OF ".repeat(50_000)),
        format!("Int{}", "Array".repeat(50_000)),
    ] {
        assert!(PropertyType::try_parse(&name).is_err());
        assert!(matches!(PropertyType::parse(&name), PropertyType::Other(_)));
        let json = format!(
            r#"{{"format": "grape-schema/1", "labels": {{"A": {{"properties": {{"k": "{name}"}}}}}}}}"#
        );
        assert!(Schema::read(SchemaFormat::Grape, &json).is_err());
        let prompt = format!("Node properties are the following:\nA {{k: {name}}}");
        assert!(Schema::read(SchemaFormat::Prompt, &prompt).is_err());
    }
    // Reasonable nesting still reads, and unknown element types keep their case.
    let list = |t| PropertyType::List(Box::new(t));
    assert_eq!(
        PropertyType::parse("LIST<LIST<INTEGER>>"),
        list(list(PropertyType::Integer))
    );
    assert_eq!(
        PropertyType::parse("int[][]"),
        list(list(PropertyType::Integer))
    );
    assert_eq!(
        PropertyType::parse("LIST<Vector>"),
        list(PropertyType::Other("Vector".into()))
    );
    assert_eq!(
        PropertyType::parse("list of Embedding"),
        list(PropertyType::Other("Embedding".into()))
    );
    assert_eq!(PropertyType::parse("LIST<>"), list(PropertyType::Any));
}

/// A Data Importer model with one label `Person` declared under two ids, and one table.
fn importer_model(table: &str) -> String {
    let table = serde_json::to_string(table).unwrap();
    format!(
        r##"{{"dataModel": {{
  "graphSchemaRepresentation": {{"graphSchema": {{
    "nodeLabels": [
      {{"$id": "nl:1", "token": "Person", "properties": [
        {{"$id": "p:1", "token": "name", "type": {{"type": "string"}}}}]}},
      {{"$id": "nl:2", "token": "Person", "properties": [
        {{"$id": "p:2", "token": "age", "type": {{"type": "integer"}}}}]}},
      {{"$id": "nl:3", "token": "City", "properties": []}}
    ],
    "nodeObjectTypes": [
      {{"$id": "n:1", "labels": [{{"$ref": "#nl:1"}}]}},
      {{"$id": "n:2", "labels": [{{"$ref": "#nl:3"}}]}}
    ],
    "relationshipTypes": [{{"$id": "rt:1", "token": "LIVES_IN", "properties": []}}],
    "relationshipObjectTypes": [
      {{"$id": "r:1", "type": {{"$ref": "#rt:1"}}, "from": {{"$ref": "#n:1"}}, "to": {{"$ref": "#n:2"}}}}
    ]
  }}}},
  "graphMappingRepresentation": {{
    "dataSourceSchema": {{"tableSchemas": [{{"$id": "t:1", "name": {table}}}]}},
    "nodeMappings": [{{"node": {{"$ref": "#n:1"}}, "tableSchema": {{"$ref": "#t:1"}}}}],
    "relationshipMappings": []
  }}
}}}}"##
    )
}

#[test]
fn importer_table_names_must_stay_inside_the_csv_folder() {
    let dir = std::env::temp_dir().join(format!("grape-importer-paths-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for bad in [
        "../people.csv",
        "sub/../../people.csv",
        "/etc/passwd",
        "..",
        "sub\\..\\..\\people.csv",
    ] {
        let err = grape::schema::read_importer(&importer_model(bad), Some(&dir))
            .expect_err(bad)
            .to_string();
        assert!(err.contains("relative path inside"), "{bad}: {err}");
    }
    for good in ["people.csv", "sub/people.csv", "./people.csv"] {
        let s = grape::schema::read_importer(&importer_model(good), Some(&dir)).expect(good);
        assert!(s.has_triple("Person", "LIVES_IN", "City"), "{good}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn importer_labels_declared_twice_merge_deterministically() {
    let text = importer_model("people.csv");
    let first = grape::schema::read_importer(&text, None).unwrap();
    let keys: Vec<&str> = first.labels["Person"]
        .properties
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["age", "name"]);
    for _ in 0..32 {
        assert_eq!(grape::schema::read_importer(&text, None).unwrap(), first);
    }
}
