"""``cargo-monitor report``: selective-prediction report from judgments (+ expert labels)."""

from __future__ import annotations

import argparse
from pathlib import Path

from pipelines.cli.base import non_negative, option_group, share


class ReportCommand:
    name = "report"
    help = (
        "coverage, risk-coverage, failure recall, cost and "
        "retrieval quality from judgments (+ expert labels)"
    )

    def register(self, parser: argparse.ArgumentParser) -> None:
        inp = option_group(parser, "input")
        inp.add_argument("--judgments", required=True, help="judgments JSONL (from run or stream)")
        inp.add_argument(
            "--labels",
            help="JSONL per-trace labels: trace_id and any of loss, "
            "expert_penalized, failure, appropriate (+ reference_id)",
        )
        gate = option_group(parser, "gate")
        gate.add_argument(
            "--gate-model", help="calibrated gate model: P̂ for judgments that lack it"
        )
        gate.add_argument("--delta", type=float, default=0.02, help="margin gate δ (default 0.02)")
        out = option_group(parser, "output")
        out.add_argument(
            "--out", default="out/report", help="output directory (default out/report)"
        )
        out.add_argument(
            "--coverage",
            type=share,
            action="append",
            dest="coverages",
            help="coverages to report selective risk at; repeatable (default 0.5, 0.8, 0.95)",
        )
        out.add_argument(
            "--cost-embed",
            type=non_negative,
            default=0.0001,
            help="Ce: cost of embedding + gating one trace (default 0.0001)",
        )
        out.add_argument(
            "--cost-judge",
            type=non_negative,
            default=0.01,
            help="Cj: cost of judging one trace (default 0.01)",
        )
        out.add_argument(
            "--k",
            type=int,
            action="append",
            dest="ks",
            help="K for Hit@K / MRR@K / NDCG@K; repeatable (default 1, 3, 5)",
        )

    def run(self, args: argparse.Namespace) -> int:
        from pipelines.reports.report import main_report

        return main_report(
            Path(args.judgments),
            out=Path(args.out),
            labels=Path(args.labels) if args.labels else None,
            gate_model=args.gate_model,
            delta=args.delta,
            coverages=args.coverages,
            cost_embed=args.cost_embed,
            cost_judge=args.cost_judge,
            ks=args.ks,
        )


COMMAND = ReportCommand()
