"""``cargo-monitor report``: coverage, risk-coverage, failure recall, cost and retrieval
quality from judgments (and expert labels), as Markdown, JSON, PNG plots and one
self-contained HTML page."""

from __future__ import annotations

import argparse
import base64
import html
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
from monitor.io import read_jsonl_models
from monitor.schemas import Judgment
from monitor.selective import (
    CurvePoint,
    aurc,
    failure_recall,
    hit_at_k,
    judge_cost,
    mrr_at_k,
    ndcg_at_k,
    oracle_scores,
    random_curve,
    random_risk,
    reliability,
    risk_at,
    risk_coverage,
)

REPORT_FORMAT = "cargo-report/1"


def add_report_parser(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="coverage, risk-coverage, failure recall, cost and "
        "retrieval quality from judgments (+ expert labels)",
    )
    p.add_argument("--judgments", required=True, help="judgments JSONL (from run or stream)")
    p.add_argument(
        "--labels",
        help="JSONL per-trace labels: trace_id and any of loss, "
        "expert_penalized, failure, appropriate (+ reference_id)",
    )
    p.add_argument("--out", default="out/report", help="output directory (default out/report)")
    p.add_argument("--gate-model", help="calibrated gate model: P̂ for judgments that lack it")
    p.add_argument("--delta", type=float, default=0.02, help="margin gate δ (default 0.02)")
    p.add_argument(
        "--coverage",
        type=float,
        action="append",
        dest="coverages",
        help="coverages to report selective risk at; repeatable (default 0.5, 0.8, 0.95)",
    )
    p.add_argument(
        "--cost-embed",
        type=float,
        default=0.0001,
        help="Ce: cost of embedding + gating one trace (default 0.0001)",
    )
    p.add_argument(
        "--cost-judge",
        type=float,
        default=0.01,
        help="Cj: cost of judging one trace (default 0.01)",
    )
    p.add_argument(
        "--k",
        type=int,
        action="append",
        dest="ks",
        help="K for Hit@K / MRR@K / NDCG@K; repeatable (default 1, 3, 5)",
    )


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


