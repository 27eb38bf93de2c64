//! mcp-neo4j-cypher's response token limit (`NEO4J_RESPONSE_TOKEN_LIMIT`): a read's JSON is
//! encoded with tiktoken's `cl100k_base` (what `encoding_for_model("gpt-4")` gives), cut to
//! the limit's count of tokens and decoded again, bytes that no longer form a character
//! replaced. The tiktoken-rs crate carries the same encoding, so the counts and the cut are
//! tiktoken's.

use std::sync::OnceLock;

/// `cl100k_base`'s special tokens: text holding one is refused by tiktoken's `encode`, which
/// allows none.
const SPECIAL: [&str; 5] = [
    "<|endoftext|>",
    "<|fim_prefix|>",
    "<|fim_middle|>",
    "<|fim_suffix|>",
    "<|endofprompt|>",
];

fn encoding() -> Option<&'static tiktoken_rs::CoreBPE> {
    static BPE: OnceLock<Option<tiktoken_rs::CoreBPE>> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::cl100k_base().ok()).as_ref()
}

/// Python's `repr()` of a special token (they hold no quote).
fn repr(token: &str) -> String {
    format!("'{token}'")
}

/// `_truncate_string_to_tokens(text, limit)`: the text cut to `limit` tokens, or tiktoken's
/// `ValueError` text where the text holds a special token's text.
pub(crate) fn truncate_to_tokens(text: &str, limit: usize) -> Result<String, String> {
    let first = SPECIAL
        .iter()
        .filter_map(|s| text.find(s).map(|at| (at, *s)))
        .min_by_key(|(at, s)| (*at, std::cmp::Reverse(s.len())));
    if let Some((_, token)) = first {
        let t = repr(token);
        return Err(format!(
            "Encountered text corresponding to disallowed special token {t}.\nIf you want this text to be encoded as a special token, pass it to `allowed_special`, e.g. `allowed_special={{{t}, ...}}`.\nIf you want this text to be encoded as normal text, disable the check for this token by passing `disallowed_special=(enc.special_tokens_set - {{{t}}})`.\nTo disable this check for all special tokens, pass `disallowed_special=()`.\n"
        ));
    }
    let Some(bpe) = encoding() else {
        // The encoding is compiled in; without it nothing is cut.
        return Ok(text.to_string());
    };
    let tokens = bpe.encode_ordinary(text);
    if tokens.len() <= limit {
        return Ok(text.to_string());
    }
    let bytes = bpe
        ._decode_native_and_split(tokens[..limit].to_vec())
        .flatten()
        .collect::<Vec<u8>>();
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> usize {
        encoding().unwrap().encode_ordinary(text).len()
    }

    #[test]
    fn counts_and_cuts_as_tiktoken() {
        // tiktoken: encode("hello world") is [15339, 1917].
        assert_eq!(count("hello world"), 2);
        assert_eq!(truncate_to_tokens("hello world", 1).unwrap(), "hello");
        assert_eq!(truncate_to_tokens("hello world", 5).unwrap(), "hello world");
        // A cut inside a character's bytes leaves a replacement character, as Python's
        // `decode(errors="replace")` does.
        let cut = truncate_to_tokens("☃☃☃☃", 1).unwrap();
        assert!(cut.chars().all(|c| c == '☃' || c == '\u{fffd}'), "{cut:?}");
    }

    #[test]
    fn special_token_text_is_refused() {
        let e = truncate_to_tokens("a <|fim_suffix|> b <|endoftext|>", 10).unwrap_err();
        assert!(e.starts_with(
            "Encountered text corresponding to disallowed special token '<|fim_suffix|>'."
        ));
    }
}
