//! Engine benchmarks: loading POLE from the Data Importer folder, and the 2,117 ZOGRASCOPE
//! test-split gold queries on it.
//!
//! `cargo bench --bench engine`. Needs `../shared` (or `GRAPE_SHARED`); skips loudly without it.
//! Targets (2-core machine): load ≤ 2.0 s, the 2,117 queries ≤ 4.3 s in total.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use grape::engine::{execute_read, Options, Params};
use grape::graph::import::{load_importer_dir, ImporterTypes};
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
        eprintln!("SKIPPED engine benches: shared data not found (set GRAPE_SHARED)");
        return;
    };
    let pole = shared.join("data/pole");
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    g.bench_function("pole_load", |b| {
        b.iter(|| black_box(load_importer_dir(&pole, ImporterTypes::Strings).unwrap()))
    });

    let graph = load_importer_dir(&pole, ImporterTypes::Strings).unwrap();
    let mut rdr =
        csv::Reader::from_path(shared.join("data/zograscope/zograscope_test_v1.csv")).unwrap();
    let mr = rdr
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "mr")
        .unwrap();
    let queries: Vec<(String, grape::syntax::Statement)> = rdr
        .records()
        .map(|r| {
            let q = r.unwrap()[mr].to_string();
            let s = grape::syntax::parse(&q).unwrap();
            (q, s)
        })
        .collect();
    let opts = Options::default();
    let params = Params::new();
    // Warm the property indexes once, as a long-running evaluation would.
    for (q, s) in &queries {
        execute_read(&graph, s, q, &params, &opts).unwrap();
    }
    g.throughput(Throughput::Elements(queries.len() as u64));
    g.bench_function(BenchmarkId::new("zograscope_test", queries.len()), |b| {
        b.iter(|| {
            for (q, s) in &queries {
                black_box(execute_read(&graph, s, q, &params, &opts).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
