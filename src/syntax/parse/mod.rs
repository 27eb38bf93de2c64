//! From text to AST: the pest grammar (`grammar/cypher.pest`) produces pairs; this module turns
//! them into the typed AST, applying operator precedence with a Pratt parser and checking what
//! the grammar alone cannot (pattern element order, literal ranges, standalone `CALL`).

use super::ast::*;
use super::error::ParseError;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;
use std::cell::Cell;
use std::sync::LazyLock;

// The builder's methods, by topic: statements and clauses, patterns, expressions and types.
mod admin;
mod clauses;
mod descent;
mod exprs;
mod patterns;
mod schema;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/cypher.pest"]
pub(crate) struct CypherParser;

/// How deeply expressions may nest (brackets, function arguments, CASE inside CASE, …).
const MAX_NESTING: usize = 64;
/// How tall one operator chain may grow (`a + b + …`, `NOT NOT …`, `x.a.b.c…`).
const MAX_CHAIN: usize = 128;
/// Bracket depth checked before parsing, so that pathological input fails fast.
const MAX_BRACKETS: usize = 200;
/// Subquery depth checked before parsing: each `{ … }` that opens a query — `CALL { }`,
/// `EXISTS { }`, `COUNT { }`, `COLLECT { }`, a braced query, a WHEN branch — costs the parser,
/// the analysis and the executor far more stack than a bracket of an expression. 32 levels stay
/// within a 2 MiB thread stack in a release build; 150 nested `CALL { }` did not. (Map literals
/// nest like brackets: the TCK has 40-deep ones.)
const MAX_SUBQUERIES: usize = 32;

/// Parses one Cypher statement (an optional trailing `;` is allowed).
///
/// ```
/// let stmt = grape::syntax::parse("MATCH (n:Person) RETURN n.name AS name").unwrap();
/// assert_eq!(stmt.query.first.clauses.len(), 2);
/// ```
pub fn parse(source: &str) -> Result<Statement, ParseError> {
    precheck(source)?;
    if let Some(stmt) = descent::parse(source) {
        return Ok(stmt);
    }
    pest_statement(source)
}

/// [`parse`] by the pest grammar alone, without the hand-written fast path: the reference the
/// fast path is tested against, and the path that reports every error.
#[doc(hidden)]
pub fn parse_with_pest(source: &str) -> Result<Statement, ParseError> {
    precheck(source)?;
    pest_statement(source)
}

/// The hand-written fast path alone: `Some` where it covers `source` (and then equal to
/// [`parse_with_pest`], spans included), `None` where [`parse`] falls back to pest.
#[doc(hidden)]
pub fn parse_fast(source: &str) -> Option<Statement> {
    precheck(source).ok()?;
    descent::parse(source)
}

fn pest_statement(source: &str) -> Result<Statement, ParseError> {
    let mut pairs = CypherParser::parse(Rule::statement_only, source)
        .map_err(|_| detailed_error(Rule::statement_only, source))?;
    let top = pairs.next().ok_or_else(|| internal(source, 0))?;
    let b = Builder::new(source);
    let stmt = top
        .into_inner()
        .find(|p| p.as_rule() == Rule::statement)
        .ok_or_else(|| internal(source, 0))?;
    b.statement(stmt)
}

/// Parses a script: statements separated by `;` (empty statements are skipped).
pub fn parse_script(source: &str) -> Result<Script, ParseError> {
    precheck(source)?;
    let mut pairs = CypherParser::parse(Rule::script, source)
        .map_err(|_| detailed_error(Rule::script, source))?;
    let top = pairs.next().ok_or_else(|| internal(source, 0))?;
    let span = span_of(&top);
    let b = Builder::new(source);
    let mut statements = Vec::new();
    for p in top.into_inner() {
        if p.as_rule() == Rule::statement {
            statements.push(b.statement(p)?);
        }
    }
    Ok(Script { statements, span })
}

/// Splits a script into the source text of each statement (by the grammar, so `;` inside strings
/// and comments is handled). Statements that fail to parse make the whole script fail; use
/// [`split_statements_lenient`] to keep going.
pub fn split_statements(source: &str) -> Result<Vec<(usize, &str)>, ParseError> {
    let script = parse_script(source)?;
    Ok(script
        .statements
        .iter()
        .map(|s| (s.span.start, s.span.text(source)))
        .collect())
}

