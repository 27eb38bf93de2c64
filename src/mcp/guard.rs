//! The read tools' guard: a read tool runs only statements that stay inside the graph.
//!
//! Both Neo4j MCP servers trust `EXPLAIN`'s query type, and Neo4j classes as reads statements
//! that read the server's files or fetch URLs (`LOAD CSV`, `apoc.load.*` — mcp-neo4j-cypher's
//! issue #296), run other Cypher given as text (`apoc.cypher.*`, `apoc.periodic.*`), export or
//! read the DBMS (users, settings, other databases, other sessions' transactions). grape's
//! guard looks at everything the statement reaches ([`crate::analysis::reach`]: procedures and
//! functions in subqueries, patterns and APOC's Cypher text included) and refuses, whatever
//! the query type:
//! - `LOAD CSV` (unless the server is told to allow it), `USE`;
//! - `SHOW USERS`, `SHOW CURRENT USER`, `SHOW SETTINGS`, `SHOW TRANSACTIONS`, `TERMINATE
//!   TRANSACTIONS`, `SHOW DATABASES` and administration commands;
//! - every procedure not on a list of those known to read only the graph (deny by default);
//! - functions that load, import, export, run Cypher text or read the DBMS's configuration,
//!   and namespaced functions grape does not know.

/// Procedures that read only the graph (lower-cased; a trailing `.` is a namespace).
const GRAPH_READS: &[&str] = &[
    "db.labels",
    "db.relationshiptypes",
    "db.propertykeys",
    "db.schema.",
    "db.index.fulltext.querynodes",
    "db.index.fulltext.queryrelationships",
    "db.index.vector.querynodes",
    "db.index.vector.queryrelationships",
    "db.info",
    "db.ping",
    "db.awaitindex",
    "db.awaitindexes",
    "dbms.components",
    "apoc.meta.",
    "apoc.path.",
    "apoc.algo.",
    "apoc.neighbors.",
    "apoc.help",
    "apoc.coll.",
    "apoc.text.",
    "apoc.stats.",
    "apoc.schema.nodes",
    "apoc.schema.relationships",
    "apoc.label.",
    "apoc.convert.",
    "apoc.map.",
    "apoc.number.",
    "apoc.date.",
    "apoc.temporal.",
    "apoc.agg.",
    "apoc.util.sleep",
    "gds.",
];

/// GDS procedures that write to the database or to files, run Cypher text, or read or change
/// the DBMS rather than the graph: settings, system and memory information, other jobs, logs,
/// stored models, backups (lower-cased parts of the name).
const GDS_OUTSIDE: &[&str] = &[
    "write",
    "export",
    "cypher",
    "model.store",
    "model.publish",
    "model.load",
    "model.delete",
    "backup",
    "restore",
    "config.",
    "debug.",
    "systemmonitor",
    "userlog",
    "listprogress",
    "memory.",
];

/// Function namespaces that reach outside the graph (lower-cased).
const FUNCTIONS_OUTSIDE: &[&str] = &[
    "apoc.load.",
    "apoc.import.",
    "apoc.export.",
    "apoc.cypher.",
    "apoc.periodic.",
    "apoc.static.",
    "apoc.trigger.",
    "apoc.systemdb.",
    "apoc.custom.",
    "apoc.config.",
    "apoc.log.",
    "apoc.spatial.",
];

/// Commands that read the DBMS rather than the graph.
const COMMANDS_INSIDE: &[&str] = &[
    "SHOW FUNCTIONS",
    "SHOW PROCEDURES",
    "SHOW INDEXES",
    "SHOW CONSTRAINTS",
];

fn allowed_procedure(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    let listed = GRAPH_READS.iter().any(|a| match a.strip_suffix('.') {
        Some(ns) => n.starts_with(a) || n == ns,
        None => n == *a,
    });
    listed && !(n.starts_with("gds.") && GDS_OUTSIDE.iter().any(|w| n.contains(w)))
}

fn allowed_function(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    if FUNCTIONS_OUTSIDE.iter().any(|p| n.starts_with(p)) {
        return false;
    }
    // Built-in functions have no namespace or one of Neo4j's; others must be known.
    !n.contains('.') || crate::catalogue::function(name).is_some()
}

