"""Property tests: the two encodings decode to the same spans; flattened keys rebuild."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue, KeyValueList
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans
from opentelemetry.proto.trace.v1.trace_pb2 import Span as PbSpan

from pipelines.otel import decode_otlp_json, decode_otlp_proto, rebuild_indexed
from tests.unit.pipelines.otel import otlp

scalars = (
    st.text(max_size=20)
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(min_size=1, max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
# keys without an all-digit segment: those are rebuilt into lists (tested below)
keys = st.from_regex(r"[a-z]{1,6}(\.[a-z_]{1,6}){0,3}", fullmatch=True)


def pb(value: Any) -> AnyValue:
    if isinstance(value, bool):
        return AnyValue(bool_value=value)
    if isinstance(value, int):
        return AnyValue(int_value=value)
    if isinstance(value, float):
        return AnyValue(double_value=value)
    if isinstance(value, str):
        return AnyValue(string_value=value)
    if isinstance(value, list):
        return AnyValue(array_value=ArrayValue(values=[pb(v) for v in value]))
    return AnyValue(
        kvlist_value=KeyValueList(values=[KeyValue(key=k, value=pb(v)) for k, v in value.items()])
    )


@settings(max_examples=60, deadline=None)
@given(
    attrs=st.dictionaries(keys, values, max_size=6),
    trace_id=st.binary(min_size=16, max_size=16).filter(any),
    span_id=st.binary(min_size=8, max_size=8).filter(any),
    start=st.integers(min_value=1, max_value=2**62),
)
def test_proto_and_json_agree(
    attrs: dict[str, Any], trace_id: bytes, span_id: bytes, start: int
) -> None:
    span = PbSpan(
        trace_id=trace_id,
        span_id=span_id,
        name="s",
        start_time_unix_nano=start,
        end_time_unix_nano=start + 5,
        attributes=[KeyValue(key=k, value=pb(v)) for k, v in attrs.items()],
    )
    req = ExportTraceServiceRequest(
        resource_spans=[ResourceSpans(scope_spans=[ScopeSpans(spans=[span])])]
    )
    (from_proto,) = decode_otlp_proto(req.SerializeToString())
    raw = otlp.span(trace_id.hex(), span_id.hex(), "s", attrs=attrs)
    raw["startTimeUnixNano"], raw["endTimeUnixNano"] = str(start), str(start + 5)
    (from_json,) = decode_otlp_json(otlp.record(raw))
    assert from_proto.key == from_json.key == (trace_id.hex(), span_id.hex())
    assert from_proto.attributes == from_json.attributes == attrs
    assert from_proto.start_unix_nano == from_json.start_unix_nano == start


def flatten(prefix: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, item in enumerate(items):
        for k, v in item.items():
            if isinstance(v, list):
                out |= flatten(f"{prefix}.{i}.{k}", v)
            else:
                out[f"{prefix}.{i}.{k}"] = v
    return out


leaf = st.dictionaries(
    st.sampled_from(["message.role", "message.content", "x.y"]), scalars, min_size=1
)
element = st.builds(
    lambda d, nested: d | ({"message.tool_calls": nested} if nested else {}),
    leaf,
    st.lists(leaf, max_size=2),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(element, min_size=1, max_size=4))
def test_flattened_indexed_keys_rebuild(items: list[dict[str, Any]]) -> None:
    flat = flatten("llm.input_messages", items)
    assert rebuild_indexed(flat) == {"llm.input_messages": items}
