#!/usr/bin/env python3
"""Writes sessions.json (multi-turn questions over graph.json, in CypherTurn's session layout)
and session_predictions.jsonl (a simulated system's answers, turn by turn).

The gold answers are computed by grape itself, so run from the repository root after a build:

    python3 corpora/demo/make_sessions.py target/release/grape

Each later turn's gold query repeats the part of the earlier query whose result it builds on,
as CypherTurn's do, so every turn runs on its own.
"""
import json
import subprocess
import sys

GRAPE = sys.argv[1] if len(sys.argv) > 1 else "target/release/grape"
GRAPH = "corpora/demo/graph.json"

TOP5 = "MATCH (b:Book)\nWITH b ORDER BY b.rating DESC, b.title LIMIT 5\n"
TOP1 = TOP5 + "WITH b ORDER BY b.rating DESC, b.title LIMIT 1\n"
EASTMERE = "MATCH (br:Branch)-[:LOCATED_IN]->(:City {name: 'Eastmere'})\n"
OLD = "MATCH (a:Author)-[:BORN_IN]->(:City)\nWITH a ORDER BY a.born LIMIT 3\n"

# (session id, persona, [(turn, utterance, gold, depends_on, chain_mode, phenomena, prediction)])
SESSIONS = [
    ("s1-top-books", "student", [
        (1, "Which five books have the highest rating? Break ties by title.",
         TOP5 + "RETURN b.title AS title", None, None, [],
         TOP5 + "RETURN b.title AS title"),
        (2, "What is their average rating?",
         TOP5 + "RETURN avg(b.rating) AS avg_rating", 1, "agg_numeric", ["AGG_AVG"],
         TOP5 + "RETURN avg(b.rating) AS avg_rating"),
        (3, "Who wrote the best of them?",
         TOP1 + "MATCH (a:Author)-[:WROTE]->(b)\nRETURN a.name AS author", 1, "pivot_entity", ["PIVOT"],
         # Wrong direction: no rows.
         TOP1 + "MATCH (a:Author)<-[:WROTE]-(b)\nRETURN a.name AS author"),
        (4, "Which other books did that author write?",
         TOP1 + "MATCH (a:Author)-[:WROTE]->(b)\nMATCH (a)-[:WROTE]->(o:Book)\nWHERE o <> b\nRETURN o.title AS title",
         3, "pivot_entity", ["PIVOT", "ELLIPSIS"],
         # The mistake carries over.
         TOP1 + "MATCH (a:Author)<-[:WROTE]-(b)\nMATCH (a)-[:WROTE]->(o:Book)\nWHERE o <> b\nRETURN o.title AS title"),
    ]),
    ("s2-eastmere-branches", "librarian", [
        (1, "Which branches are in Eastmere?",
         EASTMERE + "RETURN br.name AS branch", None, None, [],
         EASTMERE + "RETURN br.name AS branch"),
        (2, "Which of them can hold more than 20,000 items?",
         EASTMERE + "WHERE br.capacity > 20000\nRETURN br.name AS branch", 1, "filter_set", ["FILTER"],
         EASTMERE + "WHERE br.capacity > 20000\nRETURN br.name AS branch"),
        (3, "How many librarians work at those Eastmere branches altogether?",
         EASTMERE + "MATCH (l:Librarian)-[:WORKS_AT]->(br)\nRETURN count(DISTINCT l) AS librarians", 1,
         "agg_count", ["AGG_COUNT"],
         EASTMERE + "MATCH (l:Librarian)-[:WORKS_AT]->(br)\nRETURN count(DISTINCT l) AS librarians"),
        (4, "And who is the head librarian at each?",
         EASTMERE + "MATCH (l:Librarian)-[w:WORKS_AT]->(br)\nWHERE w.role = 'head'\nRETURN br.name AS branch, l.name AS head",
         1, "pivot_entity", ["PIVOT", "FILTER"],
         # Forgets the role filter: every librarian.
         EASTMERE + "MATCH (l:Librarian)-[w:WORKS_AT]->(br)\nRETURN br.name AS branch, l.name AS head"),
    ]),
    ("s3-genres", "journalist", [
        (1, "How many books are there in each genre?",
         "MATCH (g:Genre)<-[:IN_GENRE]-(b:Book)\nRETURN g.name AS genre, count(b) AS books", None, None,
         ["AGG_COUNT"],
         # Misspelt relationship type: no rows.
         "MATCH (g:Genre)<-[:IN_GENRES]-(b:Book)\nRETURN g.name AS genre, count(b) AS books"),
        (2, "Which genre has the most?",
         "MATCH (g:Genre)<-[:IN_GENRE]-(b:Book)\nWITH g, count(b) AS books\nORDER BY books DESC LIMIT 1\nRETURN g.name AS genre",
         1, "superlative", ["SUPERLATIVE"],
         "MATCH (g:Genre)<-[:IN_GENRES]-(b:Book)\nWITH g, count(b) AS books\nORDER BY books DESC LIMIT 1\nRETURN g.name AS genre"),
        (3, "What is the average page count of the books in that genre?",
         "MATCH (g:Genre)<-[:IN_GENRE]-(b:Book)\nWITH g, count(b) AS books\nORDER BY books DESC LIMIT 1\nMATCH (g)<-[:IN_GENRE]-(x:Book)\nRETURN avg(x.pages) AS avg_pages",
         2, "agg_numeric", ["AGG_AVG"],
         # Recovers: the system fixed the type name.
         "MATCH (g:Genre)<-[:IN_GENRE]-(b:Book)\nWITH g, count(b) AS books\nORDER BY books DESC LIMIT 1\nMATCH (g)<-[:IN_GENRE]-(x:Book)\nRETURN avg(x.pages) AS avg_pages"),
    ]),
    ("s4-oldest-authors", "student", [
        (1, "Which three authors with a known birthplace were born first?",
         OLD + "RETURN a.name AS author", None, None, ["SUPERLATIVE"],
         # Sorts the wrong way.
         "MATCH (a:Author)-[:BORN_IN]->(:City)\nWITH a ORDER BY a.born DESC LIMIT 3\nRETURN a.name AS author"),
        (2, "Where were they born?",
         OLD + "MATCH (a)-[:BORN_IN]->(c:City)\nRETURN a.name AS author, c.name AS city", 1, "pivot_entity",
         ["PIVOT"],
         "MATCH (a:Author)-[:BORN_IN]->(:City)\nWITH a ORDER BY a.born DESC LIMIT 3\nMATCH (a)-[:BORN_IN]->(c:City)\nRETURN a.name AS author, c.name AS city"),
        (3, "How many books did they write between them?",
         OLD + "MATCH (a)-[:WROTE]->(b:Book)\nRETURN count(DISTINCT b) AS books", 1, "agg_count", ["AGG_COUNT"],
         "MATCH (a:Author)-[:BORN_IN]->(:City)\nWITH a ORDER BY a.born DESC LIMIT 3\nMATCH (a)-[:WROTE]->(b:Book)\nRETURN count(DISTINCT b) AS books"),
    ]),
    ("s5-cities", "journalist", [
        (1, "Which city has the largest population?",
         "MATCH (c:City)\nRETURN c.name AS city ORDER BY c.population DESC LIMIT 1", None, None, ["SUPERLATIVE"],
         "MATCH (c:City)\nRETURN c.name AS city ORDER BY c.population DESC LIMIT 1"),
        (2, "How many members belong to branches there?",
         "MATCH (c:City)\nWITH c ORDER BY c.population DESC LIMIT 1\nMATCH (m:Member)-[:MEMBER_OF]->(:Branch)-[:LOCATED_IN]->(c)\nRETURN count(DISTINCT m) AS members",
         1, "agg_count", ["AGG_COUNT"],
         # Counts memberships, not members (the same here only if nobody belongs to two).
         "MATCH (c:City)\nWITH c ORDER BY c.population DESC LIMIT 1\nMATCH (m:Member)-[:MEMBER_OF]->(:Branch)-[:LOCATED_IN]->(c)\nRETURN count(m) AS members"),
        (3, "Separately: how many genres does the catalogue have?",
         "MATCH (g:Genre)\nRETURN count(g) AS genres", None, None, [],
         "MATCH (g:Genre)\nRETURN count(*) AS genres"),
    ]),
]


