//! `grape textsim`: one JSON line per pair, a bad record reported with its line and exit 1.

use std::process::Command;

#[test]
fn textsim_scores_pairs_and_reports_bad_records() {
    let dir = std::env::temp_dir().join(format!("grape-textsim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("pairs.jsonl");
    std::fs::write(
        &f,
        "{\"id\": \"q1\", \"a\": \"MATCH (n) RETURN n\", \"b\": \"MATCH (m) RETURN m\"}\n\
         {\"id\": 2, \"a\": \"RETURN 1\", \"b\": \"RETURN 1\"}\n\
         {\"id\": 3, \"a\": \"RETURN 1\"}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["textsim", "--json"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["id"], "q1");
    let nl = lines[0]["normalized_levenshtein"].as_f64().unwrap();
    assert!((nl - (1.0 - 2.0 / 18.0)).abs() < 1e-12);
    assert_eq!(lines[1]["jaro_winkler"], 1.0);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("pairs.jsonl:3"), "{stderr}");
    // The canonical variant renames variables: the first pair becomes identical.
    let out = Command::new(env!("CARGO_BIN_EXE_grape"))
        .args(["textsim", "--json", "--variant", "canonical"])
        .arg(&f)
        .output()
        .unwrap();
    let first: serde_json::Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["normalized_levenshtein"], 1.0);
    std::fs::remove_dir_all(&dir).ok();
}
