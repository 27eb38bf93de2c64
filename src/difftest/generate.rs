//! Statements for differential testing, drawn from a graph (`grape difftest --generate N`).
//!
//! The generator reads what the graph holds — labels, relationship types with the labels of
//! their endpoints, property keys with a sample of their values per label or type — and draws
//! statements that touch real data: patterns along real `(start, type, end)` triples (directed,
//! reversed, undirected, variable-length, quantified, shortest paths), `WHERE` conditions with
//! values that occur, `OPTIONAL MATCH`, aggregation with implicit grouping, `DISTINCT`,
//! `UNWIND`, `CASE`, string, list, numeric, temporal, spatial and APOC functions, `EXISTS` /
//! `COUNT` / `COLLECT` subqueries, `CALL` subqueries, `ORDER BY` / `SKIP` / `LIMIT`, and writes
//! (`CREATE`, `MERGE`, `SET`, `REMOVE`, `DELETE`), whose counters are compared. A `LIMIT` is
//! always under an `ORDER BY` of every column, so that which rows are kept is defined.
//!
//! The same seed gives the same statements for the same graph, on every platform.
//!
//! ```
//! let g = grape::graph::Graph::from_cypher_script(
//!     "CREATE (:Person {name: 'Ann', age: 30})-[:KNOWS {since: 2001}]->(:Person {name: 'Bo'})",
//! ).unwrap();
//! let qs = grape::difftest::generate::statements(&g, 50, 7);
//! assert_eq!(qs.len(), 50);
//! for q in &qs {
//!     grape::syntax::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
//! }
//! assert_eq!(qs, grape::difftest::generate::statements(&g, 50, 7));
//! ```

use crate::graph::Graph;
use crate::rng::SplitMix64;
use crate::value::Value;
use std::collections::BTreeMap;

/// Values kept per property key.
const SAMPLES: usize = 12;

/// What the graph holds, for drawing statements.
#[derive(Default)]
struct Facts {
    labels: Vec<String>,
    /// (start label or None, type, end label or None)
    triples: Vec<(Option<String>, String, Option<String>)>,
    /// label → key → sample values (Cypher literals)
    node_props: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// type → key → sample values
    rel_props: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

/// A value as a Cypher literal, if it has one.
fn literal(v: &Value) -> Option<String> {
    Some(match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) if f.is_finite() => {
            let s = format!("{f:?}");
            if s.contains(['.', 'e', 'E']) {
                s
            } else {
                format!("{s}.0")
            }
        }
        Value::String(s) => quote(s),
        Value::List(xs) if xs.len() <= 8 => {
            let items: Option<Vec<String>> = xs.iter().map(literal).collect();
            format!("[{}]", items?.join(", "))
        }
        Value::Temporal(t) => {
            let text = t.to_string();
            let f = match t.as_ref() {
                crate::temporal::Temporal::Date(_) => "date",
                crate::temporal::Temporal::LocalTime(_) => "localtime",
                crate::temporal::Temporal::Time(..) => "time",
                crate::temporal::Temporal::LocalDateTime(_) => "localdatetime",
                crate::temporal::Temporal::DateTime(..) => "datetime",
                crate::temporal::Temporal::Duration(_) => "duration",
            };
            format!("{f}({})", quote(&text))
        }
        _ => return None,
    })
}

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::syntax::write_string_literal(&mut out, s);
    out
}

fn name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    crate::syntax::write_name(&mut out, s);
    out
}

impl Facts {
    fn of(g: &Graph, rng: &mut SplitMix64) -> Facts {
        let mut f = Facts::default();
        let mut seen_triples = std::collections::BTreeSet::new();
        let ids: Vec<_> = g.node_ids().collect();
        // A sample of nodes and relationships, spread over the id range.
        let pick = |n: usize, rng: &mut SplitMix64| -> Vec<usize> {
            let k = n.min(4_000);
            (0..k).map(|_| rng.below(n)).collect()
        };
        let mut labels = std::collections::BTreeSet::new();
        for i in pick(ids.len(), rng) {
            let n = ids[i];
            let ls = g.labels(n);
            for l in &ls {
                labels.insert(l.to_string());
                let props = f.node_props.entry(l.to_string()).or_default();
                for (k, v) in g.node_properties(n) {
                    if let Some(lit) = literal(&v) {
                        let vs = props.entry(k.to_string()).or_default();
                        if vs.len() < SAMPLES && !vs.contains(&lit) {
                            vs.push(lit);
                        }
                    }
                }
            }
        }
        f.labels = labels.into_iter().collect();
        let rels: Vec<_> = g.relationship_ids().collect();
        for i in pick(rels.len(), rng) {
            let r = rels[i];
            let (Some(ty), Some((a, b))) = (g.rel_type(r), g.endpoints(r)) else {
                continue;
            };
            let first = |n| g.labels(n).first().map(|l| l.to_string());
            if seen_triples.insert((first(a), ty.to_string(), first(b))) {
                f.triples.push((first(a), ty.to_string(), first(b)));
            }
            let props = f.rel_props.entry(ty.to_string()).or_default();
            for (k, v) in g.relationship_properties(r) {
                if let Some(lit) = literal(&v) {
                    let vs = props.entry(k.to_string()).or_default();
                    if vs.len() < SAMPLES && !vs.contains(&lit) {
                        vs.push(lit);
                    }
                }
            }
        }
        f
    }
}

