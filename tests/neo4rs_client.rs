//! neo4rs (the Rust Neo4j driver, Bolt 4.0/4.1) against grape's Bolt server: a driver this
//! project does not control speaks to the server unchanged.
#![cfg(feature = "bolt")]

use grape::bolt::{Config, Server};

#[test]
fn neo4rs_runs_queries_against_grape() {
    let g = grape::graph::Graph::from_cypher_script(
        "CREATE (:Person {name: 'Ann', age: 30})-[:KNOWS {since: 2020}]->(:Person {name: 'Bob', age: 40});",
    )
    .unwrap();
    let h = Server::bind("127.0.0.1:0", g, Config::default())
        .unwrap()
        .spawn();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let addr = h.local_addr().to_string();
    rt.block_on(async move {
        let graph = neo4rs::Graph::new(&addr, "neo4j", "x").await.unwrap();
        let mut rows = graph
            .execute(
                neo4rs::query("MATCH (a:Person)-[k:KNOWS]->(b) WHERE a.age < $max RETURN a, k, b.name AS name")
                    .param("max", 35),
            )
            .await
            .unwrap();
        let row = rows.next().await.unwrap().unwrap();
        let a: neo4rs::Node = row.get("a").unwrap();
        assert_eq!(a.labels(), vec!["Person"]);
        assert_eq!(a.get::<String>("name").unwrap(), "Ann");
        let k: neo4rs::Relation = row.get("k").unwrap();
        assert_eq!(k.typ(), "KNOWS");
        assert_eq!(k.get::<i64>("since").unwrap(), 2020);
        assert_eq!(row.get::<String>("name").unwrap(), "Bob");
        assert!(rows.next().await.unwrap().is_none());
        // A transaction rolled back leaves nothing behind.
        let mut tx = graph.start_txn().await.unwrap();
        tx.run(neo4rs::query("CREATE (:Person {name: 'Tmp'})")).await.unwrap();
        tx.rollback().await.unwrap();
        let mut rows = graph
            .execute(neo4rs::query("MATCH (p:Person) RETURN count(p) AS n"))
            .await
            .unwrap();
        let n: i64 = rows.next().await.unwrap().unwrap().get("n").unwrap();
        assert_eq!(n, 2);
    });
}
