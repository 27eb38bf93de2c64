//! Query execution: clauses over materialised rows, pattern matching that starts from the most
//! selective pattern element, projection with implicit grouping, and the updating clauses.

use super::compiled::{CExpr, Layout, Slot};
use super::error::{ErrorKind, ExecError, Phase, Result};
use super::eval::{labels_match, path_value, type_matches, Env};
use super::functions;
use super::{Limits, Stats};
use crate::engine::Detail;
use crate::graph::{Dir, Graph, Sym};
use crate::syntax::{
    BinaryOp, CallProcedure, Clause, Direction, Expr, ExprKind, Ident, LabelExpr, Match,
    NodePattern, PathChain, PathElement, PathExpr, PathSelector, PatternPart, Projection, Query,
    RelationshipPattern, RemoveItem, SetItem, SingleQuery, SubqueryBody, VarLength,
};
use crate::value::{GroupKey, NodeId, RelId, Value};
use regex::Regex;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::Instant;

// By topic: pattern matching (`MATCH`), expression walks, projection and aggregation
// (`WITH`/`RETURN`), the updating clauses, and `LOAD CSV`'s file access.
mod admin;
mod call;
mod compile;
mod constituents;
mod explain;
mod load_csv;
mod matching;
pub(crate) mod operators;
mod physical;
mod predicates;
mod project;
pub(crate) mod schema;
mod show;
mod transactions;
pub(crate) mod update;
pub(crate) use update::{neo4j_value_text, set_property};
mod walk;

pub(crate) use explain::{filter, Anon};
pub(crate) use load_csv::*;
use matching::*;
pub(crate) use matching::{conjuncts, declare_pattern_vars};
pub(crate) use project::{deferred_items, has_aggregate, projection_columns, stage};
pub(crate) use schema::{check_constraints, constraint_text, index_text};
pub(crate) use show::show_columns;
pub(crate) use walk::*;

pub(crate) type Row = Vec<Value>;

/// Takes each row a MATCH produces, with the names of its columns.
pub(crate) type RowSink<'f> = dyn FnMut(&Runner, &[Arc<str>], &[Value]) -> Result<()> + 'f;

/// Called with the names and values of each match; returns whether to go on.
type MatchCallback<'f> = dyn FnMut(&[Arc<str>], &[Value]) -> Result<bool> + 'f;

/// A projected row, the row it came from, and its group's aggregate values.
type Projected = (Row, Row, Option<HashMap<usize, Value>>);

/// State shared by every part of one query's execution.
pub(crate) struct Shared<'a> {
    pub params: &'a BTreeMap<String, Value>,
    pub src: &'a str,
    pub limits: &'a Limits,
    pub deadline: Option<Instant>,
    pub cancel: Option<&'a AtomicBool>,
    pub procedures: &'a [super::TableProcedure],
    pub import_dir: Option<&'a std::path::Path>,
    /// The server's databases (`None`: one, `neo4j`).
    pub databases: Option<&'a crate::engine::DatabaseContext>,
    pub regex_cache: RefCell<HashMap<String, Regex>>,
    pub stats: RefCell<Stats>,
    /// Whether the statement is Cypher 25 (names in `SHOW CONSTRAINTS` differ).
    pub cypher25: bool,
    /// The statement's clock (UTC): `datetime()`, `datetime.statement()` and
    /// `datetime.transaction()` read it, so that one statement sees one "now".
    pub now: chrono::NaiveDateTime,
    /// Units of work done (candidates tried, relationships followed, rows made): the deadline
    /// is checked every 1,024 of them, and `PROFILE` reports them as db hits.
    pub ticks: std::cell::Cell<u64>,
    /// The last property key looked up in the graph's symbols: (graph, key text address and
    /// length, symbol). A statement's key names live as long as it does and a symbol never
    /// changes once interned, so a row loop reading one key looks it up once.
    pub last_key: std::cell::Cell<(usize, usize, usize, Sym)>,
    /// Under `PROFILE`: rows and db hits per clause (by the clause's address), and the hits
    /// already attributed to clauses nested in the running one.
    pub profile: Option<RefCell<HashMap<usize, ClauseProfile>>>,
    pub profiled_hits: std::cell::Cell<u64>,
    /// Under `PROFILE`: rows per pattern chain (by the pattern part's address) and step (0:
    /// its start node bound, k: its k-th expansion bound).
    pub profile_steps: RefCell<HashMap<(usize, usize), u64>>,
    /// Estimated bytes the statement holds in materialised rows and aggregation state.
    pub mem: std::cell::Cell<usize>,
    /// The statement's pattern predicates, each compiled once (see `predicates.rs`).
    pub sites: predicates::SiteCache,
    /// Virtual nodes and relationships made by the statement (`apoc.meta.graph`,
    /// `apoc.create.vNode`, …): not in the graph, described here, ids from
    /// [`crate::value::FOREIGN_ID_BASE`] up.
    pub virtuals: RefCell<Virtuals>,
    /// Nodes and relationships the statement deleted (a relationship with its type): reading
    /// one's properties or labels afterwards is Neo4j's `EntityNotFound`, its type is still
    /// known.
    pub deleted: RefCell<Deleted>,
    /// The statement's latest equality lookups (`Runner::lookup`): planning a pattern and
    /// compiling its checks ask for the same nodes, and the scans that answer them before an
    /// index pays are not repeated.
    pub lookups: RefCell<Vec<Lookup>>,
    /// The order of each single query's leading MATCH clauses (`operators::match_group`), by
    /// the query's place in the statement: chosen once, so that a subquery run per row does
    /// not plan it again and PROFILE's plan and its run take the same order.
    pub match_orders: RefCell<HashMap<usize, Vec<usize>>>,
    /// The names the clauses from each clause on (by its address) may read
    /// (`operators::live`), found once: a subquery run per row does not read its text again.
    pub live_sets: RefCell<HashMap<usize, operators::live::Live>>,
    /// The relationship statistics the planner weighs starts with, per graph (its address),
    /// and the graph's version they were taken at: taken once per statement (as Neo4j plans a
    /// statement from the statistics of that moment), so that a pattern planned per row after
    /// the statement's own writes (MERGE's match) does not rebuild the graph's adjacency for
    /// each row; taken again after a write only when the adjacency is built anyway.
    pub rel_stats: RefCell<Vec<(usize, u64, Arc<crate::graph::RelStats>)>>,
    /// The projections (by address) whose ORDER BY the MATCH before them already sorted by, as
    /// its plan chose (`compile::sort_early`): they keep their rows' order and only cut them.
    pub sorted_early: RefCell<HashSet<usize>>,
}