struct Gen<'f> {
    f: &'f Facts,
    rng: SplitMix64,
    /// Cypher 25: projections may carry a `GROUP BY`.
    cypher25: bool,
}

/// A variable bound by a pattern, with what it may hold.
#[derive(Clone)]
struct Var {
    name: String,
    /// A label (node) or type (relationship) whose properties it has, if known.
    of: Option<String>,
    rel: bool,
}

const STRING_FNS: &[&str] = &[
    "toUpper(X)",
    "toLower(X)",
    "trim(X)",
    "reverse(X)",
    "left(X, 3)",
    "right(X, 2)",
    "substring(X, 1, 3)",
    "replace(X, 'a', 'A')",
    "split(X, ' ')",
    "size(X)",
    "X STARTS WITH 'A'",
    "X CONTAINS 'e'",
    "X ENDS WITH 's'",
    "X =~ '.*[0-9].*'",
    "apoc.text.capitalize(X)",
    "apoc.text.clean(X)",
    "apoc.text.join([X, 'x'], '-')",
    "toString(X)",
    "X + '!'",
    "coalesce(X, 'none')",
];
const NUMBER_FNS: &[&str] = &[
    "abs(X)",
    "sign(X)",
    "toInteger(X)",
    "toFloat(X)",
    "X + 1",
    "X * 2.5",
    "X - 0.5",
    "X % 3",
    "X / 2",
    "round(X)",
    "ceil(X)",
    "floor(X)",
    "X ^ 2",
    "toString(X)",
    "apoc.coll.sum([X, 1])",
    "CASE WHEN X > 10 THEN 'big' WHEN X < 0 THEN 'neg' ELSE 'small' END",
    "coalesce(X, -1)",
];
const ANY_FNS: &[&str] = &[
    "X IS NULL",
    "X IS NOT NULL",
    "toString(X)",
    "[X, 1]",
    "{v: X}",
    "coalesce(X, 0)",
    "X = X",
    "X <> 1",
    "X IN [1, 'a', null]",
    "valueType(X)",
    "CASE X WHEN 1 THEN 'one' ELSE 'other' END",
];
const LITERAL_EXPRS: &[&str] = &[
    "1 + 2.0",
    "7 / 2",
    "7 / 2.0",
    "-7 % 3",
    "2 ^ 10",
    "toInteger('42')",
    "toInteger('x')",
    "toFloat('1e3')",
    "toBoolean('TRUE')",
    "null = null",
    "null IS NULL",
    "1 = 1.0",
    "'a' < 'b'",
    "[1, 2] + [3]",
    "[1, null, 3][1]",
    "[1, 2, 3][-1]",
    "[1, 2, 3, 4][1..3]",
    "size([1, null])",
    "range(1, 10, 3)",
    "range(10, 1, -4)",
    "reverse([1, 2, 3])",
    "head([])",
    "last([1, 2])",
    "tail([1, 2, 3])",
    "[x IN range(1, 5) WHERE x % 2 = 1 | x * x]",
    "reduce(s = 0, x IN [1, 2, 3] | s + x)",
    "all(x IN [1, 2] WHERE x > 0)",
    "any(x IN [] WHERE x > 0)",
    "none(x IN [1, null] WHERE x > 1)",
    "single(x IN [1, 2, 3] WHERE x > 2)",
    "date('2024-02-29') + duration('P1Y')",
    "date('2024-01-31') + duration({months: 1})",
    "duration.between(date('2020-01-01'), date('2024-03-15'))",
    "duration.inDays(date('2020-01-01'), date('2020-12-31')).days",
    "datetime('2024-03-10T01:30:00[America/New_York]') + duration('PT1H')",
    "datetime('2020-06-01T12:00:00+02:00').epochSeconds",
    "date.truncate('month', date('2024-05-17'))",
    "localdatetime('2024-05-17T10:11:12.123456789').nanosecond",
    "time('12:00:00+01:00') < time('12:30:00+01:00')",
    "date('2024-05-17').week",
    "toString(duration('PT90M'))",
    "point.distance(point({x: 0, y: 0}), point({x: 3, y: 4}))",
    "round(point.distance(point({latitude: 51.5, longitude: -0.1}), point({latitude: 48.85, longitude: 2.35})))",
    "point({x: 1, y: 2, z: 3}).z",
    "point({longitude: 10, latitude: 20}).crs",
    "apoc.coll.sort([3, 1, 2])",
    "apoc.coll.toSet([1, 1, 2])",
    "apoc.coll.max([1, 5, 2])",
    "apoc.coll.flatten([[1], [2, [3]]], true)",
    "apoc.coll.zip([1, 2], ['a', 'b'])",
    "apoc.map.merge({a: 1}, {b: 2})",
    "apoc.map.fromPairs([['a', 1], ['b', 2]])",
    "apoc.text.lpad('7', 3, '0')",
    "apoc.text.levenshteinDistance('kitten', 'sitting')",
    "apoc.text.split('a1b22c', '[0-9]+')",
    "apoc.convert.toJson({a: [1, true, null]})",
    "apoc.number.format(1234567.891)",
    "apoc.date.format(0, 'ms', 'yyyy-MM-dd')",
    "apoc.text.slug('Hello World!')",
    "apoc.coll.contains([1, 2], 2)",
    "apoc.util.md5(['grape'])",
    "toUpper('straße')",
    "size('héllo')",
    "substring('hello', 10)",
    "left(null, 2)",
    "split('a,b,,c', ',')",
    "replace('aaa', 'a', '')",
    "toString(1.0)",
    "toString(1e20)",
    "toString(0.1 + 0.2)",
    "9223372036854775807 + 0",
    "-0.0",
    "1.0 / 0",
    "sqrt(-1)",
    "log(0)",
    "round(2.5)",
    "round(-2.5)",
    "round(3.14159, 2)",
    "isNaN(0.0 / 0.0)",
    "toInteger(3.9)",
    "toInteger(-3.9)",
    "abs(-9223372036854775807)",
    "'x' + 1",
    "1 + null",
    "[] = []",
    "{a: 1} = {a: 1.0}",
    "[1, 2] = [1, 2.0]",
    "NOT (null AND false)",
    "null OR true",
    "true XOR null",
    "coalesce(null, null, 3)",
    "nullIf(1, 1)",
    "keys({b: 1, a: 2})",
    "size({a: 1, b: 2})",
];

