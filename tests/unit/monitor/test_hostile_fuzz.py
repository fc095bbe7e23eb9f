"""Property-based fuzzing of decode -> evaluate (HashingEmbedder, structural judge).

Invariants, on arbitrary bytes, mutated hostile-corpus lines, hostile JSON structures
and deep nesting: no exception other than :class:`InvalidTraceError` (with a known
reason) leaves the decoder; the trace id hint never raises; a batch gets exactly one
judgment per input, each storable as UTF-8 JSON; memory stays bounded.

``pytest tests/unit/monitor/test_hostile_fuzz.py --hypothesis-show-statistics`` prints
how many cases each property ran.
"""

from __future__ import annotations

import asyncio
import json
import tracemalloc
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.embeddings import HashingEmbedder
from monitor.errors import InvalidTraceError
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.golden import load_golden
from monitor.judges import StructuralJudge
from monitor.retrieval import GoldenIndex
from monitor.settings import DEFAULT_GOLDEN
from monitor.traces import INVALID_REASONS, RawTrace, parse_trace, trace_id_hint

HOSTILE = Path(__file__).resolve().parents[2] / "data" / "hostile"
LINES = [line for line in (HOSTILE / "corpus.jsonl").read_bytes().split(b"\n") if len(line) < 4000]
FIELDS = [
    "trace_id",
    "question",
    "answer",
    "context",
    "observations",
    "latency_ms",
    "agent",
    "response_type",
    "language",
    "citations",
    "metadata",
    "timestamp",
]

EVALUATOR = Evaluator(
    GoldenIndex(load_golden(DEFAULT_GOLDEN), HashingEmbedder()), FixedGate(0.8), StructuralJudge()
)


def _check_decode(payload: bytes | str) -> None:
    try:
        parse_trace(payload)
    except InvalidTraceError as exc:
        assert exc.reason in INVALID_REASONS, exc.reason
        str(exc).encode("utf-8")
    hint = trace_id_hint(payload)
    if hint is not None:
        hint.encode("utf-8")


# Every character, surrogates and controls included.
any_char = st.characters(codec=None, categories=None)
hostile_text = st.one_of(
    st.text(any_char, max_size=40),
    st.sampled_from(["\ud800", "\udc00", "\x00", "\x1b[31m", "\u202e", "\u200b", "\ufeff", ""]),
)
numbers = st.one_of(
    st.integers(min_value=-(10**120), max_value=10**120),
    st.floats(allow_nan=True, allow_infinity=True),
)
json_values = st.recursive(
    st.none() | st.booleans() | numbers | hostile_text,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(hostile_text, kids, max_size=4),
    max_leaves=20,
)
trace_like = st.dictionaries(
    st.sampled_from(FIELDS) | hostile_text,
    json_values | hostile_text,
    max_size=len(FIELDS),
).map(lambda d: {"trace_id": "f", "question": "q?", "answer": "a.", **d})


@st.composite
def mutated_lines(draw: st.DrawFn) -> bytes:
    line = bytearray(draw(st.sampled_from(LINES)))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        pos = draw(st.integers(0, len(line)))
        piece = draw(st.binary(min_size=1, max_size=8))
        if op == "insert":
            line[pos:pos] = piece
        elif op == "delete":
            del line[pos : pos + len(piece)]
        else:
            line[pos : pos + len(piece)] = piece
    return bytes(line)


@st.composite
def nestings(draw: st.DrawFn) -> str:
    depth = draw(st.integers(0, 5000))
    opens = draw(st.lists(st.sampled_from(["[", '{"k":']), min_size=1, max_size=4))
    head = "".join(opens[i % len(opens)] for i in range(depth))
    tail = "".join("]" if opens[i % len(opens)] == "[" else "}" for i in reversed(range(depth)))
    closed = draw(st.booleans())
    return (
        '{"trace_id":"n","question":"q","answer":"a","metadata":{"x":'
        + head
        + "1"
        + (tail if closed else "")
        + "}}"
    )


@settings(max_examples=500)
@given(st.binary(max_size=3000))
def test_arbitrary_bytes(payload: bytes) -> None:
    _check_decode(payload)


@settings(max_examples=500)
@given(mutated_lines())
def test_mutated_hostile_lines(payload: bytes) -> None:
    _check_decode(payload)


@settings(max_examples=400)
@given(trace_like)
def test_hostile_structures(data: dict[str, Any]) -> None:
    text = json.dumps(data, allow_nan=True)  # NaN/Infinity literals, escaped surrogates
    _check_decode(text)
    _check_decode(text.encode())
    try:
        parse_trace(data)  # handed over already decoded
    except InvalidTraceError as exc:
        assert exc.reason in INVALID_REASONS


@settings(max_examples=200)
@given(nestings())
def test_deep_nesting(payload: str) -> None:
    _check_decode(payload)


@settings(max_examples=150)
@given(
    st.lists(
        st.one_of(
            mutated_lines(),
            st.binary(max_size=500),
            trace_like.map(lambda d: json.dumps(d, allow_nan=True).encode()),
            st.sampled_from(LINES),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_decode_then_evaluate_gives_one_outcome_per_input(batch: list[bytes]) -> None:
    tracemalloc.start()
    try:
        out = asyncio.run(EVALUATOR.evaluate_batch([RawTrace(p) for p in batch]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(out) == len(batch)
    for j in out:
        assert j.status in ("evaluated", "abstained", "judge_error", "invalid")
        if j.status == "invalid":
            assert j.reason in INVALID_REASONS
        assert j.status != "judge_error", j.error  # no stage of the core may fail
        j.model_dump_json().encode("utf-8")
    assert peak < 50_000_000, peak
