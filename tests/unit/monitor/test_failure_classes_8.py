"""Failure classes read on the held-out sets 1 to 10 before the eleventh set's clean run
(issue 19), on hand-written cases from invented domains (bike hire, gym, boat hire,
laundry, piano lessons, skip hire, tool library, bakery, car park, dog grooming; none is
a bench seed): real changes that must be caught, paraphrases that must pass.

(1) A sentence that states two steps, each in its own clause with its own negation:
another step's negation must neither flip this step ("we won't fix it for free, and we
can't take late claims"); that this step's lost negation is hidden by it ("..., and we
can take late claims") is a known gap (reading such sentences clause by clause was
tried and taken back: it penalised more correct paraphrases on sets 2, 3, 9 and 10 than
it mended). (2) A negated passive is what a verb that means "not do" says on its subject
("the reminder was not read" / "you missed the reminder"). (3) A comparison word said in
other words ("anything above 3 bags" / "any excess") is the quantity rule's, never a
swapped policy noun.

Read on the eleventh set after its clean run: (4) "impossible to" says "cannot", and
"save where", "except where", "except when", "except if" say "unless". (5) "Not
possible" (allowed, permitted) after what it denies ("early release while the inspection
is pending: not possible") in the answer bears on a step that states those words. (6) A template
slot the answer leaves empty holds no value: "inspected the marquee after collection"
for "inspected the {size} marquee after collection" states no size.
"""

from __future__ import annotations

import pytest

from monitor.text.polarity import polarity_flip
from tests.conftest import item_with_params
from tests.unit.monitor.test_failure_classes import item, statuses
from tests.unit.monitor.test_failure_classes_2 import judge

BIKES = item(
    "bike_damage",
    "Report damage within 7 days. Bikes returned with a flat tyre because of misuse are not "
    "repaired for free. Claims made more than 7 days after the hire cannot be accepted.",
    [
        "Report damage within 7 days.",
        "Bikes returned with a flat tyre because of misuse are not repaired for free.",
        "Claims made more than 7 days after the hire cannot be accepted.",
    ],
)
GYM = item(
    "gym_freeze",
    "Freeze your membership in the app. Frozen months are not charged. Lockers cannot be "
    "kept while the membership is frozen.",
    [
        "Freeze your membership in the app.",
        "Frozen months are not charged.",
        "Lockers cannot be kept while the membership is frozen.",
    ],
)
BOATS = item(
    "boat_weather",
    "Check the weather notice on the morning of the hire. Trips cancelled by the harbour "
    "master are not charged. Life jackets must not be taken off the boat.",
    [
        "Check the weather notice on the morning of the hire.",
        "Trips cancelled by the harbour master are not charged.",
        "Life jackets must not be taken off the boat.",
    ],
)


# (1) Two steps in one sentence, each with its own negation.
@pytest.mark.parametrize(
    ("ref", "answer", "expected"),
    [
        (
            BIKES,
            "Let us know about damage within 7 days. Bear in mind: a flat tyre from misuse "
            "isn't repaired for free, and we can't accept claims made more than 7 days "
            "after the hire.",
            {0: "covered", 1: "covered", 2: "covered"},
        ),
        (
            BIKES,
            "Let us know about damage within 7 days. A couple of things to keep in mind: if "
            "the tyre went flat because of misuse, we won't repair it for free, and we "
            "aren't able to accept claims made more than 7 days after the hire.",
            {0: "covered", 1: "covered", 2: "covered"},
        ),
        (
            BIKES,
            "Let us know about damage within 7 days. Bear in mind: a flat tyre from misuse "
            "isn't repaired for free, and we can accept claims made more than 7 days after "
            "the hire.",
            {0: "covered", 1: "covered", 2: "negated"},
        ),
        (
            GYM,
            "Use the app to freeze your membership. Nothing is charged for frozen months, "
            "and you can't keep your locker while the membership is frozen.",
            {0: "covered", 1: "covered", 2: "covered"},
        ),
        # (The clause the other step is matched to, which negates, is not read for this
        # step.)
        (
            GYM,
            "Use the app to freeze your membership. Nothing is charged for frozen months, "
            "and you can keep your locker while the membership is frozen.",
            {0: "covered", 1: "covered", 2: "negated"},
        ),
        (
            BOATS,
            "Look at the weather notice on the morning of the hire. If the harbour master "
            "cancels the trip, it isn't charged, and life jackets must not be taken off "
            "the boat.",
            {0: "covered", 1: "covered", 2: "covered"},
        ),
        # (Another step's negation in a clause that goes on from the clause that step
        # is matched to: "If the harbour master cancels the trip" is its segment, and
        # "it isn't charged" is its too.)
        (
            BOATS,
            "Look at the weather notice on the morning of the hire. If the harbour master "
            "cancels the trip, it isn't charged, and life jackets can be taken off the boat.",
            {0: "covered", 1: "covered", 2: "negated"},
        ),
    ],
)
def test_two_steps_in_one_sentence(ref, answer, expected):
    assert statuses(ref, answer) == expected


