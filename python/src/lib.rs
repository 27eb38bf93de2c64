//! `grape._grape`: the Python bindings' native half. Thin by design: each function calls the
//! library's public API and hands back Rust-owned objects or JSON text in grape's documented
//! encodings; the `grape` Python package (`python/grape/`) turns those into Python types,
//! exceptions and DataFrames. Long calls (queries, evaluation, loading) release the GIL.
//!
//! # Layout
//!
//! - Crate `grape-py`, a workspace member; the Python package `grape` (distribution
//!   `grape-cypher`). This file is the pyo3 module `grape._grape`: thin calls into the library's
//!   public API (`syntax::parse` / `print`, `analysis::Validator`, `schema::Schema`,
//!   `engine::execute` / `execute_read` / `load_graph`, `metrics`, `eval::evaluate`,
//!   `bolt::Server`) that release the GIL around every long call and hand back Rust-owned objects
//!   (`Statement`, `Schema`, `Graph`, `Table`, `BoltServer`) or JSON text in the library's
//!   encodings (the AST, `Validation`, grape's JSON value encoding of tables, `report.json`).
//! - Errors become `grape.errors` exceptions carrying Neo4j's code, line and column
//!   (`ExecError::position`).
//! - The Python side (`grape/`): `__init__.py` (the API: `parse`, `print`, `validate`, `analyze`,
//!   `Schema`, `Graph`, `Result`, `evaluate` / `Report`, `serve_bolt`), `types.py` (the value
//!   mapping both ways: `Node`, `Relationship`, `Path`, `Point`, `Duration`, `datetime`),
//!   `metrics.py`, `errors.py`, `pytest_plugin.py` (fixtures `grape_graph`, `grape_bolt`,
//!   `grape_bolt_uri`; entry point `pytest11`), `_grape.pyi` stubs.
//! - `tests/` is its pytest suite, which `tests/python_package.rs` builds (maturin, into
//!   `target/python-build`) and runs. Nothing in `src/` depends on it.

use grape::engine::{ExecError, Options, Params, Table};
use grape::graph::import::ImporterTypes;
use grape::graph::Graph as GrapeGraph;
use grape::schema::{Schema as GrapeSchema, SchemaFormat};
use grape::syntax::{ParseError, PrintOptions, Statement as GrapeStatement};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

/// Neo4j's status code for a query that does not parse.
const SYNTAX_ERROR: &str = "Neo.ClientError.Statement.SyntaxError";

