//! `CALL { … } IN TRANSACTIONS`: the input rows in batches (`OF n ROWS`, 1000 by default),
//! each batch an inner transaction of its own — a savepoint of the graph's journal, kept when
//! the batch succeeds, rolled back when it fails. What a failure does is `ON ERROR`'s:
//! `FAIL` (the default) fails the statement; `CONTINUE` rolls the batch back and goes on, its
//! rows carrying nulls for the subquery's columns; `BREAK` does the same and runs no later
//! batch. `RETRY` retries transient errors only — an in-memory graph has none (no deadlocks,
//! no lock timeouts) — and then does what its `THEN` says. `REPORT STATUS AS s` gives every
//! row `s = {started, committed, transactionId, errorMessage}`.
//!
//! (Differences from Neo4j: a statement that fails is rolled back whole, batches committed
//! before the failure included; concurrent transactions run one after the other.)

use super::*;
use crate::syntax::{CallSubquery, InTransactions, OnError};

/// How many rows a batch takes when `OF n ROWS` is not written (Neo4j's default).
const DEFAULT_BATCH: usize = 1000;

/// Runs `c` (with `IN TRANSACTIONS` options `tx`) over `rows`, importing `imports`.
pub(super) fn call_in_transactions(
    access: &mut Access,
    sh: &Shared,
    c: &CallSubquery,
    tx: &InTransactions,
    imports: &[Arc<str>],
    scope: &mut Vec<Arc<str>>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let batch = batch_size(access, sh, tx, scope)?;
    let on_error = tx.effective_on_error();
    let columns = returned_columns(&c.query, sh.src).unwrap_or_default();
    let mut out = Vec::with_capacity(rows.len());
    let mut broken = false;
    let mut number = 0u64;
    for chunk in rows.chunks(batch) {
        sh.tick()?;
        if broken {
            // After BREAK: these rows' transactions never start.
            for r in chunk {
                out.push(padded(r, &columns, tx, status(false, false, None, None)));
            }
            continue;
        }
        number += 1;
        let id = format!("grape-transaction-{number}");
        let stats = sh.stats.borrow().clone();
        let sp = match access {
            Access::Write(g) => Some(g.savepoint()),
            Access::Read(_) => None,
        };
        let mut done = Vec::new();
        let result = run_batch(access, sh, c, imports, scope, chunk, &mut done);
        match result {
            Ok(()) => {
                if let (Access::Write(g), Some(sp)) = (&mut *access, sp) {
                    g.release(sp);
                }
                let s = status(true, true, Some(&id), None);
                for r in done {
                    out.push(with_status(r, tx, &s));
                }
            }
            Err(e) if on_error != OnError::Fail && recoverable(&e) => {
                if let (Access::Write(g), Some(sp)) = (&mut *access, sp) {
                    g.rollback_to(&sp);
                    g.release(sp);
                }
                *sh.stats.borrow_mut() = stats;
                let s = status(true, false, Some(&id), Some(&e.message));
                for r in chunk {
                    out.push(padded(r, &columns, tx, s.clone()));
                }
                broken = on_error == OnError::Break;
            }
            // The statement fails; its own savepoint undoes everything.
            Err(e) => return Err(e),
        }
        sh.check_rows(out.len())?;
    }
    if c.query.final_return().is_some() {
        scope.extend(columns);
    }
    if let Some(v) = &tx.report_status {
        scope.push(Arc::from(v.name.as_str()));
    }
    Ok(out)
}

/// The rows one batch produces: each input row with the subquery's rows appended (a unit
/// subquery keeps the input row).
fn run_batch(
    access: &mut Access,
    sh: &Shared,
    c: &CallSubquery,
    imports: &[Arc<str>],
    scope: &[Arc<str>],
    chunk: &[Row],
    done: &mut Vec<Row>,
) -> Result<()> {
    let slots = import_slots(imports, scope);
    for r in chunk {
        let vals = imported_values(&slots, &Env::new(scope, r));
        let sub = run_query(access, sh, &c.query, Some((imports, &vals)))?;
        if sub.returns {
            for sr in sub.rows {
                let nr = extended_row(r, sr);
                sh.charge(Shared::row_bytes(&nr))?;
                done.push(nr);
            }
        } else {
            done.push(r.clone());
        }
    }
    Ok(())
}

/// `OF n ROWS`: a positive integer, evaluated once.
fn batch_size(
    access: &Access,
    sh: &Shared,
    tx: &InTransactions,
    scope: &[Arc<str>],
) -> Result<usize> {
    let Some(e) = &tx.batch_size else {
        return Ok(DEFAULT_BATCH);
    };
    let v = Runner::new(access.graph(), sh).eval(e, &Env::new(scope, &[]))?;
    match v {
        Value::Int(n) if n > 0 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        other => Err(ExecError::runtime(
            ErrorKind::ArgumentError,
            format!("Invalid input. '{other}' is not a valid value. Must be a positive integer."),
        )
        .at(e.span)),
    }
}

/// Errors an inner transaction may fail with and the statement survive: not a compile-time
/// error of the query, not the statement's own limits or cancellation.
fn recoverable(e: &ExecError) -> bool {
    !e.phase.is_compile_time() && !matches!(e.kind, ErrorKind::LimitExceeded | ErrorKind::Cancelled)
}

fn status(started: bool, committed: bool, id: Option<&str>, error: Option<&str>) -> Value {
    let mut m: BTreeMap<Arc<str>, Value> = BTreeMap::new();
    m.insert(Arc::from("started"), Value::Bool(started));
    m.insert(Arc::from("committed"), Value::Bool(committed));
    m.insert(
        Arc::from("transactionId"),
        id.map_or(Value::Null, Value::from),
    );
    m.insert(
        Arc::from("errorMessage"),
        error.map_or(Value::Null, Value::from),
    );
    Value::Map(m)
}

/// A row whose subquery did not run or failed: nulls for the subquery's columns.
fn padded(r: &[Value], columns: &[Arc<str>], tx: &InTransactions, s: Value) -> Row {
    let mut nr = extended_row(r, columns.iter().map(|_| Value::Null));
    if tx.report_status.is_some() {
        nr.push(s);
    }
    nr
}

fn with_status(mut r: Row, tx: &InTransactions, s: &Value) -> Row {
    if tx.report_status.is_some() {
        r.push(s.clone());
    }
    r
}
