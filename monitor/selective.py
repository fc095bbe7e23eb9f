"""Selective evaluation maths: risk-coverage, calibration, retrieval quality, cost.

Continuous evaluation is a selective-prediction problem: a gate decides which
traces are evaluated, ranked by a score (s* for the fixed gate, P-hat for the
calibrated one). For labelled traces with a per-trace loss (1 = the evaluation
of this trace is wrong or invalid), this module computes

* coverage and selective risk at every threshold of the score (ties are accepted
  together, as a threshold gate does), the area under that curve (AURC), and the
  risk at a chosen coverage;
* the same curve for an oracle ordering (the lowest attainable AURC) and for random
  sampling at matched coverage (its expected risk is the base rate);
* stream-level failure recall: of all failures in the stream, the share that the
  monitor evaluates *and* flags at a given coverage;
* reference validity (share of evaluated traces whose reference is appropriate);
* the judge cost curve C = M*Ce + M*Cov*Cj;
* reliability tables and ECE for a calibrated probability, thresholds reaching a
  target validity or coverage, log-loss;
* Hit@K, MRR@K and NDCG@K of a ranked reference list against appropriateness labels.

Pure numpy; no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Array = np.ndarray


@dataclass(frozen=True, slots=True)
class CurvePoint:
    threshold: float
    coverage: float
    risk: float
    accepted: int


def _arr(x: Sequence[float] | Array) -> Array:
    return np.asarray(x, dtype=float)


def _tie_starts(s_sorted: Array) -> Array:
    """Start index of every run of equal scores in a descending-sorted array."""
    if len(s_sorted) == 0:
        return np.zeros(0, dtype=int)
    return np.flatnonzero(np.r_[True, s_sorted[1:] != s_sorted[:-1]])


def _ranked(
    scores: Sequence[float] | Array, values: Sequence[float] | Array
) -> tuple[Array, Array]:
    """Scores sorted best first (``-inf`` last) and the *expected* value at every rank.

    Inside a run of tied scores a gate accepts the items in random order, so every rank
    of the run carries the run's mean value: as coverage moves through a tied block the
    cumulative value grows by the block's mean per item. Every curve and area in this
    module is built on this one function, so a curve and its area never disagree.
    """
    s, v = _arr(scores), _arr(values)
    if len(s) != len(v):
        raise ValueError(f"{len(s)} scores but {len(v)} values")
    order = np.argsort(-s, kind="stable")
    s_sorted, v_sorted = s[order], v[order]
    starts = _tie_starts(s_sorted)
    if len(starts) == 0:
        return s_sorted, v_sorted
    sizes = np.diff(np.r_[starts, len(s_sorted)])
    means = np.add.reduceat(v_sorted, starts) / sizes
    return s_sorted, np.repeat(means, sizes)


@dataclass(frozen=True, slots=True)
class ExpectedCurve:
    """A selective quantity at every coverage k/M, k = 1..M, ties in expectation.

    ``value[k-1]`` is the expected risk (or recall) when the k best-scored items are
    accepted. Items scored ``-inf`` can never be accepted by the gate; they are ranked
    last so that every ordering spans coverage (0, 1], and ``reachable`` says up to
    which coverage the gate itself can go (``reachable_coverage``).
    """

    coverage: Array
    value: Array
    reachable: int

    @property
    def reachable_coverage(self) -> float:
        return self.reachable / len(self.coverage) if len(self.coverage) else 0.0

    @property
    def area(self) -> float | None:
        """Mean of ``value`` over k = 1..M (the AURC for a risk curve)."""
        return float(np.mean(self.value)) if len(self.value) else None


def expected_risk_curve(
    scores: Sequence[float] | Array, losses: Sequence[float] | Array
) -> ExpectedCurve:
    """Expected selective risk of the k best-scored items, for every k = 1..M."""
    s_sorted, expected = _ranked(scores, losses)
    m = len(s_sorted)
    k = np.arange(1, m + 1)
    return ExpectedCurve(
        k / max(m, 1), np.cumsum(expected) / k, int(np.sum(~np.isneginf(s_sorted)))
    )


def bootstrap_band(
    scores: Sequence[float] | Array,
    losses: Sequence[float] | Array,
    coverages: Sequence[float] | Array,
    *,
    resamples: int = 200,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[Array, Array]:
    """Pointwise percentile band of :func:`expected_risk_curve` at ``coverages``, over
    ``resamples`` bootstrap resamples of the items (scores and losses drawn together).
    Returns (low, high); a band of zero width when every loss is the same."""
    s, loss = _arr(scores), _arr(losses)
    m = len(s)
    cov = _arr(coverages)
    if m == 0:
        return np.full(len(cov), np.nan), np.full(len(cov), np.nan)
    k = np.clip(np.ceil(cov * m - 1e-9).astype(int), 1, m) - 1
    rng = np.random.default_rng(seed)
    draws = np.empty((resamples, len(cov)))
    for b in range(resamples):
        idx = rng.integers(0, m, m)
        draws[b] = expected_risk_curve(s[idx], loss[idx]).value[k]
    tail = (1 - level) / 2 * 100
    return np.percentile(draws, tail, axis=0), np.percentile(draws, 100 - tail, axis=0)


def risk_coverage(
    scores: Sequence[float] | Array, losses: Sequence[float] | Array
) -> list[CurvePoint]:
    """One point per distinct score, from the strictest threshold to the loosest: the
    coverage and risk of a threshold gate, which accepts tied items together. These are
    the ends of the tied blocks of :func:`expected_risk_curve`.

    Items with a score of ``-inf`` are never accepted (a gate that cannot take them).
    """
    s_sorted, expected = _ranked(scores, losses)
    m = len(s_sorted)
    cum = np.cumsum(expected)
    points: list[CurvePoint] = []
    starts = _tie_starts(s_sorted)
    for start, end in zip(starts, [*starts[1:], m], strict=True):
        t = s_sorted[start]
        if np.isneginf(t):
            break
        n = int(end)
        points.append(CurvePoint(float(t), n / m, float(cum[n - 1] / n), n))
    return points


def aurc(scores: Sequence[float] | Array, losses: Sequence[float] | Array) -> float | None:
    """Area under the risk-coverage curve: the mean over k = 1..M of the expected risk
    of the k best-scored items (the mean of :func:`expected_risk_curve`).

    Items that can never be accepted (score ``-inf``) are ranked last, so that every
    ordering is compared over the same coverage range [0, 1].
    """
    return expected_risk_curve(scores, losses).area


def oracle_scores(losses: Sequence[float] | Array) -> Array:
    """Scores that accept the loss-free items first: the best possible ordering."""
    loss = _arr(losses)
    # Distinct scores so that the oracle has a point at every coverage.
    return -loss * len(loss) - np.arange(len(loss)) / max(len(loss), 1)


def risk_at(points: Sequence[CurvePoint], coverage: float) -> CurvePoint | None:
    """The strictest threshold whose coverage reaches ``coverage``."""
    for p in points:
        if p.coverage >= coverage - 1e-12:
            return p
    return None


def random_risk(losses: Sequence[float] | Array) -> float | None:
    """Expected selective risk of random sampling, at any coverage: the base rate."""
    loss = _arr(losses)
    return float(loss.mean()) if len(loss) else None


def random_curve(losses: Sequence[float] | Array, coverages: Sequence[float]) -> list[float]:
    """Expected risk of a uniformly random subset at each coverage: exactly the base
    rate everywhere (every item is in the subset with the same probability). It is the
    expected curve of a gate whose scores are all tied."""
    base = random_risk(losses)
    return [] if base is None else [base for _ in coverages]


def failure_recall(
    scores: Sequence[float] | Array,
    failures: Sequence[float] | Array,
    flagged: Sequence[float] | Array,
) -> list[tuple[float, float]]:
    """(coverage, stream-level failure recall) at every threshold: the share of all
    failures in the stream that are evaluated and flagged."""
    s, f, g = _arr(scores), _arr(failures), _arr(flagged)
    total = f.sum()
    if total == 0:
        return []
    hits = f * g
    out = []
    for p in risk_coverage(s, hits):
        out.append((p.coverage, float(p.risk * p.accepted / total)))
    return out


def expected_failure_recall(
    scores: Sequence[float] | Array,
    failures: Sequence[float] | Array,
    flagged: Sequence[float] | Array,
) -> ExpectedCurve | None:
    """Expected stream-level failure recall at every coverage k/M (ties in expectation,
    the same ranking as :func:`expected_risk_curve`); ``None`` without failures."""
    f, g = _arr(failures), _arr(flagged)
    total = f.sum()
    if total == 0:
        return None
    s_sorted, expected = _ranked(scores, f * g)
    m = len(s_sorted)
    return ExpectedCurve(
        np.arange(1, m + 1) / m, np.cumsum(expected) / total, int(np.sum(~np.isneginf(s_sorted)))
    )


def flagged_share(failures: Sequence[float] | Array, flagged: Sequence[float] | Array) -> float:
    """Share of the stream's failures that the judge flags when it sees them all:
    the recall at full coverage, and the slope of random sampling's recall."""
    f, g = _arr(failures), _arr(flagged)
    return float((f * g).sum() / f.sum()) if f.sum() else 0.0


