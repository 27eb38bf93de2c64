//! A Bolt server over grape's in-memory graph (feature `bolt`), so that the official Neo4j
//! drivers — and the tools built on them — run unchanged against a mock graph.
//!
//! - Bolt 5.0–5.8 and 4.0–4.4: the handshake picks the highest version both sides speak; messages
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
//!
//! ```
//! use grape::bolt::client::Client;
//! use grape::bolt::packstream::{decode_all, encode, Ps};
//! use grape::bolt::{Config, Server};
//! use grape::graph::Graph;
//!
//! // PackStream: a value and its bytes.
//! let v = Ps::map([("name", Ps::from("Ann")), ("age", Ps::Int(42))]);
//! let mut bytes = Vec::new();
//! encode(&v, &mut bytes);
//! assert_eq!(decode_all(&bytes).unwrap(), v);
//!
//! // A server on a free local port, a client speaking Bolt 5.0–5.8, one query, shutdown.
//! let g = Graph::from_cypher_script("CREATE (:Person {name: 'Ann'})").unwrap();
//! let mut server = Server::bind("127.0.0.1:0", g, Config::default()).unwrap().spawn();
//! let mut client = Client::connect(&server.local_addr().to_string(), &[(5, 8, 8)]).unwrap();
//! assert_eq!(client.version, (5, 8));
//! client.login("", "").unwrap(); // no `auth` configured: any credentials
//! let (_, rows, _) = client
//!     .run("MATCH (p:Person) RETURN p.name", Ps::map::<&str>([]))
//!     .unwrap()
//!     .unwrap();
//! assert_eq!(rows, [[Ps::from("Ann")]]);
//! drop(client);
//! server.shutdown();
//! ```
//!
//! # Layout
//!
//! - `packstream.rs`: PackStream. `convert.rs`: grape values to PackStream structures and back,
//!   per Bolt version.
//! - `server.rs`, the Bolt server:
//!   - One or several named databases (`Server::bind_databases`, selected by `db` in BEGIN, RUN
//!     and ROUTE), each a `SharedGraph`; `Config::database_users` for the demo server's
//!     per-database users.
//!   - The DBMS's users (`engine::security::Users`, the `--auth` user first) checked at login; a
//!     password that must change first refused with `CredentialsExpired`; the `system` database
//!     limited to administration commands, `SHOW`s and procedures; a transaction kept to
//!     administration commands or queries (its user changes undone on rollback).
//!   - Each query gets an `engine::DatabaseContext` for `SHOW DATABASES`, `db.nameFromElementId`
//!     and the composite databases of `Config::composites`; a statement goes to the database its
//!     `USE` clauses name, resolved by `engine::use_target`.
//!   - Bolt 5.6–5.8's GQL statuses in summaries and failures and the resolved home database;
//!     errors met while running deferred to PULL as Neo4j reports them; maps in Java `HashMap`
//!     order (`convert::java_hash_order`).
//!   - Community edition unless `Config::enterprise`, carried to the engine in
//!     `DatabaseContext::enterprise`, which refuses enterprise-only constraints with community's
//!     errors.
//! - `watch.rs`: the connection watcher. `client.rs`: a minimal client.
//! - `tests/driver_flows.rs` runs the same flows through every official driver (Python,
//!   JavaScript, Java 5.x/6.x, Go) against grape and the oracle.

pub mod client;
pub mod convert;
pub mod packstream;
mod server;
mod watch;

pub use server::{serve_connection, Config, Server, ServerHandle};
