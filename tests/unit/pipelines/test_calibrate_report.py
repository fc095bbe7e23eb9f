"""``cargo-monitor calibrate``, ``report`` and ``bench gate`` end to end (hashing embedder)."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from monitor.gate import load_gate_model
from monitor.golden import load_golden
from monitor.settings import DEFAULT_GOLDEN, DEFAULT_SAMPLES

CLI = [sys.executable, "-m", "pipelines.cli"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"},
    )


def synthetic_rows(n: int, seed: int = 3) -> list[dict[str, object]]:
    """Appropriateness that rises with similarity, noisy, two intents."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        s = rng.uniform(0.4, 1.0)
        m = rng.uniform(0.0, 0.3)
        p = 1 / (1 + math.exp(-(s - 0.75) * 25 - m * 5))
        rows.append(
            {
                "similarity": round(s, 4),
                "margin": round(m, 4),
                "intent": rng.choice(["case_status", "refund"]),
                "appropriate": int(rng.random() < p),
            }
        )
    return rows


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_calibrate_from_features_writes_a_model_that_round_trips(tmp_path: Path) -> None:
    labels = write_jsonl(tmp_path / "labels.jsonl", synthetic_rows(400))
    out, rep = tmp_path / "gate.json", tmp_path / "cal.json"
    r = cli(
        "calibrate",
        "--labels",
        str(labels),
        "--out",
        str(out),
        "--json",
        str(rep),
        "--set-validity",
        "0.9",
        "--validity",
        "0.8",
        "--validity",
        "0.9",
    )
    assert r.returncode == 0, r.stderr + r.stdout
    assert "Reliability" in r.stdout and "calibrated γ for validity" in r.stdout
    assert "fixed τ for coverage" in r.stdout and "margin τ, δ for validity" in r.stdout
    model = load_gate_model(out)
    data = json.loads(rep.read_text())
    assert model.method == data["method"]
    assert data["chosen_by"] == "lower out-of-fold log-loss"
    assert set(data["oof_log_loss"]) == {"isotonic", "logistic"}
    # gamma was set to the out-of-fold threshold reaching validity 0.9
    th = next(t for t in data["calibrated"] if t["target"] == 0.9)
    assert model.gamma == pytest.approx(th["threshold"]) and th["validity"] >= 0.9
    assert 0 <= data["ece"] < 0.2
    # The JSON round-trips: same probabilities after reload.
    again = load_gate_model(out)
    assert again == model
    assert again.probability(0.9, 0.1, "refund") == model.probability(0.9, 0.1, "refund")
    # Probabilities rise with similarity (isotonic or logistic alike).
    assert model.probability(0.95, 0.2, "refund") > model.probability(0.5, 0.0, "refund")


def test_calibrate_from_questions_embeds_against_the_golden_set(tmp_path: Path) -> None:
    golden = load_golden(DEFAULT_GOLDEN)
    rng = random.Random(5)
    rows: list[dict[str, object]] = []
    for item in golden.items:
        other = rng.choice([i for i in golden.items if i.intent != item.intent])
        rows.append({"question": item.question, "reference_id": item.id, "appropriate": 1})
        rows.append({"question": item.question, "reference_id": other.id, "appropriate": 0})
    labels = write_jsonl(tmp_path / "labels.jsonl", rows)
    r = cli(
        "calibrate",
        "--labels",
        str(labels),
        "--out",
        str(tmp_path / "g.json"),
        "--embedder",
        "hashing",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--method",
        "logistic",
    )
    assert r.returncode == 0, r.stderr + r.stdout
    model = load_gate_model(tmp_path / "g.json")
    assert model.method == "logistic" and model.fitted_rows == len(rows)
    assert model.embedding_model is not None


