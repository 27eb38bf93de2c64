//! `grape generate dataset`: GRAPE-style benchmark generation from a graph. Paths are sampled
//! from a [`Backend`] (seeded random walks that start from each label in turn, so every part of
//! the schema is visited); for each, a model writes a question and its Cypher in one of two
//! modes — simple (0–2 hops) or multi-hop (2–4 hops) — optionally with noise (a typo in an entity
//! name, or colloquial phrasing); the query must be KG-valid against the schema and run on the
//! backend; optionally only single-row results are kept (as GRAPE did); then the model turns the
//! result into a natural-language answer, and records whose answer is UNKNOWN are dropped. The
//! output is GRAPE's record format (`question`, `cypher`, `query_type`, `complexity`,
//! `noise_applied`, `model`, `database`, `validated`, `result`, `answer`). The prompts are
//! grape's own.

use super::client::{ChatRequest, Llm, LlmError, Message};
use super::extract::extract_cypher;
use crate::analysis::Validator;
use crate::backend::Backend;
use crate::engine::{Params, Table};
use crate::rng::SplitMix64;
use crate::schema::Schema;
use crate::value::{Entities, Value};
use serde::Serialize;
use serde_json::{json, Value as Json};

/// The two generation modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// 0–2 hops: property lookups, one-hop retrievals, simple aggregations.
    Simple,
    /// 2–4 hops: chains through several relationships.
    MultiHop,
}

impl Mode {
    fn hops(self) -> (usize, usize) {
        match self {
            Mode::Simple => (0, 2),
            Mode::MultiHop => (2, 4),
        }
    }
}

/// GRAPE's query types.
pub const QUERY_TYPES: [&str; 9] = [
    "Direct Property Access",
    "Property Retrieval",
    "Single-hop Property Retrieval",
    "Two-hop Property Retrieval",
    "Aggregation",
    "Single-hop Aggregation",
    "Two-hop Aggregation",
    "Sorting",
    "Existence Verification",
];

/// Settings of a generation run.
#[derive(Clone, Debug)]
pub struct DatasetOptions {
    /// Paths sampled per mode (one candidate question each).
    pub paths: usize,
    pub modes: Vec<Mode>,
    /// Probability that a question is asked with noise.
    pub noise: f64,
    /// Keep only queries whose result has exactly one row.
    pub single_row: bool,
    pub seed: u64,
    /// The `database` field of the records.
    pub database: String,
}

impl Default for DatasetOptions {
    fn default() -> Self {
        DatasetOptions {
            paths: 20,
            modes: vec![Mode::Simple, Mode::MultiHop],
            noise: 0.2,
            single_row: false,
            seed: 42,
            database: "graph".into(),
        }
    }
}

/// What happened to the candidates.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DatasetSummary {
    pub paths: usize,
    pub kept: usize,
    pub unparseable_reply: usize,
    pub not_kg_valid: usize,
    pub failed_to_run: usize,
    pub empty_result: usize,
    pub not_single_row: usize,
    pub unknown_answer: usize,
    pub duplicate: usize,
}

const GENERATOR: &str = "You write evaluation questions for text-to-Cypher systems. You get a \
Neo4j graph schema and a path that exists in the graph. Write one question a user could ask \
whose answer comes from this part of the graph, and the Cypher query that answers it. The \
query must use only the schema's labels, relationship types (in their direction) and \
properties, and the entity names exactly as they appear in the path. Reply with a JSON object \
and nothing else: {\"question\": \"...\", \"cypher\": \"...\", \"query_type\": \"...\"}, with \
query_type one of: ";

const ANSWERER: &str = "You turn database results into answers. You get a question and the \
rows a Cypher query returned for it. Answer the question in one or two sentences using only \
these rows. If the rows do not answer the question, reply with the single word UNKNOWN.";

/// A sampled path: node and relationship descriptions, as the prompt shows them.
struct Path {
    hops: usize,
    text: String,
}

fn literal(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let s: String = s.chars().take(80).collect();
            format!("{s:?}")
        }
        other => {
            let t = other.to_string();
            t.chars().take(80).collect()
        }
    }
}

fn describe_node(t: &Table, n: crate::value::NodeId) -> String {
    let labels: String = t.node_labels(n).iter().map(|l| format!(":{l}")).collect();
    let props: Vec<String> = t
        .node_props(n)
        .iter()
        .take(8)
        .map(|(k, v)| format!("{k}: {}", literal(v)))
        .collect();
    format!("({labels} {{{}}})", props.join(", "))
}

fn count(t: &Table) -> i64 {
    t.first_int().unwrap_or(0)
}

fn node_param(id: u32) -> Params {
    let mut p = Params::new();
    p.insert("id".into(), Value::Int(id as i64));
    p
}

