"""``replay`` reads hostile files without dying: over-limit lines are skipped and
reported (never held whole), every other line is sent as it is."""

from __future__ import annotations

from pathlib import Path

from monitor.limits import InputLimits
from pipelines.kafka.replay import message_key, read_lines


def test_over_limit_lines_are_skipped_and_numbered(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    bomb = b"[" * 5000 + b"]" * 5000
    path.write_bytes(
        b'{"trace_id": "a"}\n'
        + b"x" * 300
        + b"\n\n"
        + bomb
        + b"\r\n"
        + b'{"trace_id": "b"}\r\n'
        + b"y" * 101
    )
    got = read_lines(path, InputLimits(max_payload_bytes=100))
    assert got.lines == [b'{"trace_id": "a"}', b'{"trace_id": "b"}']
    assert got.skipped == [2, 4, 6]  # line 3 is blank: not a message, not skipped
    roomy = read_lines(path, InputLimits(max_payload_bytes=20_000))
    assert roomy.lines[2] == bomb and roomy.skipped == []


def test_a_line_exactly_at_the_limit_is_sent(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"z" * 100 + b"\r\n" + b"w" * 100)
    assert read_lines(path, InputLimits(max_payload_bytes=100)).lines == [b"z" * 100, b"w" * 100]


def test_keys_of_hostile_lines() -> None:
    assert message_key(b"[" * 100_000) is None
    assert message_key(b"\xff\xfe") is None
    assert message_key(b'{"trace_id": 7}') == b"7"
