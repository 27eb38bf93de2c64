import pytest

import grape
from grape import metrics


def test_text_metrics():
    assert metrics.jaro_winkler("MARTHA", "MARHTA") == pytest.approx(0.9611, abs=1e-4)
    assert metrics.normalized_levenshtein("kitten", "sitting") == pytest.approx(1 - 3 / 7)
    assert metrics.jaro_winkler("", "") == 1.0
    s = metrics.text_scores("MATCH (a) RETURN a", "match (b)   return b", variant="canonical")
    assert s.jaro_winkler == 1.0 and s.normalized_levenshtein == 1.0
    assert not s.canonical_fallback
    s = metrics.text_scores("MATCH (a) RETURN a", "MATCH (a RETURN a", variant="canonical")
    assert s.canonical_fallback and s.jaro_winkler < 1.0
    with pytest.raises(ValueError):
        metrics.text_scores("a", "b", variant="nope")


def test_result_metrics():
    g = grape.Graph.from_cypher("UNWIND range(1, 4) AS i CREATE (:N {i: i, s: toString(i)})")
    gold = g.run("MATCH (n:N) RETURN n.i AS i, n.s AS s")
    swapped = g.run("MATCH (n:N) RETURN n.s AS label, n.i AS value ORDER BY value DESC")
    half = g.run("MATCH (n:N) WHERE n.i <= 2 RETURN n.i, n.s")
    s = metrics.result_scores(swapped, gold)
    assert (s.ex, s.jaccard, s.coverage) == (1.0, 1.0, 1.0)
    assert s.ex_strict == 0.0  # column names differ
    assert metrics.execution_accuracy(half, gold) == 0.0
    assert metrics.coverage(half, gold) == pytest.approx(0.5)
    assert metrics.jaccard(half, gold) == pytest.approx(0.5)
    ordered_gold = g.run("MATCH (n:N) RETURN n.i ORDER BY n.i")
    reversed_ = g.run("MATCH (n:N) RETURN n.i ORDER BY n.i DESC")
    assert metrics.execution_accuracy(reversed_, ordered_gold) == 0.0
    assert metrics.execution_accuracy(reversed_, ordered_gold, ordered=False) == 1.0


def test_pass_at_k():
    assert metrics.pass_at_k([0.0, 1.0, None], 1) == 0.0
    assert metrics.pass_at_k([0.0, 1.0, None], 2) == 1.0
    assert metrics.pass_at_k([None, None], 2) == 0.0


def test_google_bleu_and_exact_match():
    assert metrics.google_bleu("the cat ate the mat", "the cat sat on the mat") == pytest.approx(1 / 3)
    assert metrics.google_bleu("", "") == 0.0
    assert metrics.exact_match("MATCH (n)  RETURN n", "MATCH (n) RETURN n") == 1.0
    assert metrics.exact_match("MATCH (n) RETURN n", "match (m) return m", variant="canonical") == 1.0
    assert metrics.exact_match("MATCH (n) RETURN n", "match (m) return m") == 0.0
