//! Execution metrics as other evaluations compute them, each under its own name:
//! CypherBench's execution accuracy (`ex_cypherbench`) and Neo4j text2cypher's execution
//! ExactMatch (`exec_exact_match`). grape's own EX ([`super::execution_accuracy`]) is unchanged
//! beside them.
//!
//! **CypherBench EX** (its `execution_accuracy`, reproduced rule by rule):
//! - equal query texts score 1 without running;
//! - rows compare in order when the gold query's text contains `order by` (any case), else as
//!   multisets; column names are ignored and column orders searched;
//! - both results empty: 1; one empty, or a different number of rows or of columns: 0;
//! - values compare as Python compares the driver's values: `1`, `1.0` and `true` are equal
//!   (Python's `bool` is an `int`), floats exactly (no rounding; NaN never equals), strings
//!   exactly, a `DATE` as its ISO text (so it equals that string), lists **sorted** (their
//!   order ignored) and maps as sorted key–value pairs;
//! - a predicted result holding a value CypherBench cannot hash — a node, relationship, path,
//!   point, a temporal value other than `DATE`, or a list whose items Python cannot order
//!   (`null` beside anything, numbers beside strings) — scores 0. In a gold result such values
//!   (where CypherBench itself would stop) compare by their text.
//!
//! **Neo4j's execution ExactMatch**: both results rendered to one string in the same order and
//! format — the rows as returned, each row the JSON array of its values in grape's JSON value
//! encoding, column names left out — and 1 when the strings are equal.

use crate::engine::Table;
use crate::temporal::Temporal;
use crate::value::Value;
use std::cmp::Ordering;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

/// A value as CypherBench's `to_hashable` makes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key {
    Null,
    /// An integer, or an integral float (Python: `1 == 1.0`), or a boolean (`True == 1`).
    Int(i128),
    /// A non-integral float, ordered by value.
    Float(OrdF64),
    /// NaN: unequal to everything, itself included (each gets its own number).
    NaN(u64),
    Str(String),
    /// A list (items sorted) or a map (sorted key–value pairs).
    Tuple(Vec<Key>),
}

/// A float with a total order (no NaN reaches here).
#[derive(Clone, Copy, Debug)]
struct OrdF64(f64);
impl PartialEq for OrdF64 {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl Eq for OrdF64 {}
impl std::hash::Hash for OrdF64 {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.to_bits().hash(h)
    }
}
impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for OrdF64 {
    fn cmp(&self, o: &Self) -> Ordering {
        self.0.total_cmp(&o.0)
    }
}

static NAN_IDS: AtomicU64 = AtomicU64::new(0);

/// Python's ordering classes: items of different classes cannot be compared.
#[derive(PartialEq)]
enum Class {
    None,
    Number,
    Str,
    Tuple,
}

fn class(k: &Key) -> Class {
    match k {
        Key::Null => Class::None,
        Key::Int(_) | Key::Float(_) | Key::NaN(_) => Class::Number,
        Key::Str(_) => Class::Str,
        Key::Tuple(_) => Class::Tuple,
    }
}

fn float_key(f: f64) -> Key {
    if f.is_nan() {
        Key::NaN(NAN_IDS.fetch_add(1, AtomicOrdering::Relaxed))
    } else if f.fract() == 0.0 && f.abs() < 1.7e38 {
        Key::Int(f as i128)
    } else {
        Key::Float(OrdF64(f))
    }
}

/// `to_hashable`; `None` where CypherBench cannot hash the value (see the module docs). With
/// `lenient` (a gold result), such values become their text instead.
fn key(v: &Value, lenient: bool) -> Option<Key> {
    Some(match v {
        Value::Null => Key::Null,
        Value::Bool(b) => Key::Int(i128::from(*b)),
        Value::Int(i) => Key::Int(i128::from(*i)),
        Value::Float(f) => float_key(*f),
        Value::String(s) => Key::Str(s.to_string()),
        Value::Temporal(t) if matches!(**t, Temporal::Date(_)) => Key::Str(t.to_string()),
        Value::List(items) => {
            let mut ks = items
                .iter()
                .map(|x| key(x, lenient))
                .collect::<Option<Vec<Key>>>()?;
            // Python's sorted(): items of different classes, or two None, cannot be ordered.
            if ks.len() > 1 {
                let first = class(&ks[0]);
                let orderable = first != Class::None && ks.iter().all(|k| class(k) == first);
                if !orderable && !lenient {
                    return None;
                }
            }
            ks.sort();
            Key::Tuple(ks)
        }
        Value::Map(m) => Key::Tuple(
            m.iter()
                .map(|(k, x)| Some(Key::Tuple(vec![Key::Str(k.to_string()), key(x, lenient)?])))
                .collect::<Option<Vec<Key>>>()?,
        ),
        other if lenient => Key::Str(other.to_string()),
        _ => return None,
    })
}

/// CypherBench's EX of a predicted result against the gold one (see the module docs); the
/// texts decide the shortcut and whether order matters.
pub fn cypherbench_ex(
    predicted: &Table,
    gold: &Table,
    predicted_text: &str,
    gold_text: &str,
) -> f64 {
    if predicted_text == gold_text {
        return 1.0;
    }
    let ordered = gold_text.to_lowercase().contains("order by");
    if predicted.rows.is_empty() && gold.rows.is_empty() {
        return 1.0;
    }
    if predicted.rows.is_empty() || gold.rows.is_empty() {
        return 0.0;
    }
    let n = gold.columns.len();
    if predicted.columns.len() != n || predicted.rows.len() != gold.rows.len() {
        return 0.0;
    }
    let keys = |t: &Table, lenient: bool| -> Option<Vec<Vec<Key>>> {
        t.rows
            .iter()
            .map(|r| r.iter().map(|v| key(v, lenient)).collect())
            .collect()
    };
    let (Some(p), Some(g)) = (keys(predicted, false), keys(gold, true)) else {
        return 0.0;
    };
    f64::from(u8::from(super::result::permuted_equal(&p, &g, n, ordered)))
}

