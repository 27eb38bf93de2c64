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
//!   field is a category;
//! - **CypherTurn** sessions (one session object, an array of them, or JSON Lines of them; each
//!   `{session_id, graph, protocol, persona, turns: [{turn_id, user_utterance, gold_cypher,
//!   depends_on_result_of, phenomena, chain_mode, …}]}`): one example per turn, id
//!   `session_id/turn_id`, with its [`TurnRef`] and graph name; categories `graph`, `protocol`,
//!   `persona`, `chain_mode` (`none` for a first or independent turn), `turn` and `dependent`;
//!   the tag field `phenomenon` (a turn counts under each of its phenomena);
//! - **CypherBench** tasks (see [`super::cypherbench`]).
//!
//! Predictions are JSON Lines: `{"id", "cypher"}` (or `"query"`), or `{"id", "candidates":
//! [...]}` for k candidates (Pass@k); a turn may be named by `"session_id"` and `"turn_id"`
//! instead of `"id"`. A CypherTurn session file whose turns carry `pred_cypher` is read as
//! predictions too, and so is a CypherBench `result.json` (tasks with `pred_cypher`). Every bad record is reported with its file and line (and session and turn).

use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// One benchmark question (for multi-turn benchmarks, one turn of a session).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Example {
    pub id: String,
    pub question: String,
    pub gold: String,
    /// Category fields, by name (`type`, `complexity`, `split`, …).
    pub categories: BTreeMap<String, String>,
    /// Multi-valued category fields (CypherTurn's `phenomena`): the example counts under each
    /// of its values, and under `none` when it has none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, Vec<String>>,
    /// The session and turn, for multi-turn benchmarks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnRef>,
    /// The name of the graph the example runs on, when the benchmark has several (CypherTurn's
    /// `graph`); `None`: the one graph of the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph: Option<String>,
    /// The question with its gold entity links spelled out (ZOGRASCOPE's `nl_gold_linked`), for
    /// prompts that assume perfect entity linking.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linked_question: Option<String>,
    /// The reference natural-language answer (GRAPE's `answer`), for LLM judging.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// The example's own schema, as text in any format `Schema::read_auto` reads (Neo4j's
    /// text2cypher datasets carry one per example): predictions are validated against it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
}

/// Where a turn sits in its session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct TurnRef {
    pub session_id: String,
    pub turn_id: u32,
    /// The earlier turn whose result this turn builds on (`depends_on_result_of`).
    pub depends_on: Option<u32>,
}

/// The example id of a session's turn: `session_id/turn_id`, the id predictions may use
/// instead of the pair.
pub fn turn_example_id(session_id: &str, turn_id: u32) -> String {
    format!("{session_id}/{turn_id}")
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

pub(super) fn derr(file: &Path, line: Option<usize>, message: impl Into<String>) -> DatasetError {
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
    CypherTurn,
    /// CypherBench's tasks (`train.json`, `test.json`): an array of `{qid, graph, gold_cypher,
    /// nl_question, answer_json, from_template}`.
    CypherBench,
    /// CSV with `question` and `cypher` columns (Neo4j's text2cypher exports, the neo4j-labs
    /// text2cypher CSVs): read as JSON Lines records with the same fields.
    Csv,
    /// Parquet (Neo4j's text2cypher datasets on Hugging Face), each row read as a JSON Lines
    /// record; feature `parquet`.
    Parquet,
}

impl std::str::FromStr for DatasetFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "zograscope" => Ok(DatasetFormat::Zograscope),
            "grape" => Ok(DatasetFormat::Grape),
            "jsonl" => Ok(DatasetFormat::Jsonl),
            "cypherturn" => Ok(DatasetFormat::CypherTurn),
            "cypherbench" => Ok(DatasetFormat::CypherBench),
            "csv" | "text2cypher" => Ok(DatasetFormat::Csv),
            "parquet" => Ok(DatasetFormat::Parquet),
            other => Err(format!(
                "unknown dataset format {other:?}: expected zograscope, grape, jsonl, cypherturn, cypherbench, csv or parquet"
            )),
        }
    }
}

