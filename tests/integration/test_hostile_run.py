"""``cargo-monitor run`` on the hostile corpus (tests/data/hostile, the large cases
generated here): exit 0, one outcome per input line, each the one the corpus expects;
the same through stdin."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

CLI = [sys.executable, "-m", "pipelines.cli"]
HOSTILE = Path(__file__).resolve().parents[1] / "data" / "hostile"

pytestmark = pytest.mark.integration


def _corpus() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_corpus", HOSTILE / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _run(
    tmp_path: Path, source: Path, *extra: str, stdin: bool
) -> tuple[int, str, list[dict[str, object]]]:
    out = tmp_path / ("stdin.jsonl" if stdin else "file.jsonl")
    args = [
        *CLI,
        "run",
        "--input",
        "-" if stdin else str(source),
        "--output",
        str(out),
        "--embedder",
        "hashing",
        "--metrics-port",
        "0",
        "--no-progress",
        "--cache-dir",
        str(tmp_path / "cache"),
        *extra,
    ]
    with source.open("rb") as fh:
        proc = subprocess.run(
            args,
            stdin=fh if stdin else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env={**os.environ, "HF_HUB_OFFLINE": "1"},
            timeout=600,
            check=False,
        )
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    return proc.returncode, proc.stdout + proc.stderr, rows


@pytest.mark.parametrize("stdin", [False, True], ids=["file", "stdin"])
def test_run_gives_every_hostile_line_its_outcome(tmp_path: Path, stdin: bool) -> None:
    corpus = _corpus()
    cases = [*corpus.small_cases(), *corpus.large_cases()]
    source = tmp_path / "hostile.jsonl"
    corpus.write(source, cases)
    rc, log, rows = _run(tmp_path, source, stdin=stdin)
    assert rc == 0, log[-3000:]
    inputs = {n: c for n, c in enumerate(cases, start=1) if c.expect != "skip"}
    by_line = {r["source"]["line"]: r for r in rows}  # type: ignore[index]
    assert len(rows) == len(inputs) == len(by_line)  # outcomes = inputs
    assert set(by_line) == set(inputs)
    for n, case in inputs.items():
        row = by_line[n]
        got = "ok" if row["status"] != "invalid" else row["reason"]
        assert got == case.expect or (case.expect == "schema" and got in corpus.SCHEMA_REASONS), (
            case.name,
            row["status"],
            row["reason"],
        )
        assert row["status"] != "judge_error", (case.name, row.get("error"))
    statuses = Counter(str(r["status"]) for r in rows)
    assert statuses["invalid"] == sum(c.expect != "ok" for c in inputs.values())
    assert "run summary" in log and "Traceback" not in log


def test_the_limit_flags_reach_the_reader_and_the_decoder(tmp_path: Path) -> None:
    corpus = _corpus()
    cases = corpus.small_cases()
    source = tmp_path / "hostile.jsonl"
    corpus.write(source, cases)
    rc, log, rows = _run(tmp_path, source, "--max-payload-bytes", "3000", stdin=False)
    assert rc == 0, log[-3000:]
    inputs = {n: c for n, c in enumerate(cases, start=1) if c.expect != "skip"}
    by_line = {r["source"]["line"]: r for r in rows}  # type: ignore[index]
    assert set(by_line) == set(inputs)
    big = {n for n, c in inputs.items() if len(c.line.rstrip(b"\r")) > 3000}
    assert big  # several corpus lines are over 3,000 bytes
    assert {n for n, r in by_line.items() if r["reason"] == "too_large"} == big
