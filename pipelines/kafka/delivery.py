"""At-least-once delivery of the stream worker, without Faust: one outcome per message,
outputs delivered before the watermark, the watermark before the acknowledgement, in
input order.

For one batch of input records :class:`Delivery`

1. admits them (:meth:`Delivery.admit`): a record at or below the partition's
   watermark was already judged (a redelivery: skipped); offsets the consumer skipped
   are read back first;
2. gives each record exactly one outcome (:meth:`Delivery.outcomes`): a judgment, or a
   dead-letter record when it cannot be decoded or its evaluation keeps raising. An
   exception is the outcome of the one trace that raised: a batch whose evaluation
   raises is evaluated again trace by trace, and a trace that raises on each of
   ``max_attempts`` attempts is dead-lettered with the exception type;
3. finalises it (:meth:`Delivery.finalise`) after the previous batch: sends every
   outcome, waits until the broker has them, writes the partition watermarks (in
   Kafka before anything is acknowledged), then acknowledges the input.

The Kafka pieces are behind small protocols (:class:`Sender`, :class:`Watermarks`,
:class:`Reader`), so the order of these steps is unit-tested without a broker.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from monitor.errors import InvalidTraceError
from monitor.metrics import MonitorMetrics
from monitor.redact import Redactor
from monitor.schemas import Judgment, SourceLocation, Trace
from monitor.traces import RawTrace, parse_trace, trace_id_hint
from pipelines.kafka.metrics import StreamMetrics

log = logging.getLogger("cargo.stream")

TRANSIENT_KINDS = frozenset({"timeout", "rate_limit", "connection", "http"})
DETAIL_CHARS = 500  # of an exception's text in a dead-letter record
# Largest record the worker writes: under the producer's 1,000,000-byte request limit
# and the broker's default message.max.bytes, with room for key and headers.
MAX_RECORD_BYTES = 900_000
HEAD_BYTES = 4096  # of an original too large to copy whole into its dead-letter record


@dataclass(frozen=True)
class InputRecord:
    """One input message: where it is and its bytes."""

    topic: str
    partition: int
    offset: int
    value: bytes
    key: bytes | None = None

    @classmethod
    def of(cls, msg: Any) -> InputRecord:
        raw = msg.value if isinstance(msg.value, bytes) else bytes(msg.value or b"")
        key = msg.key if isinstance(msg.key, bytes) or msg.key is None else bytes(msg.key)
        return cls(msg.topic, msg.partition, msg.offset, raw, key)

    @property
    def mark_key(self) -> str:
        return f"{self.topic}:{self.partition}"


@dataclass(frozen=True)
class Failure:
    """Why a message has no judgment: a bounded reason (the ``invalid`` reasons of the
    decoder, ``decode_error`` or ``evaluator_error``), the field, the detail and, when
    an exception other than an invalid trace caused it, that exception's type."""

    reason: str
    field: str | None = None
    detail: str = ""
    error_type: str | None = None
    attempts: int = 1

    @classmethod
    def invalid(cls, exc: InvalidTraceError) -> Failure:
        return cls(exc.reason, exc.field, exc.detail)

    @classmethod
    def crashed(cls, reason: str, exc: BaseException, attempts: int = 1) -> Failure:
        text = str(exc)
        if len(text) > DETAIL_CHARS:
            text = text[:DETAIL_CHARS] + "..."
        return cls(reason, None, f"{type(exc).__name__}: {text}", type(exc).__name__, attempts)


Outcome = Judgment | Failure


class OutputTooLargeError(Exception):
    """An outcome too large for one Kafka record."""


def dead_letter(
    raw: bytes,
    exc: InvalidTraceError | Failure,
    *,
    topic: str,
    partition: int,
    offset: int,
    worker: str,
    max_bytes: int = MAX_RECORD_BYTES,
) -> dict[str, Any]:
    """The DLQ record: everything needed to find, understand and replay the message.

    The original goes in whole (base64, and as text when it is UTF-8) while the record
    stays under ``max_bytes``; of a larger one the first ``HEAD_BYTES``, its size and its
    SHA-256 (``original_truncated``): the message itself is at topic/partition/offset.
    """
    failure = Failure.invalid(exc) if isinstance(exc, InvalidTraceError) else exc
    try:
        trace_id = trace_id_hint(raw)
    except Exception:  # the payload that could not be decoded may defeat the hint too
        trace_id = None
    record = {
        "reason": failure.reason,
        "field": failure.field,
        "detail": failure.detail,
        "error_type": failure.error_type,
        "attempts": failure.attempts,
        "topic": topic,
        "partition": partition,
        "offset": offset,
        "trace_id": trace_id,
        **_original(raw, truncated=False),
        "worker": worker,
        "dead_lettered_at": datetime.now(UTC).isoformat(),
    }
    if len(raw) * 4 // 3 + 4096 > max_bytes or len(json.dumps(record)) > max_bytes:
        record |= _original(raw, truncated=True)
    return record


