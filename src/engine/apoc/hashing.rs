//! `apoc.hashing.fingerprint` / `fingerprinting` / `fingerprintGraph`, byte for byte as APOC 5
//! feeds its digest (MD5 unless configured), so that fingerprints computed by grape equal
//! APOC's:
//!
//! - a scalar adds its text (Java's: `1.0`, `1.0E20`, `true`; null adds nothing);
//! - a list adds its elements one after another, into the same digest;
//! - a map adds, by sorted key, the key and then the upper-case hex digest of its value
//!   (hashed on its own);
//! - a node adds its sorted labels and then its properties as a map; a relationship its type,
//!   the hex fingerprints of its start and end nodes, then its properties; a path its nodes
//!   and then its relationships.
//!
//! `fingerprinting`'s configuration chooses the properties (allow and disallow lists per label,
//! per type, for all nodes, all relationships and maps) and the strategy: `EAGER` hashes
//! everything not excluded, `LAZY` (its default) only what the allow and disallow maps name.

use super::{arg, failed, wrong};
use crate::engine::error::Result;
use crate::engine::exec::Runner;
use crate::value::{NodeId, RelId, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

family! {
    /// The functions of this file.
    HashFn {
        "apoc.hashing.fingerprint" => Fingerprint,
        "apoc.hashing.fingerprintgraph" => FingerprintGraph,
        "apoc.hashing.fingerprinting" => Fingerprinting,
    }
}

pub(super) fn dispatch(run: &Runner, n: &str, m: HashFn, args: &[Value]) -> Result<Value> {
    match m {
        HashFn::Fingerprint => {
            let conf = Config::eager(excluded(n, arg(args, 1))?);
            let h = Hasher {
                run,
                conf: &conf,
                n,
            };
            Ok(Value::from(hex(&h.digest_of(arg(args, 0))?)))
        }
        HashFn::Fingerprinting => {
            let conf = Config::from_map(n, arg(args, 1))?;
            let h = Hasher {
                run,
                conf: &conf,
                n,
            };
            Ok(Value::from(hex(&h.digest_of(arg(args, 0))?)))
        }
        _ => {
            let conf = Config::eager(excluded(n, arg(args, 0))?);
            let h = Hasher {
                run,
                conf: &conf,
                n,
            };
            Ok(Value::from(h.graph()?))
        }
    }
}

fn excluded(n: &str, v: &Value) -> Result<Vec<String>> {
    Ok(match v {
        Value::Null => Vec::new(),
        Value::List(xs) => xs
            .iter()
            .filter_map(|x| match x {
                Value::String(s) => Some(s.to_string()),
                _ => None,
            })
            .collect(),
        other => return Err(wrong(n, other, "a list of strings")),
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

/// The digest algorithms of Java's `MessageDigest` grape computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Algorithm {
    Md5,
    Sha1,
    Sha256,
    Sha384,
    Sha512,
}

impl Algorithm {
    fn named(n: &str, name: &str) -> Result<Algorithm> {
        Ok(match name.to_ascii_uppercase().as_str() {
            "MD5" => Algorithm::Md5,
            "SHA-1" | "SHA1" | "SHA" => Algorithm::Sha1,
            "SHA-256" => Algorithm::Sha256,
            "SHA-384" => Algorithm::Sha384,
            "SHA-512" => Algorithm::Sha512,
            _ => {
                return Err(failed(
                    n,
                    format!(
                    "java.security.NoSuchAlgorithmException: {name} MessageDigest not available"
                ),
                ))
            }
        })
    }
}

/// A digest being fed.
enum Digest {
    Md5(md5::Md5),
    Sha1(sha1::Sha1),
    Sha256(sha2::Sha256),
    Sha384(sha2::Sha384),
    Sha512(sha2::Sha512),
}

impl Digest {
    fn new(a: Algorithm) -> Digest {
        use sha2::Digest as _;
        match a {
            Algorithm::Md5 => Digest::Md5(md5::Md5::new()),
            Algorithm::Sha1 => Digest::Sha1(sha1::Sha1::new()),
            Algorithm::Sha256 => Digest::Sha256(sha2::Sha256::new()),
            Algorithm::Sha384 => Digest::Sha384(sha2::Sha384::new()),
            Algorithm::Sha512 => Digest::Sha512(sha2::Sha512::new()),
        }
    }

    fn update(&mut self, text: &str) {
        use sha2::Digest as _;
        let b = text.as_bytes();
        match self {
            Digest::Md5(d) => d.update(b),
            Digest::Sha1(d) => d.update(b),
            Digest::Sha256(d) => d.update(b),
            Digest::Sha384(d) => d.update(b),
            Digest::Sha512(d) => d.update(b),
        }
    }

    fn finish(self) -> Vec<u8> {
        use sha2::Digest as _;
        match self {
            Digest::Md5(d) => d.finalize().to_vec(),
            Digest::Sha1(d) => d.finalize().to_vec(),
            Digest::Sha256(d) => d.finalize().to_vec(),
            Digest::Sha384(d) => d.finalize().to_vec(),
            Digest::Sha512(d) => d.finalize().to_vec(),
        }
    }
}

/// `FingerprintingConfig`.
#[derive(Clone, Debug)]
struct Config {
    algorithm: Algorithm,
    eager: bool,
    node_allow: BTreeMap<String, Vec<String>>,
    node_disallow: BTreeMap<String, Vec<String>>,
    rel_allow: BTreeMap<String, Vec<String>>,
    rel_disallow: BTreeMap<String, Vec<String>>,
    map_allow: Vec<String>,
    map_disallow: Vec<String>,
    all_nodes_allow: Vec<String>,
    all_nodes_disallow: Vec<String>,
    all_rels_allow: Vec<String>,
    all_rels_disallow: Vec<String>,
}

impl Config {
    /// `fingerprint`'s and `fingerprintGraph`'s: everything but the excluded keys.
    fn eager(excluded: Vec<String>) -> Config {
        Config {
            algorithm: Algorithm::Md5,
            eager: true,
            node_allow: BTreeMap::new(),
            node_disallow: BTreeMap::new(),
            rel_allow: BTreeMap::new(),
            rel_disallow: BTreeMap::new(),
            map_allow: Vec::new(),
            map_disallow: excluded.clone(),
            all_nodes_allow: Vec::new(),
            all_nodes_disallow: excluded.clone(),
            all_rels_allow: Vec::new(),
            all_rels_disallow: excluded,
        }
    }

    fn from_map(n: &str, v: &Value) -> Result<Config> {
        let empty = BTreeMap::new();
        let m = match v {
            Value::Null => &empty,
            Value::Map(m) => m,
            other => return Err(wrong(n, other, "a map")),
        };
        let list =
            |k: &str| -> Result<Vec<String>> { excluded(n, m.get(k).unwrap_or(&Value::Null)) };
        let lists = |k: &str| -> Result<BTreeMap<String, Vec<String>>> {
            match m.get(k) {
                None | Some(Value::Null) => Ok(BTreeMap::new()),
                Some(Value::Map(x)) => x
                    .iter()
                    .map(|(k, v)| Ok((k.to_string(), excluded(n, v)?)))
                    .collect(),
                Some(other) => Err(wrong(n, other, "a map of lists")),
            }
        };
        let algorithm = match m.get("digestAlgorithm") {
            None | Some(Value::Null) => Algorithm::Md5,
            Some(Value::String(s)) => Algorithm::named(n, s)?,
            Some(other) => return Err(wrong(n, other, "a string")),
        };
        let eager = match m.get("strategy") {
            None | Some(Value::Null) => false,
            Some(Value::String(s)) if &**s == "LAZY" => false,
            Some(Value::String(s)) if &**s == "EAGER" => true,
            Some(other) => {
                return Err(failed(
                    n,
                    format!("java.lang.IllegalArgumentException: No enum constant apoc.hashing.FingerprintStrategy.{}", crate::engine::functions::to_string_plain(other)),
                ))
            }
        };
        let c = Config {
            algorithm,
            eager,
            node_allow: lists("nodeAllowMap")?,
            node_disallow: lists("nodeDisallowMap")?,
            rel_allow: lists("relAllowMap")?,
            rel_disallow: lists("relDisallowMap")?,
            map_allow: list("mapAllowList")?,
            map_disallow: list("mapDisallowList")?,
            all_nodes_allow: list("allNodesAllowList")?,
            all_nodes_disallow: list("allNodesDisallowList")?,
            all_rels_allow: list("allRelsAllowList")?,
            all_rels_disallow: list("allRelsDisallowList")?,
        };
        let clash = |a: &[String], b: &[String]| a.iter().any(|x| b.contains(x));
        let key_clash = |a: &BTreeMap<String, Vec<String>>, b: &BTreeMap<String, Vec<String>>| {
            a.keys().any(|k| b.contains_key(k))
        };
        for (bad, what) in [
            (
                key_clash(&c.node_allow, &c.node_disallow),
                "labels for allow and disallow lists for nodes",
            ),
            (
                key_clash(&c.rel_allow, &c.rel_disallow),
                "types for allow and disallow lists for rels",
            ),
            (
                clash(&c.map_allow, &c.map_disallow),
                "properties for allow and disallow lists for maps",
            ),
            (
                clash(&c.all_nodes_allow, &c.all_nodes_disallow),
                "properties for allow and disallow lists for all nodes",
            ),
            (
                clash(&c.all_rels_allow, &c.all_rels_disallow),
                "properties for allow and disallow lists for all rels",
            ),
        ] {
            if bad {
                return Err(failed(
                    n,
                    format!("java.lang.RuntimeException: You can't set the same {what}"),
                ));
            }
        }
        Ok(c)
    }
}

struct Hasher<'r, 'a> {
    run: &'r Runner<'a>,
    conf: &'r Config,
    n: &'r str,
}

impl Hasher<'_, '_> {
    fn digest_of(&self, v: &Value) -> Result<Vec<u8>> {
        let mut md = Digest::new(self.conf.algorithm);
        self.feed(&mut md, v, 0)?;
        Ok(md.finish())
    }

    fn feed(&self, md: &mut Digest, v: &Value, depth: usize) -> Result<()> {
        // Values are at most 500 levels deep; the walk checks the deadline as it goes.
        if depth > crate::value::MAX_NESTING {
            return Err(failed(self.n, "the value is nested too deeply"));
        }
        self.run.sh.tick()?;
        match v {
            Value::Null => {}
            Value::List(xs) => {
                for x in xs {
                    self.feed(md, x, depth + 1)?;
                }
            }
            Value::Map(m) => self.feed_map(md, m, depth)?,
            Value::Node(id) => self.feed_node(md, *id)?,
            Value::Relationship(id) => self.feed_rel(md, *id)?,
            Value::Path(p) => {
                for id in &p.nodes {
                    self.feed_node(md, *id)?;
                }
                for id in &p.rels {
                    self.feed_rel(md, *id)?;
                }
            }
            scalar => md.update(&crate::engine::functions::to_string_plain(scalar)),
        }
        Ok(())
    }

    fn feed_map(&self, md: &mut Digest, m: &BTreeMap<Arc<str>, Value>, depth: usize) -> Result<()> {
        let c = self.conf;
        for (k, v) in m {
            let keep = if c.map_allow.is_empty() {
                !c.map_disallow.iter().any(|d| **d == **k)
            } else {
                c.map_allow.iter().any(|a| **a == **k)
            };
            if !keep {
                continue;
            }
            md.update(k);
            let mut inner = Digest::new(c.algorithm);
            self.feed(&mut inner, v, depth + 1)?;
            md.update(&hex(&inner.finish()));
        }
        Ok(())
    }

    /// An element's properties as the configuration selects them (`retain` then `remove`).
    fn selected<'c>(
        &'c self,
        props: BTreeMap<Arc<str>, Value>,
        retain: Vec<&'c String>,
        mut remove: Vec<&'c String>,
    ) -> Result<BTreeMap<Arc<str>, Value>> {
        remove.extend(self.conf.map_disallow.iter());
        if retain.is_empty() && remove.is_empty() {
            return Ok(if self.conf.eager {
                props
            } else {
                BTreeMap::new()
            });
        }
        let out: BTreeMap<Arc<str>, Value> = props
            .into_iter()
            .filter(|(k, _)| retain.is_empty() || retain.iter().any(|r| ***r == **k))
            .filter(|(k, _)| !remove.iter().any(|r| ***r == **k))
            .collect();
        // Java receives a boolean array property as boolean[], which APOC does not hash.
        for v in out.values() {
            if let Value::List(xs) = v {
                if !xs.is_empty() && xs.iter().all(|x| matches!(x, Value::Bool(_))) {
                    return Err(failed(
                        self.n,
                        "java.lang.UnsupportedOperationException: cannot yet deal with [Z",
                    ));
                }
            }
        }
        Ok(out)
    }

    fn feed_node(&self, md: &mut Digest, id: NodeId) -> Result<()> {
        let c = self.conf;
        let mut labels: Vec<Arc<str>> = self.run.node_labels(id);
        labels.sort();
        let known: BTreeSet<&String> = c.node_allow.keys().chain(c.node_disallow.keys()).collect();
        for l in &labels {
            if c.eager || known.iter().any(|k| ***k == **l) {
                md.update(l);
            }
        }
        let mut retain: Vec<&String> = c.all_nodes_allow.iter().collect();
        let mut remove: Vec<&String> = c.all_nodes_disallow.iter().collect();
        for l in &labels {
            if let Some(xs) = c.node_allow.get(&**l) {
                retain.extend(xs);
            }
            if let Some(xs) = c.node_disallow.get(&**l) {
                remove.extend(xs);
            }
        }
        let props = self.run.java_properties(&Value::Node(id))?;
        let props = self.selected(props, retain, remove)?;
        self.feed_map(md, &props, 0)
    }

    fn feed_rel(&self, md: &mut Digest, id: RelId) -> Result<()> {
        let c = self.conf;
        let ty = self.run.rel_type(id).unwrap_or_else(|| Arc::from(""));
        let known = c.rel_allow.contains_key(&*ty) || c.rel_disallow.contains_key(&*ty);
        if c.eager || known {
            md.update(&ty);
            if let Some((a, b)) = self.run.rel_endpoints(id) {
                for end in [a, b] {
                    let mut inner = Digest::new(c.algorithm);
                    self.feed_node(&mut inner, end)?;
                    md.update(&hex(&inner.finish()));
                }
            }
        }
        let mut retain: Vec<&String> = c.all_rels_allow.iter().collect();
        let mut remove: Vec<&String> = c.all_rels_disallow.iter().collect();
        if let Some(xs) = c.rel_allow.get(&*ty) {
            retain.extend(xs);
        }
        if let Some(xs) = c.rel_disallow.get(&*ty) {
            remove.extend(xs);
        }
        let props = self.run.java_properties(&Value::Relationship(id))?;
        let props = self.selected(props, retain, remove)?;
        self.feed_map(md, &props, 0)
    }

    /// `fingerprintGraph`: the nodes in order of their fingerprints (then ids), each followed
    /// by its outgoing relationships as (end node's fingerprint, relationship's fingerprint)
    /// pairs, sorted.
    fn graph(&self) -> Result<String> {
        let g = self.run.graph();
        let mut node_hash: BTreeMap<NodeId, String> = BTreeMap::new();
        for id in g.node_ids() {
            let mut md = Digest::new(self.conf.algorithm);
            self.feed_node(&mut md, id)?;
            node_hash.insert(id, hex(&md.finish()));
        }
        let mut by_hash: BTreeMap<&str, Vec<NodeId>> = BTreeMap::new();
        for (id, h) in &node_hash {
            by_hash.entry(h).or_default().push(*id);
        }
        let mut md = Digest::new(self.conf.algorithm);
        for (h, ids) in &by_hash {
            for id in ids {
                md.update(h);
                let mut pairs = Vec::new();
                for (r, end) in g.neighbours_iter(*id, crate::graph::Dir::Outgoing, None) {
                    self.run.sh.tick()?;
                    let mut rd = Digest::new(self.conf.algorithm);
                    self.feed_rel(&mut rd, r)?;
                    let end_hash = node_hash.get(&end).cloned().unwrap_or_default();
                    pairs.push((end_hash, hex(&rd.finish())));
                }
                pairs.sort();
                for (a, b) in &pairs {
                    md.update(a);
                    md.update(b);
                }
            }
        }
        Ok(hex(&md.finish()))
    }
}
