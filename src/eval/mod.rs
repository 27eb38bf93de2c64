//! The evaluation runner: gold and predicted Cypher run on the same graph, every metric per
//! example, aggregates overall and by category.
//!
//! - Each example's gold query runs once; each candidate runs under the engine's limits; the
//!   first candidate is the prediction for EX, EX-strict, Jaccard, Coverage and the text metrics,
//!   and all candidates count for Pass@k.
//! - Per-example records are appended to `examples.jsonl` in the output folder as they finish;
//!   a rerun skips the ids already there (an unfinished last line is ignored), so a killed run
//!   resumes. `report.json` is written atomically at the end from all records, sorted by id, so
//!   the same inputs give a byte-identical report.
//! - Examples whose gold query fails are reported and left out of the aggregates.
//!
//! ```
//! use grape::dataset::{Example, Prediction};
//! use grape::eval::{evaluate, EvalOptions, Graphs};
//! use grape::graph::Graph;
//! use std::collections::HashMap;
//!
//! let g = Graph::from_cypher_script("CREATE (:Book {title: 'Dune', year: 1965})").unwrap();
//! let examples = vec![Example {
//!     id: "q1".into(),
//!     question: "When was Dune published?".into(),
//!     gold: "MATCH (b:Book {title: 'Dune'}) RETURN b.year".into(),
//!     ..Default::default()
//! }];
//! let prediction = Prediction {
//!     id: "q1".into(),
//!     candidates: vec!["MATCH (b:Book) WHERE b.title = 'Dune' RETURN b.year AS year".into()],
//! };
//! let predictions = HashMap::from([("q1".to_string(), prediction)]);
//! let opts = EvalOptions { workers: 1, ..Default::default() };
//! let (report, records) = evaluate(&Graphs::single(&g), &examples, &predictions, &opts, None)
//!     .unwrap();
//! assert_eq!(report.scored, 1);
//! assert_eq!(report.overall["ex"], 1.0);
//! assert_eq!(records[0].metrics["ex_strict"], 0.0); // `year` is not `b.year`
//! ```
//!
//! # Layout
//!
//! - The runner: examples run where `Graphs` says — graphs in memory, or live databases behind a
//!   `backend::Backend` (`Graphs::live`, one per database an example names; PSJS's provenance
//!   queries run there too, through `psjs::provenance_with`). `load_graph_folder` reads every
//!   named graph of a folder for `grape serve bolt --graphs`.
//! - Each example is validated against its own schema when it has one, read once per distinct
//!   text before the workers start. An example with no graph in a run without a default graph —
//!   or every example of a run without graphs, `Graphs::text_only` — is scored on text metrics
//!   and validity, nothing executed.
//! - Reports: `render.rs` (the terminal table and `report.html`).
//! - `compare.rs` (`grape compare`): runs paired on shared examples, paired bootstrap intervals,
//!   McNemar's exact and the paired permutation test, per category, flipped examples; table,
//!   JSON, Markdown, HTML; the `--max-drop` regressions and the `METRIC=VALUE` thresholds
//!   `--fail-under` shares.
//! - `junit.rs`: JUnit XML for `grape eval --junit`.
//! - A panic while scoring one example is caught and recorded as that example's failure.

pub mod compare;
pub mod junit;
mod render;
pub use render::{report_html, report_table};

use crate::dataset::{Example, Prediction, TurnRef};
use crate::engine::{execute_read, Options, Params, Table};
use crate::graph::Graph;
use crate::metrics::psjs::{node_set_jaccard, provenance_of};
use crate::metrics::{execution_accuracy, item_scores, pass_at_k, text_scores, TextVariant};
use crate::schema::Schema;
use crate::syntax::Statement;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::io::Write;
use std::path::Path;

/// Runner options.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// Pass@k is reported for k = 1 and this k.
    pub k: usize,
    pub variant: TextVariant,
    /// Worker threads (at least 1).
    pub workers: usize,
    pub engine: Options,
    /// Draw a progress bar on standard error once a run has taken a second (the CLI sets this
    /// when standard error is a terminal).
    pub progress: bool,
}

impl Default for EvalOptions {
    fn default() -> Self {
        let mut engine = Options::default();
        engine.limits.timeout = Some(std::time::Duration::from_secs(10));
        EvalOptions {
            k: 1,
            variant: TextVariant::Default,
            workers: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            engine,
            progress: false,
        }
    }
}

/// One example's scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExampleRecord {
    pub id: String,
    /// The question (empty when the dataset has none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub question: String,
    pub categories: BTreeMap<String, String>,
    pub gold: String,
    pub prediction: Option<String>,
    /// Metric name → value (absent when the gold query failed).
    pub metrics: BTreeMap<String, f64>,
    pub gold_error: Option<String>,
    pub prediction_error: Option<String>,
    /// Multi-valued categories (a record counts under each value; `none` when empty).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, Vec<String>>,
    /// The session and turn of a multi-turn example.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnRef>,
    /// The validator's findings on the prediction (the first candidate) against the graph's
    /// schema: what makes it not KG-valid, with line and column.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<RecordDiagnostic>,
    /// The first rows of the gold query's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold_result: Option<ResultPreview>,
    /// The first rows of the prediction's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_result: Option<ResultPreview>,
    /// Wall-clock times; the only part of a record that differs between runs, and no report
    /// uses them, so reports stay reproducible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timings_ms: Option<Timings>,
}

impl ExampleRecord {
    /// The record without its timings (what two runs of one example agree on).
    pub fn without_timings(&self) -> ExampleRecord {
        ExampleRecord {
            timings_ms: None,
            ..self.clone()
        }
    }
}

/// One validator finding, as a record keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordDiagnostic {
    pub code: String,
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// The head of a result: its columns, the first [`PREVIEW_ROWS`] rows with every cell as
/// compact JSON text (cut at [`PREVIEW_CELL_CHARS`] characters), and the full row count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultPreview {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub total_rows: usize,
}

/// Rows kept in a [`ResultPreview`].
pub const PREVIEW_ROWS: usize = 5;
/// Characters kept of one cell in a [`ResultPreview`].
pub const PREVIEW_CELL_CHARS: usize = 160;

impl ResultPreview {
    fn of(t: &Table) -> ResultPreview {
        let rows = t
            .rows
            .iter()
            .take(PREVIEW_ROWS)
            .map(|r| {
                r.iter()
                    .map(|v| {
                        let text = crate::graph::import::value_to_json(v, t).to_string();
                        if text.chars().count() > PREVIEW_CELL_CHARS {
                            let mut cut: String =
                                text.chars().take(PREVIEW_CELL_CHARS - 1).collect();
                            cut.push('…');
                            cut
                        } else {
                            text
                        }
                    })
                    .collect()
            })
            .collect();
        ResultPreview {
            columns: t.columns.clone(),
            rows,
            total_rows: t.rows.len(),
        }
    }
}

