//! The hand-written fast path of the parser (`syntax::parse_fast`) against the pest grammar
//! (`syntax::parse_with_pest`): wherever the fast path returns an AST, pest parses the same text
//! to the same AST, spans included (compared through their serialized form, since spans take no
//! part in `==`), and it never accepts what pest rejects. Run on every corpus the project has;
//! mutated and generated queries are checked the same way in `proptest_syntax.rs`.

mod common;

use grape::syntax::{parse, parse_fast, parse_with_pest};

/// The fast path's verdict on `text`, compared with pest's. `Ok(true)`: covered and equal;
/// `Ok(false)`: not covered (pest parses it); `Err`: a disagreement.
fn compare(text: &str) -> Result<bool, String> {
    let Some(fast) = parse_fast(text) else {
        return Ok(false);
    };
    match parse_with_pest(text) {
        Ok(slow) => {
            let a = serde_json::to_value(&fast).map_err(|e| e.to_string())?;
            let b = serde_json::to_value(&slow).map_err(|e| e.to_string())?;
            if a == b {
                Ok(true)
            } else {
                Err(format!(
                    "ASTs differ for {text:?}\nfast: {}\npest: {}",
                    first_diff(&a, &b, "$"),
                    first_diff(&b, &a, "$")
                ))
            }
        }
        Err(e) => Err(format!(
            "the fast path accepts {text:?}, which pest rejects: {e}"
        )),
    }
}

/// The path and value of the first place where `a` differs from `b`.
fn first_diff(a: &serde_json::Value, b: &serde_json::Value, path: &str) -> String {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) if v == w => {}
                    Some(w) => return first_diff(v, w, &format!("{path}.{k}")),
                    None => return format!("{path}.{k} = {v}"),
                }
            }
            format!("{path}: keys differ")
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                if v != w {
                    return first_diff(v, w, &format!("{path}[{i}]"));
                }
            }
            format!("{path}: equal")
        }
        _ => format!("{path} = {a}"),
    }
}

fn check_corpus(name: &str, queries: &[String], min_covered: f64) {
    let mut covered = 0usize;
    let mut failures = Vec::new();
    for q in queries {
        match compare(q) {
            Ok(true) => covered += 1,
            Ok(false) => {}
            Err(e) => failures.push(e),
        }
    }
    let share = covered as f64 / queries.len().max(1) as f64;
    eprintln!(
        "{name}: the fast path covers {covered} of {} queries ({:.1}%)",
        queries.len(),
        share * 100.0
    );
    assert!(
        failures.is_empty(),
        "{name}: {} disagreements, the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n\n")
    );
    // Coverage is what makes the fast path worth having: a change that sends most queries back
    // to pest would keep every test green while losing the speed.
    assert!(
        share >= min_covered,
        "{name}: the fast path covers only {:.1}% (expected at least {:.0}%)",
        share * 100.0,
        min_covered * 100.0
    );
}

#[test]
fn fast_path_agrees_with_pest_on_tck_queries() {
    let Some(shared) = common::shared_dir("fast path on the TCK") else {
        return;
    };
    let tck = common::tck_syntax(&shared);
    let accepts: Vec<String> = tck
        .iter()
        .filter(|(_, _, a)| *a)
        .map(|(_, q, _)| q.clone())
        .collect();
    let rejects: Vec<String> = tck
        .iter()
        .filter(|(_, _, a)| !*a)
        .map(|(_, q, _)| q.clone())
        .collect();
    check_corpus("TCK accepts", &accepts, 0.8);
    check_corpus("TCK rejects", &rejects, 0.0);
}

#[test]
fn fast_path_agrees_with_pest_on_benchmark_queries() {
    let Some(shared) = common::shared_dir("fast path on the benchmarks") else {
        return;
    };
    let zog: Vec<String> = common::zograscope(&shared)
        .into_iter()
        .map(|(_, q)| q)
        .collect();
    check_corpus("ZOGRASCOPE", &zog, 0.9);
    let grape: Vec<String> = common::grape(&shared).into_iter().map(|(_, q)| q).collect();
    check_corpus("GRAPE", &grape, 0.8);
    let text = std::fs::read_to_string(shared.join("data/text2cypher/gpt4turbo_queries.jsonl"))
        .expect("text2cypher queries");
    let t2c: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["query"].as_str().map(str::to_string))
        .collect();
    check_corpus("text2cypher (gpt4turbo)", &t2c, 0.8);
}

#[test]
fn fast_path_agrees_with_pest_on_recorded_frontend_queries() {
    let text = include_str!("data/neo4j_frontend_versions.jsonl");
    let queries: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["query"].as_str().map(str::to_string))
        .collect();
    check_corpus("recorded frontend queries", &queries, 0.0);
}

