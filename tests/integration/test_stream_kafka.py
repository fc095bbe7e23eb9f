"""The Faust stream app on a real Apache Kafka broker (deploy/kafka/broker).

Marker ``kafka``; run by the README test command, which fetches the broker jars
and needs Java. Each test gets its own broker on a free port with its own data
directory, and its own consumer group.
"""

from __future__ import annotations

import base64
import contextlib
import json
import signal
import threading
import time
from pathlib import Path

import pytest

from monitor.traces import is_valid_trace
from tests.support.kafka import (
    EVALUATOR_POISON,
    JUDGE_POISON,
    SAMPLES,
    Broker,
    Worker,
    _n_valid,
    collect,
    collect_by_position,
    commit_offset,
    produce,
    produce_acknowledged,
    unique_traces,
    wait_for,
)

pytestmark = [pytest.mark.kafka, pytest.mark.integration]


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

    from pipelines.kafka.admin import ensure_topics

    group, changelog = "g-gap", "g-gap-g-gap-processed-changelog"
    ensure_topics(broker.kafka, {"agent-traces": 4, changelog: 4}, compact={changelog})
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

    from pipelines.kafka.admin import ensure_topics

    lines = unique_traces(2000)
    ensure_topics(broker.kafka, {"agent-traces": 4})
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


def _with_marker(line: bytes, marker: str, trace_id: str) -> bytes:
    data = json.loads(line)
    data["trace_id"] = trace_id
    data["answer"] = f"{data['answer']} {marker}"
    return json.dumps(data).encode()


def test_poison_messages_get_one_outcome_and_never_hold_their_partition(
    broker: Broker, tmp_path: Path
) -> None:
    """A trace that makes the judge raise gets a judge_error judgment; one that makes the
    evaluator itself raise is retried trace by trace and dead-lettered after 3 attempts.
    Their neighbours are judged, every partition drains, and a restart replays nothing."""
    good = _valid_unique(40)
    judge_poison = [
        _with_marker(x, JUDGE_POISON, f"judge-poison-{k}") for k, x in enumerate(good[:6])
    ]
    evaluator_poison = _with_marker(good[6], EVALUATOR_POISON, "evaluator-poison")
    lines = [*good[7:], *judge_poison, evaluator_poison]
    worker = Worker(
        broker,
        tmp_path,
        "g-poison",
        "w1",
        module="tests.support.kafka",
        extra=["--judge", "poison"],
    )
    worker.start()
    try:
        produce(broker.bootstrap, lines)
        judgments, dlq = collect(broker.bootstrap, len(lines), timeout_s=240)
        assert wait_for(lambda: worker.traces_total() >= len(lines), 60)
        assert wait_for(lambda: worker.lag_series() == {"0": 0, "1": 0, "2": 0, "3": 0}, 30), (
            worker.lag_series()
        )
        stalled = worker.metric("cargo_partition_stalled")
        failures = worker.metric("cargo_stream_evaluation_failures_total")
        total = worker.traces_total()
    finally:
        worker.stop()
    assert worker.proc is not None and worker.proc.returncode == 0
    assert len(judgments) + len(dlq) == len(lines)  # one outcome each
    assert total == len(lines)
    assert stalled == 0 and failures == 1
    (rec,) = dlq.values()
    assert rec["trace_id"] == "evaluator-poison" and rec["reason"] == "evaluator_error"
    assert rec["error_type"] == "ZeroDivisionError" and rec["attempts"] == 3
    assert "test evaluator: poison marker" in str(rec["detail"])
    assert base64.b64decode(str(rec["original_base64"])) == evaluator_poison
    raised = [
        recs[0]
        for tid, recs in judgments.items()
        if tid.startswith("judge-poison-") and recs[0]["status"] == "judge_error"
    ]
    # The gate decides which of them reach the judge; those that do carry its exception.
    assert raised, {t: r[0]["status"] for t, r in judgments.items() if "poison" in t}
    for j in raised:
        assert j["error"]["kind"] == "internal"  # type: ignore[index]
        assert "RuntimeError" in j["error"]["reason"]  # type: ignore[index]
    assert all(len(recs) == 1 for recs in judgments.values())
    text = worker.log.read_text()
    assert "raised ZeroDivisionError on each of 3 attempts; dead-lettered" in text
    assert "Traceback" in text

    # A restart: the poison messages are behind the committed offsets and watermarks.
    more = _valid_unique(5)
    worker.start()
    try:
        assert wait_for(lambda: worker.traces_total() >= 0, 120)
        produce(broker.bootstrap, more)
        judgments2, dlq2 = collect(broker.bootstrap, len(lines) + len(more), timeout_s=180)
        assert wait_for(lambda: worker.traces_total() >= len(more), 60)
        time.sleep(5)  # anything replayed would be judged by now
        again = worker.traces_total()
    finally:
        worker.stop()
    assert again == len(more), again  # nothing of the first run judged again
    assert len(dlq2) == 1 and all(len(v) == 1 for v in judgments2.values())
    assert len(judgments2) == len(judgments) + len(more)


def _hostile_corpus() -> list[bytes]:
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "data" / "hostile" / "make_corpus.py"
    spec = importlib.util.spec_from_file_location("make_corpus", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return [c.line for c in [*module.small_cases(), *module.large_cases()]]


def test_hostile_corpus_gets_one_outcome_per_message_on_the_real_broker(
    broker: Broker, tmp_path: Path
) -> None:
    """Nesting bombs, invalid UTF-8, NaN, duplicate keys, a 1 MB answer...: every message
    the broker took gets exactly one outcome, the worker stays up, every partition drains."""
    values = _hostile_corpus()
    worker = Worker(broker, tmp_path, "g-hostile", "w1").start()
    try:
        assert wait_for(lambda: worker.traces_total() >= 0, 120)
        acked, refused = produce_acknowledged(broker.bootstrap, values)
        outcomes = collect_by_position(broker.bootstrap, acked, timeout_s=240)
        assert wait_for(lambda: worker.traces_total() >= acked, 60)
        assert wait_for(lambda: worker.lag_series() == {"0": 0, "1": 0, "2": 0, "3": 0}, 30), (
            worker.lag_series()
        )
        alive = worker.proc is not None and worker.proc.poll() is None
        total = worker.traces_total()
        stalled = worker.metric("cargo_partition_stalled")
    finally:
        worker.stop()
    assert alive
    # Kafka refuses only records over its 1 MB message limit (the 10 MB string, ...).
    assert acked + len(refused) == len(values)
    assert all(err == "MessageSizeTooLargeError" for _, err in refused), refused
    assert all(size > 900_000 for size, _ in refused), refused
    assert len(outcomes) == acked and total == acked
    assert all(len(v) == 1 for v in outcomes.values()), {
        k: v for k, v in outcomes.items() if len(v) != 1
    }
    reasons = {v[0] for v in outcomes.values()}
    assert {"dlq:too_deep", "dlq:not_utf8", "dlq:invalid_number", "dlq:duplicate_key"} <= reasons
    assert stalled == 0
