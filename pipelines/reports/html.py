"""Markdown to one self-contained HTML page (markdown-it-py), shared by every report.

Images that the Markdown references by a name found in ``images`` are embedded as
``data:`` URIs, so the page is one file that opens anywhere (a mail attachment, a CI
artifact, a phone). Tables sit in a horizontally scrolling box so that a wide table
never widens the page on a small screen.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from typing import Any

from markdown_it import MarkdownIt

__all__ = ["render_page"]

_MIME = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}

STYLE = """
:root{color-scheme:light;--fg:#1d2330;--muted:#5b6475;--line:#d9dde5;--head:#f3f5f8}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg)}
main{max-width:64rem;margin:0 auto;padding:1rem 1rem 3rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.25rem;margin:2rem 0 .5rem}
p,li{max-width:48rem;overflow-wrap:anywhere}
.table{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:1rem 0;border:1px solid var(--line)}
table{border-collapse:collapse;font-size:.9rem;font-variant-numeric:tabular-nums}
td,th{border-bottom:1px solid var(--line);padding:.3rem .6rem;text-align:right;white-space:nowrap}
td:first-child,th:first-child{text-align:left}
th{background:var(--head);position:sticky;top:0}
img{max-width:100%;height:auto;display:block;margin:1rem 0}
code{font-size:.9em;background:var(--head);padding:0 .2em}
em{color:var(--muted)}
@media (max-width:40rem){body{font-size:15px}main{padding:.75rem}td,th{padding:.25rem .4rem}}
""".strip()


def _data_uri(name: str, data: bytes) -> str:
    ext = name[name.rfind(".") :].lower() if "." in name else ""
    mime = _MIME.get(ext, "application/octet-stream")
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _parser() -> MarkdownIt:
    # CommonMark plus GFM tables; raw HTML in the Markdown is escaped, not passed through.
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def table_open(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        return '<div class="table">' + str(self.renderToken(tokens, idx, options, env))

    def table_close(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        return str(self.renderToken(tokens, idx, options, env)) + "</div>"

    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    return md


def render_page(
    markdown: str,
    *,
    title: str,
    images: Mapping[str, bytes] | None = None,
    append: Sequence[str] = (),
) -> str:
    """One HTML page from ``markdown``.

    ``images`` maps a name used in the Markdown (``![alt](name.png)``) to the file's
    bytes; those references become ``data:`` URIs. Names in ``append`` that the
    Markdown does not reference are added at the end as figures.
    """
    images = dict(images or {})
    md = _parser()
    env: dict[str, Any] = {}
    tokens = md.parse(markdown, env)
    used: set[str] = set()
    for tok in tokens:
        for child in tok.children or []:
            src = child.attrGet("src") if child.type == "image" else None
            if isinstance(src, str) and src in images:
                child.attrSet("src", _data_uri(src, images[src]))
                used.add(src)
    body = md.renderer.render(tokens, md.options, env)
    for name in append:
        if name in images and name not in used:
            alt = html.escape(name)
            body += (
                f'<figure><img alt="{alt}" src="{_data_uri(name, images[name])}">'
                f"<figcaption>{alt}</figcaption></figure>\n"
            )
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><main>\n{body}</main></body></html>\n"
    )
