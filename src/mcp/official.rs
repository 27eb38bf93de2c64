//! The official Neo4j MCP server's contract (`neo4j/mcp`, v1.5): tools `get-schema` (no
//! arguments), `read-cypher` and `write-cypher` (`{query, params?}`) and, where the graph has
//! the Graph Data Science procedures, `list-gds-procedures` — with the server's names,
//! descriptions, input schemas, annotations, reply texts and error texts, as the tests compare
//! them with the server itself over the Neo4j oracle (`tests/mcp_contracts.rs`).
//!
//! Replies are what the server's Go code makes of the Go driver's records
//! ([`super::driver_view::go_view`]): `json.MarshalIndent` of the records as maps; the schema
//! is `apoc.meta.schema` reduced to each entry's type, property types and relationships. The
//! read tool runs only what `EXPLAIN` classes as a read (`r`); in read-only mode the write
//! tool is absent, and grape's guard ([`super::guard`]) refuses what reads or writes outside the
//! graph whatever its query type.

use super::driver_view::{go_json, go_view, Dv};
use super::server::{annotations, error_result, text_result, GraphServer};
use crate::engine::{Params, Table};
use rmcp::model::{CallToolResponse, Tool};
use rmcp::ErrorData;
use serde_json::{json, Map, Value as Json};

/// What the server tells a client it is for.
pub(crate) const INSTRUCTIONS: &str = "This is the Neo4j official MCP server and can provide tool calling to interact with your Neo4j database,by inferring the schema with tools like get-schema and executing arbitrary Cypher queries with read-cypher.";

const READ_DESCRIPTION: &str = "read-cypher can run only read-only Cypher statements. For write operations (CREATE, MERGE, DELETE, SET, etc...), schema/admin commands, or PROFILE queries, use write-cypher instead.";

/// The read tool's refusal of a statement that is not a read.
const NOT_A_READ: &str = "read-cypher can only run read-only Cypher statements. For write operations (CREATE, MERGE, DELETE, SET, etc...), schema/admin commands, or PROFILE queries, use write-cypher instead.";

const EMPTY_QUERY: &str = "Query parameter is required and cannot be empty";

/// `get-schema`'s reply on a graph without data.
const NO_SCHEMA: &str = "The get-schema tool executed successfully; however, since the Neo4j instance contains no data, no schema information was returned.";

/// `apoc.meta.schema`'s entries, each with its properties, type and relationships.
const SCHEMA_QUERY: &str = "
        CALL apoc.meta.schema({sample: $sampleSize})
        YIELD value
        UNWIND keys(value) as key
        WITH key, value[key] as value
        RETURN key, value { .properties, .type, .relationships } as value
    ";

/// The GDS procedures `list-gds-procedures` lists.
const GDS_QUERY: &str = "
CALL gds.list() YIELD name, description, signature, type
WHERE type = \"procedure\"
AND name CONTAINS \"stream\"
AND NOT (name CONTAINS \"estimate\")
RETURN name, description, signature, type";

fn query_input_schema() -> Map<String, Json> {
    let schema = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "The Cypher query to execute"},
            "params": {
                "type": "object",
                "description": "Parameters to pass to the Cypher query",
                "additionalProperties": true
            }
        },
        "required": ["query"],
        "additionalProperties": false
    });
    schema.as_object().cloned().unwrap_or_default()
}

/// The tools, as the server lists them (`gds`: the graph has GDS's procedures).
pub(crate) fn tools(read_only: bool, gds: bool) -> Vec<Tool> {
    let empty = json!({"type": "object", "properties": {}, "required": []});
    let empty = empty.as_object().cloned().unwrap_or_default();
    let mut tools = vec![
        Tool::new(
            "get-schema",
            "\n\t\tRetrieve the schema information from the Neo4j database, including node labels, relationship types, and property keys.\n\t\tIf the database contains no data, no schema information is returned.",
            empty.clone(),
        )
        .with_annotations(annotations("Get Neo4j Schema", true)),
        Tool::new("read-cypher", READ_DESCRIPTION, query_input_schema())
            .with_annotations(annotations("Read Cypher", true)),
    ];
    if !read_only {
        tools.push(
            Tool::new(
                "write-cypher",
                "write-cypher executes any arbitrary Cypher query, with write access, against the user-configured Neo4j database.",
                query_input_schema(),
            )
            .with_annotations(annotations("Write Cypher", false)),
        );
    }
    if gds {
        tools.push(
            Tool::new(
                "list-gds-procedures",
                "Use this tool to discover what graph science and analytics functions are available in the current Neo4j environment. It returns a structured list describing each function — what it does, how to use it, the inputs it needs, and what kind of results it produces. Do this before any reasoning, query generation, or analysis so you know what capabilities exist. Graph science and analytics functions help you with centrality, community detection, similarity, path finding, and identifying dependencies between nodes. The tool helps you understand the analytical capabilities of the system so that you can plan or compose the right graph science operations automatically. An empty response indicates that GDS is not installed and the user should be told to install it. Remember to use unique names for graph data science projections to avoid collisions and to drop them afterwards to save memory. You must always tell the user the function you will use.",
                empty,
            )
            .with_annotations(annotations("List available Neo4j GDS procedures", true)),
        );
    }
    tools
}