/// Milliseconds spent on an example.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// Parsing and running the gold query.
    pub gold: f64,
    /// Parsing, validating and running the candidates (and PSJS provenance).
    pub prediction: f64,
}

/// Where an example's queries run: a graph in memory, or a database behind a
/// [`Backend`](crate::backend::Backend) (a live Neo4j, a grape Bolt server).
#[derive(Clone, Copy)]
enum Target<'a> {
    Memory(&'a Graph),
    Live(&'a dyn crate::backend::Backend),
}

/// The graphs of a run and their schemas: one graph for every example, or graphs by name for
/// benchmarks whose examples name theirs (CypherTurn, Neo4j's text2cypher); in memory, or live
/// databases ([`Graphs::live`]).
pub struct Graphs<'a> {
    default: Option<(Target<'a>, Schema)>,
    named: BTreeMap<String, (Target<'a>, Schema)>,
    /// The schema named for the run (`--schema`), which a run without graphs validates against.
    schema: Option<Schema>,
    /// A run without graphs ([`Graphs::text_only`]).
    text_only: bool,
}

impl<'a> Graphs<'a> {
    /// One graph for every example; predictions are validated against its inferred schema.
    pub fn single(graph: &'a Graph) -> Graphs<'a> {
        Graphs {
            default: Some((Target::Memory(graph), crate::engine::schema_of(graph))),
            named: BTreeMap::new(),
            schema: None,
            text_only: false,
        }
    }
    /// A default graph (for examples that name none, or name one not among `named`), graphs by
    /// name, and the schema to validate predictions against (default: each graph's own,
    /// inferred).
    pub fn new(
        default: Option<&'a Graph>,
        named: impl IntoIterator<Item = (String, &'a Graph)>,
        schema: Option<Schema>,
    ) -> Graphs<'a> {
        let schema_for = |g: &Graph| {
            schema
                .clone()
                .unwrap_or_else(|| crate::engine::schema_of(g))
        };
        Graphs {
            default: default.map(|g| (Target::Memory(g), schema_for(g))),
            named: named
                .into_iter()
                .map(|(n, g)| (n, (Target::Memory(g), schema_for(g))))
                .collect(),
            schema,
            text_only: false,
        }
    }
    /// No graph: a text-only run. Predictions get the text metrics and are validated against
    /// their example's schema, else `schema`, else only parsed; nothing is executed. (In a run
    /// of named graphs without a default, an example that names no graph is scored so too.)
    pub fn text_only(schema: Option<Schema>) -> Graphs<'static> {
        Graphs {
            default: None,
            named: BTreeMap::new(),
            schema,
            text_only: true,
        }
    }
    /// The graphs of a run as the CLI and the Python package assemble them: `default` (the
    /// `--graph`) and the graphs [`load_dataset_graphs`] loaded from a folder (`--graphs`), or
    /// a text-only run when neither was named (`folder_named` false and no default).
    pub fn of_run(
        default: Option<&'a Graph>,
        named: &'a BTreeMap<String, Graph>,
        schema: Option<Schema>,
        folder_named: bool,
    ) -> Graphs<'a> {
        if default.is_none() && !folder_named {
            return Graphs::text_only(schema);
        }
        Graphs::new(default, named.iter().map(|(n, g)| (n.clone(), g)), schema)
    }
    /// Live databases: a default (for examples that name no database, or one not among
    /// `named`) and databases by name, each reached through its backend. Gold and predicted
    /// queries run there (updating ones are refused, as on graphs in memory); predictions are
    /// validated against `schema`, else each database's own as its backend reports it (read
    /// here, once per database).
    pub fn live(
        default: Option<&'a dyn crate::backend::Backend>,
        named: impl IntoIterator<Item = (String, &'a dyn crate::backend::Backend)>,
        schema: Option<Schema>,
    ) -> Result<Graphs<'a>, crate::backend::BackendError> {
        let schema_for = |b: &dyn crate::backend::Backend| match &schema {
            Some(s) => Ok(s.clone()),
            None => b.schema(),
        };
        let default = match default {
            Some(b) => Some((Target::Live(b), schema_for(b)?)),
            None => None,
        };
        let mut by_name = BTreeMap::new();
        for (n, b) in named {
            let s = schema_for(b)?;
            by_name.insert(n, (Target::Live(b), s));
        }
        Ok(Graphs {
            default,
            named: by_name,
            schema,
            text_only: false,
        })
    }
    /// Whether this is a text-only run ([`Graphs::text_only`]).
    pub fn is_text_only(&self) -> bool {
        self.text_only
    }
    /// The graph and schema of an example (an error for an example that runs on a live
    /// database).
    pub fn for_example(&self, ex: &Example) -> Result<(&'a Graph, &Schema), String> {
        match self.target_for(ex)? {
            (Target::Memory(g), s) => Ok((g, s)),
            (Target::Live(b), _) => Err(format!(
                "the example runs on a live database ({})",
                b.describe()
            )),
        }
    }
    /// Where an example runs, and the schema its predictions are validated against.
    fn target_for(&self, ex: &Example) -> Result<(Target<'a>, &Schema), String> {
        if let Some(name) = &ex.graph {
            if let Some((g, s)) = self.named.get(name) {
                return Ok((*g, s));
            }
        }
        match (&self.default, &ex.graph) {
            (Some((g, s)), _) => Ok((*g, s)),
            (None, Some(name)) => Err(format!(
                "graph {name:?} is not loaded (known: {})",
                self.named.keys().cloned().collect::<Vec<_>>().join(", ")
            )),
            (None, None) => Err("the example names no graph and no default graph is loaded".into()),
        }
    }
}

/// Why the graphs of a dataset could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum DatasetGraphsError {
    #[error(
        "{}: no graph named {name:?} (expected {name}.json, {name}.cypher, {name}/graph.json or a \
         Data Importer folder {name}/)",
        dir.display()
    )]
    Missing {
        dir: std::path::PathBuf,
        name: String,
    },
    #[error(transparent)]
    Load(#[from] crate::engine::LoadGraphError),
}

/// The named graphs the examples of a dataset ask for (their `graph` field), from the folder
/// `dir` (see [`load_named_graph`]), each loaded once. A name with no graph in `dir` is an
/// error, unless `has_default`: a default graph then stands in for it. Every command that runs
/// a dataset assembles its graphs here, so that they agree.
pub fn load_dataset_graphs(
    examples: &[crate::dataset::Example],
    dir: Option<&Path>,
    has_default: bool,
    types: crate::graph::import::ImporterTypes,
) -> Result<BTreeMap<String, Graph>, DatasetGraphsError> {
    let mut named = BTreeMap::new();
    let Some(dir) = dir else {
        return Ok(named);
    };
    let wanted: std::collections::BTreeSet<&str> =
        examples.iter().filter_map(|e| e.graph.as_deref()).collect();
    for name in wanted {
        match load_named_graph(dir, name, types).map_err(DatasetGraphsError::Load)? {
            Some(g) => {
                named.insert(name.to_string(), g);
            }
            None if has_default => {}
            None => {
                return Err(DatasetGraphsError::Missing {
                    dir: dir.to_path_buf(),
                    name: name.to_string(),
                })
            }
        }
    }
    Ok(named)
}