/// Guesses a dataset's format from its name and first bytes.
pub fn guess_format(path: &Path, text: &str) -> DatasetFormat {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let head: String = text.chars().take(4096).collect();
    if name.ends_with(".csv") {
        let header = head.lines().next().unwrap_or("");
        let cols: Vec<&str> = header
            .split(',')
            .map(|c| c.trim().trim_matches('"'))
            .collect();
        if cols.contains(&"mr") || !cols.contains(&"cypher") {
            DatasetFormat::Zograscope
        } else {
            DatasetFormat::Csv
        }
    } else if head.contains("\"session_id\"") && head.contains("\"turns\"") {
        DatasetFormat::CypherTurn
    } else if super::cypherbench::looks_like_cypherbench(&head) {
        DatasetFormat::CypherBench
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
    let is_parquet = format == Some(DatasetFormat::Parquet)
        || (format.is_none()
            && path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("parquet")));
    if is_parquet {
        return read_parquet(path);
    }
    let text =
        std::fs::read_to_string(path).map_err(|e| derr(path, None, format!("cannot read: {e}")))?;
    match format.unwrap_or_else(|| guess_format(path, &text)) {
        DatasetFormat::Zograscope => read_zograscope(path, &text),
        DatasetFormat::Grape => read_grape(path, &text),
        DatasetFormat::Jsonl => read_jsonl(path, &text),
        DatasetFormat::CypherTurn => read_cypherturn(path, &text),
        DatasetFormat::CypherBench => super::cypherbench::read_cypherbench(path, &text),
        DatasetFormat::Csv => read_csv_records(path, &text),
        DatasetFormat::Parquet => read_parquet(path),
    }
}

/// A parquet file, each row as the JSON object JSON Lines would hold (strings, numbers and
/// booleans as themselves, nulls as null, other values as their text), scored by the JSON Lines
/// reader; errors name the file and the row.
#[cfg(feature = "parquet")]
fn read_parquet(path: &Path) -> Result<Vec<Example>, DatasetError> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let file =
        std::fs::File::open(path).map_err(|e| derr(path, None, format!("cannot read: {e}")))?;
    let reader = SerializedFileReader::new(file)
        .map_err(|e| derr(path, None, format!("not a parquet file: {e}")))?;
    let rows = reader
        .get_row_iter(None)
        .map_err(|e| derr(path, None, e.to_string()))?;
    let mut records = Vec::new();
    for (i, row) in rows.enumerate() {
        let row = row.map_err(|e| derr(path, Some(i + 1), e.to_string()))?;
        let obj: serde_json::Map<String, serde_json::Value> = row
            .get_column_iter()
            .map(|(k, f)| {
                let v = match f {
                    Field::Null => serde_json::Value::Null,
                    Field::Bool(b) => serde_json::Value::Bool(*b),
                    Field::Byte(x) => (*x).into(),
                    Field::Short(x) => (*x).into(),
                    Field::Int(x) => (*x).into(),
                    Field::Long(x) => (*x).into(),
                    Field::UByte(x) => (*x).into(),
                    Field::UShort(x) => (*x).into(),
                    Field::UInt(x) => (*x).into(),
                    Field::ULong(x) => (*x).into(),
                    Field::Float(x) => serde_json::Number::from_f64(f64::from(*x))
                        .map_or(serde_json::Value::Null, serde_json::Value::Number),
                    Field::Double(x) => serde_json::Number::from_f64(*x)
                        .map_or(serde_json::Value::Null, serde_json::Value::Number),
                    Field::Str(s) => serde_json::Value::String(s.clone()),
                    Field::Bytes(b) => {
                        serde_json::Value::String(String::from_utf8_lossy(b.data()).into_owned())
                    }
                    other => serde_json::Value::String(other.to_string()),
                };
                (k.clone(), v)
            })
            .collect();
        records.push((i + 1, serde_json::Value::Object(obj)));
    }
    records_to_examples(path, records, "row")
}

