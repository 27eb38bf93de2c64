//! Datasets and query files.
//!
//! [`query_file`] reads the query files the CLI's `parse`, `validate` and `analyze` commands take:
//! JSON Lines with an `id` and a `query` (or `cypher`) field, `.cypher` scripts, or standard input.

pub mod query_file;

pub use query_file::{read_query_file, QueryFile, QueryFileError, QueryInput};

/// Writes `bytes` to `path` atomically: to a temporary file beside it, then renamed over it, so
/// that readers never see a half-written file.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}
