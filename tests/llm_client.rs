//! The LLM client against a loopback mock: scripted replies, 429 with Retry-After, 5xx,
//! timeouts, malformed JSON, refusals, exhausted retries, the cache (a hit makes no request),
//! cost accounting, bounded concurrency and the Anthropic API.
#![cfg(feature = "llm")]

mod llm_support;

use grape::llm::{ChatRequest, Llm, LlmConfig, LlmError, Message, ModelSpec, Prices};
use llm_support::{Mock, Reply};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn config(mock: &Mock) -> LlmConfig {
    LlmConfig {
        base_url: Some(mock.base_url()),
        api_key: Some("test-key".into()),
        timeout: Duration::from_secs(10),
        backoff: Duration::from_millis(1),
        max_backoff: Duration::from_secs(5),
        ..LlmConfig::default()
    }
}

fn model(s: &str) -> ModelSpec {
    s.parse().unwrap()
}

fn ask(text: &str) -> ChatRequest {
    ChatRequest::new(vec![Message::system("sys"), Message::user(text)])
}

#[test]
fn scripted_replies_and_request_shape() {
    let mock =
        Mock::start(|_, seen| Reply::chat(&format!("echo {}", llm_support::last_user(&seen.body))));
    let llm = Llm::new(model("openai:gpt-4o-mini"), config(&mock)).unwrap();
    let r = llm.chat(&ask("hello")).unwrap();
    assert_eq!(r.text, "echo hello");
    assert_eq!((r.usage.input_tokens, r.usage.output_tokens), (10, 5));
    assert!(!r.cached);
    let seen = mock.seen.lock().unwrap()[0].clone();
    assert_eq!(seen.path, "/v1/chat/completions");
    assert!(seen
        .headers
        .iter()
        .any(|(k, v)| k == "authorization" && v == "Bearer test-key"));
    assert_eq!(seen.body["model"], "gpt-4o-mini");
    assert_eq!(seen.body["messages"][0]["role"], "system");
    assert_eq!(seen.body["temperature"], 0.0);
}

#[test]
fn retries_429_with_retry_after_5xx_timeouts_and_malformed_replies() {
    // 429 (Retry-After: 1) → 503 → malformed JSON → a reply too slow for the timeout → ok.
    let mock = Mock::start(|n, _| match n {
        1 => Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("Retry-After", "1"),
        2 => Reply::status(503, "overloaded"),
        3 => Reply::status(200, "{not json"),
        4 => Reply::chat("late").after(Duration::from_millis(1500)),
        _ => Reply::chat("finally"),
    });
    let mut c = config(&mock);
    c.timeout = Duration::from_millis(700);
    let llm = Llm::new(model("openai:gpt-4o-mini"), c).unwrap();
    let t0 = Instant::now();
    let r = llm.chat(&ask("q")).unwrap();
    assert_eq!(r.text, "finally");
    // The Retry-After second was waited (the backoff alone is 1 ms).
    assert!(
        t0.elapsed() >= Duration::from_millis(950),
        "{:?}",
        t0.elapsed()
    );
    let a = llm.accounting();
    assert_eq!((a.calls, a.requests, a.retries, a.failures), (1, 5, 4, 0));
    // Only the answered call's tokens count.
    assert_eq!((a.input_tokens, a.output_tokens), (10, 5));
}