/// An instance of one of `grape.errors`' exception classes, as a `PyErr`.
fn grape_error(py: Python<'_>, class: &str, args: impl IntoPyObjectArgs) -> PyErr {
    let made = py
        .import("grape.errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1(args.into_args(py)?));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// Argument tuples for the exception constructors.
trait IntoPyObjectArgs {
    fn into_args(self, py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyTuple>>;
}

impl IntoPyObjectArgs for (String, Option<usize>, Option<usize>, String) {
    fn into_args(self, py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyTuple>> {
        pyo3::types::PyTuple::new(
            py,
            [
                self.0.into_pyobject(py)?.into_any(),
                self.1.into_pyobject(py)?.into_any(),
                self.2.into_pyobject(py)?.into_any(),
                self.3.into_pyobject(py)?.into_any(),
            ],
        )
    }
}

impl IntoPyObjectArgs for (String,) {
    fn into_args(self, py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyTuple>> {
        pyo3::types::PyTuple::new(py, [self.0.into_pyobject(py)?.into_any()])
    }
}

fn syntax_error(py: Python<'_>, e: &ParseError) -> PyErr {
    grape_error(
        py,
        "CypherSyntaxError",
        (
            e.message.clone(),
            Some(e.line),
            Some(e.column),
            SYNTAX_ERROR.to_string(),
        ),
    )
}

fn exec_error(py: Python<'_>, e: &ExecError, source: &str) -> PyErr {
    let (line, column) = match e.position(source) {
        Some((l, c)) => (Some(l), Some(c)),
        None => (None, None),
    };
    grape_error(
        py,
        "CypherError",
        (e.message.clone(), line, column, e.code().to_string()),
    )
}

fn data_error(py: Python<'_>, message: String) -> PyErr {
    grape_error(py, "DataError", (message,))
}

fn parse_stmt(py: Python<'_>, text: &str) -> PyResult<GrapeStatement> {
    grape::parse(text).map_err(|e| syntax_error(py, &e))
}

fn types_of(types: &str) -> PyResult<ImporterTypes> {
    types.parse().map_err(|e: String| PyValueError::new_err(e))
}

fn options(timeout_ms: Option<u64>, cypher: Option<u8>) -> PyResult<Options> {
    let mut opts = Options::default();
    if let Some(ms) = timeout_ms {
        opts.limits.timeout = Some(Duration::from_millis(ms));
    }
    if let Some(v) = cypher {
        opts.cypher = match v {
            5 => grape::syntax::CypherVersion::Cypher5,
            25 => grape::syntax::CypherVersion::Cypher25,
            _ => return Err(PyValueError::new_err("cypher must be 5 or 25")),
        };
    }
    Ok(opts)
}

fn params_of(py: Python<'_>, params_json: Option<&str>) -> PyResult<Params> {
    match params_json {
        None => Ok(Params::new()),
        Some(text) => grape::engine::params_from_json(text)
            .map_err(|e| data_error(py, format!("parameters: {e}"))),
    }
}

// ---- syntax ----

/// A parsed statement (the AST and its text).
#[pyclass(module = "grape._grape", name = "Statement", frozen)]
struct Statement {
    stmt: GrapeStatement,
    text: String,
}

#[pymethods]
impl Statement {
    /// The source text.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }
    /// The statement printed back; `rename=True` renames variables v0, v1, … (grape's
    /// canonical form).
    #[pyo3(signature = (rename = false))]
    fn print(&self, rename: bool) -> String {
        grape::syntax::print(
            &self.stmt,
            &PrintOptions {
                rename_variables: rename,
            },
        )
    }
    /// The AST as JSON text.
    fn json(&self) -> PyResult<String> {
        serde_json::to_string(&self.stmt).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }
    /// Whether the statement writes.
    fn is_updating(&self) -> bool {
        grape::engine::is_updating(&self.stmt)
    }
    /// Whether the final RETURN orders its rows (results then compare as sequences).
    fn orders_rows(&self) -> bool {
        self.stmt.orders_rows()
    }
    /// Hops, missing aliases and access type, as JSON text.
    fn analyze(&self) -> PyResult<String> {
        let a = grape::analysis::analyze(&self.stmt, &self.text);
        serde_json::to_string(&a).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }
}

#[pyfunction]
fn parse(py: Python<'_>, text: String) -> PyResult<Statement> {
    let stmt = parse_stmt(py, &text)?;
    Ok(Statement { stmt, text })
}

// ---- schemas and validation ----

/// A graph schema (labels, relationship types, properties and their types, triples).
#[pyclass(module = "grape._grape", name = "Schema", frozen)]
struct Schema {
    schema: GrapeSchema,
}

fn format_of(format: Option<&str>) -> PyResult<Option<SchemaFormat>> {
    format
        .map(|f| {
            f.parse()
                .map_err(|e: grape::schema::SchemaError| PyValueError::new_err(e.to_string()))
        })
        .transpose()
}

#[pymethods]
impl Schema {
    /// Reads a schema file (`format`: grape, structured, apoc, zograscope, cypherturn,
    /// importer, prompt; detected when left out).
    #[staticmethod]
    #[pyo3(signature = (path, format = None))]
    fn read_path(py: Python<'_>, path: PathBuf, format: Option<&str>) -> PyResult<Schema> {
        let format = format_of(format)?;
        GrapeSchema::read_path(&path, format)
            .map(|schema| Schema { schema })
            .map_err(|e| data_error(py, format!("{}: {e}", path.display())))
    }
    /// Reads a schema from its text.
    #[staticmethod]
    #[pyo3(signature = (text, format = None))]
    fn read_text(py: Python<'_>, text: &str, format: Option<&str>) -> PyResult<Schema> {
        let read = match format_of(format)? {
            Some(f) => GrapeSchema::read(f, text),
            None => GrapeSchema::read_auto(text),
        };
        read.map(|schema| Schema { schema })
            .map_err(|e| data_error(py, e.to_string()))
    }
    /// The schema written in `format`.
    fn write(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let f = format_of(Some(format))?.unwrap_or(SchemaFormat::Grape);
        self.schema
            .write(f)
            .map(|w| w.text)
            .map_err(|e| data_error(py, e.to_string()))
    }
    /// The schema as the text block text-to-Cypher prompts use.
    fn to_prompt(&self) -> String {
        self.schema.to_prompt()
    }
}

/// Validates queries against a schema (`None`: schema-free checks only); one JSON text per
/// query, `grape::analysis::Validation`'s fields.
#[pyfunction]
#[pyo3(signature = (queries, schema = None, parameters = None, cypher = None))]
fn validate(
    py: Python<'_>,
    queries: Vec<String>,
    schema: Option<&Schema>,
    parameters: Option<Vec<String>>,
    cypher: Option<u8>,
) -> PyResult<Vec<String>> {
    let schema_free = schema.is_none();
    let schema = schema.map(|s| s.schema.clone()).unwrap_or_default();
    let mut opts = grape::analysis::ValidateOptions {
        parameters: parameters.map(|p| p.into_iter().collect()),
        ..Default::default()
    };
    opts.cypher = options(None, cypher)?.cypher;
    py.detach(move || {
        let v = grape::analysis::Validator::with_options(&schema, opts);
        queries
            .iter()
            .map(|q| validation_json(v.validate(q), schema_free))
            .collect()
    })
}

/// A verdict as JSON, each diagnostic with its category (`syntax`, `schema`, `properties`).
/// Without a schema only the syntax category is judged: the other findings are left out and
/// the schema scores and KG-validity are null.
fn validation_json(mut v: grape::analysis::Validation, schema_free: bool) -> PyResult<String> {
    use grape::analysis::Category;
    if schema_free {
        v.diagnostics.retain(|d| d.category() == Category::Syntax);
    }
    let categories: Vec<Category> = v.diagnostics.iter().map(|d| d.category()).collect();
    let mut j = serde_json::to_value(&v).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    if let Some(diags) = j.get_mut("diagnostics").and_then(|d| d.as_array_mut()) {
        for (d, c) in diags.iter_mut().zip(categories) {
            if let Some(obj) = d.as_object_mut() {
                obj.insert(
                    "category".into(),
                    serde_json::to_value(c).unwrap_or_default(),
                );
            }
        }
    }
    if schema_free {
        for key in ["schema_score", "properties_score", "kg_valid"] {
            j[key] = serde_json::Value::Null;
        }
    }
    Ok(j.to_string())
}

// ---- graphs and results ----

/// A query result: the engine's table, kept in Rust until read.
#[pyclass(module = "grape._grape", name = "Table", frozen)]
struct PyTable {
    table: Table,
    ordered: bool,
}

#[pymethods]
impl PyTable {
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.table.columns.clone()
    }
    /// Whether the query's final RETURN orders the rows.
    #[getter]
    fn ordered(&self) -> bool {
        self.ordered
    }
    fn __len__(&self) -> usize {
        self.table.rows.len()
    }
    /// `{"columns", "rows", "stats", "plan"?}` in grape's JSON value encoding.
    fn json(&self) -> String {
        self.table.to_json().to_string()
    }
}

/// An in-memory property graph. Reads from several Python threads run at once; a write
/// waits for them and runs alone.
#[pyclass(module = "grape._grape", name = "Graph", frozen)]
struct Graph {
    graph: RwLock<GrapeGraph>,
}

impl Graph {
    fn wrap(g: GrapeGraph) -> Graph {
        Graph {
            graph: RwLock::new(g),
        }
    }
    fn read(&self) -> std::sync::RwLockReadGuard<'_, GrapeGraph> {
        // The engine does not panic by design; were it to, Python gets pyo3's PanicException
        // and the graph stays usable (poisoning is ignored), possibly with part of that
        // statement's writes.
        self.graph.read().unwrap_or_else(|p| p.into_inner())
    }
    fn snapshot(&self) -> GrapeGraph {
        self.read().clone()
    }
}

#[pymethods]
impl Graph {
    #[new]
    fn new() -> Graph {
        Graph::wrap(GrapeGraph::new())
    }
    /// Loads a graph: a JSON fixture, a Cypher script (`.cypher`), a Neo4j Data Importer
    /// folder, GRAPE's sampled paths — every format `grape query --graph` reads.
    #[staticmethod]
    #[pyo3(signature = (path, types = "strings"))]
    fn load(py: Python<'_>, path: String, types: &str) -> PyResult<Graph> {
        let types = types_of(types)?;
        py.detach(move || grape::engine::load_graph(&path, types))
            .map(Graph::wrap)
            .map_err(|e| data_error(py, e.to_string()))
    }
    /// A graph made by running a Cypher script (statements separated by `;`).
    #[staticmethod]
    fn from_cypher(py: Python<'_>, script: String) -> PyResult<Graph> {
        let mut g = GrapeGraph::new();
        py.detach(|| grape::engine::run_script(&mut g, &script))
            .map_err(|e| exec_error(py, &e, &script))?;
        Ok(Graph::wrap(g))
    }
    /// Runs one statement (parameters as JSON text in grape's encoding).
    #[pyo3(signature = (query, params_json = None, timeout_ms = None, read_only = false, cypher = None))]
    fn run(
        &self,
        py: Python<'_>,
        query: String,
        params_json: Option<&str>,
        timeout_ms: Option<u64>,
        read_only: bool,
        cypher: Option<u8>,
    ) -> PyResult<PyTable> {
        let params = params_of(py, params_json)?;
        let opts = options(timeout_ms, cypher)?;
        let stmt = parse_stmt(py, &query)?;
        let ordered = stmt.orders_rows();
        let result = py.detach(|| {
            if read_only || !grape::engine::is_updating(&stmt) {
                grape::engine::execute_read(&self.read(), &stmt, &query, &params, &opts)
            } else {
                let mut g = self.graph.write().unwrap_or_else(|p| p.into_inner());
                grape::engine::execute(&mut g, &stmt, &query, &params, &opts)
            }
        });
        result
            .map(|table| PyTable { table, ordered })
            .map_err(|e| exec_error(py, &e, &query))
    }
    /// An independent copy.
    fn copy(&self) -> Graph {
        Graph::wrap(self.snapshot())
    }
    fn node_count(&self) -> usize {
        self.read().node_count()
    }
    fn relationship_count(&self) -> usize {
        self.read().relationship_count()
    }
    /// The schema the graph's data has (labels, types, properties, triples).
    fn schema(&self) -> Schema {
        Schema {
            schema: grape::engine::schema_of(&self.read()),
        }
    }
}

// ---- metrics ----

#[pyfunction]
fn jaro_winkler(a: &str, b: &str) -> f64 {
    grape::metrics::jaro_winkler(a, b)
}

#[pyfunction]
fn normalized_levenshtein(a: &str, b: &str) -> f64 {
    grape::metrics::normalized_levenshtein(a, b)
}

/// `(jaro_winkler, normalized_levenshtein, canonical_fallback)` after `variant`'s
/// preprocessing.
#[pyfunction]
#[pyo3(signature = (reference, prediction, variant = "default"))]
fn text_scores(reference: &str, prediction: &str, variant: &str) -> PyResult<(f64, f64, bool)> {
    let variant = variant.parse().map_err(PyValueError::new_err)?;
    let s = grape::metrics::text_scores(reference, prediction, variant);
    Ok((
        s.jaro_winkler,
        s.normalized_levenshtein,
        s.canonical_fallback,
    ))
}

/// `(ex, ex_strict, jaccard, coverage)` of a generated result against a reference.
#[pyfunction]
fn result_scores(generated: &PyTable, reference: &PyTable, ordered: bool) -> (f64, f64, f64, f64) {
    let rows = grape::metrics::execution_accuracy(&generated.table, &reference.table, ordered);
    let items = grape::metrics::item_scores(&generated.table, &reference.table, ordered);
    (rows.ex, rows.ex_strict, items.jaccard, items.coverage)
}

#[pyfunction]
fn google_bleu(reference: &str, prediction: &str) -> f64 {
    grape::metrics::google_bleu(reference, prediction)
}

#[pyfunction]
#[pyo3(signature = (reference, prediction, variant = "default"))]
fn exact_match(reference: &str, prediction: &str, variant: &str) -> PyResult<f64> {
    let variant = variant.parse().map_err(PyValueError::new_err)?;
    Ok(grape::metrics::exact_match(reference, prediction, variant))
}

#[pyfunction]
fn pass_at_k(coverages: Vec<Option<f64>>, k: usize) -> f64 {
    grape::metrics::pass_at_k(&coverages, k)
}

// ---- evaluation ----

/// The evaluation runner: the report as JSON text (exactly `report.json`'s bytes) and the
/// per-example records as JSON Lines (`examples.jsonl`'s, timings included).
#[pyfunction]
#[pyo3(signature = (dataset, predictions_jsonl, predictions_origin, graph = None, graphs = None,
    schema = None, format = None, k = 1, variant = "default", out = None, progress = false,
    workers = None, timeout_ms = 10_000, types = "strings", schemas = None))]
