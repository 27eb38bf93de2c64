//! The catalogue: what functions exist, independent of who executes them.
//!
//! Neo4j resolves every function name when it compiles a query: a name it does not know is a
//! syntax error (`Unknown function 'foo.bar'`) before any data is touched. This module answers
//! the question for Neo4j 5.26 with APOC core — the names of `SHOW FUNCTIONS` in both Cypher
//! versions — so that the validator and the engine can ask it offline; and the same for
//! procedures (`There is no procedure with the name …`, `Neo.ClientError.Procedure.ProcedureNotFound`).
//! Which of them grape's engine implements is the engine's business
//! (`engine::functions::is_implemented`, `engine::procedures::is_implemented`).
//!
//! ```
//! use grape::catalogue::{function, procedure, suggest_function, unknown_function_message};
//!
//! let left = function("LEFT").unwrap(); // names match in any case
//! assert_eq!(left.name, "left");
//! assert!(left.built_in && !left.aggregating);
//! assert!(left.arity_error(2).is_none());
//! assert!(left.arity_error(1).unwrap().contains("Insufficient parameters for function 'left'"));
//! assert_eq!(suggest_function("toLowerCase"), Some("toLower"));
//! assert_eq!(unknown_function_message("foo.bar"), "Unknown function 'foo.bar'");
//!
//! let labels = procedure("db.labels").unwrap();
//! assert_eq!(labels.mode.name(), "READ");
//! assert!(labels.has_output("label") && !labels.has_output("name"));
//! ```
//!
//! # Layout
//!
//! - The functions and procedures Neo4j 5.26 knows (both Cypher versions; APOC core, GDS, CDC),
//!   one line each in `neo4j_functions.rs` / `neo4j_procedures.rs`, written by
//!   `scripts/gen-catalogue.py` from `../shared/data/neo4j-catalogue/`: name, kind (built-in or
//!   plugin, aggregating), versions, category or mode, and the signature as Neo4j prints it,
//!   parsed on first use (`signature.rs`: arguments with defaults, result type, a procedure's
//!   output columns).
//! - It answers what Neo4j checks when it compiles a call: unknown names (with did-you-mean),
//!   wrong argument counts (`Insufficient parameters for function 'left'`,
//!   `Function call does not provide the required number of arguments…`,
//!   `Procedure call provides too many arguments…`, the messages of Neo4j's frontend), unknown
//!   `YIELD` columns.
//! - Of grape it imports only `syntax` (`ShowKind`, for the columns of the `SHOW` commands:
//!   `show_columns`).
//! - The validator also checks a procedure call's argument types against the signature (a `MAP`
//!   argument takes a node or relationship too), refuses aggregates among its arguments and
//!   results named implicitly inside a query (no `YIELD`), and knows procedures beyond the
//!   catalogue through `ValidateOptions::procedures` (the engine passes its table procedures'
//!   signatures).
//! - The validator reports these as syntax errors. The engine runs the validator first
//!   (`ValidateOptions::executable = engine::functions::is_implemented` also refuses a known
//!   function it does not run, `FeatureNotSupported`), and `engine::procedures::check_calls`
//!   refuses unknown or unimplemented procedures (`ProcedureNotFound`, `FeatureNotSupported`), so
//!   no row is read or written first. A test holds the engine's procedures to the catalogue's
//!   output columns.

/// The Neo4j version whose catalogue and behaviour grape follows, as `dbms.components()` and
/// the Bolt server's greeting report it.
pub const NEO4J_VERSION: &str = "5.26.0";

/// The columns of `SHOW FUNCTIONS … YIELD *`, in Neo4j 5's order; the first three are what
/// `SHOW FUNCTIONS` without `YIELD` returns.
pub const SHOW_FUNCTIONS_COLUMNS: &[&str] = &[
    "name",
    "category",
    "description",
    "signature",
    "isBuiltIn",
    "argumentDescription",
    "returnDescription",
    "aggregating",
    "rolesExecution",
    "rolesBoostedExecution",
    "isDeprecated",
    "deprecatedBy",
];
pub const SHOW_FUNCTIONS_DEFAULT: usize = 3;

