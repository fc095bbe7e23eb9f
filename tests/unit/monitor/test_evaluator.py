from __future__ import annotations

import asyncio
import json

import pytest

from monitor.embeddings import HashingEmbedder
from monitor.errors import JudgeError
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.judges import StructuralJudge
from monitor.judges.base import JudgeRequest, JudgeResult
from monitor.retrieval import GoldenIndex
from monitor.schemas import GoldenSet, JudgeInfo, Judgment, SourceLocation
from monitor.traces import RawTrace


class FailingJudge:
    """A judge whose failure mode is chosen by the test."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    @property
    def info(self) -> JudgeInfo:
        return JudgeInfo(name="failing")

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        if self.mode == "slow":
            await asyncio.sleep(5)
        if self.mode == "unparseable":
            raise JudgeError("unparseable", "no JSON object in the response")
        raise RuntimeError("boom")


def _evaluator(golden: GoldenSet, judge: object | None = None, timeout: float = 5.0) -> Evaluator:
    return Evaluator(
        GoldenIndex(golden, HashingEmbedder()),
        FixedGate(0.8),
        judge or StructuralJudge(),
        judge_timeout_s=timeout,
    )  # type: ignore[arg-type]


def _line(**kw: object) -> str:
    base: dict[str, object] = {
        "trace_id": "t1",
        "question": "What is the status of case 171056262?",
        "answer": "Case 171056262 is currently Open.",
        "context": {"caseNumber": "171056262"},
        "agent": "case",
    }
    base.update(kw)
    return json.dumps(base)


async def test_batch_yields_one_judgment_per_input_in_order(golden: GoldenSet) -> None:
    ev = _evaluator(golden)
    batch = [
        RawTrace(_line(trace_id="ok"), SourceLocation(line=1)),
        RawTrace("{broken", SourceLocation(line=2)),
        RawTrace(
            _line(trace_id="off", question="Recommend a banana bread recipe", answer="Sure."),
            SourceLocation(line=3),
        ),
        RawTrace(
            _line(trace_id="con", answer="Case 536762755 is currently Open."),
            SourceLocation(line=4),
        ),
    ]
    out = await ev.evaluate_batch(batch)
    assert [j.status for j in out] == ["evaluated", "invalid", "abstained", "evaluated"]
    assert [j.source.line if j.source else None for j in out] == [1, 2, 3, 4]
    ok, bad, off, con = out
    assert ok.penalized is False and ok.gate and ok.gate.reference_id == "g_case_status"
    assert ok.diagnostics and ok.diagnostics.planner_verdict == "match"
    assert bad.reason == "invalid_json" and bad.penalized is None
    assert off.reason == "low_similarity" and off.diagnostics is not None
    # Its rationale says why, with the figures (it was empty).
    assert off.gate and off.gate.similarity is not None
    assert off.rationale == (
        f"not evaluated: the nearest reference's similarity {off.gate.similarity:.4f} "
        f"is below tau {off.gate.threshold:.4f}"
    )
    assert off.scores.assessed() == {}
    assert con.penalized is True


@pytest.mark.parametrize(
    ("mode", "kind"), [("unparseable", "unparseable"), ("boom", "internal"), ("slow", "timeout")]
)
async def test_judge_failures_are_errors_never_scores(
    golden: GoldenSet, mode: str, kind: str
) -> None:
    ev = _evaluator(golden, FailingJudge(mode), timeout=0.05)
    j = await ev.evaluate(RawTrace(_line()))
    assert j.status == "judge_error" and j.reason == kind
    assert j.error is not None and j.error.kind == kind and j.error.reason
    assert j.penalized is None and j.scores.assessed() == {}


async def test_invalid_judgment_names_field_and_keeps_trace_id(golden: GoldenSet) -> None:
    j = await _evaluator(golden).evaluate(
        RawTrace(json.dumps({"trace_id": "x", "question": 1, "answer": "a"}))
    )
    assert j.status == "invalid" and j.invalid_field == "question" and j.trace_id == "x"
    assert "question" in j.rationale


def test_judgment_contract_rejects_inconsistent_rows() -> None:
    from datetime import UTC, datetime

    from pydantic import ValidationError

    from monitor.schemas import Scores

    now = datetime.now(UTC)
    with pytest.raises(ValidationError):
        Judgment(trace_id="t", status="evaluated", reason="accepted", evaluated_at=now)
    with pytest.raises(ValidationError):
        Judgment(
            trace_id="t",
            status="abstained",
            reason="low_similarity",
            penalized=False,
            evaluated_at=now,
        )
    with pytest.raises(ValidationError):
        Judgment(
            trace_id="t",
            status="judge_error",
            reason="timeout",
            evaluated_at=now,
            scores=Scores(correctness=0.0),
        )


async def test_stream_keeps_order_and_matches_batch_results(golden: GoldenSet) -> None:
    ev = _evaluator(golden)
    lines = [_line(trace_id=f"t{k}") if k % 3 else "{bad" for k in range(10)]

    async def batches():  # type: ignore[no-untyped-def]
        for k in range(0, len(lines), 4):
            yield [
                RawTrace(x, SourceLocation(line=n + 1))
                for n, x in enumerate(lines[k : k + 4], start=k)
            ]

    streamed = [j async for batch in ev.evaluate_stream(batches()) for j in batch]
    assert [j.source.line for j in streamed if j.source] == list(range(1, 11))
    direct = await ev.evaluate_batch([RawTrace(x) for x in lines])
    assert [j.status for j in streamed] == [j.status for j in direct]
    assert [j.trace_id for j in streamed] == [j.trace_id for j in direct]


async def test_stream_judges_a_batch_while_the_source_is_quiet(golden: GoldenSet) -> None:
    # `run --follow` on a file nobody writes to: the last batch read must come out
    # without waiting for another one (it was held until the next batch arrived).
    ev = _evaluator(golden)
    quiet = asyncio.Event()

    async def batches():  # type: ignore[no-untyped-def]
        yield [RawTrace(_line(trace_id="t1"), SourceLocation(line=1))]
        yield [RawTrace(_line(trace_id="t2"), SourceLocation(line=2))]
        await quiet.wait()  # never set: the source stays open and quiet
        yield []  # pragma: no cover

    stream = ev.evaluate_stream(batches())
    first = await asyncio.wait_for(anext(stream), timeout=30)
    second = await asyncio.wait_for(anext(stream), timeout=30)
    assert [j.trace_id for j in first + second] == ["t1", "t2"]
    await stream.aclose()


async def test_stream_stopped_early_leaves_nothing_running(golden: GoldenSet) -> None:
    ev = _evaluator(golden)

    async def batches():  # type: ignore[no-untyped-def]
        for k in range(5):
            yield [RawTrace(_line(trace_id=f"t{k}"), SourceLocation(line=k + 1))]

    stream = ev.evaluate_stream(batches())
    first = await anext(stream)
    assert [j.trace_id for j in first] == ["t0"]
    await stream.aclose()
    await asyncio.sleep(0)
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert all(t.done() for t in others), [repr(t)[:300] for t in others if not t.done()]


def test_one_evaluator_serves_successive_event_loops(golden: GoldenSet) -> None:
    # An evaluator outlives asyncio.run (benchmarks, embedding applications): its
    # concurrency bound must not stay bound to the first loop. With 12 traces and a
    # bound of 2, every later run waits on it; each trace must still be judged.
    ev = Evaluator(
        GoldenIndex(golden, HashingEmbedder()), FixedGate(0.8), StructuralJudge(), max_concurrency=2
    )
    batch = [RawTrace(_line(trace_id=f"t{k}")) for k in range(12)]
    for _ in range(3):
        out = asyncio.run(ev.evaluate_batch(batch))
        assert [j.status for j in out] == ["evaluated"] * 12, [j.error for j in out if j.error]
