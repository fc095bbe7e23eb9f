"""End to end: ``cargo-monitor run`` as a subprocess, metrics scraped over HTTP."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from monitor.settings import DEFAULT_SAMPLES

CLI = [sys.executable, "-m", "pipelines.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def total(
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str
) -> float:
    return sum(
        v
        for (n, lab), v in samples.items()
        if n == name and all(dict(lab).get(k) == x for k, x in labels.items())
    )


@pytest.mark.integration
def test_run_on_sample_traffic_serves_metrics_that_agree_with_judgments(tmp_path: Path) -> None:
    lines = [x for x in DEFAULT_SAMPLES.read_text().splitlines() if x.strip()]
    out = tmp_path / "judgments.jsonl"
    port = free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen(
        [
            *CLI,
            "run",
            "--output",
            str(out),
            "--metrics-port",
            str(port),
            "--keep-serving",
            "--no-progress",
            "--cache-dir",
            str(tmp_path / "cache"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 240
        samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                samples = scrape(port)
            except OSError:
                time.sleep(0.5)
                continue
            if total(samples, "cargo_traces_total") >= len(lines):
                break
            time.sleep(0.5)
        judgments = [json.loads(x) for x in out.read_text().splitlines()]
    finally:
        proc.send_signal(signal.SIGINT)
        stdout, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, stdout
    assert "run summary" in stdout and "coverage" in stdout

    # Exactly one judgment per input line.
    assert len(judgments) == len(lines)
    status = Counter(j["status"] for j in judgments)
    for s in ("evaluated", "abstained", "judge_error", "invalid"):
        assert total(samples, "cargo_traces_total", status=s) == status[s]
    assert status["evaluated"] > 0 and status["abstained"] > 0 and status["invalid"] > 0

    # Counters agree with the judgments file.
    penalized = sum(1 for j in judgments if j["penalized"])
    assert total(samples, "cargo_judgments_total", penalized="true") == penalized
    # Each penalty counted once, under what it rests on: the sample's penalised
    # judgments carry no uncertain verdict, so all rest on settled evidence.
    assert total(samples, "cargo_penalties_total") == penalized
    assert not [
        j
        for j in judgments
        if j["penalized"] and any(v.get("uncertain") for v in j["claims"] + j["steps"])
    ]
    assert total(samples, "cargo_penalties_total", evidence="settled") == penalized
    # ... and each penalised judgment says so itself; a pass carries no such field.
    assert {j.get("penalty_evidence") for j in judgments if j["penalized"]} == {"settled"}
    assert not [j for j in judgments if not j["penalized"] and "penalty_evidence" in j]
    contradicted = Counter()
    for j in judgments:
        for c in j["claims"]:
            if c["status"] == "contradicted":
                contradicted[j["gate"]["intent"]] += 1
    for intent, n in contradicted.items():
        assert total(samples, "cargo_contradictions_total", intent=intent) == n
    findings = Counter(
        f["category"] for j in judgments if j.get("citations") for f in j["citations"]["findings"]
    )
    assert len(findings) == 7  # the sample traffic has every citation-contract defect
    for category, n in findings.items():
        assert total(samples, "cargo_citation_findings_total", category=category) == n
    assert "citation coverage" in stdout
    assert outcome_free_of_citation_penalties(judgments)
    reasons = Counter(j["reason"] for j in judgments if j["status"] == "abstained")
    for reason, n in reasons.items():
        assert (
            total(samples, "cargo_gate_decisions_total", decision="abstained", reason=reason) == n
        )

    # Invalid lines carry their line number and reason.
    invalid = [j for j in judgments if j["status"] == "invalid"]
    by_line = {n: x for n, x in enumerate(DEFAULT_SAMPLES.read_text().splitlines(), 1)}
    for j in invalid:
        assert j["source"]["line"] in by_line and j["reason"]

    # Construction labels of the sample traffic are honoured.
    kinds = {}
    for raw in lines:
        try:
            d = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(d, dict) and isinstance(d.get("metadata"), dict) and "trace_id" in d:
            kinds[d["trace_id"]] = d["metadata"]["sample_kind"]
    outcome = Counter((kinds.get(j["trace_id"]), j["status"], j["penalized"]) for j in judgments)
    assert outcome[("contradiction", "evaluated", True)] >= 25
    assert outcome[("correct", "evaluated", True)] == 0
    assert outcome[("unverifiable_extra", "evaluated", True)] == 0
    assert outcome[("policy", "evaluated", True)] == 0
    assert sum(n for (k, s, _), n in outcome.items() if k == "off_topic" and s != "abstained") == 0


def outcome_free_of_citation_penalties(judgments: list[dict[str, object]]) -> bool:
    """The citation contract is reported beside the Cargo verdict; it does not penalise."""
    return not any(j["penalized"] for j in judgments if j.get("citations"))


def test_stdin_to_stdout_one_judgment_per_line() -> None:
    traces = [
        json.dumps(
            {
                "trace_id": "a",
                "question": "What is the status of case 171056262?",
                "answer": "Case 171056262 is currently Open.",
                "context": {"caseNumber": "171056262"},
            }
        ),
        "not json at all",
        "",
        json.dumps({"trace_id": "c", "question": "Q", "answer": 5}),
    ]
    proc = subprocess.run(
        [
            *CLI,
            "run",
            "--input",
            "-",
            "--output",
            "-",
            "--metrics-port",
            "0",
            "--embedder",
            "hashing",
            "--no-progress",
        ],
        input="\n".join(traces) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [(r["status"], r["source"]["line"]) for r in rows] == [
        ("evaluated", 1),
        ("invalid", 2),
        ("invalid", 4),
    ]
    assert rows[2]["invalid_field"] == "answer" and rows[2]["trace_id"] == "c"
    assert "run summary" in proc.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "--golden", "/nope.yaml"], "file not found"),
        (["run", "--input", "/nope.jsonl", "--embedder", "hashing"], "input file not found"),
        (["run", "--gate", "calibrated", "--embedder", "hashing"], "needs a model file"),
        (["run", "--judge", "oracle", "--embedder", "hashing"], "unknown judge"),
        (["validate-golden", "/nope.yaml"], "file not found"),
    ],
)
def test_cli_errors_are_clear(args: list[str], message: str) -> None:
    proc = subprocess.run(
        [*CLI, *args, "--metrics-port", "0"] if args[0] == "run" else [*CLI, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert message in proc.stderr


def test_port_in_use_is_a_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = subprocess.run(
            [*CLI, "run", "--metrics-port", str(port), "--embedder", "hashing", "--no-progress"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert proc.returncode == 2 and "cannot serve metrics" in proc.stderr


def test_fit_gate_then_run_with_the_calibrated_gate(tmp_path: Path) -> None:
    rows = tmp_path / "labels.jsonl"
    rows.write_text(
        "\n".join(
            json.dumps(
                {"similarity": s / 100, "margin": 0.1, "intent": "x", "appropriate": s >= 70}
            )
            for s in range(30, 100, 2)
        )
        + "\n"
    )
    model = tmp_path / "gate.json"
    fit = subprocess.run(
        [*CLI, "fit-gate", "--labels", str(rows), "--out", str(model)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert fit.returncode == 0, fit.stderr
    assert json.loads(model.read_text())["method"] == "isotonic"
    trace = json.dumps(
        {
            "trace_id": "a",
            "question": "What is the status of case 171056262?",
            "answer": "Case 171056262 is currently Open.",
        }
    )
    run = subprocess.run(
        [
            *CLI,
            "run",
            "--input",
            "-",
            "--output",
            "-",
            "--metrics-port",
            "0",
            "--embedder",
            "hashing",
            "--gate",
            "calibrated",
            "--gate-model",
            str(model),
            "--no-progress",
        ],
        input=trace + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    gate = json.loads(run.stdout)["gate"]
    assert gate["kind"] == "calibrated" and gate["probability"] == 1.0
    assert gate["status"] == "accepted"
