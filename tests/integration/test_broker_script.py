"""``deploy/kafka/broker``: refuses what it does not understand; ``--port`` is honoured.

Before, ``start --port 29000`` ignored the flag and started a broker on 9092. The
broker here is real (the jars of ``deploy/kafka/broker fetch``, Java).
"""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest

from tests.support.kafka import BROKER
from tests.support.ports import free_port

pytestmark = [pytest.mark.kafka, pytest.mark.integration]


def _broker(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BROKER), *args], env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["start", "--bogus"], "unknown argument: --bogus"),
        (["start", "29000"], "unknown argument: 29000"),
        (["start", "--port"], "--port needs a value"),
        (["start", "--port", "29x"], "the port must be a number"),
        (["start", "--port", "65535"], "between 1 and 65534"),
        (["launch"], "unknown command: launch"),
        ([], "no command"),
    ],
)
def test_unknown_arguments_are_refused_before_anything_starts(
    tmp_path: Path, args: list[str], message: str
) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "CARGO_KAFKA_DATA": str(data)}
    proc = _broker(*args, env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr
    assert "usage: deploy/kafka/broker" in proc.stderr
    assert not data.exists()  # nothing was formatted or started


def test_port_flag_starts_the_broker_on_that_port_over_the_environment(tmp_path: Path) -> None:
    port = free_port(pairs=True)
    decoy = free_port(pairs=True)  # the environment names another port: the flag wins
    env = {
        **os.environ,
        "CARGO_KAFKA_PORT": str(decoy),
        "CARGO_KAFKA_DATA": str(tmp_path / "data"),
    }
    assert _broker("fetch", env=env).returncode == 0
    started = _broker("start", "--port", str(port), env=env)
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        assert started.stdout.strip().endswith(f"127.0.0.1:{port}")
        assert _listening(port) and not _listening(decoy)
        status = _broker("status", f"--port={port}", env=env)
        assert status.returncode == 0 and f"127.0.0.1:{port}" in status.stdout
    finally:
        stopped = _broker("stop", "--port", str(port), env=env)
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    assert not _listening(port)
    # The environment variable alone still works (status of the decoy: not running).
    assert _broker("status", env=env).returncode == 3
