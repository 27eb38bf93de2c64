"""The flows applications run through the official Neo4j Python driver (5.x or 6.x), printed
as one line per observation so that two servers can be compared line by line
(tests/driver_flows.rs runs this against the Neo4j oracle and against `grape serve bolt`).

Usage: flows.py BOLT_URI USER PASSWORD   (the URI's host:port is reused for neo4j://)

Server-specific values (bookmarks, element ids, agents, timings) are printed by their shape
only. Every flow cleans up after itself: its nodes carry the label `Flow`.
"""

import datetime
import re
import sys
import warnings

import neo4j
from neo4j import GraphDatabase, exceptions
from neo4j.spatial import CartesianPoint, WGS84Point
from neo4j.time import Date, DateTime, Duration, Time

warnings.simplefilter("ignore")
URI, USER, PASSWORD = sys.argv[1], sys.argv[2], sys.argv[3]
HOSTPORT = URI.split("://", 1)[1]
MAJOR = int(neo4j.__version__.split(".")[0])


def out(flow, what, value):
    print(f"{flow}.{what}: {value}")


def show(v):
    """A value as this driver hands it over, server-specific ids left out."""
    if isinstance(v, neo4j.graph.Node):
        return f"(:{':'.join(sorted(v.labels))} {show(dict(v))})"
    if isinstance(v, neo4j.graph.Relationship):
        return f"[:{v.type} {show(dict(v))}]"
    if isinstance(v, neo4j.graph.Path):
        return "<" + ", ".join(show(r) for r in v.relationships) + f" len={len(v)}>"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {show(v[k])}" for k in sorted(v)) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(show(x) for x in v) + "]"
    if isinstance(v, float):
        return repr(v)
    return f"{type(v).__name__}({v!r})"


def error(e):
    """An error as an application sees it: the driver's class, Neo4j's code, the message's
    first line and, on 6.x, the GQL status."""
    parts = [type(e).__name__, getattr(e, "code", None)]
    msg = getattr(e, "message", None) or str(e)
    parts.append(msg.split("\n")[0])
    if MAJOR >= 6 and hasattr(e, "gql_status"):
        parts.append(getattr(e, "gql_status", None))
    return re.sub(r"Node\(\d+\)", "Node(<id>)", " | ".join(str(p) for p in parts))


def flow_autocommit(d):
    records, summary, keys = d.execute_query("RETURN 1 AS n, 'a' AS s, null AS z")
    out("autocommit", "keys", keys)
    out("autocommit", "record", show(dict(records[0])))
    out("autocommit", "query_type", summary.query_type)
    with d.session() as s:
        r = s.run("UNWIND [3, 1, 2] AS x RETURN x ORDER BY x")
        out("autocommit", "session.values", [x for (x,) in r.values()])
        out("autocommit", "session.consume.type", r.consume().query_type)