/// The columns of `SHOW PROCEDURES … YIELD *`; the first four are the default ones.
pub const SHOW_PROCEDURES_COLUMNS: &[&str] = &[
    "name",
    "description",
    "mode",
    "worksOnSystem",
    "signature",
    "argumentDescription",
    "returnDescription",
    "admin",
    "rolesExecution",
    "rolesBoostedExecution",
    "isDeprecated",
    "deprecatedBy",
    "option",
];
pub const SHOW_PROCEDURES_DEFAULT: usize = 4;

/// The columns of `SHOW INDEXES … YIELD *` in Neo4j 5.26's order; the first twelve are the
/// default ones.
pub const SHOW_INDEXES_COLUMNS: &[&str] = &[
    "id",
    "name",
    "state",
    "populationPercent",
    "type",
    "entityType",
    "labelsOrTypes",
    "properties",
    "indexProvider",
    "owningConstraint",
    "lastRead",
    "readCount",
    "trackedSince",
    "options",
    "failureMessage",
    "createStatement",
];
pub const SHOW_INDEXES_DEFAULT: usize = 12;

/// The columns of `SHOW CONSTRAINTS … YIELD *`; the first eight are the default ones.
pub const SHOW_CONSTRAINTS_COLUMNS: &[&str] = &[
    "id",
    "name",
    "type",
    "entityType",
    "labelsOrTypes",
    "properties",
    "ownedIndex",
    "propertyType",
    "options",
    "createStatement",
];
pub const SHOW_CONSTRAINTS_DEFAULT: usize = 8;

/// The columns of `SHOW DATABASES … YIELD *` in Neo4j 5's order; the first thirteen are the
/// default ones.
pub const SHOW_DATABASES_COLUMNS: &[&str] = &[
    "name",
    "type",
    "aliases",
    "access",
    "address",
    "role",
    "writer",
    "requestedStatus",
    "currentStatus",
    "statusMessage",
    "default",
    "home",
    "constituents",
    "databaseID",
    "serverID",
    "creationTime",
    "lastStartTime",
    "lastStopTime",
    "store",
    "currentPrimariesCount",
    "currentSecondariesCount",
    "requestedPrimariesCount",
    "requestedSecondariesCount",
    "options",
];
pub const SHOW_DATABASES_DEFAULT: usize = 13;

/// The columns of `SHOW SETTINGS … YIELD *`; the first five are the default ones.
pub const SHOW_SETTINGS_COLUMNS: &[&str] = &[
    "name",
    "value",
    "isDynamic",
    "defaultValue",
    "description",
    "startupValue",
    "isExplicitlySet",
    "validValues",
    "isDeprecated",
];

/// The columns of `TERMINATE TRANSACTIONS … YIELD *`, all of them default ones.
pub const TERMINATE_TRANSACTIONS_COLUMNS: &[&str] = &["transactionId", "username", "message"];

/// The columns of `SHOW TRANSACTIONS … YIELD *`, in Neo4j's order.
pub const SHOW_TRANSACTIONS_COLUMNS: &[&str] = &[
    "database",
    "transactionId",
    "currentQueryId",
    "outerTransactionId",
    "connectionId",
    "clientAddress",
    "username",
    "metaData",
    "currentQuery",
    "parameters",
    "planner",
    "runtime",
    "indexes",
    "startTime",
    "currentQueryStartTime",
    "protocol",
    "requestUri",
    "status",
    "currentQueryStatus",
    "statusDetails",
    "resourceInformation",
    "activeLockCount",
    "currentQueryActiveLockCount",
    "elapsedTime",
    "cpuTime",
    "waitTime",
    "idleTime",
    "currentQueryElapsedTime",
    "currentQueryCpuTime",
    "currentQueryWaitTime",
    "currentQueryIdleTime",
    "currentQueryAllocatedBytes",
    "allocatedDirectBytes",
    "estimatedUsedHeapMemory",
    "pageHits",
    "pageFaults",
    "currentQueryPageHits",
    "currentQueryPageFaults",
    "initializationStackTrace",
];

/// The columns `SHOW TRANSACTIONS` returns without `YIELD`.
pub const SHOW_TRANSACTIONS_DEFAULT: &[&str] = &[
    "database",
    "transactionId",
    "currentQueryId",
    "connectionId",
    "clientAddress",
    "username",
    "currentQuery",
    "startTime",
    "status",
    "elapsedTime",
];

