//! `grape agent-eval`: GRAPE's protocol for LLM agents that query a graph through an MCP
//! server. Per question, a tool-calling agent (the `llm` client) gets the server's tools and the
//! question, calls tools until it answers or reaches the step limit (GRAPE used 10 and 25);
//! every tool call is recorded with its arguments, result, error flag and latency, with the
//! tokens, cost, steps and wall time of the question. The final answer is judged against the
//! reference answer (0–1, [`crate::llm::judge()`]); when the agent ran Cypher, its last query is
//! also scored against the gold query on a graph (EX, EX-strict). The report breaks the scores
//! down by noise, hops, query type and tool-call count, and gives the cost per correct answer.

use super::client::McpClient;
use crate::dataset::Example;
use crate::graph::Graph;
use crate::llm::{judge, Llm};
use serde::Serialize;
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The agent's instructions (grape's own wording).
pub const AGENT_SYSTEM: &str = "You answer questions about a graph database. Use the tools to \
look at the schema and to run Cypher queries until you know the answer; then reply with a \
short natural-language answer to the question, without calling a tool.";

/// Settings of an evaluation.
#[derive(Clone, Debug)]
pub struct AgentOptions {
    /// Most model turns per question.
    pub max_steps: usize,
    /// A judge score at or above this counts as a correct answer.
    pub correct_at: f64,
    /// Questions worked on at once.
    pub workers: usize,
    /// Characters of a tool result kept in the record.
    pub keep_chars: usize,
}

impl Default for AgentOptions {
    fn default() -> Self {
        AgentOptions {
            max_steps: 10,
            correct_at: 0.5,
            workers: 4,
            keep_chars: 2000,
        }
    }
}

/// One tool call of an agent.
#[derive(Clone, Debug, Serialize)]
pub struct ToolCallRecord {
    pub tool: String,
    pub arguments: Json,
    pub is_error: bool,
    /// The result text (cut at `keep_chars`).
    pub result: String,
    pub ms: f64,
}

/// One question's run.
#[derive(Clone, Debug, Serialize)]
pub struct AgentRecord {
    pub id: String,
    pub question: String,
    pub answer: Option<String>,
    pub reference: Option<String>,
    pub steps: usize,
    pub hit_step_limit: bool,
    pub tool_calls: Vec<ToolCallRecord>,
    /// The last Cypher query the agent ran through a `*_cypher` or `*-cypher` tool.
    pub last_cypher: Option<String>,
    pub judge_score: Option<f64>,
    pub judge_reasoning: Option<String>,
    pub ex: Option<f64>,
    pub ex_strict: Option<f64>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: Option<f64>,
    pub seconds: f64,
    pub categories: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Means over a group of records.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Group {
    pub n: usize,
    pub judge_score: Option<f64>,
    pub correct: usize,
    pub ex: Option<f64>,
    pub tool_calls: f64,
    pub steps: f64,
    pub cost_usd: Option<f64>,
    pub cost_per_correct_usd: Option<f64>,
    pub step_limit_hits: usize,
}

fn group(records: &[&AgentRecord], correct_at: f64) -> Group {
    let n = records.len();
    let mean = |xs: Vec<f64>| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
    let scores: Vec<f64> = records.iter().filter_map(|r| r.judge_score).collect();
    let correct = scores.iter().filter(|s| **s >= correct_at).count();
    let cost: Option<f64> = records
        .iter()
        .map(|r| r.cost_usd)
        .try_fold(0.0, |a, c| c.map(|c| a + c));
    Group {
        n,
        judge_score: mean(scores),
        correct,
        ex: mean(records.iter().filter_map(|r| r.ex).collect()),
        tool_calls: records
            .iter()
            .map(|r| r.tool_calls.len() as f64)
            .sum::<f64>()
            / n.max(1) as f64,
        steps: records.iter().map(|r| r.steps as f64).sum::<f64>() / n.max(1) as f64,
        cost_usd: cost,
        cost_per_correct_usd: cost.filter(|_| correct > 0).map(|c| c / correct as f64),
        step_limit_hits: records.iter().filter(|r| r.hit_step_limit).count(),
    }
}

/// The report: overall and by category field, query type, hops and tool-call count.
#[derive(Clone, Debug, Serialize)]
pub struct AgentReport {
    pub overall: Group,
    pub by: BTreeMap<String, BTreeMap<String, Group>>,
}

fn calls_bucket(n: usize) -> &'static str {
    match n {
        0 => "0",
        1 => "1",
        2 => "2",
        3..=5 => "3-5",
        _ => "6+",
    }
}

