"""A small instrumented agent, for the OTel tests and the recorded OTLP sample.

Per question, one agent turn through the real OpenAI Python SDK, instrumented with the
official GenAI instrumentation (``genai``: ``opentelemetry-instrumentation-openai-v2``)
or OpenInference's (``openinference``: ``openinference-instrumentation-openai``), and
exported by the OTel SDK's OTLP/HTTP exporter (to a Collector):

1. the turn's root span, made by the agent code (an agent framework's job; the
   instrumentations only trace the model calls): GenAI ``invoke_agent {agent}``
   (``gen_ai.operation.name=invoke_agent``, ``gen_ai.agent.name``,
   ``gen_ai.conversation.id``, and with content capture the turn's
   ``gen_ai.input.messages`` / ``gen_ai.output.messages``); OpenInference an ``AGENT``
   span (``input.value`` / ``output.value``, ``session.id``, ``agent.name``);
2. a retrieval step, made by the agent code: GenAI ``retrieval {data_source}``
   (``gen_ai.operation.name=retrieval``, ``gen_ai.data_source.id``,
   ``gen_ai.retrieval.query.text``, ``gen_ai.retrieval.documents`` as a JSON string
   of ``{id, score, content}``, which the conventions allow on spans); OpenInference a
   ``RETRIEVER`` span (``input.value``, ``retrieval.documents.N.document.id`` /
   ``.content`` / ``.score``);
3. a chat call (instrumented) that answers with a tool call ``get_case``;
4. the tool, run by the agent code: GenAI ``execute_tool get_case``
   (``gen_ai.tool.name``, ``gen_ai.tool.call.id``, ``gen_ai.tool.type``,
   ``gen_ai.tool.call.arguments`` / ``.result``); OpenInference a ``TOOL`` span
   (``tool.name``, ``tool.id`` = the call id, ``input.value`` / ``output.value``).
   ``get_case`` returns the turn's context fields as a JSON object;
5. a second chat call (instrumented) with the tool result, which gives the answer.

The model is the project's scripted OpenAI-compatible server
(:mod:`tests.support.chat_server`); :func:`script_for` gives its replies for a list of
turns (a tool call, then the answer, per turn, in order).

The instrumentations patch the ``openai`` module process-wide and read their settings
from the environment once, so each mode runs in its own process::

    python -m tests.support.otel_agent --mode genai|openinference \\
        --otlp http://127.0.0.1:4318 --model-url http://127.0.0.1:PORT/v1 < turns.jsonl

reads :class:`Turn` objects as JSON lines and prints one JSON line per turn:
``{"trace_id", "root_span_id", "question", "mode"}`` (hex ids). :func:`run_agent` does
that from Python. Content capture for the GenAI instrumentation is switched on
(``OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental``,
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only``) unless the caller's
environment sets those variables.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from tests.support.chat_server import Reply

Mode = Literal["genai", "openinference"]
MODES: tuple[Mode, ...] = ("genai", "openinference")

SYSTEM_PROMPT = "You are a support agent. Look the case up with get_case before answering."
DATA_SOURCE = "support-kb"
TOOLS: list[Any] = [
    {
        "type": "function",
        "function": {
            "name": "get_case",
            "description": "Look up the customer's case or asset by reference.",
            "parameters": {
                "type": "object",
                "properties": {"ref": {"type": "string"}},
                "required": ["ref"],
            },
        },
    }
]


@dataclass
class Turn:
    question: str
    answer: str
    case: dict[str, Any] = field(default_factory=dict)
    """What ``get_case`` returns (the turn's context fields)."""
    documents: list[dict[str, Any]] = field(default_factory=list)
    """What the retrieval step returns: ``{"id", "content", "score"}`` each."""
    agent: str = "support"
    conversation_id: str | None = None


def call_id(index: int) -> str:
    return f"call_{index:04d}"


def script_for(turns: Sequence[Turn], *, start: int = 0) -> list[Reply]:
    """The scripted model's replies for these turns, in order: per turn a ``get_case``
    tool call (arguments: the first context value as ``ref``), then the answer."""
    replies: list[Reply] = []
    for k, turn in enumerate(turns, start=start):
        ref = next((str(v) for v in turn.case.values()), "")
        replies.append(
            Reply(
                content=None,
                finish_reason="tool_calls",
                tool_calls=[
                    {
                        "id": call_id(k),
                        "type": "function",
                        "function": {"name": "get_case", "arguments": json.dumps({"ref": ref})},
                    }
                ],
                usage=(150 + len(turn.question) // 4, 12),
                response_id=f"chatcmpl-{k:04d}-a",
            )
        )
        replies.append(
            Reply(
                content=turn.answer,
                usage=(210 + len(turn.question) // 4, 10 + len(turn.answer) // 4),
                response_id=f"chatcmpl-{k:04d}-b",
            )
        )
    return replies


def run_agent(
    mode: Mode,
    turns: Sequence[Turn],
    *,
    otlp: str,
    model_url: str,
    start: int = 0,
    env: dict[str, str] | None = None,
    python: str = sys.executable,
    timeout_s: float = 120.0,
) -> list[dict[str, Any]]:
    """Run the turns in a fresh process with the ``mode`` instrumentation; one result
    (``trace_id``, ``root_span_id``, ``question``, ``mode``) per turn, in order.
    ``start``: the index of the first turn in the model's script (tool call ids)."""
    stdin = "".join(json.dumps(asdict(t)) + "\n" for t in turns)
    proc = subprocess.run(
        [
            python,
            "-m",
            "tests.support.otel_agent",
            "--mode",
            mode,
            "--otlp",
            otlp,
            "--model-url",
            model_url,
            "--start",
            str(start),
        ],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        env={**os.environ, **(env or {})},
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"otel_agent {mode} failed ({proc.returncode}): {proc.stderr[-3000:]}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


# --- the agent process --------------------------------------------------------------


def _messages_json(role: str, text: str, finish_reason: str | None = None) -> str:
    """One message in the GenAI conventions' message JSON (``role``, ``parts``)."""
    msg: dict[str, Any] = {"role": role, "parts": [{"type": "text", "content": text}]}
    if finish_reason is not None:
        msg["finish_reason"] = finish_reason
    return json.dumps([msg])


def _main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.otel_agent")
    parser.add_argument("--mode", choices=MODES, required=True)
    parser.add_argument("--otlp", required=True, help="OTLP/HTTP base URL (http://HOST:PORT)")
    parser.add_argument("--model-url", required=True, help="OpenAI-compatible base URL (/v1)")
    parser.add_argument("--start", type=int, default=0, help="index of the first turn")
    args = parser.parse_args(argv)
    # Read once by the GenAI instrumentation and its util package: set before import.
    os.environ.setdefault("OTEL_SEMCONV_STABILITY_OPT_IN", "gen_ai_latest_experimental")
    os.environ.setdefault("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "span_only")

    from openai import OpenAI
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(
        resource=Resource.create({"service.name": f"cargo-test-agent-{args.mode}"})
    )
    provider.add_span_processor(
        BatchSpanProcessor(OTLPSpanExporter(endpoint=f"{args.otlp.rstrip('/')}/v1/traces"))
    )
    instrumentor: Any
    if args.mode == "genai":
        from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor

        instrumentor = OpenAIInstrumentor()  # type: ignore[no-untyped-call]
    else:
        from openinference.instrumentation.openai import OpenAIInstrumentor as OIInstrumentor

        instrumentor = OIInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    tracer = provider.get_tracer("cargo-test-agent")
    client = OpenAI(base_url=args.model_url, api_key="unused", max_retries=0)
    genai = args.mode == "genai"

    for k, line in enumerate(sys.stdin, start=args.start):
        if not line.strip():
            continue
        turn = Turn(**json.loads(line))
        conv = turn.conversation_id or f"conv-{k:04d}"
        if genai:
            root_name = f"invoke_agent {turn.agent}"
            root_attrs: dict[str, Any] = {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.provider.name": "openai",
                "gen_ai.agent.name": turn.agent,
                "gen_ai.conversation.id": conv,
                "gen_ai.input.messages": _messages_json("user", turn.question),
            }
        else:
            root_name = f"{turn.agent} agent"
            root_attrs = {
                "openinference.span.kind": "AGENT",
                "agent.name": turn.agent,
                "session.id": conv,
                "input.value": turn.question,
                "input.mime_type": "text/plain",
            }
        with tracer.start_as_current_span(root_name, attributes=root_attrs) as root:
            # retrieval
            if genai:
                with tracer.start_as_current_span(
                    f"retrieval {DATA_SOURCE}",
                    kind=trace.SpanKind.CLIENT,
                    attributes={
                        "gen_ai.operation.name": "retrieval",
                        "gen_ai.data_source.id": DATA_SOURCE,
                        "gen_ai.retrieval.query.text": turn.question,
                        "gen_ai.retrieval.documents": json.dumps(turn.documents),
                    },
                ):
                    pass
            else:
                oi_docs: dict[str, Any] = {}
                for n, d in enumerate(turn.documents):
                    for key in ("id", "content", "score"):
                        if d.get(key) is not None:
                            oi_docs[f"retrieval.documents.{n}.document.{key}"] = d[key]
                with tracer.start_as_current_span(
                    "retrieve",
                    attributes={
                        "openinference.span.kind": "RETRIEVER",
                        "input.value": turn.question,
                        **oi_docs,
                    },
                ):
                    pass
            docs_text = "\n".join(str(d.get("content", "")) for d in turn.documents)
            msgs: list[Any] = [
                {"role": "system", "content": f"{SYSTEM_PROMPT}\n{docs_text}".strip()},
                {"role": "user", "content": turn.question},
            ]
            first = client.chat.completions.create(
                model="test-agent-model", messages=msgs, tools=TOOLS
            )
            calls = first.choices[0].message.tool_calls or []
            msgs.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [c.model_dump() for c in calls],
                }
            )
            for c in calls:
                fn = getattr(c, "function", None)
                name = fn.name if fn is not None else "get_case"
                arguments = fn.arguments if fn is not None else "{}"
                result = json.dumps(turn.case)
                if genai:
                    tool_attrs: dict[str, Any] = {
                        "gen_ai.operation.name": "execute_tool",
                        "gen_ai.tool.name": name,
                        "gen_ai.tool.type": "function",
                        "gen_ai.tool.call.id": c.id,
                        "gen_ai.tool.call.arguments": arguments,
                        "gen_ai.tool.call.result": result,
                    }
                    tool_span = f"execute_tool {name}"
                else:
                    tool_attrs = {
                        "openinference.span.kind": "TOOL",
                        "tool.name": name,
                        "tool.id": c.id,
                        "input.value": arguments,
                        "input.mime_type": "application/json",
                        "output.value": result,
                        "output.mime_type": "application/json",
                    }
                    tool_span = name
                with tracer.start_as_current_span(tool_span, attributes=tool_attrs):
                    pass
                msgs.append({"role": "tool", "tool_call_id": c.id, "content": result})
            final = client.chat.completions.create(
                model="test-agent-model", messages=msgs, tools=TOOLS
            )
            answer = final.choices[0].message.content or ""
            if genai:
                root.set_attribute(
                    "gen_ai.output.messages", _messages_json("assistant", answer, "stop")
                )
            else:
                root.set_attribute("output.value", answer)
                root.set_attribute("output.mime_type", "text/plain")
            ctx = root.get_span_context()
            print(
                json.dumps(
                    {
                        "trace_id": trace.format_trace_id(ctx.trace_id),
                        "root_span_id": trace.format_span_id(ctx.span_id),
                        "question": turn.question,
                        "mode": args.mode,
                    }
                ),
                flush=True,
            )
    instrumentor.uninstrument()
    provider.shutdown()  # flushes the batch processor: every span is exported
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