#[allow(clippy::too_many_arguments)]
fn evaluate(
    py: Python<'_>,
    dataset: PathBuf,
    predictions_jsonl: String,
    predictions_origin: PathBuf,
    graph: Option<&Graph>,
    graphs: Option<PathBuf>,
    schema: Option<&Schema>,
    format: Option<&str>,
    k: usize,
    variant: &str,
    out: Option<PathBuf>,
    progress: bool,
    workers: Option<usize>,
    timeout_ms: u64,
    types: &str,
    schemas: Option<PathBuf>,
) -> PyResult<(String, String)> {
    let format = format
        .map(|f| f.parse().map_err(|e: String| PyValueError::new_err(e)))
        .transpose()?;
    let variant = variant.parse().map_err(PyValueError::new_err)?;
    let types = types_of(types)?;
    let default_graph = graph.map(Graph::snapshot);
    let schema = schema.map(|s| s.schema.clone());
    let run = py.detach(move || -> Result<(String, String), String> {
        let mut examples =
            grape::dataset::read_dataset(&dataset, format).map_err(|e| e.to_string())?;
        if let Some(table) = &schemas {
            grape::dataset::attach_schemas(&mut examples, table).map_err(|e| e.to_string())?;
        }
        let predictions =
            grape::dataset::predictions_from_text(&predictions_origin, &predictions_jsonl)
                .map_err(|e| e.to_string())?;
        let named = grape::eval::load_dataset_graphs(
            &examples,
            graphs.as_deref(),
            default_graph.is_some(),
            types,
        )
        .map_err(|e| e.to_string())?;
        let graphs =
            grape::eval::Graphs::of_run(default_graph.as_ref(), &named, schema, graphs.is_some());
        let mut opts = grape::eval::EvalOptions {
            k: k.max(1),
            variant,
            progress,
            ..Default::default()
        };
        if let Some(w) = workers {
            opts.workers = w.max(1);
        }
        opts.engine.limits.timeout = Some(Duration::from_millis(timeout_ms));
        let (report, records) =
            grape::eval::evaluate(&graphs, &examples, &predictions, &opts, out.as_deref())
                .map_err(|e| format!("writing results: {e}"))?;
        Ok((
            grape::eval::report_json(&report),
            grape::eval::records_jsonl(&records),
        ))
    });
    run.map_err(|e| data_error(py, e))
}

