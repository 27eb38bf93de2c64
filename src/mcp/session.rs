//! `grape session-eval`: CypherTurn's multi-turn protocols for an LLM over a graph. A model
//! answers one action per reply, as a JSON object — `EXECUTE_CYPHER` (`query`; the rows come
//! back), `INSPECT_SCHEMA`, `SEARCH_VALUES` (`text`), `ASK_USER` (`question`; a scripted reply)
//! or `SUBMIT_ANSWER` (`query`: the turn's final Cypher) — and every action costs one unit.
//!
//! - **guided**: each turn is its own conversation with the schema and the gold history (the
//!   earlier turns' utterances and gold queries) in the prompt, and at most `actions_per_turn`
//!   (3) actions; a turn without `SUBMIT_ANSWER` has no prediction.
//! - **agentic**: one conversation per session; the agent keeps its own history, discovers the
//!   schema with `INSPECT_SCHEMA`, and shares a budget B = turns × m over the whole session;
//!   once it is spent, every remaining turn scores zero.
//!
//! The submitted queries become predictions that the evaluation runner scores (EX, EX-strict,
//! PSJS per turn; CER and SEM per session; by phenomenon and chain mode). Prompts are grape's
//! own.

use super::server::{GraphServer, McpConfig};
use crate::dataset::{Example, Prediction};
use crate::eval::Graphs;
use crate::llm::{ChatRequest, Llm, Message};
use serde::Serialize;
use serde_json::{json, Map, Value as Json};
use std::collections::HashMap;
use std::sync::Arc;

/// The two protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Guided,
    Agentic,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s {
            "guided" => Ok(Protocol::Guided),
            "agentic" => Ok(Protocol::Agentic),
            _ => Err(format!("unknown protocol `{s}` (guided, agentic)")),
        }
    }
}

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    pub protocol: Protocol,
    /// Guided: most actions per turn.
    pub actions_per_turn: usize,
    /// Agentic: budget per turn, m (B = turns × m).
    pub budget_per_turn: usize,
    /// What ASK_USER gets back.
    pub user_reply: String,
    /// Characters of an observation shown to the model.
    pub observation_chars: usize,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            protocol: Protocol::Guided,
            actions_per_turn: 3,
            budget_per_turn: 5,
            user_reply: "I can't add anything to that; please go with your best reading of my \
                         request."
                .into(),
            observation_chars: 4000,
        }
    }
}

/// One action and what it returned.
#[derive(Clone, Debug, Serialize)]
pub struct ActionRecord {
    pub action: String,
    pub argument: Option<String>,
    pub observation: String,
}

/// One turn's trace.
#[derive(Clone, Debug, Serialize)]
pub struct TurnTrace {
    pub id: String,
    pub actions: Vec<ActionRecord>,
    pub submitted: Option<String>,
    /// The turn came after the session's budget ran out (agentic).
    pub zeroed: bool,
}

