"""The structural judge, including the Cargo paper's worked examples (appendix F)."""

from __future__ import annotations

from monitor.judges.base import JudgeRequest, is_penalized
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Scores, Trace
from tests.conftest import ACCEPTED, CASE_ITEM

WARRANTY_ITEM = GoldenItem.model_validate(
    {
        "id": "g_warranty",
        "intent": "asset_warranty",
        "agent": "asset",
        "question": "Is service tag 4H7TQ2M still under warranty?",
        "answer": "Service tag 4H7TQ2M is under warranty until 2027-01-31. The system is eligible "
        "for on-site repair. You should open a hardware case to dispatch a part.",
        "parameters": {
            "serviceTag": {"value": "4H7TQ2M", "type": "alnum", "label": "service tag"},
            "warrantyEnd": {"value": "2027-01-31", "type": "date", "label": "warranty end"},
        },
    }
)


def judge(answer: str, context: dict[str, str], item: GoldenItem = CASE_ITEM):
    trace = Trace(trace_id="t-1", question="q", answer=answer, context=context)
    return StructuralJudge().judge_sync(JudgeRequest(trace, item, ACCEPTED))


def test_worked_example_i_legitimate_cross_instance_difference() -> None:
    r = judge("Case 171056262 is currently Pending Customer.", {"caseNumber": "171056262"})
    assert not is_penalized(r.scores)
    assert r.scores.correctness == 1.0 and r.scores.hallucination_fidelity == 1.0
    status = {c.field: c for c in r.claims}
    assert status["caseNumber"].status == "supported"
    assert status["status"].status == "unverifiable"
    # The reference's own values are informational only.
    assert status["status"].evidence.reference_value == "Closed"


def test_worked_example_ii_injected_contradiction() -> None:
    r = judge("Case 536762755 is currently Escalated.", {"caseNumber": "491541446"})
    assert is_penalized(r.scores)
    con = [c for c in r.claims if c.status == "contradicted"]
    assert len(con) == 1
    assert con[0].value == "536762755"
    assert con[0].evidence.context_value == "491541446"
    assert "536762755" in r.rationale and "491541446" in r.rationale


def test_worked_example_iii_appended_fields_absent_from_context() -> None:
    r = judge(
        "Service tag 9Y0S3VQ is under warranty until 2025-07-19. The system is eligible "
        "for on-site repair. You should open a hardware case to dispatch a part. "
        "Warranty ends: 2026-08-20. Created: 2026-05-28.",
        {"serviceTag": "9Y0S3VQ"},
        WARRANTY_ITEM,
    )
    assert not is_penalized(r.scores)
    by_value = {c.value: c.status for c in r.claims}
    assert by_value["9Y0S3VQ"] == "supported"
    assert by_value["2026-08-20"] == "unverifiable"
    assert by_value["2026-05-28"] == "unverifiable"
    assert not any(c.status == "contradicted" for c in r.claims)


def test_differing_from_the_reference_is_never_a_fault_by_itself() -> None:
    r = judge("Case 215474134 is currently Open.", {"caseNumber": "215474134", "status": "Open"})
    assert [c.status for c in r.claims] == ["supported", "supported"]
    assert not is_penalized(r.scores)


def test_contradiction_with_an_observed_status() -> None:
    r = judge(
        "Case 171056262 is currently Closed.", {"caseNumber": "171056262", "status": "Escalated"}
    )
    assert is_penalized(r.scores)
    assert {c.field: c.status for c in r.claims} == {
        "caseNumber": "supported",
        "status": "contradicted",
    }


def test_one_contradiction_penalises_even_with_supported_claims() -> None:
    r = judge("Case 171056262 is currently Closed.", {"caseNumber": "171056262", "status": "Open"})
    assert r.scores.hallucination_fidelity is not None
    assert 0 < r.scores.hallucination_fidelity < 0.5


def test_shape_only_identifier_next_to_the_observed_one_is_not_a_contradiction() -> None:
    item = GoldenItem.model_validate(
        {
            "id": "x",
            "intent": "x",
            "agent": "case",
            "question": "q 215474133",
            "answer": "Ticket 215474133 is done.",
            "parameters": {"caseNumber": "215474133"},
        }
    )
    r = judge("Ticket 491541446 duplicates 536762755.", {"caseNumber": "491541446"}, item)
    assert not any(c.status == "contradicted" for c in r.claims)


def test_entity_free_answer_is_not_penalised_and_has_no_claims() -> None:
    policy = GoldenItem(
        id="p",
        intent="p",
        agent="policy",
        question="How do I reset?",
        answer="Select Forgot Password and follow the link within 24 hours.",
    )
    r = judge("Select Forgot Password and follow the emailed link within 24 hours.", {}, policy)
    assert r.claims == ()
    # Without declared steps, every sentence of the exemplar is a required step.
    assert r.scores == Scores(
        correctness=1.0, completeness=1.0, helpfulness=None, hallucination_fidelity=1.0
    )


def test_completeness_from_exemplar_steps() -> None:
    policy = GoldenItem(
        id="p",
        intent="p",
        agent="policy",
        question="How do I return a part?",
        answer="Pack the part in the replacement box. Return it within 10 days.",
        steps=("Pack the part in the replacement box.", "Return it within 10 days."),
    )
    full = judge(
        "Pack the defective part in the replacement box. Return it within 10 days.", {}, policy
    )
    half = judge("Pack the defective part in the replacement box.", {}, policy)
    assert full.scores.completeness == 1.0
    assert half.scores.completeness == 0.5
    assert [s.status for s in half.steps] == ["covered", "missing"]


def test_judge_identity_is_versioned() -> None:
    info = StructuralJudge().info
    assert info.name == "structural" and info.prompt_version and info.config_hash
