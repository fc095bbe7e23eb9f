"""``cargo-monitor stream``: the Faust worker on a real Kafka broker.

One agent reads the traces topic in batches (``take_events``) and hands each batch to
:class:`~pipelines.kafka.delivery.Delivery`, which gives every message one outcome (a
judgment on the judgments topic, key = trace id, or a record on the dead-letter
topic), delivers it, writes the partition watermark and only then acknowledges the
input: at-least-once. Batches are pipelined (``pipeline_depth``): the next batch is
judged while the previous one is delivered; finalisation stays in input order, and
every message holds an extra reference until its output is delivered
(``take_events`` alone would ack a batch as soon as the next one is requested).

Idempotency: a Faust table (``<group>-processed``, changelog-backed) keeps, per input
partition, the highest offset whose outcomes were delivered; its entries live in the
changelog partition of that input partition, so whoever owns the partition after a
rebalance or restart skips redelivered messages at or below the mark. A worker that
dies between delivery and mark re-judges that batch once (same key; the judgments
topic is log-compacted).

An agent that raises is logged with its traceback and stops the worker with exit
status 1: a worker never stays alive without judging.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import socket
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from monitor.errors import ConfigError
from monitor.golden import load_golden
from monitor.metrics import MonitorMetrics, check_metrics_tls
from monitor.metrics import serve_metrics as start_metrics
from monitor.redact import SecretMask, make_redactor
from monitor.settings import CargoSettings
from monitor.traces import parse_trace
from pipelines.components import build_components, freeze_startup_heap
from pipelines.kafka.admin import RangeReader, ensure_topics
from pipelines.kafka.config import KafkaSettings, WorkerSettings
from pipelines.kafka.delivery import Delivery, InputRecord, Progress, RetryPolicy, Topics
from pipelines.kafka.logs import install_repeat_filter
from pipelines.kafka.metrics import StreamMetrics
from pipelines.kafka.progress import forget_partitions, watch_progress
from pipelines.kafka.transport import app_class, kafka_transport
from pipelines.otel.mapping import load_mapping
from pipelines.otel.settings import OtelKafkaSettings, OtelSettings

if TYPE_CHECKING:
    from pipelines.kafka.otlp import OtlpDelivery

log = logging.getLogger("cargo.stream")

EXIT_AGENT_CRASHED = 1


_W = WorkerSettings.model_fields


@dataclass
class StreamConfig:
    kafka: KafkaSettings
    group: str = _W["group"].default
    metrics_port: int = 9108
    batch_size: int = 32
    batch_within_s: float = 1.0
    # Defaults of the worker's own settings come from WorkerSettings (declared once).
    # Batches in flight: 4 keeps the model threads busy (at 2 they waited; measured).
    pipeline_depth: int = _W["pipeline_depth"].default
    # Judge outages and exceptions: see delivery.RetryPolicy.
    outage_retries: int = 5
    outage_backoff_s: float = 1.0
    outage_backoff_max_s: float = 30.0
    max_attempts: int = _W["max_attempts"].default
    # Progress watch: lag gauge every interval; stalled after this long without progress.
    progress_interval_s: float = _W["progress_interval_s"].default
    stall_after_s: float = _W["stall_after_s"].default
    # A batch's judgments go out together: about a quarter less broker CPU per trace
    # than Kafka's 0 ms / 16 KiB (measured). The watermark flush sends at once.
    producer_linger_s: float = 0.005
    producer_batch_bytes: int = 256 * 1024
    # How long the broker may hold a fetch that finds nothing new (Faust: 1.5 s); see
    # docs/design/fetch-max-wait.md.
    fetch_max_wait_s: float = _W["fetch_max_wait_s"].default
    # A Kafka client message repeated within this window is logged once (logs.py).
    repeated_log_window_s: float = 30.0
    data_dir: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # OpenTelemetry spans in (input_format otlp-*/auto) and evaluation events out.
    otel: OtelSettings = field(default_factory=OtelSettings)
    otel_kafka: OtelKafkaSettings = field(default_factory=OtelKafkaSettings)
    otel_tick_s: float = 0.25  # how often buffered traces are checked for readiness
    otel_http_drain_s: float = 5.0  # on stop, for the OTLP/HTTP events still queued

    def retry(self) -> RetryPolicy:
        return RetryPolicy(
            outage_retries=self.outage_retries,
            outage_backoff_s=self.outage_backoff_s,
            outage_backoff_max_s=self.outage_backoff_max_s,
            max_attempts=max(1, self.max_attempts),
        )


@dataclass
class WorkerState:
    """What the process learns about its agent: a crash, and how to stop."""

    crashed: BaseException | None = None
    stop: Callable[[], None] = lambda: None

    def agent_crashed(self, exc: BaseException) -> None:
        if self.crashed is not None:
            return  # reported once (a failed batch, then the agent that awaits it)
        self.crashed = exc
        log.critical(
            "the stream agent crashed (%s: %s); stopping the worker (exit status %d)",
            type(exc).__name__,
            exc,
            EXIT_AGENT_CRASHED,
            exc_info=exc,
        )
        self.stop()


class _FaustSender:
    """The Faust app's Kafka producer: ``send`` returns the delivery future (acks=all).
    Faust's ``Topic.send`` would attach the message to the current event and publish
    it at commit time, which a SIGKILL can lose."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def send(self, topic: str, key: bytes, value: bytes) -> Awaitable[Any]:
        future: Awaitable[Any] = await self.app.producer.send(topic, key, value, None, None, None)
        return future

    async def flush(self) -> None:
        # Faust's send_soon buffer (table writes) first: Producer.flush alone can return
        # with it not empty.
        producer = self.app.producer
        while producer.buffer.size:
            await producer.buffer.flush()
        await producer.flush()


