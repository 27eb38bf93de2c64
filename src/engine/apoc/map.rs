//! APOC's map functions (`apoc.map.*`).

use super::*;

family! {
    /// The `apoc.map.*` functions.
    MapFn {
        "apoc.map.clean" => Clean,
        "apoc.map.flatten" => Flatten,
        "apoc.map.fromlists" => FromLists,
        "apoc.map.fromnodes" => FromNodes,
        "apoc.map.frompairs" => FromPairs,
        "apoc.map.fromvalues" => FromValues,
        "apoc.map.get" => Get,
        "apoc.map.groupby" => GroupBy,
        "apoc.map.groupbymulti" => GroupByMulti,
        "apoc.map.merge" => Merge,
        "apoc.map.mergelist" => MergeList,
        "apoc.map.mget" => Mget,
        "apoc.map.removekey" => RemoveKey,
        "apoc.map.removekeys" => RemoveKeys,
        "apoc.map.setentry" => SetEntry,
        "apoc.map.setkey" => SetKey,
        "apoc.map.setlists" => SetLists,
        "apoc.map.setpairs" => SetPairs,
        "apoc.map.setvalues" => SetValues,
        "apoc.map.sortedproperties" => SortedProperties,
        "apoc.map.submap" => Submap,
        "apoc.map.unflatten" => Unflatten,
        "apoc.map.values" => Values,
    }
}

