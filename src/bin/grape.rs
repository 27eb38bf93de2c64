//! The `grape` command line: thin glue over the library.

use clap::{Parser, Subcommand};
use grape::analysis::{analyze, ValidateOptions, Validator};
use grape::dataset::{read_query_file, QueryInput};
use grape::schema::{Schema, SchemaFormat};
use grape::syntax::{parse, print, PrintOptions};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "grape",
    version,
    about = "Test and evaluate text-to-Cypher systems: parse, analyse, execute and score Cypher offline"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Servers over an in-memory graph.
#[derive(Subcommand)]
enum ServeCommand {
    /// A Bolt server (Bolt 4.0–4.4 and 5.0–5.4) over an in-memory graph: the official Neo4j
    /// drivers, and tools built on them, connect to bolt://HOST:PORT or neo4j://HOST:PORT.
    /// Prints the address on its first line of output, then serves until stopped.
    #[cfg(feature = "bolt")]
    Bolt {
        /// The graph to serve (as for `grape query`).
        #[arg(long)]
        graph: String,
        /// Value types for Data Importer folders: `strings` or `model`.
        #[arg(long, default_value = "strings")]
        types: grape::graph::import::ImporterTypes,
        /// TCP port (0: any free port).
        #[arg(long, default_value_t = 7687)]
        port: u16,
        /// Address to bind; loopback unless you mean to expose the graph.
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// Require these credentials (`user:password`); default: accept any.
        #[arg(long)]
        auth: Option<String>,
        /// Refuse every write.
        #[arg(long)]
        read_only: bool,
        /// Time limit per query in milliseconds.
        #[arg(long, default_value_t = 30_000)]
        timeout_ms: u64,
        /// Most connections served at once; the next gets a FAILURE
        /// (Neo.TransientError.Request.NoThreadsAvailable).
        #[arg(long, default_value_t = 512)]
        max_connections: usize,
        /// How long a write waits for the write transaction under way (one at a time) before
        /// failing with Neo.TransientError.Transaction.LockAcquisitionTimeout, in milliseconds.
        #[arg(long, default_value_t = 10_000)]
        lock_timeout_ms: u64,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// An MCP server over an in-memory graph with mcp-neo4j-cypher's tools (get_neo4j_schema,
    /// read_neo4j_cypher, write_neo4j_cypher) plus search_values. Over stdio (for an agent
    /// that starts it) or streamable HTTP at http://BIND:PORT/mcp (prints the URL first).
    #[cfg(feature = "mcp")]
    Mcp(McpArgs),
}

#[cfg(feature = "mcp")]
#[derive(clap::Args)]
struct McpArgs {
    /// The graph to serve (as for `grape query`).
    #[arg(long, required_unless_present = "neo4j")]
    graph: Option<String>,
    /// Serve a live Neo4j instead (feature `neo4j`; user, password and database from
    /// NEO4J_USERNAME, NEO4J_PASSWORD and NEO4J_DATABASE).
    #[arg(long, value_name = "URI", conflicts_with = "graph")]
    neo4j: Option<String>,
    /// Value types for Data Importer folders: `strings` or `model`.
    #[arg(long, default_value = "strings")]
    types: grape::graph::import::ImporterTypes,
    /// `stdio` or `http`.
    #[arg(long, default_value = "stdio")]
    transport: String,
    /// HTTP port (0: any free port).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// HTTP address to bind; loopback unless you mean to expose the graph.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Leave out the write tool.
    #[arg(long)]
    read_only: bool,
    /// Prefix tool names with `NAMESPACE-`.
    #[arg(long, default_value = "")]
    namespace: String,
    /// Most rows a read returns.
    #[arg(long, default_value_t = 1000)]
    max_rows: usize,
    /// Cut replies at about this many tokens (4 characters each); default 262144 (1 MiB),
    /// 0 for no limit.
    #[arg(long)]
    token_limit: Option<usize>,
    /// Time limit per query in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    timeout_ms: u64,
    #[command(flatten)]
    engine: EngineArgs,
    /// Let read_neo4j_cypher run LOAD CSV (within --import-dir); off by default.
    #[arg(long, requires = "import_dir")]
    allow_load_csv_in_reads: bool,
}

#[derive(Subcommand)]
enum ReportCommand {
    /// Merge the output directories of `grape eval --shard` runs into one (examples.jsonl and
    /// report.json, the same as one unsharded run would write); prints the report.
    Merge {
        /// Where the merged output goes.
        #[arg(long)]
        out: PathBuf,
        /// The shards' output directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Score predictions against a benchmark's gold queries on an in-memory graph.
    ///
    /// DATASET is ZOGRASCOPE CSV (`id`, `nl`, `mr`; the iid/compositional split is read from
    /// the id lists beside it), GRAPE JSON, JSON Lines (`id`, `question`, `cypher`) or CypherTurn
    /// sessions (one example per turn, id `session_id/turn_id`). PREDICTIONS is JSON Lines with
    /// `id` (or `session_id` and `turn_id`) and `cypher` (or a `candidates` array for Pass@k), or
    /// CypherTurn sessions with `pred_cypher`. Prints a table of the report (the report itself
    /// with --json); with --out, per-example records go to DIR/examples.jsonl (a rerun resumes
    /// from it) and the report to DIR/report.json, report.md and report.html.
    Eval(EvalArgs),
    /// Evaluation reports.
    #[command(subcommand)]
    Report(ReportCommand),
    /// Serve an in-memory graph over a network protocol.
    #[command(subcommand)]
    Serve(ServeCommand),
    /// Record the part of a live Neo4j that a dataset's gold queries touch into a fixture.
    ///
    /// Runs each gold query and its provenance queries (every MATCH prefix, anonymous elements
    /// named, then RETURN *) live, stores what they bind, adds --hops N neighbourhoods and
    /// --sample M diverse paths, then replays every query on the fixture and extends it around
    /// queries that answer differently (--rounds). Writes OUT (grape's JSON fixture with a
    /// `recording` section) and OUT's schema beside it (`NAME.schema.json`, apoc.meta.schema
    /// form). Connection: --neo4j or NEO4J_URI, --user / NEO4J_USERNAME, --password /
    /// NEO4J_PASSWORD, --database / NEO4J_DATABASE.
    #[cfg(feature = "neo4j")]
    Record(RecordArgs),
    /// Check a fixture against the live Neo4j: run every gold query on both and report, per
    /// query, whether they agree, and the fidelity. Exits 1 when a query differs.
    #[cfg(feature = "neo4j")]
    ReplayCheck(ReplayCheckArgs),
    /// Generate with an LLM (feature `llm`).
    #[cfg(feature = "llm")]
    #[command(subcommand)]
    Generate(llm_cli::GenerateCommand),
    /// Score natural-language answers against reference answers with an LLM judge (GRAPE's
    /// 0–1 rubric). ANSWERS is JSON Lines with `id` and `answer`; writes one line per example
    /// with `score` and `reasoning`, and prints the mean. --self-check first judges each
    /// reference against itself (it must score 1) and reports how many pass.
    #[cfg(feature = "llm")]
    Judge(llm_cli::JudgeArgs),
    /// Evaluate an LLM agent that answers questions through an MCP server (GRAPE's protocol):
    /// per question the agent calls the server's tools until it answers or reaches
    /// --max-steps; every call, the tokens, cost and time are recorded; the answer is judged
    /// against the dataset's reference answer and, with --graph, the agent's last Cypher query
    /// is scored against the gold query. Writes OUT/records.jsonl and OUT/report.json (by noise,
    /// hops, query type and tool-call count, with cost per correct answer) and prints a summary.
    #[cfg(feature = "mcp")]
    AgentEval(llm_cli::AgentEvalArgs),
    /// Evaluate an LLM on CypherTurn sessions with the guided or the agentic protocol (one
    /// JSON action per reply: EXECUTE_CYPHER, INSPECT_SCHEMA, SEARCH_VALUES, ASK_USER,
    /// SUBMIT_ANSWER; each costs one unit — at most --actions-per-turn per turn when guided, a
    /// shared budget of turns × --budget-per-turn when agentic). The submitted queries are
    /// scored like `grape eval` (EX, EX-strict, PSJS, CER, SEM, by phenomenon and chain mode):
    /// OUT/predictions.jsonl, OUT/traces.jsonl and the reports in OUT.
    #[cfg(feature = "mcp")]
    SessionEval(llm_cli::SessionEvalArgs),
    /// Text similarity of query pairs: Jaro–Winkler and normalized Levenshtein.
    ///
    /// PAIRS is JSON Lines with `id`, `a` and `b` (the reference and the prediction). Prints one
    /// line per pair: {"id", "jaro_winkler", "normalized_levenshtein"} (with --json), else a table.
    Textsim {
        /// JSON output, one object per line.
        #[arg(long)]
        json: bool,
        /// Preprocessing: `default`, `collapse-ws` or `canonical`.
        #[arg(long, default_value = "default")]
        variant: grape::metrics::TextVariant,
        /// The pairs file.
        pairs: PathBuf,
    },
    /// Run Cypher on an in-memory graph and print the result as JSON.
    ///
    /// GRAPH is a `.json` fixture, a `.cypher` script of CREATE statements, a Neo4j Data
    /// Importer folder (CSV files and neo4j_importer_model.json), or `none` for an empty graph.
    /// Prints {"columns", "rows", "stats"} or {"error": {"kind", "code", "message", "phase"}}.
    Query {
        /// The graph to load.
        #[arg(long)]
        graph: String,
        /// Value types for Data Importer folders: `strings` (as the CSV header says) or `model`.
        #[arg(long, default_value = "strings")]
        types: grape::graph::import::ImporterTypes,
        /// Parameters as a JSON object.
        #[arg(long)]
        params: Option<String>,
        /// A Cypher script run before the query (setup).
        #[arg(long)]
        script: Option<PathBuf>,
        /// Compact JSON instead of pretty-printed.
        #[arg(long)]
        json: bool,
        /// Batch mode: a JSONL file of queries (`id`, `query`/`cypher`); one result line each:
        /// {"id", "columns", "rows", "error", "ms"}. The graph is loaded once.
        #[arg(long, conflicts_with = "query")]
        jsonl: Option<PathBuf>,
        /// Where batch results go (written atomically; default: standard output).
        #[arg(long, requires = "jsonl")]
        out: Option<PathBuf>,
        /// Time limit per query in milliseconds.
        #[arg(long, default_value_t = 30_000)]
        timeout_ms: u64,
        #[command(flatten)]
        engine: EngineArgs,
        /// The query.
        query: Option<String>,
    },
    /// Parse Cypher queries and report syntax errors with line, column and a caret.
    ///
    /// Each FILE is JSON Lines (`.jsonl`: objects with `id` and `query` or `cypher`), a Cypher
    /// script (statements separated by `;`), or `-` for a script on standard input.
    /// Exit status: 0 when every query parses, 1 otherwise, 2 when a file cannot be read.
    Parse {
        /// One JSON object per query: {"id", "ok", "error": {"line", "column", "message"} | null, "canonical"}.
        #[arg(long)]
        json: bool,
        /// Print each query in canonical form (human output).
        #[arg(long)]
        print: bool,
        /// Rename variables to v0, v1, … in the canonical form.
        #[arg(long)]
        rename: bool,
        /// Query files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Validate queries against a graph schema, offline, with CyVer's codes and scores.
    ///
    /// Reports unknown labels, relationship types and property keys (with the closest existing
    /// name), wrong directions, impossible paths and static errors, each with line and column.
    /// Inputs as for `grape parse`. Exit status: 0 when every query is KG-valid, 1 otherwise, 2
    /// when a file or the schema cannot be read.
    Validate {
        /// The schema file (format guessed from its content; see `grape schema convert`).
        #[arg(long)]
        schema: PathBuf,
        /// The schema's format, when guessing is not wanted.
        #[arg(long, value_name = "FMT")]
        schema_format: Option<String>,
        /// Comma-separated names of the parameters that will be supplied; `$x` not among them is
        /// reported. Without it parameters are not checked.
        #[arg(long, value_name = "NAMES")]
        params: Option<String>,
        /// One JSON object per query: {"id", "syntax_ok", "schema_score", "properties_score",
        /// "kg_valid", "diagnostics": [{"code", "message", "line", "column"}]}.
        #[arg(long)]
        json: bool,
        /// Query files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Report hop complexity (GRAPE), missing aliases and the read/write type of queries.
    ///
    /// Inputs as for `grape parse`. Exit status: 0, or 1 when a query does not parse, 2 when a
    /// file cannot be read.
    Analyze {
        /// One JSON object per query: {"id", "hops", "hops_min", "hops_unbounded",
        /// "rel_patterns", "node_patterns", "missing_aliases": [...], "access"}.
        #[arg(long)]
        json: bool,
        /// Query files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Graph schemas: convert between formats.
    Schema {
        #[command(subcommand)]
        command: SchemaCommand,
    },
}

#[derive(Subcommand)]
enum SchemaCommand {
    /// Convert a schema: grape, structured (neo4j-graphrag / LangChain), apoc (apoc.meta.schema,
    /// mcp-neo4j-cypher), zograscope, cypherturn, importer (read only; refined from the CSVs
    /// beside it), prompt (LLM prompt text).
    Convert {
        /// Input format (guessed from the content when omitted).
        #[arg(long, value_name = "FMT")]
        from: Option<String>,
        /// Output format.
        #[arg(long, value_name = "FMT")]
        to: String,
        /// Input file.
        input: PathBuf,
        /// Output file (standard output when omitted).
        output: Option<PathBuf>,
    },
}

/// Commands that write a stream to standard output end quietly when the reader goes away
/// (`grape query … | head -1`), as `cat` and ripgrep do, instead of panicking on a broken
/// pipe. Servers keep the default of ignoring SIGPIPE: a client going away must not stop them.
#[cfg(unix)]
fn quiet_broken_pipe() {
    // SAFETY: restoring the default disposition of one signal at start-up, before any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn quiet_broken_pipe() {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Command::Query { .. }
            | Command::Parse { .. }
            | Command::Validate { .. }
            | Command::Analyze { .. }
            | Command::Textsim { .. }
            | Command::Schema { .. }
            | Command::Eval(_)
            | Command::Report(_)
    ) {
        quiet_broken_pipe();
    }
    match cli.command {
        Command::Eval(args) => cmd_eval(args),
        #[cfg(feature = "bolt")]
        Command::Serve(ServeCommand::Bolt {
            graph,
            types,
            port,
            bind,
            auth,
            read_only,
            timeout_ms,
            max_connections,
            lock_timeout_ms,
            engine,
        }) => {
            let mut opts = grape::engine::Options::default();
            opts.limits.timeout = Some(std::time::Duration::from_millis(timeout_ms));
            engine.apply(&mut opts);
            let config = grape::bolt::Config {
                read_only,
                engine: opts,
                max_connections: max_connections.max(1),
                lock_timeout: std::time::Duration::from_millis(lock_timeout_ms),
                ..Default::default()
            };
            cmd_serve_bolt(&graph, types, &bind, port, auth, config)
        }
        #[cfg(feature = "mcp")]
        Command::Serve(ServeCommand::Mcp(a)) => cmd_serve_mcp(a),
        #[cfg(not(any(feature = "bolt", feature = "mcp")))]
        Command::Serve(never) => match never {},
        #[cfg(feature = "neo4j")]
        Command::Record(a) => live::cmd_record(a),
        #[cfg(feature = "neo4j")]
        Command::ReplayCheck(a) => live::cmd_replay_check(a),
        #[cfg(feature = "llm")]
        Command::Generate(c) => llm_cli::cmd_generate(c),
        #[cfg(feature = "llm")]
        Command::Judge(a) => llm_cli::cmd_judge(a),
        #[cfg(feature = "mcp")]
        Command::AgentEval(a) => llm_cli::cmd_agent_eval(a),
        #[cfg(feature = "mcp")]
        Command::SessionEval(a) => llm_cli::cmd_session_eval(a),
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
            engine,
            query,
        } => cmd_query(QueryArgs {
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
            files,
        } => cmd_validate(
            &schema,
            schema_format.as_deref(),
            params.as_deref(),
            json,
            &files,
        ),
        Command::Analyze { json, files } => cmd_analyze(json, &files),
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

/// `grape validate --json`, one line per query (fields in the documented order).
#[derive(Serialize)]
struct JsonValidation<'a> {
    id: &'a str,
    syntax_ok: bool,
    schema_score: f64,
    properties_score: Option<f64>,
    kg_valid: bool,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    message: &'a str,
    line: usize,
    column: usize,
}

/// `grape analyze --json`, one line per query.
#[derive(Serialize)]
struct JsonAnalysis<'a> {
    id: &'a str,
    hops: u64,
    hops_min: u64,
    hops_unbounded: bool,
    rel_patterns: usize,
    node_patterns: usize,
    missing_aliases: Vec<JsonAlias<'a>>,
    access: &'a str,
}

#[derive(Serialize)]
struct JsonAlias<'a> {
    clause: &'a str,
    text: &'a str,
    line: usize,
    column: usize,
    suggestion: Option<&'a str>,
}

fn json_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Line and column of a position inside `q`'s text, moved onto its file for scripts.
fn file_position(q: &QueryInput, line: usize, column: usize) -> (usize, usize) {
    if q.offset.is_some() {
        let l = q.line + line - 1;
        let c = if line == 1 {
            q.column + column - 1
        } else {
            column
        };
        (l, c)
    } else {
        (line, column)
    }
}

fn origin_of(file: &grape::dataset::QueryFile, q: &QueryInput) -> String {
    if q.offset.is_some() {
        file.origin.clone()
    } else {
        format!(
            "{} (record {}, id {})",
            file.origin,
            q.line,
            grape::syntax::escape_controls(&q.id)
        )
    }
}

fn read_schema(path: &Path, format: Option<&str>) -> Result<Schema, String> {
    let format = match format {
        Some(f) => Some(f.parse::<SchemaFormat>().map_err(|e| e.to_string())?),
        None => None,
    };
    Schema::read_path(path, format).map_err(|e| e.to_string())
}

fn cmd_validate(
    schema_path: &Path,
    schema_format: Option<&str>,
    params: Option<&str>,
    json: bool,
    files: &[PathBuf],
) -> ExitCode {
    let schema = match read_schema(schema_path, schema_format) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read the schema: {e}");
            return ExitCode::from(2);
        }
    };
    let options = ValidateOptions {
        parameters: params.map(|p| {
            p.split(',')
                .map(|x| x.trim().trim_start_matches('$').to_string())
                .filter(|x| !x.is_empty())
                .collect()
        }),
        ..Default::default()
    };
    let validator = Validator::with_options(&schema, options);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut total, mut invalid, mut unread) = (0usize, 0usize, 0usize);
    for path in files {
        let file = match read_query_file(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                unread += 1;
                continue;
            }
        };
        for rec in &file.errors {
            total += 1;
            invalid += 1;
            eprintln!(
                "error: {}",
                grape::syntax::escape_controls(&rec.to_string())
            );
        }
        for q in &file.queries {
            total += 1;
            let v = validator.validate(&q.text);
            if !v.kg_valid {
                invalid += 1;
            }
            if json {
                let diagnostics: Vec<JsonDiagnostic> = v
                    .diagnostics
                    .iter()
                    .map(|d| {
                        let (line, column) = file_position(q, d.line, d.column);
                        JsonDiagnostic {
                            code: d.code,
                            message: &d.message,
                            line,
                            column,
                        }
                    })
                    .collect();
                let line = json_line(&JsonValidation {
                    id: &q.id,
                    syntax_ok: v.syntax_ok,
                    schema_score: v.schema_score,
                    properties_score: v.properties_score,
                    kg_valid: v.kg_valid,
                    diagnostics,
                });
                let _ = writeln!(out, "{line}");
            } else {
                let origin = origin_of(&file, q);
                for d in &v.diagnostics {
                    let (line, column) = file_position(q, d.line, d.column);
                    let _ = writeln!(
                        out,
                        "{origin}:{line}:{column}: {}: {}",
                        d.code,
                        grape::syntax::escape_controls(&d.message)
                    );
                }
                if !v.kg_valid {
                    let props = v
                        .properties_score
                        .map(|p| format!("{p:.3}"))
                        .unwrap_or_else(|| "none".to_string());
                    let _ = writeln!(
                        out,
                        "{origin}: id {}: not KG-valid (syntax {}, schema {:.3}, properties {props})",
                        grape::syntax::escape_controls(&q.id),
                        if v.syntax_ok { "ok" } else { "failed" },
                        v.schema_score
                    );
                }
            }
        }
    }
    let _ = out.flush();
    if !json {
        eprintln!(
            "{total} queries, {} KG-valid, {invalid} not{}",
            total - invalid,
            unread_note(unread)
        );
    }
    if unread > 0 {
        ExitCode::from(2)
    } else if invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn cmd_analyze(json: bool, files: &[PathBuf]) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut failed, mut io_error) = (0usize, false);
    for path in files {
        let file = match read_query_file(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                io_error = true;
                continue;
            }
        };
        for rec in &file.errors {
            failed += 1;
            eprintln!(
                "error: {}",
                grape::syntax::escape_controls(&rec.to_string())
            );
        }
        for q in &file.queries {
            let stmt = match parse(&q.text) {
                Ok(s) => s,
                Err(e) => {
                    failed += 1;
                    let e = file.locate(q, &e);
                    if json {
                        let line = serde_json::json!({
                            "id": q.id,
                            "error": {"line": e.line, "column": e.column, "message": e.message},
                        });
                        let _ = writeln!(out, "{line}");
                    } else {
                        let _ = out.flush();
                        eprint!("{}", e.render(&origin_of(&file, q)));
                    }
                    continue;
                }
            };
            let a = analyze(&stmt, &q.text);
            let c = &a.complexity;
            if json {
                let missing: Vec<JsonAlias> = a
                    .missing_aliases
                    .iter()
                    .map(|m| {
                        let (line, column) = file_position(q, m.line, m.column);
                        JsonAlias {
                            clause: m.clause,
                            text: &m.text,
                            line,
                            column,
                            suggestion: m.suggestion.as_deref(),
                        }
                    })
                    .collect();
                let line = json_line(&JsonAnalysis {
                    id: &q.id,
                    hops: c.hops,
                    hops_min: c.hops_min,
                    hops_unbounded: c.hops_unbounded,
                    rel_patterns: c.rel_patterns,
                    node_patterns: c.node_patterns,
                    missing_aliases: missing,
                    access: a.access.code(),
                });
                let _ = writeln!(out, "{line}");
            } else {
                let unbounded = if c.hops_unbounded { " (unbounded)" } else { "" };
                let _ = writeln!(
                    out,
                    "{}: hops {}{unbounded} (min {}), {} relationships, {} nodes, access {}",
                    grape::syntax::escape_controls(&q.id),
                    c.hops,
                    c.hops_min,
                    c.rel_patterns,
                    c.node_patterns,
                    a.access
                );
                for m in &a.missing_aliases {
                    let (line, column) = file_position(q, m.line, m.column);
                    let hint = m
                        .suggestion
                        .as_ref()
                        .map(|s| format!(" (e.g. `{} AS {s}`)", m.text))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "{}:{line}:{column}: {} item `{}` has no alias; add `AS name`{hint}",
                        origin_of(&file, q),
                        m.clause,
                        m.text
                    );
                }
            }
        }
    }
    let _ = out.flush();
    if io_error {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn cmd_schema_convert(
    from: Option<&str>,
    to: &str,
    input: &Path,
    output: Option<&Path>,
) -> ExitCode {
    let to = match to.parse::<SchemaFormat>() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let schema = match read_schema(input, from) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read the schema: {e}");
            return ExitCode::from(2);
        }
    };
    let written = match schema.write(to) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for w in &written.warnings {
        eprintln!("warning: {w}");
    }
    match output {
        Some(p) => {
            if let Err(e) = std::fs::write(p, &written.text) {
                eprintln!("error: cannot write {}: {e}", p.display());
                return ExitCode::from(2);
            }
        }
        None => print!("{}", written.text),
    }
    ExitCode::SUCCESS
}

