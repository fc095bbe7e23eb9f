"""Failure classes read on the held-out sets 1 to 8 before the ninth set's clean run
(issue 19), on hand-written cases from invented domains (ferry, pottery class, climbing
wall, bike workshop, car wash, orchard, laundrette, piano hire, sailing club, ski hire,
art supplies; none is a bench seed): paraphrases that must pass, real changes that
must be caught.

(1) Negation written without a negator: "fail to" ("should the glaze fail to set"),
"off limits", a "no-" compound ("no-shows" / "don't show up"); "only ... once" for "not
... until"; "no." for "number" before "and". (2) A permission said as "lets you".
(3) An antonym's negation that the same text also states affirmatively ("don't throw
it away: keep it"), and an order said from the other end ("collect after you pay" /
"pay before you collect"). (4) A list under a heading that says its polarity ("What
we don't cover: ..."). (5) Bounds: a denied comparative is the bound ("no larger than
40 cm" = "max 40 cm"), and a bound turned the other way on the same number is a change
("no more than 15 kg" -> "at least 15 kg"). (6) Declared terms said again in other
words: an ordinal in digits ("1st"), a price cut as "off", a contraction ("acct"),
"complimentary" for "free", a plural glued to a number ("under-12s").

Read on the ninth set after its clean run (cases (7) to (9), still invented domains):
(7) an exemplar slot prefix said again before a clause ("paid with {method}." / "...
the card you paid with within 5 working days") is no value of the field; (8) more
negations said another way: a negative verb ("miss 3 sessions" / "fail to attend
three"), "0% interest" / "no interest", "if not, ..." against "otherwise", "w/o",
"nothing's", "excludes" / "does not cover", "X only" after a denial and a permission;
(9) a part of a step stated in another sentence with its negation ("No booking fee
applies. However, ..."), a quantity written another way ("older than fifteen years",
"8 till 12", "once per 12 months", "six-monthly", "no later than 9 am") or changed in
another sentence ("subject to 90 days' notice").
"""

from __future__ import annotations

import pytest

from monitor.schemas import GoldenItem
from monitor.text.polarity import polarity_flip
from tests.conftest import item_with_params
from tests.unit.monitor.test_claim_cues import fields_of
from tests.unit.monitor.test_failure_classes import item, statuses, wrong


# (1)-(4) Polarity read right.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "If the glaze does not set, we refire the piece for free.",
            "Should the glaze fail to set, we refire the piece for free.",
            False,
        ),
        (
            "If the glaze does not set, we refire the piece for free.",
            "If the glaze sets, we refire the piece for free.",
            True,
        ),
        (
            "Children under 8 cannot use the climbing wall.",
            "The climbing wall is off limits for children under 8.",
            False,
        ),
        (
            "Children under 8 cannot use the climbing wall.",
            "Children under 8 can use the climbing wall.",
            True,
        ),
        (
            "No-shows are charged the full class fee.",
            "If you don't show up, you pay the full class fee.",
            False,
        ),
        (
            "A hire is not confirmed until you pay the deposit.",
            "A hire only counts as confirmed once you have paid the deposit.",
            False,
        ),
        (
            "Quote your locker number and the date of your visit.",
            "Give your locker no. and the date of your visit.",
            False,
        ),
        # ... but a "no." that ends the text is a no.
        ("Lockers are refundable.", "Are lockers refundable? Unfortunately no.", True),
        # (2) "Lets you" grants what "can" grants; "we'll let you know" grants nothing.
        (
            "The season pass lets you bring a guest twice a month.",
            "With the season pass you can bring a guest twice a month.",
            False,
        ),
        (
            "The season pass lets you bring a guest twice a month.",
            "With the season pass you must bring a guest twice a month.",
            True,
        ),
        (
            "The season pass does not let you bring a guest.",
            "The season pass lets you bring a guest.",
            True,
        ),
        # (3) An antonym said twice over in one text; an order from the other end.
        (
            "Keep the receipt and bring it to the counter.",
            "Please don't throw the receipt away: keep it and bring it to the counter.",
            False,
        ),
        ("Keep the receipt for the warranty.", "Don't keep the receipt for the warranty.", True),
        (
            "Boats must be included in the booking.",
            "Boats must not be excluded from the booking.",
            False,
        ),
        (
            "Collect the piano after you pay the balance.",
            "Pay the balance before you collect the piano.",
            False,
        ),
        (
            "Collect the piano after you pay the balance.",
            "Collect the piano before you pay the balance.",
            True,
        ),
        (
            "If you renew after the membership has lapsed, you pay the joining fee again.",
            "If you renew before the membership has lapsed, you pay the joining fee again.",
            True,
        ),
    ],
)
def test_polarity_without_a_negator_and_from_the_other_end(
    step: str, answer: str, flip: bool
) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


