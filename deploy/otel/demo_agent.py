"""A tiny instrumented agent turn, exported to a local Collector by OTLP/HTTP.

One user question, one tool call (``get_case``), one final answer, through the OpenAI
Python SDK against a fake OpenAI-compatible server started here (no network, no key),
instrumented with the official GenAI instrumentation (``genai``) or OpenInference's
(``openinference``). The two model calls run under an app span ``agent_turn``: without
an enclosing span each call would be a trace of its own.

Not part of the package; it needs, in a separate environment (checked 2026-11-30)::

    pip install openai httpx opentelemetry-sdk opentelemetry-exporter-otlp-proto-http \\
        opentelemetry-instrumentation-openai-v2==2.4b0 opentelemetry-util-genai==1.1b0 \\
        openinference-instrumentation-openai

(``opentelemetry-instrumentation-openai-v2`` 2.4b0 does not import with
``opentelemetry-util-genai`` 1.2b0 or 1.3b0.) Message content reaches the spans only with
``OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`` and
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only`` (GenAI);
OpenInference records it by default.

Usage: ``python deploy/otel/demo_agent.py genai|openinference [HOST:PORT]`` (the
Collector's OTLP/HTTP endpoint, default 127.0.0.1:4318). Prints the answer and the trace
id.
"""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

QUESTION = "What is the status of case 123?"
ANSWER = "Case 123 is Closed; Ann owns it."
TOOL_RESULT = {"status": "Closed", "owner": "Ann"}


class _FakeOpenAI(BaseHTTPRequestHandler):
    calls = 0

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _FakeOpenAI.calls += 1
        n = _FakeOpenAI.calls
        if not any(m.get("role") == "tool" for m in body["messages"]):
            call = {
                "id": "call_42",
                "type": "function",
                "function": {"name": "get_case", "arguments": json.dumps({"case": "123"})},
            }
            msg: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            msg, finish = {"role": "assistant", "content": ANSWER}, "stop"
        out = {
            "id": f"chatcmpl-{n}",
            "object": "chat.completion",
            "created": 1,
            "model": body.get("model", "fake-model"),
            "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
            "usage": {
                "prompt_tokens": 100 * n,
                "completion_tokens": 10 * n,
                "total_tokens": 110 * n,
            },
        }
        data = json.dumps(out).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main(mode: str, endpoint: str) -> None:
    from openai import OpenAI
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeOpenAI)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    provider = TracerProvider(resource=Resource.create({"service.name": f"demo-agent-{mode}"}))
    exporter = OTLPSpanExporter(endpoint=f"http://{endpoint}/v1/traces")
    provider.add_span_processor(BatchSpanProcessor(exporter))
    if mode == "genai":
        from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor

        OpenAIInstrumentor().instrument(tracer_provider=provider)
    elif mode == "openinference":
        from openinference.instrumentation.openai import OpenAIInstrumentor as OIInstrumentor

        OIInstrumentor().instrument(tracer_provider=provider)
    else:
        raise SystemExit("usage: demo_agent.py genai|openinference [HOST:PORT]")

    client = OpenAI(base_url=f"http://127.0.0.1:{server.server_port}/v1", api_key="unused")
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_case",
                "parameters": {"type": "object", "properties": {"case": {"type": "string"}}},
            },
        }
    ]
    with provider.get_tracer("demo-agent").start_as_current_span("agent_turn") as turn:
        msgs: list[Any] = [
            {"role": "system", "content": "You help with support cases."},
            {"role": "user", "content": QUESTION},
        ]
        first = client.chat.completions.create(model="fake-model", messages=msgs, tools=tools)
        call = first.choices[0].message.tool_calls[0]
        msgs.append({"role": "assistant", "content": None, "tool_calls": [call.model_dump()]})
        msgs.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(TOOL_RESULT)})
        final = client.chat.completions.create(model="fake-model", messages=msgs, tools=tools)
        print("answer:", final.choices[0].message.content)
        print("trace_id:", trace.format_trace_id(turn.get_span_context().trace_id))
    provider.shutdown()
    server.shutdown()


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else "",
        sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1:4318",
    )
