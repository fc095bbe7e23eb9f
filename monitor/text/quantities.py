"""Quantities a policy states: durations, counts and percentages, in one canonical form.

"14 days", "two weeks" and "a fortnight" are one duration; "10 business days" and
"ten working days" are one; "twice" is the count 2; "3%" and "3 percent" are one
percentage. Comparing canonical forms (not digits) is what lets a paraphrase say a
number its own way while a changed number still reads as changed. Entity values
(dates, amounts, identifiers) are masked before this is called, so what is left is
procedure.
"""

from __future__ import annotations

import re

from monitor.text.lexicon import NUMBER_WORDS

_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90}
_MORE_WORDS = {
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "eighteen": 18,
    "twenty-four": 24,
    "forty-eight": 48,
    "seventy-two": 72,
    "hundred": 100,
}
_WORD_VALUE: dict[str, float] = {
    **{w: float(v) for w, v in NUMBER_WORDS.items()},
    **{w: float(v) for w, v in _TENS.items()},
    **{w: float(v) for w, v in _MORE_WORDS.items()},
    "a": 1.0,
    "an": 1.0,
    "a single": 1.0,
    "half an": 0.5,
    "half a": 0.5,
    "a quarter of an": 0.25,
    "a quarter of a": 0.25,
    "quarter of an": 0.25,
}
# Units in a base per family: minutes for clock time and calendar days, business
# days apart (a business week is not seven of them), months apart (not a fixed
# number of days).
_UNITS: dict[str, tuple[str, float]] = {
    "minute": ("min", 1),
    "min": ("min", 1),
    "hour": ("min", 60),
    "hr": ("min", 60),
    "day": ("min", 1440),
    "night": ("night", 1),
    "week": ("min", 10080),
    "fortnight": ("min", 20160),
    "business day": ("bday", 1),
    "working day": ("bday", 1),
    "workday": ("bday", 1),
    "weekday": ("bday", 1),
    "business week": ("bday", 5),
    "working week": ("bday", 5),
    "month": ("month", 1),
    "year": ("month", 12),
    "percent": ("pct", 1),
    "per cent": ("pct", 1),
    "%": ("pct", 1),
}
_NUM_WORD_RE = "|".join(sorted((re.escape(w) for w in _WORD_VALUE), key=len, reverse=True))
# Number words read as a count on their own ("two online changes"); not "a", "an"
# or "one", which are as often articles and pronouns.
_COUNT_WORD_RE = "|".join(
    sorted((w for w, v in _WORD_VALUE.items() if v >= 2 and " " not in w), key=len, reverse=True)
)
_UNIT_RE = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_QUANTITY = re.compile(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?|" + _NUM_WORD_RE + r")(?:[\s-]+|(?=%))(?:[a-z]+\s+)??"
    r"(?P<unit>" + _UNIT_RE + r")(?:s|es)?(?![\w])"
    r"|(?<![\w])(?P<bare>fortnight|twice|thrice)(?![\w])"
    r"|(?<![\w.])(?P<count>\d+(?:\.\d+)?)(?![\w.%])"
    r"|(?<![\w-])(?P<wcount>" + _COUNT_WORD_RE + r")(?![\w-])",
)
_RATE = re.compile(
    r"(?<![\w])(?:per|each|every)\s+(minute|hour|day|night|week|month|year|quarter)s?(?![\w])"
)
_BARE = {"fortnight": "min:20160", "twice": "n:2", "thrice": "n:3"}
_COMPOUND = re.compile(
    r"\b(" + "|".join(_TENS) + r")[\s-](one|two|three|four|five|six|seven|eight|nine)\b"
)


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


def quantities(text: str) -> set[str]:
    """Canonical quantities of ``text``: ``min:20160`` (two weeks), ``bday:10``,
    ``month:3``, ``pct:3``, ``n:2`` (a count or a bare number), ``money:USD:40``
    (an amount; "$40" = "USD 40")."""
    from monitor.values import MONEY, normalize_money  # values imports the lexicon

    out: set[str] = set()
    for m in MONEY.finditer(text):
        money = normalize_money(m.group(0))
        if money is not None:
            out.add(f"money:{money[0]}:{money[1].normalize():f}")
    text = MONEY.sub(" ", text)
    low = text.casefold().replace("’", "'")
    low = _COMPOUND.sub(lambda m: str(_TENS[m.group(1)] + int(NUMBER_WORDS[m.group(2)])), low)
    # A rate's period is a unit too: "per month" is not "per week".
    for m in _RATE.finditer(low):
        out.add("per:" + m.group(1))
    for m in _QUANTITY.finditer(low):
        if m.group("bare"):
            out.add(_BARE[m.group("bare")])
            continue
        if m.group("count"):
            out.add("n:" + _fmt(float(m.group("count"))))
            continue
        if m.group("wcount"):
            out.add("n:" + _fmt(_WORD_VALUE[m.group("wcount")]))
            continue
        raw = m.group("num")
        value = float(raw) if raw[0].isdigit() else _WORD_VALUE[raw]
        family, factor = _UNITS[re.sub(r"\s+", " ", m.group("unit"))]
        out.add(f"{family}:{_fmt(value * factor)}")
    return out


# "one guest", "3 guests", "a single bag": a number word or numeral counting the noun
# right after it. "a"/"an" are left out (articles as often as counts).
_COUNTED = re.compile(
    r"(?<![\w.-])(?P<num>\d+|a single|"
    + "|".join(
        sorted(
            (w for w, v in _WORD_VALUE.items() if v >= 1 and " " not in w and w not in ("a", "an")),
            key=len,
            reverse=True,
        )
    )
    + r")\s+(?P<noun>[a-z]{3,})(?![\w-])",
)
_NOT_NOUNS = frozenset(
    {
        "more",
        "less",
        "fewer",
        "other",
        "another",
        "of",
        "or",
        "and",
        "that",
        "which",
        "who",
        "time",
        "times",
        "way",
        "ways",
        "thing",
        "things",
    }
)


def _noun_key(noun: str) -> str:
    """A count noun's key, plural or not ("guests", "guest" -> "guest")."""
    n = noun.casefold()
    for suffix in ("ies", "es", "s"):
        if n.endswith(suffix) and len(n) - len(suffix) >= 3:
            return n[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return n


def counted_nouns(text: str) -> dict[str, set[float]]:
    """The counts each noun is given in ``text`` ("one guest" -> {"guest": {1}}), units
    of time and money aside (:func:`quantities` has those)."""
    out: dict[str, set[float]] = {}
    for m in _COUNTED.finditer(text.casefold()):
        noun = m.group("noun")
        if noun in _NOT_NOUNS or _noun_key(noun) in _UNIT_KEYS:
            continue
        raw = m.group("num")
        value = float(raw) if raw[0].isdigit() else (1.0 if raw == "a single" else _WORD_VALUE[raw])
        out.setdefault(_noun_key(noun), set()).add(value)
    return out


_UNIT_KEYS = frozenset(
    {_noun_key(w) for u in _UNITS for w in u.split()} | {"calendar", "working", "busines"}
)
