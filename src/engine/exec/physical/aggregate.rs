//! `EagerAggregation` fed by a chain's pipeline: the grouping keys and the aggregates'
//! arguments are read from the batches' ids (a chain element, or one of its properties),
//! column by column, and added to the projection's groups without binding a row. The groups,
//! their accumulators and what follows them (ORDER BY, LIMIT, the items computed per group)
//! are the projection's own (`project.rs`), as on the row-by-row path.

use super::{Batch, Flow, Pipeline, Sink};
use crate::engine::error::Result;
use crate::engine::exec::matching::{ChainInfo, MatchState};
use crate::engine::exec::project::Projecting;
use crate::engine::exec::{declare_match_vars, Row, Runner};
use crate::graph::{IntRead, Sym};
use crate::syntax::{Expr, ExprKind, Match, Projection};
use crate::value::{GroupKey, Value};
use std::sync::Arc;

/// An expression read from a batch: a chain element or one of its properties.
enum Col {
    Node(usize),
    Rel(usize),
    /// (`None`: a key the graph does not have; the property is null.)
    NodeProp(usize, Option<Sym>),
    RelProp(usize, Option<Sym>),
}

impl Col {
    /// The column for `e` over the chain's elements, if it is one (`scope`: the rows' names).
    fn of(run: &Runner, e: &Expr, ch: &ChainInfo, scope: &[Arc<str>]) -> Option<Col> {
        let element = |name: &str| {
            let slot = scope.iter().position(|s| &**s == name)?;
            if scope.iter().rposition(|s| &**s == name) != Some(slot) {
                return None;
            }
            match ch.nodes.iter().position(|n| n.slot == Some(slot)) {
                Some(k) => Some(Col::Node(k)),
                None => ch
                    .rels
                    .iter()
                    .position(|r| r.slot == Some(slot))
                    .map(Col::Rel),
            }
        };
        match &e.kind {
            ExprKind::Variable(v) => element(&v.name),
            ExprKind::Property { expr, key } => match &expr.kind {
                ExprKind::Variable(v) => match element(&v.name)? {
                    Col::Node(k) => Some(Col::NodeProp(k, run.g.sym(&key.name))),
                    Col::Rel(j) => Some(Col::RelProp(j, run.g.sym(&key.name))),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// The column's values for the batch's rows.
    fn read(&self, run: &Runner, b: &Batch, out: &mut Vec<Value>) {
        out.clear();
        let ids = |k: usize| &b.nodes[k][..b.len];
        match *self {
            Col::Node(k) => out.extend(ids(k).iter().map(|&n| Value::Node(n))),
            Col::Rel(j) => out.extend(b.rels[j][..b.len].iter().map(|&r| Value::Relationship(r))),
            Col::NodeProp(_, None) | Col::RelProp(_, None) => out.resize(b.len, Value::Null),
            Col::NodeProp(k, Some(key)) => out.extend(
                ids(k)
                    .iter()
                    .map(|&n| run.g.node_property(n, key).unwrap_or(Value::Null)),
            ),
            Col::RelProp(j, Some(key)) => out.extend(
                b.rels[j][..b.len]
                    .iter()
                    .map(|&r| run.g.relationship_property(r, key).unwrap_or(Value::Null)),
            ),
        }
    }
}

impl Runner<'_> {
    /// `MATCH` straight into an aggregating projection (`pr`, of `p`), as operators: the
    /// chain's pipeline pushes its batches into the aggregation. Returns the number of rows
    /// the MATCH fed it, or `None` — nothing done — when the clause or the projection needs
    /// the row-by-row path (more than one input row, several pattern parts, a WHERE that
    /// is not pushed into the pattern, keys or arguments that are not an element or its
    /// property, …). `scope` becomes the MATCH's.
    pub(crate) fn aggregate_match<'q>(
        &self,
        m: &'q Match,
        scope: &mut Vec<Arc<str>>,
        rows: &[Row],
        p: &'q Projection,
        pr: &mut Projecting<'q>,
    ) -> Result<Option<usize>> {
        let [row] = rows else {
            return Ok(None);
        };
        #[cfg(test)]
        if super::tests::DEPTH_FIRST.get() {
            return Ok(None);
        }
        if m.optional || m.search.is_some() {
            return Ok(None);
        }
        let Some((keys, args)) = pr.batch_exprs(p) else {
            return Ok(None);
        };
        let old_len = scope.len();
        let mut new_scope = scope.clone();
        declare_match_vars(m, &mut new_scope);
        let (mut chains, rest) =
            self.compile_chains(&m.pattern, &new_scope, old_len, m.where_.as_ref())?;
        let ([ch], None) = (chains.as_mut_slice(), rest) else {
            return Ok(None);
        };
        if ch.rels.len() > 1 {
            // As `exec_match_into` does for a chain of several relationships.
            for n in ch.nodes.iter_mut() {
                self.index_checks(n);
            }
        }
        let ch = &*ch;
        let mut st = MatchState {
            vals: row.clone(),
            bound: vec![true; row.len()],
            used: Vec::new(),
            repeatable: m.mode == Some(crate::syntax::MatchMode::RepeatableElements),
            halt: Default::default(),
            batch: super::BATCH,
        };
        st.vals.resize(new_scope.len(), Value::Null);
        st.bound.resize(new_scope.len(), false);
        let Some(pipeline) = Pipeline::new(self.g, ch, &st) else {
            return Ok(None);
        };
        let key_cols: Option<Vec<Col>> = keys
            .iter()
            .map(|e| Col::of(self, e, ch, &new_scope))
            .collect();
        let arg_cols: Option<Vec<Vec<Col>>> = args
            .iter()
            .map(|xs| {
                xs.iter()
                    .map(|e| Col::of(self, e, ch, &new_scope))
                    .collect()
            })
            .collect();
        let (Some(key_cols), Some(arg_cols)) = (key_cols, arg_cols) else {
            return Ok(None);
        };
        // The input row: a step of work, as `exec_match_into` counts it.
        self.sh.tick()?;
        let mut fed = 0usize;
        let mut key_vals: Vec<Vec<Value>> = key_cols.iter().map(|_| Vec::new()).collect();
        let mut arg_vals: Vec<Vec<Vec<Value>>> = arg_cols
            .iter()
            .map(|xs| xs.iter().map(|_| Vec::new()).collect())
            .collect();
        let base = st.vals.clone();
        let base = &base;
        // `count(*)` reads nothing and cannot fail: the rows are counted per group and added
        // to the groups' accumulators once the scan is done.
        let counted: Vec<bool> = (0..arg_cols.len()).map(|a| pr.counts_rows(a)).collect();
        let counts_rows = counted.iter().any(|c| *c);
        // One key that is a node's property: read as an integer where it is one, and its
        // group found by the integer, without a value built.
        let int_key = match key_cols.as_slice() {
            [Col::NodeProp(k, Some(key))] => Some((*k, *key)),
            _ => None,
        };
        let mut pending: Vec<u64> = Vec::new();
        // Where the key is in the nodes' records (the same place, node after node, mostly).
        let mut hint = 0usize;
        let mut add = |run: &Runner, b: &Batch| -> Result<Flow> {
            if b.len == 0 {
                return Ok(Flow::More);
            }
            // A step of work per row, as the row-by-row path counts.
            run.sh.tick_n(b.len as u64)?;
            if int_key.is_none() {
                for (c, out) in key_cols.iter().zip(key_vals.iter_mut()) {
                    c.read(run, b, out);
                }
            }
            for ((cs, outs), counted) in arg_cols.iter().zip(arg_vals.iter_mut()).zip(&counted) {
                if !counted {
                    for (c, out) in cs.iter().zip(outs.iter_mut()) {
                        c.read(run, b, out);
                    }
                }
            }
            // (No key: one group, found once a batch.)
            let single = match key_cols.is_empty() {
                true => {
                    pr.key_mut().clear();
                    Some(pr.group_index(run, || first_row(base, ch, b, 0))?)
                }
                false => None,
            };
            for i in 0..b.len {
                let gi = match (single, int_key) {
                    (Some(gi), _) => gi,
                    (None, Some((k, key))) => {
                        let n = b.nodes[k][i];
                        let read = run.g.node_int_property_hinted(n, key, &mut hint);
                        match read {
                            IntRead::Int(v) => pr.int_group(v),
                            _ => None,
                        }
                        .map_or_else(
                            || {
                                let v = match read {
                                    IntRead::Int(v) => Value::Int(v),
                                    IntRead::Missing => Value::Null,
                                    IntRead::Other => {
                                        run.g.node_property(n, key).unwrap_or(Value::Null)
                                    }
                                };
                                let k = pr.key_mut();
                                k.clear();
                                k.push(GroupKey(v));
                                pr.group_index(run, || first_row(base, ch, b, i))
                            },
                            Ok,
                        )?
                    }
                    (None, None) => {
                        let key = pr.key_mut();
                        key.clear();
                        key.extend(
                            key_vals
                                .iter_mut()
                                .map(|v| GroupKey(std::mem::take(&mut v[i]))),
                        );
                        pr.group_index(run, || first_row(base, ch, b, i))?
                    }
                };
                if counts_rows {
                    if pending.len() <= gi {
                        pending.resize(gi + 1, 0);
                    }
                    pending[gi] += 1;
                }
                for ((a, outs), counted) in arg_vals.iter_mut().enumerate().zip(&counted) {
                    if !counted {
                        let args = outs.iter_mut().map(|v| std::mem::take(&mut v[i])).collect();
                        pr.accumulate(run, gi, a, args)?;
                    }
                }
            }
            fed += b.len;
            Ok(Flow::More)
        };
        pipeline.run_into(self, &mut st, &new_scope, Sink::Batches(&mut add))?;
        for (gi, n) in pending.into_iter().enumerate().filter(|(_, n)| *n > 0) {
            for (a, _) in counted.iter().enumerate().filter(|(_, c)| **c) {
                pr.add_rows(gi, a, n)?;
            }
        }
        *scope = new_scope;
        Ok(Some(fed))
    }
}

/// Row `i` of a batch as the projection's rows are laid out: the input row's values, the
/// chain's elements in their slots, null elsewhere.
fn first_row(base: &[Value], ch: &ChainInfo, b: &Batch, i: usize) -> Row {
    let mut r = base.to_vec();
    for (k, n) in ch.nodes.iter().enumerate() {
        if let Some(s) = n.slot {
            r[s] = Value::Node(b.nodes[k][i]);
        }
    }
    for (j, rel) in ch.rels.iter().enumerate() {
        if let Some(s) = rel.slot {
            r[s] = Value::Relationship(b.rels[j][i]);
        }
    }
    r
}
