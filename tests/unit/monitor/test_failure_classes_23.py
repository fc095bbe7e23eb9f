"""Negations that belong to something else than the step (issue 19, class 4), on
hand-written cases from invented domains (a dishwasher, a swimming pool, a library, a
boiler service, a riding school, a pottery kiln, a print shop, a museum, a gym, a
ferry; none is a bench seed).

- A warning not to do the act whose outcome the step states is that rule ("please don't
  open the cover yourself: that voids the guarantee" for "opening the cover yourself
  voids the guarantee"; "if you dive in the shallow end, ..." for "never dive in the
  shallow end; ..."): the negation forbids the act, the outcome keeps its polarity.
  The outcome denied is still a flip, and so is an order negated ("do not bring the
  record" for "bring the record").
- A clause that negates and shares one word only with the step, beside four words of
  its own, is another statement ("..., we won't refund it, and we aren't able to accept
  claims that come in more than fourteen days after the lesson"): its negation neither
  cancels the step's nor makes a flip of it, and the step is read on the rest of the
  sentence (where a flip is still caught: "we will refund it, and we aren't able ...").
- "Not eligible for", "not entitled to", "not able to" bear on what they govern: "not
  eligible for a refund" against "we will refund it" is a flip.
"""

from __future__ import annotations

import pytest

from monitor.text.polarity import polarity_flip
from tests.unit.monitor.test_failure_classes_22 import _status as _verdict

DISHWASHER = "Running the dishwasher without salt damages the water softener."
POOL = "If you dive in the shallow end, the lifeguards will ask you to leave."
POOL_WARNING = "Never dive in the shallow end; the lifeguards will ask you to leave."
LIBRARY = "Returning books late blocks further loans for a month."
BOILER = "Opening the boiler cover yourself voids the service guarantee."
KENNEL = "Bring the vaccination record when you drop your dog off."
RIDING = (
    "Lessons that stopped because your horse reached its own jump limit or because the "
    "rider unclipped the lunge line are not eligible for a refund."
)
KILN = (
    "Firings that stopped because your kiln reached its own heat limit or because the "
    "potter opened the lid are not eligible for a refund."
)
PRINT = (
    "Print jobs that stopped because your printer reached its own page limit or because "
    "the user pulled the cable are not eligible for a refund."
)
MUSEUM = "Tickets bought online cannot be exchanged at the door."
GYM = "Towels are not provided in the changing rooms."

RIDING_ANSWER = (
    "A couple of things to bear in mind: if riding stopped because your horse hit its own "
    "jump limit, or because the rider unclipped the lunge line, we won't refund it, and we "
    "aren't able to accept claims that come in more than fourteen days after the lesson."
)
KILN_ANSWER = (
    "Two things to keep in mind: if firing stopped because your kiln hit its own heat "
    "limit, or because the potter opened the lid, we won't refund it, and we aren't able "
    "to accept claims that come in more than a month after the firing."
)
PRINT_ANSWER = (
    "Worth knowing: if printing stopped because your printer hit its own page limit, or "
    "because the user pulled the cable, we won't refund it, and we aren't able to accept "
    "claims that come in more than a week after the print job."
)


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            DISHWASHER,
            "Please don't run the dishwasher without salt - it damages the water softener.",
        ),
        (POOL, "Never dive in the shallow end; the lifeguards will ask you to leave the pool."),
        (LIBRARY, "Please do not return books late: that blocks any further loans for a month."),
        (BOILER, "Don't open the boiler cover yourself: that voids the service guarantee."),
        # the other way round: the step warns, the answer gives the act's outcome
        (POOL_WARNING, "If you dive in the shallow end, the lifeguards will ask you to leave."),
    ],
)
def test_a_warning_against_the_act_is_the_rule(step: str, answer: str) -> None:
    assert _verdict(step, answer) == "covered"


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (POOL, "Never dive in the shallow end; the lifeguards will not ask you to leave."),
        (LIBRARY, "Please do not return books late, though it does not block further loans."),
        (BOILER, "Don't open the boiler cover yourself, though it never voids the guarantee."),
        # an order, not an act with an outcome: its negation is the flip
        (KENNEL, "Do not bring the vaccination record when you drop your dog off."),
    ],
)
def test_a_warning_with_its_outcome_denied_is_still_caught(step: str, answer: str) -> None:
    assert _verdict(step, answer) == "negated"


@pytest.mark.parametrize(
    ("step", "answer"),
    [(RIDING, RIDING_ANSWER), (KILN, KILN_ANSWER), (PRINT, PRINT_ANSWER)],
)
def test_a_negated_clause_about_something_else_cancels_no_negation(step: str, answer: str) -> None:
    assert _verdict(step, answer) == "covered"


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (RIDING, RIDING_ANSWER.replace("we won't refund it", "we will refund it")),
        (KILN, KILN_ANSWER.replace("we won't refund it", "we will refund it")),
        (
            MUSEUM,
            "Online tickets can be swapped at the door, and we don't sell guidebooks or "
            "audio sets at the ticket desk.",
        ),
        (
            GYM,
            "We provide towels in the changing rooms, and lockers in the changing area do "
            "not take coins or tokens.",
        ),
    ],
)
def test_a_flip_beside_a_negated_clause_about_something_else_is_caught(
    step: str, answer: str
) -> None:
    assert _verdict(step, answer) == "negated"


