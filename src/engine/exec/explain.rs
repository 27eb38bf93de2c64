//! The plan of a `MATCH`: the same compiled chains and anchors the executor runs, described as
//! operators (`NodeIndexSeek`, `NodeByLabelScan`, `Expand(All)`, `Filter`, …) with estimates
//! from the graph's statistics.

use super::compile::leading_node;
use super::*;
use crate::plan::Plan;

/// Names for pattern elements without a variable (`anon_0`, `anon_1`, …), as Neo4j's plans
/// print them.
#[derive(Default)]
pub(crate) struct Anon(usize);

impl Anon {
    pub(crate) fn name(&mut self, v: &Option<Ident>) -> String {
        match v {
            Some(v) => v.name.clone(),
            None => {
                let n = format!("anon_{}", self.0);
                self.0 += 1;
                n
            }
        }
    }
}

/// Default selectivity of a predicate the planner cannot estimate from statistics.
pub(super) const PREDICATE_SELECTIVITY: f64 = 0.1;

impl Runner<'_> {
    /// The plan of `MATCH` (or `OPTIONAL MATCH`) over `input` (the rows before it; `None` at the
    /// start of a query). `scope` is updated with the pattern's variables, as the executor does.
    pub(crate) fn plan_match(
        &self,
        m: &Match,
        order: Option<&crate::syntax::Projection>,
        scope: &mut Vec<Arc<str>>,
        input: Option<Plan>,
        anon: &mut Anon,
    ) -> Result<Plan> {
        let mut old_len = scope.len();
        let mut new_scope = scope.clone();
        super::matching::declare_match_vars(m, &mut new_scope);
        // A SEARCH clause's variable and score are bound by the index search the pattern
        // starts from.
        let search = m.search.as_ref().map(|s| {
            let bound = [Some(&s.variable), s.score.as_ref()]
                .into_iter()
                .flatten()
                .filter_map(|v| new_scope.iter().position(|x| **x == *v.name))
                .max()
                .map_or(old_len, |i| i + 1);
            (s, bound)
        });
        let first_len = old_len;
        if let Some((_, bound)) = search {
            old_len = old_len.max(bound);
        }
        // As the executor decides (`operators::match_`).
        let order = order.and_then(|p| Some((p, super::operators::rows_needed(self, p)?)));
        let (chains, rest) =
            self.compile_chains_ordered(&m.pattern, &new_scope, old_len, m.where_.as_ref(), order)?;
        // An OPTIONAL MATCH after other clauses runs per incoming row, over an `Argument`; so
        // does a search after other clauses.
        let per_row = input.is_some() && (m.optional || search.is_some());
        // Under PROFILE: an OPTIONAL MATCH's `Argument` and `Optional` read the rows its step
        // counts (`operators::match_`).
        let key = m as *const Match as usize;
        let probe = |p: Plan, counter: usize| match self.sh.profile.is_some() && m.optional {
            true => p.probed(crate::plan::Probe::Step(key, counter)),
            false => p,
        };
        let mut cur = if per_row {
            let arg =
                Plan::leaf("Argument", scope.join(", ")).bind(scope.iter().map(|s| s.to_string()));
            Some(probe(arg, super::counter::OPTIONAL_ARGUMENT))
        } else {
            input.clone()
        };
        if let Some((s, _)) = search {
            let details = crate::syntax::search_text(s);
            let op = match m.pattern.first().map(|p| p.path.chain()) {
                Some(c) if m.searches_relationship() => match c.elements.get(1) {
                    Some(crate::syntax::PathElement::Relationship(r))
                        if r.direction != crate::syntax::Direction::Undirected =>
                    {
                        "DirectedRelationshipVectorIndexSearch"
                    }
                    _ => "UndirectedRelationshipVectorIndexSearch",
                },
                _ => "NodeVectorIndexSearch",
            };
            let names: Vec<String> = new_scope[first_len..old_len]
                .iter()
                .map(|v| v.to_string())
                .collect();
            let leaf = Plan::leaf(op, details).bind(names);
            cur = Some(match cur {
                Some(lhs) => {
                    let mut apply = Plan::over("Apply", "", lhs).bind(leaf.identifiers.clone());
                    apply.children.push(leaf);
                    apply
                }
                None => leaf,
            });
        }
        let mut bound: Vec<bool> = (0..new_scope.len()).map(|i| i < old_len).collect();
        // In the planner's join order (`compile::join_order`).
        for ch in &chains {
            let Some(part) = ch.source else {
                continue;
            };
            cur = Some(self.plan_chain(ch, part, cur, &bound, anon)?);
            let mut names = Vec::new();
            declare_pattern_vars(std::slice::from_ref(part), &mut names);
            for n in names {
                if let Some(i) = new_scope.iter().position(|s| *s == n) {
                    bound[i] = true;
                }
            }
        }
        let mut plan = cur.unwrap_or_else(|| Plan::leaf("Argument", ""));
        if let Some(w) = &rest {
            let (p, preds) = crate::engine::planner::plan_predicates(
                self,
                &[],
                Some(w),
                &new_scope,
                plan,
                anon,
            )?;
            plan = filter(p, preds);
        }
        if per_row && search.is_none() {
            if m.optional {
                plan = Plan::over("Optional", new_scope[old_len..].join(", "), plan);
                plan = probe(plan, super::counter::OPTIONAL);
            }
            let lhs = input.expect("per-row plans have an input");
            let rows =
                lhs.estimated_rows * plan.estimated_rows.max(if m.optional { 1.0 } else { 0.0 });
            let mut apply = Plan::over("Apply", "", lhs).bind(plan.identifiers.clone());
            apply.children.push(plan);
            plan = apply.estimate(rows);
        } else if m.optional {
            plan = Plan::over("Optional", new_scope[old_len..].join(", "), plan);
            plan.estimated_rows = plan.estimated_rows.max(1.0);
            plan = probe(plan, super::counter::OPTIONAL);
        }
        *scope = new_scope;
        Ok(plan)
    }

    /// One chain on top of `input`: its start (seek, scan or the bound node), then one expand
    /// per relationship in the order the executor walks them, with the filters in between.
    fn plan_chain(
        &self,
        ch: &ChainInfo,
        part: &PatternPart,
        input: Option<Plan>,
        bound: &[bool],
        anon: &mut Anon,
    ) -> Result<Plan> {
        let anchor = match &ch.anchor {
            Some(a) if ch.shortest.is_none() && ch.general.is_none() => a,
            _ => return self.plan_other_chain(ch, part, input, anon),
        };
        let names: Vec<String> = ch
            .nodes
            .iter()
            .map(|n| anon.name(&n.pat.variable))
            .collect();
        let rel_names: Vec<String> = ch.rels.iter().map(|r| anon.name(&r.pat.variable)).collect();
        let k = anchor.node;
        let start = &ch.nodes[k];
        let v = &names[k];
        // A relationship type scan is the chain's first step (its relationship `k`, from node
        // `k` to the next); a node start is step 0.
        let scans_type = matches!(anchor.access, AnchorAccess::RelScan(_));
        let mut plan = match scans_type {
            true => self.rel_scan_plan(ch, anchor, &names, &rel_names, input),
            false => self.start_plan(anchor, start, v, input),
        };
        if !matches!(anchor.access, AnchorAccess::Bound) {
            // Under PROFILE: the start nodes that passed (the operator that ends the step).
            if self.sh.profile.is_some() {
                top_of_step(
                    &mut plan,
                    part as *const PatternPart as usize,
                    usize::from(scans_type),
                );
            }
        }
        if let Some(order) = &ch.order {
            // Sorted right after the start: the keys projected for the start's rows (all of
            // which the executor sorts), then the sort, which counts the rows it handed on.
            let key = part as *const PatternPart as usize;
            let probe = |counter: usize| {
                self.sh
                    .profile
                    .as_ref()
                    .map(|_| crate::plan::Probe::Step(key, counter))
            };
            plan = sort_on(
                self,
                order.projection,
                plan,
                anon,
                probe(usize::from(scans_type)),
                probe(super::counter::SORTED),
            );
        }
        // The steps the pipeline runs (`physical::chain_steps`).
        let steps = super::physical::chain_steps(ch, k, |s| bound.get(s).copied().unwrap_or(false));
        let avg_degree = self.g.relationship_count() as f64 / (self.g.node_count().max(1)) as f64;
        for (step, st) in steps.iter().enumerate().skip(usize::from(scans_type)) {
            let (j, forward, from, to) = (st.rel, st.forward, st.from, st.to);
            let rel = &ch.rels[j];
            let into = st.target != super::physical::Target::New;
            let arrow = rel_text(rel.pat, &rel_names[j], forward);
            let details = format!("({}){arrow}({})", names[from], names[to]);
            let (op, fanout) = match rel.pat.length {
                Some(len) => {
                    let (min, max) = len.bounds();
                    let hops = max.unwrap_or(min.max(1) + 2).min(8) as i32;
                    let kind = if into { "Into" } else { "All" };
                    (
                        format!("VarLengthExpand({kind})"),
                        avg_degree.max(1.0).powi(hops),
                    )
                }
                None if into => ("Expand(Into)".to_string(), avg_degree.min(1.0)),
                None => ("Expand(All)".to_string(), avg_degree),
            };
            let fanout = if rel.pat.direction == Direction::Undirected {
                fanout * 2.0
            } else {
                fanout
            };
            let rows = plan.estimated_rows * fanout;
            plan = Plan::over(op, details, plan)
                .bind([rel_names[j].clone(), names[to].clone()])
                .estimate(rows);
            let mut preds = self.rel_predicates(rel, &rel_names[j]);
            preds.extend(self.node_predicates(&ch.nodes[to], &names[to], None, None));
            plan = filter(plan, preds);
            if self.sh.profile.is_some() {
                top_of_step(&mut plan, part as *const PatternPart as usize, step + 1);
            }
        }
        if let Some(p) = &part.variable {
            plan = plan.bind([p.name.clone()]);
        }
        Ok(plan)
    }

    /// The start of a chain as operators: the seek or scan its anchor chose for node `start`
    /// (named `v`) on top of `input`, with a filter of the node's other predicates — or
    /// `input` itself when the node is bound.
    fn start_plan(&self, anchor: &Anchor, start: &NodeInfo, v: &str, input: Option<Plan>) -> Plan {
        let v = &v.to_string();
        let mut skip: Option<(&str, &Expr)> = None;
        let leaf = match &anchor.access {
            AnchorAccess::Bound => None,
            AnchorAccess::Seek {
                label, key, value, ..
            } => {
                let name = self.g.sym_name(*label);
                if self.g.declares_seekable_index(name, key) {
                    skip = Some((key, value));
                    Some(Plan::leaf(
                        "NodeIndexSeek",
                        format!("{v}:{name}({key}) WHERE {key} = {}", self.text(value)),
                    ))
                } else {
                    // No index the user declared: the scan and filter Neo4j plans (the
                    // equality stays in the filter).
                    Some(Plan::leaf("NodeByLabelScan", format!("{v}:{name}")))
                }
            }
            AnchorAccess::LabelScan(l) => Some(Plan::leaf(
                "NodeByLabelScan",
                format!("{v}:{}", self.g.sym_name(*l)),
            )),
            AnchorAccess::AllNodes => Some(Plan::leaf("AllNodesScan", v.clone())),
            // (Planned by `rel_scan_plan`.)
            AnchorAccess::RelScan(_) => None,
            AnchorAccess::Nothing => Some(Plan::leaf(
                "NodeByLabelScan",
                format!(
                    "{v}:{}",
                    first_label(start.pat.labels.as_ref()).unwrap_or("")
                ),
            )),
        };
        let plan = match leaf {
            None => input.unwrap_or_else(|| Plan::leaf("Argument", v.clone()).bind([v.clone()])),
            Some(leaf) => {
                let leaf = leaf.bind([v.clone()]).estimate(anchor.estimate);
                let reads_rows = matches!(&anchor.access, AnchorAccess::Seek { hits: None, .. });
                on_input(leaf, input, reads_rows)
            }
        };
        let scan_label = match &anchor.access {
            AnchorAccess::Seek { label, .. } | AnchorAccess::LabelScan(label) => {
                Some(self.g.sym_name(*label).to_string())
            }
            AnchorAccess::Bound => return plan,
            _ => None,
        };
        let preds = self.node_predicates(start, v, scan_label.as_deref(), skip);
        filter(plan, preds)
    }

    /// The start of a chain from a relationship type scan (`anchor.node` is the
    /// relationship): the scan, then a filter of its two nodes' and its own predicates.
    fn rel_scan_plan(
        &self,
        ch: &ChainInfo,
        anchor: &Anchor,
        names: &[String],
        rel_names: &[String],
        input: Option<Plan>,
    ) -> Plan {
        let j = anchor.node;
        let rel = &ch.rels[j];
        let (a, r, b) = (&names[j], &rel_names[j], &names[j + 1]);
        // Neo4j writes a directed scan's pattern from its start node.
        let (way, details) = match rel.pat.direction {
            Direction::Left => (
                "Directed",
                format!("({b}){}({a})", rel_text(rel.pat, r, false)),
            ),
            d => (
                if d == Direction::Undirected {
                    "Undirected"
                } else {
                    "Directed"
                },
                format!("({a}){}({b})", rel_text(rel.pat, r, true)),
            ),
        };
        let what = match &rel.pat.types {
            None => "AllRelationshipsScan",
            Some(LabelExpr::Or(..)) => "UnionRelationshipTypesScan",
            Some(_) => "RelationshipTypeScan",
        };
        let op = format!("{way}{what}");
        let leaf = Plan::leaf(op, details)
            .bind([a.clone(), r.clone(), b.clone()])
            .estimate(anchor.estimate);
        let plan = on_input(leaf, input, false);
        let mut preds = self.node_predicates(&ch.nodes[j], a, None, None);
        preds.extend(self.rel_predicates(rel, r));
        preds.extend(self.node_predicates(&ch.nodes[j + 1], b, None, None));
        // `(x)-[:T]-(x)`: both sides one node.
        if ch.nodes[j].slot.is_some() && ch.nodes[j].slot == ch.nodes[j + 1].slot {
            preds.push(format!("{a} = {b}"));
        }
        filter(plan, preds)
    }

    /// Shortest paths and quantified patterns: matched from their first node by the
    /// executor's path search.
    fn plan_other_chain(
        &self,
        ch: &ChainInfo,
        part: &PatternPart,
        input: Option<Plan>,
        anon: &mut Anon,
    ) -> Result<Plan> {
        let text = self.text_span(part.span);
        let op = match (ch.shortest, &ch.general) {
            (Some(true), _) => "ShortestPath(all)",
            (Some(false), _) => "ShortestPath",
            (None, Some(g)) if g.selector.is_some() => "StatefulShortestPath(All)",
            _ => "Repeat(Trail)",
        };
        // Where the search starts: the first node of a shortest path, the leading node of a
        // quantified pattern, found as the planner chose.
        let start = match (ch.shortest, &ch.general) {
            (Some(_), _) => ch.anchor.as_ref().zip(ch.nodes.first()),
            (None, Some(g)) => leading_node(&g.elems).and_then(|n| n.start.as_ref().zip(Some(n))),
            _ => None,
        };
        let input = match start {
            Some((anchor, node)) => {
                let v = anon.name(&node.pat.variable);
                let mut plan = self.start_plan(anchor, node, &v, input);
                // Under PROFILE: the start nodes the search tried and those that matched.
                if self.sh.profile.is_some() && !matches!(anchor.access, AnchorAccess::Bound) {
                    top_of_step(&mut plan, part as *const PatternPart as usize, 0);
                }
                plan
            }
            None => input.unwrap_or_else(|| Plan::leaf("Argument", "")),
        };
        let mut names = Vec::new();
        declare_pattern_vars(std::slice::from_ref(part), &mut names);
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let rows = input.estimated_rows.max(1.0);
        Ok(Plan::over(op, text, input).bind(names).estimate(rows))
    }

    /// The predicates a node pattern checks, as text: labels (except the one scanned),
    /// properties (except the one sought), inline and pushed-down WHERE.
    fn node_predicates(
        &self,
        n: &NodeInfo,
        v: &str,
        scanned: Option<&str>,
        sought: Option<(&str, &Expr)>,
    ) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(l) = &n.pat.labels {
            match &n.plain_labels {
                Some(Some(syms)) => {
                    for s in syms {
                        let name = self.g.sym_name(*s);
                        if Some(&**name) != scanned {
                            out.push(format!("{v}:{name}"));
                        }
                    }
                }
                _ => out.push(format!(
                    "{v}:{}",
                    crate::syntax::print_label_expr(l).trim_start_matches(':')
                )),
            }
        }
        let is_sought =
            |k: &str, e: &Expr| sought.is_some_and(|(sk, se)| sk == k && std::ptr::eq(se, e));
        if let Some(props) = &n.pat.properties {
            match &props.kind {
                ExprKind::Map(entries) => {
                    for (k, e) in entries {
                        if !is_sought(&k.name, e) {
                            out.push(format!("{v}.{} = {}", k.name, self.text(e)));
                        }
                    }
                }
                _ => out.push(format!("{v} = {}", self.text(props))),
            }
        }
        if let Some(w) = &n.pat.where_ {
            for c in conjuncts(w) {
                if !equality_seek(c, v).is_some_and(|(k, e)| is_sought(k, e)) {
                    out.push(self.text(c));
                }
            }
        }
        for c in &n.filters {
            if !equality_seek(c, v).is_some_and(|(k, e)| is_sought(k, e)) {
                out.push(self.text(c));
            }
        }
        out
    }

    fn rel_predicates(&self, r: &RelInfo, v: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(props) = &r.pat.properties {
            match &props.kind {
                ExprKind::Map(entries) => {
                    for (k, e) in entries {
                        out.push(format!("{v}.{} = {}", k.name, self.text(e)));
                    }
                }
                _ => out.push(format!("{v} = {}", self.text(props))),
            }
        }
        if let Some(w) = &r.pat.where_ {
            out.push(self.text(w));
        }
        for c in &r.filters {
            out.push(self.text(c));
        }
        out
    }

    /// An expression as the query wrote it (printed when it has no text, e.g. one the
    /// planner assembled).
    pub(crate) fn text(&self, e: &Expr) -> String {
        match self.sh.src.get(e.span.start..e.span.end) {
            Some(t) if !t.trim().is_empty() => t.trim().to_string(),
            _ => crate::syntax::print_expr(e, &Default::default()),
        }
    }

    fn text_span(&self, span: crate::syntax::Span) -> String {
        self.sh
            .src
            .get(span.start..span.end)
            .unwrap_or_default()
            .to_string()
    }
}

