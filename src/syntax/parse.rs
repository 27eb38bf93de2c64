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

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/cypher.pest"]
pub(crate) struct CypherParser;

/// How deeply expressions may nest (brackets, function arguments, CASE inside CASE, …).
const MAX_NESTING: usize = 64;
/// How tall one operator chain may grow (`a + b + …`, `NOT NOT …`, `x.a.b.c…`).
const MAX_CHAIN: usize = 128;
/// Bracket depth checked before parsing, so that pathological input fails fast.
const MAX_BRACKETS: usize = 200;

/// Parses one Cypher statement (an optional trailing `;` is allowed).
///
/// ```
/// let stmt = grape::syntax::parse("MATCH (n:Person) RETURN n.name AS name").unwrap();
/// assert_eq!(stmt.query.first.clauses.len(), 2);
/// ```
pub fn parse(source: &str) -> Result<Statement, ParseError> {
    precheck(source)?;
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

/// Rejects input nested deeper than [`MAX_BRACKETS`] before the parser recurses into it. Brackets,
/// `CASE … END` and `LIST<…>` types are the constructs the grammar nests by recursion.
fn precheck(source: &str) -> Result<(), ParseError> {
    let bytes = source.as_bytes();
    let mut depth = 0usize;
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
                if w.eq_ignore_ascii_case(b"case") {
                    open(i, &mut depth)?;
                } else if w.eq_ignore_ascii_case(b"end") {
                    depth = depth.saturating_sub(1);
                }
                last_word = w;
            }
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => open(i, &mut depth)?,
            b'<' if last_word.eq_ignore_ascii_case(b"list")
                || last_word.eq_ignore_ascii_case(b"array")
                || last_word.eq_ignore_ascii_case(b"any")
                || last_word.eq_ignore_ascii_case(b"value") =>
            {
                open(i, &mut depth)?
            }
            b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
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
        node_labels | label_or | label_and | label_not => "a label expression",
        rel_types => "a relationship type",
        properties | map_literal => "a map",
        where_clause => "WHERE",
        var_length => "'*'",
        quantifier => "a quantifier",
        unsigned_int | range_exact | range_min | range_max => "an integer",
        dec_int | hex_int | oct_int | float_lit => "a number",
        sq_text | dq_text | RESERVED | case_expr | call_args | map_proj_body => "",
        label_neg => "'!'",
        label_any => "'%'",
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
        | delete_clause | foreach_clause | load_csv_clause | use_clause | finish_clause => {
            "a clause"
        }
        union => "UNION",
        EOI => "end of input",
        op_or | op_xor | op_and | op_regex | op_ne | op_le | op_ge | op_eq | op_lt | op_gt
        | op_starts_with | op_ends_with | op_contains | op_in | op_concat | op_add | op_sub
        | op_mul | op_div | op_mod | op_pow => "an operator",
        is_null | is_not_null | is_type => "IS",
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

    fn statement(&self, p: Pair<'_, Rule>) -> Res<Statement> {
        let span = span_of(&p);
        let mut prefix = None;
        let mut query = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::query_prefix => {
                    let kw = c.into_inner().next().map(|k| k.as_rule());
                    prefix = Some(if kw == Some(Rule::PROFILE) {
                        QueryPrefix::Profile
                    } else {
                        QueryPrefix::Explain
                    });
                }
                Rule::query => query = Some(self.query(c)?),
                _ => {}
            }
        }
        let query = query.ok_or_else(|| internal(self.src, span.start))?;
        Ok(Statement {
            prefix,
            query,
            span,
        })
    }

    fn query(&self, p: Pair<'_, Rule>) -> Res<Query> {
        let span = span_of(&p);
        let mut first = None;
        let mut unions = Vec::new();
        let mut pending: Option<(bool, Span)> = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::single_query => {
                    let sq = self.single_query(c)?;
                    match pending.take() {
                        None => first = Some(sq),
                        Some((all, uspan)) => unions.push(UnionPart {
                            all,
                            span: uspan.to(sq.span),
                            query: sq,
                        }),
                    }
                }
                Rule::union => {
                    let uspan = span_of(&c);
                    let all = c.into_inner().any(|k| k.as_rule() == Rule::ALL);
                    pending = Some((all, uspan));
                }
                _ => {}
            }
        }
        let first = first.ok_or_else(|| internal(self.src, span.start))?;
        Ok(Query {
            first,
            unions,
            span,
        })
    }

    fn single_query(&self, p: Pair<'_, Rule>) -> Res<SingleQuery> {
        let span = span_of(&p);
        let clauses = self.clauses(p.into_inner())?;
        if clauses.len() > 1 {
            for c in &clauses {
                if let Clause::CallProcedure(call) = c {
                    if call.args.is_none() {
                        return Err(self.err(
                            call.name.span.end,
                            format!(
                                "procedure call inside a larger query needs parentheses: write `CALL {}(…)` \
                                 (arguments may be omitted only when CALL is the whole query)",
                                call.name.dotted()
                            ),
                        ));
                    }
                    if let Some(y) = &call.yield_ {
                        if y.star {
                            return Err(self.err(
                                y.span.start,
                                "`YIELD *` is only allowed when CALL is the whole query; name the fields to yield",
                            ));
                        }
                    }
                }
            }
        }
        Ok(SingleQuery { clauses, span })
    }

    fn clauses(&self, pairs: Pairs<'_, Rule>) -> Res<Vec<Clause>> {
        let mut out = Vec::new();
        for c in pairs {
            if let Some(cl) = self.clause(c)? {
                out.push(cl);
            }
        }
        Ok(out)
    }

    /// Converts a clause pair; keyword pairs and other tokens yield `None`.
    fn clause(&self, c: Pair<'_, Rule>) -> Res<Option<Clause>> {
        let span = span_of(&c);
        Ok(Some(match c.as_rule() {
            Rule::match_clause => Clause::Match(self.match_clause(c)?),
            Rule::with_clause => {
                let mut projection = None;
                let mut where_ = None;
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::projection_body => projection = Some(self.projection(x)?),
                        Rule::where_clause => where_ = Some(self.where_clause(x)?),
                        _ => {}
                    }
                }
                Clause::With(With {
                    projection: projection.ok_or_else(|| internal(self.src, span.start))?,
                    where_,
                    span,
                })
            }
            Rule::return_clause => {
                let body = c
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::projection_body)
                    .ok_or_else(|| internal(self.src, span.start))?;
                Clause::Return(Return {
                    projection: self.projection(body)?,
                    span,
                })
            }
            Rule::unwind_clause => {
                let mut expr = None;
                let mut var = None;
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::expression => expr = Some(self.expr(x)?),
                        Rule::alias_name => var = Some(self.ident(x)?),
                        _ => {}
                    }
                }
                match (expr, var) {
                    (Some(expr), Some(variable)) => Clause::Unwind(Unwind {
                        expr,
                        variable,
                        span,
                    }),
                    _ => return Err(internal(self.src, span.start)),
                }
            }
            Rule::call_subquery => Clause::CallSubquery(self.call_subquery(c)?),
            Rule::call_procedure => Clause::CallProcedure(self.call_procedure(c)?),
            Rule::create_clause => {
                let pat = c
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::pattern)
                    .ok_or_else(|| internal(self.src, span.start))?;
                Clause::Create(Create {
                    pattern: self.pattern(pat)?,
                    span,
                })
            }
            Rule::merge_clause => {
                let mut pattern = None;
                let mut actions = Vec::new();
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::pattern_part => pattern = Some(self.pattern_part(x)?),
                        Rule::merge_action => {
                            let aspan = span_of(&x);
                            let mut on_create = false;
                            let mut items = Vec::new();
                            for y in x.into_inner() {
                                match y.as_rule() {
                                    Rule::CREATE => on_create = true,
                                    Rule::set_item => items.push(self.set_item(y)?),
                                    _ => {}
                                }
                            }
                            actions.push(MergeAction {
                                on_create,
                                items,
                                span: aspan,
                            });
                        }
                        _ => {}
                    }
                }
                Clause::Merge(Merge {
                    pattern: pattern.ok_or_else(|| internal(self.src, span.start))?,
                    actions,
                    span,
                })
            }
            Rule::set_clause => {
                let mut items = Vec::new();
                for x in c.into_inner() {
                    if x.as_rule() == Rule::set_item {
                        items.push(self.set_item(x)?);
                    }
                }
                Clause::Set(SetClause { items, span })
            }
            Rule::remove_clause => {
                let mut items = Vec::new();
                for x in c.into_inner() {
                    if x.as_rule() == Rule::remove_item {
                        items.push(self.remove_item(x)?);
                    }
                }
                Clause::Remove(Remove { items, span })
            }
            Rule::delete_clause => {
                let mut detach = false;
                let mut exprs = Vec::new();
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::DETACH => detach = true,
                        Rule::expression => exprs.push(self.expr(x)?),
                        _ => {}
                    }
                }
                Clause::Delete(Delete {
                    detach,
                    exprs,
                    span,
                })
            }
            Rule::foreach_clause => {
                let mut variable = None;
                let mut list = None;
                let mut clauses = Vec::new();
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::expression => list = Some(self.expr(x)?),
                        _ => {
                            if let Some(cl) = self.clause(x)? {
                                clauses.push(cl);
                            }
                        }
                    }
                }
                match (variable, list) {
                    (Some(variable), Some(list)) => Clause::Foreach(Foreach {
                        variable,
                        list,
                        clauses,
                        span,
                    }),
                    _ => return Err(internal(self.src, span.start)),
                }
            }
            Rule::load_csv_clause => {
                let mut with_headers = false;
                let mut source = None;
                let mut variable = None;
                let mut field_terminator = None;
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::with_headers => with_headers = true,
                        Rule::expression => source = Some(self.expr(x)?),
                        Rule::alias_name => variable = Some(self.ident(x)?),
                        Rule::string_lit => field_terminator = Some(self.string(x)?),
                        _ => {}
                    }
                }
                match (source, variable) {
                    (Some(source), Some(variable)) => Clause::LoadCsv(LoadCsv {
                        with_headers,
                        source,
                        variable,
                        field_terminator,
                        span,
                    }),
                    _ => return Err(internal(self.src, span.start)),
                }
            }
            Rule::use_clause => {
                let gref = c
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::graph_ref)
                    .and_then(|g| g.into_inner().next())
                    .ok_or_else(|| internal(self.src, span.start))?;
                let graph = match gref.as_rule() {
                    Rule::function_call => self.function_call(gref)?,
                    _ => {
                        let name = self.qualified_name(gref)?;
                        let mut parts = name.parts.into_iter();
                        let first = parts.next().ok_or_else(|| internal(self.src, span.start))?;
                        let mut e = Expr::new(ExprKind::Variable(first.clone()), first.span);
                        for part in parts {
                            let s = e.span.to(part.span);
                            e = Expr::new(
                                ExprKind::Property {
                                    expr: Box::new(e),
                                    key: part,
                                },
                                s,
                            );
                        }
                        e
                    }
                };
                Clause::Use(Use { graph, span })
            }
            Rule::finish_clause => Clause::Finish(span),
            _ => return Ok(None),
        }))
    }

    fn match_clause(&self, c: Pair<'_, Rule>) -> Res<Match> {
        let span = span_of(&c);
        let mut m = Match {
            optional: false,
            mode: None,
            pattern: Vec::new(),
            hints: Vec::new(),
            where_: None,
            span,
        };
        for x in c.into_inner() {
            match x.as_rule() {
                Rule::OPTIONAL => m.optional = true,
                Rule::match_mode => {
                    let repeatable = x.into_inner().any(|k| k.as_rule() == Rule::REPEATABLE);
                    m.mode = Some(if repeatable {
                        MatchMode::RepeatableElements
                    } else {
                        MatchMode::DifferentRelationships
                    });
                }
                Rule::pattern => m.pattern = self.pattern(x)?,
                Rule::hint => m.hints.push(self.hint(x)?),
                Rule::where_clause => m.where_ = Some(self.where_clause(x)?),
                _ => {}
            }
        }
        Ok(m)
    }

    fn hint(&self, p: Pair<'_, Rule>) -> Res<Hint> {
        let span = span_of(&p);
        let inner = p
            .into_inner()
            .find(|x| {
                matches!(
                    x.as_rule(),
                    Rule::hint_index | Rule::hint_scan | Rule::hint_join
                )
            })
            .ok_or_else(|| internal(self.src, span.start))?;
        let rule = inner.as_rule();
        let mut kind = None;
        let mut seek = false;
        let mut vars = Vec::new();
        let mut names = Vec::new();
        for x in inner.into_inner() {
            match x.as_rule() {
                Rule::index_kind => kind = Some(x.as_str().to_ascii_uppercase()),
                Rule::SEEK => seek = true,
                Rule::variable => vars.push(self.ident(x)?),
                Rule::symbolic_name => names.push(self.ident(x)?),
                _ => {}
            }
        }
        let bad = || internal(self.src, span.start);
        Ok(match rule {
            Rule::hint_index => {
                let variable = vars.pop().ok_or_else(bad)?;
                if names.is_empty() {
                    return Err(bad());
                }
                let label = names.remove(0);
                Hint::Index {
                    kind,
                    seek,
                    variable,
                    label,
                    properties: names,
                    span,
                }
            }
            Rule::hint_scan => Hint::Scan {
                variable: vars.pop().ok_or_else(bad)?,
                label: names.pop().ok_or_else(bad)?,
                span,
            },
            _ => Hint::Join {
                variables: vars,
                span,
            },
        })
    }

    fn where_clause(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let span = span_of(&p);
        let e = p
            .into_inner()
            .find(|x| x.as_rule() == Rule::expression)
            .ok_or_else(|| internal(self.src, span.start))?;
        self.expr(e)
    }

    fn projection(&self, p: Pair<'_, Rule>) -> Res<Projection> {
        let span = span_of(&p);
        let mut pr = Projection {
            distinct: false,
            star: false,
            items: Vec::new(),
            order_by: Vec::new(),
            skip: None,
            limit: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::DISTINCT => pr.distinct = true,
                Rule::projection_items => {
                    for it in x.into_inner() {
                        match it.as_rule() {
                            Rule::projection_star => pr.star = true,
                            Rule::projection_item => {
                                let ispan = span_of(&it);
                                let mut expr = None;
                                let mut alias = None;
                                for y in it.into_inner() {
                                    match y.as_rule() {
                                        Rule::expression => expr = Some(self.expr(y)?),
                                        Rule::alias_name => alias = Some(self.ident(y)?),
                                        _ => {}
                                    }
                                }
                                pr.items.push(ProjectionItem {
                                    expr: expr.ok_or_else(|| internal(self.src, ispan.start))?,
                                    alias,
                                    span: ispan,
                                });
                            }
                            _ => {}
                        }
                    }
                }
                Rule::order_by => {
                    for s in x.into_inner() {
                        if s.as_rule() != Rule::sort_item {
                            continue;
                        }
                        let sspan = span_of(&s);
                        let mut expr = None;
                        let mut descending = false;
                        let mut explicit = false;
                        for y in s.into_inner() {
                            match y.as_rule() {
                                Rule::expression => expr = Some(self.expr(y)?),
                                Rule::sort_dir => {
                                    explicit = true;
                                    descending = y.into_inner().any(|k| {
                                        matches!(k.as_rule(), Rule::DESC | Rule::DESCENDING)
                                    });
                                }
                                _ => {}
                            }
                        }
                        pr.order_by.push(SortItem {
                            expr: expr.ok_or_else(|| internal(self.src, sspan.start))?,
                            descending,
                            explicit,
                            span: sspan,
                        });
                    }
                }
                Rule::skip => pr.skip = Some(self.inner_expr(x)?),
                Rule::limit => pr.limit = Some(self.inner_expr(x)?),
                _ => {}
            }
        }
        Ok(pr)
    }

    /// The first `expression` child of `p`.
    fn inner_expr(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let start = p.as_span().start();
        let e = p
            .into_inner()
            .find(|x| x.as_rule() == Rule::expression)
            .ok_or_else(|| internal(self.src, start))?;
        self.expr(e)
    }

    fn call_subquery(&self, p: Pair<'_, Rule>) -> Res<CallSubquery> {
        let span = span_of(&p);
        let mut optional = false;
        let mut scope = None;
        let mut query = None;
        let mut in_transactions = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::OPTIONAL => optional = true,
                Rule::subquery_scope => {
                    let mut vars = Vec::new();
                    let mut all = false;
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::scope_all => all = true,
                            Rule::variable => vars.push(self.ident(y)?),
                            _ => {}
                        }
                    }
                    scope = Some(if all {
                        SubqueryScope::All
                    } else {
                        SubqueryScope::Variables(vars)
                    });
                }
                Rule::query => query = Some(self.query(x)?),
                Rule::in_transactions => {
                    let tspan = span_of(&x);
                    let mut t = InTransactions {
                        concurrency: None,
                        batch_size: None,
                        on_error: None,
                        report_status: None,
                        span: tspan,
                    };
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::tx_concurrency => {
                                let e = y.into_inner().find(|z| z.as_rule() == Rule::expression);
                                t.concurrency = Some(match e {
                                    Some(e) => Some(self.expr(e)?),
                                    None => None,
                                });
                            }
                            Rule::tx_batch => t.batch_size = Some(self.inner_expr(y)?),
                            Rule::tx_on_error => {
                                for k in y.into_inner() {
                                    t.on_error = match k.as_rule() {
                                        Rule::CONTINUE => Some(OnError::Continue),
                                        Rule::BREAK => Some(OnError::Break),
                                        Rule::FAIL => Some(OnError::Fail),
                                        Rule::RETRY => Some(OnError::Retry),
                                        _ => t.on_error,
                                    };
                                }
                            }
                            Rule::tx_report => {
                                for k in y.into_inner() {
                                    if k.as_rule() == Rule::alias_name {
                                        t.report_status = Some(self.ident(k)?);
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                    in_transactions = Some(t);
                }
                _ => {}
            }
        }
        Ok(CallSubquery {
            optional,
            scope,
            query: Box::new(query.ok_or_else(|| internal(self.src, span.start))?),
            in_transactions,
            span,
        })
    }

    fn call_procedure(&self, p: Pair<'_, Rule>) -> Res<CallProcedure> {
        let span = span_of(&p);
        let mut optional = false;
        let mut name = None;
        let mut args = None;
        let mut yield_ = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::OPTIONAL => optional = true,
                Rule::qualified_name => name = Some(self.qualified_name(x)?),
                Rule::proc_args => {
                    let mut v = Vec::new();
                    for y in x.into_inner() {
                        if y.as_rule() == Rule::expression {
                            v.push(self.expr(y)?);
                        }
                    }
                    args = Some(v);
                }
                Rule::yield_clause => {
                    let yspan = span_of(&x);
                    let mut y = YieldSpec {
                        star: false,
                        items: Vec::new(),
                        where_: None,
                        span: yspan,
                    };
                    for z in x.into_inner() {
                        match z.as_rule() {
                            Rule::yield_star => y.star = true,
                            Rule::yield_item => {
                                let ispan = span_of(&z);
                                let mut field = None;
                                let mut alias = None;
                                for w in z.into_inner() {
                                    match w.as_rule() {
                                        Rule::symbolic_name => field = Some(self.ident(w)?),
                                        Rule::alias_name => alias = Some(self.ident(w)?),
                                        _ => {}
                                    }
                                }
                                y.items.push(YieldItem {
                                    field: field.ok_or_else(|| internal(self.src, ispan.start))?,
                                    alias,
                                    span: ispan,
                                });
                            }
                            Rule::where_clause => y.where_ = Some(self.where_clause(z)?),
                            _ => {}
                        }
                    }
                    yield_ = Some(y);
                }
                _ => {}
            }
        }
        Ok(CallProcedure {
            optional,
            name: name.ok_or_else(|| internal(self.src, span.start))?,
            args,
            yield_,
            span,
        })
    }

    fn set_item(&self, p: Pair<'_, Rule>) -> Res<SetItem> {
        let span = span_of(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, span.start))?;
        match inner.as_rule() {
            Rule::set_labels => {
                let (variable, labels) = self.set_labels(inner)?;
                Ok(SetItem::Labels {
                    variable,
                    labels,
                    span,
                })
            }
            Rule::set_property => {
                let mut it = inner.into_inner();
                let (Some(t), Some(v)) = (it.next(), it.next()) else {
                    return Err(internal(self.src, span.start));
                };
                let target = self.postfix_expr(t)?.expr;
                let value = self.expr(v)?;
                match target.kind {
                    ExprKind::Variable(variable) => Ok(SetItem::Variable {
                        variable,
                        value,
                        merge: false,
                        span,
                    }),
                    ExprKind::Property { .. } | ExprKind::Index { .. } => Ok(SetItem::Property {
                        target,
                        value,
                        span,
                    }),
                    _ => Err(self.err(
                        target.span.start,
                        "SET needs a property (`n.key`), a variable (`n = {…}`) or labels (`n:Label`) here",
                    )),
                }
            }
            Rule::set_variable => {
                let mut variable = None;
                let mut merge = false;
                let mut value = None;
                for x in inner.into_inner() {
                    match x.as_rule() {
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::set_op => merge = x.as_str() == "+=",
                        Rule::expression => value = Some(self.expr(x)?),
                        _ => {}
                    }
                }
                match (variable, value) {
                    (Some(variable), Some(value)) => Ok(SetItem::Variable {
                        variable,
                        value,
                        merge,
                        span,
                    }),
                    _ => Err(internal(self.src, span.start)),
                }
            }
            _ => Err(self.bad_tree(&inner)),
        }
    }

    fn set_labels(&self, p: Pair<'_, Rule>) -> Res<(Ident, LabelExpr)> {
        let start = p.as_span().start();
        let mut variable = None;
        let mut labels = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => variable = Some(self.ident(x)?),
                Rule::node_labels => labels = Some(self.node_labels(x)?),
                _ => {}
            }
        }
        match (variable, labels) {
            (Some(v), Some(l)) => Ok((v, l)),
            _ => Err(internal(self.src, start)),
        }
    }

    fn remove_item(&self, p: Pair<'_, Rule>) -> Res<RemoveItem> {
        let span = span_of(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, span.start))?;
        match inner.as_rule() {
            Rule::set_labels => {
                let (variable, labels) = self.set_labels(inner)?;
                Ok(RemoveItem::Labels {
                    variable,
                    labels,
                    span,
                })
            }
            Rule::postfix_expr => {
                let target = self.postfix_expr(inner)?.expr;
                match target.kind {
                    ExprKind::Property { .. } | ExprKind::Index { .. } => {
                        Ok(RemoveItem::Property { target, span })
                    }
                    _ => Err(self.err(
                        target.span.start,
                        "REMOVE needs a property (`n.key`) or labels (`n:Label`) here",
                    )),
                }
            }
            _ => Err(self.bad_tree(&inner)),
        }
    }

    // ---- patterns ----

    fn pattern(&self, p: Pair<'_, Rule>) -> Res<Vec<PatternPart>> {
        let mut out = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::pattern_part {
                out.push(self.pattern_part(x)?);
            }
        }
        Ok(out)
    }

    fn pattern_part(&self, p: Pair<'_, Rule>) -> Res<PatternPart> {
        let span = span_of(&p);
        let mut variable = None;
        let mut selector = None;
        let mut path = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => variable = Some(self.ident(x)?),
                Rule::path_selector => selector = Some(self.path_selector(x)?),
                Rule::shortest_path => {
                    let (all, chain, sspan) = self.shortest_path(x)?;
                    path = Some(PathExpr::ShortestFunction {
                        all,
                        chain,
                        span: sspan,
                    });
                }
                Rule::path_chain => path = Some(PathExpr::Chain(self.path_chain(x)?)),
                _ => {}
            }
        }
        Ok(PatternPart {
            variable,
            selector,
            path: path.ok_or_else(|| internal(self.src, span.start))?,
            span,
        })
    }

    fn path_selector(&self, p: Pair<'_, Rule>) -> Res<PathSelector> {
        let start = p.as_span().start();
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, start))?;
        let rule = inner.as_rule();
        let mut k = None;
        for x in inner.into_inner() {
            if x.as_rule() == Rule::unsigned_int {
                k = Some(self.unsigned(&x)?);
            }
        }
        Ok(match rule {
            Rule::sel_any_shortest => PathSelector::AnyShortest,
            Rule::sel_all_shortest => PathSelector::AllShortest,
            Rule::sel_shortest_groups => PathSelector::ShortestGroups(k),
            Rule::sel_shortest_k => PathSelector::Shortest(k),
            Rule::sel_any => PathSelector::Any(k),
            _ => PathSelector::All,
        })
    }

    fn shortest_path(&self, p: Pair<'_, Rule>) -> Res<(bool, PathChain, Span)> {
        let span = span_of(&p);
        let mut all = false;
        let mut chain = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::ALLSHORTESTPATHS => all = true,
                Rule::path_chain => chain = Some(self.path_chain(x)?),
                _ => {}
            }
        }
        Ok((
            all,
            chain.ok_or_else(|| internal(self.src, span.start))?,
            span,
        ))
    }

    fn path_chain(&self, p: Pair<'_, Rule>) -> Res<PathChain> {
        let span = span_of(&p);
        let mut elements = Vec::new();
        for x in p.into_inner() {
            elements.push(match x.as_rule() {
                Rule::node_pattern => PathElement::Node(self.node_pattern(x)?),
                Rule::rel_pattern => PathElement::Relationship(self.rel_pattern(x)?),
                Rule::paren_path => PathElement::Group(Box::new(self.paren_path(x)?)),
                _ => continue,
            });
        }
        // Two node-like factors may stand side by side only when one of them is a
        // parenthesized path (GQL juxtaposition of quantified path patterns).
        for w in elements.windows(2) {
            if let (PathElement::Node(_), PathElement::Node(b)) = (&w[0], &w[1]) {
                return Err(self.err(
                    b.span.start,
                    "expected a relationship pattern (`-->`, `<--`, `--`, `-[…]-`) between these node patterns",
                ));
            }
        }
        Ok(PathChain { elements, span })
    }

    fn paren_path(&self, p: Pair<'_, Rule>) -> Res<GroupPattern> {
        let span = span_of(&p);
        let mut g = GroupPattern {
            variable: None,
            chain: PathChain {
                elements: vec![],
                span,
            },
            where_: None,
            quantifier: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => g.variable = Some(self.ident(x)?),
                Rule::path_chain => g.chain = self.path_chain(x)?,
                Rule::where_clause => g.where_ = Some(self.where_clause(x)?),
                Rule::quantifier => g.quantifier = Some(self.quantifier(x)?),
                _ => {}
            }
        }
        Ok(g)
    }

    fn node_pattern(&self, p: Pair<'_, Rule>) -> Res<NodePattern> {
        let span = span_of(&p);
        let mut n = NodePattern {
            variable: None,
            labels: None,
            properties: None,
            where_: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::variable => n.variable = Some(self.ident(x)?),
                Rule::node_labels => n.labels = Some(self.node_labels(x)?),
                Rule::properties => n.properties = Some(self.properties(x)?),
                Rule::where_clause => n.where_ = Some(self.where_clause(x)?),
                _ => {}
            }
        }
        Ok(n)
    }

    fn properties(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let start = p.as_span().start();
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, start))?;
        Ok(self.atom(inner)?.expr)
    }

    fn rel_pattern(&self, p: Pair<'_, Rule>) -> Res<RelationshipPattern> {
        let span = span_of(&p);
        let mut left = false;
        let mut right = false;
        let mut r = RelationshipPattern {
            direction: Direction::Undirected,
            variable: None,
            types: None,
            length: None,
            properties: None,
            where_: None,
            quantifier: None,
            span,
        };
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::arrow_left => left = true,
                Rule::arrow_right => right = true,
                Rule::quantifier => r.quantifier = Some(self.quantifier(x)?),
                Rule::rel_detail => {
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::variable => r.variable = Some(self.ident(y)?),
                            Rule::rel_types => {
                                let lo = y
                                    .into_inner()
                                    .find(|z| z.as_rule() == Rule::label_or)
                                    .ok_or_else(|| internal(self.src, span.start))?;
                                r.types = Some(self.label_or(lo)?);
                            }
                            Rule::var_length => r.length = Some(self.var_length(y)?),
                            Rule::properties => r.properties = Some(self.properties(y)?),
                            Rule::where_clause => r.where_ = Some(self.where_clause(y)?),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        r.direction = match (left, right) {
            (true, false) => Direction::Left,
            (false, true) => Direction::Right,
            _ => Direction::Undirected,
        };
        if r.length.is_some() && r.quantifier.is_some() {
            return Err(self.err(
                span.start,
                "a relationship cannot have both a variable length (`*`) and a quantifier",
            ));
        }
        Ok(r)
    }

    fn var_length(&self, p: Pair<'_, Rule>) -> Res<VarLength> {
        let mut out = VarLength::Any;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::range_exact => out = VarLength::Exact(self.first_unsigned(x)?),
                Rule::range_bounds => {
                    let (min, max) = self.bounds(x)?;
                    out = VarLength::Range { min, max };
                }
                _ => {}
            }
        }
        Ok(out)
    }

    fn bounds(&self, p: Pair<'_, Rule>) -> Res<(Option<u64>, Option<u64>)> {
        let mut min = None;
        let mut max = None;
        for y in p.into_inner() {
            match y.as_rule() {
                Rule::range_min => min = Some(self.first_unsigned(y)?),
                Rule::range_max => max = Some(self.first_unsigned(y)?),
                _ => {}
            }
        }
        Ok((min, max))
    }

    fn quantifier(&self, p: Pair<'_, Rule>) -> Res<Quantifier> {
        let start = p.as_span().start();
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, start))?;
        Ok(match inner.as_rule() {
            Rule::quant_plus => Quantifier::Plus,
            Rule::quant_star => Quantifier::Star,
            _ => {
                let text_start = inner.as_span().start();
                let mut exact = None;
                let mut min = None;
                let mut max = None;
                for y in inner.into_inner() {
                    match y.as_rule() {
                        Rule::range_exact => exact = Some(self.first_unsigned(y)?),
                        Rule::range_min => min = Some(self.first_unsigned(y)?),
                        Rule::range_max => max = Some(self.first_unsigned(y)?),
                        _ => {}
                    }
                }
                if let (Some(a), Some(b)) = (min, max) {
                    if a > b {
                        return Err(self.err(
                            text_start,
                            format!("quantifier lower bound {a} is greater than upper bound {b}"),
                        ));
                    }
                }
                match exact {
                    Some(n) => Quantifier::Exact(n),
                    None => Quantifier::Range { min, max },
                }
            }
        })
    }

    fn first_unsigned(&self, p: Pair<'_, Rule>) -> Res<u64> {
        let start = p.as_span().start();
        let x = p
            .into_inner()
            .find(|x| x.as_rule() == Rule::unsigned_int)
            .ok_or_else(|| internal(self.src, start))?;
        self.unsigned(&x)
    }

    fn unsigned(&self, p: &Pair<'_, Rule>) -> Res<u64> {
        let text = p.as_str();
        match parse_int_magnitude(text) {
            Some(v) if v <= u64::MAX as u128 => Ok(v as u64),
            _ => Err(self.err(
                p.as_span().start(),
                format!("integer `{text}` is too large"),
            )),
        }
    }

    fn node_labels(&self, p: Pair<'_, Rule>) -> Res<LabelExpr> {
        let span = span_of(&p);
        let mut parts = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::label_or {
                parts.push(self.label_or(x)?);
            }
        }
        match parts.len() {
            0 => Err(internal(self.src, span.start)),
            1 => Ok(parts.pop().unwrap_or(LabelExpr::Wildcard(span))),
            _ => Ok(LabelExpr::And(parts, span)),
        }
    }

    fn label_or(&self, p: Pair<'_, Rule>) -> Res<LabelExpr> {
        let span = span_of(&p);
        let mut parts = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::label_and {
                parts.push(self.label_and(x)?);
            }
        }
        if parts.len() == 1 {
            return parts.pop().ok_or_else(|| internal(self.src, span.start));
        }
        Ok(LabelExpr::Or(parts, span))
    }

    fn label_and(&self, p: Pair<'_, Rule>) -> Res<LabelExpr> {
        let span = span_of(&p);
        let mut parts = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::label_not {
                parts.push(self.label_not(x)?);
            }
        }
        if parts.len() == 1 {
            return parts.pop().ok_or_else(|| internal(self.src, span.start));
        }
        Ok(LabelExpr::And(parts, span))
    }

    fn label_not(&self, p: Pair<'_, Rule>) -> Res<LabelExpr> {
        let span = span_of(&p);
        let mut negs = Vec::new();
        let mut atom = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::label_neg => negs.push(span_of(&x).start),
                Rule::label_any => atom = Some(LabelExpr::Wildcard(span_of(&x))),
                Rule::label_or => atom = Some(self.label_or(x)?),
                Rule::symbolic_name => atom = Some(LabelExpr::Name(self.ident(x)?)),
                _ => {}
            }
        }
        let mut e = atom.ok_or_else(|| internal(self.src, span.start))?;
        if negs.len() > MAX_CHAIN {
            return Err(self.err(span.start, "too many `!` in a label expression"));
        }
        for start in negs.into_iter().rev() {
            e = LabelExpr::Not(Box::new(e), Span::new(start, span.end));
        }
        Ok(e)
    }

    // ---- expressions ----

    fn expr(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        Ok(self.expr_operand(p)?.expr)
    }

    fn expr_operand(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        let n = self.nesting.get() + 1;
        if n > MAX_NESTING {
            return Err(self.err(
                p.as_span().start(),
                format!("expression nested more than {MAX_NESTING} levels deep"),
            ));
        }
        self.nesting.set(n);
        // Debug builds use large frames; grow the stack on the heap rather than overflow it.
        let r = stacker::maybe_grow(128 * 1024, 1024 * 1024, || self.expr_inner(p));
        self.nesting.set(n - 1);
        r
    }

    fn check_height(&self, o: Operand) -> Res<Operand> {
        if o.height > MAX_CHAIN {
            Err(self.err(
                o.expr.span.start,
                format!("operator chain longer than {MAX_CHAIN}: split the expression"),
            ))
        } else {
            Ok(o)
        }
    }

    fn expr_inner(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        // The Pratt parser recurses once per prefix operator: bound runs of them first.
        let mut run = 0usize;
        for x in p.clone().into_inner() {
            match x.as_rule() {
                Rule::op_not | Rule::op_neg | Rule::op_pos => {
                    run += 1;
                    if run > MAX_CHAIN {
                        return Err(self.err(
                            x.as_span().start(),
                            format!("more than {MAX_CHAIN} prefix operators in a row"),
                        ));
                    }
                }
                _ => run = 0,
            }
        }
        PRATT
            .map_primary(|primary| {
                self.postfix_expr(primary)
                    .and_then(|o| self.check_height(o))
            })
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let start = op.as_span().start();
                let uop = match op.as_rule() {
                    Rule::op_not => UnaryOp::Not,
                    Rule::op_neg => UnaryOp::Neg,
                    _ => UnaryOp::Plus,
                };
                let span = Span::new(start, rhs.expr.span.end);
                let expr = if uop == UnaryOp::Neg && !rhs.paren {
                    negate_literal(rhs.expr, span)
                } else {
                    Expr::new(
                        ExprKind::Unary {
                            op: uop,
                            expr: Box::new(rhs.expr),
                        },
                        span,
                    )
                };
                self.check_height(Operand {
                    expr,
                    paren: false,
                    height: rhs.height + 1,
                })
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let end = op.as_span().end();
                let span = Span::new(lhs.expr.span.start, end);
                let height = lhs.height + 1;
                let expr = match op.as_rule() {
                    Rule::is_null | Rule::is_not_null => ExprKind::IsNull {
                        negated: op.as_rule() == Rule::is_not_null,
                        expr: Box::new(lhs.expr),
                    },
                    _ => {
                        let mut negated = false;
                        let mut ty = None;
                        for x in op.into_inner() {
                            match x.as_rule() {
                                Rule::NOT | Rule::op_not => negated = true,
                                Rule::cypher_type => ty = Some(self.cypher_type(x)?),
                                _ => {}
                            }
                        }
                        ExprKind::IsType {
                            expr: Box::new(lhs.expr),
                            negated,
                            ty: ty.ok_or_else(|| internal(self.src, span.start))?,
                        }
                    }
                };
                self.check_height(Operand {
                    expr: Expr::new(expr, span),
                    paren: false,
                    height,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let lhs = lhs?;
                let rhs = rhs?;
                let bop = match op.as_rule() {
                    Rule::op_or => BinaryOp::Or,
                    Rule::op_xor => BinaryOp::Xor,
                    Rule::op_and => BinaryOp::And,
                    Rule::op_regex => BinaryOp::RegexMatch,
                    Rule::op_ne => BinaryOp::Ne,
                    Rule::op_le => BinaryOp::Le,
                    Rule::op_ge => BinaryOp::Ge,
                    Rule::op_eq => BinaryOp::Eq,
                    Rule::op_lt => BinaryOp::Lt,
                    Rule::op_gt => BinaryOp::Gt,
                    Rule::op_starts_with => BinaryOp::StartsWith,
                    Rule::op_ends_with => BinaryOp::EndsWith,
                    Rule::op_contains => BinaryOp::Contains,
                    Rule::op_in => BinaryOp::In,
                    Rule::op_concat => BinaryOp::Concat,
                    Rule::op_add => BinaryOp::Add,
                    Rule::op_sub => BinaryOp::Sub,
                    Rule::op_mul => BinaryOp::Mul,
                    Rule::op_div => BinaryOp::Div,
                    Rule::op_mod => BinaryOp::Mod,
                    _ => BinaryOp::Pow,
                };
                let span = lhs.expr.span.to(rhs.expr.span);
                let height = lhs.height.max(rhs.height) + 1;
                // `a < b < c` is a comparison chain, unless the left side was parenthesized.
                let expr = if bop.is_comparison() && !lhs.paren {
                    match lhs.expr.kind {
                        ExprKind::Binary {
                            op: lop,
                            lhs: l,
                            rhs: r,
                        } if lop.is_comparison() => ExprKind::Comparison {
                            first: l,
                            rest: vec![(lop, *r), (bop, rhs.expr)],
                        },
                        ExprKind::Comparison { first, mut rest } => {
                            rest.push((bop, rhs.expr));
                            ExprKind::Comparison { first, rest }
                        }
                        kind => ExprKind::Binary {
                            op: bop,
                            lhs: Box::new(Expr::new(kind, lhs.expr.span)),
                            rhs: Box::new(rhs.expr),
                        },
                    }
                } else {
                    ExprKind::Binary {
                        op: bop,
                        lhs: Box::new(lhs.expr),
                        rhs: Box::new(rhs.expr),
                    }
                };
                self.check_height(Operand {
                    expr: Expr::new(expr, span),
                    paren: false,
                    height,
                })
            })
            .parse(p.into_inner())
    }

    fn postfix_expr(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        let mut it = p.into_inner();
        let first = it.next().ok_or_else(|| internal(self.src, 0))?;
        let mut cur = self.atom(first)?;
        for op in it {
            let end = op.as_span().end();
            let span = Span::new(cur.expr.span.start, end);
            let base = Box::new(cur.expr);
            let kind = match op.as_rule() {
                Rule::prop_lookup => {
                    let key = op
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, span.start))?;
                    ExprKind::Property {
                        expr: base,
                        key: self.ident(key)?,
                    }
                }
                Rule::subscript => {
                    let inner = op
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, span.start))?;
                    if inner.as_rule() == Rule::slice {
                        let mut from = None;
                        let mut to = None;
                        for x in inner.into_inner() {
                            match x.as_rule() {
                                Rule::slice_from => from = Some(Box::new(self.inner_expr(x)?)),
                                Rule::slice_to => to = Some(Box::new(self.inner_expr(x)?)),
                                _ => {}
                            }
                        }
                        ExprKind::Slice {
                            expr: base,
                            from,
                            to,
                        }
                    } else {
                        ExprKind::Index {
                            expr: base,
                            index: Box::new(self.expr(inner)?),
                        }
                    }
                }
                Rule::label_pred => {
                    let lspan = span_of(&op);
                    let mut parts = Vec::new();
                    for x in op.into_inner() {
                        if x.as_rule() == Rule::label_or {
                            parts.push(self.label_or(x)?);
                        }
                    }
                    let labels = if parts.len() == 1 {
                        parts.pop().ok_or_else(|| internal(self.src, span.start))?
                    } else {
                        LabelExpr::And(parts, lspan)
                    };
                    ExprKind::HasLabels { expr: base, labels }
                }
                _ => return Err(internal(self.src, span.start)),
            };
            cur = Operand {
                expr: Expr::new(kind, span),
                paren: false,
                height: cur.height + 1,
            };
            if cur.height > MAX_CHAIN {
                return Err(self.err(span.start, "postfix chain too long"));
            }
        }
        Ok(cur)
    }

    fn atom(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        let span = span_of(&p);
        let plain = |kind: ExprKind| -> Res<Operand> {
            Ok(Operand {
                expr: Expr::new(kind, span),
                paren: false,
                height: 1,
            })
        };
        match p.as_rule() {
            Rule::float_lit => {
                let text: String = p.as_str().chars().filter(|c| *c != '_').collect();
                let v: f64 = text.parse().map_err(|_| {
                    self.err(
                        span.start,
                        format!("invalid float literal `{}`", p.as_str()),
                    )
                })?;
                if v.is_finite() {
                    plain(ExprKind::Literal(Literal::Float(v)))
                } else {
                    plain(ExprKind::Literal(Literal::OutOfRange {
                        text: p.as_str().to_string(),
                        float: true,
                    }))
                }
            }
            Rule::hex_int | Rule::oct_int | Rule::dec_int => {
                let text = p.as_str();
                match parse_int_magnitude(text) {
                    Some(v) if v <= i64::MAX as u128 => {
                        plain(ExprKind::Literal(Literal::Integer(v as i64)))
                    }
                    _ => plain(ExprKind::Literal(Literal::OutOfRange {
                        text: text.to_string(),
                        float: false,
                    })),
                }
            }
            Rule::string_lit => plain(ExprKind::Literal(Literal::String(self.string(p)?))),
            Rule::lit_true => plain(ExprKind::Literal(Literal::Boolean(true))),
            Rule::lit_false => plain(ExprKind::Literal(Literal::Boolean(false))),
            Rule::lit_null => plain(ExprKind::Literal(Literal::Null)),
            Rule::parameter => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(self.src, span.start))?;
                let param = if inner.as_rule() == Rule::param_index {
                    let s = inner.as_str();
                    Parameter::Positional(s.parse().map_err(|_| {
                        self.err(span.start, format!("parameter index `{s}` is too large"))
                    })?)
                } else {
                    Parameter::Named(self.ident(inner)?.name)
                };
                plain(ExprKind::Parameter(param))
            }
            Rule::variable => plain(ExprKind::Variable(self.ident(p)?)),
            Rule::list_literal => {
                let mut items = Vec::new();
                for x in p.into_inner() {
                    items.push(self.expr(x)?);
                }
                plain(ExprKind::List(items))
            }
            Rule::map_literal => {
                let mut entries: Vec<(Ident, Expr)> = Vec::new();
                for x in p.into_inner() {
                    let mut it = x.into_inner();
                    let (Some(k), Some(v)) = (it.next(), it.next()) else {
                        return Err(internal(self.src, span.start));
                    };
                    entries.push((self.ident(k)?, self.expr(v)?));
                }
                plain(ExprKind::Map(entries))
            }
            Rule::paren_expr => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(self.src, span.start))?;
                let mut o = self.expr_operand(inner)?;
                o.expr.span = span;
                o.paren = true;
                Ok(o)
            }
            Rule::list_comprehension => {
                let mut variable = None;
                let mut list = None;
                let mut filter = None;
                let mut map = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::expression => list = Some(Box::new(self.expr(x)?)),
                        Rule::comp_where => filter = Some(Box::new(self.inner_expr(x)?)),
                        Rule::comp_map => map = Some(Box::new(self.inner_expr(x)?)),
                        _ => {}
                    }
                }
                match (variable, list) {
                    (Some(variable), Some(list)) => plain(ExprKind::ListComprehension {
                        variable,
                        list,
                        filter,
                        map,
                    }),
                    _ => Err(internal(self.src, span.start)),
                }
            }
            Rule::pattern_comprehension => {
                let mut variable = None;
                let mut pattern = None;
                let mut filter = None;
                let mut map = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::pattern_chain_rel => pattern = Some(self.path_chain(x)?),
                        Rule::comp_where => filter = Some(Box::new(self.inner_expr(x)?)),
                        Rule::expression => map = Some(Box::new(self.expr(x)?)),
                        _ => {}
                    }
                }
                match (pattern, map) {
                    (Some(pattern), Some(map)) => plain(ExprKind::PatternComprehension {
                        variable,
                        pattern,
                        filter,
                        map,
                    }),
                    _ => Err(internal(self.src, span.start)),
                }
            }
            Rule::pattern_expr => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(self.src, span.start))?;
                plain(ExprKind::Pattern(self.path_chain(inner)?))
            }
            Rule::case_expr => {
                let mut operand = None;
                let mut whens = Vec::new();
                let mut else_ = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::expression => operand = Some(Box::new(self.expr(x)?)),
                        Rule::case_when => {
                            let mut it = x.into_inner().filter(|y| y.as_rule() == Rule::expression);
                            let (Some(w), Some(t)) = (it.next(), it.next()) else {
                                return Err(internal(self.src, span.start));
                            };
                            whens.push((self.expr(w)?, self.expr(t)?));
                        }
                        Rule::case_else => else_ = Some(Box::new(self.inner_expr(x)?)),
                        _ => {}
                    }
                }
                plain(ExprKind::Case {
                    operand,
                    whens,
                    else_,
                })
            }
            Rule::count_star => plain(ExprKind::CountStar),
            Rule::exists_subquery | Rule::count_subquery => {
                let rule = p.as_rule();
                let body = p
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::subquery_body)
                    .and_then(|b| b.into_inner().next())
                    .ok_or_else(|| internal(self.src, span.start))?;
                let body = match body.as_rule() {
                    Rule::query => SubqueryBody::Query(self.query(body)?),
                    _ => {
                        let mut pattern = Vec::new();
                        let mut where_ = None;
                        for x in body.into_inner() {
                            match x.as_rule() {
                                Rule::pattern => pattern = self.pattern(x)?,
                                Rule::where_clause => where_ = Some(self.where_clause(x)?),
                                _ => {}
                            }
                        }
                        SubqueryBody::Pattern { pattern, where_ }
                    }
                };
                if rule == Rule::exists_subquery {
                    plain(ExprKind::Exists(Box::new(body)))
                } else {
                    plain(ExprKind::CountSubquery(Box::new(body)))
                }
            }
            Rule::collect_subquery => {
                let q = p
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::query)
                    .ok_or_else(|| internal(self.src, span.start))?;
                plain(ExprKind::Collect(Box::new(self.query(q)?)))
            }
            Rule::quantified_expr => {
                let mut kind = None;
                let mut variable = None;
                let mut list = None;
                let mut filter = None;
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::quantifier_kind => {
                            kind = x.into_inner().next().map(|k| match k.as_rule() {
                                Rule::ALL => QuantifierKind::All,
                                Rule::ANY_KW => QuantifierKind::Any,
                                Rule::NONE => QuantifierKind::None,
                                _ => QuantifierKind::Single,
                            })
                        }
                        Rule::variable => variable = Some(self.ident(x)?),
                        Rule::expression => list = Some(Box::new(self.expr(x)?)),
                        Rule::comp_where => filter = Some(Box::new(self.inner_expr(x)?)),
                        _ => {}
                    }
                }
                match (kind, variable, list) {
                    (Some(kind), Some(variable), Some(list)) => plain(ExprKind::Quantified {
                        kind,
                        variable,
                        list,
                        filter,
                    }),
                    _ => Err(internal(self.src, span.start)),
                }
            }
            Rule::reduce_expr => {
                let mut vars = Vec::new();
                let mut exprs = Vec::new();
                for x in p.into_inner() {
                    match x.as_rule() {
                        Rule::variable => vars.push(self.ident(x)?),
                        Rule::expression => exprs.push(self.expr(x)?),
                        _ => {}
                    }
                }
                if vars.len() != 2 || exprs.len() != 3 {
                    return Err(internal(self.src, span.start));
                }
                let expr = Box::new(exprs.pop().ok_or_else(|| internal(self.src, 0))?);
                let list = Box::new(exprs.pop().ok_or_else(|| internal(self.src, 0))?);
                let init = Box::new(exprs.pop().ok_or_else(|| internal(self.src, 0))?);
                let variable = vars.pop().ok_or_else(|| internal(self.src, 0))?;
                let accumulator = vars.pop().ok_or_else(|| internal(self.src, 0))?;
                plain(ExprKind::Reduce {
                    accumulator,
                    init,
                    variable,
                    list,
                    expr,
                })
            }
            Rule::shortest_path => {
                let (all, chain, _) = self.shortest_path(p)?;
                plain(ExprKind::ShortestPath { all, chain })
            }
            Rule::name_atom => self.name_atom(p),
            _ => Err(self.bad_tree(&p)),
        }
    }

    /// `n`, `n.a.b`, `ns.f(args)` or `n {.a, …}`.
    fn name_atom(&self, p: Pair<'_, Rule>) -> Res<Operand> {
        let span = span_of(&p);
        let mut names = Vec::new();
        let mut call = None;
        let mut projection = None;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::symbolic_name => names.push(self.ident(x)?),
                Rule::call_args => call = Some(x),
                Rule::map_proj_body => projection = Some(x),
                _ => {}
            }
        }
        let Some(first) = names.first() else {
            return Err(internal(self.src, span.start));
        };
        if let Some(args_pair) = call {
            let name_span = first.span.to(names[names.len() - 1].span);
            let mut distinct = false;
            let mut args = Vec::new();
            for x in args_pair.into_inner() {
                match x.as_rule() {
                    Rule::DISTINCT => distinct = true,
                    Rule::expression => args.push(self.expr(x)?),
                    _ => {}
                }
            }
            let name = QualifiedName {
                parts: names,
                span: name_span,
            };
            return Ok(Operand {
                expr: Expr::new(
                    ExprKind::FunctionCall {
                        name,
                        distinct,
                        args,
                    },
                    span,
                ),
                paren: false,
                height: 1,
            });
        }
        if let Some(body) = projection {
            if names.len() > 1 {
                return Err(self.err(
                    names[1].span.start - 1,
                    "a map projection applies to a variable: write `v {.key}`, not `v.prop {…}`",
                ));
            }
            let variable = names.pop().ok_or_else(|| internal(self.src, span.start))?;
            let items = self.map_projection_items(body)?;
            return Ok(Operand {
                expr: Expr::new(ExprKind::MapProjection { variable, items }, span),
                paren: false,
                height: 1,
            });
        }
        let height = names.len();
        if height > MAX_CHAIN {
            return Err(self.err(span.start, "property chain too long"));
        }
        let mut it = names.into_iter();
        let first = it.next().ok_or_else(|| internal(self.src, span.start))?;
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
        Ok(Operand {
            expr: e,
            paren: false,
            height,
        })
    }

    fn map_projection_items(&self, body: Pair<'_, Rule>) -> Res<Vec<MapProjectionItem>> {
        let mut items = Vec::new();
        for x in body.into_inner() {
            let start = x.as_span().start();
            match x.as_rule() {
                Rule::map_proj_all => items.push(MapProjectionItem::AllProperties(span_of(&x))),
                Rule::map_proj_prop => {
                    let k = x
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, start))?;
                    items.push(MapProjectionItem::Property(self.ident(k)?));
                }
                Rule::map_proj_entry => {
                    let mut it = x.into_inner();
                    let (Some(k), Some(v)) = (it.next(), it.next()) else {
                        return Err(internal(self.src, start));
                    };
                    items.push(MapProjectionItem::Entry(self.ident(k)?, self.expr(v)?));
                }
                Rule::map_proj_var => {
                    let v = x
                        .into_inner()
                        .next()
                        .ok_or_else(|| internal(self.src, start))?;
                    items.push(MapProjectionItem::Variable(self.ident(v)?));
                }
                _ => {}
            }
        }
        Ok(items)
    }

    fn function_call(&self, p: Pair<'_, Rule>) -> Res<Expr> {
        let span = span_of(&p);
        let mut name = None;
        let mut distinct = false;
        let mut args = Vec::new();
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::qualified_name => name = Some(self.qualified_name(x)?),
                Rule::DISTINCT => distinct = true,
                Rule::expression => args.push(self.expr(x)?),
                _ => {}
            }
        }
        Ok(Expr::new(
            ExprKind::FunctionCall {
                name: name.ok_or_else(|| internal(self.src, span.start))?,
                distinct,
                args,
            },
            span,
        ))
    }

    fn qualified_name(&self, p: Pair<'_, Rule>) -> Res<QualifiedName> {
        let span = span_of(&p);
        let mut parts = Vec::new();
        for x in p.into_inner() {
            parts.push(self.ident(x)?);
        }
        Ok(QualifiedName { parts, span })
    }

    /// An identifier from `variable`, `alias_name` or `symbolic_name`: backticks removed and
    /// doubled backticks undone.
    fn ident(&self, p: Pair<'_, Rule>) -> Res<Ident> {
        let span = span_of(&p);
        let s = p.as_str();
        let name = match s.strip_prefix('`') {
            Some(rest) => rest.strip_suffix('`').unwrap_or(rest).replace("``", "`"),
            None => s.to_string(),
        };
        Ok(Ident { name, span })
    }

    /// The value of a string literal, escapes resolved.
    fn string(&self, p: Pair<'_, Rule>) -> Res<String> {
        let inner = p.into_inner().next().ok_or_else(|| internal(self.src, 0))?;
        let base = inner.as_span().start();
        let raw = inner.as_str();
        if !raw.contains('\\') {
            return Ok(raw.to_string());
        }
        let mut out = String::with_capacity(raw.len());
        let mut it = raw.char_indices();
        while let Some((i, c)) = it.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some((_, e)) = it.next() else { break };
            match e {
                '\\' | '\'' | '"' | '`' => out.push(e),
                'b' | 'B' => out.push('\u{8}'),
                'f' | 'F' => out.push('\u{c}'),
                'n' | 'N' => out.push('\n'),
                'r' | 'R' => out.push('\r'),
                't' | 'T' => out.push('\t'),
                'u' | 'U' => {
                    let n = if e == 'u' { 4 } else { 8 };
                    let hex: String = (0..n).filter_map(|_| it.next().map(|(_, h)| h)).collect();
                    let code = u32::from_str_radix(&hex, 16).ok();
                    match code.and_then(char::from_u32) {
                        Some(ch) => out.push(ch),
                        None => {
                            return Err(self.err(
                                base + i,
                                format!("`\\{e}{hex}` is not a Unicode scalar value"),
                            ))
                        }
                    }
                }
                _ => {
                    return Err(self.err(base + i, "invalid escape sequence in string literal"));
                }
            }
        }
        Ok(out)
    }

    fn cypher_type(&self, p: Pair<'_, Rule>) -> Res<CypherType> {
        let mut alts = Vec::new();
        for x in p.into_inner() {
            if x.as_rule() == Rule::type_single {
                alts.push(self.type_single(x)?);
            }
        }
        Ok(make_union(alts, false))
    }

    fn type_single(&self, p: Pair<'_, Rule>) -> Res<CypherType> {
        let start = p.as_span().start();
        let mut base = None;
        let mut not_null = false;
        for x in p.into_inner() {
            match x.as_rule() {
                Rule::type_base => base = Some(self.type_base(x)?),
                Rule::type_not_null => not_null = true,
                _ => {}
            }
        }
        let mut t = base.ok_or_else(|| internal(self.src, start))?;
        t.not_null = t.not_null || not_null;
        Ok(t)
    }

    fn type_base(&self, p: Pair<'_, Rule>) -> Res<CypherType> {
        let start = p.as_span().start();
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(self.src, start))?;
        let simple = |kind| {
            Ok(CypherType {
                kind,
                not_null: false,
            })
        };
        match inner.as_rule() {
            Rule::ty_any_union => {
                let t = inner
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::cypher_type)
                    .ok_or_else(|| internal(self.src, start))?;
                self.cypher_type(t)
            }
            Rule::ty_list => {
                let t = inner
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::cypher_type)
                    .ok_or_else(|| internal(self.src, start))?;
                simple(TypeKind::List(Box::new(self.cypher_type(t)?)))
            }
            Rule::ty_nothing => simple(TypeKind::Nothing),
            Rule::ty_null => simple(TypeKind::Null),
            Rule::ty_boolean => simple(TypeKind::Boolean),
            Rule::ty_string => simple(TypeKind::String),
            Rule::ty_integer => simple(TypeKind::Integer),
            Rule::ty_float => simple(TypeKind::Float),
            Rule::ty_date => simple(TypeKind::Date),
            Rule::ty_local_time => simple(TypeKind::LocalTime),
            Rule::ty_zoned_time => simple(TypeKind::ZonedTime),
            Rule::ty_local_datetime => simple(TypeKind::LocalDateTime),
            Rule::ty_zoned_datetime => simple(TypeKind::ZonedDateTime),
            Rule::ty_duration => simple(TypeKind::Duration),
            Rule::ty_point => simple(TypeKind::Point),
            Rule::ty_node => simple(TypeKind::Node),
            Rule::ty_relationship => simple(TypeKind::Relationship),
            Rule::ty_map => simple(TypeKind::Map),
            Rule::ty_path => simple(TypeKind::Path),
            Rule::ty_property_value => simple(TypeKind::PropertyValue),
            Rule::ty_any => simple(TypeKind::Any),
            _ => Err(self.bad_tree(&inner)),
        }
    }
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
