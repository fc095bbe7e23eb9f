"""Cargo-Bench seeds: templated golden items with typed parameters.

A seed file is YAML with a ``seeds`` list (format in ``docs/seed-format.md``). A
seed path may be one file or a directory of ``*.yaml``/``*.yml`` files (sorted by
name). Every problem is reported with its file and seed id.

Answer paraphrases may carry *span markup* so that the corruptions made on the
golden wording (deleted step, negated rule, swapped policy) can be made on a
paraphrase too::

    [[step:TEXT]]          the paraphrase's wording of the next golden step
    [[step2:TEXT]]         ... of golden step 2 (1-based), when stated out of order
    [[rule:TEXT]]          a rule that a negation flips (the general negation rules)
    [[rule:TEXT|NEGATED]]  ... with its negated wording given
    [[policy:TEXT|OTHER]]  a policy phrase and a different policy in its place
    [[policy:TEXT]]        ... where TEXT is the ``from`` of a policy alternative

Rule and policy spans may sit inside a step span; nothing else nests. The
markup is stripped on loading: :attr:`Seed.paraphrases` holds the plain texts
and :attr:`Seed.marked_paraphrases` the texts as written;
:meth:`Seed.paraphrase_bases` gives the parsed spans.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictStr,
    ValidationError,
    model_serializer,
    model_validator,
)

from monitor.errors import GoldenSetError
from monitor.schemas import GoldenItem, GoldenSet, ParamSpec
from monitor.schemas.golden import value_shape_problem
from monitor.yamltext import load_yaml

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
SeedParamType = Literal["digits", "alnum", "date", "enum", "integer", "money", "time"]
SpanKind = Literal["step", "rule", "policy"]
_OPEN = re.compile(r"\[\[(step|rule|policy)(\d*):")
_ANY_OPEN = re.compile(r"\[\[([^\]:|]*):?")
# A list marker left alone on its line once a bulleted step is deleted.
_BARE_MARKER = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])?\s*$")
_SEED_FIELDS_NEW = ("policy_terms", "question_paraphrases", "marked_paraphrases")


class MarkupError(ValueError):
    """Span markup that does not parse; the message says where."""


@dataclass(frozen=True)
class Span:
    """One marked span of a paraphrase template.

    ``start``/``end`` are offsets into the plain template (markup stripped,
    placeholders kept). ``alt`` is the negated wording of a rule or the other
    policy of a policy span, when given. ``step`` is the 0-based index of the
    golden step a step span states.
    """

    kind: SpanKind
    start: int
    end: int
    text: str
    alt: str | None = None
    step: int | None = None


@dataclass(frozen=True)
class MarkedText:
    """A paraphrase template with its markup parsed."""

    source: str
    text: str
    spans: tuple[Span, ...]

    def of_kind(self, kind: SpanKind) -> tuple[Span, ...]:
        return tuple(s for s in self.spans if s.kind == kind)

    def step_span(self, step: int) -> Span | None:
        """The span stating golden step ``step`` (0-based), if marked."""
        return next((s for s in self.spans if s.kind == "step" and s.step == step), None)

    def replace(self, span: Span, new: str) -> str:
        """The template with ``span``'s text replaced by ``new``."""
        return self.text[: span.start] + new + self.text[span.end :]

    def delete(self, span: Span) -> str:
        """The template without ``span``: spaces around it collapse, and a line left
        empty or holding only a list marker ("- ", "2.") goes with it."""
        before, after = self.text[: span.start], self.text[span.end :]
        line_start = before.rfind("\n") + 1
        nl = after.find("\n")
        line_end = len(after) if nl < 0 else nl
        if _BARE_MARKER.match(before[line_start:] + after[:line_end]):
            if nl >= 0:
                return _tidy_spaces(before[:line_start] + after[nl + 1 :])
            return _tidy_spaces(before[: max(0, line_start - 1)])
        return _tidy_spaces(before.rstrip(" ") + " " + after.lstrip(" "))


def _tidy_spaces(text: str) -> str:
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r" +([,.;:!?])", r"\1", text)
    return re.sub(r"[ \t]+\n", "\n", text).strip()


