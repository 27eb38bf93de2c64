//! Error positions: each case asserts the line and column (1-based, in characters) of the first
//! offending character, and a word of the message.

use grape::syntax::parse;

#[track_caller]
fn err_at(query: &str, line: usize, column: usize, needle: &str) {
    let e = match parse(query) {
        Ok(_) => panic!("{query:?} parsed, expected an error at {line}:{column}"),
        Err(e) => e,
    };
    assert_eq!(
        (e.line, e.column),
        (line, column),
        "{query:?}: error at {}:{} ({}), expected {line}:{column}",
        e.line,
        e.column,
        e.message
    );
    assert!(
        e.message.contains(needle),
        "{query:?}: message {:?} lacks {needle:?}",
        e.message
    );
}

#[test]
fn unclosed_node_pattern() {
    err_at("MATCH (n:Person RETURN n", 1, 17, "expected ')'");
}

#[test]
fn unclosed_list_at_end_of_input() {
    err_at("RETURN [1, 2, 3", 1, 16, "expected ']'");
}

#[test]
fn misspelt_keyword() {
    err_at("MATCH (n) RETRUN n", 1, 11, "unexpected 'RETRUN'");
}

#[test]
fn dangling_operator_at_end() {
    err_at("RETURN 1 +", 1, 11, "an expression");
}

// A keyword where an expression stands is a variable to Neo4j (`RETURN end`, `order.id`), so a
// dangling operator before a clause fails where Neo4j's parser fails: at the word after the
// keyword (Neo4j 5's frontend: "Invalid input 'n'" and "Variable `RETURN` not defined").
#[test]
fn dangling_operator_before_keyword() {
    err_at("MATCH (n) WHERE n.age > RETURN n", 1, 32, "unexpected 'n'");
}

#[test]
fn keyword_where_an_expression_belongs() {
    err_at("RETURN 1 + AS x", 1, 16, "unexpected");
    err_at("MATCH (n) WHERE RETURN n", 1, 24, "unexpected 'n'");
}

#[test]
fn bad_escape_points_at_the_backslash() {
    err_at("RETURN 'a\\qb'", 1, 10, "invalid escape sequence `\\q`");
}

#[test]
fn surrogate_unicode_escape() {
    err_at("RETURN '\\uD800'", 1, 9, "not a Unicode scalar value");
}

#[test]
fn unterminated_string_points_at_its_quote() {
    err_at("RETURN 'abc", 1, 8, "unterminated string");
    err_at("MATCH (n)\nRETURN \"abc", 2, 8, "unterminated string");
}

#[test]
fn unterminated_comment_and_backtick() {
    err_at("RETURN 1 /* never closed", 1, 10, "unterminated comment");
    err_at("RETURN `abc", 1, 8, "unterminated escaped name");
}

#[test]
fn unclosed_relationship_detail() {
    err_at("MATCH (a)-[r:KNOWS->(b) RETURN a", 1, 19, "expected ']'");
}

#[test]
fn map_entry_without_value() {
    err_at("RETURN {a: } AS m", 1, 12, "an expression");
}

#[test]
fn map_key_must_be_a_name() {
    err_at("RETURN {1: 2}", 1, 9, "a name");
}

#[test]
fn letters_after_digits() {
    err_at("RETURN 12abc", 1, 10, "invalid number literal");
}

#[test]
fn hexadecimal_without_digits() {
    err_at("RETURN 0x AS x", 1, 8, "invalid number literal");
}

#[test]
fn missing_comma_between_items() {
    err_at("RETURN a b", 1, 10, "expected ','");
}

#[test]
fn extra_closing_parenthesis() {
    err_at("RETURN (1 + 2))", 1, 15, "unexpected ')'");
}

#[test]
fn order_without_by() {
    err_at("MATCH (n) RETURN n ORDER n.x", 1, 26, "expected BY");
}

#[test]
fn unwind_without_as() {
    err_at("UNWIND [1,2] x RETURN x", 1, 14, "AS");
}

