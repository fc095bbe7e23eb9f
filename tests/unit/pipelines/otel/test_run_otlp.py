"""``run`` on OTLP/JSON lines, the evaluation events it writes, and the OTLP/HTTP
exporter against a real local HTTP server."""

from __future__ import annotations

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from rich.console import Console

from monitor.data import DEFAULT_SAMPLES
from monitor.errors import ConfigError
from monitor.settings import CargoSettings
from pipelines.embedded import run_monitor
from pipelines.otel.decode import sniff_format
from pipelines.otel.events import evaluation_records
from pipelines.otel.export import OtlpHttpLogs
from pipelines.otel.settings import OtelSettings, logs_url
from tests.unit.pipelines.otel.otlp import G_ROOT, GT, OT, genai_spans, openinference_spans, record


def _run(
    tmp: Path, lines: list[str], cargo: dict[str, Any] | None = None, **otel: Any
) -> tuple[Any, list[dict[str, Any]], Path]:
    src = tmp / "in.jsonl"
    src.write_text("\n".join(lines) + "\n")
    out, events = tmp / "judgments.jsonl", tmp / "events.jsonl"
    settings = CargoSettings(
        embedder="hashing", cache_dir=tmp / "cache", metrics_port=0, **(cargo or {})
    )
    summary = asyncio.run(
        run_monitor(
            settings,
            input_path=str(src),
            output=str(out),
            follow=False,
            keep_serving=False,
            progress=False,
            console=Console(file=open(tmp / "console.txt", "w")),  # noqa: SIM115
            otel=OtelSettings(**otel),
            events_out=str(events),
        )
    )
    judgments = [json.loads(x) for x in out.read_text().splitlines()]
    return summary, judgments, events


def test_run_on_otlp_json_lines(tmp_path: Path) -> None:
    spans = genai_spans()
    lines = [
        record(*spans[4:]),  # one trace over two lines, root last
        "",
        record(*openinference_spans()),
        record(*spans[:4]),
        "{this is not json",
        json.dumps({"resourceSpans": "not a list"}),
    ]
    summary, judgments, events = _run(tmp_path, lines, input_format="otlp-json")
    by_id = {j["trace_id"]: j for j in judgments}
    assert set(by_id) == {GT, OT, None}
    assert [j["reason"] for j in judgments if j["status"] == "invalid"] == [
        "otlp_undecodable",
        "otlp_undecodable",
    ]
    assert summary.traces == 4  # every line and every trace: one outcome
    docs = [json.loads(x) for x in events.read_text().splitlines()]
    logs = [r for d in docs for r in d["resourceLogs"][0]["scopeLogs"][0]["logRecords"]]
    verdicts = [r for r in logs if r["attributes"][0]["value"]["stringValue"] == "cargo.verdict"]
    assert {r["traceId"] for r in verdicts} == {GT, OT}
    assert {r["spanId"] for r in verdicts if r["traceId"] == GT} == {G_ROOT}


def test_run_writes_events_of_the_redacted_judgments(tmp_path: Path) -> None:
    """--redact: the events file carries the judgments file's (redacted) rationale, not
    the live context it quotes ('owner='Ann'')."""
    from monitor.redact import PREFIX

    redact = {"redact": True, "redact_salt": "s3cret-salt-for-tests-0123"}
    _, judgments, events = _run(
        tmp_path, [record(*genai_spans())], cargo=redact, input_format="otlp-json"
    )
    [judgment] = judgments
    assert judgment["rationale"].startswith(PREFIX)
    text = events.read_text()
    assert "Ann" not in text
    assert f"{judgment['reason']}: {judgment['rationale']}" in text


def test_run_masks_secrets_in_events(tmp_path: Path) -> None:
    """A secret that reached a judgment's text (the live context holds a value equal to
    the judge's key) is masked in the events file as in the judgments file."""
    _, judgments, events = _run(
        tmp_path,
        [record(*genai_spans())],
        cargo={"judge_api_key": "Closed"},  # "status='Closed'" is in the rationale
        input_format="otlp-json",
    )
    [judgment] = judgments
    assert "[secret]" in judgment["rationale"]
    text = events.read_text()
    assert "Closed" not in text and "[secret]" in text


