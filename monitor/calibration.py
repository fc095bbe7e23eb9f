"""Choosing a gate from labelled data: fit P-hat, pick tau/delta/gamma, report calibration.

Input rows say whether a golden reference is an appropriate procedural exemplar
for a question (``appropriate`` 0/1). Features (s*, Δ, intent) are either given
on the row or computed by embedding the question against the golden set:

* with ``reference_id``: s = cos(question, that reference), Δ = s - the best
  other reference (equal to the gate's s* and Δ when it is the top-1);
* without: the top-1 reference, as the gate would pick it.

Both isotonic (on s*) and logistic (on s*, Δ, intent) models are evaluated by
5-fold cross-validation (folds by row position); the method with the lower
out-of-fold log-loss is chosen unless the caller says otherwise, then refitted on
all rows. The reliability table, ECE and the thresholds reaching each target
validity are computed on the out-of-fold predictions, so they are honest for
rows the model has not seen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from monitor.errors import ConfigError, GateModelError
from monitor.gate import CalibratedGateModel, CalibrationRow, fit_gate_model
from monitor.io import read_jsonl_models
from monitor.retrieval import GoldenIndex
from monitor.selective import (
    ReliabilityBin,
    log_loss,
    reliability,
    risk_coverage,
    threshold_for_coverage,
    threshold_for_validity,
)

Method = Literal["isotonic", "logistic"]
FOLDS = 5
# The fewest labelled rows a cross-validated fit takes: two per fold.
MIN_ROWS = 2 * FOLDS
MIN_INTENT_ROWS = 10


class LabelRow(BaseModel):
    """One labelled row of a calibration file."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    question: str | None = None
    trace_id: str | None = None
    reference_id: str | None = None
    intent: str | None = None
    similarity: float | None = Field(default=None, ge=-1, le=1)
    margin: float | None = None
    appropriate: bool

    @model_validator(mode="after")
    def _has_features(self) -> LabelRow:
        if self.similarity is None and self.question is None and self.trace_id is None:
            raise ValueError("a row needs 'question', 'trace_id' (with --traces) or 'similarity'")
        return self


def read_label_rows(path: str | Path) -> list[tuple[int, LabelRow]]:
    """Rows with their line numbers; every problem names the file and line."""
    rows = read_jsonl_models(path, LabelRow, what="labels")
    if not rows:
        raise ConfigError(f"{path}: no labelled rows")
    return rows


def features(
    rows: Sequence[tuple[int, LabelRow]],
    index: GoldenIndex | None,
    questions_by_trace: dict[str, str] | None = None,
    *,
    source: str = "labels",
) -> list[CalibrationRow]:
    """(s*, Δ, intent, appropriate) for every row, embedding questions in one batch."""
    need: list[tuple[int, int, str]] = []
    for k, (n, r) in enumerate(rows):
        if r.similarity is not None:
            continue
        q = r.question
        if q is None:
            if questions_by_trace is None:
                raise ConfigError(
                    f"{source}:{n}: row has only 'trace_id': pass --traces FILE "
                    "to look its question up"
                )
            if r.trace_id not in questions_by_trace:
                raise ConfigError(
                    f"{source}:{n}: trace_id {r.trace_id!r} is not in the traces file"
                )
            q = questions_by_trace[r.trace_id or ""]
        need.append((k, n, q))
    sims = None
    if need:
        if index is None:
            raise ConfigError("rows without 'similarity' need the golden set and embedder")
        vecs, asked = index.embed_queries([q for _, _, q in need])
        sims = np.clip(index.item_similarities(vecs, asked), -1.0, 1.0)
    ids = [i.id for i in index.golden.items] if index is not None else []
    out: list[CalibrationRow | None] = [None] * len(rows)
    for k, (_, r) in enumerate(rows):
        if r.similarity is not None:
            out[k] = CalibrationRow(
                similarity=r.similarity, margin=r.margin, intent=r.intent, appropriate=r.appropriate
            )
    for j, (k, n, _) in enumerate(need):
        assert sims is not None and index is not None
        r = rows[k][1]
        row = sims[j]
        if r.reference_id is not None:
            if r.reference_id not in ids:
                # (Most often the bundled set read for want of --golden: a newcomer
                # labelled their own references and ran the documented command.)
                raise ConfigError(
                    f"{source}:{n}: reference_id {r.reference_id!r} is not in the golden "
                    f"set (version {index.golden.version}, {len(ids)} items); give the "
                    "set the labels name with --golden FILE"
                )
            ref = ids.index(r.reference_id)
        else:
            ref = int(np.argmax(row))
        others = np.delete(row, ref)
        s = float(row[ref])
        margin = s - float(others.max()) if len(others) else None
        out[k] = CalibrationRow(
            similarity=s,
            margin=margin,
            intent=r.intent or index.golden.items[ref].intent,
            appropriate=r.appropriate,
        )
    return [x for x in out if x is not None]


