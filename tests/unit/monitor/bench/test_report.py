"""The typed bench report writes the ``cargo-bench-report/1`` JSON shape."""

from __future__ import annotations

from monitor.bench.report import (
    CalibratedGateRates,
    GateRates,
    GateReport,
    JudgeReport,
    LLMLabels,
    Rate,
    UnfittedGate,
    Usage,
)
from monitor.schemas import JudgeInfo

RATE = Rate(n=2, penalized=1, rate=0.5)
RATES = GateRates(p1_accept=1.0, p5_reject=None, n_p1=3, n_p5=0)


def _row(gate: GateReport, llm: LLMLabels | None, cost: float) -> JudgeReport:
    return JudgeReport(
        families={"P1": RATE},
        tp=None,
        fp=0.5,
        di=None,
        di_ci=(0.1, 0.2),
        p4_by_type={},
        p3_by_split={},
        errors=0,
        error_kinds={},
        items_failed=0,
        items=2,
        usage=Usage(input_tokens=0, output_tokens=0, cost_usd=cost),
        gate=gate,
        judge=JudgeInfo(name="structural"),
        llm=llm,
    )


def test_keys_in_order_llm_absent_for_other_judges_and_a_zero_cost_stays_an_int() -> None:
    gate = GateReport(
        fixed=RATES, margin=RATES, calibrated=UnfittedGate(model="not fitted: one class")
    )
    out = _row(gate, None, 0).model_dump(mode="json")
    assert list(out) == [
        "families",
        "tp",
        "fp",
        "di",
        "di_ci",
        "p4_by_type",
        "p3_by_split",
        "errors",
        "error_kinds",
        "items_failed",
        "items",
        "usage",
        "gate",
        "judge",
    ]
    assert out["di_ci"] == [0.1, 0.2] and out["usage"]["cost_usd"] == 0
    assert isinstance(out["usage"]["cost_usd"], int)
    assert out["gate"]["calibrated"] == {
        "p1_accept": None,
        "p5_reject": None,
        "model": "not fitted: one class",
    }
    assert out["gate"]["fixed"] == {"p1_accept": 1.0, "p5_reject": None, "n_p1": 3, "n_p5": 0}


def test_llm_rows_carry_condition_and_rubric_and_the_calibrated_model() -> None:
    calibrated = CalibratedGateRates(**dict(RATES), model="given")
    gate = GateReport(fixed=RATES, margin=RATES, calibrated=calibrated)
    out = _row(gate, LLMLabels(condition="cargo", rubric=None), 0.25).model_dump(mode="json")
    assert out["llm"] == {"condition": "cargo", "rubric": None}
    assert out["usage"]["cost_usd"] == 0.25
    assert list(out["gate"]["calibrated"]) == ["p1_accept", "p5_reject", "n_p1", "n_p5", "model"]
    assert [gate.fixed.note, gate.calibrated.note] == ["", "given"]
