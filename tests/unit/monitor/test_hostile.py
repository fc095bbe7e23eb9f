"""The hostile corpus (tests/data/hostile) through the decoder, the sources and the
evaluator: every case gets its own outcome, nothing else escapes, memory stays bounded."""

from __future__ import annotations

import functools
import importlib.util
import json
import sys
import tracemalloc
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from monitor.citations import CitationChecker
from monitor.embeddings import HashingEmbedder
from monitor.errors import InvalidTraceError
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.io import FileSource, StdinSource
from monitor.judges import StructuralJudge
from monitor.limits import InputLimits
from monitor.retrieval import GoldenIndex
from monitor.schemas import GoldenSet, Judgment, Trace
from monitor.schemas.citation import CitationReport
from monitor.traces import INVALID_REASONS, RawTrace, parse_trace, trace_id_hint

HOSTILE = Path(__file__).resolve().parents[2] / "data" / "hostile"


def _load_corpus() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_corpus", HOSTILE / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


corpus = _load_corpus()
SMALL = corpus.small_cases()


@functools.cache
def large() -> list[Any]:
    cases: list[Any] = corpus.large_cases()
    return cases


def _expected(case: object, got: str) -> bool:
    expect = case.expect  # type: ignore[attr-defined]
    return got == expect or (expect == "schema" and got in corpus.SCHEMA_REASONS)


def _outcome(line: bytes) -> str:
    try:
        parse_trace(line.rstrip(b"\r"))
    except InvalidTraceError as exc:
        assert exc.reason in INVALID_REASONS
        return exc.reason
    return "ok"


def test_the_committed_corpus_is_what_the_generator_writes() -> None:
    written = (HOSTILE / "corpus.jsonl").read_bytes()
    assert written == b"".join(c.line + b"\n" for c in SMALL)
    assert len(written) < 200_000  # the big cases are generated, never committed


def test_the_corpus_covers_the_issue_list() -> None:
    names = " ".join(c.name for c in [*SMALL, *large()])
    for topic in (
        "bomb_array_1e5",
        "bomb_object_1e5",
        "number_NaN",
        "number_Infinity",
        "number_overflow",
        "lone_high_surrogate",
        "nul_escaped",
        "invalid_start_byte",
        "bom_leading",
        "crlf",
        "duplicate_trace_id",
        "string_10mb",
        "answer_1mb",
        "deep_context_value",
        "zero_width_in_trace_id",
        "homoglyph",
        "rlo_in",
        "injection_everywhere",
    ):
        assert topic in names
    wrong = {
        c.name[len("wrong_") :].rsplit("_", 1)[0] for c in SMALL if c.name.startswith("wrong_")
    }
    assert wrong == set(Trace.model_fields)  # a wrong type at every field


@pytest.mark.parametrize("case", SMALL, ids=[c.name for c in SMALL])
def test_each_small_case_gets_its_outcome(case: object) -> None:
    if case.expect == "skip":  # type: ignore[attr-defined]
        return
    got = _outcome(case.line)  # type: ignore[attr-defined]
    assert _expected(case, got), (case.name, got)  # type: ignore[attr-defined]


@pytest.mark.parametrize("k", range(6))
def test_each_large_case_gets_its_outcome_in_bounded_memory(k: int) -> None:
    case = large()[k]
    tracemalloc.start()
    try:
        got = _outcome(case.line)
        hint = trace_id_hint(case.line)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert _expected(case, got), (case.name, got)
    # Rejected before decoding (size, depth): almost nothing; decoded: a few copies.
    bound = 1_000_000 if got in ("too_large", "too_deep") else 4 * len(case.line)
    assert peak < bound, (case.name, peak)
    assert hint is None or hint.startswith("h-")


def test_trace_id_hints_are_clean_or_absent() -> None:
    for case in [*SMALL, *large()]:
        hint = trace_id_hint(case.line)
        if hint is not None:
            assert hint.isprintable() and len(hint) <= 256, case.name
            hint.encode("utf-8")
    assert trace_id_hint(large()[0].line) is None  # a bare bomb has no id
    assert trace_id_hint(large()[2].line) == "h-bomb-meta"  # found without decoding
    assert trace_id_hint(large()[3].line) == "h-10mb"


