"""A part of a step whose negation is lost where the polarity rules cannot ground it
(issue 19, class 4), on hand-written cases from invented domains (a parcel depot, a
courtesy car, a dance school, a shop's car park, a key-cutting kiosk; none is a bench seed).

- One negation of several lost in a part, the others kept: "without one of them we
  cannot release the parcel" -> "we can hand over the package without one or the
  other" (the part has two negations, its clause one; read by parity, both are even
  or odd together only by chance).
- A part's one denied verb ("not", "n't", "never", "cannot") lost where the answer
  says the verb in other words, so that no scope word grounds the negation: "it
  cannot be used for towing a trailer" -> "it is suitable for towing a trailer", in
  the step's own sentence or in a sentence of its own ("messages to your teacher are
  not accepted as a booking" -> "A message to your teacher counts as a booking").
  Read only on positive evidence: the answer grants ("counts as", "is fine for",
  "may", "valid", "eligible") and has no negation, restriction or exclusion of its
  own, no antonym of the step's word ("rejected") and no word of the step with a
  negative prefix ("uncollected"); a rewording that says the "not" its own way
  ("must not tow", "is against the hire terms", "ignored", "counts as misuse"), a
  sanction, duty or cost ("may be removed", "may have to pay") or a word of
  permission before a noun ("the fine print") grants nothing. Nor where another sentence says the
  part's "not".
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.polarity import negation_count
from tests.unit.monitor.test_failure_classes import item

PARCEL = item(
    "parcel_pickup",
    "Your parcel is waiting at the depot. Please bring the collection card or show the "
    "barcode in the app; without one of them we cannot release the parcel.",
    [
        "Your parcel is waiting at the depot.",
        "Please bring the collection card or show the barcode in the app; without one of "
        "them we cannot release the parcel.",
    ],
)
CAR = item(
    "courtesy_car",
    "Your courtesy car is ready at the workshop, and it cannot be used for towing a "
    "trailer. Return it with a full tank.",
    [
        "Your courtesy car is ready at the workshop, and it cannot be used for towing a trailer.",
        "Return it with a full tank.",
    ],
)
DANCE = item(
    "dance_booking",
    "Book classes in the app at least a day ahead, and messages to your teacher are not "
    "accepted as a booking. Bring a water bottle.",
    [
        "Book classes in the app at least a day ahead, and messages to your teacher are "
        "not accepted as a booking.",
        "Bring a water bottle.",
    ],
)
PARK = item(
    "shop_parking",
    "The car park is free for customers, and cars cannot be left in the bays overnight. "
    "Show your receipt.",
    [
        "The car park is free for customers, and cars cannot be left in the bays overnight.",
        "Show your receipt.",
    ],
)
KEYS = item(
    "key_cutting",
    "Keys are cut while you wait, and keys not collected within 30 days are recycled. "
    "Pay at the till.",
    [
        "Keys are cut while you wait, and keys not collected within 30 days are recycled.",
        "Pay at the till.",
    ],
)

PARCEL_START = (
    "Your parcel is at the depot now. Just bring the collection card along or pull up the "
    "barcode in the app"
)
CAR_START = "Return it with a full tank. Your courtesy car is ready at the workshop, "
DANCE_START = "Book classes in the app at least a day ahead. Bring a water bottle. "


@pytest.mark.parametrize(
    ("ref", "answer", "expected", "cue"),
    [
        # One negation of several lost.
        (
            PARCEL,
            PARCEL_START + ", because I'm afraid we can't hand over the package without "
            "one or the other.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            PARCEL,
            PARCEL_START + ", because I'm afraid we can hand over the package without one "
            "or the other.",
            {0: "covered", 1: "negated"},
            "polarity flipped in a part (negation)",
        ),
        (
            PARCEL,
            PARCEL_START + ": without one or the other, the package stays with us.",
            {0: "covered", 1: "covered"},
            None,
        ),
        # A denied verb said in other words, in the step's sentence.
        (
            CAR,
            CAR_START + "and it is suitable for towing a trailer.",
            {0: "negated", 1: "covered"},
            "polarity flipped in a part (negation)",
        ),
        (
            CAR,
            CAR_START + "and it is fine for towing a trailer.",
            {0: "negated", 1: "covered"},
            "polarity flipped in a part (negation)",
        ),
        (
            CAR,
            CAR_START + "but it isn't suitable for towing a trailer.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            CAR,
            CAR_START + "and towing a trailer with it is forbidden.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            CAR,
            CAR_START + "and it is unsuitable for towing a trailer.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            CAR,
            CAR_START + "and it must never be used for towing a trailer.",
            {0: "covered", 1: "covered"},
            None,
        ),
        # In a sentence of its own.
        (
            DANCE,
            DANCE_START + "A message to your teacher counts as a booking.",
            {0: "negated", 1: "covered"},
            "polarity flipped in a part stated in another sentence (negation)",
        ),
        (
            DANCE,
            DANCE_START + "Messages to your teacher: valid as a booking.",
            {0: "negated", 1: "covered"},
            "polarity flipped in a part stated in another sentence (negation)",
        ),
        (
            DANCE,
            DANCE_START + "A message to your teacher doesn't count as a booking.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            DANCE,
            DANCE_START + "Messages to your teacher are rejected as a booking.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            DANCE,
            DANCE_START + "Messages to your teacher fall outside the booking rules.",
            {0: "covered", 1: "covered"},
            None,
        ),
        # The "not" said another way: nothing granted.
        (CAR, CAR_START + "and it must not tow a trailer.", {0: "covered", 1: "covered"}, None),
        (
            CAR,
            CAR_START + "and towing a trailer with it is against the hire terms.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            CAR,
            CAR_START + "and towing a trailer will damage the frame.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            CAR,
            CAR_START + "and it is restricted to carrying passengers, with no trailer.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            CAR,
            CAR_START + "and towing a trailer with it counts as misuse.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            PARK,
            "Show your receipt. The car park is free for customers; any car still in a bay "
            "overnight may be removed.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            PARK,
            "The car park is free for customers. Show your receipt. Cars may stay in the "
            "bays overnight.",
            {0: "negated", 1: "covered"},
            "polarity flipped in a part stated in another sentence (negation)",
        ),
        (
            PARK,
            "Show your receipt. The car park is free for customers, and cars in the bays "
            "overnight may have to pay a penalty fee.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            CAR,
            CAR_START + "and the fine print of the hire bans towing a trailer with it.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            CAR,
            CAR_START + "and it can still be used for towing a small trailer.",
            {0: "negated", 1: "covered"},
            None,
        ),
        (
            DANCE,
            DANCE_START + "Messages to your teacher count as a courtesy, while the app "
            "counts as a booking.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            DANCE,
            DANCE_START + "Messages to your teacher are ignored as a booking.",
            {0: "covered", 1: "covered"},
            None,
        ),
        (
            DANCE,
            DANCE_START + "Messages to your teacher reach them as a courtesy. They are not "
            "accepted as a booking, though.",
            {0: "covered", 1: "covered"},
            None,
        ),
        # "Not collected" said with a prefix.
        (
            KEYS,
            "Pay at the till. We cut keys while you wait. After 30 days, uncollected keys "
            "are recycled.",
            {0: "covered", 1: "covered"},
            None,
        ),
    ],
)
def test_a_denial_lost_where_its_verb_is_reworded(ref, answer, expected, cue):
    verdicts = {v.index: v for v in StepVerifier().verify(ref, answer, [])}
    assert {k: v.status for k, v in verdicts.items()} == expected
    if cue is not None:
        negated = next(v for v in verdicts.values() if v.status == "negated")
        assert negated.cue == cue


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("without one of them we cannot release the parcel", 2),
        ("we can hand over the package without one or the other", 1),
        ("the parcel is released on the spot", 0),
    ],
)
def test_negation_count(text, count):
    assert negation_count(text) == count