/// `grape compare`: every run after the first against the first, as the comparison's JSON.
#[pyfunction]
#[pyo3(signature = (runs, resamples = 10_000))]
fn compare(py: Python<'_>, runs: Vec<PathBuf>, resamples: usize) -> PyResult<String> {
    let result = py.detach(move || -> Result<String, String> {
        let runs = runs
            .iter()
            .map(|p| grape::eval::compare::Run::read(p))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let opts = grape::eval::compare::CompareOptions {
            resamples: resamples.max(1),
            permutations: resamples.max(1),
            ..Default::default()
        };
        let c = grape::eval::compare::compare(&runs, &opts).map_err(|e| e.to_string())?;
        Ok(grape::eval::compare::comparison_json(&c))
    });
    result.map_err(|e| data_error(py, e))
}

// ---- Bolt ----

/// A Bolt server over a copy of a graph, on a background thread.
#[pyclass(module = "grape._grape", name = "BoltServer", frozen)]
struct BoltServer {
    handle: Mutex<Option<grape::bolt::ServerHandle>>,
    port: u16,
    host: String,
}

#[pymethods]
impl BoltServer {
    #[new]
    #[pyo3(signature = (graph, host = "127.0.0.1", port = 0, user = None, password = None, read_only = false))]
    fn new(
        py: Python<'_>,
        graph: &Graph,
        host: &str,
        port: u16,
        user: Option<String>,
        password: Option<String>,
        read_only: bool,
    ) -> PyResult<BoltServer> {
        let config = grape::bolt::Config {
            auth: user.zip(password),
            read_only,
            ..Default::default()
        };
        let g = graph.snapshot();
        let addr = format!("{host}:{port}");
        let server = py
            .detach(|| grape::bolt::Server::bind(&addr, g, config))
            .map_err(|e| data_error(py, format!("cannot listen on {addr}: {e}")))?;
        let handle = server.spawn();
        let port = handle.local_addr().port();
        Ok(BoltServer {
            handle: Mutex::new(Some(handle)),
            port,
            host: host.to_string(),
        })
    }
    #[getter]
    fn port(&self) -> u16 {
        self.port
    }
    #[getter]
    fn host(&self) -> &str {
        &self.host
    }
    /// The served graph as it is now (a copy).
    fn graph(&self) -> PyResult<Graph> {
        let h = self.handle.lock().unwrap_or_else(|p| p.into_inner());
        match h.as_ref() {
            Some(h) => Ok(Graph::wrap(Arc::unwrap_or_clone(h.graph()))),
            None => Err(PyRuntimeError::new_err("the server is closed")),
        }
    }
    /// Stops accepting connections and ends the server thread.
    fn close(&self, py: Python<'_>) {
        let taken = self.handle.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(mut h) = taken {
            py.detach(move || h.shutdown());
        }
    }
    #[getter]
    fn closed(&self) -> bool {
        self.handle
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_none()
    }
}

#[pymodule]
fn _grape(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Statement>()?;
    m.add_class::<Schema>()?;
    m.add_class::<Graph>()?;
    m.add_class::<PyTable>()?;
    m.add_class::<BoltServer>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(jaro_winkler, m)?)?;
    m.add_function(wrap_pyfunction!(normalized_levenshtein, m)?)?;
    m.add_function(wrap_pyfunction!(text_scores, m)?)?;
    m.add_function(wrap_pyfunction!(result_scores, m)?)?;
    m.add_function(wrap_pyfunction!(pass_at_k, m)?)?;
    m.add_function(wrap_pyfunction!(google_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(exact_match, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    Ok(())
}
