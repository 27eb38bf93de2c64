//! The Cypher execution engine over the in-memory [`Graph`].
//!
//! ```
//! use grape::graph::Graph;
//! use grape::engine::run;
//!
//! let mut g = Graph::new();
//! run(&mut g, "CREATE (:Person {name: 'Ann'})-[:KNOWS]->(:Person {name: 'Bob'})", &Default::default()).unwrap();
//! let t = run(&mut g, "MATCH (a)-[:KNOWS]->(b) RETURN a.name AS a, b.name AS b", &Default::default()).unwrap();
//! assert_eq!(t.columns, ["a", "b"]);
//! assert_eq!(t.rows[0][1].as_str(), Some("Bob"));
//! ```
//!
//! Semantics follow Neo4j 5: three-valued logic, relationship uniqueness within a MATCH,
//! implicit grouping in WITH/RETURN, the ORDER BY order across types, errors typed as the
//! openCypher TCK names them. Each statement is atomic: when it fails, its writes are undone.
//! Points are `spatial`'s. `LOAD CSV` reads local files only (see
//! [`Options::import_dir`]).
//!
//! # Layout
//!
//! - `mod.rs`: the entry points (`execute`, `execute_read`, `explain`), the compile-time checks
//!   (`check`, `compile_errors`: the validator's schema-free verdict as engine errors), `Table`.
//! - `exec/`, the executor:
//!   - `mod.rs`: the statement's shared state and limits, clauses over materialised rows. A query
//!     runs on an input table — one empty row at the top, the importing row in `CALL`, the
//!     previous part's whole table after `NEXT` — and `run_composed` runs braces, `NEXT` chains
//!     and `WHEN` branches, each branch on the rows whose first true condition is its own.
//!   - `compile.rs` and `matching.rs`: patterns, compiled once by `compile.rs`.
//!     - The join order of comma-separated parts (`join_order`): each step the part whose start
//!       is cheapest given what the parts before it bind, from the graph's statistics; written
//!       order kept when a part is a shortest path or quantified.
//!     - WHERE conjuncts pushed down to elements. A node's predicates, when all compare a
//!       property with a literal or parameter, are compiled once into checks that read no
//!       expression — and, in a MATCH over many rows, equality checks become bitmap membership
//!       from the property index.
//!     - The anchor of each fixed-length chain, chosen once per pattern by `plan_anchor`: a bound
//!       node, else the cheapest of an index seek (exact hits for a constant value, label count
//!       over distinct values otherwise), a label scan or all nodes — then expansion.
//!     - Shortest paths and quantified patterns, whose start — a shortest path's first node,
//!       where its search begins, and a general chain's leading node — is planned the same way,
//!       once per pattern (`plan_start`), and shown by `EXPLAIN` under the path operator.
//!     - The `SEARCH` clause, over `vector.rs`'s `search`.
//!   - `predicates.rs`: pattern predicates — `exists()`, a pattern as a boolean, `EXISTS` /
//!     `COUNT` over a pattern, pattern comprehensions, `shortestPath` as a value — each a *site*
//!     found again by span and structure, compiled on its first row and reused while the
//!     variables in scope and the graph's `version` are the same: a write between rows compiles
//!     it again.
//!   - `project.rs`: WITH/RETURN, grouping, accumulators. A projection is prepared, fed rows and
//!     finished, so that a MATCH followed by an aggregating WITH or RETURN hands its rows
//!     straight to the groups (`exec_match_into`) and never holds them. Explicit `GROUP BY` keys
//!     group here too, the items computed from each group's first row.
//!   - `update.rs`: dynamic labels and types written per row.
//!   - `transactions.rs`: `CALL { … } IN TRANSACTIONS`: each batch a savepoint of the journal,
//!     kept or rolled back with its counts; `ON ERROR CONTINUE|BREAK|FAIL`, `RETRY … THEN …`,
//!     `REPORT STATUS`.
//!   - `call.rs`.
//!   - `show.rs`: `SHOW FUNCTIONS` / `PROCEDURES` / `INDEXES` / `CONSTRAINTS` / `DATABASES`: the
//!     catalogue, the graph's schema or the served databases as rows in Neo4j 5's columns, YIELD
//!     run as a WITH; `SHOW USERS` / `CURRENT USER` the DBMS's users from
//!     `DatabaseContext::users`; `SHOW SETTINGS` from `settings.rs`, `SHOW TRANSACTIONS` /
//!     `TERMINATE TRANSACTIONS` on the server's registry (`transactions.rs`,
//!     `DatabaseContext::transactions`), their names evaluated per incoming row.
//!   - `admin.rs`: `CREATE` / `ALTER` / `RENAME` / `DROP USER`, `ALTER CURRENT USER`: Neo4j
//!     community's user management on `engine::security::Users` — salted SHA-256 credentials in
//!     Neo4j's encrypted form, shared by the Bolt server's logins — with its refusals and
//!     `system-updates`; enterprise's commands refused as unsupported.
//!   - `schema.rs`: schema commands — `CREATE` / `DROP` `INDEX` / `CONSTRAINT` with Neo4j's
//!     conflicts, codes and messages, the names Neo4j gives unnamed rules (its XXH64 over the
//!     rule) — and `check_constraints`, which `execute` runs on the nodes and relationships a
//!     statement touched, from the journal, before the statement ends; the rows of
//!     `SHOW INDEXES` / `CONSTRAINTS`.
//!   - `load_csv.rs`: rows with their line number and the file's path, bound next to the row
//!     variable under hidden names that `file()` / `linenumber()` read and `*` leaves out.
//!   - `walk.rs`: expression walks.
//!   - `constituents.rs`: on a composite database, a query part that starts with `USE` runs on
//!     the constituent it names — per row for `graph.byName(expr)` — with a `Shared` of its own
//!     (`Shared::for_graph`), and the elements it returns become the statement's virtual
//!     elements.
//!   - `explain.rs`: a MATCH as plan operators, from the same compiled chains and anchors.
//!   - What a statement deleted (`exec::Deleted`): reading a deleted element's properties or
//!     labels later in the statement is Neo4j's `EntityNotFound`; a deleted relationship keeps
//!     its type.
//!   - Virtual nodes and relationships (`exec::Virtuals` in the statement's shared state, ids
//!     from `FOREIGN_ID_BASE` up), read by the runner's property, label, type and endpoint
//!     lookups and described in the result table by `Table::describe_virtuals`; made by
//!     `apoc.meta.graph` / `subGraph` in `procedures.rs` and `apoc.create.vNode` /
//!     `vRelationship` in `apoc/`.
//! - `planner.rs`: the statement's plan tree clause by clause; pattern predicates as `SemiApply` /
//!   `AntiSemiApply` (a WHERE conjunct that is a pattern alone), `RollUpApply` (comprehensions,
//!   `COLLECT`) and `Apply` (in expressions; over `Limit 1` or a count), each with the plan its
//!   pattern runs per row over an `Argument`. Under `PROFILE` the rows of each step of a chain
//!   (start and expansions, counted by the executor under the pattern part's address) and each
//!   clause's rows and db hits (units of work: candidates tried, relationships followed, rows
//!   made — the same counter the deadline checks) go on the operator that finishes it.
//! - `eval.rs`: expressions (and a point's components, from `spatial`).
//! - `compiled.rs`: expressions compiled against the layout of the rows a clause reads — its
//!   `scope`: each variable resolved once to a slot, frames out and column, as the search by name
//!   would find it; literals and parameters made constants; function names lower-cased — and
//!   evaluated with the evaluator's own operators. Projections (items, grouping keys, aggregate
//!   arguments, ORDER BY, WITH … WHERE), UNWIND, LET, FILTER, a MATCH's remaining WHERE and the
//!   property maps, inline WHERE and pushed-down filters of a fixed-length chain's elements
//!   (`ElementExprs`, compiled with the pattern, so a cached pattern predicate keeps them) use
//!   them, and a `CALL` subquery's imports are slots too; pattern predicates, subqueries,
//!   aggregates and map projections stay AST nodes that `eval.rs` runs in the same environment.
//! - `functions.rs`: the built-in functions; `is_implemented` says which the engine runs.
//! - `apoc/`: APOC core's functions, a file per family, with APOC's null rules and errors;
//!   `mod.rs` holds the shared argument helpers, the dispatch and its own list of what runs,
//!   which `functions::is_implemented` consults.
//!   - `coll.rs`, `map.rs`, `text.rs`, `convert.rs` with math, `graph.rs` for node, relationship
//!     and path helpers, `agg.rs` for the `apoc.agg.*` aggregations.
//!   - `extra.rs`: hexadecimal text, slugs and snake case, commons-text's Jaro–Winkler distance
//!     and APOC's Sørensen–Dice coefficient, named regex groups, Pareto scoring, base-64 UUIDs,
//!     URL parts, `apoc.temporal.formatDuration`, `apoc.meta.nodes.count`,
//!     `apoc.text.doubleMetaphone` (rphonetic, commons-codec's encoder), `apoc.map.updateTree`
//!     and `apoc.cypher.runFirstColumn*` (a read-only nested statement,
//!     `engine::run_nested_read`: the outer statement's limits, deadline, cancellation and clock,
//!     nesting bounded).
//!   - `write.rs`: APOC's graph-construction procedures (`apoc.merge.node` / `relationship`,
//!     `apoc.create.*`), run by `procedures::call_write` with the graph to change, through the
//!     executor's `set_property`, so stats, property-type rules and constraints are those of
//!     `SET`.
//!   - `date.rs`: APOC's date functions over epoch numbers and Java date patterns
//!     (`apoc.date.format` / `parse` / …, `apoc.temporal.format`), with the Java-pattern
//!     tokenizer, optional sections included, that `date_text.rs` shares, a pattern formatter and
//!     a translation to chrono's parser.
//!   - `date_text.rs`: `apoc.date.fields` / `convertFormat` / `toYears`,
//!     `apoc.temporal.toZonedTemporal`: java.time patterns with optional sections, Java's ISO and
//!     APOC's Elasticsearch-style format names.
//!   - `number.rs`: `apoc.number.exact.*` as Java's `BigDecimal` with a `MathContext`, on
//!     num-bigint, operands bounded before computing; `apoc.number.format` / `parse*` as Java's
//!     `DecimalFormat` with CLDR symbols per language.
//!   - `hashing.rs`: `apoc.hashing.fingerprint*` with APOC's digest layout.
//!   - `json_path.rs`: Jackson's lenient JSON and Jayway JsonPath with APOC's options, for
//!     `apoc.json.path`, `apoc.convert.getJsonProperty(Map)` and the paths of `fromJson*`.
//!   - `xml.rs`: `apoc.xml.parse` over roxmltree with an XPath location-path subset.
//!   - `hdr.rs`: HdrHistogram 2.1.9 reproduced — the 3-digit integer histogram, the 5-digit
//!     auto-ranging DoubleHistogram — for `apoc.agg.percentiles` / `statistics`.
//!   - `procs.rs`: APOC's reading procedures — the path expander of `apoc.path.*` with APOC's
//!     filters, sequences and uniqueness, `apoc.neighbors.*`, `apoc.nodes.get` / `rels` /
//!     `cycles` and the virtual graphs of `apoc.nodes.group` / `collapse` and `apoc.create.v*`,
//!     `apoc.cypher.run`, `apoc.meta.nodeTypeProperties` / `relTypeProperties`; `db.info`,
//!     `dbms.listConfig`.
//!   - `refactor.rs`: writing procedures with several columns: `apoc.refactor.*`,
//!     `apoc.nodes.delete` / `link`, `apoc.cypher.doIt` / `runWrite` and `apoc.periodic.iterate`
//!     / `commit` through `engine::run_nested_write`, a savepoint per batch.
//!   - `compress.rs`: `apoc.util.compress` / `decompress`: gzip, zlib, bzip2, raw LZ4, framed
//!     Snappy, Java charsets, APOC's 200× decompression guard.
//! - `procedures.rs`: the built-in procedures; `call_write` runs the writing ones — the vector
//!   setters — with the graph to change.
//! - `vector.rs`: vector similarity with Neo4j's scores; `db.index.vector.queryNodes` scores the
//!   quantized segments of `graph::vectors` as Neo4j 5.26 does, Cypher 25's `SEARCH` the unit
//!   vectors as Neo4j 2025+ does.
//! - `fulltext.rs`: `db.index.fulltext.queryNodes` / `queryRelationships` over a FULLTEXT index:
//!   the index built from the graph on its first search — the labelled nodes or typed
//!   relationships with a `STRING` or `LIST<STRING>` in one of its properties — and cached in the
//!   graph until the next change; options, Neo4j's errors.
//! - `temporal_values.rs`: temporal values built from function arguments, and their components;
//!   `temporal_checks.rs`: Neo4j's checks of those arguments (a map's fields, a text that is not
//!   a temporal) with its error codes and words.
//! - `graphs.rs`: the server's databases as a statement sees them — `DatabaseContext`, composite
//!   databases and their constituents' alias properties — `use_target`, the database a
//!   statement's `USE` clauses name, and `graph.names` / `graph.propertiesByName`; the `USE`
//!   clauses themselves are found by `analysis::graphs`, which the validator's `USE` checks share.
//! - `notifications.rs`: Neo4j's notifications of a statement — unknown labels, types and
//!   property keys, unsatisfiable type expressions, parameters not provided — from the
//!   validator's diagnostics against the graph's tokens, with their GQL statuses; the Bolt server
//!   sends them with every statement.
//! - `error.rs`: Neo4j status codes, and `ExecError::gql`: the GQL status and cause Neo4j 5.26
//!   gives an error.

