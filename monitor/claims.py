"""Claim extraction: which instance facts does an answer state, and about which field?

The reference is a *procedural exemplar*: its annotated parameters tell us which
spans are entity values (and what the fields are called, how they are written,
which words introduce them). We use that knowledge only to *find* the answer's
claims about instance fields; the claims are then checked against the live
context, never against the reference's own values.

Attribution cues, strongest first (a span claimed by a stronger cue is not
re-claimed by a weaker one):

``context_value``
    the answer states an observed value verbatim (modulo normalisation);
``vocabulary``
    the answer uses a value from a field's closed vocabulary (enum parameter);
``template``
    the words around the value are the words around the parameter in the
    reference ("is currently {status}.");
``label``
    a field label precedes the value ("case 536762755", "Warranty ends: ...");
``shape``
    an identifier of exactly the shape of one observed identifier field.

A number that is not attributed to any field, or that also occurs in the
reference's procedure text ("within 5 business days"), is procedure, not a
claim. An identifier, date or amount that cannot be attributed stays a claim
with no field and is unverifiable (neutral).
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from monitor.schemas import GoldenItem, ParamSpec
from monitor.text import Sentence, normalize_text, raw_words, split_sentences, words
from monitor.text.lexicon import GENERIC_LABEL_TAIL, STOPWORDS
from monitor.text.quantities import quantities
from monitor.text.tokens import content, same_word, singular, tokens
from monitor.values import (
    DisjointSpans,
    Found,
    ValueType,
    compatible_shape,
    find_typed_values,
    normalize_date,
    normalize_id,
    normalize_money,
    normalize_time,
    same_value,
    shape_of,
)

CUE_RANK = {"context_value": 0, "vocabulary": 1, "template": 2, "label": 3, "shape": 4, "none": 5}
_LABEL_VALUE = re.compile(
    r"(?:^|(?<=[.;\n])\s*|\s)(?P<label>[A-Z][\w /-]{1,40}?)\s*:\s+(?P<value>[^.;\n]+?)"
    r"(?=\s*(?:[.;\n]\s|[.;\n]?$))"
)
LABEL_WINDOW = 40
# A label that opens a numbered list on the next line ("Steps:\n1. Log in ..."): the
# item's number is no value of it.
_LIST_START = re.compile(r"\s*:[ \t]*\r?\n\s*\d{1,2}[.)][ \t]+\S")


@dataclass(frozen=True, slots=True)
class Candidate:
    """A value stated by the answer, with the field it was attributed to."""

    start: int
    end: int
    value: str
    type: ValueType
    field: str | None
    cue: str
    sentence: Sentence
    anchored: bool = True
    """Whether the sentence ties the value to its field (its label or the exemplar's
    template wording around it); False for a vocabulary word or an identifier's
    shape standing alone."""


@dataclass
class FieldInfo:
    """What we know about one instance field from the reference and the context."""

    name: str
    labels: tuple[str, ...]
    type: ValueType
    observed: str | None = None
    reference: ParamSpec | None = None
    vocabulary: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = field(default_factory=tuple)
    # Whether the reference says the value as an amount added ("a further instalment of
    # {amount}"): then an answer's "further" is the field's own word.
    added: bool = False
    suffixes: tuple[str, ...] = field(default_factory=tuple)


def field_label_words(name: str) -> str:
    """``workOrderNumber`` -> ``work order number``; ``service_tag`` -> ``service tag``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|[_\-.]+", " ", name)
    return " ".join(spaced.split()).casefold()


def label_variants(*labels: str | None) -> tuple[str, ...]:
    out: list[str] = []
    for label in labels:
        if not label:
            continue
        ws = words(label)
        if not ws:
            continue
        out.append(" ".join(ws))
        while len(ws) > 1 and ws[-1] in GENERIC_LABEL_TAIL:
            ws = ws[:-1]
            out.append(" ".join(ws))
    # Longest first, so that "work order number" wins over "work order".
    return tuple(sorted(set(out), key=len, reverse=True))


WILDCARD = "slotvalue"


def _reference_prefixes(item: GoldenItem, name: str, spec: ParamSpec) -> tuple[str, ...]:
    """The two words before each occurrence of the parameter in the reference answer.

    Other parameters' values become a wildcard: in "scanned at FRA on {date}" the
    date's prefix is "* on", which also matches "scanned at JFK on 2026-05-16".
    """
    text = _wildcarded(item, name, spec)
    prefixes: list[str] = []
    for m in _instance_occurrences(item, spec, text):
        before = words(text[max(0, m.start() - 60) : m.start()])
        if before:
            prefixes.append(" ".join(before[-2:]))
    return tuple(dict.fromkeys(prefixes))


def _reference_suffixes(item: GoldenItem, name: str, spec: ParamSpec) -> tuple[str, ...]:
    """The two words after each occurrence of the parameter in the reference answer,
    when one of them is not a function word: "collected {minutes} minutes after
    closing" gives "minutes after", which "picked up 38 minutes after we closed"
    fills."""
    text = _wildcarded(item, name, spec)
    suffixes: list[str] = []
    for m in _instance_occurrences(item, spec, text):
        after = words(text[m.end() : m.end() + 60])[:2]
        if len(after) == 2 and WILDCARD not in after and any(w not in STOPWORDS for w in after):
            suffixes.append(" ".join(after))
    return tuple(dict.fromkeys(suffixes))


def _instance_occurrences(item: GoldenItem, spec: ParamSpec, text: str) -> list[re.Match[str]]:
    """The occurrences of a parameter's value in ``text`` (the reference answer with the
    other parameters wildcarded) that may be the parameter's: not those that
    :func:`policy_occurrences` reads as a policy's quantity. (Matched to the answer's
    own by order: wildcarding other values neither adds nor removes one.)"""
    found = list(re.finditer(_whole(spec.value), text))
    in_answer = list(re.finditer(_whole(spec.value), item.answer))
    policy = policy_occurrences(item, spec.value)
    if not policy or len(in_answer) != len(found):
        return found
    return [f for f, m in zip(found, in_answer, strict=True) if m.start() not in policy]


def policy_occurrences(item: GoldenItem, value: str) -> frozenset[int]:
    """Where (start offsets in the reference answer) a parameter's value stands as a
    policy's quantity, not as the parameter: inside a declared policy term, or inside
    a declared step before a unit ("every 12 months" for an application at position
    12), where another occurrence is left to be the parameter's. Empty when none is,
    or when every occurrence would be. Read as the parameter's slot, "every
    {position} months" made every answer's "every 12 months" a claim about the
    position, and the step "every <value> months" a step whose number was lost."""
    return _policy_occurrences(item.answer, value, item.steps, item.policy_terms)


@functools.lru_cache(maxsize=4096)
def _policy_occurrences(
    answer: str, value: str, steps: tuple[str, ...], terms: tuple[str, ...]
) -> frozenset[int]:
    # Per golden item and value, not per trace: cached.
    found = list(re.finditer(_whole(value), answer))
    if len(found) < 2:
        return frozenset()

    def spans(phrases: tuple[str, ...]) -> list[tuple[int, int]]:
        # (Every place a phrase stands: a term also said as the instance's value,
        # "booked for 3 nights" beside the term "3 nights", leaves nothing to tell.)
        return [
            (m.start(), m.end())
            for phrase in phrases
            if phrase.strip()
            for m in re.finditer(re.escape(phrase), answer, re.IGNORECASE)
        ]

    in_terms, in_steps = spans(terms), spans(steps)

    def inside(m: re.Match[str], where: list[tuple[int, int]]) -> bool:
        return any(a <= m.start() and m.end() <= b for a, b in where)

    def policy(m: re.Match[str]) -> bool:
        after = words(answer[m.end() : m.end() + 20])[:1]
        unit = bool(after) and after[0] in _QUANTITY_UNITS
        return inside(m, in_terms) or (inside(m, in_steps) and unit)

    out = frozenset(m.start() for m in found if policy(m))
    return out if len(out) < len(found) else frozenset()


