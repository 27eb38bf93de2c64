//! Validation throughput (queries/s) on the 5,022 ZOGRASCOPE gold queries with POLE's schema
//! (derived from `data/pole`'s importer model and CSVs), against the anchor of parsing alone;
//! and the schema-free analyses (complexity, aliases, access) on the same queries.
//!
//! `cargo bench --bench analysis`. Needs `../shared` (or `GRAPE_SHARED`); skips loudly without it.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grape::analysis::{analyze, Validator};
use grape::schema::Schema;
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

fn bench(c: &mut Criterion) {
    let Some(shared) = shared() else {
        eprintln!("SKIPPED analysis benches: shared data not found (set GRAPE_SHARED)");
        return;
    };
    let queries = zograscope(&shared);
    let schema = Schema::read_path(&shared.join("data/pole/neo4j_importer_model.json"), None)
        .expect("POLE schema");
    let validator = Validator::new(&schema);
    let mut g = c.benchmark_group("zograscope");
    g.throughput(Throughput::Elements(queries.len() as u64));
    g.sample_size(20);
    g.bench_function("parse (anchor)", |b| {
        b.iter(|| {
            for q in &queries {
                black_box(grape::parse(black_box(q)).ok());
            }
        })
    });
    g.bench_function("validate (parse + POLE schema)", |b| {
        b.iter(|| {
            for q in &queries {
                black_box(validator.validate(black_box(q)));
            }
        })
    });
    let parsed: Vec<_> = queries.iter().map(|q| grape::parse(q).unwrap()).collect();
    g.bench_function("analyze (parsed)", |b| {
        b.iter(|| {
            for (s, q) in parsed.iter().zip(&queries) {
                black_box(analyze(black_box(s), q));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
