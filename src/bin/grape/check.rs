//! `grape validate`, `grape analyze` and `grape parse`.

use super::*;

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
    message: String,
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

pub(super) fn cmd_validate(
    schema_path: &Path,
    schema_format: Option<&str>,
    params: Option<&str>,
    format: ValidateFormat,
    files: &[PathBuf],
) -> ExitCode {
    let json = format == ValidateFormat::Json;
    let mut findings: Vec<grape::analysis::sarif::Finding> = Vec::new();
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
            if matches!(format, ValidateFormat::Sarif | ValidateFormat::Github) {
                for d in &v.diagnostics {
                    let (start_line, start_column) = file_position(q, d.line, d.column);
                    let (el, ec) = grape::syntax::position(&q.text, d.span.end);
                    let (end_line, end_column) = file_position(q, el, ec);
                    let f = grape::analysis::sarif::Finding {
                        uri: q.origin.clone(),
                        query_id: q.id.clone(),
                        code: d.code.to_string(),
                        kind: format!("{:?}", d.kind),
                        message: d.text(),
                        start_line: if q.offset.is_some() {
                            start_line
                        } else {
                            q.line
                        },
                        end_line: if q.offset.is_some() { end_line } else { q.line },
                        columns: q
                            .offset
                            .map(|_| (start_column, end_column.max(start_column + 1))),
                    };
                    if format == ValidateFormat::Github {
                        let _ = writeln!(out, "{}", grape::analysis::sarif::github_annotation(&f));
                    } else {
                        findings.push(f);
                    }
                }
            } else if json {
                let diagnostics: Vec<JsonDiagnostic> = v
                    .diagnostics
                    .iter()
                    .map(|d| {
                        let (line, column) = file_position(q, d.line, d.column);
                        JsonDiagnostic {
                            code: d.code,
                            message: d.text(),
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
                        grape::syntax::escape_controls(&d.text())
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
    if format == ValidateFormat::Sarif {
        let log = grape::analysis::sarif::sarif_log(&findings);
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&log).unwrap_or_default()
        );
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

pub(super) fn cmd_analyze(json: bool, files: &[PathBuf]) -> ExitCode {
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

/// The end of a summary line when some files could not be read.
fn unread_note(unread: usize) -> String {
    match unread {
        0 => String::new(),
        1 => "; 1 file could not be read".to_string(),
        n => format!("; {n} files could not be read"),
    }
}

pub(super) fn cmd_parse(
    files: &[PathBuf],
    json: bool,
    print_canonical: bool,
    rename: bool,
) -> ExitCode {
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
                        let _ = out.flush();
                        eprint!("{}", e.render(&origin_of(&file, q)));
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