#[test]
fn refusals_stop_at_once_and_persistent_failures_exhaust() {
    let mock = Mock::start(|_, _| Reply::status(401, r#"{"error":{"message":"bad key"}}"#));
    let llm = Llm::new(model("openai:gpt-4o"), config(&mock)).unwrap();
    match llm.chat(&ask("q")) {
        Err(LlmError::Refused {
            status, message, ..
        }) => {
            assert_eq!(status, 401);
            assert_eq!(message, "bad key");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(mock.requests(), 1);

    let mock = Mock::start(|_, _| Reply::status(500, "boom"));
    let mut c = config(&mock);
    c.max_retries = 2;
    let llm = Llm::new(model("openai:gpt-4o"), c).unwrap();
    match llm.chat(&ask("q")) {
        Err(LlmError::Exhausted { attempts, last }) => {
            assert_eq!(attempts, 3);
            assert!(last.contains("HTTP 500"), "{last}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(mock.requests(), 3);
    assert_eq!(llm.accounting().failures, 1);

    // No key for a remote provider: refused before any request.
    let c = LlmConfig {
        base_url: Some("https://api.example.com/v1".into()),
        ..LlmConfig::default()
    };
    if std::env::var("OPENAI_API_KEY").is_err() {
        assert!(matches!(
            Llm::new(model("openai:gpt-4o"), c),
            Err(LlmError::Setup(_))
        ));
    }
}

#[test]
fn cache_hits_make_no_request_and_cost_adds_up() {
    let dir = std::env::temp_dir().join(format!("grape-llm-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mock = Mock::start(|n, _| Reply::chat(&format!("reply {n}")));
    let mut c = config(&mock);
    c.cache_dir = Some(dir.clone());
    let llm = Llm::new(model("openai:gpt-4o-mini"), c.clone()).unwrap();
    let first = llm.chat(&ask("q")).unwrap();
    let again = llm.chat(&ask("q")).unwrap();
    assert_eq!(mock.requests(), 1);
    assert_eq!(again.text, first.text);
    assert!(again.cached);
    // The reply carries what it cost when generated; the accounting counts only what was spent.
    assert_eq!(again.cost_usd, first.cost_usd);
    // Another sample of the same prompt is another request.
    let mut other = ask("q");
    other.sample = 1;
    let s1 = llm.chat(&other).unwrap();
    assert_eq!(mock.requests(), 2);
    assert_ne!(s1.text, first.text);
    let a = llm.accounting();
    assert_eq!((a.calls, a.cache_hits, a.requests), (3, 1, 2));
    assert_eq!((a.cached_input_tokens, a.cached_output_tokens), (10, 5));
    // gpt-4o-mini: $0.15 / $0.60 per million tokens; two paid calls of 10 + 5 tokens.
    let expected = 2.0 * (10.0 * 0.15 + 5.0 * 0.60) / 1e6;
    assert!((a.cost_usd.unwrap() - expected).abs() < 1e-15);
    assert!((first.cost_usd.unwrap() + s1.cost_usd.unwrap() - expected).abs() < 1e-15);
    // A new client on the same cache: no request at all.
    let llm2 = Llm::new(model("openai:gpt-4o-mini"), c).unwrap();
    assert_eq!(llm2.chat(&ask("q")).unwrap().text, first.text);
    assert_eq!(mock.requests(), 2);
    // A model without a price has an unknown cost, not zero.
    let mut c = config(&mock);
    c.prices = Prices::default();
    let unknown = Llm::new(model("openai:mystery-model"), c).unwrap();
    assert_eq!(unknown.chat(&ask("x")).unwrap().cost_usd, None);
    assert_eq!(unknown.accounting().cost_usd, None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn concurrency_is_bounded() {
    let in_flight = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let (f, p) = (in_flight.clone(), peak.clone());
    let mock = Mock::start(move |_, _| {
        let now = f.fetch_add(1, Ordering::SeqCst) + 1;
        p.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(30));
        f.fetch_sub(1, Ordering::SeqCst);
        Reply::chat("ok")
    });
    let mut c = config(&mock);
    c.concurrency = 3;
    let llm = Llm::new(model("openai:gpt-4o"), c).unwrap();
    std::thread::scope(|s| {
        for i in 0..12 {
            let llm = &llm;
            s.spawn(move || llm.chat(&ask(&format!("q{i}"))).unwrap());
        }
    });
    assert_eq!(mock.requests(), 12);
    assert!(
        peak.load(Ordering::SeqCst) <= 3,
        "{}",
        peak.load(Ordering::SeqCst)
    );
    assert!(peak.load(Ordering::SeqCst) >= 2);
}

#[test]
fn anthropic_messages_api() {
    let mock = Mock::start(|_, _| Reply::anthropic("bonjour"));
    let mut c = config(&mock);
    c.base_url = Some(format!("http://{}", mock.addr));
    let llm = Llm::new(model("anthropic:claude-sonnet-4-5"), c).unwrap();
    let r = llm.chat(&ask("hi")).unwrap();
    assert_eq!(r.text, "bonjour");
    assert_eq!((r.usage.input_tokens, r.usage.output_tokens), (7, 3));
    let seen = mock.seen.lock().unwrap()[0].clone();
    assert_eq!(seen.path, "/v1/messages");
    assert!(seen
        .headers
        .iter()
        .any(|(k, v)| k == "x-api-key" && v == "test-key"));
    assert!(seen.headers.iter().any(|(k, _)| k == "anthropic-version"));
    assert_eq!(seen.body["system"], "sys");
    assert_eq!(seen.body["messages"].as_array().unwrap().len(), 1);
    // claude-sonnet-4: $3 / $15 per million.
    assert!((r.cost_usd.unwrap() - (7.0 * 3.0 + 3.0 * 15.0) / 1e6).abs() < 1e-15);
}

#[test]
fn embeddings_in_order_batched_and_cached() {
    let dir = std::env::temp_dir().join(format!("grape-llm-embed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mock = Mock::start(|_, seen| llm_support::embeddings_reply(&seen.body));
    let mut c = config(&mock);
    c.cache_dir = Some(dir.clone());
    let llm = Llm::new(model("openai:text-embedding-3-small"), c).unwrap();
    let texts: Vec<String> = (0..300).map(|i| format!("question number {i}")).collect();
    let v = llm.embed(&texts).unwrap();
    assert_eq!(v.len(), 300);
    assert_eq!(v[7], llm_support::toy_embedding("question number 7"));
    // 300 texts in batches of 128.
    assert_eq!(mock.requests(), 3);
    assert_eq!(mock.seen.lock().unwrap()[0].path, "/v1/embeddings");
    // Cached: only the new text is sent.
    let mut more = texts[..5].to_vec();
    more.push("a new one".into());
    let w = llm.embed(&more).unwrap();
    assert_eq!(w[..5], v[..5]);
    assert_eq!(mock.requests(), 4);
    assert_eq!(
        mock.seen.lock().unwrap()[3].body["input"],
        serde_json::json!(["a new one"])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tool_calling_on_both_apis() {
    let tools = vec![json!({"type": "function", "function": {
        "name": "read_neo4j_cypher", "description": "Run a read query.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}})];
    // OpenAI: the tool call comes back parsed.
    let mock = Mock::start(|_, _| {
        Reply::json(
            json!({"choices": [{"message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read_neo4j_cypher",
                "arguments": "{\"query\": \"RETURN 1\"}"}}]}}],
            "usage": {"prompt_tokens": 9, "completion_tokens": 4}}),
        )
    });
    let llm = Llm::new(model("openai:gpt-4o-mini"), config(&mock)).unwrap();
    let msgs = vec![
        json!({"role": "system", "content": "sys"}),
        json!({"role": "user", "content": "q"}),
    ];
    let t = llm.chat_tools(&msgs, &tools, 100).unwrap();
    assert_eq!(t.tool_calls[0].name, "read_neo4j_cypher");
    assert_eq!(t.tool_calls[0].arguments, json!({"query": "RETURN 1"}));
    assert_eq!(mock.seen.lock().unwrap()[0].body["tools"], json!(tools));

    // Anthropic: the same conversation, translated both ways.
    let mock = Mock::start(|n, _| {
        if n == 1 {
            Reply::json(json!({"content": [
                {"type": "text", "text": "Let me look."},
                {"type": "tool_use", "id": "tu1", "name": "read_neo4j_cypher", "input": {"query": "RETURN 1"}}],
                "usage": {"input_tokens": 12, "output_tokens": 6}}))
        } else {
            Reply::anthropic("It is 1.")
        }
    });
    let mut c = config(&mock);
    c.base_url = Some(format!("http://{}", mock.addr));
    let llm = Llm::new(model("anthropic:claude-sonnet-4-5"), c).unwrap();
    let first = llm.chat_tools(&msgs, &tools, 100).unwrap();
    assert_eq!(first.content, "Let me look.");
    assert_eq!(first.tool_calls[0].id, "tu1");
    assert_eq!(first.tool_calls[0].arguments, json!({"query": "RETURN 1"}));
    let mut convo = msgs.clone();
    convo.push(first.message.clone());
    convo.push(json!({"role": "tool", "tool_call_id": "tu1", "content": "[{\"1\":1}]"}));
    let second = llm.chat_tools(&convo, &tools, 100).unwrap();
    assert_eq!(second.content, "It is 1.");
    assert!(second.tool_calls.is_empty());
    let seen = mock.seen.lock().unwrap();
    let req = &seen[1].body;
    assert_eq!(req["system"], "sys");
    assert_eq!(req["tools"][0]["name"], "read_neo4j_cypher");
    assert_eq!(
        req["tools"][0]["input_schema"]["required"],
        json!(["query"])
    );
    let m = req["messages"].as_array().unwrap();
    assert_eq!(m.len(), 3);
    assert_eq!(m[1]["content"][1]["type"], "tool_use");
    assert_eq!(m[1]["content"][1]["input"], json!({"query": "RETURN 1"}));
    assert_eq!(m[2]["role"], "user");
    assert_eq!(m[2]["content"][0]["type"], "tool_result");
    assert_eq!(m[2]["content"][0]["tool_use_id"], "tu1");
}
