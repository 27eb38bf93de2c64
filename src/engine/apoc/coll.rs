//! APOC's list functions (`apoc.coll.*`).

use super::*;

family! {
    /// The `apoc.coll.*` functions.
    CollFn {
        "apoc.coll.avg" => Avg,
        "apoc.coll.combinations" => Combinations,
        "apoc.coll.contains" => Contains,
        "apoc.coll.containsall" => ContainsAll,
        "apoc.coll.containsallsorted" => ContainsAllSorted,
        "apoc.coll.containsduplicates" => ContainsDuplicates,
        "apoc.coll.containssorted" => ContainsSorted,
        "apoc.coll.different" => Different,
        "apoc.coll.disjunction" => Disjunction,
        "apoc.coll.dropduplicateneighbors" => DropDuplicateNeighbors,
        "apoc.coll.duplicates" => Duplicates,
        "apoc.coll.duplicateswithcount" => DuplicatesWithCount,
        "apoc.coll.fill" => Fill,
        "apoc.coll.flatten" => Flatten,
        "apoc.coll.frequencies" => Frequencies,
        "apoc.coll.frequenciesasmap" => FrequenciesAsMap,
        "apoc.coll.indexof" => IndexOf,
        "apoc.coll.insert" => Insert,
        "apoc.coll.insertall" => InsertAll,
        "apoc.coll.intersection" => Intersection,
        "apoc.coll.isequalcollection" => IsEqualCollection,
        "apoc.coll.max" => Max,
        "apoc.coll.min" => Min,
        "apoc.coll.occurrences" => Occurrences,
        "apoc.coll.pairs" => Pairs,
        "apoc.coll.pairsmin" => PairsMin,
        "apoc.coll.pairwithoffset" => PairWithOffset,
        "apoc.coll.partition" => Partition,
        "apoc.coll.randomitem" => RandomItem,
        "apoc.coll.randomitems" => RandomItems,
        "apoc.coll.remove" => Remove,
        "apoc.coll.removeall" => RemoveAll,
        "apoc.coll.runningtotal" => RunningTotal,
        "apoc.coll.set" => Set,
        "apoc.coll.shuffle" => Shuffle,
        "apoc.coll.sort" => Sort,
        "apoc.coll.sortmaps" => SortMaps,
        "apoc.coll.sortmulti" => SortMulti,
        "apoc.coll.sortnodes" => SortNodes,
        "apoc.coll.sorttext" => SortText,
        "apoc.coll.stdev" => Stdev,
        "apoc.coll.subtract" => Subtract,
        "apoc.coll.sum" => Sum,
        "apoc.coll.sumlongs" => SumLongs,
        "apoc.coll.toset" => ToSet,
        "apoc.coll.union" => Union,
        "apoc.coll.unionall" => UnionAll,
        "apoc.coll.zip" => Zip,
    }
}

