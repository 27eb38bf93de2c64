//! A loopback OpenAI-compatible (and Anthropic-compatible) mock server for the LLM tests: each
//! request's JSON body goes to a script that returns the reply; the server counts requests and
//! stops when dropped. HTTP/1.1, one request per connection (`Connection: close`).

#![allow(dead_code)]

use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the mock sends back.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Wait before answering (to provoke client timeouts).
    pub delay: Duration,
}

impl Reply {
    /// A Chat Completions reply with this text and usage 10 in / 5 out.
    pub fn chat(text: &str) -> Reply {
        Reply::json(serde_json::json!({
            "id": "x", "object": "chat.completion", "model": "mock",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        }))
    }

    /// An Anthropic Messages reply.
    pub fn anthropic(text: &str) -> Reply {
        Reply::json(serde_json::json!({
            "id": "x", "type": "message", "role": "assistant", "model": "mock",
            "content": [{"type": "text", "text": text}],
            "usage": {"input_tokens": 7, "output_tokens": 3}
        }))
    }

    pub fn json(v: Json) -> Reply {
        Reply {
            status: 200,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: v.to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: body.into(),
            delay: Duration::ZERO,
        }
    }

    pub fn header(mut self, k: &str, v: &str) -> Reply {
        self.headers.push((k.into(), v.into()));
        self
    }

    pub fn after(mut self, d: Duration) -> Reply {
        self.delay = d;
        self
    }
}

/// A request as the mock saw it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Json,
}

type Script = dyn Fn(usize, &Seen) -> Reply + Send + Sync;

pub struct Mock {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    count: Arc<AtomicUsize>,
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

impl Mock {
    /// Starts a mock whose `script` gets the 1-based request number and the request.
    pub fn start(script: impl Fn(usize, &Seen) -> Reply + Send + Sync + 'static) -> Mock {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let count = Arc::new(AtomicUsize::new(0));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let script: Arc<Script> = Arc::new(script);
        {
            let (stop, count, seen) = (stop.clone(), count.clone(), seen.clone());
            std::thread::spawn(move || {
                for s in l.incoming() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Ok(s) = s else { continue };
                    let (script, count, seen) = (script.clone(), count.clone(), seen.clone());
                    std::thread::spawn(move || serve(s, &*script, &count, &seen));
                }
            });
        }
        Mock {
            addr,
            stop,
            count,
            seen,
        }
    }

    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Requests answered so far.
    pub fn requests(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(self.addr);
    }
}

fn serve(s: TcpStream, script: &Script, count: &AtomicUsize, seen: &Mutex<Vec<Seen>>) {
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut line = String::new();
    if r.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut headers = Vec::new();
    let mut len = 0usize;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).unwrap_or(0) == 0 {
            return;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().unwrap_or(0);
            }
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let mut body = vec![0u8; len];
    if r.read_exact(&mut body).is_err() {
        return;
    }
    let req = Seen {
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Json::Null),
    };
    let n = count.fetch_add(1, Ordering::SeqCst) + 1;
    seen.lock().unwrap().push(req.clone());
    let reply = script(n, &req);
    std::thread::sleep(reply.delay);
    let mut out = format!(
        "HTTP/1.1 {} X\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    for (k, v) in &reply.headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    out.push_str(&reply.body);
    let mut w = s;
    let _ = w.write_all(out.as_bytes());
    let _ = w.flush();
}

/// The text of the last user message of a chat request.
pub fn last_user(body: &Json) -> String {
    body["messages"]
        .as_array()
        .and_then(|m| m.iter().rev().find(|x| x["role"] == "user"))
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
        .to_string()
}

/// A deterministic bag-of-words embedding (32 dimensions, words hashed), so that questions
/// sharing words are near each other.
pub fn toy_embedding(text: &str) -> Vec<f32> {
    let mut v = vec![0f32; 32];
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let h = w
            .to_lowercase()
            .bytes()
            .fold(0xcbf29ce484222325u64, |h, b| {
                (h ^ b as u64).wrapping_mul(0x100000001b3)
            });
        v[(h % 32) as usize] += 1.0;
    }
    v
}

/// An `/embeddings` reply for a request body (inputs in order, indices given).
pub fn embeddings_reply(body: &Json) -> Reply {
    let inputs: Vec<&str> = body["input"]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    // Reversed, with indices: the client must order by index.
    let data: Vec<Json> = inputs
        .iter()
        .enumerate()
        .rev()
        .map(|(i, t)| serde_json::json!({"object": "embedding", "index": i, "embedding": toy_embedding(t)}))
        .collect();
    Reply::json(
        serde_json::json!({"object": "list", "data": data, "usage": {"prompt_tokens": inputs.len() * 4, "total_tokens": inputs.len() * 4}}),
    )
}

/// The reference and candidate answers of a judge request.
pub fn judged_pair(body: &Json) -> (String, String) {
    let u = last_user(body);
    let field = |k: &str| {
        u.lines()
            .find_map(|l| l.strip_prefix(k))
            .unwrap_or("")
            .to_string()
    };
    (field("Reference answer: "), field("Candidate answer: "))
}
