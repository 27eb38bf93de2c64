"""neo4j-graphrag against grape's Bolt server: indexes, vector upserts and retrievers.

Usage: graphrag_check.py BOLT_URI. Prints one JSON object: each step's outcome (`ok` or the
error) and what the retrievers returned. The embedder is a stub: no model, no network.
"""
import json
import sys

import neo4j
from neo4j_graphrag.embeddings.base import Embedder
from neo4j_graphrag.indexes import create_fulltext_index, create_vector_index, upsert_vectors
from neo4j_graphrag.llm import LLMInterface
from neo4j_graphrag.llm.types import LLMResponse
from neo4j_graphrag.retrievers import (
    HybridCypherRetriever,
    HybridRetriever,
    Text2CypherRetriever,
    VectorCypherRetriever,
    VectorRetriever,
)
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


class StubLLM(LLMInterface):
    """Answers every prompt with one Cypher query and keeps the prompts it saw."""

    def __init__(self, answer):
        super().__init__(model_name="stub")
        self.answer = answer
        self.prompts = []

    def invoke(self, input, message_history=None, system_instruction=None):
        self.prompts.append(input)
        return LLMResponse(content=self.answer)

    async def ainvoke(self, input, message_history=None, system_instruction=None):
        return self.invoke(input, message_history, system_instruction)


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
    h = step("HybridRetriever", lambda: HybridRetriever(
        driver, "chunks", "chunk_text", embedder=Stub(), return_properties=["text"]
    ).search(query_text="second chunk", top_k=3))
    if h is not None:
        out["hybrid"] = [[item.content, item.metadata["score"]] for item in h.items]
    hl = step("HybridRetriever_linear", lambda: HybridRetriever(
        driver, "chunks", "chunk_text", embedder=Stub(), return_properties=["text"]
    ).search(query_text="second third", top_k=2, ranker="linear", alpha=0.5))
    if hl is not None:
        out["hybrid_linear"] = [[item.content, item.metadata["score"]] for item in hl.items]
    hc = step("HybridCypherRetriever", lambda: HybridCypherRetriever(
        driver, "chunks", "chunk_text", embedder=Stub(),
        retrieval_query="RETURN node.id AS id, round(score, 3) AS score",
    ).search(query_text="first", top_k=2))
    if hc is not None:
        out["hybrid_cypher"] = [item.content for item in hc.items]
    bad = step("HybridRetriever_bad_query", lambda: HybridRetriever(
        driver, "chunks", "chunk_text", embedder=Stub()
    ).search(query_text="first AND", top_k=2))
    if bad is None:
        out["bad_query"] = out["steps"]["HybridRetriever_bad_query"].split(":")[0]
    llm = StubLLM("MATCH (c:Chunk)-[:NEXT]->(d:Doc) RETURN c.id AS id, d.title AS title")
    t = step("Text2CypherRetriever", lambda: Text2CypherRetriever(driver, llm).search(
        query_text="Which chunk comes before a document?"))
    if t is not None:
        out["text2cypher"] = [item.content for item in t.items]
        out["text2cypher_prompt_has_schema"] = any(
            "(:Chunk)-[:NEXT]->(:Doc)" in p for p in llm.prompts)
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
