//! Parser throughput (queries/s): grape on the ZOGRASCOPE gold queries, and grape side by side
//! with the `open-cypher` crate (LALRPOP) on the 4,109 TCK queries labelled accept.
//!
//! `cargo bench --bench parse`. Needs `../shared` (or `GRAPE_SHARED`); skips loudly without it.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("GRAPE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    dir.join("README.md").exists().then_some(dir)
}

fn zograscope(shared: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for f in ["zograscope_train_v1.csv", "zograscope_test_v1.csv"] {
        let mut r = csv::Reader::from_path(shared.join("data/zograscope").join(f)).expect("csv");
        let mr = r.headers().unwrap().iter().position(|h| h == "mr").unwrap();
        for rec in r.records() {
            out.push(rec.unwrap()[mr].to_string());
        }
    }
    out
}

fn tck_accepts(shared: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(shared.join("tck/TCK_SYNTAX.jsonl")).unwrap();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["record"] == "query" && v["expectation"] == "accept")
        .map(|v| v["source"].as_str().unwrap().to_string())
        .collect()
}

fn bench(c: &mut Criterion) {
    let Some(shared) = shared() else {
        eprintln!("SKIPPED parse benches: shared data not found (set GRAPE_SHARED)");
        return;
    };
    let zog = zograscope(&shared);
    let tck = tck_accepts(&shared);

    let mut g = c.benchmark_group("parse/zograscope");
    g.throughput(Throughput::Elements(zog.len() as u64));
    g.bench_function(BenchmarkId::new("grape", zog.len()), |b| {
        b.iter(|| {
            for q in &zog {
                black_box(grape::syntax::parse(black_box(q)).is_ok());
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("parse/tck_accept");
    g.throughput(Throughput::Elements(tck.len() as u64));
    g.bench_function(BenchmarkId::new("grape", tck.len()), |b| {
        b.iter(|| {
            for q in &tck {
                black_box(grape::syntax::parse(black_box(q)).is_ok());
            }
        })
    });
    g.bench_function(BenchmarkId::new("open-cypher", tck.len()), |b| {
        b.iter(|| {
            for q in &tck {
                black_box(open_cypher::parse(black_box(q)).is_ok());
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(5));
    targets = bench
}
criterion_main!(benches);
