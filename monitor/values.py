"""Typed value detection and normalisation for instance facts.

Entity values (identifiers, dates, amounts, numbers, statuses) are recognised by
shape, compared by meaning (``2025-07-19`` equals ``July 19, 2025``; ``$1,200``
equals ``1200.00 USD``) and never by raw string. Everything here is pure and
language-agnostic apart from the English month names used for date parsing.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Literal

from monitor.text.lexicon import COMMON_VERBS, LIGHT_WORDS, MONTHS, STOPWORDS
from monitor.text.normalize import normalize_text
from monitor.text.tokens import content, tokens

ValueType = Literal["digits", "alnum", "date", "enum", "integer", "money", "text", "time"]

_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))

# Word boundaries that also hold next to unicode letters.
_B = r"(?<![\w])"
_E = r"(?![\w])"

ISO_DATE = re.compile(_B + r"(\d{4})-(\d{2})-(\d{2})" + _E)
SLASH_DATE = re.compile(_B + r"(\d{4})/(\d{1,2})/(\d{1,2})" + _E)
MDY_DATE = re.compile(
    _B + r"(" + _MONTH_RE + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})" + _E, re.IGNORECASE
)
DMY_DATE = re.compile(
    _B + r"(\d{1,2})(?:st|nd|rd|th)?\s+(" + _MONTH_RE + r")\.?,?\s+(\d{4})" + _E, re.IGNORECASE
)
# A time of day: "14:20", "2:20 pm", "2.20pm", "2 p.m." (a dot or a bare hour only with
# am/pm, which a decimal or a count lacks: "14.20" stays a number, "2:1" a ratio).
_MERIDIEM = r"\s?(?P<{0}>[ap])(?:\.\s?m\b\.?|m\b)"
CLOCK = re.compile(
    _B
    + r"(?<![\d.:])(?P<h>\d{1,2}):(?P<m>[0-5]\d)(?:"
    + _MERIDIEM.format("ap")
    + r")?(?![\d:])"
    + r"|"
    + _B
    + r"(?<![\d.:,])(?P<h2>\d{1,2})(?:\.(?P<m2>[0-5]\d))?"
    + _MERIDIEM.format("ap2"),
    re.IGNORECASE,
)
MONEY = re.compile(
    r"(?:(?P<sym>[$€£¥])\s?(?P<a1>\d[\d,]*(?:\.\d+)?)"
    r"|"
    + _B
    # Not inside a run of digits and commas: "1,1,1,..." must not be rescanned from
    # every position (quadratic on a hostile answer).
    + r"(?<![\d,])(?P<a2>\d[\d,]*(?:\.\d+)?)\s?(?P<code>USD|EUR|GBP|JPY|CHF|CAD|AUD|INR)"
    + _E
    # The ISO code before the amount ("USD 259.01") is as common as after it.
    + r"|"
    + _B
    + r"(?P<code2>USD|EUR|GBP|JPY|CHF|CAD|AUD|INR)\s?(?P<a3>\d[\d,]*(?:\.\d+)?)"
    + _E
    # The euro sign after the amount ("15€", "15 €"), as much of Europe writes it.
    + r"|"
    + _B
    + r"(?<![\d,])(?P<a4>\d[\d,]*(?:\.\d+)?)\s?(?P<sym2>€)(?!\s?\d)"
    + ")"
)
# Identifier with letters and digits mixed (service tags, part numbers, WO-123456).
ALNUM_ID = re.compile(
    _B + r"(?=[A-Z0-9-]{0,64}\d)(?=[A-Z0-9-]{0,64}[A-Z])[A-Z0-9](?:[A-Z0-9]|-(?=[A-Z0-9])){3,}" + _E
)
DIGIT_ID = re.compile(_B + r"\d{5,}" + _E)
NUMBER = re.compile(_B + r"\d+(?:[.,]\d+)?%?" + _E)
_DIGIT = re.compile(r"\d")

_SYMBOL_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}


@dataclass(frozen=True, slots=True)
class Found:
    """A typed value found in a text: ``text[start:end]`` has type ``type``."""

    start: int
    end: int
    text: str
    type: ValueType


class DisjointSpans:
    """Disjoint spans, kept sorted: an overlap test is a bisection, not a scan (an
    answer of thousands of numbers made the scan quadratic)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, a: tuple[int, int]) -> bool:
        # The spans are disjoint, so ordered by start their ends are ordered too: a
        # span overlaps one of them iff it overlaps the last one starting before its end.
        k = bisect.bisect_left(self.starts, a[1])
        return k > 0 and self.ends[k - 1] > a[0]

    def add(self, a: tuple[int, int]) -> None:
        k = bisect.bisect_left(self.starts, a[0])
        self.starts.insert(k, a[0])
        self.ends.insert(k, a[1])