mod apoc;
/// Base64 (standard alphabet `B64`), shared with the MCP server and client.
#[cfg(feature = "mcp")]
pub(crate) use apoc::{base64_decode, base64_encode, B64};
mod compiled;
mod error;
mod eval;
mod exec;
mod fulltext;
mod functions;
mod gds;
mod graphs;
mod notifications;
mod planner;
mod procedures;
pub mod security;
pub mod settings;
mod temporal_checks;
pub(crate) mod temporal_values;
pub mod transactions;
mod vector;

pub use error::{Detail, ErrorKind, ExecError, GqlStatus, Phase, Result};
pub(crate) use exec::neo4j_value_text;
/// Whether the engine runs the function `name` (dotted, any case): a function Neo4j knows that
/// grape does not run is refused at compile time as not supported.
pub use functions::is_implemented as function_is_implemented;
pub use graphs::{
    set_alias_properties, split_graph_name, use_target, Composite, CompositeSpecError, Constituent,
    ConstituentGraphs, DatabaseContext,
};
pub use notifications::{notifications, schema_notifications, Notification, Position};

use crate::graph::Graph;
use crate::syntax::{Clause, CypherVersion, Query, QueryPrefix, Statement};
use crate::value::{Entities, NodeId, RelId, Value};
use exec::{Access, Shared};
use serde::Serialize;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Parameters: `$name` → value.
pub type Params = BTreeMap<String, Value>;

/// Resource limits. Every exceeded limit is an [`ErrorKind::LimitExceeded`] error.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock limit for one statement.
    pub timeout: Option<Duration>,
    /// Most rows a result may have.
    pub max_rows: usize,
    /// Most rows any intermediate step may hold.
    pub max_intermediate_rows: usize,
    /// Deepest expansion of a variable-length relationship.
    pub max_var_length: u64,
    /// The memory budget of one statement, in bytes: what its materialised rows, aggregation
    /// state and the values its expressions build may hold at once (estimated; see
    /// [`crate::value::footprint`]). Exceeding it ends the statement with a
    /// [`ErrorKind::LimitExceeded`] error whose code is Neo4j's
    /// `Neo.TransientError.General.MemoryPoolOutOfMemoryError`, never the process.
    pub max_memory: Option<usize>,
}

/// The default memory budget of one statement: 1 GiB.
pub const DEFAULT_MAX_MEMORY: usize = 1 << 30;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Some(Duration::from_secs(30)),
            max_rows: 1_000_000,
            max_intermediate_rows: 5_000_000,
            max_var_length: 100,
            max_memory: Some(DEFAULT_MAX_MEMORY),
        }
    }
}

/// Execution options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub limits: Limits,
    /// Set it to `true` from another thread to stop the query with [`ErrorKind::Cancelled`].
    pub cancel: Option<Arc<AtomicBool>>,
    /// Procedures defined by a table, in addition to the built-in ones (the TCK declares its
    /// test procedures this way; tests of LLM tooling can mock procedures with them).
    pub procedures: Vec<TableProcedure>,
    /// Where `LOAD CSV FROM 'file:///x.csv'` looks (Neo4j's import directory). `None`: a
    /// `file:///` URL names an absolute path. Other URL schemes are refused: no network.
    pub import_dir: Option<std::path::PathBuf>,
    /// The Cypher version of statements without a `CYPHER n` prefix (default 5, as in Neo4j).
    pub cypher: crate::syntax::CypherVersion,
    /// The databases of the server the query runs on, and which one it runs on (`SHOW
    /// DATABASES`, `db.nameFromElementId`); `None`: one database, `neo4j`.
    pub databases: Option<Arc<DatabaseContext>>,
}

/// A procedure whose results are a fixed table: a call returns the output columns of the rows
/// whose input columns equal the arguments.
#[derive(Clone, Debug)]
pub struct TableProcedure {
    /// Dotted name, e.g. `test.my.proc`.
    pub name: String,
    /// Input parameter names, in order.
    pub inputs: Vec<String>,
    /// The inputs' types as Neo4j writes them (`INTEGER`, `STRING?`, `LIST<ANY>`), in order;
    /// a missing or unknown one accepts any value.
    pub input_types: Vec<String>,
    /// Output column names, in order; none for a `VOID` procedure, whose call leaves each row
    /// as it is.
    pub outputs: Vec<String>,
    /// Rows: inputs then outputs.
    pub rows: Vec<Vec<Value>>,
}

impl TableProcedure {
    /// The procedure's signature, for the compile-time checks of its calls.
    pub fn signature(&self) -> crate::catalogue::Signature {
        let param = |name: &String, ty: &str| crate::catalogue::Param {
            name: name.clone(),
            ty: ty.to_string(),
            default: None,
        };
        crate::catalogue::Signature {
            name: self.name.clone(),
            params: self
                .inputs
                .iter()
                .enumerate()
                .map(|(i, n)| param(n, self.input_types.get(i).map_or("ANY", |t| t.as_str())))
                .collect(),
            result: String::new(),
            outputs: self.outputs.iter().map(|n| param(n, "ANY")).collect(),
        }
    }
}

/// Update counters, as Neo4j reports them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub nodes_created: u64,
    pub nodes_deleted: u64,
    pub relationships_created: u64,
    pub relationships_deleted: u64,
    pub properties_set: u64,
    pub labels_added: u64,
    pub labels_removed: u64,
    pub indexes_added: u64,
    pub indexes_removed: u64,
    pub constraints_added: u64,
    pub constraints_removed: u64,
    /// Changes to the system database (users): Neo4j's `system-updates`.
    pub system_updates: u64,
}

