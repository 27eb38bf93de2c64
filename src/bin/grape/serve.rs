//! `grape serve bolt` and `grape serve mcp`.

use super::*;

#[cfg(feature = "mcp")]
pub(super) fn cmd_serve_mcp(a: McpArgs) -> ExitCode {
    let timeout = std::time::Duration::from_millis(a.timeout_ms);
    let backend: std::sync::Arc<dyn grape::backend::Backend> = match (&a.graph, &a.neo4j) {
        (Some(graph), _) => match grape::engine::load_graph(graph, a.types) {
            Ok(g) => {
                let mut opts = grape::engine::Options::default();
                opts.limits.timeout = Some(timeout);
                a.engine.apply(&mut opts);
                std::sync::Arc::new(grape::backend::Memory::with_options(g, opts))
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        #[cfg(feature = "neo4j")]
        (None, Some(uri)) => {
            let mut c = grape::backend::neo4j::Neo4jConfig::from_env();
            c.uri = uri.clone();
            c.timeout = Some(timeout);
            match grape::backend::neo4j::Neo4j::connect(c) {
                Ok(db) => std::sync::Arc::new(db),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        _ => {
            eprintln!("error: give --graph G (or --neo4j URI in a build with the `neo4j` feature)");
            return ExitCode::from(2);
        }
    };
    let mut http_credentials = Vec::new();
    for a in &a.auth {
        let Some((user, password)) = a.split_once(':') else {
            eprintln!("error: --auth {a}: expected USER:PASSWORD");
            return ExitCode::from(2);
        };
        http_credentials.push(grape::mcp::HttpCredential::Basic {
            user: user.to_string(),
            password: password.to_string(),
        });
    }
    http_credentials.extend(
        a.bearer_token
            .iter()
            .map(|t| grape::mcp::HttpCredential::Bearer(t.clone())),
    );
    let config = grape::mcp::McpConfig {
        http_credentials,
        contract: a.contract,
        namespace: a.namespace,
        read_only: a.read_only,
        search_values: a.search_values,
        sample_size: a.sample_size.unwrap_or(match a.contract {
            grape::mcp::Contract::Neo4jMcp => 100,
            grape::mcp::Contract::McpNeo4jCypher => 1000,
        }),
        max_rows: a.max_rows.map(|m| m.max(1)),
        token_limit: a.token_limit,
        max_reply_bytes: match a.max_reply_bytes {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(grape::mcp::server::DEFAULT_MAX_REPLY_BYTES),
        },
        call_timeout: Some(timeout + std::time::Duration::from_secs(5)),
        load_csv_in_reads: a.allow_load_csv_in_reads,
        ..Default::default()
    };
    let server = grape::mcp::GraphServer::new(backend, config);
    let result = match a.transport.as_str() {
        "stdio" => grape::mcp::serve_stdio(server),
        "http" => {
            let public = !matches!(a.bind.as_str(), "127.0.0.1" | "localhost" | "::1");
            grape::mcp::serve_http(server, &format!("{}:{}", a.bind, a.port), public, |addr| {
                println!("grape: MCP server listening on http://{addr}/mcp");
                let _ = std::io::Write::flush(&mut std::io::stdout());
            })
        }
        other => {
            eprintln!("error: --transport {other}: expected stdio or http");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(feature = "bolt")]
pub(super) fn cmd_serve_bolt(
    graph: Option<&str>,
    graphs: Option<&std::path::Path>,
    types: grape::graph::import::ImporterTypes,
    bind: &str,
    port: u16,
    auth: Option<String>,
    config: grape::bolt::Config,
) -> ExitCode {
    let auth = match auth.map(|a| match a.split_once(':') {
        Some((u, p)) => Ok((u.to_string(), p.to_string())),
        None => Err(format!("--auth {a:?}: expected user:password")),
    }) {
        None => None,
        Some(Ok(a)) => Some(a),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut databases = match graphs.map(|d| grape::eval::load_graph_folder(d, types)) {
        None => std::collections::BTreeMap::new(),
        Some(Ok(m)) => m,
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let default = config.database.to_ascii_lowercase();
    if let Some(graph) = graph {
        let g = match grape::engine::load_graph(graph, types) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        if databases
            .keys()
            .any(|n| n.eq_ignore_ascii_case(&config.database))
        {
            eprintln!(
                "error: --graph and a graph of --graphs are both named {:?}; give the default database another name with --database",
                config.database
            );
            return ExitCode::from(2);
        }
        databases.insert(config.database.clone(), g);
    } else if !databases.keys().any(|n| n.eq_ignore_ascii_case(&default)) {
        databases.insert(config.database.clone(), grape::graph::Graph::new());
    }
    let names: Vec<String> = databases.keys().cloned().collect();
    let composites: Vec<String> = config
        .composites
        .iter()
        .map(|c| format!("{} ({})", c.name, c.graph_names().join(", ")))
        .collect();
    let config = grape::bolt::Config { auth, ..config };
    let server = match grape::bolt::Server::bind_databases(
        &format!("{bind}:{port}"),
        databases.into_iter().collect(),
        config,
    ) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("error: cannot listen on {bind}:{port}: {e}");
            return ExitCode::from(2);
        }
    };
    let addr = server.local_addr();
    println!("grape: Bolt server listening on bolt://{addr} (neo4j://{addr} for routing drivers)");
    if names.len() > 1 {
        println!("grape: databases {} (default {default})", names.join(", "));
    }
    if !composites.is_empty() {
        println!("grape: composite databases {}", composites.join(", "));
    }
    let _ = std::io::Write::flush(&mut std::io::stdout());
    server.serve();
    ExitCode::SUCCESS
}
