// The graph the MCP contract tests serve (tests/mcp_contracts.rs): every value type a tool
// result can carry, loaded alike into grape and into the Neo4j oracle.
CREATE (ann:Person {name: 'Ann', age: 37, score: 4.5, active: true, tags: ['a', 'b'], born: date('1988-04-02')})
CREATE (bob:Person {name: 'Bob', age: 41, nick: '', seen: datetime('2024-05-06T07:08:09.123+02:00')})
CREATE (cat:Person:Admin {name: 'Čáp ☃', local: localdatetime('2024-01-02T03:04:05'), at: time('10:11:12+01:00'), lt: localtime('23:59:59.5')})
CREATE (doc:Document {title: 'Guide', embedding: [x IN range(1, 130) | x / 10.0], short: [1, 2, 3], pages: 12, wait: duration('P1Y2M3DT4H5M6.5S')})
CREATE (pl:Place {name: 'Lab', loc: point({latitude: 51.5, longitude: -0.12}), xy: point({x: 1.5, y: 2.0}), xyz: point({x: 1, y: 2, z: 3})})
CREATE (ann)-[:KNOWS {since: 2010, weight: 0.5}]->(bob)
CREATE (bob)-[:KNOWS {since: 2015}]->(cat)
CREATE (ann)-[:WROTE {on: date('2020-01-01')}]->(doc)
CREATE (cat)-[:WORKS_AT]->(pl)
CREATE (pl)-[:NEAR]->(pl)