/// A chain's start (`leaf`) on the rows before it: the leaf itself at the start of a query or
/// under an `Apply`'s `Argument`, else beside them, once per row (`Apply` when the start
/// reads the row, `reads_rows`; otherwise `CartesianProduct`).
fn on_input(leaf: Plan, input: Option<Plan>, reads_rows: bool) -> Plan {
    match input {
        None => leaf,
        // Under an Apply, the seek or scan is the per-row side itself.
        Some(lhs) if lhs.operator == "Argument" && lhs.children.is_empty() => {
            leaf.bind(lhs.identifiers)
        }
        Some(lhs) => {
            let rows = lhs.estimated_rows * leaf.estimated_rows;
            let op = if reads_rows {
                "Apply"
            } else {
                "CartesianProduct"
            };
            let mut p = Plan::over(op, "", lhs).bind(leaf.identifiers.clone());
            p.children.push(leaf);
            p.estimate(rows)
        }
    }
}

/// `input` under a `Filter` of the conjunction of `preds` (none: `input` itself).
/// `input` sorted by `p`'s ORDER BY below the rest of the plan (`Limit` above it, not `Top`):
/// the keys that are not variables projected (`Projection`, read by `projected`), then `Sort`
/// (read by `sorted`: the rows it handed on, pulled until the limit had its rows).
pub(crate) fn sort_on(
    run: &Runner,
    p: &crate::syntax::Projection,
    input: Plan,
    anon: &mut Anon,
    projected: Option<crate::plan::Probe>,
    sorted: Option<crate::plan::Probe>,
) -> Plan {
    let rows = input.estimated_rows;
    let mut plan = input;
    let computed: Vec<String> = p
        .order_by
        .iter()
        .filter(|s| !matches!(s.expr.kind, crate::syntax::ExprKind::Variable(_)))
        .map(|s| format!("{} AS {}", run.text(&s.expr), anon.name(&None)))
        .collect();
    if !computed.is_empty() {
        plan = Plan::over("Projection", computed.join(", "), plan).estimate(rows);
        plan.probe = projected;
    }
    let keys = p
        .order_by
        .iter()
        .map(|s| {
            let dir = if s.descending { "DESC" } else { "ASC" };
            format!("{} {dir}", run.text(&s.expr))
        })
        .collect::<Vec<_>>()
        .join(", ");
    plan = Plan::over("Sort", keys, plan).estimate(rows);
    plan.probe = sorted;
    plan
}