def _at(source: str, pos: int) -> str:
    """Where ``pos`` is in a marked text, for an error: its line and column (from 1)
    and the text there ("line 2, column 7: '...[[Step:open...'")."""
    line = source.count("\n", 0, pos) + 1
    column = pos - (source.rfind("\n", 0, pos) + 1) + 1
    near = source[max(0, pos - 12) : pos + 16].replace("\n", " ")
    return f"line {line}, column {column}: {near!r}"


def parse_markup(source: str) -> MarkedText:
    """Parse span markup (module docstring). Raises :class:`MarkupError`."""
    plain: list[str] = []
    spans: list[Span] = []
    pos = 0
    # Open spans: kind, explicit step number, plain offset, alt (None until "|").
    stack: list[tuple[SpanKind, int | None, int, list[str] | None]] = []
    opened: list[int] = []  # where each open span's "[[" stands in the source
    length = 0
    next_step = 0
    numbered: set[bool] = set()
    while pos < len(source):
        if source.startswith("[[", pos):
            m = _OPEN.match(source, pos)
            if m is None:
                bad = _ANY_OPEN.match(source, pos)
                name = bad.group(1) if bad else ""
                raise MarkupError(
                    f"unknown span {name!r} at {_at(source, pos)} (known: step, stepN, rule, "
                    "policy)"
                )
            kind: SpanKind = m.group(1)  # type: ignore[assignment]
            if m.group(2) and kind != "step":
                raise MarkupError(
                    f"only a step span takes a number ('{m.group(0)}' at {_at(source, pos)})"
                )
            if stack and (stack[-1][0] != "step" or kind == "step"):
                raise MarkupError(
                    f"a {kind} span cannot sit inside a {stack[-1][0]} span (at "
                    f"{_at(source, pos)}); "
                    "only rule and policy spans nest, inside a step span"
                )
            if stack and stack[-1][3] is not None:
                raise MarkupError(f"span inside an alternative (at {_at(source, pos)})")
            number = int(m.group(2)) if m.group(2) else None
            stack.append((kind, number, length, None))
            opened.append(pos)
            pos = m.end()
            continue
        if source.startswith("]]", pos):
            if not stack:
                raise MarkupError(f"']]' at {_at(source, pos)} closes no span")
            kind, number, start, alt_parts = stack.pop()
            opened.pop()
            text = "".join(plain)[start:length]
            alt = None if alt_parts is None else "".join(alt_parts)
            if not text.strip():
                raise MarkupError(f"empty {kind} span (closed at {_at(source, pos)})")
            if alt is not None and not alt.strip():
                raise MarkupError(f"empty alternative in the {kind} span {text!r}")
            if alt is not None and alt.strip() == text.strip():
                raise MarkupError(f"the {kind} span {text!r} has itself as alternative")
            step = None
            if kind == "step":
                numbered.add(number is not None)
                if number is not None and number < 1:
                    raise MarkupError(f"step numbers start at 1 ('step{number}' in {text!r})")
                step = number - 1 if number is not None else next_step
                next_step += 1
            spans.append(Span(kind, start, length, text, alt, step))
            pos += 2
            continue
        ch = source[pos]
        if ch == "|" and stack:
            kind, number, start, alt_parts = stack[-1]
            if kind == "step":
                raise MarkupError(f"a step span takes no '|' alternative (at {_at(source, pos)})")
            if alt_parts is not None:
                raise MarkupError(f"a second '|' in one {kind} span (at {_at(source, pos)})")
            stack[-1] = (kind, number, start, [])
            pos += 1
            continue
        if stack and stack[-1][3] is not None:
            stack[-1][3].append(ch)
        else:
            plain.append(ch)
            length += 1
        pos += 1
    if stack:
        raise MarkupError(f"unclosed {stack[-1][0]} span (opened at {_at(source, opened[-1])})")
    if len(numbered) > 1:
        raise MarkupError("number every step span of a paraphrase (stepN) or none")
    spans.sort(key=lambda s: (s.start, -s.end))
    return MarkedText(source=source, text="".join(plain), spans=tuple(spans))


def strip_markup(source: str) -> str:
    """The plain text of a marked paraphrase (raises :class:`MarkupError`)."""
    return parse_markup(source).text