/// One session's trace.
#[derive(Clone, Debug, Serialize)]
pub struct SessionTrace {
    pub session_id: String,
    pub protocol: Protocol,
    /// Actions the session may take in all (agentic), or per turn × turns (guided).
    pub budget: usize,
    pub used: usize,
    pub exhausted: bool,
    pub turns: Vec<TurnTrace>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

const ACTIONS: &str = "Reply with exactly one action per message, as a JSON object and nothing \
else:\n\
{\"action\": \"EXECUTE_CYPHER\", \"query\": \"...\"} runs a read-only Cypher query and shows \
its rows;\n\
{\"action\": \"INSPECT_SCHEMA\"} shows the graph's labels, relationship types and properties;\n\
{\"action\": \"SEARCH_VALUES\", \"text\": \"...\"} finds property values containing a text;\n\
{\"action\": \"ASK_USER\", \"question\": \"...\"} asks the user to clarify;\n\
{\"action\": \"SUBMIT_ANSWER\", \"query\": \"...\"} gives your final Cypher query for the \
current request and ends the turn.\n\
Every action costs one unit of budget. Later requests often build on earlier ones: reuse what \
you found rather than starting over.";

fn guided_system(schema: &str, per_turn: usize) -> String {
    format!(
        "You are a data assistant answering a user's requests over a Neo4j graph by writing \
         Cypher. {ACTIONS}\nYou have at most {per_turn} actions for each request.\n\nGraph \
         schema:\n{schema}"
    )
}

fn agentic_system(budget: usize, turns: usize) -> String {
    format!(
        "You are a data assistant answering a user's requests over a Neo4j graph by writing \
         Cypher, working on your own. {ACTIONS}\nThe schema is not given: use INSPECT_SCHEMA. \
         The conversation will have {turns} requests and you have {budget} actions in all; \
         when they run out, the remaining requests go unanswered."
    )
}

/// The action object in a reply (the whole reply, a fenced block, or the first `{…}` span).
fn parse_action(reply: &str) -> Option<Map<String, Json>> {
    let t = reply.trim();
    if let Ok(Json::Object(o)) = serde_json::from_str(t) {
        return Some(o);
    }
    let (a, b) = (t.find('{')?, t.rfind('}')?);
    match serde_json::from_str(t.get(a..=b)?) {
        Ok(Json::Object(o)) => Some(o),
        _ => None,
    }
}

enum Step {
    Observe(ActionRecord),
    Submit(ActionRecord, String),
}

/// Carries out one action.
fn act(reply: &str, tools: &GraphServer, schema: &str, opts: &SessionOptions) -> Step {
    let Some(a) = parse_action(reply) else {
        return Step::Observe(ActionRecord {
            action: "INVALID".into(),
            argument: None,
            observation: "Invalid action: reply with one JSON object such as {\"action\": \"INSPECT_SCHEMA\"}.".into(),
        });
    };
    let name = a
        .get("action")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_ascii_uppercase();
    let arg = |k: &[&str]| {
        k.iter()
            .find_map(|k| a.get(*k).and_then(Json::as_str))
            .map(str::to_string)
    };
    let call = |tool: &str, args: Json| -> String {
        let args = args.as_object().cloned().unwrap_or_default();
        match tools.call(tool, &args) {
            Ok(r) => {
                let r: rmcp::model::CallToolResult = match r {
                    rmcp::model::CallToolResponse::Complete(r) => r,
                    _ => return "no result".into(),
                };
                r.content
                    .iter()
                    .filter_map(|c| c.as_text().map(|t| t.text.clone()))
                    .collect()
            }
            Err(e) => format!("Error: {}", e.message),
        }
    };
    let record = |argument: Option<String>, observation: String| ActionRecord {
        action: name.clone(),
        argument,
        observation: super::cut(observation, opts.observation_chars),
    };
    match name.as_str() {
        "EXECUTE_CYPHER" => {
            let q = arg(&["query", "cypher"]).unwrap_or_default();
            let obs = call("read_neo4j_cypher", json!({"query": q}));
            Step::Observe(record(Some(q), obs))
        }
        "INSPECT_SCHEMA" => Step::Observe(record(None, schema.to_string())),
        "SEARCH_VALUES" => {
            let t = arg(&["text", "value", "query"]).unwrap_or_default();
            let obs = call("search_values", json!({"text": t}));
            Step::Observe(record(Some(t), obs))
        }
        "ASK_USER" => {
            let q = arg(&["question", "text"]);
            Step::Observe(record(q, opts.user_reply.clone()))
        }
        "SUBMIT_ANSWER" => {
            let q = arg(&["query", "cypher", "answer"]).unwrap_or_default();
            let q = crate::llm::extract_cypher(&q);
            Step::Submit(record(Some(q.clone()), "Submitted.".into()), q)
        }
        other => Step::Observe(record(
            None,
            format!("Unknown action `{other}`: use EXECUTE_CYPHER, INSPECT_SCHEMA, SEARCH_VALUES, ASK_USER or SUBMIT_ANSWER."),
        )),
    }
}

struct Meter<'a> {
    llm: &'a Llm,
    trace: SessionTrace,
}