pub(super) fn map_fn(run: &Runner, n: &str, f: MapFn, args: &[Value]) -> Result<Value> {
    let (a0, a1, a2) = (arg(args, 0), arg(args, 1), arg(args, 2));
    let keys_of = |m: &BTreeMap<Arc<str>, Value>| -> String {
        let ks: Vec<&str> = m.keys().map(|k| &**k).collect();
        format!("[{}]", ks.join(", "))
    };
    // Nulls where APOC 5.26 dereferences them (its messages), or answers otherwise than an
    // absent map would.
    match (f, a0.is_null(), a1.is_null(), a2.is_null()) {
        (MapFn::FromNodes, true, _, _) => {
            return Err(failed(
                n,
                "java.lang.IllegalArgumentException: A label cannot have a null name",
            ))
        }
        (MapFn::FromNodes, false, true, _) => return Ok(Value::Map(BTreeMap::new())),
        (MapFn::Get | MapFn::RemoveKey, true, _, _) => {
            return Err(npe(n, "java.util.Map.containsKey(Object)", "map"))
        }
        (MapFn::GroupBy | MapFn::GroupByMulti, true, _, _) => {
            return Err(npe(n, "java.util.List.size()", "values"))
        }
        (MapFn::MergeList, true, _, _) => return Err(npe(n, "java.util.List.size()", "maps")),
        (MapFn::Mget | MapFn::Submap, false, true, _) => return Ok(Value::Null),
        (MapFn::RemoveKeys, true, _, _) => return Err(npe(n, "java.util.Map.size()", "m")),
        (MapFn::RemoveKeys, false, true, _) => {
            return Err(failed(n, "java.lang.NullPointerException"))
        }
        (MapFn::SortedProperties, true, _, _) => {
            return Err(npe(n, "java.util.Map.keySet()", "map"))
        }
        (MapFn::Flatten, true, _, _) => return Err(npe(n, "java.util.Map.entrySet()", "map")),
        (MapFn::Unflatten, true, _, _) => {
            return Err(npe(n, "java.util.Map.entrySet()", "inputMap"))
        }
        (MapFn::Values, true, _, _) => return Ok(Value::List(Vec::new())),
        (MapFn::Clean, true, _, _) => return Err(npe(n, "java.util.Map.size()", "map")),
        (MapFn::Clean, false, true, _) | (MapFn::Clean, false, false, true) => {
            return Err(npe(n, "java.util.Collection.size()", "c"))
        }
        _ => {}
    }
    Ok(match f {
        MapFn::FromLists => Value::Map(map_from_lists(n, list(n, a0)?, list(n, a1)?)?),
        MapFn::FromPairs => Value::Map(map_from_pairs(n, list(n, a0)?)?),
        MapFn::FromValues => Value::Map(util_map(n, list(n, a0)?)?),
        MapFn::FromNodes => {
            let (Some(label), Some(prop)) = (text(n, a0)?, text(n, a1)?) else {
                return Ok(Value::Null);
            };
            let g = run.graph();
            let mut m = BTreeMap::new();
            if let (Some(l), Some(p)) = (g.sym(label), g.sym(prop)) {
                for &node in g.nodes_with_label(l) {
                    if let Some(v) = g.node_property(node, p) {
                        m.insert(
                            key(&crate::engine::functions::to_string_plain(&v)),
                            Value::Node(node),
                        );
                    }
                }
            }
            Value::Map(m)
        }
        MapFn::GroupBy | MapFn::GroupByMulti => {
            let k = text(n, a1)?.unwrap_or_default();
            let mut m: BTreeMap<Arc<str>, Value> = BTreeMap::new();
            for x in list(n, a0)?.unwrap_or_default() {
                let v = match x {
                    Value::Map(mm) => mm.get(k).cloned(),
                    Value::Node(_) | Value::Relationship(_) => Some(run.java_property(x, k)?),
                    _ => None,
                };
                let Some(v) = v.filter(|v| !v.is_null()) else {
                    continue;
                };
                let kk = key(&crate::engine::functions::to_string_plain(&v));
                if f == MapFn::GroupBy {
                    m.insert(kk, x.clone());
                } else {
                    match m.entry(kk).or_insert_with(|| Value::List(Vec::new())) {
                        Value::List(items) => items.push(x.clone()),
                        _ => unreachable!("groups are lists"),
                    }
                }
            }
            Value::Map(m)
        }
        MapFn::MergeList => {
            let mut m = BTreeMap::new();
            for x in list(n, a0)?.unwrap_or_default() {
                if let Value::Map(mm) = x {
                    m.extend(mm.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
            }
            Value::Map(m)
        }
        // A null first map merges as an empty one.
        MapFn::Merge if a0.is_null() => Value::Map(map(n, a1)?.cloned().unwrap_or_default()),
        // The builders merge what they build into the map (a null map as an empty one).
        MapFn::SetEntry | MapFn::SetKey => {
            let mut second = Map::new();
            if !a1.is_null() {
                second.insert(key(&super::java_to_string(a1)), a2.clone());
            }
            util_merge(map(n, a0)?, second)
        }
        MapFn::SetLists => util_merge(map(n, a0)?, map_from_lists(n, list(n, a1)?, list(n, a2)?)?),
        MapFn::SetPairs => util_merge(map(n, a0)?, map_from_pairs(n, list(n, a1)?)?),
        MapFn::SetValues => util_merge(map(n, a0)?, util_map(n, list(n, a1)?)?),
        _ => {
            let Some(m) = map(n, a0)? else {
                return Ok(Value::Null);
            };
            match f {
                MapFn::Merge => {
                    let mut out = m.clone();
                    if let Some(m2) = map(n, a1)? {
                        out.extend(m2.iter().map(|(k, v)| (k.clone(), v.clone())));
                    }
                    Value::Map(out)
                }
                MapFn::RemoveKey | MapFn::RemoveKeys => {
                    let ks: Vec<String> = if f == MapFn::RemoveKey {
                        text(n, a1)?
                            .map(|k| vec![k.to_string()])
                            .unwrap_or_default()
                    } else {
                        strings(n, a1)?
                    };
                    let recursive = match a2 {
                        Value::Map(c) => flag(c.get("recursive").unwrap_or(&Value::Null), false),
                        _ => false,
                    };
                    fn strip(m: &BTreeMap<Arc<str>, Value>, ks: &[String], deep: bool) -> Value {
                        Value::Map(
                            m.iter()
                                .filter(|(k, _)| !ks.iter().any(|x| x == &***k))
                                .map(|(k, v)| {
                                    let v = match v {
                                        Value::Map(inner) if deep => strip(inner, ks, deep),
                                        Value::List(items) if deep => Value::List(
                                            items
                                                .iter()
                                                .map(|x| match x {
                                                    Value::Map(im) => strip(im, ks, deep),
                                                    other => other.clone(),
                                                })
                                                .collect(),
                                        ),
                                        other => other.clone(),
                                    };
                                    (k.clone(), v)
                                })
                                .collect(),
                        )
                    }
                    strip(m, &ks, recursive)
                }
                MapFn::Clean => {
                    let ks = strings(n, a1)?;
                    let vs = list(n, a2)?.unwrap_or_default();
                    Value::Map(
                        m.iter()
                            .filter(|(k, v)| {
                                !ks.iter().any(|x| x == &***k)
                                    && !v.is_null()
                                    && !vs.iter().any(|y| same(v, y))
                            })
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect(),
                    )
                }
                MapFn::Get => {
                    let k = text(n, a1)?.unwrap_or_default();
                    match m.get(k) {
                        Some(v) => v.clone(),
                        // APOC fails only when no default value is given.
                        None if flag(arg(args, 3), true) && a2.is_null() => {
                            return Err(failed(
                                n,
                                format!(
                                    "java.lang.IllegalArgumentException: Key {k} is not of one of the existing keys {}",
                                    keys_of(m)
                                ),
                            ))
                        }
                        None => a2.clone(),
                    }
                }
                MapFn::Mget | MapFn::Submap => {
                    let ks = strings(n, a1)?;
                    let defaults = list(n, a2)?.unwrap_or_default();
                    let fail = flag(arg(args, 3), true) && defaults.is_empty();
                    let mut vals = Vec::new();
                    for (i, k) in ks.iter().enumerate() {
                        match m.get(k.as_str()) {
                            Some(v) => vals.push((key(k), v.clone())),
                            None if fail => {
                                return Err(failed(
                                    n,
                                    format!(
                                        "java.lang.IllegalArgumentException: Key {k} is not of one of the existing keys {}",
                                        keys_of(m)
                                    ),
                                ))
                            }
                            None => vals.push((key(k), defaults.get(i).cloned().unwrap_or_default())),
                        }
                    }
                    if f == MapFn::Mget {
                        Value::List(vals.into_iter().map(|(_, v)| v).collect())
                    } else {
                        Value::Map(vals.into_iter().collect())
                    }
                }
                MapFn::Values => {
                    let ks = strings(n, a1)?;
                    let nulls = flag(a2, false);
                    Value::List(
                        ks.iter()
                            .filter_map(|k| match m.get(k.as_str()) {
                                Some(v) => Some(v.clone()),
                                None if nulls => Some(Value::Null),
                                None => None,
                            })
                            .collect(),
                    )
                }
                MapFn::SortedProperties => {
                    let ignore_case = flag(a1, true);
                    let mut kv: Vec<(&Arc<str>, &Value)> = m.iter().collect();
                    if ignore_case {
                        kv.sort_by_key(|a| a.0.to_lowercase());
                    }
                    Value::List(
                        kv.into_iter()
                            .map(|(k, v)| Value::List(vec![Value::String(k.clone()), v.clone()]))
                            .collect(),
                    )
                }
                MapFn::Flatten => {
                    let delim = text(n, a1)?.unwrap_or(".");
                    fn go(
                        m: &BTreeMap<Arc<str>, Value>,
                        prefix: &str,
                        delim: &str,
                        out: &mut BTreeMap<Arc<str>, Value>,
                    ) {
                        for (k, v) in m {
                            let full = if prefix.is_empty() {
                                k.to_string()
                            } else {
                                format!("{prefix}{delim}{k}")
                            };
                            match v {
                                Value::Map(inner) => go(inner, &full, delim, out),
                                other => {
                                    out.insert(Arc::from(full.as_str()), other.clone());
                                }
                            }
                        }
                    }
                    let mut out = BTreeMap::new();
                    go(m, "", delim, &mut out);
                    Value::Map(out)
                }
                MapFn::Unflatten => {
                    let delim = text(n, a1)?.unwrap_or(".");
                    let mut out: BTreeMap<Arc<str>, Value> = BTreeMap::new();
                    for (k, v) in m {
                        let parts: Vec<&str> = if delim.is_empty() {
                            vec![k]
                        } else {
                            k.split(delim).collect()
                        };
                        if parts.len() > crate::value::MAX_NESTING {
                            return Err(failed(
                                n,
                                format!(
                                    "the key {k:?} would nest maps deeper than {}",
                                    crate::value::MAX_NESTING
                                ),
                            ));
                        }
                        let mut cur = &mut out;
                        for (i, p) in parts.iter().enumerate() {
                            if i + 1 == parts.len() {
                                cur.insert(key(p), v.clone());
                            } else {
                                let slot = cur
                                    .entry(key(p))
                                    .or_insert_with(|| Value::Map(BTreeMap::new()));
                                if !matches!(slot, Value::Map(_)) {
                                    *slot = Value::Map(BTreeMap::new());
                                }
                                let Value::Map(next) = slot else {
                                    unreachable!("made a map above")
                                };
                                cur = next;
                            }
                        }
                    }
                    Value::Map(out)
                }
                _ => return Err(ExecError::unsupported(n)),
            }
        }
    })
}

type Map = BTreeMap<Arc<str>, Value>;

/// APOC's `Util.merge(first, second)`: `second`'s entries over `first`'s (a null first map as
/// an empty one).
fn util_merge(first: Option<&Map>, second: Map) -> Value {
    let mut out = first.cloned().unwrap_or_default();
    out.extend(second);
    Value::Map(out)
}

/// APOC's `Util.map(List)`: keys and values alternating; a key is its Java `toString()`, a
/// null key is skipped; an odd length runs out of values.
fn util_map(n: &str, xs: Option<&[Value]>) -> Result<Map> {
    let xs = xs.ok_or_else(|| super::npe(n, "java.util.List.size()", "pairs"))?;
    if xs.len() % 2 == 1 {
        return Err(failed(n, "java.util.NoSuchElementException"));
    }
    Ok(xs
        .chunks(2)
        .filter(|kv| !kv[0].is_null())
        .map(|kv| (key(&super::java_to_string(&kv[0])), kv[1].clone()))
        .collect())
}

/// APOC's `mapFromLists(keys, values)`: both lists, of one length.
fn map_from_lists(n: &str, ks: Option<&[Value]>, vs: Option<&[Value]>) -> Result<Map> {
    match (ks, vs) {
        (Some(ks), Some(vs)) if ks.len() == vs.len() => Ok(ks
            .iter()
            .zip(vs)
            .map(|(k, v)| (key(&super::java_to_string(k)), v.clone()))
            .collect()),
        _ => Err(failed(
            n,
            "java.lang.RuntimeException: keys and values lists have to be not null and of same size",
        )),
    }
}

/// APOC's `mapFromPairs(pairs)`: `[key, value]` lists; an empty pair or a null key is skipped,
/// a missing value is null.
fn map_from_pairs(n: &str, ps: Option<&[Value]>) -> Result<Map> {
    let ps = ps.ok_or_else(|| super::npe(n, "java.util.List.isEmpty()", "pairs"))?;
    let mut out = Map::new();
    for p in ps {
        if let Value::List(kv) = p {
            match kv.first() {
                None | Some(Value::Null) => {}
                Some(k) => {
                    out.insert(
                        key(&super::java_to_string(k)),
                        kv.get(1).cloned().unwrap_or_default(),
                    );
                }
            }
        }
    }
    Ok(out)
}