#[cfg(not(feature = "parquet"))]
fn read_parquet(path: &Path) -> Result<Vec<Example>, DatasetError> {
    Err(derr(
        path,
        None,
        "reading parquet needs grape built with the `parquet` feature",
    ))
}

/// A CSV with a header row, each record as the JSON object JSON Lines would hold (every cell a
/// string; an empty cell is null), scored by the JSON Lines reader.
fn read_csv_records(path: &Path, text: &str) -> Result<Vec<Example>, DatasetError> {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let headers = rdr
        .headers()
        .map_err(|e| derr(path, Some(1), e.to_string()))?
        .clone();
    let mut records = Vec::new();
    for rec in rdr.records() {
        let rec =
            rec.map_err(|e| derr(path, e.position().map(|p| p.line() as usize), e.to_string()))?;
        let line = rec.position().map_or(0, |p| p.line() as usize);
        let obj: serde_json::Map<String, serde_json::Value> = headers
            .iter()
            .zip(rec.iter())
            .map(|(h, v)| {
                let v = if v.is_empty() {
                    serde_json::Value::Null
                } else {
                    serde_json::Value::String(v.to_string())
                };
                (h.to_string(), v)
            })
            .collect();
        records.push((line, serde_json::Value::Object(obj)));
    }
    records_to_examples(path, records, "record")
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
    let linked = col("nl_gold_linked");
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
    let mut seen = SeenIds::default();
    for rec in rdr.records() {
        let rec =
            rec.map_err(|e| derr(path, e.position().map(|p| p.line() as usize), e.to_string()))?;
        let eid = rec.get(id).unwrap_or("").to_string();
        let line = rec.position().map_or(0, |p| p.line() as usize);
        seen.check(path, &eid, line, "line")?;
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
            linked_question: linked
                .and_then(|i| rec.get(i))
                .filter(|t| !t.trim().is_empty())
                .map(str::to_string),
            ..Default::default()
        });
    }
    Ok(out)
}

/// Ids seen so far in a dataset, with where: a second record with an id already seen is an
/// error naming both (it would be scored and counted twice). A number and a string that read
/// the same (`1` and `"1"`) are the same id.
#[derive(Default)]
pub(super) struct SeenIds(HashMap<String, usize>);

impl SeenIds {
    /// `at` is the record's line (`what` = "line") or index (`what` = "record").
    pub(super) fn check(
        &mut self,
        path: &Path,
        id: &str,
        at: usize,
        what: &str,
    ) -> Result<(), DatasetError> {
        if let Some(first) = self.0.get(id) {
            return Err(derr(
                path,
                (what == "line").then_some(at),
                format!(
                    "duplicate id {:?}: {what} {first} and {what} {at} have the same id \
                     (ids must be unique; a number and a string that read the same are one id)",
                    crate::syntax::escape_controls(id)
                ),
            ));
        }
        self.0.insert(id.to_string(), at);
        Ok(())
    }
}

pub(super) fn scalar_text(v: &serde_json::Value) -> Option<String> {
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
    let mut seen = SeenIds::default();
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
        let id = r
            .get("id")
            .and_then(scalar_text)
            .unwrap_or_else(|| i.to_string());
        seen.check(path, &id, i, "record")?;
        out.push(Example {
            id,
            question: q.to_string(),
            gold: c.to_string(),
            categories,
            answer: r.get("answer").and_then(|a| a.as_str()).map(str::to_string),
            ..Default::default()
        });
    }
    Ok(out)
}

fn read_jsonl(path: &Path, text: &str) -> Result<Vec<Example>, DatasetError> {
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| derr(path, Some(i + 1), format!("not valid JSON: {e}")))?;
        records.push((i + 1, v));
    }
    records_to_examples(path, records, "line")
}

