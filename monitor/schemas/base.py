"""Shared building blocks of the wire schemas: the frozen base model and the closed
vocabularies (statuses, gate kinds, parameter types, dimensions)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

JUDGMENT_SCHEMA_VERSION = "1"

ResponseType = Literal["answer", "clarification", "guardrail"]
ClaimStatus = Literal["supported", "contradicted", "unverifiable"]
StepStatus = Literal["covered", "missing", "negated", "altered"]
# What a penalty rests on (monitor.judges.structural.penalty_evidence); "none" for a
# judgment that is not penalised.
PenaltyBasis = Literal["settled", "uncertain", "llm"]
PenaltyEvidence = Literal["none", PenaltyBasis]
JudgmentStatus = Literal["evaluated", "abstained", "judge_error", "invalid"]
GateKind = Literal["fixed", "margin", "calibrated"]
GateReason = Literal[
    "accepted",
    "low_similarity",
    "low_margin",
    "low_probability",
    "empty_golden_set",
    "answer_mismatch",
]
ParamType = Literal["digits", "alnum", "date", "enum", "integer", "money", "text", "time"]
DIMENSIONS: tuple[str, ...] = (
    "correctness",
    "completeness",
    "helpfulness",
    "hallucination_fidelity",
)

ContextValue = str | int | float | bool | None


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- citations (in)


class TokenUsage(_Frozen):
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)
