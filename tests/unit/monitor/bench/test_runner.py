from __future__ import annotations

import numpy as np

from monitor.bench.generate import read_instances
from monitor.bench.runner import (
    AlwaysPenalize,
    NeverPenalize,
    bootstrap_di,
    gate_report,
    judge_items,
    paired_delta,
    retrieve_gate_items,
    summarize,
)
from monitor.data import BENCH_INSTANCES
from monitor.embeddings import HashingEmbedder
from monitor.errors import JudgeError
from monitor.judges import StructuralJudge
from monitor.judges.base import JudgeRequest, JudgeResult
from monitor.retrieval import GoldenIndex
from monitor.schemas import JudgeInfo

SHIPPED = BENCH_INSTANCES


def _load():  # type: ignore[no-untyped-def]
    return read_instances(SHIPPED.read_text(encoding="utf-8"))


async def test_sanity_judges_have_di_exactly_zero_on_the_shipped_instances() -> None:
    header, insts = _load()
    for judge, tpfp in ((AlwaysPenalize(), 1.0), (NeverPenalize(), 0.0)):
        s = summarize(await judge_items(judge, insts, header.golden), resamples=200)
        assert s.tp == tpfp and s.fp == tpfp
        assert s.di == 0.0
        assert s.di_ci == (0.0, 0.0)


async def test_structural_judge_report_keys_and_values() -> None:
    header, insts = _load()
    s = summarize(await judge_items(StructuralJudge(), insts, header.golden), resamples=500)
    for fam in ("P1", "P2", "P3", "P4", "P6"):
        assert set(s.families[fam].model_dump()) == {"n", "penalized", "rate"}
    assert set(s.p4_by_type) == {"delete_step", "negate", "swap_policy"}
    assert set(s.p3_by_split) == {"unobserved", "fabricated"}
    assert s.families["P2"].rate == 1.0  # every injected contradiction is caught
    assert s.fp == 0.0  # no false penalty on P1/P3/P6
    assert s.di_ci is not None and s.di is not None
    lo, hi = s.di_ci
    assert lo <= s.di <= hi


class FlakyJudge:
    """Fails on every P2 item and every other call: errors must not count as rates."""

    def __init__(self) -> None:
        self.calls = 0

    @property
    def info(self) -> JudgeInfo:
        return JudgeInfo(name="flaky")

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        self.calls += 1
        if "-P2-" in request.trace.trace_id:
            raise JudgeError("unparseable", "unparseable")
        return await StructuralJudge().judge(request)


async def test_judge_errors_are_counted_apart_and_excluded() -> None:
    header, insts = _load()
    s = summarize(await judge_items(FlakyJudge(), insts, header.golden, repeats=2), resamples=100)
    assert s.families["P2"].n == 0 and s.families["P2"].rate is None
    n_p2 = sum(i.family == "P2" for i in insts)
    assert s.errors == 2 * n_p2 and s.items_failed == n_p2
    assert s.error_kinds == {"unparseable": 2 * n_p2}
    assert s.families["P1"].n == sum(i.family == "P1" for i in insts)


def test_bootstrap_ci_contains_the_point_estimate_and_shrinks_with_n() -> None:
    rng = np.random.default_rng(1)
    small = bootstrap_di(rng.random(20) < 0.8, rng.random(20) < 0.2, resamples=2000)
    large = bootstrap_di(rng.random(2000) < 0.8, rng.random(2000) < 0.2, resamples=2000)
    assert small and large
    assert large[1] - large[0] < small[1] - small[0]
    assert large[0] < 0.6 < large[1]
    assert bootstrap_di(np.array([]), np.array([1.0])) is None


async def test_paired_delta_between_identical_judges_is_zero() -> None:
    header, insts = _load()
    a = {o.instance.id: o for o in await judge_items(StructuralJudge(), insts, header.golden)}
    p = paired_delta(a, a, resamples=200)
    assert p.delta_di == 0.0 and p.ci == (0.0, 0.0)
    b = {o.instance.id: o for o in await judge_items(NeverPenalize(), insts, header.golden)}
    q = paired_delta(b, a, labels=("never", "structural"), resamples=500)
    assert (q.a, q.b) == ("never", "structural")
    assert q.delta_di is not None and q.delta_di > 0.3 and q.ci is not None and q.ci[0] > 0


def test_gate_report_per_kind() -> None:
    header, insts = _load()
    index = GoldenIndex(header.golden, HashingEmbedder())
    rep = gate_report(retrieve_gate_items(index, insts), tau=0.8, delta=0.02, gamma=0.8)
    assert set(rep.model_dump()) == {"fixed", "margin", "calibrated"}
    for g in (rep.fixed, rep.margin):
        assert g.p1_accept is not None and g.p5_reject is not None
        assert 0.0 <= g.p1_accept <= 1.0 and 0.0 <= g.p5_reject <= 1.0
        assert g.n_p1 == sum(i.family == "P1" for i in insts)
    strict = gate_report(retrieve_gate_items(index, insts), tau=1.01, delta=0.02, gamma=0.8)
    assert strict.fixed.p1_accept == 0.0 and strict.fixed.p5_reject == 1.0
