"""The mapping file: what the GenAI / OpenInference conventions leave open.

A YAML file validated at start-up (:func:`load_mapping`); every error names its key::

    version: 1
    intent_attribute: app.intent          # span attribute with the intent (root first)
    citations_attribute: app.citations    # JSON CitationBundle (sources, claims)
    context_attributes:                   # span/resource attribute -> context field
      app.case_number: case_number
    tool_results:
      as_context: true                    # tool JSON results become live context
      include: ["get_*"]                  # tool names (glob) counted as facts; empty = all
      exclude: ["search_web"]
      rename:                             # per tool: result field -> context field
        get_case: {state: status}
    ignore_span_names: ["health*"]        # spans dropped before assembly (glob)

The defaults (:data:`DEFAULT_MAPPING`) work for a plain instrumented OpenAI agent: no
intent or citations attribute, every tool's JSON result becomes context.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from monitor.errors import ConfigError


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolResultsMapping(_Frozen):
    """How tool results become live context (the facts the judge checks against)."""

    as_context: bool = Field(
        default=True, description="turn tool results into context fields at all"
    )
    include: tuple[str, ...] = Field(
        default=(), description="tool names (glob patterns) whose results are facts; () = all"
    )
    exclude: tuple[str, ...] = Field(default=(), description="tool names (glob) never facts")
    rename: dict[str, dict[str, str]] = Field(
        default_factory=dict, description="per tool name: result field -> context field"
    )
    prefix_with_tool: bool = Field(
        default=False, description="always name fields '<tool>.<field>' (no clash possible)"
    )
    max_depth: int = Field(
        default=2, ge=1, le=5, description="nested objects flatten to 'a.b' up to this depth"
    )

    @field_validator("include", "exclude")
    @classmethod
    def _non_empty_patterns(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        for p in patterns:
            if not p.strip():
                raise ValueError("a tool name pattern is empty")
        return patterns

    @field_validator("rename")
    @classmethod
    def _non_empty_names(cls, rename: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        for tool, fields in rename.items():
            for src, dst in fields.items():
                if not src.strip() or not dst.strip():
                    raise ValueError(f"{tool}: field names must not be empty")
        return rename

    def counts(self, tool: str | None) -> bool:
        """Whether results of ``tool`` become context."""
        if not self.as_context:
            return False
        name = tool or ""
        if any(fnmatchcase(name, p) for p in self.exclude):
            return False
        return not self.include or any(fnmatchcase(name, p) for p in self.include)


class OtelMapping(_Frozen):
    """Validated content of a mapping file (closed: a misspelt key is an error)."""

    version: Literal[1] = 1
    intent_attribute: str | None = Field(
        default=None, min_length=1, description="attribute carrying the intent (root first)"
    )
    citations_attribute: str | None = Field(
        default=None, min_length=1, description="attribute carrying a JSON citation bundle"
    )
    context_attributes: dict[str, str] = Field(
        default_factory=dict, description="span or resource attribute -> context field"
    )
    tool_results: ToolResultsMapping = Field(default_factory=ToolResultsMapping)
    ignore_span_names: tuple[str, ...] = Field(
        default=(), description="span names (glob) dropped before assembly"
    )

    def ignored(self, span_name: str) -> bool:
        return any(fnmatchcase(span_name, p) for p in self.ignore_span_names)


DEFAULT_MAPPING = OtelMapping()


def parse_mapping(data: object, *, source: str = "mapping") -> OtelMapping:
    """Validate an already-loaded mapping document; errors name the key."""
    if data is None:
        return DEFAULT_MAPPING
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the mapping file must be a YAML mapping at the top")
    try:
        return OtelMapping.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in err['loc']) or '(top)'}: {err['msg']}"
            for err in exc.errors()
        ]
        raise ConfigError(f"{source}: invalid mapping:\n  " + "\n  ".join(problems)) from exc


def load_mapping(path: str | Path | None) -> OtelMapping:
    """Read and validate a mapping file; ``None`` gives the defaults."""
    if path is None:
        return DEFAULT_MAPPING
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the mapping file: {exc}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{p}: not valid YAML: {exc}") from exc
    return parse_mapping(data, source=str(p))
