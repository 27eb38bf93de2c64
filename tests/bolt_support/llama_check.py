"""llama-index's Neo4jPropertyGraphStore against grape's Bolt server: schema, upserts, get,
triplets, structured and vector queries, delete.

Usage: llama_check.py BOLT_URI. Prints one JSON object: each step's outcome (`ok` or the
error) and what came back. Embeddings are given: no model, no network.
"""
import json
import sys

from llama_index.core.graph_stores.types import ChunkNode, EntityNode, Relation
from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.graph_stores.neo4j import Neo4jPropertyGraphStore


def main(uri):
    out = {"steps": {}}

    def step(name, f):
        try:
            result = f()
            out["steps"][name] = "ok"
            return result
        except Exception as e:  # the test shows what failed
            out["steps"][name] = f"{type(e).__name__}: {e}"
            return None

    store = step("init", lambda: Neo4jPropertyGraphStore(
        username="neo4j", password="secret", url=uri, refresh_schema=True))
    if store is None:
        print(json.dumps(out))
        return
    alice = EntityNode(name="Alice", label="PERSON", properties={"age": 38},
                       embedding=[1.0, 0.0, 0.0])
    acme = EntityNode(name="Acme", label="COMPANY", embedding=[0.0, 1.0, 0.0])
    bob = EntityNode(name="Bob", label="PERSON", embedding=[0.6, 0.8, 0.0])
    chunk = ChunkNode(text="Alice and Bob work at Acme.", id_="c1")
    step("upsert_nodes", lambda: store.upsert_nodes([alice, acme, bob, chunk]))
    step("upsert_relations", lambda: store.upsert_relations([
        Relation(label="WORKS_AT", source_id=alice.id, target_id=acme.id,
                 properties={"since": 2020}),
        Relation(label="WORKS_AT", source_id=bob.id, target_id=acme.id),
        Relation(label="MENTIONS", source_id=chunk.id, target_id=alice.id),
    ]))
    got = step("get", lambda: store.get(ids=[alice.id]))
    if got is not None:
        out["get"] = [[n.name, n.label, n.properties.get("age")] for n in got]
    by_props = step("get_properties", lambda: store.get(properties={"name": "Acme"}))
    if by_props is not None:
        out["get_properties"] = sorted(n.id for n in by_props)
    trip = step("get_triplets", lambda: store.get_triplets(entity_names=["Alice", "Bob"]))
    if trip is not None:
        out["triplets"] = sorted([s.id, r.label, t.id] for s, r, t in trip)
    q = step("structured_query", lambda: store.structured_query(
        "MATCH (p:PERSON)-[w:WORKS_AT]->(c:COMPANY) RETURN p.name AS p, w.since AS since, "
        "c.name AS c ORDER BY p"))
    out["structured"] = q
    vq = step("vector_query", lambda: store.vector_query(
        VectorStoreQuery(query_embedding=[1.0, 0.0, 0.0], similarity_top_k=2)))
    if vq is not None:
        nodes, scores = vq
        out["vector"] = [[n.id, round(s, 4)] for n, s in zip(nodes, scores)]
    step("refresh_schema", lambda: store.refresh_schema())
    out["schema"] = step("get_schema_str", lambda: store.get_schema_str())
    step("delete", lambda: store.delete(entity_names=["Bob"]))
    out["after_delete"] = store.structured_query(
        "MATCH (n:__Entity__) RETURN n.name AS name ORDER BY name")
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    main(sys.argv[1])
