//! Lucene's classic query syntax, as Neo4j's `db.index.fulltext.queryNodes` reads it: terms,
//! `"phrases"~slop`, `AND`/`OR`/`NOT`/`&&`/`||`/`!`, `+`/`-`, `( … )` groups, `field:` prefixes,
//! `*`/`?` wildcards, `term*` prefixes, `term~n` fuzzy terms, `[a TO b]`/`{a TO b}` ranges,
//! `/regex/`, `^boost`, and `\` escapes.
//!
//! The parser builds the query the way Lucene's `MultiFieldQueryParser` does over the index's
//! properties with the default operator `OR`: a word without a field is looked for in every
//! property (one `SHOULD` clause per property), an `AND` makes both its neighbours required,
//! and a word the analyzer splits (`e-mail`) becomes a disjunction of its terms.

use super::analyzer::Analyzer;
use thiserror::Error;

/// The deepest nesting of `( … )` groups a query may have.
pub const MAX_DEPTH: usize = 200;

/// The most leaf clauses (terms, phrase terms, multi-term queries) a query may have: Lucene's
/// `IndexSearcher.maxClauseCount`.
pub const MAX_CLAUSES: usize = 1024;

/// How a clause of a boolean query takes part in matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occur {
    /// The clause must match and adds to the score (`+a`, `a AND b`).
    Must,
    /// The clause may match and adds to the score (`a b`, `a OR b`).
    Should,
    /// The clause must not match (`-a`, `NOT a`).
    MustNot,
}

/// A parsed full-text query over named fields (the index's properties).
#[derive(Clone, Debug)]
pub enum Query {
    /// `*:*`: every document, score 1.
    MatchAll,
    /// One analyzed term in one field, scored by BM25.
    Term { field: String, term: String },
    /// Terms at relative positions, within `slop` moves; scored by BM25 over the phrase's
    /// frequency with the sum of its terms' idf.
    Phrase {
        field: String,
        terms: Vec<(String, u32)>,
        slop: u32,
    },
    /// Terms that start with `prefix` (constant score).
    Prefix { field: String, prefix: String },
    /// Terms matching a `*`/`?` pattern (constant score).
    Wildcard { field: String, pattern: String },
    /// Terms matching a regular expression (constant score).
    Regex { field: String, regex: regex::Regex },
    /// Terms within `max_edits` edits (Damerau–Levenshtein) of `term`, sharing its first
    /// `prefix_length` characters; scored as Lucene's blended fuzzy rewrite scores them.
    Fuzzy {
        field: String,
        term: String,
        max_edits: u32,
        prefix_length: u32,
    },
    /// Terms between two bounds (constant score); `None` is open.
    Range {
        field: String,
        lower: Option<String>,
        upper: Option<String>,
        include_lower: bool,
        include_upper: bool,
    },
    /// Clauses combined; the score is the sum of the matching clauses' scores.
    Boolean(Vec<(Occur, Query)>),
    /// A query whose scores are multiplied by a factor (`^2`).
    Boost(Box<Query>, f32),
}

impl Query {
    /// Its leaf clauses, as Lucene counts them against `maxClauseCount` (a phrase counts its
    /// terms).
    pub fn clauses(&self) -> usize {
        match self {
            Query::Phrase { terms, .. } => terms.len(),
            Query::Boolean(cs) => cs.iter().map(|(_, q)| q.clauses()).sum(),
            Query::Boost(q, _) => q.clauses(),
            _ => 1,
        }
    }
}

/// A query text that is not valid Lucene syntax; the message follows Lucene's
/// `ParseException` (`Cannot parse '…': …`).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("Cannot parse '{query}': {message}")]
pub struct QueryError {
    /// The query text.
    pub query: String,
    /// What is wrong, and where (1-based column).
    pub message: String,
    /// Byte offset of the problem in the query.
    pub offset: usize,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    And,
    Or,
    Not,
    Plus,
    Minus,
    /// `+`, `-` or `!` followed by white space: a bare operator, read as a term.
    BareOper(char),
    LParen,
    RParen,
    Colon,
    Star,
    /// `^` and its number.
    Caret(String),
    Quoted(String),
    Term(String),
    Prefix(String),
    Wild(String),
    Regexp(String),
    /// `~` and the number after it, if any.
    Slop(Option<String>),
    /// `[` or `{`, then lower, upper, then `]` or `}`.
    Range {
        include_lower: bool,
        lower: String,
        lower_quoted: bool,
        upper: String,
        upper_quoted: bool,
        include_upper: bool,
    },
    Eof,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::And => "\"AND\"".into(),
            Tok::Or => "\"OR\"".into(),
            Tok::Not => "\"NOT\"".into(),
            Tok::Plus => "\"+\"".into(),
            Tok::Minus => "\"-\"".into(),
            Tok::BareOper(c) => format!("<BAREOPER> \"{c}\""),
            Tok::LParen => "\"(\"".into(),
            Tok::RParen => "\")\"".into(),
            Tok::Colon => "\":\"".into(),
            Tok::Star => "\"*\"".into(),
            Tok::Caret(_) => "\"^\"".into(),
            Tok::Quoted(s) => format!("<QUOTED> \"\\\"{s}\\\"\""),
            Tok::Term(s) => format!("<TERM> \"{s}\""),
            Tok::Prefix(s) => format!("<PREFIXTERM> \"{s}\""),
            Tok::Wild(s) => format!("<WILDTERM> \"{s}\""),
            Tok::Regexp(s) => format!("<REGEXPTERM> \"/{s}/\""),
            Tok::Slop(_) => "<FUZZY_SLOP> \"~\"".into(),
            Tok::Range { .. } => "<RANGE_START>".into(),
            Tok::Eof => "<EOF>".into(),
        }
    }
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{3000}')
}

