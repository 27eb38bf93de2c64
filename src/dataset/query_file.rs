//! Reading queries from `.jsonl`, `.cypher` and standard input.
//!
//! - **JSON Lines** (`.jsonl`, `.ndjson`): one object a line with `query` or `cypher` (a string)
//!   and an optional `id` (string or number; the line number when absent), or — a predictions
//!   file for Pass@k — a `candidates` array of strings, each read as a query with the id
//!   `ID#1`, `ID#2`, … Blank lines are
//!   skipped. A line that is not such an object is reported as a [`QueryFileError`] with the
//!   file and line, and reading goes on.
//! - **Cypher scripts** (`.cypher`, `.cyp`, `.cql`, anything else, and `-` for standard input):
//!   statements separated by `;` at the top level (semicolons inside strings and comments do not
//!   split). Statement ids are `FILE:LINE`, the line where the statement starts.

use std::path::Path;

/// One query read from a file, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryInput {
    /// The record's id (JSONL) or `FILE:LINE` (scripts).
    pub id: String,
    /// The query text.
    pub text: String,
    /// The file it came from (`-` for standard input).
    pub origin: String,
    /// 1-based line of the file where the query text starts (its record's line for JSONL).
    pub line: usize,
    /// 1-based column where the query text starts (1 for JSONL: positions there are relative
    /// to the query string).
    pub column: usize,
    /// Byte offset of the query text in the file, when positions inside the query map onto the
    /// file (scripts); `None` for JSONL, where the text is JSON-escaped inside its line.
    pub offset: Option<usize>,
}

/// A query file: where it came from, its text, its queries and the records that failed to read.
#[derive(Clone, Debug)]
pub struct QueryFile {
    pub origin: String,
    pub text: String,
    pub queries: Vec<QueryInput>,
    pub errors: Vec<QueryFileError>,
    /// Byte offsets where the text's lines start (built on the first error located).
    line_starts: std::sync::OnceLock<Vec<usize>>,
}

impl QueryFile {
    /// Moves a parse error of `query` onto the file, so that line, column and the source line are
    /// the file's (scripts); JSONL errors stay relative to the query string.
    pub fn locate(
        &self,
        query: &QueryInput,
        err: &crate::syntax::ParseError,
    ) -> crate::syntax::ParseError {
        let Some(base) = query.offset else {
            return err.clone();
        };
        // From the query's own position, without a pass over the file for every error.
        let mut e = err.clone();
        e.offset = (base + err.offset).min(self.text.len());
        e.line = query.line + err.line.saturating_sub(1);
        if err.line <= 1 {
            e.column = query.column + err.column.saturating_sub(1);
        }
        let starts = self.line_starts.get_or_init(|| line_starts(&self.text));
        if let Some(&ls) = starts.get(e.line.saturating_sub(1)) {
            let le = self.text[ls..]
                .find(['\n', '\r'])
                .map_or(self.text.len(), |i| ls + i);
            e.source_line = self.text[ls..le].to_string();
        }
        e
    }
}

/// Where each line of `text` starts (`\r\n`, `\n` and `\r` end a line, as for positions).
fn line_starts(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = vec![0];
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')) {
            out.push(i + 1);
        }
    }
    out
}

/// A record that could not be read: the file, the line and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{origin}:{line}: {message}")]
pub struct QueryFileError {
    pub origin: String,
    pub line: usize,
    pub message: String,
}

