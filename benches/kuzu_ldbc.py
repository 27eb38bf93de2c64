"""The other side of `cargo bench --bench ldbc`: the same social network in LadybugDB (or Kuzu).

`GRAPE_LDBC_CSV=DIR cargo bench --bench ldbc` writes the generated graph and the query
parameters as CSV files into DIR; this script loads them with `COPY FROM` into an embedded
database (a primary key on `id` per node table) and runs the same seven LDBC SNB Interactive
short reads (IS1–IS7) over the same 20 parameters each, printing the first run after load and
the best and median time per execution over repeated rounds, with the row counts (which must
equal the bench's), load time and peak memory:

    python -m venv /tmp/lb && /tmp/lb/bin/pip install ladybug   # or kuzu
    GRAPE_LDBC_CSV=/tmp/ldbc cargo bench --bench ldbc
    /tmp/lb/bin/python benches/kuzu_ldbc.py /tmp/ldbc

Not part of CI (LadybugDB is not a dependency of grape).
"""

import os
import resource
import shutil
import statistics
import sys
import tempfile
import time

try:
    import kuzu
except ImportError:  # LadybugDB, Kuzu's maintained successor, keeps its API.
    import ladybug as kuzu

SCHEMA = [
    "CREATE NODE TABLE City(id INT64, name STRING, PRIMARY KEY(id))",
    "CREATE NODE TABLE Person(id INT64, firstName STRING, lastName STRING, gender STRING, "
    "birthday INT64, locationIP STRING, browserUsed STRING, creationDate INT64, PRIMARY KEY(id))",
    "CREATE NODE TABLE Forum(id INT64, title STRING, creationDate INT64, PRIMARY KEY(id))",
    "CREATE NODE TABLE Post(id INT64, content STRING, creationDate INT64, length INT64, "
    "PRIMARY KEY(id))",
    "CREATE NODE TABLE Comment(id INT64, content STRING, creationDate INT64, length INT64, "
    "PRIMARY KEY(id))",
    "CREATE REL TABLE IS_LOCATED_IN(FROM Person TO City)",
    "CREATE REL TABLE KNOWS(FROM Person TO Person, creationDate INT64)",
    "CREATE REL TABLE HAS_MODERATOR(FROM Forum TO Person)",
    "CREATE REL TABLE CONTAINER_OF(FROM Forum TO Post)",
    "CREATE REL TABLE HAS_CREATOR(FROM Post TO Person, FROM Comment TO Person)",
    "CREATE REL TABLE REPLY_OF(FROM Comment TO Post, FROM Comment TO Comment)",
    "CREATE REL TABLE LIKES(FROM Person TO Post, FROM Person TO Comment, creationDate INT64)",
]

# (table, file, from, to): `from`/`to` name the node tables of a multi-pair relationship table.
LOADS = [
    ("City", "city.csv", None, None),
    ("Person", "person.csv", None, None),
    ("Forum", "forum.csv", None, None),
    ("Post", "post.csv", None, None),
    ("Comment", "comment.csv", None, None),
    ("IS_LOCATED_IN", "person_isLocatedIn_city.csv", None, None),
    ("KNOWS", "person_knows_person.csv", None, None),
    ("HAS_MODERATOR", "forum_hasModerator_person.csv", None, None),
    ("CONTAINER_OF", "forum_containerOf_post.csv", None, None),
    ("HAS_CREATOR", "post_hasCreator_person.csv", "Post", "Person"),
    ("HAS_CREATOR", "comment_hasCreator_person.csv", "Comment", "Person"),
    ("REPLY_OF", "comment_replyOf_post.csv", "Comment", "Post"),
    ("REPLY_OF", "comment_replyOf_comment.csv", "Comment", "Comment"),
    ("LIKES", "person_likes_post.csv", "Person", "Post"),
    ("LIKES", "person_likes_comment.csv", "Person", "Comment"),
]