/// Why a read tool refuses `query`, or `None` when it stays inside the graph (or does not
/// parse: the database then says why).
pub(crate) fn refusal(query: &str, allow_load_csv: bool) -> Option<String> {
    let stmt = crate::syntax::parse(query).ok()?;
    let r = crate::analysis::reach(&stmt);
    let refuse = |what: &str| {
        Some(format!(
            "{what} reaches outside the graph (the server's files, the network, other \
             statements or the DBMS): a read tool runs only statements that stay inside the graph"
        ))
    };
    if crate::analysis::access(&stmt) != crate::analysis::Access::Read {
        // mcp-neo4j-cypher lets schema commands (`s`) through its read tool.
        return Some(
            "a read tool runs only statements that read: this one writes to the database".into(),
        );
    }
    if r.load_csv && !allow_load_csv {
        return refuse("LOAD CSV");
    }
    if r.uses > 0 {
        return refuse("USE");
    }
    if let Some(c) = r
        .commands
        .iter()
        .find(|c| !COMMANDS_INSIDE.contains(&c.as_str()))
    {
        return refuse(c);
    }
    if let Some(p) = r.procedures.iter().find(|p| !allowed_procedure(p)) {
        return refuse(&format!("the procedure {p}"));
    }
    if let Some(f) = r.functions.iter().find(|f| !allowed_function(f)) {
        return refuse(&format!("the function {f}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::refusal;

    #[test]
    fn reads_of_the_graph_pass() {
        for q in [
            "MATCH (n:Person)-[:KNOWS]->(m) RETURN n.name, count(m) ORDER BY n.name",
            "CALL db.labels() YIELD label RETURN label",
            "CALL apoc.meta.schema() YIELD value RETURN value",
            "CALL db.index.fulltext.queryNodes('names', 'ann') YIELD node RETURN node",
            "RETURN apoc.text.join(['a', 'b'], '-') AS s, toUpper('x') AS u",
            "CALL gds.pageRank.stream('g') YIELD nodeId, score RETURN nodeId, score",
            "CALL gds.louvain.mutate('g', {mutateProperty: 'c'})",
            "CALL gds.graph.nodeProperty.stream('g', 'c') YIELD nodeId, propertyValue RETURN *",
            "MATCH (s)-->(t) RETURN gds.graph.project('g', s, t) AS g",
            "SHOW INDEXES",
            "SHOW CONSTRAINTS YIELD name RETURN name",
            "MATCH (n) WHERE EXISTS { MATCH (n)-->() } RETURN n",
        ] {
            assert_eq!(refusal(q, false), None, "{q}");
        }
    }

    #[test]
    fn what_reaches_outside_is_refused_wherever_it_hides() {
        for q in [
            "LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
            "CALL { LOAD CSV FROM 'http://169.254.169.254/' AS l RETURN l } RETURN l",
            "CALL apoc.load.json('file:///etc/passwd') YIELD value RETURN value",
            "CALL `apoc`.`load`.`json`('file:///x') YIELD value RETURN value",
            "cAlL ApOc.LoAd.JsOn('file:///x') YIELD value RETURN value",
            "MATCH (n) WHERE EXISTS { CALL apoc.load.csv('x') YIELD map RETURN map } RETURN n",
            "RETURN COUNT { CALL apoc.export.csv.all('/tmp/x', {}) YIELD file RETURN file } AS c",
            "CALL apoc.cypher.run('LOAD CSV FROM \"file:///x\" AS l RETURN l', {}) YIELD value RETURN value",
            "RETURN apoc.cypher.runFirstColumnSingle('MATCH (n) RETURN n', {}) AS x",
            "MATCH (n) RETURN [x IN [1] WHERE apoc.static.get('k') IS NULL] AS l",
            "CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'SET n.x = 1', {})",
            "CALL dbms.listConfig() YIELD name RETURN name",
            "CALL my.plugin.proc()",
            "SHOW USERS",
            "CREATE INDEX FOR (n:Person) ON (n.name)",
            "MATCH (n) CALL { WITH n SET n.x = 1 } RETURN n",
            "SHOW SETTINGS",
            "SHOW TRANSACTIONS",
            "TERMINATE TRANSACTIONS 'neo4j-transaction-1'",
            "SHOW TRANSACTIONS YIELD transactionId AS t TERMINATE TRANSACTIONS t YIELD message RETURN message",
            "USE system SHOW DATABASES",
            "CALL gds.pageRank.write('g', {writeProperty: 'pr'})",
            "CALL gds.graph.project.cypher('g', 'LOAD CSV FROM \"x\" AS l RETURN 1 AS id', 'RETURN 1 AS source, 1 AS target')",
            "MATCH (a)-[*]->(b WHERE apoc.load.jsonParams('x', {}, null) IS NULL) RETURN a",
            "CALL gds.backup()",
            "CALL gds.restore()",
            "CALL gds.config.defaults.set('concurrency', 1)",
            "CALL gds.config.limits.list()",
            "CALL gds.debug.sysInfo()",
            "CALL gds.systemMonitor()",
            "CALL gds.userLog()",
            "CALL gds.listProgress()",
            "CALL gds.memory.list()",
            "CALL gds.graph.nodeProperties.write('g', ['pr'])",
            "CALL gds.graph.export.csv('g', {exportName: 'x'})",
            "CALL gds.model.load('m')",
        ] {
            assert!(refusal(q, false).is_some(), "{q}");
        }
        assert_eq!(
            refusal("LOAD CSV FROM 'file:///x.csv' AS l RETURN l", true),
            None
        );
    }
}
