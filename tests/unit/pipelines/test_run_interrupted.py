"""Ctrl-C is how a ``run --follow`` (or a run on a pipe) ends: what was judged is
written, and the run says how much before it leaves."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from monitor.data import DEFAULT_SAMPLES
from monitor.settings import CargoSettings
from pipelines.embedded import run_monitor


async def _run_until_cancelled(tmp: Path, n: int) -> tuple[str, list[str], bool]:
    lines = [x for x in DEFAULT_SAMPLES.read_text().splitlines() if x.strip()][:n]
    src, out = tmp / "in.jsonl", tmp / "judgments.jsonl"
    src.write_text("\n".join(lines) + "\n")
    console = io.StringIO()
    settings = CargoSettings(embedder="hashing", cache_dir=tmp / "cache", metrics_port=0)
    task = asyncio.create_task(
        run_monitor(
            settings,
            input_path=str(src),
            output=str(out),
            follow=True,  # never ends by itself
            keep_serving=False,
            progress=False,
            console=Console(file=console, width=120),
        )
    )
    for _ in range(300):  # every line judged and flushed, then nothing more comes
        await asyncio.sleep(0.1)
        if "status" in (out.read_text() if out.exists() else "") and (
            len(out.read_text().splitlines()) >= n
        ):
            break
    task.cancel()  # what asyncio.run does on Ctrl-C
    try:
        await task
        cancelled = False
    except asyncio.CancelledError:
        cancelled = True
    return console.getvalue(), out.read_text().splitlines(), cancelled


def test_an_interrupted_follow_run_prints_its_summary(tmp_path: Path) -> None:
    text, judged, cancelled = asyncio.run(_run_until_cancelled(tmp_path, 12))
    assert cancelled  # the interrupt still ends the run (exit 130 in the command)
    assert len(judged) == 12
    assert text.count("run summary") == 1
    assert f"interrupted: 12 traces judged and written (in {tmp_path / 'judgments.jsonl'})" in (
        " ".join(text.split())
    )


def _main_run(tmp_path: Path, lines: list[str]) -> int:
    """``run`` (hashing embedder, no metrics) on ``lines``, judgments to out.jsonl."""
    from pipelines.embedded import main_run

    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n")
    settings = CargoSettings(embedder="hashing", cache_dir=tmp_path / "cache", metrics_port=0)
    return main_run(
        settings,
        input_path=str(src),
        output=str(tmp_path / "out.jsonl"),
        follow=False,
        keep_serving=False,
        progress=False,
    )


def test_run_lines_are_not_wrapped_in_a_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not a terminal: the header (golden set, embedder, gate, judge) is one line, as a
    # log reader greps it, not cut at 80 columns.
    monkeypatch.delenv("COLUMNS", raising=False)  # (rich's width: 80 off a terminal)
    assert _main_run(tmp_path, DEFAULT_SAMPLES.read_text().splitlines()[:1]) == 0
    header = [x for x in capsys.readouterr().out.splitlines() if x.startswith("golden set ")]
    assert len(header) == 1 and len(header[0]) > 80
    assert header[0].endswith("judge structural")


def test_sigterm_ends_a_follow_run_like_ctrl_c(tmp_path: Path) -> None:
    # A service manager (or `docker stop`) sends SIGTERM: the run summarises what it
    # judged and exits 143 (it died with no summary before).
    import os
    import signal
    import subprocess
    import sys
    import time

    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("\n".join(DEFAULT_SAMPLES.read_text().splitlines()[:5]) + "\n")
    argv = [sys.executable, "-m", "pipelines.cli", "run", "--input", str(src), "--follow"]
    argv += ["--output", str(out), "--embedder", "hashing", "--no-progress"]
    argv += ["--cache-dir", str(tmp_path / "c"), "--metrics-port", "0"]
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and len(out.read_text().splitlines()) >= 5:
                break
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        text, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 143, text
    assert "interrupted: 5 traces judged and written" in " ".join(text.split())


def test_otlp_lines_read_as_native_traces_say_how_to_read_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bundled OTLP sample run without --input-format: 60 lines "missing_field
    # (trace_id)" and no word that they are spans, nor how to read them.
    from monitor.data import DEFAULT_OTLP_SAMPLES

    monkeypatch.setenv("COLUMNS", "200")
    lines = DEFAULT_OTLP_SAMPLES.read_text().splitlines()[:2]
    assert _main_run(tmp_path, [*lines, DEFAULT_SAMPLES.read_text().splitlines()[0]]) == 0
    out = tmp_path / "out.jsonl"
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "2 invalid lines: OpenTelemetry spans (OTLP/JSON), not native traces; run with "
        "--input-format otlp-json (or auto)"
    ) in text
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["status"] for r in rows] == ["invalid", "invalid", "evaluated"]
    assert all("OTLP/JSON export line" in r["rationale"] for r in rows[:2])
