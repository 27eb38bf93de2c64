//! A content-addressed response cache: the SHA-256 of the request's canonical JSON (provider,
//! model, messages, parameters, sample) names a file holding the request and the reply. A hit
//! is checked against the stored request, so a collision can never serve a wrong answer.
//! Entries are written atomically; concurrent writers of one key write the same bytes.

use super::client::Usage;
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// Opens (and creates) a cache directory.
    pub fn open(dir: &Path) -> Result<Cache, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the cache {}: {e}", dir.display()))?;
        Ok(Cache {
            dir: dir.to_path_buf(),
        })
    }

    /// The key of a request: hex SHA-256 of its canonical JSON (object keys sorted).
    pub fn key(material: &Json) -> String {
        let canonical = serde_json::to_string(material).unwrap_or_default();
        let digest = Sha256::digest(canonical.as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    pub fn get(&self, material: &Json) -> Option<(String, Usage)> {
        let text = std::fs::read_to_string(self.path(&Self::key(material))).ok()?;
        let entry: Json = serde_json::from_str(&text).ok()?;
        if entry.get("request") != Some(material) {
            return None;
        }
        let reply = entry.get("text")?.as_str()?.to_string();
        let usage = serde_json::from_value(entry.get("usage")?.clone()).ok()?;
        Some((reply, usage))
    }

    pub fn put(&self, material: &Json, text: &str, usage: Usage) -> std::io::Result<()> {
        let key = Self::key(material);
        let path = self.path(&key);
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p)?;
        }
        let entry = json!({"request": material, "text": text, "usage": usage});
        crate::dataset::write_atomically(&path, entry.to_string().as_bytes())
    }

    /// Entries stored.
    pub fn len(&self) -> usize {
        std::fs::read_dir(&self.dir)
            .map(|d| {
                d.flatten()
                    .filter_map(|e| std::fs::read_dir(e.path()).ok())
                    .map(|sub| sub.count())
                    .sum()
            })
            .unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_collision_guard() {
        let dir = std::env::temp_dir().join(format!("grape-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let c = Cache::open(&dir).unwrap();
        let m = json!({"model": "m", "messages": [{"role": "user", "content": "q"}]});
        assert!(c.get(&m).is_none());
        let u = Usage {
            input_tokens: 3,
            output_tokens: 4,
        };
        c.put(&m, "answer", u).unwrap();
        assert_eq!(c.get(&m), Some(("answer".to_string(), u)));
        assert_eq!(c.len(), 1);
        // Another request never reads this entry, even if it were stored under its key.
        let other = json!({"model": "m2"});
        std::fs::copy(c.path(&Cache::key(&m)), {
            let p = c.path(&Cache::key(&other));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            p
        })
        .unwrap();
        assert!(c.get(&other).is_none());
        assert_eq!(Cache::key(&m).len(), 64);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
