"""MkDocs hook: the command reference comes from the parser itself.

A marker ``<!-- cli: run -->`` in a page is replaced by ``cargo-monitor run --help`` as
the installed parser prints it (``<!-- cli: bench run -->`` for a subcommand's own
subcommand), so the documented flags, groups and defaults are the code's. An unknown
command fails the build.
"""

from __future__ import annotations

import argparse
import html
import os
import re
from typing import Any

_MARKER = re.compile(r"<!--\s*cli:\s*([a-z][a-z -]*?)\s*-->")


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise ValueError(f"cli marker names an unknown command {name!r}")


def _help_block(words: str) -> str:
    from pipelines.cli import build_parser

    # A fixed width, so that the page does not depend on the terminal of whoever built it.
    os.environ["COLUMNS"] = "96"
    parser = build_parser()
    for word in words.split():
        parser = _subparser(parser, word)
    text = parser.format_help()
    return f'<pre><code class="language-text">{html.escape(text)}</code></pre>'


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace every cli marker in the page with that command's generated help."""
    return _MARKER.sub(lambda m: _help_block(m.group(1)), markdown)
