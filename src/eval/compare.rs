//! Comparing evaluation runs: is a difference real?
//!
//! Each run after the first is compared with the first (the baseline) on the examples both
//! scored (same id, gold query ran in both). Per metric: both means, the mean difference (run
//! minus baseline) with a **paired percentile-bootstrap 95% interval** (examples resampled with
//! replacement, seeded), and a two-sided p-value — **McNemar's exact test** for binary metrics
//! (every value 0 or 1 in both runs: EX, KG-valid, valid syntax, Pass@k, …; the exact binomial
//! test on the discordant pairs, `p = min(1, 2·P(X ≤ min(b, c)))` with `X ~ Bin(b + c, ½)`), a
//! **paired permutation test** for graded ones (signs of the per-example differences flipped at
//! random; `p = (1 + #{|Σ ± d| ≥ |Σ d|}) / (1 + R)`, or exact over every sign pattern when at
//! most 16 differences are non-zero). The same per value of every category field (hops, query
//! type, split, …), and the examples whose binary metrics flipped.

// The escaping JUnit's XML needs is what HTML text and attributes need too.
use super::junit::xml_text as html_escape;
use super::{id_key, record_groups, ExampleRecord};
use crate::rng::SplitMix64;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Why runs cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: not an example record: {message}")]
    Record {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("compare needs at least two runs")]
    TooFewRuns,
}

/// Options of a comparison.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Bootstrap resamples for the intervals.
    pub resamples: usize,
    /// Random sign patterns of the permutation test (when it is not exact).
    pub permutations: usize,
    pub seed: u64,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            resamples: 10_000,
            permutations: 10_000,
            seed: 0x67_72_61_70_65,
        }
    }
}

/// One evaluation run: its label and records.
#[derive(Clone, Debug)]
pub struct Run {
    pub label: String,
    pub records: Vec<ExampleRecord>,
}

impl Run {
    /// Reads a run: an output folder of `grape eval --out` (its `examples.jsonl`) or a records
    /// file. A record that cannot be read is an error naming the file and line (an unfinished
    /// last line, as a killed run leaves, is skipped).
    pub fn read(path: &Path) -> Result<Run, CompareError> {
        let file = if path.is_dir() {
            path.join("examples.jsonl")
        } else {
            path.to_path_buf()
        };
        let text = std::fs::read_to_string(&file).map_err(|source| CompareError::Read {
            path: file.clone(),
            source,
        })?;
        let lines: Vec<&str> = text.lines().collect();
        let mut records = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<ExampleRecord>(line) {
                Ok(r) => records.push(r),
                Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => {}
                Err(e) => {
                    return Err(CompareError::Record {
                        path: file,
                        line: i + 1,
                        message: e.to_string(),
                    })
                }
            }
        }
        Ok(Run {
            label: path.display().to_string(),
            records,
        })
    }
}

/// One metric compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricDiff {
    pub metric: String,
    /// Examples with the metric in both runs.
    pub n: usize,
    pub baseline: f64,
    pub run: f64,
    /// `run - baseline`.
    pub diff: f64,
    /// Paired bootstrap 95% interval of the difference.
    pub ci95: [f64; 2],
    /// `mcnemar-exact` or `paired-permutation`.
    pub test: &'static str,
    pub p_value: f64,
    /// McNemar's discordant pairs: `[1 in the baseline only, 1 in the run only]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discordant: Option<[usize; 2]>,
}

/// An example whose binary metric changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Flip {
    pub id: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub question: String,
    pub gold: String,
    pub baseline_prediction: Option<String>,
    pub run_prediction: Option<String>,
}

/// The flips of one binary metric.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Flips {
    /// 1 in the baseline, 0 in the run.
    pub lost: Vec<Flip>,
    /// 0 in the baseline, 1 in the run.
    pub gained: Vec<Flip>,
}

