"""The stream worker on OpenTelemetry spans, without a broker: a record is acknowledged
only when every trace it carried spans of is judged, acknowledgements in offset order,
one outcome per record and per emitted trace (judgment, dead-letter record), evaluation
events keyed by trace id, late spans re-emitted, revoked partitions left unjudged."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from monitor.golden import load_golden
from monitor.settings import CargoSettings
from pipelines.components import build_components
from pipelines.kafka.delivery import InputRecord
from pipelines.kafka.otlp import EventsOut, OtlpDelivery
from pipelines.otel.ingest import OtlpIngest
from pipelines.otel.metrics import OtelMetrics
from tests.unit.pipelines.otel.otlp import (
    G_ROOT,
    GT,
    O_AGENT,
    OT,
    genai_spans,
    openinference_spans,
    record,
    span,
)
from tests.unit.pipelines.test_kafka_delivery import TOPICS, Harness, _lines

EVENTS = "otlp_logs"


@pytest.fixture(scope="module")
def evaluator(tmp_path_factory: pytest.TempPathFactory) -> Any:
    settings = CargoSettings(embedder="hashing", cache_dir=tmp_path_factory.mktemp("cache"))
    return build_components(settings, load_golden(settings.golden)).evaluator


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Rig:
    def __init__(self, evaluator: Any, input_format: Any = "otlp-json") -> None:
        self.h = Harness(evaluator)
        self.clock = Clock()
        self.ingest = OtlpIngest(quiet_period_s=3.0, clock=self.clock)
        self.otlp = OtlpDelivery(
            delivery=self.h.delivery,
            ingest=self.ingest,
            input_format=input_format,
            metrics=OtelMetrics(self.h.registry),
            events=EventsOut(EVENTS, "otlp_json"),
        )
        self.acked: list[tuple[int, int]] = []
        self.offsets: dict[int, int] = {}

    def rec(self, value: str | bytes, partition: int = 0, key: str | None = None) -> InputRecord:
        offset = self.offsets.get(partition, 0)
        self.offsets[partition] = offset + 1
        raw = value.encode() if isinstance(value, str) else value
        return InputRecord(TOPICS.traces, partition, offset, raw, key.encode() if key else None)

    def ack_of(self, rec: InputRecord) -> Callable[[], Awaitable[None]]:
        async def ack() -> None:
            self.acked.append((rec.partition, rec.offset))

        return ack

    def take(self, *recs: InputRecord) -> None:
        asyncio.run(self.otlp.take(list(recs), [self.ack_of(r) for r in recs]))

    def tick(self, after_s: float) -> None:
        self.clock.now += after_s
        asyncio.run(self.otlp.tick())

    def sent(self, topic: str) -> list[tuple[bytes, dict[str, Any]]]:
        return [(k, v) for t, k, v in self.h.sender.sent if t == topic]


def test_a_trace_in_two_records_is_judged_once_after_the_quiet_period(evaluator: Any) -> None:
    rig = Rig(evaluator)
    spans = genai_spans()
    first, second = rig.rec(record(*spans[3:]), key=GT), rig.rec(record(*spans[:3]), key=GT)
    rig.take(first)
    rig.take(second)  # the root (first span) arrives last
    assert rig.acked == [] and rig.sent("cargo-judgments") == []
    rig.tick(1.0)
    assert rig.acked == []  # root arrived, quiet period not over
    rig.tick(3.0)
    judgments = rig.sent("cargo-judgments")
    assert [k for k, _ in judgments] == [GT.encode()]
    assert judgments[0][1]["status"] in ("evaluated", "abstained")
    assert rig.acked == [(0, 0), (0, 1)]
    # The events: keyed by trace id, parented to the root agent span.
    events = rig.sent(EVENTS)
    assert [k for k, _ in events] == [GT.encode()]
    recs = events[0][1]["resourceLogs"][0]["scopeLogs"][0]["logRecords"]
    assert {r["traceId"] for r in recs} == {GT} and {r["spanId"] for r in recs} == {G_ROOT}
    assert all(r["eventName"] == "gen_ai.evaluation.result" for r in recs)
    assert rig.h.value("cargo_otel_traces_total", outcome="assembled") == 1
    assert rig.h.value("cargo_otel_unkeyed_records_total") == 0


def test_acknowledgements_wait_for_earlier_records_of_the_partition(evaluator: Any) -> None:
    rig = Rig(evaluator)
    a = genai_spans()
    # offset 0: trace GT without its root; offset 1: trace OT complete.
    rig.take(rig.rec(record(*a[1:]), key=GT), rig.rec(record(*openinference_spans()), key=OT))
    rig.tick(3.5)
    assert [k for k, _ in rig.sent("cargo-judgments")] == [OT.encode()]
    assert rig.acked == []  # offset 1 is done, but offset 0 waits for GT
    rig.take(rig.rec(record(a[0]), key=GT))
    rig.tick(3.5)
    assert rig.acked == [(0, 0), (0, 1), (0, 2)]
    assert rig.h.delivery.progress.done == {0: 2}  # the progress watch sees it move


def test_a_record_that_is_not_otlp_is_dead_lettered_and_acknowledged(evaluator: Any) -> None:
    rig = Rig(evaluator, input_format="otlp-proto")
    rig.take(rig.rec(b"{not protobuf at all"), rig.rec(b"\x0a\xff\xff\xff\xff\x0f"))
    dlq = rig.sent("cargo-traces-dlq")
    assert [v["reason"] for _, v in dlq] == ["otlp_undecodable", "otlp_undecodable"]
    assert base64.b64decode(dlq[0][1]["original_base64"]) == b"{not protobuf at all"
    assert rig.acked == [(0, 0), (0, 1)]
    assert rig.h.value("cargo_invalid_traces_total", reason="otlp_undecodable") == 2
    assert rig.h.value("cargo_otel_failures_total", reason="otlp_undecodable") == 2


def test_spans_without_content_become_one_dead_letter_record_and_an_error_event(
    evaluator: Any,
) -> None:
    rig = Rig(evaluator)
    spans = genai_spans()
    for s in spans:  # content capture off: no messages on any span
        s["attributes"] = [
            kv for kv in s["attributes"] if not kv["key"].endswith(("messages", "instructions"))
        ]
    rig.take(rig.rec(record(*spans), key=GT))
    rig.tick(3.5)
    assert rig.sent("cargo-judgments") == []
    [(key, dead)] = rig.sent("cargo-traces-dlq")
    assert key == f"otlp:{GT}".encode()
    assert dead["reason"] == "no_question" and dead["kind"] == "otlp_trace"
    assert dead["records"] == [{"topic": TOPICS.traces, "partition": 0, "offset": 0}]
    [(_, event)] = rig.sent(EVENTS)
    [log] = event["resourceLogs"][0]["scopeLogs"][0]["logRecords"]
    attrs = {a["key"]: a["value"] for a in log["attributes"]}
    assert attrs["gen_ai.evaluation.score.label"] == {"stringValue": "error"}
    assert log["traceId"] == GT
    assert rig.acked == [(0, 0)]


def test_duplicates_and_late_spans(evaluator: Any) -> None:
    rig = Rig(evaluator)
    spans = genai_spans()
    whole = record(*spans[:-1])
    rig.take(rig.rec(whole, key=GT))
    rig.tick(3.5)
    rig.take(rig.rec(whole, key=GT))  # redelivered: nothing new, acknowledged at once
    assert len(rig.sent("cargo-judgments")) == 1 and rig.acked == [(0, 0), (0, 1)]
    rig.take(rig.rec(record(spans[-1]), key=GT))  # a late span: judged again, same key
    assert rig.acked == [(0, 0), (0, 1)]
    rig.tick(3.5)
    judgments = rig.sent("cargo-judgments")
    assert [k for k, _ in judgments] == [GT.encode(), GT.encode()]
    events = rig.sent(EVENTS)
    revisions = [
        {a["key"]: a["value"] for a in r["attributes"]}["cargo.revision"]
        for _, e in events
        for r in e["resourceLogs"][0]["scopeLogs"][0]["logRecords"][:1]
    ]
    assert revisions == [{"intValue": "0"}, {"intValue": "1"}]
    assert rig.acked == [(0, 0), (0, 1), (0, 2)]
    assert rig.h.value("cargo_otel_reemitted_traces_total") == 1


def test_unkeyed_records_are_counted(evaluator: Any) -> None:
    rig = Rig(evaluator)
    rig.take(rig.rec(record(*openinference_spans()), key=None))
    assert rig.h.value("cargo_otel_unkeyed_records_total") == 1


def test_a_revoked_partition_is_left_to_its_next_owner(evaluator: Any) -> None:
    rig = Rig(evaluator)
    rig.take(rig.rec(record(*genai_spans()[1:]), partition=3, key=GT))
    rig.take(rig.rec(record(*openinference_spans()), partition=1, key=OT))
    rig.otlp.forget(TOPICS.traces, 3)
    rig.tick(120.0)  # far past every wait: only OT is judged, GT was dropped
    assert [k for k, _ in rig.sent("cargo-judgments")] == [OT.encode()]
    assert rig.acked == [(1, 0)]
    assert rig.ingest.buffer.open_traces == 0


def test_auto_mode_judges_native_traces_on_the_same_topic(evaluator: Any) -> None:
    rig = Rig(evaluator, input_format="auto")
    native = _lines(1)[0]
    rig.take(rig.rec(native), rig.rec(record(*openinference_spans()), key=OT))
    assert len(rig.sent("cargo-judgments")) == 1 and rig.acked == [(0, 0)]
    rig.tick(3.5)
    keys = [k for k, _ in rig.sent("cargo-judgments")]
    assert keys[1] == OT.encode() and rig.acked == [(0, 0), (0, 1)]
    assert json.loads(native)["trace_id"].encode() == keys[0]


@pytest.mark.parametrize("root", [O_AGENT])
def test_events_of_openinference_traces_point_at_the_agent_span(evaluator: Any, root: str) -> None:
    rig = Rig(evaluator)
    rig.take(rig.rec(record(*openinference_spans()), key=OT))
    rig.tick(3.5)
    [(_, event)] = rig.sent(EVENTS)
    logs = event["resourceLogs"][0]["scopeLogs"][0]["logRecords"]
    assert {r["spanId"] for r in logs} == {root}


def test_an_evicted_trace_reopened_in_the_same_batch_keeps_its_records_waiting(
    evaluator: Any,
) -> None:
    rig = Rig(evaluator)
    rig.ingest = rig.otlp.ingest = OtlpIngest(
        quiet_period_s=3.0, clock=rig.clock, max_open_traces=1
    )
    a, b = "a" * 32, "b" * 32
    r0 = rig.rec(record(span(a, "1" * 16, "chat x", parent="9" * 16)), key=a)
    r1 = rig.rec(record(span(b, "2" * 16, "chat y", parent="9" * 16)), key=b)  # evicts a
    r2 = rig.rec(record(span(a, "3" * 16, "chat z", parent="9" * 16)), key=a)  # reopens a
    rig.take(r0, r1, r2)
    # a's first emission must not release r2 (its span is in the reopened trace), nor r0
    # ahead of it
    assert rig.acked == [] and rig.ingest.buffer.is_open(a)
    rig.tick(120.0)  # a is given up on (no root): everything is acknowledged
    assert rig.acked == [(0, 0), (0, 1), (0, 2)]


def test_a_trace_that_never_goes_quiet_is_judged_at_max_wait(evaluator: Any) -> None:
    rig = Rig(evaluator)
    rig.ingest = rig.otlp.ingest = OtlpIngest(quiet_period_s=3.0, max_wait_s=60.0, clock=rig.clock)
    spans = openinference_spans()
    rig.take(rig.rec(record(*spans), key=OT))
    for k in range(40):  # a new child span every 2 s: never quiet for 3 s
        rig.clock.now += 2.0
        extra = span(OT, f"{k + 1:016x}", "tool", parent=O_AGENT)
        rig.take(rig.rec(record(extra), key=OT))
    assert rig.sent("cargo-judgments"), "a trace that never goes quiet was never judged"
    assert rig.acked and rig.acked[0] == (0, 0)
    assert rig.h.value("cargo_otel_incomplete_traces_total", reason="max_wait") >= 1


@pytest.mark.parametrize(
    ("fmt", "value"),
    [
        ("otlp-json", b'{"trace_id": "t1", "question": "q", "answer": "a"}'),
        ("otlp-json", b'{"resourceSpans": []}'),
        ("otlp-proto", b"\x10\x01"),
    ],
)
def test_a_record_without_spans_is_its_own_outcome(evaluator: Any, fmt: str, value: bytes) -> None:
    rig = Rig(evaluator, input_format=fmt)
    rig.take(rig.rec(value))
    [(_, dead)] = rig.sent("cargo-traces-dlq")
    assert dead["reason"] == "no_spans"
    assert rig.acked == [(0, 0)]


REDACT_SALT = "s3cret-salt-for-tests-0123"


def _explanations(rig: Rig) -> list[str]:
    return [
        a["value"]["stringValue"]
        for _, e in rig.sent(EVENTS)
        for r in e["resourceLogs"][0]["scopeLogs"][0]["logRecords"]
        for a in r["attributes"]
        if a["key"] == "gen_ai.evaluation.explanation"
    ]


def test_events_carry_the_redacted_judgment(evaluator: Any) -> None:
    """--redact: the events topic gets what the judgments topic gets (the rationale
    quotes the live context: 'owner='Ann'')."""
    from monitor.redact import PREFIX, Redactor

    rig = Rig(evaluator)
    rig.h.delivery.redactor = Redactor(REDACT_SALT)
    rig.take(rig.rec(record(*genai_spans()), key=GT))
    rig.tick(3.5)
    [(_, judgment)] = rig.sent("cargo-judgments")
    assert judgment["rationale"].startswith(PREFIX)
    [explanation] = _explanations(rig)
    assert explanation == f"{judgment['reason']}: {judgment['rationale']}"
    assert "Ann" not in json.dumps([v for _, v in rig.sent(EVENTS)])


def test_a_trace_dead_letter_and_its_event_are_redacted(
    evaluator: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An assembly that raises quotes the input in its detail: hashed in the trace's
    dead-letter record and in its error event under --redact."""
    import pipelines.otel.ingest as ingest_mod
    from monitor.redact import PREFIX, Redactor

    def boom(*_: Any) -> Any:
        raise ValueError("customer Jane Doe, card 4111")

    monkeypatch.setattr(ingest_mod, "assemble", boom)
    rig = Rig(evaluator)
    rig.h.delivery.redactor = Redactor(REDACT_SALT)
    rig.take(rig.rec(record(*genai_spans()), key=GT))
    rig.tick(3.5)
    [(_, dead)] = rig.sent("cargo-traces-dlq")
    assert dead["reason"] == "assembly_error" and dead["kind"] == "otlp_trace"
    assert dead["detail"].startswith(PREFIX) and dead["redacted"] is True
    assert "original_text" not in dead and "original_base64" not in dead
    [explanation] = _explanations(rig)
    assert explanation.startswith("assembly_error: " + PREFIX)
    blob = json.dumps([v for _, v in rig.sent("cargo-traces-dlq") + rig.sent(EVENTS)])
    assert "Jane Doe" not in blob and "4111" not in blob