/// One equality lookup's answer, valid while its graph is at `version`.
#[derive(Debug)]
pub(crate) struct Lookup {
    graph: usize,
    version: u64,
    label: Sym,
    key: Sym,
    value: GroupKey,
    hits: Arc<Vec<NodeId>>,
}

/// What a statement deleted, as far as later clauses may still ask.
#[derive(Debug, Default)]
pub(crate) struct Deleted {
    pub nodes: rustc_hash::FxHashSet<NodeId>,
    pub rels: rustc_hash::FxHashMap<RelId, Arc<str>>,
}

impl Shared<'_> {
    /// The shared state of running part of this statement on another graph (a composite's
    /// constituent): the same parameters, text, limits, deadline, cancellation and clock,
    /// caches and element tables of its own.
    pub(crate) fn for_graph<'b>(
        &'b self,
        databases: &'b crate::engine::DatabaseContext,
    ) -> Shared<'b> {
        Shared {
            params: self.params,
            src: self.src,
            limits: self.limits,
            deadline: self.deadline,
            cancel: self.cancel,
            procedures: self.procedures,
            import_dir: self.import_dir,
            databases: Some(databases),
            regex_cache: RefCell::new(HashMap::new()),
            stats: RefCell::new(Stats::default()),
            cypher25: self.cypher25,
            now: self.now,
            ticks: std::cell::Cell::new(0),
            last_key: std::cell::Cell::new((0, 0, 0, 0)),
            profile: None,
            profiled_hits: std::cell::Cell::new(0),
            profile_steps: RefCell::new(HashMap::new()),
            mem: std::cell::Cell::new(self.mem.get()),
            sites: RefCell::default(),
            virtuals: RefCell::default(),
            deleted: RefCell::default(),
            lookups: RefCell::default(),
            match_orders: RefCell::default(),
            live_sets: RefCell::default(),
            rel_stats: RefCell::default(),
            sorted_early: RefCell::default(),
        }
    }

    /// Neo4j's error for reading an element the statement deleted, if `v` is one (and its id
    /// has not been taken again).
    pub(crate) fn deleted_access(&self, g: &Graph, v: &Value) -> Option<ExecError> {
        let d = self.deleted.borrow();
        let what = match v {
            Value::Node(n) if !g.contains_node(*n) && d.nodes.contains(n) => {
                format!("Node with id {}", n.0)
            }
            Value::Relationship(r) if g.relationship(*r).is_none() && d.rels.contains_key(r) => {
                format!("Relationship with id {}", r.0)
            }
            _ => return None,
        };
        Some(
            ExecError::runtime(
                ErrorKind::EntityNotFound,
                format!("{what} has been deleted in this transaction"),
            )
            .with_detail(Detail::DeletedEntityAccess),
        )
    }
}

/// What `PROFILE` measured for one clause, over every time it ran.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClauseProfile {
    pub rows: u64,
    pub db_hits: u64,
}

/// How many items [`Shared::sort_checked`] sorts between checks of the deadline.
pub(crate) const SORT_RUN: usize = 1 << 14;

/// Virtual nodes and relationships: entities a statement returns that are not in the graph
/// (APOC's virtual graph elements), with ids from [`crate::value::FOREIGN_ID_BASE`] up.
#[derive(Debug, Default)]
pub(crate) struct Virtuals {
    pub nodes: Vec<super::NodeSnapshot>,
    pub rels: Vec<super::RelSnapshot>,
    /// Virtual elements that stand for a constituent's (a composite's statement): by (is a
    /// node, virtual id), the database and id they come from.
    pub origins: HashMap<(bool, u32), (Arc<str>, u32)>,
}

impl Virtuals {
    /// Whether `id` (of a node or relationship) names a virtual one.
    pub fn is_virtual(id: u32) -> bool {
        id >= crate::value::FOREIGN_ID_BASE
    }

    pub fn add_node(&mut self, labels: Vec<Arc<str>>, props: BTreeMap<Arc<str>, Value>) -> NodeId {
        self.nodes.push((labels, props));
        NodeId(crate::value::FOREIGN_ID_BASE + (self.nodes.len() - 1) as u32)
    }

    pub fn add_rel(
        &mut self,
        ty: Arc<str>,
        start: NodeId,
        end: NodeId,
        props: BTreeMap<Arc<str>, Value>,
    ) -> RelId {
        self.rels.push((ty, start, end, props));
        RelId(crate::value::FOREIGN_ID_BASE + (self.rels.len() - 1) as u32)
    }

    pub fn node(&self, n: NodeId) -> Option<&super::NodeSnapshot> {
        n.0.checked_sub(crate::value::FOREIGN_ID_BASE)
            .and_then(|i| self.nodes.get(i as usize))
    }

    pub fn rel(&self, r: RelId) -> Option<&super::RelSnapshot> {
        r.0.checked_sub(crate::value::FOREIGN_ID_BASE)
            .and_then(|i| self.rels.get(i as usize))
    }
}

