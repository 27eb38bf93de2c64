//! The source of a chain's pipeline: the anchor's nodes (`NodeByLabelScan`, `NodeIndexSeek`,
//! `AllNodesScan`, or the one node an earlier clause bound), filtered by the anchor node's
//! pattern, in batches — or a scan of one relationship's rows (`…RelationshipTypeScan`,
//! `…UnionRelationshipTypesScan`, `…AllRelationshipsScan`), filtered by both its nodes'
//! patterns.

use super::{Batch, Cx, Flow, Pipeline, Target};
use crate::engine::error::Result;
use crate::engine::exec::counter::BEFORE_FILTER;
use crate::engine::exec::matching::AnchorAccess;
use crate::graph::Sym;

impl Pipeline<'_, '_> {
    /// Runs the source: every candidate of the anchor that its node pattern accepts, pushed on
    /// in batches. `out` is the source's batch, `levels` the expands' batches.
    pub(super) fn scan(&self, cx: &mut Cx, out: &mut Batch, levels: &mut [Batch]) -> Result<Flow> {
        let anchor = self.ch.anchor.as_ref().expect("a pipeline has an anchor");
        let k = anchor.node;
        if let AnchorAccess::RelScan(types) = &anchor.access {
            return self.scan_relationships(cx, types.as_deref(), out, levels);
        }
        let candidates =
            cx.run
                .anchor_candidates(anchor, self.ch.nodes[k].slot, cx.st, cx.scope)?;
        let fixed = self.fixed[k];
        let scanned = cx.run.scanned_rows(Some(anchor));
        let (mut passed, mut produced) = (0u64, scanned.unwrap_or(0));
        for &n in candidates.iter() {
            cx.run.sh.tick()?;
            if fixed.is_some_and(|f| f != n) {
                continue;
            }
            produced += u64::from(scanned.is_none());
            if !(anchor.implied || self.node_ok(cx.run, k, n)) {
                continue;
            }
            passed += 1;
            out.nodes[k].push(n);
            out.len += 1;
            if self.flush(cx, 0, out, levels, true)? == Flow::Stop {
                self.count_source(cx, 0, passed, produced);
                return Ok(Flow::Stop);
            }
        }
        let flow = self.flush(cx, 0, out, levels, false)?;
        self.count_source(cx, 0, passed, produced);
        Ok(flow)
    }

    /// Pushes the source's batch on to the operator after step `level` and empties it;
    /// `full_only`: only when it is full (the last, partial batch goes when the scan ends).
    fn flush(
        &self,
        cx: &mut Cx,
        level: usize,
        out: &mut Batch,
        levels: &mut [Batch],
        full_only: bool,
    ) -> Result<Flow> {
        if full_only && out.len < self.batch {
            return Ok(Flow::More);
        }
        let flow = self.push(cx, level, out, levels)?;
        out.clear();
        Ok(flow)
    }

    /// A relationship scan (the chain's relationship `anchor.node`, its first step): each row
    /// whose nodes their patterns accept, and whose relationship no earlier chain of the MATCH
    /// used, pushed on in batches after that step, in the depth-first matcher's order
    /// (`Runner::scanned_relationships`).
    fn scan_relationships(
        &self,
        cx: &mut Cx,
        types: Option<&[Sym]>,
        out: &mut Batch,
        levels: &mut [Batch],
    ) -> Result<Flow> {
        let step = &self.steps[0];
        let (j, a, b) = (step.rel, step.from, step.to);
        let direction = self.ch.rels[j].pat.direction;
        let levels = &mut levels[1..];
        let (mut passed, mut produced) = (0u64, 0u64);
        let run = cx.run;
        for (r, x, y) in run.scanned_relationships(types, direction) {
            run.sh.tick()?;
            produced += 1;
            let same = match step.target {
                Target::Column(c) => c != a || x == y,
                _ => true,
            };
            if !same
                || (!self.repeatable && cx.st.used.contains(&r))
                || !self.node_ok(run, a, x)
                || !self.node_ok(run, b, y)
            {
                continue;
            }
            passed += 1;
            out.nodes[a].push(x);
            out.nodes[b].push(y);
            out.rels[j].push(r);
            out.len += 1;
            if self.flush(cx, 1, out, levels, true)? == Flow::Stop {
                self.count_source(cx, 1, passed, produced);
                return Ok(Flow::Stop);
            }
        }
        let flow = self.flush(cx, 1, out, levels, false)?;
        self.count_source(cx, 1, passed, produced);
        Ok(flow)
    }

    /// Under PROFILE: the source's rows, and the candidates before its checks, filed under
    /// step `level` (0 for a node's scan or seek, 1 for a relationship scan: the first step).
    fn count_source(&self, cx: &Cx, level: usize, passed: u64, produced: u64) {
        let sh = cx.run.sh;
        sh.profile_steps(self.ch.part, level, passed);
        sh.profile_steps(self.ch.part, level | BEFORE_FILTER, produced);
    }
}
