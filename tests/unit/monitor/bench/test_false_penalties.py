"""What penalised the items that should pass (issue 19: which rule to look at first on a
new domain): the rule of each penalising verdict, read from its cue, counted per family."""

from __future__ import annotations

import pytest

from monitor.bench.generate import generate
from monitor.bench.runner import (
    SCORE_ONLY,
    SEVERAL_RULES,
    AlwaysPenalize,
    ItemOutcome,
    false_penalties,
    judge_items,
    rule_of,
    summarize,
)
from monitor.bench.seeds import Seed
from monitor.judges.base import JudgeRequest, JudgeResult
from monitor.schemas import ClaimEvidence, ClaimVerdict, JudgeInfo, Scores, StepVerdict
from pipelines.reports.bench import render_markdown
from tests.unit.monitor.bench.test_bench_items import report_of
from tests.unit.monitor.bench.test_paraphrase_families import SEED

# family -> (correctness, step verdicts as (status, cue))
SCRIPT: dict[str, tuple[float, tuple[tuple[str, str], ...]]] = {
    "P1": (0.0, (("negated", "polarity flipped (negation)"), ("covered", "ok"))),
    "P6": (
        0.0,
        (
            ("altered", "declared policy term replaced: 'card' -> 'store credit'"),
            ("missing", "best term recall 0.20 < 0.35"),
        ),
    ),
    "P2": (0.0, (("missing", "best term recall 0.10 < 0.35"),)),  # right: not counted
    "P4": (0.0, (("negated", "polarity flipped (negation)"),)),
}


class Scripted:
    @property
    def info(self) -> JudgeInfo:
        return JudgeInfo(name="scripted")

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        fam = next((f for f in SCRIPT if f"-{f}-" in request.trace.trace_id), None)
        score, steps = SCRIPT.get(fam or "", (1.0, ()))
        sv = tuple(
            StepVerdict(index=k, step="x", status=s, cue=c) for k, (s, c) in enumerate(steps)
        )
        return JudgeResult(Scores(correctness=score, hallucination_fidelity=1.0), (), sv, "why")


@pytest.mark.parametrize(
    ("kind", "cue", "rule"),
    [
        ("negated", "polarity flipped (negation)", "negated: polarity flipped (negation)"),
        (
            "altered",
            "declared policy term replaced: 'original payment method' -> 'store credit'",
            "altered: declared policy term replaced",
        ),
        (
            "missing",
            "only 33% of the step's key words occur in the answer (< 50%)",
            "missing: only N of the step's key words occur in the answer",
        ),
        (
            "missing",
            "best mean(embedding cosine, term recall) 0.25 < 0.35",
            "missing: best mean(embedding cosine, term recall)",
        ),
        (
            "altered",
            "quantity changed: date:515, money:GBP:285 -> date:303",
            "altered: quantity changed",
        ),
        ("altered", "count changed: tablet [6.0] -> [1.0]", "altered: count changed"),
        ("altered", "bound reversed: max 2 -> min 2", "altered: bound reversed"),
        ("claim contradicted", "label", "claim contradicted: label"),
        (
            "negated",
            "polarity flipped beside another clause (negation + antonym + modal)",
            "negated: polarity flipped beside another clause (negation + antonym + modal)",
        ),
    ],
)
def test_the_rule_is_the_cue_without_what_it_quotes(kind: str, cue: str, rule: str) -> None:
    assert rule_of(kind, cue) == rule


async def test_false_penalties_by_rule_per_family() -> None:
    gen = generate([Seed.model_validate(SEED)], draws=2, gen_seed=9)
    outcomes = await judge_items(Scripted(), gen.instances, gen.header.golden)
    got = false_penalties(outcomes)
    n = {f: sum(i.family == f for i in gen.instances) for f in ("P1", "P6")}
    assert n["P1"] and n["P6"]
    assert got == {
        "P1": {"negated: polarity flipped (negation)": n["P1"]},
        "P6": {SEVERAL_RULES: n["P6"]},
    }
    # in the summary, the JSON report and the Markdown report
    s = summarize(outcomes, resamples=50)
    assert s.false_penalties == got
    assert s.model_dump(mode="json")["false_penalties"]["P1"] == got["P1"]


async def test_judges_without_verdicts_report_no_false_penalties() -> None:
    gen = generate([Seed.model_validate(SEED)], draws=1, gen_seed=9)
    outcomes = await judge_items(AlwaysPenalize(), gen.instances, gen.header.golden)
    assert false_penalties(outcomes) == {}
    assert "false_penalties" not in summarize(outcomes, resamples=50).model_dump(mode="json")


async def test_markdown_lists_what_penalised_the_correct_items() -> None:
    gen = generate([Seed.model_validate(SEED)], draws=2, gen_seed=9)
    outcomes = await judge_items(Scripted(), gen.instances, gen.header.golden)
    report = report_of({"scripted": summarize(outcomes, resamples=50)})
    text = render_markdown(report)
    n = sum(i.family == "P1" for i in gen.instances)
    assert "What penalised the items that should pass" in text
    assert f"| scripted | P1 | {n} | {n} × negated: polarity flipped (negation) |" in text


NEGATED = StepVerdict(index=0, step="x", status="negated", cue="polarity flipped (negation)")
EXEMPLAR_MISSING = StepVerdict(
    index=1, step="y", status="missing", required=False, cue="best term recall 0.10 < 0.35"
)
CONTRADICTED = ClaimVerdict(
    field="status",
    value="open",
    type="enum",
    status="contradicted",
    sentence="It is open.",
    evidence=ClaimEvidence(source="context", context_value="closed", cue="label"),
)


def _result(score: float, claims: tuple[ClaimVerdict, ...], *steps: StepVerdict) -> JudgeResult:
    return JudgeResult(Scores(correctness=score, hallucination_fidelity=1.0), claims, steps, "")


def _outcome(family: str, penalized: bool, *results: JudgeResult) -> ItemOutcome:
    gen = generate([Seed.model_validate(SEED)], draws=1, gen_seed=9)
    inst = next(i for i in gen.instances if i.family == family)
    return ItemOutcome(inst, penalized, 0.0, 1.0, 0, (), results=results)


def test_what_counts_and_under_which_rule() -> None:
    outcomes = [
        # a missing exemplar sentence does not count in the score, nor here
        _outcome("P6", True, _result(0.0, (), NEGATED, EXEMPLAR_MISSING)),
        # a contradicted claim and a negated step: two rules
        _outcome("P6", True, _result(0.0, (CONTRADICTED,), NEGATED)),
        # the rule of the first repeat that penalises, not of the first repeat
        _outcome("P6", True, _result(0.9, ()), _result(0.0, (), NEGATED)),
        # not penalised, or a family that should be penalised: not counted
        _outcome("P6", False, _result(0.9, (), NEGATED)),
        _outcome("P2", True, _result(0.0, (CONTRADICTED,))),
        # penalised by its scores alone
        _outcome("P1", True, _result(0.2, (), EXEMPLAR_MISSING)),
        _outcome("P1", True, _result(0.0, (CONTRADICTED,))),
    ]
    assert false_penalties(outcomes) == {
        "P1": {"claim contradicted: label": 1, SCORE_ONLY: 1},
        "P6": {"negated: polarity flipped (negation)": 2, SEVERAL_RULES: 1},
    }
