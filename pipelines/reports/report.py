"""``cargo-monitor report``: coverage, risk-coverage, failure recall, cost and retrieval
quality from judgments (and expert labels), as Markdown, JSON, PNG plots and one
self-contained HTML page."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from monitor.errors import ConfigError
from monitor.gate import load_gate_model
from monitor.io import make_output_dir, read_jsonl_models
from monitor.judges.structural import penalty_evidence
from monitor.schemas import Judgment
from monitor.selective import (
    CurvePoint,
    ExpectedCurve,
    bootstrap_band,
    expected_failure_recall,
    expected_risk_curve,
    failure_recall,
    flagged_share,
    hit_at_k,
    judge_cost,
    mrr_at_k,
    ndcg_at_k,
    oracle_failure_recall,
    oracle_scores,
    random_risk,
    reliability,
    risk_at,
    risk_coverage,
)
from pipelines.reports.html import render_page
from pipelines.reports.models import (
    CitationSummary,
    LabelledReport,
    RankMetrics,
    ReportSummary,
    RetrievalQuality,
)

REPORT_FORMAT = "cargo-report/1"


class LossLabel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    trace_id: str
    loss: bool | None = None
    expert_penalized: bool | None = None
    failure: bool | None = None
    appropriate: bool | None = None
    reference_id: str | None = None


def read_judgments(path: Path) -> list[Judgment]:
    out = [
        j for _, j in read_jsonl_models(path, Judgment, what="judgments", prefix="not a judgment: ")
    ]
    if not out:
        raise ConfigError(f"{path}: no judgments")
    return out


def read_labels(path: Path) -> list[LossLabel]:
    return [row for _, row in read_jsonl_models(path, LossLabel, what="labels")]


# --------------------------------------------------------------------------- analysis


def summary(js: list[Judgment]) -> ReportSummary:
    status = Counter(j.status for j in js)
    valid = len(js) - status["invalid"]
    evaluated = status["evaluated"]
    pen = sum(bool(j.penalized) for j in js if j.status == "evaluated")
    cost = sum(j.llm.cost_usd for j in js if j.llm is not None)
    cited = [j.citations for j in js if j.citations is not None]
    return ReportSummary(
        judgments=len(js),
        status=dict(status),
        coverage=evaluated / valid if valid else None,
        abstentions=dict(Counter(j.reason for j in js if j.status == "abstained")),
        penalized=pen,
        penalized_rate=pen / evaluated if evaluated else None,
        penalty_evidence=dict(Counter(penalty_evidence(j) for j in js if j.penalized)),
        judge_errors=dict(Counter(j.error.kind for j in js if j.error is not None)),
        invalid=dict(Counter(j.reason for j in js if j.status == "invalid")),
        judge_cost_usd=round(cost, 6),
        citations=None
        if not cited
        else CitationSummary(
            traces=len(cited),
            findings=dict(Counter(f.category for c in cited for f in c.findings)),
            coverage=(
                sum(c.covered for c in cited) / req
                if (req := sum(c.requiring for c in cited))
                else None
            ),
        ),
    )


@dataclass
class Item:
    trace_id: str
    similarity: float
    margin: float | None
    probability: float | None
    penalized: bool | None
    loss: float | None
    failure: float | None
    appropriate: float | None


def _items(js: list[Judgment], labels: dict[str, LossLabel], model: Any) -> list[Item]:
    out = []
    for j in js:
        g = j.gate
        if j.trace_id is None or g is None or g.similarity is None or j.trace_id not in labels:
            continue
        lab = labels[j.trace_id]
        appropriate = None
        if lab.appropriate is not None and lab.reference_id in (None, g.reference_id):
            appropriate = float(lab.appropriate)
        if lab.loss is not None:
            loss: float | None = float(lab.loss)
        elif lab.expert_penalized is not None and j.status == "evaluated":
            loss = float(bool(j.penalized) != lab.expert_penalized)
        elif appropriate is not None:
            loss = 1.0 - appropriate
        else:
            loss = None
        p = g.probability
        if p is None and model is not None:
            p = model.probability(g.similarity, g.margin, g.intent)
        out.append(
            Item(
                j.trace_id,
                g.similarity,
                g.margin,
                p,
                j.penalized if j.status == "evaluated" else None,
                loss,
                None if lab.failure is None else float(lab.failure),
                appropriate,
            )
        )
    return out


def _pt(p: CurvePoint | None) -> dict[str, float] | None:
    return None if p is None else {"threshold": p.threshold, "coverage": p.coverage, "risk": p.risk}


def gate_scores(items: list[Item], delta: float) -> dict[str, np.ndarray]:
    s = np.array([i.similarity for i in items])
    d = np.array([i.margin if i.margin is not None else np.inf for i in items])
    out = {"fixed (s*)": s, f"margin (s*, Δ ≥ {delta:g})": np.where(d >= delta, s, -np.inf)}
    if items and all(i.probability is not None for i in items):
        out["calibrated (P̂)"] = np.array([i.probability for i in items], dtype=float)
    return out


CURVE_POINTS = 2000
BAND_RESAMPLES = 200
BAND_GRID = np.linspace(0.01, 1.0, 100)


def _curve_json(c: ExpectedCurve, limit: int = CURVE_POINTS) -> list[list[float]]:
    """[[coverage, value], ...] of an expected curve: every k up to ``limit`` items, else
    ``limit`` evenly spaced k plus the gate's last reachable one (for plots; the areas
    are computed on every k)."""
    m = len(c.coverage)
    if m <= limit:
        idx = np.arange(m)
    else:
        idx = np.unique(np.r_[np.linspace(0, m - 1, limit).round(), max(c.reachable - 1, 0)])
    return [[round(float(c.coverage[i]), 6), round(float(c.value[i]), 6)] for i in idx.astype(int)]


def _band_json(scores: np.ndarray, losses: np.ndarray) -> dict[str, Any]:
    """95% pointwise bootstrap band of the expected risk curve (fixed seed: a report is
    reproducible)."""
    lo, hi = bootstrap_band(scores, losses, BAND_GRID, resamples=BAND_RESAMPLES)
    return {
        "level": 0.95,
        "resamples": BAND_RESAMPLES,
        "coverage": [round(float(c), 4) for c in BAND_GRID],
        "low": [round(float(x), 6) for x in lo],
        "high": [round(float(x), 6) for x in hi],
    }


def selective(
    items: list[Item], *, delta: float, coverages: list[float], ce: float, cj: float
) -> dict[str, Any]:
    with_loss = [i for i in items if i.loss is not None]
    res: dict[str, Any] = {"items": len(items), "with_loss": len(with_loss), "gates": {}}
    if not with_loss:
        return res
    losses = np.array([i.loss for i in with_loss], dtype=float)
    scores = gate_scores(with_loss, delta)
    base = random_risk(losses)
    res["random"] = {"risk": base, "aurc": base}
    oracle = expected_risk_curve(oracle_scores(losses), losses)
    res["oracle"] = {"aurc": oracle.area, "expected_curve": _curve_json(oracle)}
    m = len(with_loss)
    for name, sc in scores.items():
        pts = risk_coverage(sc, losses)
        at_c: dict[str, Any] = {}
        for c in coverages:
            p = risk_at(pts, c)
            row: dict[str, Any] = {"point": _pt(p)}
            if p is not None:
                acc = sc >= p.threshold
                apps = [
                    i.appropriate
                    for i, a in zip(with_loss, acc, strict=True)
                    if a and i.appropriate is not None
                ]
                row["reference_validity"] = float(np.mean(apps)) if apps else None
                row["cost"] = judge_cost(m, p.coverage, ce, cj)
            at_c[f"{c:g}"] = row
        expected = expected_risk_curve(sc, losses)
        res["gates"][name] = {
            "aurc": expected.area,
            "at": at_c,
            "curve": [[p.coverage, p.risk, p.threshold] for p in pts],
            "expected_curve": _curve_json(expected),
            "reachable_coverage": expected.reachable_coverage,
            "band": _band_json(sc, losses),
        }
    # Failure recall needs failure labels and the judge's flag on every labelled trace.
    fr_items = [i for i in with_loss if i.failure is not None and i.penalized is not None]
    if fr_items:
        f = np.array([i.failure for i in fr_items], dtype=float)
        flagged = np.array([bool(i.penalized) for i in fr_items], dtype=float)
        res["failure_recall"] = {}
        for name, sc in gate_scores(fr_items, delta).items():
            curve = failure_recall(sc, f, flagged)
            at: dict[str, float | None] = {}
            for c in coverages:
                at[f"{c:g}"] = next((r for cov, r in curve if cov >= c - 1e-12), None)
            res["failure_recall"][name] = {"curve": curve, "at": at}
            if (exp := expected_failure_recall(sc, f, flagged)) is not None:
                res["failure_recall"][name] |= {
                    "area": exp.area,
                    "expected_curve": _curve_json(exp),
                    "reachable_coverage": exp.reachable_coverage,
                }
        share = flagged_share(f, flagged)
        res["failure_recall_random"] = {
            f"{c:g}": float(c * share) if f.sum() else None for c in coverages
        }
        best = oracle_failure_recall(f, flagged)
        res["failure_recall_baselines"] = {
            "failures": int(f.sum()),
            "flagged_share": share if f.sum() else None,
            # Mean over k = 1..M of (k / M) x share.
            "random_area": share * (len(f) + 1) / (2 * len(f)) if f.sum() else None,
            "oracle": None
            if best is None
            else {"area": best.area, "expected_curve": _curve_json(best)},
        }
    # The cost curve over the fixed gate's thresholds.
    fixed = risk_coverage(scores["fixed (s*)"], losses)
    res["cost_curve"] = [
        [p.threshold, p.coverage, judge_cost(m, p.coverage, ce, cj)] for p in fixed
    ]
    res["cost_parameters"] = {"M": m, "Ce": ce, "Cj": cj, "all_judged": judge_cost(m, 1.0, ce, cj)}
    # Calibration of P̂ against appropriateness labels.
    cal = [i for i in with_loss if i.probability is not None and i.appropriate is not None]
    if cal:
        table, ece = reliability(
            [float(i.probability or 0.0) for i in cal], [float(i.appropriate or 0.0) for i in cal]
        )
        res["reliability"] = {"ece": ece, "bins": [asdict(b) for b in table]}
    return res


def retrieval_quality(
    js: list[Judgment], labels: list[LossLabel], ks: list[int]
) -> RetrievalQuality | None:
    relevant: dict[str, set[str]] = {}
    labelled: set[str] = set()
    by_id = {j.trace_id: j for j in js if j.trace_id}
    for lab in labels:
        if lab.appropriate is None:
            continue
        j = by_id.get(lab.trace_id)
        ref = lab.reference_id or (j.gate.reference_id if j and j.gate else None)
        if ref is None:
            continue
        labelled.add(lab.trace_id)
        if lab.appropriate:
            relevant.setdefault(lab.trace_id, set()).add(ref)
    rows = []
    for tid in sorted(labelled):
        j = by_id.get(tid)
        if j is None or j.gate is None:
            continue
        ranked = [c.reference_id for c in j.gate.candidates] or (
            [j.gate.reference_id] if j.gate.reference_id else []
        )
        rows.append((ranked, relevant.get(tid, set())))
    with_rel = [(r, rel) for r, rel in rows if rel]
    if not with_rel:
        return None
    return RetrievalQuality(
        queries=len(with_rel),
        without_appropriate_reference=len(rows) - len(with_rel),
        at={
            k: RankMetrics(
                hit=float(np.mean([hit_at_k(r, rel, k) for r, rel in with_rel])),
                mrr=float(np.mean([mrr_at_k(r, rel, k) for r, rel in with_rel])),
                ndcg=float(np.mean([ndcg_at_k(r, rel, k) for r, rel in with_rel])),
            )
            for k in ks
        },
    )


# --------------------------------------------------------------------------- rendering


def _f(x: Any, spec: str = ".3f") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return format(x, spec) if isinstance(x, float | int) else str(x)


def selective_lines(sel: dict[str, Any]) -> list[str]:
    """The risk-coverage, validity/cost, failure-recall and calibration tables."""
    lines: list[str] = []
    covs = list(next(iter(sel["gates"].values()))["at"])
    cp = sel["cost_parameters"]
    lines += [
        "## Risk–coverage",
        "",
        f"{sel['with_loss']} labelled traces with a loss. Random sampling at any "
        f"coverage has expected risk {_f(sel['random']['risk'])} (the base rate); "
        f"an oracle ordering reaches AURC {_f(sel['oracle']['aurc'])}.",
        "",
        "| gate | AURC | " + " | ".join(f"risk @ {c}" for c in covs) + " |",
        "|---|---|" + "---|" * len(covs),
    ]
    for name, g in sel["gates"].items():
        cells = []
        for c in covs:
            pt = g["at"][c]["point"]
            cells.append(
                "—" if pt is None else f"{_f(pt['risk'])} (cov {_f(pt['coverage'], '.2f')})"
            )
        lines.append(f"| {name} | {_f(g['aurc'])} | " + " | ".join(cells) + " |")
    lines.append(
        f"| random | {_f(sel['random']['aurc'])} | "
        + " | ".join(_f(sel["random"]["risk"]) for _ in covs)
        + " |"
    )
    lines += [
        "",
        "Reference validity and judge cost C = M·Ce + M·Cov·Cj at matched "
        f"coverage (M {cp['M']}, Ce {cp['Ce']:g}, Cj {cp['Cj']:g}; judging "
        f"everything costs {cp['all_judged']:.4f}):",
        "",
        "| gate | " + " | ".join(f"validity @ {c} | cost @ {c}" for c in covs) + " |",
        "|---|" + "---|---|" * len(covs),
    ]
    for name, g in sel["gates"].items():
        cells = []
        for c in covs:
            row = g["at"][c]
            cells += [_f(row.get("reference_validity")), _f(row.get("cost"), ".4f")]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if sel.get("failure_recall"):
        lines += [
            "",
            "Stream-level failure recall (failures evaluated and flagged / all failures):",
            "",
            "| gate | " + " | ".join(f"@ {c}" for c in covs) + " |",
            "|---|" + "---|" * len(covs),
        ]
        for name, fr in sel["failure_recall"].items():
            lines.append(f"| {name} | " + " | ".join(_f(fr["at"][c]) for c in covs) + " |")
        lines.append(
            "| random (expected) | "
            + " | ".join(_f(sel["failure_recall_random"][c]) for c in covs)
            + " |"
        )
    if sel.get("reliability"):
        lines += [
            "",
            f"Calibration of P̂ against appropriateness labels: ECE "
            f"{_f(sel['reliability']['ece'])}.",
        ]
    return lines


def markdown(rep: LabelledReport) -> str:
    s = rep.summary
    lines = [
        "# Cargo Monitor report",
        "",
        f"Judgments: {s.judgments} ("
        + ", ".join(f"{k} {v}" for k, v in sorted(s.status.items()))
        + "); "
        f"coverage (evaluated / valid) {_f(s.coverage)}; penalised "
        f"{s.penalized} ({_f(s.penalized_rate)} of evaluated); judge cost "
        f"{s.judge_cost_usd:.4f} USD.",
        "",
    ]
    for counts, title in (
        (s.abstentions, "Abstentions by reason"),
        (s.penalty_evidence, "Penalties by what they rest on"),
        (s.judge_errors, "Judge errors by kind"),
        (s.invalid, "Invalid traces by reason"),
    ):
        if counts:
            lines += [f"{title}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())), ""]
    if s.citations:
        c = s.citations
        lines += [
            f"Citations: {c.traces} traces, claim coverage {_f(c.coverage)}, "
            "findings " + (", ".join(f"{k} {v}" for k, v in sorted(c.findings.items())) or "none"),
            "",
        ]
    if rep.labels is not None and rep.unmatched_labels:
        lines += [
            f"{rep.unmatched_labels} of {rep.labels} labels match no judgment (their "
            "trace_id is in none): they are left out.",
            "",
        ]
    sel = rep.selective
    if sel and sel.get("gates"):
        lines += selective_lines(sel)
    elif rep.labels is not None:
        lines += [
            "No labelled trace has a usable loss (labels need loss, expert_penalized on "
            "an evaluated trace, or appropriate).",
            "",
        ]
    rq = rep.retrieval
    if rq:
        lines += [
            "",
            "## Retrieval quality of the gate's reference choice",
            "",
            f"{rq.queries} labelled queries with an appropriate reference "
            f"({rq.without_appropriate_reference} without one are left out).",
            "",
            "| K | Hit@K | MRR@K | NDCG@K |",
            "|---|---|---|---|",
        ]
        for k, m in rq.at.items():
            lines.append(f"| {k} | {_f(m.hit)} | {_f(m.mrr)} | {_f(m.ndcg)} |")
    lines += plot_lines(rep.plots or [])
    return "\n".join(lines) + "\n"


PLOT_CAPTIONS = {
    "risk_coverage.png": (
        "Risk–coverage",
        "Selective risk (share of wrong evaluations among the accepted traces) as each gate "
        "accepts more traces, best-scored first. Tied scores are taken in random order, in "
        "expectation: the curve is the one the AURC averages. The shade is a 95% bootstrap "
        "band. A dotted tail is coverage the gate cannot reach (margin-rejected traces, "
        "ranked last for the AURC). Random sampling is flat at the base rate; the oracle is "
        "the lowest curve possible. Lower is better.",
    ),
    "failure_recall.png": (
        "Failure recall–coverage",
        "Of all failures in the stream, the share that is evaluated and flagged at each "
        "coverage. Random sampling rises linearly to the judge's flagged share; the oracle "
        "takes the flagged failures first. Higher is better.",
    ),
    "reliability.png": (
        "Reliability of P̂",
        "Mean calibrated probability per bin against the observed share of appropriate "
        "references; on the diagonal is perfect calibration. The bars under it count the "
        "traces per bin: a bin of 2 says little.",
    ),
    "cost.png": (
        "Judge cost",
        "C = M·Ce + M·Cov·Cj as coverage grows; the marked points are each gate at the "
        "coverages this report was asked for.",
    ),
}


def plot_lines(names: list[str]) -> list[str]:
    """A Markdown section that shows each plot with a line on how to read it."""
    if not names:
        return []
    out = ["", "## Plots"]
    for name in names:
        title, how = PLOT_CAPTIONS.get(name, (name, ""))
        out += ["", f"![{title}]({name})", "", f"*{title}.* {how}".rstrip()]
    return out


GATE_WIDTHS = (3.2, 2.2, 1.4, 1.0, 1.0, 1.0)


def _draw_expected(
    ax: Any, curve: list[list[float]], reach: float, start: float | None = None, **kw: Any
) -> Any:
    """An expected curve from coverage 0 (at ``start``, else level with its first point):
    solid where the gate can go, dotted beyond (items it never accepts, ranked last)."""
    if not curve:
        return None
    xs = [0.0] + [c for c, _ in curve]
    ys = [curve[0][1] if start is None else start] + [v for _, v in curve]
    inside = [i for i, x in enumerate(xs) if x <= reach + 1e-12]
    (line,) = ax.plot([xs[i] for i in inside], [ys[i] for i in inside], **kw)
    if inside and inside[-1] < len(xs) - 1:
        rest = range(inside[-1], len(xs))
        ax.plot([xs[i] for i in rest], [ys[i] for i in rest], ":", color=line.get_color(), lw=1.2)
    return line.get_color()


def plots(rep: dict[str, Any], out: Path) -> list[str]:
    """PNG plots of a report's selective section; returns the file names written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sel = rep.get("selective") or {}
    made: list[str] = []

    def save(fig: Any, name: str) -> None:
        fig.savefig(out / name, dpi=110, bbox_inches="tight")
        plt.close(fig)
        made.append(name)

    def legend_below(ax: Any) -> None:
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2)

    if sel.get("gates"):
        fig, ax = plt.subplots(figsize=(6.4, 4.6))
        top = sel["random"]["risk"]
        # Widest first, so that a gate drawn over an identical one still shows.
        for (name, g), lw in zip(sel["gates"].items(), GATE_WIDTHS, strict=False):
            cur = g["expected_curve"]
            color = _draw_expected(
                ax, cur, g["reachable_coverage"], lw=lw, label=f"{name} (AURC {_f(g['aurc'])})"
            )
            top = max(top, *(v for _, v in cur))
            if band := g.get("band"):
                ax.fill_between(
                    band["coverage"], band["low"], band["high"], color=color, alpha=0.12, lw=0
                )
                top = max(top, *band["high"])
        _draw_expected(
            ax,
            sel["oracle"]["expected_curve"],
            1.0,
            ls="--",
            color="black",
            lw=1.2,
            label=f"oracle (AURC {_f(sel['oracle']['aurc'])})",
        )
        ax.axhline(
            sel["random"]["risk"],
            color="grey",
            lw=1.2,
            label=f"random = base rate {_f(sel['random']['risk'])} (AURC "
            f"{_f(sel['random']['aurc'])})",
        )
        ax.set_xlim(0, 1)
        ax.set_ylim(0, min(1.0, top * 1.1) if top > 0 else 1.0)
        ax.set_xlabel("coverage (share of labelled traces evaluated)")
        ax.set_ylabel("selective risk")
        ax.set_title(
            f"Risk–coverage ({sel['with_loss']} labelled traces; shaded: 95% bootstrap band)"
        )
        ax.grid(alpha=0.3)
        legend_below(ax)
        save(fig, "risk_coverage.png")

        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        cc = sel["cost_curve"]
        cp = sel["cost_parameters"]
        ax.plot(
            [0.0, 1.0],
            [judge_cost(cp["M"], c, cp["Ce"], cp["Cj"]) for c in (0.0, 1.0)],
            color="grey",
            lw=1,
            label="C(Cov)",
        )
        ax.plot(
            [c for _, c, _ in cc],
            [x for _, _, x in cc],
            ".",
            color="grey",
            ms=3,
            label="fixed-gate thresholds",
        )
        ax.axhline(
            cp["all_judged"],
            color="black",
            ls="--",
            lw=1,
            label=f"judge everything ({cp['all_judged']:.4g})",
        )
        for (name, g), marker in zip(sel["gates"].items(), "osD^v", strict=False):
            pts = [r for r in g["at"].values() if r["point"] is not None]
            ax.plot(
                [r["point"]["coverage"] for r in pts],
                [r["cost"] for r in pts],
                marker,
                ms=7,
                mfc="none",
                mew=1.5,
                label=f"{name} at " + ", ".join(g["at"]),
            )
        ax.set_xlim(0, 1.02)
        ax.set_ylim(0, cp["all_judged"] * 1.1 if cp["all_judged"] else 1)
        ax.set_xlabel("coverage Cov(τ)")
        ax.set_ylabel("C(τ) = M·Ce + M·Cov·Cj")
        ax.set_title(f"Judge cost (M {cp['M']}, Ce {cp['Ce']:g}, Cj {cp['Cj']:g})")
        ax.grid(alpha=0.3)
        legend_below(ax)
        save(fig, "cost.png")
    if sel.get("failure_recall"):
        fig, ax = plt.subplots(figsize=(6.4, 4.6))
        base = sel["failure_recall_baselines"]
        for (name, fr), lw in zip(sel["failure_recall"].items(), GATE_WIDTHS, strict=False):
            if "expected_curve" in fr:
                _draw_expected(
                    ax,
                    fr["expected_curve"],
                    fr["reachable_coverage"],
                    0.0,
                    lw=lw,
                    label=f"{name} (area {_f(fr['area'])})",
                )
        if base["oracle"] is not None:
            _draw_expected(
                ax,
                base["oracle"]["expected_curve"],
                1.0,
                0.0,
                ls="--",
                color="black",
                lw=1.2,
                label=f"oracle (area {_f(base['oracle']['area'])})",
            )
        if base["flagged_share"] is not None:
            ax.plot(
                [0, 1],
                [0, base["flagged_share"]],
                color="grey",
                lw=1.2,
                label=f"random = coverage × {_f(base['flagged_share'])} (area "
                f"{_f(base['random_area'])})",
            )
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("coverage (share of labelled traces evaluated)")
        ax.set_ylabel("stream-level failure recall")
        ax.set_title(f"Failure recall–coverage ({base['failures']} failures)")
        ax.grid(alpha=0.3)
        legend_below(ax)
        save(fig, "failure_recall.png")
    if sel.get("reliability"):
        fig, (ax, hx) = plt.subplots(
            2, 1, figsize=(5.2, 5.6), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
        )
        all_bins = sel["reliability"]["bins"]
        bins = [b for b in all_bins if b["n"]]
        total = sum(b["n"] for b in bins)
        ax.plot([0, 1], [0, 1], ":", color="grey", label="perfect calibration")
        ax.plot(
            [b["mean_p"] for b in bins],
            [b["observed"] for b in bins],
            "-",
            color="tab:blue",
            lw=1,
        )
        ax.scatter(
            [b["mean_p"] for b in bins],
            [b["observed"] for b in bins],
            s=[20 + 180 * b["n"] / total for b in bins],
            color="tab:blue",
            zorder=3,
            label="bin (area ∝ traces)",
        )
        ax.set_xlim(0, 1)
        ax.set_ylim(-0.02, 1.02)
        ax.set_ylabel("observed share appropriate")
        ax.set_title(
            f"Reliability of P̂ (ECE {_f(sel['reliability']['ece'])}, {total} traces, "
            f"{len(all_bins)} bins)"
        )
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
        width = [b["hi"] - b["lo"] for b in all_bins]
        bars = hx.bar(
            [b["lo"] for b in all_bins],
            [b["n"] for b in all_bins],
            width=width,
            align="edge",
            color="tab:blue",
            alpha=0.35,
            edgecolor="tab:blue",
        )
        hx.bar_label(bars, labels=[str(b["n"]) if b["n"] else "" for b in all_bins], fontsize=7)
        hx.set_ylim(0, max(b["n"] for b in all_bins) * 1.3)
        hx.set_xlabel("P̂ (calibrated probability the reference is appropriate)")
        hx.set_ylabel("traces")
        fig.tight_layout()
        save(fig, "reliability.png")
    return made


