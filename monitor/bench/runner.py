"""Cargo-Bench runner and report: penalty rates, TP/FP, DI with bootstrap CIs.

* P1–P4 and P6 are judged with their own seed's golden item as the reference
  (the gate is bypassed: the bench measures the judge).
* P1 and P5 go through every gate kind as *pairs* (question, this seed's
  reference): s* is the cosine between the question and that reference, and
  Δ = s* − the best cosine to any other golden item (negative when another item
  is closer). P1 should be accepted, P5 rejected (paper §4: "gate abstains or
  assigns low P̂").
* Penalised = correctness < 0.5 or hallucination fidelity < 0.5 on the mean over
  the successful repeats (the paper's rule). An item whose every repeat failed
  is a judge error: counted apart, excluded from the rates, never read as
  penalised or not.
* TP = penalty rate pooled over P2+P4, FP = pooled over P1+P3+P6, DI = TP − FP.
  A family of those five with no judged item (not built from these seeds, or
  every item a judge error) is named in ``di_missing``: the DI is over the rest.
  P2p/P4p (the corruptions made on paraphrases) are reported beside them, with
  their own TP and DI against the same FP; they do not enter the DI.
* Per family, the claim and step verdicts by status (how many ``unverifiable``).
* P1q (the P1 transplant asked the way users ask) goes through the gates beside
  P1; it is never used to fit a calibrated gate.
  95% CI: item-level bootstrap (10,000 resamples, positives and negatives
  resampled separately); two judges get a paired bootstrap on the same items.
"""

from __future__ import annotations

import asyncio
import re
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from monitor.bench.generate import P3_SPLITS, P4_TYPES, BenchInstance
from monitor.bench.report import (
    CalibratedGateRates,
    Escalation,
    GateRates,
    GateReport,
    JudgeSummary,
    OnPassedBase,
    PairedDelta,
    ParaphraseDI,
    Rate,
    UnfittedGate,
    Usage,
    VerdictCounts,
    WorstItem,
)
from monitor.errors import JudgeError
from monitor.gate import (
    CalibratedGate,
    CalibrationRow,
    FixedGate,
    Gate,
    MarginGate,
    fit_gate_model,
)
from monitor.judges.base import PENALTY_LINE, Judge, JudgeRequest, JudgeResult, is_penalized
from monitor.judges.structural import (
    UNCERTAIN_KINDS,
    penalises,
    penalty_evidence_of,
    settled_score,
    uncertain_kinds,
)
from monitor.retrieval import GoldenIndex, Retrieval
from monitor.schemas import (
    ClaimVerdict,
    GateDecision,
    GoldenItem,
    GoldenSet,
    JudgeInfo,
    LLMCall,
    Scores,
    StepVerdict,
    Trace,
)

JUDGED_FAMILIES = ("P1", "P2", "P3", "P4", "P6", "P2p", "P4p")
POSITIVE = ("P2", "P4")
NEGATIVE = ("P1", "P3", "P6")
DI_FAMILIES = POSITIVE + NEGATIVE
PARAPHRASE_POSITIVE = ("P2p", "P4p")
GATE_FAMILIES = ("P1", "P5", "P1q")
BOOTSTRAP_RESAMPLES = 10_000


class AlwaysPenalize:
    """Sanity judge: penalises everything (DI must be exactly 0)."""

    @property
    def info(self) -> JudgeInfo:
        return JudgeInfo(name="always-penalize", prompt_version="sanity-1")

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        return JudgeResult(
            Scores(correctness=0.0, hallucination_fidelity=0.0),
            (),
            (),
            "sanity judge: penalise everything",
        )


class NeverPenalize:
    """Sanity judge: penalises nothing (DI must be exactly 0)."""

    @property
    def info(self) -> JudgeInfo:
        return JudgeInfo(name="never-penalize", prompt_version="sanity-1")

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        return JudgeResult(
            Scores(correctness=1.0, hallucination_fidelity=1.0),
            (),
            (),
            "sanity judge: penalise nothing",
        )


