//! Physical operators: a fixed-length pattern chain run as a pipeline of batches.
//!
//! The chain's anchor is a source operator (`NodeByLabelScan`, `NodeIndexSeek`, `AllNodesScan`,
//! or the node an earlier clause bound), each relationship an `Expand(All)` — or an
//! `Expand(Into)` when the pattern comes back to a node it has bound — in the order the planner
//! chose (`compile::join_order` and the anchor: the same steps `EXPLAIN` prints for the chain,
//! `explain.rs::plan_chain`). The element checks are fused into the operator that binds the
//! element, as Neo4j fuses a `Filter` into the operator below it in its pipelined runtime.
//!
//! Push-based: a source fills a batch of up to [`BATCH`] rows of ids (one column per element of
//! the chain, no `Value` built) and pushes it into the next operator, which fills its own
//! batch and pushes that on whenever it is full. Push rather than pull because the operators of
//! a chain form one pipeline that ends in a sink (the rest of the MATCH, then the projection or
//! aggregation that reads the rows): no operator needs to wait on another, each loops over a
//! whole batch without a call per row, and a LIMIT that has what it needs stops the source
//! through the same return value (control flow, not an error). Each operator keeps its input's
//! order and emits a row's matches before the next row's, so the rows come out in the order
//! the depth-first matcher (`matching.rs`) gives, which the rest of the engine was written for.
//!
//! The pipeline takes the chains that start from a scan (or a seek with many hits) and whose
//! every check compiles to ids: plain labels and `PropCheck`s on nodes, relationships without
//! predicates. The others — a chain from one bound node or a few hits, where setting up
//! batches costs more than it saves; variable-length and quantified relationships, path
//! variables, predicates that need a row — stay with the depth-first matcher. Each operator
//! has its own file: `source.rs`, `expand.rs`, `aggregate.rs`.

mod aggregate;
mod expand;
mod source;

use super::matching::{AnchorAccess, ChainInfo, MatchState, NodeInfo};
use super::{Result, Runner};
use crate::graph::{Dir, Graph};
use crate::syntax::Direction;
use crate::value::{NodeId, RelId, Value};
use std::sync::Arc;

/// Rows in a batch.
pub(super) const BATCH: usize = 1024;

/// The most relationships a chain run as a pipeline may have: one operator (and one level of
/// the push) per relationship, so the stack a chain takes stays bounded; a longer chain is
/// matched depth-first.
const MAX_STEPS: usize = 16;

/// The fewest hits of a seek whose chain runs as a pipeline.
const MIN_SEEK_HITS: usize = 64;

/// Whether the consumer wants more rows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Flow {
    More,
    Stop,
}

/// Rows of a chain's partial matches: per node of the chain and per relationship, a column of
/// ids. Only the columns bound by the operators so far are filled.
#[derive(Default)]
pub(super) struct Batch {
    nodes: Vec<Vec<NodeId>>,
    rels: Vec<Vec<RelId>>,
    len: usize,
}

impl Batch {
    fn new(nodes: usize, rels: usize) -> Self {
        Batch {
            nodes: vec![Vec::new(); nodes],
            rels: vec![Vec::new(); rels],
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.nodes.iter_mut().for_each(Vec::clear);
        self.rels.iter_mut().for_each(Vec::clear);
        self.len = 0;
    }
}

/// Where the node an `Expand` reaches must already be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// Nowhere: a node reached for the first time (`Expand(All)`).
    New,
    /// The node an earlier clause bound (`Expand(Into)`).
    Bound,
    /// The node of this column: the chain names the variable twice (`Expand(Into)`).
    Column(usize),
}

/// One `Expand`: relationship `rel` from node `from` to node `to`.
#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub(crate) rel: usize,
    pub(crate) from: usize,
    pub(crate) to: usize,
    /// Whether the step follows the pattern as written (left to right).
    pub(crate) forward: bool,
    pub(crate) dir: Dir,
    pub(crate) target: Target,
}

