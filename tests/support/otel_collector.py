"""A real OpenTelemetry Collector for tests and the sample recorder: ``deploy/otel/collector``
(built from source with the Collector builder, see deploy/otel/README.md) on spare
loopback ports, its own data directory and consumer group, writing to a given broker."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.paths import REPO
from tests.support.ports import free_port

COLLECTOR = Path(REPO) / "deploy" / "otel" / "collector"


class Collector:
    """``deploy/otel/collector`` with its settings for one test: OTLP gRPC/HTTP on free
    ports, the kafka exporter's span encoding, and (``logs_http``) the OTLP/HTTP endpoint
    the evaluation events read back from ``otlp_logs`` are sent to."""

    def __init__(
        self,
        tmp: Path,
        brokers: str,
        *,
        encoding: str = "otlp_proto",
        logs_encoding: str | None = None,
        logs_http: str | None = None,
        group: str = "cargo-otel-collector",
    ) -> None:
        self.grpc_port = free_port()
        self.http_port = free_port()
        while self.http_port == self.grpc_port:
            self.http_port = free_port()
        self.data = tmp / f"otel-{self.grpc_port}"
        self.env = {
            **os.environ,
            "CARGO_OTEL_GRPC_PORT": str(self.grpc_port),
            "CARGO_OTEL_HTTP_PORT": str(self.http_port),
            "CARGO_OTEL_DATA": str(self.data),
            "CARGO_OTEL_BROKERS": brokers,
            "CARGO_OTEL_ENCODING": encoding,
            "CARGO_OTEL_LOGS_ENCODING": logs_encoding or encoding,
            "CARGO_OTEL_GROUP_ID": group,
        }
        if logs_http:
            self.env["CARGO_OTEL_LOGS_HTTP_ENDPOINT"] = logs_http
        else:
            self.env.pop("CARGO_OTEL_LOGS_HTTP_ENDPOINT", None)
        self.otlp_http = f"http://127.0.0.1:{self.http_port}"

    @property
    def log(self) -> Path:
        return self.data / "collector.log"

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def run(self, verb: str, timeout_s: float = 1800) -> str:
        """Run one verb; ``build`` may take minutes the first time (module download and
        compile) and returns at once when the binary matches the manifest."""
        proc = subprocess.run(
            [str(COLLECTOR), verb],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
        assert proc.returncode == 0, f"collector {verb}: {proc.stdout}{proc.stderr}"
        return proc.stdout
