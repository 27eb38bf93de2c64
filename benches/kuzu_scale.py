"""The other side of `cargo bench --bench scale`: the same synthetic graph in Kuzu.

Builds the graph `benches/scale.rs` generates (same xorshift, same ids, labels, properties and
relationships) as CSV files, loads them into an embedded Kuzu database with `COPY FROM`, and
times the same three queries (best and median of repeated runs after a warm-up). Load time and
the process's peak resident memory are printed too, so the two engines can be compared on one
machine in one sitting:

    python -m venv /tmp/kuzu && /tmp/kuzu/bin/pip install ladybug   # or kuzu
    /tmp/kuzu/bin/python benches/kuzu_scale.py 1000000
    cargo bench --bench scale -- 1000000

Not part of CI (Kuzu is not a dependency of grape).
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

QUERIES = [
    (
        "two_hops_from_one",
        "MATCH (a:Person {name: 'n42'})-[:KNOWS]->(b)-[:KNOWS]->(c) RETURN count(*)",
    ),
    (
        "filter_expand",
        "MATCH (a:Person)-[:OWNS]->(b:Account) WHERE a.score = 8 RETURN count(*)",
    ),
    (
        "group_top",
        "MATCH (a:Person) RETURN a.score AS s, count(*) AS c ORDER BY c DESC, s LIMIT 3",
    ),
]

MASK = (1 << 64) - 1


class Rng:
    """benches/scale.rs's xorshift, bit for bit."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        x = self.x
        x ^= (x << 13) & MASK
        x ^= x >> 7
        x ^= (x << 17) & MASK
        self.x = x
        return x % n


def write_csvs(n, d):
    persons = n // 2
    with open(os.path.join(d, "person.csv"), "w") as f:
        for i in range(persons):
            f.write(f"{i},n{i},{i % 10}\n")
    with open(os.path.join(d, "account.csv"), "w") as f:
        for i in range(persons, n):
            f.write(f"{i},n{i},{i % 10}\n")
    rng = Rng(0x9E3779B97F4A7C15)
    with open(os.path.join(d, "knows.csv"), "w") as k, open(
        os.path.join(d, "owns.csv"), "w"
    ) as o:
        for j in range(4 * n):
            a = rng.below(persons)
            if j % 2 == 0:
                b = rng.below(persons)
                k.write(f"{a},{b},{j % 100}\n")
            else:
                b = persons + rng.below(n - persons)
                o.write(f"{a},{b},{j % 100}\n")


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    work = tempfile.mkdtemp(prefix="kuzu-scale-")
    try:
        write_csvs(n, work)
        db = kuzu.Database(os.path.join(work, "db"))
        conn = kuzu.Connection(db)
        started = time.perf_counter()
        conn.execute("CREATE NODE TABLE Person(id INT64, name STRING, score INT64, PRIMARY KEY(id))")
        conn.execute("CREATE NODE TABLE Account(id INT64, name STRING, score INT64, PRIMARY KEY(id))")
        conn.execute("CREATE REL TABLE KNOWS(FROM Person TO Person, w INT64)")
        conn.execute("CREATE REL TABLE OWNS(FROM Person TO Account, w INT64)")
        for table, file in [
            ("Person", "person.csv"),
            ("Account", "account.csv"),
            ("KNOWS", "knows.csv"),
            ("OWNS", "owns.csv"),
        ]:
            conn.execute(f"COPY {table} FROM '{os.path.join(work, file)}' (HEADER=false)")
        load = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{kuzu.__name__} {kuzu.__version__}, {n} nodes, {4 * n} relationships")
        print(f"load (COPY FROM CSV): {load:.2f} s, peak RSS so far {peak:.0f} MiB")
        for name, q in QUERIES:
            t = time.perf_counter()
            result = conn.execute(q).get_all()
            first = (time.perf_counter() - t) * 1e3
            times = []
            for _ in range(20):
                t = time.perf_counter()
                conn.execute(q).get_all()
                times.append((time.perf_counter() - t) * 1e3)
            print(
                f"{name}: first run after load {first:.2f} ms, best {min(times):.2f} ms, "
                f"median {statistics.median(times):.2f} ms  {result}"
            )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak RSS {peak:.0f} MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