/// Reads every query of `path` (`-` is standard input, read as a Cypher script).
///
/// Per-record problems land in [`QueryFile::errors`]; an `Err` only when the file cannot be read.
pub fn read_query_file(path: &Path) -> std::io::Result<QueryFile> {
    let origin = path.display().to_string();
    if origin == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
        let queries = script_queries(&text, "-");
        return Ok(QueryFile {
            origin,
            text,
            queries,
            errors: Vec::new(),
            line_starts: Default::default(),
        });
    }
    let bytes = std::fs::read(path)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{origin} is not UTF-8 (byte {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let (queries, errors) = if ext == "jsonl" || ext == "ndjson" {
        jsonl_queries(&text, &origin)
    } else {
        (script_queries(&text, &origin), Vec::new())
    };
    Ok(QueryFile {
        origin,
        text,
        queries,
        errors,
        line_starts: Default::default(),
    })
}

/// Splits a script into statements (see the module docs).
pub fn script_queries(text: &str, origin: &str) -> Vec<QueryInput> {
    let mut cursor = crate::syntax::LineCursor::new(text);
    crate::syntax::split_statements_lenient(text)
        .into_iter()
        .map(|(offset, stmt)| {
            let (line, column, _) = cursor.at(offset);
            QueryInput {
                id: format!("{origin}:{line}"),
                text: stmt.to_string(),
                origin: origin.to_string(),
                line,
                column,
                offset: Some(offset),
            }
        })
        .collect()
}

/// Reads JSON Lines records (see the module docs).
pub fn jsonl_queries(text: &str, origin: &str) -> (Vec<QueryInput>, Vec<QueryFileError>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let lineno = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let err = |message: String| QueryFileError {
            origin: origin.to_string(),
            line: lineno,
            message,
        };
        let value: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                errors.push(err(format!("not valid JSON: {e}")));
                continue;
            }
        };
        let Some(obj) = value.as_object() else {
            errors.push(err("expected a JSON object".to_string()));
            continue;
        };
        let id = match obj.get("id") {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(serde_json::Value::Number(n)) => n.to_string(),
            Some(serde_json::Value::Null) | None => format!("{origin}:{lineno}"),
            Some(other) => other.to_string(),
        };
        let query = obj
            .get("query")
            .or_else(|| obj.get("cypher"))
            .and_then(|q| q.as_str());
        let input = |id: String, text: &str| QueryInput {
            id,
            text: text.to_string(),
            origin: origin.to_string(),
            line: lineno,
            column: 1,
            offset: None,
        };
        if let Some(query) = query {
            out.push(input(id, query));
            continue;
        }
        match obj.get("candidates").and_then(|c| c.as_array()) {
            Some(cands) if cands.iter().all(|c| c.is_string()) => {
                for (k, c) in cands.iter().enumerate() {
                    out.push(input(format!("{id}#{}", k + 1), c.as_str().unwrap_or("")));
                }
            }
            Some(_) => errors.push(err("`candidates` must be an array of strings".to_string())),
            None => errors.push(err(
                "expected a string field `query` or `cypher` (or a `candidates` array)".to_string(),
            )),
        }
    }
    (out, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_predictions_file_gives_each_candidate_as_a_query() {
        let text = "{\"id\": \"q1\", \"candidates\": [\"RETURN 1\", \"RETURN 2\"]}\n\
                    {\"id\": \"q2\", \"candidates\": [1]}\n{\"id\": \"q3\"}\n";
        let (qs, errs) = jsonl_queries(text, "p.jsonl");
        let got: Vec<(&str, &str)> = qs
            .iter()
            .map(|q| (q.id.as_str(), q.text.as_str()))
            .collect();
        assert_eq!(got, [("q1#1", "RETURN 1"), ("q1#2", "RETURN 2")]);
        assert_eq!(errs.len(), 2);
        assert!(
            errs[0].message.contains("array of strings"),
            "{}",
            errs[0].message
        );
        assert_eq!(errs[1].line, 3);
    }

    #[test]
    fn script_splits_at_top_level_semicolons_only() {
        let text = "MATCH (n) RETURN n;\n// a comment; with a semicolon\nRETURN 'a;b' AS s;\n\n  RETURN 1 /* ; */ AS one";
        let qs = script_queries(text, "t.cypher");
        let texts: Vec<&str> = qs.iter().map(|q| q.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "MATCH (n) RETURN n",
                "// a comment; with a semicolon\nRETURN 'a;b' AS s",
                "RETURN 1 /* ; */ AS one"
            ]
        );
        assert_eq!((qs[1].line, qs[1].column), (2, 1));
        assert_eq!((qs[2].line, qs[2].column), (5, 3));
        assert_eq!(qs[2].id, "t.cypher:5");
    }

    #[test]
    fn jsonl_reads_ids_and_reports_bad_records_with_their_line() {
        let text = "{\"id\": \"a\", \"query\": \"RETURN 1\"}\n\n{\"id\": 7, \"cypher\": \"RETURN 2\"}\nnot json\n{\"id\": \"x\"}\n{\"query\": \"RETURN 3\"}\n[1]\n";
        let (qs, errs) = jsonl_queries(text, "q.jsonl");
        let ids: Vec<&str> = qs.iter().map(|q| q.id.as_str()).collect();
        assert_eq!(ids, vec!["a", "7", "q.jsonl:6"]);
        assert_eq!(qs[1].text, "RETURN 2");
        let lines: Vec<usize> = errs.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![4, 5, 7]);
        assert!(errs[1].message.contains("`query` or `cypher`"));
        assert!(errs[0].to_string().starts_with("q.jsonl:4: not valid JSON"));
    }
}
