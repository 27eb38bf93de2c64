// The flows applications run through the official Neo4j Java driver (5.x or 6.x), printed as
// one line per observation so that two servers can be compared line by line
// (tests/driver_flows.rs runs this against the Neo4j oracle and against `grape serve bolt`).
//
// Usage: java -cp DRIVER_CLASSPATH:. Flows BOLT_URI USER PASSWORD
//
// Server-specific values (bookmarks, element ids, agents, timings) are printed by their shape
// only. Every flow cleans up after itself: its nodes carry the label `Flow`.

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.neo4j.driver.AccessMode;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.BookmarkManagers;
import org.neo4j.driver.BookmarkManagerConfig;
import org.neo4j.driver.Driver;
import org.neo4j.driver.EagerResult;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Record;
import org.neo4j.driver.Result;
import org.neo4j.driver.RoutingControl;
import org.neo4j.driver.QueryConfig;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.Transaction;
import org.neo4j.driver.TransactionConfig;
import org.neo4j.driver.Value;
import org.neo4j.driver.Values;
import org.neo4j.driver.exceptions.TransientException;
import org.neo4j.driver.summary.Plan;
import org.neo4j.driver.summary.ResultSummary;
import org.neo4j.driver.summary.SummaryCounters;
import org.neo4j.driver.types.Node;
import org.neo4j.driver.types.Path;
import org.neo4j.driver.types.Relationship;

public class Flows {
    static String uri, user, password;
    static int major;

    static void out(String flow, String what, Object value) {
        System.out.println(flow + "." + what + ": " + value);
    }

    static String show(Value v) {
        String type = v.type().name();
        switch (type) {
            case "NULL": return "null";
            case "NODE": {
                Node n = v.asNode();
                TreeSet<String> labels = new TreeSet<>();
                n.labels().forEach(labels::add);
                return "(:" + String.join(":", labels) + " " + showMap(n.asMap(Values::value)) + ")";
            }
            case "RELATIONSHIP": {
                Relationship r = v.asRelationship();
                return "[:" + r.type() + " " + showMap(r.asMap(Values::value)) + "]";
            }
            case "PATH": {
                Path p = v.asPath();
                List<String> rels = new ArrayList<>();
                p.relationships().forEach(r -> rels.add("[:" + r.type() + " " + showMap(r.asMap(Values::value)) + "]"));
                return "<" + String.join(", ", rels) + " len=" + p.length() + ">";
            }
            case "LIST": return "[" + v.asList(Flows::show).stream().collect(Collectors.joining(", ")) + "]";
            case "MAP": return showMap(v.asMap(x -> x));
            case "BYTES": return "bytes" + Arrays.toString(v.asByteArray());
            default: return type + "(" + v.asObject() + ")";
        }
    }

    static String showMap(Map<String, Value> m) {
        return "{" + m.entrySet().stream().map(e -> e.getKey() + ": " + show(e.getValue())).collect(Collectors.joining(", ")) + "}";
    }

    static String error(Throwable e) {
        StringBuilder b = new StringBuilder(e.getClass().getSimpleName());
        String code = null;
        try { code = (String) e.getClass().getMethod("code").invoke(e); } catch (Exception ignored) { }
        b.append(" | ").append(code);
        String msg = String.valueOf(e.getMessage());
        b.append(" | ").append(msg.split("\n")[0]);
        if (major >= 6) {
            try { b.append(" | ").append(e.getClass().getMethod("gqlStatus").invoke(e)); } catch (Exception ignored) { }
        }
        return b.toString().replaceAll("Node\\(\\d+\\)", "Node(<id>)");
    }

    static long count(Driver d) {
        return d.executableQuery("MATCH (n:Flow) RETURN count(n) AS c").execute().records().get(0).get("c").asLong();
    }

