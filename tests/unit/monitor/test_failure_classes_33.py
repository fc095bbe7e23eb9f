"""A golden set written by a stranger (issue 19): a parameter's value that the reference
also states as a policy's quantity, and an observed date or amount written another way.
Hand-written cases from invented domains (an allotment waiting list, a gym's lockers, a
library, a self-storage unit, a dental practice, a campsite; none is a bench seed).

Found by a stranger's trial on a marina's golden set: an application "at position 12",
whose renewal is due "every 12 months", made every answer's "every 12 months" a claim
that the position is 12, and the step "every <value> months" a step whose number was
lost. A number inside a declared policy term, or inside a declared step before a unit,
is the policy's quantity where the value stands elsewhere as the parameter. The same
trial's "runs until 30 April 2026", with the expiry date 2026-04-30 observed, was left
unattributed although the docs say values compare by meaning.
"""

from __future__ import annotations

import pytest

from monitor.claims import extract_candidates, policy_occurrences
from monitor.judges.base import JudgeRequest, is_penalized
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Trace
from tests.conftest import ACCEPTED


def _item(answer: str, params: dict[str, dict[str, object]], steps: list[str], terms: list[str]):
    return GoldenItem.model_validate(
        {
            "id": "t",
            "intent": "t",
            "agent": "a",
            "question": "?",
            "answer": answer,
            "parameters": params,
            "steps": steps,
            "policy_terms": terms,
        }
    )


ALLOTMENT = _item(
    "Application 5573021 is at position 12 on the plot waiting list. You must renew your "
    "application every 12 months or it is removed.",
    {
        "applicationId": {"value": "5573021", "type": "digits", "length": 7},
        "position": {"value": "12", "type": "integer", "label": "position"},
    },
    ["You must renew your application every 12 months or it is removed."],
    ["every 12 months"],
)
LOCKER = _item(
    "Locker 14 is yours until 2026-05-01. Lockers are cleared 14 days after expiry.",
    {
        "lockerNo": {"value": "14", "type": "integer", "label": "locker"},
        "until": {"value": "2026-05-01", "type": "date", "label": "until"},
    },
    ["Lockers are cleared 14 days after expiry."],
    [],
)
LIBRARY = _item(
    "You have 3 items on loan. Each loan lasts 3 weeks and can be renewed twice.",
    {"onLoan": {"value": "3", "type": "integer", "label": "items on loan"}},
    ["Each loan lasts 3 weeks and can be renewed twice."],
    ["3 weeks"],
)


def _judge(ref: GoldenItem, answer: str, context: dict[str, str]) -> tuple[bool, str]:
    trace = Trace(trace_id="t", question="q", answer=answer, context=context)
    r = StructuralJudge().judge_sync(JudgeRequest(trace, ref, ACCEPTED))
    return is_penalized(r.scores), r.rationale


@pytest.mark.parametrize(
    ("ref", "answer", "context"),
    [
        (
            ALLOTMENT,
            "Application 4408917 is number 27 on the waiting list. Remember to renew it "
            "every 12 months, or it will be removed.",
            {"applicationId": "4408917", "position": "27"},
        ),
        (
            LOCKER,
            "Locker 9 is yours until 2026-08-01. We clear lockers 14 days after they expire.",
            {"lockerNo": "9", "until": "2026-08-01"},
        ),
        (
            LIBRARY,
            "You have 5 items on loan. Each one can be kept for 3 weeks and renewed twice.",
            {"onLoan": "5"},
        ),
    ],
)
def test_a_policy_quantity_equal_to_the_reference_value_is_no_claim(
    ref: GoldenItem, answer: str, context: dict[str, str]
) -> None:
    penalised, why = _judge(ref, answer, context)
    assert not penalised, why


@pytest.mark.parametrize(
    ("ref", "answer", "context", "cue"),
    [
        (
            ALLOTMENT,
            "Application 4408917 is number 27 on the waiting list. Remember to renew it "
            "every 6 months, or it will be removed.",
            {"applicationId": "4408917", "position": "27"},
            "quantity changed",
        ),
        (
            ALLOTMENT,
            "Application 4408917 is at position 12 on the waiting list. Renew it every 12 "
            "months, or it will be removed.",
            {"applicationId": "4408917", "position": "27"},
            "contradicts the observed position '27'",
        ),
        (
            LOCKER,
            "Locker 9 is yours until 2026-08-01. We clear lockers 7 days after they expire.",
            {"lockerNo": "9", "until": "2026-08-01"},
            "quantity changed",
        ),
        (
            LIBRARY,
            "You have 5 items on loan. Each one can be kept for 4 weeks and renewed twice.",
            {"onLoan": "5"},
            "quantity changed",
        ),
    ],
)
def test_a_changed_policy_quantity_or_a_wrong_value_is_still_caught(
    ref: GoldenItem, answer: str, context: dict[str, str], cue: str
) -> None:
    penalised, why = _judge(ref, answer, context)
    assert penalised and cue in why, why


