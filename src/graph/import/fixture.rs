//! Reading a JSON fixture as a stream: the document is never held as a whole. serde_json walks
//! the top-level object; each node and relationship record is read on its own (a small JSON
//! value), checked and added to the graph at once, so a fixture of a million nodes costs the
//! graph and one record, not a document tree many times the file's size. Node ids are kept in
//! a compact map (integers as integers). Relationships that come before the nodes (the format
//! allows any key order) wait until the nodes have been read. Errors name the file and the
//! record (`$.relationships[12]`), or the line and column of bad JSON; on an error nothing is
//! returned.

use super::json::{fixture_schema, json_to_value};
use super::ImportError;
use crate::graph::Graph;
use crate::value::{NodeId, Value};
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map as JsonMap, Value as Json};

/// A node id of the fixture: an integer, or any other scalar by its tagged text (`s:abc`,
/// `n:1.5`, `b:true`), so that `1` and `"1"` stay different nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum IdKey {
    Int(i64),
    Other(Box<str>),
}

impl IdKey {
    fn of(j: &Json) -> Option<IdKey> {
        match j {
            Json::Number(n) => Some(match n.as_i64() {
                Some(i) => IdKey::Int(i),
                None => IdKey::Other(format!("n:{n}").into()),
            }),
            Json::String(s) => Some(IdKey::Other(format!("s:{s}").into())),
            Json::Bool(b) => Some(IdKey::Other(format!("b:{b}").into())),
            _ => None,
        }
    }

    /// The id as the fixture wrote it.
    fn shown(&self) -> String {
        match self {
            IdKey::Int(i) => i.to_string(),
            IdKey::Other(s) => s[2..].to_string(),
        }
    }
}

/// Node ids to nodes: small non-negative integers (the common case: fixtures written by
/// `graph_to_json` use element ids) in a dense array, the rest in a hash map.
#[derive(Default)]
struct Ids {
    dense: super::DenseIds,
    other: rustc_hash::FxHashMap<IdKey, NodeId>,
}

impl Ids {
    fn get(&self, k: &IdKey) -> Option<NodeId> {
        match k {
            IdKey::Int(i) if *i >= 0 => self
                .dense
                .get(*i as u64)
                .or_else(|| self.other.get(k).copied()),
            _ => self.other.get(k).copied(),
        }
    }

    /// Inserts an id that is not there yet.
    fn insert(&mut self, k: IdKey, n: NodeId, nodes: usize) {
        if let IdKey::Int(i) = k {
            if i >= 0 && self.dense.insert(i as u64, n, nodes).is_some() {
                return;
            }
        }
        self.other.insert(k, n);
    }
}

/// What reading stopped at: the document is not a fixture (a CypherBench dump, sampled paths),
/// or it is one with an error.
pub(crate) enum FixtureError {
    NotAFixture,
    Import(ImportError),
}

struct Loader<'f> {
    file: &'f str,
    /// Keys that mark another format stop the read (see [`FixtureError::NotAFixture`]) unless
    /// the caller already knows the document is a fixture.
    sniff: bool,
    g: Graph,
    ids: Ids,
    nodes_read: bool,
    rels_read: bool,
    /// Relationships met before the nodes, with their index.
    waiting: Vec<(usize, Json)>,
    /// `indexes` and `constraints`, read after the data.
    schema: JsonMap<String, Json>,
    /// The first error of ours (serde's error only carries it out).
    error: Option<FixtureError>,
    /// The path of the value being read, for type errors serde reports.
    at: &'static str,
}

