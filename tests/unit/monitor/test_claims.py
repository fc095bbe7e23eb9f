from __future__ import annotations

from monitor.claims import extract_candidates, label_variants
from monitor.schemas import GoldenItem
from tests.conftest import CASE_ITEM


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
