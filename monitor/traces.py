"""Decoding raw trace payloads into :class:`Trace` with precise, bounded errors.

Every payload, whatever it contains, either becomes a :class:`Trace` or raises
:class:`InvalidTraceError` with one of the reasons in :data:`INVALID_REASONS`; no other
exception leaves :func:`parse_trace`. The bounds of :class:`InputLimits` are applied
before and while decoding, in this order, so that a hostile message costs little:

1. size: a payload over ``max_payload_bytes`` is not decoded at all (``too_large``);
2. text: bytes must be UTF-8 (``not_utf8``); one leading byte-order mark is ignored;
3. nesting: brackets are counted by a flat scan, without recursion, before the JSON
   parser sees the text (``too_deep``), so that a ``[[[[...`` line cannot exhaust the
   interpreter's stack;
4. JSON: ``NaN``/``Infinity``, numbers that overflow a float and numbers longer than
   ``max_number_chars`` are ``invalid_number``; a key repeated in one object is
   ``duplicate_key`` (rejected rather than last-one-wins, so that no two readers of a
   message can see different trace ids);
5. strings (keys and values): longer than ``max_string_chars`` (``string_too_long``),
   an unpaired UTF-16 surrogate (``lone_surrogate``), NUL or another C0 control
   character except tab, line feed, carriage return and form feed
   (``control_character``);
6. counts: more than ``max_context_fields`` context fields (``too_many_context_fields``)
   or ``max_citation_sources`` cited sources (``too_many_citation_sources``);
7. the schema (``missing_field``, ``wrong_type``, ``invalid_value``); a ``trace_id``
   longer than ``max_trace_id_chars`` or containing an invisible format character
   (zero-width, bidirectional override) is ``invalid_value``.

Anything unexpected on the way is ``decode_error`` with the exception type in the detail.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from monitor.errors import InvalidTraceError
from monitor.limits import InputLimits
from monitor.schemas import SourceLocation, Trace

# Bounded reasons of an ``invalid`` judgment or dead-letter record (also a metric label).
INVALID_REASONS = (
    "invalid_json",
    "not_an_object",
    "missing_field",
    "wrong_type",
    "invalid_value",
    "not_utf8",
    "too_large",
    "too_deep",
    "invalid_number",
    "duplicate_key",
    "string_too_long",
    "lone_surrogate",
    "control_character",
    "too_many_context_fields",
    "too_many_citation_sources",
    "decode_error",
    # OpenTelemetry input (pipelines.otel): a record that is not OTLP, spans that give no
    # interaction.
    "otlp_undecodable",
    "otlp_bad_id",
    "no_spans",
    "no_root",
    "no_question",
    "no_answer",
    "mapping_invalid",
    "citations_invalid",
    "assembly_error",
)

DEFAULT_LIMITS = InputLimits()

_BOM = "\ufeff"
# A JSON string token (escapes included), a lone quote (an unterminated string: the
# parser will reject the text, so the scan stops there), or a bracket.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|"|[\[\]{}]', re.DOTALL)
_BAD_CHAR = re.compile("[\x00-\x08\x0b\x0e-\x1f\ud800-\udfff]")
# A JSON escape that decodes to one of those (over-matches "\\u0000"; that only costs a walk).
_BAD_ESCAPE = re.compile(r"\\u(?:00[01][0-9a-fA-F]|[dD][89a-fA-F])")
# What the fallback id lookup of an undecodable payload accepts: a plain string value.
_ID_IN_TEXT = re.compile(r'"trace_id"\s*:\s*"([^"\\\x00-\x1f]{1,256})"')
_HINT_PREFIX_BYTES = 65_536
# Payloads that cannot be decoded but may still name their id (a truncated head of an
# over-limit line is invalid_json); a duplicate key is ambiguous and names none.
_HINT_FALLBACK = ("too_large", "too_deep", "invalid_number", "invalid_json")


@dataclass(frozen=True, slots=True)
class RawTrace:
    """A payload as it arrived (a JSONL line, a Kafka value) and where it came from.

    ``truncated_size`` is set by a source that did not read an over-limit message whole:
    the message's size in bytes; ``payload`` then holds only its first bytes (enough for
    a trace id hint) and the message's outcome is ``too_large``.
    """

    payload: str | bytes | dict[str, Any] | Trace
    location: SourceLocation | None = None
    truncated_size: int | None = None
    # Set by a source that already knows the message is invalid (an OTLP record that
    # cannot be decoded, spans without a question): its outcome is this error.
    error: InvalidTraceError | None = None


def _show(text: str, limit: int = 60) -> str:
    """A piece of input, safe to put in a message: escaped, quoted and shortened."""
    shown = repr(text[:limit])
    return shown + ("..." if len(text) > limit else "")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise InvalidTraceError(
                    "duplicate_key", detail=f"key {_show(key)} appears twice in one object"
                )
            seen.add(key)
    return obj


@functools.lru_cache(maxsize=8)
def _decoder(limits: InputLimits) -> json.JSONDecoder:
    def parse_constant(name: str) -> Any:
        raise InvalidTraceError("invalid_number", detail=f"{name} is not a JSON number")

    def parse_float(text: str) -> float:
        if len(text) > limits.max_number_chars:
            raise InvalidTraceError("invalid_number", detail=f"a number of {len(text)} characters")
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise InvalidTraceError("invalid_number", detail=f"{_show(text)} overflows a float")
        return value

    def parse_int(text: str) -> int:
        if len(text) > limits.max_number_chars:
            raise InvalidTraceError("invalid_number", detail=f"a number of {len(text)} characters")
        return int(text)

    return json.JSONDecoder(
        object_pairs_hook=_pairs,
        parse_constant=parse_constant,
        parse_float=parse_float,
        parse_int=parse_int,
    )


def _check_depth(text: str, limit: int) -> None:
    """``too_deep`` when brackets outside strings nest deeper than ``limit`` (flat scan)."""
    if text.count("[") + text.count("{") <= limit:
        return  # cannot nest deeper than the number of opening brackets
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                raise InvalidTraceError(
                    "too_deep", detail=f"JSON nested deeper than {limit} levels"
                )
        elif token in "]}":
            depth -= 1
        elif token == '"':
            return  # an unterminated string: the JSON parser says so


def _text(payload: str | bytes, limits: InputLimits) -> str:
    """The payload as text, after the size and encoding checks."""
    size = len(payload)
    if isinstance(payload, str) and size <= limits.max_payload_bytes < 4 * size:
        size = len(payload.encode("utf-8", "surrogatepass"))
    if size > limits.max_payload_bytes:
        raise InvalidTraceError(
            "too_large",
            detail=f"{size} bytes, over the limit of {limits.max_payload_bytes}",
        )
    if isinstance(payload, bytes):
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidTraceError("not_utf8", detail=f"{exc.reason} at byte {exc.start}") from exc
    else:
        text = payload
    return text[1:] if text.startswith(_BOM) else text


def _decode_json(payload: str | bytes, limits: InputLimits) -> tuple[Any, bool]:
    """Size, encoding, nesting and JSON checks: the decoded value, and whether its
    strings still need :func:`_check_values` (a text with no escape that can make a bad
    character, no such character and no room for an over-long string does not)."""
    text = _text(payload, limits)
    _check_depth(text, limits.max_json_depth)
    try:
        data = _decoder(limits).decode(text)
    except json.JSONDecodeError as exc:
        raise InvalidTraceError(
            "invalid_json", detail=f"{exc.msg} (line {exc.lineno} column {exc.colno})"
        ) from exc
    clean = (
        len(text) <= limits.max_string_chars
        and _BAD_ESCAPE.search(text) is None
        and _BAD_CHAR.search(text) is None
    )
    return data, not clean


def _check_values(data: Any, limits: InputLimits) -> None:
    """Depth (for payloads that arrive decoded) and every string, without recursion."""
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, dict | list | tuple):
            if depth >= limits.max_json_depth:
                raise InvalidTraceError(
                    "too_deep",
                    detail=f"JSON nested deeper than {limits.max_json_depth} levels",
                )
            if isinstance(value, dict):
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise InvalidTraceError(
                            "wrong_type", field=path or None, detail="a key is not a string"
                        )
                    name = f"{path}.{key}" if path else key
                    _check_string(key, limits, path or None)
                    stack.append((item, depth + 1, name))
            else:
                stack.extend((item, depth + 1, f"{path}.{k}") for k, item in enumerate(value))
        elif isinstance(value, str):
            _check_string(value, limits, path or None)


def _check_string(text: str, limits: InputLimits, field: str | None) -> None:
    if len(text) > limits.max_string_chars:
        raise InvalidTraceError(
            "string_too_long",
            field=_safe_field(field),
            detail=f"{len(text)} characters, over the limit of {limits.max_string_chars}",
        )
    bad = _BAD_CHAR.search(text)
    if bad is not None:
        char = bad.group()
        reason = "lone_surrogate" if "\ud800" <= char <= "\udfff" else "control_character"
        raise InvalidTraceError(
            reason, field=_safe_field(field), detail=f"U+{ord(char):04X} at index {bad.start()}"
        )


def _safe_field(field: str | None) -> str | None:
    """A field path safe to print and store (non-printable characters escaped, bounded)."""
    if field is None:
        return None
    if len(field) > 200:
        field = field[:200] + "..."
    return field if field.isprintable() else ascii(field)[1:-1]


def _check_counts(data: dict[str, Any], limits: InputLimits) -> None:
    context = data.get("context")
    if isinstance(context, dict) and len(context) > limits.max_context_fields:
        raise InvalidTraceError(
            "too_many_context_fields",
            field="context",
            detail=f"{len(context)} fields, over the limit of {limits.max_context_fields}",
        )
    citations = data.get("citations")
    sources = citations.get("sources") if isinstance(citations, dict) else None
    if isinstance(sources, list) and len(sources) > limits.max_citation_sources:
        raise InvalidTraceError(
            "too_many_citation_sources",
            field="citations.sources",
            detail=f"{len(sources)} sources, over the limit of {limits.max_citation_sources}",
        )
    trace_id = data.get("trace_id")
    if isinstance(trace_id, str):
        if len(trace_id) > limits.max_trace_id_chars:
            raise InvalidTraceError(
                "invalid_value",
                field="trace_id",
                detail=f"{len(trace_id)} characters, over {limits.max_trace_id_chars}",
            )
        hidden = (
            None
            if trace_id.isascii()
            else next((c for c in trace_id if unicodedata.category(c) == "Cf"), None)
        )
        if hidden is not None:
            raise InvalidTraceError(
                "invalid_value",
                field="trace_id",
                detail=f"invisible format character U+{ord(hidden):04X} in an identifier",
            )


def _validate(data: dict[str, Any]) -> Trace:
    try:
        return Trace.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        err = errors[0]
        path = err["loc"]
        msg = err["msg"]
        # A value no member of a union takes (a list as a context value) fails once per
        # member, each at the value's path plus the member's tag ("context.x.str",
        # "context.x.int", ...): one problem, at the value's own path.
        tried = [e for e in errors if len(e["loc"]) == len(path) and e["loc"][:-1] == path[:-1]]
        if (
            len(path) > 1
            and len(tried) > 1
            and all(
                e["type"].endswith("_type") and str(e["loc"][-1]) in _UNION_MEMBER for e in tried
            )
        ):
            kinds = [_UNION_MEMBER.get(str(e["loc"][-1]), str(e["loc"][-1])) for e in tried]
            path = path[:-1]
            msg = f"should be {', '.join(kinds[:-1])} or {kinds[-1]}, not {_kind(err['input'])}"
        # pydantic marks a bad dict key with a "[key]" step: the key itself is the field.
        loc = ".".join(str(p) for p in path if p != "[key]") or None
        etype = err["type"]
        if etype == "missing":
            reason = "missing_field"
        elif etype.endswith("_type") or etype in ("model_type", "dict_type", "list_type"):
            reason = "wrong_type"
        else:
            reason = "invalid_value"
        # Problems, not pydantic errors: a union's members count once.
        problems = {
            e["loc"][:-1] if str(e["loc"][-1]) in _UNION_MEMBER else e["loc"] for e in errors
        }
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InvalidTraceError(reason, field=_safe_field(loc), detail=f"{msg}{more}") from exc


# How a union member is named in a wrong-type message.
_UNION_MEMBER = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "a boolean",
    "none": "null",
}


def _kind(value: object) -> str:
    """What a JSON value is, in words (never the value: it may be a secret)."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return {str: "a string", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


