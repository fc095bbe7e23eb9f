"""The Faust stream app on a real Apache Kafka broker (deploy/kafka/broker).

Marker ``kafka``; run by the README test command, which fetches the broker jars
and needs Java. Each test gets its own broker on a free port with its own data
directory, and its own consumer group.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from monitor.traces import is_valid_trace

REPO = Path(__file__).resolve().parents[2]
BROKER = REPO / "deploy" / "kafka" / "broker"
SAMPLES = REPO / "golden" / "samples" / "traffic.jsonl"

pytestmark = [pytest.mark.kafka, pytest.mark.integration]


def free_port(pairs: bool = False) -> int:
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if not pairs:
            return port
        with socket.socket() as s2:  # the controller listens on port + 1
            try:
                s2.bind(("127.0.0.1", port + 1))
                return port
            except OSError:
                continue


class Broker:
    def __init__(self, tmp: Path) -> None:
        self.port = free_port(pairs=True)
        self.env = {
            **os.environ,
            "CARGO_KAFKA_PORT": str(self.port),
            "CARGO_KAFKA_DATA": str(tmp / f"kafka-{self.port}"),
        }
        self.bootstrap = f"127.0.0.1:{self.port}"

    def run(self, verb: str) -> str:
        proc = subprocess.run(
            [str(BROKER), verb],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc.stdout


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path)
    b.run("fetch")
    assert b.run("start").strip().endswith(b.bootstrap)
    try:
        yield b
    finally:
        b.run("stop")


class Worker:
    def __init__(self, broker: Broker, tmp: Path, group: str, name: str) -> None:
        self.metrics_port = free_port()
        self.cmd = [
            sys.executable,
            "-m",
            "pipelines.cli",
            "stream",
            "--bootstrap",
            broker.bootstrap,
            "--group",
            group,
            "--metrics-port",
            str(self.metrics_port),
            "--data-dir",
            str(tmp / f"faust-{name}"),
            "--cache-dir",
            str(tmp / "cache"),
            "--partitions",
            "4",
            "--loglevel",
            "info",
            "--progress-interval",
            "2",
            "--stall-after",
            "20",
        ]
        self.log = tmp / f"worker-{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        self.proc = subprocess.Popen(
            self.cmd, stdout=self.log.open("ab"), stderr=subprocess.STDOUT, env=env
        )
        return self

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def metrics_text(self) -> str | None:
        try:
            return str(
                urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=5)
                .read()
                .decode()
            )
        except OSError:
            return None

    def metric(self, name: str) -> float:
        """Sum of a metric's samples over its labels; -1 while /metrics is not up."""
        text = self.metrics_text()
        if text is None:
            return -1.0
        return sum(
            float(line.rsplit(" ", 1)[1])
            for line in text.splitlines()
            if line.split("{")[0].split(" ")[0] == name
        )

    def traces_total(self) -> float:
        return self.metric("cargo_traces_total")

    def lag_series(self) -> dict[str, float]:
        text = self.metrics_text() or ""
        prefix = 'cargo_stream_partition_lag{partition="'
        return {
            line[len(prefix) :].split('"')[0]: float(line.rsplit(" ", 1)[1])
            for line in text.splitlines()
            if line.startswith(prefix)
        }


def unique_traces(n: int) -> list[bytes]:
    """n messages from the sample traffic, each valid one with a fresh trace id."""
    base = [x for x in SAMPLES.read_text().splitlines() if x.strip()]
    out = []
    for k in range(n):
        line = base[k % len(base)]
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            out.append(line.encode())
            continue
        if isinstance(data, dict) and isinstance(data.get("trace_id"), str):
            data["trace_id"] = f"{data['trace_id']}-{k}-{uuid.uuid4().hex[:6]}"
            out.append(json.dumps(data).encode())
        else:
            out.append(line.encode())
    return out


