//! The LLM client: OpenAI-compatible Chat Completions (OpenAI, vLLM, llama.cpp's server,
//! Ollama's `/v1`, any `--base-url`) and Anthropic's Messages API; retries with exponential
//! backoff and jitter on 429/5xx/timeouts honouring `Retry-After`; bounded concurrency; token
//! and cost accounting; a content-addressed response cache.

use super::cache::Cache;
use super::price::Prices;
use crate::rng::SplitMix64;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Which API a model speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// OpenAI's Chat Completions, and every server that imitates it.
    OpenAi,
    /// Anthropic's Messages API.
    Anthropic,
}

/// `provider:model`, GRAPE's convention: `openai:gpt-4o-mini`, `anthropic:claude-sonnet-4-5`,
/// `vllm:Qwen/Qwen2.5-7B-Instruct` (OpenAI-compatible at `http://127.0.0.1:8000/v1`),
/// `ollama:llama3.1` (`http://127.0.0.1:11434/v1`). A bare name means `openai:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelSpec {
    pub provider: Provider,
    /// The prefix as written (`openai`, `vllm`, `ollama`, `anthropic`).
    pub vendor: String,
    /// The model name the API gets.
    pub model: String,
}

impl FromStr for ModelSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<ModelSpec, String> {
        let (vendor, model) = match s.split_once(':') {
            Some((v, m)) => (v.to_ascii_lowercase(), m.to_string()),
            None => ("openai".to_string(), s.to_string()),
        };
        if model.trim().is_empty() {
            return Err(format!("{s}: no model name after the provider"));
        }
        let provider = match vendor.as_str() {
            "openai" | "vllm" | "ollama" | "llamacpp" | "local" => Provider::OpenAi,
            "anthropic" => Provider::Anthropic,
            other => {
                return Err(format!(
                    "{s}: unknown provider `{other}` (openai, anthropic, vllm, ollama, llamacpp, local)"
                ))
            }
        };
        Ok(ModelSpec {
            provider,
            vendor,
            model,
        })
    }
}

impl std::fmt::Display for ModelSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.vendor, self.model)
    }
}

impl ModelSpec {
    /// The base URL when none is configured.
    pub fn default_base_url(&self) -> &'static str {
        match self.vendor.as_str() {
            "anthropic" => "https://api.anthropic.com",
            "vllm" => "http://127.0.0.1:8000/v1",
            "ollama" => "http://127.0.0.1:11434/v1",
            "llamacpp" | "local" => "http://127.0.0.1:8080/v1",
            _ => "https://api.openai.com/v1",
        }
    }

    /// Whether the model runs on the user's own hardware (no price).
    pub fn is_local(&self) -> bool {
        matches!(
            self.vendor.as_str(),
            "vllm" | "ollama" | "llamacpp" | "local"
        )
    }
}

/// Client settings.
#[derive(Clone, Debug)]
pub struct LlmConfig {
    /// Overrides the provider's URL (also `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`).
    pub base_url: Option<String>,
    /// Overrides `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`.
    pub api_key: Option<String>,
    /// Longest one HTTP request may take.
    pub timeout: Duration,
    /// Retries after the first attempt (429, 5xx, timeouts, broken or malformed replies).
    pub max_retries: u32,
    /// First backoff; doubles per retry, with up to 50% jitter added.
    pub backoff: Duration,
    /// Longest backoff, and the most a `Retry-After` is honoured.
    pub max_backoff: Duration,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Where responses are cached (`None`: no cache).
    pub cache_dir: Option<PathBuf>,
    pub prices: Prices,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            base_url: None,
            api_key: None,
            timeout: Duration::from_secs(120),
            max_retries: 8,
            backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(60),
            concurrency: 10,
            cache_dir: None,
            prices: Prices::default(),
        }
    }
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn system(c: impl Into<String>) -> Message {
        Message {
            role: "system".into(),
            content: c.into(),
        }
    }
    pub fn user(c: impl Into<String>) -> Message {
        Message {
            role: "user".into(),
            content: c.into(),
        }
    }
    pub fn assistant(c: impl Into<String>) -> Message {
        Message {
            role: "assistant".into(),
            content: c.into(),
        }
    }
}

/// A request. `sample` tells apart requests that are otherwise identical (the k samples of a
/// question for Pass@k): it is part of the cache key and, as `seed`, of the request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChatRequest {
    pub messages: Vec<Message>,
    pub temperature: f64,
    pub max_tokens: u32,
    pub sample: u32,
}