/// One run against the baseline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunComparison {
    pub run: String,
    /// Examples both runs scored.
    pub shared: usize,
    /// Scored only by the baseline, only by this run.
    pub only_baseline: usize,
    pub only_run: usize,
    pub metrics: Vec<MetricDiff>,
    /// Category field → value → the metrics compared on those examples.
    pub by: BTreeMap<String, BTreeMap<String, Vec<MetricDiff>>>,
    /// Binary metric → the examples that flipped.
    pub flipped: BTreeMap<String, Flips>,
}

/// A comparison of runs with the first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub baseline: String,
    pub runs: Vec<RunComparison>,
}

fn scored(r: &ExampleRecord) -> bool {
    r.gold_error.is_none() && !r.metrics.is_empty()
}

/// Compares every run after the first with the first.
pub fn compare(runs: &[Run], opts: &CompareOptions) -> Result<Comparison, CompareError> {
    let (base, rest) = runs.split_first().ok_or(CompareError::TooFewRuns)?;
    if rest.is_empty() {
        return Err(CompareError::TooFewRuns);
    }
    let base_by_id: HashMap<&str, &ExampleRecord> = base
        .records
        .iter()
        .filter(|r| scored(r))
        .map(|r| (r.id.as_str(), r))
        .collect();
    let runs = rest
        .iter()
        .map(|run| {
            let run_by_id: HashMap<&str, &ExampleRecord> = run
                .records
                .iter()
                .filter(|r| scored(r))
                .map(|r| (r.id.as_str(), r))
                .collect();
            let mut pairs: Vec<(&ExampleRecord, &ExampleRecord)> = base_by_id
                .iter()
                .filter_map(|(id, a)| run_by_id.get(id).map(|b| (*a, *b)))
                .collect();
            pairs.sort_by_cached_key(|(a, _)| id_key(&a.id));
            let shared = pairs.len();
            let metrics = diffs(&pairs, opts);
            let mut groups: BTreeMap<(&str, &str), Vec<(&ExampleRecord, &ExampleRecord)>> =
                BTreeMap::new();
            for p in &pairs {
                for g in record_groups(p.0) {
                    groups.entry(g).or_default().push(*p);
                }
            }
            let mut by: BTreeMap<String, BTreeMap<String, Vec<MetricDiff>>> = BTreeMap::new();
            for ((field, value), ps) in groups {
                by.entry(field.to_string())
                    .or_default()
                    .insert(value.to_string(), diffs(&ps, opts));
            }
            let mut flipped = BTreeMap::new();
            for m in metrics.iter().filter(|m| m.test == MCNEMAR) {
                let mut f = Flips::default();
                for (a, b) in &pairs {
                    let (Some(x), Some(y)) = (a.metrics.get(&m.metric), b.metrics.get(&m.metric))
                    else {
                        continue;
                    };
                    let flip = || Flip {
                        id: a.id.clone(),
                        question: a.question.clone(),
                        gold: a.gold.clone(),
                        baseline_prediction: a.prediction.clone(),
                        run_prediction: b.prediction.clone(),
                    };
                    if *x == 1.0 && *y == 0.0 {
                        f.lost.push(flip());
                    } else if *x == 0.0 && *y == 1.0 {
                        f.gained.push(flip());
                    }
                }
                flipped.insert(m.metric.clone(), f);
            }
            RunComparison {
                run: run.label.clone(),
                shared,
                only_baseline: base_by_id.len() - shared,
                only_run: run_by_id.len() - shared,
                metrics,
                by,
                flipped,
            }
        })
        .collect();
    Ok(Comparison {
        baseline: base.label.clone(),
        runs,
    })
}

const MCNEMAR: &str = "mcnemar-exact";
const PERMUTATION: &str = "paired-permutation";

