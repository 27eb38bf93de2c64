#!/usr/bin/env python3
"""Writes src/catalogue/neo4j_settings.rs from a running Neo4j oracle's `SHOW SETTINGS YIELD *`:
each setting's name, default value, whether it is dynamic, its valid values and whether it is
deprecated (facts of Neo4j's interface; the descriptions are not copied).

    scripts/neo4j-oracle start target/neo4j-oracle
    target/pyenv/bin/python scripts/gen-settings.py target/neo4j-oracle
"""
import json, os, sys

from neo4j import GraphDatabase

oracle = sys.argv[1] if len(sys.argv) > 1 else "target/neo4j-oracle"
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
uri = open(os.path.join(oracle, "uri")).read().strip()
user, password = open(os.path.join(oracle, "auth")).read().strip().split(":", 1)
with GraphDatabase.driver(uri, auth=(user, password)) as driver:
    with driver.session() as s:
        version = s.run("CALL dbms.components() YIELD versions RETURN versions[0]").single()[0]
        rows = [r.data() for r in s.run(
            "SHOW SETTINGS YIELD name, defaultValue, isDynamic, validValues, isDeprecated")]


def rust_str(s):
    return json.dumps(s, ensure_ascii=False)


def opt(s):
    return "None" if s is None else "Some(%s)" % rust_str(s)


out = [
    "//! The settings Neo4j %s lists (`SHOW SETTINGS`, APOC core installed): name,\n"
    "//! default value, whether it is dynamic, its valid values, whether it is deprecated. Facts of\n"
    "//! its interface; Neo4j's descriptions are not copied.\n"
    "//! Written by `scripts/gen-settings.py` from a running oracle (`scripts/neo4j-oracle`).\n\n"
    "use super::Setting;\n\n"
    "/// In the order Neo4j lists them (by name).\n"
    "#[rustfmt::skip]\n"
    "pub(super) static SETTINGS: [Setting; %d] = [\n" % (version, len(rows))
]
for r in rows:
    out.append("    Setting::new(%s, %s, %s, %s, %s),\n" % (
        rust_str(r["name"]), opt(r["defaultValue"]), "true" if r["isDynamic"] else "false",
        rust_str(r["validValues"]), "true" if r["isDeprecated"] else "false"))
out.append("];\n")
with open(os.path.join(root, "src", "catalogue", "neo4j_settings.rs"), "w") as f:
    f.write("".join(out))
print("%d settings of Neo4j %s" % (len(rows), version))
