//! Importers: JSON fixtures (`json.rs`), Neo4j Data Importer folders (`importer.rs`),
//! GRAPE-style sampled paths (`sampled.rs`), CypherBench's graph dumps (`cypherbench.rs`) and
//! binary snapshots (`snapshot.rs`); `fixture.rs` reads fixtures as a stream.

mod cypherbench;
mod fixture;
mod importer;
mod json;
mod sampled;
mod snapshot;

pub use cypherbench::{
    cypherbench_graph_from_json, looks_like_cypherbench_graph, parse_cypherbench_graph,
};
pub(crate) use fixture::{read_fixture, FixtureError};
pub use importer::{load_importer_dir, ImporterTypes};
pub use json::{
    graph_to_json, json_to_value, load_json_fixture, parse_json_fixture, value_to_json,
};
pub use sampled::{looks_like_sampled_paths, parse_sampled_paths};
pub use snapshot::{is_snapshot, read_snapshot, snapshot_bytes};

/// Nodes by integer id in a dense array (the common case: ids that count from 0): one lookup
/// without hashing, four bytes per slot. An id further than [`DenseIds::SLACK`] past the nodes
/// read so far is refused (the caller keeps it in a map), so a hostile id cannot make the array
/// huge.
#[derive(Default)]
pub(super) struct DenseIds {
    /// `slots[i]` is the node of id `i`, or `u32::MAX`.
    slots: Vec<u32>,
}

impl DenseIds {
    const SLACK: u64 = 1 << 20;

    pub(super) fn get(&self, id: u64) -> Option<crate::value::NodeId> {
        let n = *self.slots.get(usize::try_from(id).ok()?)?;
        (n != u32::MAX).then_some(crate::value::NodeId(n))
    }

    /// Records id `id` for `n` (`nodes`: the nodes read so far): `Some(true)` when recorded,
    /// `Some(false)` when the id is taken, `None` when it is too far ahead for the array.
    pub(super) fn insert(
        &mut self,
        id: u64,
        n: crate::value::NodeId,
        nodes: usize,
    ) -> Option<bool> {
        if id >= (nodes as u64).saturating_add(Self::SLACK) {
            return None;
        }
        let i = usize::try_from(id).ok()?;
        if i >= self.slots.len() {
            self.slots.resize(i + 1, u32::MAX);
        }
        if self.slots[i] != u32::MAX {
            return Some(false);
        }
        self.slots[i] = n.0;
        Some(true)
    }
}

/// An import failure: which file, where in it, and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("{file}{}: {message}", location.as_ref().map(|l| format!(" ({l})")).unwrap_or_default())]
pub struct ImportError {
    pub file: String,
    /// A record number, line or JSON path, when known.
    pub location: Option<String>,
    pub message: String,
}

impl ImportError {
    pub(crate) fn new(
        file: impl Into<String>,
        location: Option<String>,
        message: impl Into<String>,
    ) -> Self {
        ImportError {
            file: file.into(),
            location,
            message: message.into(),
        }
    }
}