/// Every metric both records of the pairs have, compared.
fn diffs(pairs: &[(&ExampleRecord, &ExampleRecord)], opts: &CompareOptions) -> Vec<MetricDiff> {
    let mut names: Vec<&String> = pairs.iter().flat_map(|(a, _)| a.metrics.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter_map(|m| {
            let (xs, ys): (Vec<f64>, Vec<f64>) = pairs
                .iter()
                .filter_map(|(a, b)| Some((*a.metrics.get(m)?, *b.metrics.get(m)?)))
                .unzip();
            metric_diff(m, &xs, &ys, opts)
        })
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn metric_diff(metric: &str, xs: &[f64], ys: &[f64], opts: &CompareOptions) -> Option<MetricDiff> {
    if xs.is_empty() {
        return None;
    }
    let d: Vec<f64> = xs.iter().zip(ys).map(|(x, y)| y - x).collect();
    let binary = xs.iter().chain(ys).all(|v| *v == 0.0 || *v == 1.0);
    let (test, p_value, discordant) = if binary {
        let b = xs
            .iter()
            .zip(ys)
            .filter(|(x, y)| **x == 1.0 && **y == 0.0)
            .count();
        let c = xs
            .iter()
            .zip(ys)
            .filter(|(x, y)| **x == 0.0 && **y == 1.0)
            .count();
        (MCNEMAR, mcnemar_exact(b, c), Some([b, c]))
    } else {
        (
            PERMUTATION,
            paired_permutation_p(&d, opts.permutations, opts.seed),
            None,
        )
    };
    Some(MetricDiff {
        metric: metric.to_string(),
        n: xs.len(),
        baseline: mean(xs),
        run: mean(ys),
        diff: mean(&d),
        ci95: paired_bootstrap_ci95(&d, opts.resamples, opts.seed),
        test,
        p_value,
        discordant,
    })
}

/// McNemar's exact test: the two-sided binomial test of `b` successes in `b + c` trials at ½.
/// The tail `P(X ≤ k)` is summed from its largest term down by the recurrence
/// `P(i - 1) = P(i) · i / (n - i + 1)`, with `ln P(k)` from `Σ ln((n - k + i) / i)`: k
/// roundings, not n, so the p-value keeps about 13 significant digits for thousands of pairs.
pub fn mcnemar_exact(b: usize, c: usize) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    let ln_choose: f64 = (1..=k).map(|i| ((n - k + i) as f64 / i as f64).ln()).sum();
    let mut term = (ln_choose + n as f64 * 0.5f64.ln()).exp();
    let mut tail = 0.0;
    for i in (0..=k).rev() {
        tail += term;
        if i > 0 {
            term *= i as f64 / (n - i + 1) as f64;
        }
    }
    (2.0 * tail).min(1.0)
}

/// The paired permutation (sign-flip) test of the mean difference being 0.
pub fn paired_permutation_p(d: &[f64], permutations: usize, seed: u64) -> f64 {
    let nz: Vec<f64> = d.iter().copied().filter(|x| *x != 0.0).collect();
    if nz.is_empty() {
        return 1.0;
    }
    let observed: f64 = nz.iter().sum::<f64>().abs();
    // Sums equal to the observed one up to rounding count as reaching it.
    let reaches = |s: f64| s.abs() >= observed - 1e-12 * (1.0 + observed);
    if nz.len() <= 16 {
        let total = 1u32 << nz.len();
        let hits = (0..total)
            .filter(|mask| {
                let s: f64 = nz
                    .iter()
                    .enumerate()
                    .map(|(i, x)| if mask >> i & 1 == 1 { -x } else { *x })
                    .sum();
                reaches(s)
            })
            .count();
        return hits as f64 / f64::from(total);
    }
    let mut rng = SplitMix64(seed ^ 0x5eed);
    let mut hits = 0usize;
    for _ in 0..permutations {
        let mut s = 0.0;
        let mut bits = 0u64;
        for (i, x) in nz.iter().enumerate() {
            if i % 64 == 0 {
                bits = rng.next();
            }
            s += if bits >> (i % 64) & 1 == 1 { -x } else { *x };
        }
        if reaches(s) {
            hits += 1;
        }
    }
    (1 + hits) as f64 / (1 + permutations) as f64
}

/// Paired percentile-bootstrap 95% interval of the mean difference.
pub fn paired_bootstrap_ci95(d: &[f64], resamples: usize, seed: u64) -> [f64; 2] {
    super::bootstrap_ci95(d, resamples.max(1), seed).unwrap_or([0.0, 0.0])
}

/// The comparison as pretty JSON (with a final newline).
pub fn comparison_json(c: &Comparison) -> String {
    let mut s = serde_json::to_string_pretty(c).unwrap_or_default();
    s.push('\n');
    s
}

fn p_text(p: f64) -> String {
    if p < 0.0001 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// The comparison as a terminal table: per run, the overall metrics, the flipped examples of
/// `focus` (EX by default) and its difference per category.
pub fn comparison_table(c: &Comparison, focus: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for r in &c.runs {
        let _ = writeln!(
            out,
            "{} vs {} (baseline): {} shared examples ({} only in the baseline, {} only in the run)",
            r.run, c.baseline, r.shared, r.only_baseline, r.only_run
        );
        let w = r
            .metrics
            .iter()
            .map(|m| m.metric.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = writeln!(
            out,
            "{:<w$}  {:>8}  {:>8}  {:>8}  {:>19}  {:>8}  test",
            "metric", "baseline", "run", "diff", "95% CI of diff", "p"
        );
        for m in &r.metrics {
            let _ = writeln!(
                out,
                "{:<w$}  {:>8.3}  {:>8.3}  {:>+8.3}  [{:>+8.3}, {:>+8.3}]  {:>8}  {}",
                m.metric,
                m.baseline,
                m.run,
                m.diff,
                m.ci95[0],
                m.ci95[1],
                p_text(m.p_value),
                m.test
            );
        }
        if let Some(f) = r.flipped.get(focus) {
            let ids = |v: &[Flip]| {
                let mut s: Vec<&str> = v.iter().take(20).map(|f| f.id.as_str()).collect();
                if v.len() > 20 {
                    s.push("…");
                }
                s.join(", ")
            };
            let _ = writeln!(
                out,
                "\n{focus} flipped: {} lost, {} gained",
                f.lost.len(),
                f.gained.len()
            );
            if !f.lost.is_empty() {
                let _ = writeln!(out, "  lost:   {}", ids(&f.lost));
            }
            if !f.gained.is_empty() {
                let _ = writeln!(out, "  gained: {}", ids(&f.gained));
            }
        }
        for (field, values) in &r.by {
            let _ = writeln!(out, "\n{focus} by {field}");
            for (value, ms) in values.iter().take(25) {
                if let Some(m) = ms.iter().find(|m| m.metric == focus) {
                    let _ = writeln!(
                        out,
                        "  {:<24} n={:<5} {:.3} → {:.3}  {:>+7.3}  p={}",
                        value,
                        m.n,
                        m.baseline,
                        m.run,
                        m.diff,
                        p_text(m.p_value)
                    );
                }
            }
        }
        out.push('\n');
    }
    out
}

/// The comparison as Markdown.
pub fn comparison_markdown(c: &Comparison, focus: &str) -> String {
    let esc = |s: &str| s.replace('|', "\\|");
    let mut md = format!("# grape comparison\n\nBaseline: `{}`.\n\n", c.baseline);
    for r in &c.runs {
        md.push_str(&format!(
            "## `{}`\n\n{} shared examples ({} only in the baseline, {} only in this run).\n\n",
            r.run, r.shared, r.only_baseline, r.only_run
        ));
        md.push_str("| metric | n | baseline | run | diff | 95% CI of diff | p | test |\n");
        md.push_str("|---|---:|---:|---:|---:|---|---:|---|\n");
        for m in &r.metrics {
            md.push_str(&format!(
                "| {} | {} | {:.3} | {:.3} | {:+.3} | [{:+.3}, {:+.3}] | {} | {} |\n",
                m.metric,
                m.n,
                m.baseline,
                m.run,
                m.diff,
                m.ci95[0],
                m.ci95[1],
                p_text(m.p_value),
                m.test
            ));
        }
        if let Some(f) = r.flipped.get(focus) {
            md.push_str(&format!(
                "\n### {focus}: {} lost, {} gained\n\n",
                f.lost.len(),
                f.gained.len()
            ));
            if !f.lost.is_empty() || !f.gained.is_empty() {
                md.push_str("| id | change | gold | baseline | run |\n|---|---|---|---|---|\n");
                for (what, list) in [("lost", &f.lost), ("gained", &f.gained)] {
                    for x in list {
                        md.push_str(&format!(
                            "| {} | {what} | `{}` | `{}` | `{}` |\n",
                            esc(&x.id),
                            esc(&x.gold.replace('\n', " ")),
                            esc(&x
                                .baseline_prediction
                                .clone()
                                .unwrap_or_default()
                                .replace('\n', " ")),
                            esc(&x
                                .run_prediction
                                .clone()
                                .unwrap_or_default()
                                .replace('\n', " ")),
                        ));
                    }
                }
            }
        }
        for (field, values) in &r.by {
            md.push_str(&format!(
                "\n### {focus} by `{field}`\n\n| value | n | baseline | run | diff | p |\n|---|---:|---:|---:|---:|---:|\n"
            ));
            for (value, ms) in values {
                if let Some(m) = ms.iter().find(|m| m.metric == focus) {
                    md.push_str(&format!(
                        "| {} | {} | {:.3} | {:.3} | {:+.3} | {} |\n",
                        esc(value),
                        m.n,
                        m.baseline,
                        m.run,
                        m.diff,
                        p_text(m.p_value)
                    ));
                }
            }
        }
        md.push('\n');
    }
    md
}

/// The comparison as a self-contained HTML page: per run, a chart per metric (both means as
/// bars, the difference's interval drawn beside them) and the tables of the Markdown form.
pub fn comparison_html(c: &Comparison, focus: &str) -> String {
    let mut h = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>grape comparison</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}td:first-child,th:first-child{text-align:left}.charts{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}figcaption{font-size:.9em}code{font-size:.85em}</style></head><body>\n",
    );
    h.push_str(&format!(
        "<h1>grape comparison</h1><p>Baseline: <code>{}</code></p>\n",
        html_escape(&c.baseline)
    ));
    for r in &c.runs {
        h.push_str(&format!(
            "<h2><code>{}</code></h2><p>{} shared examples ({} only in the baseline, {} only in this run).</p>\n<div class=\"charts\">\n",
            html_escape(&r.run),
            r.shared,
            r.only_baseline,
            r.only_run
        ));
        for m in &r.metrics {
            h.push_str(&metric_chart(m));
        }
        h.push_str("</div>\n<table><tr><th>metric</th><th>n</th><th>baseline</th><th>run</th><th>diff</th><th>95% CI of diff</th><th>p</th><th>test</th></tr>\n");
        for m in &r.metrics {
            h.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td><td>{:+.3}</td><td>[{:+.3}, {:+.3}]</td><td>{}</td><td>{}</td></tr>\n",
                html_escape(&m.metric),
                m.n,
                m.baseline,
                m.run,
                m.diff,
                m.ci95[0],
                m.ci95[1],
                p_text(m.p_value),
                m.test
            ));
        }
        h.push_str("</table>\n");
        if let Some(f) = r.flipped.get(focus) {
            h.push_str(&format!(
                "<h3>{}: {} lost, {} gained</h3>\n<table><tr><th>id</th><th>change</th><th>gold</th><th>baseline</th><th>run</th></tr>\n",
                html_escape(focus),
                f.lost.len(),
                f.gained.len()
            ));
            for (what, list) in [("lost", &f.lost), ("gained", &f.gained)] {
                for x in list {
                    h.push_str(&format!(
                        "<tr><td>{}</td><td>{what}</td><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td></tr>\n",
                        html_escape(&x.id),
                        html_escape(&x.gold),
                        html_escape(x.baseline_prediction.as_deref().unwrap_or("")),
                        html_escape(x.run_prediction.as_deref().unwrap_or("")),
                    ));
                }
            }
            h.push_str("</table>\n");
        }
    }
    h.push_str("</body></html>\n");
    h
}

