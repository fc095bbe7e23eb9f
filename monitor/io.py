"""Trace sources and judgment sinks for the embedded (file/stdin) run.

``TraceSource`` and ``JudgmentSink`` are the seams the Faust app implements too.
Blank (whitespace-only) lines are not traces and are skipped; every other line
yields exactly one judgment, a malformed one an ``invalid`` judgment that carries
its line number. A line over the payload limit is never read whole into memory: it
is read on in bounded chunks and becomes a ``too_large`` outcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import stat
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from monitor.errors import ConfigError, first_problem
from monitor.schemas import Judgment, SourceLocation
from monitor.traces import DEFAULT_LIMITS, RawTrace


class TraceSource(Protocol):
    def __aiter__(self) -> AsyncIterator[RawTrace]: ...


class JudgmentSink(Protocol):
    def write(self, judgments: Sequence[Judgment]) -> None: ...

    def close(self) -> None: ...


# How much of an over-limit line is kept (for its trace id hint), and the chunk in
# which the rest of it is read and dropped: memory per line stays bounded.
KEEP_BYTES = 65_536
SKIP_CHUNK_BYTES = 65_536


@dataclass(frozen=True, slots=True)
class Line:
    """One non-blank line of a JSONL stream.

    ``data`` is the line without its terminator (``\\n`` or ``\\r\\n``); for a line over
    the limit only its first :data:`KEEP_BYTES` bytes, with ``over_limit`` set and
    ``size`` the whole line's length in bytes.
    """

    number: int
    data: bytes
    size: int
    over_limit: bool = False

    def raw_trace(self, file: str) -> RawTrace:
        return RawTrace(
            self.data,
            SourceLocation(line=self.number, file=file),
            truncated_size=self.size if self.over_limit else None,
        )


class LineReader:
    """Non-blank lines of a binary stream, never holding more than ``max_bytes`` + 2
    bytes of one line: a longer line is read on in chunks, dropped, and returned as
    ``over_limit`` (its outcome is ``too_large``). Blank lines are counted, not returned.

    :meth:`read` returns ``None`` when no complete line is available yet (end of the
    data so far); a partial last line stays pending until :meth:`finish` (true end).
    """

    def __init__(self, stream: IO[bytes], max_bytes: int) -> None:
        self.stream = stream
        self.max_bytes = max_bytes
        self.number = 0
        self._pending = b""
        self._skipped: int | None = None  # bytes of an over-limit line read so far
        self._head = b""
        self._blank = True

    def read(self) -> Line | None:
        while True:
            if self._skipped is not None:
                chunk = self.stream.readline(SKIP_CHUNK_BYTES)
                if not chunk:
                    return None
                self._skipped += len(chunk)
                self._blank = self._blank and not chunk.strip()
                if chunk.endswith(b"\n"):
                    line = self._over_limit()
                    if line is not None:
                        return line
                continue
            chunk = self.stream.readline(self.max_bytes + 2 - len(self._pending))
            if not chunk:
                return None
            self._pending += chunk
            if self._pending.endswith(b"\n"):
                line = self._complete(self._pending)
                self._pending = b""
                if line is not None:
                    return line
            elif len(self._pending) >= self.max_bytes + 2:
                # Over the limit with no end in sight: keep the head, drop the rest.
                self._head = self._pending[:KEEP_BYTES]
                self._skipped = len(self._pending)
                self._blank = not self._pending.strip()
                self._pending = b""

    def finish(self) -> Line | None:
        """The last line when the stream ended without a line break (None if none)."""
        if self._skipped is not None:
            return self._over_limit(terminated=False)
        data, self._pending = self._pending, b""
        return self._complete(data) if data else None

    def _complete(self, data: bytes) -> Line | None:
        self.number += 1
        body = data.rstrip(b"\r\n")
        return Line(self.number, body, len(body)) if body.strip() else None

    def _over_limit(self, *, terminated: bool = True) -> Line | None:
        self.number += 1
        size = self._skipped or 0
        if terminated:
            size -= 1  # the line feed
        head, blank = self._head, self._blank
        self._skipped, self._head, self._blank = None, b"", True
        if blank:
            return None
        return Line(self.number, head, size, over_limit=True)


def count_lines(path: str | Path) -> int | None:
    """Non-blank lines of a file, read in bounded blocks (``None`` if unreadable)."""
    count, blank = 0, True
    try:
        with open(path, "rb") as fh:
            while block := fh.read(1 << 20):
                parts = block.split(b"\n")
                for k, part in enumerate(parts):
                    blank = blank and not part.strip()
                    if k < len(parts) - 1:  # a line ends here
                        count += not blank
                        blank = True
    except OSError:
        return None
    return count + (not blank)


# Polls without new data in a replaced file before the follower moves to the new one.
_ROTATION_QUIET_POLLS = 2
# A replaced file stays open after the follower moved on, and is read beside the new
# one until it has had no new data for this long: a writer appends to the file it has
# open until it reopens its log, which a slow reload may do seconds after the rename.
# (At most this many such files at once; the quietest is closed first.)
_RETIRED_QUIET_S = 30.0
_RETIRED_MAX = 4


class _Retired:
    """A replaced file still read after the follower moved to the new one."""

    __slots__ = ("fh", "reader", "since")

    def __init__(self, fh: IO[bytes], reader: LineReader, since: float) -> None:
        self.fh, self.reader, self.since = fh, reader, since


def _closed(old: _Retired) -> Line | None:
    """Close a replaced file no longer read; its unterminated last line, if any."""
    try:
        return old.reader.finish()
    except OSError:
        return None
    finally:
        old.fh.close()


def _shrunk(fh: IO[bytes]) -> bool:
    """Whether an open file is now shorter than where it was read to (truncated)."""
    return os.fstat(fh.fileno()).st_size < fh.tell()


def _kept(fh: IO[bytes], retired: list[_Retired]) -> _Retired | None:
    """The replaced file still read that ``fh`` is (renamed back to the path)."""
    try:
        me = os.fstat(fh.fileno())
        for old in retired:
            st = os.fstat(old.fh.fileno())
            if (st.st_dev, st.st_ino) == (me.st_dev, me.st_ino):
                return old
    except OSError:
        return None
    return None


class FileSource:
    """JSONL traces from a file; with ``follow`` it tails the file like ``tail -F``,
    through its rotation (see :meth:`_moved_on`). Unlike ``tail -F``, a file renamed
    away is still read after the new one is: lines its writer appends before it
    reopens its log are not lost (see ``_RETIRED_QUIET_S``).

    A line over ``max_line_bytes`` is never read whole (see :class:`LineReader`).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        follow: bool = False,
        poll_interval_s: float = 0.25,
        max_line_bytes: int = DEFAULT_LIMITS.max_payload_bytes,
        retired_quiet_s: float = _RETIRED_QUIET_S,
    ) -> None:
        self.path = Path(path)
        self.follow = follow
        self.poll_interval_s = poll_interval_s
        self.max_line_bytes = max_line_bytes
        self.retired_quiet_s = retired_quiet_s

    async def __aiter__(self) -> AsyncIterator[RawTrace]:
        fh: IO[bytes] = self.path.open("rb")
        quiet = 0  # polls without data since the path was seen to hold a new file
        retired: list[_Retired] = []  # replaced files still read, oldest first
        name = str(self.path)
        try:
            reader = LineReader(fh, self.max_line_bytes)
            while True:
                line = reader.read()
                if line is not None:
                    quiet = 0
                    yield line.raw_trace(name)
                    await asyncio.sleep(0)
                    continue
                if not self.follow:
                    line = reader.finish()
                    if line is not None:
                        yield line.raw_trace(name)
                    break
                if retired:
                    # The replaced files' new lines, then the ones quiet for long
                    # enough closed (their last line, if unterminated, read first).
                    now = time.monotonic()
                    got = False
                    for old in list(retired):
                        try:
                            if _shrunk(old.fh):
                                # Truncated since (and perhaps written again): read from
                                # its start; the unterminated tail it had is gone.
                                old.fh.seek(0)
                                old.reader = LineReader(old.fh, self.max_line_bytes)
                            while (line := old.reader.read()) is not None:
                                got, old.since = True, now
                                yield line.raw_trace(name)
                                await asyncio.sleep(0)
                        except OSError:
                            retired.remove(old)  # unreadable now: nothing more comes
                            old.fh.close()
                    if got:
                        continue
                    for old in [r for r in retired if now - r.since >= self.retired_quiet_s]:
                        retired.remove(old)
                        line = _closed(old)
                        if line is not None:
                            yield line.raw_trace(name)
                moved = self._moved_on(fh)
                quiet = quiet + 1 if moved == "replaced" else 0
                if moved == "truncated":
                    # Truncated in place (copytruncate): its last line, then the file
                    # from its start.
                    line = reader.finish()
                    if line is not None:
                        yield line.raw_trace(name)
                    fh.seek(0)
                    reader = LineReader(fh, self.max_line_bytes)
                    continue
                # Replaced (renamed away, a new file at the path; as tail -F follows
                # it): once drained, the file now at the path is read from its start,
                # and the old one is kept open beside it (a writer may still be
                # appending to it until it reopens its log). A path that cannot be
                # read yet is waited for.
                new = self._reopen() if quiet > _ROTATION_QUIET_POLLS else None
                if new is None:
                    await asyncio.sleep(self.poll_interval_s)  # a writer is mid-line
                    continue
                # (A file renamed back to the path is read on from where it was.)
                back = _kept(new, retired)
                retired.append(_Retired(fh, reader, time.monotonic()))
                if back is not None:
                    new.close()
                    retired.remove(back)
                    fh, reader = back.fh, back.reader
                else:
                    fh, reader = new, LineReader(new, self.max_line_bytes)
                quiet = 0
                if len(retired) > _RETIRED_MAX:
                    quietest = min(retired, key=lambda r: r.since)
                    retired.remove(quietest)
                    line = _closed(quietest)
                    if line is not None:
                        yield line.raw_trace(name)
        finally:
            fh.close()
            for old in retired:
                old.fh.close()

    def _moved_on(self, fh: IO[bytes]) -> Literal["replaced", "truncated"] | None:
        """Whether a followed file was rotated: replaced by another file at its path
        (renamed away, a new one created) or truncated in place (copytruncate), as
        ``tail -F`` notices. A path with no file yet is waited for."""
        try:
            now, mine = os.stat(self.path), os.fstat(fh.fileno())
        except OSError:
            return None
        if (now.st_dev, now.st_ino) != (mine.st_dev, mine.st_ino):
            return "replaced"
        return "truncated" if now.st_size < fh.tell() else None

    def _reopen(self) -> IO[bytes] | None:
        """The regular file now at the path, open; ``None`` while there is none that
        can be read (a folder, a FIFO, no permission yet, gone again)."""
        try:
            if not stat.S_ISREG(os.stat(self.path).st_mode):
                return None
            return self.path.open("rb")
        except OSError:
            return None