SANITY_JUDGES: dict[str, Callable[[], Judge]] = {
    "always-penalize": AlwaysPenalize,
    "never-penalize": NeverPenalize,
}


@dataclass(frozen=True, slots=True)
class ItemOutcome:
    instance: BenchInstance
    penalized: bool | None  # None = every repeat failed
    correctness: float | None
    fidelity: float | None
    errors: int
    error_kinds: tuple[str, ...]
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    # Every successful repeat's result: the verdicts and their evidence.
    results: tuple[JudgeResult, ...] = ()


def _mean(values: list[float | None]) -> float | None:
    xs = [v for v in values if v is not None]
    return statistics.fmean(xs) if xs else None


def accepted_gate(ref: GoldenItem) -> GateDecision:
    """The gate's decision that lets a trace be judged against ``ref``: a bench item
    is judged against its own reference, as if the fixed gate had accepted it."""
    return GateDecision(
        kind="fixed",
        status="accepted",
        reason="accepted",
        reference_id=ref.id,
        intent=ref.intent,
        expected_agent=ref.agent,
    )


async def judge_items(
    judge: Judge,
    instances: Sequence[BenchInstance],
    golden: GoldenSet,
    *,
    repeats: int = 1,
    concurrency: int = 8,
    timeout_s: float = 120.0,
) -> list[ItemOutcome]:
    refs = {i.id: i for i in golden.items}
    sem = asyncio.Semaphore(concurrency)

    async def one(inst: BenchInstance) -> ItemOutcome:
        ref = refs[inst.reference_id]
        trace = Trace(
            trace_id=inst.id,
            question=inst.question,
            answer=inst.answer,
            context=dict(inst.context),
            agent=ref.agent,
        )
        gate = accepted_gate(ref)
        results: list[Scores] = []
        full: list[JudgeResult] = []
        kinds: list[str] = []
        calls: list[LLMCall] = []
        for k in range(repeats):
            # ``repeat`` lets an LLM judge use seed, seed+1, ... (the paper's seeds 0,1,2).
            request = JudgeRequest(trace=trace, reference=ref, gate=gate, repeat=k)
            try:
                async with sem:
                    r = await asyncio.wait_for(judge.judge(request), timeout=timeout_s)
                results.append(r.scores)
                full.append(r)
                if r.call is not None:
                    calls.append(r.call)
            except TimeoutError:
                kinds.append("timeout")
            except JudgeError as exc:
                kinds.append(exc.kind)
                if exc.call is not None:
                    calls.append(exc.call)
        tokens_in = sum(c.usage.input_tokens for c in calls)
        tokens_out = sum(c.usage.output_tokens for c in calls)
        cost = sum(c.cost_usd for c in calls)
        if not results:
            return ItemOutcome(
                inst, None, None, None, len(kinds), tuple(kinds), tokens_in, tokens_out, cost
            )
        # The paper's rule on the per-item mean over repeats.
        corr = _mean([s.correctness for s in results])
        fid = _mean([s.hallucination_fidelity for s in results])
        pen = any(v is not None and v < PENALTY_LINE for v in (corr, fid))
        return ItemOutcome(
            inst, pen, corr, fid, len(kinds), tuple(kinds), tokens_in, tokens_out, cost, tuple(full)
        )

    judged = [i for i in instances if i.family in JUDGED_FAMILIES]
    return list(await asyncio.gather(*(one(i) for i in judged)))


# --------------------------------------------------------------------------- statistics


