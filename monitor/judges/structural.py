"""The structural judge: deterministic, no LLM, the embedded default.

It treats the reference as a procedural exemplar. Entity claims in the answer
are checked against the live context only:

* same value as the observed field -> ``supported``;
* a different value for an observed field -> ``contradicted``;
* no observed counterpart -> ``unverifiable`` (neutral).

A value that differs from the *reference's* value is never a fault by itself.

Scoring (documented in the README):

* ``hallucination_fidelity`` = 1 when nothing is contradicted; otherwise
  ``0.5 * supported / (supported + contradicted)``, which is always below the
  penalty line: one contradicted observed fact is a hallucination, and the share
  of checkable claims that hold only grades it.
* ``correctness`` = the lower of fidelity and the procedure score: 1 when every
  step is covered, else ``0.5 * covered / checked steps`` — a negated or altered
  step, or a missing required one, makes the procedure wrong, so it is always
  below the penalty line.
* ``completeness`` = covered / required steps (``null`` when nothing is required).
  ``helpfulness`` is ``null`` (not assessed without an LLM).

Clarification requests and guardrail refusals are not held to the exemplar's
procedure (their steps are not assessed); their claims still are.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Sequence
from dataclasses import asdict
from typing import get_args

from monitor.claims import Candidate, extract_candidates, reference_value
from monitor.diagnostics import infer_response_type
from monitor.embeddings import Embedder
from monitor.judges.base import JudgeRequest, JudgeResult, is_penalized
from monitor.schemas import (
    ClaimEvidence,
    ClaimVerdict,
    GoldenItem,
    JudgeInfo,
    Judgment,
    LLMCall,
    ParamSpec,
    PenaltyBasis,
    PenaltyEvidence,
    Scores,
    StepVerdict,
)
from monitor.steps import ProcedureConfig, StepVerifier, mask_known
from monitor.text import content, same_word, tokens
from monitor.values import same_value

STRUCTURAL_VERSION = "structural-2"


class StructuralJudge:
    """Context-grounded claim checks plus exemplar step coverage, in pure Python."""

    def __init__(
        self, embedder: Embedder | None = None, procedure: ProcedureConfig | None = None
    ) -> None:
        self.verifier = StepVerifier(embedder, procedure)
        config = {
            "version": STRUCTURAL_VERSION,
            "procedure": asdict(self.verifier.config),
            "embedder": embedder.model_id if embedder else None,
        }
        digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:12]
        self._info = JudgeInfo(
            name="structural",
            model=embedder.model_id if embedder else None,
            prompt_version=STRUCTURAL_VERSION,
            config_hash=digest,
        )

    @property
    def info(self) -> JudgeInfo:
        return self._info

    async def judge(self, request: JudgeRequest) -> JudgeResult:
        # The step verifier's embeddings (answers paraphrased beyond term recall) run
        # in a worker thread, batched with those of the other judge calls in flight.
        claims, observed, verify = self._claims(request)
        steps = tuple(await self.verifier.verify_async(*verify)) if verify else ()
        return _result(claims, fact_steps(request.reference, steps, claims, observed))

    def judge_sync(self, request: JudgeRequest) -> JudgeResult:
        claims, observed, verify = self._claims(request)
        steps = tuple(self.verifier.verify(*verify)) if verify else ()
        return _result(claims, fact_steps(request.reference, steps, claims, observed))

    def _claims(
        self, request: JudgeRequest
    ) -> tuple[
        tuple[ClaimVerdict, ...],
        dict[str, str],
        tuple[GoldenItem, str, list[str], list[str], dict[str, str]] | None,
    ]:
        """The claim verdicts, the live context they were read against, and the step
        verifier's arguments when the answer is an answer (not a clarification or a
        refusal): its procedure is checked."""
        trace, ref = request.trace, request.reference
        observed = trace.observed()
        cands = extract_candidates(trace.answer, ref, observed)
        claims = tuple(self._verdict(c, observed, request) for c in cands)
        claims = _downgrade_shape_conflicts(claims, cands)
        rtype = trace.response_type or infer_response_type(trace.answer)
        if rtype != "answer":
            return claims, observed, None
        # Mask the instance values the answer states (short ones: a long free-text
        # "value" would hide procedure words). An amount tied to no field is left for
        # the step rules: it is as likely the procedure's own fee, changed ("a $4
        # late-cancellation fee" for "$40"). So is an amount after a label that names
        # no field of the reference or the context ("- Missed visit fee: £15"), and
        # so are words after such a label ("- Phone cancellations: accepted."): they
        # state procedure, which the steps are compared on.
        fields = set(ref.parameters) | set(observed)
        values = [
            c.value
            for c in cands
            if len(c.value.split()) <= 4 and (c.field in fields or c.type not in ("money", "text"))
        ]
        return claims, observed, (ref, trace.answer, list(observed.values()), values, observed)

    @staticmethod
    def _verdict(c: Candidate, observed: dict[str, str], request: JudgeRequest) -> ClaimVerdict:
        ref_value = reference_value(request.reference, c.field)
        span = (c.start, c.end)
        if c.field is not None and c.field in observed:
            live = observed[c.field]
            ok = same_value(c.value, live, c.type)
            return ClaimVerdict(
                field=c.field,
                value=c.value,
                type=c.type,
                status="supported" if ok else "contradicted",
                sentence=c.sentence.text,
                span=span,
                evidence=ClaimEvidence(
                    source="context",
                    context_field=c.field,
                    context_value=live,
                    cue=c.cue,
                    reference_value=ref_value,
                ),
                # A contradiction on a value the sentence does not tie to its field
                # (a vocabulary word or an identifier's shape standing alone): it may
                # not be about the field at all ("once the form is approved").
                uncertain=not ok and not c.anchored,
            )
        return ClaimVerdict(
            field=c.field,
            value=c.value,
            type=c.type,
            status="unverifiable",
            sentence=c.sentence.text,
            span=span,
            evidence=ClaimEvidence(source="none", cue=c.cue, reference_value=ref_value),
        )


def _label_words(name: str, spec: ParamSpec) -> list[str]:
    """The words that name a field: its label and its name split at case changes
    and underscores (``labOrder`` -> lab, order)."""
    split = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|_", " ", name)
    return content(tokens(f"{spec.label or ''} {split}"))


# Words that say only that a stated fact holds now ("Rental RB4K72Q is currently
# Confirmed", "is still under review", "at the moment"): no fact of their own.
# ("Present" and "already" are left out: "Present ticket T1 at the desk" is an
# instruction, "already paid" a fact.)
_STATE_NOW = frozenset({"currently", "presently", "now", "still", "moment"})


def fact_steps(
    ref: GoldenItem,
    steps: tuple[StepVerdict, ...],
    claims: tuple[ClaimVerdict, ...],
    observed: Collection[str] = (),
) -> tuple[StepVerdict, ...]:
    """A step that only states instance facts ("Lab order LB72K04Q is in analysis.":
    its words, the exemplar's values aside, name the fields whose values it states) is
    ``covered`` when the answer states a value for each of those fields, in whatever
    wording ("LB72K04Q: in analysis."), and none of them is contradicted: whether the
    values are true is the claims' to say (a value the context does not hold is
    unverifiable there, neutral). A field the context does not observe is stated by a
    value no field claimed that has its shape (:func:`_shape_stated`). Without a value
    for every one of its fields it keeps its verdict."""
    stated = {c.field for c in claims if c.field is not None}
    contradicted = {c.field for c in claims if c.status == "contradicted"}
    supported = stated - contradicted
    step_fields = [
        [n for n, p in ref.parameters.items() if p.value and p.value.strip() and p.value in s.step]
        if s.status == "missing"
        else []
        for s in steps
    ]
    # Every field the exemplar states, not only the missing steps': one date in the
    # answer does not state two dates the context does not hold.
    unobserved = {
        n
        for n, p in ref.parameters.items()
        if p.value.strip() and p.value in ref.answer and n not in stated and n not in observed
    }
    supported |= _shape_stated(ref, unobserved, claims)
    if not supported:
        return steps
    out: list[StepVerdict] = []
    for s, fields in zip(steps, step_fields, strict=True):
        if s.status != "missing" or not fields or any(f not in supported for f in fields):
            out.append(s)
            continue
        masked = mask_known(s.step, [ref.parameters[f].value for f in fields])
        rest = [w for w in content(tokens(masked)) if not w.startswith("<") and w not in _STATE_NOW]
        names = [w for f in fields for w in _label_words(f, ref.parameters[f])]
        if all(any(same_word(w, x, 4) for x in names) for w in rest):
            out.append(
                s.model_copy(
                    update={
                        "status": "covered",
                        "uncertain": False,
                        "cue": "states the instance facts it names: " + ", ".join(fields),
                    }
                )
            )
            continue
        out.append(s)
    return tuple(out)


def _shape(spec: ParamSpec) -> tuple[object, ...]:
    """What a value of a field looks like: its type, and its length or its enum values."""
    if spec.type == "enum":
        return ("enum", tuple(sorted(v.casefold() for v in spec.values or ())))
    if spec.type in ("alnum", "digits"):
        return (spec.type, spec.length)
    return (spec.type,)


def _fits(spec: ParamSpec, claim: ClaimVerdict) -> bool:
    value = claim.value.strip()
    if spec.type == "enum":
        return value.casefold() in {v.casefold() for v in spec.values or ()}
    if claim.type != spec.type:
        return False
    return spec.length is None or spec.type not in ("alnum", "digits") or len(value) == spec.length


def _shape_stated(
    ref: GoldenItem, fields: Collection[str], claims: tuple[ClaimVerdict, ...]
) -> set[str]:
    """The fields (unobserved, claimed by no value) that the answer states by a value
    of their shape that no field claimed: "H4VHFER2: available." states the lab order
    (8 letters and digits) that the context does not hold. Fields of one shape count
    only together, when the answer has at least as many such values as there are
    fields: a step deleted with its date is not "stated" by another step's date."""
    loose = [c for c in claims if c.field is None and c.status == "unverifiable"]
    by_shape: dict[tuple[object, ...], list[str]] = {}
    for f in fields:
        by_shape.setdefault(_shape(ref.parameters[f]), []).append(f)
    out: set[str] = set()
    for group in by_shape.values():
        spec = ref.parameters[group[0]]
        values = {c.value.strip().casefold() for c in loose if _fits(spec, c)}
        if len(values) >= len(group):
            out.update(group)
    return out