def test_a_reference_of_another_golden_set_names_the_set_read_and_the_flag(
    tmp_path: Path,
) -> None:
    """A newcomer labelled their own references and ran the documented command without
    ``--golden``: the bundled set was read and the error did not say so."""
    labels = write_jsonl(
        tmp_path / "labels.jsonl",
        [
            {
                "question": "Can I cancel berth VB48213?",
                "reference_id": "g_visitor_cancel",
                "appropriate": 1,
            }
        ],
    )
    r = cli(
        "calibrate",
        "--labels",
        str(labels),
        "--out",
        str(tmp_path / "g.json"),
        "--embedder",
        "hashing",
        "--cache-dir",
        str(tmp_path / "cache"),
    )
    assert r.returncode == 2, r.stderr
    version = load_golden(DEFAULT_GOLDEN).version
    assert (
        f"labels.jsonl:1: reference_id 'g_visitor_cancel' is not in the golden set (version "
        f"{version}, " in r.stderr
    )
    assert "give the set the labels name with --golden FILE" in r.stderr
    assert not (tmp_path / "g.json").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '{"similarity": 0.9, "appropriate": 1}\n{"similarity": 0.8}\n',
            "labels.jsonl:2: appropriate",
        ),
        ('{"similarity": 0.9, "appropriate": 1}\n\n{oops\n', "labels.jsonl:3: not JSON"),
        ('{"appropriate": 1}\n', "labels.jsonl:1: "),
        (
            '{"question": "q", "reference_id": "nope", "appropriate": 1}\n',
            "labels.jsonl:1: reference_id",
        ),
        ('{"trace_id": "t1", "appropriate": 1}\n', "labels.jsonl:1: row has only 'trace_id'"),
    ],
)
def test_bad_label_files_name_the_line(tmp_path: Path, content: str, message: str) -> None:
    labels = tmp_path / "labels.jsonl"
    labels.write_text(content, encoding="utf-8")
    r = cli(
        "calibrate",
        "--labels",
        str(labels),
        "--out",
        str(tmp_path / "g.json"),
        "--embedder",
        "hashing",
        "--cache-dir",
        str(tmp_path / "cache"),
    )
    assert r.returncode == 2 and message in r.stderr, r.stderr


@pytest.fixture(scope="module")
def open_gate_judgments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample traffic judged with the gate open (tau -1): every trace has a verdict."""
    tmp = tmp_path_factory.mktemp("report")
    out = tmp / "judgments.jsonl"
    r = cli(
        "run",
        "--output",
        str(out),
        "--metrics-port",
        "0",
        "--no-progress",
        "--embedder",
        "hashing",
        "--tau",
        "-1",
        "--cache-dir",
        str(tmp / "cache"),
    )
    assert r.returncode == 0, r.stderr
    return out


def expert_labels(judgments: Path) -> list[dict[str, object]]:
    """Labels as experts would give them, from the sample traffic's construction."""
    kinds = {}
    for line in DEFAULT_SAMPLES.read_text().splitlines():
        try:
            d = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(d, dict) and "trace_id" in d and isinstance(d.get("metadata"), dict):
            kinds[d["trace_id"]] = d["metadata"]["sample_kind"]
    rows: list[dict[str, object]] = []
    for line in judgments.read_text().splitlines():
        j = json.loads(line)
        kind = kinds.get(j["trace_id"])
        if kind is None or j["gate"] is None:
            continue
        bad = kind == "contradiction"
        rows.append(
            {
                "trace_id": j["trace_id"],
                "expert_penalized": int(bad),
                "failure": int(bad),
                "appropriate": int(kind != "off_topic"),
            }
        )
    return rows


