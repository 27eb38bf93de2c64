//! MCP (feature `mcp`): a graph served over the Model Context Protocol with the tool contract
//! of Neo4j's official MCP server or of mcp-neo4j-cypher ([`server`]), on the rmcp SDK, over
//! stdio or streamable HTTP; a client for any MCP server ([`client`]); and GRAPE's agent
//! evaluation over it ([`agent`]).
//!
//! ```
//! use grape::engine::{run, Options};
//! use grape::graph::Graph;
//! use grape::mcp::{records_text, Contract, GraphServer, McpConfig};
//!
//! let mut g = Graph::from_cypher_script("CREATE (:Person {name: 'Ann'})").unwrap();
//! // The official server's contract; read-only leaves out the write tool. grape's graphs
//! // have GDS's procedures, so the GDS tool is there.
//! let config = McpConfig { read_only: true, ..Default::default() };
//! let server = GraphServer::over_graph(g.clone(), Options::default(), config);
//! let tools: Vec<String> = server.tools().iter().map(|t| t.name.to_string()).collect();
//! assert_eq!(tools, ["get-schema", "read-cypher", "list-gds-procedures"]);
//!
//! // mcp-neo4j-cypher's, with grape's search_values.
//! let config = McpConfig {
//!     contract: Contract::McpNeo4jCypher,
//!     search_values: true,
//!     ..Default::default()
//! };
//! let server = GraphServer::over_graph(g.clone(), Options::default(), config);
//! let tools: Vec<String> = server.tools().iter().map(|t| t.name.to_string()).collect();
//! assert_eq!(
//!     tools,
//!     ["get_neo4j_schema", "read_neo4j_cypher", "write_neo4j_cypher", "search_values"]
//! );
//!
//! // Rows as mcp-neo4j-cypher's read tool answers them (`json.dumps` of `Record.data()`).
//! let t = run(&mut g, "MATCH (p:Person) RETURN p.name AS name", &Default::default()).unwrap();
//! assert_eq!(records_text(&t), r#"[{"name": "Ann"}]"#);
//! ```
//!
//! # Layout
//!
//! The MCP server (`server.rs`: settings, the handler, mcp-neo4j-cypher's tools;
//! `official.rs`: the official server's tools; `driver_view.rs`: values as each server's driver
//! and JSON encoder write them; `pydantic.rs`: mcp-neo4j-cypher's argument errors; `guard.rs`:
//! the read tools' guard), client (`client.rs`), agent evaluation (`agent.rs`) and session
//! evaluations (`session.rs`, CypherTurn's multi-turn protocols).

pub mod agent;
pub mod client;
mod driver_view;
mod guard;
mod official;
mod pydantic;
pub mod server;
pub mod session;
mod tokens;

pub use agent::{evaluate, report, AgentOptions, AgentRecord, AgentReport};
pub use client::McpClient;
pub use server::{
    driver_json, records_json, records_text, Contract, GraphServer, HttpCredential, McpConfig,
};
pub use session::{run_sessions, Protocol, SessionOptions, SessionTrace};

use rmcp::ServiceExt;

/// `text` cut to at most `max` bytes on a character boundary, with `…` when something was cut.
pub(crate) fn cut(text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let mut i = max;
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    format!("{}…", &text[..i])
}
use std::net::SocketAddr;

/// Serves on standard input and output until the client closes them.
pub fn serve_stdio(server: GraphServer) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(crate::QUERY_STACK_BYTES)
        .enable_all()
        .build()?;
    rt.block_on(serve_lines(server, tokio::io::stdin(), tokio::io::stdout()))
}

/// What the stdio front makes of one line from the client.
#[derive(Debug, PartialEq)]
enum Line {
    /// A JSON-RPC message for the SDK.
    Forward,
    /// Nothing to do (a blank line).
    Skip,
    /// An error reply to send back (the SDK would drop the line without a word).
    Reply(serde_json::Value),
}

fn rpc_error(id: serde_json::Value, code: i64, message: &str) -> serde_json::Value {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Checks one line as JSON-RPC 2.0: unparseable JSON is a Parse error (-32700); JSON that is
/// not a request, notification or response is an Invalid Request (-32600), with the id
/// when there is one.
fn classify(line: &[u8]) -> Line {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Skip;
    }
    let v: serde_json::Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(_) => return Line::Reply(rpc_error(serde_json::Value::Null, -32700, "Parse error")),
    };
    let ok_one = |m: &serde_json::Value| -> Result<(), serde_json::Value> {
        let Some(o) = m.as_object() else {
            return Err(serde_json::Value::Null);
        };
        let id = o.get("id").cloned().unwrap_or(serde_json::Value::Null);
        let id_ok = matches!(
            o.get("id"),
            None | Some(serde_json::Value::String(_)) | Some(serde_json::Value::Number(_))
        );
        let version_ok = o.get("jsonrpc").and_then(|v| v.as_str()) == Some("2.0");
        let is_request = o.get("method").is_some_and(|m| m.is_string());
        let is_response =
            o.contains_key("id") && (o.contains_key("result") || o.contains_key("error"));
        if version_ok && id_ok && (is_request || is_response) {
            Ok(())
        } else {
            Err(if id_ok { id } else { serde_json::Value::Null })
        }
    };
    match &v {
        serde_json::Value::Array(_) => Line::Reply(rpc_error(
            serde_json::Value::Null,
            -32600,
            "Invalid Request: batches are not supported",
        )),
        m => match ok_one(m) {
            Ok(()) => Line::Forward,
            Err(id) => Line::Reply(rpc_error(id, -32600, "Invalid Request")),
        },
    }
}

