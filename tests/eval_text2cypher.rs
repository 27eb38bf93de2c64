//! Neo4j's text2cypher dataset layout (`corpora/text2cypher/`: `question`, `schema`, `cypher`,
//! `data_source`, `database_reference_alias`, `instance_id`, as JSON Lines and as CSV): field
//! mapping, each example validated against its own schema, examples routed to the database
//! they name, examples without one scored on text and validity; text-only runs; the
//! neo4j-labs `demo_db_schemas.csv` table attached by database.
#![cfg(feature = "cli")]

mod common;

use grape::dataset::{read_dataset, read_predictions, Example};
use grape::eval::{evaluate, load_dataset_graphs, EvalOptions, Graphs};
use std::path::{Path, PathBuf};

fn sample(f: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/text2cypher")
        .join(f)
}

fn by_id(records: &[grape::eval::ExampleRecord], id: &str) -> grape::eval::ExampleRecord {
    records.iter().find(|r| r.id == id).unwrap().clone()
}

#[test]
fn jsonl_and_csv_map_the_same_fields() {
    let a = read_dataset(&sample("sample.jsonl"), None).unwrap();
    let b = read_dataset(&sample("sample.csv"), None).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.len(), 12);
    let e: &Example = &a[0];
    assert_eq!(e.id, "instance_id_1000");
    assert_eq!(e.graph.as_deref(), Some("neo4jlabs_demo_db_movies"));
    assert!(e
        .schema
        .as_deref()
        .unwrap()
        .starts_with("Node properties:\n- **Movie**"));
    assert_eq!(e.categories["data_source"], "grape_sample_movies");
    assert!(!e.categories.contains_key("schema"));
    assert_eq!(a[9].graph, None);
}

fn run(examples: &[Example], with_graphs: bool) -> Vec<grape::eval::ExampleRecord> {
    let preds = read_predictions(&sample("predictions.jsonl")).unwrap();
    let types = grape::graph::import::ImporterTypes::Strings;
    let dir = sample("graphs");
    let named = if with_graphs {
        load_dataset_graphs(examples, Some(&dir), false, types).unwrap()
    } else {
        Default::default()
    };
    let graphs = if with_graphs {
        Graphs::new(None, named.iter().map(|(n, g)| (n.clone(), g)), None)
    } else {
        Graphs::text_only(None)
    };
    evaluate(&graphs, examples, &preds, &EvalOptions::default(), None)
        .unwrap()
        .1
}

#[test]
fn examples_run_on_their_database_and_validate_against_their_schema() {
    let mut examples = read_dataset(&sample("sample.jsonl"), None).unwrap();
    let records = run(&examples, true);
    assert_eq!(records.len(), 12);
    assert!(records.iter().all(|r| r.gold_error.is_none()));
    // Routed to its database and executed.
    let r = by_id(&records, "instance_id_1000");
    assert_eq!(r.metrics["ex"], 1.0);
    assert_eq!(r.gold_result.as_ref().unwrap().total_rows, 2);
    let r = by_id(&records, "instance_id_1005");
    let mut rows = r.gold_result.as_ref().unwrap().rows.clone();
    rows.sort();
    assert_eq!(rows, [["\"Cobalt Analytics\""], ["\"Larkspur Labs\""]]);
    // No database: text metrics and validity against the example's schema, nothing executed.
    let r = by_id(&records, "instance_id_1011");
    assert!(!r.metrics.contains_key("ex") && r.gold_result.is_none());
    assert_eq!(r.metrics["kg_valid"], 0.0);
    assert!(r.diagnostics[0].message.contains("published"));
    assert!(r.metrics["google_bleu"] > 0.5 && r.metrics["google_bleu"] < 1.0);
    assert_eq!(
        by_id(&records, "instance_id_1009").metrics["exact_match"],
        1.0
    );
    // The example's own schema decides, not the graph's: take Genre out of one example's
    // schema and the same prediction is no longer KG-valid, though the graph has Genre nodes.
    let r = by_id(&records, "instance_id_1001");
    assert_eq!(r.metrics["kg_valid"], 1.0);
    let e = examples
        .iter_mut()
        .find(|e| e.id == "instance_id_1001")
        .unwrap();
    e.schema = Some(
        e.schema
            .clone()
            .unwrap()
            .replace("(:Movie)-[:IN_GENRE]->(:Genre)", ""),
    );
    let again = run(&examples, true);
    let r = by_id(&again, "instance_id_1001");
    assert_eq!(r.metrics["kg_valid"], 0.0);
    assert_eq!(r.metrics["ex"], 1.0);
}

