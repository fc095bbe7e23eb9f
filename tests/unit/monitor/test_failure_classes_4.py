"""Failure classes found on the first three held-out sets after the third set's clean
run (issue 19), on hand-written cases from invented domains (campervan hire, pottery
classes, tool rental, kayak hire, boat charter, climbing walls, bike repair, gift
vouchers; none is a bench seed): paraphrases that must pass, real changes that must
be caught.

Most cases fail on the judge before these changes; the others are controls (a
paraphrase that must stay uncaught, a change that must stay caught).
"""

from __future__ import annotations

import pytest

from monitor.schemas import GoldenItem
from monitor.text.polarity import polarity_flip
from monitor.text.quantities import quantities
from monitor.text.tokens import content, tokens, words
from tests.conftest import item_with_params
from tests.unit.monitor.test_failure_classes import item, wrong
from tests.unit.monitor.test_failure_classes_2 import judge


# (1) "No" answering a yes/no question is a reply, not a negation of what follows.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Gift vouchers cannot be exchanged for cash.",
            "No: gift vouchers can't be exchanged for cash.",
            False,
        ),
        (
            "Gift vouchers cannot be exchanged for cash.",
            "No, I'm afraid gift vouchers can't be exchanged for cash.",
            False,
        ),
        (
            "Gift vouchers cannot be exchanged for cash.",
            "No, gift vouchers can be exchanged for cash.",
            True,
        ),
    ],
)
def test_a_no_that_answers_the_question_negates_nothing(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


# (2) "Must A before B" = "B cannot happen until A"; the order reversed is a change.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Your deposit must clear before the campervan can be collected.",
            "The campervan cannot be collected until your deposit has cleared.",
            False,
        ),
        (
            "The instructor has to check your harness before you can start climbing.",
            "You can't start climbing until the instructor has checked your harness.",
            False,
        ),
        (
            "Your deposit must clear before the campervan can be collected.",
            "Your deposit cannot clear until the campervan has been collected.",
            True,
        ),
    ],
)
def test_must_before_is_cannot_until(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


# (3) "Make sure ..." is an obligation: a "can" inside it grants nothing.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "The kiln room must be locked after each session.",
            "Make sure the kiln room is locked after each session so the next group can get in.",
            False,
        ),
        (
            "Every climber must sign the waiver at the desk.",
            "Please ensure every climber signs the waiver at the desk, where they can "
            "also hire shoes.",
            False,
        ),
        (
            "The kiln room must be locked after each session.",
            "The kiln room can be left open after each session.",
            True,
        ),
    ],
)
def test_make_sure_is_an_obligation(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


# (4) "Beyond repair" is "cannot be repaired".
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "The frame was assessed as beyond repair, so the bike will be replaced.",
            "The frame can't be repaired, so the bike will be replaced.",
            False,
        ),
        (
            "The frame was assessed as beyond economical repair, so the bike will be replaced.",
            "It isn't economical to repair the frame, so the bike will be replaced.",
            False,
        ),
        (
            "The frame was assessed as beyond repair, so the bike will be replaced.",
            "The frame can be repaired, so we will fix the bike.",
            True,
        ),
    ],
)
def test_beyond_repair_is_a_negation(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


# (5) A pronoun with its verb contracted is a function word, never a policy word.
def test_a_contracted_pronoun_is_a_function_word() -> None:
    assert content(tokens("It'll land on your card; you're charged; we've checked.")) == [
        "land",
        "card",
        "charged",
        "checked",
    ]


# (6) Declared terms said in other words: "the card you paid with" for "original
# payment method", "without paying" for "free of charge", "after" for "once".
TOOLS = item(
    "tool_rental",
    "Return the drill by 6 pm. Deposits are returned to the original payment method within 5 days.",
    ["Deposits are returned to the original payment method within 5 days."],
    ("original payment method",),
)
POTTERY = item(
    "pottery_class",
    "You can swap your class free of charge up to 24 hours before it starts.",
    ["You can swap your class free of charge up to 24 hours before it starts."],
    ("free of charge",),
)
CHARTER = item(
    "boat_charter",
    "Keys are handed over once the deposit has cleared. Life jackets are on board.",
    ["Keys are handed over once the deposit has cleared."],
    ("once the deposit has cleared",),
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            TOOLS,
            "Bring the drill back by 6 pm. The deposit goes back on the card you paid with "
            "within five days.",
        ),
        (
            TOOLS,
            "Return the drill by 6 pm; your deposit will be refunded to the card or account "
            "you used to pay within 5 days.",
        ),
        (
            POTTERY,
            "You can swap your class without paying anything as long as you tell us 24 hours "
            "before it starts.",
        ),
        (
            CHARTER,
            "You'll get the keys after the deposit has gone through. Life jackets are on board.",
        ),
    ],
)
def test_a_declared_term_in_common_other_words_is_kept(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (TOOLS, "Return the drill by 6 pm. Deposits are returned as store credit within 5 days."),
        (POTTERY, "You can swap your class for a £5 fee up to 24 hours before it starts."),
        (CHARTER, "Keys are handed over before any deposit is taken. Life jackets are on board."),
    ],
)
def test_a_declared_term_replaced_is_still_caught(ref: GoldenItem, answer: str) -> None:
    assert wrong(ref, answer)


