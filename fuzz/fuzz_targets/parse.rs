//! Parses arbitrary input; whatever parses must print to text that parses back to an equal AST.
#![no_main]

use grape::syntax::{parse, parse_script, print, PrintOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_script(text);
    if let Ok(ast) = parse(text) {
        let printed = print(&ast, &PrintOptions::default());
        let again = parse(&printed).expect("printed text parses");
        assert_eq!(again, ast, "round trip differs: {printed}");
        let canonical = print(&ast, &PrintOptions::canonical());
        assert!(parse(&canonical).is_ok(), "canonical text parses: {canonical}");
    }
});