#[test]
fn relationship_without_target_node() {
    err_at("MATCH (a)-[:R]-> RETURN a", 1, 18, "'('");
}

#[test]
fn empty_label() {
    err_at("MATCH (n:) RETURN n", 1, 10, "a name");
}

#[test]
fn negative_variable_length_bound() {
    err_at("MATCH (a)-[*1..-2]->(b) RETURN a", 1, 16, "expected ']'");
}

#[test]
fn case_without_end() {
    err_at("RETURN CASE WHEN true THEN 1", 1, 29, "END");
}

#[test]
fn error_on_a_later_line() {
    err_at("MATCH (n)\nWHERE n.x = \nRETURN n", 3, 8, "unexpected 'n'");
    err_at(
        "MATCH (n)\r\nWHERE n.x = 1\r\nRETURN n n",
        3,
        10,
        "unexpected 'n'",
    );
}

#[test]
fn columns_count_characters_not_bytes() {
    err_at("RETURN 'é日本' + )", 1, 16, "unexpected ')'");
}

#[test]
fn stray_character() {
    err_at("RETURN 1 # 2", 1, 10, "unexpected '#'");
}

#[test]
fn non_ascii_dash() {
    err_at("RETURN 42 — 41", 1, 11, "U+2014");
}

#[test]
fn unclosed_function_call() {
    err_at("RETURN count(n", 1, 15, "expected ')'");
}

#[test]
fn procedure_call_without_parentheses_inside_a_query() {
    err_at(
        "CALL db.labels YIELD label RETURN label",
        1,
        15,
        "needs parentheses",
    );
}

#[test]
fn yield_star_inside_a_query() {
    err_at("CALL db.labels() YIELD * RETURN label", 1, 18, "YIELD *");
}

#[test]
fn juxtaposed_node_patterns() {
    err_at("MATCH (a) (b) RETURN a", 1, 11, "relationship pattern");
}

#[test]
fn property_access_without_key() {
    err_at("RETURN n.", 1, 10, "a name");
}

#[test]
fn alias_missing_after_as() {
    err_at("WITH 1 AS x RETURN x AS", 1, 24, "a variable");
}

#[test]
fn empty_query() {
    err_at("", 1, 1, "end of input");
    err_at("  // only a comment\n", 2, 1, "end of input");
}

#[test]
fn quantifier_bounds_out_of_order() {
    err_at("MATCH (a)-[:R]->{3,1}(b) RETURN a", 1, 17, "greater than");
}

#[test]
fn diagnostic_renders_source_line_and_caret() {
    let e = parse("MATCH (n)\nWHERE n.age >\nRETURN n").unwrap_err();
    let text = e.render("query.cypher");
    assert_eq!(
        text,
        "error: unexpected 'n'; expected '(', ';', '{', CALL, CREATE, DELETE, DETACH, FILTER, …\n --> query.cypher:3:8\n  |\n3 | RETURN n\n  |        ^\n"
    );
}

#[test]
fn nesting_beyond_the_limit_is_an_error_not_a_crash() {
    let deep = format!("RETURN {}1{}", "[".repeat(5000), "]".repeat(5000));
    let e = parse(&deep).unwrap_err();
    assert!(e.message.contains("nesting"), "{}", e.message);
    let prefix = format!("RETURN {}1", "- ".repeat(100_000));
    assert!(parse(&prefix).is_err());
    let chain = format!("RETURN 1{}", " + 1".repeat(100_000));
    assert!(parse(&chain).is_err());
    let cases = format!(
        "RETURN {}1{}",
        "CASE WHEN true THEN ".repeat(3000),
        " END".repeat(3000)
    );
    assert!(parse(&cases).is_err());
    let props = format!("RETURN n{}", ".a".repeat(100_000));
    assert!(parse(&props).is_err());
    let types = format!(
        "RETURN 1 IS :: {}INTEGER{}",
        "LIST<".repeat(3000),
        ">".repeat(3000)
    );
    assert!(parse(&types).is_err());
}

