"""``cargo-monitor bench`` on a domain that is not in this repository."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "pipelines.cli", "bench"]

LIBRARY_SEEDS = """
seeds:
  - id: loan_due
    intent: loan_due_date
    agent: circulation
    question: "When is the book with barcode {barcode} due back?"
    answer: "The book with barcode {barcode} is due on {dueDate}. Late returns cost {fee} per day."
    parameters:
      barcode: {type: alnum, length: 8, label: barcode}
      dueDate: {type: date, start: "2026-01-01", end: "2026-12-31", label: due date}
      fee: {type: money, min: 0.1, max: 2, currency: EUR, label: late fee}
    golden: {barcode: "LB4471X2", dueDate: "2026-03-01", fee: "0.50 EUR"}
    observed_fields: [barcode, dueDate]
    extra_fields:
      branch: {type: enum, values: ["Central", "Harbour", "Hillside"], label: Branch}
      renewals: {type: integer, min: 0, max: 3, label: Renewals used}
    steps: ["Late returns cost {fee} per day."]
    policy_alternatives: [{from: "per day", to: "per week"}]
    paraphrases:
      - "Barcode {barcode} must be returned by {dueDate}; the late fee is {fee} per day."
      - "Please return {barcode} by {dueDate}. Each late day costs {fee}."
  - id: hold_policy
    intent: hold_request
    agent: circulation
    question: "How do I place a hold on item {barcode}?"
    answer: >-
      Sign in to your library account and select Place Hold on item {barcode}.
      You must collect the item within 7 days of the pickup notice.
      Holds can be cancelled at any time before pickup.
    parameters:
      barcode: {type: alnum, length: 8, label: item}
    golden: {barcode: "HX0098QZ"}
    observed_fields: [barcode]
    extra_fields:
      queue: {type: integer, min: 1, max: 20, label: Queue position}
      notified: {type: date, label: Notified}
    steps:
      - "Sign in to your library account and select Place Hold on item {barcode}."
      - "You must collect the item within 7 days of the pickup notice."
    negations: []
    policy_alternatives: [{from: "within 7 days", to: "within 30 days"}]
    paraphrases:
      - >-
        To hold {barcode}, sign in and choose Place Hold. Collect it within 7 days of the
        pickup notice; holds can be cancelled any time before pickup.
      - >-
        Place Hold on {barcode} from your library account. Pick the item up within 7 days
        of the notice. You can cancel a hold before pickup.
