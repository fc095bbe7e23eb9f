"""``bench gate --questions asked``: the gates fitted and compared on questions as
users ask them, retrieved as production retrieves (issue 19 point 7), where masked
template questions leave all three at the oracle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from monitor.bench.generate import generate
from monitor.bench.runner import calibration_rows
from monitor.bench.seeds import load_seeds
from monitor.embeddings import HashingEmbedder
from monitor.retrieval import GoldenIndex
from pipelines.cli import main
from pipelines.reports.gate_demo import asked_gate_items
from tests.unit.monitor.bench.test_paraphrase_families import HELDOUT


def test_asked_pairs_are_retrieved_as_production_retrieves() -> None:
    gen = generate(load_seeds(HELDOUT), draws=2, gen_seed=2027)
    index = GoldenIndex(gen.header.golden, HashingEmbedder())
    items = asked_gate_items(index, gen.instances)
    p1q = [i for i in gen.instances if i.family == "P1q"]
    assert [g.instance for g in items if g.instance.family == "P1q"] == p1q
    uncovered = [g for g in items if g.instance.family == "P5"]
    assert len(uncovered) == len(p1q)  # one question the golden set does not cover per P1q
    ids = [g.id for g in index.golden.items]
    sims = np.clip(index.embed_questions([i.question for i in p1q]) @ index.matrix.T, -1, 1)
    covered = [g for g in items if g.instance.family == "P1q"]
    for g, u, row in zip(covered, uncovered, sims, strict=True):
        assert g.retrieval is not None and u.retrieval is not None
        # the nearest item, with a real top-2 margin (never negative)
        assert g.retrieval.item.id == ids[int(np.argmax(row))]
        assert g.retrieval.similarity == pytest.approx(float(row.max()))
        assert g.retrieval.margin is not None and g.retrieval.margin >= 0
        # the same question, its own seed's item left out: the nearest of the rest
        assert u.instance.question == g.instance.question
        assert u.instance.id == g.instance.id + "-uncovered"
        rest = [k for k in range(len(ids)) if ids[k] != g.instance.reference_id]
        assert u.retrieval.item.id == ids[max(rest, key=lambda k: row[k])]
        assert u.retrieval.margin is not None and u.retrieval.margin >= 0
    rows = calibration_rows(items)
    assert not any(
        r.appropriate for r, g in zip(rows, items, strict=True) if g.instance.family == "P5"
    )
    # a covered question is appropriate exactly when its own item is the nearest
    assert [
        r.appropriate for r, g in zip(rows, items, strict=True) if g.instance.family == "P1q"
    ] == [
        g.retrieval is not None and g.retrieval.item.id == g.instance.reference_id for g in covered
    ]


def _gate(tmp_path: Path, questions: str, *split: str) -> dict[str, Any]:
    out = tmp_path / (questions + "-".join(split))
    argv = ["bench", "gate", "--seeds", str(HELDOUT), "--embedder", "hashing", "--draws", "3"]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--out", str(out), "--questions", questions]
    assert main([*argv, *split]) == 0
    rep: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return rep


def _check_asked(rep: dict[str, Any]) -> None:
    fixed = rep["operating_points"]["fixed"]
    assert float(fixed["threshold"].removeprefix("τ ")) < 0.99
    for op in rep["operating_points"].values():
        assert {"p1q_accept", "p5q_reject", "p1_template_accept"} <= set(op)
        assert "p1_accept" not in op and "p5_reject" not in op
        assert 0.0 <= op["p5q_reject"] <= 1.0 and 0.0 < op["p1q_accept"] <= 1.0
        # the template questions score s* = 1.0, above any paraphrase: all accepted
        assert op["p1_template_accept"] == 1.0
    assert rep["p1q_pairs"] == rep["p5q_pairs"] > 0
    assert 0 <= rep["p1q_nearest_is_another_seed"] < rep["p1q_pairs"]


def test_asked_questions_take_the_gates_off_the_oracle(tmp_path: Path) -> None:
    template = _gate(tmp_path, "template")
    assert template["questions"] == "template" and "split" not in template
    # Masked template questions: every P1 at s* = 1.0, so τ = 1.0.
    assert template["operating_points"]["fixed"]["threshold"] == "τ 1.0000"
    assert "p1q_accept" in template["operating_points"]["fixed"]
    evaluated = generate(load_seeds(HELDOUT), draws=3, gen_seed=3141).instances

    # One deployment, new phrasings: evaluated on the odd-positioned question paraphrases.
    asked = _gate(tmp_path, "asked")
    assert asked["questions"] == "asked" and asked["split"] == "questions"
    _check_asked(asked)
    odd = sum(i.family == "P1q" and i.detail["template"] % 2 == 1 for i in evaluated)
    assert asked["p1q_pairs"] == odd
    md = (tmp_path / "asked" / "report.md").read_text(encoding="utf-8")
    assert "| gate | threshold | P1q accept | P1 template accept | P5q reject |" in md
    assert f"{odd} P1q ({asked['p1q_nearest_is_another_seed']} of them" in md
    assert "question paraphrases at even positions" in md

    # Two deployments: fit on half the seeds, evaluated on the other half.
    two = _gate(tmp_path, "asked", "--split", "seeds")
    assert two["split"] == "seeds"
    _check_asked(two)
    seeds = sorted(s.id for s in load_seeds(HELDOUT))
    assert two["fit_seeds"] == seeds[0::2] and two["eval_seeds"] == seeds[1::2]
    assert two["p1q_pairs"] == sum(
        i.family == "P1q" and i.seed in set(seeds[1::2]) for i in evaluated
    )


@pytest.mark.parametrize("split", [[], ["--split", "seeds"]])
def test_asked_questions_need_seeds_with_question_paraphrases(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    split: list[str],
) -> None:
    from pipelines.reports import gate_demo
    from tests.unit.pipelines.test_bench_cli import LIBRARY_SEEDS

    def no_embedding(*_: object, **__: object) -> None:
        raise AssertionError("the seeds were unfit before anything was embedded")

    monkeypatch.setattr(gate_demo, "make_embedder", no_embedding)
    seeds = tmp_path / "lib"
    seeds.mkdir()
    for k in range(2 if split else 1):  # --split seeds needs four seeds
        text = LIBRARY_SEEDS.replace("id: loan_due", f"id: loan_due{k}")
        text = text.replace("id: hold_policy", f"id: hold_policy{k}")
        (seeds / f"library{k}.yaml").write_text(text, encoding="utf-8")
    argv = ["bench", "gate", "--seeds", str(seeds), "--embedder", "hashing", "--draws", "2"]
    argv += ["--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "o")]
    assert main([*argv, "--questions", "asked", *split]) == 2
    assert "no question asked as users ask to fit on" in capsys.readouterr().err


def test_each_half_is_a_deployment_of_its_own() -> None:
    from pipelines.reports.gate_demo import deployment_items

    gen = generate(load_seeds(HELDOUT), draws=2, gen_seed=2027)
    ids = sorted(gen.header.seeds)
    half = set(ids[1::2])
    items = deployment_items(gen, half, HashingEmbedder())
    assert items and {g.instance.seed for g in items} == half
    # every pair retrieves an item of this half's golden set, never the other half's
    assert all(g.retrieval is not None and g.retrieval.item.id in half for g in items)
    assert sum(g.instance.family == "P5" for g in items) == sum(
        i.family == "P1q" and i.seed in half for i in gen.instances
    )


def test_risk_counts_every_inappropriate_accepted_pair() -> None:
    from pipelines.reports.gate_demo import _op

    fam = np.array(["P1", "P1", "P1", "P5", "P5"])
    # the second P1q retrieved another seed's item first: inappropriate too
    bad = np.array([False, True, False, True, True])
    accept = np.array([True, True, False, True, False])
    op = _op(accept, fam, bad)
    assert op["p1_accept"] == pytest.approx(2 / 3) and op["p5_reject"] == 0.5
    assert op["coverage"] == pytest.approx(3 / 5)
    assert op["risk"] == pytest.approx(2 / 3)  # not 1/3: the wrong-nearest P1q counts


def test_the_saved_gate_model_is_the_reported_operating_point(tmp_path: Path) -> None:
    rep = _gate(tmp_path, "asked")
    model = json.loads((tmp_path / "asked" / "gate.json").read_text(encoding="utf-8"))
    gamma = rep["operating_points"]["calibrated"]["threshold"]
    assert gamma.startswith(f"γ {model['gamma']:.4f} ") and model["per_intent_gamma"] == {}


@pytest.mark.parametrize(
    ("files", "extra", "message"),
    [
        (["clinic.yaml"], ["--questions", "asked", "--split", "seeds"], "it needs at least 4"),
        (["clinic.yaml"], ["--split", "seeds"], "--split applies to --questions asked only"),
    ],
)
def test_asked_mode_says_what_it_needs(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    files: list[str],
    extra: list[str],
    message: str,
) -> None:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for f in files:
        (seeds / f).write_bytes((HELDOUT / f).read_bytes())
    argv = ["bench", "gate", "--seeds", str(seeds), "--embedder", "hashing", "--draws", "1"]
    argv += ["--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "o"), *extra]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_seed_with_one_phrasing_is_fitted_on_only(tmp_path: Path) -> None:
    import yaml

    data = yaml.safe_load((HELDOUT / "clinic.yaml").read_text(encoding="utf-8"))
    more = yaml.safe_load((HELDOUT / "carservice.yaml").read_text(encoding="utf-8"))
    data["seeds"] += more["seeds"]
    data["seeds"][0]["question_paraphrases"] = data["seeds"][0]["question_paraphrases"][:1]
    seeds = tmp_path / "seeds.yaml"
    seeds.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    argv = ["bench", "gate", "--seeds", str(seeds), "--embedder", "hashing", "--draws", "2"]
    argv += ["--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "o")]
    assert main([*argv, "--questions", "asked"]) == 0
    rep = json.loads((tmp_path / "o" / "report.json").read_text(encoding="utf-8"))
    evaluated = len(data["seeds"]) - 1  # the first seed has no second phrasing
    assert rep["p1q_pairs"] == 2 * evaluated
    md = (tmp_path / "o" / "report.md").read_text(encoding="utf-8")
    assert f"beside ({2 * evaluated} pairs)" in md


def test_a_report_folder_that_cannot_be_made_ends_the_command_before_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    argv = ["bench", "gate", "--seeds", str(HELDOUT), "--embedder", "hashing", "--draws", "1"]
    argv += ["--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "afile" / "o")]
    assert main(argv) == 2
    assert "cannot write the report folder" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()  # nothing was embedded


def test_too_few_pairs_to_fit_on_is_one_line_before_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three seeds at one draw give 6 P1/P5 pairs, fewer than the cross-validated fit
    needs: one line naming the count and what to do, before anything is embedded."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "clinic.yaml").write_bytes((HELDOUT / "clinic.yaml").read_bytes())
    n = len(load_seeds(seeds))
    argv = ["bench", "gate", "--seeds", str(seeds), "--embedder", "hashing", "--draws", "1"]
    argv += ["--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "o")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{2 * n} P1/P5 pairs to fit the calibrated gate on ({n} seeds, --draws 1)" in err
    assert "needs at least 10: add seeds or raise --draws" in err
    assert not (tmp_path / "c").exists()  # nothing was embedded