/// A result rendered as Neo4j's execution ExactMatch compares it: the rows in the order
/// returned, each the JSON array of its values (grape's JSON value encoding).
pub fn render_result(t: &Table) -> String {
    let rows: Vec<serde_json::Value> = t
        .rows
        .iter()
        .map(|r| {
            serde_json::Value::Array(
                r.iter()
                    .map(|v| crate::graph::import::value_to_json(v, t))
                    .collect(),
            )
        })
        .collect();
    serde_json::Value::Array(rows).to_string()
}

/// Neo4j's execution ExactMatch: 1 when the two results render to the same string.
pub fn exec_exact_match(predicted: &Table, gold: &Table) -> f64 {
    f64::from(u8::from(render_result(predicted) == render_result(gold)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;

    fn t(q: &str) -> Table {
        let mut g = Graph::from_cypher_script(
            "CREATE (:P {name: 'Ann', age: 30}), (:P {name: 'Bo', age: 40})",
        )
        .unwrap();
        g.run(q, &Default::default()).unwrap()
    }

    fn cb(pred: &str, gold: &str) -> f64 {
        cypherbench_ex(&t(pred), &t(gold), pred, gold)
    }

    #[test]
    fn each_of_cypherbench_s_rules() {
        // Equal texts: 1 without comparing.
        assert_eq!(
            cypherbench_ex(&t("RETURN 1"), &t("RETURN 2"), "q", "q"),
            1.0
        );
        // Column names ignored, columns permuted, rows as a multiset.
        assert_eq!(
            cb(
                "MATCH (p:P) RETURN p.age AS a, p.name AS b",
                "MATCH (p:P) RETURN p.name, p.age"
            ),
            1.0
        );
        // Order matters when the gold text says ORDER BY (in any case) …
        assert_eq!(
            cb(
                "MATCH (p:P) RETURN p.name ORDER BY p.name DESC",
                "MATCH (p:P) RETURN p.name order by p.name"
            ),
            0.0
        );
        // … and not otherwise, even when the prediction orders.
        assert_eq!(
            cb(
                "MATCH (p:P) RETURN p.name ORDER BY p.name DESC",
                "MATCH (p:P) RETURN p.name"
            ),
            1.0
        );
        // Lists compare sorted; maps as sorted pairs.
        assert_eq!(cb("RETURN [3, 1, 2] AS l", "RETURN [1, 2, 3] AS l"), 1.0);
        assert_eq!(
            cb("RETURN {b: 2, a: 1} AS m", "RETURN {a: 1, b: 2} AS m"),
            1.0
        );
        // Two empty results agree; one empty does not.
        assert_eq!(
            cb(
                "MATCH (x:None) RETURN x.a",
                "MATCH (y:Nope) RETURN y.b, y.c"
            ),
            1.0
        );
        assert_eq!(cb("MATCH (x:None) RETURN x.a", "RETURN 1"), 0.0);
        // Row and column counts.
        assert_eq!(cb("UNWIND [1, 1] AS x RETURN x", "RETURN 1"), 0.0);
        assert_eq!(cb("RETURN 1, 2", "RETURN 1"), 0.0);
        // Python's equality: 1 == 1.0 == true; floats exact; a DATE is its ISO text.
        assert_eq!(cb("RETURN 1.0", "RETURN 1"), 1.0);
        assert_eq!(cb("RETURN true", "RETURN 1"), 1.0);
        assert_eq!(cb("RETURN 0.1 + 0.2", "RETURN 0.3"), 0.0);
        assert_eq!(cb("RETURN date('2020-01-02')", "RETURN '2020-01-02'"), 1.0);
        assert_eq!(cb("RETURN 0.0 / 0.0 AS nan", "RETURN 0.0 / 0.0"), 0.0);
        // Values CypherBench cannot hash in a prediction score 0 (unless the texts are equal).
        assert_eq!(
            cb(
                "MATCH (p:P {name: 'Ann'}) RETURN p",
                "MATCH (p:P {name: 'Ann'}) RETURN p"
            ),
            1.0
        );
        assert_eq!(
            cb(
                "MATCH (p:P {name: 'Ann'}) RETURN p",
                "MATCH (q:P {name: 'Ann'}) RETURN q"
            ),
            0.0
        );
        assert_eq!(cb("RETURN datetime('2020-01-02T00:00Z')", "RETURN 1"), 0.0);
        assert_eq!(cb("RETURN [1, null] AS l", "RETURN [1, null]"), 0.0);
        assert_eq!(cb("RETURN [1, 'a'] AS l", "RETURN [1, 'a']"), 0.0);
        assert_eq!(cb("RETURN [null] AS l", "RETURN [null]"), 1.0);
    }

    #[test]
    fn neo4j_s_execution_exact_match_compares_rendered_results() {
        let a = t("MATCH (p:P) RETURN p.name AS n ORDER BY n");
        let b = t("MATCH (p:P) RETURN p.name AS name ORDER BY name");
        let c = t("MATCH (p:P) RETURN p.name AS n ORDER BY n DESC");
        assert_eq!(render_result(&a), r#"[["Ann"],["Bo"]]"#);
        assert_eq!(exec_exact_match(&a, &b), 1.0); // names left out
        assert_eq!(exec_exact_match(&a, &c), 0.0); // order kept
        assert_eq!(exec_exact_match(&t("RETURN 1"), &t("RETURN 1.0")), 0.0); // format kept
    }
}