def test_report_with_labels_writes_markdown_json_plots_and_html(
    open_gate_judgments: Path, tmp_path: Path
) -> None:
    labels = write_jsonl(tmp_path / "labels.jsonl", expert_labels(open_gate_judgments))
    out = tmp_path / "rep"
    r = cli(
        "report",
        "--judgments",
        str(open_gate_judgments),
        "--labels",
        str(labels),
        "--out",
        str(out),
        "--coverage",
        "0.5",
        "--coverage",
        "0.9",
    )
    assert r.returncode == 0, r.stderr + r.stdout
    data = json.loads((out / "report.json").read_text())
    sel = data["selective"]
    assert sel["with_loss"] > 250
    gates = sel["gates"]
    assert {"fixed (s*)", "margin (s*, Δ ≥ 0.02)"} <= set(gates)
    m = sel["with_loss"]
    oracle = [v for _, v in sel["oracle"]["expected_curve"]]
    for g in gates.values():
        assert 0 <= g["aurc"] <= 1 and g["aurc"] >= sel["oracle"]["aurc"] - 1e-12
        assert set(g["at"]) == {"0.5", "0.9"}
        # The plotted curve spans the whole coverage range, one point per trace, and its
        # mean is the AURC in the legend; the oracle is below it everywhere.
        cov = [c for c, _ in g["expected_curve"]]
        risk = [r for _, r in g["expected_curve"]]
        assert len(cov) == m and cov[0] == pytest.approx(1 / m, abs=1e-6) and cov[-1] == 1.0
        assert sum(risk) / m == pytest.approx(g["aurc"], abs=1e-5)
        assert all(o <= r + 1e-6 for o, r in zip(oracle, risk, strict=True))
        assert risk[-1] == pytest.approx(sel["random"]["risk"], abs=1e-6)
        band = g["band"]
        assert band["level"] == 0.95 and len(band["coverage"]) == len(band["low"]) == 100
        assert all(0 <= lo <= hi <= 1 for lo, hi in zip(band["low"], band["high"], strict=True))
    assert set(sel["failure_recall"]) == set(gates)
    base = sel["failure_recall_baselines"]
    assert base["failures"] > 0 and 0 <= base["flagged_share"] <= 1
    for fr in sel["failure_recall"].values():
        assert fr["expected_curve"][-1][1] == pytest.approx(base["flagged_share"], abs=1e-6)
        assert fr["area"] <= base["oracle"]["area"] + 1e-9
    assert data["retrieval"]["queries"] > 0 and 0 <= data["retrieval"]["mrr@5"] <= 1
    for png in ("risk_coverage.png", "cost.png", "failure_recall.png"):
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == len(data["plots"]) >= 3
    assert "<table>" in page and "Risk–coverage" in page
    assert "<meta name='viewport' content='width=device-width" in page
    assert page.count('<div class="table">') == page.count("<table>")
    md = (out / "report.md").read_text()
    assert "| random |" in md and "Stream-level failure recall" in md
    for png in data["plots"]:
        assert f"]({png})" in md  # shown where it is explained, not only linked


def test_report_without_labels_summarises(open_gate_judgments: Path, tmp_path: Path) -> None:
    r = cli("report", "--judgments", str(open_gate_judgments), "--out", str(tmp_path / "r"))
    assert r.returncode == 0, r.stderr
    data = json.loads((tmp_path / "r" / "report.json").read_text())
    s = data["summary"]
    assert s["status"]["invalid"] == 6 and s["coverage"] == 1.0
    assert s["citations"]["traces"] == 22 and "selective" not in data
    assert "Citations: 22 traces" in r.stdout
    # Every penalty once, by what it rests on.
    assert s["penalized"] > 0 and sum(s["penalty_evidence"].values()) == s["penalized"]
    assert set(s["penalty_evidence"]) <= {"settled", "uncertain", "llm"}
    assert "Penalties by what they rest on: " in r.stdout


