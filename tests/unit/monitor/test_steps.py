"""Per-step procedure verification on hand-written cases (none from the bench)."""

from __future__ import annotations

import pytest

from monitor.embeddings import HashingEmbedder
from monitor.schemas import GoldenItem
from monitor.steps import (
    ProcedureConfig,
    StepVerifier,
    mask,
    reference_steps,
)
from tests.support.liveness import finishes

GYM = GoldenItem.model_validate(
    {
        "id": "gym_freeze",
        "intent": "membership_freeze",
        "agent": "members",
        "question": "How do I freeze membership 88123401?",
        "answer": "Freeze membership 88123401 at the front desk at least 5 days before the next "
        "billing date. A freeze lasts up to 3 months. Members must pay a fee of $10 per "
        "month while frozen. Classes cannot be booked during a freeze.",
        "parameters": {
            "membership": {"value": "88123401", "type": "digits", "label": "membership"}
        },
        "steps": [
            "Freeze membership 88123401 at the front desk at least 5 days before the next billing "
            "date.",
            "Members must pay a fee of $10 per month while frozen.",
        ],
    }
)


def verdicts(
    answer: str, item: GoldenItem = GYM, embedder: bool = False, observed: tuple[str, ...] = ()
) -> dict[int, str]:
    v = StepVerifier(HashingEmbedder() if embedder else None)
    return {s.index: s.status for s in v.verify(item, answer, list(observed))}


ORIGINAL = GYM.answer.replace("88123401", "77001122")


def test_steps_are_declared_steps_plus_other_sentences() -> None:
    steps = reference_steps(GYM)
    assert [s.required for s in steps] == [True, True, False, False]
    assert "<value>" in steps[0].masked and "88123401" not in steps[0].masked


@pytest.mark.parametrize("embedder", [False, True])
def test_the_same_procedure_for_another_member_is_covered(embedder: bool) -> None:
    assert set(verdicts(ORIGINAL, embedder=embedder).values()) == {"covered"}


@pytest.mark.parametrize(
    "answer",
    [
        # Reordered, merged and reworded, same procedure.
        "A freeze can last up to 3 months and classes cannot be booked during a freeze. To freeze "
        "membership 77001122, go to the front desk at least 5 days before your next billing date; "
        "while frozen, members must pay a $10 fee per month.",
        "Go to the front desk at least 5 days ahead of the next billing date to freeze membership "
        "77001122. You must pay a fee of $10 each month while frozen. The freeze lasts up to 3 "
        "months, and classes cannot be booked during it.",
    ],
)
def test_paraphrases_pass(answer: str) -> None:
    assert set(verdicts(answer, embedder=True).values()) == {"covered"}


def test_missing_required_step() -> None:
    answer = (
        "Freeze membership 77001122 at the front desk at least 5 days before the next "
        "billing date. A freeze lasts up to 3 months. Classes cannot be booked during a "
        "freeze."
    )
    v = verdicts(answer, embedder=True)
    assert v[1] == "missing" and v[0] == "covered"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Members must pay", "Members must not pay"),  # negator
        ("Members must pay", "Members need not pay"),  # modal flip
        ("Members must pay", "Members can pay"),  # obligation -> permission
        ("Classes cannot be booked", "Classes can be booked"),  # "cannot" removed
    ],
)
def test_negated_steps(old: str, new: str) -> None:
    v = verdicts(ORIGINAL.replace(old, new), embedder=True)
    assert "negated" in v.values()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("at least 5 days", "at least 2 days"),  # number
        ("the front desk", "the online portal"),  # single place swapped
        ("per month", "per week"),  # single-word policy swap
        ("a fee of $10", "a deposit of $10"),  # single-word swap next to a value
    ],
)
def test_altered_steps_including_single_word_swaps(old: str, new: str) -> None:
    v = verdicts(ORIGINAL.replace(old, new), embedder=True)
    assert "altered" in v.values(), v


