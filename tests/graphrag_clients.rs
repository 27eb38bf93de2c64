//! The GraphRAG libraries applications are built on, unchanged, against grape's Bolt server:
//! neo4j-graphrag creates its vector and full-text indexes, upserts embeddings
//! (`db.create.setNodeVectorProperty`) and retrieves with `VectorRetriever` and
//! `VectorCypherRetriever` (`db.index.vector.queryNodes`), `HybridRetriever` (both rankers) and
//! `HybridCypherRetriever` (with `db.index.fulltext.queryNodes`), with a stub embedder,
//! `Text2CypherRetriever` with a stub LLM, and reads the
//! schema with `get_structured_schema` / `get_schema` (`apoc.meta.data`, `apoc.schema.nodes`,
//! `SHOW CONSTRAINTS`).
//!
//! langchain-neo4j's `Neo4jGraph` reads the same schema (and the enhanced one, through
//! `apoc.meta.graph`'s virtual nodes and relationships), and `Neo4jVector` stores texts with
//! their embeddings and searches them (`from_texts`, `from_existing_index`,
//! `similarity_search`), by vector alone and hybrid (with a full-text keyword index);
//! `add_graph_documents` stores LLMGraphTransformer-style graph documents through
//! `apoc.merge.node` / `apoc.merge.relationship` and dynamic labels.
//!
//! llama-index's `Neo4jPropertyGraphStore` (llama-index-graph-stores-neo4j) upserts entity and
//! chunk nodes (`apoc.map.clean`, `apoc.create.addLabels`, `db.create.setNodeVectorProperty`)
//! and relations (`apoc.merge.relationship`), reads them back (`get`, `get_triplets`,
//! `structured_query`, `vector_query`), refreshes its schema (`apoc.meta.subGraph`'s virtual
//! elements) and deletes.
//!
//! Needs Python with `neo4j-graphrag` / `langchain-neo4j`: `$GRAPE_PYTHON`, else
//! `target/pyenv/bin/python` (what `.ci/run` creates); llama-index, which pins the 5.x driver,
//! from `$GRAPE_LLAMA_PYTHON`, else `target/pyenv-llama/bin/python`. Without them the tests print SKIPPED and
//! pass, unless `GRAPE_REQUIRE_GRAPHRAG=1` / `GRAPE_REQUIRE_LANGCHAIN=1` /
//! `GRAPE_REQUIRE_LLAMA_INDEX=1` (as `.ci/run` sets once
//! it has installed the packages).
#![cfg(feature = "bolt")]

mod common;

use grape::bolt::{Config, Server};
use serde_json::{json, Value as Json};
use std::path::Path;
use std::process::Command;

