//! The fast path's pattern rules: paths, node and relationship patterns, label expressions.

use super::*;

impl Descent<'_> {
    /// `pattern = { pattern_part ~ ("," ~ pattern_part)* }`
    pub(super) fn pattern(&mut self) -> Option<Vec<PatternPart>> {
        let first = self.pattern_part()?;
        self.sep_list(first, b',', Self::pattern_part)
    }

    /// `pattern_part = { (variable ~ "=")? ~ path_selector? ~ (shortest_path | path_chain) }`
    pub(super) fn pattern_part(&mut self) -> Option<PatternPart> {
        let start = self.pos;
        let mut variable = None;
        if let Some(v) = self.ident() {
            self.skip();
            if self.lit(b'=') {
                variable = Some(v);
            } else {
                self.pos = start;
            }
        } else if self.bailed {
            return None;
        }
        self.skip();
        if self.at_kw(b"any") || self.at_kw(b"all") || self.at_kw(b"shortest") {
            return self.bail();
        }
        let path = if self.at_kw(b"shortestpath") || self.at_kw(b"allshortestpaths") {
            let (all, chain, span) = self.shortest_path()?;
            PathExpr::ShortestFunction { all, chain, span }
        } else {
            PathExpr::Chain(self.path_chain()?)
        };
        if self.bailed {
            return None;
        }
        Some(PatternPart {
            variable,
            selector: None,
            path,
            span: Span::new(start, self.pos),
        })
    }

    /// `shortest_path = { (ALLSHORTESTPATHS | SHORTESTPATH) ~ "(" ~ path_chain ~ ")" }`
    pub(super) fn shortest_path(&mut self) -> Option<(bool, PathChain, Span)> {
        let start = self.pos;
        let all = self.kw(b"allshortestpaths");
        if !all && !self.kw(b"shortestpath") {
            return None;
        }
        self.skip();
        self.eat(b'(')?;
        let chain = self.path_chain()?;
        self.skip();
        if !self.lit(b')') {
            return None;
        }
        Some((all, chain, Span::new(start, self.pos)))
    }

    /// `path_chain = { path_factor ~ (rel_pattern ~ path_factor | path_factor)* }`, where a
    /// factor is a node pattern (parenthesized paths and juxtaposed factors are the pest
    /// path's).
    pub(super) fn path_chain(&mut self) -> Option<PathChain> {
        let start = self.pos;
        let mut elements = vec![PathElement::Node(self.path_factor()?)];
        self.skip();
        let mut first = true;
        loop {
            let save = self.pos;
            if !first {
                self.skip();
            }
            match self.peek() {
                b'<' | b'-' => {
                    let Some(rel) = self.rel_pattern() else {
                        if self.bailed {
                            return None;
                        }
                        self.pos = save;
                        break;
                    };
                    self.skip();
                    let Some(node) = self.path_factor() else {
                        if self.bailed {
                            return None;
                        }
                        self.pos = save;
                        break;
                    };
                    elements.push(PathElement::Relationship(rel));
                    elements.push(PathElement::Node(node));
                }
                b'(' => return self.bail(),
                _ => {
                    self.pos = save;
                    break;
                }
            }
            first = false;
        }
        Some(PathChain {
            elements,
            span: Span::new(start, self.pos),
        })
    }

    /// `path_factor = _{ node_pattern | paren_path }` (the second is the pest path's).
    pub(super) fn path_factor(&mut self) -> Option<NodePattern> {
        if !self.step() {
            return None;
        }
        let start = self.pos;
        match self.node_pattern() {
            Some(n) => Some(n),
            None if self.bailed => None,
            None => {
                self.pos = start;
                if self.peek() == b'(' {
                    return self.bail();
                }
                None
            }
        }
    }

    /// `node_pattern = { "(" ~ variable? ~ node_labels? ~ properties? ~ where_clause? ~ ")" }`
    pub(super) fn node_pattern(&mut self) -> Option<NodePattern> {
        let start = self.pos;
        self.eat(b'(')?;
        let variable = self.ident();
        if self.bailed {
            return None;
        }
        self.skip();
        let mut labels = None;
        if self.peek() == b':' {
            let save = self.pos;
            match self.node_labels() {
                Some(l) => labels = Some(l),
                None if self.bailed => return None,
                None => self.pos = save,
            }
        } else if self.at_kw(b"is") {
            return self.bail();
        }
        self.skip();
        let properties = self.opt_properties()?;
        self.skip();
        let where_ = self.opt_where()?;
        self.skip();
        if !self.lit(b')') {
            return None;
        }
        Some(NodePattern {
            variable,
            labels,
            properties,
            where_,
            span: Span::new(start, self.pos),
        })
    }

    /// `properties?` where `properties = { map_literal | parameter }`: `Some(None)` when
    /// absent, `None` on a bail.
    pub(super) fn opt_properties(&mut self) -> Option<Option<Expr>> {
        let save = self.pos;
        let r = match self.peek() {
            b'{' => self.map_literal(),
            b'$' => self.parameter(),
            _ => return if self.bailed { None } else { Some(None) },
        };
        match r {
            Some(o) => Some(Some(o.expr)),
            None if self.bailed => None,
            None => {
                self.pos = save;
                Some(None)
            }
        }
    }

    /// `node_labels = { label_is | label_colon+ }`, the colon form (`IS` is the pest
    /// path's): the label expression of each `:`, combined as the builder combines them.
    pub(super) fn node_labels(&mut self) -> Option<LabelExpr> {
        let (mut parts, span) = self.label_colons(false)?;
        if parts.len() == 1 {
            return parts.pop();
        }
        Some(LabelExpr::And(parts, span))
    }

    /// `label_colon+` (`":" ~ label_or`), or with `no_double` `label_pred`'s
    /// `(":" ~ !":" ~ label_or)+`: the label expression of each `:` and the span of them all.
    pub(super) fn label_colons(&mut self, no_double: bool) -> Option<(Vec<LabelExpr>, Span)> {
        let start = self.pos;
        let mut parts = Vec::new();
        // `label_colon+` is `label_colon ~ label_colon*`: the skip after the first stays.
        loop {
            let save = self.pos;
            if parts.len() > 1 {
                self.skip();
            }
            if !self.lit(b':') {
                self.pos = save;
                break;
            }
            self.skip();
            if no_double && self.peek() == b':' {
                self.pos = save;
                break;
            }
            match self.label_or() {
                Some(l) => parts.push(l),
                None if self.bailed => return None,
                None => {
                    self.pos = save;
                    break;
                }
            }
            if parts.len() == 1 {
                self.skip();
            }
        }
        if parts.is_empty() {
            return None;
        }
        Some((parts, Span::new(start, self.pos)))
    }

    /// `label_or = { label_and ~ ("|" ~ ":"? ~ label_and)* }`
    pub(super) fn label_or(&mut self) -> Option<LabelExpr> {
        if !self.step() {
            return None;
        }
        let start = self.pos;
        let first = self.label_and()?;
        // `"|" ~ ":"? ~ label_and`: the legacy `|:` of relationship types.
        let mut parts = self.sep_list(first, b'|', |p| {
            p.lit(b':');
            p.skip();
            p.label_and()
        })?;
        if parts.len() == 1 {
            return parts.pop();
        }
        Some(LabelExpr::Or(parts, Span::new(start, self.pos)))
    }

    /// `label_and = { label_not ~ ("&" ~ label_not)* }`
    pub(super) fn label_and(&mut self) -> Option<LabelExpr> {
        let start = self.pos;
        let first = self.label_not()?;
        let mut parts = self.sep_list(first, b'&', Self::label_not)?;
        if parts.len() == 1 {
            return parts.pop();
        }
        Some(LabelExpr::And(parts, Span::new(start, self.pos)))
    }

    /// `label_not = { label_neg* ~ label_atom }`; `label_atom = _{ label_any | label_dynamic |
    /// "(" ~ label_or ~ ")" | symbolic_name }` (dynamic labels are the pest path's).
    pub(super) fn label_not(&mut self) -> Option<LabelExpr> {
        let mut negs = Vec::new();
        loop {
            let save = self.pos;
            if !negs.is_empty() {
                self.skip();
            }
            let at = self.pos;
            if !self.lit(b'!') {
                self.pos = save;
                break;
            }
            negs.push(at);
        }
        self.skip();
        let atom = match self.peek() {
            b'%' => {
                let at = self.pos;
                self.pos += 1;
                LabelExpr::Wildcard(Span::new(at, at + 1))
            }
            b'$' => return self.bail(),
            b'(' => {
                self.pos += 1;
                self.skip();
                let inner = self.label_or()?;
                self.skip();
                if !self.lit(b')') {
                    return None;
                }
                inner
            }
            _ => LabelExpr::Name(self.ident()?),
        };
        if negs.len() > MAX_CHAIN {
            return self.bail();
        }
        let end = self.pos;
        let mut e = atom;
        for at in negs.into_iter().rev() {
            e = LabelExpr::Not(Box::new(e), Span::new(at, end));
        }
        Some(e)
    }

    /// `rel_pattern = { arrow_left? ~ "-" ~ rel_detail? ~ "-" ~ arrow_right? ~ quantifier? }`
    /// (quantifiers are the pest path's).
    pub(super) fn rel_pattern(&mut self) -> Option<RelationshipPattern> {
        let start = self.pos;
        let left = self.lit(b'<');
        self.skip();
        self.eat(b'-')?;
        let mut r = RelationshipPattern {
            direction: Direction::Undirected,
            variable: None,
            types: None,
            length: None,
            properties: None,
            where_: None,
            quantifier: None,
            span: Span::default(),
        };
        if self.peek() == b'[' {
            self.rel_detail(&mut r)?;
        }
        self.skip();
        self.eat(b'-')?;
        let right = self.lit(b'>');
        self.skip();
        if matches!(self.peek(), b'+' | b'*' | b'{') {
            return self.bail();
        }
        r.direction = direction(left, right);
        r.span = Span::new(start, self.pos);
        Some(r)
    }

    /// `rel_detail = { "[" ~ variable? ~ rel_types? ~ var_length? ~ properties? ~
    /// where_clause? ~ "]" }`
    pub(super) fn rel_detail(&mut self, r: &mut RelationshipPattern) -> Option<()> {
        self.pos += 1;
        self.skip();
        r.variable = self.ident();
        if self.bailed {
            return None;
        }
        self.skip();
        // rel_types = { (":" | IS) ~ label_or }
        if self.peek() == b':' {
            let save = self.pos;
            self.pos += 1;
            self.skip();
            match self.label_or() {
                Some(l) => r.types = Some(l),
                None if self.bailed => return None,
                None => self.pos = save,
            }
        } else if self.at_kw(b"is") {
            return self.bail();
        }
        self.skip();
        // var_length = { "*" ~ (range_bounds | range_exact)? }
        if self.lit(b'*') {
            self.skip();
            let save = self.pos;
            let min = self.unsigned();
            if self.bailed {
                return None;
            }
            self.skip();
            if self.peek() == b'.' && self.peek_at(self.pos + 1) == b'.' {
                self.pos += 2;
                self.skip();
                let max = self.unsigned();
                if self.bailed {
                    return None;
                }
                if max.is_none() {
                    // (range_max? unmatched: the skip before it stays consumed.)
                }
                r.length = Some(VarLength::Range { min, max });
            } else if let Some(n) = min {
                self.pos = save;
                self.unsigned();
                r.length = Some(VarLength::Exact(n));
            } else {
                self.pos = save;
                r.length = Some(VarLength::Any);
            }
        }
        self.skip();
        r.properties = self.opt_properties()?;
        self.skip();
        r.where_ = self.opt_where()?;
        self.skip();
        if !self.lit(b']') {
            return None;
        }
        Some(())
    }

    /// `unsigned_int`, decimal digits only (hexadecimal, octal and `_` are the pest path's).
    pub(super) fn unsigned(&mut self) -> Option<u64> {
        let start = self.pos;
        let mut i = start;
        while i < self.b.len() && self.b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
        let next = self.peek_at(i);
        if ident_byte(next) || next >= 0x80 || (self.b[start] == b'0' && i - start > 1) {
            return self.bail();
        }
        match self.src[start..i].parse::<u64>() {
            Ok(v) => {
                self.pos = i;
                Some(v)
            }
            Err(_) => self.bail(),
        }
    }
}