/// The end of a summary line when some files could not be read.
fn unread_note(unread: usize) -> String {
    match unread {
        0 => String::new(),
        1 => "; 1 file could not be read".to_string(),
        n => format!("; {n} files could not be read"),
    }
}

fn cmd_parse(files: &[PathBuf], json: bool, print_canonical: bool, rename: bool) -> ExitCode {
    let opts = PrintOptions {
        rename_variables: rename,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut total, mut failed, mut unread) = (0usize, 0usize, 0usize);
    for path in files {
        let file = match read_query_file(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                unread += 1;
                continue;
            }
        };
        for rec in &file.errors {
            total += 1;
            failed += 1;
            if json {
                let line = serde_json::json!({
                    "id": format!("{}:{}", rec.origin, rec.line),
                    "ok": false,
                    "error": {"line": rec.line, "column": 1, "message": rec.message},
                    "canonical": null,
                });
                let _ = writeln!(out, "{line}");
            } else {
                eprintln!(
                    "error: {}",
                    grape::syntax::escape_controls(&rec.to_string())
                );
            }
        }
        for q in &file.queries {
            total += 1;
            let result = parse(&q.text);
            if result.is_err() {
                failed += 1;
            }
            if json {
                let line = match &result {
                    Ok(stmt) => serde_json::json!({
                        "id": q.id, "ok": true, "error": null, "canonical": print(stmt, &opts),
                    }),
                    Err(e) => {
                        let e = file.locate(q, e);
                        serde_json::json!({
                            "id": q.id,
                            "ok": false,
                            "error": {"line": e.line, "column": e.column, "message": e.message},
                            "canonical": null,
                        })
                    }
                };
                let _ = writeln!(out, "{line}");
            } else {
                match &result {
                    Ok(stmt) => {
                        if print_canonical {
                            let _ = writeln!(out, "{}", print(stmt, &opts));
                        }
                    }
                    Err(e) => {
                        let e = file.locate(q, e);
                        let origin = if q.offset.is_some() {
                            file.origin.clone()
                        } else {
                            format!(
                                "{} (record {}, id {})",
                                file.origin,
                                q.line,
                                grape::syntax::escape_controls(&q.id)
                            )
                        };
                        let _ = out.flush();
                        eprint!("{}", e.render(&origin));
                    }
                }
            }
        }
    }
    let _ = out.flush();
    if !json {
        if failed == 0 && unread == 0 {
            eprintln!("{total} queries parsed, all OK");
        } else {
            eprintln!(
                "{total} queries, {failed} with errors{}",
                unread_note(unread)
            );
        }
    }
    if unread > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Engine limits and the LOAD CSV sandbox, shared by every command that runs queries.
