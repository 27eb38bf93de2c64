"""The official Neo4j Python driver against a grape Bolt server whose statements name their
database with USE, and a composite database over two of its databases. Prints one JSON object.

Usage: use_check.py URI  (the server serves `neo4j`, `movies` and `companies`, and the
composite `catalog` = films: movies, firms: companies)
"""
import json
import sys

import neo4j

uri = sys.argv[1]
out = {}


def code(f):
    try:
        f()
        return "ok"
    except neo4j.exceptions.Neo4jError as e:
        return e.code


for scheme in ["bolt", "neo4j"]:
    u = uri.replace("bolt://", scheme + "://")
    r = {}
    with neo4j.GraphDatabase.driver(u, auth=("neo4j", "secret")) as d:
        with d.session() as s:
            res = s.run("USE movies MATCH (n:Movie) RETURN count(n) AS c")
            r["use_count"] = res.single()["c"]
            r["use_summary_db"] = res.consume().database
            r["here_count"] = s.run("MATCH (n) RETURN count(n) AS c").single()["c"]
            r["nope"] = code(lambda: s.run("USE nope RETURN 1").consume())
            r["two_graphs"] = code(lambda: s.run(
                "USE movies RETURN 1 AS x UNION USE companies RETURN 1 AS x").consume())
            s.run("USE companies CREATE (:Written {by: $by})", by=scheme).consume()
            r["show"] = s.run("SHOW DATABASES YIELD name, type, constituents "
                              "WHERE type <> 'system' RETURN name, type, constituents "
                              "ORDER BY name").data()
            r["by_name_here"] = code(lambda: s.run("USE graph.byName('movies') RETURN 1").consume())
            r["names_here"] = code(lambda: s.run("RETURN graph.names()").consume())

            def in_tx(tx):
                return tx.run("USE movies MATCH (n) RETURN count(n) AS c").single()["c"]
            r["tx_other_db"] = code(lambda: s.execute_read(in_tx))
        with d.session(database="companies") as s:
            r["written"] = s.run("MATCH (n:Written {by: $by}) RETURN count(n) AS c",
                                 by=scheme).single()["c"]
        with d.session(database="catalog") as s:
            r["graph_names"] = s.run("RETURN graph.names() AS g").single()["g"]
            r["props"] = s.run("RETURN graph.propertiesByName('catalog.films') AS p").single()["p"]
            r["films"] = s.run("USE catalog.films MATCH (n) RETURN count(n) AS c").single()["c"]
            r["firms"] = s.run("USE graph.byName($g) MATCH (n:Organization) RETURN n.name AS name",
                               g="catalog.firms").single()["name"]
            # Elements of the constituents, as the driver sees them.
            nodes = s.run("UNWIND graph.names() AS g CALL { USE graph.byName(g) "
                          "MATCH (n) WHERE NOT n:Written RETURN n } RETURN n").graph().nodes
            r["constituent_nodes"] = sorted(([sorted(n.labels), dict(n)] for n in nodes),
                                            key=json.dumps)
            r["no_use"] = code(lambda: s.run("MATCH (n) RETURN count(n)").consume())
    out[scheme] = r

print(json.dumps(out))
