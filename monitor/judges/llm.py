"""The LLM Cargo judge over any OpenAI-compatible chat-completions endpoint.

What it guarantees:

* **Prompts are data** (:mod:`monitor.judges.prompts`): the condition, its version and
  the hash of the rendered system prompt are recorded on every judgment.
* **Strict output contract**: the reply must match :class:`VerdictOut` (a JSON schema
  generated from the pydantic model), sent as ``response_format`` by the client
  (:mod:`monitor.llm`, which falls back to lenient parsing where the endpoint rejects
  it). Anything that is not a valid verdict raises :class:`JudgeError` with a bounded
  ``kind`` -- it never becomes a score.
* Retries, backoff, the concurrency bound and token/cost accounting are the
  client's (:class:`monitor.llm.LLMClient`); its call record goes on the judgment.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from monitor.errors import JudgeError
from monitor.judges.base import JudgeRequest, JudgeResult
from monitor.judges.prompts import PromptLibrary, PromptRenderer
from monitor.llm import LLMClient, LLMConfig, OutputSchema, extract_json, strict_schema
from monitor.schemas import (
    DIMENSIONS,
    ClaimEvidence,
    ClaimStatus,
    ClaimVerdict,
    JudgeInfo,
    Scores,
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


@lru_cache(maxsize=8)
def _schema_text(statuses: tuple[str, ...]) -> str:
    schema = strict_schema(VerdictOut)
    schema["$defs"]["ClaimOut"]["properties"]["status"] = {"type": "string", "enum": list(statuses)}
    return json.dumps(schema, sort_keys=True)


def verdict_schema(statuses: tuple[str, ...]) -> dict[str, Any]:
    """The JSON schema sent as ``response_format`` (strict: closed objects, all keys)."""
    out: dict[str, Any] = json.loads(_schema_text(statuses))
    return out


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


class LLMJudge:
    """Judges one accepted interaction with one chat-completions call (plus retries)."""

    name = "llm"

    def __init__(
        self,
        config: LLMConfig,
        *,
        library: PromptLibrary | None = None,
        client: Any | None = None,
    ) -> None:
        self.config = config
        self.renderer = PromptRenderer(config.condition, config.rubric, library)
        self.llm = LLMClient(config, client=client)
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
        await self.llm.aclose()

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        prompt = self.renderer.render(request)
        seed = None if self.config.seed is None else self.config.seed + request.repeat
        schema = OutputSchema("cargo_verdict", verdict_schema(prompt.statuses))
        verdict, call = await self.llm.ask(
            prompt, seed, schema, lambda text: parse_verdict(text, prompt.statuses)
        )
        call = call.model_copy(
            update={"rationales": {d: getattr(verdict, d).rationale for d in DIMENSIONS}}
        )
        scores = Scores(**{d: getattr(verdict, d).score for d in DIMENSIONS})
        claims = tuple(_claim(c, request, binary=len(prompt.statuses) == 2) for c in verdict.claims)
        rationale = "\n".join(f"{d}: {getattr(verdict, d).rationale}" for d in DIMENSIONS)
        return JudgeResult(scores=scores, claims=claims, steps=(), rationale=rationale, call=call)


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
