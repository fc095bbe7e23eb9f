"""Secrets never leave the process: a real ``cargo-monitor run --judge llm`` (with and
without ``--redact``) against the scripted chat server, with the judge API key, a SASL
password and the redact salt in its environment, and an endpoint that echoes the key
back in one reply. None of them may appear in its output and logs, its judgments or
its /metrics; the key must still reach the endpoint (it was used)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from monitor.settings import DEFAULT_SAMPLES
from tests.support.chat_server import Reply, scripted_server, verdict_json
from tests.support.ports import free_port

CLI = [sys.executable, "-m", "pipelines.cli"]
HOSTILE = Path(__file__).resolve().parents[1] / "data" / "hostile"
API_KEY = "sk-test-apikey-5f1c9b7e"
SASL_PASSWORD = "sasl-pw-0a8d4e2b"
SALT = "redact-salt-3c6f1a9d7e"
SECRETS = (API_KEY, SASL_PASSWORD, SALT)

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("redact", [True, False], ids=["redact", "plain"])
def test_secrets_reach_no_log_judgment_or_metric(tmp_path: Path, redact: bool) -> None:
    samples = [x for x in DEFAULT_SAMPLES.read_text().splitlines() if x.strip()][:30]
    source = tmp_path / "in.jsonl"
    source.write_bytes(
        "\n".join(samples).encode() + b"\n" + (HOSTILE / "corpus.jsonl").read_bytes()
    )
    inputs = sum(1 for line in source.read_bytes().split(b"\n") if line.strip())
    out = tmp_path / "judgments.jsonl"
    port = free_port()
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "CARGO_JUDGE_API_KEY": API_KEY,
        "CARGO_KAFKA_SASL_PASSWORD": SASL_PASSWORD,
        "CARGO_REDACT_SALT": SALT,
    }
    with scripted_server(
        Reply(content=verdict_json(0.9)),
        Reply(content=f"not JSON, and it echoes the key {API_KEY}"),
        Reply(content=verdict_json(0.4)),
    ) as server:
        proc = subprocess.Popen(
            [
                *CLI,
                "run",
                "--input",
                str(source),
                "--output",
                str(out),
                "--redact" if redact else "--no-redact",
                "--judge",
                "llm",
                "--judge-base-url",
                server.url,
                "--judge-model",
                "scripted",
                "--judge-max-concurrency",
                "1",
                "--embedder",
                "hashing",
                "--tau",
                "0.3",
                "--cache-dir",
                str(tmp_path / "cache"),
                "--metrics-port",
                str(port),
                "--keep-serving",
                "--no-progress",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
        )
        metrics = ""
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and len(out.read_bytes().splitlines()) >= inputs:
                with contextlib.suppress(OSError):
                    metrics = (
                        urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5)
                        .read()
                        .decode()
                    )
                if "cargo_traces_total" in metrics:
                    break
            time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        log = proc.communicate(timeout=60)[0].decode("utf-8", "replace")
        requests = list(server.requests)
    rows = out.read_text(encoding="utf-8").splitlines()
    assert proc.returncode == 0, log[-3000:]
    assert inputs > 150  # 30 sample traces and the corpus's non-blank lines
    assert len(rows) == inputs  # outcomes = inputs
    assert "cargo_traces_total" in metrics
    # The key was used ...
    assert requests and all(r.headers["authorization"] == f"Bearer {API_KEY}" for r in requests)
    # ... and went nowhere else, even when the endpoint echoed it back.
    judgments = "\n".join(rows)
    for secret in SECRETS:
        assert secret not in log, secret
        assert secret not in judgments, secret
        assert secret not in metrics, secret
    parsed = [json.loads(r) for r in rows]
    assert any(j["status"] == "judge_error" for j in parsed)  # the echoing reply
    evaluated = [j for j in parsed if j["status"] == "evaluated"]
    hashed = [v.startswith("hmac:") for j in evaluated for v in j["llm"]["rationales"].values()]
    assert evaluated and hashed and all(hashed) == redact and any(hashed) == redact
    if not redact:  # the echoed key was masked, the rest of the error text kept
        error = next(j for j in parsed if j["status"] == "judge_error")["error"]["reason"]
        assert "echoes the key [secret]" in error