def _downgrade_shape_conflicts(
    claims: tuple[ClaimVerdict, ...], cands: list[Candidate]
) -> tuple[ClaimVerdict, ...]:
    """An identifier tied to a field by shape alone does not contradict that field
    when the answer also states the observed value: it most likely names another
    instance ("case 491541446 duplicates case 536762755")."""
    confirmed = {c.field for c in claims if c.status == "supported"}
    out: list[ClaimVerdict] = []
    for claim, cand in zip(claims, cands, strict=True):
        if claim.status == "contradicted" and cand.cue == "shape" and claim.field in confirmed:
            out.append(
                claim.model_copy(
                    update={
                        "status": "unverifiable",
                        "field": None,
                        "evidence": ClaimEvidence(
                            source="none",
                            cue="shape",
                            reference_value=claim.evidence.reference_value,
                        ),
                    }
                )
            )
            continue
        out.append(claim)
    return tuple(out)


def fidelity(claims: tuple[ClaimVerdict, ...]) -> float:
    sup = sum(c.status == "supported" for c in claims)
    con = sum(c.status == "contradicted" for c in claims)
    if con == 0:
        return 1.0
    return round(0.5 * sup / (sup + con), 4)


def _result(claims: tuple[ClaimVerdict, ...], steps: tuple[StepVerdict, ...]) -> JudgeResult:
    return JudgeResult(
        scores=score(claims, steps), claims=claims, steps=steps, rationale=rationale(claims, steps)
    )