impl Shared<'_> {
    /// Makes a virtual node, its bytes charged to the statement's memory budget.
    pub(crate) fn virtual_node(
        &self,
        labels: Vec<Arc<str>>,
        props: BTreeMap<Arc<str>, Value>,
    ) -> Result<NodeId> {
        self.tick()?;
        let props = Value::Map(props);
        self.charge(Self::row_bytes(std::slice::from_ref(&props)) + 16 * labels.len())?;
        let Value::Map(props) = props else {
            unreachable!("made a map above")
        };
        Ok(self.virtuals.borrow_mut().add_node(labels, props))
    }

    /// Makes a virtual relationship, its bytes charged to the statement's memory budget.
    pub(crate) fn virtual_rel(
        &self,
        ty: Arc<str>,
        start: NodeId,
        end: NodeId,
        props: BTreeMap<Arc<str>, Value>,
    ) -> Result<RelId> {
        self.tick()?;
        let props = Value::Map(props);
        self.charge(Self::row_bytes(std::slice::from_ref(&props)) + 32)?;
        let Value::Map(props) = props else {
            unreachable!("made a map above")
        };
        Ok(self.virtuals.borrow_mut().add_rel(ty, start, end, props))
    }

    /// A regular expression that matches anywhere (APOC's text functions), compiled once per
    /// statement, within the regex crate's size limits.
    pub(crate) fn regex(&self, pattern: &str) -> std::result::Result<Regex, String> {
        let cache_key = format!("\u{0}find:{pattern}");
        let mut cache = self.regex_cache.borrow_mut();
        if let Some(re) = cache.get(&cache_key) {
            return Ok(re.clone());
        }
        let re = regex::RegexBuilder::new(pattern)
            .size_limit(1 << 22)
            .build()
            .map_err(|e| format!("java.util.regex.PatternSyntaxException: {e}"))?;
        cache.insert(cache_key, re.clone());
        Ok(re)
    }

    /// Checks the deadline and cancellation (cheaply: the clock is read every 1024 calls).
    pub fn tick(&self) -> Result<()> {
        let t = self.ticks.get().wrapping_add(1);
        self.ticks.set(t);
        if !t.is_multiple_of(1024) {
            return Ok(());
        }
        self.check_now()
    }

    /// [`Shared::tick`] for `n` steps of work at once: they are counted, and the clock is read
    /// when they pass a multiple of 1024, as `n` calls of `tick` would.
    pub fn tick_n(&self, n: u64) -> Result<()> {
        let t0 = self.ticks.get();
        let t = t0.wrapping_add(n);
        self.ticks.set(t);
        if t / 1024 == t0 / 1024 {
            return Ok(());
        }
        self.check_now()
    }

    /// Checks the deadline and cancellation now (for work that waits rather than loops).
    pub fn check_now(&self) -> Result<()> {
        if let Some(c) = self.cancel {
            if c.load(AtomicOrdering::Relaxed) {
                return Err(ExecError::runtime(ErrorKind::Cancelled, "query cancelled"));
            }
        }
        if let Some(d) = self.deadline {
            if Instant::now() > d {
                return Err(ExecError::runtime(
                    ErrorKind::LimitExceeded,
                    format!(
                        "query exceeded its time limit of {} ms",
                        self.limits.timeout.map(|t| t.as_millis()).unwrap_or(0)
                    ),
                )
                .with_detail(Detail::Timeout));
            }
        }
        Ok(())
    }

    /// Under `PROFILE`, before a clause runs: the work counters.
    pub(crate) fn profile_start(&self) -> (u64, u64) {
        (self.ticks.get(), self.profiled_hits.get())
    }

    /// Under `PROFILE`, after a clause ran: its rows, and the work it did itself (not counting
    /// clauses nested in it, which recorded their own).
    pub(crate) fn profile_end(&self, clause: &Clause, (ticks, nested): (u64, u64), rows: usize) {
        let Some(p) = &self.profile else {
            return;
        };
        let all = self.ticks.get() - ticks;
        let own = all.saturating_sub(self.profiled_hits.get() - nested);
        self.profiled_hits.set(nested + all);
        let mut p = p.borrow_mut();
        let e = p.entry(clause as *const Clause as usize).or_default();
        e.rows += rows as u64;
        e.db_hits += own;
    }

    /// Under `PROFILE`, one more row at step `step` of the chain of pattern part `part`.
    #[inline]
    pub(crate) fn profile_step(&self, part: usize, step: usize) {
        if self.profile.is_some() && part != 0 {
            *self
                .profile_steps
                .borrow_mut()
                .entry((part, step))
                .or_default() += 1;
        }
    }

    /// [`Shared::profile_step`] for `n` rows at once; also the counters of a projection's
    /// operators (`part`: the projection, `step`: one of `project::stage`).
    pub(crate) fn profile_steps(&self, part: usize, step: usize, n: u64) {
        if self.profile.is_some() && part != 0 && n > 0 {
            *self
                .profile_steps
                .borrow_mut()
                .entry((part, step))
                .or_default() += n;
        }
    }

    /// Under `PROFILE`, after the run: the rows and db hits a probe's counter holds (a chain
    /// step counts rows only).
    pub(crate) fn measured(&self, probe: crate::plan::Probe) -> (Option<u64>, Option<u64>) {
        use crate::plan::Probe;
        match probe {
            Probe::Clause(key) => {
                let c = self
                    .profile
                    .as_ref()
                    .and_then(|p| p.borrow().get(&key).copied())
                    .unwrap_or_default();
                (Some(c.rows), Some(c.db_hits))
            }
            Probe::Step(part, step) => (
                Some(
                    self.profile_steps
                        .borrow()
                        .get(&(part, step))
                        .copied()
                        .unwrap_or(0),
                ),
                None,
            ),
        }
    }

    /// Sorts `items` stably by `cmp`, checking the deadline and cancellation as it goes: runs
    /// of [`SORT_RUN`] items are sorted whole, then merged pairwise with a check per item, so
    /// that sorting millions of rows stops soon after the time limit.
    /// The first `k` of `items` in the order `cmp` gives, ties in input order: what sorting
    /// them all and keeping `k` gives, in O(n + k log k) — Neo4j's `Top`. Candidates are cut
    /// back to `k` whenever they reach twice as many (a selection, not a sort); the deadline
    /// is checked at each cut.
    pub fn top_checked<T>(
        &self,
        items: Vec<T>,
        k: usize,
        mut cmp: impl FnMut(&T, &T) -> std::cmp::Ordering,
    ) -> Result<Vec<T>> {
        if k == 0 {
            return Ok(Vec::new());
        }
        let mut total =
            |a: &(usize, T), b: &(usize, T)| cmp(&a.1, &b.1).then_with(|| a.0.cmp(&b.0));
        let cut_at = k.saturating_mul(2).max(1024);
        let mut kept: Vec<(usize, T)> = Vec::with_capacity(cut_at.min(items.len()));
        for (i, item) in items.into_iter().enumerate() {
            kept.push((i, item));
            if kept.len() >= cut_at {
                self.ticks.set(self.ticks.get() | 1023);
                self.tick()?;
                kept.select_nth_unstable_by(k - 1, &mut total);
                kept.truncate(k);
            }
        }
        if kept.len() > k {
            kept.select_nth_unstable_by(k - 1, &mut total);
            kept.truncate(k);
        }
        kept.sort_unstable_by(&mut total);
        Ok(kept.into_iter().map(|(_, t)| t).collect())
    }

    pub fn sort_checked<T>(
        &self,
        mut items: Vec<T>,
        mut cmp: impl FnMut(&T, &T) -> std::cmp::Ordering,
    ) -> Result<Vec<T>> {
        if items.len() <= SORT_RUN {
            items.sort_by(&mut cmp);
            return Ok(items);
        }
        let mut runs: std::collections::VecDeque<Vec<T>> = std::collections::VecDeque::new();
        let mut it = items.into_iter();
        loop {
            let mut run: Vec<T> = it.by_ref().take(SORT_RUN).collect();
            if run.is_empty() {
                break;
            }
            // Make the next tick a checking one.
            self.ticks.set(self.ticks.get() | 1023);
            self.tick()?;
            run.sort_by(&mut cmp);
            runs.push_back(run);
        }
        // Merge neighbours, level by level, so that ties keep their input order.
        while runs.len() > 1 {
            let mut next = std::collections::VecDeque::with_capacity(runs.len().div_ceil(2));
            while let Some(a) = runs.pop_front() {
                let Some(b) = runs.pop_front() else {
                    next.push_back(a);
                    break;
                };
                let mut merged = Vec::with_capacity(a.len() + b.len());
                let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
                loop {
                    self.tick()?;
                    let take_b = match (a.peek(), b.peek()) {
                        (Some(x), Some(y)) => cmp(y, x) == std::cmp::Ordering::Less,
                        (Some(_), None) => false,
                        (None, Some(_)) => true,
                        (None, None) => break,
                    };
                    merged.extend(if take_b { b.next() } else { a.next() });
                }
                next.push_back(merged);
            }
            runs = next;
        }
        Ok(runs.pop_front().unwrap_or_default())
    }

    /// The memory budget's error: `extra` more bytes would exceed it.
    fn out_of_memory(&self, extra: usize) -> ExecError {
        let max = self.limits.max_memory.unwrap_or(usize::MAX);
        ExecError::runtime(
            ErrorKind::LimitExceeded,
            format!(
                "the allocation of an extra {} would use more than the limit {} (currently using {}): \
                 the query's memory budget is exhausted (raise Limits::max_memory / --max-memory)",
                human_bytes(extra),
                human_bytes(max),
                human_bytes(self.mem.get()),
            ),
        )
        .with_detail(Detail::Memory)
    }

    /// Counts `bytes` more held by the statement (rows, aggregation state).
    pub fn charge(&self, bytes: usize) -> Result<()> {
        let now = self.mem.get().saturating_add(bytes);
        if let Some(max) = self.limits.max_memory {
            if now > max {
                return Err(self.out_of_memory(bytes));
            }
        }
        self.mem.set(now);
        Ok(())
    }

    /// Gives back `bytes` charged earlier for something that is no longer held.
    pub fn release(&self, bytes: usize) {
        self.mem.set(self.mem.get().saturating_sub(bytes));
    }

    /// Checks that `bytes` more could be allocated for a value under construction.
    pub fn can_allocate(&self, bytes: usize) -> Result<()> {
        if let Some(max) = self.limits.max_memory {
            if self.mem.get().saturating_add(bytes) > max {
                return Err(self.out_of_memory(bytes));
            }
        }
        Ok(())
    }

    /// Admits a value an expression built: it must not be nested deeper than
    /// [`crate::value::MAX_NESTING`] nor larger than what is left of the memory budget.
    /// Returns its estimated size.
    pub fn admit(&self, v: &Value) -> Result<usize> {
        match v {
            Value::List(_) | Value::Map(_) => {}
            Value::String(s) => {
                self.can_allocate(s.len())?;
                return Ok(s.len());
            }
            _ => return Ok(0),
        }
        let Some(fp) = crate::value::footprint(v, crate::value::MAX_NESTING) else {
            return Err(ExecError::runtime(
                ErrorKind::LimitExceeded,
                format!(
                    "a list or map nested more than {} levels deep",
                    crate::value::MAX_NESTING
                ),
            )
            .with_detail(Detail::ValueNesting));
        };
        self.can_allocate(fp.bytes)?;
        Ok(fp.bytes)
    }

    /// Adds an item to a list under construction whose items so far take `*total` bytes, and
    /// checks the list still fits the memory budget (a comprehension grows its list item by
    /// item, long before the list as a whole can be admitted).
    pub fn grow(&self, total: &mut usize, item: &Value) -> Result<()> {
        const SLOT: usize = std::mem::size_of::<Value>();
        let b = match item {
            Value::List(_) | Value::Map(_) | Value::String(_) | Value::Path(_) => {
                crate::value::footprint(item, crate::value::MAX_NESTING)
                    .map_or(usize::MAX, |f| f.bytes)
            }
            _ => SLOT,
        };
        *total = total.saturating_add(b);
        self.can_allocate(*total)
    }

    /// The estimated bytes of a row (for [`Shared::charge`]): its slot in the rows' vector
    /// (twice over, for the vector's amortised growth), its own buffer with the allocator's
    /// header and rounding, and what its values hold on the heap.
    pub fn row_bytes(row: &[Value]) -> usize {
        const SLOT: usize = std::mem::size_of::<Value>();
        let mut n =
            2 * std::mem::size_of::<Vec<Value>>() + (SLOT * row.len() + 8).next_multiple_of(16);
        for v in row {
            match v {
                // (The common case, without a walk.)
                Value::String(s) => n = n.saturating_add(16 + s.len()),
                Value::List(_) | Value::Map(_) | Value::Path(_) => {
                    n = n.saturating_add(
                        crate::value::footprint(v, usize::MAX).map_or(0, |f| f.bytes) - SLOT,
                    )
                }
                _ => {}
            }
        }
        n
    }

    pub(crate) fn check_rows(&self, n: usize) -> Result<()> {
        if n > self.limits.max_intermediate_rows {
            return Err(ExecError::runtime(
                ErrorKind::LimitExceeded,
                format!(
                    "more than {} intermediate rows (raise Limits::max_intermediate_rows)",
                    self.limits.max_intermediate_rows
                ),
            )
            .with_detail(Detail::IntermediateRows));
        }
        Ok(())
    }
}

