//! `MATCH` and pattern predicates at run time: each chain from the anchor the planner chose
//! (`compile.rs` compiles the pattern once), expanded along its relationships (fixed,
//! variable-length, shortest and quantified paths), elements checked and bound.

use super::*;
use crate::engine::Detail;

/// What matching needs to know about a node pattern.
#[derive(Clone)]
pub(super) struct NodeInfo<'q> {
    pub(super) slot: Option<usize>,
    pub(super) pat: &'q NodePattern,
    /// The labels as symbols when they are a plain conjunction of names (the common case);
    /// `Some(None)` when one of them is unknown to the graph (nothing can match).
    pub(super) plain_labels: Option<Option<Vec<Sym>>>,
    /// Extra predicates pushed down from WHERE that only involve this element.
    pub(super) filters: Vec<&'q Expr>,
    /// Equality seeks (`key = value`) usable through a property index.
    pub(super) seeks: Vec<(&'q str, &'q Expr)>,
    /// When every property map entry, inline WHERE conjunct and pushed-down filter is a
    /// comparison of one of the node's properties with a constant, those comparisons, compiled
    /// once (key symbols resolved, constants evaluated): checked without binding the node or
    /// evaluating an expression.
    pub(super) checks: Option<Vec<PropCheck>>,
    /// On the node a general chain starts from (see `compile::leading_node_mut`): how its
    /// candidates are found, planned once with the pattern like a fixed chain's anchor.
    pub(super) start: Option<Anchor<'q>>,
    /// The property map, inline WHERE and filters compiled for the pattern's rows (on the
    /// elements of fixed-length chains without `checks`).
    pub(super) exprs: Option<ElementExprs<'q>>,
}

/// An element's property map, inline WHERE and pushed-down filters, compiled against the
/// layout of the rows its pattern binds (see `engine/compiled.rs`).
#[derive(Clone)]
pub(super) struct ElementExprs<'q> {
    pub(super) props: Option<CProps<'q>>,
    pub(super) where_: Option<CExpr<'q>>,
    pub(super) filters: Vec<CExpr<'q>>,
}

/// A compiled property map: its entries, or an expression that gives the map.
#[derive(Clone)]
pub(super) enum CProps<'q> {
    Entries(Vec<(&'q str, CExpr<'q>)>),
    Whole(CExpr<'q>),
}

/// `v.key <op> constant` (or `constant <op> v.key`), compiled.
#[derive(Clone, Debug)]
pub(super) struct PropCheck {
    /// For `=` on a labelled node: the nodes that pass, as a bitmap over node ids taken from
    /// the (label, key) property index, so that the check reads no node record.
    pub(super) members: Option<Arc<Vec<u64>>>,
    /// `None`: a key the graph does not have (the property is null).
    pub(super) key: Option<Sym>,
    pub(super) op: BinaryOp,
    pub(super) value: Value,
    /// Whether the property is the left operand.
    pub(super) prop_first: bool,
}

#[derive(Clone)]
pub(super) struct RelInfo<'q> {
    pub(super) slot: Option<usize>,
    pub(super) pat: &'q RelationshipPattern,
    pub(super) types: Option<Vec<Sym>>,
    pub(super) filters: Vec<&'q Expr>,
    /// As on [`NodeInfo`].
    pub(super) exprs: Option<ElementExprs<'q>>,
}

pub(super) struct ChainInfo<'q> {
    /// The address of the pattern part in the AST: where `PROFILE` files the chain's rows.
    pub(super) part: usize,
    /// The pattern part the chain matches (`None` for the one-node chain a search start is
    /// planned on). Chains run in the planner's join order, not always the written one.
    pub(super) source: Option<&'q PatternPart>,
    pub(super) path_slot: Option<usize>,
    pub(super) nodes: Vec<NodeInfo<'q>>,
    pub(super) rels: Vec<RelInfo<'q>>,
    /// Where a fixed-length chain starts, chosen once when the pattern is compiled; for a
    /// shortest path, how its first node (where the search starts) is found.
    pub(super) anchor: Option<Anchor<'q>>,
    pub(super) shortest: Option<bool>,
    /// Chains with quantified relationships, quantified path patterns or a path selector are
    /// matched left to right by [`Runner::match_general`]; `nodes` and `rels` stay empty.
    pub(super) general: Option<General<'q>>,
    /// Sorted as matched: the start's candidates are sorted by these keys before the chain
    /// is expanded from them (`compile::sort_early`).
    pub(super) order: Option<EarlySort<'q>>,
}

/// What takes each row of a relationship scan (`Runner::scan_rows`): the match so far, and
/// the scanned relationship with its left and right node.
type ScannedSink<'a> =
    dyn FnMut(&mut MatchState, &Runner, &Trace, (RelId, NodeId, NodeId)) -> Result<()> + 'a;

/// The sort a chain makes right after its start, by the ORDER BY of the projection after
/// its MATCH (Neo4j's `Projection` and `Sort` below the expansions, cut by `Limit` above
/// them): each key compiled for the MATCH's rows, and whether it is descending.
pub(crate) struct EarlySort<'q> {
    pub(crate) keys: Vec<(CExpr<'q>, bool)>,
    /// The projection whose ORDER BY it is.
    pub(super) projection: &'q Projection,
}

impl EarlySort<'_> {
    /// The order of two rows' keys (each key ascending or descending as written; the first
    /// that differs decides).
    pub(crate) fn compare(&self, a: &[Value], b: &[Value]) -> std::cmp::Ordering {
        for (x, (y, (_, descending))) in a.iter().zip(b.iter().zip(&self.keys)) {
            let o = x.order(y);
            let o = if *descending { o.reverse() } else { o };
            if o != std::cmp::Ordering::Equal {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    }
}

/// The steps of a chain walked from node `k` of a chain of `rels` relationships: rightwards
/// to its end, then leftwards from `k` to its start (relationship index, forwards).
fn walk_from(k: usize, rels: usize) -> Vec<(usize, bool)> {
    (k..rels)
        .map(|j| (j, true))
        .chain((0..k).rev().map(|j| (j, false)))
        .collect()
}

/// How a chain's start node is found: the planner's choice, made once per pattern (not per
/// row) from what is bound when the chain is matched and the graph's statistics.
#[derive(Clone, Debug)]
pub(super) struct Anchor<'q> {
    /// The node of the chain matching starts from.
    pub node: usize,
    pub access: AnchorAccess<'q>,
    /// The planner's estimate of the candidates.
    pub estimate: f64,
    /// Whether the access alone guarantees the node's pattern (a scan of its one label with
    /// no other predicate, a seek that is its only one): candidates are bound unchecked.
    pub implied: bool,
}

#[derive(Clone, Debug)]
pub(super) enum AnchorAccess<'q> {
    /// The node's variable is bound before the chain is matched (`Argument`, `Expand`).
    Bound,
    /// `label.key = value` through the (label, key) property index (`NodeIndexSeek`): the
    /// candidates computed once when the value reads no variable, else per row.
    Seek {
        label: Sym,
        key: &'q str,
        value: &'q Expr,
        hits: Option<Vec<NodeId>>,
    },
    /// Every node with the label (`NodeByLabelScan`).
    LabelScan(Sym),
    /// Every node (`AllNodesScan`).
    AllNodes,
    /// A label the graph does not have: nothing matches.
    Nothing,
    /// The relationships of some types (`None`: all relationships): the chain starts from
    /// relationship `anchor.node`, binding the nodes on both its sides (`anchor.node` and the
    /// next), then expands from them as from an anchor node. Neo4j's
    /// `(Directed|Undirected)RelationshipTypeScan` for one type,
    /// `…UnionRelationshipTypesScan` for several, `…AllRelationshipsScan` for any.
    RelScan(Option<Vec<Sym>>),
}

/// A pattern part matched element by element along a growing path (see `match_general`).
pub(super) struct General<'q> {
    pub(super) elems: Vec<GElem<'q>>,
    pub(super) selector: Option<&'q PathSelector>,
}

