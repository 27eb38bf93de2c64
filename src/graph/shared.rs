//! A graph shared by concurrent sessions (the Bolt and MCP servers, the memory backend).
//!
//! Readers take the committed graph as an `Arc` snapshot and never wait on a writer, however
//! long its statement runs. Writers are serialised, as SQLite does it: one write transaction at
//! a time holds the *write lease*, from its first write to its end, on a working copy of the
//! graph whose changes are journaled ([`Graph::savepoint`]). Commit publishes the working copy
//! as the new snapshot and brings the previous snapshot up to date by replaying the journal, so
//! that it becomes the next working copy; rollback undoes the journal. Memory therefore stays
//! at two copies of the graph however many transactions are open, and nothing is held after
//! a rollback. Another writer waits for the lease up to a bound, then fails with
//! [`LockTimeout`] (Neo4j's `Neo.TransientError.Transaction.LockAcquisitionTimeout`, which
//! drivers retry).

use super::store::{Graph, Savepoint};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

/// The Neo4j status code of a [`LockTimeout`].
pub const LOCK_TIMEOUT_CODE: &str = "Neo.TransientError.Transaction.LockAcquisitionTimeout";

/// The write lease was not free within the wait allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "could not acquire the write lock within {} ms: transaction {holder} is writing \
     (grape runs one write transaction at a time; retry when it has committed or rolled back)",
    waited.as_millis()
)]
pub struct LockTimeout {
    /// Whoever holds the lease (the number given to [`SharedGraph::begin_write`]).
    pub holder: u64,
    pub waited: Duration,
}

/// The graph, committed and shared.
pub struct SharedGraph {
    published: RwLock<Arc<Graph>>,
    slot: Mutex<Slot>,
    freed: Condvar,
}

struct Slot {
    /// Who holds the write lease, when someone does.
    holder: Option<u64>,
    /// A copy equal to the published graph (ids included), ready for the next writer.
    spare: Option<Graph>,
}

impl SharedGraph {
    pub fn new(graph: Graph) -> SharedGraph {
        SharedGraph {
            published: RwLock::new(Arc::new(graph)),
            slot: Mutex::new(Slot {
                holder: None,
                spare: None,
            }),
            freed: Condvar::new(),
        }
    }

    /// The graph as last committed; never waits on a writer.
    pub fn snapshot(&self) -> Arc<Graph> {
        self.published
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn slot(&self) -> MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the write lease for `holder`, waiting at most `wait` (for ever when `None`) for
    /// the current writer to finish, and checking `cancel` while it waits.
    pub fn begin_write(
        &self,
        holder: u64,
        wait: Option<Duration>,
        cancel: Option<&AtomicBool>,
    ) -> Result<WriteTx<'_>, LockTimeout> {
        let started = Instant::now();
        let mut slot = self.slot();
        while let Some(h) = slot.holder {
            let mut nap = Duration::from_millis(50);
            if let Some(w) = wait {
                let left = w.saturating_sub(started.elapsed());
                if left.is_zero() {
                    return Err(LockTimeout {
                        holder: h,
                        waited: started.elapsed(),
                    });
                }
                nap = nap.min(left);
            }
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Err(LockTimeout {
                    holder: h,
                    waited: started.elapsed(),
                });
            }
            slot = self
                .freed
                .wait_timeout(slot, nap)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        slot.holder = Some(holder);
        let spare = slot.spare.take();
        drop(slot);
        // The first writer (or the first after a replay could not be made) copies the graph.
        let mut graph = spare.unwrap_or_else(|| (*self.snapshot()).clone());
        let sp = graph.savepoint();
        Ok(WriteTx {
            shared: self,
            work: Some((graph, sp)),
        })
    }

    /// Runs `f` on the graph under a write lease and commits when it returns `Ok` (rolls back
    /// otherwise): an auto-commit write.
    pub fn write<T, E: From<LockTimeout>>(
        &self,
        holder: u64,
        wait: Option<Duration>,
        cancel: Option<&AtomicBool>,
        f: impl FnOnce(&mut Graph) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut tx = self.begin_write(holder, wait, cancel)?;
        let out = f(tx.graph_mut());
        if out.is_ok() {
            tx.commit();
        }
        out
    }

    /// Gives the lease back with `spare` as the next working copy.
    fn finish(&self, spare: Option<Graph>) {
        let mut slot = self.slot();
        slot.holder = None;
        slot.spare = spare;
        drop(slot);
        self.freed.notify_one();
    }
}

/// A write transaction: the write lease and the working copy. Dropping it rolls back.
pub struct WriteTx<'a> {
    shared: &'a SharedGraph,
    work: Option<(Graph, Savepoint)>,
}

impl WriteTx<'_> {
    /// The transaction's graph: the committed graph with this transaction's changes.
    pub fn graph(&self) -> &Graph {
        &self.work.as_ref().expect("an open transaction").0
    }

    pub fn graph_mut(&mut self) -> &mut Graph {
        &mut self.work.as_mut().expect("an open transaction").0
    }

    /// Publishes the changes; returns how many were made.
    pub fn commit(mut self) -> usize {
        let (mut graph, sp) = self.work.take().expect("an open transaction");
        let log = graph.commit(sp);
        let n = log.len();
        if log.is_empty() {
            self.shared.finish(Some(graph));
            return 0;
        }
        let new = Arc::new(graph);
        let old = std::mem::replace(
            &mut *self
                .shared
                .published
                .write()
                .unwrap_or_else(|e| e.into_inner()),
            new.clone(),
        );
        // The old snapshot becomes the next working copy once no reader holds it; else the
        // next writer copies the graph.
        let spare = Arc::try_unwrap(old)
            .ok()
            .and_then(|mut g| g.replay(&log, &new).then_some(g));
        drop(new);
        self.shared.finish(spare);
        n
    }

    /// Undoes the changes.
    pub fn rollback(mut self) {
        self.undo();
    }

    fn undo(&mut self) {
        if let Some((mut graph, sp)) = self.work.take() {
            let exact = graph.rollback_to(&sp);
            graph.release(sp);
            self.shared.finish(exact.then_some(graph));
        }
    }
}

