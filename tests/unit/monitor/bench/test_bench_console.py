"""What ``bench run`` prints: the families the seeds could not build and why, a DI over
fewer families marked as such, and the gate table of the JSON/Markdown report."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from monitor.bench.seeds import load_seeds
from monitor.data import BENCH_DIR
from pipelines.cli import main

NOT_BUILT = (
    "Not built: P4 — no seed has steps, negations or policy_alternatives; "
    "P5 — needs seeds of at least two intents."
)


def _run(tmp_path: Path, seeds: Path, *extra: str) -> None:
    args = ["--seeds", str(seeds), "--draws", "1", "--embedder", "hashing"]
    args += ["--cache-dir", str(tmp_path / "cache"), "--bootstrap", "50", *extra]
    assert main(["bench", "run", *args]) == 0


def _one_seed(tmp_path: Path) -> Path:
    """g_case of the bundled seeds alone: one intent (no P5), no steps (no P4)."""
    seed = next(s for s in load_seeds(BENCH_DIR / "entities.yaml") if s.id == "g_case")
    path = tmp_path / "one.yaml"
    doc = {"seeds": [seed.model_dump(mode="json", by_alias=True, exclude_defaults=True)]}
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return path


def test_one_seed_says_what_was_not_built_and_marks_the_di(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md = tmp_path / "r.md"
    _run(tmp_path, _one_seed(tmp_path), "--markdown", str(md))
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert NOT_BUILT in lines
    row = next(x for x in lines if x.startswith("│ structural"))
    assert "+1.00 [+1.00, +1.00] without P4 │" in row
    # The gate table, its pair counts in the title; the calibrated gate says why it is absent.
    assert "Gate (embedder hashing-384): 1 P1, 0 P5 pairs" in out
    gate = {x.split("│")[1].strip(): x for x in lines if x.startswith("│ ") and "│" in x[2:]}
    assert [c.strip() for c in gate["fixed"].split("│")[2:5]] == ["1.00", "—", ""]
    assert "not fitted: no P5 pairs (needs seeds of at least two intents)" in gate["calibrated"]
    # The Markdown report says the same.
    text = md.read_text(encoding="utf-8")
    assert f"\n{NOT_BUILT}\n" in text and "+1.00 [+1.00, +1.00] without P4 |" in text


def test_every_family_built_prints_no_note_and_a_plain_di(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(tmp_path, BENCH_DIR)
    out = capsys.readouterr().out
    assert "Not built" not in out and "without" not in out
    # P4 by sub-type and P3 by split, as the Markdown report has them.
    assert "P4 by sub-type and P3 by split (rate, n)" in out
    heads = next(x for x in out.splitlines() if "P4 delete_step" in x)
    assert [h.strip() for h in heads.split("┃")[1:-1]] == [
        "judge",
        "P4 delete_step ↑",
        "P4 negate ↑",
        "P4 swap_policy ↑",
        "P3 unobserved ↓",
        "P3 fabricated ↓",
    ]
    assert "Gate (embedder hashing-384): 11 P1, 11 P5 pairs" in out
    heads = next(x for x in out.splitlines() if "P1 accept" in x)
    assert [h.strip() for h in heads.split("┃")[1:-1]] == [
        "gate",
        "P1 accept",
        "P5 reject",
        "note",
    ]
    assert "isotonic, 2-fold by seed, gamma 0.8" in out


def test_question_paraphrases_add_the_p1q_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = next(s for s in load_seeds(BENCH_DIR / "entities.yaml") if s.id == "g_case")
    doc = seed.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    doc["question_paraphrases"] = ["where is my case {caseNumber} at?", "any news on my case?"]
    path = tmp_path / "asked.yaml"
    path.write_text(yaml.safe_dump({"seeds": [doc]}, allow_unicode=True), encoding="utf-8")
    _run(tmp_path, path)
    out = capsys.readouterr().out
    assert "Gate (embedder hashing-384): 1 P1, 0 P5, 2 P1q pairs" in out
    heads = next(x for x in out.splitlines() if "P1 accept" in x)
    assert [h.strip() for h in heads.split("┃")[1:-1]] == [
        "gate",
        "P1 accept",
        "P1q accept",
        "P5 reject",
        "note",
    ]