# The detail of a native-format line that is an OTLP/JSON export: spans, not a trace.
OTLP_LINE = (
    "an OTLP/JSON export line (resourceSpans), not a native trace: read it with the "
    "otlp-json or auto input format"
)


def parse_trace(
    payload: str | bytes | dict[str, Any] | Trace, limits: InputLimits = DEFAULT_LIMITS
) -> Trace:
    """A validated trace, or :class:`InvalidTraceError` naming the field and why.

    Never raises anything else: an unexpected exception becomes ``decode_error``.
    """
    if isinstance(payload, Trace):
        return payload
    try:
        data, walk = (payload, True) if isinstance(payload, dict) else _decode_json(payload, limits)
        if not isinstance(data, dict):
            raise InvalidTraceError(
                "not_an_object", detail=f"expected a JSON object, got {type(data).__name__}"
            )
        if walk:
            _check_values(data, limits)
        _check_counts(data, limits)
        if "trace_id" not in data and ("resourceSpans" in data or "resource_spans" in data):
            raise InvalidTraceError("missing_field", field="trace_id", detail=OTLP_LINE)
        return _validate(data)
    except InvalidTraceError:
        raise
    except Exception as exc:  # a decoder bug must not end a worker: one outcome per message
        raise InvalidTraceError(
            "decode_error", detail=f"{type(exc).__name__}: {_show(str(exc), 200)}"
        ) from exc


