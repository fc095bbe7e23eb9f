"""Loading and validating golden sets (YAML)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from monitor.errors import GoldenSetError, problem_lines
from monitor.schemas import GoldenItem, GoldenSet
from monitor.schemas.golden import value_shape_problem
from monitor.text.lexicon import counted
from monitor.yamltext import load_yaml


def load_golden(path: str | Path) -> GoldenSet:
    """Load and validate a golden set, reporting every problem with file and item id."""
    p = Path(path)
    try:
        raw = load_yaml(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GoldenSetError([f"{p}: file not found"]) from None
    except yaml.YAMLError as exc:
        raise GoldenSetError([f"{p}: not valid YAML: {exc}"]) from exc
    return parse_golden(raw, source=str(p))


def parse_golden(raw: Any, *, source: str = "<golden>") -> GoldenSet:
    problems: list[str] = []
    if not isinstance(raw, dict):
        raise GoldenSetError([f"{source}: top level must be a mapping with 'version' and 'items'"])
    version = raw.get("version")
    if version is None or str(version).strip() == "":
        problems.append(f"{source}: 'version' is missing")
    items_raw = raw.get("items")
    if not isinstance(items_raw, list):
        problems.append(f"{source}: 'items' must be a list")
        items_raw = []
    items: list[GoldenItem] = []
    for n, entry in enumerate(items_raw):
        ident = entry.get("id") if isinstance(entry, dict) else None
        where = f"{source}: item {ident!r}" if ident else f"{source}: item #{n + 1}"
        try:
            item = GoldenItem.model_validate(entry)
        except ValidationError as exc:
            problems.extend(f"{where}: {line}" for line in problem_lines(exc))
            continue
        problems.extend(f"{where}: {p}" for p in item_problems(item))
        items.append(item)
    # Counted on every entry, valid or not: a duplicate is reported in the same pass
    # as the other problems, not after they are fixed.
    ids = [e.get("id") for e in items_raw if isinstance(e, dict)]
    for ident, count in Counter(i for i in ids if isinstance(i, str) and i).items():
        if count > 1:
            problems.append(f"{source}: item {ident!r}: duplicate id ({count} items)")
    if problems:
        raise GoldenSetError(problems)
    return GoldenSet(version=str(version), items=tuple(items))


def item_problems(item: GoldenItem) -> list[str]:
    """Semantic checks a schema cannot express."""
    out: list[str] = []
    for name in ("question", "answer"):
        if not getattr(item, name).strip():
            out.append(f"{name}: empty text")
    out.extend(paraphrase_problems(item))
    for name, spec in item.parameters.items():
        if spec.value not in item.answer and spec.value not in item.question:
            out.append(
                f"parameters.{name}: value {spec.value!r} occurs in neither the "
                "answer nor the question"
            )
        shape = value_shape_problem(spec.type, spec.length, spec.value)
        if shape is not None:
            out.append(f"parameters.{name}: value {shape}")
    # (An empty step, or one that is not in the answer, the item's own model refuses.)
    return out


def _same_text(text: str) -> str:
    # Case and spacing aside: the bundled model reads lower case, so such a copy adds a
    # row that can never score differently.
    return " ".join(text.split()).casefold()


def paraphrase_problems(item: GoldenItem) -> list[str]:
    """Each of ``question_paraphrases`` is text, and neither the question nor an
    earlier paraphrase again (case and spacing aside)."""
    out: list[str] = []
    seen = {_same_text(item.question): "the question"}
    for k, text in enumerate(item.question_paraphrases):
        where = f"question_paraphrases.{k}"
        key = _same_text(text)
        if not key:
            out.append(f"{where}: empty text")
        elif key in seen:
            out.append(f"{where}: {text!r} is the same as {seen[key]}")
        else:
            seen[key] = where
    return out


SMALL_SET = 50
"""A golden set of at most this many items is small enough to give every item its
paraphrases by hand; ``validate-golden`` notes the items that have none."""


def set_notes(gs: GoldenSet) -> list[str]:
    """What ``validate-golden`` says about the whole set: in a small set, the items with
    no ``question_paraphrases`` (a stranger's five-item set abstained on 22 of 24
    questions as users worded them)."""
    bare = [i.id for i in gs.items if not i.question_paraphrases]
    if not bare or len(gs.items) > SMALL_SET:
        return []
    names = ", ".join(repr(i) for i in bare[:5]) + (", ..." if len(bare) > 5 else "")
    return [
        f"{len(bare)} of {counted(len(gs.items), 'item')} without question_paraphrases "
        f"({names}): "
        "a question worded unlike an item's may score low or match another item; "
        "add 2-4 phrasings as your users ask"
    ]


def item_notes(item: GoldenItem) -> list[str]:
    """What may make the judge misread a valid item, for ``validate-golden`` to say:
    a parameter's value stated more than once in the answer where nothing tells the
    parameter from a policy's number ("at position 12" beside "every 12 months": read
    as a claim about the position in every answer that says "every 12 months")."""
    from monitor.claims import policy_occurrences, whole_value

    out: list[str] = []
    for name, spec in item.parameters.items():
        if not any(c.isdigit() for c in spec.value):
            continue  # a name said twice ("Milo") is no policy's number
        n = len(whole_value(spec.value).findall(item.answer))
        if n > 1 and not policy_occurrences(item, spec.value):
            out.append(
                f"parameters.{name}: value {spec.value!r} stands {n} times in the answer; "
                "where one is a policy's number, declare that phrase in policy_terms (or "
                "its sentence in steps), or give the reference another value"
            )
    return out