/// Fields of a JSON Lines or CSV record that are not categories.
const RECORD_FIELDS: [&str; 8] = [
    "id",
    "instance_id",
    "question",
    "cypher",
    "query",
    "nl_gold_linked",
    "answer",
    "schema",
];

/// JSON Lines / CSV records (with their line numbers) as examples: `id` (else `instance_id`,
/// else the line number), `question`, `cypher` (or `query`), `schema` (the example's own schema
/// text), the graph from `database_reference_alias` (Neo4j's text2cypher datasets) or
/// `database` (the neo4j-labs CSVs); other scalar fields become categories.
fn records_to_examples(
    path: &Path,
    records: Vec<(usize, serde_json::Value)>,
    unit: &str,
) -> Result<Vec<Example>, DatasetError> {
    let mut out = Vec::new();
    let mut seen = SeenIds::default();
    for (line, v) in records {
        let gold = v["cypher"]
            .as_str()
            .or_else(|| v["query"].as_str())
            .ok_or_else(|| derr(path, Some(line), "expected a string `cypher` or `query`"))?;
        let id = v
            .get("id")
            .and_then(scalar_text)
            .or_else(|| v.get("instance_id").and_then(scalar_text))
            .unwrap_or_else(|| line.to_string());
        seen.check(path, &id, line, unit)?;
        let mut categories = BTreeMap::new();
        if let Some(o) = v.as_object() {
            for (k, x) in o {
                if RECORD_FIELDS.contains(&k.as_str()) {
                    continue;
                }
                if let Some(t) = scalar_text(x) {
                    categories.insert(k.clone(), t);
                }
            }
        }
        let graph = ["database_reference_alias", "database"]
            .iter()
            .find_map(|k| v[*k].as_str().filter(|s| !s.trim().is_empty()))
            .map(str::to_string);
        out.push(Example {
            id,
            question: v["question"].as_str().unwrap_or("").to_string(),
            gold: gold.to_string(),
            categories,
            linked_question: v["nl_gold_linked"].as_str().map(str::to_string),
            answer: v["answer"].as_str().map(str::to_string),
            schema: v["schema"]
                .as_str()
                .filter(|s| !s.trim().is_empty())
                .map(str::to_string),
            graph,
            ..Default::default()
        });
    }
    Ok(out)
}

/// Reads a table of schemas by database (`database,schema` CSV, as the neo4j-labs text2cypher
/// repository's `demo_db_schemas.csv`) and gives each example that names one of those
/// databases (and has no schema of its own) its schema. Returns how many examples got one.
pub fn attach_schemas(examples: &mut [Example], table: &Path) -> Result<usize, DatasetError> {
    let text = std::fs::read_to_string(table)
        .map_err(|e| derr(table, None, format!("cannot read: {e}")))?;
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let headers = rdr
        .headers()
        .map_err(|e| derr(table, Some(1), e.to_string()))?
        .clone();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let (Some(db), Some(schema)) = (col("database"), col("schema")) else {
        return Err(derr(table, Some(1), "expected columns database and schema"));
    };
    let mut by_db = HashMap::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            derr(
                table,
                e.position().map(|p| p.line() as usize),
                e.to_string(),
            )
        })?;
        by_db.insert(
            rec.get(db).unwrap_or("").to_string(),
            rec.get(schema).unwrap_or("").to_string(),
        );
    }
    let mut n = 0;
    for ex in examples.iter_mut().filter(|e| e.schema.is_none()) {
        if let Some(s) = ex.graph.as_ref().and_then(|g| by_db.get(g)) {
            ex.schema = Some(s.clone());
            n += 1;
        }
    }
    Ok(n)
}

