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
