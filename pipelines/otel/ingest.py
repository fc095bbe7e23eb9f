"""Records in, interactions out: decode -> per-trace buffer -> assembly.

:class:`OtlpIngest` is what a source (a Kafka worker, the embedded ``run`` over a file
of OTLP/JSON lines) drives. It holds no I/O: ``feed`` a record, ``poll`` on a timer,
``flush`` at end of input. Every record and every trace ends in exactly one
:class:`Outcome` per emission: an assembled :class:`~monitor.schemas.Trace`, or an
:class:`~monitor.errors.InvalidTraceError` with a bounded reason (an undecodable record,
a trace without question or answer). No other exception leaves ``feed``/``poll``/
``flush``: an unexpected one becomes ``decode_error`` / ``assembly_error``.

The assembled trace carries, in ``metadata["otel"]``, its ``revision`` (0, then 1, 2 ...
when late spans re-emit it under the same trace id) and ``incomplete`` (``evicted``,
``root_missing`` or ``max_wait``) when the buffer gave up waiting.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from monitor.errors import InvalidTraceError
from monitor.schemas import Trace
from pipelines.otel.assemble import assemble, root_kind
from pipelines.otel.buffer import ReadyTrace, TraceBuffer
from pipelines.otel.decode import decode_record
from pipelines.otel.mapping import DEFAULT_MAPPING, OtelMapping

OtlpFormat = Literal["otlp-json", "otlp-proto"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One emission: a trace to judge, or why there is none."""

    trace_id: str | None
    revision: int
    trace: Trace | None = None
    error: InvalidTraceError | None = None
    incomplete: str | None = None  # "evicted" | "root_missing" | "max_wait": given up on


