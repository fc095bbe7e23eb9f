from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from monitor.io import FileSource, StdinSource, batched
from monitor.traces import RawTrace


async def _collect(source: FileSource | StdinSource, n: int | None = None) -> list[RawTrace]:
    out: list[RawTrace] = []
    async for item in source:
        out.append(item)
        if n is not None and len(out) >= n:
            break
    return out


async def test_file_source_numbers_lines_and_skips_blank(tmp_path: Path) -> None:
    p = tmp_path / "t.jsonl"
    p.write_text('{"a":1}\n\n   \n{"b":2}\n')
    items = await _collect(FileSource(p))
    assert [i.location.line for i in items if i.location] == [1, 4]
    assert items[1].payload == b'{"b":2}'


async def test_follow_tails_a_growing_file_and_waits_for_whole_lines(tmp_path: Path) -> None:
    p = tmp_path / "t.jsonl"
    p.write_text('{"a":1}\n')
    source = FileSource(p, follow=True, poll_interval_s=0.01)
    task = asyncio.create_task(_collect(source, 3))
    await asyncio.sleep(0.05)
    with p.open("a") as fh:
        fh.write('{"b":')
        fh.flush()
        await asyncio.sleep(0.05)
        fh.write('2}\n{"c":3}\n')
    items = await asyncio.wait_for(task, 2)
    assert [i.payload for i in items] == [b'{"a":1}', b'{"b":2}', b'{"c":3}']


async def test_follow_reads_a_rotated_file_from_its_start(tmp_path: Path) -> None:
    # Log rotation, as tail -F follows it: truncated in place (copytruncate), then
    # renamed away and a new file created at the path. Every line written is read (a
    # follower that kept its old position read nothing after either).
    p = tmp_path / "t.jsonl"
    p.write_text('{"n":1}\n{"n":2}\n{"n":3}\n')
    source = FileSource(p, follow=True, poll_interval_s=0.01)
    task = asyncio.create_task(_collect(source, 8))
    await asyncio.sleep(0.1)
    with p.open("r+") as fh:  # truncated in place, two shorter lines written
        fh.truncate(0)
        fh.write('{"n":4}\n{"n":5}\n')
    await asyncio.sleep(0.1)
    p.rename(tmp_path / "t.jsonl.1")
    p.write_text('{"n":6}\n{"n":7}\n{"n":8}\n')
    items = await asyncio.wait_for(task, 5)
    assert [i.payload for i in items] == [f'{{"n":{k}}}'.encode() for k in range(1, 9)]
    assert [i.location.line for i in items if i.location] == [1, 2, 3, 1, 2, 1, 2, 3]


async def test_follow_drains_a_renamed_file_and_waits_for_a_readable_one(
    tmp_path: Path,
) -> None:
    # A writer finishes its line in the renamed file before it reopens its log, and
    # the path holds a folder for a while: the line is read whole from the old file, the
    # folder is waited out (it ended the run), and the new file is read from its start.
    p = tmp_path / "t.jsonl"
    p.write_text('{"n":1}\n{"n":')
    source = FileSource(p, follow=True, poll_interval_s=0.02)
    task = asyncio.create_task(_collect(source, 4))
    await asyncio.sleep(0.1)
    old = tmp_path / "t.jsonl.1"
    p.rename(old)
    p.mkdir()
    with old.open("a") as fh:  # still the writer's open file
        fh.write('2}\n{"n":3}\n')
    await asyncio.sleep(0.3)
    assert not task.done()
    p.rmdir()
    p.write_text('{"n":4}\n')
    items = await asyncio.wait_for(task, 5)
    assert [i.payload for i in items] == [f'{{"n":{k}}}'.encode() for k in range(1, 5)]


