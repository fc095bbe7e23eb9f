"""End to end against a real small model (marker ``llm``): llama-cpp-python's
OpenAI-compatible server with SmolLM2-135M-Instruct (``deploy/llm/smollm2``).

The model is far too weak to judge; these tests assert plumbing and error
accounting only: one judgment per trace, real token usage, a score only when the
output met the contract, every failure recorded with a bounded kind.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from monitor.errors import JudgeError
from monitor.settings import DEFAULT_SAMPLES
from tests.conftest import REPO

pytestmark = [pytest.mark.llm, pytest.mark.integration]
SCRIPT = REPO / "deploy" / "llm" / "smollm2"
CLI = [sys.executable, "-m", "pipelines.cli"]


@pytest.fixture(scope="module")
def smollm2(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    venv = Path(os.environ.get("CARGO_LLM_VENV", REPO / ".venv-llm"))
    if not (venv / "bin" / "python").exists():
        pytest.skip(
            "the SmolLM2 server is not installed: run 'deploy/llm/smollm2 install' (make test does)"
        )
    if shutil.which("curl") is None:
        pytest.skip("curl is needed to wait for the server")
    run_dir = tmp_path_factory.mktemp("llm")
    env = {**os.environ, "CARGO_LLM_RUN_DIR": str(run_dir)}
    started = subprocess.run(
        [str(SCRIPT), "start", "18011"],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
        check=False,
    )
    assert started.returncode == 0, started.stderr + started.stdout
    try:
        yield started.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run([str(SCRIPT), "stop"], env=env, timeout=60, check=False)


def run(tmp_path: Path, url: str, judge: str) -> list[dict[str, object]]:
    lines = [x for x in DEFAULT_SAMPLES.read_text().splitlines() if x.strip()]
    picked = [lines[0], lines[1], '{"trace_id": "broken", "question": 1}']
    src = tmp_path / f"in-{judge}.jsonl"
    src.write_text("\n".join(picked) + "\n", encoding="utf-8")
    out = tmp_path / f"out-{judge}.jsonl"
    proc = subprocess.run(
        [
            *CLI,
            "run",
            "--input",
            str(src),
            "--output",
            str(out),
            "--metrics-port",
            "0",
            "--no-progress",
            "--embedder",
            "hashing",
            "--tau",
            "-1",
            "--judge",
            judge,
            "--judge-base-url",
            url,
            "--judge-model",
            "smollm2",
            "--judge-max-tokens",
            "384",
            "--judge-request-timeout",
            "240",
            "--judge-max-retries",
            "1",
            "--cache-dir",
            str(tmp_path / "cache"),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == len(picked)  # one judgment per line, the broken one included
    assert rows[-1]["status"] == "invalid"
    return rows[:-1]


def test_llm_judge_plumbing_and_error_accounting(smollm2: str, tmp_path: Path) -> None:
    for r in run(tmp_path, smollm2, "llm"):
        call = r["llm"]
        assert isinstance(call, dict) and call["model"] == "smollm2"
        assert call["usage"]["input_tokens"] > 0  # a real model answered and was metered
        if r["status"] == "evaluated":
            assert all(v is None or 0 <= v <= 1 for v in r["scores"].values())  # type: ignore[union-attr]
        else:
            assert r["status"] == "judge_error"
            assert r["error"]["kind"] in JudgeError.KINDS  # type: ignore[index]
            assert all(v is None for v in r["scores"].values())  # type: ignore[union-attr]


def test_hybrid_keeps_the_structural_verdict_whatever_the_model_says(
    smollm2: str, tmp_path: Path
) -> None:
    for r in run(tmp_path, smollm2, "hybrid"):
        assert r["status"] == "evaluated" and r["penalized"] is not None
        call = r["llm"]
        assert isinstance(call, dict) and call["sampled"] is True
        if call["error"] is not None:
            assert call["error"]["kind"] in JudgeError.KINDS
            assert r["scores"]["helpfulness"] is None  # type: ignore[index]