/// The columns of `SHOW CURRENT USER`.
/// `SHOW USERS WITH AUTH`: the user columns, then one row per user and auth provider.
pub const SHOW_USERS_WITH_AUTH_COLUMNS: &[&str] = &[
    "user",
    "roles",
    "passwordChangeRequired",
    "suspended",
    "home",
    "provider",
    "auth",
];

pub const SHOW_CURRENT_USER_COLUMNS: &[&str] = &[
    "user",
    "roles",
    "passwordChangeRequired",
    "suspended",
    "home",
];

/// The columns a `SHOW` command can yield (all of them, in the order of `YIELD *`) and those it
/// returns without `YIELD`.
pub fn show_columns(
    kind: crate::syntax::ShowKind,
) -> (&'static [&'static str], &'static [&'static str]) {
    use crate::syntax::ShowKind;
    match kind {
        ShowKind::Functions => (
            SHOW_FUNCTIONS_COLUMNS,
            &SHOW_FUNCTIONS_COLUMNS[..SHOW_FUNCTIONS_DEFAULT],
        ),
        ShowKind::Procedures => (
            SHOW_PROCEDURES_COLUMNS,
            &SHOW_PROCEDURES_COLUMNS[..SHOW_PROCEDURES_DEFAULT],
        ),
        ShowKind::Indexes(_) => (
            SHOW_INDEXES_COLUMNS,
            &SHOW_INDEXES_COLUMNS[..SHOW_INDEXES_DEFAULT],
        ),
        ShowKind::Constraints(_) => (
            SHOW_CONSTRAINTS_COLUMNS,
            &SHOW_CONSTRAINTS_COLUMNS[..SHOW_CONSTRAINTS_DEFAULT],
        ),
        ShowKind::Databases(_) => (
            SHOW_DATABASES_COLUMNS,
            &SHOW_DATABASES_COLUMNS[..SHOW_DATABASES_DEFAULT],
        ),
        ShowKind::Settings => (SHOW_SETTINGS_COLUMNS, &SHOW_SETTINGS_COLUMNS[..5]),
        ShowKind::Transactions => (SHOW_TRANSACTIONS_COLUMNS, SHOW_TRANSACTIONS_DEFAULT),
        ShowKind::Terminate => (
            TERMINATE_TRANSACTIONS_COLUMNS,
            TERMINATE_TRANSACTIONS_COLUMNS,
        ),
        ShowKind::CurrentUser | ShowKind::Users { with_auth: false } => {
            (SHOW_CURRENT_USER_COLUMNS, &SHOW_CURRENT_USER_COLUMNS[..5])
        }
        ShowKind::Users { with_auth: true } => (
            SHOW_USERS_WITH_AUTH_COLUMNS,
            &SHOW_USERS_WITH_AUTH_COLUMNS[..7],
        ),
    }
}

mod neo4j_functions;
mod neo4j_procedures;
mod neo4j_settings;
mod signature;

/// A setting Neo4j lists in `SHOW SETTINGS`: its interface, not its value on a given server.
#[derive(Debug)]
pub struct Setting {
    pub name: &'static str,
    /// `None` where Neo4j has no default (the value is then null unless set).
    pub default: Option<&'static str>,
    /// Whether it can be changed while the DBMS runs.
    pub dynamic: bool,
    /// What it accepts, as Neo4j states it (`A boolean.`).
    pub valid_values: &'static str,
    pub deprecated: bool,
}

impl Setting {
    const fn new(
        name: &'static str,
        default: Option<&'static str>,
        dynamic: bool,
        valid_values: &'static str,
        deprecated: bool,
    ) -> Setting {
        Setting {
            name,
            default,
            dynamic,
            valid_values,
            deprecated,
        }
    }
}

/// The settings of Neo4j 5.26 (with APOC core), in the order `SHOW SETTINGS` lists them.
pub fn settings() -> &'static [Setting] {
    &neo4j_settings::SETTINGS
}

pub use signature::{unknown_output_message, Arity, Param, Signature};

/// The Cypher versions a function exists in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Versions {
    pub cypher_5: bool,
    pub cypher_25: bool,
}

impl Versions {
    pub const BOTH: Versions = Versions {
        cypher_5: true,
        cypher_25: true,
    };
    pub const CYPHER_5: Versions = Versions {
        cypher_5: true,
        cypher_25: false,
    };
    pub const CYPHER_25: Versions = Versions {
        cypher_5: false,
        cypher_25: true,
    };
}

