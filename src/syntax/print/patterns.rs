//! The canonical printer's patterns: parts, chains, nodes, relationships, label expressions and quantifiers.

use super::*;

impl Printer<'_> {
    pub(super) fn pattern(&mut self, parts: &[PatternPart]) {
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.pattern_part(p);
        }
    }

    pub(super) fn pattern_part(&mut self, p: &PatternPart) {
        if let Some(v) = &p.variable {
            self.var(v);
            self.w(" = ");
        }
        if let Some(s) = &p.selector {
            match s {
                PathSelector::AnyShortest => self.w("ANY SHORTEST "),
                PathSelector::AllShortest => self.w("ALL SHORTEST "),
                // Neo4j's grammar wants the count here (`SHORTEST 1`).
                PathSelector::Shortest(k) => {
                    let _ = write!(self.out, "SHORTEST {} ", k.unwrap_or(1));
                }
                PathSelector::ShortestGroups(k) => {
                    self.w("SHORTEST ");
                    if let Some(k) = k {
                        let _ = write!(self.out, "{k} ");
                    }
                    self.w("GROUPS ");
                }
                PathSelector::Any(k) => {
                    self.w("ANY ");
                    if let Some(k) = k {
                        let _ = write!(self.out, "{k} ");
                    }
                }
                PathSelector::All => self.w("ALL "),
            }
        }
        match &p.path {
            PathExpr::Chain(c) => self.chain(c),
            PathExpr::ShortestFunction { all, chain, .. } => self.shortest(*all, chain),
        }
    }

    pub(super) fn shortest(&mut self, all: bool, chain: &PathChain) {
        self.w(if all {
            "allShortestPaths("
        } else {
            "shortestPath("
        });
        self.chain(chain);
        self.w(")");
    }

    pub(super) fn chain(&mut self, c: &PathChain) {
        let mut prev_rel = true;
        for el in &c.elements {
            match el {
                PathElement::Node(n) => {
                    if !prev_rel {
                        self.w(" ");
                    }
                    self.node(n);
                    prev_rel = false;
                }
                PathElement::Relationship(r) => {
                    self.rel(r);
                    prev_rel = true;
                }
                PathElement::Group(g) => {
                    if !prev_rel {
                        self.w(" ");
                    }
                    self.w("(");
                    if let Some(v) = &g.variable {
                        self.var(v);
                        self.w(" = ");
                    }
                    self.chain(&g.chain);
                    self.where_(&g.where_);
                    self.w(")");
                    if let Some(q) = &g.quantifier {
                        self.quantifier(q);
                    }
                    prev_rel = false;
                }
            }
        }
    }

    pub(super) fn node(&mut self, n: &NodePattern) {
        self.w("(");
        if let Some(v) = &n.variable {
            self.var(v);
        }
        if let Some(l) = &n.labels {
            self.node_labels(l);
        }
        if let Some(p) = &n.properties {
            if n.variable.is_some() || n.labels.is_some() {
                self.w(" ");
            }
            self.expr(p);
        }
        self.where_(&n.where_);
        self.w(")");
    }

    /// `:A:B` for a plain conjunction of names, else `:` and the label expression.
    pub(super) fn node_labels(&mut self, l: &LabelExpr) {
        if self.insert {
            self.w(":");
            self.label_expr(l, 0);
            return;
        }
        if let LabelExpr::And(parts, _) = l {
            if parts.iter().all(|p| {
                matches!(
                    p,
                    LabelExpr::Name(_)
                        | LabelExpr::Dynamic {
                            mode: DynamicLabels::Plain,
                            ..
                        }
                )
            }) {
                for p in parts {
                    self.w(":");
                    self.label_expr(p, 0);
                }
                return;
            }
        }
        self.w(":");
        self.label_expr(l, 0);
    }

    /// Label expressions; `ctx` is the binding strength of the context (0 top, 1 `|`, 2 `&`, 3 `!`).
    pub(super) fn label_expr(&mut self, l: &LabelExpr, ctx: u8) {
        let (mine, wrap) = match l {
            LabelExpr::Or(..) => (1, ctx >= 1),
            LabelExpr::And(..) => (2, ctx >= 2),
            LabelExpr::Not(..) => (3, false),
            _ => (4, false),
        };
        if wrap {
            self.w("(");
        }
        match l {
            LabelExpr::Name(i) => self.name(i),
            LabelExpr::Wildcard(_) => self.w("%"),
            LabelExpr::Dynamic { expr, mode, .. } => {
                self.w(mode.prefix());
                self.w("(");
                self.expr(expr);
                self.w(")");
            }
            LabelExpr::Not(x, _) => {
                self.w("!");
                self.label_expr(x, 3);
            }
            LabelExpr::And(xs, _) | LabelExpr::Or(xs, _) => {
                let sep = if mine == 1 { "|" } else { "&" };
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        self.w(sep);
                    }
                    self.label_expr(x, mine);
                }
            }
        }
        if wrap {
            self.w(")");
        }
    }

    pub(super) fn rel(&mut self, r: &RelationshipPattern) {
        self.w(if r.direction == Direction::Left {
            "<-"
        } else {
            "-"
        });
        let has_detail = r.variable.is_some()
            || r.types.is_some()
            || r.length.is_some()
            || r.properties.is_some()
            || r.where_.is_some();
        if has_detail {
            self.w("[");
            if let Some(v) = &r.variable {
                self.var(v);
            }
            if let Some(t) = &r.types {
                self.w(":");
                self.label_expr(t, 0);
            }
            if let Some(len) = &r.length {
                self.w("*");
                match *len {
                    VarLength::Any => {}
                    VarLength::Exact(n) => {
                        let _ = write!(self.out, "{n}");
                    }
                    VarLength::Range { min, max } => {
                        if let Some(m) = min {
                            let _ = write!(self.out, "{m}");
                        }
                        self.w("..");
                        if let Some(m) = max {
                            let _ = write!(self.out, "{m}");
                        }
                    }
                }
            }
            if let Some(p) = &r.properties {
                if r.variable.is_some() || r.types.is_some() || r.length.is_some() {
                    self.w(" ");
                }
                self.expr(p);
            }
            self.where_(&r.where_);
            self.w("]");
        }
        self.w(if r.direction == Direction::Right {
            "->"
        } else {
            "-"
        });
        if let Some(q) = &r.quantifier {
            self.quantifier(q);
        }
    }

    pub(super) fn quantifier(&mut self, q: &Quantifier) {
        match *q {
            Quantifier::Plus => self.w("+"),
            Quantifier::Star => self.w("*"),
            Quantifier::Exact(n) => {
                let _ = write!(self.out, "{{{n}}}");
            }
            Quantifier::Range { min, max } => {
                self.w("{");
                if let Some(m) = min {
                    let _ = write!(self.out, "{m}");
                }
                self.w(", ");
                if let Some(m) = max {
                    let _ = write!(self.out, "{m}");
                }
                self.w("}");
            }
        }
    }
}