def produce(
    bootstrap: str, lines: list[bytes], rate: float = 0.0, topic: str = "agent-traces"
) -> None:
    from kafka import KafkaProducer

    from pipelines.replay import _key, ensure_topics

    ensure_topics(bootstrap, {topic: 4})
    p = KafkaProducer(
        bootstrap_servers=bootstrap,
        acks="all",
        retries=20,
        retry_backoff_ms=500,
        delivery_timeout_ms=180_000,
        request_timeout_ms=30_000,
    )
    for k, line in enumerate(lines):
        p.send(topic, key=_key(line), value=line)
        if rate:
            time.sleep(1.0 / rate)
        if k % 50 == 0:
            p.flush()
    p.flush(timeout=180)
    p.close()


def collect(
    bootstrap: str, expect: int, timeout_s: float = 240
) -> tuple[dict[str, list[dict[str, object]]], dict[str, dict[str, object]]]:
    """Judgments by trace id (all copies) and DLQ records by source position."""
    from kafka import KafkaConsumer

    consumer = KafkaConsumer(
        "cargo-judgments",
        "cargo-traces-dlq",
        bootstrap_servers=bootstrap,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
        group_id=None,
        consumer_timeout_ms=2000,
    )
    judgments: dict[str, list[dict[str, object]]] = {}
    dlq: dict[str, dict[str, object]] = {}
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and len(judgments) + len(dlq) < expect:
        for msg in consumer:
            rec = json.loads(msg.value)
            if msg.topic == "cargo-judgments":
                judgments.setdefault(msg.key.decode(), []).append(rec)
            else:
                dlq[msg.key.decode()] = rec
    consumer.close()
    return judgments, dlq


def _n_valid(lines: list[bytes]) -> int:
    return sum(map(is_valid_trace, lines))


def commit_offset(bootstrap: str, group: str, topic: str, partition: int, offset: int) -> None:
    """Set a consumer group's committed offset (the group must have no members)."""
    from kafka import KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata

    tp = TopicPartition(topic, partition)
    committer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False)
    committer.assign([tp])
    committer.commit({tp: OffsetAndMetadata(offset, "", -1)})
    committer.close()


def wait_for(pred, timeout_s: float = 120) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.5)
    return False


def test_broker_script_is_idempotent_and_stops_only_its_broker(broker: Broker) -> None:
    assert "already running" in broker.run("start") or broker.bootstrap in broker.run("start")
    assert "running" in broker.run("status")
    broker.run("restart")
    assert "running" in broker.run("status")


def test_end_to_end_judgments_and_dead_letters(broker: Broker, tmp_path: Path) -> None:
    lines = [x.encode() for x in SAMPLES.read_text().splitlines() if x.strip()]
    worker = Worker(broker, tmp_path, "g-e2e", "w1").start()
    try:
        produce(broker.bootstrap, lines)
        judgments, dlq = collect(broker.bootstrap, len(lines))
        assert wait_for(lambda: worker.traces_total() >= len(lines))
        total = worker.traces_total()
        # The progress watch (every 2 s here): one lag series per owned partition,
        # all at 0 once everything is judged.
        assert wait_for(lambda: worker.lag_series() == {"0": 0, "1": 0, "2": 0, "3": 0}, 30), (
            worker.lag_series()
        )
    finally:
        worker.stop()
    valid = _n_valid(lines)
    assert len(judgments) == valid and len(dlq) == len(lines) - valid
    assert len(judgments) + len(dlq) == len(lines)
    assert total == len(lines)  # metrics agree with the topics
    reasons = {r["reason"] for r in dlq.values()}
    assert {"invalid_json", "missing_field", "wrong_type", "not_an_object"} <= reasons
    some = next(iter(dlq.values()))
    assert some["topic"] == "agent-traces" and isinstance(some["offset"], int)
    assert some["original_base64"]
    statuses = {recs[0]["status"] for recs in judgments.values()}
    assert statuses == {"evaluated", "abstained"}
    first = next(iter(judgments.values()))[0]
    assert first["source"]["topic"] == "agent-traces"


