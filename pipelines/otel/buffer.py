"""Per-trace span buffer: spans of one trace arrive out of order, duplicated, in several
Kafka records and sometimes after the interaction was judged.

:class:`TraceBuffer` is a plain class with an injectable clock (no Kafka, no threads).
The caller ``add``s the spans of each record, then ``poll``s for traces to assemble:

* a trace is **ready** once its root has arrived and no new span has arrived for
  ``quiet_period_s``. ``root_kind`` (default
  :func:`~pipelines.otel.assemble.root_kind`) tells a span without a parent (``"root"``:
  the trace's own root, definitive) from an agent span that has a parent
  (``"candidate"``: it may be a nested agent whose parent is still on its way, or an
  agent whose parent lives in another service and never comes). With only candidates,
  the trace waits ``max(quiet_period_s, candidate_wait_s)``;
* spans are de-duplicated on ``(traceId, spanId)`` for as long as the trace is
  remembered (open, or emitted and still in the ``closed`` memory);
* a new span of a trace that was already emitted reopens it: after a new quiet period it
  is emitted again with ``revision`` + 1 and all of its spans (the caller re-judges it
  under the same key);
* memory is bounded: at most ``max_open_traces`` open traces (the oldest by first span
  is then emitted as ``incomplete`` with reason ``evicted``) and ``max_closed_traces``
  remembered emitted traces (least recently emitted forgotten first; a span of a
  forgotten trace cannot be told from a new trace: it starts again at revision 0);
* a trace whose root never arrives is emitted as ``incomplete`` with reason
  ``root_missing`` ``max_wait_s`` after its first span;
* at most ``max_spans_per_trace`` spans are kept per trace (root-eligible spans up to
  twice that); more are dropped and counted (``ReadyTrace.dropped``,
  ``stats.spans_dropped``).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from pipelines.otel.spans import Span

Clock = Callable[[], float]
RootKind = Literal["root", "candidate"] | None
EmitReason = Literal["complete", "evicted", "root_missing", "max_wait"]


@dataclass(frozen=True, slots=True)
class ReadyTrace:
    """A trace handed to assembly."""

    trace_id: str
    spans: tuple[Span, ...]
    revision: int
    reason: EmitReason
    dropped: int = 0  # spans over max_spans_per_trace, not kept

    @property
    def incomplete(self) -> bool:
        return self.reason != "complete"


@dataclass(slots=True)
class BufferStats:
    """Counters since start (the caller exports them as metrics)."""

    spans_added: int = 0
    duplicates: int = 0
    late_spans: int = 0
    emitted: int = 0
    reemitted: int = 0
    evicted: int = 0
    root_missing: int = 0
    max_wait: int = 0  # rooted traces still receiving spans after max_wait_s
    spans_dropped: int = 0


@dataclass(slots=True)
class _Open:
    spans: dict[str, Span]
    first_seen: float
    last_new: float
    root: int  # 0 none, 1 candidate only, 2 the trace's root
    revision: int = 0
    dropped: int = 0


@dataclass(slots=True)
class _Closed:
    spans: dict[str, Span]
    root: int
    revision: int


@dataclass(slots=True)
class AddResult:
    """What one ``add`` call did."""

    added: int = 0
    duplicates: int = 0
    late: int = 0
    traces: set[str] = field(default_factory=set)


class TraceBuffer:
    """Buffers spans per trace until the trace is ready to assemble."""

    def __init__(
        self,
        *,
        root_kind: Callable[[Span], RootKind],
        quiet_period_s: float = 3.0,
        candidate_wait_s: float = 10.0,
        max_wait_s: float = 60.0,
        max_open_traces: int = 10_000,
        max_closed_traces: int = 5_000,
        max_spans_per_trace: int = 5_000,
        clock: Clock = time.monotonic,
    ) -> None:
        if quiet_period_s < 0 or candidate_wait_s < 0 or max_wait_s <= 0:
            raise ValueError("quiet_period_s, candidate_wait_s must be >= 0, max_wait_s > 0")
        if max_open_traces < 1 or max_closed_traces < 0 or max_spans_per_trace < 1:
            raise ValueError(
                "max_open_traces and max_spans_per_trace must be >= 1, max_closed_traces >= 0"
            )
        self.max_spans_per_trace = max_spans_per_trace
        self._root_kind = root_kind
        self.quiet_period_s = quiet_period_s
        self.candidate_wait_s = candidate_wait_s
        self.max_wait_s = max_wait_s
        self.max_open_traces = max_open_traces
        self.max_closed_traces = max_closed_traces
        self._clock = clock
        self._open: OrderedDict[str, _Open] = OrderedDict()  # insertion = first seen
        self._closed: OrderedDict[str, _Closed] = OrderedDict()  # LRU by emission
        self._pending: list[ReadyTrace] = []  # evictions waiting for the next poll
        self.stats = BufferStats()

    @property
    def open_traces(self) -> int:
        return len(self._open)

    def add(self, spans: Iterable[Span]) -> AddResult:
        """Buffer spans (any order, any traces); duplicates are dropped and counted."""
        now = self._clock()
        result = AddResult()
        for span in spans:
            tid = span.trace_id
            entry = self._open.get(tid)
            if entry is None:
                closed = self._closed.get(tid)
                if closed is not None:
                    if span.span_id in closed.spans:
                        result.duplicates += 1
                        self.stats.duplicates += 1
                        continue
                    del self._closed[tid]
                    # late span: reopen with everything seen so far, next revision
                    entry = _Open(dict(closed.spans), now, now, closed.root, closed.revision + 1)
                    result.late += 1
                    self.stats.late_spans += 1
                else:
                    entry = _Open({}, now, now, 0)
                self._open[tid] = entry
                self._evict_over_limit(keep=tid)
            elif span.span_id in entry.spans:
                result.duplicates += 1
                self.stats.duplicates += 1
                continue
            kind = self._root_kind(span)
            # Over the cap, root-eligible spans still get in (up to twice the cap): the
            # root usually ends, and so arrives, last.
            limit = self.max_spans_per_trace * (2 if kind else 1)
            if len(entry.spans) >= limit:
                entry.dropped += 1
                self.stats.spans_dropped += 1
                continue
            entry.spans[span.span_id] = span
            entry.last_new = now
            if kind is not None:
                entry.root = max(entry.root, 2 if kind == "root" else 1)
            result.added += 1
            result.traces.add(tid)
            self.stats.spans_added += 1
        return result

    def is_open(self, trace_id: str) -> bool:
        """Whether the trace is buffered now (waiting for spans)."""
        return trace_id in self._open

    def discard(self, trace_ids: Iterable[str]) -> int:
        """Drop open traces without emitting them; returns how many were open."""
        n = 0
        for tid in trace_ids:
            if self._open.pop(tid, None) is not None:
                n += 1
        return n

    def poll(self) -> list[ReadyTrace]:
        """Traces ready now (complete after the quiet period, or given up on)."""
        now = self._clock()
        ready, self._pending = self._pending, []
        for tid in list(self._open):
            entry = self._open[tid]
            quiet = now - entry.last_new
            if (entry.root == 2 and quiet >= self.quiet_period_s) or (
                entry.root == 1 and quiet >= max(self.quiet_period_s, self.candidate_wait_s)
            ):
                ready.append(self._emit(tid, "complete"))
            elif not entry.root and now - entry.first_seen >= self.max_wait_s:
                self.stats.root_missing += 1
                ready.append(self._emit(tid, "root_missing"))
            elif now - entry.first_seen >= self.max_wait_s:
                # Rooted, but spans keep coming (never quiet): judged as it stands, so
                # that it cannot hold its partition forever; later spans re-emit it.
                self.stats.max_wait += 1
                ready.append(self._emit(tid, "max_wait"))
        return ready

    def flush(self) -> list[ReadyTrace]:
        """Everything open, now (end of input): complete if its root came, else incomplete."""
        ready, self._pending = self._pending, []
        for tid in list(self._open):
            has_root = self._open[tid].root > 0
            if not has_root:
                self.stats.root_missing += 1
            ready.append(self._emit(tid, "complete" if has_root else "root_missing"))
        return ready

    def _emit(self, tid: str, reason: EmitReason) -> ReadyTrace:
        entry = self._open.pop(tid)
        spans = tuple(sorted(entry.spans.values(), key=lambda s: (s.start_unix_nano, s.span_id)))
        self.stats.emitted += 1
        if entry.revision:
            self.stats.reemitted += 1
        if self.max_closed_traces:
            self._closed[tid] = _Closed(entry.spans, entry.root, entry.revision)
            while len(self._closed) > self.max_closed_traces:
                self._closed.popitem(last=False)
        return ReadyTrace(tid, spans, entry.revision, reason, entry.dropped)

    def _evict_over_limit(self, *, keep: str) -> None:
        while len(self._open) > self.max_open_traces:
            oldest = next(t for t in self._open if t != keep)
            self.stats.evicted += 1
            self._pending.append(self._emit(oldest, "evicted"))