/// Texts where a plausible shortcut would diverge from pest: each must come out as pest has it
/// (or fall back to it).
#[test]
fn fast_path_edge_cases() {
    let cases = [
        // Trailing whitespace and comments belong to spans that end in an unmatched optional.
        "MATCH (n)   RETURN n  ",
        "MATCH (n) // c\nRETURN n /* d */ ;",
        "MATCH (a)-[r:T*1..3]->  (b) WHERE a.x=1 RETURN a",
        "MATCH (a)-[*]-(b), (c)<-[:A|B*2]-(d) RETURN *",
        "MATCH (a)-[r *..5 {w: 1}]-(b) RETURN r",
        // Numbers and strings.
        "RETURN 1, -1, 1.5, .5, 1e3, 1.5e-3, -9223372036854775808, 9223372036854775808",
        "RETURN 1.x, [1..2], x[1..], x[..2], x[0]",
        "RETURN 'a\\'b', \"c\\u00e9\\n\", 'é'",
        // Operators, precedence, chains.
        "RETURN NOT a = b AND c OR d XOR e, -a ^ 2, a < b <= c, (a < b) < c",
        "RETURN a + b IS NULL, a IS NOT NULL, a STARTS WITH 'x', a ENDS WITH 'y', a =~ 'z'",
        "RETURN n:A:B, n:A|B, n:!A&%, x IN [1, 2], a || b",
        // Keywords as names, functions and special atoms.
        "RETURN count(*), count(DISTINCT x), exists(n.p), all(x IN l WHERE x > 1), any(x)",
        "RETURN end, order.id, `a``b`, reduce(s = 0, x IN l | s + x), none(x IN l)",
        "RETURN CASE WHEN a THEN 1 WHEN b, c THEN 2 ELSE 3 END, CASE x WHEN 1 THEN 2 END",
        "RETURN [x IN l WHERE x > 1 | x * 2], [(a)-->(b) | b.name], [p = (a)-[:T]->() | p]",
        "RETURN n {.a, .*, b: 1, c}, {a: 1, `b c`: [2]}, $p, $`q r`",
        "RETURN (a)-->(b), (a)-(b), (a:L), (a) - (b)",
        "MATCH p = shortestPath((a)-[*]-(b)) RETURN allShortestPaths((a)-->(b))",
        // Updating clauses.
        "CREATE (a:A {x: 1})-[:T {y: 2}]->(b) SET a.x = 1, a = {y: 2}, a += $m, a:B:C",
        "MERGE (a:A {id: 1}) ON CREATE SET a.c = 1 ON MATCH SET a.m = 2 REMOVE a.x, a:B",
        "MATCH (n) DETACH DELETE n",
        "MATCH (n) NODETACH DELETE n",
        "UNWIND [1, 2] AS x WITH DISTINCT x ORDER BY x DESC SKIP 1 LIMIT 2 RETURN x",
        "MATCH (n) RETURN n UNION ALL MATCH (m) RETURN m UNION MATCH (o) RETURN o",
        "CALL db.labels() YIELD label AS l WHERE l <> 'x' RETURN l",
        "CALL db.labels",
        "EXPLAIN MATCH (n) RETURN n",
        // Subqueries in expressions: a pattern body, a query body, COLLECT.
        "MATCH (n) WHERE EXISTS { (n)-[:T]->(m) WHERE m.x = 1 } RETURN n",
        "MATCH (n) WHERE EXISTS { MATCH (n)-->(m) WHERE m.x = 1 RETURN m } RETURN n",
        "MATCH (n) RETURN COUNT { (n)--() } > 1 AS busy, count { MATCH (n)-->(m) RETURN m }",
        "MATCH (n) RETURN COLLECT { MATCH (n)-->(m) RETURN m.name ORDER BY m.name } AS names",
        "MATCH (a) WHERE EXISTS { MATCH (a)-->(b) WHERE EXISTS { (b)-->(:C) } } RETURN a",
        "RETURN exists(n.p), count(n), collect(n.x), count, collect, exists",
        "MATCH (n) WHERE EXISTS { (n)-->() UNION MATCH (n)<--() RETURN n } RETURN n",
        "MATCH (n) WHERE EXISTS { (n)-->() RETURN 1 } RETURN n",
        "RETURN COUNT { }",
        // CALL subqueries.
        "MATCH (n) CALL { WITH n MATCH (n)-->(m) RETURN count(m) AS c } RETURN n, c",
        "MATCH (n) CALL (n) { MATCH (n)-->(m) RETURN m } RETURN m",
        "MATCH (n) OPTIONAL CALL (*) { RETURN 1 AS one } RETURN one",
        "CALL () { CREATE (:A) } RETURN 1",
        "MATCH (n) CALL (n) { DELETE n } IN TRANSACTIONS OF 10 ROWS",
        "CALL { RETURN 1 AS x UNION RETURN 2 AS x } RETURN x",
        "OPTIONAL CALL db.labels() YIELD label RETURN label",
        // Forms the fast path hands to pest (and their errors).
        "MATCH (n) RETURN n.x AS",
        "RETURN - -1",
        "RETURN a IS NULL IS NULL",
        "MATCH ((a)-->(b))+ RETURN a",
        "CYPHER 25 MATCH (n) RETURN n",
        "RETURN 0x1F, 0o7, 017, 1_000",
        "MATCH (n) SET n.a.b[0] = 1",
        "RETURN all",
        "RETURN distinct",
        // `RETURN ALL x` where a projection follows, else `all` read as an expression.
        "RETURN all(x IN [1, 2] WHERE x > 1) AS r, all(x) AS s",
        "RETURN ALL (x) AS r",
        "RETURN ALL x, y ORDER BY x",
        "WITH DISTINCT(x) AS y RETURN distinct.z",
        "RETURN case",
        "MATCH (n {a: ({b: ({c: ({d: 1})})})}) RETURN n",
        // SET/REMOVE take names only; the builder's check reads the text, so a comment after
        // a name fails it (both found by the mutation sweep below).
        "MATCH (n) SET n:F&oo RETURN n",
        "MATCH (n) SET n:Foo:Bar// c\nRETURN n",
        "MATCH (n) REMOVE n:A /* c */ RETURN n",
        "MATCH (n) SET n:A:B, n.x = 1 REMOVE n:C:D",
    ];
    for text in cases {
        if let Err(e) = compare(text) {
            panic!("{e}");
        }
        // And the public entry gives pest's verdict either way.
        assert_eq!(
            parse(text).is_ok(),
            parse_with_pest(text).is_ok(),
            "{text:?}"
        );
    }
}

