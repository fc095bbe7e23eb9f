"""The LLM judge against a scripted chat-completions server on a real socket.

Every failure path of the verdict contract is exercised over real HTTP: the right
error kind is recorded, no score is invented, and the key never leaks. The retry
policy and the concurrency bound are the client's (tests/unit/monitor/llm).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from prometheus_client import CollectorRegistry

from monitor.embeddings import HashingEmbedder
from monitor.errors import ConfigError, JudgeError
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.judges import JudgeDeps, make_judge
from monitor.judges.base import JudgeRequest
from monitor.judges.llm import LLMJudge, parse_verdict, verdict_schema
from monitor.llm import LLMConfig
from monitor.metrics import MonitorMetrics
from monitor.retrieval import GoldenIndex
from monitor.schemas import GoldenSet, Trace
from tests.conftest import ACCEPTED, CASE_ITEM
from tests.support.chat_server import SECRET, Reply, fast_config, scripted_server, verdict_json

TRACE = Trace(
    trace_id="t-1",
    question="What is the status of case 171056262?",
    answer="Case 171056262 is currently Pending Customer.",
    context={"caseNumber": "171056262"},
)
REQUEST = JudgeRequest(TRACE, CASE_ITEM, ACCEPTED)


def config(url: str, **kw: Any) -> LLMConfig:
    return fast_config(url, model="judge-model", **kw)


async def judge_once(*script: Reply, **kw: Any) -> tuple[Any, Any]:
    with scripted_server(*script) as server:
        judge = LLMJudge(config(server.url, **kw))
        try:
            result: Any = await judge.judge(REQUEST)
        except JudgeError as exc:
            result = exc
        finally:
            await judge.aclose()
        return result, server


# --------------------------------------------------------------------------- happy path


async def test_valid_json_gives_scores_claims_and_accounting() -> None:
    claims = [
        {
            "claim": "Case 171056262",
            "status": "supported",
            "context_field": "caseNumber",
            "context_fact": "171056262",
        },
        {
            "claim": "currently Pending Customer",
            "status": "unverifiable",
            "context_field": None,
            "context_fact": None,
        },
    ]
    r, server = await judge_once(
        Reply(content=verdict_json(0.9, 1.0, claims=claims), usage=(1000, 500))
    )
    assert r.scores.correctness == 0.9 and r.scores.hallucination_fidelity == 1.0
    assert [c.status for c in r.claims] == ["supported", "unverifiable"]
    assert r.claims[0].evidence.context_value == "171056262"  # from the trace, not the LLM
    assert r.claims[0].span == (0, len("Case 171056262"))
    call = r.call
    assert (call.model, call.condition, call.attempts) == ("judge-model", "cargo", 1)
    assert call.usage.input_tokens == 1000 and call.usage.output_tokens == 500
    assert call.cost_usd == pytest.approx(1000 * 0.5 / 1000 + 500 * 2.0 / 1000)
    assert call.prompt_version == "cargo@1+context_grounded@1" and len(call.prompt_hash) == 16
    assert call.temperature == 0.4 and call.seed == 0 and call.structured_output is True
    assert set(call.rationales) == {
        "correctness",
        "completeness",
        "helpfulness",
        "hallucination_fidelity",
    }
    # What went over the wire: system prompt, data blocks, decoding settings, schema, key.
    sent = server.requests[0]
    body = sent.body
    assert body["model"] == "judge-model" and body["temperature"] == 0.4
    assert body["seed"] == 0 and body["top_p"] == 1.0
    assert "max_tokens" not in body and "max_completion_tokens" not in body
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == verdict_schema(
        ("supported", "contradicted", "unverifiable")
    )
    system, user = body["messages"]
    assert system["role"] == "system" and "DIFFERENT instance" in system["content"]
    assert TRACE.answer not in system["content"] and TRACE.answer in user["content"]
    assert sent.headers.get("authorization") == f"Bearer {SECRET}"


async def test_the_key_is_never_recorded() -> None:
    r, _ = await judge_once(Reply(content=verdict_json()))
    judge = LLMJudge(config("http://127.0.0.1:9/v1"))
    for blob in (r.call.model_dump_json(), judge.info.model_dump_json(), repr(judge.config)):
        assert SECRET not in blob


async def test_fenced_json_is_parsed() -> None:
    r, _ = await judge_once(
        Reply(content="```json\n" + verdict_json(0.2) + "\n```"), structured_output="off"
    )
    assert r.scores.correctness == 0.2


async def test_prose_around_json_is_parsed() -> None:
    text = "Here is my evaluation:\n" + verdict_json(0.3) + "\nI hope {this} helps."
    r, server = await judge_once(Reply(content=text), structured_output="off")
    assert r.scores.correctness == 0.3
    assert "response_format" not in server.requests[0].body
    assert r.call.structured_output is False


# --------------------------------------------------------------------------- output failures


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply(content=""), "empty"),
        (Reply(content=None), "empty"),
        (Reply(content="", finish_reason="length"), "empty"),
        (Reply(content="{not json at all"), "unparseable"),
        (Reply(content="The answer looks fine to me."), "unparseable"),
        (Reply(content=json.dumps({"correctness": {"score": 0.9, "rationale": "x"}})), "schema"),
        (Reply(content=verdict_json(1.7)), "schema"),
        (Reply(content=verdict_json(-0.1)), "schema"),
        (
            Reply(
                content=verdict_json(
                    claims=[
                        {
                            "claim": "x",
                            "status": "probably",
                            "context_field": None,
                            "context_fact": None,
                        }
                    ]
                )
            ),
            "schema",
        ),
        (Reply(content=None, refusal="I can't help with that."), "refusal"),
    ],
)
async def test_bad_output_is_an_error_of_its_kind_never_a_score(reply: Reply, kind: str) -> None:
    err, server = await judge_once(reply)
    assert isinstance(err, JudgeError) and err.kind == kind
    assert len(server.requests) == 1  # output problems are not retried blindly
    assert err.call is not None and err.call.attempts == 1
    assert err.call.usage.input_tokens == 120  # a failed call still costs its tokens


def test_binary_condition_rejects_unverifiable() -> None:
    text = verdict_json(
        claims=[
            {"claim": "x", "status": "unverifiable", "context_field": None, "context_fact": None}
        ]
    )
    with pytest.raises(JudgeError) as info:
        parse_verdict(text, ("supported", "unsupported"))
    assert info.value.kind == "schema" and "claims.0.status" in info.value.reason


async def test_repeats_offset_the_seed() -> None:
    with scripted_server(Reply(content=verdict_json())) as server:
        judge = LLMJudge(config(server.url, seed=10))
        for k in range(3):
            r = await judge.judge(JudgeRequest(TRACE, CASE_ITEM, ACCEPTED, repeat=k))
            assert r.call.seed == 10 + k
    assert [s.body["seed"] for s in server.requests] == [10, 11, 12]


def test_missing_endpoint_or_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="CARGO_JUDGE_BASE_URL"):
        make_judge("llm", JudgeDeps())
    with pytest.raises(ConfigError, match="model"):
        LLMConfig(base_url="http://x/v1", model="")


# --------------------------------------------------------------------------- through the evaluator


async def test_evaluator_records_errors_by_kind_and_counts_tokens(golden: GoldenSet) -> None:
    registry = CollectorRegistry()
    metrics = MonitorMetrics(registry, golden, gate_kind="fixed", judge_name="llm")
    index = GoldenIndex(golden, HashingEmbedder(), cache_dir=None)
    item = golden.items[0]
    traces = [Trace(trace_id=f"t{k}", question=item.question, answer=item.answer) for k in range(3)]
    with scripted_server(
        Reply(content=verdict_json(0.9)), Reply(content="no json"), Reply(status=503)
    ) as server:
        judge = LLMJudge(config(server.url, max_retries=0, max_concurrency=1))
        ev = Evaluator(index, FixedGate(0.5), judge, clock=lambda: datetime(2026, 1, 1, tzinfo=UTC))
        out = [await ev.evaluate(t) for t in traces]
    for j in out:
        metrics.observe(j)
    assert [j.status for j in out] == ["evaluated", "judge_error", "judge_error"]
    assert [j.reason for j in out[1:]] == ["unparseable", "http"]
    for j in out[1:]:
        assert j.scores.assessed() == {} and j.penalized is None
        assert j.llm is not None and j.llm.attempts == 1
    assert out[0].llm is not None and out[0].judge is not None
    assert out[0].judge.prompt_version == "cargo@1+context_grounded@1"
    get = registry.get_sample_value
    assert get("cargo_judge_errors_total", {"judge": "llm", "kind": "unparseable"}) == 1
    assert get("cargo_judge_errors_total", {"judge": "llm", "kind": "http"}) == 1
    # 2 answered calls x 120 input tokens; the 503 returned no usage.
    assert get("cargo_judge_tokens_total", {"judge": "llm", "direction": "input"}) == 240
    assert get("cargo_judge_tokens_total", {"judge": "llm", "direction": "output"}) == 60
    assert get("cargo_judge_cost_usd_total", {"judge": "llm"}) == pytest.approx(
        2 * (120 * 0.5 + 30 * 2.0) / 1000
    )
    assert get("cargo_judge_llm_attempts_total", {"judge": "llm"}) == 3
