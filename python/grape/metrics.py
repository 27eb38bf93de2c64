"""The field's metrics over Python values (definitions: the README's metrics section and
``docs/METRICS.md``).

Text metrics compare query strings: Jaro-Winkler and normalized Levenshtein similarity after a
preprocessing ``variant`` (``default``: unify line ends and trim; ``collapse-ws``: also collapse
whitespace; ``canonical``: grape's canonical form, variables renamed). Result metrics compare
:class:`grape.Result` objects: EX (column names ignored, columns matched in any order, rows as
multisets unless the reference orders them), EX-strict, item Jaccard and Coverage, and Pass@k
over coverages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence

from . import _grape

if TYPE_CHECKING:
    from . import Result

__all__ = [
    "jaro_winkler",
    "normalized_levenshtein",
    "text_scores",
    "TextScores",
    "result_scores",
    "ResultScores",
    "execution_accuracy",
    "jaccard",
    "coverage",
    "pass_at_k",
    "google_bleu",
    "exact_match",
]


def jaro_winkler(a: str, b: str) -> float:
    """Jaro-Winkler similarity of two strings, in [0, 1]."""
    return _grape.jaro_winkler(a, b)


def normalized_levenshtein(a: str, b: str) -> float:
    """1 - Levenshtein distance / length of the longer string, in [0, 1]."""
    return _grape.normalized_levenshtein(a, b)


@dataclass(frozen=True)
class TextScores:
    jaro_winkler: float
    normalized_levenshtein: float
    #: ``canonical`` was asked for but a query did not parse, so ``default`` was used.
    canonical_fallback: bool


def text_scores(reference: str, prediction: str, variant: str = "default") -> TextScores:
    """Both text metrics of a prediction against a reference query, after ``variant``'s
    preprocessing (``default``, ``collapse-ws`` or ``canonical``)."""
    return TextScores(*_grape.text_scores(reference, prediction, variant))


@dataclass(frozen=True)
class ResultScores:
    ex: float
    ex_strict: float
    jaccard: float
    coverage: float


def result_scores(
    generated: "Result", reference: "Result", ordered: Optional[bool] = None
) -> ResultScores:
    """EX, EX-strict, Jaccard and Coverage of a generated result against a reference.
    ``ordered``: compare rows in order; by default, when the reference query has
    ``RETURN ... ORDER BY``."""
    if ordered is None:
        ordered = reference.ordered
    return ResultScores(*_grape.result_scores(generated._t, reference._t, ordered))


def execution_accuracy(
    generated: "Result", reference: "Result", ordered: Optional[bool] = None
) -> float:
    """EX: 1.0 when the results agree (see the module docs), else 0.0."""
    return result_scores(generated, reference, ordered).ex


def jaccard(generated: "Result", reference: "Result", ordered: Optional[bool] = None) -> float:
    """Item-level Jaccard of the two results' values."""
    return result_scores(generated, reference, ordered).jaccard


def coverage(generated: "Result", reference: "Result", ordered: Optional[bool] = None) -> float:
    """Item-level Coverage: the share of the reference's values the generated result has."""
    return result_scores(generated, reference, ordered).coverage


def pass_at_k(coverages: Sequence[Optional[float]], k: int) -> float:
    """Pass@k over the coverages of an example's candidates, best first (``None``: the
    candidate failed)."""
    return _grape.pass_at_k(list(coverages), k)


def google_bleu(reference: str, prediction: str) -> float:
    """Google BLEU of a predicted query against the reference, as Hugging Face ``evaluate``'s
    ``google_bleu`` computes it (13a tokens, n-grams 1-4, the minimum of precision and
    recall)."""
    return _grape.google_bleu(reference, prediction)


def exact_match(reference: str, prediction: str, variant: str = "default") -> float:
    """1.0 when the texts are equal with whitespace collapsed (or their canonical forms, with
    ``variant="canonical"``), else 0.0."""
    return _grape.exact_match(reference, prediction, variant)