impl Stats {
    /// Adds the counts of `other` (a statement run inside this one).
    pub fn add(&mut self, other: &Stats) {
        self.nodes_created += other.nodes_created;
        self.nodes_deleted += other.nodes_deleted;
        self.relationships_created += other.relationships_created;
        self.relationships_deleted += other.relationships_deleted;
        self.properties_set += other.properties_set;
        self.labels_added += other.labels_added;
        self.labels_removed += other.labels_removed;
        self.indexes_added += other.indexes_added;
        self.indexes_removed += other.indexes_removed;
        self.constraints_added += other.constraints_added;
        self.constraints_removed += other.constraints_removed;
        self.system_updates += other.system_updates;
    }

    /// Whether the statement changed anything.
    /// Whether the statement changed a database's graph (system updates aside).
    pub fn contains_updates(&self) -> bool {
        Stats {
            system_updates: 0,
            ..self.clone()
        } != Stats::default()
    }
}

/// A node as a result saw it: labels and properties.
pub type NodeSnapshot = (Vec<Arc<str>>, BTreeMap<Arc<str>, Value>);
/// A relationship as a result saw it: type, start, end and properties.
pub type RelSnapshot = (Arc<str>, NodeId, NodeId, BTreeMap<Arc<str>, Value>);

/// A query result: named columns and rows, with a snapshot of the nodes and relationships the
/// rows mention (so that the table outlives later changes to the graph).
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
    pub stats: Stats,
    /// The plan, for a statement prefixed with `EXPLAIN` (which runs nothing and returns no
    /// rows) or `PROFILE` (which runs and counts rows and db hits per clause).
    pub plan: Option<crate::plan::Plan>,
    nodes: HashMap<NodeId, NodeSnapshot>,
    rels: HashMap<RelId, RelSnapshot>,
    /// The database the rows come from (`None`: `neo4j`), for element ids.
    database: Option<Arc<str>>,
    /// Elements a composite's statement brought back from its constituents: their own
    /// database and id, for their element ids.
    origins: HashMap<(bool, u32), (Arc<str>, u32)>,
    /// The statement converted a list or a path to a boolean as it ran (Neo4j's deprecation).
    converted_to_boolean: bool,
}

impl Table {
    /// What Neo4j notes about the statement as it ran (after the notifications of
    /// [`notifications`], which come from its text): the deprecated conversion of a list or a
    /// path to a boolean (`01N02`).
    pub fn runtime_notifications(&self) -> Vec<Notification> {
        let mut out = Vec::new();
        if self.converted_to_boolean {
            out.push(notifications::list_to_boolean());
        }
        out
    }

    fn snapshot(columns: Vec<String>, rows: Vec<Vec<Value>>, stats: Stats, g: &Graph) -> Table {
        let mut t = Table {
            columns,
            rows,
            stats,
            plan: None,
            nodes: HashMap::new(),
            rels: HashMap::new(),
            database: None,
            origins: HashMap::new(),
            converted_to_boolean: false,
        };
        let mut nodes = Vec::new();
        let mut rels = Vec::new();
        for r in &t.rows {
            for v in r {
                collect_entities(v, &mut nodes, &mut rels);
            }
        }
        for r in rels {
            if let (Some(ty), Some((a, b))) = (g.rel_type(r), g.endpoints(r)) {
                t.rels.insert(r, (ty, a, b, g.relationship_properties(r)));
                nodes.push(a);
                nodes.push(b);
            }
        }
        for n in nodes {
            if g.contains_node(n) {
                t.nodes.insert(n, (g.labels(n), g.node_properties(n)));
            }
        }
        t
    }

    /// Describes the virtual nodes and relationships the rows mention (and the endpoints of
    /// those relationships).
    fn describe_virtuals(&mut self, v: &exec::Virtuals) {
        if v.nodes.is_empty() && v.rels.is_empty() {
            return;
        }
        let (mut nodes, mut rels) = (Vec::new(), Vec::new());
        for r in &self.rows {
            for x in r {
                collect_entities(x, &mut nodes, &mut rels);
            }
        }
        for r in rels {
            if let Some((ty, a, b, props)) = v.rel(r) {
                self.rels.insert(r, (ty.clone(), *a, *b, props.clone()));
                nodes.push(*a);
                nodes.push(*b);
            }
        }
        for n in nodes {
            if let Some((labels, props)) = v.node(n) {
                self.nodes.insert(n, (labels.clone(), props.clone()));
            }
        }
        self.origins
            .extend(v.origins.iter().map(|(k, o)| (*k, o.clone())));
    }

    /// A table whose nodes and relationships come from elsewhere (another database's
    /// result): `nodes` gives each node id's labels and properties, `rels` each relationship
    /// id's type, endpoints and properties. Every id the rows mention should be described.
    pub fn from_parts(
        columns: Vec<String>,
        rows: Vec<Vec<Value>>,
        stats: Stats,
        nodes: impl IntoIterator<Item = (NodeId, NodeSnapshot)>,
        rels: impl IntoIterator<Item = (RelId, RelSnapshot)>,
    ) -> Table {
        Table {
            columns,
            rows,
            stats,
            plan: None,
            nodes: nodes.into_iter().collect(),
            rels: rels.into_iter().collect(),
            database: None,
            origins: HashMap::new(),
            converted_to_boolean: false,
        }
    }

    /// Each row as a map from column name to value (what APOC's statement-running procedures
    /// yield).
    pub fn row_maps(&self) -> Vec<Value> {
        self.rows
            .iter()
            .map(|r| {
                Value::Map(
                    self.columns
                        .iter()
                        .map(|c| Arc::from(c.as_str()))
                        .zip(r.iter().cloned())
                        .collect(),
                )
            })
            .collect()
    }

    /// The first cell of the first row when it is an integer (a `count(*)` result).
    pub fn first_int(&self) -> Option<i64> {
        match self.rows.first().and_then(|r| r.first()) {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }
    }

    /// The nodes the rows mention (directly, in paths, lists and maps, or as the ends of a
    /// relationship), with their labels and properties as the result saw them.
    pub fn nodes(&self) -> impl Iterator<Item = (NodeId, &NodeSnapshot)> {
        self.nodes.iter().map(|(k, v)| (*k, v))
    }

    /// The relationships the rows mention, with type, endpoints and properties.
    pub fn relationships(&self) -> impl Iterator<Item = (RelId, &RelSnapshot)> {
        self.rels.iter().map(|(k, v)| (*k, v))
    }

    /// The result as JSON: `{"columns", "rows", "stats"}` with values in grape's JSON encoding
    /// (see [`crate::graph::import::value_to_json`]).
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "columns": self.columns,
            "rows": self.rows_json(),
            "stats": self.stats,
        });
        if let (Some(plan), Some(obj)) = (&self.plan, v.as_object_mut()) {
            obj.insert(
                "plan".into(),
                serde_json::to_value(plan).unwrap_or_default(),
            );
        }
        v
    }

    /// Writes the rows as the JSON array [`Table::rows_json`] gives, one row at a time (a large
    /// result is never held as one JSON tree).
    pub fn write_rows_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        out.write_all(b"[")?;
        for (i, r) in self.rows.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            let row = serde_json::Value::Array(
                r.iter()
                    .map(|v| crate::graph::import::value_to_json(v, self))
                    .collect(),
            );
            serde_json::to_writer(&mut *out, &row)?;
        }
        out.write_all(b"]")
    }

    /// The rows in grape's JSON value encoding.
    pub fn rows_json(&self) -> Vec<serde_json::Value> {
        self.rows
            .iter()
            .map(|r| {
                serde_json::Value::Array(
                    r.iter()
                        .map(|v| crate::graph::import::value_to_json(v, self))
                        .collect(),
                )
            })
            .collect()
    }
}

fn collect_entities(v: &Value, nodes: &mut Vec<NodeId>, rels: &mut Vec<RelId>) {
    match v {
        Value::Node(n) => nodes.push(*n),
        Value::Relationship(r) => rels.push(*r),
        Value::Path(p) => {
            nodes.extend(p.nodes.iter().copied());
            rels.extend(p.rels.iter().copied());
        }
        Value::List(items) => items.iter().for_each(|x| collect_entities(x, nodes, rels)),
        Value::Map(m) => m.values().for_each(|x| collect_entities(x, nodes, rels)),
        _ => {}
    }
}

impl Entities for Table {
    fn element_id(&self, node: bool, id: u32) -> String {
        match self.origins.get(&(node, id)) {
            Some((db, own)) => crate::value::element_id(node, db, *own),
            None => crate::value::element_id(node, self.database.as_deref().unwrap_or("neo4j"), id),
        }
    }
    fn node_labels(&self, n: NodeId) -> Vec<Arc<str>> {
        self.nodes.get(&n).map(|e| e.0.clone()).unwrap_or_default()
    }
    fn node_props(&self, n: NodeId) -> BTreeMap<Arc<str>, Value> {
        self.nodes.get(&n).map(|e| e.1.clone()).unwrap_or_default()
    }
    fn rel_type(&self, r: RelId) -> Option<Arc<str>> {
        self.rels.get(&r).map(|e| e.0.clone())
    }
    fn rel_endpoints(&self, r: RelId) -> Option<(NodeId, NodeId)> {
        self.rels.get(&r).map(|e| (e.1, e.2))
    }
    fn rel_props(&self, r: RelId) -> BTreeMap<Arc<str>, Value> {
        self.rels.get(&r).map(|e| e.3.clone()).unwrap_or_default()
    }
}

