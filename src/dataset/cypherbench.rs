//! CypherBench's text-to-Cypher tasks (megagonlabs/cypherbench on Hugging Face: `train.json`,
//! `test.json`; the same records, each with `pred_cypher`, are the `result.json` its baselines
//! write). A JSON array of
//!
//! ```json
//! {"qid": "nba-0", "graph": "nba", "gold_cypher": "MATCH …", "gold_match_cypher": "MATCH …",
//!  "nl_question": "…", "nl_question_raw": "…", "answer_json": "[{\"n.name\": …}]",
//!  "from_template": {"match_category": "basic_(n)", "match_cypher": "…",
//!                    "return_pattern_id": "n_name", "return_cypher": "…"}}
//! ```
//!
//! Field mapping: `qid` → id, `nl_question` (else `nl_question_raw`) → question, `gold_cypher`
//! → gold, `graph` → the example's graph (and category `graph`), `answer_json` → the reference
//! answer; categories `match_category` and `return_pattern` from `from_template`, and
//! `return_category`, the grouping of return patterns CypherBench's own evaluation reports
//! (`n_prop`, `n_name_prop`, `n_prop_distinct` and `n_prop_array_distinct` together as
//! `n_prop_combined`; only the patterns it groups).

use super::examples::{derr, scalar_text, DatasetError, Example, Prediction, SeenIds};
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Whether a JSON text looks like CypherBench tasks (an array whose records have `qid` and
/// `gold_cypher`).
pub(crate) fn looks_like_cypherbench(head: &str) -> bool {
    head.trim_start().starts_with('[')
        && head.contains("\"qid\"")
        && head.contains("\"gold_cypher\"")
}

/// CypherBench's grouping of return patterns (its `by_return` breakdown).
fn return_category(pattern: &str) -> Option<&'static str> {
    Some(match pattern {
        "n_name" => "n_name",
        "n_prop" | "n_name_prop" | "n_prop_distinct" | "n_prop_array_distinct" => "n_prop_combined",
        "n_order_by" => "n_order_by",
        "n_argmax" => "n_argmax",
        "n_where" => "n_where",
        "n_agg" => "n_agg",
        "n_group_by" => "n_group_by",
        _ => return None,
    })
}

fn records<'a>(path: &Path, doc: &'a Json) -> Result<&'a Vec<Json>, DatasetError> {
    doc.as_array()
        .ok_or_else(|| derr(path, None, "expected a JSON array of CypherBench tasks"))
}

fn parse(path: &Path, text: &str) -> Result<Json, DatasetError> {
    serde_json::from_str(text)
        .map_err(|e| derr(path, Some(e.line()), format!("not valid JSON: {e}")))
}

/// The `qid` of record `i`.
fn qid(path: &Path, i: usize, r: &Json) -> Result<String, DatasetError> {
    r.get("qid")
        .and_then(scalar_text)
        .ok_or_else(|| derr(path, None, format!("record {i}: expected a `qid`")))
}

/// Reads CypherBench tasks (see the module documentation); a bad record is named by its index.
pub(crate) fn read_cypherbench(path: &Path, text: &str) -> Result<Vec<Example>, DatasetError> {
    let doc = parse(path, text)?;
    let mut out = Vec::new();
    let mut seen = SeenIds::default();
    for (i, r) in records(path, &doc)?.iter().enumerate() {
        let bad = |m: String| derr(path, None, format!("record {i}: {m}"));
        let id = qid(path, i, r)?;
        seen.check(path, &id, i, "record")?;
        let gold = r
            .get("gold_cypher")
            .and_then(Json::as_str)
            .ok_or_else(|| bad(format!("{id}: expected a string `gold_cypher`")))?;
        let question = ["nl_question", "nl_question_raw"]
            .iter()
            .find_map(|k| r.get(*k).and_then(Json::as_str))
            .ok_or_else(|| {
                bad(format!(
                    "{id}: expected `nl_question` (or `nl_question_raw`)"
                ))
            })?;
        let graph = match r.get("graph") {
            None | Some(Json::Null) => None,
            Some(g) => Some(
                g.as_str()
                    .filter(|g| !g.is_empty())
                    .ok_or_else(|| bad(format!("{id}: `graph` must be a graph name")))?
                    .to_string(),
            ),
        };
        let mut categories = BTreeMap::new();
        if let Some(g) = &graph {
            categories.insert("graph".to_string(), g.clone());
        }
        if let Some(t) = r.get("from_template").filter(|t| !t.is_null()) {
            if let Some(m) = t.get("match_category").and_then(Json::as_str) {
                categories.insert("match_category".into(), m.to_string());
            }
            if let Some(p) = t.get("return_pattern_id").and_then(Json::as_str) {
                categories.insert("return_pattern".into(), p.to_string());
                if let Some(c) = return_category(p) {
                    categories.insert("return_category".into(), c.to_string());
                }
            }
        }
        let answer = match r.get("answer_json") {
            None | Some(Json::Null) => None,
            Some(Json::String(s)) => Some(s.clone()),
            Some(other) => Some(other.to_string()),
        };
        out.push(Example {
            id,
            question: question.to_string(),
            gold: gold.to_string(),
            categories,
            graph,
            answer,
            ..Default::default()
        });
    }
    Ok(out)
}

/// Predictions from a CypherBench `result.json` (its tasks, each with `pred_cypher`; a null
/// `pred_cypher` is no prediction). A trailing `<end_of_turn>` is removed, as CypherBench's
/// evaluation removes it.
pub(crate) fn read_cypherbench_predictions(
    path: &Path,
    text: &str,
) -> Result<HashMap<String, Prediction>, DatasetError> {
    let doc = parse(path, text)?;
    let mut out = HashMap::new();
    for (i, r) in records(path, &doc)?.iter().enumerate() {
        let bad = |m: String| derr(path, None, format!("record {i}: {m}"));
        let id = qid(path, i, r)?;
        let pred = match r.get("pred_cypher") {
            None | Some(Json::Null) => continue,
            Some(Json::String(s)) => s,
            Some(_) => return Err(bad(format!("{id}: `pred_cypher` must be a string or null"))),
        };
        let pred = match pred.strip_suffix("<end_of_turn>") {
            Some(p) => p.trim().to_string(),
            None => pred.clone(),
        };
        super::examples::add_prediction(&mut out, id, vec![pred])
            .map_err(|id| bad(format!("duplicate qid {id:?}")))?;
    }
    Ok(out)
}
