//! `grape serve mcp`: a graph as an MCP server with the tool contract of one of Neo4j's two MCP
//! servers ([`Contract`]):
//! - the official server (`neo4j/mcp`, the default, `official.rs`): `get-schema`,
//!   `read-cypher`, `write-cypher` (and `list-gds-procedures` where GDS is present);
//! - mcp-neo4j-cypher 0.6: `get_neo4j_schema` (`sample_size`), `read_neo4j_cypher` and
//!   `write_neo4j_cypher` (`query`, `params`), prefixed `NAMESPACE-` when a namespace is set.
//!
//! Names, descriptions, input schemas, annotations, reply and error texts are the real
//! servers' (the tests compare them over the Neo4j oracle): each reply is what the server's
//! driver and JSON encoder make of the records (`driver_view.rs`). On top, grape's
//! guard (`guard.rs`) keeps the read tools inside the graph whatever `EXPLAIN` says;
//! `search_values` (finding property values that contain a text, CypherTurn's SEARCH_VALUES)
//! is offered when asked for. Replies are cut at `token_limit` tokens (tiktoken's counts, as
//! mcp-neo4j-cypher cuts them) and, as a safeguard, at `max_reply_bytes`; every query has
//! a time limit. Transports: stdio, and streamable HTTP at `/mcp` bound to loopback by
//! default.

use super::driver_view::Dv;
use super::pydantic;
use crate::backend::{Backend, BackendError, Memory};
use crate::engine::{Params, Table};
use crate::value::{Entities, Value};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Map, Value as Json};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Which Neo4j MCP server's tools a server offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Contract {
    /// Neo4j's official MCP server (`neo4j/mcp`, Go): the one Neo4j's documentation sets
    /// agents up with, so the default.
    #[default]
    Neo4jMcp,
    /// mcp-neo4j-cypher (Neo4j Labs, Python), 0.6.
    McpNeo4jCypher,
}

impl Contract {
    /// The name the real server gives itself when a client connects.
    pub fn server_name(self) -> &'static str {
        match self {
            Contract::Neo4jMcp => "neo4j-mcp",
            Contract::McpNeo4jCypher => "mcp-neo4j-cypher",
        }
    }
}

impl std::str::FromStr for Contract {
    type Err = String;
    fn from_str(s: &str) -> Result<Contract, String> {
        match s {
            "neo4j-mcp" | "official" => Ok(Contract::Neo4jMcp),
            "mcp-neo4j-cypher" => Ok(Contract::McpNeo4jCypher),
            other => Err(format!(
                "unknown contract `{other}`: expected neo4j-mcp or mcp-neo4j-cypher"
            )),
        }
    }
}

/// Server settings.
#[derive(Clone, Debug)]
pub struct McpConfig {
    /// Whose tools: the official server's or mcp-neo4j-cypher's.
    pub contract: Contract,
    /// Tool-name prefix (`NS-`, mcp-neo4j-cypher's contract); empty for none.
    pub namespace: String,
    /// Leave out the write tool.
    pub read_only: bool,
    /// Offer `search_values` too (grape's own tool; not part of either contract).
    pub search_values: bool,
    /// Most rows a read returns (the rest are cut, and the reply says so); `None`: all, as
    /// both real servers do.
    pub max_rows: Option<usize>,
    /// Cut a read's reply at this many `cl100k_base` tokens, as mcp-neo4j-cypher's
    /// `NEO4J_RESPONSE_TOKEN_LIMIT` does; `None` (the default, as both real servers): no cut.
    pub token_limit: Option<usize>,
    /// grape's safeguard: a reply longer than this many bytes is cut (with `…`); `None`: no
    /// cut. The default, [`DEFAULT_MAX_REPLY_BYTES`], is 1 MiB.
    pub max_reply_bytes: Option<usize>,
    /// A tool call that has not answered after this long gets an error reply (the query's own
    /// time limit normally ends it first); `None`: wait.
    pub call_timeout: Option<std::time::Duration>,
    /// Let the read tool run `LOAD CSV` (inside the engine's import directory, which must be
    /// set too). Off by default: an agent's read access does not include the server's files.
    pub load_csv_in_reads: bool,
    /// The largest JSON-RPC message accepted over stdio; a longer line gets an Invalid
    /// Request error (-32600) and is skipped.
    pub max_message_bytes: usize,
    /// The sample `apoc.meta.schema` reads per label when a schema call gives none
    /// (`NEO4J_SCHEMA_SAMPLE_SIZE`; `-1`: the whole graph).
    pub sample_size: i64,
    /// The credentials the official contract's HTTP transport accepts (its requests carry
    /// Basic or Bearer authentication, which the real server hands on to the database); none:
    /// any, as a database without authentication takes them.
    pub http_credentials: Vec<HttpCredential>,
}

