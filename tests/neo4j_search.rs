//! Cypher 25's `SEARCH` clause and filtered vector indexes (`CREATE VECTOR INDEX … WITH [n.a]`)
//! against the Cypher 25 oracle, a Neo4j 2026.x (`scripts/neo4j-oracle start DIR --version …`,
//! reached through `GRAPE_NEO4J25_URI` / `GRAPE_NEO4J25_AUTH`, which `.ci/run` starts where a
//! JDK 21+ is installed).
//!
//! The same setup runs on both sides; every statement of `CASES` runs on grape and on Neo4j and
//! the answers are compared as `grape difftest` compares them (rows, scores to the last bit of
//! their float32, error status codes), and error messages word for word (Neo4j's position
//! suffix aside). Neo4j's answers are recorded in `tests/data/search_neo4j25.jsonl`, which a
//! run without Java checks grape against; `GRAPE_DIFFTEST_BLESS=1` rewrites it.

#![cfg(feature = "neo4j")]

mod common;
#[path = "support/oracle.rs"]
mod oracle;

#[path = "support/recorded_cases.rs"]
mod recorded_cases;

use grape::engine::Params;
use oracle::Which;
use recorded_cases::Suite;

const RECORDED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/search_neo4j25.jsonl"
);

/// The graph both sides hold: 40 movies with 3-dimensional embeddings (no two at the same
/// distance from the query vectors below), years, ratings and genres, some missing or of
/// another type; relationships with 2-dimensional embeddings; two filtered vector indexes, a
/// Euclidean one, and a fulltext and a range index to name by mistake.
const SETUP: &[&str] = &[
    "CYPHER 25 CREATE VECTOR INDEX movies FOR (m:Movie) ON m.emb WITH [m.year, m.rating, m.genre] OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}",
    "CYPHER 25 CREATE VECTOR INDEX movies_l2 FOR (m:Movie) ON m.emb OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'euclidean'}}",
    "CYPHER 25 CREATE VECTOR INDEX links FOR ()-[r:LINK]-() ON r.emb WITH [r.w] OPTIONS {indexConfig: {`vector.dimensions`: 2}}",
    "CREATE FULLTEXT INDEX titles FOR (m:Movie) ON EACH [m.title]",
    "CREATE INDEX years FOR (m:Movie) ON (m.year)",
    "UNWIND range(1, 40) AS i CREATE (:Movie {title: 't' + i, emb: [toFloat((i * 37) % 23) + 0.5, toFloat((i * 53) % 29) + 0.25, toFloat((i * 17) % 31) + 1.0], year: CASE WHEN i % 9 = 0 THEN null WHEN i % 13 = 0 THEN toString(1990 + i) ELSE 1990 + i END, rating: i % 5, genre: ['drama', 'comedy', 'noir'][i % 3]})",
    "CREATE (:Movie {title: 'no vector', year: 2001, rating: 1})",
    "CREATE (:Movie:Short {title: 'short', emb: [1.0, 2.0, 3.0], year: 2020, rating: 4, genre: 'noir'})",
    "CREATE (:Person {name: 'p', emb: [1.0, 1.0, 1.0]})",
    "MATCH (a:Movie), (b:Movie) WHERE a.title IN ['t1', 't2', 't3', 't4'] AND b.title IN ['t5', 't6'] CREATE (a)-[:LINK {emb: [toFloat(size(a.title) + size(b.title)), toFloat(size(a.title)) * 1.5 + toFloat(size(b.title)) / 7.0 + 0.1 * toFloat(size(a.title + b.title))], w: size(a.title) + size(b.title)}]->(b)",
    "MATCH (a:Movie {title: 't1'}), (b:Movie {title: 't7'}) CREATE (a)-[:LINK {emb: [3.0, 0.5], w: 9}]->(b), (b)-[:LINK {emb: [0.5, 3.0], w: 10}]->(a)",
];

