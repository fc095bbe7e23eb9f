"""The command line: one module per command, flags generated from the settings models.

The flag tables below are the flags the CLI had before the flags were generated (and the
settings each one set); they must keep parsing to the same values.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from monitor.data import DEFAULT_OTLP_SAMPLES, DEFAULT_SAMPLES
from monitor.errors import ConfigError
from monitor.limits import InputLimits
from monitor.settings import CargoSettings
from pipelines.cli import COMMANDS, build_parser, main
from pipelines.cli.base import settings_flags, settings_from_args
from pipelines.kafka.config import KafkaSettings, WorkerSettings

MODELS: tuple[type[Any], ...] = (CargoSettings, KafkaSettings)


@pytest.fixture(autouse=True)
def _no_cargo_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(os.environ):
        if key.startswith("CARGO_"):
            monkeypatch.delenv(key)


def _subparser(parser: argparse.ArgumentParser, *path: str) -> argparse.ArgumentParser:
    for name in path:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[name]
    return parser


def _all_parsers(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _all_parsers(sub, (*path, name))


# (flag, value, setting, expected value): the old run/stream evaluation flags.
EVAL_FLAGS: list[tuple[str, str, str, Any]] = [
    ("--golden", "g.yaml", "golden", Path("g.yaml")),
    ("--judge", "hybrid", "judge", "hybrid"),
    ("--gate", "margin", "gate", "margin"),
    ("--tau", "0.7", "tau", 0.7),
    ("--delta", "0.05", "delta", 0.05),
    ("--gamma", "0.9", "gamma", 0.9),
    ("--gate-model", "m.json", "gate_model", Path("m.json")),
    ("--embedder", "hashing", "embedder", "hashing"),
    ("--batch-size", "16", "batch_size", 16),
    ("--embed-threads", "2", "embed_threads", 2),
    ("--cache-dir", "/tmp/cargo-cache", "cache_dir", Path("/tmp/cargo-cache")),
    ("--metrics-port", "0", "metrics_port", 0),
    ("--languages", "en,de", "languages", "en,de"),
    ("--min-answer-chars", "5", "min_answer_chars", 5),
    ("--max-answer-chars", "100", "max_answer_chars", 100),
]
# The old LLM judge flags (run, stream and bench run).
LLM_FLAGS: list[tuple[str, str, str, Any]] = [
    ("--judge-base-url", "http://127.0.0.1:1/v1", "judge_base_url", "http://127.0.0.1:1/v1"),
    ("--judge-model", "m", "judge_model", "m"),
    ("--judge-condition", "direct", "judge_condition", "direct"),
    ("--judge-rubric", "context_grounded", "judge_rubric", "context_grounded"),
    ("--judge-temperature", "0.1", "judge_temperature", 0.1),
    ("--judge-top-p", "0.5", "judge_top_p", 0.5),
    ("--judge-seed", "9", "judge_seed", 9),
    ("--judge-request-timeout", "7.5", "judge_request_timeout_s", 7.5),
    ("--judge-timeout", "12", "judge_timeout_s", 12.0),
    ("--judge-max-concurrency", "3", "judge_max_concurrency", 3),
    ("--judge-max-retries", "1", "judge_max_retries", 1),
    ("--judge-max-tokens", "256", "judge_max_tokens", 256),
    ("--judge-structured-output", "off", "judge_structured_output", "off"),
    ("--judge-price-input", "0.5", "judge_price_input_per_1k", 0.5),
    ("--judge-price-output", "1.5", "judge_price_output_per_1k", 1.5),
    ("--judge-sample-rate", "0.25", "judge_sample_rate", 0.25),
    ("--citation-support", "llm", "citation_support", "llm"),
]
# The old stream connection flags, now KafkaSettings fields.
KAFKA_FLAGS: list[tuple[str, str, str, Any]] = [
    ("--bootstrap", "kafka:19092", "bootstrap", "kafka:19092"),
    ("--traces-topic", "t-in", "traces_topic", "t-in"),
    ("--judgments-topic", "t-out", "judgments_topic", "t-out"),
    ("--dlq-topic", "t-dlq", "dlq_topic", "t-dlq"),
    ("--partitions", "2", "partitions", 2),
    ("--replication", "3", "replication", 3),
    ("--security-protocol", "SSL", "security_protocol", "SSL"),
    ("--sasl-mechanism", "SCRAM-SHA-256", "sasl_mechanism", "SCRAM-SHA-256"),
    ("--sasl-username", "u", "sasl_username", "u"),
    ("--ssl-cafile", "ca.pem", "ssl_cafile", "ca.pem"),
]
# The stream worker's own settings (WorkerSettings): flag, value, field, expected.
WORKER_FLAGS: list[tuple[str, str, str, Any]] = [
    ("--group", "g", "group", "g"),
    ("--data-dir", "d", "data_dir", "d"),
    ("--pipeline-depth", "2", "pipeline_depth", 2),
    ("--max-attempts", "5", "max_attempts", 5),
    ("--progress-interval", "5", "progress_interval_s", 5.0),
    ("--stall-after", "60", "stall_after_s", 60.0),
    ("--fetch-max-wait", "0.5", "fetch_max_wait_s", 0.5),
    ("--loglevel", "info", "loglevel", "info"),
]
# Command-local flags: (command path, argv, attribute, expected).
LOCAL_FLAGS: list[tuple[tuple[str, ...], list[str], str, Any]] = [
    (("run",), ["--input", "in.jsonl"], "input", "in.jsonl"),
    (("run",), ["--follow"], "follow", True),
    (("run",), ["--output", "-"], "output", "-"),
    (("run",), ["--keep-serving"], "keep_serving", True),
    (("run",), ["--no-progress"], "no_progress", True),
    (("bench", "run"), ["--draws", "2"], "draws", 2),
    (("bench", "run"), ["--gen-seed", "5"], "gen_seed", 5),
    (
        ("bench", "run"),
        ["--judge", "llm", "--judge", "structural"],
        "judges",
        ["llm", "structural"],
    ),
    (("bench", "run"), ["--repeats", "3"], "repeats", 3),
    (("bench", "run"), ["--condition", "cargo"], "conditions", ["cargo"]),
    (("bench", "run"), ["--rubric", "context_grounded"], "rubrics", ["context_grounded"]),
    (("bench", "run"), ["--json", "r.json"], "json", "r.json"),
    (("bench", "run"), ["--markdown", "r.md"], "markdown", "r.md"),
    (("bench", "run"), ["--embedder", "hashing"], "embedder", "hashing"),
    (("bench", "run"), ["--tau", "0.6"], "tau", 0.6),
    (("bench", "run"), ["--delta", "0.1"], "delta", 0.1),
    (("bench", "run"), ["--gamma", "0.7"], "gamma", 0.7),
    (("bench", "run"), ["--gate-model", "g.json"], "gate_model", "g.json"),
    (("bench", "run"), ["--bootstrap", "100"], "bootstrap", 100),
    (("bench", "run"), ["--cache-dir", "c"], "cache_dir", "c"),
]
BENCH_SOURCE = ["--instances", "i.jsonl"]


def _parse(path: tuple[str, ...], argv: list[str]) -> argparse.Namespace:
    extra = BENCH_SOURCE if path == ("bench", "run") and "--instances" not in argv else []
    return build_parser().parse_args([*path, *argv, *extra])


@pytest.mark.parametrize(
    ("path", "flag", "value", "setting", "expected"),
    [(("run",), *row) for row in EVAL_FLAGS + LLM_FLAGS]
    + [(("stream",), *row) for row in EVAL_FLAGS + LLM_FLAGS]
    + [(("bench", "run"), *row) for row in LLM_FLAGS],
)
def test_old_setting_flags_parse_to_the_same_setting(
    path: tuple[str, ...], flag: str, value: str, setting: str, expected: Any
) -> None:
    settings = settings_from_args(CargoSettings, _parse(path, [flag, value]))
    assert getattr(settings, setting) == expected
    assert getattr(settings, setting) != CargoSettings.model_fields[setting].get_default(
        call_default_factory=True
    )


@pytest.mark.parametrize(("flag", "value", "setting", "expected"), KAFKA_FLAGS)
def test_old_stream_kafka_flags_parse_to_the_kafka_settings(
    flag: str, value: str, setting: str, expected: Any
) -> None:
    kafka = settings_from_args(KafkaSettings, _parse(("stream",), [flag, value]))
    assert getattr(kafka, setting) == expected


@pytest.mark.parametrize(("flag", "value", "setting", "expected"), WORKER_FLAGS)
def test_old_stream_worker_flags_parse_to_the_worker_settings(
    flag: str, value: str, setting: str, expected: Any
) -> None:
    worker = settings_from_args(WorkerSettings, _parse(("stream",), [flag, value]))
    assert getattr(worker, setting) == expected
    assert getattr(WorkerSettings(), setting) != expected  # the flag changed it


@pytest.mark.parametrize(("path", "argv", "attr", "expected"), LOCAL_FLAGS)
def test_old_command_flags_parse(
    path: tuple[str, ...], argv: list[str], attr: str, expected: Any
) -> None:
    assert getattr(_parse(path, argv), attr) == expected


def test_no_flags_means_the_model_defaults() -> None:
    args = _parse(("run",), [])
    assert settings_from_args(CargoSettings, args) == CargoSettings()
    assert args.input is None and args.output == "out/judgments.jsonl"
    from pipelines.cli.run import default_input

    assert default_input(None, "cargo") == str(DEFAULT_SAMPLES)
    assert default_input(None, "auto") == str(DEFAULT_SAMPLES)
    assert default_input(None, "otlp-json") == str(DEFAULT_OTLP_SAMPLES)
    assert default_input("x.jsonl", "otlp-json") == "x.jsonl"


def test_per_intent_sample_rates_are_repeatable() -> None:
    argv = ["--judge-sample-rate-intent", "billing=0.5", "--judge-sample-rate-intent", "x = 0.25"]
    settings = settings_from_args(CargoSettings, _parse(("run",), argv))
    assert settings.judge_sample_rates == {"billing": 0.5, "x": 0.25}


def test_bench_run_gate_flags_are_its_own_not_settings() -> None:
    args = _parse(("bench", "run"), ["--tau", "0.6", "--gamma", "0.7"])
    settings = settings_from_args(CargoSettings, args)
    assert (args.tau, args.gamma) == (0.6, 0.7)
    assert (settings.tau, settings.gamma) == (0.8, None)


def test_bench_run_bootstrap_default_is_the_runner_default() -> None:
    from monitor.bench.runner import BOOTSTRAP_RESAMPLES
    from pipelines.reports.bench import BenchRunOptions

    assert BenchRunOptions().bootstrap == BOOTSTRAP_RESAMPLES
    assert f"(default {BOOTSTRAP_RESAMPLES})" in _subparser(
        build_parser(), "bench", "run"
    ).format_help().replace("\n", " ")


def test_a_bad_setting_is_named_as_the_user_set_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # From the environment: the variable's name (a field name alone sent users to the
    # flags); the value itself is not echoed.
    monkeypatch.setenv("CARGO_TAU", "abc-secretish")
    monkeypatch.setenv("CARGO_JUDGE_TIMEOUT_S", "-1")
    with pytest.raises(ConfigError) as err:
        settings_from_args(CargoSettings, _parse(("run",), []))
    text = str(err.value)
    assert text.startswith("CARGO_TAU: Input should be a valid number")
    assert "CARGO_JUDGE_TIMEOUT_S: Input should be greater than 0" in text
    assert "abc-secretish" not in text and "\n" not in text
    # Given as a flag (extra values reach the model as if flags were given): the flag.
    monkeypatch.delenv("CARGO_TAU")
    with pytest.raises(ConfigError, match=r"^--judge-timeout: Input should be greater"):
        settings_from_args(CargoSettings, _parse(("run",), []), judge_timeout_s=-2)
    assert main(["run"]) == 2
    assert capsys.readouterr().err.strip() == (
        "cargo-monitor: error: CARGO_JUDGE_TIMEOUT_S: Input should be greater than 0"
    )


def test_env_first_then_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARGO_TAU", "0.7")
    monkeypatch.setenv("CARGO_JUDGE_REQUEST_TIMEOUT_S", "9")
    monkeypatch.setenv("CARGO_KAFKA_BOOTSTRAP", "env:1")
    settings = settings_from_args(CargoSettings, _parse(("run",), []))
    assert (settings.tau, settings.judge_request_timeout_s) == (0.7, 9.0)
    args = _parse(("stream",), ["--tau", "0.9"])
    assert settings_from_args(CargoSettings, args).tau == 0.9
    assert settings_from_args(CargoSettings, args).judge_request_timeout_s == 9.0
    assert settings_from_args(KafkaSettings, args).bootstrap == "env:1"
    args = _parse(("stream",), ["--bootstrap", "flag:2"])
    assert settings_from_args(KafkaSettings, args).bootstrap == "flag:2"


def test_bool_setting_has_both_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings_from_args(CargoSettings, _parse(("run",), ["--redact"])).redact is True
    monkeypatch.setenv("CARGO_REDACT", "true")
    assert settings_from_args(CargoSettings, _parse(("run",), [])).redact is True
    assert settings_from_args(CargoSettings, _parse(("run",), ["--no-redact"])).redact is False


@pytest.mark.parametrize(
    ("path", "flag", "value", "bound"),
    [
        (("run",), "--batch-size", "0", "greater than or equal to 1"),
        (("run",), "--tau", "1.5", "less than or equal to 1"),
        (("run",), "--metrics-port", "70000", "less than or equal to 65535"),
        (("run",), "--judge-temperature", "3", "less than or equal to 2"),
        (("run",), "--judge-top-p", "0", "greater than 0"),
        (("run",), "--max-json-depth", "0", "greater than or equal to 1"),
        (("run",), "--judge-sample-rate-intent", "billing=2", "less than or equal to 1"),
        (("stream",), "--partitions", "0", "greater than or equal to 1"),
        (("bench", "run"), "--judge-max-retries", "21", "less than or equal to 20"),
    ],
)
def test_an_out_of_bounds_flag_exits_2_with_the_bound(
    path: tuple[str, ...], flag: str, value: str, bound: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*path, flag, value, *(BENCH_SOURCE if path == ("bench", "run") else [])]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}" in err and bound in err


def test_an_out_of_bounds_env_value_exits_2_with_the_bound(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CARGO_BATCH_SIZE", "0")
    assert main(["run", "--embedder", "hashing", "--metrics-port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cargo-monitor: error:")
    assert "CARGO_BATCH_SIZE: " in err and "greater than or equal to 1" in err


def test_no_secret_field_has_a_flag() -> None:
    secrets = {
        name
        for model in MODELS
        for name, field in model.model_fields.items()
        if SecretStr in (field.annotation, *getattr(field.annotation, "__args__", ()))
    }
    assert {"judge_api_key", "redact_salt", "sasl_password"} <= secrets
    for model in MODELS:
        assert not secrets & set(settings_flags(model))
    for path, parser in _all_parsers(build_parser()):
        for action in parser._actions:
            assert action.dest not in secrets, (path, action.dest)
            for option in action.option_strings:
                assert option.lstrip("-").replace("-", "_") not in secrets, (path, option)


def test_the_api_key_comes_from_the_named_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_JUDGE_KEY", "sk-test")
    args = _parse(("run",), ["--judge-api-key-env", "MY_JUDGE_KEY"])
    key = settings_from_args(CargoSettings, args).judge_api_key
    assert key is not None and key.get_secret_value() == "sk-test"
    with pytest.raises(ConfigError, match="NO_SUCH_VAR is not set"):
        settings_from_args(CargoSettings, _parse(("run",), ["--judge-api-key-env", "NO_SUCH_VAR"]))
    # A key passed by mistake is refused without being echoed.
    with pytest.raises(ConfigError) as exc:
        settings_from_args(CargoSettings, _parse(("run",), ["--judge-api-key-env", "sk-abc/123"]))
    assert "sk-abc" not in str(exc.value)


def test_redact_salt_only_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARGO_REDACT_SALT", "pepper")
    salt = settings_from_args(CargoSettings, _parse(("run",), [])).redact_salt
    assert salt is not None and salt.get_secret_value() == "pepper"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--redact-salt", "pepper"])


def test_limits_come_from_the_settings() -> None:
    assert CargoSettings().limits() == InputLimits()
    argv = ["--max-payload-bytes", "1000", "--max-json-depth", "8", "--max-string-chars", "50"]
    limits = settings_from_args(CargoSettings, _parse(("run",), argv)).limits()
    assert (limits.max_payload_bytes, limits.max_json_depth, limits.max_string_chars) == (
        1000,
        8,
        50,
    )


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [p for p, _ in _all_parsers(build_parser())]
    assert {("run",), ("stream",), ("bench", "run"), ("topics", "lag")} <= set(paths)
    for path in paths:
        with pytest.raises(SystemExit) as exc:
            build_parser().parse_args([*path, "--help"])
        assert exc.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith(f"usage: cargo-monitor {' '.join(path)}".rstrip()), path


def test_registry_is_the_parser() -> None:
    top = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert list(top.choices) == list(COMMANDS)
    assert all(COMMANDS[name].name == name for name in COMMANDS)


def _sections(help_text: str) -> list[str]:
    return [
        line[:-1] for line in help_text.splitlines() if line and line[0] != " " and line[-1] == ":"
    ]


@pytest.mark.parametrize(
    ("path", "groups"),
    [
        (
            ("run",),
            ["input", "retrieval and gate", "judge", "LLM endpoint", "OpenTelemetry", "output"],
        ),
        (
            ("stream",),
            [
                "input",
                "Kafka",
                "retrieval and gate",
                "judge",
                "LLM endpoint",
                "OpenTelemetry",
                "output",
            ],
        ),
        (("bench", "run"), ["input", "retrieval and gate", "judge", "LLM endpoint", "output"]),
    ],
)
def test_help_shows_the_option_groups_in_order(path: tuple[str, ...], groups: list[str]) -> None:
    parser = _subparser(build_parser(), *path)
    sections = [s.split(" (")[0] for s in _sections(parser.format_help())]
    assert sections[sections.index("options") + 1 :] == groups
    # Nothing but --help is left in the ungrouped list.
    ungrouped = next(g for g in parser._action_groups if g.title == "options")
    assert [a.dest for a in ungrouped._group_actions] == ["help"]


def test_help_shows_descriptions_and_model_defaults() -> None:
    text = " ".join(_subparser(build_parser(), "run").format_help().split())
    assert (
        "--judge-request-timeout JUDGE_REQUEST_TIMEOUT seconds per HTTP request "
        "(default: 60.0; env CARGO_JUDGE_REQUEST_TIMEOUT_S)" in text
    )
    assert "--gate {fixed,margin,calibrated} gate kind (default: fixed)" in text
    assert "--metrics-host METRICS_HOST bind /metrics here (default: loopback, 127.0.0.1)" in text


def test_every_setting_is_described_and_grouped() -> None:
    for model in MODELS:
        for name, field in model.model_fields.items():
            extra = field.json_schema_extra
            assert field.description, (model.__name__, name)
            assert isinstance(extra, dict) and extra.get("group"), (model.__name__, name)


def test_the_console_script_entry_point_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "--help"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert all(name in out for name in COMMANDS)


# The small commands, end to end in-process (run, bench run/generate, calibrate and report
# have their own test files).


def test_validate_golden(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from monitor.data import DEFAULT_GOLDEN

    assert main(["validate-golden", str(DEFAULT_GOLDEN)]) == 0
    assert ": OK, version" in capsys.readouterr().out
    assert main(["validate-golden", str(tmp_path / "nope.yaml")]) == 2
    assert capsys.readouterr().err.startswith("cargo-monitor: error:")


def test_validate_golden_notes_a_value_that_is_also_a_policy_number(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A marina's golden set put an application "at position 12" beside "every 12
    months": valid, but the judge cannot tell them apart unless the phrase or its
    sentence is declared. The set still passes (exit 0), with a note."""
    text = """
version: "1"
items:
  - id: wait
    intent: w
    agent: a
    question: "Where is application 5573021 on the list?"
    answer: "Application 5573021 is at position 12. Renew every 12 months or it is removed."
    parameters:
      applicationId: {value: "5573021", type: digits, length: 7}
      position: {value: "12", type: integer, label: position}
"""
    plain = tmp_path / "plain.yaml"
    plain.write_text(text, encoding="utf-8")
    assert main(["validate-golden", str(plain)]) == 0
    out = capsys.readouterr().out
    assert (
        f"{plain}: note: item 'wait': parameters.position: value '12' stands 2 times in the "
        "answer; where one is a policy's number, declare that phrase in policy_terms"
    ) in out
    declared = tmp_path / "declared.yaml"
    declared.write_text(text + '    policy_terms: ["every 12 months"]\n', encoding="utf-8")
    assert main(["validate-golden", str(declared)]) == 0
    assert "note: item 'wait'" not in capsys.readouterr().out


