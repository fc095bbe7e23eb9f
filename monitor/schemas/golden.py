"""The golden set: reference items with their annotated instance values."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any

from pydantic import (
    Field,
    SerializerFunctionWrapHandler,
    StrictStr,
    field_validator,
    model_serializer,
    model_validator,
)

from monitor.schemas.base import ParamType, _Frozen
from monitor.text.tokens import contains_run

# --------------------------------------------------------------------------- golden set


class ParamSpec(_Frozen):
    """One annotated instance-specific value of a reference answer."""

    value: StrictStr = Field(min_length=1)
    type: ParamType = "text"
    label: str | None = None
    values: tuple[str, ...] | None = None
    length: int | None = Field(default=None, ge=1)
    min: float | None = None
    max: float | None = None
    currency: str | None = None

    @model_validator(mode="after")
    def _enum_has_values(self) -> ParamSpec:
        if self.type == "enum" and not self.values:
            raise ValueError("an enum parameter needs 'values'")
        if self.type == "enum" and self.values and self.value not in self.values:
            raise ValueError(f"value {self.value!r} is not one of its enum values")
        return self


def value_shape_problem(type_: str, length: int | None, value: str) -> str | None:
    """Why a ``digits``/``alnum``/``time`` value does not have its declared shape (None
    when it does): digits only, and the declared ``length``; a time of day. The judge
    tells a field's values by that shape ("a letters-and-digits code of 8"), so a
    reference value of another length would not be read as the field's."""
    if type_ == "time":
        from monitor.values import normalize_time  # local: values imports models

        if normalize_time(value) is None:
            return f"{value!r} is not a time of day (14:20, 2:20 pm)"
        return None
    if type_ not in ("digits", "alnum"):
        return None
    if type_ == "digits" and not (value.isascii() and value.isdigit()):
        return f"{value!r} is not all digits"
    if length is not None and len(value) != length:
        return f"{value!r} has {len(value)} characters, not its length {length}"
    return None


_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def _words(text: str) -> list[str]:
    """Words (case, punctuation, quotes, dashes and Unicode form aside)."""
    plain = unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH).casefold()
    return re.findall(r"\w+", plain)


class GoldenItem(_Frozen):
    """A reference question/answer pair with its own instance values annotated."""

    id: StrictStr = Field(min_length=1)
    intent: StrictStr = Field(min_length=1)
    agent: StrictStr = Field(min_length=1)
    question: StrictStr
    question_paraphrases: tuple[StrictStr, ...] = Field(
        default=(),
        description=(
            "more ways users ask the same question; retrieval scores the item by the "
            "best of its phrasings. Optional; left out of the serialised item when "
            "empty, so that sets without it keep their content hash."
        ),
    )
    answer: StrictStr
    parameters: dict[str, ParamSpec] = Field(default_factory=dict)
    steps: tuple[str, ...] = ()
    policy_terms: tuple[StrictStr, ...] = Field(
        default=(),
        description=(
            "terms of the answer that carry policy (e.g. 'direct deposit', 'one business "
            "day'); each occurs in the answer. Optional; left out of the serialised item "
            "when empty, so that sets without it keep their content hash."
        ),
    )

    @model_validator(mode="after")
    def _steps_in_answer(self) -> GoldenItem:
        # A step is a sentence of the answer, or a part of one: one that is not was
        # taken as covered whenever an answer repeated the exemplar. Compared word for
        # word, whatever the case, punctuation, quotes, dashes or Unicode form.
        answer = _words(self.answer)
        for k, step in enumerate(self.steps):
            words = _words(step)
            if not contains_run(answer, words):
                raise ValueError(
                    f"steps.{k}: {step!r} does not occur in the answer (a step is a "
                    "sentence of the answer, or a part of one, word for word)"
                )
        return self

    @model_validator(mode="after")
    def _policy_terms_in_answer(self) -> GoldenItem:
        # (Case aside, as the steps are compared: a term may open a sentence.)
        answer = self.answer.casefold()
        for term in self.policy_terms:
            if not term.strip() or term.casefold() not in answer:
                raise ValueError(
                    f"policy_terms: {term!r} does not occur in the answer (case aside)"
                )
        return self

    @model_serializer(mode="wrap")
    def _omit_empty_optionals(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            for name in ("policy_terms", "question_paraphrases"):
                if not getattr(self, name):
                    data.pop(name, None)
        return data

    @property
    def phrasings(self) -> tuple[str, ...]:
        """The question, then its paraphrases: every wording retrieval matches."""
        return (self.question, *self.question_paraphrases)

    @field_validator("parameters", mode="before")
    @classmethod
    def _shorthand(cls, raw: Any) -> Any:
        # ``caseNumber: "215474133"`` is shorthand for ``{value: "215474133"}``
        # with the type inferred from the value's shape.
        if not isinstance(raw, dict):
            return raw
        out: dict[str, Any] = {}
        for name, spec in raw.items():
            if isinstance(spec, str | int | float) and not isinstance(spec, bool):
                text = str(spec)
                out[name] = {"value": text, "type": infer_param_type(text)}
            else:
                out[name] = spec
        return out

    @property
    def entity_bearing(self) -> bool:
        return bool(self.parameters)


class GoldenSet(_Frozen):
    version: StrictStr = Field(min_length=1)
    items: tuple[GoldenItem, ...]

    def content_hash(self) -> str:
        """A stable hash of the set's content (keys the embedding cache)."""
        blob = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]

    @property
    def intents(self) -> tuple[str, ...]:
        return tuple(sorted({i.intent for i in self.items}))

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(sorted({i.agent for i in self.items}))


def infer_param_type(text: str) -> ParamType:
    """Guess a parameter's type from the shape of its value."""
    from monitor.values import shape_of  # local: values imports models

    return shape_of(text)


# --------------------------------------------------------------------------- judgments
