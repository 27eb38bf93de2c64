//! LDBC SNB Interactive's short reads (IS1–IS7) on a generated social network of about a million
//! nodes and four million relationships (the size of `benches/scale.rs`'s graph): people living
//! in cities and knowing each other, forums moderated by people and containing posts, comments
//! replying to posts and to comments, creators and likes. The shapes are the specification's
//! (a person's profile, recent messages, friends; a message's content, creator, forum and
//! replies); the graph is this file's generator, not LDBC's Datagen, so the figures compare
//! engines on one machine, not with published LDBC results.
//!
//! Each query runs over 20 parameters drawn with a fixed seed; one criterion iteration runs all
//! 20, so the time per execution is the figure divided by 20 (printed, with each query's first
//! run after load and its row count). `id` is unique per label and declared so
//! (`CREATE CONSTRAINT … IS UNIQUE`), as an LDBC setup on Neo4j declares it and as LadybugDB's
//! primary keys are.
//!
//! The anchor: `GRAPE_LDBC_CSV=DIR cargo bench --bench ldbc` also writes the graph and the
//! parameters as CSV files into DIR, which `benches/kuzu_ldbc.py DIR` loads into LadybugDB
//! (or Kuzu) and runs the same seven queries on, printing the same figures and row counts.
//! `GRAPE_LDBC_NODES` changes the size (default 1,000,000).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use grape::engine::{execute_read, Options, Params};
use grape::graph::Graph;
use grape::value::Value;
use std::hint::black_box;
use std::io::Write as _;
use std::time::{Duration, Instant};

/// The queries, each with the name of its parameter and the label it is drawn from.
const QUERIES: [(&str, &str, &str); 7] = [
    (
        "IS1_profile",
        "person",
        "MATCH (n:Person {id: $person})-[:IS_LOCATED_IN]->(p:City) \
         RETURN n.firstName AS firstName, n.lastName AS lastName, n.birthday AS birthday, \
         n.locationIP AS locationIP, n.browserUsed AS browserUsed, p.id AS cityId, \
         n.gender AS gender, n.creationDate AS creationDate",
    ),
    (
        "IS2_recent_messages",
        "person",
        "MATCH (:Person {id: $person})<-[:HAS_CREATOR]-(m) \
         WITH m ORDER BY m.creationDate DESC, m.id DESC LIMIT 10 \
         MATCH (m)-[:REPLY_OF*0..30]->(p:Post)-[:HAS_CREATOR]->(c:Person) \
         RETURN m.id AS messageId, m.content AS content, m.creationDate AS created, \
         p.id AS postId, c.id AS authorId, c.firstName AS firstName, c.lastName AS lastName \
         ORDER BY created DESC, messageId DESC",
    ),
    (
        "IS3_friends",
        "person",
        "MATCH (n:Person {id: $person})-[r:KNOWS]-(friend:Person) \
         RETURN friend.id AS personId, friend.firstName AS firstName, \
         friend.lastName AS lastName, r.creationDate AS since \
         ORDER BY since DESC, personId ASC",
    ),
    (
        "IS4_message_content",
        "comment",
        "MATCH (m:Comment {id: $comment}) RETURN m.creationDate AS created, m.content AS content",
    ),
    (
        "IS5_message_creator",
        "comment",
        "MATCH (m:Comment {id: $comment})-[:HAS_CREATOR]->(p:Person) \
         RETURN p.id AS personId, p.firstName AS firstName, p.lastName AS lastName",
    ),
    (
        "IS6_message_forum",
        "comment",
        "MATCH (m:Comment {id: $comment})-[:REPLY_OF*0..30]->(p:Post)<-[:CONTAINER_OF]-(f:Forum)\
         -[:HAS_MODERATOR]->(mod:Person) \
         RETURN f.id AS forumId, f.title AS title, mod.id AS moderatorId, \
         mod.firstName AS firstName, mod.lastName AS lastName",
    ),
    (
        "IS7_replies",
        "post",
        "MATCH (m:Post {id: $post})<-[:REPLY_OF]-(c:Comment)-[:HAS_CREATOR]->(p:Person) \
         OPTIONAL MATCH (m)-[:HAS_CREATOR]->(a:Person)-[r:KNOWS]-(p) \
         RETURN c.id AS commentId, c.content AS content, c.creationDate AS created, \
         p.id AS replierId, p.firstName AS firstName, p.lastName AS lastName, \
         r IS NOT NULL AS knows \
         ORDER BY created DESC, replierId",
    ),
];

