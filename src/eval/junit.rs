//! JUnit XML for CI test dashboards (`grape eval --junit FILE`): one `<testcase>` per example,
//! named by its id and classed by its query type (or `examples`); it fails when the first
//! prediction is not EX-correct, with the gold query, the prediction, the error and both
//! results' first rows in the failure's text. An example whose gold query failed is
//! `<skipped>`: it says nothing about the system under test. Times are the example's
//! wall-clock seconds. The layout is the common JUnit schema's (Jenkins / Ant `testsuites`
//! → `testsuite` → `testcase` with `failure`, `error`, `skipped`), which GitLab, GitHub
//! reporters, Jenkins and Azure read.

use super::{ExampleRecord, ResultPreview};
use std::fmt::Write;

/// Text safe inside XML 1.0 attributes and elements: escaped, and characters XML cannot hold
/// (controls other than tab, newline and carriage return; U+FFFE, U+FFFF) replaced by U+FFFD.
pub fn xml_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

fn preview_text(p: &Option<ResultPreview>) -> String {
    match p {
        None => "(none)".into(),
        Some(p) => {
            let mut s = format!("columns {:?}, {} rows", p.columns, p.total_rows);
            for r in &p.rows {
                let _ = write!(s, "\n    [{}]", r.join(", "));
            }
            if p.total_rows > p.rows.len() {
                s.push_str("\n    …");
            }
            s
        }
    }
}

fn seconds(r: &ExampleRecord) -> f64 {
    r.timings_ms
        .as_ref()
        .map(|t| (t.gold + t.prediction) / 1000.0)
        .unwrap_or(0.0)
}

/// The records as a JUnit XML document (`suite`: the test suite's name).
pub fn junit_xml(records: &[ExampleRecord], suite: &str) -> String {
    // Not executed: the gold query failed, or the run had no graph for the example.
    let not_run = |r: &ExampleRecord| r.gold_error.is_some() || !r.metrics.contains_key("ex");
    let failed = |r: &ExampleRecord| !not_run(r) && r.metrics.get("ex") != Some(&1.0);
    let tests = records.len();
    let failures = records.iter().filter(|r| failed(r)).count();
    let skipped = records.iter().filter(|r| not_run(r)).count();
    let time: f64 = records.iter().map(seconds).sum();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"grape\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" time=\"{time:.3}\">"
    );
    let _ = writeln!(
        x,
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{time:.3}\">",
        xml_text(suite)
    );
    for r in records {
        let class = r
            .categories
            .get("query_type")
            .or_else(|| r.categories.get("type"))
            .map(|t| format!("grape.{t}"))
            .unwrap_or_else(|| "grape.examples".into());
        let _ = write!(
            x,
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
            xml_text(&class),
            xml_text(&r.id),
            seconds(r)
        );
        if not_run(r) {
            let why = match &r.gold_error {
                Some(e) => format!("the gold query failed: {e}"),
                None => "not executed: the run has no graph for this example".to_string(),
            };
            let _ = writeln!(
                x,
                ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                xml_text(&why)
            );
        } else if failed(r) {
            let message = match &r.prediction_error {
                Some(e) => format!("the prediction failed: {e}"),
                None => "the prediction's result differs from the gold query's (EX 0)".into(),
            };
            let mut body = String::new();
            if !r.question.is_empty() {
                let _ = writeln!(body, "question: {}", r.question);
            }
            let _ = writeln!(body, "gold: {}", r.gold);
            let _ = writeln!(
                body,
                "prediction: {}",
                r.prediction.as_deref().unwrap_or("(none)")
            );
            let _ = writeln!(body, "gold result: {}", preview_text(&r.gold_result));
            let _ = write!(
                body,
                "predicted result: {}",
                preview_text(&r.predicted_result)
            );
            let _ = writeln!(
                x,
                ">\n      <failure message=\"{}\" type=\"EX\">{}</failure>\n    </testcase>",
                xml_text(&message),
                xml_text(&body)
            );
        } else {
            x.push_str("/>\n");
        }
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_not_executed_are_skipped_not_failed() {
        let rec = |id: &str, ex: Option<f64>, gold_error: Option<&str>| ExampleRecord {
            id: id.into(),
            question: String::new(),
            categories: Default::default(),
            gold: "RETURN 1".into(),
            prediction: Some("RETURN 2".into()),
            metrics: ex
                .map(|v| [("ex".to_string(), v)].into_iter().collect())
                .unwrap_or_else(|| [("google_bleu".to_string(), 0.5)].into_iter().collect()),
            gold_error: gold_error.map(str::to_string),
            prediction_error: None,
            tags: Default::default(),
            turn: None,
            diagnostics: Vec::new(),
            gold_result: None,
            predicted_result: None,
            timings_ms: None,
        };
        let x = junit_xml(
            &[
                rec("ok", Some(1.0), None),
                rec("bad", Some(0.0), None),
                rec("text-only", None, None),
                rec("broken-gold", None, Some("boom")),
            ],
            "s",
        );
        assert!(x.contains("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"2\""));
        assert!(x.contains("not executed: the run has no graph"));
        assert!(x.contains("the gold query failed: boom"));
    }

    #[test]
    fn xml_text_escapes_and_replaces_what_xml_cannot_hold() {
        assert_eq!(
            xml_text("a<b & 'c' \"d\">"),
            "a&lt;b &amp; &apos;c&apos; &quot;d&quot;&gt;"
        );
        assert_eq!(xml_text("x\u{1}y\tz\u{ffff}"), "x\u{fffd}y\tz\u{fffd}");
    }
}