# The bench's queries (benches/ldbc.rs), in the same order; the text is the same Cypher.
QUERIES = [
    (
        "IS1_profile",
        "person",
        "MATCH (n:Person {id: $person})-[:IS_LOCATED_IN]->(p:City) "
        "RETURN n.firstName AS firstName, n.lastName AS lastName, n.birthday AS birthday, "
        "n.locationIP AS locationIP, n.browserUsed AS browserUsed, p.id AS cityId, "
        "n.gender AS gender, n.creationDate AS creationDate",
    ),
    (
        "IS2_recent_messages",
        "person",
        "MATCH (:Person {id: $person})<-[:HAS_CREATOR]-(m) "
        "WITH m ORDER BY m.creationDate DESC, m.id DESC LIMIT 10 "
        "MATCH (m)-[:REPLY_OF*0..30]->(p:Post)-[:HAS_CREATOR]->(c:Person) "
        "RETURN m.id AS messageId, m.content AS content, m.creationDate AS created, "
        "p.id AS postId, c.id AS authorId, c.firstName AS firstName, c.lastName AS lastName "
        "ORDER BY created DESC, messageId DESC",
    ),
    (
        "IS3_friends",
        "person",
        "MATCH (n:Person {id: $person})-[r:KNOWS]-(friend:Person) "
        "RETURN friend.id AS personId, friend.firstName AS firstName, "
        "friend.lastName AS lastName, r.creationDate AS since "
        "ORDER BY since DESC, personId ASC",
    ),
    (
        "IS4_message_content",
        "comment",
        "MATCH (m:Comment {id: $comment}) RETURN m.creationDate AS created, m.content AS content",
    ),
    (
        "IS5_message_creator",
        "comment",
        "MATCH (m:Comment {id: $comment})-[:HAS_CREATOR]->(p:Person) "
        "RETURN p.id AS personId, p.firstName AS firstName, p.lastName AS lastName",
    ),
    (
        "IS6_message_forum",
        "comment",
        "MATCH (m:Comment {id: $comment})-[:REPLY_OF*0..30]->(p:Post)<-[:CONTAINER_OF]-(f:Forum)"
        "-[:HAS_MODERATOR]->(mod:Person) "
        "RETURN f.id AS forumId, f.title AS title, mod.id AS moderatorId, "
        "mod.firstName AS firstName, mod.lastName AS lastName",
    ),
    (
        "IS7_replies",
        "post",
        "MATCH (m:Post {id: $post})<-[:REPLY_OF]-(c:Comment)-[:HAS_CREATOR]->(p:Person) "
        "OPTIONAL MATCH (m)-[:HAS_CREATOR]->(a:Person)-[r:KNOWS]-(p) "
        "RETURN c.id AS commentId, c.content AS content, c.creationDate AS created, "
        "p.id AS replierId, p.firstName AS firstName, p.lastName AS lastName, "
        "r IS NOT NULL AS knows "
        "ORDER BY created DESC, replierId",
    ),
]


def params(csv_dir):
    out = {}
    with open(os.path.join(csv_dir, "params.csv")) as f:
        for line in f:
            name, value = line.strip().split(",")
            out.setdefault(name, []).append(int(value))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: kuzu_ldbc.py CSV_DIR (written by GRAPE_LDBC_CSV=CSV_DIR cargo bench --bench ldbc)")
    csv_dir = sys.argv[1]
    values = params(csv_dir)
    work = tempfile.mkdtemp(prefix="kuzu-ldbc-")
    try:
        db = kuzu.Database(os.path.join(work, "db"))
        conn = kuzu.Connection(db)
        started = time.perf_counter()
        for statement in SCHEMA:
            conn.execute(statement)
        for table, file, src, dst in LOADS:
            path = os.path.join(csv_dir, file)
            if not os.path.exists(path):
                continue
            options = "HEADER=false" + (f", from='{src}', to='{dst}'" if src else "")
            conn.execute(f"COPY {table} FROM '{path}' ({options})")
        load = time.perf_counter() - started
        nodes = sum(
            conn.execute(f"MATCH (n:{t}) RETURN count(*)").get_next()[0]
            for t in ["City", "Person", "Forum", "Post", "Comment"]
        )
        rels = conn.execute("MATCH ()-[r]->() RETURN count(*)").get_next()[0]
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{kuzu.__name__} {kuzu.__version__}, {nodes} nodes, {rels} relationships")
        print(f"load (COPY FROM CSV): {load:.2f} s, peak RSS so far {peak:.0f} MiB")
        for name, param, q in QUERIES:
            args = values[param]
            t = time.perf_counter()
            rows = sum(len(conn.execute(q, {param: v}).get_all()) for v in args)
            first = (time.perf_counter() - t) * 1e3 / len(args)
            rounds = []
            for _ in range(10):
                t = time.perf_counter()
                for v in args:
                    conn.execute(q, {param: v}).get_all()
                rounds.append((time.perf_counter() - t) * 1e3 / len(args))
            print(
                f"{name}: {rows} rows over {len(args)} parameters; first run after load "
                f"{first:.2f} ms, best {min(rounds):.3f} ms, median "
                f"{statistics.median(rounds):.3f} ms per execution"
            )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak RSS {peak:.0f} MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