def test_a_secret_inside_a_timestamp_breaks_no_event(tmp_path: Path) -> None:
    """The mask touches string values only: a key that also occurs in the judgment's
    timestamp (this year) neither stops the run nor breaks an event's time."""
    year = str(__import__("datetime").date.today().year)
    summary, judgments, events = _run(
        tmp_path, [record(*genai_spans())], cargo={"judge_api_key": year}, input_format="otlp-json"
    )
    assert summary.traces == 1 and len(judgments) == 1
    docs = [json.loads(x) for x in events.read_text().splitlines()]
    logs = [r for d in docs for r in d["resourceLogs"][0]["scopeLogs"][0]["logRecords"]]
    assert logs and all(int(r["timeUnixNano"]) > 0 for r in logs)


def test_auto_tells_native_and_otlp_lines_apart(tmp_path: Path) -> None:
    native = DEFAULT_SAMPLES.read_text().splitlines()[0]
    _, judgments, _ = _run(tmp_path, [native, record(*openinference_spans())], input_format="auto")
    assert {j["trace_id"] for j in judgments} == {json.loads(native)["trace_id"], OT}


def test_run_refuses_otlp_proto(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="otlp-proto is for stream"):
        _run(tmp_path, [record(*openinference_spans())], input_format="otlp-proto")


@pytest.mark.parametrize(
    ("payload", "fmt"),
    [
        (record(*openinference_spans()).encode(), "otlp-json"),
        (b'  {"resourceSpans": []}', "otlp-json"),
        (b'{"trace_id": "t", "resourceSpans": []}', "otlp-json"),
        (b'{"trace_id": "t", "question": "q"}', "cargo"),
        (b"\x0a\x02\x0a\x00", "otlp-proto"),
        (b"[" * 200_000, "otlp-proto"),  # bytes that are not a JSON object
        ("[" * 200_000, "cargo"),
        (b"{" * 200_000, "cargo"),  # deep: told apart without parsing (no RecursionError)
        (b"", "cargo"),
    ],
)
def test_sniff_format_never_parses(payload: bytes | str, fmt: str) -> None:
    assert sniff_format(payload) == fmt


def test_logs_url() -> None:
    assert logs_url("http://h:4318") == "http://h:4318/v1/logs"
    assert logs_url("http://h:4318/") == "http://h:4318/v1/logs"
    assert logs_url("https://h/otlp/v1/logs") == "https://h/otlp/v1/logs"
    with pytest.raises(ValueError, match="http"):
        OtelSettings(otlp_endpoint="127.0.0.1:4318")


