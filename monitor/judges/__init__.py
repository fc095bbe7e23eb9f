"""Judges, chosen by name from an explicit mapping at the entry point."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from monitor.embeddings import Embedder
from monitor.errors import ConfigError
from monitor.judges.base import Judge, JudgeRequest, JudgeResult, is_penalized
from monitor.judges.hybrid import Escalate, HybridJudge, TraceSampler
from monitor.judges.llm import LLMJudge
from monitor.judges.structural import StructuralJudge
from monitor.llm import LLMConfig
from monitor.steps import ProcedureConfig


@dataclass(frozen=True, slots=True)
class JudgeDeps:
    """What an entry point hands a judge factory."""

    embedder: Embedder | None = None
    procedure: ProcedureConfig | None = None
    llm: LLMConfig | None = None
    sampler: TraceSampler | None = None
    escalate: Escalate = "off"


def _structural(deps: JudgeDeps) -> Judge:
    return StructuralJudge(deps.embedder, deps.procedure)


def _llm_config(deps: JudgeDeps) -> LLMConfig:
    if deps.llm is None:
        raise ConfigError(
            "the LLM judge needs an endpoint and a model: set "
            "CARGO_JUDGE_BASE_URL and CARGO_JUDGE_MODEL (or --judge-base-url "
            "and --judge-model)"
        )
    return deps.llm


def _llm(deps: JudgeDeps) -> Judge:
    return LLMJudge(_llm_config(deps))


def _hybrid(deps: JudgeDeps) -> Judge:
    return HybridJudge(
        _structural(deps),
        LLMJudge(_llm_config(deps)),
        deps.sampler or TraceSampler(),
        deps.escalate,
    )


JUDGES: dict[str, Callable[[JudgeDeps], Judge]] = {
    "structural": _structural,
    "llm": _llm,
    "hybrid": _hybrid,
}


async def aclose_judge(judge: Judge) -> None:
    """Release a judge's connections (LLM judges hold an HTTP client); no-op otherwise."""
    close = getattr(judge, "aclose", None)
    if close is not None:
        await close()


def make_judge(name: str, deps: JudgeDeps | None = None) -> Judge:
    try:
        factory = JUDGES[name]
    except KeyError:
        raise ConfigError(
            f"unknown judge {name!r}; choose one of: {', '.join(sorted(JUDGES))}"
        ) from None
    return factory(deps or JudgeDeps())


__all__ = [
    "JUDGES",
    "HybridJudge",
    "Judge",
    "JudgeDeps",
    "JudgeRequest",
    "JudgeResult",
    "LLMConfig",
    "LLMJudge",
    "StructuralJudge",
    "TraceSampler",
    "aclose_judge",
    "is_penalized",
    "make_judge",
]
