"""The official Neo4j Python driver against a grape Bolt server with several databases:
`database=` selection (bolt:// and neo4j://, whose routing table names the database), the home
database of a database user, SHOW DATABASES, refusals (an unknown database, another user's
database), and writes landing in the database named. Prints one JSON object.

Usage: databases_check.py URI  (the server serves `movies`, `companies` and the default
`neo4j`, with database users and the admin user admin/secret)
"""
import json
import sys

import neo4j

uri = sys.argv[1]
out = {}


def count(session, q="MATCH (n) RETURN count(n) AS c"):
    return session.run(q).single()["c"]


for scheme in ["bolt", "neo4j"]:
    u = uri.replace("bolt://", scheme + "://")
    r = {}
    with neo4j.GraphDatabase.driver(u, auth=("movies", "movies")) as d:
        with d.session() as s:
            res = s.run("MATCH (n) RETURN count(n) AS c, "
                        "collect(db.nameFromElementId(elementId(n)))[0] AS db")
            rec = res.single()
            r["home_count"] = rec["c"]
            r["home_element_db"] = rec["db"]
            r["home_summary_db"] = res.consume().database
        with d.session(database="MOVIES") as s:
            r["show"] = s.run("SHOW DATABASES YIELD name, home, default "
                              "RETURN name, home, default ORDER BY name").data()
        for db in ["companies", "nope"]:
            try:
                with d.session(database=db) as s:
                    s.run("RETURN 1").consume()
                r[db] = "ok"
            except neo4j.exceptions.Neo4jError as e:
                r[db] = e.code
    with neo4j.GraphDatabase.driver(u, auth=("admin", "secret")) as d:
        with d.session(database="companies") as s:
            r["admin_companies"] = count(s)
            s.execute_write(lambda tx: tx.run(f"CREATE (:Written {{by: '{scheme}'}})").consume())
            r["written_here"] = count(s, "MATCH (n:Written) RETURN count(n) AS c")
        with d.session() as s:
            r["written_default"] = count(s, "MATCH (n:Written) RETURN count(n) AS c")
            r["admin_home"] = s.run("RETURN 1").consume().database
    out[scheme] = r

print(json.dumps(out))
