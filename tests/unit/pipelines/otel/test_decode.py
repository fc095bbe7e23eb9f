from __future__ import annotations

import json

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans
from opentelemetry.proto.trace.v1.trace_pb2 import Span as PbSpan

from monitor.errors import InvalidTraceError
from pipelines.otel import (
    decode_otlp_json,
    decode_otlp_proto,
    decode_record,
    rebuild_indexed,
    sniff_format,
)
from tests.unit.pipelines.otel import otlp

TID = "5b8efff798038103d269b633813fc60c"
SID = "eee19b7ec3c1b174"
PID = "eee19b7ec3c1b173"

# Written out by hand (not with the helpers): the exact wire shape, with fields this
# decoder does not know (must be ignored, OTLP's rule) and int64 values as strings.
LITERAL = """
{"resourceSpans": [{
  "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "shop"}}],
               "someFutureField": 1},
  "scopeSpans": [{
    "scope": {"name": "opentelemetry.instrumentation.openai_v2", "version": "2.1b0"},
    "spans": [{
      "traceId": "5b8efff798038103d269b633813fc60c",
      "spanId": "eee19b7ec3c1b174",
      "parentSpanId": "eee19b7ec3c1b173",
      "name": "chat gpt-4o",
      "kind": 3,
      "startTimeUnixNano": "1764500000000000000",
      "endTimeUnixNano": "1764500000250000000",
      "flags": 257,
      "attributes": [
        {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
        {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "42"}},
        {"key": "gen_ai.request.temperature", "value": {"doubleValue": 0.2}},
        {"key": "gen_ai.request.stop_sequences",
         "value": {"arrayValue": {"values": [{"stringValue": "END"}]}}},
        {"key": "app.flags", "value": {"kvlistValue": {"values": [
           {"key": "beta", "value": {"boolValue": true}}]}}},
        {"key": "app.blob", "value": {"bytesValue": "AQI="}},
        {"key": "app.empty", "value": {}}
      ],
      "events": [{"timeUnixNano": "1764500000100000000", "name": "gen_ai.choice",
                  "attributes": [{"key": "index", "value": {"intValue": 0}}]}],
      "status": {"code": 2, "message": "boom"},
      "unknownSpanField": {"nested": true}
    }]
  }]
}]}
"""


def test_otlp_json_hex_ids_anyvalue_and_unknown_fields() -> None:
    (s,) = decode_otlp_json(LITERAL)
    assert (s.trace_id, s.span_id, s.parent_span_id) == (TID, SID, PID)
    assert s.name == "chat gpt-4o" and s.kind == 3
    assert s.start_unix_nano == 1_764_500_000_000_000_000
    assert s.duration_ms == pytest.approx(250.0)
    assert s.attributes == {
        "gen_ai.operation.name": "chat",
        "gen_ai.usage.input_tokens": 42,
        "gen_ai.request.temperature": 0.2,
        "gen_ai.request.stop_sequences": ["END"],
        "app.flags": {"beta": True},
        "app.blob": "0102",
        "app.empty": None,
    }
    assert (s.status_code, s.status_message) == (2, "boom")
    assert s.events[0].name == "gen_ai.choice" and s.events[0].attributes == {"index": 0}
    assert s.resource == {"service.name": "shop"}
    assert s.scope == "opentelemetry.instrumentation.openai_v2"


def test_otlp_proto_decodes_to_the_same_spans_as_otlp_json() -> None:
    def kv(key: str, value: AnyValue) -> KeyValue:
        return KeyValue(key=key, value=value)

    pb = PbSpan(
        trace_id=bytes.fromhex(TID),
        span_id=bytes.fromhex(SID),
        parent_span_id=bytes.fromhex(PID),
        name="chat gpt-4o",
        kind=PbSpan.SPAN_KIND_CLIENT,
        start_time_unix_nano=1_764_500_000_000_000_000,
        end_time_unix_nano=1_764_500_000_250_000_000,
        attributes=[
            kv("gen_ai.operation.name", AnyValue(string_value="chat")),
            kv("gen_ai.usage.input_tokens", AnyValue(int_value=42)),
            kv("gen_ai.request.temperature", AnyValue(double_value=0.2)),
            kv(
                "gen_ai.request.stop_sequences",
                AnyValue(array_value=ArrayValue(values=[AnyValue(string_value="END")])),
            ),
        ],
    )
    request = ExportTraceServiceRequest(
        resource_spans=[ResourceSpans(scope_spans=[ScopeSpans(spans=[pb])])]
    )
    (from_proto,) = decode_otlp_proto(request.SerializeToString())
    (from_json,) = decode_otlp_json(LITERAL)
    assert from_proto.key == from_json.key
    assert from_proto.parent_span_id == from_json.parent_span_id
    for k, v in from_proto.attributes.items():
        assert from_json.attributes[k] == v
    assert decode_record(request.SerializeToString(), "otlp-proto")[0].key == from_json.key


