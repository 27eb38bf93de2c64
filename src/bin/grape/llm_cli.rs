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
    let examples =
        grape::dataset::read_dataset(&a.sessions, Some(grape::dataset::DatasetFormat::CypherTurn))
            .map_err(fail)?;
    let default = match &a.graph {
        Some(g) => Some(grape::engine::load_graph(g, Default::default()).map_err(fail)?),
        None => None,
    };
    let named = grape::eval::load_dataset_graphs(
        &examples,
        a.graphs.as_deref(),
        default.is_some(),
        Default::default(),
    )
    .map_err(fail)?;
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
        .map(|p| serde_json::json!({"id": p.id, "cypher": p.candidates.first()}).to_string() + "\n")
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
    grape::dataset::write_atomically(&a.out.join("report.json"), text.as_bytes()).map_err(fail)?;
    let o = &report.overall;
    let f = |x: Option<f64>| x.map(|v| format!("{v:.3}")).unwrap_or_else(|| "n/a".into());
    // EX is over the questions whose gold query ran and whose agent wrote a query.
    let with_ex = records.iter().filter(|r| r.ex.is_some()).count();
    let ex = match o.ex {
        Some(_) if graph.is_some() && with_ex < records.len() => {
            format!("{} (over {with_ex} of {})", f(o.ex), records.len())
        }
        _ => f(o.ex),
    };
    println!(
        "{} questions: judge score {}, {} correct, EX {}, {:.1} tool calls and {:.1} steps per question, {} hit the step limit; cost {} (per correct answer {})",
        o.n,
        f(o.judge_score),
        o.correct,
        ex,
        o.tool_calls,
        o.steps,
        o.step_limit_hits,
        o.cost_usd.map(|c| format!("${c:.4}")).unwrap_or_else(|| "unknown".into()),
        o.cost_per_correct_usd
            .map(|c| format!("${c:.4}"))
            .unwrap_or_else(|| "n/a".into()),
    );
    println!("records: {}", a.out.join("records.jsonl").display());
    // Questions the run could not ask or finish (the model or the server unreachable, a reply
    // that is no answer): said, and a run where every question failed is a failure.
    let failed: Vec<&grape::mcp::AgentRecord> =
        records.iter().filter(|r| r.error.is_some()).collect();
    if let Some(first) = failed.first() {
        eprintln!(
            "warning: {} of {} questions failed (the first, {}: {}); see records.jsonl",
            failed.len(),
            records.len(),
            first.id,
            first.error.as_deref().unwrap_or_default()
        );
        if failed.len() == records.len() {
            return Err(ExitCode::from(1));
        }
    }
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
        (None, _) => {
            Prompter::new(&schema, a.strategy, a.k_shots, train, a.seed, a.linked).map_err(fail)?
        }
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
    let summary = generate_predictions(&llm, &schema, &prompter, &examples, &opts, &a.out, &tick)
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
