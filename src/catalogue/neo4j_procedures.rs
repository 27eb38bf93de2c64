//! The names of the procedures Neo4j 5.26 knows (`SHOW PROCEDURES` under `CYPHER 5` and
//! `CYPHER 25`, with APOC core, GDS and CDC): facts of its interface, listed here so that a
//! query can be checked offline. `tests` in `catalogue` compare the list with the catalogue
//! in `../shared/data/neo4j-catalogue/procedures.json`.

use super::{Mode, Procedure, Versions};

/// Sorted by lower-case name.
pub(super) const PROCEDURES: &[Procedure] = &[
    Procedure {
        name: "apoc.algo.allSimplePaths",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.algo.aStar",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.algo.aStarConfig",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.algo.cover",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.algo.dijkstra",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.atomic.add",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.atomic.concat",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.atomic.insert",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.atomic.remove",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.atomic.subtract",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.atomic.update",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.case",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.coll.elements",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.coll.pairWithOffset",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.coll.partition",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.coll.split",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.coll.zipToRows",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.convert.setJsonProperty",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.convert.toTree",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.create.addLabels",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.clonePathsToVirtual",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.clonePathToVirtual",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.node",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.nodes",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.relationship",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.removeLabels",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.removeProperties",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.removeRelProperties",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.setLabels",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.setProperties",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.setProperty",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.setRelProperties",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.setRelProperty",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.uuids",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.create.virtualPath",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.vNode",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.vNodes",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.create.vRelationship",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.cypher.doIt",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.cypher.run",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.cypher.runMany",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.cypher.runManyReadOnly",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.cypher.runSchema",
        mode: Mode::Schema,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.cypher.runTimeboxed",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.cypher.runWrite",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.do.case",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.do.when",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.example.movies",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.arrow.all",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.export.arrow.graph",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.export.arrow.query",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.export.arrow.stream.all",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.export.arrow.stream.graph",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.export.arrow.stream.query",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.export.csv.all",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.csv.data",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.csv.graph",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.csv.query",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.cypher.all",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.cypher.data",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.cypher.graph",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.cypher.query",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.cypher.schema",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.graphml.all",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.graphml.data",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.graphml.graph",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.graphml.query",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.json.all",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.json.data",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.json.graph",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.export.json.query",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.graph.from",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.graph.fromCypher",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.graph.fromData",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.graph.fromDB",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.graph.fromDocument",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.graph.fromPath",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.graph.fromPaths",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.graph.validateDocument",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.help",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.import.csv",
        mode: Mode::Schema,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.import.graphml",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.import.json",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.import.xml",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.load.arrow",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.load.arrow.stream",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.load.json",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.load.jsonArray",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.load.jsonParams",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.load.xml",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.lock.all",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.lock.nodes",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.lock.read.nodes",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.lock.read.rels",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.lock.rels",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.log.stream",
        mode: Mode::Dbms,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.math.regr",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.merge.node",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.merge.node.eager",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.merge.nodeWithStats",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.merge.nodeWithStats.eager",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.merge.relationship",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.merge.relationship.eager",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.merge.relationshipWithStats",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.merge.relationshipWithStats.eager",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.data",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.data.of",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.graph",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.graph.of",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.graphSample",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.nodeTypeProperties",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.relTypeProperties",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.schema",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.stats",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.meta.subGraph",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.neighbors.athop",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.neighbors.athop.count",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.neighbors.byhop",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.neighbors.byhop.count",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.neighbors.tohop",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.neighbors.tohop.count",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.nodes.collapse",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.nodes.cycles",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.nodes.delete",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.nodes.get",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.nodes.group",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.nodes.link",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.nodes.rels",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.path.expand",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.path.expandConfig",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.path.spanningTree",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.path.subgraphAll",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.path.subgraphNodes",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.paths.toJsonTree",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.periodic.cancel",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.periodic.commit",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.periodic.countdown",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.periodic.iterate",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.periodic.list",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.periodic.repeat",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.periodic.submit",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.periodic.truncate",
        mode: Mode::Schema,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.categorize",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.cloneNodes",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.cloneSubgraph",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.cloneSubgraphFromPaths",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.collapseNode",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.deleteAndReconnect",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.extractNode",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.from",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.invert",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.mergeNodes",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.mergeRelationships",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.normalizeAsBoolean",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.rename.label",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.rename.nodeProperty",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.rename.type",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.rename.typeProperty",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.setType",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.refactor.to",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.schema.assert",
        mode: Mode::Schema,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.schema.nodes",
        mode: Mode::Schema,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.schema.properties.distinct",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.schema.properties.distinctCount",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.schema.relationships",
        mode: Mode::Schema,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.search.multiSearchReduced",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.search.node",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.search.nodeAll",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.search.nodeAllReduced",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.search.nodeReduced",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.spatial.geocode",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.spatial.geocodeOnce",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.spatial.reverseGeocode",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.spatial.sortByDistance",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.stats.degrees",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.text.phoneticDelta",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.trigger.add",
        mode: Mode::Write,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.trigger.drop",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.trigger.dropAll",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.trigger.install",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.trigger.list",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.trigger.pause",
        mode: Mode::Write,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.trigger.remove",
        mode: Mode::Write,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.trigger.removeAll",
        mode: Mode::Write,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.trigger.resume",
        mode: Mode::Write,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.trigger.show",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.trigger.start",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.trigger.stop",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.util.sleep",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.util.validate",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "apoc.warmup.run",
        mode: Mode::Default,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "apoc.when",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "cdc.current",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "cdc.earliest",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "cdc.query",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.awaitIndex",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.awaitIndexes",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.cdc.current",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.cdc.earliest",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.cdc.query",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.checkpoint",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.clearQueryCaches",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.create.setNodeVectorProperty",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.create.setRelationshipVectorProperty",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.create.setVectorProperty",
        mode: Mode::Write,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "db.createLabel",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.createProperty",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.createRelationshipType",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.index.fulltext.awaitEventuallyConsistentIndexRefresh",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.index.fulltext.listAvailableAnalyzers",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.index.fulltext.queryNodes",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.index.fulltext.queryRelationships",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.index.vector.createNodeIndex",
        mode: Mode::Schema,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "db.index.vector.queryNodes",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.index.vector.queryRelationships",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.info",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.labels",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.listLocks",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.ping",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.prepareForReplanning",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.propertyKeys",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.relationshipTypes",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.resampleIndex",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.resampleOutdatedIndexes",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.schema.nodeTypeProperties",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.schema.relTypeProperties",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.schema.visualization",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.stats.clear",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.stats.collect",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.stats.retrieve",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.stats.retrieveAllAnonymized",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.stats.status",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "db.stats.stop",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.checkConfigValue",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.checkConnectivity",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.cordonServer",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.deallocateDatabaseFromServer",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.deallocateDatabaseFromServers",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.deallocateNumberOfDatabases",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.moveToNextDiscoveryVersion",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.protocols",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.readReplicaToggle",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.reallocateDatabase",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.reallocateNumberOfDatabases",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.recreateDatabase",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.routing.getRoutingTable",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.secondaryReplicationDisable",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.setAutomaticallyEnableFreeServers",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.showParallelDiscoveryState",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.statusCheck",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.switchDiscoveryServiceVersion",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.cluster.uncordonServer",
        mode: Mode::Write,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "dbms.components",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.info",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.killConnection",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.killConnections",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.listActiveLocks",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.listCapabilities",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.listConfig",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.listConnections",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.listPools",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.quarantineDatabase",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.queryJmx",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.routing.getRoutingTable",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.scheduler.failedJobs",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.scheduler.groups",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.scheduler.jobs",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.security.clearAuthCache",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.setConfigValue",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.setDatabaseAllocator",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.setDefaultAllocationNumbers",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.setDefaultDatabase",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.showCurrentUser",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.showTopologyGraphConfig",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "dbms.upgrade",
        mode: Mode::Write,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "dbms.upgradeStatus",
        mode: Mode::Read,
        versions: Versions::CYPHER_5,
    },
    Procedure {
        name: "gds.allShortestPaths.delta.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.delta.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.delta.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.delta.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.delta.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.delta.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.delta.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.delta.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.dijkstra.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.dijkstra.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.dijkstra.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.dijkstra.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.dijkstra.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.dijkstra.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.allShortestPaths.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.ml.splitRelationships.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.linkPrediction.addMLP",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.linkPrediction.configureAutoTuning",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeClassification.addMLP",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeClassification.configureAutoTuning",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.addLinearRegression",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.addNodeProperty",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.addRandomForest",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.configureAutoTuning",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.configureSplit",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.create",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.predict.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.predict.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.selectFeatures",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.alpha.pipeline.nodeRegression.train",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articleRank.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articleRank.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articleRank.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articleRank.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articleRank.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articleRank.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articleRank.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articleRank.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articulationPoints.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articulationPoints.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articulationPoints.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articulationPoints.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articulationPoints.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articulationPoints.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articulationPoints.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.articulationPoints.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.backup",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bellmanFord.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bellmanFord.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bellmanFord.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bellmanFord.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bellmanFord.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bellmanFord.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bellmanFord.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bellmanFord.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.graphSage.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.graphSage.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.graphSage.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.graphSage.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.graphSage.train",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.graphSage.train.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.graphSage.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.graphSage.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.addFeature",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.addLogisticRegression",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.addNodeProperty",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.addRandomForest",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.configureSplit",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.create",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.predict.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.predict.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.predict.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.predict.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.train",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.linkPrediction.train.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.addLogisticRegression",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.addNodeProperty",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.addRandomForest",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.configureSplit",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.create",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.predict.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.predict.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.predict.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.predict.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.predict.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.predict.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.selectFeatures",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.train",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.beta.pipeline.nodeClassification.train.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.betweenness.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.betweenness.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.betweenness.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.betweenness.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.betweenness.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.betweenness.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.betweenness.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.betweenness.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bfs.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bfs.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bfs.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bfs.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bfs.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bfs.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bridges.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.bridges.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.closeness.harmonic.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.closeness.harmonic.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.closeness.harmonic.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.closeness.harmonic.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.closeness.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.closeness.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.closeness.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.closeness.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.collapsePath.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.conductance.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.config.defaults.list",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.config.defaults.set",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.config.limits.list",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.config.limits.set",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.dag.longestPath.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.dag.topologicalSort.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.debug.arrow",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.debug.sysInfo",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.degree.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.degree.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.degree.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.degree.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.degree.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.degree.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.degree.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.degree.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.dfs.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.dfs.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.dfs.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.dfs.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.eigenvector.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.eigenvector.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.eigenvector.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.eigenvector.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.eigenvector.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.eigenvector.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.eigenvector.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.eigenvector.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.fastRP.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.fastRP.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.fastRP.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.fastRP.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.fastRP.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.fastRP.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.fastRP.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.fastRP.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.drop",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.exists",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.export",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.export.csv",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.export.csv.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.filter",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.generate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.graphProperty.drop",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.graphProperty.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.list",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.nodeLabel.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.nodeLabel.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.nodeProperties.drop",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.nodeProperties.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.nodeProperties.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.nodeProperty.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.project",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.project.cypher",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.project.cypher.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.project.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.relationship.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.relationshipProperties.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.relationshipProperties.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.relationshipProperty.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.relationships.drop",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.relationships.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.relationships.toUndirected",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.relationships.toUndirected.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.sample.cnarw",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.sample.cnarw.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.graph.sample.rwr",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hashgnn.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hashgnn.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hashgnn.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hashgnn.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hits.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hits.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hits.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hits.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hits.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hits.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hits.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.hits.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.influenceMaximization.celf.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.influenceMaximization.celf.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.influenceMaximization.celf.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.influenceMaximization.celf.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.influenceMaximization.celf.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.influenceMaximization.celf.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.influenceMaximization.celf.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.influenceMaximization.celf.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.k1coloring.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.k1coloring.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.k1coloring.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.k1coloring.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.k1coloring.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.k1coloring.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.k1coloring.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.k1coloring.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kcore.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kcore.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kcore.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kcore.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kcore.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kcore.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kcore.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kcore.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kmeans.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kmeans.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kmeans.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kmeans.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kmeans.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kmeans.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kmeans.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kmeans.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.filtered.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.filtered.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.filtered.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.filtered.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.filtered.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.filtered.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.filtered.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.filtered.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.knn.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.kSpanningTree.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.labelPropagation.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.labelPropagation.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.labelPropagation.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.labelPropagation.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.labelPropagation.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.labelPropagation.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.labelPropagation.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.labelPropagation.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.leiden.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.leiden.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.leiden.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.leiden.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.leiden.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.leiden.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.leiden.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.leiden.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.license.state",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.list",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.listProgress",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.localClusteringCoefficient.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.localClusteringCoefficient.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.localClusteringCoefficient.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.localClusteringCoefficient.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.localClusteringCoefficient.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.localClusteringCoefficient.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.localClusteringCoefficient.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.localClusteringCoefficient.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.louvain.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.louvain.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.louvain.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.louvain.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.louvain.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.louvain.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.louvain.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.louvain.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.maxkcut.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.maxkcut.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.maxkcut.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.maxkcut.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.memory.list",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.memory.summary",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.model.delete",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.model.drop",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.model.exists",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.model.list",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.model.load",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.model.publish",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.model.store",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularity.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularity.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularity.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularity.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularityOptimization.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularityOptimization.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularityOptimization.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularityOptimization.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularityOptimization.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularityOptimization.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularityOptimization.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.modularityOptimization.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.node2vec.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.node2vec.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.node2vec.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.node2vec.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.node2vec.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.node2vec.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.filtered.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.filtered.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.filtered.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.filtered.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.filtered.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.filtered.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.filtered.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.filtered.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.nodeSimilarity.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pageRank.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pageRank.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pageRank.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pageRank.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pageRank.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pageRank.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pageRank.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pageRank.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pipeline.drop",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pipeline.exists",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.pipeline.list",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.prizeSteinerTree.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.prizeSteinerTree.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.randomWalk.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.randomWalk.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.randomWalk.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.randomWalk.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.randomWalk.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.randomWalk.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.restore",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scaleProperties.mutate",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scaleProperties.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scaleProperties.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scaleProperties.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scaleProperties.stream",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scaleProperties.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scaleProperties.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scaleProperties.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scc.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scc.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scc.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scc.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scc.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scc.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scc.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.scc.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.astar.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.astar.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.astar.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.astar.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.astar.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.astar.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.dijkstra.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.dijkstra.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.dijkstra.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.dijkstra.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.dijkstra.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.dijkstra.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.yens.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.yens.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.yens.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.yens.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.yens.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.shortestPath.yens.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.sllpa.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.sllpa.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.sllpa.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.sllpa.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.sllpa.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.sllpa.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.sllpa.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.sllpa.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.spanningTree.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.spanningTree.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.spanningTree.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.spanningTree.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.spanningTree.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.spanningTree.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.spanningTree.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.spanningTree.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.steinerTree.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.steinerTree.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.steinerTree.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.steinerTree.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.steinerTree.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.steinerTree.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.steinerTree.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.steinerTree.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.systemMonitor",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.triangleCount.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.triangleCount.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.triangleCount.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.triangleCount.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.triangleCount.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.triangleCount.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.triangleCount.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.triangleCount.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.triangles",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.userLog",
        mode: Mode::Default,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.version",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.wcc.mutate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.wcc.mutate.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.wcc.stats",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.wcc.stats.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.wcc.stream",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.wcc.stream.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.wcc.write",
        mode: Mode::Write,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "gds.wcc.write.estimate",
        mode: Mode::Read,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "tx.getMetaData",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
    Procedure {
        name: "tx.setMetaData",
        mode: Mode::Dbms,
        versions: Versions::BOTH,
    },
];