impl Meter<'_> {
    fn ask(&mut self, messages: &[Message]) -> Result<String, String> {
        let r = self
            .llm
            .chat(&ChatRequest {
                messages: messages.to_vec(),
                temperature: 0.0,
                max_tokens: 1024,
                sample: 0,
            })
            .map_err(|e| e.to_string())?;
        self.trace.input_tokens += r.usage.input_tokens;
        self.trace.output_tokens += r.usage.output_tokens;
        self.trace.cost_usd = match (self.trace.cost_usd, r.cost_usd) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        Ok(r.text)
    }
}

fn observation_message(r: &ActionRecord, left: Option<usize>) -> String {
    match left {
        Some(n) => format!("Observation ({n} actions left):\n{}", r.observation),
        None => format!("Observation:\n{}", r.observation),
    }
}

/// Runs one session (its turns in order).
fn run_session(
    llm: &Llm,
    turns: &[&Example],
    tools: &GraphServer,
    schema: &str,
    opts: &SessionOptions,
) -> SessionTrace {
    let session_id = turns[0]
        .turn
        .as_ref()
        .map(|t| t.session_id.clone())
        .unwrap_or_default();
    let budget = match opts.protocol {
        Protocol::Guided => turns.len() * opts.actions_per_turn,
        Protocol::Agentic => turns.len() * opts.budget_per_turn,
    };
    let mut m = Meter {
        llm,
        trace: SessionTrace {
            session_id,
            protocol: opts.protocol,
            budget,
            used: 0,
            exhausted: false,
            turns: Vec::new(),
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: Some(0.0),
            error: None,
        },
    };
    let mut convo = vec![Message::system(agentic_system(budget, turns.len()))];
    for (k, t) in turns.iter().enumerate() {
        let mut trace = TurnTrace {
            id: t.id.clone(),
            actions: Vec::new(),
            submitted: None,
            zeroed: false,
        };
        if m.trace.error.is_some() || (opts.protocol == Protocol::Agentic && m.trace.used >= budget)
        {
            trace.zeroed = opts.protocol == Protocol::Agentic && m.trace.used >= budget;
            m.trace.exhausted |= trace.zeroed;
            m.trace.turns.push(trace);
            continue;
        }
        let mut messages = match opts.protocol {
            Protocol::Guided => {
                let mut history = String::new();
                for prev in &turns[..k] {
                    history.push_str(&format!(
                        "User: {}\nCypher: {}\n",
                        prev.question,
                        prev.gold.trim()
                    ));
                }
                let mut v = vec![Message::system(guided_system(
                    schema,
                    opts.actions_per_turn,
                ))];
                let history = if history.is_empty() {
                    String::new()
                } else {
                    format!("Conversation so far (with the correct queries):\n{history}\n")
                };
                v.push(Message::user(format!("{history}Request: {}", t.question)));
                v
            }
            Protocol::Agentic => {
                convo.push(Message::user(format!(
                    "Request {} of {}: {}",
                    k + 1,
                    turns.len(),
                    t.question
                )));
                std::mem::take(&mut convo)
            }
        };
        let mut used_here = 0;
        loop {
            let allowed = match opts.protocol {
                Protocol::Guided => used_here < opts.actions_per_turn,
                Protocol::Agentic => m.trace.used < budget,
            };
            if !allowed {
                break;
            }
            let reply = match m.ask(&messages) {
                Ok(r) => r,
                Err(e) => {
                    m.trace.error = Some(e);
                    break;
                }
            };
            used_here += 1;
            m.trace.used += 1;
            messages.push(Message::assistant(reply.clone()));
            let left = match opts.protocol {
                Protocol::Guided => opts.actions_per_turn - used_here,
                Protocol::Agentic => budget - m.trace.used,
            };
            match act(&reply, tools, schema, opts) {
                Step::Submit(r, q) => {
                    trace.actions.push(r);
                    trace.submitted = Some(q);
                    break;
                }
                Step::Observe(r) => {
                    messages.push(Message::user(observation_message(&r, Some(left))));
                    trace.actions.push(r);
                }
            }
        }
        if opts.protocol == Protocol::Agentic {
            convo = messages;
            if trace.submitted.is_none() && m.trace.used >= budget {
                m.trace.exhausted = true;
            }
        }
        m.trace.turns.push(trace);
    }
    m.trace
}

