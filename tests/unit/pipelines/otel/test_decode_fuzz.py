"""Fuzzing the OTLP ingest (issue 18): whatever a Kafka record holds, feeding it never
raises, an undecodable record is exactly one error outcome, and the traces of the valid
records around it are still assembled."""

from __future__ import annotations

import base64
import json

from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from pipelines.otel import OtlpIngest
from tests.unit.pipelines.otel import otlp

VALID_JSON = otlp.record(*otlp.genai_spans())


def _proto(record: str) -> bytes:
    """The same request as Protobuf (the JSON parser wants base64 for bytes, OTLP hex)."""
    doc = json.loads(record)
    for rs in doc["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for s in ss["spans"]:
                for k in ("traceId", "spanId", "parentSpanId"):
                    if s.get(k):
                        s[k] = base64.b64encode(bytes.fromhex(s[k])).decode()
    return json_format.ParseDict(doc, ExportTraceServiceRequest()).SerializeToString()


def _mutations(text: str) -> st.SearchStrategy[str]:
    """A valid record with a slice replaced, cut off or repeated."""

    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        kind = draw(st.sampled_from(["replace", "cut", "repeat", "nest"]))
        if kind == "replace":
            return text[:i] + draw(st.text(max_size=12)) + text[j:]
        if kind == "cut":
            return text[:i]
        if kind == "repeat":
            return text[:j] + text[i:j] * draw(st.integers(2, 5)) + text[j:]
        depth = draw(st.integers(1, 5000))
        return text[:i] + "[" * depth + "]" * depth + text[j:]

    return mutate()


def _feed_all(ingest: OtlpIngest, payload: bytes | str, fmt: str) -> list[object]:
    out: list[object] = list(ingest.feed(payload, fmt))  # type: ignore[arg-type]
    out += ingest.flush()
    return out


@settings(max_examples=300, deadline=None)
@given(payload=st.binary(max_size=2048) | _mutations(VALID_JSON))
def test_any_json_record_is_an_outcome_never_an_exception(payload: bytes | str) -> None:
    outcomes = _feed_all(OtlpIngest(quiet_period_s=0.0), payload, "otlp-json")
    for o in outcomes:
        assert (o.trace is None) != (o.error is None) or o.incomplete  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(payload=st.binary(max_size=2048))
def test_any_proto_record_is_an_outcome_never_an_exception(payload: bytes) -> None:
    _feed_all(OtlpIngest(quiet_period_s=0.0), payload, "otlp-proto")


@settings(max_examples=100, deadline=None)
@given(junk=st.lists(st.binary(max_size=256), min_size=1, max_size=4), proto=st.booleans())
def test_junk_between_valid_records_does_not_lose_the_trace(junk: list[bytes], proto: bool) -> None:
    fmt = "otlp-proto" if proto else "otlp-json"
    valid: bytes | str = _proto(VALID_JSON) if proto else VALID_JSON
    ingest = OtlpIngest(quiet_period_s=0.0)
    errors = 0
    for record in [*junk, valid]:
        errors += len(ingest.feed(record, fmt))  # type: ignore[arg-type]
    done = ingest.flush()
    assert errors <= len(junk)
    assert [o.trace_id for o in done if o.trace is not None] == [otlp.GT]
