"""The bench's escalation share per family (issue 19 point 8): how many items a hybrid
judge escalating the uncertain would send to its LLM tier, and how many of the wrongly
judged items are among them."""

from __future__ import annotations

from monitor.bench.generate import generate
from monitor.bench.runner import AlwaysPenalize, escalation, judge_items, summarize
from monitor.bench.seeds import Seed
from monitor.judges.base import JudgeRequest, JudgeResult
from monitor.judges.llm import LLMJudge
from monitor.schemas import JudgeInfo, Scores, StepVerdict
from pipelines.reports.bench import render_markdown
from tests.unit.monitor.bench.test_bench_items import report_of
from tests.unit.monitor.bench.test_false_penalties import CONTRADICTED
from tests.unit.monitor.bench.test_paraphrase_families import SEED

# family -> (correctness, step verdicts as (status, uncertain))
SCRIPT: dict[str, tuple[float, tuple[tuple[str, bool], ...]]] = {
    "P1": (1.0, (("covered", False),)),
    "P2": (0.0, (("covered", False),)),
    "P3": (1.0, (("covered", True),)),  # right, but borderline
    "P4": (0.0, (("missing", False), ("covered", False))),
    "P6": (0.2, (("altered", True), ("negated", True))),  # wrong, uncertain
    "P2p": (0.9, (("covered", False),)),  # wrong, settled
    "P4p": (0.0, (("negated", True),)),  # right, uncertain
}


class Scripted:
    def __init__(
        self,
        script: dict[str, tuple[float, tuple[tuple[str, bool], ...]]] | None = None,
        claim_faults: frozenset[str] = frozenset(),
    ) -> None:
        self.script = SCRIPT if script is None else script
        self.claim_faults = claim_faults  # families answered with a settled contradicted claim

    @property
    def info(self) -> JudgeInfo:
        return JudgeInfo(name="scripted")

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        fam = next(f for f in self.script if f"-{f}-" in request.trace.trace_id)
        score, steps = self.script[fam]
        sv = tuple(
            StepVerdict(index=k, step="x", status=s, uncertain=u) for k, (s, u) in enumerate(steps)
        )
        claims = (CONTRADICTED,) if fam in self.claim_faults else ()
        fid = 0.0 if claims else 1.0
        return JudgeResult(Scores(correctness=score, hallucination_fidelity=fid), claims, sv, "why")


async def test_escalation_share_per_family() -> None:
    seed = Seed.model_validate(SEED)
    gen = generate([seed], draws=2, gen_seed=9)
    outcomes = await judge_items(Scripted(), gen.instances, gen.header.golden)
    esc = summarize(outcomes, resamples=100).escalation
    n = {f: sum(i.family == f for i in gen.instances) for f in SCRIPT}
    assert set(esc) == {f for f in SCRIPT if n[f]} and {"P1", "P6", "P2p", "P4p"} <= set(esc)
    for fam, e in esc.items():
        score, steps = SCRIPT[fam]
        up = any(u for _, u in steps)
        wrong = (score < 0.5) != (fam in ("P2", "P4", "P2p", "P4p"))
        assert e.items == n[fam] and e.escalated == (n[fam] if up else 0)
        assert e.share == (1.0 if up else 0.0)
        assert e.wrong == (n[fam] if wrong else 0)
        assert e.wrong_escalated == (n[fam] if wrong and up else 0)
        # No settled verdict penalises here: every wrong escalated item is correctable.
        assert e.correctable == e.wrong_escalated
        target = fam in ("P2", "P4", "P2p", "P4p")
        assert e.right_llm == float(target if up else score < 0.5)
        assert e.kinds == {f"step_{s}": n[fam] for s, u in steps if u}
        # On settled verdicts alone, only a settled fault penalises (P4's missing step),
        # whatever the item's score.
        assert e.settled == float(any(s != "covered" and not u for s, u in steps))
    # P6: wrong and escalated (an LLM tier may correct it); P2p: wrong on settled verdicts.
    assert esc["P6"].wrong_escalated == esc["P6"].wrong > 0
    assert esc["P2p"].wrong > 0 and esc["P2p"].wrong_escalated == 0
    assert list(esc["P6"].kinds) == ["step_negated", "step_altered"]


