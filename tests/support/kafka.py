"""Real Kafka for tests and benchmarks: a broker on a free port, a ``stream`` worker
process, producing and collecting records. Nothing here is a double: the broker is
``deploy/kafka/broker`` (Apache Kafka from Maven Central), the worker is ``cargo-monitor
stream``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from monitor.data import DEFAULT_SAMPLES
from monitor.traces import is_valid_trace
from pipelines.kafka.config import KafkaSettings
from tests.support.ports import free_port

REPO = Path(__file__).resolve().parents[2]
BROKER = REPO / "deploy" / "kafka" / "broker"
SAMPLES = DEFAULT_SAMPLES


class Broker:
    def __init__(self, tmp: Path) -> None:
        self.port = free_port(pairs=True)
        self.env = {
            **os.environ,
            "CARGO_KAFKA_PORT": str(self.port),
            "CARGO_KAFKA_DATA": str(tmp / f"kafka-{self.port}"),
        }
        self.bootstrap = f"127.0.0.1:{self.port}"
        self.kafka = KafkaSettings(bootstrap=self.bootstrap)

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
    """A ``cargo-monitor stream`` process (``module``: the entry point to run it with;
    ``extra``: more flags)."""

    def __init__(
        self,
        broker: Broker,
        tmp: Path,
        group: str,
        name: str,
        *,
        module: str = "pipelines.cli",
        extra: Sequence[str] = (),
    ) -> None:
        self.metrics_port = free_port()
        self.cmd = [
            sys.executable,
            "-m",
            module,
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
            *extra,
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

    from pipelines.kafka.admin import ensure_topics
    from pipelines.kafka.replay import message_key

    ensure_topics(KafkaSettings(bootstrap=bootstrap), {topic: 4})
    p = KafkaProducer(
        bootstrap_servers=bootstrap,
        acks="all",
        retries=20,
        retry_backoff_ms=500,
        delivery_timeout_ms=180_000,
        request_timeout_ms=30_000,
    )
    for k, line in enumerate(lines):
        p.send(topic, key=message_key(line), value=line)
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


# --- poison messages (test-only; reachable only through ``python -m tests.support.kafka``) --
#
# Two markers in a trace's answer. JUDGE_POISON makes the test judge raise (the evaluator
# records a judge_error for that trace). EVALUATOR_POISON makes the evaluator itself raise
# for any batch that holds the trace (a bug in the evaluator): the worker must retry the
# batch trace by trace and dead-letter that trace after its bounded attempts.
JUDGE_POISON = "JUDGE-POISON-PILL"
EVALUATOR_POISON = "EVALUATOR-POISON-PILL"


class PoisonJudge:
    """The structural judge, except that it raises on :data:`JUDGE_POISON`."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    @property
    def info(self) -> object:
        return self.inner.info  # type: ignore[attr-defined]

    async def judge(self, request: object) -> object:
        trace = request.trace  # type: ignore[attr-defined]
        if JUDGE_POISON in trace.answer:
            raise RuntimeError(f"test judge: poison marker in trace {trace.trace_id}")
        return await self.inner.judge(request)  # type: ignore[attr-defined]


def install_poison() -> None:
    """Register the ``poison`` judge and make the evaluator raise on EVALUATOR_POISON."""
    from monitor.evaluator import Evaluator
    from monitor.judges import JUDGES, JudgeDeps, StructuralJudge
    from monitor.schemas import Trace
    from monitor.traces import RawTrace

    def poison_judge(deps: JudgeDeps) -> PoisonJudge:
        return PoisonJudge(StructuralJudge(deps.embedder, deps.procedure))

    JUDGES["poison"] = poison_judge  # type: ignore[assignment]
    real = Evaluator.evaluate_batch

    async def evaluate_batch(self: Evaluator, items: Sequence[object]) -> object:
        for item in items:
            payload = item.payload if isinstance(item, RawTrace) else item
            if isinstance(payload, Trace) and EVALUATOR_POISON in payload.answer:
                raise ZeroDivisionError(f"test evaluator: poison marker in {payload.trace_id}")
        return await real(self, items)  # type: ignore[arg-type]

    Evaluator.evaluate_batch = evaluate_batch  # type: ignore[assignment,method-assign]


if __name__ == "__main__":
    from pipelines.cli import main

    install_poison()
    sys.exit(main(sys.argv[1:]))


def produce_acknowledged(
    bootstrap: str, values: list[bytes], topic: str = "agent-traces"
) -> tuple[int, list[tuple[int, str]]]:
    """Send each value as it is: the number the broker acknowledged, and (size, error)
    of each it refused (a record over Kafka's size limit is not a message in Kafka)."""
    from kafka import KafkaProducer
    from kafka.errors import KafkaError

    from pipelines.kafka.admin import ensure_topics
    from pipelines.kafka.replay import message_key

    ensure_topics(KafkaSettings(bootstrap=bootstrap), {topic: 4})

    def producer() -> KafkaProducer:
        return KafkaProducer(bootstrap_servers=bootstrap, acks="all", max_request_size=16 * 2**20)

    p = producer()
    acked, refused = 0, []
    for value in values:
        # One at a time: batched with its neighbours, a large record fails them too.
        try:
            p.send(topic, key=message_key(value), value=value).get(timeout=60)
            acked += 1
        except KafkaError as exc:
            refused.append((len(value), type(exc).__name__))
            # kafka-python's producer aborts everything after such an error: a new one.
            p.close(timeout=5)
            p = producer()
    p.close()
    return acked, refused


def collect_by_position(
    bootstrap: str, expect: int, timeout_s: float = 240
) -> dict[tuple[int, int], list[str]]:
    """Every outcome (judgment status or DLQ reason) by input (partition, offset)."""
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
    out: dict[tuple[int, int], list[str]] = {}
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and len(out) < expect:
        for msg in consumer:
            rec = json.loads(msg.value)
            if msg.topic == "cargo-judgments":
                where, what = rec["source"], rec["status"]
            else:
                where, what = rec, f"dlq:{rec['reason']}"
            out.setdefault((where["partition"], where["offset"]), []).append(what)
    consumer.close()
    return out