/// A small SVG: the baseline's and the run's means as bars on [0, 1] (or the metrics' range),
/// and the difference with its interval on a scale centred at 0.
fn metric_chart(m: &MetricDiff) -> String {
    let hi = m.baseline.max(m.run).max(1.0);
    let bar = |v: f64| (v / hi * 200.0).clamp(0.0, 200.0);
    let span = m.ci95[0]
        .abs()
        .max(m.ci95[1].abs())
        .max(m.diff.abs())
        .max(0.05);
    let x = |v: f64| 110.0 + v / span * 90.0;
    format!(
        "<figure><svg width=\"300\" height=\"110\" viewBox=\"0 0 300 110\" role=\"img\" aria-label=\"{name}\">\
<text x=\"0\" y=\"14\" font-size=\"12\">baseline</text><rect x=\"60\" y=\"4\" width=\"{b:.1}\" height=\"14\" fill=\"#8899aa\"/><text x=\"{bt:.1}\" y=\"15\" font-size=\"11\">{bv:.3}</text>\
<text x=\"0\" y=\"36\" font-size=\"12\">run</text><rect x=\"60\" y=\"26\" width=\"{r:.1}\" height=\"14\" fill=\"#3366aa\"/><text x=\"{rt:.1}\" y=\"37\" font-size=\"11\">{rv:.3}</text>\
<line x1=\"110\" y1=\"52\" x2=\"110\" y2=\"80\" stroke=\"#999\"/>\
<line x1=\"{lo:.1}\" y1=\"66\" x2=\"{up:.1}\" y2=\"66\" stroke=\"{col}\" stroke-width=\"2\"/>\
<circle cx=\"{dx:.1}\" cy=\"66\" r=\"4\" fill=\"{col}\"/>\
<text x=\"0\" y=\"100\" font-size=\"11\">diff {d:+.3} [{l:+.3}, {u:+.3}], p {p}</text></svg>\
<figcaption>{name}</figcaption></figure>\n",
        name = html_escape(&m.metric),
        b = bar(m.baseline),
        bt = 64.0 + bar(m.baseline),
        bv = m.baseline,
        r = bar(m.run),
        rt = 64.0 + bar(m.run),
        rv = m.run,
        lo = x(m.ci95[0]),
        up = x(m.ci95[1]),
        dx = x(m.diff),
        col = if m.diff < 0.0 { "#b03030" } else { "#308030" },
        d = m.diff,
        l = m.ci95[0],
        u = m.ci95[1],
        p = p_text(m.p_value),
    )
}

