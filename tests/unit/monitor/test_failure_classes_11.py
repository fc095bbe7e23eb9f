"""Failure classes left open by the second review of the thirteenth set's rules (issue
19), on hand-written cases from invented domains (a kayak hire, a laundry, a wine tour,
a chess club, a ski school, a library, a scaffolding hire, a car park, a club's key
return; none is a bench seed): paraphrases that must pass, real changes that must be
caught. The last two groups are what two helper reviews of the first versions found.

(1) A declared cap said as a denied comparison ("capped at £200" -> "no more than
£200", "will not exceed £200") is the same bound; "no less than £200" or "can exceed
£200" is not. (2) A price cut or rise said by another word of its direction ("a 50%
discount" -> "50% less"; "a 20% surcharge" -> "20% extra"), not the other way. (3) A
"free" read in its own clause when a cost of something else stands beside it ("life
jackets are free of charge, but the dry bag costs extra"). (4) "One" standing for the
noun of a contrast tells no option from the other ("a full refund, not a partial one").
(5) "Failing to arrive" is not arriving. (6) A sum of money "a month from January" is
a rate; "one-hundred" is a number word. (7) The "wo" / "ca" of "won't" / "can't" is no
content word.
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier, _quantity_word
from monitor.text.polarity import polarity_flip
from monitor.text.quantities import quantities
from tests.unit.monitor.test_failure_classes import item

KAYAK = item(
    "kayak_damage",
    "Damage to a hired kayak is capped at £200. Return the paddles to the hut.",
    ["Damage to a hired kayak is capped at £200.", "Return the paddles to the hut."],
    ("capped at £200",),
)
LAUNDRY = item(
    "laundry_liability",
    "Our liability for a lost item is limited to $150. Collect your order within 30 days.",
    ["Our liability for a lost item is limited to $150.", "Collect your order within 30 days."],
    ("limited to $150",),
)
WINE = item(
    "wine_members",
    "Club members get a 50% discount on tasting fees. Book the tour online.",
    ["Club members get a 50% discount on tasting fees.", "Book the tour online."],
    ("50% discount",),
)
CHESS = item(
    "chess_late",
    "Late entries carry a 20% surcharge on the tournament fee. Bring your own clock.",
    ["Late entries carry a 20% surcharge on the tournament fee.", "Bring your own clock."],
    ("20% surcharge",),
)
JACKETS = item(
    "kayak_jackets",
    "Life jackets are provided at no extra charge. Book a launch slot in the app.",
    ["Life jackets are provided at no extra charge.", "Book a launch slot in the app."],
    ("at no extra charge",),
)
IRONING = item(
    "laundry_ironing",
    "Ironing is included at no extra cost. Drop bags at the counter.",
    ["Ironing is included at no extra cost.", "Drop bags at the counter."],
    ("at no extra cost",),
)


def _verdicts(ref, answer):
    return {v.index: v.status for v in StepVerifier().verify(ref, answer, [])}


OK = {0: "covered", 1: "covered"}
FIRST = {0: "altered", 1: "covered"}


# (1) A declared cap and a denied comparison.
@pytest.mark.parametrize(
    ("ref", "answer", "expected"),
    [
        (KAYAK, "Damage to a hired kayak is no more than £200. Return the paddles to the hut.", OK),
        (KAYAK, "Damage to a hired kayak will not exceed £200. Return the paddles to the hut.", OK),
        (KAYAK, "Damage to a hired kayak won't exceed £200. Return the paddles to the hut.", OK),
        (
            KAYAK,
            "Damage to a hired kayak is no higher than two hundred pounds. Return the "
            "paddles to the hut.",
            OK,
        ),
        (
            LAUNDRY,
            "Our liability for a lost item is not more than $150. Collect it within 30 days.",
            OK,
        ),
        (
            KAYAK,
            "Damage to a hired kayak is no less than £200. Return the paddles to the hut.",
            FIRST,
        ),
        (KAYAK, "Damage to a hired kayak can exceed £200. Return the paddles to the hut.", FIRST),
        (KAYAK, "Damage to a hired kayak is at least £200. Return the paddles to the hut.", FIRST),
        pytest.param(
            LAUNDRY,
            "Our liability for a lost item is no lower than $150. Collect it within 30 days.",
            FIRST,
            marks=pytest.mark.xfail(
                reason="a bound on money turned the other way: the quantity rule reads no "
                "bound on an amount of money, and a sentence-wide read of bound words "
                "penalised 63 correct paraphrases on sets 1 to 6",
                strict=True,
            ),
        ),
        (
            KAYAK,
            "Damage to a hired kayak is not capped at £200. Return the paddles to the hut.",
            {0: "negated", 1: "covered"},
        ),
    ],
)
def test_a_cap_said_as_a_denied_comparison(ref, answer, expected):
    assert _verdicts(ref, answer) == expected


# (2) A price change by another word of its direction.
@pytest.mark.parametrize(
    ("ref", "answer", "expected"),
    [
        (WINE, "Club members pay 50% less on tasting fees. Book the tour online.", OK),
        (WINE, "Club members pay 50% more on tasting fees. Book the tour online.", FIRST),
        (CHESS, "Late entries pay 20% extra on the tournament fee. Bring your own clock.", OK),
        (CHESS, "Late entries pay 20% more on the tournament fee. Bring your own clock.", OK),
        (CHESS, "Late entries pay 20% less on the tournament fee. Bring your own clock.", FIRST),
    ],
)
def test_a_price_change_said_another_way(ref, answer, expected):
    assert _verdicts(ref, answer) == expected


# (3) "Free" in its own clause.
@pytest.mark.parametrize(
    ("ref", "answer", "expected"),
    [
        (
            JACKETS,
            "Life jackets are free of charge, but the dry bag costs extra. Book a launch slot "
            "in the app.",
            OK,
        ),
        (
            IRONING,
            "Ironing is included free of charge, whereas stain removal is charged at $4 an "
            "item. Drop bags at the counter.",
            OK,
        ),
        (
            JACKETS,
            "Life jackets cost extra, but the dry bag is free of charge. Book a launch slot in "
            "the app.",
            {0: "negated", 1: "covered"},
        ),
        (
            IRONING,
            "Ironing is included but charged at $4 an item, while folding is free. Drop bags "
            "at the counter.",
            {0: "negated", 1: "covered"},
        ),
    ],
)
def test_free_read_in_its_own_clause(ref, answer, expected):
    assert _verdicts(ref, answer) == expected


# (4) and (5): polarity.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "You get a full refund, not a partial one.",
            "You get a partial refund rather than a full one.",
            True,
        ),
        (
            "You get a full refund, not a partial one.",
            "You get a full refund rather than a partial one.",
            False,
        ),
        (
            "Reserve a window table, not a terrace one.",
            "Reserve a terrace table instead of a window one.",
            True,
        ),
        (
            "Reserve a window table, not a terrace one.",
            "Reserve a window table instead of a terrace one.",
            False,
        ),
        (
            "If you do not arrive by 9 am, it counts as a no-show.",
            "Failing to arrive by 9 am counts as a no-show.",
            False,
        ),
        (
            "If you don't return the club key by noon, a $20 fee applies.",
            "Failing to return the club key by noon means a $20 fee.",
            False,
        ),
        (
            "If you return the club key by noon, no fee applies.",
            "Failing to return the club key by noon means no fee applies.",
            True,
        ),
    ],
)
def test_contrast_and_failing_to(step, answer, flip):
    assert (polarity_flip(step, answer) is not None) is flip


# (6) Rates and number words.
@pytest.mark.parametrize(
    ("text", "reading", "present"),
    [
        ("parking is £40 a month from January", "every:month:1", True),
        ("a late fee of $15 a day late", "every:min:1440", True),
        ("parking is £40 a month from next month", "every:month:1", True),
        ("overdue books are fined £2 a day from the due date", "every:min:1440", True),
        ("a season ticket is €90 a month in advance", "every:month:1", True),
        ("pay the £200 a month ahead of your course", "every:month:1", False),
        ("the fee is £40 a week later", "every:min:10080", False),
        ("come back <value> a day early", "every:min:1440", False),
    ],
)
def test_a_sum_of_money_a_period_is_a_rate(text, reading, present):
    assert (reading in quantities(text)) is present


@pytest.mark.parametrize(
    ("word", "number"),
    [("one-hundred", True), ("twenty-five", True), ("two-factor", False), ("one-way", False)],
)
def test_hyphened_number_words(word, number):
    assert _quantity_word(word) is number


def test_the_auxiliary_of_a_contraction_is_no_content_word():
    from monitor.text.tokens import content, policy_terms, tokens

    assert content(tokens("We can't refund it and won't hold it.")) == ["refund", "hold"]
    assert policy_terms(tokens("you shan't be charged")) == policy_terms(
        tokens("you shall not be charged")
    )


# The review of the first version of (1) to (6): what it hid or penalised.
HELMETS = item(
    "ski_helmets",
    "Helmets are provided at no extra charge. Book lessons at the desk.",
    ["Helmets are provided at no extra charge.", "Book lessons at the desk."],
    ("at no extra charge",),
)
LOANS = item(
    "library_loans",
    "Interlibrary loans are available at no extra cost. Request them at the front desk.",
    ["Interlibrary loans are available at no extra cost.", "Request them at the front desk."],
    ("at no extra cost",),
)
EXCESS = item(
    "scaffold_excess",
    "The damage excess is capped at £300. Sign the hire form on delivery.",
    ["The damage excess is capped at £300.", "Sign the hire form on delivery."],
    ("capped at £300",),
)
LATE_HIRE = item(
    "scaffold_late",
    "Late bookings carry a 20% surcharge. Sign the hire form on delivery.",
    ["Late bookings carry a 20% surcharge.", "Sign the hire form on delivery."],
    ("20% surcharge",),
)


@pytest.mark.parametrize(
    ("ref", "answer", "penalised"),
    [
        (
            HELMETS,
            "Helmets cost £5 each, but goggles are provided free. Book lessons at the desk.",
            True,
        ),
        (
            HELMETS,
            "Helmets cost extra, however goggles are provided free. Book lessons at the desk.",
            True,
        ),
        (
            LOANS,
            "Interlibrary loans cost £2 each, but renewals of loans are free. Request them at "
            "the front desk.",
            True,
        ),
        (
            LOANS,
            "You can get interlibrary loans. Request them at the front desk; parking is free "
            "of charge.",
            True,
        ),
        (
            EXCESS,
            "The damage excess is at least £300 and won't exceed £600. Sign the hire form on "
            "delivery.",
            True,
        ),
        (
            EXCESS,
            "The damage excess is over £300, and you pay no more than one excess per booking. "
            "Sign the hire form on delivery.",
            True,
        ),
        (EXCESS, "The damage excess will not exceed £300. Sign the hire form on delivery.", False),
        (
            LATE_HIRE,
            "Late bookings carry an additional 20% charge, so book earlier for the lower price. "
            "Sign the hire form on delivery.",
            False,
        ),
        (
            LATE_HIRE,
            "Late bookings pay 20% less. Sign the hire form on delivery.",
            True,
        ),
        # A first statement and its exception, not a cost said instead.
        (
            HELMETS,
            "Helmets are provided free, although damaged helmets are charged at £30. "
            "Book lessons at the desk.",
            False,
        ),
        (
            LOANS,
            "Interlibrary loans are free, but overdue loans cost 20p a day. Request them "
            "at the front desk.",
            False,
        ),
    ],
)
def test_the_reviews_cases(ref, answer, penalised):
    verdicts = StepVerifier().verify(ref, answer, [])
    assert any(v.status != "covered" for v in verdicts) is penalised


@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        ("Park in zone 2, not zone 3.", "Park in zone 2 rather than zone 3.", False),
        ("Park in zone 2, not zone 3.", "Park in zone 3 rather than zone 2.", True),
        (
            "Park in the blue bays, not the red ones.",
            "Park in the blue bays instead of the red ones.",
            False,
        ),
        (
            "Return the new cards, not the old ones.",
            "Return the old cards rather than the new ones.",
            True,
        ),
        (
            "Book the 2-hour lesson, not the 1-hour one.",
            "Book the 2-hour lesson rather than the 1-hour one.",
            False,
        ),
        (
            "Take the 7am shuttle, not the 9am one.",
            "Take the 7am shuttle instead of the 9am one.",
            False,
        ),
    ],
)
def test_a_contrast_keeps_its_numbers(step, answer, flip):
    assert (polarity_flip(step, answer) is not None) is flip