/// Whether a statement may change the graph (so that it needs write access and a savepoint).
pub fn is_updating(stmt: &Statement) -> bool {
    query_updates(&stmt.query)
}

fn query_updates(query: &Query) -> bool {
    query.parts().any(|s| s.clauses.iter().any(clause_updates))
}

/// Whether a clause writes (its subqueries included).
pub(crate) fn clause_updates(c: &Clause) -> bool {
    {
        match c {
            Clause::Create(_)
            | Clause::Merge(_)
            | Clause::Set(_)
            | Clause::Remove(_)
            | Clause::Delete(_)
            | Clause::Foreach(_)
            | Clause::Schema(_)
            | Clause::LoadCsv(_) => true,
            Clause::CallProcedure(c) => procedures::writes(&c.name.dotted()),
            Clause::CallSubquery(_) | Clause::Braced(_) | Clause::Next(_) | Clause::When(_) => {
                c.subqueries().into_iter().any(query_updates)
            }
            _ => false,
        }
    }
}

/// Whether a statement reads files with `LOAD CSV` (anywhere, subqueries included): read-only
/// surfaces refuse it unless told otherwise.
pub fn uses_load_csv(stmt: &Statement) -> bool {
    fn q(query: &Query) -> bool {
        std::iter::once(&query.first)
            .chain(query.unions.iter().map(|u| &u.query))
            .any(|s| s.clauses.iter().any(clause))
    }
    fn clause(c: &Clause) -> bool {
        match c {
            Clause::LoadCsv(_) => true,
            Clause::CallSubquery(_) | Clause::Braced(_) | Clause::Next(_) | Clause::When(_) => {
                c.subqueries().into_iter().any(q)
            }
            Clause::Foreach(f) => f.clauses.iter().any(clause),
            _ => false,
        }
    }
    q(&stmt.query)
}

/// Parses and runs one statement.
pub fn run(graph: &mut Graph, query: &str, params: &Params) -> Result<Table> {
    run_with(graph, query, params, &Options::default())
}

/// Parses and runs one statement with options.
pub fn run_with(graph: &mut Graph, query: &str, params: &Params, opts: &Options) -> Result<Table> {
    let stmt = crate::syntax::parse(query).map_err(|e| ExecError::syntax(&e, query))?;
    execute(graph, &stmt, query, params, opts)
}

/// Runs a read-only statement on a shared graph (updating clauses fail).
pub fn run_read(graph: &Graph, query: &str, params: &Params, opts: &Options) -> Result<Table> {
    let stmt = crate::syntax::parse(query).map_err(|e| ExecError::syntax(&e, query))?;
    execute_read(graph, &stmt, query, params, opts)
}

/// How deep statements run by statements (`apoc.cypher.runFirstColumn*`) may nest.
const MAX_NESTED_STATEMENTS: u32 = 8;

thread_local! {
    static NESTED_STATEMENTS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs `query` read-only on the graph of the statement `run` belongs to (APOC's
/// `apoc.cypher.runFirstColumn*`): checked as any statement is, under the outer statement's
/// limits, deadline, cancellation and clock; statements run this way nest at most
/// [`MAX_NESTED_STATEMENTS`] deep.
pub(crate) fn run_nested_read(run: &exec::Runner, query: &str, params: &Params) -> Result<Table> {
    let _level = NestedLevel::enter()?;
    // Its notes are its own (Neo4j does not pass them to the statement that ran it).
    let _watch = eval::ConversionWatch::start();
    let outer = run.sh;
    let (stmt, opts) = nested_statement(outer, query)?;
    let sh = nested_shared(outer, &stmt, params, query, &opts);
    let graph = run.graph();
    let mut access = Access::Read(graph);
    let out = exec::run_query(&mut access, &sh, &stmt.query, None)?;
    finish(out, &sh, graph)
}

/// One more level of statements run by statements, while it lives (bounded by
/// [`MAX_NESTED_STATEMENTS`]).
struct NestedLevel(u32);

impl NestedLevel {
    fn enter() -> Result<NestedLevel> {
        let depth = NESTED_STATEMENTS.with(|d| d.get());
        if depth >= MAX_NESTED_STATEMENTS {
            return Err(ExecError::runtime(
                ErrorKind::LimitExceeded,
                format!(
                    "statements run by statements nest deeper than {MAX_NESTED_STATEMENTS} levels"
                ),
            ));
        }
        NESTED_STATEMENTS.with(|d| d.set(depth + 1));
        Ok(NestedLevel(depth))
    }
}

impl Drop for NestedLevel {
    fn drop(&mut self) {
        NESTED_STATEMENTS.with(|d| d.set(self.0));
    }
}

/// A nested statement, parsed and checked as any statement is, with the options of the
/// statement that runs it.
fn nested_statement(outer: &Shared, query: &str) -> Result<(Statement, Options)> {
    let stmt = crate::syntax::parse(query).map_err(|e| ExecError::syntax(&e, query))?;
    let opts = Options {
        limits: outer.limits.clone(),
        cancel: None,
        procedures: outer.procedures.to_vec(),
        import_dir: outer.import_dir.map(|p| p.to_path_buf()),
        cypher: if outer.cypher25 {
            CypherVersion::Cypher25
        } else {
            CypherVersion::Cypher5
        },
        databases: None,
    };
    static_check(&stmt, query, &opts)?;
    procedures::check_calls(&stmt.query, &opts.procedures)?;
    Ok((stmt, opts))
}

/// The shared state of a nested statement: the outer statement's deadline, cancellation,
/// clock and databases.
fn nested_shared<'a>(
    outer: &'a Shared,
    stmt: &Statement,
    params: &'a Params,
    query: &'a str,
    opts: &'a Options,
) -> Shared<'a> {
    let mut sh = shared_for(stmt, params, query, opts);
    sh.deadline = outer.deadline;
    sh.cancel = outer.cancel;
    sh.now = outer.now;
    sh.databases = outer.databases;
    sh
}

/// Runs `query` on `g`, writes allowed, as part of the statement whose shared state is `outer`
/// (`apoc.cypher.doIt`, `apoc.periodic.iterate`): checked as any statement is, under the outer
/// statement's limits, deadline, cancellation and clock; its counts add to the outer
/// statement's. Nesting is bounded as for [`run_nested_read`]. Undoing its writes on failure is
/// the caller's (a savepoint), or the outer statement's.
pub(crate) fn run_nested_write(
    g: &mut Graph,
    outer: &Shared,
    query: &str,
    params: &Params,
) -> Result<Table> {
    let _level = NestedLevel::enter()?;
    let _watch = eval::ConversionWatch::start();
    let (stmt, opts) = nested_statement(outer, query)?;
    let sh = nested_shared(outer, &stmt, params, query, &opts);
    let out = {
        let mut access = Access::Write(g);
        exec::run_query(&mut access, &sh, &stmt.query, None)?
    };
    outer.ticks.set(outer.ticks.get() + sh.ticks.get());
    let table = finish(out, &sh, g)?;
    outer.stats.borrow_mut().add(&table.stats);
    Ok(table)
}

/// The shared state of running `stmt` (whose `CYPHER n` prefix decides its version).
fn shared_for<'a>(
    stmt: &Statement,
    params: &'a Params,
    src: &'a str,
    opts: &'a Options,
) -> Shared<'a> {
    let mut sh = shared(params, src, opts);
    sh.cypher25 = stmt.cypher_version(opts.cypher).ok() == Some(CypherVersion::Cypher25);
    sh
}

fn shared<'a>(params: &'a Params, src: &'a str, opts: &'a Options) -> Shared<'a> {
    Shared {
        params,
        src,
        limits: &opts.limits,
        deadline: opts.limits.timeout.map(|t| Instant::now() + t),
        cancel: opts.cancel.as_deref(),
        procedures: &opts.procedures,
        import_dir: opts.import_dir.as_deref(),
        databases: opts.databases.as_deref(),
        regex_cache: RefCell::new(HashMap::new()),
        stats: RefCell::new(Stats::default()),
        cypher25: opts.cypher == CypherVersion::Cypher25,
        now: crate::temporal::now_utc(),
        ticks: std::cell::Cell::new(0),
        last_key: std::cell::Cell::new((0, 0, 0, 0)),
        profile: None,
        profiled_hits: std::cell::Cell::new(0),
        profile_steps: RefCell::new(HashMap::new()),
        mem: std::cell::Cell::new(0),
        sites: RefCell::default(),
        virtuals: RefCell::default(),
        deleted: RefCell::default(),
        lookups: RefCell::default(),
        match_orders: RefCell::default(),
        live_sets: RefCell::default(),
        rel_stats: RefCell::default(),
        sorted_early: RefCell::default(),
    }
}

fn finish(out: exec::Output, sh: &Shared, g: &Graph) -> Result<Table> {
    if out.rows.len() > sh.limits.max_rows {
        return Err(ExecError::runtime(
            ErrorKind::LimitExceeded,
            format!(
                "more than {} result rows (raise Limits::max_rows)",
                sh.limits.max_rows
            ),
        )
        .with_detail(Detail::ResultRows));
    }
    let columns = out.columns.iter().map(|c| c.to_string()).collect();
    let mut t = Table::snapshot(columns, out.rows, sh.stats.borrow().clone(), g);
    t.database = sh.databases.map(|d| Arc::from(d.current.as_str()));
    t.describe_virtuals(&sh.virtuals.borrow());
    Ok(t)
}

