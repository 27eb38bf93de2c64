//! Property tests with the `fuzz` strategies: generated queries are valid against their schema,
//! and every single-fault mutation yields exactly its announced diagnostic, at its span.
//! Run with `cargo test --features fuzz --test analysis_fuzz`.

#[cfg(not(feature = "fuzz"))]
#[test]
fn fuzz_property_tests_need_the_fuzz_feature() {
    eprintln!("SKIPPED analysis_fuzz: build with `--features fuzz` to run the property tests");
}

#[cfg(feature = "fuzz")]
mod common;

#[cfg(feature = "fuzz")]
mod props {
    use super::common;
    use grape::analysis::{fuzz, Validator};
    use grape::schema::{Schema, SchemaFormat};
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    fn check_valid(schema: &Schema, cases: u32) {
        let v = Validator::new(schema);
        let mut runner = TestRunner::new(Config {
            cases,
            ..Config::default()
        });
        runner
            .run(&fuzz::valid_query(schema), |q| {
                let r = v.validate(&q);
                prop_assert!(
                    r.kg_valid && r.diagnostics.is_empty(),
                    "{q}\n{:#?}",
                    r.diagnostics
                );
                Ok(())
            })
            .unwrap();
    }

    fn check_mutations(schema: &Schema, cases: u32) {
        let v = Validator::new(schema);
        let mut runner = TestRunner::new(Config {
            cases,
            ..Config::default()
        });
        runner
            .run(&fuzz::mutation(schema), |m| {
                let before = v.validate(&m.valid);
                prop_assert!(
                    before.diagnostics.is_empty(),
                    "{}: {:#?}",
                    m.valid,
                    before.diagnostics
                );
                let r = v.validate(&m.mutated);
                prop_assert_eq!(
                    r.diagnostics.len(),
                    1,
                    "{} ({})\n{:#?}",
                    m.mutated,
                    m.what,
                    r.diagnostics
                );
                let d = &r.diagnostics[0];
                prop_assert_eq!(d.kind, m.expected, "{} ({})", m.mutated, m.what);
                prop_assert_eq!(
                    d.span.start,
                    m.span.start,
                    "{} ({}): {}",
                    m.mutated,
                    m.what,
                    d.message
                );
                prop_assert!(!r.kg_valid);
                Ok(())
            })
            .unwrap();
    }

    fn small() -> Schema {
        Schema::read(
            SchemaFormat::Prompt,
            "Node properties are the following:
Person {name: STRING, age: INTEGER, born: DATE}
Company {name: STRING, public: BOOLEAN, revenue: FLOAT}
Relationship properties are the following:
WORKS_AT {since: INTEGER}
The relationships are the following:
(:Person)-[:WORKS_AT]->(:Company)
(:Person)-[:KNOWS]->(:Person)
(:Company)-[:OWNS]->(:Company)",
        )
        .unwrap()
    }

    /// The strategies reach every fault kind and the interesting query shapes.
    #[test]
    fn strategies_cover_every_fault_and_shape() {
        use proptest::strategy::ValueTree;
        let s = small();
        let mut runner = TestRunner::deterministic();
        let mut kinds = std::collections::BTreeSet::new();
        for _ in 0..400 {
            let m = fuzz::mutation(&s).new_tree(&mut runner).unwrap().current();
            kinds.insert(format!("{:?}", m.expected));
        }
        assert_eq!(kinds.len(), 7, "{kinds:?}");
        let mut shapes = std::collections::BTreeSet::new();
        for _ in 0..400 {
            let q = fuzz::valid_query(&s)
                .new_tree(&mut runner)
                .unwrap()
                .current();
            for (needle, name) in [
                ("<-[", "left"),
                ("]->", "right"),
                ("]-(", "undirected"),
                ("*1..", "variable length"),
                (" MATCH ", "multi-MATCH"),
                (" WHERE ", "where"),
                ("ORDER BY", "order"),
                ("count(", "count"),
                ("collect(", "collect"),
                ("date('", "date value"),
            ] {
                if q.contains(needle) {
                    shapes.insert(name);
                }
            }
        }
        assert_eq!(shapes.len(), 10, "{shapes:?}");
    }

    #[test]
    fn generated_queries_are_valid_small_schema() {
        check_valid(&small(), 300);
    }

    #[test]
    fn mutations_yield_their_diagnostic_small_schema() {
        check_mutations(&small(), 300);
    }

    /// Names that are not plain identifiers: the strategies must escape them.
    fn awkward() -> Schema {
        Schema::read(
            SchemaFormat::Grape,
            r#"{"format": "grape-schema/1",
  "labels": {
    "My Label": {"properties": {"first name": "STRING", "a`b": "INTEGER"}},
    "Other-Thing": {"properties": {"first name": "STRING", "size": "FLOAT"}}
  },
  "relationship_types": {
    "HAS-IT": {"endpoints": [["My Label", "Other-Thing"]], "properties": {"since when": "INTEGER"}},
    "2nd": {"endpoints": [["Other-Thing", "My Label"]], "properties": {}}
  }}"#,
        )
        .unwrap()
    }

    #[test]
    fn awkward_names_are_escaped() {
        let s = awkward();
        assert!(s.has_triple("My Label", "HAS-IT", "Other-Thing"), "{s:?}");
        assert!(s.node_property("My Label", "a`b").is_some(), "{s:?}");
        check_valid(&s, 200);
        check_mutations(&s, 200);
    }

    fn pole() -> Option<Schema> {
        let shared = common::shared_dir("analysis_fuzz POLE")?;
        Some(Schema::read_path(&shared.join("data/pole/neo4j_importer_model.json"), None).unwrap())
    }

    #[test]
    fn generated_queries_are_valid_pole() {
        if let Some(s) = pole() {
            check_valid(&s, 500);
        }
    }

    #[test]
    fn mutations_yield_their_diagnostic_pole() {
        if let Some(s) = pole() {
            check_mutations(&s, 500);
        }
    }

    fn cypherturn() -> Vec<Schema> {
        let Some(shared) = common::shared_dir("analysis_fuzz CypherTurn") else {
            return Vec::new();
        };
        let dir = shared.join("data/cypherturn/graphs");
        let mut out = Vec::new();
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for d in names {
            out.push(Schema::read_path(&d.join("schema.json"), None).unwrap());
        }
        assert_eq!(out.len(), 7);
        out
    }

    #[test]
    fn generated_queries_are_valid_cypherturn() {
        for s in cypherturn() {
            check_valid(&s, 150);
        }
    }

    #[test]
    fn mutations_yield_their_diagnostic_cypherturn() {
        for s in cypherturn() {
            check_mutations(&s, 150);
        }
    }
}
