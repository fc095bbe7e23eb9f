"""The command reference's Markdown carries each command's help as the parser prints it
(docs/cli.md reads whole without a docs build): `make cli-docs` rewrites it, and this
test fails when a flag, a default or a help line changed and the page was not rewritten."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

PAGE = Path(__file__).resolve().parents[3] / "docs" / "cli.md"


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cli_hook", PAGE.parent / "hooks" / "cli.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_command_marker_carries_its_help() -> None:
    page = PAGE.read_text(encoding="utf-8")
    markers = re.findall(r"<!--\s*cli:\s*([a-z][a-z -]*?)\s*-->", page)
    blocks = re.findall(r"<!--\s*cli:\s*[a-z][a-z -]*?\s*-->\n\n```text\nusage: ", page)
    assert len(markers) >= 10
    assert len(blocks) == len(markers)


def test_the_page_says_what_the_parser_says() -> None:
    # (Compared word by word: a path of another length wraps argparse's lines elsewhere.)
    page = PAGE.read_text(encoding="utf-8")
    assert _hook().with_help(page).split() == page.split(), "run `make cli-docs`"


def test_the_site_build_replaces_the_block_with_fresh_help() -> None:
    page = PAGE.read_text(encoding="utf-8")
    built = _hook().on_page_markdown(page, None, None, None)
    assert "<!-- /cli -->" not in built and "```text\nusage:" not in built
    assert built.count('<pre><code class="language-text">usage: cargo-monitor') == len(
        re.findall(r"<!--\s*cli:", page)
    )