/// Runs every session of `examples` (CypherTurn turns, grouped by session in file order) and
/// returns the predictions (the submitted queries, by example id) and the traces.
pub fn run_sessions(
    llm: &Llm,
    graphs: &Graphs,
    examples: &[Example],
    opts: &SessionOptions,
    workers: usize,
) -> (HashMap<String, Prediction>, Vec<SessionTrace>) {
    let mut order: Vec<String> = Vec::new();
    let mut by: HashMap<String, Vec<&Example>> = HashMap::new();
    for e in examples {
        let sid = e
            .turn
            .as_ref()
            .map(|t| t.session_id.clone())
            .unwrap_or_else(|| e.id.clone());
        if !by.contains_key(&sid) {
            order.push(sid.clone());
        }
        by.entry(sid).or_default().push(e);
    }
    // One tool server per graph, shared by the sessions on it.
    let mut servers: HashMap<Option<String>, (Arc<GraphServer>, String)> = HashMap::new();
    for e in examples {
        if servers.contains_key(&e.graph) {
            continue;
        }
        if let Ok((g, s)) = graphs.for_example(e) {
            // CypherTurn's tools: mcp-neo4j-cypher's read tool and search_values.
            let config = McpConfig {
                contract: super::Contract::McpNeo4jCypher,
                read_only: true,
                search_values: true,
                max_rows: Some(20),
                ..Default::default()
            };
            servers.insert(
                e.graph.clone(),
                (
                    Arc::new(GraphServer::over_graph(
                        g.clone(),
                        Default::default(),
                        config,
                    )),
                    s.to_prompt(),
                ),
            );
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out: Vec<std::sync::Mutex<Option<SessionTrace>>> =
        order.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..workers.clamp(1, order.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(sid) = order.get(i) else { break };
                let turns = &by[sid];
                let trace = match servers.get(&turns[0].graph) {
                    Some((tools, schema)) => run_session(llm, turns, tools, schema, opts),
                    None => SessionTrace {
                        session_id: sid.clone(),
                        protocol: opts.protocol,
                        budget: 0,
                        used: 0,
                        exhausted: false,
                        turns: Vec::new(),
                        input_tokens: 0,
                        output_tokens: 0,
                        cost_usd: Some(0.0),
                        error: Some(format!("graph {:?} is not loaded", turns[0].graph)),
                    },
                };
                *out[i].lock().unwrap_or_else(|x| x.into_inner()) = Some(trace);
            });
        }
    });
    let traces: Vec<SessionTrace> = out
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|x| x.into_inner()))
        .collect();
    let mut predictions = HashMap::new();
    for t in &traces {
        for turn in &t.turns {
            if let Some(q) = &turn.submitted {
                predictions.insert(
                    turn.id.clone(),
                    Prediction {
                        id: turn.id.clone(),
                        candidates: vec![q.clone()],
                    },
                );
            }
        }
    }
    (predictions, traces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_parsed_robustly() {
        assert_eq!(
            parse_action("{\"action\": \"INSPECT_SCHEMA\"}").unwrap()["action"],
            "INSPECT_SCHEMA"
        );
        assert_eq!(
            parse_action("Let me look.\n```json\n{\"action\": \"EXECUTE_CYPHER\", \"query\": \"RETURN 1\"}\n```")
                .unwrap()["query"],
            "RETURN 1"
        );
        assert!(parse_action("no action here").is_none());
        assert_eq!("agentic".parse::<Protocol>(), Ok(Protocol::Agentic));
        assert!("other".parse::<Protocol>().is_err());
    }
}