def _original(raw: bytes, *, truncated: bool) -> dict[str, Any]:
    body = raw[:HEAD_BYTES] if truncated else raw
    try:
        text: str | None = body.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    return {
        "original_base64": base64.b64encode(body).decode("ascii"),
        "original_text": text,
        "original_bytes": len(raw),
        "original_sha256": hashlib.sha256(raw).hexdigest(),
        "original_truncated": truncated,
    }


class Sender(Protocol):
    """The producer: ``send`` queues a record and returns its delivery future."""

    async def send(self, topic: str, key: bytes, value: bytes) -> Awaitable[Any]: ...

    async def flush(self) -> None: ...


class Watermarks(Protocol):
    """Per input partition (``topic:partition``): the highest offset whose outputs were
    delivered. ``anchor`` is an input message of that partition (Faust writes the mark
    to the changelog partition of the message it belongs to)."""

    def get(self, key: str) -> int | None: ...

    def put(self, key: str, offset: int, anchor: Any) -> None: ...


class Reader(Protocol):
    async def read(self, topic: str, partition: int, start: int, stop: int) -> list[InputRecord]:
        """Records with start <= offset < stop, read straight from Kafka."""
        ...


@dataclass
class Progress:
    """Per input partition: the highest offset finalised here and when it last moved."""

    done: dict[int, int] = field(default_factory=dict)
    moved: dict[int, float] = field(default_factory=dict)
    stalled: dict[int, int] = field(default_factory=dict)  # partition -> next offset then
    inflight: int = 0

    def batch_done(self, _task: asyncio.Task[None]) -> None:
        self.inflight -= 1


@dataclass(frozen=True)
class Topics:
    traces: str
    judgments: str
    dlq: str


@dataclass(frozen=True)
class RetryPolicy:
    """Judge outages: the transiently failed traces of a batch are judged again with
    exponential backoff (the batch is not acknowledged meanwhile: backpressure).
    Exceptions: a trace is evaluated at most ``max_attempts`` times, its batch's
    attempt included, before it is dead-lettered."""

    outage_retries: int = 5
    outage_backoff_s: float = 1.0
    outage_backoff_max_s: float = 30.0
    max_attempts: int = 3


Evaluate = Callable[[Sequence[RawTrace]], Awaitable[list[Judgment]]]


