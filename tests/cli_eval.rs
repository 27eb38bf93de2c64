//! `grape eval` on a small JSON Lines benchmark over a Cypher-script graph.

use std::process::Command;

fn grape() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grape"))
}

#[test]
fn eval_scores_predictions_and_resumes_from_its_output() {
    let dir = std::env::temp_dir().join(format!("grape-cli-eval-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("graph.cypher"),
        "CREATE (:Person {name: 'Ann', age: 30})-[:KNOWS]->(:Person {name: 'Bob', age: 40}), (:Person {name: 'Cy', age: 50});",
    )
    .unwrap();
    std::fs::write(
        dir.join("data.jsonl"),
        concat!(
            "{\"id\": \"q1\", \"question\": \"names\", \"cypher\": \"MATCH (p:Person) RETURN p.name\", \"level\": \"easy\"}\n",
            "{\"id\": \"q2\", \"question\": \"who knows\", \"cypher\": \"MATCH (a)-[:KNOWS]->(b) RETURN a.name, b.name\", \"level\": \"hard\"}\n",
            "{\"id\": \"q3\", \"question\": \"oldest\", \"cypher\": \"MATCH (p:Person) RETURN p.name ORDER BY p.age DESC LIMIT 1\", \"level\": \"hard\"}\n",
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("pred.jsonl"),
        concat!(
            // Same result, different text.
            "{\"id\": \"q1\", \"cypher\": \"MATCH (x:Person) RETURN x.name AS n\"}\n",
            // Wrong direction: no rows.
            "{\"id\": \"q2\", \"cypher\": \"MATCH (a)<-[:KNOWS]-(b) WHERE a.name = 'Ann' RETURN a.name, b.name\"}\n",
            // Second candidate right: Pass@2 but not Pass@1.
            "{\"id\": \"q3\", \"candidates\": [\"MATCH (p:Person) RETURN p.name ORDER BY p.age LIMIT 1\", \"MATCH (p:Person) WITH p ORDER BY p.age DESC RETURN p.name LIMIT 1\"]}\n",
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let run = || {
        grape()
            .args(["eval", "--dataset"])
            .arg(dir.join("data.jsonl"))
            .arg("--predictions")
            .arg(dir.join("pred.jsonl"))
            .arg("--graph")
            .arg(dir.join("graph.cypher"))
            .args(["--k", "2", "--json", "--out"])
            .arg(&out)
            .output()
            .unwrap()
    };
    let o = run();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let overall = &report["overall"];
    assert_eq!(report["examples"], 3);
    assert!(
        (overall["ex"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9,
        "{report}"
    );
    assert!(
        (overall["pass_at_1"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9,
        "{report}"
    );
    assert!(
        (overall["pass_at_2"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-9,
        "{report}"
    );
    assert_eq!(report["by"]["level"]["easy"]["ex"], 1.0);
    assert_eq!(report["by"]["level"]["hard"]["ex"], 0.0);
    let saved = std::fs::read_to_string(out.join("report.json")).unwrap();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## By level"), "{md}");
    assert!(md.contains("| hard | 2 |"), "{md}");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&saved).unwrap(),
        report
    );
    assert_eq!(
        std::fs::read_to_string(out.join("examples.jsonl"))
            .unwrap()
            .lines()
            .count(),
        3
    );
    // A rerun finds every example done and reports the same.
    let again = run();
    assert!(again.status.success());
    assert_eq!(again.stdout, o.stdout);
    // Without --json: the terminal table, every category value on its own line.
    let table = grape()
        .args(["eval", "--dataset"])
        .arg(dir.join("data.jsonl"))
        .arg("--predictions")
        .arg(dir.join("pred.jsonl"))
        .arg("--graph")
        .arg(dir.join("graph.cypher"))
        .args(["--k", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(table.status.success());
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.starts_with("3 examples, 3 scored"), "{text}");
    assert!(text.contains("\nex  "), "{text}");
    assert!(text.contains("by level"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("hard ") && l.contains("0.000")),
        "{text}"
    );
    assert!(out.join("report.html").is_file());
    assert_eq!(
        std::fs::read_to_string(out.join("examples.jsonl"))
            .unwrap()
            .lines()
            .count(),
        3
    );

    // Two shards through the CLI, merged, give the same report file.
    for i in 0..2 {
        let o = grape()
            .args(["eval", "--dataset"])
            .arg(dir.join("data.jsonl"))
            .arg("--predictions")
            .arg(dir.join("pred.jsonl"))
            .arg("--graph")
            .arg(dir.join("graph.cypher"))
            .args(["--k", "2", "--shard", &format!("{i}/2"), "--out"])
            .arg(dir.join(format!("s{i}")))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // Predictions of the other shard are not reported as strays.
        assert!(
            o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let m = grape()
        .args(["report", "merge", "--out"])
        .arg(dir.join("merged"))
        .arg(dir.join("s0"))
        .arg(dir.join("s1"))
        .output()
        .unwrap();
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.join("merged/report.json")).unwrap(),
        saved
    );
    let bad_shard = grape()
        .args([
            "eval",
            "--shard",
            "2/2",
            "--dataset",
            "d",
            "--predictions",
            "p",
            "--graph",
            "none",
        ])
        .output()
        .unwrap();
    assert_eq!(bad_shard.status.code(), Some(2));

    // A bad predictions file: exit 2, file and line named.
    std::fs::write(
        dir.join("pred.jsonl"),
        "{\"id\": \"q1\", \"cypher\": \"RETURN 1\"}\n{\"id\": \"q2\"}\n",
    )
    .unwrap();
    let bad = run();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("pred.jsonl:2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Gold queries that return nothing on the graph (usually the wrong `--graph`) are named in a
/// warning: on them any prediction that returns nothing would score EX 1.
#[test]
fn eval_warns_when_gold_queries_return_no_rows() {
    let dir = std::env::temp_dir().join(format!("grape-cli-eval-empty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("graph.cypher"), "CREATE (:Person {name: 'Ann'});").unwrap();
    std::fs::write(
        dir.join("data.jsonl"),
        concat!(
            "{\"id\": \"q1\", \"question\": \"names\", \"cypher\": \"MATCH (p:Person) RETURN p.name\"}\n",
            "{\"id\": \"q2\", \"question\": \"books\", \"cypher\": \"MATCH (b:Book) RETURN b.title\"}\n",
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("pred.jsonl"),
        "{\"id\": \"q1\", \"cypher\": \"MATCH (p:Person) RETURN p.name\"}\n{\"id\": \"q2\", \"cypher\": \"MATCH (w:Writer) RETURN w.x\"}\n",
    )
    .unwrap();
    let o = grape()
        .args(["eval", "--dataset"])
        .arg(dir.join("data.jsonl"))
        .arg("--predictions")
        .arg(dir.join("pred.jsonl"))
        .arg("--graph")
        .arg(dir.join("graph.cypher"))
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("warning: 1 of 2 gold queries return no rows on this graph (q2)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
