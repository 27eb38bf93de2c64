"""CyVer (the text-to-Cypher validator built on Neo4j's EXPLAIN and notifications) against a
grape Bolt server: its syntax, schema and properties validators on each query. Prints one JSON
list of {"id", "syntax", "schema", "properties"}.

Usage: cyver_check.py URI QUERIES.jsonl  (objects with "id" and "query")
"""
import json, sys
import neo4j
from CyVer import SyntaxValidator, SchemaValidator, PropertiesValidator
uri = sys.argv[1]
queries = [json.loads(l) for l in open(sys.argv[2])]
out = []
with neo4j.GraphDatabase.driver(uri, auth=("neo4j", "x")) as d:
    syn, sch, props = SyntaxValidator(d), SchemaValidator(d), PropertiesValidator(d)
    for q in queries:
        ok, meta = syn.validate(q["query"])
        r = {"id": q["id"], "syntax": ok}
        try:
            score, m = sch.validate(q["query"])
            r["schema"] = score
        except Exception as e:
            r["schema_error"] = repr(e)[:200]
        try:
            score, m = props.validate(q["query"])
            r["properties"] = score
        except Exception as e:
            r["properties_error"] = repr(e)[:200]
        out.append(r)
print(json.dumps(out))