/// A seeded random walk of `hops` steps from a node of `label`, never revisiting a node.
fn walk(
    db: &dyn Backend,
    label: &str,
    hops: usize,
    rng: &mut SplitMix64,
) -> Result<Option<Path>, String> {
    let mut l = String::new();
    crate::syntax::write_name(&mut l, label);
    let n = count(
        &db.run(&format!("MATCH (n:{l}) RETURN count(n)"), &Params::new())
            .map_err(|e| e.to_string())?,
    );
    if n <= 0 {
        return Ok(None);
    }
    let mut p = Params::new();
    p.insert("k".into(), Value::Int(rng.below(n as usize) as i64));
    let t = db
        .run(&format!("MATCH (n:{l}) RETURN n SKIP $k LIMIT 1"), &p)
        .map_err(|e| e.to_string())?;
    let Some(Value::Node(start)) = t.rows.first().and_then(|r| r.first()).cloned() else {
        return Ok(None);
    };
    let mut text = describe_node(&t, start);
    let mut seen = vec![start];
    let mut at = start;
    let mut done = 0;
    for _ in 0..hops {
        let p = node_param(at.0);
        let deg = count(
            &db.run(
                "MATCH (a) WHERE id(a) = $id MATCH (a)-[r]-(b) RETURN count(r)",
                &p,
            )
            .map_err(|e| e.to_string())?,
        );
        if deg <= 0 {
            break;
        }
        // A few tries to find a step to a node not on the path yet.
        let mut stepped = false;
        for _ in 0..4 {
            let mut p = node_param(at.0);
            p.insert("k".into(), Value::Int(rng.below(deg as usize) as i64));
            let t = db
                .run(
                    "MATCH (a) WHERE id(a) = $id MATCH (a)-[r]-(b) RETURN r, b SKIP $k LIMIT 1",
                    &p,
                )
                .map_err(|e| e.to_string())?;
            let Some(row) = t.rows.first() else { break };
            let (Value::Relationship(r), Value::Node(b)) = (&row[0], &row[1]) else {
                break;
            };
            if seen.contains(b) {
                continue;
            }
            let ty = t.rel_type(*r).unwrap_or_default();
            let forward = t.rel_endpoints(*r).is_some_and(|(s, _)| s == at);
            let arrow = if forward {
                format!("-[:{ty}]->")
            } else {
                format!("<-[:{ty}]-")
            };
            text.push_str(&format!("{arrow}{}", describe_node(&t, *b)));
            seen.push(*b);
            at = *b;
            done += 1;
            stepped = true;
            break;
        }
        if !stepped {
            break;
        }
    }
    Ok(Some(Path { hops: done, text }))
}

fn reply_json(text: &str) -> Option<Json> {
    let t = text.trim();
    if let Ok(j @ Json::Object(_)) = serde_json::from_str(t) {
        return Some(j);
    }
    let (a, b) = (t.find('{')?, t.rfind('}')?);
    serde_json::from_str(t.get(a..=b)?).ok()
}

fn rows_json(t: &Table) -> Json {
    Json::Array(
        t.rows
            .iter()
            .map(|r| {
                Json::Object(
                    t.columns
                        .iter()
                        .zip(r)
                        .map(|(c, v)| (c.clone(), crate::graph::import::value_to_json(v, t)))
                        .collect(),
                )
            })
            .collect(),
    )
}