/// One element of a general chain. A node checks (or, at the start, chooses) the path's
/// current end node; a relationship extends the path; a group repeats its elements.
pub(super) enum GElem<'q> {
    Node(NodeInfo<'q>),
    Rel(RelInfo<'q>),
    Group(GroupInfo<'q>),
    /// The WHERE of an unquantified parenthesized path.
    Filter(&'q Expr),
}

/// A quantified path pattern (or a quantified relationship, whose group is that relationship
/// alone): its elements repeat `min..=max` times, consecutive iterations sharing a node.
pub(super) struct GroupInfo<'q> {
    pub(super) elems: Vec<GElem<'q>>,
    pub(super) min: u64,
    pub(super) max: Option<u64>,
    pub(super) where_: Option<&'q Expr>,
    /// Slots of the group variables: single values inside an iteration, lists after it.
    pub(super) slots: Vec<usize>,
}

/// The path matched so far by a general chain.
#[derive(Default)]
pub(super) struct GPath {
    nodes: Vec<NodeId>,
    rels: Vec<RelId>,
    /// The chain's PROFILE key (`ChainInfo::part`): its start counts there.
    part: usize,
}

/// A general-chain match kept for path selection: end nodes, length and the bindings.
pub(super) struct Found {
    ends: (NodeId, NodeId),
    len: usize,
    vals: Vec<Value>,
    bound: Vec<bool>,
    used: Vec<RelId>,
    path: GPath,
}

/// The bindings made while matching one MATCH clause.
pub(super) struct MatchState {
    pub(super) vals: Vec<Value>,
    pub(super) bound: Vec<bool>,
    pub(super) used: Vec<RelId>,
    /// `MATCH REPEATABLE ELEMENTS`: relationships may repeat (no uniqueness check).
    pub(super) repeatable: bool,
    /// Set by the consumer of the matches when it has all it needs (a LIMIT reached): every
    /// level of the search returns at once. Control flow, not an error.
    pub(super) halt: std::cell::Cell<bool>,
    /// The rows a chain's pipeline gathers before it hands them on (`physical::BATCH`; one
    /// where the consumer may soon have all it needs — a LIMIT, an existence test — so that
    /// no more is read than a row-at-a-time search would read).
    pub(super) batch: usize,
}

/// Where each element of a chain is bound: node ids, and per relationship the relationships
/// and intermediate nodes traversed (left to right).
pub(super) struct Trace {
    nodes: Vec<Option<NodeId>>,
    rels: Vec<Option<(Vec<RelId>, Vec<NodeId>)>>,
}

impl<'a> Runner<'a> {
    pub(crate) fn exec_match(
        &self,
        m: &Match,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
    ) -> Result<Vec<Row>> {
        self.exec_match_capped(m, scope, rows, None)
    }

    /// MATCH that stops once `cap` rows are produced (a following `LIMIT` needs no more).
    pub(crate) fn exec_match_capped(
        &self,
        m: &Match,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
        cap: Option<usize>,
    ) -> Result<Vec<Row>> {
        self.exec_match_ordered(m, scope, rows, cap, None, None)
    }

    /// [`Self::exec_match_capped`]; `order`: the next projection, whose ORDER BY the MATCH may
    /// sort by as it matches, and the rows its SKIP and LIMIT keep (`compile::sort_early`
    /// decides; the MATCH then stops after those rows).
    pub(crate) fn exec_match_ordered(
        &self,
        m: &Match,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
        cap: Option<usize>,
        order: Option<(&Projection, usize)>,
        pulled: Option<usize>,
    ) -> Result<Vec<Row>> {
        let mut out = Vec::new();
        self.exec_match_into_ordered(m, scope, rows, cap, order, pulled, &mut |run, _, vals| {
            run.sh.charge(Shared::row_bytes(vals))?;
            out.push(vals.to_vec());
            run.sh.check_rows(out.len())
        })?;
        Ok(out)
    }

    /// Matches `m` for each input row and hands each output row (`scope` extended by the
    /// pattern's variables, as `sink` is told) to `sink`; stops after `cap` rows. Returns the
    /// number of rows handed on.
    pub(crate) fn exec_match_into(
        &self,
        m: &Match,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
        cap: Option<usize>,
        sink: &mut RowSink,
    ) -> Result<usize> {
        self.exec_match_into_ordered(m, scope, rows, cap, None, None, sink)
    }

    /// [`Self::exec_match_into`], sorting by `order` as it matches where the plan chose to
    /// (see [`Self::exec_match_ordered`]). `pulled`: the input rows come from a sort whose
    /// PROFILE counter (this key's `counter::SORTED`) counts each row taken.
    #[allow(clippy::too_many_arguments)]
    fn exec_match_into_ordered(
        &self,
        m: &Match,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
        mut cap: Option<usize>,
        order: Option<(&Projection, usize)>,
        pulled: Option<usize>,
        sink: &mut RowSink,
    ) -> Result<usize> {
        let old_len = scope.len();
        let mut new_scope = scope.clone();
        declare_match_vars(m, &mut new_scope);
        let new_vars: Vec<Arc<str>> = new_scope[old_len..].to_vec();
        // A SEARCH clause binds its variable (and score) before the pattern is matched.
        let search = match &m.search {
            Some(s) => Some(self.prepare_search(m, s, scope, &new_scope)?),
            None => None,
        };
        let bound_len = search.as_ref().map_or(old_len, |s| s.bound_len);
        let mut chains = self.compile_chains_ordered(
            &m.pattern,
            &new_scope,
            bound_len,
            m.where_.as_ref(),
            order,
        )?;
        if let Some((_, kept)) = order.filter(|_| chains.0.iter().any(|c| c.order.is_some())) {
            // Sorted as matched: the first rows are the ones the projection keeps.
            cap = Some(cap.map_or(kept, |c| c.min(kept)));
        }
        if rows.len() > 1 || chains.0.len() > 1 || chains.0.iter().any(|c| c.rels.len() > 1) {
            // Worth it when many candidates will be checked: equality checks on a labelled
            // node become membership tests in a bitmap taken from the property index.
            for ch in chains.0.iter_mut() {
                for n in ch.nodes.iter_mut() {
                    self.index_checks(n);
                }
            }
        }
        let mut emitted = 0usize;
        let where_ = chains
            .1
            .as_ref()
            .map(|w| self.compile(w, &Layout::new(&new_scope)));
        let repeatable = m.mode == Some(crate::syntax::MatchMode::RepeatableElements);
        for r in rows {
            self.sh.tick()?;
            if let Some(key) = pulled {
                self.sh.profile_step(key, counter::SORTED);
            }
            let before = emitted;
            let seeds = match &search {
                None => vec![(None, None)],
                Some(s) => self.search_seeds(s, scope, &r)?,
            };
            let mut stop = false;
            for (found, score) in seeds {
                let mut st = MatchState {
                    vals: r.clone(),
                    bound: vec![true; r.len()],
                    used: Vec::new(),
                    repeatable,
                    halt: Default::default(),
                    batch: if cap.is_some() {
                        1
                    } else {
                        super::physical::BATCH
                    },
                };
                st.vals.resize(new_scope.len(), Value::Null);
                st.bound.resize(new_scope.len(), false);
                if let (Some(s), Some(found)) = (&search, found) {
                    if s.var_slot < old_len {
                        // Already bound: the search keeps the row only where it found it.
                        if st.vals[s.var_slot].equals(&found) != Some(true) {
                            continue;
                        }
                    }
                    st.vals[s.var_slot] = found;
                    st.bound[s.var_slot] = true;
                    if let (Some(slot), Some(score)) = (s.score_slot, score) {
                        st.vals[slot] = Value::Float(score);
                        st.bound[slot] = true;
                    }
                }
                let result = self.match_parts(&chains.0, 0, &mut st, &new_scope, &mut |st, run| {
                    if let Some(w) = &where_ {
                        let env = Env::new(&new_scope, &st.vals);
                        if !crate::engine::eval::passes(&run.eval_compiled(w, &env)?)? {
                            return Ok(());
                        }
                    }
                    if cap.is_some_and(|c| emitted >= c) {
                        st.halt.set(true);
                        return Ok(());
                    }
                    sink(run, &new_scope, &st.vals)?;
                    emitted += 1;
                    if cap.is_some_and(|c| emitted >= c) {
                        st.halt.set(true);
                    }
                    Ok(())
                });
                result?;
                if st.halt.get() {
                    stop = true;
                    break;
                }
            }
            if m.optional && emitted == before {
                let mut nr = r;
                nr.extend(new_vars.iter().map(|_| Value::Null));
                sink(self, &new_scope, &nr)?;
                emitted += 1;
            }
            if stop || cap.is_some_and(|c| emitted >= c) {
                break;
            }
        }
        *scope = new_scope;
        Ok(emitted)
    }

    /// A SEARCH clause made ready to run: its index checked, its variable's and score's slots
    /// in `new_scope` (the scope after the MATCH, see [`declare_match_vars`]).
    fn prepare_search<'q>(
        &self,
        m: &'q Match,
        s: &'q crate::syntax::Search,
        scope: &[Arc<str>],
        new_scope: &[Arc<str>],
    ) -> Result<SearchPlan<'q>> {
        use crate::syntax::SchemaName;
        let slot = |name: &str| new_scope.iter().position(|v| **v == *name);
        let var_slot = slot(&s.variable.name)
            .ok_or_else(|| ExecError::unsupported("a SEARCH variable outside its MATCH"))?;
        let score_slot = s.score.as_ref().and_then(|v| slot(&v.name));
        let bound_len = score_slot.unwrap_or(var_slot).max(var_slot) + 1;
        if var_slot >= scope.len() && var_slot != scope.len() {
            return Err(ExecError::unsupported("this SEARCH clause's pattern"));
        }
        let entity = if m.searches_relationship() {
            crate::graph::EntityType::Relationship
        } else {
            crate::graph::EntityType::Node
        };
        let SchemaName::Name(name) = &s.index else {
            return Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "Parameter cannot be used in a VECTOR INDEX clause.",
            ));
        };
        let index =
            crate::engine::vector::search_index_def(self.g, &name.name, &s.variable.name, entity)?
                .clone();
        // The filter may read only the index's additional properties.
        if let Some(f) = &s.filter {
            let mut stack = vec![f];
            while let Some(e) = stack.pop() {
                if let ExprKind::Property { expr, key } = &e.kind {
                    if matches!(&expr.kind, ExprKind::Variable(v) if v.name == s.variable.name)
                        && !index.properties.iter().skip(1).any(|p| **p == *key.name)
                    {
                        return Err(ExecError::compile(
                            ErrorKind::SemanticError,
                            format!(
                                "22ND3: The property `{}` is not an additional property for vector search with filters on the vector index `{}`.",
                                key.name, index.name
                            ),
                        )
                        .with_detail(Detail::PropertyNotFound));
                    }
                }
                stack.extend(e.children());
            }
        }
        let mut with_var = scope.to_vec();
        if var_slot == scope.len() {
            with_var.push(Arc::from(s.variable.name.as_str()));
        }
        let limit = self.eval(&s.limit, &Env::new(&[], &[]))?;
        let k = match limit {
            Value::Int(k) if (0..=i64::from(i32::MAX)).contains(&k) => k as usize,
            other => {
                return Err(ExecError::runtime(
                    ErrorKind::ArgumentError,
                    format!("Invalid input. '{other}' is not a valid value. Must be a non-negative integer smaller than or equal to 2147483647."),
                ))
            }
        };
        Ok(SearchPlan {
            index,
            var_slot,
            score_slot,
            bound_len,
            k,
            query: self.compile(&s.query, &Layout::new(scope)),
            filter: s
                .filter
                .as_ref()
                .map(|f| (self.compile(f, &Layout::new(&with_var)), with_var)),
        })
    }

    /// The elements a SEARCH finds for one input row, with their scores, best first.
    #[allow(clippy::type_complexity)]
    fn search_seeds(
        &self,
        s: &SearchPlan<'_>,
        scope: &[Arc<str>],
        r: &Row,
    ) -> Result<Vec<(Option<Value>, Option<f64>)>> {
        let query = self.eval_compiled(&s.query, &Env::new(scope, r))?;
        let mut vals = r.clone();
        let mut keep = |v: Value| -> Result<bool> {
            let Some((f, with_var)) = &s.filter else {
                return Ok(true);
            };
            vals.truncate(r.len());
            vals.resize(with_var.len(), Value::Null);
            if let Some(slot) = vals.get_mut(s.var_slot) {
                *slot = v;
            }
            crate::engine::eval::passes(&self.eval_compiled(f, &Env::new(with_var, &vals))?)
        };
        let mut tick = || self.sh.tick();
        let hits =
            crate::engine::vector::search(self.g, &s.index, &query, s.k, &mut keep, &mut tick)?;
        Ok(hits
            .into_iter()
            .map(|(v, sc)| (Some(v), Some(sc)))
            .collect())
    }

    /// The start nodes of a chain for the current row, as its anchor says (`slot`: the
    /// anchor node's slot).
    pub(super) fn anchor_candidates<'c>(
        &'c self,
        anchor: &'c Anchor,
        slot: Option<usize>,
        st: &MatchState,
        scope: &[Arc<str>],
    ) -> Result<std::borrow::Cow<'c, [NodeId]>> {
        use std::borrow::Cow;
        Ok(match &anchor.access {
            AnchorAccess::Bound => match slot.map(|s| &st.vals[s]) {
                Some(Value::Node(id)) => Cow::Owned(vec![*id]),
                _ => Cow::Borrowed(&[]),
            },
            AnchorAccess::Seek {
                hits: Some(hits), ..
            } => Cow::Borrowed(hits),
            AnchorAccess::Seek {
                label, key, value, ..
            } => {
                let v = self.eval(value, &Env::new(scope, &st.vals))?;
                match self.g.sym(key) {
                    Some(ks) if !v.is_null() => {
                        Cow::Owned(self.g.nodes_with_property(*label, ks, &v))
                    }
                    _ => Cow::Borrowed(&[]),
                }
            }
            AnchorAccess::LabelScan(l) => Cow::Borrowed(self.g.nodes_with_label(*l)),
            AnchorAccess::AllNodes => Cow::Owned(self.g.node_ids().collect()),
            // (A chain that starts from relationships binds its first nodes from them:
            // `match_from_relationships`.)
            AnchorAccess::Nothing | AnchorAccess::RelScan(_) => Cow::Borrowed(&[]),
        })
    }

    /// Whether node `n` passes compiled checks.
    pub(super) fn checks_pass(&self, n: NodeId, checks: &[PropCheck]) -> bool {
        checks.iter().all(|c| {
            if let Some(bits) = &c.members {
                let i = n.0 as usize;
                return bits.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0);
            }
            // `=` a string or an integer: read in place, no value built.
            if let (BinaryOp::Eq, Value::String(_) | Value::Int(_), Some(k)) =
                (c.op, &c.value, c.key)
            {
                return self.g.node_property_is(n, k, &c.value);
            }
            let p = c
                .key
                .and_then(|k| self.g.node_property(n, k))
                .unwrap_or(Value::Null);
            let r = if c.prop_first {
                super::super::eval::compare_op(c.op, &p, &c.value)
            } else {
                super::super::eval::compare_op(c.op, &c.value, &p)
            };
            r == Some(true)
        })
    }

    pub(super) fn match_parts(
        &self,
        chains: &[ChainInfo],
        i: usize,
        st: &mut MatchState,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        if i == chains.len() {
            return emit(st, self);
        }
        let ch = &chains[i];
        if let Some(all) = ch.shortest {
            return self.match_shortest(ch, all, chains, i, st, scope, emit);
        }
        if let Some(gen) = &ch.general {
            return self.match_general(ch, gen, chains, i, st, scope, emit);
        }
        // A chain whose checks compile to ids, from a scan, runs as a pipeline of batches
        // (one sorted as matched takes its candidates in order, below).
        if let Some(p) =
            super::physical::Pipeline::new(self.g, ch, st).filter(|_| ch.order.is_none())
        {
            return p.run(self, st, scope, &mut |st, run| {
                run.match_parts(chains, i + 1, st, scope, emit)
            });
        }
        let mut trace = Trace {
            nodes: vec![None; ch.nodes.len()],
            rels: vec![None; ch.rels.len()],
        };
        // The anchor the planner chose for this chain.
        let planned = ch.anchor.as_ref().expect("fixed-length chains are planned");
        let anchor = planned.node;
        if let AnchorAccess::RelScan(types) = &planned.access {
            let types = types.as_deref();
            return self.match_from_relationships(ch, anchor, types, chains, i, st, scope, emit);
        }
        let candidates = self.anchor_candidates(planned, ch.nodes[anchor].slot, st, scope)?;
        let scanned = self.scanned_rows(Some(planned));
        if let Some(n) = scanned {
            self.sh.profile_steps(ch.part, counter::BEFORE_FILTER, n);
        }
        if let Some(order) = &ch.order {
            return self.match_sorted(ch, order, &candidates, scanned, chains, i, st, scope, emit);
        }
        if ch.rels.is_empty() && ch.path_slot.is_none() && i + 1 == chains.len() {
            // A lone node pattern, the last part: each candidate that matches is a row
            // (what `expand` with no steps and `finish_chain` would do, without their calls).
            let node = &ch.nodes[anchor];
            for &n in candidates.iter() {
                self.sh.tick()?;
                self.count_start(ch.part, scanned);
                let bound = if planned.implied {
                    Some(bind_node_slot(node, n, st))
                } else {
                    self.bind_node(node, n, st, scope)?
                };
                if let Some(saved) = bound {
                    self.sh.profile_step(ch.part, 0);
                    let r = emit(st, self);
                    restore_node(node, saved, st);
                    r?;
                    if st.halt.get() {
                        break;
                    }
                }
            }
            return Ok(());
        }
        let steps = walk_from(anchor, ch.rels.len());
        for &n in candidates.iter() {
            self.sh.tick()?;
            self.count_start(ch.part, scanned);
            let bound = if planned.implied {
                Some(bind_node_slot(&ch.nodes[anchor], n, st))
            } else {
                self.bind_node(&ch.nodes[anchor], n, st, scope)?
            };
            if let Some(saved) = bound {
                self.sh.profile_step(ch.part, 0);
                trace.nodes[anchor] = Some(n);
                self.expand(
                    ch,
                    &steps,
                    0,
                    st,
                    &mut trace,
                    scope,
                    &mut |st, run, trace| run.finish_chain(ch, trace, st, chains, i, scope, emit),
                )?;
                trace.nodes[anchor] = None;
                restore_node(&ch.nodes[anchor], saved, st);
                // LIMIT has what it needs: no further candidate is bound.
                if st.halt.get() {
                    break;
                }
            }
        }
        Ok(())
    }

    /// A chain sorted as matched (`ChainInfo::order`, Neo4j's `Sort` right after the start):
    /// each candidate of its start that matches the start's pattern, with its sort keys,
    /// sorted by them (stable: ties keep the start's order), then expanded in that order
    /// until the consumer has what it needs (the projection's `Limit`).
    #[allow(clippy::too_many_arguments)]
    fn match_sorted(
        &self,
        ch: &ChainInfo,
        order: &EarlySort,
        candidates: &[NodeId],
        scanned: Option<u64>,
        chains: &[ChainInfo],
        i: usize,
        st: &mut MatchState,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        let planned = ch.anchor.as_ref().expect("sorted chains are planned");
        let k = planned.node;
        let node = &ch.nodes[k];
        let mut keyed: Vec<(Vec<Value>, NodeId)> = Vec::new();
        for &n in candidates {
            self.sh.tick()?;
            self.count_start(ch.part, scanned);
            let bound = if planned.implied {
                Some(bind_node_slot(node, n, st))
            } else {
                self.bind_node(node, n, st, scope)?
            };
            let Some(saved) = bound else {
                continue;
            };
            self.sh.profile_step(ch.part, 0);
            let env = Env::new(scope, &st.vals);
            let keys: Result<Vec<Value>> = order
                .keys
                .iter()
                .map(|(c, _)| self.eval_compiled(c, &env))
                .collect();
            restore_node(node, saved, st);
            let keys = keys?;
            self.sh.charge(Shared::row_bytes(&keys))?;
            keyed.push((keys, n));
        }
        let keyed = self
            .sh
            .sort_checked(keyed, |a, b| order.compare(&a.0, &b.0))?;
        let steps = walk_from(k, ch.rels.len());
        let mut trace = Trace {
            nodes: vec![None; ch.nodes.len()],
            rels: vec![None; ch.rels.len()],
        };
        for (_, n) in keyed {
            self.sh.tick()?;
            self.sh.profile_step(ch.part, counter::SORTED);
            // (Checked above.)
            let saved = bind_node_slot(node, n, st);
            trace.nodes[k] = Some(n);
            let done = self.expand(
                ch,
                &steps,
                0,
                st,
                &mut trace,
                scope,
                &mut |st, run, trace| run.finish_chain(ch, trace, st, chains, i, scope, emit),
            );
            trace.nodes[k] = None;
            restore_node(node, saved, st);
            done?;
            if st.halt.get() {
                break;
            }
        }
        Ok(())
    }

    /// The rows of a relationship scan: each relationship of `types` (`None`: any) in id
    /// order, as (relationship, the node on the pattern's left, the node on its right) — the
    /// direction's way round, or both ways round when undirected, start first (a self-loop
    /// once, as Neo4j's scan gives it).
    pub(super) fn scanned_relationships<'g>(
        &'g self,
        types: Option<&[Sym]>,
        direction: Direction,
    ) -> impl Iterator<Item = (RelId, NodeId, NodeId)> + 'g {
        let rels: Box<dyn Iterator<Item = RelId> + 'g> = match types {
            Some([t]) => Box::new(self.g.relationships_of_type(*t).iter().copied()),
            Some(ts) => {
                // The types' lists merged in id order (each list is in id order).
                let mut ts = ts.to_vec();
                ts.sort_unstable();
                ts.dedup();
                let mut lists: Vec<&[RelId]> = ts
                    .iter()
                    .map(|&t| self.g.relationships_of_type(t))
                    .collect();
                Box::new(std::iter::from_fn(move || {
                    let (k, first) = lists
                        .iter()
                        .enumerate()
                        .filter_map(|(k, l)| l.first().map(|r| (k, *r)))
                        .min_by_key(|(_, r)| *r)?;
                    lists[k] = &lists[k][1..];
                    Some(first)
                }))
            }
            None => Box::new(self.g.relationship_ids()),
        };
        rels.filter_map(|r| self.g.endpoints(r).map(|ends| (r, ends)))
            .flat_map(move |(r, (s, e))| {
                let (first, twice) = match direction {
                    Direction::Right => ((s, e), false),
                    Direction::Left => ((e, s), false),
                    Direction::Undirected => ((s, e), s != e),
                };
                std::iter::once(first)
                    .chain(twice.then_some((e, s)))
                    .map(move |(x, y)| (r, x, y))
            })
    }

    /// A chain that starts from a relationship scan: each relationship of `types` (`None`:
    /// any), in id order, with the nodes on its two sides bound as the pattern's direction
    /// says (both ways round when undirected, start first; a self-loop once, as Neo4j's scan
    /// gives it), then the rest of the chain expanded from them. `j` is the relationship's
    /// index.
    #[allow(clippy::too_many_arguments)]
    fn match_from_relationships(
        &self,
        ch: &ChainInfo,
        j: usize,
        types: Option<&[Sym]>,
        chains: &[ChainInfo],
        i: usize,
        st: &mut MatchState,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        // The scanned relationship is the first step; the others as from anchor node `j`.
        let steps = walk_from(j, ch.rels.len());
        if let Some(order) = &ch.order {
            return self.scan_sorted(ch, order, j, types, &steps, chains, i, st, scope, emit);
        }
        self.scan_rows(ch, j, types, &steps, st, scope, &mut |st, run, trace, _| {
            run.finish_chain(ch, trace, st, chains, i, scope, emit)
        })
    }

    /// Each row of a scan of chain `ch`'s relationship `j` (of `types`) that passes the
    /// scan's filter — node `j` bound, then `steps` walked from the scanned relationship (its
    /// first step is that relationship's) — handed to `done` with the scanned (relationship,
    /// left node, right node); stops when the consumer has what it needs.
    #[allow(clippy::too_many_arguments)]
    fn scan_rows(
        &self,
        ch: &ChainInfo,
        j: usize,
        types: Option<&[Sym]>,
        steps: &[(usize, bool)],
        st: &mut MatchState,
        scope: &[Arc<str>],
        done: &mut ScannedSink,
    ) -> Result<()> {
        let mut trace = Trace {
            nodes: vec![None; ch.nodes.len()],
            rels: vec![None; ch.rels.len()],
        };
        for (r, x, y) in self.scanned_relationships(types, ch.rels[j].pat.direction) {
            self.sh.tick()?;
            // Under PROFILE: the scan's row, before the filter of its nodes and
            // relationship.
            self.sh.profile_step(ch.part, 1 | counter::BEFORE_FILTER);
            let Some(saved) = self.bind_node(&ch.nodes[j], x, st, scope)? else {
                continue;
            };
            trace.nodes[j] = Some(x);
            let done = self.hop(
                ch,
                steps,
                0,
                r,
                y,
                true,
                st,
                &mut trace,
                scope,
                &mut |st, run, trace| done(st, run, trace, (r, x, y)),
            );
            trace.nodes[j] = None;
            restore_node(&ch.nodes[j], saved, st);
            done?;
            if st.halt.get() {
                return Ok(());
            }
        }
        Ok(())
    }

    /// A chain from a scan of its relationship `j`, sorted as matched (`ChainInfo::order`,
    /// Neo4j's `Sort` right after the scan's filter): the scanned rows that pass the filter
    /// (the relationship and both its nodes checked), sorted by the keys (stable: ties keep
    /// the scan's order), then the rest of the chain expanded from them in that order until
    /// the consumer has what it needs.
    #[allow(clippy::too_many_arguments)]
    fn scan_sorted(
        &self,
        ch: &ChainInfo,
        order: &EarlySort,
        j: usize,
        types: Option<&[Sym]>,
        steps: &[(usize, bool)],
        chains: &[ChainInfo],
        i: usize,
        st: &mut MatchState,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        let mut trace = Trace {
            nodes: vec![None; ch.nodes.len()],
            rels: vec![None; ch.rels.len()],
        };
        let mut keyed: Vec<(Vec<Value>, (RelId, NodeId, NodeId))> = Vec::new();
        // The scan's step alone: its relationship and far node checked, then the keys.
        self.scan_rows(
            ch,
            j,
            types,
            &steps[..1],
            st,
            scope,
            &mut |st, run, _, row| {
                let env = Env::new(scope, &st.vals);
                let keys = order
                    .keys
                    .iter()
                    .map(|(c, _)| run.eval_compiled(c, &env))
                    .collect::<Result<Vec<Value>>>()?;
                run.sh.charge(Shared::row_bytes(&keys))?;
                keyed.push((keys, row));
                Ok(())
            },
        )?;
        let keyed = self
            .sh
            .sort_checked(keyed, |a, b| order.compare(&a.0, &b.0))?;
        let rel = &ch.rels[j];
        for (_, (r, x, y)) in keyed {
            self.sh.tick()?;
            self.sh.profile_step(ch.part, counter::SORTED);
            // (Checked above.) A node the chain names twice is bound once.
            let rebind = |info: &NodeInfo, n: NodeId, st: &mut MatchState| match info.slot {
                Some(s) if st.bound[s] => None,
                _ => bind_node_slot(info, n, st),
            };
            let saved_x = rebind(&ch.nodes[j], x, st);
            let saved_rel = rel.slot.map(|s| {
                st.bound[s] = true;
                std::mem::replace(&mut st.vals[s], Value::Relationship(r))
            });
            let saved_y = rebind(&ch.nodes[j + 1], y, st);
            st.used.push(r);
            trace.nodes[j] = Some(x);
            trace.nodes[j + 1] = Some(y);
            if ch.path_slot.is_some() {
                trace.rels[j] = Some((vec![r], vec![]));
            }
            let done = self.expand(
                ch,
                steps,
                1,
                st,
                &mut trace,
                scope,
                &mut |st, run, trace| run.finish_chain(ch, trace, st, chains, i, scope, emit),
            );
            trace.rels[j] = None;
            trace.nodes[j + 1] = None;
            trace.nodes[j] = None;
            st.used.pop();
            restore_node(&ch.nodes[j + 1], saved_y, st);
            if let (Some(s), Some(v)) = (rel.slot, saved_rel) {
                st.vals[s] = v;
                st.bound[s] = false;
            }
            restore_node(&ch.nodes[j], saved_x, st);
            done?;
            if st.halt.get() {
                break;
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn finish_chain(
        &self,
        ch: &ChainInfo,
        trace: &Trace,
        st: &mut MatchState,
        chains: &[ChainInfo],
        i: usize,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        match ch.path_slot {
            Some(ps) => {
                let mut nodes = Vec::new();
                let mut rels = Vec::new();
                for k in 0..ch.nodes.len() {
                    if k > 0 {
                        if let Some((rs, mids)) = &trace.rels[k - 1] {
                            if rs.is_empty() {
                                // A zero-length segment: node k is node k-1.
                                continue;
                            }
                            for (idx, r) in rs.iter().enumerate() {
                                rels.push(*r);
                                if idx < mids.len() {
                                    nodes.push(mids[idx]);
                                }
                            }
                        }
                    }
                    if let Some(n) = trace.nodes[k] {
                        nodes.push(n);
                    }
                }
                let prev = std::mem::replace(&mut st.vals[ps], path_value(nodes, rels));
                let was = std::mem::replace(&mut st.bound[ps], true);
                let r = self.match_parts(chains, i + 1, st, scope, emit);
                st.vals[ps] = prev;
                st.bound[ps] = was;
                r
            }
            None => self.match_parts(chains, i + 1, st, scope, emit),
        }
    }

    /// The candidates for the node a shortest path or a general chain starts from, as the
    /// planner chose to find them (planned now, from what is bound, if the pattern was
    /// compiled without that choice).
    fn start_candidates(
        &self,
        planned: Option<&Anchor>,
        node: &NodeInfo,
        st: &MatchState,
        scope: &[Arc<str>],
    ) -> Result<Vec<NodeId>> {
        match planned {
            Some(a) => Ok(self
                .anchor_candidates(a, node.slot, st, scope)?
                .into_owned()),
            None => {
                let a = self.plan_start(node, &st.bound, scope)?;
                Ok(self
                    .anchor_candidates(&a, node.slot, st, scope)?
                    .into_owned())
            }
        }
    }

    /// Under PROFILE, a start the plan shows as a `NodeByLabelScan` under a `Filter` (a seek
    /// on an equality no index the schema declares): the rows that scan makes, the label's
    /// nodes, however the executor found the equal ones. `None` when the candidates are the
    /// start operator's rows (a scan, a seek through a declared index) — they are counted one
    /// by one.
    pub(super) fn scanned_rows(&self, anchor: Option<&Anchor>) -> Option<u64> {
        self.sh.profile.as_ref()?;
        self.shown_as_scan(anchor?)
    }

    /// For a seek on an equality no index the schema declares — planned, as Neo4j plans it,
    /// as a `NodeByLabelScan` and a `Filter` — the nodes of its label, which that scan reads.
    pub(super) fn shown_as_scan(&self, anchor: &Anchor) -> Option<u64> {
        match &anchor.access {
            AnchorAccess::Seek { label, key, .. }
                if !self.g.declares_seekable_index(self.g.sym_name(*label), key) =>
            {
                Some(self.g.nodes_with_label(*label).len() as u64)
            }
            _ => None,
        }
    }

    /// Under PROFILE: a start node produced (before its checks), where the candidates are
    /// counted one by one (`scanned`: see [`Self::scanned_rows`]).
    #[inline]
    fn count_start(&self, part: usize, scanned: Option<u64>) {
        if scanned.is_none() {
            self.sh.profile_step(part, counter::BEFORE_FILTER);
        }
    }

    /// Checks node `n` against a node pattern and binds it. Returns what to restore, or `None`
    /// when the node does not match.
    pub(super) fn bind_node(
        &self,
        info: &NodeInfo,
        n: NodeId,
        st: &mut MatchState,
        scope: &[Arc<str>],
    ) -> Result<Option<Option<Value>>> {
        // Plain labels from the label bitmap and compiled property checks: the node's record
        // is read only for the properties the checks compare.
        if let (Some(Some(req)), Some(checks)) = (&info.plain_labels, &info.checks) {
            if !info.slot.is_some_and(|s| st.bound[s]) {
                if let Some(has) = self.g.has_labels_fast(n, req) {
                    if !has || !self.checks_pass(n, checks) {
                        return Ok(None);
                    }
                    return Ok(Some(bind_node_slot(info, n, st)));
                }
            }
        }
        let Some(data) = self.g.node(n) else {
            return Ok(None);
        };
        let was_bound = info.slot.is_some_and(|s| st.bound[s]);
        if let Some(s) = info.slot.filter(|_| was_bound) {
            // Bound before (an earlier pattern or clause): must be this node, and its labels
            // and properties still filter (`WITH a MATCH (a:X)-->(b)`).
            if !matches!(&st.vals[s], Value::Node(m) if *m == n) {
                return Ok(None);
            }
        }
        match &info.plain_labels {
            Some(Some(req)) => {
                if !req.iter().all(|l| data.labels.contains(l)) {
                    return Ok(None);
                }
            }
            Some(None) => return Ok(None),
            None => {
                if let Some(l) = &info.pat.labels {
                    if !labels_match(self, &data.labels, l, &Env::new(scope, &st.vals))? {
                        return Ok(None);
                    }
                }
            }
        }
        if let Some(checks) = &info.checks {
            if !self.checks_pass(n, checks) {
                return Ok(None);
            }
            if was_bound {
                return Ok(Some(None));
            }
            return Ok(Some(bind_node_slot(info, n, st)));
        }
        // (A node bound before stays bound: nothing to restore.)
        let saved = if was_bound {
            None
        } else {
            bind_node_slot(info, n, st)
        };
        let ok = match &info.exprs {
            Some(x) => self.element_ok_compiled(&Value::Node(n), x, st, scope),
            None => self.element_ok(
                &Value::Node(n),
                info.pat.properties.as_ref(),
                info.pat.where_.as_ref(),
                &info.filters,
                st,
                scope,
            ),
        };
        match ok {
            Ok(true) => Ok(Some(saved)),
            other => {
                if let (Some(s), Some(v)) = (info.slot, saved) {
                    st.vals[s] = v;
                    st.bound[s] = false;
                }
                other.map(|_| None)
            }
        }
    }

    /// [`Runner::element_ok`] with the element's expressions compiled.
    pub(super) fn element_ok_compiled(
        &self,
        v: &Value,
        x: &ElementExprs,
        st: &MatchState,
        scope: &[Arc<str>],
    ) -> Result<bool> {
        let env = Env::new(scope, &st.vals);
        match &x.props {
            Some(CProps::Entries(entries)) => {
                for (k, e) in entries {
                    let want = self.eval_compiled(e, &env)?;
                    if self.property(v, k)?.equals(&want) != Some(true) {
                        return Ok(false);
                    }
                }
            }
            Some(CProps::Whole(p)) => {
                let want = self.eval_compiled(p, &env)?;
                if !self.properties_match(v, want)? {
                    return Ok(false);
                }
            }
            None => {}
        }
        if let Some(w) = &x.where_ {
            if !crate::engine::eval::passes(&self.eval_compiled(w, &env)?)? {
                return Ok(false);
            }
        }
        for f in &x.filters {
            if !crate::engine::eval::passes(&self.eval_compiled(f, &env)?)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether an element has the properties of a map that a pattern's `$props` (or another
    /// expression) gave.
    fn properties_match(&self, v: &Value, want: Value) -> Result<bool> {
        match want {
            Value::Map(m) => {
                for (k, x) in m {
                    if self.property(v, &k)?.equals(&x) != Some(true) {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Value::Null => Ok(false),
            other => Err(ExecError::type_error(format!(
                "pattern properties must be a map, got {}",
                crate::value::type_name(&other)
            ))),
        }
    }

    /// Property map, inline WHERE and pushed-down filters of a bound element.
    pub(super) fn element_ok(
        &self,
        v: &Value,
        props: Option<&Expr>,
        where_: Option<&Expr>,
        filters: &[&Expr],
        st: &MatchState,
        scope: &[Arc<str>],
    ) -> Result<bool> {
        let env = Env::new(scope, &st.vals);
        if let Some(p) = props {
            match &p.kind {
                ExprKind::Map(entries) => {
                    for (k, e) in entries {
                        let want = self.eval(e, &env)?;
                        if self.property(v, &k.name)?.equals(&want) != Some(true) {
                            return Ok(false);
                        }
                    }
                }
                _ => {
                    if !self.properties_match(v, self.eval(p, &env)?)? {
                        return Ok(false);
                    }
                }
            }
        }
        if let Some(w) = where_ {
            if !crate::engine::eval::passes(&self.eval(w, &env)?)? {
                return Ok(false);
            }
        }
        for f in filters {
            if !crate::engine::eval::passes(&self.eval(f, &env)?)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn expand(
        &self,
        ch: &ChainInfo,
        steps: &[(usize, bool)],
        si: usize,
        st: &mut MatchState,
        trace: &mut Trace,
        scope: &[Arc<str>],
        done: &mut dyn FnMut(&mut MatchState, &Runner, &Trace) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        let Some(&(j, forward)) = steps.get(si) else {
            return done(st, self, trace);
        };
        let rel = &ch.rels[j];
        let (from_k, to_k) = if forward { (j, j + 1) } else { (j + 1, j) };
        let Some(from) = trace.nodes[from_k] else {
            return Ok(());
        };
        let dir = match (rel.pat.direction, forward) {
            (Direction::Right, true) | (Direction::Left, false) => Dir::Outgoing,
            (Direction::Left, true) | (Direction::Right, false) => Dir::Incoming,
            (Direction::Undirected, _) => Dir::Both,
        };
        let types = rel.types.as_deref();
        match rel.pat.length {
            None => {
                for (r, m) in self.g.neighbours_iter(from, dir, types) {
                    self.sh.tick()?;
                    self.hop(ch, steps, si, r, m, false, st, trace, scope, done)?;
                    if st.halt.get() {
                        break;
                    }
                }
                Ok(())
            }
            Some(len) => {
                let (min, max) = len.bounds();
                let min = if matches!(len, VarLength::Range { min: None, .. } | VarLength::Any) {
                    1
                } else {
                    min
                };
                let max = max.unwrap_or(u64::MAX);
                if let Some(s) = rel.slot.filter(|&s| st.bound[s]) {
                    return self.bound_var_length(
                        ch, steps, si, j, to_k, forward, from, dir, types, min, max, s, st, trace,
                        scope, done,
                    );
                }
                let mut path_rels: Vec<RelId> = Vec::new();
                let mut path_nodes: Vec<NodeId> = Vec::new();
                self.var_length(
                    ch,
                    steps,
                    si,
                    j,
                    to_k,
                    forward,
                    from,
                    dir,
                    types,
                    min,
                    max,
                    &mut path_rels,
                    &mut path_nodes,
                    st,
                    trace,
                    scope,
                    done,
                )
            }
        }
    }

    /// Step `si` of a chain over relationship `r` to node `m`: the relationship checked
    /// (unique in the match, its type, its variable, properties and predicates) and bound, the
    /// node checked and bound, then the next steps. `scanned`: the relationship comes from a
    /// relationship type scan, which counted its row under PROFILE.
    #[allow(clippy::too_many_arguments)]
    fn hop(
        &self,
        ch: &ChainInfo,
        steps: &[(usize, bool)],
        si: usize,
        r: RelId,
        m: NodeId,
        scanned: bool,
        st: &mut MatchState,
        trace: &mut Trace,
        scope: &[Arc<str>],
        done: &mut dyn FnMut(&mut MatchState, &Runner, &Trace) -> Result<()>,
    ) -> Result<()> {
        let (j, forward) = steps[si];
        let rel = &ch.rels[j];
        let to_k = if forward { j + 1 } else { j };
        let unchecked =
            rel.pat.properties.is_none() && rel.pat.where_.is_none() && rel.filters.is_empty();
        if (!st.repeatable && st.used.contains(&r)) || !self.rel_type_ok(rel, r, st, scope)? {
            return Ok(());
        }
        if let Some(s) = rel.slot.filter(|&s| st.bound[s]) {
            // Already bound (an earlier pattern or clause): must be this one.
            if !matches!(&st.vals[s], Value::Relationship(x) if *x == r) {
                return Ok(());
            }
        }
        if !scanned && self.sh.profile.is_some() && reaches(&ch.nodes[to_k], m, st) {
            // The expansion's row, before its filter.
            self.sh
                .profile_step(ch.part, (si + 1) | counter::BEFORE_FILTER);
        }
        let saved_rel = rel.slot.filter(|&s| !st.bound[s]).map(|s| {
            st.bound[s] = true;
            std::mem::replace(&mut st.vals[s], Value::Relationship(r))
        });
        let ok = unchecked
            || match &rel.exprs {
                Some(x) => self.element_ok_compiled(&Value::Relationship(r), x, st, scope)?,
                None => self.element_ok(
                    &Value::Relationship(r),
                    rel.pat.properties.as_ref(),
                    rel.pat.where_.as_ref(),
                    &rel.filters,
                    st,
                    scope,
                )?,
            };
        if ok {
            st.used.push(r);
            if let Some(saved) = self.bind_node(&ch.nodes[to_k], m, st, scope)? {
                self.sh.profile_step(ch.part, si + 1);
                trace.nodes[to_k] = Some(m);
                if ch.path_slot.is_some() {
                    // Only a path variable reads the trace's relationships.
                    trace.rels[j] = Some((vec![r], vec![]));
                }
                self.expand(ch, steps, si + 1, st, trace, scope, done)?;
                trace.rels[j] = None;
                trace.nodes[to_k] = None;
                restore_node(&ch.nodes[to_k], saved, st);
            }
            st.used.pop();
        }
        if let (Some(s), Some(v)) = (rel.slot, saved_rel) {
            st.vals[s] = v;
            st.bound[s] = false;
        }
        Ok(())
    }

    /// Whether relationship `r` has a type `rel` allows (types computed per row, `$(expr)`,
    /// are evaluated against the row in `st`).
    pub(super) fn rel_type_ok(
        &self,
        rel: &RelInfo,
        r: RelId,
        st: &MatchState,
        scope: &[Arc<str>],
    ) -> Result<bool> {
        match (&rel.types, &rel.pat.types) {
            (Some(_), _) | (None, None) => Ok(true),
            (None, Some(t)) => match self.g.relationship(r) {
                Some(d) => type_matches(self, d.ty, t, &Env::new(scope, &st.vals)),
                None => Ok(false),
            },
        }
    }

    /// A variable-length relationship whose variable is already bound to a list of
    /// relationships (`WITH [r1, r2] AS rs MATCH (a)-[rs*]->(b)`, Neo4j 5): the path is that
    /// list, followed from `from` in the pattern's direction.
    #[allow(clippy::too_many_arguments)]
    fn bound_var_length(
        &self,
        ch: &ChainInfo,
        steps: &[(usize, bool)],
        si: usize,
        j: usize,
        to_k: usize,
        forward: bool,
        from: NodeId,
        dir: Dir,
        types: Option<&[Sym]>,
        min: u64,
        max: u64,
        slot: usize,
        st: &mut MatchState,
        trace: &mut Trace,
        scope: &[Arc<str>],
        done: &mut dyn FnMut(&mut MatchState, &Runner, &Trace) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        let Value::List(items) = &st.vals[slot] else {
            return Ok(());
        };
        let mut order = Vec::with_capacity(items.len());
        for v in items {
            match v {
                Value::Relationship(r) => order.push(*r),
                _ => return Ok(()),
            }
        }
        let n = order.len() as u64;
        if n < min || n > max {
            return Ok(());
        }
        if !forward {
            order.reverse();
        }
        let rel = &ch.rels[j];
        let (mut at, mut mids) = (from, Vec::new());
        for (i, r) in order.iter().enumerate() {
            self.sh.tick()?;
            if (!st.repeatable && st.used.contains(r)) || !self.rel_type_ok(rel, *r, st, scope)? {
                return Ok(());
            }
            let mut next = None;
            self.g.for_each_neighbour(at, dir, types, |x, m| {
                if x == *r && next.is_none() {
                    next = Some(m);
                }
            });
            let Some(m) = next else {
                return Ok(());
            };
            if i + 1 < order.len() {
                mids.push(m);
            }
            at = m;
        }
        if let Some(saved) = self.bind_node(&ch.nodes[to_k], at, st, scope)? {
            trace.nodes[to_k] = Some(at);
            let (mut rs, mut ms) = (order.clone(), mids);
            if !forward {
                rs.reverse();
                ms.reverse();
            }
            trace.rels[j] = Some((rs, ms));
            let n_used = st.used.len();
            st.used.extend(order.iter().copied());
            self.expand(ch, steps, si + 1, st, trace, scope, done)?;
            st.used.truncate(n_used);
            trace.rels[j] = None;
            trace.nodes[to_k] = None;
            restore_node(&ch.nodes[to_k], saved, st);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn var_length(
        &self,
        ch: &ChainInfo,
        steps: &[(usize, bool)],
        si: usize,
        j: usize,
        to_k: usize,
        forward: bool,
        at: NodeId,
        dir: Dir,
        types: Option<&[Sym]>,
        min: u64,
        max: u64,
        path_rels: &mut Vec<RelId>,
        path_nodes: &mut Vec<NodeId>,
        st: &mut MatchState,
        trace: &mut Trace,
        scope: &[Arc<str>],
        done: &mut dyn FnMut(&mut MatchState, &Runner, &Trace) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        self.sh.tick()?;
        let depth = path_rels.len() as u64;
        let rel = &ch.rels[j];
        if depth >= min {
            // `at` is a candidate end node.
            let saved_rel = rel.slot.map(|s| {
                st.bound[s] = true;
                let mut rs: Vec<Value> =
                    path_rels.iter().map(|r| Value::Relationship(*r)).collect();
                if !forward {
                    rs.reverse();
                }
                std::mem::replace(&mut st.vals[s], Value::List(rs))
            });
            if let Some(saved) = self.bind_node(&ch.nodes[to_k], at, st, scope)? {
                trace.nodes[to_k] = Some(at);
                let (mut rs, mut mids) = (path_rels.clone(), path_nodes.clone());
                if !forward {
                    rs.reverse();
                    mids.reverse();
                }
                trace.rels[j] = Some((rs, mids));
                let n_used = st.used.len();
                st.used.extend(path_rels.iter().copied());
                self.expand(ch, steps, si + 1, st, trace, scope, done)?;
                st.used.truncate(n_used);
                trace.rels[j] = None;
                trace.nodes[to_k] = None;
                restore_node(&ch.nodes[to_k], saved, st);
            }
            if let (Some(s), Some(v)) = (rel.slot, saved_rel) {
                st.vals[s] = v;
                st.bound[s] = false;
            }
        }
        if depth >= max {
            return Ok(());
        }
        if depth >= self.sh.limits.max_var_length {
            return Err(var_length_limit(self.sh.limits.max_var_length));
        }
        let mut nbrs = Vec::new();
        self.g
            .for_each_neighbour(at, dir, types, |r, m| nbrs.push((r, m)));
        for (r, m) in nbrs {
            if (!st.repeatable && (path_rels.contains(&r) || st.used.contains(&r)))
                || !self.rel_type_ok(rel, r, st, scope)?
            {
                continue;
            }
            if let Some(p) = &rel.pat.properties {
                let env = Env::new(scope, &st.vals);
                if !self.element_ok(&Value::Relationship(r), Some(p), None, &[], st, scope)? {
                    let _ = env;
                    continue;
                }
            }
            if depth > 0 {
                path_nodes.push(at);
            }
            path_rels.push(r);
            self.var_length(
                ch, steps, si, j, to_k, forward, m, dir, types, min, max, path_rels, path_nodes,
                st, trace, scope, done,
            )?;
            path_rels.pop();
            if depth > 0 {
                path_nodes.pop();
            }
        }
        Ok(())
    }

    /// shortestPath / allShortestPaths between two nodes (both ends bound or boundable).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn match_shortest(
        &self,
        ch: &ChainInfo,
        all: bool,
        chains: &[ChainInfo],
        i: usize,
        st: &mut MatchState,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        if ch.rels.len() != 1 {
            return Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "shortestPath requires a pattern with a single relationship",
            ));
        }
        let rel = &ch.rels[0];
        let (min, max) = rel.pat.length.map(|l| l.bounds()).unwrap_or((1, Some(1)));
        let max = max.unwrap_or(self.sh.limits.max_var_length);
        let dir = match rel.pat.direction {
            Direction::Right => Dir::Outgoing,
            Direction::Left => Dir::Incoming,
            Direction::Undirected => Dir::Both,
        };
        // Where the search starts, as planned with the pattern.
        let starts = self.start_candidates(ch.anchor.as_ref(), &ch.nodes[0], st, scope)?;
        let scanned = self.scanned_rows(ch.anchor.as_ref());
        if let Some(n) = scanned {
            self.sh.profile_steps(ch.part, counter::BEFORE_FILTER, n);
        }
        for s in starts {
            self.count_start(ch.part, scanned);
            let Some(saved_s) = self.bind_node(&ch.nodes[0], s, st, scope)? else {
                continue;
            };
            self.sh.profile_step(ch.part, 0);
            // BFS layers from s, recording all shortest predecessors.
            let mut preds: HashMap<NodeId, Vec<(RelId, NodeId)>> = HashMap::new();
            let mut dist: HashMap<NodeId, u64> = HashMap::new();
            dist.insert(s, 0);
            let mut frontier = vec![s];
            let mut d = 0;
            let mut found: Vec<NodeId> = Vec::new();
            while !frontier.is_empty() && d < max {
                self.sh.tick()?;
                d += 1;
                let mut next = Vec::new();
                for &u in &frontier {
                    let mut nbrs = Vec::new();
                    self.g
                        .for_each_neighbour(u, dir, rel.types.as_deref(), |r, m| nbrs.push((r, m)));
                    for (r, m) in nbrs {
                        if !self.rel_type_ok(rel, r, st, scope)? {
                            continue;
                        }
                        match dist.get(&m) {
                            Some(&dm) if dm < d => continue,
                            Some(_) => preds.entry(m).or_default().push((r, u)),
                            None => {
                                dist.insert(m, d);
                                preds.entry(m).or_default().push((r, u));
                                next.push(m);
                            }
                        }
                    }
                }
                for &m in &next {
                    if d >= min && m != s {
                        found.push(m);
                    }
                }
                frontier = next;
            }
            found.sort();
            for t in found {
                let Some(saved_t) = self.bind_node(&ch.nodes[1], t, st, scope)? else {
                    continue;
                };
                // Enumerate shortest paths back from t.
                let mut paths: Vec<(Vec<NodeId>, Vec<RelId>)> = Vec::new();
                let mut stack = vec![(t, vec![t], Vec::<RelId>::new())];
                while let Some((u, ns, rs)) = stack.pop() {
                    if u == s {
                        let mut ns = ns.clone();
                        let mut rs = rs.clone();
                        ns.reverse();
                        rs.reverse();
                        paths.push((ns, rs));
                        if !all {
                            break;
                        }
                        continue;
                    }
                    for (r, p) in preds.get(&u).cloned().unwrap_or_default() {
                        let mut ns2 = ns.clone();
                        ns2.push(p);
                        let mut rs2 = rs.clone();
                        rs2.push(r);
                        stack.push((p, ns2, rs2));
                    }
                }
                for (ns, rs) in paths {
                    let saved_r = rel.slot.map(|sl| {
                        st.bound[sl] = true;
                        let v = if rel.pat.length.is_some() {
                            Value::List(rs.iter().map(|r| Value::Relationship(*r)).collect())
                        } else {
                            Value::Relationship(rs[0])
                        };
                        std::mem::replace(&mut st.vals[sl], v)
                    });
                    let saved_p = ch.path_slot.map(|ps| {
                        st.bound[ps] = true;
                        std::mem::replace(&mut st.vals[ps], path_value(ns.clone(), rs.clone()))
                    });
                    self.match_parts(chains, i + 1, st, scope, emit)?;
                    if let (Some(ps), Some(v)) = (ch.path_slot, saved_p) {
                        st.vals[ps] = v;
                        st.bound[ps] = false;
                    }
                    if let (Some(sl), Some(v)) = (rel.slot, saved_r) {
                        st.vals[sl] = v;
                        st.bound[sl] = false;
                    }
                }
                restore_node(&ch.nodes[1], saved_t, st);
            }
            restore_node(&ch.nodes[0], saved_s, st);
        }
        Ok(())
    }

    // ---- general chains: quantified relationships, quantified path patterns, selectors ----

    /// Matches a general chain left to right, applies its path selector per pair of end
    /// nodes, binds the path variable and goes on with the next pattern part.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn match_general(
        &self,
        ch: &ChainInfo,
        gen: &General,
        chains: &[ChainInfo],
        i: usize,
        st: &mut MatchState,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        let mut path = GPath {
            part: ch.part,
            ..GPath::default()
        };
        let Some(sel) = gen.selector else {
            return self.gmatch(&gen.elems, 0, st, &mut path, scope, &mut |st, path, run| {
                run.general_done(ch, path, st, chains, i, scope, emit)
            });
        };
        let mut found: Vec<Found> = Vec::new();
        self.gmatch(&gen.elems, 0, st, &mut path, scope, &mut |st, path, run| {
            let (Some(&a), Some(&b)) = (path.nodes.first(), path.nodes.last()) else {
                return Ok(());
            };
            run.sh
                .charge(Shared::row_bytes(&st.vals) + 8 * (path.nodes.len() + path.rels.len()))?;
            found.push(Found {
                ends: (a, b),
                len: path.rels.len(),
                vals: st.vals.clone(),
                bound: st.bound.clone(),
                used: st.used.clone(),
                path: GPath {
                    nodes: path.nodes.clone(),
                    rels: path.rels.clone(),
                    part: path.part,
                },
            });
            run.sh.check_rows(found.len())
        })?;
        // Partitions by end nodes, in order of first appearance.
        let mut order: Vec<(NodeId, NodeId)> = Vec::new();
        let mut parts: HashMap<(NodeId, NodeId), Vec<usize>> = HashMap::new();
        for (k, f) in found.iter().enumerate() {
            parts
                .entry(f.ends)
                .or_insert_with(|| {
                    order.push(f.ends);
                    Vec::new()
                })
                .push(k);
        }
        let mut keep: Vec<usize> = Vec::new();
        for key in &order {
            let mut ks = parts.remove(key).unwrap_or_default();
            ks.sort_by_key(|&k| found[k].len); // stable: ties keep the matching order
            let lens = |ks: &[usize]| -> Vec<usize> {
                let mut ls: Vec<usize> = ks.iter().map(|&k| found[k].len).collect();
                ls.dedup();
                ls
            };
            match sel {
                PathSelector::All => keep.extend(ks),
                PathSelector::AnyShortest => keep.extend(ks.into_iter().take(1)),
                PathSelector::Shortest(k) => {
                    keep.extend(ks.into_iter().take(k.unwrap_or(1) as usize))
                }
                PathSelector::AllShortest => {
                    let min = ks.first().map(|&k| found[k].len);
                    keep.extend(ks.into_iter().filter(|&k| Some(found[k].len) == min));
                }
                PathSelector::ShortestGroups(k) => {
                    let ls = lens(&ks);
                    let ls = &ls[..ls.len().min(k.unwrap_or(1) as usize)];
                    keep.extend(ks.into_iter().filter(|&k| ls.contains(&found[k].len)));
                }
                PathSelector::Any(k) => {
                    ks.sort(); // matching order
                    keep.extend(ks.into_iter().take(k.unwrap_or(1) as usize));
                }
            }
        }
        for k in keep {
            let f = &mut found[k];
            std::mem::swap(&mut st.vals, &mut f.vals);
            std::mem::swap(&mut st.bound, &mut f.bound);
            std::mem::swap(&mut st.used, &mut f.used);
            let r = self.general_done(ch, &f.path, st, chains, i, scope, emit);
            std::mem::swap(&mut st.vals, &mut f.vals);
            std::mem::swap(&mut st.bound, &mut f.bound);
            std::mem::swap(&mut st.used, &mut f.used);
            r?;
        }
        Ok(())
    }

    /// Binds a general chain's path variable and matches the next pattern part.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn general_done(
        &self,
        ch: &ChainInfo,
        path: &GPath,
        st: &mut MatchState,
        chains: &[ChainInfo],
        i: usize,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        let Some(ps) = ch.path_slot else {
            return self.match_parts(chains, i + 1, st, scope, emit);
        };
        let v = path_value(path.nodes.clone(), path.rels.clone());
        let prev = std::mem::replace(&mut st.vals[ps], v);
        let was = std::mem::replace(&mut st.bound[ps], true);
        let r = self.match_parts(chains, i + 1, st, scope, emit);
        st.vals[ps] = prev;
        st.bound[ps] = was;
        r
    }

    /// Matches `elems[idx..]` extending `path`, then calls `k`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn gmatch(
        &self,
        elems: &[GElem],
        idx: usize,
        st: &mut MatchState,
        path: &mut GPath,
        scope: &[Arc<str>],
        k: &mut dyn FnMut(&mut MatchState, &mut GPath, &Runner) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        let Some(el) = elems.get(idx) else {
            return k(st, path, self);
        };
        // A path that does not start with a node starts from any node.
        let starts_here = matches!(el, GElem::Node(_))
            || matches!(el, GElem::Group(g) if g.min > 0 && matches!(g.elems.first(), Some(GElem::Node(_))));
        if path.nodes.is_empty() && !starts_here {
            let all: Vec<NodeId> = self.g.node_ids().collect();
            for n in all {
                self.sh.tick()?;
                path.nodes.push(n);
                let r = self.gmatch(elems, idx, st, path, scope, k);
                path.nodes.pop();
                r?;
            }
            return Ok(());
        }
        match el {
            GElem::Filter(w) => {
                if crate::engine::eval::passes(&self.eval(w, &Env::new(scope, &st.vals))?)? {
                    self.gmatch(elems, idx + 1, st, path, scope, k)?;
                }
                Ok(())
            }
            GElem::Node(info) => {
                let candidates = match path.nodes.last() {
                    Some(&n) => vec![n],
                    // The chain's first node, found as planned with the pattern.
                    None => self.start_candidates(info.start.as_ref(), info, st, scope)?,
                };
                let fresh = path.nodes.is_empty();
                let scanned = self.scanned_rows(info.start.as_ref().filter(|_| fresh));
                if let Some(n) = scanned {
                    self.sh.profile_steps(path.part, counter::BEFORE_FILTER, n);
                }
                for n in candidates {
                    self.sh.tick()?;
                    if fresh {
                        self.count_start(path.part, scanned);
                    }
                    if let Some(saved) = self.bind_node(info, n, st, scope)? {
                        if fresh {
                            // Under PROFILE: the start nodes, as `NodeByLabelScan` and its
                            // `Filter` count them.
                            self.sh.profile_step(path.part, 0);
                            path.nodes.push(n);
                        }
                        let r = self.gmatch(elems, idx + 1, st, path, scope, k);
                        if fresh {
                            path.nodes.pop();
                        }
                        restore_node(info, saved, st);
                        r?;
                    }
                }
                Ok(())
            }
            GElem::Rel(rel) => {
                let dir = match rel.pat.direction {
                    Direction::Right => Dir::Outgoing,
                    Direction::Left => Dir::Incoming,
                    Direction::Undirected => Dir::Both,
                };
                match rel.pat.length {
                    None => self.g_hop(elems, idx, rel, dir, st, path, scope, k),
                    Some(len) => {
                        let (min, max) = len.bounds();
                        let mut hops = Vec::new();
                        self.g_varlen(
                            elems,
                            idx,
                            rel,
                            dir,
                            min,
                            max.unwrap_or(u64::MAX),
                            &mut hops,
                            st,
                            path,
                            scope,
                            k,
                        )
                    }
                }
            }
            GElem::Group(g) => {
                let mut acc: Vec<Vec<Value>> = vec![Vec::new(); g.slots.len()];
                self.g_iterate(elems, idx, g, 0, &mut acc, st, path, scope, k)
            }
        }
    }

    /// One relationship from the path's end node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn g_hop(
        &self,
        elems: &[GElem],
        idx: usize,
        rel: &RelInfo,
        dir: Dir,
        st: &mut MatchState,
        path: &mut GPath,
        scope: &[Arc<str>],
        k: &mut dyn FnMut(&mut MatchState, &mut GPath, &Runner) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        let Some(&from) = path.nodes.last() else {
            return Ok(());
        };
        let mut nbrs = Vec::new();
        self.g
            .for_each_neighbour(from, dir, rel.types.as_deref(), |r, m| nbrs.push((r, m)));
        for (r, m) in nbrs {
            self.sh.tick()?;
            if (!st.repeatable && st.used.contains(&r)) || !self.rel_type_ok(rel, r, st, scope)? {
                continue;
            }
            if let Some(s) = rel.slot.filter(|&s| st.bound[s]) {
                if !matches!(&st.vals[s], Value::Relationship(x) if *x == r) {
                    continue;
                }
            }
            let saved_rel = rel.slot.filter(|&s| !st.bound[s]).map(|s| {
                st.bound[s] = true;
                std::mem::replace(&mut st.vals[s], Value::Relationship(r))
            });
            let ok = self.element_ok(
                &Value::Relationship(r),
                rel.pat.properties.as_ref(),
                rel.pat.where_.as_ref(),
                &rel.filters,
                st,
                scope,
            );
            let r2 = match ok {
                Ok(true) => {
                    st.used.push(r);
                    path.rels.push(r);
                    path.nodes.push(m);
                    let x = self.gmatch(elems, idx + 1, st, path, scope, k);
                    path.nodes.pop();
                    path.rels.pop();
                    st.used.pop();
                    x
                }
                Ok(false) => Ok(()),
                Err(e) => Err(e),
            };
            if let (Some(s), Some(v)) = (rel.slot, saved_rel) {
                st.vals[s] = v;
                st.bound[s] = false;
            }
            r2?;
        }
        Ok(())
    }

    /// A legacy variable-length relationship (`*min..max`) in a general chain.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn g_varlen(
        &self,
        elems: &[GElem],
        idx: usize,
        rel: &RelInfo,
        dir: Dir,
        min: u64,
        max: u64,
        hops: &mut Vec<RelId>,
        st: &mut MatchState,
        path: &mut GPath,
        scope: &[Arc<str>],
        k: &mut dyn FnMut(&mut MatchState, &mut GPath, &Runner) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        self.sh.tick()?;
        let depth = hops.len() as u64;
        if depth >= min {
            let saved = rel.slot.map(|s| {
                let was = std::mem::replace(&mut st.bound[s], true);
                let rs = hops.iter().map(|r| Value::Relationship(*r)).collect();
                (std::mem::replace(&mut st.vals[s], Value::List(rs)), was)
            });
            let n_used = st.used.len();
            st.used.extend(hops.iter().copied());
            let r = self.gmatch(elems, idx + 1, st, path, scope, k);
            st.used.truncate(n_used);
            if let (Some(s), Some((v, was))) = (rel.slot, saved) {
                st.vals[s] = v;
                st.bound[s] = was;
            }
            r?;
        }
        if depth >= max {
            return Ok(());
        }
        if depth >= self.sh.limits.max_var_length {
            return Err(var_length_limit(self.sh.limits.max_var_length));
        }
        let Some(&at) = path.nodes.last() else {
            return Ok(());
        };
        let mut nbrs = Vec::new();
        self.g
            .for_each_neighbour(at, dir, rel.types.as_deref(), |r, m| nbrs.push((r, m)));
        for (r, m) in nbrs {
            if (!st.repeatable && (hops.contains(&r) || st.used.contains(&r)))
                || !self.rel_type_ok(rel, r, st, scope)?
            {
                continue;
            }
            if let Some(p) = &rel.pat.properties {
                if !self.element_ok(&Value::Relationship(r), Some(p), None, &[], st, scope)? {
                    continue;
                }
            }
            hops.push(r);
            path.rels.push(r);
            path.nodes.push(m);
            let x = self.g_varlen(elems, idx, rel, dir, min, max, hops, st, path, scope, k);
            path.nodes.pop();
            path.rels.pop();
            hops.pop();
            x?;
        }
        Ok(())
    }

    /// Iterations `count + 1, …` of a group; after each complete iteration (and before the
    /// first when `min` is 0) the group may end and the chain go on.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn g_iterate(
        &self,
        elems: &[GElem],
        idx: usize,
        g: &GroupInfo,
        count: u64,
        acc: &mut Vec<Vec<Value>>,
        st: &mut MatchState,
        path: &mut GPath,
        scope: &[Arc<str>],
        k: &mut dyn FnMut(&mut MatchState, &mut GPath, &Runner) -> Result<()>,
    ) -> Result<()> {
        // LIMIT has what it needs: unwind without matching further.
        if st.halt.get() {
            return Ok(());
        }
        self.sh.tick()?;
        if count >= g.min && !path.nodes.is_empty() {
            // End the group here: its variables become lists.
            let saved: Vec<(Value, bool)> = g
                .slots
                .iter()
                .zip(acc.iter())
                .map(|(&s, vs)| {
                    let was = std::mem::replace(&mut st.bound[s], true);
                    (
                        std::mem::replace(&mut st.vals[s], Value::List(vs.clone())),
                        was,
                    )
                })
                .collect();
            let r = self.gmatch(elems, idx + 1, st, path, scope, k);
            for (&s, (v, was)) in g.slots.iter().zip(saved) {
                st.vals[s] = v;
                st.bound[s] = was;
            }
            r?;
        }
        if g.max.is_some_and(|m| count >= m) {
            return Ok(());
        }
        if count >= self.sh.limits.max_var_length {
            return Err(var_length_limit(self.sh.limits.max_var_length));
        }
        let start_len = path.rels.len();
        self.gmatch(&g.elems, 0, st, path, scope, &mut |st, path, run| {
            if path.rels.len() == start_len {
                return Ok(()); // an iteration must make progress
            }
            if let Some(w) = g.where_ {
                if !crate::engine::eval::passes(&run.eval(w, &Env::new(scope, &st.vals))?)? {
                    return Ok(());
                }
            }
            // The iteration's values join the lists; the next iteration binds afresh.
            let saved: Vec<(Value, bool)> = g
                .slots
                .iter()
                .zip(acc.iter_mut())
                .map(|(&s, vs)| {
                    vs.push(st.vals[s].clone());
                    let was = std::mem::replace(&mut st.bound[s], false);
                    (std::mem::replace(&mut st.vals[s], Value::Null), was)
                })
                .collect();
            let r = run.g_iterate(elems, idx, g, count + 1, acc, st, path, scope, k);
            for ((&s, (v, was)), vs) in g.slots.iter().zip(saved).zip(acc.iter_mut()) {
                st.vals[s] = v;
                st.bound[s] = was;
                vs.pop();
            }
            r
        })
    }

    // ---- pattern expressions and subqueries ----

    /// Rows of an `EXISTS { … }` / `COUNT { … }` body (stops at the first when `exists_only`).
    pub(crate) fn subquery_count(
        &self,
        body: &SubqueryBody,
        env: &Env,
        exists_only: bool,
    ) -> Result<usize> {
        match body {
            SubqueryBody::Pattern { pattern, where_ } => {
                self.pattern_subquery_count(pattern, where_.as_ref(), env, exists_only)
            }
            SubqueryBody::Query(q) => {
                let (mut names, mut vals) = (Vec::new(), Vec::new());
                flatten_env(env, &mut names, &mut vals);
                let mut access = Access::Read(self.g);
                let out = run_query(&mut access, self.sh, q, Some((&names, &vals)))?;
                // A subquery without RETURN counts the rows its last clause produced.
                let n = if out.returns {
                    out.rows.len()
                } else {
                    out.units
                };
                self.profile_site(counter::site_key(q.span), n as u64, !exists_only);
                Ok(n)
            }
        }
    }

    pub(crate) fn collect_subquery(&self, q: &Query, env: &Env) -> Result<Value> {
        let (mut names, mut vals) = (Vec::new(), Vec::new());
        flatten_env(env, &mut names, &mut vals);
        let mut access = Access::Read(self.g);
        let out = run_query(&mut access, self.sh, q, Some((&names, &vals)))?;
        self.profile_site(counter::site_key(q.span), out.rows.len() as u64, true);
        if out.columns.len() != 1 {
            return Err(ExecError::compile(
                ErrorKind::SemanticError,
                "COLLECT subquery must return exactly one column",
            ));
        }
        Ok(Value::List(
            out.rows.into_iter().filter_map(|mut r| r.pop()).collect(),
        ))
    }

    // ---- procedures ----
}

/// Whether an expansion to node `n` reaches `info`'s node: any node when it is new, the bound
/// one when it is bound (`Expand(Into)`).
fn reaches(info: &NodeInfo, n: NodeId, st: &MatchState) -> bool {
    match info.slot.filter(|&s| st.bound[s]) {
        Some(s) => matches!(&st.vals[s], Value::Node(m) if *m == n),
        None => true,
    }
}

pub(super) fn flatten_env(env: &Env, names: &mut Vec<Arc<str>>, vals: &mut Vec<Value>) {
    if let Some(o) = env.outer {
        flatten_env(o, names, vals);
    }
    names.extend(env.names.iter().cloned());
    vals.extend(env.values.iter().cloned());
}

/// Binds node `n` to the pattern node's variable, if it has one; returns what to restore
/// (see [`restore_node`]).
pub(super) fn bind_node_slot(info: &NodeInfo, n: NodeId, st: &mut MatchState) -> Option<Value> {
    info.slot.map(|s| {
        st.bound[s] = true;
        std::mem::replace(&mut st.vals[s], Value::Node(n))
    })
}

pub(super) fn restore_node(info: &NodeInfo, saved: Option<Value>, st: &mut MatchState) {
    if let (Some(s), Some(v)) = (info.slot, saved) {
        st.vals[s] = v;
        st.bound[s] = false;
    }
}

/// The first plain label of a label expression (for index choice).
pub(super) fn first_label(l: Option<&LabelExpr>) -> Option<&str> {
    match l? {
        LabelExpr::Name(i) => Some(&i.name),
        LabelExpr::And(xs, _) => xs.iter().find_map(|x| match x {
            LabelExpr::Name(i) => Some(i.name.as_str()),
            _ => None,
        }),
        _ => None,
    }
}

/// Adds the variables a pattern introduces (in order of appearance) to `scope`.
/// The variables a MATCH binds, in the order of its rows' slots: a SEARCH clause's variable
/// and score first, then the pattern's.
pub(crate) fn declare_match_vars(m: &Match, scope: &mut Vec<Arc<str>>) {
    if let Some(s) = &m.search {
        declare_var(&Some(s.variable.clone()), scope);
        declare_var(&s.score, scope);
    }
    declare_pattern_vars(&m.pattern, scope);
}

/// A SEARCH clause compiled for its MATCH (see [`Runner::exec_match_into`]).
pub(super) struct SearchPlan<'q> {
    index: crate::graph::IndexDef,
    var_slot: usize,
    score_slot: Option<usize>,
    /// Slots below this are bound before the pattern is matched.
    bound_len: usize,
    k: usize,
    query: CExpr<'q>,
    /// The filter, compiled over the input row's scope plus the search variable.
    filter: Option<(CExpr<'q>, Vec<Arc<str>>)>,
}

pub(crate) fn declare_pattern_vars(parts: &[PatternPart], scope: &mut Vec<Arc<str>>) {
    for p in parts {
        declare_chain_vars(p.path.chain(), scope);
        declare_var(&p.variable, scope);
    }
}

pub(super) fn declare_var(v: &Option<Ident>, scope: &mut Vec<Arc<str>>) {
    if let Some(v) = v {
        if !scope.iter().any(|s| **s == *v.name) {
            scope.push(Arc::from(v.name.as_str()));
        }
    }
}

/// The variables of a chain, those inside parenthesized (quantified) paths included.
pub(super) fn declare_chain_vars(c: &PathChain, scope: &mut Vec<Arc<str>>) {
    for el in &c.elements {
        match el {
            PathElement::Node(n) => declare_var(&n.variable, scope),
            PathElement::Relationship(r) => declare_var(&r.variable, scope),
            PathElement::Group(g) => {
                declare_var(&g.variable, scope);
                declare_chain_vars(&g.chain, scope);
            }
        }
    }
}

/// The error for a variable-length expansion or quantified pattern deeper than the limit.
pub(super) fn var_length_limit(max: u64) -> ExecError {
    ExecError::runtime(
        ErrorKind::LimitExceeded,
        format!("variable-length expansion deeper than {max} hops (raise Limits::max_var_length)"),
    )
    .with_detail(Detail::VarLengthExpansion)
}

/// Whether a chain needs the general matcher: quantified relationships or parenthesized paths.
pub(super) fn needs_general(c: &PathChain) -> bool {
    c.elements.iter().any(|el| match el {
        PathElement::Node(_) => false,
        PathElement::Relationship(r) => r.quantifier.is_some(),
        PathElement::Group(_) => true,
    })
}

/// Pushes a WHERE conjunct about `name` down to the top-level element of a general chain that
/// declares it (not into groups: there the variable is a list outside the group).
pub(super) fn place_in_general<'q>(gen: &mut General<'q>, name: &str, c: &'q Expr) -> bool {
    for el in gen.elems.iter_mut() {
        match el {
            GElem::Node(n) if n.pat.variable.as_ref().is_some_and(|v| v.name == name) => {
                if let Some((k, v)) = equality_seek(c, name) {
                    n.seeks.push((k, v));
                }
                n.filters.push(c);
                return true;
            }
            GElem::Rel(r)
                if r.pat.length.is_none()
                    && r.pat.variable.as_ref().is_some_and(|v| v.name == name) =>
            {
                r.filters.push(c);
                return true;
            }
            _ => {}
        }
    }
    false
}

/// The conjuncts of an AND tree.
pub(crate) fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary {
            op: BinaryOp::And,
            lhs,
            rhs,
        } => {
            let mut v = conjuncts(lhs);
            v.extend(conjuncts(rhs));
            v
        }
        _ => vec![e],
    }
}

