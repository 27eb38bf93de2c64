//! Query execution: clauses over materialised rows, pattern matching that starts from the most
//! selective pattern element, projection with implicit grouping, and the updating clauses.

use super::error::{ErrorKind, ExecError, Phase, Result};
use super::eval::{labels_match, path_value, type_matches, Env};
use super::functions;
use super::{Limits, Stats};
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

pub(crate) type Row = Vec<Value>;

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
    pub regex_cache: RefCell<HashMap<String, Regex>>,
    pub stats: RefCell<Stats>,
    pub ticks: std::cell::Cell<u32>,
    /// Estimated bytes the statement holds in materialised rows and aggregation state.
    pub mem: std::cell::Cell<usize>,
}

/// How many items [`Shared::sort_checked`] sorts between checks of the deadline.
pub(crate) const SORT_RUN: usize = 1 << 14;

impl Shared<'_> {
    /// Checks the deadline and cancellation (cheaply: the clock is read every 1024 calls).
    pub fn tick(&self) -> Result<()> {
        let t = self.ticks.get().wrapping_add(1);
        self.ticks.set(t);
        if !t.is_multiple_of(1024) {
            return Ok(());
        }
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
                .with_detail("Timeout"));
            }
        }
        Ok(())
    }

    /// Sorts `items` stably by `cmp`, checking the deadline and cancellation as it goes: runs
    /// of [`SORT_RUN`] items are sorted whole, then merged pairwise with a check per item, so
    /// that sorting millions of rows stops soon after the time limit.
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
            self.ticks.set(1023);
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
        .with_detail("Memory")
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
            .with_detail("ValueNesting"));
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

    fn check_rows(&self, n: usize) -> Result<()> {
        if n > self.limits.max_intermediate_rows {
            return Err(ExecError::runtime(
                ErrorKind::LimitExceeded,
                format!(
                    "more than {} intermediate rows (raise Limits::max_intermediate_rows)",
                    self.limits.max_intermediate_rows
                ),
            )
            .with_detail("IntermediateRows"));
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
    pub fn new(g: &'a Graph, sh: &'a Shared<'a>) -> Self {
        Runner {
            g,
            sh,
            params: sh.params,
            agg: None,
        }
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
            .with_detail("InvalidAggregation")),
        }
    }

    /// `text =~ pattern`: the whole string must match (Java semantics).
    pub(crate) fn regex_full_match(&self, pattern: &str, text: &str) -> Result<bool> {
        let mut cache = self.sh.regex_cache.borrow_mut();
        if !cache.contains_key(pattern) {
            let re = Regex::new(&format!("^(?:{pattern})$")).map_err(|e| {
                ExecError::runtime(ErrorKind::ArgumentError, format!("invalid regex: {e}"))
                    .with_detail("InvalidArgumentValue")
            })?;
            cache.insert(pattern.to_string(), re);
        }
        Ok(cache.get(pattern).is_some_and(|re| re.is_match(text)))
    }
}

// ---------------------------------------------------------------------------------------------
// Queries and clauses

/// The result of a (sub)query: column names and rows.
pub(crate) struct Output {
    pub columns: Vec<Arc<str>>,
    pub rows: Vec<Row>,
    /// Whether the query ends with RETURN (a unit subquery does not).
    pub returns: bool,
}

/// Runs a query. `outer` is the importing row for subqueries.
pub(crate) fn run_query(
    access: &mut Access,
    sh: &Shared,
    q: &Query,
    outer: Option<(&[Arc<str>], &[Value])>,
) -> Result<Output> {
    let first = run_single(access, sh, &q.first, outer)?;
    if q.unions.is_empty() {
        return Ok(first);
    }
    let mut columns = first.columns.clone();
    let mut rows = first.rows;
    let mut all = true;
    for u in &q.unions {
        let part = run_single(access, sh, &u.query, outer)?;
        if part.columns != columns {
            return Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "all sub queries in a UNION must have the same return column names",
            )
            .with_detail("DifferentColumnsInUnion")
            .at(u.span));
        }
        all &= u.all;
        rows.extend(part.rows);
        columns = part.columns;
    }
    if !all {
        let mut seen = HashSet::new();
        rows.retain(|r| seen.insert(r.iter().cloned().map(GroupKey).collect::<Vec<_>>()));
    }
    Ok(Output {
        columns,
        rows,
        returns: true,
    })
}

fn run_single(
    access: &mut Access,
    sh: &Shared,
    q: &SingleQuery,
    outer: Option<(&[Arc<str>], &[Value])>,
) -> Result<Output> {
    let (mut scope, mut rows): (Vec<Arc<str>>, Vec<Row>) = match outer {
        Some((names, values)) => (names.to_vec(), vec![values.to_vec()]),
        None => (Vec::new(), vec![Vec::new()]),
    };
    let n = q.clauses.len();
    // Bytes charged to the memory budget for `rows`: each clause's output replaces its input.
    let base = sh.mem.get();
    let mut held = 0usize;
    let result = (|| {
        for (i, clause) in q.clauses.iter().enumerate() {
            let last = i + 1 == n;
            match clause {
                Clause::Return(r) => {
                    let run = Runner::new(access.graph(), sh);
                    let (cols, out) = run.project(&r.projection, &scope, rows, true, None)?;
                    if !last {
                        return Err(ExecError::compile(
                            ErrorKind::SyntaxError,
                            "RETURN can only be used at the end of the query",
                        )
                        .at(r.span));
                    }
                    return Ok(Output {
                        columns: cols,
                        rows: out,
                        returns: true,
                    });
                }
                Clause::CallProcedure(_) if last && n == 1 => {
                    // A standalone procedure call returns the procedure's rows.
                    let before = scope.len();
                    let out = run_clause(access, sh, clause, &mut scope, rows)?;
                    return Ok(Output {
                        columns: scope[before..].to_vec(),
                        rows: out.into_iter().map(|r| r[before..].to_vec()).collect(),
                        returns: true,
                    });
                }
                Clause::Match(m) if !m.optional => {
                    // A LIMIT right after the MATCH stops the matching early.
                    let cap = row_cap(q.clauses.get(i + 1), sh, access.graph());
                    let run = Runner::new(access.graph(), sh);
                    rows = run.exec_match_capped(m, &mut scope, rows, cap)?;
                    sh.check_rows(rows.len())?;
                }
                _ => {
                    rows = run_clause(access, sh, clause, &mut scope, rows)?;
                    sh.check_rows(rows.len())?;
                }
            }
            // The input rows are gone; the output is what the statement holds now.
            sh.mem.set(base);
            held = 0;
            for r in &rows {
                let b = Shared::row_bytes(r);
                sh.charge(b)?;
                held += b;
            }
        }
        Ok(Output {
            columns: Vec::new(),
            rows: Vec::new(),
            returns: false,
        })
    })();
    // What this query returns is its caller's to count.
    sh.mem.set(base);
    result
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

fn run_clause(
    access: &mut Access,
    sh: &Shared,
    clause: &Clause,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    match clause {
        Clause::Match(m) => Runner::new(access.graph(), sh).exec_match(m, scope, rows),
        Clause::With(w) => {
            let run = Runner::new(access.graph(), sh);
            let (cols, out) = run.project(&w.projection, scope, rows, false, w.where_.as_ref())?;
            *scope = cols;
            Ok(out)
        }
        Clause::Unwind(u) => {
            let run = Runner::new(access.graph(), sh);
            let mut out = Vec::new();
            // `UNWIND range(a, b)` walks the integers without building the list, as Neo4j's
            // lazy range does; a huge range then meets the row, memory and time limits row by
            // row instead of failing up front.
            let lazy_range = match &u.expr.kind {
                crate::syntax::ExprKind::FunctionCall {
                    name,
                    distinct: false,
                    args,
                } if name.parts.len() == 1
                    && name.parts[0].name.eq_ignore_ascii_case("range")
                    && (2..=3).contains(&args.len()) =>
                {
                    Some(args)
                }
                _ => None,
            };
            for r in rows {
                if let Some(args) = lazy_range {
                    let env = Env::new(scope, &r);
                    let vals = args
                        .iter()
                        .map(|a| run.eval(a, &env))
                        .collect::<Result<Vec<_>>>()?;
                    let range = super::functions::IntRange::from_args(&vals)?;
                    for (i, x) in range.iter().enumerate() {
                        let nr = extended_row(&r, [Value::Int(x)]);
                        sh.charge(Shared::row_bytes(&nr))?;
                        out.push(nr);
                        sh.tick()?;
                        if i % 4096 == 4095 {
                            sh.check_rows(out.len())?;
                        }
                    }
                    sh.check_rows(out.len())?;
                    continue;
                }
                let v = run.eval(&u.expr, &Env::new(scope, &r))?;
                // The list is held while its items become rows.
                let held = sh.admit(&v)?;
                sh.charge(held)?;
                let items = match v {
                    Value::Null => vec![],
                    Value::List(l) => l,
                    other => vec![other],
                };
                for it in items {
                    let nr = extended_row(&r, [it]);
                    sh.charge(Shared::row_bytes(&nr))?;
                    out.push(nr);
                    sh.tick()?;
                }
                sh.release(held);
                sh.check_rows(out.len())?;
            }
            scope.push(Arc::from(u.variable.name.as_str()));
            Ok(out)
        }
        Clause::CallProcedure(c) => {
            let run = Runner::new(access.graph(), sh);
            run.call_procedure(c, scope, rows)
        }
        Clause::CallSubquery(c) => {
            if c.in_transactions.is_some() {
                // Transactions are a no-op for an in-memory graph: every statement is atomic.
            }
            let mut out = Vec::new();
            let imports: Vec<Arc<str>> = match &c.scope {
                Some(crate::syntax::SubqueryScope::All) => scope.clone(),
                Some(crate::syntax::SubqueryScope::Variables(vs)) => {
                    vs.iter().map(|v| Arc::from(v.name.as_str())).collect()
                }
                None => scope.clone(),
            };
            for r in rows {
                let env = Env::new(scope, &r);
                let mut vals = Vec::with_capacity(imports.len());
                for name in &imports {
                    vals.push(env.lookup(name).cloned().unwrap_or(Value::Null));
                }
                let sub = run_query(access, sh, &c.query, Some((&imports, &vals)))?;
                if sub.returns {
                    if sub.rows.is_empty() && c.optional {
                        let mut nr = r.clone();
                        nr.extend(sub.columns.iter().map(|_| Value::Null));
                        out.push(nr);
                    }
                    for sr in sub.rows {
                        let nr = extended_row(&r, sr);
                        sh.charge(Shared::row_bytes(&nr))?;
                        out.push(nr);
                    }
                } else {
                    out.push(r);
                }
                sh.check_rows(out.len())?;
            }
            // The subquery's columns, known from its RETURN clause.
            if let Some(cols) = returned_columns(&c.query, sh.src) {
                scope.extend(cols);
            }
            Ok(out)
        }
        Clause::Create(c) => {
            let Access::Write(g) = access else {
                return Err(read_only());
            };
            exec_create(g, sh, &c.pattern, scope, rows)
        }
        Clause::Merge(m) => {
            let Access::Write(g) = access else {
                return Err(read_only());
            };
            exec_merge(g, sh, m, scope, rows)
        }
        Clause::Set(s) => {
            let Access::Write(g) = access else {
                return Err(read_only());
            };
            for r in &rows {
                apply_set_items(g, sh, &s.items, scope, r)?;
            }
            Ok(rows)
        }
        Clause::Remove(rm) => {
            let Access::Write(g) = access else {
                return Err(read_only());
            };
            for r in &rows {
                for it in &rm.items {
                    apply_remove(g, sh, it, scope, r)?;
                }
            }
            Ok(rows)
        }
        Clause::Delete(d) => {
            let Access::Write(g) = access else {
                return Err(read_only());
            };
            exec_delete(g, sh, d, scope, &rows)?;
            Ok(rows)
        }
        Clause::Foreach(f) => {
            for r in &rows {
                let list = {
                    let run = Runner::new(access.graph(), sh);
                    run.eval(&f.list, &Env::new(scope, r))?
                };
                let items = match list {
                    Value::Null => vec![],
                    Value::List(l) => l,
                    other => {
                        return Err(ExecError::type_error(format!(
                            "FOREACH expects a list, got {}",
                            crate::value::type_name(&other)
                        )))
                    }
                };
                for it in items {
                    let mut inner_scope = scope.clone();
                    inner_scope.push(Arc::from(f.variable.name.as_str()));
                    let mut nr = r.clone();
                    nr.push(it);
                    let mut inner_rows = vec![nr];
                    for c in &f.clauses {
                        inner_rows = run_clause(access, sh, c, &mut inner_scope, inner_rows)?;
                    }
                }
            }
            Ok(rows)
        }
        Clause::LoadCsv(l) => {
            let run = Runner::new(access.graph(), sh);
            let mut out = Vec::new();
            for r in rows {
                let src = run.eval(&l.source, &Env::new(scope, &r))?;
                let Value::String(url) = src else {
                    return Err(ExecError::type_error("LOAD CSV FROM expects a string URL"));
                };
                for rec in load_csv(sh, &url, l.with_headers, l.field_terminator.as_deref())? {
                    let nr = extended_row(&r, [rec]);
                    sh.charge(Shared::row_bytes(&nr))?;
                    out.push(nr);
                    sh.check_rows(out.len())?;
                }
            }
            scope.push(Arc::from(l.variable.name.as_str()));
            Ok(out)
        }
        Clause::Use(_) => Ok(rows),
        Clause::Finish(_) => Ok(Vec::new()),
        Clause::Return(_) => unreachable_return(),
    }
}

/// An internal signal: enough rows for the LIMIT that follows; caught where it is raised.
fn limit_reached() -> ExecError {
    ExecError::runtime(ErrorKind::Cancelled, "limit reached").with_detail("\u{0}LimitReached")
}

fn is_limit_reached(e: &ExecError) -> bool {
    e.detail == Some("\u{0}LimitReached")
}

/// The number of rows a MATCH needs to produce when the next clause is a projection that keeps
/// rows one for one up to its `SKIP`/`LIMIT` (no ORDER BY, DISTINCT or aggregation): the
/// rest would be thrown away.
fn row_cap(next: Option<&Clause>, sh: &Shared, g: &Graph) -> Option<usize> {
    let p = match next? {
        Clause::Return(r) => &r.projection,
        Clause::With(w) if w.where_.is_none() => &w.projection,
        _ => return None,
    };
    let limit = p.limit.as_ref()?;
    if p.distinct || !p.order_by.is_empty() {
        return None;
    }
    let mut aggs = Vec::new();
    for it in &p.items {
        collect_aggregates(&it.expr, &mut aggs);
    }
    if !aggs.is_empty() {
        return None;
    }
    let run = Runner::new(g, sh);
    let count = |e: &Expr| match run.eval(e, &Env::new(&[], &[])) {
        Ok(Value::Int(i)) if i >= 0 => Some(i as usize),
        _ => None,
    };
    let skip = match &p.skip {
        Some(s) => count(s)?,
        None => 0,
    };
    Some(count(limit)?.saturating_add(skip))
}

/// Where a `LOAD CSV` URL points inside the import directory, as Neo4j resolves it with
/// `server.directories.import`: `file:///x.csv` (or a bare relative path) names `DIR/x.csv`.
/// Refused: no import directory (LOAD CSV is off), other URL schemes (no network), `..`,
/// anything that resolves (through symbolic links too) outside the directory, and anything
/// that is not a regular file (FIFOs, devices, directories).
pub(crate) fn resolve_import_path(
    import_dir: Option<&std::path::Path>,
    url: &str,
) -> std::result::Result<std::path::PathBuf, String> {
    use std::path::{Component, Path};
    let Some(dir) = import_dir else {
        return Err(
            "LOAD CSV is disabled: no import directory is configured (Options::import_dir, \
             --import-dir DIR; Neo4j's server.directories.import)"
                .to_string(),
        );
    };
    let rel = match url.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("file") => {
            // file://host/path is not local; file:///path and file:/path are.
            let rest = rest.strip_prefix("localhost").unwrap_or(rest);
            if !rest.starts_with('/') {
                return Err(format!(
                    "cannot load from {url:?}: only local file URLs are allowed"
                ));
            }
            percent_decode(rest)?
        }
        Some((scheme, _)) => {
            return Err(format!(
                "LOAD CSV from {scheme}:// is not available: grape reads local files only"
            ))
        }
        None => url.to_string(),
    };
    let rel = rel.trim_start_matches('/');
    if rel.is_empty() || rel.contains('\0') {
        return Err(format!("cannot load from {url:?}: no file named"));
    }
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(_) | Component::CurDir => {}
            _ => {
                return Err(format!(
                    "cannot load from {url:?}: the path leaves the import directory"
                ))
            }
        }
    }
    let root = dir
        .canonicalize()
        .map_err(|e| format!("the import directory {} cannot be used: {e}", dir.display()))?;
    let target = root.join(rel);
    let real = target.canonicalize().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            format!("cannot load from {url:?}: no such file in the import directory")
        }
        _ => format!("cannot load from {url:?}: {e}"),
    })?;
    if !real.starts_with(&root) {
        return Err(format!(
            "cannot load from {url:?}: the path leaves the import directory"
        ));
    }
    let meta = std::fs::metadata(&real).map_err(|e| format!("cannot load from {url:?}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot load from {url:?}: not a regular file"));
    }
    Ok(real)
}

