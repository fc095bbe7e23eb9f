"""``cargo-monitor calibrate``: fit the calibrated gate from labels and pick thresholds."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from monitor.calibration import (
    CalibrationReport,
    Thresholds,
    calibrate,
    features,
    read_label_rows,
)
from monitor.errors import ConfigError
from monitor.gate import save_gate_model
from monitor.golden import load_golden
from monitor.retrieval import GoldenIndex
from pipelines.cli.options import settings_from


def add_calibrate_parser(sub: Any) -> None:
    p = sub.add_parser(
        "calibrate",
        help="fit the calibrated gate from reference-appropriateness "
        "labels and pick tau / delta / gamma for a target validity or coverage",
    )
    p.add_argument(
        "--labels",
        required=True,
        help="JSONL rows: question | trace_id | similarity(+margin), optional "
        "reference_id and intent, appropriate 0/1",
    )
    p.add_argument("--traces", help="JSONL traces to look up questions of trace_id rows")
    p.add_argument("--golden", help="golden set YAML (default: the bundled techsupport set)")
    p.add_argument("--embedder", choices=["minilm", "hashing"])
    p.add_argument("--cache-dir")
    p.add_argument(
        "--method", choices=["isotonic", "logistic"], help="default: the lower out-of-fold log-loss"
    )
    p.add_argument(
        "--validity",
        type=float,
        action="append",
        dest="validities",
        help="target reference validity to report thresholds for; repeatable "
        "(default 0.9 and 0.95)",
    )
    p.add_argument(
        "--coverage",
        type=float,
        action="append",
        dest="coverages",
        help="target coverage for the fixed and margin gates; repeatable (default 0.9)",
    )
    p.add_argument(
        "--set-validity",
        type=float,
        help="write gamma (overall and per intent) reaching this validity into "
        "the model; otherwise gamma = --gamma",
    )
    p.add_argument("--gamma", type=float, default=0.8)
    p.add_argument("--out", required=True, help="the gate model JSON to write")
    p.add_argument("--json", help="also write the calibration report as JSON")


def _fmt(x: float | None, spec: str = ".3f") -> str:
    return "—" if x is None else format(x, spec)


def _row(name: str, t: Thresholds) -> list[str]:
    extra = ", ".join(f"{k} {_fmt(v)}" for k, v in t.extra.items())
    return [
        name,
        _fmt(t.target, ".2f"),
        _fmt(t.threshold, ".4f") + (f" ({extra})" if extra else ""),
        _fmt(t.coverage),
        _fmt(t.validity),
    ]


def render(report: CalibrationReport, console: Console) -> None:
    console.print(
        f"{report.rows} labelled rows ({report.positives} appropriate); method "
        f"[bold]{report.method}[/] ({report.chosen_by}); out-of-fold log-loss "
        + ", ".join(f"{m} {v:.4f}" for m, v in report.oof_log_loss.items())
        + f"; ECE {_fmt(report.ece)}"
    )
    rel = Table(title="Reliability (out-of-fold P̂, 10 bins)")
    for h in ("P̂ bin", "n", "mean P̂", "observed appropriate"):
        rel.add_column(h, justify="right")
    for b in report.reliability:
        if b.n:
            rel.add_row(f"[{b.lo:.1f}, {b.hi:.1f}]", str(b.n), _fmt(b.mean_p), _fmt(b.observed))
    console.print(rel)
    t = Table(title="Thresholds (coverage and validity measured on these labels)")
    for h in ("gate / target", "target", "threshold", "coverage", "validity"):
        t.add_column(h, justify="left" if h == "gate / target" else "right")
    for th in report.calibrated:
        t.add_row(*_row("calibrated γ for validity", th))
    for it, ths in sorted(report.per_intent.items()):
        for th in ths:
            t.add_row(*_row(f"  intent {it}", th))
    for th in report.fixed_validity:
        t.add_row(*_row("fixed τ for validity", th))
    for th in report.fixed_coverage:
        t.add_row(*_row("fixed τ for coverage", th))
    for th in report.margin_validity:
        t.add_row(*_row("margin τ, δ for validity", th))
    for th in report.margin_coverage:
        t.add_row(*_row("margin τ, δ for coverage", th))
    console.print(t)


def main_calibrate(args: argparse.Namespace) -> int:
    console = Console(width=None if sys.stdout.isatty() else 140)
    rows = read_label_rows(args.labels)
    settings = settings_from(args)
    needs_index = any(r.similarity is None for _, r in rows)
    index = None
    embedding_model = None
    if needs_index:
        from monitor.embeddings import make_embedder

        embedder = make_embedder(
            settings.embedder, batch_size=settings.batch_size, threads=settings.embed_threads
        )
        index = GoldenIndex(load_golden(settings.golden), embedder, cache_dir=settings.cache_dir)
        embedding_model = embedder.model_id
    questions = None
    if args.traces:
        path = Path(args.traces)
        if not path.exists():
            raise ConfigError(f"traces file not found: {path}")
        questions = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                d = json.loads(line)
            except json.JSONDecodeError:
                continue
            if (
                isinstance(d, dict)
                and isinstance(d.get("trace_id"), str)
                and isinstance(d.get("question"), str)
            ):
                questions[d["trace_id"]] = d["question"]
    feats = features(rows, index, questions, source=args.labels)
    report = calibrate(
        feats,
        method=args.method,
        validities=args.validities or (0.9, 0.95),
        coverages=args.coverages or (0.9,),
        set_validity=args.set_validity,
        gamma=args.gamma,
        embedding_model=embedding_model,
    )
    render(report, console)
    save_gate_model(report.model, args.out)
    console.print(
        f"gate model: {args.out} ({report.model.method}, gamma "
        f"{report.model.gamma:.4f}"
        + (
            ", per-intent "
            + ", ".join(f"{k} {v:.4f}" for k, v in sorted(report.model.per_intent_gamma.items()))
            if report.model.per_intent_gamma
            else ""
        )
        + ")"
    )
    if args.json:
        data = asdict(report)
        data["model"] = report.model.model_dump()
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0