def parse_raw(raw: RawTrace, limits: InputLimits = DEFAULT_LIMITS) -> Trace:
    """:func:`parse_trace` of a source's message; ``too_large`` when it was not read whole."""
    if raw.error is not None:
        raise raw.error
    if raw.truncated_size is not None:
        raise InvalidTraceError(
            "too_large",
            detail=f"{raw.truncated_size} bytes, over the limit of {limits.max_payload_bytes}",
        )
    return parse_trace(raw.payload, limits)


def is_valid_trace(
    payload: str | bytes | dict[str, Any] | Trace, limits: InputLimits = DEFAULT_LIMITS
) -> bool:
    """Whether :func:`parse_trace` accepts the payload."""
    try:
        parse_trace(payload, limits)
    except InvalidTraceError:
        return False
    return True


def trace_id_hint(
    payload: str | bytes | dict[str, Any] | Trace, limits: InputLimits = DEFAULT_LIMITS
) -> str | None:
    """Best-effort trace id of an invalid payload, so that its judgment can be joined.

    Decoded under the same bounds as :func:`parse_trace`; for a payload too large or too
    deep to decode, or not JSON (a truncated head), the first ``trace_id`` string in its
    first 64 KiB. Only a clean id comes back (no control or invisible format characters, no
    surrogates, at most 256 characters); never raises.
    """
    try:
        if isinstance(payload, Trace):
            return payload.trace_id
        try:
            data = payload if isinstance(payload, dict) else _decode_json(payload, limits)[0]
        except InvalidTraceError as exc:
            if exc.reason not in _HINT_FALLBACK or isinstance(payload, dict):
                return None
            head = payload[:_HINT_PREFIX_BYTES]
            text = head.decode("utf-8", "replace") if isinstance(head, bytes) else head
            found = _ID_IN_TEXT.search(text)
            return found.group(1) if found and _clean_id(found.group(1)) else None
        if not isinstance(data, dict):
            return None
        value = data.get("trace_id")
        if isinstance(value, bool) or not isinstance(value, str | int):
            return None
        text = str(value)
        return text if _clean_id(text) else None
    except Exception:  # a hint is optional; its absence is never an error
        return None


def _clean_id(text: str) -> bool:
    return (
        0 < len(text) <= 256
        and _BAD_CHAR.search(text) is None
        and "\ufffd" not in text
        and all(unicodedata.category(c) != "Cf" for c in text)
    )