/// The compile-time checks Neo4j makes before running anything: undefined variables, variables
/// rebound as another kind, re-declared variables, misplaced or nested aggregation, `*` with
/// nothing in scope, out-of-range literals. They come from the schema-free part of
/// [`crate::analysis::validate()`], so the engine and the validator agree.
/// The checks a statement passes before it runs (what `EXPLAIN` reports): undefined
/// variables, misplaced aggregation and the like, without touching a graph.
pub fn check(stmt: &Statement, src: &str) -> Result<()> {
    static_check(stmt, src, &Options::default())
}

fn static_check(stmt: &Statement, src: &str, opts: &Options) -> Result<()> {
    static_check_with(stmt, src, &Params::new(), opts)
}

/// [`static_check`] with the parameters the statement runs with: Neo4j types each from its
/// value before compiling (`toUpper($x)` with `x = 1` is a `Type mismatch for parameter 'x'`).
fn static_check_with(stmt: &Statement, src: &str, params: &Params, opts: &Options) -> Result<()> {
    let composite = opts
        .databases
        .as_deref()
        .is_some_and(|d| d.current_composite().is_some() || d.routed_from.is_some());
    let types = crate::analysis::ParameterType::of_all(params);
    match compile_errors_with(stmt, src, opts.cypher, &opts.procedures, composite, types)
        .into_iter()
        .next()
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The compile-time checks, then the check that the statement's `USE` clauses name the graph
/// it is given (see [`use_target`]).
fn checks_before_running(
    stmt: &Statement,
    src: &str,
    params: &Params,
    opts: &Options,
) -> Result<()> {
    if stmt.prefix == Some(QueryPrefix::Conflicting) {
        return Err(ExecError::compile(
            ErrorKind::ArgumentError,
            "Can't specify multiple conflicting values for execution mode",
        ));
    }
    static_check_with(stmt, src, params, opts)?;
    procedures::check_calls(&stmt.query, &opts.procedures)?;
    match opts.databases.as_deref() {
        Some(ctx) => graphs::check_target(stmt, params, ctx),
        None => graphs::check_target(stmt, params, &DatabaseContext::single()),
    }
}

/// Every compile-time error of a statement, in the order of the text (the first is what
/// [`check`] and running the statement report). `cypher`: the version of a statement without
/// a `CYPHER n` prefix.
pub fn compile_errors(
    stmt: &Statement,
    src: &str,
    cypher: crate::syntax::CypherVersion,
) -> Vec<ExecError> {
    compile_errors_with(stmt, src, cypher, &[], false, Default::default())
}

/// [`compile_errors`] with the table procedures `extra` known too.
fn compile_errors_with(
    stmt: &Statement,
    src: &str,
    cypher: crate::syntax::CypherVersion,
    extra: &[TableProcedure],
    composite: bool,
    parameter_types: BTreeMap<String, crate::analysis::ParameterType>,
) -> Vec<ExecError> {
    use crate::analysis::DiagnosticKind as K;
    let schema = crate::schema::Schema::default();
    let options = crate::analysis::ValidateOptions {
        executable: Some(functions::is_implemented),
        cypher,
        procedures: extra.iter().map(TableProcedure::signature).collect(),
        composite,
        parameter_types,
        ..Default::default()
    };
    let v =
        crate::analysis::Validator::with_options(&schema, options).validate_statement(stmt, src);
    let mut out = Vec::new();
    for d in v.diagnostics {
        if d.kind == K::UnknownProcedure {
            let e = ExecError::compile(ErrorKind::ProcedureError, d.message)
                .with_detail(Detail::ProcedureNotFound)
                .at(d.span);
            out.push(match &d.facts {
                Some(facts) => e.with_facts(facts, None),
                None => e,
            });
            continue;
        }
        if d.kind == K::UnsupportedFunction {
            out.push(
                ExecError::compile(ErrorKind::Unsupported, d.message)
                    .with_detail(Detail::UnsupportedFunction)
                    .at(d.span),
            );
            continue;
        }
        let detail = match d.kind {
            K::UnknownFunction => Detail::UnknownFunction,
            K::WrongArity => Detail::InvalidNumberOfArguments,
            K::UnknownProcedureOutput => Detail::UnknownProcedureOutput,
            K::UndefinedVariable => Detail::UndefinedVariable,
            K::VariableTypeConflict => Detail::VariableTypeConflict,
            K::VariableAlreadyBound => Detail::VariableAlreadyBound,
            K::RelationshipUniquenessViolation => Detail::RelationshipUniquenessViolation,
            K::NestedAggregation => Detail::NestedAggregation,
            K::AggregationInWhere | K::InvalidAggregation => Detail::InvalidAggregation,
            K::ReturnStarWithoutVariables => Detail::NoVariablesInScope,
            K::InvalidArgumentType => Detail::InvalidArgumentType,
            K::CypherVersion => Detail::CypherVersion,
            K::InvalidDynamicLabel => Detail::InvalidDynamicLabel,
            K::DifferentColumns => Detail::DifferentColumnsInUnion,
            K::InvalidClauseComposition | K::MissingYield | K::MissingReturn => {
                Detail::InvalidClauseComposition
            }
            K::InvalidSchemaCommand => Detail::InvalidSchemaCommand,
            K::PatternIntroducesVariable => Detail::UndefinedVariable,
            K::UpdateInSubquery => Detail::InvalidClauseComposition,
            K::MissingAlias => Detail::NoExpressionAlias,
            K::ParameterMapInPattern => Detail::InvalidParameterUse,
            K::RelationshipTypeCount => Detail::NoSingleRelationshipType,
            K::InvalidDelete => Detail::InvalidDelete,
            K::CreatingVarLength => Detail::CreatingVarLength,
            K::MissingPredicate => Detail::MissingPredicate,
            K::QueryConclusion => Detail::InvalidClauseComposition,
            K::NonConstantExpression => Detail::NonConstantExpression,
            // The TCK's name for it (Neo4j's parser reports it as a syntax error).
            K::PatternExpressionAsValue => Detail::UnexpectedSyntax,
            K::AmbiguousAggregation => Detail::AmbiguousAggregationExpression,
            // The TCK's names: results named implicitly are undefined variables.
            K::ImplicitProcedureResults => Detail::UndefinedVariable,
            K::InvalidGraphReference => Detail::InvalidGraphReference,
            K::InvalidSearch => Detail::InvalidSearch,
            K::InvalidGroupBy => Detail::InvalidGroupBy,
            K::ColonDisjunction => Detail::InvalidRelationshipPattern,
            _ => continue,
        };
        let mut e = ExecError::compile(ErrorKind::SyntaxError, d.message)
            .with_detail(detail)
            .at(d.span);
        match (&d.subject, d.kind, &d.facts) {
            (_, K::MissingYield, _) => e = e.with_gql(GqlStatus::missing_clause("22N93", "YIELD")),
            (_, K::MissingReturn, _) => {
                e = e.with_gql(GqlStatus::missing_clause("22N92", "RETURN"))
            }
            (Some(text), K::WrongArity, _) => e = e.wrong_arity(text),
            (subject, _, Some(facts)) => e = e.with_facts(facts, subject.as_deref()),
            (_, _, None) => {}
        }
        out.push(e);
    }
    // Neo4j resolves functions after its other semantic checks: an unknown function is
    // reported only when nothing else is wrong (a renamed one, `distance`, is not).
    out.sort_by_key(|e| {
        e.detail == Some(Detail::UnknownFunction) && !e.message.contains("has been replaced")
    });
    out
}

/// Runs a parsed statement; `src` is its text (column names are taken from it). Under
/// `EXPLAIN` nothing runs: the table has the columns and the plan, no rows. Under `PROFILE`
/// it runs and the table carries the plan with rows and db hits per clause.
pub fn execute(
    graph: &mut Graph,
    stmt: &Statement,
    src: &str,
    params: &Params,
    opts: &Options,
) -> Result<Table> {
    crate::stack::statement(|| execute_here(graph, stmt, src, params, opts))
}

fn execute_here(
    graph: &mut Graph,
    stmt: &Statement,
    src: &str,
    params: &Params,
    opts: &Options,
) -> Result<Table> {
    if !is_updating(stmt) || stmt.prefix == Some(QueryPrefix::Explain) {
        return execute_read_here(graph, stmt, src, params, opts);
    }
    checks_before_running(stmt, src, params, opts)?;
    let mut sh = shared_for(stmt, params, src, opts);
    if stmt.prefix == Some(QueryPrefix::Profile) {
        sh.profile = Some(RefCell::default());
    }
    let planned = plan_for_profile(graph, &sh, stmt)?;
    let watch = eval::ConversionWatch::start();
    // The statement's changes are journaled, not copied: on failure they are undone.
    let sp = graph.savepoint();
    let result = {
        let mut access = Access::Write(graph);
        exec::run_query(&mut access, &sh, &stmt.query, None)
    }
    .and_then(|out| {
        // The statement commits: what it wrote must satisfy the constraints.
        if !graph.schema().constraints().is_empty() {
            let (nodes, rels) = graph.touched_since(&sp);
            exec::check_constraints(graph, &nodes, &rels)?;
        }
        Ok(out)
    })
    .and_then(|out| finish(out, &sh, graph))
    .map(|t| with_profile(t, planned, &sh))
    .map(|mut t| {
        t.converted_to_boolean = watch.converted();
        t
    });
    if result.is_err() {
        graph.rollback_to(&sp);
    }
    graph.release(sp);
    result
}

/// Runs a parsed read-only statement (`EXPLAIN` and `PROFILE` as in [`execute`]).
pub fn execute_read(
    graph: &Graph,
    stmt: &Statement,
    src: &str,
    params: &Params,
    opts: &Options,
) -> Result<Table> {
    crate::stack::statement(|| execute_read_here(graph, stmt, src, params, opts))
}

fn execute_read_here(
    graph: &Graph,
    stmt: &Statement,
    src: &str,
    params: &Params,
    opts: &Options,
) -> Result<Table> {
    checks_before_running(stmt, src, params, opts)?;
    let mut sh = shared_for(stmt, params, src, opts);
    if stmt.prefix == Some(QueryPrefix::Explain) {
        let run = exec::Runner::new(graph, &sh);
        let (plan, columns) = planner::plan_query(&run, &stmt.query)?;
        return Ok(Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            plan: Some(plan),
            ..Table::default()
        });
    }
    if stmt.prefix == Some(QueryPrefix::Profile) {
        sh.profile = Some(RefCell::default());
    }
    let planned = plan_for_profile(graph, &sh, stmt)?;
    let watch = eval::ConversionWatch::start();
    let mut access = Access::Read(graph);
    let out = exec::run_query(&mut access, &sh, &stmt.query, None)?;
    let table = finish(out, &sh, graph)?;
    let mut table = with_profile(table, planned, &sh);
    table.converted_to_boolean = watch.converted();
    Ok(table)
}