def run(query):
    out = subprocess.run([GRAPE, "query", "--graph", GRAPH, "--json", query],
                         capture_output=True, text=True, check=True)
    res = json.loads(out.stdout)
    if "error" in res:
        raise SystemExit(f"gold query failed: {query}\n{res['error']}")
    return [dict(zip(res["columns"], row)) for row in res["rows"]]


def main():
    sessions = []
    preds = []
    for sid, persona, turns in SESSIONS:
        out_turns = []
        for turn_id, utterance, gold, dep, mode, phenomena, pred in turns:
            answer = run(gold)
            if not answer:
                raise SystemExit(f"{sid}/{turn_id}: the gold query returns no rows")
            out_turns.append({
                "turn_id": turn_id,
                "user_utterance": utterance,
                "phenomena": phenomena,
                "gold_cypher": gold,
                "gold_answer": answer,
                "depends_on_result_of": dep,
                "chain_mode": mode,
            })
            preds.append({"session_id": sid, "turn_id": turn_id, "cypher": pred})
        sessions.append({
            "session_id": sid,
            "graph": "library",
            "protocol": "guided",
            "persona": persona,
            "turns": out_turns,
        })
    with open("corpora/demo/sessions.json", "w") as f:
        json.dump(sessions, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open("corpora/demo/session_predictions.jsonl", "w") as f:
        for p in preds:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
