"""Prometheus metrics of the OpenTelemetry ingest and the evaluation events.

Every label is bounded: record formats, the reasons of :data:`INGEST_REASONS`,
``incomplete`` reasons, event sinks and outcomes. :meth:`OtelMetrics.sync` copies the
ingest's own counters (:class:`~pipelines.otel.ingest.OtlpIngest`,
:class:`~pipelines.otel.buffer.BufferStats`) into the registry by their increase since
the last call, so the ingest stays free of Prometheus.
"""

from __future__ import annotations

from collections.abc import Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge

from pipelines.otel.ingest import OtlpIngest

#: Why a record or a trace gave no interaction (the ``reason`` label).
INGEST_REASONS = (
    "too_large",
    "otlp_undecodable",
    "otlp_bad_id",
    "decode_error",
    "no_spans",
    "no_root",
    "no_question",
    "no_answer",
    "mapping_invalid",
    "citations_invalid",
    "assembly_error",
)
EVENT_SINKS = ("kafka", "otlp_http", "file")
EVENT_OUTCOMES = ("sent", "failed", "dropped")


class OtelMetrics:
    """Counters of spans, traces and events (names ``cargo_otel_*``)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        r = registry
        self.records = Counter(
            "cargo_otel_records", "OTLP records read (Kafka records, file lines).", registry=r
        )
        self.unkeyed = Counter(
            "cargo_otel_unkeyed_records",
            "Kafka records not keyed by their spans' trace id (the Collector's kafka exporter "
            "runs without partition_traces_by_id: a trace may reach two workers).",
            registry=r,
        )
        self.spans = Counter(
            "cargo_otel_spans",
            "Spans read, by what became of them.",
            ["outcome"],
            registry=r,
        )
        self.traces = Counter(
            "cargo_otel_traces",
            "Trace emissions: assembled into an interaction, or failed (see "
            "cargo_otel_failures_total).",
            ["outcome"],
            registry=r,
        )
        self.incomplete = Counter(
            "cargo_otel_incomplete_traces",
            "Traces emitted before they were complete: evicted (too many open), "
            "root_missing (no root span within the wait) or max_wait (spans still coming "
            "after the wait).",
            ["reason"],
            registry=r,
        )
        self.reemitted = Counter(
            "cargo_otel_reemitted_traces",
            "Traces emitted again (next revision) because spans arrived after emission.",
            registry=r,
        )
        self.failures = Counter(
            "cargo_otel_failures",
            "Records and traces that gave no interaction, by reason.",
            ["reason"],
            registry=r,
        )
        self.open_traces = Gauge(
            "cargo_otel_open_traces", "Traces buffered now, waiting for spans.", registry=r
        )
        self.events = Counter(
            "cargo_otel_events",
            "gen_ai.evaluation.result log records, by sink and outcome.",
            ["sink", "outcome"],
            registry=r,
        )
        for outcome in ("kept", "ignored", "duplicate", "late", "dropped"):
            self.spans.labels(outcome=outcome)
        for outcome in ("assembled", "failed"):
            self.traces.labels(outcome=outcome)
        for reason in ("evicted", "root_missing", "max_wait"):
            self.incomplete.labels(reason=reason)
        for reason in INGEST_REASONS:
            self.failures.labels(reason=reason)
        for sink in EVENT_SINKS:
            for outcome in EVENT_OUTCOMES:
                self.events.labels(sink=sink, outcome=outcome)
        self._last: dict[str, int] = {}

    def _inc(self, key: str, counter: Counter, value: int) -> None:
        delta = value - self._last.get(key, 0)
        if delta > 0:
            counter.inc(delta)
        self._last[key] = value

    def sync(self, ingest: OtlpIngest) -> None:
        """Bring the counters up to the ingest's."""
        st = ingest.buffer.stats
        self._inc("records", self.records, ingest.records)
        self._inc("unkeyed", self.unkeyed, ingest.unkeyed_records)
        spans = self.spans
        self._inc("kept", spans.labels(outcome="kept"), st.spans_added)
        self._inc("ignored", spans.labels(outcome="ignored"), ingest.ignored_spans)
        self._inc("duplicate", spans.labels(outcome="duplicate"), st.duplicates)
        self._inc("late", spans.labels(outcome="late"), st.late_spans)
        self._inc("dropped", spans.labels(outcome="dropped"), st.spans_dropped)
        self._inc("assembled", self.traces.labels(outcome="assembled"), ingest.assembled)
        failed_traces = sum(ingest.failures.values()) - ingest.undecodable_records
        self._inc("failed", self.traces.labels(outcome="failed"), failed_traces)
        for reason, n in ingest.incomplete.items():
            self._inc(f"incomplete:{reason}", self.incomplete.labels(reason=reason), n)
        self._inc("reemitted", self.reemitted, st.reemitted)
        for reason, n in ingest.failures.items():
            label = reason if reason in INGEST_REASONS else "assembly_error"
            self._inc(f"failure:{reason}", self.failures.labels(reason=label), n)
        self.open_traces.set(ingest.buffer.open_traces)

    def sync_http(self, records: Mapping[str, int]) -> None:
        """Bring the ``otlp_http`` event counters up to an OTLP/HTTP sender's own
        (:attr:`~pipelines.otel.export.OtlpHttpLogs.records`: sent, failed, dropped)."""
        for outcome in EVENT_OUTCOMES:
            self._inc(
                f"http:{outcome}",
                self.events.labels(sink="otlp_http", outcome=outcome),
                records.get(outcome, 0),
            )

    def event(self, sink: str, outcome: str, n: int = 1) -> None:
        if n:
            self.events.labels(sink=sink, outcome=outcome).inc(n)
