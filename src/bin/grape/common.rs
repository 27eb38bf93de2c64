//! Helpers the commands share: output lines, positions and origins of queries in files,
//! schemas, failures, and the broken-pipe policy.

use super::*;

/// Commands that write a stream to standard output end quietly when the reader goes away
/// (`grape query … | head -1`), as `cat` and ripgrep do, instead of panicking on a broken
/// pipe. Servers keep the default of ignoring SIGPIPE: a client going away must not stop them.
#[cfg(unix)]
pub(crate) fn quiet_broken_pipe() {
    // SAFETY: restoring the default disposition of one signal at start-up, before any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
pub(crate) fn quiet_broken_pipe() {}

pub(crate) fn json_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Line and column of a position inside `q`'s text, moved onto its file for scripts.
pub(crate) fn file_position(q: &QueryInput, line: usize, column: usize) -> (usize, usize) {
    if q.offset.is_some() {
        let l = q.line + line - 1;
        let c = if line == 1 {
            q.column + column - 1
        } else {
            column
        };
        (l, c)
    } else {
        (line, column)
    }
}

pub(crate) fn origin_of(file: &grape::dataset::QueryFile, q: &QueryInput) -> String {
    if q.offset.is_some() {
        file.origin.clone()
    } else {
        format!(
            "{} (record {}, id {})",
            file.origin,
            q.line,
            grape::syntax::escape_controls(&q.id)
        )
    }
}

/// A schema file, or — when no format is named and the file is not a schema — a graph in any
/// format `--graph` reads (a JSON fixture, a `.grape` snapshot, a Cypher script, a Data
/// Importer folder, a CypherBench dump), whose schema is derived from its data as
/// `apoc.meta.schema` would describe it.
pub(crate) fn read_schema(path: &Path, format: Option<&str>) -> Result<Schema, String> {
    let format = match format {
        Some(f) => Some(f.parse::<SchemaFormat>().map_err(|e| e.to_string())?),
        None => None,
    };
    if format.is_none() && path.is_dir() {
        return schema_of_graph(path).map_err(|e| format!("{}: {e}", path.display()));
    }
    match Schema::read_path(path, format) {
        Ok(s) => {
            warn_unknown_types(path, &s);
            Ok(s)
        }
        Err(schema_error) if format.is_none() => schema_of_graph(path).map_err(|graph_error| {
            format!("{schema_error}; nor is it a graph grape reads: {graph_error}")
        }),
        Err(e) => Err(e.to_string()),
    }
}

/// A warning on standard error for each property whose type grape does not know (a misspelt
/// `Strng` would otherwise pass unnoticed: its values are never type-checked).
fn warn_unknown_types(path: &Path, s: &Schema) {
    const KNOWN: &str = "STRING, INTEGER, FLOAT, BOOLEAN, DATE, DATE_TIME, LOCAL_DATE_TIME, \
                         TIME, LOCAL_TIME, DURATION, POINT, MAP, LIST<T>, ANY";
    for (at, key, ty) in s.unknown_types() {
        eprintln!(
            "warning: {}: {at}.{key} has type `{ty}`, which grape does not know ({KNOWN}): \
             its values are not type-checked",
            path.display()
        );
    }
}

fn schema_of_graph(path: &Path) -> Result<Schema, String> {
    let text = path.to_str().ok_or("the path is not UTF-8")?;
    let g = grape::engine::load_graph(text, Default::default()).map_err(|e| e.to_string())?;
    Ok(grape::engine::schema_of(&g))
}

/// Reports a failure on standard error; exit status 2 (bad input or setup).
#[cfg(any(feature = "neo4j", feature = "llm"))]
pub(crate) fn fail(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::from(2)
}
