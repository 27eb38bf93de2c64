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
