//! Property tests for the parser and the canonical printer.
//!
//! - Arbitrary text never panics the parser, and whatever parses round-trips through the printer.
//! - Real queries (ZOGRASCOPE gold, TCK accepts) with random edits never panic the parser, and
//!   round-trip when they still parse.
//! - Generated ASTs, in the normalized form the parser produces, print to text that parses back
//!   to an equal AST.
//! - In all three, wherever the hand-written fast path (`parse_fast`) returns an AST, the pest
//!   grammar (`parse_with_pest`) gives the same one, spans included, and never rejects the text.
//!
//! Failures are not persisted to disk; proptest prints the minimal failing input and the seed.

mod common;
#[path = "support/syntax_gen.rs"]
mod syntax_gen;

use grape::syntax::*;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{RngAlgorithm, TestRunner};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        // The default ChaCha generator, unoptimized in a debug build, costs more than the test.
        rng_algorithm: RngAlgorithm::XorShift,
        ..ProptestConfig::default()
    }
}

/// Where the fast path covers `text`, pest parses it to the same AST, spans included (compared
/// serialized: spans take no part in `==`).
fn check_fast_path(text: &str) -> Result<(), TestCaseError> {
    let Some(fast) = parse_fast(text) else {
        return Ok(());
    };
    match parse_with_pest(text) {
        Ok(slow) => {
            let a = serde_json::to_value(&fast).expect("serialize");
            let b = serde_json::to_value(&slow).expect("serialize");
            prop_assert!(
                a == b,
                "fast path and pest differ for {text:?}\nfast: {a}\npest: {b}"
            );
            Ok(())
        }
        Err(e) => Err(TestCaseError::fail(format!(
            "the fast path accepts {text:?}, which pest rejects: {e}"
        ))),
    }
}

/// If `text` parses (as a statement or a script), the canonical print parses back to an equal AST.
fn check_round_trip(text: &str) -> Result<(), TestCaseError> {
    check_fast_path(text)?;
    if let Ok(ast) = parse(text) {
        let printed = print(&ast, &PrintOptions::default());
        match parse(&printed) {
            Ok(again) => prop_assert!(
                again == ast,
                "round trip differs\ninput:   {text:?}\nprinted: {printed:?}"
            ),
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "printed text does not parse\ninput:   {text:?}\nprinted: {printed:?}\n{e}"
                )))
            }
        }
    }
    if let Ok(script) = parse_script(text) {
        let printed = print_script(&script, &PrintOptions::default());
        match parse_script(&printed) {
            Ok(again) => prop_assert!(
                again == script,
                "script round trip differs\ninput:   {text:?}\nprinted: {printed:?}"
            ),
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "printed script does not parse\ninput:   {text:?}\nprinted: {printed:?}\n{e}"
                )))
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// 1. Arbitrary strings

/// Cypher tokens, for text that gets further into the grammar than random characters do.
#[rustfmt::skip]
const TOKENS: &[&str] = &[
    "MATCH", "OPTIONAL", "WHERE", "RETURN", "WITH", "UNWIND", "AS", "CREATE", "MERGE", "SET",
    "DELETE", "DETACH", "REMOVE", "ORDER BY", "SKIP", "LIMIT", "DISTINCT", "UNION", "ALL", "AND",
    "OR", "XOR", "NOT", "IN", "IS", "NULL", "true", "CASE", "WHEN", "THEN", "ELSE", "END",
    "EXISTS", "COUNT", "count(*)", "CALL", "YIELD", "ON", "STARTS WITH", "CONTAINS", "::",
    "INTEGER", "LIST<", "ANY", "SHORTEST", "reduce", "n", "m", "r", "x", "p", "Person", "`a b`",
    "name", "f", "1", "0x1F", "2.5", "1e3", "'s'", "\"t\"", "$p", "$0", "(", ")", "[", "]", "{",
    "}", ":", ".", "..", ",", ";", "|", "&", "!", "%", "=", "<>", "<", ">", "<=", "=~", "+", "-",
    "*", "/", "^", "||", "+=", "-->", "<--", "--", "->", "<-", "-[", "]->", "*1..3", "{1,3}",
    "// c\n", "/* c */",
];

fn token_soup() -> BoxedStrategy<String> {
    prop::collection::vec(
        (prop::sample::select(TOKENS), prop::bool::weighted(0.8)),
        0..24,
    )
    .prop_map(|toks| {
        let mut s = String::new();
        for (t, space) in toks {
            s.push_str(t);
            if space {
                s.push(' ');
            }
        }
        s
    })
    .boxed()
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn arbitrary_strings_never_panic(text in prop_oneof![
        any::<String>(),
        any_string(40),
        "[ a-zA-Z0-9_()\\[\\]{}<>=:;,.'\"`$*+|&!%^/\\\\-]{0,80}",
        token_soup(),
    ]) {
        check_round_trip(&text)?;
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Mutated corpus queries

/// Characters that mutations insert.
const MUTATION_CHARS: &[char] = &[
    ' ', '(', ')', '[', ']', '{', '}', '<', '>', '=', ':', ';', ',', '.', '\'', '"', '`', '$', '*',
    '+', '|', '&', '!', '%', '^', '/', '\\', '-', '\n', 'a', 'n', 'x', 'Z', '_', '0', '1', '9',
    'é',
];

#[derive(Clone, Debug)]
enum Mutation {
    Delete(Index),
    Insert(Index, char),
    SwapAdjacent(Index),
    /// Copies `len` characters from the first position to the second.
    Duplicate(Index, usize, Index),
}

fn mutation() -> BoxedStrategy<Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Delete),
        (any::<Index>(), prop::sample::select(MUTATION_CHARS))
            .prop_map(|(at, c)| Mutation::Insert(at, c)),
        any::<Index>().prop_map(Mutation::SwapAdjacent),
        (any::<Index>(), 1usize..12, any::<Index>())
            .prop_map(|(from, len, to)| Mutation::Duplicate(from, len, to)),
    ]
    .boxed()
}

