"""``cargo-monitor run --judge llm | hybrid`` against a scripted endpoint over real HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from monitor.settings import DEFAULT_SAMPLES
from tests.support.chat_server import Reply, scripted_server, verdict_json

CLI = [sys.executable, "-m", "pipelines.cli"]
SECRET = "sk-cli-secret-7777"


def sample_lines(n: int) -> list[str]:
    lines = [x for x in DEFAULT_SAMPLES.read_text().splitlines() if x.strip()]
    return lines[:n]


def run_cli(
    tmp_path: Path, url: str, *extra: str
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, object]]]:
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(sample_lines(40)) + "\n", encoding="utf-8")
    out = tmp_path / "judgments.jsonl"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "CARGO_JUDGE_API_KEY": SECRET}
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
            "0.3",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--judge-base-url",
            url,
            "--judge-model",
            "scripted",
            "--judge-price-input",
            "1.0",
            *extra,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
    )
    rows = [json.loads(x) for x in out.read_text().splitlines()] if out.exists() else []
    return proc, rows


def test_run_with_llm_judge_records_every_outcome(tmp_path: Path) -> None:
    with scripted_server(
        Reply(content=verdict_json(0.9)), Reply(content="garbage"), Reply(content=verdict_json(0.2))
    ) as server:
        proc, rows = run_cli(tmp_path, server.url, "--judge", "llm", "--judge-max-concurrency", "1")
    assert proc.returncode == 0, proc.stderr
    assert len(rows) == 40
    status = Counter(r["status"] for r in rows)
    evaluated = [r for r in rows if r["status"] == "evaluated"]
    assert status["judge_error"] == 1 and evaluated
    err = next(r for r in rows if r["status"] == "judge_error")
    assert err["error"]["kind"] == "unparseable" and err["scores"]["correctness"] is None
    assert all(r["llm"]["model"] == "scripted" and r["judge"]["name"] == "llm" for r in evaluated)
    assert len(server.requests) == status["evaluated"] + status["judge_error"]
    assert all(s.headers["authorization"] == f"Bearer {SECRET}" for s in server.requests)
    blob = proc.stdout + proc.stderr + "\n".join(json.dumps(r) for r in rows)
    assert SECRET not in blob
    assert "LLM calls" in proc.stdout and "LLM estimated cost" in proc.stdout


def test_run_with_hybrid_judge_samples_deterministically(tmp_path: Path) -> None:
    with scripted_server(Reply(content=verdict_json(0.95))) as server:
        proc, rows = run_cli(
            tmp_path, server.url, "--judge", "hybrid", "--judge-sample-rate", "0.5"
        )
    assert proc.returncode == 0, proc.stderr
    evaluated = [r for r in rows if r["status"] == "evaluated"]
    sampled = [r for r in evaluated if r["llm"]["sampled"]]
    skipped = [r for r in evaluated if not r["llm"]["sampled"]]
    assert sampled and skipped and len(server.requests) == len(sampled)
    from monitor.judges.hybrid import TraceSampler

    assert all(TraceSampler.position(str(r["trace_id"])) < 0.5 for r in sampled)
    assert all(TraceSampler.position(str(r["trace_id"])) >= 0.5 for r in skipped)
    assert all(r["scores"]["helpfulness"] is None for r in skipped)
    assert all(r["scores"]["helpfulness"] == 0.7 for r in sampled)


@pytest.mark.parametrize("judge", ["llm", "hybrid"])
def test_llm_judge_without_endpoint_is_a_clear_error(tmp_path: Path, judge: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARGO_JUDGE")}
    proc = subprocess.run(
        [
            *CLI,
            "run",
            "--judge",
            judge,
            "--embedder",
            "hashing",
            "--metrics-port",
            "0",
            "--output",
            str(tmp_path / "o.jsonl"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert "CARGO_JUDGE_BASE_URL" in proc.stderr