def test_events_carry_the_secret_mask(evaluator: Any) -> None:
    """A secret that reached a judgment's text (here: the live context holds the
    judge's key) is masked in its events as in the judgments topic."""
    from monitor.redact import SecretMask

    rig = Rig(evaluator)
    rig.h.delivery.mask = SecretMask(["Closed"])  # "status='Closed'" is in the rationale
    rig.take(rig.rec(record(*genai_spans()), key=GT))
    rig.tick(3.5)
    [(_, judgment)] = rig.sent("cargo-judgments")
    assert "[secret]" in judgment["rationale"]
    [explanation] = _explanations(rig)
    assert "[secret]" in explanation
    assert "Closed" not in json.dumps([v for _, v in rig.sent(EVENTS)])


def test_otlp_http_outcomes_reach_the_stream_metrics(evaluator: Any) -> None:
    """The worker's OTLP/HTTP sends settle in the background; their outcomes reach
    cargo_otel_events_total{sink="otlp_http"} as the worker settles its deliveries."""
    from types import SimpleNamespace

    from pipelines.otel.export import OtlpHttpLogs

    class Client:
        def __init__(self) -> None:
            self.statuses = [200, 400]

        async def post(self, *_: Any, **__: Any) -> Any:
            return SimpleNamespace(status_code=self.statuses.pop(0), headers={})

    rig = Rig(evaluator)
    http = OtlpHttpLogs("http://collector:4318", client=Client())
    rig.otlp.events = EventsOut(None, "otlp_json", http)

    async def go() -> None:
        for rec, trace in ((rig.rec(record(*genai_spans()), key=GT), GT),
                           (rig.rec(record(*openinference_spans()), key=OT), OT)):  # fmt: skip
            await rig.otlp.take([rec], [rig.ack_of(rec)])
            rig.clock.now += 3.5
            await rig.otlp.tick()  # judged: its events are queued for the sender
            assert trace.encode() in [k for k, _ in rig.sent("cargo-judgments")]
            await asyncio.sleep(0.01)  # the sender posts them
        await rig.otlp.tick()  # the worker settles: the sender's counts reach the metrics

    asyncio.run(go())
    sent, failed = http.records["sent"], http.records["failed"]
    assert sent > 0 and failed > 0
    value = rig.h.value
    assert value("cargo_otel_events_total", sink="otlp_http", outcome="sent") == sent
    assert value("cargo_otel_events_total", sink="otlp_http", outcome="failed") == failed


