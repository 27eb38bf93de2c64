//! Reports for people: a plain-text table for the terminal and a self-contained HTML page.

use super::{id_key, ExampleRecord, Report};
use std::fmt::Write;

/// Metrics shown in the terminal's per-category tables, with their column headings.
const TABLE_METRICS: [(&str, &str); 8] = [
    ("ex", "EX"),
    ("ex_strict", "EX-str"),
    ("jaccard", "Jacc"),
    ("coverage", "Cov"),
    ("psjs", "PSJS"),
    ("pass_at_1", "P@1"),
    ("kg_valid", "KGval"),
    ("jaro_winkler", "JW"),
];

/// Category fields with more values than this are summarised in one line in the terminal.
const MAX_TABLE_VALUES: usize = 25;

/// The report as a plain-text table: the overall mean of every metric with its 95% interval,
/// session metrics when there are sessions, and one table per category field.
pub fn report_table(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} examples, {} scored, {} gold queries failed, {} predictions missing",
        report.examples, report.scored, report.gold_errors, report.missing_predictions
    );
    let _ = writeln!(out);
    let name_w = report
        .overall
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(out, "{:<name_w$}  {:>6}  95% CI", "metric", "mean");
    for (m, v) in &report.overall {
        let ci = report
            .ci95
            .get(m)
            .map(|[lo, hi]| format!("[{lo:.3}, {hi:.3}]"))
            .unwrap_or_default();
        let _ = writeln!(out, "{m:<name_w$}  {v:>6.3}  {ci}");
    }
    if let Some(s) = &report.sessions {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "sessions: {} ({} scored)  SEM {:.3}  CER {}",
            s.sessions,
            s.scored_sessions,
            s.sem,
            match s.cer {
                Some(c) => format!("{c:.3} ({} of {} turns)", s.cer_failed, s.cer_turns),
                None => "n/a (no dependent turn after a failed one)".into(),
            }
        );
        for (mode, c) in &s.cer_by_chain_mode {
            let _ = writeln!(
                out,
                "  CER {mode}: {}",
                c.cer
                    .map(|v| format!("{v:.3} ({} of {})", c.failed, c.turns))
                    .unwrap_or_else(|| "n/a".into())
            );
        }
    }
    let metrics: Vec<(&str, &str)> = TABLE_METRICS
        .iter()
        .copied()
        .filter(|(m, _)| report.overall.contains_key(*m))
        .collect();
    for (field, values) in &report.by {
        let _ = writeln!(out);
        if values.len() > MAX_TABLE_VALUES {
            let _ = writeln!(
                out,
                "by {field}: {} values (see report.md or report.html)",
                values.len()
            );
            continue;
        }
        let mut keys: Vec<&String> = values.keys().collect();
        keys.sort_by_cached_key(|k| id_key(k));
        let w = keys
            .iter()
            .map(|k| k.chars().count())
            .max()
            .unwrap_or(0)
            .max(field.chars().count() + 3)
            .min(40);
        let mut head = format!("{:<w$}  {:>5}", format!("by {field}"), "n");
        for (_, h) in &metrics {
            let _ = write!(head, "  {h:>6}");
        }
        let _ = writeln!(out, "{}", head.trim_end());
        for k in keys {
            let n = report.count(field, k);
            let shown: String = if k.chars().count() > w {
                k.chars().take(w - 1).chain(['…']).collect()
            } else {
                k.clone()
            };
            let mut line = format!("{shown:<w$}  {n:>5}");
            for (m, _) in &metrics {
                match values[k].get(*m) {
                    Some(v) => {
                        let _ = write!(line, "  {v:>6.3}");
                    }
                    None => line.push_str("       –"),
                }
            }
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

/// JSON for embedding in a `<script>` element: every `<` escaped, so no text in the data can
/// close the element or open a comment.
fn embeddable_json(v: &serde_json::Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// The report as one self-contained HTML page (no network: styles, script and data inline):
/// the overall metrics with their intervals, a bar chart of the chosen metric by every category
/// field (hop count included), session metrics, and a sortable, filterable per-example table
/// whose rows open to show the question, gold and predicted queries, both results, the errors
/// and the validator's diagnostics. The page sets `data-ready="1"` on `<body>` when its script
/// has run.
pub fn report_html(report: &Report, records: &[ExampleRecord]) -> String {
    let data = serde_json::json!({
        "report": report,
        "records": records,
    });
    let mut html = String::with_capacity(64 * 1024 + records.len() * 1024);
    html.push_str(HTML_HEAD);
    html.push_str("<script type=\"application/json\" id=\"grape-data\">");
    html.push_str(&embeddable_json(&data));
    html.push_str("</script>\n<script>\n");
    html.push_str(HTML_SCRIPT);
    html.push_str("</script>\n</body>\n</html>\n");
    html
}

const HTML_HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>grape evaluation report</title>
<style>
:root { --fg: #1d232b; --muted: #5b6673; --line: #d9dee4; --bar: #4a7bb7; --bg2: #f4f6f8; --bad: #b3403a; --good: #2f7d4f; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); margin: 0 auto; padding: 1.5rem; max-width: 1400px; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
.muted { color: var(--muted); }
.cards { display: flex; flex-wrap: wrap; gap: .6rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; min-width: 9.5rem; background: #fff; }
.card .v { font-size: 1.35rem; font-weight: 600; }
.card .n { color: var(--muted); font-size: .8rem; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(430px, 1fr)); gap: 1rem; }
.chart { border: 1px solid var(--line); border-radius: 6px; padding: .5rem; }
.chart svg { width: 100%; height: auto; display: block; }
.chart text { font-size: 11px; fill: var(--fg); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .45rem; text-align: left; vertical-align: top; }
th { background: var(--bg2); position: sticky; top: 0; cursor: pointer; user-select: none; white-space: nowrap; }
th.sorted-asc::after { content: " \25B2"; }
th.sorted-desc::after { content: " \25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.example:hover { background: #fafbfc; cursor: pointer; }
tr.detail > td { background: var(--bg2); }
pre { white-space: pre-wrap; word-break: break-word; margin: .2rem 0; font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.err { color: var(--bad); }
.ok { color: var(--good); }
.small { font-size: .85rem; }
.controls { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: .5rem 0; }
input[type=search] { padding: .3rem .5rem; width: 22rem; max-width: 100%; }
table.result td, table.result th { font: 12px ui-monospace, monospace; position: static; cursor: default; }
</style>
</head>
<body>
<h1>grape evaluation report</h1>
<p id="summary" class="muted"></p>
<noscript><p>This report draws its charts and table with JavaScript; the same figures are in report.md and report.json.</p></noscript>
<h2>Overall</h2>
<div id="overall" class="cards"></div>
<div id="sessions"></div>
<h2>By category</h2>
<div class="controls"><label>Metric <select id="metric"></select></label><span class="muted small">Bars: mean per value; the figure above each bar is its number of examples.</span></div>
<div id="charts" class="charts"></div>
<h2>Examples</h2>
<div class="controls"><input type="search" id="filter" placeholder="Filter: id, category, query text, error…"><span id="shown" class="muted small"></span></div>
<table id="examples"><thead></thead><tbody></tbody></table>
"#;

const HTML_SCRIPT: &str = r##""use strict";
(function () {
  const data = JSON.parse(document.getElementById("grape-data").textContent);
  const report = data.report, records = data.records;
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  };
  const svgEl = (tag, attrs) => {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  };
  const fmt = (v) => (typeof v === "number" ? v.toFixed(3) : "–");
  const natural = (a, b) => String(a).localeCompare(String(b), undefined, { numeric: true });

  document.getElementById("summary").textContent =
    `${report.examples} examples, ${report.scored} scored, ${report.gold_errors} gold queries failed, ` +
    `${report.missing_predictions} predictions missing; text variant ${report.text_variant}.`;

  const overall = document.getElementById("overall");
  for (const [m, v] of Object.entries(report.overall)) {
    const ci = report.ci95 && report.ci95[m];
    overall.append(el("div", { class: "card" }, el("div", { class: "n" }, m), el("div", { class: "v" }, fmt(v)),
      el("div", { class: "n" }, ci ? `95% CI [${fmt(ci[0])}, ${fmt(ci[1])}]` : "\u00a0")));
  }

  if (report.sessions) {
    const s = report.sessions, box = document.getElementById("sessions");
    box.append(el("h2", {}, "Sessions"));
    const cards = el("div", { class: "cards" },
      el("div", { class: "card" }, el("div", { class: "n" }, "sessions"), el("div", { class: "v" }, s.sessions), el("div", { class: "n" }, `${s.scored_sessions} scored`)),
      el("div", { class: "card" }, el("div", { class: "n" }, "SEM"), el("div", { class: "v" }, fmt(s.sem)), el("div", { class: "n" }, "every turn right")),
      el("div", { class: "card" }, el("div", { class: "n" }, "CER"), el("div", { class: "v" }, s.cer === null ? "n/a" : fmt(s.cer)), el("div", { class: "n" }, `${s.cer_failed} of ${s.cer_turns} chained turns`)));
    box.append(cards);
    const t = el("table", { class: "small" }, el("thead", {}, el("tr", {}, el("th", {}, "group"), el("th", {}, "value"), el("th", {}, "SEM / CER"), el("th", {}, "n"))));
    const tb = el("tbody");
    for (const [field, vals] of Object.entries(s.sem_by || {}))
      for (const [v, g] of Object.entries(vals)) tb.append(el("tr", {}, el("td", {}, `SEM by ${field}`), el("td", {}, v), el("td", { class: "num" }, fmt(g.sem)), el("td", { class: "num" }, g.sessions)));
    for (const [mode, c] of Object.entries(s.cer_by_chain_mode || {}))
      tb.append(el("tr", {}, el("td", {}, "CER by chain mode"), el("td", {}, mode), el("td", { class: "num" }, c.cer === null ? "n/a" : fmt(c.cer)), el("td", { class: "num" }, c.turns)));
    t.append(tb);
    box.append(t);
  }

  // Charts: one bar chart per category field (gold_hops first), for the chosen metric.
  const metricSel = document.getElementById("metric");
  const metrics = Object.keys(report.overall);
  for (const m of metrics) metricSel.append(el("option", { value: m }, m));
  if (metrics.includes("ex")) metricSel.value = "ex";
  const fields = Object.keys(report.by).sort((a, b) => (a === "gold_hops" ? -1 : b === "gold_hops" ? 1 : natural(a, b)));
  const charts = document.getElementById("charts");
  function drawCharts() {
    const m = metricSel.value;
    charts.replaceChildren();
    for (const field of fields) {
      const vals = Object.keys(report.by[field]).sort(natural);
      const box = el("div", { class: "chart" }, el("h3", {}, field === "gold_hops" ? "by hop count (gold query)" : `by ${field}`));
      if (vals.length > 60) {
        box.append(el("p", { class: "muted small" }, `${vals.length} values: too many to chart; see the table below or report.md.`));
        charts.append(box);
        continue;
      }
      const barW = Math.max(8, Math.min(48, Math.floor(380 / vals.length) - 4));
      const left = 34, top = 10, h = 150, bottom = 70;
      const width = Math.max(420, left + vals.length * (barW + 4) + 10);
      const svg = svgEl("svg", { viewBox: `0 0 ${width} ${top + h + bottom}`, role: "img", "aria-label": `${m} by ${field}` });
      for (const y of [0, 0.25, 0.5, 0.75, 1]) {
        const yy = top + h - y * h;
        svg.append(svgEl("line", { x1: left, x2: width - 4, y1: yy, y2: yy, stroke: "#e3e7eb" }));
        const lab = svgEl("text", { x: left - 4, y: yy + 4, "text-anchor": "end" });
        lab.textContent = y.toFixed(2);
        svg.append(lab);
      }
      vals.forEach((v, i) => {
        const value = report.by[field][v][m];
        const n = (report.counts[field] || {})[v] || 0;
        const x = left + 4 + i * (barW + 4);
        const bh = typeof value === "number" ? Math.max(0, Math.min(1, value)) * h : 0;
        const r = svgEl("rect", { x, y: top + h - bh, width: barW, height: bh, fill: "var(--bar)" });
        const tip = svgEl("title");
        tip.textContent = `${field} = ${v}: ${m} ${fmt(value)} (n = ${n})`;
        r.append(tip);
        svg.append(r);
        const lab = svgEl("text", { x: x + barW / 2, y: top + h + 12, "text-anchor": "end", transform: `rotate(-40 ${x + barW / 2} ${top + h + 12})` });
        lab.textContent = v.length > 18 ? v.slice(0, 17) + "…" : v;
        svg.append(lab);
        const cnt = svgEl("text", { x: x + barW / 2, y: top + h - bh - 3, "text-anchor": "middle" });
        cnt.textContent = n;
        svg.append(cnt);
      });
      box.append(svg);
      charts.append(box);
    }
  }
  metricSel.addEventListener("change", drawCharts);
  drawCharts();

  // The per-example table.
  const cols = [
    { key: "id", label: "id", get: (r) => r.id },
    { key: "cat", label: "categories", get: (r) => Object.entries(r.categories).map(([k, v]) => `${k}=${v}`).concat(Object.entries(r.tags || {}).map(([k, v]) => `${k}=${v.join("+") || "none"}`)).join(" ") },
  ];
  for (const m of ["ex", "ex_strict", "jaccard", "coverage", "psjs", "kg_valid", "jaro_winkler"])
    if (metrics.includes(m)) cols.push({ key: m, label: m, num: true, get: (r) => (r.metrics[m] === undefined ? -1 : r.metrics[m]) });
  cols.push({ key: "error", label: "error", get: (r) => r.gold_error ? `gold: ${r.gold_error}` : (r.prediction_error || "") });
  const thead = document.querySelector("#examples thead"), tbody = document.querySelector("#examples tbody");
  const headRow = el("tr");
  let sortKey = "id", sortDir = 1;
  cols.forEach((c) => {
    const th = el("th", { "data-key": c.key }, c.label);
    th.addEventListener("click", () => {
      sortDir = sortKey === c.key ? -sortDir : 1;
      sortKey = c.key;
      render();
    });
    headRow.append(th);
  });
  thead.append(headRow);

  const resultTable = (res) => {
    if (!res) return el("p", { class: "muted small" }, "no result");
    const t = el("table", { class: "result" });
    t.append(el("tr", {}, ...res.columns.map((c) => el("th", {}, c))));
    for (const row of res.rows) t.append(el("tr", {}, ...row.map((c) => el("td", {}, c))));
    const more = res.total_rows > res.rows.length ? ` (first ${res.rows.length} shown)` : "";
    return el("div", {}, t, el("div", { class: "muted small" }, `${res.total_rows} rows${more}`));
  };
  const detail = (r) => {
    const td = el("td", { colspan: cols.length });
    if (r.question) td.append(el("p", {}, el("strong", {}, "Question: "), r.question));
    td.append(el("div", { class: "pair" },
      el("div", {}, el("h3", {}, "Gold"), el("pre", {}, r.gold), resultTable(r.gold_result), r.gold_error ? el("p", { class: "err" }, r.gold_error) : ""),
      el("div", {}, el("h3", {}, "Predicted"), el("pre", {}, r.prediction === null ? "(no prediction)" : r.prediction), resultTable(r.predicted_result), r.prediction_error ? el("p", { class: "err" }, r.prediction_error) : "")));
    if (r.diagnostics && r.diagnostics.length) {
      const ul = el("ul", { class: "small" });
      for (const d of r.diagnostics) ul.append(el("li", {}, `${d.line}:${d.column} ${d.code}: ${d.message}`));
      td.append(el("h3", {}, "Validator"), ul);
    }
    td.append(el("p", { class: "muted small" }, Object.entries(r.metrics).map(([k, v]) => `${k} ${fmt(v)}`).join(" · ")));
    return el("tr", { class: "detail" }, td);
  };
  const filterBox = document.getElementById("filter");
  const haystack = records.map((r) => [r.id, r.question, r.gold, r.prediction || "", r.gold_error || "", r.prediction_error || "", cols[1].get(r)].join("\n").toLowerCase());
  function render() {
    const col = cols.find((c) => c.key === sortKey);
    const q = filterBox.value.trim().toLowerCase();
    const idx = records.map((_, i) => i).filter((i) => !q || haystack[i].includes(q));
    idx.sort((a, b) => {
      const x = col.get(records[a]), y = col.get(records[b]);
      return sortDir * (col.num ? x - y : natural(x, y));
    });
    for (const th of headRow.children) th.className = th.dataset.key === sortKey ? (sortDir > 0 ? "sorted-asc" : "sorted-desc") : "";
    const rows = document.createDocumentFragment();
    for (const i of idx) {
      const r = records[i];
      const tr = el("tr", { class: "example", "data-id": r.id });
      for (const c of cols) {
        const v = c.get(r);
        const td = el("td", c.num ? { class: "num" } : {}, c.num ? (v < 0 ? "–" : fmt(v)) : v);
        if (c.key === "ex" && v >= 0) td.classList.add(v === 1 ? "ok" : "err");
        if (c.key === "error" && v) td.classList.add("err", "small");
        tr.append(td);
      }
      tr.addEventListener("click", () => {
        const next = tr.nextSibling;
        if (next && next.classList && next.classList.contains("detail")) next.remove();
        else tr.after(detail(r));
      });
      rows.append(tr);
    }
    tbody.replaceChildren(rows);
    document.getElementById("shown").textContent = `${idx.length} of ${records.length} examples`;
  }
  filterBox.addEventListener("input", render);
  render();
  document.body.dataset.ready = "1";
})();
"##;
