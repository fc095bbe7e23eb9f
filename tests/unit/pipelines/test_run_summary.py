"""What each penalty rests on, in the run summary's rows under "penalized" and in the
report's summary."""

from __future__ import annotations

from rich.console import Console

from pipelines.embedded import Summary
from pipelines.reports.report import summary
from tests.support.judgments import judged, step


def rows(s: Summary) -> dict[str, str]:
    console = Console(record=True, width=100)
    console.print(s.table())
    out: dict[str, str] = {}
    for line in console.export_text().splitlines():
        cells = [c.strip() for c in line.strip("│").split("│")]
        if len(cells) == 2 and cells[0]:
            out[cells[0]] = cells[1]
    return out


def test_the_run_summary_splits_the_penalised_by_evidence() -> None:
    s = Summary()
    for j in (
        judged(steps=(step("negated"),)),
        judged(steps=(step("altered", uncertain=True),)),
        judged(steps=(step("altered", uncertain=True),)),
        judged(steps=(step("covered"),)),
    ):
        s.add(j)
    got = rows(s)
    assert got["penalized"] == "3 (75.0% of evaluated)"
    assert got["penalized: settled evidence"] == "1"
    assert got["penalized: uncertain verdicts only"] == "2"
    assert "penalized: LLM verdict" not in got


def test_no_penalty_no_rows_under_it() -> None:
    s = Summary()
    s.add(judged(steps=(step("covered"),)))
    got = rows(s)
    assert got["penalized"] == "0 (0.0% of evaluated)"
    assert not [k for k in got if k.startswith("penalized:")]


def test_the_report_counts_penalties_by_evidence() -> None:
    js = [
        judged(steps=(step("negated"),)),
        judged(steps=(step("altered", uncertain=True),)),
        judged(steps=(step("altered", uncertain=True),)),
        judged(steps=(step("covered"),)),
    ]
    s = summary(js)
    assert s.penalized == 3
    assert s.penalty_evidence == {"settled": 1, "uncertain": 2}