def predict(model: CalibratedGateModel, rows: Sequence[CalibrationRow]) -> np.ndarray:
    return np.array([model.probability(r.similarity, r.margin, r.intent) for r in rows])


def out_of_fold(rows: Sequence[CalibrationRow], method: Method) -> np.ndarray:
    """P-hat for each row from a model fitted without its fold."""
    p = np.zeros(len(rows))
    for fold in range(FOLDS):
        test = [k for k in range(len(rows)) if k % FOLDS == fold]
        train = [rows[k] for k in range(len(rows)) if k % FOLDS != fold]
        if not test:
            continue
        try:
            model = fit_gate_model(train, method)
            p[test] = predict(model, [rows[k] for k in test])
        except GateModelError:
            # A fold whose training part has one class: predict its base rate.
            p[test] = float(np.mean([r.appropriate for r in train])) if train else 0.5
    return p


@dataclass
class Thresholds:
    target: float
    threshold: float | None
    coverage: float | None
    validity: float | None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class CalibrationReport:
    rows: int
    positives: int
    method: Method
    chosen_by: str
    oof_log_loss: dict[str, float]
    reliability: list[ReliabilityBin]
    ece: float | None
    calibrated: list[Thresholds]
    per_intent: dict[str, list[Thresholds]]
    fixed_validity: list[Thresholds]
    fixed_coverage: list[Thresholds]
    margin_validity: list[Thresholds]
    margin_coverage: list[Thresholds]
    model: CalibratedGateModel
    warnings: list[str] = field(default_factory=list)


def _validity(scores: np.ndarray, y: np.ndarray, target: float) -> Thresholds:
    pt = threshold_for_validity(scores, y, target)
    if pt is None:
        return Thresholds(target, None, None, None)
    return Thresholds(target, pt.threshold, pt.coverage, 1.0 - pt.risk)


def _coverage(scores: np.ndarray, y: np.ndarray, target: float) -> Thresholds:
    pt = threshold_for_coverage(scores, target)
    if pt is None:
        return Thresholds(target, None, None, None)
    acc = scores >= pt.threshold
    return Thresholds(target, pt.threshold, pt.coverage, float(y[acc].mean()))


def _margin_grid(s: np.ndarray, d: np.ndarray) -> list[tuple[float, float, np.ndarray]]:
    taus = np.unique(np.quantile(s, np.linspace(0, 1, 41)))
    deltas = np.unique(np.concatenate([[0.0], np.quantile(d, np.linspace(0, 0.9, 19))]))
    return [(float(t), float(dl), (s >= t) & (d >= dl)) for t in taus for dl in deltas]


def _margin_validity(s: np.ndarray, d: np.ndarray, y: np.ndarray, target: float) -> Thresholds:
    best: Thresholds = Thresholds(target, None, None, None)
    for t, dl, acc in _margin_grid(s, d):
        if not acc.any():
            continue
        v, c = float(y[acc].mean()), float(acc.mean())
        if v >= target - 1e-12 and (best.coverage is None or c > best.coverage):
            best = Thresholds(target, t, c, v, {"delta": dl})
    return best


def _margin_coverage(s: np.ndarray, d: np.ndarray, y: np.ndarray, target: float) -> Thresholds:
    best: Thresholds = Thresholds(target, None, None, None)
    for t, dl, acc in _margin_grid(s, d):
        c = float(acc.mean())
        if c < target - 1e-12 or not acc.any():
            continue
        v = float(y[acc].mean())
        if best.validity is None or v > best.validity:
            best = Thresholds(target, t, c, v, {"delta": dl})
    return best