/// A regression `--max-drop` names: the metric fell by more than its allowance and the drop is
/// significant at `alpha`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Regression {
    pub run: String,
    pub metric: String,
    pub drop: f64,
    pub allowed: f64,
    pub p_value: f64,
}

/// The regressions of a comparison under per-metric allowances (`ex=0.02`): a metric whose
/// mean dropped by more than its allowance with `p < alpha`. A metric named but absent from a
/// run's comparison is an error.
pub fn regressions(
    c: &Comparison,
    max_drop: &[(String, f64)],
    alpha: f64,
) -> Result<Vec<Regression>, String> {
    let mut out = Vec::new();
    for r in &c.runs {
        for (metric, allowed) in max_drop {
            let m = r
                .metrics
                .iter()
                .find(|m| &m.metric == metric)
                .ok_or_else(|| format!("no metric `{metric}` in the comparison of {}", r.run))?;
            if -m.diff > *allowed && m.p_value < alpha {
                out.push(Regression {
                    run: r.run.clone(),
                    metric: metric.clone(),
                    drop: -m.diff,
                    allowed: *allowed,
                    p_value: m.p_value,
                });
            }
        }
    }
    Ok(out)
}

/// Parses `ex=0.02,kg_valid=0.05` (metric thresholds of `--max-drop` / `--fail-under`).
pub fn parse_thresholds(s: &str) -> Result<Vec<(String, f64)>, String> {
    s.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let (m, v) = p
                .split_once('=')
                .ok_or_else(|| format!("`{p}`: expected METRIC=VALUE"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("`{p}`: `{v}` is not a number"))?;
            if !v.is_finite() {
                return Err(format!("`{p}`: the value must be finite"));
            }
            Ok((m.trim().to_string(), v))
        })
        .collect()
}