def flow_values(d):
    values = {
        "null": None,
        "bool": True,
        "int": -(2**62),
        "float": 1.5,
        "nan_free_float": -0.0,
        "string": "grüße ✓",
        "bytes": bytearray(b"\x00\xff\x10"),
        "list": [1, "two", [3.0]],
        "map": {"a": 1, "b": [True, None]},
        "date": Date(2024, 2, 29),
        "time": Time(12, 30, 15, 123456789, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
        "localtime": Time(23, 59, 59, 1),
        "datetime_offset": DateTime(2020, 1, 2, 3, 4, 5, 6, tzinfo=datetime.timezone(datetime.timedelta(hours=-5))),
        "localdatetime": DateTime(2020, 1, 2, 3, 4, 5, 600),
        "duration": Duration(months=14, days=3, seconds=7, nanoseconds=9),
        "point2d": CartesianPoint((1.0, 2.0)),
        "point3d": CartesianPoint((1.0, 2.0, 3.0)),
        "wgs84": WGS84Point((12.5, 55.25)),
    }
    for name, v in values.items():
        try:
            records, _, _ = d.execute_query("RETURN $v AS v, valueType($v) AS t", v=v)
            out("values", name, f"{show(records[0]['v'])} :: {records[0]['t']}")
        except Exception as e:  # noqa: BLE001 - reported as an outcome
            out("values", name, error(e))
    records, _, _ = d.execute_query(
        "RETURN datetime('2021-03-04T05:06:07.123[Europe/Paris]') AS zoned, "
        "duration.between(date('2020-01-01'), date('2021-03-04')) AS between, "
        "point({latitude: 1.5, longitude: 2.5, height: 3.5}) AS wgs3d, "
        "[1, 2.5] AS mixed, {z: 1, a: 2, m: {y: 1, b: 2}} AS keys"
    )
    for k in ["zoned", "between", "wgs3d", "mixed"]:
        out("values", "returned." + k, show(records[0][k]))
    out("values", "returned.key_order", list(records[0]["keys"].keys()) + list(records[0]["keys"]["m"].keys()))


def flow_graph(d):
    d.execute_query("MATCH (n:Flow) DETACH DELETE n")
    records, summary, _ = d.execute_query(
        "CREATE p = (a:Flow:A {x: 1, tags: ['t']})-[r:R {y: 2.5}]->(b:Flow:B) "
        "RETURN a, r, b, p, elementId(a) = a.__never AS never"
    )
    rec = records[0]
    a, r, b, p = rec["a"], rec["r"], rec["b"], rec["p"]
    out("graph", "node", show(a))
    out("graph", "relationship", show(r))
    out("graph", "path", show(p))
    out("graph", "ends", (r.start_node.element_id == a.element_id, r.end_node.element_id == b.element_id))
    out("graph", "element_id.is_str", isinstance(a.element_id, str) and len(a.element_id) > 0)
    out("graph", "counters", summary.counters)
    records, _, _ = d.execute_query(
        "MATCH (a:Flow) WHERE elementId(a) = $id RETURN a.x AS x", id=a.element_id
    )
    out("graph", "by_element_id", [r["x"] for r in records])
    d.execute_query("MATCH (n:Flow) DETACH DELETE n")


def count_flow(d):
    records, _, _ = d.execute_query("MATCH (n:Flow) RETURN count(n) AS c")
    return records[0]["c"]


def flow_transactions(d):
    d.execute_query("MATCH (n:Flow) DETACH DELETE n")
    with d.session() as s:
        tx = s.begin_transaction()
        tx.run("CREATE (:Flow {k: 'rolled back'})").consume()
        out("tx", "inside", tx.run("MATCH (n:Flow) RETURN count(n) AS c").single()["c"])
        tx.rollback()
        out("tx", "after_rollback", count_flow(d))
        with s.begin_transaction(metadata={"app": "flows"}, timeout=30) as tx:
            tx.run("CREATE (:Flow {k: 'committed'})").consume()
            meta = tx.run("CALL tx.getMetaData() YIELD metadata RETURN metadata").single()[0]
            out("tx", "metadata", show(meta))
            tx.commit()
        out("tx", "after_commit", count_flow(d))
        # A failing statement ends the transaction: the next run is refused, nothing is kept.
        tx = s.begin_transaction()
        tx.run("CREATE (:Flow {k: 'lost'})").consume()
        try:
            tx.run("RETURN 1/0").consume()
        except Exception as e:  # noqa: BLE001
            out("tx", "failure", error(e))
        try:
            tx.run("RETURN 1").consume()
        except Exception as e:  # noqa: BLE001
            out("tx", "after_failure", type(e).__name__)
        try:
            tx.rollback()
        except Exception as e:  # noqa: BLE001
            out("tx", "rollback_after_failure", type(e).__name__)
        out("tx", "kept", count_flow(d))

    def work(tx, k):
        result = tx.run("CREATE (n:Flow {k: $k}) RETURN n.k AS k", k=k)
        return [r["k"] for r in result], result.consume().counters.nodes_created

    with d.session() as s:
        out("managed", "write", s.execute_write(work, "managed"))
        out("managed", "read", s.execute_read(lambda tx: tx.run("MATCH (n:Flow) RETURN n.k AS k ORDER BY k").value()))
        attempts = []

        def retried(tx):
            attempts.append(1)
            if len(attempts) == 1:
                raise exceptions.TransientError("flows: try again")
            return tx.run("RETURN 'second try' AS r").single()["r"]

        try:
            out("managed", "retried", (s.execute_write(retried), len(attempts)))
        except Exception as e:  # noqa: BLE001
            out("managed", "retried", error(e))
    d.execute_query("MATCH (n:Flow) DETACH DELETE n")


def flow_bookmarks(d):
    with d.session() as a:
        a.run("CREATE (:Flow {k: 'bm'})").consume()
        bookmarks = a.last_bookmarks()
    out("bookmarks", "after_write", "non-empty" if list(bookmarks.raw_values) else "empty")
    with d.session(bookmarks=bookmarks) as b:
        out("bookmarks", "chained_read", b.run("MATCH (n:Flow {k: 'bm'}) RETURN count(n) AS c").single()["c"])
    manager = GraphDatabase.bookmark_manager()
    with d.session(bookmark_manager=manager) as s:
        s.run("CREATE (:Flow {k: 'bm2'})").consume()
    with d.session(bookmark_manager=manager) as s:
        out("bookmarks", "manager_read", s.run("MATCH (n:Flow) RETURN count(n) AS c").single()["c"])
    d.execute_query("MATCH (n:Flow) DETACH DELETE n")


def flow_routing():
    with GraphDatabase.driver(f"neo4j://{HOSTPORT}", auth=(USER, PASSWORD)) as r:
        r.verify_connectivity()
        records, _, _ = r.execute_query("RETURN 'routed' AS x", routing_="r")
        out("routing", "read", records[0]["x"])
        records, summary, _ = r.execute_query("CREATE (n:Flow) DELETE n RETURN 'w' AS x", routing_="w")
        out("routing", "write", (records[0]["x"], summary.counters.nodes_created, summary.counters.nodes_deleted))
        with r.session(default_access_mode=neo4j.READ_ACCESS) as s:
            out("routing", "read_session", s.run("RETURN 2 AS x").single()["x"])


def flow_streaming(d):
    with d.session(fetch_size=50) as s:
        result = s.run("UNWIND range(1, 5000) AS i RETURN i, 'row ' + toString(i) AS label")
        n, total, last = 0, 0, None
        for rec in result:
            n += 1
            total += rec["i"]
            last = rec["label"]
        out("streaming", "rows", (n, total, last))
        result = s.run("UNWIND range(1, 1000) AS i RETURN i")
        first = [result.__next__()["i"] for _ in range(3)]
        summary = result.consume()
        out("streaming", "partial_then_consume", (first, summary.query_type))


def flow_errors(d):
    d.execute_query("DROP CONSTRAINT flow_key IF EXISTS")
    d.execute_query("MATCH (n:Flow) DETACH DELETE n")
    d.execute_query("CREATE CONSTRAINT flow_key FOR (n:Flow) REQUIRE n.k IS UNIQUE")
    d.execute_query("CREATE (:Flow {k: 1})")
    cases = [
        ("syntax", "SELEC 1"),
        ("unknown_function", "RETURN nosuch.fn(1)"),
        ("unknown_procedure", "CALL nosuch.proc()"),
        ("missing_parameter", "RETURN $nope"),
        ("division_by_zero", "RETURN 1/0"),
        ("constraint", "CREATE (:Flow {k: 1})"),
        ("undefined_variable", "RETURN x"),
        ("delete_connected", "CREATE (a:Flow)-[:R]->(:Flow) WITH a DELETE a"),
        ("property_type", "CREATE (:Flow {m: {a: 1}})"),
        ("to_integer", "RETURN toInteger([1])"),
    ]
    for name, q in cases:
        try:
            d.execute_query(q)
            out("errors", name, "no error")
        except Exception as e:  # noqa: BLE001
            out("errors", name, error(e))
    d.execute_query("MATCH (n:Flow) DETACH DELETE n")
    d.execute_query("DROP CONSTRAINT flow_key IF EXISTS")
    try:
        with GraphDatabase.driver(URI, auth=(USER, PASSWORD + "-wrong")) as bad:
            bad.verify_connectivity()
        out("errors", "auth", "no error")
    except Exception as e:  # noqa: BLE001
        out("errors", "auth", error(e))
    try:
        with d.session() as s:
            s.run("CALL apoc.util.sleep(3000)", timeout=0.5).consume()
        out("errors", "timeout", "no error")
    except Exception as e:  # noqa: BLE001
        out("errors", "timeout", error(e))


def flow_summary(d):
    records, summary, _ = d.execute_query("MATCH (n:NoSuchFlowLabel) RETURN n")
    out("summary", "notifications", sorted((n.get("code"), n.get("severity"), n.get("title")) for n in (summary.notifications or [])))
    if MAJOR >= 6:
        out("summary", "gql_status", [(s.gql_status, s.status_description) for s in summary.gql_status_objects])
    _, summary, _ = d.execute_query("CREATE (a:Flow {p: 1, q: 2})-[:R]->(:Flow) SET a:Extra REMOVE a.q")
    c = summary.counters
    out("summary", "counters", (c.nodes_created, c.relationships_created, c.properties_set, c.labels_added, c.labels_removed, c.contains_updates))
    out("summary", "query_type", summary.query_type)
    _, summary, _ = d.execute_query("MATCH (n:Flow) DETACH DELETE n")
    c = summary.counters
    out("summary", "delete", (c.nodes_deleted, c.relationships_deleted, summary.query_type))
    _, summary, _ = d.execute_query("CREATE INDEX flow_idx IF NOT EXISTS FOR (n:Flow) ON (n.p)")
    out("summary", "schema", (summary.counters.indexes_added, summary.query_type))
    _, summary, _ = d.execute_query("DROP INDEX flow_idx")
    out("summary", "schema_drop", (summary.counters.indexes_removed, summary.counters.contains_system_updates))

    def ops(plan):
        if plan is None:
            return None
        op = plan.get("operatorType") if isinstance(plan, dict) else plan.operator_type
        kids = plan.get("children", []) if isinstance(plan, dict) else plan.children
        return [op.split("@")[0]] + [ops(k) for k in kids]

    _, summary, _ = d.execute_query("EXPLAIN MATCH (n:Flow) RETURN n.p AS p")
    out("summary", "explain", ops(summary.plan))
    _, summary, _ = d.execute_query("PROFILE UNWIND range(1, 3) AS i RETURN i")
    prof = summary.profile
    out("summary", "profile", (ops(prof), prof.get("rows") if isinstance(prof, dict) else None))


def main():
    with GraphDatabase.driver(URI, auth=(USER, PASSWORD)) as d:
        d.verify_connectivity()
        for f in [flow_autocommit, flow_values, flow_graph, flow_transactions, flow_bookmarks, flow_streaming, flow_errors, flow_summary]:
            try:
                f(d)
            except Exception as e:  # noqa: BLE001 - a broken flow is an outcome too
                out(f.__name__, "broken", error(e))
    try:
        flow_routing()
    except Exception as e:  # noqa: BLE001
        out("routing", "broken", error(e))


main()
