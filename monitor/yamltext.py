"""YAML read with its numbers kept as written.

A golden set or a seed file writes values the judge reads as text: an order number, a
boat's length, a version. YAML's own typing would turn ``value: 9`` into the number 9
(refused where text is expected), ``value: 0123`` into 83 (an octal number) and
``version: 2026.10`` into 2026.1. Read here, an int or a float scalar stays the text it
was written as; fields that take a number (``length``, ``min``, ``max``) read that text
as the number, as they would a quoted one. Booleans, nulls, dates and everything else
are read as YAML reads them.
"""

from __future__ import annotations

from typing import Any

import yaml


class _NumbersAsWritten(yaml.SafeLoader):
    """SafeLoader, but for int and float scalars, which stay their source text."""


def _as_written(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    assert isinstance(node, yaml.ScalarNode)
    return loader.construct_scalar(node)


_NumbersAsWritten.add_constructor("tag:yaml.org,2002:int", _as_written)
_NumbersAsWritten.add_constructor("tag:yaml.org,2002:float", _as_written)


def load_yaml(text: str) -> Any:
    """Parse ``text`` as YAML (safely), its int and float scalars kept as written."""
    return yaml.load(text, Loader=_NumbersAsWritten)
