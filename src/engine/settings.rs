//! `SHOW SETTINGS`: Neo4j 5.26's settings (the catalogue's list, from the oracle) with grape's
//! values where grape has the setting's behaviour — a statement's time limit is
//! `db.transaction.timeout`, its memory budget `db.memory.transaction.max`, the Bolt server's
//! address `server.bolt.listen_address` — and Neo4j's defaults elsewhere. Neo4j's descriptions
//! are not copied: `description` is null, as for `SHOW FUNCTIONS`.

use super::Limits;
use crate::value::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// A setting's value where grape's differs from Neo4j's default, by name.
pub type Overrides = BTreeMap<String, Option<String>>;

/// A duration as Neo4j writes a setting's (`30s`, `1m30s`, `1500ms` as `1s500ms`, `0s`).
pub fn duration_text(d: Duration) -> String {
    let mut nanos = d.as_nanos();
    if nanos == 0 {
        return "0s".into();
    }
    const UNITS: [(u128, &str); 7] = [
        (86_400_000_000_000, "d"),
        (3_600_000_000_000, "h"),
        (60_000_000_000, "m"),
        (1_000_000_000, "s"),
        (1_000_000, "ms"),
        (1_000, "μs"),
        (1, "ns"),
    ];
    let mut out = String::new();
    for (size, unit) in UNITS {
        let n = nanos / size;
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
            nanos -= n * size;
        }
    }
    out
}

/// A byte size as Neo4j writes a setting's (`0B`, `512B`, `16.00MiB`, `1.00GiB`).
pub fn bytes_text(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes < 1024 {
        return format!("{bytes}B");
    }
    let mut v = bytes as f64;
    let mut unit = "B";
    for u in UNITS {
        if v < 1024.0 {
            break;
        }
        v /= 1024.0;
        unit = u;
    }
    format!("{v:.2}{unit}")
}

/// What grape's engine decides of Neo4j's settings, whatever serves it.
fn engine_overrides(limits: &Limits, import_dir: Option<&std::path::Path>) -> Overrides {
    let mut o = Overrides::new();
    let set = |o: &mut Overrides, k: &str, v: String| o.insert(k.to_string(), Some(v));
    set(
        &mut o,
        "db.transaction.timeout",
        duration_text(limits.timeout.unwrap_or_default()),
    );
    set(
        &mut o,
        "db.memory.transaction.max",
        bytes_text(limits.max_memory.unwrap_or(0) as u64),
    );
    // APOC and GDS run unrestricted; there is no pool shared by all transactions.
    set(
        &mut o,
        "dbms.security.procedures.unrestricted",
        "apoc.*,gds.*".into(),
    );
    set(&mut o, "dbms.memory.transaction.total.max", "0B".into());
    // grape reports nothing anywhere.
    set(&mut o, "dbms.usage_report.enabled", "false".into());
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    set(&mut o, "server.threads.worker_count", workers.to_string());
    if let Some(dir) = import_dir {
        set(
            &mut o,
            "server.directories.import",
            dir.display().to_string(),
        );
    }
    if let Ok(dir) = std::env::current_dir() {
        set(
            &mut o,
            "server.directories.neo4j_home",
            dir.display().to_string(),
        );
    }
    o
}

/// Defaults Neo4j's oracle derived from its own machine (its heap, its directory), which
/// grape's values replace as defaults too.
const MACHINE_DEFAULTS: &[&str] = &[
    "dbms.memory.transaction.total.max",
    "server.directories.neo4j_home",
    "server.threads.worker_count",
];

/// The rows of `SHOW SETTINGS … YIELD *` (name, value, isDynamic, defaultValue, description,
/// startupValue, isExplicitlySet, validValues, isDeprecated), in Neo4j's order, those named in
/// `names` only when it is given; `server`'s values (a Bolt server's address, its
/// authentication) over the engine's.
pub(crate) fn rows(
    server: &Overrides,
    limits: &Limits,
    import_dir: Option<&std::path::Path>,
    names: Option<&BTreeSet<String>>,
) -> Vec<Vec<Value>> {
    let mut overrides = engine_overrides(limits, import_dir);
    overrides.extend(server.iter().map(|(k, v)| (k.clone(), v.clone())));
    let text = |v: Option<&str>| v.map_or(Value::Null, Value::from);
    crate::catalogue::settings()
        .iter()
        .filter(|s| names.is_none_or(|n| n.contains(s.name)))
        .map(|s| {
            let set = overrides.get(s.name);
            let value = set.map_or(s.default, |v| v.as_deref());
            let default = if MACHINE_DEFAULTS.contains(&s.name) {
                value
            } else {
                s.default
            };
            vec![
                Value::from(s.name),
                text(value),
                Value::Bool(s.dynamic),
                text(default),
                Value::Null,
                text(value),
                Value::Bool(set.is_some() && !MACHINE_DEFAULTS.contains(&s.name)),
                Value::from(s.valid_values),
                Value::Bool(s.deprecated),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values compared as Neo4j's clients see them (their debug form).
    fn v(x: &Value) -> String {
        format!("{x:?}")
    }

    #[test]
    fn values_are_written_as_neo4j_writes_them() {
        let s = Duration::from_secs;
        assert_eq!(duration_text(s(0)), "0s");
        assert_eq!(duration_text(s(30)), "30s");
        assert_eq!(duration_text(s(900)), "15m");
        assert_eq!(duration_text(s(3600)), "1h");
        assert_eq!(duration_text(s(90)), "1m30s");
        assert_eq!(duration_text(Duration::from_millis(1500)), "1s500ms");
        assert_eq!(bytes_text(0), "0B");
        assert_eq!(bytes_text(16 << 20), "16.00MiB");
        assert_eq!(bytes_text(1 << 30), "1.00GiB");
        assert_eq!(bytes_text(512 << 10), "512.00KiB");
        assert_eq!(bytes_text(751_619_276), "716.80MiB");
    }

    #[test]
    fn every_setting_is_listed_with_grapes_values_where_it_has_them() {
        let limits = Limits::default();
        let all = rows(&Overrides::new(), &limits, None, None);
        assert_eq!(all.len(), crate::catalogue::settings().len());
        let get = |name: &str| {
            all.iter()
                .find(|r| v(&r[0]) == v(&Value::from(name)))
                .cloned()
                .unwrap()
        };
        let t = get("db.transaction.timeout");
        assert_eq!((v(&t[1]), v(&t[3])), (v(&"30s".into()), v(&"0s".into())));
        assert_eq!(v(&t[6]), v(&Value::Bool(true)));
        let m = get("db.memory.transaction.max");
        assert_eq!(v(&m[1]), v(&"1.00GiB".into()));
        let c = get("db.checkpoint.interval.time");
        assert_eq!(
            (v(&c[1]), v(&c[6])),
            (v(&"15m".into()), v(&Value::Bool(false)))
        );
        let mut server = Overrides::new();
        server.insert(
            "server.bolt.listen_address".into(),
            Some("127.0.0.1:7687".into()),
        );
        let named: BTreeSet<String> = ["server.bolt.listen_address".to_string(), "nope".into()]
            .into_iter()
            .collect();
        let some = rows(&server, &limits, None, Some(&named));
        assert_eq!(some.len(), 1);
        assert_eq!(v(&some[0][1]), v(&"127.0.0.1:7687".into()));
        assert_eq!(v(&some[0][3]), v(&":7687".into()));
    }
}
