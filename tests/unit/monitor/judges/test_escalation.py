"""Escalate what is uncertain (issue 19 point 8): which structural verdicts are settled
by evidence and which are ``uncertain``, and a hybrid judge that sends the LLM tier only
the uncertain traces and lets it decide the uncertain verdicts (scripted LLM endpoint)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from prometheus_client import CollectorRegistry
from pydantic import SecretStr

from monitor.errors import ConfigError
from monitor.judges.base import JudgeRequest, is_penalized
from monitor.judges.hybrid import HybridJudge, TraceSampler
from monitor.judges.llm import LLMJudge
from monitor.judges.structural import StructuralJudge, settled_score, uncertain_kinds
from monitor.llm import LLMConfig
from monitor.metrics import MonitorMetrics
from monitor.schemas import GoldenItem, GoldenSet, JudgeInfo, Judgment, LLMCall, Scores, Trace
from monitor.settings import CargoSettings
from tests.conftest import ACCEPTED, CASE_ITEM
from tests.support.chat_server import Reply, scripted_server, verdict_json
from tests.unit.monitor.test_failure_classes import BIKE, GROOMING, MEALS, item

OBSERVED = {"caseNumber": "491541446", "status": "Closed"}


def judge_sync(ref: GoldenItem, answer: str, context: dict[str, str] | None = None) -> Any:
    trace = Trace(trace_id="t", question="q", answer=answer, context=context or {})
    return StructuralJudge().judge_sync(JudgeRequest(trace, ref, ACCEPTED))


# ------------------------------------------------------------------ structural marks


@pytest.mark.parametrize(
    ("ref", "old", "new", "status"),
    [
        # an inserted negation word: settled
        (MEALS, "must bring", "must not bring", "negated"),
        (GROOMING, "No fee is charged", "A fee is charged", "negated"),
        # a changed quantity (canonical comparison): settled
        (BIKE, "within 2 hours", "within 4 hours", "altered"),
    ],
)
def test_evidence_backed_faults_are_settled(
    ref: GoldenItem, old: str, new: str, status: str
) -> None:
    r = judge_sync(ref, ref.answer.replace(old, new))
    assert status in {s.status for s in r.steps} and is_penalized(r.scores)
    assert uncertain_kinds(r.claims, r.steps) == ()


# A modal affirmed on one side and denied on the other, with an odd number of
# negations between the texts, that the polarity rules do not read as a flip (the
# denied verb is not the step's): covered, but uncertain (invented: a ticket resale,
# a dance school's deposit, a courier's insurance).
TRANSFER = "Tickets on this order can be transferred to a friend free of charge."
DEPOSIT_BACK = "Your deposit will be returned after the final lesson."
INSURED = "Parcels are insured up to £100."


@pytest.mark.parametrize(
    ("text", "answer", "modal"),
    [
        (TRANSFER, "Tickets on this order can't be handed on to a friend.", "can"),
        (INSURED, "Parcels aren't covered up to £100.", "is"),
    ],
)
def test_a_modal_denied_in_other_words_leaves_the_step_uncertain(
    text: str, answer: str, modal: str
) -> None:
    r = judge_sync(item("x", text, [text]), answer)
    (step,) = r.steps
    assert step.status == "covered" and step.uncertain, step
    assert f"'{modal}' affirmed on one side, denied on the other" in step.cue
    assert uncertain_kinds(r.claims, r.steps) == ("step_covered",)


def test_a_modal_denied_where_what_it_governs_is_kept_is_an_open_flip() -> None:
    """The same, where two words of what the modal governs are the same on both sides
    ("after the final lesson"): a flip, still uncertain (test_failure_classes_41)."""
    r = judge_sync(
        item("x", DEPOSIT_BACK, [DEPOSIT_BACK]),
        "Your deposit won't come back after the final lesson.",
    )
    (step,) = r.steps
    assert step.status == "negated" and step.uncertain, step
    assert step.cue == "polarity flipped (modal 'will' turned, what it governs kept)"
    assert uncertain_kinds(r.claims, r.steps) == ("step_negated",)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        (TRANSFER, "You can pass the tickets on this order to a friend for free."),
        ("Deposits are non-refundable.", "Deposits are not refundable."),
        (DEPOSIT_BACK, "We will return your deposit after the final lesson."),
    ],
)
def test_a_modal_kept_or_a_negation_said_another_way_stays_settled(text: str, answer: str) -> None:
    r = judge_sync(item("x", text, [text]), answer)
    assert [s.status for s in r.steps] == ["covered"]
    assert uncertain_kinds(r.claims, r.steps) == ()


@pytest.mark.parametrize(
    ("ref", "answer", "kind"),
    [
        # a modal flip without a negation word ("must" -> "may")
        (MEALS, MEALS.answer.replace("must bring", "may bring"), "step_negated"),
        # a negation word in a sentence that rewords the step: what it governs is open
        (
            MEALS,
            MEALS.answer.replace(
                "Children with allergies must bring a doctor's note.",
                "Got an allergy? No note from the doctor needed.",
            ),
            "step_negated",
        ),
        # a declared policy term whose words are gone: reworded or replaced?
        (BIKE, BIKE.answer.replace("by bank transfer", "as store credit"), "step_altered"),
        # a noun swap outside the declared terms ("dock" -> "shop")
        (
            BIKE,
            BIKE.answer.replace("to any dock", "to any shop"),
            "step_altered",
        ),
    ],
)
def test_faults_without_settling_evidence_are_uncertain(
    ref: GoldenItem, answer: str, kind: str
) -> None:
    r = judge_sync(ref, answer)
    assert is_penalized(r.scores)  # the structural judge alone still penalises
    assert kind in uncertain_kinds(r.claims, r.steps)
    assert any(s.uncertain and f"step_{s.status}" == kind for s in r.steps)


# A required step missing by its score (invented: a bike permit, a repeat prescription,
# a laundry counter, a kayak rental, a library renewal, a vet visit, a lost card, a
# passport renewal, a gym freeze). Settled where what is left of the answer for the
# step, once the other steps took their segments, is under the band below the
# threshold and no segment fitted it before they did (a segment's near miss, taken by
# the step it fits better, is that step's). Open: a near miss after ownership (a step
# said in other words scores there), a segment that fitted the step but another step
# took (two steps said in one sentence), the term-presence rule alone.
def procedure(ident: str, steps: list[str]) -> GoldenItem:
    return item(ident, " ".join(steps), steps)


BIKE_PERMIT = procedure(
    "bike_permit",
    [
        "Register the bike at the station kiosk.",
        "Lock the bike only in the marked racks.",
        "Renew the permit every year in January.",
    ],
)
REPEAT = procedure(
    "repeat_prescription",
    [
        "Order the repeat prescription through the clinic portal.",
        "The pharmacy needs three working days to prepare the prescription.",
        "Collect it at the pharmacy counter with your photo ID.",
    ],
)
LAUNDRY = procedure(
    "laundry",
    [
        "Drop the shirts at the counter before noon.",
        "Shirts dropped before noon are ready the next day.",
        "Collect them with your ticket.",
    ],
)
KAYAK = procedure(
    "kayak_rental",
    [
        "Reserve a kayak at the boathouse desk at least a day ahead.",
        "Every paddler must wear the life vest we hand out at the boathouse.",
        "Return the kayak to the boathouse by 6 pm.",
    ],
)
RENEWAL = procedure(
    "library_renewal",
    [
        "Renew the book online before its due date.",
        "A renewal lasts two weeks.",
        "Books reserved by another reader cannot be renewed.",
    ],
)
VET = procedure(
    "vet_vaccination",
    [
        "Book the vaccination at the clinic reception.",
        "Bring your dog's vaccination booklet to the appointment.",
        "Pay at the reception after the visit.",
    ],
)
# Deletions whose nearest sentence came near the step before another step took it:
# uncertain before, settled now (the last one with the real embedder only,
# tests/integration/test_procedure_targets.py).
DELETED_SETTLED = [
    (
        BIKE_PERMIT,
        "Register your bike at the kiosk in the station, and renew the permit each January.",
        1,
    ),
    (
        REPEAT,
        "Request your repeat prescription in the clinic portal; pick it up at the pharmacy "
        "counter and show your photo ID.",
        1,
    ),
    (LAUNDRY, "Drop the shirts at the counter and collect them with your ticket.", 1),
    (
        KAYAK,
        "Book your kayak at the boathouse desk a day or more in advance, and bring it back "
        "to the boathouse by 6 pm.",
        1,
    ),
]
# Deletions whose step another step's sentence fitted (it shares the step's words):
# left out, or said in one sentence with that step? Uncertain.
DELETED_OPEN = [
    (
        RENEWAL,
        "You can renew the book online any time before it is due, and each renewal gives "
        "you two more weeks.",
        2,
    ),
    (VET, "Book the vaccination at the clinic reception and pay there after the visit.", 1),
]
ALL_STATED = [
    (
        KAYAK,
        "Book your kayak at the boathouse desk a day or more in advance. Each paddler has "
        "to wear one of our life vests, which you get at the boathouse. Bring the kayak "
        "back to the boathouse by 6 pm.",
    ),
    (
        RENEWAL,
        "You can renew the book online any time before it is due. Each renewal gives you "
        "two more weeks. If another reader has reserved the book, it can't be renewed.",
    ),
    (
        REPEAT,
        "Request your repeat prescription in the clinic portal. Allow the pharmacy three "
        "working days to get the prescription ready. Pick it up at the pharmacy counter "
        "and show your photo ID.",
    ),
]


def _missing(r: Any, index: int) -> Any:
    (step,) = (s for s in r.steps if s.index == index)
    assert step.status == "missing" and step.cue.startswith("best "), step
    return step


@pytest.mark.parametrize(("ref", "answer", "deleted"), DELETED_SETTLED[:3])
def test_a_deleted_step_nothing_left_comes_near_is_settled_missing(
    ref: GoldenItem, answer: str, deleted: int
) -> None:
    r = judge_sync(ref, answer)
    assert not _missing(r, deleted).uncertain
    assert is_penalized(settled_score(r.claims, r.steps))  # what penalty_evidence reads


@pytest.mark.parametrize(("ref", "answer", "deleted"), DELETED_OPEN)
def test_a_step_another_steps_sentence_fitted_stays_uncertain(
    ref: GoldenItem, answer: str, deleted: int
) -> None:
    r = judge_sync(ref, answer)
    assert _missing(r, deleted).uncertain
    assert is_penalized(r.scores) and not is_penalized(settled_score(r.claims, r.steps))


def test_two_steps_said_in_one_sentence_are_not_a_settled_penalty() -> None:
    gym = procedure(
        "gym_freeze",
        [
            "Freeze your membership from the account page for up to three months.",
            "A frozen membership is not billed.",
            "Tell the front desk when you come back.",
        ],
    )
    answer = (
        "Freeze your membership from the account page for up to three months without "
        "being billed for it. Tell the front desk when you come back."
    )
    r = judge_sync(gym, answer)
    # The structural judge alone still reads the second step as left out, but not on
    # settled evidence: a hybrid judge asks its LLM.
    assert _missing(r, 1).uncertain
    assert not is_penalized(settled_score(r.claims, r.steps))


@pytest.mark.parametrize(
    ("ref", "answer", "index"),
    [
        (
            procedure(
                "lost_card",
                [
                    "Block the lost card immediately in the banking app.",
                    "Order a replacement card from the cards menu.",
                    "The new card arrives within 7 days.",
                ],
            ),
            "Freeze the missing card straight away in the app. Request a new one under "
            "Cards. It will reach you within 7 days.",
            0,
        ),
        (
            procedure(
                "passport_renewal",
                [
                    "Fill in the renewal form online.",
                    "Enclose two identical passport photos with the form.",
                    "Send your old passport with the application.",
                ],
            ),
            "Complete the renewal form on the website. Include a pair of matching pictures "
            "of yourself. Post the expired passport along with it.",
            2,
        ),
    ],
)
def test_a_step_said_in_other_words_with_a_near_miss_stays_uncertain(
    ref: GoldenItem, answer: str, index: int
) -> None:
    # Correct answers in other words: a step scores a near miss (within the band under
    # the threshold). Missing, but open -- never a settled penalty by that step.
    step = _missing(judge_sync(ref, answer), index)
    assert step.uncertain and step.similarity >= 0.25, step


@pytest.mark.parametrize(("ref", "answer"), ALL_STATED)
def test_the_same_procedures_said_in_other_words_are_covered(ref: GoldenItem, answer: str) -> None:
    r = judge_sync(ref, answer)
    assert {s.status for s in r.steps} == {"covered"} and not is_penalized(r.scores)


def test_a_step_missing_by_the_term_presence_rule_alone_stays_uncertain() -> None:
    # "the boathouse hands out gear": the step's sentence is near enough, but "paddler",
    # "wear", "life vest" are gone -- left out, or said in other words?
    answer = (
        "Reserve a kayak at the boathouse desk at least a day ahead; the boathouse hands out "
        "gear. Return the kayak to the boathouse by 6 pm."
    )
    r = judge_sync(KAYAK, answer)
    (step,) = (s for s in r.steps if s.status != "covered")
    assert (step.index, step.status, step.uncertain) == (1, "missing", True), step
    assert "key words occur" in step.cue
    assert uncertain_kinds(r.claims, r.steps) == ("step_missing",)
    assert is_penalized(r.scores) and not is_penalized(settled_score(r.claims, r.steps))


def test_the_exemplar_verbatim_is_settled() -> None:
    r = judge_sync(BIKE, BIKE.answer)
    assert not is_penalized(r.scores) and uncertain_kinds(r.claims, r.steps) == ()


@pytest.mark.parametrize(
    ("answer", "uncertain"),
    [
        ("Case 491541446 is currently Escalated.", False),  # the exemplar's template slot
        ("Case 491541446 has status Open.", False),  # after the field's label
        ("Case 491541446: we escalated it yesterday, it is Open.", True),  # a bare enum word
        ("Your ticket 536762755 is currently Closed.", True),  # an id tied by shape alone
    ],
)
def test_a_contradiction_is_uncertain_only_when_the_sentence_does_not_tie_it(
    answer: str, uncertain: bool
) -> None:
    r = judge_sync(CASE_ITEM, answer, OBSERVED)
    con = [c for c in r.claims if c.status == "contradicted"]
    assert len(con) == 1 and con[0].uncertain is uncertain
    assert ("claim_contradicted" in uncertain_kinds(r.claims, r.steps)) is uncertain
    # written to the judgment only when true
    assert ("uncertain" in con[0].model_dump(mode="json")) is uncertain


# ------------------------------------------------------------------ hybrid routing


def hybrid(url: str, rate: float, escalate: Any = "uncertain") -> HybridJudge:
    cfg = LLMConfig(
        base_url=url,
        model="m",
        api_key=SecretStr("k"),
        backoff_base_s=0.01,
        backoff_cap_s=0.02,
        max_retries=0,
    )
    return HybridJudge(StructuralJudge(), LLMJudge(cfg), TraceSampler(rate), escalate)


def request(ref: GoldenItem, answer: str, context: dict[str, str] | None = None) -> JudgeRequest:
    trace = Trace(trace_id="t1", question="q", answer=answer, context=context or {})
    return JudgeRequest(trace, ref, ACCEPTED)


MODAL = MEALS.answer.replace("must bring", "may bring")  # uncertain negation
NEGATED = MEALS.answer.replace("must bring", "must not bring")  # settled negation


async def test_only_uncertain_traces_reach_the_llm() -> None:
    with scripted_server(Reply(content=verdict_json(1.0, 1.0))) as server:
        judge = hybrid(server.url, rate=0.0)
        settled_ok = await judge.judge(request(MEALS, MEALS.answer))
        settled_bad = await judge.judge(request(MEALS, NEGATED))
        uncertain = await judge.judge(request(MEALS, MODAL))
        await judge.aclose()
    assert len(server.requests) == 1  # the uncertain trace only
    for r in (settled_ok, settled_bad):
        assert r.call is not None and r.call.sampled is False and not r.call.escalated
    assert is_penalized(settled_bad.scores)  # a settled fault needs no LLM
    assert uncertain.call is not None and uncertain.call.sampled and uncertain.call.escalated
    assert "escalated" in uncertain.call.model_dump(mode="json")


async def test_the_llm_decides_an_uncertain_fault() -> None:
    # The LLM finds the modal rewording fine: the uncertain negation does not penalise.
    with scripted_server(Reply(content=verdict_json(1.0, 1.0))) as server:
        judge = hybrid(server.url, rate=0.0)
        ok = await judge.judge(request(MEALS, MODAL))
        await judge.aclose()
    assert not is_penalized(ok.scores) and ok.scores.helpfulness == 0.7
    neg = [s for s in ok.steps if s.status == "negated"]
    assert neg and all(s.uncertain for s in neg)  # the verdict is kept, marked
    assert "left to the LLM tier: step_negated" in ok.rationale
    # The LLM finds it wrong: penalised on the LLM's word.
    with scripted_server(Reply(content=verdict_json(0.2, 1.0))) as server:
        judge = hybrid(server.url, rate=0.0)
        bad = await judge.judge(request(MEALS, MODAL))
        await judge.aclose()
    assert is_penalized(bad.scores) and bad.scores.correctness == 0.2


async def test_a_settled_fault_stands_against_a_lenient_llm_in_the_blind_sample() -> None:
    with scripted_server(Reply(content=verdict_json(1.0, 1.0))) as server:
        judge = hybrid(server.url, rate=1.0)
        r = await judge.judge(request(MEALS, NEGATED))
        c = await judge.judge(
            request(CASE_ITEM, "Case 491541446 is currently Escalated.", OBSERVED)
        )
        await judge.aclose()
    assert len(server.requests) == 2
    assert r.call is not None and r.call.sampled and not r.call.escalated  # blind sample
    assert is_penalized(r.scores) and is_penalized(c.scores)


async def test_an_uncertain_contradiction_is_the_llms_to_decide() -> None:
    answer = "Case 491541446: we escalated it yesterday, it is Open."
    with scripted_server(Reply(content=verdict_json(1.0, 1.0))) as server:
        judge = hybrid(server.url, rate=0.0)
        r = await judge.judge(request(CASE_ITEM, answer, OBSERVED))
        await judge.aclose()
    assert len(server.requests) == 1 and not is_penalized(r.scores)
    assert any(c.status == "contradicted" and c.uncertain for c in r.claims)


async def test_llm_failure_on_an_escalated_trace_keeps_the_whole_structural_verdict() -> None:
    with scripted_server(Reply(content="not json")) as server:
        judge = hybrid(server.url, rate=0.0)
        r = await judge.judge(request(MEALS, MODAL))
        await judge.aclose()
    assert r.call is not None and r.call.escalated and r.call.error is not None
    assert r.call.error.kind == "unparseable"
    assert is_penalized(r.scores)  # the uncertain fault counts when no LLM decided it


async def test_escalation_off_is_the_blind_sample_alone() -> None:
    with scripted_server(Reply(content=verdict_json(1.0, 1.0))) as server:
        judge = hybrid(server.url, rate=0.0, escalate="off")
        r = await judge.judge(request(MEALS, MODAL))
        await judge.aclose()
    assert server.requests == [] and r.call is not None and not r.call.sampled
    assert is_penalized(r.scores)
    with pytest.raises(ConfigError, match="escalate"):
        hybrid("http://127.0.0.1:9/v1", rate=0.0, escalate="always")


def test_settings_escalation_defaults_the_blind_sample_to_none() -> None:
    assert CargoSettings().sampler().rate == 1.0
    assert CargoSettings(judge_escalate="uncertain").sampler().rate == 0.0
    assert CargoSettings(judge_escalate="uncertain", judge_sample_rate=0.1).sampler().rate == 0.1


def test_metrics_count_escalated_calls_apart(golden: GoldenSet) -> None:
    reg = CollectorRegistry()
    m = MonitorMetrics(reg, golden, gate_kind="fixed", judge_name="hybrid")
    calls = [
        LLMCall(sampled=True),
        LLMCall(sampled=True, escalated=True),
        LLMCall(sampled=True, escalated=True),
        LLMCall(sampled=False),
    ]
    for k, call in enumerate(calls):
        m.observe(
            Judgment(
                trace_id=f"t{k}",
                status="evaluated",
                reason="accepted",
                penalized=False,
                scores=Scores(correctness=1.0),
                gate=ACCEPTED,
                judge=JudgeInfo(name="hybrid"),
                llm=call,
                evaluated_at=datetime.now(UTC),
            )
        )
    g = reg.get_sample_value
    for decision, n in (("sampled", 1), ("escalated", 2), ("skipped", 1)):
        assert g("cargo_judge_llm_calls_total", {"judge": "hybrid", "decision": decision}) == n
