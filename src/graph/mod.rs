//! The in-memory property graph and the importers that fill it.
//!
//! - [`Graph`] (in `store.rs`, its element slots in `slots.rs`): nodes and relationships with interned labels,
//!   types and keys, a label index and lazily built property indexes.
//! - [`import`]: our JSON fixture format (read and write) and Neo4j Data Importer CSV folders.
//!   Cypher `CREATE` scripts run through the engine (`grape::engine::run_script`), so this
//!   module never depends on the engine.

pub mod import;
pub mod schema;
mod shared;
mod slots;
mod store;
pub(crate) mod vectors;

pub use schema::{ConstraintDef, ConstraintRule, EntityType, IndexDef, Schema};
pub use shared::{LockTimeout, SharedGraph, WriteTx, LOCK_TIMEOUT_CODE};
pub use store::{
    ChangeLog, Dir, Graph, Interner, MemoryStats, NodeData, RelData, Savepoint, Sym, TOKEN_KEY,
    TOKEN_LABEL, TOKEN_TYPE,
};
