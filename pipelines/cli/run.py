"""``cargo-monitor run``: evaluate traces from a file or stdin (the embedded default)."""

from __future__ import annotations

import argparse
import sys

from monitor.data import DEFAULT_OTLP_SAMPLES, DEFAULT_SAMPLES
from monitor.errors import ConfigError
from monitor.settings import CargoSettings
from pipelines.cli.base import add_settings_flags, option_group, settings_from_args
from pipelines.otel.settings import OtelSettings


def default_input(given: str | None, input_format: str) -> str:
    """``--input`` as given, else the bundled sample traffic (as OpenTelemetry spans with
    ``--input-format otlp-json``)."""
    if given is not None:
        return given
    return str(DEFAULT_OTLP_SAMPLES if input_format == "otlp-json" else DEFAULT_SAMPLES)


class RunCommand:
    name = "run"
    help = "evaluate traces from a file or stdin (embedded default)"

    def register(self, parser: argparse.ArgumentParser) -> None:
        inp = option_group(parser, "input")
        inp.add_argument(
            "--input",
            default=None,
            help="JSONL traces (or OTLP/JSON lines); '-' for stdin (default: the bundled "
            "sample traffic, as OpenTelemetry spans with --input-format otlp-json)",
        )
        inp.add_argument(
            "--follow",
            action="store_true",
            help="tail a growing input file, through its rotation (as tail -F); Ctrl-C or "
            "SIGTERM ends it with the summary",
        )
        out = option_group(parser, "output")
        out.add_argument(
            "--output",
            default="out/judgments.jsonl",
            help="judgments JSONL; '-' for stdout (default: out/judgments.jsonl)",
        )
        out.add_argument(
            "--keep-serving",
            action="store_true",
            help="after the input ends, keep serving /metrics until Ctrl-C",
        )
        out.add_argument("--no-progress", action="store_true", help="no progress bar")
        out.add_argument(
            "--otel-events-out",
            metavar="FILE",
            help="write the gen_ai.evaluation.result events of OpenTelemetry traces to "
            "FILE as OTLP/JSON lines (one ExportLogsServiceRequest per batch)",
        )
        add_settings_flags(parser, CargoSettings)
        add_settings_flags(parser, OtelSettings)

    def run(self, args: argparse.Namespace) -> int:
        from pipelines.embedded import main_run

        otel = settings_from_args(OtelSettings, args)
        if args.follow and args.input is None:
            # (The bundled sample never grows: it would be followed forever.)
            raise ConfigError("--follow tails a growing input: give it with --input FILE (or -)")
        input_path = default_input(args.input, otel.input_format)
        return main_run(
            settings_from_args(CargoSettings, args),
            input_path=input_path,
            output=args.output,
            follow=args.follow,
            keep_serving=args.keep_serving,
            progress=not args.no_progress and sys.stderr.isatty(),
            otel=otel,
            events_out=args.otel_events_out,
        )


COMMAND = RunCommand()
