"""Two-tier judging: deterministic sampling, the combination rule, LLM-tier failures."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import SecretStr

from monitor.errors import ConfigError
from monitor.judges.base import JudgeRequest, is_penalized
from monitor.judges.hybrid import HybridJudge, TraceSampler, combine
from monitor.judges.llm import LLMJudge
from monitor.judges.structural import StructuralJudge
from monitor.llm import LLMConfig
from monitor.schemas import Scores, Trace
from tests.conftest import ACCEPTED, CASE_ITEM
from tests.support.chat_server import Reply, scripted_server, verdict_json


def hybrid(url: str, rate: float = 1.0, **kw: Any) -> HybridJudge:
    cfg = LLMConfig(
        base_url=url,
        model="m",
        api_key=SecretStr("k"),
        backoff_base_s=0.01,
        backoff_cap_s=0.02,
        max_retries=0,
        **kw,
    )
    return HybridJudge(StructuralJudge(), LLMJudge(cfg), TraceSampler(rate))


def request(trace_id: str, answer: str, context: dict[str, str]) -> JudgeRequest:
    return JudgeRequest(
        Trace(trace_id=trace_id, question="q", answer=answer, context=context), CASE_ITEM, ACCEPTED
    )


def test_sampling_is_deterministic_and_near_its_rate() -> None:
    s = TraceSampler(0.3)
    ids = [f"trace-{k}" for k in range(20000)]
    picked = [s.sampled(i, None) for i in ids]
    assert picked == [TraceSampler(0.3).sampled(i, None) for i in ids]  # same on every worker
    assert abs(sum(picked) / len(ids) - 0.3) < 0.015
    assert not any(TraceSampler(0.0).sampled(i, None) for i in ids[:500])
    assert all(TraceSampler(1.0).sampled(i, None) for i in ids[:500])


def test_per_intent_rates() -> None:
    s = TraceSampler(0.0, {"case_status": 1.0})
    assert s.sampled("x", "case_status") and not s.sampled("x", "warranty")
    with pytest.raises(ConfigError, match="case_status"):
        TraceSampler(0.5, {"case_status": 1.5})


@given(st.lists(st.text(min_size=1), min_size=1, max_size=50), st.floats(0, 1), st.floats(0, 1))
def test_sampling_is_monotone_in_the_rate(ids: list[str], a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    for i in ids:  # raising the rate only adds traces to the sample
        assert not TraceSampler(lo).sampled(i, None) or TraceSampler(hi).sampled(i, None)


def test_combination_rule() -> None:
    s = Scores(correctness=1.0, completeness=None, hallucination_fidelity=0.25)
    m = Scores(correctness=0.3, completeness=0.9, helpfulness=0.8, hallucination_fidelity=1.0)
    c = combine(s, m)
    assert c == Scores(
        correctness=0.3, completeness=0.9, helpfulness=0.8, hallucination_fidelity=0.25
    )


async def test_structural_contradiction_survives_a_lenient_llm() -> None:
    with scripted_server(Reply(content=verdict_json(1.0, 1.0))) as server:
        judge = hybrid(server.url)
        r = await judge.judge(
            request("t1", "Case 536762755 is currently Escalated.", {"caseNumber": "491541446"})
        )
        await judge.llm.aclose()
    assert is_penalized(r.scores) and r.scores.helpfulness == 0.7
    assert r.call is not None and r.call.sampled and r.call.attempts == 1
    assert any(c.status == "contradicted" for c in r.claims)  # structural claims, with spans
    assert all(c.span is not None for c in r.claims)


async def test_llm_found_fault_survives_a_silent_structural_tier() -> None:
    with scripted_server(Reply(content=verdict_json(0.1, 1.0))) as server:
        judge = hybrid(server.url)
        r = await judge.judge(
            request(
                "t1", "Case 171056262 is currently Pending Customer.", {"caseNumber": "171056262"}
            )
        )
        await judge.llm.aclose()
    assert r.scores.correctness == 0.1 and is_penalized(r.scores)


async def test_not_sampled_traces_keep_their_structural_verdict_without_a_call() -> None:
    with scripted_server(Reply(content=verdict_json())) as server:
        judge = hybrid(server.url, rate=0.0)
        r = await judge.judge(
            request(
                "t1", "Case 171056262 is currently Pending Customer.", {"caseNumber": "171056262"}
            )
        )
        await judge.llm.aclose()
    assert server.requests == []
    assert r.call is not None and r.call.sampled is False and r.call.sample_rate == 0.0
    assert r.scores.helpfulness is None and r.scores.correctness == 1.0


async def test_llm_failure_degrades_to_the_structural_verdict_with_the_error() -> None:
    with scripted_server(Reply(content="not json")) as server:
        judge = hybrid(server.url)
        r = await judge.judge(
            request("t1", "Case 536762755 is currently Escalated.", {"caseNumber": "491541446"})
        )
        await judge.llm.aclose()
    assert r.call is not None and r.call.error is not None
    assert r.call.error.kind == "unparseable" and r.call.usage.input_tokens == 120
    assert r.scores.helpfulness is None and is_penalized(r.scores)