def test_one_record_many_traces_and_resources() -> None:
    a = otlp.span(otlp.GT, otlp.G_ROOT, "x")
    b = otlp.span(otlp.OT, otlp.O_AGENT, "y")
    doc = json.loads(otlp.record(a))
    doc["resourceSpans"].append(json.loads(otlp.record(b, service="other"))["resourceSpans"][0])
    spans = decode_otlp_json(json.dumps(doc))
    assert [(s.trace_id, s.resource["service.name"]) for s in spans] == [
        (otlp.GT, "support-agent"),
        (otlp.OT, "other"),
    ]


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ("not json", "otlp_undecodable"),
        ("[1, 2]", "otlp_undecodable"),
        ('{"resourceSpans": 3}', "otlp_undecodable"),
        (otlp.record(otlp.span("zz" * 16, "a" * 16, "s")), "otlp_bad_id"),
        (otlp.record(otlp.span("ab" * 8, "a" * 16, "s")), "otlp_bad_id"),  # 8 bytes, not 16
        (otlp.record(otlp.span("00" * 16, "a" * 16, "s")), "otlp_bad_id"),  # all-zero id
        (otlp.record(otlp.span("ab" * 16, "", "s")), "otlp_bad_id"),  # no span id
    ],
)
def test_bad_json_records_raise_a_bounded_reason(payload: str, reason: str) -> None:
    with pytest.raises(InvalidTraceError) as exc:
        decode_otlp_json(payload)
    assert exc.value.reason == reason


def test_bad_proto_record_raises() -> None:
    with pytest.raises(InvalidTraceError) as exc:
        decode_otlp_proto(b"\x0a\xff\xff\xff")
    assert exc.value.reason == "otlp_undecodable"


def test_empty_record_has_no_spans() -> None:
    assert decode_otlp_json('{"resourceSpans": []}') == []
    assert decode_otlp_proto(b"") == []


def test_rebuild_indexed_nested_lists() -> None:
    flat = {
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.content": "hi",
        "llm.input_messages.0.message.role": "system",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "f",
        "llm.output_messages.0.message.tool_calls.0.tool_call.id": "c1",
        "tag.tags.0": "a",
        "tag.tags.1": "b",
        "plain.key": 1,
    }
    assert rebuild_indexed(flat) == {
        "plain.key": 1,
        "llm.input_messages": [
            {"message.role": "system"},
            {"message.role": "user", "message.content": "hi"},
        ],
        "llm.output_messages": [
            {"message.tool_calls": [{"tool_call.function.name": "f", "tool_call.id": "c1"}]}
        ],
        "tag.tags": ["a", "b"],
    }


def test_keys_with_non_ascii_or_endless_digits_are_not_list_indices() -> None:
    """'²'.isdigit() is true and int('²') raises; int() refuses over 4,300 digits; '٣'
    is a digit int() reads. None of them is a list index: the key stays as it is."""
    long = "9" * 5000
    flat = {"a.².b": 1, "x.٣": 2, f"y.{long}": 3, "z.0": 4}
    assert rebuild_indexed(flat) == {"a.².b": 1, "x.٣": 2, f"y.{long}": 3, "z": [4]}
    rec = otlp.record(otlp.span(TID, SID, "s", attrs={"llm.input_messages.².message": "x"}))
    [span] = decode_otlp_json(rec)
    assert span.attributes == {"llm.input_messages.².message": "x"}


def test_token_counts_that_are_not_ascii_digits_are_ignored() -> None:
    from pipelines.otel.assemble import _int

    assert _int("12") == 12
    assert _int("²") is None and _int("٣") is None and _int("9" * 5000) is None


def test_sniff_format() -> None:
    assert sniff_format(otlp.record(otlp.span(TID, SID, "s"))) == "otlp-json"
    assert sniff_format(otlp.record(otlp.span(TID, SID, "s")).encode()) == "otlp-json"
    assert sniff_format(b'  {"trace_id": "t", "question": "q", "answer": "a"}') == "cargo"
    assert sniff_format(b"\x0a\x02\x0a\x00") == "otlp-proto"
    assert sniff_format("not json") == "cargo"
