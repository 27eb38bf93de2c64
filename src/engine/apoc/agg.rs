//! APOC's aggregation functions (`apoc.agg.*`): the values a group collected, finished.

use super::*;

/// APOC core's aggregating functions that grape runs, each bound once when a projection is
/// compiled (`ApocAggregate::resolve`), never looked up by name per group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ApocAggregate {
    First,
    Last,
    Nth,
    Slice,
    Median,
    Product,
    MaxItems,
    MinItems,
    Graph,
    Percentiles,
    Statistics,
}

impl ApocAggregate {
    /// Each one with its name, lower-case (as a call's name is compared).
    pub(super) const ALL: [(&'static str, ApocAggregate); 11] = [
        ("apoc.agg.first", ApocAggregate::First),
        ("apoc.agg.graph", ApocAggregate::Graph),
        ("apoc.agg.last", ApocAggregate::Last),
        ("apoc.agg.maxitems", ApocAggregate::MaxItems),
        ("apoc.agg.median", ApocAggregate::Median),
        ("apoc.agg.minitems", ApocAggregate::MinItems),
        ("apoc.agg.nth", ApocAggregate::Nth),
        ("apoc.agg.percentiles", ApocAggregate::Percentiles),
        ("apoc.agg.product", ApocAggregate::Product),
        ("apoc.agg.slice", ApocAggregate::Slice),
        ("apoc.agg.statistics", ApocAggregate::Statistics),
    ];

    /// The function `name` (dotted, lower-case), if it is one of these.
    pub(crate) fn resolve(name: &str) -> Option<ApocAggregate> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
    }

    /// Its name, lower-case (the name its errors give).
    pub(crate) fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("apoc.agg", |(n, _)| n)
    }
}

/// The result of an APOC aggregating function over its argument rows (each with a non-null
/// first argument, in order).
pub(crate) fn finish_aggregate(f: ApocAggregate, rows: Vec<Vec<Value>>) -> Result<Value> {
    use ApocAggregate as A;
    let name = f.name();
    let first_arg = |r: &Vec<Value>| r.first().cloned().unwrap_or_default();
    let extra = |i: usize| {
        rows.first()
            .and_then(|r| r.get(i))
            .cloned()
            .unwrap_or_default()
    };
    Ok(match f {
        A::First => rows.first().map(first_arg).unwrap_or_default(),
        A::Last => rows.last().map(first_arg).unwrap_or_default(),
        A::Nth => {
            let offset = int(name, &extra(1))?.unwrap_or(0);
            if offset == -1 {
                rows.last().map(first_arg).unwrap_or_default()
            } else {
                usize::try_from(offset)
                    .ok()
                    .and_then(|i| rows.get(i))
                    .map(first_arg)
                    .unwrap_or_default()
            }
        }
        A::Slice => {
            let from = int(name, &extra(1))?.unwrap_or(0).max(0) as usize;
            let to = int(name, &extra(2))?.unwrap_or(-1);
            let it = rows.iter().skip(from).map(first_arg);
            Value::List(if to < 0 {
                it.collect()
            } else {
                it.take((to as usize).saturating_sub(from)).collect()
            })
        }
        A::Median => {
            let mut xs: Vec<Value> = rows
                .iter()
                .map(first_arg)
                .filter(Value::is_number)
                .collect();
            if xs.is_empty() {
                return Ok(Value::Null);
            }
            xs.sort_by(|a, b| a.order(b));
            let mid = xs.len() / 2;
            if xs.len() % 2 == 1 {
                xs[mid].clone()
            } else {
                let a = xs[mid - 1].as_f64().unwrap_or(0.0);
                let b = xs[mid].as_f64().unwrap_or(0.0);
                Value::Float((a + b) / 2.0)
            }
        }
        A::Product => {
            let (mut ints, mut float, mut all_int) = (1i64, 1f64, true);
            for r in &rows {
                match &r[0] {
                    Value::Int(i) => {
                        float *= *i as f64;
                        match ints.checked_mul(*i) {
                            Some(p) => ints = p,
                            None => all_int = false,
                        }
                    }
                    Value::Float(f) => {
                        all_int = false;
                        float *= f;
                    }
                    other => return Err(wrong(name, other, "numbers")),
                }
            }
            if all_int {
                Value::Int(ints)
            } else {
                Value::Float(float)
            }
        }
        A::MaxItems | A::MinItems => {
            // Rows are (item, value[, groupLimit]); the item may be null, the value not.
            let limit = int(name, &extra(2))?.unwrap_or(-1);
            let mut best: Option<Value> = None;
            let mut items: Vec<Value> = Vec::new();
            for r in &rows {
                let (item, v) = (r[0].clone(), r.get(1).cloned().unwrap_or_default());
                if v.is_null() {
                    continue;
                }
                let o = best.as_ref().map(|b| v.order(b));
                let better = match o {
                    None => true,
                    Some(o) => {
                        (f == A::MaxItems && o == Ordering::Greater)
                            || (f == A::MinItems && o == Ordering::Less)
                    }
                };
                if better {
                    best = Some(v);
                    items = vec![item];
                } else if o == Some(Ordering::Equal) && (limit < 0 || (items.len() as i64) < limit)
                {
                    items.push(item);
                }
            }
            Value::Map(BTreeMap::from([
                (key("items"), Value::List(items)),
                (key("value"), best.unwrap_or_default()),
            ]))
        }
        A::Graph => {
            let (mut nodes, mut rels) = (Vec::new(), Vec::new());
            fn gather(v: &Value, nodes: &mut Vec<Value>, rels: &mut Vec<Value>) {
                match v {
                    Value::Node(_) if !nodes.iter().any(|x| same(x, v)) => nodes.push(v.clone()),
                    Value::Relationship(_) if !rels.iter().any(|x| same(x, v)) => {
                        rels.push(v.clone())
                    }
                    Value::Path(p) => {
                        for n in &p.nodes {
                            gather(&Value::Node(*n), nodes, rels);
                        }
                        for r in &p.rels {
                            gather(&Value::Relationship(*r), nodes, rels);
                        }
                    }
                    Value::List(xs) => xs.iter().for_each(|x| gather(x, nodes, rels)),
                    _ => {}
                }
            }
            for r in &rows {
                gather(&r[0], &mut nodes, &mut rels);
            }
            Value::Map(BTreeMap::from([
                (key("nodes"), Value::List(nodes)),
                (key("relationships"), Value::List(rels)),
            ]))
        }
        A::Percentiles | A::Statistics => histogram(f, &rows)?,
    })
}

