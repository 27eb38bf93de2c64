#!/usr/bin/env python3
"""Writes src/catalogue/neo4j_functions.rs and neo4j_procedures.rs from Neo4j's catalogue in
../shared/data/neo4j-catalogue (names, signatures, categories, modes: facts of Neo4j's interface).

    python3 scripts/gen-catalogue.py [SHARED_DIR]
"""
import json, os, sys

shared = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GRAPE_SHARED", "../shared")
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
cat = os.path.join(shared, "data", "neo4j-catalogue")


def rust_str(s):
    return json.dumps(s, ensure_ascii=False)


def versions(in5, in25):
    return "V::" + ("BOTH" if in5 and in25 else ("CYPHER_5" if in5 else "CYPHER_25"))


def merged(doc):
    by = {}
    for version, key in (("CYPHER 5", "in5"), ("CYPHER 25", "in25")):
        for e in doc[version]:
            cur = by.setdefault(e["name"], {"in5": False, "in25": False, "e5": None, "e25": None})
            cur[key] = True
            cur["e5" if key == "in5" else "e25"] = e
    return sorted(by.items(), key=lambda kv: kv[0].lower())


HEADER = """//! {what} Neo4j 5.26 knows: `{show}` under `CYPHER 5` and `CYPHER 25`
//! ({plugins}). Facts of its interface ({extra}), listed so that a query can be
//! checked offline.
//! Written by `scripts/gen-catalogue.py` from `../shared/data/neo4j-catalogue/`; `tests` in
//! `catalogue` compare the list with that catalogue.

"""

fns = merged(json.load(open(os.path.join(cat, "functions.json"))))
out = [HEADER.format(what="The functions", show="SHOW FUNCTIONS", plugins="APOC core installed",
                     extra="names, signatures")]
out.append("use super::{Function, FunctionKind as K, Versions as V};\n\n")
out.append("/// Sorted by lower-case name.\n#[rustfmt::skip]\npub(super) static FUNCTIONS: [Function; %d] = [\n" % len(fns))
for name, m in fns:
    e = m["e5"] or m["e25"]
    if m["e5"] and m["e25"]:
        assert m["e5"]["signature"] == m["e25"]["signature"], name
    kind = ("BuiltIn" if e["isBuiltIn"] else "Plugin") + ("Aggregating" if e["aggregating"] else "")
    out.append(f"    Function::new({rust_str(name)}, K::{kind}, {versions(m['in5'], m['in25'])}, "
               f"{rust_str(e.get('category') or '')}, {rust_str(e['signature'])}),\n")
out.append("];\n")
open(os.path.join(root, "src/catalogue/neo4j_functions.rs"), "w").write("".join(out))

procs = merged(json.load(open(os.path.join(cat, "procedures.json"))))
out = [HEADER.format(what="The procedures", show="SHOW PROCEDURES", plugins="APOC core, GDS, CDC installed",
                     extra="names, signatures")]
out.append("use super::{Mode as M, Procedure, Versions as V};\n\n")
out.append("/// Sorted by lower-case name.\n#[rustfmt::skip]\npub(super) static PROCEDURES: [Procedure; %d] = [\n" % len(procs))
for name, m in procs:
    e = m["e5"] or m["e25"]
    mode = e["mode"].capitalize()
    sig25 = None
    if m["e5"] and m["e25"]:
        assert m["e5"]["mode"] == m["e25"]["mode"], name
        if m["e5"]["signature"] != m["e25"]["signature"]:
            sig25 = m["e25"]["signature"]
    extra = f".in_cypher_25({rust_str(sig25)})" if sig25 else ""
    out.append(f"    Procedure::new({rust_str(name)}, M::{mode}, {versions(m['in5'], m['in25'])}, "
               f"{rust_str(e['signature'])}){extra},\n")
out.append("];\n")
open(os.path.join(root, "src/catalogue/neo4j_procedures.rs"), "w").write("".join(out))
print(len(fns), "functions,", len(procs), "procedures")