/// `%XX` escapes of a file URL's path.
fn percent_decode(s: &str) -> std::result::Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("invalid escape in URL {s:?}"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("invalid escape in URL {s:?}"))
}

/// Opens a file for reading without blocking on a FIFO swapped in after the checks, and
/// checks again, on the open file, that it is a regular file.
fn open_regular(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok(f)
}

/// A reader that fails once more than `left` bytes have been read (the memory budget a
/// `LOAD CSV` file may fill).
struct BoundedRead<R> {
    inner: R,
    left: u64,
}

impl<R: std::io::Read> std::io::Read for BoundedRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other(
                "the file is larger than the query's memory budget",
            ));
        }
        let n = buf.len().min(self.left.min(usize::MAX as u64) as usize);
        let got = self.inner.read(&mut buf[..n])?;
        self.left -= got as u64;
        Ok(got)
    }
}

/// Reads a CSV file for `LOAD CSV`: rows as lists of strings, or maps keyed by the header with
/// `WITH HEADERS`. Empty fields are null, as in Neo4j.
fn load_csv(sh: &Shared, url: &str, headers: bool, terminator: Option<&str>) -> Result<Vec<Value>> {
    let err =
        |m: String| ExecError::runtime(ErrorKind::ArgumentError, m).with_detail("LoadCsvFailed");
    let path = resolve_import_path(sh.import_dir, url).map_err(err)?;
    let delim = match terminator {
        None => b',',
        Some(t) if t.len() == 1 => t.as_bytes()[0],
        Some("\\t") => b'\t',
        Some(t) => {
            return Err(err(format!(
                "FIELDTERMINATOR must be one character, got {t:?}"
            )))
        }
    };
    let file = open_regular(&path).map_err(|e| err(format!("cannot read {url:?}: {e}")))?;
    let left = sh
        .limits
        .max_memory
        .map_or(u64::MAX, |m| m.saturating_sub(sh.mem.get()) as u64);
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(headers)
        .delimiter(delim)
        .flexible(true)
        .from_reader(BoundedRead { inner: file, left });
    let cell = |s: &str| {
        if s.is_empty() {
            Value::Null
        } else {
            Value::from(s)
        }
    };
    let names: Vec<Arc<str>> = if headers {
        rdr.headers()
            .map_err(|e| err(format!("{url}: {e}")))?
            .iter()
            .map(Arc::from)
            .collect()
    } else {
        Vec::new()
    };
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| err(format!("{url}: {e}")))?;
        sh.tick()?;
        let v = if headers {
            let mut m = BTreeMap::new();
            for (i, name) in names.iter().enumerate() {
                m.insert(name.clone(), rec.get(i).map(cell).unwrap_or(Value::Null));
            }
            Value::Map(m)
        } else {
            Value::List(rec.iter().map(cell).collect())
        };
        sh.charge(crate::value::footprint(&v, 2).map_or(0, |f| f.bytes))?;
        out.push(v);
    }
    Ok(out)
}

fn unreachable_return() -> Result<Vec<Row>> {
    Err(ExecError::compile(
        ErrorKind::SyntaxError,
        "RETURN can only be used at the end of the query",
    ))
}

fn read_only() -> ExecError {
    ExecError::compile(
        ErrorKind::SemanticError,
        "an updating clause cannot run here (read-only context)",
    )
    .with_detail("InvalidClauseComposition")
}

/// Column names of a query's final RETURN (for `CALL { … }` scoping).
fn returned_columns(q: &Query, src: &str) -> Option<Vec<Arc<str>>> {
    let last = q.first.clauses.last()?;
    let Clause::Return(r) = last else { return None };
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

// ---------------------------------------------------------------------------------------------
// MATCH

/// What matching needs to know about a node pattern.
#[derive(Clone)]
struct NodeInfo<'q> {
    slot: Option<usize>,
    pat: &'q NodePattern,
    /// The labels as symbols when they are a plain conjunction of names (the common case);
    /// `Some(None)` when one of them is unknown to the graph (nothing can match).
    plain_labels: Option<Option<Vec<Sym>>>,
    /// Extra predicates pushed down from WHERE that only involve this element.
    filters: Vec<&'q Expr>,
    /// Equality seeks (`key = value`) usable through a property index.
    seeks: Vec<(&'q str, &'q Expr)>,
}

#[derive(Clone)]
struct RelInfo<'q> {
    slot: Option<usize>,
    pat: &'q RelationshipPattern,
    types: Option<Vec<Sym>>,
    filters: Vec<&'q Expr>,
}

struct ChainInfo<'q> {
    path_slot: Option<usize>,
    nodes: Vec<NodeInfo<'q>>,
    rels: Vec<RelInfo<'q>>,
    shortest: Option<bool>,
    /// Chains with quantified relationships, quantified path patterns or a path selector are
    /// matched left to right by [`Runner::match_general`]; `nodes` and `rels` stay empty.
    general: Option<General<'q>>,
}