/// Bytes as a person reads them (`1.0 GiB`).
pub(crate) fn human_bytes(n: usize) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = n as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

/// Read access to a graph plus the shared state; evaluation and matching hang off it.
#[derive(Clone, Copy)]
pub(crate) struct Runner<'a> {
    g: &'a Graph,
    pub sh: &'a Shared<'a>,
    pub params: &'a BTreeMap<String, Value>,
    /// Aggregate results of the current group, by the address of their expression.
    pub agg: Option<&'a HashMap<usize, Value>>,
}

/// Graph access for a clause: reading clauses need `&Graph`, updating ones `&mut Graph`.
pub(crate) enum Access<'a> {
    Read(&'a Graph),
    Write(&'a mut Graph),
}

impl Access<'_> {
    fn graph(&self) -> &Graph {
        match self {
            Access::Read(g) => g,
            Access::Write(g) => g,
        }
    }
}

impl<'a> Runner<'a> {
    /// The labels of a node of the graph or a virtual one.
    pub(crate) fn node_labels(&self, n: NodeId) -> Vec<Arc<str>> {
        if Virtuals::is_virtual(n.0) {
            return self
                .sh
                .virtuals
                .borrow()
                .node(n)
                .map(|(l, _)| l.clone())
                .unwrap_or_default();
        }
        self.graph().labels(n)
    }

