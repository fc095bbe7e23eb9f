"""``serve_metrics``: loopback by default, binding elsewhere is logged, TLS through
prometheus_client's own support (a certificate made here with openssl)."""

from __future__ import annotations

import logging
import shutil
import ssl
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry, Counter

from monitor.errors import ConfigError
from monitor.metrics import serve_metrics
from tests.support.ports import free_port


def _registry() -> CollectorRegistry:
    registry = CollectorRegistry()
    Counter("cargo_probe", "A probe counter.", registry=registry).inc(3)
    return registry


def test_plain_metrics_on_loopback() -> None:
    port = free_port()
    url = serve_metrics(_registry(), host="127.0.0.1", port=port)
    assert url == f"http://127.0.0.1:{port}/metrics"
    body = urllib.request.urlopen(url, timeout=5).read().decode()
    assert "cargo_probe_total 3.0" in body


def test_binding_beyond_loopback_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="monitor.metrics"):
        serve_metrics(_registry(), host="0.0.0.0", port=free_port())
    assert "reachable beyond this machine without TLS" in caplog.text


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")
def test_tls_metrics(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    port = free_port()
    url = serve_metrics(_registry(), host="127.0.0.1", port=port, certfile=cert, keyfile=key)
    assert url == f"https://127.0.0.1:{port}/metrics"
    trusted = ssl.create_default_context(cafile=str(cert))
    body = urllib.request.urlopen(url, timeout=5, context=trusted).read().decode()
    assert "cargo_probe_total 3.0" in body
    with pytest.raises(urllib.error.URLError):  # a client that does not trust it is refused
        urllib.request.urlopen(url, timeout=5, context=ssl.create_default_context())
    with pytest.raises((urllib.error.URLError, ConnectionError)):  # no plain HTTP
        urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()


def test_tls_needs_both_files_that_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="both"):
        serve_metrics(_registry(), host="127.0.0.1", port=free_port(), certfile=tmp_path / "c")
    with pytest.raises(ConfigError, match="not found"):
        serve_metrics(
            _registry(),
            host="127.0.0.1",
            port=free_port(),
            certfile=tmp_path / "c",
            keyfile=tmp_path / "k",
        )


def test_a_port_in_use_is_a_config_error() -> None:
    port = free_port()
    serve_metrics(_registry(), host="127.0.0.1", port=port)
    with pytest.raises(ConfigError, match=f"127.0.0.1:{port}"):
        serve_metrics(_registry(), host="127.0.0.1", port=port)
