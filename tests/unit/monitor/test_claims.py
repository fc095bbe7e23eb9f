from __future__ import annotations

from monitor.claims import extract_candidates, label_variants
from monitor.schemas import GoldenItem
from tests.conftest import CASE_ITEM, item_with_params


def _claims(
    answer: str, observed: dict[str, str], item: GoldenItem | None = CASE_ITEM
) -> list[tuple[str | None, str, str]]:
    return [(c.field, c.value, c.cue) for c in extract_candidates(answer, item, observed)]


def test_value_followed_by_punctuation() -> None:
    got = _claims("Your case (491541446), is Escalated.", {"caseNumber": "491541446"})
    assert ("caseNumber", "491541446", "context_value") in got
    assert ("status", "Escalated", "vocabulary") in got


def test_several_values_in_one_sentence() -> None:
    item = GoldenItem.model_validate(
        {
            "id": "wo",
            "intent": "wo",
            "agent": "workorder",
            "question": "Parts on work order 7098765432?",
            "answer": "Work order 7098765432 includes part number KX9T2, and the part status is "
            "Shipped.",
            "parameters": {
                "workOrderNumber": {
                    "value": "7098765432",
                    "type": "digits",
                    "label": "work order number",
                },
                "partNumber": {"value": "KX9T2", "type": "alnum", "label": "part number"},
                "partStatus": {
                    "value": "Shipped",
                    "type": "enum",
                    "label": "part status",
                    "values": ["Ordered", "Shipped", "Delivered"],
                },
            },
        }
    )
    got = _claims(
        "Work order 1234567890 includes part number AB12C, and the part status is Delivered.",
        {"workOrderNumber": "1234567890"},
        item,
    )
    fields = {f: v for f, v, _ in got}
    assert fields == {
        "workOrderNumber": "1234567890",
        "partNumber": "AB12C",
        "partStatus": "Delivered",
    }


def test_procedure_numbers_are_not_claims() -> None:
    item = GoldenItem.model_validate(
        {
            "id": "refund",
            "intent": "refund",
            "agent": "case",
            "question": "Refund on case 550128764?",
            "answer": "A refund of $249.00 was issued on case 550128764. "
            "Refunds reach your account within 5 business days.",
            "parameters": {
                "caseNumber": {"value": "550128764", "type": "digits"},
                "refundAmount": {"value": "$249.00", "type": "money", "label": "refund"},
            },
        }
    )
    got = _claims(
        "A refund of $80.00 was issued on case 111222333. Refunds reach your account "
        "within 5 business days, or 7 days for wire transfers.",
        {"caseNumber": "111222333"},
        item,
    )
    values = [v for _, v, _ in got]
    assert "5" not in values and "7" not in values
    assert ("refundAmount", "$80.00") in [(f, v) for f, v, _ in got]


def test_value_inside_a_procedure_sentence() -> None:
    got = _claims(
        "Submit the form within 30 days of case 536762755 being closed.",
        {"caseNumber": "491541446"},
    )
    # "case" is the word before the case number in the exemplar (template cue).
    assert got == [("caseNumber", "536762755", "template")]


def test_status_verb_is_not_a_status_claim() -> None:
    # "Open" the verb starts the sentence; "open" lower-case is not the status either.
    got = _claims("Open a new case if needed. You can open it online.", {"status": "Closed"})
    assert got == []


def test_label_value_pairs_are_claims_about_named_fields() -> None:
    got = _claims(
        "Case 491541446 is Open. Warranty ends: 2026-08-20. Created: 28 May 2026.",
        {"caseNumber": "491541446"},
    )
    assert ("Warranty ends", "2026-08-20", "label") in got
    assert ("Created", "28 May 2026", "label") in got


def test_unicode_text_and_labels() -> None:
    got = _claims("Le dossier «491541446» est Escalated — merci !", {"caseNumber": "491541446"})
    assert ("caseNumber", "491541446", "context_value") in got


def test_unattributed_identifier_is_kept_without_field() -> None:
    got = _claims("See knowledge article 88213344 for details.", {}, None)
    assert got == [(None, "88213344", "none")]


def test_label_variants_drop_generic_tail() -> None:
    assert label_variants("work order number") == ("work order number", "work order")
    assert label_variants("service tag") == ("service tag",)


def test_free_text_template_value() -> None:
    item = GoldenItem.model_validate(
        {
            "id": "prio",
            "intent": "p",
            "agent": "case",
            "question": "Who owns case 318220457?",
            "answer": "Case 318220457 has priority P2 and is assigned to Maria Lopez.",
            "parameters": {
                "caseNumber": {"value": "318220457", "type": "digits"},
                "owner": {"value": "Maria Lopez", "type": "text", "label": "assigned to"},
            },
        }
    )
    got = _claims(
        "Case 158649208 has priority P1 and is assigned to Priya Nair.",
        {"caseNumber": "158649208", "owner": "Jonas Berg"},
        item,
    )
    assert ("owner", "Priya Nair", "template") in got


def test_label_does_not_cross_another_value_or_type() -> None:
    item = GoldenItem.model_validate(
        {
            "id": "wo",
            "intent": "wo",
            "agent": "workorder",
            "question": "Visit for 7033311240?",
            "answer": "The visit for work order 7033311240 is on 2026-05-12.",
            "parameters": {
                "workOrderNumber": {
                    "value": "7033311240",
                    "type": "digits",
                    "label": "work order number",
                },
                "visitDate": {"value": "2026-05-12", "type": "date", "label": "visit date"},
            },
        }
    )
    got = _claims(
        "Your visit for work order 7682760164 is 2026-10-24. Part AB12C is "
        "for work order 7682760164 UJR4N.",
        {"workOrderNumber": "7682760164"},
        item,
    )
    fields = {v: f for f, v, _ in got}
    assert fields["2026-10-24"] != "workOrderNumber"
    assert fields.get("UJR4N") != "workOrderNumber"


