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
    /// The fixture to write: JSON, or a binary snapshot when the name ends in `.grape`.
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

#[derive(clap::Args)]
pub struct PushArgs {
    /// The graph: a JSON fixture, a `.grape` snapshot, a Data Importer folder, a Cypher
    /// script, a CypherBench dump (anything `grape query --graph` reads).
    graph: String,
    #[command(flatten)]
    neo4j: Neo4jArgs,
    /// Value types for Data Importer folders: `strings` or `model`.
    #[arg(long, default_value = "strings")]
    types: grape::graph::import::ImporterTypes,
    /// Empty a non-empty database first (data, constraints, indexes); refused otherwise.
    #[arg(long)]
    clear: bool,
    /// Nodes or relationships per statement.
    #[arg(long, default_value_t = 2_000)]
    batch_size: usize,
    /// Leave the graph's indexes and constraints out.
    #[arg(long)]
    no_schema: bool,
}

pub(super) fn cmd_graph_push(a: PushArgs) -> ExitCode {
    let g = match grape::engine::load_graph(&a.graph, a.types) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let db = match a.neo4j.connect() {
        Ok(db) => db,
        Err(e) => return fail(e),
    };
    let opts = grape::backend::push::PushOptions {
        batch_size: a.batch_size,
        clear: a.clear,
        skip_schema: a.no_schema,
    };
    match grape::backend::push::push(&g, &db, &opts) {
        Ok(r) => {
            println!(
                "pushed {} nodes, {} relationships and {} constraints and indexes into {} in {:.1} s ({} statements)",
                r.nodes,
                r.relationships,
                r.schema_rules,
                grape::backend::Backend::describe(&db),
                r.seconds,
                r.statements
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

#[derive(clap::Args)]
pub struct DifftestArgs {
    #[command(flatten)]
    neo4j: Neo4jArgs,
    /// The graph both sides run on; it is pushed into the database first (which must be empty,
    /// or --clear) unless --pushed says it is there already.
    #[arg(long, required_unless_present = "pushed")]
    graph: Option<String>,
    /// The database already holds the graph: do not push it. Without --graph, grape reads the
    /// whole database into memory instead.
    #[arg(long)]
    pushed: bool,
    /// Empty a non-empty database before pushing.
    #[arg(long)]
    clear: bool,
    /// Value types for Data Importer folders: `strings` or `model`.
    #[arg(long, default_value = "strings")]
    types: grape::graph::import::ImporterTypes,
    /// Draw this many statements from the graph (see grape::difftest::generate).
    #[arg(long, default_value_t = 0)]
    generate: usize,
    /// Seed of --generate.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Shrink each difference (the first 20) to a small graph where it still reproduces, with at
    /// most this many tries each (a try pushes a candidate graph and runs the statement on both
    /// sides); the reports then hold a Cypher script of that graph. The whole graph is pushed
    /// again at the end. 0: do not shrink.
    #[arg(long, default_value_t = 0, value_name = "TRIES")]
    shrink: usize,
    /// Write difftest.json and differences.md here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Differences printed on the terminal (all are in the reports).
    #[arg(long, default_value_t = 10)]
    show: usize,
    /// Files of statements: JSON Lines (`id`, `query`/`cypher`) or Cypher scripts.
    queries: Vec<PathBuf>,
}

pub(super) fn cmd_difftest(a: DifftestArgs) -> ExitCode {
    use grape::difftest::{self, report, Case, Verdict};
    let db = match a.neo4j.connect() {
        Ok(db) => db,
        Err(e) => return fail(e),
    };
    let mut graph = match (&a.graph, a.pushed) {
        (Some(path), pushed) => {
            let g = match grape::engine::load_graph(path, a.types) {
                Ok(g) => g,
                Err(e) => return fail(e),
            };
            if !pushed {
                let opts = grape::backend::push::PushOptions {
                    clear: a.clear,
                    ..Default::default()
                };
                match grape::backend::push::push(&g, &db, &opts) {
                    Ok(r) => eprintln!(
                        "pushed {} nodes and {} relationships in {:.1} s",
                        r.nodes, r.relationships, r.seconds
                    ),
                    Err(e) => return fail(e),
                }
            }
            g
        }
        (None, _) => match grape::backend::push::pull(&db) {
            Ok(g) => g,
            Err(e) => return fail(e),
        },
    };
    let mut cases = Vec::new();
    let mut sources = Vec::new();
    for path in &a.queries {
        let f = match grape::dataset::read_query_file(path) {
            Ok(f) => f,
            Err(e) => return fail(format!("{}: {e}", path.display())),
        };
        for e in &f.errors {
            eprintln!("warning: {e}");
        }
        sources.push(path.display().to_string());
        cases.extend(f.queries.into_iter().map(|q| Case {
            id: q.id,
            query: q.text,
            params: Default::default(),
        }));
    }
    if a.generate > 0 {
        sources.push(format!("--generate {} --seed {}", a.generate, a.seed));
        let qs = difftest::generate::statements(&graph, a.generate, a.seed);
        cases.extend(qs.into_iter().enumerate().map(|(i, q)| Case {
            id: format!("gen-{}-{}", a.seed, i + 1),
            query: q,
            params: Default::default(),
        }));
    }
    if cases.is_empty() {
        return fail("no statements: name query files or --generate N");
    }
    let mut opts = grape::engine::Options::default();
    opts.limits.timeout = Some(Duration::from_millis(a.neo4j.timeout_ms));
    let started = std::time::Instant::now();
    let mut outcomes = Vec::with_capacity(cases.len());
    for (i, c) in cases.iter().enumerate() {
        let o = difftest::run_case(&mut graph, &opts, &db, c);
        if let Some(e) = &o.neo4j.error {
            if e.get("code").map(String::as_str) == Some("(none)") {
                return fail(format!(
                    "the database stopped answering at {}: {}",
                    c.id,
                    e.get("message").cloned().unwrap_or_default()
                ));
            }
        }
        outcomes.push(o);
        if (i + 1) % 500 == 0 {
            eprintln!("{} of {} statements", i + 1, cases.len());
        }
    }
    if a.shrink > 0 {
        let differing: Vec<usize> = outcomes
            .iter()
            .enumerate()
            .filter(|(_, o)| matches!(o.verdict, Verdict::Differs(_)))
            .map(|(i, _)| i)
            .take(20)
            .collect();
        for &i in &differing {
            let Verdict::Differs(d) = &outcomes[i].verdict else {
                continue;
            };
            let case = cases.iter().find(|c| c.id == outcomes[i].id);
            let Some(case) = case else {
                continue;
            };
            match difftest::shrink::shrink(&graph, case, &d.kind, &db, &opts, a.shrink) {
                Ok(r) => {
                    eprintln!(
                        "{}: reproduces on {} nodes and {} relationships ({} tries)",
                        case.id, r.nodes, r.relationships, r.tries
                    );
                    outcomes[i].reproduction = Some(r);
                }
                Err(e) => eprintln!("{}: not shrunk: {e}", case.id),
            }
        }
        if !differing.is_empty() {
            // The database holds the last graph tried: the whole one again.
            let opts = grape::backend::push::PushOptions {
                clear: true,
                ..Default::default()
            };
            if let Err(e) = grape::backend::push::push(&graph, &db, &opts) {
                return fail(e);
            }
        }
    }
    let info = report::RunInfo {
        graph: a.graph.clone().unwrap_or_else(|| "(the database)".into()),
        reference: difftest::Reference::describe(&db),
        source: sources.join(", "),
    };
    let s = difftest::Summary::of(&outcomes);
    let mut shown = 0;
    for o in &outcomes {
        if let Verdict::Differs(d) = &o.verdict {
            if shown < a.show {
                println!("{}: {:?}: {}\n  {}", o.id, d.kind, d.detail, o.query);
            }
            shown += 1;
        }
    }
    let kinds: Vec<String> = s.by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!(
        "{} statements in {:.1} s against {}: {} equal ({} failing alike on both), {} differ{}, {} skipped",
        s.cases,
        started.elapsed().as_secs_f64(),
        info.reference,
        s.equal,
        s.both_failed,
        s.differ,
        if kinds.is_empty() { String::new() } else { format!(" ({})", kinds.join(", ")) },
        s.skipped
    );
    if let Some(dir) = &a.out {
        if let Err(e) = report::write(dir, &info, &outcomes) {
            return fail(format!("{}: {e}", dir.display()));
        }
        println!(
            "reports: {}/difftest.json, {}/differences.md",
            dir.display(),
            dir.display()
        );
    }
    if s.differ > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
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
    if a.out.extension().and_then(|e| e.to_str()) == Some("grape") {
        // A binary snapshot of the recorded graph (the JSON fixture's provenance fields are
        // for JSON only).
        let bytes = grape::graph::import::snapshot_bytes(&rec.fixture.graph()).map_err(fail)?;
        grape::dataset::write_atomically(&a.out, &bytes)
            .map_err(|e| fail(format!("cannot write {}: {e}", a.out.display())))?;
    } else {
        write_json(&a.out, &rec.to_json(&source, &opts))?;
    }
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

/// The live databases of `grape eval --neo4j`: the default (unless every database has its own
/// credentials) and one connection per database the examples name.
pub struct EvalDatabases {
    pub default: Option<Neo4j>,
    pub named: Vec<(String, Neo4j)>,
}

pub fn eval_databases(
    uri: &str,
    a: &crate::args::EvalArgs,
    examples: &[grape::dataset::Example],
) -> Result<EvalDatabases, String> {
    let base = || {
        let mut c = Neo4jConfig::from_env();
        c.uri = uri.to_string();
        if let Some(u) = &a.neo4j_user {
            c.user = u.clone();
        }
        if let Some(p) = &a.neo4j_password {
            c.password = p.clone();
        }
        c.timeout = Some(Duration::from_millis(a.timeout_ms));
        c
    };
    let default = if a.database_credentials {
        None
    } else {
        Some(Neo4j::connect(base()).map_err(|e| e.to_string())?)
    };
    let wanted: std::collections::BTreeSet<&str> =
        examples.iter().filter_map(|e| e.graph.as_deref()).collect();
    let mut named = Vec::new();
    for name in wanted {
        let db = match &a.strip_database_prefix {
            Some(p) => name.strip_prefix(p.as_str()).unwrap_or(name),
            None => name,
        };
        let mut c = base();
        c.database = Some(db.to_string());
        if a.database_credentials {
            c.user = db.to_string();
            c.password = db.to_string();
        }
        let conn = Neo4j::connect(c).map_err(|e| format!("database {db:?}: {e}"))?;
        named.push((name.to_string(), conn));
    }
    Ok(EvalDatabases { default, named })
}
