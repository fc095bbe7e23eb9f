"""The ``cargo-monitor`` command line. Settings are read here and nowhere else.

One module per command, each exposing ``COMMAND`` (see :mod:`pipelines.cli.base` for the
contract); :data:`COMMANDS` is the explicit registry ``main`` dispatches through.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from pydantic import ValidationError

from monitor import __version__
from monitor.errors import CargoError
from pipelines.cli import (
    bench,
    calibrate,
    fit_gate,
    make_samples,
    replay,
    report,
    run,
    stream,
    topics,
    validate_golden,
)
from pipelines.cli.base import Command

__all__ = ["COMMANDS", "build_parser", "main"]

COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        run.COMMAND,
        validate_golden.COMMAND,
        fit_gate.COMMAND,
        stream.COMMAND,
        replay.COMMAND,
        topics.COMMAND,
        bench.COMMAND,
        calibrate.COMMAND,
        report.COMMAND,
        make_samples.COMMAND,
    )
}


class _Parser(argparse.ArgumentParser):
    """argparse, with an error that is the error: a command's usage runs to dozens of
    lines (every setting is a flag), which buried the one line that says what was wrong."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n(see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="cargo-monitor",
        description="Retrieval-gated, context-grounded monitor for agentic AI traffic.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS.values():
        command.register(sub.add_parser(command.name, help=command.help, description=command.help))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # Name the unknown flags, not the values after them: `--sasl-password VALUE`
        # must not end up in a log of stderr.
        names = " ".join(u.split("=", 1)[0] for u in unknown if u.startswith("-"))
        _command_parser(parser, args).error(
            f"unrecognized arguments: {names or f'{len(unknown)} value(s)'} "
            "(values not shown: one may be a secret)"
        )
    try:
        return COMMANDS[args.command].run(args)
    except CargoError as exc:
        print(f"cargo-monitor: error: {exc}", file=sys.stderr)
        return 2
    except ValidationError as exc:  # a settings model's own check (env or combined flags)
        print(f"cargo-monitor: error: {validation_text(exc)}", file=sys.stderr)
        return 2
    except (IsADirectoryError, NotADirectoryError, PermissionError) as exc:
        # A path given where a file is read or written (a folder, a file used as a
        # folder, no permission), wherever a command opens it: one line naming it.
        where = f"{exc.filename}: " if exc.filename is not None else ""
        print(f"cargo-monitor: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cargo-monitor: interrupted", file=sys.stderr)
        return 130


def _command_parser(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> argparse.ArgumentParser:
    """The parser of the command given (``bench run``, ``topics lag``), whose help
    lists the flags an unknown one was meant to be."""
    while True:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, sub.dest, None) if sub is not None else None
        if sub is None or name not in sub.choices:
            return parser
        parser = sub.choices[name]


def validation_text(exc: ValidationError) -> str:
    """The pydantic errors on one line (:func:`~monitor.errors.problem_lines`), a
    check of the whole model named by the model."""
    from monitor.errors import problem_lines

    return "; ".join(problem_lines(exc, lambda loc: ".".join(str(x) for x in loc) or exc.title))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