def has_markup(text: str) -> bool:
    return "[[" in text or "]]" in text


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
    # A misspelt key is an error, not a field quietly left out ("paraphrase:" would
    # drop P6, P2p and P4p without a word).
    model_config = ConfigDict(frozen=True, extra="forbid")

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
    policy_terms: tuple[StrictStr, ...] = ()
    question_paraphrases: tuple[StrictStr, ...] = ()
    # The paraphrases as written, with span markup; empty when none has markup.
    # ``paraphrases`` then holds the plain texts (what P6 renders).
    marked_paraphrases: tuple[StrictStr, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _golden_as_text(cls, data: Any) -> Any:
        # YAML reads 215474133 as an int; the golden instance is text.
        if isinstance(data, dict) and isinstance(data.get("golden"), dict):
            data = {**data, "golden": {k: str(v) for k, v in data["golden"].items()}}
        return data

    @model_validator(mode="before")
    @classmethod
    def _split_markup(cls, data: Any) -> Any:
        # Paraphrases written with span markup: keep them as written in
        # ``marked_paraphrases`` and their plain texts in ``paraphrases``. A text
        # whose markup does not parse stays as written; problems() reports it.
        if not isinstance(data, dict) or data.get("marked_paraphrases"):
            return data
        paras = data.get("paraphrases")
        if not isinstance(paras, list | tuple) or not all(isinstance(p, str) for p in paras):
            return data
        if not any(has_markup(p) for p in paras):
            return data
        plain = []
        for p in paras:
            try:
                plain.append(strip_markup(p))
            except MarkupError:
                plain.append(p)
        return {**data, "paraphrases": plain, "marked_paraphrases": list(paras)}

    @model_serializer(mode="wrap")
    def _omit_empty_new_fields(self, handler: SerializerFunctionWrapHandler) -> Any:
        # Seeds without the newer fields serialise (and hash) exactly as before.
        data = handler(self)
        if isinstance(data, dict):
            for name in _SEED_FIELDS_NEW:
                if not getattr(self, name):
                    data.pop(name, None)
        return data

    def paraphrase_bases(self) -> tuple[MarkedText, ...]:
        """Every paraphrase template with its spans (none for an unmarked one), in the
        order of :attr:`paraphrases`. Only call on a seed without problems()."""
        sources = self.marked_paraphrases or self.paraphrases
        return tuple(parse_markup(p) for p in sources)

    def span_rewrites(self, span: Span) -> tuple[str, ...]:
        """The corrupted wordings of a rule span (its negation) or a policy span (the
        other policy): the span's own alternative, else the general negation rules /
        the seed's policy alternatives whose ``from`` is the span's text."""
        if span.alt is not None:
            return (span.alt,)
        if span.kind == "rule":
            from monitor.bench.generate import negation_candidates  # generate imports us

            return tuple(negation_candidates(span.text))
        if span.kind == "policy":
            return tuple(rw.to for rw in self.policy_alternatives if rw.from_ == span.text)
        return ()

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
        # P6 names its paraphrase by index and P2p/P4p are made on every one: a
        # repeated paraphrase would be two bases with one P6 index between them.
        for text, count in Counter(self.paraphrases).items():
            if count > 1:
                out.append(f"paraphrases: {text!r} is listed {count} times")
        for name in self.parameters:
            if name not in self.golden:
                out.append(f"golden: no value for parameter {name!r}")
        for name, value in self.golden.items():
            spec = self.parameters.get(name)
            if spec is None:
                out.append(f"golden: {name!r} is not a parameter")
            elif spec.type == "enum" and value not in (spec.values or ()):
                out.append(f"golden.{name}: {value!r} is not one of its values")
            elif (shape := value_shape_problem(spec.type, spec.length, value)) is not None:
                out.append(f"golden.{name}: {shape}")
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
        out += self._policy_term_problems()
        out += self._question_paraphrase_problems()
        out += self._markup_problems()
        return out

    def _policy_term_problems(self) -> list[str]:
        out: list[str] = []
        golden_answer = self.render(self.answer, self.golden)
        for k, term in enumerate(self.policy_terms):
            where = f"policy_terms.{k}"
            if not term.strip():
                out.append(f"{where}: empty term")
            elif term != term.strip():
                out.append(f"{where}: {term!r} has leading or trailing spaces")
            elif "{" in term or "}" in term:
                out.append(f"{where}: {term!r} holds a placeholder; policy is not an entity")
            elif not _occurs(term, self.answer) or not _occurs(term, golden_answer):
                out.append(f"{where}: {term!r} does not occur in the golden answer")
        for term, count in Counter(self.policy_terms).items():
            if count > 1:
                out.append(f"policy_terms: {term!r} is listed {count} times")
        return out

    def _question_paraphrase_problems(self) -> list[str]:
        out: list[str] = []
        wanted = set(PLACEHOLDER.findall(self.question))
        for k, q in enumerate(self.question_paraphrases):
            where = f"question_paraphrases.{k}"
            names = set(PLACEHOLDER.findall(q))
            if not q.strip():
                out.append(f"{where}: empty question")
            elif has_markup(q):
                out.append(f"{where}: questions take no span markup")
            elif q.strip() == self.question.strip():
                out.append(f"{where}: the same as the template question")
            elif names and names != wanted:
                out.append(
                    f"{where}: placeholders {_names(names)} differ from the template "
                    f"question's {_names(wanted)} (use the same ones, or none)"
                )
        for q, count in Counter(self.question_paraphrases).items():
            if count > 1:
                out.append(f"question_paraphrases: {q!r} is listed {count} times")
        return out

    def _markup_problems(self) -> list[str]:
        """Checks on marked paraphrases: every one must admit each corruption the golden
        wording admits, so that P2p/P4p exist for every paraphrase base."""
        if not self.marked_paraphrases:
            return []
        out: list[str] = []
        if len(self.marked_paraphrases) != len(self.paraphrases):
            return ["marked_paraphrases: not one per paraphrase"]
        answer_names = set(PLACEHOLDER.findall(self.answer))
        golden_negatable = bool(self.negations) or self._golden_has_rule_negation()
        for k, source in enumerate(self.marked_paraphrases):
            where = f"paraphrases.{k}"
            try:
                marked = parse_markup(source)
            except MarkupError as exc:
                out.append(f"{where}: {exc}")
                continue
            if marked.text != self.paraphrases[k]:
                out.append(f"{where}: plain text differs from its marked text")
            names = set(PLACEHOLDER.findall(marked.text))
            if names != answer_names:
                out.append(
                    f"{where}: a marked paraphrase states the answer's values "
                    f"{_names(answer_names)}, this one {_names(names)}"
                )
            for span in marked.spans:
                for name in PLACEHOLDER.findall(span.alt or ""):
                    if name not in self.parameters:
                        out.append(f"{where}: placeholder {{{name}}} is not a parameter")
            steps = marked.of_kind("step")
            if steps and not self.steps:
                out.append(f"{where}: step spans, but the seed declares no steps")
            elif self.steps:
                indices = [s.step for s in steps]
                if sorted(i for i in indices if i is not None) != list(range(len(self.steps))):
                    out.append(
                        f"{where}: step spans state golden steps "
                        f"{[(i or 0) + 1 for i in indices]}; each of the {len(self.steps)} "
                        "golden steps needs exactly one, in order (or numbered stepN)"
                    )
            for span in steps:
                bad = _deletion_defect(marked.text, marked.delete(span))
                if bad:
                    out.append(f"{where}: deleting step {span.text!r} leaves {bad}")
            rules = marked.of_kind("rule")
            if golden_negatable and not rules:
                out.append(f"{where}: the golden answer can be negated; mark a [[rule:...]]")
            policies = marked.of_kind("policy")
            if self.policy_alternatives and not policies:
                out.append(f"{where}: the seed has policy_alternatives; mark a [[policy:...]]")
            for span in (*rules, *policies):
                rewrites = self.span_rewrites(span)
                if not rewrites:
                    how = (
                        "no negation rule applies; give '|NEGATED'"
                        if span.kind == "rule"
                        else "it is no policy_alternatives 'from'; give '|OTHER'"
                    )
                    out.append(f"{where}: {span.kind} span {span.text!r}: {how}")
                for alt in rewrites:
                    if marked.replace(span, alt) == marked.text:
                        out.append(f"{where}: {span.kind} span {span.text!r} does not change")
        return out

    def _golden_has_rule_negation(self) -> bool:
        from monitor.bench.generate import _SENTENCES, negation_candidates

        return any(negation_candidates(s.strip()) for s in _SENTENCES.findall(self.answer))

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
            policy_terms=self.policy_terms,
        )

    def question_variants(self, values: dict[str, str]) -> tuple[str, ...]:
        """The paraphrased questions rendered with ``values`` (a transplant's)."""
        return tuple(self.render(q, values) for q in self.question_paraphrases)


