//! `grape serve mcp`: a graph as an MCP server with mcp-neo4j-cypher 0.6's tool contract —
//! `get_neo4j_schema` (`sample_size`), `read_neo4j_cypher` and `write_neo4j_cypher` (`query`,
//! `params`) with the same names (prefixed `NAMESPACE-` when a namespace is set), argument
//! schemas and output shapes (JSON text: records as objects, nodes as their property maps,
//! relationships as `[start, type, end]`, temporal values as ISO text, lists of 128 or more
//! items left out, as the driver's `Record.data()` and mcp-neo4j-cypher's sanitizer give) —
//! plus `search_values`, which finds property values containing a text (entity linking,
//! CypherTurn's SEARCH_VALUES). The read tool refuses every query grape's access analysis does
//! not class as a read; the write tool is absent in read-only mode; results are cut at
//! `max_rows` rows and about `token_limit` tokens (4 characters each); every query has a time
//! limit. Transports: stdio, and streamable HTTP at `/mcp` bound to loopback by default.

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

/// Server settings.
#[derive(Clone, Debug)]
pub struct McpConfig {
    /// Tool-name prefix (`NS-`); empty for none.
    pub namespace: String,
    /// Leave out the write tool.
    pub read_only: bool,
    /// Most rows a read returns (the rest are cut, and the reply says so).
    pub max_rows: usize,
    /// Cut replies at about this many tokens (4 characters each); `None`: no cut. The
    /// default, [`DEFAULT_TOKEN_LIMIT`], keeps one reply within 1 MiB.
    pub token_limit: Option<usize>,
    /// A tool call that has not answered after this long gets an error reply (the query's own
    /// time limit normally ends it first); `None`: wait.
    pub call_timeout: Option<std::time::Duration>,
    /// Let the read tool run `LOAD CSV` (inside the engine's import directory, which must be
    /// set too). Off by default: an agent's read access does not include the server's files.
    pub load_csv_in_reads: bool,
    /// The largest JSON-RPC message accepted over stdio; a longer line gets an Invalid
    /// Request error (-32600) and is skipped.
    pub max_message_bytes: usize,
    /// Sample size `get_neo4j_schema` reports when none is given (mcp-neo4j-cypher's
    /// `NEO4J_SCHEMA_SAMPLE_SIZE`; grape's schema is exact, so it only echoes).
    pub sample_size: i64,
}

impl Default for McpConfig {
    fn default() -> Self {
        McpConfig {
            namespace: String::new(),
            read_only: false,
            max_rows: 1000,
            token_limit: Some(DEFAULT_TOKEN_LIMIT),
            call_timeout: Some(std::time::Duration::from_secs(60)),
            max_message_bytes: 4 << 20,
            load_csv_in_reads: false,
            sample_size: 1000,
        }
    }
}

/// The default reply limit in tokens (4 characters each): 1 MiB of text.
pub const DEFAULT_TOKEN_LIMIT: usize = 1 << 18;

/// The MCP handler over a backend.
#[derive(Clone)]
pub struct GraphServer {
    backend: Arc<dyn Backend>,
    config: McpConfig,
    prefix: String,
    /// Set when the client cancels the call this (per-call) clone serves, or goes away.
    cancel: Option<Arc<AtomicBool>>,
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

fn annotations(title: &str, read_only: bool) -> ToolAnnotations {
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

/// Whether a statement writes (access `w`, `rw` or `s`: the check mcp-neo4j-cypher makes
/// with EXPLAIN, with schema changes counted as writes).
fn writes(stmt: &crate::syntax::Statement) -> bool {
    use crate::analysis::Access;
    matches!(
        crate::analysis::access(stmt),
        Access::Write | Access::ReadWrite | Access::Schema
    )
}

/// Sets the flag when dropped: a call's query stops once nobody waits for its answer.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

fn text_result(text: String) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(text)]).into()
}

fn error_result(text: String) -> CallToolResponse {
    CallToolResult::error(vec![ContentBlock::text(text)]).into()
}

impl GraphServer {
    /// The server's settings.
    pub fn config(&self) -> &McpConfig {
        &self.config
    }

    /// What the server tells a client it is for, naming its tools as it lists them (with the
    /// namespace's prefix).
    pub fn instructions(&self) -> String {
        let p = &self.prefix;
        format!(
            "A Neo4j-style graph: read its schema with {p}get_neo4j_schema, query it with \
             {p}read_neo4j_cypher, find entity names with {p}search_values."
        )
    }