def penalises(s: StepVerdict) -> bool:
    """Whether a step verdict counts against the answer: negated, altered, or a missing
    required step (a missing exemplar sentence is no penalty, :func:`procedure_score`)."""
    return s.status in ("negated", "altered") or (s.status == "missing" and s.required)


def procedure_score(steps: tuple[StepVerdict, ...]) -> float:
    """1 when the procedure holds; below 0.5 as soon as one checked step is wrong."""
    checked = [s for s in steps if s.required or s.status != "missing"]
    wrong = [s for s in checked if s.status != "covered"]
    if not wrong:
        return 1.0
    return round(0.5 * (len(checked) - len(wrong)) / len(checked), 4)


def settled_score(claims: tuple[ClaimVerdict, ...], steps: tuple[StepVerdict, ...]) -> Scores:
    """:func:`score` on the verdicts that are not ``uncertain``: the structural
    tier's vote when another tier decides the uncertain ones."""
    return score(
        tuple(c for c in claims if not c.uncertain), tuple(s for s in steps if not s.uncertain)
    )


def uncertain_kinds(
    claims: Sequence[ClaimVerdict], steps: Sequence[StepVerdict]
) -> tuple[str, ...]:
    """The kinds of the ``uncertain`` verdicts (``claim_contradicted``,
    ``step_covered``, ``step_missing``, ``step_negated``, ``step_altered``), each
    once, in that order; empty when every verdict is settled."""
    seen = {f"claim_{c.status}" for c in claims if c.uncertain}
    seen |= {f"step_{s.status}" for s in steps if s.uncertain}
    return tuple(k for k in UNCERTAIN_KINDS if k in seen)


