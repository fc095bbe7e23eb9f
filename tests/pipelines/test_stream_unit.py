"""Pieces of the stream app that need no broker."""

from __future__ import annotations

import base64
import json
import subprocess
import sys

from monitor.errors import InvalidTraceError
from monitor.traces import parse_trace
from pipelines.replay import _key
from pipelines.stream import dead_letter


def test_dead_letter_record_keeps_original_bytes_and_position() -> None:
    raw = b'{"trace_id": "t-9", "question": 42, "answer": "x"}'
    try:
        parse_trace(raw)
    except InvalidTraceError as exc:
        rec = dead_letter(raw, exc, topic="agent-traces", partition=3, offset=17, worker="w")
    assert rec["reason"] == "wrong_type" and rec["field"] == "question"
    assert (rec["topic"], rec["partition"], rec["offset"]) == ("agent-traces", 3, 17)
    assert base64.b64decode(rec["original_base64"]) == raw
    assert rec["trace_id"] == "t-9"
    json.dumps(rec)  # serialisable


def test_dead_letter_of_non_utf8_bytes() -> None:
    raw = b"\xff\xfe\x00"
    try:
        parse_trace(raw)
    except InvalidTraceError as exc:
        rec = dead_letter(raw, exc, topic="t", partition=0, offset=0, worker="w")
    assert rec["reason"] == "not_utf8" and rec["original_text"] is None
    assert base64.b64decode(rec["original_base64"]) == raw


def test_replay_keys_by_trace_id() -> None:
    assert _key(b'{"trace_id": "abc"}') == b"abc"
    assert _key(b"not json") is None
    assert _key(b'{"question": "q"}') is None


def test_replay_and_stream_clear_errors() -> None:
    cli = [sys.executable, "-m", "pipelines.cli"]
    p = subprocess.run([*cli, "replay", "/nope.jsonl"], capture_output=True, text=True,
                       timeout=60, check=False)
    assert p.returncode == 2 and "input file not found" in p.stderr
    p = subprocess.run([*cli, "replay", "--bootstrap", "127.0.0.1:1"], capture_output=True,
                       text=True, timeout=120, check=False)
    assert p.returncode == 2 and "cannot reach Kafka" in p.stderr
