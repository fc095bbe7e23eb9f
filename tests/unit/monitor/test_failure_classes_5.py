"""Failure classes read on the held-out sets 1 to 7 before the eighth set's clean run
(issue 19), on hand-written cases from invented domains (beach club, hotel, post
office, fitness classes, restaurant bookings, school canteen, shoe repair, tennis
courts, dog walking, window cleaning, buses; none is a bench seed): paraphrases that
must pass, real changes that must be caught.

(1) A denied permission granted in other words ("not allowed" / "can be used", "are
fine"). (2) Money given back against money lost ("you lose the fee" / "the fee is
refunded"). (3) A step of two parts whose answer states one part in a sentence of its
own: that part is read there, not against the sentence of the other part. (4) Claims
(read on the eighth set after its clean run): a value after a label of its own ("Ordered
on: 2026-01-10") is not the field whose exemplar prefix is function words ("{service}
on {date}"), and a number the exemplar states as procedure that opens a range ("any
delay of 20 mins or more") is no claim.

Twelve cases fail on the judge before these changes (4602db5); the others are controls
(a paraphrase that must stay uncaught, a change that must stay caught).
"""

from __future__ import annotations

import pytest

from monitor.schemas import GoldenItem
from monitor.text.polarity import polarity_flip
from tests.conftest import item_with_params
from tests.unit.monitor.test_claim_cues import fields_of
from tests.unit.monitor.test_failure_classes import item, wrong


# (1) A denied permission against a text that grants it without the same verb.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Glass bottles are not allowed on the beach.",
            "Glass bottles can be brought onto the beach.",
            True,
        ),
        ("Pets are not permitted in the rooms.", "Pets are fine in the rooms.", True),
        (
            "Cheques are not accepted at the counter.",
            "Cheques are welcome at the counter.",
            True,
        ),
        (
            "Cheques are not accepted at the counter.",
            "We also take cheques at the counter.",
            True,
        ),
        # Controls: the grant is the denying text's own, or the answer denies too.
        (
            "Glass bottles are not allowed on the beach, but you can bring plastic ones.",
            "Bring plastic bottles if you like.",
            False,
        ),
        (
            "Pets are not permitted in the rooms.",
            "No pets in the rooms; you can leave them at the kennel.",
            False,
        ),
        (
            "Cheques are not accepted at the counter.",
            "Pay at the counter by card or cash only.",
            False,
        ),
        # A "can" or "may" that grants something else, to someone else.
        ("Cash is not accepted on the ferry.", "On the ferry you may pay by card or phone.", False),
        ("Cash is not accepted on the ferry.", "On the ferry we take cards only.", False),
        (
            "Dogs are not allowed in the laundrette.",
            "Dogs wait outside the laundrette where you can tie them to the rail.",
            False,
        ),
    ],
)
def test_a_denied_permission_granted_in_other_words_is_a_flip(
    step: str, answer: str, flip: bool
) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


# (2) Money the customer loses against money given back.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "If you cancel within 24 hours of the class, you lose the fee.",
            "Cancel within 24 hours of the class and the fee is refunded.",
            True,
        ),
        (
            "Deposits are forfeited for no-shows.",
            "No-shows get their deposit refunded.",
            True,
        ),
        (
            "Unused credit is forfeited at the end of the term.",
            "Unused credit is refunded at the end of the term.",
            True,
        ),
        # Controls: the same outcome in other words.
        (
            "If you cancel within 24 hours of the class, you lose the fee.",
            "Cancel within 24 hours of the class and the fee is not refunded.",
            False,
        ),
        (
            "Deposits are forfeited for no-shows.",
            "No-shows get no refund of their deposit.",
            False,
        ),
        (
            "Unused credit is forfeited at the end of the term.",
            "We keep any unused credit at the end of the term.",
            False,
        ),
        # A lost item is no lost money; a loss said as what happens otherwise is the
        # refund's condition from the other side.
        (
            "Parcels that go missing are refunded within 10 days.",
            "If a parcel is lost, we pay you back within 10 days.",
            False,
        ),
        (
            "Lost locker keys are not refunded.",
            "If you lose a locker key, you don't get the key fee back.",
            False,
        ),
        (
            "The tent deposit is refunded if the tent is returned clean.",
            "Return the tent clean or you lose the deposit.",
            False,
        ),
        (
            "The key deposit is refunded when you return the key.",
            "Return the key or the deposit is lost.",
            False,
        ),
        (
            "Lost passes are refunded once a year.",
            "If you lose your pass, we refund it once a year.",
            False,
        ),
    ],
)
def test_money_lost_against_money_refunded_is_a_flip(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


COURT = item(
    "court_booking",
    "Book the court at least 2 days ahead, and no booking is taken on the day. Pay at reception.",
    ["Book the court at least 2 days ahead, and no booking is taken on the day."],
)
SHOE_REPAIR = item(
    "shoe_damage",
    "If we damage your shoes, we pay up to 5 times the repair price, capped at $150. "
    "Claims must be made within 30 days.",
    ["If we damage your shoes, we pay up to 5 times the repair price, capped at $150."],
    ("capped at $150",),
)
DOG_WALK = item(
    "dog_walk_injury",
    "If your dog is hurt on a walk, the walker calls a vet straight away, and you get a "
    "written report. Walks are 45 minutes long.",
    [
        "If your dog is hurt on a walk, the walker calls a vet straight away, and you get "
        "a written report."
    ],
    ("calls a vet straight away",),
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            COURT,
            "Please book the court at least 2 days ahead. Pay at reception. We take no "
            "bookings on the day itself.",
        ),
        (
            SHOE_REPAIR,
            "- Damage on our side: we pay up to 5x the repair price\n- Claims: within 30 days"
            "\n- Payout limit: $150 per pair",
        ),
        (
            SHOE_REPAIR,
            "Should we damage your shoes, we'll pay out up to five times what the repair "
            "cost. Claims must reach us within 30 days. We cap that payout at $150.",
        ),
    ],
)
def test_a_part_stated_in_a_sentence_of_its_own_is_read_there(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        # The part stated in a sentence of its own, and negated there.
        (
            COURT,
            "Please book the court at least 2 days ahead. Pay at reception. We take "
            "bookings on the day itself too.",
        ),
        # A declared term replaced with the whole of its clause: no other sentence
        # states that part.
        (
            SHOE_REPAIR,
            "- Damage on our side: we pay up to 5x the repair price\n- Claims: within 30 days"
            "\n- Payout: store credit only",
        ),
        (
            DOG_WALK,
            "If your dog is hurt on a walk, the walker waits a day to see how it goes, "
            "and you get a written report. Walks are 45 minutes long.",
        ),
        # A part that no other sentence states, negated in this one.
        (
            COURT,
            "Please book the court at least 2 days ahead; bookings are taken on the day "
            "too. Pay at reception.",
        ),
    ],
)
def test_a_part_changed_where_it_is_stated_is_caught(ref: GoldenItem, answer: str) -> None:
    assert wrong(ref, answer)