WASH = item(
    "car_wash_damage",
    "Scratches, dents and damage to loose trim are not covered by the wash guarantee. "
    "Report any other damage before you leave the site.",
    [
        "Scratches, dents and damage to loose trim are not covered by the wash guarantee.",
        "Report any other damage before you leave the site.",
    ],
)


# (4) A heading over a list says its polarity for every item.
@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        (
            "What the wash guarantee doesn't cover: scratches, dents, and damage to loose "
            "trim. Report any other damage before you leave the site.",
            False,
        ),
        (
            "- Excluded: scratches, dents, damage to loose trim.\n"
            "- Report any other damage before you leave the site.",
            False,
        ),
        (
            "Covered by the wash guarantee: scratches, dents, and damage to loose trim. "
            "Report any other damage before you leave the site.",
            True,
        ),
    ],
)
def test_a_heading_over_a_list_says_its_polarity(answer: str, caught: bool) -> None:
    assert wrong(WASH, answer) is caught


SKI = item(
    "ski_bag",
    "Ski bags must weigh no more than 15 kg. Boot bags must be no larger than 40 cm.",
    ["Ski bags must weigh no more than 15 kg.", "Boot bags must be no larger than 40 cm."],
)


# (5) Bounds.
@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("Ski bags: max 15 kg. Boot bags: max 40 cm.", False),
        ("Ski bags must weigh up to 15 kg, and boot bags must be at most 40 cm.", False),
        ("Ski bags must weigh at least 15 kg. Boot bags must be no larger than 40 cm.", True),
        ("Ski bags must weigh no more than 15 kg. Boot bags must be larger than 40 cm.", True),
        ("Ski bags must weigh 15 kg or more. Boot bags must be no larger than 40 cm.", True),
    ],
)
def test_a_bound_turned_the_other_way_is_a_change(answer: str, caught: bool) -> None:
    assert wrong(SKI, answer) is caught


def _one(step: str, term: str) -> GoldenItem:
    return item("t", step, [step], (term,))


ORCHARD = _one(
    "Pickers pay the first $30 of the basket price and the rest is refunded.", "first $30"
)
SAILING = _one("Members who renew early get a 10% discount on the season fee.", "10% discount")
BIKE = _one("If we miss the repair date, you get a $15 account credit.", "$15 account credit")
LAUNDRY = _one("Loyalty card holders get a free dryer cycle with every wash.", "free dryer cycle")
ART = _one("Paint sets are half price for under-12s and over-65s.", "under-12s and over-65s")
# A declared bound that its step denies ("cannot be longer than") is a maximum.
HIRE = _one("A single hire cannot be longer than 8 weeks.", "longer than 8 weeks")


# (6) A declared term said again in other words, and swapped for real.
@pytest.mark.parametrize(
    ("ref", "answer", "caught"),
    [
        (ORCHARD, "Pickers pay the 1st $30 of the basket price; the rest is refunded.", False),
        (SAILING, "Renew early as a member and you get 10% off the season fee.", False),
        (SAILING, "Renew early as a member and you pay a 10% surcharge on the season fee.", True),
        (BIKE, "Missed repair date = $15 acct credit for you.", False),
        (BIKE, "Missed repair date = $15 gift credit for you.", True),
        (LAUNDRY, "Loyalty card holders get a complimentary dryer cycle with every wash.", False),
        (LAUNDRY, "Loyalty card holders get a discounted dryer cycle with every wash.", True),
        (ART, "Paint sets are half price if you are under 12 or over 65.", False),
        (ART, "Paint sets are half price if you are over 12 or over 65.", True),
        (HIRE, "Each hire: max 8 weeks.", False),
        (HIRE, "Each hire must last at least 8 weeks.", True),
    ],
)
def test_a_declared_term_said_again_is_kept(ref: GoldenItem, answer: str, caught: bool) -> None:
    assert wrong(ref, answer) is caught, statuses(ref, answer)