impl<'f> Gen<'f> {
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> Option<&'a T> {
        if xs.is_empty() {
            None
        } else {
            Some(&xs[self.rng.below(xs.len())])
        }
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.rng.below(100) < percent
    }

    fn props_of(&self, v: &Var) -> Option<&'f BTreeMap<String, Vec<String>>> {
        let of = v.of.as_ref()?;
        let f: &'f Facts = self.f;
        if v.rel {
            f.rel_props.get(of)
        } else {
            f.node_props.get(of)
        }
    }

    /// A property of `v` and one of its values, if it has properties.
    fn property(&mut self, v: &Var) -> Option<(String, String)> {
        let props = self.props_of(v)?;
        let keys: Vec<&String> = props.keys().collect();
        let k = (*self.pick(&keys)?).clone();
        let vals = props.get(&k)?;
        let val = self.pick(vals)?.clone();
        Some((k, val))
    }

    fn value_kind(val: &str) -> &'static str {
        if val.starts_with('\'') {
            "string"
        } else if val.parse::<f64>().is_ok() {
            "number"
        } else {
            "any"
        }
    }

    /// An expression over the bound variables.
    fn expr(&mut self, vars: &[Var]) -> String {
        if vars.is_empty() || self.chance(10) {
            return self.pick(LITERAL_EXPRS).copied().unwrap_or("1").to_string();
        }
        let v = self.pick(vars).cloned().unwrap_or_else(|| vars[0].clone());
        match self.property(&v) {
            Some((k, val)) if !self.chance(10) => {
                let access = format!("{}.{}", v.name, name(&k));
                let table = match Self::value_kind(&val) {
                    "string" => STRING_FNS,
                    "number" => NUMBER_FNS,
                    _ => ANY_FNS,
                };
                if self.chance(25) {
                    access
                } else {
                    let f = self.pick(table).copied().unwrap_or("X");
                    f.replace('X', &access)
                }
            }
            _ => {
                if v.rel {
                    self.pick(&[
                        format!("type({})", v.name),
                        // keys() lists properties in store order, which Neo4j leaves open.
                        format!("apoc.coll.sort(keys({}))", v.name),
                        format!("properties({})", v.name),
                        format!("startNode({}) = endNode({})", v.name, v.name),
                    ])
                    .cloned()
                    .unwrap_or_default()
                } else {
                    self.pick(&[
                        format!("labels({})", v.name),
                        format!("size(keys({}))", v.name),
                        format!("COUNT {{ ({})--() }}", v.name),
                        format!("EXISTS {{ ({})-->() }}", v.name),
                        format!("size([({})-->(x) | x])", v.name),
                        v.name.clone(),
                    ])
                    .cloned()
                    .unwrap_or_default()
                }
            }
        }
    }

    /// A condition over the bound variables.
    fn condition(&mut self, vars: &[Var]) -> String {
        let v = match self.pick(vars) {
            Some(v) => v.clone(),
            None => return "true".into(),
        };
        let Some((k, val)) = self.property(&v) else {
            return format!("{} IS NOT NULL", v.name);
        };
        let a = format!("{}.{}", v.name, name(&k));
        let ops = ["=", "<>", "<", "<=", ">", ">="];
        let op = self.pick(&ops).copied().unwrap_or("=");
        match self.rng.below(9) {
            0 => format!("{a} IS NULL"),
            1 => format!("{a} IN [{val}, null]"),
            2 if Self::value_kind(&val) == "string" => {
                let s = val.trim_matches('\'');
                let prefix: String = s.chars().take(2).collect();
                format!("{a} STARTS WITH {}", quote(&prefix))
            }
            3 => format!("NOT {a} {op} {val}"),
            4 => {
                let c2 = self.condition(vars);
                format!("({a} {op} {val} OR {c2})")
            }
            5 if !v.rel => format!("EXISTS {{ MATCH ({})-[r]-() WHERE r IS NOT NULL }}", v.name),
            6 if !v.rel => format!("COUNT {{ ({})--() }} > {}", v.name, self.rng.below(4)),
            _ => format!("{a} {op} {val}"),
        }
    }

    /// A node pattern for variable `var` with one of the graph's labels (or the given one).
    fn node(&mut self, var: &str, label: Option<&str>, vars: &mut Vec<Var>) -> String {
        let label = label.map(str::to_string).or_else(|| {
            if self.chance(85) {
                self.pick(&self.f.labels).cloned()
            } else {
                None
            }
        });
        let v = Var {
            name: var.to_string(),
            of: label.clone(),
            rel: false,
        };
        let inline = if self.chance(25) {
            self.property(&v)
                .map(|(k, val)| format!(" {{{}: {val}}}", name(&k)))
                .unwrap_or_default()
        } else {
            String::new()
        };
        vars.push(v);
        match label {
            Some(l) => format!("({var}:{}{inline})", name(&l)),
            None => format!("({var}{inline})"),
        }
    }

    /// A chain of one or two hops along real triples, from `a`.
    fn chain(&mut self, start: &str, vars: &mut Vec<Var>, prefix: &str) -> String {
        let Some((s, ty, e)) = self.pick(&self.f.triples).cloned() else {
            return self.node(start, None, vars);
        };
        let reversed = self.chance(30);
        let (left_label, right_label) = if reversed {
            (e.clone(), s.clone())
        } else {
            (s.clone(), e.clone())
        };
        let mut out = self.node(start, left_label.as_deref(), vars);
        let rvar = format!("{prefix}r");
        let kind = self.rng.below(10);
        let arrow = |body: &str, reversed: bool, undirected: bool| {
            if undirected {
                format!("-[{body}]-")
            } else if reversed {
                format!("<-[{body}]-")
            } else {
                format!("-[{body}]->")
            }
        };
        let undirected = self.chance(20);
        let end = format!("{prefix}b");
        match kind {
            0 => {
                let lo = self.rng.below(2) + 1;
                let hi = lo + self.rng.below(2);
                out.push_str(&arrow(
                    &format!(":{}*{lo}..{hi}", name(&ty)),
                    reversed,
                    undirected,
                ));
                out.push_str(&self.node(&end, None, vars));
            }
            1 => {
                let lo = self.rng.below(2) + 1;
                let hi = lo + self.rng.below(2);
                let edge = arrow(&format!(":{}", name(&ty)), reversed, undirected);
                out.push_str(" (()");
                out.push_str(&edge);
                out.push_str(&format!("()){{{lo},{hi}}} "));
                out.push_str(&self.node(&end, None, vars));
            }
            _ => {
                out.push_str(&arrow(
                    &format!("{rvar}:{}", name(&ty)),
                    reversed,
                    undirected,
                ));
                vars.push(Var {
                    name: rvar,
                    of: Some(ty.clone()),
                    rel: true,
                });
                out.push_str(&self.node(&end, right_label.as_deref(), vars));
            }
        }
        out
    }

    /// A reading statement.
    fn read(&mut self) -> String {
        let mut vars = Vec::new();
        let mut q = String::new();
        match self.rng.below(12) {
            0 => {
                // A shortest path between a few nodes on each side (each side cut alone, so
                // no cross product is sorted).
                let a = self.node("a", None, &mut vars);
                let cond = self.condition(&vars[..1]);
                let b = self.node("b", None, &mut vars);
                let which = if self.chance(50) {
                    "shortestPath"
                } else {
                    "allShortestPaths"
                };
                let (ka, kb) = (1 + self.rng.below(3), 1 + self.rng.below(3));
                q.push_str(&format!(
                    "MATCH {a} WHERE {cond} WITH a ORDER BY a LIMIT {ka} \
                     MATCH {b} WITH a, b ORDER BY b LIMIT {kb} \
                     MATCH p = {which}((a)-[*..4]-(b)) WHERE a <> b \
                     RETURN length(p) AS len, count(*) AS paths ORDER BY len"
                ));
                return q;
            }
            1 => {
                // Expressions alone, with UNWIND.
                let e1 = self.pick(LITERAL_EXPRS).copied().unwrap_or("1");
                let e2 = self.pick(LITERAL_EXPRS).copied().unwrap_or("1");
                return if self.chance(50) {
                    format!("RETURN {e1} AS a, {e2} AS b")
                } else {
                    format!("UNWIND [1, 2.5, null, 'x', [1], -3] AS x WITH x, {e1} AS a RETURN x, a, x IS :: INTEGER AS int, toString(x) AS s")
                };
            }
            2 => {
                // UNWIND over a list of values that occur.
                let v = Var {
                    name: "a".into(),
                    of: self.pick(&self.f.labels).cloned(),
                    rel: false,
                };
                if let Some((k, val)) = self.property(&v) {
                    let label = v.of.clone().unwrap_or_default();
                    return format!(
                        "UNWIND [{val}, null, {val}] AS x OPTIONAL MATCH (a:{} {{{}: x}}) RETURN x, count(a) AS n",
                        name(&label),
                        name(&k)
                    );
                }
            }
            _ => {}
        }
        let first = self.chain("a", &mut vars, "");
        q.push_str(&format!("MATCH {first}"));
        if self.chance(60) {
            let c = self.condition(&vars);
            q.push_str(&format!(" WHERE {c}"));
        }
        if self.chance(25) {
            let from = vars
                .iter()
                .find(|v| !v.rel)
                .map(|v| v.name.clone())
                .unwrap_or("a".into());
            let mut more = Vec::new();
            let c = self.chain(&from, &mut more, "o_");
            vars.extend(more.into_iter().filter(|v| v.name != from));
            q.push_str(&format!(" OPTIONAL MATCH {c}"));
        }
        if self.chance(15) {
            let v = vars.iter().find(|v| !v.rel).cloned();
            if let Some(v) = v {
                q.push_str(&format!(
                    " CALL ({}) {{ MATCH ({})--(x) RETURN count(x) AS degree }}",
                    v.name, v.name
                ));
                vars.push(Var {
                    name: "degree".into(),
                    of: None,
                    rel: false,
                });
            }
        }
        if self.chance(15) {
            let v = vars.iter().find(|v| !v.rel).cloned();
            if let Some(v) = v {
                q.push_str(&format!(
                    " WITH *, COLLECT {{ MATCH ({})-->(y) RETURN labels(y)[0] }} AS around",
                    v.name
                ));
                vars.push(Var {
                    name: "around".into(),
                    of: None,
                    rel: false,
                });
            }
        }
        // The projection.
        let shape = self.rng.below(4);
        let mut items = Vec::new();
        let n = 1 + self.rng.below(3);
        let bindable: Vec<Var> = vars
            .iter()
            .filter(|v| v.name != "degree" && v.name != "around")
            .cloned()
            .collect();
        for i in 0..n {
            let e = self.expr(&bindable);
            items.push(format!("{e} AS c{i}"));
        }
        if vars.iter().any(|v| v.name == "degree") && self.chance(50) {
            items.push("degree AS d".into());
        }
        match shape {
            0 => {
                // Aggregation with implicit grouping keys.
                let arg = self.expr(&bindable);
                let agg = self
                    .pick(&[
                        "count(*)".to_string(),
                        format!("count({arg})"),
                        format!("count(DISTINCT {arg})"),
                        format!("size(collect(DISTINCT {arg}))"),
                        format!("min({arg})"),
                        format!("max({arg})"),
                        format!("sum(size(toString({arg})))"),
                        format!("avg(size(toString({arg})))"),
                        format!("stDev(size(toString({arg})))"),
                        format!("percentileDisc(size(toString({arg})), 0.5)"),
                    ])
                    .cloned()
                    .unwrap_or_default();
                if self.cypher25 && self.chance(40) {
                    return self.grouped(q, items, Some(agg));
                }
                items.push(format!("{agg} AS agg"));
            }
            1 => {
                let ret = items.join(", ");
                q.push_str(&format!(" RETURN DISTINCT {ret}"));
                return self.order_limit(q, &items);
            }
            _ if self.cypher25 && self.chance(20) => return self.grouped(q, items, None),
            _ => {}
        }
        let ret = items.join(", ");
        q.push_str(&format!(" RETURN {ret}"));
        if self.chance(40) {
            return self.order_limit(q, &items);
        }
        q
    }

    /// Cypher 25: `RETURN items[, agg AS agg] GROUP BY …`, with the keys named by the columns'
    /// names or written as their expressions, `ALL`, `()` where nothing else is projected, or
    /// keys that are not projected (`RETURN agg GROUP BY expr, …`).
    fn grouped(&mut self, mut q: String, mut items: Vec<String>, agg: Option<String>) -> String {
        let split = |it: &String| -> (String, String) {
            let (e, a) = it.rsplit_once(" AS ").unwrap_or((it.as_str(), it.as_str()));
            (e.to_string(), a.to_string())
        };
        let keys: Vec<(String, String)> = items.iter().map(split).collect();
        // Neo4j 2026.08 computes a pattern comprehension in a key (or beside a variable key)
        // without its variables' values: not generated. A subquery column is refused under
        // ALL or its name as the key, which is generated.
        if items.iter().any(|it| it.contains("[(")) {
            if let Some(a) = agg {
                items.push(format!("{a} AS agg"));
            }
            q.push_str(&format!(" RETURN {}", items.join(", ")));
            return q;
        }
        let subquery = items.iter().any(|it| it.contains(" { "));
        let choice = if subquery {
            self.rng.below(2)
        } else {
            self.rng.below(4)
        };
        let group = match choice {
            0 => "ALL".to_string(),
            1 => keys
                .iter()
                .map(|k| k.1.clone())
                .collect::<Vec<_>>()
                .join(", "),
            2 => keys
                .iter()
                .map(|k| k.0.clone())
                .collect::<Vec<_>>()
                .join(", "),
            _ => match &agg {
                // Keys not projected: only the aggregate is.
                Some(_) => {
                    let written = keys.iter().map(|k| k.0.clone()).collect::<Vec<_>>();
                    items.clear();
                    written.join(", ")
                }
                None => keys
                    .iter()
                    .map(|k| k.1.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            },
        };
        let group = if items.is_empty() && group.is_empty() {
            "()".to_string()
        } else {
            group
        };
        if let Some(a) = agg {
            items.push(format!("{a} AS agg"));
        }
        q.push_str(&format!(" RETURN {} GROUP BY {group}", items.join(", ")));
        if self.chance(40) {
            return self.order_limit(q, &items);
        }
        q
    }

    /// `ORDER BY` every column, then perhaps `SKIP` and `LIMIT`.
    fn order_limit(&mut self, mut q: String, items: &[String]) -> String {
        let cols: Vec<String> = items
            .iter()
            .map(|it| {
                let alias = it.rsplit(" AS ").next().unwrap_or(it).to_string();
                if self.chance(30) {
                    format!("{alias} DESC")
                } else {
                    alias
                }
            })
            .collect();
        q.push_str(&format!(" ORDER BY {}", cols.join(", ")));
        if self.chance(30) {
            q.push_str(&format!(" SKIP {}", self.rng.below(3)));
        }
        if self.chance(60) {
            q.push_str(&format!(" LIMIT {}", 1 + self.rng.below(10)));
        }
        q
    }

    /// A writing statement (rolled back on both sides).
    fn write(&mut self) -> String {
        let mut vars = Vec::new();
        let label = self.pick(&self.f.labels).cloned().unwrap_or("Thing".into());
        let l = name(&label);
        let probe = Var {
            name: "a".into(),
            of: Some(label.clone()),
            rel: false,
        };
        let prop = self.property(&probe);
        match self.rng.below(8) {
            0 => format!("CREATE (x:{l}:DiffNew {{k: 1, s: 'a', f: 1.5, xs: [1, 2], d: date('2024-01-01')}}) RETURN x.k AS k, labels(x) AS l"),
            1 => match prop {
                Some((k, val)) => format!(
                    "MERGE (x:{l} {{{}: {val}}}) ON CREATE SET x.created = true ON MATCH SET x.matched = true RETURN count(x) AS n",
                    name(&k)
                ),
                None => format!("MERGE (x:{l}) RETURN count(x) AS n"),
            },
            2 => {
                let pat = self.chain("a", &mut vars, "");
                format!("MATCH {pat} WITH DISTINCT a ORDER BY a LIMIT 5 SET a.touched = 1, a:Touched RETURN count(a) AS n")
            }
            3 => {
                let pat = self.chain("a", &mut vars, "");
                format!("MATCH {pat} WITH DISTINCT a ORDER BY a LIMIT 3 DETACH DELETE a")
            }
            4 => match prop {
                Some((k, _)) => format!(
                    "MATCH (a:{l}) WHERE a.{k} IS NOT NULL WITH a ORDER BY a LIMIT 4 REMOVE a.{k} RETURN count(*) AS n",
                    k = name(&k)
                ),
                None => format!("MATCH (a:{l}) REMOVE a:{l} RETURN count(*) AS n"),
            },
            5 => {
                let ty = self.pick(&self.f.triples).map(|t| t.1.clone()).unwrap_or("REL".into());
                format!(
                    "MATCH (a:{l}) WITH a ORDER BY a LIMIT 3 CREATE (a)-[r:{} {{w: 2}}]->(b:DiffNew) RETURN count(r) AS n",
                    name(&ty)
                )
            }
            6 => format!(
                "MATCH (a:{l}) WITH a ORDER BY a LIMIT 3 SET a += {{extra: 'e', n: null}} RETURN count(*) AS n"
            ),
            _ => "UNWIND range(1, 3) AS i MERGE (x:DiffNew {i: i % 2}) RETURN i, x.i AS xi ORDER BY i"
                .to_string(),
        }
    }
}

