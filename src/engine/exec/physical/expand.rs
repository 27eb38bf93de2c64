//! `Expand(All)` and `Expand(Into)`: each input row's relationships of the step's types and
//! direction, the node at their other end checked by its pattern (or, `Into`, required to be
//! the node bound before), relationships unique within the match.
//!
//! A batch is expanded in three passes, so that the memory reads of different rows overlap
//! instead of waiting on each other: the rows' adjacency lists are located, then read ahead
//! (their first cache lines), then walked into candidates, then the candidates' end nodes are
//! checked.

use super::{Batch, Cx, Flow, Pipeline, Target};
use crate::engine::error::Result;
use crate::engine::exec::counter::BEFORE_FILTER;
use crate::graph::{AdjEntry, Dir};
use crate::value::{NodeId, RelId};

/// How many entries of a row's adjacency list pass 1 reads ahead of the walk.
const PREFETCHED: usize = 80;

/// A relationship an input row reaches, before its end node is checked.
#[derive(Clone, Copy)]
struct Candidate {
    row: u32,
    rel: RelId,
    node: NodeId,
}

impl Default for Candidate {
    fn default() -> Self {
        Candidate {
            row: 0,
            rel: RelId(0),
            node: NodeId(0),
        }
    }
}

impl Pipeline<'_, '_> {
    /// Expands `input` (the rows of operator `level`) along step `level`, into `out`; full
    /// batches are pushed on to the operators in `rest`.
    pub(super) fn expand(
        &self,
        cx: &mut Cx,
        level: usize,
        input: &Batch,
        out: &mut Batch,
        rest: &mut [Batch],
    ) -> Result<Flow> {
        let step = &self.steps[level];
        let types = self.ch.rels[step.rel].types.as_deref();
        // The relationships bound before this step (uniqueness within the match).
        let earlier = &self.steps[..level];
        // Pass 1: where each row's lists are, then their first cache lines read for all rows
        // at once (each read is independent of the others, so they overlap; the walk below
        // then finds the lists in cache).
        let mut lists: Vec<(&[AdjEntry], &[AdjEntry])> = Vec::with_capacity(input.len);
        let mut touched = 0u32;
        for &n in &input.nodes[step.from][..input.len] {
            lists.push(cx.run.g.adjacency_lists(n, step.dir));
        }
        // Every cache line of the lists (an entry is 12 bytes: one in five is on each), up to
        // a few: the hardware's prefetcher follows a long list by itself.
        for l in &lists {
            for list in [l.0, l.1] {
                for e in list.iter().take(PREFETCHED).step_by(5) {
                    touched ^= e.2;
                }
                // (And the last entry: a list's end may be on a line of its own.)
                if let Some(e) = list
                    .get(..PREFETCHED.min(list.len()))
                    .and_then(|l| l.last())
                {
                    touched ^= e.2;
                }
            }
        }
        std::hint::black_box(touched);
        // Pass 2: the lists walked into candidates (a bounded buffer, checked when full).
        let entries: usize = lists.iter().map(|(o, i)| o.len() + i.len()).sum();
        let mut cands: Vec<Candidate> = Vec::with_capacity(entries.min(self.batch));
        // (The rows that passed the end node's checks, and all the step produced.)
        let mut passed = (0u64, 0u64);
        let mut flow = Flow::More;
        let both = step.dir == Dir::Both;
        // One type, a new end node, nothing to be unique from: the entries of the type are
        // kept without a branch per entry (their types come in no order a predictor learns).
        // Not one row at a time (under a LIMIT), where a row's relationships are counted as
        // work only up to the one that stops the pipeline.
        let plain = match types {
            Some(&[t]) if step.target == Target::New && !both && self.batch > 1 => {
                (self.repeatable || (earlier.is_empty() && cx.st.used.is_empty())).then_some(t)
            }
            _ => None,
        };
        'rows: for (i, &(outs, incs)) in lists.iter().enumerate() {
            if let Some(ty) = plain {
                let start = cands.len();
                for list in [outs, incs] {
                    let at = cands.len();
                    cands.resize(at + list.len(), Candidate::default());
                    let mut k = at;
                    for &(r, m, t) in list {
                        cands[k] = Candidate {
                            row: i as u32,
                            rel: r,
                            node: m,
                        };
                        k += usize::from(t == ty);
                    }
                    cands.truncate(k);
                }
                // (A step of work, and a db hit under PROFILE, per relationship of the type.)
                cx.run.sh.tick_n((cands.len() - start) as u64)?;
                if cands.len() >= self.batch {
                    flow = self.check(cx, level, input, &mut cands, out, rest, &mut passed)?;
                    if flow == Flow::Stop {
                        break 'rows;
                    }
                }
                continue;
            }
            let from = input.nodes[step.from][i];
            let want = match step.target {
                Target::New => None,
                Target::Bound => self.fixed[step.to],
                Target::Column(c) => Some(input.nodes[c][i]),
            };
            let entries = outs
                .iter()
                .chain(incs.iter().filter(|e| !(both && e.1 == from)));
            for &(r, m, t) in entries {
                if types.is_some_and(|ts| !ts.contains(&t)) {
                    continue;
                }
                // (A step of work, and a db hit under PROFILE, per relationship of the
                // types, as the depth-first matcher counts.)
                cx.run.sh.tick()?;
                if want.is_some_and(|w| w != m) {
                    continue;
                }
                if !self.repeatable
                    && (earlier.iter().any(|s| input.rels[s.rel][i] == r)
                        || cx.st.used.contains(&r))
                {
                    continue;
                }
                cands.push(Candidate {
                    row: i as u32,
                    rel: r,
                    node: m,
                });
                if cands.len() == self.batch {
                    flow = self.check(cx, level, input, &mut cands, out, rest, &mut passed)?;
                    if flow == Flow::Stop {
                        break 'rows;
                    }
                }
            }
        }
        if flow == Flow::More {
            flow = self.check(cx, level, input, &mut cands, out, rest, &mut passed)?;
        }
        if flow == Flow::More {
            flow = self.push(cx, level + 1, out, rest)?;
        }
        out.clear();
        cx.run.sh.profile_steps(self.ch.part, level + 1, passed.0);
        cx.run
            .sh
            .profile_steps(self.ch.part, (level + 1) | BEFORE_FILTER, passed.1);
        Ok(flow)
    }

    /// Pass 3: the candidates' end nodes checked by the node pattern; the rows that pass
    /// are added to `out`, which is pushed on whenever it is full. Empties `cands`.
    #[allow(clippy::too_many_arguments)]
    fn check(
        &self,
        cx: &mut Cx,
        level: usize,
        input: &Batch,
        cands: &mut Vec<Candidate>,
        out: &mut Batch,
        rest: &mut [Batch],
        passed: &mut (u64, u64),
    ) -> Result<Flow> {
        let step = &self.steps[level];
        let earlier = &self.steps[..level];
        let mut flow = Flow::More;
        let (info, implied) = (&self.ch.nodes[step.to], self.labels_implied[level]);
        for c in cands.iter() {
            passed.1 += 1;
            let ok = if implied {
                super::reached_node_ok(cx.run, info, c.node)
            } else {
                super::node_ok(cx.run, info, c.node)
            };
            if !ok {
                continue;
            }
            passed.0 += 1;
            let i = c.row as usize;
            for k in self.visited_nodes(level) {
                out.nodes[k].push(input.nodes[k][i]);
            }
            for s in earlier {
                out.rels[s.rel].push(input.rels[s.rel][i]);
            }
            out.nodes[step.to].push(c.node);
            out.rels[step.rel].push(c.rel);
            out.len += 1;
            if out.len == self.batch {
                flow = self.push(cx, level + 1, out, rest)?;
                out.clear();
                if flow == Flow::Stop {
                    break;
                }
            }
        }
        cands.clear();
        Ok(flow)
    }
}