def _wildcarded(item: GoldenItem, name: str, spec: ParamSpec) -> str:
    text = item.answer
    for other, ospec in sorted(item.parameters.items(), key=lambda kv: -len(kv[1].value)):
        if other != name and ospec.value != spec.value:
            text = text.replace(ospec.value, f" {WILDCARD} ")
    return text


def _prefix_matches(before: list[str], prefix: str) -> bool:
    want = prefix.split()
    if len(before) < len(want):
        return False
    got = before[-len(want) :]
    return all(w in (WILDCARD, g) for w, g in zip(want, got, strict=True)) and any(
        w != WILDCARD for w in want
    )


def build_fields(item: GoldenItem | None, observed: dict[str, str]) -> dict[str, FieldInfo]:
    """Merge the reference's annotated parameters with the observed context fields."""
    fields: dict[str, FieldInfo] = {}
    if item is not None:
        for name, spec in item.parameters.items():
            fields[name] = FieldInfo(
                name=name,
                labels=label_variants(spec.label, field_label_words(name)),
                type=spec.type,
                reference=spec,
                vocabulary=tuple(spec.values or ()),
                prefixes=_reference_prefixes(item, name, spec),
                added=any(
                    _ADDED_BEFORE & set(words(item.answer[max(0, m.start() - 80) : m.start()])[-5:])
                    for m in re.finditer(_whole(spec.value), item.answer)
                ),
                suffixes=_reference_suffixes(item, name, spec),
            )
    for name, value in observed.items():
        info = fields.get(name)
        if info is None:
            info = FieldInfo(
                name=name, labels=label_variants(field_label_words(name)), type=shape_of(value)
            )
            fields[name] = info
        info.observed = value
    return fields


def _in_procedure_text(item: GoldenItem, term: str) -> bool:
    """Whether the exemplar states ``term`` outside its own parameter values."""
    text = item.answer
    for spec in sorted(item.parameters.values(), key=lambda s: len(s.value), reverse=True):
        text = text.replace(spec.value, " ")
    return bool(_find_phrase(text, term))


def procedural_values(item: GoldenItem | None) -> list[str]:
    """Numbers and values that belong to the reference's procedure, not its instance."""
    if item is None:
        return []
    return list(
        _procedural_values(item.answer, tuple(spec.value for spec in item.parameters.values()))
    )


@functools.lru_cache(maxsize=4096)
def _procedural_values(answer: str, instance_values: tuple[str, ...]) -> tuple[str, ...]:
    # Per golden item (its answer and parameters), not per trace: cached.
    text = answer
    for value in sorted(instance_values, key=len, reverse=True):
        text = text.replace(value, " ")
    return tuple(f.text for f in find_typed_values(text))


class _SentenceIndex:
    """The sentence that holds a position (the last one when none does), found by
    bisection: an answer may carry thousands of values, each looked up."""

    def __init__(self, sentences: list[Sentence]) -> None:
        self.sentences = sentences
        self.starts = [s.start for s in sentences]  # split_sentences: ordered, disjoint

    def __call__(self, pos: int) -> Sentence:
        k = bisect.bisect_right(self.starts, pos) - 1
        if k >= 0 and pos < max(self.sentences[k].end, self.sentences[k].start + 1):
            return self.sentences[k]
        return self.sentences[-1] if self.sentences else Sentence(0, 0, "")


def _find_phrase(text: str, phrase: str) -> list[tuple[int, int]]:
    if not phrase.strip():
        return []
    pattern = r"(?<![\w])" + r"\s+".join(re.escape(p) for p in phrase.split()) + r"(?![\w])"
    return [(m.start(), m.end()) for m in re.finditer(pattern, text, re.IGNORECASE)]


def _find_vocabulary(text: str, term: str) -> list[tuple[int, int]]:
    """Occurrences of a closed-vocabulary term written as the vocabulary writes it.

    "Open" the status is not "open" the verb: the match is case-sensitive, and a
    one-word term that merely starts a sentence ("Open a case ...") does not count.
    """
    out: list[tuple[int, int]] = []
    pattern = r"(?<![\w])" + r"\s+".join(re.escape(p) for p in term.split()) + r"(?![\w])"
    for m in re.finditer(pattern, text):
        sentence_start = not text[: m.start()].strip() or text[: m.start()].rstrip()[-1] in ".!?\n"
        # A possessive names its owner: "Biscuit's prescription" (a verb takes no 's).
        possessive = text[m.end() : m.end() + 2] in ("'s", "\u2019s")
        if sentence_start and len(term.split()) == 1 and term[:1].isupper() and not possessive:
            continue
        out.append((m.start(), m.end()))
    return out


def type_fits(vtype: ValueType, info: FieldInfo) -> bool:
    """Whether a value of type ``vtype`` can be a value of the field at all: a date
    is never a work-order number, an amount never a case number."""
    if info.type == "enum" and info.vocabulary and vtype not in ("text", "enum"):
        # A closed vocabulary of words takes no phone number: "your Family Share plan
        # on 6817000253" does not state the plan as 6817000253.
        return any(shape_of(v) == vtype for v in info.vocabulary)
    if info.type == "text" and vtype in ("date", "money", "time"):
        # A name or a free-text field takes no date or amount unless its own values
        # are written so: "booking 50377 for 3 August 2026" does not name the dog of
        # "booking 48213 for Rex".
        like = info.observed or (info.reference.value if info.reference else "")
        return shape_of(like) == vtype
    if info.type == "text" and vtype in ("integer", "digits", "alnum"):
        # Nor a number or a code a name without digits ("the registered keeper within
        # 2 hours" does not name the keeper "2").
        like = info.observed or (info.reference.value if info.reference else "")
        return not like or any(c.isdigit() for c in like)
    if info.type in ("text", "enum"):
        return True
    if info.type == "integer":
        return vtype in ("integer", "digits")
    if info.type == "digits" and vtype == "integer":
        # Short identifiers ("card ending 4821") look like plain numbers.
        like = info.observed or (info.reference.value if info.reference else "")
        return like.isdigit() and len(like) < 5
    return vtype == info.type


# Words between a label and its value that say the value is the label's ("of", "which
# was", "that is", "is", "was"): "30 days from your delivery date of 9 March".
_NAMES_IT = re.compile(r"^(?:of|on|is|was|which (?:is|was)|that is|that was|i e)$")
# A duration counted from a dated field's label: "30 days from the", "10 working days
# after your", "two weeks of the".
_OFFSET_FROM = re.compile(
    r"\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fourteen|fifteen|twenty|thirty|sixty|ninety)[\s-]+(?:(?:full|clear|calendar|business|"
    r"working)[\s-]+)?(?:day|week|month|year|hour)s?\s+(?:from|after|since|of|following)"
    r"\s+(?:(?:the|your|its|their)\s+)?$",
    re.I,
)


def _label_before(
    text: str, start: int, sentence: Sentence, fields: dict[str, FieldInfo], vtype: ValueType
) -> str | None:
    """The field whose label ends closest before ``start`` within the same sentence."""
    window_start = max(sentence.start, start - LABEL_WINDOW)
    window = text[window_start:start]
    best: tuple[int, int, str] | None = None  # (distance, -label length, field)
    for info in fields.values():
        if not type_fits(vtype, info):
            continue
        for label in info.labels:
            for s, e in _find_phrase(window, label):
                gap = words(window[e:])
                # Only connecting words may sit between label and value; another
                # value in between ("work order 7366630777 is UJR4N") breaks the tie.
                if len(gap) > 2 or any(any(ch.isdigit() for ch in w) for w in gap):
                    continue
                if (
                    gap
                    and not _NAMES_IT.match(" ".join(gap))
                    and _OFFSET_FROM.search(text[max(0, window_start + s - 60) : window_start + s])
                ):
                    # "30 days from the removal date, so until April 4": the date the
                    # offset leads to, not the removal date.
                    continue
                cand = (len(window) - e, -len(label), info.name)
                if best is None or cand < best:
                    best = cand
    return best[2] if best else None


