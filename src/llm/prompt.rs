//! Text-to-Cypher prompts, with ZOGRASCOPE's three settings: zero-shot (the schema only), fixed
//! in-context learning (k training examples drawn once, seeded) and dynamic in-context learning
//! (the k training examples whose questions are nearest the test question, by BM25). The
//! schema is rendered by [`Schema::to_prompt`](crate::schema::Schema::to_prompt). With gold
//! entity linking, the question comes with its linked entities (ZOGRASCOPE's
//! `nl_gold_linked`). In-context examples go in as earlier user/assistant turns, the answer in a
//! ```` ```cypher ```` block — the shape the reply is asked for.

use super::client::Message;
use crate::dataset::Example;
use crate::rng::SplitMix64;
use crate::schema::Schema;
use std::collections::HashMap;

/// How examples are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    ZeroShot,
    FixedIcl,
    DynamicIcl,
}

impl std::str::FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        match s {
            "zero-shot" => Ok(Strategy::ZeroShot),
            "fixed-icl" => Ok(Strategy::FixedIcl),
            "dynamic-icl" => Ok(Strategy::DynamicIcl),
            _ => Err(format!(
                "unknown strategy `{s}` (zero-shot, fixed-icl, dynamic-icl)"
            )),
        }
    }
}

/// The instructions every text-to-Cypher prompt starts with (grape's own wording).
pub const SYSTEM: &str = "You write Cypher queries for a Neo4j graph database. Given the graph \
schema and a question, answer with one Cypher query that returns what the question asks for. \
Use only the node labels, relationship types and properties the schema lists, with \
relationships in the direction the schema gives. Reply with the query in a ```cypher code \
block and nothing else.";

/// Okapi BM25 over the training questions (k1 = 1.2, b = 0.75), tokens are lower-cased runs
/// of letters and digits.
pub struct Bm25 {
    docs: Vec<HashMap<String, u32>>,
    lens: Vec<f64>,
    avg_len: f64,
    df: HashMap<String, u32>,
}

fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(|t| t.to_lowercase())
        .collect()
}

