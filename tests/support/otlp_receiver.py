"""A small OTLP/HTTP receiver on a real local socket, for the OTel tests.

Accepts ``POST /v1/logs`` and ``POST /v1/traces`` with protobuf bodies (``gzip`` or not),
the way the Collector's ``otlphttp`` exporter and the OTel SDK's OTLP/HTTP exporter send
them; decodes them with the official ``opentelemetry-proto`` classes, keeps the
requests, and answers an empty ``Export*ServiceResponse`` (200). Anything else is a 400
or 404, kept in ``errors`` so that a test can assert there were none.
"""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (
    ExportLogsServiceRequest,
    ExportLogsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


@dataclass(frozen=True)
class LogRecordSeen:
    """One log record of a received ``ExportLogsServiceRequest``, flattened."""

    trace_id: str  # hex
    span_id: str  # hex
    event_name: str
    attributes: dict[str, Any]
    body: Any


def _any(value: Any) -> Any:
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [_any(v) for v in value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _any(kv.value) for kv in value.kvlist_value.values}
    if kind == "bytes_value":
        return bytes(value.bytes_value).hex()
    return getattr(value, kind)


class OtlpHttpReceiver:
    def __init__(self) -> None:
        self.logs: list[ExportLogsServiceRequest] = []
        self.traces: list[ExportTraceServiceRequest] = []
        self.errors: list[str] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                path = self.path.rstrip("/")
                try:
                    if headers.get("content-encoding") == "gzip":
                        body = gzip.decompress(body)
                    if "protobuf" not in headers.get("content-type", ""):
                        raise ValueError(f"content-type {headers.get('content-type')!r}")
                    if path == "/v1/logs":
                        logs = ExportLogsServiceRequest.FromString(body)
                        out = ExportLogsServiceResponse().SerializeToString()
                        with receiver._lock:
                            receiver.logs.append(logs)
                            receiver.headers.append(headers)
                    elif path == "/v1/traces":
                        spans = ExportTraceServiceRequest.FromString(body)
                        out = ExportTraceServiceResponse().SerializeToString()
                        with receiver._lock:
                            receiver.traces.append(spans)
                            receiver.headers.append(headers)
                    else:
                        with receiver._lock:
                            receiver.errors.append(f"404 {self.path}")
                        self._send(404, b"")
                        return
                except Exception as exc:  # a malformed request is the test's finding
                    with receiver._lock:
                        receiver.errors.append(f"400 {self.path}: {exc!r}")
                    self._send(400, b"")
                    return
                self._send(200, out)

            def _send(self, status: int, data: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> OtlpHttpReceiver:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def log_records(self) -> list[LogRecordSeen]:
        with self._lock:
            requests = list(self.logs)
        return [
            LogRecordSeen(
                trace_id=bytes(rec.trace_id).hex(),
                span_id=bytes(rec.span_id).hex(),
                event_name=rec.event_name,
                attributes={kv.key: _any(kv.value) for kv in rec.attributes},
                body=_any(rec.body),
            )
            for req in requests
            for rl in req.resource_logs
            for sl in rl.scope_logs
            for rec in sl.log_records
        ]

    def wait_for_logs(self, predicate: Any, timeout_s: float = 60.0) -> list[LogRecordSeen]:
        """The log records once ``predicate(records)`` holds (or at the timeout)."""
        deadline = time.monotonic() + timeout_s
        while True:
            records = self.log_records()
            if predicate(records) or time.monotonic() > deadline:
                return records
            time.sleep(0.2)


def otlp_receiver() -> Iterator[OtlpHttpReceiver]:
    r = OtlpHttpReceiver().start()
    try:
        yield r
    finally:
        r.stop()
