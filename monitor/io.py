"""Trace sources and judgment sinks for the embedded (file/stdin) run.

``TraceSource`` and ``JudgmentSink`` are the seams the Faust app implements too.
Blank (whitespace-only) lines are not traces and are skipped; every other line
yields exactly one judgment, a malformed one an ``invalid`` judgment that carries
its line number.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import IO, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from monitor.errors import ConfigError
from monitor.schemas import Judgment, SourceLocation
from monitor.traces import RawTrace


class TraceSource(Protocol):
    def __aiter__(self) -> AsyncIterator[RawTrace]: ...


class JudgmentSink(Protocol):
    def write(self, judgments: Sequence[Judgment]) -> None: ...

    def close(self) -> None: ...


class FileSource:
    """JSONL traces from a file; with ``follow`` it tails the file like ``tail -f``."""

    def __init__(
        self, path: str | Path, *, follow: bool = False, poll_interval_s: float = 0.25
    ) -> None:
        self.path = Path(path)
        self.follow = follow
        self.poll_interval_s = poll_interval_s

    async def __aiter__(self) -> AsyncIterator[RawTrace]:
        line_no = 0
        pending = b""
        with self.path.open("rb") as fh:
            while True:
                chunk = fh.readline()
                if not chunk:
                    if not self.follow:
                        break
                    await asyncio.sleep(self.poll_interval_s)
                    continue
                pending += chunk
                if not pending.endswith(b"\n") and self.follow:
                    continue  # a writer is mid-line; wait for the rest
                line_no += 1
                raw, pending = pending, b""
                if raw.strip():
                    yield RawTrace(
                        raw.rstrip(b"\r\n"), SourceLocation(line=line_no, file=str(self.path))
                    )
                else:
                    await asyncio.sleep(0)


class StdinSource:
    """JSONL traces from standard input (``--input -``)."""

    def __init__(self, stream: IO[bytes] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin.buffer

    async def __aiter__(self) -> AsyncIterator[RawTrace]:
        loop = asyncio.get_running_loop()
        line_no = 0
        while True:
            raw = await loop.run_in_executor(None, self.stream.readline)
            if not raw:
                break
            line_no += 1
            if raw.strip():
                yield RawTrace(raw.rstrip(b"\r\n"), SourceLocation(line=line_no, file="<stdin>"))


class JsonlSink:
    """One judgment per line; flushed after every batch so that tails see progress."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path not in (None, "-") else None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh: IO[str] = self.path.open("w", encoding="utf-8")
        else:
            self._fh = sys.stdout

    def write(self, judgments: Sequence[Judgment]) -> None:
        for j in judgments:
            self._fh.write(j.model_dump_json() + "\n")
        self._fh.flush()

    def close(self) -> None:
        if self.path is not None:
            self._fh.close()


class InMemorySink:
    """Keeps judgments in a list (tests, notebooks)."""

    def __init__(self) -> None:
        self.judgments: list[Judgment] = []

    def write(self, judgments: Sequence[Judgment]) -> None:
        self.judgments.extend(judgments)

    def close(self) -> None:
        pass


async def batched(source: TraceSource, size: int, within_s: float) -> AsyncIterator[list[RawTrace]]:
    """Group a source into batches of at most ``size``, waiting at most ``within_s``
    after a batch's first item (so a slow tail is not held back)."""
    queue: asyncio.Queue[RawTrace | None] = asyncio.Queue(maxsize=size * 4)

    async def pump() -> None:
        try:
            async for item in source:
                await queue.put(item)
        finally:
            await queue.put(None)

    task = asyncio.create_task(pump())
    done = False
    try:
        while not done:
            first = await queue.get()
            if first is None:
                break
            batch = [first]
            deadline = asyncio.get_running_loop().time() + within_s
            while len(batch) < size:
                timeout = deadline - asyncio.get_running_loop().time()
                try:
                    item = (
                        queue.get_nowait()
                        if not queue.empty()
                        else await asyncio.wait_for(queue.get(), timeout=max(timeout, 0))
                    )
                except TimeoutError:
                    break
                if item is None:
                    done = True
                    break
                batch.append(item)
            yield batch
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


ModelT = TypeVar("ModelT", bound=BaseModel)


def read_jsonl_models(
    path: str | Path, model: type[ModelT], *, what: str, prefix: str = ""
) -> list[tuple[int, ModelT]]:
    """Every non-empty line of a JSONL file validated as ``model``, with its line number.

    Each problem is a :class:`ConfigError` that names the file, the line and the
    field: ``labels.jsonl:3: appropriate: Field required``.
    """
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"{what} file not found: {p}")
    rows: list[tuple[int, ModelT]] = []
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{p}:{n}: not JSON: {exc.msg} (column {exc.colno})") from exc
        if not isinstance(data, dict):
            raise ConfigError(f"{p}:{n}: expected a JSON object")
        try:
            rows.append((n, model.model_validate(data)))
        except ValidationError as exc:
            e = exc.errors()[0]
            where = ".".join(str(x) for x in e["loc"]) or "row"
            raise ConfigError(f"{p}:{n}: {prefix}{where}: {e['msg']}") from exc
    return rows
