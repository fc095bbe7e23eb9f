"""A time of day as an entity value (the ``time`` parameter type).

Found by a stranger's trial (a music exam board, whose exam slots are "10:40"): with no
time type the slot had to be declared ``text``, a correct "2:20 pm" for an observed
14:20 was contradicted as the integer "2", and a wrong "15:40" went unseen. Times are
now read as one value, compared by meaning, and left to the quantity rule where they
are a policy's ("before 17:00"). Cases from a clinic, a garage and a ferry.
"""

from __future__ import annotations

import random

import pytest

from monitor.bench.generate import Sampler
from monitor.bench.seeds import SeedParam
from monitor.golden import item_problems
from monitor.judges.base import JudgeRequest, is_penalized
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Trace
from monitor.steps import StepVerifier
from monitor.values import (
    find_typed_values,
    mask_entities,
    normalize_time,
    same_value,
    shape_of,
)
from tests.conftest import ACCEPTED
from tests.unit.monitor.test_failure_classes import item


@pytest.mark.parametrize(
    ("text", "hhmm"),
    [
        ("14:20", "14:20"),
        ("2:20 pm", "14:20"),
        ("2:20pm", "14:20"),
        ("2.20pm", "14:20"),
        ("2 p.m.", "14:00"),
        ("9am", "09:00"),
        ("12 pm", "12:00"),
        ("12 am", "00:00"),
        ("07:05", "07:05"),
        ("13 pm", None),
        ("25:00", None),
        ("14.20", None),
        ("2:1", None),
    ],
)
def test_normalize_time(text: str, hhmm: str | None) -> None:
    assert normalize_time(text) == hhmm


def test_times_are_one_value_and_decimals_ratios_stay_numbers() -> None:
    found = [
        (f.text, f.type)
        for f in find_typed_values("Slot 9am-5pm, ratio 2:1, fee 14.20, at 3:40 pm.")
    ]
    assert found == [
        ("9am", "time"),
        ("5pm", "time"),
        ("2", "integer"),
        ("1", "integer"),
        ("14.20", "integer"),
        ("3:40 pm", "time"),
    ]
    # (The sentence's full stop is not the time's: "at 2 pm." ends on "pm".)
    assert [f.text for f in find_typed_values("Come at 2 pm.")] == ["2 pm"]
    assert shape_of("10:40") == "time" and shape_of("10.40") == "integer"


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("2:20 pm", "14:20", True),
        ("14.20", "14:20", True),  # (a dotted time, against a time)
        ("2 pm", "14:00", True),
        ("3:40 pm", "14:20", False),
        ("15:40", "14:20", False),
    ],
)
def test_times_compare_by_meaning(a: str, b: str, same: bool) -> None:
    assert same_value(a, b, "time") is same


def test_a_question_keeps_its_times() -> None:
    # (As a small number does: "after 9:00" is as often procedure as an instance.)
    assert mask_entities("Can I still come after 9:00 for booking 55190?") == (
        "Can I still come after 9:00 for booking?"
    )


def test_a_time_parameter_must_be_a_time() -> None:
    def problems(value: str) -> list[str]:
        ref = GoldenItem.model_validate(
            {
                "id": "t",
                "intent": "t",
                "agent": "a",
                "question": "?",
                "answer": f"Your slot is at {value}.",
                "parameters": {"slot": {"value": value, "type": "time", "label": "slot"}},
            }
        )
        return item_problems(ref)

    assert problems("10:40") == []
    assert problems("2:20 pm") == []
    assert any("not a time of day" in p for p in problems("soon"))


def _clinic(slot_type: str) -> GoldenItem:
    return GoldenItem.model_validate(
        {
            "id": "c",
            "intent": "c",
            "agent": "a",
            "question": "When is appointment 55190?",
            "answer": (
                "Appointment 55190 is on 2026-03-02 at 10:40. Please arrive 10 minutes early."
            ),
            "parameters": {
                "ref": {"value": "55190", "type": "digits", "length": 5, "label": "appointment"},
                "day": {"value": "2026-03-02", "type": "date", "label": "date"},
                "slot": {"value": "10:40", "type": slot_type, "label": "time"},
            },
            "steps": ["Please arrive 10 minutes early."],
        }
    )


@pytest.mark.parametrize("slot_type", ["time", "text"])
@pytest.mark.parametrize(
    ("said", "penalised"),
    [
        ("14:20", False),
        ("2:20 pm", False),
        ("2.20pm", False),
        ("14.20", False),
        ("3:40 pm", True),
        ("15:40", True),
    ],
)
def test_an_appointment_time_said_another_way(slot_type: str, said: str, penalised: bool) -> None:
    # A clinic; a ``text`` field whose value is written as a time reads the same.
    ref = _clinic(slot_type)
    answer = f"Appointment 71835 is on 2026-04-09 at {said}. Please arrive 10 minutes early."
    context = {"ref": "71835", "day": "2026-04-09", "slot": "14:20"}
    r = StructuralJudge().judge_sync(
        JudgeRequest(
            Trace(trace_id="t", question="q", answer=answer, context=context), ref, ACCEPTED
        )
    )
    assert is_penalized(r.scores) is penalised, r.rationale
    [claim] = [c for c in r.claims if c.field == "slot"]
    assert claim.value == said
    assert claim.status == ("contradicted" if penalised else "supported")


@pytest.mark.parametrize(
    ("sentence", "claimed"),
    [
        ("Our reception opens at 8:30.", False),
        ("The car park closes at 6 pm.", False),
        ("Your appointment is at 3:20 pm.", True),
    ],
)
def test_a_time_after_function_words_is_the_fields_in_a_sentence_about_it(
    sentence: str, claimed: bool
) -> None:
    # ("on {day} at {slot}": the slot's template is "* at".)
    answer = (
        f"Appointment 71835 is on 2026-04-09 at 14:20. Please arrive 10 minutes early. {sentence}"
    )
    context = {"ref": "71835", "day": "2026-04-09", "slot": "14:20"}
    r = StructuralJudge().judge_sync(
        JudgeRequest(
            Trace(trace_id="t", question="q", answer=answer, context=context),
            _clinic("time"),
            ACCEPTED,
        )
    )
    assert is_penalized(r.scores) is claimed, r.rationale


@pytest.mark.parametrize(
    ("step", "kept", "changed"),
    [
        # a garage, a ferry
        (
            "Collect your car before 17:00 on the day.",
            "Please pick the car up before 5pm on the day.",
            "Please pick the car up before 6pm on the day.",
        ),
        (
            "Check-in closes at 08:30 for the first sailing.",
            "For the first sailing, check-in shuts at 8.30am.",
            "For the first sailing, check-in shuts at 9.30am.",
        ),
    ],
)
def test_a_policy_time_is_still_the_quantity_rules(step: str, kept: str, changed: str) -> None:
    def status(answer: str) -> str:
        [v] = StepVerifier().verify(item("t", step, [step]), answer, [])
        return v.status

    assert status(kept) == "covered"
    assert status(changed) == "altered"


def test_a_seed_draws_times_on_the_quarter_hour() -> None:
    spec = SeedParam.model_validate({"type": "time", "label": "slot"})
    sampler = Sampler(random.Random(7))
    drawn = [sampler.value(spec) for _ in range(50)]
    assert all(normalize_time(v) == v for v in drawn)
    assert all("08:00" <= v < "19:00" and v[-2:] in ("00", "15", "30", "45") for v in drawn)
