"""langchain-neo4j against grape's Bolt server: Neo4jGraph's schema and Neo4jVector.

Usage: langchain_check.py BOLT_URI. Prints one JSON object: each step's outcome (`ok` or the
error) and what came back. The embeddings are a stub: no model, no network.
"""
import json
import sys

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_neo4j import Neo4jGraph, Neo4jVector
from langchain_neo4j.graphs.graph_document import GraphDocument, Node, Relationship


class Stub(Embeddings):
    """Maps a text to a fixed direction by a keyword."""

    def embed_documents(self, texts):
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text):
        if "first" in text:
            return [1.0, 0.0, 0.0]
        if "second" in text:
            return [0.0, 1.0, 0.0]
        return [0.0, 0.0, 1.0]


def main(uri):
    out = {"steps": {}}
    auth = {"url": uri, "username": "neo4j", "password": "secret"}

    def step(name, f):
        try:
            result = f()
            out["steps"][name] = "ok"
            return result
        except Exception as e:  # the test shows what failed
            out["steps"][name] = f"{type(e).__name__}: {e}"
            return None

    graph = step("Neo4jGraph", lambda: Neo4jGraph(**auth))
    if graph is not None:
        out["schema"] = graph.schema
        out["count"] = graph.query("MATCH (n:Chunk) RETURN count(n) AS c")[0]["c"]
    # The enhanced schema: apoc.meta.graph's virtual nodes and relationships (counts), then
    # per-property example values, ranges and options.
    enhanced = step("Neo4jGraph_enhanced", lambda: Neo4jGraph(**auth, enhanced_schema=True))
    if enhanced is not None:
        out["enhanced_schema"] = enhanced.schema
    store = step("from_texts", lambda: Neo4jVector.from_texts(
        ["the first text", "the second text", "a third text"], Stub(),
        index_name="vec", **auth))
    if store is not None:
        hits = step("similarity_search_with_score",
                    lambda: store.similarity_search_with_score("the second", k=2))
        if hits is not None:
            out["hits"] = [[d.page_content, s] for d, s in hits]
    again = step("from_existing_index", lambda: Neo4jVector.from_existing_index(
        Stub(), index_name="vec", **auth))
    if again is not None:
        found = step("similarity_search", lambda: again.similarity_search("first", k=1))
        if found is not None:
            out["found"] = [d.page_content for d in found]
    hybrid = step("hybrid_from_texts", lambda: Neo4jVector.from_texts(
        ["the first passage", "the second passage", "a third passage"], Stub(),
        index_name="passages", keyword_index_name="passage_words", search_type="hybrid",
        node_label="Passage", **auth))
    if hybrid is not None:
        hits = step("hybrid_search", lambda: hybrid.similarity_search_with_score(
            "second passage", k=3))
        if hits is not None:
            out["hybrid"] = [[d.page_content, round(s, 6)] for d, s in hits]
    existing = step("hybrid_from_existing_index", lambda: Neo4jVector.from_existing_index(
        Stub(), index_name="passages", keyword_index_name="passage_words",
        search_type="hybrid", **auth))
    if existing is not None:
        found = step("hybrid_search_existing",
                     lambda: existing.similarity_search("third (passage)!", k=1))
        if found is not None:
            out["hybrid_found"] = [d.page_content for d in found]
    # Graph construction as LLMGraphTransformer's output is stored: apoc.merge.node and
    # apoc.merge.relationship (the default), then with the base entity label and sources.
    builder = step("builder", lambda: Neo4jGraph(**auth, refresh_schema=False))
    if builder is not None:
        alice = Node(id="Alice", type="Person", properties={"age": 38})
        acme = Node(id="Acme", type="Company")
        doc = GraphDocument(
            nodes=[alice, acme],
            relationships=[Relationship(source=alice, target=acme, type="WORKS_AT",
                                        properties={"since": 2020})],
            source=Document(page_content="Alice works at Acme.", metadata={"id": "d1"}))
        step("add_graph_documents", lambda: builder.add_graph_documents([doc]))
        step("add_graph_documents_again", lambda: builder.add_graph_documents([doc]))
        bob = Node(id="Bob", type="Person")
        initech = Node(id="Initech", type="Company")
        doc2 = GraphDocument(
            nodes=[bob, initech],
            relationships=[Relationship(source=bob, target=initech, type="WORKS_AT")],
            source=Document(page_content="Bob works at Initech.", metadata={"id": "d2"}))
        step("add_graph_documents_base", lambda: builder.add_graph_documents(
            [doc2], include_source=True, baseEntityLabel=True))
        out["works_at"] = builder.query(
            "MATCH (p:Person)-[r:WORKS_AT]->(c:Company) "
            "RETURN p.id AS p, p.age AS age, r.since AS since, c.id AS c ORDER BY p")
        out["entities"] = builder.query("MATCH (n:__Entity__) RETURN n.id AS id ORDER BY id")
        out["mentions"] = builder.query(
            "MATCH (d:Document)-[:MENTIONS]->(e) RETURN d.id AS d, d.text AS text, "
            "apoc.coll.sort(collect(e.id)) AS ids")
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
