"""What a penalty rests on (``penalty_evidence``): the ``evidence`` label of
``cargo_penalties_total`` and the ``SettledPenaltySpike`` alert's signal (the run
summary's rows: ``tests/unit/pipelines/test_run_summary.py``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from prometheus_client import CollectorRegistry

from monitor.judges import is_penalized
from monitor.judges.structural import PENALTY_EVIDENCE, penalty_evidence, score
from monitor.metrics import MonitorMetrics
from monitor.schemas import (
    ClaimEvidence,
    ClaimVerdict,
    GoldenSet,
    JudgeErrorInfo,
    JudgeInfo,
    Judgment,
    LLMCall,
    Scores,
    StepVerdict,
)

NOW = datetime(2026, 12, 7, tzinfo=UTC)


def step(status: str, *, uncertain: bool = False, index: int = 0) -> StepVerdict:
    return StepVerdict.model_validate(
        {
            "index": index,
            "step": "Return the bike to any dock within 2 hours.",
            "status": status,
            "cue": "test",
            "uncertain": uncertain,
        }
    )


def claim(status: str, *, uncertain: bool = False) -> ClaimVerdict:
    return ClaimVerdict.model_validate(
        {
            "field": "status",
            "value": "Open",
            "type": "enum",
            "status": status,
            "sentence": "Case 1 is Open.",
            "evidence": ClaimEvidence(source="context", context_field="status", cue="label"),
            "uncertain": uncertain,
        }
    )


def judged(
    *,
    claims: tuple[ClaimVerdict, ...] = (),
    steps: tuple[StepVerdict, ...] = (),
    judge: str = "structural",
    llm: LLMCall | None = None,
    scores: Scores | None = None,
) -> Judgment:
    """An evaluated judgment penalised as its verdicts score (or by ``scores``)."""
    s = scores if scores is not None else score(claims, steps)
    return Judgment(
        trace_id="t",
        status="evaluated",
        reason="accepted",
        penalized=is_penalized(s),
        scores=s,
        claims=claims,
        steps=steps,
        judge=JudgeInfo(name=judge),
        llm=llm,
        evaluated_at=NOW,
    )


PENALISING = Scores(correctness=0.2, hallucination_fidelity=1.0)


def test_a_passed_or_unjudged_trace_rests_on_nothing() -> None:
    assert penalty_evidence(judged(steps=(step("covered"),))) == "none"
    assert penalty_evidence(judged(steps=(step("covered", uncertain=True),))) == "none"
    abstained = Judgment(
        trace_id="t", status="abstained", reason="low_similarity", evaluated_at=NOW
    )
    assert penalty_evidence(abstained) == "none"


def test_a_settled_fault_is_settled_even_beside_uncertain_ones() -> None:
    assert penalty_evidence(judged(steps=(step("negated"),))) == "settled"
    assert penalty_evidence(judged(claims=(claim("contradicted"),))) == "settled"
    both = judged(steps=(step("altered", uncertain=True), step("missing", index=1)))
    assert penalty_evidence(both) == "settled"


def test_uncertain_verdicts_alone_are_uncertain() -> None:
    j = judged(steps=(step("altered", uncertain=True), step("covered", index=1)))
    assert j.penalized
    assert penalty_evidence(j) == "uncertain"
    assert penalty_evidence(judged(claims=(claim("contradicted", uncertain=True),))) == "uncertain"


def test_a_hybrid_penalty_is_the_llm_tiers_when_it_answered_and_nothing_settled_penalises() -> None:
    steps = (step("altered", uncertain=True),)
    called = LLMCall(sampled=True, escalated=True)
    j = judged(steps=steps, judge="hybrid", llm=called, scores=PENALISING)
    assert penalty_evidence(j) == "llm"
    # A settled fault stays settled whatever the LLM tier said.
    j = judged(steps=(step("negated"),), judge="hybrid", llm=called, scores=PENALISING)
    assert penalty_evidence(j) == "settled"
    # The LLM tier failed or was not called: the structural verdict stands, uncertain.
    failed = LLMCall(sampled=True, error=JudgeErrorInfo(kind="timeout", reason="t"))
    j = judged(steps=steps, judge="hybrid", llm=failed, scores=PENALISING)
    assert penalty_evidence(j) == "uncertain"
    skipped = LLMCall(sampled=False, sample_rate=0.1)
    j = judged(steps=steps, judge="hybrid", llm=skipped, scores=PENALISING)
    assert penalty_evidence(j) == "uncertain"


def test_the_llm_judges_penalty_is_the_llms_even_on_its_own_claims() -> None:
    j = judged(claims=(claim("contradicted"),), judge="llm", llm=LLMCall(sampled=True))
    assert penalty_evidence(j) == "llm"


@pytest.fixture
def metrics(golden: GoldenSet) -> tuple[CollectorRegistry, MonitorMetrics]:
    reg = CollectorRegistry()
    return reg, MonitorMetrics(reg, golden, gate_kind="fixed", judge_name="structural")


def test_penalties_are_counted_by_evidence_and_passes_are_not(
    metrics: tuple[CollectorRegistry, MonitorMetrics],
) -> None:
    reg, m = metrics
    for j in (
        judged(steps=(step("negated"),)),
        judged(steps=(step("negated"),)),
        judged(steps=(step("altered", uncertain=True),)),
        judged(steps=(step("covered"),)),
    ):
        m.observe(j)
    g = reg.get_sample_value
    labels = {"judge": "structural", "intent": "none"}
    assert g("cargo_penalties_total", {**labels, "evidence": "settled"}) == 2
    assert g("cargo_penalties_total", {**labels, "evidence": "uncertain"}) == 1
    assert g("cargo_penalties_total", {**labels, "evidence": "none"}) is None
    assert g("cargo_judgments_total", {**labels, "penalized": "true"}) == 3
    values = {
        s.labels["evidence"]
        for metric in reg.collect()
        if metric.name == "cargo_penalties"
        for s in metric.samples
    }
    assert values <= set(PENALTY_EVIDENCE) - {"none"}
