"""``cargo-monitor validate-golden``: load a golden set and report problems."""

from __future__ import annotations

import argparse


class ValidateGoldenCommand:
    name = "validate-golden"
    help = "validate a golden set and report problems"

    def register(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("path", help="golden set YAML")

    def run(self, args: argparse.Namespace) -> int:
        from monitor.golden import item_notes, load_golden, set_notes
        from monitor.text.lexicon import counted

        gs = load_golden(args.path)
        phrasings = sum(len(i.phrasings) for i in gs.items)
        print(
            f"{args.path}: OK, version {gs.version}, {counted(len(gs.items), 'item')}, "
            f"{sum(i.entity_bearing for i in gs.items)} entity-bearing, "
            f"{counted(phrasings, 'question phrasing')}"
        )
        # Notes, not problems: the set loads and runs as it is.
        for note in set_notes(gs):
            print(f"{args.path}: note: {note}")
        for item in gs.items:
            for note in item_notes(item):
                print(f"{args.path}: note: item {item.id!r}: {note}")
        return 0


COMMAND = ValidateGoldenCommand()
