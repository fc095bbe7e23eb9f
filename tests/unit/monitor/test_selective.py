"""Selective-evaluation maths against hand-computed cases and properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from monitor.selective import (
    aurc,
    failure_recall,
    hit_at_k,
    judge_cost,
    log_loss,
    mrr_at_k,
    ndcg_at_k,
    oracle_scores,
    random_curve,
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


@given(st.lists(st.integers(0, 1), min_size=5, max_size=60), st.floats(0.1, 1.0))
def test_random_sampling_risk_is_the_base_rate_in_expectation(
    losses: list[int], coverage: float
) -> None:
    sim = random_curve(losses, [coverage], draws=400, seed=1)[0]
    base = random_risk(losses)
    assert base is not None
    n = max(1, round(coverage * len(losses)))
    # Standard error of the mean of 400 draws of a size-n subset mean.
    se = np.sqrt(base * (1 - base) / n / 400) + 1e-9
    assert abs(sim - base) <= 5 * se + 1e-6


@given(
    st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=50),
    st.lists(st.integers(0, 1), min_size=50, max_size=50),
)
def test_ece_is_a_weighted_gap_in_unit_range(p: list[float], y: list[int]) -> None:
    table, ece = reliability(p, y[: len(p)])
    assert ece is not None and 0.0 <= ece <= 1.0
    assert sum(b.n for b in table) == len(p)
