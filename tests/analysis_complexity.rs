//! Hop complexity against the corpora: GRAPE's `complexity` labels, ZOGRASCOPE's `num_nodes`.

mod common;

use grape::analysis::complexity;

#[test]
fn grape_hops_agree_with_the_complexity_labels() {
    let Some(shared) = common::shared_dir("grape_hops_agree_with_the_complexity_labels") else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("data/grape/generated_dataset.json")).unwrap();
    let records: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(records.len(), 205);
    let mut agree = 0;
    for (i, r) in records.iter().enumerate() {
        let q = r["cypher"].as_str().unwrap();
        let label = r["complexity"].as_str().unwrap();
        let want: u64 = label.trim_end_matches("-hop").parse().unwrap();
        let c = complexity(&grape::parse(q).unwrap());
        if c.hops == want {
            agree += 1;
        } else {
            println!(
                "grape:{i} label {label}, hops {} (min {}, unbounded {}, per MATCH {:?}): {}",
                c.hops,
                c.hops_min,
                c.hops_unbounded,
                c.per_match.iter().map(|m| m.hops).collect::<Vec<_>>(),
                q.replace('\n', " ")
            );
        }
    }
    println!("GRAPE: hops equal the complexity label on {agree} of 205");
    assert!(agree >= 195, "only {agree} of 205 agree");
}

#[test]
fn zograscope_node_patterns_equal_num_nodes() {
    let Some(shared) = common::shared_dir("zograscope_node_patterns_equal_num_nodes") else {
        return;
    };
    let mut total = 0;
    for f in ["zograscope_train_v1.csv", "zograscope_test_v1.csv"] {
        let mut r = csv::Reader::from_path(shared.join("data/zograscope").join(f)).unwrap();
        for rec in r.deserialize::<std::collections::HashMap<String, String>>() {
            let rec = rec.unwrap();
            let c = complexity(&grape::parse(&rec["mr"]).unwrap());
            let want: usize = rec["num_nodes"].parse().unwrap();
            assert_eq!(c.node_patterns, want, "{f}:{} {}", rec["id"], rec["mr"]);
            // Every ZOGRASCOPE pattern is fixed-length and connected: hops = nodes − 1 per part.
            assert!(!c.hops_unbounded);
            assert_eq!(c.hops, c.hops_min);
            total += 1;
        }
    }
    assert_eq!(total, 5022);
    println!("ZOGRASCOPE: node_patterns = num_nodes on all {total}");
}
