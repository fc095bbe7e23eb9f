"""Hand-written OTLP/JSON payloads (the shape the Collector's kafka exporter writes with
``encoding: otlp_json``): hex ids, ``AnyValue`` attributes, integers as strings."""

from __future__ import annotations

import json
from typing import Any

T0 = 1_764_500_000_000_000_000  # ns
MS = 1_000_000


def av(value: Any) -> dict[str, Any]:
    """A Python value as an OTLP/JSON ``AnyValue``."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [av(v) for v in value]}}
    if isinstance(value, dict):
        return {"kvlistValue": {"values": [{"key": k, "value": av(v)} for k, v in value.items()]}}
    raise TypeError(value)


def span(
    trace_id: str,
    span_id: str,
    name: str,
    *,
    parent: str = "",
    start_ms: int = 0,
    end_ms: int = 10,
    attrs: dict[str, Any] | None = None,
    status: int = 0,
) -> dict[str, Any]:
    return {
        "traceId": trace_id,
        "spanId": span_id,
        "parentSpanId": parent,
        "name": name,
        "kind": 1,
        "startTimeUnixNano": str(T0 + start_ms * MS),
        "endTimeUnixNano": str(T0 + end_ms * MS),
        "attributes": [{"key": k, "value": av(v)} for k, v in (attrs or {}).items()],
        "status": {"code": status},
    }


def record(*spans: dict[str, Any], service: str = "support-agent") -> str:
    """One kafka record: an ExportTraceServiceRequest in OTLP/JSON."""
    return json.dumps(
        {
            "resourceSpans": [
                {
                    "resource": {"attributes": [{"key": "service.name", "value": av(service)}]},
                    "scopeSpans": [{"scope": {"name": "test"}, "spans": list(spans)}],
                }
            ]
        }
    )


def messages(*items: tuple[str, list[dict[str, Any]]]) -> str:
    """gen_ai.*.messages as the JSON string instrumentations set."""
    return json.dumps([{"role": role, "parts": parts} for role, parts in items])


def text(content: str) -> dict[str, Any]:
    return {"type": "text", "content": content}


# --------------------------------------------------------------------------- GenAI trace

GT = "0af7651916cd43dd8448eb211c80319c"
G_HTTP, G_ROOT, G_CHAT1, G_TOOL, G_RETR, G_CHAT2, G_SUB = (
    "a000000000000001",
    "a000000000000002",
    "a000000000000003",
    "a000000000000004",
    "a000000000000005",
    "a000000000000006",
    "a000000000000007",
)


def genai_spans(trace_id: str = GT) -> list[dict[str, Any]]:
    """An instrumented agent turn, GenAI conventions: HTTP server span > invoke_agent >
    chat (asks for a tool) > execute_tool > retrieval > nested agent > chat (answers)."""
    q = "What is the status of case 123?"
    a = "Case 123 is Closed; Ann owns it."
    return [
        span(trace_id, G_HTTP, "POST /chat", start_ms=0, end_ms=900),
        span(
            trace_id,
            G_ROOT,
            "invoke_agent support",
            parent=G_HTTP,
            start_ms=5,
            end_ms=890,
            attrs={
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": "support",
                "gen_ai.conversation.id": "conv-1",
                "app.intent": "case_status",
                "gen_ai.input.messages": messages(
                    ("user", [text("hello")]),
                    ("assistant", [text("Hi, how can I help?")]),
                    ("user", [text(q)]),
                ),
                "gen_ai.output.messages": messages(("assistant", [text(a)])),
                # the agent's own totals: must not be added to the chat spans' usage
                "gen_ai.usage.input_tokens": 250,
                "gen_ai.usage.output_tokens": 50,
            },
        ),
        span(
            trace_id,
            G_CHAT1,
            "chat gpt-4o-mini",
            parent=G_ROOT,
            start_ms=10,
            end_ms=200,
            attrs={
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": "openai",
                "gen_ai.request.model": "gpt-4o-mini",
                "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
                "gen_ai.response.id": "chatcmpl-1",
                "gen_ai.usage.input_tokens": 100,
                "gen_ai.usage.output_tokens": 20,
                "gen_ai.input.messages": messages(("user", [text(q)])),
                "gen_ai.output.messages": messages(
                    (
                        "assistant",
                        [
                            {
                                "type": "tool_call",
                                "id": "call_1",
                                "name": "get_case",
                                "arguments": {"case": "123"},
                            }
                        ],
                    )
                ),
            },
        ),
        span(
            trace_id,
            G_TOOL,
            "execute_tool get_case",
            parent=G_ROOT,
            start_ms=210,
            end_ms=260,
            attrs={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "get_case",
                "gen_ai.tool.call.id": "call_1",
                "gen_ai.tool.call.arguments": '{"case": "123"}',
                "gen_ai.tool.call.result": '{"status": "Closed", "owner": "Ann"}',
            },
        ),
        span(
            trace_id,
            G_RETR,
            "retrieval kb",
            parent=G_ROOT,
            start_ms=270,
            end_ms=300,
            attrs={
                "gen_ai.operation.name": "retrieval",
                "gen_ai.retrieval.documents": json.dumps(
                    [{"id": "kb-7", "content": "Closed cases can be reopened.", "score": 0.83}]
                ),
            },
        ),
        span(
            trace_id,
            G_SUB,
            "invoke_agent checker",
            parent=G_ROOT,
            start_ms=310,
            end_ms=400,
            attrs={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "checker"},
        ),
        span(
            trace_id,
            G_CHAT2,
            "chat gpt-4o-mini",
            parent=G_ROOT,
            start_ms=410,
            end_ms=880,
            attrs={
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": "openai",
                "gen_ai.request.model": "gpt-4o-mini",
                "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
                "gen_ai.response.id": "chatcmpl-2",
                "gen_ai.usage.input_tokens": 150,
                "gen_ai.usage.output_tokens": 30,
                "gen_ai.input.messages": messages(
                    ("user", [text(q)]),
                    (
                        "tool",
                        [
                            {
                                "type": "tool_call_response",
                                "id": "call_1",
                                "response": {"status": "Closed", "owner": "Ann"},
                            }
                        ],
                    ),
                ),
                "gen_ai.output.messages": messages(("assistant", [text(a)])),
            },
        ),
    ]


# --------------------------------------------------------------------------- OpenInference

OT = "4bf92f3577b34da6a3ce929d0e0e4736"
O_AGENT, O_LLM1, O_TOOL, O_RETR, O_LLM2 = (
    "b000000000000001",
    "b000000000000002",
    "b000000000000003",
    "b000000000000004",
    "b000000000000005",
)


def openinference_spans(trace_id: str = OT) -> list[dict[str, Any]]:
    """The same kind of turn with OpenInference attributes (flattened indexed keys)."""
    q = "Where is my order 77?"
    a = "Order 77 has shipped with DHL."
    return [
        span(
            trace_id,
            O_AGENT,
            "Agent",
            start_ms=0,
            end_ms=700,
            attrs={
                "openinference.span.kind": "AGENT",
                "agent.name": "orders",
                "session.id": "sess-9",
                "input.value": json.dumps({"input": q}),
                "input.mime_type": "application/json",
                "output.value": a,
            },
        ),
        span(
            trace_id,
            O_LLM1,
            "ChatCompletion",
            parent=O_AGENT,
            start_ms=10,
            end_ms=200,
            attrs={
                "openinference.span.kind": "LLM",
                "llm.model_name": "gpt-4o-mini",
                "llm.provider": "openai",
                "llm.token_count.prompt": 50,
                "llm.token_count.completion": 10,
                "llm.input_messages.0.message.role": "system",
                "llm.input_messages.0.message.content": "You help with orders.",
                "llm.input_messages.1.message.role": "user",
                "llm.input_messages.1.message.content": q,
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_a",
                "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "get_order",
                "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": (
                    '{"order": 77}'
                ),
            },
        ),
        span(
            trace_id,
            O_TOOL,
            "get_order",
            parent=O_AGENT,
            start_ms=210,
            end_ms=250,
            attrs={
                "openinference.span.kind": "TOOL",
                "tool.name": "get_order",
                "tool_call.id": "call_a",
                "input.value": '{"order": 77}',
                "output.value": '{"state": "shipped", "carrier": "DHL"}',
            },
        ),
        span(
            trace_id,
            O_RETR,
            "retrieve",
            parent=O_AGENT,
            start_ms=260,
            end_ms=280,
            attrs={
                "openinference.span.kind": "RETRIEVER",
                "retrieval.documents.0.document.id": "faq-2",
                "retrieval.documents.0.document.content": "Shipped orders arrive in 3 days.",
                "retrieval.documents.0.document.score": 0.71,
                "retrieval.documents.1.document.id": "faq-9",
                "retrieval.documents.1.document.content": "DHL tracking is online.",
                "retrieval.documents.1.document.score": 0.55,
            },
        ),
        span(
            trace_id,
            O_LLM2,
            "ChatCompletion",
            parent=O_AGENT,
            start_ms=300,
            end_ms=690,
            attrs={
                "openinference.span.kind": "LLM",
                "llm.model_name": "gpt-4o-mini",
                "llm.provider": "openai",
                "llm.token_count.prompt": 70,
                "llm.token_count.completion": 15,
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": q,
                "llm.input_messages.1.message.role": "tool",
                "llm.input_messages.1.message.tool_call_id": "call_a",
                "llm.input_messages.1.message.content": '{"state": "shipped", "carrier": "DHL"}',
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": a,
            },
        ),
    ]
