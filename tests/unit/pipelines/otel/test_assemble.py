from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from monitor.errors import InvalidTraceError
from pipelines.otel import OtelMapping, Span, assemble, decode_otlp_json, parse_mapping
from tests.unit.pipelines.otel import otlp


def spans_of(raw: list[dict[str, Any]]) -> list[Span]:
    return decode_otlp_json(otlp.record(*raw))


def test_genai_turn() -> None:
    out = assemble(spans_of(otlp.genai_spans()))
    t = out.trace
    assert t.trace_id == otlp.GT
    # topmost invoke_agent (the HTTP span above it is not an agent; the nested agent is not top)
    assert out.root_span_id == otlp.G_ROOT
    assert t.question == "What is the status of case 123?"  # the *last* user message
    assert t.answer == "Case 123 is Closed; Ann owns it."
    assert t.agent == "support"
    assert t.context == {"status": "Closed", "owner": "Ann"}
    assert t.latency_ms == pytest.approx(885.0)
    assert t.timestamp == datetime.fromtimestamp((otlp.T0 + 5 * otlp.MS) / 1e9, tz=UTC)
    assert t.metadata["conversation_id"] == "conv-1"
    assert t.metadata["model"] == "gpt-4o-mini-2024-07-18"
    assert t.metadata["provider"] == "openai"
    otel = t.metadata["otel"]
    # summed over the two chat spans only, not the agent span's own totals (250/50)
    assert otel["usage"]["input_tokens"] == 250 and otel["usage"]["output_tokens"] == 50
    assert otel["usage"]["model_calls"] == 2 and otel["usage"]["source"] == "model_calls"
    assert otel["root_rule"] == "genai_agent" and otel["root_candidates"] == 1
    assert otel["question_source"] == "root.input_messages"
    assert otel["answer_source"] == "root.output_messages"
    assert otel["response_ids"] == ["chatcmpl-1", "chatcmpl-2"]
    assert otel["context_sources"]["status"] == {
        "tool": "get_case",
        "call_id": "call_1",
        "field": "status",
    }
    # the span and the tool message carry the same call: joined, counted once
    assert otel["tool_calls"] == [
        {"call_id": "call_1", "name": "get_case", "span_id": otlp.G_TOOL, "source": "span"}
    ]
    kinds = [(o.kind, o.name) for o in t.observations]
    assert kinds == [
        ("llm", "chat gpt-4o-mini"),
        ("tool", "get_case"),
        ("retrieval", "retrieval kb"),
        ("agent", "checker"),
        ("llm", "chat gpt-4o-mini"),
    ]
    retrieval = t.observations[2].model_dump()
    assert retrieval["documents"] == [
        {"id": "kb-7", "content": "Closed cases can be reopened.", "score": 0.83}
    ]
    tool = t.observations[1].model_dump()
    assert tool["arguments"] == {"case": "123"} and tool["call_id"] == "call_1"


def test_openinference_turn() -> None:
    out = assemble(spans_of(otlp.openinference_spans()))
    t = out.trace
    assert out.root_span_id == otlp.O_AGENT
    assert t.question == "Where is my order 77?"  # from input.value's JSON "input"
    assert t.answer == "Order 77 has shipped with DHL."
    assert t.agent == "orders"
    assert t.metadata["conversation_id"] == "sess-9"
    assert t.context == {"state": "shipped", "carrier": "DHL"}
    otel = t.metadata["otel"]
    assert otel["root_rule"] == "openinference_agent"
    assert otel["question_source"] == "root.input.value"
    assert otel["answer_source"] == "root.output.value"
    assert otel["usage"]["input_tokens"] == 120 and otel["usage"]["output_tokens"] == 25
    assert otel["conventions"] == ["openinference"]
    docs = next(o for o in t.observations if o.kind == "retrieval").model_dump()["documents"]
    assert [d["id"] for d in docs] == ["faq-2", "faq-9"]
    assert docs[0]["score"] == pytest.approx(0.71)


