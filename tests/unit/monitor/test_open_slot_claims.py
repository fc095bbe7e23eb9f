"""A value no cue ties to a field, in a sentence that states other parameters of one
reference sentence: it fills the one slot of its type that sentence leaves open
(issue 19, class "a value is a claim where the sentence ... fills the claim slot of
the exemplar sentence"). Hand-written cases from four domains."""

from __future__ import annotations

from typing import Any

import pytest

from monitor.claims import extract_candidates
from monitor.schemas import GoldenItem


def _item(answer: str, **params: dict[str, Any]) -> GoldenItem:
    return GoldenItem.model_validate(
        {
            "id": "x",
            "intent": "x",
            "agent": "x",
            "question": "What is the status?",
            "answer": answer,
            "parameters": params,
        }
    )


GYM = _item(
    "Membership GX41K7 on the Off-Peak plan has 7 guest visits left this month. "
    "Guest visits reset every 30 days.",
    memberId={"value": "GX41K7", "type": "alnum", "length": 6, "label": "membership"},
    plan={"value": "Off-Peak", "type": "enum", "values": ["Off-Peak", "Anytime"]},
    visitsLeft={"value": "7", "type": "integer", "min": 0, "max": 20, "label": "visits left"},
)
LIBRARY = _item(
    "Loan LN88231 for The Hobbit was issued on 2026-02-11 and is due back on 2026-03-11. "
    "Renew it online up to 2 times.",
    loanId={"value": "LN88231", "type": "alnum", "length": 7, "label": "loan"},
    title={"value": "The Hobbit", "type": "text", "label": "title"},
    issued={"value": "2026-02-11", "type": "date", "label": "issue date"},
    dueDate={"value": "2026-03-11", "type": "date", "label": "due date"},
)
REPAIR = _item(
    "Repair job R7Q2KM for device SN4T8W is ready to collect.",
    jobNo={"value": "R7Q2KM", "type": "alnum", "length": 6, "label": "repair job"},
    serial={"value": "SN4T8W", "type": "alnum", "length": 6, "label": "serial number"},
)
BOATS = _item(
    "Booking B2291 on 2026-07-04 is for 3 kayaks; life jackets are included.",
    bookingNo={"value": "B2291", "type": "alnum", "length": 5, "label": "booking"},
    hireDate={"value": "2026-07-04", "type": "date", "label": "hire date"},
    boats={"value": "3", "type": "integer", "min": 1, "max": 9, "label": "boats"},
)

LOYALTY = _item(
    "Card LC5521 on the Silver tier earns 4% of every purchase back as points.",
    cardNo={"value": "LC5521", "type": "alnum", "length": 6, "label": "card"},
    tier={"value": "Silver", "type": "enum", "values": ["Silver", "Gold"]},
    rate={"value": "4", "type": "integer", "min": 1, "max": 10, "label": "points rate"},
)


def _claims(item: GoldenItem, answer: str, observed: dict[str, str]) -> dict[str, str]:
    return {
        c.field: c.value
        for c in extract_candidates(answer, item, observed)
        if c.field is not None and c.field in item.parameters
    }


@pytest.mark.parametrize(
    ("item", "answer", "observed", "field", "value"),
    [
        # A count in other words: "remaining", "complimentary passes".
        (
            GYM,
            "For GX41K7 there are 4 complimentary guest passes remaining this month.",
            {"memberId": "GX41K7", "visitsLeft": "6"},
            "visitsLeft",
            "4",
        ),
        # Two dates in the reference sentence, one stated: the other is the open slot.
        (
            LIBRARY,
            "The Hobbit (loan LN88231), taken out 2026-02-11, should be returned 2026-03-04.",
            {"loanId": "LN88231", "issued": "2026-02-11", "dueDate": "2026-03-11"},
            "dueDate",
            "2026-03-04",
        ),
        # Two codes of one shape: the one not stated is the open slot.
        (
            REPAIR,
            "Your SN4T8W is fixed and waiting for you, reference K8P3ZD.",
            {"serial": "SN4T8W", "jobNo": "R7Q2KM"},
            "jobNo",
            "K8P3ZD",
        ),
        (
            BOATS,
            "On 2026-07-04 you have 5 kayaks booked under B2291.",
            {"bookingNo": "B2291", "hireDate": "2026-07-04", "boats": "3"},
            "boats",
            "5",
        ),
        # A percent slot followed by a function word after its "%": the "%" is its
        # unit, not the noun it counts.
        (
            LOYALTY,
            "Your card LC5521 gets 7% of what you spend back in points.",
            {"cardNo": "LC5521", "rate": "4"},
            "rate",
            "7%",
        ),
    ],
)
def test_the_open_slot_of_a_sentence_about_the_entity_is_a_claim(
    item: GoldenItem, answer: str, observed: dict[str, str], field: str, value: str
) -> None:
    assert _claims(item, answer, observed).get(field) == value