"""


def test_generate_and_run_on_a_foreign_domain(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "library.yaml").write_text(LIBRARY_SEEDS, encoding="utf-8")
    out1, out2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (out1, out2):
        gen = subprocess.run(
            [
                *CLI,
                "generate",
                "--seeds",
                str(seeds),
                "--out",
                str(out),
                "--draws",
                "4",
                "--gen-seed",
                "11",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert gen.returncode == 0, gen.stderr + gen.stdout
    assert out1.read_bytes() == out2.read_bytes()

    report = tmp_path / "r.json"
    md = tmp_path / "r.md"
    run = subprocess.run(
        [
            *CLI,
            "run",
            "--instances",
            str(out1),
            "--judge",
            "structural",
            "--judge",
            "always-penalize",
            "--judge",
            "never-penalize",
            "--embedder",
            "hashing",
            "--json",
            str(report),
            "--markdown",
            str(md),
            "--bootstrap",
            "500",
            "--cache-dir",
            str(tmp_path / "cache"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr + run.stdout
    data = json.loads(report.read_text())
    for name in ("structural", "always-penalize", "never-penalize"):
        r = data["judges"][name]
        assert set(r["families"]) == {"P1", "P2", "P3", "P4", "P6"}
        for key in ("tp", "fp", "di", "di_ci", "p4_by_type", "p3_by_split", "errors", "gate"):
            assert key in r
        assert set(r["gate"]) == {"fixed", "margin", "calibrated"}
        for g in ("fixed", "margin"):
            assert {"p1_accept", "p5_reject"} <= set(r["gate"][g])
    assert data["judges"]["always-penalize"]["di"] == 0.0
    assert data["judges"]["never-penalize"]["di"] == 0.0
    assert data["judges"]["structural"]["families"]["P2"]["rate"] == 1.0
    assert len(data["paired"]) == 3
    assert "| structural |" in md.read_text()
    assert "DI [95% CI]" in run.stdout


def test_run_straight_from_seeds_and_clear_errors(tmp_path: Path) -> None:
    seeds = tmp_path / "library.yaml"
    seeds.write_text(LIBRARY_SEEDS, encoding="utf-8")
    run = subprocess.run(
        [*CLI, "run", "--seeds", str(seeds), "--embedder", "hashing", "--bootstrap", "200"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    bad = subprocess.run(
        [*CLI, "run", "--instances", str(tmp_path / "missing.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2 and "instances file not found" in bad.stderr
    judge = subprocess.run(
        [*CLI, "run", "--seeds", str(seeds), "--judge", "oracle", "--embedder", "hashing"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert judge.returncode == 2 and "unknown judge 'oracle'" in judge.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    none = subprocess.run(
        [*CLI, "generate", "--seeds", str(empty), "--out", str(tmp_path / "x.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert none.returncode == 2 and "no *.yaml seed files" in none.stderr
    # An output that cannot be written is refused before the run, in one line.
    folder = subprocess.run(
        [*CLI, "run", "--seeds", str(seeds), "--embedder", "hashing", "--items", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert folder.returncode == 2, folder.stderr
    assert "cannot write the items file" in folder.stderr and "Traceback" not in folder.stderr
    zero = subprocess.run(
        [*CLI, "run", "--seeds", str(seeds), "--draws", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert zero.returncode == 2 and "at least 1 draw per seed" in zero.stderr


def test_llm_conditions_give_the_papers_table_layout(tmp_path: Path) -> None:
    from tests.support.chat_server import Reply, scripted_server, verdict_json

    seeds = tmp_path / "library.yaml"
    seeds.write_text(LIBRARY_SEEDS, encoding="utf-8")
    report, md = tmp_path / "r.json", tmp_path / "r.md"
    # A harsh scripted judge: it penalises everything, so DI must come out as exactly 0.
    with scripted_server(Reply(content=verdict_json(0.2), usage=(200, 40))) as server:
        run = subprocess.run(
            [
                *CLI,
                "run",
                "--seeds",
                str(seeds),
                "--draws",
                "1",
                "--embedder",
                "hashing",
                "--bootstrap",
                "200",
                "--judge",
                "llm",
                "--condition",
                "cargo",
                "--condition",
                "direct",
                "--condition",
                "cargo_unv",
                "--repeats",
                "3",
                "--judge-base-url",
                server.url,
                "--judge-model",
                "scripted",
                "--judge-price-input",
                "1.0",
                "--json",
                str(report),
                "--markdown",
                str(md),
                "--cache-dir",
                str(tmp_path / "cache"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert run.returncode == 0, run.stderr + run.stdout
        data = json.loads(report.read_text())
        assert set(data["judges"]) == {"llm:cargo", "llm:direct", "llm:cargo_unv"}
        items = data["judges"]["llm:cargo"]["items"]
        assert len(server.requests) == 3 * 3 * items
        seeds_sent = Counter(s.body["seed"] for s in server.requests)
        assert set(seeds_sent) == {0, 1, 2} and len(set(seeds_sent.values())) == 1
    for r in data["judges"].values():
        assert r["di"] == 0.0 and r["families"]["P1"]["rate"] == 1.0
        assert r["usage"]["input_tokens"] == 200 * 3 * items
        assert r["usage"]["cost_usd"] == pytest.approx(0.2 * 3 * items)
    text = md.read_text()
    assert "Table 1 — headline conditions" in text and "Table 2 — component ablations" in text
    assert "| llm:cargo_unv |" in text.split("Table 2")[1]

    swap = subprocess.run(
        [
            *CLI,
            "run",
            "--seeds",
            str(seeds),
            "--draws",
            "1",
            "--embedder",
            "hashing",
            "--bootstrap",
            "200",
            "--judge",
            "llm",
            "--condition",
            "direct",
            "--rubric",
            "reference_grounded",
            "--rubric",
            "context_grounded",
            "--judge-base-url",
            "http://127.0.0.1:9/v1",
            "--judge-model",
            "x",
            "--judge-max-retries",
            "0",
            "--markdown",
            str(md),
            "--cache-dir",
            str(tmp_path / "cache"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert swap.returncode == 0, swap.stderr + swap.stdout
    text = md.read_text()
    assert "Table 3 — rubric swap" in text
    assert "| direct | context_grounded |" in text
    assert "connection" in text  # every call failed: counted by kind, no invented rates


def _cli(*args: str, timeout: int = 60) -> subprocess.CompletedProcess[str]:
    """``cargo-monitor bench ARGS``, its output captured."""
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def _library_run(tmp_path: Path, *out: str) -> Path:
    """A small real ``bench run`` of the library seeds (two draws, hashing embedder)
    writing ``out`` (``--items F``, ``--json F``); the seeds' path."""
    seeds = tmp_path / "library.yaml"
    seeds.write_text(LIBRARY_SEEDS, encoding="utf-8")
    run = _cli(
        "run",
        "--seeds",
        str(seeds),
        "--draws",
        "2",
        "--embedder",
        "hashing",
        "--bootstrap",
        "200",
        *out,
        "--cache-dir",
        str(tmp_path / "c"),
        timeout=300,
    )
    assert run.returncode == 0, run.stderr + run.stdout
    return seeds


