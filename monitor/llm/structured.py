"""Structured output: strict JSON schemas to send, and lenient JSON to read back."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel

from monitor.errors import JudgeError

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


def strictify(node: Any) -> None:
    """Make a JSON schema strict in place: closed objects, every key required, no titles
    (what ``response_format`` with ``strict: true`` accepts)."""
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            node["additionalProperties"] = False
            node["required"] = list(node["properties"])
        node.pop("title", None)
        for v in node.values():
            strictify(v)
    elif isinstance(node, list):
        for v in node:
            strictify(v)


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The strict JSON schema of a pydantic model."""
    schema = model.model_json_schema()
    strictify(schema)
    return schema


def extract_json(text: str) -> dict[str, Any]:
    """The first JSON object in ``text``: bare, fenced, or inside prose.

    Raises ``JudgeError('empty')`` for blank text and ``JudgeError('unparseable')``
    when no JSON object can be read.
    """
    if not text or not text.strip():
        raise JudgeError("empty", "the judge returned no content")
    candidates = [text.strip(), *(m.group(1).strip() for m in _FENCE.finditer(text))]
    for cand in candidates:
        try:
            value = json.loads(cand)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    decoder = json.JSONDecoder()
    for m in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, m.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    preview = text.strip().replace("\n", " ")[:120]
    raise JudgeError("unparseable", f"no JSON object in the judge's output: {preview!r}")
