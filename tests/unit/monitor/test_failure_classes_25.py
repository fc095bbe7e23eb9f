"""Exceptions left out or said as a let-off, and "excluded from" said for "not" (issue 19,
class 4), on hand-written cases from invented domains (a bowling alley, a paddleboard
hire, a sailing school, a climbing wall, a picture framer, a swimming school, an
outlet shop, a theatre, a hotel, a coach company; none is a bench seed).

- An "unless" whose condition the other text does not speak of (in the sentence, its
  other sentences or its context) is an exception left out, not a negation, where the
  two texts state the rule with the same sign: "book 2 hours ahead, unless you are a
  league member" / "lanes must be booked 2 hours ahead". Kept where a sign differs (an
  exception is as often said as the rule turned: "cannot freeze unless you have a
  medical reason" / "can freeze with a doctor's note"), and where the other sentence
  restricts the rule or speaks to its exceptions ("only", "if", "except", "until",
  "even", "always", "without", ...). So a rule turned with its exception left out is
  still read through the "unless" as before: a known gap.
- An exception said as a let-off ("skip it if you hold a level 3 badge", "paddlers over
  16 can skip them") is the other text's "unless" with the same condition; not a
  let-off of something else ("skip the queue"), taken back ("..., but it's required"),
  or said of the past ("used to be exempt").
- "Excluded from" / "exempt from" / "barred from" what the other text names is a
  negation of it ("excluded from returns" / "not returnable"); negated, it affirms
  ("not excluded from returns" / "not returnable" is a flip). Not where the other text
  says the exclusion in a word of its own ("banned", "unavailable", "only", ...);
  beside the word's own antonym ("included", "covered") the antonym reads it, as
  before.
- A need in a condition ("if you need to cancel, do so 48 hours before", "should you
  need to change the date") is no duty against the step's permission ("you can cancel
  up to 48 hours before"); a need in the main clause still is ("you need to bring a
  guest" / "you can bring a guest"), and so is one after "when" ("we'll tell you when
  you need to pay").
- A fee let go or written off is a fee waived ("we're only able to let it go once a
  year" / "we can waive it only once a year"), in a text that talks of a fee; not what
  is let go somewhere ("let them go home") nor a car written off.
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.polarity import _EXCEPTIONS_MAX, _plain, _shut_out, _unheard_unless, polarity_flip
from tests.unit.monitor.test_failure_classes import item


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "Book your lane at least 2 hours ahead, unless you are a league member.",
            "Lanes must be booked at least 2 hours ahead.",
        ),
        (
            "Return the paddleboard by 6 pm unless the instructor agrees a later time.",
            "The paddleboard has to be back by 6 pm.",
        ),
        # the answer's exception, which the step leaves out
        (
            "Framing orders are not refunded.",
            "Framing orders are not refunded unless we damaged the artwork.",
        ),
        # the same exception in other words, beside the answer's own restriction
        (
            "Lessons cannot be moved once booked unless you hold a flexi pass.",
            "Once booked, lessons can only be moved with a flexi pass.",
        ),
        (
            "Lessons cannot be moved once booked unless you hold a flexi pass.",
            "A booked lesson can't be moved, except on a flexi pass.",
        ),
    ],
)
def test_an_exception_left_out_is_no_negation(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


def test_an_exception_said_in_another_sentence_is_heard() -> None:
    step = "Lessons cannot be moved once booked unless you hold a flexi pass."
    answer = "Lessons can be moved once booked."
    assert polarity_flip(step, answer, elsewhere=("That is for flexi pass holders.",)) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # an "unless" the other text's "until" bears on is kept
        (
            "You won't be charged until the treatment is finished.",
            "The treatment won't be finished unless you've paid.",
        ),
        # the exception denied ("even", "always")
        (
            "Late returns of a hire car are charged a fee unless you have a medical certificate.",
            "Late returns are always charged a fee, even with a doctor's note.",
        ),
        # the rule kept, its exception taken away in the same sentence
        (
            "Pay the locker deposit unless you are a member.",
            "Members used to be exempt, but now everyone pays the locker deposit.",
        ),
        # the rule turned, with a "free" or "at no extra cost" beside it
        (
            "Hotel rooms cannot be cancelled unless you booked a flexible rate.",
            "You can cancel your hotel room free of charge up to 24 hours before arrival.",
        ),
        (
            "Pets are not allowed in the hotel rooms unless they are assistance dogs.",
            "Pets are welcome in the hotel rooms at no extra cost.",
        ),
        # a let-off of something else, or taken back
        (
            "Pay the locker deposit at check-in unless you are a member.",
            "Members can skip the queue at check-in, but everyone pays the locker deposit.",
        ),
        (
            "Attend the bike safety briefing unless you have ridden with us in the last 12 months.",
            "Riders sometimes ask to skip the bike safety briefing if they've ridden with us "
            "before, but it's required every time.",
        ),
        (
            "Everyone does the gym induction unless they are a returning member.",
            "Everyone does the gym induction, even if you're a returning member; personal "
            "trainers can skip it.",
        ),
    ],
)
def test_an_exception_left_out_does_not_hide_a_turned_rule(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # an exception said as the rule turned, in words of its own
        (
            "Members cannot freeze their gym membership unless they have a medical reason.",
            "You can freeze your gym membership with a doctor's note.",
        ),
        (
            "Late cancellations of a physio session are charged in full unless you have a "
            "medical certificate.",
            "Late cancellations of a physio session are free with a doctor's note.",
        ),
        (
            "We won't disconnect your gas supply unless all other options have failed.",
            "Disconnection never happens without trying every alternative first.",
        ),
    ],
)
def test_an_exception_said_as_the_rule_turned_is_no_flip(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


@pytest.mark.xfail(
    strict=True,
    reason="known gap: where the answer turns the rule and leaves the exception out, the "
    "'unless' still counts as a negation (it is kept where the two texts' signs differ, "
    "as an exception is as often said as the rule turned: 'can freeze it with a "
    "doctor's note')",
)
@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "Lessons cannot be moved once booked unless you hold a flexi pass.",
            "Lessons can be moved once booked.",
        ),
        (
            "You must wear a harness on the wall unless you are bouldering.",
            "You don't need a harness on the wall.",
        ),
    ],
)
def test_a_rule_turned_with_its_exception_left_out(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "Take the swimming assessment before your first lesson, unless you already "
            "hold a level 3 badge.",
            "Swimming assessment: before lesson one (skip it only if you hold a level 3 badge)",
        ),
        (
            "Take the swimming assessment before your first lesson, unless you already "
            "hold a level 3 badge.",
            "Do the swimming assessment before lesson one; you can skip it if you hold a "
            "level 3 badge.",
        ),
        (
            "Wear a buoyancy aid on the water unless you are over 16.",
            "Buoyancy aids are needed on the water; paddlers over 16 can skip them.",
        ),
        (
            "Wear a buoyancy aid on the water unless you are over 16.",
            "Buoyancy aids on the water: paddlers over 16 are exempt.",
        ),
    ],
)
def test_an_exception_said_as_a_let_off_is_the_unless(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        ("Sale items are not returnable.", "Sale items are excluded from returns."),
        ("Gift cards are not refundable.", "Gift cards are excluded from refunds."),
        ("Seniors do not pay the booking fee.", "Seniors are exempt from the booking fee."),
        (
            "Staff cannot enter the prize draw.",
            "Staff are barred from entering the prize draw.",
        ),
        # the antonym reads its own pair
        ("Breakfast is not included in the rate.", "Breakfast is excluded from the rate."),
        # said twice in one text
        (
            "Seniors don't pay the museum entry fee.",
            "Seniors are exempt from the museum entry fee and won't be charged.",
        ),
        # the exclusion said in a word of its own
        (
            "Staff are prohibited from entering the prize draw.",
            "Staff are barred from entering the prize draw.",
        ),
        (
            "Next-day delivery is unavailable for oversized parcels.",
            "Oversized parcels are excluded from next-day delivery.",
        ),
        # a shut-out of something narrower than the step names
        (
            "Passengers who miss the flight are entitled to a refund of airport taxes.",
            "Passengers who miss the flight are excluded from fare refunds but get the "
            "airport taxes back.",
        ),
    ],
)
def test_excluded_from_is_a_negation(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        ("Sale items are not returnable.", "Sale items are not excluded from returns."),
        ("Sale items are returnable.", "Sale items are excluded from returns."),
        ("Seniors pay the booking fee.", "Seniors are exempt from the booking fee."),
        ("Members can enter the prize draw.", "Members are excluded from the prize draw."),
        ("Breakfast is included in the rate.", "Breakfast is excluded from the rate."),
    ],
)
def test_excluded_from_against_the_affirmed_rule_is_a_flip(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


OUTLET = item(
    "outlet_returns",
    "Unworn items can be returned within 30 days with the receipt. Items bought in the "
    "clearance sale cannot be returned unless they are faulty, and swimwear with the "
    "hygiene strip removed is not returnable. Refunds go back to the card you paid with.",
    [
        "Unworn items can be returned within 30 days with the receipt.",
        "Items bought in the clearance sale cannot be returned unless they are faulty, "
        "and swimwear with the hygiene strip removed is not returnable.",
        "Refunds go back to the card you paid with.",
    ],
)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            "You can return unworn items within 30 days if you have the receipt. Please "
            "note that clearance sale items cannot be returned unless they are faulty. "
            "Swimwear whose hygiene strip has been removed is also excluded from returns. "
            "The refund goes back to the card you paid with.",
            "covered",
        ),
        (
            "You can return unworn items within 30 days if you have the receipt. Please "
            "note that clearance sale items cannot be returned unless they are faulty. "
            "Swimwear whose hygiene strip has been removed is not excluded from returns. "
            "The refund goes back to the card you paid with.",
            "negated",
        ),
    ],
)
def test_a_step_said_as_excluded_from_returns(answer: str, expected: str) -> None:
    verdicts = {v.index: v for v in StepVerifier().verify(OUTLET, answer, [])}
    assert verdicts[1].status == expected, verdicts[1].cue
    assert verdicts[0].status == verdicts[2].status == "covered"


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "You can cancel a lane up to 48 hours before your slot.",
            "If you need to cancel, please do so at least 48 hours before your slot.",
        ),
        (
            "You can change the coach date online before the trip.",
            "Should you need to change the date, do it online before the trip.",
        ),
        (
            "You can move your sailing lesson until noon the day before.",
            "In case you have to move a lesson, tell us by noon the day before.",
        ),
        # the permission beside the conditional need is read as written
        (
            "Dental check-up cancellations must be made at least 24 hours before your appointment.",
            "If you need to cancel, you can do so up to 24 hours before your appointment.",
        ),
    ],
)
def test_a_need_in_a_condition_is_no_duty(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "You can bring a guest to the theatre bar.",
            "You need to bring a guest to the theatre bar.",
        ),
        (
            "You can change the coach date online before the trip.",
            "You have to change the coach date online before the trip.",
        ),
        # a condition of a few words, then the duty in the main clause
        (
            "You may show your membership card at the front desk.",
            "If so, you need to show your membership card at the front desk.",
        ),
        (
            "You may bring your own helmet to the karting track.",
            "In that case you'll need to bring your own helmet to the karting track.",
        ),
        (
            "You can refuel the hire car before returning it.",
            "When returning, you need to refuel the hire car.",
        ),
        # "when" is as often no condition
        (
            "You can pay the holiday balance at any time before arrival.",
            "We'll tell you when you need to pay the holiday balance.",
        ),
    ],
)
def test_a_need_in_the_main_clause_stays_a_duty(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) == "modal"


@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "The late fee is not covered by your locker plan, and we can waive it only "
            "once in any 12 months.",
            "Your locker plan doesn't cover the late fee, and we're only able to let it go "
            "once in a twelve-month period.",
            False,
        ),
        (
            "We can waive the late return fee once a year.",
            "We can write the late return fee off once a year.",
            False,
        ),
        (
            "We can waive the late return fee once a year.",
            "We can let the late return fee slide once a year.",
            False,
        ),
        (
            "We can waive the late return fee once a year.",
            "We cannot write the late return fee off.",
            True,
        ),
        # what is let go somewhere, and a car written off, is no fee waived
        (
            "Your pet can go home once the treatment fee is paid.",
            "We'll let them go home once the treatment fee is paid.",
            False,
        ),
        (
            "The car is released once the repair charges are paid.",
            "We'll let the car go as soon as the repair charges are paid.",
            False,
        ),
        (
            "If your car is a total loss, we cover the towing costs.",
            "We cover the towing costs if your car is written off.",
            False,
        ),
    ],
)
def test_a_fee_let_go_is_waived(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


def test_a_text_of_many_exceptions_is_read_as_written() -> None:
    # (hostile input: each exception or shut-out would be compared with every word of
    # the other text)
    many = _plain(" ".join(f"unless you hold pass {i}" for i in range(_EXCEPTIONS_MAX + 1)))
    assert _unheard_unless(many, _plain("Book the session.")) == many
    few = _plain("Book the session unless you hold a pass.")
    assert " unless " not in _unheard_unless(few, _plain("Book the session."))
    own = _plain(" ".join(f"excluded from returns {i}" for i in range(_EXCEPTIONS_MAX + 1)))
    assert _shut_out([], own.split(), _plain("Sale items are not returnable.").split()) == []
    one = _plain("Sale items are excluded from returns.").split()
    assert _shut_out([], one, _plain("Sale items are not returnable.").split()) != []
