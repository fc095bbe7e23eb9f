from __future__ import annotations

import asyncio
import io
from pathlib import Path

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


async def test_stdin_source() -> None:
    items = await _collect(StdinSource(io.BytesIO(b'{"a":1}\n{"b":2}\n')))
    assert len(items) == 2 and items[1].location and items[1].location.file == "<stdin>"


async def test_batched_respects_size(tmp_path: Path) -> None:
    p = tmp_path / "t.jsonl"
    p.write_text("".join(f'{{"n":{k}}}\n' for k in range(70)))
    sizes = [len(b) async for b in batched(FileSource(p), 32, 1.0)]
    assert sizes == [32, 32, 6]
