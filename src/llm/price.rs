//! Token prices and cost accounting. The built-in table holds list prices in USD per million
//! tokens as published by the providers in 2025; prices change, so a JSON file
//! (`{"model-name": {"input": 2.5, "output": 10.0}}`, `--prices FILE`) overrides or extends
//! it. A model matches its exact name or the longest listed prefix (`gpt-4o-2024-08-06` →
//! `gpt-4o`). Local models (vLLM, Ollama, llama.cpp) cost nothing; a model with no price has
//! an unknown cost, reported as such rather than as zero.

use super::client::{ModelSpec, Usage};
use std::collections::BTreeMap;

/// USD per million input and output tokens.
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Price {
    pub input: f64,
    pub output: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Prices {
    table: BTreeMap<String, Price>,
}

const BUILT_IN: &[(&str, f64, f64)] = &[
    ("gpt-4o", 2.50, 10.00),
    ("gpt-4o-mini", 0.15, 0.60),
    ("gpt-4.1", 2.00, 8.00),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("o3", 2.00, 8.00),
    ("o4-mini", 1.10, 4.40),
    ("gpt-5", 1.25, 10.00),
    ("gpt-5-mini", 0.25, 2.00),
    ("claude-3-5-haiku", 0.80, 4.00),
    ("claude-3-5-sonnet", 3.00, 15.00),
    ("claude-3-7-sonnet", 3.00, 15.00),
    ("claude-sonnet-4", 3.00, 15.00),
    ("claude-opus-4", 15.00, 75.00),
    ("claude-haiku-4-5", 1.00, 5.00),
];

impl Default for Prices {
    fn default() -> Self {
        Prices {
            table: BUILT_IN
                .iter()
                .map(|(m, i, o)| {
                    (
                        m.to_string(),
                        Price {
                            input: *i,
                            output: *o,
                        },
                    )
                })
                .collect(),
        }
    }
}

impl Prices {
    /// The built-in table with the entries of a JSON object added or replaced.
    pub fn with_overrides(mut self, json: &str) -> Result<Prices, String> {
        let extra: BTreeMap<String, Price> = serde_json::from_str(json).map_err(|e| {
            format!("prices: expected {{\"model\": {{\"input\": USD, \"output\": USD}}}}: {e}")
        })?;
        for (m, p) in extra {
            if !(p.input >= 0.0 && p.output >= 0.0) {
                return Err(format!("prices: {m}: prices must be non-negative numbers"));
            }
            self.table.insert(m, p);
        }
        Ok(self)
    }

    /// The price of a model, `Some(0, 0)` for local ones.
    pub fn price_of(&self, model: &ModelSpec) -> Option<Price> {
        if model.is_local() && !self.table.contains_key(&model.model) {
            return Some(Price {
                input: 0.0,
                output: 0.0,
            });
        }
        self.table
            .iter()
            .filter(|(name, _)| model.model.starts_with(name.as_str()))
            .max_by_key(|(name, _)| name.len())
            .map(|(_, p)| *p)
    }

    /// What `usage` costs on `model`, USD.
    pub fn cost(&self, model: &ModelSpec, usage: Usage) -> Option<f64> {
        self.price_of(model).map(|p| {
            (usage.input_tokens as f64 * p.input + usage.output_tokens as f64 * p.output) / 1e6
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_match_overrides_and_local_models() {
        let p = Prices::default();
        let m = |s: &str| s.parse::<ModelSpec>().unwrap();
        let u = Usage {
            input_tokens: 1_000_000,
            output_tokens: 500_000,
        };
        let near = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-12);
        assert!(near(p.cost(&m("openai:gpt-4o-2024-08-06"), u), 2.5 + 5.0));
        assert!(near(p.cost(&m("openai:gpt-4o-mini"), u), 0.15 + 0.30));
        assert_eq!(p.cost(&m("openai:mystery"), u), None);
        assert_eq!(p.cost(&m("ollama:llama3"), u), Some(0.0));
        let p = p
            .with_overrides(r#"{"mystery": {"input": 1, "output": 2}}"#)
            .unwrap();
        assert_eq!(p.cost(&m("mystery-v2"), u), Some(2.0));
        assert!(Prices::default().with_overrides("[1]").is_err());
        assert!(Prices::default()
            .with_overrides(r#"{"x": {"input": -1, "output": 0}}"#)
            .is_err());
    }
}
