"""Failure classes read on the held-out sets 1 to 9 before the tenth set's clean run
(issue 19), on hand-written cases from invented domains (window fitter, dog walker,
furniture delivery, gym, plumber, kayak hire, grocery delivery; none is a bench seed): real
changes that must be caught, paraphrases that must pass.

(1) A negation the answer adds to a reworded verb bears on the step when the words it
governs further on are the step's ("we text you a two-hour window" -> "our message
won't narrow it down to a two-hour window"): read up to ten words after the negator,
to the end of its clause, for an answer's negation against a step with no negation of
its own (a negation the step has and a paraphrase says in other words stays unread
there). (2) A dash between spaces before three words ends a clause, so a step stated
after it is aligned to its own clause ("choose a slot at checkout - delivery is for
orders under $20"). (3) A masked amount with a glued "+" ("$20+") states a lower bound
as "20+" does.
"""

from __future__ import annotations

import pytest

from monitor.text.polarity import polarity_flip
from monitor.text.sentences import split_clauses
from tests.conftest import item_with_params
from tests.unit.monitor.test_failure_classes import item, statuses, wrong


# (1) An added negation on a reworded verb.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Our fitter calls you with an arrival time the day before.",
            "The day before, the fitter won't ring to give you an arrival time.",
            True,
        ),
        (
            "Our fitter calls you with an arrival time the day before.",
            "The day before, the fitter will ring to give you an arrival time.",
            False,
        ),
        (
            "Walks cancelled by 8 pm the night before are credited to your account.",
            "If you cancel by 8 pm the night before, that walk isn't put back as a credit "
            "on your account.",
            True,
        ),
        (
            "Walks cancelled by 8 pm the night before are credited to your account.",
            "If you cancel by 8 pm the night before, that walk is put back as a credit on "
            "your account.",
            False,
        ),
        (
            "We text you a two-hour delivery window the evening before.",
            "The evening before, our message won't narrow it down to a two-hour delivery window.",
            True,
        ),
        (
            "We text you a two-hour delivery window the evening before.",
            "The evening before, our message narrows it down to a two-hour delivery window.",
            False,
        ),
        # The step's own negation said in other words is not read further on.
        (
            "You must not wait for us: turn off the water at the stopcock and call the "
            "emergency line.",
            "Turn off the water at the stopcock and call the emergency line straight away.",
            False,
        ),
        # ... nor past the end of its clause as written, or a subordinate "when".
        (
            "Bring your passport to the desk.",
            "It doesn't take long: bring your passport to the desk.",
            False,
        ),
        (
            "Call us to rebook the session.",
            "No problem at all - call us to rebook the session.",
            False,
        ),
        (
            "Returns are accepted within 30 days with a receipt.",
            "We do not ask questions when returns are accepted within 30 days with a receipt.",
            False,
        ),
        # Numbers and units further on are no governed words.
        (
            "Each kayak can be hired for up to 6 hours a day.",
            "Kayaks can be hired for six hours a day, and you don't pay extra for the 6 "
            "hours a day.",
            False,
        ),
        # A clause break ends what the negation governs.
        (
            "Members get two guest passes a month and can book classes online.",
            "Members get two guest passes a month, but they can't book the classes online.",
            True,
        ),
        (
            "Members get two guest passes a month and can book classes online.",
            "You get two guest passes a month, and classes can be booked online too.",
            False,
        ),
    ],
)
def test_an_added_negation_on_a_reworded_verb(step: str, answer: str, flip: bool) -> None:
    assert bool(polarity_flip(step, answer)) is flip


# (2) A dash between spaces before three words ends a clause; a hyphen, a range or a
# dash before a note does not.
def test_a_spaced_dash_ends_a_clause() -> None:
    assert split_clauses("we refund your deposit in full - any later and it is kept") == [
        "we refund your deposit in full",
        "any later",
        "it is kept",
    ]
    assert split_clauses("8-12 weeks, check-in \u2013 no later than 3 pm") == [
        "8-12 weeks",
        "check-in",
        "no later than 3 pm",
    ]
    # A dash before a note is no clause break.
    assert split_clauses("Attach 2 photos - optional; keep the parts") == [
        "Attach 2 photos - optional",
        "keep the parts",
    ]
    assert split_clauses("Return the kayak - booking K7Q2") == ["Return the kayak - booking K7Q2"]


