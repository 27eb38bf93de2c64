//! Pattern compilation, once per pattern: pattern elements to slots and symbols, WHERE
//! conjuncts pushed down to the element they alone involve, property predicates compiled into
//! checks, and the planner's choice of where each chain starts (`plan_anchor`).

use super::*;

#[cfg(test)]
thread_local! {
    /// Set: no chain starts from a relationship type scan (for comparing).
    pub(super) static NO_TYPE_SCAN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// `Some(true)`: a chain sorts early wherever it can; `Some(false)`: never (for comparing).
    pub(super) static SORT_EARLY: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
    /// `Some(true)`: a chain sorted early starts from a relationship scan where it can;
    /// `Some(false)`: from a node (for comparing).
    pub(super) static SORT_AFTER_SCAN: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

impl Runner<'_> {
    /// Prepares the pattern: slots, relationship type symbols, and WHERE conjuncts pushed down
    /// to the elements they alone involve. Returns the chains and what is left of WHERE.
    pub(super) fn compile_chains<'q>(
        &self,
        parts: &'q [PatternPart],
        scope: &[Arc<str>],
        old_len: usize,
        where_: Option<&'q Expr>,
    ) -> Result<(Vec<ChainInfo<'q>>, Option<Expr>)> {
        self.compile_chains_ordered(parts, scope, old_len, where_, None)
    }

    /// [`Self::compile_chains`]; `order`: the projection after the MATCH, and the rows its
    /// SKIP and LIMIT keep, when the MATCH may sort by its ORDER BY as it matches
    /// ([`Self::sort_early`] decides).
    pub(super) fn compile_chains_ordered<'q>(
        &self,
        parts: &'q [PatternPart],
        scope: &[Arc<str>],
        old_len: usize,
        where_: Option<&'q Expr>,
        order: Option<(&'q Projection, usize)>,
    ) -> Result<(Vec<ChainInfo<'q>>, Option<Expr>)> {
        let slot = |v: &Option<Ident>| {
            v.as_ref()
                .and_then(|v| scope.iter().position(|s| **s == *v.name))
        };
        let mut chains = Vec::new();
        for p in parts {
            let (chain, shortest) = match &p.path {
                PathExpr::Chain(c) => (c, None),
                PathExpr::ShortestFunction { all, chain, .. } => (chain, Some(*all)),
            };
            let mut info = ChainInfo {
                part: p as *const PatternPart as usize,
                source: Some(p),
                path_slot: slot(&p.variable),
                nodes: Vec::new(),
                rels: Vec::new(),
                anchor: None,
                shortest,
                general: None,
                order: None,
            };
            if p.selector.is_some() || needs_general(chain) {
                if shortest.is_some() {
                    return Err(ExecError::unsupported(
                        "quantified patterns inside shortestPath()",
                    ));
                }
                info.general = Some(General {
                    elems: self.compile_general(&chain.elements, &slot, old_len, false)?,
                    selector: p.selector.as_ref(),
                });
                chains.push(info);
                continue;
            }
            for el in &chain.elements {
                match el {
                    PathElement::Node(n) => info.nodes.push(self.node_info(n, slot(&n.variable))),
                    PathElement::Relationship(r) => info.rels.push(RelInfo {
                        slot: slot(&r.variable),
                        pat: r,
                        types: r.types.as_ref().and_then(|t| self.simple_types(t)),
                        filters: Vec::new(),
                        exprs: None,
                    }),
                    PathElement::Group(_) => unreachable!("groups take the general path"),
                }
            }
            if info.nodes.len() != info.rels.len() + 1 {
                return Err(ExecError::unsupported("this pattern shape"));
            }
            chains.push(info);
        }
        // Push WHERE conjuncts down to the one new element they mention.
        let mut rest: Vec<&Expr> = Vec::new();
        if let Some(w) = where_ {
            for c in conjuncts(w) {
                let mut vars = Vec::new();
                free_vars(c, &mut vars);
                let new: Vec<&String> = vars
                    .iter()
                    .filter(|v| scope[old_len..].iter().any(|s| **s == ***v))
                    .collect();
                let mut placed = false;
                if new.len() == 1 && !contains_pattern(c) {
                    let name = new[0].as_str();
                    'outer: for ch in chains.iter_mut() {
                        if let Some(gen) = &mut ch.general {
                            if gen.selector.is_none() && place_in_general(gen, name, c) {
                                placed = true;
                                break 'outer;
                            }
                            continue;
                        }
                        for n in ch.nodes.iter_mut() {
                            if n.pat.variable.as_ref().is_some_and(|v| v.name == name) {
                                if let Some((k, v)) = equality_seek(c, name) {
                                    n.seeks.push((k, v));
                                }
                                n.filters.push(c);
                                placed = true;
                                break 'outer;
                            }
                        }
                        for r in ch.rels.iter_mut() {
                            if r.pat.length.is_none()
                                && r.pat.variable.as_ref().is_some_and(|v| v.name == name)
                            {
                                r.filters.push(c);
                                placed = true;
                                break 'outer;
                            }
                        }
                    }
                }
                if !placed {
                    rest.push(c);
                }
            }
        }
        let remaining = rest.into_iter().cloned().reduce(|a, b| {
            let span = a.span.to(b.span);
            Expr::new(
                ExprKind::Binary {
                    op: BinaryOp::And,
                    lhs: Box::new(a),
                    rhs: Box::new(b),
                },
                span,
            )
        });
        // The elements' expressions, compiled for the rows the pattern binds (a node whose
        // predicates all became checks needs none).
        let layout = Layout::new(scope);
        for ch in chains.iter_mut() {
            for n in ch.nodes.iter_mut() {
                n.checks = self.compile_checks(n);
                if n.checks.is_none() {
                    n.exprs = Some(self.element_exprs(
                        n.pat.properties.as_ref(),
                        n.pat.where_.as_ref(),
                        &n.filters,
                        &layout,
                    ));
                }
            }
            for r in ch.rels.iter_mut() {
                r.exprs = Some(self.element_exprs(
                    r.pat.properties.as_ref(),
                    r.pat.where_.as_ref(),
                    &r.filters,
                    &layout,
                ));
            }
        }
        // Plan where each chain starts, once: what is bound when a chain is matched is what
        // came before the pattern and the earlier chains' variables. A shortest path searches
        // from its first node and a general chain matches from its leading node: how that node
        // is found is planned the same way.
        let mut bound: Vec<bool> = (0..scope.len()).map(|i| i < old_len).collect();
        let before = bound.clone();
        self.join_order(&mut chains, &bound, scope)?;
        for ch in chains.iter_mut() {
            if ch.shortest.is_some() {
                if let Some(first) = ch.nodes.first() {
                    ch.anchor = Some(self.plan_start(first, &bound, scope)?);
                }
            } else if let Some(gen) = &mut ch.general {
                if let Some(first) = leading_node_mut(&mut gen.elems) {
                    let start = self.plan_start(first, &bound, scope)?;
                    first.start = Some(start);
                }
            } else {
                let mut anchor = self.plan_anchor(ch, &bound, scope)?;
                anchor.implied = self.anchor_implied(&ch.nodes[anchor.node], &anchor);
                ch.anchor = Some(anchor);
            }
            let mut names = Vec::new();
            if let Some(p) = ch.source {
                declare_pattern_vars(std::slice::from_ref(p), &mut names);
            }
            for n in names {
                if let Some(i) = scope.iter().position(|s| *s == n) {
                    bound[i] = true;
                }
            }
        }
        if let Some((p, kept)) = order {
            self.sort_early(&mut chains, p, kept, &before, scope)?;
        }
        Ok((chains, remaining))
    }

    /// The join order of a pattern's comma-separated parts, from the graph's statistics: each
    /// step takes the part whose start is cheapest given what the parts before it bind (a part
    /// that shares a bound node costs one), ties in the written order. The result is the same
    /// in any order — relationship uniqueness spans the whole pattern — but the work is not:
    /// `MATCH (a:Person), (m:Movie {title: $t})-[:ACTED_IN]-(a)` starts from the one movie.
    /// Patterns with a shortest path or a quantified part keep the written order, so that a
    /// path search finds its ends bound where the query binds them first.
    fn join_order(
        &self,
        chains: &mut Vec<ChainInfo<'_>>,
        bound: &[bool],
        scope: &[Arc<str>],
    ) -> Result<()> {
        if chains.len() < 2
            || chains
                .iter()
                .any(|c| c.shortest.is_some() || c.general.is_some())
        {
            return Ok(());
        }
        let mut bound = bound.to_vec();
        let mut left: Vec<ChainInfo<'_>> = std::mem::take(chains);
        while !left.is_empty() {
            let mut best: Option<(f64, usize)> = None;
            for (k, ch) in left.iter().enumerate() {
                let estimate = self.plan_anchor(ch, &bound, scope)?.estimate;
                if best.is_none_or(|(e, _)| estimate < e) {
                    best = Some((estimate, k));
                }
            }
            let (_, k) = best.unwrap_or((0.0, 0));
            let ch = left.remove(k);
            if let Some(p) = ch.source {
                let mut names = Vec::new();
                declare_pattern_vars(std::slice::from_ref(p), &mut names);
                for n in names {
                    if let Some(i) = scope.iter().position(|s| *s == n) {
                        bound[i] = true;
                    }
                }
            }
            chains.push(ch);
        }
        Ok(())
    }

    /// How one node that a search starts from is found (a shortest path's first node, a general
    /// chain's leading node): the anchor [`Self::plan_anchor`] chooses for it alone.
    pub(super) fn plan_start<'q>(
        &self,
        node: &NodeInfo<'q>,
        bound: &[bool],
        scope: &[Arc<str>],
    ) -> Result<Anchor<'q>> {
        let single = ChainInfo {
            part: 0,
            source: None,
            path_slot: None,
            nodes: vec![node.clone()],
            rels: Vec::new(),
            anchor: None,
            shortest: None,
            general: None,
            order: None,
        };
        self.plan_anchor(&single, bound, scope)
    }

    /// Chooses the start of a fixed-length chain: a bound node, else the cheapest of an index
    /// seek (exact hits when the value reads no variable, else the label's nodes over the
    /// index's distinct values), a label scan, or all nodes. `bound` says which slots are bound
    /// when the chain is matched.
    pub(super) fn plan_anchor<'q>(
        &self,
        ch: &ChainInfo<'q>,
        bound: &[bool],
        scope: &[Arc<str>],
    ) -> Result<Anchor<'q>> {
        Ok(self.plan_anchor_costed(ch, bound, scope)?.0)
    }

    /// [`Self::plan_anchor`], and what the chosen start costs with the chain's expansions as
    /// Neo4j's cost model weighs it (`None` without current relationship statistics or for a
    /// bound start).
    fn plan_anchor_costed<'q>(
        &self,
        ch: &ChainInfo<'q>,
        bound: &[bool],
        scope: &[Arc<str>],
    ) -> Result<(Anchor<'q>, Option<f64>)> {
        for (k, n) in ch.nodes.iter().enumerate() {
            if n.slot.is_some_and(|s| bound[s]) {
                let a = Anchor {
                    node: k,
                    implied: false,
                    access: AnchorAccess::Bound,
                    estimate: 1.0,
                };
                return Ok((a, None));
            }
        }
        let mut best: Option<Anchor<'q>> = None;
        // The relationship statistics a start from a relationship is weighed with, when the
        // chain has one and they are the graph's as it is now (not after the statement's own
        // writes until the adjacency is built again: see `rel_stats_now`).
        let stats = match ch.rels.is_empty() {
            true => None,
            false => {
                let (stats, current) = self.rel_stats_now();
                #[cfg(test)]
                let current = current && !NO_TYPE_SCAN.get();
                current.then_some(stats)
            }
        };
        let mut cheapest = f64::INFINITY;
        let mut fewest = f64::INFINITY;
        let mut by_cost: Option<Anchor<'q>> = None;
        for (k, n) in ch.nodes.iter().enumerate() {
            let first = first_label(n.pat.labels.as_ref());
            let label = first.and_then(|l| self.g.sym(l));
            if first.is_some() && label.is_none() {
                return Ok((
                    Anchor {
                        node: k,
                        implied: false,
                        access: AnchorAccess::Nothing,
                        estimate: 0.0,
                    },
                    Some(0.0),
                ));
            }
            let mut here = match label {
                Some(l) => Anchor {
                    node: k,
                    implied: false,
                    access: AnchorAccess::LabelScan(l),
                    estimate: self.g.nodes_with_label(l).len() as f64,
                },
                None => Anchor {
                    node: k,
                    implied: false,
                    access: AnchorAccess::AllNodes,
                    estimate: self.g.node_count() as f64,
                },
            };
            if let Some(l) = label {
                for (key, value) in &n.seeks {
                    let mut vars = Vec::new();
                    free_vars(value, &mut vars);
                    let usable = vars.iter().all(|v| {
                        scope
                            .iter()
                            .rposition(|s| **s == **v)
                            .is_none_or(|i| bound[i])
                    });
                    if !usable {
                        continue;
                    }
                    let ks = self.g.sym(key);
                    let (estimate, hits) = if vars.is_empty() {
                        // A constant (literal or parameter): the exact hits, looked up once.
                        match self.eval(value, &Env::new(&[], &[])) {
                            Ok(v) => {
                                let hits = match ks {
                                    Some(ks) if !v.is_null() => {
                                        Arc::unwrap_or_clone(self.lookup(l, ks, &v))
                                    }
                                    _ => Vec::new(),
                                };
                                (hits.len() as f64, Some(hits))
                            }
                            // It fails when rows reach it, if any do.
                            Err(_) => (self.g.seek_estimate(l, ks), None),
                        }
                    } else {
                        (self.g.seek_estimate(l, ks), None)
                    };
                    if estimate < here.estimate {
                        here = Anchor {
                            node: k,
                            implied: false,
                            access: AnchorAccess::Seek {
                                label: l,
                                key,
                                value,
                                hits,
                            },
                            estimate,
                        };
                    }
                }
            }
            // (A start from all nodes reaches every relationship of a type by expanding: a
            // scan of the type always does better.)
            match &stats {
                Some(stats) if !matches!(here.access, AnchorAccess::AllNodes) => {
                    let StartCost { cost, shown, .. } =
                        self.start_cost(ch, k, n, &here, stats, bound);
                    fewest = fewest.min(shown);
                    if cost < cheapest {
                        cheapest = cost;
                        by_cost = Some(here.clone());
                    }
                }
                _ => {}
            }
            if best.as_ref().is_none_or(|b| here.estimate < b.estimate) {
                best = Some(here);
            }
        }
        // A relationship whose scan (of its type, its types, or all relationships; both ways
        // round when undirected) reads fewer rows than the cheapest node start, and costs
        // less with the expansions after it: the chain starts from that scan, as Neo4j's
        // planner starts it. Oracle checks: 20 `KNOWS` between 30 `Person` nodes are scanned
        // when directed, not when undirected; relationships are scanned rather than all
        // nodes; a union of types costs twice its rows (25 `KNOWS|LIKES` between 30 people
        // are expanded, 1 between 10 is scanned), and undirected is scanned only rather than
        // all nodes.
        let mut by_type: Option<(f64, Anchor<'q>)> = None;
        let Some(stats) = stats else {
            let a = best.unwrap_or(Anchor {
                node: 0,
                implied: false,
                access: AnchorAccess::Nothing,
                estimate: 0.0,
            });
            return Ok((a, None));
        };
        for j in 0..ch.rels.len() {
            let Some(scan) = self.rel_scan_cost(ch, j, &stats, bound) else {
                continue;
            };
            // (An undirected union: only rather than all nodes.)
            if (!scan.undirected_union || fewest.is_infinite())
                && scan.cost < cheapest
                && scan.read < fewest
                && by_type.as_ref().is_none_or(|(c, _)| scan.cost < *c)
            {
                let cost = scan.cost;
                by_type = Some((cost, scan.anchor));
            }
        }
        if let Some((cost, a)) = by_type {
            return Ok((a, Some(cost)));
        }
        let cost = by_cost.is_some().then_some(cheapest);
        let a = by_cost.or(best).unwrap_or(Anchor {
            node: 0,
            implied: false,
            access: AnchorAccess::Nothing,
            estimate: 0.0,
        });
        Ok((a, cost))
    }

    /// What starting chain `ch` from a scan of its relationship `j` (of its type, its types,
    /// or all relationships; both ways round when undirected) costs as Neo4j's planner weighs
    /// it, with the expansions after it; `None` for a relationship that cannot be scanned (a
    /// variable length, a bound variable, a type computed per row).
    fn rel_scan_cost<'q>(
        &self,
        ch: &ChainInfo<'q>,
        j: usize,
        stats: &crate::graph::RelStats,
        bound: &[bool],
    ) -> Option<ScanCost<'q>> {
        let r = &ch.rels[j];
        if r.pat.length.is_some() || r.slot.is_some_and(|s| bound[s]) {
            return None;
        }
        // The types as written (`None`: any); a type computed per row is not scanned.
        let (types, count, weight) = match (&r.pat.types, &r.types) {
            (None, _) => (None, self.g.relationship_count() as f64, 1.0),
            (Some(written), Some(ts)) => {
                let count: usize = ts.iter().map(|&t| stats.count(t)).sum();
                let union = matches!(written, LabelExpr::Or(..));
                (
                    Some(ts.clone()),
                    count as f64,
                    if union { 2.0 } else { 1.0 },
                )
            }
            (Some(_), None) => return None,
        };
        let rows = match r.pat.direction {
            Direction::Undirected => 2.0,
            _ => 1.0,
        } * count;
        // The rows whose nodes have the pattern's labels: per way round, the share of each
        // end (`Incoming` reaches a relationship's start nodes, `Outgoing` its end nodes).
        let (a, b) = (&ch.nodes[j], &ch.nodes[j + 1]);
        let ts = types.as_deref().unwrap_or_default();
        let way = |a_side: Dir, b_side: Dir| {
            self.label_share(stats, a, ts, a_side) * self.label_share(stats, b, ts, b_side)
        };
        let labelled = match r.pat.direction {
            Direction::Right => way(Dir::Incoming, Dir::Outgoing),
            Direction::Left => way(Dir::Outgoing, Dir::Incoming),
            Direction::Undirected => {
                (way(Dir::Incoming, Dir::Outgoing) + way(Dir::Outgoing, Dir::Incoming)) / 2.0
            }
        };
        let passed = rows * labelled * node_kept(a, false) * node_kept(b, false) * rel_kept(r);
        // The scan's filter checks both nodes' labels and predicates.
        let checks = predicates(a) + predicates(b) + label_count(a) + label_count(b);
        let start = weight * rows * cost::SCAN + rows * cost::filter(checks);
        let (cost, chain_rows) = self.chain_cost(stats, ch, j, true, start, passed, bound);
        Some(ScanCost {
            anchor: Anchor {
                node: j,
                implied: false,
                access: AnchorAccess::RelScan(types),
                estimate: rows,
            },
            read: weight * rows,
            undirected_union: weight > 1.0 && r.pat.direction == Direction::Undirected,
            start,
            passed,
            cost,
            rows: chain_rows,
        })
    }

    /// What starting a chain at node `k` (pattern `n`, found as `here` says) costs as Neo4j's
    /// planner weighs it, with the expansions after it, and the rows the start reads. An
    /// equality no declared index serves is a scan of its label; a seek through a declared
    /// index finds the hits Neo4j expects, the label's nodes over the index's distinct values
    /// (not those of this value).
    fn start_cost(
        &self,
        ch: &ChainInfo,
        k: usize,
        n: &NodeInfo,
        here: &Anchor,
        stats: &crate::graph::RelStats,
        bound: &[bool],
    ) -> StartCost {
        let shown = match (&here.access, self.shown_as_scan(here)) {
            (_, Some(n)) => n as f64,
            (AnchorAccess::Seek { label, key, .. }, None) => {
                self.g.seek_estimate(*label, self.g.sym(key))
            }
            _ => here.estimate,
        };
        // The nodes the start reads without an index.
        let scanned = match first_label(n.pat.labels.as_ref()) {
            Some(l) => self
                .g
                .sym(l)
                .map_or(0.0, |l| self.g.nodes_with_label(l).len() as f64),
            None => self.g.node_count() as f64,
        };
        let sought =
            usize::from(matches!(here.access, AnchorAccess::Seek { .. }) && shown < scanned);
        let passed = shown * node_kept(n, sought == 1);
        let per_row = match sought {
            1 => cost::INDEX_SEEK,
            _ => cost::SCAN,
        };
        // The start's filter: the predicates the seek does not answer, the labels after the
        // first.
        let checks = predicates(n).saturating_sub(sought) + label_count(n).saturating_sub(1);
        let start = shown * (per_row + cost::filter(checks));
        let (cost, rows) = self.chain_cost(stats, ch, k, false, start, passed, bound);
        StartCost {
            cost,
            shown,
            start,
            passed,
            rows,
        }
    }

    /// Whether the chain (a query's first MATCH, one chain) is better sorted by `p`'s ORDER BY
    /// right after its start, as Neo4j's planner sorts below the expansions when the keys
    /// read one node and that plan costs less (the expansions after the sort run only until
    /// `kept` rows, SKIP plus LIMIT, are found: their cost shrinks by that share of the rows
    /// the chain makes) than the chain's own plan and a `Top` at the end. If so, the chain
    /// starts from that node and sorts its candidates ([`ChainInfo::order`]), and the
    /// projection only cuts (`Shared::sorted_early`).
    fn sort_early<'q>(
        &self,
        chains: &mut [ChainInfo<'q>],
        p: &'q Projection,
        kept: usize,
        bound: &[bool],
        scope: &[Arc<str>],
    ) -> Result<()> {
        let key = p as *const Projection as usize;
        self.sh.sorted_early.borrow_mut().remove(&key);
        let [ch] = chains else {
            return Ok(());
        };
        let Some(planned) = &ch.anchor else {
            return Ok(());
        };
        if ch.shortest.is_some() || ch.general.is_some() {
            return Ok(());
        }
        // The one node of the chain the keys read (through items that are that variable).
        let mut vars = Vec::new();
        for s in &p.order_by {
            super::walk::free_vars(&s.expr, &mut vars);
        }
        let computed_alias = |v: &str| {
            p.items.iter().any(|it| {
                it.alias.as_ref().is_some_and(|a| *a.name == *v)
                    && !matches!(&it.expr.kind, ExprKind::Variable(x) if *x.name == *v)
            })
        };
        let mut target = None;
        for v in &vars {
            if computed_alias(v) {
                return Ok(());
            }
            let Some(slot) = scope.iter().rposition(|s| **s == **v) else {
                return Ok(());
            };
            if bound.get(slot) == Some(&true) {
                continue;
            }
            match ch.nodes.iter().position(|n| n.slot == Some(slot)) {
                Some(t) if target.is_none_or(|x| x == t) => target = Some(t),
                _ => return Ok(()),
            }
        }
        let Some(t) = target else {
            return Ok(());
        };
        let (stats, current) = self.rel_stats_now();
        if !current || ch.rels.iter().any(|r| r.pat.length.is_some()) {
            return Ok(());
        }
        // The chain's own plan, and a `Top` over its rows.
        let (own_cost, own_rows) = match planned.access {
            AnchorAccess::Bound | AnchorAccess::Nothing => return Ok(()),
            AnchorAccess::RelScan(_) => match self.rel_scan_cost(ch, planned.node, &stats, bound) {
                Some(s) => (s.cost, s.rows),
                None => return Ok(()),
            },
            _ => {
                let own = self.start_cost(
                    ch,
                    planned.node,
                    &ch.nodes[planned.node],
                    planned,
                    &stats,
                    bound,
                );
                (own.cost, own.rows)
            }
        };
        let top_cost = own_cost + own_rows * cost::TOP;
        // Sorted right after the start: the start's cost, a sort of the rows it passes on,
        // and the expansions' share of their cost that the kept rows are.
        let sorted_cost = |start: f64, passed: f64, cost: f64, rows: f64| {
            let share = (kept as f64 / rows.max(1.0)).min(1.0);
            start + passed * cost::SORT + share * (cost - start)
        };
        // From node `t`, or from a scan of a relationship it is an end of.
        let mut best: Option<(f64, Anchor<'q>)> = None;
        let mut start = self.plan_start(&ch.nodes[t], bound, scope)?;
        if !matches!(start.access, AnchorAccess::Nothing | AnchorAccess::Bound) {
            let s = self.start_cost(ch, t, &ch.nodes[t], &start, &stats, bound);
            start.node = t;
            start.implied = self.anchor_implied(&ch.nodes[t], &start);
            best = Some((sorted_cost(s.start, s.passed, s.cost, s.rows), start));
        }
        for j in [t.wrapping_sub(1), t] {
            if j >= ch.rels.len() {
                continue;
            }
            let Some(scan) = self.rel_scan_cost(ch, j, &stats, bound) else {
                continue;
            };
            let c = sorted_cost(scan.start, scan.passed, scan.cost, scan.rows);
            let cheaper = best.as_ref().is_none_or(|(b, _)| c < *b);
            #[cfg(test)]
            let cheaper = SORT_AFTER_SCAN.get().unwrap_or(cheaper);
            if !scan.undirected_union && cheaper {
                best = Some((c, scan.anchor));
            }
        }
        let Some((sorted, start)) = best else {
            return Ok(());
        };
        let cheaper = sorted < top_cost;
        #[cfg(test)]
        let cheaper = SORT_EARLY.get().unwrap_or(cheaper);
        if !cheaper {
            return Ok(());
        }
        ch.anchor = Some(start);
        let layout = Layout::new(scope);
        ch.order = Some(EarlySort {
            keys: p
                .order_by
                .iter()
                .map(|s| (self.compile(&s.expr, &layout), s.descending))
                .collect(),
            projection: p,
        });
        self.sh.sorted_early.borrow_mut().insert(key);
        Ok(())
    }

    /// What matching chain `ch` from its planned start costs in all, as Neo4j's cost model
    /// weighs it (see [`Self::start_cost`]; a bound start reads one row): how the leading MATCH
    /// clauses are ordered (`operators::match_group`), as Neo4j plans them as one query graph
    /// from the cheapest start. `None` without current statistics or for a relationship scan
    /// start.
    pub(super) fn chain_plan_cost(
        &self,
        ch: &ChainInfo,
        bound: &[bool],
        scope: &[Arc<str>],
    ) -> Option<f64> {
        if ch.shortest.is_some() || ch.general.is_some() || ch.rels.is_empty() {
            return None;
        }
        let (stats, current) = self.rel_stats_now();
        if !current {
            return None;
        }
        match self.plan_anchor_costed(ch, bound, scope).ok()? {
            (a, None) if matches!(a.access, AnchorAccess::Bound) => Some(
                self.chain_cost(&stats, ch, a.node, false, 0.0, 1.0, bound)
                    .0,
            ),
            (_, cost) => cost,
        }
    }

    /// Whether sorting the rows of leading MATCH `first` (on rows of `before`) by an ORDER BY
    /// before MATCH `next` expands them, and stopping at the `kept` rows, costs less than
    /// keeping the top rows after (Neo4j's choice between `Sort` … `Limit` and `Top`): the
    /// sort costs a tenth per row of `first`'s estimated rows; `next`'s expansions from them
    /// then cost their share of the rows they make that `kept` is. One chain each, `first`'s
    /// from a node, `next`'s from a node `first` bound.
    pub(crate) fn sorts_between(
        &self,
        first: &Match,
        next: &Match,
        before: &[Arc<str>],
        kept: usize,
    ) -> Result<bool> {
        let (stats, current) = self.rel_stats_now();
        if !current || next.optional {
            return Ok(false);
        }
        let mut scope1 = before.to_vec();
        declare_match_vars(first, &mut scope1);
        let (c1, _) =
            self.compile_chains(&first.pattern, &scope1, before.len(), first.where_.as_ref())?;
        let bound1: Vec<bool> = (0..scope1.len()).map(|i| i < before.len()).collect();
        let rows1 = match c1.as_slice() {
            [ch] if ch.shortest.is_none() && ch.general.is_none() => match &ch.anchor {
                // (From a relationship scan: not weighed.)
                Some(a)
                    if !matches!(
                        a.access,
                        AnchorAccess::Bound | AnchorAccess::Nothing | AnchorAccess::RelScan(_)
                    ) =>
                {
                    self.start_cost(ch, a.node, &ch.nodes[a.node], a, &stats, &bound1)
                        .rows
                }
                _ => return Ok(false),
            },
            _ => return Ok(false),
        };
        let mut scope2 = scope1.clone();
        declare_match_vars(next, &mut scope2);
        let (c2, _) =
            self.compile_chains(&next.pattern, &scope2, scope1.len(), next.where_.as_ref())?;
        let bound2: Vec<bool> = (0..scope2.len()).map(|i| i < scope1.len()).collect();
        let (cost2, rows2) = match c2.as_slice() {
            [ch] if ch.shortest.is_none()
                && ch.general.is_none()
                && ch.rels.iter().all(|r| r.pat.length.is_none()) =>
            {
                match &ch.anchor {
                    Some(a) if matches!(a.access, AnchorAccess::Bound) => {
                        self.chain_cost(&stats, ch, a.node, false, 0.0, rows1, &bound2)
                    }
                    _ => return Ok(false),
                }
            }
            _ => return Ok(false),
        };
        let share = (kept as f64 / rows2.max(1.0)).min(1.0);
        let sorted = rows1 * cost::SORT + share * cost2;
        let cheaper = sorted < cost2 + rows2 * cost::TOP;
        #[cfg(test)]
        let cheaper = SORT_EARLY.get().unwrap_or(cheaper);
        Ok(cheaper)
    }

    /// What matching a chain costs from a start, as Neo4j's planner weighs plans (its
    /// cardinality cost model): each operator costs its input rows (a leaf, its own rows)
    /// times a cost per row ([`cost`]). The start (with its filter) costs `start` and passes
    /// on `rows`; then each step of the walk from node `first` (after the first,
    /// `scans_first`: a relationship type scan made it) multiplies the rows by its
    /// relationships per node and its new node's predicates' selectivity.
    #[allow(clippy::too_many_arguments)]
    fn chain_cost(
        &self,
        stats: &crate::graph::RelStats,
        ch: &ChainInfo,
        first: usize,
        scans_first: bool,
        start: f64,
        mut rows: f64,
        bound: &[bool],
    ) -> (f64, f64) {
        let steps =
            super::physical::chain_steps(ch, first, |s| bound.get(s).copied() == Some(true));
        let mut cost = start;
        for st in steps.iter().skip(usize::from(scans_first)) {
            let rel = &ch.rels[st.rel];
            let to = &ch.nodes[st.to];
            let fanout = match (&rel.types, rel.pat.length) {
                (Some(types), None) => self.fanout(stats, &ch.nodes[st.from], to, types, st.dir),
                // Any type, or a variable length: the average degree, and more.
                _ => {
                    let avg =
                        self.g.relationship_count() as f64 / self.g.node_count().max(1) as f64;
                    avg * if rel.pat.length.is_some() { 10.0 } else { 2.0 }
                }
            };
            let expanded = rows * fanout;
            let checks = predicates(to) + label_count(to);
            cost += rows * cost::EXPAND + expanded * cost::filter(checks);
            rows = expanded * node_kept(to, false);
        }
        (cost, rows)
    }

    /// The rows an `Expand` from a node of pattern `from` over `types` in direction `dir` to
    /// one of pattern `to` makes per input row, as Neo4j's planner estimates it from its
    /// count store: per type and way round, the fewer of the relationships whose near node
    /// has `from`'s label and those whose far node has `to`'s, over `from`'s label's nodes
    /// (a pattern without a label: all relationships of the type, all nodes).
    fn fanout(
        &self,
        stats: &crate::graph::RelStats,
        from: &NodeInfo,
        to: &NodeInfo,
        types: &[Sym],
        dir: Dir,
    ) -> f64 {
        // A node pattern's first label: its bit, and its nodes. `Err` when it has a label
        // the count store does not cover (no bit): its share of all nodes is used instead.
        let labelled = |n: &NodeInfo| -> std::result::Result<Option<(u32, f64)>, f64> {
            let Some(l) = first_label(n.pat.labels.as_ref()) else {
                return Ok(None);
            };
            let Some(l) = self.g.sym(l) else {
                return Err(0.0);
            };
            let size = self.g.nodes_with_label(l).len() as f64;
            match self.g.label_mask(&[l]) {
                Some(m) => Ok(Some((m.trailing_zeros(), size))),
                None => Err(size / self.g.node_count().max(1) as f64),
            }
        };
        let all = self.g.node_count().max(1) as f64;
        let (near, far) = (labelled(from), labelled(to));
        let over = match near {
            Ok(Some((_, size))) => size,
            _ => all,
        };
        let way = |t: Sym, d: Dir| -> f64 {
            let count = stats.count(t) as f64;
            // `d` reaches the far node; its reverse, the near one.
            let back = match d {
                Dir::Outgoing => Dir::Incoming,
                _ => Dir::Outgoing,
            };
            let from_side = match near {
                Ok(Some((bit, _))) => stats.count_reaching(t, back, bit) as f64,
                Ok(None) => count,
                Err(share) => count * share,
            };
            let to_side = match far {
                Ok(Some((bit, _))) => stats.count_reaching(t, d, bit) as f64,
                Ok(None) => count,
                Err(share) => count * share,
            };
            from_side.min(to_side)
        };
        let total: f64 = types
            .iter()
            .map(|&t| match dir {
                Dir::Both => way(t, Dir::Outgoing) + way(t, Dir::Incoming),
                d => way(t, d),
            })
            .sum();
        total / over.max(1.0)
    }

    /// The share of the nodes reached over `types` in direction `dir` that have `n`'s first
    /// label: all when the relationships imply it, else the label's share of all nodes.
    fn label_share(
        &self,
        stats: &crate::graph::RelStats,
        n: &NodeInfo,
        types: &[Sym],
        dir: Dir,
    ) -> f64 {
        let Some(l) = first_label(n.pat.labels.as_ref()) else {
            return 1.0;
        };
        let Some(l) = self.g.sym(l) else {
            return 0.0;
        };
        match self.g.label_mask(&[l]) {
            Some(m) if stats.labels_implied(types, dir) & m == m => 1.0,
            _ => self.g.nodes_with_label(l).len() as f64 / self.g.node_count().max(1) as f64,
        }
    }

    /// The graph's relationship statistics as the statement first planned on it (see
    /// `Shared::rel_stats`), and whether they are the graph's as it is now: not when the
    /// statement has written since and the adjacency they come from is not built again (a
    /// relationship scan would then build it, for each row of a MERGE that writes).
    fn rel_stats_now(&self) -> (Arc<crate::graph::RelStats>, bool) {
        let key = self.g as *const crate::graph::Graph as usize;
        let version = self.g.version();
        let mut kept = self.sh.rel_stats.borrow_mut();
        match kept.iter_mut().find(|(g, _, _)| *g == key) {
            Some((_, v, s)) if *v == version => (s.clone(), true),
            // Changed since: read again if that costs nothing.
            Some((_, v, s)) => match self.g.relationship_stats_if_built() {
                Some(fresh) => {
                    (*v, *s) = (version, Arc::new(fresh));
                    (s.clone(), true)
                }
                None => (s.clone(), false),
            },
            None => {
                let s = Arc::new(self.g.relationship_stats());
                kept.push((key, version, s.clone()));
                (s, true)
            }
        }
    }

    /// Whether every candidate the anchor's access yields matches the node's pattern.
    pub(super) fn anchor_implied(&self, n: &NodeInfo, anchor: &Anchor) -> bool {
        let (label, seek) = match &anchor.access {
            AnchorAccess::LabelScan(l) => (*l, None),
            AnchorAccess::Seek {
                label,
                key,
                value,
                hits: Some(_),
            } => (*label, Some((*key, *value))),
            _ => return false,
        };
        let one_label = matches!(&n.plain_labels, Some(Some(ls)) if ls.as_slice() == [label]);
        let Some(checks) = &n.checks else {
            return false;
        };
        one_label
            && match seek {
                None => checks.is_empty(),
                Some((key, value)) => match (checks.as_slice(), self.constant(value)) {
                    ([c], Some(v)) => {
                        c.op == BinaryOp::Eq
                            && c.key.is_some()
                            && c.key == self.g.sym(key)
                            && c.value.equals(&v) == Some(true)
                            // The index groups NaN with NaN; `=` does not.
                            && !matches!(v, Value::Float(f) if f.is_nan())
                    }
                    _ => false,
                },
            }
    }

    /// The node's predicates as compiled property comparisons, when all of them are.
    pub(super) fn compile_checks(&self, n: &NodeInfo) -> Option<Vec<PropCheck>> {
        let var = n.pat.variable.as_ref().map(|v| v.name.as_str());
        let mut out = Vec::new();
        if let Some(props) = &n.pat.properties {
            let ExprKind::Map(entries) = &props.kind else {
                return None;
            };
            for (k, e) in entries {
                out.push(PropCheck {
                    members: None,
                    key: self.g.sym(&k.name),
                    op: BinaryOp::Eq,
                    value: self.constant(e)?,
                    prop_first: true,
                });
            }
        }
        let inline = n.pat.where_.as_ref().map(conjuncts).unwrap_or_default();
        for c in inline.into_iter().chain(n.filters.iter().copied()) {
            out.push(self.compile_check(c, var?)?);
        }
        Some(out)
    }

    /// `var.key <op> constant` or `constant <op> var.key`.
    pub(super) fn compile_check(&self, c: &Expr, var: &str) -> Option<PropCheck> {
        let (op, first, second) = match &c.kind {
            ExprKind::Binary { op, lhs, rhs } => (op, &**lhs, &**rhs),
            ExprKind::Comparison { first, rest } => match rest.as_slice() {
                [(op, second)] => (op, &**first, second),
                _ => return None,
            },
            _ => return None,
        };
        if !matches!(
            op,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        ) {
            return None;
        }
        fn prop_of<'e>(e: &'e Expr, var: &str) -> Option<&'e str> {
            match &e.kind {
                ExprKind::Property { expr, key } => match &expr.kind {
                    ExprKind::Variable(v) if v.name == var => Some(key.name.as_str()),
                    _ => None,
                },
                _ => None,
            }
        }
        let (key, value, prop_first) = match (prop_of(first, var), prop_of(second, var)) {
            (Some(k), None) => (k, self.constant(second)?, true),
            (None, Some(k)) => (k, self.constant(first)?, false),
            _ => return None,
        };
        Some(PropCheck {
            members: None,
            key: self.g.sym(key),
            op: *op,
            value,
            prop_first,
        })
    }

    /// The value of a literal or a parameter (constants for the whole statement).
    pub(super) fn constant(&self, e: &Expr) -> Option<Value> {
        match &e.kind {
            ExprKind::Literal(_) | ExprKind::Parameter(_) => self.eval(e, &Env::new(&[], &[])).ok(),
            _ => None,
        }
    }

    /// Turns the node's `key = scalar` checks into bitmap membership tests (see
    /// [`PropCheck::members`]). Only scalars whose `=` is the index's equivalence qualify
    /// (not NaN, lists or maps, where null elements make `=` null).
    pub(super) fn index_checks(&self, n: &mut NodeInfo) {
        let Some(Some(labels)) = &n.plain_labels else {
            return;
        };
        let Some(&label) = labels.first() else {
            return;
        };
        let Some(checks) = &mut n.checks else {
            return;
        };
        for c in checks.iter_mut() {
            let scalar = match &c.value {
                Value::String(_) | Value::Int(_) | Value::Bool(_) => true,
                Value::Float(f) => !f.is_nan(),
                _ => false,
            };
            let (BinaryOp::Eq, Some(key), true) = (c.op, c.key, scalar) else {
                continue;
            };
            let hits = self.lookup(label, key, &c.value);
            let mut bits = vec![0u64; self.g.node_id_bound().div_ceil(64)];
            for h in hits.iter() {
                let i = h.0 as usize;
                if let Some(w) = bits.get_mut(i / 64) {
                    *w |= 1 << (i % 64);
                }
            }
            c.members = Some(Arc::new(bits));
        }
    }

    /// A node pattern's matching information, with the seeks its inline `{key: value}` map
    /// and inline `WHERE v.key = value` offer.
    pub(super) fn node_info<'q>(&self, n: &'q NodePattern, slot: Option<usize>) -> NodeInfo<'q> {
        let mut info = NodeInfo {
            slot,
            pat: n,
            plain_labels: self.plain_label_syms(n.labels.as_ref()),
            filters: Vec::new(),
            seeks: Vec::new(),
            checks: None,
            start: None,
            exprs: None,
        };
        if let Some(props) = &n.properties {
            if let ExprKind::Map(entries) = &props.kind {
                for (k, v) in entries {
                    info.seeks.push((k.name.as_str(), v));
                }
            }
        }
        if let (Some(w), Some(var)) = (&n.where_, &n.variable) {
            for c in conjuncts(w) {
                if let Some(seek) = equality_seek(c, &var.name) {
                    info.seeks.push(seek);
                }
            }
        }
        info
    }

    pub(super) fn rel_info<'q>(
        &self,
        r: &'q RelationshipPattern,
        slot: Option<usize>,
    ) -> RelInfo<'q> {
        RelInfo {
            slot,
            pat: r,
            types: r.types.as_ref().and_then(|t| self.simple_types(t)),
            filters: Vec::new(),
            exprs: None,
        }
    }

    /// An element's property map, inline WHERE and pushed-down filters, compiled.
    pub(super) fn element_exprs<'q>(
        &self,
        props: Option<&'q Expr>,
        where_: Option<&'q Expr>,
        filters: &[&'q Expr],
        layout: &Layout,
    ) -> ElementExprs<'q> {
        ElementExprs {
            props: props.map(|p| match &p.kind {
                ExprKind::Map(entries) => CProps::Entries(
                    entries
                        .iter()
                        .map(|(k, e)| (k.name.as_str(), self.compile(e, layout)))
                        .collect(),
                ),
                _ => CProps::Whole(self.compile(p, layout)),
            }),
            where_: where_.map(|w| self.compile(w, layout)),
            filters: filters.iter().map(|f| self.compile(f, layout)).collect(),
        }
    }

    /// Compiles the elements of a chain matched by `match_general`. Quantified relationships
    /// become one-relationship groups; unquantified parenthesized paths are inlined.
    pub(super) fn compile_general<'q>(
        &self,
        elements: &'q [PathElement],
        slot: &dyn Fn(&Option<Ident>) -> Option<usize>,
        old_len: usize,
        in_group: bool,
    ) -> Result<Vec<GElem<'q>>> {
        let mut out = Vec::new();
        for el in elements {
            match el {
                PathElement::Node(n) => out.push(GElem::Node(self.node_info(n, slot(&n.variable)))),
                PathElement::Relationship(r) => {
                    let info = self.rel_info(r, slot(&r.variable));
                    match r.quantifier {
                        None => out.push(GElem::Rel(info)),
                        Some(q) => {
                            if in_group || r.length.is_some() {
                                return Err(ExecError::unsupported(
                                    "nested quantifiers in a pattern",
                                ));
                            }
                            let (min, max) = q.bounds();
                            let slots = info.slot.filter(|&s| s >= old_len).into_iter().collect();
                            out.push(GElem::Group(GroupInfo {
                                elems: vec![GElem::Rel(info)],
                                min,
                                max,
                                where_: None,
                                slots,
                            }));
                        }
                    }
                }
                PathElement::Group(g) => {
                    if g.variable.is_some() {
                        return Err(ExecError::unsupported(
                            "path variables inside parenthesized path patterns",
                        ));
                    }
                    match g.quantifier {
                        None => {
                            out.extend(self.compile_general(
                                &g.chain.elements,
                                slot,
                                old_len,
                                in_group,
                            )?);
                            if let Some(w) = &g.where_ {
                                out.push(GElem::Filter(w));
                            }
                        }
                        Some(q) => {
                            if in_group {
                                return Err(ExecError::unsupported(
                                    "nested quantified path patterns",
                                ));
                            }
                            let elems =
                                self.compile_general(&g.chain.elements, slot, old_len, true)?;
                            if elems
                                .iter()
                                .any(|e| matches!(e, GElem::Rel(r) if r.pat.length.is_some()))
                            {
                                return Err(ExecError::unsupported(
                                    "variable-length relationships inside quantified path patterns",
                                ));
                            }
                            let mut slots = Vec::new();
                            let mut vars = Vec::new();
                            declare_chain_vars(&g.chain, &mut vars);
                            for v in vars {
                                let s = slot(&Some(Ident {
                                    name: v.to_string(),
                                    span: g.span,
                                }));
                                if let Some(s) = s.filter(|&s| s >= old_len) {
                                    if !slots.contains(&s) {
                                        slots.push(s);
                                    }
                                }
                            }
                            let (min, max) = q.bounds();
                            out.push(GElem::Group(GroupInfo {
                                elems,
                                min,
                                max,
                                where_: g.where_.as_ref(),
                                slots,
                            }));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// Label symbols for a plain name or conjunction of names (`None` for other expressions).
    pub(super) fn plain_label_syms(&self, l: Option<&LabelExpr>) -> Option<Option<Vec<Sym>>> {
        let names: Vec<&str> = match l? {
            LabelExpr::Name(i) => vec![i.name.as_str()],
            LabelExpr::And(xs, _) => {
                let mut v = Vec::new();
                for x in xs {
                    match x {
                        LabelExpr::Name(i) => v.push(i.name.as_str()),
                        _ => return None,
                    }
                }
                v
            }
            _ => return None,
        };
        Some(names.iter().map(|n| self.g.sym(n)).collect())
    }

    /// Type symbols for a plain type or disjunction of plain types; `None` otherwise.
    pub(super) fn simple_types(&self, t: &LabelExpr) -> Option<Vec<Sym>> {
        match t {
            LabelExpr::Name(i) => Some(self.g.sym(&i.name).into_iter().collect()),
            LabelExpr::Or(xs, _) => {
                let mut out = Vec::new();
                for x in xs {
                    match x {
                        LabelExpr::Name(i) => out.extend(self.g.sym(&i.name)),
                        _ => return None,
                    }
                }
                Some(out)
            }
            _ => None,
        }
    }
}

/// The node a general chain's matching starts from, as `Runner::gmatch` reaches it with an empty
/// path: its first element, or the first element of a leading group that repeats at least once.
/// (Any other chain starts from every node.)
pub(super) fn leading_node_mut<'a, 'q>(elems: &'a mut [GElem<'q>]) -> Option<&'a mut NodeInfo<'q>> {
    match elems.first_mut()? {
        GElem::Node(n) => Some(n),
        GElem::Group(g) if g.min > 0 => match g.elems.first_mut()? {
            GElem::Node(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

/// [`leading_node_mut`], read-only.
pub(super) fn leading_node<'a, 'q>(elems: &'a [GElem<'q>]) -> Option<&'a NodeInfo<'q>> {
    match elems.first()? {
        GElem::Node(n) => Some(n),
        GElem::Group(g) if g.min > 0 => match g.elems.first()? {
            GElem::Node(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

/// The selectivity the planner assumes for `n` predicates it cannot estimate.
/// What starting a chain at a node costs (`Runner::start_cost`): in all, and the start itself
/// (with its filter); the rows the start reads and passes on; the rows the chain makes.
struct StartCost {
    cost: f64,
    shown: f64,
    start: f64,
    passed: f64,
    rows: f64,
}

/// What a start from a relationship scan costs (`Runner::rel_scan_cost`).
struct ScanCost<'q> {
    anchor: Anchor<'q>,
    /// The rows the scan reads, a union of types counted twice.
    read: f64,
    /// An undirected scan of a union of types (planned only rather than all nodes).
    undirected_union: bool,
    /// The scan and its filter.
    start: f64,
    /// The rows the scan's filter passes on.
    passed: f64,
    /// The whole chain, and its rows.
    cost: f64,
    rows: f64,
}

/// Neo4j's planner's costs per row (its cardinality cost model): a leaf's per row it makes,
/// any other operator's per row it reads.
mod cost {
    /// A sort's input row.
    pub(super) const SORT: f64 = 0.1;
    /// A `Top`'s input row.
    pub(super) const TOP: f64 = 0.0;
    /// A label scan's or a relationship type scan's row.
    pub(super) const SCAN: f64 = 1.0;
    /// An index seek's row.
    pub(super) const INDEX_SEEK: f64 = 1.9;
    /// An expansion's input row.
    pub(super) const EXPAND: f64 = 1.5;
    /// The share of rows an equality keeps, a range, any other predicate (see
    /// `predicate_selectivity`).
    pub(super) const EQUALITY: f64 = 0.05;
    pub(super) const RANGE: f64 = 0.3;
    pub(super) const OTHER: f64 = 0.1;

    /// A filter's input row, for `checks` label checks and predicates (each reads the
    /// store once); none without a check (there is no filter).
    pub(super) fn filter(checks: usize) -> f64 {
        checks as f64
    }
}

/// How many labels a node pattern names.
fn label_count(n: &NodeInfo) -> usize {
    match &n.plain_labels {
        Some(Some(ls)) => ls.len(),
        _ => usize::from(n.pat.labels.is_some()),
    }
}

/// The share of rows a predicate keeps, as Neo4j's planner estimates it without an index's
/// statistics (oracle, on 1,000 `Officer` and 72 `Book` nodes): an equality 5% (10% for the
/// value times 50% for the property being there: `x.name = $v` is estimated at 50 of 1,000),
/// a range 30% (`b.year < $v`: 21.6 of 72), anything else 10%.
fn predicate_selectivity(e: &Expr) -> f64 {
    match &e.kind {
        ExprKind::Binary {
            op: BinaryOp::Eq, ..
        } => cost::EQUALITY,
        ExprKind::Comparison { rest, .. } => rest
            .iter()
            .map(|(op, _)| match op {
                BinaryOp::Eq => cost::EQUALITY,
                BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => cost::RANGE,
                _ => cost::OTHER,
            })
            .product(),
        _ => cost::OTHER,
    }
}

/// The share of rows an element's predicates keep: its property map's entries (equalities),
/// its inline `WHERE`'s conjuncts and the filters pushed down to it.
fn kept(props: Option<&Expr>, where_: Option<&Expr>, filters: &[&Expr]) -> f64 {
    let map = cost::EQUALITY.powi(map_entries(props).min(64) as i32);
    let conjuncts = where_.map(conjuncts).unwrap_or_default();
    conjuncts
        .into_iter()
        .chain(filters.iter().copied())
        .map(predicate_selectivity)
        .product::<f64>()
        * map
}

/// [`kept`] of a node pattern; `sought`: but for the equality an index seek answers.
fn node_kept(n: &NodeInfo, sought: bool) -> f64 {
    let k = kept(n.pat.properties.as_ref(), n.pat.where_.as_ref(), &n.filters);
    match sought {
        true => (k / cost::EQUALITY).min(1.0),
        false => k,
    }
}

/// [`kept`] of a relationship pattern.
fn rel_kept(r: &RelInfo) -> f64 {
    kept(r.pat.properties.as_ref(), r.pat.where_.as_ref(), &r.filters)
}

/// How many predicates a node pattern has besides its labels: property map entries, inline
/// `WHERE` conjuncts and the conjuncts pushed down to it.
fn predicates(n: &NodeInfo) -> usize {
    map_entries(n.pat.properties.as_ref())
        + n.pat.where_.as_ref().map_or(0, |w| conjuncts(w).len())
        + n.filters.len()
}

fn map_entries(props: Option<&Expr>) -> usize {
    match props.map(|p| &p.kind) {
        None => 0,
        Some(ExprKind::Map(entries)) => entries.len(),
        Some(_) => 1,
    }
}
