"""``bench table``: figures, ranges and targets of several ``bench run`` reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from monitor.bench.report import JudgeSummary, OnPassedBase, Rate, Usage
from monitor.bench.table import Figures, figures, markdown, read_report, row
from monitor.errors import ConfigError


def _rate(n: int, penalized: int) -> Rate:
    return Rate(n=n, penalized=penalized, rate=penalized / n if n else None)


def _summary(
    p6: int, negate: int, *, paraphrases: bool = True, di: float = 0.93, lower: float = 0.9
) -> JudgeSummary:
    """A summary of 100 items per family: ``p6`` correct paraphrases penalised,
    ``negate`` of 100 P4 and P4p negations caught."""
    fams = {f: _rate(100, k) for f, k in {"P1": 0, "P2": 100, "P3": 2, "P6": p6}.items()}
    fams["P4"] = _rate(300, 200 + negate)
    by_type = {"delete_step": _rate(100, 100), "negate": _rate(100, negate)}
    by_type["swap_policy"] = _rate(100, 100)
    extra = {}
    if paraphrases:
        fams["P2p"] = _rate(100, 98)
        fams["P4p"] = _rate(300, 150 + negate)
        extra = {
            "p4p_by_type": {
                "delete_step": _rate(100, 90),
                "negate": _rate(100, negate),
                "swap_policy": _rate(100, 60),
            },
            "on_passed_base": {
                "P2p": OnPassedBase(matched=100, base_flagged=0, caught=_rate(100, 99)),
                "P4p.negate": OnPassedBase(matched=100, base_flagged=10, caught=_rate(90, 45)),
            },
        }
    return JudgeSummary(
        families=fams,
        tp=0.9,
        fp=0.02,
        di=di,
        di_ci=(lower, di + 0.02),
        p4_by_type=by_type,
        p3_by_split={},
        errors=0,
        error_kinds={},
        items_failed=0,
        items=sum(r.n for r in fams.values()),
        usage=Usage(input_tokens=0, output_tokens=0, cost_usd=0),
        **extra,
    )


def test_one_report_is_one_row_bold_where_the_target_is_met() -> None:
    f = figures("set 1", _summary(p6=4, negate=95))
    cells = row(f.label, [f])
    assert cells[0] == "set 1 (1,100)"
    assert cells[1:5] == ["**.00**", "**.02**", "**.04**", "**1.00**"]
    assert cells[5] == "**1.00** / **.95** / **1.00**"
    assert cells[6] == ".98"  # P2p .98 < .99
    assert cells[7] == "**.90** / **.95** / .60"
    # Counted where the base passed: P2p .99, P4p negate 45 of 90; no other subtype.
    assert cells[8] == "**.99**; — / .50 / —"
    assert cells[9] == "**+0.93 [+0.90, +0.95]**"


def test_a_group_row_gives_each_columns_range_and_bolds_only_when_all_meet() -> None:
    a = figures("a", _summary(p6=4, negate=95, di=0.95, lower=0.93))
    b = figures("b", _summary(p6=20, negate=70, di=0.88, lower=0.84))
    cells = row("a and b", [a, b])
    assert cells[0] == "a and b (1,100)"
    assert cells[3] == ".04–.20"  # P6: one row misses the target
    assert cells[5] == "**1.00** / .70–.95 / **1.00**"
    assert cells[9] == "+0.88 to +0.95, lower .84–.93"
    both_met = row("a twice", [a, a])
    assert both_met[3] == "**.04**" and both_met[9] == "**+0.95 to +0.95, lower .93–.93**"


def test_families_a_report_lacks_read_as_a_dash() -> None:
    f = figures("bundled", _summary(p6=0, negate=100, paraphrases=False))
    cells = row(f.label, [f])
    assert cells[6] == cells[7] == cells[8] == "—"


def test_markdown_has_the_target_row_the_reports_and_the_groups() -> None:
    rows = [figures(n, _summary(p6=k, negate=90)) for n, k in (("x", 1), ("y", 9))]
    text = markdown(rows, {"x and y": ["x", "y"]})
    lines = text.splitlines()
    assert lines[0].startswith("| seeds (items) | P1 |")
    assert lines[2].startswith("| **target** |")
    assert [ln.split(" | ")[0] for ln in lines[3:]] == [
        "| x (1,100)",
        "| y (1,100)",
        "| x and y (1,100)",
    ]
    with pytest.raises(ConfigError, match="names z"):
        markdown(rows, {"bad": ["x", "z"]})


def test_read_report_refuses_what_is_not_a_bench_report(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        read_report(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cargo-bench-report/1"}', encoding="utf-8")
    with pytest.raises(ConfigError, match="not a 'bench run --json' report"):
        read_report(bad)


def test_figures_keep_a_family_with_no_judged_item_as_none() -> None:
    s = _summary(p6=0, negate=90)
    empty = s.model_copy(
        update={"families": {**s.families, "P6": Rate(n=0, penalized=0, rate=None)}}
    )
    f: Figures = figures("e", empty)
    assert f.rates["P6"] is None
    assert row("e", [f])[3] == "—"