def random_failure_recall(
    coverage: float, failures: Sequence[float] | Array, flagged: Sequence[float] | Array
) -> float:
    """Expected failure recall of random sampling: coverage x flagged share."""
    return coverage * flagged_share(failures, flagged)


def oracle_failure_recall(
    failures: Sequence[float] | Array, flagged: Sequence[float] | Array
) -> ExpectedCurve | None:
    """The best attainable recall: the flagged failures first, min(k, H) / F."""
    f, g = _arr(failures), _arr(flagged)
    return expected_failure_recall(oracle_scores(1.0 - f * g), f, g)


def reference_validity(
    accepted: Sequence[bool] | Array, appropriate: Sequence[float] | Array
) -> float | None:
    a, y = np.asarray(accepted, dtype=bool), _arr(appropriate)
    return float(y[a].mean()) if a.any() else None


def judge_cost(m: int, coverage: float, cost_embed: float, cost_judge: float) -> float:
    """C = M*Ce + M*Cov*Cj: every trace is embedded, only the accepted are judged."""
    return m * cost_embed + m * coverage * cost_judge


# --------------------------------------------------------------------------- calibration


@dataclass(frozen=True, slots=True)
class ReliabilityBin:
    lo: float
    hi: float
    n: int
    mean_p: float | None
    observed: float | None