class _TableWatermarks:
    """The watermark table; a mark is written in the context of an input event of its
    partition, so it lands in that partition's changelog partition."""

    def __init__(self, table: Any) -> None:
        self.table = table

    def get(self, key: str) -> int | None:
        value: int | None = self.table.get(key)
        return value

    def put(self, key: str, offset: int, anchor: Any) -> None:
        from faust.streams import _current_event

        token = _current_event.set(weakref.ref(anchor))
        try:
            self.table[key] = offset
        finally:
            _current_event.reset(token)


def build_app(cfg: StreamConfig, settings: CargoSettings, state: WorkerState | None = None) -> Any:
    """The Faust app with its agent, topics and table. Nothing starts here."""
    from prometheus_client import CollectorRegistry, PlatformCollector, ProcessCollector

    state = state or WorkerState()
    kafka = cfg.kafka
    worker_name = f"{socket.gethostname()}:{os.getpid()}"
    app: Any = app_class()(
        cfg.group,
        broker=kafka.faust_brokers(),
        broker_credentials=kafka.faust_credentials(),
        value_serializer="raw",
        key_serializer="raw",
        topic_partitions=kafka.partitions,
        topic_replication_factor=kafka.replication,
        consumer_auto_offset_reset="earliest",
        web_enabled=False,
        datadir=cfg.data_dir or f"/tmp/cargo-faust-{cfg.group}-{os.getpid()}",
        producer_acks=-1,
        producer_linger=cfg.producer_linger_s,
        producer_max_batch_size=cfg.producer_batch_bytes,
        broker_commit_every=cfg.batch_size,
        broker_commit_interval=1.0,
        stream_wait_empty=False,
        table_standby_replicas=0,
        # Nothing runs on_leader; the leader topic's idle partition only held fetches.
        topic_disable_leader=True,
        **cfg.extra,
    )
    app.transport = kafka_transport(round(cfg.fetch_max_wait_s * 1000))(
        app.conf.broker_consumer, app
    )
    traces = app.topic(
        kafka.traces_topic, value_type=bytes, key_type=bytes, partitions=kafka.partitions
    )
    judgments = app.topic(
        kafka.judgments_topic,
        value_type=bytes,
        key_type=bytes,
        partitions=kafka.partitions,
        compacting=True,
    )
    dlq = app.topic(kafka.dlq_topic, value_type=bytes, key_type=bytes, partitions=kafka.partitions)
    # No default: a read must never write (it would land in whatever partition the
    # stream happens to be on).
    processed = app.Table(
        f"{cfg.group}-processed", partitions=kafka.partitions, key_type=str, value_type=int
    )

    golden = load_golden(settings.golden)
    registry = CollectorRegistry()
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    metrics = MonitorMetrics(registry, golden, gate_kind=settings.gate, judge_name=settings.judge)
    stream_metrics = StreamMetrics.create(registry)
    evaluator = build_components(settings, golden).evaluator
    progress = Progress()
    reader = RangeReader(kafka)
    delivery = Delivery(
        topics=Topics(kafka.traces_topic, kafka.judgments_topic, kafka.dlq_topic),
        worker=worker_name,
        sender=_FaustSender(app),
        watermarks=_TableWatermarks(processed),
        reader=reader,
        evaluate=evaluator.evaluate_batch,
        metrics=metrics,
        stream_metrics=stream_metrics,
        progress=progress,
        retry=cfg.retry(),
        parse=functools.partial(parse_trace, limits=settings.limits()),
        redactor=make_redactor(settings.redact, settings.redact_salt),
        mask=SecretMask([settings.judge_api_key, settings.redact_salt, kafka.sasl_password])
        or None,
    )
    app.cargo_registry = registry  # for tests: the worker's metrics
    otlp = _otlp_delivery(cfg, delivery, registry, max_record_bytes=settings.max_payload_bytes)
    app.cargo_otlp = otlp  # for tests: the OpenTelemetry side (None for native input)

    @app.task  # type: ignore[untyped-decorator]
    async def declare_outputs() -> None:
        # The outputs are written with the producer directly: declare them (create
        # when missing, the judgments topic compacted) before the first send.
        await judgments.maybe_declare()
        await dlq.maybe_declare()
        freeze_startup_heap()  # the app, its clients and the model are loaded by now

    @app.task  # type: ignore[untyped-decorator]
    async def quiet_client_retries() -> None:
        # The worker's log handlers exist once it runs (the Faust worker sets them up).
        install_repeat_filter(cfg.repeated_log_window_s)

    @app.task  # type: ignore[untyped-decorator]
    async def serve_metrics() -> None:
        if cfg.metrics_port:
            url = start_metrics(
                registry,
                host=settings.metrics_host,
                port=cfg.metrics_port,
                certfile=settings.metrics_tls_cert,
                keyfile=settings.metrics_tls_key,
            )
            log.info("metrics on %s", url)

    @app.timer(interval=cfg.progress_interval_s)  # type: ignore[untyped-decorator]
    async def watch() -> None:
        try:
            await watch_progress(
                app,
                kafka.traces_topic,
                cfg.stall_after_s,
                progress,
                stream_metrics,
                agent_alive=lambda: state.crashed is None,
                reading_back=lambda: delivery.reading_back,
            )
        except Exception:  # the watch must outlive what it watches
            log.exception("progress watch failed; trying again in %.0fs", cfg.progress_interval_s)

    if otlp is not None:

        @app.timer(interval=cfg.otel_tick_s)  # type: ignore[untyped-decorator]
        async def judge_ready_traces() -> None:
            assert otlp is not None
            try:
                await otlp.tick()
            except Exception as exc:  # like the agent: never alive without judging
                state.agent_crashed(exc)

    @app.on_partitions_revoked.connect  # type: ignore[untyped-decorator]
    async def forget_revoked(_app: Any, revoked: Any, **_kw: Any) -> None:
        for tp in revoked:
            delivery.forget(tp.topic, tp.partition)
            if otlp is not None:
                otlp.forget(tp.topic, tp.partition)
        ours = [tp.partition for tp in revoked if tp.topic == kafka.traces_topic]
        forget_partitions(progress, stream_metrics, kafka.traces_topic, ours)

    def batch_done(task: asyncio.Task[None]) -> None:
        progress.batch_done(task)
        # At once, not when the agent next looks at its batches: with no new input
        # that could be never.
        if not task.cancelled() and task.exception() is not None:
            state.agent_crashed(task.exception())  # type: ignore[arg-type]

    @app.agent(traces)  # type: ignore[untyped-decorator]
    async def evaluate(stream: Any) -> None:
        # An extra reference per message (incref) that only the batch's ack releases:
        # take_events would ack a batch as soon as the loop asks for the next one.
        pending: deque[asyncio.Task[None]] = deque()
        prev: asyncio.Task[None] | None = None
        try:
            async for taken in stream.take_events(cfg.batch_size, within=cfg.batch_within_s):
                events = list(taken)
                for ev in events:
                    ev.message.incref()
                if otlp is not None:
                    # Spans: a record is acknowledged when its traces are judged.
                    await otlp.take(
                        [InputRecord.of(ev.message) for ev in events],
                        [functools.partial(stream.ack, ev) for ev in events],
                    )
                    continue
                records = await delivery.admit([InputRecord.of(ev.message) for ev in events])
                anchors = {f"{ev.message.topic}:{ev.message.partition}": ev for ev in events}

                async def ack(events: list[Any] = events) -> None:
                    for ev in events:
                        await stream.ack(ev)

                prev = asyncio.create_task(delivery.handle(records, anchors, prev, ack))
                progress.inflight += 1
                prev.add_done_callback(batch_done)
                pending.append(prev)
                while len(pending) >= cfg.pipeline_depth:
                    await pending.popleft()
                while pending and pending[0].done():
                    await pending.popleft()
            while pending:
                await pending.popleft()
        except Exception as exc:
            # Faust would log it and start a fresh agent on a stream whose taken events
            # are never acknowledged: a live worker that judges nothing. Stop instead.
            state.agent_crashed(exc)
            raise
        finally:
            for task in pending:
                task.cancel()
            await reader.close()
            if otlp is not None:  # its queued OTLP/HTTP events: a bounded drain
                await otlp.aclose(drain_s=cfg.otel_http_drain_s)

    return app


