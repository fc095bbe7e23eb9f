"""A fifth stranger's golden set (issue 19), a pet microchip registry's: five
misreadings, on hand-written cases from invented domains (a registry, a print shop, a
car park, a gym, a hotel, a tutoring agency, a ferry; none is a bench seed).

1. An amount in words with its pence ("six pounds fifty") was £6 and a bare 50, a
   settled "quantity changed" against "£6.50".
2. "Within the hour" was no quantity, and "the 24-hour lost-pet line" a span of a day:
   "flagged within the hour" against "within 1 hour" read as 1 hour -> 1 day.
3. A span before a relative clause ("for up to 90 days, after which you renew it") was
   read as a deadline, whose bound reads either way: "at least 90 days" went unseen.
4. A bare number after a name field's label ("the registered keeper within 2 hours")
   was a claim that the keeper is called "2".
5. ``validate-golden`` noted a name said twice ("Milo") as a possible policy number.
"""

from __future__ import annotations

import pytest

from monitor.golden import item_notes
from monitor.judges.base import JudgeRequest
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Trace
from monitor.text.quantities import quantities
from tests.conftest import ACCEPTED
from tests.unit.monitor.test_failure_classes_35 import _check


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("pay six pounds fifty for each extra change", "money:GBP:6.5"),
        ("it costs ten dollars and twenty cents a page", "money:USD:10.2"),
        ("seven pounds fifty pence per night", "money:GBP:7.5"),
        ("7 pounds 50p each", "money:GBP:7.5"),
    ],
)
def test_an_amount_in_words_with_its_pence(text: str, amount: str) -> None:
    assert amount in quantities(text)
    assert not any(q.startswith("n:") for q in quantities(text))


def test_pounds_then_another_count_stay_apart() -> None:
    assert quantities("five pounds 30 minutes later") >= {"money:GBP:5", "min:30"}
    assert "money:GBP:0.5" in quantities("50p per page")


def test_within_the_hour_is_one_hour_and_a_24_hour_line_no_span() -> None:
    assert "min:60" in quantities("the chip is flagged within the hour")
    assert "min:60" in quantities("we'll call you back in the next hour")
    assert not quantities("ring the 24-hour lost-pet line")
    assert not quantities("our 24 hour emergency helpline")
    assert "min:1440" in quantities("a 24-hour notice period")


# A registry, a print shop, a ferry.
SAID_OTHERWISE = [
    (
        "Each further change costs £6.50.",
        ["Each further change costs six pounds fifty."],
        ["Each further change costs six pounds twenty."],
    ),
    (
        "The chip is flagged as lost within 1 hour.",
        ["Once you call our 24-hour lost-pet line, the chip is flagged within the hour."],
        ["Once you call our 24-hour lost-pet line, the chip is flagged within 2 hours."],
    ),
    (
        "Large prints cost $10.20 each.",
        ["Large prints are ten dollars and twenty cents each."],
        ["Large prints are ten dollars and fifty cents each."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), SAID_OTHERWISE)
def test_an_amount_or_a_span_said_in_words(step: str, kept: list[str], changed: list[str]) -> None:
    _check(step, kept, changed)


# A registry, a car park, a gym.
AFTER_WHICH = [
    (
        "A lost report stays active for up to 90 days, after which you must renew it.",
        ["Reports stay live for up to 90 days, after which you need to renew them."],
        ["The lost report then stays active for at least 90 days, after which you renew it."],
    ),
    (
        "A visitor permit is valid for up to 30 days, after which it lapses.",
        ["Visitor permits last a maximum of 30 days, after which they lapse."],
        ["Visitor permits last at least 30 days, after which they lapse."],
    ),
    (
        "You can freeze the membership for at most 14 days, after which billing resumes.",
        ["Freezes last no more than 14 days, after which billing starts again."],
        ["Freezes last at least 14 days, after which billing starts again."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), AFTER_WHICH)
def test_a_span_before_a_relative_clause_is_no_deadline(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


def _named(answer: str, label: str, name: str) -> GoldenItem:
    return GoldenItem.model_validate(
        {
            "id": "t",
            "intent": "t",
            "agent": "a",
            "question": "?",
            "answer": answer,
            "parameters": {
                "ref": {"value": "48213", "type": "digits", "length": 5, "label": "booking"},
                "name": {"value": name, "type": "text", "label": label},
            },
        }
    )


NAME_AND_NUMBER = [
    # a registry, a hotel, a tutoring agency
    (
        "Booking 48213 is registered to keeper Sarah Jones. We contact the registered "
        "keeper within 4 hours.",
        "keeper",
        "Sarah Jones",
        "Booking 71835 is registered to keeper Neil Burke. We contact the registered "
        "keeper within 4 hours, and you hold the animal for 2 days.",
    ),
    (
        "Booking 48213 is for guest Ana Ruiz. The guest may bring 1 visitor.",
        "guest",
        "Ana Ruiz",
        "Booking 71835 is for guest Tom Reed. The guest 2 visitors at most, please.",
    ),
    (
        "Booking 48213 is with tutor Priya Nair. Lessons with the tutor last 60 minutes.",
        "tutor",
        "Priya Nair",
        "Booking 71835 is with tutor Sam Cole. Your tutor 45 minutes late is refunded.",
    ),
]


@pytest.mark.parametrize(("answer", "label", "name", "live"), NAME_AND_NUMBER)
def test_a_name_without_digits_takes_no_number(
    answer: str, label: str, name: str, live: str
) -> None:
    ref = _named(answer, label, name)
    context = {"ref": "71835", "name": live.split(f"{label} ", 1)[1].split(".", maxsplit=1)[0]}
    r = StructuralJudge().judge_sync(
        JudgeRequest(Trace(trace_id="t", question="q", answer=live, context=context), ref, ACCEPTED)
    )
    assert [c.value for c in r.claims if c.field == "name"] == [context["name"]]


def test_a_name_said_twice_is_no_policy_number_to_note() -> None:
    ref = _named("Booking 48213: Milo is booked in. Milo must be collected by 5 pm.", "pet", "Milo")
    assert item_notes(ref) == []
    twice = _named("Booking 48213 at desk 12. Desks are cleaned every 12 hours.", "desk", "12")
    assert item_notes(twice)
