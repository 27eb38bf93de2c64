//! The Neo4j oracle for the tests (`scripts/neo4j-oracle`, which `.ci/run` starts), reached
//! through `GRAPE_NEO4J_URI` and `GRAPE_NEO4J_AUTH` (`user:password`); `GRAPE_NEO4J_DIR`, the
//! oracle's folder, lets a test give it a new store. Without them a test prints `SKIPPED …` and
//! passes, unless `GRAPE_REQUIRE_NEO4J=1` (as `.ci/run` sets where Java is installed).

#![allow(dead_code)]

use grape::backend::neo4j::{Neo4j, Neo4jConfig};
use std::sync::Mutex;

/// The `EXPLAIN` notification codes grape derives (`grape::engine::notifications`); Neo4j's
/// others (cartesian products, …) are counted, not compared.
pub const DERIVED_NOTIFICATIONS: &[&str] = &[
    "Neo.ClientNotification.Statement.UnknownLabelWarning",
    "Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning",
    "Neo.ClientNotification.Statement.UnknownPropertyKeyWarning",
    "Neo.ClientNotification.Statement.UnsatisfiableRelationshipTypeExpression",
    "Neo.ClientNotification.Statement.ParameterNotProvided",
    "Neo.ClientNotification.Statement.FeatureDeprecationWarning",
];

/// The tests share the one database of the oracle: one at a time. (Both oracles share this
/// lock too: on two cores, a 5.26 run beside a Cypher 25 one made both slower — 778 s against
/// 665 s for `tests/neo4j_oracle.rs` in CI.)
pub static ORACLE: Mutex<()> = Mutex::new(());

/// The lock of the oracles (one for both, see [`ORACLE`]).
pub fn lock(_which: Which) -> std::sync::MutexGuard<'static, ()> {
    ORACLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Which oracle: Neo4j 5.26 with APOC (`GRAPE_NEO4J_*`), or the Cypher 25 one, a Neo4j
/// 2025.x/2026.x (`GRAPE_NEO4J25_*`, which `.ci/run` starts where Java 21 or later is installed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Neo4j5,
    Neo4j25,
}

impl Which {
    fn var(self, suffix: &str) -> String {
        match self {
            Which::Neo4j5 => format!("GRAPE_NEO4J_{suffix}"),
            Which::Neo4j25 => format!("GRAPE_NEO4J25_{suffix}"),
        }
    }
    fn required(self) -> &'static str {
        match self {
            Which::Neo4j5 => "GRAPE_REQUIRE_NEO4J",
            Which::Neo4j25 => "GRAPE_REQUIRE_NEO4J25",
        }
    }
}

/// Whether a live run against an oracle covers everything (`GRAPE_ORACLE_FULL=1`) or a fixed
/// sample of it (the test run: every third case, recordings checking all of them without a
/// JVM), to keep the test run's time.
pub fn full() -> bool {
    std::env::var("GRAPE_ORACLE_FULL").as_deref() == Ok("1")
}

/// Whether case `i` of a live run is run: all of them when [`full`], every third otherwise.
/// The live runs check that a recording still holds; grape is held to every recorded case
/// without a JVM. (Every second took the clean-clone CI to 34 minutes of its 35.)
pub fn sampled(i: usize) -> bool {
    full() || i.is_multiple_of(3)
}

pub fn config() -> Option<Neo4jConfig> {
    config_of(Which::Neo4j5)
}

pub fn config_of(which: Which) -> Option<Neo4jConfig> {
    let uri = std::env::var(which.var("URI"))
        .ok()
        .filter(|u| !u.is_empty());
    let Some(uri) = uri else {
        if std::env::var(which.required()).as_deref() == Ok("1") {
            panic!(
                "{}=1 but {} is not set: the oracle did not start",
                which.required(),
                which.var("URI")
            );
        }
        return None;
    };
    let auth = std::env::var(which.var("AUTH")).unwrap_or_default();
    let (user, password) = auth.split_once(':').unwrap_or(("neo4j", ""));
    let mut c = Neo4jConfig::new(uri);
    c.user = user.to_string();
    c.password = password.to_string();
    c.timeout = Some(std::time::Duration::from_secs(120));
    Some(c)
}

/// A connection to the oracle with a new, empty store when `GRAPE_NEO4J_DIR` allows it (a new
/// store numbers nodes from 0 and has no tokens left from earlier data), else emptied.
pub fn fresh_oracle(test: &str) -> Option<Neo4j> {
    fresh(Which::Neo4j5, test)
}

/// [`fresh_oracle`] of either oracle.
pub fn fresh(which: Which, test: &str) -> Option<Neo4j> {
    let Some(c) = config_of(which) else {
        eprintln!(
            "SKIPPED {test}: no {which:?} oracle (set {}, or run .ci/run)",
            which.var("URI")
        );
        return None;
    };
    if let Ok(dir) = std::env::var(which.var("DIR")) {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/neo4j-oracle");
        let out = std::process::Command::new(script)
            .args(["reset", &dir])
            .output()
            .expect("run scripts/neo4j-oracle");
        assert!(
            out.status.success(),
            "scripts/neo4j-oracle reset {dir}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let db = Neo4j::connect(c).expect("connect to the oracle");
    grape::backend::push::clear(&db).expect("empty the oracle");
    Some(db)
}