def calibrate(
    rows: Sequence[CalibrationRow],
    *,
    method: Method | None = None,
    validities: Sequence[float] = (0.9, 0.95),
    coverages: Sequence[float] = (0.9,),
    set_validity: float | None = None,
    gamma: float = 0.8,
    embedding_model: str | None = None,
) -> CalibrationReport:
    if len(rows) < MIN_ROWS:
        raise GateModelError(
            f"need at least {MIN_ROWS} labelled rows to calibrate "
            f"(cross-validated), got {len(rows)}"
        )
    y = np.array([r.appropriate for r in rows], dtype=float)
    if y.min() == y.max():
        raise GateModelError(
            "the labels contain only one class; label both appropriate and inappropriate references"
        )
    methods: tuple[Method, Method] = ("isotonic", "logistic")
    oof = {m: out_of_fold(rows, m) for m in methods}
    losses: dict[str, float] = {m: log_loss(p, y) for m, p in oof.items()}
    chosen: Method = method if method is not None else min(methods, key=lambda m: losses[m])
    chosen_by = "given" if method else "lower out-of-fold log-loss"
    p = oof[chosen]
    table, ece = reliability(p, y)
    cal = [_validity(p, y, v) for v in validities]
    intents = sorted({r.intent for r in rows if r.intent})
    per_intent: dict[str, list[Thresholds]] = {}
    for it in intents:
        mask = np.array([r.intent == it for r in rows])
        if mask.sum() >= MIN_INTENT_ROWS and y[mask].sum() > 0:
            per_intent[it] = [_validity(p[mask], y[mask], v) for v in validities]
    s = np.array([r.similarity for r in rows])
    d = np.array([r.margin if r.margin is not None else 1.0 for r in rows])
    final_gamma = gamma
    per_gamma: dict[str, float] = {}
    if set_validity is not None:
        t = _validity(p, y, set_validity)
        if t.threshold is None:
            # Say what can be reached (the table that would show it is not printed).
            top = max(risk_coverage(p, 1.0 - y), key=lambda pt: (1.0 - pt.risk, pt.coverage))
            raise GateModelError(
                f"no threshold reaches a reference validity of {set_validity} on these "
                f"labels; the highest is {math.floor((1.0 - top.risk) * 1e4) / 1e4:.4f} "
                f"(P̂ >= {top.threshold:.4f}, "
                f"coverage {top.coverage:.1%}); ask for at most that"
            )
        final_gamma = t.threshold
        for it in per_intent:
            mask = np.array([r.intent == it for r in rows])
            ti = _validity(p[mask], y[mask], set_validity)
            if ti.threshold is not None:
                per_gamma[it] = ti.threshold
    model = fit_gate_model(
        rows, chosen, gamma=final_gamma, embedding_model=embedding_model, per_intent_gamma=per_gamma
    )
    return CalibrationReport(
        warnings=one_class_intents(rows) if chosen == "logistic" else [],
        rows=len(rows),
        positives=int(y.sum()),
        method=chosen,
        chosen_by=chosen_by,
        oof_log_loss=losses,
        reliability=table,
        ece=ece,
        calibrated=cal,
        per_intent=per_intent,
        fixed_validity=[_validity(s, y, v) for v in validities],
        fixed_coverage=[_coverage(s, y, c) for c in coverages],
        margin_validity=[_margin_validity(s, d, y, v) for v in validities],
        margin_coverage=[_margin_coverage(s, d, y, c) for c in coverages],
        model=model,
    )


def one_class_intents(rows: Sequence[CalibrationRow]) -> list[str]:
    """A warning per intent whose labelled rows are all one class.

    The logistic model has one coefficient per intent. When every row of an intent
    is appropriate (or every one inappropriate), that coefficient learns the topic,
    not how near the question is: the gate then accepts (or refuses) whatever
    retrieval sends to that item, a question retrieved to the wrong item included.
    """
    by_intent: dict[str, list[bool]] = {}
    for r in rows:
        if r.intent:
            by_intent.setdefault(r.intent, []).append(r.appropriate)
    out = []
    for it, ys in sorted(by_intent.items()):
        if len(set(ys)) == 1:
            kind = "appropriate" if ys[0] else "inappropriate"
            every = "its only row is" if len(ys) == 1 else f"all {len(ys)} of its rows are"
            out.append(
                f"intent {it!r}: {every} {kind}, so the logistic model learns the topic, "
                f"not the similarity: it will {'accept' if ys[0] else 'refuse'} what retrieval "
                "sends to this item, a wrongly retrieved question included. Label "
                + (
                    "near misses for it (questions that reach it but need another procedure)"
                    if ys[0]
                    else "questions it does answer"
                )
                + ", or use --method isotonic (on s* only)"
            )
    return out


def aurc_of(scores: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float | None:
    """AURC with loss = inappropriate reference (1 - y)."""
    from monitor.selective import aurc

    return aurc(scores, 1.0 - np.asarray(y, dtype=float))
