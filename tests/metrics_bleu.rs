//! Google BLEU against its reference implementation: Hugging Face `evaluate`'s `google_bleu`
//! is NLTK's `corpus_gleu` over sacreBLEU's `13a` tokenizer (split into tokens); the script
//! `tests/metrics_support/gleu_check.py` composes those two packages (from `target/pyenv`) and
//! grape must agree with it to 1e-12 on every pair and on the corpus score, over 400 pairs of
//! LLM-written queries from `../shared` and hand-made edge cases. Without Python with `nltk`
//! and `sacrebleu` the test prints SKIPPED and passes, unless `GRAPE_REQUIRE_GLEU=1` (as
//! `.ci/run` sets once it has installed them).

mod common;

use grape::metrics::bleu::{corpus_google_bleu, google_bleu, tokenize_13a};
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn google_bleu_equals_nltk_over_sacrebleu_13a() {
    let Some(py) = common::python_with(
        "import nltk, sacrebleu.tokenizers.tokenizer_13a",
        "GRAPE_REQUIRE_GLEU",
        "Google BLEU reference check",
    ) else {
        return;
    };
    let mut pairs: Vec<(String, String)> = [
        ("MATCH (n) RETURN n", "MATCH (n) RETURN n"),
        ("", ""),
        ("RETURN 1", ""),
        ("", "RETURN 1"),
        ("a &amp; b &lt;c&gt; &quot;d&quot;", "a & b <c> \"d\""),
        ("x-\ny <skipped> z", "xy z"),
        (
            "1,000.5 a.b, c.1 1990-01-02",
            "1,000.5 a.b , c.1 1990 - 01-02",
        ),
        ("tab\there\u{1c}sep\u{a0}nbsp", "tab here sep nbsp"),
        ("ünïcödé (straße) → 東京", "ünïcödé straße 東京"),
        (
            "WHERE n.x =~ '.*a$' AND n.y <> 3",
            "WHERE n.x =~ '.*a$' OR n.y<>3",
        ),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    if let Some(shared) = common::shared_dir("google_bleu_equals_nltk_over_sacrebleu_13a") {
        let text = std::fs::read_to_string(shared.join("data/text2cypher/gpt4turbo_queries.jsonl"))
            .expect("read the text2cypher queries");
        let queries: Vec<String> = text
            .lines()
            .take(401)
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["query"].as_str().unwrap().to_string()
            })
            .collect();
        for w in queries.windows(2) {
            pairs.push((w[0].clone(), w[1].clone()));
        }
        assert!(pairs.len() >= 400);
    }
    let mut child = Command::new(&py)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/metrics_support/gleu_check.py"
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run python");
    let input = serde_json::to_vec(&pairs).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the reference script failed");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (i, ((r, p), want)) in pairs
        .iter()
        .zip(v["sentence"].as_array().unwrap())
        .enumerate()
    {
        let tokens = tokenize_13a(p).join(" ");
        assert_eq!(
            tokens,
            v["tokens"][i].as_str().unwrap(),
            "tokens of pair {i}: {p:?}"
        );
        let got = google_bleu(r, p);
        let want = want.as_f64().unwrap();
        assert!(
            (got - want).abs() <= 1e-12,
            "pair {i}: grape {got}, reference {want}\n{r:?}\n{p:?}"
        );
    }
    let refs: Vec<[&str; 1]> = pairs.iter().map(|(r, _)| [r.as_str()]).collect();
    let corpus = corpus_google_bleu(
        pairs
            .iter()
            .zip(&refs)
            .map(|((_, p), r)| (p.as_str(), &r[..])),
    );
    let want = v["corpus"].as_f64().unwrap();
    assert!(
        (corpus - want).abs() <= 1e-12,
        "corpus: grape {corpus}, reference {want}"
    );
    println!(
        "Google BLEU: {} pairs agree with NLTK over sacreBLEU 13a (corpus {corpus})",
        pairs.len()
    );
}
