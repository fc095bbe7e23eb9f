from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pipelines.otel import (
    ReadyTrace,
    Span,
    TraceBuffer,
    assemble,
    decode_otlp_json,
    root_kind,
)
from tests.unit.pipelines.otel import otlp


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make(clock: Clock, **kw: Any) -> TraceBuffer:
    return TraceBuffer(root_kind=root_kind, quiet_period_s=3.0, clock=clock, **kw)


def spans(raw: list[dict[str, Any]]) -> list[Span]:
    return decode_otlp_json(otlp.record(*raw))


def genai() -> list[Span]:
    return spans(otlp.genai_spans())


def by_id(items: list[Span]) -> dict[str, Span]:
    return {s.span_id: s for s in items}


def test_children_first_wait_for_the_root_then_the_quiet_period() -> None:
    clock, all_spans = Clock(), by_id(genai())
    buf = make(clock)
    children = [s for k, s in all_spans.items() if k not in (otlp.G_ROOT, otlp.G_HTTP)]
    buf.add(children)  # holds the nested agent "checker": only a candidate root
    clock.advance(9.9)
    assert buf.poll() == []  # a candidate waits candidate_wait_s (10 s), not 3
    buf.add([all_spans[otlp.G_ROOT]])  # the agent root: also a candidate (it has a parent)
    clock.advance(2.9)
    assert buf.poll() == []
    buf.add([all_spans[otlp.G_HTTP]])  # the trace's own root; a new span restarts the quiet
    clock.advance(2.9)
    assert buf.poll() == []
    clock.advance(0.2)
    (ready,) = buf.poll()
    assert (ready.trace_id, ready.revision, ready.reason) == (otlp.GT, 0, "complete")
    assert len(ready.spans) == 7
    assert buf.open_traces == 0


def test_agent_with_a_remote_parent_is_emitted_after_candidate_wait() -> None:
    clock, all_spans = Clock(), by_id(genai())
    buf = make(clock, candidate_wait_s=5.0)
    del all_spans[otlp.G_HTTP]  # the parent lives in another service: it never comes
    buf.add(all_spans.values())
    clock.advance(4.9)
    assert buf.poll() == []
    clock.advance(0.1)
    (ready,) = buf.poll()
    assert ready.reason == "complete"
    assert assemble(ready.spans).root_span_id == otlp.G_ROOT


def test_out_of_order_across_several_records_and_duplicates_give_the_same_interaction() -> None:
    clock = Clock()
    buf = make(clock)
    raw = otlp.genai_spans()
    rng = random.Random(7)
    shuffled = raw + raw[:3]  # three spans delivered twice (a producer retry)
    rng.shuffle(shuffled)
    records = [otlp.record(*shuffled[i : i + 3]) for i in range(0, len(shuffled), 3)]
    added = dups = 0
    for rec in records:
        r = buf.add(decode_otlp_json(rec))
        added, dups = added + r.added, dups + r.duplicates
        clock.advance(0.5)
    assert (added, dups) == (7, 3)
    assert buf.stats.duplicates == 3
    clock.advance(3)
    (ready,) = buf.poll()
    expected = assemble(genai()).trace
    assert assemble(ready.spans).trace == expected


def test_late_span_reemits_with_the_next_revision() -> None:
    clock, all_spans = Clock(), by_id(genai())
    buf = make(clock)
    late = all_spans.pop(otlp.G_RETR)
    buf.add(all_spans.values())
    clock.advance(3)
    (first,) = buf.poll()
    assert first.revision == 0 and len(first.spans) == 6
    # a duplicate of an emitted span changes nothing
    r = buf.add([all_spans[otlp.G_CHAT1]])
    assert (r.duplicates, r.late) == (1, 0)
    clock.advance(10)
    assert buf.poll() == []
    # a new span of the emitted trace reopens it, with everything seen so far
    r = buf.add([late])
    assert r.late == 1
    clock.advance(3)
    (second,) = buf.poll()
    assert (second.trace_id, second.revision, second.reason) == (otlp.GT, 1, "complete")
    assert len(second.spans) == 7
    obs = assemble(second.spans).trace.observations
    assert "retrieval" in [o.kind for o in obs]
    assert (buf.stats.late_spans, buf.stats.reemitted, buf.stats.emitted) == (1, 1, 2)


