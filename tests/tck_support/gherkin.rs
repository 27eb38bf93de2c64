//! A small Gherkin reader for the openCypher TCK: Feature, Background, Scenario, Scenario
//! Outline with Examples, steps with doc strings and data tables, tags and comments.

/// One step: its keyword-less text, and an optional doc string or table.
#[derive(Clone, Debug)]
pub struct Step {
    pub text: String,
    pub doc: Option<String>,
    pub table: Option<Vec<Vec<String>>>,
    pub line: usize,
}

/// A runnable scenario (outlines are expanded, one per example row).
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Stable id: `path/File.feature:[n] Name` plus `#k` for the k-th example row.
    pub id: String,
    pub steps: Vec<Step>,
}

fn is_step(line: &str) -> Option<&str> {
    for kw in ["Given ", "When ", "Then ", "And ", "But ", "* "] {
        if let Some(rest) = line.strip_prefix(kw) {
            return Some(rest);
        }
    }
    None
}

fn table_row(line: &str) -> Vec<String> {
    // Cells are separated by unescaped `|`; as in Gherkin, `\|` is a literal bar, `\\` a
    // backslash and `\n` a newline.
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some('|' | '\\' | 'n')) => {
                cur.push(match chars.next() {
                    Some('n') => '\n',
                    Some(c) => c,
                    None => '\\',
                });
            }
            '|' => {
                cells.push(cur.trim().to_string());
                cur.clear();
            }
            _ => cur.push(c),
        }
    }
    cells.push(cur.trim().to_string());
    cells
}

struct RawScenario {
    name: String,
    outline: bool,
    steps: Vec<Step>,
    examples: Vec<Vec<Vec<String>>>,
}

/// Parses a feature file. `path` is used in ids. Tags are read and ignored: every scenario runs.
pub fn parse_feature(path: &str, text: &str) -> Vec<Scenario> {
    let lines: Vec<&str> = text.lines().collect();
    let mut background: Vec<Step> = Vec::new();
    let mut scenarios: Vec<RawScenario> = Vec::new();
    let mut pending_tags: Vec<String> = Vec::new();
    // Where steps go: 0 = background, 1 = current scenario.
    let mut target = 0;
    let mut in_examples = false;
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        let line = raw.trim();
        i += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('@') {
            pending_tags.extend(line.split_whitespace().map(str::to_string));
            continue;
        }
        if line.starts_with("Feature:") {
            pending_tags.clear();
            continue;
        }
        if line.starts_with("Background:") {
            target = 0;
            in_examples = false;
            continue;
        }
        if let Some(rest) = line
            .strip_prefix("Scenario Outline:")
            .or_else(|| line.strip_prefix("Scenario Template:"))
        {
            scenarios.push(RawScenario {
                name: rest.trim().to_string(),
                outline: true,
                steps: vec![],
                examples: vec![],
            });
            target = 1;
            in_examples = false;
            continue;
        }
        if let Some(rest) = line.strip_prefix("Scenario:") {
            scenarios.push(RawScenario {
                name: rest.trim().to_string(),
                outline: false,
                steps: vec![],
                examples: vec![],
            });
            target = 1;
            in_examples = false;
            continue;
        }
        if line.starts_with("Examples:") || line.starts_with("Scenarios:") {
            in_examples = true;
            pending_tags.clear();
            if let Some(s) = scenarios.last_mut() {
                s.examples.push(Vec::new());
            }
            continue;
        }
        if line.starts_with('|') {
            if in_examples {
                if let Some(ex) = scenarios.last_mut().and_then(|s| s.examples.last_mut()) {
                    ex.push(table_row(line));
                }
                continue;
            }
            let steps = if target == 0 {
                &mut background
            } else {
                match scenarios.last_mut() {
                    Some(s) => &mut s.steps,
                    None => continue,
                }
            };
            if let Some(st) = steps.last_mut() {
                st.table.get_or_insert_with(Vec::new).push(table_row(line));
            }
            continue;
        }
        if line.starts_with("\"\"\"") {
            // A doc string: keep its lines, minus the opening line's indentation.
            let indent = raw.len() - raw.trim_start().len();
            let mut doc = Vec::new();
            while i < lines.len() && !lines[i].trim().starts_with("\"\"\"") {
                let l = lines[i];
                let cut = l.len() - l.trim_start().len();
                doc.push(&l[cut.min(indent)..]);
                i += 1;
            }
            i += 1;
            let steps = if target == 0 {
                &mut background
            } else {
                match scenarios.last_mut() {
                    Some(s) => &mut s.steps,
                    None => continue,
                }
            };
            if let Some(st) = steps.last_mut() {
                st.doc = Some(doc.join("\n"));
            }
            continue;
        }
        if let Some(text) = is_step(line) {
            let step = Step {
                text: text.to_string(),
                doc: None,
                table: None,
                line: i,
            };
            if target == 0 {
                background.push(step);
            } else if let Some(s) = scenarios.last_mut() {
                s.steps.push(step);
            }
        }
    }

    let mut out = Vec::new();
    for s in scenarios {
        let base_id = format!("{path}:{}", s.name);
        let mut steps = background.clone();
        steps.extend(s.steps.iter().cloned());
        if !s.outline {
            out.push(Scenario { id: base_id, steps });
            continue;
        }
        let mut k = 0;
        for ex in &s.examples {
            let Some((header, rows)) = ex.split_first() else {
                continue;
            };
            for row in rows {
                let subst = |t: &str| -> String {
                    let mut t = t.to_string();
                    for (h, v) in header.iter().zip(row) {
                        t = t.replace(&format!("<{h}>"), v);
                    }
                    t
                };
                let steps = steps
                    .iter()
                    .map(|st| Step {
                        text: subst(&st.text),
                        doc: st.doc.as_deref().map(subst),
                        table: st.table.as_ref().map(|t| {
                            t.iter()
                                .map(|r| r.iter().map(|c| subst(c)).collect())
                                .collect()
                        }),
                        line: st.line,
                    })
                    .collect();
                out.push(Scenario {
                    id: format!("{base_id}#{k}"),
                    steps,
                });
                k += 1;
            }
        }
    }
    out
}

/// Every scenario of the `.feature` files under `features`, files in path order, ids relative
/// to `features`.
pub fn read_features(features: &std::path::Path) -> Vec<Scenario> {
    fn collect(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                collect(&p, out);
            } else if p.extension().is_some_and(|x| x == "feature") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    collect(features, &mut files);
    let mut out = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(features)
            .unwrap_or(f)
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        out.extend(parse_feature(&rel, &text));
    }
    out
}
