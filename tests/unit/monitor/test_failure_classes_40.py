"""Strangers' golden sets, a seventh round (issue 19): misreadings found by new users'
trials (a hospital's outpatient desk, an airline loyalty programme, a crowdfunding
platform, an amateur sports league), on hand-written cases from invented domains (none
is a bench seed, none is a trial's trace).

1. "Prevents you from travelling" / "stops you travelling" for "you cannot travel"
   was a flip (the denial is in the verb).
2. "Your club (not you) pays" counted the bracketed "not" as a negation of the step.
3. "Rather than X" against ", so you cannot X" was a flip.
4. "Cannot exceed 60 days" against "60 days max" / "within 60 days", and "can't turn
   out for more than one team" against "at most one team", were flips.
5. "Has 30 days to accept" filled the count slot of "has {n} members".
6. "An additional late fee of £10" filled the slot of "registration fee of {fee}".
7. "The card or account he paid with" did not name the original payment method (only
   "you", "they" and "we" paid), and a step that names it went missing.
"""

from __future__ import annotations

import pytest

from monitor.claims import extract_candidates
from tests.conftest import item_with_params
from tests.unit.monitor.test_failure_classes_35 import _check
from tests.unit.monitor.test_failure_classes_39 import _flips

# A patient-transport desk, a ski lift, a sports league, a payout desk, a campaign site.
SAID_ANOTHER_WAY = [
    (
        "Transport is available if a medical condition means you cannot travel by bus.",
        [
            "You qualify if a medical condition prevents you from travelling by bus.",
            "You qualify if your condition stops you travelling by bus.",
        ],
        ["You qualify if your condition lets you travel by bus."],
    ),
    (
        "The fine must be paid by the club within 14 days.",
        ["Your club (not you) pays the fine within 14 days."],
        ["Your club does not pay the fine within 14 days."],
    ),
    (
        "Fees are deducted from the payout, so you cannot pay them separately by card.",
        ["Fees are deducted from your payout rather than paid separately by card."],
        ["Fees are deducted from your payout and you can pay them separately by card."],
    ),
    (
        "A campaign cannot exceed 60 days, extensions included.",
        [
            "Campaigns run for 60 days max, extensions included.",
            "The campaign stays within 60 days, extensions included.",
        ],
        ["A campaign can exceed 60 days, extensions included."],
    ),
    (
        "A player may be registered with at most one team per season.",
        ["A player can't turn out for more than one team per season."],
        [],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), SAID_ANOTHER_WAY)
def test_said_another_way_is_no_flip(step: str, kept: list[str], changed: list[str]) -> None:
    _flips(step, kept, changed)


HOUSEHOLD = item_with_params(
    "household",
    "Household account 88213 has 3 members.",
    {
        "account": {"type": "digits", "value": "88213", "length": 5, "label": "account"},
        "members": {"type": "integer", "value": "3", "label": "household members"},
    },
)


def test_a_span_of_time_is_no_count_of_a_slot_without_a_unit() -> None:
    ctx = {"account": "55102", "members": "4"}
    cands = extract_candidates("Priya has 30 days to accept the invitation.", HOUSEHOLD, ctx)
    assert not [c for c in cands if c.field == "members"], cands
    cands = extract_candidates("Household account 55102 has 5 members.", HOUSEHOLD, ctx)
    assert [c.value for c in cands if c.field == "members"] == ["5"]


FEE = item_with_params(
    "fee",
    "Your registration fee of £45.00 is due by 2026-08-31.",
    {"fee": {"type": "money", "value": "£45.00", "label": "registration fee"}},
)


def test_an_added_amount_is_no_value_of_the_fee_before_it() -> None:
    cands = extract_candidates(
        "After the deadline an additional late fee of £10 applies.", FEE, {"fee": "£45.00"}
    )
    assert not [c for c in cands if c.field == "fee" and c.cue == "template"], cands
    cands = extract_candidates("The registration fee of £50.00 is due.", FEE, {"fee": "£45.00"})
    assert [c.cue for c in cands if c.field == "fee"] == ["template"]


def test_the_card_he_paid_with_is_the_original_payment_method() -> None:
    _check(
        "Refunds go to the original payment method within 5 days.",
        [
            "The money goes back to the card or account he paid with within 5 days.",
            "It goes back to the card she used to pay within 5 days.",
        ],
        [],
        ("original payment method",),
    )


