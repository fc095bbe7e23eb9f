"""OpenTelemetry input and evaluation events in the embedded ``run``.

:class:`OtlpRun` wraps ``run``'s line source with :func:`~pipelines.otel.source.otlp_traces`
(``--input-format auto`` or ``otlp-json``), remembers in input order which span each
interaction's judgment belongs to (the evaluator yields judgments in input order, one per
input), and sends the ``gen_ai.evaluation.result`` events of each batch of judgments to
an OTLP/JSON lines file (``--otel-events-out``) and/or an OTLP/HTTP endpoint
(``--otlp-endpoint``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import IO

from prometheus_client import CollectorRegistry
from rich.table import Table

from monitor.io import TraceSource, open_for_writing
from monitor.schemas import Judgment
from monitor.traces import RawTrace
from pipelines.otel.events import encode_logs, logs_request
from pipelines.otel.export import OtlpHttpLogs, SpanRef, judgment_records, span_ref
from pipelines.otel.ingest import OtlpIngest
from pipelines.otel.mapping import load_mapping
from pipelines.otel.metrics import OtelMetrics
from pipelines.otel.settings import OtelSettings
from pipelines.otel.source import LineFormat, otlp_traces

FOLLOW_POLL_S = 0.5
#: A finite input is flushed whole at its end, so it need not judge traces early, but
#: its memory stays bounded (a producer that never closes stdin without --follow): ten
#: times --otel-max-open-traces (100,000 by default, about 1.6 GB of spans at most).
FINITE_OPEN_FACTOR = 10


class _Source:
    """A trace source over an async iterator (``TraceSource`` wants ``__aiter__``)."""

    def __init__(self, it: AsyncIterator[RawTrace]) -> None:
        self._it = it

    def __aiter__(self) -> AsyncIterator[RawTrace]:
        return self._it


class OtlpRun:
    """The OTLP side of one ``run`` (see the module docstring)."""

    def __init__(
        self,
        otel: OtelSettings,
        lines: TraceSource,
        registry: CollectorRegistry,
        *,
        follow: bool,
        events_out: str | None,
        max_record_bytes: int,
        mask: Callable[[str], str] | None = None,
    ) -> None:
        self.mask = mask
        self.ingest = OtlpIngest(
            mapping=load_mapping(otel.otel_mapping),
            quiet_period_s=otel.otel_quiet_period_s,
            max_wait_s=otel.otel_max_wait_s,
            max_open_traces=otel.otel_max_open_traces * (1 if follow else FINITE_OPEN_FACTOR),
            max_closed_traces=otel.otel_max_closed_traces,
            max_record_bytes=max_record_bytes,
        )
        self.metrics = OtelMetrics(registry)
        self.refs: deque[SpanRef | None] = deque()
        fmt: LineFormat = "auto"
        if otel.input_format in ("cargo", "otlp-json"):
            fmt = "cargo" if otel.input_format == "cargo" else "otlp-json"
        traces = otlp_traces(
            lines, self.ingest, fmt=fmt, poll_interval_s=FOLLOW_POLL_S if follow else None
        )
        self.source: TraceSource = _Source(self._remember(traces))
        self.http = (
            OtlpHttpLogs(otel.otlp_endpoint, timeout_s=otel.otlp_timeout_s)
            if otel.otlp_endpoint
            else None
        )
        self._file: IO[bytes] | None = None
        if events_out:
            self._file = open_for_writing(Path(events_out), "events", "wb")  # type: ignore[assignment]
        self.events_written = 0

    @classmethod
    def start(
        cls,
        otel: OtelSettings,
        lines: TraceSource,
        registry: CollectorRegistry,
        *,
        follow: bool,
        events_out: str | None = None,
        max_record_bytes: int = 1_048_576,
        mask: Callable[[str], str] | None = None,
    ) -> OtlpRun | None:
        """``None`` for ``--input-format cargo`` without event outputs (nothing to do)."""
        if otel.input_format == "cargo" and not (events_out or otel.otlp_endpoint):
            return None
        return cls(
            otel,
            lines,
            registry,
            follow=follow,
            events_out=events_out,
            max_record_bytes=max_record_bytes,
            mask=mask,
        )

    async def _remember(self, traces: AsyncIterator[RawTrace]) -> AsyncIterator[RawTrace]:
        async for raw in traces:
            self.refs.append(span_ref(raw))
            self.metrics.sync(self.ingest)
            yield raw
        self.metrics.sync(self.ingest)

    def judged(self, judgments: Sequence[Judgment]) -> None:
        """A batch of judgments, in input order: their events out."""
        pairs = [(j, self.refs.popleft() if self.refs else None) for j in judgments]
        records = judgment_records(pairs, self.mask)
        if not records:
            return
        if self._file is not None:
            self._file.write(encode_logs(logs_request(records), "otlp_json") + b"\n")
            self._file.flush()
            self.events_written += len(records)
            self.metrics.event("file", "sent", len(records))
        if self.http is not None:
            self.http.submit(records)
            self.metrics.sync_http(self.http.records)

    async def aclose(self) -> None:
        if self._file is not None:
            self._file.close()
        if self.http is not None:
            await self.http.aclose()
            self.metrics.sync_http(self.http.records)
        self.metrics.sync(self.ingest)

    def table(self) -> Table:
        ing, st = self.ingest, self.ingest.buffer.stats
        t = Table(title="OpenTelemetry input", show_header=True)
        t.add_column("metric")
        t.add_column("value", justify="right")
        t.add_row("OTLP records (lines)", str(ing.records))
        t.add_row("spans kept", str(st.spans_added))
        t.add_row("spans ignored (mapping)", str(ing.ignored_spans))
        t.add_row("duplicate spans", str(st.duplicates))
        # Two disjoint outcomes: a trace assembled into an interaction (judged), or a
        # record or trace that gave none (an invalid judgment with its reason). A trace
        # sent again for late spans is one outcome more.
        t.add_row("interactions assembled (judged)", str(ing.assembled))
        for reason, n in sorted(ing.incomplete.items()):
            t.add_row(f"  of them incomplete: {reason}", str(n))
        t.add_row("  again, for late spans", str(st.reemitted))
        t.add_row("no interaction (invalid)", str(sum(ing.failures.values())))
        for reason, n in sorted(ing.failures.items()):
            t.add_row(f"  {reason}", str(n))
        if self._file is not None:
            t.add_row("evaluation events written", str(self.events_written))
        if self.http is not None:
            for outcome in ("sent", "failed", "dropped"):
                t.add_row(
                    f"evaluation events {outcome} (OTLP/HTTP)", str(self.http.records[outcome])
                )
        return t
