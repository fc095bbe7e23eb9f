"""A scripted OpenAI-compatible chat-completions server on a real local socket.

Each POST to ``/v1/chat/completions`` takes the next :class:`Reply` from the script
(the last one repeats when the script runs out) and answers with it: a status code,
headers, a delay, and a chat-completion body built from ``content`` / ``refusal``.
Requests (bodies and headers) and the peak number of requests in flight are
recorded so that tests can assert retries, bounds and what was sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from monitor.llm import LLMConfig


@dataclass
class Reply:
    status: int = 200
    content: str | None = None
    refusal: str | None = None
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    usage: tuple[int, int] | None = (120, 30)
    error: str = "scripted error"
    reject_structured: bool = False
    """Answer ``reject_status`` 'response_format not supported' to requests that carry
    one, without consuming this reply (the judge's fallback request gets it)."""
    reject_status: int = 400
    tool_calls: list[dict[str, Any]] | None = None
    """OpenAI ``tool_calls`` of the assistant message (``content`` stays as set, usually
    None; set ``finish_reason="tool_calls"`` with them)."""
    response_id: str = "chatcmpl-scripted"


@dataclass
class Seen:
    body: dict[str, Any]
    headers: dict[str, str]
    at: float


class ScriptedChatServer:
    def __init__(self, script: list[Reply]) -> None:
        if not script:
            raise ValueError("a script needs at least one reply")
        self.script = list(script)
        self.requests: list[Seen] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._next = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}}, {})
                    return
                reply = server._take(body, {k.lower(): v for k, v in self.headers.items()})
                with server._lock:
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    if reply.delay_s:
                        time.sleep(reply.delay_s)
                    if reply.reject_structured and "response_format" in body:
                        self._send(
                            reply.reject_status,
                            {
                                "error": {
                                    "message": "response_format json_schema is not supported",
                                    "type": "invalid_request_error",
                                }
                            },
                            {},
                        )
                    elif reply.status != 200:
                        self._send(reply.status, {"error": {"message": reply.error}}, reply.headers)
                    else:
                        self._send(200, _completion(body, reply), reply.headers)
                finally:
                    with server._lock:
                        server.in_flight -= 1

            def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _take(self, body: dict[str, Any], headers: dict[str, str]) -> Reply:
        with self._lock:
            self.requests.append(Seen(body, headers, time.monotonic()))
            reply = self.script[min(self._next, len(self.script) - 1)]
            if not (reply.reject_structured and "response_format" in body):
                self._next += 1
            return reply

    def start(self) -> ScriptedChatServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": reply.response_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "scripted"),
        "choices": [
            {
                "index": 0,
                "finish_reason": reply.finish_reason,
                "message": {
                    "role": "assistant",
                    "content": reply.content,
                    "refusal": reply.refusal,
                },
            }
        ],
    }
    if reply.tool_calls is not None:
        out["choices"][0]["message"]["tool_calls"] = reply.tool_calls
    if reply.usage is not None:
        out["usage"] = {
            "prompt_tokens": reply.usage[0],
            "completion_tokens": reply.usage[1],
            "total_tokens": sum(reply.usage),
        }
    return out


@contextmanager
def scripted_server(*script: Reply) -> Iterator[ScriptedChatServer]:
    server = ScriptedChatServer(list(script)).start()
    try:
        yield server
    finally:
        server.stop()


def verdict_json(
    correctness: float = 0.9,
    fidelity: float = 1.0,
    *,
    claims: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> str:
    """A valid verdict as the judge must return it."""
    dims = {
        "correctness": correctness,
        "completeness": 0.8,
        "helpfulness": 0.7,
        "hallucination_fidelity": fidelity,
    }
    out: dict[str, Any] = {d: {"score": v, "rationale": f"{d} rationale"} for d, v in dims.items()}
    out["claims"] = claims if claims is not None else []
    out.update(extra)
    return json.dumps(out)


#: The API key the test configs carry; a test checks it never reaches a record or a log.
SECRET = "sk-test-DO-NOT-LEAK-4242"


def fast_config(url: str, *, model: str = "judge-model", **kw: Any) -> LLMConfig:
    """An LLM client config for the scripted server: quick retries, prices set."""
    from pydantic import SecretStr

    base: dict[str, Any] = {
        "base_url": url,
        "model": model,
        "api_key": SecretStr(SECRET),
        "backoff_base_s": 0.01,
        "backoff_cap_s": 0.05,
        "request_timeout_s": 5.0,
        "price_input_per_1k": 0.5,
        "price_output_per_1k": 2.0,
    }
    base.update(kw)
    return LLMConfig(**base)