# A reviewer's cases against the first versions of these rules (each was read wrongly
# by them): a hotel, a shop, a gym, a bank; a box office, a grocer; an employer, a venue,
# a landlord; a bank, a funding office, a heating panel; a council, an employer, a
# licensing office.
REVIEWED = [
    # A denied comparative against an answer that affirms the comparison: a flip.
    (
        "Stays cannot exceed 28 nights.",
        "Stays can exceed 28 nights; our standard booking is up to 28 nights.",
        "changed",
    ),
    (
        "Members cannot bring more than 2 guests.",
        "Members can bring more than 2 guests at weekends; on weekdays it's 2 guests max.",
        "changed",
    ),
    (
        "The overdraft cannot exceed £500.",
        "Your overdraft can go over £500 - the arranged limit is up to £500.",
        "changed",
    ),
    # An unfinished state made finished, a product type swapped: changes.
    ("Tickets not yet used can be exchanged.", "Tickets already used can be exchanged.", "changed"),
    (
        "Orders that have not yet shipped can be cancelled online.",
        "Orders that have already shipped can be cancelled online.",
        "changed",
    ),
    (
        "Fresh produce is refunded in full if it arrives damaged.",
        "Frozen produce is refunded in full if it arrives damaged.",
        "changed",
    ),
    # Who pays, said in brackets against the step's payer: a change.
    (
        "Your employer pays the course fee.",
        "You pay the course fee (not your employer).",
        "changed",
    ),
    (
        "Your landlord pays the repair invoice.",
        "You (not your landlord) pay the repair invoice.",
        "changed",
    ),
    # Stopping a service is no "cannot".
    (
        "We may stop your online banking if we suspect fraud.",
        "Your online banking may be suspended if we suspect fraud.",
        "kept",
    ),
    (
        "You can stop the central heating from the thermostat panel.",
        "You can switch off the central heating from the thermostat panel.",
        "kept",
    ),
    # How long a state lasted is no age limit.
    (
        "Applicants must have been resident in the borough over the past 3 years.",
        "Applicants must have lived in the borough for at least 3 years.",
        "kept",
    ),
    (
        "Drivers must have held a full licence over the past 5 years with no bans.",
        "Drivers need to have held a full licence for at least 5 years with no bans.",
        "kept",
    ),
]


@pytest.mark.parametrize(("step", "answer", "want"), REVIEWED)
def test_a_reviewers_cases(step: str, answer: str, want: str) -> None:
    if want == "kept":
        _check(step, [answer], [])
    else:
        _check(step, [], [answer])


DELIVERY = item_with_params(
    "delivery",
    "Order 48213 was delivered on 2026-03-02.",
    {
        "order": {"type": "digits", "value": "48213", "length": 5, "label": "order"},
        "deliveryDate": {"type": "date", "value": "2026-03-02", "label": "delivery date"},
    },
)


@pytest.mark.parametrize(
    "answer",
    [
        "You have 30 days from your delivery date of 9 March 2026 to return it.",
        "Return it within 30 days of the delivery date, which was 2026-03-09.",
    ],
)
def test_a_label_that_names_its_value_after_an_offset_is_still_the_fields(answer: str) -> None:
    cands = extract_candidates(answer, DELIVERY, {"order": "48213", "deliveryDate": "2026-03-02"})
    assert [c.cue for c in cands if c.field == "deliveryDate"] == ["label"], cands


def test_an_added_amount_the_reference_says_so_is_the_fields() -> None:
    ref = item_with_params(
        "instalment",
        "A further instalment of £300.00 is due on 2026-06-01.",
        {"amount": {"type": "money", "value": "£300.00", "label": "instalment"}},
    )
    cands = extract_candidates(
        "A further instalment of £350.00 is due.", ref, {"amount": "£300.00"}
    )
    assert [c.cue for c in cands if c.field == "amount"] == ["template"], cands


def test_only_a_partys_name_stands_for_the_field() -> None:
    from monitor.steps import named_fields

    answer = "Your Visa Debit order is refunded as store credit; Maersk has the container."
    observed = {"paymentMethod": "Visa Debit", "shippingLine": "Maersk"}
    assert named_fields(observed, answer) == {"shipping", "line"}