/// One row of a leaderboard: a run's label and report.
pub struct Entry {
    pub label: String,
    pub report: super::Report,
}

/// Reads a run's report: `report.json` in an output folder (or the file itself); when there is
/// none, the report is aggregated from the run's records.
pub fn read_entry(path: &Path) -> Result<Entry, CompareError> {
    let file = if path.is_dir() {
        path.join("report.json")
    } else {
        path.to_path_buf()
    };
    let label = path.display().to_string();
    if file.is_file() && file.extension().is_some_and(|e| e == "json") {
        let text = std::fs::read_to_string(&file).map_err(|source| CompareError::Read {
            path: file.clone(),
            source,
        })?;
        let report = serde_json::from_str(&text).map_err(|e| CompareError::Record {
            path: file.clone(),
            line: e.line(),
            message: e.to_string(),
        })?;
        return Ok(Entry { label, report });
    }
    let run = Run::read(path)?;
    Ok(Entry {
        label,
        report: super::aggregate(&run.records, Default::default()),
    })
}

/// The metrics a leaderboard shows: `wanted`, else the headline metrics any run has.
fn board_metrics(entries: &[Entry], wanted: &[String]) -> Vec<String> {
    if !wanted.is_empty() {
        return wanted.to_vec();
    }
    super::HEADLINE_METRICS
        .iter()
        .filter(|m| entries.iter().any(|e| e.report.overall.contains_key(**m)))
        .map(|m| m.to_string())
        .collect()
}