def summary(js: list[Judgment]) -> dict[str, Any]:
    status = Counter(j.status for j in js)
    valid = len(js) - status["invalid"]
    evaluated = status["evaluated"]
    pen = sum(bool(j.penalized) for j in js if j.status == "evaluated")
    cost = sum(j.llm.cost_usd for j in js if j.llm is not None)
    cited = [j.citations for j in js if j.citations is not None]
    return {
        "judgments": len(js),
        "status": dict(status),
        "coverage": evaluated / valid if valid else None,
        "abstentions": dict(Counter(j.reason for j in js if j.status == "abstained")),
        "penalized": pen,
        "penalized_rate": pen / evaluated if evaluated else None,
        "judge_errors": dict(Counter(j.error.kind for j in js if j.error is not None)),
        "invalid": dict(Counter(j.reason for j in js if j.status == "invalid")),
        "judge_cost_usd": round(cost, 6),
        "citations": None
        if not cited
        else {
            "traces": len(cited),
            "findings": dict(Counter(f.category for c in cited for f in c.findings)),
            "coverage": (
                sum(c.covered for c in cited) / req
                if (req := sum(c.requiring for c in cited))
                else None
            ),
        },
    }


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
    res["oracle"] = {"aurc": aurc(oracle_scores(losses), losses)}
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
        res["gates"][name] = {
            "aurc": aurc(sc, losses),
            "at": at_c,
            "curve": [[p.coverage, p.risk, p.threshold] for p in pts],
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
        res["failure_recall_random"] = {
            f"{c:g}": float(c * (f * flagged).sum() / f.sum()) if f.sum() else None
            for c in coverages
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
) -> dict[str, Any] | None:
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
    out: dict[str, Any] = {
        "queries": len(with_rel),
        "without_appropriate_reference": len(rows) - len(with_rel),
    }
    for k in ks:
        out[f"hit@{k}"] = float(np.mean([hit_at_k(r, rel, k) for r, rel in with_rel]))
        out[f"mrr@{k}"] = float(np.mean([mrr_at_k(r, rel, k) for r, rel in with_rel]))
        out[f"ndcg@{k}"] = float(np.mean([ndcg_at_k(r, rel, k) for r, rel in with_rel]))
    return out


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


def markdown(rep: dict[str, Any]) -> str:
    s = rep["summary"]
    lines = [
        "# Cargo Monitor report",
        "",
        f"Judgments: {s['judgments']} ("
        + ", ".join(f"{k} {v}" for k, v in sorted(s["status"].items()))
        + "); "
        f"coverage (evaluated / valid) {_f(s['coverage'])}; penalised "
        f"{s['penalized']} ({_f(s['penalized_rate'])} of evaluated); judge cost "
        f"{s['judge_cost_usd']:.4f} USD.",
        "",
    ]
    for key, title in (
        ("abstentions", "Abstentions by reason"),
        ("judge_errors", "Judge errors by kind"),
        ("invalid", "Invalid traces by reason"),
    ):
        if s[key]:
            lines += [f"{title}: " + ", ".join(f"{k} {v}" for k, v in sorted(s[key].items())), ""]
    if s["citations"]:
        c = s["citations"]
        lines += [
            f"Citations: {c['traces']} traces, claim coverage {_f(c['coverage'])}, "
            "findings "
            + (", ".join(f"{k} {v}" for k, v in sorted(c["findings"].items())) or "none"),
            "",
        ]
    sel = rep.get("selective")
    if sel and sel.get("gates"):
        lines += selective_lines(sel)
    elif rep.get("labels") is not None:
        lines += [
            "No labelled trace has a usable loss (labels need loss, expert_penalized on "
            "an evaluated trace, or appropriate).",
            "",
        ]
    rq = rep.get("retrieval")
    if rq:
        ks = [k.split("@")[1] for k in rq if k.startswith("hit@")]
        lines += [
            "",
            "## Retrieval quality of the gate's reference choice",
            "",
            f"{rq['queries']} labelled queries with an appropriate reference "
            f"({rq['without_appropriate_reference']} without one are left out).",
            "",
            "| K | Hit@K | MRR@K | NDCG@K |",
            "|---|---|---|---|",
        ]
        for k in ks:
            lines.append(
                f"| {k} | {_f(rq[f'hit@{k}'])} | {_f(rq[f'mrr@{k}'])} | {_f(rq[f'ndcg@{k}'])} |"
            )
    if rep.get("plots"):
        lines += ["", "Plots: " + ", ".join(f"[{p}]({p})" for p in rep["plots"])]
    return "\n".join(lines) + "\n"


def plots(rep: dict[str, Any], out: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sel = rep.get("selective") or {}
    made: list[str] = []

    def save(
        fig: Any, ax: Any, name: str, labels: tuple[str, str, str], legend: bool = False
    ) -> None:
        ax.set_xlabel(labels[0])
        ax.set_ylabel(labels[1])
        ax.set_title(labels[2])
        if legend:
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(out / name, dpi=110)
        plt.close(fig)
        made.append(name)

    if sel.get("gates"):
        fig, ax = plt.subplots(figsize=(6, 4))
        for name, g in sel["gates"].items():
            cov = [c for c, _, _ in g["curve"]]
            risk = [r for _, r, _ in g["curve"]]
            ax.step(cov, risk, where="post", label=f"{name} (AURC {_f(g['aurc'])})")
        covs = np.linspace(0.05, 1.0, 20)
        ax.plot(
            covs,
            random_curve(rep["_losses"], list(covs)),
            ":",
            label=f"random (risk {_f(sel['random']['risk'])})",
        )
        save(
            fig,
            ax,
            "risk_coverage.png",
            ("coverage", "selective risk", "Risk–coverage"),
            legend=True,
        )
        fig, ax = plt.subplots(figsize=(6, 4))
        cc = sel["cost_curve"]
        ax.plot([c for _, c, _ in cc], [x for _, _, x in cc], marker=".")
        save(fig, ax, "cost.png", ("coverage Cov(τ)", "C(τ) = M·Ce + M·Cov·Cj", "Judge cost"))
    if sel.get("failure_recall"):
        fig, ax = plt.subplots(figsize=(6, 4))
        for name, fr in sel["failure_recall"].items():
            ax.step(
                [c for c, _ in fr["curve"]], [r for _, r in fr["curve"]], where="post", label=name
            )
        save(
            fig,
            ax,
            "failure_recall.png",
            ("coverage", "stream-level failure recall", "Failure recall–coverage"),
            legend=True,
        )
    if sel.get("reliability"):
        fig, ax = plt.subplots(figsize=(4.5, 4.5))
        bins = [b for b in sel["reliability"]["bins"] if b["n"]]
        ax.plot([0, 1], [0, 1], ":", color="grey")
        ax.plot([b["mean_p"] for b in bins], [b["observed"] for b in bins], marker="o")
        save(
            fig,
            ax,
            "reliability.png",
            (
                "mean P̂",
                "observed appropriate",
                f"Reliability (ECE {_f(sel['reliability']['ece'])})",
            ),
        )
    return made


def html_page(md: str, out: Path, images: list[str]) -> str:
    """Markdown (tables, headings, paragraphs) to one self-contained HTML page."""
    body: list[str] = []
    table: list[str] = []

    def flush() -> None:
        if not table:
            return
        rows = [r.strip().strip("|").split("|") for r in table if not set(r) <= set("|-: ")]
        body.append("<table>")
        for k, cells in enumerate(rows):
            tag = "th" if k == 0 else "td"
            body.append(
                "<tr>"
                + "".join(f"<{tag}>{html.escape(c.strip())}</{tag}>" for c in cells)
                + "</tr>"
            )
        body.append("</table>")
        table.clear()

    for line in md.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("Plots:"):
            continue
        if line.startswith("## "):
            body.append(f"<h2>{html.escape(line[3:])}</h2>")
        elif line.startswith("# "):
            body.append(f"<h1>{html.escape(line[2:])}</h1>")
        elif line.strip():
            body.append(f"<p>{html.escape(line)}</p>")
    flush()
    for name in images:
        data = base64.b64encode((out / name).read_bytes()).decode()
        body.append(
            f'<figure><img alt="{name}" src="data:image/png;base64,{data}">'
            f"<figcaption>{name}</figcaption></figure>"
        )
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:"
        "collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:"
        "right}th{background:#f4f4f4}img{max-width:100%}"
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>Cargo Monitor report"
        f"</title><style>{style}</style></head><body>{''.join(body)}</body></html>\n"
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
) -> dict[str, Any]:
    rep: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "summary": summary(judgments),
        "labels": None if labels is None else len(labels),
    }
    if labels is not None:
        by_id = {lab.trace_id: lab for lab in labels}
        items = _items(judgments, by_id, gate_model)
        rep["unmatched_labels"] = len(set(by_id) - {j.trace_id for j in judgments})
        rep["selective"] = selective(
            items,
            delta=delta,
            coverages=coverages or [0.5, 0.8, 0.95],
            ce=cost_embed,
            cj=cost_judge,
        )
        rep["_losses"] = [i.loss for i in items if i.loss is not None]
        rep["retrieval"] = retrieval_quality(judgments, labels, ks or [1, 3, 5])
    return rep


def main_report(args: argparse.Namespace) -> int:
    judgments = read_judgments(Path(args.judgments))
    labels = read_labels(Path(args.labels)) if args.labels else None
    model = load_gate_model(args.gate_model) if args.gate_model else None
    rep = build_report(
        judgments,
        labels,
        delta=args.delta,
        coverages=args.coverages,
        cost_embed=args.cost_embed,
        cost_judge=args.cost_judge,
        ks=args.ks,
        gate_model=model,
    )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rep["plots"] = plots(rep, out)
    rep.pop("_losses", None)
    md = markdown(rep)
    (out / "report.md").write_text(md, encoding="utf-8")
    (out / "report.json").write_text(
        json.dumps(rep, indent=2, default=float) + "\n", encoding="utf-8"
    )
    (out / "report.html").write_text(html_page(md, out, rep["plots"]), encoding="utf-8")
    print(md)
    print(
        f"report: {out / 'report.md'}, {out / 'report.json'}, {out / 'report.html'}"
        + (f", {len(rep['plots'])} plots" if rep["plots"] else "")
    )
    return 0
