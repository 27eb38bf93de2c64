//! The fast path's expression rules: the flat operator sequence, precedence as pest's Pratt
//! parser applies it, postfix operators and atoms.

use super::*;
use crate::syntax::parse::exprs::{binary, is_predicate, is_prefixed, unary, unescape};

impl Descent<'_> {
    pub(super) fn expr(&mut self) -> Option<Expr> {
        Some(self.expression()?.expr)
    }

    /// `expression = { prefix_op* ~ postfix_expr ~ postfix_low* ~ (infix_op ~ prefix_op* ~
    /// postfix_expr ~ postfix_low*)* }`, then precedence.
    pub(super) fn expression(&mut self) -> Option<Operand> {
        if !self.step() {
            return None;
        }
        if self.nesting + 1 > MAX_NESTING {
            return self.bail();
        }
        self.nesting += 1;
        let r = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expression_inner());
        self.nesting -= 1;
        r
    }

    pub(super) fn expression_inner(&mut self) -> Option<Operand> {
        let mut items = Vec::new();
        self.prefix_ops(&mut items)?;
        self.skip();
        let o = self.postfix_expr()?;
        items.push(Item::Operand(o));
        self.skip();
        self.postfix_lows(&mut items)?;
        self.skip();
        let mut first = true;
        loop {
            let save = self.pos;
            let len = items.len();
            if !first {
                self.skip();
            }
            if !self.group(&mut items) {
                if self.bailed {
                    return None;
                }
                self.pos = save;
                items.truncate(len);
                break;
            }
            first = false;
        }
        if items.len() == 1 {
            if let Some(Item::Operand(o)) = items.pop() {
                return self.check_height(o);
            }
            return self.bail();
        }
        let mut it = items.into_iter().peekable();
        self.pratt(&mut it, 0)
    }

    /// `infix_op ~ prefix_op* ~ postfix_expr ~ postfix_low*`
    pub(super) fn group(&mut self, items: &mut Vec<Item>) -> bool {
        let Some(op) = self.infix_op() else {
            return false;
        };
        items.push(Item::Infix(op));
        self.skip();
        if self.prefix_ops(items).is_none() {
            return false;
        }
        self.skip();
        let Some(o) = self.postfix_expr() else {
            return false;
        };
        items.push(Item::Operand(o));
        self.skip();
        self.postfix_lows(items).is_some()
    }

    /// `prefix_op*`, with the builder's bound on runs of them. `None` only on a bail.
    pub(super) fn prefix_ops(&mut self, items: &mut Vec<Item>) -> Option<()> {
        let mut run = 0usize;
        loop {
            let save = self.pos;
            if run > 0 {
                self.skip();
            }
            let at = self.pos;
            let op = match self.peek() {
                b'-' => {
                    self.pos += 1;
                    UnaryOp::Neg
                }
                b'+' => {
                    self.pos += 1;
                    UnaryOp::Plus
                }
                b'n' | b'N' if self.kw(b"not") => UnaryOp::Not,
                _ => {
                    self.pos = save;
                    break;
                }
            };
            run += 1;
            if run > MAX_CHAIN {
                return self.bail();
            }
            items.push(Item::Prefix(op, at));
        }
        if self.bailed {
            None
        } else {
            Some(())
        }
    }

    /// `postfix_low*`: `IS [NOT] NULL` (the other `IS` tests and `::` are the pest path's).
    /// `None` only on a bail.
    pub(super) fn postfix_lows(&mut self, items: &mut Vec<Item>) -> Option<()> {
        let mut first = true;
        loop {
            let save = self.pos;
            if !first {
                self.skip();
            }
            match self.peek() {
                b':' => return self.bail(),
                b'i' | b'I' if self.at_kw(b"is") => {
                    self.pos += 2;
                    self.skip();
                    let negated = self.kw(b"not");
                    if negated {
                        self.skip();
                    }
                    if !self.kw(b"null") {
                        return self.bail();
                    }
                    items.push(Item::IsNull(negated, self.pos));
                }
                _ => {
                    self.pos = save;
                    break;
                }
            }
            first = false;
        }
        if self.bailed {
            None
        } else {
            Some(())
        }
    }

    pub(super) fn infix_op(&mut self) -> Option<BinaryOp> {
        let next = self.peek_at(self.pos + 1);
        let (op, len) = match self.peek() {
            b'=' if next == b'~' => (BinaryOp::RegexMatch, 2),
            b'<' if next == b'>' => (BinaryOp::Ne, 2),
            b'!' if next == b'=' => (BinaryOp::Ne, 2),
            b'<' if next == b'=' => (BinaryOp::Le, 2),
            b'>' if next == b'=' => (BinaryOp::Ge, 2),
            b'=' => (BinaryOp::Eq, 1),
            b'<' => (BinaryOp::Lt, 1),
            b'>' => (BinaryOp::Gt, 1),
            b'|' if next == b'|' => (BinaryOp::Concat, 2),
            b'+' => (BinaryOp::Add, 1),
            b'-' => (BinaryOp::Sub, 1),
            b'*' => (BinaryOp::Mul, 1),
            b'/' => (BinaryOp::Div, 1),
            b'%' => (BinaryOp::Mod, 1),
            b'^' => (BinaryOp::Pow, 1),
            c => {
                return match c.to_ascii_lowercase() {
                    b'o' if self.kw(b"or") => Some(BinaryOp::Or),
                    b'x' if self.kw(b"xor") => Some(BinaryOp::Xor),
                    b'a' if self.kw(b"and") => Some(BinaryOp::And),
                    b's' | b'e' => {
                        let (first, op) = if c.eq_ignore_ascii_case(&b's') {
                            (&b"starts"[..], BinaryOp::StartsWith)
                        } else {
                            (&b"ends"[..], BinaryOp::EndsWith)
                        };
                        let save = self.pos;
                        if self.kw(first) {
                            self.skip();
                            if self.kw(b"with") {
                                return Some(op);
                            }
                        }
                        self.pos = save;
                        None
                    }
                    b'c' if self.kw(b"contains") => Some(BinaryOp::Contains),
                    b'i' if self.kw(b"in") => Some(BinaryOp::In),
                    _ => None,
                };
            }
        };
        self.pos += len;
        Some(op)
    }

    // ---- precedence (pest's Pratt algorithm over the flat sequence) ----

    pub(super) fn pratt(
        &mut self,
        it: &mut std::iter::Peekable<std::vec::IntoIter<Item>>,
        rbp: u32,
    ) -> Option<Operand> {
        let mut lhs = match it.next()? {
            Item::Prefix(op, at) => {
                let power = Item::Prefix(op, at).power();
                let rhs = self.pratt(it, power - 1)?;
                self.prefix(op, at, rhs)?
            }
            Item::Operand(o) => self.check_height(o)?,
            _ => return self.bail(),
        };
        while rbp < it.peek().map_or(0, Item::power) {
            lhs = match it.next()? {
                Item::Infix(op) => {
                    let power = Item::Infix(op).power();
                    let rhs = self.pratt(it, power)?;
                    self.infix(lhs, op, rhs)?
                }
                Item::IsNull(negated, end) => {
                    if !lhs.paren && is_predicate(&lhs.expr) {
                        return self.bail();
                    }
                    let span = Span::new(lhs.expr.span.start, end);
                    self.check_height(Operand {
                        expr: Expr::new(
                            ExprKind::IsNull {
                                expr: Box::new(lhs.expr),
                                negated,
                            },
                            span,
                        ),
                        paren: false,
                        height: lhs.height + 1,
                    })?
                }
                _ => return self.bail(),
            };
        }
        Some(lhs)
    }

    pub(super) fn check_height(&mut self, o: Operand) -> Option<Operand> {
        if o.height > MAX_CHAIN {
            return self.bail();
        }
        Some(o)
    }

    pub(super) fn prefix(&mut self, op: UnaryOp, at: usize, rhs: Operand) -> Option<Operand> {
        if op != UnaryOp::Not && !rhs.paren && is_prefixed(&rhs.expr) {
            return self.bail();
        }
        self.check_height(unary(op, at, rhs))
    }

    pub(super) fn infix(&mut self, lhs: Operand, op: BinaryOp, rhs: Operand) -> Option<Operand> {
        if matches!(
            op,
            BinaryOp::RegexMatch
                | BinaryOp::StartsWith
                | BinaryOp::EndsWith
                | BinaryOp::Contains
                | BinaryOp::In
        ) && !lhs.paren
            && is_predicate(&lhs.expr)
        {
            return self.bail();
        }
        self.check_height(binary(lhs, op, rhs))
    }

    // ---- operands ----

    /// `postfix_expr = { atom ~ postfix* }`; records the postfix shape for SET/REMOVE.
    pub(super) fn postfix_expr(&mut self) -> Option<Operand> {
        let mut cur = self.atom()?;
        let mut shape = Shape {
            count: 0,
            props_only: true,
            one_index: false,
        };
        self.skip();
        let mut first = true;
        loop {
            let save = self.pos;
            if !first {
                self.skip();
            }
            let parsed = match self.peek() {
                b'.' => {
                    // prop_lookup = { "." ~ symbolic_name }
                    self.pos += 1;
                    self.skip();
                    self.ident().map(Postfix::Prop)
                }
                b'[' => self.subscript(),
                b':' => self.label_pred(),
                _ => None,
            };
            let Some(parsed) = parsed else {
                if self.bailed {
                    return None;
                }
                self.pos = save;
                break;
            };
            first = false;
            let span = Span::new(cur.expr.span.start, self.pos);
            let base = Box::new(cur.expr);
            shape.one_index = shape.count == 0 && matches!(parsed, Postfix::Index(_));
            shape.count += 1;
            shape.props_only &= matches!(parsed, Postfix::Prop(_));
            let kind = match parsed {
                Postfix::Prop(key) => ExprKind::Property { expr: base, key },
                Postfix::Index(index) => ExprKind::Index {
                    expr: base,
                    index: Box::new(index),
                },
                Postfix::Slice(from, to) => ExprKind::Slice {
                    expr: base,
                    from: from.map(Box::new),
                    to: to.map(Box::new),
                },
                Postfix::Labels(labels) => ExprKind::HasLabels {
                    expr: base,
                    labels,
                    labeled: false,
                },
            };
            cur = Operand {
                expr: Expr::new(kind, span),
                paren: false,
                height: cur.height + 1,
            };
            if cur.height > MAX_CHAIN {
                return self.bail();
            }
        }
        if shape.count > 1 {
            shape.one_index = false;
        }
        self.postfix_shape = shape;
        Some(cur)
    }

    /// `subscript = { "[" ~ (slice | expression) ~ "]" }`, `slice = { slice_from? ~ ".." ~
    /// slice_to? }`. An expression that `slice_from` would read is the one the second
    /// alternative reads, so it is parsed once.
    pub(super) fn subscript(&mut self) -> Option<Postfix> {
        self.pos += 1;
        self.skip();
        let from = if self.peek() == b'.' && self.peek_at(self.pos + 1) == b'.' {
            None
        } else {
            Some(self.expr()?)
        };
        self.skip();
        let r = if self.peek() == b'.' && self.peek_at(self.pos + 1) == b'.' {
            self.pos += 2;
            self.skip();
            let to = if self.peek() == b']' {
                None
            } else {
                let save = self.pos;
                match self.expr() {
                    Some(e) => Some(e),
                    None if self.bailed => return None,
                    None => {
                        self.pos = save;
                        None
                    }
                }
            };
            Postfix::Slice(from, to)
        } else {
            Postfix::Index(from?)
        };
        self.skip();
        if !self.lit(b']') {
            return None;
        }
        Some(r)
    }

    /// `label_pred = { (":" ~ !":" ~ label_or)+ }`
    pub(super) fn label_pred(&mut self) -> Option<Postfix> {
        let (mut parts, span) = self.label_colons(true)?;
        if parts.len() == 1 {
            return parts.pop().map(Postfix::Labels);
        }
        Some(Postfix::Labels(LabelExpr::And(parts, span)))
    }

    pub(super) fn plain(kind: ExprKind, start: usize, end: usize) -> Operand {
        Operand {
            expr: Expr::new(kind, Span::new(start, end)),
            paren: false,
            height: 1,
        }
    }

    /// `atom`, its alternatives grouped by first character as in the grammar.
    pub(super) fn atom(&mut self) -> Option<Operand> {
        if !self.step() {
            return None;
        }
        match self.peek() {
            b'0'..=b'9' | b'.' => self.number(),
            b'\'' | b'"' => self.string_lit(),
            b'$' => self.parameter(),
            b'[' => {
                let start = self.pos;
                if let Some(o) = self.list_comprehension() {
                    return Some(o);
                }
                if self.bailed {
                    return None;
                }
                self.pos = start;
                if let Some(o) = self.pattern_comprehension() {
                    return Some(o);
                }
                if self.bailed {
                    return None;
                }
                self.pos = start;
                self.list_literal()
            }
            b'{' => self.map_literal(),
            b'(' => {
                let start = self.pos;
                if let Some(chain) = self.pattern_chain_rel() {
                    return Some(Self::plain(ExprKind::Pattern(chain), start, self.pos));
                }
                if self.bailed {
                    return None;
                }
                self.pos = start;
                // paren_expr = { "(" ~ expression ~ ")" }
                self.pos += 1;
                self.skip();
                let mut o = self.expression()?;
                self.skip();
                if !self.lit(b')') {
                    return None;
                }
                o.expr.span = Span::new(start, self.pos);
                o.paren = true;
                Some(o)
            }
            _ => self.word_atom(),
        }
    }

    /// `number = _{ float_lit | int_lit }`, decimal forms only.
    pub(super) fn number(&mut self) -> Option<Operand> {
        let start = self.pos;
        let b = self.b;
        let mut i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let int_digits = i - start;
        if int_digits > 1 && b[start] == b'0' {
            return self.bail();
        }
        let mut float = false;
        if self.peek_at(i) == b'.' && self.peek_at(i + 1).is_ascii_digit() {
            float = true;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        } else if int_digits == 0 {
            return None;
        }
        if matches!(self.peek_at(i), b'e' | b'E') {
            let mut j = i + 1;
            if matches!(self.peek_at(j), b'+' | b'-') {
                j += 1;
            }
            if self.peek_at(j).is_ascii_digit() {
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                i = j;
                float = true;
            }
        }
        let next = self.peek_at(i);
        if ident_byte(next) || next >= 0x80 {
            return self.bail();
        }
        let text = &self.src[start..i];
        self.pos = i;
        let kind = if float {
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() => ExprKind::Literal(Literal::Float(v)),
                Ok(_) => ExprKind::Literal(Literal::OutOfRange {
                    text: text.to_string(),
                    float: true,
                }),
                Err(_) => return self.bail(),
            }
        } else {
            match parse_int_magnitude(text) {
                Some(v) if v <= i64::MAX as u128 => ExprKind::Literal(Literal::Integer(v as i64)),
                _ => ExprKind::Literal(Literal::OutOfRange {
                    text: text.to_string(),
                    float: false,
                }),
            }
        };
        Some(Self::plain(kind, start, i))
    }

    /// `string_lit`, escapes checked as the grammar checks them and resolved as the builder
    /// resolves them.
    pub(super) fn string_lit(&mut self) -> Option<Operand> {
        let start = self.pos;
        let q = self.peek();
        let b = self.b;
        let mut i = start + 1;
        loop {
            match b.get(i) {
                None => return self.bail(),
                Some(&c) if c == q => break,
                Some(b'\\') => {
                    let ok = match self.peek_at(i + 1) {
                        b'\\' | b'\'' | b'"' | b'`' | b'b' | b'B' | b'f' | b'F' | b'n' | b'N'
                        | b'r' | b'R' | b't' | b'T' => 2,
                        b'u' => hex_escape(b, i + 2, 4),
                        b'U' => hex_escape(b, i + 2, 8),
                        _ => 0,
                    };
                    if ok == 0 {
                        return self.bail();
                    }
                    i += ok;
                }
                Some(_) => i += 1,
            }
        }
        let raw = &self.src[start + 1..i];
        let Ok(value) = unescape(raw) else {
            return self.bail();
        };
        self.pos = i + 1;
        Some(Self::plain(
            ExprKind::Literal(Literal::String(value)),
            start,
            self.pos,
        ))
    }

    /// `parameter = ${ "$" ~ (param_digit_name | param_index | symbolic_name) }`, named
    /// parameters only.
    pub(super) fn parameter(&mut self) -> Option<Operand> {
        let start = self.pos;
        self.pos += 1;
        if self.peek().is_ascii_digit() {
            return self.bail();
        }
        let name = self.ident()?;
        Some(Self::plain(
            ExprKind::Parameter(Parameter::Named(name.name)),
            start,
            self.pos,
        ))
    }

    /// `list_comprehension = { "[" ~ variable ~ IN ~ expression ~ comp_where? ~ comp_map? ~ "]" }`
    pub(super) fn list_comprehension(&mut self) -> Option<Operand> {
        let start = self.pos;
        self.pos += 1;
        self.skip();
        let variable = self.ident()?;
        self.skip();
        self.eat_kw(b"in")?;
        let list = Box::new(self.expr()?);
        self.skip();
        let filter = self.opt_where()?.map(Box::new);
        self.skip();
        let mut map = None;
        if self.peek() == b'|' {
            let save = self.pos;
            self.pos += 1;
            self.skip();
            match self.expr() {
                Some(e) => map = Some(Box::new(e)),
                None if self.bailed => return None,
                None => self.pos = save,
            }
        }
        self.skip();
        if !self.lit(b']') {
            return None;
        }
        Some(Self::plain(
            ExprKind::ListComprehension {
                variable,
                list,
                filter,
                map,
            },
            start,
            self.pos,
        ))
    }

    /// `pattern_comprehension = { "[" ~ (variable ~ "=")? ~ pattern_chain_rel ~ comp_where? ~
    /// "|" ~ expression ~ "]" }`
    pub(super) fn pattern_comprehension(&mut self) -> Option<Operand> {
        let start = self.pos;
        self.pos += 1;
        self.skip();
        let save = self.pos;
        let mut variable = None;
        if let Some(v) = self.ident() {
            self.skip();
            if self.lit(b'=') {
                variable = Some(v);
            } else {
                self.pos = save;
            }
        } else if self.bailed {
            return None;
        }
        self.skip();
        let pattern = self.pattern_chain_rel()?;
        self.skip();
        let filter = self.opt_where()?.map(Box::new);
        self.skip();
        self.eat(b'|')?;
        let map = Box::new(self.expr()?);
        self.skip();
        if !self.lit(b']') {
            return None;
        }
        Some(Self::plain(
            ExprKind::PatternComprehension {
                variable,
                pattern,
                filter,
                map,
            },
            start,
            self.pos,
        ))
    }

    /// `pattern_chain_rel = { node_pattern ~ (rel_pattern ~ node_pattern)+ }`
    pub(super) fn pattern_chain_rel(&mut self) -> Option<PathChain> {
        let start = self.pos;
        let mut elements = vec![PathElement::Node(self.node_pattern()?)];
        self.skip();
        // `(rel_pattern ~ node_pattern)+` is `(…) ~ (…)*`: the skip after the first stays.
        loop {
            let save = self.pos;
            if elements.len() > 3 {
                self.skip();
            }
            let Some(rel) = self.rel_pattern() else {
                if self.bailed {
                    return None;
                }
                self.pos = save;
                break;
            };
            self.skip();
            let Some(node) = self.node_pattern() else {
                if self.bailed {
                    return None;
                }
                self.pos = save;
                break;
            };
            elements.push(PathElement::Relationship(rel));
            elements.push(PathElement::Node(node));
            if elements.len() == 3 {
                self.skip();
            }
        }
        if elements.len() == 1 {
            return None;
        }
        Some(PathChain {
            elements,
            span: Span::new(start, self.pos),
        })
    }

    /// `list_literal = { "[" ~ (expression ~ ("," ~ expression)*)? ~ "]" }`
    pub(super) fn list_literal(&mut self) -> Option<Operand> {
        let start = self.pos;
        self.pos += 1;
        self.skip();
        let items = self.opt_list(Self::expr)?;
        self.skip();
        if !self.lit(b']') {
            return None;
        }
        Some(Self::plain(ExprKind::List(items), start, self.pos))
    }

    /// `map_literal = { "{" ~ (map_entry ~ ("," ~ map_entry)*)? ~ "}" }`
    pub(super) fn map_literal(&mut self) -> Option<Operand> {
        let start = self.pos;
        self.pos += 1;
        self.skip();
        let entries = self.opt_list(Self::map_entry)?;
        self.skip();
        if !self.lit(b'}') {
            return None;
        }
        Some(Self::plain(ExprKind::Map(entries), start, self.pos))
    }

    /// `map_entry = { symbolic_name ~ ":" ~ expression }`
    pub(super) fn map_entry(&mut self) -> Option<(Ident, Expr)> {
        let key = self.ident()?;
        self.skip();
        self.eat(b':')?;
        Some((key, self.expr()?))
    }

    /// `word_atom`: literals and the keyword-led forms by first letter, then `name_atom`.
    pub(super) fn word_atom(&mut self) -> Option<Operand> {
        let start = self.pos;
        let c = self.peek().to_ascii_lowercase();
        match c {
            b't' if self.kw(b"true") => {
                return Some(Self::plain(
                    ExprKind::Literal(Literal::Boolean(true)),
                    start,
                    self.pos,
                ))
            }
            b'f' if self.kw(b"false") => {
                return Some(Self::plain(
                    ExprKind::Literal(Literal::Boolean(false)),
                    start,
                    self.pos,
                ))
            }
            b'n' if self.kw(b"null") => {
                return Some(Self::plain(
                    ExprKind::Literal(Literal::Null),
                    start,
                    self.pos,
                ))
            }
            b'n' if self.at_kw(b"none") => {
                if let Some(o) = self.quantified(QuantifierKind::None, 4) {
                    return Some(o);
                }
            }
            b'c' if self.at_kw(b"case") => match self.case_expr() {
                Some(o) => return Some(o),
                None => return self.bail(),
            },
            b'c' if self.at_kw(b"count") => {
                // count_star = { COUNT ~ "(" ~ "*" ~ ")" }, then
                // count_subquery = { COUNT ~ "{" ~ subquery_body ~ "}" }.
                self.pos += 5;
                self.skip();
                if self.lit(b'(') {
                    self.skip();
                    if self.lit(b'*') {
                        self.skip();
                        if self.lit(b')') {
                            return Some(Self::plain(ExprKind::CountStar, start, self.pos));
                        }
                    }
                } else if self.peek() == b'{' {
                    let body = self.subquery_body()?;
                    let kind = ExprKind::CountSubquery(Box::new(body));
                    return Some(Self::plain(kind, start, self.pos));
                }
            }
            b'c' if self.at_kw(b"collect") => {
                // collect_subquery = { COLLECT ~ "{" ~ query ~ "}" }
                self.pos += 7;
                self.skip();
                if self.lit(b'{') {
                    self.skip();
                    let Some(q) = self.query() else {
                        return self.bail();
                    };
                    self.skip();
                    if !self.lit(b'}') {
                        return self.bail();
                    }
                    let kind = ExprKind::Collect(Box::new(q));
                    return Some(Self::plain(kind, start, self.pos));
                }
            }
            b'e' if self.at_kw(b"exists") => {
                // exists_subquery = { EXISTS ~ "{" ~ subquery_body ~ "}" }
                self.pos += 6;
                self.skip();
                if self.peek() == b'{' {
                    let body = self.subquery_body()?;
                    let kind = ExprKind::Exists(Box::new(body));
                    return Some(Self::plain(kind, start, self.pos));
                }
            }
            b'a' if self.at_kw(b"allreduce") => return self.bail(),
            b'a' if self.at_kw(b"all") => {
                if let Some(o) = self.quantified(QuantifierKind::All, 3) {
                    return Some(o);
                }
            }
            b'a' if self.at_kw(b"any") => {
                if let Some(o) = self.quantified(QuantifierKind::Any, 3) {
                    return Some(o);
                }
            }
            b's' if self.at_kw(b"single") => {
                if let Some(o) = self.quantified(QuantifierKind::Single, 6) {
                    return Some(o);
                }
            }
            b'r' if self.at_kw(b"reduce") => {
                if let Some(o) = self.reduce() {
                    return Some(o);
                }
            }
            _ => {}
        }
        if self.bailed {
            return None;
        }
        self.pos = start;
        if (c == b'a' || c == b's')
            && (self.at_kw(b"shortestpath") || self.at_kw(b"allshortestpaths"))
        {
            if let Some((all, chain, _)) = self.shortest_path() {
                return Some(Self::plain(
                    ExprKind::ShortestPath { all, chain },
                    start,
                    self.pos,
                ));
            }
            if self.bailed {
                return None;
            }
            self.pos = start;
        }
        self.name_atom()
    }

    /// `"{" ~ subquery_body ~ "}"` of `EXISTS` and `COUNT`, where `subquery_body = {
    /// subquery_pattern | query }` and `subquery_pattern = { pattern ~ where_clause? }`. Any
    /// failure is a bail: pest would go on to read the keyword as a variable.
    pub(super) fn subquery_body(&mut self) -> Option<SubqueryBody> {
        self.pos += 1;
        self.skip();
        let save = self.pos;
        let body = match self.pattern() {
            Some(pattern) => {
                self.skip();
                let where_ = self.opt_where()?;
                SubqueryBody::Pattern { pattern, where_ }
            }
            None if self.bailed => return None,
            None => {
                self.pos = save;
                match self.query() {
                    Some(q) => SubqueryBody::Query(q),
                    None => return self.bail(),
                }
            }
        };
        self.skip();
        if !self.lit(b'}') {
            return self.bail();
        }
        Some(body)
    }

    /// `quantified_expr = { quantifier_kind ~ "(" ~ variable ~ IN ~ expression ~ comp_where?
    /// ~ ")" }` (the keyword is at the position, `len` bytes long).
    pub(super) fn quantified(&mut self, kind: QuantifierKind, len: usize) -> Option<Operand> {
        let start = self.pos;
        self.pos += len;
        self.skip();
        self.eat(b'(')?;
        let variable = self.ident()?;
        self.skip();
        self.eat_kw(b"in")?;
        let list = Box::new(self.expr()?);
        self.skip();
        let filter = self.opt_where()?.map(Box::new);
        self.skip();
        if !self.lit(b')') {
            return None;
        }
        Some(Self::plain(
            ExprKind::Quantified {
                kind,
                variable,
                list,
                filter,
            },
            start,
            self.pos,
        ))
    }

    /// `reduce_expr = { REDUCE ~ "(" ~ variable ~ "=" ~ expression ~ "," ~ variable ~ IN ~
    /// expression ~ "|" ~ expression ~ ")" }`
    pub(super) fn reduce(&mut self) -> Option<Operand> {
        let start = self.pos;
        self.pos += 6;
        self.skip();
        self.eat(b'(')?;
        let accumulator = self.ident()?;
        self.skip();
        self.eat(b'=')?;
        let init = Box::new(self.expr()?);
        self.skip();
        self.eat(b',')?;
        let variable = self.ident()?;
        self.skip();
        self.eat_kw(b"in")?;
        let list = Box::new(self.expr()?);
        self.skip();
        self.eat(b'|')?;
        let expr = Box::new(self.expr()?);
        self.skip();
        if !self.lit(b')') {
            return None;
        }
        Some(Self::plain(
            ExprKind::Reduce {
                accumulator,
                init,
                variable,
                list,
                expr,
                predicate: None,
            },
            start,
            self.pos,
        ))
    }

    /// `case_expr = { CASE ~ (!WHEN ~ expression)? ~ case_when+ ~ case_else? ~ END }`, with
    /// value operands only (the extended `WHEN > 3` forms are the pest path's). Any failure is
    /// a bail: pest would go on to read `case` as a variable.
    pub(super) fn case_expr(&mut self) -> Option<Operand> {
        let start = self.pos;
        self.pos += 4;
        self.skip();
        let mut operand = None;
        if !self.at_kw(b"when") {
            let save = self.pos;
            match self.expr() {
                Some(e) => operand = Some(Box::new(e)),
                None if self.bailed => return None,
                None => self.pos = save,
            }
        }
        self.skip();
        let mut whens = Vec::new();
        let mut first = true;
        loop {
            let save = self.pos;
            if !first {
                self.skip();
            }
            if !self.kw(b"when") {
                self.pos = save;
                break;
            }
            self.skip();
            let mut conds = Vec::new();
            loop {
                // case_operand = _{ case_partial | expression }
                let c = self.peek();
                if matches!(c, b'!' | b'<' | b'=' | b'>' | b':')
                    || self.at_kw(b"starts")
                    || self.at_kw(b"ends")
                    || self.at_kw(b"is")
                {
                    return self.bail();
                }
                conds.push(self.expr()?);
                self.skip();
                if !self.lit(b',') {
                    break;
                }
                self.skip();
            }
            if !self.kw(b"then") {
                return self.bail();
            }
            self.skip();
            let then = self.expr()?;
            for w in conds {
                whens.push((w, then.clone()));
            }
            // `case_when+` is `case_when ~ case_when*`: the skip after the first stays.
            if first {
                self.skip();
            }
            first = false;
        }
        if whens.is_empty() {
            return self.bail();
        }
        self.skip();
        let mut else_ = None;
        if self.at_kw(b"else") {
            self.pos += 4;
            self.skip();
            else_ = Some(Box::new(self.expr()?));
        }
        self.skip();
        if !self.kw(b"end") {
            return self.bail();
        }
        Some(Self::plain(
            ExprKind::Case {
                operand,
                whens,
                else_,
            },
            start,
            self.pos,
        ))
    }

    /// `name_atom = { symbolic_name ~ ("." ~ symbolic_name)* ~ (call_args | map_proj_body)? }`
    pub(super) fn name_atom(&mut self) -> Option<Operand> {
        let start = self.pos;
        let first = self.ident()?;
        let mut names = self.sep_list(first, b'.', Self::ident)?;
        self.skip();
        match self.peek() {
            b'(' => {
                let save = self.pos;
                match self.paren_args(true) {
                    Some((distinct, args)) => {
                        let name_span = names[0].span.to(names[names.len() - 1].span);
                        return Some(Operand {
                            expr: Expr::new(
                                ExprKind::FunctionCall {
                                    name: QualifiedName {
                                        parts: names,
                                        span: name_span,
                                    },
                                    distinct,
                                    args,
                                },
                                Span::new(start, self.pos),
                            ),
                            paren: false,
                            height: 1,
                        });
                    }
                    None if self.bailed => return None,
                    // `trim(BOTH 'x' FROM s)`: pest's `trim_from` (tried before `name_atom`)
                    // reads what the plain call rejects.
                    None if names.len() == 1 && names[0].name.eq_ignore_ascii_case("trim") => {
                        return self.bail()
                    }
                    None => self.pos = save,
                }
            }
            b'{' => {
                let save = self.pos;
                match self.map_projection() {
                    Some(items) => {
                        if names.len() > 1 {
                            return self.bail();
                        }
                        let variable = names.pop()?;
                        return Some(Operand {
                            expr: Expr::new(
                                ExprKind::MapProjection { variable, items },
                                Span::new(start, self.pos),
                            ),
                            paren: false,
                            height: 1,
                        });
                    }
                    None if self.bailed => return None,
                    None => self.pos = save,
                }
            }
            _ => {}
        }
        let height = names.len();
        if height > MAX_CHAIN {
            return self.bail();
        }
        let e = property_chain(names)?;
        Some(Operand {
            expr: e,
            paren: false,
            height,
        })
    }

    /// `"(" ~ DISTINCT? ~ (expression ~ ("," ~ expression)*)? ~ ")"` (`call_args`; without
    /// DISTINCT, `proc_args`).
    pub(super) fn paren_args(&mut self, allow_distinct: bool) -> Option<(bool, Vec<Expr>)> {
        self.pos += 1;
        self.skip();
        let distinct = allow_distinct && self.kw(b"distinct");
        self.skip();
        let args = self.opt_list(Self::expr)?;
        self.skip();
        if !self.lit(b')') {
            return None;
        }
        Some((distinct, args))
    }

    /// `map_proj_body = { "{" ~ (map_proj_item ~ ("," ~ map_proj_item)*)? ~ "}" }`
    pub(super) fn map_projection(&mut self) -> Option<Vec<MapProjectionItem>> {
        self.pos += 1;
        self.skip();
        let items = self.opt_list(Self::map_proj_item)?;
        self.skip();
        if !self.lit(b'}') {
            return None;
        }
        Some(items)
    }

    /// `map_proj_item = _{ map_proj_all | map_proj_prop | map_proj_entry | map_proj_var }`
    pub(super) fn map_proj_item(&mut self) -> Option<MapProjectionItem> {
        let start = self.pos;
        if self.lit(b'.') {
            self.skip();
            if self.lit(b'*') {
                return Some(MapProjectionItem::AllProperties(Span::new(start, self.pos)));
            }
            return self.ident().map(MapProjectionItem::Property);
        }
        let name = self.ident()?;
        let after = self.pos;
        self.skip();
        if self.lit(b':') {
            self.skip();
            match self.expr() {
                Some(e) => return Some(MapProjectionItem::Entry(name, e)),
                None if self.bailed => return None,
                None => {}
            }
        }
        self.pos = after;
        Some(MapProjectionItem::Variable(name))
    }
}

/// The length of a `\u` / `\U` escape at `i - 2` if `n` hex digits follow, else 0.
fn hex_escape(b: &[u8], i: usize, n: usize) -> usize {
    match b.get(i..i + n) {
        Some(h) if h.iter().all(u8::is_ascii_hexdigit) => 2 + n,
        _ => 0,
    }
}
