"""The evaluator: trace -> validate -> diagnostics -> retrieve -> gate -> judge -> judgment.

One async entry point for a single trace and a batch API that embeds the
questions of a batch together. Every input yields exactly one judgment:
``invalid`` (with the field and reason), ``abstained`` (with the gate's reason),
``judge_error`` (with the error kind and reason; never a score) or ``evaluated``.

Whatever one trace makes the code do, the others of its batch are unaffected: an
exception while embedding a batch is retried trace by trace, and an unexpected
exception in any stage of one trace (gate, diagnostics, citations, judge) becomes that
trace's ``judge_error`` of kind ``internal``, its reason naming the stage and the
exception type (``citations failed: KeyError: 'x'``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from monitor.aio import LoopSemaphore
from monitor.citations import CitationChecker
from monitor.diagnostics import GuardConfig, compute_diagnostics
from monitor.errors import InvalidTraceError, JudgeError
from monitor.gate import Gate
from monitor.judges.base import Judge, JudgeRequest, JudgeResult, is_penalized
from monitor.judges.structural import evidence_of
from monitor.limits import InputLimits
from monitor.retrieval import GoldenIndex, Retrieval
from monitor.schemas import (
    CitationReport,
    Diagnostics,
    GateDecision,
    GoldenItem,
    JudgeErrorInfo,
    Judgment,
    SourceLocation,
    Trace,
)
from monitor.traces import DEFAULT_LIMITS, RawTrace, parse_raw, trace_id_hint

DEFAULT_JUDGE_TIMEOUT_S = 300.0


@dataclass
class _Prepared:
    """A batch after parsing and retrieval, before the gate and the judge."""

    results: list[Judgment | None]
    valid: list[tuple[int, Trace, SourceLocation | None]] = field(default_factory=list)
    retrievals: list[Retrieval | None] = field(default_factory=list)
    # With the answer check: the golden item whose reference answer is nearest each
    # valid trace's answer, and the cosine (None where the answer could not be read).
    by_answer: list[tuple[GoldenItem, float] | None] = field(default_factory=list)


# How long a prepared batch waits for the next one before it is judged alone (the next
# is then embedded while this one is judged; a quiet source costs this much latency).
_NEXT_BATCH_GRACE_S = 0.05


async def _next(it: AsyncIterator[Sequence[RawTrace | Trace]]) -> Sequence[RawTrace | Trace]:
    return await anext(it)


def abstention_text(d: GateDecision) -> str:
    """Why the gate did not let a trace be evaluated, with its figures."""

    def f(x: float | None) -> str:
        # (Four decimals: 0.7995 against 0.80 must not read "0.80 is below 0.80".)
        return "-" if x is None else f"{x:.4f}"

    why = {
        "low_similarity": f"the nearest reference's similarity {f(d.similarity)} is "
        f"below tau {f(d.threshold)}",
        "low_margin": f"the top-2 margin {f(d.margin)} is below delta {f(d.min_margin)}",
        "low_probability": f"the calibrated probability {f(d.probability)} that the "
        f"nearest reference fits is below gamma {f(d.threshold)}",
        "empty_golden_set": "the golden set has no items",
        "answer_mismatch": "the answer is nearer another reference's answer than the "
        "retrieved reference's",
    }.get(d.reason, d.reason)
    return f"not evaluated: {why}"


class Evaluator:
    def __init__(
        self,
        index: GoldenIndex,
        gate: Gate,
        judge: Judge,
        *,
        guards: GuardConfig | None = None,
        judge_timeout_s: float = DEFAULT_JUDGE_TIMEOUT_S,
        max_concurrency: int = 8,
        citations: CitationChecker | None = None,
        limits: InputLimits = DEFAULT_LIMITS,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        answer_check: bool = False,
    ) -> None:
        self.index = index
        # Abstain where the live answer is nearer another golden item's reference
        # answer than the retrieved item's: the question matched one procedure, the
        # answer speaks of another (a reworded question retrieved the wrong item).
        self.answer_check = answer_check
        self.gate = gate
        self.judge = judge
        self.guards = guards or GuardConfig()
        self.judge_timeout_s = judge_timeout_s
        self._sem = LoopSemaphore(max_concurrency)
        self._clock = clock
        self.limits = limits
        # The citation contract runs on every valid trace that carries one, whatever
        # the gate decides: reference integrity does not depend on a golden reference.
        self.citations = citations if citations is not None else CitationChecker()

    async def evaluate(self, item: RawTrace | Trace) -> Judgment:
        """Evaluate one trace (a convenience over :meth:`evaluate_batch`)."""
        return (await self.evaluate_batch([item]))[0]

    async def evaluate_batch(self, items: Sequence[RawTrace | Trace]) -> list[Judgment]:
        """Evaluate a batch; the result is in input order, one judgment per item."""
        return await self._finish(await self._prepare(items))

    async def evaluate_stream(
        self, batches: AsyncIterator[Sequence[RawTrace | Trace]]
    ) -> AsyncIterator[list[Judgment]]:
        """Evaluate batches in order, embedding batch k+1 while batch k is judged.

        The embedding runs in a worker thread (the model releases the GIL), so the
        judges' Python work overlaps it instead of adding to it. Results come out
        in input order, one list per input batch.
        """
        # A prepared batch is judged as soon as it is ready when the next one has not
        # come within a short grace: a quiet source (``run --follow``, a pipe) never
        # holds the last traces back until more arrive, and a busy one keeps its
        # overlap.
        it = aiter(batches)
        pending: asyncio.Task[_Prepared] | None = None
        task: asyncio.Task[_Prepared] | None = None
        coming: asyncio.Task[Sequence[RawTrace | Trace]] = asyncio.create_task(_next(it))
        try:
            while True:
                if pending is not None and not coming.done():
                    await asyncio.wait({coming, pending}, return_when=asyncio.FIRST_COMPLETED)
                    if not coming.done():
                        await asyncio.wait({coming}, timeout=_NEXT_BATCH_GRACE_S)
                    if not coming.done():
                        prepared, pending = pending.result(), None
                        yield await self._finish(prepared)
                        continue
                try:
                    batch = await coming
                except StopAsyncIteration:
                    break
                task = asyncio.create_task(self._prepare(batch))
                if pending is not None:
                    prepared = await pending
                    pending = None
                    yield await self._finish(prepared)
                pending, task = task, None
                coming = asyncio.create_task(_next(it))
            if pending is not None:
                prepared, pending = await pending, None
                yield await self._finish(prepared)
        finally:
            # Nothing left running or unobserved when the consumer stops early or a
            # batch fails: cancel what runs, collect what ended.
            left = [t for t in (coming, pending, task) if t is not None]
            for t in left:
                t.cancel()
            await asyncio.gather(*left, return_exceptions=True)
            close = getattr(it, "aclose", None)
            if close is not None:
                await close()  # the source's own cleanup, now rather than at exit

    async def _prepare(self, items: Sequence[RawTrace | Trace]) -> _Prepared:
        """Parse and embed: everything before the gate."""
        prep = _Prepared(results=[None] * len(items))
        for k, item in enumerate(items):
            raw = item if isinstance(item, RawTrace) else RawTrace(item)
            try:
                prep.valid.append((k, parse_raw(raw, self.limits), raw.location))
            except InvalidTraceError as exc:  # parse_raw raises nothing else
                prep.results[k] = self._invalid(raw, exc)
        if prep.valid:
            try:
                prep.retrievals = await self._retrieve([t for _, t, _ in prep.valid])
            except Exception:
                # One question may be what broke the batch: retry trace by trace, so
                # that it cannot take its neighbours down with it.
                await self._retrieve_one_by_one(prep)
        if self.answer_check and prep.valid:
            prep.by_answer = await self._nearest_by_answer([t for _, t, _ in prep.valid])
        return prep

    async def _nearest_by_answer(
        self, traces: Sequence[Trace]
    ) -> list[tuple[GoldenItem, float] | None]:
        """The answer check's reading of a batch; trace by trace where the batch
        fails, a trace whose answer cannot be read getting None (its judge_error)."""
        answers = [t.answer for t in traces]
        try:
            return list(await asyncio.to_thread(self.index.nearest_by_answer, answers))
        except Exception:
            out: list[tuple[GoldenItem, float] | None] = []
            for a in answers:
                try:
                    (one,) = await asyncio.to_thread(self.index.nearest_by_answer, [a])
                except Exception:
                    one = None
                out.append(one)
            return out

    async def _retrieve(self, traces: Sequence[Trace]) -> list[Retrieval | None]:
        # Concurrent batches (pipelined callers) may embed at the same time: the
        # embedder bounds its own parallelism (a fixed pool of model threads), and
        # a chunk of the next batch can use a core the current one left idle.
        vectors, asked = await asyncio.to_thread(
            self.index.embed_queries, [t.question for t in traces]
        )
        return list(self.index.retrieve(vectors, asked))

    async def _retrieve_one_by_one(self, prep: _Prepared) -> None:
        valid, prep.valid, prep.retrievals = prep.valid, [], []
        for k, trace, loc in valid:
            try:
                (retrieval,) = await self._retrieve([trace])
            except Exception as exc:
                # The gate cannot run without an embedding: an error, never a score.
                prep.results[k] = self._error(trace, loc, None, _internal("embedding", exc), None)
                continue
            prep.valid.append((k, trace, loc))
            prep.retrievals.append(retrieval)

    async def _finish(self, prep: _Prepared) -> list[Judgment]:
        """Gate and judge the prepared traces."""
        nearest = prep.by_answer or [None] * len(prep.valid)
        jobs = [
            self._evaluate_one(t, loc, r, a)
            for (_, t, loc), r, a in zip(prep.valid, prep.retrievals, nearest, strict=True)
        ]
        for (k, _, _), judgment in zip(prep.valid, await asyncio.gather(*jobs), strict=True):
            prep.results[k] = judgment
        return [r for r in prep.results if r is not None]

    async def _evaluate_one(
        self,
        trace: Trace,
        loc: SourceLocation | None,
        retrieval: Retrieval | None,
        by_answer: tuple[GoldenItem, float] | None = None,
    ) -> Judgment:
        """One trace's judgment; never raises (a failure is this trace's judge_error)."""
        decision: GateDecision | None = None
        diagnostics: Diagnostics | None = None
        cites: CitationReport | None = None
        stage = "gate"
        try:
            decision = self.gate.decide(retrieval)
            note = None
            if self.answer_check and decision.accepted and retrieval is not None:
                stage = "answer check"
                if by_answer is None:
                    raise RuntimeError("the answer could not be embedded")
                nearest, cosine = by_answer
                if nearest.id != retrieval.item.id:
                    decision = decision.model_copy(
                        update={"status": "abstained", "reason": "answer_mismatch"}
                    )
                    note = (
                        f"not evaluated: the answer is nearest the answer of reference "
                        f"{nearest.id} (cosine {cosine:.4f}), not of the retrieved "
                        f"{retrieval.item.id}"
                    )
            stage = "diagnostics"
            diagnostics = compute_diagnostics(trace, decision, self.guards)
            stage = "citations"
            if trace.citations is not None:
                cites = await self.citations.check_async(trace)
            stage = "judgment"
            return await self._judge_one(trace, loc, retrieval, decision, diagnostics, cites, note)
        except Exception as exc:
            return self._error(
                trace, loc, decision, _internal(stage, exc), diagnostics, None, cites
            )

    async def _judge_one(
        self,
        trace: Trace,
        loc: SourceLocation | None,
        retrieval: Retrieval | None,
        decision: GateDecision,
        diagnostics: Diagnostics,
        cites: CitationReport | None,
        note: str | None = None,
    ) -> Judgment:
        if not decision.accepted or retrieval is None:
            return Judgment(
                trace_id=trace.trace_id,
                status="abstained",
                reason=decision.reason,
                rationale=note or abstention_text(decision),
                gate=decision,
                judge=self.judge.info,
                diagnostics=diagnostics,
                citations=cites,
                source=loc,
                evaluated_at=self._clock(),
            )
        request = JudgeRequest(trace=trace, reference=retrieval.item, gate=decision)
        started = time.perf_counter()
        elapsed = 0.0

        async def timed() -> JudgeResult:
            # Timed inside the task, so that time spent queued behind other
            # judge calls of the batch is not charged to this one.
            nonlocal started, elapsed
            started = time.perf_counter()
            out = await self.judge.judge(request)
            elapsed = time.perf_counter() - started
            return out

        try:
            async with self._sem:
                result = await asyncio.wait_for(timed(), timeout=self.judge_timeout_s)
        except TimeoutError:
            err = JudgeError("timeout", f"judge did not answer within {self.judge_timeout_s}s")
            return self._error(trace, loc, decision, err, diagnostics, started, cites)
        except JudgeError as exc:
            return self._error(trace, loc, decision, exc, diagnostics, started, cites)
        except Exception as exc:  # a judge bug must not stop the stream
            err = _internal("judge", exc)
            return self._error(trace, loc, decision, err, diagnostics, started, cites)
        penalized = is_penalized(result.scores)
        return Judgment(
            trace_id=trace.trace_id,
            status="evaluated",
            reason="accepted",
            penalized=penalized,
            penalty_evidence=(
                evidence_of(self.judge.info.name, result.claims, result.steps, result.call)
                if penalized
                else None
            ),
            scores=result.scores,
            claims=result.claims,
            steps=result.steps,
            gate=decision,
            judge=self.judge.info,
            diagnostics=diagnostics,
            rationale=result.rationale,
            source=loc,
            llm=result.call,
            citations=cites,
            evaluated_at=self._clock(),
            duration_ms=round(elapsed * 1000, 3),
        )

    def _error(
        self,
        trace: Trace,
        loc: SourceLocation | None,
        decision: GateDecision | None,
        exc: JudgeError,
        diagnostics: Diagnostics | None,
        started: float | None = None,
        citations: CitationReport | None = None,
    ) -> Judgment:
        return Judgment(
            trace_id=trace.trace_id,
            status="judge_error",
            reason=exc.kind,
            error=JudgeErrorInfo(kind=exc.kind, reason=exc.reason),
            gate=decision,
            judge=self.judge.info,
            diagnostics=diagnostics,
            source=loc,
            llm=exc.call,
            citations=citations,
            evaluated_at=self._clock(),
            duration_ms=None
            if started is None
            else round((time.perf_counter() - started) * 1000, 3),
        )

    def _invalid(self, raw: RawTrace, exc: InvalidTraceError) -> Judgment:
        return Judgment(
            trace_id=trace_id_hint(raw.payload),
            status="invalid",
            reason=exc.reason,
            invalid_field=exc.field,
            rationale=str(exc),
            source=raw.location,
            evaluated_at=self._clock(),
        )


def _internal(stage: str, exc: BaseException) -> JudgeError:
    """An unexpected exception in one stage of one trace, as that trace's error."""
    if isinstance(exc, JudgeError):
        return exc
    return JudgeError("internal", f"{stage} failed: {type(exc).__name__}: {exc}"[:1000])