/// A pattern part matched element by element along a growing path (see `match_general`).
struct General<'q> {
    elems: Vec<GElem<'q>>,
    selector: Option<&'q PathSelector>,
}

/// One element of a general chain. A node checks (or, at the start, chooses) the path's
/// current end node; a relationship extends the path; a group repeats its elements.
enum GElem<'q> {
    Node(NodeInfo<'q>),
    Rel(RelInfo<'q>),
    Group(GroupInfo<'q>),
    /// The WHERE of an unquantified parenthesized path.
    Filter(&'q Expr),
}

/// A quantified path pattern (or a quantified relationship, whose group is that relationship
/// alone): its elements repeat `min..=max` times, consecutive iterations sharing a node.
struct GroupInfo<'q> {
    elems: Vec<GElem<'q>>,
    min: u64,
    max: Option<u64>,
    where_: Option<&'q Expr>,
    /// Slots of the group variables: single values inside an iteration, lists after it.
    slots: Vec<usize>,
}

/// The path matched so far by a general chain.
#[derive(Default)]
struct GPath {
    nodes: Vec<NodeId>,
    rels: Vec<RelId>,
}

/// A general-chain match kept for path selection: end nodes, length and the bindings.
struct Found {
    ends: (NodeId, NodeId),
    len: usize,
    vals: Vec<Value>,
    bound: Vec<bool>,
    used: Vec<RelId>,
    path: GPath,
}

/// The bindings made while matching one MATCH clause.
struct MatchState {
    vals: Vec<Value>,
    bound: Vec<bool>,
    used: Vec<RelId>,
    /// `MATCH REPEATABLE ELEMENTS`: relationships may repeat (no uniqueness check).
    repeatable: bool,
}

/// Where each element of a chain is bound: node ids, and per relationship the relationships
/// and intermediate nodes traversed (left to right).
struct Trace {
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
        let old_len = scope.len();
        let mut new_scope = scope.clone();
        declare_pattern_vars(&m.pattern, &mut new_scope);
        let new_vars: Vec<Arc<str>> = new_scope[old_len..].to_vec();
        let chains = self.compile_chains(&m.pattern, &new_scope, old_len, m.where_.as_ref())?;
        let mut out = Vec::new();
        for r in rows {
            self.sh.tick()?;
            let mut st = MatchState {
                vals: r.clone(),
                bound: vec![true; r.len()],
                used: Vec::new(),
                repeatable: m.mode == Some(crate::syntax::MatchMode::RepeatableElements),
            };
            st.vals.resize(new_scope.len(), Value::Null);
            st.bound.resize(new_scope.len(), false);
            let before = out.len();
            let result = self.match_parts(&chains.0, 0, &mut st, &new_scope, &mut |st, run| {
                if let Some(w) = &chains.1 {
                    let env = Env::new(&new_scope, &st.vals);
                    if run.eval(w, &env)?.as_bool() != Some(true) {
                        return Ok(());
                    }
                }
                run.sh.charge(Shared::row_bytes(&st.vals))?;
                out.push(st.vals.clone());
                run.sh.check_rows(out.len())?;
                if cap.is_some_and(|c| out.len() >= c) {
                    return Err(limit_reached());
                }
                Ok(())
            });
            match result {
                Err(e) if is_limit_reached(&e) => {}
                other => other?,
            }
            if m.optional && out.len() == before {
                let mut nr = r;
                nr.extend(new_vars.iter().map(|_| Value::Null));
                out.push(nr);
            }
            if cap.is_some_and(|c| out.len() >= c) {
                break;
            }
        }
        *scope = new_scope;
        Ok(out)
    }

    /// Prepares the pattern: slots, relationship type symbols, and WHERE conjuncts pushed down
    /// to the elements they alone involve. Returns the chains and what is left of WHERE.
    fn compile_chains<'q>(
        &self,
        parts: &'q [PatternPart],
        scope: &[Arc<str>],
        old_len: usize,
        where_: Option<&'q Expr>,
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
                path_slot: slot(&p.variable),
                nodes: Vec::new(),
                rels: Vec::new(),
                shortest,
                general: None,
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
        Ok((chains, remaining))
    }

    /// A node pattern's matching information, with the seeks its inline `{key: value}` map
    /// and inline `WHERE v.key = value` offer.
    fn node_info<'q>(&self, n: &'q NodePattern, slot: Option<usize>) -> NodeInfo<'q> {
        let mut info = NodeInfo {
            slot,
            pat: n,
            plain_labels: self.plain_label_syms(n.labels.as_ref()),
            filters: Vec::new(),
            seeks: Vec::new(),
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

    fn rel_info<'q>(&self, r: &'q RelationshipPattern, slot: Option<usize>) -> RelInfo<'q> {
        RelInfo {
            slot,
            pat: r,
            types: r.types.as_ref().and_then(|t| self.simple_types(t)),
            filters: Vec::new(),
        }
    }

    /// Compiles the elements of a chain matched by `match_general`. Quantified relationships
    /// become one-relationship groups; unquantified parenthesized paths are inlined.
    fn compile_general<'q>(
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
    fn plain_label_syms(&self, l: Option<&LabelExpr>) -> Option<Option<Vec<Sym>>> {
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
    fn simple_types(&self, t: &LabelExpr) -> Option<Vec<Sym>> {
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

    fn match_parts(
        &self,
        chains: &[ChainInfo],
        i: usize,
        st: &mut MatchState,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
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
        let mut trace = Trace {
            nodes: vec![None; ch.nodes.len()],
            rels: vec![None; ch.rels.len()],
        };
        // Anchor: the cheapest node to start from.
        let (anchor, candidates) = self.choose_anchor(ch, st, scope)?;
        let steps: Vec<(usize, bool)> = (anchor..ch.rels.len())
            .map(|j| (j, true))
            .chain((0..anchor).rev().map(|j| (j, false)))
            .collect();
        for n in candidates {
            self.sh.tick()?;
            if let Some(saved) = self.bind_node(&ch.nodes[anchor], n, st, scope)? {
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
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn finish_chain(
        &self,
        ch: &ChainInfo,
        trace: &Trace,
        st: &mut MatchState,
        chains: &[ChainInfo],
        i: usize,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
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

    /// Picks the start node of a chain: a bound variable, an index seek, the smallest label,
    /// or all nodes — whichever promises the fewest candidates.
    fn choose_anchor(
        &self,
        ch: &ChainInfo,
        st: &MatchState,
        scope: &[Arc<str>],
    ) -> Result<(usize, Vec<NodeId>)> {
        let mut best: Option<(usize, usize, Vec<NodeId>)> = None;
        for (k, n) in ch.nodes.iter().enumerate() {
            if let Some(s) = n.slot {
                if st.bound[s] {
                    let c = match &st.vals[s] {
                        Value::Node(id) => vec![*id],
                        _ => vec![],
                    };
                    return Ok((k, c));
                }
            }
        }
        let env = Env::new(scope, &st.vals);
        for (k, n) in ch.nodes.iter().enumerate() {
            let label = first_label(n.pat.labels.as_ref()).and_then(|l| self.g.sym(l));
            if n.pat.labels.is_some()
                && first_label(n.pat.labels.as_ref()).is_some()
                && label.is_none()
            {
                return Ok((k, Vec::new())); // a label nobody has: no matches
            }
            let mut cand: Option<Vec<NodeId>> = None;
            if let Some(l) = label {
                for (key, vexpr) in &n.seeks {
                    if !self.independent_of_unbound(vexpr, st, scope) {
                        continue;
                    }
                    let v = self.eval(vexpr, &env)?;
                    if v.is_null() {
                        cand = Some(Vec::new());
                        break;
                    }
                    if let Some(ks) = self.g.sym(key) {
                        let hits = self.g.nodes_with_property(l, ks, &v);
                        if cand.as_ref().is_none_or(|c| hits.len() < c.len()) {
                            cand = Some(hits);
                        }
                    } else {
                        cand = Some(Vec::new());
                    }
                }
                if cand.is_none() {
                    cand = Some(self.g.nodes_with_label(l).to_vec());
                }
            }
            let cost = cand
                .as_ref()
                .map(|c| c.len())
                .unwrap_or(self.g.node_count());
            if best.as_ref().is_none_or(|b| cost < b.0) {
                let c = cand.unwrap_or_else(|| self.g.node_ids().collect());
                best = Some((cost, k, c));
            }
        }
        let (_, k, c) = best.unwrap_or((0, 0, Vec::new()));
        Ok((k, c))
    }

    /// Whether an expression only reads variables that are bound now.
    fn independent_of_unbound(&self, e: &Expr, st: &MatchState, scope: &[Arc<str>]) -> bool {
        let mut vars = Vec::new();
        free_vars(e, &mut vars);
        vars.iter().all(|v| {
            scope
                .iter()
                .rposition(|s| **s == **v)
                .is_none_or(|i| st.bound[i])
        })
    }

    /// Checks node `n` against a node pattern and binds it. Returns what to restore, or `None`
    /// when the node does not match.
    fn bind_node(
        &self,
        info: &NodeInfo,
        n: NodeId,
        st: &mut MatchState,
        scope: &[Arc<str>],
    ) -> Result<Option<Option<Value>>> {
        let Some(data) = self.g.node(n) else {
            return Ok(None);
        };
        if let Some(s) = info.slot {
            if st.bound[s] {
                return Ok(match &st.vals[s] {
                    Value::Node(m) if *m == n => Some(None),
                    _ => None,
                });
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
                    if !labels_match(self, &data.labels, l) {
                        return Ok(None);
                    }
                }
            }
        }
        let saved = info.slot.map(|s| {
            st.bound[s] = true;
            std::mem::replace(&mut st.vals[s], Value::Node(n))
        });
        let ok = self.element_ok(
            &Value::Node(n),
            info.pat.properties.as_ref(),
            info.pat.where_.as_ref(),
            &info.filters,
            st,
            scope,
        );
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

    /// Property map, inline WHERE and pushed-down filters of a bound element.
    fn element_ok(
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
                    let want = self.eval(p, &env)?;
                    match want {
                        Value::Map(m) => {
                            for (k, x) in m {
                                if self.property(v, &k)?.equals(&x) != Some(true) {
                                    return Ok(false);
                                }
                            }
                        }
                        Value::Null => return Ok(false),
                        other => {
                            return Err(ExecError::type_error(format!(
                                "pattern properties must be a map, got {}",
                                crate::value::type_name(&other)
                            )))
                        }
                    }
                }
            }
        }
        if let Some(w) = where_ {
            if self.eval(w, &env)?.as_bool() != Some(true) {
                return Ok(false);
            }
        }
        for f in filters {
            if self.eval(f, &env)?.as_bool() != Some(true) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        ch: &ChainInfo,
        steps: &[(usize, bool)],
        si: usize,
        st: &mut MatchState,
        trace: &mut Trace,
        scope: &[Arc<str>],
        done: &mut dyn FnMut(&mut MatchState, &Runner, &Trace) -> Result<()>,
    ) -> Result<()> {
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
                let mut nbrs = Vec::new();
                self.g
                    .for_each_neighbour(from, dir, types, |r, m| nbrs.push((r, m)));
                for (r, m) in nbrs {
                    self.sh.tick()?;
                    if (!st.repeatable && st.used.contains(&r)) || !self.rel_type_ok(rel, r) {
                        continue;
                    }
                    if let Some(s) = rel.slot.filter(|&s| st.bound[s]) {
                        // Already bound (an earlier pattern or clause): must be this one.
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
                    )?;
                    if ok {
                        st.used.push(r);
                        if let Some(saved) = self.bind_node(&ch.nodes[to_k], m, st, scope)? {
                            trace.nodes[to_k] = Some(m);
                            trace.rels[j] = Some((vec![r], vec![]));
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

    fn rel_type_ok(&self, rel: &RelInfo, r: RelId) -> bool {
        match (&rel.types, &rel.pat.types) {
            (Some(_), _) | (None, None) => true,
            (None, Some(t)) => self
                .g
                .relationship(r)
                .is_some_and(|d| type_matches(self, d.ty, t)),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn var_length(
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
                || !self.rel_type_ok(rel, r)
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
    fn match_shortest(
        &self,
        ch: &ChainInfo,
        all: bool,
        chains: &[ChainInfo],
        i: usize,
        st: &mut MatchState,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
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
        let env = Env::new(scope, &st.vals);
        let _ = env;
        // Start candidates.
        let (_, starts) = self.choose_anchor(
            &ChainInfo {
                path_slot: None,
                nodes: vec![NodeInfo {
                    slot: ch.nodes[0].slot,
                    pat: ch.nodes[0].pat,
                    plain_labels: ch.nodes[0].plain_labels.clone(),
                    filters: vec![],
                    seeks: ch.nodes[0].seeks.clone(),
                }],
                rels: vec![],
                shortest: None,
                general: None,
            },
            st,
            scope,
        )?;
        for s in starts {
            let Some(saved_s) = self.bind_node(&ch.nodes[0], s, st, scope)? else {
                continue;
            };
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
                        if !self.rel_type_ok(rel, r) {
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
    fn match_general(
        &self,
        ch: &ChainInfo,
        gen: &General,
        chains: &[ChainInfo],
        i: usize,
        st: &mut MatchState,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
        let mut path = GPath::default();
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
    fn general_done(
        &self,
        ch: &ChainInfo,
        path: &GPath,
        st: &mut MatchState,
        chains: &[ChainInfo],
        i: usize,
        scope: &[Arc<str>],
        emit: &mut dyn FnMut(&MatchState, &Runner) -> Result<()>,
    ) -> Result<()> {
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
    fn gmatch(
        &self,
        elems: &[GElem],
        idx: usize,
        st: &mut MatchState,
        path: &mut GPath,
        scope: &[Arc<str>],
        k: &mut dyn FnMut(&mut MatchState, &mut GPath, &Runner) -> Result<()>,
    ) -> Result<()> {
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
                if self.eval(w, &Env::new(scope, &st.vals))?.as_bool() == Some(true) {
                    self.gmatch(elems, idx + 1, st, path, scope, k)?;
                }
                Ok(())
            }
            GElem::Node(info) => {
                let candidates = match path.nodes.last() {
                    Some(&n) => vec![n],
                    None => {
                        let single = ChainInfo {
                            path_slot: None,
                            nodes: vec![info.clone()],
                            rels: vec![],
                            shortest: None,
                            general: None,
                        };
                        self.choose_anchor(&single, st, scope)?.1
                    }
                };
                let fresh = path.nodes.is_empty();
                for n in candidates {
                    self.sh.tick()?;
                    if let Some(saved) = self.bind_node(info, n, st, scope)? {
                        if fresh {
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
    fn g_hop(
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
        let Some(&from) = path.nodes.last() else {
            return Ok(());
        };
        let mut nbrs = Vec::new();
        self.g
            .for_each_neighbour(from, dir, rel.types.as_deref(), |r, m| nbrs.push((r, m)));
        for (r, m) in nbrs {
            self.sh.tick()?;
            if (!st.repeatable && st.used.contains(&r)) || !self.rel_type_ok(rel, r) {
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
    fn g_varlen(
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
                || !self.rel_type_ok(rel, r)
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
    fn g_iterate(
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
                if run.eval(w, &Env::new(scope, &st.vals))?.as_bool() != Some(true) {
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

    /// Matches `chain` against the current environment and calls `f` for each match with the
    /// extended environment.
    fn for_each_pattern_match(
        &self,
        parts: &[PatternPart],
        where_: Option<&Expr>,
        env: &Env,
        f: &mut MatchCallback,
    ) -> Result<()> {
        // Flatten the environment into one frame.
        let (mut names, mut vals) = (Vec::new(), Vec::new());
        flatten_env(env, &mut names, &mut vals);
        let old_len = names.len();
        declare_pattern_vars(parts, &mut names);
        let (chains, rest) = self.compile_chains(parts, &names, old_len, where_)?;
        let mut st = MatchState {
            bound: vec![true; vals.len()],
            vals,
            used: Vec::new(),
            repeatable: false,
        };
        st.vals.resize(names.len(), Value::Null);
        st.bound.resize(names.len(), false);
        struct Stop;
        let mut stop = false;
        let r = self.match_parts(&chains, 0, &mut st, &names, &mut |st, run| {
            if stop {
                return Ok(());
            }
            if let Some(w) = &rest {
                if run.eval(w, &Env::new(&names, &st.vals))?.as_bool() != Some(true) {
                    return Ok(());
                }
            }
            if !f(&names, &st.vals)? {
                stop = true;
            }
            Ok(())
        });
        let _ = Stop;
        r
    }

    /// `shortestPath(…)` / `allShortestPaths(…)` used as an expression: the path (or null), or
    /// the list of all shortest paths.
    pub(crate) fn shortest_path_value(
        &self,
        all: bool,
        chain: &PathChain,
        env: &Env,
    ) -> Result<Value> {
        const VAR: &str = "\u{0}shortest";
        let part = PatternPart {
            variable: Some(Ident {
                name: VAR.to_string(),
                span: chain.span,
            }),
            selector: None,
            path: PathExpr::ShortestFunction {
                all,
                chain: chain.clone(),
                span: chain.span,
            },
            span: chain.span,
        };
        let mut paths = Vec::new();
        self.for_each_pattern_match(
            std::slice::from_ref(&part),
            None,
            env,
            &mut |names, vals| {
                if let Some(i) = names.iter().rposition(|n| &**n == VAR) {
                    paths.push(vals[i].clone());
                }
                Ok(all)
            },
        )?;
        Ok(if all {
            Value::List(paths)
        } else {
            paths.into_iter().next().unwrap_or(Value::Null)
        })
    }

    pub(crate) fn pattern_exists(&self, chain: &PathChain, env: &Env) -> Result<bool> {
        let part = PatternPart {
            variable: None,
            selector: None,
            path: PathExpr::Chain(chain.clone()),
            span: chain.span,
        };
        let mut found = false;
        self.for_each_pattern_match(std::slice::from_ref(&part), None, env, &mut |_, _| {
            found = true;
            Ok(false)
        })?;
        Ok(found)
    }

    pub(crate) fn pattern_comprehension(
        &self,
        variable: Option<&Ident>,
        pattern: &PathChain,
        filter: Option<&Expr>,
        map: &Expr,
        env: &Env,
    ) -> Result<Value> {
        let part = PatternPart {
            variable: variable.cloned(),
            selector: None,
            path: PathExpr::Chain(pattern.clone()),
            span: pattern.span,
        };
        let mut out = Vec::new();
        let mut bytes = 0usize;
        self.for_each_pattern_match(
            std::slice::from_ref(&part),
            filter,
            env,
            &mut |names, vals| {
                let v = self.eval(map, &Env::new(names, vals))?;
                self.sh.grow(&mut bytes, &v)?;
                out.push(v);
                Ok(true)
            },
        )?;
        Ok(Value::List(out))
    }

    /// Rows of an `EXISTS { … }` / `COUNT { … }` body (stops at the first when `exists_only`).
    pub(crate) fn subquery_count(
        &self,
        body: &SubqueryBody,
        env: &Env,
        exists_only: bool,
    ) -> Result<usize> {
        match body {
            SubqueryBody::Pattern { pattern, where_ } => {
                let mut n = 0;
                self.for_each_pattern_match(pattern, where_.as_ref(), env, &mut |_, _| {
                    n += 1;
                    Ok(!exists_only)
                })?;
                Ok(n)
            }
            SubqueryBody::Query(q) => {
                let (mut names, mut vals) = (Vec::new(), Vec::new());
                flatten_env(env, &mut names, &mut vals);
                let mut access = Access::Read(self.g);
                let out = run_query(&mut access, self.sh, q, Some((&names, &vals)))?;
                Ok(if out.returns {
                    out.rows.len()
                } else {
                    // A subquery without RETURN: count the rows its last clause produced.
                    count_unit_rows(&mut access, self.sh, q, &names, &vals)?
                })
            }
        }
    }

    pub(crate) fn collect_subquery(&self, q: &Query, env: &Env) -> Result<Value> {
        let (mut names, mut vals) = (Vec::new(), Vec::new());
        flatten_env(env, &mut names, &mut vals);
        let mut access = Access::Read(self.g);
        let out = run_query(&mut access, self.sh, q, Some((&names, &vals)))?;
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

    fn call_procedure(
        &self,
        c: &CallProcedure,
        scope: &mut Vec<Arc<str>>,
        rows: Vec<Row>,
    ) -> Result<Vec<Row>> {
        let name = c.name.dotted();
        let mut out = Vec::new();
        let mut out_cols: Option<Vec<Arc<str>>> = None;
        for r in rows {
            let env = Env::new(scope, &r);
            let args = match &c.args {
                Some(a) => a
                    .iter()
                    .map(|x| self.eval(x, &env))
                    .collect::<Result<Vec<_>>>()?,
                None => Vec::new(),
            };
            let (cols, results) = super::procedures::call(self, &name, &args)?;
            // Which fields to keep, under which names.
            let (keep, names): (Vec<usize>, Vec<Arc<str>>) = match &c.yield_ {
                Some(y) if !y.star => {
                    let mut keep = Vec::new();
                    let mut names = Vec::new();
                    for it in &y.items {
                        let i =
                            cols.iter()
                                .position(|c| **c == *it.field.name)
                                .ok_or_else(|| {
                                    ExecError::compile(
                                        ErrorKind::SyntaxError,
                                        format!("unknown procedure output `{}`", it.field.name),
                                    )
                                    .with_detail("UndefinedVariable")
                                })?;
                        keep.push(i);
                        names.push(Arc::from(
                            it.alias.as_ref().unwrap_or(&it.field).name.as_str(),
                        ));
                    }
                    (keep, names)
                }
                _ => ((0..cols.len()).collect(), cols.clone()),
            };
            let mut new_scope = scope.clone();
            new_scope.extend(names.iter().cloned());
            for res in results {
                let mut nr = r.clone();
                nr.extend(
                    keep.iter()
                        .map(|&i| res.get(i).cloned().unwrap_or(Value::Null)),
                );
                if let Some(w) = c.yield_.as_ref().and_then(|y| y.where_.as_ref()) {
                    if self.eval(w, &Env::new(&new_scope, &nr))?.as_bool() != Some(true) {
                        continue;
                    }
                }
                out.push(nr);
            }
            out_cols = Some(names);
        }
        if let Some(cols) = out_cols {
            scope.extend(cols);
        }
        Ok(out)
    }
}

fn count_unit_rows(
    access: &mut Access,
    sh: &Shared,
    q: &Query,
    names: &[Arc<str>],
    vals: &[Value],
) -> Result<usize> {
    let mut scope = names.to_vec();
    let mut rows = vec![vals.to_vec()];
    for c in &q.first.clauses {
        rows = run_clause(access, sh, c, &mut scope, rows)?;
    }
    Ok(rows.len())
}

fn flatten_env(env: &Env, names: &mut Vec<Arc<str>>, vals: &mut Vec<Value>) {
    if let Some(o) = env.outer {
        flatten_env(o, names, vals);
    }
    names.extend(env.names.iter().cloned());
    vals.extend(env.values.iter().cloned());
}

fn restore_node(info: &NodeInfo, saved: Option<Value>, st: &mut MatchState) {
    if let (Some(s), Some(v)) = (info.slot, saved) {
        st.vals[s] = v;
        st.bound[s] = false;
    }
}

/// The first plain label of a label expression (for index choice).
fn first_label(l: Option<&LabelExpr>) -> Option<&str> {
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
pub(crate) fn declare_pattern_vars(parts: &[PatternPart], scope: &mut Vec<Arc<str>>) {
    for p in parts {
        declare_chain_vars(p.path.chain(), scope);
        declare_var(&p.variable, scope);
    }
}

fn declare_var(v: &Option<Ident>, scope: &mut Vec<Arc<str>>) {
    if let Some(v) = v {
        if !scope.iter().any(|s| **s == *v.name) {
            scope.push(Arc::from(v.name.as_str()));
        }
    }
}

/// The variables of a chain, those inside parenthesized (quantified) paths included.
fn declare_chain_vars(c: &PathChain, scope: &mut Vec<Arc<str>>) {
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
fn var_length_limit(max: u64) -> ExecError {
    ExecError::runtime(
        ErrorKind::LimitExceeded,
        format!("variable-length expansion deeper than {max} hops (raise Limits::max_var_length)"),
    )
    .with_detail("VarLengthExpansion")
}

/// Whether a chain needs the general matcher: quantified relationships or parenthesized paths.
fn needs_general(c: &PathChain) -> bool {
    c.elements.iter().any(|el| match el {
        PathElement::Node(_) => false,
        PathElement::Relationship(r) => r.quantifier.is_some(),
        PathElement::Group(_) => true,
    })
}

/// Pushes a WHERE conjunct about `name` down to the top-level element of a general chain that
/// declares it (not into groups: there the variable is a list outside the group).
fn place_in_general<'q>(gen: &mut General<'q>, name: &str, c: &'q Expr) -> bool {
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
fn conjuncts(e: &Expr) -> Vec<&Expr> {
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
fn equality_seek<'e>(e: &'e Expr, var: &str) -> Option<(&'e str, &'e Expr)> {
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

fn contains_pattern(e: &Expr) -> bool {
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

/// Calls `f` on `e` and every sub-expression (not descending into subqueries).
pub(crate) fn walk(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    for c in e.children() {
        walk(c, f);
    }
}

/// Variables an expression reads (over-approximated inside subqueries and patterns; the
/// variables that comprehensions bind are excluded).
pub(crate) fn free_vars(e: &Expr, out: &mut Vec<String>) {
    fn go(e: &Expr, bound: &mut Vec<String>, out: &mut Vec<String>) {
        let push = |name: &str, bound: &Vec<String>, out: &mut Vec<String>| {
            if !bound.iter().any(|b| b == name) && !out.iter().any(|o| o == name) {
                out.push(name.to_string());
            }
        };
        match &e.kind {
            ExprKind::Variable(v) => push(&v.name, bound, out),
            ExprKind::MapProjection { variable, items } => {
                push(&variable.name, bound, out);
                for it in items {
                    match it {
                        crate::syntax::MapProjectionItem::Entry(_, x) => go(x, bound, out),
                        crate::syntax::MapProjectionItem::Variable(v) => push(&v.name, bound, out),
                        _ => {}
                    }
                }
            }
            ExprKind::ListComprehension {
                variable,
                list,
                filter,
                map,
            } => {
                go(list, bound, out);
                bound.push(variable.name.clone());
                if let Some(x) = filter {
                    go(x, bound, out)
                }
                if let Some(x) = map {
                    go(x, bound, out)
                }
                bound.pop();
            }
            ExprKind::Quantified {
                variable,
                list,
                filter,
                ..
            } => {
                go(list, bound, out);
                bound.push(variable.name.clone());
                if let Some(x) = filter {
                    go(x, bound, out)
                }
                bound.pop();
            }
            ExprKind::Reduce {
                accumulator,
                init,
                variable,
                list,
                expr,
            } => {
                go(init, bound, out);
                go(list, bound, out);
                bound.push(accumulator.name.clone());
                bound.push(variable.name.clone());
                go(expr, bound, out);
                bound.pop();
                bound.pop();
            }
            ExprKind::Pattern(c) | ExprKind::ShortestPath { chain: c, .. } => {
                chain_vars(c, bound, out)
            }
            ExprKind::PatternComprehension {
                variable,
                pattern,
                filter,
                map,
            } => {
                let n = bound.len();
                if let Some(v) = variable {
                    bound.push(v.name.clone());
                }
                // Variables the pattern introduces are local; those already outside are read.
                chain_vars(pattern, bound, out);
                if let Some(x) = filter {
                    go(x, bound, out)
                }
                go(map, bound, out);
                bound.truncate(n);
            }
            ExprKind::Exists(_) | ExprKind::CountSubquery(_) | ExprKind::Collect(_) => {
                // Conservative: mark as reading everything by pretending an unknown variable.
                push("\u{0}subquery", bound, out)
            }
            _ => {
                for c in direct_children(e) {
                    go(c, bound, out)
                }
            }
        }
    }
    fn chain_vars(c: &PathChain, bound: &mut Vec<String>, out: &mut Vec<String>) {
        for el in &c.elements {
            match el {
                PathElement::Node(n) => {
                    if let Some(v) = &n.variable {
                        if !bound.contains(&v.name) && !out.contains(&v.name) {
                            out.push(v.name.clone());
                        }
                    }
                    if let Some(p) = &n.properties {
                        go(p, bound, out)
                    }
                    if let Some(w) = &n.where_ {
                        go(w, bound, out)
                    }
                }
                PathElement::Relationship(r) => {
                    if let Some(v) = &r.variable {
                        if !bound.contains(&v.name) && !out.contains(&v.name) {
                            out.push(v.name.clone());
                        }
                    }
                    if let Some(p) = &r.properties {
                        go(p, bound, out)
                    }
                    if let Some(w) = &r.where_ {
                        go(w, bound, out)
                    }
                }
                PathElement::Group(g) => chain_vars(&g.chain, bound, out),
            }
        }
    }
    let mut bound = Vec::new();
    go(e, &mut bound, out);
}

/// The direct sub-expressions of `e`, excluding those of comprehensions (their own variables
/// are in scope there); see [`Expr::children`].
fn direct_children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::ListComprehension { .. }
        | ExprKind::Quantified { .. }
        | ExprKind::Reduce { .. }
        | ExprKind::MapProjection { .. } => Vec::new(),
        _ => e.children(),
    }
}

// ---------------------------------------------------------------------------------------------
// Projection and aggregation

/// A variable that `e` reads outside every projected expression and aggregate call, when the
/// projection aggregates (such a read has no single value per group).
fn unprojected_variable(e: &Expr, p: &Projection, cols: &[Arc<str>]) -> Option<String> {
    if p.items.iter().any(|it| it.expr == *e) {
        return None;
    }
    match &e.kind {
        ExprKind::Variable(v) => (!cols.iter().any(|c| **c == *v.name)).then(|| v.name.clone()),
        ExprKind::CountStar => None,
        ExprKind::FunctionCall { name, .. } if functions::is_aggregate(name) => None,
        ExprKind::ListComprehension { .. }
        | ExprKind::Quantified { .. }
        | ExprKind::Reduce { .. }
        | ExprKind::Pattern(_)
        | ExprKind::Exists(_)
        | ExprKind::CountSubquery(_)
        | ExprKind::Collect(_)
        | ExprKind::PatternComprehension { .. } => {
            let mut vars = Vec::new();
            free_vars(e, &mut vars);
            vars.into_iter()
                .find(|v| !v.starts_with('\u{0}') && !cols.iter().any(|c| **c == **v))
        }
        _ => e
            .children()
            .into_iter()
            .find_map(|c| unprojected_variable(c, p, cols)),
    }
}

struct AggSpec<'q> {
    expr: &'q Expr,
    name: String,
    distinct: bool,
    args: &'q [Expr],
}

fn collect_aggregates<'q>(e: &'q Expr, out: &mut Vec<AggSpec<'q>>) {
    match &e.kind {
        ExprKind::CountStar => out.push(AggSpec {
            expr: e,
            name: "count*".into(),
            distinct: false,
            args: &[],
        }),
        ExprKind::FunctionCall {
            name,
            distinct,
            args,
        } if functions::is_aggregate(name) => out.push(AggSpec {
            expr: e,
            name: name.dotted().to_ascii_lowercase(),
            distinct: *distinct,
            args,
        }),
        ExprKind::ListComprehension { .. }
        | ExprKind::Quantified { .. }
        | ExprKind::Reduce { .. }
        | ExprKind::Exists(_)
        | ExprKind::CountSubquery(_)
        | ExprKind::Collect(_)
        | ExprKind::PatternComprehension { .. } => {
            // Aggregates inside these are evaluated per element, not per group.
            for c in direct_children(e) {
                collect_aggregates(c, out)
            }
        }
        _ => {
            for c in direct_children(e) {
                collect_aggregates(c, out)
            }
        }
    }
}

impl<'a> Runner<'a> {
    /// WITH / RETURN: projects, groups, dedupes, orders, skips and limits.
    pub(crate) fn project(
        &self,
        p: &Projection,
        scope: &[Arc<str>],
        rows: Vec<Row>,
        is_return: bool,
        where_: Option<&Expr>,
    ) -> Result<(Vec<Arc<str>>, Vec<Row>)> {
        // Items, with `*` expanded.
        let mut cols: Vec<Arc<str>> = Vec::new();
        let mut star_slots: Vec<usize> = Vec::new();
        if p.star {
            let mut names: Vec<(Arc<str>, usize)> = scope
                .iter()
                .enumerate()
                .filter(|(i, n)| {
                    !n.starts_with('\u{0}') && scope.iter().rposition(|m| m == *n) == Some(*i)
                })
                .map(|(i, n)| (n.clone(), i))
                .collect();
            if is_return {
                names.sort_by(|a, b| a.0.cmp(&b.0));
            }
            if names.is_empty() {
                return Err(ExecError::compile(
                    ErrorKind::SyntaxError,
                    "RETURN * is not allowed when there are no variables in scope",
                )
                .with_detail("NoVariablesInScope"));
            }
            for (n, i) in names {
                cols.push(n);
                star_slots.push(i);
            }
        }
        for it in &p.items {
            cols.push(column_name(&it.expr, it.alias.as_ref(), self.sh.src));
        }
        {
            let mut seen = HashSet::new();
            for c in &cols {
                if !seen.insert(c.clone()) {
                    return Err(ExecError::compile(
                        ErrorKind::SyntaxError,
                        format!("multiple result columns with the same name `{c}`"),
                    )
                    .with_detail("ColumnNameConflict"));
                }
            }
        }
        let mut aggs: Vec<AggSpec> = Vec::new();
        for it in &p.items {
            collect_aggregates(&it.expr, &mut aggs);
        }
        let items_aggregate = !aggs.is_empty();
        for s in &p.order_by {
            let mut in_sort = Vec::new();
            collect_aggregates(&s.expr, &mut in_sort);
            if p.items.iter().any(|it| it.expr == s.expr) {
                continue;
            }
            if !in_sort.is_empty() && !items_aggregate {
                // Sorting by an aggregate needs the projection to aggregate too.
                return Err(ExecError::compile(
                    ErrorKind::SyntaxError,
                    "aggregation in ORDER BY requires an aggregating WITH or RETURN",
                )
                .with_detail("InvalidAggregation")
                .at(s.span));
            }
            if items_aggregate || !in_sort.is_empty() {
                // After aggregation only the projected names (and projected expressions, and
                // the arguments of aggregates) are in scope.
                if let Some(v) = unprojected_variable(&s.expr, p, &cols) {
                    return Err(ExecError::compile(
                        ErrorKind::SyntaxError,
                        format!("variable `{v}` not defined: after aggregation ORDER BY sees only the projected columns"),
                    )
                    .with_detail("UndefinedVariable")
                    .at(s.span));
                }
            }
        }
        let item_has_agg: Vec<bool> = p
            .items
            .iter()
            .map(|it| {
                let mut v = Vec::new();
                collect_aggregates(&it.expr, &mut v);
                !v.is_empty()
            })
            .collect();
        for s in &p.order_by {
            collect_aggregates(&s.expr, &mut aggs);
        }

        // (projected row, source row, aggregate values)
        let mut projected: Vec<Projected> = Vec::new();
        if aggs.is_empty() {
            for r in rows {
                self.sh.tick()?;
                let env = Env::new(scope, &r);
                let mut out: Row = star_slots.iter().map(|&i| r[i].clone()).collect();
                for it in &p.items {
                    out.push(self.eval(&it.expr, &env)?);
                }
                // The projected rows are held until the clause ends.
                self.sh.charge(Shared::row_bytes(&out))?;
                projected.push((out, r, None));
            }
        } else {
            // Group by the items without aggregates (and the `*` variables).
            let mut groups: HashMap<Vec<GroupKey>, usize> = HashMap::new();
            let mut order: Vec<(Row, Row, Vec<Accumulator>)> = Vec::new();
            for r in rows {
                self.sh.tick()?;
                let env = Env::new(scope, &r);
                let mut key_vals: Row = star_slots.iter().map(|&i| r[i].clone()).collect();
                for (it, has) in p.items.iter().zip(&item_has_agg) {
                    if !has {
                        key_vals.push(self.eval(&it.expr, &env)?);
                    }
                }
                let key: Vec<GroupKey> = key_vals.iter().cloned().map(GroupKey).collect();
                let gi = match groups.get(&key) {
                    Some(&gi) => gi,
                    None => {
                        let gi = order.len();
                        self.sh
                            .charge(Shared::row_bytes(&key_vals) + Shared::row_bytes(&r))?;
                        groups.insert(key, gi);
                        order.push((
                            key_vals,
                            r.clone(),
                            aggs.iter()
                                .map(|a| Accumulator::new(&a.name, a.distinct))
                                .collect(),
                        ));
                        gi
                    }
                };
                for (a, acc) in aggs.iter().zip(order[gi].2.iter_mut()) {
                    let args: Vec<Value> = a
                        .args
                        .iter()
                        .map(|x| self.eval(x, &env))
                        .collect::<Result<_>>()?;
                    // What an accumulator keeps: collected values, distinct sets, numbers.
                    if a.distinct
                        || !matches!(
                            a.name.as_str(),
                            "count" | "count*" | "sum" | "avg" | "min" | "max"
                        )
                    {
                        self.sh.charge(Shared::row_bytes(&args))?;
                    }
                    acc.add(args)?;
                }
            }
            if order.is_empty() && star_slots.is_empty() && item_has_agg.iter().all(|h| *h) {
                order.push((
                    Vec::new(),
                    vec![Value::Null; scope.len()],
                    aggs.iter()
                        .map(|a| Accumulator::new(&a.name, a.distinct))
                        .collect(),
                ));
            }
            for (key_vals, rep, accs) in order {
                let mut values = HashMap::new();
                for (a, acc) in aggs.iter().zip(accs) {
                    let v = acc.finish()?;
                    self.sh.admit(&v)?;
                    values.insert(a.expr as *const Expr as usize, v);
                }
                let run = Runner {
                    agg: Some(&values),
                    ..*self
                };
                let env = Env::new(scope, &rep);
                let mut keys = key_vals.into_iter();
                let mut out: Row = Vec::with_capacity(cols.len());
                for _ in &star_slots {
                    out.push(keys.next().unwrap_or(Value::Null));
                }
                for (it, has) in p.items.iter().zip(&item_has_agg) {
                    if *has {
                        out.push(run.eval(&it.expr, &env)?);
                    } else {
                        out.push(keys.next().unwrap_or(Value::Null));
                    }
                }
                projected.push((out, rep, Some(values)));
            }
        }

        if p.distinct {
            let mut seen = HashSet::new();
            projected.retain(|(out, _, _)| {
                seen.insert(out.iter().cloned().map(GroupKey).collect::<Vec<_>>())
            });
        }

        if !p.order_by.is_empty() {
            // Sort keys see the projected columns first, then the source row's variables.
            let mut keyed: Vec<(Vec<Value>, Projected)> = Vec::with_capacity(projected.len());
            for (out, src, agg_vals) in projected {
                self.sh.tick()?;
                let run = Runner {
                    agg: agg_vals.as_ref(),
                    ..*self
                };
                let outer = Env::new(scope, &src);
                let env = Env {
                    names: &cols,
                    values: &out,
                    outer: Some(&outer),
                };
                let mut keys = Vec::with_capacity(p.order_by.len());
                for s in &p.order_by {
                    // An ORDER BY expression that is a projected item uses that column.
                    let idx = p.items.iter().position(|it| it.expr == s.expr);
                    keys.push(match idx {
                        Some(i) => out[star_slots.len() + i].clone(),
                        None => run.eval(&s.expr, &env)?,
                    });
                }
                self.sh.charge(Shared::row_bytes(&keys))?;
                keyed.push((keys, (out, src, agg_vals)));
            }
            let keyed = self.sh.sort_checked(keyed, |a, b| {
                for (i, s) in p.order_by.iter().enumerate() {
                    let o = a.0[i].order(&b.0[i]);
                    let o = if s.descending { o.reverse() } else { o };
                    if o != std::cmp::Ordering::Equal {
                        return o;
                    }
                }
                std::cmp::Ordering::Equal
            })?;
            projected = keyed.into_iter().map(|(_, r)| r).collect();
        }
        let projected = self.skip_limit(p, projected)?;
        let rows = match where_ {
            None => projected.into_iter().map(|(r, _, _)| r).collect(),
            Some(pred) => {
                // WITH … WHERE sees the projected names and, without aggregation or DISTINCT,
                // the variables of the preceding scope.
                let mut kept = Vec::with_capacity(projected.len());
                for (out, src, agg_vals) in projected {
                    self.sh.tick()?;
                    let outer = Env::new(scope, &src);
                    let env = Env {
                        names: &cols,
                        values: &out,
                        outer: (agg_vals.is_none() && !p.distinct).then_some(&outer),
                    };
                    if self.eval(pred, &env)?.as_bool() == Some(true) {
                        kept.push(out);
                    }
                }
                kept
            }
        };
        Ok((cols, rows))
    }

    fn skip_limit<T>(&self, p: &Projection, mut rows: Vec<T>) -> Result<Vec<T>> {
        let count = |e: &Expr, what: &str| -> Result<usize> {
            let v = self.eval(e, &Env::new(&[], &[]))?;
            match v {
                Value::Int(i) if i >= 0 => Ok(i as usize),
                Value::Int(_) => Err(ExecError::compile(
                    ErrorKind::SyntaxError,
                    format!("{what} must be a non-negative integer"),
                )
                .with_detail("NegativeIntegerArgument")),
                Value::Float(_) => Err(ExecError::compile(
                    ErrorKind::SyntaxError,
                    format!("{what} must be an integer"),
                )
                .with_detail("InvalidArgumentType")),
                other => Err(ExecError::compile(
                    ErrorKind::SyntaxError,
                    format!(
                        "{what} must be an integer, got {}",
                        crate::value::type_name(&other)
                    ),
                )
                .with_detail("InvalidArgumentType")),
            }
        };
        if let Some(s) = &p.skip {
            let n = count(s, "SKIP")?;
            rows.drain(..n.min(rows.len()));
        }
        if let Some(l) = &p.limit {
            let n = count(l, "LIMIT")?;
            rows.truncate(n);
        }
        Ok(rows)
    }
}

/// The running state of one aggregate function in one group.
enum Accumulator {
    Count {
        distinct: Option<HashSet<GroupKey>>,
        n: i64,
        star: bool,
    },
    Sum {
        distinct: Option<HashSet<GroupKey>>,
        int: i64,
        float: f64,
        is_float: bool,
        any: bool,
    },
    Avg {
        distinct: Option<HashSet<GroupKey>>,
        sum: f64,
        n: u64,
    },
    Min(Option<Value>),
    Max(Option<Value>),
    Collect {
        distinct: Option<HashSet<GroupKey>>,
        items: Vec<Value>,
    },
    /// stDev, stDevP, percentileCont, percentileDisc: collect the numbers, finish at the end.
    Numbers {
        name: String,
        distinct: Option<HashSet<GroupKey>>,
        xs: Vec<f64>,
        ints: bool,
        pct: Option<Value>,
    },
}

impl Accumulator {
    fn new(name: &str, distinct: bool) -> Self {
        let d = || distinct.then(HashSet::new);
        match name {
            "count*" => Accumulator::Count {
                distinct: None,
                n: 0,
                star: true,
            },
            "count" => Accumulator::Count {
                distinct: d(),
                n: 0,
                star: false,
            },
            "sum" => Accumulator::Sum {
                distinct: d(),
                int: 0,
                float: 0.0,
                is_float: false,
                any: false,
            },
            "avg" => Accumulator::Avg {
                distinct: d(),
                sum: 0.0,
                n: 0,
            },
            "min" => Accumulator::Min(None),
            "max" => Accumulator::Max(None),
            "collect" => Accumulator::Collect {
                distinct: d(),
                items: Vec::new(),
            },
            other => Accumulator::Numbers {
                name: other.to_string(),
                distinct: d(),
                xs: Vec::new(),
                ints: true,
                pct: None,
            },
        }
    }

    fn first_new(distinct: &mut Option<HashSet<GroupKey>>, v: &Value) -> bool {
        match distinct {
            Some(set) => set.insert(GroupKey(v.clone())),
            None => true,
        }
    }

    fn add(&mut self, mut args: Vec<Value>) -> Result<()> {
        let v = if args.is_empty() {
            Value::Null
        } else {
            args.remove(0)
        };
        match self {
            Accumulator::Count { distinct, n, star } => {
                if *star || (!v.is_null() && Self::first_new(distinct, &v)) {
                    *n += 1;
                }
            }
            Accumulator::Sum {
                distinct,
                int,
                float,
                is_float,
                any,
            } => {
                if v.is_null() || !Self::first_new(distinct, &v) {
                    return Ok(());
                }
                *any = true;
                match v {
                    Value::Int(i) => {
                        if *is_float {
                            *float += i as f64;
                        } else {
                            match int.checked_add(i) {
                                Some(s) => *int = s,
                                None => {
                                    return Err(ExecError::runtime(
                                        ErrorKind::ArithmeticError,
                                        "integer overflow in sum()",
                                    )
                                    .with_detail("IntegerOverflow"))
                                }
                            }
                        }
                    }
                    Value::Float(f) => {
                        if !*is_float {
                            *is_float = true;
                            *float = *int as f64;
                        }
                        *float += f;
                    }
                    other => {
                        return Err(ExecError::type_error(format!(
                            "sum() of {}",
                            crate::value::type_name(&other)
                        )))
                    }
                }
            }
            Accumulator::Avg { distinct, sum, n } => {
                if v.is_null() || !Self::first_new(distinct, &v) {
                    return Ok(());
                }
                match v.as_f64() {
                    Some(f) => {
                        *sum += f;
                        *n += 1;
                    }
                    None => {
                        return Err(ExecError::type_error(format!(
                            "avg() of {}",
                            crate::value::type_name(&v)
                        )))
                    }
                }
            }
            Accumulator::Min(cur) => {
                if !v.is_null()
                    && cur
                        .as_ref()
                        .is_none_or(|c| v.order(c) == std::cmp::Ordering::Less)
                {
                    *cur = Some(v);
                }
            }
            Accumulator::Max(cur) => {
                if !v.is_null()
                    && cur
                        .as_ref()
                        .is_none_or(|c| v.order(c) == std::cmp::Ordering::Greater)
                {
                    *cur = Some(v);
                }
            }
            Accumulator::Collect { distinct, items } => {
                if !v.is_null() && Self::first_new(distinct, &v) {
                    items.push(v);
                }
            }
            Accumulator::Numbers {
                distinct,
                xs,
                ints,
                pct,
                ..
            } => {
                if let Some(p) = args.first() {
                    if pct.is_none() {
                        *pct = Some(p.clone());
                    }
                }
                if v.is_null() || !Self::first_new(distinct, &v) {
                    return Ok(());
                }
                if !matches!(v, Value::Int(_)) {
                    *ints = false;
                }
                match v.as_f64() {
                    Some(f) => xs.push(f),
                    None => {
                        return Err(ExecError::type_error(format!(
                            "aggregation over {}",
                            crate::value::type_name(&v)
                        )))
                    }
                }
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<Value> {
        Ok(match self {
            Accumulator::Count { n, .. } => Value::Int(n),
            Accumulator::Sum {
                int,
                float,
                is_float,
                ..
            } => {
                if is_float {
                    Value::Float(float)
                } else {
                    Value::Int(int)
                }
            }
            Accumulator::Avg { sum, n, .. } => {
                if n == 0 {
                    Value::Null
                } else {
                    Value::Float(sum / n as f64)
                }
            }
            Accumulator::Min(v) | Accumulator::Max(v) => v.unwrap_or(Value::Null),
            Accumulator::Collect { items, .. } => Value::List(items),
            Accumulator::Numbers {
                name,
                mut xs,
                ints,
                pct,
                ..
            } => {
                let n = xs.len();
                match name.as_str() {
                    "stdev" | "stdevp" => {
                        let pop = name == "stdevp";
                        if n == 0 || (!pop && n == 1) {
                            return Ok(Value::Float(0.0));
                        }
                        let mean = xs.iter().sum::<f64>() / n as f64;
                        let ss: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
                        Value::Float((ss / if pop { n as f64 } else { (n - 1) as f64 }).sqrt())
                    }
                    "percentilecont" | "percentiledisc" => {
                        let p = match pct {
                            Some(Value::Int(i)) => i as f64,
                            Some(Value::Float(f)) => f,
                            Some(Value::Null) | None => return Ok(Value::Null),
                            Some(other) => {
                                return Err(ExecError::type_error(format!(
                                    "percentile must be a number, got {}",
                                    crate::value::type_name(&other)
                                )))
                            }
                        };
                        if !(0.0..=1.0).contains(&p) {
                            return Err(ExecError::runtime(
                                ErrorKind::ArgumentError,
                                format!("percentile {p} is not between 0.0 and 1.0"),
                            )
                            .with_detail("NumberOutOfRange"));
                        }
                        if n == 0 {
                            return Ok(Value::Null);
                        }
                        xs.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
                        if name == "percentilecont" {
                            let pos = p * (n - 1) as f64;
                            let lo = pos.floor() as usize;
                            let hi = pos.ceil() as usize;
                            Value::Float(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo as f64))
                        } else {
                            let idx = if p == 0.0 {
                                0
                            } else {
                                ((p * n as f64).ceil() as usize).saturating_sub(1)
                            };
                            let x = xs[idx.min(n - 1)];
                            if ints {
                                Value::Int(x as i64)
                            } else {
                                Value::Float(x)
                            }
                        }
                    }
                    _ => Value::Null,
                }
            }
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Updating clauses

fn exec_create(
    g: &mut Graph,
    sh: &Shared,
    parts: &[PatternPart],
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let old_len = scope.len();
    let mut new_scope = scope.clone();
    declare_pattern_vars(parts, &mut new_scope);
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let mut row = r.clone();
        row.resize(new_scope.len(), Value::Null);
        let mut bound: Vec<bool> = (0..new_scope.len()).map(|i| i < old_len).collect();
        for p in parts {
            create_part(g, sh, p, &new_scope, &mut row, &mut bound)?;
        }
        out.push(row);
    }
    *scope = new_scope;
    Ok(out)
}

fn eval_props(
    g: &Graph,
    sh: &Shared,
    props: Option<&Expr>,
    scope: &[Arc<str>],
    row: &[Value],
) -> Result<Vec<(Arc<str>, Value)>> {
    let Some(p) = props else { return Ok(vec![]) };
    let run = Runner::new(g, sh);
    match run.eval(p, &Env::new(scope, row))? {
        Value::Map(m) => Ok(m.into_iter().collect()),
        Value::Null => Ok(vec![]),
        other => Err(ExecError::type_error(format!(
            "properties must be a map, got {}",
            crate::value::type_name(&other)
        ))),
    }
}

fn plain_labels(l: Option<&LabelExpr>) -> Result<Vec<String>> {
    fn go(l: &LabelExpr, out: &mut Vec<String>) -> Result<()> {
        match l {
            LabelExpr::Name(i) => {
                out.push(i.name.clone());
                Ok(())
            }
            LabelExpr::And(xs, _) => xs.iter().try_for_each(|x| go(x, out)),
            _ => Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "labels in CREATE and MERGE must be plain names (no |, !, %)",
            )),
        }
    }
    let mut out = Vec::new();
    if let Some(l) = l {
        go(l, &mut out)?;
    }
    Ok(out)
}

fn create_part(
    g: &mut Graph,
    sh: &Shared,
    p: &PatternPart,
    scope: &[Arc<str>],
    row: &mut [Value],
    bound: &mut [bool],
) -> Result<()> {
    let chain = match &p.path {
        PathExpr::Chain(c) => c,
        _ => {
            return Err(ExecError::compile(
                ErrorKind::SyntaxError,
                "shortestPath cannot be used in CREATE",
            ))
        }
    };
    let slot = |v: &Option<Ident>| {
        v.as_ref()
            .and_then(|v| scope.iter().position(|s| **s == *v.name))
    };
    let mut node_ids: Vec<NodeId> = Vec::new();
    let mut rel_ids: Vec<RelId> = Vec::new();
    let mut pending_rel: Option<&RelationshipPattern> = None;
    for el in &chain.elements {
        match el {
            PathElement::Node(n) => {
                let s = slot(&n.variable);
                let id = match s.filter(|&s| bound[s]) {
                    Some(s) => {
                        if n.labels.is_some() || n.properties.is_some() {
                            return Err(ExecError::compile(
                                ErrorKind::SyntaxError,
                                format!(
                                    "variable `{}` already declared: CREATE cannot add labels or properties to it",
                                    n.variable.as_ref().map(|v| v.name.as_str()).unwrap_or("")
                                ),
                            )
                            .with_detail("VariableAlreadyBound"));
                        }
                        match &row[s] {
                            Value::Node(id) => *id,
                            other => {
                                return Err(ExecError::type_error(format!(
                                    "expected a node, got {}",
                                    crate::value::type_name(other)
                                )))
                            }
                        }
                    }
                    None => {
                        let labels = plain_labels(n.labels.as_ref())?;
                        let props = eval_props(g, sh, n.properties.as_ref(), scope, row)?;
                        let label_refs: Vec<&str> = labels.iter().map(|s| s.as_str()).collect();
                        let nprops = props.iter().filter(|(_, v)| !v.is_null()).count();
                        let id = g.add_node(
                            &label_refs,
                            props.iter().map(|(k, v)| (&**k, v.clone())).collect(),
                        );
                        let mut st = sh.stats.borrow_mut();
                        st.nodes_created += 1;
                        st.labels_added += labels.len() as u64;
                        st.properties_set += nprops as u64;
                        if let Some(s) = s {
                            row[s] = Value::Node(id);
                            bound[s] = true;
                        }
                        id
                    }
                };
                if let Some(r) = pending_rel.take() {
                    let prev = *node_ids
                        .last()
                        .ok_or_else(|| ExecError::unsupported("this CREATE pattern"))?;
                    let ty = match &r.types {
                        Some(LabelExpr::Name(t)) => t.name.clone(),
                        _ => {
                            return Err(ExecError::compile(
                                ErrorKind::SyntaxError,
                                "a relationship in CREATE needs exactly one type",
                            )
                            .with_detail("NoSingleRelationshipType"))
                        }
                    };
                    if r.length.is_some() {
                        return Err(ExecError::compile(
                            ErrorKind::SyntaxError,
                            "variable-length relationships cannot be created",
                        )
                        .with_detail("CreatingVarLength"));
                    }
                    let (a, b) = match r.direction {
                        Direction::Right => (prev, id),
                        Direction::Left => (id, prev),
                        Direction::Undirected => {
                            return Err(ExecError::compile(
                                ErrorKind::SyntaxError,
                                "only directed relationships can be created",
                            )
                            .with_detail("RequiresDirectedRelationship"))
                        }
                    };
                    let props = eval_props(g, sh, r.properties.as_ref(), scope, row)?;
                    let nprops = props.iter().filter(|(_, v)| !v.is_null()).count();
                    let rid = g
                        .add_relationship(
                            a,
                            b,
                            &ty,
                            props.iter().map(|(k, v)| (&**k, v.clone())).collect(),
                        )
                        .ok_or_else(|| {
                            ExecError::runtime(
                                ErrorKind::EntityNotFound,
                                "relationship endpoint was deleted",
                            )
                        })?;
                    {
                        let mut st = sh.stats.borrow_mut();
                        st.relationships_created += 1;
                        st.properties_set += nprops as u64;
                    }
                    if let Some(s) = slot(&r.variable) {
                        if bound[s] {
                            return Err(ExecError::compile(
                                ErrorKind::SyntaxError,
                                "relationship variable already declared",
                            )
                            .with_detail("VariableAlreadyBound"));
                        }
                        row[s] = Value::Relationship(rid);
                        bound[s] = true;
                    }
                    rel_ids.push(rid);
                }
                node_ids.push(id);
            }
            PathElement::Relationship(r) => pending_rel = Some(r),
            PathElement::Group(_) => {
                return Err(ExecError::unsupported("quantified patterns in CREATE"))
            }
        }
    }
    if let Some(s) = slot(&p.variable) {
        row[s] = path_value(node_ids, rel_ids);
        bound[s] = true;
    }
    Ok(())
}

fn exec_merge(
    g: &mut Graph,
    sh: &Shared,
    m: &crate::syntax::Merge,
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let old_scope = scope.clone();
    let mut new_scope = scope.clone();
    declare_pattern_vars(std::slice::from_ref(&m.pattern), &mut new_scope);
    let mut out = Vec::new();
    for r in rows {
        // Try to match first.
        let matched = {
            let run = Runner::new(g, sh);
            let mut s = old_scope.clone();
            let mm = Match {
                optional: false,
                mode: None,
                pattern: vec![m.pattern.clone()],
                hints: vec![],
                where_: None,
                span: m.span,
            };
            run.exec_match(&mm, &mut s, vec![r.clone()])?
        };
        if matched.is_empty() {
            let mut s = old_scope.clone();
            let created = exec_create(g, sh, std::slice::from_ref(&m.pattern), &mut s, vec![r])?;
            for row in created {
                for a in m.actions.iter().filter(|a| a.on_create) {
                    apply_set_items(g, sh, &a.items, &new_scope, &row)?;
                }
                out.push(row);
            }
        } else {
            for row in matched {
                for a in m.actions.iter().filter(|a| !a.on_create) {
                    apply_set_items(g, sh, &a.items, &new_scope, &row)?;
                }
                out.push(row);
            }
        }
    }
    *scope = new_scope;
    Ok(out)
}

fn apply_set_items(
    g: &mut Graph,
    sh: &Shared,
    items: &[SetItem],
    scope: &[Arc<str>],
    row: &[Value],
) -> Result<()> {
    for it in items {
        match it {
            SetItem::Property { target, value, .. } => {
                let (base, key, v) = {
                    let run = Runner::new(g, sh);
                    let env = Env::new(scope, row);
                    let (base_e, key) = match &target.kind {
                        ExprKind::Property { expr, key } => {
                            (expr.as_ref(), Value::from(key.name.as_str()))
                        }
                        ExprKind::Index { expr, index } => (expr.as_ref(), run.eval(index, &env)?),
                        _ => return Err(ExecError::unsupported("this SET target")),
                    };
                    (run.eval(base_e, &env)?, key, run.eval(value, &env)?)
                };
                let Value::String(key) = key else {
                    return Err(ExecError::type_error("property key must be a string"));
                };
                set_property(g, sh, &base, &key, v)?;
            }
            SetItem::Variable {
                variable,
                value,
                merge,
                ..
            } => {
                let (base, v) = {
                    let run = Runner::new(g, sh);
                    let env = Env::new(scope, row);
                    let base = env.lookup(&variable.name).cloned().unwrap_or(Value::Null);
                    (base.clone(), run.eval(value, &env)?)
                };
                let map = match v {
                    Value::Map(m) => m,
                    Value::Node(n) => g.node_properties(n),
                    Value::Relationship(r) => g.relationship_properties(r),
                    Value::Null => BTreeMap::new(),
                    other => {
                        return Err(ExecError::type_error(format!(
                            "SET = expects a map, got {}",
                            crate::value::type_name(&other)
                        )))
                    }
                };
                if base.is_null() {
                    continue;
                }
                if !*merge {
                    let existing: Vec<Arc<str>> = match &base {
                        Value::Node(n) => g.node_properties(*n).keys().cloned().collect(),
                        Value::Relationship(r) => {
                            g.relationship_properties(*r).keys().cloned().collect()
                        }
                        _ => vec![],
                    };
                    for k in existing {
                        if !map.contains_key(&k) {
                            set_property(g, sh, &base, &k, Value::Null)?;
                        }
                    }
                }
                for (k, v) in map {
                    set_property(g, sh, &base, &k, v)?;
                }
            }
            SetItem::Labels {
                variable, labels, ..
            } => {
                let base = Env::new(scope, row)
                    .lookup(&variable.name)
                    .cloned()
                    .unwrap_or(Value::Null);
                match base {
                    Value::Node(n) => {
                        for l in plain_labels(Some(labels))? {
                            if g.add_label(n, &l) {
                                sh.stats.borrow_mut().labels_added += 1;
                            }
                        }
                    }
                    Value::Null => {}
                    other => {
                        return Err(ExecError::type_error(format!(
                            "cannot set labels on {}",
                            crate::value::type_name(&other)
                        )))
                    }
                }
            }
        }
    }
    Ok(())
}

fn set_property(g: &mut Graph, sh: &Shared, base: &Value, key: &str, v: Value) -> Result<()> {
    if let Value::List(items) = &v {
        if items.iter().any(|x| {
            matches!(
                x,
                Value::Map(_)
                    | Value::List(_)
                    | Value::Node(_)
                    | Value::Relationship(_)
                    | Value::Path(_)
            )
        }) {
            return Err(ExecError::type_error(
                "property values can only be primitive types or lists of them",
            )
            .with_detail("InvalidPropertyType"));
        }
    }
    if matches!(
        v,
        Value::Map(_) | Value::Node(_) | Value::Relationship(_) | Value::Path(_)
    ) {
        return Err(ExecError::type_error(
            "property values can only be primitive types or lists of them",
        )
        .with_detail("InvalidPropertyType"));
    }
    let changed = match base {
        Value::Node(n) => {
            let had = g.sym(key).and_then(|k| g.node_property(*n, k)).is_some();
            let null = v.is_null();
            g.set_node_property(*n, key, v);
            !null || had
        }
        Value::Relationship(r) => {
            let had = g
                .sym(key)
                .and_then(|k| g.relationship_property(*r, k))
                .is_some();
            let null = v.is_null();
            g.set_relationship_property(*r, key, v);
            !null || had
        }
        Value::Null => false,
        other => {
            return Err(ExecError::type_error(format!(
                "cannot set a property on {}",
                crate::value::type_name(other)
            )))
        }
    };
    if changed {
        sh.stats.borrow_mut().properties_set += 1;
    }
    Ok(())
}

fn apply_remove(
    g: &mut Graph,
    sh: &Shared,
    it: &RemoveItem,
    scope: &[Arc<str>],
    row: &[Value],
) -> Result<()> {
    match it {
        RemoveItem::Property { target, .. } => {
            let (base, key) = {
                let run = Runner::new(g, sh);
                let env = Env::new(scope, row);
                match &target.kind {
                    ExprKind::Property { expr, key } => (run.eval(expr, &env)?, key.name.clone()),
                    _ => return Err(ExecError::unsupported("this REMOVE target")),
                }
            };
            set_property(g, sh, &base, &key, Value::Null)
        }
        RemoveItem::Labels {
            variable, labels, ..
        } => {
            let base = Env::new(scope, row)
                .lookup(&variable.name)
                .cloned()
                .unwrap_or(Value::Null);
            if let Value::Node(n) = base {
                for l in plain_labels(Some(labels))? {
                    if g.remove_label(n, &l) {
                        sh.stats.borrow_mut().labels_removed += 1;
                    }
                }
            }
            Ok(())
        }
    }
}

fn exec_delete(
    g: &mut Graph,
    sh: &Shared,
    d: &crate::syntax::Delete,
    scope: &[Arc<str>],
    rows: &[Row],
) -> Result<()> {
    let mut nodes = Vec::new();
    let mut rels = Vec::new();
    {
        let run = Runner::new(g, sh);
        for r in rows {
            for e in &d.exprs {
                let v = run.eval(e, &Env::new(scope, r))?;
                collect_deletable(v, &mut nodes, &mut rels)?;
            }
        }
    }
    for r in rels {
        if g.remove_relationship(r) {
            sh.stats.borrow_mut().relationships_deleted += 1;
        }
    }
    nodes.sort();
    nodes.dedup();
    for n in &nodes {
        if !g.contains_node(*n) {
            continue;
        }
        let attached = g.neighbours(*n, Dir::Both);
        if !attached.is_empty() {
            if !d.detach {
                return Err(ExecError::runtime(
                    ErrorKind::ConstraintVerificationFailed,
                    "cannot delete a node that still has relationships; use DETACH DELETE",
                )
                .with_detail("DeleteConnectedNode"));
            }
            for (r, _) in attached {
                if g.remove_relationship(r) {
                    sh.stats.borrow_mut().relationships_deleted += 1;
                }
            }
        }
    }
    for n in nodes {
        if g.remove_node(n) {
            sh.stats.borrow_mut().nodes_deleted += 1;
        }
    }
    Ok(())
}

fn collect_deletable(v: Value, nodes: &mut Vec<NodeId>, rels: &mut Vec<RelId>) -> Result<()> {
    match v {
        Value::Null => Ok(()),
        Value::Node(n) => {
            nodes.push(n);
            Ok(())
        }
        Value::Relationship(r) => {
            rels.push(r);
            Ok(())
        }
        Value::Path(p) => {
            nodes.extend(p.nodes.iter().copied());
            rels.extend(p.rels.iter().copied());
            Ok(())
        }
        Value::List(items) => items
            .into_iter()
            .try_for_each(|x| collect_deletable(x, nodes, rels)),
        other => Err(ExecError::type_error(format!(
            "DELETE expects a node, relationship or path, got {}",
            crate::value::type_name(&other)
        ))
        .with_detail("InvalidDelete")),
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
