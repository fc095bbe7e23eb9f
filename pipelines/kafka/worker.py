"""``cargo-monitor stream``: the Faust worker on a real Kafka broker.

One agent reads the traces topic in batches (``take_events``), evaluates them
with the core :class:`~monitor.evaluator.Evaluator`, writes one judgment per
trace to the judgments topic (key = trace id) and every undecodable or invalid
message to the dead-letter topic (original bytes, reason, topic/partition/
offset). Events are acknowledged only after their judgment or DLQ record has
been delivered (the Kafka producer's delivery futures are awaited) and the
partition watermark below is in Kafka (flushed), so delivery is at-least-once;
records the consumer skipped are read back and judged (``RangeReader``).
Batches are pipelined (``pipeline_depth``): the next batch is embedded and
judged while the previous one is delivered, but delivery, watermark and
acknowledgement stay in input order, and every message holds an
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
import threading
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from monitor.errors import ConfigError, InvalidTraceError
from monitor.golden import load_golden
from monitor.metrics import MonitorMetrics
from monitor.schemas import Judgment, SourceLocation
from monitor.settings import CargoSettings
from monitor.traces import RawTrace, parse_trace, trace_id_hint
from pipelines.components import build_components, freeze_startup_heap

log = logging.getLogger("cargo.stream")

TRANSIENT_KINDS = frozenset({"timeout", "rate_limit", "connection", "http"})
# Longest a stopping worker waits for its producer's last deliveries and for its final
# offset commit (a live broker answers in milliseconds; together they must leave room
# in a grace period such as Kubernetes' 30 s for the rest of the shutdown).
STOP_FLUSH_TIMEOUT_S = 5.0
STOP_COMMIT_TIMEOUT_S = 10.0


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
    # delivering batch k; 1 processes one batch at a time. 4: the model threads
    # always have a queued batch (at 2 they waited between batches; measured).
    pipeline_depth: int = 4
    # A judge outage: judge the transiently failed traces of a batch again (the batch
    # is not acknowledged meanwhile, which is the backpressure) with exponential
    # backoff before recording judge errors.
    outage_retries: int = 5
    outage_backoff_s: float = 1.0
    outage_backoff_max_s: float = 30.0
    # Progress watch: every interval, per assigned input partition, the lag
    # (end offset minus the next offset to judge) goes to a gauge; a partition
    # with lag that has not advanced for stall_after_s is logged with the
    # consumer's view of it (position, committed, paused/active) and counted.
    progress_interval_s: float = 10.0
    stall_after_s: float = 120.0
    # Output batching: a batch's judgments are sent together, so the producer waits
    # 5 ms for the rest of them and allows 256 KiB per partition batch (a judgment
    # is 2-3 KB; with Kafka's 0 ms and 16 KiB they went out in several smaller
    # produce requests). Measured: about a quarter less broker CPU per trace. The
    # watermark flush sends at once regardless.
    producer_linger_s: float = 0.005
    producer_batch_bytes: int = 256 * 1024
    # How long the broker may hold a fetch that finds no new records. The consumer
    # has one fetch in flight per broker, and it leaves out partitions whose last
    # records are still being handed over, so a fetch can hold only idle
    # partitions while records queue on the busy ones: they wait this long. Faust
    # fixes it at 1.5 s; measured at 190 traces/s on 4 partitions: latency p50
    # 1.1 s and max 1.8 s in every 2 s window (fetches of the idle partition alone
    # taking 1,502 ms), against p50 0.13 s and max 0.25 s with 0.1 s. An idle
    # worker costs one empty fetch per interval.
    fetch_max_wait_s: float = 0.1
    # A Kafka client message repeated within this window is logged once, and then
    # once per window with the count of those left out (see RepeatedLogFilter).
    repeated_log_window_s: float = 30.0
    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: str | None = None
    sasl_username: str | None = None
    sasl_password: str | None = None
    ssl_cafile: str | None = None
    data_dir: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def dead_letter(
    raw: bytes, exc: InvalidTraceError, *, topic: str, partition: int, offset: int, worker: str
) -> dict[str, Any]:
    """The DLQ record: everything needed to find, understand and replay the message."""
    try:
        text: str | None = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    return {
        "reason": exc.reason,
        "field": exc.field,
        "detail": exc.detail,
        "topic": topic,
        "partition": partition,
        "offset": offset,
        "trace_id": trace_id_hint(raw),
        "original_base64": base64.b64encode(raw).decode("ascii"),
        "original_text": text,
        "worker": worker,
        "dead_lettered_at": datetime.now(UTC).isoformat(),
    }


def _credentials(cfg: StreamConfig) -> Any:
    import faust

    if cfg.security_protocol.upper().startswith("SASL"):
        ssl_context = None
        if cfg.security_protocol.upper() == "SASL_SSL":
            import ssl

            ssl_context = ssl.create_default_context(cafile=cfg.ssl_cafile)
        return faust.SASLCredentials(
            username=cfg.sasl_username,
            password=cfg.sasl_password,
            mechanism=cfg.sasl_mechanism or "PLAIN",
            ssl_context=ssl_context,
        )
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
        Gauge,
        PlatformCollector,
        ProcessCollector,
        start_http_server,
    )

    worker_name = f"{socket.gethostname()}:{os.getpid()}"
    app: faust.App = _app_class()(
        cfg.group,
        broker=[f"kafka://{b.strip()}" for b in cfg.bootstrap.split(",")],
        broker_credentials=_credentials(cfg),
        value_serializer="raw",
        key_serializer="raw",
        topic_partitions=cfg.partitions,
        topic_replication_factor=cfg.replication,
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
        # No leader-election topic: nothing here runs on_leader, and its single
        # partition never gets a record, so fetching it only held the fetch above.
        topic_disable_leader=True,
        **cfg.extra,
    )
    app.transport = _kafka_transport(round(cfg.fetch_max_wait_s * 1000))(
        app.conf.broker_consumer, app
    )
    traces = app.topic(
        cfg.traces_topic, value_type=bytes, key_type=bytes, partitions=cfg.partitions
    )
    judgments = app.topic(
        cfg.judgments_topic,
        value_type=bytes,
        key_type=bytes,
        partitions=cfg.partitions,
        compacting=True,
    )
    dlq = app.topic(cfg.dlq_topic, value_type=bytes, key_type=bytes, partitions=cfg.partitions)
    # No default: a read must never write (a defaultdict-style write would land
    # in whatever partition the stream happens to be on).
    processed = app.Table(
        f"{cfg.group}-processed", partitions=cfg.partitions, key_type=str, value_type=int
    )

    golden = load_golden(settings.golden)
    registry = CollectorRegistry()
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    metrics = MonitorMetrics(registry, golden, gate_kind=settings.gate, judge_name=settings.judge)
    duplicates = Counter(
        "cargo_duplicates_skipped",
        "Redelivered messages skipped (already judged before a rebalance or restart).",
        registry=registry,
    )
    retries = Counter(
        "cargo_judge_outage_retries",
        "Batches retried because of a judge outage (backpressure).",
        registry=registry,
    )
    lag_gauge = Gauge(
        "cargo_stream_partition_lag",
        "Input messages of an assigned traces "
        "partition not yet judged by this worker (end offset minus the next "
        "offset to judge).",
        ["partition"],
        registry=registry,
    )
    gaps = Counter(
        "cargo_stream_gaps",
        "Times the Kafka consumer skipped input offsets "
        "(a message above the next expected offset); the skipped records are "
        "read back and judged.",
        registry=registry,
    )
    repaired = Counter(
        "cargo_stream_gap_records",
        "Input records read back and judged because the consumer had skipped them.",
        registry=registry,
    )
    stalls = Counter(
        "cargo_stream_stalls",
        "Times an assigned traces partition with lag made no progress for the stall window.",
        registry=registry,
    )
    evaluator = build_components(settings, golden).evaluator
    progress = _Progress()

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
            start_http_server(cfg.metrics_port, addr=settings.metrics_host, registry=registry)
            log.info("metrics on http://%s:%s/metrics", settings.metrics_host, cfg.metrics_port)

    @app.timer(interval=cfg.progress_interval_s)  # type: ignore[untyped-decorator]
    async def watch_progress() -> None:
        await _watch_progress(app, cfg, progress, lag_gauge, stalls)

    async def judge_batch(raws: Sequence[RawTrace]) -> list[Judgment]:
        delay = cfg.outage_backoff_s
        out = await evaluator.evaluate_batch(raws)
        for attempt in range(cfg.outage_retries + 1):
            # Only the traces that failed transiently are judged again: the others
            # already have their judgment (and an LLM call is not free).
            transient = [
                k
                for k, j in enumerate(out)
                if j.status == "judge_error" and j.error and j.error.kind in TRANSIENT_KINDS
            ]
            if not transient or attempt == cfg.outage_retries:
                return out
            retries.inc()
            log.warning(
                "judge outage (%d transient errors), retrying them in %.1fs", len(transient), delay
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, cfg.outage_backoff_max_s)
            again = await evaluator.evaluate_batch([raws[k] for k in transient])
            for k, j in zip(transient, again, strict=True):
                out[k] = j
        return out  # pragma: no cover

    # Next input offset this worker expects per traces partition (in memory; from
    # the watermark table when the partition is new to it). A message above it
    # means the consumer skipped records; one below it was already taken.
    expected: dict[tuple[str, int], int] = {}
    reader = RangeReader(cfg)

    @app.on_partitions_revoked.connect  # type: ignore[arg-type]
    async def forget_revoked(_app: Any, revoked: Any, **_kw: Any) -> None:
        for tp in revoked:
            expected.pop((tp.topic, tp.partition), None)

    async def admit(events: list[Any]) -> list[InputRecord]:
        """The records to judge for a batch of events, in order: redelivered ones
        dropped, and any offsets the consumer skipped read back from Kafka first."""
        out: list[InputRecord] = []
        for ev in events:
            msg = ev.message
            key = (msg.topic, msg.partition)
            nxt = expected.get(key)
            if nxt is None:
                mark = processed.get(f"{msg.topic}:{msg.partition}")
                nxt = None if mark is None else mark + 1
            if nxt is not None and msg.offset < nxt:
                duplicates.inc()
                continue
            if nxt is not None and msg.offset > nxt:
                missing = await reader.read(msg.topic, msg.partition, nxt, msg.offset)
                gaps.inc()
                repaired.inc(len(missing))
                log.warning(
                    "partition %s:%d: the consumer skipped offsets %d..%d; read "
                    "back %d record(s) to judge them",
                    msg.topic,
                    msg.partition,
                    nxt,
                    msg.offset - 1,
                    len(missing),
                )
                out.extend(missing)
            out.append(InputRecord.of(msg))
            expected[key] = msg.offset + 1
        return out

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
            async for events in stream.take_events(cfg.batch_size, within=cfg.batch_within_s):
                for ev in events:
                    ev.message.incref()
                records = await admit(list(events))
                prev = asyncio.create_task(handle(stream, records, list(events), prev))
                progress.inflight += 1
                prev.add_done_callback(progress.batch_done)
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
            await reader.close()

    async def handle(
        stream: Any, records: list[InputRecord], events: list[Any], prev: asyncio.Task[None] | None
    ) -> None:
        fresh, sends = [], []
        for rec in records:
            loc = SourceLocation(topic=rec.topic, partition=rec.partition, offset=rec.offset)
            try:
                trace = parse_trace(rec.value)
            except InvalidTraceError as exc:
                record = dead_letter(
                    rec.value,
                    exc,
                    topic=rec.topic,
                    partition=rec.partition,
                    offset=rec.offset,
                    worker=worker_name,
                )
                sends.append(
                    await app.producer.send(
                        cfg.dlq_topic,
                        f"{rec.topic}:{rec.partition}:{rec.offset}".encode(),
                        json.dumps(record).encode(),
                        None,
                        None,
                        None,
                    )
                )
                metrics.traces.labels(status="invalid").inc()
                metrics.invalid.labels(reason=exc.reason).inc()
                continue
            fresh.append(RawTrace(trace, loc))  # parsed once: the evaluator takes it as is
        out = await judge_batch(fresh) if fresh else []
        if prev is not None:
            await prev  # finalise in input order (watermarks must not overtake)
        for j in out:
            # Straight to the Kafka producer: its future resolves when the broker
            # has the record (acks=all). Faust's Topic.send would "attach" the
            # message to the current event and publish it only at commit time
            # (which a SIGKILL can lose), or with force=True resolve when queued;
            # it also costs more CPU per message.
            sends.append(
                await app.producer.send(
                    cfg.judgments_topic,
                    (j.trace_id or "").encode(),
                    j.model_dump_json().encode(),
                    None,
                    None,
                    None,
                )
            )
            metrics.observe(j)
        # At-least-once: nothing is acknowledged, and no watermark written,
        # before its output is delivered.
        if sends:
            await asyncio.gather(*sends)
        # One watermark per input partition and batch: its highest offset, written
        # in the context of an event of that partition, so that the mark lives in
        # the changelog partition of the input partition it describes.
        top: dict[str, int] = {}
        for rec in records:
            mark_key = f"{rec.topic}:{rec.partition}"
            top[mark_key] = max(rec.offset, top.get(mark_key, -1))
        anchor = {f"{ev.message.topic}:{ev.message.partition}": ev for ev in events}
        marked = False
        for mark_key, offset in top.items():
            if offset > processed.get(mark_key, -1):
                token = _current_event.set(weakref.ref(anchor[mark_key]))
                try:
                    processed[mark_key] = offset
                    marked = True
                finally:
                    _current_event.reset(token)
        if marked:
            # The mark must be in Kafka before the offsets are acknowledged: Faust
            # queues table writes (send_soon) and may commit offsets first, and a
            # worker killed in between leaves a committed offset above its mark
            # (the next owner then reads back and re-judges that range).
            await _flush_all(app.producer)
        now = time.monotonic()
        for rec in records:
            if rec.topic == cfg.traces_topic and rec.offset > progress.done.get(rec.partition, -1):
                progress.done[rec.partition] = rec.offset
                progress.moved[rec.partition] = now
        for ev in events:
            await stream.ack(ev)  # releases the reference taken before the next batch

    return app


async def _bounded(step: Awaitable[None], timeout_s: float, what: str, consequence: str) -> None:
    """A shutdown step that waits on the broker, given at most ``timeout_s``."""
    try:
        await asyncio.wait_for(step, timeout=timeout_s)
    except TimeoutError:
        log.warning(
            "%s within %.0f s on stop (broker unreachable?); %s", what, timeout_s, consequence
        )


def _app_class() -> Any:
    import faust

    class App(faust.App):
        async def _producer_flush(self, logger: Any) -> None:
            # On stop Faust flushes the producer; with the broker gone that waits for
            # the request timeout (20 min). Bounded: what is not delivered was never
            # acknowledged (its input is read again by the next owner of the
            # partition), and a watermark not written only means a re-judgment.
            await _bounded(
                super()._producer_flush(logger),
                STOP_FLUSH_TIMEOUT_S,
                "producer not flushed",
                "unacknowledged input is read again by the next owner",
            )

    return App


def _kafka_transport(fetch_max_wait_ms: int) -> Any:
    """Faust's aiokafka transport with the worker consumer's fetch wait set (Faust
    passes a fixed 1,500 ms to aiokafka; see ``StreamConfig.fetch_max_wait_s``)."""
    from faust.transport.drivers import aiokafka as driver

    class ConsumerThread(driver.AIOKafkaConsumerThread):
        def _create_worker_consumer(self, transport: Any) -> Any:
            consumer = super()._create_worker_consumer(transport)
            # Read once, when the consumer starts its fetcher (after this).
            consumer._fetch_max_wait_ms = fetch_max_wait_ms
            return consumer

        async def on_thread_stop(self) -> None:
            # With the broker gone, a fetch waits out its retry backoff; stopping the
            # consumer cancels it and aiokafka's fetcher re-raises that cancellation
            # from close(). It then escaped the consumer thread's shutdown, which
            # never signalled the worker that it was done: SIGTERM hung (measured:
            # still running 60 s after it). A cancellation that is not our own is
            # that one: finish closing the client and let the shutdown go on.
            try:
                await super().on_thread_stop()
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise
                log.warning(
                    "consumer stopped while a fetch waited to retry (broker "
                    "unreachable); closing its connections"
                )
                client = getattr(self._consumer, "_client", None)
                if client is not None:
                    await client.close()

    class Consumer(driver.Consumer):
        def _new_consumer_thread(self) -> Any:
            return ConsumerThread(self, loop=self.loop, beacon=self.beacon)

        async def on_stop(self) -> None:
            # Faust commits the acknowledged offsets here, and the commit waits for the
            # group coordinator: with the broker gone a worker hung right after
            # "Consumer: Stopping..." (seen once, in a CI run). Bounded: an offset not
            # committed is read again by the partition's next owner, which skips what
            # this worker delivered (the watermark table).
            await _bounded(
                super().on_stop(),
                STOP_COMMIT_TIMEOUT_S,
                "final offset commit not done",
                "stopping without it: the next "
                "owner of those partitions reads them again from the last commit",
            )

    class Producer(driver.Producer):
        async def on_stop(self) -> None:
            # Stopping the Kafka producer first delivers what it holds: with the broker
            # gone, for the request timeout. Bounded, as the app's flush above.
            await _bounded(
                super().on_stop(),
                STOP_FLUSH_TIMEOUT_S,
                "producer not stopped",
                "its undelivered records were never acknowledged",
            )

    class Transport(driver.Transport):
        pass

    Transport.Consumer = Consumer
    Transport.Producer = Producer
    return Transport


class RepeatedLogFilter(logging.Filter):
    """Kafka client messages (loggers ``aiokafka*``, ``kafka*``) repeated within
    ``window_s`` are logged once, then once per window with the number left out.

    While a broker is unreachable the clients log an error per retry (measured:
    about ten lines a second, 36,000 an hour); the first line says what is wrong,
    and the counts say that it goes on. Messages are the same when their format
    string is (the arguments, such as the error text, may differ). Thread-safe:
    Faust's consumer logs from its own thread.
    """

    PREFIXES = ("aiokafka", "kafka")
    MAX_KEYS = 1000

    def __init__(self, window_s: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window_s = window_s
        self.clock = clock
        self._seen: dict[tuple[str, int, str], tuple[float, int]] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith(self.PREFIXES):
            return True
        # One decision per record: the same filter sits on every handler.
        decided: bool | None = getattr(record, "_cargo_repeat_shown", None)
        if decided is None:
            decided = self._decide(record)
            record._cargo_repeat_shown = decided
        return decided

    def _decide(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        with self._lock:
            shown = self._seen.get(key)
            if shown is not None and now - shown[0] < self.window_s:
                self._seen[key] = (shown[0], shown[1] + 1)
                return False
            if len(self._seen) >= self.MAX_KEYS:
                self._seen = {k: v for k, v in self._seen.items() if now - v[0] < self.window_s}
            self._seen[key] = (now, 0)
        if shown is not None and shown[1]:
            record.msg = (
                f"{record.msg} [and {shown[1]} more like it in the {now - shown[0]:.0f} s before]"
            )
        return True


def install_repeat_filter(window_s: float) -> RepeatedLogFilter | None:
    """Adds one :class:`RepeatedLogFilter` to every handler of the root logger
    (none when ``window_s`` is 0)."""
    if window_s <= 0:
        return None
    shared = RepeatedLogFilter(window_s)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RepeatedLogFilter) for f in handler.filters):
            handler.addFilter(shared)
    return shared


async def _flush_all(producer: Any) -> None:
    """Deliver everything queued: Faust's send_soon buffer (table writes), then the
    Kafka producer's in-flight batches. ``Producer.flush`` alone can return with
    the buffer not yet empty (it gives up waiting after 0.1 s per message)."""
    while producer.buffer.size:
        await producer.buffer.flush()
    await producer.flush()


@dataclass(frozen=True)
class InputRecord:
    """One input message: where it is and its bytes."""

    topic: str
    partition: int
    offset: int
    value: bytes

    @classmethod
    def of(cls, msg: Any) -> InputRecord:
        raw = msg.value if isinstance(msg.value, bytes) else bytes(msg.value or b"")
        return cls(msg.topic, msg.partition, msg.offset, raw)


class RangeReader:
    """Reads an offset range of one partition straight from Kafka, outside the group.

    The safety net under at-least-once: Faust's consumer can skip a record around a
    partition assignment (seen here: the first record at the committed offset after
    a restart) and its commit logic then commits past it. The worker notices the
    hole (a message above the next expected offset) and reads the missing range
    back with this reader before it judges the message. Kafka errors are retried
    with backoff for as long as it takes (the batch waits): never skip.
    """

    def __init__(self, cfg: StreamConfig, retry_s: float = 1.0, retry_max_s: float = 30.0) -> None:
        self.cfg = cfg
        self.retry_s = retry_s
        self.retry_max_s = retry_max_s
        self._consumer: Any = None

    async def _ensure(self) -> Any:
        if self._consumer is None:
            from aiokafka import AIOKafkaConsumer  # type: ignore[import-untyped]

            cfg = self.cfg
            opts: dict[str, Any] = {"security_protocol": cfg.security_protocol.upper()}
            if cfg.security_protocol.upper().startswith("SASL"):
                opts |= {
                    "sasl_mechanism": cfg.sasl_mechanism or "PLAIN",
                    "sasl_plain_username": cfg.sasl_username,
                    "sasl_plain_password": cfg.sasl_password,
                }
            if cfg.security_protocol.upper() in ("SSL", "SASL_SSL"):
                import ssl

                opts["ssl_context"] = ssl.create_default_context(cafile=cfg.ssl_cafile)
            consumer = AIOKafkaConsumer(
                bootstrap_servers=cfg.bootstrap,
                group_id=None,
                enable_auto_commit=False,
                auto_offset_reset="earliest",
                **opts,
            )
            await consumer.start()
            self._consumer = consumer
        return self._consumer

    async def read(self, topic: str, partition: int, start: int, stop: int) -> list[InputRecord]:
        """Records with start <= offset < stop (offsets without a record -- transaction
        markers, compacted or expired records -- are simply absent)."""
        delay = self.retry_s
        while True:
            try:
                return await self._read(topic, partition, start, stop)
            except Exception as exc:  # Kafka unavailable: wait, never skip
                log.warning(
                    "reading back %s:%d offsets %d..%d failed (%s); retrying in %.0fs",
                    topic,
                    partition,
                    start,
                    stop - 1,
                    exc,
                    delay,
                )
                await self.close()
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.retry_max_s)

    async def _read(self, topic: str, partition: int, start: int, stop: int) -> list[InputRecord]:
        from aiokafka import TopicPartition

        consumer = await self._ensure()
        tp = TopicPartition(topic, partition)
        consumer.assign([tp])
        consumer.seek(tp, start)
        out: list[InputRecord] = []
        while await consumer.position(tp) < stop:
            batch = await consumer.getmany(tp, timeout_ms=1000)
            for rec in batch.get(tp, []):
                if start <= rec.offset < stop:
                    out.append(InputRecord(topic, partition, rec.offset, rec.value or b""))
        return out

    async def close(self) -> None:
        consumer, self._consumer = self._consumer, None
        if consumer is not None:
            await consumer.stop()


@dataclass
class _Progress:
    """Per input partition: the highest offset finalised here and when it last moved."""

    done: dict[int, int] = field(default_factory=dict)
    moved: dict[int, float] = field(default_factory=dict)
    inflight: int = 0

    def batch_done(self, _task: asyncio.Task[None]) -> None:
        self.inflight -= 1


async def _watch_progress(
    app: Any,
    cfg: StreamConfig,
    progress: _Progress,
    lag_gauge: Any,
    stalls: Any,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """One round of the progress watch (see ``StreamConfig.progress_interval_s``)."""
    done, moved = progress.done, progress.moved
    consumer = app.consumer
    tps = sorted(
        (tp for tp in consumer.assignment() if tp.topic == cfg.traces_topic),
        key=lambda tp: tp.partition,
    )
    if not tps:
        return
    try:
        # A round trip through the consumer's thread; bounded, so that a wedged
        # consumer cannot wedge the watch too (then the fetcher's cached marks).
        ends = await asyncio.wait_for(consumer.highwaters(*tps), timeout=5.0)
    except Exception as exc:  # timeout included
        log.warning(
            "progress watch: end offsets not available (%s); using cached ones", type(exc).__name__
        )
        ends = {tp: consumer.highwater(tp) for tp in tps}
    now = clock()
    for tp in tps:
        committed = consumer._committed_offset.get(tp)  # next offset to read, or None
        nxt = max(done.get(tp.partition, -1) + 1, committed or 0)
        end = ends.get(tp)
        if end is None:
            continue
        lag = max(0, end - nxt)
        lag_gauge.labels(partition=str(tp.partition)).set(lag)
        since = moved.setdefault(tp.partition, now)
        if lag == 0:
            moved[tp.partition] = now
            continue
        log.info("progress %s:%d next %d end %d lag %d", tp.topic, tp.partition, nxt, end, lag)
        if now - since >= cfg.stall_after_s:
            stalls.inc()
            moved[tp.partition] = now  # one report per stall window
            try:
                position = await asyncio.wait_for(consumer.position(tp), timeout=5.0)
            except Exception:  # timeout included
                position = "unknown"
            log.warning(
                "partition %s:%d stalled: lag %d, no progress for %.0fs; consumer position "
                "%s, committed %s, read offset %s, active %s, paused %s, buffered %s, flow "
                "active %s, flow control active %s, batches in flight %d",
                tp.topic,
                tp.partition,
                lag,
                now - since,
                position,
                committed,
                consumer._read_offset.get(tp),
                tp in (consumer._active_partitions or ()),
                tp in consumer._paused_partitions,
                tp in consumer._buffered_partitions,
                consumer.flow_active,
                app.flow_control.is_active(),
                progress.inflight,
            )


def run_worker(cfg: StreamConfig, settings: CargoSettings, loglevel: str = "warning") -> int:
    from faust import Worker

    from pipelines.kafka.replay import ensure_topics

    if not 0.001 <= cfg.fetch_max_wait_s <= 30:
        raise ConfigError(
            f"fetch max wait {cfg.fetch_max_wait_s}s is outside 0.001-30 s "
            "(0 would make the broker answer every fetch at once: a busy loop)"
        )
    if cfg.metrics_port:
        # Checked before Faust starts: a busy port would otherwise crash the worker
        # after it joined the group, with a traceback.
        with socket.socket() as probe:
            # As the metrics server does: a port left in TIME_WAIT by a worker that
            # just died (SIGKILL, restart) is free to reuse; a live listener is not.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((settings.metrics_host, cfg.metrics_port))
            except OSError as exc:
                raise ConfigError(
                    f"cannot serve /metrics on {settings.metrics_host}:{cfg.metrics_port}: "
                    f"{exc.strerror}; give each worker its own --metrics-port"
                ) from exc
    if cfg.security_protocol == "PLAINTEXT":
        # Missing topics are created up front with the configured partition count
        # (the judgments topic log-compacted: one judgment per trace id).
        created = ensure_topics(
            cfg.bootstrap,
            {
                cfg.traces_topic: cfg.partitions,
                cfg.judgments_topic: cfg.partitions,
                cfg.dlq_topic: cfg.partitions,
            },
            compact={cfg.judgments_topic},
            replication=cfg.replication,
        )
        if created:
            log.warning("created topics: %s", ", ".join(created))
    app = build_app(cfg, settings)
    worker = Worker(app, loglevel=loglevel, quiet=True)
    # Faust's terminal spinner sets the root logger to DEBUG (so that every record
    # turns it), which makes aiokafka build a log record for every message sent;
    # a worker has no terminal to spin. Measured: about 4% of the event loop.
    worker.spinner = None
    worker.execute_from_commandline()
    return 0
