//! Binary snapshots of a graph (`.grape` files): what `grape graph save` writes and every
//! command that takes a graph reads by its extension, many times faster than the JSON fixture
//! of the same graph.
//!
//! Layout, little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | the magic `GRAPESNP` |
//! | 4 | the format version (1) |
//! | 8 | the payload's length |
//! | 4 | the CRC-32 (IEEE) of the payload |
//! | … | the payload |
//!
//! The payload: the symbols (labels, types, property keys: a count, then each as a length and
//! UTF-8 bytes); the nodes (a count, then per node its label count and label symbols, its
//! property count and `(key symbol, value)` pairs); the relationships (a count, then per
//! relationship its start and end as positions among the nodes, its type symbol and
//! properties); the schema (its indexes and constraints as the JSON a fixture holds them in,
//! length-prefixed; empty for the default schema). Counts and lengths are `u32`, node and
//! relationship counts `u64`. A value is a tag byte and its data: `1` false, `2` true, `3` an
//! `i64`, `4` an `f64`, `5` a string, `6` a list (count, values), `7` a map (count, then key
//! strings and values), `8` any other value (temporal, point) as the text of grape's JSON value
//! encoding. Node ids are positions: a graph comes back with its nodes and relationships in
//! the order they were saved.
//!
//! A snapshot is untrusted input like any file: every length is checked against the bytes
//! left before anything is allocated, values nest at most 128 levels, and a snapshot whose
//! checksum, version or structure is wrong is an error naming the file and the byte offset.

use super::json::{fixture_schema, json_to_value, schema_json, value_to_json};
use super::ImportError;
use crate::graph::{Graph, Sym};
use crate::value::{NodeId, Value};
use std::sync::Arc;

const MAGIC: &[u8; 8] = b"GRAPESNP";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 8 + 4;
/// How deep lists and maps may nest in a snapshot (as the other decoders allow).
const MAX_DEPTH: usize = 128;

/// Whether bytes start as a snapshot does.
pub fn is_snapshot(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

// ---- writing ----

fn put_u32(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_len(out: &mut Vec<u8>, n: usize) -> std::io::Result<()> {
    let n = u32::try_from(n).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "a list, map, string or property set is too large for a snapshot",
        )
    })?;
    put_u32(out, n);
    Ok(())
}

fn put_str(out: &mut Vec<u8>, s: &str) -> std::io::Result<()> {
    put_len(out, s.len())?;
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

fn put_value(out: &mut Vec<u8>, v: &Value, g: &Graph) -> std::io::Result<()> {
    match v {
        // Not stored as a property; written as the JSON null for completeness.
        Value::Null => {
            out.push(8);
            put_str(out, "null")?;
        }
        Value::Bool(false) => out.push(1),
        Value::Bool(true) => out.push(2),
        Value::Int(i) => {
            out.push(3);
            out.extend_from_slice(&i.to_le_bytes());
        }
        Value::Float(f) => {
            out.push(4);
            out.extend_from_slice(&f.to_bits().to_le_bytes());
        }
        Value::String(s) => {
            out.push(5);
            put_str(out, s)?;
        }
        Value::List(items) => {
            out.push(6);
            put_len(out, items.len())?;
            for x in items {
                put_value(out, x, g)?;
            }
        }
        Value::Map(m) => {
            out.push(7);
            put_len(out, m.len())?;
            for (k, x) in m {
                put_str(out, k)?;
                put_value(out, x, g)?;
            }
        }
        other => {
            out.push(8);
            put_str(out, &value_to_json(other, g).to_string())?;
        }
    }
    Ok(())
}

/// The snapshot of a graph, as bytes (header and payload).
pub fn snapshot_bytes(g: &Graph) -> std::io::Result<Vec<u8>> {
    let mut p = Vec::with_capacity(64 + 24 * (g.node_count() + 2 * g.relationship_count()));
    // Symbols as the graph interned them: every label, type and key the records use.
    let mut syms: Vec<Sym> = Vec::new();
    let mut index: rustc_hash::FxHashMap<Sym, u32> = Default::default();
    let mut sym = |s: Sym, syms: &mut Vec<Sym>| -> u32 {
        *index.entry(s).or_insert_with(|| {
            syms.push(s);
            (syms.len() - 1) as u32
        })
    };
    // Records first (into `body`), so that the symbol table can precede them.
    let mut body = Vec::with_capacity(p.capacity());
    let mut position: rustc_hash::FxHashMap<NodeId, u32> = Default::default();
    body.extend_from_slice(&(g.node_count() as u64).to_le_bytes());
    for (i, n) in g.node_ids().enumerate() {
        position.insert(n, i as u32);
        let data = g.node(n).expect("a node the graph lists");
        put_len(&mut body, data.labels.len())?;
        for l in &data.labels {
            put_u32(&mut body, sym(*l, &mut syms));
        }
        put_len(&mut body, data.props.len())?;
        for (k, v) in g.node_entries(n) {
            put_u32(&mut body, sym(k, &mut syms));
            put_value(&mut body, &v, g)?;
        }
    }
    body.extend_from_slice(&(g.relationship_count() as u64).to_le_bytes());
    for r in g.relationship_ids() {
        let data = g.relationship(r).expect("a relationship the graph lists");
        let (s, e) = g.endpoints(r).expect("a relationship has endpoints");
        put_u32(&mut body, position[&s]);
        put_u32(&mut body, position[&e]);
        put_u32(&mut body, sym(data.ty, &mut syms));
        put_len(&mut body, data.props.len())?;
        for (k, v) in g.relationship_entries(r) {
            put_u32(&mut body, sym(k, &mut syms));
            put_value(&mut body, &v, g)?;
        }
    }
    put_len(&mut p, syms.len())?;
    for s in &syms {
        put_str(&mut p, g.sym_name(*s))?;
    }
    p.extend_from_slice(&body);
    drop(body);
    // The schema as a fixture writes it (nothing for the default one).
    let mut m = serde_json::Map::new();
    schema_json(g, &mut m);
    let schema = if m.is_empty() {
        String::new()
    } else {
        serde_json::Value::Object(m).to_string()
    };
    put_str(&mut p, &schema)?;
    let mut out = Vec::with_capacity(HEADER + p.len());
    out.extend_from_slice(MAGIC);
    put_u32(&mut out, VERSION);
    out.extend_from_slice(&(p.len() as u64).to_le_bytes());
    put_u32(&mut out, crc32fast::hash(&p));
    out.extend_from_slice(&p);
    Ok(out)
}

// ---- reading ----

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Where the payload starts in the file, for offsets in errors.
    base: usize,
}

