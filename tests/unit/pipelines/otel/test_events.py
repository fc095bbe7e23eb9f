from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest

from monitor.schemas import Judgment
from monitor.schemas.judgment import JudgeErrorInfo, Scores
from pipelines.otel.decode import any_value
from pipelines.otel.events import encode_logs, evaluation_records, logs_request, verdict_label
from tests.unit.pipelines.otel import otlp

WHEN = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def judgment(**kw: Any) -> Judgment:
    base: dict[str, Any] = {"trace_id": otlp.GT, "evaluated_at": WHEN}
    return Judgment.model_validate(base | kw)


def attrs(record: Any) -> dict[str, Any]:
    return {kv.key: any_value(kv.value) for kv in record.attributes}


@pytest.mark.parametrize(
    ("kw", "label"),
    [
        ({"status": "evaluated", "reason": "accepted", "penalized": False}, "pass"),
        ({"status": "evaluated", "reason": "accepted", "penalized": True}, "fail"),
        ({"status": "abstained", "reason": "low_similarity"}, "abstained"),
        (
            {
                "status": "judge_error",
                "reason": "timeout",
                "error": {"kind": "timeout", "reason": "no answer in 30 s"},
            },
            "error",
        ),
        ({"status": "invalid", "reason": "missing_field"}, "error"),
    ],
)
def test_verdict_labels(kw: dict[str, Any], label: str) -> None:
    assert verdict_label(judgment(**kw)) == label


def test_records_of_an_evaluated_judgment() -> None:
    j = judgment(
        status="evaluated",
        reason="accepted",
        penalized=True,
        penalty_evidence="settled",
        rationale="the answer contradicts the tool result",
        scores=Scores(correctness=0.25, hallucination_fidelity=0.5),
    )
    recs = evaluation_records(
        j, trace_id=otlp.GT, span_id=otlp.G_ROOT, response_id="chatcmpl-2", revision=1
    )
    assert [r.event_name for r in recs] == ["gen_ai.evaluation.result"] * 3
    assert all(r.trace_id.hex() == otlp.GT and r.span_id.hex() == otlp.G_ROOT for r in recs)
    assert recs[0].time_unix_nano == int(WHEN.timestamp() * 1e9)
    verdict, corr, fid = (attrs(r) for r in recs)
    assert verdict == {
        "gen_ai.evaluation.name": "cargo.verdict",
        "gen_ai.evaluation.score.label": "fail",
        "gen_ai.evaluation.score.value": 0.0,
        "gen_ai.evaluation.explanation": "accepted: the answer contradicts the tool result",
        "gen_ai.response.id": "chatcmpl-2",
        "cargo.revision": 1,
        "cargo.judgment.status": "evaluated",
        "cargo.penalty_evidence": "settled",
    }
    assert "cargo.penalty_evidence" not in corr
    assert (corr["gen_ai.evaluation.name"], corr["gen_ai.evaluation.score.value"]) == (
        "cargo.correctness",
        0.25,
    )
    assert fid["gen_ai.evaluation.name"] == "cargo.hallucination_fidelity"
    assert "gen_ai.evaluation.score.label" not in corr


def test_error_and_abstention_have_no_score() -> None:
    err = judgment(
        status="judge_error",
        reason="judge timed out",
        error=JudgeErrorInfo(kind="timeout", reason="x"),
    )
    (rec,) = evaluation_records(err, trace_id=otlp.GT, span_id=otlp.G_ROOT)
    a = attrs(rec)
    assert a["gen_ai.evaluation.score.label"] == "error" and a["error.type"] == "timeout"
    assert "gen_ai.evaluation.score.value" not in a and "gen_ai.response.id" not in a
    (rec,) = evaluation_records(
        judgment(status="abstained", reason="low_margin"), trace_id=otlp.GT, span_id=otlp.G_ROOT
    )
    assert attrs(rec)["gen_ai.evaluation.score.label"] == "abstained"
    assert "error.type" not in attrs(rec)


def test_a_pass_says_nothing_of_penalty_evidence() -> None:
    j = judgment(status="evaluated", reason="accepted", penalized=False)
    (rec,) = evaluation_records(j, trace_id=otlp.GT, span_id=otlp.G_ROOT)
    assert "cargo.penalty_evidence" not in attrs(rec)


def test_encodings() -> None:
    j = judgment(status="evaluated", reason="accepted", penalized=False)
    req = logs_request(evaluation_records(j, trace_id=otlp.GT, span_id=otlp.G_ROOT))
    proto = encode_logs(req, "otlp_proto")
    assert ExportLogsServiceRequest.FromString(proto) == req
    doc = json.loads(encode_logs(req, "otlp_json"))
    rec = doc["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0]
    assert (rec["traceId"], rec["spanId"]) == (otlp.GT, otlp.G_ROOT)  # hex, as OTLP/JSON says
    assert rec["eventName"] == "gen_ai.evaluation.result"
    # OTLP/JSON: enums as integers (proto3 JSON's default would write the enum's name).
    assert rec["severityNumber"] == 9 and rec["severityText"] == "INFO"
    assert doc["resourceLogs"][0]["resource"]["attributes"][0]["value"] == {
        "stringValue": "cargo-monitor"
    }
    with pytest.raises(ValueError):
        encode_logs(req, "raw")
