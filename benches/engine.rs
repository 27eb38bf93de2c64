//! Engine benchmarks: loading POLE from the Data Importer folder, and the 2,117 ZOGRASCOPE
//! test-split gold queries on it; and expression-heavy queries on a generated graph.
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
    expressions(c);
    writes(c);
}

/// Expression-heavy queries on a generated graph: filters, projections, grouping, sorting,
/// comprehensions — the evaluator's share of the work rather than the matcher's.
fn expressions(c: &mut Criterion) {
    let mut graph = grape::graph::Graph::new();
    grape::engine::run(
        &mut graph,
        "UNWIND range(1, 50000) AS i CREATE (:L {a: i % 100, b: i % 37, c: i, d: toString(i)})",
        &Params::new(),
    )
    .unwrap();
    let queries = [
        ("filter", "MATCH (n:L) WHERE n.a > 5 AND n.b < 30 AND n.c <> 7 RETURN count(*)"),
        (
            "with_where",
            "MATCH (n:L) WITH n, n.a AS a, n.b AS b, n.c AS c WHERE a + b > c % 50 RETURN sum(a + b + c)",
        ),
        (
            "unwind_chain",
            "UNWIND range(1, 50000) AS x WITH x, x * 2 AS y, x * 3 AS z WITH x, y, z, x + y AS w \
             WHERE w > z RETURN count(*), sum(x + y + z + w)",
        ),
        (
            "group_sort",
            "MATCH (n:L) RETURN n.a AS a, sum(n.b + n.c) AS s ORDER BY a DESC, s LIMIT 3",
        ),
        (
            "comprehensions",
            "UNWIND range(1, 20000) AS x RETURN sum(reduce(acc = 0, k IN [x, x + 1, x + 2] | acc + k)), \
             sum(size([k IN range(1, 5) WHERE k < x | k * x]))",
        ),
    ];
    let opts = Options::default();
    let params = Params::new();
    let mut g = c.benchmark_group("expressions");
    g.sample_size(10);
    for (name, q) in queries {
        let s = grape::syntax::parse(q).unwrap();
        g.bench_function(name, |b| {
            b.iter(|| black_box(execute_read(&graph, &s, q, &params, &opts).unwrap()))
        });
    }
    g.finish();
}

/// Updating statements row by row, the shapes ingestion code sends (`UNWIND $rows AS r CREATE
/// …`, `MERGE`, `SET`), and a subquery run per row: the executor's per-row work in the
/// updating clauses and `Apply`. Each iteration starts from a fresh graph of 20,000 `:P`
/// nodes (built outside the timing).
fn writes(c: &mut Criterion) {
    let base = || {
        let mut g = grape::graph::Graph::new();
        grape::engine::run(
            &mut g,
            "UNWIND range(1, 20000) AS i CREATE (:P {id: i, name: 'p' + toString(i), score: i * 0.5})",
            &Params::new(),
        )
        .unwrap();
        g
    };
    let queries = [
        (
            "create_nodes",
            "UNWIND range(1, 20000) AS i CREATE (:Q {id: i, name: 'q' + toString(i), score: i * 0.5, tags: [i % 7, i % 11]})",
        ),
        (
            "create_rels",
            "MATCH (a:P) CREATE (a)-[:SELF {w: a.id % 10, since: a.id}]->(a)",
        ),
        (
            "merge",
            "UNWIND range(1, 20000) AS i MERGE (n:M {k: i % 500}) ON CREATE SET n.c = 1 ON MATCH SET n.c = n.c + 1",
        ),
        (
            "merge_rels",
            "MATCH (a:P) WHERE a.id <= 5000 MERGE (h:Hub {k: a.id % 50}) MERGE (a)-[:IN]->(h)",
        ),
        (
            "apoc_merge_node",
            "UNWIND range(1, 20000) AS i CALL apoc.merge.node(['P'], {id: i % 5000}, {}, {seen: true}) \
             YIELD node RETURN count(*)",
        ),
        ("set", "MATCH (n:P) SET n.score = n.score + 1, n.flag = n.id % 2 = 0, n:Seen"),
        (
            "delete_subquery",
            "MATCH (a:P) WHERE a.id <= 5000 CREATE (a)-[:T]->(:Tmp) WITH a \
             CALL (a) { MATCH (a)-[r:T]->(b) DELETE r, b } RETURN count(*)",
        ),
        (
            "foreach",
            "MATCH (n:P) WHERE n.id <= 5000 FOREACH (k IN [1, 2, 3] | SET n.last = k)",
        ),
        (
            "call_subquery",
            "MATCH (n:P) CALL (n) { WITH n WHERE n.id % 2 = 0 RETURN n.score * 2 AS d } RETURN sum(d)",
        ),
    ];
    let mut g = c.benchmark_group("writes");
    g.sample_size(10);
    for (name, q) in queries {
        g.bench_function(name, |b| {
            b.iter_batched(
                base,
                |mut graph| black_box(grape::engine::run(&mut graph, q, &Params::new()).unwrap()),
                criterion::BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
