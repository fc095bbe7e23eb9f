"""Cargo-Bench seeds: templated golden items with typed parameters.

A seed file is YAML with a ``seeds`` list (format in the README). A seed path
may be one file or a directory of ``*.yaml``/``*.yml`` files (sorted by name).
Every problem is reported with its file and seed id.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError, model_validator

from monitor.errors import GoldenSetError
from monitor.schemas import GoldenItem, GoldenSet, ParamSpec

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
SeedParamType = Literal["digits", "alnum", "date", "enum", "integer", "money"]


class SeedParam(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: SeedParamType
    label: str | None = None
    length: int | None = Field(default=None, ge=1, le=64)
    values: tuple[str, ...] | None = None
    start: str | None = None
    end: str | None = None
    min: float | None = None
    max: float | None = None
    currency: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> SeedParam:
        if self.type == "enum" and (not self.values or len(self.values) < 2):
            raise ValueError("an enum parameter needs at least two 'values'")
        if self.type in ("digits", "alnum") and self.length is None:
            raise ValueError(f"a {self.type} parameter needs 'length'")
        if self.type == "alnum" and self.length is not None and self.length < 2:
            raise ValueError("an alnum parameter needs length >= 2 (a letter and a digit)")
        if self.type in ("integer", "money") and (self.min is None or self.max is None):
            raise ValueError(f"a {self.type} parameter needs 'min' and 'max'")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError("'min' is greater than 'max'")
        return self


class Rewrite(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    from_: StrictStr = Field(alias="from", min_length=1)
    to: StrictStr


class Seed(BaseModel):
    model_config = ConfigDict(frozen=True, extra="allow")

    id: StrictStr = Field(min_length=1)
    intent: StrictStr = Field(min_length=1)
    agent: StrictStr = Field(min_length=1)
    question: StrictStr = Field(min_length=1)
    answer: StrictStr = Field(min_length=1)
    parameters: dict[str, SeedParam] = Field(default_factory=dict)
    golden: dict[str, StrictStr] = Field(default_factory=dict)
    observed_fields: tuple[str, ...] = ()
    extra_fields: dict[str, SeedParam] = Field(default_factory=dict)
    steps: tuple[str, ...] = ()
    negations: tuple[Rewrite, ...] = ()
    policy_alternatives: tuple[Rewrite, ...] = ()
    paraphrases: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _golden_as_text(cls, data: Any) -> Any:
        # YAML reads 215474133 as an int; the golden instance is text.
        if isinstance(data, dict) and isinstance(data.get("golden"), dict):
            data = {**data, "golden": {k: str(v) for k, v in data["golden"].items()}}
        return data

    def problems(self) -> list[str]:
        out: list[str] = []
        templates = {
            "question": self.question,
            "answer": self.answer,
            **{f"paraphrases.{k}": p for k, p in enumerate(self.paraphrases)},
            **{f"steps.{k}": s for k, s in enumerate(self.steps)},
        }
        for where, text in templates.items():
            for name in PLACEHOLDER.findall(text):
                if name not in self.parameters:
                    out.append(f"{where}: placeholder {{{name}}} is not a parameter")
        for name in self.parameters:
            if name not in self.golden:
                out.append(f"golden: no value for parameter {name!r}")
        for name, value in self.golden.items():
            spec = self.parameters.get(name)
            if spec is None:
                out.append(f"golden: {name!r} is not a parameter")
            elif spec.type == "enum" and value not in (spec.values or ()):
                out.append(f"golden.{name}: {value!r} is not one of its values")
        for name in self.observed_fields:
            if name not in self.parameters:
                out.append(f"observed_fields: {name!r} is not a parameter")
        if self.parameters and not self.observed_fields:
            out.append("observed_fields: an entity-bearing seed needs at least one")
        answer_fields = set(PLACEHOLDER.findall(self.answer))
        for name in self.extra_fields:
            if name in answer_fields or name in self.parameters:
                out.append(f"extra_fields: {name!r} is a field of the answer template")
        for k, step in enumerate(self.steps):
            if step not in self.answer:
                out.append(f"steps.{k}: not a sentence of the answer template")
        for kind, rewrites in (
            ("negations", self.negations),
            ("policy_alternatives", self.policy_alternatives),
        ):
            for k, rw in enumerate(rewrites):
                if rw.from_ not in self.answer:
                    out.append(f"{kind}.{k}: {rw.from_!r} does not occur in the answer")
                if rw.from_ == rw.to:
                    out.append(f"{kind}.{k}: 'to' equals 'from'")
        return out

    def render(self, template: str, values: dict[str, str]) -> str:
        return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)

    def golden_item(self) -> GoldenItem:
        """The seed's reference: the golden values rendered, parameters annotated."""
        answer = self.render(self.answer, self.golden)
        question = self.render(self.question, self.golden)
        params: dict[str, ParamSpec] = {}
        used = set(PLACEHOLDER.findall(self.answer)) | set(PLACEHOLDER.findall(self.question))
        for name, spec in self.parameters.items():
            if name not in used:
                continue
            params[name] = ParamSpec(
                value=self.golden[name],
                type=spec.type,
                label=spec.label or None,
                values=spec.values,
                length=spec.length,
                min=spec.min,
                max=spec.max,
                currency=spec.currency,
            )
        return GoldenItem(
            id=self.id,
            intent=self.intent,
            agent=self.agent,
            question=question,
            answer=answer,
            parameters=params,
            steps=tuple(self.render(s, self.golden) for s in self.steps),
        )


def seed_files(path: str | Path) -> list[Path]:
    p = Path(path)
    if p.is_dir():
        files = sorted([*p.glob("*.yaml"), *p.glob("*.yml")])
        if not files:
            raise GoldenSetError([f"{p}: no *.yaml seed files in this directory"])
        return files
    if not p.exists():
        raise GoldenSetError([f"{p}: file not found"])
    return [p]


def load_seeds(path: str | Path) -> list[Seed]:
    """All seeds under ``path``, validated; every problem is reported at once."""
    problems: list[str] = []
    seeds: list[tuple[Path, Seed]] = []
    for f in seed_files(path):
        try:
            raw = yaml.safe_load(f.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            problems.append(f"{f}: not valid YAML: {exc}")
            continue
        if not isinstance(raw, dict) or not isinstance(raw.get("seeds"), list):
            problems.append(f"{f}: top level must be a mapping with a 'seeds' list")
            continue
        for n, entry in enumerate(raw["seeds"]):
            ident = entry.get("id") if isinstance(entry, dict) else None
            where = f"{f}: seed {ident!r}" if ident else f"{f}: seed #{n + 1}"
            try:
                seed = Seed.model_validate(entry)
            except ValidationError as exc:
                problems.extend(
                    f"{where}: {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()
                )
                continue
            problems.extend(f"{where}: {p}" for p in seed.problems())
            seeds.append((f, seed))
    for ident, count in Counter(s.id for _, s in seeds).items():
        if count > 1:
            files = sorted({str(f) for f, s in seeds if s.id == ident})
            problems.append(f"seed {ident!r}: duplicate id in {', '.join(files)}")
    if problems:
        raise GoldenSetError(problems)
    return [s for _, s in seeds]


def bench_golden_set(seeds: list[Seed], version: str = "cargo-bench") -> GoldenSet:
    return GoldenSet(version=version, items=tuple(s.golden_item() for s in seeds))
