//! The Graph Data Science procedures grape runs, against GDS 2.13.9 itself: each case's
//! statements run on a fresh graph in grape and, where recorded, on the Neo4j oracle with the
//! GDS library (`scripts/neo4j-oracle start DIR --gds`); their rows (or error codes and
//! messages) must agree — floats to 1e-9, everything else exactly — but for what GDS itself
//! gives anew each time (`projectMillis`, `jobId`, `creationTime`, `modificationTime`) and the
//! memory a projection holds (`memoryUsage`, `sizeInBytes`, grape's own).
//!
//! The answers are recorded in `tests/data/gds_oracle.json`; with `GRAPE_NEO4J_GDS_URI`,
//! `GRAPE_NEO4J_GDS_AUTH` and `GRAPE_NEO4J_GDS_DIR` naming a running GDS oracle the test asks
//! it again (each case on a new store) and must get the recording, or rewrites it
//! (`GRAPE_GDS_BLESS=1`).

use grape::backend::{Backend, BackendError};
use serde_json::{json, Value as Json};
use std::path::Path;

/// A case: a graph built by a Cypher script, then statements run one after the other (the GDS
/// catalog carries over between them).
const CASES: &[(&str, &str, &[&str])] = &[
    (
        "a cycle with a tail",
        "CREATE (a:P {n:'a'})-[:R]->(b:P {n:'b'})-[:R]->(c:P {n:'c'})-[:R]->(a), (d:P:Q {n:'d'})-[:R]->(a), (e:Q {n:'e'})-[:S]->(d), (f:P {n:'f'}), (g:P {n:'g'})-[:R]->(h:P {n:'h'})",
        &[
            "CALL gds.graph.project('g', 'P', 'R') YIELD nodeProjection, relationshipProjection, graphName, nodeCount, relationshipCount RETURN *",
            "CALL gds.graph.project('g', 'P', 'R')",
            "CALL gds.graph.exists('g')",
            "CALL gds.graph.exists('nope')",
            "CALL gds.graph.list()",
            "CALL gds.graph.list('g') YIELD graphName, degreeDistribution, density, schema, schemaWithOrientation RETURN *",
            "CALL gds.pageRank.stream('g') YIELD nodeId, score RETURN gds.util.asNode(nodeId).n AS n, score ORDER BY n",
            "CALL gds.pageRank.stream('g', {maxIterations: 3, dampingFactor: 0.6, tolerance: 0.0001}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.degree.stream('g') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.degree.stream('g', {orientation: 'REVERSE'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.degree.stream('g', {orientation: 'UNDIRECTED'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.wcc.stream('g') YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.pageRank.stream('nope')",
            "CALL gds.pageRank.stream('g', {nope: 1})",
            "CALL gds.degree.stream('g', {orientation: 'SIDEWAYS'})",
            "CALL gds.graph.drop('g') YIELD graphName, database, databaseLocation, memoryUsage, sizeInBytes, nodeCount, relationshipCount, density, schema RETURN *",
            "CALL gds.graph.drop('g')",
            "CALL gds.graph.drop('g', false)",
            "CALL gds.graph.project('u', ['P', 'Q'], {R: {orientation: 'UNDIRECTED'}, S: 'S'}) YIELD nodeProjection, relationshipProjection, nodeCount, relationshipCount RETURN *",
            "CALL gds.pageRank.stream('u', {maxIterations: 5, dampingFactor: 0.5}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.wcc.stream('u') YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.degree.stream('u') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.graph.list() YIELD graphName, nodeCount, relationshipCount, degreeDistribution, schemaWithOrientation RETURN *",
            "CALL gds.graph.project('all', '*', '*') YIELD nodeProjection, relationshipProjection, nodeCount, relationshipCount RETURN *",
            "CALL gds.pageRank.stream('all') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.graph.project('x', 'X', 'R')",
            "CALL gds.graph.project('r', 'P', {R: {type: 'R', orientation: 'REVERSE'}}) YIELD relationshipCount RETURN *",
            "CALL gds.pageRank.stream('r') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "RETURN gds.version() AS v, gds.util.asNode(0).n AS n, gds.util.asNode(999) AS m",
        ],
    ),
    (
        "two stars and a chain",
        "UNWIND range(0, 29) AS i CREATE (:N {i: i}) WITH 1 AS one MATCH (a:N), (b:N) WHERE (a.i < 10 AND b.i = 0 AND a.i <> 0) OR (a.i >= 10 AND a.i < 20 AND b.i = 10 AND a.i <> 10) OR (a.i >= 20 AND b.i = a.i + 1) CREATE (a)-[:L]->(b)",
        &[
            "CALL gds.graph.project('s', 'N', 'L') YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.pageRank.stream('s') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.stream('s', {dampingFactor: 0.9, maxIterations: 50, tolerance: 0.0000001}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.wcc.stream('s') YIELD nodeId, componentId RETURN componentId, count(*) AS size ORDER BY componentId",
            "CALL gds.graph.list('s') YIELD degreeDistribution, density RETURN *",
            "CALL gds.graph.drop('s') YIELD nodeCount RETURN *",
        ],
    ),
    (
        "weighted, undirected and with node properties",
        "CREATE (a:P {n:'a', x: 1.0, v: [1.0, 0.0]})-[:R {w: 1.5}]->(b:P {n:'b', x: 2.5, v: [0.5, 0.5]})-[:R {w: 2}]->(c:P {n:'c', x: 7.0, v: [0.0, 1.0]})-[:R {w: 0.5}]->(a), (d:P:Q {n:'d', x: 11.0, v: [1.0, 1.0]})-[:R {w: 3}]->(a), (e:Q {n:'e'})-[:S {w: 4}]->(d), (f:P {n:'f', x: 20.0, v: [-1.0, 0.2]}), (g:P {n:'g', x: 31.0, v: [0.3, 0.9]})-[:R {w: 1}]->(h:P {n:'h', x: 45.0, v: [2.0, 0.1]}), (b)-[:R {w: 0.25}]->(d), (d)-[:R {w: 5}]->(g)",
        &[
            "CALL gds.graph.project('g', 'P', 'R') YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.graph.project('u', ['P', 'Q'], {R: {orientation: 'UNDIRECTED', properties: 'w'}, S: {orientation: 'UNDIRECTED', properties: 'w'}}) YIELD nodeProjection, relationshipProjection, nodeCount, relationshipCount RETURN *",
            "CALL gds.graph.project('w', 'P', {R: {properties: 'w'}}) YIELD relationshipProjection, relationshipCount RETURN *",
            "CALL gds.graph.project('np', {P: {properties: ['x', 'v']}}, 'R') YIELD nodeProjection, nodeCount RETURN *",
            "CALL gds.graph.list('np') YIELD schema, schemaWithOrientation RETURN *",
            "CALL gds.graph.list('u') YIELD schema, schemaWithOrientation, density, degreeDistribution RETURN *",
            "CALL gds.graph.project('bad', {P: {properties: 'nope'}}, 'R')",
            "CALL gds.pageRank.stats('g')",
            "CALL gds.pageRank.stream('w', {relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.stream('g', {sourceNodes: [0], maxIterations: 40}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "MATCH (s:P {n: 'd'}) CALL gds.pageRank.stream('g', {sourceNodes: [s], scaler: 'minmax'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.stream('g', {scaler: 'L2Norm'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.stream('g', {scaler: 'sideways'})",
            "CALL gds.pageRank.stream('g', {dampingFactor: 1.5})",
            "CALL gds.pageRank.stream('g', {maxIterations: 'x'})",
            "CALL gds.pageRank.stream('w', {relationshipWeightProperty: 'nope'})",
            "CALL gds.pageRank.stream('u', {maxIterations: 100, tolerance: 0.000000001}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.stats('u', {maxIterations: 100, tolerance: 0.001}) YIELD ranIterations, didConverge, configuration RETURN *",
            "CALL gds.articleRank.stream('g') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.articleRank.stats('g') YIELD ranIterations, didConverge, centralityDistribution RETURN *",
            "CALL gds.articleRank.stream('u') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.mutate('g', {mutateProperty: 'pr'})",
            "CALL gds.pageRank.mutate('g', {mutateProperty: 'pr'})",
            "CALL gds.pageRank.mutate('g', {})",
            "CALL gds.graph.list('g') YIELD schema, schemaWithOrientation RETURN *",
            "CALL gds.graph.nodeProperty.stream('g', 'pr') YIELD nodeId, propertyValue RETURN nodeId, propertyValue ORDER BY nodeId",
            "CALL gds.graph.nodeProperties.stream('np', ['x', 'v'], ['P'], {listNodeLabels: true}) YIELD nodeId, nodeProperty, propertyValue, nodeLabels RETURN * ORDER BY nodeId, nodeProperty",
            "CALL gds.graph.nodeProperty.stream('np', 'x') YIELD nodeId, propertyValue, nodeLabels RETURN * ORDER BY nodeId",
            "CALL gds.articleRank.stream('w', {relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.write('g', {writeProperty: 'pr', maxIterations: 5})",
            "MATCH (n:P) RETURN n.n AS n, n.pr AS pr ORDER BY n",
            "CALL gds.degree.stats('g')",
            "CALL gds.degree.stream('w', {relationshipWeightProperty: 'w', orientation: 'undirected'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.degree.mutate('u', {mutateProperty: 'deg'}) YIELD nodePropertiesWritten, centralityDistribution, configuration RETURN *",
            "CALL gds.degree.write('u', {writeProperty: 'deg'}) YIELD nodePropertiesWritten RETURN *",
            "MATCH (n) RETURN n.n AS n, n.deg AS deg ORDER BY n",
            "CALL gds.betweenness.stream('g') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.betweenness.stream('u') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.betweenness.stream('w', {relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.betweenness.stats('u')",
            "CALL gds.wcc.stats('g')",
            "CALL gds.wcc.stream('u', {consecutiveIds: true}) YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.wcc.stream('g', {minComponentSize: 2}) YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.wcc.stream('w', {relationshipWeightProperty: 'w', threshold: 1.0}) YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.wcc.mutate('g', {mutateProperty: 'comp'}) YIELD nodePropertiesWritten, componentCount, componentDistribution RETURN *",
            "CALL gds.wcc.write('g', {writeProperty: 'comp'}) YIELD nodePropertiesWritten, componentCount RETURN *",
            "MATCH (n:P) RETURN n.n AS n, n.comp AS comp ORDER BY n",
            "CALL gds.labelPropagation.stream('g') YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.labelPropagation.stream('u') YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.labelPropagation.stats('g')",
            "CALL gds.labelPropagation.stats('u') YIELD ranIterations, didConverge, communityCount, communityDistribution RETURN *",
            "CALL gds.labelPropagation.stream('w', {relationshipWeightProperty: 'w'}) YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.louvain.stream('u') YIELD nodeId, communityId WITH communityId, collect(nodeId) AS members RETURN members ORDER BY members[0]",
            "CALL gds.louvain.stats('u') YIELD modularity, modularities, ranLevels, communityCount, communityDistribution, configuration RETURN *",
            "CALL gds.louvain.stream('u', {includeIntermediateCommunities: true}) YIELD nodeId, intermediateCommunityIds RETURN nodeId, size(intermediateCommunityIds) AS levels ORDER BY nodeId",
            "CALL gds.louvain.mutate('u', {mutateProperty: 'community', consecutiveIds: true}) YIELD nodePropertiesWritten, communityCount, ranLevels RETURN *",
            "CALL gds.graph.nodeProperty.stream('u', 'community') YIELD nodeId, propertyValue RETURN nodeId, propertyValue ORDER BY nodeId",
            "CALL gds.labelPropagation.write('u', {writeProperty: 'lpa'}) YIELD nodePropertiesWritten, communityCount RETURN *",
            "MATCH (n) RETURN n.n AS n, n.lpa AS lpa ORDER BY n",
            "CALL gds.louvain.stream('u', {relationshipWeightProperty: 'w'}) YIELD nodeId, communityId WITH communityId, collect(nodeId) AS members RETURN members ORDER BY members[0]",
            "CALL gds.triangleCount.stream('u') YIELD nodeId, triangleCount RETURN nodeId, triangleCount ORDER BY nodeId",
            "CALL gds.triangleCount.stats('u')",
            "CALL gds.triangleCount.stream('u', {maxDegree: 3}) YIELD nodeId, triangleCount RETURN nodeId, triangleCount ORDER BY nodeId",
            "CALL gds.triangleCount.stream('g')",
            "CALL gds.localClusteringCoefficient.stream('u') YIELD nodeId, localClusteringCoefficient RETURN nodeId, localClusteringCoefficient ORDER BY nodeId",
            "CALL gds.localClusteringCoefficient.stats('u')",
            "CALL gds.triangleCount.mutate('u', {mutateProperty: 'tri'}) YIELD nodePropertiesWritten, globalTriangleCount RETURN *",
            "CALL gds.localClusteringCoefficient.stream('u', {triangleCountProperty: 'tri'}) YIELD nodeId, localClusteringCoefficient RETURN nodeId, localClusteringCoefficient ORDER BY nodeId",
            "CALL gds.nodeSimilarity.stream('g') YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.nodeSimilarity.stream('u') YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.nodeSimilarity.stream('u', {similarityMetric: 'overlap', topK: 2}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, similarity DESC, node2",
            "CALL gds.nodeSimilarity.stream('u', {similarityMetric: 'cosine', topN: 3}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY similarity DESC, node1, node2",
            "CALL gds.nodeSimilarity.stream('u', {relationshipWeightProperty: 'w', similarityCutoff: 0.1}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.nodeSimilarity.stats('u')",
            "CALL gds.knn.stream('np', {nodeProperties: ['x'], topK: 2, randomSeed: 42, concurrency: 1}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, similarity DESC",
            "CALL gds.knn.stream('np', {nodeProperties: 'v', topK: 1, randomSeed: 7, concurrency: 1}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1",
            "CALL gds.knn.stats('np', {nodeProperties: 'x', topK: 1, randomSeed: 7, concurrency: 1}) YIELD nodesCompared, similarityPairs, similarityDistribution RETURN *",
            "CALL gds.knn.stream('np', {topK: 1})",
            "CALL gds.knn.stream('np', {nodeProperties: 'nope'})",
        ],
    ),
    (
        "paths and traversals",
        "CREATE (a:P {n:'a'})-[:R {w: 1.5}]->(b:P {n:'b'})-[:R {w: 2}]->(c:P {n:'c'})-[:R {w: 0.5}]->(a), (d:P {n:'d'})-[:R {w: 3}]->(a), (e:P {n:'e'})-[:R {w: 4}]->(d), (f:P {n:'f'}), (b)-[:R {w: 0.25}]->(d), (d)-[:R {w: 5}]->(f), (a)-[:R {w: 10}]->(f), (c)-[:R {w: 1}]->(e)",
        &[
            "CALL gds.graph.project('w', 'P', {R: {properties: 'w'}}) YIELD relationshipCount RETURN *",
            "CALL gds.graph.project('u', 'P', {R: {orientation: 'UNDIRECTED', properties: 'w'}}) YIELD relationshipCount RETURN *",
            "MATCH (s {n: 'a'}), (t {n: 'f'}) CALL gds.shortestPath.dijkstra.stream('w', {sourceNode: s, targetNode: t, relationshipWeightProperty: 'w'}) YIELD index, sourceNode, targetNode, totalCost, nodeIds, costs, path RETURN index, sourceNode, targetNode, totalCost, nodeIds, costs, [n IN nodes(path) | n.n] AS names, [r IN relationships(path) | type(r)] AS types, length(path) AS hops",
            "CALL gds.shortestPath.dijkstra.stream('w', {sourceNode: 0, targetNode: 5}) YIELD index, sourceNode, targetNode, totalCost, nodeIds, costs RETURN *",
            "CALL gds.shortestPath.dijkstra.stream('w', {sourceNode: 0, targetNodes: [4, 5, 2], relationshipWeightProperty: 'w'}) YIELD index, sourceNode, targetNode, totalCost, nodeIds, costs RETURN * ORDER BY index",
            "CALL gds.shortestPath.dijkstra.stream('w', {sourceNode: 5, targetNode: 0}) YIELD index RETURN count(*) AS paths",
            "CALL gds.allShortestPaths.dijkstra.stream('w', {sourceNode: 0, relationshipWeightProperty: 'w'}) YIELD index, sourceNode, targetNode, totalCost, nodeIds, costs RETURN * ORDER BY index",
            "CALL gds.allShortestPaths.dijkstra.stream('u', {sourceNode: 4, relationshipWeightProperty: 'w'}) YIELD index, sourceNode, targetNode, totalCost, nodeIds, costs RETURN * ORDER BY index",
            "CALL gds.shortestPath.dijkstra.stream('w', {sourceNode: 0})",
            "CALL gds.shortestPath.dijkstra.stream('w', {targetNode: 0})",
            "CALL gds.shortestPath.dijkstra.stream('w', {sourceNode: 99, targetNode: 0})",
            "CALL gds.bfs.stream('w', {sourceNode: 0}) YIELD sourceNode, nodeIds, path RETURN sourceNode, nodeIds, [n IN nodes(path) | n.n] AS names, [r IN relationships(path) | type(r)] AS types",
            "CALL gds.bfs.stream('u', {sourceNode: 0}) YIELD sourceNode, nodeIds RETURN *",
            "CALL gds.bfs.stream('u', {sourceNode: 0, maxDepth: 1}) YIELD sourceNode, nodeIds RETURN *",
            "CALL gds.bfs.stream('u', {sourceNode: 0, targetNodes: [3]}) YIELD sourceNode, nodeIds RETURN *",
            "CALL gds.dfs.stream('w', {sourceNode: 0}) YIELD sourceNode, nodeIds RETURN *",
            "CALL gds.dfs.stream('u', {sourceNode: 0}) YIELD sourceNode, nodeIds RETURN *",
            "CALL gds.dfs.stream('u', {sourceNode: 4, maxDepth: 2}) YIELD sourceNode, nodeIds RETURN *",
            "CALL gds.dfs.stream('u', {sourceNode: 0, targetNodes: [4]}) YIELD sourceNode, nodeIds RETURN *",
            "CALL gds.bfs.stats('w', {sourceNode: 0})",
            "CALL gds.shortestPath.dijkstra.write('w', {sourceNode: 0, targetNode: 5, relationshipWeightProperty: 'w', writeRelationshipType: 'SP', writeNodeIds: true, writeCosts: true})",
            "MATCH (a)-[r:SP]->(b) RETURN a.n AS a, b.n AS b, r.totalCost AS cost, r.nodeIds AS ids, r.costs AS costs",
            "CALL gds.allShortestPaths.dijkstra.write('w', {sourceNode: 0, writeRelationshipType: 'ASP'}) YIELD relationshipsWritten RETURN *",
            "MATCH (a)-[r:ASP]->(b) RETURN a.n AS a, b.n AS b, r.totalCost AS cost ORDER BY b",
            "CALL gds.nodeSimilarity.write('w', {writeRelationshipType: 'SIM', writeProperty: 'score'}) YIELD nodesCompared, relationshipsWritten, similarityDistribution RETURN *",
            "MATCH (a)-[r:SIM]->(b) RETURN a.n AS a, b.n AS b, r.score AS score ORDER BY a, b",
            "CALL gds.shortestPath.dijkstra.mutate('w', {sourceNode: 0, targetNode: 5, relationshipWeightProperty: 'w', mutateRelationshipType: 'MSP'})",
            "CALL gds.bfs.mutate('u', {sourceNode: 0, mutateRelationshipType: 'BFS'}) YIELD relationshipsWritten RETURN *",
            "CALL gds.dfs.mutate('u', {sourceNode: 0, mutateRelationshipType: 'DFS'}) YIELD relationshipsWritten RETURN *",
            "CALL gds.nodeSimilarity.mutate('u', {mutateRelationshipType: 'SIM', mutateProperty: 'score', relationshipTypes: ['R']}) YIELD nodesCompared, relationshipsWritten RETURN *",
            "CALL gds.nodeSimilarity.stream('u', {relationshipTypes: ['R', 'BFS', 'DFS']}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.graph.relationships.stream('u', ['BFS', 'DFS']) YIELD sourceNodeId, targetNodeId, relationshipType RETURN relationshipType, sourceNodeId, targetNodeId ORDER BY relationshipType, sourceNodeId, targetNodeId",
            "CALL gds.graph.nodeProperty.stream('u', 'nope')",
            "CALL gds.graph.list('w') YIELD relationshipCount, schema, schemaWithOrientation RETURN *",
            "CALL gds.graph.relationshipProperty.stream('w', 'totalCost', ['MSP']) YIELD sourceNodeId, targetNodeId, relationshipType, propertyValue RETURN *",
            "CALL gds.graph.relationshipProperties.stream('u', ['w'], ['R']) YIELD relationshipProperty, propertyValue RETURN relationshipProperty, count(*) AS n, sum(propertyValue) AS total",
            "CALL gds.graph.relationships.stream('u', ['NOPE'])",
            "CALL gds.graph.list('u') YIELD relationshipCount, schema, schemaWithOrientation RETURN *",
            "CALL gds.shortestPath.dijkstra.mutate('w', {sourceNode: 0, targetNode: 5, mutateRelationshipType: 'MSP'})",
            "CALL gds.degree.stream('u', {relationshipTypes: ['BFS']}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.degree.stream('u', {relationshipTypes: 'NOPE'})",
            "CALL gds.degree.stream('u', {nodeLabels: ['NOPE']})",
            "CALL gds.pageRank.stream('w', {relationshipWeightProperty: 'w'}) YIELD nodeId RETURN count(*) AS n",
            "CALL gds.pageRank.stream('w', {relationshipTypes: ['R'], relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
        ],
    ),
    (
        "Cypher projections",
        "CREATE (a:P {n:'a', x: 1})-[:R {w: 1.5}]->(b:P {n:'b', x: 2})-[:R {w: 2}]->(c:P:Q {n:'c'})-[:S {w: 0.5}]->(a), (d:Q {n:'d', x: 4.0}), (b)-[:S {w: 3}]->(d), (e:P {n:'e', x: 3})",
        &[
            "MATCH (s:P) OPTIONAL MATCH (s)-[r]->(t) WITH gds.graph.project('c', s, t, {sourceNodeLabels: labels(s), targetNodeLabels: labels(t), sourceNodeProperties: s {.x}, targetNodeProperties: t {.x}, relationshipType: type(r), relationshipProperties: r {.w}}) AS g WITH g, g.configuration AS c RETURN g {.graphName, .nodeCount, .relationshipCount, .query} AS g, c {.undirectedRelationshipTypes, .inverseIndexedRelationshipTypes, .readConcurrency, .logProgress, .query} AS c",
            "CALL gds.graph.list('c') YIELD schema, schemaWithOrientation, nodeCount, relationshipCount, degreeDistribution, density RETURN *",
            "CALL gds.pageRank.stream('c') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.wcc.stream('c') YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.graph.nodeProperty.stream('c', 'x') YIELD nodeId, propertyValue RETURN nodeId, propertyValue ORDER BY nodeId",
            "CALL gds.shortestPath.dijkstra.stream('c', {sourceNode: 0, targetNode: 3, relationshipWeightProperty: 'w'}) YIELD totalCost, nodeIds, costs RETURN *",
            "MATCH (s)-->(t) RETURN gds.graph.project('u', s, t, {}, {undirectedRelationshipTypes: ['*']}).relationshipCount AS rels",
            "CALL gds.graph.list('u') YIELD schema, schemaWithOrientation, nodeCount, configuration RETURN schema, schemaWithOrientation, nodeCount, configuration.undirectedRelationshipTypes AS undirected",
            "CALL gds.louvain.stream('u') YIELD nodeId, communityId WITH communityId, collect(nodeId) AS members RETURN members ORDER BY members[0]",
            "CALL gds.wcc.stream('u') YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "MATCH (s) RETURN gds.graph.project('c', s).graphName AS g",
            "MATCH (s:Q) RETURN gds.graph.project('q', s, null, {sourceNodeProperties: s {.x}}).nodeCount AS g",
            "MATCH (s:Q) RETURN gds.graph.project('q', s, null, {sourceNodeProperties: s {.x}, targetNodeProperties: null}).nodeCount AS g",
            "MATCH (s:P) RETURN gds.graph.project('bad', s, null, {sourceNodeProperties: {x: CASE s.n WHEN 'e' THEN 2.5 ELSE 1 END}, targetNodeProperties: null}).nodeCount AS g",
            "MATCH (s:P) RETURN gds.graph.project('fine', s, null, {sourceNodeProperties: {x: CASE s.n WHEN 'e' THEN 2.0 ELSE 1 END}, targetNodeProperties: null}).nodeCount AS g",
            "CALL gds.graph.nodeProperty.stream('fine', 'x') YIELD nodeId, propertyValue RETURN nodeId, propertyValue ORDER BY nodeId",
            "CALL gds.graph.list('q') YIELD schema RETURN *",
            "MATCH (s) RETURN gds.graph.project('', s) AS g",
            "CALL gds.graph.project.cypher('c3', 'MATCH (n) RETURN id(n) AS id, labels(n) AS labels, n.x AS x', 'MATCH (a)-[r]->(b) RETURN id(a) AS source, id(b) AS target, type(r) AS type, r.w AS w') YIELD graphName, nodeCount, relationshipCount, nodeQuery, relationshipQuery RETURN *",
            "CALL gds.graph.list('c3') YIELD schema, schemaWithOrientation, configuration RETURN *",
            "CALL gds.degree.stream('c3', {relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.graph.project.cypher('c4', 'MATCH (n:P) RETURN id(n) AS id', 'MATCH (a)-[r]->(b) RETURN id(a) AS source, id(b) AS target')",
            "CALL gds.graph.project.cypher('c4', 'MATCH (n:P) RETURN id(n) AS id', 'MATCH (a)-[r]->(b) RETURN id(a) AS source, id(b) AS target', {validateRelationships: false}) YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.graph.list('c4') YIELD schema RETURN *",
            "CALL gds.graph.project.cypher('c5', 'MATCH (n) RETURN id(n) AS nid', 'RETURN 1 AS source, 2 AS target')",
            "CALL gds.graph.project.cypher('c6', 'MATCH (n) RETURN id(n) AS id, CASE n.n WHEN \\'e\\' THEN 2.5 ELSE 1 END AS x', 'RETURN 1 AS source, 2 AS target')",
            "CALL gds.graph.project.cypher('c5', 'MATCH (n) WHERE n.x > $min RETURN id(n) AS id', 'MATCH (a)-->(b) RETURN id(a) AS source, id(b) AS target', {parameters: {min: 1}, validateRelationships: false}) YIELD nodeCount, relationshipCount RETURN *",
        ],
    ),
    (
        "a larger pseudo-random graph",
        "UNWIND range(0, 59) AS i CREATE (n:N {i: i, x: toFloat((i * i * 37) % 1009) / 7.0}) WITH n, i FOREACH (_ IN CASE WHEN i % 2 = 0 THEN [1] ELSE [] END | SET n:A) FOREACH (_ IN CASE WHEN i % 3 = 0 THEN [1] ELSE [] END | SET n:B) WITH count(*) AS created MATCH (a:N), (b:N) WHERE a <> b AND ((a.i * 7 + b.i * 13) % 23 = 0 OR (a.i + 1) % 60 = b.i AND a.i % 5 = 0) CREATE (a)-[:L {w: toFloat(((a.i * 31 + b.i * 17) % 11) + 1) / 2.0}]->(b)",
        &[
            "CALL gds.graph.project('d', 'N', {L: {properties: 'w'}}) YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.graph.project('u', ['A', 'B'], {L: {orientation: 'UNDIRECTED', properties: 'w'}}) YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.graph.project('x', {N: {properties: 'x'}}, 'L') YIELD nodeCount RETURN *",
            "CALL gds.pageRank.stream('d') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.stream('u', {relationshipWeightProperty: 'w', dampingFactor: 0.7}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.pageRank.stats('d', {tolerance: 0.0001, maxIterations: 50}) YIELD ranIterations, didConverge, centralityDistribution RETURN *",
            "CALL gds.articleRank.stream('d', {relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.degree.stream('d', {orientation: 'REVERSE', relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.betweenness.stream('d') YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.betweenness.stream('u', {relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.betweenness.stats('u') YIELD centralityDistribution RETURN *",
            "CALL gds.wcc.stream('d') YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.wcc.stats('u') YIELD componentCount, componentDistribution RETURN *",
            "CALL gds.labelPropagation.stream('u') YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.labelPropagation.stream('d', {maxIterations: 4}) YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.louvain.stream('u') YIELD nodeId, communityId WITH communityId, collect(nodeId) AS members RETURN members ORDER BY members[0]",
            "CALL gds.louvain.stats('u') YIELD modularity, ranLevels, communityCount RETURN *",
            "CALL gds.triangleCount.stream('u') YIELD nodeId, triangleCount RETURN nodeId, triangleCount ORDER BY nodeId",
            "CALL gds.localClusteringCoefficient.stats('u') YIELD averageClusteringCoefficient, nodeCount RETURN *",
            "CALL gds.nodeSimilarity.stream('d', {topK: 3}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.nodeSimilarity.stats('u', {topK: 2, similarityCutoff: 0.2}) YIELD nodesCompared, similarityPairs, similarityDistribution RETURN *",
            "CALL gds.knn.stream('x', {nodeProperties: 'x', topK: 2, concurrency: 1, randomSeed: 11}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, similarity DESC",
            "CALL gds.allShortestPaths.dijkstra.stream('d', {sourceNode: 0, relationshipWeightProperty: 'w'}) YIELD index, targetNode, totalCost, nodeIds RETURN index, targetNode, totalCost, nodeIds ORDER BY index",
            "CALL gds.allShortestPaths.dijkstra.stream('u', {sourceNode: 2}) YIELD index, targetNode, totalCost, nodeIds RETURN index, targetNode, totalCost, nodeIds ORDER BY index",
            "CALL gds.bfs.stream('d', {sourceNode: 0}) YIELD nodeIds RETURN nodeIds",
            "CALL gds.dfs.stream('u', {sourceNode: 2}) YIELD nodeIds RETURN nodeIds",
            "CALL gds.dfs.stream('d', {sourceNode: 5, maxDepth: 3}) YIELD nodeIds RETURN nodeIds",
        ],
    ),
    (
        "several relationship types, a second pseudo-random graph",
        "UNWIND range(0, 44) AS i CREATE (n:M {i: i, v: [toFloat(i % 7) - 3.0, toFloat((i * 5) % 11) / 3.0, 1.0], tags: [i % 4, (i * 3) % 5, i % 6]}) WITH count(*) AS created MATCH (a:M), (b:M) WHERE a <> b AND (a.i * 11 + b.i * 5) % 19 = 0 CREATE (a)-[:KNOWS {w: toFloat((a.i + b.i) % 4) + 0.5}]->(b) WITH count(*) AS k MATCH (a:M), (b:M) WHERE a <> b AND (a.i * 3 + b.i * 17) % 29 = 0 CREATE (a)-[:LIKES {w: toFloat((a.i * b.i) % 3) + 1.0}]->(b)",
        &[
            "CALL gds.graph.project('g', {M: {properties: ['v', 'tags']}}, {KNOWS: {properties: 'w'}, LIKES: {properties: 'w'}}) YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.graph.project('u', 'M', {KNOWS: {orientation: 'UNDIRECTED', properties: 'w'}, LIKES: {orientation: 'UNDIRECTED', properties: 'w'}}) YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.louvain.stream('u') YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.louvain.stream('u', {relationshipWeightProperty: 'w', includeIntermediateCommunities: true}) YIELD nodeId, communityId, intermediateCommunityIds RETURN nodeId, communityId, intermediateCommunityIds ORDER BY nodeId",
            "CALL gds.louvain.stats('u', {relationshipWeightProperty: 'w'}) YIELD modularity, modularities, ranLevels, communityCount, communityDistribution RETURN *",
            "CALL gds.louvain.stream('g', {maxLevels: 1}) YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.labelPropagation.stream('u', {relationshipWeightProperty: 'w'}) YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.nodeSimilarity.stream('g', {topK: 3}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.nodeSimilarity.stream('g', {topK: 2, relationshipWeightProperty: 'w'}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.nodeSimilarity.stream('u', {topN: 10, topK: 4}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.knn.stream('g', {nodeProperties: 'v', topK: 3, randomSeed: 19, concurrency: 1}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.knn.stream('g', {nodeProperties: ['v', 'tags'], topK: 2, randomSeed: 3, concurrency: 1, sampleRate: 0.8, randomJoins: 4}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.knn.stats('g', {nodeProperties: {tags: 'OVERLAP'}, topK: 4, randomSeed: 5, concurrency: 1}) YIELD ranIterations, didConverge, nodePairsConsidered, nodesCompared, similarityPairs, similarityDistribution RETURN *",
            "CALL gds.knn.stream('g', {nodeProperties: 'v', topK: 2, randomSeed: 8, concurrency: 1, similarityCutoff: 0.9, perturbationRate: 0.3}) YIELD node1, node2, similarity RETURN node1, node2, similarity ORDER BY node1, node2",
            "CALL gds.bfs.stream('g', {sourceNode: 1}) YIELD nodeIds RETURN nodeIds",
            "CALL gds.dfs.stream('g', {sourceNode: 1}) YIELD nodeIds RETURN nodeIds",
            "CALL gds.shortestPath.dijkstra.stream('u', {sourceNode: 0, targetNodes: [7, 30, 44], relationshipWeightProperty: 'w'}) YIELD index, targetNode, totalCost, nodeIds, costs RETURN index, targetNode, totalCost, nodeIds, costs ORDER BY index",
            "CALL gds.betweenness.stream('g', {relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.wcc.stream('g', {relationshipTypes: ['LIKES']}) YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.pageRank.stream('g', {relationshipTypes: ['KNOWS'], relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.triangleCount.stats('u') YIELD globalTriangleCount, nodeCount RETURN *",
            "CALL gds.localClusteringCoefficient.stream('u') YIELD nodeId, localClusteringCoefficient RETURN nodeId, localClusteringCoefficient ORDER BY nodeId",
        ],
    ),
    (
        "seeds, sampling and aggregations",
        "CREATE (a:S {n:'a', seed: 5})-[:R {w: 1.0}]->(b:S {n:'b', seed: 3})-[:R {w: 2.0}]->(c:S {n:'c'}), (a)-[:R {w: 4.0}]->(b), (a)-[:R]->(b), (d:S {n:'d', seed: 9})-[:R {w: 0.5}]->(e:S {n:'e'}), (f:S {n:'f'}), (c)-[:R {w: 3.0}]->(a), (e)-[:R {w: 1.5}]->(e), (g:S {n:'g'})-[:R {w: 2.5}]->(h:S {n:'h', seed: 1}), (h)-[:R {w: 1.0}]->(c)",
        &[
            "CALL gds.graph.project('s', {S: {properties: 'seed'}}, {R: {properties: 'w'}}) YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.graph.project('su', {S: {properties: 'seed'}}, {R: {orientation: 'UNDIRECTED'}}) YIELD nodeCount, relationshipCount RETURN *",
            "CALL gds.wcc.stream('s', {seedProperty: 'seed'}) YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.wcc.stream('s', {seedProperty: 'seed', consecutiveIds: true})",
            "CALL gds.wcc.stream('s', {seedProperty: 'nope'})",
            "CALL gds.wcc.stream('s', {threshold: 1.0})",
            "CALL gds.wcc.stream('s', {relationshipWeightProperty: 'w', threshold: 1.0, seedProperty: 'seed'}) YIELD nodeId, componentId RETURN nodeId, componentId ORDER BY nodeId",
            "CALL gds.wcc.stats('su', {seedProperty: 'seed'}) YIELD componentCount, componentDistribution RETURN *",
            "CALL gds.louvain.stream('su', {seedProperty: 'seed'}) YIELD nodeId, communityId, intermediateCommunityIds RETURN nodeId, communityId, intermediateCommunityIds ORDER BY nodeId",
            "CALL gds.louvain.stream('su') YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.louvain.stream('su', {includeIntermediateCommunities: true, consecutiveIds: true})",
            "CALL gds.labelPropagation.stream('su', {seedProperty: 'seed'}) YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.labelPropagation.stream('s', {seedProperty: 'seed', relationshipWeightProperty: 'w'}) YIELD nodeId, communityId RETURN nodeId, communityId ORDER BY nodeId",
            "CALL gds.betweenness.stream('su', {samplingSize: 3, samplingSeed: 42}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.betweenness.stream('s', {samplingSize: 4, samplingSeed: 7}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.betweenness.stream('s', {samplingSize: 0, samplingSeed: 7}) YIELD nodeId, score RETURN sum(score) AS total",
            "CALL gds.betweenness.stream('s', {samplingSize: -1})",
            "CALL gds.betweenness.stream('s', {samplingSize: 100}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
            "CALL gds.graph.project('sum', 'S', {R: {properties: {w: {property: 'w', aggregation: 'SUM'}}}}) YIELD relationshipProjection, relationshipCount RETURN *",
            "CALL gds.graph.relationshipProperty.stream('sum', 'w') YIELD sourceNodeId, targetNodeId, propertyValue RETURN sourceNodeId, targetNodeId, propertyValue ORDER BY sourceNodeId, targetNodeId",
            "CALL gds.graph.list('sum') YIELD schema, schemaWithOrientation RETURN *",
            "CALL gds.graph.project('single', 'S', {R: {aggregation: 'single'}}) YIELD relationshipProjection, relationshipCount RETURN *",
            "CALL gds.graph.project('mm', 'S', {R: {properties: {lo: {property: 'w', aggregation: 'MIN'}, hi: {property: 'w', aggregation: 'MAX'}, n: {property: '*', aggregation: 'COUNT'}, c: {property: 'w', aggregation: 'COUNT'}}}}) YIELD relationshipCount RETURN *",
            "CALL gds.graph.relationshipProperties.stream('mm', ['lo', 'hi', 'n', 'c']) YIELD sourceNodeId, targetNodeId, relationshipProperty, propertyValue RETURN sourceNodeId, targetNodeId, relationshipProperty, propertyValue ORDER BY sourceNodeId, targetNodeId, relationshipProperty",
            "CALL gds.graph.project('bad1', 'S', {R: {aggregation: 'NONE', properties: {w: {property: 'w', aggregation: 'SUM'}}}})",
            "CALL gds.graph.project('bad2', 'S', {R: {aggregation: 'bogus'}})",
            "CALL gds.graph.project('bad3', 'S', {R: {properties: {n: {property: '*', aggregation: 'SUM'}}}})",
            "CALL gds.graph.project('uu', 'S', {R: {orientation: 'UNDIRECTED', aggregation: 'SINGLE'}}) YIELD relationshipCount RETURN *",
            "CALL gds.graph.project('us', 'S', {R: {orientation: 'UNDIRECTED', properties: {w: {property: 'w', aggregation: 'SUM', defaultValue: 1.0}}}}) YIELD relationshipCount RETURN *",
            "CALL gds.graph.relationshipProperty.stream('us', 'w') YIELD sourceNodeId, targetNodeId, propertyValue RETURN sourceNodeId, targetNodeId, propertyValue ORDER BY sourceNodeId, targetNodeId",
            "CALL gds.pageRank.stream('sum', {relationshipWeightProperty: 'w'}) YIELD nodeId, score RETURN nodeId, score ORDER BY nodeId",
        ],
    ),
];

/// Columns whose values GDS makes anew each time or measures in its own memory.
const UNSTABLE: &[&str] = &[
    "projectMillis",
    "preProcessingMillis",
    "computeMillis",
    "postProcessingMillis",
    "mutateMillis",
    "writeMillis",
    "creationTime",
    "modificationTime",
    "memoryUsage",
    "sizeInBytes",
];

/// A statement's answer as JSON: `{"columns", "rows"}` or `{"error": code, "message"}`, with
/// the unstable columns and configuration job ids left out.
fn answer(result: Result<grape::engine::Table, BackendError>) -> Json {
    match result {
        Ok(t) => {
            let keep: Vec<usize> = (0..t.columns.len())
                .filter(|i| !UNSTABLE.contains(&t.columns[*i].as_str()))
                .collect();
            let rows: Vec<Json> = t
                .rows
                .iter()
                .map(|r| {
                    Json::Array(
                        keep.iter()
                            .map(|&i| {
                                let mut v = grape::graph::import::value_to_json(&r[i], &t);
                                if let Some(m) = v.as_object_mut() {
                                    m.remove("jobId");
                                }
                                v
                            })
                            .collect(),
                    )
                })
                .collect();
            let columns: Vec<&String> = keep.iter().map(|&i| &t.columns[i]).collect();
            json!({"columns": columns, "rows": rows})
        }
        Err(e) => {
            let message = e
                .server
                .as_ref()
                .map_or(e.message.clone(), |s| s.message.clone());
            json!({"error": e.code, "message": message})
        }
    }
}

fn run_case(db: &dyn Backend, script: &str, statements: &[&str]) -> Vec<Json> {
    db.run(script, &Default::default())
        .expect("the case's graph");
    statements
        .iter()
        .map(|q| answer(db.run(q, &Default::default())))
        .collect()
}

/// Equal, floats to 1e-9 (relative).
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn recording_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gds_oracle.json")
}

fn recording() -> Json {
    serde_json::from_str(&std::fs::read_to_string(recording_path()).unwrap()).unwrap()
}

#[test]
fn grape_answers_as_gds_does() {
    let want = recording();
    let mut differ = Vec::new();
    for (i, (name, script, statements)) in CASES.iter().enumerate() {
        let db = grape::backend::Memory::new(grape::graph::Graph::default());
        let got = run_case(&db, script, statements);
        for (j, (q, g)) in statements.iter().zip(&got).enumerate() {
            let w = &want[i]["answers"][j];
            if !same(w, g) {
                differ.push(format!("{name}: {q}\n  GDS:   {w}\n  grape: {g}"));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn the_gds_oracle_gives_the_recording() {
    let Ok(uri) = std::env::var("GRAPE_NEO4J_GDS_URI") else {
        eprintln!(
            "SKIPPED: no GDS oracle (GRAPE_NEO4J_GDS_URI; scripts/neo4j-oracle start DIR --gds)"
        );
        return;
    };
    let auth = std::env::var("GRAPE_NEO4J_GDS_AUTH").unwrap_or_default();
    let (user, password) = auth.split_once(':').unwrap_or(("neo4j", ""));
    // Each case on a new store (node ids from 0, as grape numbers them): the oracle's folder.
    let dir = std::env::var("GRAPE_NEO4J_GDS_DIR")
        .expect("GRAPE_NEO4J_GDS_DIR names the oracle's folder");
    let mut cases = Vec::new();
    for (name, script, statements) in CASES {
        let script_path = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/neo4j-oracle");
        let out = std::process::Command::new(script_path)
            .args(["reset", &dir])
            .output()
            .expect("scripts/neo4j-oracle reset");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut c = grape::backend::neo4j::Neo4jConfig::new(uri.clone());
        c.user = user.into();
        c.password = password.into();
        let db = grape::backend::neo4j::Neo4j::connect(c).expect("the GDS oracle");
        let answers = run_case(&db, script, statements);
        cases.push(json!({"case": name, "statements": statements, "answers": answers}));
    }
    let live = Json::Array(cases);
    if std::env::var("GRAPE_GDS_BLESS").as_deref() == Ok("1") {
        std::fs::write(
            recording_path(),
            serde_json::to_string_pretty(&live).unwrap() + "\n",
        )
        .unwrap();
        return;
    }
    assert!(
        same(&live, &recording()),
        "GDS's answers changed since they were recorded"
    );
}
