"""Pieces of the stream app that need no broker."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from monitor.errors import InvalidTraceError
from monitor.traces import parse_trace
from pipelines.kafka.config import KafkaSettings
from pipelines.kafka.delivery import Progress, dead_letter
from pipelines.kafka.metrics import StreamMetrics
from pipelines.kafka.progress import forget_partitions, stall_cause, watch_progress
from pipelines.kafka.replay import message_key
from pipelines.kafka.worker import StreamConfig, build_app

LOCAL = KafkaSettings(bootstrap="127.0.0.1:1")


def test_dead_letter_record_keeps_original_bytes_and_position() -> None:
    raw = b'{"trace_id": "t-9", "question": 42, "answer": "x"}'
    try:
        parse_trace(raw)
    except InvalidTraceError as exc:
        rec = dead_letter(raw, exc, topic="agent-traces", partition=3, offset=17, worker="w")
    assert rec["reason"] == "wrong_type" and rec["field"] == "question"
    assert (rec["topic"], rec["partition"], rec["offset"]) == ("agent-traces", 3, 17)
    assert base64.b64decode(rec["original_base64"]) == raw
    assert rec["trace_id"] == "t-9"
    json.dumps(rec)  # serialisable


def test_dead_letter_of_non_utf8_bytes() -> None:
    raw = b"\xff\xfe\x00"
    try:
        parse_trace(raw)
    except InvalidTraceError as exc:
        rec = dead_letter(raw, exc, topic="t", partition=0, offset=0, worker="w")
    assert rec["reason"] == "not_utf8" and rec["original_text"] is None
    assert base64.b64decode(rec["original_base64"]) == raw


def test_replay_keys_by_trace_id() -> None:
    assert message_key(b'{"trace_id": "abc"}') == b"abc"
    assert message_key(b"not json") is None
    assert message_key(b'{"question": "q"}') is None
    assert message_key(b"[" * 100_000) is None  # a nesting bomb is sent without a key


class _TP:
    def __init__(self, topic: str, partition: int) -> None:
        self.topic, self.partition = topic, partition

    def __hash__(self) -> int:
        return hash((self.topic, self.partition))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _TP) and (self.topic, self.partition) == (
            other.topic,
            other.partition,
        )


class _Consumer:
    """The parts of Faust's consumer the progress watch reads."""

    def __init__(self, ends: dict[int, int], wedged: bool = False) -> None:
        self.tps = [_TP("agent-traces", p) for p in ends] + [_TP("other", 0)]
        self.ends = ends
        self.wedged = wedged
        self._committed_offset = {tp: 0 for tp in self.tps}
        self._read_offset: dict[object, int] = {}
        self._active_partitions = set(self.tps)
        self._paused_partitions: set[object] = set()
        self._buffered_partitions: set[object] = set()
        self.flow_active = True

    def assignment(self) -> list[_TP]:
        return self.tps

    async def highwaters(self, *tps: _TP) -> dict[_TP, int]:
        if self.wedged:
            import asyncio

            await asyncio.sleep(3600)
        return {tp: self.ends[tp.partition] for tp in tps}

    def highwater(self, tp: _TP) -> int:
        return self.ends[tp.partition]

    async def position(self, tp: _TP) -> int:
        return 0


class _App:
    def __init__(self, consumer: _Consumer) -> None:
        self.consumer = consumer

        class _Flow:
            @staticmethod
            def is_active() -> bool:
                return True

        self.flow_control = _Flow()