    /// The type of a relationship of the graph or a virtual one.
    pub(crate) fn rel_type(&self, r: RelId) -> Option<Arc<str>> {
        if Virtuals::is_virtual(r.0) {
            return self.sh.virtuals.borrow().rel(r).map(|(t, ..)| t.clone());
        }
        self.graph().rel_type(r)
    }

    /// The start and end of a relationship of the graph or a virtual one.
    pub(crate) fn rel_endpoints(&self, r: RelId) -> Option<(NodeId, NodeId)> {
        if Virtuals::is_virtual(r.0) {
            return self
                .sh
                .virtuals
                .borrow()
                .rel(r)
                .map(|(_, a, b, _)| (*a, *b));
        }
        self.graph().endpoints(r)
    }

    pub fn new(g: &'a Graph, sh: &'a Shared<'a>) -> Self {
        Runner {
            g,
            sh,
            params: sh.params,
            agg: None,
        }
    }

    /// The nodes with `label` whose `key` is equivalent to `value`
    /// (`Graph::nodes_with_property`), asked once per statement while the graph is unchanged:
    /// the statement's last few answers are kept.
    pub(crate) fn lookup(&self, label: Sym, key: Sym, value: &Value) -> Arc<Vec<NodeId>> {
        const KEPT: usize = 8;
        let (graph, version) = (self.g as *const Graph as usize, self.g.version());
        // Equivalent values (`3` and `3.0`) have the same nodes.
        let probe = GroupKey(value.clone());
        let same = |l: &Lookup| {
            l.graph == graph
                && l.version == version
                && l.label == label
                && l.key == key
                && l.value == probe
        };
        if let Some(l) = self.sh.lookups.borrow().iter().find(|l| same(l)) {
            return l.hits.clone();
        }
        let hits = Arc::new(self.g.nodes_with_property(label, key, value));
        let mut kept = self.sh.lookups.borrow_mut();
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push(Lookup {
            graph,
            version,
            label,
            key,
            value: probe,
            hits: hits.clone(),
        });
        hits
    }

    /// The name of the database the statement runs on.
    pub(crate) fn database(&self) -> &str {
        self.sh.databases.map_or("neo4j", |d| d.current.as_str())
    }

