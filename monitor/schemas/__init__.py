"""Frozen pydantic v2 models for every boundary: traces, golden sets, judgments, citations.

Traces keep fields they do not know (``extra="allow"``) so that producers can add
metadata without breaking the monitor; everything the monitor itself emits is closed
(``extra="forbid"``) so that consumers can rely on the shape. Import from here.
"""

from __future__ import annotations

from monitor.schemas.base import (
    DIMENSIONS,
    JUDGMENT_SCHEMA_VERSION,
    ClaimStatus,
    ContextValue,
    GateKind,
    GateReason,
    JudgmentStatus,
    ParamType,
    PenaltyBasis,
    PenaltyEvidence,
    ResponseType,
    StepStatus,
    TokenUsage,
)
from monitor.schemas.citation import (
    CitationBundle,
    CitationFinding,
    CitationLLMUsage,
    CitationReport,
    CitationSource,
    CitationSupport,
    CitedClaim,
    ClaimCitations,
    FindingCategory,
    QuoteCheck,
    QuoteStatus,
    Stage,
    SupportStatus,
)
from monitor.schemas.golden import GoldenItem, GoldenSet, ParamSpec, infer_param_type
from monitor.schemas.judgment import (
    ClaimEvidence,
    ClaimVerdict,
    Diagnostics,
    GateDecision,
    JudgeErrorInfo,
    JudgeInfo,
    Judgment,
    LLMCall,
    ObservationTiming,
    RetrievalCandidate,
    Scores,
    SourceLocation,
    StepVerdict,
)
from monitor.schemas.trace import Observation, Trace

__all__ = [
    "DIMENSIONS",
    "JUDGMENT_SCHEMA_VERSION",
    "CitationBundle",
    "CitationFinding",
    "CitationLLMUsage",
    "CitationReport",
    "CitationSource",
    "CitationSupport",
    "CitedClaim",
    "ClaimCitations",
    "ClaimEvidence",
    "ClaimStatus",
    "ClaimVerdict",
    "ContextValue",
    "Diagnostics",
    "FindingCategory",
    "GateDecision",
    "GateKind",
    "GateReason",
    "GoldenItem",
    "GoldenSet",
    "JudgeErrorInfo",
    "JudgeInfo",
    "Judgment",
    "JudgmentStatus",
    "LLMCall",
    "Observation",
    "ObservationTiming",
    "ParamSpec",
    "ParamType",
    "PenaltyBasis",
    "PenaltyEvidence",
    "QuoteCheck",
    "QuoteStatus",
    "ResponseType",
    "RetrievalCandidate",
    "Scores",
    "SourceLocation",
    "Stage",
    "StepStatus",
    "StepVerdict",
    "SupportStatus",
    "TokenUsage",
    "Trace",
    "infer_param_type",
]
