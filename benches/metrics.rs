//! Text-metric throughput on the 2,117 ZOGRASCOPE test-split pairs (sorted by id, each query
//! with the next, the last with the first): grape's metrics and, side by side, the `rapidfuzz`
//! crate called directly on characters.
//!
//! `cargo bench --bench metrics`. Needs `../shared` (or `GRAPE_SHARED`); skips loudly without it.
//! The anchor, rapidfuzz's C++ on the same pairs, is `benches/rapidfuzz_text.py` (run it just
//! before or after, on the same machine).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("GRAPE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    dir.join("README.md").exists().then_some(dir)
}

fn bench(c: &mut Criterion) {
    let Some(shared) = shared() else {
        eprintln!("SKIPPED metrics benches: shared data not found (set GRAPE_SHARED)");
        return;
    };
    let mut rdr =
        csv::Reader::from_path(shared.join("data/zograscope/zograscope_test_v1.csv")).unwrap();
    let h = rdr.headers().unwrap().clone();
    let id = h.iter().position(|x| x == "id").unwrap();
    let mr = h.iter().position(|x| x == "mr").unwrap();
    let mut rows: Vec<(i64, String)> = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[id].parse().unwrap(), r[mr].to_string())
        })
        .collect();
    rows.sort();
    let pairs: Vec<(String, String)> = (0..rows.len())
        .map(|i| (rows[i].1.clone(), rows[(i + 1) % rows.len()].1.clone()))
        .collect();

    let mut g = c.benchmark_group("text");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("jaro_winkler/grape", |b| {
        b.iter(|| {
            for (x, y) in &pairs {
                black_box(grape::metrics::jaro_winkler(x, y));
            }
        })
    });
    g.bench_function("jaro_winkler/rapidfuzz", |b| {
        b.iter(|| {
            for (x, y) in &pairs {
                black_box(rapidfuzz::distance::jaro_winkler::similarity(
                    x.chars(),
                    y.chars(),
                ));
            }
        })
    });
    g.bench_function("normalized_levenshtein/grape", |b| {
        b.iter(|| {
            for (x, y) in &pairs {
                black_box(grape::metrics::normalized_levenshtein(x, y));
            }
        })
    });
    g.bench_function("normalized_levenshtein/rapidfuzz", |b| {
        b.iter(|| {
            for (x, y) in &pairs {
                black_box(rapidfuzz::distance::levenshtein::normalized_similarity(
                    x.chars(),
                    y.chars(),
                ));
            }
        })
    });
    g.finish();
}

/// Result metrics on 10,000-row results (a node, a string and a float per row), the generated
/// result in the opposite order of the reference so that matching cannot follow row positions.
fn bench_result(c: &mut Criterion) {
    use grape::engine::{run, Params};
    use grape::metrics::{execution_accuracy, item_scores};
    let mut graph = grape::graph::Graph::new();
    run(
        &mut graph,
        "UNWIND range(1, 10000) AS i CREATE (:P {name: 'p' + toString(i), score: i * 0.5, tags: [i % 7, i % 11]})",
        &Params::new(),
    )
    .unwrap();
    let reference = run(
        &mut graph,
        "MATCH (n:P) RETURN n, n.name AS name, n.score AS score ORDER BY score",
        &Params::new(),
    )
    .unwrap();
    let generated = run(
        &mut graph,
        "MATCH (m:P) RETURN m.score AS s, m.name AS nm, m ORDER BY s DESC",
        &Params::new(),
    )
    .unwrap();
    assert_eq!(reference.rows.len(), 10_000);
    assert_eq!(execution_accuracy(&generated, &reference, false).ex, 1.0);
    let mut g = c.benchmark_group("result");
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("item_scores/10k_rows", |b| {
        b.iter(|| item_scores(&generated, &reference, false))
    });
    g.bench_function("execution_accuracy/10k_rows", |b| {
        b.iter(|| execution_accuracy(&generated, &reference, false))
    });
    g.finish();
}

criterion_group!(benches, bench, bench_result);
criterion_main!(benches);
