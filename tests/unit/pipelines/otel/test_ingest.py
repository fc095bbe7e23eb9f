from __future__ import annotations

import base64
import json
import random

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from pipelines.otel import (
    OtlpIngest,
    assemble,
    decode_otlp_json,
    interactions_from_lines,
    parse_mapping,
)
from tests.unit.pipelines.otel import otlp


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_file_of_json_lines_two_traces_split_shuffled_with_a_bad_line() -> None:
    spans = otlp.genai_spans() + otlp.openinference_spans()
    random.Random(11).shuffle(spans)
    lines = [otlp.record(*spans[i : i + 4]) for i in range(0, len(spans), 4)]
    lines.insert(1, "{not json")
    lines.insert(2, "   ")
    outcomes = list(interactions_from_lines(lines))
    errors = [o for o in outcomes if o.error]
    traces = {o.trace_id: o.trace for o in outcomes if o.trace}
    assert [e.error.reason for e in errors if e.error] == ["otlp_undecodable"]
    assert set(traces) == {otlp.GT, otlp.OT}
    assert traces[otlp.GT] is not None
    assert traces[otlp.GT].question == "What is the status of case 123?"
    assert traces[otlp.GT].metadata["otel"]["revision"] == 0
    assert "incomplete" not in traces[otlp.GT].metadata["otel"]


def test_content_missing_is_one_error_outcome_with_its_trace_id() -> None:
    raw = otlp.genai_spans()
    for s in raw:
        s["attributes"] = [a for a in s["attributes"] if not a["key"].endswith(".messages")]
    (out,) = list(interactions_from_lines([otlp.record(*raw)]))
    assert out.trace is None and out.error is not None
    assert (out.trace_id, out.error.reason) == (otlp.GT, "no_question")


def test_late_span_reemits_with_revision_in_metadata() -> None:
    clock = Clock()
    ingest = OtlpIngest(quiet_period_s=1.0, clock=clock)
    raw = otlp.genai_spans()
    late = raw.pop(4)
    assert ingest.feed(otlp.record(*raw), "otlp-json") == []
    clock.now = 1.0
    (first,) = ingest.poll()
    ingest.feed(otlp.record(late), "otlp-json")
    clock.now = 2.0
    (second,) = ingest.poll()
    assert first.trace is not None and second.trace is not None
    assert (first.revision, second.revision) == (0, 1)
    assert second.trace.metadata["otel"]["revision"] == 1
    assert second.trace.trace_id == first.trace.trace_id
    assert len(second.trace.observations) == len(first.trace.observations) + 1


def test_evicted_trace_is_assembled_and_marked_incomplete() -> None:
    clock = Clock()
    ingest = OtlpIngest(max_open_traces=1, clock=clock)
    ingest.feed(otlp.record(*otlp.genai_spans()), "otlp-json")
    ingest.feed(otlp.record(*otlp.openinference_spans()), "otlp-json")
    (evicted,) = ingest.poll()
    assert evicted.trace_id == otlp.GT and evicted.incomplete == "evicted"
    assert evicted.trace is not None
    assert evicted.trace.metadata["otel"]["incomplete"] == "evicted"
    assert ingest.buffer.stats.evicted == 1


def test_proto_records() -> None:
    doc = json.loads(otlp.record(*otlp.genai_spans()))
    # the same request as Protobuf: ids as bytes (the JSON parser wants base64 for bytes)
    for rs in doc["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for s in ss["spans"]:
                for k in ("traceId", "spanId", "parentSpanId"):
                    if s[k]:
                        s[k] = base64.b64encode(bytes.fromhex(s[k])).decode()
    payload = json_format.ParseDict(doc, ExportTraceServiceRequest()).SerializeToString()
    (out,) = list(interactions_from_lines([payload], "otlp-proto"))
    expected = assemble(decode_otlp_json(otlp.record(*otlp.genai_spans()))).trace
    assert out.trace is not None
    assert out.trace.question == expected.question and out.trace.context == expected.context
    assert out.trace.metadata["otel"]["usage"] == expected.metadata["otel"]["usage"]


def test_ignored_spans_are_counted() -> None:
    ingest = OtlpIngest(mapping=parse_mapping({"ignore_span_names": ["POST *"]}))
    ingest.feed(otlp.record(*otlp.genai_spans()), "otlp-json")
    assert (ingest.records, ingest.spans, ingest.ignored_spans) == (1, 6, 1)


def test_records_not_keyed_by_trace_id_are_counted() -> None:
    ingest = OtlpIngest()
    rec = otlp.record(*otlp.genai_spans())
    ingest.feed(rec, "otlp-json", kafka_key=otlp.GT.encode(), from_kafka=True)
    assert ingest.unkeyed_records == 0
    ingest.feed(rec, "otlp-json", kafka_key=None, from_kafka=True)  # exporter default: no key
    mixed = otlp.record(*otlp.genai_spans(), *otlp.openinference_spans())
    ingest.feed(mixed, "otlp-json", kafka_key=otlp.GT.encode(), from_kafka=True)
    ingest.feed(rec, "otlp-json")  # a file line: no key to check
    assert ingest.unkeyed_records == 2


def test_record_size_is_bounded() -> None:
    ingest = OtlpIngest(max_record_bytes=100)
    (out,) = ingest.feed(otlp.record(*otlp.genai_spans()), "otlp-json")
    assert out.error is not None and out.error.reason == "too_large"
    assert ingest.buffer.open_traces == 0


def test_dropped_spans_are_recorded_on_the_trace() -> None:
    (out,) = list(
        interactions_from_lines([otlp.record(*otlp.genai_spans())], mapping=parse_mapping({}))
    )
    assert out.trace is not None and "spans_dropped" not in out.trace.metadata["otel"]
    ingest = OtlpIngest(max_spans_per_trace=6)
    ingest.feed(otlp.record(*otlp.genai_spans()), "otlp-json")
    (out,) = ingest.flush()
    assert out.trace is not None and out.trace.metadata["otel"]["spans_dropped"] == 1