#[derive(clap::Args, Clone, Debug, Default)]
struct EngineArgs {
    /// Memory budget of one query (rows, aggregation state, built values), e.g. `512M`,
    /// `2G`, `1GiB`; a query over it fails with MemoryPoolOutOfMemoryError. Default 1 GiB.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<usize>,
    /// Neo4j's import directory: `LOAD CSV FROM 'file:///x.csv'` reads DIR/x.csv and nothing
    /// outside DIR. Without it LOAD CSV is refused.
    #[arg(long, value_name = "DIR")]
    import_dir: Option<PathBuf>,
}

impl EngineArgs {
    fn apply(&self, opts: &mut grape::engine::Options) {
        if let Some(m) = self.max_memory {
            opts.limits.max_memory = Some(m);
        }
        opts.import_dir = self.import_dir.clone();
    }
}

/// `512M`, `2G`, `1GiB`, `100000` (bytes).
fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .parse()
        .map_err(|_| format!("{s:?}: expected a size such as 512M or 2G"))?;
    let mul: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tb" | "tib" => 1024.0f64.powi(4),
        _ => return Err(format!("{s:?}: unknown unit (use K, M, G or T)")),
    };
    let v = x * mul;
    if !(v >= 1.0 && v < usize::MAX as f64) {
        return Err(format!("{s:?}: out of range"));
    }
    Ok(v as usize)
}

