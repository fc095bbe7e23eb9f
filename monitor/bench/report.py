"""The Cargo-Bench report as typed models.

``BenchReport.model_dump(mode="json")`` is the ``cargo-bench-report/1`` JSON that
``cargo-monitor bench run --json`` writes; the field order is the key order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from monitor.schemas import JudgeInfo


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Rate(_Frozen):
    """How many of ``n`` judged items were penalised (``rate`` None when ``n`` is 0)."""

    n: int
    penalized: int
    rate: float | None


class Usage(_Frozen):
    """Tokens and estimated cost over every call, failed calls included."""

    input_tokens: int
    output_tokens: int
    # An int when no call had a price (a sum of nothing is 0, and written as 0).
    cost_usd: int | float


class VerdictCounts(_Frozen):
    """The claim and step verdicts a judge issued on one family's items (every
    successful repeat), by status; ``*_unverifiable`` is how many it could not
    decide either way (neutral, never penalising)."""

    items: int
    claims: dict[str, int]
    steps: dict[str, int]
    claims_unverifiable: int
    steps_unverifiable: int


class Escalation(_Frozen):
    """How many of a family's items a hybrid judge with ``--judge-escalate uncertain``
    would send to its LLM tier (at least one ``uncertain`` verdict in the first
    successful repeat): ``share`` is the LLM cost as a fraction of the traffic.
    ``wrong`` items were judged against their target; ``wrong_escalated`` of them
    are in the escalated set, the rest are wrong on settled verdicts.
    ``correctable``: the wrong items an LLM tier that is right on every item it sees
    would correct: escalated, and, for an item that should pass, not penalised by a
    settled verdict too (the hybrid judge keeps a settled fault whatever the LLM
    says). ``right_llm``: the family's penalty rate with such an LLM tier (a
    non-escalated item keeps its verdict): the most that escalating the uncertain
    can reach on these items, not a figure of any real LLM. ``settled``: the
    family's penalty rate counting its settled verdicts only (the
    ``cargo_penalties_total{evidence="settled"}`` stream that the
    ``SettledPenaltySpike`` alert watches; None for the LLM judge, whose penalties
    are all the LLM's). ``kinds``: escalated items per uncertain verdict kind."""

    items: int
    escalated: int
    share: float | None
    wrong: int
    wrong_escalated: int
    kinds: dict[str, int]
    correctable: int
    right_llm: float | None
    settled: float | None = None


class ParaphraseDI(_Frozen):
    """TP pooled over P2p+P4p (corruptions of paraphrases, not near-copies of the
    golden answer), against the same FP as the DI; with its bootstrap CI."""

    tp: float | None
    di: float | None
    di_ci: tuple[float, float] | None


class OnPassedBase(_Frozen):
    """A paraphrase corruption (P2p, P4p) counted only where the judge passed its
    base: the same paraphrase, uncorrupted, with the same values in the same draw
    (the P6 item of that seed, draw and paraphrase, when the draw drew it). A catch
    there is the judge seeing the corruption, not a false flag on the base carried
    over. ``matched``: items whose base was judged; ``base_flagged``: of those, how
    many had their base penalised (left out); ``caught``: the penalty rate over the
    rest (``matched`` − ``base_flagged`` items)."""

    matched: int
    base_flagged: int
    caught: Rate


class WorstItem(_Frozen):
    """A confidently wrong item: penalised against its target (or not penalised when
    it should be), ``margin`` = how far its deciding score sits from the 0.5 line."""

    id: str
    family: str
    subtype: str | None
    target_penalize: bool
    penalized: bool
    correctness: float | None
    fidelity: float | None
    margin: float
    why: str


class JudgeSummary(_Frozen):
    """One judge over the instances: penalty rates, TP/FP/DI with a bootstrap CI,
    errors apart (an item whose every repeat failed counts in no rate)."""

    families: dict[str, Rate]
    tp: float | None
    fp: float | None
    di: float | None
    di_ci: tuple[float, float] | None
    # The DI's families (P2, P4 | P1, P3, P6) with no judged item, so left out of it
    # (not built, or every item a judge error); only when there are some.
    di_missing: list[str] = Field(default=[], exclude_if=lambda v: not v)
    p4_by_type: dict[str, Rate]
    p3_by_split: dict[str, Rate]
    errors: int
    error_kinds: dict[str, int]
    items_failed: int
    items: int
    usage: Usage
    verdicts: dict[str, VerdictCounts] = Field(default={}, exclude_if=lambda v: not v)
    # Only when the instances have P2p/P4p (seeds with marked paraphrases).
    p4p_by_type: dict[str, Rate] = Field(default={}, exclude_if=lambda v: not v)
    paraphrase_bases: ParaphraseDI | None = Field(default=None, exclude_if=lambda v: v is None)
    # Keys "P2p", "P4p", "P4p.<subtype>"; only when a paraphrase corruption has a judged base.
    on_passed_base: dict[str, OnPassedBase] = Field(default={}, exclude_if=lambda v: not v)
    # Only for judges that issue claim or step verdicts.
    escalation: dict[str, Escalation] = Field(default={}, exclude_if=lambda v: not v)
    # Family (P1, P3, P6) -> the rule that penalised its correct items -> items; only
    # for judges that issue verdicts, only families with a false penalty.
    false_penalties: dict[str, dict[str, int]] = Field(default={}, exclude_if=lambda v: not v)