UNCERTAIN_KINDS = (
    "claim_contradicted",
    "step_covered",
    "step_missing",
    "step_negated",
    "step_altered",
)

PENALTY_EVIDENCE: tuple[PenaltyEvidence, ...] = get_args(PenaltyEvidence)


def penalty_evidence_of(judge_name: str) -> tuple[PenaltyEvidence, ...]:
    """The penalty evidence a judge can give (:func:`penalty_evidence`): the LLM
    judge's penalties are ``llm``; the structural judge's ``settled`` or
    ``uncertain``; a hybrid judge's any of the three."""
    if judge_name == "llm":
        return ("llm",)
    if judge_name == "structural":
        return ("settled", "uncertain")
    return ("settled", "uncertain", "llm")


def penalty_evidence(j: Judgment) -> PenaltyEvidence:
    """What an evaluated judgment's penalty rests on (a closed vocabulary, fit for a
    metric label):

    - ``none``: not penalised (or not evaluated);
    - ``settled``: a claim or step verdict backed by evidence penalises it on its own
      (:func:`settled_score`), whatever an LLM tier said;
    - ``llm``: the LLM judge's verdict, or a hybrid judge's LLM tier that was called
      and answered, while no settled structural verdict penalises;
    - ``uncertain``: only structural verdicts marked ``uncertain`` penalise it and no
      LLM tier decided them (the structural judge alone, a hybrid judge that did not
      call its LLM tier or whose call failed). On domains the judge was not tuned on
      most false penalties are of this kind (docs/metrics-and-dashboards.md).
    """
    if j.status != "evaluated" or not j.penalized:
        return "none"
    if j.penalty_evidence is not None:  # as the evaluator recorded it
        return j.penalty_evidence
    return evidence_of(j.judge.name if j.judge else None, j.claims, j.steps, j.llm)


def evidence_of(
    judge_name: str | None,
    claims: tuple[ClaimVerdict, ...],
    steps: tuple[StepVerdict, ...],
    llm: LLMCall | None,
) -> PenaltyBasis:
    """:func:`penalty_evidence` of a penalised judgment from its parts (the evaluator
    records it on the judgment as ``penalty_evidence``)."""
    if judge_name == "llm":
        return "llm"
    if is_penalized(settled_score(claims, steps)):
        return "settled"
    if llm is not None and llm.sampled and llm.error is None:
        return "llm"
    return "uncertain"


def score(claims: tuple[ClaimVerdict, ...], steps: tuple[StepVerdict, ...]) -> Scores:
    fid = fidelity(claims)
    required = [s for s in steps if s.required]
    completeness = (
        round(sum(s.status == "covered" for s in required) / len(required), 4) if required else None
    )
    return Scores(
        correctness=min(fid, procedure_score(steps)),
        completeness=completeness,
        helpfulness=None,
        hallucination_fidelity=fid,
    )


def rationale(claims: tuple[ClaimVerdict, ...], steps: tuple[StepVerdict, ...]) -> str:
    parts: list[str] = []
    con = [c for c in claims if c.status == "contradicted"]
    sup = [c for c in claims if c.status == "supported"]
    unv = [c for c in claims if c.status == "unverifiable"]
    for c in con:
        parts.append(
            f"the answer states {c.field} {c.value!r}, which contradicts the "
            f"observed {c.field} {c.evidence.context_value!r} in the live context"
        )
    if sup:
        parts.append(
            "supported by the live context: " + ", ".join(f"{c.field}={c.value!r}" for c in sup)
        )
    if unv:
        parts.append(
            "unverifiable (not observed, neutral): "
            + ", ".join(f"{c.field or 'unattributed'}={c.value!r}" for c in unv)
        )
    if not claims:
        parts.append("no instance facts stated; nothing contradicts the live context")
    for s in steps:
        if penalises(s):
            parts.append(f"step {s.index + 1} {s.status} ({s.cue}): {s.step!r}")
    if steps:
        covered = sum(s.status == "covered" for s in steps)
        parts.append(f"{covered}/{len(steps)} exemplar steps covered")
    kinds = uncertain_kinds(claims, steps)
    if kinds:
        parts.append("uncertain (not settled by evidence): " + ", ".join(kinds))
    return "; ".join(parts) + "."