/// Loads the graph called `name` from a folder of named graphs: `NAME.json`, `NAME.jsonl`,
/// `NAME.cypher`, `NAME/graph.json`, `NAME/graph.cypher`, or a Data Importer folder `NAME/`.
/// `Ok(None)` when there is none; names that could leave the folder are refused.
pub fn load_named_graph(
    dir: &Path,
    name: &str,
    types: crate::graph::import::ImporterTypes,
) -> Result<Option<Graph>, crate::engine::LoadGraphError> {
    if name.is_empty()
        || name == "."
        || name == ".."
        || name.contains(['/', '\\'])
        || Path::new(name).is_absolute()
    {
        return Err(crate::engine::LoadGraphError::BadName {
            name: name.to_string(),
        });
    }
    let load = |p: std::path::PathBuf| crate::engine::load_graph(&p.to_string_lossy(), types);
    for ext in ["json", "jsonl", "cypher"] {
        let p = dir.join(format!("{name}.{ext}"));
        if p.is_file() {
            return load(p).map(Some);
        }
    }
    let sub = dir.join(name);
    for f in ["graph.json", "graph.jsonl", "graph.cypher"] {
        if sub.join(f).is_file() {
            return load(sub.join(f)).map(Some);
        }
    }
    if sub.join("neo4j_importer_model.json").is_file() {
        return load(sub).map(Some);
    }
    Ok(None)
}

/// Every named graph in a folder (the names [`load_named_graph`] finds: `NAME.json`,
/// `NAME.jsonl`, `NAME.cypher`, `NAME/graph.json`, `NAME/graph.cypher`, a Data Importer folder
/// `NAME/`), by name, for serving them all (`grape serve bolt --graphs`). Other files are
/// skipped; a graph that fails to load is an error naming it.
pub fn load_graph_folder(
    dir: &Path,
    types: crate::graph::import::ImporterTypes,
) -> Result<BTreeMap<String, Graph>, DatasetGraphsError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        DatasetGraphsError::Load(crate::engine::LoadGraphError::Read {
            path: dir.display().to_string(),
            source: e,
        })
    })?;
    let mut names = std::collections::BTreeSet::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(file) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if file.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            names.insert(file.to_string());
        } else if let Some((stem, ext)) = file.rsplit_once('.') {
            if matches!(ext, "json" | "jsonl" | "cypher") && !stem.is_empty() {
                names.insert(stem.to_string());
            }
        }
    }
    let mut graphs = BTreeMap::new();
    for name in names {
        if let Some(g) = load_named_graph(dir, &name, types)? {
            graphs.insert(name, g);
        }
    }
    Ok(graphs)
}

/// Aggregates: the mean of every metric, overall and per value of every category field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub examples: usize,
    pub scored: usize,
    pub gold_errors: usize,
    pub missing_predictions: usize,
    pub text_variant: TextVariant,
    pub overall: BTreeMap<String, f64>,
    pub by: BTreeMap<String, BTreeMap<String, BTreeMap<String, f64>>>,
    /// Scored examples per value of every category field.
    pub counts: BTreeMap<String, BTreeMap<String, usize>>,
    /// 95% percentile-bootstrap confidence intervals `[low, high]` of the headline metrics'
    /// overall means (1,000 resamples of the scored examples, fixed seed, so a run, a resumed
    /// run and merged shards agree).
    #[serde(default)]
    pub ci95: BTreeMap<String, [f64; 2]>,
    /// Session metrics, for multi-turn benchmarks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions: Option<SessionSummary>,
}

impl Report {
    /// Scored examples with `value` in category `field`.
    pub fn count(&self, field: &str, value: &str) -> usize {
        self.counts
            .get(field)
            .and_then(|c| c.get(value))
            .copied()
            .unwrap_or(0)
    }
}

/// Session metrics over the multi-turn records of a run (`docs/METRICS.md` §Sessions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionSummary {
    /// Sessions with at least one turn in the run.
    pub sessions: usize,
    /// Sessions whose gold queries all ran (the others are left out of SEM).
    pub scored_sessions: usize,
    /// Session exact match: the share of scored sessions with EX = 1 on every turn.
    pub sem: f64,
    /// Chain error rate; `null` when no dependent turn follows a failed turn.
    pub cer: Option<f64>,
    /// Dependent turns whose earlier turn failed (CER's denominator).
    pub cer_turns: usize,
    /// Of those, the turns that failed too (CER's numerator).
    pub cer_failed: usize,
    /// CER by the dependent turn's chain mode.
    pub cer_by_chain_mode: BTreeMap<String, ChainErrors>,
    /// SEM by session-level field (`graph`, `protocol`, `persona`): value → (SEM, sessions).
    pub sem_by: BTreeMap<String, BTreeMap<String, SemGroup>>,
}

/// CER over one group of dependent turns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChainErrors {
    pub cer: Option<f64>,
    pub turns: usize,
    pub failed: usize,
}

/// SEM over one group of sessions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SemGroup {
    pub sem: f64,
    pub sessions: usize,
}

/// Session fields SEM is broken down by.
const SESSION_FIELDS: [&str; 3] = ["graph", "protocol", "persona"];