def test_a_value_stated_only_in_a_policy_stays_the_parameter() -> None:
    """With no other occurrence left, the value is the parameter's wherever it stands:
    nothing is read as policy."""
    ref = _item(
        "Your pitch is booked for 3 nights; the 3 nights are paid on arrival.",
        {"nights": {"value": "3", "type": "integer", "label": "nights"}},
        ["the 3 nights are paid on arrival."],
        ["3 nights"],
    )
    assert policy_occurrences(ref, "3") == frozenset()
    assert policy_occurrences(ALLOTMENT, "12") == frozenset({ALLOTMENT.answer.index("12 months")})


@pytest.mark.parametrize(
    ("answer", "context", "field"),
    [
        # a self-storage unit, a dental practice, a campsite
        ("Your unit rental runs until 30 April 2026.", {"endDate": "2026-04-30"}, "endDate"),
        ("We will see you on 2 November 2026 at 10:00.", {"visit": "2026-11-02"}, "visit"),
        ("The pitch is reserved from Sept 5, 2026.", {"arrival": "2026-09-05"}, "arrival"),
    ],
)
def test_an_observed_date_written_another_way_is_supported(
    answer: str, context: dict[str, str], field: str
) -> None:
    [c] = extract_candidates(answer, None, context)
    assert (c.field, c.cue) == (field, "context_value")


def test_a_date_no_field_holds_stays_unattributed() -> None:
    [c] = extract_candidates(
        "Your unit rental runs until 30 May 2026.", None, {"endDate": "2026-04-30"}
    )
    assert (c.field, c.cue) == (None, "none")


# The same trial's correct answers, read as changed: "the moment" for "as soon as" read
# as a term replaced. Tonnes were no unit. (Its "the hoist cannot lift boats over 12
# tonnes" for "boats over 12 tonnes cannot be lifted", read as "at most 12", is left: a
# rule that kept a bound after a plural noun unturned also kept "we don't take bookings
# shorter than two hours" from reading as "a minimum of 2 hours", a correct paraphrase
# of a read bench set.)


@pytest.mark.parametrize(
    "text",
    ["Guests cannot stay longer than 14 nights.", "Bags must not weigh over 20 kg."],
)
def test_a_denied_bound_on_a_verb_still_points_the_other_way(text: str) -> None:
    from monitor.steps import _bounds

    assert set(_bounds(text).values()) == {frozenset({"max"})}


def test_tonnes_are_a_mass() -> None:
    from monitor.text.quantities import quantities, say

    assert quantities("over 12 tonnes") == quantities("over 12,000 kg") == {"mass:12000000"}
    assert say("mass:12000000") == "12 tonnes"


@pytest.mark.parametrize(
    ("step", "kept", "changed"),
    [
        # a marina's access cards, a gym's membership, a hotel's loyalty points
        (
            "The old card stops working as soon as the new one is issued.",
            "Your old card stops working the moment the new one is issued.",
            "The old card stops working as soon as the new one is activated.",
        ),
        (
            "Your membership is paused as soon as the request is approved.",
            "Your membership is paused once the request is approved.",
            "Your membership is cancelled as soon as the request is approved.",
        ),
        (
            "Loyalty points are credited as soon as your invoice is paid.",
            "Loyalty points are credited the moment your invoice is paid.",
            "Loyalty points are credited as soon as your deposit is paid.",
        ),
    ],
)
def test_as_soon_as_said_another_way_is_no_term_replaced(
    step: str, kept: str, changed: str
) -> None:
    from monitor.steps import StepVerifier
    from tests.unit.monitor.test_failure_classes import item

    ref = item("t", step, [step])
    [ok] = StepVerifier().verify(ref, kept, [])
    [bad] = StepVerifier().verify(ref, changed, [])
    assert ok.status == "covered", ok.cue
    assert bad.status in ("altered", "negated"), bad.cue