/// The sessions of a CypherTurn file: one session object, an array of them, or JSON Lines of
/// them. Each value comes back with the 1-based line it starts on (1 for a single document).
fn cypherturn_sessions(
    path: &Path,
    text: &str,
) -> Result<Vec<(usize, serde_json::Value)>, DatasetError> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Array(a)) => Ok(a.into_iter().map(|v| (1, v)).collect()),
        Ok(v @ serde_json::Value::Object(_)) => Ok(vec![(1, v)]),
        Ok(_) => Err(derr(
            path,
            None,
            "expected a session object or an array of sessions",
        )),
        Err(whole) => {
            // JSON Lines of sessions?
            let mut out = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<serde_json::Value>(line) {
                    Ok(v) => out.push((i + 1, v)),
                    Err(e) if out.is_empty() => {
                        return Err(derr(
                            path,
                            Some(whole.line()),
                            format!(
                                "not valid JSON: {whole} (nor JSON Lines: line {}: {e})",
                                i + 1
                            ),
                        ))
                    }
                    Err(e) => return Err(derr(path, Some(i + 1), format!("not valid JSON: {e}"))),
                }
            }
            Ok(out)
        }
    }
}

/// The fields of one CypherTurn turn that the readers need, checked.
struct CtTurn<'a> {
    session_id: String,
    turn_id: u32,
    turn: &'a serde_json::Value,
}

/// Walks the turns of CypherTurn sessions, reporting a bad record by file, line and position.
fn cypherturn_turns<'a>(
    path: &Path,
    sessions: &'a [(usize, serde_json::Value)],
    mut each: impl FnMut(&'a serde_json::Value, CtTurn<'a>) -> Result<(), String>,
) -> Result<(), DatasetError> {
    for (si, (line, s)) in sessions.iter().enumerate() {
        let at = |m: String| derr(path, Some(*line), format!("session {si}: {m}"));
        let sid = s
            .get("session_id")
            .and_then(scalar_text)
            .ok_or_else(|| at("expected a `session_id`".into()))?;
        let turns = s["turns"]
            .as_array()
            .ok_or_else(|| at(format!("session {sid:?}: expected a `turns` array")))?;
        for (ti, t) in turns.iter().enumerate() {
            let turn_id = t["turn_id"]
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    at(format!(
                        "session {sid:?}, turn {ti}: expected a non-negative integer `turn_id`"
                    ))
                })?;
            each(
                s,
                CtTurn {
                    session_id: sid.clone(),
                    turn_id,
                    turn: t,
                },
            )
            .map_err(|m| at(format!("session {sid:?}, turn {turn_id}: {m}")))?;
        }
    }
    Ok(())
}

/// CypherTurn sessions: one example per turn, id `session_id/turn_id`.
fn read_cypherturn(path: &Path, text: &str) -> Result<Vec<Example>, DatasetError> {
    let sessions = cypherturn_sessions(path, text)?;
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    cypherturn_turns(path, &sessions, |s, ct| {
        let t = ct.turn;
        let gold = t["gold_cypher"]
            .as_str()
            .ok_or("expected a string `gold_cypher`")?;
        let depends_on = match &t["depends_on_result_of"] {
            serde_json::Value::Null => None,
            v => Some(
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or("`depends_on_result_of` must be a turn id or null")?,
            ),
        };
        let id = turn_example_id(&ct.session_id, ct.turn_id);
        if !seen.insert(id.clone()) {
            return Err(format!("duplicate turn {id:?}"));
        }
        let mut categories = BTreeMap::new();
        for field in ["graph", "protocol", "persona"] {
            if let Some(v) = s.get(field).and_then(scalar_text) {
                categories.insert(field.to_string(), v);
            }
        }
        let chain_mode = t
            .get("chain_mode")
            .and_then(scalar_text)
            .or_else(|| t["skeleton"].get("chain_mode").and_then(scalar_text))
            .unwrap_or_else(|| "none".into());
        categories.insert("chain_mode".into(), chain_mode);
        categories.insert("turn".into(), ct.turn_id.to_string());
        categories.insert(
            "dependent".into(),
            if depends_on.is_some() { "yes" } else { "no" }.into(),
        );
        let phenomena: Vec<String> = match &t["phenomena"] {
            serde_json::Value::Array(a) => a.iter().filter_map(scalar_text).collect(),
            _ => Vec::new(),
        };
        let mut tags = BTreeMap::new();
        tags.insert("phenomenon".to_string(), phenomena);
        out.push(Example {
            id,
            question: t["user_utterance"].as_str().unwrap_or("").to_string(),
            gold: gold.to_string(),
            categories,
            tags,
            turn: Some(TurnRef {
                session_id: ct.session_id,
                turn_id: ct.turn_id,
                depends_on,
            }),
            graph: s.get("graph").and_then(scalar_text),
            linked_question: None,
            answer: None,
            schema: None,
        });
        Ok(())
    })?;
    Ok(out)
}

