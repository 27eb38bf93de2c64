//! What a TCK scenario checks, whichever database ran it: result tables under the TCK's rules,
//! and side effects measured by comparing what the graph held before and after.

use super::gherkin::Step;
use super::values::{matches, parse_expected, Expected};
use grape::engine::Table;
use grape::value::{equivalent, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What the graph holds, for measuring side effects.
pub struct Snapshot {
    /// Nodes by id: labels and properties.
    pub nodes: HashMap<String, (BTreeSet<String>, BTreeMap<String, Value>)>,
    /// Relationships by id: properties.
    pub rels: HashMap<String, BTreeMap<String, Value>>,
    /// Label names in use.
    pub labels: BTreeSet<String>,
}

fn prop_diff(
    before: Option<&BTreeMap<String, Value>>,
    after: Option<&BTreeMap<String, Value>>,
    plus: &mut i64,
    minus: &mut i64,
) {
    let empty = BTreeMap::new();
    let (b, a) = (before.unwrap_or(&empty), after.unwrap_or(&empty));
    for (k, v) in a {
        match b.get(k) {
            None => *plus += 1,
            Some(old)
                if !equivalent(old, v)
                    || std::mem::discriminant(old) != std::mem::discriminant(v) =>
            {
                *plus += 1;
                *minus += 1;
            }
            _ => {}
        }
    }
    for k in b.keys() {
        if !a.contains_key(k) {
            *minus += 1;
        }
    }
}

pub fn side_effects(before: &Snapshot, after: &Snapshot) -> BTreeMap<&'static str, i64> {
    let mut m: BTreeMap<&'static str, i64> = BTreeMap::new();
    let (mut pp, mut pm) = (0, 0);
    let added_nodes = after
        .nodes
        .keys()
        .filter(|k| !before.nodes.contains_key(*k))
        .count();
    let deleted_nodes = before
        .nodes
        .keys()
        .filter(|k| !after.nodes.contains_key(*k))
        .count();
    for (id, (_, props)) in &after.nodes {
        prop_diff(
            before.nodes.get(id).map(|x| &x.1),
            Some(props),
            &mut pp,
            &mut pm,
        );
    }
    for (id, (_, props)) in &before.nodes {
        if !after.nodes.contains_key(id) {
            prop_diff(Some(props), None, &mut pp, &mut pm);
        }
    }
    let added_rels = after
        .rels
        .keys()
        .filter(|k| !before.rels.contains_key(*k))
        .count();
    let deleted_rels = before
        .rels
        .keys()
        .filter(|k| !after.rels.contains_key(*k))
        .count();
    for (id, props) in &after.rels {
        prop_diff(before.rels.get(id), Some(props), &mut pp, &mut pm);
    }
    for (id, props) in &before.rels {
        if !after.rels.contains_key(id) {
            prop_diff(Some(props), None, &mut pp, &mut pm);
        }
    }
    m.insert("+nodes", added_nodes as i64);
    m.insert("-nodes", deleted_nodes as i64);
    m.insert("+relationships", added_rels as i64);
    m.insert("-relationships", deleted_rels as i64);
    m.insert(
        "+labels",
        after.labels.difference(&before.labels).count() as i64,
    );
    m.insert(
        "-labels",
        before.labels.difference(&after.labels).count() as i64,
    );
    m.insert("+properties", pp);
    m.insert("-properties", pm);
    m
}

pub fn table_of(step: &Step) -> Result<&Vec<Vec<String>>, String> {
    step.table
        .as_ref()
        .ok_or_else(|| format!("step {:?} has no table", step.text))
}

pub fn compare_result(
    t: &Table,
    step: &Step,
    ordered: bool,
    unordered_lists: bool,
) -> Result<(), String> {
    let table = table_of(step)?;
    let (header, rows) = table.split_first().ok_or("empty result table")?;
    let mut idx = Vec::new();
    for h in header {
        idx.push(
            t.columns
                .iter()
                .position(|c| c == h)
                .ok_or_else(|| format!("column {h:?} missing; got {:?}", t.columns))?,
        );
    }
    if t.columns.len() != header.len() {
        return Err(format!("columns {:?}, expected {header:?}", t.columns));
    }
    let expected: Vec<Vec<Expected>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| parse_expected(c))
                .collect::<Result<_, _>>()
        })
        .collect::<Result<_, _>>()?;
    if expected.len() != t.rows.len() {
        return Err(format!(
            "{} rows, expected {}: {:?}",
            t.rows.len(),
            expected.len(),
            t.rows
                .iter()
                .take(5)
                .map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        ));
    }
    let row_ok = |want: &Vec<Expected>, got: &Vec<Value>| {
        want.iter()
            .zip(&idx)
            .all(|(w, &i)| matches(w, &got[i], t, unordered_lists))
    };
    if ordered {
        for (k, (w, g)) in expected.iter().zip(&t.rows).enumerate() {
            if !row_ok(w, g) {
                return Err(format!(
                    "row {k} differs: {:?}",
                    g.iter().map(|v| v.to_string()).collect::<Vec<_>>()
                ));
            }
        }
        return Ok(());
    }
    let mut used = vec![false; t.rows.len()];
    for w in &expected {
        match (0..t.rows.len()).find(|&j| !used[j] && row_ok(w, &t.rows[j])) {
            Some(j) => used[j] = true,
            None => {
                return Err(format!(
                    "no row matches {w:?}; got {:?}",
                    t.rows
                        .iter()
                        .take(5)
                        .map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>())
                        .collect::<Vec<_>>()
                ))
            }
        }
    }
    Ok(())
}
