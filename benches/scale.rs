//! Growth: synthetic graphs of 10k, 100k and 1M nodes (half `Person`, half `Account`, two
//! properties each; four relationships per node, `KNOWS` between people and `OWNS` from a
//! person to an account, one property each), generated here as grape JSON fixtures. For each
//! size: loading the fixture, loading its binary snapshot, and three queries on the loaded
//! graph; the bytes per element
//! (`Graph::memory_stats`) are printed, so linear growth shows in time and in memory.
//!
//! `cargo bench --bench scale` (`-- 1000000` for the largest size alone). Targets for 1M nodes
//! and 4M relationships (2-core machine): load ≤ 6 s from JSON and ≤ 1 s from the snapshot,
//! each query ≤ 50 ms.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use grape::engine::{execute_read, Options, Params};
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

const QUERIES: [(&str, &str); 3] = [
    (
        "two_hops_from_one",
        "MATCH (a:Person {name: 'n42'})-[:KNOWS]->(b)-[:KNOWS]->(c) RETURN count(*)",
    ),
    (
        "filter_expand",
        "MATCH (a:Person)-[:OWNS]->(b:Account) WHERE a.score = 8 RETURN count(*)",
    ),
    (
        "group_top",
        "MATCH (a:Person) RETURN a.score AS s, count(*) AS c ORDER BY c DESC, s LIMIT 3",
    ),
];

/// A deterministic generator (xorshift), so every run builds the same graph.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The fixture text of the synthetic graph with `n` nodes and `4n` relationships.
fn fixture(n: usize) -> String {
    let persons = n / 2;
    let mut s = String::with_capacity(n * 400);
    s.push_str("{\"nodes\": [\n");
    for i in 0..n {
        let label = if i < persons { "Person" } else { "Account" };
        let sep = if i + 1 < n { "," } else { "" };
        let _ = writeln!(
            s,
            "{{\"id\": {i}, \"labels\": [\"{label}\"], \"properties\": {{\"name\": \"n{i}\", \"score\": {}}}}}{sep}",
            i % 10
        );
    }
    s.push_str("], \"relationships\": [\n");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let m = 4 * n;
    for j in 0..m {
        let a = rng.below(persons);
        let (b, t) = if j % 2 == 0 {
            (rng.below(persons), "KNOWS")
        } else {
            (persons + rng.below(n - persons), "OWNS")
        };
        let sep = if j + 1 < m { "," } else { "" };
        let _ = writeln!(
            s,
            "{{\"start\": {a}, \"end\": {b}, \"type\": \"{t}\", \"properties\": {{\"w\": {}}}}}{sep}",
            j % 100
        );
    }
    s.push_str("]}\n");
    s
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("scale");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    for n in SIZES {
        let text = fixture(n);
        g.measurement_time(Duration::from_secs(if n >= 1_000_000 { 60 } else { 5 }));
        g.bench_with_input(BenchmarkId::new("load_json", n), &text, |b, text| {
            b.iter(|| {
                black_box(grape::graph::import::parse_json_fixture(text, "synthetic.json").unwrap())
            })
        });
        let graph = grape::graph::import::parse_json_fixture(&text, "synthetic.json").unwrap();
        drop(text);
        let snapshot = grape::graph::import::snapshot_bytes(&graph).unwrap();
        g.bench_with_input(
            BenchmarkId::new("load_snapshot", n),
            &snapshot,
            |b, bytes| {
                b.iter(|| {
                    black_box(
                        grape::graph::import::read_snapshot(bytes, "synthetic.grape").unwrap(),
                    )
                })
            },
        );
        drop(snapshot);
        let loaded = graph.memory_stats();
        graph.build_adjacency();
        let st = graph.memory_stats();
        let elements = (st.nodes + st.relationships) as f64;
        eprintln!(
            "scale/{n}: {} nodes, {} relationships; {:.1} bytes per element as loaded, {:.1} with the adjacency ({:.1} MiB)",
            st.nodes,
            st.relationships,
            loaded.total_bytes as f64 / elements,
            st.total_bytes as f64 / elements,
            st.total_bytes as f64 / (1 << 20) as f64
        );
        g.measurement_time(Duration::from_secs(5));
        let opts = Options::default();
        for (name, q) in QUERIES {
            let stmt = grape::syntax::parse(q).unwrap();
            // The answers, to compare with another engine's on the same graph
            // (benches/kuzu_scale.py).
            // Timed: the first run after load is what a user waits for (it pays for whatever
            // the graph builds on demand).
            let first = std::time::Instant::now();
            let answer = execute_read(&graph, &stmt, q, &Params::new(), &opts).unwrap();
            eprintln!(
                "scale/{n}: {name} = {:?}; first run after load {:.1} ms",
                answer.rows,
                first.elapsed().as_secs_f64() * 1e3
            );
            g.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| black_box(execute_read(&graph, &stmt, q, &Params::new(), &opts).unwrap()))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