#[test]
fn a_run_without_graphs_is_text_only() {
    let examples = read_dataset(&sample("sample.jsonl"), None).unwrap();
    let records = run(&examples, false);
    assert!(records
        .iter()
        .all(|r| r.gold_error.is_none() && !r.metrics.contains_key("ex")));
    let report = grape::eval::aggregate(&records, Default::default());
    assert_eq!(report.scored, 12);
    assert!(!report.overall.contains_key("ex"));
    assert!(report.overall["kg_valid"] > 0.5 && report.overall["google_bleu"] > 0.5);
    // The CLI says so.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["eval", "--dataset"])
        .arg(sample("sample.csv"))
        .arg("--predictions")
        .arg(sample("predictions.jsonl"))
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("text-only run"));
}

#[test]
fn demo_db_schemas_attach_by_database() {
    let Some(shared) = common::shared_dir("demo_db_schemas_attach_by_database") else {
        return;
    };
    let dir = shared.join("data/text2cypher");
    let mut examples = read_dataset(
        &dir.join("gpt4turbo_queries.jsonl"),
        Some(grape::dataset::DatasetFormat::Jsonl),
    )
    .unwrap();
    let n =
        grape::dataset::attach_schemas(&mut examples, &dir.join("demo_db_schemas.csv")).unwrap();
    // Most queries name one of the table's 15 databases; the rest keep no schema.
    assert_eq!(n, examples.iter().filter(|e| e.schema.is_some()).count());
    assert!(n > 9000, "{n}");
    let examples: Vec<Example> = examples
        .into_iter()
        .filter(|e| e.schema.is_some())
        .collect();
    // The queries themselves as predictions, text-only: every text metric 1, and KG-validity
    // against each database's schema (LangChain's enhanced format) for all of them.
    let preds: std::collections::HashMap<String, grape::dataset::Prediction> = examples
        .iter()
        .take(600)
        .map(|e| {
            (
                e.id.clone(),
                grape::dataset::Prediction {
                    id: e.id.clone(),
                    candidates: vec![e.gold.clone()],
                },
            )
        })
        .collect();
    let subset: Vec<Example> = examples.into_iter().take(600).collect();
    let graphs = Graphs::text_only(None);
    let (report, records) =
        evaluate(&graphs, &subset, &preds, &EvalOptions::default(), None).unwrap();
    assert_eq!(report.scored, 600);
    assert_eq!(report.overall["google_bleu"], 1.0);
    assert_eq!(report.overall["exact_match"], 1.0);
    assert!(records.iter().all(|r| r.metrics.contains_key("kg_valid")));
    // LLM-written queries against real schemas: most, not all, are KG-valid.
    let kg = report.overall["kg_valid"];
    assert!(kg > 0.5 && kg < 1.0, "{kg}");
}

/// The sample as parquet (snappy, as Hugging Face's files), written here with the parquet
/// crate's writer: the same examples as the JSON Lines form.
#[cfg(feature = "parquet")]
#[test]
fn parquet_reads_as_the_json_lines_form() {
    use parquet::basic::Compression;
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use std::sync::Arc;
    let fields = [
        "question",
        "schema",
        "cypher",
        "data_source",
        "database_reference_alias",
        "instance_id",
    ];
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(sample("sample.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let message = format!(
        "message text2cypher {{ {} }}",
        fields
            .iter()
            .map(|f| format!("OPTIONAL BYTE_ARRAY {f} (UTF8);"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let schema = Arc::new(parquet::schema::parser::parse_message_type(&message).unwrap());
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build(),
    );
    let path = std::env::temp_dir().join(format!("grape-t2c-{}.parquet", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut group = writer.next_row_group().unwrap();
    for f in fields {
        let mut col = group.next_column().unwrap().unwrap();
        let values: Vec<ByteArray> = rows
            .iter()
            .filter_map(|r| r[f].as_str())
            .map(ByteArray::from)
            .collect();
        let defs: Vec<i16> = rows.iter().map(|r| i16::from(r[f].is_string())).collect();
        col.typed::<ByteArrayType>()
            .write_batch(&values, Some(&defs), None)
            .unwrap();
        col.close().unwrap();
    }
    group.close().unwrap();
    writer.close().unwrap();
    let from_parquet = read_dataset(&path, None).unwrap();
    assert_eq!(
        from_parquet,
        read_dataset(&sample("sample.jsonl"), None).unwrap()
    );
    assert_eq!(from_parquet[9].graph, None); // a null alias
                                             // Not parquet: an error naming the file.
    std::fs::write(&path, b"not parquet").unwrap();
    let err = read_dataset(&path, None).unwrap_err().to_string();
    assert!(
        err.contains("grape-t2c") && err.contains("not a parquet file"),
        "{err}"
    );
    let _ = std::fs::remove_file(&path);
}
