"""``--redact``: structure kept, interaction content replaced by salted hashes."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import pytest
from pydantic import SecretStr

from monitor.embeddings import HashingEmbedder
from monitor.errors import ConfigError
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.judges import StructuralJudge
from monitor.redact import PREFIX, Redactor, make_redactor
from monitor.retrieval import GoldenIndex
from monitor.schemas import GoldenSet, JudgeErrorInfo, Judgment
from monitor.traces import RawTrace

SALT = "s3cret-salt-for-tests-0123"
ANSWER = "Case 171056262 is currently Open. Your service tag 7XK2QF3 is under warranty."


def _strings(value: object) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


async def _judgments(golden: GoldenSet) -> list[Judgment]:
    ev = Evaluator(GoldenIndex(golden, HashingEmbedder()), FixedGate(0.8), StructuralJudge())
    lines = [
        {
            "trace_id": "t-open",
            "question": "What is the status of case 171056262?",
            "answer": ANSWER,
            "context": {"caseNumber": "171056262", "status": "Open", "serviceTag": "7XK2QF3"},
            "agent": "case",
        },
        {
            "trace_id": "t-contra",
            "question": "What is the status of case 171056262?",
            "answer": "Case 536762755 is currently Closed.",
            "context": {"caseNumber": "171056262", "status": "Open"},
            "agent": "case",
        },
        {"trace_id": "t-bad", "question": 5, "answer": "x"},
    ]
    return await ev.evaluate_batch([RawTrace(json.dumps(x)) for x in lines])


async def test_redacted_judgments_keep_structure_and_drop_content(golden: GoldenSet) -> None:
    plain = await _judgments(golden)
    assert plain[0].status == "evaluated" and plain[0].claims  # the test has claims to hide
    red = Redactor(SALT)
    for j in plain:
        r = red(j)
        # Same structure: status, reasons, scores, verdicts, spans, fields, gate, source.
        assert (r.trace_id, r.status, r.reason, r.penalized) == (
            j.trace_id,
            j.status,
            j.reason,
            j.penalized,
        )
        assert r.scores == j.scores and r.gate == j.gate and r.diagnostics == j.diagnostics
        assert [(c.field, c.status, c.type, c.span) for c in r.claims] == [
            (c.field, c.status, c.type, c.span) for c in j.claims
        ]
        assert [(s.index, s.status, s.step) for s in r.steps] == [
            (s.index, s.status, s.step) for s in j.steps
        ]
        Judgment.model_validate_json(r.model_dump_json())  # still a valid judgment
        text = r.model_dump_json()
        # (the golden reference's own step texts stay: they are not interaction data)
        for secret in ("171056262", "7XK2QF3", "536762755", "currently Open"):
            assert secret not in text, (j.trace_id, secret)
        assert SALT not in text
    evaluated = red(plain[0])
    assert all(
        c.value.startswith(PREFIX) and c.sentence.startswith(PREFIX) for c in evaluated.claims
    )
    # The invalid judgment's rationale is the decoder's message and stays readable.
    assert red(plain[2]).rationale == plain[2].rationale and "question" in plain[2].rationale


async def test_hashes_are_salted_and_stable(golden: GoldenSet) -> None:
    a, b = Redactor(SALT), Redactor(SALT + "x")
    assert a.text("171056262") == a.text("171056262") != b.text("171056262")
    assert a.text("171056262") != a.text("171056263")
    assert len(a.text("x")) == len(PREFIX) + 32
    # The same value in two judgments gets the same hash (joinable within a deployment).
    plain = await _judgments(golden)
    values = {c.value for j in plain for c in a(j).claims if c.field == "caseNumber"}
    assert len(values) >= 1 and all(v.startswith(PREFIX) for v in values)


def test_an_abstention_rationale_is_kept() -> None:
    # The gate's reason and figures, no content: hashing it hid why nothing was judged.
    text = "not evaluated: the nearest reference's similarity 0.2300 is below tau 0.8000"
    j = Judgment(
        trace_id="t",
        status="abstained",
        reason="low_similarity",
        rationale=text,
        evaluated_at=datetime.now(UTC),
    )
    assert Redactor(SALT)(j).rationale == text


def test_error_texts_are_hashed_but_kinds_kept() -> None:
    j = Judgment(
        trace_id="t",
        status="judge_error",
        reason="unparseable",
        error=JudgeErrorInfo(kind="unparseable", reason="no JSON object in: 'Case 171056262 ...'"),
        evaluated_at=datetime.now(UTC),
    )
    r = Redactor(SALT)(j)
    assert r.error is not None and r.error.kind == "unparseable"
    assert "171056262" not in r.model_dump_json()


def test_dead_letter_records_lose_the_original() -> None:
    raw = b'{"trace_id": "t", "question": "my email is a@b.example"'
    import base64

    record = {
        "reason": "invalid_json",
        "field": None,
        "detail": "Expecting ',' delimiter at line 1 column 52",
        "trace_id": "t",
        "original_base64": base64.b64encode(raw).decode(),
        "original_text": raw.decode(),
        "original_sha256": "ab" * 32,
    }
    out = Redactor(SALT).dead_letter(record)
    assert out["original_sha256"] is None
    assert "a@b.example" not in json.dumps(out)
    assert out["original_base64"] is None and out["original_bytes"] == len(raw)
    assert out["original_text"].startswith(PREFIX) and out["redacted"] is True
    assert out["reason"] == "invalid_json" and out["trace_id"] == "t"


def test_a_salt_is_required_and_never_shown() -> None:
    assert make_redactor(False, None) is None
    with pytest.raises(ConfigError, match="CARGO_REDACT_SALT"):
        make_redactor(True, None)
    with pytest.raises(ConfigError, match="at least 16"):
        make_redactor(True, SecretStr("short"))
    red = make_redactor(True, SecretStr(SALT))
    assert red is not None and SALT not in repr(red) and SALT not in str(red)


def test_secret_mask_masks_raw_and_json_escaped_forms() -> None:
    from monitor.redact import SecretMask

    mask = SecretMask([SecretStr('pa"ss\\word'), "sk-key-1234", None, "", "ab"])
    assert bool(mask) and not SecretMask([None, ""])
    text = json.dumps({"reason": 'echo sk-key-1234 and pa"ss\\word', "n": "ab"})
    masked = mask(text)
    assert "sk-key-1234" not in masked and "ss\\\\word" not in masked
    assert json.loads(masked) == {"reason": "echo [secret] and [secret]", "n": "ab"}
    assert "sk-key" not in repr(mask)


async def test_the_stream_writes_redacted_and_masked_outcomes(golden: GoldenSet) -> None:
    """The worker's one serialisation point (pipelines.kafka.delivery) applies --redact
    and the secret mask to judgments and dead-letter records alike."""
    from collections.abc import Awaitable
    from typing import Any

    from prometheus_client import CollectorRegistry

    from monitor.metrics import MonitorMetrics
    from monitor.redact import SecretMask
    from pipelines.kafka.delivery import Delivery, InputRecord, Topics
    from pipelines.kafka.metrics import StreamMetrics

    sent: list[tuple[str, bytes]] = []

    class Sender:
        async def send(self, topic: str, key: bytes, value: bytes) -> Awaitable[Any]:
            sent.append((topic, value))
            fut: Any = asyncio.get_running_loop().create_future()
            fut.set_result(None)
            return fut  # type: ignore[no-any-return]

        async def flush(self) -> None:
            pass

    class Marks:
        def get(self, key: str) -> int | None:
            return None

        def put(self, key: str, offset: int, anchor: Any) -> None:
            pass

    class Reader:
        async def read(self, *args: Any) -> list[InputRecord]:
            return []

    ev = Evaluator(GoldenIndex(golden, HashingEmbedder()), FixedGate(0.8), StructuralJudge())
    registry = CollectorRegistry()
    delivery = Delivery(
        topics=Topics("agent-traces", "cargo-judgments", "cargo-traces-dlq"),
        worker="w",
        sender=Sender(),
        watermarks=Marks(),
        reader=Reader(),
        evaluate=ev.evaluate_batch,
        metrics=MonitorMetrics(registry, golden, gate_kind="fixed", judge_name="structural"),
        stream_metrics=StreamMetrics.create(registry),
        redactor=Redactor(SALT),
        mask=SecretMask(["sk-stream-key-1234"]),
    )
    good = json.dumps(
        {
            "trace_id": "t-open",
            "question": "What is the status of case 171056262?",
            "answer": ANSWER,
            "context": {"caseNumber": "171056262", "status": "Open", "serviceTag": "7XK2QF3"},
            "agent": "case",
        }
    ).encode()
    bad = b'{"trace_id": "t-bad", "question": "case 171056262 sk-stream-key-1234"'
    records = [InputRecord("agent-traces", 0, k, v) for k, v in enumerate([good, bad])]
    await delivery.finalise(records, await delivery.outcomes(records), {})
    assert [t for t, _ in sent] == ["cargo-judgments", "cargo-traces-dlq"]
    blob = b"\n".join(v for _, v in sent).decode()
    assert "171056262" not in blob and "7XK2QF3" not in blob and "sk-stream-key" not in blob
    judgment = json.loads(sent[0][1])
    assert judgment["status"] == "evaluated" and judgment["claims"]
    assert all(c["value"].startswith(PREFIX) for c in judgment["claims"])
    record = json.loads(sent[1][1])
    assert record["reason"] == "invalid_json" and record["trace_id"] == "t-bad"
    assert record["redacted"] is True and record["original_base64"] is None


def test_an_exception_quoting_the_input_is_hashed_in_the_dead_letter_record() -> None:
    from pipelines.kafka.delivery import Failure, dead_letter

    raw = b'{"trace_id": "t", "question": "customer Jane Doe, card 4111"}'
    exc = KeyError("customer Jane Doe, card 4111")
    record = dead_letter(
        raw,
        Failure.crashed("evaluator_error", exc, attempts=3),
        topic="agent-traces",
        partition=0,
        offset=7,
        worker="w",
    )
    assert "Jane Doe" in json.dumps(record)  # what the worker writes without --redact
    out = Redactor(SALT).dead_letter(record)
    assert "Jane Doe" not in json.dumps(out) and "4111" not in json.dumps(out)
    assert out["detail"].startswith(PREFIX)
    assert out["reason"] == "evaluator_error" and out["error_type"] == "KeyError"


def test_a_secret_with_a_quote_and_a_non_ascii_letter_is_masked_in_json_lines() -> None:
    from monitor.redact import SecretMask

    key = 'pä"ss-key-0042'
    line = json.dumps({"reason": f"echoed {key}"}, ensure_ascii=False)
    masked = SecretMask([key])(line)
    assert "ss-key-0042" not in masked and "[secret]" in masked
    escaped = json.dumps({"reason": f"echoed {key}"})
    assert "ss-key-0042" not in SecretMask([key])(escaped)


@pytest.mark.parametrize(
    ("reason", "detail"),
    [
        ("assembly_error", "ValueError: customer Jane Doe"),
        ("otlp_undecodable", 'not OTLP/JSON: Couldn\'t parse integer: "Jane Doe"'),
        ("otlp_bad_id", "not hex: 'Jane Doe'"),
        ("mapping_invalid", "context.name: Input should be a valid string 'Jane Doe'"),
        ("citations_invalid", "sources.0.text: 'Jane Doe' is too long"),
    ],
)
def test_otel_reasons_that_quote_the_input_are_hashed(reason: str, detail: str) -> None:
    """An OpenTelemetry failure's detail may quote the input (an exception's text, the
    protobuf parser's message): hashed in the dead-letter record and in the invalid
    judgment's rationale; a trace's dead-letter record (no original) gets no original
    fields."""
    red = Redactor(SALT)
    record = {"reason": reason, "detail": detail, "kind": "otlp_trace", "records": []}
    out = red.dead_letter(record)
    assert out["detail"].startswith(PREFIX) and out["redacted"] is True
    assert "original_text" not in out and "original_base64" not in out
    j = Judgment(
        trace_id="t", status="invalid", reason=reason, rationale=detail,
        evaluated_at=datetime.now(UTC),
    )  # fmt: skip
    assert red(j).rationale == red.text(detail)
    kept = j.model_copy(update={"reason": "no_question", "rationale": "no user message"})
    assert red(kept).rationale == "no user message"  # the decoder's own words stay
