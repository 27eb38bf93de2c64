//! Search benchmarks on synthetic data (no `../shared` needed):
//!
//! - `fulltext_query`: `db.index.fulltext.queryNodes` with a two-word query over 100,000 short
//!   documents (6–12 words from a 20,000-word vocabulary with a Zipf-like spread), the index
//!   already built (what every search after the first costs until the graph changes);
//! - `fulltext_build`: the first search after a change, which builds the index;
//! - `vector_query`: `db.index.vector.queryNodes` for the 10 nearest of 100,000 embeddings of
//!   384 dimensions (exact search).
//!
//! `cargo bench --bench search`.

use criterion::{criterion_group, criterion_main, Criterion};
use grape::engine::{execute_read, Options, Params};
use grape::graph::Graph;
use grape::value::Value;
use std::hint::black_box;

const DOCS: usize = 100_000;
const VOCABULARY: f64 = 20_000.0;
const DIMENSIONS: usize = 384;

/// A fixed pseudo-random sequence (PCG-style LCG): the same data on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn unit(&mut self) -> f64 {
        self.next() as f64 / (1u64 << 31) as f64
    }

    /// A word: log-uniform over the vocabulary, so that low ranks are common (Zipf-like).
    fn word(&mut self) -> String {
        let rank = (self.unit() * (VOCABULARY + 1.0).ln()).exp() as u64;
        format!("w{rank}")
    }
}

fn statement(q: &str) -> grape::syntax::Statement {
    grape::syntax::parse(q).unwrap()
}

fn fulltext_graph() -> Graph {
    let mut rng = Rng(7);
    let mut g = Graph::new();
    for _ in 0..DOCS {
        let n = 6 + (rng.next() % 7) as usize;
        let text: Vec<String> = (0..n).map(|_| rng.word()).collect();
        g.add_node(
            &["Doc"],
            vec![("text", Value::from(text.join(" ").as_str()))],
        );
    }
    grape::engine::run(
        &mut g,
        "CREATE FULLTEXT INDEX docs FOR (d:Doc) ON EACH [d.text]",
        &Params::new(),
    )
    .unwrap();
    g
}

fn vector_graph() -> (Graph, Value) {
    let mut rng = Rng(11);
    let mut g = Graph::new();
    let vector = |rng: &mut Rng| {
        Value::List(
            (0..DIMENSIONS)
                .map(|_| Value::Float(rng.unit() * 2.0 - 1.0))
                .collect(),
        )
    };
    for _ in 0..DOCS {
        let e = vector(&mut rng);
        g.add_node(&["Chunk"], vec![("embedding", e)]);
    }
    grape::engine::run(
        &mut g,
        "CREATE VECTOR INDEX chunks FOR (c:Chunk) ON c.embedding \
         OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}",
        &Params::new(),
    )
    .unwrap();
    let q = vector(&mut rng);
    (g, q)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let opts = Options::default();

    let g = fulltext_graph();
    let q = "CALL db.index.fulltext.queryNodes('docs', 'w17 w345', {limit: 10}) YIELD node, score \
             RETURN node, score";
    let s = statement(q);
    let params = Params::new();
    let hits = execute_read(&g, &s, q, &params, &opts).unwrap();
    assert_eq!(hits.rows.len(), 10);
    group.bench_function("fulltext_query_100k_docs", |b| {
        b.iter(|| black_box(execute_read(&g, &s, q, &params, &opts).unwrap()))
    });
    group.bench_function("fulltext_build_100k_docs", |b| {
        b.iter(|| {
            // A clone starts without the built index: the search builds it.
            let fresh = g.clone();
            black_box(execute_read(&fresh, &s, q, &params, &opts).unwrap())
        })
    });
    drop(g);

    let (g, vector) = vector_graph();
    let q =
        "CALL db.index.vector.queryNodes('chunks', 10, $q) YIELD node, score RETURN node, score";
    let s = statement(q);
    let params: Params = [("q".to_string(), vector)].into_iter().collect();
    let hits = execute_read(&g, &s, q, &params, &opts).unwrap();
    assert_eq!(hits.rows.len(), 10);
    group.bench_function("vector_query_100k_x_384", |b| {
        b.iter(|| black_box(execute_read(&g, &s, q, &params, &opts).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