/// Where a function comes from and whether it aggregates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    BuiltIn,
    BuiltInAggregating,
    /// A plugin's (APOC's) function.
    Plugin,
    PluginAggregating,
}

/// A function Neo4j knows.
#[derive(Debug)]
pub struct Function {
    /// As Neo4j spells it (`toInteger`, `apoc.text.join`); names match case-insensitively.
    pub name: &'static str,
    pub aggregating: bool,
    /// Part of Cypher (`true`) or of a plugin (APOC).
    pub built_in: bool,
    pub versions: Versions,
    /// `SHOW FUNCTIONS`' category (`Numeric`, `Temporal`, …; empty for plugins).
    pub category: &'static str,
    /// As `SHOW FUNCTIONS` prints it: `left(original :: STRING, length :: INTEGER) :: STRING`.
    pub signature_text: &'static str,
    parsed: std::sync::OnceLock<Option<Signature>>,
}

impl Function {
    pub(crate) const fn new(
        name: &'static str,
        kind: FunctionKind,
        versions: Versions,
        category: &'static str,
        signature_text: &'static str,
    ) -> Function {
        Function {
            name,
            aggregating: matches!(
                kind,
                FunctionKind::BuiltInAggregating | FunctionKind::PluginAggregating
            ),
            built_in: matches!(
                kind,
                FunctionKind::BuiltIn | FunctionKind::BuiltInAggregating
            ),
            versions,
            category,
            signature_text,
            parsed: std::sync::OnceLock::new(),
        }
    }

    /// The parsed signature; `None` for the few whose arguments are syntax rather than values
    /// (`all(x IN list WHERE …)`, `reduce(…)`, `trim(BOTH 'x' FROM s)`).
    pub fn signature(&self) -> Option<&Signature> {
        self.parsed
            .get_or_init(|| Signature::parse(self.signature_text))
            .as_ref()
    }

    /// How many arguments a call may pass, as Neo4j checks it at compile time; `None` when
    /// Neo4j does not check the count (`timestamp`) or the arguments are syntax.
    pub fn arity(&self) -> Option<Arity> {
        signature::function_arity(self)
    }

    /// Neo4j's compile-time error for a call with `given` arguments, if the count is wrong.
    pub fn arity_error(&self, given: usize) -> Option<String> {
        signature::function_arity_error(self, given)
    }

    /// The text of the GQL status (`42I13`) Neo4j gives with [`Function::arity_error`]'s
    /// message, where it gives one; `written` is the function's name as the query spells it.
    pub fn arity_gql(&self, written: &str, given: usize) -> Option<String> {
        signature::function_arity_gql(self, written, given)
    }
}

/// What a procedure may do (Neo4j's `mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Read,
    Write,
    Schema,
    Dbms,
    /// APOC's and others' procedures that declare no mode.
    Default,
}

impl Mode {
    /// As `SHOW PROCEDURES` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Read => "READ",
            Mode::Write => "WRITE",
            Mode::Schema => "SCHEMA",
            Mode::Dbms => "DBMS",
            Mode::Default => "DEFAULT",
        }
    }
}

/// A procedure Neo4j knows.
#[derive(Debug)]
pub struct Procedure {
    /// As Neo4j spells it (`db.schema.visualization`); names match case-insensitively.
    pub name: &'static str,
    pub mode: Mode,
    pub versions: Versions,
    /// As `SHOW PROCEDURES` prints it under `CYPHER 5`:
    /// `db.labels() :: (label :: STRING)`.
    pub signature_text: &'static str,
    /// Under `CYPHER 25`, where it differs.
    pub signature_text_25: Option<&'static str>,
    parsed: std::sync::OnceLock<Option<Signature>>,
}

impl Procedure {
    pub(crate) const fn new(
        name: &'static str,
        mode: Mode,
        versions: Versions,
        signature_text: &'static str,
    ) -> Procedure {
        Procedure {
            name,
            mode,
            versions,
            signature_text,
            signature_text_25: None,
            parsed: std::sync::OnceLock::new(),
        }
    }

    pub(crate) const fn in_cypher_25(mut self, signature_text: &'static str) -> Procedure {
        self.signature_text_25 = Some(signature_text);
        self
    }

    /// The parsed signature (Cypher 5's): arguments with their defaults, and output columns.
    pub fn signature(&self) -> Option<&Signature> {
        self.parsed
            .get_or_init(|| Signature::parse(self.signature_text))
            .as_ref()
    }

