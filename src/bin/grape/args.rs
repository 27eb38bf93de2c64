//! The command line's arguments (clap), one struct or enum per command family.

use super::*;

#[derive(Parser)]
#[command(
    name = "grape",
    version,
    about = "Test and evaluate text-to-Cypher systems: parse, analyse, execute and score Cypher offline"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Servers over an in-memory graph.
#[derive(Subcommand)]
pub(crate) enum ServeCommand {
    /// A Bolt server (Bolt 4.0–4.4 and 5.0–5.8) over an in-memory graph: the official Neo4j
    /// drivers, and tools built on them, connect to bolt://HOST:PORT or neo4j://HOST:PORT.
    /// Prints the address on its first line of output, then serves until stopped.
    #[cfg(feature = "bolt")]
    Bolt {
        /// The graph to serve (as for `grape query`), as the default database.
        #[arg(long, required_unless_present = "graphs")]
        graph: Option<String>,
        /// Serve every graph of this folder as a database of its name (NAME.json,
        /// NAME.cypher, NAME/graph.json or a Data Importer folder NAME/); drivers pick one with
        /// their `database` setting. With --graph too, that graph is the default database.
        #[arg(long, value_name = "DIR")]
        graphs: Option<PathBuf>,
        /// The default database's name: where a session that names none runs. Without --graph
        /// and with no graph of this name in --graphs, it is an empty graph.
        #[arg(long, default_value = "neo4j")]
        database: String,
        /// Each database also has a user of its name whose password is its name (the pattern
        /// of Neo4j's public demo server), whose home is that database and who may use no
        /// other; --auth, if given, stays a user of every database.
        #[arg(long)]
        database_users: bool,
        /// A composite database over databases served: NAME=ALIAS:DATABASE[,ALIAS:DATABASE…]
        /// (repeatable). A session on it runs each statement on the constituent its leading
        /// `USE NAME.ALIAS` names; `graph.names()` lists them.
        #[arg(long, value_name = "SPEC")]
        composite: Vec<String>,
        /// Properties of a composite's alias, as `graph.propertiesByName()` returns them:
        /// NAME.ALIAS={JSON map} (repeatable).
        #[arg(long, value_name = "SPEC")]
        alias_properties: Vec<String>,
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
        /// The edition served: `community` (Neo4j's errors for key, existence and property
        /// type constraints) or `enterprise` (accepts them).
        #[arg(long, value_parser = ["community", "enterprise"], default_value = "community")]
        edition: String,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// An MCP server over an in-memory graph (or a live Neo4j) with the tools of Neo4j's
    /// official MCP server (get-schema, read-cypher, write-cypher) or of mcp-neo4j-cypher
    /// (get_neo4j_schema, read_neo4j_cypher, write_neo4j_cypher). Over stdio (for an agent
    /// that starts it) or streamable HTTP at http://BIND:PORT/mcp (prints the URL first).
    #[cfg(feature = "mcp")]
    Mcp(McpArgs),
}

#[cfg(feature = "mcp")]
#[derive(clap::Args)]
pub(crate) struct McpArgs {
    /// The graph to serve (as for `grape query`).
    #[arg(long, required_unless_present = "neo4j")]
    pub(crate) graph: Option<String>,
    /// Serve a live Neo4j instead (feature `neo4j`; user, password and database from
    /// NEO4J_USERNAME, NEO4J_PASSWORD and NEO4J_DATABASE).
    #[arg(long, value_name = "URI", conflicts_with = "graph")]
    pub(crate) neo4j: Option<String>,
    /// Value types for Data Importer folders: `strings` or `model`.
    #[arg(long, default_value = "strings")]
    pub(crate) types: grape::graph::import::ImporterTypes,
    /// Whose tools: `neo4j-mcp` (Neo4j's official MCP server, which Neo4j's documentation
    /// sets agents up with) or `mcp-neo4j-cypher`.
    #[arg(long, default_value = "neo4j-mcp")]
    pub(crate) contract: grape::mcp::Contract,
    /// `stdio` or `http`.
    #[arg(long, default_value = "stdio")]
    pub(crate) transport: String,
    /// HTTP port (0: any free port).
    #[arg(long, default_value_t = 8000)]
    pub(crate) port: u16,
    /// HTTP address to bind; loopback unless you mean to expose the graph.
    #[arg(long, default_value = "127.0.0.1")]
    pub(crate) bind: String,
    /// Leave out the write tool.
    #[arg(long)]
    pub(crate) read_only: bool,
    /// Prefix tool names with `NAMESPACE-` (mcp-neo4j-cypher's contract).
    #[arg(long, default_value = "")]
    pub(crate) namespace: String,
    /// Also offer `search_values` (grape's tool for finding property values).
    #[arg(long)]
    pub(crate) search_values: bool,
    /// Most rows a read returns (default: all, as the real servers).
    #[arg(long)]
    pub(crate) max_rows: Option<usize>,
    /// The sample `apoc.meta.schema` reads for the schema tool (-1: the whole graph; default:
    /// the contract's, 100 for neo4j-mcp, 1000 for mcp-neo4j-cypher).
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) sample_size: Option<i64>,
    /// Cut a read's reply at this many tokens of tiktoken's cl100k_base, as mcp-neo4j-cypher's
    /// NEO4J_RESPONSE_TOKEN_LIMIT does (default: no cut, as both real servers).
    #[arg(long)]
    pub(crate) token_limit: Option<usize>,
    /// grape's safeguard: cut a reply longer than this many bytes (default 1048576; 0: no cut).
    #[arg(long)]
    pub(crate) max_reply_bytes: Option<usize>,
    /// Time limit per query in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    pub(crate) timeout_ms: u64,
    #[command(flatten)]
    pub(crate) engine: EngineArgs,
    /// Over HTTP with the official server's contract, the Basic credentials (`user:password`)
    /// a request may carry; with --bearer-token, the tokens. Without either, any (as a
    /// database without authentication takes them). Requests without credentials are refused
    /// either way, as the official server refuses them.
    #[arg(long, value_name = "USER:PASSWORD")]
    pub(crate) auth: Vec<String>,
    /// A Bearer token an HTTP request may carry (repeatable; see --auth).
    #[arg(long, value_name = "TOKEN")]
    pub(crate) bearer_token: Vec<String>,
    /// Let read_neo4j_cypher run LOAD CSV (within --import-dir); off by default.
    #[arg(long, requires = "import_dir")]
    pub(crate) allow_load_csv_in_reads: bool,
}