PARAPHRASED_GOLDEN = """
version: "1"
items:
  - id: withdraw
    intent: withdrawal
    agent: exams
    question: "How do I withdraw a candidate from an exam?"
    question_paraphrases:
      - "we can't make the exam anymore, how do we drop out?"
      - "My daughter is ill, can she pull out of her exam?"
    answer: "Withdraw the candidate in the portal before the closing date."
  - id: results
    intent: results
    agent: exams
    question: "When are exam results published?"
    answer: "Results are published online within six weeks of the exam."
"""


def test_validate_golden_counts_phrasings_and_notes_items_without(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(PARAPHRASED_GOLDEN, encoding="utf-8")
    assert main(["validate-golden", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{path}: OK, version 1, 2 items, 0 entity-bearing, 4 question phrasings"
    assert out[1].startswith(
        f"{path}: note: 1 of 2 items without question_paraphrases ('results'): "
    )
    dup = PARAPHRASED_GOLDEN.replace("My daughter is ill", "We can't make the exam anymore")
    dup = dup.replace("can she pull out of her exam?", "how do we drop out?")
    path.write_text(dup, encoding="utf-8")
    assert main(["validate-golden", str(path)]) == 2
    err = capsys.readouterr().err
    assert (
        f"{path}: item 'withdraw': question_paraphrases.1: \"We can't make the exam anymore, "
        'how do we drop out?" is the same as question_paraphrases.0'
    ) in err


def test_run_with_paraphrases_records_the_phrasing_that_matched(tmp_path: Path) -> None:
    """The embedded ``run`` on a paraphrased set: the gate's candidates are distinct
    items, and the matched phrasing is on the candidate that has paraphrases."""
    import json

    golden = tmp_path / "g.yaml"
    golden.write_text(PARAPHRASED_GOLDEN, encoding="utf-8")
    traces = tmp_path / "t.jsonl"
    traces.write_text(
        json.dumps(
            {
                "trace_id": "t1",
                "question": "my son is ill, can he pull out of his exam?",
                "answer": "Withdraw the candidate in the portal before the closing date.",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "j.jsonl"
    argv = ["run", "--golden", str(golden), "--input", str(traces), "--output", str(out)]
    argv += ["--embedder", "hashing", "--metrics-port", "0", "--tau", "-1", "--no-progress"]
    assert main([*argv, "--cache-dir", str(tmp_path / "cache")]) == 0
    (judgment,) = [json.loads(line) for line in out.read_text().splitlines()]
    gate = judgment["gate"]
    assert gate["reference_id"] == "withdraw" and judgment["status"] == "evaluated"
    assert [c["reference_id"] for c in gate["candidates"]] == ["withdraw", "results"]
    assert gate["candidates"][0]["phrasing"] == 2
    assert "phrasing" not in gate["candidates"][1]
    assert gate["second_similarity"] == gate["candidates"][1]["similarity"]


def test_fit_gate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    rows = tmp_path / "labels.jsonl"
    rows.write_text(
        "".join(
            json.dumps(
                {"similarity": s / 100, "margin": 0.1, "intent": "x", "appropriate": s >= 70}
            )
            + "\n"
            for s in range(30, 100, 2)
        )
    )
    model = tmp_path / "gate.json"
    argv = ["fit-gate", "--labels", str(rows), "--out", str(model), "--method", "logistic"]
    assert main([*argv, "--gamma", "0.6"]) == 0
    data = json.loads(model.read_text())
    assert (data["method"], data["gamma"]) == ("logistic", 0.6)
    assert "logistic gate fitted on 35 rows" in capsys.readouterr().out


def test_make_samples_regenerates_the_bundled_traffic(tmp_path: Path) -> None:
    from monitor.data import DEFAULT_SAMPLES

    out = tmp_path / "traffic.jsonl"
    assert main(["make-samples", "--output", str(out)]) == 0
    assert out.read_bytes() == Path(DEFAULT_SAMPLES).read_bytes()


def test_bench_gate(tmp_path: Path) -> None:
    import json

    from tests.unit.pipelines.test_bench_cli import LIBRARY_SEEDS

    seeds = tmp_path / "library.yaml"
    seeds.write_text(LIBRARY_SEEDS, encoding="utf-8")
    out = tmp_path / "gate-demo"
    argv = ["bench", "gate", "--seeds", str(seeds), "--embedder", "hashing", "--draws", "8"]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--out", str(out), "--p1-coverage", "0.9"]
    assert main(argv) == 0
    rep = json.loads((out / "report.json").read_text())
    assert (rep["draws"], rep["p1_coverage"], rep["seeds"]) == (8, 0.9, str(seeds))
    assert (out / "gate.json").exists() and (out / "report.html").exists()


def test_an_unknown_flag_is_named_but_its_value_never_shown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv in (
        ["stream", "--sasl-password", "hunter2-secret"],
        ["run", "--judge-key=hunter2-secret"],
        ["replay", "in.jsonl", "hunter2-secret"],
    ):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "unrecognized arguments" in err and "hunter2" not in err
    main_err = "--sasl-password"
    with pytest.raises(SystemExit):
        main(["stream", main_err, "x"])
    assert main_err in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--output", "{tmp}"], "cannot write the output file"),
        (["--output", "{tmp}/afile/j.jsonl"], "cannot write the output file"),
        (["--input", "{tmp}"], "input is not a file"),
        (
            ["--input-format", "otlp-json", "--otel-events-out", "{tmp}"],
            "cannot write the events file",
        ),
        (["--input-format", "otlp-json", "--otlp-endpoint", "foo"], "--otlp-endpoint: "),
        # the output over the input would empty it before a line is read
        (["--input", "{tmp}/afile", "--output", "{tmp}/afile"], "is the input file"),
        (["--follow"], "--follow tails a growing input: give it with --input"),
        (
            ["--input-format", "otlp-json", "--output", "{tmp}/x", "--otel-events-out", "{tmp}/x"],
            "the judgments and the events go to one file",
        ),
    ],
)
def test_a_bad_path_or_endpoint_exits_2_with_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path that cannot be read or written, or a setting its model refuses: exit 2 and
    one line naming it, never a traceback (and never pydantic's input echo or link)."""
    (tmp_path / "afile").write_text("x")
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    base = ["run", "--embedder", "hashing", "--metrics-port", "0", "--no-progress"]
    if "--output" not in args:
        args += ["--output", str(tmp_path / "out.jsonl")]
    assert main([*base, *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cargo-monitor: error: ") and message in err, err
    assert len(err.splitlines()) == 1 and "errors.pydantic.dev" not in err
    assert "input_value" not in err
    assert (tmp_path / "afile").read_text() == "x"


@pytest.mark.parametrize(
    "argv",
    [
        ["validate-golden", "{dir}"],
        ["bench", "run", "--instances", "{dir}"],
        ["report", "--judgments", "{dir}", "--out", "{out}"],
    ],
)
def test_a_folder_given_for_a_file_is_one_line_and_exit_2(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Wherever a command opens the path: one line naming it, never a traceback.
    folder = tmp_path / "a-folder"
    folder.mkdir()
    args = [a.format(dir=folder, out=tmp_path / "out") for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"cargo-monitor: error: {folder}: Is a directory"]


def test_ctrl_c_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(_: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(COMMANDS["validate-golden"], "run", interrupted)
    assert main(["validate-golden", "x.yaml"]) == 130
    assert capsys.readouterr().err.strip().splitlines() == ["cargo-monitor: interrupted"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "run", "--seeds", "s", "--repeats", "0"], "--repeats: at least 1, got 0"),
        (["bench", "run", "--seeds", "s", "--bootstrap", "-5"], "--bootstrap: at least 1"),
        (["bench", "gate", "--seeds", "s", "--p1-coverage", "2"], "a share above 0 and at most 1"),
        (["report", "--judgments", "j", "--coverage", "1.5"], "a share above 0 and at most 1"),
        (["report", "--judgments", "j", "--cost-judge", "-1"], "--cost-judge: at least 0"),
        (["calibrate", "--labels", "l", "--out", "o", "--validity", "0"], "at most 1, got 0"),
    ],
)
def test_an_out_of_range_command_value_exits_2_naming_it(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_a_misspelt_judge_ends_bench_run_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The instances file does not exist: the judge name is checked first.
    argv = ["bench", "run", "--instances", str(tmp_path / "none.jsonl"), "--judge", "structurall"]
    assert main(argv) == 2
    assert "unknown judge 'structurall'" in capsys.readouterr().err


def test_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "--version"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0 and out.stdout.startswith("cargo-monitor ")


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["run", "--tau", "abc"], "cargo-monitor run: error: argument --tau: 'abc': "),
        (["bench", "run", "--repeats", "0"], "cargo-monitor bench run: error: argument --repeats"),
        (["validate-golden"], "cargo-monitor validate-golden: error: the following arguments"),
        # an unknown flag: the help of the command it was given to
        (["run", "--tua", "1"], "cargo-monitor run: error: unrecognized arguments: --tua "),
        (["topics", "lag", "--x"], "cargo-monitor topics lag: error: unrecognized arguments"),
    ],
)
def test_a_bad_flag_is_its_error_not_a_page_of_usage(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(line), err
    assert err[1:] == [f"(see '{line.split(': error', maxsplit=1)[0]} --help')"]


def test_a_misspelt_setting_is_named_not_ignored_silently(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # CARGO_BATCH_WINDOW=abc ran with no word: the setting is CARGO_BATCH_WINDOW_S.
    from pipelines.cli.base import setting_env_names, unknown_settings

    env = {
        "CARGO_BATCH_WINDOW": "abc",  # the unit suffix left out
        "CARGO_EMBEDER": "hashing",  # a typo
        "CARGO_HOME": "/opt/cargo",  # Rust's: near no setting, not ours
        "CARGO_TAU": "0.7",  # a setting
        "CARGO_OTEL_GRPC_ENDPOINT": "collector:4317",  # the Collector's, in deploy/otel
    }
    assert unknown_settings(env) == [
        "CARGO_BATCH_WINDOW is not a setting (did you mean CARGO_BATCH_WINDOW_S?); it is ignored",
        "CARGO_EMBEDER is not a setting (did you mean CARGO_EMBEDDER?); it is ignored",
    ]
    assert {"CARGO_TAU", "CARGO_KAFKA_BOOTSTRAP", "CARGO_BATCH_WINDOW_S"} <= setting_env_names()
    from pipelines.cli import base

    monkeypatch.setattr(base, "_WARNED", set())  # (said once per process)
    monkeypatch.setenv("CARGO_EMBEDER", "hashing")
    missing = str(tmp_path / "missing.jsonl")
    assert main(["run", "--embedder", "hashing", "--metrics-port", "0", "--input", missing]) == 2
    assert "warning: CARGO_EMBEDER is not a setting" in capsys.readouterr().err


def test_help_names_a_settings_variable_that_is_not_its_flag_in_capitals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "env CARGO_BATCH_WINDOW_S)" in out
    assert "env CARGO_TAU" not in out  # --tau is CARGO_TAU: nothing to add


def test_run_with_the_answer_check_abstains_an_answer_about_another_item(tmp_path: Path) -> None:
    """``--answer-check``: asked about withdrawal, answered about results: abstained
    (``answer_mismatch``) with the two references named; without it, judged."""
    import json

    golden = tmp_path / "g.yaml"
    golden.write_text(PARAPHRASED_GOLDEN, encoding="utf-8")
    traces = tmp_path / "t.jsonl"
    traces.write_text(
        json.dumps(
            {
                "trace_id": "t1",
                "question": "How do I withdraw a candidate from an exam?",
                "answer": "Results are published online within six weeks of the exam.",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    argv = ["run", "--golden", str(golden), "--input", str(traces), "--embedder", "hashing"]
    argv += ["--metrics-port", "0", "--tau", "-1", "--no-progress"]
    argv += ["--cache-dir", str(tmp_path / "cache")]
    for flags, status in (([], "evaluated"), (["--answer-check"], "abstained")):
        out = tmp_path / f"j{len(flags)}.jsonl"
        assert main([*argv, "--output", str(out), *flags]) == 0
        (judgment,) = [json.loads(line) for line in out.read_text().splitlines()]
        assert judgment["status"] == status
    assert judgment["reason"] == "answer_mismatch"
    assert "results" in judgment["rationale"] and "withdraw" in judgment["rationale"]