/// The plan of a statement as `EXPLAIN` gives it, after the same compile-time checks as
/// [`execute`]; nothing runs. The prefix of `stmt`, if any, does not matter.
///
/// ```
/// let g = grape::graph::Graph::from_cypher_script(
///     "CREATE (:Person {name: 'x'})-[:KNOWS]->(:Person {name: 'y'});
///      CREATE INDEX person_name FOR (p:Person) ON (p.name)",
/// ).unwrap();
/// // Through the declared index; without it, a label scan and a filter (as in Neo4j).
/// let q = "MATCH (p:Person {name: 'x'})-[:KNOWS]->(f) RETURN f";
/// let stmt = grape::syntax::parse(q).unwrap();
/// let opts = grape::engine::Options::default();
/// let plan = grape::engine::explain(&g, &stmt, q, &Default::default(), &opts).unwrap();
/// assert_eq!(plan.operator, "ProduceResults");
/// assert!(plan.contains("NodeIndexSeek"));
/// ```
pub fn explain(
    graph: &Graph,
    stmt: &Statement,
    src: &str,
    params: &Params,
    opts: &Options,
) -> Result<crate::plan::Plan> {
    crate::stack::statement(|| explain_here(graph, stmt, src, params, opts))
}

fn explain_here(
    graph: &Graph,
    stmt: &Statement,
    src: &str,
    params: &Params,
    opts: &Options,
) -> Result<crate::plan::Plan> {
    static_check_with(stmt, src, params, opts)?;
    procedures::check_calls(&stmt.query, &opts.procedures)?;
    let sh = shared_for(stmt, params, src, opts);
    let run = exec::Runner::new(graph, &sh);
    Ok(planner::plan_query(&run, &stmt.query)?.0)
}

/// Under `PROFILE` (`sh.profile` set), the statement's plan, made before it runs as Neo4j
/// makes it: its estimates are the graph's before the statement's writes.
fn plan_for_profile(
    graph: &Graph,
    sh: &Shared,
    stmt: &Statement,
) -> Result<Option<crate::plan::Plan>> {
    if sh.profile.is_none() {
        return Ok(None);
    }
    let run = exec::Runner::new(graph, sh);
    Ok(Some(planner::plan_query(&run, &stmt.query)?.0))
}

/// Under `PROFILE`, the table with the plan made before the run, each operator's rows and
/// db hits read from the counters the run kept.
fn with_profile(mut table: Table, planned: Option<crate::plan::Plan>, sh: &Shared) -> Table {
    if let Some(mut plan) = planned {
        plan.measure(&|p| sh.measured(p));
        // `ProduceResults` (and the `EmptyResult` under it, for a statement that returns
        // nothing) passed on the rows the statement returned.
        let returned = table.rows.len() as u64;
        plan.rows = Some(returned);
        plan.db_hits = Some(0);
        if let Some(empty) = plan
            .children
            .first_mut()
            .filter(|c| c.operator == "EmptyResult" && c.rows.is_none())
        {
            empty.rows = Some(returned);
            empty.db_hits = Some(0);
        }
        table.plan = Some(plan);
    }
    table
}

/// Runs every statement of a script (e.g. a file of CREATE statements) and adds up the
/// counters. Stops at the first failing statement, naming it.
pub fn run_script(graph: &mut Graph, script: &str) -> Result<Stats> {
    let parsed = crate::syntax::parse_script(script)?;
    let mut total = Stats::default();
    for (i, stmt) in parsed.statements.iter().enumerate() {
        let t = execute(graph, stmt, script, &Params::new(), &Options::default()).map_err(
            |mut e| {
                e.message = format!("statement {}: {}", i + 1, e.message);
                e
            },
        )?;
        let s = t.stats;
        total.nodes_created += s.nodes_created;
        total.nodes_deleted += s.nodes_deleted;
        total.relationships_created += s.relationships_created;
        total.relationships_deleted += s.relationships_deleted;
        total.properties_set += s.properties_set;
        total.labels_added += s.labels_added;
        total.labels_removed += s.labels_removed;
        total.indexes_added += s.indexes_added;
        total.indexes_removed += s.indexes_removed;
        total.constraints_added += s.constraints_added;
        total.constraints_removed += s.constraints_removed;
    }
    Ok(total)
}

impl Graph {
    /// Runs a statement on this graph: `graph.run("MATCH (n) RETURN count(n)", &params)`.
    pub fn run(&mut self, query: &str, params: &Params) -> Result<Table> {
        run(self, query, params)
    }

    /// A graph built by a Cypher script of CREATE / MERGE statements.
    pub fn from_cypher_script(script: &str) -> Result<Graph> {
        let mut g = Graph::new();
        run_script(&mut g, script)?;
        Ok(g)
    }
}

/// Why [`load_graph`] failed, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadGraphError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    /// A fixture, sampled-paths file or Data Importer folder with a bad record (the error names
    /// the file and the record).
    #[error(transparent)]
    Import(#[from] crate::graph::import::ImportError),
    /// A `.cypher` script whose statement failed.
    #[error("{path}: {source}")]
    Script { path: String, source: ExecError },
    /// A fixture whose data breaks one of its own constraints.
    #[error("{path}: {source}")]
    Constraint { path: String, source: ExecError },
    #[error(
        "{path}: expected a .json fixture or CypherBench graph, a .grape snapshot, a .cypher script, a Data Importer folder or `none`"
    )]
    UnknownFormat { path: String },
    /// A graph name (`--graphs DIR` and a dataset's `graph` field) that could leave its folder.
    #[error("graph name {name:?} is not a plain name")]
    BadName { name: String },
}

/// Checks every node and relationship of `g` against its constraints (a fixture's data against
/// the constraints it declares).
pub fn check_all_constraints(g: &Graph) -> Result<()> {
    if g.schema().constraints().is_empty() {
        return Ok(());
    }
    let nodes: Vec<NodeId> = g.node_ids().collect();
    let rels: Vec<RelId> = g.relationship_ids().collect();
    exec::check_constraints(g, &nodes, &rels)
}

/// Loads a graph for the CLI and the evaluation runner: a `.json` fixture, GRAPE-style sampled
/// paths (`.json` array of `nodesInfo`/`relsInfo` records, or `.jsonl`), a `.cypher` script run
/// through the engine, a Data Importer folder, or `none` (empty).
pub fn load_graph(
    path: &str,
    types: crate::graph::import::ImporterTypes,
) -> std::result::Result<Graph, LoadGraphError> {
    if path == "none" {
        return Ok(Graph::new());
    }
    let p = std::path::Path::new(path);
    if p.is_dir() {
        let g = crate::graph::import::load_importer_dir(p, types)?;
        // The model's constraints hold for the data, as Neo4j's Data Importer requires.
        check_all_constraints(&g).map_err(|source| LoadGraphError::Constraint {
            path: path.to_string(),
            source,
        })?;
        return Ok(g);
    }
    let read = || {
        std::fs::read_to_string(p).map_err(|source| LoadGraphError::Read {
            path: path.to_string(),
            source,
        })
    };
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".grape") {
        let bytes = std::fs::read(p).map_err(|source| LoadGraphError::Read {
            path: path.to_string(),
            source,
        })?;
        let g = crate::graph::import::read_snapshot(&bytes, path)?;
        drop(bytes);
        check_all_constraints(&g).map_err(|source| LoadGraphError::Constraint {
            path: path.to_string(),
            source,
        })?;
        return Ok(g);
    }
    if lower.ends_with(".jsonl") {
        let text = read()?;
        return Ok(crate::graph::import::parse_sampled_paths(&text, path)?);
    }
    if lower.ends_with(".json") {
        let bytes = std::fs::read(p).map_err(|source| LoadGraphError::Read {
            path: path.to_string(),
            source,
        })?;
        // A fixture is read as a stream; another format (sampled paths, a CypherBench dump)
        // is recognised on the way and read as a document.
        let g = match crate::graph::import::read_fixture(&bytes, path, true) {
            Ok(g) => g,
            Err(crate::graph::import::FixtureError::Import(e)) => return Err(e.into()),
            Err(crate::graph::import::FixtureError::NotAFixture) => {
                let text = String::from_utf8(bytes).map_err(|e| LoadGraphError::Read {
                    path: path.to_string(),
                    source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
                })?;
                let doc = serde_json::from_str::<serde_json::Value>(&text).ok();
                if doc
                    .as_ref()
                    .is_some_and(crate::graph::import::looks_like_sampled_paths)
                {
                    return Ok(crate::graph::import::parse_sampled_paths(&text, path)?);
                }
                match doc
                    .as_ref()
                    .filter(|d| crate::graph::import::looks_like_cypherbench_graph(d))
                {
                    Some(doc) => {
                        return Ok(crate::graph::import::cypherbench_graph_from_json(
                            doc, path,
                        )?)
                    }
                    None => crate::graph::import::parse_json_fixture(&text, path)?,
                }
            }
        };
        check_all_constraints(&g).map_err(|source| LoadGraphError::Constraint {
            path: path.to_string(),
            source,
        })?;
        return Ok(g);
    }
    if lower.ends_with(".cypher") || lower.ends_with(".cyp") || lower.ends_with(".cql") {
        let text = read()?;
        return Graph::from_cypher_script(&text).map_err(|source| LoadGraphError::Script {
            path: path.to_string(),
            source,
        });
    }
    Err(LoadGraphError::UnknownFormat {
        path: path.to_string(),
    })
}

