"""MkDocs hook: the command reference comes from the parser itself.

A marker ``<!-- cli: run -->`` in a page stands for ``cargo-monitor run --help`` as the
installed parser prints it (``<!-- cli: bench run -->`` for a subcommand's own
subcommand), so the documented flags, groups and defaults are the code's. An unknown
command fails the build.

The page also carries that help as a plain text block after its marker, up to
``<!-- /cli -->``, so that it reads whole as plain Markdown (on GitHub, in an editor).
At build time the block is replaced with the parser's help again, so the site is never
stale; ``python docs/hooks/cli.py`` writes the blocks into the page, and a unit test
fails when the committed page and the parser disagree.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import sys
from pathlib import Path
from typing import Any

_MARKER = re.compile(
    r"<!--\s*cli:\s*([a-z][a-z -]*?)\s*-->(?:\n+```text\n.*?```\n<!-- /cli -->)?", re.DOTALL
)
PAGE = Path(__file__).resolve().parents[1] / "cli.md"


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise ValueError(f"cli marker names an unknown command {name!r}")


def help_text(words: str, portable_paths: bool = False) -> str:
    """``cargo-monitor WORDS --help`` as the parser prints it, at a fixed width;
    ``portable_paths``: with this machine's paths written as :func:`portable` does,
    before argparse wraps the lines (so that the page is the same on every machine)."""
    from pipelines.cli import build_parser

    # A fixed width, so that the page does not depend on the terminal of whoever built it.
    os.environ["COLUMNS"] = "96"
    parser = build_parser()
    for word in words.split():
        parser = _subparser(parser, word)
    if portable_paths:
        for action in parser._actions:
            if isinstance(action.help, str):
                action.help = portable(action.help)
            if isinstance(action.default, (str, Path)):
                action.default = portable(str(action.default))
    return parser.format_help()


def portable(text: str) -> str:
    """Help text without this machine's paths: the model and index cache as
    ``~/.cache/cargo-monitor`` (wherever ``XDG_CACHE_HOME`` puts it), the package's own
    files relative to the repository (``monitor/data/samples/traffic.jsonl``), the home
    folder as ``~``."""
    import monitor
    from monitor.settings import default_cache_dir

    root = Path(monitor.__file__).resolve().parents[1]
    text = text.replace(str(default_cache_dir()), "~/.cache/cargo-monitor")
    text = text.replace(f"{root}{os.sep}", "")
    home = str(Path.home())
    return text.replace(home, "~") if len(home) > 1 else text


def with_help(markdown: str) -> str:
    """The page with each marker followed by its command's help as a text block."""

    def block(m: re.Match[str]) -> str:
        text = help_text(m.group(1), portable_paths=True)
        return f"<!-- cli: {m.group(1)} -->\n\n```text\n{text}```\n<!-- /cli -->"

    return _MARKER.sub(block, markdown)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace every cli marker (and the block it carries) with the generated help."""

    def block(m: re.Match[str]) -> str:
        text = html.escape(help_text(m.group(1)))
        return f'<pre><code class="language-text">{text}</code></pre>'

    return _MARKER.sub(block, markdown)


if __name__ == "__main__":
    sys.path.insert(0, str(PAGE.parents[1]))
    PAGE.write_text(with_help(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