pub(super) fn coll(run: &Runner, n: &str, f: CollFn, args: &[Value]) -> Result<Value> {
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    if f == CollFn::Fill {
        return coll_fill(n, a0, a1);
    }
    let xs = list(n, a0)?;
    // Functions of one list return null for a null list, except the predicates.
    // A null list: what APOC 5.26's `Coll` answers for each (the oracle).
    let Some(xs) = xs else {
        return Ok(match f {
            CollFn::Contains
            | CollFn::ContainsAll
            | CollFn::ContainsSorted
            | CollFn::ContainsAllSorted
            | CollFn::ContainsDuplicates
            | CollFn::Different => Value::Bool(false),
            CollFn::IsEqualCollection => Value::Bool(a1.is_null()),
            CollFn::Sort
            | CollFn::SortNodes
            | CollFn::SortMaps
            | CollFn::SortText
            | CollFn::Shuffle
            | CollFn::RandomItems
            | CollFn::Duplicates
            | CollFn::DuplicatesWithCount
            | CollFn::Frequencies
            | CollFn::Flatten
            | CollFn::Partition
            | CollFn::Combinations
            | CollFn::Intersection => Value::List(Vec::new()),
            CollFn::FrequenciesAsMap => Value::Map(Default::default()),
            CollFn::IndexOf => Value::Int(-1),
            CollFn::Occurrences => Value::Int(0),
            // `if (first == null) return second`.
            CollFn::Union | CollFn::UnionAll | CollFn::Disjunction => a1.clone(),
            CollFn::SortMulti => return Err(npe(n, "java.util.Collection.toArray()", "c")),
            _ => Value::Null,
        });
    };
    // APOC's aggregates of an empty list are null.
    if xs.is_empty()
        && matches!(
            f,
            CollFn::Sum
                | CollFn::Avg
                | CollFn::Stdev
                | CollFn::RunningTotal
                | CollFn::Min
                | CollFn::Max
        )
    {
        return Ok(Value::Null);
    }
    // APOC reads each element as a java.lang.Number: a null throws, and so does anything else.
    let numbers = |xs: &[Value]| -> Result<Vec<f64>> {
        xs.iter()
            .map(|x| match x {
                Value::Null => Err(npe(n, "java.lang.Number.doubleValue()", "number")),
                Value::Int(i) => Ok(*i as f64),
                Value::Float(f) => Ok(*f),
                // The argument is a LIST<NUMBER>: another element cannot be coerced.
                other => Err(ExecError::type_error(format!(
                    "Can't coerce `{}` to Number",
                    java_value_text(other)
                ))),
            })
            .collect()
    };
    Ok(match f {
        CollFn::Avg => {
            let v = numbers(xs)?;
            if v.is_empty() {
                Value::Null
            } else {
                Value::Float(v.iter().sum::<f64>() / v.len() as f64)
            }
        }
        CollFn::Sum => Value::Float(numbers(xs)?.iter().sum()),
        CollFn::SumLongs => {
            if xs.iter().any(Value::is_null) {
                return Err(npe(n, "java.lang.Number.longValue()", "number"));
            }
            Value::Int(
                xs.iter()
                    .map(|x| num(n, x).map(|v| v.unwrap_or(0.0) as i64))
                    .sum::<Result<i64>>()?,
            )
        }
        CollFn::Stdev => {
            let v = numbers(xs)?;
            let corrected = flag(a1, true);
            let k = v.len() as f64 - if corrected { 1.0 } else { 0.0 };
            if v.is_empty() || k <= 0.0 {
                Value::Float(0.0)
            } else {
                let mean = v.iter().sum::<f64>() / v.len() as f64;
                Value::Float((v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / k).sqrt())
            }
        }
        CollFn::RunningTotal => {
            if xs.iter().any(Value::is_null) {
                return Err(npe(n, "java.lang.Number.doubleValue()", "i"));
            }
            let mut out = Vec::with_capacity(xs.len());
            let (mut ints, mut floats, mut all_int) = (0i64, 0f64, true);
            for x in xs {
                match x {
                    Value::Int(i) => {
                        ints = ints.wrapping_add(*i);
                        floats += *i as f64;
                    }
                    Value::Float(f) => {
                        all_int = false;
                        floats += f;
                    }
                    Value::Null => {}
                    other => return Err(wrong(n, other, "a list of numbers")),
                }
                out.push(if all_int {
                    Value::Int(ints)
                } else {
                    Value::Float(floats)
                });
            }
            Value::List(out)
        }
        // APOC runs `reduce(res = null, x IN $list | CASE WHEN res IS NULL OR x > res THEN x
        // ELSE res END)` (`<` for min): values that do not compare with the best so far are
        // passed over.
        CollFn::Max | CollFn::Min => {
            let op = if f == CollFn::Max {
                crate::syntax::ast::BinaryOp::Gt
            } else {
                crate::syntax::ast::BinaryOp::Lt
            };
            let mut best = &Value::Null;
            for x in xs {
                if best.is_null() || crate::engine::eval::compare_op(op, x, best) == Some(true) {
                    best = x;
                }
            }
            best.clone()
        }
        CollFn::Contains => Value::Bool(xs.iter().any(|x| same(x, a1))),
        // `Collections.binarySearch` over the list as given (sorted or not), comparing Java
        // objects: mixed classes and nulls throw as they do in APOC.
        CollFn::ContainsSorted => {
            Value::Bool(!xs.is_empty() && java_binary_search(xs, a1).map_err(|e| failed(n, e))?)
        }
        CollFn::ContainsAllSorted => match list(n, a1)? {
            Some(ys) => {
                let mut all = true;
                for y in ys {
                    if !java_binary_search(xs, y).map_err(|e| failed(n, e))? {
                        all = false;
                        break;
                    }
                }
                Value::Bool(all)
            }
            None => Value::Bool(false),
        },
        CollFn::ContainsAll => match list(n, a1)? {
            Some(ys) => Value::Bool(ys.iter().all(|y| xs.iter().any(|x| same(x, y)))),
            None => Value::Bool(false),
        },
        CollFn::ContainsDuplicates => Value::Bool(distinct(xs).len() < xs.len()),
        CollFn::Different => Value::Bool(distinct(xs).len() == xs.len()),
        CollFn::ToSet => Value::List(distinct(xs)),
        CollFn::Duplicates => Value::List(
            counts(xs)
                .into_iter()
                .filter(|(_, c)| *c > 1)
                .map(|(x, _)| x)
                .collect(),
        ),
        CollFn::DuplicatesWithCount | CollFn::Frequencies => Value::List(
            counts(xs)
                .into_iter()
                .filter(|(_, c)| f == CollFn::Frequencies || *c > 1)
                .map(|(x, c)| {
                    Value::Map(BTreeMap::from([
                        (key("item"), x),
                        (key("count"), Value::Int(c)),
                    ]))
                })
                .collect(),
        ),
        // Keys as the values Neo4j hands APOC print themselves: null as `NO_VALUE`, a list as
        // `List{Long(2), Long(3)}`.
        CollFn::FrequenciesAsMap => Value::Map(
            counts(xs)
                .into_iter()
                .map(|(x, c)| {
                    let k = match &x {
                        Value::Null => "NO_VALUE".to_string(),
                        Value::List(items) => format!(
                            "List{{{}}}",
                            items
                                .iter()
                                .map(super::java_value_text)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        other => crate::engine::functions::to_string_plain(other),
                    };
                    (key(&k), Value::Int(c))
                })
                .collect(),
        ),
        CollFn::Occurrences => Value::Int(xs.iter().filter(|x| same(x, a1)).count() as i64),
        CollFn::IndexOf => Value::Int(xs.iter().position(|x| same(x, a1)).map_or(-1, |i| i as i64)),
        CollFn::DropDuplicateNeighbors => {
            let mut out: Vec<Value> = Vec::new();
            for x in xs {
                if out.last().is_none_or(|l| !same(l, x)) {
                    out.push(x.clone());
                }
            }
            Value::List(out)
        }
        CollFn::Flatten => {
            fn go(xs: &[Value], deep: bool, depth: usize, out: &mut Vec<Value>) {
                for x in xs {
                    match x {
                        Value::List(inner) if depth == 0 || deep => go(inner, deep, depth + 1, out),
                        other => out.push(other.clone()),
                    }
                }
            }
            if xs.iter().any(Value::is_null) {
                return Err(npe(n, "Object.getClass()", "aObject"));
            }
            let mut out = Vec::new();
            go(xs, flag(a1, false), 0, &mut out);
            Value::List(out)
        }
        CollFn::Insert | CollFn::Set => {
            let Some(i) = int(n, a1)? else {
                return Ok(Value::List(xs.to_vec()));
            };
            // (A null value leaves the list as it is.)
            if a2.is_null() {
                return Ok(Value::List(xs.to_vec()));
            }
            let mut out = xs.to_vec();
            if i < 0 || i as usize > out.len() || (f == CollFn::Set && i as usize == out.len()) {
                return Ok(Value::List(out));
            }
            if f == CollFn::Insert {
                out.insert(i as usize, a2.clone());
            } else {
                out[i as usize] = a2.clone();
            }
            Value::List(out)
        }
        CollFn::InsertAll => {
            let Some(i) = int(n, a1)? else {
                return Ok(Value::List(xs.to_vec()));
            };
            let mut out = xs.to_vec();
            if i < 0 || i as usize > out.len() {
                return Ok(Value::List(out));
            }
            let items = list(n, a2)?.unwrap_or_default();
            out.splice(i as usize..i as usize, items.iter().cloned());
            Value::List(out)
        }
        CollFn::Remove => {
            let i = int(n, a1)?.unwrap_or(0);
            let len = match arg(args, 2) {
                Value::Null => 1,
                v => int(n, v)?.unwrap_or(1),
            };
            let mut out = xs.to_vec();
            if i < 0 || i as usize >= out.len() || len < 0 {
                return Ok(Value::List(out));
            }
            let end = (i as usize).saturating_add(len as usize).min(out.len());
            out.drain(i as usize..end);
            Value::List(out)
        }
        CollFn::RemoveAll | CollFn::Subtract => {
            let ys = list(n, a1)?.unwrap_or_default();
            let kept: Vec<Value> = xs
                .iter()
                .filter(|x| !ys.iter().any(|y| same(x, y)))
                .cloned()
                .collect();
            Value::List(if f == CollFn::Subtract {
                distinct(&kept)
            } else {
                kept
            })
        }
        CollFn::Intersection => {
            let ys = list(n, a1)?.unwrap_or_default();
            Value::List(distinct(
                &xs.iter()
                    .filter(|x| ys.iter().any(|y| same(x, y)))
                    .cloned()
                    .collect::<Vec<_>>(),
            ))
        }
        CollFn::Union => {
            let ys = list(n, a1)?.unwrap_or_default();
            Value::List(distinct(&[xs, ys].concat()))
        }
        CollFn::UnionAll => Value::List([xs, list(n, a1)?.unwrap_or_default()].concat()),
        CollFn::Disjunction => {
            let ys = list(n, a1)?.unwrap_or_default();
            let only = |a: &[Value], b: &[Value]| -> Vec<Value> {
                a.iter()
                    .filter(|x| !b.iter().any(|y| same(x, y)))
                    .cloned()
                    .collect()
            };
            Value::List(distinct(&[only(xs, ys), only(ys, xs)].concat()))
        }
        CollFn::IsEqualCollection => {
            let ys = list(n, a1)?.unwrap_or_default();
            let mut a = counts(xs);
            let b = counts(ys);
            a.retain(|(x, c)| b.iter().any(|(y, d)| same(x, y) && c == d));
            Value::Bool(xs.len() == ys.len() && a.len() == b.len())
        }
        CollFn::Pairs | CollFn::PairsMin => {
            let mut out: Vec<Value> = xs.windows(2).map(|w| Value::List(w.to_vec())).collect();
            if f == CollFn::Pairs {
                if let Some(last) = xs.last() {
                    out.push(Value::List(vec![last.clone(), Value::Null]));
                }
            }
            Value::List(out)
        }
        CollFn::PairWithOffset => {
            let off = int(n, a1)?.unwrap_or(0);
            Value::List(
                (0..xs.len() as i64)
                    .map(|i| {
                        let j = i + off;
                        let other = if j >= 0 && (j as usize) < xs.len() {
                            xs[j as usize].clone()
                        } else {
                            Value::Null
                        };
                        Value::List(vec![xs[i as usize].clone(), other])
                    })
                    .collect(),
            )
        }
        CollFn::Partition => {
            let size = int(n, a1)?.unwrap_or(0);
            if size < 0 {
                return Ok(Value::List(Vec::new()));
            }
            if size == 0 {
                return Err(failed(
                    n,
                    "java.lang.IllegalArgumentException: batchSize must be > 0",
                ));
            }
            Value::List(
                xs.chunks(size as usize)
                    .map(|c| Value::List(c.to_vec()))
                    .collect(),
            )
        }
        CollFn::Zip => {
            let Some(ys) = list(n, a1)? else {
                return Ok(Value::Null);
            };
            if xs.is_empty() || ys.is_empty() {
                return Ok(Value::List(Vec::new()));
            }
            Value::List(
                xs.iter()
                    .enumerate()
                    .map(|(i, x)| {
                        Value::List(vec![x.clone(), ys.get(i).cloned().unwrap_or_default()])
                    })
                    .collect(),
            )
        }
        CollFn::Combinations => {
            let min = int(n, a1)?.unwrap_or(0).max(0) as usize;
            let max = match a2 {
                Value::Null => min,
                v => match int(n, v)?.unwrap_or(-1) {
                    -1 => min,
                    m => m.max(0) as usize,
                },
            };
            // More than the list holds: no combinations at all.
            if max > xs.len() {
                return Ok(Value::List(Vec::new()));
            }
            let mut out = Vec::new();
            for k in min.max(1)..=max {
                // Index combinations of size k in lexicographic order.
                let mut idx: Vec<usize> = (0..k).collect();
                loop {
                    run.sh.tick()?;
                    out.push(Value::List(idx.iter().map(|&i| xs[i].clone()).collect()));
                    run.sh.can_allocate(out.len().saturating_mul(k * 32))?;
                    let mut i = k;
                    while i > 0 && idx[i - 1] == xs.len() - k + i - 1 {
                        i -= 1;
                    }
                    if i == 0 {
                        break;
                    }
                    idx[i - 1] += 1;
                    for j in i..k {
                        idx[j] = idx[j - 1] + 1;
                    }
                }
            }
            Value::List(out)
        }
        // `Collections.sort` of the Java objects: mixed classes, nulls, lists and maps throw
        // as they do in APOC.
        CollFn::Sort => {
            let mut out = xs.to_vec();
            java_sort(&mut out, &mut |a, b, recv| java_compare_to(a, b, recv))
                .map_err(|e| failed(n, e))?;
            Value::List(out)
        }
        CollFn::SortText => {
            if xs.iter().any(Value::is_null) {
                return Err(failed(n, "java.lang.NullPointerException"));
            }
            let mut out: Vec<Value> = xs.iter().filter(|x| !x.is_null()).cloned().collect();
            let fold = |v: &Value| v.as_str().unwrap_or_default().to_lowercase();
            out.sort_by(|a, b| fold(a).cmp(&fold(b)).then_with(|| a.order(b)));
            Value::List(out)
        }
        CollFn::SortMaps | CollFn::SortNodes => {
            if xs.is_empty() {
                return Ok(Value::List(Vec::new()));
            }
            let (asc, prop) = sort_key(text(n, a1)?, "prop").map_err(|e| failed(n, e))?;
            let mut keyed: Vec<(Value, Value)> = xs
                .iter()
                .map(|x| {
                    let k = match x {
                        Value::Map(m) => m.get(prop).cloned().unwrap_or_default(),
                        Value::Node(_) | Value::Relationship(_) => {
                            run.java_property(x, prop).unwrap_or_default()
                        }
                        _ => Value::Null,
                    };
                    (k, x.clone())
                })
                .collect();
            // A stable sort; descending is the comparator reversed, so ties keep their order.
            keyed.sort_by(|a, b| {
                let o = apoc_compare(&a.0, &b.0);
                if asc {
                    o
                } else {
                    o.reverse()
                }
            });
            Value::List(keyed.into_iter().map(|(_, x)| x).collect())
        }
        CollFn::SortMulti => {
            let mut out = xs.to_vec();
            let fields = match a1 {
                Value::Null => Vec::new(),
                Value::List(fs) => fs
                    .iter()
                    .map(|f| match f {
                        Value::Null => Ok(None),
                        Value::String(s) => Ok(Some(s.as_ref())),
                        other => Err(super::coerce_to_string(other)),
                    })
                    .collect::<Result<Vec<_>>>()?,
                other => return Err(wrong(n, other, "a list of strings")),
            };
            let fields = fields
                .into_iter()
                .map(|f| sort_key(f, "v"))
                .collect::<std::result::Result<Vec<_>, String>>()
                .map_err(|e| failed(n, e))?;
            if !fields.is_empty() {
                // APOC's comparator: field by field until one differs; null below anything.
                java_sort(&mut out, &mut |o1, o2, _| {
                    let get = |m: &Value, f: &str| match m {
                        Value::Map(m) => m.get(f).cloned().unwrap_or_default(),
                        _ => Value::Null,
                    };
                    for (asc, f) in &fields {
                        let (v1, v2) = (get(o1, f), get(o2, f));
                        for v in [&v1, &v2] {
                            if matches!(v, Value::List(_) | Value::Map(_)) {
                                return Err(java_cast_error(java_class(v), "java.lang.Comparable"));
                            }
                        }
                        let cmp = match (&v1, &v2) {
                            (Value::Null, Value::Null) => Ordering::Equal,
                            (Value::Null, _) => Ordering::Less,
                            (_, Value::Null) => Ordering::Greater,
                            _ => java_compare_to(&v1, &v2, "v1")?,
                        };
                        let cmp = if *asc { cmp } else { cmp.reverse() };
                        if cmp != Ordering::Equal {
                            return Ok(cmp);
                        }
                    }
                    Ok(Ordering::Equal)
                })
                .map_err(|e| failed(n, e))?;
            }
            // `subList` with the bounds APOC computes (as Java ints), and its exceptions.
            let limit = match a2 {
                Value::Null => -1,
                v => int(n, v)?.unwrap_or(-1),
            };
            let skip = int(n, arg(args, 3))?.unwrap_or(0);
            let size = out.len() as i64;
            let (from, to) = if skip > 0 && limit != -1 {
                (
                    i64::from(skip as i32),
                    i64::from(skip.wrapping_add(limit) as i32),
                )
            } else if skip > 0 {
                (i64::from(skip as i32), size)
            } else if limit != -1 {
                (0, i64::from(limit as i32))
            } else {
                (0, size)
            };
            if from < 0 {
                return Err(failed(
                    n,
                    format!("java.lang.IndexOutOfBoundsException: fromIndex = {from}"),
                ));
            }
            if to > size {
                return Err(failed(
                    n,
                    format!("java.lang.IndexOutOfBoundsException: toIndex = {to}"),
                ));
            }
            if from > to {
                return Err(failed(
                    n,
                    format!(
                        "java.lang.IllegalArgumentException: fromIndex({from}) > toIndex({to})"
                    ),
                ));
            }
            Value::List(out[from as usize..to as usize].to_vec())
        }
        CollFn::RandomItem => {
            if xs.is_empty() {
                Value::Null
            } else {
                xs[index_in(xs.len())].clone()
            }
        }
        CollFn::RandomItems => {
            let count = int(n, a1)?.unwrap_or(0).max(0) as usize;
            let repick = flag(a2, false);
            let mut pool = xs.to_vec();
            let mut out = Vec::new();
            while out.len() < count && !pool.is_empty() {
                let i = index_in(pool.len());
                if repick {
                    out.push(pool[i].clone());
                } else {
                    out.push(pool.swap_remove(i));
                }
            }
            Value::List(out)
        }
        CollFn::Shuffle => {
            let mut out = xs.to_vec();
            for i in (1..out.len()).rev() {
                let j = index_in(i + 1);
                out.swap(i, j);
            }
            Value::List(out)
        }
        _ => return Err(ExecError::unsupported(n)),
    })
}

pub(super) fn coll_fill(n: &str, item: &Value, count: &Value) -> Result<Value> {
    let Some(c) = int(n, count)? else {
        return Ok(Value::Null);
    };
    if c > 10_000_000 {
        return Err(failed(n, format!("cannot fill a list of {c} items")));
    }
    if c < 0 {
        // `Collections.nCopies`.
        return Err(failed(
            n,
            format!("java.lang.IllegalArgumentException: List length = {c}"),
        ));
    }
    Ok(Value::List(vec![item.clone(); c.max(0) as usize]))
}

/// The Java class of a value as APOC receives it.
pub(crate) fn java_class(v: &Value) -> &'static str {
    use crate::temporal::Temporal as T;
    match v {
        Value::Int(_) => "java.lang.Long",
        Value::Float(_) => "java.lang.Double",
        Value::String(_) => "java.lang.String",
        Value::Bool(_) => "java.lang.Boolean",
        Value::List(_) => "java.util.ArrayList",
        Value::Map(_) => "java.util.HashMap",
        Value::Temporal(t) => match &**t {
            T::Date(_) => "java.time.LocalDate",
            T::LocalTime(_) => "java.time.LocalTime",
            T::Time(..) => "java.time.OffsetTime",
            T::LocalDateTime(_) => "java.time.LocalDateTime",
            T::DateTime(..) => "java.time.ZonedDateTime",
            T::Duration(_) => "org.neo4j.values.storable.DurationValue",
        },
        Value::Point(_) => "org.neo4j.values.storable.PointValue",
        _ => "java.lang.Object",
    }
}