#[derive(Subcommand)]
pub(crate) enum ReportCommand {
    /// A leaderboard of runs (their report.json, or their records), ranked by the first
    /// metric, each mean with its 95% interval: Markdown on standard output, --html for a page.
    Leaderboard {
        /// The runs' output directories (or report.json / examples.jsonl files).
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// The metrics to show, the first ranks (default: the headline metrics the runs have).
        #[arg(long, value_delimiter = ',')]
        metrics: Vec<String>,
        /// Also write the leaderboard as an HTML page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
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
pub(crate) enum Command {
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
    /// Compare evaluation runs with the first (the baseline) on the examples they share.
    ///
    /// Each RUN is an output folder of `grape eval --out` (or its examples.jsonl). Per metric:
    /// both means, the difference with a paired bootstrap 95% interval and a p-value
    /// (McNemar's exact test for binary metrics, a paired permutation test for graded ones);
    /// the same per category value; the examples whose binary metrics flipped. With
    /// --max-drop, exits 1 when a metric dropped by more than allowed at significance --alpha.
    Compare(CompareArgs),
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
    /// Run statements on grape and on a live Neo4j holding the same graph and report every
    /// difference: errors (status codes and GQL statuses), columns, rows (a multiset, or the
    /// sort order under a final ORDER BY with ties as sets), update counters (writes run in
    /// transactions rolled back on both sides). Statements come from files and/or --generate N.
    /// Exits 1 when any differ.
    #[cfg(feature = "neo4j")]
    Difftest(crate::live::DifftestArgs),
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
        /// Run the query and print the plan with rows and db hits per operator (as `PROFILE`).
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
        /// The schema file (format guessed from its content; see `grape schema convert`), or a
        /// graph in any format `--graph` reads, whose schema is derived from its data.
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
        /// "kg_valid", "diagnostics": [{"code", "message", "line", "column"}]} (`--format json`).
        #[arg(long)]
        json: bool,
        /// Output: `text` (FILE:LINE:COL: CODE: message), `json` (as --json), `sarif` (one
        /// SARIF 2.1.0 log, for code scanning) or `github` (workflow annotations, shown inline
        /// on a pull request).
        #[arg(long, value_enum, conflicts_with = "json")]
        format: Option<ValidateFormat>,
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
    /// Graphs: what one costs in memory.
    Graph {
        #[command(subcommand)]
        command: GraphCommand,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Write man pages: grape.1 and one page per command (grape-serve-bolt.1, …).
    Manpage {
        /// The folder to write them in (created if missing).
        #[arg(long)]
        out: PathBuf,
    },
    /// Print every command's help as Markdown (the guide's CLI reference).
    #[command(hide = true)]
    HelpReference,
}

#[derive(Subcommand)]
pub(crate) enum GraphCommand {
    /// Load a graph (as for `grape query`) and report its size: nodes, relationships, labels
    /// and properties, the estimated bytes of each part of the store and per element, and the
    /// load time.
    Stats {
        graph: String,
        /// Value types for Data Importer folders: `strings` or `model`.
        #[arg(long, default_value = "strings")]
        types: grape::graph::import::ImporterTypes,
        /// Print the figures as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Save a graph (as for `grape query`) as a binary snapshot, `OUT.grape`: versioned,
    /// checksummed, and read by every command that takes a graph many times faster than JSON.
    Save {
        graph: String,
        out: PathBuf,
        /// Value types for Data Importer folders: `strings` or `model`.
        #[arg(long, default_value = "strings")]
        types: grape::graph::import::ImporterTypes,
    },
    /// Write a graph (as for `grape query`) into an empty live Neo4j database: nodes with
    /// their labels and typed properties, relationships, then constraints and indexes — the
    /// inverse of `grape record`, so a real Neo4j and grape load one fixture.
    #[cfg(feature = "neo4j")]
    Push(crate::live::PushArgs),
}

#[derive(Subcommand)]
pub(crate) enum SchemaCommand {
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

/// Engine limits and the LOAD CSV sandbox, shared by every command that runs queries.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct EngineArgs {
    /// Memory budget of one query (rows, aggregation state, built values), e.g. `512M`,
    /// `2G`, `1GiB`; a query over it fails with MemoryPoolOutOfMemoryError. Default 1 GiB.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub(crate) max_memory: Option<usize>,
    /// Neo4j's import directory: `LOAD CSV FROM 'file:///x.csv'` reads DIR/x.csv and nothing
    /// outside DIR. Without it LOAD CSV is refused.
    #[arg(long, value_name = "DIR")]
    pub(crate) import_dir: Option<PathBuf>,
    /// The Cypher version of queries without a `CYPHER n` prefix: 5 (Neo4j's default) or 25.
    #[arg(long, value_name = "VERSION", default_value = "5")]
    pub(crate) cypher: grape::syntax::CypherVersion,
}

impl EngineArgs {
    pub(crate) fn apply(&self, opts: &mut grape::engine::Options) {
        if let Some(m) = self.max_memory {
            opts.limits.max_memory = Some(m);
        }
        opts.import_dir = self.import_dir.clone();
        opts.cypher = self.cypher;
    }
}

/// `512M`, `2G`, `1GiB`, `100000` (bytes).
pub(crate) fn parse_size(s: &str) -> Result<usize, String> {
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

pub(crate) struct QueryArgs {
    pub(crate) explain: bool,
    pub(crate) profile: bool,
    pub(crate) engine: EngineArgs,
    pub(crate) graph: String,
    pub(crate) types: grape::graph::import::ImporterTypes,
    pub(crate) params: Option<String>,
    pub(crate) script: Option<PathBuf>,
    pub(crate) json: bool,
    pub(crate) jsonl: Option<PathBuf>,
    pub(crate) out: Option<PathBuf>,
    pub(crate) timeout_ms: u64,
    pub(crate) query: Option<String>,
}

#[derive(clap::Args)]
pub(crate) struct EvalArgs {
    /// The benchmark file.
    #[arg(long)]
    pub(crate) dataset: PathBuf,
    /// `zograscope`, `grape`, `jsonl` or `cypherturn` (default: guessed from the file).
    #[arg(long)]
    pub(crate) format: Option<grape::dataset::DatasetFormat>,
    /// The predictions file.
    #[arg(long)]
    pub(crate) predictions: PathBuf,
    /// The graph both gold and predicted queries run on (as for `grape query`). Without
    /// --graph and --graphs the run is text-only: text metrics and validity, nothing executed.
    #[arg(long)]
    pub(crate) graph: Option<String>,
    /// A folder of named graphs for benchmarks whose examples name their graph (CypherTurn's
    /// `graph`): NAME.json, NAME.cypher, NAME/graph.json or a Data Importer folder NAME/.
    /// With --graph too, examples naming no known graph run on --graph.
    #[arg(long)]
    pub(crate) graphs: Option<PathBuf>,
    /// Run gold and predicted queries on a live Neo4j, or a grape Bolt server, instead of
    /// graphs in memory (bolt://, neo4j://, bolt+s://, neo4j+s://, … URI; feature `neo4j`).
    /// An example that names a database runs on that database (the driver's `database`
    /// setting); one that names none runs on the connection's default database. User and
    /// password: --neo4j-user / --neo4j-password, else NEO4J_USERNAME / NEO4J_PASSWORD.
    #[cfg(feature = "neo4j")]
    #[arg(long, value_name = "URI", conflicts_with_all = ["graph", "graphs"])]
    pub(crate) neo4j: Option<String>,
    #[cfg(feature = "neo4j")]
    #[arg(long, requires = "neo4j")]
    pub(crate) neo4j_user: Option<String>,
    #[cfg(feature = "neo4j")]
    #[arg(long, requires = "neo4j")]
    pub(crate) neo4j_password: Option<String>,
    /// With --neo4j: log in to each database as the user of its name, with its name as the
    /// password (the pattern of Neo4j's public demo server, demo.neo4jlabs.com). Examples
    /// that name no database are then scored on text and validity only.
    #[cfg(feature = "neo4j")]
    #[arg(long, requires = "neo4j")]
    pub(crate) database_credentials: bool,
    /// With --neo4j: removed from the front of each example's database name before it is
    /// used (Neo4j's text2cypher aliases `neo4jlabs_demo_db_NAME` name the demo server's
    /// database NAME: `--strip-database-prefix neo4jlabs_demo_db_`).
    #[cfg(feature = "neo4j")]
    #[arg(long, requires = "neo4j", value_name = "PREFIX")]
    pub(crate) strip_database_prefix: Option<String>,
    /// The schema predictions are validated against (KG-valid, diagnostics; any format
    /// `grape validate` reads). Default: the graph's own, as `apoc.meta.schema` reports it.
    #[arg(long)]
    pub(crate) schema: Option<PathBuf>,
    /// A table of schemas by database (`database,schema` CSV, as the neo4j-labs text2cypher
    /// repository's `demo_db_schemas.csv`): each example that names a database and carries
    /// no schema of its own is validated against that database's.
    #[arg(long, value_name = "CSV")]
    pub(crate) schemas: Option<PathBuf>,
    /// Value types for Data Importer folders: `strings` or `model`.
    #[arg(long, default_value = "strings")]
    pub(crate) types: grape::graph::import::ImporterTypes,
    /// Pass@k is reported for k = 1 and this k.
    #[arg(long, default_value_t = 1)]
    pub(crate) k: usize,
    /// Text-metric preprocessing: `default`, `collapse-ws` or `canonical`.
    #[arg(long, default_value = "default")]
    pub(crate) variant: grape::metrics::TextVariant,
    /// Time limit per query in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) timeout_ms: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub(crate) workers: Option<usize>,
    /// Output directory (resumable).
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Run only shard i of n (`i/n`, 0-based: every n-th example in id order); combine the
    /// shards' output directories with `grape report merge`.
    #[arg(long, value_parser = grape::eval::parse_shard)]
    pub(crate) shard: Option<(usize, usize)>,
    /// Print report.json to standard output instead of the table.
    #[arg(long)]
    pub(crate) json: bool,
    /// CI gate: exit 1 when an overall metric is below its threshold, e.g.
    /// `--fail-under ex=0.8,kg_valid=0.95` (the message names each metric that failed).
    #[arg(long, value_name = "METRIC=MIN,...", value_parser = thresholds)]
    pub(crate) fail_under: Option<Thresholds>,
    /// Write a JUnit XML report: one test case per example, failing when the first
    /// prediction is not EX-correct (both queries and results in the message).
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) engine: EngineArgs,
}

#[derive(clap::Args)]
pub(crate) struct CompareArgs {
    /// The runs: the baseline first.
    #[arg(required = true, num_args = 2..)]
    pub(crate) runs: Vec<PathBuf>,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also write the comparison as Markdown to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) md: Option<PathBuf>,
    /// Also write the comparison as an HTML page (a chart per metric) to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    /// The binary metric whose flips and per-category differences are listed.
    #[arg(long, default_value = "ex")]
    pub(crate) focus: String,
    /// CI gate: exit 1 when a metric dropped by more than this (and significantly), e.g.
    /// `--max-drop ex=0.02,kg_valid=0.05`.
    #[arg(long, value_name = "METRIC=DROP,...", value_parser = thresholds)]
    pub(crate) max_drop: Option<Thresholds>,
    /// Significance level of --max-drop.
    #[arg(long, default_value_t = 0.05)]
    pub(crate) alpha: f64,
    /// Bootstrap resamples (and random sign patterns of the permutation test).
    #[arg(long, default_value_t = 10_000)]
    pub(crate) resamples: usize,
}

/// Metric thresholds (`ex=0.8,kg_valid=0.95`).
#[derive(Clone, Debug)]
pub(crate) struct Thresholds(pub(crate) Vec<(String, f64)>);

fn thresholds(s: &str) -> Result<Thresholds, String> {
    grape::eval::compare::parse_thresholds(s).map(Thresholds)
}

/// `grape validate --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ValidateFormat {
    Text,
    Json,
    Sarif,
    Github,
}