/// SEM and CER over the records that belong to sessions; `None` when none does.
fn session_summary(records: &[ExampleRecord]) -> Option<SessionSummary> {
    use crate::metrics::session::{chain_error_counts, sem, TurnOutcome};
    let mut by_session: BTreeMap<&str, Vec<&ExampleRecord>> = BTreeMap::new();
    for r in records {
        if let Some(t) = &r.turn {
            by_session.entry(&t.session_id).or_default().push(r);
        }
    }
    if by_session.is_empty() {
        return None;
    }
    let outcome = |r: &ExampleRecord, keep_dep: bool| {
        let t = r.turn.as_ref().expect("session records have turns");
        TurnOutcome {
            turn_id: t.turn_id,
            depends_on: if keep_dep { t.depends_on } else { None },
            ex: r.metrics.get("ex").copied().unwrap_or(0.0),
        }
    };
    let mut scored = 0;
    let mut sem_sum = 0.0;
    let mut sem_groups: BTreeMap<String, BTreeMap<String, (f64, usize)>> = BTreeMap::new();
    let (mut given, mut failed) = (0, 0);
    let mut modes: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for turns in by_session.values() {
        // Chains are counted over the turns whose gold ran; a session with a failed gold query
        // has no SEM.
        let ok: Vec<&ExampleRecord> = turns
            .iter()
            .copied()
            .filter(|r| r.gold_error.is_none())
            .collect();
        let outcomes: Vec<TurnOutcome> = ok.iter().map(|r| outcome(r, true)).collect();
        let (g, f) = chain_error_counts(&outcomes);
        given += g;
        failed += f;
        let mode_names: BTreeSet<&str> = ok
            .iter()
            .filter(|r| r.turn.as_ref().is_some_and(|t| t.depends_on.is_some()))
            .map(|r| {
                r.categories
                    .get("chain_mode")
                    .map(String::as_str)
                    .unwrap_or("none")
            })
            .collect();
        for mode in mode_names {
            let only: Vec<TurnOutcome> = ok
                .iter()
                .map(|r| {
                    let m = r
                        .categories
                        .get("chain_mode")
                        .map(String::as_str)
                        .unwrap_or("none");
                    outcome(r, m == mode)
                })
                .collect();
            let (g, f) = chain_error_counts(&only);
            let e = modes.entry(mode.to_string()).or_default();
            e.0 += g;
            e.1 += f;
        }
        if ok.len() != turns.len() {
            continue;
        }
        scored += 1;
        let s = sem(&outcomes);
        sem_sum += s;
        for field in SESSION_FIELDS {
            if let Some(v) = turns[0].categories.get(field) {
                let e = sem_groups
                    .entry(field.to_string())
                    .or_default()
                    .entry(v.clone())
                    .or_default();
                e.0 += s;
                e.1 += 1;
            }
        }
    }
    let rate = |g: usize, f: usize| (g > 0).then(|| f as f64 / g as f64);
    Some(SessionSummary {
        sessions: by_session.len(),
        scored_sessions: scored,
        sem: if scored == 0 {
            0.0
        } else {
            sem_sum / scored as f64
        },
        cer: rate(given, failed),
        cer_turns: given,
        cer_failed: failed,
        cer_by_chain_mode: modes
            .into_iter()
            .map(|(m, (g, f))| {
                (
                    m,
                    ChainErrors {
                        cer: rate(g, f),
                        turns: g,
                        failed: f,
                    },
                )
            })
            .collect(),
        sem_by: sem_groups
            .into_iter()
            .map(|(field, vals)| {
                (
                    field,
                    vals.into_iter()
                        .map(|(v, (s, n))| {
                            (
                                v,
                                SemGroup {
                                    sem: s / n as f64,
                                    sessions: n,
                                },
                            )
                        })
                        .collect(),
                )
            })
            .collect(),
    })
}

/// The metrics whose overall means get bootstrap confidence intervals.
pub const HEADLINE_METRICS: [&str; 11] = [
    "ex",
    "ex_strict",
    "ex_cypherbench",
    "exec_exact_match",
    "google_bleu",
    "exact_match",
    "coverage",
    "jaccard",
    "psjs",
    "pass_at_1",
    "kg_valid",
];

use crate::rng::SplitMix64;

/// Percentile-bootstrap 95% interval of the mean of `values` (`resamples` draws, `seed`).
/// `None` for no values.
pub fn bootstrap_ci95(values: &[f64], resamples: usize, seed: u64) -> Option<[f64; 2]> {
    if values.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = SplitMix64(seed);
    let n = values.len();
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| (0..n).map(|_| values[rng.below(n)]).sum::<f64>() / n as f64)
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((q * (resamples - 1) as f64).round() as usize).min(resamples - 1)];
    Some([at(0.025), at(0.975)])
}

/// Runs a parsed query read-only (updating queries are refused: the graph is shared).
fn run(target: Target, stmt: &Statement, q: &str, opts: &Options) -> Result<Table, String> {
    if crate::engine::is_updating(stmt) {
        return Err("updating queries are not evaluated on the shared graph".into());
    }
    match target {
        Target::Memory(graph) => {
            execute_read(graph, stmt, q, &Params::new(), opts).map_err(|e| e.to_string())
        }
        Target::Live(db) => db.run(q, &Params::new()).map_err(|e| e.to_string()),
    }
}

/// The provenance node sets of PSJS ([`crate::metrics::psjs`]) where `target` is.
fn provenance(
    target: Target,
    stmt: &Statement,
    opts: &Options,
) -> Result<HashSet<crate::value::NodeId>, String> {
    match target {
        Target::Memory(graph) => provenance_of(graph, stmt, opts),
        Target::Live(db) => crate::metrics::psjs::provenance_with(stmt, |q| {
            db.run(q, &Params::new()).map_err(|e| e.to_string())
        }),
    }
}

/// Parses and runs a query; the statement comes back with the table.
fn parse_and_run(graph: Target, q: &str, opts: &Options) -> Result<(Statement, Table), String> {
    let stmt = crate::syntax::parse(q).map_err(|e| format!("syntax error at {e}"))?;
    let t = run(graph, &stmt, q, opts)?;
    Ok((stmt, t))
}

/// Milliseconds since `t`.
fn ms_since(t: std::time::Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Validators by the address of the schema they index: built once per schema and worker, not
/// once per example.
type Validators<'s> = HashMap<usize, crate::analysis::Validator<'s>>;

/// Scores one example on its graph (see [`Graphs::for_example`]).
pub fn score_example(
    graphs: &Graphs,
    ex: &Example,
    pred: Option<&Prediction>,
    opts: &EvalOptions,
) -> ExampleRecord {
    let schemas = example_schemas([ex]);
    score_with(graphs, &schemas, &mut Validators::new(), ex, pred, opts)
}

/// The record of an example whose scoring panicked: not scored (as when the gold query
/// fails), with the reason.
fn internal_error_record(
    ex: &Example,
    pred: Option<&Prediction>,
    panic: &(dyn std::any::Any + Send),
) -> ExampleRecord {
    let why = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    ExampleRecord {
        id: ex.id.clone(),
        question: ex.question.clone(),
        categories: ex.categories.clone(),
        gold: ex.gold.clone(),
        prediction: pred.and_then(|p| p.candidates.first().cloned()),
        metrics: BTreeMap::new(),
        gold_error: Some(format!("grape internal error while scoring: {why}")),
        prediction_error: None,
        tags: ex.tags.clone(),
        turn: ex.turn.clone(),
        diagnostics: Vec::new(),
        gold_result: None,
        predicted_result: None,
        timings_ms: None,
    }
}

/// The examples' own schemas (`Example::schema`), each distinct text read once.
type ExampleSchemas = HashMap<String, Result<Schema, String>>;

fn example_schemas<'e>(examples: impl IntoIterator<Item = &'e Example>) -> ExampleSchemas {
    let mut out = ExampleSchemas::new();
    for ex in examples {
        if let Some(text) = &ex.schema {
            if !out.contains_key(text) {
                let read = Schema::read_auto(text).map_err(|e| e.to_string());
                out.insert(text.clone(), read);
            }
        }
    }
    out
}

