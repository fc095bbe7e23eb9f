"""The Kafka commands fail with a clear message and exit 2 (waits out a bootstrap timeout)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration


def test_replay_and_stream_clear_errors() -> None:
    cli = [sys.executable, "-m", "pipelines.cli"]
    p = subprocess.run(
        [*cli, "replay", "/nope.jsonl"], capture_output=True, text=True, timeout=60, check=False
    )
    assert p.returncode == 2 and "input file not found" in p.stderr
    p = subprocess.run(
        [*cli, "replay", "--bootstrap", "127.0.0.1:1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert p.returncode == 2 and "cannot reach Kafka" in p.stderr


def test_sasl_settings_are_checked_before_connecting_and_never_taken_from_argv() -> None:
    import os

    cli = [sys.executable, "-m", "pipelines.cli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARGO_KAFKA_")}
    for command in (["stream"], ["replay"], ["topics", "list"]):
        p = subprocess.run(
            [*cli, *command, "--security-protocol", "SASL_SSL", "--sasl-username", "u"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env=env,
        )
        assert p.returncode == 2, (command, p.stderr)
        assert "CARGO_KAFKA_SASL_PASSWORD" in p.stderr, (command, p.stderr)
        p = subprocess.run(
            [*cli, *command, "--sasl-password", "hunter2"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env=env,
        )
        assert p.returncode == 2 and "unrecognized arguments: --sasl-password" in p.stderr