def _rate(xs: list[bool]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def bootstrap_di(
    pos: np.ndarray, neg: np.ndarray, *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0
) -> tuple[float, float] | None:
    """95% percentile CI of mean(pos) − mean(neg), resampling items within each pool."""
    if len(pos) == 0 or len(neg) == 0:
        return None
    rng = np.random.default_rng(seed)
    tp = pos[rng.integers(0, len(pos), (resamples, len(pos)))].mean(axis=1)
    fp = neg[rng.integers(0, len(neg), (resamples, len(neg)))].mean(axis=1)
    lo, hi = np.percentile(tp - fp, [2.5, 97.5])
    return float(lo), float(hi)


def paired_delta(
    a: Mapping[str, ItemOutcome],
    b: Mapping[str, ItemOutcome],
    *,
    labels: tuple[str, str] = ("a", "b"),
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> PairedDelta:
    """ΔDI = DI(b) − DI(a) on the items both judged, with a paired bootstrap CI;
    ``labels`` name the two judges in the result."""
    common = sorted(
        k for k in a.keys() & b.keys() if a[k].penalized is not None and b[k].penalized is not None
    )
    pos = [k for k in common if a[k].instance.family in POSITIVE]
    neg = [k for k in common if a[k].instance.family in NEGATIVE]
    if not pos or not neg:
        return PairedDelta(a=labels[0], b=labels[1], n=len(common), delta_di=None, ci=None)

    def arr(m: Mapping[str, ItemOutcome], keys: list[str]) -> np.ndarray:
        return np.array([bool(m[k].penalized) for k in keys], dtype=float)

    pa, pb, na, nb = arr(a, pos), arr(b, pos), arr(a, neg), arr(b, neg)
    rng = np.random.default_rng(seed)
    ip = rng.integers(0, len(pos), (resamples, len(pos)))
    ineg = rng.integers(0, len(neg), (resamples, len(neg)))
    d = (pb[ip].mean(1) - nb[ineg].mean(1)) - (pa[ip].mean(1) - na[ineg].mean(1))
    delta = (pb.mean() - nb.mean()) - (pa.mean() - na.mean())
    lo, hi = np.percentile(d, [2.5, 97.5])
    return PairedDelta(
        a=labels[0], b=labels[1], n=len(common), delta_di=float(delta), ci=(float(lo), float(hi))
    )


def _rate_of(xs: list[bool]) -> Rate:
    return Rate(n=len(xs), penalized=sum(xs), rate=_rate(xs))


def summarize(
    outcomes: Sequence[ItemOutcome],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    judge: str | None = None,
) -> JudgeSummary:
    ok = [o for o in outcomes if o.penalized is not None]
    fam: dict[str, Rate] = {}
    present = {o.instance.family for o in outcomes}
    for f in JUDGED_FAMILIES:
        if f in PARAPHRASE_POSITIVE and f not in present:
            continue  # seeds without marked paraphrases: the report stays as it was
        fam[f] = _rate_of([bool(o.penalized) for o in ok if o.instance.family == f])
    pos = np.array([bool(o.penalized) for o in ok if o.instance.family in POSITIVE], float)
    neg = np.array([bool(o.penalized) for o in ok if o.instance.family in NEGATIVE], float)
    tp = float(pos.mean()) if len(pos) else None
    fp = float(neg.mean()) if len(neg) else None
    di = tp - fp if tp is not None and fp is not None else None
    judged = {o.instance.family for o in ok}
    p4 = {
        t: _rate_of(
            [bool(o.penalized) for o in ok if o.instance.family == "P4" and o.instance.subtype == t]
        )
        for t in P4_TYPES
    }
    p3 = {
        s: _rate_of(
            [bool(o.penalized) for o in ok if o.instance.family == "P3" and o.instance.subtype == s]
        )
        for s in P3_SPLITS
    }
    p4p = (
        {
            t: _rate_of(
                [
                    bool(o.penalized)
                    for o in ok
                    if o.instance.family == "P4p" and o.instance.subtype == t
                ]
            )
            for t in P4_TYPES
        }
        if "P4p" in present
        else {}
    )
    para: ParaphraseDI | None = None
    if present & set(PARAPHRASE_POSITIVE):
        ppos = np.array(
            [bool(o.penalized) for o in ok if o.instance.family in PARAPHRASE_POSITIVE], float
        )
        ptp = float(ppos.mean()) if len(ppos) else None
        para = ParaphraseDI(
            tp=ptp,
            di=ptp - fp if ptp is not None and fp is not None else None,
            di_ci=bootstrap_di(ppos, neg, resamples=resamples),
        )
    errors = sum(o.errors for o in outcomes)
    kinds: dict[str, int] = {}
    for o in outcomes:
        for k in o.error_kinds:
            kinds[k] = kinds.get(k, 0) + 1
    return JudgeSummary(
        families=fam,
        tp=tp,
        fp=fp,
        di=di,
        di_ci=bootstrap_di(pos, neg, resamples=resamples),
        di_missing=[f for f in JUDGED_FAMILIES if f in DI_FAMILIES and f not in judged],
        p4_by_type=p4,
        p3_by_split=p3,
        errors=errors,
        error_kinds=kinds,
        items_failed=sum(o.penalized is None for o in outcomes),
        items=len(outcomes),
        usage=Usage(
            input_tokens=sum(o.input_tokens for o in outcomes),
            output_tokens=sum(o.output_tokens for o in outcomes),
            cost_usd=round(sum(o.cost_usd for o in outcomes), 6),
        ),
        verdicts=verdict_counts(outcomes),
        p4p_by_type=p4p,
        paraphrase_bases=para,
        on_passed_base=on_passed_base(outcomes),
        escalation=escalation(outcomes, judge),
        false_penalties=false_penalties(outcomes),
    )


def _base_key(i: BenchInstance) -> tuple[str, int, object]:
    return (i.seed, i.draw, i.detail.get("template"))


def base_verdicts(outcomes: Sequence[ItemOutcome]) -> dict[tuple[str, int, object], bool]:
    """Whether the judge penalised each judged P6 item, by (seed, draw, paraphrase):
    the uncorrupted base of that draw's P2p/P4p items made on the same paraphrase.
    A key two P6 items share (instances merged from two generation runs) is left
    out: which one is the base cannot be told."""
    seen: Counter[tuple[str, int, object]] = Counter(
        _base_key(o.instance) for o in outcomes if o.instance.family == "P6"
    )
    return {
        _base_key(o.instance): bool(o.penalized)
        for o in outcomes
        if o.instance.family == "P6"
        and o.penalized is not None
        and seen[_base_key(o.instance)] == 1
    }


def base_penalized(o: ItemOutcome, bases: Mapping[tuple[str, int, object], bool]) -> bool | None:
    """For a P2p/P4p item, whether its base (see :func:`base_verdicts`) was
    penalised; None for other families and where the base was not judged."""
    if o.instance.family not in PARAPHRASE_POSITIVE:
        return None
    return bases.get(_base_key(o.instance))


def on_passed_base(outcomes: Sequence[ItemOutcome]) -> dict[str, OnPassedBase]:
    """P2p, P4p and each P4p subtype counted only on bases the judge passed (see
    :class:`OnPassedBase`): a corruption "caught" only because its base paraphrase
    was itself falsely flagged does not count as seen."""
    bases = base_verdicts(outcomes)
    groups: dict[str, list[tuple[bool, bool]]] = {}
    for o in outcomes:
        b = base_penalized(o, bases)
        if b is None or o.penalized is None:
            continue
        keys: list[str] = [o.instance.family]
        if o.instance.family == "P4p" and o.instance.subtype:
            keys.append(f"P4p.{o.instance.subtype}")
        for k in keys:
            groups.setdefault(k, []).append((b, bool(o.penalized)))
    order = ["P2p", "P4p", *(f"P4p.{t}" for t in P4_TYPES)]
    return {
        k: OnPassedBase(
            matched=len(groups[k]),
            base_flagged=sum(b for b, _ in groups[k]),
            caught=_rate_of([p for b, p in groups[k] if not b]),
        )
        for k in order
        if k in groups
    }


def _issues_verdicts(outcomes: Sequence[ItemOutcome]) -> bool:
    """Whether the judge issued claim or step verdicts on any item (the structural and
    hybrid judges; not the sanity judges)."""
    return any(r.claims or r.steps for o in outcomes for r in o.results)


def escalation(outcomes: Sequence[ItemOutcome], judge: str | None = None) -> dict[str, Escalation]:
    """Per judged family present, the items a hybrid judge escalating the uncertain
    would send to its LLM tier (issue 19 point 8: that share is the LLM cost), how
    many of the wrongly judged items are among them, how many of those an LLM tier
    right on every item it sees would correct, and the family's penalty rate with
    such a tier (:class:`Escalation`; no blind sample). Empty for judges that issue
    no claim or step verdicts. ``judge``: the judge's name (``JudgeInfo.name``); the
    rate on settled verdicts is left out for a judge that gives no settled evidence
    (:func:`penalty_evidence_of`: the LLM judge, whose penalties are all the LLM's)."""
    if not _issues_verdicts(outcomes):
        return {}
    gives_settled = judge is None or "settled" in penalty_evidence_of(judge)
    out: dict[str, Escalation] = {}
    for f in JUDGED_FAMILIES:
        mine = [o for o in outcomes if o.instance.family == f and o.results]
        if not mine:
            continue
        kinds: Counter[str] = Counter()
        up = wrong = wrong_up = correctable = 0
        right: list[bool] = []
        settled: list[bool] = []
        for o in mine:
            first = o.results[0]
            k = uncertain_kinds(first.claims, first.steps)
            fault = is_penalized(settled_score(first.claims, first.steps))
            if o.penalized is not None:
                settled.append(fault)
            kinds.update(k)
            up += bool(k)
            target = o.instance.target_penalize
            # With an LLM tier right on every item it sees, an escalated item is
            # penalised when it should be, or when a settled verdict penalises it
            # (the hybrid's combination keeps a settled fault); the others keep
            # their verdict.
            now = o.penalized
            if k and target is not None:
                now = target or fault
            if now is not None:
                right.append(bool(now))
            if target is not None and o.penalized != target:
                wrong += 1
                wrong_up += bool(k)
                correctable += now == target
        out[f] = Escalation(
            items=len(mine),
            escalated=up,
            share=up / len(mine),
            wrong=wrong,
            wrong_escalated=wrong_up,
            kinds={k: kinds[k] for k in UNCERTAIN_KINDS if kinds[k]},
            correctable=correctable,
            right_llm=_rate(right),
            settled=_rate(settled) if gives_settled else None,
        )
    return out


def verdict_counts(outcomes: Sequence[ItemOutcome]) -> dict[str, VerdictCounts]:
    """Per judged family present, the claim and step verdicts by status over every
    successful repeat (issue 19 point 6: how often the judge could not tell)."""
    out: dict[str, VerdictCounts] = {}
    for f in JUDGED_FAMILIES:
        mine = [o for o in outcomes if o.instance.family == f]
        if not mine:
            continue
        claims: Counter[str] = Counter()
        steps: Counter[str] = Counter()
        for o in mine:
            for r in o.results:
                claims.update(str(c.status) for c in r.claims)
                steps.update(str(s.status) for s in r.steps)
        out[f] = VerdictCounts(
            items=len(mine),
            claims=dict(sorted(claims.items())),
            steps=dict(sorted(steps.items())),
            claims_unverifiable=claims["unverifiable"],
            steps_unverifiable=steps["unverifiable"],
        )
    return out


# What a cue reads as a rule: its numbers written N, cut before the first thing the
# cue reads off the texts (after a colon, an arrow, a comparison or a semicolon).
_CUE_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)*%?")
_CUE_END = re.compile(r":|;| -> | < | >= | \[| \(<")
_RULE_MAX = 100


def rule_of(kind: str, cue: str | None) -> str:
    """The rule a penalising verdict rests on, as a short label: its kind and the
    opening words of its cue ("negated: polarity flipped (negation)", "altered:
    declared policy term replaced", "missing: only N of the step's key words occur
    in the answer", "missing: best term recall"). The cue's templates are the judge's
    own, so the labels are few; what a cue quotes from the texts is left out."""
    text = _CUE_END.split(_CUE_NUMBER.sub("N", cue or ""), maxsplit=1)[0]
    text = re.sub(r"(?:\s+N)+$", "", " ".join(text.split())).strip()
    return f"{kind}: {text[:_RULE_MAX]}" if text else kind


SEVERAL_RULES = "several rules"
SCORE_ONLY = "no penalising verdict"


def _deciding_result(o: ItemOutcome) -> JudgeResult | None:
    """The repeat whose verdicts say why an item was penalised: the first whose own
    scores penalise, else the first successful one; None without one."""
    r = next((x for x in o.results if is_penalized(x.scores)), None)
    return r if r is not None else (o.results[0] if o.results else None)


def _penalising(r: JudgeResult) -> tuple[list[ClaimVerdict], list[StepVerdict]]:
    """A result's penalising verdicts: its contradicted claims and the steps
    :func:`monitor.judges.structural.penalises` counts."""
    return [c for c in r.claims if c.status == "contradicted"], [s for s in r.steps if penalises(s)]


def _penalising_rules(r: JudgeResult) -> set[str]:
    """The rules of a result's penalising verdicts (:func:`_penalising`)."""
    claims, steps = _penalising(r)
    return {rule_of("claim contradicted", c.evidence.cue) for c in claims} | {
        rule_of(str(v.status), v.cue) for v in steps
    }


def false_penalties(outcomes: Sequence[ItemOutcome]) -> dict[str, dict[str, int]]:
    """Per family whose items should pass (P1, P3, P6), the items penalised all the
    same, by the rule that penalised them (:func:`rule_of`), read in the first repeat
    whose own scores penalise (else the first successful one): one rule alone,
    ``several rules``, or ``no penalising verdict`` (the scores alone). On a new
    domain this says which rule to look at first. For a hybrid judge these are the
    structural verdicts it started from. Empty for judges that issue no claim or step
    verdicts; a family with no false penalty is left out."""
    if not _issues_verdicts(outcomes):
        return {}
    out: dict[str, dict[str, int]] = {}
    for f in JUDGED_FAMILIES:
        rules: Counter[str] = Counter()
        for o in outcomes:
            i = o.instance
            if i.family != f or i.target_penalize is not False or not o.penalized:
                continue
            r = _deciding_result(o)
            found = _penalising_rules(r) if r is not None else set()
            rules[found.pop() if len(found) == 1 else SEVERAL_RULES if found else SCORE_ONLY] += 1
        if rules:
            out[f] = dict(sorted(rules.items(), key=lambda kv: (-kv[1], kv[0])))
    return out


# --------------------------------------------------------------------------- per item


def _deciding_score(o: ItemOutcome) -> float | None:
    """The score the penalty rule decides on: the lower of correctness and fidelity."""
    xs = [v for v in (o.correctness, o.fidelity) if v is not None]
    return min(xs) if xs else None


def _why(o: ItemOutcome) -> str:
    """What the judge's verdict rests on, in one line: the penalising verdicts with
    their cues when it penalised (read, as :func:`false_penalties` reads them, in the
    first repeat whose own scores penalise), else what the instance changed."""
    if o.penalized:
        r = _deciding_result(o)
        claims, steps = _penalising(r) if r is not None else ([], [])
        parts = [
            f"claim {c.field or '?'}={c.value!r} contradicted "
            f"(context {c.evidence.context_value!r}, cue {c.evidence.cue})"
            for c in claims
        ]
        # The steps the judge's score counts against the answer: a required step
        # negated, altered or missing, or another sentence of the exemplar negated or
        # altered (one missing is no penalty); its text says which.
        for s in steps:
            kind = "step" if s.required else "exemplar sentence"
            text = s.step if len(s.step) <= 60 else s.step[:57] + "..."
            parts.append(
                f"{kind} {s.index + 1} {s.status}"
                + (f" ({s.cue})" if s.cue else "")
                + f": {text!r}"
            )
        return "; ".join(parts) or "penalised by score, no penalising verdict"
    d = o.instance.detail
    if "rewrite" in d:
        return f"missed: {d['rewrite']['from']!r} -> {d['rewrite']['to']!r}" + _read_in(
            o, d["rewrite"]["to"]
        )
    if "step" in d:
        return f"missed: deleted step {d['step']!r}"
    if "stated" in d:
        return f"missed: {d['field']} stated {d['stated']!r}, observed {d['true']!r}"
    return "not penalised"


def _read_in(o: ItemOutcome, changed: str) -> str:
    """Where the judge read a missed change, for its ``why``: the verdict of the step
    whose matched sentence holds the changed words (a newcomer had to dig through the
    repeats for it), or that no step's matched sentence did (the aligner matched the
    step to a part of its sentence that stops before them)."""
    if not o.results or not changed.strip():
        return ""
    want = " ".join(changed.split()).casefold()
    for s in o.results[0].steps:
        if s.matched_sentence and want in " ".join(s.matched_sentence.split()).casefold():
            kind = "step" if s.required else "exemplar sentence"
            return f" (read in {kind} {s.index + 1}: {s.status}" + (f", {s.cue})" if s.cue else ")")
    return " (no step's matched sentence holds the changed words)"


def worst_items(outcomes: Sequence[ItemOutcome], *, per_family: int = 3) -> list[WorstItem]:
    """The most confidently wrong items, ``per_family`` at most for each judged family:
    wrong against the target, ordered by how far the deciding score is from 0.5."""
    out: list[WorstItem] = []
    for f in JUDGED_FAMILIES:
        wrong = []
        for o in outcomes:
            target = o.instance.target_penalize
            score = _deciding_score(o)
            if o.instance.family != f or o.penalized is None or target is None:
                continue
            if o.penalized == target or score is None:
                continue
            wrong.append((abs(score - PENALTY_LINE), o))
        wrong.sort(key=lambda t: (-t[0], t[1].instance.id))
        for margin, o in wrong[:per_family]:
            out.append(
                WorstItem(
                    id=o.instance.id,
                    family=f,
                    subtype=o.instance.subtype,
                    target_penalize=bool(o.instance.target_penalize),
                    penalized=bool(o.penalized),
                    correctness=o.correctness,
                    fidelity=o.fidelity,
                    margin=round(margin, 4),
                    why=_why(o),
                )
            )
    return out


def item_row(
    o: ItemOutcome,
    judge: str,
    bases: Mapping[tuple[str, int, object], bool] | None = None,
) -> dict[str, Any]:
    """One ``bench run --items`` JSONL row: the instance, its target, the judge's
    decision and scores, and every repeat's claim and step verdicts with evidence.
    P2p/P4p rows also say ``base_penalized``: whether the judge penalised the same
    paraphrase uncorrupted in the same draw (None: that base was not judged);
    ``bases`` is :func:`base_verdicts` of the judge's outcomes."""
    i = o.instance
    extra: dict[str, Any] = (
        {"base_penalized": base_penalized(o, bases or {})}
        if i.family in PARAPHRASE_POSITIVE
        else {}
    )
    return {
        "judge": judge,
        "id": i.id,
        "seed": i.seed,
        "family": i.family,
        "subtype": i.subtype,
        "draw": i.draw,
        "target_penalize": i.target_penalize,
        "penalized": o.penalized,
        "correct": None if o.penalized is None else o.penalized == i.target_penalize,
        "correctness": o.correctness,
        "fidelity": o.fidelity,
        "errors": o.errors,
        "error_kinds": list(o.error_kinds),
        "question": i.question,
        "answer": i.answer,
        "context": i.context,
        "detail": i.detail,
        "why": _why(o) if o.penalized is not None else None,
        **extra,
        "repeats": [
            {
                "scores": r.scores.model_dump(mode="json"),
                "claims": [c.model_dump(mode="json") for c in r.claims],
                "steps": [s.model_dump(mode="json") for s in r.steps],
                "rationale": r.rationale,
            }
            for r in o.results
        ],
    }


# --------------------------------------------------------------------------- gates


@dataclass(frozen=True, slots=True)
class GateItem:
    instance: BenchInstance
    retrieval: Retrieval | None


def retrieve_gate_items(index: GoldenIndex, instances: Sequence[BenchInstance]) -> list[GateItem]:
    """The (question, seed reference) pair of every P1 and P5 instance as a retrieval."""
    items = [i for i in instances if i.family in GATE_FAMILIES]
    if not items:
        return []
    ids = [g.id for g in index.golden.items]
    vecs, asked = index.embed_queries([i.question for i in items])
    sims = np.clip(index.item_similarities(vecs, asked), -1, 1)
    out = []
    for inst, row in zip(items, sims, strict=True):
        k = ids.index(inst.reference_id)
        others = np.delete(row, k)
        second = float(others.max()) if len(others) else None
        out.append(GateItem(inst, Retrieval(index.golden.items[k], float(row[k]), second)))
    return out


def _accepts_own(gate: Gate, g: GateItem) -> bool:
    return gate.decide(g.retrieval).accepted


def _gate_rates(gate: Gate, items: Sequence[GateItem]) -> GateRates:
    p1 = [_accepts_own(gate, g) for g in items if g.instance.family == "P1"]
    p5 = [not _accepts_own(gate, g) for g in items if g.instance.family == "P5"]
    p1q = [_accepts_own(gate, g) for g in items if g.instance.family == "P1q"]
    return GateRates(
        p1_accept=_rate(p1),
        p5_reject=_rate(p5),
        n_p1=len(p1),
        n_p5=len(p5),
        p1q_accept=_rate(p1q),
        n_p1q=len(p1q),
    )


def calibration_rows(items: Sequence[GateItem]) -> list[CalibrationRow]:
    """A pair is appropriate when the reference is the seed whose question was asked."""
    return [
        CalibrationRow(
            similarity=g.retrieval.similarity,
            margin=g.retrieval.margin,
            intent=g.retrieval.item.intent,
            appropriate=g.retrieval.item.id == g.instance.question_seed,
        )
        for g in items
        if g.retrieval is not None
    ]


def gate_report(
    items: Sequence[GateItem],
    *,
    tau: float,
    delta: float,
    gamma: float,
    calibrated: Gate | None = None,
) -> GateReport:
    """P1 acceptance and P5 rejection per gate kind. Without a calibrated model,
    the calibrated gate is cross-fitted over two folds of seeds (isotonic), so that
    no item is scored by a model fitted on it."""
    fixed = _gate_rates(FixedGate(tau), items)
    margin = _gate_rates(MarginGate(tau, delta), items)
    if calibrated is not None:
        given = _gate_rates(calibrated, items)
        return GateReport(
            fixed=fixed,
            margin=margin,
            calibrated=CalibratedGateRates(**dict(given), model="given"),
        )
    seeds = sorted({g.instance.seed for g in items})
    folds = [set(seeds[0::2]), set(seeds[1::2])]
    p1: list[bool] = []
    p5: list[bool] = []
    p1q: list[bool] = []
    for k in (0, 1):
        # Fitted on the template pairs only (P1/P5), as before P1q existed.
        train = [g for g in items if g.instance.seed in folds[k] and g.instance.family != "P1q"]
        test = [g for g in items if g.instance.seed in folds[1 - k]]
        rows = calibration_rows(train)
        if len({r.appropriate for r in rows}) < 2:
            # Without P5 every pair is appropriate: say what the seeds lack.
            why = (
                "a fold has a single label class"
                if any(g.instance.family == "P5" for g in items)
                else "no P5 pairs (needs seeds of at least two intents)"
            )
            return GateReport(
                fixed=fixed, margin=margin, calibrated=UnfittedGate(model=f"not fitted: {why}")
            )
        gate = CalibratedGate(fit_gate_model(rows, "isotonic", gamma=gamma))
        p1 += [_accepts_own(gate, g) for g in test if g.instance.family == "P1"]
        p5 += [not _accepts_own(gate, g) for g in test if g.instance.family == "P5"]
        p1q += [_accepts_own(gate, g) for g in test if g.instance.family == "P1q"]
    return GateReport(
        fixed=fixed,
        margin=margin,
        calibrated=CalibratedGateRates(
            p1_accept=_rate(p1),
            p5_reject=_rate(p5),
            n_p1=len(p1),
            n_p5=len(p5),
            p1q_accept=_rate(p1q),
            n_p1q=len(p1q),
            model=f"isotonic, 2-fold by seed, gamma {gamma}",
        ),
    )
