//! LLM generation and judging (feature `llm`): a client for OpenAI-compatible and Anthropic
//! APIs with retries, bounded concurrency, cost accounting and a response cache
//! ([`client`]); text-to-Cypher prompts with ZOGRASCOPE's strategies ([`prompt`]); robust
//! extraction of the query from a reply ([`extract`]); prediction generation with
//! validator-driven repair ([`generate`]); GRAPE-style dataset generation ([`dataset`]); and an LLM judge of natural-language answers
//! ([`mod@judge`]).

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