/// The schema of a graph as `apoc.meta.schema` describes it: every label in use with its
/// property keys and types, every relationship type with its properties, and every
/// (start label, type, end label) triple that occurs. This is the schema the evaluation runner
/// validates predictions against when none is given.
/// The statements that create a graph's indexes and constraints on another database, as
/// `SHOW INDEXES` / `SHOW CONSTRAINTS` write them in `createStatement`: every constraint, then
/// every index that no constraint owns, LOOKUP indexes left out (a new Neo4j database has its
/// own two).
///
/// ```
/// let mut g = grape::graph::Graph::new();
/// grape::engine::run(&mut g, "CREATE CONSTRAINT c FOR (p:Person) REQUIRE p.id IS UNIQUE", &Default::default()).unwrap();
/// grape::engine::run(&mut g, "CREATE INDEX i FOR (p:Person) ON (p.name)", &Default::default()).unwrap();
/// assert_eq!(grape::engine::schema_statements(&g), vec![
///     "CREATE CONSTRAINT `c` FOR (n:`Person`) REQUIRE (n.`id`) IS UNIQUE".to_string(),
///     "CREATE RANGE INDEX `i` FOR (n:`Person`) ON (n.`name`)".to_string(),
/// ]);
/// ```
pub fn schema_statements(graph: &Graph) -> Vec<String> {
    let schema = graph.schema();
    let mut out: Vec<String> = schema
        .sorted_constraints()
        .into_iter()
        .map(exec::schema::constraint_create_statement)
        .collect();
    out.extend(
        schema
            .sorted_indexes()
            .into_iter()
            .filter(|i| i.kind != crate::syntax::IndexKind::Lookup && i.owning_constraint.is_none())
            .map(exec::schema::index_create_statement),
    );
    out
}

pub fn schema_of(graph: &Graph) -> crate::schema::Schema {
    let value = procedures::apoc_meta_schema(graph);
    let json = crate::graph::import::value_to_json(&value, &Table::default());
    crate::schema::Schema::read(crate::schema::SchemaFormat::Apoc, &json.to_string())
        .unwrap_or_default()
}