def test_report_rejects_bad_files_with_line_numbers(
    open_gate_judgments: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "labels.jsonl"
    bad.write_text('{"trace_id": "a", "loss": 0}\n{"loss": 1}\n', encoding="utf-8")
    r = cli(
        "report",
        "--judgments",
        str(open_gate_judgments),
        "--labels",
        str(bad),
        "--out",
        str(tmp_path / "r"),
    )
    assert r.returncode == 2 and "labels.jsonl:2: trace_id" in r.stderr
    js = tmp_path / "j.jsonl"
    js.write_text('{"trace_id": "x"}\n', encoding="utf-8")
    r = cli("report", "--judgments", str(js), "--out", str(tmp_path / "r"))
    assert r.returncode == 2 and "j.jsonl:1: not a judgment" in r.stderr
    assert not (tmp_path / "r").exists()  # no empty report folder left behind


def test_report_says_how_many_labels_match_no_judgment(
    open_gate_judgments: Path, tmp_path: Path
) -> None:
    rows = expert_labels(open_gate_judgments)
    rows += [{"trace_id": "no-such-trace", "loss": 1}, {"trace_id": "nor-this", "loss": 0}]
    labels = write_jsonl(tmp_path / "labels.jsonl", rows)
    r = cli(
        "report",
        "--judgments",
        str(open_gate_judgments),
        "--labels",
        str(labels),
        "--out",
        str(tmp_path / "r"),
    )
    assert r.returncode == 0, r.stderr
    said = f"2 of {len(rows)} labels match no judgment"
    assert said in " ".join(r.stdout.split())
    assert said in " ".join((tmp_path / "r" / "report.md").read_text().split())


def test_bench_gate_demo_on_a_seed_file(tmp_path: Path) -> None:
    from tests.unit.pipelines.test_bench_cli import LIBRARY_SEEDS

    seeds = tmp_path / "library.yaml"
    seeds.write_text(LIBRARY_SEEDS, encoding="utf-8")
    out = tmp_path / "demo"
    r = cli(
        "bench",
        "gate",
        "--seeds",
        str(seeds),
        "--embedder",
        "hashing",
        "--draws",
        "4",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--out",
        str(out),
    )
    assert r.returncode == 0, r.stderr + r.stdout
    data = json.loads((out / "report.json").read_text())
    assert set(data["operating_points"]) == {"fixed", "margin", "calibrated"}
    for op in data["operating_points"].values():
        assert 0 <= op["p5_reject"] <= 1 and 0 <= op["aurc"] <= 1
    assert load_gate_model(out / "gate.json").fitted_rows > 0
    assert "data:image/png;base64," in (out / "report.html").read_text()


def test_bench_run_draws_its_figures_into_markdown_and_html(tmp_path: Path) -> None:
    from tests.unit.pipelines.test_bench_cli import LIBRARY_SEEDS

    seeds = tmp_path / "library.yaml"
    seeds.write_text(LIBRARY_SEEDS, encoding="utf-8")
    md, page = tmp_path / "bench.md", tmp_path / "bench.html"
    r = cli(
        "bench",
        "run",
        "--seeds",
        str(seeds),
        "--embedder",
        "hashing",
        "--judge",
        "structural",
        "--judge",
        "always-penalize",
        "--bootstrap",
        "200",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--markdown",
        str(md),
        "--html",
        str(page),
    )
    assert r.returncode == 0, r.stderr + r.stdout
    text = md.read_text()
    for key in ("families", "p4"):
        png = tmp_path / f"bench-{key}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"](bench-{key}.png)" in text
    assert "arXiv 2609.30471" in text
    html = page.read_text()
    assert html.count("data:image/png;base64,") == 2 and "<table>" in html
    assert "bench-families.png" not in html  # the HTML embeds, it does not link


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (10, 10), (1, 1), (50, 200)])
def test_wilson_interval_contains_the_rate_and_matches_the_formula(k: int, n: int) -> None:
    from pipelines.reports.bench import wilson

    ci = wilson(k, n)
    assert ci is not None
    lo, hi = ci
    assert 0 <= lo <= k / n <= hi <= 1
    # Endpoints solve |p - p̂| = z sqrt(p(1-p)/n) (the score test's acceptance bounds).
    z = 1.96
    for p in (lo, hi):
        if 0 < p < 1:
            assert abs(p - k / n) == pytest.approx(z * math.sqrt(p * (1 - p) / n), rel=1e-6)
    assert wilson(0, 0) is None


def test_report_to_a_folder_that_cannot_be_made_is_one_line(
    open_gate_judgments: Path, tmp_path: Path
) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    r = cli(
        "report", "--judgments", str(open_gate_judgments), "--out", str(tmp_path / "afile" / "r")
    )
    assert r.returncode == 2
    assert "cannot write the report folder" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("where", ["folder", "under_a_file"])
def test_calibrate_to_a_bad_out_path_fails_before_any_work(tmp_path: Path, where: str) -> None:
    # The labels file does not even exist: the output is checked first (it was found only
    # after embedding every question, and a failed fit left an empty gate file behind).
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    out = tmp_path if where == "folder" else tmp_path / "afile" / "g.json"
    r = cli("calibrate", "--labels", str(tmp_path / "missing.jsonl"), "--out", str(out))
    assert r.returncode == 2
    assert r.stderr.strip() == (
        f"cargo-monitor: error: cannot write the gate model file {out}: "
        + ("Is a directory" if where == "folder" else f"{tmp_path / 'afile'} is not a folder")
    )


def test_check_writable_creates_nothing(tmp_path: Path) -> None:
    from monitor.errors import ConfigError
    from monitor.io import check_writable

    check_writable(tmp_path / "new" / "deeper" / "x.json", "report")  # can be made
    check_writable(None, "report")
    check_writable("-", "report")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro").chmod(0o500)
    try:
        if not os.access(tmp_path / "ro", os.W_OK):  # (root writes anywhere)
            with pytest.raises(ConfigError, match="Permission denied"):
                check_writable(tmp_path / "ro" / "x.json", "report")
    finally:
        (tmp_path / "ro").chmod(0o700)
    # What passed the check is then written, its folders made on the way.
    from monitor.io import write_output

    write_output(tmp_path / "new" / "deeper" / "x.json", "{}\n", "report")
    write_output(tmp_path / "new" / "f.png", b"\x89PNG", "figure")
    assert (tmp_path / "new" / "deeper" / "x.json").read_text() == "{}\n"
    assert (tmp_path / "new" / "f.png").read_bytes() == b"\x89PNG"