/// A failure as the Go driver's `Neo4jError.Error()` writes it (`Neo4jError: CODE (message)`).
fn go_driver_error(e: &crate::backend::BackendError) -> String {
    match (&e.server, &e.code) {
        (Some(s), _) => format!("Neo4jError: {} ({})", s.code, s.message),
        (None, Some(code)) => {
            let message = e
                .message
                .strip_prefix(&format!("{code}: "))
                .unwrap_or(&e.message);
            format!("Neo4jError: {code} ({message})")
        }
        (None, None) => e.message.clone(),
    }
}

/// The records as `Neo4jRecordsToJSON` writes them, or Go's encoding error.
fn records_text(t: &Table) -> Result<String, String> {
    let mut records = Vec::with_capacity(t.rows.len());
    for row in &t.rows {
        // record.AsMap(): a Go map, written with its keys sorted.
        let mut fields = Vec::with_capacity(row.len());
        for (c, v) in t.columns.iter().zip(row) {
            let v = go_view(v, t).map_err(|e| format!("failed to format records as JSON: {e}"))?;
            fields.push((c.clone(), v));
        }
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        fields.dedup_by(|a, b| a.0 == b.0);
        records.push(Dv::Map(fields));
    }
    Ok(go_json(&Dv::List(records), true))
}

/// Binds `{query, params}` as the server's Go code does: the query must be a string, the
/// parameters an object; numbers that are whole become integers.
fn bind(args: &Map<String, Json>, tool: &str) -> Result<(String, Params), String> {
    let field = if tool == "read-cypher" {
        "ReadCypherInput"
    } else {
        "WriteCypherInput"
    };
    let kind = |j: &Json| match j {
        Json::Bool(_) => "bool",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
        Json::Null => "null",
    };
    let query = match args.get("query") {
        None | Some(Json::Null) => String::new(),
        Some(Json::String(s)) => s.clone(),
        Some(other) => {
            return Err(format!(
                "json: cannot unmarshal {} into Go struct field {field}.query of type string",
                kind(other)
            ))
        }
    };
    let params = match args.get("params") {
        None | Some(Json::Null) => Params::new(),
        Some(p @ Json::Object(_)) => {
            crate::engine::params_from_json(&go_numbers(p).to_string()).map_err(|e| e.to_string())?
        }
        Some(other) => {
            return Err(format!(
                "json: cannot unmarshal {} into Go struct field {field}.params of type map[string]interface {{}}",
                kind(other)
            ))
        }
    };
    Ok((query, params))
}

/// Numbers as the server's parameters get them: the MCP SDK reads the arguments into Go
/// values (every number a float64), the server writes them out again and reads each number
/// back as an integer where its text is one (`2.0` becomes 2, 2^53 + 1 becomes 2^53), else a
/// float.
fn go_numbers(j: &Json) -> Json {
    match j {
        Json::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            let text = super::driver_view::go_float(f);
            match text.parse::<i64>() {
                Ok(i) => Json::from(i),
                Err(_) => serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number),
            }
        }
        Json::Array(a) => Json::Array(a.iter().map(go_numbers).collect()),
        Json::Object(m) => {
            Json::Object(m.iter().map(|(k, v)| (k.clone(), go_numbers(v))).collect())
        }
        other => other.clone(),
    }
}

