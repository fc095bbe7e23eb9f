"""The HTML reports, opened in a real browser: headless Chromium (Debian package
``chromium``, installed by ``make tools``) driven over the DevTools protocol.

For the labelled ``report`` page and the ``bench run --html`` page, at a phone and a
laptop viewport: every image decodes (``naturalWidth > 0``), the console and the page
log show no error, no exception is thrown, and the page does not scroll sideways (wide
tables scroll inside their own box). A screenshot of each is saved; set
``CARGO_SCREENSHOTS=<dir>`` to keep them (``docs/img`` is made that way). These tests
fail, not skip, without Chromium.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from monitor.data import BENCH_INSTANCES, DEFAULT_SAMPLES
from tests.unit.pipelines.test_calibrate_report import expert_labels, write_jsonl

pytestmark = [pytest.mark.integration, pytest.mark.browser]

CLI = [sys.executable, "-m", "pipelines.cli"]
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
)
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
LAPTOP = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}
PAGE_FACTS = """JSON.stringify({
  images: Array.from(document.images).map(i => ({
    alt: i.alt, complete: i.complete, width: i.naturalWidth, height: i.naturalHeight,
    shown: i.getBoundingClientRect().width})),
  tables: document.querySelectorAll('table').length,
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  title: document.title,
})"""


def cli(*args: str) -> None:
    r = subprocess.run(
        [*CLI, *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert r.returncode == 0, f"{args[0]} failed:\n{r.stderr}\n{r.stdout}"


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    assert path, "chromium not found: install Debian's 'chromium' package (make tools does this)"
    return path


@dataclass
class PageCheck:
    """What the browser saw on one page at one viewport."""

    facts: dict[str, Any]
    errors: list[str] = field(default_factory=list)
    screenshot: bytes = b""


class Cdp:
    """A minimal DevTools-protocol client over one page target's websocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        me = self.next_id
        await self.ws.send_json({"id": me, "method": method, "params": params})
        while True:
            msg = await self.ws.receive_json(timeout=60)
            if msg.get("id") == me:
                assert "error" not in msg, f"{method}: {msg['error']}"
                result: dict[str, Any] = msg.get("result", {})
                return result
            self.events.append(msg)

    async def wait_event(self, method: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for e in self.events:
                if e.get("method") == method:
                    self.events.remove(e)
                    return e
            left = deadline - time.monotonic()
            assert left > 0, f"no {method} within {timeout}s"
            self.events.append(await self.ws.receive_json(timeout=left))


@asynccontextmanager
async def browser() -> AsyncIterator[tuple[aiohttp.ClientSession, int]]:
    """A fresh headless Chromium with its own profile; yields (http session, port)."""
    # Chromium's helper processes (renderer, GPU, crashpad) can still write into the
    # profile after the main process exited: they run in the browser's own process
    # group, which is stopped as a whole, and a file one of them left behind does not
    # fail the test (seen once in a fresh-clone CI run: "Directory not empty: 'Default'").
    with tempfile.TemporaryDirectory(
        prefix="cargo-chromium-", ignore_cleanup_errors=True
    ) as profile:
        log = Path(profile) / "chromium.log"
        with log.open("wb") as err:
            proc = subprocess.Popen(
                [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
                stdout=subprocess.DEVNULL,
                stderr=err,
                start_new_session=True,
            )
        try:
            port_file = Path(profile) / "DevToolsActivePort"
            deadline = time.monotonic() + 60
            while not (port_file.exists() and port_file.read_text().strip()):
                assert proc.poll() is None, f"chromium exited:\n{log.read_text()[-2000:]}"
                assert time.monotonic() < deadline, "chromium did not open its DevTools port"
                await asyncio.sleep(0.1)
            port = int(port_file.read_text().split()[0])
            async with aiohttp.ClientSession() as http:
                yield http, port
        finally:
            _stop_group(proc, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                _stop_group(proc, signal.SIGKILL)
                proc.wait()
            # The helpers outlive the main process by a moment.
            deadline = time.monotonic() + 5
            while _group_alive(proc) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            _stop_group(proc, signal.SIGKILL)


def _stop_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def _group_alive(proc: subprocess.Popen[bytes]) -> bool:
    try:
        os.killpg(proc.pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


async def check_page(path: Path, viewport: dict[str, Any]) -> PageCheck:
    async with browser() as (http, port):
        async with http.get(f"http://127.0.0.1:{port}/json/list") as resp:
            targets = await resp.json()
        page = next(t for t in targets if t["type"] == "page")
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            cdp = Cdp(ws)
            for domain in ("Page", "Runtime", "Log"):
                await cdp.call(f"{domain}.enable")
            await cdp.call("Emulation.setDeviceMetricsOverride", **viewport)
            await cdp.call("Page.navigate", url=path.resolve().as_uri())
            await cdp.wait_event("Page.loadEventFired")
            res = await cdp.call("Runtime.evaluate", expression=PAGE_FACTS, returnByValue=True)
            facts = json.loads(res["result"]["value"])
            # The screenshot shows the first picture (the reports open with text tables).
            await cdp.call(
                "Runtime.evaluate",
                expression="document.images.length && document.images[0].scrollIntoView()",
            )
            shot = await cdp.call("Page.captureScreenshot", format="png")
            errors = []
            for e in cdp.events:
                p = e.get("params", {})
                if e.get("method") == "Runtime.exceptionThrown":
                    errors.append(f"exception: {p['exceptionDetails'].get('text')}")
                elif e.get("method") == "Runtime.consoleAPICalled" and p.get("type") in (
                    "error",
                    "assert",
                ):
                    errors.append(f"console.{p['type']}: {p.get('args')}")
                elif e.get("method") == "Log.entryAdded" and p["entry"]["level"] == "error":
                    errors.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")
            return PageCheck(facts, errors, base64.b64decode(shot["data"]))


def save_screenshot(png: bytes, name: str, tmp: Path) -> Path:
    """Keep a screenshot (a 256-colour PNG, small enough for the docs)."""
    from PIL import Image

    img = Image.open(io.BytesIO(png))
    assert img.width > 0 and img.height > 0
    out_dir = Path(os.environ.get("CARGO_SCREENSHOTS") or tmp)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / name
    img.convert("RGB").quantize(colors=256).save(path, optimize=True)
    return path


@pytest.fixture(scope="module")
def report_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A labelled report with a calibrated gate: every plot the report can draw."""
    tmp = tmp_path_factory.mktemp("report")
    judgments, cache = tmp / "judgments.jsonl", str(tmp / "cache")
    cli("run", "--output", str(judgments), "--metrics-port", "0", "--no-progress",
        "--embedder", "hashing", "--tau", "-1", "--cache-dir", cache)  # fmt: skip
    labels = write_jsonl(tmp / "labels.jsonl", expert_labels(judgments))
    cli("calibrate", "--labels", str(labels), "--traces", str(DEFAULT_SAMPLES),
        "--embedder", "hashing", "--cache-dir", cache, "--out", str(tmp / "gate.json"))  # fmt: skip
    cli("report", "--judgments", str(judgments), "--labels", str(labels),
        "--gate-model", str(tmp / "gate.json"), "--out", str(tmp / "rep"))  # fmt: skip
    return tmp / "rep" / "report.html"


@pytest.fixture(scope="module")
def bench_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled Cargo-Bench instances, three judges side by side."""
    tmp = tmp_path_factory.mktemp("bench")
    # The page names the instances file; a long path (a CI clone's) must wrap, not
    # widen the page on a phone.
    deep = tmp / ("a_checkout_with_a_long_name_" * 3) / "monitor" / "data" / "bench"
    deep.mkdir(parents=True)
    instances = deep / "instances.jsonl"
    shutil.copyfile(BENCH_INSTANCES, instances)
    cli("bench", "run", "--instances", str(instances), "--embedder", "hashing",
        "--judge", "structural", "--judge", "always-penalize", "--judge", "never-penalize",
        "--bootstrap", "1000", "--cache-dir", str(tmp / "cache"),
        "--markdown", str(tmp / "bench.md"), "--html", str(tmp / "bench.html"))  # fmt: skip
    return tmp / "bench.html"


@pytest.mark.parametrize(
    ("page", "images", "viewport", "shot"),
    [
        ("report_html", 4, LAPTOP, "report-laptop.png"),
        ("report_html", 4, PHONE, "report-phone.png"),
        ("bench_html", 2, LAPTOP, "bench-laptop.png"),
        ("bench_html", 2, PHONE, "bench-phone.png"),
    ],
)
def test_the_html_report_renders_in_chromium(
    page: str,
    images: int,
    viewport: dict[str, Any],
    shot: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> None:
    path: Path = request.getfixturevalue(page)
    check = asyncio.run(check_page(path, viewport))
    facts = check.facts
    assert check.errors == [], check.errors
    assert len(facts["images"]) == images, facts["images"]
    for img in facts["images"]:
        assert img["complete"] and img["width"] > 0 and img["height"] > 0, img
        # Scaled to fit the screen, never wider than it.
        assert 0 < img["shown"] <= facts["innerWidth"], img
    assert facts["tables"] > 0
    assert facts["innerWidth"] == viewport["width"]
    assert facts["scrollWidth"] <= facts["innerWidth"], "the page scrolls sideways"
    saved = save_screenshot(check.screenshot, shot, tmp_path)
    assert saved.stat().st_size > 0


def test_the_checks_catch_a_broken_image_and_a_console_error(tmp_path: Path) -> None:
    """The browser checks above can fail: a page with an undecodable image, a script
    error and a console error is reported as such."""
    page = tmp_path / "broken.html"
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'><title>broken</title></head><body>"
        "<img alt='bad' src='data:image/png;base64,iVBORw0KGgoAAAAN'>"
        "<script>console.error('boom'); undefinedFunction();</script></body></html>",
        encoding="utf-8",
    )
    check = asyncio.run(check_page(page, LAPTOP))
    assert check.facts["images"][0]["width"] == 0
    assert any("console.error" in e for e in check.errors), check.errors
    assert any(e.startswith("exception") for e in check.errors), check.errors
