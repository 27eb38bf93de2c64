//! MCP (feature `mcp`): a graph served over the Model Context Protocol with mcp-neo4j-cypher's
//! tool contract ([`server`]), on the rmcp SDK, over stdio or streamable HTTP; a client for any
//! MCP server ([`client`]); and GRAPE's agent evaluation over it ([`agent`]).

pub mod agent;
pub mod client;
pub mod server;
pub mod session;

pub use agent::{evaluate, report, AgentOptions, AgentRecord, AgentReport};
pub use client::McpClient;
pub use server::{driver_json, records_json, GraphServer, McpConfig};
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
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        running
            .waiting()
            .await
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(())
    })
}

/// Serves streamable HTTP at `http://ADDR/mcp` until the process ends; `ready` gets the bound
/// address first (port 0 picks a free one). Only loopback `Host` headers are accepted unless
/// `public` (DNS-rebinding protection).
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
