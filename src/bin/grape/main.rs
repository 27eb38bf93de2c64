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

mod check;
mod eval;
#[cfg(feature = "neo4j")]
mod live;
#[cfg(feature = "llm")]
mod llm_cli;
mod query;
mod schema;
#[cfg(any(feature = "bolt", feature = "mcp"))]
mod serve;
mod textsim;

use check::{cmd_analyze, cmd_parse, cmd_validate};
use eval::cmd_eval;
use query::cmd_query;
use schema::cmd_schema_convert;
#[cfg(feature = "bolt")]
use serve::cmd_serve_bolt;
#[cfg(feature = "mcp")]
use serve::cmd_serve_mcp;
use textsim::cmd_textsim;

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
        /// Print the plan as a tree instead of running the query (as `EXPLAIN`); with
        /// --json, the result JSON carries it as `plan`.
        #[arg(long, conflicts_with_all = ["profile", "jsonl"])]
        explain: bool,
        /// Run the query and print the plan with rows and db hits per clause (as `PROFILE`).
        #[arg(long, conflicts_with = "jsonl")]
        profile: bool,
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
    explain: bool,
    profile: bool,
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

/// Reports a failure on standard error; exit status 2 (bad input or setup).
#[cfg(any(feature = "neo4j", feature = "llm"))]
fn fail(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::from(2)
}

#[cfg(feature = "neo4j")]
use live::{RecordArgs, ReplayCheckArgs};