impl Loader<'_> {
    fn err(&self, loc: String, msg: impl Into<String>) -> ImportError {
        ImportError::new(self.file, Some(loc), msg)
    }

    fn node(&mut self, i: usize, n: &Json) -> Result<(), ImportError> {
        let loc = || format!("$.nodes[{i}]");
        let o = n
            .as_object()
            .ok_or_else(|| self.err(loc(), "expected an object"))?;
        self.known_keys(o, &["id", "labels", "properties"], &loc())?;
        let id = o
            .get("id")
            .and_then(IdKey::of)
            .ok_or_else(|| self.err(loc(), "missing or non-scalar `id`"))?;
        let labels: Vec<&str> = match o.get("labels") {
            None | Some(Json::Null) => vec![],
            Some(Json::Array(ls)) => ls
                .iter()
                .map(|l| {
                    l.as_str().ok_or_else(|| {
                        self.err(format!("{}.labels", loc()), "labels must be strings")
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(self.err(format!("{}.labels", loc()), "expected an array")),
        };
        let props = record_props(o.get("properties"), || format!("{}.properties", loc()))
            .map_err(|m| self.err(loc(), m))?;
        if self.ids.get(&id).is_some() {
            return Err(self.err(loc(), format!("duplicate node id {}", id.shown())));
        }
        let nid = self.g.add_node(&labels, props);
        let nodes = self.g.node_count();
        self.ids.insert(id, nid, nodes);
        Ok(())
    }

    fn relationship(&mut self, i: usize, r: &Json) -> Result<(), ImportError> {
        let loc = || format!("$.relationships[{i}]");
        let o = r
            .as_object()
            .ok_or_else(|| self.err(loc(), "expected an object"))?;
        self.known_keys(o, &["id", "start", "end", "type", "properties"], &loc())?;
        let end_of = |k: &str| -> Result<NodeId, ImportError> {
            let key = o
                .get(k)
                .and_then(IdKey::of)
                .ok_or_else(|| self.err(loc(), format!("missing or non-scalar `{k}`")))?;
            self.ids.get(&key).ok_or_else(|| {
                self.err(
                    loc(),
                    format!("`{k}` refers to unknown node {}", key.shown()),
                )
            })
        };
        let (start, end) = (end_of("start")?, end_of("end")?);
        let ty = o
            .get("type")
            .and_then(|t| t.as_str())
            .ok_or_else(|| self.err(loc(), "missing string `type`"))?;
        let props = record_props(o.get("properties"), || format!("{}.properties", loc()))
            .map_err(|m| self.err(loc(), m))?;
        self.g
            .add_relationship(start, end, ty, props)
            .ok_or_else(|| self.err(loc(), "endpoint missing"))?;
        Ok(())
    }

    /// A record's keys must be the fixture's (a misspelt `label` would otherwise load a node
    /// without labels, silently).
    fn known_keys(
        &self,
        o: &JsonMap<String, Json>,
        known: &[&str],
        loc: &str,
    ) -> Result<(), ImportError> {
        match o.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) => Err(self.err(
                loc.to_string(),
                format!(
                    "unknown key `{k}`: a fixture's {} has {}",
                    if known.contains(&"start") {
                        "relationship"
                    } else {
                        "node"
                    },
                    known
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// Keeps the first error and hands serde one that stops the read.
    fn fail<E: serde::de::Error>(&mut self, e: FixtureError) -> E {
        if self.error.is_none() {
            self.error = Some(e);
        }
        E::custom("stopped")
    }
}

/// A record's `properties`, keys borrowed from the record; `path` (made only for an error)
/// names them.
fn record_props(j: Option<&Json>, path: impl Fn() -> String) -> Result<Vec<(&str, Value)>, String> {
    match j {
        None | Some(Json::Null) => Ok(vec![]),
        Some(Json::Object(o)) => o
            .iter()
            .map(|(k, v)| match json_to_value(v, "") {
                Ok(v) => Ok((k.as_str(), v)),
                // Decoded again to say where.
                Err(_) => Err(json_to_value(v, &format!("{}.{k}", path()))
                    .err()
                    .unwrap_or_default()),
            })
            .collect(),
        Some(_) => Err(format!("{}: expected an object", path())),
    }
}

struct Top<'l, 'f>(&'l mut Loader<'f>);

impl<'de> Visitor<'de> for Top<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object with `nodes` and `relationships`")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        // A top-level array: sampled paths, not a fixture.
        let e = if self.0.sniff {
            FixtureError::NotAFixture
        } else {
            FixtureError::Import(self.0.err(
                "$".into(),
                "expected an object with `nodes` and `relationships`",
            ))
        };
        Err(self.0.fail(e))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let l = self.0;
        let mut keys = 0usize;
        while let Some(key) = map.next_key::<String>()? {
            keys += 1;
            match key.as_str() {
                "nodes" | "relationships" => {
                    let nodes = key == "nodes";
                    if (nodes && l.nodes_read) || (!nodes && l.rels_read) {
                        let e = l.err("$".into(), format!("the key `{key}` appears twice"));
                        return Err(l.fail(FixtureError::Import(e)));
                    }
                    l.at = if nodes { "$.nodes" } else { "$.relationships" };
                    map.next_value_seed(Records { l: &mut *l, nodes })?;
                    if nodes {
                        l.nodes_read = true;
                        for (i, r) in std::mem::take(&mut l.waiting) {
                            if let Err(e) = l.relationship(i, &r) {
                                return Err(l.fail(FixtureError::Import(e)));
                            }
                        }
                    } else {
                        l.rels_read = true;
                    }
                }
                "indexes" | "constraints" => {
                    l.at = "$";
                    let v: Json = map.next_value()?;
                    l.schema.insert(key, v);
                }
                // Another format's keys, before any of a fixture's.
                "entities" | "relations" | "paths" if l.sniff && !l.nodes_read && !l.rels_read => {
                    return Err(l.fail(FixtureError::NotAFixture));
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if keys > 0 && !l.nodes_read && !l.rels_read && l.schema.is_empty() {
            // Any other JSON object (`{}` aside, the empty graph): not a graph (read as one, it
            // would be an empty graph on which every query answers nothing, silently).
            let e = if l.sniff {
                FixtureError::NotAFixture
            } else {
                FixtureError::Import(l.err(
                    "$".into(),
                    "not a graph fixture: it has none of `nodes`, `relationships`, `indexes`, `constraints`",
                ))
            };
            return Err(l.fail(e));
        }
        Ok(())
    }
}

/// The `nodes` or `relationships` array, record by record.
struct Records<'l, 'f> {
    l: &'l mut Loader<'f>,
    nodes: bool,
}

impl<'de> DeserializeSeed<'de> for Records<'_, '_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Records<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array")
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let l = self.l;
        let mut i = 0usize;
        while let Some(record) = seq.next_element::<Json>()? {
            let done = if self.nodes {
                l.node(i, &record)
            } else if l.nodes_read {
                l.relationship(i, &record)
            } else {
                l.waiting.push((i, record));
                Ok(())
            };
            if let Err(e) = done {
                return Err(l.fail(FixtureError::Import(e)));
            }
            i += 1;
        }
        Ok(())
    }
}

/// Reads a fixture from its bytes. With `sniff`, a document that turns out to be another
/// format (a top-level array, or `entities`/`relations`/`paths` before any fixture key) stops
/// the read with [`FixtureError::NotAFixture`].
pub(crate) fn read_fixture(bytes: &[u8], file: &str, sniff: bool) -> Result<Graph, FixtureError> {
    let mut l = Loader {
        file,
        sniff,
        g: Graph::new(),
        ids: Ids::default(),
        nodes_read: false,
        rels_read: false,
        waiting: Vec::new(),
        schema: JsonMap::new(),
        error: None,
        at: "$",
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let read = serde::Deserializer::deserialize_any(&mut de, Top(&mut l)).and_then(|()| de.end());
    if let Some(e) = l.error.take() {
        return Err(e);
    }
    if let Err(e) = read {
        let (line, column) = (e.line(), e.column());
        let ie = match e.classify() {
            // A value of the wrong type where the format wants an array or an object.
            serde_json::error::Category::Data => {
                let what = if l.at == "$" {
                    "expected an object with `nodes` and `relationships`".to_string()
                } else {
                    format!("expected an array ({e})")
                };
                l.err(l.at.to_string(), what)
            }
            _ => ImportError::new(
                file,
                Some(format!("line {line}, column {column}")),
                format!("not valid JSON: {e}"),
            ),
        };
        return Err(FixtureError::Import(ie));
    }
    // Relationships with no `nodes` array at all refer to nodes that do not exist.
    for (i, r) in std::mem::take(&mut l.waiting) {
        l.relationship(i, &r).map_err(FixtureError::Import)?;
    }
    if !l.schema.is_empty() {
        let schema = fixture_schema(&l.schema)
            .map_err(|(loc, msg)| FixtureError::Import(l.err(loc, msg)))?;
        l.g.update_schema(|s| {
            *s = schema;
            true
        });
    }
    Ok(l.g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Graph, String> {
        match read_fixture(text.as_bytes(), "f.json", true) {
            Ok(g) => Ok(g),
            Err(FixtureError::Import(e)) => Err(e.to_string()),
            Err(FixtureError::NotAFixture) => Err("not a fixture".into()),
        }
    }

    #[test]
    fn any_key_order_and_id_types() {
        // Relationships first; `1` and `"1"` are two nodes.
        let g = read(
            r#"{"relationships": [{"start": 1, "end": "1", "type": "R", "properties": {"w": 2}}],
                "other": {"ignored": [1, 2]},
                "nodes": [{"id": 1, "labels": ["A"]}, {"id": "1", "labels": ["B"], "properties": null}]}"#,
        )
        .unwrap();
        assert_eq!((g.node_count(), g.relationship_count()), (2, 1));
        let r = g.relationship_ids().next().unwrap();
        let (a, b) = g.endpoints(r).unwrap();
        assert_eq!((&*g.labels(a)[0], &*g.labels(b)[0]), ("A", "B"));
        assert!(matches!(g.relationship_properties(r)["w"], Value::Int(2)));
        assert_eq!(read("{}").unwrap().node_count(), 0);
        assert_eq!(read(r#"{"nodes": null}"#).unwrap().node_count(), 0);
    }

    #[test]
    fn errors_name_the_record_or_the_position() {
        let e = read(r#"{"nodes": [{"id": 1}, {"id": 1}]}"#).unwrap_err();
        assert!(
            e.contains("$.nodes[1]") && e.contains("duplicate node id 1"),
            "{e}"
        );
        let e = read(
            r#"{"nodes": [{"id": 1}], "relationships": [{"start": 1, "end": 9, "type": "R"}]}"#,
        )
        .unwrap_err();
        assert!(
            e.contains("$.relationships[0]") && e.contains("unknown node 9"),
            "{e}"
        );
        let e = read(r#"{"relationships": [{"start": 1, "end": 2, "type": "R"}]}"#).unwrap_err();
        assert!(e.contains("$.relationships[0]"), "{e}");
        let e = read(r#"{"nodes": 5}"#).unwrap_err();
        assert!(
            e.contains("$.nodes") && e.contains("expected an array"),
            "{e}"
        );
        let e = read(r#"{"nodes": [], "nodes": []}"#).unwrap_err();
        assert!(e.contains("appears twice"), "{e}");
        let e = read("{\"nodes\": [\n{\"id\": 1,}]}").unwrap_err();
        assert!(e.contains("line 2") && e.contains("not valid JSON"), "{e}");
        let e =
            read(r#"{"nodes": [{"id": 1, "properties": {"m": {"~float": "x"}}}]}"#).unwrap_err();
        assert!(e.contains("$.nodes[0]") && e.contains("~float"), "{e}");
        let e = read(r#"{"nodes": [{"id": 1}]} trailing"#).unwrap_err();
        assert!(e.contains("not valid JSON"), "{e}");
        let e = read("7").unwrap_err();
        assert!(e.contains("expected an object"), "{e}");
    }

    #[test]
    fn other_formats_are_recognised() {
        assert_eq!(read(r#"[{"nodesInfo": []}]"#).unwrap_err(), "not a fixture");
        assert_eq!(
            read(r#"{"schema": {}, "entities": [], "relations": []}"#).unwrap_err(),
            "not a fixture"
        );
        assert_eq!(read(r#"{"paths": []}"#).unwrap_err(), "not a fixture");
        // Once a fixture's key has been read, the document is a fixture.
        assert!(read(r#"{"nodes": [], "paths": []}"#).is_ok());
        // Any other object is no graph, and a record's keys are the fixture's.
        assert!(matches!(
            read_fixture(br#"{"hello": 1}"#, "f.json", true),
            Err(FixtureError::NotAFixture)
        ));
        let e = read_fixture(br#"{"hello": 1}"#, "f.json", false).unwrap_err();
        assert!(matches!(&e, FixtureError::Import(i) if i.to_string().contains("none of `nodes`")));
        let e = read(r#"{"nodes": [{"id": 1, "label": "A"}]}"#).unwrap_err();
        assert!(
            e.contains("$.nodes[0]") && e.contains("unknown key `label`"),
            "{e}"
        );
        let e = read(
            r#"{"nodes": [{"id": 1}], "relationships": [{"start": 1, "end": 1, "typ": "R"}]}"#,
        )
        .unwrap_err();
        assert!(e.contains("unknown key `typ`"), "{e}");
        // Not sniffing, the same documents are bad fixtures.
        assert!(matches!(
            read_fixture(b"[]", "f.json", false),
            Err(FixtureError::Import(_))
        ));
    }
}
