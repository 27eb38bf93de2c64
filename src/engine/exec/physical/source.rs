//! The source of a chain's pipeline: the anchor's nodes (`NodeByLabelScan`, `NodeIndexSeek`,
//! `AllNodesScan`, or the one node an earlier clause bound), filtered by the anchor node's
//! pattern, in batches.

use super::{Batch, Cx, Flow, Pipeline};
use crate::engine::error::Result;
use crate::engine::exec::counter::BEFORE_FILTER;

impl Pipeline<'_, '_> {
    /// Runs the source: every candidate of the anchor that its node pattern accepts, pushed on
    /// in batches. `out` is the source's batch, `levels` the expands' batches.
    pub(super) fn scan(&self, cx: &mut Cx, out: &mut Batch, levels: &mut [Batch]) -> Result<Flow> {
        let anchor = self.ch.anchor.as_ref().expect("a pipeline has an anchor");
        let k = anchor.node;
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
            if out.len == self.batch {
                let flow = self.push(cx, 0, out, levels)?;
                out.clear();
                if flow == Flow::Stop {
                    self.count_source(cx, passed, produced);
                    return Ok(Flow::Stop);
                }
            }
        }
        let flow = self.push(cx, 0, out, levels)?;
        out.clear();
        self.count_source(cx, passed, produced);
        Ok(flow)
    }

    /// Under PROFILE: the source's rows, and the candidates before its node's checks.
    fn count_source(&self, cx: &Cx, passed: u64, produced: u64) {
        let sh = cx.run.sh;
        sh.profile_steps(self.ch.part, 0, passed);
        sh.profile_steps(self.ch.part, BEFORE_FILTER, produced);
    }
}
