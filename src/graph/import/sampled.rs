//! GRAPE-style sampled paths: records with `nodesInfo` (`[{labels, props}]`) and `relsInfo`
//! (`[{type, props}]`), as GRAPE's generator samples them from a live database:
//!
//! ```json
//! [{"pathLength": 1,
//!   "nodesInfo": [{"labels": ["Person"], "props": {"name": "Tom Hanks"}},
//!                 {"labels": ["Movie"], "props": {"title": "Forrest Gump"}}],
//!   "relsInfo": [{"type": "ACTED_IN", "props": {"role": "Forrest"}}]}]
//! ```
//!
//! Each record is a path `n0 -[r0]-> n1 -[r1]-> …` (GRAPE samples `()-[*]->()`, so every
//! relationship points along the path). The samples carry no element ids, so a node is
//! identified by its labels and properties: equal labels and properties across records are one
//! node. A relationship is identified by its endpoints, type and properties, so a path sampled
//! twice adds its relationships once. Input: a JSON array of records, an object with a `paths`
//! array, or JSON Lines.

use super::json::json_to_value;
use super::ImportError;
use crate::graph::Graph;
use crate::value::{NodeId, Value};
use serde_json::Value as Json;
use std::collections::HashMap;

/// Whether a JSON document looks like sampled paths (rather than a fixture).
pub fn looks_like_sampled_paths(doc: &Json) -> bool {
    let first = match doc {
        Json::Array(a) => a.first(),
        Json::Object(o) => o
            .get("paths")
            .and_then(|p| p.as_array())
            .and_then(|a| a.first()),
        _ => None,
    };
    first.is_some_and(|r| r.get("nodesInfo").is_some())
}

/// Reads sampled paths (see the module documentation); `file` names the input in errors.
pub fn parse_sampled_paths(text: &str, file: &str) -> Result<Graph, ImportError> {
    let records: Vec<(String, Json)> = match serde_json::from_str::<Json>(text) {
        Ok(Json::Array(a)) => a
            .into_iter()
            .enumerate()
            .map(|(i, r)| (format!("$[{i}]"), r))
            .collect(),
        Ok(Json::Object(mut o)) => match o.remove("paths") {
            Some(Json::Array(a)) => a
                .into_iter()
                .enumerate()
                .map(|(i, r)| (format!("$.paths[{i}]"), r))
                .collect(),
            _ => {
                return Err(ImportError::new(
                    file,
                    Some("$".into()),
                    "expected an array of sampled paths or {\"paths\": [...]}",
                ))
            }
        },
        Ok(_) => {
            return Err(ImportError::new(
                file,
                Some("$".into()),
                "expected an array of sampled paths",
            ))
        }
        Err(_) => {
            let mut v = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let r: Json = serde_json::from_str(line).map_err(|e| {
                    ImportError::new(
                        file,
                        Some(format!("line {}", i + 1)),
                        format!("not valid JSON: {e}"),
                    )
                })?;
                v.push((format!("line {}", i + 1), r));
            }
            v
        }
    };
    let mut g = Graph::new();
    let mut nodes: HashMap<String, NodeId> = HashMap::new();
    let mut rels: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (loc, rec) in records {
        let err = |m: String| ImportError::new(file, Some(loc.clone()), m);
        let ninfo = rec
            .get("nodesInfo")
            .and_then(|n| n.as_array())
            .ok_or_else(|| err("missing array `nodesInfo`".into()))?;
        let rinfo: &[Json] = match rec.get("relsInfo") {
            Some(Json::Array(a)) => a,
            None | Some(Json::Null) => &[],
            Some(_) => return Err(err("`relsInfo` must be an array".into())),
        };
        if !ninfo.is_empty() && rinfo.len() + 1 != ninfo.len() {
            return Err(err(format!(
                "{} nodes and {} relationships do not form a path",
                ninfo.len(),
                rinfo.len()
            )));
        }
        let mut ids = Vec::with_capacity(ninfo.len());
        for (i, n) in ninfo.iter().enumerate() {
            let labels: Vec<String> = n
                .get("labels")
                .and_then(|l| l.as_array())
                .map(|l| {
                    l.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            let props =
                props_of(n.get("props"), &format!("{loc}.nodesInfo[{i}].props")).map_err(&err)?;
            let mut sorted_labels = labels.clone();
            sorted_labels.sort();
            let key = format!("{sorted_labels:?}{}", key_of(&props));
            let id = match nodes.get(&key) {
                Some(id) => *id,
                None => {
                    let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
                    let id = g.add_node(
                        &refs,
                        props.iter().map(|(k, v)| (k.as_str(), v.clone())).collect(),
                    );
                    nodes.insert(key, id);
                    id
                }
            };
            ids.push(id);
        }
        for (i, r) in rinfo.iter().enumerate() {
            let ty = r
                .get("type")
                .and_then(|t| t.as_str())
                .ok_or_else(|| err(format!("relsInfo[{i}]: missing string `type`")))?;
            let props =
                props_of(r.get("props"), &format!("{loc}.relsInfo[{i}].props")).map_err(&err)?;
            let key = format!("{}>{}:{ty}{}", ids[i].0, ids[i + 1].0, key_of(&props));
            if rels.insert(key) {
                g.add_relationship(
                    ids[i],
                    ids[i + 1],
                    ty,
                    props.iter().map(|(k, v)| (k.as_str(), v.clone())).collect(),
                );
            }
        }
    }
    Ok(g)
}

fn props_of(j: Option<&Json>, path: &str) -> Result<Vec<(String, Value)>, String> {
    match j {
        None | Some(Json::Null) => Ok(vec![]),
        Some(Json::Object(o)) => {
            let mut v: Vec<(String, Value)> = o
                .iter()
                .map(|(k, x)| Ok((k.clone(), json_to_value(x, &format!("{path}.{k}"))?)))
                .collect::<Result<_, String>>()?;
            v.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(v)
        }
        Some(_) => Err(format!("{path}: expected an object")),
    }
}

fn key_of(props: &[(String, Value)]) -> String {
    props.iter().map(|(k, v)| format!("{k}={v};")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_share_equal_nodes_and_relationships() {
        let text = r#"[
          {"pathLength": 1, "nodesInfo": [{"labels": ["Person"], "props": {"name": "Tom Hanks"}},
                                         {"labels": ["Movie"], "props": {"title": "Forrest Gump"}}],
           "relsInfo": [{"type": "ACTED_IN", "props": {"role": "Forrest"}}]},
          {"pathLength": 2, "nodesInfo": [{"labels": ["Person"], "props": {"name": "Tom Hanks"}},
                                         {"labels": ["Movie"], "props": {"title": "Forrest Gump"}},
                                         {"labels": ["Genre"], "props": {"name": "Drama"}}],
           "relsInfo": [{"type": "ACTED_IN", "props": {"role": "Forrest"}}, {"type": "IN_GENRE", "props": {}}]}
        ]"#;
        let doc: Json = serde_json::from_str(text).unwrap();
        assert!(looks_like_sampled_paths(&doc));
        let g = parse_sampled_paths(text, "s.json").unwrap();
        assert_eq!((g.node_count(), g.relationship_count()), (3, 2));
        let e = parse_sampled_paths(
            r#"[{"nodesInfo": [{"labels": []}], "relsInfo": [{"type": "R"}]}]"#,
            "s.json",
        )
        .unwrap_err();
        assert!(e.to_string().contains("$[0]") && e.to_string().contains("do not form a path"));
    }
}