/// The class a `Comparable` receiver casts its argument to (`Comparable<T>`'s `T`).
fn java_comparable_of(v: &Value) -> &'static str {
    use crate::temporal::Temporal as T;
    match v {
        Value::Temporal(t) => match &**t {
            T::Date(_) => "java.time.chrono.ChronoLocalDate",
            T::LocalDateTime(_) => "java.time.chrono.ChronoLocalDateTime",
            T::DateTime(..) => "java.time.chrono.ChronoZonedDateTime",
            _ => java_class(v),
        },
        _ => java_class(v),
    }
}

/// Java's `ClassCastException` text: `from` cannot be cast to `to`, with each class's module.
fn java_cast_error(from: &str, to: &str) -> String {
    let module = |c: &str| {
        if c.starts_with("java.") {
            "module java.base of loader 'bootstrap'"
        } else {
            "unnamed module of loader 'app'"
        }
    };
    let place = if module(from) == module(to) {
        format!("{from} and {to} are in {}", module(from))
    } else {
        format!("{from} is in {}; {to} is in {}", module(from), module(to))
    };
    format!("java.lang.ClassCastException: class {from} cannot be cast to class {to} ({place})")
}

/// `receiver.compareTo(argument)` on the Java objects APOC holds: same classes compare,
/// anything else throws (the text of the exception, `receiver` naming the receiver's variable
/// for a null one).
fn java_compare_to(
    recv: &Value,
    arg: &Value,
    receiver: &str,
) -> std::result::Result<std::cmp::Ordering, String> {
    use crate::temporal::Temporal as T;
    match (recv, arg) {
        (Value::Null, _) => Err(format!(
            "java.lang.NullPointerException: Cannot invoke \"java.lang.Comparable.compareTo(Object)\" because \"{receiver}\" is null"
        )),
        (Value::List(_) | Value::Map(_), _) => {
            Err(java_cast_error(java_class(recv), "java.lang.Comparable"))
        }
        (Value::Int(_), Value::Null) => Err(
            "java.lang.NullPointerException: Cannot read field \"value\" because \"anotherLong\" is null".into(),
        ),
        (Value::Float(_), Value::Null) => Err(
            "java.lang.NullPointerException: Cannot read field \"value\" because \"anotherDouble\" is null".into(),
        ),
        (Value::String(_), Value::Null) => Err(
            "java.lang.NullPointerException: Cannot read field \"value\" because \"anotherString\" is null".into(),
        ),
        (Value::Int(a), Value::Int(b)) => Ok(a.cmp(b)),
        (Value::Float(a), Value::Float(b)) => Ok(java_double_compare(*a, *b)),
        (Value::String(a), Value::String(b)) => Ok(a.encode_utf16().cmp(b.encode_utf16())),
        (Value::Bool(a), Value::Bool(b)) => Ok(a.cmp(b)),
        (Value::Point(_), Value::Point(_)) => Ok(recv.order(arg)),
        (Value::Temporal(a), Value::Temporal(b))
            if std::mem::discriminant(&**a) == std::mem::discriminant(&**b) =>
        {
            Ok(match (&**a, &**b) {
                // ZonedDateTime: the instant, then the local date-time, then the zone.
                (T::DateTime(x, xo, xz), T::DateTime(y, yo, yz)) => {
                    let instant = |d: &chrono::NaiveDateTime, o: i32| {
                        d.and_utc().timestamp() - i64::from(o)
                    };
                    instant(x, *xo)
                        .cmp(&instant(y, *yo))
                        .then_with(|| {
                            x.and_utc()
                                .timestamp_subsec_nanos()
                                .cmp(&y.and_utc().timestamp_subsec_nanos())
                        })
                        .then_with(|| x.cmp(y))
                        .then_with(|| xz.cmp(yz))
                }
                // OffsetTime: the time at UTC, then the local time.
                (T::Time(x, xo), T::Time(y, yo)) => {
                    let utc = |t: &chrono::NaiveTime, o: i32| {
                        i64::from(chrono::Timelike::num_seconds_from_midnight(t)) - i64::from(o)
                    };
                    utc(x, *xo)
                        .cmp(&utc(y, *yo))
                        .then_with(|| {
                            chrono::Timelike::nanosecond(x).cmp(&chrono::Timelike::nanosecond(y))
                        })
                        .then_with(|| x.cmp(y))
                }
                _ => recv.order(arg),
            })
        }
        (a, b) => Err(java_cast_error(java_class(b), java_comparable_of(a))),
    }
}