type Res<T> = Result<T, (usize, String)>;

impl<'a> Cursor<'a> {
    fn fail<T>(&self, msg: impl Into<String>) -> Res<T> {
        Err((self.base + self.pos, msg.into()))
    }
    fn take(&mut self, n: usize) -> Res<&'a [u8]> {
        match self.bytes.get(self.pos..self.pos.saturating_add(n)) {
            Some(s) if self.pos.checked_add(n).is_some() => {
                self.pos += n;
                Ok(s)
            }
            _ => self.fail(format!(
                "the snapshot ends inside a record ({n} bytes wanted)"
            )),
        }
    }
    fn u8(&mut self) -> Res<u8> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Res<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Res<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    /// A count of items at least `min` bytes each, checked against the bytes left.
    fn count(&mut self, min: usize, wide: bool) -> Res<usize> {
        let n = if wide {
            self.u64()?
        } else {
            u64::from(self.u32()?)
        };
        let left = (self.bytes.len() - self.pos) as u64;
        if n.saturating_mul(min.max(1) as u64) > left {
            return self.fail(format!(
                "a count of {n} items is more than the {left} bytes left can hold"
            ));
        }
        Ok(n as usize)
    }
    fn str(&mut self) -> Res<&'a str> {
        let n = self.count(1, false)?;
        let b = self.take(n)?;
        match std::str::from_utf8(b) {
            Ok(s) => Ok(s),
            Err(_) => self.fail("a string is not UTF-8"),
        }
    }
    fn value(&mut self, depth: usize) -> Res<Value> {
        if depth > MAX_DEPTH {
            return self.fail(format!("values nest more than {MAX_DEPTH} levels"));
        }
        Ok(match self.u8()? {
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => Value::Int(self.u64()? as i64),
            4 => Value::Float(f64::from_bits(self.u64()?)),
            5 => Value::String(Arc::from(self.str()?)),
            6 => {
                let n = self.count(1, false)?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.value(depth + 1)?);
                }
                Value::List(items)
            }
            7 => {
                let n = self.count(5, false)?;
                let mut m = std::collections::BTreeMap::new();
                for _ in 0..n {
                    let k = Arc::from(self.str()?);
                    m.insert(k, self.value(depth + 1)?);
                }
                Value::Map(m)
            }
            8 => {
                let at = self.pos;
                let text = self.str()?;
                let json: serde_json::Value = match serde_json::from_str(text) {
                    Ok(j) => j,
                    Err(e) => return Err((self.base + at, format!("a value's text: {e}"))),
                };
                match json_to_value(&json, "value") {
                    Ok(v) => v,
                    Err(e) => return Err((self.base + at, e)),
                }
            }
            t => return self.fail(format!("unknown value tag {t}")),
        })
    }
    fn props(&mut self, syms: &[Sym]) -> Res<Vec<(Sym, Value)>> {
        let n = self.count(5, false)?;
        let mut props = Vec::with_capacity(n);
        for _ in 0..n {
            let k = self.sym(syms)?;
            let v = self.value(0)?;
            props.push((k, v));
        }
        Ok(props)
    }
    fn sym(&mut self, syms: &[Sym]) -> Res<Sym> {
        let i = self.u32()? as usize;
        match syms.get(i) {
            Some(s) => Ok(*s),
            None => self.fail(format!("symbol {i} is not in the symbol table")),
        }
    }
}

