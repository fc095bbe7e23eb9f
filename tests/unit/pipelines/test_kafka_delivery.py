"""The stream worker's delivery logic without a broker: one outcome per message, a batch
that raises retried trace by trace, poison messages dead-lettered after bounded
attempts, and the order deliver -> watermark -> flush -> ack."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import CollectorRegistry

from monitor.data import DEFAULT_SAMPLES
from monitor.errors import InvalidTraceError
from monitor.golden import load_golden
from monitor.metrics import MonitorMetrics
from monitor.schemas import JudgeErrorInfo, Judgment
from monitor.settings import CargoSettings
from monitor.traces import RawTrace, is_valid_trace, parse_trace
from pipelines.components import build_components
from pipelines.kafka.delivery import (
    Delivery,
    Failure,
    InputRecord,
    Progress,
    RetryPolicy,
    Topics,
)
from pipelines.kafka.metrics import StreamMetrics

POISON = "POISON-PILL"
TOPICS = Topics("agent-traces", "cargo-judgments", "cargo-traces-dlq")


class FakeSender:
    """Records sends and flushes in one event log; a delivery future completes when the
    test releases it (``auto``: at once)."""

    def __init__(self, log: list[str], auto: bool = True) -> None:
        self.log = log
        self.auto = auto
        self.sent: list[tuple[str, bytes, dict[str, Any]]] = []
        self.futures: list[asyncio.Future[None]] = []

    async def send(self, topic: str, key: bytes, value: bytes) -> Awaitable[Any]:
        self.sent.append((topic, key, json.loads(value)))
        self.log.append(f"send {topic} {key.decode()}")
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.auto:
            fut.set_result(None)
        self.futures.append(fut)

        async def delivered() -> None:
            await fut
            self.log.append(f"delivered {key.decode()}")

        return delivered()

    async def flush(self) -> None:
        self.log.append("flush")


class FakeMarks:
    def __init__(self, log: list[str], marks: dict[str, int] | None = None) -> None:
        self.log = log
        self.marks = dict(marks or {})

    def get(self, key: str) -> int | None:
        return self.marks.get(key)

    def put(self, key: str, offset: int, anchor: Any) -> None:
        self.log.append(f"mark {key}={offset} anchor={anchor}")
        self.marks[key] = offset


class FakeReader:
    def __init__(self, stored: dict[tuple[str, int, int], bytes]) -> None:
        self.stored = stored
        self.calls: list[tuple[str, int, int, int]] = []

    async def read(self, topic: str, partition: int, start: int, stop: int) -> list[InputRecord]:
        self.calls.append((topic, partition, start, stop))
        return [
            InputRecord(topic, partition, o, self.stored[(topic, partition, o)])
            for o in range(start, stop)
            if (topic, partition, o) in self.stored
        ]


@pytest.fixture(scope="module")
def evaluator(tmp_path_factory: pytest.TempPathFactory) -> Any:
    settings = CargoSettings(embedder="hashing", cache_dir=tmp_path_factory.mktemp("cache"))
    return build_components(settings, load_golden(settings.golden)).evaluator


def _lines(n: int) -> list[bytes]:
    valid = [x.encode() for x in DEFAULT_SAMPLES.read_text().splitlines() if is_valid_trace(x)]
    return valid[:n]


def _poison() -> bytes:
    data = json.loads(_lines(1)[0])
    data["trace_id"] = "poison-1"
    data["question"] = f"{data['question']} {POISON}"
    return json.dumps(data).encode()


class Harness:
    def __init__(self, evaluator: Any, *, marks: dict[str, int] | None = None) -> None:
        self.log: list[str] = []
        self.registry = CollectorRegistry()
        golden = load_golden(CargoSettings().golden)
        self.metrics = MonitorMetrics(
            self.registry, golden, gate_kind="fixed", judge_name="structural"
        )
        self.sender = FakeSender(self.log)
        self.marks = FakeMarks(self.log, marks)
        self.reader = FakeReader({})
        self.calls: list[list[str]] = []  # trace ids per evaluate call
        self.sleeps: list[float] = []

        async def evaluate(raws: Sequence[RawTrace]) -> list[Judgment]:
            ids = [getattr(r.payload, "trace_id", "?") for r in raws]
            self.calls.append(ids)
            if any(POISON in getattr(r.payload, "question", "") for r in raws):
                raise ZeroDivisionError("the evaluator tripped on the marker")
            out: list[Judgment] = await evaluator.evaluate_batch(raws)
            return out

        async def sleep(s: float) -> None:
            self.sleeps.append(s)

        self.evaluate = evaluate
        self.delivery = Delivery(
            topics=TOPICS,
            worker="test-worker",
            sender=self.sender,
            watermarks=self.marks,
            reader=self.reader,
            evaluate=evaluate,
            metrics=self.metrics,
            stream_metrics=StreamMetrics.create(self.registry),
            progress=Progress(),
            retry=RetryPolicy(max_attempts=3),
            sleep=sleep,
        )

    def value(self, name: str, **labels: str) -> float:
        return self.registry.get_sample_value(name, labels) or 0.0


def _records(values: Sequence[bytes], partition: int = 0, start: int = 0) -> list[InputRecord]:
    return [InputRecord("agent-traces", partition, start + k, v) for k, v in enumerate(values)]


def test_every_record_gets_one_outcome_whatever_raises(evaluator: Any) -> None:
    h = Harness(evaluator)
    good = _lines(3)
    values = [good[0], b"{not json", _poison(), good[1], b"[1, 2]", good[2]]
    records = _records(values)
    outcomes = asyncio.run(h.delivery.outcomes(records))
    assert len(outcomes) == len(records)
    kinds = [o.status if isinstance(o, Judgment) else o.reason for o in outcomes]
    assert kinds[1] == "invalid_json" and kinds[4] == "not_an_object"
    assert kinds[2] == "evaluator_error"
    assert all(k in ("evaluated", "abstained") for k in (kinds[0], kinds[3], kinds[5]))
    poison = outcomes[2]
    assert isinstance(poison, Failure)
    assert poison.error_type == "ZeroDivisionError" and poison.attempts == 3
    assert "the evaluator tripped on the marker" in poison.detail
    # The batch (4 traces) raised once; then each trace alone, the poison one twice more
    # (3 attempts in all), the others once.
    assert len(h.calls[0]) == 4
    alone = h.calls[1:]
    assert all(len(c) == 1 for c in alone)
    assert sum(c == ["poison-1"] for c in alone) == 2
    assert len(alone) == 3 + 2
    assert h.value("cargo_stream_evaluation_failures_total", stage="evaluate") == 1


def test_a_decoder_that_raises_is_that_records_outcome(evaluator: Any) -> None:
    # What a 100,000-deep "[[[[" line did to json: RecursionError, not InvalidTraceError.
    h = Harness(evaluator)

    def parse(raw: bytes) -> Any:
        if raw.startswith(b"[[[["):
            raise RecursionError("maximum recursion depth exceeded while decoding a JSON array")
        return parse_trace(raw)

    h.delivery.parse = parse
    good = _lines(2)
    records = _records([good[0], b"[" * 100_000 + b"]" * 100_000, good[1]])
    asyncio.run(h.delivery.finalise(records, asyncio.run(h.delivery.outcomes(records)), {}))
    topics = [t for t, _, _ in h.sender.sent]
    assert topics == ["cargo-judgments", "cargo-traces-dlq", "cargo-judgments"]
    rec = h.sender.sent[1][2]
    assert rec["reason"] == "decode_error" and rec["error_type"] == "RecursionError"
    assert (rec["partition"], rec["offset"]) == (0, 1)
    assert base64.b64decode(rec["original_base64"]) == records[1].value
    assert rec["trace_id"] is None
    assert h.value("cargo_invalid_traces_total", reason="decode_error") == 1
    assert h.value("cargo_traces_total", status="invalid") == 1
    assert h.value("cargo_stream_evaluation_failures_total", stage="decode") == 1


def test_a_decoder_failure_wrapped_by_parse_trace_is_counted_and_logged(
    evaluator: Any, caplog: pytest.LogCaptureFixture
) -> None:
    # The real parse_trace wraps whatever its decoding raises as decode_error.
    h = Harness(evaluator)

    def parse(raw: bytes) -> Any:
        if raw == b"boom":
            raise InvalidTraceError("decode_error", detail="ValueError: boom")
        return parse_trace(raw)

    h.delivery.parse = parse
    records = _records([b"boom", *_lines(1)])
    with caplog.at_level("ERROR"):
        asyncio.run(h.delivery.finalise(records, asyncio.run(h.delivery.outcomes(records)), {}))
    assert [t for t, _, _ in h.sender.sent] == ["cargo-traces-dlq", "cargo-judgments"]
    assert h.value("cargo_stream_evaluation_failures_total", stage="decode") == 1
    assert any("decode_error" in r.getMessage() for r in caplog.records)


def test_poison_dead_letter_counts_as_a_judge_error_and_the_partition_moves_on(
    evaluator: Any,
) -> None:
    h = Harness(evaluator)
    records = _records([_poison(), *_lines(2)], start=40)
    outcomes = asyncio.run(h.delivery.outcomes(records))

    async def ack() -> None:
        h.log.append("ack")

    asyncio.run(h.delivery.handle(records, {"agent-traces:0": "ev"}, None, ack))
    assert len(outcomes) == 3
    dlq = [v for t, _, v in h.sender.sent if t == "cargo-traces-dlq"]
    assert len(dlq) == 1 and dlq[0]["reason"] == "evaluator_error"
    assert dlq[0]["error_type"] == "ZeroDivisionError" and dlq[0]["attempts"] == 3
    assert dlq[0]["trace_id"] == "poison-1"
    assert h.marks.marks == {"agent-traces:0": 42}  # past the poison message
    assert h.log[-1] == "ack"
    assert h.value("cargo_traces_total", status="judge_error") == 1
    assert h.value("cargo_judge_errors_total", judge="structural", kind="internal") == 1


def test_deliver_then_watermark_then_flush_then_ack_in_input_order(evaluator: Any) -> None:
    h = Harness(evaluator)
    h.sender.auto = False
    good = _lines(4)
    first, second = _records(good[:2]), _records(good[2:], start=2)

    async def scenario() -> None:
        async def ack(name: str) -> None:
            h.log.append(f"ack {name}")

        t1 = asyncio.create_task(
            h.delivery.handle(first, {"agent-traces:0": "e1"}, None, lambda: ack("1"))
        )
        t2 = asyncio.create_task(
            h.delivery.handle(second, {"agent-traces:0": "e2"}, t1, lambda: ack("2"))
        )
        for _ in range(200):  # until batch 1's outputs are sent, not delivered
            await asyncio.sleep(0.01)
            if len(h.sender.futures) >= 2:
                break
        await asyncio.sleep(0.05)
        # Nothing marked or acknowledged while the broker has not confirmed.
        assert not any(x.startswith(("mark", "ack", "flush")) for x in h.log)
        assert len(h.sender.futures) == 2  # batch 2 waits for batch 1
        for fut in h.sender.futures:
            fut.set_result(None)
        while len(h.sender.futures) < 4:
            await asyncio.sleep(0.01)
        for fut in h.sender.futures[2:]:
            fut.set_result(None)
        await asyncio.gather(t1, t2)

    asyncio.run(scenario())
    steps = [x for x in h.log if not x.startswith("send")]
    assert steps == [
        "delivered " + h.sender.sent[0][1].decode(),
        "delivered " + h.sender.sent[1][1].decode(),
        "mark agent-traces:0=1 anchor=e1",
        "flush",
        "ack 1",
        "delivered " + h.sender.sent[2][1].decode(),
        "delivered " + h.sender.sent[3][1].decode(),
        "mark agent-traces:0=3 anchor=e2",
        "flush",
        "ack 2",
    ]
    assert h.delivery.progress.done == {0: 3}


def test_admit_skips_redeliveries_and_reads_back_skipped_offsets(evaluator: Any) -> None:
    h = Harness(evaluator, marks={"agent-traces:0": 4})
    h.reader.stored = {("agent-traces", 0, 5): b"five", ("agent-traces", 0, 6): b"six"}
    seen: list[str | None] = []
    read = h.reader.read

    async def watched(topic: str, partition: int, start: int, stop: int) -> list[InputRecord]:
        seen.append(h.delivery.reading_back)  # what a stall report would name now
        return await read(topic, partition, start, stop)

    h.reader.read = watched  # type: ignore[method-assign]
    got = asyncio.run(
        h.delivery.admit(
            [
                InputRecord("agent-traces", 0, 3, b"old"),  # at or below the mark
                InputRecord("agent-traces", 0, 7, b"seven"),  # 5 and 6 skipped
                InputRecord("agent-traces", 0, 8, b"eight"),
                InputRecord("agent-traces", 1, 0, b"new partition"),
            ]
        )
    )
    assert [(r.partition, r.offset, r.value) for r in got] == [
        (0, 5, b"five"),
        (0, 6, b"six"),
        (0, 7, b"seven"),
        (0, 8, b"eight"),
        (1, 0, b"new partition"),
    ]
    assert h.reader.calls == [("agent-traces", 0, 5, 7)]
    assert seen == ["agent-traces:0 offsets 5..6"] and h.delivery.reading_back is None
    assert h.value("cargo_duplicates_skipped_total") == 1
    assert h.value("cargo_stream_gaps_total") == 1
    assert h.value("cargo_stream_gap_records_total") == 2
    # Revoked and assigned again: the watermark (still 4 here) decides, not memory.
    h.delivery.forget("agent-traces", 0)
    again = asyncio.run(h.delivery.admit([InputRecord("agent-traces", 0, 5, b"five")]))
    assert [r.offset for r in again] == [5]


def test_watermark_never_moves_back_and_no_flush_without_a_mark(evaluator: Any) -> None:
    h = Harness(evaluator, marks={"agent-traces:0": 10})
    records = _records(_lines(2), start=3)  # below the mark (read back after a revoke)
    outcomes = asyncio.run(h.delivery.outcomes(records))
    asyncio.run(h.delivery.finalise(records, outcomes, {"agent-traces:0": "e"}))
    assert h.marks.marks == {"agent-traces:0": 10}
    assert "flush" not in h.log


def test_a_judge_outage_is_retried_with_backoff_then_recorded(evaluator: Any) -> None:
    h = Harness(evaluator)
    real = h.delivery.evaluate
    outage = [2]  # the first two evaluations of the trace time out

    async def flaky(raws: Sequence[RawTrace]) -> list[Judgment]:
        out = await real(raws)
        if outage[0] > 0:
            outage[0] -= 1
            return [
                j.model_copy(
                    update={
                        "status": "judge_error",
                        "error": JudgeErrorInfo(kind="timeout", reason="slow"),
                        "scores": None,
                    }
                )
                for j in out
            ]
        return out

    h.delivery.evaluate = flaky
    accepted = [x for x in _lines(20) if b"case" in x][:1]
    outcomes = asyncio.run(h.delivery.outcomes(_records(accepted)))
    assert isinstance(outcomes[0], Judgment) and outcomes[0].status != "judge_error"
    assert h.sleeps == [1.0, 2.0]
    assert h.value("cargo_judge_outage_retries_total") == 2
    assert len(h.calls) == 3  # the batch, then the timed-out trace twice; no exception path


def test_an_evaluator_that_returns_too_few_judgments_is_a_failure(evaluator: Any) -> None:
    h = Harness(evaluator)

    async def short(raws: Sequence[RawTrace]) -> list[Judgment]:
        return []

    h.delivery.evaluate = short
    outcomes = asyncio.run(h.delivery.outcomes(_records(_lines(2))))
    assert [o.reason for o in outcomes if isinstance(o, Failure)] == ["evaluator_error"] * 2
    assert all(isinstance(o, Failure) and o.error_type == "RuntimeError" for o in outcomes)


def test_dead_letter_survives_a_payload_the_hint_cannot_read(tmp_path: Path) -> None:
    from pipelines.kafka.delivery import dead_letter

    bomb = b"[" * 200_000
    rec = dead_letter(
        bomb,
        Failure("too_deep", None, "nesting over 64"),
        topic="t",
        partition=1,
        offset=2,
        worker="w",
    )
    assert rec["reason"] == "too_deep" and rec["trace_id"] is None
    json.dumps(rec)


def test_a_dead_letter_record_always_fits_in_one_kafka_record() -> None:
    # The 700 KB object bomb of the hostile corpus: copied whole (base64 + text) its
    # record was 1.8 MB, over the producer's limit; the send failed and the partition
    # stalled. Now the record keeps the head, the size and the hash.
    import hashlib

    from pipelines.kafka.delivery import HEAD_BYTES, MAX_RECORD_BYTES, dead_letter

    bomb = b'{"a": ' * 100_000 + b"1" + b"}" * 100_000
    rec = dead_letter(bomb, Failure("too_deep"), topic="t", partition=3, offset=34, worker="w")
    assert len(json.dumps(rec)) < MAX_RECORD_BYTES
    assert rec["original_truncated"] is True and rec["original_bytes"] == len(bomb)
    assert rec["original_sha256"] == hashlib.sha256(bomb).hexdigest()
    assert base64.b64decode(rec["original_base64"]) == bomb[:HEAD_BYTES]
    small = dead_letter(
        b"{oops", Failure("invalid_json"), topic="t", partition=0, offset=1, worker="w"
    )
    assert small["original_truncated"] is False
    assert base64.b64decode(small["original_base64"]) == b"{oops"
    # Escaped text can triple a record: the measured size decides, not the raw size.
    controls = b'"' + b"\x01" * 200_000 + b'"'
    rec = dead_letter(
        controls, Failure("control_character"), topic="t", partition=0, offset=2, worker="w"
    )
    assert len(json.dumps(rec)) < MAX_RECORD_BYTES and rec["original_truncated"] is True


def test_a_judgment_too_large_for_kafka_is_dead_lettered(evaluator: Any) -> None:
    h = Harness(evaluator)
    h.delivery.max_record_bytes = 500  # every judgment is larger than this
    records = _records(_lines(1))
    asyncio.run(h.delivery.finalise(records, asyncio.run(h.delivery.outcomes(records)), {}))
    ((topic, _, rec),) = h.sender.sent
    assert topic == "cargo-traces-dlq" and rec["reason"] == "evaluator_error"
    assert rec["error_type"] == "OutputTooLargeError"
