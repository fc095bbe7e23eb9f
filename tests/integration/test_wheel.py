"""The built wheel carries its data: installed into a fresh venv outside the repository,
``cargo-monitor run`` judges the bundled sample traffic with the bundled golden set."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.paths import REPO

pytestmark = pytest.mark.integration


def _sh(
    *cmd: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, f"{cmd}: {proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def test_wheel_installed_outside_the_repository_runs_the_bundled_sample(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    # No build isolation: setuptools and wheel come from this environment (nothing fetched).
    _sh(
        sys.executable,
        "-m",
        "build",
        "--wheel",
        "--no-isolation",
        "--outdir",
        dist,
        REPO,
        cwd=tmp_path,
    )
    (wheel,) = dist.glob("cargo_monitor-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for packaged in (
        "monitor/data/techsupport.yaml",
        "monitor/data/samples/traffic.jsonl",
        "monitor/data/samples/otlp_traffic.jsonl",
        "monitor/data/bench/instances.jsonl",
        "monitor/judges/prompts/rubrics.yaml",
        "monitor/py.typed",
    ):
        assert packaged in names
    assert not any(n.startswith(("tests/", "benchmarks/")) for n in names)

    venv = tmp_path / "venv"
    _sh(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    # The dependencies are this environment's (a plain path entry: its .pth files, among
    # them the editable install of this checkout, are not processed); the project itself
    # comes only from the wheel.
    py_dir = f"python{sys.version_info.major}.{sys.version_info.minor}"
    (venv / "lib" / py_dir / "site-packages" / "deps.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n"
    )
    _sh(
        venv / "bin" / "python",
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-deps",
        "--no-index",
        wheel,
        cwd=tmp_path,
    )

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"HF_HUB_OFFLINE": "1", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    where = _sh(
        venv / "bin" / "python",
        "-c",
        "import monitor; print(monitor.__file__)",
        cwd=elsewhere,
        env=env,
    )
    assert where.stdout.strip().startswith(str(venv)), where.stdout
    run = _sh(
        venv / "bin" / "cargo-monitor",
        "run",
        "--no-progress",
        "--metrics-port",
        "0",
        "--output",
        "judgments.jsonl",
        cwd=elsewhere,
        env=env,
    )
    judgments = [json.loads(x) for x in (elsewhere / "judgments.jsonl").read_text().splitlines()]
    statuses = {j["status"] for j in judgments}
    assert len(judgments) >= 290 and "evaluated" in statuses and "abstained" in statuses
    assert "penal" in run.stdout