/// `apoc.agg.percentiles` / `statistics`: the values in HdrHistogram as APOC 5 records them
/// (see `hdr.rs`); the percentiles are the last row's list.
fn histogram(f: ApocAggregate, rows: &[Vec<Value>]) -> Result<Value> {
    let (name, percentiles_only) = (f.name(), f == ApocAggregate::Percentiles);
    use super::hdr::{Hdr, Num};
    let mut h = Hdr::new();
    let mut percentiles: Vec<Value> = [0.5, 0.75, 0.9, 0.95, 0.99]
        .into_iter()
        .map(Value::Float)
        .collect();
    if rows.is_empty() && percentiles_only {
        // Never called: APOC's field default, with 0.9 twice.
        percentiles = [0.5, 0.75, 0.9, 0.95, 0.9, 0.99]
            .into_iter()
            .map(Value::Float)
            .collect();
    }
    let (mut min, mut max): (Option<Value>, Option<Value>) = (None, None);
    for r in rows {
        let v = &r[0];
        let n = match v {
            Value::Int(i) => Num::Int(*i),
            Value::Float(f) => Num::Float(*f),
            other => return Err(wrong(name, other, "numbers")),
        };
        h.record(n).map_err(|e| {
            failed(
                name,
                format!("java.lang.ArrayIndexOutOfBoundsException: {e}"),
            )
        })?;
        let x = v.as_f64().unwrap_or(0.0);
        if min.as_ref().is_none_or(|m| x < m.as_f64().unwrap_or(0.0)) {
            min = Some(v.clone());
        }
        if max.as_ref().is_none_or(|m| x > m.as_f64().unwrap_or(0.0)) {
            max = Some(v.clone());
        }
        match r.get(1) {
            Some(Value::List(ps)) => percentiles = ps.clone(),
            Some(Value::Null) | None => {}
            Some(other) => return Err(wrong(name, other, "a list of floats")),
        }
    }
    let at = |p: &Value| -> Option<Value> {
        let p = p.as_f64()?;
        Some(match h.percentile(p)? {
            Num::Int(i) => Value::Int(i),
            Num::Float(f) => Value::Float(f),
        })
    };
    if percentiles_only {
        return Ok(Value::List(
            percentiles
                .iter()
                .map(|p| at(p).unwrap_or(Value::Null))
                .collect(),
        ));
    }
    let mut m = BTreeMap::new();
    m.insert(key("min"), min.unwrap_or_default());
    m.insert(key("max"), max.unwrap_or_default());
    m.insert(key("minNonZero"), Value::Float(h.min_non_zero()));
    m.insert(key("total"), Value::Int(h.total() as i64));
    m.insert(key("mean"), Value::Float(h.mean()));
    m.insert(key("stdev"), Value::Float(h.std_deviation()));
    for p in &percentiles {
        if let (Some(v), Some(f)) = (at(p), p.as_f64()) {
            let k = crate::engine::functions::to_string_plain(&Value::Float(f));
            m.insert(key(&k), v);
        }
    }
    Ok(Value::Map(m))
}