@pytest.mark.parametrize(
    ("item", "answer", "observed"),
    [
        # No other parameter in the sentence: nothing says it is about the entity.
        (GYM, "There are 4 guest passes remaining.", {"visitsLeft": "6"}),
        # A number with a unit of time is a policy's ("expires in 45 days"), a percent
        # or a year is no count, nor a number that counts nothing ("number 4 in the
        # queue", for a slot followed by its noun), nor one outside the declared range.
        (
            GYM,
            "Membership GX41K7 expires in 45 days.",
            {"memberId": "GX41K7", "visitsLeft": "6"},
        ),
        (GYM, "Membership GX41K7 gets 10% off.", {"memberId": "GX41K7", "visitsLeft": "6"}),
        (BOATS, "Your booking B2291 was made in 2024.", {"bookingNo": "B2291", "boats": "3"}),
        (
            BOATS,
            "Booking B2291 is number 4 in the queue.",
            {"bookingNo": "B2291", "boats": "3"},
        ),
        (
            BOATS,
            "On 2026-07-04 you have 12 kayaks booked under B2291.",
            {"bookingNo": "B2291", "boats": "3"},
        ),
        # Two loose numbers: which one fills the slot is open.
        (
            BOATS,
            "Booking B2291 on 2026-07-04: 5 canoes and 2 paddleboards.",
            {"bookingNo": "B2291", "boats": "3"},
        ),
        # Two loose codes: the same.
        (
            REPAIR,
            "Your SN4T8W is fixed; tickets K8P3ZD and M2X9QA are closed.",
            {"serial": "SN4T8W", "jobNo": "R7Q2KM"},
        ),
        # The context does not hold the field: nothing to check the value against,
        # and the number is left to the step comparison.
        (
            BOATS,
            "On 2026-07-04 you have 5 kayaks booked under B2291.",
            {"bookingNo": "B2291", "hireDate": "2026-07-04"},
        ),
        # A code of another length than the field's names something else.
        (
            REPAIR,
            "Your SN4T8W is fixed and waiting for you, reference K8P3Z.",
            {"serial": "SN4T8W", "jobNo": "R7Q2KM"},
        ),
        # A procedure number of the exemplar ("up to 2 times") is no instance fact.
        (
            LIBRARY,
            "You can renew loan LN88231 online up to 2 times.",
            {"loanId": "LN88231"},
        ),
    ],
)
def test_no_claim_without_one_open_slot(
    item: GoldenItem, answer: str, observed: dict[str, str]
) -> None:
    got = _claims(item, answer, observed)
    assert not {"visitsLeft", "boats", "dueDate", "jobNo"} & set(got)


def test_a_correct_value_in_the_open_slot_is_supported_not_a_new_claim() -> None:
    # The true count is the context's value: a context_value claim, as before.
    cands = extract_candidates(
        "For GX41K7 there are 6 complimentary guest passes remaining this month.",
        GYM,
        {"memberId": "GX41K7", "visitsLeft": "6"},
    )
    assert [(c.field, c.cue) for c in cands if c.value == "6"] == [("visitsLeft", "context_value")]


TWO_SENTENCES = _item(
    "Order 5521 ships on 2026-04-02. Order 5521 was paid on 2026-03-30.",
    orderNo={"value": "5521", "type": "digits", "length": 4, "label": "order"},
    shipDate={"value": "2026-04-02", "type": "date", "label": "ship date"},
    paidDate={"value": "2026-03-30", "type": "date", "label": "payment date"},
)


def test_two_reference_sentences_that_leave_different_slots_open_decide_nothing() -> None:
    # "Order 5521 ... 2026-04-09" fits the ship date by one reference sentence and the
    # payment date by the other: which one is open is not known.
    got = _claims(
        TWO_SENTENCES,
        "Order 5521: 2026-04-09.",
        {"orderNo": "5521", "shipDate": "2026-04-02", "paidDate": "2026-03-30"},
    )
    assert not {"shipDate", "paidDate"} & set(got)
