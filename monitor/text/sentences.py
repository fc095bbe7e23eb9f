"""Sentences and clauses of a text."""

from __future__ import annotations

import re
from dataclasses import dataclass

# A sentence ends at . ! ? (and closing quotes or brackets) before a capital or a
# digit, or at a line break: decimal points and dates do not split.
# "No." before a number is an abbreviation ("patient no. 418230"), not an end; so are
# the other short abbreviations that stand before a number ("max. 5 working days",
# "approx. 3 weeks", "min. 2 nights", "ref. 4471", "tel. 0161 ...").
_ABBREVIATIONS = ("max", "min", "approx", "appx", "ca", "nr", "ref", "tel", "ext", "incl", "excl")
_BEFORE_NUMBER = "|".join(
    [r"(?<=\w\s[Nn]o\.)", r"(?<=\([Nn]o\.)"]
    + [rf"(?<=\b{a[0]}{a[1:]}\.)|(?<=\b{a[0].upper()}{a[1:]}\.)" for a in _ABBREVIATIONS]
)
# "min." after a number is the unit ("$2 per 30 min. 2 hours is the maximum stay"):
# that one ends a sentence.
_UNIT_MIN = r"(?<=\d min\.)|(?<=\dmin\.)"
_ABBREVIATION_BEFORE_NUMBER = (
    r"(?!(?:" + _UNIT_MIN + r"))(?:" + _BEFORE_NUMBER + r")\s+(?:[A-Z]*\d|<)"
)
_SENTENCE_END = re.compile(
    r"(?<=[.!?])(?!"
    + _ABBREVIATION_BEFORE_NUMBER
    + r")[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9\u00C0-\u024F])|\n+"
)
# A run of two or more whitespace characters (read as one space before splitting).
SPACE_RUN = re.compile(r"\s{2,}")
# Clause boundaries: a semicolon, a comma (with or without a conjunction), "and"/"but",
# a dash between spaces before three words ("we refund in full - any later and the
# deposit is kept"; not a hyphen or a range, "8-12", "check-in", nor a dash before a
# note, "attach 2 photos - optional; ...", "booking ends - booking G2QQ33G").
_WORD = r"[\w'\u2019$\u00a3\u20ac]+"
# The "and" of a number is no clause break: "an hour and a half", "two and a half days",
# "one hundred and fifty" (after a number or unit word, before "a half" or a number
# word); it is written with a mark that is no space before splitting, and restored.
_NUMBER_WORD = (
    r"(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|hours?|days?"
    r"|weeks?|months?|years?|nights?|minutes?|miles?|litres?|metres?)"
)
_UNIT = r"(?:hours?|days?|weeks?|months?|years?|nights?|minutes?|miles?|litres?|metres?)\b"
_NUMBER_AND = re.compile(
    rf"\b({_NUMBER_WORD})\s+and\s+(?=(?:a\s+half|a\s+quarter|three\s+quarters)\b(?!\s+(?!(?:and|or|but|then|to|from)\b|{_UNIT})\w))"
    r"|\b(hundred)\s+and\s+(?=(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven"
    r"|twelve|thirteen|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b)",
    re.IGNORECASE,
)
_KEEP = "\x00"
_CLAUSE_SPLIT = re.compile(
    r"\s*(?:;|,\s*(?:and|but|or|so)\s+|,\s+|\s+(?:and|but)\s+"
    rf"|\s[-\u2013\u2014]\s(?={_WORD}\s+{_WORD}\s+{_WORD}))\s*",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Sentence:
    """``text`` is the sentence, stripped; it stands at ``[start, end)`` of the source."""

    start: int
    end: int
    text: str


def split_sentences(text: str) -> list[Sentence]:
    """Sentences with their character spans. Decimal points and dates do not split."""
    out: list[Sentence] = []
    pos = 0
    for m in _SENTENCE_END.finditer(text):
        chunk = text[pos : m.start()]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            out.append(Sentence(pos + lead, m.start(), chunk.strip()))
        pos = m.end()
    chunk = text[pos:]
    if chunk.strip():
        lead = len(chunk) - len(chunk.lstrip())
        out.append(Sentence(pos + lead, pos + lead + len(chunk.strip()), chunk.strip()))
    return out


def split_clauses(text: str) -> list[str]:
    """The non-empty clauses of a sentence, in order."""
    # Runs of spaces are one space first: the split pattern backtracks over a long run
    # (2,000 spaces took 17 s).
    kept = _NUMBER_AND.sub(lambda m: f"{m.group(1) or m.group(2)}{_KEEP}and{_KEEP}", text)
    parts = _CLAUSE_SPLIT.split(SPACE_RUN.sub(" ", kept))
    return [c.replace(_KEEP, " ") for c in parts if c]
