//! The schema text LLM prompts carry, as LangChain's `Neo4jGraph.schema` and its ports
//! (LlamaIndex, LangChain.js, LangChain4j) write it:
//!
//! ```text
//! Node properties are the following:
//! Person {name: STRING, age: INTEGER}
//! Relationship properties are the following:
//! KNOWS {since: INTEGER}
//! The relationships are the following:
//! (:Person)-[:KNOWS]->(:Person)
//! ```
//!
//! The reader takes entries separated by commas or new lines, an optional `:` before a label
//! (LangChain4j), `Label {}` for a label without properties, and the shorter headings of
//! neo4j-graphrag's `format_schema` ("Node properties:", "Relationship properties:", "The
//! relationships:"). The writer puts one entry per line and lists every label, with `{}` when
//! it has no properties, so that reading it back loses nothing but descriptions.

use super::{Element, Property, Schema, SchemaError, SchemaFormat, Triple, Written};
use std::collections::BTreeMap;

const F: SchemaFormat = SchemaFormat::Prompt;

#[derive(Clone, Copy, PartialEq)]
enum Section {
    None,
    Nodes,
    Rels,
    Triples,
}

fn heading(line: &str) -> Option<(Section, &str)> {
    let l = line.trim_start();
    for (prefixes, s) in [
        (
            &["Node properties are the following:", "Node properties:"][..],
            Section::Nodes,
        ),
        (
            &[
                "Relationship properties are the following:",
                "Relationship properties:",
            ][..],
            Section::Rels,
        ),
        (
            &["The relationships are the following:", "The relationships:"][..],
            Section::Triples,
        ),
    ] {
        for p in prefixes {
            if let Some(rest) = l.strip_prefix(p) {
                return Some((s, rest));
            }
        }
    }
    None
}

/// LangChain's enhanced schema (`Neo4jGraph(enhanced_schema=True)`, and the schemas of Neo4j's
/// text2cypher datasets): an element per `- **Name**` line, a property per indented
/// `` - `key`: TYPE … `` (nodes) or `` - `key: TYPE` … `` (relationships) line; what follows
/// the type (examples, ranges, `Available options`) is not schema and is skipped, as are lines
/// that continue a long example.
fn read_enhanced(text: &str, what: &str) -> Result<BTreeMap<String, Element>, SchemaError> {
    let mut out: BTreeMap<String, Element> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("- **") {
            let name = rest.split("**").next().unwrap_or("").trim();
            if name.is_empty() {
                return Err(SchemaError::invalid(
                    F,
                    format!("{what}: an entry has no name"),
                ));
            }
            out.entry(name.to_string()).or_default();
            current = Some(name.to_string());
            continue;
        }
        let Some(rest) = t.strip_prefix("- `") else {
            continue;
        };
        let Some(element) = &current else {
            return Err(SchemaError::invalid(
                F,
                format!("{what}: a property before the first `- **Name**` entry: `{t}`"),
            ));
        };
        // `key`: TYPE …  or  `key: TYPE` …
        let (key, ty) = match rest.split_once('`') {
            Some((inner, _)) if inner.contains(':') => {
                let (k, ty) = inner.split_once(':').unwrap_or((inner, ""));
                (k.trim().to_string(), ty.trim().to_string())
            }
            Some((k, after)) => {
                let ty = after.trim_start().trim_start_matches(':').trim_start();
                (k.trim().to_string(), ty.to_string())
            }
            None => continue,
        };
        let first = ty.split_whitespace().next().unwrap_or("");
        if key.is_empty() || first.is_empty() {
            return Err(SchemaError::invalid(
                F,
                format!("{what}: `{element}`: expected `` `key`: TYPE ``, found `{t}`"),
            ));
        }
        let ty = super::parse_type(F, first)?;
        if let Some(e) = out.get_mut(element) {
            e.properties.insert(key, Property::new(ty));
        }
    }
    Ok(out)
}

