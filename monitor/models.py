"""Frozen pydantic v2 models for every boundary: traces, golden sets, judgments.

These models are the wire formats documented in the README. Traces keep fields
they do not know (``extra="allow"``) so that producers can add metadata without
breaking the monitor; everything the monitor itself emits is closed
(``extra="forbid"``) so that consumers can rely on the shape.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    field_validator,
    model_validator,
)

JUDGMENT_SCHEMA_VERSION = "1"

ResponseType = Literal["answer", "clarification", "guardrail"]
ClaimStatus = Literal["supported", "contradicted", "unverifiable"]
StepStatus = Literal["covered", "missing", "negated", "altered"]
JudgmentStatus = Literal["evaluated", "abstained", "judge_error", "invalid"]
GateKind = Literal["fixed", "margin", "calibrated"]
GateReason = Literal[
    "accepted", "low_similarity", "low_margin", "low_probability", "empty_golden_set"
]
ParamType = Literal["digits", "alnum", "date", "enum", "integer", "money", "text"]
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

Stage = Literal["retrieval", "generation", "evaluation", "rendering"]


class CitationSource(_Frozen):
    """One entry of the retrieval snapshot sent to the generator."""

    source_id: StrictStr = Field(min_length=1)
    document_version: StrictStr | None = None
    chunk_id: StrictStr | None = None
    rank: int | None = Field(default=None, ge=0)
    text: StrictStr | None = Field(default=None, description="the exact text sent")
    text_ref: StrictStr | None = Field(
        default=None, description="where a controlled copy lives when the text cannot travel"
    )
    content_hash: StrictStr | None = Field(
        default=None, description="sha256 of the text as sent: 'sha256:<hex>' or '<hex>'"
    )

    @model_validator(mode="after")
    def _has_content(self) -> CitationSource:
        if self.text is None and self.text_ref is None:
            raise ValueError("a source needs 'text' or 'text_ref'")
        return self


class CitedClaim(_Frozen):
    """A claim as the generator emitted it, with the source ids it cites."""

    claim_id: StrictStr = Field(min_length=1)
    text: StrictStr = Field(min_length=1)
    citation_ids: tuple[StrictStr, ...] = ()
    requires_citation: bool = True


class CitationBundle(_Frozen):
    """The citation contract a producer attaches to a trace (field ``citations``).

    Closed (``extra="forbid"``): a misspelt key would otherwise silently switch a
    check off.
    """

    sources: tuple[CitationSource, ...]
    claims: tuple[CitedClaim, ...] | None = Field(
        default=None, description="structured claims; absent = parse [id] markers in the answer"
    )
    footnotes: dict[StrictStr, StrictStr] | None = Field(
        default=None, description="the saved numeric-footnote map, e.g. {'1': 'refund-2025'}"
    )
    rendered_footnotes: dict[StrictStr, StrictStr] | None = Field(
        default=None, description="what the UI displayed for each footnote, if captured"
    )
    stage_hashes: dict[Stage, dict[StrictStr, StrictStr]] = Field(
        default_factory=dict, description="per stage: source_id -> content hash"
    )

    @model_validator(mode="after")
    def _unique_claims(self) -> CitationBundle:
        seen: set[str] = set()
        for c in self.claims or ():
            if c.claim_id in seen:
                raise ValueError(f"claim_id {c.claim_id!r} appears twice")
            seen.add(c.claim_id)
        return self


# --------------------------------------------------------------------------- traces


class Observation(BaseModel):
    """One step of the agent's trace: planner decision, agent/tool call, replan."""

    model_config = ConfigDict(frozen=True, extra="allow")

    kind: StrictStr = Field(description="planner | agent | tool | replanner | other")
    name: StrictStr | None = None
    started_at: datetime | None = None
    duration_ms: float | None = Field(default=None, ge=0)
    status: StrictStr | None = None


class Trace(BaseModel):
    """A live interaction ``x = (q, a, c, o)``. Unknown fields are kept."""

    model_config = ConfigDict(frozen=True, extra="allow")

    trace_id: StrictStr = Field(min_length=1)
    question: StrictStr
    answer: StrictStr
    timestamp: datetime | None = None
    context: dict[str, ContextValue] = Field(default_factory=dict)
    agent: StrictStr | None = None
    response_type: ResponseType | None = None
    observations: list[Observation] = Field(default_factory=list)
    latency_ms: float | None = Field(default=None, ge=0)
    language: StrictStr | None = None
    citations: CitationBundle | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    def observed(self) -> dict[str, str]:
        """The live context as strings, without null values."""
        return {k: _scalar_text(v) for k, v in self.context.items() if v is not None}


