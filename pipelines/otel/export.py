"""Evaluation events out: which judgments get ``gen_ai.evaluation.result`` records, and
an OTLP/HTTP sender for them.

:func:`span_ref` tells, for an input of the evaluator, which span its events are
parented to: the root span of a trace assembled from OpenTelemetry spans (its
``metadata.otel``), or only the trace for spans that could not be assembled (no
question, no root...). :func:`judgment_records` builds the log records
(:mod:`pipelines.otel.events`). A native trace has no span to parent an event to, so it
gets none.

:class:`OtlpHttpLogs` posts ``ExportLogsServiceRequest`` protobuf to an OTLP/HTTP
endpoint (``<endpoint>/v1/logs``) from a background task with a bounded queue, so a
slow or dead endpoint never holds the stream up: requests that do not fit in the queue
are dropped and counted; 429, 502, 503, 504 and connection errors are retried with
exponential backoff (``Retry-After`` honoured, capped), any other status fails at once.
Every request ends in ``sent``, ``failed`` (whatever the client raised) or
``dropped`` (counted by :attr:`OtlpHttpLogs.outcomes`, in log records by
:attr:`OtlpHttpLogs.records`), also when the sender is closed or cancelled with
requests queued (``dropped``) or one being posted (``failed``). The Kafka events topic
of ``stream`` is the delivery that is at-least-once; this one is best effort, as OTLP
exporters are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord

from monitor.schemas import Judgment
from monitor.traces import RawTrace
from pipelines.otel.events import evaluation_records, logs_request
from pipelines.otel.settings import check_endpoint, logs_url

log = logging.getLogger("cargo.otel")

_HEX32 = re.compile(r"[0-9a-f]{32}")
_HEX16 = re.compile(r"[0-9a-f]{16}")
RETRY_STATUS = frozenset({429, 502, 503, 504})
# Why spans of one trace gave no interaction: the trace exists, so an event can say so.
OTEL_TRACE_REASONS = frozenset(
    {"no_root", "no_question", "no_answer", "no_spans", "mapping_invalid",
     "citations_invalid", "assembly_error"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class SpanRef:
    """The span an evaluation event is parented to (hex ids)."""

    trace_id: str
    span_id: str | None = None
    response_id: str | None = None
    revision: int = 0


def span_ref(raw: RawTrace) -> SpanRef | None:
    """The evaluated span of an input that came from OpenTelemetry spans: an assembled
    trace (its root span), or a trace that could not be assembled (its trace id only).
    ``None`` for native traces and records that were never a trace."""
    payload = raw.payload
    if not isinstance(payload, dict):
        return None
    trace_id = payload.get("trace_id")
    if not (isinstance(trace_id, str) and _HEX32.fullmatch(trace_id)):
        return None
    if raw.error is not None:
        return SpanRef(trace_id) if raw.error.reason in OTEL_TRACE_REASONS else None
    meta = payload.get("metadata")
    otel = meta.get("otel") if isinstance(meta, dict) else None
    if not isinstance(otel, dict):
        return None
    span_id = otel.get("root_span_id")
    responses = otel.get("response_ids")
    response_id = responses[-1] if isinstance(responses, list) and responses else None
    revision = otel.get("revision", 0)
    return SpanRef(
        trace_id,
        span_id if isinstance(span_id, str) and _HEX16.fullmatch(span_id) else None,
        response_id if isinstance(response_id, str) else None,
        revision if isinstance(revision, int) else 0,
    )


def judgment_records(
    pairs: Iterable[tuple[Judgment, SpanRef | None]],
    mask: Callable[[str], str] | None = None,
) -> list[LogRecord]:
    """The evaluation events of the judgments that have a span to be parented to. With
    ``mask`` (a :class:`monitor.redact.SecretMask`), every string attribute value is
    masked, as the judgments output is (a secret in a rationale must not leave as an
    event either); only strings, so no timestamp or number can be broken by it."""
    out: list[LogRecord] = []
    for judgment, ref in pairs:
        if ref is None:
            continue
        out.extend(
            evaluation_records(
                judgment,
                trace_id=ref.trace_id,
                span_id=ref.span_id,
                response_id=ref.response_id,
                revision=ref.revision,
            )
        )
    if mask:
        for rec in out:
            for kv in rec.attributes:
                if kv.value.HasField("string_value"):
                    kv.value.string_value = mask(kv.value.string_value)
    return out


class OtlpHttpLogs:
    """Best-effort OTLP/HTTP logs exporter (see the module docstring)."""

    def __init__(
        self,
        endpoint: str,
        *,
        timeout_s: float = 10.0,
        max_queue: int = 256,
        max_retries: int = 5,
        backoff_s: float = 0.5,
        backoff_max_s: float = 30.0,
        client: Any = None,
    ) -> None:
        check_endpoint(endpoint)  # a malformed endpoint: a settings error now, not later
        self.url = logs_url(endpoint)
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.backoff_max_s = backoff_max_s
        # One request each: its body and how many log records it holds.
        self.queue: asyncio.Queue[tuple[bytes, int] | None] = asyncio.Queue(maxsize=max_queue)
        self.outcomes: Counter[str] = Counter()  # sent | failed | dropped (requests)
        self.records: Counter[str] = Counter()  # the same, in log records
        self._client = client
        self._own_client = False
        self._task: asyncio.Task[None] | None = None
        self._inflight = 0  # log records of the request being posted (0: none)
        self._closing = False  # aclose called: later submits are dropped (and counted)

    def _count(self, outcome: str, records: int, requests: int = 1) -> None:
        self.outcomes[outcome] += requests
        self.records[outcome] += records

    def submit(self, records: Sequence[LogRecord]) -> None:
        """Queue one request with these records; never blocks."""
        if not records:
            return
        if self._closing:  # behind the stop marker nothing would send it
            self._count("dropped", len(records))
            return
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        elif self._task.done():  # closed (or cancelled): nothing will send it
            self._count("dropped", len(records))
            return
        body = logs_request(records).SerializeToString()
        try:
            self.queue.put_nowait((body, len(records)))
        except asyncio.QueueFull:
            self._count("dropped", len(records))
            log.warning("OTLP/HTTP queue full: dropped %d evaluation events", len(records))

    async def aclose(self, drain_s: float = 10.0) -> None:
        """Send what is queued (at most ``drain_s``), then stop. What is still queued
        then is counted ``dropped``, the request being posted ``failed``."""
        self._closing = True
        task = self._task
        if task is None:
            return
        if task.done():  # cancelled already (the loop's shutdown): nothing will send
            self._drop_queued()
            await self._close_client()
            return

        async def drain() -> None:
            await self.queue.put(None)  # waits for room: within drain_s too
            await asyncio.shield(task)

        try:
            await asyncio.wait_for(drain(), timeout=drain_s)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            log.warning(
                "OTLP/HTTP: stopped after %.0f s with requests unsent (the one being "
                "posted counted failed, the queued ones dropped)",
                drain_s,
            )
        finally:
            self._drop_queued()
            await self._close_client()

    async def _close_client(self) -> None:
        if self._client is not None and self._own_client:
            self._own_client = False
            await self._client.aclose()

    def _drop_queued(self) -> None:
        while not self.queue.empty():
            item = self.queue.get_nowait()
            if item is not None:
                self._count("dropped", item[1])

    async def _run(self) -> None:
        try:
            if self._client is None:
                try:
                    import httpx

                    self._client = httpx.AsyncClient(timeout=self.timeout_s)
                    self._own_client = True
                except Exception as exc:  # then each request fails (and is counted)
                    log.error("OTLP/HTTP: no client (%s: %s)", type(exc).__name__, exc)
            while True:
                item = await self.queue.get()
                if item is None:
                    return
                body, n = item
                self._inflight = n
                ok = await self._post(body)
                self._inflight = 0
                self._count("sent" if ok else "failed", n)
        except asyncio.CancelledError:
            # Stopped (aclose past its drain time, or the loop's shutdown): nothing is
            # lost from the counters.
            if self._inflight:
                self._count("failed", self._inflight)
                self._inflight = 0
            self._drop_queued()
            raise

    async def _post(self, body: bytes) -> bool:
        """POST one request with retries; ``False`` when it failed, whatever raised."""
        try:
            return await self._post_with_retries(body)
        except Exception as exc:  # never into the worker: this request failed
            log.warning("OTLP/HTTP export to %s failed: %s: %s", self.url, type(exc).__name__, exc)
            return False

    async def _post_with_retries(self, body: bytes) -> bool:
        import httpx

        delay = self.backoff_s
        why = ""
        for attempt in range(self.max_retries + 1):
            wait = delay
            try:
                resp = await self._client.post(
                    self.url,
                    content=body,
                    headers={"Content-Type": "application/x-protobuf"},
                )
            except (httpx.TransportError, OSError) as exc:
                why = f"{type(exc).__name__}: {exc}"
                if attempt == 0:  # at once: a wrong port should not wait for the retries
                    log.warning("OTLP/HTTP export to %s: %s (retrying)", self.url, why)
            else:
                if 200 <= resp.status_code < 300:
                    return True
                why = f"HTTP {resp.status_code}"
                if resp.status_code not in RETRY_STATUS:
                    log.warning("OTLP/HTTP export to %s failed: %s (not retried)", self.url, why)
                    return False
                after = resp.headers.get("Retry-After", "")
                if after.isdecimal() and after.isascii():
                    wait = min(float(after), self.backoff_max_s)
            if attempt == self.max_retries:
                break
            await asyncio.sleep(wait)
            delay = min(delay * 2, self.backoff_max_s)
        log.warning(
            "OTLP/HTTP export to %s failed after %d attempts: %s",
            self.url,
            self.max_retries + 1,
            why,
        )
        return False
