"""The one Kafka connection config: defaults, environment, secrets from env or a file,
the client keyword arguments, and a SASL password that never reaches logs or argv."""

from __future__ import annotations

import argparse
import logging
import ssl
from pathlib import Path

import pytest
from pydantic import ValidationError

from monitor.errors import ConfigError
from pipelines.kafka.config import KafkaSettings

SECRET = "s3cr3t-Pa55-do-not-log"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for name in list(os.environ):
        if name.startswith("CARGO_KAFKA_"):
            monkeypatch.delenv(name)


def test_defaults_are_the_ones_every_command_used() -> None:
    k = KafkaSettings()
    assert k.bootstrap == "127.0.0.1:9092" and k.security_protocol == "PLAINTEXT"
    assert (k.traces_topic, k.judgments_topic, k.dlq_topic) == (
        "agent-traces",
        "cargo-judgments",
        "cargo-traces-dlq",
    )
    assert (k.partitions, k.replication) == (4, 1)
    assert k.faust_credentials() is None and k.ssl_context() is None
    assert k.kafka_python_kwargs() == {
        "bootstrap_servers": "127.0.0.1:9092",
        "security_protocol": "PLAINTEXT",
    }
    assert k.faust_brokers() == ["kafka://127.0.0.1:9092"]


def test_every_field_is_described_and_in_the_kafka_group() -> None:
    for name, field in KafkaSettings.model_fields.items():
        assert field.description, name
        assert isinstance(field.json_schema_extra, dict)
        assert field.json_schema_extra["group"] == "Kafka", name


def test_environment_and_password_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARGO_KAFKA_BOOTSTRAP", "a:1,b:2")
    monkeypatch.setenv("CARGO_KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT")
    monkeypatch.setenv("CARGO_KAFKA_SASL_USERNAME", "monitor")
    monkeypatch.setenv("CARGO_KAFKA_SASL_PASSWORD", SECRET)
    k = KafkaSettings()
    assert k.servers == ["a:1", "b:2"]
    kw = k.kafka_python_kwargs()
    assert kw["sasl_plain_password"] == SECRET and kw["sasl_mechanism"] == "PLAIN"
    assert k.aiokafka_kwargs()["sasl_plain_username"] == "monitor"
    creds = k.faust_credentials()
    assert creds.username == "monitor" and creds.mechanism.value == "PLAIN"
    assert SECRET not in repr(k) and SECRET not in str(k)
    assert SECRET not in k.model_dump_json()


def test_password_from_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret_file = tmp_path / "kafka-password"
    secret_file.write_text(SECRET + "\n")
    monkeypatch.setenv("CARGO_KAFKA_SASL_PASSWORD_FILE", str(secret_file))
    k = KafkaSettings(
        security_protocol="SASL_SSL", sasl_username="u", sasl_mechanism="SCRAM-SHA-256"
    )
    assert k.sasl_password is not None and k.sasl_password.get_secret_value() == SECRET
    assert k.aiokafka_kwargs()["sasl_mechanism"] == "SCRAM-SHA-256"
    assert isinstance(k.aiokafka_kwargs()["ssl_context"], ssl.SSLContext)
    missing = tmp_path / "nope"
    monkeypatch.setenv("CARGO_KAFKA_SASL_PASSWORD_FILE", str(missing))
    with pytest.raises(ValidationError, match="cannot read the SASL password file"):
        KafkaSettings()


def test_sasl_without_credentials_is_refused_with_where_to_set_them() -> None:
    with pytest.raises(ValidationError, match="CARGO_KAFKA_SASL_PASSWORD"):
        KafkaSettings(security_protocol="SASL_PLAINTEXT", sasl_username="u")
    with pytest.raises(ValidationError, match="ssl_certfile"):
        KafkaSettings(security_protocol="SSL", ssl_keyfile="k.pem")


def test_tls_files_go_to_every_client(tmp_path: Path) -> None:
    k = KafkaSettings(security_protocol="SSL", ssl_cafile=str(tmp_path / "ca.pem"))
    assert k.kafka_python_kwargs()["ssl_cafile"] == str(tmp_path / "ca.pem")
    with pytest.raises((FileNotFoundError, ssl.SSLError)):
        k.ssl_context()  # the file is read: a wrong path fails at start, not silently


