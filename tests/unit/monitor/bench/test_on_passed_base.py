"""P2p/P4p counted only on paraphrase bases the judge passed (issue 19 point 3):
a corruption "caught" because its uncorrupted base was itself falsely flagged is
not a catch, and the report says so apart."""

from __future__ import annotations

import json
from collections.abc import Callable

from monitor.bench.generate import BenchInstance, generate
from monitor.bench.runner import (
    ItemOutcome,
    base_verdicts,
    item_row,
    on_passed_base,
    summarize,
)
from monitor.bench.seeds import Seed
from tests.unit.monitor.bench.test_paraphrase_families import SEED


def _instances(draws: int = 6) -> list[BenchInstance]:
    return generate([Seed.model_validate(SEED)], draws=draws, gen_seed=11).instances


def _outcomes(
    insts: list[BenchInstance], penalize: Callable[[BenchInstance], bool | None]
) -> list[ItemOutcome]:
    out = []
    for i in insts:
        p = penalize(i)
        score = None if p is None else (0.0 if p else 1.0)
        out.append(ItemOutcome(i, p, score, score, int(p is None), ()))
    return out


def _key(i: BenchInstance) -> tuple[str, int, object]:
    return (i.seed, i.draw, i.detail.get("template"))


def _p6_templates(insts: list[BenchInstance]) -> dict[tuple[str, int, object], BenchInstance]:
    return {_key(i): i for i in insts if i.family == "P6"}


def test_the_fixture_has_bases_drawn_and_bases_not_drawn() -> None:
    insts = _instances()
    p6 = _p6_templates(insts)
    para = [i for i in insts if i.family in ("P2p", "P4p")]
    drawn = [i for i in para if _key(i) in p6]
    assert drawn and len(drawn) < len(para)  # each draw's P6 takes one of two paraphrases
    assert {p6[_key(i)].detail["template"] for i in drawn} == {0, 1}


def test_a_catch_only_through_a_flagged_base_is_not_counted() -> None:
    insts = _instances()
    p6 = _p6_templates(insts)

    # The judge flags every paraphrase 0 (a false penalty), and so every corruption of
    # it; it sees no corruption of paraphrase 1.
    def judge(i: BenchInstance) -> bool | None:
        if i.family in ("P6", "P2p", "P4p"):
            return i.detail.get("template") == 0
        return bool(i.target_penalize)

    s = summarize(_outcomes(insts, judge), resamples=100)
    assert s.families["P4p"].rate is not None and 0 < s.families["P4p"].rate < 1
    ob = s.on_passed_base
    assert list(ob) == ["P2p", "P4p", "P4p.delete_step", "P4p.negate", "P4p.swap_policy"]
    for key, o in ob.items():
        fam, _, sub = key.partition(".")
        mine = [
            i for i in insts if i.family == fam and (not sub or i.subtype == sub) and _key(i) in p6
        ]
        assert o.matched == len(mine) > 0
        assert o.base_flagged == sum(i.detail["template"] == 0 for i in mine) > 0
        assert o.caught.n == o.matched - o.base_flagged > 0
        assert o.caught.penalized == 0 and o.caught.rate == 0.0


def test_a_judge_that_passes_every_base_keeps_its_rate() -> None:
    insts = _instances()

    def judge(i: BenchInstance) -> bool | None:
        return bool(i.target_penalize)

    s = summarize(_outcomes(insts, judge), resamples=100)
    for o in s.on_passed_base.values():
        assert o.base_flagged == 0 and o.caught.rate == 1.0 and o.caught.n == o.matched


def test_a_base_whose_judgement_failed_is_not_a_base() -> None:
    insts = _instances()

    def ok(i: BenchInstance) -> bool | None:
        return bool(i.target_penalize)

    def p6_fails(i: BenchInstance) -> bool | None:
        return None if i.family == "P6" else bool(i.target_penalize)

    assert on_passed_base(_outcomes(insts, ok))
    assert on_passed_base(_outcomes(insts, p6_fails)) == {}
    # A failed corruption is not counted either.
    failed = on_passed_base(
        _outcomes(insts, lambda i: None if i.family == "P4p" else bool(i.target_penalize))
    )
    assert list(failed) == ["P2p"]


def test_item_rows_say_whether_the_base_was_penalised() -> None:
    insts = _instances()
    p6 = _p6_templates(insts)

    def judge(i: BenchInstance) -> bool | None:
        if i.family == "P6":
            return i.detail.get("template") == 1
        return bool(i.target_penalize)

    outcomes = _outcomes(insts, judge)
    bases = base_verdicts(outcomes)
    rows = [json.loads(json.dumps(item_row(o, "t", bases))) for o in outcomes]
    for r, i in zip(rows, insts, strict=True):
        if i.family not in ("P2p", "P4p"):
            assert "base_penalized" not in r
        elif _key(i) not in p6:
            assert r["base_penalized"] is None
        else:
            assert r["base_penalized"] is (i.detail["template"] == 1)
    # Without the bases the rows still carry the key, unknown.
    assert all(
        item_row(o, "t").get("base_penalized", None) is None
        for o in outcomes
        if o.instance.family == "P4p"
    )


def test_seeds_without_paraphrase_corruptions_report_nothing_of_it() -> None:
    insts = [i for i in _instances() if i.family not in ("P2p", "P4p")]
    s = summarize(_outcomes(insts, lambda i: bool(i.target_penalize)), resamples=100)
    assert s.on_passed_base == {}
    assert "on_passed_base" not in s.model_dump(mode="json")


def test_a_base_two_p6_items_claim_is_no_base() -> None:
    # Instances merged from two generation runs: the same (seed, draw, paraphrase) twice.
    insts = _instances()
    twice = [*insts, *(i.model_copy(update={"id": i.id + "-again"}) for i in insts)]
    outcomes = _outcomes(twice, lambda i: bool(i.target_penalize))
    assert base_verdicts(outcomes) == {}
    assert on_passed_base(outcomes) == {}


def test_a_seed_with_a_repeated_paraphrase_is_refused() -> None:
    seed = Seed.model_validate(
        {**SEED, "paraphrases": [*SEED["paraphrases"], SEED["paraphrases"][0]]}
    )
    assert any("is listed 2 times" in p for p in seed.problems())
    assert not any("is listed" in p for p in Seed.model_validate(SEED).problems())
