//! `grape eval`.

use super::*;

pub(super) fn cmd_eval(a: EvalArgs) -> ExitCode {
    let mut examples = match grape::dataset::read_dataset(&a.dataset, a.format) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(table) = &a.schemas {
        if let Err(e) = grape::dataset::attach_schemas(&mut examples, table) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    #[cfg(feature = "neo4j")]
    let live = a.neo4j.is_some();
    #[cfg(not(feature = "neo4j"))]
    let live = false;
    if a.graph.is_none() && a.graphs.is_none() && !live {
        eprintln!(
            "note: no --graph or --graphs: a text-only run (text metrics and validity; nothing is executed)"
        );
    }
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
    #[cfg(feature = "neo4j")]
    let databases = match &a.neo4j {
        None => None,
        Some(uri) => match super::live::eval_databases(uri, &a, &examples) {
            Ok(d) => Some(d),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    #[cfg(feature = "neo4j")]
    let graphs = match &databases {
        None => {
            grape::eval::Graphs::of_run(default_graph.as_ref(), &named, schema, a.graphs.is_some())
        }
        Some(d) => match grape::eval::Graphs::live(
            d.default
                .as_ref()
                .map(|b| b as &dyn grape::backend::Backend),
            d.named
                .iter()
                .map(|(n, b)| (n.clone(), b as &dyn grape::backend::Backend)),
            schema,
        ) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("error: reading the databases' schemas: {e}");
                return ExitCode::from(2);
            }
        },
    };
    #[cfg(not(feature = "neo4j"))]
    let graphs =
        grape::eval::Graphs::of_run(default_graph.as_ref(), &named, schema, a.graphs.is_some());
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
        Ok((report, records)) => {
            if let Some(path) = &a.junit {
                let xml = grape::eval::junit::junit_xml(&records, &a.dataset.display().to_string());
                if let Err(e) = grape::dataset::write_atomically(path, xml.as_bytes()) {
                    eprintln!("error: writing {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
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
            // A gold query that answers nothing lets any prediction that answers nothing score
            // EX 1: usually the wrong graph, or a gold query that needs another look.
            let empty: Vec<&str> = records
                .iter()
                .filter(|r| r.gold_result.as_ref().is_some_and(|g| g.total_rows == 0))
                .map(|r| r.id.as_str())
                .collect();
            if !empty.is_empty() {
                let shown: Vec<&str> = empty.iter().take(5).copied().collect();
                eprintln!(
                    "warning: {} of {} gold queries return no rows on this graph ({}{}): a prediction that returns nothing scores EX 1 on them; check --graph and those queries",
                    empty.len(),
                    records.len(),
                    shown.join(", "),
                    if empty.len() > shown.len() { ", …" } else { "" }
                );
            }
            if let Some(Thresholds(gates)) = &a.fail_under {
                let mut failed = false;
                for (metric, min) in gates {
                    match report.overall.get(metric) {
                        None => {
                            eprintln!(
                                "error: --fail-under: the report has no metric `{metric}` (it has {})",
                                report.overall.keys().cloned().collect::<Vec<_>>().join(", ")
                            );
                            return ExitCode::from(2);
                        }
                        Some(v) if v < min => {
                            eprintln!("FAIL: {metric} = {v:.4} is under {min}");
                            failed = true;
                        }
                        Some(_) => {}
                    }
                }
                if failed {
                    return ExitCode::from(1);
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: writing results: {e}");
            ExitCode::from(2)
        }
    }
}

pub(super) fn cmd_compare(a: CompareArgs) -> ExitCode {
    let mut runs = Vec::new();
    for path in &a.runs {
        match grape::eval::compare::Run::read(path) {
            Ok(r) => runs.push(r),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let opts = grape::eval::compare::CompareOptions {
        resamples: a.resamples.max(1),
        permutations: a.resamples.max(1),
        ..Default::default()
    };
    let c = match grape::eval::compare::compare(&runs, &opts) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if a.json {
        print!("{}", grape::eval::compare::comparison_json(&c));
    } else {
        print!("{}", grape::eval::compare::comparison_table(&c, &a.focus));
    }
    let outputs = [
        (
            &a.md,
            grape::eval::compare::comparison_markdown as fn(&_, &str) -> String,
        ),
        (&a.html, grape::eval::compare::comparison_html),
    ];
    for (path, render) in outputs {
        if let Some(path) = path {
            if let Err(e) = grape::dataset::write_atomically(path, render(&c, &a.focus).as_bytes())
            {
                eprintln!("error: writing {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    if let Some(Thresholds(max_drop)) = &a.max_drop {
        match grape::eval::compare::regressions(&c, max_drop, a.alpha) {
            Err(e) => {
                eprintln!("error: --max-drop: {e}");
                return ExitCode::from(2);
            }
            Ok(regs) if !regs.is_empty() => {
                for r in regs {
                    eprintln!(
                        "FAIL: {} dropped by {:.4} in {} (allowed {}, p = {:.4} < {})",
                        r.metric, r.drop, r.run, r.allowed, r.p_value, a.alpha
                    );
                }
                return ExitCode::from(1);
            }
            Ok(_) => {
                // A drop beyond the allowance that is not significant passes the gate: say so,
                // so that a small run's pass is not mistaken for no drop at all.
                for r in &c.runs {
                    for (metric, allowed) in max_drop {
                        if let Some(m) = r.metrics.iter().find(|m| &m.metric == metric) {
                            if -m.diff > *allowed {
                                eprintln!(
                                    "note: {metric} dropped by {:.4} in {} (allowed {allowed}), but p = {:.4} ≥ {}: not significant, so not a failure",
                                    -m.diff, r.run, m.p_value, a.alpha
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    ExitCode::SUCCESS
}
