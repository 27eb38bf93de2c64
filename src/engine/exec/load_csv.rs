//! `LOAD CSV`: URLs resolved inside the import directory only, files read with a size bound.

use super::*;
use crate::engine::Detail;

/// Where a `LOAD CSV` URL points inside the import directory, as Neo4j resolves it with
/// `server.directories.import`: `file:///x.csv` (or a bare relative path) names `DIR/x.csv`.
/// Refused: no import directory (LOAD CSV is off), other URL schemes (no network), `..`,
/// anything that resolves (through symbolic links too) outside the directory, and anything
/// that is not a regular file (FIFOs, devices, directories).
pub(crate) fn resolve_import_path(
    import_dir: Option<&std::path::Path>,
    url: &str,
) -> std::result::Result<std::path::PathBuf, String> {
    use std::path::{Component, Path};
    let Some(dir) = import_dir else {
        return Err(
            "LOAD CSV is disabled: no import directory is configured (Options::import_dir, \
             --import-dir DIR; Neo4j's server.directories.import)"
                .to_string(),
        );
    };
    let rel = match url.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("file") => {
            // file://host/path is not local; file:///path and file:/path are.
            let rest = rest.strip_prefix("localhost").unwrap_or(rest);
            if !rest.starts_with('/') {
                return Err(format!(
                    "cannot load from {url:?}: only local file URLs are allowed"
                ));
            }
            percent_decode(rest)?
        }
        Some((scheme, _)) => {
            return Err(format!(
                "LOAD CSV from {scheme}:// is not available: grape reads local files only"
            ))
        }
        None => url.to_string(),
    };
    let rel = rel.trim_start_matches('/');
    if rel.is_empty() || rel.contains('\0') {
        return Err(format!("cannot load from {url:?}: no file named"));
    }
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(_) | Component::CurDir => {}
            _ => {
                return Err(format!(
                    "cannot load from {url:?}: the path leaves the import directory"
                ))
            }
        }
    }
    let root = dir
        .canonicalize()
        .map_err(|e| format!("the import directory {} cannot be used: {e}", dir.display()))?;
    let target = root.join(rel);
    let real = target.canonicalize().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            format!("cannot load from {url:?}: no such file in the import directory")
        }
        _ => format!("cannot load from {url:?}: {e}"),
    })?;
    if !real.starts_with(&root) {
        return Err(format!(
            "cannot load from {url:?}: the path leaves the import directory"
        ));
    }
    let meta = std::fs::metadata(&real).map_err(|e| format!("cannot load from {url:?}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot load from {url:?}: not a regular file"));
    }
    Ok(real)
}

/// `%XX` escapes of a file URL's path.
pub(super) fn percent_decode(s: &str) -> std::result::Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("invalid escape in URL {s:?}"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("invalid escape in URL {s:?}"))
}

/// Opens a file for reading without blocking on a FIFO swapped in after the checks, and
/// checks again, on the open file, that it is a regular file.
pub(super) fn open_regular(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok(f)
}

/// A reader that fails once more than `left` bytes have been read (the memory budget a
/// `LOAD CSV` file may fill).
pub(super) struct BoundedRead<R> {
    inner: R,
    left: u64,
}

impl<R: std::io::Read> std::io::Read for BoundedRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other(
                "the file is larger than the query's memory budget",
            ));
        }
        let n = buf.len().min(self.left.min(usize::MAX as u64) as usize);
        let got = self.inner.read(&mut buf[..n])?;
        self.left -= got as u64;
        Ok(got)
    }
}

/// Reads a CSV file for `LOAD CSV`: rows as lists of strings, or maps keyed by the header with
/// `WITH HEADERS`. Empty fields are null, as in Neo4j.
pub(super) fn load_csv(
    sh: &Shared,
    url: &str,
    headers: bool,
    terminator: Option<&str>,
) -> Result<(Vec<(Value, i64)>, String)> {
    let err = |m: String| {
        ExecError::runtime(ErrorKind::ArgumentError, m).with_detail(Detail::LoadCsvFailed)
    };
    let path = resolve_import_path(sh.import_dir, url).map_err(err)?;
    let delim = match terminator {
        None => b',',
        Some(t) if t.len() == 1 => t.as_bytes()[0],
        Some("\\t") => b'\t',
        Some(t) => {
            return Err(err(format!(
                "FIELDTERMINATOR must be one character, got {t:?}"
            )))
        }
    };
    let file = open_regular(&path).map_err(|e| err(format!("cannot read {url:?}: {e}")))?;
    let left = sh
        .limits
        .max_memory
        .map_or(u64::MAX, |m| m.saturating_sub(sh.mem.get()) as u64);
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(headers)
        .delimiter(delim)
        .flexible(true)
        .from_reader(BoundedRead { inner: file, left });
    let cell = |s: &str| {
        if s.is_empty() {
            Value::Null
        } else {
            Value::from(s)
        }
    };
    let names: Vec<Arc<str>> = if headers {
        rdr.headers()
            .map_err(|e| err(format!("{url}: {e}")))?
            .iter()
            .map(Arc::from)
            .collect()
    } else {
        Vec::new()
    };
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| err(format!("{url}: {e}")))?;
        sh.tick()?;
        let v = if headers {
            let mut m = BTreeMap::new();
            for (i, name) in names.iter().enumerate() {
                m.insert(name.clone(), rec.get(i).map(cell).unwrap_or(Value::Null));
            }
            Value::Map(m)
        } else {
            Value::List(rec.iter().map(cell).collect())
        };
        sh.charge(crate::value::footprint(&v, 2).map_or(0, |f| f.bytes))?;
        let line = rec.position().map_or(0, |p| p.line() as i64);
        out.push((v, line));
    }
    Ok((out, path.display().to_string()))
}
