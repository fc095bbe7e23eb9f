"""OTLP/JSON lines as a trace source for the embedded ``run`` (and ``auto`` detection).

:func:`otlp_traces` turns a source of lines (a file, a growing file, stdin) into the
source of interactions the evaluator reads: each line is sniffed (``auto``) or taken as
the given format; OTLP lines feed an :class:`~pipelines.otel.ingest.OtlpIngest`, native
lines pass through untouched. Every line and every emitted trace ends as exactly one
:class:`~monitor.traces.RawTrace`: an assembled trace (as a JSON object, so that it goes
through the same input bounds as a native trace), or one carrying the
:class:`~monitor.errors.InvalidTraceError` that explains why there is none.

A finite input is read whole, then the open traces are assembled once (nothing can
arrive later, so no quiet period is waited). A followed input is polled: a trace is
emitted once its root arrived and the quiet period passed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Literal

from monitor.io import TraceSource
from monitor.schemas import SourceLocation
from monitor.traces import RawTrace
from pipelines.otel.decode import sniff_format
from pipelines.otel.ingest import OtlpIngest, Outcome

LineFormat = Literal["auto", "cargo", "otlp-json"]


def outcome_raw(outcome: Outcome, location: SourceLocation | None = None) -> RawTrace:
    """One emission as the evaluator's input."""
    if outcome.trace is not None:
        return RawTrace(outcome.trace.model_dump(mode="json", exclude_none=True), location)
    assert outcome.error is not None
    hint = {"trace_id": outcome.trace_id} if outcome.trace_id else {}
    return RawTrace(hint, location, error=outcome.error)


async def otlp_traces(
    lines: TraceSource,
    ingest: OtlpIngest,
    *,
    fmt: LineFormat = "auto",
    poll_interval_s: float | None = None,
) -> AsyncIterator[RawTrace]:
    """Interactions from a source of lines; ``poll_interval_s`` (a followed input)
    emits ready traces while waiting for more lines, else everything open is emitted at
    the end of the input."""
    it = lines.__aiter__()
    nxt: asyncio.Future[RawTrace] = asyncio.ensure_future(it.__anext__())
    try:
        while True:
            done, _ = await asyncio.wait({nxt}, timeout=poll_interval_s)
            if not done:
                for o in ingest.poll():
                    yield outcome_raw(o)
                continue
            try:
                raw = nxt.result()
            except StopAsyncIteration:
                break
            nxt = asyncio.ensure_future(it.__anext__())
            payload = raw.payload
            line_fmt = fmt
            if fmt == "auto" and isinstance(payload, bytes | str):
                line_fmt = "otlp-json" if sniff_format(payload) == "otlp-json" else "cargo"
            if line_fmt == "cargo" or raw.truncated_size is not None:
                # Native traces, and lines over the limit (too_large, with an id hint).
                yield raw
                continue
            if not isinstance(payload, bytes | str):
                yield raw
                continue
            for o in ingest.feed(payload, "otlp-json"):
                yield outcome_raw(o, raw.location)
            if poll_interval_s is not None:
                for o in ingest.poll():
                    yield outcome_raw(o)
        for o in ingest.flush():
            yield outcome_raw(o)
    finally:
        nxt.cancel()
