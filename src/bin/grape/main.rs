//! The `grape` command line: thin glue over the library.
//!
//! # Layout
//!
//! - `main.rs` (dispatch only), `args.rs` (the clap arguments), `common.rs` (helpers the commands
//!   share), `help.rs` (examples in `--help`, completions, man pages, the CLI reference).
//! - One file per command family: `query`, `check` (parse/validate/analyze), `schema`,
//!   `graph_cmd` (graph stats/save), `textsim`, `eval` (eval/compare/leaderboard), `serve` (the
//!   Bolt and MCP servers, one database or a folder of them), `live` (record/replay-check and the
//!   live databases of `eval --neo4j`), `llm_cli` (generate/judge/agent-eval/session-eval).
//! - It uses the library's public API only (`grape::…`), like any other crate.

use clap::{Parser, Subcommand};
use grape::analysis::{analyze, ValidateOptions, Validator};
use grape::dataset::{read_query_file, QueryInput};
use grape::schema::{Schema, SchemaFormat};
use grape::syntax::{parse, print, PrintOptions};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod args;
mod check;
mod common;
mod eval;
mod graph_cmd;
mod help;
#[cfg(feature = "neo4j")]
mod live;
#[cfg(feature = "llm")]
mod llm_cli;
mod query;
mod schema;
#[cfg(any(feature = "bolt", feature = "mcp"))]
mod serve;
mod textsim;

use args::*;
use check::{cmd_analyze, cmd_parse, cmd_validate};
use common::*;
use eval::cmd_eval;
use query::cmd_query;
use schema::cmd_schema_convert;
#[cfg(feature = "bolt")]
use serve::cmd_serve_bolt;
#[cfg(feature = "mcp")]
use serve::cmd_serve_mcp;
use textsim::cmd_textsim;