def _label_after(text: str, end: int, fields: dict[str, FieldInfo]) -> str | None:
    """The count field a number is written with: "5 tickets", "2 refills left", "7
    left", "56 GB" (the field's label, its count tail or its unit word right after
    the number, plurals aside), None for anything else."""
    after = [singular(w) for w in words(text[end : end + 40])[:5]]
    before = _words_before(text, end)
    if after[1:2] == ["per"]:
        return None  # "2 tickets per order"
    if (
        after[:1]
        and after[0] in _OFFSET_UNITS
        and _offset_after(after[1:3])
        and not (before and before[-1] in ("for", "of"))
    ):
        return None  # "24 hours before your session": when a rule applies, no count
    found: set[str] = set()
    for info in fields.values():
        if info.type != "integer":
            continue
        for label in info.labels:
            lw = _count_label(label)
            if not any(w not in STOPWORDS for w in lw):
                continue
            full = _label_words(label)
            tail = _TAIL_GROUP.get(full[-1]) if len(full) > 1 else None
            if _not_had(before, full, after if tail is not None else []):
                continue  # "up to 8 tickets", "a further 2 guests": not this instance's
            if (
                after[: len(lw)] == lw
                # "7 left" for "guest passes left": the count's own tail word, ending
                # its phrase ("3 left turns", "2 remaining spaces" count something else)
                or (
                    tail is not None
                    and after[:1]
                    and _TAIL_GROUP.get(after[0]) == tail
                    and _phrase_ends_after_first(text, end)
                )
                # "56 GB" for "allowance gb": the label's last word, a unit
                or (
                    tail is None
                    and len(full) > 1
                    and full[-1] not in STOPWORDS
                    and full[-1] not in GENERIC_LABEL_TAIL
                    and full[-1] not in _TIME_UNITS
                    and after[:1] == [full[-1]]
                    and after[1:2] != ["of"]
                    and not (before and before[-1] in ("a", "an", "each", "extra", "every"))
                )
            ):
                found.add(info.name)
    return found.pop() if len(found) == 1 else None


_TIME_UNITS = frozenset({"minute", "hour", "day", "week", "month", "year", "night"})
# Words after a duration that make it a time offset ("24 hours before", "2 days in
# advance", "48 hours notice"), for the units a deadline is written in (not nights:
# "6 nights after check-in" is a stay), and not after "for" or "of" ("hired for 7 days
# after the deposit clears").
_OFFSETS = frozenset({"before", "after", "ahead", "prior", "beforehand"})
_OFFSET_UNITS = (_TIME_UNITS - {"night", "month", "year"}) | {"min", "hr", "wk"}


def _offset_after(after: list[str]) -> bool:
    """Whether the words after a duration's unit make it an offset from an event."""
    return bool(after) and (
        after[0] in _OFFSETS or after[:2] == ["in", "advance"] or after[0] == "notice"
    )


def _words_before(text: str, end: int) -> list[str]:
    """The four words before the number that ends at ``end`` (its own word left out),
    for the bound, increment and having cues of :func:`_not_had`."""
    return words(text[max(0, end - 60) : end])[-5:-1]


def _phrase_ends_after_first(text: str, end: int) -> bool:
    """Whether the word after a number ends its phrase: punctuation, the end, or a
    function word next ("3 left, and", "3 left on card"; not "3 left turns")."""
    m = re.match(r"\s*[\w'-]+(\s*[^\w\s]|\s*$|\s+([\w'-]+))", text[end : end + 80])
    if m is None:
        return False
    nxt = m.group(2)
    return nxt is None or nxt.casefold() in STOPWORDS or nxt.casefold() in _PREPOSITIONS


# Words that end a count's phrase besides the function words ("3 left before ...").
_PREPOSITIONS = frozenset({"before", "after", "now", "yet"})


def _head_before(
    text: str,
    start: int,
    end: int,
    sentence: Sentence,
    fields: dict[str, FieldInfo],
    entity_spans: list[tuple[int, int]],
) -> str | None:
    """The count field whose label's last word comes right before a number:
    "position 194" for "waiting list position" (not a function word, a generic tail
    such as "number", nor a count tail such as "left"), written as a label ("-
    Position: 314") or in a sentence about the entity: one that states another of its
    values ("Application GFFAW6 is at position 194"; not "at row 4 the aisle narrows",
    which is procedure)."""
    before = [singular(w) for w in words(text[max(0, start - 40) : start])[-1:]]
    if not before:
        return None
    nxt = words(text[start : start + 40])[1:3]
    if nxt[:1] == ["of"] and not (nxt[1:2] and nxt[1][:1].isdigit()):
        return None  # "position 2 of the form" (not "position 2 of 40")
    labelled = re.search(r":\s*$", text[max(0, start - 4) : start]) is not None or (
        # "Position 9." on a line of its own (its length first: a long sentence is
        # not split into words again for each of its numbers)
        len(sentence.text) <= 40 and len(words(sentence.text)) <= 3
    )
    if not labelled and not _names_entity(sentence, start, end, entity_spans):
        return None  # "- Position: 314" is labelled; "at stage 2 a reviewer ..." is not
    found = {
        info.name
        for info in fields.values()
        if info.type == "integer"
        for label in info.labels
        if len(ws := _label_words(label)) > 1
        and ws[-1] == before[0]
        and ws[-1] not in STOPWORDS
        and ws[-1] not in GENERIC_LABEL_TAIL
        and ws[-1] not in _TAIL_GROUP
    }
    return found.pop() if len(found) == 1 else None


def _limit_before(before: list[str]) -> bool:
    """Whether the words right before a number make it a bound: "up to 8", "at most
    14", "more than 3", "maximum of 6", "a limit of 6", "capped at 4" (not
    "corresponding to the 265 kWh")."""
    if not before:
        return False
    if before[-1] in _LIMIT_WORDS:
        return True
    return before[-1] in ("of", "at", *_HEDGES) and len(before) > 1 and before[-2] in _LIMIT_WORDS


def _not_had(before: list[str], label: tuple[str, ...], after: list[str]) -> bool:
    """Whether the words right before a number make it a bound or an amount added,
    not the count a field labelled ``label`` has: "up to 8", "a limit of 40", "a
    further 2". Not where the field is itself the cap or the extra ("capped at 40
    boxes" for "storage cap boxes", "an extra 5 GB" for "extra allowance gb"), nor an
    amount added that is then said to be left (``after``, the words after the
    number, given for a count of what is left: "another 3 sessions left")."""
    own = {w for w in label if len(w) >= 3}
    if before[-1:] and before[-1] in _INCREMENTS:
        # "has another 4 passes", "gets an extra 5 GB", "another 3 sessions left": an
        # amount the entity has (or is left), said with the word for more.
        return not (
            before[-1] in own
            or any(w in _HAVING for w in before[-3:-1])
            or any(_TAIL_GROUP.get(w) == "left" for w in after[:3])
        )
    if not _limit_before(before[-2:]):
        return False
    bound = [w for w in before[-2:] if w in _LIMIT_WORDS and len(w) >= 3]
    return not any(same_word(b, w, 3) for b in bound for w in own)


# Verbs of having right before "another" / "an extra": the amount is the entity's.
_HAVING = frozenset({"has", "have", "had", "got", "gets", "get", "still", "receive", "receives"})


# Words right before a number that make it an amount added, not one the entity has:
# "a further 2 guests", "an extra 2 nights", "each additional 5 kg".
_INCREMENTS = frozenset({"further", "extra", "additional", "another"})
# A number that opens a range: "from row 2 onwards", "6 guests or more", "18+".
_RANGE_AFTER = re.compile(
    r"\+|\s+(?:onwards?|upwards?|or (?:more|above|over|higher|later|fewer|less|below|under)"
    r"|and (?:up(?=\s*(?:[^\w\s]|$))|above|upwards))\b",
    re.IGNORECASE,
)


