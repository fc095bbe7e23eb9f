"""Judges, chosen by name from an explicit mapping at the entry point."""

from __future__ import annotations

from collections.abc import Callable

from monitor.errors import ConfigError
from monitor.judges.base import Judge, JudgeRequest, JudgeResult, is_penalized
from monitor.judges.structural import StructuralJudge

JUDGES: dict[str, Callable[[], Judge]] = {
    "structural": StructuralJudge,
}


def make_judge(name: str) -> Judge:
    try:
        factory = JUDGES[name]
    except KeyError:
        raise ConfigError(
            f"unknown judge {name!r}; choose one of: {', '.join(sorted(JUDGES))}"
        ) from None
    return factory()


__all__ = ["JUDGES", "Judge", "JudgeRequest", "JudgeResult", "StructuralJudge",
           "is_penalized", "make_judge"]
