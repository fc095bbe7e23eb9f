"""OpenTelemetry in and out, with real components only.

A real instrumented agent (the OpenAI Python SDK with the official GenAI
instrumentation, or separately with OpenInference's; tests/support/otel_agent.py)
exports its spans by OTLP/HTTP to a real OpenTelemetry Collector (built from source by
``deploy/otel/collector``; otlp receiver -> batch -> kafka exporter,
``partition_traces_by_id``), which writes them to a real broker (deploy/kafka/broker).
``cargo-monitor stream --input-format otlp-proto`` judges them and writes the
judgments and the ``gen_ai.evaluation.result`` events (``otlp_logs``); the Collector's
kafka receiver reads the events back and its otlphttp exporter posts them to a small
OTLP/HTTP receiver in the test, where they are checked against the spans they evaluate.

Also ``cargo-monitor run --input-format otlp-json`` on the bundled sample recorded from
the same agent (deploy/otel/record_sample.py).

The Collector tests are marked ``kafka`` and ``otel``: they need Java and the broker
jars (``deploy/kafka/broker fetch``) and Go to build the Collector (``deploy/otel/collector
build``); the README's test command installs both. The ``run`` test needs neither.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from monitor.data import DEFAULT_SAMPLES
from monitor.schemas import Judgment
from pipelines.kafka.admin import ensure_topics
from pipelines.otel.ingest import interactions_from_lines
from tests.support.chat_server import scripted_server
from tests.support.kafka import Broker, Worker, collect
from tests.support.otel_agent import Mode, Turn, run_agent, script_for
from tests.support.otel_collector import COLLECTOR, Collector
from tests.support.otlp_receiver import LogRecordSeen, OtlpHttpReceiver

CLI = [sys.executable, "-m", "pipelines.cli"]
OTLP_SAMPLE = DEFAULT_SAMPLES.parent / "otlp_traffic.jsonl"
EVENT = "gen_ai.evaluation.result"
LABELS = {"pass", "fail", "abstained", "error"}


def _native(kind: str) -> dict[str, Any]:
    """The first record of that sample kind in the native sample traffic."""
    for line in DEFAULT_SAMPLES.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(rec, dict) and (rec.get("metadata") or {}).get("sample_kind") == kind:
            return rec
    raise AssertionError(f"no {kind} record in {DEFAULT_SAMPLES}")


def _turn(kind: str, k: int) -> Turn:
    rec = _native(kind)
    return Turn(
        question=rec["question"],
        answer=rec["answer"],
        case=dict(rec["context"]),
        documents=[{"id": f"kb-{k}", "content": "Support knowledge base passage.", "score": 0.8}],
        agent=rec["agent"],
        conversation_id=f"it-conv-{k}",
    )


@pytest.fixture
def logs_sink() -> Iterator[OtlpHttpReceiver]:
    r = OtlpHttpReceiver().start()
    try:
        yield r
    finally:
        r.stop()


def _collector(
    tmp: Path, broker: Broker, sink: OtlpHttpReceiver, encoding: str, group: str
) -> Collector:
    ensure_topics(broker.kafka, {"otlp_spans": 4, "otlp_logs": 4})
    c = Collector(tmp, broker.bootstrap, encoding=encoding, logs_http=sink.url, group=group)
    c.run("build")
    c.run("start")
    return c


def _verdicts(records: list[LogRecordSeen], trace_id: str) -> list[LogRecordSeen]:
    return [
        r
        for r in records
        if r.trace_id == trace_id and r.attributes.get("gen_ai.evaluation.name") == "cargo.verdict"
    ]


pytestmark = pytest.mark.integration


@pytest.mark.parametrize("encoding", ["otlp_proto", "otlp_json"])
@pytest.mark.kafka
@pytest.mark.otel
def test_collector_reads_the_monitors_evaluation_events_back_to_otlp_http(
    broker: Broker, logs_sink: OtlpHttpReceiver, tmp_path: Path, encoding: str
) -> None:
    """The events as the monitor encodes them (pipelines.otel.events), produced to
    otlp_logs, come out of the real Collector's kafka receiver -> otlphttp exporter with
    their ids and attributes: the wire format and the read-back path, without a worker."""
    from kafka import KafkaProducer

    from pipelines.otel.events import encode_logs, evaluation_records, logs_request

    collector = _collector(tmp_path, broker, logs_sink, encoding, f"g-events-{encoding}")
    trace_id, span_id = "5b8efff798038103d269b633813fc60c", "eee19b7ec3c1b174"
    judgment = Judgment.model_validate(
        {
            "trace_id": trace_id,
            "status": "evaluated",
            "reason": "accepted",
            "penalized": True,
            "scores": {"correctness": 0.25, "hallucination_fidelity": 0.4},
            "evaluated_at": datetime(2026, 11, 30, 12, 0, tzinfo=UTC),
        }
    )
    records = evaluation_records(
        judgment, trace_id=trace_id, span_id=span_id, response_id="chatcmpl-x"
    )
    value = encode_logs(logs_request(records), encoding)
    try:
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks="all")
        producer.send("otlp_logs", key=trace_id.encode(), value=value)
        producer.flush(timeout=60)
        producer.close()
        got = logs_sink.wait_for_logs(lambda rs: len(rs) >= len(records), timeout_s=120)
    finally:
        collector.run("stop")
    assert not logs_sink.errors
    assert len(got) == len(records) == 3, (len(got), collector.log_text()[-3000:])
    assert all(r.event_name == EVENT for r in got)
    assert {(r.trace_id, r.span_id) for r in got} == {(trace_id, span_id)}
    names = {r.attributes["gen_ai.evaluation.name"]: r.attributes for r in got}
    assert set(names) == {"cargo.verdict", "cargo.correctness", "cargo.hallucination_fidelity"}
    assert names["cargo.verdict"]["gen_ai.evaluation.score.label"] == "fail"
    assert names["cargo.correctness"]["gen_ai.evaluation.score.value"] == 0.25
    assert all(a["gen_ai.response.id"] == "chatcmpl-x" for a in names.values())
    # The otlphttp exporter's request: protobuf, gzip (deploy/otel/logs-http.yaml).
    assert logs_sink.headers[0]["content-type"] == "application/x-protobuf"
    assert logs_sink.headers[0].get("content-encoding") == "gzip"


@pytest.mark.parametrize("mode", ["genai", "openinference"])
@pytest.mark.kafka
@pytest.mark.otel
def test_instrumented_agent_through_the_collector_is_judged_and_its_events_come_back(
    broker: Broker, logs_sink: OtlpHttpReceiver, tmp_path: Path, mode: Mode
) -> None:
    turns = [_turn("correct", 0), _turn("contradiction", 1)]
    collector = _collector(tmp_path, broker, logs_sink, "otlp_proto", f"g-otel-{mode}")
    worker = Worker(
        broker,
        tmp_path,
        f"g-mon-{mode}",
        "w1",
        extra=[
            "--input-format",
            "otlp-proto",
            "--traces-topic",
            "otlp_spans",
            "--otel-quiet-period",
            "1",
            "--otel-events-topic",
            "otlp_logs",
        ],
    ).start()
    try:
        with scripted_server(*script_for(turns)) as model:
            results = run_agent(mode, turns, otlp=collector.otlp_http, model_url=model.url)
        assert len(results) == len(turns)
        judgments, dlq = collect(broker.bootstrap, len(turns), timeout_s=300)
        tids = {r["trace_id"] for r in results}
        events = logs_sink.wait_for_logs(
            lambda rs: all(_verdicts(rs, t) for t in tids), timeout_s=120
        )
    finally:
        worker.stop()
        collector.run("stop")
    log = worker.log.read_text(errors="replace")[-4000:]
    assert not dlq, (dlq, log)
    by_trace = {recs[-1]["trace_id"]: recs[-1] for recs in judgments.values()}
    assert set(by_trace) == tids, (sorted(by_trace), sorted(tids), log)

    correct, wrong = (by_trace[r["trace_id"]] for r in results)
    # In the gate, judged against the live context the tool returned.
    for j, turn in ((correct, turns[0]), (wrong, turns[1])):
        assert j["status"] == "evaluated", j
        assert j["diagnostics"]["actual_agent"] == turn.agent
        assert j["diagnostics"]["answer_chars"] == len(turn.answer)
        sentences = {c["sentence"] for c in j["claims"]}
        assert all(s in turn.answer for s in sentences), sentences
        from_context = {
            c["evidence"]["context_field"]: c["evidence"]["context_value"]
            for c in j["claims"]
            if c["evidence"]["source"] == "context"
        }
        assert from_context and all(turn.case[k] == v for k, v in from_context.items())
        assert j["gate"]["expected_agent"] == turn.agent
    assert correct["penalized"] is False
    assert wrong["penalized"] is True
    assert any(c["status"] == "contradicted" for c in wrong["claims"])

    # The evaluation events, read back through the Collector, on the evaluated spans.
    assert not logs_sink.errors
    for r, j in zip(results, (correct, wrong), strict=True):
        mine = [e for e in events if e.trace_id == r["trace_id"]]
        assert mine and all(e.event_name == EVENT for e in mine)
        assert {e.span_id for e in mine} == {r["root_span_id"]}
        (verdict,) = _verdicts(events, r["trace_id"])
        label = verdict.attributes["gen_ai.evaluation.score.label"]
        assert label in LABELS
        assert label == ("fail" if j["penalized"] else "pass")
        assert verdict.attributes["cargo.judgment.status"] == "evaluated"
        # A fail says what it rests on, as its judgment does; a pass says nothing.
        assert verdict.attributes.get("cargo.penalty_evidence") == j.get("penalty_evidence")
        assert (j.get("penalty_evidence") is not None) == j["penalized"]
        names = {e.attributes["gen_ai.evaluation.name"] for e in mine}
        assert {"cargo.correctness", "cargo.hallucination_fidelity"} <= names
        for e in mine:
            if e.attributes["gen_ai.evaluation.name"] != "cargo.verdict":
                assert 0.0 <= e.attributes["gen_ai.evaluation.score.value"] <= 1.0
        if mode == "genai":  # the GenAI instrumentation records gen_ai.response.id
            k = results.index(r)
            assert verdict.attributes["gen_ai.response.id"] == f"chatcmpl-{k:04d}-b"


def test_run_judges_the_bundled_otlp_sample(tmp_path: Path, logs_sink: OtlpHttpReceiver) -> None:
    """``run --input-format otlp-json`` on the recorded sample: one judgment per trace in
    the file, the usual summary; the contradicting answers are penalised, the correct
    ones are not; with ``--otlp-endpoint`` each judgment's verdict event reaches an
    OTLP/HTTP receiver on the trace's root span."""
    lines = OTLP_SAMPLE.read_bytes().splitlines()
    traces = {o.trace.trace_id: o.trace for o in interactions_from_lines(lines) if o.trace}
    kinds: dict[str, str] = {}
    for line in DEFAULT_SAMPLES.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("metadata"), dict):
            kinds.setdefault(rec["question"], rec["metadata"].get("sample_kind"))
    out = tmp_path / "judgments.jsonl"
    proc = subprocess.run(
        [
            *CLI,
            "run",
            "--input-format",
            "otlp-json",
            "--input",
            str(OTLP_SAMPLE),
            "--output",
            str(out),
            "--no-progress",
            "--metrics-port",
            "0",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--otlp-endpoint",
            logs_sink.url,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "run summary" in proc.stdout and "coverage" in proc.stdout
    judgments = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(traces) == 30
    assert sorted(j["trace_id"] for j in judgments) == sorted(traces)
    kind_of = {tid: kinds[t.question] for tid, t in traces.items()}
    outcome = Counter((kind_of[j["trace_id"]], j["status"], j["penalized"]) for j in judgments)
    assert outcome[("contradiction", "evaluated", True)] == 6, outcome
    assert outcome[("correct", "evaluated", False)] == 11, outcome
    assert sum(n for (k, _, _), n in outcome.items() if k == "off_topic") == 2
    assert all(s == "abstained" for (k, s, _) in outcome if k == "off_topic"), outcome

    # The evaluation events, sent by run itself (no Collector).
    assert not logs_sink.errors
    events = logs_sink.log_records()
    for j in judgments:
        tid = j["trace_id"]
        (verdict,) = _verdicts(events, tid)
        assert verdict.event_name == EVENT
        assert verdict.span_id == traces[tid].metadata["otel"]["root_span_id"]
        label = verdict.attributes["gen_ai.evaluation.score.label"]
        if j["status"] == "evaluated":
            assert label == ("fail" if j["penalized"] else "pass")
        else:
            assert label == j["status"] == "abstained"


@pytest.mark.otel
def test_collector_script_refuses_a_logs_endpoint_that_is_not_a_url(tmp_path: Path) -> None:
    collector = Collector(tmp_path, "127.0.0.1:1", logs_http="127.0.0.1:4318")
    collector.run("build")
    proc = subprocess.run(
        [str(COLLECTOR), "start"],
        env=collector.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "CARGO_OTEL_LOGS_HTTP_ENDPOINT must be an http:// or https:// URL" in proc.stderr
    status = subprocess.run(
        [str(COLLECTOR), "status"], env=collector.env, capture_output=True, timeout=60, check=False
    )
    assert status.returncode == 3  # nothing was started
