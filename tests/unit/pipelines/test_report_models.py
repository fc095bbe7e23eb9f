"""The typed labelled report keeps the report.json shape."""

from __future__ import annotations

from pipelines.reports.models import (
    LabelledReport,
    RankMetrics,
    ReportSummary,
    RetrievalQuality,
)

SUMMARY = ReportSummary(
    judgments=3,
    status={"evaluated": 2, "invalid": 1},
    coverage=1.0,
    abstentions={},
    penalized=1,
    penalized_rate=0.5,
    judge_errors={},
    invalid={"invalid_json": 1},
    judge_cost_usd=0,
    citations=None,
)


def test_without_labels_only_the_summary_is_written() -> None:
    out = LabelledReport(format="cargo-report/1", summary=SUMMARY, labels=None).model_dump()
    assert list(out) == ["format", "summary", "labels"]
    assert out["summary"]["judge_cost_usd"] == 0 and isinstance(
        out["summary"]["judge_cost_usd"], int
    )


def test_with_labels_retrieval_is_written_flat_and_may_be_null() -> None:
    rq = RetrievalQuality(
        queries=4,
        without_appropriate_reference=1,
        at={
            1: RankMetrics(hit=0.5, mrr=0.5, ndcg=0.5),
            3: RankMetrics(hit=1.0, mrr=0.75, ndcg=0.8),
        },
    )
    assert list(rq.model_dump()) == [
        "queries",
        "without_appropriate_reference",
        "hit@1",
        "mrr@1",
        "ndcg@1",
        "hit@3",
        "mrr@3",
        "ndcg@3",
    ]
    rep = LabelledReport(
        format="cargo-report/1",
        summary=SUMMARY,
        labels=5,
        unmatched_labels=0,
        selective={"items": 0, "with_loss": 0, "gates": {}},
        retrieval=None,
    )
    out = rep.model_copy(update={"plots": []}).model_dump()
    assert list(out) == [
        "format",
        "summary",
        "labels",
        "unmatched_labels",
        "selective",
        "retrieval",
        "plots",
    ]
    assert out["retrieval"] is None and out["plots"] == []
