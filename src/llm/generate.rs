//! `grape generate predictions`: k samples per question from a model, each optionally repaired
//! — validated against the schema (syntax, labels, types, directions, properties) and sent back
//! with the validator's diagnostics, up to N rounds — written as a predictions file `grape eval`
//! reads. With repair, the first answers (before any repair) are written too, so that reports
//! show both. Progress goes to `OUT.partial` as each question finishes, so an interrupted run
//! resumes where it stopped (and the response cache makes repeated requests free); the final
//! files are written atomically in dataset order.

use super::client::{ChatRequest, Llm, LlmError, Message, Usage};
use super::extract::extract_cypher;
use super::prompt::Prompter;
use crate::analysis::Validator;
use crate::dataset::Example;
use crate::schema::Schema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Settings of a generation run.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Samples per question (Pass@k).
    pub samples: usize,
    /// Most repair rounds per sample.
    pub repair: usize,
    /// Sampling temperature; default 0 for one sample, 0.7 for several.
    pub temperature: Option<f64>,
    pub max_tokens: u32,
    /// Questions worked on at once.
    pub workers: usize,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            samples: 1,
            repair: 0,
            temperature: None,
            max_tokens: 1024,
            workers: 10,
        }
    }
}

/// One question's predictions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generated {
    pub id: String,
    /// The first sample, after repair.
    pub cypher: String,
    /// Every sample, after repair.
    pub candidates: Vec<String>,
    /// Every sample as first answered.
    pub before_repair: Vec<String>,
    /// Repair rounds each sample used.
    pub repair_rounds: Vec<usize>,
    pub usage: Usage,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cost_usd: Option<f64>,
    /// Why no query could be had (the model kept failing).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
}

/// What a run did.
#[derive(Clone, Debug, Serialize)]
pub struct GenerateSummary {
    pub questions: usize,
    /// Questions taken from an earlier, interrupted run.
    pub resumed: usize,
    pub failed: usize,
    /// Samples the validator accepted before and after repair.
    pub valid_before_repair: usize,
    pub valid_after_repair: usize,
    pub samples: usize,
    pub accounting: super::client::Accounting,
    pub out: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out_before_repair: Option<PathBuf>,
}

/// The file the answers before repair go to: `preds.jsonl` → `preds.no-repair.jsonl`.
pub fn before_repair_path(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = out
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    out.with_file_name(format!("{stem}.no-repair{ext}"))
}

fn partial_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".partial");
    PathBuf::from(p)
}

fn feedback(diags: &[crate::analysis::Diagnostic], syntax_ok: bool) -> String {
    let mut s = String::from(if syntax_ok {
        "The query does not fit the schema:\n"
    } else {
        "The query is not valid Cypher:\n"
    });
    for d in diags {
        s.push_str(&format!(
            "- line {}, column {}: {} ({})\n",
            d.line,
            d.column,
            d.text(),
            d.code
        ));
    }
    s.push_str("Write a corrected query. Reply with the query in a ```cypher code block only.");
    s
}

fn one(
    llm: &Llm,
    prompter: &Prompter,
    validator: &Validator,
    e: &Example,
    opts: &GenerateOptions,
) -> Result<(Generated, usize, usize), LlmError> {
    let temperature = opts
        .temperature
        .unwrap_or(if opts.samples > 1 { 0.7 } else { 0.0 });
    let mut g = Generated {
        id: e.id.clone(),
        cypher: String::new(),
        candidates: Vec::new(),
        before_repair: Vec::new(),
        repair_rounds: Vec::new(),
        usage: Usage::default(),
        cost_usd: Some(0.0),
        error: None,
    };
    let (mut valid_before, mut valid_after) = (0, 0);
    for s in 0..opts.samples.max(1) {
        let mut messages = prompter.messages(e);
        let mut rounds = 0;
        let ask = |messages: &Vec<Message>, g: &mut Generated| -> Result<String, LlmError> {
            let reply = llm.chat(&ChatRequest {
                messages: messages.clone(),
                temperature,
                max_tokens: opts.max_tokens,
                sample: s as u32,
            })?;
            g.usage.input_tokens += reply.usage.input_tokens;
            g.usage.output_tokens += reply.usage.output_tokens;
            g.cost_usd = match (g.cost_usd, reply.cost_usd) {
                (Some(a), Some(b)) => Some(a + b),
                _ => None,
            };
            Ok(reply.text)
        };
        let mut text = ask(&messages, &mut g)?;
        let mut q = extract_cypher(&text);
        g.before_repair.push(q.clone());
        let mut v = validator.validate(&q);
        if v.kg_valid {
            valid_before += 1;
        }
        while !v.kg_valid && rounds < opts.repair {
            rounds += 1;
            messages.push(Message::assistant(text));
            messages.push(Message::user(feedback(&v.diagnostics, v.syntax_ok)));
            text = ask(&messages, &mut g)?;
            q = extract_cypher(&text);
            v = validator.validate(&q);
        }
        if v.kg_valid {
            valid_after += 1;
        }
        g.candidates.push(q);
        g.repair_rounds.push(rounds);
    }
    g.cypher = g.candidates.first().cloned().unwrap_or_default();
    Ok((g, valid_before, valid_after))
}

fn read_partial(path: &Path) -> HashMap<String, Generated> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashMap::new();
    };
    // A line torn by an interruption does not parse and is done again.
    text.lines()
        .filter_map(|l| serde_json::from_str::<Generated>(l).ok())
        .map(|g| (g.id.clone(), g))
        .collect()
}