fn main() -> ExitCode {
    let cli = match help::command().try_get_matches() {
        Ok(m) => match <Cli as clap::FromArgMatches>::from_arg_matches(&m) {
            Ok(cli) => cli,
            Err(e) => e.exit(),
        },
        Err(e) => e.exit(),
    };
    if matches!(
        cli.command,
        Command::Query { .. }
            | Command::Parse { .. }
            | Command::Validate { .. }
            | Command::Analyze { .. }
            | Command::Textsim { .. }
            | Command::Schema { .. }
            | Command::Eval(_)
            | Command::Compare(_)
            | Command::Report(_)
    ) {
        quiet_broken_pipe();
    }
    match cli.command {
        Command::Completions { shell } => help::cmd_completions(shell),
        Command::Manpage { out } => help::cmd_manpage(&out),
        Command::HelpReference => help::cmd_help_reference(),
        Command::Eval(args) => cmd_eval(args),
        Command::Compare(args) => eval::cmd_compare(args),
        #[cfg(feature = "bolt")]
        Command::Serve(ServeCommand::Bolt {
            graph,
            graphs,
            database,
            database_users,
            composite,
            alias_properties,
            types,
            port,
            bind,
            auth,
            read_only,
            timeout_ms,
            max_connections,
            lock_timeout_ms,
            edition,
            engine,
        }) => {
            let mut opts = grape::engine::Options::default();
            opts.limits.timeout = Some(std::time::Duration::from_millis(timeout_ms));
            engine.apply(&mut opts);
            let composites = match composite
                .iter()
                .map(|c| grape::engine::Composite::parse(c))
                .collect::<Result<Vec<_>, _>>()
                .and_then(|mut cs| {
                    for p in &alias_properties {
                        grape::engine::set_alias_properties(&mut cs, p)?;
                    }
                    Ok(cs)
                }) {
                Ok(cs) => cs,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let config = grape::bolt::Config {
                composites,
                read_only,
                engine: opts,
                max_connections: max_connections.max(1),
                lock_timeout: std::time::Duration::from_millis(lock_timeout_ms),
                database,
                database_users,
                enterprise: edition == "enterprise",
                ..Default::default()
            };
            cmd_serve_bolt(
                graph.as_deref(),
                graphs.as_deref(),
                types,
                &bind,
                port,
                auth,
                config,
            )
        }
        #[cfg(feature = "mcp")]
        Command::Serve(ServeCommand::Mcp(a)) => cmd_serve_mcp(a),
        #[cfg(not(any(feature = "bolt", feature = "mcp")))]
        Command::Serve(never) => match never {},
        #[cfg(feature = "neo4j")]
        Command::Record(a) => live::cmd_record(a),
        #[cfg(feature = "neo4j")]
        Command::ReplayCheck(a) => live::cmd_replay_check(a),
        #[cfg(feature = "neo4j")]
        Command::Difftest(a) => live::cmd_difftest(a),
        #[cfg(feature = "llm")]
        Command::Generate(c) => llm_cli::cmd_generate(c),
        #[cfg(feature = "llm")]
        Command::Judge(a) => llm_cli::cmd_judge(a),
        #[cfg(feature = "mcp")]
        Command::AgentEval(a) => llm_cli::cmd_agent_eval(a),
        #[cfg(feature = "mcp")]
        Command::SessionEval(a) => llm_cli::cmd_session_eval(a),
        Command::Report(ReportCommand::Leaderboard {
            runs,
            metrics,
            html,
        }) => {
            let mut entries = Vec::new();
            for r in &runs {
                match grape::eval::compare::read_entry(r) {
                    Ok(e) => entries.push(e),
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            print!(
                "{}",
                grape::eval::compare::leaderboard_markdown(&entries, &metrics)
            );
            if let Some(path) = html {
                let page = grape::eval::compare::leaderboard_html(&entries, &metrics);
                if let Err(e) = grape::dataset::write_atomically(&path, page.as_bytes()) {
                    eprintln!("error: writing {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
            ExitCode::SUCCESS
        }
        Command::Report(ReportCommand::Merge { out, dirs }) => {
            let dirs: Vec<&std::path::Path> = dirs.iter().map(|d| d.as_path()).collect();
            match grape::eval::merge(&dirs, &out) {
                Ok(report) => {
                    print!("{}", grape::eval::report_json(&report));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Textsim {
            json,
            variant,
            pairs,
        } => cmd_textsim(&pairs, json, variant),
        Command::Query {
            graph,
            types,
            params,
            script,
            json,
            jsonl,
            out,
            timeout_ms,
            explain,
            profile,
            engine,
            query,
        } => cmd_query(QueryArgs {
            explain,
            profile,
            engine,
            graph,
            types,
            params,
            script,
            json,
            jsonl,
            out,
            timeout_ms,
            query,
        }),
        Command::Parse {
            json,
            print: print_canonical,
            rename,
            files,
        } => cmd_parse(&files, json, print_canonical, rename),
        Command::Validate {
            schema,
            schema_format,
            params,
            json,
            format,
            files,
        } => cmd_validate(
            &schema,
            schema_format.as_deref(),
            params.as_deref(),
            if json {
                ValidateFormat::Json
            } else {
                format.unwrap_or(ValidateFormat::Text)
            },
            &files,
        ),
        Command::Analyze { json, files } => cmd_analyze(json, &files),
        Command::Graph {
            command: GraphCommand::Stats { graph, types, json },
        } => graph_cmd::cmd_graph_stats(&graph, types, json),
        Command::Graph {
            command: GraphCommand::Save { graph, out, types },
        } => graph_cmd::cmd_graph_save(&graph, &out, types),
        #[cfg(feature = "neo4j")]
        Command::Graph {
            command: GraphCommand::Push(a),
        } => live::cmd_graph_push(a),
        Command::Schema {
            command:
                SchemaCommand::Convert {
                    from,
                    to,
                    input,
                    output,
                },
        } => cmd_schema_convert(from.as_deref(), &to, &input, output.as_deref()),
    }
}

#[cfg(feature = "neo4j")]
use live::{RecordArgs, ReplayCheckArgs};
