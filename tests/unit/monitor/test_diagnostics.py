from __future__ import annotations

import pytest

from monitor.diagnostics import (
    GuardConfig,
    compute_diagnostics,
    detect_language,
    infer_response_type,
)
from monitor.schemas import GateDecision, Trace
from tests.conftest import ACCEPTED


@pytest.mark.parametrize(
    ("answer", "rtype"),
    [
        ("Case 1 is Closed.", "answer"),
        ("Could you provide the case number so I can look it up?", "clarification"),
        ("Which asset do you mean?", "clarification"),
        ("I'm unable to share details of cases that belong to another customer.", "guardrail"),
        ("I cannot help with that request.", "guardrail"),
        ("That's outside the scope of this service.", "guardrail"),
        ("Please provide the order number.", "clarification"),
        # Clarification and refusal words inside a procedure are procedure.
        (
            "Cancelling is free unless it's before your fourth box, in which case we take "
            "back the 30% welcome discount. Boxes already shipped can't be returned. Keep "
            "an eye out for the confirmation email, since you're not cancelled until it "
            "lands.",
            "answer",
        ),
        (
            "Open My Bookings and choose Reschedule. Please confirm the new date from the "
            "link in our email within 24 hours, or the old slot stays booked. Changes are "
            "free up to 48 hours before the shoot; later changes cost a £40 fee.",
            "answer",
        ),
        (
            "Tenants are not permitted to sublet the unit or store flammable goods in it. "
            "Access is from 6 am to 10 pm with your PIN; lost PINs are reset at the office "
            "for £5. Give 14 days' notice to end the lease.",
            "answer",
        ),
        (
            "Damage from wear and tear is outside the scope of the cover. Report other "
            "damage within 7 days with photos, and keep the item until the claim is "
            "settled, because we may ask to inspect it.",
            "answer",
        ),
        (
            "Open My Bookings and choose Reschedule; changes are free up to 48 hours "
            "before the shoot. Which date would you like instead?",
            "clarification",
        ),
    ],
)
def test_response_type_inference(answer: str, rtype: str) -> None:
    assert infer_response_type(answer) == rtype


def test_language_detection() -> None:
    assert detect_language("The case is closed and you can reopen it from the portal.") == "en"
    assert detect_language("Der Fall ist geschlossen und Sie können ihn nicht öffnen.") == "de"
    assert detect_language("ok") is None


def _trace(**kw: object) -> Trace:
    base: dict[str, object] = {
        "trace_id": "t",
        "question": "Q?",
        "answer": "The case is closed and you can reopen it.",
    }
    base.update(kw)
    return Trace.model_validate(base)


def test_planner_replans_latency_and_guards() -> None:
    t = _trace(
        agent="policy",
        observations=[
            {"kind": "planner", "duration_ms": 100},
            {"kind": "replanner", "duration_ms": 50},
            {"kind": "agent", "name": "policy", "duration_ms": 900},
        ],
    )
    d = compute_diagnostics(t, ACCEPTED, GuardConfig(languages=("de",), max_chars=10))
    assert d.planner_verdict == "mismatch" and d.expected_agent == "case"
    assert d.replans == 1
    assert d.latency_ms == 1050  # summed from observations when the trace has none
    assert [o.duration_ms for o in d.observation_latencies] == [100, 50, 900]
    assert set(d.guard_violations) == {"language", "too_long"}
    assert d.response_type == "answer" and d.response_type_source == "inferred"


def test_trace_values_win_and_abstentions_have_unknown_planner() -> None:
    t = _trace(agent="case", latency_ms=42.0, language="en-GB", response_type="guardrail")
    abstained = GateDecision(
        kind="fixed", status="abstained", reason="low_similarity", expected_agent="case"
    )
    d = compute_diagnostics(t, abstained, GuardConfig())
    assert d.planner_verdict == "unknown"
    assert d.latency_ms == 42.0 and d.language == "en" and d.language_source == "trace"
    assert d.response_type == "guardrail" and d.response_type_source == "trace"
    assert compute_diagnostics(t, ACCEPTED, GuardConfig()).planner_verdict == "match"
