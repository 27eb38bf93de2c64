"""Writes test.json and result.json, the CypherBench-format sample over graphs/nba.json.

Every record is ours: the questions, the gold queries, the answers (worked out by hand from
graphs/nba.json; tests/eval_cypherbench.rs checks that the gold queries reproduce them) and the
predictions (right, equivalent in other words, wrong, unparseable, missing). Run it from this
folder: python3 make_sample.py
"""
import json

T = [
    # (match category, return pattern, question, gold, answer rows, prediction or None)
    ("basic_(n)", "n_name",
     "Which teams were founded before 1980?",
     "MATCH (n:Team) WHERE n.inception_year < 1980 RETURN n.name",
     [{"n.name": "Harbor Herons"}, {"n.name": "Mesa Coyotes"}],
     "MATCH (t:Team) WHERE t.inception_year < 1980 RETURN t.name AS team"),
    ("basic_(n)-(m0*)", "n_name",
     "Who has played for the Harbor Herons?",
     "MATCH (n:Player)-[r0:playsFor]->(m0:Team {name: 'Harbor Herons'}) RETURN n.name",
     [{"n.name": "Ada Stone"}, {"n.name": "Cleo Marsh"}, {"n.name": "Eli Novak"}],
     "MATCH (p:Player)-[:playsFor]->(:Team {name: 'Harbor Herons'}) WHERE p.end_year IS NULL RETURN p.name"),
    ("basic_(n)", "n_prop",
     "How tall is Ben Okafor in centimetres?",
     "MATCH (n:Player {name: 'Ben Okafor'}) RETURN n.height_cm",
     [{"n.height_cm": 211.0}],
     "MATCH (n:Player {name: 'Ben Okafor'}) RETURN n.height_cm<end_of_turn>"),
    ("basic_(n)-(m0*)", "n_order_by",
     "List the players of the Mesa Coyotes from the earliest draft year to the latest.",
     "MATCH (n:Player)-[r0:playsFor]->(m0:Team {name: 'Mesa Coyotes'}) RETURN n.name ORDER BY n.draft_year ASC",
     [{"n.name": "Ada Stone"}, {"n.name": "Ben Okafor"}],
     "MATCH (n:Player)-[:playsFor]->(:Team {name: 'Mesa Coyotes'}) RETURN n.name ORDER BY n.draft_year DESC"),
    ("basic_(n)-(m0*)", "n_argmax",
     "Who is the tallest player to have played for the Harbor Herons?",
     "MATCH (n:Player)-[r0:playsFor]->(m0:Team {name: 'Harbor Herons'}) WHERE n.height_cm IS NOT NULL "
     "RETURN n.name ORDER BY n.height_cm DESC LIMIT 1",
     [{"n.name": "Cleo Marsh"}],
     "MATCH (n:Player)-[:playsFor]->(:Team {name: 'Harbor Herons'}) RETURN n.name ORDER BY n.height_cm DESC LIMIT 1"),
    ("basic_(n)-(m0*)", "n_where",
     "Which Rookie of the Year winners were drafted in 2012 or later?",
     "MATCH (n:Player)-[r0:receivesAward]->(m0:Award {name: 'Rookie of the Year'}) WHERE n.draft_year >= 2012 RETURN n.name",
     [{"n.name": "Ben Okafor"}],
     "MATCH (n:Player)-[:receivesAward]->(a:Award) WHERE a.name = 'Rookie of the Year' AND n.draft_year >= 2012 RETURN n.name"),
    ("basic_(n)-(m0)-(m1*)", "n_agg",
     "How many players have played for a team in the Pacific division?",
     "MATCH (n:Player)-[r0:playsFor]->(m0:Team)-[r1:partOf]->(m1:Division {name: 'Pacific'}) RETURN count(DISTINCT n) AS num",
     [{"num": 4}],
     "MATCH (n:Player)-[:playsFor]->(:Team)-[:partOf]->(:Division {name: 'Pacific'}) RETURN count(n)"),
    ("basic_(n)-(m0*)", "n_group_by",
     "How many teams does each division have?",
     "MATCH (n:Team)-[r0:partOf]->(m0:Division) RETURN m0.name, count(DISTINCT n) AS num",
     [{"m0.name": "Pacific", "num": 2}, {"m0.name": "Central", "num": 1}],
     "MATCH (d:Division)<-[:partOf]-(t:Team) RETURN count(t) AS teams, d.name AS division"),
    ("special_time-sensitive", "n_name",
     "Who plays for the Mesa Coyotes now?",
     "MATCH (n:Player)-[r0:playsFor]->(m0:Team {name: 'Mesa Coyotes'}) WHERE r0.end_year IS NULL RETURN n.name",
     [{"n.name": "Ada Stone"}],
     "MATCH (n:Player)-[r:playsFor]->(:Team {name: 'Mesa Coyotes'}) WHERE r.end_year IS NULL RETURN n.name"),
    ("special_date", "n_name",
     "Which players were born before 1991?",
     "MATCH (n:Player) WHERE n.birth_date < date('1991-01-01') RETURN n.name",
     [{"n.name": "Ada Stone"}, {"n.name": "Cleo Marsh"}],
     "MATCH (n:Player) WHERE n.birth_date.year < 1991 RETURN n.name"),
    ("special_list", "n_name",
     "Which players play center?",
     "MATCH (n:Player) WHERE 'center' IN n.positions RETURN n.name",
     [{"n.name": "Ben Okafor"}],
     "MATCH (n:Player) WHERE n.positions CONTAINS 'center' RETURN n.name"),
    ("basic_(n)-(m0)-(m1*)", "n_name",
     "Which awards have players of the Harbor Herons received?",
     "MATCH (n:Award)<-[r0:receivesAward]-(m0:Player)-[r1:playsFor]->(m1:Team {name: 'Harbor Herons'}) RETURN DISTINCT n.name",
     [{"n.name": "Most Valuable Player"}, {"n.name": "Rookie of the Year"}],
     None),
    ("basic_(n)-(m0*)", "n_order_by",
     "List the Most Valuable Player winners by the year of the award.",
     "MATCH (n:Player)-[r0:receivesAward]->(m0:Award {name: 'Most Valuable Player'}) RETURN n.name ORDER BY r0.year ASC",
     [{"n.name": "Cleo Marsh"}, {"n.name": "Ada Stone"}],
     "MATCH (n:Player)-[r:receivesAward]->(:Award {name: 'Most Valuable Player'}) RETURN n.name ORDER BY r.year"),
    ("basic_(n)", "n_prop_array_distinct",
     "Which positions do the players of the Lakeside Loons play?",
     "MATCH (n:Player)-[r0:playsFor]->(m0:Team {name: 'Lakeside Loons'}) UNWIND n.positions AS p RETURN DISTINCT p",
     [{"p": "center"}, {"p": "power forward"}, {"p": "shooting guard"}],
     "MATCH (n:Player)-[:playsFor]->(:Team {name: 'Lakeside Loons'}) RETURN n.positions"),
]

tasks, results = [], []
for i, (mc, rp, q, gold, answer, pred) in enumerate(T):
    task = {
        "qid": f"nba-{i}",
        "graph": "nba",
        "gold_cypher": gold,
        "gold_match_cypher": gold.split(" RETURN ")[0],
        "nl_question": q,
        "nl_question_raw": q,
        "answer_json": json.dumps(answer),
        "from_template": {"match_category": mc, "match_cypher": "", "return_pattern_id": rp,
                          "return_cypher": ""},
    }
    tasks.append(task)
    results.append(dict(task, pred_cypher=pred, metrics={}))

with open("test.json", "w") as f:
    json.dump(tasks, f, indent=2)
    f.write("\n")
with open("result.json", "w") as f:
    json.dump(results, f, indent=2)
    f.write("\n")
