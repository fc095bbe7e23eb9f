"""Judges, chosen by name from an explicit mapping at the entry point."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from monitor.embeddings import Embedder
from monitor.errors import ConfigError
from monitor.judges.base import Judge, JudgeRequest, JudgeResult, is_penalized
from monitor.judges.structural import StructuralJudge
from monitor.steps import ProcedureConfig


@dataclass(frozen=True, slots=True)
class JudgeDeps:
    """What an entry point hands a judge factory."""

    embedder: Embedder | None = None
    procedure: ProcedureConfig | None = None


def _structural(deps: JudgeDeps) -> Judge:
    return StructuralJudge(deps.embedder, deps.procedure)


JUDGES: dict[str, Callable[[JudgeDeps], Judge]] = {
    "structural": _structural,
}


def make_judge(name: str, deps: JudgeDeps | None = None) -> Judge:
    try:
        factory = JUDGES[name]
    except KeyError:
        raise ConfigError(
            f"unknown judge {name!r}; choose one of: {', '.join(sorted(JUDGES))}"
        ) from None
    return factory(deps or JudgeDeps())


__all__ = ["JUDGES", "Judge", "JudgeDeps", "JudgeRequest", "JudgeResult", "StructuralJudge",
           "is_penalized", "make_judge"]
