"""Citations: the bundle a trace carries (sources, cited claims) and the report the
monitor writes about it."""

from __future__ import annotations

from typing import Literal

from pydantic import (
    Field,
    StrictStr,
    model_validator,
)

from monitor.schemas.base import TokenUsage, _Frozen

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
