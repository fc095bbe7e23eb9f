"""A second stranger's golden set (issue 19), a dog daycare's: four misreadings, on
hand-written cases from invented domains (a kennel, a bike shop, a theatre, a hotel, a
dentist, a garage, a gym; none is a bench seed).

1. A date taken for a name: "booking 48213 for Rex" made "for {dogName}" a template,
   and "booking 50377 for 3 August 2026" stated the dog's name as a date.
2. "Rather than texting your handler" read as dropping "do not text your handler".
3. An instance's zero balance said as "no fees are outstanding (£0.00)" read as the
   exemplar's "has £20.00 in fees outstanding" negated.
4. A deadline's bound turned the other way, "no more than 3 days before" for "at least
   3 days before", went unseen: every bound on a span before an event was skipped,
   as "up to 24 hours before" says what "at least 24 hours before" says.
"""

from __future__ import annotations

import pytest

from monitor.schemas import GoldenItem
from monitor.steps import StepVerifier
from tests.unit.monitor.test_failure_classes import item
from tests.unit.monitor.test_failure_classes_33 import _judge


def _named(answer: str, name: str, label: str) -> GoldenItem:
    return GoldenItem.model_validate(
        {
            "id": "t",
            "intent": "t",
            "agent": "a",
            "question": "?",
            "answer": answer,
            "parameters": {
                "ref": {"value": "48213", "type": "digits", "length": 5, "label": "booking"},
                "name": {"value": name, "type": "text", "label": label},
            },
        }
    )


@pytest.mark.parametrize(
    ("ref", "answer", "context"),
    [
        # a kennel, a bike shop, a theatre
        (
            _named("Booking 48213 for Rex is confirmed.", "Rex", "dog"),
            "Booking 50377 for 3 August 2026 is confirmed.",
            {"ref": "50377", "name": "Biscuit"},
        ),
        (
            _named("Repair 48213 for Anna Berg is ready.", "Anna Berg", "customer"),
            "Repair 50377 for £45.00 is ready.",
            {"ref": "50377", "name": "Tom Hale"},
        ),
        (
            _named("Order 48213 for Stalls is paid.", "Stalls", "seating area"),
            "Order 50377 for 2026-10-02 is paid.",
            {"ref": "50377", "name": "Circle"},
        ),
    ],
)
def test_a_date_or_an_amount_is_no_name(ref: GoldenItem, answer: str, context: dict[str, str]):
    penalised, why = _judge(ref, answer, context)
    assert not penalised, why


def _status(step: str, answer: str, terms: tuple[str, ...] = ()) -> tuple[str, str]:
    [v] = StepVerifier().verify(item("t", step, [step], terms), answer, [])
    return v.status, v.cue


RATHER = [
    # a kennel, a hotel, a dentist
    (
        "If you are running late, call the front desk; do not text your handler.",
        "If you're running behind, please ring the front desk rather than texting your handler.",
        "If you are running late, text your handler rather than calling the front desk.",
    ),
    (
        "Leave the key at reception; do not post it through the door.",
        "Hand the key in at reception instead of posting it through the door.",
        "Post the key through the door instead of leaving it at reception.",
    ),
    (
        "To cancel, phone the surgery; don't email the dentist.",
        "To cancel, phone the surgery rather than emailing the dentist.",
        "To cancel, email the dentist rather than phoning the surgery.",
    ),
]


@pytest.mark.parametrize(("step", "kept", "swapped"), RATHER)
def test_rather_than_says_the_denied_option(step: str, kept: str, swapped: str) -> None:
    term = step.split("; ")[1].rstrip(".")
    assert _status(step, kept, (term,))[0] == "covered", _status(step, kept, (term,))
    assert _status(step, swapped)[0] in ("negated", "altered"), _status(step, swapped)


ZERO = [
    # a kennel's late fees, a garage's balance, a gym's arrears
    (
        "Booking 55190 for Max has £20.00 in late pick-up fees outstanding.",
        {"ref": "55190", "fees": "£0.00"},
        {"ref": "71835", "fees": "£0.00"},
        "Good news: no late pick-up fees are outstanding on booking 71835 (£0.00).",
        "Good news: no late pick-up fees are outstanding on booking 71835.",
    ),
    (
        "Job 55190 has a balance of $85.50 to pay.",
        {"ref": "55190", "fees": "$85.50"},
        {"ref": "71835", "fees": "$0.00"},
        "There is nothing to pay on job 71835: the balance is $0.00.",
        "There is nothing to pay on job 71835.",
    ),
    (
        "Membership 55190 has €30 in arrears.",
        {"ref": "55190", "fees": "€30"},
        {"ref": "71835", "fees": "€0"},
        "Membership 71835 has no arrears (€0).",
        "Membership 71835 has no arrears.",
    ),
]


@pytest.mark.parametrize(("answer", "params", "context", "said", "unsaid"), ZERO)
def test_a_zero_balance_said_as_none_is_the_instance_fact(
    answer: str, params: dict[str, str], context: dict[str, str], said: str, unsaid: str
) -> None:
    ref = GoldenItem.model_validate(
        {
            "id": "t",
            "intent": "t",
            "agent": "a",
            "question": "?",
            "answer": answer,
            "parameters": {
                "ref": {"value": params["ref"], "type": "digits", "length": 5},
                "fees": {"value": params["fees"], "type": "money", "label": "balance"},
            },
        }
    )
    penalised, why = _judge(ref, said, context)
    assert not penalised, why
    # ... not "none" where the context holds an amount owed and the answer states none.
    penalised, why = _judge(ref, unsaid, {**context, "fees": params["fees"]})
    assert penalised, why


DEADLINES = [
    # a kennel's certificates, a theatre's seat changes, a hotel's early check-in
    (
        "Upload the new certificate at least 3 days before the next visit.",
        "Please upload the new certificate 3 or more days ahead of the next visit.",
        "Upload the new certificate no more than 3 days before the next visit.",
    ),
    (
        "Seat changes must be requested at least 48 hours before the performance.",
        "Ask for a seat change no less than 48 hours before the performance.",
        "Seat changes must be requested at most 48 hours before the performance.",
    ),
    (
        "Early check-in can be booked no more than 7 days before arrival.",
        "Early check-in can be booked at most 7 days before you arrive.",
        "Early check-in can be booked at least 7 days before arrival.",
    ),
]


@pytest.mark.parametrize(("step", "kept", "turned"), DEADLINES)
def test_a_deadline_bound_said_which_way_is_compared(step: str, kept: str, turned: str) -> None:
    assert _status(step, kept)[0] == "covered", _status(step, kept)
    status, cue = _status(step, turned)
    assert status == "altered" and "bound reversed" in cue, (status, cue)


def test_up_to_before_still_reads_either_way() -> None:
    """ "Cancel free up to 24 hours before" says what "at least 24 hours before" says."""
    step = "You can cancel free of charge at least 24 hours before arrival."
    assert _status(step, "Cancel free of charge up to 24 hours before arrival.")[0] == "covered"
