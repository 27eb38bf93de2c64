//! The `grape` command line: thin glue over the library.

use clap::{Parser, Subcommand};
use grape::dataset::read_query_file;
use grape::syntax::{parse, print, PrintOptions};
use std::io::Write;
use std::path::PathBuf;
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

#[derive(Subcommand)]
enum Command {
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Parse {
            json,
            print: print_canonical,
            rename,
            files,
        } => cmd_parse(&files, json, print_canonical, rename),
    }
}

fn cmd_parse(files: &[PathBuf], json: bool, print_canonical: bool, rename: bool) -> ExitCode {
    let opts = PrintOptions {
        rename_variables: rename,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut total, mut failed) = (0usize, 0usize);
    let mut io_error = false;
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
                eprintln!("error: {rec}");
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
                            format!("{} (record {}, id {})", file.origin, q.line, q.id)
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
        if failed == 0 {
            eprintln!("{total} queries parsed, all OK");
        } else {
            eprintln!("{total} queries, {failed} with errors");
        }
    }
    if io_error {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
