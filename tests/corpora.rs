//! The parser against real corpora: ZOGRASCOPE, GRAPE and the openCypher TCK syntax labels.

mod common;

use grape::syntax::{parse, print, PrintOptions};

fn report_failures(name: &str, failures: &[(String, String, String)]) {
    for (id, q, e) in failures.iter().take(30) {
        eprintln!("--- {name} {id}\n{q}\n{e}");
    }
}

#[test]
fn zograscope_gold_queries_all_parse_and_round_trip() {
    let Some(shared) = common::shared_dir("zograscope") else {
        return;
    };
    let corpus = common::zograscope(&shared);
    assert_eq!(corpus.len(), 5022);
    let mut failures = Vec::new();
    for (id, q) in &corpus {
        match parse(q) {
            Ok(ast) => {
                let printed = print(&ast, &PrintOptions::default());
                match parse(&printed) {
                    Ok(again) if again == ast => {}
                    Ok(_) => failures.push((
                        id.clone(),
                        q.clone(),
                        format!("round trip differs: {printed}"),
                    )),
                    Err(e) => failures.push((
                        id.clone(),
                        q.clone(),
                        format!("printed text fails: {printed}\n{e}"),
                    )),
                }
            }
            Err(e) => failures.push((id.clone(), q.clone(), e.to_string())),
        }
    }
    report_failures("zograscope", &failures);
    println!(
        "ZOGRASCOPE: {} of {} parse and round-trip",
        corpus.len() - failures.len(),
        corpus.len()
    );
    assert!(failures.is_empty(), "{} failures", failures.len());
}

#[test]
fn grape_queries_all_parse_and_round_trip() {
    let Some(shared) = common::shared_dir("grape") else {
        return;
    };
    let corpus = common::grape(&shared);
    assert_eq!(corpus.len(), 205);
    let mut failures = Vec::new();
    for (id, q) in &corpus {
        match parse(q) {
            Ok(ast) => {
                let printed = print(&ast, &PrintOptions::default());
                match parse(&printed) {
                    Ok(again) if again == ast => {}
                    Ok(_) => failures.push((
                        id.clone(),
                        q.clone(),
                        format!("round trip differs: {printed}"),
                    )),
                    Err(e) => failures.push((
                        id.clone(),
                        q.clone(),
                        format!("printed text fails: {printed}\n{e}"),
                    )),
                }
            }
            Err(e) => failures.push((id.clone(), q.clone(), e.to_string())),
        }
    }
    report_failures("grape", &failures);
    println!(
        "GRAPE: {} of {} parse and round-trip",
        corpus.len() - failures.len(),
        corpus.len()
    );
    assert!(failures.is_empty(), "{} failures", failures.len());
}

#[test]
fn tck_syntax_labels_all_agree_and_accepted_queries_round_trip() {
    let Some(shared) = common::shared_dir("tck syntax") else {
        return;
    };
    let corpus = common::tck_syntax(&shared);
    let accepts = corpus.iter().filter(|c| c.2).count();
    let rejects = corpus.len() - accepts;
    assert_eq!((accepts, rejects), (4109, 22));
    let mut failures = Vec::new();
    let mut agree = 0;
    for (id, q, accept) in &corpus {
        match (parse(q), accept) {
            (Ok(ast), true) => {
                let printed = print(&ast, &PrintOptions::default());
                match parse(&printed) {
                    Ok(again) if again == ast => agree += 1,
                    Ok(_) => failures.push((
                        id.clone(),
                        q.clone(),
                        format!("round trip differs: {printed}"),
                    )),
                    Err(e) => failures.push((
                        id.clone(),
                        q.clone(),
                        format!("printed text fails: {printed}\n{e}"),
                    )),
                }
            }
            (Err(_), false) => agree += 1,
            (Ok(_), false) => failures.push((
                id.clone(),
                q.clone(),
                "accepted, TCK expects a syntax error".into(),
            )),
            (Err(e), true) => failures.push((id.clone(), q.clone(), e.to_string())),
        }
    }
    report_failures("tck", &failures);
    println!(
        "TCK syntax: {agree} of {} labels agree (accept {accepts}, reject {rejects})",
        corpus.len()
    );
    assert!(failures.is_empty(), "{} failures", failures.len());
}
