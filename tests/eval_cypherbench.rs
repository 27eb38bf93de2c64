//! CypherBench (`corpora/cypherbench/`, our sample in its formats): the task reader's field
//! mapping, the graph importer (every gold query reproduces the task's `answer_json` on the
//! imported graph), predictions from a `result.json`, and the run's CypherBench EX per task
//! against hand-made labels covering its rules, through the library and the CLI.
#![cfg(feature = "cli")]

use grape::dataset::{read_dataset, read_predictions, DatasetFormat};
use grape::eval::{evaluate, load_named_graph, EvalOptions, Graphs};
use std::path::{Path, PathBuf};

fn sample(f: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/cypherbench")
        .join(f)
}

#[test]
fn tasks_map_their_fields() {
    let ex = read_dataset(&sample("test.json"), None).unwrap();
    assert_eq!(
        ex,
        read_dataset(&sample("test.json"), Some(DatasetFormat::CypherBench)).unwrap()
    );
    assert_eq!(ex.len(), 14);
    let e = &ex[3];
    assert_eq!(e.id, "nba-3");
    assert_eq!(e.graph.as_deref(), Some("nba"));
    assert_eq!(
        e.question,
        "List the players of the Mesa Coyotes from the earliest draft year to the latest."
    );
    assert!(e
        .gold
        .starts_with("MATCH (n:Player)-[r0:playsFor]->(m0:Team {name: 'Mesa Coyotes'})"));
    assert_eq!(e.categories["graph"], "nba");
    assert_eq!(e.categories["match_category"], "basic_(n)-(m0*)");
    assert_eq!(e.categories["return_pattern"], "n_order_by");
    assert_eq!(e.categories["return_category"], "n_order_by");
    let answer: serde_json::Value = serde_json::from_str(e.answer.as_deref().unwrap()).unwrap();
    assert_eq!(answer[0]["n.name"], "Ada Stone");
    // CypherBench's own grouping of return patterns.
    assert_eq!(ex[2].categories["return_pattern"], "n_prop");
    assert_eq!(ex[2].categories["return_category"], "n_prop_combined");
    assert_eq!(ex[13].categories["return_category"], "n_prop_combined");

    // A pattern outside the grouping has no return category; a record without a question or
    // a gold query is an error naming it; ids are unique.
    let dir = std::env::temp_dir().join(format!("grape-cypherbench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let p = write(
        "a.json",
        r#"[{"qid": 7, "graph": "g", "gold_cypher": "RETURN 1", "nl_question": null,
             "nl_question_raw": "raw?", "from_template": {"match_category": "special_x",
             "match_cypher": "", "return_pattern_id": "special_union", "return_cypher": ""}}]"#,
    );
    let e = &read_dataset(&p, None).unwrap()[0];
    assert_eq!((e.id.as_str(), e.question.as_str()), ("7", "raw?"));
    assert!(!e.categories.contains_key("return_category"));
    let p = write(
        "b.json",
        r#"[{"qid": "q1", "graph": "g", "gold_cypher": "RETURN 1", "nl_question": "?"},
            {"qid": "q2", "graph": "g", "nl_question": "?"}]"#,
    );
    let err = read_dataset(&p, None).unwrap_err().to_string();
    assert!(
        err.contains("record 1") && err.contains("gold_cypher"),
        "{err}"
    );
    let p = write(
        "c.json",
        r#"[{"qid": "q1", "gold_cypher": "RETURN 1", "nl_question": "?"},
            {"qid": "q1", "gold_cypher": "RETURN 2", "nl_question": "?"}]"#,
    );
    let err = read_dataset(&p, None).unwrap_err().to_string();
    assert!(err.contains("duplicate id"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table's rows as CypherBench's `answer_json` holds them: one object per row, keyed by
/// column.
fn answer_rows(t: &grape::engine::Table) -> Vec<serde_json::Value> {
    t.rows
        .iter()
        .map(|r| {
            serde_json::Value::Object(
                t.columns
                    .iter()
                    .zip(r)
                    .map(|(c, v)| (c.clone(), grape::graph::import::value_to_json(v, t)))
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn the_imported_graph_reproduces_every_answer() {
    let g = load_named_graph(&sample("graphs"), "nba", Default::default())
        .unwrap()
        .unwrap();
    assert_eq!((g.node_count(), g.relationship_count()), (12, 14));
    for e in read_dataset(&sample("test.json"), None).unwrap() {
        let t = grape::engine::run_read(&g, &e.gold, &Default::default(), &Default::default())
            .unwrap_or_else(|err| panic!("{}: {err}", e.id));
        let mut got = answer_rows(&t);
        let mut want: Vec<serde_json::Value> =
            serde_json::from_str(e.answer.as_deref().unwrap()).unwrap();
        if !grape::syntax::parse(&e.gold).unwrap().orders_rows() {
            got.sort_by_key(|v| v.to_string());
            want.sort_by_key(|v| v.to_string());
        }
        assert_eq!(got, want, "{}: {}", e.id, e.gold);
    }
}

/// What CypherBench's EX says of each prediction, by hand: 1 for a result equal under its
/// rules (column names ignored, columns permuted, rows as a multiset unless the gold query
/// orders them), 0 otherwise.
const EXPECTED_EX: [(&str, f64, &str); 14] = [
    ("nba-0", 1.0, "another column name"),
    ("nba-1", 1.0, "a condition that holds for every row"),
    ("nba-2", 1.0, "`<end_of_turn>` removed"),
    ("nba-3", 0.0, "the reverse of the gold order"),
    ("nba-4", 0.0, "a null height sorts first descending"),
    ("nba-5", 1.0, "the same condition written apart"),
    ("nba-6", 0.0, "count without DISTINCT counts a player twice"),
    ("nba-7", 1.0, "columns permuted and renamed"),
    ("nba-8", 1.0, "the same query"),
    ("nba-9", 1.0, "the year instead of the date"),
    ("nba-10", 0.0, "CONTAINS on a list"),
    ("nba-11", 0.0, "no prediction"),
    ("nba-12", 1.0, "ORDER BY without ASC"),
    ("nba-13", 0.0, "lists instead of their elements"),
];

#[test]
fn predictions_score_as_cypherbench_scores_them() {
    let preds = read_predictions(&sample("result.json")).unwrap();
    assert_eq!(preds.len(), 13);
    assert_eq!(
        preds["nba-2"].candidates,
        ["MATCH (n:Player {name: 'Ben Okafor'}) RETURN n.height_cm"]
    );
    let examples = read_dataset(&sample("test.json"), None).unwrap();
    let g = load_named_graph(&sample("graphs"), "nba", Default::default())
        .unwrap()
        .unwrap();
    let graphs = Graphs::new(None, [("nba".to_string(), &g)], None);
    let (report, records) =
        evaluate(&graphs, &examples, &preds, &EvalOptions::default(), None).unwrap();
    for (id, want, why) in EXPECTED_EX {
        let r = records.iter().find(|r| r.id == id).unwrap();
        assert_eq!(r.metrics["ex_cypherbench"], want, "{id}: {why}");
    }
    let mean = EXPECTED_EX.iter().map(|x| x.1).sum::<f64>() / 14.0;
    assert!((report.overall["ex_cypherbench"] - mean).abs() < 1e-12);
    // CypherBench's breakdowns: by graph, match category and return category.
    assert_eq!(report.count("match_category", "basic_(n)-(m0*)"), 6);
    assert_eq!(report.count("return_category", "n_prop_combined"), 2);
    assert_eq!(
        report.by["return_category"]["n_group_by"]["ex_cypherbench"],
        1.0
    );
}

#[test]
fn the_cli_runs_the_sample() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["eval", "--json", "--dataset"])
        .arg(sample("test.json"))
        .arg("--predictions")
        .arg(sample("result.json"))
        .arg("--graphs")
        .arg(sample("graphs"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["examples"], 14);
    assert_eq!(r["missing_predictions"], 1);
    assert!((r["overall"]["ex_cypherbench"].as_f64().unwrap() - 8.0 / 14.0).abs() < 1e-12);
    assert_eq!(
        r["by"]["graph"]["nba"]["ex_cypherbench"],
        r["overall"]["ex_cypherbench"]
    );
    // `grape query` reads the dump as it reads any graph.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["query", "--graph"])
        .arg(sample("graphs/nba.json"))
        .arg("MATCH (p:Player) WHERE p.birth_date.year = 1994 RETURN p.name")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Ben Okafor"));
}
