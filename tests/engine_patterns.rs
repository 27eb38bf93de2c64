//! Quantified relationships, quantified path patterns and path selectors (Neo4j 5 semantics)
//! on small graphs built with Cypher.

mod common;

use common::{graph, rows};

/// a -> b -> c -> d and a shortcut a -> c; `v` is 1, 2, 3, 0 and `w` numbers the edges.
const LINE: &str = "
CREATE (a:N {name: 'a', v: 1}), (b:N {name: 'b', v: 2}), (c:N {name: 'c', v: 3}),
       (d:N {name: 'd', v: 0}),
       (a)-[:T {w: 1}]->(b), (b)-[:T {w: 2}]->(c), (c)-[:T {w: 3}]->(d), (a)-[:T {w: 4}]->(c);
";

/// From s to t: two paths of length 2 (via a, via b) and one of length 3 (via c, d).
const ROUTES: &str = "
CREATE (s:P {name: 's'}), (a:P {name: 'a'}), (b:P {name: 'b'}), (c:P {name: 'c'}),
       (d:P {name: 'd'}), (t:P {name: 't'}),
       (s)-[:R]->(a), (a)-[:R]->(t), (s)-[:R]->(b), (b)-[:R]->(t),
       (s)-[:R]->(c), (c)-[:R]->(d), (d)-[:R]->(t);
";

#[test]
fn quantified_relationship_bounds_and_list_variable() {
    let mut g = graph(LINE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'})-[r:T]->{1,2}(y) \
             RETURN y.name, [e IN r | e.w] ORDER BY y.name, size(r), r[0].w"
        ),
        ["'b' | [1]", "'c' | [4]", "'c' | [1, 2]", "'d' | [4, 3]"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'})-[r:T]->{2}(y) RETURN y.name ORDER BY y.name"
        ),
        ["'c'", "'d'"]
    );
}

#[test]
fn quantified_relationship_plus_and_star() {
    let mut g = graph(LINE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'c'})-->*(y) RETURN y.name ORDER BY y.name"
        ),
        ["'c'", "'d'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'c'})-->+(y) RETURN y.name ORDER BY y.name"
        ),
        ["'d'"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'c'})-[r]->*(y) RETURN y.name, size(r) ORDER BY y.name"
        ),
        ["'c' | 0", "'d' | 1"]
    );
    // Inline relationship predicates hold for every hop.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'})-[r:T WHERE r.w < 4]->+(y) RETURN y.name ORDER BY y.name"
        ),
        ["'b'", "'c'", "'d'"]
    );
}

#[test]
fn quantified_path_pattern_group_variables_are_lists() {
    let mut g = graph(LINE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'}) ((p)-[r:T]->(q)){2} (y) \
             RETURN [n IN p | n.name], [n IN q | n.name], [e IN r | e.w], y.name \
             ORDER BY y.name"
        ),
        [
            "['a', 'b'] | ['b', 'c'] | [1, 2] | 'c'",
            "['a', 'c'] | ['c', 'd'] | [4, 3] | 'd'"
        ]
    );
    // The outer WHERE sees the lists too.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'}) ((p)-[r:T]->(q))+ (y) WHERE size(r) = 3 RETURN y.name"
        ),
        ["'d'"]
    );
    // A later clause sees them as lists.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'}) ((p)-[r:T]->(q)){1,3} (y {name: 'd'}) \
             WITH y, p RETURN y.name, size(p), p[0].name ORDER BY size(p)"
        ),
        ["'d' | 2 | 'a'", "'d' | 3 | 'a'"]
    );
}

#[test]
fn quantified_path_pattern_inner_where_sees_single_values() {
    let mut g = graph(LINE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'}) ((p)-[:T]->(q) WHERE p.v < q.v)+ (y) \
             RETURN y.name ORDER BY y.name"
        ),
        ["'b'", "'c'", "'c'"]
    );
    // Inner node predicates apply to every iteration's nodes, junctions included.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'}) ((p WHERE p.v > 0)-[:T]->(q WHERE q.v > 0))+ (y) \
             RETURN y.name ORDER BY y.name"
        ),
        ["'b'", "'c'", "'c'"]
    );
}

