"""The one Kafka connection config: bootstrap, security and topic defaults.

Shared by ``stream`` (Faust and aiokafka), ``replay``, ``topics`` (kafka-python) and
the Kafka benchmark; each client's keyword arguments are built here from the same
fields, so TLS and SASL work the same way for every command. Read from the
environment (prefix ``CARGO_KAFKA_``) at the entry point; the flags override it. The
SASL password comes only from ``CARGO_KAFKA_SASL_PASSWORD`` or the file named by
``CARGO_KAFKA_SASL_PASSWORD_FILE`` (never a flag: argv is visible to every user of
the machine), and it is a :class:`~pydantic.SecretStr`, never logged.
"""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from monitor.settings import flag_options

__all__ = ["SECURITY_PROTOCOLS", "KafkaSettings"]

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
_KAFKA = flag_options("Kafka")
# Fields that are never flags (secrets, and the file a secret is read from).
_KAFKA_NO_FLAG = flag_options("Kafka", cli=False)


class _Masked(str):
    """The password as the clients need it (a ``str``), but masked where it is
    represented: kafka-python logs its whole configuration at DEBUG."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "'**********'"


class KafkaSettings(BaseSettings):
    """How to reach the Kafka cluster and which topics the monitor uses."""

    model_config = SettingsConfigDict(env_prefix="CARGO_KAFKA_", extra="ignore", frozen=True)

    bootstrap: str = Field(
        default="127.0.0.1:9092",
        min_length=1,
        description="Kafka bootstrap servers, host:port, comma separated",
        json_schema_extra=_KAFKA,
    )
    security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = Field(
        default="PLAINTEXT",
        description="how to talk to the brokers",
        json_schema_extra=_KAFKA,
    )
    sasl_mechanism: str | None = Field(
        default=None,
        description="SASL mechanism: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 (none: PLAIN)",
        json_schema_extra=_KAFKA,
    )
    sasl_username: str | None = Field(
        default=None, description="SASL user name", json_schema_extra=_KAFKA
    )
    sasl_password: SecretStr | None = Field(
        default=None,
        description="SASL password (env CARGO_KAFKA_SASL_PASSWORD only; never a flag)",
        json_schema_extra=_KAFKA_NO_FLAG,
    )
    sasl_password_file: Path | None = Field(
        default=None,
        description="file holding the SASL password (env CARGO_KAFKA_SASL_PASSWORD_FILE)",
        json_schema_extra=_KAFKA_NO_FLAG,
    )
    ssl_cafile: str | None = Field(
        default=None,
        description="CA bundle (PEM) to verify the brokers with (none: the system's)",
        json_schema_extra=_KAFKA,
    )
    ssl_certfile: str | None = Field(
        default=None,
        description="client certificate (PEM) for mutual TLS",
        json_schema_extra=_KAFKA,
    )
    ssl_keyfile: str | None = Field(
        default=None,
        description="private key (PEM) of the client certificate",
        json_schema_extra=_KAFKA,
    )
    traces_topic: str = Field(
        default="agent-traces", min_length=1, description="input topic", json_schema_extra=_KAFKA
    )
    judgments_topic: str = Field(
        default="cargo-judgments",
        min_length=1,
        description="judgments topic (created log-compacted)",
        json_schema_extra=_KAFKA,
    )
    dlq_topic: str = Field(
        default="cargo-traces-dlq",
        min_length=1,
        description="dead-letter topic",
        json_schema_extra=_KAFKA,
    )
    partitions: int = Field(
        default=4,
        ge=1,
        description="partitions of the topics the monitor creates when missing",
        json_schema_extra=_KAFKA,
    )
    replication: int = Field(
        default=1,
        ge=1,
        description="replication factor of the topics the monitor creates",
        json_schema_extra=_KAFKA,
    )

    @model_validator(mode="before")
    @classmethod
    def _password_from_file(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("sasl_password") is not None:
            return data
        path = data.get("sasl_password_file")
        if path:
            try:
                secret = Path(path).read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError) as exc:
                # The path only: a partly read file may hold the secret.
                raise ValueError(
                    f"cannot read the SASL password file {path}: {type(exc).__name__}"
                ) from None
            data = {**data, "sasl_password": secret}
        return data

    @model_validator(mode="after")
    def _check_security(self) -> KafkaSettings:
        if self.sasl and (not self.sasl_username or self.sasl_password is None):
            raise ValueError(
                f"{self.security_protocol} needs a SASL user name (--sasl-username or "
                "CARGO_KAFKA_SASL_USERNAME) and a password (CARGO_KAFKA_SASL_PASSWORD or "
                "CARGO_KAFKA_SASL_PASSWORD_FILE)"
            )
        if self.ssl_keyfile and not self.ssl_certfile:
            raise ValueError("ssl_keyfile needs ssl_certfile (the client certificate)")
        return self

    @property
    def sasl(self) -> bool:
        return self.security_protocol.startswith("SASL")

    @property
    def tls(self) -> bool:
        return self.security_protocol in ("SSL", "SASL_SSL")

    @property
    def servers(self) -> list[str]:
        return [b.strip() for b in self.bootstrap.split(",") if b.strip()]

    def ssl_context(self) -> ssl.SSLContext | None:
        """The TLS context for SSL and SASL_SSL (None otherwise)."""
        if not self.tls:
            return None
        context = ssl.create_default_context(cafile=self.ssl_cafile)
        if self.ssl_certfile:
            context.load_cert_chain(self.ssl_certfile, self.ssl_keyfile)
        return context

    def _password(self) -> str | None:
        if self.sasl_password is None:
            return None
        return _Masked(self.sasl_password.get_secret_value())

    def faust_credentials(self) -> Any:
        """``broker_credentials`` for a Faust app (None for PLAINTEXT)."""
        import faust

        if self.sasl:
            return faust.SASLCredentials(
                username=self.sasl_username,
                password=self._password(),
                mechanism=self.sasl_mechanism or "PLAIN",
                ssl_context=self.ssl_context(),
            )
        if self.tls:
            return faust.SSLCredentials(self.ssl_context())
        return None

    def faust_brokers(self) -> list[str]:
        return [f"kafka://{s}" for s in self.servers]

    def aiokafka_kwargs(self) -> dict[str, Any]:
        """Connection keyword arguments of an aiokafka client."""
        out: dict[str, Any] = {
            "bootstrap_servers": self.bootstrap,
            "security_protocol": self.security_protocol,
        }
        if self.sasl:
            out |= {
                "sasl_mechanism": self.sasl_mechanism or "PLAIN",
                "sasl_plain_username": self.sasl_username,
                "sasl_plain_password": self._password(),
            }
        if self.tls:
            out["ssl_context"] = self.ssl_context()
        return out

    def kafka_python_kwargs(self) -> dict[str, Any]:
        """Connection keyword arguments of a kafka-python client (producer, consumer, admin)."""
        out: dict[str, Any] = {
            "bootstrap_servers": self.bootstrap,
            "security_protocol": self.security_protocol,
        }
        if self.sasl:
            out |= {
                "sasl_mechanism": self.sasl_mechanism or "PLAIN",
                "sasl_plain_username": self.sasl_username,
                "sasl_plain_password": self._password(),
            }
        if self.tls:
            out |= {
                "ssl_cafile": self.ssl_cafile,
                "ssl_certfile": self.ssl_certfile,
                "ssl_keyfile": self.ssl_keyfile,
            }
        return out

    def topics(self) -> dict[str, int]:
        """The monitor's three topics with the partition count to create them with."""
        return {
            self.traces_topic: self.partitions,
            self.judgments_topic: self.partitions,
            self.dlq_topic: self.partitions,
        }


