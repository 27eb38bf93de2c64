//! Parses arbitrary input; whatever parses must print to text that parses back to an equal AST,
//! and wherever the hand-written fast path returns an AST the pest grammar returns the same one,
//! spans included.
#![no_main]

use grape::syntax::{parse, parse_fast, parse_script, parse_with_pest, print, PrintOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_script(text);
    if let Some(fast) = parse_fast(text) {
        let slow = parse_with_pest(text).expect("pest parses what the fast path parses");
        assert_eq!(
            serde_json::to_value(&fast).expect("serialize"),
            serde_json::to_value(&slow).expect("serialize"),
            "fast path and pest differ"
        );
    }
    if let Ok(ast) = parse(text) {
        let printed = print(&ast, &PrintOptions::default());
        let again = parse(&printed).expect("printed text parses");
        assert_eq!(again, ast, "round trip differs: {printed}");
        let canonical = print(&ast, &PrintOptions::canonical());
        assert!(parse(&canonical).is_ok(), "canonical text parses: {canonical}");
    }
});