/// `Name {k: T, …}` entries separated by commas or new lines, or the enhanced form.
fn read_elements(text: &str, what: &str) -> Result<BTreeMap<String, Element>, SchemaError> {
    if text
        .lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim_start().starts_with("- **"))
    {
        return read_enhanced(text, what);
    }
    let mut out = BTreeMap::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && (chars[i].is_whitespace() || chars[i] == ',') {
            i += 1;
        }
        if i >= chars.len() {
            break;
        }
        if chars[i] == ':' {
            i += 1;
        }
        let start = i;
        while i < chars.len() && chars[i] != '{' && chars[i] != ',' && chars[i] != '\n' {
            i += 1;
        }
        let name: String = chars[start..i]
            .iter()
            .collect::<String>()
            .trim()
            .to_string();
        let name = name.trim_matches('`').to_string();
        if name.is_empty() {
            return Err(SchemaError::invalid(
                F,
                format!("{what}: an entry has no name"),
            ));
        }
        let mut props = BTreeMap::new();
        if i < chars.len() && chars[i] == '{' {
            let open = i;
            let mut depth = 0usize;
            while i < chars.len() {
                match chars[i] {
                    '{' | '<' | '(' | '[' => depth += 1,
                    '}' | '>' | ')' | ']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            if i >= chars.len() {
                return Err(SchemaError::invalid(
                    F,
                    format!("{what}: `{name}`: unclosed `{{`"),
                ));
            }
            let body: String = chars[open + 1..i].iter().collect();
            i += 1;
            for part in split_top(&body) {
                let part = part.trim();
                if part.is_empty() {
                    continue;
                }
                let (k, t) = part.split_once(':').ok_or_else(|| {
                    SchemaError::invalid(
                        F,
                        format!("{what}: `{name}`: expected `key: TYPE`, found `{part}`"),
                    )
                })?;
                props.insert(
                    k.trim().trim_matches('`').to_string(),
                    Property::new(super::parse_type(F, t)?),
                );
            }
        }
        out.entry(name)
            .or_insert_with(Element::default)
            .properties
            .extend(props);
    }
    Ok(out)
}

fn split_top(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// `(:A)-[:T]->(:B)` (or `<-`) entries separated by commas or new lines.
fn read_triples(text: &str) -> Result<Vec<Triple>, SchemaError> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if rest.is_empty() {
            break;
        }
        let bad = |r: &str| {
            let shown: String = r.chars().take(40).collect();
            SchemaError::invalid(
                F,
                format!("relationships: expected `(:A)-[:T]->(:B)`, found `{shown}`"),
            )
        };
        let node = |r: &str| -> Option<(String, usize)> {
            let r2 = r.strip_prefix('(')?;
            let close = r2.find(')')?;
            let name = r2[..close]
                .trim()
                .trim_start_matches(':')
                .trim()
                .trim_matches('`');
            Some((name.to_string(), close + 2))
        };
        let (a, n) = node(rest).ok_or_else(|| bad(rest))?;
        let mut r = rest[n..].trim_start();
        let left = r.starts_with("<-");
        r = r
            .strip_prefix("<-")
            .or_else(|| r.strip_prefix('-'))
            .ok_or_else(|| bad(rest))?;
        let r2 = r.trim_start().strip_prefix('[').ok_or_else(|| bad(rest))?;
        let close = r2.find(']').ok_or_else(|| bad(rest))?;
        let t = r2[..close]
            .trim()
            .trim_start_matches(':')
            .trim()
            .trim_matches('`')
            .to_string();
        let mut r3 = r2[close + 1..].trim_start();
        let right = r3.starts_with("->");
        r3 = r3
            .strip_prefix("->")
            .or_else(|| r3.strip_prefix('-'))
            .ok_or_else(|| bad(rest))?;
        let r3 = r3.trim_start();
        let (b, m) = node(r3).ok_or_else(|| bad(rest))?;
        if a.is_empty() || b.is_empty() || t.is_empty() || left == right {
            return Err(bad(rest));
        }
        out.push(if left {
            Triple::new(&b, &t, &a)
        } else {
            Triple::new(&a, &t, &b)
        });
        rest = &r3[m..];
    }
    Ok(out)
}