/// Parameters per query.
const PARAMS: usize = 20;

/// A deterministic generator (xorshift), as in `benches/scale.rs`.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// How many nodes of each label a graph of about `n` nodes has.
struct Sizes {
    persons: usize,
    cities: usize,
    forums: usize,
    posts: usize,
    comments: usize,
}

impl Sizes {
    fn of(n: usize) -> Sizes {
        let persons = (n / 20).max(10);
        let cities = (n / 1000).max(2);
        let forums = (n / 20).max(2);
        let posts = (n * 3 / 10).max(10);
        let comments = n.saturating_sub(persons + cities + forums + posts).max(10);
        Sizes {
            persons,
            cities,
            forums,
            posts,
            comments,
        }
    }
}

/// One CSV file per node label and relationship table, for the anchor (`None`: not written).
struct Csv(
    Option<std::path::PathBuf>,
    Vec<(String, std::io::BufWriter<std::fs::File>)>,
);

impl Csv {
    fn line(&mut self, file: &str, fields: std::fmt::Arguments) {
        let Some(dir) = &self.0 else { return };
        let i = match self.1.iter().position(|(f, _)| f == file) {
            Some(i) => i,
            None => {
                let w = std::fs::File::create(dir.join(file)).expect("create a CSV file");
                self.1.push((file.to_string(), std::io::BufWriter::new(w)));
                self.1.len() - 1
            }
        };
        writeln!(self.1[i].1, "{fields}").expect("write a CSV line");
    }
}