def html_page(md: str, out: Path, images: list[str]) -> str:
    """The report's Markdown as one self-contained HTML page; ``images`` are files in
    ``out`` (embedded where the Markdown shows them, else appended)."""
    title = next((ln[2:] for ln in md.splitlines() if ln.startswith("# ")), "Cargo Monitor report")
    return render_page(
        md,
        title=title,
        images={name: (out / name).read_bytes() for name in images},
        append=images,
    )


def build_report(
    judgments: list[Judgment],
    labels: list[LossLabel] | None,
    *,
    delta: float = 0.02,
    coverages: list[float] | None = None,
    cost_embed: float = 0.0001,
    cost_judge: float = 0.01,
    ks: list[int] | None = None,
    gate_model: Any = None,
) -> LabelledReport:
    if labels is None:
        return LabelledReport(format=REPORT_FORMAT, summary=summary(judgments), labels=None)
    by_id = {lab.trace_id: lab for lab in labels}
    judged = {j.trace_id for j in judgments}
    items = _items(judgments, by_id, gate_model)
    return LabelledReport(
        format=REPORT_FORMAT,
        summary=summary(judgments),
        labels=len(labels),
        unmatched_labels=sum(lab.trace_id not in judged for lab in labels),
        selective=selective(
            items,
            delta=delta,
            coverages=coverages or [0.5, 0.8, 0.95],
            ce=cost_embed,
            cj=cost_judge,
        ),
        retrieval=retrieval_quality(judgments, labels, ks or [1, 3, 5]),
    )