def test_progress_watch_sets_lag_and_reports_a_stall_once_per_window(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import asyncio

    from prometheus_client import CollectorRegistry

    reg = CollectorRegistry()
    metrics = StreamMetrics.create(reg)
    progress = Progress(done={0: 9, 1: 4})
    consumer = _Consumer({0: 10, 1: 20})
    app = _App(consumer)
    clock = [1000.0]

    def watch() -> None:
        asyncio.run(
            watch_progress(app, "agent-traces", 30, progress, metrics, clock=lambda: clock[0])
        )

    def stalled(p: str) -> float | None:
        return reg.get_sample_value(
            "cargo_partition_stalled", {"topic": "agent-traces", "partition": p}
        )

    lag = "cargo_stream_partition_lag"
    watch()
    assert reg.get_sample_value(lag, {"partition": "0"}) == 0  # caught up
    assert reg.get_sample_value(lag, {"partition": "1"}) == 15  # 5..19 to judge
    assert reg.get_sample_value("cargo_stream_stalls_total") == 0
    assert stalled("0") == 0 and stalled("1") == 0
    clock[0] += 31  # no progress for 31 s
    with caplog.at_level("WARNING", logger="cargo.stream"):
        watch()
    assert reg.get_sample_value("cargo_stream_stalls_total") == 1
    assert stalled("1") == 1 and stalled("0") == 0
    assert "partition agent-traces:1 stalled: lag 15" in caplog.text
    # The consumer fetched up to position 0 of 20 and nothing is in flight: the cause.
    assert "cause: the consumer is not fetching it (position 0, end 20)" in caplog.text
    assert "agent-traces:0 stalled" not in caplog.text
    clock[0] += 1
    watch()  # same window: counted once, still stalled
    assert reg.get_sample_value("cargo_stream_stalls_total") == 1
    assert stalled("1") == 1
    clock[0] += 31
    watch()  # a second window without progress: counted again
    assert reg.get_sample_value("cargo_stream_stalls_total") == 2
    progress.done[1] = 12  # it moves (still lagging)
    clock[0] += 1
    watch()
    assert stalled("1") == 0
    progress.done[1] = 19  # caught up
    clock[0] += 60
    watch()
    assert reg.get_sample_value(lag, {"partition": "1"}) == 0
    assert reg.get_sample_value("cargo_stream_stalls_total") == 2
    assert stalled("1") == 0
    assert not any(s.labels.get("partition") == "other" for m in reg.collect() for s in m.samples)
    assert not any(s.labels.get("topic") == "other" for m in reg.collect() for s in m.samples)


def test_a_revoked_partition_leaves_no_stale_stall_or_lag_behind() -> None:
    import asyncio

    from prometheus_client import CollectorRegistry

    reg = CollectorRegistry()
    metrics = StreamMetrics.create(reg)
    progress = Progress(done={0: 4, 1: 4})
    app = _App(_Consumer({0: 20, 1: 20}))
    clock = [1000.0]
    for _ in range(2):  # the first round notes the time, the second finds both stalled
        asyncio.run(
            watch_progress(app, "agent-traces", 30, progress, metrics, clock=lambda: clock[0])
        )
        clock[0] += 31

    def stalled(p: str) -> float | None:
        return reg.get_sample_value(
            "cargo_partition_stalled", {"topic": "agent-traces", "partition": p}
        )

    assert stalled("0") == 1 and stalled("1") == 1
    forget_partitions(progress, metrics, "agent-traces", [1])  # partition 1 moved away
    assert stalled("1") is None and stalled("0") == 1
    assert reg.get_sample_value("cargo_stream_partition_lag", {"partition": "1"}) is None
    assert 1 not in progress.stalled and 1 not in progress.moved and 1 not in progress.done
    forget_partitions(progress, metrics, "agent-traces", [1, 7])  # twice, or never set: fine


def test_stall_cause_names_what_the_worker_sees() -> None:
    base = {"position": 5, "end": 9, "paused": False, "flow_active": True, "inflight": 0}
    assert "agent" in stall_cause(**base, agent_alive=False)
    reading = stall_cause(**base, agent_alive=True, reading_back="agent-traces:1 offsets 5..9")
    assert reading == (
        "the worker is reading back agent-traces:1 offsets 5..9 (skipped by the consumer)"
    )
    assert "flow control" in stall_cause(**{**base, "flow_active": False}, agent_alive=True)
    assert "paused" in stall_cause(**{**base, "paused": True}, agent_alive=True)
    assert "2 batch(es) in flight" in stall_cause(**{**base, "inflight": 2}, agent_alive=True)
    assert "fetched but never handed" in stall_cause(**{**base, "position": 9}, agent_alive=True)
    assert stall_cause(**{**base, "position": None}, agent_alive=True) == "unknown"


def test_progress_watch_survives_a_wedged_consumer_thread(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in the SIGKILL investigation: the call into Faust's consumer thread for
    end offsets never returned, and the watch went silent. It now times out and
    falls back to the fetcher's cached end offsets."""
    import asyncio

    from prometheus_client import CollectorRegistry

    real_wait_for = asyncio.wait_for

    async def quick_wait_for(aw, timeout):  # type: ignore[no-untyped-def]
        return await real_wait_for(aw, timeout=0.05)

    monkeypatch.setattr(asyncio, "wait_for", quick_wait_for)
    reg = CollectorRegistry()
    app = _App(_Consumer({0: 7}, wedged=True))
    with caplog.at_level("WARNING", logger="cargo.stream"):
        asyncio.run(watch_progress(app, "agent-traces", 120, Progress(), StreamMetrics.create(reg)))
    assert reg.get_sample_value("cargo_stream_partition_lag", {"partition": "0"}) == 7
    assert "end offsets not available (TimeoutError)" in caplog.text


def test_stream_refuses_a_busy_metrics_port_before_joining(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import socket

    from pipelines.cli import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        rc = main(["stream", "--bootstrap", "127.0.0.1:1", "--metrics-port", str(port)])
    assert rc == 2
    err = capsys.readouterr().err
    assert f"cannot serve /metrics on 127.0.0.1:{port}" in err
    assert "--metrics-port" in err


def test_worker_batches_its_output(tmp_path: Path) -> None:
    # The Faust app (nothing started) sends with the configured linger and batch size:
    # a batch's judgments go out together, not each as soon as it is appended.
    from monitor.settings import CargoSettings

    cfg = StreamConfig(kafka=LOCAL, metrics_port=0, data_dir=str(tmp_path))
    app = build_app(cfg, CargoSettings(embedder="hashing"))
    assert app.conf.producer_linger == pytest.approx(0.005)
    assert app.conf.producer_max_batch_size == 256 * 1024
    assert app.conf.producer_acks == -1
    other = build_app(
        StreamConfig(
            kafka=LOCAL,
            metrics_port=0,
            data_dir=str(tmp_path),
            producer_linger_s=0.02,
            producer_batch_bytes=65536,
        ),
        CargoSettings(embedder="hashing"),
    )
    assert other.conf.producer_linger == pytest.approx(0.02)
    assert other.conf.producer_max_batch_size == 65536


async def test_worker_consumer_fetch_wait_and_no_leader_topic(tmp_path: Path) -> None:
    # The broker may hold a fetch that finds nothing new for fetch_max_wait_s (Faust
    # fixes 1.5 s, which held busy partitions' records behind idle ones), and there
    # is no leader-election topic (an always idle partition in every fetch).
    import inspect

    from aiokafka import AIOKafkaConsumer  # type: ignore[import-untyped]

    from monitor.settings import CargoSettings

    for seconds, ms in ((0.1, 100), (0.25, 250)):
        cfg = StreamConfig(
            kafka=LOCAL,
            metrics_port=0,
            data_dir=str(tmp_path / str(ms)),
            fetch_max_wait_s=seconds,
        )
        app = build_app(cfg, CargoSettings(embedder="hashing"))
        assert app.conf.topic_disable_leader is True
        consumer = app.consumer._thread._create_worker_consumer(app.transport)
        assert isinstance(consumer, AIOKafkaConsumer)
        assert consumer._fetch_max_wait_ms == ms
    # The attribute set above is what the consumer hands its fetcher when it starts.
    assert "fetch_max_wait_ms=self._fetch_max_wait_ms" in inspect.getsource(AIOKafkaConsumer.start)


def test_stream_refuses_a_fetch_wait_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    from pipelines.cli import main

    for bad in ("0", "-1", "31"):
        with pytest.raises(SystemExit) as exit_:
            argv = ["stream", "--bootstrap", "127.0.0.1:1", "--metrics-port", "0"]
            main([*argv, "--fetch-max-wait", bad])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "--fetch-max-wait" in err and ("0.001" in err or "30" in err)


def test_repeated_kafka_client_messages_are_logged_once_per_window() -> None:
    import logging

    from pipelines.kafka.logs import RepeatedLogFilter

    now = [0.0]
    f = RepeatedLogFilter(30.0, clock=lambda: now[0])

    def rec(name: str, msg: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord(name, logging.ERROR, __file__, 1, msg, args, None)

    fetch = "Failed fetch messages from %s: %s"
    assert f.filter(rec("aiokafka.consumer.fetcher", fetch, 1, "NodeNotReadyError"))
    for k in range(50):  # ten a second while the broker is away
        now[0] += 0.1
        assert not f.filter(rec("aiokafka.consumer.fetcher", fetch, 1, f"err {k}"))
    # Another message, another logger, or not a Kafka client: not held back.
    assert f.filter(rec("aiokafka.consumer.fetcher", "Unable connect to node %s", 1))
    assert f.filter(rec("aiokafka.conn", fetch, 1, "x"))
    assert f.filter(rec("cargo.stream", fetch, 1, "x"))
    assert f.filter(rec("cargo.stream", fetch, 1, "x"))
    now[0] = 31.0  # the window has passed: once more, counted
    again = rec("aiokafka.consumer.fetcher", fetch, 1, "NodeNotReadyError")
    assert f.filter(again)
    assert "and 50 more like it in the 31 s before" in again.getMessage()
    assert again.getMessage().startswith("Failed fetch messages from 1: NodeNotReadyError")
    # The filter sits on every handler: a record shown by one is shown by all.
    assert f.filter(again) and f.filter(again)
    assert again.getMessage().count("more like it") == 1
    held = rec("aiokafka.consumer.fetcher", fetch, 1, "again")
    assert not f.filter(held) and not f.filter(held)


def test_repeat_filter_is_installed_once_per_handler() -> None:
    import logging

    from pipelines.kafka.logs import RepeatedLogFilter, install_repeat_filter

    handler = logging.StreamHandler()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        assert install_repeat_filter(0) is None
        assert install_repeat_filter(30) is not None
        install_repeat_filter(30)
        assert sum(isinstance(f, RepeatedLogFilter) for f in handler.filters) == 1
    finally:
        root.removeHandler(handler)


async def test_a_crashed_agent_is_logged_and_stops_the_worker(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Faust would log the crash and restart the agent on a stream whose taken events are
    # never acknowledged: a live worker that judges nothing. The agent's own body runs
    # here on a stream that fails.
    from monitor.settings import CargoSettings
    from pipelines.kafka.worker import WorkerState

    stopped: list[bool] = []
    state = WorkerState(stop=lambda: stopped.append(True))
    cfg = StreamConfig(kafka=LOCAL, metrics_port=0, data_dir=str(tmp_path))
    app = build_app(cfg, CargoSettings(embedder="hashing", cache_dir=tmp_path / "c"), state)
    (agent,) = app.agents.values()

    class FailingStream:
        async def take_events(self, n: int, within: float) -> Any:
            raise RuntimeError("the consumer went away")
            yield  # an async generator

    with caplog.at_level("CRITICAL", logger="cargo.stream"), pytest.raises(RuntimeError):
        await agent.fun(FailingStream())
    assert stopped == [True]
    assert isinstance(state.crashed, RuntimeError)
    (record,) = [r for r in caplog.records if r.levelname == "CRITICAL"]
    assert "the stream agent crashed (RuntimeError: the consumer went away)" in record.message
    assert "exit status 1" in record.message
    assert record.exc_info is not None  # the traceback goes with it


async def test_a_failed_batch_stops_the_worker_even_with_no_more_input(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The batch's delivery fails (here: the producer was never started); the agent is
    # waiting for input that does not come. The failure must not wait for it.
    import asyncio

    from monitor.settings import CargoSettings
    from pipelines.kafka.worker import WorkerState

    stopped: list[bool] = []
    state = WorkerState(stop=lambda: stopped.append(True))
    cfg = StreamConfig(kafka=LOCAL, metrics_port=0, data_dir=str(tmp_path))
    app = build_app(cfg, CargoSettings(embedder="hashing", cache_dir=tmp_path / "c"), state)
    (agent,) = app.agents.values()

    class Message:
        topic, partition, offset = "agent-traces", 0, 0
        value = b'{"trace_id": "t1", "question": "q", "answer": "a"}'

        def incref(self) -> None:
            pass

    class Event:
        message = Message()

    class QuietStream:
        async def take_events(self, n: int, within: float) -> Any:
            yield [Event()]
            await asyncio.Event().wait()  # no more input, ever

        async def ack(self, event: object) -> None:
            pass

    task = asyncio.create_task(agent.fun(QuietStream()))
    with caplog.at_level("CRITICAL", logger="cargo.stream"):
        for _ in range(500):
            await asyncio.sleep(0.01)
            if stopped:
                break
    task.cancel()
    with pytest.raises((asyncio.CancelledError, Exception)):
        await task
    assert stopped == [True] and state.crashed is not None
    assert "the stream agent crashed" in caplog.text


def test_the_otlp_worker_takes_the_payload_cap_and_the_closed_traces_bound(
    tmp_path: Path,
) -> None:
    """The OpenTelemetry side of the worker: a record over --max-payload-bytes is
    too_large (as a native message is), and --otel-max-closed-traces bounds the memory of
    judged traces."""
    from monitor.settings import CargoSettings
    from pipelines.otel.settings import OtelSettings

    otel = OtelSettings(input_format="otlp-json", otel_max_closed_traces=7)
    cfg = StreamConfig(kafka=LOCAL, metrics_port=0, data_dir=str(tmp_path), otel=otel)
    app = build_app(cfg, CargoSettings(embedder="hashing", max_payload_bytes=4096))
    ingest = app.cargo_otlp.ingest
    assert ingest.max_record_bytes == 4096
    assert ingest.buffer.max_closed_traces == 7
    [outcome] = ingest.feed(b"{" + b" " * 5000 + b"}", "otlp-json")
    assert outcome.error is not None and outcome.error.reason == "too_large"
