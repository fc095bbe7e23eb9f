"""`replay` on a real broker: a message Kafka refuses is reported with its line number and
the exit code says so; the other lines are delivered."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.kafka import Broker

pytestmark = [pytest.mark.kafka, pytest.mark.integration]


def _count(bootstrap: str, topic: str) -> int:
    from kafka import KafkaConsumer

    consumer = KafkaConsumer(
        topic,
        bootstrap_servers=bootstrap,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
        group_id=None,
        consumer_timeout_ms=5000,
    )
    n = sum(1 for _ in consumer)
    consumer.close()
    return n


def test_a_refused_message_is_reported_and_the_rest_delivered(
    broker: Broker, tmp_path: Path
) -> None:
    cap = 1_048_576  # the default --max-payload-bytes, also the producer's request size
    head = b'{"trace_id": "big", "question": "q", "answer": "'
    big = head + b"x" * (cap - len(head) - 2) + b'"}'
    assert len(big) == cap  # within the line limit, too large for one Kafka request
    small = [
        json.dumps({"trace_id": f"t{k}", "question": "q", "answer": "a"}).encode() for k in range(2)
    ]
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"\n".join([small[0], big, small[1]]) + b"\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pipelines.cli",
            "replay",
            str(source),
            "--bootstrap",
            broker.bootstrap,
            "--topic",
            "replay-refused",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "not delivered: 1" in out and "lines 2" in out, out
    assert "Traceback" not in out
    assert _count(broker.bootstrap, "replay-refused") == 2