def find_typed_values(text: str) -> list[Found]:
    """All dates, amounts, identifiers and numbers in ``text``, left to right.

    Earlier patterns win an overlap: a date is not also three numbers, an amount
    is not also an integer.
    """
    found: list[Found] = []
    if not _DIGIT.search(text):
        return found  # every pattern below needs a digit (many steps and clauses have none)
    taken = DisjointSpans()
    passes: list[tuple[re.Pattern[str], ValueType]] = [
        (ISO_DATE, "date"),
        (SLASH_DATE, "date"),
        (MDY_DATE, "date"),
        (DMY_DATE, "date"),
        (CLOCK, "time"),
        (MONEY, "money"),
        (ALNUM_ID, "alnum"),
        (DIGIT_ID, "digits"),
        (NUMBER, "integer"),
    ]
    for pattern, vtype in passes:
        for m in pattern.finditer(text):
            span = (m.start(), m.end())
            if taken.overlaps(span):
                continue
            if vtype == "date" and normalize_date(m.group(0)) is None:
                continue
            if vtype == "time" and normalize_time(m.group(0)) is None:
                continue
            found.append(Found(m.start(), m.end(), m.group(0), vtype))
            taken.add(span)
    found.sort(key=lambda f: f.start)
    return found


def shape_of(value: str) -> ValueType:
    """The type a bare value has by its shape alone."""
    v = value.strip()
    if not v:
        return "text"
    if re.fullmatch(r"\d+", v):
        return "digits" if len(v) >= 5 else "integer"
    if normalize_date(v) is not None and (
        ISO_DATE.fullmatch(v)
        or SLASH_DATE.fullmatch(v)
        or MDY_DATE.fullmatch(v)
        or DMY_DATE.fullmatch(v)
    ):
        return "date"
    if MONEY.fullmatch(v):
        return "money"
    if normalize_time(v) is not None:
        return "time"
    if re.fullmatch(r"-?\d+(?:\.\d+)?%?", v):
        return "integer"
    if ALNUM_ID.fullmatch(v):
        return "alnum"
    return "text"


def normalize_date(text: str) -> str | None:
    """ISO ``YYYY-MM-DD`` for a date written in a supported format, else ``None``."""
    t = text.strip()
    for pattern, order in (
        (ISO_DATE, "ymd"),
        (SLASH_DATE, "ymd"),
        (MDY_DATE, "mdy"),
        (DMY_DATE, "dmy"),
    ):
        m = pattern.fullmatch(t)
        if not m:
            continue
        a, b, c = m.groups()
        try:
            if order == "ymd":
                d = date(int(a), int(b), int(c))
            elif order == "mdy":
                d = date(int(c), MONTHS[a.lower()], int(b))
            else:
                d = date(int(c), MONTHS[b.lower()], int(a))
        except (ValueError, KeyError):
            return None
        return d.isoformat()
    return None


# "14.20" as a time, where the value is compared with a time ("14:20").
_DOT_TIME = re.compile(r"(\d{1,2})\.([0-5]\d)")


