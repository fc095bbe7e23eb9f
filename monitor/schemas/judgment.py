"""The judgment: one record per trace with the gate decision, verdicts, scores and
diagnostics."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import (
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from monitor.schemas.base import (
    DIMENSIONS,
    JUDGMENT_SCHEMA_VERSION,
    ClaimStatus,
    GateKind,
    GateReason,
    JudgmentStatus,
    ParamType,
    PenaltyBasis,
    ResponseType,
    StepStatus,
    TokenUsage,
    _Frozen,
)
from monitor.schemas.citation import CitationReport


class RetrievalCandidate(_Frozen):
    reference_id: str
    similarity: float
    phrasing: int | None = Field(
        default=None,
        ge=0,
        description="which phrasing of the reference scored best: 0 its question, k its "
        "question_paraphrases[k-1]; left out for a reference without paraphrases",
    )

    @model_serializer(mode="wrap")
    def _omit_no_phrasing(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if self.phrasing is None and isinstance(data, dict):
            data.pop("phrasing", None)
        return data


class GateDecision(_Frozen):
    kind: GateKind
    status: Literal["accepted", "abstained"]
    reason: GateReason
    similarity: float | None = None
    second_similarity: float | None = None
    margin: float | None = None
    probability: float | None = None
    threshold: float | None = Field(default=None, description="tau, or gamma when calibrated")
    min_margin: float | None = None
    reference_id: str | None = None
    intent: str | None = None
    expected_agent: str | None = None
    candidates: tuple[RetrievalCandidate, ...] = Field(
        default=(), description="top-K golden references, best first (retrieval quality)"
    )

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"


class ClaimEvidence(_Frozen):
    """What a claim verdict rests on."""

    source: Literal["context", "none"]
    context_field: str | None = None
    context_value: str | None = None
    cue: str = Field(
        description="how the value was tied to its field: context_value, "
        "label, template, vocabulary, shape; 'llm' when an LLM judge said so"
    )
    reference_value: str | None = Field(
        default=None, description="the exemplar's own value (informational, never a target)"
    )


class ClaimVerdict(_Frozen):
    field: str | None
    value: str
    type: ParamType
    status: ClaimStatus
    sentence: str
    span: tuple[int, int] | None = Field(
        default=None,
        description="character span in the answer; null when a judge's claim "
        "text cannot be located verbatim",
    )
    evidence: ClaimEvidence
    uncertain: bool = Field(
        default=False,
        exclude_if=lambda v: not v,
        description="the verdict rests on no evidence that settles it (see the judges "
        "page): a hybrid judge escalates it to its LLM tier; written only when true",
    )


class StepVerdict(_Frozen):
    index: int
    step: str
    status: StepStatus
    required: bool = True
    matched_sentence: str | None = None
    similarity: float | None = None
    cue: str = ""
    uncertain: bool = Field(
        default=False,
        exclude_if=lambda v: not v,
        description="the verdict rests on no evidence that settles it (see the judges "
        "page): a hybrid judge escalates it to its LLM tier; written only when true",
    )


class Scores(_Frozen):
    correctness: float | None = Field(default=None, ge=0, le=1)
    completeness: float | None = Field(default=None, ge=0, le=1)
    helpfulness: float | None = Field(default=None, ge=0, le=1)
    hallucination_fidelity: float | None = Field(default=None, ge=0, le=1)

    def assessed(self) -> dict[str, float]:
        return {d: v for d in DIMENSIONS if (v := getattr(self, d)) is not None}


class JudgeInfo(_Frozen):
    name: str
    model: str | None = None
    prompt_version: str | None = None
    config_hash: str | None = None


class ObservationTiming(_Frozen):
    kind: str
    name: str | None
    duration_ms: float | None


class Diagnostics(_Frozen):
    response_type: ResponseType
    response_type_source: Literal["trace", "inferred"]
    planner_verdict: Literal["match", "mismatch", "unknown"]
    expected_agent: str | None = None
    actual_agent: str | None = None
    replans: int = 0
    latency_ms: float | None = None
    observation_latencies: tuple[ObservationTiming, ...] = ()
    language: str | None = None
    language_source: Literal["trace", "inferred", "unknown"] = "unknown"
    answer_chars: int = 0
    guard_violations: tuple[Literal["language", "too_short", "too_long"], ...] = ()


class SourceLocation(_Frozen):
    """Where a trace came from: a file line, or a Kafka topic/partition/offset."""

    line: int | None = None
    file: str | None = None
    topic: str | None = None
    partition: int | None = None
    offset: int | None = None


class JudgeErrorInfo(_Frozen):
    kind: str
    reason: str


class LLMCall(_Frozen):
    """Accounting for one LLM judge evaluation (also on failures and skipped samples).

    ``sampled`` is false when a cost-tiered judge decided not to call the LLM for this
    trace; then only ``sample_rate`` is set.
    """

    sampled: bool = True
    sample_rate: float | None = Field(default=None, ge=0, le=1)
    model: str | None = None
    base_url_host: str | None = Field(default=None, description="endpoint host, no path/key")
    condition: str | None = None
    prompt_version: str | None = None
    prompt_hash: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    seed: int | None = None
    structured_output: bool | None = None
    attempts: int = Field(default=0, ge=0)
    usage: TokenUsage = Field(default_factory=TokenUsage)
    cost_usd: float = Field(default=0.0, ge=0)
    latency_ms: float | None = Field(default=None, ge=0)
    rationales: dict[str, str] = Field(default_factory=dict)
    claims: tuple[ClaimVerdict, ...] = Field(
        default=(), description="the LLM's own claim list when another tier owns 'claims'"
    )
    error: JudgeErrorInfo | None = Field(
        default=None, description="an LLM-tier failure that a hybrid judgment survived"
    )
    escalated: bool = Field(
        default=False,
        exclude_if=lambda v: not v,
        description="a hybrid judge sent this trace to the LLM because the structural "
        "tier's verdict was uncertain (outside the blind sample); written only when true",
    )


class Judgment(_Frozen):
    """One judgment per trace: evaluated, abstained, judge_error or invalid."""

    schema_version: str = JUDGMENT_SCHEMA_VERSION
    trace_id: str | None
    status: JudgmentStatus
    reason: str
    penalized: bool | None = None
    penalty_evidence: PenaltyBasis | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="what a penalised judgment's penalty rests on: settled (a verdict "
        "backed by evidence), uncertain (only verdicts marked uncertain, no LLM decided "
        "them) or llm; written only on penalised judgments",
    )
    scores: Scores = Field(default_factory=Scores)
    claims: tuple[ClaimVerdict, ...] = ()
    steps: tuple[StepVerdict, ...] = ()
    gate: GateDecision | None = None
    judge: JudgeInfo | None = None
    diagnostics: Diagnostics | None = None
    rationale: str = ""
    error: JudgeErrorInfo | None = None
    invalid_field: str | None = None
    source: SourceLocation | None = None
    llm: LLMCall | None = None
    citations: CitationReport | None = None
    evaluated_at: datetime
    duration_ms: float | None = Field(default=None, description="judge wall time")

    @model_validator(mode="after")
    def _consistent(self) -> Judgment:
        if self.status == "evaluated" and self.penalized is None:
            raise ValueError("an evaluated judgment must say whether it is penalized")
        if self.status != "evaluated" and self.penalized is not None:
            raise ValueError("only evaluated judgments carry 'penalized'")
        if self.penalty_evidence is not None and not self.penalized:
            raise ValueError("only penalised judgments carry 'penalty_evidence'")
        if self.status != "evaluated" and self.scores.assessed():
            raise ValueError("only evaluated judgments carry scores")
        if self.status == "judge_error" and self.error is None:
            raise ValueError("a judge_error judgment needs its error")
        return self