def _occurs(term: str, text: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(term) + r"(?!\w)", text) is not None


def _names(names: set[str]) -> str:
    return "{" + ", ".join(sorted(names)) + "}" if names else "none"


def _deletion_defect(before: str, after: str) -> str | None:
    """What a step deletion leaves that no answer would read like, if anything: a
    defect counts only where the deletion made it (it is not in ``before``)."""
    if not after.strip():
        return "nothing"
    if after[:1].islower() and not before[:1].islower():
        return f"a lower-case start ({after[:20]!r})"
    for pattern, what in (
        (r"^[,;:.]", "a leading punctuation mark"),
        (r"[,;:]\s*[.;:!?,]", "doubled punctuation"),
        (r"(?<![.\d])\.\s*\.", "doubled punctuation"),
        (r"\b(?:and|or|then|but)\s*[.,;:!?]", "a dangling conjunction"),
        (r"[.!?]\s+[a-z]", "a sentence starting in lower case"),
    ):
        found = list(re.finditer(pattern, after))
        if len(found) > len(re.findall(pattern, before)):
            m = found[-1]
            return f"{what} ({after[max(0, m.start() - 15) : m.end() + 15]!r})"
    return None


_SEEDS = "the seed set"


def seed_files(path: str | Path) -> list[Path]:
    p = Path(path)
    if p.is_dir():
        files = sorted([*p.glob("*.yaml"), *p.glob("*.yml")])
        if not files:
            raise GoldenSetError([f"{p}: no *.yaml seed files in this directory"], _SEEDS)
        return files
    if not p.exists():
        raise GoldenSetError([f"{p}: file not found"], _SEEDS)
    return [p]


