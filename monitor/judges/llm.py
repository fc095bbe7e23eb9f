"""The LLM Cargo judge over any OpenAI-compatible chat-completions endpoint.

What it guarantees:

* **Prompts are data** (:mod:`monitor.judges.prompts`): the condition, its version and
  the hash of the rendered system prompt are recorded on every judgment.
* **Strict output contract**: the reply must match :class:`VerdictOut` (a JSON schema
  generated from the pydantic model). With ``structured_output="auto"`` the schema is
  sent as ``response_format`` and, if the endpoint rejects that, the judge falls back
  to lenient parsing (code fences and prose around the JSON are tolerated) for the
  rest of its life. Anything that is not a valid verdict raises :class:`JudgeError`
  with a bounded ``kind`` -- it never becomes a score.
* **Honest retries**: 429, 5xx and connection errors are retried with exponential
  backoff (base 1 s, cap 30 s, jittered, up to 5 retries); a ``Retry-After`` (or
  ``retry-after-ms``) header is honoured up to the cap. Timeouts are not retried:
  the request timeout already waited long, and the evaluator's per-trace deadline
  bounds the whole call. 4xx other than 429 fail at once (they will not heal).
* **Accounting**: tokens by direction, estimated cost, attempts and latency go into an
  :class:`LLMCall` on the judgment -- also when the call fails, so failures cost
  what they cost in the figures too.
* The API key is a ``SecretStr``; it is only handed to the HTTP client.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import re
import time
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from functools import lru_cache
from typing import Any, Literal, cast
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from monitor.aio import LoopSemaphore
from monitor.errors import ConfigError, JudgeError
from monitor.judges.base import JudgeRequest, JudgeResult
from monitor.judges.prompts import PromptLibrary, PromptRenderer, RenderedPrompt
from monitor.schemas import (
    DIMENSIONS,
    ClaimEvidence,
    ClaimStatus,
    ClaimVerdict,
    JudgeInfo,
    LLMCall,
    Scores,
    TokenUsage,
)

log = logging.getLogger(__name__)

StructuredMode = Literal["auto", "on", "off"]


@dataclass(frozen=True, slots=True)
class LLMConfig:
    """Everything the LLM judge needs; built from settings at the entry point."""

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


# --------------------------------------------------------------------------- output contract


class DimensionOut(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    score: float = Field(ge=0, le=1)
    rationale: str


class ClaimOut(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    claim: str = Field(min_length=1)
    status: str
    context_field: str | None
    context_fact: str | None


class VerdictOut(BaseModel):
    """What the judge must return (extra keys are ignored when parsing leniently)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    correctness: DimensionOut
    completeness: DimensionOut
    helpfulness: DimensionOut
    hallucination_fidelity: DimensionOut
    claims: list[ClaimOut]