/// Parameters from a JSON object (`{"name": value}`), values in grape's JSON encoding.
pub fn params_from_json(text: &str) -> std::result::Result<Params, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let obj = v.as_object().ok_or("expected a JSON object")?;
    obj.iter()
        .map(|(k, x)| Ok((k.clone(), crate::graph::import::json_to_value(x, k)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The last property key's symbol is kept by the key's address; a key freed and another
    /// allocated at that address (a map literal's keys, row after row) must read its own
    /// symbol, not the kept one. (Seen once as a TCK MERGE scenario making 17 nodes for 15.)
    #[test]
    fn a_kept_key_symbol_is_not_read_for_another_key_at_its_address() {
        let mut g = Graph::new();
        run(&mut g, "CREATE ({x: 1, y: 2})", &Params::new()).unwrap();
        let (params, opts) = (Params::new(), Options::default());
        let sh = shared(&params, "", &opts);
        let (sx, sy) = (g.sym("x").unwrap(), g.sym("y").unwrap());
        let y = String::from("y");
        // As if `x` had been read from this very address, then freed.
        sh.last_key
            .set((&g as *const Graph as usize, y.as_ptr() as usize, 1, sx));
        let runner = exec::Runner::new(&g, &sh);
        assert_eq!(runner.key_sym(&y), Some(sy));
        assert_eq!(runner.key_sym("x"), Some(sx));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(8))]

        /// The checked sort sorts as the standard stable sort does, runs and merges included.
        #[test]
        fn checked_sort_is_a_stable_sort(
            keys in prop::collection::vec(0u8..50, 0..(3 * exec::SORT_RUN + 77)),
        ) {
            let (params, opts) = (Params::new(), Options::default());
            let sh = shared(&params, "", &opts);
            let items: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|a| std::cmp::Reverse(a.0));
            let got = sh.sort_checked(items, |a, b| b.0.cmp(&a.0)).unwrap();
            prop_assert_eq!(got, expected);
        }
    }

    /// A statement asks the graph for one equality's nodes once, however many times planning
    /// and compiling its pattern need them (here the anchor's seek and the membership test
    /// of its check): each run of it adds one scan to the lookups that buy an index.
    #[test]
    fn a_statement_scans_for_an_equality_once() {
        let mut g = Graph::new();
        for i in 0..300 {
            g.add_node(&["P"], vec![("name", Value::from(format!("n{i}")))]);
        }
        for i in 0..299 {
            let (a, b) = (crate::value::NodeId(i), crate::value::NodeId(i + 1));
            g.add_relationship(a, b, "R", vec![]).unwrap();
        }
        let q = "MATCH (a:P {name: 'n7'})-[:R]->(b)-[:R]->(c) RETURN count(*) AS n";
        for run in 1..=3u64 {
            let t = run_read(&g, q, &Params::new(), &Options::default()).unwrap();
            assert!(matches!(t.rows.as_slice(), [r] if matches!(r.as_slice(), [Value::Int(1)])));
            let (scanned, build) = g.lookup_demand("P", "name").unwrap();
            assert_eq!(scanned, 300 * run, "run {run}");
            assert!(build > scanned);
        }
        // A write in between: asked again.
        let q = "MATCH (a:P {name: 'n7'}) SET a.seen = true \
                 WITH a MATCH (b:P {name: 'n7'})-[:R]->() RETURN count(*) AS n";
        let t = run(&mut g, q, &Params::new()).unwrap();
        assert!(matches!(t.rows.as_slice(), [r] if matches!(r.as_slice(), [Value::Int(1)])));
        assert_eq!(g.lookup_demand("P", "name").unwrap().0, 300 * 5);
    }

    /// A MERGE that adds a relationship row after row, matching between two bound nodes each
    /// row, reads the relationships the rows before it added (nothing is made twice) without
    /// building the adjacency again for each row: the built one is patched.
    #[test]
    fn relationships_added_row_by_row_patch_the_adjacency() {
        let mut g = Graph::new();
        run(
            &mut g,
            "UNWIND range(1, 300) AS i CREATE (:P {id: i})",
            &Params::new(),
        )
        .unwrap();
        // (Each hub is merged for the rows of its key; a row's pair comes twice.)
        let q = "MATCH (a:P) UNWIND [1, 2] AS twice MERGE (h:Hub {k: a.id % 7}) \
                 MERGE (a)-[:IN]->(h) RETURN count(*)";
        for round in 0..2 {
            let before = crate::graph::derived_builds();
            let t = run(&mut g, q, &Params::new()).unwrap();
            assert_eq!(t.first_int(), Some(600));
            let builds = crate::graph::derived_builds() - before;
            assert!(
                builds <= 2,
                "round {round}: the adjacency was built {builds} times"
            );
            let mut count = |q: &str| run(&mut g, q, &Params::new()).unwrap().first_int();
            assert_eq!(
                count("MATCH (:P)-[r:IN]->(:Hub) RETURN count(r)"),
                Some(300)
            );
            assert_eq!(count("MATCH (h:Hub) RETURN count(h)"), Some(7));
            assert_eq!(
                count("MATCH (h:Hub)<-[:IN]-(a) WHERE a.id % 7 <> h.k RETURN count(*)"),
                Some(0)
            );
        }
    }

    /// The planner reads the graph's relationship statistics once per statement: a MERGE
    /// whose pattern is planned for each row, after the rows before it wrote, does not rebuild
    /// the adjacency they come from for each row (which made a bulk MERGE quadratic).
    #[test]
    fn a_statement_takes_the_relationship_statistics_once() {
        let mut g = Graph::new();
        run(
            &mut g,
            "UNWIND range(1, 50) AS i CREATE (:P {id: -i})-[:R]->(:Q {id: -i})",
            &Params::new(),
        )
        .unwrap();
        let before = crate::graph::derived_builds();
        let q = "UNWIND range(1, 200) AS i MERGE (a:P {id: i})-[:R]->(b:Q {id: i}) RETURN count(*)";
        let t = run(&mut g, q, &Params::new()).unwrap();
        assert_eq!(t.first_int(), Some(200));
        let builds = crate::graph::derived_builds() - before;
        assert!(builds <= 2, "the adjacency was built {builds} times");
        assert_eq!(
            run(
                &mut g,
                "MATCH (:P)-[r:R]->(:Q) RETURN count(r)",
                &Params::new()
            )
            .unwrap()
            .first_int(),
            Some(250)
        );
    }

    /// The built-ins' table is sorted and has each name once: `functions::resolve` binary
    /// searches it.
    #[test]
    fn the_builtin_table_is_sorted() {
        let names: Vec<&str> = functions::builtin_names().collect();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
        assert!(names.len() > 100, "{}", names.len());
    }

    /// `functions::is_implemented` says yes exactly for the names `functions::call` dispatches.
    #[test]
    fn the_implemented_list_is_what_the_engine_dispatches() {
        let g = Graph::new();
        let (params, opts) = (Params::new(), Options::default());
        let sh = shared(&params, "", &opts);
        let run = exec::Runner::new(&g, &sh);
        for name in functions::builtin_names() {
            assert!(
                crate::catalogue::function(name).is_some(),
                "{name} is not Neo4j's"
            );
        }
        for f in crate::catalogue::functions() {
            if f.aggregating {
                continue;
            }
            let name = crate::syntax::parse(&format!("RETURN {}() AS x", f.name))
                .ok()
                .and_then(|stmt| match &stmt.query.first.clauses[0] {
                    crate::syntax::Clause::Return(r) => match &r.projection.items[0].expr.kind {
                        crate::syntax::ExprKind::FunctionCall { name, .. } => Some(name.clone()),
                        _ => None,
                    },
                    _ => None,
                });
            let Some(name) = name else { continue };
            let dispatched = match functions::call(&run, &name, functions::Args::new()) {
                Ok(_) => true,
                Err(e) => {
                    !matches!(e.detail, Some(Detail::UnknownFunction))
                        && e.kind != ErrorKind::Unsupported
                }
            };
            assert_eq!(
                dispatched,
                functions::is_implemented(f.name),
                "{}: dispatched {dispatched}",
                f.name
            );
        }
    }

    /// `procedures::is_implemented` says yes exactly for the names `procedures::call` dispatches.
    #[test]
    fn the_implemented_procedures_are_what_the_engine_dispatches() {
        let g = Graph::new();
        let (params, opts) = (Params::new(), Options::default());
        let sh = shared(&params, "", &opts);
        let run = exec::Runner::new(&g, &sh);
        for name in procedures::IMPLEMENTED {
            assert!(
                crate::catalogue::procedure(name).is_some(),
                "{name} is not Neo4j's"
            );
        }
        for p in crate::catalogue::procedures() {
            let dispatched = match procedures::call(&run, p.name, &[]) {
                Ok((columns, _)) => {
                    // The columns are Neo4j's, so that `YIELD` checked against the catalogue
                    // agrees with what runs.
                    let outputs: Vec<&str> = p
                        .signature()
                        .unwrap()
                        .outputs
                        .iter()
                        .map(|o| o.name.as_str())
                        .collect();
                    let columns: Vec<&str> = columns.iter().map(|c| &**c).collect();
                    assert_eq!(columns, outputs, "{}", p.name);
                    true
                }
                Err(e) => e.detail != Some(Detail::ProcedureNotFound),
            };
            assert_eq!(
                dispatched,
                procedures::is_implemented(p.name, &[]),
                "{}",
                p.name
            );
        }
    }

    /// Loading errors are typed and name the file.
    #[test]
    fn load_graph_errors_name_the_file() {
        let dir = std::env::temp_dir().join(format!("grape-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let t = Default::default();
        let e = load_graph("graph.txt", t).unwrap_err();
        assert!(matches!(e, LoadGraphError::UnknownFormat { .. }), "{e}");
        let missing = dir.join("missing.json");
        let e = load_graph(missing.to_str().unwrap(), t).unwrap_err();
        assert!(matches!(e, LoadGraphError::Read { .. }), "{e}");
        assert!(e.to_string().contains("missing.json"));
        let bad = dir.join("bad.cypher");
        std::fs::write(&bad, "CREATE (:A);\nCREATE (").unwrap();
        let e = load_graph(bad.to_str().unwrap(), t).unwrap_err();
        assert!(matches!(e, LoadGraphError::Script { .. }), "{e}");
        assert!(e.to_string().starts_with(bad.to_str().unwrap()), "{e}");
        let fixture = dir.join("bad.json");
        std::fs::write(
            &fixture,
            r#"{"nodes": [{"id": 1}], "relationships": [{"start": 1, "end": 9, "type": "R"}]}"#,
        )
        .unwrap();
        let e = load_graph(fixture.to_str().unwrap(), t).unwrap_err();
        assert!(matches!(e, LoadGraphError::Import(_)), "{e}");
        assert!(e.to_string().contains("bad.json"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `dbms.components()` answers as the Neo4j grape follows, in Neo4j's columns.
    #[test]
    fn dbms_components_reports_the_neo4j_version() {
        let mut g = Graph::new();
        let t = run(
            &mut g,
            "CALL dbms.components() YIELD name, versions, edition \
             UNWIND versions AS v RETURN name, v, edition",
            &Params::new(),
        )
        .unwrap();
        assert_eq!(t.columns, ["name", "v", "edition"]);
        assert_eq!(
            t.to_json()["rows"],
            serde_json::json!([["Neo4j Kernel", crate::catalogue::NEO4J_VERSION, "community"]])
        );
        let e = run(
            &mut g,
            "CALL dbms.components() YIELD version RETURN version",
            &Params::new(),
        )
        .unwrap_err();
        assert_eq!(e.message, "Unknown procedure output: `version`");
    }

    /// Procedures are resolved before any row is read or written.
    #[test]
    fn unknown_and_unsupported_procedures_fail_at_compile_time() {
        let mut g = Graph::new();
        let mut opts = Options::default();
        let e = run_with(
            &mut g,
            "CREATE (n:A) WITH n CALL foo.bar() YIELD x RETURN x",
            &Params::new(),
            &opts,
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.phase, e.detail),
            (
                ErrorKind::ProcedureError,
                Phase::CompileTime,
                Some(Detail::ProcedureNotFound)
            )
        );
        assert_eq!(e.code(), "Neo.ClientError.Procedure.ProcedureNotFound");
        assert!(
            e.message
                .starts_with("There is no procedure with the name `foo.bar` registered"),
            "{}",
            e.message
        );
        let e = run_with(&mut g, "MATCH (n) CALL { CALL apoc.periodic.repeat('a', 'b', 1) YIELD name RETURN name } RETURN n", &Params::new(), &opts)
            .unwrap_err();
        assert_eq!(
            (e.kind, e.phase),
            (ErrorKind::Unsupported, Phase::CompileTime)
        );
        assert_eq!(g.node_count(), 0, "nothing was written");
        // Table procedures and built-ins resolve.
        opts.procedures.push(TableProcedure {
            name: "test.my.proc".into(),
            inputs: vec![],
            input_types: vec![],
            outputs: vec!["out".into()],
            rows: vec![vec![crate::value::Value::Int(1)]],
        });
        let t = run_with(
            &mut g,
            "CALL test.my.proc() YIELD out CALL db.labels() YIELD label RETURN out, label",
            &Params::new(),
            &opts,
        )
        .unwrap();
        assert!(t.rows.is_empty());
    }

    /// Functions are resolved before any row is read or written.
    #[test]
    fn unknown_and_unsupported_functions_fail_at_compile_time() {
        let mut g = Graph::new();
        let opts = Options::default();
        let e = run_with(
            &mut g,
            "MATCH (b:Business) RETURN foo.bar(b)",
            &Params::new(),
            &opts,
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.phase, e.detail),
            (
                ErrorKind::SyntaxError,
                Phase::CompileTime,
                Some(Detail::UnknownFunction)
            )
        );
        assert_eq!(e.message, "Unknown function 'foo.bar'");
        assert_eq!(e.code(), "Neo.ClientError.Statement.SyntaxError");
        let e = run_with(
            &mut g,
            "CREATE (n:A) RETURN gds.similarity.cosine([1.0], [1.0]) AS s",
            &Params::new(),
            &opts,
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.phase),
            (ErrorKind::Unsupported, Phase::CompileTime)
        );
        assert_eq!(g.node_count(), 0, "nothing was written");
        let e = run_with(
            &mut g,
            "CREATE (n:A) RETURN toUpperCase('a') AS s",
            &Params::new(),
            &opts,
        )
        .unwrap_err();
        assert_eq!(e.detail, Some(Detail::UnknownFunction));
        assert_eq!(g.node_count(), 0, "nothing was written");
        // Known functions in any case run.
        let t = run_with(&mut g, "RETURN TOUPPER('a') AS s, DateTime.Truncate('day', datetime('2020-01-02T03:04:05Z')) IS NOT NULL AS d", &Params::new(), &opts).unwrap();
        assert_eq!(t.rows[0][0].as_str(), Some("A"));
    }

    #[test]
    fn a_long_sort_stops_when_cancelled() {
        let cancel = Arc::new(AtomicBool::new(true));
        let opts = Options {
            cancel: Some(cancel),
            ..Options::default()
        };
        let params = Params::new();
        let sh = shared(&params, "", &opts);
        let items: Vec<u32> = (0..(4 * exec::SORT_RUN as u32)).rev().collect();
        let err = sh.sort_checked(items, |a, b| a.cmp(b)).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Cancelled);
        // A short one is sorted whole (nothing to stop).
        assert_eq!(
            sh.sort_checked(vec![3, 1, 2], |a, b| a.cmp(b)).unwrap(),
            [1, 2, 3]
        );
    }
}