/// Serves MCP over newline-delimited JSON-RPC on `input` and `output`. Every line is checked
/// before the SDK sees it: malformed or oversized lines get a JSON-RPC error reply instead of
/// silence, so a client never waits forever.
pub async fn serve_lines<R, W>(server: GraphServer, input: R, output: W) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let max = server.config().max_message_bytes.max(1024);
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (sdk_read, sdk_write) = tokio::io::split(theirs);
    let (mut from_sdk, mut to_sdk) = tokio::io::split(ours);
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<u8>>(64);
    // One writer owns the output: the SDK's replies and the front's error replies.
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(line) = rx.recv().await {
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    let tx_sdk = tx.clone();
    let pump = tokio::spawn(async move {
        let mut r = tokio::io::BufReader::new(&mut from_sdk);
        loop {
            let mut line = Vec::new();
            match r.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx_sdk.send(line).await.is_err() {
                        break;
                    }
                }
            }
        }
    });
    // The SDK's initialisation waits for the client's first messages: run it beside the
    // reader, not before it.
    let service = tokio::spawn(async move {
        if let Ok(running) = server.serve((sdk_read, sdk_write)).await {
            let _ = running.waiting().await;
        }
    });
    let mut input = tokio::io::BufReader::new(input);
    loop {
        // One line, at most `max` bytes kept; the rest of a longer line is skipped.
        let mut line = Vec::new();
        let mut too_long = false;
        let mut eof = false;
        loop {
            let buf = input.fill_buf().await?;
            if buf.is_empty() {
                eof = true;
                break;
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..=i], true),
                None => (buf, false),
            };
            let n = chunk.len();
            if !too_long {
                if line.len() + n > max + 1 {
                    too_long = true;
                    line = Vec::new();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            input.consume(n);
            if done {
                break;
            }
        }
        let verdict = if too_long {
            Line::Reply(rpc_error(
                serde_json::Value::Null,
                -32600,
                &format!("Invalid Request: a message longer than {max} bytes"),
            ))
        } else {
            classify(&line)
        };
        match verdict {
            Line::Skip => {}
            Line::Forward => {
                if !line.ends_with(b"\n") {
                    line.push(b'\n');
                }
                if to_sdk.write_all(&line).await.is_err() {
                    break;
                }
            }
            Line::Reply(v) => {
                let mut text = v.to_string().into_bytes();
                text.push(b'\n');
                if tx.send(text).await.is_err() {
                    break;
                }
            }
        }
        if eof {
            break;
        }
    }
    // The client is gone: close the SDK's input and let it finish.
    let _ = to_sdk.shutdown().await;
    drop(to_sdk);
    let _ = service.await;
    drop(tx);
    let _ = pump.await;
    let _ = writer.await;
    Ok(())
}

/// `user:password` from the value of a Basic `Authorization` header (base64).
pub(crate) fn http_basic(encoded: &str) -> Option<(String, String)> {
    let bytes = crate::engine::base64_decode(encoded, crate::engine::B64)?;
    let text = String::from_utf8(bytes).ok()?;
    let (u, p) = text.split_once(':')?;
    Some((u.to_string(), p.to_string()))
}

type HttpBody = http_body_util::combinators::BoxBody<bytes::Bytes, std::convert::Infallible>;