fn line_of(g: &Generated, before: bool) -> String {
    let mut v = serde_json::to_value(g).unwrap_or_default();
    if before {
        v["candidates"] = serde_json::json!(g.before_repair);
        v["cypher"] = serde_json::json!(g.before_repair.first().cloned().unwrap_or_default());
    }
    v.to_string()
}

/// Generates predictions for `examples` into `out` (and, with repair, the answers before
/// repair beside it). A refused request (bad key, unknown model) stops the run; a question
/// whose requests keep failing is recorded with its error and an empty query.
pub fn generate_predictions(
    llm: &Llm,
    schema: &Schema,
    prompter: &Prompter,
    examples: &[Example],
    opts: &GenerateOptions,
    out: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<GenerateSummary, String> {
    let partial = partial_path(out);
    let mut done = read_partial(&partial);
    let ids: std::collections::HashSet<&str> = examples.iter().map(|e| e.id.as_str()).collect();
    done.retain(|id, _| ids.contains(id.as_str()));
    let resumed = done.len();
    let todo: Vec<&Example> = examples
        .iter()
        .filter(|e| !done.contains_key(&e.id))
        .collect();
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let log = Mutex::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&partial)
            .map_err(|e| format!("{}: {e}", partial.display()))?,
    );
    let validator = Validator::new(schema);
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(resumed);
    let stop = AtomicBool::new(false);
    let fatal: Mutex<Option<String>> = Mutex::new(None);
    let results: Mutex<Vec<(Generated, usize, usize)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..opts.workers.clamp(1, todo.len().max(1)) {
            scope.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(e) = todo.get(i) else { break };
                let r = match one(llm, prompter, &validator, e, opts) {
                    Ok(r) => r,
                    Err(err @ (LlmError::Refused { .. } | LlmError::Setup(_))) => {
                        stop.store(true, Ordering::Relaxed);
                        *fatal.lock().unwrap_or_else(|x| x.into_inner()) = Some(err.to_string());
                        break;
                    }
                    Err(err) => (
                        Generated {
                            id: e.id.clone(),
                            cypher: String::new(),
                            candidates: vec![String::new()],
                            before_repair: vec![String::new()],
                            repair_rounds: vec![0],
                            usage: Usage::default(),
                            cost_usd: None,
                            error: Some(err.to_string()),
                        },
                        0,
                        0,
                    ),
                };
                {
                    let mut f = log.lock().unwrap_or_else(|x| x.into_inner());
                    let _ = writeln!(f, "{}", line_of(&r.0, false)).and_then(|_| f.flush());
                }
                results.lock().unwrap_or_else(|x| x.into_inner()).push(r);
                progress(finished.fetch_add(1, Ordering::Relaxed) + 1, examples.len());
            });
        }
    });
    if let Some(e) = fatal.into_inner().unwrap_or_else(|x| x.into_inner()) {
        return Err(format!(
            "{e} (the questions answered so far are kept in {}; rerun to resume)",
            partial.display()
        ));
    }
    let mut valid_before = 0;
    let mut valid_after = 0;
    let mut failed = 0;
    for (g, b, a) in results.into_inner().unwrap_or_else(|x| x.into_inner()) {
        valid_before += b;
        valid_after += a;
        done.insert(g.id.clone(), g);
    }
    let validator = Validator::new(schema);
    for g in done.values() {
        if g.error.is_some() {
            failed += 1;
        }
    }
    // Resumed questions count by their stored queries.
    let asked: std::collections::HashSet<&str> = todo.iter().map(|e| e.id.as_str()).collect();
    let resumed_ids: Vec<&String> = done
        .keys()
        .filter(|id| !asked.contains(id.as_str()))
        .collect();
    for id in resumed_ids {
        let g = &done[id];
        valid_before += g
            .before_repair
            .iter()
            .filter(|q| validator.validate(q).kg_valid)
            .count();
        valid_after += g
            .candidates
            .iter()
            .filter(|q| validator.validate(q).kg_valid)
            .count();
    }
    let ordered: Vec<&Generated> = examples.iter().filter_map(|e| done.get(&e.id)).collect();
    let write = |path: &Path, before: bool| -> Result<(), String> {
        let text: String = ordered.iter().map(|g| line_of(g, before) + "\n").collect();
        crate::dataset::write_atomically(path, text.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    write(out, false)?;
    let out_before = (opts.repair > 0).then(|| before_repair_path(out));
    if let Some(p) = &out_before {
        write(p, true)?;
    }
    let _ = std::fs::remove_file(&partial);
    Ok(GenerateSummary {
        questions: ordered.len(),
        resumed,
        failed,
        valid_before_repair: valid_before,
        valid_after_repair: valid_after,
        samples: ordered.iter().map(|g| g.candidates.len()).sum(),
        accounting: llm.accounting(),
        out: out.to_path_buf(),
        out_before_repair: out_before,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_feedback() {
        assert_eq!(
            before_repair_path(Path::new("/x/preds.jsonl")),
            Path::new("/x/preds.no-repair.jsonl")
        );
        assert_eq!(
            partial_path(Path::new("p.jsonl")),
            Path::new("p.jsonl.partial")
        );
        let schema = crate::schema::Schema::read(
            crate::schema::SchemaFormat::Prompt,
            "Node properties are the following:\nPerson {name: STRING}\n\
             Relationship properties are the following:\nThe relationships are the following:\n",
        )
        .unwrap();
        let v = Validator::new(&schema).validate("MATCH (p:Persn) RETURN p.name");
        let f = feedback(&v.diagnostics, v.syntax_ok);
        assert!(f.contains("line 1, column"), "{f}");
        assert!(f.contains("Persn"), "{f}");
    }
}
