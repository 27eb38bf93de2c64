//! An MCP client for any server — started as a command (stdio) or reached at a streamable HTTP
//! URL — on rmcp: lists the server's tools and calls them, blocking, from any thread.

use rmcp::model::{CallToolRequestParams, Tool};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value as Json;

/// A connected MCP server.
pub struct McpClient {
    runtime: tokio::runtime::Runtime,
    service: RunningService<RoleClient, ()>,
    /// The server's tools, as listed at connection.
    pub tools: Vec<Tool>,
}

/// Splits a command line into words: whitespace separates, single or double quotes group.
pub fn split_command(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A URL without its `user:password@` part, and that part base64-encoded for a Basic header.
fn split_credentials(url: &str) -> (String, Option<String>) {
    let Some((scheme, rest)) = url.split_once("://") else {
        return (url.to_string(), None);
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return (url.to_string(), None);
    };
    let b64 = crate::engine::base64_encode(&rest.as_bytes()[..at], crate::engine::B64, true);
    (format!("{scheme}://{}", &rest[at + 1..]), Some(b64))
}

impl McpClient {
    /// Connects to `target`: an `http://` or `https://` URL (streamable HTTP), else a command
    /// line to start (stdio).
    pub fn connect(target: &str) -> Result<McpClient, String> {
        let t = target.trim();
        if t.starts_with("http://") || t.starts_with("https://") {
            McpClient::http(t)
        } else {
            McpClient::spawn(t)
        }
    }

    /// Connects to a streamable HTTP server at `url` (TLS through rustls with the ring provider).
    /// Credentials in the URL (`http://user:password@host:port/mcp`) go in a Basic
    /// `Authorization` header on every request, as the official Neo4j MCP server's HTTP
    /// transport wants; `GRAPE_MCP_BEARER_TOKEN` sends a Bearer token instead.
    pub fn http(url: &str) -> Result<McpClient, String> {
        use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
        // reqwest is built without a default crypto provider; install ring once per process.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let (uri, basic) = split_credentials(url);
        let shown = uri.clone();
        McpClient::start(&shown, move || {
            let mut config = StreamableHttpClientTransportConfig::with_uri(uri.clone());
            if let Ok(token) = std::env::var("GRAPE_MCP_BEARER_TOKEN") {
                config = config.auth_header(token);
            } else if let Some(basic) = &basic {
                let mut headers = std::collections::HashMap::new();
                let value = reqwest::header::HeaderValue::from_str(&format!("Basic {basic}"))
                    .map_err(|e| format!("the credentials in the URL: {e}"))?;
                headers.insert(reqwest::header::AUTHORIZATION, value);
                config = config.custom_headers(headers);
            }
            Ok(rmcp::transport::StreamableHttpClientTransport::from_config(
                config,
            ))
        })
    }

    /// Starts `command_line` (the server reads the environment of this process) and connects
    /// over its standard input and output.
    pub fn spawn(command_line: &str) -> Result<McpClient, String> {
        let words = split_command(command_line);
        let Some((program, args)) = words.split_first() else {
            return Err("the server command is empty".into());
        };
        McpClient::start(&format!("`{command_line}`"), || {
            let mut cmd = tokio::process::Command::new(program);
            cmd.args(args);
            rmcp::transport::TokioChildProcess::new(cmd)
                .map_err(|e| format!("cannot start `{command_line}`: {e}"))
        })
    }

    /// Initialises a session over the transport `make` builds (inside the runtime) and lists
    /// the tools; `what` names the server in errors.
    fn start<T, E, A>(
        what: &str,
        make: impl FnOnce() -> Result<T, String>,
    ) -> Result<McpClient, String>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A> + Send + 'static,
        E: std::error::Error + Send + Sync + 'static,
    {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let (service, tools) = runtime.block_on(async {
            let service = ()
                .serve(make()?)
                .await
                .map_err(|e| format!("{what}: MCP initialisation failed: {e}"))?;
            let tools = service
                .list_all_tools()
                .await
                .map_err(|e| format!("{what}: tools/list failed: {e}"))?;
            Ok::<_, String>((service, tools))
        })?;
        Ok(McpClient {
            runtime,
            service,
            tools,
        })
    }

    /// Calls a tool: `(is_error, text)`.
    pub fn call(&self, name: &str, arguments: &Json) -> Result<(bool, String), String> {
        let mut p = CallToolRequestParams::new(name.to_string());
        p.arguments = arguments.as_object().cloned();
        let r = self
            .runtime
            .block_on(self.service.call_tool(p))
            .map_err(|e| format!("{name}: {e}"))?;
        let text: String = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
            .collect();
        Ok((r.is_error.unwrap_or(false), text))
    }

    /// The tools as OpenAI function definitions.
    pub fn openai_tools(&self) -> Vec<Json> {
        self.tools
            .iter()
            .map(|t| {
                serde_json::json!({
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description.as_deref().unwrap_or(""),
                        "parameters": t.schema_as_json_value(),
                    }
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_in_a_url_become_a_basic_header() {
        assert_eq!(
            split_credentials("http://neo4j:secret@127.0.0.1:7691/mcp"),
            (
                "http://127.0.0.1:7691/mcp".to_string(),
                Some("bmVvNGo6c2VjcmV0".to_string())
            )
        );
        assert_eq!(
            split_credentials("http://127.0.0.1:7691/a@b"),
            ("http://127.0.0.1:7691/a@b".to_string(), None)
        );
        assert_eq!(
            super::super::http_basic("bmVvNGo6c2VjcmV0"),
            Some(("neo4j".to_string(), "secret".to_string()))
        );
    }

    #[test]
    fn command_lines() {
        assert_eq!(
            split_command("grape serve mcp --graph 'my graph.json'  --read-only"),
            [
                "grape",
                "serve",
                "mcp",
                "--graph",
                "my graph.json",
                "--read-only"
            ]
        );
        assert_eq!(split_command(r#"a "" b"#), ["a", "", "b"]);
        assert!(split_command("   ").is_empty());
    }
}
