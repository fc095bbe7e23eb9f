"""``cargo-monitor calibrate``: fit the calibrated gate from labels and pick thresholds."""

from __future__ import annotations

import argparse

from monitor.settings import CargoSettings
from pipelines.cli.base import add_settings_flags, option_group, settings_from_args, share


class CalibrateCommand:
    name = "calibrate"
    help = (
        "fit the calibrated gate from reference-appropriateness "
        "labels and pick tau / delta / gamma for a target validity or coverage"
    )

    def register(self, parser: argparse.ArgumentParser) -> None:
        inp = option_group(parser, "input")
        inp.add_argument(
            "--labels",
            required=True,
            help="JSONL rows: question | trace_id | similarity(+margin), optional "
            "reference_id and intent, appropriate 0/1",
        )
        inp.add_argument("--traces", help="JSONL traces to look up questions of trace_id rows")
        gate = option_group(parser, "gate")
        gate.add_argument(
            "--method",
            choices=["isotonic", "logistic"],
            help="default: the lower out-of-fold log-loss",
        )
        gate.add_argument(
            "--validity",
            type=share,
            action="append",
            dest="validities",
            help="target reference validity to report thresholds for; repeatable "
            "(default 0.9 and 0.95)",
        )
        gate.add_argument(
            "--coverage",
            type=share,
            action="append",
            dest="coverages",
            help="target coverage for the fixed and margin gates; repeatable (default 0.9)",
        )
        gate.add_argument(
            "--set-validity",
            type=share,
            help="write gamma (overall and per intent) reaching this validity into "
            "the model; otherwise gamma = --gamma",
        )
        gate.add_argument("--gamma", type=float, default=0.8, help="default 0.8")
        out = option_group(parser, "output")
        out.add_argument("--out", required=True, help="the gate model JSON to write")
        out.add_argument("--json", help="also write the calibration report as JSON")
        add_settings_flags(
            parser,
            CargoSettings,
            ["golden", "embedder", "batch_size", "embed_threads", "cache_dir"],
        )

    def run(self, args: argparse.Namespace) -> int:
        from pipelines.reports.calibrate import main_calibrate

        return main_calibrate(
            settings_from_args(CargoSettings, args),
            labels=args.labels,
            out=args.out,
            traces=args.traces,
            method=args.method,
            validities=tuple(args.validities or (0.9, 0.95)),
            coverages=tuple(args.coverages or (0.9,)),
            set_validity=args.set_validity,
            gamma=args.gamma,
            json_out=args.json,
        )


COMMAND = CalibrateCommand()
