"""Retrieval gates: evaluate only when the nearest reference is trustworthy.

* ``fixed``: accept when ``s* >= tau`` (default 0.80: the paper's operational
  placeholder; it is specific to the embedding model and must be recalibrated).
* ``margin``: additionally require ``Δ = s1 − s2 >= delta``, rejecting ambiguous
  matches whose top two candidates are nearly tied.
* ``calibrated``: accept when ``P̂(reference appropriate | s*, Δ, intent) >= gamma``
  (optionally per intent). ``P̂`` comes from isotonic regression on ``s*`` or
  logistic regression on ``(s*, Δ, intent)``, fitted with scikit-learn and stored
  as plain JSON (never pickle) so that the model file is reviewable and portable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from monitor.errors import GateModelError
from monitor.retrieval import Retrieval
from monitor.schemas import GateDecision, GateKind, RetrievalCandidate

DEFAULT_TAU = 0.80
DEFAULT_DELTA = 0.02
DEFAULT_GAMMA = 0.80
GATE_MODEL_FORMAT = "cargo-gate/1"


class Gate(Protocol):
    @property
    def kind(self) -> GateKind: ...

    def decide(self, retrieval: Retrieval | None) -> GateDecision: ...


def _base(kind: GateKind, r: Retrieval) -> dict[str, object]:
    return {
        "kind": kind,
        "similarity": round(r.similarity, 6),
        "second_similarity": None if r.second_similarity is None else round(r.second_similarity, 6),
        "margin": None if r.margin is None else round(r.margin, 6),
        "reference_id": r.item.id,
        "intent": r.item.intent,
        "expected_agent": r.item.agent,
        "candidates": tuple(
            RetrievalCandidate(reference_id=i, similarity=s, phrasing=p)
            for (i, s), p in zip(
                r.candidates, r.phrasings or (None,) * len(r.candidates), strict=True
            )
        ),
    }


def _empty(kind: GateKind) -> GateDecision:
    return GateDecision(kind=kind, status="abstained", reason="empty_golden_set")


class FixedGate:
    def __init__(self, tau: float = DEFAULT_TAU) -> None:
        self.tau = tau

    @property
    def kind(self) -> GateKind:
        return "fixed"

    def decide(self, retrieval: Retrieval | None) -> GateDecision:
        if retrieval is None:
            return _empty("fixed")
        ok = retrieval.similarity >= self.tau
        return GateDecision(
            **_base("fixed", retrieval),
            threshold=self.tau,
            status="accepted" if ok else "abstained",
            reason="accepted" if ok else "low_similarity",
        )


class MarginGate:
    """Threshold plus top-2 margin. With a one-item golden set Δ is undefined and
    only the threshold applies."""

    def __init__(self, tau: float = DEFAULT_TAU, delta: float = DEFAULT_DELTA) -> None:
        self.tau = tau
        self.delta = delta

    @property
    def kind(self) -> GateKind:
        return "margin"

    def decide(self, retrieval: Retrieval | None) -> GateDecision:
        if retrieval is None:
            return _empty("margin")
        if retrieval.similarity < self.tau:
            reason = "low_similarity"
        elif retrieval.margin is not None and retrieval.margin < self.delta:
            reason = "low_margin"
        else:
            reason = "accepted"
        return GateDecision(
            **_base("margin", retrieval),
            threshold=self.tau,
            min_margin=self.delta,
            status="accepted" if reason == "accepted" else "abstained",
            reason=reason,
        )


# --------------------------------------------------------------------------- calibrated


class IsotonicParams(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    x: list[float] = Field(min_length=1)
    y: list[float] = Field(min_length=1)


class LogisticParams(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    intents: list[str]
    coef_similarity: float
    coef_margin: float
    coef_intent: list[float]
    intercept: float


class CalibratedGateModel(BaseModel):
    """The JSON file a calibrated gate is loaded from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["cargo-gate/1"] = "cargo-gate/1"
    method: Literal["isotonic", "logistic"]
    gamma: float = Field(default=DEFAULT_GAMMA, ge=0, le=1)
    per_intent_gamma: dict[str, float] = Field(default_factory=dict)
    isotonic: IsotonicParams | None = None
    logistic: LogisticParams | None = None
    embedding_model: str | None = None
    fitted_rows: int = 0
    fitted_positives: int = 0

    def probability(self, similarity: float, margin: float | None, intent: str | None) -> float:
        if self.method == "isotonic":
            if self.isotonic is None:
                raise GateModelError("isotonic gate model has no 'isotonic' parameters")
            return float(np.interp(similarity, self.isotonic.x, self.isotonic.y))
        if self.logistic is None:
            raise GateModelError("logistic gate model has no 'logistic' parameters")
        lg = self.logistic
        z = lg.intercept + lg.coef_similarity * similarity + lg.coef_margin * (margin or 0.0)
        if intent in lg.intents:
            z += lg.coef_intent[lg.intents.index(intent)]
        return 1.0 / (1.0 + math.exp(-z))

    def threshold_for(self, intent: str | None) -> float:
        if intent is not None and intent in self.per_intent_gamma:
            return self.per_intent_gamma[intent]
        return self.gamma