def _did_you_mean(error: Any) -> str:
    """For a misspelt key, the known keys of its place it is nearest to ("; did you
    mean 'policy_terms'?"); else nothing."""
    if error.get("type") != "extra_forbidden" or not error.get("loc"):
        return ""
    loc = error["loc"]
    if len(loc) == 1:
        known = Seed.model_fields
    elif loc[0] in ("parameters", "extra_fields"):
        known = SeedParam.model_fields
    elif loc[0] in ("negations", "policy_alternatives"):
        known = Rewrite.model_fields
    else:
        return ""
    # (As written in YAML: "from", not the field "from_"; not the texts as written of
    # the paraphrases, which the loader fills itself.)
    keys = [f.alias or k for k, f in known.items() if k != "marked_paraphrases"]
    near = difflib.get_close_matches(str(loc[-1]), keys, n=2, cutoff=0.6)
    return f"; did you mean {' or '.join(repr(k) for k in near)}?" if near else ""


def load_seeds(path: str | Path) -> list[Seed]:
    """All seeds under ``path``, validated; every problem is reported at once."""
    problems: list[str] = []
    seeds: list[tuple[Path, Seed]] = []
    for f in seed_files(path):
        try:
            raw = load_yaml(f.read_text(encoding="utf-8"))
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
                    f"{where}: {'.'.join(map(str, e['loc']))}: {e['msg']}{_did_you_mean(e)}"
                    for e in exc.errors()
                )
                continue
            problems.extend(f"{where}: {p}" for p in seed.problems())
            seeds.append((f, seed))
    for ident, count in Counter(s.id for _, s in seeds).items():
        if count > 1:
            files = sorted({str(f) for f, s in seeds if s.id == ident})
            problems.append(f"seed {ident!r}: duplicate id in {', '.join(files)}")
    if problems:
        raise GoldenSetError(problems, _SEEDS)
    return [s for _, s in seeds]


def bench_golden_set(seeds: list[Seed], version: str = "cargo-bench") -> GoldenSet:
    return GoldenSet(version=version, items=tuple(s.golden_item() for s in seeds))
