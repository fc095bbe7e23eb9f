"""A quantity swapped where the step had it, and a clause read as this step's that goes
on from another step's (issue 19), on hand-written cases from invented domains (a
library, a climbing wall, a ferry, a dog groomer, a theatre, a gym, a bike shop, a
pottery studio; none is a bench seed or a trial's trace).

1. A step's quantity replaced by another of its kind went unseen where the answer
   states the old one in another sentence, or the new one is the exemplar's too ("an
   adult aged 18 or over" -> "aged 16 or over" beside "under 16"), or the clause that
   carries it is cut short ("Renewals: online, within 3 months of the due date - ...").
   Now a quantity of the step that the sentence states nowhere, where a quantity of
   the same kind stands in its place -- a word after the number in common ("of the
   due date"), or the two before it; for a bare number a word on each side -- is a
   changed quantity (``altered``).
2. Not where the new quantity is the old one written another way, not a range's other
   end, not a bare number against a duration, and not a quantity of the kind of an
   instance value the step holds ("your delay of {delay} minutes").
3. A negation in a clause that goes on from another step's segment ("Classes missed
   through illness, or because the class was full, do not earn a credit") was read
   against this step ("credits older than 90 days can still be used"), and cancelled
   its flip. Such a clause is that step's.
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier, _anchored_change, _without_taken
from monitor.text import tokens
from tests.unit.monitor.test_failure_classes import item
from tests.unit.monitor.test_failure_classes_2 import statuses
from tests.unit.monitor.test_failure_classes_35 import _check, _status

# A library, a climbing wall, a ferry, a dog groomer, a theatre.
SWAPPED_AT_ITS_PLACE = [
    (
        "Renew the loan online within 14 days of the due date, quoting your card number.",
        [
            "Renewals: online, within two weeks of the due date - quote your card number",
            "You can renew online up to 14 days after the due date; have your card number ready.",
        ],
        ["Renewals: online, within 3 months of the due date - quote your card number"],
    ),
    (
        "Climbers under 14 must be supervised by an adult aged 18 or over, and children "
        "under 8 cannot use the lead wall.",
        [
            "Anyone under the age of 14 needs a supervising adult who is 18 or older, and "
            "no child under 8 may use the lead wall."
        ],
        [
            "Anyone under the age of 14 needs a supervising adult aged 14 or over, and no "
            "child under 8 may use the lead wall."
        ],
    ),
    (
        "Vehicle bookings can be amended free of charge up to 48 hours before departure, "
        "and later changes cost £20.",
        [
            "Amending a vehicle booking is free until two days before departure; after "
            "that it's £20.",
        ],
        [
            "Amending a vehicle booking is free until 12 hours before departure; after that "
            "it's £20."
        ],
    ),
    (
        "Please collect your dog within 30 minutes of the pick-up text, or a late fee "
        "of £10 applies.",
        ["Pick your dog up no more than half an hour after our pick-up text (late fee: £10)."],
        ["Pick your dog up no more than 2 hours after our pick-up text (late fee: £10)."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), SWAPPED_AT_ITS_PLACE)
def test_a_quantity_swapped_at_its_place_is_a_change(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


def test_the_swap_is_read_where_the_old_quantity_is_said_in_another_sentence() -> None:
    """The answer states "14 days" in a sentence about late claims; the step's own
    sentence says "48 hours" where the step says "14 days"."""
    steps = [
        "Report a broken tool within 14 days of the hire through the Help page.",
        "Reports made more than 14 days after the hire cannot be accepted.",
    ]
    golden = item("tool_hire", " ".join(steps), steps)
    answer = (
        "Go to the Help page and report the broken tool no more than 48 hours after the "
        "hire. Anything reported more than 14 days after the hire can't be accepted."
    )
    verdicts = StepVerifier().verify(golden, answer, [])
    assert verdicts[0].status == "altered", verdicts[0]
    assert "48 hours" in verdicts[0].cue or "2 days" in verdicts[0].cue
    assert verdicts[1].status == "covered", verdicts[1]


@pytest.mark.parametrize(
    ("step", "sentence"),
    [
        # The same quantity written another way.
        (
            "Tickets can be exchanged up to 24 hours before the show.",
            "tickets can be exchanged until one day before the show.",
        ),
        # A range's two ends, written in words.
        ("The studio takes 2 to 8 potters per class.", "between two and eight potters a class"),
        # Another quantity beside the step's, which the sentence keeps.
        (
            "Refunds are issued within 5 working days of the inspection.",
            "we inspect returns within 2 days, and refunds are issued within five working "
            "days of the inspection.",
        ),
        # A bare number against a duration.
        ("Lockers cost £2 for up to 4 hours at the gym.", "lockers at the gym: 4 hours for £2"),
        # A reviewer's false alarms of a first version (invented domains): a number
        # word of two parts read as its last part, a range with its unit, a percentage
        # before a comma, the words around a number read past a semicolon, "working"
        # read as what a span measures.
        (
            "Report any damage within forty-eight hours of delivery.",
            "Please report any damage within 48 hours of delivery.",
        ),
        (
            "The balance is due thirty-five days before the wedding.",
            "The remaining balance must be paid 35 days before the wedding.",
        ),
        (
            "Standard delivery takes 3 to 5 working days.",
            "Delivery times: standard delivery takes 3 to 5 working days, and express "
            "delivery takes 1 to 2 working days.",
        ),
        (
            "Students receive a discount of 15%, applied at checkout.",
            "Students get 15 per cent off, applied automatically at checkout; staff receive "
            "a discount of 20%, applied at checkout too.",
        ),
        (
            "Deposits are returned within 10 working days after the event.",
            "Please report any damage within 2 working days; after the event is checked, "
            "your deposit is returned.",
        ),
        (
            "Refunds are issued within 14 days of receiving the return.",
            "Send the item back so it arrives within 30 days of purchase; once we've "
            "received the return, your refund is issued.",
        ),
    ],
)
def test_no_swap_where_the_quantity_is_kept(step: str, sentence: str) -> None:
    assert _anchored_change(step, sentence, 4) is None


def test_a_quantity_of_an_instance_values_kind_is_not_a_swap() -> None:
    """The step holds the instance's delay: a duration near "late" may be this one's."""
    step = (
        "Claims open when a train is 15 minutes or more late, so your delay of <value> "
        "minutes qualifies."
    )
    sentence = "your train was 40 minutes late, so you qualify."
    assert _anchored_change(step, sentence, 4) is not None  # (without the slot: read)
    assert _anchored_change(step, sentence, 4, {"min:7919"}) is None


# A bike shop, a gym.
BIKES = (
    "Bikes ridden off-road, or left outside overnight, aren't covered by the warranty, "
    "and wheels that have been rebuilt elsewhere can be trued for free."
)


def test_a_clause_going_on_from_another_steps_segment_is_that_steps() -> None:
    """The clauses are cut finer than the segments: "aren't covered by the warranty"
    goes on from another step's segment, "Bikes ridden off-road", and is left out of the
    sentence as this step ("wheels ... can be trued for free") reads its polarity (the
    clauses that do not negate stay)."""
    sentences = [((0,), tokens(BIKES), BIKES)]
    own = "wheels that have been rebuilt elsewhere can be trued for free."
    got = _without_taken(sentences, (0,), (), frozenset({"Bikes ridden off-road"}), own)
    assert got is not None and "aren't" not in got and own in got, got
    # No other step's segment there: nothing is left out.
    assert _without_taken(sentences, (0,), (), frozenset(), own) is None
    # A negating clause before the other step's segment is not that step's.
    ahead = "No bike is ever refused, but bikes ridden off-road aren't covered by the warranty."
    got = _without_taken(
        [((0,), tokens(ahead), ahead)], (0,), (), frozenset({"bikes ridden off-road"}), ""
    )
    assert got is None or "No bike is ever refused" in got


def test_a_negated_rule_beside_another_steps_negation_is_still_read() -> None:
    steps = [
        "Classes missed through illness or because the class was full do not earn a credit.",
        "Credits from cancelled classes cannot be moved to another member.",
    ]
    golden = item("gym_credit", " ".join(steps), steps)
    head = (
        "Classes missed through illness, or because the class was full, do not earn a "
        "credit, and credits from cancelled classes "
    )
    assert statuses(golden, head + "can't be moved to another member.") == ["covered", "covered"]
    assert statuses(golden, head + "can be moved to another member.") == ["covered", "negated"]


def test_a_bike_shops_service_rule() -> None:
    """A single step, both ways (no other step's clause in the sentence)."""
    step = "Bikes left more than 30 days after the service cannot be stored."
    assert _status(step, "bikes left more than 30 days after the service can't be stored")[0] == (
        "covered"
    )
    assert _status(step, "bikes left more than 30 days after the service can be stored")[0] == (
        "negated"
    )
