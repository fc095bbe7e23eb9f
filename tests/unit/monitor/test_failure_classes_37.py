"""Strangers' golden sets continued (issue 19): misreadings found by new users' trials,
on hand-written cases from invented domains (none is a bench seed).

1. "A, after which B" against "A before B" was read as an antonym flip (before / after),
   though both put A first: "stays active for up to 90 days, after which you must renew
   it" / "stays active for up to 90 days before it needs renewing".
"""

from __future__ import annotations

import pytest

from tests.unit.monitor.test_failure_classes_35 import _check

# A pet registry, a builder's quotes, a parking permit.
AFTER_WHICH = [
    (
        "A lost report stays active for up to 90 days, after which you must renew it.",
        [
            "The report stays active for up to 90 days before it needs renewing.",
            "Your lost report is live for up to 90 days; after that you'll have to renew it.",
        ],
        [
            "A lost report stays active for up to 90 days, before which you must renew it.",
            "You must renew the report before it has been active for 90 days.",
        ],
    ),
    (
        "The quote is valid for 30 days, after which prices may change.",
        ["Prices in the quote hold for 30 days before they may change."],
        ["The quote is valid for 30 days, before which prices may change."],
    ),
    (
        "Your permit lasts 12 months before it has to be renewed.",
        ["Your permit lasts 12 months, after which it has to be renewed."],
        ["Your permit has to be renewed before it has lasted 12 months."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), AFTER_WHICH)
def test_after_which_is_the_order_of_a_plain_before(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)