/// Splits a script at top-level `;` by a light lexer (strings, backticks and comments are
/// respected) without parsing, so that one bad statement does not hide the others. Returns the
/// byte offset and text of each non-empty statement.
pub fn split_statements_lenient(source: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut lex = Lexer::new(source);
    while let Some((i, c)) = lex.next_code_char() {
        if c == b';' {
            push_stmt(source, start, i, &mut out);
            start = i + 1;
        }
    }
    push_stmt(source, start, source.len(), &mut out);
    out
}

fn push_stmt<'a>(source: &'a str, start: usize, end: usize, out: &mut Vec<(usize, &'a str)>) {
    let text = &source[start..end];
    // Skip statements that hold only whitespace and comments.
    let mut lex = Lexer::new(text);
    if lex.next_code_char().is_none() {
        return;
    }
    let trimmed_start = text.len() - text.trim_start().len();
    out.push((start + trimmed_start, text.trim()));
}

/// A minimal lexer that yields the bytes outside strings, escaped names and comments.
struct Lexer<'a> {
    bytes: &'a [u8],
    i: usize,
}

impl<'a> Lexer<'a> {
    fn new(s: &'a str) -> Self {
        Lexer {
            bytes: s.as_bytes(),
            i: 0,
        }
    }
    fn next_code_char(&mut self) -> Option<(usize, u8)> {
        let b = self.bytes;
        while self.i < b.len() {
            let c = b[self.i];
            match c {
                b'\'' | b'"' => {
                    self.i += 1;
                    while self.i < b.len() && b[self.i] != c {
                        if b[self.i] == b'\\' {
                            self.i += 1;
                        }
                        self.i += 1;
                    }
                    self.i += 1;
                }
                b'`' => {
                    self.i += 1;
                    while self.i < b.len() && b[self.i] != b'`' {
                        self.i += 1;
                    }
                    self.i += 1;
                }
                b'/' if b.get(self.i + 1) == Some(&b'/') => {
                    while self.i < b.len() && b[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                b'/' if b.get(self.i + 1) == Some(&b'*') => {
                    self.i += 2;
                    while self.i < b.len()
                        && !(b[self.i] == b'*' && b.get(self.i + 1) == Some(&b'/'))
                    {
                        self.i += 1;
                    }
                    self.i += 2;
                }
                c if c.is_ascii_whitespace() => self.i += 1,
                _ => {
                    self.i += 1;
                    return Some((self.i - 1, c));
                }
            }
        }
        None
    }
}

/// Words after which a `{` opens a subquery (or a braced query), not a map.
const SUBQUERY_WORDS: &[&[u8]] = &[
    b"call",
    b"exists",
    b"count",
    b"collect",
    b"then",
    b"else",
    b"union",
    b"all",
    b"distinct",
    b"next",
    b"cypher",
    b"explain",
    b"profile",
    b"optional",
];

/// Rejects input nested deeper than [`MAX_BRACKETS`] before the parser recurses into it. Brackets,
/// `CASE … END` and `LIST<…>` types are the constructs the grammar nests by recursion.
fn precheck(source: &str) -> Result<(), ParseError> {
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    // Open braces, each marked whether it opens a subquery.
    let mut braces: Vec<bool> = Vec::new();
    let mut subqueries = 0usize;
    // The last word and the last character that was not whitespace, for telling a subquery's
    // `{` (after `CALL`, `EXISTS`, `)`, `{`, `}`, …) from a map's.
    let mut prev_word: &[u8] = b"";
    let mut prev_char: Option<u8> = None;
    let mut lex = Lexer::new(source);
    let is_word_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    // The word that ended just before the current character, if any (for `CASE`, `LIST<`).
    let mut word_start = 0usize;
    let mut last_word: &[u8] = b"";
    let open = |i: usize, depth: &mut usize| -> Result<(), ParseError> {
        *depth += 1;
        if *depth > MAX_BRACKETS {
            return Err(ParseError::at(
                source,
                i,
                format!("nesting deeper than {MAX_BRACKETS} levels"),
                vec![],
            ));
        }
        Ok(())
    };
    while let Some((i, c)) = lex.next_code_char() {
        if is_word_byte(c) {
            if i == 0 || !is_word_byte(bytes[i - 1]) {
                word_start = i;
            }
            let end = i + 1;
            if bytes.get(end).is_none_or(|b| !is_word_byte(*b)) {
                let w = &bytes[word_start.min(i)..end];
                prev_word = w;
                prev_char = Some(c);
                if w.eq_ignore_ascii_case(b"case") {
                    open(i, &mut depth)?;
                } else if w.eq_ignore_ascii_case(b"end") {
                    depth = depth.saturating_sub(1);
                }
                last_word = w;
            }
            continue;
        }
        let before = prev_char;
        if !c.is_ascii_whitespace() {
            prev_char = Some(c);
        }
        match c {
            b'{' => {
                let after_word = before.is_some_and(is_word_byte);
                let subquery = match before {
                    None | Some(b')' | b'{' | b'}') => true,
                    // (A number: `CYPHER 25 { … }`.)
                    Some(_) if after_word => {
                        prev_word.iter().all(u8::is_ascii_digit)
                            || SUBQUERY_WORDS
                                .iter()
                                .any(|k| prev_word.eq_ignore_ascii_case(k))
                    }
                    Some(_) => false,
                };
                braces.push(subquery);
                if subquery {
                    subqueries += 1;
                    if subqueries > MAX_SUBQUERIES {
                        return Err(ParseError::at(
                            source,
                            i,
                            format!("subqueries nested deeper than {MAX_SUBQUERIES} levels"),
                            vec![],
                        ));
                    }
                }
                open(i, &mut depth)?
            }
            b'}' => {
                if braces.pop() == Some(true) {
                    subqueries = subqueries.saturating_sub(1);
                }
                depth = depth.saturating_sub(1);
            }
            b'(' | b'[' => open(i, &mut depth)?,
            b'<' if last_word.eq_ignore_ascii_case(b"list")
                || last_word.eq_ignore_ascii_case(b"array")
                || last_word.eq_ignore_ascii_case(b"any")
                || last_word.eq_ignore_ascii_case(b"value") =>
            {
                open(i, &mut depth)?
            }
            b')' | b']' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        last_word = b"";
    }
    Ok(())
}

fn internal(source: &str, offset: usize) -> ParseError {
    ParseError::at(
        source,
        offset,
        "internal parser error: unexpected parse tree".to_string(),
        vec![],
    )
}

fn span_of(p: &Pair<'_, Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

// ---------------------------------------------------------------------------------------------
// pest errors to ParseError

/// Serialises the detailed re-parse: pest's switch for token-level error detail is global.
static DETAIL_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Parses `source` again with pest's token-level tracking switched on (it costs time, so the
/// first attempt runs without it) and turns the failure into a [`ParseError`] that names the
/// exact tokens expected at the furthest point reached.
fn detailed_error(rule: Rule, source: &str) -> ParseError {
    let guard = DETAIL_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    pest::set_error_detail(true);
    let result = CypherParser::parse(rule, source);
    pest::set_error_detail(false);
    drop(guard);
    match result {
        Err(e) => from_pest(source, e),
        Ok(_) => internal(source, 0),
    }
}

fn from_pest(source: &str, e: pest::error::Error<Rule>) -> ParseError {
    let mut offset = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    if let pest::error::ErrorVariant::CustomError { message } = &e.variant {
        let message = if message.contains("limit reached") {
            "query too deeply nested to parse".to_string()
        } else {
            message.clone()
        };
        return ParseError::at(source, offset, message, vec![]);
    }
    // What was expected at the furthest point reached: exact tokens (from the detailed
    // re-parse) and rules.
    let mut tokens: Vec<String> = Vec::new();
    let mut rules: Vec<Rule> = Vec::new();
    if let Some(attempts) = e.parse_attempts() {
        offset = offset.max(attempts.max_position);
        if attempts.max_position == offset {
            tokens.extend(attempts.expected_tokens().iter().filter_map(describe_token));
            rules.extend(
                attempts
                    .call_stacks
                    .iter()
                    .filter_map(|s| s.deepest.get_rule().copied()),
            );
        }
    }
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &e.variant {
        if tokens.is_empty() && rules.is_empty() {
            rules.extend(positives.iter().copied());
        }
    }
    let offset = offset.min(source.len());

    // Constructs left open at the end: point at where they start.
    if source[offset..].trim().is_empty() {
        if let Some((start, what)) = unterminated(source) {
            return ParseError::at(source, start, format!("unterminated {what}"), vec![]);
        }
    }
    // A backslash followed by something that is not an escape.
    if offset > 0 && source.as_bytes()[offset - 1] == b'\\' {
        let esc: String = source[offset - 1..].chars().take(2).collect();
        return ParseError::at(
            source,
            offset - 1,
            format!(
                "invalid escape sequence `{esc}` (valid: \\\\, \\', \\\", \\b, \\f, \\n, \\r, \\t, \\uXXXX, \\UXXXXXXXX)"
            ),
            vec![],
        );
    }
    let reserved = rules.contains(&Rule::RESERVED);
    // pest's furthest point can be just past a token (a keyword's boundary check, a number's
    // suffix check): the offending token is then the one before the whitespace.
    let mut offset = offset;
    if source[offset..]
        .chars()
        .next()
        .is_some_and(char::is_whitespace)
    {
        offset = previous_token_start(source, offset);
    }
    // A non-ASCII symbol (a typographic quote or dash) is never valid outside strings and names;
    // pest may report the character after it.
    if let Some(prev) = source[..offset].chars().next_back() {
        if !prev.is_ascii() && !prev.is_alphanumeric() && !prev.is_whitespace() {
            offset -= prev.len_utf8();
        }
    }
    let expected = if reserved {
        vec!["an expression".to_string()]
    } else {
        expected_list(&tokens, &rules)
    };
    let err = ParseError::at(source, offset, String::new(), expected);
    let found = if err.found == "end of input" {
        err.found.clone()
    } else {
        format!("'{}'", err.found)
    };
    let message = message_for(source, err.offset, &found, &err.expected, reserved);
    ParseError { message, ..err }
}

/// The start of the token that ends before `offset` (skipping whitespace backwards).
fn previous_token_start(source: &str, offset: usize) -> usize {
    let before = source[..offset].trim_end();
    let mut chars = before.char_indices().rev();
    let Some((last_i, last)) = chars.next() else {
        return offset;
    };
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    if !is_word(last) {
        return last_i;
    }
    let mut start = last_i;
    for (i, c) in chars {
        if is_word(c) {
            start = i;
        } else {
            break;
        }
    }
    start
}

/// A string, escaped name or block comment that runs to the end of the input.
fn unterminated(source: &str) -> Option<(usize, &'static str)> {
    let b = source.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            q @ (b'\'' | b'"') => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != q {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= b.len() {
                    return Some((start, "string literal: no closing quote"));
                }
            }
            b'`' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'`' {
                    i += 1;
                }
                if i >= b.len() {
                    return Some((start, "escaped name: no closing backtick"));
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                if i + 1 >= b.len() {
                    return Some((start, "comment: no closing `*/`"));
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Orders what was expected for a message: closing brackets and separators first, then
/// keywords, then descriptions; operator characters collapse into "an operator".
fn expected_list(tokens: &[String], rules: &[Rule]) -> Vec<String> {
    const OPERATORS: &[&str] = &[
        "'!'", "'%'", "'*'", "'+'", "'-'", "'<'", "'='", "'>'", "'^'", "'|'", "'.'", "'['", "':'",
        "'::'", "'=~'", "'<>'", "'!='", "'<='", "'>='", "'||'",
    ];
    // Characters that only guard alternatives or belong inside names and literals.
    const NOISE: &[&str] = &[
        "'/'", "'_'", "'`'", "'u'", "'U'", "'\\'", "'''", "'\"'", "'0x'", "'0o'", "'$'",
    ];
    let mut punct = Vec::new();
    let mut words = Vec::new();
    let mut descr = Vec::new();
    let mut operator = false;
    for t in tokens {
        if NOISE.contains(&t.as_str()) {
            continue;
        }
        if OPERATORS.contains(&t.as_str()) {
            operator = true;
        } else if t.starts_with('\'') {
            punct.push(t.clone());
        } else {
            words.push(t.clone());
        }
    }
    for r in rules {
        let d = describe(*r);
        if d.is_empty() {
            continue;
        }
        if d == "an operator" {
            operator = true;
        } else if d.chars().all(|c| c.is_ascii_uppercase() || c == ' ') {
            words.push(d);
        } else if d.starts_with('\'') {
            punct.push(d);
        } else {
            descr.push(d);
        }
    }
    let rank = |p: &String| match p.as_str() {
        "')'" => 0,
        "']'" => 1,
        "'}'" => 2,
        "','" => 3,
        _ => 4,
    };
    punct.sort_by_key(|p| (rank(p), p.clone()));
    punct.dedup();
    words.sort();
    words.dedup();
    descr.sort();
    descr.dedup();
    let mut out = punct;
    out.extend(words);
    out.extend(descr);
    if operator {
        out.push("an operator".to_string());
    }
    out
}

/// The message: `unexpected X; expected A, B or C`, worded more sharply for common mistakes.
fn message_for(
    source: &str,
    offset: usize,
    found: &str,
    expected: &[String],
    reserved: bool,
) -> String {
    let rest = &source[offset..];
    if reserved {
        return format!(
            "unexpected {found}: a keyword cannot stand here; expected an expression \
             (write a name in backticks to use a keyword as a variable)"
        );
    }
    if let Some(c) = rest.chars().next() {
        let prev = source[..offset].chars().next_back();
        if c.is_alphanumeric() && prev.is_some_and(|p| p.is_ascii_digit()) {
            return format!("invalid number literal: unexpected {found} after the digits");
        }
        if rest.starts_with("0x") || rest.starts_with("0o") {
            return format!("invalid number literal {found}");
        }
        if !c.is_ascii() && !c.is_alphanumeric() {
            return format!(
                "unexpected character {found} (U+{:04X}); expected {}",
                c as u32,
                list(expected)
            );
        }
    }
    if expected.is_empty() {
        format!("unexpected {found}")
    } else {
        format!("unexpected {found}; expected {}", list(expected))
    }
}

fn list(items: &[String]) -> String {
    const MAX: usize = 8;
    let mut v: Vec<&str> = items.iter().map(|s| s.as_str()).collect();
    let more = v.len() > MAX;
    v.truncate(MAX);
    match v.len() {
        0 => "something else".to_string(),
        1 => v[0].to_string(),
        _ => {
            let last = v.pop().unwrap_or_default();
            if more {
                format!("{}, {}, …", v.join(", "), last)
            } else {
                format!("{} or {}", v.join(", "), last)
            }
        }
    }
}

/// A token pest expected, as the user would write it (`')'`, `MATCH`); `None` for character
/// classes that only guard alternatives. (pest does not export its token type by name, so it is
/// read through `Debug` and `Display`.)
fn describe_token<T: std::fmt::Debug + std::fmt::Display>(t: &T) -> Option<String> {
    let debug = format!("{t:?}");
    let text = t.to_string();
    if debug.starts_with("Sensitive") {
        (!text.trim().is_empty()).then(|| format!("'{text}'"))
    } else if debug.starts_with("Insensitive") {
        (text.chars().count() > 1).then_some(text)
    } else if debug.starts_with("Range") {
        let (a, b) = text.split_once("..")?;
        (a == b && !a.trim().is_empty()).then(|| format!("'{a}'"))
    } else {
        None
    }
}

/// A human name for a grammar rule, used in "expected …".
fn describe(r: Rule) -> String {
    use Rule::*;
    let s = match r {
        expression | postfix_expr | slice_from | slice_to => "an expression",
        statement | query | single_query => "a query",
        node_pattern => "a node pattern",
        rel_pattern => "a relationship pattern",
        path_chain | pattern | pattern_part | pattern_chain_rel => "a pattern",
        paren_path => "a parenthesized path",
        variable | alias_name => "a variable",
        symbolic_name | name_atom => "a name",
        qualified_name => "a procedure name",
        node_labels | label_or | label_and => "a label expression",
        // One atom of a label expression (pest names the rule once its alternatives — `!`,
        // `%`, `$(…)`, a name — are too many to list).
        label_not => "a name",
        rel_types => "a relationship type",
        properties | map_literal => "a map",
        where_clause => "WHERE",
        var_length => "'*'",
        quantifier => "a quantifier",
        unsigned_int | range_exact | range_min | range_max => "an integer",
        dec_int | hex_int | oct_int | float_lit => "a number",
        sq_text | dq_text | RESERVED | case_expr | call_args | map_proj_body => "",
        admin_command | create_user | alter_user | alter_current_user | rename_user | drop_user
        | enterprise_command | user_option | create_user_option | user_password
        | user_password_change | user_change | user_status | user_home | user_remove_home => "",
        user_name => "a name",
        user_secret => "a string",
        label_neg => "'!'",
        label_any => "'%'",
        label_dynamic => "'$'",
        string_lit => "a string",
        parameter => "a parameter",
        cypher_type | type_single | type_base => "a type",
        order_by => "ORDER BY",
        skip => "SKIP",
        limit => "LIMIT",
        proc_args => "'('",
        yield_clause => "YIELD",
        in_transactions => "IN TRANSACTIONS",
        hint => "USING",
        merge_action => "ON CREATE / ON MATCH",
        set_item => "a SET item",
        remove_item => "a REMOVE item",
        projection_items | projection_item => "a projection item",
        sort_item => "a sort item",
        match_clause | with_clause | return_clause | unwind_clause | call_subquery
        | call_procedure | create_clause | merge_clause | set_clause | remove_clause
        | delete_clause | foreach_clause | load_csv_clause | use_clause | finish_clause
        | let_clause | filter_clause => "a clause",
        case_partial | case_hole => "an expression",
        let_item => "a LET item",
        cypher_prefix => "CYPHER",
        cypher_version => "a Cypher version",
        cypher_option => "a query option",
        normal_form => "a normal form",
        union => "UNION",
        EOI => "end of input",
        op_or | op_xor | op_and | op_regex | op_ne | op_le | op_ge | op_eq | op_lt | op_gt
        | op_starts_with | op_ends_with | op_contains | op_in | op_concat | op_add | op_sub
        | op_mul | op_div | op_mod | op_pow => "an operator",
        is_null | is_not_null | is_type | is_normalized | is_label => "IS",
        prop_lookup => "'.'",
        subscript => "'['",
        label_pred => "':'",
        arrow_left => "'<'",
        arrow_right => "'>'",
        rel_detail => "'['",
        path_selector => "a path selector",
        match_mode => "a match mode",
        _ => {
            let name = format!("{r:?}");
            if name.chars().all(|c| c.is_ascii_uppercase()) {
                return name;
            }
            return name.replace('_', " ");
        }
    };
    s.to_string()
}

// ---------------------------------------------------------------------------------------------
// The Pratt parser for expressions

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::op_or, Assoc::Left))
        .op(Op::infix(Rule::op_xor, Assoc::Left))
        .op(Op::infix(Rule::op_and, Assoc::Left))
        .op(Op::prefix(Rule::op_not))
        .op(Op::infix(Rule::op_eq, Assoc::Left)
            | Op::infix(Rule::op_ne, Assoc::Left)
            | Op::infix(Rule::op_lt, Assoc::Left)
            | Op::infix(Rule::op_gt, Assoc::Left)
            | Op::infix(Rule::op_le, Assoc::Left)
            | Op::infix(Rule::op_ge, Assoc::Left))
        .op(Op::infix(Rule::op_regex, Assoc::Left)
            | Op::infix(Rule::op_starts_with, Assoc::Left)
            | Op::infix(Rule::op_ends_with, Assoc::Left)
            | Op::infix(Rule::op_contains, Assoc::Left)
            | Op::infix(Rule::op_in, Assoc::Left)
            | Op::postfix(Rule::is_null)
            | Op::postfix(Rule::is_not_null)
            | Op::postfix(Rule::is_normalized)
            | Op::postfix(Rule::is_label)
            | Op::postfix(Rule::is_labeled)
            | Op::postfix(Rule::is_type))
        .op(Op::infix(Rule::op_add, Assoc::Left)
            | Op::infix(Rule::op_sub, Assoc::Left)
            | Op::infix(Rule::op_concat, Assoc::Left))
        .op(Op::infix(Rule::op_mul, Assoc::Left)
            | Op::infix(Rule::op_div, Assoc::Left)
            | Op::infix(Rule::op_mod, Assoc::Left))
        .op(Op::infix(Rule::op_pow, Assoc::Left))
        .op(Op::prefix(Rule::op_neg) | Op::prefix(Rule::op_pos))
});

/// An operand while applying precedence: whether it was written in parentheses (a parenthesized
/// comparison does not extend a comparison chain) and the height of its operator chain.
struct Operand {
    expr: Expr,
    paren: bool,
    height: usize,
}

type Res<T> = Result<T, ParseError>;

// ---------------------------------------------------------------------------------------------
// The AST builder

struct Builder<'s> {
    src: &'s str,
    nesting: Cell<usize>,
}

impl<'s> Builder<'s> {
    fn new(src: &'s str) -> Self {
        Builder {
            src,
            nesting: Cell::new(0),
        }
    }

    fn err(&self, offset: usize, message: impl Into<String>) -> ParseError {
        ParseError::at(self.src, offset, message.into(), vec![])
    }

    fn bad_tree(&self, p: &Pair<'_, Rule>) -> ParseError {
        internal(self.src, p.as_span().start())
    }

    // ---- statements and clauses ----
}

/// A union of types, flattened; a single alternative is that type itself.
pub(crate) fn make_union(alts: Vec<CypherType>, not_null: bool) -> CypherType {
    let mut flat = Vec::new();
    for a in alts {
        match a.kind {
            TypeKind::Union(inner) if !a.not_null => flat.extend(inner),
            _ => flat.push(a),
        }
    }
    if flat.len() == 1 {
        let mut t = flat.pop().unwrap_or(CypherType {
            kind: TypeKind::Any,
            not_null: false,
        });
        t.not_null |= not_null;
        return t;
    }
    CypherType {
        kind: TypeKind::Union(flat),
        not_null,
    }
}

/// `a.b.c`: the variable `a` with property lookups, each spanning from the variable to its
/// key; `None` for no names.
pub(crate) fn property_chain(names: Vec<Ident>) -> Option<Expr> {
    let mut it = names.into_iter();
    let first = it.next()?;
    let mut e = Expr::new(ExprKind::Variable(first.clone()), first.span);
    for key in it {
        let s = Span::new(e.span.start, key.span.end);
        e = Expr::new(
            ExprKind::Property {
                expr: Box::new(e),
                key,
            },
            s,
        );
    }
    Some(e)
}

/// `trim([spec] [chars] FROM input)` as the call `trim(spec, [chars,] input)`: `rest` holds the
/// characters (when written) and the input. A missing specification is `'BOTH'` with an empty
/// span where it would stand (before the characters, or at `FROM`).
pub(crate) fn trim_call(
    name: Ident,
    spec: Option<Expr>,
    rest: Vec<Expr>,
    from_at: usize,
    span: Span,
) -> Expr {
    let spec = spec.unwrap_or_else(|| {
        let at = rest
            .first()
            .filter(|_| rest.len() > 1)
            .map_or(from_at, |c| c.span.start);
        Expr::new(
            ExprKind::Literal(Literal::String("BOTH".into())),
            Span::new(at, at),
        )
    });
    let name_span = name.span;
    let mut args = Vec::with_capacity(3);
    args.push(spec);
    args.extend(rest);
    Expr::new(
        ExprKind::FunctionCall {
            name: QualifiedName {
                parts: vec![name],
                span: name_span,
            },
            distinct: false,
            args,
        },
        span,
    )
}

/// The direction of a relationship pattern from its arrows (both or none: undirected).
pub(crate) fn direction(left: bool, right: bool) -> Direction {
    match (left, right) {
        (true, false) => Direction::Left,
        (false, true) => Direction::Right,
        _ => Direction::Undirected,
    }
}

/// Applies unary minus to a literal operand (`-5` is the integer −5, so that
/// `-9223372036854775808` is in range); other operands get a `Unary` node.
fn negate_literal(e: Expr, span: Span) -> Expr {
    let kind = match e.kind {
        ExprKind::Literal(Literal::Integer(v)) if v != i64::MIN => {
            ExprKind::Literal(Literal::Integer(-v))
        }
        ExprKind::Literal(Literal::Float(v)) => ExprKind::Literal(Literal::Float(-v)),
        ExprKind::Literal(Literal::OutOfRange { text, float }) => {
            if let Some(stripped) = text.strip_prefix('-') {
                ExprKind::Literal(Literal::OutOfRange {
                    text: stripped.to_string(),
                    float,
                })
            } else if !float && parse_int_magnitude(&text) == Some(1u128 << 63) {
                ExprKind::Literal(Literal::Integer(i64::MIN))
            } else {
                ExprKind::Literal(Literal::OutOfRange {
                    text: format!("-{text}"),
                    float,
                })
            }
        }
        kind => ExprKind::Unary {
            op: UnaryOp::Neg,
            expr: Box::new(Expr::new(kind, e.span)),
        },
    };
    Expr::new(kind, span)
}

/// The magnitude of a decimal (`1_000`), hexadecimal (`0x1F`), octal (`0o17`, legacy `017`)
/// integer literal; `None` if it exceeds `u128`.
pub(crate) fn parse_int_magnitude(text: &str) -> Option<u128> {
    let t: String = text.chars().filter(|c| *c != '_').collect();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x") {
        (h, 16)
    } else if let Some(o) = t.strip_prefix("0o") {
        (o, 8)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t.as_str(), 10)
    };
    u128::from_str_radix(digits, radix).ok()
}
