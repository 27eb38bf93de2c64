//! A differential run's reports: `difftest.json` (every case with both answers) and
//! `differences.md` (each difference with a reproduction), written atomically.

use super::{Outcome, Summary, Verdict};
use serde_json::json;
use std::fmt::Write as _;
use std::path::Path;

/// What the run was, for the reports' heads.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RunInfo {
    /// The graph argument (`--graph`).
    pub graph: String,
    /// The reference (`neo4j bolt://… (Neo4j/5.26.x)`).
    pub reference: String,
    /// `--generate N --seed S`, or the query files.
    pub source: String,
}

/// The JSON report.
pub fn to_json(info: &RunInfo, outcomes: &[Outcome]) -> serde_json::Value {
    json!({
        "run": info,
        "summary": Summary::of(outcomes),
        "cases": outcomes,
    })
}

fn fence(s: &str) -> String {
    // A fence longer than any run of backticks inside.
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat((longest + 1).max(3))
}

/// The Markdown report of the differences (and the skipped cases).
pub fn to_markdown(info: &RunInfo, outcomes: &[Outcome]) -> String {
    let s = Summary::of(outcomes);
    let mut out = String::new();
    let _ = writeln!(out, "# grape difftest\n");
    let _ = writeln!(out, "- graph: `{}`", info.graph);
    let _ = writeln!(out, "- reference: {}", info.reference);
    let _ = writeln!(out, "- statements: {}", info.source);
    let _ = writeln!(
        out,
        "- **{} of {} equal**, {} differ, {} skipped ({} where both fail with the same code)\n",
        s.equal,
        s.cases - s.skipped,
        s.differ,
        s.skipped,
        s.both_failed
    );
    if !s.by_kind.is_empty() {
        let _ = writeln!(out, "| difference | cases |\n|---|---|");
        for (k, n) in &s.by_kind {
            let _ = writeln!(out, "| {k} | {n} |");
        }
        out.push('\n');
    }
    for o in outcomes {
        let Verdict::Differs(d) = &o.verdict else {
            continue;
        };
        let f = fence(&o.query);
        let _ = writeln!(out, "## {} — {:?}\n\n{}\n", o.id, d.kind, d.detail);
        let _ = writeln!(out, "{f}cypher\n{}\n{f}\n", o.query);
        if let Some(r) = &o.reproduction {
            let g = fence(&r.script);
            let _ = writeln!(
                out,
                "Reproduces on a graph of {} nodes and {} relationships ({} tries):\n\n{g}cypher\n{}\n{g}\n",
                r.nodes, r.relationships, r.tries, r.script
            );
        }
        for (who, side) in [("grape", &o.grape), ("Neo4j", &o.neo4j)] {
            let text = serde_json::to_string_pretty(side).unwrap_or_default();
            let f = fence(&text);
            let _ = writeln!(out, "{who}:\n\n{f}json\n{text}\n{f}\n");
        }
        let _ = writeln!(
            out,
            "Reproduce: `grape query --graph {} \"$(cat q.cypher)\"` beside the same statement on the reference (`grape difftest --neo4j URI --graph {} q.cypher` runs both).\n",
            info.graph, info.graph
        );
    }
    let skipped: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Skipped { .. }))
        .collect();
    if !skipped.is_empty() {
        let _ = writeln!(out, "## Skipped\n");
        for o in skipped {
            if let Verdict::Skipped { reason } = &o.verdict {
                let _ = writeln!(out, "- {}: {reason}", o.id);
            }
        }
    }
    out
}

/// Writes `difftest.json` and `differences.md` into `dir` (created if needed), each atomically.
pub fn write(dir: &Path, info: &RunInfo, outcomes: &[Outcome]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let j = serde_json::to_string_pretty(&to_json(info, outcomes))
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    crate::dataset::write_atomically(&dir.join("difftest.json"), j.as_bytes())?;
    crate::dataset::write_atomically(
        &dir.join("differences.md"),
        to_markdown(info, outcomes).as_bytes(),
    )?;
    Ok(())
}
