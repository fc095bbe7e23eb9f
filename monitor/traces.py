"""Decoding raw trace payloads into :class:`Trace` with precise, bounded errors."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from monitor.errors import InvalidTraceError
from monitor.schemas import SourceLocation, Trace

# Bounded reasons of an ``invalid`` judgment (also a metric label).
INVALID_REASONS = (
    "invalid_json",
    "not_an_object",
    "missing_field",
    "wrong_type",
    "invalid_value",
    "not_utf8",
)


@dataclass(frozen=True, slots=True)
class RawTrace:
    """A payload as it arrived (a JSONL line, a Kafka value) and where it came from."""

    payload: str | bytes | dict[str, Any] | Trace
    location: SourceLocation | None = None


def parse_trace(payload: str | bytes | dict[str, Any] | Trace) -> Trace:
    """A validated trace, or :class:`InvalidTraceError` naming the field and why."""
    if isinstance(payload, Trace):
        return payload
    data: Any = payload
    if isinstance(payload, bytes):
        try:
            payload = payload.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidTraceError("not_utf8", detail=str(exc)) from exc
    if isinstance(payload, str):
        try:
            data = json.loads(payload)
        except json.JSONDecodeError as exc:
            raise InvalidTraceError(
                "invalid_json", detail=f"{exc.msg} at line {exc.lineno} column {exc.colno}"
            ) from exc
    if not isinstance(data, dict):
        raise InvalidTraceError(
            "not_an_object", detail=f"expected a JSON object, got {type(data).__name__}"
        )
    try:
        return Trace.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        # pydantic marks a bad dict key with a "[key]" step: the key itself is the field.
        loc = ".".join(str(p) for p in err["loc"] if p != "[key]") or None
        etype = err["type"]
        if etype == "missing":
            reason = "missing_field"
        elif etype.endswith("_type") or etype in ("model_type", "dict_type", "list_type"):
            reason = "wrong_type"
        else:
            reason = "invalid_value"
        more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise InvalidTraceError(reason, field=loc, detail=f"{err['msg']}{more}") from exc


def is_valid_trace(payload: str | bytes | dict[str, Any] | Trace) -> bool:
    """Whether :func:`parse_trace` accepts the payload."""
    try:
        parse_trace(payload)
    except InvalidTraceError:
        return False
    return True


def trace_id_hint(payload: str | bytes | dict[str, Any] | Trace) -> str | None:
    """Best-effort trace id of an invalid payload, so that its judgment can be joined."""
    try:
        data = (
            payload
            if isinstance(payload, dict)
            else json.loads(payload if isinstance(payload, str | bytes) else "{}")
        )
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if isinstance(data, dict) and isinstance(data.get("trace_id"), str | int):
        return str(data["trace_id"])
    return None