def test_added_sentences_are_not_penalised() -> None:
    v = verdicts(ORIGINAL + " Our gym also offers a sauna. Created: 2026-01-02.", embedder=True)
    assert set(v.values()) == {"covered"}


def test_entity_values_never_count_as_procedure() -> None:
    assert (
        mask("Freeze membership 77001122 before 2026-02-01 for $10.", ["77001122"])
        == "Freeze membership <value> before <date> for <money>."
    )
    # An amount the live context holds is this instance's value, not procedure.
    v = verdicts(ORIGINAL.replace("$10", "$12"), embedder=True, observed=("$12",))
    assert set(v.values()) == {"covered"}


def test_a_procedure_amount_changed_is_altered_verbatim_or_reworded() -> None:
    # The exemplar's own fee (no parameter, not in the context) is procedure: changed in
    # the exemplar's wording it is caught as it is in a rewording (the verbatim
    # shortcuts compare masked words, where every amount is a slot).
    reworded = (
        "Go to the front desk at least 5 days before the next billing date to freeze "
        "membership 77001122. A freeze lasts up to 3 months. While frozen, members pay a "
        "fee of {} per month. Classes cannot be booked during a freeze."
    )
    for answer in (ORIGINAL.replace("$10", "$12"), reworded.format("$12")):
        assert verdicts(answer)[1] == "altered"
    assert verdicts(reworded.format("$10"))[1] == "covered"


def test_empty_answer_misses_every_step() -> None:
    out = StepVerifier().verify(GYM, "", [])
    assert {s.status for s in out} == {"missing"}


def test_thresholds_are_configuration() -> None:
    strict = StepVerifier(None, ProcedureConfig(cover_threshold=0.99, min_term_presence=1.0))
    partial = ORIGINAL.replace("at the front desk", "in person")
    assert any(s.status == "missing" for s in strict.verify(GYM, partial, []))


def test_reference_side_is_computed_once_per_golden_item(monkeypatch: pytest.MonkeyPatch) -> None:
    # Steps and the masked exemplar answer depend only on the golden item: many traces
    # retrieving one item pay for them once; an edited item is a new reference.
    from monitor import steps as steps_mod

    masked: list[str] = []
    real = steps_mod.mask

    def counting(text: str, values: list[str]) -> str:
        if text.startswith(
            "Freeze membership 88123401 at the front desk at least 5 days "
            "before the next billing date. A freeze"
        ):
            masked.append(text)  # the exemplar's whole answer (not a step of it)
        return real(text, values)

    monkeypatch.setattr(steps_mod, "mask", counting)
    v = StepVerifier(None)
    first = [s.status for s in v.verify(GYM, ORIGINAL, [])]
    for _ in range(3):
        assert [s.status for s in v.verify(GYM, ORIGINAL, [])] == first
    assert len(masked) == 1
    edited = GYM.model_copy(update={"answer": GYM.answer + " Bring an ID."})
    v.verify(edited, ORIGINAL, [])
    assert len(masked) == 2


# Worded away from the exemplar, so that term recall alone leaves steps open and
# the verifier embeds (checked in the first test below).
PARAPHRASES = [
    "To pause membership 77001122, visit reception no later than 5 days ahead of your "
    "billing date. Pauses run for a maximum of 3 months. A $10 monthly charge applies during "
    "the pause. Bookings for classes are not possible while paused.",
    "Head to the front desk 5 or more days before billing to freeze membership 77001122; it "
    "can stay frozen for 3 months at most. While it is frozen there is a $10 charge every "
    "month, and you will not be able to book classes.",
    ORIGINAL.replace(
        "Members must pay a fee of $10 per month while frozen.",
        "A monthly $10 charge is due for the whole frozen period.",
    ),
]