impl Drop for WriteTx<'_> {
    fn drop(&mut self) {
        self.undo();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{execute, execute_read, ErrorKind, ExecError, Options, Params};

    fn run(g: &mut Graph, q: &str) {
        let stmt = crate::syntax::parse(q).unwrap();
        execute(g, &stmt, q, &Params::new(), &Options::default()).unwrap();
    }

    fn count(g: &Graph, q: &str) -> i64 {
        let stmt = crate::syntax::parse(q).unwrap();
        let t = execute_read(g, &stmt, q, &Params::new(), &Options::default()).unwrap();
        t.first_int().unwrap()
    }

    const N: &str = "MATCH (n) RETURN count(n)";

    #[test]
    fn readers_see_commits_only_and_rollback_keeps_nothing() {
        let s = SharedGraph::new(Graph::from_cypher_script("CREATE (:A {x: 1})").unwrap());
        let mut tx = s.begin_write(1, None, None).unwrap();
        run(tx.graph_mut(), "CREATE (:A {x: 2})");
        assert_eq!(count(tx.graph(), N), 2);
        assert_eq!(
            count(&s.snapshot(), N),
            1,
            "uncommitted writes are not visible"
        );
        tx.rollback();
        assert_eq!(count(&s.snapshot(), N), 1);
        assert!(
            s.slot().spare.is_some(),
            "the rolled-back copy is kept for reuse"
        );
        let mut tx = s.begin_write(1, None, None).unwrap();
        run(tx.graph_mut(), "CREATE (:A {x: 3})-[:R]->(:B)");
        let held = s.snapshot();
        assert_eq!(tx.commit(), 3);
        assert_eq!(
            count(&held, N),
            1,
            "a snapshot taken before stays as it was"
        );
        assert_eq!(count(&s.snapshot(), N), 3);
        assert!(
            s.slot().spare.is_none(),
            "a held snapshot is not taken for the next copy"
        );
        drop(held);
        // The next transaction works on the replayed old snapshot or a fresh copy; either
        // way it starts from the committed graph, ids included.
        for i in 0..5 {
            let mut tx = s.begin_write(2, None, None).unwrap();
            assert_eq!(count(tx.graph(), N), 3 + i);
            run(tx.graph_mut(), "MATCH (a:A {x: 3}) CREATE (a)-[:S]->(:C)");
            tx.commit();
            assert!(
                s.slot().spare.is_some(),
                "the old snapshot was brought up to date"
            );
            let q = "MATCH (a:A {x: 3})-[:S]->(c) RETURN count(c)";
            assert_eq!(count(&s.snapshot(), q), 1 + i);
        }
        let mut tx = s.begin_write(3, None, None).unwrap();
        run(tx.graph_mut(), "MATCH (n) DETACH DELETE n");
        drop(tx);
        assert_eq!(
            count(&s.snapshot(), N),
            8,
            "a dropped transaction rolls back"
        );
    }

    #[test]
    fn a_second_writer_waits_then_times_out_and_readers_never_wait() {
        let s = SharedGraph::new(Graph::new());
        let tx = s.begin_write(7, None, None).unwrap();
        let err = s
            .begin_write(8, Some(Duration::from_millis(30)), None)
            .err()
            .unwrap();
        assert_eq!(err.holder, 7);
        assert!(
            err.to_string().contains("transaction 7 is writing"),
            "{err}"
        );
        assert_eq!(count(&s.snapshot(), N), 0);
        let cancel = AtomicBool::new(true);
        assert!(s.begin_write(8, None, Some(&cancel)).is_err());
        std::thread::scope(|sc| {
            let waiter = sc.spawn(|| {
                let mut tx = s
                    .begin_write(9, Some(Duration::from_secs(30)), None)
                    .unwrap();
                run(tx.graph_mut(), "CREATE ()");
                tx.commit();
            });
            std::thread::sleep(Duration::from_millis(20));
            drop(tx);
            waiter.join().unwrap();
        });
        assert_eq!(count(&s.snapshot(), N), 1);
    }

    #[test]
    fn auto_commit_writes_commit_on_ok_only() {
        let s = SharedGraph::new(Graph::new());
        let r: Result<(), LockTimeout> = s.write(1, None, None, |g| {
            run(g, "CREATE (), ()");
            Ok(())
        });
        r.unwrap();
        assert_eq!(count(&s.snapshot(), N), 2);
        let r: Result<(), LockTimeout> = s.write(1, None, None, |g| {
            run(g, "CREATE ()");
            Ok(())
        });
        r.unwrap();
        assert_eq!(count(&s.snapshot(), N), 3);
        let r: Result<(), ExecError> = s.write(1, None, None, |g| {
            run(g, "CREATE ()");
            Err(ExecError::runtime(ErrorKind::ArithmeticError, "no"))
        });
        assert!(r.is_err());
        assert_eq!(
            count(&s.snapshot(), N),
            3,
            "a failed auto-commit write is rolled back"
        );
    }
}
