"""Selective-evaluation maths against hand-computed cases and properties.

The report's plots claim three things that these tests check independently: the random
baseline is the base rate at every coverage, the oracle is the lowest curve (and AURC)
there is, and a tied block is handled the same way by the curve and by the AURC (both
are the average over every order in which a gate could take the tied items).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.selective import (
    aurc,
    bootstrap_band,
    expected_failure_recall,
    expected_risk_curve,
    failure_recall,
    flagged_share,
    hit_at_k,
    judge_cost,
    log_loss,
    mrr_at_k,
    ndcg_at_k,
    oracle_failure_recall,
    oracle_scores,
    random_curve,
    random_failure_recall,
    random_risk,
    reference_validity,
    reliability,
    risk_at,
    risk_coverage,
    threshold_for_coverage,
    threshold_for_validity,
)


def test_risk_coverage_by_hand() -> None:
    # scores 0.9 0.8 0.7 0.6 with losses 0 1 0 1
    pts = risk_coverage([0.9, 0.8, 0.7, 0.6], [0, 1, 0, 1])
    assert [(p.threshold, p.coverage, p.risk) for p in pts] == [
        (0.9, 0.25, 0.0),
        (0.8, 0.5, 0.5),
        (0.7, 0.75, pytest.approx(1 / 3)),
        (0.6, 1.0, 0.5),
    ]
    # AURC = mean of the risks of the top 1, 2, 3, 4 = (0 + .5 + 1/3 + .5) / 4
    assert aurc([0.9, 0.8, 0.7, 0.6], [0, 1, 0, 1]) == pytest.approx((0.5 + 1 / 3 + 0.5) / 4)
    assert risk_at(pts, 0.6) == pts[2]


def test_ties_are_accepted_together_and_never_accepted_items_are_left_out() -> None:
    pts = risk_coverage([0.9, 0.9, 0.5, -np.inf], [0, 1, 1, 0])
    assert [(p.coverage, p.risk, p.accepted) for p in pts] == [(0.5, 0.5, 2), (0.75, 2 / 3, 3)]
    # AURC breaks the tie in expectation (risk .5 at k=1) and ranks -inf last.
    assert aurc([0.9, 0.9, 0.5, -np.inf], [0, 1, 1, 0]) == pytest.approx(
        (0.5 + 0.5 + 2 / 3 + 0.5) / 4
    )


def test_failure_recall_by_hand() -> None:
    # 3 failures; at full coverage the judge flags two of them.
    fr = failure_recall([0.9, 0.8, 0.7, 0.6], failures=[1, 0, 1, 1], flagged=[1, 1, 0, 1])
    assert fr == [
        (0.25, pytest.approx(1 / 3)),
        (0.5, pytest.approx(1 / 3)),
        (0.75, pytest.approx(1 / 3)),
        (1.0, pytest.approx(2 / 3)),
    ]


def test_validity_cost_and_thresholds_by_hand() -> None:
    assert reference_validity([True, True, False], [1, 0, 0]) == 0.5
    assert reference_validity([False], [1]) is None
    assert judge_cost(400, 0.5, 0.001, 0.02) == pytest.approx(0.4 + 4.0)
    s, y = [0.95, 0.9, 0.85, 0.8, 0.7], [1, 1, 0, 1, 0]
    # validity of the top 2 is 1.0, top 4 is .75: the loosest threshold with >= .75 is 0.8
    assert threshold_for_validity(s, y, 0.75).threshold == 0.8  # type: ignore[union-attr]
    assert threshold_for_validity(s, y, 1.0).threshold == 0.9  # type: ignore[union-attr]
    assert threshold_for_validity([0.5], [0], 0.9) is None
    assert threshold_for_coverage(s, 0.6).threshold == 0.85  # type: ignore[union-attr]


def test_reliability_and_ece_by_hand() -> None:
    table, ece = reliability([0.1, 0.1, 0.9, 0.9], [0, 1, 1, 1], bins=2)
    assert [(b.n, b.mean_p, b.observed) for b in table] == [(2, 0.1, 0.5), (2, 0.9, 1.0)]
    assert ece == pytest.approx(0.5 * 0.4 + 0.5 * 0.1)
    assert log_loss([0.5, 0.5], [0, 1]) == pytest.approx(np.log(2))


def test_retrieval_metrics_by_hand() -> None:
    ranked = ["a", "b", "c", "d"]
    assert hit_at_k(ranked, {"c"}, 2) == 0.0 and hit_at_k(ranked, {"c"}, 3) == 1.0
    assert mrr_at_k(ranked, {"b", "d"}, 5) == 0.5
    assert ndcg_at_k(ranked, {"a"}, 3) == 1.0
    assert ndcg_at_k(ranked, {"b"}, 3) == pytest.approx(1 / np.log2(3))
    assert ndcg_at_k(ranked, {"c", "a"}, 3) == pytest.approx((1 + 0.5) / (1 + 1 / np.log2(3)))


scores_losses = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
    )
)


@given(scores_losses)
def test_coverage_is_monotone_in_the_threshold(data: tuple[list[float], list[int]]) -> None:
    pts = risk_coverage(*data)
    thresholds = [p.threshold for p in pts]
    coverages = [p.coverage for p in pts]
    assert thresholds == sorted(thresholds, reverse=True)  # looser threshold ...
    assert coverages == sorted(coverages) and coverages[-1] == 1.0  # ... more coverage


@given(
    st.integers(2, 30).flatmap(
        lambda n: st.tuples(
            st.lists(st.sampled_from([0.1, 0.5, 0.9, float("-inf")]), min_size=n, max_size=n),
            st.lists(st.integers(0, 1), min_size=n, max_size=n),
        )
    )
)
def test_the_oracle_beats_orderings_with_many_ties(data: tuple[list[float], list[int]]) -> None:
    scores, losses = data
    assert aurc(oracle_scores(losses), losses) <= aurc(scores, losses) + 1e-12  # type: ignore[operator]


@given(scores_losses)
def test_the_oracle_ordering_has_the_lowest_aurc(data: tuple[list[float], list[int]]) -> None:
    scores, losses = data
    best = aurc(oracle_scores(losses), losses)
    assert best is not None
    assert best <= aurc(scores, losses) + 1e-12  # type: ignore[operator]


@given(st.lists(st.integers(0, 1), min_size=1, max_size=9), st.floats(0.01, 1.0))
def test_random_baseline_is_the_base_rate_over_every_subset(
    losses: list[int], coverage: float
) -> None:
    """The mean risk over *all* subsets of a size is the base rate, at every size."""
    base = random_risk(losses)
    assert base is not None
    assert random_curve(losses, [coverage]) == [base]
    m = len(losses)
    n = max(1, round(coverage * m))
    subsets = list(itertools.combinations(losses, n))
    assert np.mean([np.mean(s) for s in subsets]) == pytest.approx(base)
    # A gate that cannot tell items apart (every score tied) draws the same flat line.
    flat = expected_risk_curve([0.5] * m, losses)
    assert np.allclose(flat.value, base) and flat.area == pytest.approx(base)


def _all_tie_orders(scores: list[float]) -> list[list[int]]:
    """Every ranking a threshold gate could realise: best score first, any order inside
    a run of equal scores (``-inf`` last)."""
    groups = [
        [i for i, s in enumerate(scores) if s == v] for v in sorted(set(scores), reverse=True)
    ]
    orders: list[list[int]] = [[]]
    for g in groups:
        orders = [o + list(p) for o in orders for p in itertools.permutations(g)]
    return orders


small_tied = st.integers(1, 7).flatmap(
    lambda n: st.tuples(
        st.lists(st.sampled_from([0.2, 0.5, 0.9, float("-inf")]), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
    )
)


@given(small_tied)
def test_tied_blocks_are_averaged_over_every_order_in_curve_and_aurc(
    data: tuple[list[float], list[int]],
) -> None:
    scores, losses = data
    m = len(scores)
    k = np.arange(1, m + 1)
    by_order = np.array([np.cumsum(np.array(losses)[o]) / k for o in _all_tie_orders(scores)])
    curve = expected_risk_curve(scores, losses)
    # The curve is the average over tie orders at every coverage k/M ...
    assert np.allclose(curve.value, by_order.mean(axis=0))
    assert np.allclose(curve.coverage, k / m)
    # ... and the AURC is that same curve's mean: one implementation, one number.
    assert aurc(scores, losses) == pytest.approx(float(by_order.mean()))
    assert aurc(scores, losses) == curve.area
    # The threshold points are the ends of the tied blocks of the same curve.
    for p in risk_coverage(scores, losses):
        assert curve.value[p.accepted - 1] == pytest.approx(p.risk)
    assert curve.reachable == sum(not math.isinf(s) for s in scores)


def test_a_tie_at_the_top_is_drawn_over_the_whole_range() -> None:
    # 87% of the items share the top score: the curve still starts at coverage 1/M,
    # flat at the block's mean risk, the AURC's own value there.
    scores = [1.0] * 87 + [0.5] * 13
    losses = [1] * 10 + [0] * 77 + [1] * 13
    curve = expected_risk_curve(scores, losses)
    assert curve.coverage[0] == 0.01 and len(curve.value) == 100
    assert np.allclose(curve.value[:87], 10 / 87)
    assert risk_coverage(scores, losses)[0].coverage == 0.87


@given(scores_losses)
def test_the_oracle_curve_is_below_every_gate_at_every_coverage(
    data: tuple[list[float], list[int]],
) -> None:
    scores, losses = data
    oracle = expected_risk_curve(oracle_scores(losses), losses)
    gate = expected_risk_curve(scores, losses)
    assert np.all(oracle.value <= gate.value + 1e-12)
    assert oracle.area is not None and gate.area is not None and oracle.area <= gate.area + 1e-12
    # The oracle takes every loss-free item first: zero risk up to 1 - base rate.
    clean = len(losses) - sum(losses)
    assert np.all(oracle.value[:clean] == 0)


failure_data = st.integers(1, 7).flatmap(
    lambda n: st.tuples(
        st.lists(st.sampled_from([0.2, 0.5, 0.9, float("-inf")]), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
    )
)


@given(failure_data, st.floats(0.01, 1.0))
def test_failure_recall_baselines_and_ties(
    data: tuple[list[float], list[int], list[int]], coverage: float
) -> None:
    scores, failures, flagged = data
    curve = expected_failure_recall(scores, failures, flagged)
    if sum(failures) == 0:
        assert curve is None and oracle_failure_recall(failures, flagged) is None
        return
    assert curve is not None
    m, total = len(scores), sum(failures)
    hits = np.array(failures) * np.array(flagged)
    by_order = np.array([np.cumsum(hits[o]) / total for o in _all_tie_orders(scores)])
    assert np.allclose(curve.value, by_order.mean(axis=0))
    for cov, rec in failure_recall(scores, failures, flagged):
        assert curve.value[round(cov * m) - 1] == pytest.approx(rec)
    # Random sampling: coverage x flagged share, the mean over all subsets of a size.
    n = max(1, round(coverage * m))
    subsets = itertools.combinations(range(m), n)
    exact = np.mean([hits[list(s)].sum() / total for s in subsets])
    assert random_failure_recall(n / m, failures, flagged) == pytest.approx(exact)
    assert flagged_share(failures, flagged) == pytest.approx(hits.sum() / total)
    # The oracle: min(k, H) / F, above every gate everywhere.
    oracle = oracle_failure_recall(failures, flagged)
    assert oracle is not None
    assert np.allclose(oracle.value, np.minimum(np.arange(1, m + 1), hits.sum()) / total)
    assert np.all(oracle.value >= curve.value - 1e-12)


@given(
    st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=50),
    st.lists(st.integers(0, 1), min_size=50, max_size=50),
)
def test_ece_is_a_weighted_gap_in_unit_range(p: list[float], y: list[int]) -> None:
    table, ece = reliability(p, y[: len(p)])
    assert ece is not None and 0.0 <= ece <= 1.0
    assert sum(b.n for b in table) == len(p)


@settings(max_examples=40)
@given(scores_losses)
def test_the_bootstrap_band_is_ordered_and_collapses_without_variation(
    data: tuple[list[float], list[int]],
) -> None:
    scores, losses = data
    grid = np.linspace(0.05, 1.0, 20)
    lo, hi = bootstrap_band(scores, losses, grid, resamples=20)
    assert np.all(lo <= hi + 1e-12) and np.all(lo >= 0) and np.all(hi <= 1)
    same = [losses[0]] * len(losses)
    lo, hi = bootstrap_band(scores, same, grid, resamples=20)
    assert np.allclose(lo, losses[0]) and np.allclose(hi, losses[0])


def test_the_bootstrap_band_covers_a_known_rate() -> None:
    # 400 items, 10% loss, scores carry no information: the band at full coverage is the
    # bootstrap interval of a mean, about 0.10 ± 1.96 * sqrt(.09 / 400) = ±0.029.
    rng = np.random.default_rng(7)
    losses = (np.arange(400) < 40).astype(float)
    scores = rng.random(400)
    lo, hi = bootstrap_band(scores, losses, [1.0], resamples=400, seed=3)
    assert lo[0] < 0.1 < hi[0]
    assert 0.04 < hi[0] - lo[0] < 0.08
