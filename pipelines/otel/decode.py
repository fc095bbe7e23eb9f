"""Decoding of the OpenTelemetry Collector's Kafka records into :class:`Span` objects.

The Collector's ``kafka`` exporter writes one ``ExportTraceServiceRequest`` per record,
as Protobuf (``encoding: otlp_proto``, its default) or OTLP/JSON (``otlp_json``); the
``file`` exporter writes the same JSON shape (``TracesData``), one object per line. Both
are decoded with the official ``opentelemetry-proto`` message classes:

* ``otlp_proto``: ``ExportTraceServiceRequest.ParseFromString``;
* ``otlp_json``: OTLP/JSON is proto3 JSON with two differences that the protobuf JSON
  parser does not know: trace and span ids are hex strings (not base64), and unknown
  fields must be ignored. The ids are rewritten to base64 first, then the document is
  parsed with ``ignore_unknown_fields=True``. Enums as integers and 64-bit integers as
  strings are accepted, as OTLP/JSON allows.

Errors raise :class:`~monitor.errors.InvalidTraceError` with a bounded ``reason``:
``otlp_undecodable`` (not protobuf / not JSON / not the OTLP shape) or ``otlp_bad_id``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from monitor.errors import InvalidTraceError
from pipelines.otel.spans import Span, SpanEvent

InputFormat = Literal["cargo", "otlp-json", "otlp-proto"]

_TRACE_ID_HEX = 32
_SPAN_ID_HEX = 16


_OTLP_JSON_HEAD = re.compile(rb'^\s*\{\s*"(?:resourceSpans|resource_spans)"')
_SNIFF_BYTES = 4096


def sniff_format(payload: bytes | str) -> InputFormat:
    """Tell a record's format from its first bytes (``--input-format auto``), without
    decoding it.

    A serialized ``ExportTraceServiceRequest`` starts with field 1, length-delimited
    (byte ``0x0A``); ``{`` (``0x7B``) would be field 15 as a deprecated group, which that
    message never holds, so JSON and Protobuf cannot be confused. A JSON object is OTLP
    when ``resourceSpans`` (or ``resource_spans``) is its first key (as the Collector
    and the SDKs write it) or appears as a key in its first 4 KiB; else it is the native
    trace format. Bytes that are not a JSON object are ``otlp-proto`` (a str that is not
    one is ``cargo``: the native decoder reports it).
    """
    head = payload[:_SNIFF_BYTES]
    raw = head.encode("utf-8", errors="replace") if isinstance(head, str) else bytes(head)
    if raw.lstrip()[:1] != b"{":
        return "cargo" if isinstance(payload, str) or not raw.strip() else "otlp-proto"
    if _OTLP_JSON_HEAD.match(raw) or re.search(rb'"(?:resourceSpans|resource_spans)"\s*:', raw):
        return "otlp-json"
    return "cargo"


def decode_otlp_proto(payload: bytes) -> list[Span]:
    """Spans of one ``otlp_proto`` record (a serialized ``ExportTraceServiceRequest``)."""
    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(bytes(payload))
    except DecodeError as exc:
        raise InvalidTraceError("otlp_undecodable", detail=f"not OTLP protobuf: {exc}") from exc
    return _spans_of(request)


def decode_otlp_json(payload: bytes | str | Mapping[str, Any]) -> list[Span]:
    """Spans of one OTLP/JSON document (kafka ``otlp_json`` record or file-exporter line)."""
    if isinstance(payload, Mapping):
        doc: Any = json.loads(json.dumps(payload))  # a private copy: ids are rewritten
    else:
        try:
            doc = json.loads(payload)
        except ValueError as exc:
            raise InvalidTraceError("otlp_undecodable", detail=f"not JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise InvalidTraceError("otlp_undecodable", detail="an OTLP/JSON record is an object")
    _hex_ids_to_base64(doc)
    request = ExportTraceServiceRequest()
    try:
        json_format.ParseDict(doc, request, ignore_unknown_fields=True)
    except json_format.ParseError as exc:
        raise InvalidTraceError("otlp_undecodable", detail=f"not OTLP/JSON: {exc}") from exc
    return _spans_of(request)


def decode_record(payload: bytes | str, fmt: Literal["otlp-json", "otlp-proto"]) -> list[Span]:
    """Decode one record in the given OTLP encoding."""
    if fmt == "otlp-json":
        return decode_otlp_json(payload)
    if isinstance(payload, str):
        raise InvalidTraceError("otlp_undecodable", detail="otlp-proto records are bytes")
    return decode_otlp_proto(payload)


# --------------------------------------------------------------------------- JSON ids


def _hex_ids_to_base64(doc: dict[str, Any]) -> None:
    for rs in _items(doc, "resourceSpans", "resource_spans"):
        for ss in _items(rs, "scopeSpans", "scope_spans"):
            for span in _items(ss, "spans"):
                _fix_ids(span, ("traceId", "trace_id"), ("spanId", "span_id"))
                _fix_ids(span, ("parentSpanId", "parent_span_id"))
                for link in _items(span, "links"):
                    _fix_ids(link, ("traceId", "trace_id"), ("spanId", "span_id"))


def _items(obj: Any, *keys: str) -> Iterable[dict[str, Any]]:
    if not isinstance(obj, dict):
        return ()
    for key in keys:
        value = obj.get(key)
        if isinstance(value, list):
            return [v for v in value if isinstance(v, dict)]
    return ()


def _fix_ids(obj: dict[str, Any], *names: tuple[str, str]) -> None:
    for camel, snake in names:
        for key in (camel, snake):
            value = obj.get(key)
            if value is None or value == "":
                continue
            if not isinstance(value, str):
                raise InvalidTraceError("otlp_bad_id", field=key, detail="ids are hex strings")
            try:
                raw = bytes.fromhex(value)
            except ValueError as exc:
                raise InvalidTraceError(
                    "otlp_bad_id", field=key, detail=f"not hex: {value[:40]!r}"
                ) from exc
            obj[key] = base64.b64encode(raw).decode("ascii")


# --------------------------------------------------------------------------- proto -> Span


def _spans_of(request: ExportTraceServiceRequest) -> list[Span]:
    spans: list[Span] = []
    for rs in request.resource_spans:
        resource = rebuild_indexed(_attributes(rs.resource.attributes))
        for ss in rs.scope_spans:
            scope = ss.scope.name
            for s in ss.spans:
                trace_id = _hex(s.trace_id)
                span_id = _hex(s.span_id)
                if len(trace_id) != _TRACE_ID_HEX or trace_id == "0" * _TRACE_ID_HEX:
                    raise InvalidTraceError(
                        "otlp_bad_id", field="traceId", detail=f"span {s.name!r}: {trace_id!r}"
                    )
                if len(span_id) != _SPAN_ID_HEX or span_id == "0" * _SPAN_ID_HEX:
                    raise InvalidTraceError(
                        "otlp_bad_id", field="spanId", detail=f"span {s.name!r}: {span_id!r}"
                    )
                parent = _hex(s.parent_span_id) or None
                spans.append(
                    Span(
                        trace_id=trace_id,
                        span_id=span_id,
                        parent_span_id=parent,
                        name=s.name,
                        kind=int(s.kind),
                        start_unix_nano=int(s.start_time_unix_nano),
                        end_unix_nano=int(s.end_time_unix_nano),
                        attributes=rebuild_indexed(_attributes(s.attributes)),
                        status_code=int(s.status.code),
                        status_message=s.status.message,
                        events=tuple(
                            SpanEvent(
                                name=e.name,
                                time_unix_nano=int(e.time_unix_nano),
                                attributes=rebuild_indexed(_attributes(e.attributes)),
                            )
                            for e in s.events
                        ),
                        resource=resource,
                        scope=scope,
                    )
                )
    return spans


def _hex(raw: bytes) -> str:
    return binascii.hexlify(raw).decode("ascii")


def _attributes(kvs: Iterable[KeyValue]) -> dict[str, Any]:
    return {kv.key: any_value(kv.value) for kv in kvs}


def any_value(value: AnyValue) -> Any:
    """An OTLP ``AnyValue`` as a plain Python value (unset -> ``None``)."""
    which = value.WhichOneof("value")
    if which == "string_value":
        return value.string_value
    if which == "bool_value":
        return value.bool_value
    if which == "int_value":
        return int(value.int_value)
    if which == "double_value":
        return float(value.double_value)
    if which == "array_value":
        return [any_value(v) for v in value.array_value.values]
    if which == "kvlist_value":
        return {kv.key: any_value(kv.value) for kv in value.kvlist_value.values}
    if which == "bytes_value":
        return _hex(value.bytes_value)
    return None


# --------------------------------------------------------------------------- flattened keys

_ELEMENT = "\x00"  # marks a list element that is a scalar (``tag.tags.0``)
_MAX_INDEX_DIGITS = 9


def _is_index(part: str) -> bool:
    """A key segment that is a list index: ASCII digits only (``str.isdigit`` also takes
    '²' or '٣', which ``int`` rejects or reads), and short (``int`` refuses more than
    4,300 digits; no list has a billion elements)."""
    return part.isdecimal() and part.isascii() and len(part) <= _MAX_INDEX_DIGITS


def rebuild_indexed(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """Rebuild OpenInference's flattened lists from their indexed keys.

    ``{"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content":
    "hi"}`` becomes ``{"llm.input_messages": [{"message.role": "user", "message.content":
    "hi"}]}``, recursively (``message.tool_calls.0.tool_call.function.name``). The first
    all-digit segment (ASCII digits, at most 9) after the first one splits a key;
    indices are sorted, gaps closed. A key that also exists unflattened keeps its own
    value.
    """
    out: dict[str, Any] = {}
    groups: dict[str, dict[int, dict[str, Any]]] = {}
    for key, value in attributes.items():
        parts = key.split(".")
        at = next((i for i in range(1, len(parts)) if _is_index(parts[i])), None)
        if at is None:
            out[key] = value
            continue
        prefix = ".".join(parts[:at])
        rest = ".".join(parts[at + 1 :]) or _ELEMENT
        groups.setdefault(prefix, {}).setdefault(int(parts[at]), {})[rest] = value
    for prefix, elements in groups.items():
        if prefix in out:
            continue
        items: list[Any] = []
        for index in sorted(elements):
            element = elements[index]
            if _ELEMENT in element and len(element) == 1:
                items.append(element[_ELEMENT])
            else:
                element.pop(_ELEMENT, None)
                items.append(rebuild_indexed(element))
        out[prefix] = items
    return out
