"""The LLM client against a scripted chat-completions server on a real socket.

The retry policy, the concurrency bound, structured output with its fallback and the
error translation, over real HTTP: the right error kind, bounded retries, accounting
on failures too.
"""

from __future__ import annotations

import asyncio
import socket
import time
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel

from monitor.errors import JudgeError
from monitor.llm import LLMClient, LLMConfig, OutputSchema, extract_json, strict_schema
from monitor.schemas import LLMCall
from tests.support.chat_server import SECRET, Reply, fast_config, scripted_server

REPLY = '{"answer": 42}'


@dataclass(frozen=True)
class _Prompt:
    system: str = "Answer in JSON."
    user: str = "What is the answer?"
    condition: str = "test"
    prompt_version: str = "test@1"
    prompt_hash: str = "0123456789abcdef"


class _Answer(BaseModel):
    answer: int


SCHEMA = OutputSchema("test_answer", strict_schema(_Answer))


def config(url: str, **kw: Any) -> LLMConfig:
    return fast_config(url, model="m", **kw)


async def ask(client: LLMClient, seed: int | None = 0) -> tuple[dict[str, Any], LLMCall]:
    return await client.ask(_Prompt(), seed, SCHEMA, extract_json)


async def ask_once(*script: Reply, **kw: Any) -> tuple[Any, Any]:
    """(data, call) or the JudgeError, and the server."""
    with scripted_server(*script) as server:
        client = LLMClient(config(server.url, **kw))
        try:
            result: Any = await ask(client)
        except JudgeError as exc:
            result = exc
        finally:
            await client.aclose()
        return result, server


async def test_a_call_is_sent_parsed_and_accounted() -> None:
    (data, call), server = await ask_once(Reply(content=REPLY, usage=(1000, 500)))
    assert data == {"answer": 42}
    assert (call.model, call.condition, call.prompt_version, call.attempts) == (
        "m",
        "test",
        "test@1",
        1,
    )
    assert call.usage.input_tokens == 1000 and call.usage.output_tokens == 500
    assert call.cost_usd == pytest.approx(1000 * 0.5 / 1000 + 500 * 2.0 / 1000)
    assert call.base_url_host == f"127.0.0.1:{server.url.split(':')[2].split('/')[0]}"
    body = server.requests[0].body
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["seed"] == 0 and body["temperature"] == 0.4 and body["top_p"] == 1.0
    fmt = body["response_format"]["json_schema"]
    assert fmt["name"] == "test_answer" and fmt["strict"] is True
    assert fmt["schema"]["additionalProperties"] is False
    assert fmt["schema"]["required"] == ["answer"] and "title" not in fmt["schema"]
    assert server.requests[0].headers.get("authorization") == f"Bearer {SECRET}"
    assert SECRET not in call.model_dump_json() and SECRET not in repr(config(server.url))


def test_extract_json_prefers_the_first_object() -> None:
    assert extract_json('noise [1, 2] then {"a": {"b": 1}} and {"c": 2}') == {"a": {"b": 1}}


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply(content=""), "empty"),
        (Reply(content="", finish_reason="length"), "empty"),
        (Reply(content="no json here"), "unparseable"),
        (Reply(content=None, refusal="I can't help with that."), "refusal"),
    ],
)
async def test_unusable_replies_are_errors_with_their_cost(reply: Reply, kind: str) -> None:
    err, server = await ask_once(reply)
    assert isinstance(err, JudgeError) and err.kind == kind
    assert len(server.requests) == 1
    assert err.call is not None and err.call.usage.input_tokens == 120


# --------------------------------------------------------------------------- transport failures


async def test_429_with_retry_after_then_success() -> None:
    started = time.monotonic()
    r, server = await ask_once(
        Reply(status=429, headers={"Retry-After": "1"}, error="slow down"),
        Reply(content=REPLY),
        backoff_cap_s=2.0,
    )
    data, call = r
    assert data == {"answer": 42} and call.attempts == 2
    gap = server.requests[1].at - server.requests[0].at
    assert gap >= 0.95  # Retry-After honoured (the backoff alone would be <= 0.05 s)
    assert time.monotonic() - started < 10


async def test_retry_after_is_capped() -> None:
    (_, call), server = await ask_once(
        Reply(status=503, headers={"Retry-After": "120"}), Reply(content=REPLY), backoff_cap_s=0.2
    )
    assert call.attempts == 2
    assert server.requests[1].at - server.requests[0].at < 5


async def test_500_six_times_gives_up_after_five_retries() -> None:
    err, server = await ask_once(*[Reply(status=500)] * 7)
    assert isinstance(err, JudgeError) and err.kind == "http"
    assert len(server.requests) == 6 and err.call.attempts == 6
    assert "gave up after 6 attempts" in err.reason


async def test_429_forever_is_a_rate_limit_error() -> None:
    err, server = await ask_once(Reply(status=429, headers={"retry-after-ms": "10"}), max_retries=2)
    assert isinstance(err, JudgeError) and err.kind == "rate_limit"
    assert len(server.requests) == 3


async def test_4xx_fails_at_once() -> None:
    err, server = await ask_once(Reply(status=401, error="bad key"))
    assert isinstance(err, JudgeError) and err.kind == "http" and "401" in err.reason
    assert len(server.requests) == 1


async def test_slow_response_is_a_timeout() -> None:
    err, server = await ask_once(Reply(content=REPLY, delay_s=2.0), request_timeout_s=0.4)
    assert isinstance(err, JudgeError) and err.kind == "timeout"
    assert len(server.requests) == 1 and err.call.attempts == 1


async def test_unreachable_endpoint_is_a_connection_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again below: nothing listens there
    client = LLMClient(config(f"http://127.0.0.1:{port}/v1", max_retries=2))
    with pytest.raises(JudgeError) as info:
        await ask(client)
    assert info.value.kind == "connection" and info.value.call.attempts == 3


@pytest.mark.parametrize("status", [400, 422, 500])
async def test_structured_output_rejected_falls_back_to_lenient_parsing(status: int) -> None:
    # llama-cpp-python's server answers 500 to a json_schema response_format.
    with scripted_server(
        Reply(content="```json\n" + REPLY + "\n```", reject_structured=True, reject_status=status)
    ) as server:
        client = LLMClient(config(server.url))
        (d1, c1), (d2, _) = await ask(client), await ask(client)
    assert d1 == d2 == {"answer": 42}
    assert ["response_format" in s.body for s in server.requests] == [True, False, False]
    assert c1.structured_output is False and client.structured is False


async def test_structured_output_on_does_not_fall_back() -> None:
    err, server = await ask_once(
        Reply(content=REPLY, reject_structured=True), structured_output="on"
    )
    assert isinstance(err, JudgeError) and err.kind == "http"
    assert len(server.requests) == 1


async def test_structured_output_off_sends_no_schema() -> None:
    (_, call), server = await ask_once(Reply(content=REPLY), structured_output="off")
    assert "response_format" not in server.requests[0].body and call.structured_output is False


async def test_concurrency_limit_is_respected() -> None:
    with scripted_server(Reply(content=REPLY, delay_s=0.2)) as server:
        client = LLMClient(config(server.url, max_concurrency=3))
        results = await asyncio.gather(*(ask(client) for _ in range(10)))
    assert len(results) == 10 and len(server.requests) == 10
    assert server.max_in_flight == 3