async def test_a_settled_fault_is_not_correctable() -> None:
    """A correct item penalised by an uncertain verdict and a settled one (a step or
    a contradicted claim) stays penalised with a right LLM tier (the hybrid keeps a
    settled fault); a missed
    corruption with an uncertain verdict is caught; a missed one with settled
    verdicts only is not."""
    script = {
        "P1": (0.2, (("altered", True), ("negated", False))),  # wrong, settled fault too
        "P6": (1.0, (("altered", True),)),  # wrong, with a settled contradicted claim too
        "P2p": (0.9, (("covered", True),)),  # missed, uncertain: correctable
        "P4p": (0.9, (("covered", False),)),  # missed, settled: not correctable
    }
    seed = Seed.model_validate(SEED)
    gen = generate([seed], draws=2, gen_seed=9)
    instances = [i for i in gen.instances if i.family in script]
    judge = Scripted(script, claim_faults=frozenset({"P6"}))
    outcomes = await judge_items(judge, instances, gen.header.golden)
    esc = escalation(outcomes)
    n = {f: sum(i.family == f for i in instances) for f in script}
    assert all(n.values())
    assert (esc["P1"].wrong, esc["P1"].wrong_escalated, esc["P1"].correctable) == (n["P1"],) * 2 + (
        0,
    )
    assert esc["P1"].right_llm == 1.0
    # A settled contradicted claim is a settled fault as a settled step is.
    assert esc["P6"].wrong == esc["P6"].wrong_escalated == n["P6"]
    assert esc["P6"].correctable == 0 and esc["P6"].right_llm == 1.0
    assert esc["P2p"].correctable == n["P2p"] and esc["P2p"].right_llm == 1.0
    assert esc["P4p"].wrong == n["P4p"] and esc["P4p"].correctable == 0
    assert esc["P4p"].right_llm == 0.0
    # A settled step or claim fault penalises on settled verdicts alone; the rest do not.
    assert (esc["P1"].settled, esc["P6"].settled) == (1.0, 1.0)
    assert (esc["P2p"].settled, esc["P4p"].settled) == (0.0, 0.0)


async def test_judges_without_verdicts_report_no_escalation() -> None:
    seed = Seed.model_validate(SEED)
    gen = generate([seed], draws=1, gen_seed=9)
    outcomes = await judge_items(AlwaysPenalize(), gen.instances, gen.header.golden)
    assert escalation(outcomes) == {}
    assert "escalation" not in summarize(outcomes, resamples=50).model_dump(mode="json")


async def test_markdown_shows_the_rate_now_and_with_a_right_llm_tier() -> None:
    seed = Seed.model_validate(SEED)
    gen = generate([seed], draws=2, gen_seed=9)
    outcomes = await judge_items(Scripted(), gen.instances, gen.header.golden)
    text = render_markdown(report_of({"scripted": summarize(outcomes, resamples=50)}))
    n = sum(i.family == "P6" for i in gen.instances)
    # P6: every item penalised on uncertain verdicts only, all correctable.
    row = f"| scripted | P6 | {n} | {n} (1.00) | {n} | {n} | {n} | 1.00 → 0.00 | 0.00 |"
    assert row in text
    m = sum(i.family == "P2p" for i in gen.instances)
    # P2p: missed on settled verdicts: nothing to correct.
    assert f"| scripted | P2p | {m} | 0 (0.00) | {m} | 0 | 0 | 0.00 → 0.00 | 0.00 | — |" in text
    k = sum(i.family == "P4" for i in gen.instances)
    # P4: caught on a settled missing step, so on settled verdicts alone too.
    assert f"| scripted | P4 | {k} | 0 (0.00) | 0 | 0 | 0 | 1.00 → 1.00 | 1.00 | — |" in text


async def test_the_llm_judges_claims_have_no_settled_rate() -> None:
    """The LLM judge (by its name, as ``penalty_evidence`` reads it): its penalties are
    the LLM's, so the family's rate on settled verdicts is not reported (the metric
    counts them ``llm``)."""
    llm_claim = CONTRADICTED.model_copy(
        update={"evidence": CONTRADICTED.evidence.model_copy(update={"cue": "llm"})}
    )
    script = {"P1": (1.0, ()), "P6": (0.2, ())}

    class LLMScripted(Scripted):
        async def judge(self, request: JudgeRequest) -> JudgeResult:
            r = await super().judge(request)
            return JudgeResult(r.scores, (llm_claim,), (), r.rationale)

    seed = Seed.model_validate(SEED)
    gen = generate([seed], draws=1, gen_seed=9)
    instances = [i for i in gen.instances if i.family in script]
    outcomes = await judge_items(LLMScripted(script), instances, gen.header.golden)
    esc = escalation(outcomes, LLMJudge.name)
    assert set(esc) == {"P1", "P6"}
    assert all(e.settled is None for e in esc.values())
    # The same verdicts from a judge that gives settled evidence: reported.
    assert all(e.settled is not None for e in escalation(outcomes, "structural").values())