# (2), (3) A step after a dash is read in its own clause; "$20+" masked as "<money>+"
# is a lower bound.
GROCERY = item(
    "grocery_delivery",
    "Choose a delivery slot at checkout. Orders must total no less than $20 for delivery.",
    ["Choose a delivery slot at checkout.", "Orders must total no less than $20 for delivery."],
    ("no less than $20",),
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Choose a delivery slot at checkout - delivery is for $20+ orders.", False),
        ("Choose a delivery slot at checkout - delivery is for orders under $20.", True),
    ],
)
def test_a_masked_amount_with_a_plus_is_a_lower_bound(answer: str, caught: bool) -> None:
    assert wrong(GROCERY, answer) is caught, statuses(GROCERY, answer)


# Read on the tenth set after its clean run (invented cases: car park, t-shirt printing,
# laundrette, kitchen fitter, bakery, appliance repair, marquee hire, bike repair, rail
# delay; the printing and rail cases mirror forms read on the tenth and eighth sets).
#
# (4) A sentence that states one part of a two-part step clearly is compared with that
# part: "- 6 pm to 8 am: parking fees still apply" lost the part's negation, which the
# whole step, with a second negated part, hid by parity.
CAR_PARK = item(
    "car_park",
    "Parking fees are not charged between 6 pm and 8 am, and they cannot be refunded "
    "because you left early.",
    [
        "Parking fees are not charged between 6 pm and 8 am, and they cannot be refunded "
        "because you left early."
    ],
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("- 6 pm to 8 am: parking fees still apply", True),
        ("Overnight, between 6 pm and 8 am, we still charge parking fees.", True),
        ("- 6 pm to 8 am: no parking fees", False),
        ("Overnight, between 6 pm and 8 am, there are no parking fees.", False),
    ],
)
def test_a_sentence_that_states_one_part_of_a_step(answer: str, caught: bool) -> None:
    assert wrong(CAR_PARK, answer) is caught, statuses(CAR_PARK, answer)


# ... not a sentence that states the other part too, in other words.
MISPRINT = item(
    "misprint",
    "Upload at least 3 photos of the fault, and keep every misprinted shirt until the "
    "claim is decided.",
    [
        "Upload at least 3 photos of the fault, and keep every misprinted shirt until the "
        "claim is decided."
    ],
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        (
            "Upload three photos of the fault, and please feel free to throw out any of the "
            "misprinted shirts before we reach a decision.",
            True,
        ),
        (
            "Upload three photos of the fault, and please don't throw out any of the "
            "misprinted shirts until we reach a decision.",
            False,
        ),
    ],
)
def test_a_sentence_that_states_both_parts_in_other_words(answer: str, caught: bool) -> None:
    assert wrong(MISPRINT, answer) is caught, statuses(MISPRINT, answer)


# (5) "Refrain from", "avoid", "hold off" + the step's verb = "do not" + the verb;
# (6) "don't throw out" = "keep"; (7) "included" = "at no extra charge".
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Please do not use the washing machine until the engineer has checked it.",
            "Please refrain from using the washing machine until the engineer has checked it.",
            False,
        ),
        (
            "Please do not use the washing machine until the engineer has checked it.",
            "Please hold off using the washing machine until the engineer has checked it.",
            False,
        ),
        (
            "Please do not use the washing machine until the engineer has checked it.",
            "Please avoid using the washing machine until the engineer has checked it.",
            False,
        ),
        (
            "Please do not use the washing machine until the engineer has checked it.",
            "Please carry on using the washing machine until the engineer has checked it.",
            True,
        ),
        # The avoided verb comes right after ("from", "on" aside), in its own clause.
        ("Do not use the lift.", "Avoid the stairs, use the lift.", True),
        ("Do not start a new session.", "Avoid waiting; start a new session.", True),
        (
            "Keep the old worktop until the claim is settled.",
            "Don't throw out the old worktop until the claim is settled.",
            False,
        ),
        (
            "Keep the old worktop until the claim is settled.",
            "Feel free to throw out the old worktop before the claim is settled.",
            True,
        ),
        (
            "Delivery is included for cake orders over £50.",
            "Cake orders over £50 are delivered at no extra charge.",
            False,
        ),
        # ... not against a text that says "including" itself.
        (
            "Repairs under warranty are free of charge, including parts and labour.",
            "As it's under warranty, you won't pay anything: parts and labour are included.",
            False,
        ),
    ],
)
def test_negations_said_another_way_on_the_tenth_set(step: str, answer: str, flip: bool) -> None:
    assert bool(polarity_flip(step, answer)) is flip