/// The validator's verdict on the first candidate: KG-valid, and its findings for the record.
fn validate_first(
    validator: &crate::analysis::Validator<'_>,
    candidate: &str,
    parsed: Option<&Statement>,
    schema_free: bool,
) -> (bool, Vec<RecordDiagnostic>) {
    let v = match parsed {
        Some(stmt) => validator.validate_statement(stmt, candidate),
        None => validator.validate(candidate),
    };
    let diagnostics = v
        .diagnostics
        .iter()
        .filter(|d| !schema_free || d.category() == crate::analysis::Category::Syntax)
        .take(MAX_RECORD_DIAGNOSTICS)
        .map(|d| RecordDiagnostic {
            code: d.code.to_string(),
            message: d.text(),
            line: d.line,
            column: d.column,
        })
        .collect();
    (v.kg_valid, diagnostics)
}

/// The text metrics of the first candidate against the gold query.
fn text_metrics(rec: &mut ExampleRecord, gold: &str, first: &str, variant: TextVariant) {
    let t = text_scores(gold, first, variant);
    rec.metrics.insert("jaro_winkler".into(), t.jaro_winkler);
    rec.metrics
        .insert("normalized_levenshtein".into(), t.normalized_levenshtein);
    rec.metrics.insert(
        "google_bleu".into(),
        crate::metrics::google_bleu(gold, first),
    );
    rec.metrics.insert(
        "exact_match".into(),
        crate::metrics::exact_match(gold, first, variant),
    );
}

/// A text-only record (a run without graphs): text metrics, `valid_syntax`, and `kg_valid`
/// against `schema` when there is one; no execution metrics.
fn score_text_only<'g>(
    mut rec: ExampleRecord,
    validators: &mut Validators<'g>,
    ex: &Example,
    pred: Option<&Prediction>,
    opts: &EvalOptions,
    schema: Option<&'g Schema>,
) -> ExampleRecord {
    static EMPTY: std::sync::OnceLock<Schema> = std::sync::OnceLock::new();
    let started = std::time::Instant::now();
    let first = pred.and_then(|p| p.candidates.first());
    let Some(first) = first else {
        rec.prediction_error = Some("no prediction".into());
        text_metrics(&mut rec, &ex.gold, "", opts.variant);
        rec.metrics.insert("valid_syntax".into(), 0.0);
        if schema.is_some() {
            rec.metrics.insert("kg_valid".into(), 0.0);
        }
        return rec;
    };
    if let Ok(gold) = crate::syntax::parse(&ex.gold) {
        rec.categories.insert(
            "gold_hops".into(),
            crate::analysis::complexity(&gold).hops.to_string(),
        );
    }
    let parsed = crate::syntax::parse(first);
    let s: &'g Schema = schema.unwrap_or_else(|| EMPTY.get_or_init(Schema::default));
    let validator = validators
        .entry(s as *const Schema as usize)
        .or_insert_with(|| crate::analysis::Validator::new(s));
    let (kg_valid, diagnostics) =
        validate_first(validator, first, parsed.as_ref().ok(), schema.is_none());
    rec.diagnostics = diagnostics;
    if let Err(e) = &parsed {
        rec.prediction_error = Some(format!("syntax error at {e}"));
    }
    rec.metrics
        .insert("valid_syntax".into(), f64::from(u8::from(parsed.is_ok())));
    if schema.is_some() {
        rec.metrics
            .insert("kg_valid".into(), f64::from(u8::from(kg_valid)));
    }
    text_metrics(&mut rec, &ex.gold, first, opts.variant);
    rec.timings_ms = Some(Timings {
        gold: 0.0,
        prediction: ms_since(started),
    });
    rec
}

fn score_with<'g>(
    graphs: &'g Graphs,
    schemas: &'g ExampleSchemas,
    validators: &mut Validators<'g>,
    ex: &Example,
    pred: Option<&Prediction>,
    opts: &EvalOptions,
) -> ExampleRecord {
    let mut rec = ExampleRecord {
        id: ex.id.clone(),
        question: ex.question.clone(),
        categories: ex.categories.clone(),
        gold: ex.gold.clone(),
        prediction: pred.and_then(|p| p.candidates.first().cloned()),
        metrics: BTreeMap::new(),
        gold_error: None,
        prediction_error: None,
        tags: ex.tags.clone(),
        turn: ex.turn.clone(),
        diagnostics: Vec::new(),
        gold_result: None,
        predicted_result: None,
        timings_ms: None,
    };
    let started = std::time::Instant::now();
    // The example's own schema, when it has one, decides KG-validity.
    let own_schema: Option<&'g Schema> = match ex.schema.as_ref().and_then(|t| schemas.get(t)) {
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            rec.gold_error = Some(format!("the example's schema cannot be read: {e}"));
            return rec;
        }
        None => None,
    };
    // No graph for this example (a text-only run, or an example that names no database in a
    // run of named graphs, as many of Neo4j's text2cypher examples): text metrics and validity.
    if graphs.is_text_only() || (ex.graph.is_none() && graphs.default.is_none()) {
        let schema = own_schema.or(graphs.schema.as_ref());
        return score_text_only(rec, validators, ex, pred, opts, schema);
    }
    let (graph, schema) = match graphs.target_for(ex) {
        Ok(x) => x,
        Err(e) => {
            rec.gold_error = Some(e);
            return rec;
        }
    };
    let schema = own_schema.unwrap_or(schema);
    let gold_run = parse_and_run(graph, &ex.gold, &opts.engine);
    let gold_ms = ms_since(started);
    let (gold_stmt, gold) = match gold_run {
        Ok(r) => r,
        Err(e) => {
            rec.gold_error = Some(e);
            rec.timings_ms = Some(Timings {
                gold: gold_ms,
                prediction: 0.0,
            });
            return rec;
        }
    };
    // The hop count of the gold query (GRAPE's definition), for the by-hops breakdown.
    rec.categories.insert(
        "gold_hops".into(),
        crate::analysis::complexity(&gold_stmt).hops.to_string(),
    );
    rec.gold_result = Some(ResultPreview::of(&gold));
    let started = std::time::Instant::now();
    let is_ordered = gold_stmt.orders_rows();
    let mut valid_syntax = 0.0;
    let mut kg_valid = 0.0;
    let candidates: &[String] = pred.map(|p| p.candidates.as_slice()).unwrap_or(&[]);
    if candidates.is_empty() {
        rec.prediction_error = Some("no prediction".into());
    }
    let validator = validators
        .entry(schema as *const Schema as usize)
        .or_insert_with(|| crate::analysis::Validator::new(schema));
    let mut coverages = Vec::new();
    for (i, c) in candidates.iter().enumerate().take(opts.k.max(1)) {
        let parsed = crate::syntax::parse(c);
        if i == 0 {
            let (valid, diagnostics) = validate_first(validator, c, parsed.as_ref().ok(), false);
            if valid {
                kg_valid = 1.0;
            }
            rec.diagnostics = diagnostics;
        }
        let result = match parsed {
            Ok(stmt) => {
                if i == 0 {
                    valid_syntax = 1.0;
                }
                run(graph, &stmt, c, &opts.engine).map(|t| (stmt, t))
            }
            Err(e) => Err(format!("syntax error at {e}")),
        };
        match result {
            Ok((stmt, t)) => {
                let items = item_scores(&t, &gold, is_ordered);
                coverages.push(Some(items.coverage));
                if i == 0 {
                    rec.predicted_result = Some(ResultPreview::of(&t));
                    let rows = execution_accuracy(&t, &gold, is_ordered);
                    rec.metrics.insert("ex".into(), rows.ex);
                    // PSJS is 1 when EX is 1 (docs/METRICS.md); else the provenance node sets.
                    let psjs = if rows.ex == 1.0 {
                        Some(1.0)
                    } else {
                        let prov = |st: &Statement| provenance(graph, st, &opts.engine);
                        match (prov(&stmt), prov(&gold_stmt)) {
                            (Ok(g), Ok(r)) => Some(node_set_jaccard(&g, &r)),
                            _ => None,
                        }
                    };
                    if let Some(v) = psjs {
                        rec.metrics.insert("psjs".into(), v);
                    }
                    rec.metrics.insert("ex_strict".into(), rows.ex_strict);
                    rec.metrics.insert(
                        "ex_cypherbench".into(),
                        crate::metrics::cypherbench_ex(&t, &gold, c, &ex.gold),
                    );
                    rec.metrics.insert(
                        "exec_exact_match".into(),
                        crate::metrics::exec_exact_match(&t, &gold),
                    );
                    rec.metrics.insert("jaccard".into(), items.jaccard);
                    rec.metrics.insert("coverage".into(), items.coverage);
                }
            }
            Err(e) => {
                coverages.push(None);
                if i == 0 {
                    rec.prediction_error = Some(e);
                }
            }
        }
    }
    for m in [
        "ex",
        "ex_strict",
        "ex_cypherbench",
        "exec_exact_match",
        "jaccard",
        "coverage",
        "psjs",
    ] {
        rec.metrics.entry(m.into()).or_insert(0.0);
    }
    rec.metrics
        .insert("pass_at_1".into(), pass_at_k(&coverages, 1));
    if opts.k > 1 {
        rec.metrics
            .insert(format!("pass_at_{}", opts.k), pass_at_k(&coverages, opts.k));
    }
    let first = candidates.first().map(String::as_str).unwrap_or("");
    text_metrics(&mut rec, &ex.gold, first, opts.variant);
    rec.metrics.insert("valid_syntax".into(), valid_syntax);
    rec.metrics.insert("kg_valid".into(), kg_valid);
    rec.timings_ms = Some(Timings {
        gold: gold_ms,
        prediction: ms_since(started),
    });
    rec
}

