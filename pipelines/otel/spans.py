"""The span as the assembler sees it, whatever encoding it arrived in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class SpanEvent:
    """A span event (name, time, attributes)."""

    name: str
    time_unix_nano: int = 0
    attributes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Span:
    """One decoded OTLP span.

    Ids are lowercase hex (OTLP/JSON's spelling, whatever the record's encoding).
    ``attributes`` hold plain Python values decoded from ``AnyValue`` (kvlist -> dict,
    array -> list, bytes -> hex), with flattened indexed keys rebuilt into lists:
    ``llm.input_messages.0.message.role`` becomes
    ``attributes["llm.input_messages"][0]["message.role"]``. Values that instrumentations
    send as JSON *strings* (``gen_ai.input.messages``) stay strings here; the assembler
    parses the ones it reads.
    """

    trace_id: str
    span_id: str
    parent_span_id: str | None
    name: str
    kind: int = 0
    start_unix_nano: int = 0
    end_unix_nano: int = 0
    attributes: Mapping[str, Any] = field(default_factory=dict)
    status_code: int = 0
    status_message: str = ""
    events: tuple[SpanEvent, ...] = ()
    resource: Mapping[str, Any] = field(default_factory=dict)
    scope: str = ""

    @property
    def key(self) -> tuple[str, str]:
        """The identity used for de-duplication: ``(trace_id, span_id)``."""
        return (self.trace_id, self.span_id)

    @property
    def duration_ms(self) -> float | None:
        if self.start_unix_nano and self.end_unix_nano >= self.start_unix_nano:
            return (self.end_unix_nano - self.start_unix_nano) / 1e6
        return None