def normalize_time(text: str, dotted: bool = False) -> str | None:
    """``HH:MM`` (24-hour) for a time of day written in a supported form ("14:20",
    "2:20 pm", "2.20pm", "2 p.m.", "12 am" = "00:00"; with ``dotted``, "14.20" too),
    else ``None``."""
    t = text.strip()
    if dotted and (d := _DOT_TIME.fullmatch(t)):
        t = f"{d.group(1)}:{d.group(2)}"
    m = CLOCK.fullmatch(t)
    if not m:
        return None
    hour = int(m.group("h") or m.group("h2"))
    minute = int(m.group("m") or m.group("m2") or 0)
    half = (m.group("ap") or m.group("ap2") or "").casefold()
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "p" else 0)
    elif hour > 23:
        return None
    return f"{hour:02d}:{minute:02d}"


def normalize_money(text: str) -> tuple[str | None, Decimal] | None:
    m = MONEY.fullmatch(text.strip())
    if not m:
        return None
    amount = (m.group("a1") or m.group("a2") or m.group("a3") or m.group("a4") or "").replace(
        ",", ""
    )
    currency = (
        _SYMBOL_CURRENCY.get(m.group("sym") or m.group("sym2") or "")
        or m.group("code")
        or m.group("code2")
    )
    try:
        return currency, Decimal(amount)
    except InvalidOperation:
        return None