/// Java's `Double.compare`: -0.0 below 0.0, NaN above everything and equal to itself.
fn java_double_compare(a: f64, b: f64) -> std::cmp::Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => std::cmp::Ordering::Equal,
        (true, false) => std::cmp::Ordering::Greater,
        (false, true) => std::cmp::Ordering::Less,
        (false, false) => a.total_cmp(&b),
    }
}

/// A comparison as Java sorts call it: `compare(a, b, receiver)` is `a.compareTo(b)` or a
/// comparator's `compare(a, b)`, `receiver` naming `a`'s variable in Java's own code for a
/// null-pointer message; an `Err` is the exception's text.
type JavaCompare<'a> =
    dyn FnMut(&Value, &Value, &str) -> std::result::Result<std::cmp::Ordering, String> + 'a;

/// Java's `List.sort` (TimSort): the same comparisons in the same order as Java's for lists
/// under 32 elements (the initial run, then binary insertion), so that a comparison that
/// throws throws for the same pair; longer lists are cut into runs as TimSort cuts them and
/// merged stably. Equal elements keep their order.
fn java_sort(a: &mut [Value], c: &mut JavaCompare) -> std::result::Result<(), String> {
    use std::cmp::Ordering::Less;
    const MIN_MERGE: usize = 32;
    let n = a.len();
    if n < 2 {
        return Ok(());
    }
    // The run starting at `lo`, made ascending.
    let count_run = |a: &mut [Value], lo: usize, c: &mut JavaCompare| {
        let hi = a.len();
        let mut run_hi = lo + 1;
        if run_hi == hi {
            return Ok(1);
        }
        if c(&a[run_hi], &a[lo], "a[runHi]")? == Less {
            run_hi += 1;
            while run_hi < hi && c(&a[run_hi], &a[run_hi - 1], "a[runHi]")? == Less {
                run_hi += 1;
            }
            a[lo..run_hi].reverse();
        } else {
            run_hi += 1;
            while run_hi < hi && c(&a[run_hi], &a[run_hi - 1], "a[runHi]")? != Less {
                run_hi += 1;
            }
        }
        Ok::<usize, String>(run_hi - lo)
    };
    // Binary insertion of a[start..hi] into the sorted a[lo..start].
    let binary_sort = |a: &mut [Value], lo: usize, hi: usize, start: usize, c: &mut JavaCompare| {
        let mut start = if start == lo { start + 1 } else { start };
        while start < hi {
            let (mut left, mut right) = (lo, start);
            while left < right {
                let mid = (left + right) >> 1;
                if c(&a[start], &a[mid], "pivot")? == Less {
                    right = mid;
                } else {
                    left = mid + 1;
                }
            }
            a[left..=start].rotate_right(1);
            start += 1;
        }
        Ok::<(), String>(())
    };
    if n < MIN_MERGE {
        let run = count_run(a, 0, c)?;
        return binary_sort(a, 0, n, run, c);
    }
    let min_run = {
        let (mut m, mut r) = (n, 0);
        while m >= MIN_MERGE {
            r |= m & 1;
            m >>= 1;
        }
        m + r
    };
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut lo = 0;
    while lo < n {
        let mut len = count_run(&mut a[..], lo, c)?;
        if len < min_run {
            let force = (n - lo).min(min_run);
            binary_sort(a, lo, lo + force, lo + len, c)?;
            len = force;
        }
        runs.push((lo, len));
        lo += len;
    }
    // Merge neighbouring runs until one is left; on a tie the left run's element goes first.
    while runs.len() > 1 {
        let mut merged = Vec::with_capacity(runs.len().div_ceil(2));
        for pair in runs.chunks(2) {
            let &[(l, ll), (r, rl)] = pair else {
                merged.push(pair[0]);
                continue;
            };
            let left: Vec<Value> = a[l..l + ll].to_vec();
            let (mut i, mut j, mut k) = (0, r, l);
            while i < left.len() && j < r + rl {
                if c(&a[j], &left[i], "a[cursor2]")? == Less {
                    a[k] = a[j].clone();
                    j += 1;
                } else {
                    a[k] = left[i].clone();
                    i += 1;
                }
                k += 1;
            }
            while i < left.len() {
                a[k] = left[i].clone();
                i += 1;
                k += 1;
            }
            merged.push((l, ll + rl));
        }
        runs = merged;
    }
    Ok(())
}