def main_report(
    judgments_path: Path,
    *,
    out: Path,
    labels: Path | None = None,
    gate_model: str | None = None,
    delta: float = 0.02,
    coverages: list[float] | None = None,
    cost_embed: float = 0.0001,
    cost_judge: float = 0.01,
    ks: list[int] | None = None,
) -> int:
    """Write report.md, report.json, report.html and the plots under ``out``."""
    # The inputs are read first (a bad file leaves no empty report folder behind), the
    # folder made before the work (a bad --out is one line).
    judgments = read_judgments(judgments_path)
    loss_labels = read_labels(labels) if labels else None
    model = load_gate_model(gate_model) if gate_model else None
    make_output_dir(out, "report")
    rep = build_report(
        judgments,
        loss_labels,
        delta=delta,
        coverages=coverages,
        cost_embed=cost_embed,
        cost_judge=cost_judge,
        ks=ks,
        gate_model=model,
    )
    drawn = plots({"selective": rep.selective}, out)
    rep = rep.model_copy(update={"plots": drawn})
    md = markdown(rep)
    (out / "report.md").write_text(md, encoding="utf-8")
    (out / "report.json").write_text(
        json.dumps(rep.model_dump(), indent=2, default=float) + "\n", encoding="utf-8"
    )
    (out / "report.html").write_text(html_page(md, out, drawn), encoding="utf-8")
    print(md)
    print(
        f"report: {out / 'report.md'}, {out / 'report.json'}, {out / 'report.html'}"
        + (f", {len(drawn)} plots" if drawn else "")
    )
    return 0