pub(crate) fn filter(input: Plan, preds: Vec<String>) -> Plan {
    if preds.is_empty() {
        return input;
    }
    let rows = input.estimated_rows * PREDICATE_SELECTIVITY.powi(preds.len().min(3) as i32);
    Plan::over("Filter", preds.join(" AND "), input).estimate(rows)
}

/// `-[r:T*1..3]->` as walked: reversed when the executor walks the relationship backwards.
fn rel_text(r: &RelationshipPattern, name: &str, forward: bool) -> String {
    let types = r
        .types
        .as_ref()
        .map(crate::syntax::print_label_expr)
        .unwrap_or_default();
    let len = match r.length {
        None => String::new(),
        Some(l) => {
            let (min, max) = l.bounds();
            match max {
                Some(m) if m == min => format!("*{min}"),
                Some(m) => format!("*{min}..{m}"),
                None => format!("*{min}.."),
            }
        }
    };
    let body = format!("[{name}{types}{len}]");
    let dir = match (r.direction, forward) {
        (Direction::Undirected, _) => 0,
        (Direction::Right, true) | (Direction::Left, false) => 1,
        _ => -1,
    };
    match dir {
        1 => format!("-{body}->"),
        -1 => format!("<-{body}-"),
        _ => format!("-{body}-"),
    }
}

/// Under PROFILE, the operator that ends a step of a chain (an expansion or its filter)
/// reports the rows the step passed, unless it already reports another count.
/// A step with a `Filter` on top: the scan, seek or expansion under it reports the rows it
/// produced, before the filter.
fn top_of_step(plan: &mut Plan, part: usize, step: usize) {
    if plan.probe.is_some() {
        return;
    }
    plan.probe = Some(crate::plan::Probe::Step(part, step));
    let before = crate::plan::Probe::Step(part, step | super::counter::BEFORE_FILTER);
    let mut node = plan;
    if node.operator == "Filter" {
        match node.children.first_mut() {
            Some(below) if below.probe.is_none() => {
                below.probe = Some(before);
                node = below;
            }
            _ => return,
        }
    }
    // A start per incoming row (`Apply`, `CartesianProduct`): its seek or scan, on the right,
    // produced the same rows.
    if matches!(node.operator.as_str(), "Apply" | "CartesianProduct") {
        if let Some(leaf) = node.children.get_mut(1).filter(|c| c.probe.is_none()) {
            leaf.probe = Some(before);
        }
    }
}