def test_two_workers_share_partitions_and_judge_every_trace_once(
    broker: Broker, tmp_path: Path
) -> None:
    lines = unique_traces(600)
    w1 = Worker(broker, tmp_path, "g-two", "w1").start()
    w2 = Worker(broker, tmp_path, "g-two", "w2").start()
    try:
        assert wait_for(lambda: w1.traces_total() >= 0 and w2.traces_total() >= 0, 120)
        time.sleep(8)  # let the group settle on both members
        produce(broker.bootstrap, lines, rate=150)
        judgments, dlq = collect(broker.bootstrap, len(lines))
        assert wait_for(lambda: w1.traces_total() + w2.traces_total() >= len(lines))
        t1, t2 = w1.traces_total(), w2.traces_total()
    finally:
        w1.stop()
        w2.stop()
    assert len(judgments) == _n_valid(lines)
    assert len(judgments) + len(dlq) == len(lines)
    assert t1 > 0 and t2 > 0, (t1, t2)  # both did work
    assert t1 + t2 == len(lines)  # ... and nothing twice
    assert all(len(v) == 1 for v in judgments.values())


def _valid_unique(n: int) -> list[bytes]:
    return [line for line in unique_traces(4 * n) if is_valid_trace(line)][:n]


def test_offsets_the_consumer_skipped_are_read_back_and_judged(
    broker: Broker, tmp_path: Path
) -> None:
    """The state a skipped record leaves behind (seen after a SIGKILL and restart:
    Faust's consumer dropped the record at the committed offset and committed past
    it): the group's committed offset is ahead of the worker's watermark. The worker
    must notice the hole and judge the records in it, not lose them."""
    from kafka import KafkaProducer

    from pipelines.replay import ensure_topics

    group, changelog = "g-gap", "g-gap-g-gap-processed-changelog"
    ensure_topics(broker.bootstrap, {"agent-traces": 4, changelog: 4}, compact={changelog})
    lines = _valid_unique(20)
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks="all")
    for line in lines:
        producer.send("agent-traces", value=line, partition=0)
    # Watermark: offsets 0..4 judged; committed offset: 10 (5..9 skipped).
    producer.send(changelog, key=b'"agent-traces:0"', value=b"4", partition=0)
    producer.flush()
    producer.close()
    commit_offset(broker.bootstrap, group, "agent-traces", 0, 10)

    worker = Worker(broker, tmp_path, group, "w1").start()
    try:
        judgments, dlq = collect(broker.bootstrap, 15, timeout_s=180)
        assert wait_for(lambda: worker.metric("cargo_stream_gap_records_total") >= 5, 60)
        gaps = worker.metric("cargo_stream_gaps_total")
        repaired = worker.metric("cargo_stream_gap_records_total")
    finally:
        worker.stop()
    offsets = sorted(recs[0]["source"]["offset"] for recs in judgments.values())
    assert offsets == list(range(5, 20)), offsets  # 5..9 read back, 0..4 not redone
    assert all(len(recs) == 1 for recs in judgments.values())  # each judged once
    assert not dlq
    # At least the planted hole; Faust itself sometimes also drops the record at the
    # committed offset (10) on start -- seen in a CI run: "skipped offsets 5..10".
    assert gaps >= 1 and repaired >= 5, (gaps, repaired)
    assert "the consumer skipped offsets 5.." in worker.log.read_text()


def test_sigkill_and_restart_loses_nothing(broker: Broker, tmp_path: Path) -> None:
    lines = unique_traces(500)
    w1 = Worker(broker, tmp_path, "g-kill", "w1").start()
    feeder = threading.Thread(target=produce, args=(broker.bootstrap, lines, 60.0))
    try:
        assert wait_for(lambda: w1.traces_total() >= 0, 120)
        feeder.start()
        assert wait_for(lambda: w1.traces_total() >= 100, 120)
        w1.kill()  # mid-stream, no shutdown
        time.sleep(2)
        w1.start()
        feeder.join(timeout=300)
        judgments, dlq = collect(broker.bootstrap, len(lines), timeout_s=300)
    finally:
        w1.stop()
    assert len(judgments) == _n_valid(lines)  # nothing lost
    assert len(judgments) + len(dlq) == len(lines)