FERRY_REFUND = item_with_params(
    "ferry_refund",
    "Ticket 8841 was paid with Mastercard. Refunds go back to the card you paid with within "
    "5 working days.",
    {
        "ticket": {"type": "digits", "value": "8841", "label": "ticket"},
        "method": {
            "type": "enum",
            "value": "Mastercard",
            "values": ["Visa", "Mastercard", "PayPal"],
            "label": "payment method",
        },
    },
)


# (7) The exemplar's slot prefix said again before a clause ("paid with {method}." /
# "... the card you paid with within 5 working days") finds no value there; the slot
# itself still does.
@pytest.mark.parametrize(
    ("answer", "found"),
    [
        (
            "Ticket 9120 was paid with Visa. Refunds go back to the card you paid with within "
            "5 working days.",
            ["Visa"],
        ),
        ("Ticket 9120 was paid with PayPal.", ["PayPal"]),
        ("Refunds go back to the card you paid with within 5 working days.", None),
    ],
)
def test_a_slot_prefix_before_a_clause_finds_no_value(answer: str, found: list[str] | None) -> None:
    assert fields_of(answer, FERRY_REFUND, {"method": "Visa"}).get("method") == found


# (8) More negations without a negator, or said as the other case.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Climbers who miss 3 sessions in a row lose their slot.",
            "Climbers who fail to attend three consecutive sessions lose their slot.",
            False,
        ),
        (
            "You can spread the kiln fee over 6 months at 0% interest.",
            "You can split the kiln fee into six monthly payments with no interest at all.",
            False,
        ),
        (
            "A mechanic calls within 2 hours if the bike cannot be ridden, or within 2 days "
            "otherwise.",
            "If the bike cannot be ridden a mechanic calls within 2 hours; if not, within 2 days.",
            False,
        ),
        (
            "Damage from racing or riding without a helmet is not covered.",
            "Not covered: racing damage, riding w/o a helmet.",
            False,
        ),
        (
            "The hire is not confirmed until you receive the email.",
            "Watch for the email, since nothing's confirmed until it arrives.",
            False,
        ),
        (
            "The warranty does not cover scratches from everyday use.",
            "The warranty excludes scratches from everyday use.",
            False,
        ),
        (
            "The warranty does not cover scratches from everyday use.",
            "The warranty covers scratches from everyday use.",
            True,
        ),
        (
            "Gift cards are not refundable in cash, although they can be swapped for credit.",
            "- Gift cards: no cash refund, store credit only",
            False,
        ),
        (
            "You can collect the kayak from the jetty.",
            "You must collect the kayak from the jetty.",
            True,
        ),
        # A "can" on the verb whose negation was lost is that change, not a modal flip
        # that cancels it.
        (
            "A 20% deposit must be paid before the first lesson, and lessons do not start "
            "until it has cleared.",
            "Deposit 20%, paid before lesson 1; lessons can start before it clears.",
            True,
        ),
        # One negation over two coordinated words; a negative verb that only names
        # something its own text negates.
        (
            "No-shows are not refunded or credited.",
            "If you just don't show up, there's no refund and no credit.",
            False,
        ),
        (
            "Missed lessons are not refunded.",
            "Lessons that are missed are not eligible for a refund.",
            False,
        ),
        ("Missed lessons are not refunded.", "Missed lessons are refunded in full.", True),
        # Two negations of one clause are no coordination: a double negation is a flip.
        (
            "After that day no lessons can be booked.",
            "After that day no lessons cannot be booked.",
            True,
        ),
        # Controls: a negated verb that is itself the negative verb, and a real loss.
        ("You cannot skip the safety talk.", "You can skip the safety talk.", True),
        (
            "Climbers who miss 3 sessions in a row lose their slot.",
            "Climbers who attend three consecutive sessions lose their slot.",
            False,
        ),
    ],
)
def test_negation_said_another_way(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


SAUNA = item(
    "sauna_pass",
    "There is no booking fee, but if you cancel within 24 hours the session is charged. "
    "Show your pass at the door.",
    [
        "There is no booking fee, but if you cancel within 24 hours the session is charged.",
        "Show your pass at the door.",
    ],
)
PRINTS = item(
    "photo_prints",
    "Reprints are free, and we can waive the rush fee only once in any 12 months. "
    "Collect prints at the counter.",
    [
        "Reprints are free, and we can waive the rush fee only once in any 12 months.",
        "Collect prints at the counter.",
    ],
)
STUDIO = item(
    "studio_cancel",
    "Sessions cancelled by the studio, for example because of a power cut, are always "
    "rebooked or refunded in full. Book online.",
    [
        "Sessions cancelled by the studio, for example because of a power cut, are always "
        "rebooked or refunded in full."
    ],
)
REPAIR = item(
    "repair_guarantee",
    "If the fault is in our work, the return visit, labour and replacement parts are free. "
    "Call us to book.",
    ["If the fault is in our work, the return visit, labour and replacement parts are free."],
)
SHOP_FEE = item(
    "repair_fee",
    "The fee is not covered by your membership, and we can waive it only once a year.",
    ["The fee is not covered by your membership, and we can waive it only once a year."],
)
ROWING = item(
    "rowing_hire",
    "Boats more than 15 years old are not hired out. Hire slots run 8 am to 12 pm or 12 pm to "
    "4 pm. Report a damaged oar before 9 am the next day.",
    [
        "Boats more than 15 years old are not hired out.",
        "Hire slots run 8 am to 12 pm or 12 pm to 4 pm.",
        "Report a damaged oar before 9 am the next day.",
    ],
    ("before 9 am",),
)
STORAGE = item(
    "storage_cancel",
    "To end your storage plan, use the app or call us, giving 30 days' notice. "
    "Empty the unit before the last day.",
    [
        "To end your storage plan, use the app or call us, giving 30 days' notice.",
        "Empty the unit before the last day.",
    ],
)


# (9) A part stated in another sentence; quantities written another way or moved there.
@pytest.mark.parametrize(
    ("ref", "answer", "caught"),
    [
        (
            SAUNA,
            "No booking fee applies. However, if you cancel within 24 hours the session is "
            "charged. Show your pass at the door.",
            False,
        ),
        (
            SAUNA,
            "A booking fee applies. However, if you cancel within 24 hours the session is "
            "charged. Show your pass at the door.",
            True,
        ),
        (
            PRINTS,
            "- Reprints: free; rush fee waived max once per 12 months.\n- Collect at the counter.",
            False,
        ),
        # "For example because of" / "for instance due to" is no policy swap; "free"
        # lost in a part still is ("labour and parts are free" / "parts are charged").
        (
            STUDIO,
            "Sessions cancelled by the studio, for instance due to a power cut, are always "
            "rebooked or refunded in full. Book online.",
            False,
        ),
        (
            REPAIR,
            "If the fault is in our work, the return visit, labour is free but replacement "
            "parts are charged. Call us to book.",
            True,
        ),
        # A part's lost "waive" said another way is no second lost negation.
        (
            SHOP_FEE,
            "Sadly your membership does cover the fee, and we can only let it go once a year.",
            True,
        ),
        # ("let it go" is "waive" where the text talks of a fee: test_failure_classes_25)
        (
            SHOP_FEE,
            "Sadly your membership doesn't cover the fee, and we can only let it go once a year.",
            False,
        ),
        (
            ROWING,
            "Boats older than fifteen years aren't hired out. Slots: 8 till 12 or 12 till 4. "
            "Report a damaged oar no later than 9 am the next day.",
            False,
        ),
        (
            ROWING,
            "Boats older than ten years aren't hired out. Slots: 8 till 12 or 12 till 4. "
            "Report a damaged oar no later than 9 am the next day.",
            True,
        ),
        (
            STORAGE,
            "Storage plans can be ended subject to 30 days' notice. To do it, use the app or "
            "call us. Empty the unit before the last day.",
            False,
        ),
        (
            STORAGE,
            "Storage plans can be ended subject to 90 days' notice. To do it, use the app or "
            "call us. Empty the unit before the last day.",
            True,
        ),
        # An amount elsewhere (the plan's own price) is no moved quantity; a period
        # written "six-monthly" is the 6 months.
        (
            STORAGE,
            "Your plan costs £41.20 a month. To end it, use the app or call us, giving 30 "
            "days' notice. Empty the unit before the last day.",
            False,
        ),
        (
            _one("Book again within 30 days to stay on the 6-month reminder list.", "6-month"),
            "Book again within thirty days, or you drop off our six-monthly reminder list.",
            False,
        ),
    ],
)
def test_parts_and_quantities_stated_another_way(
    ref: GoldenItem, answer: str, caught: bool
) -> None:
    assert wrong(ref, answer) is caught, statuses(ref, answer)