# (2) A negated passive against a negative verb on its subject.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Late fees are not refunded because you missed the reminder email.",
            "Late fees are not refunded on the grounds that the reminder email was not read.",
            False,
        ),
        (
            "Late fees are not refunded because you missed the reminder email.",
            "Late fees are refunded on the grounds that the reminder email was not read.",
            True,
        ),
        (
            "Lessons you skip are charged in full.",
            "Lessons that are not attended are charged in full.",
            False,
        ),
        (
            "Lessons you skip are charged in full.",
            "Lessons that are not attended are not charged.",
            True,
        ),
        (
            "If you miss the collection slot, the skip is kept for another day at no cost.",
            "If the collection slot is not used, the skip is kept for another day at no cost.",
            False,
        ),
        (
            # A passive whose subject is not what the negative verb governs.
            "If you miss the collection slot, the skip is kept for another day at no cost.",
            "If you miss the collection slot, the skip is not kept for another day at no cost.",
            True,
        ),
    ],
)
def test_negated_passive_and_negative_verb(step, answer, flip):
    assert (polarity_flip(step, answer) is not None) is flip


TOOLS = item(
    "tool_loan",
    "Borrow up to 3 tools at a time. Loans are free for 7 days, and anything over that is "
    "charged at $2 per day.",
    [
        "Borrow up to 3 tools at a time.",
        "Loans are free for 7 days, and anything over that is charged at $2 per day.",
    ],
)
BAKERY = item(
    "cake_order",
    "Order the cake 5 days ahead. Delivery is free within 10 miles, and anything over "
    "that costs $1 per mile.",
    [
        "Order the cake 5 days ahead.",
        "Delivery is free within 10 miles, and anything over that costs $1 per mile.",
    ],
)
VALETING = item(
    "car_valet",
    "Book the valet online. The valeter checks the car first, and nothing beyond the wash "
    "is done without your agreement.",
    [
        "Book the valet online.",
        "The valeter checks the car first, and nothing beyond the wash is done without your "
        "agreement.",
    ],
)
PARKING = item(
    "car_park",
    "Pay at the machine before you leave. The first 2 hours are free, and any time above "
    "that is charged at $3 per hour.",
    [
        "Pay at the machine before you leave.",
        "The first 2 hours are free, and any time above that is charged at $3 per hour.",
    ],
)


# (3) A comparison word said in other words is no swapped policy noun; a swapped noun
# beside it still is.
@pytest.mark.parametrize(
    ("ref", "answer", "step", "status"),
    [
        (
            TOOLS,
            "Borrow up to 3 tools at a time. Loans are free for 7 days, and any excess is "
            "charged at $2 per day.",
            1,
            "covered",
        ),
        (
            BAKERY,
            "Order the cake 5 days ahead. Delivery is free within 10 miles, and anything in "
            "excess of that costs $1 per mile.",
            1,
            "covered",
        ),
        (
            PARKING,
            "Pay at the machine before you leave. The first 2 hours are free, and any time "
            "exceeding that is charged at $3 per hour.",
            1,
            "covered",
        ),
        (
            PARKING,
            "Pay at the machine before you leave. The first 2 hours are free, and any time "
            "above that is charged at $3 per visit.",
            1,
            "altered",
        ),
        (
            # "Beyond" that names what else may be done is no comparison: the swap
            # that drops it is still one.
            VALETING,
            "Book the valet online. The valeter checks the car first, and further work may "
            "be done without your agreement.",
            1,
            "altered",
        ),
    ],
)
def test_comparison_word_reworded(ref, answer, step, status):
    assert statuses(ref, answer)[step] == status