pub(crate) fn read(text: &str) -> Result<Schema, SchemaError> {
    let mut sections: BTreeMap<u8, String> = BTreeMap::new();
    let mut current = Section::None;
    let mut seen = false;
    for line in text.lines() {
        if let Some((s, rest)) = heading(line) {
            current = s;
            seen = true;
            push(&mut sections, s, rest);
            continue;
        }
        if current == Section::None {
            if line.trim().is_empty() {
                continue;
            }
            return Err(SchemaError::invalid(
                F,
                format!("text before the first heading: `{}`", line.trim()),
            ));
        }
        push(&mut sections, current, line);
    }
    if !seen {
        return Err(SchemaError::invalid(
            F,
            "no \"Node properties are the following:\" heading",
        ));
    }
    let get = |s: Section| sections.get(&(s as u8)).cloned().unwrap_or_default();
    let mut schema = Schema {
        labels: read_elements(&get(Section::Nodes), "node properties")?,
        relationship_types: read_elements(&get(Section::Rels), "relationship properties")?,
        ..Schema::default()
    };
    schema.triples.extend(read_triples(&get(Section::Triples))?);
    Ok(schema)
}

fn push(sections: &mut BTreeMap<u8, String>, s: Section, text: &str) {
    let e = sections.entry(s as u8).or_default();
    e.push_str(text);
    e.push('\n');
}

fn entry(name: &str, props: &[(&str, &Property)]) -> String {
    let body: Vec<String> = props
        .iter()
        .map(|(k, p)| format!("{k}: {}", p.ty))
        .collect();
    format!("{name} {{{}}}", body.join(", "))
}