@pytest.mark.parametrize("id_key", ["tool.id", "tool_call.id"])
def test_openinference_tool_span_joins_its_call_by_tool_id(id_key: str) -> None:
    """OpenInference's TOOL span carries the call id as ``tool.id``: the span and the
    tool message of the same call are one observation, not two."""
    raw = otlp.openinference_spans()
    for s in raw:
        for kv in s["attributes"]:
            if s["spanId"] == otlp.O_TOOL and kv["key"] == "tool_call.id":
                kv["key"] = id_key
    out = assemble(spans_of(raw))
    tools = [o for o in out.trace.observations if o.kind == "tool"]
    assert len(tools) == 1, [o.model_dump() for o in tools]
    assert tools[0].model_dump()["call_id"] == "call_a"


def test_plain_instrumented_client_without_agent_span() -> None:
    """Only chat spans under an app span; the tool result travels only in the messages."""
    tid, app, c1, c2 = "c" * 32, "c000000000000001", "c000000000000002", "c000000000000003"
    call = {"type": "tool_call", "id": "call_9", "name": "lookup_ticket", "arguments": {}}
    resp = {"type": "tool_call_response", "id": "call_9", "response": '{"priority": "high"}'}
    raw = [
        otlp.span(tid, app, "handle_request", start_ms=0, end_ms=500),
        otlp.span(
            tid,
            c1,
            "chat",
            parent=app,
            start_ms=1,
            end_ms=100,
            attrs={
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": otlp.messages(("user", [otlp.text("Ticket 5 priority?")])),
                "gen_ai.output.messages": otlp.messages(("assistant", [call])),
            },
        ),
        otlp.span(
            tid,
            c2,
            "chat",
            parent=app,
            start_ms=200,
            end_ms=400,
            attrs={
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": otlp.messages(
                    ("user", [otlp.text("Ticket 5 priority?")]),
                    ("assistant", [call]),
                    ("tool", [resp]),
                ),
                "gen_ai.output.messages": otlp.messages(("assistant", [otlp.text("High.")])),
            },
        ),
    ]
    out = assemble(spans_of(raw))
    assert out.root_span_id == app
    assert (out.trace.question, out.trace.answer) == ("Ticket 5 priority?", "High.")
    assert out.trace.context == {"priority": "high"}
    otel = out.trace.metadata["otel"]
    assert otel["root_rule"] == "trace_root"
    assert otel["question_source"] == "first_model_call.input_messages"
    assert otel["answer_source"] == "last_model_call.output_messages"
    assert otel["tool_calls"][0]["source"] == "message"
    assert otel["tool_calls"][0]["name"] == "lookup_ticket"  # joined to the call by id


