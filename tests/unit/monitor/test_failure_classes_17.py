"""Bounds said in other words (issue 19, class 5), on hand-written cases from invented
domains (a bowling alley, a holiday cottage, a car park, a swimming pool, a campsite, a
music school, a tile shop; none is a bench seed).

1. A number before a noun it counts is bounded as one with a unit: "up to six players"
   is "at most 6", and "at least six players" turns it around.
2. A bound word before the noun the number measures: "a minimum stay of five nights",
   "the maximum stay is five nights".
3. "Within" is an upper bound ("within 3 metres of the tent" / "at least 3 metres
   away"); a denied "within" is read either way ("claims not made within 28 days are
   not paid" / "must be made within 28 days"; "not collected within 14 days" / "left
   for more than 14 days"), and so is one in a condition ("not seen unless they
   arrive within 10 minutes" / "more than 10 minutes late cannot be seen"). A
   negator before "up to" or "under" on a counted noun denies the verb ("you don't
   pay for up to two bags").
4. "And up to" starts another bound: "two adults and up to three children" bounds the
   children, not the adults.
5. Parts of an hour are minutes ("three quarters of an hour" is 45 minutes, not nine
   months), an hour count and a minute count said together are one span ("2h 40m" is
   160 minutes), pence are an amount ("60p", "60 pence" are £0.60), "g" is grams
   ("1500 g" is "1.5 kg"), "half nine" after a time preposition is half past nine, and
   "seven days a week" is every day (not a week).
6. A quantity changed in place, the rest of the step kept word for word ("the minimum
   age is 12" -> "is 10"), is a change even where the exemplar states the new number
   in another sentence; the same quantity in other words is not ("10pm" -> "22:00").
7. What a "cannot" denied, granted in other words after what it was denied to ("we
   cannot move an order already in the queue" / "orders already in the queue are
   eligible to be upgraded"), is a flip; not in a clause that says "only".
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier, _bound_reversed, _bounds
from monitor.text.polarity import polarity_flip
from monitor.text.quantities import quantities
from tests.unit.monitor.test_failure_classes import item
from tests.unit.monitor.test_failure_classes_12 import _penalised


@pytest.mark.parametrize(
    ("step", "answer", "penalised"),
    [
        # (1) a counted noun
        ("Each lane takes up to six players at a time.", "A lane holds six players max.", False),
        (
            "Each lane takes up to six players at a time.",
            "A lane holds a maximum of six players.",
            False,
        ),
        (
            "Each lane takes up to six players at a time.",
            "You need at least six players to book a lane.",
            True,
        ),
        (
            "Family swims cost £14 for two adults and up to three children.",
            "A family swim is £14 for two adults with at most three children.",
            False,
        ),
        (
            "Family swims cost £14 for two adults and up to three children.",
            "A family swim is £14 for two adults and at least three children.",
            True,
        ),
        # (2) a bound word before the noun the number measures
        (
            "Bookings over Christmas require a minimum stay of five nights.",
            "Over Christmas you must stay at least five nights.",
            False,
        ),
        (
            "Bookings over Christmas require a minimum stay of five nights.",
            "Over Christmas, the maximum stay is five nights.",
            True,
        ),
        (
            "Electric vehicle bays have a maximum stay of four hours while charging.",
            "You can stay in an EV bay for up to four hours while charging.",
            False,
        ),
        (
            "Electric vehicle bays have a maximum stay of four hours while charging.",
            "You must stay at least four hours in an EV bay while charging.",
            True,
        ),
        # (3) "within"
        (
            "Campfires must be kept at least 3 metres away from any tent.",
            "Keep campfires 3 metres or more away from any tent.",
            False,
        ),
        (
            "Campfires must be kept at least 3 metres away from any tent.",
            "Campfires must be kept within 3 metres of any tent.",
            True,
        ),
        (
            "If you do not pick up your repaired guitar within 30 days, it is sold.",
            "Guitars not picked up within 30 days are sold.",
            False,
        ),
        (
            "Repaired guitars not picked up within 30 days are sold.",
            "Repaired guitars left for more than 30 days are sold.",
            False,
        ),
        (
            "Claims not made within 28 days will not be paid.",
            "Claims must be made within 28 days to be paid.",
            False,
        ),
        ("You don't pay for up to two bags.", "Up to two bags are free of charge.", False),
        # ... nor "over" after a count of times ("3 times over 7 days"), nor "min"
        # right after a number
        (
            "We try the delivery 3 times over 5 days.",
            "Delivery attempts: 3 within 5 days.",
            False,
        ),
        (
            "Your new key is usually ready within 20 minutes.",
            "Keys are usually ready in about 20 min.",
            False,
        ),
    ],
)
def test_bounds_said_in_other_words(step, answer, penalised):
    assert _penalised(step, answer) is penalised


@pytest.mark.parametrize(
    ("text", "bounds"),
    [
        ("Each lane takes up to six players.", {6.0: {"max"}}),
        ("Sample tiles are sent to 3 addresses at most.", {3.0: {"max"}}),
        ("The minimum age is 16 years.", {16.0: {"min"}}),
        ("Two adults and up to three children.", {2.0: set(), 3.0: {"max"}}),
        # Still no bound read without a noun or unit after the number: "remove seats
        # above 5".
        ("Remove seats above 5.", {}),
    ],
)
def test_bound_readings(text, bounds):
    assert {v: set(w) for v, w in _bounds(text).items()} == bounds


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Piano lessons last 45 minutes.", "Piano lessons last three quarters of an hour."),
        ("The first 30 minutes are free.", "The first half hour is free."),
        ("Tours start every 15 minutes.", "Tours start every quarter of an hour."),
        ("The show runs 2 hours and 40 minutes.", "The show runs 2h 40m."),
        ("The show runs 160 minutes.", "The show runs two hours and forty minutes."),
        ("Short stays cost 60p.", "Short stays cost £0.60."),
        ("Each cut costs 50 pence.", "Each cut costs 50p."),
        ("Electricity is 38p per kWh.", "Electricity is thirty-eight pence per kWh."),
        ("The walk takes two and a half hours.", "It is a 2.5-hour walk."),
        ("The walk takes 45 minutes.", "The walk takes three-quarters of an hour."),
        # grams written "g", glued or not; "half nine" after a time preposition is
        # half past nine; "seven days a week" is every day
        ("Each bag may weigh 1.5 kg at most.", "Each bag may weigh 1500 g at most."),
        ("A 250g bag of beans costs £8.50.", "A 250 gram bag of beans costs £8.50."),
        ("Doors open at 9:30.", "Doors open at half nine."),
        ("Doors open at 9:30.", "Doors open at half 9."),
        ("Book a table for 7:30.", "Book a table for half seven."),
        ("We close at 9:30 pm.", "We close at half nine at night."),
        ("Lessons start at 3:30 pm.", "Lessons start at half three in the afternoon."),
        ("The deli is open daily.", "The deli is open seven days a week."),
    ],
)
def test_durations_and_amounts_said_another_way(one, other):
    assert quantities(one) == quantities(other)


@pytest.mark.parametrize(
    ("text", "not_read"),
    [
        ("Piano lessons last three quarters of an hour.", "month:9"),
        ("The show runs 2h 40m.", "min:120"),
        ("Doors close at 8p.m.", "money:GBP:0.08"),
        ("It is a two and a half hour walk.", "min:30"),
        ("Fold the dough in half three times.", "clock:210"),
        ("Cut the session to half 3 hours.", "clock:210"),
        ("We open seven days a week.", "min:10080"),
        ("There are at most half 4 people per table.", "clock:270"),
        ("Classes run at half 5 pupils per teacher.", "clock:330"),
    ],
)
def test_no_stray_readings(text, not_read):
    assert not_read not in quantities(text)


# An exemplar whose other sentences state the numbers a swap brings in ("10", "3
# months", "30 minutes"): a quantity changed in place is caught anyway.
KENNEL = item(
    "kennel_rules",
    "Puppies get a booster at 10 weeks. The minimum age for a stay is 12 weeks, and "
    "puppies need a vet check. Cancel with 1 month's notice. A 3 months' pass costs £90. "
    "Walks last 30 minutes.",
    [
        "The minimum age for a stay is 12 weeks, and puppies need a vet check.",
        "Cancel with 1 month's notice.",
        "Walks last 30 minutes.",
    ],
)


@pytest.mark.parametrize(
    ("answer", "step", "status"),
    [
        (
            "Puppies get a booster at 10 weeks. The minimum age for a stay is 10 weeks, and "
            "puppies need a vet check. Cancel with 1 month's notice. A 3 months' pass costs "
            "£90. Walks last 30 minutes.",
            0,
            "altered",
        ),
        (
            "Puppies get a booster at 10 weeks. The minimum age for a stay is 12 weeks, and "
            "puppies need a vet check. Cancel with 3 months' notice. A 3 months' pass costs "
            "£90. Walks last 30 minutes.",
            1,
            "altered",
        ),
        (
            "Puppies get a booster at 10 weeks. The minimum age for a stay is twelve weeks, "
            "and puppies need a vet check. Cancel with one month's notice. A 3 months' pass "
            "costs £90. Walks last half an hour.",
            None,
            "covered",
        ),
    ],
)
def test_a_quantity_changed_in_place(answer, step, status):
    verdicts = StepVerifier().verify(KENNEL, answer, [])
    if step is None:
        assert {v.status for v in verdicts} == {"covered"}
    else:
        (verdict,) = [v for v in verdicts if v.step == KENNEL.steps[step]]
        assert verdict.status == status


@pytest.mark.parametrize(
    ("step", "answer", "penalised"),
    [
        ("The pool closes at 10pm on Sundays.", "The pool closes at 22:00 on Sundays.", False),
        ("The pool opens at 7.30am on weekdays.", "The pool opens at 07:30 on weekdays.", False),
        ("The pool closes at 10pm on Sundays.", "The pool closes at 8pm on Sundays.", True),
    ],
)
def test_a_time_written_another_way_in_place(step, answer, penalised):
    assert _penalised(step, answer) is penalised


@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "We cannot move an order that is already in the queue onto the express service.",
            "Orders already in the processing queue are eligible to be upgraded to express.",
            True,
        ),
        ("You cannot bring pets into the cabin.", "Pets are welcome in the cabin.", True),
        (
            "You cannot bring pets into the cabin.",
            "Only guide dogs are allowed in the cabin; pets stay at home.",
            False,
        ),
        (
            "Refunds cannot be given on opened items.",
            "Only unopened items are eligible for a refund.",
            False,
        ),
        (
            "You cannot take more than 2 large bags on the coach.",
            "You can take a maximum of 2 large bags on the coach.",
            False,
        ),
        # "can not" in two words is the same denial
        (
            "We can not move a booking that is already confirmed to another sailing.",
            "A confirmed booking is eligible for a change of sailing.",
            True,
        ),
        (
            "We can not move a booking that is already confirmed to another sailing.",
            "Only confirmed bookings are eligible for a change of sailing.",
            False,
        ),
    ],
)
def test_what_a_cannot_denied_granted_in_other_words(step, answer, flip):
    assert bool(polarity_flip(step, answer)) is flip


@pytest.mark.parametrize(
    "answer",
    [
        "Patients are not seen unless they arrive within 10 minutes of their slot time.",
        "If you get here within 10 minutes of your slot, we can still see you.",
        "Patients are seen only when they arrive within 10 minutes of their appointment.",
    ],
)
def test_a_within_in_a_condition_states_the_other_side(answer):
    step = "Patients more than 10 minutes late cannot be seen."
    assert _bound_reversed(step, answer) is None
    # ... but outside a condition "within" is still an upper bound
    assert _bound_reversed(step, "Patients are seen within 10 minutes of arriving.") is not None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # a condition in another clause, or the "once" of "once a week", leaves the
        # "within" an upper bound
        (
            "If you cancel, refunds are paid within 5 days.",
            "If you cancel, refunds take more than 5 days.",
        ),
        (
            "Once your parcel arrives, report damage within 3 days.",
            "Once your parcel arrives, report damage after more than 3 days.",
        ),
        (
            "Lockers are checked once a week, and reports are sent within 2 days.",
            "Lockers are checked once a week, and reports are sent after more than 2 days.",
        ),
    ],
)
def test_a_within_outside_the_conditions_clause_is_a_bound(step, answer):
    assert _bound_reversed(step, answer) is not None


def test_a_count_in_a_condition_states_the_other_side():
    step = "You can pause up to 4 lessons a term; for a longer break, cancel instead."
    assert _bound_reversed(step, "If you need to pause more than four lessons, cancel.") is None
    assert _bound_reversed(step, "You can pause at least four lessons a term.") is not None
