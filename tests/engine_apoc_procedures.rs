//! APOC's procedures that GraphRAG and agent code calls, each against a value of APOC's
//! documentation: the path expander (the documented `apoc.path.expandConfig` and
//! `subgraphNodes` examples on its sample graph, in `tests/data/apoc_path_examples.json`; the two
//! whose rows depend on the store's relationship order are checked for their shape),
//! `apoc.neighbors.*`, the type-property tables of `apoc.meta.*`, the refactorings, batched
//! updates, `apoc.nodes.*`, `apoc.cypher.*`, `db.info` and `dbms.listConfig`.

mod common;

use grape::engine::{run, Params, Table};
use grape::graph::Graph;
use grape::value::{Entities, Value};

fn graph(script: &str) -> Graph {
    Graph::from_cypher_script(script).unwrap()
}

fn q(g: &mut Graph, query: &str) -> Table {
    run(g, query, &Params::new()).unwrap_or_else(|e| panic!("{query}: {}", e.message))
}

/// A value as APOC's documentation prints it: `(:A:B {name: "x"})`, paths with their
/// relationships' directions, lists, strings in double quotes.
fn render(t: &Table, v: &Value) -> String {
    let node = |n: grape::value::NodeId| {
        let labels: Vec<String> = t.node_labels(n).iter().map(|l| l.to_string()).collect();
        let props: Vec<String> = t
            .node_props(n)
            .iter()
            .map(|(k, v)| format!("{k}: {}", render(t, v)))
            .collect();
        if props.is_empty() {
            format!("(:{})", labels.join(":"))
        } else {
            format!("(:{} {{{}}})", labels.join(":"), props.join(", "))
        }
    };
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Node(n) => node(*n),
        Value::Path(p) => {
            let mut out = node(p.nodes[0]);
            for (i, r) in p.rels.iter().enumerate() {
                let ty = t.rel_type(*r).unwrap_or_default();
                let forward = t.rel_endpoints(*r).is_some_and(|(s, _)| s == p.nodes[i]);
                out += &if forward {
                    format!("-[:{ty}]->")
                } else {
                    format!("<-[:{ty}]-")
                };
                out += &node(p.nodes[i + 1]);
            }
            out
        }
        Value::List(xs) => format!(
            "[{}]",
            xs.iter()
                .map(|x| render(t, x))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

fn rendered_rows(t: &Table) -> Vec<Vec<String>> {
    t.rows
        .iter()
        .map(|r| r.iter().map(|v| render(t, v)).collect())
        .collect()
}

#[test]
fn path_expander_gives_apocs_documented_paths() {
    #[derive(serde::Deserialize)]
    struct Case {
        query: String,
        rows: Vec<Vec<String>>,
    }
    #[derive(serde::Deserialize)]
    struct Examples {
        graph: String,
        cases: Vec<Case>,
    }
    let ex: Examples = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/apoc_path_examples.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let mut g = graph(&ex.graph);
    let mut wrong = Vec::new();
    for case in &ex.cases {
        let got = rendered_rows(&q(&mut g, &case.query));
        // Rows that tie on the ORDER BY key (the last column) — or all rows, without an ORDER
        // BY — come in the order of each store's relationship chains: compare them as sets.
        let ordered = case.query.contains("ORDER BY");
        let key = |rows: &[Vec<String>]| -> Vec<String> {
            rows.iter()
                .map(|r| {
                    if ordered {
                        r.last().cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .collect()
        };
        let sorted = |rows: &[Vec<String>]| {
            let mut r = rows.to_vec();
            r.sort();
            r
        };
        if key(&got) != key(&case.rows) || sorted(&got) != sorted(&case.rows) {
            wrong.push(format!(
                "{}\n  got {:?}\n  doc {:?}",
                case.query, got, case.rows
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(ex.cases.len() >= 25);
}

#[test]
fn limits_and_depth_first_follow_the_traversal_order() {
    let ex: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/apoc_path_examples.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let mut g = graph(ex["graph"].as_str().unwrap());
    // Breadth first with a limit: the nearest paths, level by level (the documented 10 take
    // all 3 paths of one hop, all 5 of two hops and 2 of three).
    let t = q(
        &mut g,
        "MATCH (p:Person {name: 'Alicia'}) CALL apoc.path.expandConfig(p, {relationshipFilter: 'FOLLOWS>|KNOWS', minLevel: 1, maxLevel: 5, bfs: true, limit: 10}) YIELD path RETURN length(path) AS hops",
    );
    let hops: Vec<String> = t.rows.iter().map(|r| r[0].to_string()).collect();
    assert_eq!(hops, ["1", "1", "1", "2", "2", "2", "2", "2", "3", "3"]);
    // Depth first: a branch is followed to its end before the next one starts, so with a
    // limit the first branches take it all (the documentation's example: every path through
    // Joe; which branch is first follows each store's relationship order).
    let t = q(
        &mut g,
        "MATCH (p:Person {name: 'Alicia'}) CALL apoc.path.expandConfig(p, {relationshipFilter: 'FOLLOWS>|KNOWS', minLevel: 1, maxLevel: 3, bfs: false, limit: 10}) YIELD path RETURN nodes(path)[1].name AS first, length(path) AS hops",
    );
    assert_eq!(t.rows.len(), 10);
    let firsts: Vec<String> = t.rows.iter().map(|r| r[0].to_string()).collect();
    let mut left = Vec::new();
    for (i, f) in firsts.iter().enumerate() {
        if i > 0 && firsts[i - 1] != *f {
            left.push(firsts[i - 1].clone());
        }
        assert!(!left.contains(f), "a branch taken up again: {firsts:?}");
    }
    // Each branch starts with its one-hop path; the last branch is cut by the limit.
    assert_eq!(t.rows[0][1].to_string(), "1");
    assert!(
        firsts.iter().filter(|f| **f == firsts[9]).count() > 3,
        "{firsts:?}"
    );
    // apoc.path.expand is expandConfig with positional filters and levels.
    let t = q(
        &mut g,
        "MATCH (p:Person {name: 'Praveena'}) CALL apoc.path.expand(p, 'KNOWS', '+Engineering', 1, 2) YIELD path RETURN [n IN nodes(path) | n.name] AS names ORDER BY size(names)",
    );
    assert_eq!(
        rendered_rows(&t),
        [
            vec![r#"["Praveena", "Zhen"]"#.to_string()],
            vec![r#"["Praveena", "Zhen", "Martin"]"#.to_string()]
        ]
    );
    // subgraphAll: the nodes reached, and every relationship between them (any type).
    let t = q(
        &mut g,
        "MATCH (p:Person {name: 'Praveena'}) CALL apoc.path.subgraphAll(p, {relationshipFilter: 'KNOWS', maxLevel: 1}) YIELD nodes, relationships RETURN [n IN nodes | n.name] AS names, [r IN relationships | type(r)] AS types",
    );
    let names = t.rows[0][0].to_string();
    assert!(
        names.contains("'Praveena'") && names.contains("'Zhen'"),
        "{names}"
    );
    assert_eq!(t.rows[0][1].to_string(), "['KNOWS']");
    // spanningTree: one path to each node reached, each node once.
    let t = q(
        &mut g,
        "MATCH (p:Person {name: 'Joe'}) CALL apoc.path.spanningTree(p, {relationshipFilter: 'FOLLOWS>', maxLevel: 3}) YIELD path WITH last(nodes(path)) AS n RETURN count(n) AS c, count(DISTINCT n) AS d",
    );
    assert_eq!(t.rows[0][0].to_string(), t.rows[0][1].to_string());
    // optional: a null path where nothing is found.
    let t = q(
        &mut g,
        "MATCH (p:Person {name: 'Rik'}) CALL apoc.path.expandConfig(p, {relationshipFilter: 'FOLLOWS>', minLevel: 1, optional: true}) YIELD path RETURN path",
    );
    assert_eq!(t.rows.len(), 1);
    assert!(matches!(t.rows[0][0], Value::Null));
}

#[test]
fn neighbours_give_apocs_documented_nodes() {
    let mut g = graph(
        "MERGE (mark:Person {name: 'Mark'}) MERGE (praveena:Person {name: 'Praveena'}) \
         MERGE (joe:Person {name: 'Joe'}) MERGE (lju:Person {name: 'Lju'}) \
         MERGE (michael:Person {name: 'Michael'}) MERGE (emil:Person {name: 'Emil'}) \
         MERGE (ryan:Person {name: 'Ryan'}) \
         MERGE (ryan)-[:FOLLOWS]->(joe) MERGE (joe)-[:FOLLOWS]->(mark) \
         MERGE (mark)-[:FOLLOWS]->(emil) MERGE (michael)-[:KNOWS]-(emil) \
         MERGE (michael)-[:KNOWS]-(lju) MERGE (michael)-[:KNOWS]-(praveena) \
         MERGE (emil)-[:FOLLOWS]->(joe) MERGE (praveena)-[:FOLLOWS]->(joe)",
    );
    for (query, want) in [
        ("MATCH (p:Person {name: 'Emil'}) CALL apoc.neighbors.athop(p, 'KNOWS', 1) YIELD node RETURN node.name", vec!["'Michael'"]),
        ("MATCH (p:Person {name: 'Emil'}) CALL apoc.neighbors.athop(p, 'KNOWS', 2) YIELD node RETURN node.name", vec!["'Praveena'", "'Lju'"]),
        ("MATCH (p:Person {name: 'Emil'}) CALL apoc.neighbors.athop.count(p, 'KNOWS', 2) YIELD value RETURN value", vec!["2"]),
        ("MATCH (p:Person {name: 'Emil'}) CALL apoc.neighbors.byhop(p, 'KNOWS', 2) YIELD nodes RETURN [n IN nodes | n.name]", vec!["['Michael']", "['Praveena', 'Lju']"]),
        ("MATCH (p:Person {name: 'Emil'}) CALL apoc.neighbors.byhop(p, 'KNOWS|<FOLLOWS', 3) YIELD nodes RETURN [n IN nodes | n.name]", vec!["['Mark', 'Michael']", "['Praveena', 'Joe', 'Lju']", "['Ryan']"]),
        ("MATCH (p:Person {name: 'Emil'}) CALL apoc.neighbors.byhop.count(p, 'KNOWS|<FOLLOWS', 3) YIELD value RETURN value", vec!["[2, 3, 1]"]),
        ("MATCH (p:Person {name: 'Emil'}) CALL apoc.neighbors.byhop.count(p, 'KNOWS|<FOLLOWS', 3) YIELD value RETURN apoc.map.fromLists([value in range(1, size(value)) | toString(value)], value) AS value", vec!["{1: 2, 2: 3, 3: 1}"]),
        ("MATCH (p:Person {name: 'Praveena'}) CALL apoc.neighbors.tohop(p, 'FOLLOWS>', 1) YIELD node RETURN node.name", vec!["'Joe'"]),
        ("MATCH (p:Person {name: 'Praveena'}) CALL apoc.neighbors.tohop(p, 'FOLLOWS>', 2) YIELD node RETURN node.name", vec!["'Mark'", "'Joe'"]),
        ("MATCH (p:Person {name: 'Praveena'}) CALL apoc.neighbors.tohop.count(p, 'FOLLOWS>', 2) YIELD value RETURN value", vec!["2"]),
        // APOC: no types, nothing found.
        ("MATCH (p:Person {name: 'Praveena'}) CALL apoc.neighbors.tohop.count(p, '', 2) YIELD value RETURN value", vec!["0"]),
    ] {
        let t = q(&mut g, query);
        let got: Vec<String> = t.rows.iter().map(|r| r[0].to_string()).collect();
        assert_eq!(got, want, "{query}");
    }
}

const MOVIES: &str = "CREATE (Keanu:Person {name:'Keanu Reeves', born:1964}) \
    CREATE (TomH:Person {name:'Tom Hanks', born:1956}) \
    CREATE (m1:Movie {title:'The Matrix', released:1999, tagline:'Welcome to the Real World'}) \
    CREATE (m2:Movie {title:'The Matrix Reloaded', released:2003, tagline:'Free your mind'}) \
    CREATE (m3:Movie {title:'The Matrix Revolutions', released:2003, tagline:'Everything that has a beginning has an end'}) \
    CREATE (m4:Movie {title:\"Something's Gotta Give\", released:2003}) \
    CREATE (m5:Movie {title:\"The Devil's Advocate\", released:1997, tagline:'Evil has its winning ways'}) \
    CREATE (m6:Movie {title:\"You've Got Mail\", released:1998, tagline:'At odds in life... in love on-line.'}) \
    CREATE (m7:Movie {title:'Sleepless in Seattle', released:1993, tagline:'What if someone you never met'}) \
    CREATE (m8:Movie {title:'That Thing You Do', released:1996, tagline:'In every life there comes a time'}) \
    CREATE (m9:Movie {title:'Cloud Atlas', released:2012, tagline:'Everything is connected'}) \
    CREATE (Keanu)-[:ACTED_IN {roles:['Neo']}]->(m1) CREATE (Keanu)-[:ACTED_IN {roles:['Neo']}]->(m2) \
    CREATE (Keanu)-[:ACTED_IN {roles:['Neo']}]->(m3) CREATE (Keanu)-[:ACTED_IN {roles:['Julian Mercer']}]->(m4) \
    CREATE (Keanu)-[:ACTED_IN {roles:['Kevin Lomax']}]->(m5) CREATE (TomH)-[:ACTED_IN {roles:['Joe Fox']}]->(m6) \
    CREATE (TomH)-[:ACTED_IN {roles:['Sam Baldwin']}]->(m7) CREATE (TomH)-[:ACTED_IN {roles:['Mr. White']}]->(m8) \
    CREATE (TomH)-[:ACTED_IN {roles:['Zachry']}]->(m9) CREATE (TomH)-[:DIRECTED]->(m8)";

fn sorted_rows(t: &Table) -> Vec<String> {
    let mut rows = common::display_rows(t);
    rows.sort();
    rows
}

#[test]
fn meta_type_properties_give_apocs_documented_tables() {
    let mut g = graph(MOVIES);
    let t = q(&mut g, "CALL apoc.meta.nodeTypeProperties()");
    assert_eq!(
        sorted_rows(&t),
        [
            "':`Movie`' | ['Movie'] | 'released' | ['Long'] | false | 9 | 9",
            "':`Movie`' | ['Movie'] | 'tagline' | ['String'] | false | 8 | 9",
            "':`Movie`' | ['Movie'] | 'title' | ['String'] | false | 9 | 9",
            "':`Person`' | ['Person'] | 'born' | ['Long'] | false | 2 | 2",
            "':`Person`' | ['Person'] | 'name' | ['String'] | false | 2 | 2",
        ]
    );
    // The documented filters: labels (the old key and the new), and a sample of 3 per label.
    for config in ["{labels: ['Person']}", "{includeLabels: ['Person']}"] {
        let t = q(
            &mut g,
            &format!("CALL apoc.meta.nodeTypeProperties({config})"),
        );
        assert_eq!(t.rows.len(), 2, "{config}");
    }
    let t = q(
        &mut g,
        "CALL apoc.meta.nodeTypeProperties({sample: 3}) YIELD nodeType, propertyName, propertyObservations, totalObservations WHERE nodeType = ':`Movie`' RETURN propertyName, propertyObservations, totalObservations",
    );
    assert_eq!(
        sorted_rows(&t),
        ["'released' | 3 | 3", "'tagline' | 3 | 3", "'title' | 3 | 3"]
    );
    let t = q(&mut g, "CALL apoc.meta.relTypeProperties()");
    assert_eq!(
        sorted_rows(&t),
        [
            "':`ACTED_IN`' | ['Person'] | ['Movie'] | 'roles' | ['StringArray'] | false | 9 | 9",
            "':`DIRECTED`' | ['Person'] | ['Movie'] | null | null | false | 0 | 1",
        ]
    );
    let t = q(
        &mut g,
        "CALL apoc.meta.relTypeProperties({rels: ['ACTED_IN']})",
    );
    assert_eq!(t.rows.len(), 1);
    // `mandatory` is what an existence constraint makes it, as in APOC.
    q(
        &mut g,
        "CREATE CONSTRAINT FOR (p:Person) REQUIRE p.name IS NOT NULL",
    );
    let t = q(
        &mut g,
        "CALL apoc.meta.nodeTypeProperties({labels: ['Person']}) YIELD propertyName, mandatory RETURN propertyName, mandatory",
    );
    assert_eq!(sorted_rows(&t), ["'born' | false", "'name' | true"]);
}

#[test]
fn refactorings_give_apocs_documented_graphs() {
    // mergeNodes: the first node takes the others; `combine` makes a list of the names.
    let mut g = graph(
        "CREATE (a:Person {name:'Tom'})-[:WORKS_FOR {since: 2015}]->(c:Company {name:'Company1'}) \
         CREATE (b:Person {name:'John'})-[:WORKS_FOR {since: 2018}]->(c) \
         CREATE (a)-[:OWNS]->(:Car {name:'Ferrari'}) CREATE (b)-[:LIVES_IN]->(:City {name:'London'})",
    );
    let t = q(
        &mut g,
        "MATCH (a1:Person{name:'John'}), (a2:Person {name:'Tom'}) WITH head(collect([a1,a2])) as nodes CALL apoc.refactor.mergeNodes(nodes,{ properties:'combine', mergeRels:true }) YIELD node RETURN node",
    );
    assert_eq!(
        rendered_rows(&t),
        [vec![r#"(:Person {name: ["John", "Tom"]})"#.to_string()]]
    );
    let t = q(
        &mut g,
        "MATCH (p:Person) RETURN count(p) AS people, COUNT { (p)-[:WORKS_FOR]->() } AS jobs, COUNT { (p)-->() } AS out",
    );
    assert_eq!(
        t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        ["1", "1", "3"]
    );

    // The renames of the documentation's Engineer graph.
    let mut g = graph(
        "CREATE (mark:Engineer {name: 'Mark', city: 'London'}) CREATE (jennifer:Engineer {name: 'Jennifer', city: 'St Louis'}) \
         CREATE (michael:Engineer {name: 'Michael', city: 'Dresden'}) CREATE (jim:Engineer {name: 'Jim', city: 'London'}) \
         CREATE (alistair:Engineer {name: 'Alistair', city: 'London'}) \
         MERGE (jim)-[:COLLEAGUES {since: date('2006-05-01')}]->(alistair) \
         MERGE (mark)-[:COLLEAGUES {since: date('2018-02-01')}]->(jennifer) \
         MERGE (mark)-[:COLLEAGUES {since: date('2013-05-01')}]->(michael)",
    );
    let t = q(
        &mut g,
        "MATCH (person:Engineer) WHERE person.name IN ['Mark', 'Jennifer', 'Michael'] WITH collect(person) AS people CALL apoc.refactor.rename.label('Engineer', 'DevRel', people) YIELD batches, total, timeTaken, committedOperations RETURN batches, total, timeTaken, committedOperations",
    );
    assert_eq!(
        t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        ["1", "3", "0", "3"]
    );
    let t = q(
        &mut g,
        "MATCH (:Engineer {name: 'Jim'})-[rel]->(:Engineer {name: 'Alistair'}) WITH collect(rel) AS rels CALL apoc.refactor.rename.type('COLLEAGUES', 'FROLLEAGUES', rels) YIELD batches, total, timeTaken, committedOperations RETURN batches, total, timeTaken, committedOperations",
    );
    assert_eq!(
        t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        ["1", "1", "0", "1"]
    );
    let t = q(
        &mut g,
        "MATCH (person:DevRel) WITH collect(person) AS people CALL apoc.refactor.rename.nodeProperty('city', 'location', people) YIELD batches, total, timeTaken, committedOperations RETURN batches, total, timeTaken, committedOperations",
    );
    assert_eq!(
        t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        ["1", "3", "0", "3"]
    );
    let t = q(
        &mut g,
        "MATCH (n) RETURN labels(n)[0] AS l, n.name AS name, n.city AS city, n.location AS location ORDER BY name",
    );
    assert_eq!(
        sorted_rows(&t),
        [
            "'DevRel' | 'Jennifer' | null | 'St Louis'",
            "'DevRel' | 'Mark' | null | 'London'",
            "'DevRel' | 'Michael' | null | 'Dresden'",
            "'Engineer' | 'Alistair' | 'London' | null",
            "'Engineer' | 'Jim' | 'London' | null",
        ]
    );
    let t = q(
        &mut g,
        "MATCH ()-[r]->() RETURN type(r) AS t, r.since AS since ORDER BY since",
    );
    assert_eq!(
        sorted_rows(&t),
        [
            "'COLLEAGUES' | 2013-05-01",
            "'COLLEAGUES' | 2018-02-01",
            "'FROLLEAGUES' | 2006-05-01"
        ]
    );

    // setType, invert, from, to: a new relationship in place of the old, properties kept.
    let mut g = graph("CREATE (f:Foo)-[rel:FOOBAR {x: 1}]->(b:Bar)");
    let t = q(
        &mut g,
        "MATCH (f:Foo)-[rel:FOOBAR]->(b:Bar) CALL apoc.refactor.setType(rel, 'NEW-TYPE') YIELD input, output RETURN type(output), output.x, startNode(output) = f",
    );
    assert_eq!(
        t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        ["'NEW-TYPE'", "1", "true"]
    );
    let mut g = graph(
        "CREATE (:Person {name: 'Mark', city: 'London'})-[:FOLLOWS]->(:Person {name: 'Jennifer', city: 'St Louis'}) \
         CREATE (:Person {name: 'Michael', city: 'Dresden'})",
    );
    q(&mut g, "MATCH ()-[rel:FOLLOWS]->() CALL apoc.refactor.invert(rel) YIELD input, output RETURN input, output");
    let path = |g: &mut Graph| {
        let t = q(g, "MATCH (a)-[:FOLLOWS]->(b) RETURN a.name + '->' + b.name");
        t.rows[0][0].to_string()
    };
    assert_eq!(path(&mut g), "'Jennifer->Mark'");
    q(&mut g, "MATCH (michael:Person {name: 'Michael'}) MATCH ()-[rel:FOLLOWS]->() CALL apoc.refactor.from(rel, michael) YIELD input, output RETURN input, output");
    assert_eq!(path(&mut g), "'Michael->Mark'");
    q(&mut g, "MATCH (j:Person {name: 'Jennifer'}) MATCH ()-[rel:FOLLOWS]->() CALL apoc.refactor.to(rel, j) YIELD input, output RETURN input, output");
    assert_eq!(path(&mut g), "'Michael->Jennifer'");
    assert_eq!(
        q(&mut g, "MATCH ()-[r]->() RETURN count(r)").rows[0][0].to_string(),
        "1"
    );

    // cloneNodes, with and without properties skipped.
    let mut g = graph("CREATE (:Person {name: 'Mark', city: 'London'}), (:Person {name: 'Jennifer', city: 'St Louis'})");
    let t = q(&mut g, "MATCH (p:Person) WITH collect(p) AS people CALL apoc.refactor.cloneNodes(people) YIELD input, output, error RETURN output.name, error");
    assert_eq!(sorted_rows(&t), ["'Jennifer' | null", "'Mark' | null"]);
    assert_eq!(
        q(&mut g, "MATCH (p:Person) RETURN count(p)").rows[0][0].to_string(),
        "4"
    );
    let mut g = graph("CREATE (f:Foo{name:'Bar', surname: 'Baz', age: 66})");
    let t = q(&mut g, "MATCH (n:Foo) CALL apoc.refactor.cloneNodes([n], false, ['age']) YIELD output RETURN properties(output) AS props");
    assert_eq!(t.rows[0][0].to_string(), "{name: 'Bar', surname: 'Baz'}");
}

#[test]
fn batched_updates_give_apocs_documented_counts() {
    let mut g = graph("UNWIND range(1, 1000) AS id CREATE (:Person {id: id})");
    // The documentation's BATCH_SINGLE delete: 100 a batch, each batch unpacked by the action.
    let t = q(
        &mut g,
        "CALL apoc.periodic.iterate('MATCH (p:Person) RETURN p', 'CALL apoc.nodes.delete([item in $_batch | item.p], size($_batch))', {batchMode: 'BATCH_SINGLE', batchSize: 100}) YIELD batch, operations RETURN batch, operations",
    );
    assert_eq!(
        t.rows[0][0].to_string(),
        "{committed: 10, errors: {}, failed: 0, total: 10}"
    );
    assert_eq!(
        t.rows[0][1].to_string(),
        "{committed: 1000, errors: {}, failed: 0, total: 1000}"
    );
    assert_eq!(t.stats.nodes_deleted, 1000);
    assert_eq!(g.node_count(), 0);
    // The default BATCH mode binds the columns as variables; SINGLE runs once per row.
    let mut g = graph("UNWIND range(1, 10) AS id CREATE (:Person {id: id})");
    for (mode, key) in [("BATCH", "a"), ("SINGLE", "b")] {
        let t = q(
            &mut g,
            &format!("CALL apoc.periodic.iterate('MATCH (p:Person) RETURN p, p.id AS id', 'SET p.{key} = id * $k', {{batchSize: 3, batchMode: '{mode}', params: {{k: 2}}}}) YIELD batches, total, committedOperations, updateStatistics RETURN batches, total, committedOperations, updateStatistics.propertiesSet"),
        );
        assert_eq!(
            t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
            ["4", "10", "10", "10"],
            "{mode}"
        );
    }
    assert_eq!(
        q(&mut g, "MATCH (p:Person) RETURN sum(p.a), sum(p.b)").rows[0]
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>(),
        ["110", "110"]
    );
    // A failing batch is undone alone and counted; the others commit.
    let t = q(
        &mut g,
        "CALL apoc.periodic.iterate('UNWIND range(1, 5) AS i RETURN i', 'CREATE (:N {i: i}) WITH i WHERE i = 3 RETURN 1 / 0', {batchSize: 2}) YIELD batches, failedBatches, committedOperations, failedOperations, errorMessages RETURN batches, failedBatches, committedOperations, failedOperations, errorMessages",
    );
    assert_eq!(
        t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        ["3", "1", "3", "2", "{/ by zero: 1}"]
    );
    assert_eq!(
        q(&mut g, "MATCH (n:N) RETURN collect(n.i)").rows[0][0].to_string(),
        "[1, 2, 5]"
    );
    // periodic.commit: the documentation's 10,000 people in runs of 1,000 (here 1,000 in 100s):
    // ten runs that update and the one that finds nothing.
    let mut g = graph("UNWIND range(1, 1000) AS id CREATE (:Person {id: id})");
    let t = q(
        &mut g,
        "CALL apoc.periodic.commit('MATCH (p:Person) WHERE p.city IS NULL WITH p LIMIT $limit SET p.city = \"x\" RETURN count(*)', {limit: 100})",
    );
    assert_eq!(
        t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        ["1000", "10", "0", "11", "0", "{}", "0", "{}", "false"]
    );
    let e = run(
        &mut g,
        "CALL apoc.periodic.commit('MATCH (p) SET p.y = 1 RETURN count(*)', {})",
        &Params::new(),
    )
    .unwrap_err();
    assert!(e.message.contains("LIMIT"), "{}", e.message);
}

#[test]
fn nodes_and_statements_by_text_give_apocs_documented_values() {
    let mut g = graph(
        "CREATE (:Student {name: 'Alice', score: 71}) CREATE (:Student {name: 'Mark', score: 95}) CREATE (:Student {name: 'Andrea', score: 86})",
    );
    let ids = q(&mut g, "MATCH (s:Student) RETURN collect(id(s))").rows[0][0].to_string();
    let t = q(
        &mut g,
        &format!("CALL apoc.nodes.get({ids}) YIELD node RETURN node.name"),
    );
    assert_eq!(sorted_rows(&t), ["'Alice'", "'Andrea'", "'Mark'"]);
    // Element ids too.
    let t = q(&mut g, "MATCH (s:Student {name: 'Mark'}) CALL apoc.nodes.get([elementId(s)]) YIELD node RETURN node.score");
    assert_eq!(t.rows[0][0].to_string(), "95");
    let t = q(
        &mut g,
        &format!("CALL apoc.nodes.delete({ids}, 2) YIELD value RETURN value"),
    );
    assert_eq!(t.rows[0][0].to_string(), "3");
    assert_eq!(g.node_count(), 0);

    // nodes.link: a linked list in the given order; avoidDuplicates links once.
    let mut g = graph(
        "CREATE (:Event {date: datetime('2019-06-01')}), (:Event {date: datetime('2019-06-04')}), (:Event {date: datetime('2019-06-08')})",
    );
    let link = "MATCH (e:Event) WITH e ORDER BY e.date WITH collect(e) AS events CALL apoc.nodes.link(events, 'NEXT', {avoidDuplicates: true}) RETURN count(*)";
    q(&mut g, link);
    q(&mut g, link);
    let t = q(&mut g, "MATCH (a)-[:NEXT]->(b) RETURN toString(date(a.date)) + '>' + toString(date(b.date)) AS l ORDER BY l");
    assert_eq!(
        sorted_rows(&t),
        ["'2019-06-01>2019-06-04'", "'2019-06-04>2019-06-08'"]
    );

    // cypher.run: each row of the statement as a map; cypher.doIt writes.
    let mut g = graph(MOVIES);
    let t = q(&mut g, "CALL db.labels() YIELD label CALL apoc.cypher.run('MATCH (:' + label + ') RETURN count(*) AS count', {}) YIELD value RETURN label, value.count AS count");
    assert_eq!(sorted_rows(&t), ["'Movie' | 9", "'Person' | 2"]);
    let t = q(&mut g, "CALL db.relationshipTypes() YIELD relationshipType CALL apoc.cypher.run('MATCH ()-[:' + relationshipType + ']->() RETURN count(*) AS count', null) YIELD value RETURN relationshipType, value.count AS count");
    assert_eq!(sorted_rows(&t), ["'ACTED_IN' | 9", "'DIRECTED' | 1"]);
    let e = run(
        &mut g,
        "CALL apoc.cypher.run('CREATE (:X)', {}) YIELD value RETURN value",
        &Params::new(),
    )
    .unwrap_err();
    assert!(!e.message.is_empty());
    let mut g = graph("CREATE (:PERSON) CREATE (:EVENT) CREATE (:TAG) CREATE (:LOCATION)");
    let t = q(
        &mut g,
        "MATCH (node) WITH node, labels(node)[0] AS label CALL apoc.cypher.doIt('WITH $node AS node REMOVE node:' + label + '\n' + 'SET node:' + apoc.text.capitalize(toLower(label)) + '\n' + 'RETURN node', {node: node}) YIELD value RETURN value",
    );
    assert_eq!(
        rendered_rows(&t)
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .len(),
        4
    );
    let t = q(&mut g, "MATCH (n) RETURN labels(n)[0] AS l ORDER BY l");
    assert_eq!(
        sorted_rows(&t),
        ["'Event'", "'Location'", "'Person'", "'Tag'"]
    );
}

#[test]
fn database_information_procedures() {
    let mut g = graph("CREATE (:A)");
    let t = q(
        &mut g,
        "CALL db.info() YIELD id, name, creationDate RETURN id, name, creationDate",
    );
    assert_eq!(t.rows[0][1].to_string(), "'neo4j'");
    let id = t.rows[0][0].to_string();
    assert_eq!(id.len(), 34, "{id}");
    let t = q(
        &mut g,
        "CALL dbms.listConfig('timeout') YIELD name RETURN collect(name)",
    );
    assert_eq!(t.rows[0][0].to_string(), "['db.transaction.timeout']");
    let t = q(&mut g, "CALL dbms.listConfig() YIELD name RETURN count(*)");
    assert!(matches!(t.rows[0][0], Value::Int(n) if n >= 4));
}

#[test]
fn virtual_elements_merges_with_statistics_and_cycles() {
    let mut g = graph(
        "CREATE (a:N {n:'a'})-[:R]->(b:N {n:'b'})-[:R]->(c:N {n:'c'})-[:R]->(a), (c)-[:S]->(b), (a)-[:L]->(a)",
    );
    // Cycles: per outgoing relationship, the shortest way back (a loop is a cycle of one).
    let t = q(
        &mut g,
        "MATCH (a:N {n:'a'}) CALL apoc.nodes.cycles([a]) YIELD path RETURN [x IN nodes(path) | x.n] AS ns ORDER BY size(ns)",
    );
    assert_eq!(sorted_rows(&t), ["['a', 'a']", "['a', 'b', 'c', 'a']"]);
    let t = q(
        &mut g,
        "MATCH (b:N {n:'b'}) CALL apoc.nodes.cycles([b], {relTypes: ['R', 'S']}) YIELD path RETURN [x IN nodes(path) | x.n] AS ns",
    );
    assert_eq!(sorted_rows(&t), ["['b', 'c', 'b']"]);
    let t = q(
        &mut g,
        "MATCH (b:N {n:'b'}) CALL apoc.nodes.cycles([b], {relTypes: ['R'], maxDepth: 1}) YIELD path RETURN path",
    );
    assert!(t.rows.is_empty());
    // Virtual copies: the same labels, types, properties and directions, nothing stored.
    let nodes_before = g.node_count();
    let t = q(
        &mut g,
        "MATCH p = (:N {n:'c'})-[:S]->(:N {n:'b'}) CALL apoc.create.clonePathToVirtual(p) YIELD path RETURN path",
    );
    assert_eq!(
        rendered_rows(&t),
        [vec![r#"(:N {n: "c"})-[:S]->(:N {n: "b"})"#.to_string()]]
    );
    let t = q(
        &mut g,
        "CYPHER 25 CALL apoc.create.virtualPath(['A'], {x: 1}, 'R', {w: 2}, ['B'], {y: 3}) YIELD from, rel, to RETURN from, rel.w, to",
    );
    assert_eq!(
        rendered_rows(&t),
        [vec![
            "(:A {x: 1})".to_string(),
            "2".into(),
            "(:B {y: 3})".into()
        ]]
    );
    let t = q(&mut g, "CYPHER 25 CALL apoc.create.vNodes(['Person'], [{name: 'a'}, {name: 'b'}]) YIELD node RETURN node.name");
    assert_eq!(sorted_rows(&t), ["'a'", "'b'"]);
    // Neo4j 5.26 reads no property of a virtual node in Cypher (the oracle); Cypher 25 does.
    let t = q(&mut g, "CALL apoc.create.vNodes(['Person'], [{name: 'a'}]) YIELD node RETURN node.name, properties(node), keys(node), node {.*}, node");
    assert_eq!(
        rendered_rows(&t),
        [vec![
            "null".to_string(),
            "{}".into(),
            "[]".into(),
            "{}".into(),
            r#"(:Person {name: "a"})"#.into()
        ]]
    );
    assert_eq!(g.node_count(), nodes_before);
    let t = q(
        &mut g,
        "CALL apoc.create.uuids(3) YIELD row, uuid RETURN row, uuid",
    );
    assert_eq!(t.rows.len(), 3);
    assert!(t.rows.iter().all(|r| r[1].to_string().len() == 38));
    // merge.*WithStats: the merge's own counts; the eager forms merge alike.
    let t = q(
        &mut g,
        "CALL apoc.merge.nodeWithStats(['N'], {n: 'z'}, {created: true}) YIELD stats, node RETURN stats.nodesCreated, stats.propertiesSet, node.created",
    );
    assert_eq!(sorted_rows(&t), ["1 | 2 | true"]);
    let t = q(
        &mut g,
        "CALL apoc.merge.nodeWithStats.eager(['N'], {n: 'z'}, {}, {seen: true}) YIELD stats, node RETURN stats.nodesCreated, node.seen",
    );
    assert_eq!(sorted_rows(&t), ["0 | true"]);
    let t = q(
        &mut g,
        "MATCH (a:N {n:'a'}), (z:N {n:'z'}) CALL apoc.merge.relationshipWithStats(a, 'T', {k: 1}, {}, z) YIELD stats, rel RETURN stats.relationshipsCreated, type(rel)",
    );
    assert_eq!(sorted_rows(&t), ["1 | 'T'"]);
    let t = q(
        &mut g,
        "MATCH (a:N {n:'a'}), (z:N {n:'z'}) CALL apoc.merge.relationship.eager(a, 'T', {k: 1}, {}, z) YIELD rel RETURN count(rel)",
    );
    assert_eq!(t.rows[0][0].to_string(), "1");
    assert_eq!(
        q(&mut g, "MATCH ()-[r:T]->() RETURN count(r)").rows[0][0].to_string(),
        "1"
    );
}

#[test]
fn grouping_and_collapsing_give_apocs_documented_virtual_graphs() {
    let mut g = graph(
        "CREATE (alice:Person {name:'Alice', gender:'female', age:32, kids:1}), \
         (bob:Person {name:'Bob', gender:'male', age:42, kids:3}), \
         (eve:Person {name:'Eve', gender:'female', age:28, kids:2}), \
         (graphs:Forum {name:'Graphs', members:23}), (dbs:Forum {name:'Databases', members:42}), \
         (alice)-[:KNOWS {since:2017}]->(bob), (eve)-[:KNOWS {since:2018}]->(bob), \
         (alice)-[:MEMBER_OF]->(graphs), (alice)-[:MEMBER_OF]->(dbs), \
         (bob)-[:MEMBER_OF]->(dbs), (eve)-[:MEMBER_OF]->(graphs)",
    );
    let before = g.node_count();
    // The documented grouping by gender: one row per virtual relationship once unwound.
    let t = q(
        &mut g,
        "CALL apoc.nodes.group(['*'], ['gender'], [{`*`: 'count', age: 'min'}, {`*`: 'count'}]) YIELD relationships UNWIND relationships AS rel RETURN apoc.rel.startNode(rel) AS start, rel, apoc.rel.endNode(rel) AS end",
    );
    let mut rows: Vec<String> = rendered_rows(&t).into_iter().map(|r| r.join(" ")).collect();
    rows.sort();
    let rel = |t: &Table, v: &Value| match v {
        Value::Relationship(r) => format!(
            "[:{} {{{}}}]",
            t.rel_type(*r).unwrap_or_default(),
            t.rel_props(*r)
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => String::new(),
    };
    let mut rels: Vec<String> = t.rows.iter().map(|r| rel(&t, &r[1])).collect();
    rels.sort();
    assert_eq!(
        rels,
        [
            "[:KNOWS {count_*: 2}]",
            "[:KNOWS {count_*: 2}]",
            "[:MEMBER_OF {count_*: 1}]",
            "[:MEMBER_OF {count_*: 3}]"
        ]
    );
    let ends: Vec<String> = t
        .rows
        .iter()
        .map(|r| render(&t, &r[0]) + " " + &render(&t, &r[2]))
        .collect();
    assert!(ends.contains(&r#"(:Person {count_*: 2, gender: "female", min_age: 28}) (:Forum {count_*: 2, gender: null})"#.to_string()), "{ends:?}");
    assert!(ends.contains(&r#"(:Person {count_*: 1, gender: "male", min_age: 42}) (:Forum {count_*: 2, gender: null})"#.to_string()), "{ends:?}");
    // Without UNWIND: a row per group (the Forum group has no outgoing relationship), and the
    // unit test's Person aggregates.
    let t = q(
        &mut g,
        "CYPHER 25 CALL apoc.nodes.group(['Person'], ['gender'], [{`*`: 'count', kids: 'sum', age: ['min', 'max', 'avg'], gender: 'collect'}, {`*`: 'count', since: ['min', 'max']}]) YIELD node, relationship WHERE node.gender = 'female' RETURN node.sum_kids, node.max_age, node.avg_age, node.collect_gender, relationship.min_since, relationship.max_since",
    );
    assert_eq!(
        t.rows[0].iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        ["3", "32", "30.0", "['female', 'female']", "2017", "2018"]
    );
    let t = q(&mut g, "CALL apoc.nodes.group(['*'], ['gender'], null, {orphans: false}) YIELD node RETURN count(DISTINCT node)");
    assert_eq!(t.rows[0][0].to_string(), "2");
    assert_eq!(g.node_count(), before, "nothing stored");

    // The documented collapse of the people of each country.
    let mut g = graph(
        "MERGE (david:Person {name: 'David'}) MERGE (john:Person {name: 'John'}) \
         MERGE (jennifer:Person {name: 'Jennifer'}) MERGE (adam:Person {name: 'Adam'}) \
         MERGE (mark:Person {name: 'Mark'}) \
         MERGE (unitedStates:Country {name: 'United States'}) MERGE (uk:Country {name: 'United Kingdom'}) \
         MERGE (david)-[:LIVES_IN]->(unitedStates) MERGE (john)-[:LIVES_IN]->(unitedStates) \
         MERGE (jennifer)-[:LIVES_IN]->(unitedStates) MERGE (adam)-[:LIVES_IN]->(uk) \
         MERGE (mark)-[:LIVES_IN]->(uk)",
    );
    let t = q(
        &mut g,
        "CYPHER 25 MATCH (p:Person)-[:LIVES_IN]->(c:Country) WITH c, collect(p) as subgraph CALL apoc.nodes.collapse(subgraph, {properties: 'combine'}) YIELD from, rel, to RETURN apoc.coll.sort(from.name) AS names, from.count, labels(from), type(rel), rel.count, to.name",
    );
    assert_eq!(
        sorted_rows(&t),
        [
            "['Adam', 'Mark'] | 2 | ['Person'] | 'LIVES_IN' | 1 | 'United Kingdom'",
            "['David', 'Jennifer', 'John'] | 3 | ['Person'] | 'LIVES_IN' | 2 | 'United States'",
        ]
    );
    // One node is itself; nodes without relationships give the node alone; the label option.
    let t = q(&mut g, "MATCH (p:Person {name: 'Mark'}) CALL apoc.nodes.collapse([p]) YIELD from, rel RETURN from.name, rel");
    assert_eq!(sorted_rows(&t), ["'Mark' | null"]);
    // (Incoming relationships end at the collapsed node: one per person, none merged.)
    let t = q(&mut g, "CYPHER 25 MATCH (c:Country) WITH collect(c) AS cs CALL apoc.nodes.collapse(cs, {collapsedLabel: true}) YIELD from, rel, to RETURN labels(to), to.count, count(rel)");
    assert_eq!(sorted_rows(&t), ["['Country', 'Collapsed'] | 2 | 5"]);
}
