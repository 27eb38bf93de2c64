//! `grape eval`.

use super::*;

pub(super) fn cmd_eval(a: EvalArgs) -> ExitCode {
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
    let named = match grape::eval::load_dataset_graphs(
        &examples,
        a.graphs.as_deref(),
        default_graph.is_some(),
        a.types,
    ) {
        Ok(named) => named,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
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