/// `n` statements drawn from `graph` with `seed` (see the module's documentation): about one
/// in eight writes.
pub fn statements(graph: &Graph, n: usize, seed: u64) -> Vec<String> {
    statements_in(graph, n, seed, crate::syntax::CypherVersion::Cypher5)
}

/// [`statements`] for a Cypher version: under Cypher 25 each statement starts with `CYPHER 25`
/// and projections may group with `GROUP BY`.
pub fn statements_in(
    graph: &Graph,
    n: usize,
    seed: u64,
    version: crate::syntax::CypherVersion,
) -> Vec<String> {
    let mut rng = SplitMix64(seed);
    let facts = Facts::of(graph, &mut rng);
    let cypher25 = version != crate::syntax::CypherVersion::Cypher5;
    let mut g = Gen {
        f: &facts,
        rng,
        cypher25,
    };
    (0..n)
        .map(|_| {
            let q = if g.chance(12) { g.write() } else { g.read() };
            if cypher25 {
                format!("CYPHER 25 {q}")
            } else {
                q
            }
        })
        .collect()
}

/// Property values that are awkward to get right, by kind; a key draws from one or several.
const AWKWARD_VALUES: &[&[&str]] = &[
    &[
        "0",
        "-1",
        "42",
        "9007199254740993",
        "9223372036854775807",
        "-9223372036854775807",
    ],
    &["0.0", "-0.0", "1.5", "3.0", "0.1", "1e300", "-2.5e-8"],
    &[
        "''",
        "' '",
        "'a'",
        "'A'",
        "'Ä'",
        "'straße'",
        "'e\\u0301'",
        "'😀'",
        "'O\\'Brien'",
        "'10'",
        "'null'",
        "'true'",
        "'a b  c'",
    ],
    &["true", "false"],
    &[
        "[1, 2, 3]",
        "[]",
        "['a', '']",
        "[1.5, 2.0]",
        "[true, false]",
        "[date('2020-01-01')]",
        "['x']",
    ],
    &[
        "date('2024-02-29')",
        "date('1969-12-31')",
        "datetime('2021-03-28T02:30:00[Europe/Berlin]')",
        "datetime('2020-06-01T12:00:00+05:45')",
        "datetime('2024-11-03T01:30:00-04:00[America/New_York]')",
        "datetime('1900-01-01T00:00:00Z')",
        "localdatetime('2024-05-17T10:11:12.123456789')",
        "time('10:00:00-02:00')",
        "localtime('23:59:59.999')",
        "duration('P1Y2M3DT4H5M6.007S')",
        "duration('-PT1S')",
        "duration('P0D')",
    ],
    &[
        "point({x: 1, y: 2})",
        "point({x: -1.5, y: 0, z: 3})",
        "point({longitude: 179.9, latitude: -45})",
        "point({longitude: 10, latitude: 60, height: 100})",
    ],
];