/// The generated network, its parameters and (with `GRAPE_LDBC_CSV`) the CSV files.
fn network(n: usize) -> (Graph, Vec<(&'static str, Vec<i64>)>) {
    let s = Sizes::of(n);
    let mut csv = Csv(
        std::env::var_os("GRAPE_LDBC_CSV").map(Into::into),
        Vec::new(),
    );
    if let Some(dir) = &csv.0 {
        std::fs::create_dir_all(dir).expect("create GRAPE_LDBC_CSV");
    }
    let mut g = Graph::new();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let browsers = ["Firefox", "Chrome", "Safari", "Opera", "Internet Explorer"];
    let int = |i: usize| Value::Int(i as i64);
    let text = |s: String| Value::String(s.into());
    let cities: Vec<_> = (0..s.cities)
        .map(|i| {
            csv.line("city.csv", format_args!("{i},City {i}"));
            g.add_node(
                &["City"],
                vec![("id", int(i)), ("name", text(format!("City {i}")))],
            )
        })
        .collect();
    // Times are milliseconds since 2010-01-01, a message's after its creator's.
    const START: usize = 1_262_304_000_000;
    let persons: Vec<_> = (0..s.persons)
        .map(|i| {
            let (first, last) = (format!("F{}", i % 997), format!("L{}", i % 1009));
            let gender = if i % 2 == 0 { "female" } else { "male" };
            let birthday = 19_500_101 + (i % 50) * 10_000 + (i % 12) * 100 + i % 28;
            let ip = format!("10.{}.{}.{}", i % 256, (i / 256) % 256, (i / 65_536) % 256);
            let browser = browsers[i % browsers.len()];
            let created = START + rng.below(1_000_000_000);
            csv.line(
                "person.csv",
                format_args!("{i},{first},{last},{gender},{birthday},{ip},{browser},{created}"),
            );
            g.add_node(
                &["Person"],
                vec![
                    ("id", int(i)),
                    ("firstName", text(first)),
                    ("lastName", text(last)),
                    ("gender", text(gender.into())),
                    ("birthday", int(birthday)),
                    ("locationIP", text(ip)),
                    ("browserUsed", text(browser.into())),
                    ("creationDate", int(created)),
                ],
            )
        })
        .collect();
    for (i, &p) in persons.iter().enumerate() {
        let c = rng.below(s.cities);
        csv.line("person_isLocatedIn_city.csv", format_args!("{i},{c}"));
        g.add_relationship(p, cities[c], "IS_LOCATED_IN", vec![]);
    }
    for (i, &p) in persons.iter().enumerate() {
        for _ in 0..10 {
            let j = rng.below(s.persons);
            if j == i {
                continue;
            }
            let since = START + rng.below(2_000_000_000);
            csv.line("person_knows_person.csv", format_args!("{i},{j},{since}"));
            g.add_relationship(p, persons[j], "KNOWS", vec![("creationDate", int(since))]);
        }
    }
    let forums: Vec<_> = (0..s.forums)
        .map(|i| {
            let created = START + rng.below(2_000_000_000);
            csv.line("forum.csv", format_args!("{i},Forum {i},{created}"));
            let f = g.add_node(
                &["Forum"],
                vec![
                    ("id", int(i)),
                    ("title", text(format!("Forum {i}"))),
                    ("creationDate", int(created)),
                ],
            );
            let m = rng.below(s.persons);
            csv.line("forum_hasModerator_person.csv", format_args!("{i},{m}"));
            g.add_relationship(f, persons[m], "HAS_MODERATOR", vec![]);
            f
        })
        .collect();
    let posts: Vec<_> = (0..s.posts)
        .map(|i| {
            let created = START + 2_000_000_000 + rng.below(1_000_000_000);
            let len = 20 + rng.below(200);
            csv.line("post.csv", format_args!("{i},post {i},{created},{len}"));
            let p = g.add_node(
                &["Post"],
                vec![
                    ("id", int(i)),
                    ("content", text(format!("post {i}"))),
                    ("creationDate", int(created)),
                    ("length", int(len)),
                ],
            );
            let f = rng.below(s.forums);
            csv.line("forum_containerOf_post.csv", format_args!("{f},{i}"));
            g.add_relationship(forums[f], p, "CONTAINER_OF", vec![]);
            let c = rng.below(s.persons);
            csv.line("post_hasCreator_person.csv", format_args!("{i},{c}"));
            g.add_relationship(p, persons[c], "HAS_CREATOR", vec![]);
            p
        })
        .collect();
    let mut comments = Vec::with_capacity(s.comments);
    for i in 0..s.comments {
        // Messages (posts and comments) share one id space, as in LDBC.
        let id = s.posts + i;
        let created = START + 3_000_000_000 + i * 100 + rng.below(100);
        let len = 5 + rng.below(100);
        csv.line(
            "comment.csv",
            format_args!("{id},comment {i},{created},{len}"),
        );
        let c = g.add_node(
            &["Comment"],
            vec![
                ("id", int(id)),
                ("content", text(format!("comment {i}"))),
                ("creationDate", int(created)),
                ("length", int(len)),
            ],
        );
        let who = rng.below(s.persons);
        csv.line("comment_hasCreator_person.csv", format_args!("{id},{who}"));
        g.add_relationship(c, persons[who], "HAS_CREATOR", vec![]);
        // A reply to a post, or to an earlier comment (so every chain ends at a post).
        if i == 0 || rng.below(2) == 0 {
            let p = rng.below(s.posts);
            csv.line("comment_replyOf_post.csv", format_args!("{id},{p}"));
            g.add_relationship(c, posts[p], "REPLY_OF", vec![]);
        } else {
            let e = rng.below(i);
            let to = s.posts + e;
            csv.line("comment_replyOf_comment.csv", format_args!("{id},{to}"));
            g.add_relationship(c, comments[e], "REPLY_OF", vec![]);
        }
        comments.push(c);
    }
    // Likes fill the graph to four relationships per node.
    let so_far = g.relationship_count();
    let likes = (4 * n).saturating_sub(so_far);
    for k in 0..likes {
        let who = rng.below(s.persons);
        let at = START + 4_000_000_000 + rng.below(1_000_000_000);
        if k % 2 == 0 {
            let p = rng.below(s.posts);
            csv.line("person_likes_post.csv", format_args!("{who},{p},{at}"));
            g.add_relationship(
                persons[who],
                posts[p],
                "LIKES",
                vec![("creationDate", int(at))],
            );
        } else {
            let c = rng.below(s.comments);
            let id = s.posts + c;
            csv.line("person_likes_comment.csv", format_args!("{who},{id},{at}"));
            g.add_relationship(
                persons[who],
                comments[c],
                "LIKES",
                vec![("creationDate", int(at))],
            );
        }
    }
    for label in ["Person", "City", "Forum", "Post", "Comment"] {
        let q = format!("CREATE CONSTRAINT FOR (x:{label}) REQUIRE x.id IS UNIQUE");
        grape::engine::run(&mut g, &q, &Params::new()).expect("declare the id constraint");
    }
    let mut draw = |from: usize, count: usize| -> Vec<i64> {
        (0..PARAMS)
            .map(|_| (from + rng.below(count)) as i64)
            .collect()
    };
    let params = vec![
        ("person", draw(0, s.persons)),
        ("comment", draw(s.posts, s.comments)),
        ("post", draw(0, s.posts)),
    ];
    for (name, values) in &params {
        for v in values {
            csv.line("params.csv", format_args!("{name},{v}"));
        }
    }
    for (_, w) in &mut csv.1 {
        w.flush().expect("flush a CSV file");
    }
    (g, params)
}

fn bench(c: &mut Criterion) {
    let n: usize = std::env::var("GRAPE_LDBC_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let started = Instant::now();
    let (graph, params) = network(n);
    let generated = started.elapsed().as_secs_f64();
    // What a load does before the first query (as `benches/scale.rs`): the adjacency.
    let started = Instant::now();
    graph.build_adjacency();
    let st = graph.memory_stats();
    eprintln!(
        "ldbc/{n}: {} nodes, {} relationships generated in {generated:.1} s, adjacency in {:.2} s; {:.1} MiB ({:.1} bytes per element)",
        graph.node_count(),
        graph.relationship_count(),
        started.elapsed().as_secs_f64(),
        st.total_bytes as f64 / (1 << 20) as f64,
        st.total_bytes as f64 / (st.nodes + st.relationships) as f64
    );
    let mut group = c.benchmark_group("ldbc");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(5));
    let opts = Options::default();
    for (name, param, q) in QUERIES {
        let stmt = grape::syntax::parse(q).unwrap();
        let values = &params.iter().find(|(p, _)| *p == param).unwrap().1;
        let with = |v: i64| {
            let mut p = Params::new();
            p.insert(param.into(), Value::Int(v));
            p
        };
        // The first run after load (what it builds on demand, it pays for), and the answers'
        // size, to compare with the anchor's.
        let first = Instant::now();
        let rows: usize = values
            .iter()
            .map(|&v| {
                execute_read(&graph, &stmt, q, &with(v), &opts)
                    .unwrap_or_else(|e| panic!("{name}: {e}"))
                    .rows
                    .len()
            })
            .sum();
        eprintln!(
            "ldbc/{n}: {name}: {rows} rows over {PARAMS} parameters; first run after load {:.2} ms per execution",
            first.elapsed().as_secs_f64() * 1e3 / PARAMS as f64
        );
        group.bench_function(BenchmarkId::new(name, n), |b| {
            b.iter(|| {
                for &v in values {
                    black_box(execute_read(&graph, &stmt, q, &with(v), &opts).unwrap());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
