"""Failure classes read on the held-out sets 1 to 11 before the twelfth set's second
clean run (issue 19), on hand-written cases from invented domains (a boat charter, a
pottery studio, a bicycle courier, a piano tuner, a sauna, a language exchange; none is
a bench seed): paraphrases that must pass, real changes that must be caught.

(1) A contrast that denies one of two options is one statement however it is worded:
"per session, not per hour" = "per session rather than per hour" = "instead of per
hour". (2) A "no-show" is someone who does not attend: "failure to attend", "if you
don't turn up". (3) A declared term whose quantity the sentence states in words,
rounded or shortened, with no quantity of its own the step lacks, is kept: "costs £40"
-> "is forty pounds", "a 50% discount" -> "half off", "capped at $300" -> "a maximum of
$300", "Monday to Friday" -> "Mon-Fri", "standard" -> "std". (4) A negated cost term
("at no extra charge") said as "free of charge" keeps its negation. (5) "The past year"
is a span of twelve months. (6) Quantities read as written: "10 o'clock the night
before" is 10 pm; an entity's amount "a day" is a rate, as "per day" is; a bound written
after its number ("no swimming for 2 hours minimum") is not turned by a negator before
the number.
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.polarity import polarity_flip
from monitor.text.quantities import main_readings, quantities
from tests.unit.monitor.test_failure_classes import item


# (1) "A, not B" / "A rather than B" / "A instead of B".
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Charter is charged per day, not per hour, and fuel is extra.",
            "It's a day rate rather than an hourly one, and fuel is extra.",
            False,
        ),
        (
            "Charter is charged per day, not per hour, and fuel is extra.",
            "Charter is charged per day and per hour, and fuel is extra.",
            True,
        ),
        (
            "Glaze firings are booked by the shelf, not by the piece.",
            "We book glaze firings by the shelf instead of by the piece.",
            False,
        ),
        (
            "Glaze firings are booked by the shelf, not by the piece.",
            "We book glaze firings by the piece rather than by the shelf.",
            True,
        ),
        (
            "Parcels are signed for by the recipient, not by a neighbour.",
            "The recipient signs for the parcel rather than a neighbour.",
            False,
        ),
        (
            "Parcels are signed for by the recipient, not by a neighbour.",
            "A neighbour signs for the parcel rather than the recipient.",
            True,
        ),
        (
            "The charter deposit is taken as a hold on your card rather than a charge.",
            "The charter deposit is only a hold on your card, not a charge.",
            False,
        ),
        # Two options of one noun: the word that tells them apart decides (the review
        # of the first version, which matched on the shared noun).
        (
            "You get a full refund, not a partial refund.",
            "You get a partial refund rather than a full refund.",
            True,
        ),
        (
            "Book a single cabin, not a double cabin.",
            "Book a double cabin instead of a single cabin.",
            True,
        ),
        (
            "Use the rear entrance, not the front entrance.",
            "Use the rear entrance rather than the front one.",
            False,
        ),
        (
            # Beside another negation the contrast is left to the count, which pairs
            # the two "not"s as before.
            "The charter deposit is taken as a hold on your card rather than a charge.",
            "The charter deposit is only a hold on your card, not a charge (we do not "
            "take cash deposits).",
            False,
        ),
    ],
)
def test_a_contrast_denies_the_other_option(step, answer, flip):
    assert (polarity_flip(step, answer) is not None) is flip


# (2) "No-show".
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "A no-show is charged the full tuning fee.",
            "Failure to attend is charged the full tuning fee.",
            False,
        ),
        (
            "A no-show is charged the full tuning fee.",
            "Failure to attend is not charged the full tuning fee.",
            True,
        ),
        (
            "No-shows lose their sauna credit for the day.",
            "If you don't turn up, you lose your sauna credit for the day.",
            False,
        ),
        (
            "No-shows are not charged for the language exchange.",
            "If you do not attend, you are charged for the language exchange.",
            True,
        ),
        (
            "No-shows are not charged for the language exchange.",
            "If you do not show up, you are not charged for the language exchange.",
            False,
        ),
        # Both texts say "no-show": a "not arrive" beside it is a rule of its own.
        (
            "If you do not arrive within 15 minutes, it counts as a no-show.",
            "If you arrive within 15 minutes, it counts as a no-show.",
            True,
        ),
        (
            "Do not turn the sauna off after use; no-shows lose the booking.",
            "Turn the sauna off after use; no-shows lose the booking.",
            True,
        ),
    ],
)
def test_a_no_show_is_not_attending(step, answer, flip):
    assert (polarity_flip(step, answer) is not None) is flip


TUNING = item(
    "piano_tuning",
    "A standard tuning costs £40 and takes about 90 minutes. Book online.",
    ["A standard tuning costs £40 and takes about 90 minutes.", "Book online."],
    ("costs £40",),
)
VISIT = item(
    "piano_visit",
    "Book the piano tuning online at least 48 hours before the visit. Keep the lid open.",
    ["Book the piano tuning online at least 48 hours before the visit.", "Keep the lid open."],
    ("at least 48 hours before the visit",),
)
POTTERY = item(
    "pottery_members",
    "Members get a 50% discount on firing fees. Book kiln space at the desk.",
    ["Members get a 50% discount on firing fees.", "Book kiln space at the desk."],
    ("50% discount",),
)
COURIER = item(
    "courier_claims",
    "Compensation for a lost parcel is capped at $300. Parcel collections run Monday to "
    "Friday from the depot.",
    [
        "Compensation for a lost parcel is capped at $300.",
        "Parcel collections run Monday to Friday from the depot.",
    ],
    ("capped at $300", "Monday to Friday"),
)
SAUNA = item(
    "sauna_towels",
    "Towels are provided at no extra charge. Book a slot in the app.",
    ["Towels are provided at no extra charge.", "Book a slot in the app."],
    ("at no extra charge",),
)


# (3) and (4): declared terms.
@pytest.mark.parametrize(
    ("ref", "answer", "expected"),
    [
        (
            TUNING,
            "A standard tuning is forty pounds and takes roughly an hour and a half. Book online.",
            {0: "covered", 1: "covered"},
        ),
        (TUNING, "Std tuning £40, approx 90 mins. Book online.", {0: "covered", 1: "covered"}),
        (
            # A changed amount in words is still a change.
            TUNING,
            "A standard tuning is fifty pounds and takes about 90 minutes. Book online.",
            {0: "altered", 1: "covered"},
        ),
        (
            # A unit word with no number of the term's is no way of writing it.
            VISIT,
            "Book the piano tuning online on the day of the visit. Keep the lid open.",
            {0: "altered", 1: "covered"},
        ),
        (
            VISIT,
            "Book the piano tuning online two days or more before the visit. Keep the lid open.",
            None,
        ),
        (POTTERY, "Members get half off firing fees. Book kiln space at the desk.", None),
        (
            POTTERY,
            "Members get a quarter off firing fees. Book kiln space at the desk.",
            {0: "altered", 1: "covered"},
        ),
        (
            COURIER,
            "Compensation for a lost parcel is a maximum of three hundred dollars. Parcel "
            "collections run Mon-Fri from the depot.",
            {0: "covered", 1: "covered"},
        ),
        (
            COURIER,
            "Compensation for a lost parcel is a maximum of five hundred dollars. Parcel "
            "collections run Mon-Sat from the depot.",
            {0: "altered", 1: "altered"},
        ),
        (SAUNA, "Towels are provided free of charge. Book a slot in the app.", None),
        (
            # A "free" about something else, beside a cost of the term's own.
            SAUNA,
            "Towels cost extra, but the slot booking in the app is free. Book a slot in the app.",
            {0: "negated", 1: "covered"},
        ),
        (
            # A bound the other way, or a price moved up, is no way of writing the term.
            COURIER,
            "Compensation for a lost parcel is at least $300. Parcel collections run "
            "Monday to Friday from the depot.",
            {0: "altered", 1: "covered"},
        ),
        (
            POTTERY,
            "Members pay 50% more on firing fees. Book kiln space at the desk.",
            {0: "altered", 1: "covered"},
        ),
        (
            SAUNA,
            "Towels are provided for an extra charge. Book a slot in the app.",
            {0: "negated", 1: "covered"},
        ),
    ],
)
def test_a_declared_term_written_another_way(ref, answer, expected):
    verdicts = {v.index: v.status for v in StepVerifier().verify(ref, answer, [])}
    assert verdicts == (expected or {0: "covered", 1: "covered"})


# (5) "The past year".
@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("a certificate dated in the past year", "month:12"),
        ("any claim in the past month", "month:1"),
        ("within the past 12 months", "month:12"),
    ],
)
def test_the_past_year_is_a_span(text, span):
    assert span in quantities(text)


def test_the_last_day_is_no_span():
    assert not quantities("on the last day of the course")


# (6) Quantities read as written.
@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("change it up to 10 o'clock the night before", "clock:1320"),
        ("we call at 9 o'clock that evening", "clock:1260"),
        ("the tuner arrives at 10 o'clock in the morning", "clock:600"),
        ("extra charter days are at your rate of <value> a day", "every:min:1440"),
        ("the sauna pass is <value>/month", "every:month:1"),
    ],
)
def test_a_quantity_read_as_written(text, reading):
    assert reading in quantities(text)


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("we refund <value> a week later", "min:10080"),
        ("we refund <value> a day early", "min:1440"),
        ("pay <value> a week from today", "min:10080"),
        ("at 9 o'clock evening classes start", "clock:540"),
    ],
)
def test_no_rate_or_evening_misread(text, reading):
    # (As written: a time without am or pm also has its afternoon reading, "~clock:1260"
    # of "9 o'clock", as another reading only.)
    assert main_readings(quantities(text)) == {reading}


AFTERCARE = [
    item(
        "sauna_massage",
        "After a massage, do not use the sauna for at least 2 hours. Drink plenty of water.",
        ["After a massage, do not use the sauna for at least 2 hours.", "Drink plenty of water."],
    ),
    item(
        "boat_refuel",
        "After refuelling, do not start the engine for at least 5 minutes. Log the litres.",
        ["After refuelling, do not start the engine for at least 5 minutes.", "Log the litres."],
    ),
    item(
        "pottery_glaze",
        "Once glazed, do not touch the pieces for at least 24 hours. Label your shelf.",
        ["Once glazed, do not touch the pieces for at least 24 hours.", "Label your shelf."],
    ),
]


@pytest.mark.parametrize(
    ("ref", "answer", "status"),
    [
        (
            AFTERCARE[0],
            "After a massage: no sauna for 2 hours minimum. Drink plenty of water.",
            "covered",
        ),
        (
            AFTERCARE[0],
            "After a massage: no sauna for 2 hours maximum. Drink plenty of water.",
            "altered",
        ),
        (
            AFTERCARE[1],
            "After refuelling: no starting the engine for 5 minutes min. Log the litres.",
            "covered",
        ),
        (
            AFTERCARE[1],
            "After refuelling: no starting the engine for 5 minutes max. Log the litres.",
            "altered",
        ),
        (
            AFTERCARE[2],
            "Once glazed: no touching the pieces for 24 hours minimum. Label your shelf.",
            "covered",
        ),
        (
            AFTERCARE[2],
            "Once glazed: no touching the pieces for 24 hours at most. Label your shelf.",
            "altered",
        ),
    ],
)
def test_a_bound_after_its_number(ref, answer, status):
    verdicts = {v.index: v.status for v in StepVerifier().verify(ref, answer, [])}
    assert verdicts == {0: status, 1: "covered"}