#[test]
fn quantified_path_pattern_zero_iterations_and_junctions() {
    let mut g = graph(LINE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'}) ((p)-[r]->(q)){0,1} (y) \
             RETURN y.name, size(r), size(p) ORDER BY y.name, size(r)"
        ),
        ["'a' | 0 | 0", "'b' | 1 | 1", "'c' | 1 | 1"]
    );
    // With zero iterations the outer nodes are the same node.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'd'}) ((p)-->(q))* (y) RETURN x = y, size(p)"
        ),
        ["true | 0"]
    );
    // The outer nodes are the first and last iteration's end nodes.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x) ((p)-->(q)){2} (y) WHERE x = p[0] AND y = q[1] AND q[0] = p[1] \
             RETURN x.name, y.name ORDER BY x.name, y.name"
        ),
        ["'a' | 'c'", "'a' | 'd'", "'b' | 'd'"]
    );
}

#[test]
fn quantified_path_pattern_without_outer_nodes() {
    let mut g = graph(LINE);
    assert_eq!(
        rows(&mut g, "MATCH ((p)-[:T]->(q)){2} RETURN count(*)"),
        ["3"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH pth = ((p:N)-->(q)){2} RETURN [n IN nodes(pth) | n.name] AS ns ORDER BY ns"
        ),
        ["['a', 'b', 'c']", "['a', 'c', 'd']", "['b', 'c', 'd']"]
    );
}

#[test]
fn path_variables_include_every_step() {
    let mut g = graph(LINE);
    assert_eq!(
        rows(
            &mut g,
            "MATCH pth = (x {name: 'a'})-[:T]->{2}(y) \
             RETURN [n IN nodes(pth) | n.name] AS ns, [e IN relationships(pth) | e.w], \
             length(pth) ORDER BY ns"
        ),
        [
            "['a', 'b', 'c'] | [1, 2] | 2",
            "['a', 'c', 'd'] | [4, 3] | 2"
        ]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH pth = (x {name: 'a'})-[:T {w: 1}]->(m) ((p)-->(q)){1,2} (y) \
             RETURN [n IN nodes(pth) | n.name] AS ns ORDER BY ns"
        ),
        ["['a', 'b', 'c']", "['a', 'b', 'c', 'd']"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH pth = (x {name: 'b'}) ((p)-->(q))* (y) \
             RETURN length(pth), [n IN nodes(pth) | n.name] ORDER BY length(pth)"
        ),
        ["0 | ['b']", "1 | ['b', 'c']", "2 | ['b', 'c', 'd']"]
    );
}

#[test]
fn relationships_are_unique_across_iterations() {
    let mut g = graph(
        "CREATE (a:N {name: 'a'}), (b:N {name: 'b'}), (a)-[:T]->(b), (b)-[:T]->(a), \
         (a)-[:S]->(b)",
    );
    // Around the cycle once, never along the same relationship twice.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'})-[:T]->+(y) RETURN y.name, count(*) ORDER BY y.name"
        ),
        ["'a' | 1", "'b' | 1"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'}) ((p)-[:T]->(q))+ (y) RETURN size(p) ORDER BY size(p)"
        ),
        ["1", "2"]
    );
    // Back and forth along one undirected relationship is not a match.
    assert_eq!(rows(&mut g, "MATCH (x)-[:S]-{2}(y) RETURN count(*)"), ["0"]);
    // Nor across pattern parts of one MATCH.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (x {name: 'a'})-[e:T]->(y), (y)-[:T]->+(z) RETURN z.name"
        ),
        ["'a'"]
    );
}

