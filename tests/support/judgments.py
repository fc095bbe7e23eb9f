"""Hand-built judgments for tests of what reads them (metrics, summaries, evidence)."""

from __future__ import annotations

from datetime import UTC, datetime

from monitor.judges import is_penalized
from monitor.judges.structural import score
from monitor.schemas import (
    ClaimEvidence,
    ClaimVerdict,
    JudgeInfo,
    Judgment,
    LLMCall,
    Scores,
    StepVerdict,
)

NOW = datetime(2026, 12, 7, tzinfo=UTC)


def step(status: str, *, uncertain: bool = False, index: int = 0) -> StepVerdict:
    return StepVerdict.model_validate(
        {
            "index": index,
            "step": "Return the bike to any dock within 2 hours.",
            "status": status,
            "cue": "test",
            "uncertain": uncertain,
        }
    )


def claim(status: str, *, uncertain: bool = False) -> ClaimVerdict:
    return ClaimVerdict.model_validate(
        {
            "field": "status",
            "value": "Open",
            "type": "enum",
            "status": status,
            "sentence": "Case 1 is Open.",
            "evidence": ClaimEvidence(source="context", context_field="status", cue="label"),
            "uncertain": uncertain,
        }
    )


def judged(
    *,
    claims: tuple[ClaimVerdict, ...] = (),
    steps: tuple[StepVerdict, ...] = (),
    judge: str = "structural",
    llm: LLMCall | None = None,
    scores: Scores | None = None,
) -> Judgment:
    """An evaluated judgment penalised as its verdicts score (or by ``scores``)."""
    s = scores if scores is not None else score(claims, steps)
    return Judgment(
        trace_id="t",
        status="evaluated",
        reason="accepted",
        penalized=is_penalized(s),
        scores=s,
        claims=claims,
        steps=steps,
        judge=JudgeInfo(name=judge),
        llm=llm,
        evaluated_at=NOW,
    )