/// A credential the HTTP transport accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HttpCredential {
    Basic { user: String, password: String },
    Bearer(String),
}

impl HttpCredential {
    /// Whether an `Authorization` header carries this credential.
    pub fn matches(&self, header: &str) -> bool {
        match (self, header.split_once(' ')) {
            (HttpCredential::Bearer(t), Some(("Bearer", given))) => given.trim() == t,
            (HttpCredential::Basic { user, password }, Some(("Basic", given))) => {
                super::http_basic(given.trim()).is_some_and(|(u, p)| &u == user && &p == password)
            }
            _ => false,
        }
    }
}

impl Default for McpConfig {
    fn default() -> Self {
        McpConfig {
            contract: Contract::default(),
            namespace: String::new(),
            read_only: false,
            search_values: false,
            max_rows: None,
            token_limit: None,
            max_reply_bytes: Some(DEFAULT_MAX_REPLY_BYTES),
            call_timeout: Some(std::time::Duration::from_secs(60)),
            max_message_bytes: 4 << 20,
            load_csv_in_reads: false,
            sample_size: 100,
            http_credentials: Vec::new(),
        }
    }
}

/// The default cut of a reply: 1 MiB of text.
pub const DEFAULT_MAX_REPLY_BYTES: usize = 1 << 20;

/// The MCP handler over a backend.
#[derive(Clone)]
pub struct GraphServer {
    backend: Arc<dyn Backend>,
    config: McpConfig,
    prefix: String,
    /// Set when the client cancels the call this (per-call) clone serves, or goes away.
    cancel: Option<Arc<AtomicBool>>,
    /// Whether the graph has GDS's procedures (asked once).
    gds: Arc<std::sync::OnceLock<bool>>,
}

fn schema_of(props: &[(&str, &str, &str)], required: &[&str]) -> Map<String, Json> {
    let mut p = Map::new();
    for (name, ty, desc) in props {
        let mut s = json!({"type": ty, "description": desc});
        if *ty == "object" {
            s["additionalProperties"] = json!(true);
        }
        p.insert(name.to_string(), s);
    }
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    m.insert("properties".into(), Json::Object(p));
    m.insert("required".into(), json!(required));
    m
}

pub(crate) fn annotations(title: &str, read_only: bool) -> ToolAnnotations {
    let mut a = ToolAnnotations::default();
    a.title = Some(title.to_string());
    a.read_only_hint = Some(read_only);
    a.destructive_hint = Some(!read_only);
    a.idempotent_hint = Some(read_only);
    a.open_world_hint = Some(true);
    a
}

/// A value as the Neo4j Python driver's `Record.data()` gives it, then `json.dumps(default=str)`.
pub fn driver_json(v: &Value, e: &dyn Entities) -> Json {
    let props = |m: std::collections::BTreeMap<Arc<str>, Value>| {
        Json::Object(
            m.iter()
                .map(|(k, x)| (k.to_string(), driver_json(x, e)))
                .collect(),
        )
    };
    match v {
        Value::Node(n) => props(e.node_props(*n)),
        Value::Relationship(r) => {
            let (a, b) = e
                .rel_endpoints(*r)
                .map(|(a, b)| (props(e.node_props(a)), props(e.node_props(b))))
                .unwrap_or((Json::Null, Json::Null));
            json!([a, e.rel_type(*r).map(|t| t.to_string()), b])
        }
        Value::Path(p) => {
            let mut out = Vec::new();
            for (i, n) in p.nodes.iter().enumerate() {
                out.push(props(e.node_props(*n)));
                if let Some(r) = p.rels.get(i) {
                    out.push(Json::String(
                        e.rel_type(*r).map(|t| t.to_string()).unwrap_or_default(),
                    ));
                }
            }
            Json::Array(out)
        }
        Value::List(items) => Json::Array(items.iter().map(|x| driver_json(x, e)).collect()),
        Value::Map(m) => props(m.clone()),
        Value::Temporal(t) => Json::String(t.to_string()),
        // The Python driver's points are tuples of their coordinates: JSON arrays.
        Value::Point(p) => Json::Array(
            p.coordinates()
                .into_iter()
                .map(|c| crate::graph::import::value_to_json(&Value::Float(c), e))
                .collect(),
        ),
        Value::Float(f) if !f.is_finite() => Json::String(crate::value::format_float(*f)),
        other => crate::graph::import::value_to_json(other, e),
    }
}