# (4) Claims: a label of its own before a value, and a procedure number opening a range.
WINDOW_CLEAN = item_with_params(
    "window_clean",
    "You can move your window clean on 2026-03-14 for free until 24 hours before it starts.",
    {
        "service": {
            "type": "enum",
            "value": "window clean",
            "values": ["window clean", "gutter clean"],
            "label": "service",
        },
        "visitDate": {"type": "date", "value": "2026-03-14", "label": "visit date"},
    },
)
BUS_DELAY = item_with_params(
    "bus_delay",
    "Pass holders get a refund when a bus is 20 minutes or more late, so your delay of 31 "
    "minutes counts.",
    {"delay": {"type": "integer", "value": "31", "label": "delay in minutes"}},
)


@pytest.mark.parametrize(
    ("ref", "answer", "observed", "field", "found"),
    [
        # "on" before the date matches "{service} on {date}", but "Ordered on:" is a
        # label of its own (an extra field, as P3 adds them).
        (
            WINDOW_CLEAN,
            "You can move your gutter clean on 2026-05-02 for free until 24 hours before it "
            "starts. Ordered on: 2026-01-10.",
            {"visitDate": "2026-05-02", "service": "gutter clean"},
            "visitDate",
            ["2026-05-02"],
        ),
        # Controls: the slot without a colon, and the field's own label, still claim.
        (
            WINDOW_CLEAN,
            "You can move your gutter clean on 2026-05-09 for free until 24 hours before it "
            "starts.",
            {"visitDate": "2026-05-02"},
            "visitDate",
            ["2026-05-09"],
        ),
        (
            WINDOW_CLEAN,
            "Visit date: 2026-05-09.",
            {"visitDate": "2026-05-02"},
            "visitDate",
            ["2026-05-09"],
        ),
        # The exemplar's threshold opening a range is the rule, not the delay.
        (
            BUS_DELAY,
            "Your 27 minute wait counts: pass holders get a refund for any delay of 20 mins or "
            "more.",
            {"delay": "27"},
            "delay",
            ["27"],
        ),
        # Controls: the template itself with a colon, and the customer's own delay
        # opening a range, are still read.
        (
            WINDOW_CLEAN,
            "Gutter clean on: 2026-05-09.",
            {"visitDate": "2026-05-02"},
            "visitDate",
            ["2026-05-09"],
        ),
        (
            BUS_DELAY,
            "Your delay of 15 minutes or more counts, so you get a refund.",
            {"delay": "12"},
            "delay",
            ["15"],
        ),
        # Control: a delay in the slot that is no range is still read.
        (
            BUS_DELAY,
            "Your delay of 29 minutes counts: pass holders get a refund for any delay of 20 "
            "mins or more.",
            {"delay": "27"},
            "delay",
            ["29"],
        ),
    ],
)
def test_a_label_of_its_own_and_a_range_threshold_are_no_claim_of_the_field(
    ref: GoldenItem, answer: str, observed: dict[str, str], field: str, found: list[str]
) -> None:
    assert fields_of(answer, ref, observed).get(field) == found