async def _follow_while(source: FileSource, steps) -> list[bytes]:
    """Follow ``source`` while ``steps`` (an async function given the lines read so
    far) writes to it; the payloads read."""
    got: list[bytes] = []

    async def collect() -> None:
        async for item in source:
            got.append(item.payload)

    task = asyncio.create_task(collect())
    try:
        await steps(got)
        await asyncio.sleep(0.2)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return got


async def _until(got: list[bytes], n: int, timeout: float = 3) -> None:
    async def wait() -> None:
        while len(got) < n:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), timeout)


async def test_follow_reads_a_renamed_file_after_moving_to_the_new_one(
    tmp_path: Path,
) -> None:
    # A writer that reopens its log late keeps appending to the renamed file after the
    # follower moved to the new one (tail -F loses those lines): they are still read,
    # until the old file has been quiet for retired_quiet_s; then it is closed, its
    # unterminated last line read as it stands, and what comes after is not read.
    p, old = tmp_path / "t.jsonl", tmp_path / "t.jsonl.1"
    p.write_text('{"n":1}\n')

    async def steps(got: list[bytes]) -> None:
        await _until(got, 1, 2)
        p.rename(old)
        p.write_text('{"n":2}\n')
        await _until(got, 2, 2)  # moved on to the new file
        with old.open("a") as fh:  # the writer has not reopened its log yet
            fh.write('{"n":3}\n')
        await _until(got, 3, 2)
        with old.open("a") as fh:
            fh.write('{"n":')  # left unterminated, then the old file goes quiet
        await _until(got, 4, 5)
        with old.open("a") as fh:  # after it was closed: no longer read
            fh.write("4}\n")
        with p.open("a") as fh:
            fh.write('{"n":5}\n')
        await _until(got, 5, 2)

    source = FileSource(p, follow=True, poll_interval_s=0.01, retired_quiet_s=1.0)
    got = await _follow_while(source, steps)
    assert got == [b'{"n":1}', b'{"n":2}', b'{"n":3}', b'{"n":', b'{"n":5}']


async def test_follow_reads_a_file_renamed_back_to_its_path_once(tmp_path: Path) -> None:
    # Renamed away, a new file made, then the old one renamed back over it: it is read
    # on from where it was, not again from its start, and each new line once.
    p, old = tmp_path / "t.jsonl", tmp_path / "t.jsonl.1"
    p.write_text('{"n":1}\n')

    async def steps(got: list[bytes]) -> None:
        await _until(got, 1)
        p.rename(old)
        p.write_text('{"n":2}\n')
        await _until(got, 2)
        os.replace(old, p)
        await asyncio.sleep(0.2)
        with p.open("a") as fh:
            fh.write('{"n":3}\n')
        await _until(got, 3)

    source = FileSource(p, follow=True, poll_interval_s=0.01, retired_quiet_s=30)
    assert await _follow_while(source, steps) == [b'{"n":1}', b'{"n":2}', b'{"n":3}']


async def test_follow_reads_a_renamed_file_truncated_and_written_again(tmp_path: Path) -> None:
    # The renamed file is truncated and written again while still read: its new lines
    # are read from its start, no fragment of where the old reading stood.
    p, old = tmp_path / "t.jsonl", tmp_path / "t.jsonl.1"
    p.write_text('{"n":1}\n{"n":10}\n')

    async def steps(got: list[bytes]) -> None:
        await _until(got, 2)
        p.rename(old)
        p.write_text('{"n":2}\n')
        await _until(got, 3)
        old.write_text('{"n":9}\n')
        await _until(got, 4)

    source = FileSource(p, follow=True, poll_interval_s=0.01, retired_quiet_s=30)
    got = await _follow_while(source, steps)
    assert got == [b'{"n":1}', b'{"n":10}', b'{"n":2}', b'{"n":9}']


