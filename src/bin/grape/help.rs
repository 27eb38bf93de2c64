//! Help beyond the flags, all derived from the clap definitions so none of it can drift: an
//! example at the end of every command's `--help`, shell completions (`grape completions`), man
//! pages (`grape manpage`) and the guide's CLI reference in Markdown (`grape help-reference`).
//!
//! Every example runs on the bundled corpora: `tests/docs_examples.rs` runs each one (servers
//! until they listen; `$NEO4J_URI` is a stand-in database, `OPENAI_BASE_URL` a loopback mock).

use super::Cli;
use clap::CommandFactory;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// `(command path, example)`: one per command that does something, in the order of `--help`.
pub(crate) const EXAMPLES: &[(&str, &str)] = &[
    (
        "eval",
        "grape eval --dataset corpora/demo/questions.jsonl --predictions corpora/demo/predictions.jsonl --graph corpora/demo/graph.json --k 3 --out runs/demo",
    ),
    (
        "compare",
        "grape compare runs/demo runs/demo --max-drop ex=0.02",
    ),
    ("report leaderboard", "grape report leaderboard runs/demo"),
    ("report merge", "grape report merge --out runs/merged runs/demo"),
    (
        "serve bolt",
        "grape serve bolt --graph corpora/demo/graph.json --port 7698 --auth neo4j:secret",
    ),
    (
        "serve mcp",
        "grape serve mcp --graph corpora/demo/graph.json --transport http --port 7697",
    ),
    (
        "record",
        "grape record --neo4j \"$NEO4J_URI\" --dataset corpora/demo/questions.jsonl --out runs/fixture.json",
    ),
    (
        "replay-check",
        "grape replay-check --neo4j \"$NEO4J_URI\" --fixture corpora/demo/graph.json --dataset corpora/demo/questions.jsonl",
    ),
    (
        "difftest",
        "grape difftest --neo4j \"$NEO4J_URI\" --graph corpora/demo/graph.json --pushed --generate 50 --seed 1 --out runs/difftest",
    ),
    (
        "generate predictions",
        "grape generate predictions --dataset corpora/demo/questions.jsonl --graph corpora/demo/graph.json --model openai:gpt-4o-mini --out runs/predictions.jsonl",
    ),
    (
        "generate dataset",
        "grape generate dataset --graph corpora/demo/graph.json --model openai:gpt-4o-mini --paths 5 --out runs/generated.json",
    ),
    (
        "judge",
        "grape judge --dataset corpora/demo/qa.jsonl --answers corpora/demo/qa_answers.jsonl --model openai:gpt-4o-mini --out runs/verdicts.jsonl",
    ),
    (
        "agent-eval",
        "grape agent-eval --server \"grape serve mcp --graph corpora/demo/graph.json\" --dataset corpora/demo/qa.jsonl --graph corpora/demo/graph.json --model openai:gpt-4o-mini --out runs/agent",
    ),
    (
        "session-eval",
        "grape session-eval --sessions corpora/demo/sessions.json --graph corpora/demo/graph.json --model openai:gpt-4o-mini --protocol guided --out runs/sessions",
    ),
    (
        "textsim",
        "grape textsim corpora/queries/pairs.jsonl",
    ),
    (
        "query",
        "grape query --graph corpora/demo/graph.json 'MATCH (a:Author)-[:WROTE]->(b:Book) RETURN a.name, count(b) AS books ORDER BY books DESC LIMIT 3'",
    ),
    ("parse", "grape parse --print corpora/demo/questions.jsonl"),
    (
        "validate",
        "grape validate --schema corpora/demo/graph.json --format github corpora/demo/questions.jsonl",
    ),
    ("analyze", "grape analyze corpora/demo/questions.jsonl"),
    (
        "schema convert",
        "grape schema convert --to prompt corpora/demo/graph.json",
    ),
    ("graph stats", "grape graph stats corpora/demo/graph.json"),
    (
        "graph save",
        "grape graph save corpora/demo/graph.json runs/demo.grape",
    ),
    (
        "graph push",
        "grape graph push corpora/demo/graph.json --neo4j \"$NEO4J_URI\" --clear",
    ),
    ("completions", "source <(grape completions bash)"),
    ("manpage", "grape manpage --out runs/man"),
];

/// The command line with every example attached to its command's `--help`.
pub(crate) fn command() -> clap::Command {
    attach(Cli::command(), "")
}

