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
