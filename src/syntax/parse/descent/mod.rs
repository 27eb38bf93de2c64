//! A hand-written recursive-descent parser for the common part of the grammar: the fast path of
//! [`super::parse`].
//!
//! It reads the bytes directly and builds the typed AST in one pass, without pest's pair tree.
//! Every function transcribes one rule of `grammar/cypher.pest` with pest's semantics — ordered
//! choice, the implicit whitespace skip at each `~` (so that a rule ending in an unmatched
//! optional part ends after the whitespace, as pest's span does), backtracking on failure — and
//! applies the AST builder's transformations (operator precedence as pest's Pratt parser
//! applies it, comparison chains, negative literals). The AST, spans included, is the one the
//! pest path builds; `tests/parse_fast_path.rs` checks that on every corpus.
//!
//! What it does not cover it gives up on (a *bail*): the Cypher 25 clauses, schema commands,
//! `IN TRANSACTIONS`, hints, quantified path patterns, dynamic labels, `IS` type tests, unusual number
//! and identifier forms, and every input the builder would reject. The caller then parses with
//! pest, which also reports every error, so the fast path never decides that a query is invalid
//! and never changes an error. A plain failure (`None` without a bail) is only returned where
//! the pest rule fails at the same point; at the top, any `None` falls back to pest.

use super::*;

// The rules by topic, each file an `impl Descent` of its own.
mod exprs;
mod patterns;

/// Parses `src` (already prechecked) if it lies within the covered part of the grammar.
pub(super) fn parse(src: &str) -> Option<Statement> {
    let mut p = Descent {
        src,
        b: src.as_bytes(),
        pos: 0,
        bailed: false,
        nesting: 0,
        work: 0,
        budget: 64 + 16 * src.len(),
        postfix_shape: Shape::default(),
    };
    let r = p.statement_only();
    if p.bailed {
        None
    } else {
        r
    }
}

/// The postfix operators of the last `postfix_expr`, for SET/REMOVE targets.
#[derive(Clone, Copy, Default)]
struct Shape {
    count: usize,
    props_only: bool,
    one_index: bool,
}

struct Descent<'s> {
    src: &'s str,
    b: &'s [u8],
    pos: usize,
    /// Set when the input leaves the covered grammar: the result is then discarded.
    bailed: bool,
    /// Expressions open on the current path (the builder's nesting limit).
    nesting: usize,
    /// Steps taken, against a budget linear in the input: backtracking never runs away.
    work: usize,
    budget: usize,
    postfix_shape: Shape,
}

fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// One element of an expression's flat operator sequence, as pest's Pratt parser sees it.
enum Item {
    Prefix(UnaryOp, usize),
    Operand(Operand),
    Infix(BinaryOp),
    /// `IS [NOT] NULL`, with the end of the operator.
    IsNull(bool, usize),
}

impl Item {
    /// Binding power, as `PRATT` in `mod.rs` assigns it (steps of 10 from 20).
    fn power(&self) -> u32 {
        match self {
            Item::Prefix(UnaryOp::Not, _) => 50,
            Item::Prefix(_, _) => 110,
            Item::Operand(_) => 0,
            Item::IsNull(..) => 70,
            Item::Infix(op) => match op {
                BinaryOp::Or => 20,
                BinaryOp::Xor => 30,
                BinaryOp::And => 40,
                BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Gt
                | BinaryOp::Le
                | BinaryOp::Ge => 60,
                BinaryOp::RegexMatch
                | BinaryOp::StartsWith
                | BinaryOp::EndsWith
                | BinaryOp::Contains
                | BinaryOp::In => 70,
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Concat => 80,
                BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => 90,
                BinaryOp::Pow => 100,
            },
        }
    }
}

/// What one postfix operator of a `postfix_expr` parsed to.
enum Postfix {
    Prop(Ident),
    Index(Expr),
    Slice(Option<Expr>, Option<Expr>),
    Labels(LabelExpr),
}

impl<'s> Descent<'s> {
    // ---- primitives ----

    fn bail<T>(&mut self) -> Option<T> {
        self.bailed = true;
        None
    }