/// mcp-neo4j-cypher's sanitizer: map entries and list items holding lists of 128 or more
/// items are left out.
fn sanitize(j: Json) -> Option<Json> {
    match j {
        Json::Object(m) => Some(Json::Object(
            m.into_iter()
                .filter_map(|(k, v)| sanitize(v).map(|v| (k, v)))
                .collect(),
        )),
        Json::Array(a) if a.len() >= 128 => None,
        Json::Array(a) => Some(Json::Array(a.into_iter().filter_map(sanitize).collect())),
        other => Some(other),
    }
}

/// The records of a result as mcp-neo4j-cypher returns them: `[{column: value}, …]`.
pub fn records_json(t: &Table) -> Json {
    Json::Array(
        t.rows
            .iter()
            .map(|r| {
                let rec: Map<String, Json> = t
                    .columns
                    .iter()
                    .zip(r)
                    .map(|(c, v)| (c.clone(), driver_json(v, t)))
                    .collect();
                sanitize(Json::Object(rec)).unwrap_or(Json::Null)
            })
            .collect(),
    )
}

/// Sets the flag when dropped: a call's query stops once nobody waits for its answer.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

pub(crate) fn text_result(text: String) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(text)]).into()
}

pub(crate) fn error_result(text: String) -> CallToolResponse {
    CallToolResult::error(vec![ContentBlock::text(text)]).into()
}

impl GraphServer {
    /// The server's settings.
    pub fn config(&self) -> &McpConfig {
        &self.config
    }

    /// What the server tells a client it is for: the official server's text; none for
    /// mcp-neo4j-cypher's, unless `search_values` is offered (then grape's, naming the tools
    /// as it lists them).
    pub fn instructions(&self) -> Option<String> {
        let p = &self.prefix;
        match self.config.contract {
            Contract::Neo4jMcp => Some(super::official::INSTRUCTIONS.to_string()),
            Contract::McpNeo4jCypher if self.config.search_values => Some(format!(
                "A Neo4j-style graph: read its schema with {p}get_neo4j_schema, query it with \
                 {p}read_neo4j_cypher, find entity names with {p}search_values."
            )),
            Contract::McpNeo4jCypher => None,
        }
    }

    /// The backend the tools query.
    pub(crate) fn backend(&self) -> &dyn Backend {
        &*self.backend
    }

    /// Whether the graph has GDS (`RETURN gds.version()` answers a string), as the official
    /// server asks when it starts.
    pub(crate) fn has_gds(&self) -> bool {
        *self.gds.get_or_init(|| {
            matches!(
                self.backend.run("RETURN gds.version() as gdsVersion", &Params::new()),
                Ok(t) if matches!(t.rows.first().and_then(|r| r.first()), Some(Value::String(_)))
            )
        })
    }

    /// Why a read tool refuses `query` ([`super::guard`]), if it does.
    pub(crate) fn guard_refusal(&self, query: &str) -> Option<String> {
        super::guard::refusal(query, self.config.load_csv_in_reads)
    }

    pub fn new(backend: Arc<dyn Backend>, config: McpConfig) -> GraphServer {
        let prefix = match config.namespace.as_str() {
            _ if config.contract == Contract::Neo4jMcp => String::new(),
            "" => String::new(),
            ns if ns.ends_with('-') => ns.to_string(),
            ns => format!("{ns}-"),
        };
        GraphServer {
            backend,
            config,
            prefix,
            cancel: None,
            gds: Arc::new(std::sync::OnceLock::new()),
        }
    }