pub(crate) fn write(schema: &Schema) -> Written {
    let mut warnings = Vec::new();
    if !schema.any_label_properties.is_empty() {
        warnings.push("properties declared for any label were copied onto every label".to_string());
    }
    if schema
        .labels
        .values()
        .chain(schema.relationship_types.values())
        .any(|e| e.description.is_some() || e.properties.values().any(|p| p.description.is_some()))
    {
        warnings.push("descriptions were dropped".to_string());
    }
    let mut out = String::from("Node properties are the following:\n");
    for label in schema.labels.keys() {
        out.push_str(&entry(label, &schema.label_properties(label)));
        out.push('\n');
    }
    out.push_str("Relationship properties are the following:\n");
    for (t, e) in &schema.relationship_types {
        let has_triple = schema.triples.iter().any(|x| &x.rel_type == t);
        if !e.properties.is_empty() || !has_triple {
            let props: Vec<(&str, &Property)> =
                e.properties.iter().map(|(k, p)| (k.as_str(), p)).collect();
            out.push_str(&entry(t, &props));
            out.push('\n');
        }
    }
    out.push_str("The relationships are the following:\n");
    for t in &schema.triples {
        out.push_str(&t.to_string());
        out.push('\n');
    }
    Written {
        text: out,
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::PropertyType;

    #[test]
    fn reads_langchain_comma_separated_and_langchain4j_forms() {
        let lc = "Node properties are the following:\nMovie {imdbRating: FLOAT, id: STRING, released: DATE, title: STRING},Person {name: STRING},Genre {name: STRING}\nRelationship properties are the following:\n\nThe relationships are the following:\n(:Movie)-[:IN_GENRE]->(:Genre),(:Person)-[:DIRECTED]->(:Movie),(:Person)-[:ACTED_IN]->(:Movie)";
        let mut s = read(lc).unwrap();
        s.complete();
        assert_eq!(s.labels.len(), 3);
        assert_eq!(
            s.node_property("Movie", "released").unwrap().ty,
            PropertyType::Date
        );
        assert!(s.has_triple("Person", "ACTED_IN", "Movie"));
        let l4j = "Node properties are the following:\n:Book {title: STRING}\n:Person {name: STRING}\n\nRelationship properties are the following:\n:WROTE {when: DATE}\n\nThe relationships are the following:\n(:Person)-[:WROTE]->(:Book)\n";
        let s = read(l4j).unwrap();
        assert!(s.relationship_property("WROTE", "when").is_some());
        assert!(s.node_property("Book", "title").is_some());
        let graphrag = "Node properties:\nPerson {name: STRING, tags: LIST<STRING>}\nRelationship properties:\nThe relationships:\n(:Person)<-[:KNOWS]-(:Person)\n";
        let s = read(graphrag).unwrap();
        assert_eq!(
            s.node_property("Person", "tags").unwrap().ty,
            PropertyType::List(Box::new(PropertyType::String))
        );
        assert!(s.has_triple("Person", "KNOWS", "Person"));
        assert!(read("Person {name: STRING}").is_err());
        assert!(read("Node properties:\nPerson {name STRING}").is_err());
        assert!(read("The relationships:\n(:A)-[:R]-(:B)").is_err());
    }

    #[test]
    fn reads_langchain_s_enhanced_schema() {
        let text = "Node properties:\n- **Movie**\n  - `url`: STRING Example: \"https://x/1\"\n  - `runtime`: INTEGER Min: 2, Max: 910\n  - `countries`: LIST Min Size: 1, Max Size: 16\n  - `plot`: STRING Example: \"A cowboy doll,\n   and more\"\n- **Genre**\n  - `name`: STRING Available options: ['Action', 'Drama']\n- **Lonely**\nRelationship properties:\n- **RATED**\n  - `rating: FLOAT` Example: \"2.0\"\n  - `when: DATE_TIME` \nThe relationships:\n(:Movie)-[:IN_GENRE]->(:Genre)\n(:User)-[:RATED]->(:Movie)\n";
        let mut s = read(text).unwrap();
        s.complete();
        assert_eq!(
            s.node_property("Movie", "runtime").unwrap().ty,
            PropertyType::Integer
        );
        assert!(matches!(
            s.node_property("Movie", "countries").unwrap().ty,
            PropertyType::List(_)
        ));
        assert_eq!(
            s.node_property("Genre", "name").unwrap().ty,
            PropertyType::String
        );
        assert_eq!(s.label_properties("Movie").len(), 4);
        assert!(s.has_label("Lonely"));
        assert_eq!(
            s.relationship_property("RATED", "rating").unwrap().ty,
            PropertyType::Float
        );
        assert_eq!(
            s.relationship_property("RATED", "when").unwrap().ty,
            PropertyType::DateTime
        );
        assert!(s.has_triple("User", "RATED", "Movie"));
        assert!(read("Node properties:\n- **A**\n  - `x`: \n").is_err());
    }

    #[test]
    fn writing_then_reading_is_lossless_without_descriptions() {
        let mut s = Schema::default();
        s.labels.insert("Lonely".into(), Element::default());
        s.labels
            .entry("A".into())
            .or_default()
            .properties
            .insert("n".into(), Property::new(PropertyType::Integer));
        s.relationship_types
            .entry("R".into())
            .or_default()
            .properties
            .insert("w".into(), Property::new(PropertyType::Float));
        s.relationship_types
            .insert("UNUSED".into(), Element::default());
        s.triples.insert(Triple::new("A", "R", "B"));
        s.triples.insert(Triple::new("A", "S", "A"));
        s.complete();
        let w = write(&s);
        assert!(w.warnings.is_empty());
        let mut again = read(&w.text).unwrap();
        again.complete();
        assert_eq!(again, s, "{}", w.text);
    }
}
