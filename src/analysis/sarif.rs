//! Validator findings for code review: SARIF 2.1.0 (what GitHub code scanning, GitLab and IDE
//! SARIF viewers read) and GitHub Actions workflow annotations, so that `grape validate`'s
//! diagnostics appear inline on a pull request.
//!
//! A [`Finding`] is a diagnostic placed in its file (1-based lines and columns, columns in
//! Unicode code points, the end exclusive as SARIF's `endColumn` is). A query inside a JSON
//! Lines record has no columns in its file (its text is JSON-escaped there): its findings name
//! the record's line only. Rules are the diagnostic codes
//! (`ruleId` = the Neo4j-style code, `name` = the kind); a `Neo.ClientError…` code is an
//! `error`, every other a `warning`.

use serde_json::{json, Value as Json};
use std::collections::BTreeMap;

/// One diagnostic, placed in a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The file, as the user named it (a relative path stays relative).
    pub uri: String,
    /// The query's id (its JSON Lines id, or `FILE:LINE`).
    pub query_id: String,
    pub code: String,
    /// The diagnostic kind (`UnknownLabel`, …).
    pub kind: String,
    pub message: String,
    pub start_line: usize,
    pub end_line: usize,
    /// `(start, end)` columns, when the query's text maps onto the file.
    pub columns: Option<(usize, usize)>,
}

impl Finding {
    /// `error` or `warning`.
    pub fn level(&self) -> &'static str {
        if self.code.starts_with("Neo.ClientError") {
            "error"
        } else {
            "warning"
        }
    }
}

/// Splits `UnknownPropertyKey` into `Unknown property key`.
fn words(kind: &str) -> String {
    let mut out = String::new();
    for (i, c) in kind.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn region(f: &Finding) -> Json {
    let mut r = json!({"startLine": f.start_line, "endLine": f.end_line});
    if let Some((start, end)) = f.columns {
        r["startColumn"] = json!(start);
        r["endColumn"] = json!(end);
    }
    r
}

/// A SARIF 2.1.0 log of one run of grape over the findings.
pub fn sarif_log(findings: &[Finding]) -> Json {
    let mut rules: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for f in findings {
        rules.entry(&f.code).or_insert((&f.kind, f.level()));
    }
    let index: BTreeMap<&str, usize> = rules.keys().enumerate().map(|(i, k)| (*k, i)).collect();
    let rules_json: Vec<Json> = rules
        .iter()
        .map(|(code, (kind, level))| {
            json!({
                "id": code,
                "name": kind,
                "shortDescription": {"text": words(kind)},
                "defaultConfiguration": {"level": level},
                "helpUri": "https://neo4j.com/docs/status-codes/current/",
            })
        })
        .collect();
    let results: Vec<Json> = findings
        .iter()
        .map(|f| {
            json!({
                "ruleId": f.code,
                "ruleIndex": index[f.code.as_str()],
                "level": f.level(),
                "message": {"text": f.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": f.uri},
                        "region": region(f),
                    },
                    "logicalLocations": [{"name": f.query_id, "kind": "member"}],
                }],
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "grape",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules_json,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// Escapes workflow-command data (`%`, CR, LF), and in properties also `:` and `,`.
fn escape(s: &str, property: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// The finding as a GitHub Actions workflow command (`::error file=…,line=…::message`), which
/// the runner turns into an annotation on the pull request's diff.
pub fn github_annotation(f: &Finding) -> String {
    let columns = f
        .columns
        .map(|(s, e)| format!(",col={s},endColumn={e}"))
        .unwrap_or_default();
    format!(
        "::{} file={},line={},endLine={}{columns},title={}::{}",
        f.level(),
        escape(&f.uri, true),
        f.start_line,
        f.end_line,
        escape(&f.code, true),
        escape(&f.message, false)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(code: &str, kind: &str) -> Finding {
        Finding {
            uri: "q/a,b.cypher".into(),
            query_id: "q/a,b.cypher:3".into(),
            code: code.into(),
            kind: kind.into(),
            message: "100% wrong:\nsee".into(),
            start_line: 3,
            end_line: 3,
            columns: Some((7, 12)),
        }
    }

    #[test]
    fn sarif_rules_are_the_codes_and_results_point_at_them() {
        let fs = [
            finding(
                "Neo.ClientNotification.Statement.UnknownLabelWarning",
                "UnknownLabel",
            ),
            finding("Neo.ClientError.Statement.SyntaxError", "UndefinedVariable"),
            finding(
                "Neo.ClientNotification.Statement.UnknownLabelWarning",
                "UnknownLabel",
            ),
        ];
        let log = sarif_log(&fs);
        assert_eq!(log["version"], "2.1.0");
        let rules = log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        assert_eq!(rules.len(), 2);
        let results = log["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        for r in results {
            let i = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(rules[i]["id"], r["ruleId"]);
        }
        assert_eq!(results[1]["level"], "error");
        assert_eq!(results[0]["level"], "warning");
        assert_eq!(rules[1]["shortDescription"]["text"], "Unknown label");
    }

    #[test]
    fn github_annotations_escape_their_data() {
        let a = github_annotation(&finding("Neo.ClientError.Statement.SyntaxError", "X"));
        assert_eq!(
            a,
            "::error file=q/a%2Cb.cypher,line=3,endLine=3,col=7,endColumn=12,title=Neo.ClientError.Statement.SyntaxError::100%25 wrong:%0Asee"
        );
    }
}
