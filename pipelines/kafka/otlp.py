"""The stream worker on OpenTelemetry spans (``--input-format otlp-proto|otlp-json|auto``).

The Collector's kafka exporter writes spans, not interactions: one record holds spans of
one or several traces, and a trace's spans come in several records, out of order,
duplicated, late. :class:`OtlpDelivery` feeds each record to an
:class:`~pipelines.otel.ingest.OtlpIngest` and judges each trace when the ingest emits
it (root arrived + quiet period, or given up on). Every record and every emitted trace
gets exactly one outcome:

* a record that is not OTLP: a dead-letter record with the reason (``otlp_undecodable``,
  ``too_large`` ...), like a native message that cannot be decoded;
* a native trace (``auto`` mode, a JSON trace on the same topic): judged as usual;
* an emitted trace: its judgment on the judgments topic (key = trace id; a re-emission
  after late spans has the same key and ``metadata.otel.revision`` + 1 in the judged
  trace), or a dead-letter record keyed by the trace id when the spans give no
  interaction (``no_question`` when content capture is off, ``no_root`` ...) or its
  evaluation keeps raising (``evaluator_error``); plus, with an events topic, its
  ``gen_ai.evaluation.result`` events (OTLP logs, key = trace id).

At-least-once: a record is acknowledged only when every trace it carried spans of has
been emitted and its outputs are in Kafka, and acknowledgements go in offset order per
partition (the consumer commits the acknowledged prefix). A worker that dies re-reads
the unacknowledged records and judges their traces again (same keys; the judgments
topic is compacted). The watermark table of the native path is not used: a record's
outcome is not decided when the next record's is. On a revoked partition the traces
buffered from its records are dropped unjudged: the partition's next owner reads those
records again.

``partition_traces_by_id: true`` in the exporter is required (all spans of a trace in
one partition, so in one worker); records keyed otherwise are counted
(``cargo_otel_unkeyed_records_total``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from monitor.schemas import Judgment
from pipelines.kafka.delivery import Delivery, Failure, InputRecord
from pipelines.otel.decode import sniff_format
from pipelines.otel.events import encode_logs, logs_request
from pipelines.otel.export import OtlpHttpLogs, judgment_records, span_ref
from pipelines.otel.ingest import OtlpIngest, Outcome
from pipelines.otel.metrics import OtelMetrics
from pipelines.otel.settings import EventsEncoding, InputFormat
from pipelines.otel.source import outcome_raw

log = logging.getLogger("cargo.stream")

MAX_RECORD_REFS = 100  # input records named in a trace's dead-letter record

Ack = Callable[[], Awaitable[None]]


@dataclass
class _Pending:
    """An input record waiting for the traces it carried spans of."""

    rec: InputRecord
    ack: Ack
    waiting: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class EventsOut:
    """Where evaluation events go: a Kafka topic and/or an OTLP/HTTP exporter."""

    topic: str | None = None
    encoding: EventsEncoding = "otlp_proto"
    http: OtlpHttpLogs | None = None


class OtlpDelivery:
    """Records in, one outcome per record and per emitted trace (module docstring)."""

    def __init__(
        self,
        *,
        delivery: Delivery,
        ingest: OtlpIngest,
        input_format: InputFormat,
        metrics: OtelMetrics,
        events: EventsOut | None = None,
    ) -> None:
        self.delivery = delivery
        self.ingest = ingest
        self.input_format = input_format
        self.metrics = metrics
        self.events = events or EventsOut()
        self.partitions: dict[tuple[str, int], deque[_Pending]] = {}
        self.by_trace: dict[str, list[_Pending]] = {}
        self.lock = asyncio.Lock()

    @property
    def waiting_records(self) -> int:
        return sum(len(q) for q in self.partitions.values())

    async def take(self, records: Sequence[InputRecord], acks: Sequence[Ack]) -> None:
        """A batch of input records (each with the acknowledgement of its message)."""
        async with self.lock:
            sends: list[Awaitable[Any]] = []
            native: list[_Pending] = []
            for rec, ack in zip(records, acks, strict=True):
                pending = _Pending(rec, ack)
                self.partitions.setdefault((rec.topic, rec.partition), deque()).append(pending)
                fmt = self.input_format
                if fmt == "auto":
                    fmt = sniff_format(rec.value)
                if fmt == "cargo":
                    native.append(pending)
                    continue
                failed = self.ingest.feed(rec.value, fmt, kafka_key=rec.key, from_kafka=True)
                for outcome in failed:  # the record is not OTLP: it is its own outcome
                    assert outcome.error is not None
                    sends.append(
                        await self.delivery.send_outcome(rec, Failure.invalid(outcome.error))
                    )
                if not failed:
                    pending.waiting = set(self.ingest.last_traces)
                    for tid in pending.waiting:
                        self.by_trace.setdefault(tid, []).append(pending)
            if native:
                outcomes = await self.delivery.outcomes([p.rec for p in native])
                for p, result in zip(native, outcomes, strict=True):
                    sends.append(await self.delivery.send_outcome(p.rec, result))
            sends.extend(await self._emit(self.ingest.poll()))
            await self._settle(sends)

    async def tick(self) -> None:
        """Judge the traces that became ready (call on a timer)."""
        async with self.lock:
            await self._settle(await self._emit(self.ingest.poll()))

    def forget(self, topic: str, partition: int) -> None:
        """A revoked partition: drop its waiting records and the traces they fed (the
        next owner reads them again), without acknowledging anything."""
        queue = self.partitions.pop((topic, partition), None)
        if not queue:
            return
        traces: set[str] = set()
        for p in queue:
            traces |= p.waiting
        for tid in traces:
            keep = [p for p in self.by_trace.get(tid, []) if p.rec.partition != partition
                    or p.rec.topic != topic]  # fmt: skip
            if keep:
                self.by_trace[tid] = keep
            else:
                self.by_trace.pop(tid, None)
        dropped = self.ingest.discard(t for t in traces if t not in self.by_trace)
        log.info(
            "partition %s:%d revoked: %d waiting record(s) and %d buffered trace(s) left to "
            "its next owner",
            topic,
            partition,
            len(queue),
            dropped,
        )

    async def _settle(self, sends: list[Awaitable[Any]]) -> None:
        """Outputs in Kafka, then acknowledge each partition's finished prefix."""
        if sends:
            await asyncio.gather(*sends)
        progress, traces_topic = self.delivery.progress, self.delivery.topics.traces
        now = time.monotonic()
        for queue in self.partitions.values():
            while queue and not queue[0].waiting:
                pending = queue.popleft()
                await pending.ack()
                rec = pending.rec
                # The progress watch: this partition moves (else a false stall).
                if rec.topic == traces_topic and rec.offset > progress.done.get(rec.partition, -1):
                    progress.done[rec.partition] = rec.offset
                    progress.moved[rec.partition] = now
        self.metrics.sync(self.ingest)
        if self.events.http is not None:  # its sends settle in the background
            self.metrics.sync_http(self.events.http.records)

    async def aclose(self, drain_s: float = 5.0) -> None:
        """On stop: the OTLP/HTTP events still queued get ``drain_s`` to be sent (the
        rest counted dropped), and the final counts reach the metrics."""
        http = self.events.http
        if http is None:
            return
        try:
            await http.aclose(drain_s=drain_s)
        finally:
            self.metrics.sync_http(http.records)

    async def _emit(self, outcomes: list[Outcome]) -> list[Awaitable[Any]]:
        """Judge emitted traces; returns their outputs' delivery futures."""
        if not outcomes:
            return []
        sends: list[Awaitable[Any]] = []
        raws = [outcome_raw(o) for o in outcomes]
        judge = [k for k, o in enumerate(outcomes) if o.trace is not None]
        judged = await self.delivery.evaluate_isolated([raws[k] for k in judge]) if judge else []
        results: dict[int, Judgment | Failure] = dict(zip(judge, judged, strict=True))
        events: list[tuple[str, list[Any]]] = []
        for k, (outcome, raw) in enumerate(zip(outcomes, raws, strict=True)):
            tid = outcome.trace_id or ""
            if self.ingest.buffer.is_open(tid):
                # Emitted (evicted) and reopened by a later span before this emission:
                # its records wait for the reopened revision.
                carriers = list(self.by_trace.get(tid, []))
                reopened = True
            else:
                carriers = self.by_trace.pop(tid, [])
                reopened = False
            result = results.get(k)
            if result is None:  # the spans gave no interaction
                assert outcome.error is not None
                result = Failure.invalid(outcome.error)
            if isinstance(result, Judgment):
                try:
                    sends.append(await self.delivery.send_judgment(result))
                except Exception as exc:  # a judgment that cannot be written: its outcome
                    result = Failure.crashed("evaluator_error", exc)
            if isinstance(result, Judgment):
                recs = judgment_records(
                    [(self._written(result), span_ref(raw))], self.delivery.mask
                )
            else:
                sends.append(await self._dead_letter_trace(tid, result, carriers))
                recs = []
                if result.reason != "evaluator_error":
                    ref = span_ref(raw)
                    if ref is not None:
                        invalid = self._written(self._invalid_judgment(tid, result))
                        recs = judgment_records([(invalid, ref)], self.delivery.mask)
            if recs:
                events.append((tid, recs))
            if not reopened:
                for p in carriers:
                    p.waiting.discard(tid)
        sends.extend(await self._send_events(events))
        return sends

    def _written(self, judgment: Judgment) -> Judgment:
        """The judgment as its events carry it: redacted (``--redact``) like the one on
        the judgments topic (the secret mask is applied to the records built from it)."""
        redactor = self.delivery.redactor
        return judgment if redactor is None else redactor(judgment)

    def _invalid_judgment(self, tid: str, failure: Failure) -> Judgment:
        return Judgment(
            trace_id=tid,
            status="invalid",
            reason=failure.reason,
            invalid_field=failure.field,
            rationale=failure.detail,
            evaluated_at=datetime.now(UTC),
        )

    async def _send_events(self, events: list[tuple[str, list[Any]]]) -> list[Awaitable[Any]]:
        out: list[Awaitable[Any]] = []
        ev = self.events
        for tid, recs in events:
            if ev.topic:
                value = encode_logs(logs_request(recs), ev.encoding)
                out.append(await self.delivery.sender.send(ev.topic, tid.encode(), value))
                self.metrics.event("kafka", "sent", len(recs))
            if ev.http is not None:
                ev.http.submit(recs)
        return out

    async def _dead_letter_trace(
        self, tid: str, failure: Failure, carriers: list[_Pending]
    ) -> Awaitable[Any]:
        d = self.delivery
        record = {
            "reason": failure.reason,
            "field": failure.field,
            "detail": failure.detail,
            "error_type": failure.error_type,
            "attempts": failure.attempts,
            "kind": "otlp_trace",
            "trace_id": tid or None,
            # The spans are in these input records (all of one partition with
            # partition_traces_by_id).
            "records": [
                {"topic": p.rec.topic, "partition": p.rec.partition, "offset": p.rec.offset}
                for p in carriers[:MAX_RECORD_REFS]
            ],
            "records_total": len(carriers),
            "worker": d.worker,
            "dead_lettered_at": datetime.now(UTC).isoformat(),
        }
        if d.redactor is not None:  # an exception's detail may quote the input
            record = d.redactor.dead_letter(record)
        text = json.dumps(record)
        if d.mask is not None:
            text = d.mask(text)
        future = await d.sender.send(d.topics.dlq, f"otlp:{tid}".encode(), text.encode())
        d.count_failure(failure)
        return future