class WorkerSettings(BaseSettings):
    """How one ``stream`` worker runs (env prefix ``CARGO_STREAM_``): its consumer group,
    state, pipelining, retries and progress watch."""

    model_config = SettingsConfigDict(env_prefix="CARGO_STREAM_", extra="ignore")

    group: str = Field(
        default="cargo-monitor",
        min_length=1,
        description="consumer group / Faust app id",
        json_schema_extra=_KAFKA,
    )
    data_dir: str | None = Field(
        default=None,
        description="Faust table state directory",
        json_schema_extra=flag_options("Kafka", default_help="a new folder under /tmp per process"),
    )
    pipeline_depth: int = Field(
        default=4,
        ge=1,
        le=64,
        description="batches in flight per worker: the next batches are embedded and "
        "judged while earlier ones are delivered; 1 = one at a time",
        json_schema_extra=_KAFKA,
    )
    max_attempts: int = Field(
        default=3,
        ge=1,
        le=20,
        description="evaluations of a trace whose evaluation raises, its batch's "
        "included, before it is dead-lettered as evaluator_error",
        json_schema_extra=_KAFKA,
    )
    progress_interval_s: float = Field(
        default=10.0,
        ge=0.5,
        le=3600,
        description="seconds between progress checks: per-partition lag gauge, an info "
        "line per lagging partition",
        json_schema_extra=flag_options("Kafka", flag="--progress-interval"),
    )
    stall_after_s: float = Field(
        default=120.0,
        ge=1,
        le=86_400,
        description="a partition with lag that has not advanced for this many seconds is "
        "stalled: cargo_partition_stalled 1 and a warning with its likely cause",
        json_schema_extra=flag_options("Kafka", flag="--stall-after"),
    )
    fetch_max_wait_s: float = Field(
        default=0.1,
        ge=0.001,
        le=30,
        description="seconds the broker may hold a fetch that finds no new records "
        "(Faust's own is 1.5): the longest an idle partition can hold up the others "
        "(docs/design/fetch-max-wait.md)",
        json_schema_extra=flag_options("Kafka", flag="--fetch-max-wait"),
    )
    loglevel: str = Field(
        default="warning",
        description="worker log level",
        json_schema_extra=flag_options("output"),
    )
