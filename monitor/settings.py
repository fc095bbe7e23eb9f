"""Settings, read only at entry points (env prefix ``CARGO_``). Library classes
take explicit arguments instead."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from monitor.data import DEFAULT_GOLDEN, DEFAULT_SAMPLES
from monitor.limits import InputLimits

if TYPE_CHECKING:  # imported where used, so that `cargo-monitor --help` stays quick
    from monitor.judges.hybrid import TraceSampler
    from monitor.llm import LLMConfig
    from monitor.steps import ProcedureConfig

__all__ = [
    "DEFAULT_GOLDEN",
    "DEFAULT_SAMPLES",
    "CargoSettings",
    "default_cache_dir",
    "flag_options",
]


def default_cache_dir() -> Path:
    import os

    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cargo-monitor"


def flag_options(group: str, **extra: Any) -> dict[str, Any]:
    """``json_schema_extra`` for a field: its ``--help`` group and flag details
    (``flag``, ``default_help``, ``metavar``, ``env_flag``; see ``pipelines.cli.base``)."""
    return {"group": group, **extra}


class CargoSettings(BaseSettings):
    """Every evaluation setting, declared once: the environment (``CARGO_<NAME>``) and the
    command-line flags (generated from these fields) both land here."""

    model_config = SettingsConfigDict(env_prefix="CARGO_", extra="ignore")

    # input
    golden: Path = Field(
        default=DEFAULT_GOLDEN,
        description="golden set YAML",
        json_schema_extra=flag_options("input", default_help="the bundled techsupport set"),
    )
    max_payload_bytes: int = Field(
        default=1_048_576,
        ge=1,
        description="largest input message in bytes; a bigger one is invalid (too_large)",
        json_schema_extra=flag_options("input"),
    )
    max_json_depth: int = Field(
        default=64,
        ge=1,
        le=10_000,
        description="deepest JSON nesting in a message (too_deep)",
        json_schema_extra=flag_options("input"),
    )
    max_context_fields: int = Field(
        default=256,
        ge=0,
        description="most context fields in one trace",
        json_schema_extra=flag_options("input"),
    )
    max_citation_sources: int = Field(
        default=256,
        ge=0,
        description="most cited sources in one trace",
        json_schema_extra=flag_options("input"),
    )
    max_string_chars: int = Field(
        default=200_000,
        ge=1,
        description="longest string value in a message, in characters",
        json_schema_extra=flag_options("input"),
    )
    # retrieval and gate
    embedder: Literal["minilm", "hashing"] = Field(
        default="minilm",
        description="embedding model (minilm runs offline)",
        json_schema_extra=flag_options("gate"),
    )
    embedder_runtime: Literal["torch", "onnx-fp32", "onnx-int8"] = Field(
        default="torch",
        description="engine running the minilm model: PyTorch, or ONNX Runtime on a model "
        "exported once from the bundled weights into --cache-dir (int8: dynamic "
        "quantisation for this CPU; falls back to PyTorch with a warning)",
        json_schema_extra=flag_options("gate"),
    )
    batch_size: int = Field(
        default=32,
        ge=1,
        le=4096,
        description="questions embedded per batch",
        json_schema_extra=flag_options("gate"),
    )
    batch_window_s: float = Field(
        default=1.0,
        gt=0,
        description="seconds to wait for a batch to fill before embedding a partial one",
        json_schema_extra=flag_options("gate", flag="--batch-window"),
    )
    embed_threads: int = Field(
        default=0,
        ge=0,
        le=256,
        description="embedding threads, each running the model single-threaded "
        "(0: one per usable core; with several workers on one machine, give each its share)",
        json_schema_extra=flag_options("gate"),
    )
    query_cache_size: int = Field(
        default=10_000,
        ge=0,
        description="LRU of masked question -> embedding (0 = off)",
        json_schema_extra=flag_options("gate"),
    )
    golden_search: Literal["exact", "hnsw"] = Field(
        default="exact",
        description="nearest golden items: exact (every item scored) or hnsw (approximate, "
        "for golden sets of 100k items and more; needs the ann extra, faiss-cpu)",
        json_schema_extra=flag_options("gate"),
    )
    cache_dir: Path = Field(
        default_factory=default_cache_dir,
        description="cache directory (golden embeddings, ONNX exports)",
        json_schema_extra=flag_options("gate"),
    )
    gate: Literal["fixed", "margin", "calibrated"] = Field(
        default="fixed", description="gate kind", json_schema_extra=flag_options("gate")
    )
    tau: float = Field(
        default=0.80,
        ge=-1,
        le=1,
        description="similarity threshold τ (-1 opens the gate: every interaction is judged)",
        json_schema_extra=flag_options("gate"),
    )
    answer_check: bool = Field(
        default=False,
        description="abstain (answer_mismatch) where the live answer is nearer another "
        "golden item's reference answer than the retrieved item's",
        json_schema_extra=flag_options("gate"),
    )
    delta: float = Field(
        default=0.02,
        ge=0,
        le=2,
        description="margin gate: minimum top-2 margin δ",
        json_schema_extra=flag_options("gate"),
    )
    gamma: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="calibrated gate: minimum P̂ γ",
        json_schema_extra=flag_options("gate", default_help="the gate model's"),
    )
    gate_model: Path | None = Field(
        default=None,
        description="calibrated gate model JSON",
        json_schema_extra=flag_options("gate"),
    )
    # judge
    judge: str = Field(
        default="structural",
        description="judge name (structural, llm, hybrid)",
        json_schema_extra=flag_options("judge"),
    )
    judge_timeout_s: float = Field(
        default=300.0,
        gt=0,
        description="deadline per trace evaluation, retries included",
        json_schema_extra=flag_options("judge", flag="--judge-timeout"),
    )
    judge_sample_rate: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="hybrid: share of accepted traces sent to the LLM as a blind sample",
        json_schema_extra=flag_options(
            "judge", default_help="1.0, or 0 with --judge-escalate uncertain"
        ),
    )
    judge_sample_rates: dict[str, Annotated[float, Field(ge=0, le=1)]] = Field(
        default_factory=dict,
        description="hybrid: per-intent sample rate (env: a JSON object)",
        json_schema_extra=flag_options(
            "judge", flag="--judge-sample-rate-intent", metavar="INTENT=RATE"
        ),
    )
    judge_escalate: Literal["off", "uncertain"] = Field(
        default="off",
        description="hybrid: also send the LLM every trace whose structural verdict is "
        "uncertain (uncertain claim or step verdicts), whatever the sample",
        json_schema_extra=flag_options("judge"),
    )
    citation_support: Literal["structural", "llm"] = Field(
        default="structural",
        description="who checks that a cited passage supports its claim "
        "(llm uses the judge endpoint, structural on failure)",
        json_schema_extra=flag_options("judge"),
    )
    languages: str = Field(
        default="en",
        description="allowed answer languages, comma separated",
        json_schema_extra=flag_options("judge"),
    )
    min_answer_chars: int = Field(
        default=1,
        ge=0,
        description="length guard lower bound",
        json_schema_extra=flag_options("judge"),
    )
    max_answer_chars: int = Field(
        default=4000,
        ge=1,
        description="length guard upper bound",
        json_schema_extra=flag_options("judge"),
    )
    step_cover_threshold: float = Field(
        default=0.35,
        ge=0,
        le=1,
        description="procedure: similarity at which an answer sentence covers a step",
        json_schema_extra=flag_options("judge"),
    )
    step_lexical_sure: float = Field(
        default=0.8,
        ge=0,
        le=1,
        description="procedure: lexical overlap that counts as covered without embedding",
        json_schema_extra=flag_options("judge"),
    )
    step_stem_prefix: int = Field(
        default=4,
        ge=2,
        le=20,
        description="procedure: characters of a word compared as its stem",
        json_schema_extra=flag_options("judge"),
    )
    # LLM endpoint (judge = llm | hybrid); the key is a secret and never logged.
    judge_base_url: str | None = Field(
        default=None,
        description="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1",
        json_schema_extra=flag_options("LLM endpoint"),
    )
    judge_model: str | None = Field(
        default=None,
        description="model name at that endpoint",
        json_schema_extra=flag_options("LLM endpoint"),
    )
    judge_api_key: SecretStr | None = Field(
        default=None,
        description="the API key",
        json_schema_extra=flag_options("LLM endpoint", env_flag="--judge-api-key-env"),
    )
    judge_condition: str = Field(
        default="cargo",
        description="prompt condition",
        json_schema_extra=flag_options("LLM endpoint"),
    )
    judge_rubric: str | None = Field(
        default=None,
        description="dimension rubric",
        json_schema_extra=flag_options("LLM endpoint", default_help="the condition's"),
    )
    judge_temperature: float = Field(
        default=0.4,
        ge=0,
        le=2,
        description="temperature",
        json_schema_extra=flag_options("LLM endpoint"),
    )
    judge_top_p: float | None = Field(
        default=1.0, gt=0, le=1, description="top_p", json_schema_extra=flag_options("LLM endpoint")
    )
    judge_seed: int | None = Field(
        default=0, description="API seed", json_schema_extra=flag_options("LLM endpoint")
    )
    judge_request_timeout_s: float = Field(
        default=60.0,
        gt=0,
        description="seconds per HTTP request",
        json_schema_extra=flag_options("LLM endpoint", flag="--judge-request-timeout"),
    )
    judge_max_concurrency: int = Field(
        default=8,
        ge=1,
        le=1024,
        description="in-flight judge calls",
        json_schema_extra=flag_options("LLM endpoint"),
    )
    judge_max_retries: int = Field(
        default=5,
        ge=0,
        le=20,
        description="retries on 429/5xx/connection errors",
        json_schema_extra=flag_options("LLM endpoint"),
    )
    judge_backoff_base_s: float = Field(
        default=1.0,
        ge=0,
        description="first retry delay in seconds, doubled per retry",
        json_schema_extra=flag_options("LLM endpoint", flag="--judge-backoff-base"),
    )
    judge_backoff_cap_s: float = Field(
        default=30.0,
        ge=0,
        description="longest retry delay in seconds",
        json_schema_extra=flag_options("LLM endpoint", flag="--judge-backoff-cap"),
    )
    judge_max_tokens: int | None = Field(
        default=None,
        ge=1,
        description="output token cap",
        json_schema_extra=flag_options("LLM endpoint"),
    )
    judge_structured_output: Literal["auto", "on", "off"] = Field(
        default="auto",
        description="send a JSON-schema response_format (auto: fall back when rejected)",
        json_schema_extra=flag_options("LLM endpoint"),
    )
    judge_price_input_per_1k: float = Field(
        default=0.0,
        ge=0,
        description="USD per 1k input tokens",
        json_schema_extra=flag_options("LLM endpoint", flag="--judge-price-input"),
    )
    judge_price_output_per_1k: float = Field(
        default=0.0,
        ge=0,
        description="USD per 1k output tokens",
        json_schema_extra=flag_options("LLM endpoint", flag="--judge-price-output"),
    )
    # output
    metrics_port: int = Field(
        default=9108,
        ge=0,
        le=65535,
        description="serve /metrics on this port (0 disables)",
        json_schema_extra=flag_options("output"),
    )
    metrics_host: str = Field(
        default="127.0.0.1",
        description="bind /metrics here",
        json_schema_extra=flag_options("output", default_help="loopback, 127.0.0.1"),
    )
    metrics_tls_cert: Path | None = Field(
        default=None,
        description="serve /metrics over HTTPS with this PEM certificate (with the key)",
        json_schema_extra=flag_options("output"),
    )
    metrics_tls_key: Path | None = Field(
        default=None,
        description="the PEM private key of --metrics-tls-cert",
        json_schema_extra=flag_options("output"),
    )
    redact: bool = Field(
        default=False,
        description="replace answers and context values in judgments by salted hashes",
        json_schema_extra=flag_options("output"),
    )
    redact_salt: SecretStr | None = Field(
        default=None,
        description="salt for --redact hashes (env CARGO_REDACT_SALT only, never a flag)",
        json_schema_extra=flag_options("output"),
    )

    def limits(self) -> InputLimits:
        """The per-message input bounds."""
        return InputLimits(
            max_payload_bytes=self.max_payload_bytes,
            max_json_depth=self.max_json_depth,
            max_context_fields=self.max_context_fields,
            max_citation_sources=self.max_citation_sources,
            max_string_chars=self.max_string_chars,
        )

    def llm(self) -> LLMConfig | None:
        """The LLM judge's configuration, or None when no endpoint is configured."""
        from monitor.llm import LLMConfig

        if not self.judge_base_url and not self.judge_model:
            return None
        return LLMConfig(
            base_url=self.judge_base_url or "",
            model=self.judge_model or "",
            api_key=self.judge_api_key,
            condition=self.judge_condition,
            rubric=self.judge_rubric,
            temperature=self.judge_temperature,
            top_p=self.judge_top_p,
            seed=self.judge_seed,
            request_timeout_s=self.judge_request_timeout_s,
            max_concurrency=self.judge_max_concurrency,
            max_retries=self.judge_max_retries,
            backoff_base_s=self.judge_backoff_base_s,
            backoff_cap_s=self.judge_backoff_cap_s,
            max_tokens=self.judge_max_tokens,
            structured_output=self.judge_structured_output,
            price_input_per_1k=self.judge_price_input_per_1k,
            price_output_per_1k=self.judge_price_output_per_1k,
        )

    def sampler(self) -> TraceSampler:
        from monitor.judges.hybrid import TraceSampler

        rate = self.judge_sample_rate
        if rate is None:
            rate = 0.0 if self.judge_escalate == "uncertain" else 1.0
        return TraceSampler(rate, self.judge_sample_rates)

    def procedure(self) -> ProcedureConfig:
        from monitor.steps import ProcedureConfig

        return ProcedureConfig(
            cover_threshold=self.step_cover_threshold,
            lexical_sure=self.step_lexical_sure,
            stem_prefix=self.step_stem_prefix,
        )
