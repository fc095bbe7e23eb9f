"""Spans of one trace -> one interaction (:class:`~monitor.schemas.Trace`).

Reads the OpenTelemetry GenAI semantic conventions (``gen_ai.*``) and Arize's
OpenInference (``openinference.span.kind``, ``input.value``, ``llm.*_messages``, ...),
also mixed in one trace. The rules, in order of preference (the one used is recorded
in ``metadata["otel"]``):

Root
    1. the topmost ``invoke_agent`` / ``invoke_workflow`` span (no such ancestor);
    2. else the topmost OpenInference ``AGENT`` / ``CHAIN`` span;
    3. else, when the trace has model calls (GenAI ``chat``/``text_completion``/
       ``generate_content``, OpenInference ``LLM``), the trace's own root span (no
       parent) or, missing that, the earliest model call: a plain instrumented client
       with no agent span still makes one interaction.
    Several topmost candidates: the earliest started is the root (their count is kept).
Question
    1. last user text of the root's input (``gen_ai.input.messages``,
       ``llm.input_messages``);
    2. the root's ``input.value`` (plain text, or a JSON object's
       ``input``/``question``/``query``/``message`` text, or its ``messages``);
    3. last user text of the first model call's input messages in the root's subtree.
Answer
    1. last assistant text of the root's output (``gen_ai.output.messages``,
       ``llm.output_messages``);
    2. the root's ``output.value`` (plain text or a JSON object's
       ``output``/``answer``/``response``/``content``/``text``);
    3. assistant text of the last model call that answered in text.
Tool results
    ``execute_tool`` spans (``gen_ai.tool.name``, ``gen_ai.tool.call.id``,
    ``gen_ai.tool.call.arguments`` / ``.result``), OpenInference ``TOOL`` spans
    (``tool.name``, ``tool.id``, ``input.value`` / ``output.value``) and the
    ``tool`` messages that model calls receive (``tool_call_response`` parts /
    ``message.tool_call_id``), joined to the calls by id so that a result always has its
    tool name. A span wins over a message for the same id.
Context
    each counted tool's JSON object result, flattened (``{"case": {"status": "x"}}`` ->
    ``case.status``, up to ``max_depth``), becomes context fields under its own field
    names; a scalar result becomes the field ``<tool>``. Name clash rule: the first value
    (by call time) keeps the plain name; a *different* value from a later call is stored
    as ``<tool>.<field>``, then ``<tool>.<field>#2`` ...; an equal value is not repeated.
    Which tool supplied each field is kept in ``metadata["otel"]["context_sources"]``.
Usage
    model, provider and tokens are summed over the model-call spans only (an agent
    span's own totals would count the same tokens twice); only when no model call
    carries usage do the root's totals count.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import ValidationError

from monitor.errors import InvalidTraceError
from monitor.schemas import Trace
from monitor.schemas.citation import CitationBundle
from monitor.schemas.trace import Observation
from pipelines.otel.mapping import DEFAULT_MAPPING, OtelMapping
from pipelines.otel.spans import Span

AGENT_OPERATIONS = frozenset({"invoke_agent", "invoke_workflow"})
MODEL_OPERATIONS = frozenset({"chat", "text_completion", "generate_content"})
OI_ROOT_KINDS = frozenset({"AGENT", "CHAIN"})

_QUESTION_KEYS = ("input", "question", "query", "message", "prompt", "text")
_ANSWER_KEYS = ("output", "answer", "response", "content", "text", "result")


@dataclass(frozen=True, slots=True)
class ToolResult:
    """One tool call with its result, joined by call id."""

    call_id: str | None
    name: str | None
    arguments: Any
    result: Any
    span_id: str | None
    source: str  # "span" | "message"
    order: int  # start time (ns) of the span or of the model call that received it


@dataclass(frozen=True, slots=True)
class Assembled:
    """The interaction assembled from one trace's spans."""

    trace: Trace
    root_span_id: str
    tool_results: tuple[ToolResult, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------- span helpers


def operation(span: Span) -> str | None:
    op = span.attributes.get("gen_ai.operation.name")
    return op if isinstance(op, str) else None


def oi_kind(span: Span) -> str | None:
    kind = span.attributes.get("openinference.span.kind")
    return kind.upper() if isinstance(kind, str) else None


def is_model_call(span: Span) -> bool:
    return operation(span) in MODEL_OPERATIONS or oi_kind(span) == "LLM"


def root_kind(span: Span) -> Literal["root", "candidate"] | None:
    """What the buffer waits for: ``"root"`` for the trace's own root (no parent),
    ``"candidate"`` for an agent span with a parent (nested, or parented remotely)."""
    if span.parent_span_id is None:
        return "root"
    if operation(span) in AGENT_OPERATIONS or oi_kind(span) in OI_ROOT_KINDS:
        return "candidate"
    return None


def json_value(value: Any) -> Any:
    """A value that may arrive as a JSON string (``gen_ai.input.messages``) or structured."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in ("[", "{", '"'):
            try:
                return json.loads(stripped)
            except ValueError:
                return value
    return value


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True, slots=True)
class _Msg:
    role: str
    text: str
    tool_calls: tuple[tuple[str | None, str | None, Any], ...] = ()  # (id, name, arguments)
    tool_results: tuple[tuple[str | None, Any], ...] = ()  # (call id, response)


# Role spellings seen besides the conventions' own (LangChain-style "human"/"ai",
# Gemini's "model"): compared case-insensitively.
_ROLE_ALIASES = {"human": "user", "ai": "assistant", "model": "assistant", "bot": "assistant"}


def _role(value: Any) -> str:
    role = str(value or "").strip().lower()
    return _ROLE_ALIASES.get(role, role)


def _genai_messages(value: Any) -> list[_Msg] | None:
    data = json_value(value)
    if not isinstance(data, list):
        return None
    out: list[_Msg] = []
    for m in data:
        if not isinstance(m, dict):
            continue
        role = _role(m.get("role"))
        texts: list[str] = []
        calls: list[tuple[str | None, str | None, Any]] = []
        results: list[tuple[str | None, Any]] = []
        parts = m.get("parts")
        if isinstance(parts, list):
            for p in parts:
                if not isinstance(p, dict):
                    continue
                ptype = p.get("type")
                if ptype == "text" and isinstance(p.get("content"), str):
                    texts.append(p["content"])
                elif ptype == "tool_call":
                    calls.append(
                        (_opt_str(p.get("id")), _opt_str(p.get("name")), p.get("arguments"))
                    )
                elif ptype == "tool_call_response":
                    results.append((_opt_str(p.get("id")), p.get("response", p.get("result"))))
        elif isinstance(m.get("content"), str):  # older shape: {"role", "content"}
            texts.append(m["content"])
        out.append(_Msg(role, "\n".join(t for t in texts if t), tuple(calls), tuple(results)))
    return out


def _oi_messages(value: Any) -> list[_Msg] | None:
    if not isinstance(value, list):
        return None
    out: list[_Msg] = []
    for m in value:
        if not isinstance(m, dict):
            continue
        role = _role(m.get("message.role"))
        texts: list[str] = []
        content = m.get("message.content")
        if isinstance(content, str):
            texts.append(content)
        contents = m.get("message.contents")
        if isinstance(contents, list):
            for c in contents:
                if isinstance(c, dict) and isinstance(c.get("message_content.text"), str):
                    texts.append(c["message_content.text"])
        calls = tuple(
            (
                _opt_str(tc.get("tool_call.id")),
                _opt_str(tc.get("tool_call.function.name")),
                tc.get("tool_call.function.arguments"),
            )
            for tc in m.get("message.tool_calls") or []
            if isinstance(tc, dict)
        )
        results: tuple[tuple[str | None, Any], ...] = ()
        if role == "tool":
            results = ((_opt_str(m.get("message.tool_call_id")), content),)
            texts = []
        out.append(_Msg(role, "\n".join(t for t in texts if t), calls, results))
    return out


def _input_messages(span: Span) -> list[_Msg] | None:
    a = span.attributes
    if "gen_ai.input.messages" in a:
        return _genai_messages(a["gen_ai.input.messages"])
    if "llm.input_messages" in a:
        return _oi_messages(a["llm.input_messages"])
    return None


def _output_messages(span: Span) -> list[_Msg] | None:
    a = span.attributes
    if "gen_ai.output.messages" in a:
        return _genai_messages(a["gen_ai.output.messages"])
    if "llm.output_messages" in a:
        return _oi_messages(a["llm.output_messages"])
    return None


def _last_text(messages: Sequence[_Msg] | None, roles: Iterable[str]) -> str | None:
    wanted = set(roles)
    for m in reversed(messages or ()):
        if m.role in wanted and m.text.strip():
            return m.text
    return None


def _value_text(value: Any, keys: Sequence[str], *, messages_role: str) -> str | None:
    """Text of an OpenInference ``input.value`` / ``output.value``: plain text, a JSON
    object's first text field among ``keys``, or the last ``messages_role`` message of a
    chat message list (the object's ``messages``, or the value itself)."""
    data = json_value(value)
    if isinstance(data, str):
        return data if data.strip() else None
    msgs: Any = data
    if isinstance(data, dict):
        for k in keys:
            v = data.get(k)
            if isinstance(v, str) and v.strip():
                return v
        msgs = data.get("messages")
    if isinstance(msgs, list):
        return _last_text(_genai_messages(msgs), (messages_role,))
    return None


def _opt_str(value: Any) -> str | None:
    if value is None or value == "":
        return None
    return str(value)


# --------------------------------------------------------------------------- assembly


def assemble(spans: Iterable[Span], mapping: OtelMapping = DEFAULT_MAPPING) -> Assembled:
    """Assemble one interaction from the spans of one trace.

    Raises :class:`InvalidTraceError` with a bounded ``reason``: ``no_spans``,
    ``no_root`` (no agent span and no model call), ``no_question`` / ``no_answer``
    (content not captured: the instrumentations record message content only when
    asked to).
    """
    by_id: dict[str, Span] = {}
    for s in spans:
        if not mapping.ignored(s.name):
            by_id.setdefault(s.span_id, s)
    if not by_id:
        raise InvalidTraceError("no_spans", detail="no span left to assemble")
    ordered = sorted(by_id.values(), key=lambda s: (s.start_unix_nano, s.span_id))
    trace_id = ordered[0].trace_id

    root, root_rule, n_roots = _find_root(ordered, by_id)
    subtree = _subtree(root, ordered, by_id, whole_trace=root_rule == "model_call")
    model_calls = [s for s in subtree if is_model_call(s) and s is not root]
    if is_model_call(root):
        model_calls.insert(0, root)

    question, q_source = _question(root, model_calls)
    answer, a_source = _answer(root, model_calls)
    if question is None:
        raise InvalidTraceError(
            "no_question",
            field="gen_ai.input.messages",
            detail=f"trace {trace_id}: no user text (message content capture off?)",
        )
    if answer is None:
        raise InvalidTraceError(
            "no_answer",
            field="gen_ai.output.messages",
            detail=f"trace {trace_id}: no assistant text (message content capture off?)",
        )

    tools = _tool_results(subtree, model_calls)
    context, context_sources = _context(tools, mapping)
    for attr, name in mapping.context_attributes.items():
        value = _first_attr(root, subtree, attr)
        if isinstance(value, str | int | float | bool) and name not in context:
            context[name] = value
            context_sources[name] = {"attribute": attr}

    usage = _usage(root, model_calls)
    conversation = _first_attr(root, subtree, "gen_ai.conversation.id", "session.id")
    agent = _first_str(root, "gen_ai.agent.name", "agent.name")
    response_ids = sorted(
        {r for s in model_calls if isinstance(r := s.attributes.get("gen_ai.response.id"), str)}
    )
    intent = (
        _first_attr(root, subtree, mapping.intent_attribute) if mapping.intent_attribute else None
    )
    citations = _citations(root, subtree, mapping)
    conventions = sorted(
        {"genai" for s in subtree if operation(s)}
        | {"openinference" for s in subtree if oi_kind(s)}
    )

    provenance: dict[str, Any] = {
        "trace_id": trace_id,
        "root_span_id": root.span_id,
        "root_span_name": root.name,
        "root_rule": root_rule,
        "root_candidates": n_roots,
        "question_source": q_source,
        "answer_source": a_source,
        "conventions": conventions,
        "spans": len(by_id),
        "context_sources": context_sources,
        "tool_calls": [
            {"call_id": t.call_id, "name": t.name, "span_id": t.span_id, "source": t.source}
            for t in tools
        ],
        "usage": usage,
    }
    if response_ids:
        provenance["response_ids"] = response_ids
    metadata: dict[str, Any] = {"otel": provenance}
    if conversation is not None:
        metadata["conversation_id"] = str(conversation)
    if isinstance(intent, str) and intent:
        metadata["intent"] = intent
    for key in ("model", "provider"):
        if usage.get(key):
            metadata[key] = usage[key]

    observations = _observations(root, subtree, tools)
    try:
        trace = Trace(
            trace_id=trace_id,
            question=question,
            answer=answer,
            timestamp=_time(root.start_unix_nano),
            context=context,
            agent=agent,
            observations=observations,
            latency_ms=root.duration_ms,
            citations=citations,
            metadata=metadata,
        )
    except ValidationError as exc:  # a value our rules produced that the model rejects
        raise InvalidTraceError("mapping_invalid", detail=_errors(exc)) from exc
    return Assembled(
        trace=trace, root_span_id=root.span_id, tool_results=tuple(tools), provenance=provenance
    )


def _ancestors(span: Span, by_id: Mapping[str, Span]) -> Iterable[Span]:
    seen = {span.span_id}
    parent = span.parent_span_id
    while parent and parent in by_id and parent not in seen:
        seen.add(parent)
        span = by_id[parent]
        yield span
        parent = span.parent_span_id


def _ancestor_flags(
    by_id: Mapping[str, Span], pred: Callable[[Span], bool]
) -> Callable[[Span], bool]:
    """Whether a span has a strict ancestor matching ``pred``: each span's answer is
    computed once (a deep chain of spans costs linear time, not quadratic)."""
    memo: dict[str, bool] = {}

    def has(span: Span) -> bool:
        chain: list[Span] = []
        seen: set[str] = set()
        cur = span
        while cur.span_id not in memo:
            seen.add(cur.span_id)
            chain.append(cur)
            parent = cur.parent_span_id
            if not parent or parent not in by_id or parent in seen:
                memo[cur.span_id] = False  # the top of the chain (or a cycle)
                chain.pop()
                break
            cur = by_id[parent]
        above = cur  # answered; fill the chain downwards from it
        for s in reversed(chain):
            memo[s.span_id] = pred(above) or memo[above.span_id]
            above = s
        return memo[span.span_id]

    return has


def _find_root(ordered: Sequence[Span], by_id: Mapping[str, Span]) -> tuple[Span, str, int]:
    genai = [s for s in ordered if operation(s) in AGENT_OPERATIONS]
    under_agent = _ancestor_flags(by_id, lambda a: operation(a) in AGENT_OPERATIONS)
    top = [s for s in genai if not under_agent(s)]
    if top:
        return top[0], "genai_agent", len(top)
    oi = [s for s in ordered if oi_kind(s) in OI_ROOT_KINDS]
    under_oi = _ancestor_flags(by_id, lambda a: oi_kind(a) in OI_ROOT_KINDS or bool(operation(a)))
    top = [s for s in oi if not under_oi(s)]
    if top:
        return top[0], "openinference_" + (oi_kind(top[0]) or "").lower(), len(top)
    calls = [s for s in ordered if is_model_call(s)]
    if calls:
        parentless = [s for s in ordered if s.parent_span_id is None]
        if parentless:
            return parentless[0], "trace_root", len(parentless)
        return calls[0], "model_call", len(calls)
    raise InvalidTraceError(
        "no_root", detail=f"trace {ordered[0].trace_id}: no agent span and no model call"
    )


def _subtree(
    root: Span, ordered: Sequence[Span], by_id: Mapping[str, Span], *, whole_trace: bool
) -> list[Span]:
    if whole_trace:
        return list(ordered)
    under_root = _ancestor_flags(by_id, lambda a: a is root)
    return [s for s in ordered if s is root or under_root(s)]


def _question(root: Span, model_calls: Sequence[Span]) -> tuple[str | None, str]:
    text = _last_text(_input_messages(root), ("user",))
    if text:
        return text, "root.input_messages"
    if "input.value" in root.attributes:
        text = _value_text(root.attributes["input.value"], _QUESTION_KEYS, messages_role="user")
        if text:
            return text, "root.input.value"
    for call in model_calls:
        text = _last_text(_input_messages(call), ("user",))
        if text:
            return text, "first_model_call.input_messages"
    return None, "missing"


def _answer(root: Span, model_calls: Sequence[Span]) -> tuple[str | None, str]:
    text = _last_text(_output_messages(root), ("assistant", ""))
    if text:
        return text, "root.output_messages"
    if "output.value" in root.attributes:
        text = _value_text(root.attributes["output.value"], _ANSWER_KEYS, messages_role="assistant")
        if text:
            return text, "root.output.value"
    for call in sorted(
        model_calls, key=lambda s: (s.end_unix_nano, s.start_unix_nano), reverse=True
    ):
        text = _last_text(_output_messages(call), ("assistant", ""))
        if text:
            return text, "last_model_call.output_messages"
    return None, "missing"


def _tool_results(subtree: Sequence[Span], model_calls: Sequence[Span]) -> list[ToolResult]:
    names: dict[str, tuple[str | None, Any]] = {}  # call id -> (tool name, arguments)
    for call in model_calls:
        for msgs in (_input_messages(call), _output_messages(call)):
            for m in msgs or ():
                for cid, name, args in m.tool_calls:
                    if cid:
                        names.setdefault(cid, (name, args))
    found: dict[str, ToolResult] = {}
    anonymous: list[ToolResult] = []
    for s in subtree:
        a = s.attributes
        if operation(s) == "execute_tool":
            cid = _opt_str(a.get("gen_ai.tool.call.id"))
            name = _opt_str(a.get("gen_ai.tool.name"))
            args, result = a.get("gen_ai.tool.call.arguments"), a.get("gen_ai.tool.call.result")
        elif oi_kind(s) == "TOOL":
            # OpenInference's TOOL span names its call ``tool.id`` ("corresponding to
            # tool_call.id"); ``tool_call.id`` is accepted too.
            cid = _opt_str(a.get("tool.id")) or _opt_str(a.get("tool_call.id"))
            name = _opt_str(a.get("tool.name"))
            args, result = a.get("input.value"), a.get("output.value")
        else:
            continue
        if name is None and cid in names:
            name = names[cid][0]
        tr = ToolResult(
            cid,
            name or s.name,
            json_value(args),
            json_value(result),
            s.span_id,
            "span",
            s.start_unix_nano,
        )
        if cid:
            found.setdefault(cid, tr)
        else:
            anonymous.append(tr)
    for call in model_calls:
        for m in _input_messages(call) or ():
            for cid, response in m.tool_results:
                if cid is None or cid in found:
                    continue
                name, args = names.get(cid, (None, None))
                found[cid] = ToolResult(
                    cid,
                    name,
                    json_value(args),
                    json_value(response),
                    None,
                    "message",
                    call.start_unix_nano,
                )
    return sorted([*found.values(), *anonymous], key=lambda t: (t.order, t.call_id or ""))


def _flatten(value: Any, prefix: str, depth: int, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        if depth <= 0:
            return
        for k, v in value.items():
            _flatten(v, f"{prefix}.{k}" if prefix else str(k), depth - 1, out)
    elif (isinstance(value, str | int | float | bool) or value is None) and prefix:
        out[prefix] = value
    # lists are not facts with one value: left out


def _context(
    tools: Sequence[ToolResult], mapping: OtelMapping
) -> tuple[dict[str, Any], dict[str, Any]]:
    rules = mapping.tool_results
    context: dict[str, Any] = {}
    sources: dict[str, Any] = {}
    for t in tools:
        if t.result is None or not rules.counts(t.name):
            continue
        tool = t.name or "tool"
        fields: dict[str, Any] = {}
        if isinstance(t.result, dict):
            _flatten(t.result, "", rules.max_depth, fields)
        elif isinstance(t.result, str | int | float | bool):
            fields[tool] = t.result
        renames = rules.rename.get(tool, {})
        for src, value in fields.items():
            name = renames.get(src, src)
            if rules.prefix_with_tool and name != tool:
                name = f"{tool}.{name}"
            candidates = [name, f"{tool}.{name}"] if not name.startswith(f"{tool}.") else [name]
            placed = False
            for cand in candidates:
                if cand not in context:
                    context[cand] = value
                    sources[cand] = {"tool": t.name, "call_id": t.call_id, "field": src}
                    placed = True
                    break
                if context[cand] == value:
                    placed = True
                    break
            n = 2
            while not placed:
                cand = f"{candidates[-1]}#{n}"
                if cand not in context:
                    context[cand] = value
                    sources[cand] = {"tool": t.name, "call_id": t.call_id, "field": src}
                    placed = True
                n += 1
    return context, sources


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    # ASCII digits only ('²'.isdigit() is true, int('²') raises), and no more than an
    # int64 has (int() refuses over 4,300 digits).
    if isinstance(value, str) and value.isdecimal() and value.isascii() and len(value) <= 19:
        return int(value)
    return None


def _span_usage(s: Span) -> tuple[int | None, int | None]:
    inp = _first_int(
        s, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"
    )
    out = _first_int(
        s,
        "gen_ai.usage.output_tokens",
        "gen_ai.usage.completion_tokens",
        "llm.token_count.completion",
    )
    return inp, out


def _usage(root: Span, model_calls: Sequence[Span]) -> dict[str, Any]:
    inp = out = 0
    counted = 0
    models: list[str] = []
    providers: list[str] = []
    for s in model_calls:
        i, o = _span_usage(s)
        if i is not None or o is not None:
            counted += 1
            inp += i or 0
            out += o or 0
        a = s.attributes
        model = (
            a.get("gen_ai.response.model")
            or a.get("gen_ai.request.model")
            or a.get("llm.model_name")
        )
        if isinstance(model, str) and model not in models:
            models.append(model)
        provider = (
            a.get("gen_ai.provider.name")
            or a.get("gen_ai.system")
            or a.get("llm.provider")
            or a.get("llm.system")
        )
        if isinstance(provider, str) and provider not in providers:
            providers.append(provider)
    source = "model_calls"
    if counted == 0:
        i, o = _span_usage(root)
        if i is not None or o is not None:
            inp, out, source = i or 0, o or 0, "root"
        else:
            source = "none"
    usage: dict[str, Any] = {
        "input_tokens": inp,
        "output_tokens": out,
        "model_calls": len(model_calls),
        "source": source,
    }
    if models:
        usage["model"] = models[0] if len(models) == 1 else models
    if providers:
        usage["provider"] = providers[0] if len(providers) == 1 else providers
    return usage


def _first_attr(root: Span, subtree: Sequence[Span], *names: str | None) -> Any:
    for s in (root, *subtree):
        for n in names:
            if n is None:
                continue
            v = s.attributes.get(n)
            if v is None:
                v = s.resource.get(n)
            if v is not None and v != "":
                return v
    return None


def _first_int(span: Span, *names: str) -> int | None:
    for n in names:
        if (v := _int(span.attributes.get(n))) is not None:
            return v
    return None


def _first_str(span: Span, *names: str) -> str | None:
    for n in names:
        v = span.attributes.get(n)
        if isinstance(v, str) and v:
            return v
    return None


def _citations(root: Span, subtree: Sequence[Span], mapping: OtelMapping) -> CitationBundle | None:
    if not mapping.citations_attribute:
        return None
    raw = _first_attr(root, subtree, mapping.citations_attribute)
    if raw is None:
        return None
    try:
        return CitationBundle.model_validate(json_value(raw))
    except ValidationError as exc:
        raise InvalidTraceError(
            "citations_invalid", field=mapping.citations_attribute, detail=_errors(exc)
        ) from exc


def _errors(exc: ValidationError) -> str:
    """A validation error's locations and messages, without the input values that
    ``str(exc)`` quotes (the trace's own text: a dead letter must not carry it)."""
    parts = [
        f"{'.'.join(str(x) for x in e['loc']) or '(root)'}: {e['msg']}"
        for e in exc.errors(include_input=False, include_url=False)
    ]
    return "; ".join(parts)[:500]


def _documents(s: Span) -> list[dict[str, Any]]:
    a = s.attributes
    docs: list[dict[str, Any]] = []
    raw = json_value(a.get("gen_ai.retrieval.documents"))
    if isinstance(raw, list):
        for d in raw:
            if isinstance(d, dict):
                docs.append(
                    {"id": d.get("id"), "content": d.get("content"), "score": d.get("score")}
                )
    oi = a.get("retrieval.documents")
    if isinstance(oi, list):
        for d in oi:
            if isinstance(d, dict):
                docs.append(
                    {
                        "id": d.get("document.id"),
                        "content": d.get("document.content"),
                        "score": d.get("document.score"),
                    }
                )
    return docs


def _observations(
    root: Span, subtree: Sequence[Span], tools: Sequence[ToolResult]
) -> list[Observation]:
    by_span = {t.span_id: t for t in tools if t.span_id}
    obs: list[Observation] = []
    for s in subtree:
        if s is root:
            continue
        status = "error" if s.status_code == 2 else "ok"
        common: dict[str, Any] = {
            "started_at": _time(s.start_unix_nano),
            "duration_ms": s.duration_ms,
            "status": status,
            "span_id": s.span_id,
        }
        docs = _documents(s)
        if s.span_id in by_span:
            t = by_span[s.span_id]
            obs.append(
                Observation(
                    kind="tool",
                    name=t.name,
                    call_id=t.call_id,
                    arguments=t.arguments,
                    result=t.result,
                    **common,
                )
            )
        elif docs or operation(s) == "retrieval" or oi_kind(s) == "RETRIEVER":
            obs.append(Observation(kind="retrieval", name=s.name, documents=docs, **common))
        elif operation(s) in AGENT_OPERATIONS or oi_kind(s) == "AGENT":
            obs.append(
                Observation(
                    kind="agent",
                    name=_first_str(s, "gen_ai.agent.name", "agent.name") or s.name,
                    **common,
                )
            )
        elif is_model_call(s):
            obs.append(Observation(kind="llm", name=s.name, **common))
    # results that only travelled in messages (no tool span): an observation each
    for t in tools:
        if t.span_id is None:
            obs.append(
                Observation(
                    kind="tool",
                    name=t.name,
                    call_id=t.call_id,
                    arguments=t.arguments,
                    result=t.result,
                    started_at=_time(t.order),
                    status="ok",
                )
            )
    return obs


def _time(unix_nano: int) -> datetime | None:
    if not unix_nano:
        return None
    return datetime.fromtimestamp(unix_nano / 1e9, tz=UTC)