impl ChatRequest {
    pub fn new(messages: Vec<Message>) -> ChatRequest {
        ChatRequest {
            messages,
            temperature: 0.0,
            max_tokens: 1024,
            sample: 0,
        }
    }
}

/// Token counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// A reply.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChatReply {
    pub text: String,
    pub usage: Usage,
    /// Served from the cache (no request, no cost).
    pub cached: bool,
    /// What the reply cost when it was generated, USD (`None` when the model has no price).
    /// A reply from the cache costs nothing now: [`Accounting`] counts only what was spent,
    /// while records built from replies stay the same whether or not the cache answered.
    pub cost_usd: Option<f64>,
}

/// A tool call the model asks for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The arguments, parsed (`{}` when the model sent none or broken JSON).
    pub arguments: Json,
}

/// One assistant turn of a tool-using conversation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolTurn {
    /// The text (the final answer when there are no tool calls).
    pub content: String,
    pub tool_calls: Vec<ToolCall>,
    /// The assistant message as received, to append to the conversation.
    pub message: Json,
    pub usage: Usage,
    pub cached: bool,
    pub cost_usd: Option<f64>,
}

/// Running totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Accounting {
    /// Calls answered (from the network or the cache).
    pub calls: u64,
    /// HTTP requests sent (attempts, including retried ones).
    pub requests: u64,
    pub retries: u64,
    pub cache_hits: u64,
    pub failures: u64,
    /// Tokens of the calls that went to the provider.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Tokens the cache saved.
    pub cached_input_tokens: u64,
    pub cached_output_tokens: u64,
    /// USD spent; `None` when the model has no price.
    pub cost_usd: Option<f64>,
}

/// A failed call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// Not worth retrying: a bad key, a bad request, an unknown model.
    #[error("{provider} refused the request (HTTP {status}): {message}")]
    Refused {
        provider: String,
        status: u16,
        message: String,
    },
    /// Still failing after every retry.
    #[error("gave up after {attempts} attempts: {last}")]
    Exhausted { attempts: u32, last: String },
    #[error("{0}")]
    Setup(String),
}

/// An LLM client for one model.
pub struct Llm {
    model: ModelSpec,
    config: LlmConfig,
    url: String,
    key: Option<String>,
    http: reqwest::Client,
    runtime: tokio::runtime::Runtime,
    permits: Arc<tokio::sync::Semaphore>,
    cache: Option<Cache>,
    totals: Mutex<Accounting>,
    jitter: Mutex<SplitMix64>,
}

/// Reads a 2xx reply body: `(text, usage)`.
type ParseReply = fn(Provider, &str) -> Result<(String, Usage), String>;

enum Attempt {
    Done(String, Usage),
    Retry(String, Option<Duration>),
    Fatal(LlmError),
}

impl Llm {
    pub fn new(model: ModelSpec, config: LlmConfig) -> Result<Llm, LlmError> {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let (url_var, key_var) = match model.provider {
            Provider::OpenAi => ("OPENAI_BASE_URL", "OPENAI_API_KEY"),
            Provider::Anthropic => ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"),
        };
        let base = config
            .base_url
            .clone()
            .or_else(|| env(url_var))
            .unwrap_or_else(|| model.default_base_url().to_string());
        let base = base.trim_end_matches('/').to_string();
        let url = match model.provider {
            Provider::OpenAi => format!("{base}/chat/completions"),
            Provider::Anthropic if base.ends_with("/v1") => format!("{base}/messages"),
            Provider::Anthropic => format!("{base}/v1/messages"),
        };
        let key = config.api_key.clone().or_else(|| env(key_var));
        if key.is_none() && !model.is_local() && !is_loopback(&base) {
            return Err(LlmError::Setup(format!(
                "{model}: no API key (set {key_var} or pass --api-key)"
            )));
        }
        // reqwest is built without a default crypto provider: ring, installed once per process.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|e| LlmError::Setup(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| LlmError::Setup(e.to_string()))?;
        let cache = match &config.cache_dir {
            Some(d) => Some(Cache::open(d).map_err(LlmError::Setup)?),
            None => None,
        };
        let permits = Arc::new(tokio::sync::Semaphore::new(config.concurrency.max(1)));
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
        let cost_usd = if config.prices.price_of(&model).is_some() {
            Some(0.0)
        } else {
            None
        };
        Ok(Llm {
            model,
            config,
            url,
            key,
            http,
            runtime,
            permits,
            cache,
            totals: Mutex::new(Accounting {
                cost_usd,
                ..Default::default()
            }),
            jitter: Mutex::new(SplitMix64(seed)),
        })
    }