def reliability(
    p: Sequence[float] | Array, y: Sequence[float] | Array, bins: int = 10
) -> tuple[list[ReliabilityBin], float | None]:
    """Equal-width reliability table and the expected calibration error."""
    pa, ya = _arr(p), _arr(y)
    if len(pa) == 0:
        return [], None
    edges = np.linspace(0.0, 1.0, bins + 1)
    idx = np.clip(np.digitize(pa, edges[1:-1], right=True), 0, bins - 1)
    table, ece = [], 0.0
    for b in range(bins):
        mask = idx == b
        n = int(mask.sum())
        if n:
            mp, ob = float(pa[mask].mean()), float(ya[mask].mean())
            ece += n / len(pa) * abs(mp - ob)
            table.append(ReliabilityBin(float(edges[b]), float(edges[b + 1]), n, mp, ob))
        else:
            table.append(ReliabilityBin(float(edges[b]), float(edges[b + 1]), 0, None, None))
    return table, ece


def log_loss(p: Sequence[float] | Array, y: Sequence[float] | Array, eps: float = 1e-6) -> float:
    pa = np.clip(_arr(p), eps, 1 - eps)
    ya = _arr(y)
    return float(-np.mean(ya * np.log(pa) + (1 - ya) * np.log(1 - pa)))


def threshold_for_validity(
    scores: Sequence[float] | Array, appropriate: Sequence[float] | Array, target: float
) -> CurvePoint | None:
    """The loosest threshold whose accepted set still has validity >= ``target``
    (the most coverage at that validity); ``None`` when no threshold reaches it.
    The returned point's ``risk`` is 1 - validity."""
    best = None
    for p in risk_coverage(scores, 1.0 - _arr(appropriate)):
        if 1.0 - p.risk >= target - 1e-12:
            best = p
    return best


def threshold_for_coverage(scores: Sequence[float] | Array, coverage: float) -> CurvePoint | None:
    """The strictest threshold accepting at least ``coverage`` of the items."""
    return risk_at(risk_coverage(scores, np.zeros(len(_arr(scores)))), coverage)


# --------------------------------------------------------------------------- retrieval


def hit_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    return 1.0 if any(r in relevant for r in ranked[:k]) else 0.0


def mrr_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    for i, r in enumerate(ranked[:k], start=1):
        if r in relevant:
            return 1.0 / i
    return 0.0


def ndcg_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    """Binary-relevance NDCG@K."""
    dcg = sum(1.0 / math.log2(i + 1) for i, r in enumerate(ranked[:k], start=1) if r in relevant)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(k, len(relevant)) + 1))
    return dcg / ideal if ideal else 0.0
