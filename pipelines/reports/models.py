"""The labelled report (``cargo-monitor report``) as typed models.

``LabelledReport.model_dump()`` is the ``report.json`` structure (written with
``json.dumps(..., default=float)``: the selective section carries numpy numbers and
infinite thresholds, which only the plain JSON encoder writes as before).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CitationSummary(_Frozen):
    traces: int
    findings: dict[str, int]
    coverage: float | None


class ReportSummary(_Frozen):
    """Counts over every judgment: statuses, coverage, penalties, errors, cost."""

    judgments: int
    status: dict[str, int]
    coverage: float | None
    abstentions: dict[str, int]
    penalized: int
    penalized_rate: float | None
    # What each penalty rests on: settled, uncertain, llm (penalty_evidence).
    penalty_evidence: dict[str, int] = Field(default_factory=dict)
    judge_errors: dict[str, int]
    invalid: dict[str, int]
    # An int when no judgment had an LLM call (a sum of nothing is 0, and written as 0).
    judge_cost_usd: int | float
    citations: CitationSummary | None


class RankMetrics(_Frozen):
    hit: float
    mrr: float
    ndcg: float


class RetrievalQuality(_Frozen):
    """Hit@K, MRR@K and NDCG@K of the gate's reference choice, per K (written flat:
    ``hit@1``, ``mrr@1``, ``ndcg@1``, ``hit@3``, ...)."""

    queries: int
    without_appropriate_reference: int
    at: dict[int, RankMetrics]

    @model_serializer
    def _flat(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "queries": self.queries,
            "without_appropriate_reference": self.without_appropriate_reference,
        }
        for k, m in self.at.items():
            out |= {f"hit@{k}": m.hit, f"mrr@{k}": m.mrr, f"ndcg@{k}": m.ndcg}
        return out


class LabelledReport(_Frozen):
    """The report: a summary of the judgments and, with labels, the selective-evaluation
    section and retrieval quality (absent without labels); the plot file names once
    they are drawn."""

    format: str
    summary: ReportSummary
    labels: int | None
    unmatched_labels: int | None = None
    selective: dict[str, Any] | None = None
    retrieval: RetrievalQuality | None = None
    plots: list[str] | None = None

    @model_serializer(mode="wrap")
    def _present(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if self.labels is None:
            for key in ("unmatched_labels", "selective", "retrieval"):
                out.pop(key, None)
        if self.plots is None:
            out.pop("plots", None)
        return out