class GateRates(_Frozen):
    """P1 acceptance (own reference) and P5 rejection of one gate kind."""

    p1_accept: float | None
    p5_reject: float | None
    n_p1: int
    n_p5: int
    # P1 asked with the seeds' question paraphrases (P1q); only when there are some.
    p1q_accept: float | None = Field(default=None, exclude_if=lambda v: v is None)
    n_p1q: int = Field(default=0, exclude_if=lambda v: v == 0)

    @property
    def note(self) -> str:
        return ""


class CalibratedGateRates(GateRates):
    """:class:`GateRates` of the calibrated gate, with the model it used."""

    model: str

    @property
    def note(self) -> str:
        return self.model


class UnfittedGate(_Frozen):
    """The calibrated gate could not be cross-fitted (``model`` says why)."""

    p1_accept: None = None
    p5_reject: None = None
    p1q_accept: None = Field(default=None, exclude_if=lambda v: v is None)
    model: str

    @property
    def note(self) -> str:
        return self.model


class GateReport(_Frozen):
    fixed: GateRates
    margin: GateRates
    calibrated: CalibratedGateRates | UnfittedGate


class PairedDelta(_Frozen):
    """ΔDI = DI(b) − DI(a) on the ``n`` items both judges judged, paired bootstrap CI."""

    a: str
    b: str
    n: int
    delta_di: float | None
    ci: tuple[float, float] | None


class LLMLabels(_Frozen):
    """The prompt condition and rubric of an LLM judge row."""

    condition: str
    rubric: str | None


class JudgeReport(JudgeSummary):
    """A judge's row of the report: its summary, the gate figures, its identity and,
    for LLM judges, the condition and rubric (absent otherwise)."""

    gate: GateReport
    judge: JudgeInfo
    llm: LLMLabels | None = Field(default=None, exclude_if=lambda v: v is None)
    worst: list[WorstItem] = Field(default=[], exclude_if=lambda v: not v)


# Why a family of the main table or of the gate has no instance, from what its
# construction needs (monitor.bench.generate); its cells then read "—".
NOT_BUILT_REASONS: dict[str, str] = {
    "P1": "no seed gave an instance",
    "P2": "no draw had an observed field of the answer in its context",
    "P3": "no seed has extra_fields",
    "P4": "no seed has steps, negations or policy_alternatives",
    "P5": "needs seeds of at least two intents",
    "P6": "no seed has paraphrases",
}


def not_built(by_family: Mapping[str, int], dropped: Mapping[str, int]) -> dict[str, str]:
    """The families P1–P6 with no instance, each with why (see ``NOT_BUILT_REASONS``;
    a family whose every instance failed the consistency checks says so instead)."""
    out = {}
    for fam, why in NOT_BUILT_REASONS.items():
        if by_family.get(fam, 0):
            continue
        k = dropped.get(fam, 0)
        out[fam] = f"all {k} dropped by the consistency checks" if k else why
    return out


class InstancesInfo(_Frozen):
    source: str
    n: int
    by_family: dict[str, int]
    gen_seed: int
    draws: int
    seeds_hash: str
    seeds: int
    dropped: dict[str, int]
    # Families P1–P6 with no instance -> why; only when there are some. Derived from
    # ``by_family`` and ``dropped`` when not given.
    not_built: dict[str, str] = Field(default={}, exclude_if=lambda v: not v)

    @model_validator(mode="before")
    @classmethod
    def _derive_not_built(cls, data: Any) -> Any:
        if isinstance(data, dict) and "not_built" not in data:
            fams, dropped = data.get("by_family"), data.get("dropped")
            if isinstance(fams, Mapping) and isinstance(dropped, Mapping):
                data = {**data, "not_built": not_built(fams, dropped)}
        return data


class BenchReport(_Frozen):
    format: str
    instances: InstancesInfo
    repeats: int
    embedder: str
    bootstrap_resamples: int
    judges: dict[str, JudgeReport]
    gate: GateReport
    paired: list[PairedDelta]
