"""Families the seeds cannot build are named with why, and a DI over fewer families says
which it left out (``instances.not_built``, ``di_missing``: added to the JSON report only
when there are some, so a full run's JSON keeps its keys)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from monitor.bench.generate import generate
from monitor.bench.report import InstancesInfo, not_built
from monitor.bench.runner import (
    NeverPenalize,
    gate_report,
    judge_items,
    retrieve_gate_items,
    summarize,
)
from monitor.bench.seeds import Seed, load_seeds
from monitor.data import BENCH_DIR
from monitor.embeddings import HashingEmbedder
from monitor.errors import JudgeError
from monitor.judges.base import JudgeRequest, JudgeResult
from monitor.retrieval import GoldenIndex
from monitor.schemas import JudgeInfo, Scores

INFO = {
    "source": "x",
    "n": 5,
    "gen_seed": 1,
    "draws": 1,
    "seeds_hash": "h",
    "seeds": 1,
}
OLD_KEYS = ["source", "n", "by_family", "gen_seed", "draws", "seeds_hash", "seeds", "dropped"]


def _case_seed() -> Seed:
    """g_case of the bundled seeds: no steps, negations or policy alternatives (no P4)."""
    return next(s for s in load_seeds(BENCH_DIR / "entities.yaml") if s.id == "g_case")


def test_not_built_names_each_missing_family_with_why() -> None:
    info = InstancesInfo(
        **INFO, by_family={"P1": 1, "P2": 1, "P3": 2, "P6": 1}, dropped={}
    ).model_dump(mode="json")
    assert info["not_built"] == {
        "P4": "no seed has steps, negations or policy_alternatives",
        "P5": "needs seeds of at least two intents",
    }
    # Every instance of a family dropped by the checks says so, not what the seeds lack.
    assert not_built({"P1": 1, "P2": 1, "P3": 1, "P4": 1, "P5": 1}, {"P6": 2}) == {
        "P6": "all 2 dropped by the consistency checks"
    }


def test_a_full_run_keeps_the_old_keys_and_the_field_reads_back() -> None:
    full = {"P1": 1, "P2": 1, "P3": 2, "P4": 3, "P5": 1, "P6": 1, "P1q": 2}
    out = InstancesInfo(**INFO, by_family=full, dropped={}).model_dump(mode="json")
    assert list(out) == OLD_KEYS
    partial = InstancesInfo(**INFO, by_family={"P1": 1}, dropped={})
    dumped = partial.model_dump(mode="json")
    assert list(dumped) == [*OLD_KEYS, "not_built"]
    assert InstancesInfo.model_validate(dumped) == partial
    # A report written before the field existed reads back with it derived.
    old = {k: v for k, v in dumped.items() if k != "not_built"}
    assert InstancesInfo.model_validate(old).not_built == partial.not_built


class FailsOnP4:
    """Passes everything, but every P4 call fails."""

    @property
    def info(self) -> JudgeInfo:
        return JudgeInfo(name="fails-on-p4")

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        if "-P4-" in request.trace.trace_id:
            raise JudgeError("http", "503")
        return JudgeResult(Scores(correctness=1.0, hallucination_fidelity=1.0), (), (), "ok")


async def test_di_names_the_families_it_was_computed_without() -> None:
    gen = generate([_case_seed()], draws=2, gen_seed=2027)
    assert "P4" not in {i.family for i in gen.instances}
    s = summarize(await judge_items(NeverPenalize(), gen.instances, gen.header.golden))
    assert s.di is not None and s.di_missing == ["P4"]
    assert s.model_dump(mode="json")["di_missing"] == ["P4"]
    # All five families built: no di_missing key, as before.
    full = generate(load_seeds(BENCH_DIR), draws=1, gen_seed=2027)
    out = summarize(
        await judge_items(NeverPenalize(), full.instances, full.header.golden), resamples=100
    ).model_dump(mode="json")
    assert "di_missing" not in out and out["di"] == 0.0
    # Built but every item a judge error: also left out of the DI.
    failed = summarize(
        await judge_items(FailsOnP4(), full.instances, full.header.golden), resamples=100
    )
    assert failed.families["P4"].n == 0 and failed.di_missing == ["P4"]


def test_the_calibrated_gate_says_it_needs_p5_pairs() -> None:
    gen = generate([_case_seed()], draws=2, gen_seed=2027)
    index = GoldenIndex(gen.header.golden, HashingEmbedder())
    rep = gate_report(retrieve_gate_items(index, gen.instances), tau=0.8, delta=0.02, gamma=0.8)
    assert rep.fixed.n_p5 == 0 and rep.fixed.p5_reject is None
    assert rep.calibrated.note == "not fitted: no P5 pairs (needs seeds of at least two intents)"


def test_bench_run_json_of_one_seed(tmp_path: Path) -> None:
    from pipelines.cli import main

    seed = _case_seed().model_dump(mode="json", by_alias=True, exclude_defaults=True)
    seeds = tmp_path / "one.yaml"
    seeds.write_text(yaml.safe_dump({"seeds": [seed]}, allow_unicode=True), encoding="utf-8")
    js = tmp_path / "r.json"
    args = ["--seeds", str(seeds), "--draws", "1", "--embedder", "hashing"]
    args += ["--cache-dir", str(tmp_path / "cache"), "--bootstrap", "50", "--json", str(js)]
    assert main(["bench", "run", *args]) == 0
    report = json.loads(js.read_text(encoding="utf-8"))
    assert report["instances"]["not_built"] == {
        "P4": "no seed has steps, negations or policy_alternatives",
        "P5": "needs seeds of at least two intents",
    }
    row = report["judges"]["structural"]
    assert row["di_missing"] == ["P4"] and row["families"]["P4"]["n"] == 0
    # The old fields are all still there, with the same meaning.
    assert row["di"] is not None and report["gate"]["fixed"]["p5_reject"] is None
    assert report["gate"]["fixed"]["n_p5"] == 0