def test_diff_of_two_items_runs(tmp_path: Path) -> None:
    """``bench diff`` on the rows of a real ``bench run --items``: the same run twice
    moves nothing; a later run whose decisions differ (here the same file with two
    decisions turned around, one right and one wrong before) lists exactly those two,
    broken first, and ``--fail-on-broken`` turns a break into exit status 1."""
    old = tmp_path / "old.jsonl"
    _library_run(tmp_path, "--items", str(old))
    rows = [json.loads(line) for line in old.read_text().splitlines()]
    same = _cli("diff", str(old), str(old), "--fail-on-broken")
    assert same.returncode == 0, same.stderr + same.stdout
    assert f"{len(rows)} items in both runs: 0 fixed, 0 broken" in same.stdout

    right = next(r for r in rows if r["correct"] is True)
    wrong = next((r for r in rows if r["correct"] is False), None)
    flipped = [right] + ([wrong] if wrong else [])
    for r in flipped:
        r["penalized"] = not r["penalized"]
    new = tmp_path / "new.jsonl"
    new.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    report = tmp_path / "diff.json"
    moved = _cli("diff", str(old), str(new), "--json", str(report), "--fail-on-broken")
    assert moved.returncode == 1, moved.stderr + moved.stdout
    data = json.loads(report.read_text())
    assert [(m["id"], m["kind"]) for m in data["moves"]] == [
        (right["id"], "broken"),
        *([(wrong["id"], "fixed")] if wrong else []),
    ]
    lines = [x for x in moved.stdout.splitlines() if x.startswith(("broken", "fixed"))]
    assert lines[0].startswith(f"broken    structural {right['id']}")
    assert len(lines) == len(flipped)
    without = _cli("diff", str(old), str(new))
    assert without.returncode == 0, without.stderr + without.stdout


def test_table_of_real_reports(tmp_path: Path) -> None:
    """``bench table`` on a real ``bench run --json``: its figures are the report's own
    (P6 and DI as the run wrote them), two labelled copies make a group row, and a file
    that is not a report is a one-line error (exit 2)."""
    report = tmp_path / "run.json"
    seeds = _library_run(tmp_path, "--json", str(report))
    s = json.loads(report.read_text())["judges"]["structural"]
    out = tmp_path / "table.md"
    table = _cli("table", f"a={report}", f"b={report}", "--group", "both=a,b", "--out", str(out))
    assert table.returncode == 0, table.stderr + table.stdout
    lines = out.read_text().splitlines()
    assert [ln.split(" | ")[0] for ln in lines[3:]] == [
        f"| a ({s['items']:,})",
        f"| b ({s['items']:,})",
        f"| both ({s['items']:,})",
    ]
    p6 = f"{s['families']['P6']['rate']:.2f}".removeprefix("0")
    di = f"{s['di']:+.2f} [{s['di_ci'][0]:+.2f}, {s['di_ci'][1]:+.2f}]"
    a_cells = lines[3].split(" | ")
    assert a_cells[3].strip("*") == p6
    assert a_cells[9].rstrip(" |").strip("*") == di
    assert lines[3].split(" | ")[1:] == lines[4].split(" | ")[1:]
    bad = _cli("table", str(seeds))
    assert bad.returncode == 2
    assert "not a 'bench run --json' report" in bad.stderr