def _scalar_text(value: ContextValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# --------------------------------------------------------------------------- golden set


class ParamSpec(_Frozen):
    """One annotated instance-specific value of a reference answer."""

    value: StrictStr = Field(min_length=1)
    type: ParamType = "text"
    label: str | None = None
    values: tuple[str, ...] | None = None
    length: int | None = Field(default=None, ge=1)
    min: float | None = None
    max: float | None = None
    currency: str | None = None

    @model_validator(mode="after")
    def _enum_has_values(self) -> ParamSpec:
        if self.type == "enum" and not self.values:
            raise ValueError("an enum parameter needs 'values'")
        if self.type == "enum" and self.values and self.value not in self.values:
            raise ValueError(f"value {self.value!r} is not one of its enum values")
        return self


class GoldenItem(_Frozen):
    """A reference question/answer pair with its own instance values annotated."""

    id: StrictStr = Field(min_length=1)
    intent: StrictStr = Field(min_length=1)
    agent: StrictStr = Field(min_length=1)
    question: StrictStr
    answer: StrictStr
    parameters: dict[str, ParamSpec] = Field(default_factory=dict)
    steps: tuple[str, ...] = ()

    @field_validator("parameters", mode="before")
    @classmethod
    def _shorthand(cls, raw: Any) -> Any:
        # ``caseNumber: "215474133"`` is shorthand for ``{value: "215474133"}``
        # with the type inferred from the value's shape.
        if not isinstance(raw, dict):
            return raw
        out: dict[str, Any] = {}
        for name, spec in raw.items():
            if isinstance(spec, str | int | float) and not isinstance(spec, bool):
                text = str(spec)
                out[name] = {"value": text, "type": infer_param_type(text)}
            else:
                out[name] = spec
        return out

    @property
    def entity_bearing(self) -> bool:
        return bool(self.parameters)


class GoldenSet(_Frozen):
    version: StrictStr = Field(min_length=1)
    items: tuple[GoldenItem, ...]

    def content_hash(self) -> str:
        """A stable hash of the set's content (keys the embedding cache)."""
        blob = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]

    @property
    def intents(self) -> tuple[str, ...]:
        return tuple(sorted({i.intent for i in self.items}))

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(sorted({i.agent for i in self.items}))


def infer_param_type(text: str) -> ParamType:
    """Guess a parameter's type from the shape of its value."""
    from monitor.values import shape_of  # local: values imports models

    return shape_of(text)


# --------------------------------------------------------------------------- judgments


class RetrievalCandidate(_Frozen):
    reference_id: str
    similarity: float


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


class StepVerdict(_Frozen):
    index: int
    step: str
    status: StepStatus
    required: bool = True
    matched_sentence: str | None = None
    similarity: float | None = None
    cue: str = ""


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


class TokenUsage(_Frozen):
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)


FindingCategory = Literal[
    "unknown_source",
    "duplicate_source",
    "uncited_claim",
    "unresolved_footnote",
    "hash_mismatch",
    "render_mismatch",
    "quote_mismatch",
]
SupportStatus = Literal["supported", "contradicted", "unsupported", "not_run"]
QuoteStatus = Literal["pass", "fail", "not_applicable", "not_run"]


class CitationFinding(_Frozen):
    category: FindingCategory
    claim_id: str | None
    source_ids: tuple[str, ...] = ()
    detail: str


class QuoteCheck(_Frozen):
    quote: str
    status: Literal["pass", "fail"]
    source_ids: tuple[str, ...]


class CitationSupport(_Frozen):
    """Does the cited passage support the claim next to the marker?"""

    source_id: str
    status: SupportStatus
    reason: str
    matched: str | None = Field(default=None, description="the passage text it rests on")
    checked_by: Literal["structural", "llm"] = "structural"


class ClaimCitations(_Frozen):
    claim_id: str
    text: str
    requires_citation: bool
    citation_ids: tuple[str, ...] = Field(description="as written (ids or footnote numbers)")
    resolved: tuple[str, ...] = Field(description="source ids the markers resolve to")
    quotes_status: QuoteStatus
    quotes: tuple[QuoteCheck, ...] = ()
    support: tuple[CitationSupport, ...] = ()
    supported: bool | None = Field(
        description="at least one cited passage supports it; null when no support check could run"
    )
    supported_elsewhere: tuple[str, ...] = Field(
        default=(), description="uncited manifest sources that would support it (wrong source)"
    )


class CitationLLMUsage(_Frozen):
    prompt_version: str
    calls: int
    failed: dict[str, int] = Field(
        default_factory=dict,
        description="failures by error kind (the structural verdict is kept for those)",
    )
    usage: TokenUsage = Field(default_factory=TokenUsage)
    cost_usd: float = 0.0


class CitationReport(_Frozen):
    mode: Literal["structured", "markers"]
    integrity: Literal["pass", "fail"]
    findings: tuple[CitationFinding, ...]
    claims: tuple[ClaimCitations, ...]
    quotes: Literal["pass", "fail", "not_applicable"]
    requiring: int = Field(description="claims that require a citation")
    covered: int = Field(description="of those, claims with at least one supporting citation")
    coverage: float | None = Field(description="covered / requiring; null when none requires")
    citations_checked: int = Field(description="citations whose support check ran")
    citations_supported: int
    precision: float | None = Field(description="supported / checked; null when none ran")
    llm: CitationLLMUsage | None = Field(
        default=None, description="the LLM support checks, when --citation-support llm"
    )


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


class Judgment(_Frozen):
    """One judgment per trace: evaluated, abstained, judge_error or invalid."""

    schema_version: str = JUDGMENT_SCHEMA_VERSION
    trace_id: str | None
    status: JudgmentStatus
    reason: str
    penalized: bool | None = None
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
        if self.status != "evaluated" and self.scores.assessed():
            raise ValueError("only evaluated judgments carry scores")
        if self.status == "judge_error" and self.error is None:
            raise ValueError("a judge_error judgment needs its error")
        return self