def test_limits_are_configurable() -> None:
    line = json.dumps({"trace_id": "t", "question": "q", "answer": "a" * 50}).encode()
    assert _outcome(line) == "ok"
    with pytest.raises(InvalidTraceError) as exc:
        parse_trace(line, InputLimits(max_string_chars=20))
    assert (exc.value.reason, exc.value.field) == ("string_too_long", "answer")
    with pytest.raises(InvalidTraceError) as exc:
        parse_trace(line, InputLimits(max_payload_bytes=len(line) - 1))
    assert exc.value.reason == "too_large"
    with pytest.raises(InvalidTraceError) as exc:
        parse_trace(b'{"a": {"b": 1}}', InputLimits(max_json_depth=1))
    assert exc.value.reason == "too_deep"


def test_decoded_payloads_are_bounded_too() -> None:
    """A payload handed over as a dict (already decoded) gets the same checks, without
    recursion, even when it refers to itself."""
    loop: dict[str, object] = {"trace_id": "t", "question": "q", "answer": "a"}
    loop["metadata"] = loop
    with pytest.raises(InvalidTraceError) as exc:
        parse_trace(loop)
    assert exc.value.reason == "too_deep"
    with pytest.raises(InvalidTraceError) as exc:
        parse_trace({"trace_id": "t", "question": "q\x00", "answer": "a"})
    assert exc.value.reason == "control_character"


def test_an_unexpected_decoder_failure_is_decode_error() -> None:
    class Weird(dict):  # type: ignore[type-arg]
        def items(self):  # type: ignore[no-untyped-def]
            raise RuntimeError("surprise")

    with pytest.raises(InvalidTraceError) as exc:
        parse_trace(Weird(trace_id="t"))
    assert exc.value.reason == "decode_error"
    assert "RuntimeError" in exc.value.detail


def _evaluator(golden: GoldenSet, **kw: object) -> Evaluator:
    return Evaluator(
        GoldenIndex(golden, kw.pop("embedder", HashingEmbedder())),  # type: ignore[arg-type]
        kw.pop("gate", FixedGate(0.8)),  # type: ignore[arg-type]
        StructuralJudge(),
        **kw,  # type: ignore[arg-type]
    )


async def test_the_evaluator_gives_one_judgment_per_case(golden: GoldenSet) -> None:
    cases = [c for c in [*SMALL, *large()] if c.expect != "skip"]
    ev = _evaluator(golden)
    out = await ev.evaluate_batch([RawTrace(c.line.rstrip(b"\r")) for c in cases])
    assert len(out) == len(cases)
    for case, j in zip(cases, out, strict=True):
        got = "ok" if j.status != "invalid" else j.reason
        assert _expected(case, got), (case.name, j.status, j.reason)
        assert j.status != "judge_error", (case.name, j.error)
        j.model_dump_json().encode("utf-8")  # storable as UTF-8 JSON


async def _collect(source: FileSource | StdinSource) -> list[RawTrace]:
    return [item async for item in source]


