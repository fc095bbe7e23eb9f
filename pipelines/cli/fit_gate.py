"""``cargo-monitor fit-gate``: fit a calibrated gate model from labelled rows."""

from __future__ import annotations

import argparse


class FitGateCommand:
    name = "fit-gate"
    help = "fit a calibrated gate model from labelled rows"

    def register(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--labels",
            required=True,
            help="JSONL rows: similarity, margin, intent, appropriate (0/1)",
        )
        parser.add_argument("--method", choices=["isotonic", "logistic"], default="isotonic")
        parser.add_argument("--gamma", type=float, default=0.8, help="target P̂ threshold γ")
        parser.add_argument("--out", required=True, help="where to write the JSON gate model")

    def run(self, args: argparse.Namespace) -> int:
        import sys

        from monitor.calibration import one_class_intents
        from monitor.gate import fit_gate_model, read_calibration_rows, save_gate_model

        rows = read_calibration_rows(args.labels)
        model = fit_gate_model(rows, args.method, gamma=args.gamma)
        save_gate_model(model, args.out)
        print(
            f"{args.out}: {args.method} gate fitted on {model.fitted_rows} rows "
            f"({model.fitted_positives} appropriate), gamma {model.gamma}"
        )
        if args.method == "logistic":
            for w in one_class_intents(rows):
                print(f"{args.out}: warning: {w}", file=sys.stderr)
        return 0


COMMAND = FitGateCommand()