    pub fn new(backend: Arc<dyn Backend>, config: McpConfig) -> GraphServer {
        let prefix = match config.namespace.as_str() {
            "" => String::new(),
            ns if ns.ends_with('-') => ns.to_string(),
            ns => format!("{ns}-"),
        };
        GraphServer {
            backend,
            config,
            prefix,
            cancel: None,
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
    fn run_query(&self, query: &str, params: &Params) -> Result<Table, BackendError> {
        match &self.cancel {
            Some(c) => self.backend.run_cancellable(query, params, c),
            None => self.backend.run(query, params),
        }
    }

    /// The tools this server offers.
    pub fn tools(&self) -> Vec<Tool> {
        let query_schema = schema_of(
            &[
                ("query", "string", "The Cypher query to execute."),
                (
                    "params",
                    "object",
                    "The parameters to pass to the Cypher query.",
                ),
            ],
            &["query"],
        );
        let mut tools = vec![
            Tool::new(
                format!("{}get_neo4j_schema", self.prefix),
                "Returns nodes, their properties (with types and indexed flags), and relationships \
                 using APOC's schema inspection.",
                schema_of(
                    &[(
                        "sample_size",
                        "integer",
                        "The sample size used to infer the graph schema.",
                    )],
                    &[],
                ),
            )
            .with_annotations(annotations("Get Neo4j Schema", true)),
            Tool::new(
                format!("{}read_neo4j_cypher", self.prefix),
                "Execute a read Cypher query on the neo4j database.",
                query_schema.clone(),
            )
            .with_annotations(annotations("Read Neo4j Cypher", true)),
        ];
        if !self.config.read_only {
            tools.push(
                Tool::new(
                    format!("{}write_neo4j_cypher", self.prefix),
                    "Execute a write Cypher query on the neo4j database.",
                    query_schema,
                )
                .with_annotations(annotations("Write Neo4j Cypher", false)),
            );
        }
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
        tools
    }

    fn truncate(&self, text: String) -> String {
        match self.config.token_limit {
            Some(limit) => super::cut(text, limit.saturating_mul(4)),
            None => text,
        }
    }

    /// Runs one tool call (blocking); `Err` is a protocol error (unknown tool, bad arguments),
    /// a failing query is a tool result with `isError`.
    pub fn call(
        &self,
        name: &str,
        args: &Map<String, Json>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(tool) = name.strip_prefix(self.prefix.as_str()) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{name}`"),
                None,
            ));
        };
        let params = || -> Result<Params, ErrorData> {
            match args.get("params") {
                None | Some(Json::Null) => Ok(Params::new()),
                Some(p @ Json::Object(_)) => crate::engine::params_from_json(&p.to_string())
                    .map_err(|e| ErrorData::invalid_params(format!("params: {e}"), None)),
                Some(_) => Err(ErrorData::invalid_params("params must be an object", None)),
            }
        };
        let query = || -> Result<&str, ErrorData> {
            args.get("query")
                .and_then(Json::as_str)
                .ok_or_else(|| ErrorData::invalid_params("`query` (a string) is required", None))
        };
        match tool {
            "get_neo4j_schema" => {
                let sample = args
                    .get("sample_size")
                    .and_then(Json::as_i64)
                    .filter(|s| *s != 0)
                    .unwrap_or(self.config.sample_size);
                let q =
                    format!("CALL apoc.meta.schema({{sample: {sample}}}) YIELD value RETURN value");
                match self.run_query(&q, &Params::new()) {
                    Ok(t) => {
                        let v = t
                            .rows
                            .first()
                            .and_then(|r| r.first())
                            .cloned()
                            .unwrap_or_default();
                        let raw = crate::graph::import::value_to_json(&v, &t);
                        Ok(text_result(clean_schema(&raw).to_string()))
                    }
                    Err(e) => Ok(error_result(format!("Neo4j Error: {e}"))),
                }
            }
            "read_neo4j_cypher" => {
                let (q, p) = (query()?, params()?);
                match crate::syntax::parse(q) {
                    Ok(stmt) if writes(&stmt) => {
                        return Ok(error_result(
                            "Only MATCH queries are allowed for read-query".into(),
                        ))
                    }
                    Ok(stmt)
                        if !self.config.load_csv_in_reads
                            && crate::engine::uses_load_csv(&stmt) =>
                    {
                        return Ok(error_result(
                            "LOAD CSV is not allowed for read-query: it reads the server's files \
                             (the server must be started with --import-dir and \
                             --allow-load-csv-in-reads)"
                                .into(),
                        ))
                    }
                    _ => {}
                }
                match self.run_query(q, &p) {
                    Ok(mut t) => {
                        let cut = t.rows.len() > self.config.max_rows;
                        t.rows.truncate(self.config.max_rows);
                        let mut text = records_json(&t).to_string();
                        if cut {
                            text = format!(
                                "{text}\n(cut at {} rows: add LIMIT or aggregate)",
                                self.config.max_rows
                            );
                        }
                        Ok(text_result(self.truncate(text)))
                    }
                    Err(e) => Ok(error_result(format!("Neo4j Error: {e}\n{q}\n{p:?}"))),
                }
            }
            "write_neo4j_cypher" if !self.config.read_only => {
                let (q, p) = (query()?, params()?);
                match crate::syntax::parse(q) {
                    Ok(stmt) if !writes(&stmt) => {
                        return Ok(error_result(
                            "Only write queries are allowed for write-query".into(),
                        ))
                    }
                    _ => {}
                }
                match self.run_query(q, &p) {
                    Ok(t) => {
                        let s = &t.stats;
                        Ok(text_result(
                            json!({
                                "_contains_updates": s.contains_updates(),
                                "nodes_created": s.nodes_created,
                                "nodes_deleted": s.nodes_deleted,
                                "relationships_created": s.relationships_created,
                                "relationships_deleted": s.relationships_deleted,
                                "properties_set": s.properties_set,
                                "labels_added": s.labels_added,
                                "labels_removed": s.labels_removed,
                                "indexes_added": s.indexes_added,
                                "indexes_removed": s.indexes_removed,
                                "constraints_added": s.constraints_added,
                                "constraints_removed": s.constraints_removed,
                            })
                            .to_string(),
                        ))
                    }
                    Err(e) => Ok(error_result(format!("Neo4j Error: {e}\n{q}\n{p:?}"))),
                }
            }
            "search_values" => {
                let text = args
                    .get("text")
                    .and_then(Json::as_str)
                    .filter(|t| !t.trim().is_empty())
                    .ok_or_else(|| {
                        ErrorData::invalid_params("`text` (a string) is required", None)
                    })?;
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
                    Ok(t) => Ok(text_result(self.truncate(records_json(&t).to_string()))),
                    Err(e) => Ok(error_result(format!("Neo4j Error: {e}"))),
                }
            }
            _ => Err(ErrorData::invalid_params(
                format!("unknown tool `{name}`"),
                None,
            )),
        }
    }
}

/// mcp-neo4j-cypher's `clean_schema`: per label or type, `type`, `count`, `labels`,
/// `properties` (`indexed`, `type`) and `relationships` (`direction`, `labels`, `properties`).
fn clean_schema(raw: &Json) -> Json {
    let props = |p: Option<&Json>| -> Option<Json> {
        let m = p?.as_object()?;
        let out: Map<String, Json> = m
            .iter()
            .filter_map(|(k, info)| {
                let mut cp = Map::new();
                for f in ["indexed", "type"] {
                    if let Some(x) = info.get(f) {
                        cp.insert(f.into(), x.clone());
                    }
                }
                (!cp.is_empty()).then(|| (k.clone(), Json::Object(cp)))
            })
            .collect();
        (!out.is_empty()).then_some(Json::Object(out))
    };
    let Some(entries) = raw.as_object() else {
        return json!({});
    };
    let mut cleaned = Map::new();
    for (key, entry) in entries {
        let mut e = Map::new();
        e.insert(
            "type".into(),
            entry.get("type").cloned().unwrap_or(Json::Null),
        );
        if let Some(c) = entry.get("count") {
            e.insert("count".into(), c.clone());
        }
        if let Some(l) = entry
            .get("labels")
            .filter(|l| l.as_array().is_some_and(|a| !a.is_empty()))
        {
            e.insert("labels".into(), l.clone());
        }
        if let Some(p) = props(entry.get("properties")) {
            e.insert("properties".into(), p);
        }
        if let Some(rels) = entry.get("relationships").and_then(Json::as_object) {
            let mut out = Map::new();
            for (name, rel) in rels {
                let mut cr = Map::new();
                if let Some(d) = rel.get("direction") {
                    cr.insert("direction".into(), d.clone());
                }
                if let Some(l) = rel
                    .get("labels")
                    .filter(|l| l.as_array().is_some_and(|a| !a.is_empty()))
                {
                    cr.insert("labels".into(), l.clone());
                }
                if let Some(p) = props(rel.get("properties")) {
                    cr.insert("properties".into(), p);
                }
                if !cr.is_empty() {
                    out.insert(name.clone(), Json::Object(cr));
                }
            }
            if !out.is_empty() {
                e.insert("relationships".into(), Json::Object(out));
            }
        }
        cleaned.insert(key.clone(), Json::Object(e));
    }
    Json::Object(cleaned)
}

impl ServerHandler for GraphServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("grape-mcp", env!("CARGO_PKG_VERSION")))
            .with_instructions(self.instructions())
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