class StdinSource:
    """JSONL traces from standard input (``--input -``), with the same line bound."""

    def __init__(
        self,
        stream: IO[bytes] | None = None,
        *,
        max_line_bytes: int = DEFAULT_LIMITS.max_payload_bytes,
    ) -> None:
        self.stream = stream if stream is not None else sys.stdin.buffer
        self.max_line_bytes = max_line_bytes

    async def __aiter__(self) -> AsyncIterator[RawTrace]:
        # The blocking reads run in a daemon thread of their own, not the loop's
        # executor: asyncio.run waits for that executor when it ends, so a read blocked
        # on a quiet pipe would keep Ctrl-C from ending the process until the writer
        # closed it. A daemon thread is left behind at exit.
        # (Read through a private reader on a copy of standard input's descriptor: a
        # daemon thread blocked in sys.stdin's own buffer holds a lock the interpreter
        # takes when it shuts down.)
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[Line | BaseException | None] = asyncio.Queue()
        slots = threading.Semaphore(64)  # lines read ahead, at most
        stop = threading.Event()
        stream = self.stream
        if stream is sys.stdin.buffer:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                stream = os.fdopen(os.dup(stream.fileno()), "rb")
        reader = LineReader(stream, self.max_line_bytes)

        def put(item: Line | BaseException | None) -> None:
            while not slots.acquire(timeout=0.5):
                if stop.is_set():
                    raise _StoppedError
            if stop.is_set():
                raise _StoppedError
            try:
                loop.call_soon_threadsafe(lines.put_nowait, item)
            except RuntimeError:  # the loop is closed
                raise _StoppedError from None

        def pump() -> None:
            try:
                while (line := reader.read()) is not None:  # None: the pipe's end
                    put(line)
                last = reader.finish()
                if last is not None:
                    put(last)
                put(None)
            except _StoppedError:
                return  # the reading ended (the run ended or was interrupted)
            except BaseException as exc:  # a read that failed: raised in the loop
                with contextlib.suppress(_StoppedError):
                    put(exc)
            finally:
                if stream is not self.stream:
                    stream.close()

        threading.Thread(target=pump, name="cargo-stdin", daemon=True).start()
        try:
            while (item := await lines.get()) is not None:
                slots.release()
                if isinstance(item, BaseException):
                    raise item
                yield item.raw_trace("<stdin>")
        finally:
            stop.set()


