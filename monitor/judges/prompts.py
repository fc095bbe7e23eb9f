"""LLM judge prompts as data: conditions and rubrics, validated and rendered here.

``conditions.yaml`` and ``rubrics.yaml`` (next to this module) hold every word the
judge is told. This module validates them with frozen models and renders one
request into two chat messages:

* the **system** message: the condition's instructions, the rubric's dimension
  definitions, the data rule and the output rule -- no trace content at all;
* the **user** message: the trace as delimited data blocks. The delimiter carries a
  tag derived from a hash of the block contents, so a producer cannot close a block
  early by writing the delimiter into an answer (it would have to contain the hash
  of itself), and any text resembling a delimiter is defanged anyway.

The prompt hash recorded on judgments covers the rendered system message template
(condition + rubric + shared rules), so two runs with the same hash were told the
same thing.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from monitor.errors import ConfigError
from monitor.judges.base import JudgeRequest
from monitor.schemas import DIMENSIONS

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
CONDITIONS_FILE = PROMPTS_DIR / "conditions.yaml"
RUBRICS_FILE = PROMPTS_DIR / "rubrics.yaml"

THREE_WAY = ("supported", "contradicted", "unverifiable")
BINARY = ("supported", "unsupported")
SUPPORT = ("supported", "contradicted", "unsupported")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Rubric(_Frozen):
    name: str
    version: str = Field(min_length=1)
    description: str = ""
    dimensions: dict[str, str]

    def model_post_init(self, _: Any) -> None:
        if set(self.dimensions) != set(DIMENSIONS):
            raise ValueError(
                f"rubric {self.name!r} must define exactly {', '.join(DIMENSIONS)}"
                f" (has {', '.join(sorted(self.dimensions))})"
            )


class ReferenceBlock(_Frozen):
    label: str = Field(min_length=1)
    note: str


class ContextBlock(_Frozen):
    note: str


class Condition(_Frozen):
    name: str
    version: str = Field(min_length=1)
    description: str = ""
    rubric: str
    preamble: str = Field(min_length=1)
    reference: ReferenceBlock | None
    context: ContextBlock | None
    claim_status: Literal["three_way", "binary"]
    claim_rules: str
    authority_rule: str | None = None

    @property
    def statuses(self) -> tuple[str, ...]:
        return THREE_WAY if self.claim_status == "three_way" else BINARY


class CommonRules(_Frozen):
    data_rule: str
    output_rule: str


class SupportTask(_Frozen):
    version: str = Field(min_length=1)
    instructions: str
    output_rule: str


class PromptLibrary(_Frozen):
    common: CommonRules
    conditions: dict[str, Condition]
    rubrics: dict[str, Rubric]
    citation_support: SupportTask | None = None


class RenderedPrompt(_Frozen):
    system: str
    user: str
    condition: str
    prompt_version: str
    prompt_hash: str
    statuses: tuple[str, ...]
    task: Literal["verdict", "citation_support"] = "verdict"


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"prompt file not found: {path}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    return data


def load_library(
    conditions_file: Path = CONDITIONS_FILE, rubrics_file: Path = RUBRICS_FILE
) -> PromptLibrary:
    """Read and validate the prompt data; every problem names its file and key."""
    cdata, rdata = _read_yaml(conditions_file), _read_yaml(rubrics_file)
    try:
        rubrics = {
            name: Rubric(name=name, **body) for name, body in (rdata.get("rubrics") or {}).items()
        }
        conditions = {
            name: Condition(name=name, **body)
            for name, body in (cdata.get("conditions") or {}).items()
        }
        common = CommonRules(**(cdata.get("common") or {}))
        support = (
            SupportTask(**cdata["citation_support"]) if cdata.get("citation_support") else None
        )
    except (ValidationError, TypeError, ValueError) as exc:
        raise ConfigError(
            f"{conditions_file} / {rubrics_file}: invalid prompt data: {exc}"
        ) from exc
    for c in conditions.values():
        if c.rubric not in rubrics:
            raise ConfigError(
                f"{conditions_file}: condition {c.name!r} names unknown rubric {c.rubric!r}"
            )
    return PromptLibrary(
        common=common, conditions=conditions, rubrics=rubrics, citation_support=support
    )


@lru_cache(maxsize=1)
def default_library() -> PromptLibrary:
    return load_library()


class PromptRenderer:
    """Renders requests for one condition and rubric."""

    def __init__(
        self,
        condition: str = "cargo",
        rubric: str | None = None,
        library: PromptLibrary | None = None,
    ) -> None:
        lib = library or default_library()
        if condition not in lib.conditions:
            raise ConfigError(
                f"unknown judge condition {condition!r}; choose one of: "
                f"{', '.join(sorted(lib.conditions))}"
            )
        self.condition = lib.conditions[condition]
        rubric_name = rubric or self.condition.rubric
        if rubric_name not in lib.rubrics:
            raise ConfigError(
                f"unknown rubric {rubric_name!r}; choose one of: {', '.join(sorted(lib.rubrics))}"
            )
        self.rubric = lib.rubrics[rubric_name]
        self.common = lib.common
        self.support = lib.citation_support
        self.system = self._system()
        self.prompt_version = (
            f"{self.condition.name}@{self.condition.version}"
            f"+{self.rubric.name}@{self.rubric.version}"
        )
        self.prompt_hash = hashlib.sha256(self.system.encode("utf-8")).hexdigest()[:16]

    @property
    def statuses(self) -> tuple[str, ...]:
        return self.condition.statuses

    def _system(self) -> str:
        c = self.condition
        parts = [c.preamble]
        if c.reference is not None:
            parts.append(c.reference.note)
        if c.context is not None:
            parts.append(c.context.note)
        parts.append(c.claim_rules)
        if c.authority_rule:
            parts.append(c.authority_rule)
        parts.append(
            "Score these dimensions, each in [0, 1] (1 is best):\n"
            + "\n".join(f"- {dim}: {self.rubric.dimensions[dim]}" for dim in DIMENSIONS)
        )
        parts.append(self.common.data_rule)
        statuses = ", ".join(f'"{s}"' for s in c.statuses)
        parts.append(self.common.output_rule.replace("{statuses}", statuses))
        return "\n\n".join(p.strip() for p in parts)

    def render(self, request: JudgeRequest) -> RenderedPrompt:
        t = request.trace
        blocks: list[tuple[str, str]] = [("QUESTION", t.question), ("LIVE ANSWER", t.answer)]
        if self.condition.context is not None:
            blocks.append(
                (
                    "LIVE CONTEXT",
                    json.dumps(t.observed(), ensure_ascii=False, indent=1, sort_keys=True),
                )
            )
        if self.condition.reference is not None:
            blocks.append((self.condition.reference.label, request.reference.answer))
        user = _blocks(blocks)
        return RenderedPrompt(
            system=self.system,
            user=user,
            condition=self.condition.name,
            prompt_version=self.prompt_version,
            prompt_hash=self.prompt_hash,
            statuses=self.statuses,
        )

    @property
    def support_version(self) -> str:
        if self.support is None:
            raise ConfigError("the prompt library has no 'citation_support' task")
        return f"citation_support@{self.support.version}"

    def render_support(self, claim: str, passage: str) -> RenderedPrompt:
        """The per-citation support check: one claim against the one passage it cites."""
        task = self.support
        if task is None:
            raise ConfigError("the prompt library has no 'citation_support' task")
        system = "\n\n".join(
            p.strip() for p in (task.instructions, self.common.data_rule, task.output_rule)
        )
        user = _blocks([("CLAIM", claim), ("CITED PASSAGE", passage)])
        return RenderedPrompt(
            system=system,
            user=user,
            condition="citation_support",
            prompt_version=self.support_version,
            prompt_hash=hashlib.sha256(system.encode("utf-8")).hexdigest()[:16],
            statuses=SUPPORT,
            task="citation_support",
        )


def _blocks(blocks: list[tuple[str, str]]) -> str:
    """Delimited data blocks; the tag is a hash of their (defanged) content."""
    clean = [(name, _defang(text)) for name, text in blocks]
    tag = hashlib.sha256(json.dumps(clean, ensure_ascii=False).encode()).hexdigest()[:12]
    return "\n\n".join(
        f"<<<BEGIN {name} {tag}>>>\n{text}\n<<<END {name} {tag}>>>" for name, text in clean
    )


_DELIMITER = re.compile(r"<{3,}|>{3,}")


def _defang(text: str) -> str:
    """Break any run of three or more angle brackets so no data can look like a delimiter."""
    return _DELIMITER.sub(lambda m: " ".join(m.group(0)), text)