# (7) A step of two parts read from the clause of one: the other part's quantity in a
# sibling clause that shares no word with the step is compared too.
KAYAK = item(
    "kayak_hire",
    "Paddlers must be 16 or older, and each kayak may be taken out twice a day.",
    ["Paddlers must be 16 or older, and each kayak may be taken out twice a day."],
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("They have to be 12 or over, and each kayak can only go out twice a day.", True),
        ("They have to be 16 or over, and each kayak can only go out twice a day.", False),
    ],
)
def test_a_quantity_in_a_sibling_clause_is_compared(answer: str, caught: bool) -> None:
    assert wrong(KAYAK, answer) is caught


# ---------------------------------------------------------------------------
# Found on the fourth held-out set's tuning half (marina, venue hire, removals), again
# on invented domains (surveys, catering, lockers, wine tastings, fuel, conservatories).


# (8) Fractions: "a quarter full" and "1/4" are a quarter, not three months or two
# numbers; a date keeps its slashes.
@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("with the fuel tank no more than a quarter full", {"pct:25"}),
        ("fuel max 1/4 tank", {"pct:25"}),
        ("3/4 of the deposit", {"pct:75"}),
        ("every quarter", {"every:month:3"}),
    ],
)
def test_fractions_are_read_as_fractions(text: str, want: set[str]) -> None:
    assert set(quantities(text)) == want


def test_a_date_with_slashes_is_no_fraction() -> None:
    assert not any(q.startswith("pct:") for q in quantities("due on 1/4/2026"))


