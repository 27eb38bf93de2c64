//! Helpers for the MCP tests: a `grape serve mcp` HTTP server as a child process.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub struct HttpServer(pub Child, pub String);

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `grape serve mcp --transport http --port 0` over `graph` (with `extra` arguments), stopped
/// when dropped; `.1` is the URL it printed.
pub fn http_server(graph: &str, extra: &[&str]) -> HttpServer {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grape"))
        .args([
            "serve",
            "mcp",
            "--transport",
            "http",
            "--port",
            "0",
            "--graph",
        ])
        .arg(graph)
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().rsplit(' ').next().unwrap().to_string();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{line}"
    );
    HttpServer(child, url)
}