    /// `elementId()` of a node (`node`) or relationship of this statement: of the database it
    /// runs on, or, for an element a composite's constituent returned, of that constituent.
    pub(crate) fn element_id(&self, node: bool, id: u32) -> String {
        if let Some((db, own)) = self.sh.virtuals.borrow().origins.get(&(node, id)) {
            return crate::value::element_id(node, db, *own);
        }
        crate::value::element_id(node, self.database(), id)
    }

    pub fn graph(&self) -> &'a Graph {
        self.g
    }

    /// The value of an aggregate expression in the current group.
    pub(crate) fn aggregate_value(&self, e: &Expr) -> Result<Value> {
        match self.agg.and_then(|m| m.get(&(e as *const Expr as usize))) {
            Some(v) => Ok(v.clone()),
            None => Err(ExecError::compile(
                ErrorKind::SemanticError,
                "aggregation is only allowed in WITH and RETURN projections",
            )
            .with_detail(Detail::InvalidAggregation)),
        }
    }

    /// `text =~ pattern`: the whole string must match (Java semantics).
    pub(crate) fn regex_full_match(&self, pattern: &str, text: &str) -> Result<bool> {
        let mut cache = self.sh.regex_cache.borrow_mut();
        if !cache.contains_key(pattern) {
            let re = Regex::new(&format!("^(?:{pattern})$"))
                .map_err(|e| super::error::ExecError::invalid_regex(pattern, &e.to_string()))?;
            cache.insert(pattern.to_string(), re);
        }
        Ok(cache.get(pattern).is_some_and(|re| re.is_match(text)))
    }
}

// ---------------------------------------------------------------------------------------------
// Queries and clauses

/// The counters PROFILE keeps beside a chain's steps (`Shared::profile_steps`, keyed by a
/// pattern part and a step number).
pub(crate) mod counter {
    /// Added to a step's number: the rows the step's scan, seek or expansion produced, before
    /// the checks of the step's node and relationship (the `Filter` above it).
    pub(crate) const BEFORE_FILTER: usize = 1 << 16;
    /// A pattern predicate's evaluations: the rows of its `Argument` (keyed by its first
    /// pattern part, its chain or its subquery).
    pub(crate) const SITE_ARGUMENT: usize = 1 << 17;
    /// The evaluations that found a match (what `SemiApply` keeps, a `Limit 1` passes).
    pub(crate) const SITE_FOUND: usize = SITE_ARGUMENT + 1;
    /// The evaluations that found none (what `AntiSemiApply` keeps).
    pub(crate) const SITE_NOT_FOUND: usize = SITE_ARGUMENT + 2;
    /// The matches handed to the predicate's consumer: a count, a comprehension's projection.
    /// An existence test asks whether there is a match and takes none (as Neo4j's
    /// `SemiApply` asks its right side), so for it this stays 0.
    pub(crate) const SITE_HANDED: usize = SITE_ARGUMENT + 3;
    /// A UNION part's `Union` (keyed by the part).
    pub(crate) const UNION: usize = 0;
    /// A UNION part's `Distinct` (without ALL).
    pub(crate) const UNION_DISTINCT: usize = 1;
    /// An OPTIONAL MATCH's `Optional` (keyed by the MATCH clause).
    pub(crate) const OPTIONAL: usize = 0;
    /// The `Argument` of an OPTIONAL MATCH that runs per incoming row: a row per run.
    pub(crate) const OPTIONAL_ARGUMENT: usize = 1;
    /// A chain sorted as matched (keyed by its pattern part): the rows its `Sort` handed on,
    /// pulled one by one until the consumer had what it needed (`matching::match_sorted`).
    pub(crate) const SORTED: usize = 1 << 18;

    /// The key a pattern predicate's counters are filed under: the span of its pattern part,
    /// chain or subquery in the statement's text (the same for the copies of it the executor
    /// makes, say a WHERE conjunct pushed into a pattern's filter), marked apart from the
    /// addresses that key a MATCH's parts.
    pub(crate) fn site_key(span: crate::syntax::Span) -> usize {
        ((1u64 << 63) | ((span.start as u64 & 0x7fff_ffff) << 32) | (span.end as u64 & 0xffff_ffff))
            as usize
    }
}

/// The result of a (sub)query: column names and rows.
pub(crate) struct Output {
    pub columns: Vec<Arc<str>>,
    pub rows: Vec<Row>,
    /// Whether the query ends with RETURN (a unit subquery does not).
    pub returns: bool,
    /// For a query without RETURN: the rows its last clause produced (what `COUNT { … }`
    /// counts of a unit subquery).
    pub units: usize,
}

impl Output {
    /// The table of a query that ends with RETURN.
    fn returning(columns: Vec<Arc<str>>, rows: Vec<Row>) -> Self {
        Output {
            columns,
            rows,
            returns: true,
            units: 0,
        }
    }
}

/// Where each variable a subquery imports is in rows of `scope` (resolved once per clause).
pub(super) fn import_slots(imports: &[Arc<str>], scope: &[Arc<str>]) -> Vec<Option<Slot>> {
    let layout = Layout::new(scope);
    imports.iter().map(|name| layout.resolve(name)).collect()
}

/// The values a subquery imports from a row (null for a name the row lacks).
pub(super) fn imported_values(slots: &[Option<Slot>], env: &Env) -> Vec<Value> {
    slots
        .iter()
        .map(|s| s.and_then(|s| env.slot(s)).cloned().unwrap_or(Value::Null))
        .collect()
}