#[test]
fn selector_any_shortest_per_pair_of_end_nodes() {
    let mut g = graph(ROUTES);
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = ANY SHORTEST (s {name: 's'})-->+(t {name: 't'}) RETURN length(p)"
        ),
        ["2"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = ANY SHORTEST (s {name: 's'})-->+(x) \
             RETURN x.name, length(p) ORDER BY x.name"
        ),
        ["'a' | 1", "'b' | 1", "'c' | 1", "'d' | 2", "'t' | 2"]
    );
    // Deterministic choice among ties.
    let q = "MATCH p = ANY SHORTEST (s {name: 's'})-->+(t {name: 't'}) \
             RETURN [n IN nodes(p) | n.name]";
    let first = rows(&mut g, q);
    assert_eq!(rows(&mut g, q), first);
}

#[test]
fn selector_all_shortest() {
    let mut g = graph(ROUTES);
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = ALL SHORTEST (s {name: 's'})-->+(t {name: 't'}) \
             RETURN nodes(p)[1].name AS via ORDER BY via"
        ),
        ["'a'", "'b'"]
    );
}

#[test]
fn selector_shortest_k() {
    let mut g = graph(ROUTES);
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = SHORTEST 2 (s {name: 's'})-->+(t {name: 't'}) RETURN length(p)"
        ),
        ["2", "2"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = SHORTEST 3 (s {name: 's'})-->+(t {name: 't'}) \
             RETURN length(p) ORDER BY length(p)"
        ),
        ["2", "2", "3"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = SHORTEST 1 (s {name: 's'})-->+(t {name: 't'}) RETURN length(p)"
        ),
        ["2"]
    );
}

#[test]
fn selector_shortest_k_groups() {
    let mut g = graph(ROUTES);
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = SHORTEST 1 GROUPS (s {name: 's'})-->+(t {name: 't'}) RETURN length(p)"
        ),
        ["2", "2"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = SHORTEST 2 GROUPS (s {name: 's'})-->+(t {name: 't'}) \
             RETURN length(p) ORDER BY length(p)"
        ),
        ["2", "2", "3"]
    );
}

#[test]
fn selector_any_k_and_all() {
    let mut g = graph(ROUTES);
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = ANY 2 (s {name: 's'})-->+(t {name: 't'}) RETURN count(*)"
        ),
        ["2"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = ANY (s {name: 's'})-->+(t {name: 't'}) RETURN count(*)"
        ),
        ["1"]
    );
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = ALL (s {name: 's'})-->+(t {name: 't'}) RETURN count(*)"
        ),
        ["3"]
    );
    // A selector on a plain pattern: one match per pair of end nodes.
    assert_eq!(
        rows(
            &mut g,
            "MATCH (s {name: 's'}), (t {name: 't'}) \
             MATCH ANY 1 (s)-->(m)-->(t) RETURN count(*)"
        ),
        ["1"]
    );
}

#[test]
fn selectors_apply_before_the_match_where_and_later_parts() {
    let mut g = graph(ROUTES);
    // The MATCH WHERE filters the selected paths (a post-filter) ...
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = ANY SHORTEST (s {name: 's'})-->+(t {name: 't'}) \
             WHERE length(p) = 3 RETURN count(*)"
        ),
        ["0"]
    );
    // ... while predicates inside the pattern filter before selection.
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = ANY SHORTEST (s {name: 's'}) ((x)-->(y) WHERE y.name <> 'a' AND \
             y.name <> 'b')+ (t {name: 't'}) RETURN length(p)"
        ),
        ["3"]
    );
    // Later parts join the selected paths (and respect relationship uniqueness).
    assert_eq!(
        rows(
            &mut g,
            "MATCH p = ALL SHORTEST (s {name: 's'})-->+(t {name: 't'}), (t)<--(z) \
             RETURN count(*)"
        ),
        ["4"]
    );
}

#[test]
fn unbounded_quantifier_with_repeatable_elements_hits_the_limit() {
    let mut g = graph("CREATE (a:N), (a)-[:T]->(a)");
    let e = g
        .run(
            "CYPHER 25 MATCH REPEATABLE ELEMENTS (x)-[:T]->+(y) RETURN count(*)",
            &Default::default(),
        )
        .expect_err("the expansion is cut off");
    assert_eq!(e.kind, grape::engine::ErrorKind::LimitExceeded, "{e}");
}