/// Serves `setup` (a Cypher script) over Bolt with auth neo4j/secret, runs the client script
/// `tests/bolt_support/<script>` against it and returns the JSON it prints, having checked
/// that each of `steps` came out `ok`.
fn run_client(py: &Path, script: &str, setup: &str, steps: &[&str]) -> Json {
    let g = grape::graph::Graph::from_cypher_script(setup).unwrap();
    let config = Config {
        auth: Some(("neo4j".into(), "secret".into())),
        ..Default::default()
    };
    let h = Server::bind("127.0.0.1:0", g, config).unwrap().spawn();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bolt_support")
        .join(script);
    let o = Command::new(py)
        .arg(path)
        .arg(format!("bolt://{}", h.local_addr()))
        .output()
        .expect("run python");
    assert!(
        o.status.success(),
        "{script} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out: Json = serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).unwrap();
    for step in steps {
        assert_eq!(out["steps"][step], "ok", "{step}: {}", out["steps"][step]);
    }
    out
}

#[test]
fn neo4j_graphrag_indexes_upserts_and_retrievers() {
    let Some(py) = common::python_with(
        "import neo4j_graphrag",
        "GRAPE_REQUIRE_GRAPHRAG",
        "neo4j-graphrag client test",
    ) else {
        return;
    };
    let out = run_client(
        &py,
        "graphrag_check.py",
        "CREATE (:Chunk {id: 1, text: 'the first chunk'}), (:Chunk {id: 2, text: 'the second chunk'}), \
         (:Chunk {id: 3, text: 'a third chunk'})-[:NEXT {w: 1.5}]->(:Doc {title: 'D'}); \
         CREATE CONSTRAINT doc_title FOR (d:Doc) REQUIRE d.title IS UNIQUE;",
        &[
            "create_vector_index",
            "create_fulltext_index",
            "upsert_vectors",
            "VectorRetriever",
            "VectorCypherRetriever",
            "HybridRetriever",
            "HybridRetriever_linear",
            "HybridCypherRetriever",
            "Text2CypherRetriever",
            "get_structured_schema",
            "get_schema",
        ],
    );
    assert_eq!(
        out["indexes"],
        json!([
            ["chunk_text", "FULLTEXT", ["Chunk"], ["text"]],
            ["chunks", "VECTOR", ["Chunk"], ["embedding"]]
        ])
    );
    // The nearest chunk to "first" is chunk 1 (score 1.0), then chunk 3 ([0.6, 0.8, 0]:
    // cos 0.6, exactly score 0.8; Neo4j 5.26 scores the segment's 7-bit quantized vectors,
    // and gives 0.7984189987182617, as the oracle did for these statements).
    assert_eq!(
        out["vector"],
        json!([
            ["{'text': 'the first chunk'}", 1.0],
            ["{'text': 'a third chunk'}", 0.7984189987182617]
        ])
    );
    assert_eq!(
        out["cypher"],
        json!([
            "<Record id=2 score=1.0>",
            "<Record id=3 score=0.9007812142372131>",
            "<Record id=1 score=0.5>"
        ])
    );
    // Hybrid: each index's scores over its best, the larger of the two per chunk. "second
    // chunk": vector 1.0 / 0.9 (0.9007812142372131 quantized, as on Neo4j 5.26) / 0.5; full text 1.0 for chunk 2 (both words), ~0.12 for the
    // others (only the common word "chunk").
    assert_eq!(
        out["hybrid"],
        json!([
            ["{'text': 'the second chunk'}", 1.0],
            ["{'text': 'a third chunk'}", 0.9007812142372131],
            ["{'text': 'the first chunk'}", 0.5]
        ])
    );
    // The linear ranker sums alpha · vector + (1 − alpha) · full text: chunk 2 has 1.0 and 1.0,
    // chunk 3 has 0.9 and 1.0 ("second" and "third" are equally rare, the texts equally long).
    // But the client joins its two branches with UNION, not UNION ALL, so chunk 2's two equal
    // rows (node, 0.5) collapse into one, as they do on Neo4j: chunk 3 wins with 0.95.
    assert_eq!(
        out["hybrid_linear"],
        json!([
            ["{'text': 'a third chunk'}", 0.5 * 0.9007812142372131 + 0.5],
            ["{'text': 'the second chunk'}", 0.5]
        ])
    );
    assert_eq!(
        out["hybrid_cypher"],
        // The retrieval query rounds the quantized score (0.7984189987182617 on Neo4j 5.26).
        json!(["<Record id=1 score=1.0>", "<Record id=3 score=0.798>"])
    );
    // A query that is not Lucene syntax is the client's SearchQueryParseError (it looks for
    // Lucene's ParseException in Neo4j's message).
    assert_eq!(out["bad_query"], "SearchQueryParseError");
    // Text2Cypher: the prompt carries the schema; the stub LLM's query runs.
    assert_eq!(out["text2cypher"], json!(["<Record id=3 title='D'>"]));
    assert_eq!(out["text2cypher_prompt_has_schema"], true);
    // The schema as neo4j-graphrag reads it (and puts in its Text2Cypher prompts).
    let st = &out["structured"];
    // In the order `apoc.meta.data` meets them, as APOC 5.26 lists them: element by element,
    // keys by token (the embedding is set after the chunk is created).
    assert_eq!(
        st["node_props"],
        json!({
            "Chunk": [
                {"property": "id", "type": "INTEGER"},
                {"property": "text", "type": "STRING"},
                {"property": "embedding", "type": "LIST"}
            ],
            "Doc": [{"property": "title", "type": "STRING"}]
        })
    );
    assert_eq!(
        st["rel_props"],
        json!({"NEXT": [{"property": "w", "type": "FLOAT"}]})
    );
    assert_eq!(
        st["relationships"],
        json!([{"start": "Chunk", "type": "NEXT", "end": "Doc"}])
    );
    assert_eq!(st["index"], json!([["Doc", ["title"], "RANGE"]]));
    assert_eq!(st["constraint"], json!(["doc_title"]));
    assert_eq!(
        out["schema"],
        "Node properties:\nChunk {id: INTEGER, text: STRING, embedding: LIST}\nDoc {title: STRING}\n\
         Relationship properties:\nNEXT {w: FLOAT}\nThe relationships:\n(:Chunk)-[:NEXT]->(:Doc)"
    );
}

#[test]
fn langchain_neo4j_graph_schema_and_vector_store() {
    let Some(py) = common::python_with(
        "import langchain_neo4j",
        "GRAPE_REQUIRE_LANGCHAIN",
        "langchain-neo4j client test",
    ) else {
        return;
    };
    let out = run_client(
        &py,
        "langchain_check.py",
        "CREATE (:Chunk {id: 1, text: 'x'})-[:NEXT {w: 1.5}]->(:Doc {title: 'D'});",
        &[
            "Neo4jGraph",
            "Neo4jGraph_enhanced",
            "from_texts",
            "similarity_search_with_score",
            "from_existing_index",
            "similarity_search",
            "hybrid_from_texts",
            "hybrid_search",
            "hybrid_from_existing_index",
            "hybrid_search_existing",
            "builder",
            "add_graph_documents",
            "add_graph_documents_again",
            "add_graph_documents_base",
        ],
    );
    assert_eq!(
        out["schema"],
        "Node properties:\nChunk {id: INTEGER, text: STRING}\nDoc {title: STRING}\n\
         Relationship properties:\nNEXT {w: FLOAT}\nThe relationships:\n(:Chunk)-[:NEXT]->(:Doc)"
    );
    assert_eq!(out["count"], 1);
    // The enhanced schema Neo4j gives for this graph: counts from apoc.meta.graph's virtual
    // elements, then ranges and options from the property values.
    assert_eq!(
        out["enhanced_schema"],
        "Node properties:\n- **Chunk**\n  - `id`: INTEGER Min: 1, Max: 1\n  - `text`: STRING \
         Available options: ['x']\n- **Doc**\n  - `title`: STRING Available options: ['D']\n\
         Relationship properties:\n- **NEXT**\n  - `w`: FLOAT Min: 1.5, Max: 1.5\n\
         The relationships:\n(:Chunk)-[:NEXT]->(:Doc)"
    );
    // Neo4jVector stores its texts as `Chunk` nodes with an `embedding` and finds them.
    assert_eq!(
        out["hits"],
        json!([["the second text", 1.0], ["the first text", 0.5]])
    );
    assert_eq!(out["found"], json!(["the first text"]));
    // Hybrid search (a vector index and a full-text "keyword" index): the second passage has
    // both words and the nearest vector; the others only share "passage" (full text ~0.12 of
    // the best) and lie at right angles (vector 0.5).
    assert_eq!(
        out["hybrid"],
        json!([
            ["the second passage", 1.0],
            ["the first passage", 0.5],
            ["a third passage", 0.5]
        ])
    );
    // From the existing indexes, with Lucene's special characters in the question (the client
    // blanks them out before searching).
    assert_eq!(out["hybrid_found"], json!(["a third passage"]));
    // add_graph_documents: apoc.merge.node / apoc.merge.relationship make each entity and
    // relationship once (the second call changes nothing); with the base entity label and
    // sources, the entities are :__Entity__ and the Document MENTIONS them.
    assert_eq!(
        out["works_at"],
        json!([
            {"p": "Alice", "age": 38, "since": 2020, "c": "Acme"},
            {"p": "Bob", "age": null, "since": null, "c": "Initech"}
        ])
    );
    assert_eq!(out["entities"], json!([{"id": "Bob"}, {"id": "Initech"}]));
    assert_eq!(
        out["mentions"],
        json!([{"d": "d2", "text": "Bob works at Initech.", "ids": ["Bob", "Initech"]}])
    );
}

#[test]
fn llama_index_property_graph_store() {
    let Some(py) = common::python_with(
        "import llama_index.graph_stores.neo4j",
        "GRAPE_REQUIRE_LLAMA_INDEX",
        "llama-index Neo4jPropertyGraphStore client test",
    ) else {
        return;
    };
    let out = run_client(
        &py,
        "llama_check.py",
        "",
        &[
            "init",
            "upsert_nodes",
            "upsert_relations",
            "get",
            "get_properties",
            "get_triplets",
            "structured_query",
            "vector_query",
            "refresh_schema",
            "get_schema_str",
            "delete",
        ],
    );
    // Entities are :__Node__:__Entity__ plus their label (apoc.create.addLabels), labels in
    // the order they were first used, as Neo4j orders them.
    assert_eq!(out["get"], json!([["Alice", "__Node__", 38]]));
    assert_eq!(out["get_properties"], json!(["Acme"]));
    assert_eq!(
        out["triplets"],
        json!([["Alice", "WORKS_AT", "Acme"], ["Bob", "WORKS_AT", "Acme"]])
    );
    assert_eq!(
        out["structured"],
        json!([
            {"p": "Alice", "since": 2020, "c": "Acme"},
            {"p": "Bob", "since": null, "c": "Acme"}
        ])
    );
    // The entity vector index (db.create.setNodeVectorProperty, db.index.vector.queryNodes):
    // Alice's embedding is the query (1.0); Bob's [0.6, 0.8, 0] has cosine 0.6 (exactly 0.8;
    // Neo4j 5.26 scores the segment's 7-bit quantized vectors, 0.79842, which the client
    // rounds to four places).
    assert_eq!(out["vector"], json!([["Alice", 1.0], ["Bob", 0.7984]]));
    assert_eq!(
        out["schema"],
        "Node properties:\nChunk {id: STRING, text: STRING}\n\
         PERSON {id: STRING, age: INTEGER, name: STRING, embedding: LIST}\n\
         COMPANY {id: STRING, name: STRING, embedding: LIST}\n\
         Relationship properties:\nWORKS_AT {since: INTEGER}\nThe relationships:\n\
         (:Chunk)-[:MENTIONS]->(:PERSON)\n(:PERSON)-[:WORKS_AT]->(:COMPANY)"
    );
    assert_eq!(
        out["after_delete"],
        json!([{"name": "Acme"}, {"name": "Alice"}])
    );
}