#[test]
fn deep_but_allowed_nesting_parses_prints_and_drops_on_a_small_stack() {
    // 40 nested lists (the TCK has one) and long operator chains, on a 2 MiB thread.
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let q = format!("RETURN {}{} AS x", "[".repeat(40), "]".repeat(40));
            let ast = parse(&q).unwrap();
            let printed = grape::syntax::print(&ast, &Default::default());
            assert_eq!(parse(&printed).unwrap(), ast);
            let inner = format!("1{}", " + 1".repeat(100));
            let mut q = inner.clone();
            for _ in 0..40 {
                q = format!("[{q}, {inner}]");
            }
            let ast = parse(&format!("RETURN {q}")).unwrap();
            let printed = grape::syntax::print(&ast, &Default::default());
            assert_eq!(parse(&printed).unwrap(), ast);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn typographic_quotes() {
    err_at(
        "MATCH (m) WHERE m.title = “The Matrix” RETURN m",
        1,
        27,
        "U+201C",
    );
}

/// Where a statement (or the query after `UNION`) starts, Neo4j 5.26 lists its own
/// alternatives in its parser's order (the texts from the oracle).
#[test]
fn statement_starts_list_neo4js_alternatives() {
    let start = "expected 'FOREACH', 'ALTER', 'ORDER BY', 'CALL', 'USING PERIODIC COMMIT', 'CREATE', 'LOAD CSV', 'START DATABASE', 'STOP DATABASE', 'DEALLOCATE', 'DELETE', 'DENY', 'DETACH', 'DROP', 'DRYRUN', 'FINISH', 'GRANT', 'INSERT', 'LIMIT', 'MATCH', 'MERGE', 'NODETACH', 'OFFSET', 'OPTIONAL', 'REALLOCATE', 'REMOVE', 'RENAME', 'RETURN', 'REVOKE', 'ENABLE SERVER', 'SET', 'SHOW', 'SKIP', 'TERMINATE', 'UNWIND', 'USE' or 'WITH'";
    for (q, at) in [
        ("SELEC 1", "(line 1, column 1 (offset: 0))"),
        ("EXPLAIN SELEC 1", "(line 1, column 9 (offset: 8))"),
        ("  select * from x", "(line 1, column 3 (offset: 2))"),
    ] {
        let e = parse(q).unwrap_err();
        let m = e.neo4j_message(Some(q));
        let head = m.lines().next().unwrap();
        assert!(head.ends_with(&format!("{start} {at}")), "{q}: {head}");
    }
    let q = "MATCH (n) RETURN n UNION SELEC 1";
    let m = parse(q).unwrap_err().neo4j_message(Some(q));
    assert!(
        m.starts_with("Invalid input 'SELEC': expected 'FOREACH', 'ORDER BY', 'CALL', 'CREATE', 'LOAD CSV', 'DELETE', 'DETACH', 'FINISH', 'INSERT', 'LIMIT', 'MATCH', 'MERGE', 'NODETACH', 'OFFSET', 'OPTIONAL', 'REMOVE', 'RETURN', 'SET', 'SKIP', 'UNWIND', 'USE' or 'WITH' (line 1, column 26 (offset: 25))"),
        "{m}"
    );
}

/// `+ - * /` typed as Neo4j's compile-time checker types them: the left operand against every
/// type the operator takes on the left, the right one against the signatures of the left one's
/// type, the message placed at an operator's expression by its operator; under Cypher 25 `+`
/// joins a string to a boolean, temporal value, duration or point (Neo4j 5.26.30 and
/// 2026.08.1, the texts from the oracles; `None`: the statement runs).
#[test]
fn arithmetic_operands_are_typed_at_compile_time_as_neo4j_types_them() {
    let cases: &[(&str, Option<&str>)] = &[
        ("RETURN 1 + true", Some("Type mismatch: expected Float, Integer, String or List<T> but was Boolean (line 1, column 12 (offset: 11))")),
        ("RETURN true + 1", Some("Type mismatch: expected List<T> but was Integer (line 1, column 15 (offset: 14))")),
        ("RETURN 'a' + true", Some("Type mismatch: expected Float, Integer, String or List<T> but was Boolean (line 1, column 14 (offset: 13))")),
        ("RETURN date() + date()", Some("Type mismatch: expected Duration or List<T> but was Date (line 1, column 17 (offset: 16))")),
        ("RETURN date() + 1", Some("Type mismatch: expected Duration or List<T> but was Integer (line 1, column 17 (offset: 16))")),
        ("RETURN 1 + date()", Some("Type mismatch: expected Float, Integer, String or List<T> but was Date (line 1, column 12 (offset: 11))")),
        ("RETURN duration('P1D') + date()", None),
        ("RETURN 'a' + [1] - 1", Some("Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was List<Any> (line 1, column 12 (offset: 11))")),
        ("RETURN 'a' + [1]", None),
        ("RETURN [1] + 'a'", None),
        ("RETURN {a:1} + 1", Some("Type mismatch: expected List<T> but was Integer (line 1, column 16 (offset: 15))")),
        ("RETURN 1 + {a:1}", Some("Type mismatch: expected Float, Integer, String or List<T> but was Map (line 1, column 12 (offset: 11))")),
        ("RETURN true + true", Some("Type mismatch: expected List<T> but was Boolean (line 1, column 15 (offset: 14))")),
        ("RETURN 'a' + date()", Some("Type mismatch: expected Float, Integer, String or List<T> but was Date (line 1, column 14 (offset: 13))")),
        ("RETURN date() + 'a'", Some("Type mismatch: expected Duration or List<T> but was String (line 1, column 17 (offset: 16))")),
        ("RETURN 1.5 + 'a'", None),
        ("RETURN date() - date()", Some("Type mismatch: expected Duration but was Date (line 1, column 17 (offset: 16))")),
        ("RETURN date() - 1", Some("Type mismatch: expected Duration but was Integer (line 1, column 17 (offset: 16))")),
        ("RETURN 1 - date()", Some("Type mismatch: expected Float or Integer but was Date (line 1, column 12 (offset: 11))")),
        ("RETURN duration('P1D') - date()", Some("Type mismatch: expected Duration but was Date (line 1, column 26 (offset: 25))")),
        ("RETURN 1 * duration('P1D')", None),
        ("RETURN duration('P1D') * duration('P1D')", Some("Type mismatch: expected Float or Integer but was Duration (line 1, column 26 (offset: 25))")),
        ("RETURN date() * 2", Some("Type mismatch: expected Float, Integer or Duration but was Date (line 1, column 8 (offset: 7))")),
        ("RETURN 2 / duration('P1D')", Some("Type mismatch: expected Float or Integer but was Duration (line 1, column 12 (offset: 11))")),
        ("RETURN duration('P1D') / 2", None),
        ("RETURN 'a' * 2", Some("Type mismatch: expected Float, Integer or Duration but was String (line 1, column 8 (offset: 7))")),
        ("RETURN true - 1", Some("Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was Boolean (line 1, column 8 (offset: 7))")),
        ("RETURN point({x:1,y:2}) + 1", Some("Type mismatch: expected List<T> but was Integer (line 1, column 27 (offset: 26))")),
        ("RETURN localtime() + duration('PT1H')", None),
        ("RETURN time() - localtime()", Some("Type mismatch: expected Duration but was LocalTime (line 1, column 17 (offset: 16))")),
        ("RETURN [1] + [2] - 1", Some("Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was List<Integer> (line 1, column 12 (offset: 11))")),
        ("RETURN 1 + null", None),
        ("RETURN (1 + 2) + true", Some("Type mismatch: expected Float, Integer, String or List<T> but was Boolean (line 1, column 18 (offset: 17))")),
        ("WITH 1 AS x RETURN x + true", Some("Type mismatch: expected Float, Integer, String or List<T> but was Boolean (line 1, column 24 (offset: 23))")),
        ("RETURN 1 % true", Some("Type mismatch: expected Float or Integer but was Boolean (line 1, column 12 (offset: 11))")),
        ("RETURN duration('P1D') % 2", Some("Type mismatch: expected Float or Integer but was Duration (line 1, column 8 (offset: 7))")),
        ("RETURN 1 ^ true", Some("Type mismatch: expected Float but was Boolean (line 1, column 12 (offset: 11))")),
        ("RETURN 'a' + 1 - 1", Some("Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was String (line 1, column 12 (offset: 11))")),
        ("RETURN datetime() + date()", Some("Type mismatch: expected Duration or List<T> but was Date (line 1, column 21 (offset: 20))")),
        ("CYPHER 25 RETURN 1 + true", Some("Type mismatch: expected Float, Integer, String or List<T> but was Boolean (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN true + 1", Some("Type mismatch: expected String or List<T> but was Integer (line 1, column 25 (offset: 24))")),
        ("CYPHER 25 RETURN 'a' + true", None),
        ("CYPHER 25 RETURN date() + date()", Some("Type mismatch: expected String, Duration or List<T> but was Date (line 1, column 27 (offset: 26))")),
        ("CYPHER 25 RETURN date() + 1", Some("Type mismatch: expected String, Duration or List<T> but was Integer (line 1, column 27 (offset: 26))")),
        ("CYPHER 25 RETURN 1 + date()", Some("Type mismatch: expected Float, Integer, String or List<T> but was Date (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN duration('P1D') + date()", None),
        ("CYPHER 25 RETURN 'a' + [1] - 1", Some("Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was List<Any> (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN 'a' + [1]", None),
        ("CYPHER 25 RETURN [1] + 'a'", None),
        ("CYPHER 25 RETURN {a:1} + 1", Some("Type mismatch: expected List<T> but was Integer (line 1, column 26 (offset: 25))")),
        ("CYPHER 25 RETURN 1 + {a:1}", Some("Type mismatch: expected Float, Integer, String or List<T> but was Map (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN true + true", Some("Type mismatch: expected String or List<T> but was Boolean (line 1, column 25 (offset: 24))")),
        ("CYPHER 25 RETURN 'a' + date()", None),
        ("CYPHER 25 RETURN date() + 'a'", None),
        ("CYPHER 25 RETURN 1.5 + 'a'", None),
        ("CYPHER 25 RETURN date() - date()", Some("Type mismatch: expected Duration but was Date (line 1, column 27 (offset: 26))")),
        ("CYPHER 25 RETURN date() - 1", Some("Type mismatch: expected Duration but was Integer (line 1, column 27 (offset: 26))")),
        ("CYPHER 25 RETURN 1 - date()", Some("Type mismatch: expected Float or Integer but was Date (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN duration('P1D') - date()", Some("Type mismatch: expected Duration but was Date (line 1, column 36 (offset: 35))")),
        ("CYPHER 25 RETURN 1 * duration('P1D')", None),
        ("CYPHER 25 RETURN duration('P1D') * duration('P1D')", Some("Type mismatch: expected Float or Integer but was Duration (line 1, column 36 (offset: 35))")),
        ("CYPHER 25 RETURN date() * 2", Some("Type mismatch: expected Float, Integer or Duration but was Date (line 1, column 18 (offset: 17))")),
        ("CYPHER 25 RETURN 2 / duration('P1D')", Some("Type mismatch: expected Float or Integer but was Duration (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN duration('P1D') / 2", None),
        ("CYPHER 25 RETURN 'a' * 2", Some("Type mismatch: expected Float, Integer or Duration but was String (line 1, column 18 (offset: 17))")),
        ("CYPHER 25 RETURN true - 1", Some("Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was Boolean (line 1, column 18 (offset: 17))")),
        ("CYPHER 25 RETURN point({x:1,y:2}) + 1", Some("Type mismatch: expected String or List<T> but was Integer (line 1, column 37 (offset: 36))")),
        ("CYPHER 25 RETURN localtime() + duration('PT1H')", None),
        ("CYPHER 25 RETURN time() - localtime()", Some("Type mismatch: expected Duration but was LocalTime (line 1, column 27 (offset: 26))")),
        ("CYPHER 25 RETURN [1] + [2] - 1", Some("Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was List<Integer> (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN 1 + null", None),
        ("CYPHER 25 RETURN (1 + 2) + true", Some("Type mismatch: expected Float, Integer, String or List<T> but was Boolean (line 1, column 28 (offset: 27))")),
        ("CYPHER 25 WITH 1 AS x RETURN x + true", Some("Type mismatch: expected Float, Integer, String or List<T> but was Boolean (line 1, column 34 (offset: 33))")),
        ("CYPHER 25 RETURN 1 % true", Some("Type mismatch: expected Float or Integer but was Boolean (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN duration('P1D') % 2", Some("Type mismatch: expected Float or Integer but was Duration (line 1, column 18 (offset: 17))")),
        ("CYPHER 25 RETURN 1 ^ true", Some("Type mismatch: expected Float but was Boolean (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN 'a' + 1 - 1", Some("Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was String (line 1, column 22 (offset: 21))")),
        ("CYPHER 25 RETURN datetime() + date()", Some("Type mismatch: expected String, Duration or List<T> but was Date (line 1, column 31 (offset: 30))")),
        ("CYPHER 25 RETURN 'a' + {a:1}", Some("Type mismatch: expected Boolean, Float, Integer, Point, String, Duration, Date, Time, LocalTime, LocalDateTime, DateTime, Vector or List<T> but was Map (line 1, column 24 (offset: 23))")),
        ("CYPHER 25 RETURN duration('P1D') + {a:1}", Some("Type mismatch: expected String, Duration, Date, Time, LocalTime, LocalDateTime, DateTime or List<T> but was Map (line 1, column 36 (offset: 35))")),
        ("CYPHER 25 RETURN true + {a:1}", Some("Type mismatch: expected String or List<T> but was Map (line 1, column 25 (offset: 24))")),
        ("CYPHER 25 RETURN {a:1} + 'a'", Some("Type mismatch: expected List<T> but was String (line 1, column 26 (offset: 25))")),
        ("CYPHER 25 RETURN 1.5 + date()", Some("Type mismatch: expected Float, Integer, String or List<T> but was Date (line 1, column 24 (offset: 23))")),
        ("CYPHER 25 RETURN ('a' + true) - 1", Some("Type mismatch: expected Float, Integer, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was String (line 1, column 23 (offset: 22))")),
        ("CYPHER 25 RETURN (true + 'a') * 2", Some("Type mismatch: expected Float, Integer or Duration but was String (line 1, column 24 (offset: 23))")),
    ];
    let mut g = grape::graph::Graph::default();
    for (q, expected) in cases {
        let got = grape::engine::run(&mut g, q, &Default::default());
        match (expected, got) {
            (None, Ok(_)) => {}
            (None, Err(e)) => panic!("{q}: {}", e.neo4j_message(q)),
            (Some(m), Ok(_)) => panic!("{q}: ran, expected {m}"),
            (Some(m), Err(e)) => {
                assert_eq!(e.code(), "Neo.ClientError.Statement.SyntaxError", "{q}");
                let text = e.neo4j_message(q);
                assert_eq!(text.lines().next().unwrap(), *m, "{q}");
            }
        }
    }
}

/// Typing an operator chain types each operand once: the longest chain the parser takes (127
/// operators, each kind) is checked at once, where typing operands again per rule took time
/// exponential in the chain's length (22 `+` took minutes).
#[test]
fn long_operator_chains_are_typed_in_linear_time() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for (first, op, term) in [("1", "+", "1"), ("[1]", "+", "[1]"), ("1", "*", "(2 - 1)")] {
            let q = format!("RETURN {first}{}", format!(" {op} {term}").repeat(126));
            let mut g = grape::graph::Graph::default();
            let r = grape::engine::run(&mut g, &q, &Default::default());
            tx.send((q, r.is_ok())).unwrap();
        }
    });
    for _ in 0..3 {
        let (q, ok) = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("typing a 127-operator chain did not finish");
        assert!(ok, "{q}");
    }
}
