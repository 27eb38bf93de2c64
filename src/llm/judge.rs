//! LLM-as-judge on GRAPE's protocol: a natural-language answer is scored from 0 to 1 against a
//! reference answer to the same question. The rubric and prompt are grape's own; the reply is
//! asked for as JSON `{"reasoning", "score"}` and parsed robustly (JSON anywhere in the text, a
//! fenced block, `Score: 0.8`, `8/10`, `80%`). The self-check judges each reference against
//! itself, which must score 1: a judge that fails it is not to be trusted.

use super::client::{ChatRequest, Llm, LlmError, Message};
use serde::Serialize;

/// The judge's instructions.
pub const RUBRIC: &str = "You grade answers to questions about a knowledge graph. You get a \
question, a reference answer that is correct, and a candidate answer. Score the candidate from \
0 to 1:\n\
- 1: it gives the same facts as the reference (wording, order, formatting and extra politeness \
do not matter; numbers may be rounded or formatted differently if they are the same value).\n\
- between 0 and 1: it gives some of the facts and nothing that contradicts the reference; \
score the share of the facts it gets right.\n\
- 0: it is wrong, contradicts the reference, says it cannot answer, or answers another \
question.\n\
Reply with a JSON object and nothing else: {\"reasoning\": \"one or two sentences\", \
\"score\": number}.";

/// A verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judgement {
    pub score: f64,
    pub reasoning: String,
    /// The reply as received.
    pub raw: String,
}

fn number_at(s: &str) -> Option<f64> {
    let t: String = s
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    t.parse().ok()
}

/// A score and reasoning from a judge's reply; `None` when no score can be found.
pub fn parse_judgement(reply: &str) -> Option<(f64, String)> {
    let clamp = |x: f64| x.is_finite().then(|| x.clamp(0.0, 1.0));
    // JSON: the whole reply, a fenced block, or the first {...} span.
    let mut spans = vec![reply.trim().to_string()];
    if let (Some(a), Some(b)) = (reply.find('{'), reply.rfind('}')) {
        if a < b {
            spans.push(reply[a..=b].to_string());
        }
    }
    for s in spans {
        if let Ok(serde_json::Value::Object(o)) = serde_json::from_str(&s) {
            let score = match o.get("score") {
                Some(serde_json::Value::Number(n)) => n.as_f64(),
                Some(serde_json::Value::String(t)) => number_at(t),
                _ => None,
            };
            if let Some(x) = score.and_then(clamp) {
                let reasoning = o
                    .get("reasoning")
                    .or_else(|| o.get("explanation"))
                    .and_then(|r| r.as_str())
                    .unwrap_or("")
                    .to_string();
                return Some((x, reasoning));
            }
        }
    }
    // "Score: 0.8", "score = 1", "Score: 8/10", "Score: 80%".
    let lower = reply.to_ascii_lowercase();
    let at = lower.rfind("score")?;
    let rest = &reply[at + 5..];
    let rest =
        rest.trim_start_matches(|c: char| c == ':' || c == '=' || c.is_whitespace() || c == '*');
    let x = number_at(rest)?;
    let after = &rest[rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len())..];
    let after = after.trim_start();
    let x = if let Some(d) = after.strip_prefix('/') {
        x / number_at(d).filter(|d| *d > 0.0)?
    } else if after.starts_with('%') {
        x / 100.0
    } else {
        x
    };
    let reasoning = reply[..at].trim().to_string();
    clamp(x).map(|x| (x, reasoning))
}

/// Scores `candidate` against `reference`. An unparseable reply is asked again once (as a new
/// sample); then it is an error.
pub fn judge(
    llm: &Llm,
    question: &str,
    reference: &str,
    candidate: &str,
) -> Result<Judgement, LlmError> {
    let messages = vec![
        Message::system(RUBRIC),
        Message::user(format!(
            "Question: {question}\nReference answer: {reference}\nCandidate answer: {candidate}"
        )),
    ];
    let mut last = String::new();
    for sample in 0..2 {
        let reply = llm.chat(&ChatRequest {
            messages: messages.clone(),
            temperature: 0.0,
            max_tokens: 512,
            sample,
        })?;
        if let Some((score, reasoning)) = parse_judgement(&reply.text) {
            return Ok(Judgement {
                score,
                reasoning,
                raw: reply.text,
            });
        }
        last = reply.text;
    }
    Err(LlmError::Exhausted {
        attempts: 2,
        last: format!("no score in the judge's reply: {last}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_every_shape() {
        let p = |s: &str| parse_judgement(s).map(|x| x.0);
        assert_eq!(p(r#"{"reasoning": "same", "score": 1}"#), Some(1.0));
        assert_eq!(
            p("Sure.\n```json\n{\"reasoning\": \"half\", \"score\": 0.5}\n```"),
            Some(0.5)
        );
        assert_eq!(p(r#"{"score": "0.75"}"#), Some(0.75));
        assert_eq!(p("The answer misses one fact.\nScore: 0.8"), Some(0.8));
        assert_eq!(p("**Score**: 8/10"), Some(0.8));
        assert_eq!(p("score = 80%"), Some(0.8));
        assert_eq!(p("Score: 3"), Some(1.0));
        assert_eq!(p("I cannot grade this."), None);
        assert_eq!(p("Score: x/0"), None);
        let (_, why) = parse_judgement("It is wrong.\nScore: 0").unwrap();
        assert_eq!(why, "It is wrong.");
    }
}