/// A plain-text reply as Go's `http.Error` writes it (the text and a new line).
fn go_http_error(
    status: hyper::StatusCode,
    text: &str,
    headers: &[(&'static str, &str)],
) -> hyper::Response<HttpBody> {
    use http_body_util::BodyExt;
    let body = http_body_util::Full::new(bytes::Bytes::from(format!("{text}\n")))
        .map_err(|never| match never {})
        .boxed();
    let mut resp = hyper::Response::new(body);
    *resp.status_mut() = status;
    let h = resp.headers_mut();
    for (k, v) in headers {
        if let Ok(v) = hyper::header::HeaderValue::from_str(v) {
            h.append(*k, v);
        }
    }
    h.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    h.insert(
        "x-content-type-options",
        hyper::header::HeaderValue::from_static("nosniff"),
    );
    resp
}

/// The official server's HTTP front: `/healthz`, `/mcp` (or `/mcp/`) for POST and OPTIONS
/// only, Basic or Bearer authentication on every MCP request (what each credential may do is
/// the database's affair: see [`HttpCredential`]). `None`: the request goes on to MCP.
fn official_http_gate<B>(req: &hyper::Request<B>) -> Option<hyper::Response<HttpBody>> {
    use hyper::{Method, StatusCode};
    let path = req.uri().path();
    if path == "/healthz" {
        if req.method() != Method::GET {
            return Some(go_http_error(
                StatusCode::METHOD_NOT_ALLOWED,
                "Method Not Allowed",
                &[("allow", "GET")],
            ));
        }
        use http_body_util::BodyExt;
        let body = http_body_util::Full::new(bytes::Bytes::from_static(b"{\"status\":\"ok\"}"))
            .map_err(|never| match never {})
            .boxed();
        let mut resp = hyper::Response::new(body);
        resp.headers_mut().insert(
            hyper::header::CONTENT_TYPE,
            hyper::header::HeaderValue::from_static("application/json"),
        );
        return Some(resp);
    }
    if path != "/mcp" && path != "/mcp/" {
        return Some(go_http_error(
            StatusCode::NOT_FOUND,
            "Not Found: This server only handles requests to /mcp",
            &[],
        ));
    }
    if req.method() != Method::POST && req.method() != Method::OPTIONS {
        return Some(go_http_error(
            StatusCode::METHOD_NOT_ALLOWED,
            "Method Not Allowed: only POST is supported on /mcp",
            &[("allow", "POST, OPTIONS")],
        ));
    }
    let header = req
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if let Some(token) = header.strip_prefix("Bearer ") {
        if token.trim().is_empty() {
            return Some(go_http_error(
                StatusCode::UNAUTHORIZED,
                "Unauthorized: Bearer token is empty",
                &[("www-authenticate", "Bearer realm=\"Neo4j MCP Server\"")],
            ));
        }
        return None;
    }
    match header
        .strip_prefix("Basic ")
        .and_then(|b| http_basic(b.trim()))
    {
        None => Some(go_http_error(
            StatusCode::UNAUTHORIZED,
            "Unauthorized: Basic or Bearer authentication required",
            &[
                ("www-authenticate", "Basic realm=\"Neo4j MCP Server\""),
                ("www-authenticate", "Bearer realm=\"Neo4j MCP Server\""),
            ],
        )),
        Some((u, p)) if u.is_empty() || p.is_empty() => Some(go_http_error(
            StatusCode::UNAUTHORIZED,
            "Unauthorized: Username and password cannot be empty",
            &[("www-authenticate", "Basic realm=\"Neo4j MCP Server\"")],
        )),
        Some(_) => None,
    }
}

/// Serves streamable HTTP at `http://ADDR/mcp` until the process ends; `ready` gets the bound
/// address first (port 0 picks a free one). Only loopback `Host` headers are accepted unless
/// `public` (DNS-rebinding protection). Under the official server's contract the front is its
/// (`/healthz`, authentication on every request, no sessions: each request stands alone).
pub fn serve_http(
    server: GraphServer,
    addr: &str,
    public: bool,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(crate::QUERY_STACK_BYTES)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        let mut config = StreamableHttpServerConfig::default();
        config.json_response = true;
        if public {
            config.allowed_hosts.clear();
        } else {
            config
                .allowed_hosts
                .push(format!("127.0.0.1:{}", local.port()));
            config
                .allowed_hosts
                .push(format!("localhost:{}", local.port()));
        }
        let official = server.config().contract == Contract::Neo4jMcp;
        if official {
            // No sessions: each request stands alone, as the official server's.
            config.legacy_session_mode = false;
        }
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            LocalSessionManager::default().into(),
            config,
        );
        ready(local);
        loop {
            let (stream, _) = listener.accept().await?;
            let service = service.clone();
            tokio::spawn(async move {
                let svc = hyper::service::service_fn(
                    move |req: hyper::Request<hyper::body::Incoming>| {
                        let service = service.clone();
                        async move {
                            if official {
                                if let Some(resp) = official_http_gate(&req) {
                                    return Ok::<_, std::convert::Infallible>(resp);
                                }
                                return Ok(service.handle(req).await);
                            }
                            if req.uri().path() != "/mcp" {
                                use http_body_util::BodyExt;
                                let body = http_body_util::Full::new(bytes::Bytes::from_static(
                                    b"not found: the MCP endpoint is /mcp",
                                ))
                                .map_err(|never| match never {})
                                .boxed();
                                let mut resp = hyper::Response::new(body);
                                *resp.status_mut() = hyper::StatusCode::NOT_FOUND;
                                return Ok::<_, std::convert::Infallible>(resp);
                            }
                            Ok(service.handle(req).await)
                        }
                    },
                );
                let _ = hyper_util::server::conn::auto::Builder::new(
                    hyper_util::rt::TokioExecutor::new(),
                )
                .serve_connection(hyper_util::rt::TokioIo::new(stream), svc)
                .await;
            });
        }
    })
}
