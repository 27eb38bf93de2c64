//! Getting the Cypher query out of a model's reply, whatever its shape: a fenced block (tagged
//! `cypher` or not), a JSON object with a `cypher` / `query` field, a query between prose, a
//! query in single backticks, a trailing semicolon. Among candidates the first that grape
//! parses wins; when none parses, the most likely one is returned as it is, so that the
//! evaluation reports its syntax error rather than an empty prediction.

const STARTS: [&str; 10] = [
    "MATCH", "OPTIONAL", "WITH", "UNWIND", "CALL", "RETURN", "CREATE", "MERGE", "USE", "EXPLAIN",
];

fn starts_query(line: &str) -> bool {
    let t = line.trim_start().trim_start_matches('`');
    let word: String = t
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_uppercase();
    STARTS.contains(&word.as_str())
}

fn clean(q: &str) -> String {
    let t = q.trim().trim_matches('`').trim();
    t.strip_suffix(';').unwrap_or(t).trim_end().to_string()
}

fn parses(q: &str) -> bool {
    crate::syntax::parse(q).is_ok()
}

/// Fenced blocks: `(language, body)`.
fn fences(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let fence = if t.starts_with("```") {
            "```"
        } else if t.starts_with("~~~") {
            "~~~"
        } else {
            continue;
        };
        let lang = t[3..].trim().to_ascii_lowercase();
        // A one-line block: ```MATCH (n) RETURN n```
        if let Some(inner) = t[3..].strip_suffix(fence) {
            if starts_query(inner) {
                out.push((String::new(), inner.to_string()));
            }
            continue;
        }
        let mut body = Vec::new();
        for l in lines.by_ref() {
            if l.trim_start().starts_with(fence) {
                break;
            }
            body.push(l);
        }
        out.push((lang, body.join("\n")));
    }
    out
}

/// The query in `reply`.
pub fn extract_cypher(reply: &str) -> String {
    let mut candidates: Vec<String> = Vec::new();
    // JSON: {"cypher": …} / {"query": …}
    if let Ok(serde_json::Value::Object(o)) = serde_json::from_str(reply.trim()) {
        for k in ["cypher", "query", "cypher_query"] {
            if let Some(q) = o.get(k).and_then(|v| v.as_str()) {
                candidates.push(clean(q));
            }
        }
    }
    let blocks = fences(reply);
    let tagged = |l: &str| matches!(l, "cypher" | "cql" | "neo4j" | "opencypher");
    for (lang, body) in blocks.iter().filter(|(l, _)| tagged(l)) {
        let _ = lang;
        candidates.push(clean(body));
    }
    for (_, body) in blocks.iter().filter(|(l, _)| !tagged(l)) {
        // A block's own JSON, e.g. ```json {"cypher": …}```.
        if let Ok(serde_json::Value::Object(o)) = serde_json::from_str(body.trim()) {
            if let Some(q) = o
                .get("cypher")
                .or_else(|| o.get("query"))
                .and_then(|v| v.as_str())
            {
                candidates.push(clean(q));
                continue;
            }
        }
        candidates.push(clean(body));
    }
    // Unfenced: from the first line that starts a query, up to a blank line (or the end);
    // prose after the query on later lines is cut line by line until it parses.
    let lines: Vec<&str> = reply.lines().collect();
    if let Some(start) = lines.iter().position(|l| starts_query(l)) {
        let mut end = start;
        while end < lines.len() && !lines[end].trim().is_empty() {
            end += 1;
        }
        let mut chunk: Vec<String> = lines[start..end].iter().map(|l| l.to_string()).collect();
        // Text before the keyword on the first line ("Query: MATCH …").
        if let Some(first) = chunk.first_mut() {
            *first = first.trim_start().trim_start_matches('`').to_string();
        }
        for n in (1..=chunk.len()).rev() {
            let q = clean(&chunk[..n].join("\n"));
            if parses(&q) {
                candidates.push(q);
                break;
            }
        }
        candidates.push(clean(&chunk.join("\n")));
    }
    // A query after a label on the same line ("Cypher: MATCH …") or in single backticks.
    for l in &lines {
        for (i, _) in l.match_indices(|c: char| c.is_ascii_alphabetic()) {
            let before = l[..i].trim_end();
            if i > 0 && (before.ends_with(':') || l[..i].ends_with('`')) && starts_query(&l[i..]) {
                let rest = l[i..].split('`').next().unwrap_or("");
                candidates.push(clean(rest));
            }
        }
    }
    candidates.retain(|c| !c.is_empty());
    if let Some(q) = candidates.iter().find(|c| parses(c)) {
        return q.clone();
    }
    candidates
        .into_iter()
        .next()
        .unwrap_or_else(|| clean(reply))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_of_replies() {
        let q = "MATCH (p:Person) RETURN p.name";
        for reply in [
            format!("```cypher\n{q}\n```"),
            format!("Here is the query:\n\n```cypher\n{q};\n```\n\nIt finds every person."),
            format!("```\n{q}\n```"),
            format!("Sure! ```{q}```"),
            q.to_string(),
            format!("{q};"),
            format!("The query is:\n{q}\n\nThis returns the names."),
            format!("Cypher: {q}"),
            format!("Use `{q}` to get them."),
            format!("{{\"cypher\": \"{q}\"}}"),
            format!("```json\n{{\"query\": \"{q}\"}}\n```"),
            format!("~~~cypher\n{q}\n~~~"),
            format!("```python\nprint(1)\n```\n```cypher\n{q}\n```"),
        ] {
            assert_eq!(extract_cypher(&reply), q, "{reply}");
        }
        // Multi-line queries keep their lines; prose right after them is cut.
        let ml = "MATCH (p:Person)\nWHERE p.age > 3\nRETURN p.name";
        assert_eq!(
            extract_cypher(&format!("{ml}\nThis query filters people.")),
            ml
        );
        // Nothing that parses: the likeliest text comes back, for the report to show.
        assert_eq!(
            extract_cypher("```cypher\nMATCH (p RETURN p\n```"),
            "MATCH (p RETURN p"
        );
        assert_eq!(extract_cypher("I don't know."), "I don't know.");
        assert_eq!(extract_cypher(""), "");
    }
}
