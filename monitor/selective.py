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


def risk_coverage(
    scores: Sequence[float] | Array, losses: Sequence[float] | Array
) -> list[CurvePoint]:
    """One point per distinct score, from the strictest threshold to the loosest.

    Items with a score of ``-inf`` are never accepted (a gate that cannot take them).
    """
    s, loss = _arr(scores), _arr(losses)
    if len(s) != len(loss):
        raise ValueError(f"{len(s)} scores but {len(loss)} losses")
    m = len(s)
    if m == 0:
        return []
    order = np.argsort(-s, kind="stable")
    s_sorted, l_sorted = s[order], loss[order]
    cum = np.cumsum(l_sorted)
    points: list[CurvePoint] = []
    k = 0
    while k < m:
        t = s_sorted[k]
        if not np.isfinite(t) and t < 0:
            break
        j = k
        while j + 1 < m and s_sorted[j + 1] == t:
            j += 1
        n = j + 1
        points.append(CurvePoint(float(t), n / m, float(cum[j] / n), n))
        k = j + 1
    return points


def aurc(scores: Sequence[float] | Array, losses: Sequence[float] | Array) -> float | None:
    """Area under the risk-coverage curve: the mean over k = 1..M of the risk of the
    k best-scored items, ties broken at random (in expectation).

    Items that can never be accepted (score ``-inf``) are ranked last, so that every
    ordering is compared over the same coverage range [0, 1].
    """
    s, loss = _arr(scores), _arr(losses)
    m = len(s)
    if m == 0:
        return None
    s = np.where(
        np.isneginf(s),
        np.nanmin(np.where(np.isneginf(s), np.inf, s)) - 1.0 if np.isfinite(s).any() else 0.0,
        s,
    )
    order = np.argsort(-s, kind="stable")
    s_sorted, l_sorted = s[order], loss[order]
    expected = np.empty(m)
    k = 0
    while k < m:
        j = k
        while j + 1 < m and s_sorted[j + 1] == s_sorted[k]:
            j += 1
        expected[k : j + 1] = l_sorted[k : j + 1].mean()  # random order inside a tie group
        k = j + 1
    cum = np.cumsum(expected)
    return float(np.mean(cum / np.arange(1, m + 1)))


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


def random_curve(
    losses: Sequence[float] | Array, coverages: Sequence[float], *, draws: int = 200, seed: int = 0
) -> list[float]:
    """Mean risk of ``draws`` random subsets at each coverage (a simulation of
    :func:`random_risk`, for plots)."""
    loss = _arr(losses)
    m = len(loss)
    rng = np.random.default_rng(seed)
    out = []
    for c in coverages:
        n = max(1, round(c * m))
        out.append(
            float(np.mean([loss[rng.choice(m, n, replace=False)].mean() for _ in range(draws)]))
        )
    return out


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