# (9) "Wait for A before B" = "no B until A" (or "before A").
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Wait for the surveyor to sign off the report before booking any repairs.",
            "No repairs can be booked until the surveyor has signed off the report.",
            False,
        ),
        (
            "Wait for the surveyor to sign off the report before booking any repairs.",
            "No repairs before the surveyor signs off the report.",
            False,
        ),
        (
            "Wait for the surveyor to sign off the report before booking any repairs.",
            "The surveyor cannot sign off the report until repairs are booked.",
            True,
        ),
    ],
)
def test_wait_before_is_no_until(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


# (10) "X unless you pay" = "X only, or pay": the restriction with its alternative.
def test_unless_against_only_or() -> None:
    step = "Catering must come from our approved list unless you pay a corkage fee."
    assert polarity_flip(step, "Catering: approved list only, or pay the corkage fee.") is None


# (11) Words of one class keep a declared term: "returnable" for "refundable", "each"
# for "per head".
LOCKER = item(
    "locker_rental",
    "The £20 key deposit is non-refundable. Lockers are emptied every Friday.",
    ["The £20 key deposit is non-refundable."],
    ("non-refundable",),
)
TASTING = item(
    "wine_tasting",
    "Each additional guest is charged at £15 per head.",
    ["Each additional guest is charged at £15 per head."],
    ("£15 per head",),
)


@pytest.mark.parametrize(
    ("ref", "answer", "caught"),
    [
        (LOCKER, "The £20 key deposit is not returnable. Lockers are emptied every Friday.", False),
        (LOCKER, "The £20 key deposit is refundable. Lockers are emptied every Friday.", True),
        (TASTING, "Extra guests are charged £15 each.", False),
        (TASTING, "Each additional guest is charged at £25 each.", True),
    ],
)
def test_a_declared_term_in_a_word_of_its_class(ref: GoldenItem, answer: str, caught: bool) -> None:
    assert wrong(ref, answer) is caught


# (12) A number the exemplar states as procedure is no claim when only function words
# ("... is £65") tie it to a slot.
CONSERVATORY = item_with_params(
    "conservatory_fitting",
    "The remaining balance on booking 4471 is £500.00, due by 2026-03-01. "
    "Extra fitting hours are billed at £65 per hour.",
    {
        "booking": {"type": "digits", "value": "4471", "label": "booking"},
        "balance": {"type": "money", "value": "£500.00", "label": "balance due"},
        "due": {"type": "date", "value": "2026-03-01", "label": "due date"},
    },
)
CONSERVATORY_CONTEXT = {"booking": "9921", "balance": "£820.00", "due": "2026-05-14"}


@pytest.mark.parametrize(
    ("answer", "penalised"),
    [
        (
            "The balance left on booking 9921 is £820.00, due by 2026-05-14. If fitting "
            "runs over, the extra is £65 an hour.",
            False,
        ),
        (
            "The remaining balance on booking 9921 is £700.00, due by 2026-05-14. "
            "Extra fitting hours are billed at £65 per hour.",
            True,
        ),
    ],
)
def test_a_procedure_number_after_function_words_is_no_claim(answer: str, penalised: bool) -> None:
    assert judge(CONSERVATORY, answer, CONSERVATORY_CONTEXT) is penalised


# (13) A declared term that is a verb around a quantity ("reduced by 50%") is kept when
# the sentence states the quantity in other words; another amount is still a change.
TOLL = item(
    "bridge_toll",
    "If you pay within 7 days, the toll is reduced by 50%.",
    ["If you pay within 7 days, the toll is reduced by 50%."],
    ("reduced by 50%",),
)


@pytest.mark.parametrize(
    ("answer", "caught"),
    [
        ("- Discount: 50% off if paid within 7 days", False),
        ("Paying within seven days gets you a fifty per cent discount on the toll.", False),
        ("If you pay within 7 days, the toll is reduced by 20%.", True),
    ],
)
def test_a_verb_around_a_stated_quantity_is_reworded_freely(answer: str, caught: bool) -> None:
    assert wrong(TOLL, answer) is caught


# (14) "It is essential that ..." is an obligation.
def test_essential_is_an_obligation() -> None:
    step = "An adult must be at home from 8am to let the fitters in."
    assert (
        polarity_flip(
            step, "It is essential that an adult is at home from 8am so the fitters can get in."
        )
        is None
    )
    assert (
        polarity_flip(step, "An adult can be at home from 8am to let the fitters in.") is not None
    )


# (15) Review controls: what the rules above must not hide or invent.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        # An unrelated "only on / from" does not cancel a "no ... before".
        (
            "No fee applies if you cancel before noon.",
            "A fee applies if you cancel before noon; you can cancel only from the app.",
            True,
        ),
        # "Must A before B" against a denial of A itself stays a negation.
        (
            "You must show your ID before boarding.",
            "Boarding is quick: you do not need to show your ID before you get on.",
            True,
        ),
        (
            "You must show your ID before boarding.",
            "For boarding, no ID check happens before you get on the plane.",
            True,
        ),
        # Another modal grants something else ("we may move you").
        (
            "You cannot choose your seat.",
            "Your seat is assigned at check-in, and we may move you if the flight is full.",
            False,
        ),
        ("You cannot choose your seat.", "You may choose your seat at check-in.", True),
        # What we undertake ("we ensure") obliges the reader to nothing.
        (
            "Refunds can be processed within 5 days.",
            "We ensure refunds are processed within 5 days.",
            False,
        ),
        # An "unless" that qualifies a negation is not the "only ..., or" form.
        (
            "You cannot park here unless you have a permit.",
            "Park here only with a permit or a visitor pass.",
            False,
        ),
    ],
)
def test_review_controls_for_the_new_polarity_rules(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


@pytest.mark.parametrize(
    ("text", "fraction"),
    [
        ("delivery takes 2/3 days", False),
        ("children 5/6 years old", False),
        ("rated 4/5", False),
        ("1/2 price tickets", True),
    ],
)
def test_a_slash_is_a_fraction_only_before_what_it_divides(text: str, fraction: bool) -> None:
    assert any(q.startswith("pct:") for q in quantities(text)) is fraction


REFUND = item(
    "refund_card",
    "Refunds go back to the original payment method within 5 days.",
    ["Refunds go back to the original payment method within 5 days."],
    ("original payment method",),
)
PARCELS = item(
    "parcel_return",
    "Unclaimed parcels are returned to the sender after 14 days.",
    ["Unclaimed parcels are returned to the sender after 14 days."],
)


@pytest.mark.parametrize(
    ("ref", "answer", "caught"),
    [
        (REFUND, "Refunds go to a gift card within 5 days, not the card you paid with.", True),
        (REFUND, "Refunds go back to the card you paid with within 5 days.", False),
        (PARCELS, "Unclaimed parcels are refunded to the sender after 14 days.", True),
        (TOLL, "Students pay 50% extra on the toll if they pay within 7 days.", True),
    ],
)
def test_review_controls_for_the_new_term_rules(ref: GoldenItem, answer: str, caught: bool) -> None:
    assert wrong(ref, answer) is caught


# (16) A typographic apostrophe is an apostrophe, in labels and claims too.
def test_a_typographic_apostrophe_is_read_as_an_apostrophe() -> None:
    assert words("It’ll be refunded; Biscuit’s jab") == [
        "it'll",
        "be",
        "refunded",
        "biscuit's",
        "jab",
    ]
