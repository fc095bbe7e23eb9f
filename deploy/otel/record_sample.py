"""Record the bundled OTLP sample (monitor/data/samples/otlp_traffic.jsonl).

30 questions of the native sample traffic (monitor/data/samples/traffic.jsonl: its
question, answer and context; correct answers and wrong ones of several kinds) are
asked of the instrumented test agent (tests/support/otel_agent.py: the OpenAI SDK
against the scripted OpenAI-compatible server, a retrieval step, a ``get_case`` tool
call returning the turn's context, the answer), alternately with the official GenAI
instrumentation and OpenInference's. The OTel SDK exports the spans by OTLP/HTTP to a
real Collector (deploy/otel/collector, kafka exporter, ``encoding: otlp_json``,
``partition_traces_by_id: true``), which writes them to a real broker
(deploy/kafka/broker, spare port). The records of ``otlp_spans`` are read back and
written one per line, as the kafka exporter wrote them (each an
``ExportTraceServiceRequest`` in OTLP/JSON), ordered by their first span's start time.
Finally every trace is assembled again from the file (``interactions_from_lines``) and
checked against the question and answer asked.

Needs the broker jars (``deploy/kafka/broker fetch``), the Collector
(``deploy/otel/collector build``) and the dev extra. ``make otel-sample`` runs it::

    python deploy/otel/record_sample.py [--output PATH] [--keep]

Span ids, trace ids and times differ on every run; the questions, answers, contexts,
documents and model replies do not.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from monitor.data import DEFAULT_SAMPLES  # noqa: E402
from pipelines.otel.ingest import interactions_from_lines  # noqa: E402
from tests.support.chat_server import scripted_server  # noqa: E402
from tests.support.kafka import Broker  # noqa: E402
from tests.support.otel_agent import MODES, Turn, run_agent, script_for  # noqa: E402
from tests.support.otel_collector import Collector  # noqa: E402

OUTPUT = REPO / "monitor" / "data" / "samples" / "otlp_traffic.jsonl"
TOPIC = "otlp_spans"
MAX_BYTES = 300_000

# How many of each kind of the native sample traffic, in file order.
PICK = {
    "correct": 11,
    "contradiction": 6,
    "unverifiable_extra": 4,
    "policy": 5,
    "off_topic": 2,
    "clarification": 1,
    "guardrail": 1,
}

# The retrieval step's documents: one short knowledge-base passage per agent (the same
# for every turn of that agent; the sample traffic has no documents of its own).
KB = {
    "asset": "Entitlements and warranty end dates are listed per service tag.",
    "case": "A support case moves from Open to In Progress to Closed.",
    "workorder": "A work order is dispatched to a field engineer once the parts ship.",
    "task": "Follow-up tasks are assigned to the account team.",
    "policy": "Policy answers come from the published support policies.",
}


def pick_turns() -> list[Turn]:
    wanted = dict(PICK)
    turns: list[Turn] = []
    for line in DEFAULT_SAMPLES.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(rec, dict) or not isinstance(rec.get("metadata"), dict):
            continue
        kind = rec["metadata"].get("sample_kind")
        if wanted.get(kind, 0) <= 0 or "citations" in rec:
            continue
        wanted[kind] -= 1
        agent = str(rec.get("agent") or "support")
        n = len(turns)
        turns.append(
            Turn(
                question=rec["question"],
                answer=rec["answer"],
                case=dict(rec.get("context") or {}),
                documents=[
                    {
                        "id": f"kb-{agent}",
                        "content": KB.get(agent, KB["policy"]),
                        "score": round(0.9 - 0.01 * (n % 10), 2),
                    }
                ],
                agent=agent,
                conversation_id=f"sample-conv-{n:02d}",
            )
        )
    missing = {k: v for k, v in wanted.items() if v > 0}
    if missing:
        raise SystemExit(f"record_sample: the sample traffic lacks {missing}")
    return turns


def _trace_ids(value: bytes) -> set[str]:
    doc = json.loads(value)
    return {
        span["traceId"]
        for rs in doc.get("resourceSpans", [])
        for ss in rs.get("scopeSpans", [])
        for span in ss.get("spans", [])
    }


def _first_start(value: bytes) -> int:
    doc = json.loads(value)
    return min(
        int(span.get("startTimeUnixNano", 0))
        for rs in doc.get("resourceSpans", [])
        for ss in rs.get("scopeSpans", [])
        for span in ss.get("spans", [])
    )


def consume(bootstrap: str, trace_ids: set[str], timeout_s: float = 120) -> list[bytes]:
    """Every record of the spans topic, once all trace ids were seen and the topic has
    been quiet for 5 s (the spans of a trace may come in several records)."""
    from kafka import KafkaConsumer

    consumer = KafkaConsumer(
        TOPIC,
        bootstrap_servers=bootstrap,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
        group_id=None,
        consumer_timeout_ms=5000,
    )
    records: list[bytes] = []
    seen: set[str] = set()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        before = len(records)
        for msg in consumer:
            records.append(msg.value)
            seen |= _trace_ids(msg.value)
        if trace_ids <= seen and len(records) == before:
            break
    consumer.close()
    if not trace_ids <= seen:
        raise SystemExit(f"record_sample: {len(trace_ids - seen)} traces never reached {TOPIC}")
    return records


def record(output: Path, keep: bool) -> dict[str, Any]:
    from pipelines.kafka.admin import ensure_topics

    turns = pick_turns()
    by_mode: dict[str, list[tuple[int, Turn]]] = {m: [] for m in MODES}
    for k, t in enumerate(turns):
        by_mode[MODES[k % 2]].append((k, t))
    tmp = Path(tempfile.mkdtemp(prefix="cargo-otel-sample-"))
    broker = Broker(tmp)
    broker.run("fetch")
    broker.run("start")
    collector = Collector(tmp, broker.bootstrap, encoding="otlp_json")
    asked: dict[str, Turn] = {}  # trace id -> the turn asked
    try:
        ensure_topics(broker.kafka, {TOPIC: 4})
        collector.run("build")
        collector.run("start")
        for n, (mode, items) in enumerate(by_mode.items()):
            # One process per instrumentation (they patch the openai module).
            mode_turns = [t for _, t in items]
            with scripted_server(*script_for(mode_turns, start=100 * n)) as model:
                out = run_agent(
                    mode,  # type: ignore[arg-type]
                    mode_turns,
                    otlp=collector.otlp_http,
                    model_url=model.url,
                    start=100 * n,
                )
            assert len(out) == len(mode_turns), (mode, len(out))
            asked.update({r["trace_id"]: t for r, t in zip(out, mode_turns, strict=True)})
        records = consume(broker.bootstrap, set(asked))
    finally:
        collector.run("stop")
        broker.run("stop")
        if not keep:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
    records.sort(key=_first_start)
    output.write_bytes(b"".join(r.rstrip(b"\n") + b"\n" for r in records))
    # Read back: one interaction per trace, with the question and answer asked.
    got = {}
    for outcome in interactions_from_lines(output.read_bytes().splitlines()):
        assert outcome.trace is not None, outcome.error
        got[outcome.trace.trace_id] = outcome.trace
    assert set(got) == set(asked), (len(got), len(asked))
    for tid, trace in got.items():
        assert trace.question == asked[tid].question and trace.answer == asked[tid].answer, tid
        assert {k: trace.context[k] for k in asked[tid].case} == asked[tid].case, tid
    return {
        "records": len(records),
        "traces": len(got),
        "bytes": output.stat().st_size,
        "modes": {m: len(v) for m, v in by_mode.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="deploy/otel/record_sample.py")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--keep", action="store_true", help="keep the broker/Collector data")
    args = parser.parse_args(argv)
    stats = record(args.output, args.keep)
    print(json.dumps(stats))
    if stats["bytes"] > MAX_BYTES:
        print(f"record_sample: {args.output} is over {MAX_BYTES} bytes", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