async def test_follow_keeps_at_most_four_renamed_files_open(tmp_path: Path) -> None:
    # Five renames within the quiet time: the quietest renamed file is closed (its
    # unterminated last line read as it stands), the newer ones are still read.
    p = tmp_path / "t.jsonl"
    p.write_text('{"n":0}\n{"tail":0')

    async def steps(got: list[bytes]) -> None:
        await _until(got, 1)
        for k in range(1, 6):
            p.rename(tmp_path / f"t.jsonl.{k}")
            p.write_text(f'{{"n":{k}}}\n{{"tail":{k}')
            await _until(got, k + 1 + (k == 5))
        with (tmp_path / "t.jsonl.5").open("a") as fh:  # holds {"tail":4
            fh.write("}\n")
        await _until(got, 8)

    source = FileSource(p, follow=True, poll_interval_s=0.01, retired_quiet_s=30)
    got = await _follow_while(source, steps)
    assert got[:5] == [b'{"n":0}', b'{"n":1}', b'{"n":2}', b'{"n":3}', b'{"n":4}']
    # the first file closed as the fifth rename came, beside the new file's first line
    assert sorted(got[5:7]) == [b'{"n":5}', b'{"tail":0']
    assert got[7:] == [b'{"tail":4}']  # the newest renamed file is still read


async def test_stdin_source() -> None:
    items = await _collect(StdinSource(io.BytesIO(b'{"a":1}\n{"b":2}\n')))
    assert len(items) == 2 and items[1].location and items[1].location.file == "<stdin>"


async def test_stdin_source_streams_lines_as_a_pipe_delivers_them() -> None:
    r, w = os.pipe()
    with os.fdopen(r, "rb") as reader, os.fdopen(w, "wb") as writer:
        source = aiter(StdinSource(reader))
        writer.write(b'{"a":1}\n')
        writer.flush()
        first = await asyncio.wait_for(anext(source), 5)  # the pipe is still open
        assert first.payload == b'{"a":1}'
        writer.write(b'{"b":2}')  # a last line without its newline, then the end
        writer.close()
        assert [i.payload async for i in source] == [b'{"b":2}']


async def test_stdin_reader_stopped_early_leaves_no_thread_behind() -> None:
    data = b"".join(b'{"n":%d}\n' % k for k in range(1000))  # more than it reads ahead
    source = aiter(StdinSource(io.BytesIO(data)))
    assert (await anext(source)).payload == b'{"n":0}'
    await source.aclose()
    for _ in range(40):
        if not any(t.name == "cargo-stdin" for t in threading.enumerate()):
            break
        await asyncio.sleep(0.1)
    assert not any(t.name == "cargo-stdin" for t in threading.enumerate())


