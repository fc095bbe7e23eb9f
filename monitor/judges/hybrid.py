"""Two-tier judging for cost control: structural on every trace, the LLM where needed.

The structural judge (deterministic, free) runs on every accepted trace. The LLM
judge runs on

* the traces whose structural verdict is **uncertain** (``escalate="uncertain"``):
  at least one claim or step verdict carries ``uncertain`` -- a contradiction found
  through a weak attribution cue, a modal or antonym flip without a negation word,
  an alteration that is a declared term's rewording or a noun swap, a step covered
  or missing by a borderline score, or missing where a sentence another step took
  had fitted it or by the term-presence rule alone (:mod:`monitor.steps`,
  :mod:`monitor.judges.structural`); and
* a deterministic blind sample chosen by a hash of the trace id, so that a
  replayed or redelivered trace gets the same decision on every worker, and the
  sample rate can differ per intent (an audit of the settled verdicts, or the only
  route with ``escalate="off"``).

Combination rule (documented in docs/judges.md), per dimension:

* ``correctness``, ``completeness``, ``hallucination_fidelity``: the **lower** of the
  two tiers' scores (a tier that did not assess a dimension does not vote). The
  structural tier votes with its *settled* verdicts only: its uncertain verdicts
  are the LLM's to decide. A settled fault (an observed fact contradicted by a
  label or template cue, a negation, a changed quantity) stands whatever the LLM
  says; a fault found by the LLM stands whatever the structural tier says.
* ``helpfulness``: the LLM's (the structural judge does not assess it).
* claims and steps: the structural tier's (exact spans, context evidence, the
  ``uncertain`` marks); the LLM's own claim list is kept on the judgment's ``llm``
  record.

When the LLM tier fails (timeout, unparseable output, ...), the trace keeps its
whole structural verdict, uncertain verdicts included -- it is not lost and gets
no invented LLM score -- and the failure is recorded on ``llm.error`` and counted
in ``cargo_judge_errors_total``. Traces the LLM does not see are recorded with
``llm.sampled = false``; traces it sees because they were uncertain and outside
the blind sample with ``llm.escalated = true``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Literal

from monitor.errors import ConfigError, JudgeError
from monitor.judges.base import Judge, JudgeRequest, JudgeResult
from monitor.judges.llm import LLMJudge
from monitor.judges.structural import settled_score, uncertain_kinds
from monitor.schemas import DIMENSIONS, JudgeErrorInfo, JudgeInfo, LLMCall, Scores


class TraceSampler:
    """Deterministic hash-of-trace-id sampling, optionally per intent."""

    def __init__(self, rate: float = 1.0, per_intent: Mapping[str, float] | None = None) -> None:
        rates = {"(default)": rate, **(per_intent or {})}
        for name, r in rates.items():
            if not 0.0 <= r <= 1.0:
                raise ConfigError(f"sample rate for {name} must be in [0, 1], got {r}")
        self.rate = rate
        self.per_intent = dict(per_intent or {})

    def rate_for(self, intent: str | None) -> float:
        return self.per_intent.get(intent or "", self.rate)

    @staticmethod
    def position(trace_id: str) -> float:
        """Where the trace id falls in [0, 1): uniform over ids, stable across processes."""
        digest = hashlib.sha256(trace_id.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") / 2.0**64

    def sampled(self, trace_id: str, intent: str | None) -> bool:
        return self.position(trace_id) < self.rate_for(intent)


def combine(structural: Scores, llm: Scores) -> Scores:
    out: dict[str, float | None] = {}
    for dim in DIMENSIONS:
        if dim == "helpfulness":
            out[dim] = llm.helpfulness
            continue
        votes = [v for v in (getattr(structural, dim), getattr(llm, dim)) if v is not None]
        out[dim] = min(votes) if votes else None
    return Scores(**out)


Escalate = Literal["off", "uncertain"]
ESCALATE_MODES: tuple[Escalate, ...] = ("off", "uncertain")


class HybridJudge:
    name = "hybrid"

    def __init__(
        self,
        structural: Judge,
        llm: LLMJudge,
        sampler: TraceSampler,
        escalate: Escalate = "off",
    ) -> None:
        if escalate not in ESCALATE_MODES:
            raise ConfigError(f"escalate must be one of {ESCALATE_MODES}, got {escalate!r}")
        self.structural = structural
        self.llm = llm
        self.sampler = sampler
        self.escalate = escalate
        s, m = structural.info, llm.info
        self._info = JudgeInfo(
            name=self.name,
            model=m.model,
            prompt_version=f"{s.prompt_version}+{m.prompt_version}",
            config_hash=hashlib.sha256(
                f"{s.config_hash}:{m.config_hash}:{sampler.rate}:"
                f"{sorted(sampler.per_intent.items())}"
                f"{':escalate=' + escalate if escalate != 'off' else ''}".encode()
            ).hexdigest()[:12],
        )

    @property
    def info(self) -> JudgeInfo:
        return self._info

    async def aclose(self) -> None:
        await self.llm.aclose()

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        s = await self.structural.judge(request)
        rate = self.sampler.rate_for(request.gate.intent)
        sampled = self.sampler.sampled(request.trace.trace_id, request.gate.intent)
        escalated = (
            not sampled
            and self.escalate == "uncertain"
            and bool(uncertain_kinds(s.claims, s.steps))
        )
        if not sampled and not escalated:
            return JudgeResult(
                scores=s.scores,
                claims=s.claims,
                steps=s.steps,
                rationale=s.rationale,
                call=LLMCall(sampled=False, sample_rate=rate),
            )
        try:
            m = await self.llm.judge(request)
        except JudgeError as exc:
            call = (exc.call or LLMCall()).model_copy(
                update={
                    "sample_rate": rate,
                    "escalated": escalated,
                    "error": JudgeErrorInfo(kind=exc.kind, reason=exc.reason),
                }
            )
            return JudgeResult(
                scores=s.scores,
                claims=s.claims,
                steps=s.steps,
                rationale=f"{s.rationale}\n[LLM tier failed ({exc.kind}); structural verdict only]",
                call=call,
            )
        call = (m.call or LLMCall()).model_copy(
            update={"sample_rate": rate, "claims": m.claims, "escalated": escalated}
        )
        kinds = uncertain_kinds(s.claims, s.steps)
        # The structural tier votes with its settled verdicts; the uncertain ones
        # are the LLM's to decide.
        mine = settled_score(s.claims, s.steps) if kinds else s.scores
        note = (
            f"\n[uncertain structural verdicts left to the LLM tier: {', '.join(kinds)}]"
            if kinds
            else ""
        )
        return JudgeResult(
            scores=combine(mine, m.scores),
            claims=s.claims,
            steps=s.steps,
            rationale=f"{s.rationale}{note}\n{m.rationale}",
            call=call,
        )