def test_procedure_number_after_a_label_is_not_a_claim() -> None:
    item = GoldenItem.model_validate(
        {
            "id": "r",
            "intent": "r",
            "agent": "case",
            "question": "Refund on 602117734?",
            "answer": "A refund of $249.00 was approved on case 602117734. You will receive the "
            "refund within 5 business days.",
            "parameters": {
                "caseNumber": {"value": "602117734", "type": "digits"},
                "amount": {"value": "$249.00", "type": "money", "label": "refund"},
            },
        }
    )
    got = _claims(
        "A refund of $741.03 was approved on case 453901056. You will receive the "
        "refund within 5 business days.",
        {"amount": "$741.03"},
        item,
    )
    assert "5" not in [v for _, v, _ in got]


def test_short_numeric_identifier_is_attributed() -> None:
    item = GoldenItem.model_validate(
        {
            "id": "card",
            "intent": "card",
            "agent": "cards",
            "question": "Card 4821 stolen?",
            "answer": "Block the card ending 4821 in the app.",
            "parameters": {"last4": {"value": "4821", "type": "digits", "label": "card ending"}},
        }
    )
    got = _claims("Block the card ending 3592 in the app.", {"last4": "7912"}, item)
    assert ("last4", "3592") in [(f, v) for f, v, _ in got]


# A date, an amount or a code that a paraphrase moved away from its label is still the
# entity's: the only field of its type, when the answer does not state the observed value.
VET = item_with_params(
    "vet_visit",
    "Visit 5521 for Bella is booked on 2026-04-02. Bring the vaccination card.",
    {
        "visit": {"value": "5521", "type": "digits", "label": "visit"},
        "visitDate": {"value": "2026-04-02", "type": "date", "label": "visit date"},
    },
)
PARCEL = item_with_params(
    "parcel_track",
    "Parcel KX72PQ9 is out for delivery. Someone must sign for it.",
    {"trackingCode": {"value": "KX72PQ9", "type": "alnum", "label": "tracking code"}},
)
UTILITY = item_with_params(
    "utility_bill",
    "The amount due on account 88120 is $212.40. Pay online or by direct debit.",
    {
        "account": {"value": "88120", "type": "digits", "label": "account"},
        "amountDue": {"value": "$212.40", "type": "money", "label": "amount due"},
    },
)


def test_a_date_amount_or_code_away_from_its_label_is_the_only_field_of_its_type() -> None:
    got = _claims(
        "Bella's check-up (visit 7700) - we'll see you on 2026-05-19; bring the vaccination card.",
        {"visit": "7700", "visitDate": "2026-06-01"},
        VET,
    )
    assert ("visitDate", "2026-05-19", "shape") in got
    got = _claims(
        "Good news: it's on the van today (QW81ZZ0) and needs a signature.",
        {"trackingCode": "KX72PQ9"},
        PARCEL,
    )
    assert ("trackingCode", "QW81ZZ0", "shape") in got
    got = _claims(
        "For 88120 you owe $250.00; pay it online or set up a direct debit.",
        {"account": "88120", "amountDue": "$212.40"},
        UTILITY,
    )
    assert ("amountDue", "$250.00", "shape") in got


def test_no_slot_when_the_observed_value_is_stated_or_the_type_is_not_unique() -> None:
    # The observed date is stated: the other date is about something else.
    got = _claims(
        "Visit 7700 is on 2026-06-01; the clinic is closed on 2026-05-19.",
        {"visit": "7700", "visitDate": "2026-06-01"},
        VET,
    )
    assert (None, "2026-05-19", "none") in got
    # Not observed: nothing to hold the value against.
    got = _claims("We'll see you on 2026-05-19.", {"visit": "7700"}, VET)
    assert (None, "2026-05-19", "none") in got
    # Two date fields: which one it is, the sentence would have to say.
    two_dates = item_with_params(
        "vet_two",
        "Visit 5521 is booked on 2026-04-02; the reminder goes out on 2026-03-30.",
        {
            "visitDate": {"value": "2026-04-02", "type": "date", "label": "visit date"},
            "reminderDate": {"value": "2026-03-30", "type": "date", "label": "reminder"},
        },
    )
    got = _claims(
        "See you 2026-05-19.", {"visitDate": "2026-06-01", "reminderDate": "2026-05-29"}, two_dates
    )
    assert (None, "2026-05-19", "none") in got


def test_a_procedure_date_amount_or_code_is_not_the_only_slot() -> None:
    # A policy date in a sentence about something else, an amount in another form of
    # the observed one, a code of another length: not the entity's.
    got = _claims(
        "Visit 7700 for Bella is confirmed. Vaccination cards issued before 2025-01-01 "
        "must be renewed.",
        {"visit": "7700", "visitDate": "2026-06-01"},
        VET,
    )
    assert (None, "2025-01-01", "none") in got
    got = _claims(
        "For 88120 the amount is 212.40 dollars; a $3 card fee applies.",
        {"account": "88120", "amountDue": "$212.40"},
        UTILITY,
    )
    assert (None, "$3", "none") in got
    got = _claims(
        "Good news: it's on the van today. Keep form C88A for your records.",
        {"trackingCode": "KX72PQ9"},
        PARCEL,
    )
    assert not any(f == "trackingCode" for f, _, _ in got)