@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        ("Tickets lost on site are not eligible for a refund.", "We refund lost tickets.", True),
        ("Tickets lost on site are not eligible for a refund.", "Lost tickets are refunded.", True),
        (
            "Tickets lost on site are not eligible for a refund.",
            "We won't refund tickets lost on site.",
            False,
        ),
        (
            "Passengers are not entitled to compensation for delays under 2 hours.",
            "We pay compensation for delays under 2 hours.",
            True,
        ),
        (
            "Passengers are not entitled to compensation for delays under 2 hours.",
            "No compensation is paid for delays under 2 hours.",
            False,
        ),
        ("The ferry desk is not able to accept cash.", "The ferry desk accepts cash.", True),
        ("The ferry desk is not able to accept cash.", "The ferry desk can't take cash.", False),
    ],
)
def test_not_eligible_for_bears_on_what_it_governs(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) == flip


CINEMA = "Latecomers more than 20 minutes after the start cannot be admitted."
DENTIST = "Cancellations with less than 48 hours' notice are charged a £30 fee."
BOATS = "Boats returned more than 30 minutes late are charged an extra hour."
LAUNDRY = "Bags left more than 30 days after the ready date are charged for storage."


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (CINEMA, "Up to twenty minutes after the start, latecomers can still be admitted."),
        (DENTIST, "Cancellations with at least two days' notice don't pay the £30 fee."),
        (BOATS, "Up to 30 minutes late there's no extra charge for the boat."),
        (LAUNDRY, "Up to 30 days after the ready date, storage of your bags is free."),
    ],
)
def test_a_rule_said_from_the_other_side_of_its_threshold_is_covered(
    step: str, answer: str
) -> None:
    assert _verdict(step, answer) == "covered"


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # the same side with the polarity flipped
        (CINEMA, "More than 20 minutes after the start, latecomers can still be admitted."),
        (BOATS, "Boats returned more than 30 minutes late are not charged an extra hour."),
        (LAUNDRY, "Bags left more than 30 days after the ready date are stored free."),
        # the other side of another threshold
        (CINEMA, "Up to forty minutes after the start, latecomers can still be admitted."),
        (LAUNDRY, "Up to 60 days after the ready date, storage of your bags is free."),
        # the other side, the polarity kept: a bound reversed
        (BOATS, "Boats returned up to 30 minutes late are charged an extra hour."),
    ],
)
def test_the_other_side_of_another_threshold_or_the_same_side_flipped_is_caught(
    step: str, answer: str
) -> None:
    assert _verdict(step, answer) in ("negated", "altered")


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # a warning against what the other text permits
        (
            "Parking in the staff bay is allowed after 6 pm.",
            "Please don't park in the staff bay after 6 pm.",
        ),
        (
            "Do not feed the animals in the petting zoo.",
            "Feeding the animals in the petting zoo is encouraged.",
        ),
        ("Please do not park on the grass verge.", "If you park on the grass verge, that is fine."),
        ("Don't open the boiler casing yourself.", "Opening the boiler casing yourself is fine."),
        (
            "Do not leave bags unattended in the lobby.",
            "Leaving bags unattended in the lobby is permitted.",
        ),
        # a range bounds two numbers: one side of one of them is no other side
        (
            "Sessions of at least 2 hours and up to 6 hours can be booked online.",
            "Sessions of up to 6 hours cannot be booked online.",
        ),
        # a threshold counted from another event
        (
            "Refunds are given for cancellations made at least 48 hours before the class.",
            "Refunds are not given for cancellations made within 48 hours of booking.",
        ),
        # "not able to" / "not entitled to" read as written too
        (
            "The front desk is not able to process refunds.",
            "The front desk is able to handle refunds.",
        ),
        (
            "Volunteers are not entitled to expenses.",
            "Volunteers are entitled to claim travel costs.",
        ),
    ],
)
def test_near_misses_of_the_new_rules_are_still_caught(step: str, answer: str) -> None:
    assert _verdict(step, answer) == "negated"


@pytest.mark.xfail(
    strict=True,
    reason="known: a clause that says the step's negation in other words and shares one "
    "word with it reads as another statement, so the step's negation reads as lost "
    "(an uncertain verdict, escalated by a hybrid judge)",
)
def test_a_negation_said_again_in_a_clause_sharing_one_word_is_the_steps() -> None:
    assert (
        _verdict(
            "Cash is not accepted at the kiosk.",
            "Cards are accepted at the kiosk, and the kiosk will not take any notes or "
            "coins from visitors.",
        )
        == "covered"
    )
