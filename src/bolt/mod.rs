//! A Bolt server over grape's in-memory graph (feature `bolt`), so that the official Neo4j
//! drivers — and the tools built on them — run unchanged against a mock graph.
//!
//! - Bolt 5.0–5.4 and 4.0–4.4: the handshake picks the highest version both sides speak; messages
//!   travel in chunks; values are [PackStream](packstream) with the version's structures
//!   (element ids from 5.0, UTC date-times from 5.0 or 4.4's `utc` patch).
//! - Messages: HELLO, LOGON/LOGOFF (5.1+), GOODBYE, RESET, RUN, PULL and DISCARD (with `n` and
//!   `qid`), BEGIN/COMMIT/ROLLBACK, ROUTE (a single-server routing table, so `neo4j://` URIs
//!   work) and TELEMETRY. A failure answers FAILURE with a Neo4j status code and ignores what
//!   follows until RESET.
//! - Results carry Neo4j's summary metadata: `fields`, `t_first`, `t_last`, `type` (`r`, `rw`,
//!   `w` or `s`, from grape's read/write analysis), `stats` counters, `bookmark`, `db`.
//!   `EXPLAIN` checks the query, returns no rows and a plan, and reports the type it would have,
//!   so read-only checks built on EXPLAIN work.
//! - Transactions: an explicit transaction works on its own copy of the graph from its first
//!   write; COMMIT publishes it, ROLLBACK (or RESET, or a dropped connection) discards it.
//!   Auto-commit writes are atomic. Access mode `r` refuses writes, as Neo4j does; so does
//!   `--read-only` for every session.
//! - One thread per connection; messages are bounded ([`Config::max_message_bytes`]).

pub mod client;
pub mod convert;
pub mod packstream;
mod server;
mod watch;

pub use server::{serve_connection, Config, Server, ServerHandle};