def test_max_open_traces_evicts_the_oldest_as_incomplete() -> None:
    clock = Clock()
    buf = make(clock, max_open_traces=2)
    ids = [f"{i:032x}" for i in range(1, 4)]
    for i, tid in enumerate(ids):
        # children only: none of these traces is ready
        buf.add(spans([otlp.span(tid, f"{i + 1:016x}", "chat", parent="f" * 16)]))
        clock.advance(0.1)
    assert buf.open_traces == 2
    (evicted,) = buf.poll()
    assert (evicted.trace_id, evicted.reason, evicted.incomplete) == (ids[0], "evicted", True)
    assert buf.stats.evicted == 1


def test_root_never_arrives_gives_up_after_max_wait() -> None:
    clock = Clock()
    buf = make(clock, max_wait_s=30)
    buf.add(spans([otlp.span("1" * 32, "2" * 16, "chat", parent="3" * 16)]))
    clock.advance(29)
    assert buf.poll() == []
    clock.advance(1)
    (ready,) = buf.poll()
    assert ready.reason == "root_missing" and ready.incomplete
    assert buf.stats.root_missing == 1


def test_flush_emits_everything_open() -> None:
    clock = Clock()
    buf = make(clock)
    buf.add(genai())
    buf.add(spans([otlp.span("1" * 32, "2" * 16, "chat", parent="3" * 16)]))
    ready = {r.trace_id: r for r in buf.flush()}
    assert ready[otlp.GT].reason == "complete"
    assert ready["1" * 32].reason == "root_missing"
    assert buf.open_traces == 0


def test_closed_memory_is_bounded() -> None:
    clock = Clock()
    buf = make(clock, max_closed_traces=1)
    a, b = genai(), spans(otlp.openinference_spans())
    buf.add(a)
    buf.add(b)
    clock.advance(3)
    assert len(buf.poll()) == 2
    # the first-emitted trace is forgotten: its spans count as a new trace, not duplicates
    r = buf.add(a[:1])
    assert (r.added, r.duplicates, r.late) == (1, 0, 0)
    r = buf.add(b[:1])  # still remembered
    assert r.duplicates == 1


def test_interleaved_traces() -> None:
    clock = Clock()
    buf = make(clock)
    mixed = genai() + spans(otlp.openinference_spans())
    random.Random(3).shuffle(mixed)
    for s in mixed:
        buf.add([s])
    clock.advance(3)
    ready: list[ReadyTrace] = buf.poll()
    assert sorted(r.trace_id for r in ready) == sorted([otlp.GT, otlp.OT])
    answers = {r.trace_id: assemble(r.spans).trace.answer for r in ready}
    assert answers[otlp.OT] == "Order 77 has shipped with DHL."


@pytest.mark.parametrize("kw", [{"quiet_period_s": -1}, {"max_open_traces": 0}])
def test_bad_settings_are_rejected(kw: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        TraceBuffer(root_kind=root_kind, **kw)


def test_record_json_is_what_the_helpers_write() -> None:
    doc = json.loads(otlp.record(otlp.span(otlp.GT, otlp.G_ROOT, "x")))
    assert doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["traceId"] == otlp.GT


def test_spans_per_trace_are_bounded() -> None:
    clock = Clock()
    buf = make(clock, max_spans_per_trace=4)
    spans_ = by_id(genai())
    root, http = spans_.pop(otlp.G_ROOT), spans_.pop(otlp.G_HTTP)
    buf.add(spans_.values())  # 5 children (the nested agent "checker" among them)
    buf.add([root, http])  # the roots arrive last, as they end last
    clock.advance(3)
    (ready,) = buf.poll()
    kept = {s.span_id for s in ready.spans}
    assert (len(kept), ready.dropped, buf.stats.spans_dropped) == (6, 1, 1)
    assert {otlp.G_ROOT, otlp.G_HTTP} <= kept  # over the cap, roots still get in
