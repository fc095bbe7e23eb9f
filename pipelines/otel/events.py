"""Judgments back into the OpenTelemetry world: ``gen_ai.evaluation.result`` events.

For each judgment, OTLP log records (events) parented to the evaluated span by trace and
span id, in the shape of the GenAI semantic conventions' evaluation event:

* ``cargo.verdict``: ``gen_ai.evaluation.score.label`` ``pass`` (evaluated, not
  penalized) / ``fail`` (penalized: correctness or hallucination fidelity < 0.5) /
  ``abstained`` (the gate found no trustworthy reference) / ``error`` (judge error or
  invalid trace, with ``error.type``); ``gen_ai.evaluation.score.value`` 1 / 0 for
  pass / fail, absent otherwise; ``gen_ai.evaluation.explanation`` the judgment's
  reason and rationale; on a fail, ``cargo.penalty_evidence`` (``settled``,
  ``uncertain`` or ``llm``: what the penalty rests on);
* ``cargo.<dimension>`` (``cargo.correctness``, ``cargo.hallucination_fidelity``, ...)
  for each dimension that was scored: ``gen_ai.evaluation.score.value`` in [0, 1], no
  label (the conventions leave the label optional; a per-dimension pass mark is not
  defined by the product).

Every record also carries ``gen_ai.response.id`` when the trace had one (the last model
response, the one that produced the answer), ``cargo.revision`` (re-emissions of a trace
after late spans) and ``cargo.judgment.status``. :func:`encode_logs` writes the request
as the Collector's kafka receiver reads it (``otlp_proto`` or ``otlp_json``: hex ids).
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Sequence
from typing import Any, Literal

from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, InstrumentationScope, KeyValue
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord, ResourceLogs, ScopeLogs
from opentelemetry.proto.resource.v1.resource_pb2 import Resource

from monitor.judges.structural import penalty_evidence
from monitor.schemas import Judgment
from monitor.schemas.base import DIMENSIONS

EVENT_NAME = "gen_ai.evaluation.result"
SEVERITY_INFO = 9
Label = Literal["pass", "fail", "abstained", "error"]
MAX_EXPLANATION = 2000


def verdict_label(judgment: Judgment) -> Label:
    """The verdict's ``gen_ai.evaluation.score.label``."""
    if judgment.status == "evaluated":
        return "fail" if judgment.penalized else "pass"
    if judgment.status == "abstained":
        return "abstained"
    return "error"


def _av(value: str | float | int | bool) -> AnyValue:
    if isinstance(value, bool):
        return AnyValue(bool_value=value)
    if isinstance(value, int):
        return AnyValue(int_value=value)
    if isinstance(value, float):
        return AnyValue(double_value=value)
    return AnyValue(string_value=value)


def _kvs(attrs: dict[str, str | float | int | bool | None]) -> list[KeyValue]:
    return [KeyValue(key=k, value=_av(v)) for k, v in attrs.items() if v is not None]


def evaluation_records(
    judgment: Judgment,
    *,
    trace_id: str,
    span_id: str | None,
    response_id: str | None = None,
    revision: int = 0,
) -> list[LogRecord]:
    """The ``gen_ai.evaluation.result`` log records of one judgment (hex ids; no span
    id when the trace's root span is not known, e.g. spans without a root)."""
    ts = int(judgment.evaluated_at.timestamp() * 1e9)
    common: dict[str, str | float | int | bool | None] = {
        "gen_ai.response.id": response_id,
        "cargo.revision": revision,
        "cargo.judgment.status": judgment.status,
    }
    label = verdict_label(judgment)
    explanation = judgment.reason + (f": {judgment.rationale}" if judgment.rationale else "")
    verdict: dict[str, str | float | int | bool | None] = {
        "gen_ai.evaluation.name": "cargo.verdict",
        "gen_ai.evaluation.score.label": label,
        "gen_ai.evaluation.score.value": {"pass": 1.0, "fail": 0.0}.get(label),
        "gen_ai.evaluation.explanation": explanation[:MAX_EXPLANATION],
        "error.type": (judgment.error.kind if judgment.error else judgment.status)
        if label == "error"
        else None,
        # What a fail rests on: settled, uncertain or llm (the judgment's own field).
        "cargo.penalty_evidence": penalty_evidence(judgment) if label == "fail" else None,
    }
    attrs_list = [verdict | common]
    for dim in DIMENSIONS:
        score = getattr(judgment.scores, dim)
        if score is not None:
            scored: dict[str, str | float | int | bool | None] = {
                "gen_ai.evaluation.name": f"cargo.{dim}",
                "gen_ai.evaluation.score.value": float(score),
            }
            attrs_list.append(scored | common)
    tid, sid = bytes.fromhex(trace_id), bytes.fromhex(span_id) if span_id else b""
    return [
        LogRecord(
            time_unix_nano=ts,
            observed_time_unix_nano=time.time_ns(),
            severity_number=SEVERITY_INFO,  # type: ignore[arg-type]
            severity_text="INFO",
            event_name=EVENT_NAME,
            trace_id=tid,
            span_id=sid,
            attributes=_kvs(attrs),
        )
        for attrs in attrs_list
    ]


def logs_request(
    records: Sequence[LogRecord], *, service_name: str = "cargo-monitor", version: str = ""
) -> ExportLogsServiceRequest:
    """One ``ExportLogsServiceRequest`` with the monitor as resource and scope."""
    return ExportLogsServiceRequest(
        resource_logs=[
            ResourceLogs(
                resource=Resource(attributes=_kvs({"service.name": service_name})),
                scope_logs=[
                    ScopeLogs(
                        scope=InstrumentationScope(name="cargo-monitor", version=version),
                        log_records=list(records),
                    )
                ],
            )
        ]
    )


def encode_logs(request: ExportLogsServiceRequest, encoding: str) -> bytes:
    """The request as the kafka receiver's ``otlp_proto`` or ``otlp_json`` encoding."""
    if encoding == "otlp_proto":
        return request.SerializeToString()
    if encoding != "otlp_json":
        raise ValueError(f"encoding must be otlp_proto or otlp_json, not {encoding!r}")
    # OTLP/JSON writes enums as integers (severityNumber 9, not "SEVERITY_NUMBER_INFO").
    doc: dict[str, Any] = json_format.MessageToDict(request, use_integers_for_enums=True)
    for rl in doc.get("resourceLogs", []):
        for sl in rl.get("scopeLogs", []):
            for rec in sl.get("logRecords", []):
                for key in ("traceId", "spanId"):
                    if key in rec:  # proto3 JSON writes bytes as base64; OTLP/JSON as hex
                        rec[key] = base64.b64decode(rec[key]).hex()
    return json.dumps(doc, separators=(",", ":")).encode("utf-8")
