"""neo4j-graphrag against grape's Bolt server: indexes, vector upserts and retrievers.

Usage: graphrag_check.py BOLT_URI. Prints one JSON object: each step's outcome (`ok` or the
error) and what the retrievers returned. The embedder is a stub: no model, no network.
"""
import json
import sys

import neo4j
from neo4j_graphrag.embeddings.base import Embedder
from neo4j_graphrag.indexes import create_fulltext_index, create_vector_index, upsert_vectors
from neo4j_graphrag.retrievers import VectorCypherRetriever, VectorRetriever
from neo4j_graphrag.schema import get_schema, get_structured_schema
from neo4j_graphrag.types import EntityType


class Stub(Embedder):
    """Maps a query to a fixed direction by a keyword."""

    def embed_query(self, text):
        if "first" in text:
            return [1.0, 0.0, 0.0]
        if "second" in text:
            return [0.0, 1.0, 0.0]
        return [0.0, 0.0, 1.0]


def main(uri):
    out = {"steps": {}}
    driver = neo4j.GraphDatabase.driver(uri, auth=("neo4j", "secret"))

    def step(name, f):
        try:
            result = f()
            out["steps"][name] = "ok"
            return result
        except Exception as e:  # the test shows what failed
            out["steps"][name] = f"{type(e).__name__}: {e}"
            return None

    step("create_vector_index", lambda: create_vector_index(
        driver, "chunks", label="Chunk", embedding_property="embedding",
        dimensions=3, similarity_fn="cosine"))
    step("create_fulltext_index", lambda: create_fulltext_index(
        driver, "chunk_text", label="Chunk", node_properties=["text"]))
    records = driver.execute_query(
        "MATCH (c:Chunk) RETURN elementId(c) AS id ORDER BY c.id").records
    ids = [r["id"] for r in records]
    step("upsert_vectors", lambda: upsert_vectors(
        driver, ids=ids, embedding_property="embedding",
        embeddings=[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.6, 0.8, 0.0]],
        entity_type=EntityType.NODE))
    out["indexes"] = [
        [r["name"], r["type"], r["labelsOrTypes"], r["properties"]]
        for r in driver.execute_query(
            "SHOW INDEXES YIELD name, type, labelsOrTypes, properties "
            "WHERE type IN ['VECTOR', 'FULLTEXT'] RETURN * ORDER BY name").records
    ]
    v = step("VectorRetriever", lambda: VectorRetriever(
        driver, "chunks", embedder=Stub(), return_properties=["text"]
    ).search(query_text="the first", top_k=2))
    if v is not None:
        out["vector"] = [[item.content, item.metadata["score"]] for item in v.items]
    c = step("VectorCypherRetriever", lambda: VectorCypherRetriever(
        driver, "chunks", embedder=Stub(),
        retrieval_query="RETURN node.id AS id, score",
    ).search(query_text="the second", top_k=3))
    if c is not None:
        out["cypher"] = [item.content for item in c.items]
    structured = step("get_structured_schema", lambda: get_structured_schema(driver))
    if structured is not None:
        out["structured"] = {
            "node_props": structured["node_props"],
            "rel_props": structured["rel_props"],
            "relationships": structured["relationships"],
            "index": [[i["label"], i["properties"], i["type"]] for i in structured["metadata"]["index"]],
            "constraint": [c["name"] for c in structured["metadata"]["constraint"]],
        }
    out["schema"] = step("get_schema", lambda: get_schema(driver))
    driver.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