def load_gate_model(path: str | Path) -> CalibratedGateModel:
    p = Path(path)
    try:
        return CalibratedGateModel.model_validate_json(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GateModelError(f"{p}: gate model file not found") from None
    except ValidationError as exc:
        raise GateModelError(f"{p}: not a valid {GATE_MODEL_FORMAT} model: {exc}") from exc


def save_gate_model(model: CalibratedGateModel, path: str | Path) -> None:
    """Write the model as ``cargo-gate/1`` JSON (its folder made; a path that cannot be
    written is a :class:`ConfigError` naming it)."""
    from monitor.io import write_output

    write_output(path, model.model_dump_json(indent=2) + "\n", "gate model")


class CalibratedGate:
    def __init__(self, model: CalibratedGateModel, gamma: float | None = None) -> None:
        if gamma is not None:
            model = model.model_copy(update={"gamma": gamma})
        self.model = model

    @property
    def kind(self) -> GateKind:
        return "calibrated"

    def decide(self, retrieval: Retrieval | None) -> GateDecision:
        if retrieval is None:
            return _empty("calibrated")
        p = self.model.probability(retrieval.similarity, retrieval.margin, retrieval.item.intent)
        gamma = self.model.threshold_for(retrieval.item.intent)
        ok = p >= gamma
        return GateDecision(
            **_base("calibrated", retrieval),
            probability=round(p, 6),
            threshold=gamma,
            status="accepted" if ok else "abstained",
            reason="accepted" if ok else "low_probability",
        )


class CalibrationRow(BaseModel):
    """One labelled retrieval: was the nearest reference appropriate for this trace?"""

    model_config = ConfigDict(frozen=True, extra="ignore")
    similarity: float = Field(ge=-1, le=1)
    margin: float | None = None
    intent: str | None = None
    appropriate: bool


def fit_gate_model(
    rows: Sequence[CalibrationRow],
    method: Literal["isotonic", "logistic"],
    *,
    gamma: float = DEFAULT_GAMMA,
    embedding_model: str | None = None,
    per_intent_gamma: dict[str, float] | None = None,
) -> CalibratedGateModel:
    """Fit ``P̂(appropriate | s*, Δ, intent)``; both classes must be present."""
    if len(rows) < 2:
        raise GateModelError(f"need at least 2 labelled rows to calibrate, got {len(rows)}")
    y = np.array([r.appropriate for r in rows], dtype=int)
    if y.min() == y.max():
        raise GateModelError(
            "calibration labels contain only one class; "
            "label both appropriate and inappropriate references"
        )
    s = np.array([r.similarity for r in rows], dtype=float)
    common = {
        "gamma": gamma,
        "embedding_model": embedding_model,
        "fitted_rows": len(rows),
        "fitted_positives": int(y.sum()),
        "per_intent_gamma": per_intent_gamma or {},
    }
    if method == "isotonic":
        from sklearn.isotonic import IsotonicRegression

        iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip", increasing=True).fit(
            s, y
        )
        return CalibratedGateModel(
            method="isotonic",
            isotonic=IsotonicParams(
                x=[float(v) for v in iso.X_thresholds_], y=[float(v) for v in iso.y_thresholds_]
            ),
            **common,
        )
    from sklearn.linear_model import LogisticRegression

    intents = sorted({r.intent for r in rows if r.intent})
    x = np.column_stack(
        [
            s,
            np.array([r.margin or 0.0 for r in rows], dtype=float),
            *[np.array([r.intent == it for r in rows], dtype=float) for it in intents],
        ]
    )
    lr = LogisticRegression(C=10.0, max_iter=1000).fit(x, y)
    coef = [float(c) for c in lr.coef_[0]]
    return CalibratedGateModel(
        method="logistic",
        logistic=LogisticParams(
            intents=intents,
            coef_similarity=coef[0],
            coef_margin=coef[1],
            coef_intent=coef[2:],
            intercept=float(lr.intercept_[0]),
        ),
        **common,
    )


def make_gate(
    kind: str,
    *,
    tau: float = DEFAULT_TAU,
    delta: float = DEFAULT_DELTA,
    gamma: float | None = None,
    model_path: str | Path | None = None,
) -> Gate:
    from monitor.errors import ConfigError

    if kind == "fixed":
        return FixedGate(tau)
    if kind == "margin":
        return MarginGate(tau, delta)
    if kind == "calibrated":
        if model_path is None:
            raise ConfigError(
                "the calibrated gate needs a model file (--gate-model / "
                "CARGO_GATE_MODEL), fitted from labelled rows"
            )
        return CalibratedGate(load_gate_model(model_path), gamma)
    raise ConfigError(f"unknown gate {kind!r}; choose one of: fixed, margin, calibrated")


def read_calibration_rows(path: str | Path) -> list[CalibrationRow]:
    """Labelled rows from JSONL. A missing file or a bad row is a :class:`ConfigError`
    of one line naming the file, the line and the field (not the value)."""
    from monitor.io import read_jsonl_models

    return [
        row
        for _, row in read_jsonl_models(
            path, CalibrationRow, what="calibration rows", prefix="bad calibration row: "
        )
    ]