    /// A server over an in-memory graph.
    pub fn over_graph(
        graph: crate::graph::Graph,
        opts: crate::engine::Options,
        config: McpConfig,
    ) -> GraphServer {
        GraphServer::new(Arc::new(Memory::with_options(graph, opts)), config)
    }

    /// Runs a query on the backend, cancellable when this clone serves a call.
    pub(crate) fn run_query(&self, query: &str, params: &Params) -> Result<Table, BackendError> {
        match &self.cancel {
            Some(c) => self.backend.run_cancellable(query, params, c),
            None => self.backend.run(query, params),
        }
    }

    /// The tools this server offers, as its contract lists them.
    pub fn tools(&self) -> Vec<Tool> {
        let mut tools = match self.config.contract {
            Contract::Neo4jMcp => super::official::tools(self.config.read_only, self.has_gds()),
            Contract::McpNeo4jCypher => self.cypher_tools(),
        };
        if self.config.search_values {
            tools.push(
                Tool::new(
                    format!("{}search_values", self.prefix),
                    "Find property values that contain a text (case-insensitive), to link the \
                     entities of a question to the graph: returns [{labels, property, value}].",
                    schema_of(
                        &[
                            ("text", "string", "The text to look for."),
                            ("label", "string", "Only nodes with this label."),
                            ("property", "string", "Only this property."),
                            ("limit", "integer", "Most values to return (default 20)."),
                        ],
                        &["text"],
                    ),
                )
                .with_annotations(annotations("Search Values", true)),
            );
        }
        tools
    }

    /// mcp-neo4j-cypher's tools, as FastMCP lists them.
    fn cypher_tools(&self) -> Vec<Tool> {
        let fastmcp_meta = || {
            let mut m = Map::new();
            m.insert("_fastmcp".into(), json!({"tags": []}));
            rmcp::model::MetaObject(m)
        };
        let query_schema = json!({
            "properties": {
                "query": {"description": "The Cypher query to execute.", "type": "string"},
                "params": {
                    "additionalProperties": true,
                    "default": {},
                    "description": "The parameters to pass to the Cypher query.",
                    "type": "object"
                }
            },
            "required": ["query"],
            "type": "object"
        });
        let query_schema = query_schema.as_object().cloned().unwrap_or_default();
        let schema_schema = json!({
            "properties": {
                "sample_size": {
                    "default": self.config.sample_size,
                    "description": "The sample size used to infer the graph schema. Larger samples are slower, but more accurate. Smaller samples are faster, but might miss information.",
                    "type": "integer"
                }
            },
            "type": "object"
        });
        let tool =
            |name: &str, title: &str, description: &str, schema: Map<String, Json>, read: bool| {
                let mut t = Tool::new(
                    format!("{}{name}", self.prefix),
                    description.to_string(),
                    schema,
                )
                .with_annotations(annotations(title, read));
                t.title = Some(title.to_string());
                t.meta = Some(fastmcp_meta());
                t
            };
        let mut tools = vec![
            tool(
                "get_neo4j_schema",
                "Get Neo4j Schema",
                "Returns nodes, their properties (with types and indexed flags), and relationships\nusing APOC's schema inspection.\n\nYou should only provide a `sample_size` value if requested by the user, or tuning the retrieval performance.\n\nPerformance Notes:\n    - If `sample_size` is not provided, uses the server's default sample setting defined in the server configuration.\n    - If retrieving the schema times out, try lowering the sample size, e.g. `sample_size=100`.\n    - To sample the entire graph use `sample_size=-1`.",
                schema_schema.as_object().cloned().unwrap_or_default(),
                true,
            ),
            tool(
                "read_neo4j_cypher",
                "Read Neo4j Cypher",
                "Execute a read Cypher query on the neo4j database.",
                query_schema.clone(),
                true,
            ),
        ];
        if !self.config.read_only {
            tools.push(tool(
                "write_neo4j_cypher",
                "Write Neo4j Cypher",
                "Execute a write Cypher query on the neo4j database.",
                query_schema,
                false,
            ));
        }
        tools
    }

    /// A reply of the official contract's tools cut at the limits grape was given (the real
    /// server has none).
    pub(crate) fn cut_reply(&self, text: String) -> Result<String, String> {
        self.truncate(text)
    }

