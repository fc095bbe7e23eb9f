"""Settings of OpenTelemetry input and evaluation events (env prefix ``CARGO_``).

:class:`OtelSettings` is shared by ``run`` and ``stream``; :class:`OtelKafkaSettings`
(the evaluation events topic) by ``stream`` only. Flags are generated from the fields
(``pipelines.cli.base``).
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from monitor.settings import flag_options

InputFormat = Literal["auto", "cargo", "otlp-json", "otlp-proto"]
EventsEncoding = Literal["otlp_proto", "otlp_json"]

__all__ = [
    "EventsEncoding",
    "InputFormat",
    "OtelKafkaSettings",
    "OtelSettings",
    "check_endpoint",
    "logs_url",
]


def logs_url(endpoint: str) -> str:
    """The OTLP/HTTP logs URL of an endpoint: ``<base>/v1/logs`` unless it already
    names a path (as ``OTEL_EXPORTER_OTLP_LOGS_ENDPOINT`` does)."""
    from urllib.parse import urlsplit

    parts = urlsplit(endpoint)
    if parts.path not in ("", "/"):
        return endpoint
    return endpoint.rstrip("/") + "/v1/logs"


_HOST = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?\.?")


def check_endpoint(value: str) -> None:
    """Raise ``ValueError`` (a settings error at start-up) for an OTLP/HTTP endpoint that
    is not ``http(s)://host[:port][/path]`` with a valid host name or IP address and a
    port in 1-65535."""
    from urllib.parse import urlsplit

    if not value.startswith(("http://", "https://")):
        raise ValueError(f"an OTLP/HTTP endpoint starts with http:// or https://: {value!r}")
    try:
        parts = urlsplit(value)
    except ValueError as exc:  # e.g. a bracketed host that is no IPv6 address
        raise ValueError(f"OTLP/HTTP endpoint {value!r}: {exc}") from None
    host = parts.hostname or ""
    try:
        port = parts.port
    except ValueError as exc:  # not a number, or out of 0-65535
        raise ValueError(f"OTLP/HTTP endpoint {value!r}: bad port ({exc})") from None
    if port == 0:
        raise ValueError(f"OTLP/HTTP endpoint {value!r}: bad port (0)")
    if parts.netloc.rpartition("@")[2].startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ValueError(f"OTLP/HTTP endpoint {value!r}: bad IPv6 address") from None
    elif not _HOST.fullmatch(host):
        raise ValueError(f"OTLP/HTTP endpoint {value!r}: no valid host name")
    if any(c.isspace() or not c.isprintable() for c in value):
        raise ValueError(f"OTLP/HTTP endpoint {value!r}: spaces or control characters")


class OtelSettings(BaseSettings):
    """How input messages are read, and where evaluation events go over OTLP/HTTP."""

    model_config = SettingsConfigDict(env_prefix="CARGO_", extra="ignore")

    input_format: InputFormat = Field(
        default="cargo",
        description="input messages: cargo (trace JSON), otlp-json / otlp-proto "
        "(OpenTelemetry spans as the Collector's kafka exporter writes them; run reads "
        "otlp-json lines), or auto (told apart per message)",
        json_schema_extra=flag_options("input"),
    )
    otel_mapping: Path | None = Field(
        default=None,
        description="mapping file for OpenTelemetry spans (intent and citations "
        "attributes, which tool results are facts, span names to ignore)",
        json_schema_extra=flag_options("otel", default_help="built-in defaults"),
    )
    otel_quiet_period_s: float = Field(
        default=3.0,
        gt=0,
        le=3600,
        description="seconds without a new span after a trace's root arrived before the "
        "trace is judged",
        json_schema_extra=flag_options("otel", flag="--otel-quiet-period"),
    )
    otel_max_wait_s: float = Field(
        default=60.0,
        gt=0,
        le=86_400,
        description="seconds after a trace's first span before it is judged as it stands: "
        "incomplete (root_missing) without a root span, (max_wait) if spans keep coming",
        json_schema_extra=flag_options("otel", flag="--otel-max-wait"),
    )
    otel_max_open_traces: int = Field(
        default=10_000,
        ge=1,
        le=10_000_000,
        description="traces buffered at once; over it the oldest is judged as incomplete (evicted)",
        json_schema_extra=flag_options("otel"),
    )
    otel_max_closed_traces: int = Field(
        default=5_000,
        ge=0,
        le=10_000_000,
        description="judged traces remembered with their spans, so that a late span "
        "re-judges the whole trace (about 16 kB each); a late span of a forgotten trace "
        "starts a new one",
        json_schema_extra=flag_options("otel"),
    )
    otlp_endpoint: str | None = Field(
        default=None,
        description="OTLP/HTTP endpoint for the gen_ai.evaluation.result events, e.g. "
        "http://127.0.0.1:4318 (POST <endpoint>/v1/logs, protobuf); off when unset",
        json_schema_extra=flag_options("otel"),
    )
    otlp_timeout_s: float = Field(
        default=10.0,
        gt=0,
        le=600,
        description="timeout of one OTLP/HTTP export request",
        json_schema_extra=flag_options("otel", flag="--otlp-timeout"),
    )

    @field_validator("otlp_endpoint")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        check_endpoint(value)
        return value


class OtelKafkaSettings(BaseSettings):
    """The stream worker's evaluation events topic (what the Collector's kafka receiver
    reads)."""

    model_config = SettingsConfigDict(env_prefix="CARGO_", extra="ignore")

    otel_events_topic: str | None = Field(
        default=None,
        min_length=1,
        max_length=249,
        description="Kafka topic for gen_ai.evaluation.result events as OTLP logs "
        "(e.g. otlp_logs, read by the Collector's kafka receiver); off when unset",
        json_schema_extra=flag_options("otel"),
    )
    otel_events_encoding: EventsEncoding = Field(
        default="otlp_proto",
        description="encoding of the events records (the kafka receiver's encoding)",
        json_schema_extra=flag_options("otel"),
    )