    static void autocommit(Driver d) {
        EagerResult r = d.executableQuery("RETURN 1 AS n, 'a' AS s, null AS z").execute();
        out("autocommit", "keys", r.keys());
        out("autocommit", "record", showMap(r.records().get(0).asMap(Values::value)));
        out("autocommit", "query_type", r.summary().queryType());
        try (Session s = d.session()) {
            Result res = s.run("UNWIND [3, 1, 2] AS x RETURN x ORDER BY x");
            out("autocommit", "session.values", res.list(x -> x.get("x").asLong()));
            out("autocommit", "session.consume.type", res.consume().queryType());
        }
    }

    static void values(Driver d) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("null", null);
        values.put("bool", true);
        values.put("int", -(1L << 62));
        values.put("float", 1.5);
        values.put("nan_free_float", -0.0);
        values.put("string", "grüße ✓");
        values.put("bytes", new byte[] {0, -1, 16});
        values.put("list", Arrays.asList(1L, "two", Arrays.asList(3.5)));
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("a", 1L);
        map.put("b", Arrays.asList(true, null));
        values.put("map", map);
        values.put("date", LocalDate.of(2024, 2, 29));
        values.put("time", OffsetTime.of(12, 30, 15, 123456789, ZoneOffset.ofHours(2)));
        values.put("localtime", LocalTime.of(23, 59, 59, 1000));
        values.put("datetime_offset", OffsetDateTime.of(2020, 1, 2, 3, 4, 5, 6000, ZoneOffset.ofHours(-5)));
        values.put("localdatetime", LocalDateTime.of(2020, 1, 2, 3, 4, 5, 600000));
        values.put("duration", Values.isoDuration(14, 3, 7, 9).asIsoDuration());
        values.put("point2d", Values.point(7203, 1.0, 2.0).asPoint());
        values.put("point3d", Values.point(9157, 1.0, 2.0, 3.0).asPoint());
        values.put("wgs84", Values.point(4326, 12.5, 55.25).asPoint());
        for (Map.Entry<String, Object> e : values.entrySet()) {
            try {
                Map<String, Object> params = new LinkedHashMap<>();
                params.put("v", e.getValue());
                Record r = d.executableQuery("RETURN $v AS v, valueType($v) AS t").withParameters(params).execute().records().get(0);
                out("values", e.getKey(), show(r.get("v")) + " :: " + r.get("t").asString());
            } catch (Exception ex) {
                out("values", e.getKey(), error(ex));
            }
        }
        Record r = d.executableQuery("RETURN datetime('2021-03-04T05:06:07.123[Europe/Paris]') AS zoned, "
                + "duration.between(date('2020-01-01'), date('2021-03-04')) AS between, "
                + "point({latitude: 1.5, longitude: 2.5, height: 3.5}) AS wgs3d, "
                + "[1, 2.5] AS mixed, {z: 1, a: 2, m: {y: 1, b: 2}} AS keys").execute().records().get(0);
        for (String k : List.of("zoned", "between", "wgs3d", "mixed")) out("values", "returned." + k, show(r.get(k)));
        List<String> keys = new ArrayList<>();
        r.get("keys").keys().forEach(keys::add);
        r.get("keys").get("m").keys().forEach(keys::add);
        out("values", "returned.key_order", keys);
    }

    static void graph(Driver d) {
        d.executableQuery("MATCH (n:Flow) DETACH DELETE n").execute();
        EagerResult res = d.executableQuery("CREATE p = (a:Flow:A {x: 1, tags: ['t']})-[r:R {y: 2.5}]->(b:Flow:B) RETURN a, r, b, p").execute();
        Record rec = res.records().get(0);
        Node a = rec.get("a").asNode();
        Relationship r = rec.get("r").asRelationship();
        Node b = rec.get("b").asNode();
        out("graph", "node", show(rec.get("a")));
        out("graph", "relationship", show(rec.get("r")));
        out("graph", "path", show(rec.get("p")));
        out("graph", "ends", r.startNodeElementId().equals(a.elementId()) + "," + r.endNodeElementId().equals(b.elementId()));
        out("graph", "element_id.is_str", !a.elementId().isEmpty());
        SummaryCounters c = res.summary().counters();
        out("graph", "counters", c.nodesCreated() + "," + c.relationshipsCreated() + "," + c.propertiesSet() + "," + c.labelsAdded());
        List<Record> byId = d.executableQuery("MATCH (a:Flow) WHERE elementId(a) = $id RETURN a.x AS x")
                .withParameters(Map.of("id", a.elementId())).execute().records();
        out("graph", "by_element_id", byId.stream().map(x -> show(x.get("x"))).collect(Collectors.toList()));
        d.executableQuery("MATCH (n:Flow) DETACH DELETE n").execute();
    }

    static void transactions(Driver d) {
        d.executableQuery("MATCH (n:Flow) DETACH DELETE n").execute();
        try (Session s = d.session()) {
            Transaction tx = s.beginTransaction();
            tx.run("CREATE (:Flow {k: 'rolled back'})").consume();
            out("tx", "inside", tx.run("MATCH (n:Flow) RETURN count(n) AS c").single().get("c").asLong());
            tx.rollback();
            out("tx", "after_rollback", count(d));
            TransactionConfig cfg = TransactionConfig.builder().withMetadata(Map.of("app", "flows")).withTimeout(Duration.ofSeconds(30)).build();
            try (Transaction t2 = s.beginTransaction(cfg)) {
                t2.run("CREATE (:Flow {k: 'committed'})").consume();
                out("tx", "metadata", show(t2.run("CALL tx.getMetaData() YIELD metadata RETURN metadata").single().get(0)));
                t2.commit();
            }
            out("tx", "after_commit", count(d));
            Transaction t3 = s.beginTransaction();
            t3.run("CREATE (:Flow {k: 'lost'})").consume();
            try { t3.run("RETURN 1/0").consume(); } catch (Exception e) { out("tx", "failure", error(e)); }
            try { t3.run("RETURN 1").consume(); } catch (Exception e) { out("tx", "after_failure", e.getClass().getSimpleName()); }
            try { t3.rollback(); } catch (Exception e) { out("tx", "rollback_after_failure", e.getClass().getSimpleName()); }
            out("tx", "kept", count(d));
        }
        try (Session s = d.session()) {
            String w = s.executeWrite(tx -> {
                Result r = tx.run("CREATE (n:Flow {k: $k}) RETURN n.k AS k", Map.of("k", "managed"));
                List<String> ks = r.list(x -> x.get("k").asString());
                return ks + "," + r.consume().counters().nodesCreated();
            });
            out("managed", "write", w);
            out("managed", "read", s.executeRead(tx -> tx.run("MATCH (n:Flow) RETURN n.k AS k ORDER BY k").list(x -> x.get("k").asString())));
            int[] attempts = {0};
            try {
                String r = s.executeWrite(tx -> {
                    attempts[0]++;
                    if (attempts[0] == 1) throw new TransientException("Neo.TransientError.General.DatabaseUnavailable", "flows: try again");
                    return tx.run("RETURN 'second try' AS r").single().get("r").asString();
                });
                out("managed", "retried", r + "," + attempts[0]);
            } catch (Exception e) {
                out("managed", "retried", error(e));
            }
        }
        d.executableQuery("MATCH (n:Flow) DETACH DELETE n").execute();
    }

    static void bookmarks(Driver d) {
        var bookmarks = new java.util.HashSet<org.neo4j.driver.Bookmark>();
        try (Session a = d.session()) {
            a.run("CREATE (:Flow {k: 'bm'})").consume();
            bookmarks.addAll(a.lastBookmarks());
        }
        out("bookmarks", "after_write", bookmarks.isEmpty() ? "empty" : "non-empty");
        try (Session b = d.session(SessionConfig.builder().withBookmarks(bookmarks).build())) {
            out("bookmarks", "chained_read", b.run("MATCH (n:Flow {k: 'bm'}) RETURN count(n) AS c").single().get("c").asLong());
        }
        var manager = BookmarkManagers.defaultManager(BookmarkManagerConfig.builder().build());
        try (Session s = d.session(SessionConfig.builder().withBookmarkManager(manager).build())) {
            s.run("CREATE (:Flow {k: 'bm2'})").consume();
        }
        try (Session s = d.session(SessionConfig.builder().withBookmarkManager(manager).build())) {
            out("bookmarks", "manager_read", s.run("MATCH (n:Flow) RETURN count(n) AS c").single().get("c").asLong());
        }
        d.executableQuery("MATCH (n:Flow) DETACH DELETE n").execute();
    }

    static void routing() {
        String host = uri.substring(uri.indexOf("://") + 3);
        try (Driver r = GraphDatabase.driver("neo4j://" + host, AuthTokens.basic(user, password))) {
            r.verifyConnectivity();
            EagerResult res = r.executableQuery("RETURN 'routed' AS x").withConfig(QueryConfig.builder().withRouting(RoutingControl.READ).build()).execute();
            out("routing", "read", res.records().get(0).get("x").asString());
            res = r.executableQuery("CREATE (n:Flow) DELETE n RETURN 'w' AS x").withConfig(QueryConfig.builder().withRouting(RoutingControl.WRITE).build()).execute();
            out("routing", "write", res.records().get(0).get("x").asString() + "," + res.summary().counters().nodesCreated() + "," + res.summary().counters().nodesDeleted());
            try (Session s = r.session(SessionConfig.builder().withDefaultAccessMode(AccessMode.READ).build())) {
                out("routing", "read_session", s.run("RETURN 2 AS x").single().get("x").asLong());
            }
        }
    }

    static void streaming(Driver d) {
        try (Session s = d.session(SessionConfig.builder().withFetchSize(50).build())) {
            Result r = s.run("UNWIND range(1, 5000) AS i RETURN i, 'row ' + toString(i) AS label");
            long n = 0, total = 0;
            String last = null;
            while (r.hasNext()) {
                Record rec = r.next();
                n++;
                total += rec.get("i").asLong();
                last = rec.get("label").asString();
            }
            out("streaming", "rows", n + "," + total + "," + last);
            Result r2 = s.run("UNWIND range(1, 1000) AS i RETURN i");
            List<Long> first = new ArrayList<>();
            for (int i = 0; i < 3; i++) first.add(r2.next().get("i").asLong());
            out("streaming", "partial_then_consume", first + "," + r2.consume().queryType());
        }
    }

    static void errors(Driver d) {
        d.executableQuery("DROP CONSTRAINT flow_key IF EXISTS").execute();
        d.executableQuery("MATCH (n:Flow) DETACH DELETE n").execute();
        d.executableQuery("CREATE CONSTRAINT flow_key FOR (n:Flow) REQUIRE n.k IS UNIQUE").execute();
        d.executableQuery("CREATE (:Flow {k: 1})").execute();
        String[][] cases = {
            {"syntax", "SELEC 1"},
            {"unknown_function", "RETURN nosuch.fn(1)"},
            {"unknown_procedure", "CALL nosuch.proc()"},
            {"missing_parameter", "RETURN $nope"},
            {"division_by_zero", "RETURN 1/0"},
            {"constraint", "CREATE (:Flow {k: 1})"},
            {"undefined_variable", "RETURN x"},
            {"delete_connected", "CREATE (a:Flow)-[:R]->(:Flow) WITH a DELETE a"},
            {"property_type", "CREATE (:Flow {m: {a: 1}})"},
            {"to_integer", "RETURN toInteger([1])"},
        };
        for (String[] c : cases) {
            try {
                d.executableQuery(c[1]).execute();
                out("errors", c[0], "no error");
            } catch (Exception e) {
                out("errors", c[0], error(e));
            }
        }
        d.executableQuery("MATCH (n:Flow) DETACH DELETE n").execute();
        d.executableQuery("DROP CONSTRAINT flow_key IF EXISTS").execute();
        try (Driver bad = GraphDatabase.driver(uri, AuthTokens.basic(user, password + "-wrong"))) {
            bad.verifyConnectivity();
            out("errors", "auth", "no error");
        } catch (Exception e) {
            out("errors", "auth", error(e));
        }
        try (Session s = d.session()) {
            s.run("CALL apoc.util.sleep(3000)", TransactionConfig.builder().withTimeout(Duration.ofMillis(500)).build()).consume();
            out("errors", "timeout", "no error");
        } catch (Exception e) {
            out("errors", "timeout", error(e));
        }
    }

    static String ops(Plan p) {
        if (p == null) return "null";
        List<String> parts = new ArrayList<>();
        parts.add(p.operatorType().split("@")[0]);
        for (Plan c : p.children()) parts.add(ops(c));
        return parts.toString();
    }

    static void summary(Driver d) {
        ResultSummary s = d.executableQuery("MATCH (n:NoSuchFlowLabel) RETURN n").execute().summary();
        List<String> notes = s.notifications().stream().map(n -> n.code() + "," + n.rawSeverityLevel().orElse(null) + "," + n.title()).sorted().collect(Collectors.toList());
        out("summary", "notifications", notes);
        s = d.executableQuery("CREATE (a:Flow {p: 1, q: 2})-[:R]->(:Flow) SET a:Extra REMOVE a.q").execute().summary();
        SummaryCounters c = s.counters();
        out("summary", "counters", c.nodesCreated() + "," + c.relationshipsCreated() + "," + c.propertiesSet() + "," + c.labelsAdded() + "," + c.labelsRemoved() + "," + c.containsUpdates());
        out("summary", "query_type", s.queryType());
        s = d.executableQuery("MATCH (n:Flow) DETACH DELETE n").execute().summary();
        out("summary", "delete", s.counters().nodesDeleted() + "," + s.counters().relationshipsDeleted() + "," + s.queryType());
        s = d.executableQuery("CREATE INDEX flow_idx IF NOT EXISTS FOR (n:Flow) ON (n.p)").execute().summary();
        out("summary", "schema", s.counters().indexesAdded() + "," + s.queryType());
        s = d.executableQuery("DROP INDEX flow_idx").execute().summary();
        out("summary", "schema_drop", s.counters().indexesRemoved() + "," + s.counters().containsSystemUpdates());
        s = d.executableQuery("EXPLAIN MATCH (n:Flow) RETURN n.p AS p").execute().summary();
        out("summary", "explain", ops(s.plan()));
        s = d.executableQuery("PROFILE UNWIND range(1, 3) AS i RETURN i").execute().summary();
        out("summary", "profile", ops(s.profile()) + "," + s.profile().records());
    }

    interface Flow { void run(Driver d) throws Exception; }

    public static void main(String[] args) throws Exception {
        uri = args[0];
        user = args[1];
        password = args[2];
        String version = Driver.class.getPackage().getImplementationVersion();
        major = version == null ? 5 : Integer.parseInt(version.split("\\.")[0]);
        try (Driver d = GraphDatabase.driver(uri, AuthTokens.basic(user, password))) {
            d.verifyConnectivity();
            Map<String, Flow> flows = new LinkedHashMap<>();
            flows.put("autocommit", Flows::autocommit);
            flows.put("values", Flows::values);
            flows.put("graph", Flows::graph);
            flows.put("transactions", Flows::transactions);
            flows.put("bookmarks", Flows::bookmarks);
            flows.put("streaming", Flows::streaming);
            flows.put("errors", Flows::errors);
            flows.put("summary", Flows::summary);
            for (Map.Entry<String, Flow> f : flows.entrySet()) {
                try { f.getValue().run(d); } catch (Exception e) { out(f.getKey(), "broken", error(e)); }
            }
        }
        try { routing(); } catch (Exception e) { out("routing", "broken", error(e)); }
    }
}