class _Receiver(BaseHTTPRequestHandler):
    script: ClassVar[list[int]] = []
    got: ClassVar[list[tuple[str, str, bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).got.append((self.path, self.headers["Content-Type"], body))
        status = type(self).script.pop(0) if type(self).script else 200
        self.send_response(status)
        if status == 429:
            self.send_header("Retry-After", "0")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *_: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Any:
    _Receiver.script, _Receiver.got = [], []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def _records() -> list[Any]:
    from datetime import UTC, datetime

    from monitor.schemas import Judgment

    j = Judgment(trace_id=GT, status="abstained", reason="low_similarity",
                 evaluated_at=datetime.now(UTC))  # fmt: skip
    return evaluation_records(j, trace_id=GT, span_id=G_ROOT)


def test_otlp_http_posts_protobuf_and_retries_what_the_spec_retries(receiver: Any) -> None:
    _Receiver.script = [503, 429, 200, 400]
    url = f"http://127.0.0.1:{receiver.server_address[1]}"

    async def go() -> OtlpHttpLogs:
        http = OtlpHttpLogs(url, backoff_s=0.01, max_retries=3)
        http.submit(_records())  # 503, 429, then 200: sent
        http.submit(_records())  # 400: failed at once, not retried
        await http.aclose()
        return http

    http = asyncio.run(go())
    assert http.outcomes == {"sent": 1, "failed": 1}
    assert len(_Receiver.got) == 4
    path, ctype, body = _Receiver.got[0]
    assert path == "/v1/logs" and ctype == "application/x-protobuf"
    req = ExportLogsServiceRequest.FromString(body)
    [rec] = req.resource_logs[0].scope_logs[0].log_records
    assert rec.event_name == "gen_ai.evaluation.result" and rec.trace_id.hex() == GT


def test_otlp_http_to_nowhere_fails_and_never_blocks() -> None:
    async def go() -> OtlpHttpLogs:
        http = OtlpHttpLogs("http://127.0.0.1:9", backoff_s=0.01, max_retries=1, max_queue=2)
        for _ in range(5):
            http.submit(_records())  # never awaits: a full queue drops
        await http.aclose()
        return http

    http = asyncio.run(go())
    assert http.outcomes["dropped"] >= 2
    assert http.outcomes["failed"] + http.outcomes["dropped"] == 5


def test_a_followed_input_judges_a_trace_while_native_lines_keep_coming() -> None:
    from monitor.schemas import SourceLocation
    from monitor.traces import RawTrace
    from pipelines.otel.ingest import OtlpIngest
    from pipelines.otel.source import otlp_traces

    native = DEFAULT_SAMPLES.read_text().splitlines()[0].encode()

    class Lines:
        async def __aiter__(self) -> Any:
            yield RawTrace(record(*openinference_spans()).encode(), SourceLocation(line=1))
            for k in range(200):  # a busy native stream, never idle
                await asyncio.sleep(0.01)
                yield RawTrace(native, SourceLocation(line=k + 2))

    async def go() -> list[Any]:
        ingest = OtlpIngest(quiet_period_s=0.2)
        seen = []
        async for raw in otlp_traces(Lines(), ingest, poll_interval_s=0.05):
            seen.append(raw)
            if isinstance(raw.payload, dict):
                return seen
        return seen

    seen = asyncio.run(go())
    assert isinstance(seen[-1].payload, dict) and seen[-1].payload["trace_id"] == OT
    assert len(seen) < 150  # judged on time, not at the end of the input


@pytest.mark.parametrize(
    "endpoint",
    ["http://:4318", "http://h:99999", "http://h:abc", "http://h:0", "http://a b:4318",
     "https://[zz]:4318", "http://"],
)  # fmt: skip
def test_a_malformed_otlp_endpoint_is_a_settings_error(endpoint: str) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="OTLP/HTTP endpoint"):
        OtelSettings(otlp_endpoint=endpoint)
    with pytest.raises(ValueError, match="OTLP/HTTP endpoint"):
        OtlpHttpLogs(endpoint)


def test_good_otlp_endpoints_pass() -> None:
    for endpoint in ("http://otel_collector:4318", "https://[::1]:4318/v1/logs", "http://h."):
        assert OtelSettings(otlp_endpoint=endpoint).otlp_endpoint == endpoint


class _Client:
    """An HTTP client whose post raises ``exc``, or hangs (``exc`` None)."""

    def __init__(self, exc: BaseException | None) -> None:
        self.exc = exc
        self.posts = 0

    async def post(self, *_: Any, **__: Any) -> Any:
        self.posts += 1
        if self.exc is None:
            await asyncio.Event().wait()
        raise self.exc  # type: ignore[misc]


def test_otlp_http_counts_any_exception_as_failed_and_never_raises() -> None:
    async def go() -> OtlpHttpLogs:
        http = OtlpHttpLogs("http://h:4318", client=_Client(RuntimeError("boom")))
        http.submit(_records())
        http.submit(_records())
        await http.aclose()
        return http

    http = asyncio.run(go())
    n = len(_records())
    assert http.outcomes == {"failed": 2} and http.records == {"failed": 2 * n}


def test_otlp_http_requests_in_flight_when_stopped_are_counted() -> None:
    n = len(_records())

    async def closed() -> OtlpHttpLogs:
        http = OtlpHttpLogs("http://h:4318", client=_Client(None))
        for _ in range(3):
            http.submit(_records())
        await asyncio.sleep(0.01)  # the first request is being posted (it hangs)
        await http.aclose(drain_s=0.05)
        http.submit(_records())  # after close: dropped, counted
        return http

    http = asyncio.run(closed())
    assert http.outcomes == {"failed": 1, "dropped": 3}
    assert http.records == {"failed": n, "dropped": 3 * n}

    async def cancelled() -> OtlpHttpLogs:
        http = OtlpHttpLogs("http://h:4318", client=_Client(None))
        for _ in range(2):
            http.submit(_records())
        await asyncio.sleep(0.01)
        assert http._task is not None
        http._task.cancel()  # e.g. the loop shutting down
        await asyncio.sleep(0.01)
        await http.aclose(drain_s=0.05)  # closing a cancelled sender does not raise
        return http

    http = asyncio.run(cancelled())
    assert http.outcomes == {"failed": 1, "dropped": 1}


def test_otlp_http_a_submit_during_close_is_counted() -> None:
    """A judgment finishing while the sender drains (its stop marker queued) is counted
    dropped, not left unsent and uncounted behind the marker."""

    class _Resp:
        status_code = 200
        headers: ClassVar[dict[str, str]] = {}

    class _Slow:
        async def post(self, *_: Any, **__: Any) -> Any:
            await asyncio.sleep(0.05)
            return _Resp()

    n = len(_records())

    async def go() -> OtlpHttpLogs:
        http = OtlpHttpLogs("http://h:4318", client=_Slow())
        http.submit(_records())
        closing = asyncio.create_task(http.aclose())
        await asyncio.sleep(0.01)  # aclose has queued its stop marker
        http.submit(_records())
        await closing
        return http

    http = asyncio.run(go())
    assert http.records == {"sent": n, "dropped": n} and http.queue.empty()


def test_otel_max_closed_traces_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    from prometheus_client import CollectorRegistry

    from pipelines.otel.run import OtlpRun

    assert OtelSettings().otel_max_closed_traces == 5_000
    monkeypatch.setenv("CARGO_OTEL_MAX_CLOSED_TRACES", "7")
    otel = OtelSettings(input_format="otlp-json")
    assert otel.otel_max_closed_traces == 7
    for follow in (False, True):
        run = OtlpRun.start(otel, _NoLines(), CollectorRegistry(), follow=follow)
        assert run is not None and run.ingest.buffer.max_closed_traces == 7


class _NoLines:
    async def __aiter__(self) -> Any:
        return
        yield


def test_a_finite_run_evicts_only_at_ten_times_the_bound(tmp_path: Path) -> None:
    """Over --otel-max-open-traces open traces: a finite input is flushed whole at its
    end, so its traces are not judged early as incomplete (evicted) below ten times the
    setting, which still bounds its memory; a followed one keeps the setting."""
    from prometheus_client import CollectorRegistry

    from pipelines.otel.run import OtlpRun

    spans = genai_spans()
    lines = [record(*spans[4:]), record(*openinference_spans()), record(*spans[:4])]
    _, judgments, _ = _run(tmp_path, lines, input_format="otlp-json", otel_max_open_traces=1)
    # Evicted, GT would be judged twice (its first lines, then all of it) and OT early.
    assert sorted(j["trace_id"] for j in judgments) == sorted([GT, OT])
    assert "evicted" not in (tmp_path / "console.txt").read_text()
    otel = OtelSettings(input_format="otlp-json", otel_max_open_traces=1)
    followed = OtlpRun.start(otel, _NoLines(), CollectorRegistry(), follow=True)
    assert followed is not None and followed.ingest.buffer.max_open_traces == 1
    finite = OtlpRun.start(otel, _NoLines(), CollectorRegistry(), follow=False)
    assert finite is not None and finite.ingest.buffer.max_open_traces == 10


def test_otlp_http_names_a_connection_error_at_once(caplog: pytest.LogCaptureFixture) -> None:
    """A wrong port is named in the log at the first failure, not only after every
    retry (which the drain at the end may cut short)."""
    from tests.support.ports import free_port

    async def go() -> OtlpHttpLogs:
        http = OtlpHttpLogs(f"http://127.0.0.1:{free_port()}", max_retries=3, backoff_s=5.0)
        http.submit(_records())
        await http.aclose(drain_s=2.0)
        return http

    with caplog.at_level("WARNING", logger="cargo.otel"):
        http = asyncio.run(go())
    assert http.records == {"failed": len(_records())}
    assert any(
        "ConnectError" in r.getMessage() and "retrying" in r.getMessage() for r in caplog.records
    )


def test_an_interrupted_follow_run_counts_the_traces_still_open(tmp_path: Path) -> None:
    # Ctrl-C while an OpenTelemetry trace waits for its root (or its quiet period):
    # it gets no judgment, and the run says so instead of dropping it without a word.
    import io

    src = tmp_path / "in.jsonl"
    src.write_text(record(*genai_spans()[4:]) + "\n")  # one trace's children, no root
    console = io.StringIO()

    async def go() -> None:
        task = asyncio.create_task(
            run_monitor(
                CargoSettings(embedder="hashing", cache_dir=tmp_path / "c", metrics_port=0),
                input_path=str(src),
                output=str(tmp_path / "j.jsonl"),
                follow=True,
                keep_serving=False,
                progress=False,
                console=Console(file=console, width=200),
                otel=OtelSettings(input_format="otlp-json"),
            )
        )
        await asyncio.sleep(3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(go())
    text = " ".join(console.getvalue().split())
    assert "interrupted: 0 traces judged and written" in text
    assert "not judged: 1 OpenTelemetry trace still open" in text