class OtlpIngest:
    """Decode records, buffer spans per trace, assemble ready traces."""

    def __init__(
        self,
        *,
        mapping: OtelMapping = DEFAULT_MAPPING,
        quiet_period_s: float = 3.0,
        candidate_wait_s: float = 10.0,
        max_wait_s: float = 60.0,
        max_open_traces: int = 10_000,
        max_closed_traces: int = 5_000,
        max_spans_per_trace: int = 5_000,
        max_record_bytes: int = 8_000_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.mapping = mapping
        self.max_record_bytes = max_record_bytes
        self.buffer = TraceBuffer(
            root_kind=root_kind,
            quiet_period_s=quiet_period_s,
            candidate_wait_s=candidate_wait_s,
            max_wait_s=max_wait_s,
            max_open_traces=max_open_traces,
            max_closed_traces=max_closed_traces,
            max_spans_per_trace=max_spans_per_trace,
            clock=clock,
        )
        self.records = 0
        self.spans = 0
        self.ignored_spans = 0
        # Kafka records whose key is not the trace id of all their spans: the exporter
        # runs without partition_traces_by_id, so a trace's spans may reach two workers.
        self.unkeyed_records = 0
        self.undecodable_records = 0
        self.assembled = 0  # emissions that became a trace to judge
        self.failures: Counter[str] = Counter()  # emissions without one, by reason
        self.incomplete: Counter[str] = Counter()  # emissions given up on, by why
        # The traces the last fed record had new spans for (a stream worker holds the
        # record's acknowledgement until each of them is emitted).
        self.last_traces: frozenset[str] = frozenset()

    def feed(
        self,
        payload: bytes | str,
        fmt: OtlpFormat,
        *,
        kafka_key: bytes | None = None,
        from_kafka: bool = False,
    ) -> list[Outcome]:
        """Decode one record and buffer its spans. Returns the record's outcome when it
        cannot be decoded (else nothing: traces come from :meth:`poll`, including those
        evicted to make room). With ``from_kafka``, the record's key is checked: the
        Collector's exporter keys a record by its trace id (hex) only with
        ``partition_traces_by_id: true``, which this ingest requires (counted in
        ``unkeyed_records`` otherwise)."""
        self.records += 1
        self.last_traces = frozenset()
        size = len(payload.encode("utf-8")) if isinstance(payload, str) else len(payload)
        if size > self.max_record_bytes:
            err = InvalidTraceError(
                "too_large", detail=f"{size} bytes, over the limit of {self.max_record_bytes}"
            )
            return [self._undecodable(err)]
        try:
            spans = decode_record(payload, fmt)
        except InvalidTraceError as exc:
            return [self._undecodable(exc)]
        except Exception as exc:  # a decoder bug (or a RecursionError) must not end a worker
            detail = f"{type(exc).__name__}: {str(exc)[:200]}"
            return [self._undecodable(InvalidTraceError("decode_error", detail=detail))]
        if not spans:
            # OTLP ignores unknown fields: a native trace read as OTLP, an empty request
            # or bytes of unknown fields decode to nothing. That is this record's outcome.
            err = InvalidTraceError("no_spans", detail="the record holds no spans")
            return [self._undecodable(err)]
        if from_kafka and spans:
            key = kafka_key.decode("ascii", errors="replace").lower() if kafka_key else None
            if any(s.trace_id != key for s in spans):
                self.unkeyed_records += 1
        kept = [s for s in spans if not self.mapping.ignored(s.name)]
        self.spans += len(kept)
        self.ignored_spans += len(spans) - len(kept)
        added = self.buffer.add(kept)
        self.last_traces = frozenset(added.traces)
        return []

    def discard(self, trace_ids: Iterable[str]) -> int:
        """Forget open traces without emitting them (their records will be read again
        elsewhere: a revoked partition). Returns how many were open."""
        return self.buffer.discard(trace_ids)

    def _undecodable(self, exc: InvalidTraceError) -> Outcome:
        self.undecodable_records += 1
        self.failures[exc.reason] += 1
        return Outcome(None, 0, error=exc)

    def poll(self) -> list[Outcome]:
        """Traces ready now, assembled."""
        return [self._assemble(r) for r in self.buffer.poll()]

    def flush(self) -> list[Outcome]:
        """End of input: everything still open, assembled."""
        return [self._assemble(r) for r in self.buffer.flush()]

    def _assemble(self, ready: ReadyTrace) -> Outcome:
        incomplete = ready.reason if ready.incomplete else None
        if incomplete:
            self.incomplete[incomplete] += 1
        try:
            assembled = assemble(ready.spans, self.mapping)
        except InvalidTraceError as exc:
            self.failures[exc.reason] += 1
            return Outcome(ready.trace_id, ready.revision, error=exc, incomplete=incomplete)
        except Exception as exc:  # an assembly bug must not end a worker
            err = InvalidTraceError("assembly_error", detail=f"{type(exc).__name__}: {exc}"[:300])
            self.failures[err.reason] += 1
            return Outcome(ready.trace_id, ready.revision, error=err, incomplete=incomplete)
        self.assembled += 1
        otel = dict(assembled.trace.metadata.get("otel", {}))
        otel["revision"] = ready.revision
        if incomplete:
            otel["incomplete"] = incomplete
        if ready.dropped:
            otel["spans_dropped"] = ready.dropped
        trace = assembled.trace.model_copy(
            update={"metadata": {**assembled.trace.metadata, "otel": otel}}
        )
        return Outcome(ready.trace_id, ready.revision, trace=trace, incomplete=incomplete)


def interactions_from_lines(
    lines: Iterable[bytes | str],
    fmt: OtlpFormat = "otlp-json",
    *,
    mapping: OtelMapping = DEFAULT_MAPPING,
) -> Iterator[Outcome]:
    """Interactions of a finite file of records (the Collector's file exporter writes one
    OTLP/JSON object per line): spans are gathered over the whole input, then each trace
    is assembled once (no quiet period is needed: nothing arrives later). Blank lines
    are skipped."""
    ingest = OtlpIngest(mapping=mapping, max_open_traces=10**9)
    for line in lines:
        if not line.strip():
            continue
        yield from ingest.feed(line, fmt)
    yield from ingest.flush()
