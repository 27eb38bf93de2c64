//! `grape query`: one query, or a batch of them.

use super::*;

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

pub(super) fn cmd_query(a: QueryArgs) -> ExitCode {
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
    let prefix = if a.explain {
        Some(grape::syntax::QueryPrefix::Explain)
    } else if a.profile {
        Some(grape::syntax::QueryPrefix::Profile)
    } else {
        None
    };
    let result = grape::syntax::parse(query)
        .map_err(grape::engine::ExecError::from)
        .and_then(|mut stmt| {
            if prefix.is_some() {
                stmt.prefix = prefix;
            }
            grape::engine::execute(&mut graph, &stmt, query, &params, &opts)
        });
    if let (Ok(t), Some(_), false) = (&result, prefix, a.json) {
        // People read the plan as a tree.
        if let Some(plan) = &t.plan {
            print!("{}", plan.render());
        }
        if a.profile {
            println!("{} rows", t.rows.len());
        }
        return ExitCode::SUCCESS;
    }
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
        // {"columns", "error", "id", "ms", "rows"}, keys in serde_json's order, the rows
        // streamed one by one: a large result is never one JSON tree in memory.
        let mut text = Vec::new();
        let line = match &r {
            Ok(t) => {
                let head =
                    serde_json::json!({"id": q.id, "columns": t.columns, "error": null, "ms": ms});
                write_with_rows(&mut text, &head, t)
            }
            Err(e) => {
                failed += 1;
                let line = serde_json::json!({"id": q.id, "columns": [], "rows": [], "error": error_json(e), "ms": ms});
                serde_json::to_writer(&mut text, &line).map_err(std::io::Error::from)
            }
        };
        let written = line.and_then(|()| {
            text.push(b'\n');
            match &mut atomic {
                Some(f) => f.write_all(&text),
                None => lock.write_all(&text),
            }
        });
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

/// `head` (an object whose keys all sort before `rows`) with `"rows": [...]` added last, the
/// rows written one at a time.
fn write_with_rows(
    out: &mut Vec<u8>,
    head: &serde_json::Value,
    t: &grape::engine::Table,
) -> std::io::Result<()> {
    let text = serde_json::to_string(head)?;
    // `{"columns":…,"ms":…}` → `{"columns":…,"ms":…,"rows":[…]}`
    out.extend_from_slice(&text.as_bytes()[..text.len() - 1]);
    out.extend_from_slice(b",\"rows\":");
    t.write_rows_json(out)?;
    out.push(b'}');
    Ok(())
}
