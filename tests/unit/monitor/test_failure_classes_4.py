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
from monitor.text.tokens import content, tokens
from tests.unit.monitor.test_failure_classes import item, wrong


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
