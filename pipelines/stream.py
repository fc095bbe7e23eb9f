"""``cargo-monitor stream``: the Faust worker on a real Kafka broker.

One agent reads the traces topic in batches (``take_events``), evaluates them
with the core :class:`~monitor.evaluator.Evaluator`, writes one judgment per
trace to the judgments topic (key = trace id) and every undecodable or invalid
message to the dead-letter topic (original bytes, reason, topic/partition/
offset). Events are acknowledged only after their judgment or DLQ record has
been delivered (the producer futures are awaited and the producer flushed), so
delivery is at-least-once. Batches are pipelined (``pipeline_depth``): the next
batch is embedded and judged while the previous one is delivered, but delivery,
watermark and acknowledgement stay in input order, and every message holds an
extra reference until its output is delivered (``take_events`` alone would ack
a batch as soon as the next one is requested).

Idempotency: a Faust table (``<group>-processed``, changelog-backed) keeps, per
input partition, the highest offset whose results were delivered. Its entries
live in the changelog partition of the input partition, so whichever worker owns
that partition after a rebalance or restart restores them first and skips any
redelivered message at or below the mark: no duplicate judgment, no double count
in metrics. The mark is written after the results are delivered; if a worker
dies between the two, the batch is re-judged once (same key, same content
except ``evaluated_at``) -- downstream consumers read the judgments topic as a
table keyed by trace id (it is created log-compacted).
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import weakref
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from monitor.errors import InvalidTraceError
from monitor.golden import load_golden
from monitor.metrics import MonitorMetrics
from monitor.models import Judgment, SourceLocation
from monitor.settings import CargoSettings
from monitor.traces import RawTrace, parse_trace, trace_id_hint
from pipelines.components import build_components

log = logging.getLogger("cargo.stream")

TRANSIENT_KINDS = frozenset({"timeout", "rate_limit", "connection", "http"})


@dataclass
class StreamConfig:
    bootstrap: str = "127.0.0.1:9092"
    traces_topic: str = "agent-traces"
    judgments_topic: str = "cargo-judgments"
    dlq_topic: str = "cargo-traces-dlq"
    group: str = "cargo-monitor"
    partitions: int = 4
    replication: int = 1
    metrics_port: int = 9108
    batch_size: int = 32
    batch_within_s: float = 1.0
    # Batches in flight in one worker: >= 2 overlaps judging batch k+1 with
    # delivering batch k; 1 processes one batch at a time.
    pipeline_depth: int = 2
    # A judge outage: judge the transiently failed traces of a batch again (the batch
    # is not acknowledged meanwhile, which is the backpressure) with exponential
    # backoff before recording judge errors.
    outage_retries: int = 5
    outage_backoff_s: float = 1.0
    outage_backoff_max_s: float = 30.0
    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: str | None = None
    sasl_username: str | None = None
    sasl_password: str | None = None
    ssl_cafile: str | None = None
    data_dir: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def dead_letter(raw: bytes, exc: InvalidTraceError, *, topic: str, partition: int,
                offset: int, worker: str) -> dict[str, Any]:
    """The DLQ record: everything needed to find, understand and replay the message."""
    try:
        text: str | None = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    return {
        "reason": exc.reason, "field": exc.field, "detail": exc.detail,
        "topic": topic, "partition": partition, "offset": offset,
        "trace_id": trace_id_hint(raw),
        "original_base64": base64.b64encode(raw).decode("ascii"),
        "original_text": text, "worker": worker,
        "dead_lettered_at": datetime.now(UTC).isoformat(),
    }


def _credentials(cfg: StreamConfig) -> Any:
    import faust

    if cfg.security_protocol.upper().startswith("SASL"):
        ssl_context = None
        if cfg.security_protocol.upper() == "SASL_SSL":
            import ssl

            ssl_context = ssl.create_default_context(cafile=cfg.ssl_cafile)
        return faust.SASLCredentials(username=cfg.sasl_username, password=cfg.sasl_password,
                                     mechanism=cfg.sasl_mechanism or "PLAIN",
                                     ssl_context=ssl_context)
    if cfg.security_protocol.upper() == "SSL":
        import ssl

        return faust.SSLCredentials(ssl.create_default_context(cafile=cfg.ssl_cafile))
    return None


def build_app(cfg: StreamConfig, settings: CargoSettings) -> Any:
    """The Faust app with its agent, topics and table. Nothing starts here."""
    import faust
    from faust.streams import _current_event  # the event a table write belongs to
    from prometheus_client import (
        CollectorRegistry,
        Counter,
        PlatformCollector,
        ProcessCollector,
        start_http_server,
    )

    worker_name = f"{socket.gethostname()}:{os.getpid()}"
    app = faust.App(
        cfg.group,
        broker=[f"kafka://{b.strip()}" for b in cfg.bootstrap.split(",")],
        broker_credentials=_credentials(cfg),
        value_serializer="raw", key_serializer="raw",
        topic_partitions=cfg.partitions, topic_replication_factor=cfg.replication,
        consumer_auto_offset_reset="earliest",
        web_enabled=False, datadir=cfg.data_dir or f"/tmp/cargo-faust-{cfg.group}-{os.getpid()}",
        producer_acks=-1, broker_commit_every=cfg.batch_size, broker_commit_interval=1.0,
        stream_wait_empty=False, table_standby_replicas=0,
        **cfg.extra,
    )
    traces = app.topic(cfg.traces_topic, value_type=bytes, key_type=bytes,
                       partitions=cfg.partitions)
    judgments = app.topic(cfg.judgments_topic, value_type=bytes, key_type=bytes,
                          partitions=cfg.partitions, compacting=True)
    dlq = app.topic(cfg.dlq_topic, value_type=bytes, key_type=bytes, partitions=cfg.partitions)
    # No default: a read must never write (a defaultdict-style write would land
    # in whatever partition the stream happens to be on).
    processed = app.Table(f"{cfg.group}-processed", partitions=cfg.partitions,
                          key_type=str, value_type=int)

    golden = load_golden(settings.golden)
    registry = CollectorRegistry()
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    metrics = MonitorMetrics(registry, golden, gate_kind=settings.gate,
                             judge_name=settings.judge)
    duplicates = Counter("cargo_duplicates_skipped", "Redelivered messages skipped "
                         "(already judged before a rebalance or restart).", registry=registry)
    retries = Counter("cargo_judge_outage_retries", "Batches retried because of a judge "
                      "outage (backpressure).", registry=registry)
    evaluator = build_components(settings, golden).evaluator

    @app.task  # type: ignore[untyped-decorator]
    async def serve_metrics() -> None:
        if cfg.metrics_port:
            start_http_server(cfg.metrics_port, addr=settings.metrics_host, registry=registry)
            log.info("metrics on http://%s:%s/metrics", settings.metrics_host,
                     cfg.metrics_port)

    async def judge_batch(raws: Sequence[RawTrace]) -> list[Judgment]:
        delay = cfg.outage_backoff_s
        out = await evaluator.evaluate_batch(raws)
        for attempt in range(cfg.outage_retries + 1):
            # Only the traces that failed transiently are judged again: the others
            # already have their judgment (and an LLM call is not free).
            transient = [k for k, j in enumerate(out) if j.status == "judge_error"
                         and j.error and j.error.kind in TRANSIENT_KINDS]
            if not transient or attempt == cfg.outage_retries:
                return out
            retries.inc()
            log.warning("judge outage (%d transient errors), retrying them in %.1fs",
                        len(transient), delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, cfg.outage_backoff_max_s)
            again = await evaluator.evaluate_batch([raws[k] for k in transient])
            for k, j in zip(transient, again, strict=True):
                out[k] = j
        return out  # pragma: no cover

    @app.agent(traces)
    async def evaluate(stream: Any) -> None:
        # Batches are pipelined: batch k+1 is embedded and judged while batch k's
        # judgments are delivered. Finalisation (deliver, watermark, ack) stays in
        # input order, and an event is acknowledged only after its output is
        # delivered: take_events acks a batch as soon as the loop asks for the next
        # one, so every message gets an extra reference first (incref) that only
        # finalise() releases.
        pending: deque[asyncio.Task[None]] = deque()
        prev: asyncio.Task[None] | None = None
        try:
            async for events in stream.take_events(cfg.batch_size,
                                                   within=cfg.batch_within_s):
                for ev in events:
                    ev.message.incref()
                prev = asyncio.create_task(handle(stream, list(events), prev))
                pending.append(prev)
                while len(pending) >= cfg.pipeline_depth:
                    await pending.popleft()
                while pending and pending[0].done():
                    await pending.popleft()
            while pending:
                await pending.popleft()
        finally:
            for task in pending:
                task.cancel()

    async def handle(stream: Any, events: list[Any], prev: asyncio.Task[None] | None) -> None:
        fresh, sends = [], []
        for ev in events:
            msg = ev.message
            mark_key = f"{msg.topic}:{msg.partition}"
            if msg.offset <= processed.get(mark_key, -1):
                duplicates.inc()
                continue
            raw = msg.value if isinstance(msg.value, bytes) else bytes(msg.value or b"")
            loc = SourceLocation(topic=msg.topic, partition=msg.partition, offset=msg.offset)
            try:
                trace = parse_trace(raw)
            except InvalidTraceError as exc:
                record = dead_letter(raw, exc, topic=msg.topic, partition=msg.partition,
                                     offset=msg.offset, worker=worker_name)
                sends.append(await dlq.send(
                    key=f"{msg.topic}:{msg.partition}:{msg.offset}".encode(),
                    value=json.dumps(record).encode(), force=True))
                metrics.traces.labels(status="invalid").inc()
                metrics.invalid.labels(reason=exc.reason).inc()
                continue
            fresh.append(RawTrace(trace, loc))  # parsed once: the evaluator takes it as is
        out = await judge_batch(fresh) if fresh else []
        if prev is not None:
            await prev  # finalise in input order (watermarks must not overtake)
        for j in out:
            # force=True: send now and await delivery below. Without it Faust
            # "attaches" the message to the current event and publishes it
            # only at commit time, which a SIGKILL can lose.
            sends.append(await judgments.send(
                key=(j.trace_id or "").encode(), value=j.model_dump_json().encode(),
                force=True))
            metrics.observe(j)
        # At-least-once: nothing is acknowledged, and no watermark written,
        # before its output is delivered: await the sends, then flush the
        # producer (Faust may resolve a send future when it is queued).
        if sends:
            await asyncio.gather(*sends)
            await app.producer.flush()
        # One watermark per input partition and batch: its highest offset.
        last: dict[str, Any] = {}
        for ev in events:
            mark_key = f"{ev.message.topic}:{ev.message.partition}"
            if ev.message.offset > processed.get(mark_key, -1):
                last[mark_key] = ev
        for mark_key, ev in last.items():
            # Written in this event's context: the mark lives in the changelog
            # partition of the input partition it describes.
            token = _current_event.set(weakref.ref(ev))
            try:
                processed[mark_key] = ev.message.offset
            finally:
                _current_event.reset(token)
        for ev in events:
            await stream.ack(ev)  # releases the reference taken before the next batch

    return app


def run_worker(cfg: StreamConfig, settings: CargoSettings, loglevel: str = "warning") -> int:
    from faust import Worker

    from pipelines.replay import ensure_topics

    if cfg.security_protocol == "PLAINTEXT":
        # Missing topics are created up front with the configured partition count
        # (the judgments topic log-compacted: one judgment per trace id).
        created = ensure_topics(
            cfg.bootstrap, {cfg.traces_topic: cfg.partitions,
                            cfg.judgments_topic: cfg.partitions, cfg.dlq_topic: cfg.partitions},
            compact={cfg.judgments_topic}, replication=cfg.replication)
        if created:
            log.warning("created topics: %s", ", ".join(created))
    app = build_app(cfg, settings)
    worker = Worker(app, loglevel=loglevel, quiet=True)
    worker.execute_from_commandline()
    return 0