/// Runs a query. `outer` is the importing row for subqueries.
pub(crate) fn run_query(
    access: &mut Access,
    sh: &Shared,
    q: &Query,
    outer: Option<(&[Arc<str>], &[Value])>,
) -> Result<Output> {
    let (scope, rows) = match outer {
        Some((names, values)) => (names.to_vec(), vec![values.to_vec()]),
        None => (Vec::new(), vec![Vec::new()]),
    };
    run_query_on(access, sh, q, &scope, rows)
}

/// Runs a query on a whole input table (`scope` names its columns): each UNION part reads
/// all of it.
fn run_query_on(
    access: &mut Access,
    sh: &Shared,
    q: &Query,
    scope: &[Arc<str>],
    input: Vec<Row>,
) -> Result<Output> {
    if q.unions.is_empty() {
        return run_single(access, sh, &q.first, scope.to_vec(), input);
    }
    let first = run_single(access, sh, &q.first, scope.to_vec(), input.clone())?;
    let mut columns = first.columns.clone();
    let mut rows = first.rows;
    // Each part is a `Union` of the rows so far and its own, then (UNION without ALL; the
    // checker refuses a mix) a `Distinct` of them: the operators EXPLAIN shows.
    for u in &q.unions {
        let part = run_single(access, sh, &u.query, scope.to_vec(), input.clone())?;
        if part.columns != columns {
            return Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "All sub queries in an UNION must have the same return column names",
            )
            .with_detail(Detail::DifferentColumnsInUnion)
            .with_gql(super::error::GqlStatus::union_columns())
            .at(u.span));
        }
        rows.extend(part.rows);
        columns = part.columns;
        let key = u as *const crate::syntax::UnionPart as usize;
        sh.profile_steps(key, counter::UNION, rows.len() as u64);
        if !u.all {
            let mut seen = HashSet::new();
            rows.retain(|r| seen.insert(r.iter().cloned().map(GroupKey).collect::<Vec<_>>()));
            sh.profile_steps(key, counter::UNION_DISTINCT, rows.len() as u64);
        }
    }
    Ok(Output::returning(columns, rows))
}

fn run_single(
    access: &mut Access,
    sh: &Shared,
    q: &SingleQuery,
    mut scope: Vec<Arc<str>>,
    mut rows: Vec<Row>,
) -> Result<Output> {
    // On a composite database, a part that starts with USE runs on that constituent.
    if let Some(composite) = sh.databases.and_then(|d| d.current_composite()) {
        if let Some(u) = constituents::leading_use(q) {
            return constituents::run_part(access, sh, composite, q, u, scope, rows);
        }
    }
    let pipeline = operators::Pipeline::of(q, &Runner::new(access.graph(), sh), &scope);
    if let Some(c) = pipeline.composed() {
        let started = sh.profile.as_ref().map(|_| sh.profile_start());
        let out = run_composed(access, sh, c, scope, rows)?;
        if let Some(s) = started {
            sh.profile_end(c, s, out.rows.len());
        }
        return Ok(out);
    }
    // Bytes charged to the memory budget for `rows`: each step's output replaces its input.
    let base = sh.mem.get();
    let result = (|| {
        // The columns no step from here reads, nulled once (see `operators::live`): each
        // column's name when it was.
        let mut nulled: Vec<Option<Arc<str>>> = Vec::new();
        for step in &pipeline.steps {
            if let Some(keep) = operators::live::kept(&step.live, &scope) {
                nulled.resize(scope.len(), None);
                let dead: Vec<usize> = (0..scope.len())
                    .filter(|&c| !keep[c] && nulled[c].as_ref() != Some(&scope[c]))
                    .collect();
                for r in rows.iter_mut() {
                    for &c in &dead {
                        if let Some(v) = r.get_mut(c) {
                            *v = Value::Null;
                        }
                    }
                }
                for c in dead {
                    nulled[c] = Some(scope[c].clone());
                }
            }
            let mut started = sh.profile.as_ref().map(|_| sh.profile_start());
            match step.run(access, sh, &mut scope, rows, &mut started)? {
                operators::Ran::Output(out) => {
                    if let Some(s) = started {
                        sh.profile_end(step.clause, s, out.rows.len());
                    }
                    return Ok(out);
                }
                operators::Ran::Rows(out) => {
                    rows = out;
                    sh.check_rows(rows.len())?;
                }
            }
            if let Some(s) = started {
                sh.profile_end(step.clause, s, rows.len());
            }
            // The input rows are gone; the output is what the statement holds now.
            sh.mem.set(base);
            for r in &rows {
                sh.charge(Shared::row_bytes(r))?;
            }
        }
        Ok(Output {
            columns: Vec::new(),
            rows: Vec::new(),
            returns: false,
            units: rows.len(),
        })
    })();
    // What this query returns is its caller's to count.
    sh.mem.set(base);
    result
}