impl GraphServer {
    /// One call of the official server's tools (`tool` without any prefix).
    pub(crate) fn call_official(
        &self,
        tool: &str,
        args: &Map<String, Json>,
    ) -> Result<CallToolResponse, ErrorData> {
        match tool {
            "get-schema" => Ok(self.official_schema()),
            "read-cypher" | "write-cypher" => {
                let (query, params) = match bind(args, tool) {
                    Ok(b) => b,
                    Err(e) => return Ok(error_result(e)),
                };
                if query.is_empty() {
                    return Ok(error_result(EMPTY_QUERY.into()));
                }
                if tool == "read-cypher" {
                    match self.backend().query_type(&query, &params) {
                        Err(e) => {
                            return Ok(error_result(format!(
                                "error during GetQueryType: {}",
                                go_driver_error(&e)
                            )))
                        }
                        Ok(ty) if ty != "r" => return Ok(error_result(NOT_A_READ.into())),
                        Ok(_) => {}
                    }
                    if let Some(refusal) = self.guard_refusal(&query) {
                        return Ok(error_result(refusal));
                    }
                }
                let verb = if tool == "read-cypher" {
                    "read"
                } else {
                    "write"
                };
                match self.run_query(&query, &params) {
                    Ok(t) => Ok(
                        match records_text(&t).and_then(|text| self.cut_reply(text)) {
                            Ok(text) => text_result(text),
                            Err(e) => error_result(e),
                        },
                    ),
                    Err(e) => Ok(error_result(format!(
                        "failed to execute {verb} query: {}",
                        go_driver_error(&e)
                    ))),
                }
            }
            "list-gds-procedures" if self.has_gds() => {
                match self.run_query(GDS_QUERY, &Params::new()) {
                    Ok(t) => Ok(match records_text(&t) {
                        Ok(text) => text_result(text),
                        Err(e) => error_result(e),
                    }),
                    Err(e) => Ok(error_result(format!(
                        "failed to execute list-gds-procedure query: failed to execute read query: {}. Ensure that the Graph Data Science (GDS) library is installed and properly configured in your Neo4j database",
                        go_driver_error(&e)
                    ))),
                }
            }
            _ => Err(ErrorData::invalid_params(
                format!("tool '{tool}' not found: tool not found"),
                None,
            )),
        }
    }

    fn official_schema(&self) -> CallToolResponse {
        let mut p = Params::new();
        p.insert(
            "sampleSize".into(),
            crate::value::Value::Int(self.config().sample_size),
        );
        let t = match self.run_query(SCHEMA_QUERY, &p) {
            Ok(t) => t,
            Err(e) => {
                return error_result(format!(
                    "failed to execute read query: {}",
                    go_driver_error(&e)
                ))
            }
        };
        if t.rows.is_empty() {
            return text_result(NO_SCHEMA.into());
        }
        let mut items = Vec::with_capacity(t.rows.len());
        for row in &t.rows {
            match schema_item(row) {
                Some(item) => items.push(item),
                None => return error_result("invalid value returned".into()),
            }
        }
        text_result(go_json(&Dv::List(items), false))
    }
}

/// One `{key, value}` of the schema reply: the entry's type, its properties' types and its
/// relationships (direction, labels, property types), maps with sorted keys, empty ones left
/// out.
fn schema_item(row: &[crate::value::Value]) -> Option<Dv> {
    use crate::value::Value;
    let key = row.first()?.as_str()?.to_string();
    let Some(Value::Map(m)) = row.get(1) else {
        return None;
    };
    let prop_types = |p: Option<&Value>| -> Option<Vec<(String, Dv)>> {
        let Some(Value::Map(props)) = p else {
            return None;
        };
        let mut out = Vec::new();
        for (name, info) in props {
            if let Value::Map(info) = info {
                let ty = info.get("type")?.as_str()?;
                out.push((name.to_string(), Dv::Str(ty.to_string())));
            }
        }
        Some(out)
    };
    let ty = m.get("type")?.as_str()?.to_string();
    let props = prop_types(m.get("properties"))?;
    let mut value = vec![("type".to_string(), Dv::Str(ty))];
    if !props.is_empty() {
        value.push(("properties".into(), Dv::Map(props)));
    }
    if let Some(Value::Map(rels)) = m.get("relationships") {
        let mut out = Vec::new();
        for (name, rel) in rels {
            let Value::Map(rel) = rel else { return None };
            let direction = rel.get("direction")?.as_str()?.to_string();
            let Some(Value::List(labels)) = rel.get("labels") else {
                return None;
            };
            let labels: Vec<Dv> = labels
                .iter()
                .filter_map(|l| l.as_str().map(|s| Dv::Str(s.to_string())))
                .collect();
            let mut r = vec![
                ("direction".to_string(), Dv::Str(direction)),
                // A nil slice when there were none: Go writes `null`.
                (
                    "labels".to_string(),
                    if labels.is_empty() {
                        Dv::Null
                    } else {
                        Dv::List(labels)
                    },
                ),
            ];
            let rprops = prop_types(rel.get("properties"))?;
            if !rprops.is_empty() {
                r.push(("properties".into(), Dv::Map(rprops)));
            }
            out.push((name.to_string(), Dv::Map(r)));
        }
        if !out.is_empty() {
            value.push(("relationships".into(), Dv::Map(out)));
        }
    }
    Some(Dv::Map(vec![
        ("key".into(), Dv::Str(key)),
        ("value".into(), Dv::Map(value)),
    ]))
}
