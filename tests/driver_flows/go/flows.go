// The flows applications run through the official Neo4j Go driver (v5), printed as one line
// per observation so that two servers can be compared line by line (tests/driver_flows.rs
// runs this against the Neo4j oracle and against `grape serve bolt`).
//
// Usage: flows BOLT_URI USER PASSWORD
//
// Server-specific values (bookmarks, element ids, agents, timings) are printed by their shape
// only. Every flow cleans up after itself: its nodes carry the label `Flow`.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

var (
	uri, user, password string
	ctx                 = context.Background()
	nodeID              = regexp.MustCompile(`Node\(\d+\)`)
)

func out(flow, what string, value any) {
	fmt.Printf("%s.%s: %v\n", flow, what, value)
}

func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case dbtype.Node:
		labels := append([]string{}, x.Labels...)
		sort.Strings(labels)
		return "(:" + strings.Join(labels, ":") + " " + show(x.Props) + ")"
	case dbtype.Relationship:
		return "[:" + x.Type + " " + show(x.Props) + "]"
	case dbtype.Path:
		rels := []string{}
		for _, r := range x.Relationships {
			rels = append(rels, show(r))
		}
		return fmt.Sprintf("<%s len=%d>", strings.Join(rels, ", "), len(x.Relationships))
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := []string{}
		for _, k := range keys {
			parts = append(parts, k+": "+show(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := []string{}
		for _, e := range x {
			parts = append(parts, show(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []byte:
		return fmt.Sprintf("bytes%v", x)
	case time.Time:
		return fmt.Sprintf("time.Time(%s)", x.Format(time.RFC3339Nano))
	default:
		return fmt.Sprintf("%T(%v)", v, v)
	}
}

func errorText(err error) string {
	var ne *neo4j.Neo4jError
	if errors.As(err, &ne) {
		return nodeID.ReplaceAllString(fmt.Sprintf("Neo4jError | %s | %s", ne.Code, strings.SplitN(ne.Msg, "\n", 2)[0]), "Node(<id>)")
	}
	return nodeID.ReplaceAllString(fmt.Sprintf("%T | %s", err, strings.SplitN(err.Error(), "\n", 2)[0]), "Node(<id>)")
}

func query(d neo4j.DriverWithContext, q string, params map[string]any) (*neo4j.EagerResult, error) {
	return neo4j.ExecuteQuery(ctx, d, q, params, neo4j.EagerResultTransformer)
}

func must(r *neo4j.EagerResult, err error) *neo4j.EagerResult {
	if err != nil {
		panic(err)
	}
	return r
}

func count(d neo4j.DriverWithContext) any {
	return must(query(d, "MATCH (n:Flow) RETURN count(n) AS c", nil)).Records[0].Values[0]
}

func autocommit(d neo4j.DriverWithContext) {
	r := must(query(d, "RETURN 1 AS n, 'a' AS s, null AS z", nil))
	out("autocommit", "keys", r.Keys)
	out("autocommit", "record", show(r.Records[0].AsMap()))
	out("autocommit", "query_type", r.Summary.StatementType())
	s := d.NewSession(ctx, neo4j.SessionConfig{})
	defer s.Close(ctx)
	res, err := s.Run(ctx, "UNWIND [3, 1, 2] AS x RETURN x ORDER BY x", nil)
	if err != nil {
		panic(err)
	}
	recs, _ := res.Collect(ctx)
	vals := []any{}
	for _, rec := range recs {
		vals = append(vals, rec.Values[0])
	}
	out("autocommit", "session.values", show(vals))
	sum, _ := res.Consume(ctx)
	out("autocommit", "session.consume.type", sum.StatementType())
}

func values(d neo4j.DriverWithContext) {
	plus2 := time.FixedZone("Offset", 2*3600)
	minus5 := time.FixedZone("Offset", -5*3600)
	cases := []struct {
		name string
		v    any
	}{
		{"null", nil},
		{"bool", true},
		{"int", int64(-(1 << 62))},
		{"float", 1.5},
		{"string", "grüße ✓"},
		{"bytes", []byte{0, 255, 16}},
		{"list", []any{int64(1), "two", []any{3.5}}},
		{"map", map[string]any{"a": int64(1), "b": []any{true, nil}}},
		{"date", dbtype.Date(time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC))},
		{"time", dbtype.Time(time.Date(0, 1, 1, 12, 30, 15, 123456789, plus2))},
		{"localtime", dbtype.LocalTime(time.Date(0, 1, 1, 23, 59, 59, 1000, time.UTC))},
		{"datetime_offset", time.Date(2020, 1, 2, 3, 4, 5, 6000, minus5)},
		{"localdatetime", dbtype.LocalDateTime(time.Date(2020, 1, 2, 3, 4, 5, 600000, time.UTC))},
		{"duration", dbtype.Duration{Months: 14, Days: 3, Seconds: 7, Nanos: 9}},
		{"point2d", dbtype.Point2D{X: 1, Y: 2, SpatialRefId: 7203}},
		{"point3d", dbtype.Point3D{X: 1, Y: 2, Z: 3, SpatialRefId: 9157}},
		{"wgs84", dbtype.Point2D{X: 12.5, Y: 55.25, SpatialRefId: 4326}},
	}
	for _, c := range cases {
		r, err := query(d, "RETURN $v AS v, valueType($v) AS t", map[string]any{"v": c.v})
		if err != nil {
			out("values", c.name, errorText(err))
			continue
		}
		out("values", c.name, fmt.Sprintf("%s :: %v", show(r.Records[0].Values[0]), r.Records[0].Values[1]))
	}
	r := must(query(d, "RETURN datetime('2021-03-04T05:06:07.123[Europe/Paris]') AS zoned, "+
		"duration.between(date('2020-01-01'), date('2021-03-04')) AS between, "+
		"point({latitude: 1.5, longitude: 2.5, height: 3.5}) AS wgs3d, [1, 2.5] AS mixed", nil))
	for i, k := range r.Keys {
		out("values", "returned."+k, show(r.Records[0].Values[i]))
	}
}

func graph(d neo4j.DriverWithContext) {
	must(query(d, "MATCH (n:Flow) DETACH DELETE n", nil))
	r := must(query(d, "CREATE p = (a:Flow:A {x: 1, tags: ['t']})-[r:R {y: 2.5}]->(b:Flow:B) RETURN a, r, b, p", nil))
	rec := r.Records[0]
	a := rec.Values[0].(dbtype.Node)
	rel := rec.Values[1].(dbtype.Relationship)
	b := rec.Values[2].(dbtype.Node)
	out("graph", "node", show(a))
	out("graph", "relationship", show(rel))
	out("graph", "path", show(rec.Values[3]))
	out("graph", "ends", fmt.Sprint(rel.StartElementId == a.ElementId, ",", rel.EndElementId == b.ElementId))
	out("graph", "element_id.is_str", a.ElementId != "")
	c := r.Summary.Counters()
	out("graph", "counters", fmt.Sprint(c.NodesCreated(), ",", c.RelationshipsCreated(), ",", c.PropertiesSet(), ",", c.LabelsAdded()))
	byID := must(query(d, "MATCH (a:Flow) WHERE elementId(a) = $id RETURN a.x AS x", map[string]any{"id": a.ElementId}))
	ids := []any{}
	for _, x := range byID.Records {
		ids = append(ids, x.Values[0])
	}
	out("graph", "by_element_id", show(ids))
	must(query(d, "MATCH (n:Flow) DETACH DELETE n", nil))
}

func transactions(d neo4j.DriverWithContext) {
	must(query(d, "MATCH (n:Flow) DETACH DELETE n", nil))
	s := d.NewSession(ctx, neo4j.SessionConfig{})
	tx, err := s.BeginTransaction(ctx)
	if err != nil {
		panic(err)
	}
	if _, err := tx.Run(ctx, "CREATE (:Flow {k: 'rolled back'})", nil); err != nil {
		panic(err)
	}
	res, _ := tx.Run(ctx, "MATCH (n:Flow) RETURN count(n) AS c", nil)
	single, _ := res.Single(ctx)
	out("tx", "inside", single.Values[0])
	_ = tx.Rollback(ctx)
	out("tx", "after_rollback", count(d))
	tx, _ = s.BeginTransaction(ctx, neo4j.WithTxMetadata(map[string]any{"app": "flows"}), neo4j.WithTxTimeout(30*time.Second))
	_, _ = tx.Run(ctx, "CREATE (:Flow {k: 'committed'})", nil)
	res, err = tx.Run(ctx, "CALL tx.getMetaData() YIELD metadata RETURN metadata", nil)
	if err != nil {
		out("tx", "metadata", errorText(err))
	} else if m, err := res.Single(ctx); err != nil {
		out("tx", "metadata", errorText(err))
	} else {
		out("tx", "metadata", show(m.Values[0]))
	}
	_ = tx.Commit(ctx)
	out("tx", "after_commit", count(d))
	tx, _ = s.BeginTransaction(ctx)
	_, _ = tx.Run(ctx, "CREATE (:Flow {k: 'lost'})", nil)
	if res, err := tx.Run(ctx, "RETURN 1/0", nil); err != nil {
		out("tx", "failure", errorText(err))
	} else if _, err := res.Consume(ctx); err != nil {
		out("tx", "failure", errorText(err))
	}
	if _, err := tx.Run(ctx, "RETURN 1", nil); err != nil {
		out("tx", "after_failure", fmt.Sprintf("%T", err))
	}
	if err := tx.Rollback(ctx); err != nil {
		out("tx", "rollback_after_failure", fmt.Sprintf("%T", err))
	}
	out("tx", "kept", count(d))
	s.Close(ctx)

	s = d.NewSession(ctx, neo4j.SessionConfig{})
	defer s.Close(ctx)
	w, err := neo4j.ExecuteWrite(ctx, s, func(tx neo4j.ManagedTransaction) (string, error) {
		r, err := tx.Run(ctx, "CREATE (n:Flow {k: $k}) RETURN n.k AS k", map[string]any{"k": "managed"})
		if err != nil {
			return "", err
		}
		recs, err := r.Collect(ctx)
		if err != nil {
			return "", err
		}
		sum, _ := r.Consume(ctx)
		return fmt.Sprint(recs[0].Values[0], ",", sum.Counters().NodesCreated()), nil
	})
	if err != nil {
		out("managed", "write", errorText(err))
	} else {
		out("managed", "write", w)
	}
	rd, err := neo4j.ExecuteRead(ctx, s, func(tx neo4j.ManagedTransaction) (string, error) {
		r, err := tx.Run(ctx, "MATCH (n:Flow) RETURN n.k AS k ORDER BY k", nil)
		if err != nil {
			return "", err
		}
		recs, err := r.Collect(ctx)
		ks := []any{}
		for _, rec := range recs {
			ks = append(ks, rec.Values[0])
		}
		return show(ks), err
	})
	if err != nil {
		out("managed", "read", errorText(err))
	} else {
		out("managed", "read", rd)
	}
	attempts := 0
	retried, err := neo4j.ExecuteWrite(ctx, s, func(tx neo4j.ManagedTransaction) (string, error) {
		attempts++
		if attempts == 1 {
			return "", &neo4j.Neo4jError{Code: "Neo.TransientError.General.DatabaseUnavailable", Msg: "flows: try again"}
		}
		r, err := tx.Run(ctx, "RETURN 'second try' AS r", nil)
		if err != nil {
			return "", err
		}
		rec, err := r.Single(ctx)
		if err != nil {
			return "", err
		}
		return rec.Values[0].(string), nil
	})
	if err != nil {
		out("managed", "retried", errorText(err))
	} else {
		out("managed", "retried", fmt.Sprint(retried, ",", attempts))
	}
	must(query(d, "MATCH (n:Flow) DETACH DELETE n", nil))
}

func bookmarks(d neo4j.DriverWithContext) {
	a := d.NewSession(ctx, neo4j.SessionConfig{})
	r, _ := a.Run(ctx, "CREATE (:Flow {k: 'bm'})", nil)
	_, _ = r.Consume(ctx)
	bm := a.LastBookmarks()
	a.Close(ctx)
	if len(bm) > 0 {
		out("bookmarks", "after_write", "non-empty")
	} else {
		out("bookmarks", "after_write", "empty")
	}
	b := d.NewSession(ctx, neo4j.SessionConfig{Bookmarks: bm})
	r, _ = b.Run(ctx, "MATCH (n:Flow {k: 'bm'}) RETURN count(n) AS c", nil)
	rec, _ := r.Single(ctx)
	out("bookmarks", "chained_read", rec.Values[0])
	b.Close(ctx)
	manager := neo4j.NewBookmarkManager(neo4j.BookmarkManagerConfig{})
	s1 := d.NewSession(ctx, neo4j.SessionConfig{BookmarkManager: manager})
	r, _ = s1.Run(ctx, "CREATE (:Flow {k: 'bm2'})", nil)
	_, _ = r.Consume(ctx)
	s1.Close(ctx)
	s2 := d.NewSession(ctx, neo4j.SessionConfig{BookmarkManager: manager})
	r, _ = s2.Run(ctx, "MATCH (n:Flow) RETURN count(n) AS c", nil)
	rec, _ = r.Single(ctx)
	out("bookmarks", "manager_read", rec.Values[0])
	s2.Close(ctx)
	must(query(d, "MATCH (n:Flow) DETACH DELETE n", nil))
}

func routing() {
	host := uri[strings.Index(uri, "://")+3:]
	r, err := neo4j.NewDriverWithContext("neo4j://"+host, neo4j.BasicAuth(user, password, ""))
	if err != nil {
		panic(err)
	}
	defer r.Close(ctx)
	if err := r.VerifyConnectivity(ctx); err != nil {
		out("routing", "broken", errorText(err))
		return
	}
	res, err := neo4j.ExecuteQuery(ctx, r, "RETURN 'routed' AS x", nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		out("routing", "read", errorText(err))
	} else {
		out("routing", "read", res.Records[0].Values[0])
	}
	res, err = neo4j.ExecuteQuery(ctx, r, "CREATE (n:Flow) DELETE n RETURN 'w' AS x", nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithWritersRouting())
	if err != nil {
		out("routing", "write", errorText(err))
	} else {
		c := res.Summary.Counters()
		out("routing", "write", fmt.Sprint(res.Records[0].Values[0], ",", c.NodesCreated(), ",", c.NodesDeleted()))
	}
	s := r.NewSession(ctx, neo4j.SessionConfig{AccessMode: neo4j.AccessModeRead})
	defer s.Close(ctx)
	sr, err := s.Run(ctx, "RETURN 2 AS x", nil)
	if err != nil {
		out("routing", "read_session", errorText(err))
		return
	}
	rec, err := sr.Single(ctx)
	if err != nil {
		out("routing", "read_session", errorText(err))
		return
	}
	out("routing", "read_session", rec.Values[0])
}

func streaming(d neo4j.DriverWithContext) {
	s := d.NewSession(ctx, neo4j.SessionConfig{FetchSize: 50})
	defer s.Close(ctx)
	r, err := s.Run(ctx, "UNWIND range(1, 5000) AS i RETURN i, 'row ' + toString(i) AS label", nil)
	if err != nil {
		panic(err)
	}
	n, total, last := 0, int64(0), ""
	for r.Next(ctx) {
		n++
		total += r.Record().Values[0].(int64)
		last = r.Record().Values[1].(string)
	}
	out("streaming", "rows", fmt.Sprint(n, ",", total, ",", last))
	r2, _ := s.Run(ctx, "UNWIND range(1, 1000) AS i RETURN i", nil)
	first := []any{}
	for i := 0; i < 3 && r2.Next(ctx); i++ {
		first = append(first, r2.Record().Values[0])
	}
	sum, _ := r2.Consume(ctx)
	out("streaming", "partial_then_consume", fmt.Sprint(show(first), ",", sum.StatementType()))
}

func errorsFlow(d neo4j.DriverWithContext) {
	must(query(d, "DROP CONSTRAINT flow_key IF EXISTS", nil))
	must(query(d, "MATCH (n:Flow) DETACH DELETE n", nil))
	must(query(d, "CREATE CONSTRAINT flow_key FOR (n:Flow) REQUIRE n.k IS UNIQUE", nil))
	must(query(d, "CREATE (:Flow {k: 1})", nil))
	cases := [][2]string{
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
	}
	for _, c := range cases {
		if _, err := query(d, c[1], nil); err != nil {
			out("errors", c[0], errorText(err))
		} else {
			out("errors", c[0], "no error")
		}
	}
	must(query(d, "MATCH (n:Flow) DETACH DELETE n", nil))
	must(query(d, "DROP CONSTRAINT flow_key IF EXISTS", nil))
	bad, _ := neo4j.NewDriverWithContext(uri, neo4j.BasicAuth(user, password+"-wrong", ""))
	if err := bad.VerifyConnectivity(ctx); err != nil {
		out("errors", "auth", errorText(err))
	} else {
		out("errors", "auth", "no error")
	}
	bad.Close(ctx)
	s := d.NewSession(ctx, neo4j.SessionConfig{})
	defer s.Close(ctx)
	r, err := s.Run(ctx, "CALL apoc.util.sleep(3000)", nil, neo4j.WithTxTimeout(500*time.Millisecond))
	if err == nil {
		_, err = r.Consume(ctx)
	}
	if err != nil {
		out("errors", "timeout", errorText(err))
	} else {
		out("errors", "timeout", "no error")
	}
}

func ops(p neo4j.Plan) string {
	if p == nil {
		return "nil"
	}
	parts := []string{strings.SplitN(p.Operator(), "@", 2)[0]}
	for _, c := range p.Children() {
		parts = append(parts, ops(c))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func profOps(p neo4j.ProfiledPlan) string {
	parts := []string{strings.SplitN(p.Operator(), "@", 2)[0]}
	for _, c := range p.Children() {
		parts = append(parts, profOps(c))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func summaryFlow(d neo4j.DriverWithContext) {
	r := must(query(d, "MATCH (n:NoSuchFlowLabel) RETURN n", nil))
	notes := []string{}
	for _, n := range r.Summary.Notifications() {
		notes = append(notes, n.Code()+","+n.RawSeverityLevel()+","+n.Title())
	}
	sort.Strings(notes)
	out("summary", "notifications", notes)
	r = must(query(d, "CREATE (a:Flow {p: 1, q: 2})-[:R]->(:Flow) SET a:Extra REMOVE a.q", nil))
	c := r.Summary.Counters()
	out("summary", "counters", fmt.Sprint(c.NodesCreated(), ",", c.RelationshipsCreated(), ",", c.PropertiesSet(), ",", c.LabelsAdded(), ",", c.LabelsRemoved(), ",", c.ContainsUpdates()))
	out("summary", "query_type", r.Summary.StatementType())
	r = must(query(d, "MATCH (n:Flow) DETACH DELETE n", nil))
	out("summary", "delete", fmt.Sprint(r.Summary.Counters().NodesDeleted(), ",", r.Summary.Counters().RelationshipsDeleted(), ",", r.Summary.StatementType()))
	r = must(query(d, "CREATE INDEX flow_idx IF NOT EXISTS FOR (n:Flow) ON (n.p)", nil))
	out("summary", "schema", fmt.Sprint(r.Summary.Counters().IndexesAdded(), ",", r.Summary.StatementType()))
	r = must(query(d, "DROP INDEX flow_idx", nil))
	out("summary", "schema_drop", fmt.Sprint(r.Summary.Counters().IndexesRemoved(), ",", r.Summary.Counters().ContainsSystemUpdates()))
	r = must(query(d, "EXPLAIN MATCH (n:Flow) RETURN n.p AS p", nil))
	out("summary", "explain", ops(r.Summary.Plan()))
	r = must(query(d, "PROFILE UNWIND range(1, 3) AS i RETURN i", nil))
	out("summary", "profile", fmt.Sprint(profOps(r.Summary.Profile()), ",", r.Summary.Profile().Records()))
}

func main() {
	uri, user, password = os.Args[1], os.Args[2], os.Args[3]
	d, err := neo4j.NewDriverWithContext(uri, neo4j.BasicAuth(user, password, ""))
	if err != nil {
		panic(err)
	}
	if err := d.VerifyConnectivity(ctx); err != nil {
		panic(err)
	}
	flows := []struct {
		name string
		f    func(neo4j.DriverWithContext)
	}{
		{"autocommit", autocommit}, {"values", values}, {"graph", graph}, {"transactions", transactions},
		{"bookmarks", bookmarks}, {"streaming", streaming}, {"errors", errorsFlow}, {"summary", summaryFlow},
	}
	for _, f := range flows {
		func() {
			defer func() {
				if e := recover(); e != nil {
					if err, ok := e.(error); ok {
						out(f.name, "broken", errorText(err))
					} else {
						out(f.name, "broken", e)
					}
				}
			}()
			f.f(d)
		}()
	}
	d.Close(ctx)
	func() {
		defer func() {
			if e := recover(); e != nil {
				out("routing", "broken", e)
			}
		}()
		routing()
	}()
}