# (4) "Impossible to" and "save where": a negation and an "unless" in other words.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "If the gate cannot be opened, call the site office and we will send a key.",
            "Should the gate be impossible to open, ring the site office and we will send a key.",
            False,
        ),
        (
            "If the gate cannot be opened, call the site office and we will send a key.",
            "Should the gate be possible to open, ring the site office and we will send a key.",
            True,
        ),
        (
            "The fitting fee is non-refundable unless the frame cannot be supplied.",
            "The fitting fee is non-refundable, save where the frame is unable to be supplied.",
            False,
        ),
        (
            "Lessons are not refunded unless the instructor cancels.",
            "Lessons are not refunded, except where the instructor cancels.",
            False,
        ),
        (
            "Lessons are not refunded unless the instructor cancels.",
            "Lessons are refunded, except where the instructor cancels.",
            True,
        ),
        (
            "Bins are not emptied unless they are at the kerb by 7 am.",
            "Bins are not emptied except if they are at the kerb by 7 am.",
            False,
        ),
    ],
)
def test_impossible_and_save_where(step, answer, flip):
    assert (polarity_flip(step, answer) is not None) is flip


# (5) A denied predicate after what it denies.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "We do not take cash payments, and we cannot refund the booking fee once the "
            "court is reserved.",
            "- Cash payments: accepted. Refund of the booking fee once the court is reserved: "
            "not possible.",
            True,
        ),
        (
            "We do not take cash payments, and we cannot refund the booking fee once the "
            "court is reserved.",
            "- Cash payments: not taken. Refund of the booking fee once the court is "
            "reserved: not possible.",
            False,
        ),
        (
            "Dogs cannot stay overnight, and we do not bathe dogs with skin conditions.",
            "Overnight stays for dogs: not allowed. Dogs with skin conditions: we bathe them.",
            True,
        ),
        (
            "Dogs cannot stay overnight, and we do not bathe dogs with skin conditions.",
            "Overnight stays for dogs: not allowed. Dogs with skin conditions: no bathing.",
            False,
        ),
        (
            "Pianos cannot be moved during the lesson, and lessons are not recorded.",
            "We move the piano during the lesson if needed. Recording lessons: not possible.",
            True,
        ),
        (
            # In the step's text it does not count: the answer may say the rule as what
            # happens to those who break it.
            "Parking overnight is not allowed and gets the car towed.",
            "Cars parked overnight get towed.",
            False,
        ),
    ],
)
def test_denied_predicate_after_what_it_denies(step, answer, flip):
    assert (polarity_flip(step, answer) is not None) is flip


TENT = item_with_params(
    "tent_hire",
    "The deposit on hire H81 is held until we have checked the 3-person tent after return.",
    {
        "hireRef": {"type": "alnum", "value": "H81", "label": "hire reference"},
        "tentSize": {
            "type": "enum",
            "value": "3-person",
            "values": ["2-person", "3-person", "6-person"],
            "label": "tent size",
        },
    },
)
KAYAK = item_with_params(
    "kayak_hire",
    "We keep your ID for booking K42 until we have inspected the Tandem kayak at the jetty.",
    {
        "bookingRef": {"type": "alnum", "value": "K42", "label": "booking"},
        "model": {
            "type": "enum",
            "value": "Tandem",
            "values": ["Tandem", "Solo", "Sit-on-top"],
            "label": "kayak model",
        },
    },
)
PIANO = item_with_params(
    "piano_tuning",
    "Job P77 is complete: our tuner adjusted the Upright piano on the day of the visit.",
    {
        "jobRef": {"type": "alnum", "value": "P77", "label": "job"},
        "piano": {
            "type": "enum",
            "value": "Upright",
            "values": ["Upright", "Grand", "Digital"],
            "label": "piano type",
        },
    },
)


# (6) An empty template slot states nothing; a wrong value in it is still contradicted.
@pytest.mark.parametrize(
    ("ref", "answer", "context", "penalised"),
    [
        (
            TENT,
            "Hire H81: deposit held until we've checked the tent after return.",
            {"hireRef": "H81", "tentSize": "6-person"},
            False,
        ),
        (
            TENT,
            "Hire H81: deposit held until we've checked the 2-person tent after return.",
            {"hireRef": "H81", "tentSize": "6-person"},
            True,
        ),
        (
            KAYAK,
            "Booking K42: we hold on to your ID until we have inspected the kayak at the jetty.",
            {"bookingRef": "K42", "model": "Solo"},
            False,
        ),
        (
            PIANO,
            "Job P77 done - our tuner adjusted the piano on the day of the visit.",
            {"jobRef": "P77", "piano": "Grand"},
            False,
        ),
        (
            PIANO,
            "Job P77 done - our tuner adjusted the Digital piano on the day of the visit.",
            {"jobRef": "P77", "piano": "Grand"},
            True,
        ),
    ],
)
def test_an_empty_template_slot_holds_no_value(ref, answer, context, penalised):
    assert judge(ref, answer, context) is penalised
