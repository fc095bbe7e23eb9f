"""The answer check (``--answer-check``): a trace whose answer is nearer another golden
item's reference answer than the retrieved item's is abstained (``answer_mismatch``).

Found by two strangers' trials (a music exam board, a pet microchip registry): with
one question per item, or a few paraphrases, reworded questions went to the wrong
item (4 and 6 of 24), and every step of a correct answer then read as missing.
"""

from __future__ import annotations

import asyncio

import pytest

from monitor.embeddings import HashingEmbedder
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.judges import StructuralJudge
from monitor.retrieval import GoldenIndex
from monitor.schemas import GoldenSet, Trace
from monitor.settings import CargoSettings

GOLDEN = GoldenSet.model_validate(
    {
        "version": "t",
        "items": [
            {
                "id": "lost",
                "intent": "lost",
                "agent": "a",
                "question": "How do I report my pet lost?",
                "answer": "Report the pet lost on the lost-pet line or in your online account. "
                "Vets within 25 miles are alerted.",
            },
            {
                "id": "transfer",
                "intent": "transfer",
                "agent": "a",
                "question": "How do I transfer keepership of my pet?",
                "answer": "The current keeper starts the transfer in the online account, and "
                "the new keeper pays the transfer fee of £12.",
            },
        ],
    }
)


def _evaluator(check: bool) -> Evaluator:
    return Evaluator(
        GoldenIndex(GOLDEN, HashingEmbedder()),
        FixedGate(-1.0),
        StructuralJudge(),
        answer_check=check,
    )


# (The question is the lost item's; the answer speaks of a transfer.)
ASKED_ONE_ANSWERED_OTHER = Trace(
    trace_id="t1",
    question="How do I report my pet lost?",
    answer="The current keeper starts the transfer in the online account, and the new "
    "keeper pays the transfer fee of £12.",
)
MATCHING = Trace(
    trace_id="t2",
    question="How do I report my pet lost?",
    answer="Report your pet lost in your online account or on the lost-pet line; vets "
    "within 25 miles are alerted.",
)


def test_an_answer_nearer_another_items_reference_is_abstained() -> None:
    [off, on] = asyncio.run(_evaluator(True).evaluate_batch([ASKED_ONE_ANSWERED_OTHER, MATCHING]))
    assert off.status == "abstained" and off.reason == "answer_mismatch"
    assert off.gate is not None and off.gate.reference_id == "lost"
    assert "transfer" in (off.rationale or "") and "lost" in (off.rationale or "")
    assert on.status == "evaluated"


def test_without_the_check_both_are_judged() -> None:
    judged = asyncio.run(_evaluator(False).evaluate_batch([ASKED_ONE_ANSWERED_OTHER, MATCHING]))
    assert [j.status for j in judged] == ["evaluated", "evaluated"]


def test_an_answer_that_cannot_be_read_is_that_traces_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ev = _evaluator(True)
    real = ev.index.nearest_by_answer

    def broken(answers: list[str]) -> list[object]:
        if any("boom" in a for a in answers):
            raise RuntimeError("model failed")
        return real(answers)

    monkeypatch.setattr(ev.index, "nearest_by_answer", broken)
    bad = MATCHING.model_copy(update={"trace_id": "t3", "answer": "boom"})
    [one, two] = asyncio.run(ev.evaluate_batch([bad, MATCHING]))
    assert one.status == "judge_error" and one.error is not None
    assert "answer check" in one.error.reason
    assert two.status == "evaluated"  # (its neighbour is unaffected)


def test_the_setting_is_off_by_default() -> None:
    assert CargoSettings().answer_check is False