/// APOC's `compare(o1, o2)` for `sortMaps` and `sortNodes`: null first, numbers by value,
/// `false` before `true`, nodes and relationships by id, anything else by its Java text.
fn apoc_compare(a: &Value, b: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    match (a, b) {
        (Value::Null, Value::Null) => Equal,
        (Value::Null, _) => Less,
        (_, Value::Null) => Greater,
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            let f = |v: &Value| match v {
                Value::Int(i) => *i as f64,
                Value::Float(f) => *f,
                _ => 0.0,
            };
            java_double_compare(f(a), f(b))
        }
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Node(x), Value::Node(y)) => x.0.cmp(&y.0),
        (Value::Relationship(x), Value::Relationship(y)) => x.0.cmp(&y.0),
        _ => {
            let (x, y) = (super::java_to_string(a), super::java_to_string(b));
            x.encode_utf16().cmp(y.encode_utf16())
        }
    }
}

/// `prop.charAt(0)` as APOC reads a sort key's leading `^`: Java's exceptions for a null or
/// empty key; `Ok((ascending, name))` otherwise.
fn sort_key<'s>(
    prop: Option<&'s str>,
    variable: &str,
) -> std::result::Result<(bool, &'s str), String> {
    match prop {
        None => Err(format!(
            "java.lang.NullPointerException: Cannot invoke \"String.charAt(int)\" because \"{variable}\" is null"
        )),
        Some("") => Err("java.lang.StringIndexOutOfBoundsException: String index out of range: 0".into()),
        Some(p) => Ok(match p.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, p),
        }),
    }
}

/// Java's `Collections.binarySearch(list, key)` (its `indexedBinarySearch`): whether it finds
/// the key, probing as Java probes.
fn java_binary_search(xs: &[Value], key: &Value) -> std::result::Result<bool, String> {
    let (mut lo, mut hi) = (0isize, xs.len() as isize - 1);
    while lo <= hi {
        let mid = ((lo + hi) as usize) >> 1;
        match java_compare_to(&xs[mid], key, "midVal")? {
            std::cmp::Ordering::Less => lo = mid as isize + 1,
            std::cmp::Ordering::Greater => hi = mid as isize - 1,
            std::cmp::Ordering::Equal => return Ok(true),
        }
    }
    Ok(false)
}
