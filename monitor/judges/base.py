"""The ``Judge`` seam: what every judge receives and returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from monitor.schemas import (
    ClaimVerdict,
    GateDecision,
    GoldenItem,
    JudgeInfo,
    LLMCall,
    Scores,
    StepVerdict,
    Trace,
)

PENALTY_LINE = 0.5


@dataclass(frozen=True, slots=True)
class JudgeRequest:
    """An accepted interaction: the live trace and its procedural exemplar."""

    trace: Trace
    reference: GoldenItem
    gate: GateDecision
    repeat: int = 0
    """Which repetition this is (bench repeats); an LLM judge offsets its seed by it."""


@dataclass(frozen=True, slots=True)
class JudgeResult:
    scores: Scores
    claims: tuple[ClaimVerdict, ...]
    steps: tuple[StepVerdict, ...]
    rationale: str
    call: LLMCall | None = None


class Judge(Protocol):
    """Scores one accepted interaction. Failures raise :class:`monitor.errors.JudgeError`."""

    @property
    def info(self) -> JudgeInfo: ...

    async def judge(self, request: JudgeRequest) -> JudgeResult: ...


def is_penalized(scores: Scores) -> bool:
    """The paper's rule: correctness < 0.5 or hallucination fidelity < 0.5.

    A dimension that was not assessed (``None``) cannot penalise.
    """
    return any(
        v is not None and v < PENALTY_LINE
        for v in (scores.correctness, scores.hallucination_fidelity)
    )
