//! Benchmark datasets and predictions.
//!
//! An [`Example`] is a question with its gold Cypher and category fields (query type,
//! complexity, split, template, …). Readers:
//! - **ZOGRASCOPE** CSV (`id, nl, mr, …, num_nodes, template_id, type`): categories `type`,
//!   `num_nodes`, `template_id`, and `split` (`iid` / `compositional`) when the id lists
//!   `ids_iid_test.txt` / `ids_compositional_test.txt` lie beside the file;
//! - **GRAPE** `generated_dataset.json` (an array of `{question, cypher, query_type, complexity,
//!   noise_applied, database, …}`): ids are the record indexes; categories `query_type`,
//!   `complexity`, `noise`, `database`;
//! - **JSON Lines**: objects with `id`, `question`, `cypher` (or `query`); every other scalar
//!   field is a category.
//!
//! Predictions are JSON Lines: `{"id", "cypher"}` (or `"query"`), or `{"id", "candidates":
//! [...]}` for k candidates (Pass@k). Every bad record is reported with its file and line.

use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// One benchmark question.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Example {
    pub id: String,
    pub question: String,
    pub gold: String,
    /// Category fields, by name (`type`, `complexity`, `split`, …).
    pub categories: BTreeMap<String, String>,
}

/// The candidates a system produced for one example, best first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prediction {
    pub id: String,
    pub candidates: Vec<String>,
}

/// A dataset or predictions file that could not be read, or one bad record in it.
#[derive(Debug, thiserror::Error)]
#[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct DatasetError {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

fn derr(file: &Path, line: Option<usize>, message: impl Into<String>) -> DatasetError {
    DatasetError {
        file: file.display().to_string(),
        line,
        message: message.into(),
    }
}

/// Dataset formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatasetFormat {
    Zograscope,
    Grape,
    Jsonl,
}

impl std::str::FromStr for DatasetFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "zograscope" => Ok(DatasetFormat::Zograscope),
            "grape" => Ok(DatasetFormat::Grape),
            "jsonl" => Ok(DatasetFormat::Jsonl),
            other => Err(format!(
                "unknown dataset format {other:?}: expected zograscope, grape or jsonl"
            )),
        }
    }
}

/// Guesses a dataset's format from its name and first bytes.
pub fn guess_format(path: &Path, text: &str) -> DatasetFormat {
    let name = path.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".csv") {
        DatasetFormat::Zograscope
    } else if text.trim_start().starts_with('[') {
        DatasetFormat::Grape
    } else {
        DatasetFormat::Jsonl
    }
}

/// Reads a dataset (format guessed when `format` is `None`).
pub fn read_dataset(
    path: &Path,
    format: Option<DatasetFormat>,
) -> Result<Vec<Example>, DatasetError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| derr(path, None, format!("cannot read: {e}")))?;
    match format.unwrap_or_else(|| guess_format(path, &text)) {
        DatasetFormat::Zograscope => read_zograscope(path, &text),
        DatasetFormat::Grape => read_grape(path, &text),
        DatasetFormat::Jsonl => read_jsonl(path, &text),
    }
}