/// Runs ranked by the first metric (best first; runs without it last).
fn ranked<'e>(entries: &'e [Entry], first: Option<&String>) -> Vec<&'e Entry> {
    let mut v: Vec<&Entry> = entries.iter().collect();
    if let Some(m) = first {
        v.sort_by(|a, b| {
            let x = b
                .report
                .overall
                .get(m)
                .copied()
                .unwrap_or(f64::NEG_INFINITY);
            let y = a
                .report
                .overall
                .get(m)
                .copied()
                .unwrap_or(f64::NEG_INFINITY);
            x.total_cmp(&y)
        });
    }
    v
}

fn cell(e: &Entry, m: &str) -> String {
    match (e.report.overall.get(m), e.report.ci95.get(m)) {
        (Some(v), Some([lo, hi])) => format!("{v:.3} [{lo:.3}, {hi:.3}]"),
        (Some(v), None) => format!("{v:.3}"),
        (None, _) => "–".into(),
    }
}

/// A leaderboard of runs as Markdown: one row per run, ranked by the first metric, each mean
/// with its 95% interval.
pub fn leaderboard_markdown(entries: &[Entry], metrics: &[String]) -> String {
    let ms = board_metrics(entries, metrics);
    let mut md = String::from("| rank | run | examples | scored |");
    let mut rule = String::from("|---:|---|---:|---:|");
    for m in &ms {
        md.push_str(&format!(" {m} |"));
        rule.push_str("---:|");
    }
    md.push('\n');
    md.push_str(&rule);
    md.push('\n');
    for (i, e) in ranked(entries, ms.first()).into_iter().enumerate() {
        md.push_str(&format!(
            "| {} | `{}` | {} | {} |",
            i + 1,
            e.label.replace('|', "\\|"),
            e.report.examples,
            e.report.scored
        ));
        for m in &ms {
            md.push_str(&format!(" {} |", cell(e, m)));
        }
        md.push('\n');
    }
    md
}

