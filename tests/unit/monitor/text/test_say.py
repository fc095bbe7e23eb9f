"""Quantities in cues are written as people write them (``say``), not in the
canonical forms the rules compare (found by a newcomer's trial: a cue read
``quantity changed: min:1440 -> every:min:60, min:4320, min:60, money:GBP:12.79``)."""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.quantities import quantities, say
from tests.unit.monitor.test_failure_classes import item


@pytest.mark.parametrize(
    ("q", "said"),
    [
        ("min:1440", "1 day"),
        ("min:4320", "3 days"),
        ("min:20160", "2 weeks"),
        ("min:90", "90 minutes"),
        ("every:min:60", "every hour"),
        ("every:month:6", "every 6 months"),
        ("bday:10", "10 business days"),
        ("month:12", "1 year"),
        ("night:1", "1 night"),
        ("pct:12.5", "12.5%"),
        ("money:GBP:12.79", "GBP 12.79"),
        ("clock:1020", "17:00"),
        ("date:303", "March 3"),
        ("ord:2", "2nd"),
        ("ord:13", "13th"),
        ("n:4", "4"),
        ("dist:2000", "2 km"),
        ("age:4383", "12 years old"),
        ("date:915", "September 15"),
        ("dist:8046.72", "8.047 km"),
        ("min:1500", "25 hours"),
        ("min:inf", "min:inf"),
        ("something:else", "something:else"),
    ],
)
def test_a_canonical_quantity_is_said_as_people_write_it(q: str, said: str) -> None:
    assert say(q) == said


def test_what_people_wrote_reads_back_the_same() -> None:
    text = "Return it by 5 pm on 3 March, within 2 weeks, or pay £12.79; 20% off the 2nd."
    assert {say(q) for q in quantities(text)} >= {
        "17:00",
        "March 3",
        "2 weeks",
        "GBP 12.79",
        "20%",
        "2nd",
    }


@pytest.mark.parametrize(
    ("step", "answer", "cue"),
    [
        (
            "Parcels are held at the depot for 7 days.",
            "The depot keeps your parcel for a fortnight.",
            "quantity changed: 1 week -> 2 weeks",
        ),
        (
            "Cancel with 1 month's notice by phone.",
            "Cancel with 3 months' notice by phone.",
            "quantity changed: 1 month -> 3 months",
        ),
    ],
)
def test_a_changed_quantity_cue_says_the_quantities_in_words(
    step: str, answer: str, cue: str
) -> None:
    [v] = StepVerifier().verify(item("t", step, [step]), answer, [])
    assert (v.status, v.cue) == ("altered", cue)


def test_a_cue_lists_quantities_by_size_and_only_those_in_conflict() -> None:
    from monitor.steps import _changed

    assert _changed({"min:14400", "min:2880"}, {"min:4320", "min:20160"}) == (
        "2 days, 10 days -> 3 days, 2 weeks"
    )
    # a rate and a price the step did not lose are not what changed
    assert _changed({"min:1440"}, {"every:min:60", "min:4320", "money:GBP:12.79"}) == (
        "1 day -> 3 days"
    )
