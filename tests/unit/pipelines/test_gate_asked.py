"""``bench gate --questions asked``: the gates fitted and compared on questions as
users ask them (issue 19 point 7), where masked template questions leave all three
at the oracle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monitor.bench.generate import generate
from monitor.bench.seeds import load_seeds
from pipelines.cli import main
from pipelines.reports.gate_demo import asked_pairs
from tests.unit.monitor.bench.test_paraphrase_families import HELDOUT


def test_asked_pairs_are_p1q_and_p5_asked_with_the_other_seeds_paraphrase() -> None:
    insts = generate(load_seeds(HELDOUT), draws=3, gen_seed=2027).instances
    pairs = asked_pairs(insts)
    p1q = [i for i in insts if i.family == "P1q"]
    asked: dict[tuple[str, int], set[str]] = {}
    for i in p1q:
        asked.setdefault((i.seed, i.draw), set()).add(i.question)
    assert [i for i in pairs if i.family == "P1q"] == p1q
    p5 = {i.id: i for i in insts if i.family == "P5"}
    p5q = [i for i in pairs if i.family == "P5"]
    assert p5q and len(p5q) == sum((i.question_seed, i.draw) in asked for i in p5.values())
    for i in p5q:
        orig = p5[i.id.removesuffix("-asked")]
        assert i.id.endswith("-asked") and i.question != orig.question
        assert i.question in asked[(i.question_seed, i.draw)]
        assert i.question_seed != i.seed and i.reference_id == orig.reference_id
    assert asked_pairs(insts) == pairs  # the pick is stable


def _gate(tmp_path: Path, questions: str) -> dict:
    out = tmp_path / questions
    argv = ["bench", "gate", "--seeds", str(HELDOUT), "--embedder", "hashing", "--draws", "3"]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--out", str(out), "--questions", questions]
    assert main(argv) == 0
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_asked_questions_take_the_gates_off_the_oracle(tmp_path: Path) -> None:
    template, asked = _gate(tmp_path, "template"), _gate(tmp_path, "asked")
    assert template["questions"] == "template" and asked["questions"] == "asked"
    # Masked template questions: every P1 at s* = 1.0, so τ = 1.0.
    assert template["operating_points"]["fixed"]["threshold"] == "τ 1.0000"
    assert "p1q_accept" in template["operating_points"]["fixed"]
    fixed = asked["operating_points"]["fixed"]
    assert float(fixed["threshold"].removeprefix("τ ")) < 0.99
    for op in asked["operating_points"].values():
        assert "p1q_accept" not in op
        # the template questions score at least as high as paraphrases: all accepted
        assert op["p1_template_accept"] == 1.0
        assert 0.0 <= op["p5_reject"] <= 1.0 and 0.0 < op["p1_accept"] <= 1.0
    md = (tmp_path / "asked" / "report.md").read_text(encoding="utf-8")
    assert "| P1q accept | P1 template accept | P5q reject |" in md


def test_asked_questions_need_seeds_with_question_paraphrases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.unit.pipelines.test_bench_cli import LIBRARY_SEEDS

    seeds = tmp_path / "library.yaml"
    seeds.write_text(LIBRARY_SEEDS, encoding="utf-8")
    argv = ["bench", "gate", "--seeds", str(seeds), "--embedder", "hashing", "--draws", "2"]
    argv += ["--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "o")]
    assert main([*argv, "--questions", "asked"]) == 2
    assert "has no seeds with question_paraphrases" in capsys.readouterr().err