/// The statements compared: searches that succeed (filters in the index and after it, OPTIONAL
/// MATCH, relationships either way, several query vectors, a bound variable, a path, the
/// score in WHERE, ORDER BY and aggregates, Euclidean) and every refusal seen from Neo4j.
const CASES: &[&str] = &[
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 5) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [3, 2, 1] LIMIT 7) SCORE AS score RETURN m.title AS t, score ORDER BY score DESC",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [0.3, 1.7, 1.1] LIMIT 4) RETURN m.title AS t",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year > 2005 LIMIT 5) SCORE AS s RETURN m.title AS t, m.year AS y, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year >= 2000 AND m.year < 2010 LIMIT 10) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.rating = 2 AND m.genre = 'noir' LIMIT 10) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.genre IN ['drama', 'noir'] LIMIT 6) SCORE AS s RETURN m.title AS t, m.genre AS g, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year IS NOT NULL LIMIT 40) RETURN count(*) AS n",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE 2015 < m.year LIMIT 40) RETURN count(*) AS n, min(m.year) AS lo",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year = '2003' LIMIT 5) RETURN m.title AS t",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year > 2005.5 LIMIT 5) RETURN m.title AS t",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year > $y LIMIT 5) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR $v LIMIT 3) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Movie) WHERE m.rating = 1 SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 10) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 10) SCORE AS s WHERE s > 0.97 RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Movie {rating: 3}) SEARCH m IN (VECTOR INDEX movies FOR [2.0, 5.0, 1.0] LIMIT 10) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Short) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 2.0, 3.0] LIMIT 3) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 2.0, 3.0] LIMIT 3) SCORE AS s RETURN m.title AS t, labels(m) AS l, s",
    "CYPHER 25 MATCH (m:Person) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m.title AS t",
    "CYPHER 25 OPTIONAL MATCH (m:Person) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m.title AS t",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 0) RETURN m.title AS t",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR null LIMIT 3) RETURN m.title AS t",
    "CYPHER 25 UNWIND [[1.0, 1.0, 1.0], [1.0, 0.0, 0.0], [0, 0, 1]] AS v MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR v LIMIT 2) SCORE AS s RETURN v, m.title AS t, s",
    "CYPHER 25 MATCH (x:Movie {title: 't5'}) WITH x AS m MATCH (m) SEARCH m IN (VECTOR INDEX movies FOR [toFloat((5 * 37) % 23) + 0.5, 1.0, 1.0] LIMIT 3) RETURN m.title AS t",
    "CYPHER 25 MATCH (x:Movie) WHERE x.title IN ['t1', 't2'] WITH x.emb AS q, x.title AS from MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR q LIMIT 3) SCORE AS s RETURN from, m.title AS t, s",
    "CYPHER 25 MATCH p = (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 2) RETURN length(p) AS len, m.title AS t",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 10) SCORE AS s RETURN m.rating AS r, count(*) AS n, max(s) AS best ORDER BY r",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 10) SCORE AS s WITH m, s ORDER BY s LIMIT 2 RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) SCORE AS s MATCH (m)-[:LINK]->(o) RETURN m.title AS t, o.title AS o, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies_l2 FOR [1.0, 1.0, 1.0] LIMIT 5) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies_l2 FOR [10.0, 20.0, 5.0] LIMIT 5) SCORE AS s RETURN m.title AS t, s",
    "CYPHER 25 MATCH ()-[r:LINK]->() SEARCH r IN (VECTOR INDEX links FOR [1.0, 2.0] LIMIT 4) SCORE AS s RETURN r.w AS w, s",
    "CYPHER 25 MATCH ()-[r]-() SEARCH r IN (VECTOR INDEX links FOR [1.0, 2.0] LIMIT 3) SCORE AS s RETURN r.w AS w, s",
    "CYPHER 25 MATCH ()<-[r:LINK]-() SEARCH r IN (VECTOR INDEX links FOR [2.0, 1.0] WHERE r.w >= 5 LIMIT 3) SCORE AS s RETURN r.w AS w, s",
    "CYPHER 25 MATCH ()-[r:LINK]->() SEARCH r IN (VECTOR INDEX links FOR [2.0, 1.0] LIMIT 3) SCORE AS s MATCH (a)-[r]->(b) RETURN a.title AS a, b.title AS b, s",
    // Refusals.
    "MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] SKIP 1 LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] OFFSET 1 LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0]) RETURN m",
    "CYPHER 25 MATCH (m:Movie), (x) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie)-[r]->(x) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (a)-[r:LINK]->(b) SEARCH r IN (VECTOR INDEX links FOR [1.0, 2.0] LIMIT 3) RETURN r",
    "CYPHER 25 MATCH (m:Movie) SEARCH x IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX $name FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (FULLTEXT INDEX titles FOR 't1' LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX nosuch FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX titles FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX years FOR [1.0, 1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m) SEARCH m IN (VECTOR INDEX links FOR [1.0, 2.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH ()-[r]-() SEARCH r IN (VECTOR INDEX movies FOR [1.0, 2.0, 1.0] LIMIT 3) RETURN r",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 WITH [] AS q MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR q LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [0, 0, 0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 0.0 / 0.0, 1.0] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1, 'a', 1] LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR 'abc' LIMIT 3) RETURN m",
    "CYPHER 25 WITH 'a' AS q MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR q LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT -1) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 2.5) RETURN m",
    "CYPHER 25 WITH 2 AS k MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT k) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) SCORE AS m RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.title = 't1' LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.emb IS NOT NULL LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year > 2005 OR m.rating = 1 LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year = 2003 AND m.year > 2000 LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year > 2003 AND m.year > 2005 LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year IS NOT NULL AND m.year > 2005 LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year <> 2005 LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.genre STARTS WITH 'd' LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE m.year > m.rating LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] WHERE true LIMIT 3) RETURN m",
    "CYPHER 25 MATCH (m:Movie) WHERE m.rating = 1 SEARCH m IN (VECTOR INDEX movies FOR [1.0, 1.0, 1.0] LIMIT 3) SCORE AS s WHERE s > 0 RETURN m",
    "CYPHER 5 CREATE VECTOR INDEX other FOR (m:Movie) ON m.emb WITH [m.year]",
    "CYPHER 25 CREATE RANGE INDEX other FOR (m:Movie) ON m.emb WITH [m.year]",
];

fn params() -> Params {
    let mut p = Params::new();
    p.insert("y".into(), grape::value::Value::Int(2010));
    p.insert(
        "v".into(),
        grape::value::Value::List(vec![
            grape::value::Value::Float(0.5),
            grape::value::Value::Float(2.5),
            grape::value::Value::Float(1.5),
        ]),
    );
    p
}

const SUITE: Suite = Suite {
    name: "SEARCH",
    recorded: RECORDED,
    which: Which::Neo4j25,
    setup: SETUP,
    cases: CASES,
    params,
};

/// Without Java: grape answers every search as Neo4j 2026 answered it.
#[test]
fn search_clause_equals_recorded_neo4j_2026_answers() {
    recorded_cases::equals_recording(&SUITE);
}

/// Live: Neo4j 2026 answers as recorded (`GRAPE_DIFFTEST_BLESS=1` records it anew), and
/// grape equals it.
#[test]
fn search_clause_equals_neo4j_2026() {
    recorded_cases::equals_live(&SUITE, "search_clause_equals_neo4j_2026");
}