def test_ctrl_c_ends_a_run_reading_a_quiet_pipe() -> None:
    # A blocked read of standard input on a pipe its writer keeps open and quiet held
    # the process after Ctrl-C until the writer closed the pipe (the read ran in the
    # loop's executor, whose thread the interpreter waits for at exit).
    code = (
        "import asyncio, sys\n"
        "from monitor.io import StdinSource\n"
        "async def main():\n"
        "    async for item in StdinSource():\n"
        "        pass\n"
        "try:\n"
        "    asyncio.run(main())\n"
        "except KeyboardInterrupt:\n"
        "    sys.exit(130)\n"
    )
    script = (
        '(sleep 60; echo) | (timeout --preserve-status -s INT 2 "$PY" -c "$CODE"; '
        'echo "rc=$? after=$SECONDS")'
    )
    proc = subprocess.Popen(
        ["bash", "-c", script],
        env={**os.environ, "PY": sys.executable, "CODE": code},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()  # when the reader has ended
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    rc, after = (int(part.split("=")[1]) for part in line.split())
    assert rc == 130
    assert after < 30  # not the writer's 60 seconds


async def test_batched_respects_size(tmp_path: Path) -> None:
    p = tmp_path / "t.jsonl"
    p.write_text("".join(f'{{"n":{k}}}\n' for k in range(70)))
    sizes = [len(b) async for b in batched(FileSource(p), 32, 1.0)]
    assert sizes == [32, 32, 6]


def test_line_reader_bounds_are_exact() -> None:
    from monitor.io import LineReader

    limit = 10
    data = b"a" * 10 + b"\r\n" + b"b" * 11 + b"\n" + b"c" * 12 + b"\n" + b"d" * 50 + b"\n"
    reader = LineReader(io.BytesIO(data), limit)
    lines = []
    while (line := reader.read()) is not None:
        lines.append(line)
    assert reader.finish() is None
    # At the limit: whole. Up to limit + 2 bytes a line is still read whole (the decoder
    # then says too_large); longer, it is dropped after its head.
    assert [(x.number, x.size, x.over_limit) for x in lines] == [
        (1, 10, False),
        (2, 11, False),
        (3, 12, True),
        (4, 50, True),
    ]
    assert lines[3].data == b"d" * 12  # the head that was read, never the whole line


def test_count_lines_reads_in_blocks_and_skips_blank(tmp_path: Path) -> None:
    from monitor.io import count_lines

    p = tmp_path / "t.jsonl"
    p.write_bytes(b'{"a":1}\n\n  \r\n' + b"x" * 3_000_000 + b"\n" + b'{"last":1}')
    assert count_lines(p) == 3
    assert count_lines(tmp_path / "missing.jsonl") is None


async def test_follow_waits_for_the_end_of_an_over_limit_line(tmp_path: Path) -> None:
    p = tmp_path / "t.jsonl"
    p.write_text('{"a":1}\n')
    source = FileSource(p, follow=True, poll_interval_s=0.01, max_line_bytes=100)
    task = asyncio.create_task(_collect(source, 3))
    await asyncio.sleep(0.05)
    with p.open("ab") as fh:
        fh.write(b"y" * 500)  # over the limit, no end yet
        fh.flush()
        await asyncio.sleep(0.05)
        fh.write(b"y" * 500 + b'\n{"c":3}\n')
    items = await asyncio.wait_for(task, 2)
    assert [(i.location.line if i.location else 0, i.truncated_size) for i in items] == [
        (1, None),
        (2, 1000),
        (3, None),
    ]


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux's /proc")
def test_a_folder_that_refuses_new_files_fails_the_check_whatever_its_bits() -> None:
    """/proc refuses new files even to root, whose os.access() says yes everywhere (a
    newcomer's `bench run --markdown /proc/nope/report.md` judged everything first)."""
    from monitor.errors import ConfigError
    from monitor.io import check_writable

    with pytest.raises(ConfigError, match="cannot write the Markdown report file /proc/nope"):
        check_writable("/proc/nope/report.md", "Markdown report")


def test_the_write_check_leaves_nothing_behind(tmp_path: Path) -> None:
    from monitor.io import check_writable

    check_writable(tmp_path / "sub" / "report.md", "Markdown report")
    check_writable(tmp_path / "report.md", "Markdown report")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/version").exists(), reason="needs Linux's /proc")
def test_an_existing_file_that_refuses_writes_fails_the_check_whatever_its_bits() -> None:
    """An existing file is opened for appending, not trusted to os.access(): root's
    says yes to /proc/version, which refuses every write."""
    from monitor.errors import ConfigError
    from monitor.io import check_writable

    if os.access("/proc/version", os.W_OK) is False:
        pytest.skip("os.access already refuses /proc/version here (not root)")
    with pytest.raises(ConfigError, match="cannot write the Markdown report file /proc/version"):
        check_writable("/proc/version", "Markdown report")


def test_the_write_check_keeps_an_existing_file_and_passes_a_device(tmp_path: Path) -> None:
    from monitor.io import check_writable

    old = tmp_path / "report.md"
    old.write_text("kept\n", encoding="utf-8")
    check_writable(old, "Markdown report")
    check_writable("/dev/null", "Markdown report")
    assert old.read_text(encoding="utf-8") == "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]
