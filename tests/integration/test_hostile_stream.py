"""The hostile corpus through ``cargo-monitor replay`` into a real Kafka broker and a
``stream`` worker: replay reports what it skipped and does not die; every message
produced gets exactly one outcome (judgments + dead-letter records = messages), the
worker stays alive, every partition's lag reaches 0, and the secrets in the worker's
environment reach no log, judgment, dead-letter record or metric.

Marker ``kafka``: needs Java and the broker jars (``deploy/kafka/broker fetch``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.kafka import Broker, Worker, collect, wait_for

pytestmark = [pytest.mark.kafka, pytest.mark.integration]

CLI = [sys.executable, "-m", "pipelines.cli"]
HOSTILE = Path(__file__).resolve().parents[1] / "data" / "hostile"
SECRETS = {
    "CARGO_JUDGE_API_KEY": "sk-stream-key-71c2e9d4",
    "CARGO_KAFKA_SASL_PASSWORD": "sasl-stream-pw-5b0e8a13",
    "CARGO_REDACT_SALT": "stream-salt-9d3f2c6a1b",
}


def _corpus() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_corpus", HOSTILE / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_hostile_corpus_through_replay_and_stream(
    broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = _corpus()
    cases = [*corpus.small_cases(), *corpus.large_cases()]
    source = tmp_path / "hostile.jsonl"
    corpus.write(source, cases)
    inputs = [(n, c) for n, c in enumerate(cases, start=1) if c.expect != "skip"]
    over = [n for n, c in inputs if len(c.line.rstrip(b"\r")) > 1_048_576]
    assert over  # the 10 MB line: replay must skip it, not die on it

    replay = subprocess.run(
        [*CLI, "replay", str(source), "--bootstrap", broker.bootstrap, "--no-progress"],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        timeout=300,
        check=False,
    )
    assert replay.returncode == 0, replay.stdout + replay.stderr
    report = replay.stdout + replay.stderr
    assert f"skipped {len(over)} line(s) over 1048576 bytes (lines {over[0]})" in report
    produced = len(inputs) - len(over)
    assert f"sent {produced} messages" in report

    for name, secret in SECRETS.items():  # the worker inherits them from its environment
        monkeypatch.setenv(name, secret)
    worker = Worker(broker, tmp_path, "g-hostile", "w1", extra=["--embedder", "hashing"])
    worker.start()
    try:
        judgments, dlq = collect(broker.bootstrap, produced, timeout_s=300)
        assert wait_for(lambda: worker.traces_total() >= produced, 120), worker.traces_total()
        lag_zero = wait_for(lambda: worker.lag_series() == {"0": 0, "1": 0, "2": 0, "3": 0}, 60)
        alive = worker.proc is not None and worker.proc.poll() is None
        total = worker.traces_total()
        metrics = worker.metrics_text() or ""
    finally:
        worker.stop()
    log = worker.log.read_text(encoding="utf-8", errors="replace")
    n_judgments = sum(len(v) for v in judgments.values())
    assert alive, log[-3000:]
    assert n_judgments + len(dlq) == produced, (n_judgments, len(dlq), produced)
    assert total == produced
    assert lag_zero, worker.lag_series()
    expected_invalid = sum(c.expect != "ok" for n, c in inputs if n not in over)
    assert len(dlq) == expected_invalid, Counter(str(r["reason"]) for r in dlq.values())
    reasons = Counter(str(r["reason"]) for r in dlq.values())
    assert {"too_deep", "not_utf8", "duplicate_key", "lone_surrogate", "invalid_number"} <= set(
        reasons
    )
    blob = "\n".join(
        [log, metrics, *(json.dumps(r) for r in dlq.values())]
        + [json.dumps(j) for js in judgments.values() for j in js]
    )
    for name, secret in SECRETS.items():
        assert secret not in blob, name
