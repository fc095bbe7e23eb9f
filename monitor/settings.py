"""Settings, read only at entry points (env prefix ``CARGO_``). Library classes
take explicit arguments instead."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from monitor.steps import ProcedureConfig

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_GOLDEN = REPO_ROOT / "golden" / "techsupport.yaml"
DEFAULT_SAMPLES = REPO_ROOT / "golden" / "samples" / "traffic.jsonl"


def default_cache_dir() -> Path:
    import os

    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cargo-monitor"


class CargoSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CARGO_", extra="ignore")

    golden: Path = DEFAULT_GOLDEN
    embedder: Literal["minilm", "hashing"] = "minilm"
    batch_size: int = Field(default=32, ge=1, le=4096)
    batch_window_s: float = Field(default=1.0, gt=0)
    cache_dir: Path = Field(default_factory=default_cache_dir)
    gate: Literal["fixed", "margin", "calibrated"] = "fixed"
    tau: float = Field(default=0.80, ge=-1, le=1)
    delta: float = Field(default=0.02, ge=0, le=2)
    gamma: float | None = Field(default=None, ge=0, le=1)
    gate_model: Path | None = None
    judge: str = "structural"
    judge_timeout_s: float = Field(default=60.0, gt=0)
    metrics_port: int = Field(default=9108, ge=0, le=65535)
    metrics_host: str = "127.0.0.1"
    languages: str = "en"
    min_answer_chars: int = Field(default=1, ge=0)
    max_answer_chars: int = Field(default=4000, ge=1)
    step_cover_threshold: float = Field(default=0.35, ge=0, le=1)
    step_lexical_sure: float = Field(default=0.8, ge=0, le=1)
    step_stem_prefix: int = Field(default=4, ge=2, le=20)

    def procedure(self) -> ProcedureConfig:
        return ProcedureConfig(cover_threshold=self.step_cover_threshold,
                               lexical_sure=self.step_lexical_sure,
                               stem_prefix=self.step_stem_prefix)
