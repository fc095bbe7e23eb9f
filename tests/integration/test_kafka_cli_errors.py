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