/// Generates a dataset from `db`. A refused request stops the run; other per-candidate
/// failures drop the candidate and are counted.
pub fn generate_dataset(
    llm: &Llm,
    db: &dyn Backend,
    schema: &Schema,
    opts: &DatasetOptions,
) -> Result<(Vec<Json>, DatasetSummary), String> {
    let labels: Vec<&String> = schema.labels.keys().collect();
    if labels.is_empty() {
        return Err("the graph has no labels to sample from".into());
    }
    let validator = Validator::new(schema);
    let schema_text = schema.to_prompt();
    let mut rng = SplitMix64(opts.seed);
    let mut summary = DatasetSummary::default();
    let mut out = Vec::new();
    let mut seen_questions = std::collections::HashSet::new();
    let fatal = |e: LlmError| match e {
        LlmError::Refused { .. } | LlmError::Setup(_) => Err(e.to_string()),
        other => Ok(other),
    };
    for &mode in &opts.modes {
        let (lo, hi) = mode.hops();
        for i in 0..opts.paths {
            let label = labels[(i + rng.below(labels.len())) % labels.len()];
            let want = lo + rng.below(hi - lo + 1);
            let Some(path) = walk(db, label, want, &mut rng)? else {
                continue;
            };
            summary.paths += 1;
            let noisy = (rng.next() as f64 / u64::MAX as f64) < opts.noise;
            let noise_kind = if rng.below(2) == 0 {
                "Misspell one entity name in the question slightly (one or two letters), as a hurried user would; the Cypher query still uses the exact name from the path."
            } else {
                "Phrase the question colloquially, as a casual user would (informal words, no schema terms); the Cypher query is unchanged by this."
            };
            let mode_text = match mode {
                Mode::Simple => "Mode: simple. The query reads a property of one node or follows at most two relationships of the path.",
                Mode::MultiHop => "Mode: multi-hop. The query must follow two to four relationships of the path.",
            };
            let mut user = format!(
                "Schema:\n{}\n\nPath ({} hops):\n{}\n\n{mode_text}",
                schema_text.trim_end(),
                path.hops,
                path.text
            );
            if noisy {
                user.push_str(&format!("\nNoise: {noise_kind}"));
            }
            let reply = match llm.chat(&ChatRequest {
                messages: vec![
                    Message::system(format!("{GENERATOR}{}.", QUERY_TYPES.join(", "))),
                    Message::user(user),
                ],
                temperature: 0.7,
                max_tokens: 1024,
                sample: (opts.seed as u32).wrapping_add(i as u32),
            }) {
                Ok(r) => r,
                Err(e) => {
                    fatal(e)?;
                    summary.unparseable_reply += 1;
                    continue;
                }
            };
            let Some(j) = reply_json(&reply.text) else {
                summary.unparseable_reply += 1;
                continue;
            };
            let (Some(question), Some(cypher)) = (j["question"].as_str(), j["cypher"].as_str())
            else {
                summary.unparseable_reply += 1;
                continue;
            };
            let cypher = extract_cypher(cypher);
            let v = validator.validate(&cypher);
            if !v.kg_valid {
                summary.not_kg_valid += 1;
                continue;
            }
            let Ok(stmt) = crate::syntax::parse(&cypher) else {
                summary.not_kg_valid += 1;
                continue;
            };
            if crate::engine::is_updating(&stmt) {
                summary.failed_to_run += 1;
                continue;
            }
            let result = match db.run(&cypher, &Params::new()) {
                Ok(t) => t,
                Err(_) => {
                    summary.failed_to_run += 1;
                    continue;
                }
            };
            if result.rows.is_empty() {
                summary.empty_result += 1;
                continue;
            }
            if opts.single_row && result.rows.len() != 1 {
                summary.not_single_row += 1;
                continue;
            }
            if !seen_questions.insert(question.to_string()) {
                summary.duplicate += 1;
                continue;
            }
            let rows = rows_json(&result);
            let answer = match llm.chat(&ChatRequest {
                messages: vec![
                    Message::system(ANSWERER),
                    Message::user(format!("Question: {question}\nRows: {rows}")),
                ],
                temperature: 0.0,
                max_tokens: 512,
                sample: 0,
            }) {
                Ok(r) => r.text.trim().to_string(),
                Err(e) => {
                    fatal(e)?;
                    summary.unknown_answer += 1;
                    continue;
                }
            };
            if answer.is_empty() || answer.trim_matches(|c: char| !c.is_alphanumeric()) == "UNKNOWN"
            {
                summary.unknown_answer += 1;
                continue;
            }
            let query_type = j["query_type"]
                .as_str()
                .filter(|t| QUERY_TYPES.contains(t))
                .unwrap_or("Property Retrieval");
            let hops = crate::analysis::complexity(&stmt).hops;
            out.push(json!({
                "question": question,
                "cypher": cypher,
                "query_type": query_type,
                "complexity": format!("{hops}-hop"),
                "noise_applied": noisy,
                "model": llm.model().to_string(),
                "database": opts.database,
                "validated": true,
                "result": rows,
                "answer": answer,
            }));
            summary.kept += 1;
        }
    }
    Ok((out, summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_are_seeded_and_never_revisit() {
        let g = crate::graph::Graph::from_cypher_script(
            "CREATE (a:P {name: 'a'})-[:R]->(b:P {name: 'b'})-[:R]->(c:Q {name: 'c'})<-[:S]-(d:P {name: 'd'})",
        )
        .unwrap();
        let db = crate::backend::Memory::new(g);
        let a = walk(&db, "P", 3, &mut SplitMix64(5)).unwrap().unwrap();
        let b = walk(&db, "P", 3, &mut SplitMix64(5)).unwrap().unwrap();
        assert_eq!(a.text, b.text);
        assert!(a.hops <= 3);
        assert!(a.text.starts_with("(:P {name: "), "{}", a.text);
        assert!(walk(&db, "Nope", 1, &mut SplitMix64(1)).unwrap().is_none());
        assert_eq!(
            reply_json("Here:\n{\"question\": \"q\", \"cypher\": \"RETURN 1\"} ok").unwrap()
                ["question"],
            "q"
        );
        assert!(reply_json("no json").is_none());
    }
}
