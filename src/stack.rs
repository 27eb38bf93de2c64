//! Stack headroom for walks whose depth the user decides (nested values, expressions,
//! subqueries), so that no input and no caller's thread size can overflow the stack.
//!
//! Two layers:
//! - [`deeper`], at each level of a recursive walk over a value (clone, `=`, ordering,
//!   hashing, text, JSON) or an expression: when less than [`RED_ZONE`] remains, the walk goes
//!   on in a fresh [`SEGMENT`] on the heap. Such walks work on any thread, whatever their depth.
//! - [`statement`], at the engine's entry points: a statement starts with at least half of
//!   [`crate::QUERY_STACK_BYTES`] before it, else it runs on a fresh segment of that size. The
//!   walks without a per-level guard (the engine's own recursion over plans and subqueries,
//!   APOC's over values) are bounded by the parser's and the values' limits; `tests/hostile.rs`
//!   runs the deepest of each at its bound, in a debug build, with half of what this gives.

/// What must remain before a level of a walk runs on (the deepest single level, with room).
pub const RED_ZONE: usize = 64 * 1024;

/// The heap segment a walk continues in when the red zone is reached.
pub const SEGMENT: usize = 1024 * 1024;

/// Runs one level of a recursive walk, on a fresh segment when the stack runs low.
#[inline]
pub fn deeper<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// Runs a statement with at least half of [`crate::QUERY_STACK_BYTES`] of stack before it: on
/// the caller's thread when that much remains (grape's server threads have the whole of it),
/// else on a fresh segment of [`crate::QUERY_STACK_BYTES`].
#[inline]
pub fn statement<R>(f: impl FnOnce() -> R) -> R {
    if UNGUARDED.get() {
        return f();
    }
    stacker::maybe_grow(crate::QUERY_STACK_BYTES / 2, crate::QUERY_STACK_BYTES, f)
}

thread_local! {
    static UNGUARDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with [`statement`]'s guarantee off on this thread: statements run on whatever
/// stack is left. For tests that measure headroom (a statement at its bounds on a thread with
/// half of what [`statement`] guarantees), never for serving queries.
#[doc(hidden)]
pub fn unguarded<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            UNGUARDED.set(self.0);
        }
    }
    let _reset = Reset(UNGUARDED.replace(true));
    f()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_statement_has_half_the_query_stack_whatever_thread_runs_it() {
        let left = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let guarded = super::statement(|| stacker::remaining_stack().unwrap_or(0));
                let unguarded = super::unguarded(|| {
                    super::statement(|| stacker::remaining_stack().unwrap_or(0))
                });
                (guarded, unguarded)
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(left.0 >= crate::QUERY_STACK_BYTES / 2, "{left:?}");
        assert!(left.1 < 256 * 1024, "{left:?}");
    }
}