class Delivery:
    """The worker's per-batch logic (see the module docstring)."""

    def __init__(
        self,
        *,
        topics: Topics,
        worker: str,
        sender: Sender,
        watermarks: Watermarks,
        reader: Reader,
        evaluate: Evaluate,
        metrics: MonitorMetrics,
        stream_metrics: StreamMetrics,
        progress: Progress | None = None,
        retry: RetryPolicy | None = None,
        parse: Callable[[bytes], Trace] = parse_trace,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        redactor: Redactor | None = None,
        mask: Callable[[str], str] | None = None,
        max_record_bytes: int = MAX_RECORD_BYTES,
    ) -> None:
        self.topics = topics
        self.worker = worker
        self.sender = sender
        self.watermarks = watermarks
        self.reader = reader
        self.evaluate = evaluate
        self.metrics = metrics
        self.stream_metrics = stream_metrics
        self.progress = progress or Progress()
        self.retry = retry or RetryPolicy()
        self.parse = parse
        self.sleep = sleep
        self.max_record_bytes = max_record_bytes
        # --redact (judgments and dead-letter records without interaction content) and
        # the secret mask: applied at the one point where outcomes are serialised.
        self.redactor = redactor
        self.mask = mask
        # Next input offset expected per partition (in memory; from the watermark when
        # the partition is new here). Above it: the consumer skipped records; below: a
        # redelivery.
        self.expected: dict[tuple[str, int], int] = {}
        self.reading_back: str | None = None  # what admit is reading back now (stall cause)
        for stage in ("decode", "evaluate"):
            stream_metrics.failures.labels(stage=stage)

    def forget(self, topic: str, partition: int) -> None:
        """A revoked partition: its next owner may have moved it on."""
        self.expected.pop((topic, partition), None)

    async def admit(self, records: Sequence[InputRecord]) -> list[InputRecord]:
        """The records to judge, in order: redelivered ones dropped, and offsets the
        consumer skipped read back from Kafka first."""
        out: list[InputRecord] = []
        for rec in records:
            key = (rec.topic, rec.partition)
            nxt = self.expected.get(key)
            if nxt is None:
                mark = self.watermarks.get(rec.mark_key)
                nxt = None if mark is None else mark + 1
            if nxt is not None and rec.offset < nxt:
                self.stream_metrics.duplicates.inc()
                continue
            if nxt is not None and rec.offset > nxt:
                log.warning(
                    "partition %s:%d: the consumer skipped offsets %d..%d; reading them "
                    "back to judge them",
                    rec.topic,
                    rec.partition,
                    nxt,
                    rec.offset - 1,
                )
                self.reading_back = f"{rec.topic}:{rec.partition} offsets {nxt}..{rec.offset - 1}"
                try:
                    missing = await self.reader.read(rec.topic, rec.partition, nxt, rec.offset)
                finally:
                    self.reading_back = None
                self.stream_metrics.gaps.inc()
                self.stream_metrics.repaired.inc(len(missing))
                log.warning(
                    "partition %s:%d: read back %d record(s)",
                    rec.topic,
                    rec.partition,
                    len(missing),
                )
                out.extend(missing)
            out.append(rec)
            self.expected[key] = rec.offset + 1
        return out

    async def handle(
        self,
        records: Sequence[InputRecord],
        anchors: Mapping[str, Any],
        prev: Awaitable[None] | None,
        ack: Callable[[], Awaitable[None]],
    ) -> None:
        """One batch: its outcomes (concurrently with the previous batch's delivery),
        then, after the previous batch, delivery, watermarks and acknowledgement."""
        outcomes = await self.outcomes(records)
        if prev is not None:
            await prev  # finalise in input order (watermarks must not overtake)
        await self.finalise(records, outcomes, anchors)
        await ack()

    async def outcomes(self, records: Sequence[InputRecord]) -> list[Outcome]:
        """Exactly one outcome per record, whatever the decoder or evaluator raises."""
        out: list[Outcome | None] = [None] * len(records)
        fresh: list[tuple[int, RawTrace]] = []
        for k, rec in enumerate(records):
            try:
                trace = self.parse(rec.value)
            except InvalidTraceError as exc:
                if exc.reason == "decode_error":  # the decoder raised: parse_trace wrapped it
                    self.stream_metrics.failures.labels(stage="decode").inc()
                    log.error(
                        "decoding %s:%d:%d raised (%s); dead-lettered",
                        rec.topic,
                        rec.partition,
                        rec.offset,
                        exc.reason,
                    )
                out[k] = Failure.invalid(exc)
                continue
            except Exception as exc:  # a parser that does not wrap its errors
                self.stream_metrics.failures.labels(stage="decode").inc()
                log.error(
                    "decoding %s:%d:%d raised %s; dead-lettered",
                    rec.topic,
                    rec.partition,
                    rec.offset,
                    type(exc).__name__,
                    exc_info=exc,
                )
                out[k] = Failure.crashed("decode_error", exc)
                continue
            loc = SourceLocation(topic=rec.topic, partition=rec.partition, offset=rec.offset)
            fresh.append((k, RawTrace(trace, loc)))  # parsed once: the evaluator takes it
        if fresh:
            judged = await self._evaluate_isolated([raw for _, raw in fresh])
            for (k, _), outcome in zip(fresh, judged, strict=True):
                out[k] = outcome
        return [o for o in out if o is not None]

    async def _evaluate_isolated(self, raws: Sequence[RawTrace]) -> list[Outcome]:
        try:
            return list(await self._judge(raws))
        except Exception as exc:
            if len(raws) > 1:
                log.warning(
                    "evaluating a batch of %d raised %s: %s; evaluating its traces one by one",
                    len(raws),
                    type(exc).__name__,
                    exc,
                )
            first: BaseException = exc
        return [await self._evaluate_alone(raw, first) for raw in raws]

    async def _evaluate_alone(self, raw: RawTrace, last: BaseException) -> Outcome:
        for _ in range(1, self.retry.max_attempts):
            try:
                return (await self._judge([raw]))[0]
            except Exception as exc:
                last = exc
        self.stream_metrics.failures.labels(stage="evaluate").inc()
        loc = raw.location
        log.error(
            "evaluating trace %s at %s raised %s on each of %d attempts; dead-lettered",
            getattr(raw.payload, "trace_id", None),
            f"{loc.topic}:{loc.partition}:{loc.offset}" if loc else "?",
            type(last).__name__,
            self.retry.max_attempts,
            exc_info=last,
        )
        return Failure.crashed("evaluator_error", last, attempts=self.retry.max_attempts)

    async def _judge(self, raws: Sequence[RawTrace]) -> list[Judgment]:
        """Evaluate; traces that failed transiently (a judge outage) are judged again
        with backoff before their judge errors are recorded."""
        out = list(await self.evaluate(raws))
        if len(out) != len(raws):
            raise RuntimeError(f"the evaluator returned {len(out)} judgments for {len(raws)}")
        delay = self.retry.outage_backoff_s
        for attempt in range(self.retry.outage_retries + 1):
            # Only the transient failures again: the others have their judgment (and
            # an LLM call is not free).
            transient = [
                k
                for k, j in enumerate(out)
                if j.status == "judge_error" and j.error and j.error.kind in TRANSIENT_KINDS
            ]
            if not transient or attempt == self.retry.outage_retries:
                break
            self.stream_metrics.retries.inc()
            log.warning(
                "judge outage (%d transient errors), retrying them in %.1fs", len(transient), delay
            )
            await self.sleep(delay)
            delay = min(delay * 2, self.retry.outage_backoff_max_s)
            again = await self.evaluate([raws[k] for k in transient])
            for k, j in zip(transient, again, strict=True):
                out[k] = j
        return out

    async def finalise(
        self,
        records: Sequence[InputRecord],
        outcomes: Sequence[Outcome],
        anchors: Mapping[str, Any],
    ) -> None:
        """Deliver the outcomes, then write the watermarks and flush them: nothing may be
        acknowledged before its output and its watermark are in Kafka."""
        sends: list[Awaitable[Any]] = []
        for rec, outcome in zip(records, outcomes, strict=True):
            sends.append(await self._send(rec, outcome))
        if sends:
            await asyncio.gather(*sends)
        # One watermark per input partition and batch: its highest offset.
        top: dict[str, int] = {}
        for rec in records:
            top[rec.mark_key] = max(rec.offset, top.get(rec.mark_key, -1))
        marked = False
        for key, offset in top.items():
            current = self.watermarks.get(key)
            if current is None or offset > current:
                self.watermarks.put(key, offset, anchors.get(key))
                marked = True
        if marked:
            # Offsets may be committed as soon as the input is acknowledged: a mark
            # still queued then could be lost, and the range judged twice.
            await self.sender.flush()
        now = time.monotonic()
        done, moved = self.progress.done, self.progress.moved
        for rec in records:
            if rec.topic == self.topics.traces and rec.offset > done.get(rec.partition, -1):
                done[rec.partition] = rec.offset
                moved[rec.partition] = now

    async def evaluate_isolated(self, raws: Sequence[RawTrace]) -> list[Outcome]:
        """One outcome per trace, whatever the evaluator raises (see :meth:`outcomes`)."""
        return await self._evaluate_isolated(raws)

    def judgment_value(self, judgment: Judgment) -> bytes:
        """The judgment as written (redacted, secrets masked); raises when it cannot be
        written (:class:`OutputTooLargeError` over the record limit)."""
        written = judgment if self.redactor is None else self.redactor(judgment)
        text = written.model_dump_json()
        value = (text if self.mask is None else self.mask(text)).encode()
        if len(value) > self.max_record_bytes:
            raise OutputTooLargeError(
                f"judgment of {len(value)} bytes, over {self.max_record_bytes}"
            )
        return value

    async def send_judgment(self, judgment: Judgment) -> Awaitable[Any]:
        """Send a judgment (key = trace id); raises like :meth:`judgment_value`."""
        value = self.judgment_value(judgment)
        # Straight to the producer: the future resolves when the broker has it.
        future = await self.sender.send(
            self.topics.judgments, (judgment.trace_id or "").encode(), value
        )
        self.metrics.observe(judgment)
        return future

    async def send_outcome(self, rec: InputRecord, outcome: Outcome) -> Awaitable[Any]:
        """Send a record's outcome: its judgment, or its dead-letter record."""
        return await self._send(rec, outcome)

    async def _send(self, rec: InputRecord, outcome: Outcome) -> Awaitable[Any]:
        if isinstance(outcome, Judgment):
            try:
                return await self.send_judgment(outcome)
            except Exception as exc:  # a judgment that cannot be written: its outcome
                outcome = Failure.crashed("evaluator_error", exc)
        record = dead_letter(
            rec.value,
            outcome,
            topic=rec.topic,
            partition=rec.partition,
            offset=rec.offset,
            worker=self.worker,
            max_bytes=self.max_record_bytes,
        )
        if self.redactor is not None:
            record = self.redactor.dead_letter(record)
        text = json.dumps(record)
        future = await self.sender.send(
            self.topics.dlq,
            f"{rec.topic}:{rec.partition}:{rec.offset}".encode(),
            (text if self.mask is None else self.mask(text)).encode(),
        )
        self.count_failure(outcome)
        return future

    def count_failure(self, failure: Failure) -> None:
        """A dead-lettered outcome in the monitor's metrics."""
        if failure.reason == "evaluator_error":
            self.metrics.traces.labels(status="judge_error").inc()
            self.metrics.judge_errors.labels(judge=self.metrics.judge_name, kind="internal").inc()
        else:
            self.metrics.traces.labels(status="invalid").inc()
            self.metrics.invalid.labels(reason=failure.reason).inc()
