"""bench run --items rows, worst items, unverifiable counts, P2p/P4p rows and P1q gates
(issue 19 points 3, 4, 6, 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from monitor.bench.generate import BenchInstance, generate
from monitor.bench.report import (
    BenchReport,
    GateRates,
    GateReport,
    InstancesInfo,
    JudgeReport,
    JudgeSummary,
    UnfittedGate,
)
from monitor.bench.runner import (
    gate_report,
    item_row,
    judge_items,
    retrieve_gate_items,
    summarize,
    verdict_counts,
    worst_items,
)
from monitor.bench.seeds import Seed, load_seeds
from monitor.data import BENCH_DIR
from monitor.embeddings import HashingEmbedder
from monitor.judges.base import JudgeRequest, JudgeResult
from monitor.retrieval import GoldenIndex
from monitor.schemas import ClaimEvidence, ClaimVerdict, JudgeInfo, Scores, StepVerdict
from pipelines.cli import main
from pipelines.reports.bench import render_markdown
from tests.unit.monitor.bench.test_paraphrase_families import HELDOUT, SEED

# Scripted outcome per family: (correctness, claim statuses, step statuses). P2, P2p,
# P4 and P4p are penalised or not as a judge might get them, wrong on purpose for some.
SCRIPT: dict[str, tuple[float, tuple[str, ...], tuple[str, ...]]] = {
    "P1": (1.0, ("supported", "unverifiable"), ("covered", "unverifiable")),
    "P2": (0.0, ("contradicted",), ("covered",)),
    "P2p": (0.9, ("unverifiable", "unverifiable"), ("covered",)),  # missed
    "P3": (1.0, ("supported", "unverifiable", "unverifiable"), ()),
    "P4": (0.0, (), ("missing",)),
    "P4p": (0.6, (), ("covered",)),  # missed, less confidently
    "P6": (0.2, ("contradicted",), ("altered",)),  # a false penalty
}


class ScriptedJudge:
    """Verdicts by family, so that the counts and the worst items are known."""

    @property
    def info(self) -> JudgeInfo:
        return JudgeInfo(name="scripted")

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        fam = next(f for f in SCRIPT if f"-{f}-" in request.trace.trace_id)
        score, claims, steps = SCRIPT[fam]
        cv = tuple(
            ClaimVerdict(
                field="apptId",
                value="1234567",
                type="digits",
                status=s,
                sentence="s",
                evidence=ClaimEvidence(
                    source="context" if s != "unverifiable" else "none",
                    context_value="7654321" if s == "contradicted" else None,
                    cue="label",
                ),
            )
            for s in claims
        )
        # model_construct: a step status the schema may not admit yet still counts.
        sv = tuple(
            StepVerdict.model_construct(index=k, step="x", status=s, cue=f"cue {k}")  # type: ignore[arg-type]
            for k, s in enumerate(steps)
        )
        return JudgeResult(Scores(correctness=score, hallucination_fidelity=1.0), cv, sv, "why")


def _seed_instances(draws: int = 2) -> tuple[Seed, list[BenchInstance]]:
    seed = Seed.model_validate(SEED)
    gen = generate([seed], draws=draws, gen_seed=9)
    return seed, gen.instances


async def test_unverifiable_counts_per_family() -> None:
    seed, insts = _seed_instances()
    golden = generate([seed], draws=1).header.golden
    outcomes = await judge_items(ScriptedJudge(), insts, golden)
    counts = verdict_counts(outcomes)
    for fam, (_, claims, steps) in SCRIPT.items():
        n = sum(i.family == fam for i in insts)
        if not n:
            assert fam not in counts
            continue
        v = counts[fam]
        assert v.items == n
        assert v.claims_unverifiable == n * claims.count("unverifiable")
        assert v.steps_unverifiable == n * steps.count("unverifiable")
        assert sum(v.claims.values()) == n * len(claims)
        assert sum(v.steps.values()) == n * len(steps)
    assert "P5" not in counts and "P1q" not in counts  # never judged
    s = summarize(outcomes, resamples=200)
    assert s.verdicts == counts
    assert s.model_dump(mode="json")["verdicts"]["P1"]["claims_unverifiable"] == sum(
        i.family == "P1" for i in insts
    )


async def test_paraphrase_rows_and_their_di() -> None:
    seed, insts = _seed_instances()
    golden = generate([seed], draws=1).header.golden
    s = summarize(await judge_items(ScriptedJudge(), insts, golden), resamples=200)
    assert s.families["P2p"].rate == 0.0 and s.families["P4p"].rate == 0.0  # both missed
    assert set(s.p4p_by_type) == {"delete_step", "negate", "swap_policy"}
    assert all(r.n == 4 for r in s.p4p_by_type.values())  # 2 bases x 2 draws
    assert s.tp == 1.0  # P2 and P4 caught: the near-copies leak, the paraphrases don't
    assert s.paraphrase_bases is not None and s.paraphrase_bases.tp == 0.0
    assert s.paraphrase_bases.di == pytest.approx(0.0 - (s.fp or 0.0))
    # The paraphrase families do not enter the DI.
    assert s.di == pytest.approx(1.0 - (s.fp or 0.0))


async def test_seeds_without_markup_keep_the_report_as_it_was() -> None:
    insts = generate(load_seeds(BENCH_DIR), draws=1, gen_seed=2027)
    s = summarize(
        await judge_items(ScriptedJudge(), insts.instances, insts.header.golden), resamples=100
    )
    out = s.model_dump(mode="json")
    assert "P2p" not in out["families"] and "P4p" not in out["families"]
    assert "p4p_by_type" not in out and "paraphrase_bases" not in out


async def test_worst_items_are_the_most_confidently_wrong_a_few_per_family() -> None:
    seed, insts = _seed_instances(draws=5)
    golden = generate([seed], draws=1).header.golden
    outcomes = await judge_items(ScriptedJudge(), insts, golden)
    worst = worst_items(outcomes, per_family=2)
    fams = [w.family for w in worst]
    # P6 penalised at 0.2 (margin .3), P2p passed at 0.9 (.4), P4p passed at 0.6 (.1);
    # P1/P3 are right, P2/P4 caught.
    assert fams == ["P6", "P6", "P2p", "P2p", "P4p", "P4p"]
    by = {w.family: w for w in worst}
    assert by["P6"].margin == pytest.approx(0.3) and by["P6"].penalized
    assert not by["P6"].target_penalize
    assert "contradicted" in by["P6"].why and "step 1 altered (cue 0): 'x'" in by["P6"].why
    assert by["P2p"].target_penalize and not by["P2p"].penalized
    assert by["P2p"].why.startswith("missed: apptId stated")
    assert by["P4p"].why.startswith("missed:")


async def test_item_rows_carry_target_decision_scores_and_verdicts() -> None:
    seed, insts = _seed_instances(draws=1)
    golden = generate([seed], draws=1).header.golden
    outcomes = await judge_items(ScriptedJudge(), insts, golden)
    rows = [json.loads(json.dumps(item_row(o, "scripted"))) for o in outcomes]
    assert {r["family"] for r in rows} == {"P1", "P2", "P4", "P6", "P2p", "P4p"}
    for r, o in zip(rows, outcomes, strict=True):
        assert r["id"] == o.instance.id and r["judge"] == "scripted"
        assert r["target_penalize"] == o.instance.target_penalize
        assert r["penalized"] == o.penalized
        assert r["correct"] == (o.penalized == o.instance.target_penalize)
        assert len(r["repeats"]) == 1
        claims = r["repeats"][0]["claims"]
        assert [c["status"] for c in claims] == list(SCRIPT[r["family"]][1])
        assert all("cue" in c["evidence"] for c in claims)
    p6 = next(r for r in rows if r["family"] == "P6")
    assert p6["correct"] is False and p6["repeats"][0]["steps"][0]["cue"] == "cue 0"


def test_gates_report_p1_on_paraphrased_questions_without_fitting_on_them() -> None:
    gen = generate(load_seeds(HELDOUT), draws=1, gen_seed=2027)
    index = GoldenIndex(gen.header.golden, HashingEmbedder())
    items = retrieve_gate_items(index, gen.instances)
    n_q = sum(i.family == "P1q" for i in gen.instances)
    assert n_q >= 2 * len(gen.header.seeds)
    rep = gate_report(items, tau=0.8, delta=0.02, gamma=0.8)
    for g in (rep.fixed, rep.margin, rep.calibrated):
        assert g.p1q_accept is not None and 0.0 <= g.p1q_accept <= 1.0
    assert rep.fixed.n_p1q == n_q and rep.margin.n_p1q == n_q
    # The template-question figures are those of the pairs without P1q: same fit.
    without = gate_report(
        [g for g in items if g.instance.family != "P1q"], tau=0.8, delta=0.02, gamma=0.8
    )
    for kind in ("fixed", "margin", "calibrated"):
        a, b = getattr(rep, kind), getattr(without, kind)
        assert (a.p1_accept, a.p5_reject) == (b.p1_accept, b.p5_reject), kind
    assert "p1q_accept" not in without.model_dump(mode="json")["fixed"]
    # A paraphrased question is not the template: a gate at s* = 1 accepts none of them.
    strict = gate_report(items, tau=0.9999, delta=0.0, gamma=0.8)
    assert strict.fixed.p1_accept == 1.0 and strict.fixed.p1q_accept == 0.0


def test_bench_run_items_file_and_markdown(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds.yaml"
    asked = ["can I change appointment {apptId}?", "need to reschedule my visit"]
    seed = {**SEED, "question_paraphrases": asked}
    seeds.write_text(yaml.safe_dump({"seeds": [seed]}, allow_unicode=True), encoding="utf-8")
    items, md, js = tmp_path / "items.jsonl", tmp_path / "r.md", tmp_path / "r.json"
    rc = main(
        [
            "bench",
            "run",
            "--seeds",
            str(seeds),
            "--draws",
            "2",
            "--embedder",
            "hashing",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--items",
            str(items),
            "--markdown",
            str(md),
            "--json",
            str(js),
            "--bootstrap",
            "200",
        ]
    )
    assert rc == 0
    rows = [json.loads(x) for x in items.read_text(encoding="utf-8").splitlines()]
    report = json.loads(js.read_text(encoding="utf-8"))
    judged = report["judges"]["structural"]
    assert len(rows) == judged["items"]
    assert {r["family"] for r in rows} >= {"P1", "P2", "P4", "P6", "P2p", "P4p"}
    for r in rows:
        assert {"family", "subtype", "target_penalize", "penalized", "correctness"} <= set(r)
        assert r["repeats"] and {"claims", "steps", "scores"} <= set(r["repeats"][0])
    # the JSON's per-family counts agree with the rows
    for fam, rate in judged["families"].items():
        assert rate["n"] == sum(r["family"] == fam for r in rows)
        assert rate["penalized"] == sum(r["family"] == fam and r["penalized"] for r in rows)
    for fam, v in judged["verdicts"].items():
        claims = [c for r in rows if r["family"] == fam for c in r["repeats"][0]["claims"]]
        assert v["claims_unverifiable"] == sum(c["status"] == "unverifiable" for c in claims)
    # the counts on bases the judge passed agree with the rows' base_penalized
    for key, ob in judged["on_passed_base"].items():
        fam, _, sub = key.partition(".")
        mine = [
            r
            for r in rows
            if r["family"] == fam
            and (not sub or r["subtype"] == sub)
            and r["base_penalized"] is not None
            and r["penalized"] is not None
        ]
        assert ob["matched"] == len(mine) > 0
        assert ob["base_flagged"] == sum(r["base_penalized"] for r in mine)
        assert ob["caught"]["penalized"] == sum(
            r["penalized"] for r in mine if not r["base_penalized"]
        )
    text = md.read_text(encoding="utf-8")
    assert "| judge | P2p ↑ | P4p ↑ |" in text
    assert "counted only where the judge passed the corruption's base" in text
    assert "unverifiable claims" in text
    assert "P1q accept" in text
    wrong = [r for r in rows if r["correct"] is False]
    assert ("Worst items" in text) == bool(wrong)


def report_of(summaries: dict[str, JudgeSummary]) -> BenchReport:
    """A bench report around judge summaries, with a placeholder gate and instances
    (for what the Markdown report renders of the summaries)."""
    rates = GateRates(p1_accept=1.0, p5_reject=1.0, n_p1=1, n_p5=1)
    gate = GateReport(fixed=rates, margin=rates, calibrated=UnfittedGate(model="n/a"))
    judges = {
        name: JudgeReport.model_validate(
            {**s.model_dump(), "gate": gate.model_dump(), "judge": {"name": name}}
        )
        for name, s in summaries.items()
    }
    return BenchReport(
        format="cargo-bench-report/1",
        instances=InstancesInfo(
            source="x", n=0, by_family={}, gen_seed=1, draws=1, seeds_hash="h", seeds=0, dropped={}
        ),
        repeats=1,
        embedder="hashing",
        bootstrap_resamples=10,
        judges=judges,
        gate=gate,
        paired=[],
    )


def test_markdown_without_the_new_families_has_none_of_their_sections() -> None:
    text = render_markdown(report_of({}))
    assert "P2p" not in text and "P1q" not in text and "Worst items" not in text


def test_why_names_an_exemplar_sentence_that_is_not_a_required_step() -> None:
    from monitor.bench.runner import ItemOutcome, _why

    _, insts = _seed_instances(draws=1)
    p6 = next(i for i in insts if i.family == "P6")
    steps = (
        StepVerdict(index=0, step="Log in first.", status="covered"),
        StepVerdict(
            index=2,
            step="The transfer fee is charged to the current keeper, " * 3,
            status="negated",
            required=False,
            cue="polarity flipped",
        ),
    )
    result = JudgeResult(Scores(correctness=0.0, hallucination_fidelity=1.0), (), steps, "r")
    why = _why(ItemOutcome(p6, True, 0.0, 1.0, 0, (), results=(result,)))
    assert why.startswith("exemplar sentence 3 negated (polarity flipped): 'The transfer fee")
    assert why.endswith("...'") and len(why) < 120


def test_why_leaves_out_a_missing_exemplar_sentence_the_score_does_not_count() -> None:
    """A missing sentence of the exemplar that is no required step is no penalty
    (``structural.penalises``), so the why text does not name it; a missing required
    step is named."""
    from monitor.bench.runner import ItemOutcome, _why

    _, insts = _seed_instances(draws=1)
    p6 = next(i for i in insts if i.family == "P6")
    steps = (
        StepVerdict(index=0, step="Log in first.", status="missing", required=True),
        StepVerdict(index=1, step="Thanks for waiting.", status="missing", required=False),
    )
    result = JudgeResult(Scores(correctness=0.0, hallucination_fidelity=1.0), (), steps, "r")
    why = _why(ItemOutcome(p6, True, 0.0, 1.0, 0, (), results=(result,)))
    assert why == "step 1 missing: 'Log in first.'"


def test_why_reads_the_repeat_whose_scores_penalise() -> None:
    """With repeats that disagree, the why text of a penalised item names the verdicts
    of the first repeat that penalised, as the false-penalty count reads them."""
    from monitor.bench.runner import ItemOutcome, _why

    _, insts = _seed_instances(draws=1)
    p6 = next(i for i in insts if i.family == "P6")
    passed = JudgeResult(
        Scores(correctness=1.0, hallucination_fidelity=1.0),
        (),
        (StepVerdict(index=0, step="Log in first.", status="covered"),),
        "r",
    )
    failed = JudgeResult(
        Scores(correctness=0.0, hallucination_fidelity=1.0),
        (),
        (StepVerdict(index=0, step="Log in first.", status="negated", cue="polarity flipped"),),
        "r",
    )
    why = _why(ItemOutcome(p6, True, 0.0, 1.0, 0, (), results=(passed, failed)))
    assert why == "step 1 negated (polarity flipped): 'Log in first.'"


def test_why_of_a_missed_change_says_where_the_judge_read_it() -> None:
    """A newcomer's missed P4 items said only "missed: 'X' -> 'Y'": the verdict of the
    step whose matched sentence holds the changed words is named, or that none does."""
    from monitor.bench.runner import ItemOutcome, _why

    _, insts = _seed_instances(draws=1)
    p4 = next(i for i in insts if i.family == "P4" and "rewrite" in i.detail)
    changed = p4.detail["rewrite"]["to"]
    read = StepVerdict(
        index=1,
        step="The deposit is kept.",
        status="covered",
        matched_sentence=f"As agreed, {changed}, as usual.",
        cue="term recall 0.90 >= 0.35",
    )
    other = StepVerdict(index=0, step="Log in first.", status="covered", matched_sentence="Log in.")
    scores = Scores(correctness=1.0, hallucination_fidelity=1.0)
    found = ItemOutcome(
        p4, False, 1.0, 1.0, 0, (), results=(JudgeResult(scores, (), (other, read), "r"),)
    )
    assert _why(found).endswith("(read in step 2: covered, term recall 0.90 >= 0.35)")
    unread = ItemOutcome(
        p4, False, 1.0, 1.0, 0, (), results=(JudgeResult(scores, (), (other,), "r"),)
    )
    assert _why(unread).endswith("(no step's matched sentence holds the changed words)")
    assert _why(ItemOutcome(p4, False, 1.0, 1.0, 0, ())).startswith("missed: ")