fn attach(cmd: clap::Command, path: &str) -> clap::Command {
    let cmd = cmd.mut_subcommands(|sub| {
        let name = sub.get_name().to_string();
        let sub_path = if path.is_empty() {
            name
        } else {
            format!("{path} {name}")
        };
        attach(sub, &sub_path)
    });
    match EXAMPLES.iter().find(|(p, _)| *p == path) {
        Some((_, example)) => cmd.after_help(format!("Example:\n  {example}")),
        None => cmd,
    }
}

/// Paths of the commands that take no subcommand (the leaves), `help` left out.
#[cfg(test)]
fn leaves(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
    let subs: Vec<_> = cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help")
        .collect();
    if subs.is_empty() && !path.is_empty() {
        out.push(path.to_string());
    }
    for s in subs {
        let p = if path.is_empty() {
            s.get_name().to_string()
        } else {
            format!("{path} {}", s.get_name())
        };
        leaves(s, &p, out);
    }
}

/// `grape completions SHELL`: the completion script on standard output.
pub(crate) fn cmd_completions(shell: clap_complete::Shell) -> ExitCode {
    let mut cmd = command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "grape", &mut out);
    write_stdout(&out)
}

/// `grape manpage --out DIR`: `grape.1` and one page per command (`grape-serve-bolt.1`, …).
pub(crate) fn cmd_manpage(out: &Path) -> ExitCode {
    let cmd = command();
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("error: cannot create {}: {e}", out.display());
        return ExitCode::from(2);
    }
    let mut written = 0usize;
    if let Err(e) = write_pages(&cmd, "grape", out, &mut written) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    println!("{written} man pages in {}", out.display());
    ExitCode::SUCCESS
}

fn write_pages(
    cmd: &clap::Command,
    name: &str,
    dir: &Path,
    written: &mut usize,
) -> std::io::Result<()> {
    let page = cmd
        .clone()
        .name(name.to_string())
        .bin_name(name.replace('-', " "));
    let mut buf = Vec::new();
    clap_mangen::Man::new(page).render(&mut buf)?;
    let path = dir.join(format!("{name}.1"));
    grape::dataset::write_atomically(&path, &buf)
        .map_err(|e| std::io::Error::other(format!("cannot write {}: {e}", path.display())))?;
    *written += 1;
    for sub in cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help" && !s.is_hide_set())
    {
        write_pages(sub, &format!("{name}-{}", sub.get_name()), dir, written)?;
    }
    Ok(())
}

/// `grape help-reference`: every command's `--help`, in Markdown, for the guide.
pub(crate) fn cmd_help_reference() -> ExitCode {
    let mut cmd = command();
    cmd.build();
    let mut md = String::from(
        "# Command-line reference\n\n\
         Generated by `grape help-reference` from the command line's own definitions (a test \
         fails when this page and the binary disagree). Each section is what `grape COMMAND \
         --help` prints; every example runs in CI.\n",
    );
    reference(&cmd, "grape", &mut md);
    write_stdout(md.as_bytes())
}

fn reference(cmd: &clap::Command, path: &str, md: &mut String) {
    if cmd.is_hide_set() {
        return;
    }
    let mut c = cmd.clone();
    let help = c.render_long_help().to_string();
    md.push_str(&format!("\n## `{path}`\n\n```text\n"));
    for line in help.lines() {
        md.push_str(line.trim_end());
        md.push('\n');
    }
    md.push_str("```\n");
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        reference(sub, &format!("{path} {}", sub.get_name()), md);
    }
}

fn write_stdout(bytes: &[u8]) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_an_example_and_every_example_a_command() {
        let cmd = Cli::command();
        let mut paths = Vec::new();
        leaves(&cmd, "", &mut paths);
        for p in &paths {
            if p == "help-reference" {
                continue;
            }
            assert!(
                EXAMPLES.iter().any(|(e, _)| e == p),
                "`grape {p} --help` has no example: add one to EXAMPLES"
            );
        }
        let all_features = cfg!(all(
            feature = "bolt",
            feature = "mcp",
            feature = "llm",
            feature = "neo4j"
        ));
        for (p, example) in EXAMPLES {
            assert!(
                !all_features || paths.iter().any(|q| q == p),
                "example for unknown command {p}"
            );
            assert!(
                example.contains(&format!("grape {p}")),
                "the example for {p} runs another command: {example}"
            );
        }
    }
}