def _otlp_delivery(
    cfg: StreamConfig, delivery: Delivery, registry: Any, *, max_record_bytes: int
) -> OtlpDelivery | None:
    """The OpenTelemetry side of the worker, or ``None`` for native trace input. A record
    over ``max_record_bytes`` (``--max-payload-bytes``) is ``too_large``, as a native
    message is."""
    otel = cfg.otel
    if otel.input_format == "cargo":
        return None
    from pipelines.kafka.otlp import EventsOut, OtlpDelivery
    from pipelines.otel.export import OtlpHttpLogs
    from pipelines.otel.ingest import OtlpIngest
    from pipelines.otel.mapping import load_mapping
    from pipelines.otel.metrics import OtelMetrics

    ingest = OtlpIngest(
        mapping=load_mapping(otel.otel_mapping),
        quiet_period_s=otel.otel_quiet_period_s,
        max_wait_s=otel.otel_max_wait_s,
        max_open_traces=otel.otel_max_open_traces,
        max_closed_traces=otel.otel_max_closed_traces,
        max_record_bytes=max_record_bytes,
    )
    http = (
        OtlpHttpLogs(otel.otlp_endpoint, timeout_s=otel.otlp_timeout_s)
        if otel.otlp_endpoint
        else None
    )
    events = EventsOut(cfg.otel_kafka.otel_events_topic, cfg.otel_kafka.otel_events_encoding, http)
    return OtlpDelivery(
        delivery=delivery,
        ingest=ingest,
        input_format=otel.input_format,
        metrics=OtelMetrics(registry),
        events=events,
    )


