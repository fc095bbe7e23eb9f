"""Bounds on what one input message may contain, applied before and while decoding.

A message over a bound is not decoded further: it becomes an ``invalid`` outcome with
the bound's reason (``too_large``, ``too_deep``, ...). The defaults are generous for real
agent traffic and small enough that one hostile message cannot exhaust a worker.
``docs/input-limits.md`` lists every bound with its setting and outcome.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class InputLimits:
    """Per-message input bounds (settings ``CARGO_MAX_*`` / ``--max-*`` flags).

    ``max_number_chars`` and ``max_trace_id_chars`` are fixed bounds with no setting:
    no real trace carries a 100-character number or a 256-character identifier.
    """

    max_payload_bytes: int = 1_048_576
    max_json_depth: int = 64
    max_context_fields: int = 256
    max_citation_sources: int = 256
    max_string_chars: int = 200_000
    max_number_chars: int = 100
    max_trace_id_chars: int = 256