def _range_after(text: str, end: int) -> bool:
    """Whether a number (or its counted noun) opens a range: "row 2 onwards", "6
    guests or more", "18+"."""
    tail = text[end : end + 40]
    if _RANGE_AFTER.match(tail):
        return True
    m = re.match(r"\s+[A-Za-z][\w-]*", tail)
    return m is not None and _RANGE_AFTER.match(tail[m.end() :]) is not None


def _entity_spans(
    fields: dict[str, FieldInfo], found: list[Found], observed_spans: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Where the answer states one of the entity's values, sorted: an observed field
    value of two characters or more (``observed_spans``: its name, its status), or an
    identifier of the type and length of one of its identifier fields ("application
    0U4DN9" where the context has no application id). Read once per answer, so that
    each number's check is a lookup."""
    spans = list(observed_spans)
    ids = {
        (shape_of(like), len(normalize_id(like)))
        for info in fields.values()
        if info.type in ("digits", "alnum")
        and (like := info.observed or (info.reference.value if info.reference else None))
    }
    spans += [
        (f.start, f.end)
        for f in found
        if f.type in ("digits", "alnum", "integer")
        and (shape_of(f.text), len(normalize_id(f.text))) in ids
    ]
    return sorted(spans)


def _names_entity(
    sentence: Sentence, start: int, end: int, entity_spans: list[tuple[int, int]]
) -> bool:
    """Whether the sentence states one of the entity's values (``entity_spans``)
    outside the number at ``[start, end)``."""
    i = bisect.bisect_left(entity_spans, (sentence.start, -1))
    while i < len(entity_spans) and entity_spans[i][0] < sentence.end:
        s, e = entity_spans[i]
        if e <= start or s >= end:
            return True
        i += 1
    return False


# "up to about 6", "at least another 2": one hedge between the bound and the number.
_HEDGES = frozenset({"about", "around", "roughly", "approximately", "another", "a", "further"})


def _slot_after(text: str, end: int, fields: dict[str, FieldInfo]) -> str | None:
    """The count field whose slot in the reference a number fills by the two words
    after it ("{minutes} minutes after"), None when no field's or several do."""
    after = " ".join(words(text[end : end + 60])[:2])
    before = _words_before(text, end)
    found = {
        i.name
        for i in fields.values()
        if i.type == "integer"
        and after in i.suffixes
        # "up to 9 passengers", "a further 3 passengers and ..." (unless the field
        # is itself the extra or the cap: "an extra 5 GB" for "extra allowance gb")
        and not all(_not_had(before, _label_words(label), []) for label in i.labels)
    }
    return found.pop() if len(found) == 1 else None


def _count_label(label: str) -> list[str]:
    """A count field's label as the noun it counts: "guest passes left" -> "guest
    pass" ("6 guest passes available" states it), plurals aside."""
    lw = list(_label_words(label))
    while len(lw) > 1 and lw[-1] in _TAIL_GROUP:
        lw = lw[:-1]
    return lw


@functools.lru_cache(maxsize=4096)
def _label_words(label: str) -> tuple[str, ...]:
    """A label's words, plurals aside (read once per label, not per number)."""
    return tuple(singular(w) for w in label.split())


def _count_tail(label: str) -> str | None:
    """What a count label counts by its tail: "refills remaining" and "refills left"
    both count what is left, "passes used" what is used; None without a tail."""
    lw = _label_words(label)
    return _TAIL_GROUP.get(lw[-1]) if len(lw) > 1 else None


_LIMIT_WORDS = frozenset(
    {
        "to",
        "limit",
        "cap",
        "capped",
        "most",
        "least",
        "maximum",
        "minimum",
        "max",
        "min",
        "than",
        "over",
        "under",
        "above",
        "below",
    }
)
# A count label's tail words, by what they count: the same count in other words.
_TAIL_GROUP = {
    "left": "left",
    "remaining": "left",
    "available": "left",
    "used": "used",
    "total": "total",
    "count": "count",
    "done": "done",
    "completed": "done",
    "balance": "balance",
}


# A generic determiner two words before a value: "any delay of 20", "each stay of 7".
_GENERIC = re.compile(r"\b(?:any|every|each|all|a|an)\s+\S+\s+\S+\s*$", re.IGNORECASE)


# Words that add an amount to another ("an additional fee of", "a further 2 guests").
_ADDED_BEFORE = frozenset("additional extra further another separate".split())


def _template_field(
    text: str, start: int, fields: dict[str, FieldInfo], vtype: ValueType
) -> tuple[str | None, bool]:
    """The one field whose reference prefix ends right before ``start``, and whether a
    matching prefix has a content word (not only function words and other slots: "*
    is" finds any "... is")."""
    before = words(text[max(0, start - 60) : start])[-2:]
    if not before:
        return None, False
    matches = [
        (f.name, hits)
        for f in fields.values()
        if type_fits(vtype, f) and (hits := [p for p in f.prefixes if _prefix_matches(before, p)])
    ]
    if len(matches) != 1:
        return None, False
    name, hits = matches[0]
    if _ADDED_BEFORE & set(words(text[max(0, start - 80) : start])[-5:-2]) and not (
        fields[name].added
    ):
        # "an additional late fee of £10" is no "registration fee of £45": an amount
        # added, which the reference's "fee of {fee}" only happens to end like.
        return None, False
    if vtype == "integer":
        unit = words(text[start : start + 40])[1:2]
        if (
            unit
            and unit[0] in _QUANTITY_UNITS
            and not any(unit[0] in words(p) for p in fields[name].suffixes)
        ):
            # "she has 30 days to accept" is no "has {members} members": a span of
            # time, where the slot has no unit.
            return None, False
    strong = any(w != WILDCARD and w not in STOPWORDS for p in hits for w in p.split())
    lead = text[:start].rstrip()
    if not strong and lead.endswith(":"):
        # A label of its own ends right before the value ("Booked on: 2025-12-29"): a
        # prefix of function words ("{service} on {date}") does not make it this field,
        # unless the label is that prefix with a value of the other slot ("Oven clean
        # on: 2026-05-09").
        line = re.split(r"[.!?;\n]", lead[:-1])[-1].casefold()
        if not any(v.casefold() in line for f in fields.values() for v in f.vocabulary):
            return None, False
    return name, strong


def _template_spans(answer: str, item: GoldenItem, spec: ParamSpec) -> list[tuple[int, int]]:
    """Free-text values located by the reference's own wording around the parameter:
    "... assigned to {owner}." finds the owner in "... assigned to Priya Nair.".

    Function words alone ("The {bin} bin ...") locate nothing unless the word after
    the value is there too: "the" opens half the sentences of any answer ("the
    council app within 2 working days;" is no bin type); and what they locate is no
    value when the reference itself states it as procedure ("the crew recorded the
    bin"). Nor is a run of words that ends on a function word ("crew recorded the")."""
    out: list[tuple[int, int]] = []
    procedure = _procedure_text(item.answer, spec.value)
    longest = max(len(words(v)) for v in (spec.value, *(spec.values or ())))
    capitalised = all(v[:1].isupper() for v in (spec.value, *(spec.values or ())))
    for m in re.finditer(_whole(spec.value), item.answer):
        before = raw_words(item.answer[max(0, m.start() - 60) : m.start()])[-2:]
        after = re.match(r"\s*([\w]+|[^\w\s])", item.answer[m.end() :])
        if not before:
            continue
        weak = all(w.casefold() in STOPWORDS for w in before)
        if weak and not (after and after.group(1)[:1].isalnum()):
            continue
        # The word after the value starts a word of its own: "the {type} on" finds no
        # "inspecti" in "the inspection".
        stop = (
            (r"(?<![\w])" if after.group(1)[:1].isalnum() else "") + re.escape(after.group(1))
            if after
            else "$"
        )
        # An apostrophe in the lead matches either way of typing it ("Biscuit’s").
        lead = r"\s+".join(re.escape(w).replace("'", "['’]") for w in before)
        ends = stop + r"(?![\w])" if weak else stop + r"(?![\w])|[.;!?\n]|$"
        # The value opens on a non-space: spaces before it belong to the lead's \s+
        # alone (else a run of spaces is split every way between them: quadratic).
        pattern = (
            r"(?<![\w])" + lead + r"\s+(?P<v>[^\s.;:!?\n][^.;:!?\n]{0,59}?)\s*(?=" + ends + ")"
        )
        if weak:
            # Tried at every lead ("the"), not only after the last match: the nearest
            # lead before the stop word opens the value, and a value runs at most one
            # word longer than any the field takes ("If the inspection finds damage,
            # the screen fix on ..." holds "screen fix", not a clause).
            pattern = "(?=" + pattern + ")"
        for hit in re.finditer(pattern, answer, re.IGNORECASE):
            value = hit.group("v").strip()
            if not value:
                continue
            ws = words(value)
            if all(w in STOPWORDS for w in ws):
                continue  # "reschedule a job" for "reschedule {service} job": no value
            if after and ws[:1] == words(after.group(1)):
                # The word after the slot comes first: the slot is empty ("inspected
                # the marquee after collection" for "inspected the {size} marquee").
                continue
            if weak and len(ws) > longest + 1:
                continue
            if len(ws) > longest + (2 if spec.type == "enum" else 3) or (
                spec.type == "enum" and value[:1].islower() and capitalised
            ):
                # A clause, not a value: "paid with {method}." also finds "... the card
                # you paid with within 7 working days" (an enum's value runs at most two
                # words longer than its vocabulary's, free text three, and an enum whose
                # values are capitalised has no value in lower case).
                continue
            if len(ws) > 1 and ws[-1] in STOPWORDS and words(spec.value)[-1:] != ws[-1:]:
                continue
            if weak and f" {' '.join(ws)} " in procedure:
                continue
            out.append((hit.start("v"), hit.start("v") + len(hit.group("v").rstrip())))
    return out


@functools.lru_cache(maxsize=4096)
def _procedure_text(reference: str, value: str) -> str:
    """The reference's words with the parameter's own value taken out, space-padded:
    what it states as procedure (read once per reference and parameter)."""
    return " " + " ".join(words(reference.replace(value, " valueslot0 "))) + " "


def whole_value(value: str) -> re.Pattern[str]:
    """``value`` as a whole token (:func:`_whole`), compiled."""
    return re.compile(_whole(value))


def _whole(value: str) -> str:
    """A pattern for ``value`` as a whole token: the "4" of "4 tickets", not of
    "48 hours" or "2.4"."""
    return r"(?<![\w.,])" + re.escape(value) + r"(?!\w|[.,]\d)"


def _opening_values(answer: str, item: GoldenItem, spec: ParamSpec) -> list[tuple[int, int]]:
    """A vocabulary value that opens an answer sentence the way the parameter opens a
    reference sentence, with the same two tokens after it: the reference's "{pet}
    (patient {id}) is due" finds "Biscuit" in "Biscuit (patient 543648) is due"; any
    other word that opens a sentence ("Standard delivery takes") is no value."""
    trails = _opening_trails(item.answer, spec.value)
    if not trails:
        return []
    out: list[tuple[int, int]] = []
    for sent in split_sentences(answer):
        for value in spec.values or ():
            if (
                sent.text.startswith(value)
                and _TOKEN.findall(sent.text[len(value) :])[:2] in trails
            ):
                out.append((sent.start, sent.start + len(value)))
    return out


@functools.lru_cache(maxsize=4096)
def _opening_trails(reference: str, value: str) -> list[list[str]]:
    """The two tokens after ``value`` wherever it opens a sentence of ``reference``
    (read once per reference, not per answer)."""
    trails = []
    for sent in split_sentences(reference):
        if sent.text.startswith(value):
            trail = _TOKEN.findall(sent.text[len(value) :])[:2]
            if len(trail) == 2 and any(t[:1].isalpha() for t in trail):
                trails.append(trail)
    return trails


_TOKEN = re.compile(r"\w+|[^\w\s]")


def _match_field_by_label(label: str, fields: dict[str, FieldInfo]) -> str | None:
    norm = " ".join(words(label))
    exact = _field_labelled(norm, fields)
    if exact is not None:
        return exact
    # A count label with another tail word of the same count: "Refills remaining: 2"
    # for "refills left" (not "Refills used: 2").
    counted = _count_label(norm)
    if counted != list(_label_words(norm)):
        tail = _count_tail(norm)
        found = {
            info.name
            for info in fields.values()
            if info.type == "integer"
            and any(_count_label(lb) == counted for lb in info.labels)
            and all(_count_tail(lb) in (tail, None) for lb in info.labels)
        }
        if len(found) == 1:
            return found.pop()
    # An identifier's label with another generic tail: "Application number" for
    # "application id". (Not a label in its own word family: "Renewed:" may be the
    # last renewal where the field is the next one.)
    ws = norm.split()
    while len(ws) > 1 and ws[-1] in GENERIC_LABEL_TAIL:
        ws = ws[:-1]
    stripped = " ".join(ws)
    if stripped != norm and (found_stripped := _field_labelled(stripped, fields)) is not None:
        return found_stripped
    return _label_in_other_forms(norm.split(), fields)


# Words a label may say beside a field's own without naming another thing: "Next
# scheduled shipment" is the next shipment; "Next shipment fee", "Late check out" and
# "Last shipment" are not.
_NEUTRAL_LABEL_WORDS = frozenset(
    "scheduled booked planned confirmed upcoming current expected your my our the".split()
)
# The field types whose values this reading may tie to a field: a text or enum value
# has no shape that would tell a wrong one ("Delivery address change fee: £5").
_SHAPED_TYPES = frozenset({"date", "integer", "money", "digits", "alnum", "time"})


def _label_in_other_forms(said: list[str], fields: dict[str, FieldInfo]) -> str | None:
    """The one field of a shaped type whose label of two words or more the label
    ``said`` states in its own forms ("Next scheduled shipment" for "next ship date",
    "Checking out" for "check out date"): every word of the field's label said (a word
    of three letters or fewer as written), the label's last word one of them, and no
    other word but a neutral one ("scheduled", "booked", "your"). None where no field
    or more than one fits."""

    def same(w: str, x: str) -> bool:
        return w == x if len(w) <= 3 else same_word(w, x, 4)

    found = set()
    for info in fields.values():
        if info.type not in _SHAPED_TYPES:
            continue
        for label in info.labels:
            lw = label.split()
            if len(lw) < 2 or not said:
                continue
            if not all(any(same(w, x) for x in said) for w in lw):
                continue
            if not any(same(w, said[-1]) for w in lw):
                continue
            if all(x in _NEUTRAL_LABEL_WORDS or any(same(w, x) for w in lw) for x in said):
                found.add(info.name)
    return found.pop() if len(found) == 1 else None


def _amount(text: str) -> tuple[str | None, Decimal] | None:
    """An amount with its currency, or a bare number as an amount of none (as
    :func:`same_value` reads an observed "3150")."""
    m = normalize_money(text)
    if m is not None:
        return m
    try:
        return None, Decimal(text.strip().replace(",", ""))
    except InvalidOperation:
        return None


class _ObservedByMeaning:
    """The observed dates, times and amounts of the context's fields, each read once
    (an answer may state thousands of values against 256 fields), for
    :meth:`field_of`."""

    def __init__(self, fields: dict[str, FieldInfo]) -> None:
        self.dates: dict[str, list[str]] = {}
        self.amounts: list[tuple[str | None, Decimal, str]] = []
        for info in fields.values():
            if info.observed is None:
                continue
            if info.type == "date" and (d := normalize_date(info.observed)) is not None:
                self.dates.setdefault(d, []).append(info.name)
            elif info.type == "time" and (t := normalize_time(info.observed)) is not None:
                self.dates.setdefault(t, []).append(info.name)  # ("HH:MM": no date's form)
            elif info.type == "money" and (m := _amount(info.observed)) is not None:
                self.amounts.append((m[0], m[1], info.name))

    def field_of(self, f: Found) -> str | None:
        """The one field of ``f``'s type whose observed value ``f`` states in other
        words (a date or an amount compared by meaning, as :func:`same_value` does);
        None when no field, or more than one, has it."""
        named: list[str] = []
        if f.type == "date" and (d := normalize_date(f.text)) is not None:
            named = self.dates.get(d, [])
        elif f.type == "time" and (t := normalize_time(f.text)) is not None:
            named = self.dates.get(t, [])
        elif f.type == "money" and (m := _amount(f.text)) is not None:
            named = [
                name
                for cur, amount, name in self.amounts
                if amount == m[1] and (cur is None or m[0] is None or cur == m[0])
            ]
        return named[0] if len(named) == 1 else None


def _field_labelled(label: str, fields: dict[str, FieldInfo]) -> str | None:
    """The first field that has ``label`` (normalised words) as one of its labels."""
    return next((info.name for info in fields.values() if label in info.labels), None)


def extract_candidates(
    answer: str, item: GoldenItem | None, observed: dict[str, str]
) -> list[Candidate]:
    """Every instance fact the answer states, attributed to a field where possible."""
    sentence_of = _SentenceIndex(split_sentences(answer))
    fields = build_fields(item, observed)
    procedure = procedural_values(item)
    cands: list[Candidate] = []

    def add(
        start: int, end: int, vtype: ValueType, fld: str | None, cue: str, anchored: bool = True
    ) -> None:
        cands.append(
            Candidate(start, end, answer[start:end], vtype, fld, cue, sentence_of(start), anchored)
        )

    observed_spans: list[tuple[int, int]] = []  # where the answer states a field's value
    for info in fields.values():
        if info.observed is not None and len(info.observed.strip()) >= 1:
            for s, e in _find_phrase(answer, info.observed):
                add(s, e, info.type, info.name, "context_value")
                if len(info.observed.strip()) >= 2:
                    observed_spans.append((s, e))
        for term in info.vocabulary:
            procedural = item is not None and _in_procedure_text(item, term)
            for s, e in _find_vocabulary(answer, term):
                # "Gold and Platinum members are eligible": when the exemplar itself
                # uses a vocabulary term as procedure, only a label or template cue
                # ("status Gold", "holds {tier} status") makes it an instance claim.
                anchored = (
                    _template_field(answer, s, fields, "enum")[0] == info.name
                    or _label_before(answer, s, sentence_of(s), fields, "enum") == info.name
                )
                if procedural and not anchored:
                    continue
                add(s, e, "enum", info.name, "vocabulary", anchored)

    if item is not None:
        for name, spec in item.parameters.items():
            if spec.type in ("text", "enum"):
                for s, e in _template_spans(answer, item, spec):
                    add(s, e, spec.type, name, "template")
            if spec.type == "enum" and spec.values:
                for s, e in _opening_values(answer, item, spec):
                    add(s, e, "enum", name, "template")

    # "Label: value" pairs (appended fields such as "Warranty ends: 2026-08-20").
    for m in _LABEL_VALUE.finditer(answer):
        label = m.group("label").strip()
        value = m.group("value").strip()
        # A field label is a few words without values; a field value is short.
        # "For policy 68634793: stop the water ..." is an instruction, not a field.
        if (
            not value
            or len(words(label)) > 5
            or any(ch.isdigit() for ch in label)
            or len(words(value)) > 6
        ):
            continue
        if _LIST_START.match(answer, m.end("label")):
            continue  # "Here is what to do:\n1. Call us ...": a list's first number
        fld = _match_field_by_label(label, fields)
        like = fields[fld].observed if fld is not None else None
        if (
            fld is not None
            and like
            and " ".join(words(label)) not in fields[fld].labels
            and fields[fld].type in ("digits", "alnum")
            and not compatible_shape(value, shape_of(value), like)
        ):
            # A label matched in other words names the field only with a value of its
            # shape ("Accounts: 0345 600 1234" is a phone line, not the account number).
            fld = None
        if (
            fld is not None
            and not type_fits(shape_of(value), fields[fld])
            and not _short_code_of(value, fields[fld])
        ):
            # Words after the label of a number field state something else about it
            # ("- Contract: month to month" for the contract number).
            fld = None
        add(m.start("value"), m.start("value") + len(value), shape_of(value), fld or label, "label")

    # A short code right after its field's label ("error 9QW" for the error code
    # "M95"): too short to be read as an identifier on its own shape.
    for info in fields.values():
        if not _short_code_of(info.observed or "", info):
            continue
        for label in info.labels:
            for m in re.finditer(
                r"(?<![\w])" + r"\s+".join(re.escape(w) for w in label.split()) + _SHORT_CODE,
                answer,
                re.IGNORECASE,
            ):
                if _short_code_of(m.group("code"), info) and not (
                    item is not None and _in_procedure_text(item, m.group("code"))
                ):
                    add(m.start("code"), m.end("code"), info.type, info.name, "label")

    found = find_typed_values(answer)
    if any(i.type == "time" for i in fields.values()):
        # Against a time field, "14.20" is a time (as written in Britain), not a
        # decimal number.
        found = [
            Found(f.start, f.end, f.text, "time")
            if f.type == "integer" and normalize_time(f.text, dotted=True) is not None
            else f
            for f in found
        ]
    entity_spans = _entity_spans(fields, found, observed_spans)
    memo = _SlotMemo()
    by_meaning: _ObservedByMeaning | None = None
    loose: list[Found] = []  # values no cue tied to a field
    for f in found:
        sent = sentence_of(f.start)
        fld, strong = _template_field(answer, f.start, fields, f.type)
        if fld and not strong and f.type == "time" and not _about_field(sent, fields[fld], item):
            # A time after function words alone ("{date} at {time}" finds "reception
            # opens at 8:30") is the field's only in a sentence about it: one with a
            # word of its label or of the reference's sentence that states it.
            fld = None
        cue = "template" if fld else "none"
        # A number that opens a range ("from row 2 onwards", "6 guests or more") is no
        # count of the entity's, whatever label is near it.
        ranged = fld is None and f.type == "integer" and _range_after(answer, f.end)
        if fld is None and not ranged:
            fld = _label_before(answer, f.start, sent, fields, f.type)
            cue = "label" if fld else "none"
        if fld is None and f.type in ("digits", "alnum"):
            shaped = [
                i.name
                for i in fields.values()
                if i.observed is not None and compatible_shape(f.text, f.type, i.observed)
            ]
            if len(shaped) == 1:
                fld, cue = shaped[0], "shape"
        if fld is None and f.type == "integer" and not ranged:
            fld = _label_after(answer, f.end, fields)
            cue = "label" if fld else "none"
            if fld is None:
                fld = _head_before(answer, f.start, f.end, sent, fields, entity_spans)
                cue = "label" if fld else "none"
            if fld is None:
                fld = _slot_after(answer, f.end, fields)
                cue = "slot" if fld else "none"
        if fld is None and f.type in _SLOT_TYPES:
            fld = _only_slot(f, sent, answer, item, fields, found, memo)
            cue = "shape" if fld else "none"
        if fld is None and f.type in ("date", "money", "time"):
            # The observed value written another way ("runs until 30 April 2026" for
            # the expiry date 2026-04-30, "2:20 pm" for 14:20): no cue ties it, its
            # meaning does.
            if by_meaning is None:
                by_meaning = _ObservedByMeaning(fields)
            fld = by_meaning.field_of(f)
            cue = "context_value" if fld else "none"
        in_procedure = any(same_value(f.text, p) for p in procedure)
        if (
            in_procedure
            and f.type == "integer"
            and _range_after(answer, f.end)
            and (not strong or _GENERIC.search(answer[max(0, f.start - 40) : f.start]))
        ):
            # A number the exemplar states as procedure, opening a range here, is the
            # rule's threshold where no slot of the entity's ties it ("for any delay of
            # 20 mins or more"); "your delay of 20 minutes or more" is still a claim.
            continue
        if fld is None and not in_procedure and not ranged and f.type in _SIBLING_TYPES:
            loose.append(f)  # perhaps the one slot its sentence leaves open (below)
            continue
        if fld is None and (f.type in ("integer", "time") or in_procedure):
            # Procedure, not an instance fact: a number or a time of day no cue ties
            # to a field ("check-out is by 11 am").
            continue
        if fld is not None and in_procedure and cue != "template":
            # The exemplar states this number as procedure ("within 5 business days");
            # a nearby field label, or the words after a slot ("the first 10 minutes
            # over the slot are free"), do not make it an instance fact.
            continue
        if fld is not None and in_procedure and cue == "template" and not strong:
            # Nor does a slot found by function words alone ("{ref} is {balance}" finds
            # "the extra is £65", which the exemplar states as procedure: "extra time is
            # billed at £65 per hour").
            continue
        if cue == "slot":
            cue = "template"
        cands.append(
            Candidate(
                f.start,
                f.end,
                f.text,
                _typed(f, fields.get(fld or "")),
                fld,
                cue,
                sent,
                anchored=cue != "shape",
            )
        )

    if loose:
        open_slots = (
            _open_slots(loose, cands, item, fields, sentence_of, answer, found, memo)
            if item
            else {}
        )
        for f in loose:
            fld = open_slots.get(f.start)
            if fld is not None:
                add(f.start, f.end, _typed(f, fields[fld]), fld, "template", anchored=False)
            elif f.type != "integer":
                add(f.start, f.end, f.type, None, "none")
    return _resolve_overlaps(cands)


# The value types a sentence's one open slot is read for (not free text or an enum,
# which any words fit).
_SIBLING_TYPES = frozenset({"date", "money", "alnum", "digits", "integer"})
# Units that make a number a policy's quantity ("within 5 days"), unless the slot
# itself is followed by that unit ("{daysLate} days overdue").
_QUANTITY_UNITS = frozenset(
    "minute minutes min mins hour hours hr hrs h day days week weeks month months year "
    "years percent % am pm".split()
)


@functools.lru_cache(maxsize=4096)
def _slot_groups(answer: str, params: tuple[tuple[str, str], ...]) -> tuple[frozenset[str], ...]:
    """The parameters each reference sentence states together ("Order {orderNo} has
    {ticketCount} tickets for {eventName}"), for sentences with two or more."""
    out = []
    for sentence in split_sentences(answer):
        names = frozenset(n for n, v in params if re.search(_whole(v), sentence.text))
        if len(names) >= 2:
            out.append(names)
    return tuple(out)


def _open_slots(
    loose: list[Found],
    cands: list[Candidate],
    item: GoldenItem,
    fields: dict[str, FieldInfo],
    sentence_of: _SentenceIndex,
    answer: str,
    found: list[Found],
    memo: _SlotMemo,
) -> dict[int, str]:
    """Values that fill the one slot their sentence leaves open: the sentence states
    another parameter of a reference sentence (it is about the entity, in the words of
    that sentence or others: "Ticket 48Y5HSSSG1 was given to 8J4KJZZ on 2026-09-28"
    for "Penalty charge notice {pcnNo} was issued on {issueDate} to vehicle {vrm}"),
    exactly one parameter of that reference sentence of the value's type is not stated
    there, the context holds that parameter, and the sentence has exactly one such value
    that no cue tied to a field (a code of the field's length, and not where the answer
    states the field's value). A number fills a count slot only as a count: not a bound
    or an amount added, not another count ("3 used"), within the parameter's declared
    range and not a year outside it, followed by a word where the slot is followed by
    its noun ("8 complimentary passes" for "{passes} free passes"; not "number 4 in the
    queue"), and with a unit of time or a percent only where the slot has that unit
    ("overdue by 10 days" for "{daysLate} days overdue"; not "within 5 days", "10%
    off"). Keyed by the value's start."""
    groups = _slot_groups(item.answer, tuple((n, p.value) for n, p in item.parameters.items()))
    if not groups:
        return {}
    stated: dict[int, set[str]] = {}
    spans = DisjointSpans()
    for c in sorted(cands, key=lambda c: (c.start, c.end)):
        if c.field in fields:
            stated.setdefault(c.sentence.start, set()).add(c.field)
        # A field's value already ("Your SN4T8W", the serial number), or words after
        # a label, which says what they are ("Games used: 3").
        if (c.field in fields or c.cue == "label") and not spans.overlaps((c.start, c.end)):
            spans.add((c.start, c.end))
    by_place: dict[tuple[int, ValueType], list[Found]] = {}
    for f in loose:
        if spans.overlaps((f.start, f.end)):
            continue
        by_place.setdefault((sentence_of(f.start).start, f.type), []).append(f)
    said: dict[str, bool] = {}  # per field, read once (not once per sentence: quadratic)
    out: dict[int, str] = {}
    for (where, vtype), values in by_place.items():
        here = stated.get(where)
        if len(values) != 1 or not here:
            continue
        f = values[0]
        options = set()
        for group in groups:
            if group & here:
                free = [
                    n for n in group if n not in here and n in fields and fields[n].type == vtype
                ]
                options.add(free[0] if len(free) == 1 else None)
        if len(options) != 1 or None in options:
            continue
        (name,) = options
        assert name is not None
        info = fields[name]
        if info.observed is None:
            # Read only where the context can say whether it is true: on a field it does
            # not hold the claim is unverifiable, and masking the value hid a changed
            # policy number in the step beside it (5 swaps missed on a held-out set).
            continue
        if vtype in ("alnum", "digits") and len(normalize_id(f.text)) != len(
            normalize_id(info.observed)
        ):
            continue  # a code of another length names something else ("form C88A")
        if vtype == "integer" and not _fills_count(answer, f, info, item):
            continue
        if name not in said:
            said[name] = _states_observed(info, found, answer, memo)
        if said[name]:
            continue  # the answer has the field's value: this one names something else
        out[f.start] = name
    return out


def _fills_count(answer: str, f: Found, info: FieldInfo, item: GoldenItem) -> bool:
    """Whether a number can be the count slot ``info`` (see :func:`_open_slots`)."""
    spec = info.reference
    value = _count_value(f.text)
    if value is None or spec is None:
        return False
    if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
        return False
    if spec.max is None and re.fullmatch(r"(?:19|20|21)\d\d", f.text.strip()):
        return False  # a year ("made in 2024")
    if _other_count(answer, f, info):
        return False
    after = words(answer[f.end : f.end + 30])[:1]
    slot_words = _slot_next_words(item.answer, spec.value)
    percent = f.text.rstrip().endswith("%") or after[:1] == ["percent"]
    slot_percent = "%" in slot_words or "percent" in slot_words
    if percent != slot_percent:
        return False
    if (
        after
        and after[0] in _QUANTITY_UNITS
        and not any(same_word(after[0], w, 3) for w in slot_words)
    ):
        return False  # a policy's quantity ("within 5 days")
    # A slot followed by the noun it counts takes a number followed by a word. (A
    # percent's "%" or "percent" is its unit, not that noun: "{rate}% of" takes "7% of".)
    counts_noun = any(
        w not in STOPWORDS and w not in ("%", "percent") and not w[:1].isdigit() for w in slot_words
    )
    return not counts_noun or (bool(after) and after[0] not in STOPWORDS)


@functools.lru_cache(maxsize=4096)
def _slot_next_words(reference: str, value: str) -> tuple[str, ...]:
    """The word (or "%") right after each occurrence of a parameter's value in the
    reference, within its sentence: "passes" for "{passes} free passes" is "free";
    none for "... position {position}." """
    out = []
    for m in re.finditer(_whole(value), reference):
        nxt = re.match(r"\s*(%|[^\W\d_][\w'-]*)", reference[m.end() :])
        if nxt:
            out.append(nxt.group(1).casefold())
    return tuple(out)


def _count_value(text: str) -> float | None:
    m = re.match(r"\s*(\d+(?:\.\d+)?)", text)
    return float(m.group(1)) if m else None


def _other_count(answer: str, f: Found, info: FieldInfo) -> bool:
    """Whether a number counts something else than the count field ``info``: a bound or
    an amount added ("up to 3 players", "a further 2"), or a count tail of another kind
    right after it ("3 used" for games left)."""
    before = _words_before(answer, f.end)
    if info.labels and all(_not_had(before, _label_words(label), []) for label in info.labels):
        return True
    after = words(answer[f.end : f.end + 30])[:1]
    tails = {_count_tail(label) for label in info.labels} - {None}
    return bool(after) and after[0] in _TAIL_GROUP and _TAIL_GROUP[after[0]] not in tails


def _states_observed(info: FieldInfo, found: list[Found], answer: str, memo: _SlotMemo) -> bool:
    """Whether the answer states the field's observed value in any form ("212.40
    dollars" for "$212.40")."""
    if info.observed is None:
        return False
    if info.type == "money":
        if memo.answer_quantities is None:
            memo.answer_quantities = quantities(answer)
        if quantities(info.observed) & memo.answer_quantities:
            return True
    return any(same_value(g.text, info.observed) for g in found)


# A code of two to four letters and digits, with a digit, after a label and a space
# or a colon.
_SHORT_CODE = r"\s*[:#]?\s*(?P<code>(?=[A-Za-z]*\d)[A-Za-z0-9]{2,4})(?![\w-])"


def _short_code_of(value: str, info: FieldInfo) -> bool:
    """Whether ``value`` is a short code (two to four letters and digits, with a digit)
    of the length and letter case of the field's observed code ("E4" for "C3")."""
    like = normalize_id(info.observed or "")
    return (
        info.type in ("alnum", "digits")
        and 2 <= len(like) <= 4
        and re.fullmatch(r"(?=[A-Za-z]*\d)[A-Za-z0-9]{2,4}", value) is not None
        and len(normalize_id(value)) == len(like)
        and value.isupper() == like.isupper()
    )


# Value types that a sentence rarely states about anything but the entity's own
# field when the reference has exactly one field of that type.
_SLOT_TYPES = frozenset({"date", "money", "alnum"})


@dataclass
class _SlotMemo:
    """What :func:`_only_slot` reads of a whole answer or of one of its sentences,
    kept for the answer's other values."""

    states_observed: dict[str, bool] = field(default_factory=dict)
    answer_quantities: frozenset[str] | None = None
    about: dict[tuple[int, str], bool] = field(default_factory=dict)
    # The words beside each amount the exemplar states.
    procedure_money: list[tuple[tuple[str, ...], tuple[str, ...]]] | None = None


def _beside(text: str, start: int, end: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The two content words before a value and the two after it, in its clause."""
    left = re.split(r"[.;:!?\n]", text[max(0, start - 60) : start])[-1]
    right = re.split(r"[.;:!?\n]", text[end : end + 60])[0]
    return tuple(content(tokens(left))[-2:]), tuple(content(tokens(right))[:2])


def _only_slot(
    f: Found,
    sentence: Sentence,
    answer: str,
    item: GoldenItem | None,
    fields: dict[str, FieldInfo],
    found: list[Found],
    memo: _SlotMemo,
) -> str | None:
    """The field a date, amount or code stands for when nothing in its sentence says
    so: the only field of its type the reference and the context know of, observed,
    when

    * the answer does not state its observed value (in any form: an answer that
      states the observed date and another one is naming another date);
    * the value's sentence talks about what the exemplar's sentence for that field
      talks about: they share a content word, or the sentence has the field's label
      ("You'll find the decision in the portal no later than 2026-06-06" for
      "Decisions are published in the applicant portal by {date}"; not "Cards issued
      before 2025-01-01 must be renewed");
    * a code has the observed code's length (not "form C88A" for "ORD-99120-QA").

    Else None."""
    same = [i for i in fields.values() if i.type == f.type]
    observed = same[0].observed if len(same) == 1 else None
    if observed is None:
        return None
    info = same[0]
    if info.reference is None and item is not None and f.type == "money":
        # A field only the context knows, where the exemplar states an amount as
        # procedure with the same words around it ("pay the £15 protection fee" beside
        # a context's depositAmount): the answer's amount is that procedure's, changed
        # ("a £25 protection fee"), which the step check reads, not a claim about the
        # deposit ("your deposit of £1,200 is protected" still is).
        if memo.procedure_money is None:
            memo.procedure_money = [
                _beside(item.answer, g.start, g.end)
                for g in find_typed_values(item.answer)
                if g.type == "money"
            ]
        before, after = _beside(answer, f.start, f.end)
        if any((after and after == a) or (before and before == b) for b, a in memo.procedure_money):
            return None
    # What is read of the whole answer or of a sentence is read once per answer
    # (``memo``), not once per value: per value it made a long answer of codes
    # quadratic (60,000 characters of "AB-00012 " took 300 s).
    if f.type not in memo.states_observed:
        memo.states_observed[f.type] = any(
            g.type == f.type and same_value(g.text, observed) for g in found
        )
    if memo.states_observed[f.type]:
        return None
    if f.type == "money":
        if memo.answer_quantities is None:
            memo.answer_quantities = quantities(answer)
        if quantities(observed) & memo.answer_quantities:
            return None
    if f.type == "alnum" and len(normalize_id(f.text)) != len(normalize_id(observed)):
        return None
    key = (sentence.start, info.name)
    if key not in memo.about:
        memo.about[key] = _about_field(sentence, info, item)
    if not memo.about[key]:
        return None
    return info.name


def _about_field(sentence: Sentence, info: FieldInfo, item: GoldenItem | None) -> bool:
    """Whether ``sentence`` has a content word of the field's labels, or of a reference
    sentence that states the field's reference value ("Your appointment is at 3:20 pm"
    for "Appointment 55190 is on 2026-03-02 at 10:40.")."""
    about = {w for label in info.labels for w in content(tokens(label))}
    if item is not None and info.reference is not None and info.reference.value:
        for ref_sentence in split_sentences(item.answer):
            if info.reference.value in ref_sentence.text:
                about |= set(content(tokens(ref_sentence.text)))
    mine = content(tokens(sentence.text))
    return any(same_word(w, a, 4) for w in mine for a in about)


def _typed(f: Found, info: FieldInfo | None) -> ValueType:
    if info is not None and info.type in ("enum", "money", "date") and f.type == "integer":
        return info.type
    return f.type


def _resolve_overlaps(cands: list[Candidate]) -> list[Candidate]:
    chosen: list[Candidate] = []
    taken = DisjointSpans()
    for c in sorted(cands, key=lambda c: (CUE_RANK[c.cue], -(c.end - c.start), c.start)):
        if taken.overlaps((c.start, c.end)):
            continue
        taken.add((c.start, c.end))
        chosen.append(c)
    # The same value stated twice for the same field is one claim.
    seen: set[tuple[str | None, str]] = set()
    unique: list[Candidate] = []
    for c in sorted(chosen, key=lambda c: c.start):
        key = (c.field, normalize_text(c.value))
        if key in seen:
            continue
        seen.add(key)
        unique.append(c)
    return unique


def reference_value(item: GoldenItem | None, fld: str | None) -> str | None:
    if item is None or fld is None:
        return None
    spec = item.parameters.get(fld)
    return spec.value if spec else None
