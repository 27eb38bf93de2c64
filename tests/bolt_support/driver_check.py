"""Drives `grape serve bolt` with the official Neo4j Python driver; prints one JSON object of
observations for tests/bolt_python.rs to check. Usage: driver_check.py URI [QUERIES.json OUT.json]
"""
import datetime
import json
import sys

import pytz

import neo4j
from neo4j.exceptions import ClientError, CypherSyntaxError


def canon(v):
    """A value in the form tests/bolt_python.rs writes grape's own results in."""
    if isinstance(v, neo4j.graph.Node):
        d = {k: canon(x) for k, x in dict(v).items()}
        d["_labels"] = sorted(v.labels)
        return d
    if isinstance(v, neo4j.graph.Relationship):
        d = {k: canon(x) for k, x in dict(v).items()}
        d["_type"] = v.type
        return d
    if isinstance(v, neo4j.graph.Path):
        return {"_path": [canon(n) for n in v.nodes], "_rels": [canon(r) for r in v.relationships]}
    if isinstance(v, list):
        return [canon(x) for x in v]
    if isinstance(v, dict):
        return {k: canon(x) for k, x in v.items()}
    if isinstance(v, neo4j.spatial.Point):
        return {"_point": [type(v).__name__, v.srid, list(v)]}
    if hasattr(v, "iso_format"):
        return {"_temporal": v.iso_format()}
    if isinstance(v, (bytes, bytearray)):
        return {"_bytes": bytes(v).hex()}
    return v


def main():
    uri = sys.argv[1]
    out = {}
    with neo4j.GraphDatabase.driver(uri, auth=("neo4j", "secret")) as d:
        d.verify_connectivity()
        if len(sys.argv) > 2:
            queries = json.load(open(sys.argv[2]))
            results = []
            with d.session() as s:
                for q in queries:
                    try:
                        rows = [[canon(x) for x in r.values()] for r in s.run(q)]
                        results.append({"rows": rows})
                    except neo4j.exceptions.Neo4jError as e:
                        results.append({"error": e.code})
            json.dump(results, open(sys.argv[3], "w"))
            return
        recs, summary, keys = d.execute_query(
            "MATCH (p:Person) WHERE p.name STARTS WITH $prefix RETURN p.name AS name ORDER BY name",
            prefix="A",
        )
        out["keys"] = keys
        out["names"] = [r["name"] for r in recs]
        out["type"] = summary.query_type
        out["agent"] = summary.server.agent
        out["protocol"] = list(summary.server.protocol_version)
        recs, _, _ = d.execute_query(
            "MATCH p = (a:Person {name: 'Ann'})-[k:KNOWS]->(b) RETURN a, k, b, p"
        )
        r = recs[0]
        out["node"] = {"labels": sorted(r["a"].labels), "props": canon(dict(r["a"])), "element_id": r["a"].element_id}
        out["rel"] = {"type": r["k"].type, "props": canon(dict(r["k"])), "start": r["k"].start_node.element_id == r["a"].element_id}
        out["path_len"] = len(r["p"])
        recs, _, _ = d.execute_query(
            "RETURN date('2024-01-02') AS d, localtime('12:34:56.789') AS lt, time('10:00+01:00') AS t, "
            "localdatetime('2024-01-02T03:04:05') AS ldt, datetime('2024-01-02T03:04:05+02:00') AS dt, "
            "datetime({year: 2024, month: 6, day: 1, hour: 12, timezone: 'Europe/Paris'}) AS dz, "
            "duration('P1Y2M3DT4H5M6.5S') AS du, [1, 2.5, null, 'x', true] AS l, {k: {n: 1}} AS m, "
            "$p AS p, $dp AS dp, $dp.hour AS dp_hour, $dp.timezone AS dp_zone, "
            "point({x: 1, y: 2}) AS pc, point({longitude: 12.5, latitude: 55.6, height: 10}) AS pw, "
            "$pt AS pt, $pt.latitude AS pt_lat, $pt.srid AS pt_srid, "
            "round(point.distance($cph, $pt2) / 1000, 3) AS pt_km, "
            "$by AS by, apoc.util.compress('Test', {compression: 'NONE'}) AS made",
            p={"list": [1, 2.5, None, "s"], "nested": {"a": True}},
            dp=pytz.timezone("Europe/Paris").localize(datetime.datetime(2024, 6, 1, 12)),
            pt=neo4j.spatial.WGS84Point((12.5, 55.6)),
            cph=neo4j.spatial.WGS84Point((12.56459, 55.672874)),
            pt2=neo4j.spatial.WGS84Point((12.994341, 55.611784)),
            by=bytearray(b"\x00\xff"),
        )
        out["values"] = {k: canon(v) for k, v in recs[0].data().items()}
        s = d.execute_query("EXPLAIN CREATE (n:X)").summary
        out["explain_type"] = s.query_type
        out["explain_plan"] = s.plan is not None

        def ops(p):
            return [p["operatorType"].split("@")[0]] + [o for c in p.get("children", []) for o in ops(c)]

        s = d.execute_query("EXPLAIN MATCH (p:Person {name: 'Ann'})-[:KNOWS]->(f) RETURN f").summary
        out["explain_ops"] = ops(s.plan)
        out["explain_leaf_details"] = s.plan["children"][0]["children"][0]["args"].get("Details")
        recs, s, _ = d.execute_query("PROFILE MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name AS n")
        out["profile_records"] = len(recs)
        out["profile_root_rows"] = s.profile["rows"]
        out["profile_ops"] = ops(s.profile)

        def hits(p):
            return p.get("dbHits", 0) + sum(hits(c) for c in p.get("children", []))

        out["profile_db_hits"] = hits(s.profile)
        with d.session() as ses:
            tx = ses.begin_transaction()
            tx.run("CREATE (:Tmp {v: 1})").consume()
            out["in_tx"] = tx.run("MATCH (t:Tmp) RETURN count(t) AS c").single()["c"]
            tx.rollback()
            out["after_rollback"] = ses.run("MATCH (t:Tmp) RETURN count(t) AS c").single()["c"]
            created = ses.execute_write(
                lambda tx: tx.run("CREATE (:Tmp {v: 2})").consume().counters.nodes_created
            )
            out["managed_created"] = created
            out["after_commit"] = ses.run("MATCH (t:Tmp) RETURN count(t) AS c").single()["c"]
            out["read_tx"] = ses.execute_read(lambda tx: tx.run("MATCH (t:Tmp) RETURN t.v AS v").single()["v"])
            try:
                ses.execute_read(lambda tx: tx.run("CREATE (:Tmp {v: 3})").consume())
                out["write_in_read"] = "allowed"
            except ClientError as e:
                out["write_in_read"] = e.code
            try:
                ses.run("MATCH (n RETURN n").consume()
            except CypherSyntaxError as e:
                out["syntax_error"] = e.code
            try:
                ses.run("RETURN $missing + 1 AS x").consume()
            except ClientError as e:
                out["missing_param"] = e.code
            out["after_errors"] = ses.run("RETURN 1 AS one").single()["one"]
            out["counters"] = ses.run("MATCH (t:Tmp) SET t.w = 1").consume().counters.properties_set
    print(json.dumps(out))


if __name__ == "__main__":
    main()