/// Adds a prediction; `Err(id)` when the id is taken.
pub(super) fn add_prediction(
    out: &mut HashMap<String, Prediction>,
    id: String,
    candidates: Vec<String>,
) -> Result<(), String> {
    match out.entry(id) {
        std::collections::hash_map::Entry::Occupied(e) => Err(e.key().clone()),
        std::collections::hash_map::Entry::Vacant(e) => {
            let id = e.key().clone();
            e.insert(Prediction { id, candidates });
            Ok(())
        }
    }
}

/// Predictions from CypherTurn session files whose turns carry `pred_cypher` (turns without one
/// have no prediction).
fn read_cypherturn_predictions(
    path: &Path,
    text: &str,
) -> Result<HashMap<String, Prediction>, DatasetError> {
    let sessions = cypherturn_sessions(path, text)?;
    let mut out = HashMap::new();
    cypherturn_turns(path, &sessions, |_, ct| {
        let id = turn_example_id(&ct.session_id, ct.turn_id);
        let candidates = match &ct.turn["pred_cypher"] {
            serde_json::Value::Null => return Ok(()),
            serde_json::Value::String(c) => vec![c.clone()],
            _ => return Err("`pred_cypher` must be a string or null".into()),
        };
        add_prediction(&mut out, id, candidates).map_err(|id| format!("duplicate turn {id:?}"))?;
        Ok(())
    })?;
    Ok(out)
}

/// Reads predictions (JSON Lines; see the module docs).
pub fn read_predictions(path: &Path) -> Result<HashMap<String, Prediction>, DatasetError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| derr(path, None, format!("cannot read: {e}")))?;
    predictions_from_text(path, &text)
}

/// Reads predictions from their text (JSON Lines, or CypherTurn's format); `path` names the
/// origin in errors and decides the format as [`guess_format`] does.
pub fn predictions_from_text(
    path: &Path,
    text: &str,
) -> Result<HashMap<String, Prediction>, DatasetError> {
    match guess_format(path, text) {
        DatasetFormat::CypherTurn => return read_cypherturn_predictions(path, text),
        DatasetFormat::CypherBench => {
            return super::cypherbench::read_cypherbench_predictions(path, text)
        }
        _ => {}
    }
    let mut out = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| derr(path, Some(i + 1), format!("not valid JSON: {e}")))?;
        let id = match (
            v.get("id").and_then(scalar_text),
            v.get("session_id").and_then(scalar_text),
        ) {
            (Some(id), _) => id,
            (None, Some(sid)) => {
                let turn = v["turn_id"]
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| {
                        derr(
                            path,
                            Some(i + 1),
                            "a `session_id` needs an integer `turn_id`",
                        )
                    })?;
                turn_example_id(&sid, turn)
            }
            (None, None) => {
                return Err(derr(
                    path,
                    Some(i + 1),
                    "expected an `id` (or `session_id` and `turn_id`)",
                ))
            }
        };
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
        add_prediction(&mut out, id, candidates)
            .map_err(|id| derr(path, Some(i + 1), format!("duplicate id {id:?}")))?;
    }
    Ok(out)
}