/// Reads a snapshot; `file` names it in errors.
pub fn read_snapshot(bytes: &[u8], file: &str) -> Result<Graph, ImportError> {
    let fail = |at: usize, m: String| ImportError::new(file, Some(format!("byte {at}")), m);
    if bytes.len() < HEADER || !is_snapshot(bytes) {
        return Err(fail(0, "not a grape snapshot (no GRAPESNP header)".into()));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(fail(
            8,
            format!("snapshot format version {version}; this grape reads version {VERSION}"),
        ));
    }
    let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let crc = u32::from_le_bytes(bytes[20..24].try_into().expect("4 bytes"));
    let payload = &bytes[HEADER..];
    if payload.len() as u64 != len {
        return Err(fail(
            12,
            format!(
                "the header says {len} bytes of payload, the file has {} (truncated?)",
                payload.len()
            ),
        ));
    }
    if crc32fast::hash(payload) != crc {
        return Err(fail(
            20,
            "the checksum does not match: the file is damaged".into(),
        ));
    }
    let mut c = Cursor {
        bytes: payload,
        pos: 0,
        base: HEADER,
    };
    decode(&mut c).map_err(|(at, m)| fail(at, m))
}

fn decode(c: &mut Cursor) -> Res<Graph> {
    let mut g = Graph::new();
    let n = c.count(4, false)?;
    let mut syms = Vec::with_capacity(n);
    for _ in 0..n {
        let s = c.str()?;
        syms.push(g.intern(s));
    }
    let nodes = c.count(8, true)?;
    g.reserve(nodes, 0);
    for i in 0..nodes {
        let nl = c.count(4, false)?;
        let mut labels = Vec::with_capacity(nl);
        for _ in 0..nl {
            labels.push(c.sym(&syms)?);
        }
        let props = c.props(&syms)?;
        // A new graph numbers its nodes from 0: a node's position is its id (no id map to
        // look endpoints up in at random).
        if g.add_node_syms(labels, props) != NodeId(i as u32) {
            return c.fail("a node did not get the id of its position");
        }
    }
    let rels = c.count(16, true)?;
    g.reserve(0, rels);
    for _ in 0..rels {
        let mut end = || -> Res<NodeId> {
            let i = c.u32()? as usize;
            if i < nodes {
                Ok(NodeId(i as u32))
            } else {
                c.fail(format!("node position {i} is past the {nodes} nodes"))
            }
        };
        let (s, e) = (end()?, end()?);
        let ty = c.sym(&syms)?;
        let props = c.props(&syms)?;
        if g.add_relationship_syms(s, e, ty, props).is_none() {
            return c.fail("a relationship's endpoint is missing");
        }
    }
    let at = c.pos;
    let schema = c.str()?;
    if !schema.is_empty() {
        let doc: serde_json::Value = serde_json::from_str(schema)
            .map_err(|e| (c.base + at, format!("the schema's text: {e}")))?;
        let obj = doc
            .as_object()
            .ok_or((c.base + at, "the schema is not a JSON object".to_string()))?;
        let s = fixture_schema(obj).map_err(|(loc, m)| (c.base + at, format!("{loc}: {m}")))?;
        g.update_schema(|x| {
            *x = s;
            true
        });
    }
    if c.pos != c.bytes.len() {
        return c.fail("bytes left after the schema");
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::super::graph_to_json;
    use super::*;

    fn sample() -> Graph {
        let text = r#"{"nodes": [
            {"id": 1, "labels": ["Person", "Admin"], "properties": {"name": "Ann", "born": {"~date": "1990-05-01"},
              "tags": ["a", "b"], "score": 1.5, "ok": true, "big": -9007199254740993,
              "home": {"~point": {"crs": "wgs-84", "x": 12.5, "y": 55.6}}, "nan": {"~float": "NaN"},
              "blob": {"~bytes": "00ff10"}}},
            {"id": 2, "labels": [], "properties": {}},
            {"id": 3, "labels": ["Person"], "properties": {"name": "Bob", "empty": []}}],
          "relationships": [
            {"start": 1, "end": 3, "type": "KNOWS", "properties": {"since": 2020, "m": [[1, 2], []]}},
            {"start": 3, "end": 3, "type": "SELF"}],
          "indexes": [{"name": "by_name", "type": "RANGE", "entityType": "NODE",
                       "labelsOrTypes": ["Person"], "properties": ["name"]}],
          "constraints": []}"#;
        super::super::parse_json_fixture(text, "s.json").unwrap()
    }

    #[test]
    fn a_graph_comes_back_as_it_was_saved() {
        let g = sample();
        let bytes = snapshot_bytes(&g).unwrap();
        assert!(is_snapshot(&bytes));
        let back = read_snapshot(&bytes, "s.grape").unwrap();
        assert_eq!(graph_to_json(&back), graph_to_json(&g));
        // Saving the loaded graph gives the same bytes.
        assert_eq!(snapshot_bytes(&back).unwrap(), bytes);
        let empty = read_snapshot(&snapshot_bytes(&Graph::new()).unwrap(), "e.grape").unwrap();
        assert_eq!(graph_to_json(&empty), graph_to_json(&Graph::new()));
    }

    #[test]
    fn damage_is_an_error_never_a_panic() {
        let bytes = snapshot_bytes(&sample()).unwrap();
        let err = |b: &[u8]| read_snapshot(b, "s.grape").unwrap_err().to_string();
        assert!(err(b"GRAPE").contains("not a grape snapshot"));
        let mut v = bytes.clone();
        v[8] = 9;
        assert!(err(&v).contains("version 9"));
        assert!(err(&bytes[..bytes.len() - 3]).contains("truncated"));
        let mut v = bytes.clone();
        let last = v.len() - 1;
        v[last] ^= 0x55;
        assert!(err(&v).contains("checksum"));
        // Every truncation and every flipped byte, with the checksum made to match: an
        // error naming the file, or a graph; never a panic.
        for cut in HEADER..bytes.len() {
            let mut v = bytes[..cut].to_vec();
            let len = (v.len() - HEADER) as u64;
            v[12..20].copy_from_slice(&len.to_le_bytes());
            let crc = crc32fast::hash(&v[HEADER..]);
            v[20..24].copy_from_slice(&crc.to_le_bytes());
            assert!(read_snapshot(&v, "s.grape").is_err());
        }
        for i in HEADER..bytes.len() {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut v = bytes.clone();
                v[i] ^= flip;
                let crc = crc32fast::hash(&v[HEADER..]);
                v[20..24].copy_from_slice(&crc.to_le_bytes());
                if let Err(e) = read_snapshot(&v, "s.grape") {
                    assert!(e.to_string().starts_with("s.grape (byte "), "{e}");
                }
            }
        }
        // A huge count is refused before anything is allocated.
        let mut v = bytes.clone();
        v[HEADER..HEADER + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let crc = crc32fast::hash(&v[HEADER..]);
        v[20..24].copy_from_slice(&crc.to_le_bytes());
        assert!(err(&v).contains("more than"));
    }

    #[test]
    fn nesting_is_bounded() {
        let mut p = Vec::new();
        put_u32(&mut p, 1);
        put_str(&mut p, "k").unwrap();
        p.extend_from_slice(&1u64.to_le_bytes());
        put_u32(&mut p, 0); // no labels
        put_u32(&mut p, 1); // one property
        put_u32(&mut p, 0);
        for _ in 0..200 {
            p.push(6);
            put_u32(&mut p, 1);
        }
        p.push(1);
        p.extend_from_slice(&0u64.to_le_bytes());
        put_u32(&mut p, 0);
        let mut v = Vec::new();
        v.extend_from_slice(MAGIC);
        put_u32(&mut v, VERSION);
        v.extend_from_slice(&(p.len() as u64).to_le_bytes());
        put_u32(&mut v, crc32fast::hash(&p));
        v.extend_from_slice(&p);
        let e = read_snapshot(&v, "deep.grape").unwrap_err().to_string();
        assert!(e.contains("nest"), "{e}");
    }
}
