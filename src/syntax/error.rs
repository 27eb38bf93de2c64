//! Parse errors that point at the offending text and render like a compiler diagnostic.

use serde::Serialize;
use std::fmt;

/// A syntax error: where it is, what was found and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub struct ParseError {
    /// Byte offset of the first offending character.
    pub offset: usize,
    /// 1-based line of the first offending character.
    pub line: usize,
    /// 1-based column, counted in characters (Unicode scalar values).
    pub column: usize,
    /// The offending text (the token at the error position, or `end of input`).
    pub found: String,
    /// What would have been accepted there, in the grammar's terms (`an expression`, `')'`, …).
    pub expected: Vec<String>,
    /// A one-line summary, e.g. `unexpected ')'; expected an expression`.
    pub message: String,
    /// The source line the error is on (for rendering).
    pub source_line: String,
}

impl ParseError {
    /// Builds an error at `offset` in `source`.
    pub(crate) fn at(source: &str, offset: usize, message: String, expected: Vec<String>) -> Self {
        let offset = floor_char_boundary(source, offset.min(source.len()));
        let (line, column, line_start) = line_col(source, offset);
        let line_end = source[line_start..]
            .find(['\n', '\r'])
            .map(|i| line_start + i)
            .unwrap_or(source.len());
        ParseError {
            offset,
            line,
            column,
            found: token_at(source, offset),
            expected,
            message,
            source_line: source[line_start..line_end].to_string(),
        }
    }

    /// The same error for a text that was cut out of a larger `file` at byte `base`: offset,
    /// line, column and source line become the file's.
    pub fn relocated(&self, file: &str, base: usize) -> ParseError {
        let mut e = ParseError::at(
            file,
            base + self.offset,
            self.message.clone(),
            self.expected.clone(),
        );
        e.found = self.found.clone();
        e
    }

    /// Renders the error like a compiler diagnostic:
    ///
    /// ```text
    /// error: unexpected ')'; expected an expression
    ///  --> query:1:15
    ///   |
    /// 1 | RETURN 1 + ) AS x
    ///   |            ^
    /// ```
    pub fn render(&self, origin: &str) -> String {
        let gutter = self.line.to_string();
        let pad = " ".repeat(gutter.len());
        let caret_pad: String = self
            .source_line
            .chars()
            .take(self.column.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let width = self
            .found
            .chars()
            .count()
            .clamp(1, 40)
            .min(if self.found == "end of input" {
                1
            } else {
                usize::MAX
            });
        format!(
            "error: {msg}\n{pad}--> {origin}:{line}:{col}\n{pad} |\n{gutter} | {src}\n{pad} | {caret_pad}{carets}\n",
            msg = self.message,
            line = self.line,
            col = self.column,
            src = self.source_line,
            carets = "^".repeat(width),
        )
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// 1-based line and column (in characters) of `offset`, and the byte offset of the line start.
/// `\r\n`, `\n` and `\r` each end a line. An offset past the end counts as the end, and one
/// inside a character as that character's start: never panics.
pub(crate) fn line_col(source: &str, offset: usize) -> (usize, usize, usize) {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let bytes = source.as_bytes();
    let mut line = 1;
    let mut line_start = 0;
    let mut i = 0;
    while i < offset && i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'\r' if bytes.get(i + 1) != Some(&b'\n') => {
                line += 1;
                line_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let column = source[line_start..offset].chars().count() + 1;
    (line, column, line_start)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The token starting at `offset`: a word, a number, a quoted string start, or one symbol.
fn token_at(source: &str, offset: usize) -> String {
    let rest = &source[offset..];
    let mut chars = rest.chars();
    let Some(first) = chars.next() else {
        return "end of input".to_string();
    };
    if first.is_alphanumeric() || first == '_' {
        rest.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .take(40)
            .collect()
    } else if first.is_whitespace() {
        "whitespace".to_string()
    } else {
        // Two-character operators read better whole.
        let two: String = rest.chars().take(2).collect();
        match two.as_str() {
            "<>" | "<=" | ">=" | "=~" | "!=" | "||" | "+=" | ".." | "::" | "->" | "<-" | "--" => {
                two
            }
            _ => first.to_string(),
        }
    }
}