    /// A read's reply cut at the token limit (tiktoken's `ValueError` text where the reply
    /// holds a special token's text, as mcp-neo4j-cypher meets it), then at the byte limit.
    fn truncate(&self, text: String) -> Result<String, String> {
        let text = match self.config.token_limit {
            Some(limit) => super::tokens::truncate_to_tokens(&text, limit)?,
            None => text,
        };
        Ok(match self.config.max_reply_bytes {
            Some(max) => super::cut(text, max),
            None => text,
        })
    }

    /// Runs one tool call (blocking); `Err` is a protocol error (an unknown tool), a failing
    /// query is a tool result with `isError`, with the contract's texts.
    pub fn call(
        &self,
        name: &str,
        args: &Map<String, Json>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.config.search_values && name == format!("{}search_values", self.prefix) {
            return self.search_values(args);
        }
        match self.config.contract {
            Contract::Neo4jMcp => self.call_official(name, args),
            Contract::McpNeo4jCypher => self.call_cypher(name, args),
        }
    }

    /// One call of mcp-neo4j-cypher's tools.
    fn call_cypher(
        &self,
        name: &str,
        args: &Map<String, Json>,
    ) -> Result<CallToolResponse, ErrorData> {
        // FastMCP answers an unknown tool with an error result, not a protocol error.
        let unknown = || Ok(error_result(format!("Unknown tool: {name}")));
        let Some(tool) = name.strip_prefix(self.prefix.as_str()) else {
            return unknown();
        };
        // A non-ToolError exception: FastMCP names the tool.
        let failed =
            |text: String| Ok(error_result(format!("Error calling tool '{name}': {text}")));
        match tool {
            "get_neo4j_schema" => {
                if let Some(e) =
                    pydantic::check(name, args, &[("sample_size", pydantic::Want::Int, false)])
                {
                    return Ok(error_result(e));
                }
                let sample = args
                    .get("sample_size")
                    .and_then(Json::as_i64)
                    .filter(|s| *s != 0)
                    .unwrap_or(self.config.sample_size);
                let q =
                    format!("CALL apoc.meta.schema({{sample: {sample}}}) YIELD value RETURN value");
                match self.run_query(&q, &Params::new()) {
                    Ok(t) => {
                        let raw = t
                            .rows
                            .first()
                            .and_then(|r| r.first())
                            .map(|v| super::driver_view::python_view(v, &t))
                            .unwrap_or(Dv::Null);
                        Ok(text_result(super::driver_view::python_dumps(
                            &clean_schema(raw),
                        )))
                    }
                    Err(e) => {
                        let is_client = e
                            .code
                            .as_deref()
                            .is_some_and(|c| c.starts_with("Neo.ClientError."));
                        let text = if e.code.as_deref()
                            == Some("Neo.ClientError.Procedure.ProcedureNotFound")
                        {
                            "Neo4j Client Error: This instance of Neo4j does not have the APOC plugin installed. Please install and enable the APOC plugin to use the `get_neo4j_schema` tool.".to_string()
                        } else if is_client {
                            format!("Neo4j Client Error: {}", python_driver_error(&e))
                        } else {
                            format!("Neo4j Error: {}", python_driver_error(&e))
                        };
                        Ok(error_result(text))
                    }
                }
            }
            "read_neo4j_cypher" | "write_neo4j_cypher" => {
                let read = tool == "read_neo4j_cypher";
                if read || !self.config.read_only {
                    if let Some(e) = pydantic::check(
                        name,
                        args,
                        &[
                            ("query", pydantic::Want::Str, true),
                            ("params", pydantic::Want::Dict, false),
                        ],
                    ) {
                        return Ok(error_result(e));
                    }
                } else {
                    return unknown();
                }
                let q = args.get("query").and_then(Json::as_str).unwrap_or_default();
                let (p, p_repr) = match args.get("params") {
                    None | Some(Json::Null) => (Params::new(), "{}".to_string()),
                    Some(j) => match crate::engine::params_from_json(&j.to_string()) {
                        Ok(p) => (
                            p,
                            super::driver_view::python_repr(&super::driver_view::from_json(j)),
                        ),
                        Err(e) => return failed(e.to_string()),
                    },
                };
                // `_is_write_query`: EXPLAIN's query type holds a `w`.
                let writes = match self.backend.query_type(q, &Params::new()) {
                    Ok(ty) => ty.contains('w'),
                    Err(e) => return failed(python_driver_error(&e)),
                };
                if read && writes {
                    return failed("Only MATCH queries are allowed for read-query".into());
                }
                if !read && !writes {
                    return failed("Only write queries are allowed for write-query".into());
                }
                if read {
                    if let Some(refusal) = self.guard_refusal(q) {
                        return failed(refusal);
                    }
                }
                match self.run_query(q, &p) {
                    Ok(mut t) if read => {
                        let cut = self.config.max_rows.filter(|m| t.rows.len() > *m);
                        if let Some(m) = cut {
                            t.rows.truncate(m);
                        }
                        let mut text = records_text(&t);
                        if let Some(m) = cut {
                            text = format!("{text}\n(cut at {m} rows: add LIMIT or aggregate)");
                        }
                        Ok(match self.truncate(text) {
                            Ok(text) => text_result(text),
                            Err(e) => error_result(format!("Error: {e}\n{q}\n{p_repr}")),
                        })
                    }
                    Ok(t) => Ok(text_result(counters_text(&t.stats))),
                    Err(e) => {
                        // The read tool runs each query with a client-side timeout
                        // (`NEO4J_READ_TIMEOUT`): Neo4j ends it with this failure.
                        let e = if read && e.kind == crate::backend::FailureKind::Timeout {
                            read_timed_out()
                        } else {
                            e
                        };
                        Ok(error_result(format!(
                            "Neo4j Error: {}\n{q}\n{p_repr}",
                            python_driver_error(&e)
                        )))
                    }
                }
            }
            _ => unknown(),
        }
    }

