//! `grape textsim`.

use super::*;

pub(super) fn cmd_textsim(
    path: &std::path::Path,
    json: bool,
    variant: grape::metrics::TextVariant,
) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut bad = 0usize;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let rec: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: {}:{}: not valid JSON: {e}", path.display(), i + 1);
                bad += 1;
                continue;
            }
        };
        let (Some(a), Some(b)) = (rec["a"].as_str(), rec["b"].as_str()) else {
            eprintln!(
                "error: {}:{}: expected string fields `a` and `b`",
                path.display(),
                i + 1
            );
            bad += 1;
            continue;
        };
        let id = match &rec["id"] {
            serde_json::Value::Null => {
                serde_json::Value::from(format!("{}:{}", path.display(), i + 1))
            }
            other => other.clone(),
        };
        let s = grape::metrics::text_scores(a, b, variant);
        if json {
            let mut o = serde_json::json!({
                "id": id,
                "jaro_winkler": s.jaro_winkler,
                "normalized_levenshtein": s.normalized_levenshtein,
            });
            if s.canonical_fallback {
                o["canonical_fallback"] = serde_json::Value::Bool(true);
            }
            let _ = writeln!(out, "{o}");
        } else {
            let _ = writeln!(
                out,
                "{id}\tjaro_winkler {:.6}\tnormalized_levenshtein {:.6}{}",
                s.jaro_winkler,
                s.normalized_levenshtein,
                if s.canonical_fallback {
                    "\t(canonical: a query does not parse; default used)"
                } else {
                    ""
                }
            );
        }
    }
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
