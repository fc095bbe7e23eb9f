"""Command-line options shared by several subcommands, and the settings they map to."""

from __future__ import annotations

import argparse
from typing import Any

from monitor.errors import ConfigError
from monitor.settings import CargoSettings


def add_eval_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--golden", help="golden set YAML (default: the bundled techsupport set)")
    p.add_argument("--judge", help="judge name (default: structural)")
    p.add_argument(
        "--gate", choices=["fixed", "margin", "calibrated"], help="gate kind (default: fixed)"
    )
    p.add_argument("--tau", type=float, help="similarity threshold τ (default 0.80)")
    p.add_argument("--delta", type=float, help="margin gate: minimum top-2 margin δ")
    p.add_argument("--gamma", type=float, help="calibrated gate: minimum P̂ γ")
    p.add_argument("--gate-model", help="calibrated gate model JSON")
    p.add_argument(
        "--embedder",
        choices=["minilm", "hashing"],
        help="embedding model (default: minilm, offline)",
    )
    p.add_argument("--batch-size", type=int, help="questions embedded per batch (default 32)")
    p.add_argument(
        "--embed-threads",
        type=int,
        help="embedding threads, each running the model single-threaded "
        "(default 0: one per usable core; with several workers on one "
        "machine, give each its share)",
    )
    p.add_argument("--cache-dir", help="golden embedding cache directory")
    p.add_argument(
        "--metrics-port",
        type=int,
        help="serve /metrics on 127.0.0.1:PORT (default 9108; 0 disables)",
    )
    p.add_argument("--languages", help="allowed answer languages, comma separated (default en)")
    p.add_argument("--min-answer-chars", type=int, help="length guard lower bound")
    p.add_argument("--max-answer-chars", type=int, help="length guard upper bound")
    add_llm_options(p)


def add_llm_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("LLM judge (--judge llm | hybrid); env CARGO_JUDGE_*")
    g.add_argument(
        "--judge-base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1"
    )
    g.add_argument("--judge-model", help="model name at that endpoint")
    g.add_argument(
        "--judge-api-key-env",
        metavar="VAR",
        help="read the API key from this environment variable (default: "
        "CARGO_JUDGE_API_KEY); keys are never taken as flag values",
    )
    g.add_argument("--judge-condition", help="prompt condition (default cargo)")
    g.add_argument("--judge-rubric", help="dimension rubric (default: the condition's)")
    g.add_argument("--judge-temperature", type=float, help="default 0.4")
    g.add_argument("--judge-top-p", type=float, help="default 1.0")
    g.add_argument("--judge-seed", type=int, help="API seed (default 0)")
    g.add_argument(
        "--judge-request-timeout", type=float, help="seconds per HTTP request (default 60)"
    )
    g.add_argument(
        "--judge-timeout",
        type=float,
        help="deadline per trace evaluation, retries included (default 300)",
    )
    g.add_argument("--judge-max-concurrency", type=int, help="in-flight judge calls (default 8)")
    g.add_argument(
        "--judge-max-retries", type=int, help="retries on 429/5xx/connection (default 5)"
    )
    g.add_argument("--judge-max-tokens", type=int, help="output token cap (default: none)")
    g.add_argument(
        "--judge-structured-output",
        choices=["auto", "on", "off"],
        help="send a JSON-schema response_format (auto: fall back when rejected)",
    )
    g.add_argument("--judge-price-input", type=float, help="USD per 1k input tokens")
    g.add_argument("--judge-price-output", type=float, help="USD per 1k output tokens")
    g.add_argument(
        "--judge-sample-rate",
        type=float,
        help="hybrid: share of accepted traces sent to the LLM (default 1.0)",
    )
    g.add_argument(
        "--judge-sample-rate-intent",
        action="append",
        metavar="INTENT=RATE",
        help="hybrid: per-intent sample rate; repeatable",
    )
    g.add_argument(
        "--citation-support",
        choices=["structural", "llm"],
        help="who checks that a cited passage supports its claim (default "
        "structural; llm uses the judge endpoint, structural on failure)",
    )


_FLAG_TO_SETTING = {
    "golden": "golden",
    "judge": "judge",
    "gate": "gate",
    "tau": "tau",
    "delta": "delta",
    "gamma": "gamma",
    "gate_model": "gate_model",
    "embedder": "embedder",
    "batch_size": "batch_size",
    "embed_threads": "embed_threads",
    "cache_dir": "cache_dir",
    "metrics_port": "metrics_port",
    "languages": "languages",
    "min_answer_chars": "min_answer_chars",
    "max_answer_chars": "max_answer_chars",
    "judge_base_url": "judge_base_url",
    "judge_model": "judge_model",
    "judge_condition": "judge_condition",
    "judge_rubric": "judge_rubric",
    "judge_temperature": "judge_temperature",
    "judge_top_p": "judge_top_p",
    "judge_seed": "judge_seed",
    "judge_request_timeout": "judge_request_timeout_s",
    "judge_timeout": "judge_timeout_s",
    "judge_max_concurrency": "judge_max_concurrency",
    "judge_max_retries": "judge_max_retries",
    "judge_max_tokens": "judge_max_tokens",
    "judge_structured_output": "judge_structured_output",
    "judge_price_input": "judge_price_input_per_1k",
    "judge_price_output": "judge_price_output_per_1k",
    "judge_sample_rate": "judge_sample_rate",
    "citation_support": "citation_support",
}


def settings_from(args: argparse.Namespace) -> CargoSettings:
    """Environment (CARGO_*) first, flags override."""
    overrides: dict[str, Any] = {
        setting: getattr(args, flag)
        for flag, setting in _FLAG_TO_SETTING.items()
        if getattr(args, flag, None) is not None
    }
    key_env = getattr(args, "judge_api_key_env", None)
    if key_env:
        import os

        if key_env not in os.environ:
            raise ConfigError(f"--judge-api-key-env: environment variable {key_env} is not set")
        overrides["judge_api_key"] = os.environ[key_env]
    per_intent = getattr(args, "judge_sample_rate_intent", None)
    if per_intent:
        rates: dict[str, float] = {}
        for item in per_intent:
            intent, sep, rate = item.partition("=")
            try:
                rates[intent.strip()] = float(rate)
            except ValueError:
                sep = ""
            if not sep or not intent.strip():
                raise ConfigError(f"--judge-sample-rate-intent: expected INTENT=RATE, got {item!r}")
        overrides["judge_sample_rates"] = rates
    return CargoSettings(**overrides)