    /// grape's `search_values`: property values that contain a text.
    fn search_values(&self, args: &Map<String, Json>) -> Result<CallToolResponse, ErrorData> {
        let text = args
            .get("text")
            .and_then(Json::as_str)
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| ErrorData::invalid_params("`text` (a string) is required", None))?;
        let limit = args
            .get("limit")
            .and_then(Json::as_i64)
            .unwrap_or(20)
            .clamp(1, 1000);
        let label = args.get("label").and_then(Json::as_str);
        let mut p = Params::new();
        p.insert("text".into(), Value::from(text.to_lowercase().as_str()));
        p.insert("limit".into(), Value::Int(limit));
        let node = match label {
            Some(l) => {
                let mut n = String::from("(n:");
                crate::syntax::write_name(&mut n, l);
                n + ")"
            }
            None => "(n)".into(),
        };
        let key_filter = match args.get("property").and_then(Json::as_str) {
            Some(k) => {
                p.insert("key".into(), Value::from(k));
                "WHERE k = $key"
            }
            None => "",
        };
        let q = format!(
            "MATCH {node} UNWIND keys(n) AS k WITH n, k {key_filter} \
             WITH labels(n) AS labels, k, n[k] AS v \
             WHERE v IS NOT NULL AND toLower(toString(v)) CONTAINS $text \
             RETURN DISTINCT labels, k AS property, v AS value \
             ORDER BY size(toString(value)), property, value LIMIT $limit"
        );
        match self.run_query(&q, &p) {
            Ok(t) => Ok(match self.truncate(records_text(&t)) {
                Ok(text) => text_result(text),
                Err(e) => error_result(format!("Error: {e}")),
            }),
            Err(e) => Ok(error_result(format!("Neo4j Error: {e}"))),
        }
    }
}

/// What Neo4j answers a query that outlives the timeout its client gave it.
fn read_timed_out() -> BackendError {
    let generic = crate::engine::GqlStatus::generic();
    let server = crate::backend::ServerFailure {
        code: "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration".into(),
        message: "The transaction has been terminated. Retry your operation in a new \
                  transaction, and you should see a successful result. The transaction has \
                  not completed within the timeout specified at its start by the client. You \
                  may want to retry with a longer timeout. "
            .into(),
        gql_status: generic.code.into(),
        gql_description: generic.description,
    };
    BackendError {
        code: Some(server.code.clone()),
        server: Some(Box::new(server)),
        ..BackendError::new(crate::backend::FailureKind::Timeout, "the read timed out")
    }
}