class _StoppedError(Exception):
    """The reading thread's signal that no one reads its lines any more."""


def open_for_writing(path: Path, what: str, mode: str = "w") -> IO[str] | IO[bytes]:
    """Open an output file, creating its folder; a path that cannot be written (a
    folder, a parent that is a file, no permission) is a :class:`ConfigError` naming it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.open(mode, encoding=None if "b" in mode else "utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the {what} file {path}: {exc.strerror or exc}") from exc


def write_output(path: str | Path, data: str | bytes, what: str) -> None:
    """Write a whole output file (text or bytes), creating its folder; a path that
    cannot be written is a :class:`ConfigError` naming it (see :func:`open_for_writing`)."""
    with open_for_writing(Path(path), what, "wb" if isinstance(data, bytes) else "w") as fh:
        fh.write(data)  # type: ignore[arg-type]


def check_writable(path: str | Path | None, what: str) -> None:
    """Raise :class:`ConfigError` naming ``path`` when it could not be written as a file
    (a folder, under a file, no permission, a folder that refuses new files whatever
    its permission bits say), leaving nothing behind (a probe file made in the folder
    is removed at once): checked before long work, so that a bad output path fails in
    a second, not after the work, and leaves no empty file behind when the work then
    fails. ``None`` and ``-`` pass."""
    if path is None or str(path) in ("", "-"):
        return
    p = Path(path)
    try:
        problem = _write_problem(p)
    except OSError as exc:  # a name too long, a folder that cannot be searched, ...
        problem = exc.strerror or str(exc)
    if problem:
        raise ConfigError(f"cannot write the {what} file {p}: {problem}")


def _write_problem(p: Path) -> str | None:
    def broken(x: Path) -> bool:  # a symbolic link to nothing
        return os.path.lexists(x) and not x.exists()

    if broken(p):
        return "a symbolic link to nothing"
    if p.is_dir():
        return "Is a directory"
    if p.exists():
        if not os.access(p, os.W_OK):
            return "Permission denied"
        if not p.is_file():  # a device or a pipe ("/dev/null", a FIFO): opening may block
            return None
        # Root passes os.access() everywhere, and a file may refuse writes whatever
        # its bits (/proc/version). Opened for appending, it says so; nothing is
        # written and its content is kept.
        try:
            with open(p, "ab"):
                pass
        except OSError as exc:
            return exc.strerror or str(exc)
        return None
    parent = p.parent
    while not parent.exists() and parent != parent.parent:
        if broken(parent):
            return f"{parent} is a symbolic link to nothing"
        parent = parent.parent
    if not parent.is_dir():
        return f"{parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return "Permission denied"
    # The permission bits do not say everything: root passes os.access() everywhere,
    # and a folder may refuse new files whatever its bits (/proc, a read-only mount).
    # A file made and removed at once in the folder where the output will go says it.
    try:
        fd, probe = tempfile.mkstemp(prefix=".cargo-write-check-", dir=parent)
    except OSError as exc:
        return exc.strerror or str(exc)
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return None


def make_output_dir(path: Path, what: str) -> Path:
    """Create an output folder (and its parents); one that cannot be made (a parent
    that is a file, no permission) is a :class:`ConfigError` naming it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot write the {what} folder {path}: {exc.strerror or exc}") from exc
    return path


