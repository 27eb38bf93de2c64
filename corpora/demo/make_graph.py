#!/usr/bin/env python3
"""Deterministic generator for the demo library graph (corpora/demo/graph.json).

Run: python3 corpora/demo/make_graph.py > corpora/demo/graph.json
"""
import json
import random

rng = random.Random(20240611)

nodes = []
rels = []
next_id = [1]


def node(labels, props):
    nid = next_id[0]
    next_id[0] += 1
    nodes.append({"id": nid, "labels": labels, "properties": props})
    return nid


def rel(start, end, typ, props=None):
    rels.append({"start": start, "end": end, "type": typ, "properties": props or {}})


# Cities
city_specs = [("Eastmere", 182000), ("Haldon", 64500), ("Port Wren", 121300), ("Stillwater", 38900)]
cities = {name: node(["City"], {"name": name, "population": pop}) for name, pop in city_specs}

# Branches
branch_specs = [
    ("Central Library", "Eastmere", 1921, 52000),
    ("Riverside Branch", "Eastmere", 1968, 18500),
    ("Old Mill Branch", "Haldon", 1987, 12300),
    ("Harbour Reading Room", "Port Wren", 1954, 9800),
    ("Lighthouse Branch", "Port Wren", 2004, 15200),
    ("Meadow Branch", "Stillwater", 1995, 7400),
]
branches = {}
for name, city, opened, cap in branch_specs:
    b = node(["Branch"], {"name": name, "opened": opened, "capacity": cap})
    branches[name] = b
    rel(b, cities[city], "LOCATED_IN")
branch_ids = list(branches.values())

# Genres
genre_names = ["Mystery", "Science Fiction", "Fantasy", "History", "Poetry", "Romance", "Biography", "Travel"]
genres = {g: node(["Genre"], {"name": g}) for g in genre_names}

# Authors
first = ["Ada", "Bram", "Celia", "Dorian", "Edda", "Fenwick", "Greta", "Hollis", "Ines", "Jasper", "Kerensa",
         "Lionel", "Maren", "Nico", "Odile", "Piers", "Quilla", "Rufus", "Sabine", "Tobias", "Ulla", "Vesper",
         "Wilhelmina", "Xavier"]
last = ["Ashdown", "Blackwood", "Corrigan", "Dunmore", "Elphick", "Fairweather", "Gosling", "Hartley", "Ingram",
        "Jessop", "Kettleby", "Lowther", "Marchbank", "Northcott", "Oakes", "Pennyfeather", "Quayle", "Rowntree",
        "Sallow", "Thistlewood", "Upcott", "Vane", "Winterbourne", "Yardley"]
nationalities = ["British", "Irish", "Canadian", "French", "Norwegian", "Chilean", "Japanese", "Nigerian"]
authors = []
for i in range(24):
    born = 1890 + rng.randint(0, 95) + i % 3
    a = node(["Person", "Author"], {"name": f"{first[i]} {last[(i * 7) % 24]}",
                                     "nationality": nationalities[i % len(nationalities)],
                                     "born": born})
    authors.append(a)
    if i % 4 == 0:
        rel(a, list(cities.values())[(i // 4) % 4], "BORN_IN")

# Books
w1 = ["Silent", "Crimson", "Hollow", "Distant", "Paper", "Winter", "Glass", "Iron", "Salt", "Amber", "Quiet", "Last"]
w2 = ["Harbour", "Orchard", "Lantern", "Meridian", "Archive", "Tide", "Garden", "Compass", "Engine", "Atlas",
      "Chorus", "Letters"]
titles = set()
books = []
ratings = set()
for i in range(72):
    while True:
        t = f"The {rng.choice(w1)} {rng.choice(w2)}"
        if t not in titles:
            titles.add(t)
            break
    while True:
        r = round(rng.uniform(2.5, 4.95), 2)
        if r not in ratings:
            ratings.add(r)
            break
    year = 1935 + rng.randint(0, 88)
    pages = 120 + rng.randint(0, 620) + i
    b = node(["Book"], {"title": t, "year": year, "pages": pages, "rating": float(r),
                        "isbn": f"978-{rng.randint(0, 9)}-{rng.randint(1000, 9999)}-{i:04d}"})
    books.append(b)
    # authorship: most books one author, a few co-written
    author = authors[i % 24] if i < 48 else rng.choice(authors)
    rel(author, b, "WROTE")
    if i % 11 == 5:
        co = rng.choice([a for a in authors if a != author])
        rel(co, b, "WROTE")
    g = genre_names[(i * 5 + rng.randint(0, 2)) % 8]
    rel(b, genres[g], "IN_GENRE")
    if i % 9 == 0:
        g2 = genre_names[(genre_names.index(g) + 3) % 8]
        rel(b, genres[g2], "IN_GENRE")
    # holdings
    for br in rng.sample(branch_ids, rng.randint(1, 3)):
        rel(b, br, "HELD_AT", {"copies": rng.randint(1, 6)})

# Members
mfirst = ["Alma", "Basil", "Cora", "Dev", "Elin", "Farid", "Gwen", "Hugo", "Iris", "Joel", "Kaia", "Leon", "Mina",
          "Noor", "Otto", "Petra", "Rosa", "Soren", "Tamsin", "Umar", "Vera", "Wade", "Yara", "Zeno"]
mlast = ["Abbott", "Brennan", "Castell", "Doyle", "Ellery", "Frost", "Garland", "Hale", "Iveson", "Kemp",
         "Lacey", "Moss", "Nash", "Orme", "Pryce", "Reed"]
members = []
used = set()
for i in range(70):
    while True:
        nm = f"{rng.choice(mfirst)} {rng.choice(mlast)}"
        if nm not in used:
            used.add(nm)
            break
    age = 16 + rng.randint(0, 62)
    m = node(["Person", "Member"], {"name": nm, "age": age, "memberSince": 2005 + rng.randint(0, 18),
                                     "cardNumber": f"C{10000 + i * 37}"})
    members.append(m)
    rel(m, rng.choice(branch_ids), "MEMBER_OF")

# Librarians
libnames = ["Harriet Quill", "Ambrose Fell", "Delphine Marsh", "Cyril Banks", "Philippa Stone", "Magnus Reeve",
            "Lottie Crane", "Emrys Wilde", "Beatrix Moon", "Conrad Vale", "Imogen Ash", "Silas Penrose",
            "Rowena Hart", "Tristan Gale", "Edith Lark", "Felix Orchard"]
librarians = []
for i, nm in enumerate(libnames):
    l = node(["Person", "Librarian"], {"name": nm, "age": 24 + (i * 17) % 39,
                                        "salary": 26000 + i * 1350 + rng.randint(0, 900)})
    librarians.append(l)
    rel(l, branch_ids[i % 6], "WORKS_AT", {"since": 1998 + (i * 5) % 25, "role": "head" if i < 6 else "assistant"})

# Loans (member BORROWED book)
for m in members:
    for b in rng.sample(books, rng.randint(0, 6)):
        rel(m, b, "BORROWED", {"date": f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                               "days": rng.randint(3, 42), "returned": rng.random() < 0.85})

# Friendships among members
pairs = set()
while len(pairs) < 45:
    a, b = rng.sample(members, 2)
    if (a, b) not in pairs and (b, a) not in pairs:
        pairs.add((a, b))
        rel(a, b, "FRIEND_OF", {"since": 2010 + rng.randint(0, 13)})

# Librarians recommend books
for l in librarians:
    for b in rng.sample(books, 2):
        rel(l, b, "RECOMMENDS")

print(json.dumps({"nodes": nodes, "relationships": rels}, indent=1))
