"""What a penalty rests on (``penalty_evidence``): the ``evidence`` label of
``cargo_penalties_total`` and the ``SettledPenaltySpike`` alert's signal (the run
summary's rows: ``tests/unit/pipelines/test_run_summary.py``)."""

from __future__ import annotations

import json

import pytest
from prometheus_client import CollectorRegistry

from monitor.embeddings import HashingEmbedder
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.judges.llm import LLMJudge
from monitor.judges.structural import PENALTY_EVIDENCE, penalty_evidence
from monitor.metrics import MonitorMetrics
from monitor.retrieval import GoldenIndex
from monitor.schemas import GoldenSet, JudgeErrorInfo, Judgment, LLMCall, Scores
from monitor.traces import RawTrace
from tests.support.chat_server import Reply, scripted_server, verdict_json
from tests.support.judgments import NOW, claim, judged, step
from tests.unit.monitor.judges.test_hybrid import hybrid

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
    assert LLMJudge.name == "llm"  # the name penalty_evidence reads
    j = judged(claims=(claim("contradicted"),), judge="llm", llm=LLMCall(sampled=True))
    assert penalty_evidence(j) == "llm"


async def _hybrid_judgment(golden: GoldenSet, reply: str, answer: str) -> Judgment:
    """One trace through the evaluator with a real hybrid judge (structural tier and an
    LLM tier on a scripted chat-completions server)."""
    trace = {
        "trace_id": "t1",
        "question": "What is the status of case 171056262?",
        "answer": answer,
        "context": {"caseNumber": "171056262", "status": "Pending Customer"},
    }
    with scripted_server(Reply(content=reply)) as server:
        judge = hybrid(server.url)
        ev = Evaluator(GoldenIndex(golden, HashingEmbedder()), FixedGate(0.8), judge)
        (j,) = await ev.evaluate_batch([RawTrace(json.dumps(trace))])
        await judge.llm.aclose()
    assert j.status == "evaluated", j.reason
    return j


async def test_a_real_hybrid_judgment_rests_on_the_llm_or_on_settled_evidence(
    golden: GoldenSet,
) -> None:
    # A correct answer the LLM tier finds wrong: the penalty is the LLM's.
    ok = "Case 171056262 is currently Pending Customer."
    # The evaluator records it on the judgment (what a reader of judgments.jsonl sees).
    j = await _hybrid_judgment(golden, verdict_json(0.1, 1.0), ok)
    assert j.penalized and j.penalty_evidence == "llm"
    # A contradicted observed value the LLM tier lets pass: the settled fault stands.
    wrong = "Case 171056262 is currently Escalated."
    j = await _hybrid_judgment(golden, verdict_json(1.0, 1.0), wrong)
    assert j.penalized and j.penalty_evidence == "settled"
    # The LLM tier fails on the same answer: still settled, the structural verdict stands.
    j = await _hybrid_judgment(golden, "not json", wrong)
    assert j.llm is not None and j.llm.error is not None
    assert j.penalized and j.penalty_evidence == "settled"
    # A pass carries none.
    j = await _hybrid_judgment(golden, verdict_json(1.0, 1.0), ok)
    assert not j.penalized and j.penalty_evidence is None
    assert "penalty_evidence" not in j.model_dump(mode="json")


def test_the_recorded_evidence_is_written_read_back_and_checked() -> None:
    j = judged(steps=(step("altered", uncertain=True),))
    recorded = j.model_copy(update={"penalty_evidence": "uncertain"})
    line = recorded.model_dump_json()
    assert json.loads(line)["penalty_evidence"] == "uncertain"
    back = Judgment.model_validate_json(line)
    assert back.penalty_evidence == "uncertain" and penalty_evidence(back) == "uncertain"
    # A judgment written before the field existed: derived from its verdicts.
    assert j.penalty_evidence is None and penalty_evidence(j) == "uncertain"
    # What the evaluator recorded wins over what the verdicts alone would say.
    assert penalty_evidence(j.model_copy(update={"penalty_evidence": "llm"})) == "llm"
    # Only a penalised judgment carries it, and never "none".
    data = json.loads(line)
    for bad in ({"penalty_evidence": "none"}, {"penalized": False, "scores": {}}):
        with pytest.raises(ValueError, match="penalty_evidence"):
            Judgment.model_validate({**data, **bad})
    abstained = {"trace_id": "t", "status": "abstained", "reason": "low_similarity"}
    with pytest.raises(ValueError, match="penalty_evidence"):
        Judgment.model_validate(
            {**abstained, "evaluated_at": NOW.isoformat(), "penalty_evidence": "settled"}
        )


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