def test_broker_restart_under_load_loses_nothing(broker: Broker, tmp_path: Path) -> None:
    lines = unique_traces(400)
    w1 = Worker(broker, tmp_path, "g-broker", "w1").start()
    feeder = threading.Thread(target=produce, args=(broker.bootstrap, lines, 40.0))
    try:
        assert wait_for(lambda: w1.traces_total() >= 0, 120)
        feeder.start()
        assert wait_for(lambda: w1.traces_total() >= 80, 120)
        broker.run("restart")
        feeder.join(timeout=400)
        judgments, dlq = collect(broker.bootstrap, len(lines), timeout_s=300)
    finally:
        w1.stop()
    assert len(judgments) == _n_valid(lines)
    assert len(judgments) + len(dlq) == len(lines)


# kafka-python's producer retries its close from __del__ and raises there: the
# records it could not deliver (the broker is gone on purpose).
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_sigterm_stops_a_worker_whose_broker_is_gone(broker: Broker, tmp_path: Path) -> None:
    # An orchestrator stops workers with SIGTERM and a grace period, also when the
    # cluster is down. The broker goes away mid-stream, so the worker has batches in
    # flight, acknowledged offsets not yet committed and fetches waiting to retry.
    # Both used to keep it running: the consumer thread died on the cancelled fetch
    # retry, and Faust's final offset commit retried for ever.
    from kafka import KafkaProducer

    from pipelines.replay import ensure_topics

    lines = unique_traces(2000)
    ensure_topics(broker.bootstrap, {"agent-traces": 4})
    stop_feeding = threading.Event()

    def feed() -> None:
        p = KafkaProducer(bootstrap_servers=broker.bootstrap, max_block_ms=2000, linger_ms=5)
        try:
            for line in lines:
                if stop_feeding.is_set():
                    break
                p.send("agent-traces", value=line)
                time.sleep(1 / 80)
        except Exception:
            pass  # the broker went away: that is the test
        finally:
            with contextlib.suppress(Exception):  # undeliverable records: broker gone
                p.close(timeout=1)

    w1 = Worker(broker, tmp_path, "g-term", "w1").start()
    feeder = threading.Thread(target=feed, daemon=True)
    try:
        assert wait_for(lambda: w1.traces_total() >= 0, 120)
        feeder.start()
        assert wait_for(lambda: w1.traces_total() >= 100, 120)
        broker.run("stop")  # mid-stream
        stop_feeding.set()
        time.sleep(5)  # its fetches now fail and retry
        assert w1.proc is not None
        w1.proc.send_signal(signal.SIGTERM)
        rc = w1.proc.wait(timeout=30)  # a common grace period
    finally:
        stop_feeding.set()
        w1.stop()
    assert rc == 0, w1.log.read_text()[-3000:]
    # Ten retries a second while the broker was away, logged once per 30 s window.
    assert w1.log.read_text().count("Failed fetch messages") <= 3


def test_topic_admin_create_list_and_lag(
    broker: Broker, capsys: pytest.CaptureFixture[str]
) -> None:
    from kafka import KafkaProducer

    from pipelines.cli import main

    b = ["--bootstrap", broker.bootstrap]
    assert main(["topics", "create", *b, "--partitions", "2"]) == 0
    assert capsys.readouterr().out.count(": created") == 3
    assert main(["topics", "create", *b]) == 0
    assert capsys.readouterr().out.count("exists (left as it is)") == 3

    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks="all")
    for k in range(10):
        producer.send("agent-traces", value=b"x", partition=k % 2)
    producer.flush()
    producer.close()
    assert main(["topics", "list", *b]) == 0
    rows = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines()[1:]}
    assert rows["agent-traces"] == ["2", "delete", "10"]
    assert rows["cargo-judgments"] == ["2", "compact", "0"]
    assert rows["cargo-traces-dlq"][:2] == ["2", "delete"]

    commit_offset(broker.bootstrap, "g-admin", "agent-traces", 0, 2)
    assert main(["topics", "lag", *b, "--group", "g-admin"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].split() == ["0", "2", "5", "3"]  # partition, committed, end, lag
    assert out[3].split() == ["1", "-", "5", "5"]  # nothing committed yet
    assert out[4].split() == ["total", "8"]
    assert main(["topics", "lag", *b, "--topic", "no-such-topic"]) == 2
    assert "topic 'no-such-topic' not found" in capsys.readouterr().err
