//! The in-memory property graph and the importers that fill it.
//!
//! - [`Graph`] (in `store.rs`, its element slots in `slots.rs`): nodes and relationships with interned labels,
//!   types and keys, a label index and lazily built property indexes.
//! - [`import`]: our JSON fixture format (read and write) and Neo4j Data Importer CSV folders.
//!   Cypher `CREATE` scripts run through the engine (`grape::engine::run_script`), so this
//!   module never depends on the engine.
//!
//! ```
//! use grape::graph::{Dir, Graph, LockTimeout, SharedGraph};
//! use grape::value::Value;
//!
//! let mut g = Graph::new();
//! let ann = g.add_node(&["Person"], vec![("name", Value::from("Ann"))]);
//! let bob = g.add_node(&["Person"], vec![("name", Value::from("Bob"))]);
//! let knows = g.add_relationship(ann, bob, "KNOWS", vec![]).unwrap();
//! assert_eq!(g.neighbours(ann, Dir::Outgoing), [(knows, bob)]);
//! assert_eq!(&*g.labels(bob)[0], "Person");
//!
//! // The journal: changes after a savepoint can be undone.
//! let sp = g.savepoint();
//! g.set_node_property(bob, "age", Value::Int(42));
//! assert!(g.rollback_to(&sp));
//! g.release(sp);
//! assert!(!g.node_properties(bob).contains_key("age"));
//!
//! // The servers' shared graph: readers take snapshots, one writer at a time commits.
//! let shared = SharedGraph::new(g);
//! let before = shared.snapshot();
//! shared
//!     .write(1, None, None, |g| {
//!         g.add_node(&["Person"], vec![]);
//!         Ok::<(), LockTimeout>(())
//!     })
//!     .unwrap();
//! assert_eq!((before.node_count(), shared.snapshot().node_count()), (2, 3));
//!
//! // A JSON fixture from disk.
//! let demo = grape::graph::import::load_json_fixture("corpora/demo/graph.json".as_ref()).unwrap();
//! assert!(demo.node_count() > 0);
//! ```
//!
//! # Layout
//!
//! - `store.rs`: the property graph; `Graph::memory_stats` estimates the bytes of each part for
//!   `grape graph stats`.
//!   - Node and relationship records in slot vectors (`slots.rs`): a new element takes the next
//!     id, as Neo4j 5.26 does — a removed one's slot stays unused until over a million pile up,
//!     then is reused newest first — so scans after deletes keep creation order; a rollback puts
//!     each removed element back in its own slot and gives the ids of undone creations back.
//!     Each node's relationships as two singly linked lists in 8-byte side arrays, which a graph
//!     that has only grown does without: they are built, in id order, at the first removal.
//!   - Labels stored inline (`labels(n)` lists them by label token — first use of the label in
//!     the graph — as Neo4j does), a label index and a per-node label bitmap for the first 64
//!     labels kept in step with it (one byte per node while at most eight labels have bits).
//!   - A compressed adjacency — each node's relationships as contiguous arrays, newest first,
//!     built by a counting sort of the relationship array (or from the lists once slots have been
//!     reused) — and property indexes, both built on first use and cleared by any change.
//!   - The undo journal (`Graph::savepoint`, `rollback_to`, `commit`, `replay`).
//!   - The token kinds of each name (`Graph::has_token`: Neo4j's label, type and key tokens, kept
//!     after the last element with them is gone).
//! - `schema.rs`: indexes and constraints as Neo4j 5 lists them, changed through
//!   `Graph::update_schema` so that the journal undoes them too, with Neo4j's two LOOKUP indexes
//!   in a new graph; `Graph::touched_since` lists what a statement wrote, for the constraint
//!   check.
//! - `vectors.rs`: the segments of vector indexes, in Lucene 9.11's 7-bit scalar quantization as
//!   Neo4j 5.26's vector-2.0 index keeps it — a segment per committed transaction, written by
//!   `Graph::commit` / `release` from the journal, and one for the index's population, each
//!   quantized with its own quantiles; the heap order Neo4j's collector returns tied hits in.
//! - `shared.rs`: the shared graph of the servers (`SharedGraph`).
//! - `import/`, the importers:
//!   - JSON fixtures, read as a stream by `fixture.rs`, one record at a time through serde, node
//!     ids in a dense array when they are small integers (`import::DenseIds`, which the Data
//!     Importer reader shares for its integer ids), another format recognised on the way;
//!     `json.rs` the value encoding and the writer. A JSON fixture's `indexes` / `constraints`
//!     sections are read into and written from the schema, and `engine::load_graph` checks the
//!     data against them.
//!   - Binary snapshots in `snapshot.rs` (`.grape`: versioned, CRC-32, symbols then records,
//!     every count checked against the bytes left).
//!   - Data Importer folders, sampled paths, and CypherBench's graph dumps in `cypherbench.rs`.
//! - Besides `value`, it imports `syntax` (`IndexKind`), `temporal` and `spatial` (the importers'
//!   value encodings) and `fulltext` (analyzer names in index options); the engine only in the
//!   shared graph's tests.

pub mod import;
mod prop_index;
mod props;
pub mod schema;
mod shared;
mod slots;
mod store;
pub(crate) mod vectors;

pub use props::{IntRead, StrRead};
pub use schema::{ConstraintDef, ConstraintRule, EntityType, IndexDef, Schema};
pub use shared::{LockTimeout, SharedGraph, WriteTx, LOCK_TIMEOUT_CODE};
pub use slots::AdjEntry;
#[cfg(test)]
pub(crate) use store::derived_builds;
pub use store::{
    ChangeLog, Dir, Graph, Interner, MemoryStats, NodeData, Prop, Props, RelData, RelStats,
    Savepoint, Sym, TOKEN_KEY, TOKEN_LABEL, TOKEN_TYPE,
};