    pub fn model(&self) -> &ModelSpec {
        &self.model
    }

    /// The totals so far.
    pub fn accounting(&self) -> Accounting {
        self.totals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The cache key material of a request: provider, model, messages and parameters.
    fn key_material(&self, req: &ChatRequest) -> Json {
        json!({
            "provider": self.model.provider,
            "model": self.model.model,
            "messages": req.messages,
            "temperature": req.temperature,
            "max_tokens": req.max_tokens,
            "sample": req.sample,
        })
    }

    /// One call, blocking; safe to call from many threads at once (at most `concurrency`
    /// requests are in flight).
    pub fn chat(&self, req: &ChatRequest) -> Result<ChatReply, LlmError> {
        let material = self.key_material(req);
        let (text, usage, cached) =
            self.cached_call(&material, &self.url, &self.body(req), parse_reply)?;
        Ok(ChatReply {
            text,
            usage,
            cached,
            cost_usd: self.config.prices.cost(&self.model, usage),
        })
    }

    /// One turn of a tool-using conversation: `messages` are Chat Completions messages as JSON
    /// (including assistant turns with `tool_calls` and `tool` results), `tools` the function
    /// definitions (`{"type": "function", "function": {name, description, parameters}}`). The
    /// reply is the assistant message: its text and the tool calls it asks for, in the same
    /// format whatever the provider (Anthropic's `tool_use` / `tool_result` blocks are
    /// translated both ways). Cached and retried like [`Llm::chat`].
    pub fn chat_tools(
        &self,
        messages: &[Json],
        tools: &[Json],
        max_tokens: u32,
    ) -> Result<ToolTurn, LlmError> {
        let material = json!({
            "provider": self.model.provider,
            "model": self.model.model,
            "messages": messages,
            "tools": tools,
            "max_tokens": max_tokens,
        });
        let (body, parse): (Json, ParseReply) = match self.model.provider {
            Provider::OpenAi => (
                json!({
                    "model": self.model.model,
                    "messages": messages,
                    "tools": tools,
                    "temperature": 0.0,
                    "max_tokens": max_tokens,
                }),
                parse_tool_turn,
            ),
            Provider::Anthropic => {
                let (system, msgs) = anthropic_messages(messages);
                let mut b = json!({
                    "model": self.model.model,
                    "messages": msgs,
                    "tools": anthropic_tools(tools),
                    "temperature": 0.0,
                    "max_tokens": max_tokens,
                });
                if !system.is_empty() {
                    b["system"] = Json::String(system);
                }
                (b, parse_anthropic_tool_turn)
            }
        };
        let (text, usage, cached) = self.cached_call(&material, &self.url, &body, parse)?;
        let message: Json = serde_json::from_str(&text)
            .map_err(|e| LlmError::Setup(format!("cached tool turn: {e}")))?;
        let calls = message
            .get("tool_calls")
            .and_then(Json::as_array)
            .map(|a| {
                a.iter()
                    .map(|c| ToolCall {
                        id: c.get("id").and_then(Json::as_str).unwrap_or("").to_string(),
                        name: c
                            .pointer("/function/name")
                            .and_then(Json::as_str)
                            .unwrap_or("")
                            .to_string(),
                        arguments: c
                            .pointer("/function/arguments")
                            .and_then(Json::as_str)
                            .and_then(|a| serde_json::from_str(a).ok())
                            .or_else(|| {
                                c.pointer("/function/arguments")
                                    .filter(|a| a.is_object())
                                    .cloned()
                            })
                            .unwrap_or_else(|| json!({})),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(ToolTurn {
            content: message
                .get("content")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string(),
            tool_calls: calls,
            message,
            usage,
            cached,
            cost_usd: self.config.prices.cost(&self.model, usage),
        })
    }

    /// Embeddings of `texts` from an OpenAI-compatible `/embeddings` endpoint (the model is
    /// this client's), in batches of 128, each text cached on its own.
    pub fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, LlmError> {
        if self.model.provider != Provider::OpenAi {
            return Err(LlmError::Setup(format!(
                "{}: embeddings need an OpenAI-compatible endpoint",
                self.model
            )));
        }
        let url = self.url.replace("/chat/completions", "/embeddings");
        let mut out = Vec::with_capacity(texts.len());
        for batch in texts.chunks(128) {
            // Texts already cached cost nothing; the rest go in one request.
            let materials: Vec<Json> = batch
                .iter()
                .map(|t| json!({"provider": self.model.provider, "model": self.model.model, "embed": t}))
                .collect();
            let mut vecs: Vec<Option<Vec<f32>>> = materials
                .iter()
                .map(|m| {
                    let (text, _) = self.cache.as_ref()?.get(m)?;
                    serde_json::from_str(&text).ok()
                })
                .collect();
            let missing: Vec<usize> = (0..batch.len()).filter(|i| vecs[*i].is_none()).collect();
            let hits = (batch.len() - missing.len()) as u64;
            self.count(|t| {
                t.calls += hits;
                t.cache_hits += hits;
            });
            if !missing.is_empty() {
                let inputs: Vec<&String> = missing.iter().map(|i| &batch[*i]).collect();
                let body = json!({"model": self.model.model, "input": inputs});
                let (text, usage) = self.request(&url, &body, parse_embeddings)?;
                let got: Vec<Vec<f32>> = serde_json::from_str(&text)
                    .map_err(|e| LlmError::Setup(format!("embeddings: {e}")))?;
                if got.len() != missing.len() {
                    return Err(LlmError::Exhausted {
                        attempts: 1,
                        last: format!("asked for {} embeddings, got {}", missing.len(), got.len()),
                    });
                }
                for (i, v) in missing.iter().zip(got) {
                    if let Some(c) = &self.cache {
                        let _ = c.put(
                            &materials[*i],
                            &serde_json::to_string(&v).unwrap_or_default(),
                            Usage::default(),
                        );
                    }
                    vecs[*i] = Some(v);
                }
                let _ = usage;
            }
            out.extend(vecs.into_iter().map(Option::unwrap_or_default));
        }
        Ok(out)
    }

    /// A request answered from the cache when it can be, else sent (and then cached):
    /// `(text, usage, from the cache)`.
    fn cached_call(
        &self,
        material: &Json,
        url: &str,
        body: &Json,
        parse: ParseReply,
    ) -> Result<(String, Usage, bool), LlmError> {
        if let Some(c) = &self.cache {
            if let Some((text, usage)) = c.get(material) {
                self.count(|t| {
                    t.calls += 1;
                    t.cache_hits += 1;
                    t.cached_input_tokens += usage.input_tokens;
                    t.cached_output_tokens += usage.output_tokens;
                });
                return Ok((text, usage, true));
            }
        }
        let (text, usage) = self.request(url, body, parse)?;
        if let Some(c) = &self.cache {
            // A cache that cannot be written costs money later, not correctness.
            let _ = c.put(material, &text, usage);
        }
        Ok((text, usage, false))
    }

    /// Sends a request with retries; counts requests, retries, tokens and cost.
    fn request(
        &self,
        url: &str,
        body: &Json,
        parse: ParseReply,
    ) -> Result<(String, Usage), LlmError> {
        let mut last = String::new();
        let mut attempts = 0;
        for attempt in 0..=self.config.max_retries {
            attempts = attempt + 1;
            self.count(|t| {
                t.requests += 1;
                if attempt > 0 {
                    t.retries += 1;
                }
            });
            match self.runtime.block_on(self.attempt(url, body, parse)) {
                Attempt::Done(text, usage) => {
                    let cost = self.config.prices.cost(&self.model, usage);
                    self.count(|t| {
                        t.calls += 1;
                        t.input_tokens += usage.input_tokens;
                        t.output_tokens += usage.output_tokens;
                        if let (Some(total), Some(c)) = (t.cost_usd.as_mut(), cost) {
                            *total += c;
                        }
                    });
                    return Ok((text, usage));
                }
                Attempt::Fatal(e) => {
                    self.count(|t| t.failures += 1);
                    return Err(e);
                }
                Attempt::Retry(why, after) => {
                    last = why;
                    if attempt == self.config.max_retries {
                        break;
                    }
                    std::thread::sleep(self.delay(attempt, after));
                }
            }
        }
        self.count(|t| t.failures += 1);
        Err(LlmError::Exhausted { attempts, last })
    }

    fn count(&self, f: impl FnOnce(&mut Accounting)) {
        f(&mut self.totals.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Backoff before retry `attempt + 1`: `Retry-After` when the server sent one (capped),
    /// else base × 2^attempt (capped), plus up to 50% jitter.
    fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let cap = self.config.max_backoff;
        if let Some(d) = retry_after {
            return d.min(cap);
        }
        let base = self
            .config
            .backoff
            .saturating_mul(1u32 << attempt.min(20))
            .min(cap);
        let jitter = {
            let mut r = self.jitter.lock().unwrap_or_else(|e| e.into_inner());
            (r.next() % 1000) as u32
        };
        base + base * jitter / 2000
    }

    fn body(&self, req: &ChatRequest) -> Json {
        match self.model.provider {
            Provider::OpenAi => json!({
                "model": self.model.model,
                "messages": req.messages,
                "temperature": req.temperature,
                "max_tokens": req.max_tokens,
                "seed": req.sample,
            }),
            Provider::Anthropic => {
                let system: Vec<&str> = req
                    .messages
                    .iter()
                    .filter(|m| m.role == "system")
                    .map(|m| m.content.as_str())
                    .collect();
                let messages: Vec<&Message> =
                    req.messages.iter().filter(|m| m.role != "system").collect();
                let mut b = json!({
                    "model": self.model.model,
                    "messages": messages,
                    "temperature": req.temperature,
                    "max_tokens": req.max_tokens,
                });
                if !system.is_empty() {
                    b["system"] = Json::String(system.join("\n\n"));
                }
                b
            }
        }
    }

    async fn attempt(&self, url: &str, body: &Json, parse: ParseReply) -> Attempt {
        let Ok(_permit) = self.permits.acquire().await else {
            return Attempt::Fatal(LlmError::Setup("the client is shutting down".into()));
        };
        let mut rb = self.http.post(url).json(body);
        match (self.model.provider, &self.key) {
            (Provider::OpenAi, Some(k)) => rb = rb.bearer_auth(k),
            (Provider::Anthropic, k) => {
                rb = rb.header("anthropic-version", "2023-06-01");
                if let Some(k) = k {
                    rb = rb.header("x-api-key", k);
                }
            }
            _ => {}
        }
        let resp = match rb.send().await {
            Ok(r) => r,
            Err(e) if e.is_timeout() => return Attempt::Retry(format!("timed out: {e}"), None),
            Err(e) => return Attempt::Retry(format!("request failed: {e}"), None),
        };
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let text = match resp.text().await {
            Ok(t) => t,
            Err(e) => return Attempt::Retry(format!("reading the reply failed: {e}"), None),
        };
        if status == 429 || status >= 500 {
            return Attempt::Retry(format!("HTTP {status}: {}", snippet(&text)), retry_after);
        }
        if !(200..300).contains(&status) {
            let message = serde_json::from_str::<Json>(&text)
                .ok()
                .and_then(|j| {
                    j.pointer("/error/message")
                        .and_then(Json::as_str)
                        .map(str::to_string)
                })
                .unwrap_or_else(|| snippet(&text));
            return Attempt::Fatal(LlmError::Refused {
                provider: self.model.vendor.clone(),
                status,
                message,
            });
        }
        match parse(self.model.provider, &text) {
            Ok((t, u)) => Attempt::Done(t, u),
            Err(e) => Attempt::Retry(format!("malformed reply: {e}: {}", snippet(&text)), None),
        }
    }
}

fn is_loopback(base: &str) -> bool {
    let rest = base.split_once("://").map(|x| x.1).unwrap_or(base);
    let host = rest.split(['/', ':']).next().unwrap_or("");
    matches!(host, "127.0.0.1" | "localhost" | "[" | "0.0.0.0") || rest.starts_with("[::1]")
}

fn snippet(s: &str) -> String {
    let t: String = s.chars().take(300).collect();
    if t.len() < s.len() {
        format!("{t}…")
    } else {
        t
    }
}

/// `Retry-After`: seconds (integer or decimal) or an HTTP date.
pub(crate) fn parse_retry_after(v: &str) -> Option<Duration> {
    let v = v.trim();
    if let Ok(s) = v.parse::<f64>() {
        return (s.is_finite() && s >= 0.0).then(|| Duration::from_secs_f64(s.min(86_400.0)));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let now = chrono::Utc::now();
    let d = when
        .signed_duration_since(now)
        .to_std()
        .unwrap_or(Duration::ZERO);
    Some(d)
}

/// The assistant message of a tool-calling reply, as JSON text.
fn parse_tool_turn(_: Provider, body: &str) -> Result<(String, Usage), String> {
    let j: Json = serde_json::from_str(body).map_err(|e| format!("not JSON ({e})"))?;
    let m = j
        .pointer("/choices/0/message")
        .filter(|m| m.is_object())
        .ok_or("no choices[0].message")?;
    let n = |p: &str| j.pointer(p).and_then(Json::as_u64).unwrap_or(0);
    Ok((
        m.to_string(),
        Usage {
            input_tokens: n("/usage/prompt_tokens"),
            output_tokens: n("/usage/completion_tokens"),
        },
    ))
}

/// Chat Completions messages → Anthropic's system text and messages: assistant tool calls
/// become `tool_use` blocks, consecutive `tool` results one user turn of `tool_result` blocks.
fn anthropic_messages(messages: &[Json]) -> (String, Vec<Json>) {
    let mut system = Vec::new();
    let mut out: Vec<Json> = Vec::new();
    for m in messages {
        let text = m.get("content").and_then(Json::as_str).unwrap_or("");
        match m.get("role").and_then(Json::as_str).unwrap_or("user") {
            "system" => system.push(text.to_string()),
            "assistant" => {
                let mut blocks = Vec::new();
                if !text.is_empty() {
                    blocks.push(json!({"type": "text", "text": text}));
                }
                for c in m
                    .get("tool_calls")
                    .and_then(Json::as_array)
                    .into_iter()
                    .flatten()
                {
                    let input = c
                        .pointer("/function/arguments")
                        .and_then(Json::as_str)
                        .and_then(|a| serde_json::from_str::<Json>(a).ok())
                        .unwrap_or_else(|| json!({}));
                    blocks.push(json!({
                        "type": "tool_use",
                        "id": c.get("id").cloned().unwrap_or(Json::Null),
                        "name": c.pointer("/function/name").cloned().unwrap_or(Json::Null),
                        "input": input,
                    }));
                }
                out.push(json!({"role": "assistant", "content": blocks}));
            }
            "tool" => {
                let block = json!({
                    "type": "tool_result",
                    "tool_use_id": m.get("tool_call_id").cloned().unwrap_or(Json::Null),
                    "content": text,
                });
                let merge = out.last().is_some_and(|l| {
                    l["role"] == "user"
                        && l["content"]
                            .as_array()
                            .is_some_and(|b| b.iter().all(|x| x["type"] == "tool_result"))
                });
                match out.last_mut() {
                    Some(last) if merge => {
                        if let Some(b) = last["content"].as_array_mut() {
                            b.push(block);
                        }
                    }
                    _ => out.push(json!({"role": "user", "content": [block]})),
                }
            }
            _ => out.push(json!({"role": "user", "content": text})),
        }
    }
    (system.join("\n\n"), out)
}

/// OpenAI function definitions → Anthropic tools.
fn anthropic_tools(tools: &[Json]) -> Vec<Json> {
    tools
        .iter()
        .map(|t| {
            let f = t.get("function").unwrap_or(t);
            json!({
                "name": f.get("name").cloned().unwrap_or(Json::Null),
                "description": f.get("description").cloned().unwrap_or(Json::Null),
                "input_schema": f.get("parameters").cloned().unwrap_or_else(|| json!({"type": "object"})),
            })
        })
        .collect()
}

/// An Anthropic reply with `tool_use` blocks, as a Chat Completions assistant message (JSON
/// text), so that the conversation stays in one format.
fn parse_anthropic_tool_turn(_: Provider, body: &str) -> Result<(String, Usage), String> {
    let j: Json = serde_json::from_str(body).map_err(|e| format!("not JSON ({e})"))?;
    let blocks = j
        .get("content")
        .and_then(Json::as_array)
        .ok_or("no content array")?;
    let text: String = blocks
        .iter()
        .filter(|b| b["type"] == "text")
        .filter_map(|b| b["text"].as_str())
        .collect();
    let calls: Vec<Json> = blocks
        .iter()
        .filter(|b| b["type"] == "tool_use")
        .map(|b| {
            json!({
                "id": b["id"],
                "type": "function",
                "function": {"name": b["name"], "arguments": b["input"].to_string()},
            })
        })
        .collect();
    let mut m = json!({"role": "assistant", "content": text});
    if !calls.is_empty() {
        m["tool_calls"] = Json::Array(calls);
    }
    let n = |p: &str| j.pointer(p).and_then(Json::as_u64).unwrap_or(0);
    Ok((
        m.to_string(),
        Usage {
            input_tokens: n("/usage/input_tokens"),
            output_tokens: n("/usage/output_tokens"),
        },
    ))
}

/// The vectors of an embeddings reply, as JSON text, in input order.
fn parse_embeddings(_: Provider, body: &str) -> Result<(String, Usage), String> {
    let j: Json = serde_json::from_str(body).map_err(|e| format!("not JSON ({e})"))?;
    let data = j
        .get("data")
        .and_then(Json::as_array)
        .ok_or("no data array")?;
    let mut rows: Vec<(u64, Vec<f32>)> = Vec::with_capacity(data.len());
    for (i, d) in data.iter().enumerate() {
        let v: Vec<f32> = serde_json::from_value(d.get("embedding").cloned().unwrap_or(Json::Null))
            .map_err(|_| format!("data[{i}].embedding is not a list of numbers"))?;
        rows.push((d.get("index").and_then(Json::as_u64).unwrap_or(i as u64), v));
    }
    rows.sort_by_key(|r| r.0);
    let vecs: Vec<Vec<f32>> = rows.into_iter().map(|r| r.1).collect();
    let usage = Usage {
        input_tokens: j
            .pointer("/usage/prompt_tokens")
            .and_then(Json::as_u64)
            .unwrap_or(0),
        output_tokens: 0,
    };
    Ok((serde_json::to_string(&vecs).unwrap_or_default(), usage))
}

/// The text and usage of a 2xx reply.
fn parse_reply(provider: Provider, body: &str) -> Result<(String, Usage), String> {
    let j: Json = serde_json::from_str(body).map_err(|e| format!("not JSON ({e})"))?;
    let n = |p: &str| j.pointer(p).and_then(Json::as_u64).unwrap_or(0);
    match provider {
        Provider::OpenAi => {
            let text = j
                .pointer("/choices/0/message/content")
                .and_then(Json::as_str)
                .ok_or("no choices[0].message.content")?;
            Ok((
                text.to_string(),
                Usage {
                    input_tokens: n("/usage/prompt_tokens"),
                    output_tokens: n("/usage/completion_tokens"),
                },
            ))
        }
        Provider::Anthropic => {
            let parts = j
                .get("content")
                .and_then(Json::as_array)
                .ok_or("no content array")?;
            let text: String = parts
                .iter()
                .filter(|p| p.get("type").and_then(Json::as_str) == Some("text"))
                .filter_map(|p| p.get("text").and_then(Json::as_str))
                .collect();
            Ok((
                text,
                Usage {
                    input_tokens: n("/usage/input_tokens"),
                    output_tokens: n("/usage/output_tokens"),
                },
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_specs() {
        let m: ModelSpec = "anthropic:claude-sonnet-4-5".parse().unwrap();
        assert_eq!(m.provider, Provider::Anthropic);
        assert_eq!(m.model, "claude-sonnet-4-5");
        let m: ModelSpec = "gpt-4o-mini".parse().unwrap();
        assert_eq!(
            (m.provider, m.vendor.as_str()),
            (Provider::OpenAi, "openai")
        );
        let m: ModelSpec = "ollama:llama3.1:8b".parse().unwrap();
        assert_eq!(m.model, "llama3.1:8b");
        assert!(m.is_local());
        assert_eq!(m.default_base_url(), "http://127.0.0.1:11434/v1");
        assert!("nope:x".parse::<ModelSpec>().is_err());
        assert!("openai:".parse::<ModelSpec>().is_err());
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.25"), Some(Duration::from_millis(250)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }

    #[test]
    fn replies_of_both_apis() {
        let (t, u) = parse_reply(
            Provider::OpenAi,
            r#"{"choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":3,"completion_tokens":1}}"#,
        )
        .unwrap();
        assert_eq!((t.as_str(), u.input_tokens, u.output_tokens), ("hi", 3, 1));
        let (t, u) = parse_reply(
            Provider::Anthropic,
            r#"{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"usage":{"input_tokens":5,"output_tokens":2}}"#,
        )
        .unwrap();
        assert_eq!((t.as_str(), u.input_tokens), ("ab", 5));
        assert!(parse_reply(Provider::OpenAi, "{").is_err());
        assert!(parse_reply(Provider::OpenAi, r#"{"choices":[]}"#).is_err());
    }
}