/// Characters that cannot start a term (unless escaped).
fn is_special(c: char) -> bool {
    is_ws(c)
        || matches!(
            c,
            '+' | '-'
                | '!'
                | '('
                | ')'
                | ':'
                | '^'
                | '['
                | ']'
                | '"'
                | '{'
                | '}'
                | '~'
                | '*'
                | '?'
                | '\\'
                | '/'
        )
}

/// Characters that continue a term: what starts one, and `-`, `+`.
fn continues_term(c: char) -> bool {
    !is_special(c) || c == '-' || c == '+'
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn peek_char(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn error(&self, at: usize, message: String) -> QueryError {
        QueryError {
            query: self.text.to_string(),
            message,
            offset: at,
        }
    }

    /// The next token and the byte offset where it starts.
    fn next(&mut self) -> Result<(Tok, usize), QueryError> {
        while let Some(c) = self.peek_char() {
            if is_ws(c) {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
        let start = self.pos;
        let rest = &self.text[self.pos..];
        let Some(c) = rest.chars().next() else {
            return Ok((Tok::Eof, start));
        };
        let after = rest[c.len_utf8()..].chars().next();
        let one = |me: &mut Self, t: Tok| {
            me.pos += c.len_utf8();
            Ok((t, start))
        };
        if rest.starts_with("&&") {
            self.pos += 2;
            return Ok((Tok::And, start));
        }
        if rest.starts_with("||") {
            self.pos += 2;
            return Ok((Tok::Or, start));
        }
        match c {
            '+' | '-' | '!' if after.is_some_and(is_ws) => {
                self.pos += 1;
                Ok((Tok::BareOper(c), start))
            }
            '+' => one(self, Tok::Plus),
            '-' => one(self, Tok::Minus),
            '!' => one(self, Tok::Not),
            '(' => one(self, Tok::LParen),
            ')' => one(self, Tok::RParen),
            ':' => one(self, Tok::Colon),
            '^' => {
                self.pos += 1;
                let n = self.number();
                if n.is_empty() {
                    let at = self.pos;
                    let (t, _) = self.next()?;
                    return Err(self.error(
                        at,
                        format!(
                            "Encountered {} at line 1, column {}. Was expecting: <NUMBER>",
                            t.describe(),
                            column(self.text, at)
                        ),
                    ));
                }
                Ok((Tok::Caret(n), start))
            }
            '~' => {
                self.pos += 1;
                let n = self.number();
                Ok((Tok::Slop((!n.is_empty()).then_some(n)), start))
            }
            '"' => {
                self.pos += 1;
                let mut s = String::new();
                loop {
                    let Some(ch) = self.peek_char() else {
                        return Err(self.eof_after(start));
                    };
                    self.pos += ch.len_utf8();
                    match ch {
                        '"' => break,
                        '\\' => {
                            let Some(e) = self.peek_char() else {
                                return Err(self.eof_after(start));
                            };
                            self.pos += e.len_utf8();
                            s.push('\\');
                            s.push(e);
                        }
                        _ => s.push(ch),
                    }
                }
                Ok((Tok::Quoted(s), start))
            }
            '/' => {
                self.pos += 1;
                let mut s = String::new();
                loop {
                    let Some(ch) = self.peek_char() else {
                        return Err(self.eof_after(start));
                    };
                    self.pos += ch.len_utf8();
                    match ch {
                        '/' => break,
                        '\\' if self.peek_char() == Some('/') => {
                            self.pos += 1;
                            s.push('/');
                        }
                        _ => s.push(ch),
                    }
                }
                Ok((Tok::Regexp(s), start))
            }
            '[' | '{' => self.range(c == '['),
            ']' | '}' => Err(self.error(
                start,
                format!(
                    "Encountered \"{c}\" at line 1, column {}.",
                    column(self.text, start)
                ),
            )),
            _ => self.word(),
        }
    }

    /// Lucene's lexical error for input that ends inside a token begun at `start`.
    fn eof_after(&self, start: usize) -> QueryError {
        self.error(
            start,
            format!(
                "Lexical error at line 1, column {}. Encountered: <EOF> after : \"{}\"",
                column(self.text, self.text.len()),
                &self.text[start..]
            ),
        )
    }

    /// Digits, optionally `.` and more digits.
    fn number(&mut self) -> String {
        let rest = &self.text[self.pos..];
        let int = rest.bytes().take_while(u8::is_ascii_digit).count();
        let mut len = int;
        if int > 0 && rest[int..].starts_with('.') {
            let frac = rest[int + 1..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            if frac > 0 {
                len = int + 1 + frac;
            }
        }
        self.pos += len;
        rest[..len].to_string()
    }

    /// A term, a prefix term, a wildcard term, `*`, or a keyword (`AND`, `OR`, `NOT`).
    fn word(&mut self) -> Result<(Tok, usize), QueryError> {
        let start = self.pos;
        let mut raw = String::new();
        let mut wild = Vec::new(); // positions (in chars of `raw`) of unescaped * and ?
        let mut chars = 0usize;
        let mut first = true;
        while let Some(c) = self.peek_char() {
            if c == '\\' {
                self.pos += 1;
                let Some(e) = self.peek_char() else {
                    return Err(self.eof_after(start));
                };
                self.pos += e.len_utf8();
                raw.push('\\');
                raw.push(e);
                chars += 2;
            } else if c == '*' || c == '?' {
                self.pos += 1;
                wild.push((chars, c));
                raw.push(c);
                chars += 1;
            } else if (first && !is_special(c)) || (!first && continues_term(c)) {
                self.pos += c.len_utf8();
                raw.push(c);
                chars += 1;
            } else {
                break;
            }
            first = false;
        }
        if raw.is_empty() {
            // A character that starts nothing (cannot happen: every special is handled).
            let c = self.peek_char().unwrap_or(' ');
            self.pos += c.len_utf8();
            return Err(self.error(
                start,
                format!(
                    "Encountered \"{c}\" at line 1, column {}.",
                    column(self.text, start)
                ),
            ));
        }
        let tok = if raw == "*" {
            Tok::Star
        } else if wild.is_empty() {
            match raw.as_str() {
                "AND" => Tok::And,
                "OR" => Tok::Or,
                "NOT" => Tok::Not,
                _ => Tok::Term(raw),
            }
        } else if wild.len() == 1 && wild[0] == (chars - 1, '*') {
            Tok::Prefix(raw)
        } else {
            Tok::Wild(raw)
        };
        Ok((tok, start))
    }

    /// `[lower TO upper]` or `{lower TO upper}` (either side `*` for open, or quoted).
    fn range(&mut self, include_lower: bool) -> Result<(Tok, usize), QueryError> {
        let start = self.pos;
        self.pos += 1;
        let mut parts: Vec<(String, bool)> = Vec::new();
        loop {
            while self.peek_char().is_some_and(char::is_whitespace) {
                self.pos += 1;
            }
            let at = self.pos;
            let Some(c) = self.peek_char() else {
                return Err(self.error(
                    at,
                    format!(
                        "Encountered \"<EOF>\" at line 1, column {}. Was expecting one of: \"]\" \"}}\"",
                        column(self.text, at)
                    ),
                ));
            };
            if c == ']' || c == '}' {
                self.pos += 1;
                if parts.len() != 2 {
                    return Err(self.error(
                        at,
                        format!(
                            "Encountered \"{c}\" at line 1, column {}. Was expecting: <RANGE_GOOP> or <RANGE_QUOTED>",
                            column(self.text, at)
                        ),
                    ));
                }
                let (upper, upper_quoted) = parts.pop().unwrap_or_default();
                let (lower, lower_quoted) = parts.pop().unwrap_or_default();
                return Ok((
                    Tok::Range {
                        include_lower,
                        lower,
                        lower_quoted,
                        upper,
                        upper_quoted,
                        include_upper: c == ']',
                    },
                    start,
                ));
            }
            let (part, quoted) = if c == '"' {
                self.pos += 1;
                let mut s = String::new();
                loop {
                    match self.peek_char() {
                        None => {
                            return Err(self.error(
                                at,
                                format!(
                                    "Lexical error at line 1, column {}. Encountered: <EOF>",
                                    column(self.text, self.text.len())
                                ),
                            ))
                        }
                        Some('"') => {
                            self.pos += 1;
                            break;
                        }
                        Some('\\') if self.text[self.pos + 1..].starts_with('"') => {
                            self.pos += 2;
                            s.push('"');
                        }
                        Some(ch) => {
                            self.pos += ch.len_utf8();
                            s.push(ch);
                        }
                    }
                }
                (s, true)
            } else {
                let rest = &self.text[self.pos..];
                let len = rest.find([' ', ']', '}']).unwrap_or(rest.len());
                self.pos += len;
                (rest[..len].to_string(), false)
            };
            if !quoted && part == "TO" && parts.len() == 1 {
                continue;
            }
            if parts.len() == 2 {
                return Err(self.error(
                    at,
                    format!(
                        "Encountered \"{part}\" at line 1, column {}. Was expecting one of: \"]\" \"}}\"",
                        column(self.text, at)
                    ),
                ));
            }
            parts.push((part, quoted));
        }
    }
}

/// Lucene's 1-based column of a byte offset (in characters).
fn column(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].chars().count() + 1
}

/// Removes `\` escapes (`\\` gives `\`).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(e) = chars.next() {
                out.push(e);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The parser: tokens with one token of look-ahead (two for `field:`).
struct Parser<'a> {
    lexer: Lexer<'a>,
    ahead: Vec<(Tok, usize)>,
    fields: &'a [String],
    analyzer: Analyzer,
    allow_leading_wildcard: bool,
}

/// Parses `text` as a Lucene query over the index's `fields` (the default fields of words
/// without a `field:`), analyzing words with `analyzer`. A leading `*` or `?` in a wildcard
/// term is accepted (Neo4j's full-text parser allows it).
pub fn parse(text: &str, fields: &[String], analyzer: Analyzer) -> Result<Query, QueryError> {
    let mut p = Parser {
        lexer: Lexer { text, pos: 0 },
        ahead: Vec::new(),
        fields,
        analyzer,
        allow_leading_wildcard: true,
    };
    let q = p.query(None, 0)?;
    let (t, at) = p.next()?;
    if t != Tok::Eof {
        return Err(p.unexpected(&t, at));
    }
    let q = q.unwrap_or(Query::Boolean(Vec::new()));
    if q.clauses() > MAX_CLAUSES {
        return Err(QueryError {
            query: text.to_string(),
            message: format!(
                "the query has more than {MAX_CLAUSES} clauses (Lucene's maxClauseCount)"
            ),
            offset: 0,
        });
    }
    Ok(q)
}

/// Which fields a clause looks in: one named, or the defaults.
#[derive(Clone, Copy)]
enum Target<'f> {
    Field(&'f str),
    Defaults,
}

impl<'a> Parser<'a> {
    fn fill(&mut self, n: usize) -> Result<(), QueryError> {
        while self.ahead.len() < n {
            let t = self.lexer.next()?;
            self.ahead.push(t);
        }
        Ok(())
    }

    fn peek(&mut self) -> Result<&Tok, QueryError> {
        self.fill(1)?;
        Ok(&self.ahead[0].0)
    }

    fn peek2(&mut self) -> Result<&Tok, QueryError> {
        self.fill(2)?;
        Ok(&self.ahead[1].0)
    }

    fn next(&mut self) -> Result<(Tok, usize), QueryError> {
        self.fill(1)?;
        Ok(self.ahead.remove(0))
    }

    fn unexpected(&self, t: &Tok, at: usize) -> QueryError {
        self.lexer.error(
            at,
            format!(
                "Encountered {} at line 1, column {}.",
                t.describe(),
                column(self.lexer.text, at)
            ),
        )
    }

    fn starts_clause(t: &Tok) -> bool {
        matches!(
            t,
            Tok::And
                | Tok::Or
                | Tok::Not
                | Tok::Plus
                | Tok::Minus
                | Tok::BareOper(_)
                | Tok::LParen
                | Tok::Star
                | Tok::Quoted(_)
                | Tok::Term(_)
                | Tok::Prefix(_)
                | Tok::Wild(_)
                | Tok::Regexp(_)
                | Tok::Range { .. }
        )
    }

    /// `Query := Modifiers Clause ( Conjunction Modifiers Clause )*`; `None` when every
    /// clause analyzed to nothing.
    fn query(&mut self, field: Option<&str>, depth: usize) -> Result<Option<Query>, QueryError> {
        let mut clauses: Vec<(Occur, Query)> = Vec::new();
        let mut first: Option<Query> = None;
        let mut n = 0usize;
        loop {
            let conj = if n == 0 {
                None
            } else {
                if !Self::starts_clause(self.peek()?) {
                    break;
                }
                match self.peek()? {
                    Tok::And => {
                        self.next()?;
                        Some(true)
                    }
                    Tok::Or => {
                        self.next()?;
                        Some(false)
                    }
                    _ => None,
                }
            };
            let m = match self.peek()? {
                Tok::Plus => {
                    self.next()?;
                    Some(Occur::Must)
                }
                Tok::Minus | Tok::Not => {
                    self.next()?;
                    Some(Occur::MustNot)
                }
                _ => None,
            };
            let q = self.clause(field, depth)?;
            if n == 0 && m.is_none() {
                first = q.clone();
            }
            add_clause(&mut clauses, conj == Some(true), m, q);
            n += 1;
        }
        if n == 1 {
            if let Some(q) = first {
                return Ok(Some(q));
            }
        }
        Ok(if clauses.is_empty() {
            None
        } else {
            Some(Query::Boolean(clauses))
        })
    }

    /// `Clause := [ field ':' ] ( Term | '(' Query ')' [ '^' boost ] )`.
    fn clause(&mut self, field: Option<&str>, depth: usize) -> Result<Option<Query>, QueryError> {
        let mut field: Option<String> = field.map(str::to_string);
        if matches!(self.peek()?, Tok::Term(_) | Tok::Star) && *self.peek2()? == Tok::Colon {
            let (t, _) = self.next()?;
            self.next()?;
            field = Some(match t {
                Tok::Term(s) => unescape(&s),
                _ => "*".to_string(),
            });
        }
        let (t, at) = self.next()?;
        if t == Tok::LParen {
            if depth >= MAX_DEPTH {
                return Err(self.lexer.error(
                    at,
                    format!("the query nests groups deeper than {MAX_DEPTH} levels"),
                ));
            }
            let q = self.query(field.as_deref(), depth + 1)?;
            let (close, at2) = self.next()?;
            if close != Tok::RParen {
                return Err(self.lexer.error(
                    at2,
                    format!(
                        "Encountered {} at line 1, column {}. Was expecting: \")\"",
                        close.describe(),
                        column(self.lexer.text, at2)
                    ),
                ));
            }
            let boost = self.boost()?;
            return Ok(q.map(|q| boosted(q, boost)));
        }
        self.term(t, at, field.as_deref())
    }

    /// An optional `^number`.
    fn boost(&mut self) -> Result<Option<f32>, QueryError> {
        if let Tok::Caret(_) = self.peek()? {
            let (Tok::Caret(n), _) = self.next()? else {
                unreachable!("peeked a caret")
            };
            return Ok(Some(n.parse::<f32>().unwrap_or(1.0)));
        }
        Ok(None)
    }

    fn slop(&mut self) -> Result<Option<Option<String>>, QueryError> {
        if let Tok::Slop(_) = self.peek()? {
            let (Tok::Slop(n), _) = self.next()? else {
                unreachable!("peeked a slop")
            };
            return Ok(Some(n));
        }
        Ok(None)
    }

    fn term(
        &mut self,
        t: Tok,
        at: usize,
        field: Option<&str>,
    ) -> Result<Option<Query>, QueryError> {
        let target = match field {
            Some(f) => Target::Field(f),
            None => Target::Defaults,
        };
        let q = match t {
            Tok::Term(_)
            | Tok::Star
            | Tok::Prefix(_)
            | Tok::Wild(_)
            | Tok::Regexp(_)
            | Tok::BareOper(_) => {
                let mut fuzzy = self.slop()?;
                let boost = self.boost()?;
                if boost.is_some() && fuzzy.is_none() {
                    fuzzy = self.slop()?;
                }
                let q = match t {
                    Tok::Star => self.wildcard(target, "*", at)?,
                    Tok::Wild(s) => self.wildcard(target, &s, at)?,
                    Tok::Prefix(s) => {
                        let p = &s[..s.len() - 1];
                        if !self.allow_leading_wildcard && p.starts_with('*') {
                            return Err(self.lexer.error(
                                at,
                                "'*' not allowed as first character in PrefixQuery".into(),
                            ));
                        }
                        let prefix = self.analyzer.normalize(&unescape(p));
                        self.per_field(target, |f| Query::Prefix {
                            field: f.to_string(),
                            prefix: prefix.clone(),
                        })
                    }
                    Tok::Regexp(s) => {
                        let regex = regex::RegexBuilder::new(&format!("^(?:{s})$"))
                            .size_limit(1 << 20)
                            .dfa_size_limit(1 << 20)
                            .build()
                            .map_err(|e| {
                                self.lexer
                                    .error(at, format!("invalid regular expression /{s}/: {e}"))
                            })?;
                        self.per_field(target, |f| Query::Regex {
                            field: f.to_string(),
                            regex: regex.clone(),
                        })
                    }
                    Tok::Term(s) if fuzzy.is_some() => {
                        let sim = match fuzzy.flatten() {
                            Some(n) => n.parse::<f32>().unwrap_or(2.0),
                            None => 2.0,
                        };
                        if sim >= 1.0 && sim.fract() != 0.0 {
                            return Err(self
                                .lexer
                                .error(at, "Fractional edit distances are not allowed!".into()));
                        }
                        let term = self.analyzer.normalize(&unescape(&s));
                        let len = term.chars().count();
                        let max_edits = if sim >= 1.0 {
                            sim.min(2.0) as u32
                        } else if sim == 0.0 {
                            0
                        } else {
                            (((1.0 - sim as f64) * len as f64) as u32).min(2)
                        };
                        self.per_field(target, |f| Query::Fuzzy {
                            field: f.to_string(),
                            term: term.clone(),
                            max_edits,
                            prefix_length: 0,
                        })
                    }
                    Tok::Term(s) => self.field_query(target, &unescape(&s), None),
                    Tok::BareOper(c) => self.field_query(target, &c.to_string(), None),
                    _ => unreachable!("matched above"),
                };
                q.map(|q| boosted(q, boost))
            }
            Tok::Quoted(s) => {
                let slop = self.slop()?;
                let boost = self.boost()?;
                let slop = slop
                    .flatten()
                    .and_then(|n| n.parse::<f32>().ok())
                    .map_or(0, |n| n as u32);
                self.field_query(target, &unescape(&s), Some(slop))
                    .map(|q| boosted(q, boost))
            }
            Tok::Range {
                include_lower,
                lower,
                lower_quoted,
                upper,
                upper_quoted,
                include_upper,
            } => {
                let boost = self.boost()?;
                let bound = |s: &str, quoted: bool| {
                    (quoted || s != "*").then(|| self.analyzer.normalize(&unescape(s)))
                };
                let (lower, upper) = (bound(&lower, lower_quoted), bound(&upper, upper_quoted));
                self.per_field(target, |f| Query::Range {
                    field: f.to_string(),
                    lower: lower.clone(),
                    upper: upper.clone(),
                    include_lower,
                    include_upper,
                })
                .map(|q| boosted(q, boost))
            }
            other => return Err(self.unexpected(&other, at)),
        };
        Ok(q)
    }

    fn wildcard(
        &self,
        target: Target<'_>,
        raw: &str,
        at: usize,
    ) -> Result<Option<Query>, QueryError> {
        if let Target::Field("*") = target {
            if raw == "*" {
                return Ok(Some(Query::MatchAll));
            }
        }
        if !self.allow_leading_wildcard && (raw.starts_with('*') || raw.starts_with('?')) {
            return Err(self.lexer.error(
                at,
                "'*' or '?' not allowed as first character in WildcardQuery".into(),
            ));
        }
        // Keep `\*` and `\?` escaped (literal), normalize the rest.
        let pattern = self.analyzer.normalize(raw);
        Ok(self.per_field(target, |f| Query::Wildcard {
            field: f.to_string(),
            pattern: pattern.clone(),
        }))
    }

    /// One query per target field, as a disjunction when there are several.
    fn per_field(&self, target: Target<'_>, make: impl Fn(&str) -> Query) -> Option<Query> {
        match target {
            Target::Field(f) => Some(make(f)),
            Target::Defaults => disjunction(self.fields.iter().map(|f| make(f)).collect()),
        }
    }

    /// An analyzed word or phrase (`slop` is `Some` for a quoted phrase).
    fn field_query(&self, target: Target<'_>, text: &str, slop: Option<u32>) -> Option<Query> {
        let single = |field: &str| -> Option<Query> {
            let tokens = self.analyzer.terms(text);
            match tokens.len() {
                0 => None,
                1 => Some(Query::Term {
                    field: field.to_string(),
                    term: tokens[0].text.clone(),
                }),
                _ => match slop {
                    Some(slop) => Some(Query::Phrase {
                        field: field.to_string(),
                        terms: tokens.into_iter().map(|t| (t.text, t.position)).collect(),
                        slop,
                    }),
                    None => Some(Query::Boolean(
                        tokens
                            .into_iter()
                            .map(|t| {
                                (
                                    Occur::Should,
                                    Query::Term {
                                        field: field.to_string(),
                                        term: t.text,
                                    },
                                )
                            })
                            .collect(),
                    )),
                },
            }
        };
        match target {
            Target::Field(f) => single(f),
            Target::Defaults if slop.is_some() => {
                disjunction(self.fields.iter().filter_map(|f| single(f)).collect())
            }
            Target::Defaults => {
                // Lucene's MultiFieldQueryParser: term i of every field together.
                let per: Vec<Query> = self.fields.iter().filter_map(|f| single(f)).collect();
                let width = per
                    .iter()
                    .map(|q| match q {
                        Query::Boolean(cs) => cs.len(),
                        _ => 1,
                    })
                    .max()
                    .unwrap_or(0);
                let mut groups = Vec::new();
                for i in 0..width {
                    let nth: Vec<Query> = per
                        .iter()
                        .filter_map(|q| match q {
                            Query::Boolean(cs) => cs.get(i).map(|(_, q)| q.clone()),
                            q if i == 0 => Some(q.clone()),
                            _ => None,
                        })
                        .collect();
                    if width > 1 {
                        if !nth.is_empty() {
                            groups.push(Query::Boolean(
                                nth.into_iter().map(|q| (Occur::Should, q)).collect(),
                            ));
                        }
                    } else {
                        groups.extend(nth);
                    }
                }
                disjunction(groups)
            }
        }
    }
}

/// Lucene's `addClause` with the default operator `OR`: an `AND` makes the clause before it
/// required (unless prohibited) and this one too.
fn add_clause(clauses: &mut Vec<(Occur, Query)>, and: bool, m: Option<Occur>, q: Option<Query>) {
    if and {
        if let Some(last) = clauses.last_mut() {
            if last.0 != Occur::MustNot {
                last.0 = Occur::Must;
            }
        }
    }
    let Some(q) = q else {
        return;
    };
    let occur = match m {
        Some(Occur::MustNot) => Occur::MustNot,
        Some(Occur::Must) => Occur::Must,
        _ if and => Occur::Must,
        _ => Occur::Should,
    };
    clauses.push((occur, q));
}

fn boosted(q: Query, boost: Option<f32>) -> Query {
    match boost {
        Some(b) if b != 1.0 => Query::Boost(Box::new(q), b),
        _ => q,
    }
}

/// One query, or several as `SHOULD` clauses; `None` for none.
fn disjunction(mut qs: Vec<Query>) -> Option<Query> {
    match qs.len() {
        0 => None,
        1 => qs.pop(),
        _ => Some(Query::Boolean(
            qs.into_iter().map(|q| (Occur::Should, q)).collect(),
        )),
    }
}

/// Lucene-escapes `text`: a backslash before every character the syntax gives a meaning.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '+'
                | '-'
                | '!'
                | '('
                | ')'
                | ':'
                | '^'
                | '['
                | ']'
                | '"'
                | '{'
                | '}'
                | '~'
                | '*'
                | '?'
                | '|'
                | '&'
                | '/'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str, fields: &[&str]) -> Result<Query, QueryError> {
        let fields: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
        parse(text, &fields, Analyzer::StandardNoStopWords)
    }

    /// A compact rendering, in Lucene's `toString` style, to compare structures.
    fn show(q: &Query) -> String {
        match q {
            Query::MatchAll => "*:*".into(),
            Query::Term { field, term } => format!("{field}:{term}"),
            Query::Phrase { field, terms, slop } => {
                let ts: Vec<&str> = terms.iter().map(|(t, _)| t.as_str()).collect();
                let s = if *slop > 0 {
                    format!("~{slop}")
                } else {
                    String::new()
                };
                format!("{field}:\"{}\"{s}", ts.join(" "))
            }
            Query::Prefix { field, prefix } => format!("{field}:{prefix}*"),
            Query::Wildcard { field, pattern } => format!("{field}:{pattern}"),
            Query::Regex { field, regex } => format!("{field}:/{}/", regex.as_str()),
            Query::Fuzzy {
                field,
                term,
                max_edits,
                ..
            } => format!("{field}:{term}~{max_edits}"),
            Query::Range {
                field,
                lower,
                upper,
                include_lower,
                include_upper,
            } => format!(
                "{field}:{}{} TO {}{}",
                if *include_lower { '[' } else { '{' },
                lower.as_deref().unwrap_or("*"),
                upper.as_deref().unwrap_or("*"),
                if *include_upper { ']' } else { '}' }
            ),
            Query::Boolean(cs) => {
                let parts: Vec<String> = cs
                    .iter()
                    .map(|(o, q)| {
                        let pre = match o {
                            Occur::Must => "+",
                            Occur::MustNot => "-",
                            Occur::Should => "",
                        };
                        match q {
                            Query::Boolean(_) => format!("{pre}({})", show(q)),
                            _ => format!("{pre}{}", show(q)),
                        }
                    })
                    .collect();
                parts.join(" ")
            }
            Query::Boost(q, b) => format!("({})^{b}", show(q)),
        }
    }

    fn shown(text: &str, fields: &[&str]) -> String {
        show(&p(text, fields).unwrap())
    }

    #[test]
    fn terms_operators_and_fields() {
        assert_eq!(shown("Matrix", &["title"]), "title:matrix");
        assert_eq!(
            shown("matrix", &["title", "plot"]),
            "title:matrix plot:matrix"
        );
        assert_eq!(shown("a AND b", &["t"]), "+t:a +t:b");
        assert_eq!(shown("a OR b AND c", &["t"]), "t:a +t:b +t:c");
        assert_eq!(shown("a && b || c", &["t"]), "+t:a +t:b t:c");
        assert_eq!(shown("+a -b c", &["t"]), "+t:a -t:b t:c");
        assert_eq!(shown("NOT a", &["t"]), "-t:a");
        assert_eq!(shown("a !b", &["t"]), "t:a -t:b");
        assert_eq!(shown("-a AND b", &["t"]), "-t:a +t:b");
        assert_eq!(
            shown("plot:(love OR war) title:x", &["title", "plot"]),
            "(plot:love plot:war) title:x"
        );
        assert_eq!(shown("(a b)^2", &["t"]), "(t:a t:b)^2");
        assert_eq!(shown("a^0.5", &["t"]), "(t:a)^0.5");
        assert_eq!(shown("*:*", &["t"]), "*:*");
        assert!(p("AND", &["t"]).is_err(), "AND alone is an operator");
    }

    #[test]
    fn analysis_phrases_and_multi_term_words() {
        assert_eq!(shown("\"The Matrix\"", &["t"]), "t:\"the matrix\"");
        assert_eq!(
            shown("\"matrix reloaded\"~2", &["t"]),
            "t:\"matrix reloaded\"~2"
        );
        assert_eq!(shown("\"Matrix\"", &["t"]), "t:matrix");
        assert_eq!(shown("e-mail", &["t"]), "(t:e) (t:mail)");
        assert_eq!(shown("e-mail", &["t", "u"]), "(t:e u:e) (t:mail u:mail)");
        assert_eq!(shown("foo\\-bar", &["t"]), "(t:foo) (t:bar)");
        // Words the analyzer drops leave no clause.
        let fields = vec!["t".to_string()];
        let q = parse("the AND matrix", &fields, Analyzer::Standard).unwrap();
        assert_eq!(show(&q), "+t:matrix");
    }

    #[test]
    fn multi_term_kinds() {
        assert_eq!(shown("Matr*", &["t"]), "t:matr*");
        assert_eq!(shown("m?tr*x", &["t"]), "t:m?tr*x");
        assert_eq!(shown("*trix", &["t"]), "t:*trix");
        assert_eq!(shown("matrx~", &["t"]), "t:matrx~2");
        assert_eq!(shown("matrx~1", &["t"]), "t:matrx~1");
        assert_eq!(shown("matrix~0.8", &["t"]), "t:matrix~1");
        assert_eq!(shown("[a TO m}", &["t"]), "t:[a TO m}");
        assert_eq!(shown("{* TO \"M\"]", &["t"]), "t:{* TO m]");
        assert_eq!(shown("/ma.*x/", &["t"]), "t:/^(?:ma.*x)$/");
        assert!(p("matrix~1.5", &["t"])
            .unwrap_err()
            .message
            .contains("Fractional"));
    }

    #[test]
    fn syntax_errors_say_where() {
        for (q, col) in [
            ("foo AND", 8),
            ("(foo", 5),
            ("foo:", 5),
            ("\"open", 6),
            ("a^", 3),
        ] {
            let e = p(q, &["t"]).unwrap_err();
            assert!(
                e.to_string().starts_with(&format!("Cannot parse '{q}': ")),
                "{e}"
            );
            assert!(e.message.contains(&format!("column {col}")), "{q}: {e}");
        }
        assert!(p("", &["t"]).is_err());
        let deep = format!("{}a{}", "(".repeat(500), ")".repeat(500));
        assert!(p(&deep, &["t"]).unwrap_err().message.contains("deeper"));
        let wide = "a ".repeat(600);
        assert!(p(&wide, &["t"]).is_ok());
        let e = p(&wide, &["t", "u"]).unwrap_err();
        assert!(e.message.contains("more than 1024 clauses"), "{e}");
    }

    #[test]
    fn escape_makes_any_text_a_literal_query() {
        let text = "C++ (2nd ed.): \"intro\" ~ AND/OR";
        let q = shown(&escape(text), &["t"]);
        assert_eq!(q, "t:c t:2nd t:ed t:intro ((t:and) (t:or))");
    }
}