/// A failure as the Python driver's `str(Neo4jError)` writes it.
fn python_driver_error(e: &BackendError) -> String {
    match (&e.server, &e.code) {
        (Some(s), _) => format!(
            "{{neo4j_code: {}}} {{message: {}}} {{gql_status: {}}} {{gql_status_description: {}}}",
            s.code, s.message, s.gql_status, s.gql_description
        ),
        (None, Some(code)) => {
            let generic = crate::engine::GqlStatus::generic();
            let message = e
                .message
                .strip_prefix(&format!("{code}: "))
                .unwrap_or(&e.message);
            format!(
                "{{neo4j_code: {code}}} {{message: {message}}} {{gql_status: {}}} {{gql_status_description: {}}}",
                generic.code, generic.description
            )
        }
        (None, None) => e.message.clone(),
    }
}

/// The records as mcp-neo4j-cypher's read tool writes them: `Record.data()` of each, lists
/// of 128 or more items left out, `json.dumps(default=str)`.
pub fn records_text(t: &Table) -> String {
    use super::driver_view::{full_nodes, python_view_in, sanitize, Known};
    let mut known = std::collections::HashSet::new();
    let mut records = Vec::with_capacity(t.rows.len());
    for batch in t.rows.chunks(1000) {
        for r in batch {
            r.iter().for_each(|v| full_nodes(v, &mut known));
        }
        for r in batch {
            let rec = Dv::Map(
                t.columns
                    .iter()
                    .zip(r)
                    .map(|(c, v)| (c.clone(), python_view_in(v, t, &Known::Only(&known))))
                    .collect(),
            );
            records.push(sanitize(rec).unwrap_or(Dv::Null));
        }
    }
    super::driver_view::python_dumps(&Dv::List(records))
}

/// The write tool's reply: the summary's counters as the Python driver holds them
/// (`summary.counters.__dict__`), in the order the server sent them.
fn counters_text(s: &crate::engine::Stats) -> String {
    let mut fields = Vec::new();
    if s.contains_updates() {
        fields.push(("_contains_updates".to_string(), Dv::Bool(true)));
        let counts = [
            ("nodes_created", s.nodes_created),
            ("nodes_deleted", s.nodes_deleted),
            ("relationships_created", s.relationships_created),
            ("relationships_deleted", s.relationships_deleted),
            ("properties_set", s.properties_set),
            ("labels_added", s.labels_added),
            ("labels_removed", s.labels_removed),
            ("indexes_added", s.indexes_added),
            ("indexes_removed", s.indexes_removed),
            ("constraints_added", s.constraints_added),
            ("constraints_removed", s.constraints_removed),
        ];
        // The server's map is keyed `nodes-created`: its hash order is the dashed keys'.
        let dashed: Vec<(String, u64)> = counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| (k.replace('_', "-"), *n))
            .collect();
        for (k, n) in crate::value::java_hash_order(dashed.iter().map(|(k, n)| (k, n))) {
            fields.push((k.replace('-', "_"), Dv::Int(*n as i64)));
        }
    }
    super::driver_view::python_dumps(&Dv::Map(fields))
}