const AWKWARD_LABELS: &[&str] = &["A", "B", "C", "D", "`Two Words`", "`ünï`", "E"];
const AWKWARD_TYPES: &[&str] = &["R", "S", "T", "`HAS PART`"];

/// A random graph made to be awkward for an engine that is not quite Neo4j: nodes with none
/// to five labels (names with spaces and non-ASCII letters), property keys holding values of
/// several types on different nodes (integers and floats, `-0.0`, huge numbers, empty and
/// Unicode strings, lists, empty lists, dates, date-times with offsets and named zones — in
/// daylight-saving gaps too —, durations, points of every CRS) or missing, parallel
/// relationships and self-loops. The same seed gives the same graph.
///
/// ```
/// let g = grape::difftest::generate::awkward_graph(1, 40);
/// assert_eq!(g.node_count(), 40);
/// assert!(g.relationship_count() > 40);
/// ```
pub fn awkward_graph(seed: u64, nodes: usize) -> Graph {
    let mut rng = SplitMix64(seed ^ 0xA5A5_5A5A);
    let nodes = nodes.max(1);
    let mut parts = Vec::with_capacity(nodes * 3);
    // Each key draws from one to three kinds of value.
    let keys: Vec<Vec<usize>> = (0..6)
        .map(|_| {
            let k = 1 + rng.below(3);
            (0..k).map(|_| rng.below(AWKWARD_VALUES.len())).collect()
        })
        .collect();
    let value = |rng: &mut SplitMix64, kinds: &[usize]| {
        let kind = AWKWARD_VALUES[kinds[rng.below(kinds.len())]];
        kind[rng.below(kind.len())].to_string()
    };
    for i in 0..nodes {
        let mut labels: Vec<&str> = Vec::new();
        for _ in 0..rng.below(6) {
            let l = AWKWARD_LABELS[rng.below(AWKWARD_LABELS.len())];
            if !labels.contains(&l) {
                labels.push(l);
            }
        }
        let mut props = vec![format!("i: {i}")];
        for (k, kinds) in keys.iter().enumerate() {
            if rng.below(100) < 60 {
                props.push(format!("k{k}: {}", value(&mut rng, kinds)));
            }
        }
        let labels: String = labels.iter().map(|l| format!(":{l}")).collect();
        parts.push(format!("(n{i}{labels} {{{}}})", props.join(", ")));
    }
    for _ in 0..nodes * 2 {
        let a = rng.below(nodes);
        // A self-loop now and then; parallel relationships come by chance and by repetition.
        let b = if rng.below(10) == 0 {
            a
        } else {
            rng.below(nodes)
        };
        let ty = AWKWARD_TYPES[rng.below(AWKWARD_TYPES.len())];
        let mut props = Vec::new();
        for (k, kinds) in keys.iter().enumerate().take(3) {
            if rng.below(100) < 40 {
                props.push(format!("k{k}: {}", value(&mut rng, kinds)));
            }
        }
        let times = if rng.below(8) == 0 { 2 } else { 1 };
        for _ in 0..times {
            parts.push(format!("(n{a})-[:{ty} {{{}}}]->(n{b})", props.join(", ")));
        }
    }
    let script = format!("CREATE {}", parts.join(",\n"));
    Graph::from_cypher_script(&script).unwrap_or_else(|e| {
        // The script is ours: every part of it is valid Cypher.
        unreachable!("awkward graph script: {e}")
    })
}