/// A chain's walk from node `anchor`: to the chain's end, then back to its start, one step
/// per relationship — the order in which the operators expand and in which `EXPLAIN` prints
/// them (`explain.rs::plan_chain`). `bound(slot)`: whether an earlier clause bound that
/// variable.
pub(crate) fn chain_steps(
    ch: &ChainInfo,
    anchor: usize,
    bound: impl Fn(usize) -> bool,
) -> Vec<Step> {
    let mut visited = vec![false; ch.nodes.len()];
    if let Some(v) = visited.get_mut(anchor) {
        *v = true;
    }
    let mut steps = Vec::with_capacity(ch.rels.len());
    for (j, forward) in (anchor..ch.rels.len())
        .map(|j| (j, true))
        .chain((0..anchor.min(ch.rels.len())).rev().map(|j| (j, false)))
    {
        let (from, to) = if forward { (j, j + 1) } else { (j + 1, j) };
        // A variable named twice in the chain: the later node must be the earlier one.
        let slot = ch.nodes[to].slot;
        let seen = (0..ch.nodes.len())
            .find(|&o| o != to && visited[o] && slot.is_some() && ch.nodes[o].slot == slot);
        let target = match (slot.is_some_and(&bound), seen) {
            (true, _) => Target::Bound,
            (false, Some(o)) => Target::Column(o),
            (false, None) => Target::New,
        };
        visited[to] = true;
        let dir = match (ch.rels[j].pat.direction, forward) {
            (Direction::Right, true) | (Direction::Left, false) => Dir::Outgoing,
            (Direction::Left, true) | (Direction::Right, false) => Dir::Incoming,
            (Direction::Undirected, _) => Dir::Both,
        };
        steps.push(Step {
            rel: j,
            from,
            to,
            forward,
            dir,
            target,
        });
    }
    steps
}

/// A chain compiled to operators for one run (its bound nodes read from the current row).
pub(super) struct Pipeline<'c, 'q> {
    pub(super) ch: &'c ChainInfo<'q>,
    pub(super) steps: Vec<Step>,
    /// The node the chain starts from.
    pub(super) anchor: usize,
    /// Per node: `Some(id)` when an earlier clause bound it.
    pub(super) fixed: Vec<Option<NodeId>>,
    /// Whether the MATCH allows repeated relationships (otherwise a relationship is used
    /// once per match, across the MATCH's chains).
    pub(super) repeatable: bool,
    /// The rows a batch holds before it is pushed on (see `MatchState::batch`).
    pub(super) batch: usize,
    /// Per step: whether the graph's relationships imply the labels its new node's pattern
    /// asks for (every end node of the step's types has them, `Graph::labels_implied`), so
    /// that they are not checked.
    pub(super) labels_implied: Vec<bool>,
}

impl<'c, 'q> Pipeline<'c, 'q> {
    /// The chain as a pipeline for the current row, or `None` when it needs the depth-first
    /// matcher (see the module's documentation).
    pub(super) fn new(g: &Graph, ch: &'c ChainInfo<'q>, st: &MatchState) -> Option<Self> {
        #[cfg(test)]
        if tests::DEPTH_FIRST.get() {
            return None;
        }
        let anchor = ch.anchor.as_ref()?;
        // Batches pay for themselves over a scan, or a seek with many hits; one start node
        // (a bound node, a seek's few hits) is matched depth-first without their setting up.
        let worth = match &anchor.access {
            AnchorAccess::LabelScan(_) | AnchorAccess::AllNodes | AnchorAccess::RelScan(_) => true,
            AnchorAccess::Seek { hits: Some(h), .. } => h.len() >= MIN_SEEK_HITS,
            _ => false,
        };
        #[cfg(test)]
        let worth = worth || tests::FORCE.get();
        // (Relationships added since the adjacency was built are not in the lists the batches
        // read: the depth-first matcher reads them.)
        if !worth
            || g.adjacency_patched()
            || ch.shortest.is_some()
            || ch.general.is_some()
            || ch.path_slot.is_some()
            || ch.rels.len() > MAX_STEPS
            || ch.nodes.len() != ch.rels.len() + 1
        {
            return None;
        }
        let mut fixed = Vec::with_capacity(ch.nodes.len());
        for n in &ch.nodes {
            if !id_checked(n) {
                return None;
            }
            fixed.push(match n.slot.filter(|&s| st.bound[s]) {
                Some(s) => match &st.vals[s] {
                    Value::Node(id) => Some(*id),
                    // Bound to something else (null): nothing matches; the depth-first
                    // matcher says so.
                    _ => return None,
                },
                None => None,
            });
        }
        for r in &ch.rels {
            let unchecked = r.pat.properties.is_none()
                && r.pat.where_.is_none()
                && r.filters.is_empty()
                && r.pat.length.is_none()
                && (r.types.is_some() || r.pat.types.is_none());
            if !unchecked || r.slot.is_some_and(|s| st.bound[s]) {
                return None;
            }
        }
        let twice = ch.rels.iter().enumerate().any(|(j, r)| {
            r.slot
                .is_some_and(|s| ch.rels[..j].iter().any(|o| o.slot == Some(s)))
        });
        if twice {
            return None;
        }
        let k = anchor.node;
        let steps = chain_steps(ch, k, |s| st.bound[s]);
        // (A relationship scan binds both its nodes: neither may be bound before.)
        if matches!(anchor.access, AnchorAccess::RelScan(_))
            && steps.first().is_none_or(|s| s.target == Target::Bound)
        {
            return None;
        }
        let labels_implied = steps
            .iter()
            .map(|s| {
                let (Some(Some(req)), Some(types)) = (
                    &ch.nodes[s.to].plain_labels,
                    ch.rels[s.rel].types.as_deref(),
                ) else {
                    return false;
                };
                !req.is_empty()
                    && g.label_mask(req)
                        .is_some_and(|m| g.labels_implied(types, s.dir) & m == m)
            })
            .collect();
        Some(Pipeline {
            ch,
            steps,
            anchor: k,
            fixed,
            repeatable: st.repeatable,
            batch: st.batch.clamp(1, BATCH),
            labels_implied,
        })
    }

