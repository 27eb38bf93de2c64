//! Watching a connection while its query runs: when the client closes the connection, says
//! GOODBYE, or sends RESET (which, as in Neo4j, interrupts the running query), the query's
//! cancellation flag is set and the engine stops at its next check.
//!
//! One watcher thread per connection, started at the first RUN and parked between queries.
//! While a query runs (and the connection reads nothing) the socket is non-blocking and the
//! watcher *peeks* at it every few milliseconds, so the connection's own reads find every byte
//! and nothing the watcher does can block.

use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Whether `bytes` (the start of what the client has sent and the server not yet read) hold a
/// RESET or GOODBYE message: chunked messages, each a structure whose tag follows its marker.
pub(crate) fn interrupts(bytes: &[u8]) -> bool {
    let mut i = 0;
    let mut at_start = true;
    while i + 2 <= bytes.len() {
        let n = u16::from_be_bytes([bytes[i], bytes[i + 1]]) as usize;
        i += 2;
        if n == 0 {
            at_start = true;
            continue;
        }
        if at_start
            && i + 2 <= bytes.len()
            && bytes[i] == 0xB0
            && matches!(bytes[i + 1], 0x0F | 0x02)
        {
            return true;
        }
        at_start = false;
        i += n;
    }
    false
}

#[derive(Default)]
struct State {
    /// The running query's flag, while one runs.
    current: Option<Arc<AtomicBool>>,
    /// The watcher is peeking at the socket now.
    peeking: bool,
    /// The connection is over: the watcher ends.
    closed: bool,
}

#[derive(Default)]
struct Inner {
    state: Mutex<State>,
    changed: Condvar,
}

impl Inner {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A connection's watcher (see the module documentation).
pub(crate) struct Watcher {
    inner: Arc<Inner>,
    /// A clone of the connection's socket (one descriptor, shared with the watcher thread),
    /// switched to non-blocking while a query runs (so that the watcher's peeks return at once)
    /// and back before the connection reads again.
    socket: Option<Arc<TcpStream>>,
    /// Whether the watcher thread has been started.
    started: bool,
}

impl Watcher {
    /// A watcher for `stream` (a clone of the connection's socket); `None` watches nothing.
    pub(crate) fn new(stream: Option<TcpStream>) -> Watcher {
        Watcher {
            inner: Arc::default(),
            socket: stream.map(Arc::new),
            started: false,
        }
    }

    /// Runs `f`, setting `cancel` if the client goes away or interrupts meanwhile.
    pub(crate) fn during<T>(&mut self, cancel: &Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
        if let (false, Some(s)) = (self.started, &self.socket) {
            self.started = true;
            let (s, inner) = (s.clone(), self.inner.clone());
            // Without a thread (none left), queries are simply not watched.
            if std::thread::Builder::new()
                .name("grape-bolt-watch".into())
                .spawn(move || watch(&s, &inner))
                .is_err()
            {
                self.socket = None;
            }
        }
        let watched = self
            .socket
            .as_ref()
            .is_some_and(|s| s.set_nonblocking(true).is_ok());
        if watched {
            self.inner.lock().current = Some(cancel.clone());
            self.inner.changed.notify_all();
        }
        let out = f();
        if watched {
            let mut st = self.inner.lock();
            st.current = None;
            // A peek under way ends at once (the socket does not block); then the socket
            // blocks again for the connection's own reads.
            while st.peeking {
                st = self
                    .inner
                    .changed
                    .wait(st)
                    .unwrap_or_else(|e| e.into_inner());
            }
            drop(st);
            if let Some(s) = &self.socket {
                let _ = s.set_nonblocking(false);
            }
        }
        out
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let mut st = self.inner.lock();
        st.closed = true;
        st.current = None;
        drop(st);
        self.inner.changed.notify_all();
    }
}

/// What a look at the socket found.
#[derive(PartialEq)]
enum Seen {
    Nothing,
    /// Requests that do not interrupt (a pipelined PULL): look again a little later.
    Pending,
    Interrupt,
}

/// How often the watcher looks at the socket while a query runs.
const EVERY: Duration = Duration::from_millis(20);

fn watch(stream: &TcpStream, inner: &Inner) {
    let mut st = inner.lock();
    loop {
        if st.closed {
            return;
        }
        let Some(flag) = st.current.clone() else {
            st = inner.changed.wait(st).unwrap_or_else(|e| e.into_inner());
            continue;
        };
        st.peeking = true;
        drop(st);
        let seen = look(stream);
        st = inner.lock();
        st.peeking = false;
        inner.changed.notify_all();
        if seen == Seen::Interrupt {
            flag.store(true, Ordering::Relaxed);
            // Look no more until this query has ended.
            while !st.closed && st.current.as_ref().is_some_and(|c| Arc::ptr_eq(c, &flag)) {
                st = inner.changed.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        } else {
            st = inner
                .changed
                .wait_timeout(st, EVERY)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// Peeks at what the client has sent (the socket does not block while a query runs).
fn look(stream: &TcpStream) -> Seen {
    let mut buf = [0u8; 1024];
    match stream.peek(&mut buf) {
        Ok(0) => Seen::Interrupt,
        Ok(n) if interrupts(&buf[..n]) => Seen::Interrupt,
        Ok(_) => Seen::Pending,
        Err(e) => match e.kind() {
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted => Seen::Nothing,
            _ => Seen::Interrupt,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_reset_and_goodbye_among_chunked_messages() {
        let pull = [0x00, 0x03, 0xB1, 0x3F, 0xA0, 0x00, 0x00];
        let reset = [0x00, 0x02, 0xB0, 0x0F, 0x00, 0x00];
        let goodbye = [0x00, 0x02, 0xB0, 0x02, 0x00, 0x00];
        assert!(!interrupts(&pull));
        assert!(interrupts(&reset));
        assert!(interrupts(&goodbye));
        assert!(interrupts(&[&pull[..], &reset[..]].concat()));
        // A RUN whose query text happens to contain the bytes B0 0F is not a RESET.
        let run = [0x00, 0x05, 0xB1, 0x10, 0x82, 0xB0, 0x0F, 0x00, 0x00];
        assert!(!interrupts(&run));
        assert!(!interrupts(&[0x00]));
        assert!(!interrupts(&[]));
    }
}
