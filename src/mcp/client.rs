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
    pub fn http(url: &str) -> Result<McpClient, String> {
        // reqwest is built without a default crypto provider; install ring once per process.
        let _ = rustls::crypto::ring::default_provider().install_default();
        McpClient::start(url, || {
            Ok(rmcp::transport::StreamableHttpClientTransport::from_uri(
                url.to_string(),
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