# (8) "In excess of" is "more than"; (9) a unit written short is the unit ("2.5 m" for a
# declared "2.5 metres").
MARQUEE = item(
    "marquee_hire",
    "Marquees wider than 2.5 metres need a site visit, and bags above 23 kg cost £30 to carry.",
    ["Marquees wider than 2.5 metres need a site visit, and bags above 23 kg cost £30 to carry."],
    ("2.5 metres",),
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Marquees over 2.5 m wide need a site visit; bags in excess of 23 kg cost £30.", False),
        ("Marquees over 2.5 m wide need a site visit; bags in excess of 23 kg are free.", True),
    ],
)
def test_units_written_short_and_in_excess_of(answer: str, caught: bool) -> None:
    assert wrong(MARQUEE, answer) is caught, statuses(MARQUEE, answer)


# (10) A step's span replaced in its own sentence is a change even when the answer
# states the old span in a sentence about another step.
BIKE_REPAIR = item(
    "bike_repair",
    "Report a fault within 14 days of collection using the repair form. Faults reported "
    "more than 14 days after collection are not covered.",
    [
        "Report a fault within 14 days of collection using the repair form.",
        "Faults reported more than 14 days after collection are not covered.",
    ],
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        (
            "Report a fault within 48 hours of collection using the repair form. Faults "
            "reported more than 14 days after collection are not covered.",
            True,
        ),
        (
            "Use the repair form to tell us about a fault within two weeks of collecting "
            "the bike. We can't cover faults reported more than fourteen days after "
            "collection.",
            False,
        ),
        (
            "Use the repair form within 14 days of collection (that's two weeks). Faults "
            "reported after those 14 days aren't covered.",
            False,
        ),
    ],
)
def test_a_span_replaced_in_its_own_sentence(answer: str, caught: bool) -> None:
    assert wrong(BIKE_REPAIR, answer) is caught, statuses(BIKE_REPAIR, answer)


def test_a_span_added_beside_another_part_is_no_replacement() -> None:
    ref = item(
        "shop_returns",
        "Return items within 30 days for a refund, and refunds are issued within 5 days.",
        ["Return items within 30 days for a refund, and refunds are issued within 5 days."],
    )
    answer = (
        "Return items within 30 days for a refund; we inspect returns within 24 hours. "
        "Refunds are issued within 5 days."
    )
    assert not wrong(ref, answer), statuses(ref, answer)
    changed = "Return items within 30 days for a refund, and refunds are issued within 9 days."
    assert wrong(ref, changed), statuses(ref, changed)


# ... not where the step holds an instance value of that kind: the new span may be this
# instance's ("Delay claim - 42 min late" for "your delay of {delay} minutes").
DELAY = item_with_params(
    "train_delay",
    "Claim Delay Repay when a train arrives 15 minutes or more late: your delay of 38 "
    "minutes qualifies. Delays under 15 minutes are not compensated.",
    {"delay": {"type": "integer", "value": "38", "label": "delay in minutes"}},
)


def test_an_instance_span_is_no_replaced_step_span() -> None:
    answer = (
        "Delay claim - season ticket, 42 min late: that qualifies. Delays under 15 "
        "minutes are not compensated, and you can claim from 15 minutes late."
    )
    assert not wrong(DELAY, answer), statuses(DELAY, answer)
    # (The step's own span changed is still caught where the answer states it nowhere;
    # beside "under 15 minutes" in another sentence it is a known gap of this guard.)
    changed = (
        "Claim Delay Repay when a train arrives 30 minutes or more late: your delay of 38 "
        "minutes qualifies."
    )
    assert wrong(DELAY, changed), statuses(DELAY, changed)
