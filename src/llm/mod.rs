//! LLM generation and judging (feature `llm`): a client for OpenAI-compatible and Anthropic
//! APIs with retries, bounded concurrency, cost accounting and a response cache
//! ([`client`]); text-to-Cypher prompts with ZOGRASCOPE's strategies ([`prompt`]); robust
//! extraction of the query from a reply ([`extract`]); prediction generation with
//! validator-driven repair ([`generate`]); GRAPE-style dataset generation ([`dataset`]); and an LLM judge of natural-language answers
//! ([`mod@judge`]).
//!
//! ```
//! use grape::llm::{extract_cypher, parse_judgement, ModelSpec, Prices, Provider, Usage};
//!
//! let local: ModelSpec = "ollama:llama3.1".parse().unwrap();
//! assert_eq!(local.provider, Provider::OpenAi); // Ollama speaks OpenAI's API
//! assert_eq!(local.default_base_url(), "http://127.0.0.1:11434/v1");
//! let gpt: ModelSpec = "openai:gpt-4o-2024-08-06".parse().unwrap();
//! let usage = Usage { input_tokens: 1_000_000, output_tokens: 0 };
//! assert_eq!(Prices::default().cost(&gpt, usage), Some(2.5)); // `gpt-4o`'s list price
//! assert_eq!(Prices::default().cost(&local, usage), Some(0.0));
//!
//! let reply = "Here it is:\n~~~cypher\nMATCH (p:Person) RETURN p.name;\n~~~\nHope it helps.";
//! assert_eq!(extract_cypher(reply), "MATCH (p:Person) RETURN p.name");
//! let verdict = parse_judgement(r#"{"reasoning": "same year", "score": 1}"#).unwrap();
//! assert_eq!(verdict, (1.0, "same year".to_string()));
//! ```
//!
//! # Layout
//!
//! The LLM client (`client.rs`, with the response cache `cache.rs` and the price table
//! `price.rs`), prompts (`prompt.rs`), reply parsing (`extract.rs`), generation (`generate.rs`
//! predictions, `dataset.rs` benchmarks) and judging (`judge.rs`). Its callers are the CLI's
//! `llm_cli` commands and the `mcp` module's agent and session evaluations.

pub mod cache;
pub mod client;
pub mod dataset;
pub mod extract;
pub mod generate;
pub mod judge;
pub mod price;
pub mod prompt;

pub use client::{
    Accounting, ChatReply, ChatRequest, Llm, LlmConfig, LlmError, Message, ModelSpec, Provider,
    ToolCall, ToolTurn, Usage,
};
pub use dataset::{generate_dataset, DatasetOptions, DatasetSummary, Mode};
pub use extract::extract_cypher;
pub use generate::{generate_predictions, GenerateOptions, GenerateSummary, Generated};
pub use judge::{judge, parse_judgement, Judgement};
pub use price::Prices;
pub use prompt::{Prompter, Strategy};