    /// Matches the chain and hands each match to `sink` with the chain's elements bound in
    /// `st` (then unbound again).
    pub(super) fn run(
        &self,
        run: &Runner,
        st: &mut MatchState,
        scope: &[Arc<str>],
        sink: &mut dyn FnMut(&mut MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        self.run_into(run, st, scope, Sink::Rows(sink)).map(|_| ())
    }

    /// Runs the pipeline into `sink`.
    pub(super) fn run_into(
        &self,
        run: &Runner,
        st: &mut MatchState,
        scope: &[Arc<str>],
        sink: Sink,
    ) -> Result<Flow> {
        let mut out = Batch::new(self.ch.nodes.len(), self.ch.rels.len());
        let mut levels: Vec<Batch> = (0..self.steps.len())
            .map(|_| Batch::new(self.ch.nodes.len(), self.ch.rels.len()))
            .collect();
        let mut cx = Cx {
            run,
            st,
            scope,
            sink,
        };
        self.scan(&mut cx, &mut out, &mut levels)
    }

    /// The rows of the last operator: each bound in the match state and handed to the sink
    /// (or the whole batch, to a sink that takes batches).
    fn emit(&self, cx: &mut Cx, b: &Batch) -> Result<Flow> {
        let sink = match &mut cx.sink {
            Sink::Batches(f) => return f(cx.run, b),
            Sink::Rows(f) => f,
        };
        let ch = self.ch;
        for i in 0..b.len {
            for (k, n) in ch.nodes.iter().enumerate() {
                if let Some(s) = n.slot {
                    cx.st.vals[s] = Value::Node(b.nodes[k][i]);
                    cx.st.bound[s] = true;
                }
            }
            for (j, r) in ch.rels.iter().enumerate() {
                if let Some(s) = r.slot {
                    cx.st.vals[s] = Value::Relationship(b.rels[j][i]);
                    cx.st.bound[s] = true;
                }
            }
            let used = cx.st.used.len();
            if !self.repeatable {
                cx.st.used.extend(b.rels.iter().map(|c| c[i]));
            }
            let r = sink(cx.st, cx.run);
            cx.st.used.truncate(used);
            r?;
            if cx.st.halt.get() {
                self.unbind(cx.st);
                return Ok(Flow::Stop);
            }
        }
        self.unbind(cx.st);
        Ok(Flow::More)
    }

    /// Leaves the match state as the row had it: the chain's new variables unbound.
    fn unbind(&self, st: &mut MatchState) {
        for (k, n) in self.ch.nodes.iter().enumerate() {
            if let (Some(s), None) = (n.slot, self.fixed[k]) {
                st.vals[s] = Value::Null;
                st.bound[s] = false;
            }
        }
        for r in &self.ch.rels {
            if let Some(s) = r.slot {
                st.vals[s] = Value::Null;
                st.bound[s] = false;
            }
        }
    }

    /// Hands a full (or last) batch of operator `level` on: to the next operator, or to the
    /// sink after the last.
    fn push(&self, cx: &mut Cx, level: usize, b: &Batch, levels: &mut [Batch]) -> Result<Flow> {
        if b.len == 0 {
            return Ok(Flow::More);
        }
        match levels.split_first_mut() {
            None => self.emit(cx, b),
            Some((out, rest)) => self.expand(cx, level, b, out, rest),
        }
    }

    /// The nodes bound before step `level`: the anchor, then each earlier step's.
    fn visited_nodes(&self, level: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(self.anchor).chain(self.steps[..level].iter().map(|s| s.to))
    }

    /// Whether node `k` of the chain accepts `n` (labels and compiled property checks).
    fn node_ok(&self, run: &Runner, k: usize, n: NodeId) -> bool {
        node_ok(run, &self.ch.nodes[k], n)
    }
}

/// What the operators share while a pipeline runs.
pub(super) struct Cx<'r, 'a, 's, 'k> {
    run: &'r Runner<'a>,
    st: &'s mut MatchState,
    scope: &'s [Arc<str>],
    sink: Sink<'k>,
}

/// Where the last operator's rows go.
pub(super) enum Sink<'s> {
    /// Row by row, bound in the match state (the rest of the MATCH, then the clause's
    /// consumer).
    Rows(&'s mut dyn FnMut(&mut MatchState, &Runner) -> Result<()>),
    /// Batch by batch (an aggregation that reads the ids).
    Batches(&'s mut dyn FnMut(&Runner, &Batch) -> Result<Flow>),
}

/// Whether a node pattern is checked by ids alone: plain labels, and property comparisons
/// compiled to `PropCheck`s (or none).
fn id_checked(n: &NodeInfo) -> bool {
    let labels = n.pat.labels.is_none() || n.plain_labels.is_some();
    let preds = n.checks.is_some()
        || (n.pat.properties.is_none() && n.pat.where_.is_none() && n.filters.is_empty());
    labels && preds
}

/// Whether node `n`, reached over a relationship, passes the node pattern's compiled checks
/// when its labels are implied by the relationship's type (see `Pipeline::labels_implied`):
/// it is live, the relationship's end.
pub(super) fn reached_node_ok(run: &Runner, info: &NodeInfo, n: NodeId) -> bool {
    match &info.checks {
        Some(c) => run.checks_pass(n, c),
        None => true,
    }
}

/// Whether node `n` has the node pattern's labels and passes its compiled checks.
pub(super) fn node_ok(run: &Runner, info: &NodeInfo, n: NodeId) -> bool {
    // Whether a label of the node was seen: then it is live (a removed node's label bits
    // are cleared), and its record need not be read to know it.
    let mut live = false;
    match &info.plain_labels {
        None => {}
        Some(None) => return false,
        Some(Some(req)) => match run.g.has_labels_fast(n, req) {
            Some(false) => return false,
            Some(true) => live = !req.is_empty(),
            None => match run.g.node(n) {
                Some(d) if req.iter().all(|l| d.labels.contains(l)) => live = true,
                _ => return false,
            },
        },
    }
    match &info.checks {
        Some(c) => run.checks_pass(n, c),
        None => live || run.g.node(n).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{execute, execute_read, Options, Params};
    use crate::graph::Graph;
    use proptest::prelude::*;
    use std::cell::Cell;

    thread_local! {
        /// Set: every chain is matched depth-first (the pipeline declines), for comparing.
        pub(super) static DEPTH_FIRST: Cell<bool> = const { Cell::new(false) };
        /// Set: the pipeline takes every chain it can run, whatever its start (a bound node,
        /// a seek's few hits).
        pub(super) static FORCE: Cell<bool> = const { Cell::new(false) };
    }

    /// A graph of `nodes` (labels `A`/`B` by bits, property `p` when not 3: 4 is a string, 5
    /// the float 1.0) and
    /// relationships (start, end, type `R`/`S`, property `w`).
    fn graph(nodes: &[(u8, u8)], rels: &[(usize, usize, bool, u8)]) -> Graph {
        let mut script = String::from("CREATE ");
        let mut parts = Vec::new();
        for (i, (labels, p)) in nodes.iter().enumerate() {
            let mut l = String::new();
            if labels & 1 != 0 {
                l.push_str(":A");
            }
            if labels & 2 != 0 {
                l.push_str(":B");
            }
            // (Mostly integers; a string, and a float equal to an integer, among them.)
            let props = match *p {
                3 => String::new(),
                4 => " {p: 'x'}".to_string(),
                5 => " {p: 1.0}".to_string(),
                p => format!(" {{p: {p}}}"),
            };
            parts.push(format!("(n{i}{l}{props})"));
        }
        for (a, b, s, w) in rels {
            let (a, b) = (a % nodes.len(), b % nodes.len());
            let t = if *s { "S" } else { "R" };
            parts.push(format!("(n{a})-[:{t} {{w: {w}}}]->(n{b})"));
        }
        script.push_str(&parts.join(", "));
        let mut g = Graph::default();
        let stmt = crate::syntax::parse(&script).unwrap();
        execute(&mut g, &stmt, &script, &Params::new(), &Options::default()).unwrap();
        g
    }

    /// A label every end node of a type has is not checked on the nodes an `Expand` of that
    /// type reaches; the answers stay those of the checks, before and after the data stops
    /// implying it (a label removed, a relationship to an unlabelled node added).
    #[test]
    fn labels_implied_by_a_type_are_answered_as_checked() {
        let count = |g: &Graph, q: &str| -> i64 {
            let stmt = crate::syntax::parse(q).unwrap();
            let t = execute_read(g, &stmt, q, &Params::new(), &Options::default()).unwrap();
            match t.rows.first().and_then(|r| r.first()) {
                Some(crate::value::Value::Int(n)) => *n,
                other => panic!("{other:?}"),
            }
        };
        let run = |g: &mut Graph, q: &str| {
            let stmt = crate::syntax::parse(q).unwrap();
            execute(g, &stmt, q, &Params::new(), &Options::default()).unwrap();
        };
        let build = || {
            let mut g = Graph::default();
            run(
                &mut g,
                "UNWIND range(1, 40) AS i CREATE (p:P {i: i}) \
                 CREATE (p)-[:OWNS]->(:Acct:Old {i: i}) \
                 CREATE (p)-[:OWNS]->(:Acct {i: i}) \
                 CREATE (p)-[:KNOWS]->(:P {i: -i})",
            );
            g
        };
        let mut g = build();
        let (owns, acct, old, p) = (
            g.sym("OWNS").unwrap(),
            g.sym("Acct").unwrap(),
            g.sym("Old").unwrap(),
            g.sym("P").unwrap(),
        );
        let implied = |g: &Graph, ty, dir, l| {
            let m = g.label_mask(&[l]).unwrap();
            g.labels_implied(&[ty], dir) & m == m
        };
        assert!(implied(&g, owns, crate::graph::Dir::Outgoing, acct));
        assert!(!implied(&g, owns, crate::graph::Dir::Outgoing, old));
        assert!(implied(&g, owns, crate::graph::Dir::Incoming, p));
        assert!(!implied(&g, owns, crate::graph::Dir::Both, acct));
        let q = "MATCH (a:P)-[:OWNS]->(b:Acct) RETURN count(*)";
        assert_eq!(count(&g, q), 80);
        assert_eq!(
            count(&g, "MATCH (a:P)-[:OWNS]->(b:Acct:Old) RETURN count(*)"),
            40
        );
        assert_eq!(
            count(&g, "MATCH (a:P)-[:OWNS]->(b:Acct {i: 3}) RETURN count(*)"),
            2
        );
        assert_eq!(
            count(&g, "MATCH (b:Acct)<-[:OWNS]-(a:P) RETURN count(*)"),
            80
        );
        // A label removed: no longer implied, checked again.
        run(
            &mut g,
            "MATCH (b:Acct {i: 7}) WHERE NOT b:Old REMOVE b:Acct",
        );
        assert!(!implied(&g, owns, crate::graph::Dir::Outgoing, acct));
        assert_eq!(count(&g, q), 79);
        // A relationship to a node without the label.
        let mut g = build();
        run(&mut g, "MATCH (a:P {i: 1}) CREATE (a)-[:OWNS]->(:Other)");
        assert!(!implied(&g, owns, crate::graph::Dir::Outgoing, acct));
        assert_eq!(count(&g, q), 80);
    }

    /// A node pattern: variable `v`, labels, inline property.
    fn node(v: &'static [&'static str]) -> impl Strategy<Value = String> {
        (
            prop::sample::select(v.to_vec()),
            prop::sample::select(vec!["", "", ":A", ":B", ":A:B", ":C"]),
            prop::sample::select(vec!["", "", " {p: 1}", " {p: 0}", " {p: 'x'}"]),
        )
            .prop_map(|(v, l, p)| format!("({v}{l}{p})"))
    }

    /// A relationship pattern: variable `v`, types, direction.
    fn rel(v: &'static [&'static str]) -> impl Strategy<Value = String> {
        (
            prop::sample::select(v.to_vec()),
            prop::sample::select(vec!["", ":R", ":S", ":R|S"]),
            0..3u8,
        )
            .prop_map(|(v, t, d)| match d {
                0 => format!("-[{v}{t}]->"),
                1 => format!("<-[{v}{t}]-"),
                _ => format!("-[{v}{t}]-"),
            })
    }

    /// A MATCH of a chain from `a` to `b` (its first relationship `r`; the nodes between
    /// anonymous, `c`, or `a` again), or two chains, from `a` and from `b`; then what reads
    /// it.
    fn query() -> impl Strategy<Value = String> {
        (
            node(&["a"]),
            rel(&["r"]),
            prop::collection::vec((node(&["", "c", "a"]), rel(&["", "s"])), 0..3),
            node(&["b"]),
            any::<bool>(),
            prop::sample::select(vec![
                "",
                " WHERE a.p = 1",
                " WHERE b.p < 2",
                " WHERE a <> b",
            ]),
            prop::sample::select(vec![
                " RETURN count(*)",
                " RETURN a, b",
                " RETURN a, b, r",
                " RETURN a.p AS k, count(*) AS n, collect(b.p) AS ps",
                " RETURN b.p AS k, count(*) AS n, count(*) AS m",
                " RETURN count(*) AS n, max(a.p) AS m",
                " RETURN r.w AS w, sum(b.p) AS t, count(DISTINCT a) AS d",
                " RETURN b, r, count(*) AS n LIMIT 2",
                " RETURN a, b LIMIT 3",
                " WITH a, count(*) AS n WHERE n > 1 RETURN a, n",
            ]),
        )
            .prop_map(|(first, r, mids, last, chain, w, ret)| {
                let mut q = format!("MATCH {first}");
                if chain {
                    q.push_str(&r);
                    for (n, s) in mids {
                        q.push_str(&n);
                        q.push_str(&s);
                    }
                    q.push_str(&last);
                } else {
                    // Two chains, bound one after the other (relationships unique across
                    // both): from `a` along `r`, and from `b`.
                    let s = mids.first().map_or("--", |(_, s)| s.as_str());
                    q.push_str(&format!("{r}(), {last}{s}()"));
                }
                format!("{q}{w}{ret}")
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The pipeline gives what the depth-first matcher gives: the same rows in the same
        /// order (or the same error), and under PROFILE the same rows and db hits per
        /// operator.
        #[test]
        fn pipelines_match_as_depth_first_matching_does(
            nodes in prop::collection::vec((0u8..4, 0u8..6), 1..8),
            rels in prop::collection::vec((0usize..8, 0usize..8, any::<bool>(), 0u8..3), 0..16),
            q in query(),
        ) {
            let g = graph(&nodes, &rels);
            let Ok(stmt) = crate::syntax::parse(&q) else {
                return Ok(());
            };
            let profiled = format!("PROFILE {q}");
            let profile = crate::syntax::parse(&profiled).unwrap();
            let run = || {
                let plain = execute_read(&g, &stmt, &q, &Params::new(), &Options::default())
                    .map(|t| (t.columns.clone(), format!("{:?}", t.rows)))
                    .map_err(|e| e.to_string());
                // PROFILE's rows and db hits per operator, too.
                let counts = execute_read(&g, &profile, &profiled, &Params::new(), &Options::default())
                    .map(|t| t.plan.map(|p| p.render()))
                    .map_err(|e| e.to_string());
                (plain, counts)
            };
            FORCE.set(true);
            let piped = run();
            FORCE.set(false);
            DEPTH_FIRST.set(true);
            let depth_first = run();
            DEPTH_FIRST.set(false);
            prop_assert_eq!(piped, depth_first, "{}", q);
        }

        /// A chain started from a relationship type scan finds the rows a start from a node
        /// finds (in the scan's order: compared sorted), or fails as it does.
        #[test]
        fn type_scans_find_what_node_starts_find(
            nodes in prop::collection::vec((0u8..4, 0u8..6), 1..8),
            rels in prop::collection::vec((0usize..8, 0usize..8, any::<bool>(), 0u8..3), 0..16),
            q in query(),
        ) {
            // (A LIMIT keeps the first rows and `collect` lists them in the order that the
            // start decides.)
            if q.contains("LIMIT") || q.contains("collect(") {
                return Ok(());
            }
            let g = graph(&nodes, &rels);
            let Ok(stmt) = crate::syntax::parse(&q) else {
                return Ok(());
            };
            let run = || {
                execute_read(&g, &stmt, &q, &Params::new(), &Options::default())
                    .map(|t| {
                        // (Of equal values, `1` and `1.0`, a group's key and `max` keep the
                        // first found, which the order decides: read as one.)
                        let mut rows: Vec<String> = t
                            .rows
                            .iter()
                            .map(|r| format!("{r:?}").replace("Float(1.0)", "Int(1)"))
                            .collect();
                        rows.sort();
                        (t.columns.clone(), rows)
                    })
                    .map_err(|e| e.to_string())
            };
            let scanned = run();
            super::super::compile::NO_TYPE_SCAN.set(true);
            let from_nodes = run();
            super::super::compile::NO_TYPE_SCAN.set(false);
            prop_assert_eq!(scanned, from_nodes, "{}", q);
        }
    }

    /// A query of [`query`]'s chains (then, or not, a second MATCH expanding from `b`) whose
    /// RETURN sorts by one node's property and keeps the first rows (the key is the first
    /// column).
    fn sorted_query() -> impl Strategy<Value = String> {
        (
            query(),
            prop::sample::select(vec!["", "", " MATCH (b)-[s2]-(d)", " MATCH (b)-->(d:A)"]),
            prop::sample::select(vec![
                " RETURN a.p, a, b ORDER BY a.p DESC LIMIT 2",
                " RETURN b.p, b, a ORDER BY b.p LIMIT 3",
                " RETURN a.p, b ORDER BY a.p LIMIT 1",
                " RETURN b.p, a SKIP 1 LIMIT 2",
            ]),
        )
            .prop_map(|(q, second, ret)| {
                let i = q
                    .find(" RETURN")
                    .or_else(|| q.find(" WITH"))
                    .unwrap_or(q.len());
                let ret = match ret.contains("ORDER BY") || !ret.contains("SKIP") {
                    true => ret.to_string(),
                    false => " RETURN b.p, a ORDER BY b.p SKIP 1 LIMIT 2".to_string(),
                };
                format!("{}{second}{ret}", &q[..i])
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// A chain sorted as it is matched (`compile::sort_early`) returns the keys a sort of
        /// all its rows returns, in the same order, each row one of the pattern's matches; or
        /// fails as that does.
        #[test]
        fn sorting_early_keeps_the_sorted_keys(
            nodes in prop::collection::vec((0u8..4, 0u8..6), 1..8),
            rels in prop::collection::vec((0usize..8, 0usize..8, any::<bool>(), 0u8..3), 0..16),
            q in sorted_query(),
        ) {
            let g = graph(&nodes, &rels);
            let Ok(stmt) = crate::syntax::parse(&q) else {
                return Ok(());
            };
            let run = |stmt: &crate::syntax::Statement, q: &str| {
                execute_read(&g, stmt, q, &Params::new(), &Options::default())
                    .map(|t| t.rows.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>())
                    .map_err(|e| e.to_string())
            };
            // (`1` and `1.0` sort as equals: ties, whose order the plan decides; read as one.)
            let key = |rows: &[String]| -> Vec<String> {
                rows.iter()
                    .map(|r| r.split(", ").next().unwrap_or("").replace("Float(1.0)", "Int(1)").replace("Float(0.0)", "Int(0)"))
                    .collect()
            };
            let set = |v: Option<bool>| super::super::compile::SORT_EARLY.set(v);
            let scan = |v: Option<bool>| super::super::compile::SORT_AFTER_SCAN.set(v);
            set(Some(true));
            scan(Some(true));
            let after_scan = run(&stmt, &q);
            scan(Some(false));
            let early = run(&stmt, &q);
            scan(None);
            set(Some(false));
            let late = run(&stmt, &q);
            // Every match, for the rows kept.
            let all_q = q.split(" ORDER BY").next().unwrap_or(&q).split(" SKIP").next().unwrap_or(&q).split(" LIMIT").next().unwrap_or(&q).to_string();
            let all = crate::syntax::parse(&all_q).map(|s| run(&s, &all_q));
            set(None);
            for early in [after_scan, early] {
                match (early, &late) {
                    (Ok(early), Ok(late)) => {
                        prop_assert_eq!(key(&early), key(late), "{}", q);
                        if let Ok(Ok(all)) = &all {
                            for r in &early {
                                prop_assert!(all.contains(r), "{} gave {} that is not a match", q, r);
                            }
                        }
                    }
                    (early, late) => prop_assert_eq!(early.is_err(), late.is_err(), "{}", q),
                }
            }
        }
    }

    /// The generated queries above do sort early (the comparison compares something): in the
    /// chain, and between two MATCH clauses.
    #[test]
    fn generated_chains_sort_early() {
        let g = graph(
            &[(0, 1), (1, 2), (1, 0), (2, 1)],
            &[(0, 1, false, 1), (1, 2, true, 0), (2, 3, false, 1)],
        );
        let q = "MATCH (a:A)-[r]->(b) RETURN a.p, a, b ORDER BY a.p DESC LIMIT 2";
        // The plan with the sort forced early wherever it can go.
        let forced = |q: &str| {
            let stmt = crate::syntax::parse(q).unwrap();
            super::super::compile::SORT_EARLY.set(Some(true));
            let plan = crate::engine::explain(&g, &stmt, q, &Params::new(), &Options::default());
            super::super::compile::SORT_EARLY.set(None);
            plan.unwrap().shape()
        };
        let shape = forced(q);
        assert!(shape.contains("Limit <- Expand(All) <- Sort"), "{shape}");
        // The rows of a relationship scan sorted, the rest of the chain expanding them.
        let shape = forced("MATCH (a)-[r:S]->(b)-[t]->(c) RETURN a.p, a, c ORDER BY a.p LIMIT 1");
        assert!(
            shape.contains(
                "Limit <- Expand(All) <- Sort <- Projection <- DirectedRelationshipTypeScan"
            ),
            "{shape}"
        );
        // Two MATCH clauses: the first's rows sorted, the second expanding them.
        let shape =
            forced("MATCH (a:A)-[r]->(b) MATCH (b)-[s2]-(d) RETURN a.p, a, b ORDER BY a.p LIMIT 1");
        assert!(
            shape.contains(
                "Limit <- Filter <- Expand(All) <- Sort <- Projection <- Filter <- Expand(All)"
            ) || shape.contains("Limit <- Expand(All) <- Sort <- Projection"),
            "{shape}"
        );
    }

    /// The generated chains do start from relationship type scans (the comparison above
    /// compares something): an unlabelled start, a rare type.
    #[test]
    fn generated_chains_start_from_type_scans() {
        let g = graph(
            &[(0, 1), (1, 2), (1, 0)],
            &[(0, 1, false, 1), (1, 2, true, 0)],
        );
        let q = "MATCH (a)-[r:R]->(b) RETURN a, b";
        let stmt = crate::syntax::parse(q).unwrap();
        let plan = crate::engine::explain(&g, &stmt, q, &Params::new(), &Options::default())
            .unwrap()
            .render();
        assert!(plan.contains("DirectedRelationshipTypeScan"), "{plan}");
    }
}