fn mutate(query: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = query.chars().collect();
    for m in mutations {
        let n = chars.len();
        match m {
            Mutation::Delete(at) if n > 0 => {
                chars.remove(at.index(n));
            }
            Mutation::Insert(at, c) => chars.insert(at.index(n + 1), *c),
            Mutation::SwapAdjacent(at) if n > 1 => chars.swap(at.index(n - 1), at.index(n - 1) + 1),
            Mutation::Duplicate(from, len, to) if n > 0 => {
                let start = from.index(n);
                let slice: Vec<char> = chars[start..(start + len).min(n)].to_vec();
                let at = to.index(n + 1);
                chars.splice(at..at, slice);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_corpus_queries_never_panic() {
    let Some(shared) = common::shared_dir("mutated corpus queries") else {
        return;
    };
    // A deterministic sample: every 7th ZOGRASCOPE gold query and every 7th TCK accept query.
    let mut sample: Vec<String> = common::zograscope(&shared)
        .into_iter()
        .step_by(7)
        .map(|(_, q)| q)
        .collect();
    sample.extend(
        common::tck_syntax(&shared)
            .into_iter()
            .filter(|(_, _, accept)| *accept)
            .step_by(7)
            .map(|(_, q, _)| q),
    );
    assert!(sample.len() > 1000, "sample of {} queries", sample.len());

    let mut runner = TestRunner::new(config(2000));
    let strategy = (any::<Index>(), prop::collection::vec(mutation(), 1..=3));
    let result = runner.run(&strategy, |(pick, mutations)| {
        let text = mutate(pick.get(&sample).as_str(), &mutations);
        check_round_trip(&text)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Generated ASTs (the strategies are in `support/syntax_gen.rs`, shared with the live
// differential run against Neo4j's frontend in `neo4j_frontend.rs`)

use syntax_gen::{any_string, first_difference, statement};

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn generated_asts_round_trip(stmt in statement()) {
        let printed = print(&stmt, &PrintOptions::default());
        check_fast_path(&printed)?;
        match parse(&printed) {
            Ok(again) => prop_assert!(
                again == stmt,
                "round trip differs for the printed text\n{printed}\n{}",
                first_difference(&stmt, &again)
            ),
            Err(err) => {
                return Err(TestCaseError::fail(format!(
                    "printed text does not parse\n{printed}\n{err}"
                )))
            }
        }
    }
}

/// Texts that did not parse, or whose canonical print did not read back as the same AST, before
/// the fixes these properties led to.
#[test]
fn round_trip_regressions() {
    for text in [
        // `IN CONCURRENT TRANSACTIONS` read CONCURRENT as the concurrency expression.
        "CALL { RETURN 1 } IN CONCURRENT TRANSACTIONS",
        "CALL { RETURN 1 } IN concurrent CONCURRENT TRANSACTIONS OF 2 ROWS",
        // `SET n:A.p = 1` reads as `SET n:A` followed by `.p`.
        "SET (n:A).p = 1",
        "REMOVE (n:A)[k]",
        // `[x IN l]` is a list comprehension.
        "RETURN [(x IN l)], [(true IN l) AND y], [(`a``b` IN l) IS NULL]",
        // A pattern (or `(x IS NULL)`, the node pattern `(x:NULL)`) runs on into `- -(…)`.
        "RETURN (a)-->(b) - (-(c)-->(d))",
        "RETURN (a IS NULL) - (-(b IS NULL))",
        "RETURN x < (a)-->(b) < (-(-(c IS NULL)))",
        // Functions named like the words of special atoms.
        "RETURN `null`(1), `all`(x IN l), `not`(x), `TRUE`.f(), count(x), exists(n.p)",
        "RETURN CASE `case`(a) WHEN 1 THEN 2 END",
        // `USE graph` reads `graph` as the keyword GRAPH.
        "USE `graph`",
        "USE `graph`.byName('a')",
    ] {
        let ast = parse(text).unwrap_or_else(|e| panic!("{text:?} does not parse: {e}"));
        let printed = print(&ast, &PrintOptions::default());
        let again = parse(&printed).unwrap_or_else(|e| {
            panic!("{text:?} prints as {printed:?}, which does not parse: {e}")
        });
        assert!(
            again == ast,
            "{text:?} prints as {printed:?}, which reads back differently"
        );
    }
}