/// The leaderboard as a self-contained HTML page.
pub fn leaderboard_html(entries: &[Entry], metrics: &[String]) -> String {
    let ms = board_metrics(entries, metrics);
    let mut h = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>grape leaderboard</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}td:nth-child(2),th:nth-child(2){text-align:left}</style></head><body>\n<h1>grape leaderboard</h1>\n<table><tr><th>rank</th><th>run</th><th>examples</th><th>scored</th>",
    );
    for m in &ms {
        h.push_str(&format!("<th>{}</th>", html_escape(m)));
    }
    h.push_str("</tr>\n");
    for (i, e) in ranked(entries, ms.first()).into_iter().enumerate() {
        h.push_str(&format!(
            "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td>",
            i + 1,
            html_escape(&e.label),
            e.report.examples,
            e.report.scored
        ));
        for m in &ms {
            h.push_str(&format!("<td>{}</td>", html_escape(&cell(e, m))));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n</body></html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcnemar_exact_known_values() {
        // b = 1, c = 9: 2 · (C(10,0) + C(10,1)) / 2^10 = 22 / 1024.
        assert!((mcnemar_exact(1, 9) - 22.0 / 1024.0).abs() < 1e-15);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        // b = 0, c = 6: 2 / 64.
        assert!((mcnemar_exact(0, 6) - 2.0 / 64.0).abs() < 1e-15);
        // Large counts stay finite and symmetric.
        let p = mcnemar_exact(400, 520);
        assert!(p > 0.0 && p < 1e-3 && (p - mcnemar_exact(520, 400)).abs() < 1e-15);
    }

    #[test]
    fn permutation_test_is_exact_for_few_differences() {
        // Differences 1, 1, 1: of 8 sign patterns, 2 reach |3|.
        assert_eq!(paired_permutation_p(&[1.0, 0.0, 1.0, 1.0], 1000, 1), 0.25);
        assert_eq!(paired_permutation_p(&[0.0, 0.0], 1000, 1), 1.0);
        // Many equal positive differences: far below 0.05.
        let d = vec![0.3; 40];
        assert!(paired_permutation_p(&d, 2000, 1) < 0.001);
        // Balanced differences: far from significant.
        let d: Vec<f64> = (0..40)
            .map(|i| if i % 2 == 0 { 0.5 } else { -0.5 })
            .collect();
        assert!(paired_permutation_p(&d, 2000, 1) > 0.5);
    }

    #[test]
    fn bootstrap_interval_of_a_constant_difference_is_that_constant() {
        assert_eq!(paired_bootstrap_ci95(&[0.25; 30], 500, 3), [0.25, 0.25]);
        let d: Vec<f64> = (0..100).map(|i| f64::from(i % 2)).collect();
        let [lo, hi] = paired_bootstrap_ci95(&d, 2000, 3);
        assert!(lo < 0.5 && hi > 0.5 && lo > 0.3 && hi < 0.7);
    }

    #[test]
    fn thresholds_parse_with_errors_that_say_what_is_wrong() {
        assert_eq!(
            parse_thresholds("ex=0.8, kg_valid=0.95").unwrap(),
            vec![("ex".to_string(), 0.8), ("kg_valid".to_string(), 0.95)]
        );
        assert!(parse_thresholds("ex").unwrap_err().contains("METRIC=VALUE"));
        assert!(parse_thresholds("ex=x")
            .unwrap_err()
            .contains("not a number"));
    }
}