class SupportOut(BaseModel):
    """What the per-citation support check must return."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    status: Literal["supported", "contradicted", "unsupported"]
    rationale: str


def support_schema() -> dict[str, Any]:
    schema = SupportOut.model_json_schema()
    _strictify(schema)
    return schema


@lru_cache(maxsize=8)
def _schema_text(statuses: tuple[str, ...]) -> str:
    schema = VerdictOut.model_json_schema()
    _strictify(schema)
    schema["$defs"]["ClaimOut"]["properties"]["status"] = {"type": "string", "enum": list(statuses)}
    return json.dumps(schema, sort_keys=True)


def verdict_schema(statuses: tuple[str, ...]) -> dict[str, Any]:
    """The JSON schema sent as ``response_format`` (strict: closed objects, all keys)."""
    out: dict[str, Any] = json.loads(_schema_text(statuses))
    return out


def _strictify(node: Any) -> None:
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            node["additionalProperties"] = False
            node["required"] = list(node["properties"])
        node.pop("title", None)
        for v in node.values():
            _strictify(v)
    elif isinstance(node, list):
        for v in node:
            _strictify(v)


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


def extract_json(text: str) -> dict[str, Any]:
    """The first JSON object in ``text``: bare, fenced, or inside prose.

    Raises ``JudgeError('empty')`` for blank text and ``JudgeError('unparseable')``
    when no JSON object can be read.
    """
    if not text or not text.strip():
        raise JudgeError("empty", "the judge returned no content")
    candidates = [text.strip(), *(m.group(1).strip() for m in _FENCE.finditer(text))]
    for cand in candidates:
        try:
            value = json.loads(cand)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    decoder = json.JSONDecoder()
    for m in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, m.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    preview = text.strip().replace("\n", " ")[:120]
    raise JudgeError("unparseable", f"no JSON object in the judge's output: {preview!r}")


def parse_verdict(text: str, statuses: tuple[str, ...]) -> VerdictOut:
    """Text -> validated verdict, or ``JudgeError`` (empty / unparseable / schema)."""
    data = extract_json(text)
    try:
        verdict = VerdictOut.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
            for e in exc.errors()[:5]
        )
        raise JudgeError("schema", f"output violates the verdict schema: {problems}") from exc
    for k, c in enumerate(verdict.claims):
        if c.status not in statuses:
            raise JudgeError(
                "schema", f"claims.{k}.status: {c.status!r} is not one of {', '.join(statuses)}"
            )
    return verdict


# --------------------------------------------------------------------------- the judge


@dataclass
class _Attempts:
    count: int = 0
    usage: TokenUsage = field(default_factory=TokenUsage)


class LLMJudge:
    """Judges one accepted interaction with one chat-completions call (plus retries)."""

    name = "llm"

    def __init__(
        self, config: LLMConfig, *, library: PromptLibrary | None = None, client: Any | None = None
    ) -> None:
        self.config = config
        self.renderer = PromptRenderer(config.condition, config.rubric, library)
        self._client = client or _make_client(config)
        self._sem = LoopSemaphore(config.max_concurrency)
        self._structured = config.structured_output != "off"
        self._rng = random.Random(0)
        host = urlsplit(config.base_url).hostname or ""
        port = urlsplit(config.base_url).port
        self._host = f"{host}:{port}" if port else host
        settings = {
            "model": config.model,
            "prompt_hash": self.renderer.prompt_hash,
            "temperature": config.temperature,
            "top_p": config.top_p,
            "seed": config.seed,
            "max_tokens": config.max_tokens,
        }
        digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:12]
        self._info = JudgeInfo(
            name=self.name,
            model=config.model,
            prompt_version=self.renderer.prompt_version,
            config_hash=digest,
        )

    @property
    def info(self) -> JudgeInfo:
        return self._info

    async def aclose(self) -> None:
        """Close the HTTP client's connections (call before the event loop ends)."""
        close = getattr(self._client, "close", None)
        if close is not None:
            await close()

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        prompt = self.renderer.render(request)
        seed = None if self.config.seed is None else self.config.seed + request.repeat
        started = time.perf_counter()
        attempts = _Attempts()
        try:
            content, refusal = await self._complete(prompt, seed, attempts)
            if refusal:
                raise JudgeError("refusal", f"the model refused: {refusal[:200]}")
            verdict = parse_verdict(content or "", prompt.statuses)
        except JudgeError as exc:
            exc.call = self._call(prompt, seed, attempts, started)
            raise
        call = self._call(prompt, seed, attempts, started).model_copy(
            update={"rationales": {d: getattr(verdict, d).rationale for d in DIMENSIONS}}
        )
        scores = Scores(**{d: getattr(verdict, d).score for d in DIMENSIONS})
        claims = tuple(_claim(c, request, binary=len(prompt.statuses) == 2) for c in verdict.claims)
        rationale = "\n".join(f"{d}: {getattr(verdict, d).rationale}" for d in DIMENSIONS)
        return JudgeResult(scores=scores, claims=claims, steps=(), rationale=rationale, call=call)

    async def check_support(self, claim: str, passage: str) -> tuple[SupportOut, LLMCall]:
        """Does this passage support this claim? ``JudgeError`` when no valid answer."""
        prompt = self.renderer.render_support(claim, passage)
        started = time.perf_counter()
        attempts = _Attempts()
        try:
            content, refusal = await self._complete(prompt, self.config.seed, attempts)
            if refusal:
                raise JudgeError("refusal", f"the model refused: {refusal[:200]}")
            data = extract_json(content or "")
            try:
                out = SupportOut.model_validate(data)
            except ValidationError as exc:
                e = exc.errors()[0]
                raise JudgeError(
                    "schema",
                    f"support check output violates its schema: "
                    f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}",
                ) from exc
        except JudgeError as exc:
            exc.call = self._call(prompt, self.config.seed, attempts, started)
            raise
        return out, self._call(prompt, self.config.seed, attempts, started)

    def _call(
        self, prompt: RenderedPrompt, seed: int | None, attempts: _Attempts, started: float
    ) -> LLMCall:
        u = attempts.usage
        cost = (
            u.input_tokens * self.config.price_input_per_1k
            + u.output_tokens * self.config.price_output_per_1k
        ) / 1000.0
        return LLMCall(
            model=self.config.model,
            base_url_host=self._host,
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

    def _kwargs(self, prompt: RenderedPrompt, seed: int | None) -> dict[str, Any]:
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
            if prompt.task == "citation_support":
                name, schema = "cargo_citation_support", support_schema()
            else:
                name, schema = "cargo_verdict", verdict_schema(prompt.statuses)
            kw["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": name, "strict": True, "schema": schema},
            }
        return kw

    async def _complete(
        self, prompt: RenderedPrompt, seed: int | None, attempts: _Attempts
    ) -> tuple[str | None, str | None]:
        import openai

        retries = 0
        while True:
            attempts.count += 1
            try:
                async with self._sem:
                    resp = await self._client.chat.completions.create(**self._kwargs(prompt, seed))
            except openai.APITimeoutError as exc:
                raise JudgeError(
                    "timeout",
                    f"no answer within {self.config.request_timeout_s}s (attempt {attempts.count})",
                ) from exc
            except openai.APIConnectionError as exc:
                kind, wait = "connection", None
                reason = f"cannot reach {self._host}: {_short(exc)}"
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


def _claim(c: ClaimOut, request: JudgeRequest, *, binary: bool) -> ClaimVerdict:
    observed = request.trace.observed()
    fld = c.context_field if c.context_field in observed else None
    # The binary ablation has no neutral class: "unsupported" counts as contradicted.
    # Other statuses were validated against the condition by parse_verdict.
    status = cast(ClaimStatus, "contradicted" if c.status == "unsupported" else c.status)
    text = c.claim.strip()[:500]
    pos = request.trace.answer.lower().find(text.lower()) if text else -1
    return ClaimVerdict(
        field=fld,
        value=text,
        type="text",
        status=status,
        sentence=text,
        span=(pos, pos + len(text)) if pos >= 0 else None,
        evidence=ClaimEvidence(
            source="context" if fld else "none",
            context_field=fld,
            context_value=observed.get(fld) if fld else None,
            cue="llm-binary" if binary else "llm",
        ),
    )
