"""MkDocs hook: the JSON schemas on the formats page come from the pydantic models.

A marker ``<!-- schema: Name -->`` in a page is replaced by the JSON schema of
``monitor.schemas.Name`` (``model_json_schema()``), folded in a ``<details>``
block, so the documented formats are generated from the code at every build and
cannot drift from it. An unknown name fails the build.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

SCHEMA_MODELS = ("Trace", "GoldenSet", "Judgment", "CitationBundle")
_MARKER = re.compile(r"<!--\s*schema:\s*([A-Za-z_][A-Za-z0-9_]*)\s*-->")


def _schema_block(name: str) -> str:
    from monitor import schemas

    if name not in SCHEMA_MODELS:
        raise ValueError(f"schema marker names {name!r}; known: {', '.join(SCHEMA_MODELS)}")
    model = getattr(schemas, name)
    text = json.dumps(model.model_json_schema(), indent=2, ensure_ascii=False)
    return (
        f"<details><summary>JSON schema of <code>{name}</code> "
        f"(generated from <code>monitor.schemas.{name}</code>)</summary>\n"
        f'<pre><code class="language-json">{html.escape(text)}</code></pre>\n'
        "</details>"
    )


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace every schema marker in the page with the model's generated schema."""
    return _MARKER.sub(lambda m: _schema_block(m.group(1)), markdown)