/// Builds the report of a run.
pub fn report(records: &[AgentRecord], correct_at: f64) -> AgentReport {
    let all: Vec<&AgentRecord> = records.iter().collect();
    let mut by: BTreeMap<String, BTreeMap<String, Vec<&AgentRecord>>> = BTreeMap::new();
    for r in records {
        for (k, v) in &r.categories {
            by.entry(k.clone())
                .or_default()
                .entry(v.clone())
                .or_default()
                .push(r);
        }
        by.entry("tool_calls".into())
            .or_default()
            .entry(calls_bucket(r.tool_calls.len()).into())
            .or_default()
            .push(r);
    }
    AgentReport {
        overall: group(&all, correct_at),
        by: by
            .into_iter()
            .map(|(k, groups)| {
                (
                    k,
                    groups
                        .into_iter()
                        .map(|(v, rs)| (v, group(&rs, correct_at)))
                        .collect(),
                )
            })
            .collect(),
    }
}

/// Runs the agent on one question.
fn run_one(
    llm: &Llm,
    mcp: &McpClient,
    tools: &[Json],
    e: &Example,
    opts: &AgentOptions,
) -> AgentRecord {
    let t0 = Instant::now();
    let mut rec = AgentRecord {
        id: e.id.clone(),
        question: e.question.clone(),
        answer: None,
        reference: e.answer.clone(),
        steps: 0,
        hit_step_limit: false,
        tool_calls: Vec::new(),
        last_cypher: None,
        judge_score: None,
        judge_reasoning: None,
        ex: None,
        ex_strict: None,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: Some(0.0),
        seconds: 0.0,
        categories: e.categories.clone(),
        error: None,
    };
    let mut messages = vec![
        json!({"role": "system", "content": AGENT_SYSTEM}),
        json!({"role": "user", "content": e.question}),
    ];
    loop {
        if rec.steps >= opts.max_steps {
            rec.hit_step_limit = true;
            break;
        }
        rec.steps += 1;
        let turn = match llm.chat_tools(&messages, tools, 2048) {
            Ok(t) => t,
            Err(err) => {
                rec.error = Some(err.to_string());
                break;
            }
        };
        rec.input_tokens += turn.usage.input_tokens;
        rec.output_tokens += turn.usage.output_tokens;
        rec.cost_usd = match (rec.cost_usd, turn.cost_usd) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        messages.push(turn.message.clone());
        if turn.tool_calls.is_empty() {
            rec.answer = Some(turn.content.trim().to_string());
            break;
        }
        for call in &turn.tool_calls {
            let c0 = Instant::now();
            let (is_error, text) = match mcp.call(&call.name, &call.arguments) {
                Ok(r) => r,
                Err(err) => (true, err),
            };
            if call.name.ends_with("_cypher") || call.name.ends_with("-cypher") {
                if let Some(q) = call.arguments.get("query").and_then(Json::as_str) {
                    rec.last_cypher = Some(q.to_string());
                }
            }
            rec.tool_calls.push(ToolCallRecord {
                tool: call.name.clone(),
                arguments: call.arguments.clone(),
                is_error,
                result: super::cut(text.clone(), opts.keep_chars),
                ms: c0.elapsed().as_secs_f64() * 1000.0,
            });
            messages.push(json!({"role": "tool", "tool_call_id": call.id, "content": text}));
        }
    }
    rec.seconds = t0.elapsed().as_secs_f64();
    rec
}

/// Scores the last query against the gold one on `graph`; `Err` says why the gold query itself
/// does not run there (a benchmark's error, not the agent's: it is recorded, not scored 0).
fn execution(graph: &Graph, gold: &str, predicted: &str) -> Result<(f64, f64), String> {
    let opts = crate::engine::Options::default();
    let g = crate::engine::run_read(graph, gold, &Default::default(), &opts)
        .map_err(|e| format!("the gold query fails on the graph: {e}"))?;
    let stmt = crate::syntax::parse(gold)
        .map_err(|e| format!("the gold query does not parse: {}", e.message))?;
    match crate::engine::run_read(graph, predicted, &Default::default(), &opts) {
        Ok(p) => {
            let s = crate::metrics::execution_accuracy(&p, &g, stmt.orders_rows());
            Ok((s.ex, s.ex_strict))
        }
        Err(_) => Ok((0.0, 0.0)),
    }
}