def normalize_id(text: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", unicodedata.normalize("NFKC", text)).upper()


def _as_number(text: str) -> Decimal | None:
    t = text.strip().rstrip("%").replace(",", "")
    try:
        return Decimal(t)
    except InvalidOperation:
        return None


def same_value(a: str, b: str, vtype: ValueType | None = None) -> bool:
    """Whether two written values denote the same fact.

    Dates compare as dates, amounts as amounts (currency must agree when both
    state one), identifiers ignoring separators and case, numbers numerically,
    everything else as normalised text.
    """
    ta = vtype or shape_of(a)
    tb = shape_of(b)
    if "date" in (ta, tb):
        da, db = normalize_date(a), normalize_date(b)
        if da is not None and db is not None:
            return da == db
    if "time" in (ta, tb):
        ha, hb = normalize_time(a, dotted=True), normalize_time(b, dotted=True)
        if ha is not None and hb is not None:
            return ha == hb
    if "money" in (ta, tb):
        ma, mb = normalize_money(a), normalize_money(b)
        na = ma[1] if ma else _as_number(a)
        nb = mb[1] if mb else _as_number(b)
        if na is not None and nb is not None:
            ca = ma[0] if ma else None
            cb = mb[0] if mb else None
            return na == nb and (ca is None or cb is None or ca == cb)
    if ta in ("digits", "alnum") or tb in ("digits", "alnum"):
        return normalize_id(a) == normalize_id(b)
    na2, nb2 = _as_number(a), _as_number(b)
    if na2 is not None and nb2 is not None:
        return na2 == nb2
    return normalize_text(a) == normalize_text(b)


def compatible_shape(value: str, vtype: ValueType, like: str) -> bool:
    """Whether ``value`` looks like another instance of the field whose value is ``like``.

    Identifiers must have the same length and character classes, so that a
    9-digit number is not mistaken for a 7-character service tag.
    """
    if vtype != shape_of(like):
        return False
    if vtype == "digits":
        return len(normalize_id(value)) == len(normalize_id(like))
    if vtype == "alnum":
        a, b = normalize_id(value), normalize_id(like)
        return len(a) == len(b) and a[:1].isdigit() == b[:1].isdigit()
    return True


def mask_entities(text: str) -> str:
    """Remove identifiers, dates and amounts from a question before it is embedded.

    Two questions about different instances of the same procedure ("status of
    case 215474133" vs "status of case 171056262") should retrieve the same
    exemplar with the same confidence; raw identifiers otherwise move the
    embedding by as much as a change of topic. Small numbers stay (they can be
    procedure: "severity 1").
    """
    out = text
    for f in reversed(find_typed_values(text)):
        # (A time stays, as a small number does: "after 9:00" is as often procedure.)
        if f.type not in ("integer", "time"):
            out = out[: f.start] + out[f.end :]
    return _tidy(out)


def _tidy(text: str) -> str:
    """``text`` after values were cut out of it: no doubled space, none before a
    punctuation mark, none at the ends."""
    return re.sub(r"\s+([?.!,;:])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()


_WORD = re.compile(r"\w+")


class NamedValues:
    """Entity values a golden set names, removed from a question before it is
    embedded, as :func:`mask_entities` removes the values it knows by their shape.

    A golden item's question holds its own instance's values, and a live question
    about another instance holds that instance's: a service ("Deep Clean" / "Spring
    Refresh"), a branch, a plan. Where they are names rather than codes or dates, the
    shape mask keeps them, and two questions of one procedure about two instances
    move apart by as much as a change of topic. The golden set says what these values
    are (:func:`monitor.retrieval.named_values`). A value of several words is matched
    as a whole run of words in any case; a one-word value, or one whose words are all
    everyday words ("On Hold", "Out of Hours"), only as written ("Closed" is the
    status, "closed" in "a case that was already closed" the verb); a one-word value
    that is a function word or shorter than three letters is never removed ("No",
    "P2"). A text that would keep fewer than two content words is left as it is: the
    values were what it said ("Economy 7?", "Is Premium worth it?")."""

    def __init__(self, phrases: Iterable[str], kept: Iterable[str] = ()) -> None:
        """``kept``: values that are not removed (as :meth:`found` gives them)."""
        keep = {tuple(w.casefold() for w in _WORD.findall(k)) for k in kept}
        # First word -> run lengths, longest first -> runs (folded, or as written).
        self._folded: dict[str, dict[int, set[tuple[str, ...]]]] = {}
        self._written: dict[str, dict[int, set[tuple[str, ...]]]] = {}
        for phrase in phrases:
            written = tuple(_WORD.findall(phrase))
            ws = tuple(w.casefold() for w in written)
            if not ws or ws in keep or (len(ws) == 1 and (len(ws[0]) < 3 or ws[0] in STOPWORDS)):
                continue
            if len(ws) == 1 or all(_everyday(w) for w in ws):
                self._written.setdefault(written[0], {}).setdefault(len(ws), set()).add(written)
            else:
                self._folded.setdefault(ws[0], {}).setdefault(len(ws), set()).add(ws)

    def __bool__(self) -> bool:
        return bool(self._folded or self._written)

    def found(self, text: str) -> list[str]:
        """The named values ``text`` holds, as written there."""
        return [text[a:b] for a, b in self._cuts(text)]

    def remove(self, text: str) -> str:
        """``text`` without the named values it holds (whole runs of words), or as it
        is when too little of it would be left."""
        cuts = self._cuts(text)
        if not cuts:
            return text
        out = text
        for a, b in reversed(cuts):
            out = out[:a] + out[b:]
        if _content_words(out) < 2:
            return text
        return _tidy(out)

    def _cuts(self, text: str) -> list[tuple[int, int]]:
        if not self:
            return []
        words = list(_WORD.finditer(text))
        plain = [m.group() for m in words]
        folded = [w.casefold() for w in plain]
        cuts: list[tuple[int, int]] = []
        i = 0
        while i < len(words):
            n = max(
                _run_at(self._folded.get(folded[i]), folded, i),
                _run_at(self._written.get(plain[i]), plain, i),
            )
            if n:
                cuts.append((words[i].start(), words[i + n - 1].end()))
            i += n or 1
        return cuts


def _run_at(by_length: dict[int, set[tuple[str, ...]]] | None, ws: list[str], i: int) -> int:
    """The length of the longest run of ``by_length`` that starts at word ``i``."""
    if not by_length:
        return 0
    for n in sorted(by_length, reverse=True):
        if tuple(ws[i : i + n]) in by_length[n]:
            return n
    return 0


def _everyday(word: str) -> bool:
    return word in STOPWORDS or word in COMMON_VERBS or word in LIGHT_WORDS


def _content_words(text: str) -> int:
    # (Words as ``\w+`` splits them: the "s" of "it's" counts, which the tokens of
    # :func:`content_words` would not.)
    return sum(1 for w in _WORD.findall(text) if w.casefold() not in STOPWORDS and not w.isdigit())


def content_words(text: str) -> list[str]:
    """The content words of ``text`` (:func:`monitor.text.tokens.content`), numbers
    left out."""
    return [w for w in content(tokens(text)) if not w[:1].isdigit()]