    fn peek(&self) -> u8 {
        self.b.get(self.pos).copied().unwrap_or(0)
    }

    fn peek_at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    fn step(&mut self) -> bool {
        self.work += 1;
        if self.work > self.budget {
            self.bailed = true;
        }
        !self.bailed
    }

    /// pest's implicit skip: whitespace and comments.
    fn skip(&mut self) {
        loop {
            match self.peek() {
                b' ' | b'\t'..=b'\r' => self.pos += 1,
                b'/' => match self.peek_at(self.pos + 1) {
                    b'/' => {
                        self.pos += 2;
                        while self.pos < self.b.len()
                            && self.b[self.pos] != b'\n'
                            && self.b[self.pos] != b'\r'
                        {
                            self.pos += 1;
                        }
                    }
                    b'*' => {
                        let from = self.pos + 2;
                        match self
                            .b
                            .get(from..)
                            .and_then(|rest| rest.windows(2).position(|w| w == b"*/"))
                        {
                            Some(i) => self.pos = from + i + 2,
                            None => {
                                self.bailed = true;
                                return;
                            }
                        }
                    }
                    _ => return,
                },
                c if c >= 0x80 => {
                    // Unicode whitespace is rare: leave it to pest.
                    if self.src[self.pos..]
                        .chars()
                        .next()
                        .is_some_and(char::is_whitespace)
                    {
                        self.bailed = true;
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    /// Whether the keyword `k` (lower case) stands at the position as a whole word. A
    /// non-ASCII character after it is left to pest.
    fn at_kw(&mut self, k: &[u8]) -> bool {
        let e = self.pos + k.len();
        if e > self.b.len() || !self.b[self.pos..e].eq_ignore_ascii_case(k) {
            return false;
        }
        match self.b.get(e) {
            Some(&c) if ident_byte(c) => false,
            Some(&c) if c >= 0x80 => {
                self.bailed = true;
                false
            }
            _ => true,
        }
    }

    fn kw(&mut self, k: &[u8]) -> bool {
        if self.at_kw(k) {
            self.pos += k.len();
            true
        } else {
            false
        }
    }

    /// Whether the keyword `k` follows the whitespace at the position (nothing consumed).
    fn next_kw(&mut self, k: &[u8]) -> bool {
        let save = self.pos;
        self.skip();
        let r = self.at_kw(k);
        self.pos = save;
        r
    }

    /// `"c" ~ …`: the character, then the skip before what follows; `None` without it.
    fn eat(&mut self, c: u8) -> Option<()> {
        if self.lit(c) {
            self.skip();
            Some(())
        } else {
            None
        }
    }

    /// `KEYWORD ~ …`: the keyword, then the skip before what follows; `None` without it.
    fn eat_kw(&mut self, k: &[u8]) -> Option<()> {
        if self.kw(k) {
            self.skip();
            Some(())
        } else {
            None
        }
    }

    fn lit(&mut self, c: u8) -> bool {
        if self.peek() == c {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// `name_text`: a plain or backquoted name (`variable`, `alias_name`, `symbolic_name`).
    fn ident(&mut self) -> Option<Ident> {
        let start = self.pos;
        let c = self.peek();
        if c.is_ascii_alphabetic() || c == b'_' {
            let mut i = start + 1;
            while i < self.b.len() && ident_byte(self.b[i]) {
                i += 1;
            }
            if self.peek_at(i) >= 0x80 {
                return self.bail();
            }
            self.pos = i;
            return Some(Ident {
                name: self.src[start..i].to_string(),
                span: Span::new(start, i),
            });
        }
        if c == b'`' {
            let mut i = start + 1;
            loop {
                match self.b.get(i) {
                    None => return self.bail(),
                    Some(b'`') if self.peek_at(i + 1) == b'`' => i += 2,
                    Some(b'`') => break,
                    Some(_) => i += 1,
                }
            }
            if i == start + 1 {
                return self.bail();
            }
            self.pos = i + 1;
            let inner = &self.src[start + 1..i];
            return Some(Ident {
                name: inner.replace("``", "`"),
                span: Span::new(start, i + 1),
            });
        }
        if c >= 0x80 {
            return self.bail();
        }
        None
    }

    /// `x?`: `Some(None)` (nothing consumed) where `x` fails, `None` on a bail.
    fn opt<T>(&mut self, x: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        let save = self.pos;
        match x(self) {
            Some(v) => Some(Some(v)),
            None if self.bailed => None,
            None => {
                self.pos = save;
                Some(None)
            }
        }
    }

    /// `(x ~ ("," ~ x)*)?`: the items of a bracketed list, none where the first fails.
    fn opt_list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        match self.opt(&mut item)? {
            Some(first) => self.sep_list(first, b',', item),
            None => Some(Vec::new()),
        }
    }

    /// `(AS ~ alias_name)?`
    fn opt_alias(&mut self) -> Option<Option<Ident>> {
        self.opt(|p| {
            p.eat_kw(b"as")?;
            p.ident()
        })
    }

    /// `x ~ (sep ~ x)*` (the first `x` parsed): the separator loop of comma lists, dotted names
    /// and label conjunctions.
    fn sep_list<T>(
        &mut self,
        first: T,
        sep: u8,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        let mut out = vec![first];
        self.skip();
        let mut first_iter = true;
        loop {
            let save = self.pos;
            if !first_iter {
                self.skip();
            }
            if !self.lit(sep) {
                self.pos = save;
                break;
            }
            self.skip();
            match item(self) {
                Some(x) => out.push(x),
                None if self.bailed => return None,
                None => {
                    self.pos = save;
                    break;
                }
            }
            first_iter = false;
        }
        Some(out)
    }

    // ---- statements and clauses ----

    /// `statement_only = { SOI ~ statement ~ ";"? ~ EOI }`
    fn statement_only(&mut self) -> Option<Statement> {
        self.skip();
        let st = self.statement()?;
        self.skip();
        self.lit(b';');
        self.skip();
        if self.pos != self.b.len() {
            return self.bail();
        }
        Some(st)
    }

    fn statement(&mut self) -> Option<Statement> {
        let start = self.pos;
        let mut prefix = None;
        let mut first = true;
        loop {
            let save = self.pos;
            if !first {
                self.skip();
            }
            if self.kw(b"explain") {
                prefix = Some(QueryPrefix::Explain.with(prefix));
            } else if self.kw(b"profile") {
                prefix = Some(QueryPrefix::Profile.with(prefix));
            } else if self.at_kw(b"cypher") {
                return self.bail();
            } else {
                self.pos = save;
                break;
            }
            first = false;
        }
        self.skip();
        if self.at_kw(b"use") || self.at_kw(b"drop") {
            return self.bail();
        }
        if self.at_kw(b"create") {
            let save = self.pos;
            self.pos += 6;
            self.skip();
            let schema = [
                &b"or"[..],
                b"range",
                b"text",
                b"point",
                b"vector",
                b"index",
                b"lookup",
                b"fulltext",
                b"constraint",
            ]
            .iter()
            .any(|k| self.at_kw(k));
            self.pos = save;
            if schema {
                return self.bail();
            }
        }
        let query = self.query()?;
        Some(Statement {
            cypher: None,
            prefix,
            query,
            span: Span::new(start, self.pos),
        })
    }

    /// `query = { query_part ~ (next_kw ~ query_part)* }`, without NEXT and WHEN.
    fn query(&mut self) -> Option<Query> {
        let start = self.pos;
        if self.at_kw(b"when") {
            return self.bail();
        }
        let first = self.single_query()?;
        let mut unions = Vec::new();
        loop {
            let save = self.pos;
            self.skip();
            let ustart = self.pos;
            if !self.kw(b"union") {
                self.pos = save;
                break;
            }
            self.skip();
            let all = if self.kw(b"all") {
                true
            } else {
                self.kw(b"distinct");
                false
            };
            let uspan = Span::new(ustart, self.pos);
            self.skip();
            match self.single_query() {
                Some(query) => unions.push(UnionPart {
                    all,
                    span: uspan.to(query.span),
                    query,
                }),
                None if self.bailed => return None,
                None => {
                    self.pos = save;
                    break;
                }
            }
        }
        self.skip();
        if self.at_kw(b"next") {
            return self.bail();
        }
        Some(Query {
            first,
            unions,
            span: Span::new(start, self.pos),
        })
    }

    /// `single_query = { braced_query | clause+ }`, with the builder's checks of procedure
    /// calls in a larger query.
    fn single_query(&mut self) -> Option<SingleQuery> {
        let start = self.pos;
        if self.peek() == b'{' {
            return self.bail();
        }
        // `clause+` is pest's `clause ~ clause*`: the skip after the first clause stays.
        let mut clauses = vec![self.clause()?];
        self.skip();
        loop {
            let save = self.pos;
            if clauses.len() > 1 {
                self.skip();
            }
            match self.clause() {
                Some(c) => clauses.push(c),
                None if self.bailed => return None,
                None => {
                    self.pos = save;
                    break;
                }
            }
        }
        if clauses.len() > 1
            && clauses.iter().any(|c| {
                matches!(c, Clause::CallProcedure(call)
                    if call.args.is_none() || call.yield_.as_ref().is_some_and(|y| y.star))
            })
        {
            return self.bail();
        }
        Some(SingleQuery {
            clauses,
            span: Span::new(start, self.pos),
        })
    }

    /// One clause, by its first word; `None` where no clause of the grammar starts.
    fn clause(&mut self) -> Option<Clause> {
        if !self.step() {
            return None;
        }
        let start = self.pos;
        let c = self.peek().to_ascii_lowercase();
        let r = match c {
            b'm' if self.at_kw(b"match") => Clause::Match(self.match_clause()?),
            b'm' if self.at_kw(b"merge") => self.merge_clause()?,
            b'o' if self.at_kw(b"optional") => {
                if self.next_kw_after(b"optional", b"match") {
                    Clause::Match(self.match_clause()?)
                } else if self.next_kw_after(b"optional", b"call") {
                    // OPTIONAL CALL: a subquery here, a procedure on the pest path.
                    self.pos += 8;
                    self.skip();
                    self.call_subquery(start, true)?
                } else {
                    return self.bail();
                }
            }
            b'w' if self.kw(b"with") => {
                self.skip();
                let projection = self.projection()?;
                self.skip();
                let where_ = self.opt_where()?;
                Clause::With(With {
                    projection,
                    where_,
                    span: Span::new(start, self.pos),
                })
            }
            b'r' if self.kw(b"return") => {
                self.skip();
                let projection = self.projection()?;
                Clause::Return(Return {
                    projection,
                    span: Span::new(start, self.pos),
                })
            }
            b'r' if self.at_kw(b"remove") => self.remove_clause()?,
            b'u' if self.kw(b"unwind") => {
                self.skip();
                let expr = self.expr()?;
                self.skip();
                self.eat_kw(b"as")?;
                let variable = self.ident()?;
                Clause::Unwind(Unwind {
                    expr,
                    variable,
                    for_in: false,
                    span: Span::new(start, self.pos),
                })
            }
            b'c' if self.at_kw(b"create") => {
                self.pos += 6;
                self.skip();
                let pattern = self.pattern()?;
                Clause::Create(Create {
                    pattern,
                    insert: false,
                    span: Span::new(start, self.pos),
                })
            }
            b'c' if self.at_kw(b"call") => self.call_procedure()?,
            b's' if self.at_kw(b"set") => {
                self.pos += 3;
                self.skip();
                let first = self.set_item()?;
                let items = self.sep_list(first, b',', Self::set_item)?;
                Clause::Set(SetClause {
                    items,
                    span: Span::new(start, self.pos),
                })
            }
            b'd' | b'n'
                if self.at_kw(b"detach") || self.at_kw(b"nodetach") || self.at_kw(b"delete") =>
            {
                let detach = self.kw(b"detach");
                if !detach && self.kw(b"nodetach") {
                    // (NODETACH is the default spelled out.)
                }
                self.skip();
                self.eat_kw(b"delete")?;
                let first = self.expr()?;
                let exprs = self.sep_list(first, b',', Self::expr)?;
                Clause::Delete(Delete {
                    detach,
                    exprs,
                    span: Span::new(start, self.pos),
                })
            }
            _ => {
                // The other clauses (LET, FILTER, FOR, INSERT, FOREACH, LOAD CSV, USE, FINISH,
                // SHOW) are the pest path's; any other word starts no clause.
                const OTHERS: [&[u8]; 9] = [
                    b"let", b"filter", b"for", b"insert", b"foreach", b"load", b"use", b"finish",
                    b"show",
                ];
                if OTHERS.iter().any(|k| self.at_kw(k)) {
                    return self.bail();
                }
                return None;
            }
        };
        Some(r)
    }

    /// Whether `second` follows the keyword `first` at the position.
    fn next_kw_after(&mut self, first: &[u8], second: &[u8]) -> bool {
        let save = self.pos;
        self.pos += first.len();
        let r = self.next_kw(second);
        self.pos = save;
        r
    }

    /// `match_clause = { OPTIONAL? ~ MATCH ~ match_mode? ~ pattern ~ hint* ~ where_clause? }`
    fn match_clause(&mut self) -> Option<Match> {
        let start = self.pos;
        let optional = self.kw(b"optional");
        self.skip();
        self.eat_kw(b"match")?;
        if self.at_kw(b"repeatable") || self.at_kw(b"different") {
            return self.bail();
        }
        let pattern = self.pattern()?;
        self.skip();
        if self.at_kw(b"using") {
            return self.bail();
        }
        if self.at_kw(b"search") {
            return self.bail();
        }
        let where_ = self.opt_where()?;
        self.skip();
        if self.at_kw(b"search") {
            return self.bail();
        }
        Some(Match {
            optional,
            mode: None,
            pattern,
            hints: Vec::new(),
            where_,
            search: None,
            where_after_search: false,
            span: Span::new(start, self.pos),
        })
    }

    /// `where_clause?` (after its skip): `Some(None)` when absent, `None` on a bail.
    fn opt_where(&mut self) -> Option<Option<Expr>> {
        if !self.at_kw(b"where") {
            return if self.bailed { None } else { Some(None) };
        }
        let save = self.pos;
        self.pos += 5;
        self.skip();
        match self.expr() {
            Some(e) => Some(Some(e)),
            None if self.bailed => None,
            None => {
                self.pos = save;
                Some(None)
            }
        }
    }

    /// `projection_body = { (DISTINCT | projection_all)? ~ projection_rest | projection_rest }`
    fn projection(&mut self) -> Option<Projection> {
        let start = self.pos;
        // The first alternative with DISTINCT or ALL (`projection_all`); where what follows
        // is not a projection, the second reads the word as an expression (`RETURN all(x IN
        // l WHERE …)`, `RETURN distinct`).
        let (distinct, all) = if self.at_kw(b"distinct") {
            (true, false)
        } else if self.at_kw(b"all") {
            (false, true)
        } else {
            (false, false)
        };
        let mut pr = if distinct || all {
            let save = self.pos;
            self.pos += if distinct { 8 } else { 3 };
            self.skip();
            match self.projection_rest() {
                Some(mut pr) => {
                    pr.distinct = distinct;
                    pr.all = all;
                    pr
                }
                None if self.bailed => return None,
                None => {
                    self.pos = save;
                    self.projection_rest()?
                }
            }
        } else {
            self.projection_rest()?
        };
        pr.span = Span::new(start, self.pos);
        Some(pr)
    }

    /// `projection_items ~ order_by? ~ skip? ~ limit?`
    fn projection_rest(&mut self) -> Option<Projection> {
        let mut star = false;
        let mut items = Vec::new();
        // projection_items = { (projection_star | projection_item) ~ ("," ~ projection_item)* }
        if self.lit(b'*') {
            star = true;
            self.skip();
            let mut first = true;
            loop {
                let save = self.pos;
                if !first {
                    self.skip();
                }
                if !self.lit(b',') {
                    self.pos = save;
                    break;
                }
                self.skip();
                match self.projection_item() {
                    Some(x) => items.push(x),
                    None if self.bailed => return None,
                    None => {
                        self.pos = save;
                        break;
                    }
                }
                first = false;
            }
        } else {
            let first = self.projection_item()?;
            items = self.sep_list(first, b',', Self::projection_item)?;
        }
        self.skip();
        if self.at_kw(b"group") {
            // Cypher 25's GROUP BY: the grammar's parser reads it.
            return self.bail();
        }
        let mut order_by = Vec::new();
        if self.at_kw(b"order") {
            let save = self.pos;
            match self.order_by() {
                Some(o) => order_by = o,
                None if self.bailed => return None,
                None => self.pos = save,
            }
        }
        self.skip();
        let skip = if self.at_kw(b"skip") || self.at_kw(b"offset") {
            self.keyword_expr()?
        } else {
            None
        };
        self.skip();
        let limit = if self.at_kw(b"limit") {
            self.keyword_expr()?
        } else {
            None
        };
        if self.bailed {
            return None;
        }
        Some(Projection {
            distinct: false,
            all: false,
            star,
            items,
            group_by: None,
            order_by,
            skip,
            limit,
            span: Span::default(),
        })
    }

    /// `KEYWORD ~ expression` as an optional part: `Some(None)` when it does not match.
    fn keyword_expr(&mut self) -> Option<Option<Expr>> {
        let save = self.pos;
        while self.pos < self.b.len() && ident_byte(self.b[self.pos]) {
            self.pos += 1;
        }
        self.skip();
        match self.expr() {
            Some(e) => Some(Some(e)),
            None if self.bailed => None,
            None => {
                self.pos = save;
                Some(None)
            }
        }
    }

    /// `projection_item = { expression ~ (AS ~ alias_name)? }`
    fn projection_item(&mut self) -> Option<ProjectionItem> {
        let start = self.pos;
        let expr = self.expr()?;
        self.skip();
        let alias = self.opt_alias()?;
        Some(ProjectionItem {
            expr,
            alias,
            span: Span::new(start, self.pos),
        })
    }

    /// `order_by = { ORDER ~ BY ~ sort_item ~ ("," ~ sort_item)* }`
    fn order_by(&mut self) -> Option<Vec<SortItem>> {
        self.kw(b"order");
        self.skip();
        self.eat_kw(b"by")?;
        let first = self.sort_item()?;
        self.sep_list(first, b',', Self::sort_item)
    }

    /// `sort_item = { expression ~ sort_dir? }`
    fn sort_item(&mut self) -> Option<SortItem> {
        let start = self.pos;
        let expr = self.expr()?;
        self.skip();
        let (explicit, descending) = if self.kw(b"ascending") || self.kw(b"asc") {
            (true, false)
        } else if self.kw(b"descending") || self.kw(b"desc") {
            (true, true)
        } else {
            (false, false)
        };
        Some(SortItem {
            expr,
            descending,
            explicit,
            span: Span::new(start, self.pos),
        })
    }

    /// `merge_clause = { MERGE ~ pattern_part ~ merge_action* }`
    fn merge_clause(&mut self) -> Option<Clause> {
        let start = self.pos;
        self.pos += 5;
        self.skip();
        let pattern = self.pattern_part()?;
        self.skip();
        let mut actions = Vec::new();
        loop {
            let save = self.pos;
            if !actions.is_empty() {
                self.skip();
            }
            match self.merge_action() {
                Some(a) => actions.push(a),
                None if self.bailed => return None,
                None => {
                    self.pos = save;
                    break;
                }
            }
        }
        Some(Clause::Merge(Merge {
            pattern,
            actions,
            span: Span::new(start, self.pos),
        }))
    }

    /// `merge_action = { ON ~ (MATCH | CREATE) ~ SET ~ set_item ~ ("," ~ set_item)* }`
    fn merge_action(&mut self) -> Option<MergeAction> {
        let start = self.pos;
        self.eat_kw(b"on")?;
        let on_create = if self.kw(b"match") {
            false
        } else if self.kw(b"create") {
            true
        } else {
            return None;
        };
        self.skip();
        self.eat_kw(b"set")?;
        let first = self.set_item()?;
        let items = self.sep_list(first, b',', Self::set_item)?;
        Some(MergeAction {
            on_create,
            items,
            span: Span::new(start, self.pos),
        })
    }

    /// `set_item = { set_labels | set_property | set_variable }`
    fn set_item(&mut self) -> Option<SetItem> {
        let start = self.pos;
        if let Some((variable, labels)) = self.set_labels()? {
            return Some(SetItem::Labels {
                variable,
                labels,
                span: Span::new(start, self.pos),
            });
        }
        self.pos = start;
        // set_property = { postfix_expr ~ "=" ~ expression }
        if let Some(target) = self.postfix_expr() {
            let shape = self.postfix_shape;
            self.skip();
            if self.lit(b'=') {
                self.skip();
                if let Some(value) = self.expr() {
                    if !(shape.count == 0 || shape.props_only || shape.one_index) {
                        return self.bail();
                    }
                    let span = Span::new(start, self.pos);
                    return match target.expr.kind {
                        ExprKind::Variable(variable) => Some(SetItem::Variable {
                            variable,
                            value,
                            merge: false,
                            span,
                        }),
                        ExprKind::Property { .. } | ExprKind::Index { .. } => {
                            Some(SetItem::Property {
                                target: target.expr,
                                value,
                                span,
                            })
                        }
                        _ => self.bail(),
                    };
                }
            }
        }
        if self.bailed {
            return None;
        }
        self.pos = start;
        // set_variable = { variable ~ set_op ~ expression }
        let variable = self.ident()?;
        self.skip();
        let merge = if self.peek() == b'+' && self.peek_at(self.pos + 1) == b'=' {
            self.pos += 2;
            true
        } else if self.lit(b'=') {
            false
        } else {
            return None;
        };
        self.skip();
        let value = self.expr()?;
        Some(SetItem::Variable {
            variable,
            value,
            merge,
            span: Span::new(start, self.pos),
        })
    }

    /// `set_labels = { variable ~ node_labels }` with the builder's check that the labels are
    /// a plain list of names. `Some(None)`: not set_labels (position unspecified).
    fn set_labels(&mut self) -> Option<Option<(Ident, LabelExpr)>> {
        let Some(variable) = self.ident() else {
            return if self.bailed { None } else { Some(None) };
        };
        self.skip();
        if self.at_kw(b"is") {
            return self.bail();
        }
        if self.peek() != b':' {
            return if self.bailed { None } else { Some(None) };
        }
        let from = self.pos;
        let Some((mut parts, span)) = self.label_colons(false) else {
            return if self.bailed { None } else { Some(None) };
        };
        // SET and REMOVE take a plain list of names (`:A:B`); the builder checks that by the
        // text, so that a comment after a name counts as something that follows it.
        if !parts.iter().all(|p| matches!(p, LabelExpr::Name(_)))
            || self.src[from..self.pos].contains('/')
        {
            return self.bail();
        }
        let labels = if parts.len() == 1 {
            parts.pop()?
        } else {
            LabelExpr::And(parts, span)
        };
        Some(Some((variable, labels)))
    }

    /// `remove_clause = { REMOVE ~ remove_item ~ ("," ~ remove_item)* }`
    fn remove_clause(&mut self) -> Option<Clause> {
        let start = self.pos;
        self.pos += 6;
        self.skip();
        let first = self.remove_item()?;
        let items = self.sep_list(first, b',', Self::remove_item)?;
        Some(Clause::Remove(Remove {
            items,
            span: Span::new(start, self.pos),
        }))
    }

    /// `remove_item = { set_labels | postfix_expr }`
    fn remove_item(&mut self) -> Option<RemoveItem> {
        let start = self.pos;
        if let Some((variable, labels)) = self.set_labels()? {
            return Some(RemoveItem::Labels {
                variable,
                labels,
                span: Span::new(start, self.pos),
            });
        }
        self.pos = start;
        let target = self.postfix_expr()?;
        let shape = self.postfix_shape;
        if !(shape.count == 0 || shape.props_only || shape.one_index) {
            return self.bail();
        }
        match target.expr.kind {
            ExprKind::Property { .. } | ExprKind::Index { .. } => Some(RemoveItem::Property {
                target: target.expr,
                span: Span::new(start, self.pos),
            }),
            _ => self.bail(),
        }
    }

    /// `call_procedure = { OPTIONAL? ~ CALL ~ qualified_name ~ proc_args? ~ yield_clause? }`
    /// — or, from `CALL (` or `CALL {`, a subquery.
    fn call_procedure(&mut self) -> Option<Clause> {
        let start = self.pos;
        self.pos += 4;
        self.skip();
        if matches!(self.peek(), b'(' | b'{') {
            self.pos = start;
            return self.call_subquery(start, false);
        }
        // qualified_name = { symbolic_name ~ ("." ~ symbolic_name)* }
        let nstart = self.pos;
        let first = self.ident()?;
        let parts = self.sep_list(first, b'.', Self::ident)?;
        let name = QualifiedName {
            parts,
            span: Span::new(nstart, self.pos),
        };
        self.skip();
        let mut args = None;
        if self.peek() == b'(' {
            let save = self.pos;
            match self.paren_args(false) {
                Some((_, v)) => args = Some(v),
                None if self.bailed => return None,
                None => self.pos = save,
            }
        }
        self.skip();
        let mut yield_ = None;
        if self.at_kw(b"yield") {
            let save = self.pos;
            match self.yield_clause() {
                Some(y) => yield_ = Some(y),
                None if self.bailed => return None,
                None => self.pos = save,
            }
        }
        if self.bailed {
            return None;
        }
        Some(Clause::CallProcedure(CallProcedure {
            optional: false,
            name,
            args,
            yield_,
            span: Span::new(start, self.pos),
        }))
    }

    /// `call_subquery = { OPTIONAL? ~ CALL ~ subquery_scope? ~ "{" ~ query ~ "}" ~
    /// in_transactions? }` from `CALL` (the clause starts at `start`); `IN TRANSACTIONS` is the
    /// pest path's. Any failure is a bail: pest would try a procedure call next.
    fn call_subquery(&mut self, start: usize, optional: bool) -> Option<Clause> {
        if !self.kw(b"call") {
            return self.bail();
        }
        self.skip();
        // subquery_scope = { "(" ~ (scope_all | (variable ~ ("," ~ variable)*))? ~ ")" }
        let mut scope = None;
        if self.lit(b'(') {
            self.skip();
            scope = Some(if self.lit(b'*') {
                SubqueryScope::All
            } else {
                SubqueryScope::Variables(self.opt_list(Self::ident)?)
            });
            self.skip();
            if !self.lit(b')') {
                return self.bail();
            }
            self.skip();
        }
        if !self.lit(b'{') {
            return self.bail();
        }
        self.skip();
        let Some(query) = self.query() else {
            return self.bail();
        };
        self.skip();
        if !self.lit(b'}') {
            return self.bail();
        }
        self.skip();
        if self.at_kw(b"in") {
            return self.bail();
        }
        if self.bailed {
            return None;
        }
        Some(Clause::CallSubquery(CallSubquery {
            optional,
            scope,
            query: Box::new(query),
            in_transactions: None,
            span: Span::new(start, self.pos),
        }))
    }

    /// `yield_clause = { YIELD ~ (yield_star | yield_item ~ ("," ~ yield_item)*) ~ where_clause? }`
    fn yield_clause(&mut self) -> Option<YieldSpec> {
        let start = self.pos;
        self.pos += 5;
        self.skip();
        let mut star = false;
        let mut items = Vec::new();
        if self.lit(b'*') {
            star = true;
        } else {
            let first = self.yield_item()?;
            items = self.sep_list(first, b',', Self::yield_item)?;
        }
        self.skip();
        let where_ = self.opt_where()?;
        Some(YieldSpec {
            star,
            items,
            where_,
            span: Span::new(start, self.pos),
        })
    }

    /// `yield_item = { symbolic_name ~ (AS ~ alias_name)? }`
    fn yield_item(&mut self) -> Option<YieldItem> {
        let start = self.pos;
        let field = self.ident()?;
        self.skip();
        let alias = self.opt_alias()?;
        Some(YieldItem {
            field,
            alias,
            span: Span::new(start, self.pos),
        })
    }
}
