"""The other side of `cargo bench --bench metrics -- text`: rapidfuzz's C++ on the same pairs.

The 2,117 ZOGRASCOPE test-split queries sorted by id, each paired with the next and the last
with the first (as benches/metrics.rs pairs them), scored by rapidfuzz's C++ kernels through
`rapidfuzz.process.cpdist` (one call for all pairs, one worker: no Python call per pair), the
median and best of 200 runs after a warm-up:

    python -m venv /tmp/rf && /tmp/rf/bin/pip install rapidfuzz numpy
    /tmp/rf/bin/python benches/rapidfuzz_text.py ../shared/data/zograscope/zograscope_test_v1.csv
    cargo bench --bench metrics -- text

Not part of CI (rapidfuzz is not a dependency of grape's tests).
"""

import csv
import statistics
import sys
import time

from rapidfuzz.distance import JaroWinkler, Levenshtein
from rapidfuzz.process import cpdist


def main():
    rows = []
    with open(sys.argv[1], newline="") as f:
        for r in csv.DictReader(f):
            rows.append((int(r["id"]), r["mr"]))
    rows.sort()
    a = [m for _, m in rows]
    b = [rows[(i + 1) % len(rows)][1] for i in range(len(rows))]
    for name, scorer in [
        ("jaro_winkler", JaroWinkler.normalized_similarity),
        ("normalized_levenshtein", Levenshtein.normalized_similarity),
    ]:
        cpdist(a, b, scorer=scorer, workers=1)
        times = []
        for _ in range(200):
            t = time.perf_counter()
            cpdist(a, b, scorer=scorer, workers=1)
            times.append(time.perf_counter() - t)
        print(
            f"text/{name}/rapidfuzz-cpp: {len(a)} pairs, median {statistics.median(times) * 1e6:.0f} µs, "
            f"best {min(times) * 1e6:.0f} µs"
        )


if __name__ == "__main__":
    main()
