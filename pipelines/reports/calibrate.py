"""``cargo-monitor calibrate``: fit the calibrated gate from labels and pick thresholds."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

from monitor.calibration import (
    CalibrationReport,
    Method,
    Thresholds,
    calibrate,
    features,
    read_label_rows,
)
from monitor.errors import ConfigError
from monitor.gate import save_gate_model
from monitor.golden import load_golden
from monitor.io import check_writable, write_output
from monitor.retrieval import GoldenIndex
from monitor.settings import CargoSettings


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
    for w in report.warnings:
        console.print(f"[yellow]warning:[/] {w}", markup=True, highlight=False)


def main_calibrate(
    settings: CargoSettings,
    *,
    labels: str,
    out: str,
    traces: str | None = None,
    method: Method | None = None,
    validities: Sequence[float] = (0.9, 0.95),
    coverages: Sequence[float] = (0.9,),
    set_validity: float | None = None,
    gamma: float = 0.8,
    json_out: str | None = None,
) -> int:
    """Fit the gate from ``labels``, print the thresholds, write the model to ``out``."""
    console = Console(width=None if sys.stdout.isatty() else 140)
    # Before any embedding or fitting: a bad output path is one line, in a second.
    check_writable(out, "gate model")
    check_writable(json_out, "calibration report")
    rows = read_label_rows(labels)
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
    if traces:
        path = Path(traces)
        if not path.exists():
            raise ConfigError(f"traces file not found: {path}")
        questions = {}
        for line in path.read_text(encoding="utf-8").split("\n"):
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
    feats = features(rows, index, questions, source=labels)
    report = calibrate(
        feats,
        method=method,
        validities=validities,
        coverages=coverages,
        set_validity=set_validity,
        gamma=gamma,
        embedding_model=embedding_model,
    )
    render(report, console)
    save_gate_model(report.model, out)
    console.print(
        f"gate model: {out} ({report.model.method}, gamma "
        f"{report.model.gamma:.4f}"
        + (
            ", per-intent "
            + ", ".join(f"{k} {v:.4f}" for k, v in sorted(report.model.per_intent_gamma.items()))
            if report.model.per_intent_gamma
            else ""
        )
        + ")"
    )
    if json_out:
        data = asdict(report)
        data["model"] = report.model.model_dump()
        write_output(json_out, json.dumps(data, indent=2) + "\n", "calibration report")
    return 0
