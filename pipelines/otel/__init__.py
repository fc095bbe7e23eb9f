"""OpenTelemetry ingest: the Collector's Kafka records in, one interaction per agent turn.

* :mod:`~pipelines.otel.decode`   ``otlp_proto`` / ``otlp_json`` records -> :class:`Span`
* :mod:`~pipelines.otel.buffer`   per-trace buffer (quiet period, dedupe, late spans,
  bounded memory)
* :mod:`~pipelines.otel.assemble` spans of one trace -> :class:`~monitor.schemas.Trace`
  (GenAI semantic conventions and OpenInference)
* :mod:`~pipelines.otel.ingest`   records in, one :class:`Outcome` per emission out
* :mod:`~pipelines.otel.events`   judgments -> ``gen_ai.evaluation.result`` OTLP log records
* :mod:`~pipelines.otel.mapping`  the mapping file (intent, citations, tool facts,
  ignored spans)

See docs/design/otel-ingest.md for what is built and what is not.
"""

from __future__ import annotations

from pipelines.otel.assemble import Assembled, ToolResult, assemble, root_kind
from pipelines.otel.buffer import BufferStats, ReadyTrace, TraceBuffer
from pipelines.otel.decode import (
    decode_otlp_json,
    decode_otlp_proto,
    decode_record,
    rebuild_indexed,
    sniff_format,
)
from pipelines.otel.ingest import OtlpIngest, Outcome, interactions_from_lines
from pipelines.otel.mapping import DEFAULT_MAPPING, OtelMapping, load_mapping, parse_mapping
from pipelines.otel.spans import Span, SpanEvent

__all__ = [
    "DEFAULT_MAPPING",
    "Assembled",
    "BufferStats",
    "OtelMapping",
    "OtlpIngest",
    "Outcome",
    "ReadyTrace",
    "Span",
    "SpanEvent",
    "ToolResult",
    "TraceBuffer",
    "assemble",
    "decode_otlp_json",
    "decode_otlp_proto",
    "decode_record",
    "interactions_from_lines",
    "load_mapping",
    "parse_mapping",
    "rebuild_indexed",
    "root_kind",
    "sniff_format",
]