/// A deterministic sweep of small edits over the TCK and LLM-written queries — deletions,
/// insertions of characters, tokens, whitespace and comments, swaps, case changes, copied
/// fragments — each checked as above. (A release-build run of this sweep with 60 mutants per
/// query and eight seeds, about 1.9 million texts the fast path covered, found the two
/// SET-label cases listed in `fast_path_edge_cases`.)
#[test]
fn fast_path_agrees_with_pest_on_mutated_queries() {
    let Some(shared) = common::shared_dir("fast path on mutated queries") else {
        return;
    };
    let mut queries: Vec<String> = common::tck_syntax(&shared)
        .into_iter()
        .map(|(_, q, _)| q)
        .collect();
    let text = std::fs::read_to_string(shared.join("data/text2cypher/gpt4turbo_queries.jsonl"))
        .expect("text2cypher queries");
    queries.extend(
        text.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v["query"].as_str().map(str::to_string))
            .step_by(4),
    );
    const CHARS: &str = " ()[]{}<>=:;,.'\"`$*+|&!%^/\\-\nanxZ_019é";
    const TOKENS: &[&str] = &[
        "IS", "NOT", "NULL", "WHERE", "AS", "-", "--", "->", "<-", "..", "*", "e", ".5", "1", "//",
        "/*", "*/", "\\", "CASE", "WHEN", "END", "ALL", "DISTINCT", ":", "::", "|", "&", "!", "%",
        "$", "`", "UNION", "count", "{", "}", " ", "/*x*/", "\n// c\n", "\t",
    ];
    let chars: Vec<char> = CHARS.chars().collect();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    let (mut covered, mut total) = (0usize, 0usize);
    let mut failures = Vec::new();
    for q in &queries {
        for _ in 0..2 {
            let mut c: Vec<char> = q.chars().collect();
            for _ in 0..1 + rnd() % 3 {
                let n = c.len();
                match rnd() % 6 {
                    0 if n > 0 => {
                        c.remove(rnd() % n);
                    }
                    1 => c.insert(rnd() % (n + 1), chars[rnd() % chars.len()]),
                    2 if n > 1 => {
                        let i = rnd() % (n - 1);
                        c.swap(i, i + 1);
                    }
                    3 => {
                        let at = rnd() % (n + 1);
                        let t: Vec<char> = TOKENS[rnd() % TOKENS.len()].chars().collect();
                        c.splice(at..at, t);
                    }
                    4 if n > 0 => {
                        let i = rnd() % n;
                        c[i] = if c[i].is_lowercase() {
                            c[i].to_ascii_uppercase()
                        } else {
                            c[i].to_ascii_lowercase()
                        };
                    }
                    _ if n > 0 => {
                        let s = rnd() % n;
                        let piece: Vec<char> = c[s..(s + 1 + rnd() % 12).min(n)].to_vec();
                        let at = rnd() % (n + 1);
                        c.splice(at..at, piece);
                    }
                    _ => {}
                }
            }
            let t: String = c.into_iter().collect();
            total += 1;
            match compare(&t) {
                Ok(true) => covered += 1,
                Ok(false) => {}
                Err(e) => failures.push(e),
            }
        }
    }
    eprintln!("mutated queries: the fast path covers {covered} of {total}");
    assert!(covered > total / 10, "covered {covered} of {total}");
    assert!(
        failures.is_empty(),
        "{} disagreements, the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n\n")
    );
}
