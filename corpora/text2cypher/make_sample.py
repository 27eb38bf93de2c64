"""Writes the text2cypher-format sample (sample.jsonl, sample.csv, predictions.jsonl): our own
questions over graphs/movies.cypher and graphs/companies.cypher, in the field layout of Neo4j's
text2cypher-2024v1 / 2025v1 datasets (see README.md)."""

import csv
import json

MOVIES = """Node properties:
- **Movie**
  - `title`: STRING Example: "The Quiet Orbit"
  - `released`: INTEGER Min: 1999, Max: 2011
  - `rating`: FLOAT Min: 6.4, Max: 8.2
- **Person**
  - `name`: STRING Example: "Ada Brook"
  - `born`: INTEGER Min: 1965, Max: 1982
- **Genre**
  - `name`: STRING Available options: ['Drama', 'Comedy']
Relationship properties:
- **ACTED_IN**
  - `role: STRING` Example: "Captain"
The relationships:
(:Person)-[:ACTED_IN]->(:Movie)
(:Person)-[:DIRECTED]->(:Movie)
(:Movie)-[:IN_GENRE]->(:Genre)"""

COMPANIES = """Node properties are the following:
Organization {name: STRING, employees: INTEGER, public: BOOLEAN}
Person {name: STRING}
City {name: STRING}
Relationship properties are the following:

The relationships are the following:
(:Person)-[:CEO_OF]->(:Organization)
(:Organization)-[:LOCATED_IN]->(:City)
(:Organization)-[:SUPPLIES]->(:Organization)"""

# A schema with no database behind it (text-only examples, as many in Neo4j's datasets).
LIBRARY = """Node properties:
Book {title: STRING, year: INTEGER}
Author {name: STRING}
Relationship properties:

The relationships:
(:Author)-[:WROTE]->(:Book)"""

EXAMPLES = [
    ("movies", MOVIES, "Which movies did Ada Brook act in?",
     "MATCH (p:Person {name: 'Ada Brook'})-[:ACTED_IN]->(m:Movie) RETURN m.title",
     "MATCH (p:Person {name: 'Ada Brook'})-[:ACTED_IN]->(m:Movie) RETURN m.title AS title"),
    ("movies", MOVIES, "How many movies are in the Drama genre?",
     "MATCH (m:Movie)-[:IN_GENRE]->(:Genre {name: 'Drama'}) RETURN count(m)",
     "MATCH (m:Movie)-[:IN_GENRE]->(g:Genre) WHERE g.name = 'Drama' RETURN count(*)"),
    ("movies", MOVIES, "List the movies released after 2000, newest first.",
     "MATCH (m:Movie) WHERE m.released > 2000 RETURN m.title ORDER BY m.released DESC",
     "MATCH (m:Movie) WHERE m.released > 2000 RETURN m.title ORDER BY m.released"),
    ("movies", MOVIES, "Who directed The Quiet Orbit?",
     "MATCH (p:Person)-[:DIRECTED]->(:Movie {title: 'The Quiet Orbit'}) RETURN p.name",
     "MATCH (p:Person)<-[:DIRECTED]-(:Movie {title: 'The Quiet Orbit'}) RETURN p.name"),
    ("movies", MOVIES, "What is the average rating of movies Milo Grant acted in?",
     "MATCH (:Person {name: 'Milo Grant'})-[:ACTED_IN]->(m:Movie) RETURN avg(m.rating)",
     "MATCH (:Person {name: 'Milo Grant'})-[:ACTED_IN]->(m:Movie) RETURN avg(m.score)"),
    ("companies", COMPANIES, "Which organizations are located in Oslo?",
     "MATCH (o:Organization)-[:LOCATED_IN]->(:City {name: 'Oslo'}) RETURN o.name",
     "MATCH (o:Organization)-[:LOCATED_IN]->(:City {name: 'Oslo'}) RETURN o.name"),
    ("companies", COMPANIES, "Who is the CEO of Northwind Freight?",
     "MATCH (p:Person)-[:CEO_OF]->(:Organization {name: 'Northwind Freight'}) RETURN p.name",
     "MATCH (p:Person)-[:CEO_OF]->(o:Organization) WHERE o.name = 'Northwind Freight' RETURN p.name"),
    ("companies", COMPANIES, "How many public organizations are there?",
     "MATCH (o:Organization) WHERE o.public = true RETURN count(o)",
     "MATCH (o:Organization {public: true}) RETURN count(o)"),
    ("companies", COMPANIES, "Which organizations supply Northwind Freight?",
     "MATCH (o:Organization)-[:SUPPLIES]->(:Organization {name: 'Northwind Freight'}) RETURN o.name",
     "MATCH (o:Company)-[:SUPPLIES]->(:Company {name: 'Northwind Freight'}) RETURN o.name"),
    (None, LIBRARY, "Which books did Ann Lee write?",
     "MATCH (a:Author {name: 'Ann Lee'})-[:WROTE]->(b:Book) RETURN b.title",
     "MATCH (a:Author {name: 'Ann Lee'})-[:WROTE]->(b:Book) RETURN b.title"),
    (None, LIBRARY, "How many books were written before 1900?",
     "MATCH (b:Book) WHERE b.year < 1900 RETURN count(b)",
     "MATCH (b:Book WHERE b.year < 1900) RETURN count(b)"),
    (None, LIBRARY, "Name the authors of books from 1954.",
     "MATCH (a:Author)-[:WROTE]->(b:Book {year: 1954}) RETURN a.name",
     "MATCH (a:Author)-[:WROTE]->(b:Book {published: 1954}) RETURN a.name"),
]

FIELDS = ["question", "schema", "cypher", "data_source", "database_reference_alias", "instance_id"]
rows = []
preds = []
for i, (db, schema, q, gold, pred) in enumerate(EXAMPLES):
    iid = f"instance_id_{1000 + i}"
    rows.append({
        "question": q,
        "schema": schema,
        "cypher": gold,
        "data_source": "grape_sample_" + (db or "nodb"),
        "database_reference_alias": f"neo4jlabs_demo_db_{db}" if db else None,
        "instance_id": iid,
    })
    preds.append({"id": iid, "cypher": pred})
with open("sample.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
with open("sample.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=FIELDS)
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else v) for k, v in r.items()})
with open("predictions.jsonl", "w") as f:
    for p in preds:
        f.write(json.dumps(p) + "\n")
