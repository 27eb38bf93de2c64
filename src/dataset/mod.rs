//! Datasets, predictions and query files.
//!
//! [`query_file`] reads the query files the CLI's `parse`, `validate` and `analyze` commands take:
//! JSON Lines with an `id` and a `query` (or `cypher`) field, `.cypher` scripts, or standard input.
//!
//! ```
//! use grape::dataset::{predictions_from_text, read_dataset};
//! use std::path::Path;
//!
//! let examples = read_dataset(Path::new("corpora/demo/questions.jsonl"), None).unwrap();
//! assert_eq!(examples[0].id, "d01");
//! assert_eq!(examples[0].gold, "MATCH (b:Book {title: 'The Amber Orchard'}) RETURN b.year");
//! assert_eq!(examples[0].categories["query_type"], "property_access");
//!
//! let line = r#"{"id": "d01", "candidates": ["MATCH (b:Book) RETURN b.year"]}"#;
//! let predictions = predictions_from_text(Path::new("predictions.jsonl"), line).unwrap();
//! assert_eq!(predictions["d01"].candidates, ["MATCH (b:Book) RETURN b.year"]);
//! ```
//!
//! # Layout
//!
//! - Reading query files, benchmarks and predictions: ZOGRASCOPE CSV, GRAPE JSON, CypherTurn, JSON
//!   Lines, question/cypher CSV and parquet (feature `parquet`, the record API of arrow-rs's
//!   crate).
//! - Neo4j's text2cypher layout: `instance_id`, a per-example `schema` in `Example::schema`,
//!   `database_reference_alias` / `database` as the example's graph; `attach_schemas` gives
//!   examples their database's schema from a `database,schema` table.
//! - CypherBench's tasks and `result.json` predictions in `cypherbench.rs`.
//! - Output files are written atomically (`write_atomically`, `AtomicFile`).
//! - Of grape it imports only `syntax`.

pub mod cypherbench;
pub mod examples;
pub mod query_file;

pub use examples::{
    attach_schemas, predictions_from_text, read_dataset, read_predictions, turn_example_id,
    DatasetError, DatasetFormat, Example, Prediction, TurnRef,
};
pub use query_file::{read_query_file, QueryFile, QueryFileError, QueryInput};

/// Creates the output directory `dir` (and its parents). A file already there is an error
/// that says so, rather than the system's bare "File exists".
pub fn create_out_dir(dir: &std::path::Path) -> std::io::Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!(
                "{} is a file; the output is a directory (of the report, the per-example log \
                 and the predictions): name a new or existing directory",
                dir.display()
            ),
        ));
    }
    std::fs::create_dir_all(dir)
}

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

/// A file written line by line to a temporary path and renamed over its target on
/// [`AtomicFile::commit`], so that readers never see a half-written file and large outputs need
/// not be held in memory. Dropped without `commit`, the temporary file is removed.
pub struct AtomicFile {
    tmp: std::path::PathBuf,
    target: std::path::PathBuf,
    out: Option<std::io::BufWriter<std::fs::File>>,
}

impl AtomicFile {
    pub fn create(target: &std::path::Path) -> std::io::Result<AtomicFile> {
        let dir = target
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
        let f = std::fs::File::create(&tmp)?;
        Ok(AtomicFile {
            tmp,
            target: target.to_path_buf(),
            out: Some(std::io::BufWriter::new(f)),
        })
    }

    pub fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::Write;
        match &mut self.out {
            Some(w) => w.write_all(bytes),
            None => Err(std::io::Error::other("file already committed")),
        }
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(mut self) -> std::io::Result<()> {
        use std::io::Write;
        if let Some(mut w) = self.out.take() {
            w.flush()?;
            w.get_ref().sync_all()?;
        }
        std::fs::rename(&self.tmp, &self.target)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