def _check_metrics_port(host: str, port: int) -> None:
    # Before Faust starts: a busy port would crash the worker after it joined the group.
    with socket.socket() as probe:
        # As the metrics server does: a port in TIME_WAIT is free to reuse.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise ConfigError(
                f"cannot serve /metrics on {host}:{port}: "
                f"{exc.strerror}; give each worker its own --metrics-port"
            ) from exc


def run_worker(cfg: StreamConfig, settings: CargoSettings, loglevel: str = "warning") -> int:
    """Run the worker until it is stopped: 0 after a signal, 1 when its agent crashed."""
    from faust import Worker

    if not 0.001 <= cfg.fetch_max_wait_s <= 30:
        raise ConfigError(
            f"fetch max wait {cfg.fetch_max_wait_s}s is outside 0.001-30 s "
            "(0 would make the broker answer every fetch at once: a busy loop)"
        )
    if cfg.metrics_port:
        _check_metrics_port(settings.metrics_host, cfg.metrics_port)
        check_metrics_tls(settings.metrics_tls_cert, settings.metrics_tls_key)
    make_redactor(settings.redact, settings.redact_salt)  # a missing salt: exit 2 now
    kafka = cfg.kafka
    # Missing topics up front, with the configured partitions (judgments compacted).
    topics = kafka.topics()
    if cfg.otel_kafka.otel_events_topic:
        topics[cfg.otel_kafka.otel_events_topic] = kafka.partitions
    if cfg.otel.input_format != "cargo":
        load_mapping(cfg.otel.otel_mapping)  # a bad mapping file: exit 2 now, naming the key
    created = ensure_topics(kafka, topics, compact={kafka.judgments_topic})
    if created:
        log.warning("created topics: %s", ", ".join(created))
    state = WorkerState()
    app = build_app(cfg, settings, state)
    worker = Worker(app, loglevel=loglevel, quiet=True)
    state.stop = worker._on_sigterm  # the same orderly stop as SIGTERM
    # Faust's terminal spinner sets the root logger to DEBUG, which makes aiokafka build
    # a record per message sent (about 4% of the loop, measured); a worker has no tty.
    worker.spinner = None
    try:
        worker.execute_from_commandline()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    else:  # pragma: no cover - execute_from_commandline always exits
        code = 0
    if state.crashed is not None:
        return EXIT_AGENT_CRASHED
    return code