@pytest.mark.parametrize("command", ["stream", "replay", "topics"])
def test_no_command_takes_the_password_as_a_flag(command: str) -> None:
    import importlib

    module = importlib.import_module(f"pipelines.cli.{command}")
    parser = argparse.ArgumentParser(exit_on_error=False)
    module.COMMAND.register(parser)
    verb = ["list"] if command == "topics" else []
    for flag in ("--sasl-password", "--sasl-password-file"):
        with pytest.raises((argparse.ArgumentError, SystemExit)):
            parser.parse_args([*verb, flag, SECRET])
    assert "--sasl-password" not in parser.format_help()
    assert "--ssl-certfile" in (
        parser.format_help() if command != "topics" else _sub_help(parser, "list")
    )


def _sub_help(parser: argparse.ArgumentParser, verb: str) -> str:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return str(sub.choices[verb].format_help())


def test_the_password_never_reaches_logs_or_errors(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A SASL ``topics list`` against a broker that is not there: every log record of
    every logger (DEBUG: the Kafka clients' too) and the error it ends with."""
    from kafka.admin import KafkaAdminClient

    from pipelines.cli import topics

    # kafka-python logs its whole configuration at DEBUG (the password with it, unless
    # masked). Give up on the absent broker after 1 s instead of 30.
    monkeypatch.setitem(KafkaAdminClient.DEFAULT_CONFIG, "bootstrap_timeout_ms", 1000)
    monkeypatch.setenv("CARGO_KAFKA_SASL_PASSWORD", SECRET)
    parser = argparse.ArgumentParser()
    topics.COMMAND.register(parser)
    argv = [
        "list",
        "--bootstrap",
        "127.0.0.1:1",
        "--security-protocol",
        "SASL_PLAINTEXT",
        "--sasl-username",
        "monitor",
    ]
    args = parser.parse_args(argv)
    with caplog.at_level(logging.DEBUG), pytest.raises(ConfigError) as err:
        topics.COMMAND.run(args)
    assert "cannot reach Kafka at 127.0.0.1:1" in str(err.value)
    assert SECRET not in str(err.value)
    assert "sasl_plain_password" in caplog.text  # the configuration was logged, masked
    assert SECRET not in caplog.text
    assert all(SECRET not in str(r.__dict__) for r in caplog.records)
    assert SECRET not in " ".join(argv)
    out = capsys.readouterr()
    assert SECRET not in out.out + out.err


def test_the_worker_takes_the_password_from_a_file_and_never_shows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """``stream`` with SASL: the password comes from CARGO_KAFKA_SASL_PASSWORD_FILE, reaches
    the Faust credentials, and is in no log record, repr or argv."""
    from monitor.settings import CargoSettings
    from pipelines.cli import stream

    secret_file = tmp_path / "pw"
    secret_file.write_text(SECRET)
    monkeypatch.setenv("CARGO_KAFKA_SASL_PASSWORD_FILE", str(secret_file))
    argv = [
        "--bootstrap",
        "127.0.0.1:1",
        "--security-protocol",
        "SASL_PLAINTEXT",
        "--sasl-username",
        "monitor",
        "--metrics-port",
        "0",
        "--data-dir",
        str(tmp_path / "faust"),
        "--embedder",
        "hashing",
        "--cache-dir",
        str(tmp_path / "cache"),
    ]
    parser = argparse.ArgumentParser()
    stream.COMMAND.register(parser)
    args = parser.parse_args(argv)
    from pipelines.cli.base import settings_from_args
    from pipelines.kafka.worker import StreamConfig, build_app

    kafka = settings_from_args(KafkaSettings, args)
    cfg = StreamConfig(kafka=kafka, metrics_port=0, data_dir=str(tmp_path / "faust"))
    with caplog.at_level(logging.DEBUG):
        app = build_app(cfg, settings_from_args(CargoSettings, args))
        logging.getLogger("cargo.stream").info("config %s %r", cfg, kafka)
    creds = app.conf.broker_credentials
    assert creds.password == SECRET and creds.username == "monitor"
    assert SECRET not in caplog.text and SECRET not in repr(cfg) and SECRET not in repr(creds)
    assert SECRET not in " ".join(argv)
