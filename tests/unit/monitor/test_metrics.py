from __future__ import annotations

import json

import pytest
from prometheus_client import CollectorRegistry

from monitor.embeddings import HashingEmbedder
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.judges import StructuralJudge
from monitor.metrics import MonitorMetrics
from monitor.retrieval import GoldenIndex
from monitor.schemas import GoldenSet
from monitor.traces import RawTrace


async def test_metrics_follow_judgments_with_bounded_labels(golden: GoldenSet) -> None:
    reg = CollectorRegistry()
    m = MonitorMetrics(reg, golden, gate_kind="fixed", judge_name="structural")
    ev = Evaluator(GoldenIndex(golden, HashingEmbedder()), FixedGate(0.8), StructuralJudge())
    lines = [
        json.dumps(
            {
                "trace_id": "a",
                "question": "What is the status of case 171056262?",
                "answer": "Case 536762755 is currently Open.",
                "context": {"caseNumber": "171056262"},
                "agent": "rogue-agent-77",
                "latency_ms": 1500,
            }
        ),
        json.dumps({"trace_id": "b", "question": "Best banana bread recipe?", "answer": "No."}),
        "{oops",
    ]
    for j in await ev.evaluate_batch([RawTrace(x) for x in lines]):
        m.observe(j)
    g = reg.get_sample_value
    assert g("cargo_traces_total", {"status": "evaluated"}) == 1
    assert g("cargo_traces_total", {"status": "abstained"}) == 1
    assert g("cargo_traces_total", {"status": "invalid"}) == 1
    assert g("cargo_traces_total", {"status": "judge_error"}) == 0
    assert g("cargo_invalid_traces_total", {"reason": "invalid_json"}) == 1
    assert (
        g(
            "cargo_judgments_total",
            {"judge": "structural", "intent": "case_status", "penalized": "true"},
        )
        == 1
    )
    # An agent outside the golden set is folded into "other": labels stay bounded.
    assert g("cargo_contradictions_total", {"intent": "case_status", "agent": "other"}) == 1
    assert g("cargo_claims_total", {"status": "contradicted", "intent": "case_status"}) == 1
    abst = sum(
        s.value
        for metric in reg.collect()
        if metric.name == "cargo_gate_decisions"
        for s in metric.samples
        if s.labels.get("decision") == "abstained" and s.name.endswith("_total")
    )
    assert abst == 1
    assert g("cargo_trace_latency_seconds_count") == 1
    assert (
        g("cargo_dimension_score_count", {"dimension": "correctness", "judge": "structural"}) == 1
    )
    assert (
        g("cargo_dimension_score_count", {"dimension": "helpfulness", "judge": "structural"})
        is None
    )
    assert (
        g(
            "cargo_golden_set_info",
            {
                "version": golden.version,
                "content_hash": golden.content_hash(),
                "items": str(len(golden.items)),
            },
        )
        == 1
    )
    for metric in reg.collect():
        for s in metric.samples:
            for value in s.labels.values():
                assert value not in ("a", "b", "rogue-agent-77")


@pytest.mark.parametrize(
    ("judge", "evidence"),
    [
        ("structural", {"settled", "uncertain"}),
        ("llm", {"llm"}),
        ("hybrid", {"settled", "uncertain", "llm"}),
    ],
)
def test_the_alerts_series_exist_at_zero_before_the_first_judgment(
    golden: GoldenSet, judge: str, evidence: set[str]
) -> None:
    # rate() needs a sample before an increment: a series born at 1 loses its first
    # penalty (or contradiction) to the ContradictionSpike and SettledPenaltySpike
    # rules. Pre-created per intent of the golden set (bounded by it), for the
    # evidence the judge can give.
    reg = CollectorRegistry()
    MonitorMetrics(reg, golden, gate_kind="fixed", judge_name=judge)
    g = reg.get_sample_value
    for intent in golden.intents:
        for penalized in ("true", "false"):
            labels = {"judge": judge, "intent": intent, "penalized": penalized}
            assert g("cargo_judgments_total", labels) == 0
        for e in ("settled", "uncertain", "llm", "none"):
            labels = {"judge": judge, "intent": intent, "evidence": e}
            assert g("cargo_penalties_total", labels) == (0 if e in evidence else None)
        assert g("cargo_claims_total", {"status": "contradicted", "intent": intent}) == 0


def _series(reg: CollectorRegistry, name: str) -> set[tuple[tuple[str, str], ...]]:
    return {
        tuple(sorted(s.labels.items()))
        for metric in reg.collect()
        if metric.name == name
        for s in metric.samples
        if s.name.endswith("_total")
    }


async def test_real_judgments_land_on_the_pre_created_series(golden: GoldenSet) -> None:
    # What observe() writes for real judgments -- a contradiction from a trace without
    # an agent, a pass, an abstention -- adds no judgments, penalties or contradicted-
    # claims series: their first increments are all seen by rate().
    reg = CollectorRegistry()
    m = MonitorMetrics(reg, golden, gate_kind="fixed", judge_name="structural")
    names = ("cargo_judgments", "cargo_penalties")
    before = {n: _series(reg, n) for n in names}
    claims_before = _series(reg, "cargo_claims")
    ev = Evaluator(GoldenIndex(golden, HashingEmbedder()), FixedGate(0.8), StructuralJudge())
    case = {
        "question": "What is the status of case 171056262?",
        "context": {"caseNumber": "171056262"},
    }
    lines = [
        json.dumps({"trace_id": "a", **case, "answer": "Case 536762755 is currently Open."}),
        json.dumps({"trace_id": "b", **case, "answer": "Case 171056262 is currently Open."}),
        json.dumps({"trace_id": "c", "question": "Best banana bread recipe?", "answer": "No."}),
    ]
    js = await ev.evaluate_batch([RawTrace(x) for x in lines])
    assert [j.status for j in js] == ["evaluated", "evaluated", "abstained"]
    assert js[0].penalized and js[0].penalty_evidence == "settled"
    for j in js:
        m.observe(j)
    g = reg.get_sample_value
    assert (
        g(
            "cargo_penalties_total",
            {"judge": "structural", "intent": "case_status", "evidence": "settled"},
        )
        == 1
    )
    for n in names:
        assert _series(reg, n) == before[n], n
    contradicted = {x for x in _series(reg, "cargo_claims") if ("status", "contradicted") in x}
    assert contradicted <= claims_before and contradicted