/// mcp-neo4j-cypher's `clean_schema`: per label or type, `type`, `count`, `labels`,
/// `properties` (`indexed`, `type`) and `relationships` (`direction`, `labels`, `properties`),
/// empty ones left out, in the order `apoc.meta.schema` gave them.
fn clean_schema(raw: Dv) -> Dv {
    fn get<'a>(m: &'a [(String, Dv)], k: &str) -> Option<&'a Dv> {
        m.iter().find(|(x, _)| x == k).map(|(_, v)| v)
    }
    fn non_empty_list(v: Option<&Dv>) -> Option<&Dv> {
        v.filter(|l| matches!(l, Dv::List(items) if !items.is_empty()))
    }
    fn props(p: Option<&Dv>) -> Option<Dv> {
        let Some(Dv::Map(m)) = p else { return None };
        let out: Vec<(String, Dv)> = m
            .iter()
            .filter_map(|(k, info)| {
                let Dv::Map(info) = info else { return None };
                let cp: Vec<(String, Dv)> = ["indexed", "type"]
                    .iter()
                    .filter_map(|f| get(info, f).map(|x| (f.to_string(), x.clone())))
                    .collect();
                (!cp.is_empty()).then(|| (k.clone(), Dv::Map(cp)))
            })
            .collect();
        (!out.is_empty()).then_some(Dv::Map(out))
    }
    let Dv::Map(entries) = raw else {
        return Dv::Map(Vec::new());
    };
    let mut cleaned = Vec::new();
    for (key, entry) in entries {
        let Dv::Map(entry) = entry else { continue };
        let mut e = vec![(
            "type".to_string(),
            get(&entry, "type").cloned().unwrap_or(Dv::Null),
        )];
        if let Some(c) = get(&entry, "count") {
            e.push(("count".into(), c.clone()));
        }
        if let Some(l) = non_empty_list(get(&entry, "labels")) {
            e.push(("labels".into(), l.clone()));
        }
        if let Some(p) = props(get(&entry, "properties")) {
            e.push(("properties".into(), p));
        }
        if let Some(Dv::Map(rels)) = get(&entry, "relationships") {
            let mut out = Vec::new();
            for (name, rel) in rels {
                let Dv::Map(rel) = rel else { continue };
                let mut cr = Vec::new();
                if let Some(d) = get(rel, "direction") {
                    cr.push(("direction".to_string(), d.clone()));
                }
                if let Some(l) = non_empty_list(get(rel, "labels")) {
                    cr.push(("labels".into(), l.clone()));
                }
                if let Some(p) = props(get(rel, "properties")) {
                    cr.push(("properties".into(), p));
                }
                if !cr.is_empty() {
                    out.push((name.clone(), Dv::Map(cr)));
                }
            }
            if !out.is_empty() {
                e.push(("relationships".into(), Dv::Map(out)));
            }
        }
        cleaned.push((key, Dv::Map(e)));
    }
    Dv::Map(cleaned)
}

impl ServerHandler for GraphServer {
    fn get_info(&self) -> ServerConfig {
        let config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                self.config.contract.server_name(),
                env!("CARGO_PKG_VERSION"),
            ));
        match self.instructions() {
            Some(i) => config.with_instructions(i),
            None => config,
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Over HTTP the official server runs each call with the request's own credentials:
        // the database refuses credentials it does not know.
        if let Some(parts) = context.extensions.get::<hyper::http::request::Parts>() {
            let header = parts
                .headers
                .get(hyper::http::header::AUTHORIZATION)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("");
            let creds = &self.config.http_credentials;
            if self.config.contract == Contract::Neo4jMcp
                && !creds.is_empty()
                && !creds.iter().any(|c| c.matches(header))
            {
                let during = match request.name.as_ref() {
                    "read-cypher" => "error during GetQueryType",
                    "write-cypher" => "failed to execute write query",
                    _ => "failed to execute read query",
                };
                return Ok(error_result(format!(
                    "{during}: Neo4jError: Neo.ClientError.Security.Unauthorized (The client is unauthorized due to authentication failure.)"
                )));
            }
        }
        let mut this = self.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        this.cancel = Some(cancel.clone());
        let args = request.arguments.unwrap_or_default();
        let name = request.name.to_string();
        // Each call runs on its own blocking thread, so one slow call holds up no other; the
        // query stops when the call times out, the client cancels it
        // (`notifications/cancelled`) or the session ends (stdin closed).
        let _stop = StopOnDrop(cancel.clone());
        let call = tokio::task::spawn_blocking(move || this.call(&name, &args));
        let limit = async {
            match self.config.call_timeout {
                Some(t) => tokio::time::sleep(t).await,
                None => std::future::pending().await,
            }
        };
        let joined = tokio::select! {
            j = call => j,
            _ = limit => {
                return Ok(error_result(format!(
                    "the tool call did not finish within {} ms",
                    self.config.call_timeout.unwrap_or_default().as_millis()
                )))
            }
            _ = context.ct.cancelled() => {
                return Err(ErrorData::internal_error("the tool call was cancelled", None))
            }
        };
        joined.map_err(|e| ErrorData::internal_error(format!("the tool call failed: {e}"), None))?
    }
}