async def test_file_source_never_holds_an_over_limit_line(tmp_path: Path) -> None:
    path = tmp_path / "all.jsonl"
    cases = [*SMALL, *large()]
    corpus.write(path, cases)
    tracemalloc.start()
    try:
        items = await _collect(FileSource(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    inputs = [c for c in cases if c.expect != "skip"]
    assert len(items) == len(inputs)
    sizes = {c.name: len(c.line) for c in inputs}
    over = [i for i in items if i.truncated_size is not None]
    assert [i.truncated_size for i in over] == [sizes["string_10mb"]]
    assert peak < 4_000_000  # the 10 MB line was never held; the largest kept is ~1 MB
    ev = _evaluator(await _golden())
    out = await ev.evaluate_batch(items)
    by_line = {j.source.line: j for j in out if j.source}
    assert len(by_line) == len(inputs)
    ten_mb = next(j for j in out if j.trace_id == "h-10mb")
    assert (ten_mb.status, ten_mb.reason) == ("invalid", "too_large")


async def _golden() -> GoldenSet:
    from monitor.golden import load_golden
    from monitor.settings import DEFAULT_GOLDEN

    return load_golden(DEFAULT_GOLDEN)


async def test_stdin_source_applies_the_same_line_rules() -> None:
    import io

    data = b'{"a": 1}\n\n' + b"x" * 3000 + b"\r\n" + b'{"b": 2}'
    items = await _collect(StdinSource(io.BytesIO(data), max_line_bytes=1000))
    assert [(i.location.line if i.location else None, i.truncated_size) for i in items] == [
        (1, None),
        (3, 3001),
        (4, None),
    ]
    assert items[1].payload == b"x" * 1002  # the head that was read, not the line
    assert items[2].payload == b'{"b": 2}'


# --------------------------------------------------------------------- per-trace isolation

MARK = "zzpoisonzz"


class PoisonEmbedder(HashingEmbedder):
    """Fails any batch that holds the marked question."""

    def embed(self, texts: list[str]) -> object:  # type: ignore[override]
        if any(MARK in t for t in texts):
            raise ValueError("cannot embed this")
        return super().embed(texts)


class PoisonCitations(CitationChecker):
    async def check_async(self, trace: Trace) -> CitationReport | None:
        if MARK in trace.answer:
            raise KeyError("citation bug")
        return await super().check_async(trace)


def _trace_line(tid: str, question: str, answer: str, **extra: object) -> bytes:
    return json.dumps(
        {
            "trace_id": tid,
            "question": question,
            "answer": answer,
            "context": {"caseNumber": "171056262"},
            "agent": "case",
            **extra,
        }
    ).encode()


async def test_a_failing_embedding_fails_only_its_trace(golden: GoldenSet) -> None:
    ev = _evaluator(golden, embedder=PoisonEmbedder())
    good = "What is the status of case 171056262?"
    out = await ev.evaluate_batch(
        [
            RawTrace(_trace_line("a", good, "Case 171056262 is Open.")),
            RawTrace(_trace_line("b", f"{good} {MARK}", "Case 171056262 is Open.")),
            RawTrace(_trace_line("c", good, "Case 171056262 is Open.")),
        ]
    )
    assert [j.trace_id for j in out] == ["a", "b", "c"]
    assert out[1].status == "judge_error" and out[1].error is not None
    assert out[1].error.kind == "internal"
    assert out[1].error.reason.startswith("embedding failed: ValueError")
    assert all(j.status != "judge_error" for j in (out[0], out[2]))


async def test_a_failing_stage_fails_only_its_trace(golden: GoldenSet) -> None:
    ev = _evaluator(golden, citations=PoisonCitations())
    good = "What is the status of case 171056262?"
    cites = {"sources": [{"source_id": "kb", "text": "Case status is shown in the portal."}]}
    out = await ev.evaluate_batch(
        [
            RawTrace(_trace_line("a", good, "Case 171056262 is Open. [kb]", citations=cites)),
            RawTrace(_trace_line("b", good, f"Case 171056262 is Open. {MARK}", citations=cites)),
        ]
    )
    assert out[0].status != "judge_error" and out[0].citations is not None
    j: Judgment = out[1]
    assert j.status == "judge_error" and j.error is not None
    assert j.error.reason.startswith("citations failed: KeyError")
    assert j.gate is not None and j.diagnostics is not None  # what ran before is kept


def test_one_long_token_does_not_stall_the_polarity_reader() -> None:
    # A base64 blob or a run of one letter within the answer limit: a pattern tried from
    # every letter of it read to its end each time (quadratic: about a minute a call at
    # 200,000 characters before the fix). A liveness bound, not a speed target.
    import time

    from monitor.text.polarity import polarity_flip

    blob = "x" * 100_000
    started = time.monotonic()
    flip = polarity_flip(
        "You must sign the form before the visit can be booked.", f"Attachment: {blob} ok"
    )
    assert time.monotonic() - started < 10
    assert flip is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # Each "rather than" once read all the text before it; each "not arrive" once
        # counted the "no-show"s of both texts (about 2 minutes and 50 s before).
        ("Use the rear entrance, not the front.", "rather than x " * 14_286),
        ("do not arrive " * 14_286, "arrive on time"),
    ],
)
def test_many_repeated_phrases_do_not_stall_the_polarity_reader(step: str, answer: str) -> None:
    import time

    from monitor.text.polarity import polarity_flip

    started = time.monotonic()
    polarity_flip(step, answer)
    assert time.monotonic() - started < 20


def test_many_deadline_bounds_do_not_stall_the_bound_reader() -> None:
    # Each number before "before" once joined every word before it to look for "at
    # least" (quadratic: 241 s on 80,000 words in a first version of the rule). A
    # liveness bound, not a speed target.
    import time

    from monitor.steps import _bounds

    started = time.monotonic()
    ways = _bounds(" ".join(["at least 3 days before"] * 20_000))
    assert time.monotonic() - started < 20
    assert ways[3.0] == frozenset({"min"})