/// `var.key = value` or `value = var.key` where `value` does not mention `var`.
pub(super) fn equality_seek<'e>(e: &'e Expr, var: &str) -> Option<(&'e str, &'e Expr)> {
    let ExprKind::Binary {
        op: BinaryOp::Eq,
        lhs,
        rhs,
    } = &e.kind
    else {
        return None;
    };
    let side = |p: &'e Expr, v: &'e Expr| -> Option<(&'e str, &'e Expr)> {
        if let ExprKind::Property { expr, key } = &p.kind {
            if matches!(&expr.kind, ExprKind::Variable(x) if x.name == var) {
                let mut vars = Vec::new();
                free_vars(v, &mut vars);
                if !vars.iter().any(|x| x == var) {
                    return Some((key.name.as_str(), v));
                }
            }
        }
        None
    };
    side(lhs, rhs).or_else(|| side(rhs, lhs))
}

pub(super) fn contains_pattern(e: &Expr) -> bool {
    let mut found = false;
    walk(e, &mut |x| {
        if matches!(
            x.kind,
            ExprKind::Pattern(_)
                | ExprKind::Exists(_)
                | ExprKind::CountSubquery(_)
                | ExprKind::Collect(_)
                | ExprKind::PatternComprehension { .. }
        ) {
            found = true;
        }
    });
    found
}
