"""The failure classes found on the third held-out set's tuning half (issue 19), on
hand-written cases from invented domains (freight depots, ski passes, lockers, hostel
kiosks, allotments, piano tuning; none is a bench seed): paraphrases that must pass,
real changes that must be caught.

Each paraphrase case fails on the judge before this change; the others are controls
(a change that must stay caught).
"""

from __future__ import annotations

import pytest

from monitor.claims import extract_candidates
from monitor.judges.base import JudgeRequest, is_penalized
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Trace
from monitor.text.polarity import polarity_flip
from tests.conftest import ACCEPTED, item_with_params
from tests.unit.monitor.test_failure_classes import item, wrong


def judge(ref: GoldenItem, answer: str, context: dict[str, str]) -> bool:
    trace = Trace(trace_id="t", question="q", answer=answer, context=context)
    return is_penalized(StructuralJudge().judge_sync(JudgeRequest(trace, ref, ACCEPTED)).scores)


# (1) "The {kind} crate ...": a parameter after a bare function word locates nothing
# unless the word after it is there too; the reference's own procedure is no value.
CRATE = item_with_params(
    "crate_shipping",
    "The standard crate at depot 4471 ships on 2026-03-01. "
    "Return the customs form in the portal within 5 days. "
    "If the driver marked the crate as damaged, we will not ship it.",
    {
        "kind": {
            "type": "enum",
            "value": "standard",
            "values": ["standard", "express", "economy"],
            "label": "crate type",
        },
        "depot": {"type": "digits", "value": "4471", "label": "depot"},
        "ships": {"type": "date", "value": "2026-03-01", "label": "ship date"},
    },
)
CRATE_ANSWER = (
    "The {kind} crate at depot 9921 ships on 2026-05-14. "
    "Return the customs form in the portal within 5 days. "
    "If the driver marked the crate as damaged, we will not ship it."
)


def test_a_function_word_before_a_parameter_locates_no_value() -> None:
    answer = CRATE_ANSWER.format(kind="express")
    cands = extract_candidates(answer, CRATE, {"kind": "express"})
    assert [c.value for c in cands if c.field == "kind"] == ["express"]
    assert not judge(CRATE, answer, {"kind": "express", "depot": "9921"})


def test_a_value_in_the_reference_slot_is_still_a_claim() -> None:
    answer = CRATE_ANSWER.format(kind="economy")
    assert judge(CRATE, answer, {"kind": "express", "depot": "9921"})
    # Out of the vocabulary, found by the words on both sides of the slot.
    cands = extract_candidates(CRATE_ANSWER.format(kind="oversize"), CRATE, {})
    assert [c.value for c in cands if c.field == "kind"] == ["oversize"]


# (2) Words after a label that names no field are procedure, not an entity value: they
# are compared with the steps.
SKI = item(
    "ski_pass",
    "Passes are collected at the ticket office. Refunds after the first run are not given.",
    ["Passes are collected at the ticket office."],
)


def test_words_after_a_free_label_are_compared_with_the_steps() -> None:
    answer = "Ski pass:\n- Pick-up: the ticket office\n- Refunds after the first run: given."
    trace = Trace(trace_id="t", question="q", answer=answer, context={})
    r = StructuralJudge().judge_sync(JudgeRequest(trace, SKI, ACCEPTED))
    assert [s.status for s in r.steps] == ["covered", "negated"]
    kept = answer.replace("given.", "not given.")
    trace = Trace(trace_id="t", question="q", answer=kept, context={})
    r = StructuralJudge().judge_sync(JudgeRequest(trace, SKI, ACCEPTED))
    assert [s.status for s in r.steps] == ["covered", "covered"]


# (3) A declared term that is a negation ("not accepted") is kept by a sentence that
# negates in its own words; turning it positive is still caught.
KIOSK = item(
    "hostel_kiosk",
    "Pay for your bed at the kiosk by card. Cash is not accepted at the kiosk.",
    ["Pay for your bed at the kiosk by card."],
    ("not accepted", "by card"),
)
ALLOTMENT = item(
    "allotment_plot",
    "Plots are inspected every spring. If the plot is not cultivated, the lease is not renewed.",
    ["Plots are inspected every spring."],
    ("not cultivated", "not renewed"),
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (KIOSK, "Pay for the bed by card at the kiosk; I'm afraid we can't take cash there."),
        (KIOSK, "You pay at the kiosk by card. The kiosk won't take cash."),
        (
            ALLOTMENT,
            "Every spring the plots get inspected, and if yours hasn't been worked, you "
            "won't get the lease again.",
        ),
    ],
)
def test_a_negated_term_in_other_words_is_kept(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (KIOSK, "Pay for the bed by card at the kiosk; cash is welcome at the kiosk too."),
        (KIOSK, "Pay for your bed at the kiosk by card. Cash is accepted at the kiosk."),
    ],
)
def test_a_negated_term_turned_positive_is_caught(ref: GoldenItem, answer: str) -> None:
    assert wrong(ref, answer)


# (4) "failed to" is a negation.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "If the locker failed to open, call the hotline.",
            "If the locker didn't open, call the hotline.",
            False,
        ),
        (
            "If the tuner fails to arrive, we refund the visit.",
            "If the tuner does not arrive, we refund the visit.",
            False,
        ),
        (
            "If the locker failed to open, call the hotline.",
            "If the locker opened, call the hotline.",
            True,
        ),
    ],
)
def test_failed_to_is_a_negation(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip
