//! Bolt server throughput: small queries over one connection (RUN + PULL pipelined, one round
//! trip each), and connect-to-first-result latency (TCP connect, handshake, HELLO/LOGON, RUN,
//! PULL) on the demo graph.
//!
//! `cargo bench --features bolt --bench bolt`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grape::bolt::client::Client;
use grape::bolt::packstream::Ps;
use grape::bolt::{Config, Server};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let graph = grape::engine::load_graph(
        concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/demo/graph.json"),
        grape::graph::import::ImporterTypes::Strings,
    )
    .unwrap();
    let h = Server::bind("127.0.0.1:0", graph, Config::default())
        .unwrap()
        .spawn();
    let addr = h.local_addr().to_string();
    let mut client = Client::connect(&addr, &[(5, 4, 4)]).unwrap();
    client.login("neo4j", "x").unwrap();

    let mut g = c.benchmark_group("bolt");
    g.throughput(Throughput::Elements(1));
    g.bench_function("return_1/one_connection", |b| {
        b.iter(|| black_box(client.run("RETURN 1 AS x", Ps::map::<&str>([])).unwrap()))
    });
    let params = Ps::map([("t", Ps::from("The Amber Orchard"))]);
    g.bench_function("lookup_by_title/one_connection", |b| {
        b.iter(|| {
            black_box(
                client
                    .run(
                        "MATCH (b:Book {title: $t})<-[:WROTE]-(a) RETURN a.name AS author, b.year AS year",
                        params.clone(),
                    )
                    .unwrap(),
            )
        })
    });
    g.bench_function("connect_to_first_result", |b| {
        b.iter(|| {
            let mut c = Client::connect(&addr, &[(5, 4, 4)]).unwrap();
            c.login("neo4j", "x").unwrap();
            black_box(c.run("RETURN 1 AS x", Ps::map::<&str>([])).unwrap())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