/// A composed query (Cypher 25) on its input table: `{ q }`, `q NEXT q …`, `WHEN … THEN …`.
fn run_composed(
    access: &mut Access,
    sh: &Shared,
    clause: &Clause,
    scope: Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Output> {
    match clause {
        Clause::Braced(b) => run_query_on(access, sh, &b.query, &scope, rows),
        Clause::Next(n) => {
            let (mut scope, mut rows) = (scope, rows);
            let mut out = None;
            for (i, q) in n.queries.iter().enumerate() {
                sh.tick()?;
                let o = run_query_on(access, sh, q, &scope, rows)?;
                if i + 1 == n.queries.len() {
                    out = Some(o);
                    break;
                }
                // The next query reads this one's result table; a query without RETURN hands
                // on one empty row, as a new query starts with.
                (scope, rows) = if o.returns {
                    (o.columns, o.rows)
                } else {
                    (Vec::new(), vec![Vec::new()])
                };
            }
            out.ok_or_else(|| ExecError::unsupported("an empty NEXT chain"))
        }
        Clause::When(w) => {
            // Each row goes to the first branch whose condition is true (else to ELSE).
            let n = w.branches.len();
            let mut parts: Vec<Vec<Row>> = vec![Vec::new(); n + 1];
            {
                let run = Runner::new(access.graph(), sh);
                for r in rows {
                    sh.tick()?;
                    let env = Env::new(&scope, &r);
                    let mut target = n;
                    for (i, b) in w.branches.iter().enumerate() {
                        if crate::engine::eval::passes(&run.eval(&b.condition, &env)?)? {
                            target = i;
                            break;
                        }
                    }
                    parts[target].push(r);
                }
            }
            let queries = w
                .branches
                .iter()
                .map(|b| Some(&b.query))
                .chain(std::iter::once(w.else_.as_deref()));
            let mut out = Output {
                columns: Vec::new(),
                rows: Vec::new(),
                returns: false,
                units: 0,
            };
            for (q, part) in queries.zip(parts) {
                let Some(q) = q else { continue };
                if part.is_empty() {
                    continue;
                }
                let o = run_query_on(access, sh, q, &scope, part)?;
                if o.returns {
                    if out.returns && o.columns != out.columns {
                        return Err(ExecError::compile(
                            ErrorKind::SyntaxError,
                            "42N39: All conditional queries must have the same return column names. Use `AS` to ensure columns have the same name.",
                        )
                        .with_detail(Detail::DifferentColumnsInUnion)
                        .at(q.span));
                    }
                    out.columns = o.columns;
                    out.returns = true;
                    out.rows.extend(o.rows);
                    sh.check_rows(out.rows.len())?;
                }
            }
            if !out.returns {
                // No branch ran: the columns are the ones the branches would return.
                if let Some(cols) = returned_columns(
                    &Query {
                        first: SingleQuery {
                            clauses: vec![clause.clone()],
                            span: w.span,
                        },
                        unions: Vec::new(),
                        span: w.span,
                    },
                    sh.src,
                ) {
                    out.columns = cols;
                    out.returns = true;
                }
            }
            Ok(out)
        }
        _ => Err(ExecError::unsupported("this composed query")),
    }
}

/// A copy of `row` with `extra` values appended, allocated once at its final size.
fn extended_row<I>(row: &[Value], extra: I) -> Vec<Value>
where
    I: IntoIterator<Item = Value>,
    I::IntoIter: ExactSizeIterator,
{
    let extra = extra.into_iter();
    let mut nr = Vec::with_capacity(row.len() + extra.len());
    nr.extend_from_slice(row);
    nr.extend(extra);
    nr
}

/// The outer variables a `CALL { … }` without a scope clause imports: those its parts'
/// leading `WITH` names as bare variables (`WITH *`: all of them), and those a leading `USE`
/// reads (`USE graph.byName(g)`, which Neo4j evaluates in the outer scope).
fn importing_with(q: &crate::syntax::Query, scope: &[Arc<str>]) -> Vec<Arc<str>> {
    let mut out: Vec<Arc<str>> = Vec::new();
    let add = |name: &str, out: &mut Vec<Arc<str>>| {
        if scope.iter().any(|s| **s == *name) && !out.iter().any(|o| **o == *name) {
            out.push(Arc::from(name));
        }
    };
    for part in q.parts() {
        let mut clauses = part.clauses.iter();
        let mut first = clauses.next();
        if let Some(Clause::Use(u)) = first {
            let mut vars = Vec::new();
            walk::free_vars(&u.graph, &mut vars);
            for v in &vars {
                add(v, &mut out);
            }
            first = clauses.next();
        }
        let Some(Clause::With(w)) = first else {
            continue;
        };
        if w.projection.star {
            return scope.to_vec();
        }
        for it in &w.projection.items {
            if let ExprKind::Variable(v) = &it.expr.kind {
                if it.alias.as_ref().is_none_or(|a| a.name == v.name) {
                    add(&v.name, &mut out);
                }
            }
        }
    }
    out
}

/// The number of rows a MATCH needs to produce when the next clause is a projection that keeps
/// rows one for one up to its `SKIP`/`LIMIT` (no ORDER BY, DISTINCT or aggregation): the
/// rest would be thrown away.
/// A RETURN before the end of its query.
fn return_not_last(span: crate::syntax::Span) -> ExecError {
    ExecError::compile(
        ErrorKind::SyntaxError,
        "RETURN can only be used at the end of the query",
    )
    .at(span)
}

fn read_only() -> ExecError {
    ExecError::compile(
        ErrorKind::SemanticError,
        "an updating clause cannot run here (read-only context)",
    )
    .with_detail(Detail::InvalidClauseComposition)
}

/// Column names of a query's final RETURN (for `CALL { … }` scoping).
fn returned_columns(q: &Query, src: &str) -> Option<Vec<Arc<str>>> {
    let r = q.final_return()?;
    let mut cols = Vec::new();
    for it in &r.projection.items {
        cols.push(column_name(&it.expr, it.alias.as_ref(), src));
    }
    Some(cols)
}

/// The name Neo4j gives a projection column: the alias, else the expression as written.
pub(crate) fn column_name(e: &Expr, alias: Option<&Ident>, src: &str) -> Arc<str> {
    if let Some(a) = alias {
        return Arc::from(a.name.as_str());
    }
    if let ExprKind::Variable(v) = &e.kind {
        return Arc::from(v.name.as_str());
    }
    let text = e.span.text(src);
    if text.is_empty() {
        Arc::from(crate::syntax::print_expr(e, &Default::default()).as_str())
    } else {
        Arc::from(text)
    }
}

impl Value {
    /// The boolean inside, if any.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

impl Phase {
    pub fn is_compile_time(self) -> bool {
        self == Phase::CompileTime
    }
}