    /// Neo4j's compile-time error for a call with `given` arguments, if the count is wrong.
    pub fn arity_error(&self, given: usize) -> Option<String> {
        signature::procedure_arity_error(self, given)
    }

    /// Whether `column` is one of the procedure's outputs (`YIELD column`).
    pub fn has_output(&self, column: &str) -> bool {
        self.signature()
            .is_none_or(|s| s.outputs.iter().any(|o| o.name == column))
    }
}

/// Every procedure Neo4j knows, sorted by lower-case name.
pub fn procedures() -> &'static [Procedure] {
    &neo4j_procedures::PROCEDURES
}

/// The procedure named `name` (dotted, any case), if Neo4j knows it.
pub fn procedure(name: &str) -> Option<&'static Procedure> {
    find(procedures(), |p| p.name, name)
}

/// APOC core's functions and procedures that a Neo4j 2025+ does not offer under Cypher 25
/// (deprecated, registered for Cypher 5 only; `SHOW FUNCTIONS` / `SHOW PROCEDURES` of the
/// 2026.08 oracle under each version).
const NOT_IN_CYPHER_25: &[&str] = &[
    "apoc.convert.totree",
    "apoc.create.uuid",
    "apoc.create.uuids",
    "apoc.export.arrow.all",
    "apoc.export.arrow.graph",
    "apoc.export.arrow.query",
    "apoc.export.arrow.stream.all",
    "apoc.export.arrow.stream.graph",
    "apoc.export.arrow.stream.query",
    "apoc.load.jsonparams",
    "apoc.log.stream",
    "apoc.map.setentry",
    "apoc.text.levenshteindistance",
    "apoc.text.regreplace",
    "apoc.trigger.add",
    "apoc.trigger.pause",
    "apoc.trigger.remove",
    "apoc.trigger.removeall",
    "apoc.trigger.resume",
    "apoc.warmup.run",
];

/// Whether a function or procedure Neo4j knows under Cypher 5 is missing under Cypher 25.
pub fn missing_in_cypher_25(name: &str) -> bool {
    NOT_IN_CYPHER_25
        .binary_search(&name.to_ascii_lowercase().as_str())
        .is_ok()
}

/// The error message Neo4j gives for a procedure it does not know.
pub fn unknown_procedure_message(name: &str) -> String {
    format!(
        "There is no procedure with the name `{name}` registered for this database instance. \
         Please ensure you've spelled the procedure name correctly and that the procedure is \
         properly deployed."
    )
}

/// Every function Neo4j knows, sorted by lower-case name.
pub fn functions() -> &'static [Function] {
    &neo4j_functions::FUNCTIONS
}

/// The function named `name` (dotted, any case), if Neo4j knows it.
pub fn function(name: &str) -> Option<&'static Function> {
    find(functions(), |f| f.name, name)
}

