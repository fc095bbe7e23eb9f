"""``cargo-monitor make-samples``: regenerate the bundled sample traffic."""

from __future__ import annotations

import argparse

from monitor.data import DEFAULT_SAMPLES


class MakeSamplesCommand:
    name = "make-samples"
    help = "regenerate the bundled sample traffic"

    def register(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--golden", default=None, help="golden set YAML (default: the bundled set)"
        )
        parser.add_argument(
            "--output", default=str(DEFAULT_SAMPLES), help="JSONL to write (default: %(default)s)"
        )
        parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")

    def run(self, args: argparse.Namespace) -> int:
        from pipelines.samples import main_samples

        return main_samples(args.golden, args.output, args.seed)


COMMAND = MakeSamplesCommand()