class _Counting(HashingEmbedder):
    """A hashing embedder that records each call's texts and thread."""

    def __init__(self, fail: bool = False) -> None:
        super().__init__()
        self.calls: list[list[str]] = []
        self.threads: list[int] = []
        self.fail = fail

    def embed(self, texts):  # type: ignore[no-untyped-def]
        import threading

        self.calls.append(list(texts))
        self.threads.append(threading.get_ident())
        if self.fail:
            from monitor.errors import EmbeddingError

            raise EmbeddingError("model gone")
        return super().embed(texts)


async def test_async_verification_batches_off_the_loop_and_agrees_with_sync() -> None:
    # The judge calls of a batch verify together: their embeddings go to the model in
    # one call, in a worker thread (the event loop keeps running), and the verdicts
    # are those of the synchronous path.
    import asyncio
    import threading

    sync = [StepVerifier(HashingEmbedder()).verify(GYM, a, []) for a in PARAPHRASES]
    emb = _Counting()
    v = StepVerifier(emb)
    out = await asyncio.gather(*(v.verify_async(GYM, a, []) for a in PARAPHRASES))
    assert out == sync
    assert len(emb.calls) == 1  # one model call for every answer that needed one
    assert len(emb.calls[0]) == len(set(emb.calls[0])) > len(PARAPHRASES)
    assert emb.threads[0] != threading.get_ident()
    # Everything is cached now: no further model call.
    again = await asyncio.gather(*(v.verify_async(GYM, a, []) for a in PARAPHRASES))
    assert again == sync and len(emb.calls) == 1


async def test_async_verification_failure_reaches_every_waiter_and_recovers() -> None:
    import asyncio

    from monitor.errors import EmbeddingError

    emb = _Counting(fail=True)
    v = StepVerifier(emb)
    out = await asyncio.gather(
        *(v.verify_async(GYM, a, []) for a in PARAPHRASES[:2]), return_exceptions=True
    )
    assert all(isinstance(o, EmbeddingError) for o in out)
    emb.fail = False
    assert await v.verify_async(GYM, PARAPHRASES[0], []) == StepVerifier(HashingEmbedder()).verify(
        GYM, PARAPHRASES[0], []
    )


async def test_a_cancelled_verification_does_not_cancel_the_others() -> None:
    # A judge timeout cancels one trace's verification; the others waiting on the
    # same embedding still get theirs.
    import asyncio

    v = StepVerifier(_Counting())
    first = asyncio.ensure_future(v.verify_async(GYM, PARAPHRASES[0], []))
    second = asyncio.ensure_future(v.verify_async(GYM, PARAPHRASES[0], []))
    await asyncio.sleep(0)
    first.cancel()
    assert await second == StepVerifier(HashingEmbedder()).verify(GYM, PARAPHRASES[0], [])
    assert first.cancelled()


async def test_a_full_step_cache_still_verifies(monkeypatch: pytest.MonkeyPatch) -> None:
    from monitor import steps as steps_mod

    monkeypatch.setattr(steps_mod, "STEP_CACHE_SIZE", 0)
    expected = StepVerifier(HashingEmbedder()).verify(GYM, PARAPHRASES[1], [])
    assert StepVerifier(HashingEmbedder()).verify(GYM, PARAPHRASES[1], []) == expected
    assert await StepVerifier(HashingEmbedder()).verify_async(GYM, PARAPHRASES[1], []) == expected


@pytest.mark.parametrize(
    "answer",
    [
        '"1" + " -" * 30_000 + " years old"',  # every split of the dashes was tried
        '"-" * 150_000 + ":"',
        '"a - " * 30_000 + "b:"',
    ],
)
def test_a_line_of_dashes_gets_its_verdicts_without_backtracking(answer: str) -> None:
    # A liveness check, not a speed target: the heading reader once tried every way of
    # splitting "- - - ..." into five words, and one such answer held a worker for
    # hours. It must finish; the limit is generous (it takes milliseconds).
    code = (
        "from tests.unit.monitor.test_steps import verdicts\n"
        f"out = verdicts({answer})\n"
        "assert set(out.values()) <= {'missing', 'covered'}, out\n"
    )
    finishes(code, 60, "the step verifier")
