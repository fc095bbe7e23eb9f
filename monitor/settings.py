"""Settings, read only at entry points (env prefix ``CARGO_``). Library classes
take explicit arguments instead."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from monitor.data import DEFAULT_GOLDEN, DEFAULT_SAMPLES
from monitor.judges.hybrid import TraceSampler
from monitor.judges.llm import LLMConfig
from monitor.steps import ProcedureConfig

__all__ = ["DEFAULT_GOLDEN", "DEFAULT_SAMPLES", "CargoSettings", "default_cache_dir"]


def default_cache_dir() -> Path:
    import os

    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cargo-monitor"


class CargoSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CARGO_", extra="ignore")

    golden: Path = DEFAULT_GOLDEN
    embedder: Literal["minilm", "hashing"] = "minilm"
    batch_size: int = Field(default=32, ge=1, le=4096)
    embed_threads: int = Field(
        default=0,
        ge=0,
        le=256,
        description="MiniLM embedding threads, each running the model "
        "single-threaded (0 = one per usable core)",
    )
    batch_window_s: float = Field(default=1.0, gt=0)
    query_cache_size: int = Field(
        default=10_000, ge=0, description="LRU of masked question -> embedding (0 = off)"
    )
    cache_dir: Path = Field(default_factory=default_cache_dir)
    gate: Literal["fixed", "margin", "calibrated"] = "fixed"
    tau: float = Field(default=0.80, ge=-1, le=1)
    delta: float = Field(default=0.02, ge=0, le=2)
    gamma: float | None = Field(default=None, ge=0, le=1)
    gate_model: Path | None = None
    judge: str = "structural"
    judge_timeout_s: float = Field(
        default=300.0,
        gt=0,
        description="deadline for one trace's whole evaluation, LLM retries included",
    )
    # LLM judge (judge = llm | hybrid); the key is a secret and never logged.
    judge_base_url: str | None = None
    judge_model: str | None = None
    judge_api_key: SecretStr | None = None
    judge_condition: str = "cargo"
    judge_rubric: str | None = None
    judge_temperature: float = Field(default=0.4, ge=0, le=2)
    judge_top_p: float | None = Field(default=1.0, gt=0, le=1)
    judge_seed: int | None = 0
    judge_request_timeout_s: float = Field(default=60.0, gt=0)
    judge_max_concurrency: int = Field(default=8, ge=1, le=1024)
    judge_max_retries: int = Field(default=5, ge=0, le=20)
    judge_backoff_base_s: float = Field(default=1.0, ge=0)
    judge_backoff_cap_s: float = Field(default=30.0, ge=0)
    judge_max_tokens: int | None = Field(default=None, ge=1)
    judge_structured_output: Literal["auto", "on", "off"] = "auto"
    judge_price_input_per_1k: float = Field(default=0.0, ge=0)
    judge_price_output_per_1k: float = Field(default=0.0, ge=0)
    judge_sample_rate: float = Field(default=1.0, ge=0, le=1)
    judge_sample_rates: dict[str, float] = Field(
        default_factory=dict, description="per-intent LLM sample rates (env: JSON object)"
    )
    metrics_port: int = Field(default=9108, ge=0, le=65535)
    metrics_host: str = "127.0.0.1"
    languages: str = "en"
    min_answer_chars: int = Field(default=1, ge=0)
    max_answer_chars: int = Field(default=4000, ge=1)
    step_cover_threshold: float = Field(default=0.35, ge=0, le=1)
    step_lexical_sure: float = Field(default=0.8, ge=0, le=1)
    step_stem_prefix: int = Field(default=4, ge=2, le=20)

    citation_support: Literal["structural", "llm"] = "structural"

    def llm(self) -> LLMConfig | None:
        """The LLM judge's configuration, or None when no endpoint is configured."""
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
        return TraceSampler(self.judge_sample_rate, self.judge_sample_rates)

    def procedure(self) -> ProcedureConfig:
        return ProcedureConfig(
            cover_threshold=self.step_cover_threshold,
            lexical_sure=self.step_lexical_sure,
            stem_prefix=self.step_stem_prefix,
        )