/// The entry of `all` (sorted by lower-case name) named `name`, in any case.
fn find<T>(all: &'static [T], name_of: fn(&T) -> &str, name: &str) -> Option<&'static T> {
    all.binary_search_by(|x| cmp_lower(name_of(x), name))
        .ok()
        .map(|i| &all[i])
}

/// Compares two names as their ASCII lower-case forms, without allocating.
fn cmp_lower(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

/// The function a misspelt or outdated `name` most likely meant: one whose last dotted part is
/// the same (`distance` → `point.distance`), else one `name` begins with (`toLowerCase` →
/// `toLower`), else the nearest by edit distance, if it is near (at most 2 edits, or a quarter
/// of the name). Built-in functions first.
pub fn suggest_function(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let last = lower.rsplit('.').next().unwrap_or(&lower);
    let by_last = functions()
        .iter()
        .filter(|f| {
            let n = f.name.to_ascii_lowercase();
            n != lower && n.rsplit('.').next() == Some(last)
        })
        .min_by_key(|f| (!f.built_in, f.name.len()));
    if let Some(f) = by_last {
        return Some(f.name);
    }
    // A longer spelling of a function (`toLowerCase` → `toLower`).
    let prefix = functions()
        .iter()
        .filter(|f| f.name.len() >= 5 && lower.starts_with(&f.name.to_ascii_lowercase()))
        .max_by_key(|f| (f.name.len(), f.built_in));
    if let Some(f) = prefix {
        return Some(f.name);
    }
    let limit = 2.max(lower.len() / 4);
    functions()
        .iter()
        .map(|f| {
            (
                strsim::levenshtein(&lower, &f.name.to_ascii_lowercase()),
                !f.built_in,
                f.name,
            )
        })
        .filter(|(d, _, _)| *d <= limit)
        .min()
        .map(|(_, _, n)| n)
}

/// The error message Neo4j gives for a function it does not know.
pub fn unknown_function_message(name: &str) -> String {
    // Neo4j 5 names the replacement of the one function it renamed.
    if name.eq_ignore_ascii_case("distance") {
        return format!("'{name}' has been replaced by 'point.distance'");
    }
    format!("Unknown function '{name}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `../shared/data/neo4j-catalogue/FILE`, when the shared data is there.
    fn shared_catalogue(file: &str) -> Option<serde_json::Value> {
        let dir = std::env::var_os("GRAPE_SHARED")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
        let path = dir.join("data/neo4j-catalogue").join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("SKIPPED the catalogue check: {} not found", path.display());
            return None;
        };
        Some(serde_json::from_str(&text).unwrap())
    }

    #[test]
    fn lookup_is_case_insensitive_and_exact() {
        assert_eq!(function("tointeger").unwrap().name, "toInteger");
        assert_eq!(function("APOC.TEXT.JOIN").unwrap().name, "apoc.text.join");
        assert!(function("count").unwrap().aggregating);
        assert!(function("foo.bar").is_none());
        assert!(function("toInteg").is_none());
        assert!(function("").is_none());
        assert_eq!(suggest_function("distance"), Some("point.distance"));
        assert_eq!(suggest_function("collector"), Some("collect"));
        assert_eq!(suggest_function("toLowerCase"), Some("toLower"));
        assert_eq!(suggest_function("lengthOf"), Some("length"));
        assert_eq!(suggest_function("tolowr"), Some("toLower"));
        assert_eq!(suggest_function("foo.bar"), None);
        let names: Vec<String> = functions()
            .iter()
            .map(|f| f.name.to_ascii_lowercase())
            .collect();
        assert!(
            names.windows(2).all(|w| w[0] < w[1]),
            "sorted, no duplicates"
        );
    }

    /// The list is Neo4j's catalogue, name for name (when the shared data is there).
    #[test]
    fn the_list_is_neo4js_catalogue() {
        let Some(doc) = shared_catalogue("functions.json") else {
            return;
        };
        let mut seen = 0;
        for (version, fs) in doc.as_object().unwrap() {
            for f in fs.as_array().unwrap() {
                let name = f["name"].as_str().unwrap();
                let ours = function(name).unwrap_or_else(|| panic!("{name} is missing"));
                assert_eq!(
                    ours.aggregating,
                    f["aggregating"].as_bool().unwrap(),
                    "{name}"
                );
                assert_eq!(ours.built_in, f["isBuiltIn"].as_bool().unwrap(), "{name}");
                let v = if version == "CYPHER 5" {
                    ours.versions.cypher_5
                } else {
                    ours.versions.cypher_25
                };
                assert!(v, "{name} in {version}");
                seen += 1;
            }
        }
        assert!(seen > 700, "{seen}");
    }

    #[test]
    fn procedures_are_neo4js_catalogue() {
        assert_eq!(procedure("DB.LABELS").unwrap().name, "db.labels");
        assert_eq!(procedure("db.labels").unwrap().mode, Mode::Read);
        assert!(procedure("foo.bar").is_none());
        let names: Vec<String> = procedures()
            .iter()
            .map(|p| p.name.to_ascii_lowercase())
            .collect();
        assert!(
            names.windows(2).all(|w| w[0] < w[1]),
            "sorted, no duplicates"
        );
        let Some(doc) = shared_catalogue("procedures.json") else {
            return;
        };
        for (version, ps) in doc.as_object().unwrap() {
            for p in ps.as_array().unwrap() {
                let name = p["name"].as_str().unwrap();
                let ours = procedure(name).unwrap_or_else(|| panic!("{name} is missing"));
                if version == "CYPHER 5" {
                    assert_eq!(ours.mode.name(), p["mode"].as_str().unwrap(), "{name}");
                    assert!(ours.versions.cypher_5, "{name}");
                } else {
                    assert!(ours.versions.cypher_25, "{name}");
                }
            }
        }
    }
}