def test_a_cache_path_that_is_a_folder_is_named_not_its_temporary_file(tmp_path: Path) -> None:
    from monitor.cachefile import atomic_write
    from monitor.errors import ConfigError

    target = tmp_path / "golden.npy"
    target.mkdir()
    with pytest.raises(ConfigError) as err:
        atomic_write(target, lambda p: p.write_text("x"))
    assert str(err.value).startswith(f"cannot write the cache file {target}: ")
    assert ".tmp" not in str(err.value)
    assert [p.name for p in tmp_path.iterdir()] == ["golden.npy"]  # no temporary left


def rng_bit(row: dict[str, object]) -> bool:
    return round(float(str(row["margin"])) * 10_000) % 4 != 0  # about one in four wrong


def test_an_unreachable_set_validity_says_what_can_be_reached(tmp_path: Path) -> None:
    rows = synthetic_rows(400)
    for r in rows:  # the most similar references include wrong ones: 1.0 is out of reach
        if float(str(r["similarity"])) > 0.9:
            r["appropriate"] = int(rng_bit(r))
    labels = write_jsonl(tmp_path / "labels.jsonl", rows)
    out = tmp_path / "gate.json"
    r = cli("calibrate", "--labels", str(labels), "--out", str(out), "--set-validity", "1")
    assert r.returncode == 2 and not out.exists()
    err = r.stderr.strip()
    assert "no threshold reaches a reference validity of 1.0" in err, err
    best = float(err.split("the highest is ")[1].split()[0])
    assert 0.5 < best < 1.0
    # ... and asking for that much is reached.
    r = cli("calibrate", "--labels", str(labels), "--out", str(out), "--set-validity", str(best))
    assert r.returncode == 0, r.stderr


def test_check_writable_names_what_the_system_refuses(tmp_path: Path) -> None:
    from monitor.errors import ConfigError
    from monitor.io import check_writable

    with pytest.raises(ConfigError, match=r"cannot write the report file .*: File name too long"):
        check_writable(tmp_path / ("x" * 300 + ".json"), "report")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere" / "folder")
    with pytest.raises(ConfigError, match="dangling is a symbolic link to nothing"):
        check_writable(tmp_path / "dangling" / "g.json", "report")
    (tmp_path / "dead.json").symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(ConfigError, match="a symbolic link to nothing"):
        check_writable(tmp_path / "dead.json", "report")


def test_a_cache_dir_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    labels = write_jsonl(tmp_path / "labels.jsonl", [{"question": "q", "appropriate": 1}])
    r = cli(
        "calibrate",
        "--labels",
        str(labels),
        "--out",
        str(tmp_path / "g.json"),
        "--embedder",
        "hashing",
        "--cache-dir",
        str(tmp_path / "afile"),
    )
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().startswith(
        f"cargo-monitor: error: cannot write the cache folder {tmp_path / 'afile'}: "
    )


def test_calibrate_and_fit_gate_warn_about_an_intent_labelled_one_way(tmp_path: Path) -> None:
    rows = synthetic_rows(60)
    rows += [{"similarity": 0.5 + i / 100, "intent": "vet", "appropriate": 1} for i in range(5)]
    labels = write_jsonl(tmp_path / "labels.jsonl", rows)
    out, rep = tmp_path / "gate.json", tmp_path / "cal.json"
    r = cli("calibrate", "--labels", str(labels), "--method", "logistic", "--out", str(out),
            "--json", str(rep))  # fmt: skip
    assert r.returncode == 0, r.stderr + r.stdout
    flat = " ".join(r.stdout.split())
    assert "warning: intent 'vet': all 5 of its rows are appropriate" in flat
    assert "case_status" not in " ".join(json.loads(rep.read_text())["warnings"])
    # isotonic has no intent coefficient: nothing to warn about.
    r = cli("calibrate", "--labels", str(labels), "--method", "isotonic", "--out", str(out))
    assert r.returncode == 0 and "warning" not in r.stdout
    r = cli("fit-gate", "--labels", str(labels), "--method", "logistic", "--out", str(out))
    assert r.returncode == 0 and "warning: intent 'vet'" in r.stderr
    r = cli("fit-gate", "--labels", str(labels), "--out", str(out))
    assert r.returncode == 0 and "warning" not in r.stderr