/// Evaluates an agent (`llm` with `mcp`'s tools) on `examples`; `judge_llm` scores answers
/// against references, `graph` scores the last Cypher query.
pub fn evaluate(
    llm: &Llm,
    judge_llm: &Llm,
    mcp: &McpClient,
    examples: &[Example],
    graph: Option<&Graph>,
    opts: &AgentOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<AgentRecord> {
    let tools = mcp.openai_tools();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let out: Vec<Mutex<Option<AgentRecord>>> = examples.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..opts.workers.clamp(1, examples.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(e) = examples.get(i) else { break };
                let mut rec = run_one(llm, mcp, &tools, e, opts);
                match (&rec.answer, &e.answer) {
                    (Some(a), Some(reference)) => match judge(judge_llm, &e.question, reference, a)
                    {
                        Ok(j) => {
                            rec.judge_score = Some(j.score);
                            rec.judge_reasoning = Some(j.reasoning);
                        }
                        Err(err) => rec.error = Some(format!("judge: {err}")),
                    },
                    (None, Some(_)) => rec.judge_score = Some(0.0),
                    _ => {}
                }
                if let (Some(g), Some(q)) = (graph, &rec.last_cypher) {
                    match execution(g, &e.gold, q) {
                        Ok((ex, strict)) => {
                            rec.ex = Some(ex);
                            rec.ex_strict = Some(strict);
                        }
                        Err(why) => {
                            rec.error.get_or_insert(why);
                        }
                    }
                } else if graph.is_some() {
                    rec.ex = Some(0.0);
                    rec.ex_strict = Some(0.0);
                }
                *out[i].lock().unwrap_or_else(|x| x.into_inner()) = Some(rec);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, examples.len());
            });
        }
    });
    out.into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|x| x.into_inner()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(
        id: &str,
        score: Option<f64>,
        calls: usize,
        cost: Option<f64>,
        noise: &str,
    ) -> AgentRecord {
        AgentRecord {
            id: id.into(),
            question: String::new(),
            answer: None,
            reference: None,
            steps: calls + 1,
            hit_step_limit: false,
            tool_calls: (0..calls)
                .map(|_| ToolCallRecord {
                    tool: "t".into(),
                    arguments: json!({}),
                    is_error: false,
                    result: String::new(),
                    ms: 1.0,
                })
                .collect(),
            last_cypher: None,
            judge_score: score,
            judge_reasoning: None,
            ex: None,
            ex_strict: None,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: cost,
            seconds: 0.0,
            categories: [("noise".to_string(), noise.to_string())].into(),
            error: None,
        }
    }

    #[test]
    fn a_gold_query_that_fails_is_an_error_not_a_score() {
        let mut g = Graph::default();
        crate::engine::run(&mut g, "CREATE (:A {x: 1})", &Default::default()).unwrap();
        assert_eq!(
            execution(
                &g,
                "MATCH (a:A) RETURN a.x",
                "MATCH (a:A) WHERE a.x > 0 RETURN a.x"
            ),
            Ok((1.0, 1.0))
        );
        assert_eq!(
            execution(&g, "MATCH (a:A) RETURN a.x", "RETURN nope"),
            Ok((0.0, 0.0))
        );
        for bad in [
            "MATCH (a:A) RETURN b",
            "RETURN 1 / 0",
            "MATCH (a:A RETURN a",
        ] {
            let e = execution(&g, bad, "RETURN 1").unwrap_err();
            assert!(
                e.starts_with("the gold query fails on the graph: "),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn report_groups_and_cost_per_correct() {
        let rs = vec![
            rec("1", Some(1.0), 2, Some(0.02), "false"),
            rec("2", Some(0.0), 7, Some(0.06), "true"),
            rec("3", Some(0.5), 2, Some(0.01), "false"),
        ];
        let r = report(&rs, 0.5);
        assert_eq!(r.overall.n, 3);
        assert_eq!(r.overall.correct, 2);
        assert!((r.overall.cost_per_correct_usd.unwrap() - 0.045).abs() < 1e-12);
        assert_eq!(r.by["noise"]["false"].n, 2);
        assert_eq!(r.by["tool_calls"]["2"].n, 2);
        assert_eq!(r.by["tool_calls"]["6+"].correct, 0);
        // An unknown cost anywhere makes the total unknown, not smaller.
        let r = report(&[rec("1", Some(1.0), 1, None, "x")], 0.5);
        assert_eq!(r.overall.cost_usd, None);
    }
}