def test_stream_stop_drains_the_otlp_http_events_within_its_bound(evaluator: Any) -> None:
    """On stop the events still queued get a bounded drain: what is sent then, and what
    is left (dropped), reach the metrics; nothing stays uncounted."""
    from pipelines.otel.export import OtlpHttpLogs

    class Hanging:
        async def post(self, *_: Any, **__: Any) -> Any:
            await asyncio.Event().wait()

    rig = Rig(evaluator)
    http = OtlpHttpLogs("http://collector:4318", client=Hanging())
    rig.otlp.events = EventsOut(None, "otlp_json", http)

    async def go() -> None:
        for rec in (rig.rec(record(*genai_spans()), key=GT),
                    rig.rec(record(*openinference_spans()), key=OT)):  # fmt: skip
            await rig.otlp.take([rec], [rig.ack_of(rec)])
        rig.clock.now += 3.5
        await rig.otlp.tick()
        await asyncio.sleep(0.01)  # the first request is being posted (it hangs)
        await rig.otlp.aclose(drain_s=0.05)

    asyncio.run(go())
    value = rig.h.value
    failed = value("cargo_otel_events_total", sink="otlp_http", outcome="failed")
    dropped = value("cargo_otel_events_total", sink="otlp_http", outcome="dropped")
    assert failed > 0 and dropped > 0
    assert failed + dropped == sum(http.records.values()) and http.queue.empty()
