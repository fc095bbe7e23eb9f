"""Prometheus config, rules and the Grafana dashboard, checked with the real tools.

promtool and prometheus come from Debian's ``prometheus`` package; the README
test command installs it when missing. These tests fail (not skip) without it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from monitor.data import DEFAULT_SAMPLES
from tests.unit.pipelines.otel.otlp import genai_spans, openinference_spans, record

REPO = Path(__file__).resolve().parents[2]
PROM = REPO / "deploy" / "prometheus"
DASHBOARD = REPO / "deploy" / "grafana" / "dashboards" / "cargo-monitor.json"
SAMPLES = DEFAULT_SAMPLES

pytestmark = pytest.mark.prometheus


def _tool(name: str) -> str:
    path = shutil.which(name)
    assert path, (
        f"{name} not found: install Debian's 'prometheus' package "
        "(the README test command does this)"
    )
    return path


def _run(*args: str) -> str:
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout + proc.stderr


def test_promtool_check_config_and_rules() -> None:
    out = _run(_tool("promtool"), "check", "config", str(PROM / "prometheus.yml"))
    assert "SUCCESS" in out
    rules = sorted(str(f) for f in (PROM / "rules").glob("*.yml"))
    out = _run(_tool("promtool"), "check", "rules", *rules)
    assert "SUCCESS: 19 rules found" in out and "SUCCESS: 9 rules found" in out


def test_promtool_unit_tests_cover_every_alert() -> None:
    tests = yaml.safe_load((PROM / "tests" / "alerts_test.yml").read_text())
    groups = yaml.safe_load((PROM / "rules" / "alerts.yml").read_text())["groups"]
    alerts = [r["alert"] for g in groups for r in g["rules"]]
    for alert in alerts:
        cases = [
            c
            for t in tests["tests"]
            for c in t.get("alert_rule_test", [])
            if c["alertname"] == alert
        ]
        assert any(c["exp_alerts"] for c in cases), f"{alert}: no firing case"
        assert any(not c["exp_alerts"] for c in cases), f"{alert}: no non-firing case"
    for g in yaml.safe_load((PROM / "rules" / "alerts.yml").read_text())["groups"]:
        for r in g["rules"]:
            assert {"summary", "description", "runbook"} <= set(r["annotations"]), r["alert"]
    out = _run(_tool("promtool"), "test", "rules", str(PROM / "tests" / "alerts_test.yml"))
    assert "SUCCESS" in out


def _dashboard() -> dict[str, Any]:
    return json.loads(DASHBOARD.read_text())


def test_dashboard_structure_and_provisioning() -> None:
    d = _dashboard()
    ids = [p["id"] for p in d["panels"]]
    assert len(ids) == len(set(ids))
    names = {v["name"] for v in d["templating"]["list"]}
    assert {"datasource", "job", "instance", "intent", "judge"} <= names
    for p in d["panels"]:
        if p["type"] == "row":
            continue
        assert p["targets"] and all(t["expr"].strip() for t in p["targets"]), p["title"]
        assert p["datasource"]["uid"] == "${datasource}"
    for f in (REPO / "deploy" / "grafana" / "provisioning").rglob("*.yml"):
        assert yaml.safe_load(f.read_text())["apiVersion"] == 1
    am = yaml.safe_load((REPO / "deploy" / "alertmanager" / "alertmanager.yml").read_text())
    receivers = {r["name"] for r in am["receivers"]}
    assert am["route"]["receiver"] in receivers
    assert all(r["receiver"] in receivers for r in am["route"]["routes"])


def _substitute(expr: str) -> str:
    """What Grafana sends with every variable on "All" (allValue .*)."""
    for var in ("job", "instance", "intent", "judge"):
        expr = expr.replace(f"${var}", ".*")
    return expr.replace("$__rate_interval", "1m")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _query(port: int, expr: str) -> list[Any]:
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    body = json.loads(urllib.request.urlopen(url, timeout=10).read())
    assert body["status"] == "success", body
    return list(body["data"]["result"])


@pytest.mark.integration
def test_every_dashboard_query_and_recording_rule_returns_data(tmp_path: Path) -> None:
    prometheus = _tool("prometheus")
    mport, pport = _free_port(), _free_port()
    # The shipped config and rules, with a 1 s scrape/evaluation interval and the
    # test worker's port: the only changes.
    conf_dir = tmp_path / "prometheus"
    shutil.copytree(PROM, conf_dir)
    conf = yaml.safe_load((conf_dir / "prometheus.yml").read_text())
    conf["global"] = {"scrape_interval": "1s", "evaluation_interval": "1s"}
    conf["scrape_configs"][0]["static_configs"][0]["targets"] = [f"127.0.0.1:{mport}"]
    (conf_dir / "prometheus.yml").write_text(yaml.safe_dump(conf))

    feed = tmp_path / "live.jsonl"
    # Two agent turns as OpenTelemetry spans (OTLP/JSON lines) among the native traces
    # (--input-format auto): the OpenTelemetry row has data too.
    feed.write_text(record(*genai_spans()) + "\n" + record(*openinference_spans()) + "\n")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    monitor = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pipelines.cli",
            "run",
            "--input",
            str(feed),
            "--follow",
            "--output",
            str(tmp_path / "j.jsonl"),
            "--metrics-port",
            str(mport),
            "--no-progress",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--input-format",
            "auto",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    prom = subprocess.Popen(
        [
            prometheus,
            f"--config.file={conf_dir / 'prometheus.yml'}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{pport}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    lines = [x for x in SAMPLES.read_text().splitlines() if x.strip()]
    stop = threading.Event()

    def replay() -> None:  # a steady live stream, so that rates are not zero
        with feed.open("a") as fh:
            while not stop.is_set():
                for line in lines:
                    if stop.is_set():
                        return
                    fh.write(line + "\n")
                    fh.flush()
                    time.sleep(0.03)

    feeder = threading.Thread(target=replay, daemon=True)
    feeder.start()
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                up = _query(pport, 'up{job="cargo-monitor"} == 1')
                if (
                    up
                    and _query(pport, "cargo:contradiction_rate:avg1d")
                    and _query(pport, "sum(cargo_traces_total) > 200")
                ):
                    break
            except OSError:
                pass
            time.sleep(1)
        time.sleep(5)  # a few more scrapes and rule evaluations with live traffic

        rec = yaml.safe_load((PROM / "rules" / "recording.yml").read_text())
        records = [r["record"] for g in rec["groups"] for r in g["rules"]]
        # The worker runs the fixed gate: the calibrated gate's online estimate has no
        # input here (promtool unit-tests it in alerts_test.yml).
        calibrated_only = {"cargo:expected_reference_validity:ratio5m"}
        empty = [r for r in records if r not in calibrated_only and not _query(pport, r)]
        assert not empty, f"recording rules without data: {empty}"
        # The sample traffic's composition: 95.9% coverage, 2% dead letters, and
        # cited answers with every citation-contract defect.
        coverage = float(_query(pport, "cargo:coverage:ratio5m")[0]["value"][1])
        assert 0.85 <= coverage <= 1.0, coverage
        dlq = float(_query(pport, "cargo:dead_letter_rate:ratio5m")[0]["value"][1])
        assert 0.0 < dlq < 0.1, dlq
        categories = {
            r["metric"]["category"] for r in _query(pport, "cargo:citation_findings:rate5m > 0")
        }
        assert len(categories) == 7, categories

        missing = []
        for p in _dashboard()["panels"]:
            for t in p.get("targets", []):
                expr = _substitute(t["expr"])
                if not _query(pport, expr):
                    missing.append(f"{p['title']}: {expr}")
        assert not missing, "dashboard queries without data:\n" + "\n".join(missing)
        assembled = _query(pport, 'sum(cargo_otel_traces_total{outcome="assembled"})')
        assert float(assembled[0]["value"][1]) == 2, assembled

        # Template variable queries resolve to values too.
        for v in _dashboard()["templating"]["list"]:
            m = re.fullmatch(r"label_values\((.*), (\w+)\)", v.get("definition", ""))
            if m:
                assert _query(pport, _substitute(m.group(1))), v["name"]
    finally:
        stop.set()
        for proc in (prom, monitor):
            proc.terminate()
        for proc in (prom, monitor):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