struct QueryArgs {
    engine: EngineArgs,
    graph: String,
    types: grape::graph::import::ImporterTypes,
    params: Option<String>,
    script: Option<PathBuf>,
    json: bool,
    jsonl: Option<PathBuf>,
    out: Option<PathBuf>,
    timeout_ms: u64,
    query: Option<String>,
}

fn error_json(e: &grape::engine::ExecError) -> serde_json::Value {
    serde_json::json!({
        "kind": format!("{:?}", e.kind),
        "code": e.code(),
        "message": e.message,
        "phase": match e.phase {
            grape::engine::Phase::CompileTime => "compile time",
            grape::engine::Phase::Runtime => "runtime",
        },
    })
}

fn cmd_query(a: QueryArgs) -> ExitCode {
    use grape::engine::{Options, Params};
    let mut graph = match grape::engine::load_graph(&a.graph, a.types) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(script) = &a.script {
        let text = match std::fs::read_to_string(script) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", script.display());
                return ExitCode::from(2);
            }
        };
        if let Err(e) = grape::engine::run_script(&mut graph, &text) {
            eprintln!("error: {}: {e}", script.display());
            return ExitCode::from(2);
        }
    }
    let params: Params = match &a.params {
        None => Params::new(),
        Some(text) => match grape::engine::params_from_json(text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: --params: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let mut opts = Options::default();
    opts.limits.timeout = Some(std::time::Duration::from_millis(a.timeout_ms));
    a.engine.apply(&mut opts);
    if let Some(path) = &a.jsonl {
        return query_batch(&mut graph, path, a.out.as_deref(), &params, &opts);
    }
    let Some(query) = &a.query else {
        eprintln!("error: give a QUERY or --jsonl FILE");
        return ExitCode::from(2);
    };
    let result = grape::engine::run_with(&mut graph, query, &params, &opts);
    let (value, code) = match &result {
        Ok(t) => (t.to_json(), ExitCode::SUCCESS),
        Err(e) => (
            serde_json::json!({ "error": error_json(e) }),
            ExitCode::from(1),
        ),
    };
    let text = if a.json {
        value.to_string()
    } else {
        serde_json::to_string_pretty(&value).unwrap_or_default()
    };
    println!("{text}");
    code
}

fn query_batch(
    graph: &mut grape::graph::Graph,
    path: &std::path::Path,
    out: Option<&std::path::Path>,
    params: &grape::engine::Params,
    opts: &grape::engine::Options,
) -> ExitCode {
    let file = match read_query_file(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    for e in &file.errors {
        eprintln!("error: {e}");
    }
    let mut atomic = match out {
        Some(p) => match grape::dataset::AtomicFile::create(p) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let mut failed = 0usize;
    for q in &file.queries {
        let t0 = std::time::Instant::now();
        let r = grape::engine::run_with(graph, &q.text, params, opts);
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        let line = match r {
            Ok(t) => {
                serde_json::json!({"id": q.id, "columns": t.columns, "rows": t.rows_json(), "error": null, "ms": ms})
            }
            Err(e) => {
                failed += 1;
                serde_json::json!({"id": q.id, "columns": [], "rows": [], "error": error_json(&e), "ms": ms})
            }
        };
        let text = format!("{line}\n");
        let written = match &mut atomic {
            Some(f) => f.write_all(text.as_bytes()),
            None => lock.write_all(text.as_bytes()),
        };
        if let Err(e) = written {
            eprintln!("error: cannot write results: {e}");
            return ExitCode::from(2);
        }
    }
    if let (Some(f), Some(p)) = (atomic, out) {
        if let Err(e) = f.commit() {
            eprintln!("error: cannot write {}: {e}", p.display());
            return ExitCode::from(2);
        }
    }
    eprintln!("{} queries, {failed} failed", file.queries.len());
    if failed > 0 || !file.errors.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn cmd_textsim(
    path: &std::path::Path,
    json: bool,
    variant: grape::metrics::TextVariant,
) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut bad = 0usize;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let rec: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: {}:{}: not valid JSON: {e}", path.display(), i + 1);
                bad += 1;
                continue;
            }
        };
        let (Some(a), Some(b)) = (rec["a"].as_str(), rec["b"].as_str()) else {
            eprintln!(
                "error: {}:{}: expected string fields `a` and `b`",
                path.display(),
                i + 1
            );
            bad += 1;
            continue;
        };
        let id = match &rec["id"] {
            serde_json::Value::Null => {
                serde_json::Value::from(format!("{}:{}", path.display(), i + 1))
            }
            other => other.clone(),
        };
        let s = grape::metrics::text_scores(a, b, variant);
        if json {
            let mut o = serde_json::json!({
                "id": id,
                "jaro_winkler": s.jaro_winkler,
                "normalized_levenshtein": s.normalized_levenshtein,
            });
            if s.canonical_fallback {
                o["canonical_fallback"] = serde_json::Value::Bool(true);
            }
            let _ = writeln!(out, "{o}");
        } else {
            let _ = writeln!(
                out,
                "{id}\tjaro_winkler {:.6}\tnormalized_levenshtein {:.6}{}",
                s.jaro_winkler,
                s.normalized_levenshtein,
                if s.canonical_fallback {
                    "\t(canonical: a query does not parse; default used)"
                } else {
                    ""
                }
            );
        }
    }
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[derive(clap::Args)]
struct EvalArgs {
    /// The benchmark file.
    #[arg(long)]
    dataset: PathBuf,
    /// `zograscope`, `grape`, `jsonl` or `cypherturn` (default: guessed from the file).
    #[arg(long)]
    format: Option<grape::dataset::DatasetFormat>,
    /// The predictions file.
    #[arg(long)]
    predictions: PathBuf,
    /// The graph both gold and predicted queries run on (as for `grape query`).
    #[arg(long, required_unless_present = "graphs")]
    graph: Option<String>,
    /// A folder of named graphs for benchmarks whose examples name their graph (CypherTurn's
    /// `graph`): NAME.json, NAME.cypher, NAME/graph.json or a Data Importer folder NAME/.
    /// With --graph too, examples naming no known graph run on --graph.
    #[arg(long)]
    graphs: Option<PathBuf>,
    /// The schema predictions are validated against (KG-valid, diagnostics; any format
    /// `grape validate` reads). Default: the graph's own, as `apoc.meta.schema` reports it.
    #[arg(long)]
    schema: Option<PathBuf>,
    /// Value types for Data Importer folders: `strings` or `model`.
    #[arg(long, default_value = "strings")]
    types: grape::graph::import::ImporterTypes,
    /// Pass@k is reported for k = 1 and this k.
    #[arg(long, default_value_t = 1)]
    k: usize,
    /// Text-metric preprocessing: `default`, `collapse-ws` or `canonical`.
    #[arg(long, default_value = "default")]
    variant: grape::metrics::TextVariant,
    /// Time limit per query in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    workers: Option<usize>,
    /// Output directory (resumable).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Run only shard i of n (`i/n`, 0-based: every n-th example in id order); combine the
    /// shards' output directories with `grape report merge`.
    #[arg(long, value_parser = grape::eval::parse_shard)]
    shard: Option<(usize, usize)>,
    /// Print report.json to standard output instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

fn cmd_eval(a: EvalArgs) -> ExitCode {
    let examples = match grape::dataset::read_dataset(&a.dataset, a.format) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let predictions = match grape::dataset::read_predictions(&a.predictions) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let known: std::collections::HashSet<&str> = examples.iter().map(|e| e.id.as_str()).collect();
    let stray = predictions
        .keys()
        .filter(|id| !known.contains(id.as_str()))
        .count();
    if stray > 0 {
        eprintln!(
            "warning: {stray} predictions have ids that are not in the dataset; they are ignored"
        );
    }
    let examples = match a.shard {
        Some((i, n)) => grape::eval::shard(&examples, i, n),
        None => examples,
    };
    let default_graph = match a
        .graph
        .as_deref()
        .map(|g| grape::engine::load_graph(g, a.types))
    {
        None => None,
        Some(Ok(g)) => Some(g),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut named = std::collections::BTreeMap::new();
    if let Some(dir) = &a.graphs {
        let wanted: std::collections::BTreeSet<&str> =
            examples.iter().filter_map(|e| e.graph.as_deref()).collect();
        for name in wanted {
            match grape::eval::load_named_graph(dir, name, a.types) {
                Ok(Some(g)) => {
                    named.insert(name.to_string(), g);
                }
                Ok(None) if default_graph.is_some() => {}
                Ok(None) => {
                    eprintln!(
                        "error: {}: no graph named {name:?} (expected {name}.json, {name}.cypher, {name}/graph.json or a Data Importer folder {name}/)",
                        dir.display()
                    );
                    return ExitCode::from(2);
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    let schema = match &a.schema {
        None => None,
        Some(p) => match grape::schema::Schema::read_path(p, None) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
    };
    let graphs = grape::eval::Graphs::new(
        default_graph.as_ref(),
        named.iter().map(|(n, g)| (n.clone(), g)),
        schema,
    );
    let mut opts = grape::eval::EvalOptions {
        k: a.k.max(1),
        variant: a.variant,
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        ..Default::default()
    };
    if let Some(w) = a.workers {
        opts.workers = w.max(1);
    }
    opts.engine.limits.timeout = Some(std::time::Duration::from_millis(a.timeout_ms));
    a.engine.apply(&mut opts.engine);
    match grape::eval::evaluate(&graphs, &examples, &predictions, &opts, a.out.as_deref()) {
        Ok((report, _)) => {
            if a.json {
                print!("{}", grape::eval::report_json(&report));
            } else {
                print!("{}", grape::eval::report_table(&report));
                if let Some(out) = &a.out {
                    println!(
                        "\nreports: {0}/report.json, {0}/report.md, {0}/report.html; per example: {0}/examples.jsonl",
                        out.display()
                    );
                }
            }
            if report.gold_errors > 0 {
                eprintln!(
                    "warning: {} gold queries failed on this graph and are not scored (see examples.jsonl)",
                    report.gold_errors
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: writing results: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(feature = "mcp")]
fn cmd_serve_mcp(a: McpArgs) -> ExitCode {
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
    let config = grape::mcp::McpConfig {
        namespace: a.namespace,
        read_only: a.read_only,
        max_rows: a.max_rows.max(1),
        token_limit: match a.token_limit {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(grape::mcp::server::DEFAULT_TOKEN_LIMIT),
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
fn cmd_serve_bolt(
    graph: &str,
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
    let g = match grape::engine::load_graph(graph, types) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let config = grape::bolt::Config { auth, ..config };
    let server = match grape::bolt::Server::bind(&format!("{bind}:{port}"), g, config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot listen on {bind}:{port}: {e}");
            return ExitCode::from(2);
        }
    };
    let addr = server.local_addr();
    println!("grape: Bolt server listening on bolt://{addr} (neo4j://{addr} for routing drivers)");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    server.serve();
    ExitCode::SUCCESS
}

/// Reports a failure on standard error; exit status 2 (bad input or setup).
#[cfg(any(feature = "neo4j", feature = "llm"))]
fn fail(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::from(2)
}

#[cfg(feature = "neo4j")]
use live::{RecordArgs, ReplayCheckArgs};

#[cfg(feature = "neo4j")]
mod live {
    use grape::backend::neo4j::{Neo4j, Neo4jConfig, SchemaSource};
    use grape::backend::record::{self, QueryOutcome, RecordOptions, Verdict};
    use std::path::PathBuf;
    use std::process::ExitCode;
    use std::time::Duration;

    /// How to reach the live database; flags override the NEO4J_* variables.
    #[derive(clap::Args)]
    pub struct Neo4jArgs {
        /// bolt://, neo4j://, bolt+s://, neo4j+s://, bolt+ssc:// or neo4j+ssc:// URI (NEO4J_URI).
        #[arg(long = "neo4j", value_name = "URI")]
        uri: Option<String>,
        /// User name (NEO4J_USERNAME, default neo4j); empty for no authentication.
        #[arg(long)]
        user: Option<String>,
        /// Password (NEO4J_PASSWORD).
        #[arg(long)]
        password: Option<String>,
        /// Database (NEO4J_DATABASE, default: the server's default database).
        #[arg(long)]
        database: Option<String>,
        /// Per-query time limit in milliseconds.
        #[arg(long, default_value_t = 60_000)]
        timeout_ms: u64,
        /// Where the schema comes from: `auto` (apoc.meta.schema, else db.schema.*), `apoc`
        /// or `db-schema`.
        #[arg(long, default_value = "auto")]
        schema_source: String,
    }

    impl Neo4jArgs {
        fn connect(&self) -> Result<Neo4j, String> {
            let mut c = Neo4jConfig::from_env();
            if let Some(u) = &self.uri {
                c.uri = u.clone();
            }
            if let Some(u) = &self.user {
                c.user = u.clone();
            }
            if let Some(p) = &self.password {
                c.password = p.clone();
            }
            if let Some(d) = &self.database {
                c.database = Some(d.clone());
            }
            c.timeout = Some(Duration::from_millis(self.timeout_ms));
            c.schema_source = match self.schema_source.as_str() {
                "auto" => SchemaSource::Auto,
                "apoc" => SchemaSource::Apoc,
                "db-schema" => SchemaSource::DbSchema,
                other => {
                    return Err(format!(
                        "--schema-source {other}: expected auto, apoc or db-schema"
                    ))
                }
            };
            Neo4j::connect(c).map_err(|e| e.to_string())
        }
    }

    #[derive(clap::Args)]
    pub struct RecordArgs {
        #[command(flatten)]
        neo4j: Neo4jArgs,
        /// The dataset whose gold queries are recorded (any format `grape eval` reads).
        #[arg(long)]
        dataset: PathBuf,
        /// The dataset format; detected from the file when absent.
        #[arg(long)]
        format: Option<grape::dataset::DatasetFormat>,
        /// The fixture to write.
        #[arg(long)]
        out: PathBuf,
        /// Store the full neighbourhood of every provenance node, this many hops deep.
        #[arg(long, default_value_t = 0)]
        hops: usize,
        /// Extra diverse paths (one or two hops) for generated queries.
        #[arg(long, default_value_t = 0)]
        sample: usize,
        /// Seed of the sample.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Most replay-and-extend rounds for queries the fixture answers differently.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// Queries run at once.
        #[arg(long, default_value_t = 4)]
        jobs: usize,
    }

    #[derive(clap::Args)]
    pub struct ReplayCheckArgs {
        #[command(flatten)]
        neo4j: Neo4jArgs,
        /// The fixture (a graph file `grape eval --graph` reads).
        #[arg(long)]
        fixture: String,
        /// The dataset whose gold queries are checked.
        #[arg(long)]
        dataset: PathBuf,
        /// The dataset format; detected from the file when absent.
        #[arg(long)]
        format: Option<grape::dataset::DatasetFormat>,
        /// Also write the per-query outcomes and the fidelity here (JSON).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Queries run at once.
        #[arg(long, default_value_t = 4)]
        jobs: usize,
    }

    fn summarize(outcomes: &[QueryOutcome]) -> String {
        let n = |f: fn(&Verdict) -> bool| outcomes.iter().filter(|o| f(&o.verdict)).count();
        let agree = n(|v| matches!(v, Verdict::Agrees));
        let differ = n(|v| matches!(v, Verdict::Differs(_) | Verdict::FixtureError(_)));
        let live_err = n(|v| matches!(v, Verdict::LiveError(_)));
        let skipped = n(|v| matches!(v, Verdict::Skipped(_)));
        let fid = record::fidelity(outcomes)
            .map(|f| format!("{:.1}%", f * 100.0))
            .unwrap_or_else(|| "n/a".into());
        format!(
            "fidelity {fid}: {agree} agree, {differ} differ, {live_err} fail live, {skipped} skipped"
        )
    }

    fn print_problems(outcomes: &[QueryOutcome]) {
        for o in outcomes {
            match &o.verdict {
                Verdict::Agrees => {}
                Verdict::Differs(d) => eprintln!("{}: differs: {d}", o.id),
                Verdict::FixtureError(e) => eprintln!("{}: fails on the fixture: {e}", o.id),
                Verdict::LiveError(e) => eprintln!("{}: fails live: {e}", o.id),
                Verdict::Skipped(why) => eprintln!("{}: skipped: {why}", o.id),
            }
        }
    }

    use super::fail;

    fn write_json(path: &std::path::Path, doc: &serde_json::Value) -> Result<(), ExitCode> {
        let text = serde_json::to_string_pretty(doc).unwrap_or_default() + "\n";
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
        }
        grape::dataset::write_atomically(path, text.as_bytes())
            .map_err(|e| fail(format!("cannot write {}: {e}", path.display())))
    }

    pub fn cmd_record(a: RecordArgs) -> ExitCode {
        run_record(a).unwrap_or_else(|code| code)
    }

    fn run_record(a: RecordArgs) -> Result<ExitCode, ExitCode> {
        let examples = grape::dataset::read_dataset(&a.dataset, a.format).map_err(fail)?;
        let db = a.neo4j.connect().map_err(fail)?;
        let opts = RecordOptions {
            hops: a.hops,
            sample: a.sample,
            seed: a.seed,
            rounds: a.rounds,
            jobs: a.jobs.max(1),
        };
        let rec = record::record(&db, &examples, &opts).map_err(fail)?;
        let source = grape::backend::Backend::describe(&db);
        write_json(&a.out, &rec.to_json(&source, &opts))?;
        let schema_path = schema_path(&a.out);
        match rec.schema.write(grape::schema::SchemaFormat::Apoc) {
            Ok(w) => grape::dataset::write_atomically(&schema_path, w.text.as_bytes())
                .map_err(|e| fail(format!("cannot write {}: {e}", schema_path.display())))?,
            Err(e) => eprintln!("warning: the schema was not written: {e}"),
        }
        print_problems(&rec.outcomes);
        println!(
            "recorded {} nodes and {} relationships from {source} into {} (schema: {}); {} replay round(s); {}",
            rec.fixture.node_count(),
            rec.fixture.relationship_count(),
            a.out.display(),
            schema_path.display(),
            rec.rounds,
            summarize(&rec.outcomes)
        );
        Ok(ExitCode::SUCCESS)
    }

    fn schema_path(out: &std::path::Path) -> PathBuf {
        let stem = out
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "fixture".into());
        out.with_file_name(format!("{stem}.schema.json"))
    }

    pub fn cmd_replay_check(a: ReplayCheckArgs) -> ExitCode {
        run_replay_check(a).unwrap_or_else(|code| code)
    }

    fn run_replay_check(a: ReplayCheckArgs) -> Result<ExitCode, ExitCode> {
        let examples = grape::dataset::read_dataset(&a.dataset, a.format).map_err(fail)?;
        let graph = grape::engine::load_graph(&a.fixture, Default::default()).map_err(fail)?;
        let db = a.neo4j.connect().map_err(fail)?;
        let outcomes = record::replay_check(&db, &graph, &examples, a.jobs.max(1)).map_err(fail)?;
        print_problems(&outcomes);
        let fidelity = record::fidelity(&outcomes);
        if let Some(out) = &a.out {
            write_json(
                out,
                &serde_json::json!({"fidelity": fidelity, "queries": outcomes}),
            )?;
        }
        println!("{}", summarize(&outcomes));
        Ok(if fidelity.is_none_or(|f| f == 1.0) {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    }
}

#[cfg(feature = "llm")]
mod llm_cli {
    use grape::llm::{
        self, generate_predictions, GenerateOptions, Llm, LlmConfig, ModelSpec, Prices, Prompter,
        Strategy,
    };
    use std::path::PathBuf;
    use std::process::ExitCode;
    use std::time::Duration;

    /// The model and how to reach it.
    #[derive(clap::Args)]
    pub struct ModelArgs {
        /// `provider:model`: openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, vllm:NAME,
        /// ollama:NAME (a bare name is openai:).
        #[arg(long)]
        model: ModelSpec,
        /// API base URL (OPENAI_BASE_URL / ANTHROPIC_BASE_URL; default: the provider's).
        #[arg(long)]
        base_url: Option<String>,
        /// API key (default: OPENAI_API_KEY / ANTHROPIC_API_KEY).
        #[arg(long)]
        api_key: Option<String>,
        /// Response cache directory; `none` to disable.
        #[arg(long, default_value = ".grape-cache")]
        cache: String,
        /// Requests in flight at once.
        #[arg(long, default_value_t = 10)]
        concurrency: usize,
        /// Seconds one HTTP request may take.
        #[arg(long, default_value_t = 120)]
        timeout_s: u64,
        /// Retries on 429, 5xx, timeouts and malformed replies.
        #[arg(long, default_value_t = 8)]
        max_retries: u32,
        /// Prices overriding the built-in table: JSON {"model": {"input": USD, "output": USD}}
        /// per million tokens.
        #[arg(long)]
        prices: Option<PathBuf>,
    }

    impl ModelArgs {
        fn client(&self) -> Result<Llm, String> {
            self.client_for(self.model.clone())
        }

        /// A client for another model at the same endpoint, with the same settings.
        fn client_for(&self, model: ModelSpec) -> Result<Llm, String> {
            let mut prices = Prices::default();
            if let Some(p) = &self.prices {
                let text = std::fs::read_to_string(p)
                    .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
                prices = prices.with_overrides(&text)?;
            }
            let config = LlmConfig {
                base_url: self.base_url.clone(),
                api_key: self.api_key.clone(),
                timeout: Duration::from_secs(self.timeout_s.max(1)),
                max_retries: self.max_retries,
                concurrency: self.concurrency.max(1),
                cache_dir: (self.cache != "none").then(|| PathBuf::from(&self.cache)),
                prices,
                ..LlmConfig::default()
            };
            Llm::new(model, config).map_err(|e| e.to_string())
        }
    }

    #[derive(clap::Subcommand)]
    pub enum GenerateCommand {
        /// Text-to-Cypher predictions for a dataset's questions, as a predictions file
        /// `grape eval` reads. With --repair N, each answer the validator rejects is sent back
        /// with its diagnostics up to N times, and the answers before repair go to
        /// OUT.no-repair.jsonl as well. Interrupted runs resume (OUT.partial); responses are
        /// cached (--cache).
        Predictions(PredictionsArgs),
        /// A GRAPE-style dataset from a graph: sampled paths (simple 0–2 hops, multi-hop 2–4
        /// hops) turned into question/Cypher pairs by the model, with optional noise; kept when
        /// KG-valid, runnable and (with --single-row) one row; answered in natural language
        /// from the result, UNKNOWN answers dropped. Writes GRAPE's JSON record format.
        Dataset(DatasetArgs),
    }

    #[derive(clap::Args)]
    pub struct DatasetArgs {
        #[command(flatten)]
        model: ModelArgs,
        /// The graph to sample (as for `grape query`).
        #[arg(long)]
        graph: String,
        /// Paths sampled per mode.
        #[arg(long, default_value_t = 20)]
        paths: usize,
        /// Modes: simple, multi-hop (comma-separated).
        #[arg(long, default_value = "simple,multi-hop")]
        modes: String,
        /// Share of questions asked with noise (typos, colloquial phrasing).
        #[arg(long, default_value_t = 0.2)]
        noise: f64,
        /// Keep only queries whose result is one row.
        #[arg(long)]
        single_row: bool,
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// The `database` field of the records (default: the graph file's name).
        #[arg(long)]
        database: Option<String>,
        /// The dataset to write (GRAPE JSON).
        #[arg(long)]
        out: PathBuf,
    }

    #[derive(clap::Args)]
    pub struct PredictionsArgs {
        #[command(flatten)]
        model: ModelArgs,
        /// The questions (any format `grape eval` reads).
        #[arg(long)]
        dataset: PathBuf,
        #[arg(long)]
        format: Option<grape::dataset::DatasetFormat>,
        /// zero-shot, fixed-icl or dynamic-icl (BM25 over the training questions).
        #[arg(long, default_value = "zero-shot")]
        strategy: Strategy,
        /// Training examples for the in-context strategies.
        #[arg(long)]
        train: Option<PathBuf>,
        /// In-context examples per prompt.
        #[arg(long, default_value_t = 5)]
        k_shots: usize,
        /// Samples per question (for Pass@k).
        #[arg(long, default_value_t = 1)]
        samples: usize,
        /// Repair rounds per sample.
        #[arg(long, default_value_t = 0)]
        repair: usize,
        /// The schema in the prompt and for validation (any format `grape schema` reads).
        #[arg(long)]
        schema: Option<PathBuf>,
        /// Or: the graph whose own schema is used.
        #[arg(long)]
        graph: Option<String>,
        /// Give the questions with their gold entity links (ZOGRASCOPE's nl_gold_linked).
        #[arg(long)]
        linked: bool,
        /// Dynamic ICL by embeddings from this model (an OpenAI-compatible `/embeddings`
        /// endpoint at the same --base-url, e.g. openai:text-embedding-3-small) instead of BM25.
        #[arg(long)]
        embedding_model: Option<ModelSpec>,
        /// Seed of the fixed in-context examples.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Sampling temperature (default 0 for one sample, 0.7 for several).
        #[arg(long)]
        temperature: Option<f64>,
        /// The predictions file to write.
        #[arg(long)]
        out: PathBuf,
    }

    #[derive(clap::Args)]
    pub struct JudgeArgs {
        #[command(flatten)]
        model: ModelArgs,
        /// Questions with reference answers (GRAPE JSON, or JSON Lines with `answer`).
        #[arg(long)]
        dataset: PathBuf,
        #[arg(long)]
        format: Option<grape::dataset::DatasetFormat>,
        /// JSON Lines: `id` and `answer`.
        #[arg(long)]
        answers: PathBuf,
        /// Judge each reference against itself first.
        #[arg(long)]
        self_check: bool,
        /// Where the verdicts go (JSON Lines).
        #[arg(long)]
        out: PathBuf,
    }

    use super::fail;

    #[cfg(feature = "mcp")]
    #[derive(clap::Args)]
    pub struct AgentEvalArgs {
        #[command(flatten)]
        model: ModelArgs,
        /// The MCP server: a streamable HTTP URL (http://127.0.0.1:8000/mcp), or a command run
        /// over stdio (e.g. "grape serve mcp --graph G", or "mcp-neo4j-cypher --transport
        /// stdio" with the NEO4J_* variables set).
        #[arg(long)]
        server: String,
        /// Questions with reference answers (GRAPE JSON, or JSON Lines with `answer`).
        #[arg(long)]
        dataset: PathBuf,
        #[arg(long)]
        format: Option<grape::dataset::DatasetFormat>,
        /// The judge (default: the agent's model).
        #[arg(long)]
        judge_model: Option<ModelSpec>,
        /// A graph on which the agent's last Cypher query is scored against the gold query.
        #[arg(long)]
        graph: Option<String>,
        /// Most model turns per question (GRAPE used 10 and 25).
        #[arg(long, default_value_t = 10)]
        max_steps: usize,
        /// Judge scores at or above this count as correct.
        #[arg(long, default_value_t = 0.5)]
        correct_at: f64,
        /// Output directory (records.jsonl, report.json).
        #[arg(long)]
        out: PathBuf,
    }

    #[cfg(feature = "mcp")]
    #[derive(clap::Args)]
    pub struct SessionEvalArgs {
        #[command(flatten)]
        model: ModelArgs,
        /// CypherTurn sessions (a session object, an array or JSON Lines).
        #[arg(long)]
        sessions: PathBuf,
        /// The graph of sessions that name none (or name one not in --graphs).
        #[arg(long)]
        graph: Option<String>,
        /// A folder of graphs by name (NAME.json, NAME.cypher, NAME/…), for sessions' `graph`.
        #[arg(long)]
        graphs: Option<PathBuf>,
        /// guided or agentic.
        #[arg(long, default_value = "guided")]
        protocol: grape::mcp::Protocol,
        /// Guided: most actions per turn.
        #[arg(long, default_value_t = 3)]
        actions_per_turn: usize,
        /// Agentic: budget per turn m (B = turns × m; CypherTurn uses 3, 5 and 10).
        #[arg(long, default_value_t = 5)]
        budget_per_turn: usize,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
    }

    #[cfg(feature = "mcp")]
    pub fn cmd_session_eval(a: SessionEvalArgs) -> ExitCode {
        session_eval(a).unwrap_or_else(|c| c)
    }

    #[cfg(feature = "mcp")]
    fn session_eval(a: SessionEvalArgs) -> Result<ExitCode, ExitCode> {
        let examples = grape::dataset::read_dataset(
            &a.sessions,
            Some(grape::dataset::DatasetFormat::CypherTurn),
        )
        .map_err(fail)?;
        let default = match &a.graph {
            Some(g) => Some(grape::engine::load_graph(g, Default::default()).map_err(fail)?),
            None => None,
        };
        let mut named = Vec::new();
        if let Some(dir) = &a.graphs {
            let names: std::collections::BTreeSet<&String> =
                examples.iter().filter_map(|e| e.graph.as_ref()).collect();
            for n in names {
                if let Some(g) =
                    grape::eval::load_named_graph(dir, n, Default::default()).map_err(fail)?
                {
                    named.push((n.clone(), g));
                }
            }
        }
        let graphs = grape::eval::Graphs::new(
            default.as_ref(),
            named.iter().map(|(n, g)| (n.clone(), g)),
            None,
        );
        let llm = a.model.client().map_err(fail)?;
        let opts = grape::mcp::SessionOptions {
            protocol: a.protocol,
            actions_per_turn: a.actions_per_turn.max(1),
            budget_per_turn: a.budget_per_turn.max(1),
            ..Default::default()
        };
        let (predictions, traces) =
            grape::mcp::run_sessions(&llm, &graphs, &examples, &opts, a.model.concurrency.max(1));
        grape::dataset::create_out_dir(&a.out)
            .map_err(|e| fail(format!("cannot create the output: {e}")))?;
        let preds: String = examples
            .iter()
            .filter_map(|e| predictions.get(&e.id))
            .map(|p| {
                serde_json::json!({"id": p.id, "cypher": p.candidates.first()}).to_string() + "\n"
            })
            .collect();
        grape::dataset::write_atomically(&a.out.join("predictions.jsonl"), preds.as_bytes())
            .map_err(fail)?;
        let lines: String = traces
            .iter()
            .map(|t| serde_json::to_string(t).unwrap_or_default() + "\n")
            .collect();
        grape::dataset::write_atomically(&a.out.join("traces.jsonl"), lines.as_bytes())
            .map_err(fail)?;
        // A rerun scores afresh: the per-example log belongs to this run's predictions.
        let _ = std::fs::remove_file(a.out.join("examples.jsonl"));
        let (report, _) = grape::eval::evaluate(
            &graphs,
            &examples,
            &predictions,
            &grape::eval::EvalOptions::default(),
            Some(&a.out),
        )
        .map_err(fail)?;
        print!("{}", grape::eval::report_table(&report));
        let used: usize = traces.iter().map(|t| t.used).sum();
        let exhausted = traces.iter().filter(|t| t.exhausted).count();
        let cost: Option<f64> = traces
            .iter()
            .map(|t| t.cost_usd)
            .try_fold(0.0, |s, c| c.map(|c| s + c));
        println!(
            "{} sessions, {} actions, {} ran out of budget; cost {}; reports in {}",
            traces.len(),
            used,
            exhausted,
            cost.map(|c| format!("${c:.4}"))
                .unwrap_or_else(|| "unknown".into()),
            a.out.display()
        );
        Ok(ExitCode::SUCCESS)
    }

    #[cfg(feature = "mcp")]
    pub fn cmd_agent_eval(a: AgentEvalArgs) -> ExitCode {
        agent_eval(a).unwrap_or_else(|c| c)
    }

    #[cfg(feature = "mcp")]
    fn agent_eval(a: AgentEvalArgs) -> Result<ExitCode, ExitCode> {
        let examples = grape::dataset::read_dataset(&a.dataset, a.format).map_err(fail)?;
        let llm = a.model.client().map_err(fail)?;
        let judge_llm = match &a.judge_model {
            Some(m) => a.model.client_for(m.clone()).map_err(fail)?,
            None => a.model.client().map_err(fail)?,
        };
        let graph = match &a.graph {
            Some(g) => Some(grape::engine::load_graph(g, Default::default()).map_err(fail)?),
            None => None,
        };
        let mcp = grape::mcp::McpClient::connect(&a.server).map_err(fail)?;
        let opts = grape::mcp::AgentOptions {
            max_steps: a.max_steps.max(1),
            correct_at: a.correct_at,
            workers: a.model.concurrency.max(1),
            ..Default::default()
        };
        let bar = progress(examples.len());
        let tick = |done: usize, _: usize| bar.set_position(done as u64);
        let records = grape::mcp::evaluate(
            &llm,
            &judge_llm,
            &mcp,
            &examples,
            graph.as_ref(),
            &opts,
            &tick,
        );
        bar.finish_and_clear();
        let report = grape::mcp::report(&records, a.correct_at);
        grape::dataset::create_out_dir(&a.out)
            .map_err(|e| fail(format!("cannot create the output: {e}")))?;
        let lines: String = records
            .iter()
            .map(|r| serde_json::to_string(r).unwrap_or_default() + "\n")
            .collect();
        grape::dataset::write_atomically(&a.out.join("records.jsonl"), lines.as_bytes())
            .map_err(fail)?;
        let text = serde_json::to_string_pretty(&report).unwrap_or_default() + "\n";
        grape::dataset::write_atomically(&a.out.join("report.json"), text.as_bytes())
            .map_err(fail)?;
        let o = &report.overall;
        let f = |x: Option<f64>| x.map(|v| format!("{v:.3}")).unwrap_or_else(|| "n/a".into());
        println!(
            "{} questions: judge score {}, {} correct, EX {}, {:.1} tool calls and {:.1} steps per question, {} hit the step limit; cost {} (per correct answer {})",
            o.n,
            f(o.judge_score),
            o.correct,
            f(o.ex),
            o.tool_calls,
            o.steps,
            o.step_limit_hits,
            o.cost_usd.map(|c| format!("${c:.4}")).unwrap_or_else(|| "unknown".into()),
            o.cost_per_correct_usd
                .map(|c| format!("${c:.4}"))
                .unwrap_or_else(|| "n/a".into()),
        );
        println!("records: {}", a.out.join("records.jsonl").display());
        Ok(ExitCode::SUCCESS)
    }

    pub fn cmd_generate(c: GenerateCommand) -> ExitCode {
        match c {
            GenerateCommand::Predictions(a) => predictions(a).unwrap_or_else(|c| c),
            GenerateCommand::Dataset(a) => dataset(a).unwrap_or_else(|c| c),
        }
    }

    fn dataset(a: DatasetArgs) -> Result<ExitCode, ExitCode> {
        let modes = a
            .modes
            .split(',')
            .map(|m| match m.trim() {
                "simple" => Ok(llm::Mode::Simple),
                "multi-hop" => Ok(llm::Mode::MultiHop),
                other => Err(format!(
                    "--modes: unknown mode `{other}` (simple, multi-hop)"
                )),
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(fail)?;
        if !(0.0..=1.0).contains(&a.noise) {
            return Err(fail("--noise must be between 0 and 1"));
        }
        let graph = grape::engine::load_graph(&a.graph, Default::default()).map_err(fail)?;
        let schema = grape::engine::schema_of(&graph);
        let db = grape::backend::Memory::new(graph);
        let llm = a.model.client().map_err(fail)?;
        let database = a.database.clone().unwrap_or_else(|| {
            std::path::Path::new(&a.graph)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "graph".into())
        });
        let opts = llm::DatasetOptions {
            paths: a.paths,
            modes,
            noise: a.noise,
            single_row: a.single_row,
            seed: a.seed,
            database,
        };
        let (records, summary) = llm::generate_dataset(&llm, &db, &schema, &opts).map_err(fail)?;
        let text = serde_json::to_string_pretty(&records).unwrap_or_default() + "\n";
        if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        grape::dataset::write_atomically(&a.out, text.as_bytes())
            .map_err(|e| fail(format!("cannot write {}: {e}", a.out.display())))?;
        let acct = llm.accounting();
        println!(
            "{} records from {} paths into {} (dropped: {} unparseable, {} not KG-valid, {} failed to run, {} empty, {} not one row, {} UNKNOWN answers, {} duplicates); {} calls, cost {}",
            summary.kept,
            summary.paths,
            a.out.display(),
            summary.unparseable_reply,
            summary.not_kg_valid,
            summary.failed_to_run,
            summary.empty_result,
            summary.not_single_row,
            summary.unknown_answer,
            summary.duplicate,
            acct.calls,
            acct.cost_usd
                .map(|c| format!("${c:.4}"))
                .unwrap_or_else(|| "unknown".into())
        );
        Ok(ExitCode::SUCCESS)
    }

    fn predictions(a: PredictionsArgs) -> Result<ExitCode, ExitCode> {
        let examples = grape::dataset::read_dataset(&a.dataset, a.format).map_err(fail)?;
        let train = match &a.train {
            Some(t) => grape::dataset::read_dataset(t, None).map_err(fail)?,
            None => Vec::new(),
        };
        let schema = match (&a.schema, &a.graph) {
            (Some(p), _) => grape::schema::Schema::read_path(p, None).map_err(fail)?,
            (None, Some(g)) => {
                let g = grape::engine::load_graph(g, Default::default()).map_err(fail)?;
                grape::engine::schema_of(&g)
            }
            (None, None) => return Err(fail("give the schema: --schema FILE or --graph G")),
        };
        let llm = a.model.client().map_err(fail)?;
        let prompter = match (&a.embedding_model, a.strategy) {
            (Some(m), Strategy::DynamicIcl) => {
                let embedder = a.model.client_for(m.clone()).map_err(fail)?;
                Prompter::with_embeddings(&schema, a.k_shots, train, &examples, &embedder, a.linked)
                    .map_err(fail)?
            }
            (Some(_), _) => return Err(fail("--embedding-model goes with --strategy dynamic-icl")),
            (None, _) => Prompter::new(&schema, a.strategy, a.k_shots, train, a.seed, a.linked)
                .map_err(fail)?,
        };
        let opts = GenerateOptions {
            samples: a.samples.max(1),
            repair: a.repair,
            temperature: a.temperature,
            workers: a.model.concurrency.max(1),
            ..GenerateOptions::default()
        };
        let bar = progress(examples.len());
        let tick = |done: usize, _total: usize| bar.set_position(done as u64);
        let summary =
            generate_predictions(&llm, &schema, &prompter, &examples, &opts, &a.out, &tick)
                .map_err(fail)?;
        bar.finish_and_clear();
        let acct = &summary.accounting;
        println!(
            "{} questions ({} resumed, {} failed), {} samples: {} valid before repair, {} after; \
             {} calls ({} from the cache, {} retries), {} input + {} output tokens, cost {}",
            summary.questions,
            summary.resumed,
            summary.failed,
            summary.samples,
            summary.valid_before_repair,
            summary.valid_after_repair,
            acct.calls,
            acct.cache_hits,
            acct.retries,
            acct.input_tokens,
            acct.output_tokens,
            acct.cost_usd
                .map(|c| format!("${c:.4}"))
                .unwrap_or_else(|| "unknown (no price for this model; see --prices)".into()),
        );
        println!("predictions: {}", summary.out.display());
        if let Some(p) = &summary.out_before_repair {
            println!("before repair: {}", p.display());
        }
        Ok(ExitCode::SUCCESS)
    }

    fn progress(n: usize) -> indicatif::ProgressBar {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(n as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {eta}") {
            bar.set_style(style);
        }
        bar
    }

    pub fn cmd_judge(a: JudgeArgs) -> ExitCode {
        judge(a).unwrap_or_else(|c| c)
    }

    fn judge(a: JudgeArgs) -> Result<ExitCode, ExitCode> {
        let examples = grape::dataset::read_dataset(&a.dataset, a.format).map_err(fail)?;
        let text = std::fs::read_to_string(&a.answers)
            .map_err(|e| fail(format!("cannot read {}: {e}", a.answers.display())))?;
        let mut answers = std::collections::HashMap::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v: serde_json::Value = serde_json::from_str(line).map_err(|e| {
                fail(format!(
                    "{}:{}: not valid JSON: {e}",
                    a.answers.display(),
                    i + 1
                ))
            })?;
            let id = match &v["id"] {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => return Err(fail(format!("{}:{}: no `id`", a.answers.display(), i + 1))),
            };
            let ans = v["answer"].as_str().unwrap_or("").to_string();
            answers.insert(id, ans);
        }
        let llm = a.model.client().map_err(fail)?;
        let items: Vec<(&grape::dataset::Example, &String)> = examples
            .iter()
            .filter_map(|e| e.answer.as_ref().map(|r| (e, r)))
            .collect();
        if items.is_empty() {
            return Err(fail("the dataset has no reference answers (`answer`)"));
        }
        let jobs = a.model.concurrency.max(1);
        let run = |pairs: Vec<(&str, &str, &str)>| -> Vec<Result<llm::Judgement, llm::LlmError>> {
            let next = std::sync::atomic::AtomicUsize::new(0);
            let out: Vec<std::sync::Mutex<Option<_>>> =
                pairs.iter().map(|_| std::sync::Mutex::new(None)).collect();
            std::thread::scope(|s| {
                for _ in 0..jobs.min(pairs.len().max(1)) {
                    s.spawn(|| loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((q, r, c)) = pairs.get(i) else { break };
                        let v = llm::judge(&llm, q, r, c);
                        *out[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
                    });
                }
            });
            out.into_iter()
                .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
                .collect()
        };
        if a.self_check {
            let pairs = items
                .iter()
                .map(|(e, r)| (e.question.as_str(), r.as_str(), r.as_str()))
                .collect();
            let checks = run(pairs);
            let pass = checks
                .iter()
                .filter(|j| matches!(j, Ok(j) if j.score == 1.0))
                .count();
            println!(
                "self-check: {pass} of {} references judged 1 against themselves",
                checks.len()
            );
        }
        let empty = String::new();
        let pairs = items
            .iter()
            .map(|(e, r)| {
                let c = answers.get(&e.id).unwrap_or(&empty);
                (e.question.as_str(), r.as_str(), c.as_str())
            })
            .collect();
        let verdicts = run(pairs);
        let mut lines = String::new();
        let mut sum = 0.0;
        let mut scored = 0;
        for ((e, _), v) in items.iter().zip(&verdicts) {
            let rec = match v {
                Ok(j) => {
                    sum += j.score;
                    scored += 1;
                    serde_json::json!({"id": e.id, "score": j.score, "reasoning": j.reasoning,
                        "answered": answers.contains_key(&e.id)})
                }
                Err(err) => serde_json::json!({"id": e.id, "error": err.to_string()}),
            };
            lines.push_str(&rec.to_string());
            lines.push('\n');
        }
        grape::dataset::write_atomically(&a.out, lines.as_bytes())
            .map_err(|e| fail(format!("cannot write {}: {e}", a.out.display())))?;
        let acct = llm.accounting();
        println!(
            "judged {scored} of {} answers: mean score {:.3}; {} calls ({} cached), cost {}",
            items.len(),
            if scored > 0 { sum / scored as f64 } else { 0.0 },
            acct.calls,
            acct.cache_hits,
            acct.cost_usd
                .map(|c| format!("${c:.4}"))
                .unwrap_or_else(|| "unknown".into())
        );
        Ok(ExitCode::SUCCESS)
    }
}
