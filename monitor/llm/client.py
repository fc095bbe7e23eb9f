"""An OpenAI-compatible chat-completions client: retries, accounting, structured output.

What it guarantees:

* **Honest retries**: 429, 5xx and connection errors are retried with exponential
  backoff (base 1 s, cap 30 s, jittered, up to 5 retries); a ``Retry-After`` (or
  ``retry-after-ms``) header is honoured up to the cap. Timeouts are not retried:
  the request timeout already waited long, and the evaluator's per-trace deadline
  bounds the whole call. 4xx other than 429 fail at once (they will not heal).
* **A concurrency bound**: at most ``max_concurrency`` requests in flight, per
  event loop.
* **Structured output with fallback**: with ``structured_output="auto"`` the output
  schema is sent as ``response_format`` and, if the endpoint rejects that, the
  client falls back to lenient parsing (:func:`monitor.llm.extract_json`) for the
  rest of its life; ``"on"`` never falls back, ``"off"`` never sends a schema.
* **Accounting**: tokens by direction, estimated cost, attempts and latency go into
  an :class:`LLMCall` -- also when the call fails, so failures cost what they cost
  in the figures too.
* **One error type**: every vendor exception and every unusable reply becomes a
  :class:`~monitor.errors.JudgeError` with a bounded ``kind`` (``timeout``,
  ``connection``, ``rate_limit``, ``http``, ``empty``, ``refusal``, or the parser's).
* The API key is a ``SecretStr``; it is only handed to the HTTP client.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, Literal, Protocol, TypeVar
from urllib.parse import urlsplit

from pydantic import SecretStr

from monitor.aio import LoopSemaphore
from monitor.errors import ConfigError, JudgeError
from monitor.schemas import LLMCall, TokenUsage

log = logging.getLogger(__name__)

StructuredMode = Literal["auto", "on", "off"]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class LLMConfig:
    """The endpoint, decoding, retry and price settings of the LLM judge (and of the
    LLM citation support checks); built from settings at the entry point.

    ``condition`` and ``rubric`` choose the judge's prompts; the client itself
    does not read them.
    """

    base_url: str
    model: str
    api_key: SecretStr | None = field(default=None, repr=False)
    condition: str = "cargo"
    rubric: str | None = None
    temperature: float = 0.4
    top_p: float | None = 1.0
    seed: int | None = 0
    request_timeout_s: float = 60.0
    max_concurrency: int = 8
    max_retries: int = 5
    backoff_base_s: float = 1.0
    backoff_cap_s: float = 30.0
    max_tokens: int | None = None
    structured_output: StructuredMode = "auto"
    price_input_per_1k: float = 0.0
    price_output_per_1k: float = 0.0

    def __post_init__(self) -> None:
        if not self.base_url:
            raise ConfigError(
                "the LLM judge needs an endpoint: set CARGO_JUDGE_BASE_URL or "
                "--judge-base-url (e.g. http://127.0.0.1:8000/v1)"
            )
        if not self.model:
            raise ConfigError("the LLM judge needs a model: set CARGO_JUDGE_MODEL or --judge-model")
        if self.max_concurrency < 1 or self.max_retries < 0 or self.request_timeout_s <= 0:
            raise ConfigError(
                "judge max_concurrency must be >= 1, max_retries >= 0 and request timeout > 0"
            )


class Prompt(Protocol):
    """A rendered prompt: two chat messages, and what the call record names."""

    @property
    def system(self) -> str: ...
    @property
    def user(self) -> str: ...
    @property
    def condition(self) -> str: ...
    @property
    def prompt_version(self) -> str: ...
    @property
    def prompt_hash(self) -> str: ...


@dataclass(frozen=True, slots=True)
class OutputSchema:
    """The JSON schema a reply must match, sent as ``response_format`` when structured."""

    name: str
    schema: dict[str, Any]


@dataclass
class _Attempts:
    count: int = 0
    usage: TokenUsage = field(default_factory=TokenUsage)


class LLMClient:
    """One OpenAI-compatible endpoint with the retry, concurrency and accounting policy
    above. ``client`` replaces the ``openai.AsyncOpenAI`` it would build (tests)."""

    def __init__(self, config: LLMConfig, *, client: Any | None = None) -> None:
        self.config = config
        self._client = client or _make_client(config)
        self._sem = LoopSemaphore(config.max_concurrency)
        self._structured = config.structured_output != "off"
        self._rng = random.Random(0)
        host = urlsplit(config.base_url).hostname or ""
        port = urlsplit(config.base_url).port
        self.host = f"{host}:{port}" if port else host

    @property
    def structured(self) -> bool:
        """Whether output schemas are sent (false after an ``auto`` fallback)."""
        return self._structured

    async def aclose(self) -> None:
        """Close the HTTP client's connections (call before the event loop ends)."""
        close = getattr(self._client, "close", None)
        if close is not None:
            await close()

    async def ask(
        self,
        prompt: Prompt,
        seed: int | None,
        schema: OutputSchema,
        parse: Callable[[str], T],
    ) -> tuple[T, LLMCall]:
        """One call (with its retries): the parsed reply and its record.

        ``parse`` turns the reply's text into the result or raises ``JudgeError``.
        Every ``JudgeError`` raised here carries the call's record in ``.call``.
        """
        started = time.perf_counter()
        attempts = _Attempts()
        try:
            content, refusal = await self._complete(prompt, seed, schema, attempts)
            if refusal:
                raise JudgeError("refusal", f"the model refused: {refusal[:200]}")
            out = parse(content or "")
        except JudgeError as exc:
            exc.call = self._call(prompt, seed, attempts, started)
            raise
        return out, self._call(prompt, seed, attempts, started)

    def _call(
        self, prompt: Prompt, seed: int | None, attempts: _Attempts, started: float
    ) -> LLMCall:
        u = attempts.usage
        cost = (
            u.input_tokens * self.config.price_input_per_1k
            + u.output_tokens * self.config.price_output_per_1k
        ) / 1000.0
        return LLMCall(
            model=self.config.model,
            base_url_host=self.host,
            condition=prompt.condition,
            prompt_version=prompt.prompt_version,
            prompt_hash=prompt.prompt_hash,
            temperature=self.config.temperature,
            top_p=self.config.top_p,
            seed=seed,
            structured_output=self._structured,
            attempts=attempts.count,
            usage=u,
            cost_usd=round(cost, 8),
            latency_ms=round((time.perf_counter() - started) * 1000, 3),
        )

    def _kwargs(self, prompt: Prompt, seed: int | None, schema: OutputSchema) -> dict[str, Any]:
        kw: dict[str, Any] = {
            "model": self.config.model,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ],
            "temperature": self.config.temperature,
            "timeout": self.config.request_timeout_s,
        }
        if self.config.top_p is not None:
            kw["top_p"] = self.config.top_p
        if seed is not None:
            kw["seed"] = seed
        if self.config.max_tokens is not None:
            kw["max_tokens"] = self.config.max_tokens
        if self._structured:
            kw["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema.name, "strict": True, "schema": schema.schema},
            }
        return kw

    async def _complete(
        self, prompt: Prompt, seed: int | None, schema: OutputSchema, attempts: _Attempts
    ) -> tuple[str | None, str | None]:
        import openai

        retries = 0
        while True:
            attempts.count += 1
            try:
                async with self._sem:
                    resp = await self._client.chat.completions.create(
                        **self._kwargs(prompt, seed, schema)
                    )
            except openai.APITimeoutError as exc:
                raise JudgeError(
                    "timeout",
                    f"no answer within {self.config.request_timeout_s}s (attempt {attempts.count})",
                ) from exc
            except openai.APIConnectionError as exc:
                kind, wait = "connection", None
                reason = f"cannot reach {self.host}: {_short(exc)}"
                error: Exception = exc
            except openai.RateLimitError as exc:
                kind, wait = "rate_limit", _retry_after(exc.response.headers)
                reason, error = f"HTTP 429 from the judge endpoint: {_short(exc)}", exc
            except openai.APIStatusError as exc:
                # Endpoints that do not speak json_schema say so with a 400 (vLLM, OpenAI),
                # a 422, or even a 500 (llama-cpp-python's server): whatever the status,
                # an error about response_format switches to lenient parsing.
                if (
                    self._structured
                    and self.config.structured_output == "auto"
                    and _mentions_response_format(exc)
                ):
                    log.warning(
                        "judge endpoint rejected response_format (HTTP %s); falling "
                        "back to lenient JSON parsing for this worker",
                        exc.status_code,
                    )
                    self._structured = False
                    continue
                if exc.status_code < 500:
                    raise JudgeError(
                        "http", f"HTTP {exc.status_code} from the judge endpoint: {_short(exc)}"
                    ) from exc
                kind, wait = "http", _retry_after(exc.response.headers)
                reason = f"HTTP {exc.status_code} from the judge endpoint: {_short(exc)}"
                error = exc
            else:
                _add_usage(attempts, resp)
                if not resp.choices:
                    raise JudgeError("empty", "the judge returned no choices")
                message = resp.choices[0].message
                refusal = getattr(message, "refusal", None)
                content = message.content
                if (
                    not refusal
                    and not (content or "").strip()
                    and resp.choices[0].finish_reason == "length"
                ):
                    raise JudgeError(
                        "empty",
                        "no content: the output hit the token cap "
                        "(reasoning models need no max-token cap)",
                    )
                return content, refusal
            if retries >= self.config.max_retries:
                raise JudgeError(
                    kind, f"{reason} (gave up after {attempts.count} attempts)"
                ) from error
            retries += 1
            await asyncio.sleep(self._backoff(retries, wait))

    def _backoff(self, retry: int, retry_after: float | None) -> float:
        cap = self.config.backoff_cap_s
        if retry_after is not None:
            return min(max(retry_after, 0.0), cap)
        base: float = min(cap, self.config.backoff_base_s * 2.0 ** (retry - 1))
        return base * (0.5 + 0.5 * self._rng.random())  # jitter: spread retries of a burst


def _make_client(config: LLMConfig) -> Any:
    from openai import AsyncOpenAI

    key = config.api_key.get_secret_value() if config.api_key else "not-set"
    # Retries are ours (bounded, Retry-After aware, counted); the client must not add any.
    return AsyncOpenAI(
        base_url=config.base_url, api_key=key, max_retries=0, timeout=config.request_timeout_s
    )


def _add_usage(attempts: _Attempts, resp: Any) -> None:
    usage = getattr(resp, "usage", None)
    if usage is None:
        return
    attempts.usage = TokenUsage(
        input_tokens=attempts.usage.input_tokens + int(getattr(usage, "prompt_tokens", 0) or 0),
        output_tokens=attempts.usage.output_tokens
        + int(getattr(usage, "completion_tokens", 0) or 0),
    )


def _retry_after(headers: Any) -> float | None:
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _mentions_response_format(exc: Exception) -> bool:
    text = str(exc).lower()
    return "response_format" in text or "json_schema" in text or "structured" in text


def _short(exc: Exception) -> str:
    return str(exc).replace("\n", " ")[:200]