def _strip(raw: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    for s in raw:
        s["attributes"] = [a for a in s["attributes"] if a["key"] not in keys]
    return raw


def test_content_capture_off_is_a_bounded_failure() -> None:
    raw = _strip(otlp.genai_spans(), "gen_ai.input.messages", "gen_ai.output.messages")
    with pytest.raises(InvalidTraceError) as exc:
        assemble(spans_of(raw))
    assert exc.value.reason == "no_question"


def test_answer_missing_is_reported_separately() -> None:
    raw = _strip(otlp.genai_spans(), "gen_ai.output.messages")
    with pytest.raises(InvalidTraceError) as exc:
        assemble(spans_of(raw))
    assert exc.value.reason == "no_answer"


def test_answer_falls_back_to_the_last_model_call() -> None:
    raw = otlp.genai_spans()
    root = next(s for s in raw if s["spanId"] == otlp.G_ROOT)
    root["attributes"] = [a for a in root["attributes"] if a["key"] != "gen_ai.output.messages"]
    out = assemble(spans_of(raw))
    assert out.trace.answer == "Case 123 is Closed; Ann owns it."
    assert out.trace.metadata["otel"]["answer_source"] == "last_model_call.output_messages"


def test_no_agent_and_no_model_call_has_no_root() -> None:
    with pytest.raises(InvalidTraceError) as exc:
        assemble(spans_of([otlp.span("d" * 32, "d" * 16, "GET /health")]))
    assert exc.value.reason == "no_root"


def test_usage_falls_back_to_the_root_when_model_calls_carry_none() -> None:
    raw = _strip(otlp.genai_spans(), "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens")
    root = next(s for s in raw if s["spanId"] == otlp.G_ROOT)
    root["attributes"].append({"key": "gen_ai.usage.input_tokens", "value": otlp.av(7)})
    usage = assemble(spans_of(raw)).trace.metadata["otel"]["usage"]
    assert (usage["input_tokens"], usage["output_tokens"], usage["source"]) == (7, 0, "root")


def _tool(tid: str, sid: str, name: str, result: str, start: int, parent: str) -> dict[str, Any]:
    return otlp.span(
        tid,
        sid,
        f"execute_tool {name}",
        parent=parent,
        start_ms=start,
        end_ms=start + 5,
        attrs={
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "gen_ai.tool.call.id": f"id-{sid}",
            "gen_ai.tool.call.result": result,
        },
    )


def _clash_trace() -> list[dict[str, Any]]:
    tid = "e" * 32
    root = otlp.span(
        tid,
        "e000000000000001",
        "invoke_agent",
        start_ms=0,
        end_ms=100,
        attrs={
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.input.messages": otlp.messages(("user", [otlp.text("q")])),
            "gen_ai.output.messages": otlp.messages(("assistant", [otlp.text("a")])),
        },
    )
    p = "e000000000000001"
    return [
        root,
        _tool(tid, "e000000000000004", "get_order", '{"status": "shipped", "n": 2}', 30, p),
        _tool(tid, "e000000000000002", "get_case", '{"status": "Closed", "n": 2}', 10, p),
        _tool(tid, "e000000000000003", "get_refund", '{"status": "Closed"}', 20, p),
        _tool(tid, "e000000000000005", "get_order", '{"status": "lost"}', 40, p),
        _tool(tid, "e000000000000006", "now", "2026-11-30", 50, p),
        _tool(tid, "e000000000000007", "nested", '{"a": {"b": {"c": 1}}, "l": [1]}', 60, p),
    ]


def test_context_name_clash_rule() -> None:
    out = assemble(spans_of(_clash_trace()))
    assert out.trace.context == {
        "status": "Closed",  # the first value by call time keeps the plain name
        "n": 2,  # get_order's equal "n" is not repeated, nor get_refund's equal "status"
        "get_order.status": "shipped",  # a different value: under its tool's name
        "get_order.status#2": "lost",  # and once more
        "now": "2026-11-30",  # a scalar result: the tool's name
        # nested: {"a": {"b": {"c": 1}}} is deeper than max_depth 2; lists are left out
    }
    src = out.trace.metadata["otel"]["context_sources"]
    assert src["get_order.status#2"]["tool"] == "get_order"


def test_mapping_include_exclude_rename_prefix() -> None:
    m = parse_mapping(
        {
            "tool_results": {
                "include": ["get_*"],
                "exclude": ["get_refund"],
                "rename": {"get_case": {"status": "case_status"}},
            }
        }
    )
    ctx = assemble(spans_of(_clash_trace()), m).trace.context
    assert ctx == {
        "case_status": "Closed",
        "n": 2,
        "status": "shipped",
        "get_order.status": "lost",
    }
    prefixed = parse_mapping({"tool_results": {"prefix_with_tool": True, "include": ["get_c*"]}})
    assert assemble(spans_of(_clash_trace()), prefixed).trace.context == {
        "get_case.status": "Closed",
        "get_case.n": 2,
    }
    off = OtelMapping.model_validate({"tool_results": {"as_context": False}})
    assert assemble(spans_of(_clash_trace()), off).trace.context == {}


def test_mapping_intent_citations_context_attributes_and_ignored_spans() -> None:
    raw = otlp.genai_spans()
    root = next(s for s in raw if s["spanId"] == otlp.G_ROOT)
    bundle = {"sources": [{"source_id": "kb-7", "text": "Closed cases can be reopened."}]}
    root["attributes"].append({"key": "app.citations", "value": otlp.av(json.dumps(bundle))})
    m = parse_mapping(
        {
            "intent_attribute": "app.intent",
            "citations_attribute": "app.citations",
            "context_attributes": {"service.name": "service"},
            "ignore_span_names": ["retrieval *", "execute_tool*"],
        }
    )
    t = assemble(spans_of(raw), m).trace
    assert t.metadata["intent"] == "case_status"
    assert t.citations is not None and t.citations.sources[0].source_id == "kb-7"
    assert t.context["service"] == "support-agent"  # from the resource
    kinds = [o.kind for o in t.observations]
    assert "retrieval" not in kinds
    # the execute_tool span is ignored; the same result still arrives in the chat messages
    assert t.metadata["otel"]["tool_calls"][0]["source"] == "message"


def test_bad_citations_attribute_is_a_bounded_failure() -> None:
    raw = otlp.genai_spans()
    root = next(s for s in raw if s["spanId"] == otlp.G_ROOT)
    bad = '{"nope": 1, "sources": [{"source_id": 7, "text": "card 4111 1111"}]}'
    root["attributes"].append({"key": "app.citations", "value": otlp.av(bad)})
    with pytest.raises(InvalidTraceError) as exc:
        assemble(spans_of(raw), parse_mapping({"citations_attribute": "app.citations"}))
    assert exc.value.reason == "citations_invalid"
    # Where and what, never the input it quotes (a dead letter must not carry it).
    assert exc.value.detail and "4111" not in exc.value.detail
    assert "input_value" not in exc.value.detail


def test_structured_message_attributes_are_read_like_json_strings() -> None:
    """Some SDKs send gen_ai.*.messages as structured AnyValue (array/kvlist)."""
    raw = otlp.genai_spans()
    for s in raw:
        for a in s["attributes"]:
            if a["key"].endswith(".messages"):
                a["value"] = otlp.av(json.loads(a["value"]["stringValue"]))
    t = assemble(spans_of(raw)).trace
    assert t.question == "What is the status of case 123?"
    assert t.answer == "Case 123 is Closed; Ann owns it."


@pytest.mark.parametrize(
    ("input_value", "expected"),
    [
        ("Plain question?", "Plain question?"),
        ('{"query": "Q from query"}', "Q from query"),
        ('{"messages": [{"role": "user", "content": "Q in messages"}]}', "Q in messages"),
        ('[{"role": "system", "content": "s"}, {"role": "user", "content": "Q list"}]', "Q list"),
    ],
)
def test_openinference_input_value_shapes(input_value: str, expected: str) -> None:
    raw = otlp.openinference_spans()
    root = raw[0]
    for a in root["attributes"]:
        if a["key"] == "input.value":
            a["value"] = otlp.av(input_value)
    assert assemble(spans_of(raw)).trace.question == expected


def test_role_spellings_are_normalised() -> None:
    raw = otlp.genai_spans()
    root = next(s for s in raw if s["spanId"] == otlp.G_ROOT)
    for a in root["attributes"]:
        if a["key"] == "gen_ai.input.messages":
            a["value"] = otlp.av(otlp.messages(("Human", [otlp.text("Shouted question?")])))
        if a["key"] == "gen_ai.output.messages":
            a["value"] = otlp.av(otlp.messages(("AI", [otlp.text("Calm answer.")])))
    t = assemble(spans_of(raw)).trace
    assert (t.question, t.answer) == ("Shouted question?", "Calm answer.")


def test_ancestor_flags_agree_with_walking_up_every_time() -> None:
    """The memoised "has an ancestor such that" (linear in the spans) gives the answer of
    a plain walk up the parents, on random forests with dangling parents; on parent
    cycles (hostile input) it ends and answers."""
    import dataclasses
    import random

    from pipelines.otel.assemble import _ancestor_flags, _ancestors

    rng = random.Random(7)
    base = spans_of(otlp.genai_spans())[0]
    for _ in range(200):
        n = rng.randint(1, 40)
        ids = [f"{k:016x}" for k in range(1, n + 1)]
        cyclic = rng.random() < 0.2
        spans = [
            dataclasses.replace(
                base,
                span_id=sid,
                # acyclic: a parent is an earlier span (or none, or one never seen)
                parent_span_id=rng.choice(
                    [None, "ffffffffffffffff", *(ids if cyclic else ids[:k])]
                ),
                name=rng.choice(["invoke_agent x", "chat", "tool"]),
            )
            for k, sid in enumerate(ids)
        ]
        by_id = {s.span_id: s for s in spans}

        def pred(s: Any) -> bool:
            return bool(s.name == "invoke_agent x")

        flags = _ancestor_flags(by_id, pred)
        order = spans[:]
        rng.shuffle(order)
        for s in order:
            if cyclic:  # where a cycle is cut depends on where the walk met it
                assert isinstance(flags(s), bool)
            else:
                assert flags(s) == any(pred(a) for a in _ancestors(s, by_id)), s.span_id