class JsonlSink:
    """One judgment per line; flushed after every batch so that tails see progress.

    ``mask`` (a :class:`monitor.redact.SecretMask`, or any ``str -> str``) is applied to
    every line written."""

    def __init__(
        self, path: str | Path | None, *, mask: Callable[[str], str] | None = None
    ) -> None:
        self.mask = mask
        self.path = Path(path) if path not in (None, "-") else None
        if self.path is not None:
            self._fh: IO[str] = open_for_writing(self.path, "output", "w")  # type: ignore[assignment]
        else:
            self._fh = sys.stdout

    def write(self, judgments: Sequence[Judgment]) -> None:
        for j in judgments:
            line = j.model_dump_json()
            self._fh.write((line if self.mask is None else self.mask(line)) + "\n")
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


def jsonl_objects(path: str | Path, *, what: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every non-empty line of a JSONL file as a JSON object, with its line number, read
    as the file is iterated. A missing file, a line that is not JSON or not an object is
    a :class:`ConfigError` that names the file and the line (``labels.jsonl:3: not JSON:
    Expecting value (column 1)``); a folder is the :class:`OSError` of opening it, which
    the CLI reports as "PATH: Is a directory", as for every file it opens."""
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"{what} file not found: {p}")
    # Lines end at "\n" only (JSON keeps U+2028 and the like raw; splitlines() breaks on them).
    with p.open(encoding="utf-8", newline="\n") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{p}:{n}: not JSON: {exc.msg} (column {exc.colno})") from None
            if not isinstance(data, dict):
                raise ConfigError(f"{p}:{n}: not a JSON object")
            yield n, data


def read_jsonl_models(
    path: str | Path, model: type[ModelT], *, what: str, prefix: str = ""
) -> list[tuple[int, ModelT]]:
    """Every non-empty line of a JSONL file validated as ``model``, with its line number.

    Each problem is a :class:`ConfigError` that names the file, the line and the
    field: ``labels.jsonl:3: appropriate: Field required``.
    """
    rows: list[tuple[int, ModelT]] = []
    for n, data in jsonl_objects(path, what=what):
        try:
            rows.append((n, model.model_validate(data)))
        except ValidationError as exc:
            problem = first_problem(exc)
            if not exc.errors()[0]["loc"]:
                problem = f"row: {problem}"
            raise ConfigError(f"{path}:{n}: {prefix}{problem}") from exc
    return rows