/// Validator findings kept per record.
pub const MAX_RECORD_DIAGNOSTICS: usize = 20;

/// Natural id order: runs of digits compare as numbers, so `2` comes before `10` and
/// `s/2` before `s/10`.
fn id_key(id: &str) -> Vec<(u8, u128, String)> {
    let mut key = Vec::new();
    let mut rest = id;
    while let Some(c) = rest.chars().next() {
        let digits = c.is_ascii_digit();
        let end = rest
            .find(|ch: char| ch.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        let (chunk, tail) = rest.split_at(end);
        match chunk.parse::<u128>() {
            Ok(n) if digits => key.push((0, n, chunk.to_string())),
            _ => key.push((1, 0, chunk.to_string())),
        }
        rest = tail;
    }
    key
}

/// Per-metric running sums and counts.
type Sums = BTreeMap<String, (f64, usize)>;

/// The (field, value) groups a record counts in: its categories, and each value of each tag
/// field (`none` for an empty one).
fn record_groups(r: &ExampleRecord) -> Vec<(&str, &str)> {
    let mut out: Vec<(&str, &str)> = r
        .categories
        .iter()
        .map(|(f, v)| (f.as_str(), v.as_str()))
        .collect();
    for (field, values) in &r.tags {
        if values.is_empty() {
            out.push((field, "none"));
        }
        let mut seen = HashSet::new();
        for v in values {
            if seen.insert(v) {
                out.push((field, v));
            }
        }
    }
    out
}

/// Aggregates records into a report.
pub fn aggregate(records: &[ExampleRecord], variant: TextVariant) -> Report {
    let mut sums: BTreeMap<String, (f64, usize)> = BTreeMap::new();
    let mut by: BTreeMap<String, BTreeMap<String, Sums>> = BTreeMap::new();
    let mut scored = 0;
    let mut counts: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for r in records.iter().filter(|r| r.gold_error.is_none()) {
        scored += 1;
        let groups = record_groups(r);
        for (field, value) in &groups {
            *counts
                .entry(field.to_string())
                .or_default()
                .entry(value.to_string())
                .or_default() += 1;
        }
        for (m, v) in &r.metrics {
            let e = sums.entry(m.clone()).or_default();
            e.0 += v;
            e.1 += 1;
            for (field, value) in &groups {
                let e = by
                    .entry(field.to_string())
                    .or_default()
                    .entry(value.to_string())
                    .or_default()
                    .entry(m.clone())
                    .or_default();
                e.0 += v;
                e.1 += 1;
            }
        }
    }
    let mean = |(s, n): (f64, usize)| if n == 0 { 0.0 } else { s / n as f64 };
    let mut ci95 = BTreeMap::new();
    for m in HEADLINE_METRICS {
        let values: Vec<f64> = records
            .iter()
            .filter(|r| r.gold_error.is_none())
            .filter_map(|r| r.metrics.get(m).copied())
            .collect();
        if let Some(ci) = bootstrap_ci95(&values, 1000, 0x67_72_61_70_65) {
            ci95.insert(m.to_string(), ci);
        }
    }
    let sessions = session_summary(records);
    Report {
        sessions,
        examples: records.len(),
        scored,
        gold_errors: records.iter().filter(|r| r.gold_error.is_some()).count(),
        missing_predictions: records.iter().filter(|r| r.prediction.is_none()).count(),
        text_variant: variant,
        counts,
        ci95,
        overall: sums.into_iter().map(|(k, v)| (k, mean(v))).collect(),
        by: by
            .into_iter()
            .map(|(f, vals)| {
                (
                    f,
                    vals.into_iter()
                        .map(|(v, ms)| (v, ms.into_iter().map(|(m, x)| (m, mean(x))).collect()))
                        .collect(),
                )
            })
            .collect(),
    }
}

/// Reads the complete records of an earlier run (an unfinished last line is dropped).
fn read_records(path: &Path) -> Vec<ExampleRecord> {
    std::fs::read_to_string(path)
        .map(|t| {
            t.lines()
                .filter_map(|l| serde_json::from_str::<ExampleRecord>(l).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Runs the evaluation. With `out_dir`, records are appended to `examples.jsonl` there (and
/// finished ids skipped on a rerun) and `report.json` and `report.md` are written at the end.
pub fn evaluate(
    graphs: &Graphs,
    examples: &[Example],
    predictions: &HashMap<String, Prediction>,
    opts: &EvalOptions,
    out_dir: Option<&Path>,
) -> std::io::Result<(Report, Vec<ExampleRecord>)> {
    let mut done: Vec<ExampleRecord> = Vec::new();
    let mut log = None;
    if let Some(dir) = out_dir {
        crate::dataset::create_out_dir(dir)?;
        let path = dir.join("examples.jsonl");
        done = read_records(&path);
        // Rewrite the log without a torn last line before appending to it.
        crate::dataset::write_atomically(&path, records_jsonl(&done).as_bytes())?;
        log = Some(std::fs::OpenOptions::new().append(true).open(&path)?);
    }
    let finished: HashSet<String> = done.iter().map(|r| r.id.clone()).collect();
    let todo: Vec<&Example> = examples
        .iter()
        .filter(|e| !finished.contains(&e.id))
        .collect();
    let schemas = &example_schemas(todo.iter().copied());
    let workers = opts.workers.max(1).min(todo.len().max(1));
    let (tx, rx) = std::sync::mpsc::channel::<ExampleRecord>();
    let new_records = std::thread::scope(|s| -> std::io::Result<Vec<ExampleRecord>> {
        for w in 0..workers {
            let tx = tx.clone();
            let todo = &todo;
            s.spawn(move || {
                let mut validators = Validators::new();
                for ex in todo.iter().skip(w).step_by(workers) {
                    // A defect in grape must not end the run, nor come back on every resume:
                    // the example is recorded as failed, with the panic's message.
                    let scored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        score_with(
                            graphs,
                            schemas,
                            &mut validators,
                            ex,
                            predictions.get(&ex.id),
                            opts,
                        )
                    }));
                    let rec = match scored {
                        Ok(rec) => rec,
                        Err(panic) => {
                            validators = Validators::new();
                            internal_error_record(ex, predictions.get(&ex.id), &*panic)
                        }
                    };
                    if tx.send(rec).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut got = Vec::new();
        // The progress bar stays hidden for the first second, so short runs print nothing.
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(todo.len() as u64),
            indicatif::ProgressDrawTarget::hidden(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} examples, {per_sec}, eta {eta}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        let started = std::time::Instant::now();
        let mut shown = false;
        for rec in rx {
            bar.inc(1);
            if opts.progress && !shown && started.elapsed() > std::time::Duration::from_secs(1) {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                shown = true;
            }
            if let Some(f) = log.as_mut() {
                f.write_all(records_jsonl(std::slice::from_ref(&rec)).as_bytes())?;
            }
            got.push(rec);
        }
        bar.finish_and_clear();
        Ok(got)
    })?;
    let mut all = done;
    all.extend(new_records);
    // Only the examples of this dataset, in id order.
    let wanted: HashSet<&str> = examples.iter().map(|e| e.id.as_str()).collect();
    all.retain(|r| wanted.contains(r.id.as_str()));
    all.sort_by_cached_key(|r| id_key(&r.id));
    let report = aggregate(&all, opts.variant);
    if let Some(dir) = out_dir {
        crate::dataset::write_atomically(
            &dir.join("report.json"),
            report_json(&report).as_bytes(),
        )?;
        crate::dataset::write_atomically(
            &dir.join("report.md"),
            report_markdown(&report).as_bytes(),
        )?;
        crate::dataset::write_atomically(
            &dir.join("report.html"),
            report_html(&report, &all).as_bytes(),
        )?;
    }
    Ok((report, all))
}

/// Shard `i` of `n` (0-based): every n-th example in id order, starting at position `i`. The
/// shards of one dataset are disjoint and together hold every example, so runs of them merged
/// with [`merge`] give the report of one run.
pub fn shard(examples: &[Example], i: usize, n: usize) -> Vec<Example> {
    let mut sorted: Vec<&Example> = examples.iter().collect();
    sorted.sort_by_cached_key(|e| id_key(&e.id));
    sorted
        .into_iter()
        .enumerate()
        .filter(|(pos, _)| n > 0 && pos % n == i)
        .map(|(_, e)| e.clone())
        .collect()
}

/// Parses a `--shard` argument, `i/n` with 0 ≤ i < n.
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad shard {s:?}: expected i/n with 0 <= i < n, e.g. 0/4");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Merges the output directories of shard runs into `out` (`examples.jsonl` and `report.json`,
/// both written atomically). The shards must share a text variant; an example present in two
/// shards must have the same record in both.
pub fn merge(dirs: &[&Path], out: &Path) -> Result<Report, String> {
    let mut variant: Option<TextVariant> = None;
    let mut by_id: BTreeMap<String, ExampleRecord> = BTreeMap::new();
    for dir in dirs {
        let rp = dir.join("report.json");
        let text = std::fs::read_to_string(&rp)
            .map_err(|e| format!("{}: {e} (is the shard finished?)", rp.display()))?;
        let report: Report =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", rp.display()))?;
        match variant {
            None => variant = Some(report.text_variant),
            Some(v) if v != report.text_variant => {
                return Err(format!(
                    "{}: text variant {:?} differs from the other shards' {v:?}",
                    rp.display(),
                    report.text_variant
                ))
            }
            Some(_) => {}
        }
        let records = read_records(&dir.join("examples.jsonl"));
        if records.len() != report.examples {
            return Err(format!(
                "{}: {} records for a report of {} examples",
                dir.join("examples.jsonl").display(),
                records.len(),
                report.examples
            ));
        }
        for r in records {
            if let Some(old) = by_id.get(&r.id) {
                if old.without_timings() != r.without_timings() {
                    return Err(format!(
                        "{}: example {:?} differs from another shard's record",
                        dir.display(),
                        r.id
                    ));
                }
            }
            by_id.insert(r.id.clone(), r);
        }
    }
    let variant = variant.ok_or("no shard directories given")?;
    let mut all: Vec<ExampleRecord> = by_id.into_values().collect();
    all.sort_by_cached_key(|r| id_key(&r.id));
    let report = aggregate(&all, variant);
    crate::dataset::create_out_dir(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let log = records_jsonl(&all);
    let write = |name: &str, bytes: &[u8]| {
        crate::dataset::write_atomically(&out.join(name), bytes)
            .map_err(|e| format!("{}: {e}", out.join(name).display()))
    };
    write("examples.jsonl", log.as_bytes())?;
    write("report.json", report_json(&report).as_bytes())?;
    write("report.md", report_markdown(&report).as_bytes())?;
    write("report.html", report_html(&report, &all).as_bytes())?;
    Ok(report)
}

/// Records as JSON Lines, one line each (what `examples.jsonl` holds).
pub fn records_jsonl(records: &[ExampleRecord]) -> String {
    let mut text = String::new();
    for r in records {
        text.push_str(&serde_json::to_string(r).unwrap_or_default());
        text.push('\n');
    }
    text
}

/// The report as `report.json` holds it (pretty-printed, with a final newline).
pub fn report_json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_default() + "\n"
}

/// The report as Markdown: the overall means, then one table per category field (values in
/// numeric order where they are numbers), metrics as columns.
pub fn report_markdown(report: &Report) -> String {
    let metrics: Vec<&String> = report.overall.keys().collect();
    let mut md = String::from("# grape evaluation report\n\n");
    md.push_str(&format!(
        "{} examples, {} scored, {} gold queries failed, {} predictions missing; text variant `{}`.\n\n",
        report.examples,
        report.scored,
        report.gold_errors,
        report.missing_predictions,
        serde_json::to_value(report.text_variant)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    ));
    let header = |first: &str| {
        let mut h = format!("| {first} | n |");
        let mut rule = String::from("|---|---:|");
        for m in &metrics {
            h.push_str(&format!(" {m} |"));
            rule.push_str("---:|");
        }
        format!("{h}\n{rule}\n")
    };
    let row = |name: &str, n: usize, values: &BTreeMap<String, f64>| {
        let mut line = format!("| {} | {n} |", name.replace('|', "\\|"));
        for m in &metrics {
            match values.get(*m) {
                Some(v) => line.push_str(&format!(" {v:.3} |")),
                None => line.push_str(" – |"),
            }
        }
        line + "\n"
    };
    md.push_str("## Overall\n\n");
    md.push_str(&header("all"));
    md.push_str(&row("all", report.scored, &report.overall));
    if !report.ci95.is_empty() {
        md.push_str("\n95% bootstrap confidence intervals: ");
        let parts: Vec<String> = report
            .ci95
            .iter()
            .map(|(m, [lo, hi])| format!("{m} [{lo:.3}, {hi:.3}]"))
            .collect();
        md.push_str(&parts.join(", "));
        md.push_str(".\n");
    }
    if let Some(s) = &report.sessions {
        md.push_str(&format!(
            "\n## Sessions\n\n{} sessions ({} scored): SEM {:.3}; CER {}.\n",
            s.sessions,
            s.scored_sessions,
            s.sem,
            match s.cer {
                Some(c) => format!(
                    "{c:.3} ({} of {} dependent turns after a failed turn failed)",
                    s.cer_failed, s.cer_turns
                ),
                None => "undefined (no dependent turn follows a failed one)".into(),
            }
        ));
        if !s.cer_by_chain_mode.is_empty() {
            md.push_str("\n| chain mode | turns | failed | CER |\n|---|---:|---:|---:|\n");
            for (mode, c) in &s.cer_by_chain_mode {
                md.push_str(&format!(
                    "| {} | {} | {} | {} |\n",
                    mode.replace('|', "\\|"),
                    c.turns,
                    c.failed,
                    c.cer
                        .map(|v| format!("{v:.3}"))
                        .unwrap_or_else(|| "–".into())
                ));
            }
        }
        for (field, groups) in &s.sem_by {
            md.push_str(&format!(
                "\n| {field} | sessions | SEM |\n|---|---:|---:|\n"
            ));
            for (v, g) in groups {
                md.push_str(&format!(
                    "| {} | {} | {:.3} |\n",
                    v.replace('|', "\\|"),
                    g.sessions,
                    g.sem
                ));
            }
        }
    }
    for (field, values) in &report.by {
        md.push_str(&format!("\n## By {field}\n\n"));
        md.push_str(&header(field));
        let mut keys: Vec<&String> = values.keys().collect();
        keys.sort_by_cached_key(|k| id_key(k));
        for k in keys {
            md.push_str(&row(k, report.count(field, k), &values[k]));
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dataset_graphs_load_once_per_name_and_a_missing_one_is_an_error_without_a_default() {
        let dir = std::env::temp_dir().join(format!("grape-graphs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.cypher"), "CREATE (:A);\n").unwrap();
        let ex = |id: &str, graph: Option<&str>| crate::dataset::Example {
            id: id.into(),
            graph: graph.map(String::from),
            ..Default::default()
        };
        let types = crate::graph::import::ImporterTypes::Strings;
        let examples = [ex("1", Some("a")), ex("2", Some("a")), ex("3", None)];
        let g = load_dataset_graphs(&examples, Some(&dir), false, types).unwrap();
        assert_eq!(g.keys().collect::<Vec<_>>(), ["a"]);
        assert_eq!(g["a"].node_count(), 1);
        let examples = [ex("1", Some("a")), ex("2", Some("b"))];
        let e = load_dataset_graphs(&examples, Some(&dir), false, types).unwrap_err();
        assert!(
            matches!(&e, DatasetGraphsError::Missing { name, .. } if name == "b"),
            "{e}"
        );
        assert!(e.to_string().contains("no graph named \"b\""), "{e}");
        // A default graph stands in for a missing name; no folder, no named graphs.
        let g = load_dataset_graphs(&examples, Some(&dir), true, types).unwrap();
        assert_eq!(g.len(), 1);
        assert!(load_dataset_graphs(&examples, None, false, types)
            .unwrap()
            .is_empty());
        // Names that could leave the folder are refused.
        let e = load_dataset_graphs(&[ex("1", Some("../x"))], Some(&dir), true, types).unwrap_err();
        assert!(matches!(e, DatasetGraphsError::Load(_)), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bootstrap_intervals_are_reproducible_and_sensible() {
        assert_eq!(bootstrap_ci95(&[], 1000, 1), None);
        assert_eq!(bootstrap_ci95(&[0.5; 40], 1000, 1), Some([0.5, 0.5]));
        let half: Vec<f64> = (0..200).map(|i| (i % 2) as f64).collect();
        let [lo, hi] = bootstrap_ci95(&half, 1000, 7).unwrap();
        assert!(lo < 0.5 && hi > 0.5, "{lo} {hi}");
        // The normal approximation: 0.5 ± 1.96 · sqrt(0.25 / 200) ≈ ±0.069.
        assert!((hi - lo - 0.139).abs() < 0.03, "{lo} {hi}");
        assert_eq!(bootstrap_ci95(&half, 1000, 7), Some([lo, hi]));
        // Fewer examples, wider interval.
        let [lo2, hi2] = bootstrap_ci95(&half[..20], 1000, 7).unwrap();
        assert!(hi2 - lo2 > hi - lo);
    }

    #[test]
    fn the_generator_is_uniform_enough() {
        let mut r = SplitMix64(42);
        let mut counts = [0usize; 10];
        for _ in 0..100_000 {
            counts[r.below(10)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
    }
}