fn read_zograscope(path: &Path, text: &str) -> Result<Vec<Example>, DatasetError> {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let headers = rdr
        .headers()
        .map_err(|e| derr(path, Some(1), e.to_string()))?
        .clone();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let (Some(id), Some(nl), Some(mr)) = (col("id"), col("nl"), col("mr")) else {
        return Err(derr(path, Some(1), "expected columns id, nl and mr"));
    };
    let cats: Vec<(usize, &str)> = ["type", "num_nodes", "template_id", "return_count"]
        .iter()
        .filter_map(|c| col(c).map(|i| (i, *c)))
        .collect();
    // The length split is its own file; the iid / compositional split of the test file comes
    // from the id lists beside it (they do not apply to the length file's ids).
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let length_split = file_name.contains("length");
    let mut split: HashMap<String, &'static str> = HashMap::new();
    if let (false, Some(dir)) = (length_split, path.parent()) {
        for (f, name) in [
            ("ids_iid_test.txt", "iid"),
            ("ids_compositional_test.txt", "compositional"),
        ] {
            if let Ok(t) = std::fs::read_to_string(dir.join(f)) {
                for id in t.split(|c: char| c.is_whitespace() || c == ',') {
                    if !id.is_empty() {
                        split.insert(id.to_string(), name);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec =
            rec.map_err(|e| derr(path, e.position().map(|p| p.line() as usize), e.to_string()))?;
        let eid = rec.get(id).unwrap_or("").to_string();
        let mut categories = BTreeMap::new();
        for (i, name) in &cats {
            categories.insert(name.to_string(), rec.get(*i).unwrap_or("").to_string());
        }
        if length_split {
            categories.insert("split".into(), "length".into());
        } else if let Some(s) = split.get(&eid) {
            categories.insert("split".into(), s.to_string());
        }
        out.push(Example {
            id: eid,
            question: rec.get(nl).unwrap_or("").to_string(),
            gold: rec.get(mr).unwrap_or("").to_string(),
            categories,
        });
    }
    Ok(out)
}

fn scalar_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn read_grape(path: &Path, text: &str) -> Result<Vec<Example>, DatasetError> {
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| derr(path, Some(e.line()), format!("not valid JSON: {e}")))?;
    let arr = v
        .as_array()
        .ok_or_else(|| derr(path, None, "expected a JSON array of records"))?;
    let mut out = Vec::new();
    for (i, r) in arr.iter().enumerate() {
        let (Some(q), Some(c)) = (r["question"].as_str(), r["cypher"].as_str()) else {
            return Err(derr(
                path,
                None,
                format!("record {i}: expected `question` and `cypher`"),
            ));
        };
        let mut categories = BTreeMap::new();
        for (field, name) in [
            ("query_type", "query_type"),
            ("complexity", "complexity"),
            ("noise_applied", "noise"),
            ("database", "database"),
        ] {
            if let Some(t) = scalar_text(&r[field]) {
                categories.insert(name.to_string(), t);
            }
        }
        out.push(Example {
            id: r
                .get("id")
                .and_then(scalar_text)
                .unwrap_or_else(|| i.to_string()),
            question: q.to_string(),
            gold: c.to_string(),
            categories,
        });
    }
    Ok(out)
}

fn read_jsonl(path: &Path, text: &str) -> Result<Vec<Example>, DatasetError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| derr(path, Some(i + 1), format!("not valid JSON: {e}")))?;
        let gold = v["cypher"]
            .as_str()
            .or_else(|| v["query"].as_str())
            .ok_or_else(|| derr(path, Some(i + 1), "expected a string `cypher` or `query`"))?;
        let id = v
            .get("id")
            .and_then(scalar_text)
            .unwrap_or_else(|| (i + 1).to_string());
        let mut categories = BTreeMap::new();
        if let Some(o) = v.as_object() {
            for (k, x) in o {
                if ["id", "question", "cypher", "query"].contains(&k.as_str()) {
                    continue;
                }
                if let Some(t) = scalar_text(x) {
                    categories.insert(k.clone(), t);
                }
            }
        }
        out.push(Example {
            id,
            question: v["question"].as_str().unwrap_or("").to_string(),
            gold: gold.to_string(),
            categories,
        });
    }
    Ok(out)
}

/// Reads predictions (JSON Lines; see the module docs).
pub fn read_predictions(path: &Path) -> Result<HashMap<String, Prediction>, DatasetError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| derr(path, None, format!("cannot read: {e}")))?;
    let mut out = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| derr(path, Some(i + 1), format!("not valid JSON: {e}")))?;
        let id = v
            .get("id")
            .and_then(scalar_text)
            .ok_or_else(|| derr(path, Some(i + 1), "expected an `id`"))?;
        let candidates: Vec<String> = match (
            &v["candidates"],
            v["cypher"].as_str().or(v["query"].as_str()),
        ) {
            (serde_json::Value::Array(a), _) => a
                .iter()
                .map(|c| {
                    c.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| derr(path, Some(i + 1), "candidates must be strings"))
                })
                .collect::<Result<_, _>>()?,
            (_, Some(c)) => vec![c.to_string()],
            _ => {
                return Err(derr(
                    path,
                    Some(i + 1),
                    "expected `cypher` (or `query`) or a `candidates` array",
                ))
            }
        };
        if out
            .insert(
                id.clone(),
                Prediction {
                    id: id.clone(),
                    candidates,
                },
            )
            .is_some()
        {
            return Err(derr(path, Some(i + 1), format!("duplicate id {id:?}")));
        }
    }
    Ok(out)
}
