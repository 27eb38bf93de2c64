// A query corpus written for grape: questions over a small movie graph, in the forms that
// text-to-Cypher systems produce (Neo4j 5 syntax included). Statements end with `;`.

// Direct property access
MATCH (m:Movie {title: 'The Matrix'}) RETURN m.released AS released;
MATCH (p:Person) WHERE p.name = "Keanu Reeves" RETURN p.born AS born;

// Filtering with inline WHERE (Neo4j 5)
MATCH (m:Movie WHERE m.released >= 2000 AND m.released < 2010) RETURN m.title AS title ORDER BY title;

// One hop, both directions
MATCH (p:Person)-[:ACTED_IN]->(m:Movie {title: 'Top Gun'}) RETURN p.name AS actor;
MATCH (m:Movie)<-[:DIRECTED]-(d:Person) RETURN d.name AS director, count(m) AS movies ORDER BY movies DESC LIMIT 5;
MATCH (a:Person)-[:ACTED_IN]-(m:Movie) WHERE a.name STARTS WITH 'Tom' RETURN DISTINCT m.title AS title;

// Two hops and more
MATCH (a:Person {name: 'Tom Hanks'})-[:ACTED_IN]->(m:Movie)<-[:ACTED_IN]-(co:Person)
RETURN co.name AS coActor, collect(m.title) AS together
ORDER BY size(together) DESC, coActor ASC
LIMIT 10;
MATCH (a:Person)-[:ACTED_IN]->(:Movie)<-[:DIRECTED]-(d:Person)-[:PRODUCED]->(p:Movie)
WHERE a <> d
RETURN a.name AS actor, d.name AS director, count(DISTINCT p) AS produced;

// Aggregation with implicit grouping
MATCH (m:Movie) RETURN m.released / 10 * 10 AS decade, count(*) AS movies, avg(m.rating) AS rating ORDER BY decade;
MATCH (p:Person)-[r:REVIEWED]->(m:Movie)
WITH m, avg(r.rating) AS score, count(r) AS reviews
WHERE reviews > 1
RETURN m.title AS title, round(score, 2) AS score
ORDER BY score DESC;

// Variable length and shortest paths
MATCH (a:Person {name: 'Kevin Bacon'})-[:ACTED_IN*1..4]-(b:Person) RETURN DISTINCT b.name AS name;
MATCH p = shortestPath((a:Person {name: 'Kevin Bacon'})-[*..6]-(b:Person {name: 'Meg Ryan'})) RETURN length(p) AS hops;
MATCH p = SHORTEST 1 (a:Person {name: 'Kevin Bacon'})-[:ACTED_IN]-+(b:Person {name: 'Al Pacino'}) RETURN [n IN nodes(p) | n.name] AS chain;
MATCH (a:Person) ((x)-[:FOLLOWS]->(y)){1,3} (b:Person) WHERE a.name = 'Jessica Thompson' RETURN b.name AS reached;

// Existence, counting and collecting subqueries
MATCH (p:Person) WHERE EXISTS { (p)-[:DIRECTED]->(:Movie) } AND NOT (p)-[:ACTED_IN]->() RETURN p.name AS director;
MATCH (p:Person) RETURN p.name AS name, COUNT { (p)-[:ACTED_IN]->() } AS roles ORDER BY roles DESC LIMIT 3;
MATCH (m:Movie) RETURN m.title AS title, COLLECT { MATCH (m)<-[:ACTED_IN]-(a) RETURN a.name ORDER BY a.name } AS cast;

// Optional match and null handling
MATCH (m:Movie) OPTIONAL MATCH (m)<-[r:REVIEWED]-() RETURN m.title AS title, coalesce(avg(r.rating), 0) AS rating;
MATCH (p:Person) WHERE p.born IS NULL RETURN count(p) AS unknownBirth;

// Lists, maps, CASE, comprehensions
UNWIND ['The Matrix', 'Cloud Atlas'] AS t MATCH (m:Movie {title: t}) RETURN t, m.released AS year;
MATCH (m:Movie) RETURN m {.title, .released, age: date().year - m.released} AS movie LIMIT 3;
MATCH (p:Person) RETURN p.name AS name, CASE WHEN p.born < 1950 THEN 'classic' WHEN p.born < 1980 THEN 'modern' ELSE 'new' END AS era;
MATCH (m:Movie) WITH collect(m.released) AS years RETURN reduce(total = 0, y IN years | total + y) / size(years) AS meanYear;
MATCH (p:Person)-[:ACTED_IN]->(m) RETURN p.name AS name, [(p)-[:DIRECTED]->(d) | d.title] AS directed LIMIT 5;
MATCH (m:Movie) WHERE any(tag IN m.tags WHERE tag =~ '(?i)sci.*') RETURN m.title AS title;
RETURN 0x1F AS hex, 0o17 AS octal, 1.5e3 AS float, .5 AS half, -9223372036854775808 AS smallest, 'it\'s \u00e9' AS text;

// Label expressions, type predicates, parameters
MATCH (n:Person|Movie) RETURN labels(n) AS labels, count(*) AS n;
MATCH (n:!Movie&%) RETURN count(n) AS notMovies;
MATCH (m:Movie) WHERE m.released IS :: INTEGER NOT NULL AND m.title IN $titles RETURN m.title AS title;
MATCH (m:Movie) WHERE m.title = $0 RETURN m;

// Unions, procedures, subqueries
MATCH (p:Person) RETURN p.name AS name UNION MATCH (m:Movie) RETURN m.title AS name;
MATCH (p:Person) RETURN p.name AS name UNION ALL MATCH (p:Person) RETURN p.name AS name;
CALL db.labels() YIELD label RETURN label ORDER BY label;
CALL db.schema.visualization();
CALL apoc.meta.schema() YIELD value RETURN value;
MATCH (m:Movie) CALL (m) { MATCH (m)<-[:ACTED_IN]-(a) RETURN count(a) AS castSize } RETURN m.title AS title, castSize;

// Writes
CREATE (m:Movie {title: 'Grape', released: 2026})-[:IN_GENRE]->(:Genre {name: 'Documentary'});
MERGE (p:Person {name: 'Ada'}) ON CREATE SET p.created = timestamp() ON MATCH SET p.seen = coalesce(p.seen, 0) + 1;
MATCH (m:Movie {title: 'Grape'}) SET m:Indie, m += {rating: 9} REMOVE m.draft;
MATCH (m:Movie {title: 'Grape'}) DETACH DELETE m;
UNWIND range(1, 3) AS i FOREACH (x IN [i] | CREATE (:Tick {i: x}));
LOAD CSV WITH HEADERS FROM 'file:///movies.csv' AS row FIELDTERMINATOR ';' MERGE (:Movie {title: row.title});
EXPLAIN MATCH (m:Movie)-[:IN_GENRE]->(g) RETURN g.name, count(*);