impl Bm25 {
    pub fn new<'a>(texts: impl IntoIterator<Item = &'a str>) -> Bm25 {
        let mut docs = Vec::new();
        let mut lens = Vec::new();
        let mut df: HashMap<String, u32> = HashMap::new();
        for t in texts {
            let toks = tokens(t);
            lens.push(toks.len() as f64);
            let mut tf: HashMap<String, u32> = HashMap::new();
            for tok in toks {
                *tf.entry(tok).or_default() += 1;
            }
            for k in tf.keys() {
                *df.entry(k.clone()).or_default() += 1;
            }
            docs.push(tf);
        }
        let avg_len = if lens.is_empty() {
            0.0
        } else {
            lens.iter().sum::<f64>() / lens.len() as f64
        };
        Bm25 {
            docs,
            lens,
            avg_len,
            df,
        }
    }

    /// The `k` best documents for `query`, best first (ties: lower index first), skipping
    /// those `skip` rejects.
    pub fn top(&self, query: &str, k: usize, skip: impl Fn(usize) -> bool) -> Vec<usize> {
        let (k1, b) = (1.2, 0.75);
        let n = self.docs.len() as f64;
        let q = tokens(query);
        let mut scored: Vec<(f64, usize)> = self
            .docs
            .iter()
            .enumerate()
            .filter(|(i, _)| !skip(*i))
            .map(|(i, tf)| {
                let mut s = 0.0;
                for t in &q {
                    let Some(&f) = tf.get(t) else { continue };
                    let df = self.df.get(t).copied().unwrap_or(0) as f64;
                    let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                    let f = f as f64;
                    let norm = if self.avg_len > 0.0 {
                        self.lens[i] / self.avg_len
                    } else {
                        1.0
                    };
                    s += idf * f * (k1 + 1.0) / (f + k1 * (1.0 - b + b * norm));
                }
                (s, i)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().take(k).map(|(_, i)| i).collect()
    }
}

/// Builds the messages for each question.
pub struct Prompter {
    schema_text: String,
    strategy: Strategy,
    k: usize,
    train: Vec<Example>,
    fixed: Vec<usize>,
    bm25: Option<Bm25>,
    /// Nearest training examples by embedding, per test example id (dynamic ICL with an
    /// embedding model).
    neighbours: HashMap<String, Vec<usize>>,
    linked: bool,
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let (mut dot, mut na, mut nb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        dot += *x as f64 * *y as f64;
        na += *x as f64 * *x as f64;
        nb += *y as f64 * *y as f64;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

impl Prompter {
    /// `train` supplies the in-context examples (unused for zero-shot); `seed` draws the fixed
    /// ones; `linked` uses the questions' gold entity links where they have them.
    pub fn new(
        schema: &Schema,
        strategy: Strategy,
        k: usize,
        train: Vec<Example>,
        seed: u64,
        linked: bool,
    ) -> Result<Prompter, String> {
        if strategy != Strategy::ZeroShot && train.is_empty() {
            return Err("in-context strategies need training examples (--train)".into());
        }
        let mut fixed = Vec::new();
        if strategy == Strategy::FixedIcl {
            // A seeded partial Fisher–Yates shuffle: k distinct examples.
            let mut idx: Vec<usize> = (0..train.len()).collect();
            let mut rng = SplitMix64(seed);
            for i in 0..k.min(idx.len()) {
                let j = i + rng.below(idx.len() - i);
                idx.swap(i, j);
            }
            fixed = idx.into_iter().take(k).collect();
        }
        let bm25 = (strategy == Strategy::DynamicIcl)
            .then(|| Bm25::new(train.iter().map(|e| e.question.as_str())));
        Ok(Prompter {
            schema_text: schema.to_prompt(),
            strategy,
            k,
            train,
            fixed,
            bm25,
            neighbours: HashMap::new(),
            linked,
        })
    }

    /// Dynamic ICL by embeddings (as ZOGRASCOPE did, with cosine similarity) instead of BM25:
    /// the training and test questions are embedded by `embedder` (cached like every
    /// response) and each test question gets its `k` nearest training questions.
    pub fn with_embeddings(
        schema: &Schema,
        k: usize,
        train: Vec<Example>,
        questions: &[Example],
        embedder: &super::Llm,
        linked: bool,
    ) -> Result<Prompter, String> {
        let mut p = Prompter::new(schema, Strategy::DynamicIcl, k, train, 0, linked)?;
        let texts: Vec<String> = p.train.iter().map(|e| e.question.clone()).collect();
        let train_vecs = embedder.embed(&texts).map_err(|e| e.to_string())?;
        let texts: Vec<String> = questions.iter().map(|e| e.question.clone()).collect();
        let test_vecs = embedder.embed(&texts).map_err(|e| e.to_string())?;
        for (e, v) in questions.iter().zip(&test_vecs) {
            let mut scored: Vec<(f64, usize)> = train_vecs
                .iter()
                .enumerate()
                .filter(|(i, _)| !(p.train[*i].id == e.id && p.train[*i].question == e.question))
                .map(|(i, t)| (cosine(v, t), i))
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            p.neighbours.insert(
                e.id.clone(),
                scored.into_iter().take(k).map(|x| x.1).collect(),
            );
        }
        Ok(p)
    }

    fn question(&self, e: &Example) -> String {
        match (&e.linked_question, self.linked) {
            (Some(l), true) => l.clone(),
            _ => e.question.clone(),
        }
    }

    /// The training examples shown for `e`.
    pub fn shots(&self, e: &Example) -> Vec<&Example> {
        match self.strategy {
            Strategy::ZeroShot => Vec::new(),
            Strategy::FixedIcl => self.fixed.iter().map(|&i| &self.train[i]).collect(),
            Strategy::DynamicIcl => {
                if let Some(n) = self.neighbours.get(&e.id) {
                    return n.iter().map(|&i| &self.train[i]).collect();
                }
                let Some(bm) = &self.bm25 else {
                    return Vec::new();
                };
                // Never the question itself, should the training set contain it.
                bm.top(&e.question, self.k, |i| {
                    self.train[i].id == e.id && self.train[i].question == e.question
                })
                .into_iter()
                .map(|i| &self.train[i])
                .collect()
            }
        }
    }

    /// The conversation for one question.
    pub fn messages(&self, e: &Example) -> Vec<Message> {
        let mut m = vec![Message::system(format!(
            "{SYSTEM}\n\nSchema:\n{}",
            self.schema_text.trim_end()
        ))];
        for s in self.shots(e) {
            m.push(Message::user(format!("Question: {}", self.question(s))));
            m.push(Message::assistant(format!(
                "```cypher\n{}\n```",
                s.gold.trim()
            )));
        }
        m.push(Message::user(format!("Question: {}", self.question(e))));
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(id: &str, q: &str, c: &str) -> Example {
        Example {
            id: id.into(),
            question: q.into(),
            gold: c.into(),
            ..Default::default()
        }
    }

    #[test]
    fn bm25_ranks_by_shared_rare_words() {
        let bm = Bm25::new([
            "who called the phone",
            "which crimes happened in the area",
            "crimes investigated by officer Brister",
            "the the the",
        ]);
        assert_eq!(
            bm.top("crimes investigated by Brister", 2, |_| false),
            [2, 1]
        );
        assert_eq!(bm.top("phone calls", 1, |_| false), [0]);
        // Documents without the word score 0 and follow in index order.
        assert_eq!(bm.top("crimes", 3, |i| i == 1), [2, 0, 3]);
        assert!(Bm25::new([]).top("x", 3, |_| false).is_empty());
    }

    #[test]
    fn strategies_choose_shots() {
        let train: Vec<Example> = (0..10)
            .map(|i| {
                ex(
                    &i.to_string(),
                    &format!("question about topic{i}"),
                    "RETURN 1",
                )
            })
            .collect();
        let schema = Schema::default();
        let q = ex("x", "question about topic7", "RETURN 2");
        let zs = Prompter::new(&schema, Strategy::ZeroShot, 3, vec![], 1, false).unwrap();
        assert_eq!(zs.messages(&q).len(), 2);
        let fixed = Prompter::new(&schema, Strategy::FixedIcl, 3, train.clone(), 1, false).unwrap();
        let a: Vec<&str> = fixed.shots(&q).iter().map(|e| e.id.as_str()).collect();
        let b: Vec<&str> = fixed
            .shots(&ex("y", "other", ""))
            .iter()
            .map(|e| e.id.as_str())
            .collect();
        assert_eq!(a, b);
        assert_eq!(a.len(), 3);
        let again = Prompter::new(&schema, Strategy::FixedIcl, 3, train.clone(), 1, false).unwrap();
        assert_eq!(again.messages(&q), fixed.messages(&q));
        let dynamic = Prompter::new(&schema, Strategy::DynamicIcl, 2, train, 1, false).unwrap();
        assert_eq!(dynamic.shots(&q)[0].id, "7");
        let m = dynamic.messages(&q);
        assert_eq!(m.len(), 6);
        assert_eq!(m[2].content, "```cypher\nRETURN 1\n```");
        assert!(Prompter::new(&schema, Strategy::DynamicIcl, 2, vec![], 1, false).is_err());
        let mut linked = q.clone();
        linked.linked_question = Some("[Officer] = X\nquestion".into());
        let p = Prompter::new(&schema, Strategy::ZeroShot, 0, vec![], 1, true).unwrap();
        assert!(p.messages(&linked)[1].content.contains("[Officer] = X"));
    }
}
