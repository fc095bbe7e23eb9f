"""The reviewer's 157 cases (``review_cases_9``) against the judge: each must come out as
the reviewer expected, except the known gaps below (strict xfail: a gap that closes must
be taken off the list). On the judge before the ninth-set stop (dd8c766) 90 were right."""

from __future__ import annotations

from typing import Any

import pytest

from monitor.claims import extract_candidates
from monitor.schemas import GoldenItem
from monitor.steps import StepVerifier
from monitor.text.polarity import polarity_flip
from tests.unit.monitor.review_cases_9 import CASES

# What the rules do not read (see docs/bench-results.md, ninth set).
KNOWN_GAPS = {
    "r1c_noshow": "a positive turned into a 'no-' compound ('show up' -> 'no-shows')",
    "r1c_only_counts": "'only ... once' turned into 'before'",
    "r3c_attend_miss": "a verb turned into a negative verb ('attend' -> 'miss')",
    "r3c_never_miss": "'do not attend' -> 'never miss' (litotes of a negative verb)",
    "r4c_discard_keep": "an antonym said with a split phrase ('throw it away')",
    "r5c_converse_wrong": "an order swap with a third clause after it",
    "r5c_converse_third": "an order read from shared words where a third clause repeats one",
    "r6c_neg_head_other": "a heading whose negation is about something else",
    "r7c_unitless": "a bound on a number without a unit is not compared",
    "r7c_after_deadline": "a bound on a span before or after an event is not compared",
    "r9c_only_flip": "a negation flip cancelled by a modal reading of 'only'",
    "r10c_fixable": "a prefix negation dropped ('unfixable' -> 'fixable')",
    "r10c_counted": "'not counted' -> 'discounted' (a prefix that is no negation)",
    "r10c_proving": "'not proving' -> 'improving' (a prefix that is no negation)",
    "r12c_last": "an ordinal swapped ('first' -> 'last')",
    "r12c_compl_price": "'complimentary' swapped for a price",
    "r12c_before_from": "'before 8 am' -> 'from 8 am' beside another deadline",
    "r13p_other_unrelated": "a lost quantity with a new one of its kind in a related sentence",
    "r13c_twice_once": "'once' kept while 'twice' is added",
}


def _item(answer: str, steps: list[str], terms: Any = (), params: Any = None) -> GoldenItem:
    d: dict[str, Any] = {
        "id": "x",
        "intent": "x",
        "agent": "a",
        "question": "how?",
        "answer": answer,
        "steps": list(steps),
        "policy_terms": list(terms),
    }
    if params:
        d["parameters"] = params
    return GoldenItem.model_validate(d)


def _outcome(c: dict[str, Any]) -> bool:
    if c["kind"] == "pol":
        return polarity_flip(c["step"], c["answer"]) is not None
    if c["kind"] == "step":
        ref = _item(c["ref"], c["steps"], c["terms"])
        return any(
            s.status in ("negated", "altered") for s in StepVerifier().verify(ref, c["answer"], [])
        )
    ref = _item(c["ref"], [], (), c["params"])
    hits = [
        x.value.strip() for x in extract_candidates(c["answer"], ref, {}) if x.field == c["field"]
    ]
    if c["want_value"]:
        return c["want_value"] in hits
    return any(v not in c["allowed"] for v in hits)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[c["id"]]))
        if c["id"] in KNOWN_GAPS
        else c
        for c in CASES
    ],
    ids=[c["id"] for c in CASES],
)
def test_review_case(case: dict[str, Any]) -> None:
    assert _outcome(case) is case["expect"], case.get("note", "")
